"""Picking one element per row: kthvalue, mode, and the running max/min cummax, cummin.

Each returns (values, indices): the values were picked from the input, so (like
max(dim) in reduction.py) the gradient of each value goes back to the one element it
was picked from, the one ``indices`` names; every other element gets 0. A running
maximum may pick the same element many times: its gradients add up.
PyTorch: torch.kthvalue, torch.mode, torch.cummax, torch.cummin.
"""
import numpy as np

from .._tensor import _wrap, _normalize_dim, shrunk_to_0d
from ..autograd.graph import Node, _SETTINGS_KEPT_AS, show_saved_names
from .views import history_first
from . import result, plain_output, zeros_set_in_place
from .reduction import return_types, _extreme_dim_backward, _extreme_dim_jvp
from .scan import _dim_argument
from ..autograd.kernel_writes import kernel_writes


def _return_type(name):
    """A (values, indices) tuple printed as ``torch.return_types.<name>``, as PyTorch's."""
    kind = type(name, (return_types._ValuesIndices,), {"_name": name})
    setattr(return_types, name, kind)
    return kind


_return_type("kthvalue")
_return_type("mode")
_return_type("cummax")
_return_type("cummin")


def _as_given(name):
    """PyTorch shows a dim or offset as it was given, a negative one as the unsigned 64-bit
    number of the same bits (-1 is 2**64 - 1)."""
    return lambda settings: settings[name] % 2**64


# --- kthvalue and mode ----------------------------------------------------------------------

class KthvalueBackward0(Node):
    """values, indices = self.kthvalue(k, dim)   ->   grad_self = zeros, with grad at indices"""
    backward = _extreme_dim_backward

    def jvp(self, tangents, inputs, out):
        """result_t = self_t at indices"""
        return _extreme_dim_jvp(self, tangents)


class ModeBackward0(KthvalueBackward0):
    """values, indices = self.mode(dim)   ->   grad_self = zeros, with grad at indices"""


def _picked(input, dim, keepdim, name, pick, node_class, return_type):
    """values and indices of ``pick(row) -> index`` along ``dim``, recorded as ``node_class``."""
    array = input._array
    dim_as_given, dim = dim, _normalize_dim(dim, array.ndim)
    rows = np.moveaxis(array, dim, -1) if array.ndim else array.reshape(1)
    if rows.shape[-1] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")
    flat = rows.reshape(-1, rows.shape[-1])
    indices = np.array([pick(row) for row in flat], dtype=np.int64).reshape(rows.shape[:-1])
    values = np.take_along_axis(rows, indices[..., None], -1)[..., 0]
    if keepdim and array.ndim:
        indices, values = np.expand_dims(indices, dim), np.expand_dims(values, dim)
    values, indices = np.array(values, order="C"), np.array(indices, order="C")    # (0-d stays 0-d)
    out = result(values, node_class, (input,), saved=(), input_shape=array.shape, dim=dim,
                 keepdim=keepdim, indices=indices, dim_as_given=dim_as_given)
    return return_type(out, plain_output(indices, input))


def _quick_select(row, k):
    """The position in ``row`` of its k-th smallest value (from 0), found as PyTorch's CPU
    kernel finds it, so that among equal values the same one is picked: quickselect with a
    median-of-three pivot (Numerical Recipes' ``select``), NaN larger than every number.

    Only the order in which elements are swapped matters here: it decides which of several
    equal values ends up at place k.
    """
    values, positions = row.copy(), np.arange(row.size)

    def after(a, b):               # a sorts after b
        return a > b or (np.isnan(a) and not np.isnan(b))

    def swap(i, j):
        values[i], values[j] = values[j], values[i]
        positions[i], positions[j] = positions[j], positions[i]

    low, high = 0, row.size - 1
    while high > low:
        if high == low + 1:                  # two elements: put them in order, done
            if after(values[low], values[high]):
                swap(low, high)
            break
        # the median of values[low], the middle one and values[high] becomes the pivot, at low;
        # the smallest of the three goes to low + 1, the largest to high (they stop the scans)
        swap(low + (high - low) // 2, low + 1)
        if after(values[low + 1], values[high]):
            swap(low + 1, high)
        if after(values[low], values[high]):
            swap(low, high)
        if after(values[low + 1], values[low]):
            swap(low + 1, low)
        pivot = values[low]
        i, j = low + 1, high
        while True:                           # smaller ones to the left, larger to the right
            i += 1
            while after(pivot, values[i]):
                i += 1
            j -= 1
            while after(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(low, j)                          # the pivot at its final place j
        if j <= k:
            low = i
        if j >= k:
            high = j - 1
    return positions[k]


@history_first
def kthvalue(input, k, dim=-1, keepdim=False):
    """(values, indices): the ``k``-th smallest element along ``dim`` (k = 1 is the smallest)
    and its position. NaN counts as larger than every number.

    Gradient: grad goes to the element at ``indices``.
    """
    wrapped = _normalize_dim(dim, input.ndim)
    size = input.shape[wrapped] if input.ndim else 1
    if size == 0:
        raise IndexError(f"kthvalue(): Expected reduction dim {wrapped} to have non-zero size.")
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {wrapped}")
    if input.ndim and input._array.dtype.kind == "b":
        raise NotImplementedError('"kthvalue_cpu" not implemented for \'Bool\'')

    def kth(row):
        return _quick_select(row, k - 1)
    out = _picked(input, dim, keepdim, "kthvalue", kth, KthvalueBackward0, return_types.kthvalue)
    out = shrunk_to_0d(out, 1 if input.ndim else 0)      # (the kept dim: see shrunk_to_0d)
    return kernel_writes("kthvalue", out, input)


def _sorted_as_std_sort(row):
    """The positions of ``row`` in the order C++'s ``std::sort`` (GCC's libstdc++, which
    PyTorch's CPU build uses) leaves them when it compares values with ``<``.

    That sort is not stable, and NaN is neither smaller nor larger than anything, so which
    of several equal values comes last, and where NaNs end up, depends on how it works:
    quicksort (pivot: the median of the second, middle and last elements) until a stretch
    has at most 16 elements, then one insertion sort over everything.
    """
    order = list(range(len(row)))

    def less(a, b):
        return row[a] < row[b]

    def insert(i):                  # move order[i] left past the elements larger than it
        item = order[i]
        while i > 0 and less(item, order[i - 1]):
            order[i] = order[i - 1]
            i -= 1
        order[i] = item

    def quicksort(low, high, depth):
        while high - low > 16:
            if depth == 0:          # (libstdc++ heapsorts here; only an order built to
                order[low:high] = sorted(order[low:high], key=lambda p: (row[p] != row[p], row[p]))
                return              # defeat the median pivot gets here)
            depth -= 1
            a, b, c = low + 1, low + (high - low) // 2, high - 1
            if less(order[a], order[b]):
                median = b if less(order[b], order[c]) else c if less(order[a], order[c]) else a
            else:
                median = a if less(order[a], order[c]) else c if less(order[b], order[c]) else b
            order[low], order[median] = order[median], order[low]      # the pivot, at low
            i, j = low + 1, high
            while True:             # smaller ones to the left, larger ones to the right
                while less(order[i], order[low]):
                    i += 1
                j -= 1
                while less(order[low], order[j]):
                    j -= 1
                if i >= j:
                    break
                order[i], order[j] = order[j], order[i]
                i += 1
            quicksort(i, high, depth)
            high = i

    if len(order) > 1:
        quicksort(0, len(order), 2 * (len(order).bit_length() - 1))
        for i in range(1, len(order)):
            if i < 16 and less(order[i], order[0]):     # smaller than the first: to the front
                order.insert(0, order.pop(i))
            else:
                insert(i)
    return order


@history_first
def mode(input, dim=-1, keepdim=False):
    """(values, indices): the most frequent value along ``dim`` and a position where it
    appears, found as PyTorch's CPU kernel finds them: sort the row (C++'s std::sort), then
    walk it counting runs of equal neighbours; the first longest run wins, at the position
    of its last element. Among equally frequent values that is the smallest; each NaN is a
    run of its own (NaN is not equal to NaN), and where the NaNs land depends on the sort.

    Gradient: grad goes to the element at ``indices``.
    """
    def most_frequent(row):
        order = _sorted_as_std_sort(row.tolist())
        best, longest, run = order[0], 0, 0
        for k, position in enumerate(order):
            run += 1
            if k + 1 == len(order) or not row[position] == row[order[k + 1]]:     # a run ends
                if run > longest:
                    best, longest = position, run
                run = 0
        return best
    out = _picked(input, dim, keepdim, "mode", most_frequent, ModeBackward0, return_types.mode)
    out = shrunk_to_0d(out, 1 if input.ndim else 0)      # (the kept dim: see shrunk_to_0d)
    return kernel_writes("mode", out, input)


# --- cummax and cummin ----------------------------------------------------------------------

class CummaxBackward0(Node):
    """values, indices = self.cummax(dim)   ->
        grad_self = zeros, with each grad[k] added at indices[k] (repeats add up)"""

    _saved_names = ("indices", "self")

    def backward(self, grad):
        indices, input = self.saved_tensors
        if input.numel() == 0:
            # PyTorch hands back the (empty) input itself, which the engine then copies into
            # .grad (version 1) where it would have kept a gradient of its own
            return (input,)
        # into at::zeros (set in place), added in place: the gradient is at version 2
        zeros = zeros_set_in_place(input.shape, grad._array.dtype)
        if input.ndim == 0:
            return (zeros.scatter_add_(0, indices, grad),)
        return (zeros.scatter_add_(self.dim, indices, grad),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.gather(dim, indices)"""
        if inputs[0].ndim == 0:
            return tangents[0] * 1
        return tangents[0].gather(self.dim, _wrap(self.indices_array))


class CumminBackward0(CummaxBackward0):
    """values, indices = self.cummin(dim)   ->
        grad_self = zeros, with each grad[k] added at indices[k] (repeats add up)"""


def _running(input, dim, name, better, node_class, return_type):
    """The running best (max or min) along ``dim`` and where it was found: a later equal
    value takes over, and once a NaN is met it stays (as in PyTorch)."""
    array = input._array
    if array.ndim == 0 and dim not in (-1, 0) and isinstance(dim, int):
        raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    if array.size == 0 and array.ndim and isinstance(dim, int) and not isinstance(dim, bool):
        # an empty tensor gives empty results before its dim is looked at, whatever it is
        dim_as_given = dim
        dim = dim if -array.ndim <= dim < array.ndim else 0
    else:
        dim_as_given, dim = dim, _dim_argument(input, dim, name)
    rows = np.moveaxis(array, dim, -1) if array.ndim else array.reshape(1)
    values = np.empty_like(rows, order="C")
    indices = np.empty(rows.shape, dtype=np.int64)
    if rows.shape[-1]:
        best, where = rows[..., 0].copy(), np.zeros(rows.shape[:-1], dtype=np.int64)
        for k in range(rows.shape[-1]):
            current = rows[..., k]
            with np.errstate(invalid="ignore"):
                takes_over = np.isnan(current) | (~np.isnan(best) & (better(current, best) | (current == best)))
            best = np.where(takes_over, current, best)
            where = np.where(takes_over, k, where)
            values[..., k], indices[..., k] = best, where
    if array.ndim:
        values = np.ascontiguousarray(np.moveaxis(values, -1, dim))
        indices = np.ascontiguousarray(np.moveaxis(indices, -1, dim))
    else:
        values, indices = values.reshape(()), indices.reshape(())
    index_tensor = plain_output(indices, input)
    out = result(values, node_class, (input,), saved=(index_tensor, input), dim=dim,
                 indices_array=indices, dim_as_given=dim_as_given)
    return return_type(out, index_tensor)


@history_first
def cummax(input, dim=None):
    """(values, indices): the largest element so far along ``dim``, and where it is.

    Gradient: each grad[k] goes to the element that was the maximum at k.
    """
    return kernel_writes("cummax", _running(input, dim, "cummax", np.greater, CummaxBackward0, return_types.cummax),
                         input)


@history_first
def cummin(input, dim=None):
    """(values, indices): the smallest element so far along ``dim``, and where it is.

    Gradient: each grad[k] goes to the element that was the minimum at k.
    """
    return kernel_writes("cummin", _running(input, dim, "cummin", np.less, CumminBackward0, return_types.cummin),
                         input)


def _show_as_pytorch(node_class, settings):
    """``grad_fn._saved_<name>`` of ``node_class``'s nodes: PyTorch's name -> the attribute
    (or how to compute it from the attributes), see autograd/graph.py."""
    _SETTINGS_KEPT_AS[node_class.__name__] = settings
    show_saved_names(node_class, settings)


# the settings grad_fn._saved_<name> shows, under PyTorch's names (see autograd/graph.py)
for _node in (KthvalueBackward0, ModeBackward0):
    _show_as_pytorch(_node, {"dim": _as_given("dim_as_given"), "indices": lambda s: _wrap(s["indices"]),
                             "keepdim": "keepdim", "self_sym_sizes": "input_shape"})
for _node in (CummaxBackward0, CumminBackward0):
    _show_as_pytorch(_node, {"dim": _as_given("dim_as_given")})
