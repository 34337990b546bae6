"""Ordering: sort, argsort, topk (and roll, which moves elements around a ring).

Sorting only moves elements, so its backward moves each gradient back to the
position its element came from: the returned ``indices`` say where that was.
PyTorch: torch.sort, torch.topk, torch.roll.
"""
import numpy as np

from .._tensor import Tensor, _wrap, _normalize_dim
from ..autograd.graph import Node, _SETTINGS_KEPT_AS, show_saved_names
from .views import history_first
from .._signatures import Signatures
from . import result, numpy_keywords, plain_output, zeros_set_in_place
from .reduction import return_types
from .._selection import topk_order, sort_order
from .._memory_format import empty_laid_out_like, keep_zero_steps, preserve_format, copy_in_format, with_pytorch_steps
from ..autograd.kernel_writes import kernel_writes


class _sort_result(return_types._ValuesIndices):
    _name = "sort"


class _topk_result(return_types._ValuesIndices):
    _name = "topk"


_sort_result.__name__ = _sort_result.__qualname__ = "sort"
_topk_result.__name__ = _topk_result.__qualname__ = "topk"
return_types.sort = _sort_result
return_types.topk = _topk_result


def _values_selecting_backward(node, grad):
    """d input = zeros, with grad put back where each selected value came from."""
    if grad.ndim == 0 and node.self_sym_sizes:      # one value of a 1-element tensor
        return (grad.reshape(node.self_sym_sizes),)
    # scattered in place into at::zeros, as PyTorch does (the gradient is at version 2)
    zeros = zeros_set_in_place(node.self_sym_sizes, grad._array.dtype)
    return (zeros.scatter_(node.dim, node.indices, grad),)


class SortBackward0(Node):
    """values, indices = self.sort(dim)   ->
        grad_self = zeros, with grad[k] put back at indices[k]"""
    backward = _values_selecting_backward


class SortBackward1(Node):
    """values, indices = self.sort(dim, stable=stable)   ->
        grad_self = zeros, with grad[k] put back at indices[k]"""
    backward = _values_selecting_backward


# sort(..., stable=...) is another of PyTorch's sort functions (sort.stable): its node is SortBackward1
_SETTINGS_KEPT_AS["SortBackward1"] = _SETTINGS_KEPT_AS["SortBackward0"]
show_saved_names(SortBackward1, _SETTINGS_KEPT_AS["SortBackward1"])


class TopkBackward0(Node):
    """values, indices = self.topk(k, dim)   ->
        grad_self = zeros, with grad[k] put back at indices[k]"""
    backward = _values_selecting_backward


def _order(array, dim, descending):
    """The stable order: equal elements keep their original order, NaN last (first when
    descending), as PyTorch's CPU sort with stable=True."""
    if descending:
        # reverse, sort stably, reverse back: ties stay in their original order
        flipped = np.flip(array, dim)
        order = np.argsort(flipped, axis=dim, kind="stable")
        order = array.shape[dim] - 1 - order
        return np.flip(order, dim)
    return np.argsort(array, axis=dim, kind="stable")


def _unstable_order(array, dim, descending):
    """The order of PyTorch's CPU sort with stable=False: C++'s ``std::sort`` (introsort), whose
    order of equal elements ``_selection`` replays. Rows without equal elements come out as
    the stable sort has them."""
    if not array.size:                   # (no rows to walk: nothing ties)
        return _order(array, dim, descending)
    order = np.moveaxis(_order(array, dim, descending), dim, -1).copy()
    rows = np.moveaxis(array, dim, -1).reshape(-1, array.shape[dim])
    flat = order.reshape(-1, array.shape[dim])
    for row, row_order in zip(rows, flat):
        ordered = row[row_order]
        equal = ordered[1:] == ordered[:-1]
        if row.dtype.kind in "fc":
            equal |= np.isnan(ordered[1:]) & np.isnan(ordered[:-1])
        if equal.any():
            row_order[:] = sort_order(row.tolist(), descending)
    return np.moveaxis(flat.reshape(order.shape), -1, dim)


def _laid_out_like(like, values):
    """``values`` copied into new memory laid out like ``like``, as PyTorch's ``empty_like``
    lays it out (its very steps when ``like`` fills a block, even those of size-1 dims; the
    usual (C) order when it sees some memory twice, expand; else its strides' order)."""
    out = empty_laid_out_like(like, values.dtype)
    out[...] = values
    return out


# PyTorch's two signatures of each (the first, with ``stable``, records SortBackward1); the
# methods' are the same without ``input``. ``stable`` goes by keyword only: sort(x, 0, stable=True)
# fits neither, and is refused with PyTorch's message (see minigrad/_signatures.py)
_SORT = Signatures(
    "sort", "Tensor input, *, bool? stable, int dim=-1, bool descending=False, tuple of Tensors out=None",
    "Tensor input, int dim=-1, bool descending=False, *, tuple of Tensors out=None")
_SORT_METHOD = Signatures("sort", "*, bool? stable, int dim=-1, bool descending=False",
                          "int dim=-1, bool descending=False")
_ARGSORT = Signatures(
    "argsort", "Tensor input, *, bool stable, int dim=-1, bool descending=False, Tensor out=None",
    "Tensor input, int dim=-1, bool descending=False")
_ARGSORT_METHOD = Signatures("argsort", "*, bool stable, int dim=-1, bool descending=False",
                             "int dim=-1, bool descending=False")


def sort(*args, **kwargs):
    """``torch.sort(input, dim=-1, descending=False)`` or ``torch.sort(input, *, stable, dim=-1,
    descending=False)``: (values, indices), ``input`` sorted along ``dim`` and where each value
    came from. With ``stable=True`` equal elements keep their order; otherwise they come in the
    order PyTorch's (unstable) CPU sort leaves them.

    Gradient: each values[k]'s gradient goes back to position indices[k].
    """
    which, given = _SORT.parse(args, kwargs)
    return _sort(given["input"], given["dim"], given["descending"], stable=given["stable"] if which == 0 else None,
                 stable_given=which == 0)


def sort_method(self, *args, **kwargs):
    """``x.sort(dim=-1, descending=False)`` or ``x.sort(*, stable, dim=-1, descending=False)``:
    (values, indices), see ``torch.sort``."""
    which, given = _SORT_METHOD.parse(args, kwargs)
    return _sort(self, given["dim"], given["descending"], stable=given["stable"] if which == 0 else None,
                 stable_given=which == 0)


def argsort(*args, **kwargs):
    """``torch.argsort(input, dim=-1, descending=False)`` or with ``stable`` by keyword: only the
    indices of ``sort``, where each element of the sorted result came from."""
    _, given = _ARGSORT.parse(args, kwargs)
    return _sort(given["input"], given["dim"], given["descending"], stable=bool(given.get("stable"))).indices


def argsort_method(self, *args, **kwargs):
    """``x.argsort(dim=-1, descending=False)`` or with ``stable`` by keyword (see ``torch.argsort``)."""
    _, given = _ARGSORT_METHOD.parse(args, kwargs)
    return _sort(self, given["dim"], given["descending"], stable=bool(given.get("stable"))).indices


@history_first
def _sort(input, dim=-1, descending=False, *, stable=None, stable_given=None):
    """sort itself, once its arguments are known (``stable_given``: the signature with ``stable``
    was used, which records SortBackward1, even for stable=None)."""
    if stable_given is None:
        stable_given = stable is not None
    node_class = SortBackward1 if stable_given else SortBackward0   # (PyTorch's two sorts)
    array = with_pytorch_steps(input)
    if array.ndim == 0:
        _normalize_dim(dim, 0)           # (dim must still be -1 or 0)
        indices = np.zeros((), dtype=np.int64)
        out = result(array.copy(), node_class, (input,), saved=(), dim=0, self_sym_sizes=(),
                     indices=_wrap(indices), dim_as_given=dim)
        return _written_by_the_kernel(out, plain_output(indices, input), input)
    dim_as_given, dim = dim, _normalize_dim(dim, array.ndim)      # (grad_fn._saved_dim shows it)
    # (a long 1-d row of integers sorted ascending goes through a radix sort, which is stable)
    radix = array.ndim == 1 and array.size >= 32768 and array.dtype.kind in "iu" and not descending
    in_order = _order if stable or radix else _unstable_order
    order = in_order(array, dim, descending).astype(np.int64)
    # the results are laid out in memory like the input (as PyTorch's are): the values of a
    # transposed tensor can't be view()ed flat either
    order = _laid_out_like(array, order)
    values = _laid_out_like(array, np.take_along_axis(array, order, axis=dim))
    indices = _wrap(order)
    out = result(values, node_class, (input,), saved=(), dim=dim, self_sym_sizes=array.shape,
                 indices=indices, dim_as_given=dim_as_given)
    if not array.size:          # (laid out like the input, which may step by 0)
        return _written_by_the_kernel(keep_zero_steps(out),
                                      keep_zero_steps(plain_output(order, input)), input)
    return _written_by_the_kernel(out, plain_output(_laid_out_like(array, order), input), input)


def _written_by_the_kernel(values, indices, input):
    """sort's (values, indices): of an inference tensor outside inference mode, PyTorch's kernel
    writes both through the dispatcher once (values copied in, indices filled): version 1."""
    return kernel_writes("sort", return_types.sort(values, indices), input)


@history_first
def msort(input):
    """``input`` sorted along its first dimension (the values of ``sort(input, dim=0)``).

    Gradient: each value's gradient goes back to the position it came from (SortBackward0).
    """
    return _sort(input, 0).values


@history_first
@numpy_keywords
def topk(input, k, dim=-1, largest=True, sorted=True):
    """(values, indices) of the ``k`` largest (or smallest) elements along ``dim``.

    Gradient: each values[k]'s gradient goes back to position indices[k], zeros elsewhere.
    """
    array = input._array
    dim_as_given, dim = dim, _normalize_dim(dim, array.ndim)      # (grad_fn._saved_dim shows it)
    size = array.shape[dim] if array.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if array.dtype.kind == "b":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if array.ndim == 0:        # one value: itself, recorded as topk
        out = result(array.copy(), TopkBackward0, (input,), saved=(), dim=0, self_sym_sizes=(),
                     indices=_wrap(np.zeros((), dtype=np.int64)), dim_as_given=dim_as_given)
        return kernel_writes("topk", return_types.topk(out, plain_output(np.zeros((), dtype=np.int64), input)), input)
    order = np.ascontiguousarray(
        np.moveaxis(_topk_order(np.moveaxis(array, dim, -1), k, largest, sorted), -1, dim))
    values = np.take_along_axis(array, order, axis=dim)
    out = result(values, TopkBackward0, (input,), saved=(), dim=dim, self_sym_sizes=array.shape,
                 indices=_wrap(order), dim_as_given=dim_as_given)
    return return_types.topk(out, plain_output(order.copy(), input))


def _topk_order(array, k, largest, sorted):
    """The positions topk picks along the last dim, in PyTorch's order (ties included)."""
    if not array.size:                   # (no rows, or rows of nothing: k is 0 then)
        return np.zeros(array.shape[:-1] + (k,), dtype=np.int64)
    rows = array.reshape(-1, array.shape[-1])
    picked = np.stack([_topk_row(row, k, largest, sorted) for row in rows])
    return picked.reshape(array.shape[:-1] + (k,))


def _topk_row(row, k, largest, sorted):
    """One row of topk. Which of several equal values comes first (and, with sorted=False,
    the whole order) is decided by the C++ library's selection steps PyTorch runs, replayed
    in ``_selection``; a plain sort gives the same answer when the picked values are sorted
    and none of them ties with its neighbour."""
    order = _order(row, 0, descending=largest)
    top = row[order[:k + 1]]
    equal = (top[1:] == top[:-1]) | (np.isnan(top[1:]) & np.isnan(top[:-1])) \
        if row.dtype.kind in "fc" else top[1:] == top[:-1]
    if (sorted or k * 64 <= len(row)) and not equal.any():
        return order[:k].astype(np.int64)
    return np.array(topk_order(row.tolist(), k, largest, sorted), dtype=np.int64)


# --- roll ---------------------------------------------------------------------------------

class RollBackward0(Node):
    """result = self.roll(shifts, dims)   ->   grad_self = grad.roll(-shifts, dims)"""

    def backward(self, grad):
        return (roll(grad, tuple(-s for s in self.shifts), self.dims),)


def _copy_of_empty(input, shifts, dims, dims_as_given):
    """roll of a tensor without elements: nothing to shift, PyTorch returns a copy laid out
    as clone() lays it out."""
    copy = copy_in_format(with_pytorch_steps(input), preserve_format)
    return keep_zero_steps(result(copy, RollBackward0, (input,), shifts=shifts, dims=dims,
                                  dims_as_given=dims_as_given))


@history_first
def roll(input, shifts, dims=None):
    """Shift elements along ``dims`` (wrapping around); without dims, over the flattened tensor.

    Gradient: grad rolled back by -shifts.
    """
    if isinstance(shifts, Tensor):      # (PyTorch reads a 0-d integer tensor as its number)
        if shifts.ndim or shifts._array.dtype.kind not in "iu":
            raise TypeError("roll(): argument 'shifts' (position 1) must be tuple of ints, not Tensor")
        shifts = int(shifts._array)
    shifts_tuple = tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,)
    if dims is None:
        if len(shifts_tuple) != 1:
            raise RuntimeError(
                f"shifts and dimensions must align. shifts: {len(shifts_tuple)}, dims:0")
        if input.ndim == 1 and not input._array.size:     # (flattening keeps a vector itself)
            return kernel_writes("roll", _copy_of_empty(input, shifts_tuple, None, ()), input)
        out = np.roll(input._array.reshape(-1), shifts_tuple[0]).reshape(input._array.shape)
        return result(out, RollBackward0, (input,), shifts=shifts_tuple, dims=None, dims_as_given=())
    dims_tuple = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if input.ndim == 0:
        raise IndexError(f"Dimension specified as {dims_tuple[0]} but tensor has no dimensions")
    if len(shifts_tuple) != len(dims_tuple):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts_tuple)}, "
                           f"dims:{len(dims_tuple)}")
    dims_as_given, dims_tuple = dims_tuple, tuple(_normalize_dim(d, input.ndim) for d in dims_tuple)
    if not input._array.size:
        return kernel_writes("roll", _copy_of_empty(input, shifts_tuple, dims_tuple, dims_as_given), input)
    # PyTorch's result is contiguous whatever the input's layout (numpy's keeps it)
    out = np.asarray(np.roll(input._array, shifts_tuple, axis=dims_tuple), order="C")
    return result(out, RollBackward0, (input,), shifts=shifts_tuple, dims=dims_tuple,
                  dims_as_given=dims_as_given)     # (grad_fn._saved_dims shows them)
