"""Reading and writing by position: take, put, index_copy, index_fill, index_put, masked_scatter.

``take`` reads elements of the flattened input; the other four write into a copy of
the input (or, with a trailing underscore, into the input itself). As for gather and
scatter (gather_scatter.py), a read's backward writes the gradient back where the
value came from, and a write's backward reads the gradient where the value went:
the overwritten old values get no gradient.
PyTorch: torch.take, Tensor.index_copy, index_fill, index_put, masked_scatter.
"""
import warnings

import numpy as np

from .._type_names import type_name
from .._tensor import Tensor, _wrap, _normalize_dim
from .._memory_format import copy_in_format, keep_zero_steps, preserve_format, with_pytorch_steps
from ..autograd.graph import Node, _SETTINGS_KEPT_AS, show_saved_names, needs_grad
from .views import history_first
from . import result
from .inplace import (_overlaps, _values_in_loop_order, _writeable, apply_inplace, arguments_before_overlap,
                      refuse_reading_own_memory,
                      check_inplace, overlaps_itself)
from . import overlapping_writes
from .inplace_unary import EXPANDED_MASKED_FILL_WARNING
from .._warnings import stacklevel_outside_minigrad
from .indexing import index_put as _index_put, check_index_put_values, _numpy_index
from .gather_scatter import index_select
from .._dtype import cpp_name, checked_number
from ..autograd.kernel_writes import kernel_writes


def _type_name(dtype):
    return cpp_name(dtype).capitalize()


# --- take ------------------------------------------------------------------------------------

class TakeBackward0(Node):
    """result = self.flatten()[index]   ->
        grad_self = zeros, with grad added at the flat positions index (repeats add up)"""

    _saved_names = ("index", "self")

    def backward(self, grad):
        index, input = self.saved_tensors
        zeros = _wrap(np.zeros(self.self_sym_sizes, dtype=grad._array.dtype))      # zeros_like(self)
        return (zeros.put_(index, grad, accumulate=True),)      # in place, as PyTorch (version 1)


def _check_flat_positions(name, positions, count):
    """take's and put_'s error for a position outside a tensor of ``count`` elements (read as
    one flat row; negative positions count from its end)."""
    if count == 0 and positions.size:           # (PyTorch says so before looking at a position)
        raise IndexError("take(): tried to take from an empty tensor" if name == "take" else
                         "put_(): Tried to put elements into an empty tensor")
    outside = (positions < -count) | (positions >= count)
    if outside.any():
        raise IndexError(f"out of range: tried to access index {int(positions[outside].flat[0])} on "
                         f"a tensor of {count} elements.")


@history_first
def take(input, index):
    """The elements of ``input`` at the flat positions ``index`` (as if input were 1-D), in
    index's shape. Negative positions count from the end.

    Gradient: zeros with grad added back at those positions.
    """
    if not isinstance(index, Tensor):
        raise TypeError(f"take(): argument 'index' (position 1) must be Tensor, not "
                        f"{type_name(index)}")
    if index._array.dtype != np.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {_type_name(index.dtype)}")
    count = input.numel()
    positions = index._array
    _check_flat_positions("take", positions, count)
    values = np.ascontiguousarray(input._array).reshape(-1)[positions]
    return result(np.array(values, order="C"), TakeBackward0, (input,), saved=(index, input),
                  self_sym_sizes=tuple(input.shape))


# --- put --------------------------------------------------------------------------------------

class PutBackward0(Node):
    """result = self with source written (or added) at the flat positions index   ->
        grad_self = grad, 0 where overwritten (all of grad when added);
        grad_source = grad.take(index), in source's shape"""

    _saved_names = ("index", "source")

    def backward(self, grad):
        # PyTorch saves source only for its own gradient (so only then checks it for in-place
        # changes); the zeros written into self's gradient need only its size, index's
        index, source = self.saved_tensors_for((True, self.should_compute_output(1)))
        grad_self = None
        if self.should_compute_output(0):
            grad_self = grad if self.accumulate else put(
                grad, index, _wrap(np.zeros(index.shape, dtype=grad._array.dtype)))
        grad_source = take(grad, index).reshape(source.shape) if self.should_compute_output(1) else None
        return grad_self, grad_source


def _check_put_arguments(input, index, source):
    """put's checks of its arguments' dtypes and sizes, in PyTorch's order."""
    if index._array.dtype != np.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {_type_name(index.dtype)}")
    if source._array.dtype != input._array.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {_type_name(input.dtype)} and source.dtype = "
                           f"{_type_name(source.dtype)}")
    if source.numel() != index.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but "
                         f"got source.numel() = {source.numel()}, index.numel() = {index.numel()}")
    if input.numel() == 0 and index.numel():
        raise IndexError("put_(): Tried to put elements into an empty tensor")


@history_first
def put(input, index, source, accumulate=False):
    """A copy of ``input`` with source's elements written at the flat positions ``index`` (as
    if input were 1-D; negative ones count from the end), or added with accumulate=True."""
    _check_put_arguments(input, index, source)
    count = input.numel()
    positions = index._array.reshape(-1)
    _check_flat_positions("put_", positions, count)
    out = input._array.copy()
    flat = out.reshape(-1)                      # (a view: the copy is contiguous)
    values = source._array.reshape(-1)
    if accumulate:
        np.add.at(flat, positions, values)
    else:
        flat[positions] = values
    if not input._array.flags.c_contiguous:     # PyTorch's clone keeps input's order in memory
        laid_out = np.empty_like(input._array)
        laid_out[...] = out
        out = laid_out
    # (source is saved for its own gradient only, as PyTorch saves it)
    out = result(out, PutBackward0, (input, source), saved=(index, source if needs_grad((source,)) else None),
                 accumulate=accumulate)
    return kernel_writes("put", out, input, index, source)


def put_(self, index, source, accumulate=False):
    """In-place put: source's elements written (or added) at the flat positions ``index`` of self.

    Where self sees a memory location at several positions (overlapping windows), in
    PyTorch's order (``overlapping_writes.put``)."""
    operation = lambda t, s: put(t, index, s, accumulate)     # noqa: E731
    # (the arguments' checks come before self's own overlap, the positions' range after it)
    arguments_before_overlap(self, lambda t, s: _check_put_arguments(t, index, s), source)
    refuse_reading_own_memory(self, source, lambda: _check_put_arguments(self, index, source), index=index)
    if overlaps_itself(self._array):
        return _in_own_memory(self, operation, source, lambda: overlapping_writes.put(
            self._array, index._array.reshape(-1), source._array, accumulate))
    return apply_inplace(self, operation, source)


def _in_own_memory(self, operation, source, values_left, overlap_ok=False):
    """``operation(self, source)`` written into self, with the values ``values_left()`` gives
    (PyTorch's loop, replayed in self's memory: see overlapping_writes); autograd's rules and
    the operation's errors come first, as in PyTorch (``overlap_ok``: an expanded self, allowed)."""
    others = (source,) if isinstance(source, Tensor) else ()
    check_inplace(self, overlap_ok=overlap_ok, others=others)
    operation(_wrap(self._array), *(other.detach() for other in others))
    values = values_left()
    if values is None:            # (a case the replay does not take: computed as usual)
        return apply_inplace(self, operation, *others, overlap_ok=overlap_ok)

    def with_those_values(t, *given):
        new = operation(t, *given)
        new._array[...] = values
        return new
    return apply_inplace(self, with_those_values, *others, overlap_ok=overlap_ok)


# --- index_copy ------------------------------------------------------------------------------

class IndexCopyBackward0(Node):
    """result = self with slice index[k] along dim replaced by source's slice k   ->
        grad_self = grad with those slices zeroed; grad_source = grad.index_select(dim, index)"""

    _saved_names = ("index", "source")

    def backward(self, grad):
        # PyTorch saves source only for its own gradient (so only then checks it for in-place changes)
        index, source = self.saved_tensors_for((True, self.should_compute_output(1)))
        grad_self = grad.index_fill(self.dim, index, 0) if self.should_compute_output(0) else None
        grad_source = None
        if self.should_compute_output(1):
            grad_source = index_select(grad, self.dim, index)
            # (PyTorch's formula expands it to source's shape: a view, which the engine then
            # does not add a second gradient into in place; a 0-d source's is summed to its
            # shape by the engine)
            if source.ndim:
                grad_source = grad_source.expand_as(source)
        return grad_self, grad_source


def _slices_along(array, dim):
    """``array`` seen with ``dim`` first (a view), so that [positions] picks slices along dim."""
    return np.moveaxis(array, dim, 0) if array.ndim else array.reshape(1)


def _check_index_copy(input, dim, index, source):
    """PyTorch's checks of index_copy's arguments, in its order: the index's dims, the dims of
    source against self's, the dtypes, the slices' shapes, the number of indices."""
    if index.ndim >= 2:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.ndim})")
    count = index._array.size
    if source.ndim == 0 and count != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {count})")
    if source.ndim != input.ndim and source.ndim != 0 and input.ndim != 0:
        raise IndexError("index_copy_(): When source and destination are not scalars, their dimensionality "
                         f"must match. Source dimensionality ({source.ndim}), destination dimensionality "
                         f"({input.ndim})")
    if index._array.dtype != np.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                           f"{_type_name(index.dtype)}")
    if source._array.dtype != input._array.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got "
                           f"(self) {_type_name(input.dtype)} and (source) {_type_name(source.dtype)}")
    # (each shape without dim, printed as PyTorch prints a vector: sizes apart by spaces)
    self_slice = [n for d, n in enumerate(input.shape) if d != dim]
    source_slice = [n for d, n in enumerate(source.shape) if d != dim]
    if self_slice != source_slice:
        raise RuntimeError(
            "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice "
            f"shape: {' '.join(map(str, self_slice))} at dimension {dim} and source slice shape: "
            f"{' '.join(map(str, source_slice))} at dimension 0.")
    if source.ndim and count != source.shape[dim]:
        raise IndexError(f"index_copy_(): Number of indices ({count}) should be equal to "
                         f"source.size(dim) ({source.shape[dim]})")


@history_first
def index_copy(input, dim, index, source):
    """A copy of ``input`` with slice ``index[k]`` along ``dim`` replaced by ``source``'s slice k."""
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)
    _check_index_copy(input, dim, index, source)
    positions = index._array.reshape(-1)
    size = input.shape[dim] if input.ndim else 1
    if size == 0 and positions.size:
        _check_memory_for_slices(input, dim, positions.size)
    outside = (positions < 0) | (positions >= size)
    if outside.any() and input._array.size:      # (no element: the kernel's loop never runs)
        raise IndexError(f"index_copy_(): index {int(positions[outside][0])} is out of bounds for "
                         f"dimension {dim} with size {size}")
    out = input._array.copy()
    if out.size:
        _slices_along(out, dim)[positions] = _slices_along(source._array, dim)
    # (source is saved for its own gradient only, as PyTorch saves it)
    out = result(out, IndexCopyBackward0, (input, source), saved=(index, source if needs_grad((source,)) else None),
                 dim=dim, source_dim=source.ndim, dim_as_given=dim_as_given)
    return kernel_writes("index_copy", out, input, index, source)


def index_copy_(self, dim, index, source):
    """In-place index_copy: slice ``index[k]`` of self along ``dim`` becomes source's slice k.

    Where self sees a memory location at several positions (overlapping windows), in
    PyTorch's order (``overlapping_writes.index_copied``)."""
    operation = lambda t, s: index_copy(t, dim, index, s)     # noqa: E731
    # (PyTorch's kernel checks the memory right after dim, before the dtypes and sizes)
    refuse_reading_own_memory(self, source, lambda: _normalize_dim(dim, self.ndim))
    if overlaps_itself(self._array):
        return _in_own_memory(self, operation, source, lambda: overlapping_writes.index_copied(
            self._array, _normalize_dim(dim, self.ndim), index._array.reshape(-1), source._array))
    return apply_inplace(self, operation, source)


# --- index_fill ------------------------------------------------------------------------------

class IndexFillBackward0(Node):
    """result = self with the slices index along dim set to a number   ->
        grad_self = grad with those slices zeroed"""

    _saved_names = ("index",)

    def backward(self, grad):
        (index,) = self.saved_tensors
        return (grad.index_fill(self.dim, index, 0),)


class IndexFillBackward1(Node):
    """result = self with the slices index along dim set to value (a 0-d tensor)   ->
        grad_self = grad with those slices zeroed; grad_value = the sum of grad over them"""

    _saved_names = ("index",)

    def backward(self, grad):
        (index,) = self.saved_tensors
        grad_self = grad.index_fill(self.dim, index, 0) if self.should_compute_output(0) else None
        grad_value = index_select(grad, self.dim, index).sum() if self.should_compute_output(1) else None
        return grad_self, grad_value


def _check_memory_for_slices(input, dim, count):
    """PyTorch's error when index_fill/index_copy write into a dim of size 0: its kernel first
    views self with ``count`` (the number of positions) slices of step 0 along dim, which needs
    memory that an empty tensor does not have (checked before the positions). A view with
    another dim of size 0 needs no memory, and passes."""
    sizes, steps = list(input.shape), list(input.stride())
    sizes[dim], steps[dim] = count, 0
    if 0 in sizes:
        return
    needed = (1 + sum((n - 1) * step for n, step in zip(sizes, steps))) * input._array.itemsize
    raise RuntimeError(f"setStorage: sizes {sizes}, strides {steps}, storage offset 0, and itemsize "
                       f"{input._array.itemsize} requiring a storage size of {needed} are out of "
                       "bounds for storage of size 0")


def index_fill(input, dim, index, value):
    """A copy of ``input`` with every slice ``index[k]`` along ``dim`` set to ``value``
    (a number, or a 0-d tensor, which then gets the gradient of all those places)."""
    if isinstance(value, Tensor) and value.ndim:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor "
                           f"with {value.ndim} dimension(s).")
    if index._array.dtype != np.int64:       # (before dim is checked)
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if type(value) is complex:              # (every minigrad tensor is real)
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is not supported")
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)
    if index.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    size = input.shape[dim] if input.ndim else 1
    positions = index._array.reshape(-1)
    if size == 0 and positions.size:
        _check_memory_for_slices(input, dim, positions.size)
    outside = (positions < -size) | (positions >= size)
    if outside.any() and input._array.size:      # (no element: the kernel's loop never runs)
        raise IndexError(f"index {int(positions[outside][0])} is out of bounds for dimension {dim} "
                         f"with size {size}")
    # PyTorch fills a clone that keeps input's steps (an empty input's steps of 0 too: its
    # gradient then is not laid out like the leaf, which AccumulateGrad copies: version 1)
    out = copy_in_format(with_pytorch_steps(input), preserve_format)
    number = value._array if isinstance(value, Tensor) else checked_number(value, input._array.dtype)
    if out.size:
        _slices_along(out, dim)[positions] = number
    if isinstance(value, Tensor):
        out = result(out, IndexFillBackward1, (input, value), saved=(index,), dim=dim,
                     dim_as_given=dim_as_given)
    else:
        out = result(out, IndexFillBackward0, (input,), saved=(index,), dim=dim, dim_as_given=dim_as_given)
    return kernel_writes("index_fill", keep_zero_steps(out), input, index, value if isinstance(value, Tensor) else None)


def index_fill_(self, dim, index, value):
    """In-place index_fill: the slices ``index`` of self along ``dim`` set to ``value``.

    An expanded ``self`` (one memory location seen at several positions) is still written,
    with PyTorch's deprecation warning: a location becomes ``value`` if any of its positions
    is filled (so too for overlapping windows, without the warning)."""
    others = (value,) if isinstance(value, Tensor) else ()
    fill = lambda t, *v: index_fill(t, dim, index, *(v or (value,)))     # noqa: E731 (raises PyTorch's errors)
    expanded = _overlaps(self._array)
    if not expanded and not overlaps_itself(self._array):
        return apply_inplace(self, fill, *others)
    check_inplace(self, overlap_ok=True, others=others)     # autograd's rules first
    fill(_wrap(self._array), *(v.detach() for v in others))  # then the arguments
    filled = index_fill(_wrap(np.zeros(self.shape, dtype=bool)), dim, index, True)._array    # (where)
    if expanded:
        warnings.warn(EXPANDED_MASKED_FILL_WARNING.replace("masked_fill_", "index_fill_"), UserWarning,
                      stacklevel=stacklevel_outside_minigrad())
        _writeable(self)
    number = value.item() if isinstance(value, Tensor) else value
    values = _values_in_loop_order(self._array, filled, lambda old, at: number if at else old)

    def with_those_values(t, *v):
        new = fill(t, *v)
        new._array[...] = values
        return new
    return apply_inplace(self, with_those_values, *others, overlap_ok=expanded)


# --- index_put -------------------------------------------------------------------------------

def check_index_put_arguments(name, indices, values, first=0):
    """PyTorch's checks of ``indices`` (a tuple or list of tensors: no None, number or list) and
    ``values``; ``first``: the position of ``indices`` among the arguments the message counts
    (0 for the methods, which do not count self; 1 for ``torch.index_put``)."""
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"{name}(): argument 'indices' (position {first + 1}) must be tuple of Tensors, "
                        f"not {type_name(indices)}")
    for k, item in enumerate(indices):
        if not isinstance(item, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument {first}, but got "
                            f"{type_name(item)}")
    if not isinstance(values, Tensor):
        raise TypeError(f"{name}(): argument 'values' (position {first + 2}) must be Tensor, not "
                        f"{type_name(values)}")


def _refuse_empty_dims_indexed(tensor, indices):
    """PyTorch's first check when it lays out the indexing (before the dtypes): integer indices
    into a dim of size 0 can only be out of bounds (unless there are no indices at all)."""
    dims = [d for d, i in enumerate(indices) if isinstance(i, Tensor) and i._array.dtype.kind in "iu"]
    if len(dims) != sum(i is not None for i in indices) or not dims:
        return                                  # (bool masks and None: left to the general path)
    if any(d < tensor.ndim and tensor.shape[d] == 0 for d in dims):
        try:
            shape = np.broadcast_shapes(*(indices[d]._array.shape for d in dims))
        except ValueError:
            return
        if 0 not in shape:
            raise IndexError("index is out of bounds for dimension with size 0")


# index_put with no indices at all (x.index_put_((), v)): PyTorch has no meaning for it and fails
# inside, in one of three ways. Its messages are given word for word, the source file of its
# internal assert included: that path is part of the one line a learner sees on every PyTorch
# 2.13 CPU build (the build machine's path, not the learner's), so it is what they would search for.
_NO_INDEX_MASK_ZERO_DIM = "masked_fill_ only supports boolean masks, but got mask with dtype nullptr (uninitialized)"
_NO_INDEX_MASK = "sym_strides() called on an undefined Tensor"
_NO_INDEX_KERNEL = ('ntensor >= 3 INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/cpu/'
                    'IndexKernelUtils.h":8, please report a bug to PyTorch. ')
_NO_INDEX_HINT = ("\nminigrad hint: index_put needs at least one index; to write values everywhere use "
                  "x.copy_(values) or x[...] = values (x += values to add them).")


def check_some_index(input, indices, values, accumulate):
    """PyTorch's failures for index_put with no indices, in its order: one value without
    accumulate goes to masked_fill_ with no mask (before any check of the values); then the
    values' shape and dtype are checked as for any index_put, and its kernel, which needs an
    index, fails unless there is nothing to write (no elements in ``input``)."""
    if len(indices):
        return
    if not accumulate and isinstance(values, Tensor) and values._array.size == 1:
        raise RuntimeError((_NO_INDEX_MASK_ZERO_DIM if input.ndim == 0 else _NO_INDEX_MASK) + _NO_INDEX_HINT)
    check_index_put_values(input, indices, values)
    if input._array.size:
        raise RuntimeError(_NO_INDEX_KERNEL + _NO_INDEX_HINT)


def _check_index_count(input, indices):
    """index_put's kernel counts the index tensors first (x[i, j] = v says it another way)."""
    if len(indices) > input.ndim:
        raise IndexError(f"too many indices for tensor of dimension {input.ndim} (got {len(indices)})")


@history_first
def index_put(input, indices, values, accumulate=False):
    """``torch.index_put``: a copy of ``input`` with ``values`` written at ``input[indices]``
    (added, with accumulate=True: repeated positions then add up). ``indices`` is a tuple of
    tensors, one per leading dim, as in ``x[i, j] = values``. (IndexPutBackward0)"""
    check_index_put_arguments("index_put", indices, values, first=1)
    check_some_index(input, indices, values, accumulate)
    _check_index_count(input, indices)
    _refuse_empty_dims_indexed(input, indices)
    check_index_put_values(input, indices, values)
    return kernel_writes("index_put", _index_put(input, tuple(indices), values, accumulate=accumulate), input,
                         *indices, values)


@history_first
def index_put_method(self, indices, values, accumulate=False):
    """``x.index_put(indices, values, accumulate=False)``: see ``torch.index_put``."""
    check_index_put_arguments("index_put", indices, values)
    check_some_index(self, indices, values, accumulate)
    _check_index_count(self, indices)
    _refuse_empty_dims_indexed(self, indices)
    check_index_put_values(self, indices, values)
    return kernel_writes("index_put", _index_put(self, tuple(indices), values, accumulate=accumulate), self,
                         *indices, values)


def _goes_to_masked_fill(indices, values):
    """PyTorch's index_put_ hands ``x[mask] = one value`` to masked_fill_ (which lets a value
    over x's own memory through)."""
    masks = [i for i in indices if isinstance(i, Tensor) and i._array.dtype in (np.bool_, np.uint8)]
    return (isinstance(values, Tensor) and values._array.size == 1 and len(masks) == 1
            and all(i is None or i is masks[0] for i in indices))


def index_put_(self, indices, values, accumulate=False):
    """In-place index_put: ``self[indices] = values`` (or ``+=`` with accumulate=True)."""
    check_index_put_arguments("index_put_", indices, values)
    operation = lambda t, v: _index_put(t, tuple(indices), v, accumulate=accumulate)    # noqa: E731
    expanded = _overlaps(self._array)
    if not expanded and not overlaps_itself(self._array):
        check_inplace(self, others=(values,))   # (autograd's rules first, then the kernel's dtype check)
        if accumulate or not _goes_to_masked_fill(indices, values):
            refuse_reading_own_memory(self, values)     # (before it looks at the indices)
        check_some_index(self, indices, values, accumulate)
        _check_index_count(self, indices)
        _refuse_empty_dims_indexed(self, indices)
        check_index_put_values(self, indices, values)
        return apply_inplace(self, operation, values)
    # memory seen at several positions (expand, windows that overlap): PyTorch's loop writes a
    # location once per position (an expanded self is allowed, with a warning)
    check_inplace(self, overlap_ok=True, others=(values,))         # autograd's rules first
    _check_index_count(self, indices)
    check_index_put_values(self, indices, values)
    if expanded:
        warnings.warn(EXPANDED_INDEX_PUT_WARNING, UserWarning, stacklevel=stacklevel_outside_minigrad())
        if not accumulate and len(indices) == 1 and isinstance(indices[0], Tensor) and (
                indices[0]._array.dtype == bool and values._array.size == 1):
            # (PyTorch does x[mask] = one value with masked_fill_, which warns in its turn)
            warnings.warn(EXPANDED_MASKED_FILL_WARNING, UserWarning, stacklevel=stacklevel_outside_minigrad())
        _writeable(self)
    check_some_index(self, indices, values, accumulate)
    index = tuple(slice(None) if i is None else _numpy_index(i) for i in indices)
    if not all(isinstance(i, (slice, np.ndarray)) for i in index):
        return apply_inplace(self, operation, values, overlap_ok=expanded)
    return _in_own_memory(self, operation, values, lambda: overlapping_writes.index_put(
        self._array, index, values._array, accumulate), overlap_ok=expanded)


EXPANDED_INDEX_PUT_WARNING = (
    "Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before performing "
    "this operation. This also applies to advanced indexing e.g. tensor[indices] = tensor")


# --- masked_scatter --------------------------------------------------------------------------

class MaskedScatterBackward0(Node):
    """result = self with its places where mask is True filled, in order, by source's first
    elements   ->
        grad_self = grad with those places zeroed;
        grad_source = grad at those places, in order, then zeros for source's unused elements"""

    _saved_names = ("mask",)

    def backward(self, grad):
        (mask,) = self.saved_tensors
        grad_self = grad.masked_fill(mask, 0) if self.should_compute_output(0) else None
        grad_source = None
        if self.should_compute_output(1):
            # recorded as PyTorch's masked_scatter_backward, so that create_graph=True records
            # one node (MaskedScatterBackwardBackward0) for it
            where = np.broadcast_to(mask._array, grad.shape)
            values = np.zeros(int(np.prod(self.source_sym_sizes)), dtype=grad._array.dtype)
            used = grad._array[where]                 # (in the result's row-major order)
            values[:used.size] = used                 # then zeros for source's unused elements
            grad_source = result(values.reshape(self.source_sym_sizes), MaskedScatterBackwardBackward0,
                                 (grad,), saved=(mask,), grad_shape=grad.shape)
        return grad_self, grad_source


class MaskedScatterBackwardBackward0(Node):
    """result = grad_output at the places where mask is True, in order, then zeros (shaped as
    masked_scatter's source: its backward)   ->
        grad_grad_output = zeros with those places filled, in order, by grad"""

    _saved_names = ("mask",)

    def backward(self, grad):
        (mask,) = self.saved_tensors
        zeros = _wrap(np.zeros(self.grad_shape, dtype=grad._array.dtype))
        return (masked_scatter(zeros, mask, grad),)


@history_first
def masked_scatter(input, mask, source):
    """A copy of ``input`` where the places mask is True take ``source``'s elements one after
    the other (in memory order of the result); mask is broadcast to input's shape."""
    # PyTorch's order: the shapes, then source's dtype, then the mask's
    try:
        where = np.broadcast_to(mask._array, input.shape)
    except ValueError:
        from .pointwise import _broadcast_error
        raise _broadcast_error(mask, input) from None
    if source._array.dtype != input._array.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{_type_name(input.dtype)} and {_type_name(source.dtype)}")
    if mask._array.dtype != np.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{_type_name(mask.dtype)}")
    count = int(where.sum())
    if source.numel() < count:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    out = input._array.copy()
    out[where] = source._array.reshape(-1)[:count]
    out = result(out, MaskedScatterBackward0, (input, source), saved=(mask,),
                 source_sym_sizes=tuple(source.shape))
    return kernel_writes("masked_scatter", out, input, mask, source)


def masked_scatter_(self, mask, source):
    """In-place masked_scatter: the places of self where mask is True take source's elements.

    Where self sees a memory location at several positions (overlapping windows), in
    PyTorch's order (``overlapping_writes.masked_scattered``)."""
    def operation(t, s):
        # in place, PyTorch checks source's dtype first, then expands the mask to self's shape
        # (expand's errors: a mask may not be larger than self), then masked_scatter's checks
        if s._array.dtype != t._array.dtype:
            raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                               f"{_type_name(t.dtype)} and {_type_name(s.dtype)}")
        mask.expand(t.shape)
        return masked_scatter(t, mask, s)
    if overlaps_itself(self._array):
        return _in_own_memory(self, operation, source, lambda: overlapping_writes.masked_scattered(
            self._array, np.broadcast_to(mask._array, self.shape), source._array))
    return apply_inplace(self, operation, source)


def _show_as_pytorch(node_class, settings):
    """``grad_fn._saved_<name>`` of ``node_class``'s nodes: PyTorch's name -> the attribute
    (or how to compute it from the attributes), see autograd/graph.py."""
    _SETTINGS_KEPT_AS[node_class.__name__] = settings
    show_saved_names(node_class, settings)


# grad_fn._saved_<name> as PyTorch shows it: a negative dim as given, as the unsigned 64-bit
# number of the same bits (-1 is 2**64 - 1), see autograd/graph.py
_show_as_pytorch(IndexCopyBackward0, {"dim": lambda s: s["dim_as_given"] % 2**64,
                                      "source_dim": "source_dim"})
_show_as_pytorch(IndexFillBackward0, {"dim": lambda s: s["dim_as_given"] % 2**64})
_show_as_pytorch(IndexFillBackward1, {"dim": lambda s: s["dim_as_given"] % 2**64})
_show_as_pytorch(TakeBackward0, {})            # (only the saved index and self)
