"""Counting and looking up: unique, unique_consecutive, bincount, histc, histogram,
searchsorted and bucketize.

These answer "which values are there, how often, and where would this one go" - questions
whose answers are counts and positions, not smooth functions of the input. So none of them
has a gradient. PyTorch still records a node for unique and unique_consecutive of a tensor
that requires grad (Unique2Backward0, ...), one that refuses to run: minigrad does too.

PyTorch: torch.unique, torch.unique_consecutive, torch.bincount, torch.histc,
torch.histogram, torch.searchsorted, torch.bucketize.
"""
import builtins

import numpy as np

from .._type_names import type_name
from .._dtype import checked_number, cpp_type_name, from_numpy_dtype, scalar_type_name
from .._python_arg_parser import invalid_combination
from .._tensor import Tensor, _wrap, _normalize_dim
from ..autograd.graph import Node, attach_outputs, needs_grad, refuse_dtype
from .views import history_first
from . import result, plain_output, batched_as
from .pointwise import nonzero, _refuse_dynamic_shape
from ..autograd.function import _FuncTransforms
from .rounding import _NotImplementedBackward
from .reduction import return_types
from ..autograd.kernel_writes import kernel_writes


def _type_name(array):
    return scalar_type_name(from_numpy_dtype(array.dtype))


# --- unique and unique_consecutive -------------------------------------------------------

class _NoDerivative(Node):
    """result = an operation without a derivative   ->   grad_self = error: the node refuses to run"""

    _operation = ""

    def backward(self, *grads):
        raise NotImplementedError(f"the derivative for '{self._operation}' is not implemented.")

    def jvp(self, tangents, inputs, out):
        """result_t = error: no forward-mode rule either"""
        raise NotImplementedError(f"Trying to use forward AD with {self._operation} that does not support "
                                  "it because it has not been implemented yet.")


class Unique2Backward0(_NoDerivative):
    """result = unique(self)   ->   grad_self = error: unique has no derivative"""
    _operation = "_unique2"


class UniqueDimBackward0(_NoDerivative):
    """result = unique(self, dim)   ->   grad_self = error: unique has no derivative"""
    _operation = "unique_dim"


class UniqueConsecutiveBackward0(_NoDerivative):
    """result = unique_consecutive(self)   ->   grad_self = error: unique has no derivative"""
    _operation = "unique_consecutive"


def _groups(rows, consecutive):
    """Group equal rows (each row one element, or one slice along dim, flattened).

    Returns (order, starts): ``order`` puts equal rows next to each other (sorted, unless
    ``consecutive``), ``starts`` marks the first row of each group. nan equals nothing, not
    even nan, so each nan is a group of its own (as in PyTorch)."""
    if consecutive or len(rows) == 0:
        order = np.arange(len(rows))
    else:      # sorted by the first column, then the second, ... (lexsort's last key comes first)
        order = np.lexsort(rows.T[::-1]) if rows.shape[1] else np.arange(len(rows))
    ordered = rows[order]
    starts = np.ones(len(rows), dtype=bool)
    if len(rows) > 1:
        starts[1:] = ~(ordered[1:] == ordered[:-1]).all(axis=1)
    return order, starts


def _unique(input, sorted, return_inverse, return_counts, dim, consecutive, node_class):
    if _FuncTransforms.vmaps:        # each sample could have another number of distinct values
        _refuse_dynamic_shape("aten::" + node_class._operation, input)
    array = input._array
    if dim is None:
        rows, along = array.reshape(-1, 1), None
    else:
        if array.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        along = _normalize_dim(dim, array.ndim)
        if array.size == 0 and any(n == 0 for d, n in enumerate(array.shape) if d != along):
            if not consecutive:
                raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so "
                                   "unique cannot be applied")
        rows = np.moveaxis(array, along, 0).reshape(array.shape[along], array.size // builtins.max(array.shape[along], 1))
    order, starts = _groups(rows, consecutive)
    group_of_row = np.empty(len(rows), dtype=np.int64)
    group_of_row[order] = np.cumsum(starts) - 1           # the group each input row fell in
    firsts = order[starts]
    if along is None:
        values = array.reshape(-1)[firsts]
        inverse = group_of_row.reshape(array.shape)
    else:
        values = np.ascontiguousarray(np.take(array, firsts, axis=along))
        inverse = group_of_row
    counts = np.diff(np.append(np.flatnonzero(starts), len(rows))).astype(np.int64)
    if array.dtype.kind != "f" and needs_grad((input,)):
        refuse_dtype(array.dtype)       # (integers that an in-place change gave history: the node refuses them)
    out = result(values, node_class, (input,)) if array.dtype.kind == "f" else plain_output(values, input)
    if not (return_inverse or return_counts):
        return out
    extras = []
    if return_inverse:
        extras.append(plain_output(inverse, input))
    if return_counts:
        extras.append(plain_output(counts, input))
    return (out, *extras)


@history_first
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements of ``input`` (or, with ``dim``, its distinct slices along ``dim``),
    sorted. ``return_inverse``: also where each element went in the result; ``return_counts``:
    also how often each occurs (then a tuple). nan is distinct from every nan.

    No gradient: PyTorch records Unique2Backward0 (UniqueDimBackward0 with dim), which refuses.
    """
    if not isinstance(input, Tensor):      # (PyTorch's unique calls _unique2, which names itself)
        raise TypeError(f"_unique2(): argument 'input' (position 1) must be Tensor, not {type_name(input)}")
    node_class = Unique2Backward0 if dim is None else UniqueDimBackward0
    out = _unique(input, sorted, return_inverse, return_counts, dim, False, node_class)
    return kernel_writes("unique" if dim is None else "unique_dim", out, input, inverse=return_inverse,
                         counts=return_counts)


@history_first
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Each run of equal neighbours (or, with ``dim``, of equal slices) kept once, in order.
    ``return_inverse`` and ``return_counts`` as in ``unique``.

    No gradient: PyTorch records UniqueConsecutiveBackward0, which refuses.
    """
    out = _unique(input, True, return_inverse, return_counts, dim, True, UniqueConsecutiveBackward0)
    return kernel_writes("unique_consecutive" if dim is None else "unique_dim", out, input,
                         inverse=return_inverse, counts=return_counts)


# --- bincount and histc ------------------------------------------------------------------

def bincount(input, weights=None, minlength=0):
    """How often each of 0, 1, 2, ... occurs in the 1-d non-negative integer tensor ``input``
    (at least ``minlength`` counts); with ``weights``, the sum of the weights of each value
    instead (float64, float32 for float32 weights).

    No gradient (weights that require grad get a node that refuses backward, as in PyTorch).
    """
    array = input._array
    if array.dtype.kind not in "iu":
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{_type_name(array)}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if array.ndim == 1 and array.size == 0:
        return kernel_writes("bincount", plain_output(np.zeros(minlength, dtype=np.int64), input), input)
    if array.ndim != 1 or array.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return kernel_writes("bincount", plain_output(np.bincount(array, minlength=minlength).astype(np.int64), input),
                             input)
    weight_array = weights._array
    if weight_array.ndim != 1 or weight_array.shape[0] != array.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    # float32 weights are added up in float32, every other dtype in float64 (as PyTorch's kernel)
    dtype = np.float32 if weight_array.dtype == np.float32 else np.float64
    counts = np.zeros(builtins.max(int(array.max()) + 1, minlength), dtype=dtype)
    np.add.at(counts, array, weight_array.astype(dtype))        # one weight at a time, in order
    # weights that require grad (or integers that an in-place change gave history): PyTorch
    # records a node that refuses backward, with edges to those inputs only
    # (inside vmap, batched if input or weights are)
    edges = tuple(t for t in (input, weights) if t.requires_grad) or (weights,)
    out = batched_as(result(counts, _NotImplementedBackward, edges, _operation="bincount"), input)
    return kernel_writes("bincount", out, input, weights)



def _cpp_number(value):
    """A double as C++'s ostream prints it (6 significant digits; nan as -nan, as PyTorch shows
    the nan its minimum gives)."""
    if np.isnan(value):
        return "-nan"
    return f"{value:g}"


def extremes(values):
    """The smallest and largest of ``values`` (floats) as PyTorch's histogram finds them: with a
    nan among them, both are the first nan, whose sign its message shows (numpy's min and max
    may hand back a nan of another sign)."""
    low, high = values.min(), values.max()
    if np.isnan(low) or np.isnan(high):
        first = float(values[np.isnan(values)][0])
        return first, first
    return float(low), float(high)


def _signed_nan(value):
    """A double as C++'s ostream prints it, a nan with its sign (nan or -nan)."""
    if np.isnan(value):
        return "-nan" if np.signbit(value) else "nan"
    return f"{value:g}"


def _check_given_edges(array, edges, dim=0):
    """Given bin edges must have the input's dtype, one dim and at least one element."""
    if edges._array.dtype != array.dtype:
        raise RuntimeError(
            "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input "
            f"with dtype {cpp_type_name(array.dtype)} and bins for dimension {dim} with dtype "
            f"{cpp_type_name(edges._array.dtype)}")
    if edges.ndim != 1:
        raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but got "
                           f"{edges.ndim} dimensions in the bins tensor for dimension {dim}")
    if edges.numel() == 0:
        raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, but got 0 "
                           f"elements in the bins tensor for dimension {dim}")


def _check_histogram_weight(array, weight):
    """histogram's weight: of the input's dtype and as many elements (PyTorch compares the
    shapes of both flattened, the input as a column)."""
    if weight is None:
        return
    if weight._array.dtype != array.dtype:
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have "
            f"the same dtype, but got input({cpp_type_name(array.dtype)}), and "
            f"weight({cpp_type_name(weight._array.dtype)})")
    if weight.numel() != array.size:
        raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same "
                           "shape as the input tensor excluding its innermost dimension, but got input "
                           f"with shape [{array.size}, 1] and weight with shape [{weight.numel()}]")


def refuse_histogram_of(array, bins, range, weight):
    """A histogram (histogram, histogramdd) of integers or bools: PyTorch's kernel takes floats
    only, but an earlier step may refuse first, each with its own message: the number of bins,
    the extremes of a non-empty input found without a range (a step that takes floats only),
    equal-width edges made in the input's dtype (linspace has no bool kernel), the dtypes of
    given edges and of the weight (they must be the input's)."""
    counts = [b for b in bins if not isinstance(b, Tensor)]
    for dim, count in enumerate(counts):
        if count <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {count} for dimension {dim}")
    if counts and range is None and array.size:
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{_type_name(array)}'")
    if counts and array.dtype.kind == "b":
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    for dim, edges in enumerate(bins):
        if isinstance(edges, Tensor) and edges._array.dtype != array.dtype:
            raise RuntimeError(
                "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input "
                f"with dtype {cpp_type_name(array.dtype)} and bins for dimension {dim} with dtype "
                f"{cpp_type_name(edges._array.dtype)}")
    if weight is not None and weight._array.dtype != array.dtype:
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have "
            f"the same dtype, but got input({cpp_type_name(array.dtype)}), and "
            f"weight({cpp_type_name(weight._array.dtype)})")
    raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_type_name(array)}'")


@history_first
def histc(input, bins=100, min=0, max=0):
    """A histogram of ``input``: ``bins`` equal-width bins between ``min`` and ``max`` (the
    smallest and largest element when both are 0); elements outside are not counted.

    No gradient.
    """
    array = input._array
    if bins <= 0:                       # (PyTorch's first check)
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    low, high = float(min), float(max)
    # a nan given shows its sign; so does the input's own nan when it has one element, but the
    # extremes PyTorch's reduction finds among more elements are the -nan it makes
    shown = _signed_nan
    if low == high and array.size:
        low, high = float(array.min()), float(array.max())
        shown = _signed_nan if array.size == 1 else _cpp_number
    if low == high:
        low, high = low - 1, high + 1
    if low == high:
        # a number too large (or infinite) for +-1 to move: PyTorch takes the next numbers of
        # the input's dtype on either side instead (inf keeps inf on its side: not finite)
        kind = array.dtype.type if array.dtype.kind == "f" else np.float64
        low, high = float(np.nextafter(kind(low), kind(-np.inf))), float(np.nextafter(kind(high), kind(np.inf)))
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{shown(low)}, {shown(high)}] is not finite")
    if not low < high:
        raise RuntimeError("torch.histc: max must be larger than min")
    # then PyTorch makes the edges in the input's dtype (linspace has no bool kernel), and only
    # its counting kernel refuses integers
    if array.dtype.kind == "b":
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    if array.dtype.kind != "f":
        if array.dtype.kind == "u" and low < 0:
            raise RuntimeError("value cannot be converted to type uint8_t without overflow")
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_type_name(array)}'")
    # the bin of x is floor((x - min) * bins / (max - min)), computed in the input's dtype;
    # max itself goes into the last bin
    dtype = array.dtype.type
    # (converted as PyTorch converts them, refusing a number past the dtype: float16 65505)
    left, right = checked_number(low, array.dtype), checked_number(high, array.dtype)
    values = array.reshape(-1)
    values = values[(values >= left) & (values <= right)]
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        positions = (values - left) * dtype(bins) / (right - left)
    # max itself goes into the last bin; a range that the dtype rounded to nothing (float16
    # 59999 to 60001) gives NaN, which PyTorch's kernel clamps to the first bin
    positions = np.clip(np.where(np.isnan(positions), 0, positions), 0, bins - 1).astype(np.int64)
    counts = np.bincount(positions, minlength=bins).astype(array.dtype)
    return kernel_writes("histc", plain_output(counts, input), input)


# --- searchsorted and bucketize -----------------------------------------------------------

def _search_side(side, right):
    if side is None:
        return "right" if right else "left"
    if side not in ("left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
    if side == "left" and right:
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side "
                           "of left while right was True")
    return side


def _search(boundaries, values, side, out_int32, sorter=None):
    """For each value, how many boundaries lie below it (with side='right': at or below): its
    insertion position, along the last dim of ``boundaries`` (rows matched to ``values``' rows)."""
    if sorter is not None:
        boundaries = np.take_along_axis(boundaries, sorter, axis=-1)
    index_dtype = np.int32 if out_int32 else np.int64
    search = np.searchsorted
    if _has_nan(boundaries) or _has_nan(values):
        search = _search_as_pytorch      # (numpy's order puts nan last; PyTorch's loop differs)
    if boundaries.ndim == 1:
        return np.asarray(search(boundaries, values, side=side)).astype(index_dtype)
    rows = boundaries.reshape(int(np.prod(boundaries.shape[:-1])), boundaries.shape[-1])
    value_rows = values.reshape(len(rows), -1)
    found = [search(row, value_row, side=side) for row, value_row in zip(rows, value_rows)]
    return np.asarray(found, dtype=index_dtype).reshape(values.shape)


def _has_nan(array):
    return array.dtype.kind == "f" and bool(np.isnan(array).any())


def _search_as_pytorch(row, values, side):
    """PyTorch's binary search, for a row or values with nan: it halves [start, end) and goes
    right unless ``row[mid] >= value`` (side='right': ``row[mid] > value``), a comparison that
    is false for nan, so a nan on either side sends the search right."""
    values = np.asarray(values)
    start = np.zeros(values.shape, dtype=np.int64)
    end = np.full(values.shape, len(row), dtype=np.int64)
    while True:
        searching = start < end
        if not searching.any():
            return start
        middle = start + ((end - start) >> 1)
        at_middle = row[np.minimum(middle, len(row) - 1)]
        stops = at_middle >= values if side == "left" else at_middle > values
        start = np.where(searching & ~stops, middle + 1, start)
        end = np.where(searching & stops, middle, end)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """Where each element of ``input`` would go in ``sorted_sequence`` (along its last dim) to
    keep it sorted: the first such position, or with ``right=True`` / ``side='right'`` the last.
    ``sorter``: indices that sort an unsorted ``sorted_sequence``. int64 (int32 with out_int32).

    No gradient.
    """
    side = _search_side(side, right)
    boundaries = sorted_sequence._array
    scalar = not isinstance(input, Tensor)
    values = np.asarray(input) if scalar else input._array
    if values.ndim == 0 and boundaries.ndim != 1:
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when boundaries tensor "
                           f"dimension is 1, but we got boundaries tensor dim({boundaries.ndim}) and input "
                           "value's dim(0) numel(1)")
    if boundaries.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got "
                           "0 dimension")
    if boundaries.ndim != 1 and (scalar or boundaries.shape[:-1] != values.shape[:-1]):
        shown = [] if scalar else list(values.shape)
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first "
                           "N-1 dimensions of boundaries tensor and input value tensor must match, but "
                           f"we got boundaries tensor {list(boundaries.shape)} and input value tensor {shown}")
    if sorter is not None:
        if sorter._array.dtype != np.int64:
            raise RuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype but got "
                               f"dtype {_type_name(sorter._array)}")
        if sorter._array.shape != boundaries.shape:
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same size, but "
                               f"got boundary tensor {list(boundaries.shape)}and got sorter tensor "
                               f"{list(sorter._array.shape)}")
        sorter = sorter._array
    # PyTorch's kernel (which returns at once for no values) has no version for bools, which
    # is what bool boundaries and bool values (or a Python bool) are searched in
    if values.size and boundaries.dtype == np.bool_ and values.dtype == np.bool_:
        raise NotImplementedError('"searchsorted_out_cpu" not implemented for \'Bool\'')
    found = _search(boundaries, values, side, out_int32, sorter)
    return plain_output(np.asarray(found), sorted_sequence, *([] if scalar else [input]))


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each element of ``input`` between the sorted 1-d ``boundaries``: how many
    boundaries lie below it (with ``right=True``: at or below). int64 (int32 with out_int32).

    No gradient.
    """
    if not isinstance(input, (Tensor, int, float)) or not isinstance(boundaries, Tensor):
        raise invalid_combination("bucketize", (input, boundaries), {})
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


# --- histogram ------------------------------------------------------------------------------

class _Histogram(tuple):
    """The pair (hist, bin_edges), printed as ``torch.return_types.histogram``."""

    _name = "histogram"

    def __new__(cls, hist, bin_edges):
        return tuple.__new__(cls, (hist, bin_edges))

    @property
    def hist(self):
        """The counts (or weights, or densities) of the bins."""
        return self[0]

    @property
    def bin_edges(self):
        """The edges of the bins (histogramdd: one tensor for each dimension)."""
        return self[1]

    def __repr__(self):
        return f"torch.return_types.{self._name}(\nhist={self[0]!r},\nbin_edges={self[1]!r})"


_Histogram.__name__ = _Histogram.__qualname__ = "histogram"
return_types.histogram = _Histogram


class _NotImplementedPair(_NotImplementedBackward):
    """result = histogram(self, bins) (hist and bin_edges)   ->   grad_self = error: no derivative"""

    def backward(self, *grads):
        return _NotImplementedBackward.backward(self, grads[0])


_NotImplementedPair.__name__ = _NotImplementedPair.__qualname__ = "NotImplemented"


def _edges(low, high, bins, dtype):
    """bins + 1 equally spaced edges from low to high, as PyTorch's linspace computes them."""
    from .._creation import evenly_spaced
    return evenly_spaced(low, high, bins + 1, np.dtype(dtype))


@history_first
def histogram(input, bins=100, *, range=None, weight=None, density=False):
    """A histogram of ``input``: ``bins`` equal-width bins over ``range`` (the smallest to the
    largest element by default), or the bins between the given edges (a 1-d tensor ``bins``).
    ``weight``: each element counts with its weight; ``density``: the counts divided by their sum
    and the bins' widths. Returns the named pair (hist, bin_edges).

    No gradient (inputs that require grad get a node that refuses backward, as in PyTorch).
    """
    array = input._array
    values = array.reshape(-1)
    if isinstance(bins, Tensor):
        _check_given_edges(array, bins)
        _check_histogram_weight(array, weight)
        if bins.numel() < 2:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins.numel() - 1} for "
                               "dimension 0")
        if array.dtype.kind != "f":
            raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_type_name(array)}'")
        edges = bins._array.copy()
        near = None                                  # found by binary search
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        if range is not None:
            low, high = float(range[0]), float(range[1])
        elif values.size:
            if array.dtype.kind != "f":    # (PyTorch's step that finds the extremes takes floats only)
                raise NotImplementedError(f"\"histogramdd\" not implemented for '{_type_name(array)}'")
            low, high = extremes(values)
        else:
            low, high = 0.0, 1.0
        if not (np.isfinite(low) and np.isfinite(high)):
            raise RuntimeError(f"torch.histogramdd: dimension 0's range [{_signed_nan(low)}, "
                               f"{_signed_nan(high)}] is not finite")
        if low > high:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max "
                               f"{high:g} for dimension 0")
        if low == high:                             # widened, as numpy does
            low, high = low - 0.5, high + 0.5
        if array.dtype.kind == "b":         # (the edges are made in the input's dtype)
            raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
        _check_histogram_weight(array, weight)
        if array.dtype.kind != "f":
            raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_type_name(array)}'")
        edges = _edges(low, high, bins, array.dtype)
        near = bins
    weights = None if weight is None else weight._array.reshape(-1)
    count = len(edges) - 1
    hist = np.zeros(builtins.max(count, 0), dtype=array.dtype)
    if count > 0:
        inside = (values >= edges[0]) & (values <= edges[-1])
        kept = values[inside]
        # the bin: (x - first edge) * bins / (last edge - first edge) as a first guess, then the
        # edges next to it looked at (PyTorch's local search); or a binary search for given edges
        found = np.searchsorted(edges, kept, side="right")
        if near is not None:
            with np.errstate(invalid="ignore", divide="ignore"):
                guess = ((kept - edges[0]) * array.dtype.type(near) / (edges[-1] - edges[0])).astype(np.int64)
            found = np.clip(found, np.maximum(guess - 1, 0), np.minimum(guess + 2, len(edges)))
        position = found - 1
        position[position == count] = count - 1       # the last edge belongs to the last bin
        np.add.at(hist, position, 1 if weights is None else weights[inside])
        if density:                 # (nothing counted: 0 / 0, nan, as in PyTorch)
            total = hist.sum(dtype=np.float64)
            with np.errstate(invalid="ignore", divide="ignore"):
                hist = hist / array.dtype.type(total)
                hist = hist / np.diff(edges)
    needing = tuple(t for t in (input, weight) if t is not None and t.requires_grad)
    out_hist = batched_as(result(hist, _NotImplementedPair, needing, _operation="histogram"), input,
                          *([] if weight is None else [weight]))     # (inside vmap: batched as they are)
    out_edges = plain_output(edges.copy(), input)
    node = out_hist._grad_fn
    if node is not None and out_hist._output_nr == 0:      # bin_edges: the node's second output
        attach_outputs(node, (out_hist, out_edges))
    out = return_types.histogram(out_hist, out_edges)
    return kernel_writes("histogram", out, input, weight, bins if isinstance(bins, Tensor) else None)
