"""More ways to move elements around, most of them spelled with the operations of shape.py.

movedim/moveaxis, swapdims, ravel, tile, unflatten, broadcast_to, type_as, fliplr/flipud,
rot90, tensor_split/hsplit/vsplit/dsplit and the stacks that undo them (hstack/vstack/dstack/
column_stack, with atleast_1d/2d/3d), repeat_interleave, take_along_dim and unfold.

PyTorch writes most of these in terms of other operations, so their graphs show those
operations' nodes: ``x.movedim(0, 2)`` records a PermuteBackward0, ``x.tile(2)`` a
RepeatBackward0, ``x.ravel()`` a ViewBackward0. minigrad does the same, which is why
only rot90 and unfold have nodes of their own here.
"""
import numpy as np

from .._type_names import type_name
from .._tensor import Tensor, _alias, _wrap, _normalize_dim
from ..autograd.graph import Node, _SETTINGS_KEPT_AS, show_saved_names
from .views import history_first
from ..autograd.kernel_writes import kernel_writes
from . import result
from .shape import (_make_view, _sizes, cat, contiguous, expand, flip, permute, repeat, reshape,
                    to_dtype, transpose, view, clone)
from .scan import narrow
from .gather_scatter import gather, index_select
from .._memory_format import contiguous_format, with_pytorch_steps
from .._dtype import cpp_name, scalar_type_name
from .._python_arg_parser import invalid_combination, _check_tensor_list


def _dims_list(dims):
    return list(dims) if isinstance(dims, (tuple, list)) else [dims]


# --- movedim, swapdims ------------------------------------------------------------------------

@history_first
def movedim(input, source, destination):
    """Move dims ``source`` to positions ``destination``; the others keep their order.

    A permute (PermuteBackward0), as in PyTorch.
    """
    if isinstance(source, (tuple, list)) != isinstance(destination, (tuple, list)):
        raise invalid_combination("movedim", (source, destination), {})
    source, destination = _dims_list(source), _dims_list(destination)
    if len(source) != len(destination):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({source} dims) should contain "
            f"the same number of dims as destination ({destination} dims)")
    ndim = input.ndim
    normal_source = [_normalize_dim(d, ndim) for d in source]
    normal_destination = [_normalize_dim(d, ndim) for d in destination]
    if len(set(normal_source)) != len(normal_source):
        raise RuntimeError(f"movedim: repeated dim in `source` ({source})")
    if len(set(normal_destination)) != len(normal_destination):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({destination})")
    if ndim == 0:                  # (dim 0 or -1 of a 0-d tensor: nothing to move, an alias)
        return _alias(input)
    order = [None] * ndim
    for src, dst in zip(normal_source, normal_destination):
        order[dst] = src
    rest = iter(d for d in range(ndim) if d not in normal_source)
    order = [next(rest) if d is None else d for d in order]
    return permute(input, order)


moveaxis = movedim
swapdims = transpose


# --- ravel, unflatten, broadcast_to, type_as, tile -------------------------------------------

@history_first
def ravel(input):
    """All elements in one dimension: a view when the memory allows (ViewBackward0), else a
    contiguous copy first (CloneBackward0, then ViewBackward0), as in PyTorch."""
    return view(contiguous(input), -1)


@history_first
def unflatten(input, dim, sizes):
    """Dimension ``dim`` split into ``sizes`` (one entry may be -1). A view (ViewBackward0),
    so, as in PyTorch, only where the memory allows one."""
    sizes = _sizes((sizes,))
    dim = _normalize_dim(dim, input.ndim)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    known = int(np.prod([s for s in sizes if s != -1]))
    if sizes.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if -1 in sizes:
        if known == 0 or input.shape[dim] % known:
            raise RuntimeError(f"shape '{list(sizes)}' is invalid for input of size {input.shape[dim]}")
        sizes = tuple(input.shape[dim] // known if s == -1 else s for s in sizes)
    elif known != input.shape[dim]:
        raise RuntimeError(
            f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
            f"({input.shape[dim]}) in the input tensor")
    shape = tuple(input.shape[:dim]) + sizes + tuple(input.shape[dim + 1:])
    return view(input, shape)


@history_first
def broadcast_to(input, *size):
    """``input.expand(size)`` (ExpandBackward0): gradient summed over the repeated dims."""
    return expand(input, *size)


def type_as(input, other):
    """``input.to(other.dtype)``: ``input`` itself if the dtypes already agree."""
    if not isinstance(other, Tensor):
        raise TypeError(f"type_as(): argument 'other' (position 1) must be Tensor, not "
                        f"{type_name(other)}")
    if input.dtype == other.dtype:
        return input
    return kernel_writes("to", to_dtype(input, other.dtype), input)


@history_first
def tile(input, dims):
    """``input`` repeated ``dims[i]`` times along each dim; missing leading dims count as 1.

    PyTorch's ``repeat`` with the repeats padded with 1s in front (RepeatBackward0).
    """
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    for position, size in enumerate(dims):
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
            raise TypeError(f"tile(): argument 'dims' (position 1) must be tuple of ints, but found "
                            f"element of type {type_name(size)} at pos {position}")
    dims = (1,) * (input.ndim - len(dims)) + tuple(dims)
    return repeat(input, dims)


# --- fliplr, flipud, rot90 -------------------------------------------------------------------

@history_first
def fliplr(input):
    """Columns in reverse order (``flip(input, [1])``); needs 2 or more dims."""
    if input.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, (1,))


@history_first
def flipud(input):
    """Rows in reverse order (``flip(input, [0])``); needs 1 or more dims."""
    if input.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, (0,))


class Rot90Backward0(Node):
    """result = self.rot90(k, dims)   ->   grad_self = grad.rot90(-k, dims)"""

    def backward(self, grad):
        return (rot90(grad, -self.k, self.dims),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.rot90(k, dims)"""
        return rot90(tangents[0], self.k, self.dims)


@history_first
def rot90(input, k=1, dims=(0, 1)):
    """Rotate by 90 degrees ``k`` times in the plane of ``dims``, from the first dim towards
    the second. Gradient: the gradient rotated back (-k).

    As in PyTorch, one quarter turn is a flip then a transpose, so the result of an odd
    number of turns is laid out as a transposed copy (its strides show it).
    """
    dims = list(dims)
    ndim = input.ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {ndim}")
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == ndim:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and "
                           f"dim1 = {dims[1]}")
    dim0, dim1 = _normalize_dim(dims[0], ndim), _normalize_dim(dims[1], ndim)
    array = with_pytorch_steps(input)
    turns = k % 4
    if turns == 1:
        out = np.swapaxes(np.flip(array, dim1).copy(order="K"), dim0, dim1)
    elif turns == 2:
        out = np.flip(array, (dim0, dim1)).copy(order="K")
    elif turns == 3:
        out = np.swapaxes(np.flip(array, dim0).copy(order="K"), dim0, dim1)
    else:
        out = array.copy(order="K")
    out = result(out, Rot90Backward0, (input,), k=k, dims=(dims[0], dims[1]))
    return kernel_writes("rot90", out, input, turns=turns, dims=(dim0, dim1))


def _show_as_pytorch(node_class, settings):
    """``grad_fn._saved_<name>`` of ``node_class``'s nodes: PyTorch's name -> the attribute
    (or how to compute it from the attributes), see autograd/graph.py."""
    _SETTINGS_KEPT_AS[node_class.__name__] = settings
    show_saved_names(node_class, settings)


# grad_fn._saved_<name> as PyTorch shows it: a negative number as the unsigned 64-bit number of
# the same bits (-1 is 2**64 - 1), see autograd/graph.py
_show_as_pytorch(Rot90Backward0, {"k": lambda s: s["k"] % 2**64,
                                  "dims": lambda s: tuple(d % 2**64 for d in s["dims"])})


# --- tensor_split, hsplit, vsplit, dsplit ----------------------------------------------------

def _check_split_tensor(indices_or_sections):
    """A tensor of split points must be a long scalar or vector (checked before the dim)."""
    if isinstance(indices_or_sections, Tensor):
        if indices_or_sections._array.dtype != np.int64:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype of long, "
                               f"but got {scalar_type_name(indices_or_sections.dtype)}")
        if indices_or_sections.ndim > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a zero-dimensional "
                               f"or one-dimensional tensor, but got a tensor with "
                               f"{indices_or_sections.ndim} dims")


def _split_points(indices_or_sections, size):
    """(start, stop) of every piece."""
    if isinstance(indices_or_sections, Tensor):
        values = indices_or_sections._array
        indices_or_sections = int(values) if values.ndim == 0 else [int(i) for i in values]
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        # the first size % sections pieces are one element longer
        small, extra = divmod(size, sections)
        points, start = [], 0
        for piece in range(sections):
            length = small + (1 if piece < extra else 0)
            points.append((start, start + length))
            start += length
        return points
    bounds = [0] + [int(i) for i in indices_or_sections] + [size]
    points = []
    for start, stop in zip(bounds, bounds[1:]):
        start = min(max(start + size if start < 0 else start, 0), size)
        stop = min(max(stop + size if stop < 0 else stop, 0), size)
        points.append((start, max(start, stop)))
    return points


@history_first
def tensor_split(input, indices_or_sections, dim=0):
    """Split into pieces along ``dim``: ``n`` nearly equal pieces (the first ones one longer),
    or cut before each of the given indices. Each piece is a view (SliceBackward0)."""
    if input.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor "
                           "with 0 dims")
    _check_split_tensor(indices_or_sections)
    dim = _normalize_dim(dim, input.ndim)
    points = _split_points(indices_or_sections, input.shape[dim])
    return tuple(narrow(input, dim, start, stop - start) for start, stop in points)


def _split_along(name, input, indices_or_sections, dim, min_dims):
    if input.ndim < min_dims:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} dimension, but "
                           f"got a tensor with {input.ndim} dimensions!")
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        size = input.shape[dim]
        if sections == 0 or size % sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size "
                               f"of the dimension {size} is not divisible by the split_size "
                               f"{sections}!")
    return tensor_split(input, indices_or_sections, dim)


def hsplit(input, indices_or_sections):
    """Split along the columns (dim 1; dim 0 of a vector), like numpy.hsplit."""
    return _split_along("hsplit", input, indices_or_sections, 1 if input.ndim > 1 else 0, 1)


def vsplit(input, indices_or_sections):
    """Split along the rows (dim 0) of a tensor with 2 or more dims, like numpy.vsplit."""
    return _split_along("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections):
    """Split along the depth (dim 2) of a tensor with 3 or more dims, like numpy.dsplit."""
    return _split_along("dsplit", input, indices_or_sections, 2, 3)


# --- atleast_Nd, and the stacks numpy has: hstack, vstack, dstack, column_stack --------------
#
# PyTorch spells these with view and cat, so their graphs show UnsqueezeBackward0,
# ViewBackward0 and CatBackward0 (the mirror images of hsplit, vsplit and dsplit above).

def _at_least(name, dims_wanted, adding, tensors):
    """atleast_1d/2d/3d of one tensor (that tensor back if it has the dims already), or of
    several (a tuple)."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tensors[0]
    elif len(tensors) == 1:
        (tensor,) = tensors
        if not isinstance(tensor, Tensor):     # (PyTorch lists its two signatures after this line)
            raise invalid_combination(name, tensors, {})
        return tensor if tensor.ndim >= dims_wanted else adding(tensor)
    return tuple(_at_least(name, dims_wanted, adding, (tensor,)) for tensor in tensors)


def atleast_1d(*tensors):
    """A 0-d tensor as a vector of one element (a view); others as they are."""
    return _at_least("atleast_1d", 1, lambda t: reshape(t, (1,)), tensors)


def atleast_2d(*tensors):
    """A vector as one row (unsqueeze(0)), a 0-d tensor as 1x1; others as they are."""
    return _at_least("atleast_2d", 2, lambda t: t.unsqueeze(0) if t.ndim else reshape(t, (1, 1)),
                     tensors)


def _three_dims(t):
    if t.ndim == 0:
        return reshape(t, (1, 1, 1))
    if t.ndim == 1:
        return t.unsqueeze(0).unsqueeze(-1)       # a vector of length n is 1 x n x 1
    return t.unsqueeze(-1)


def atleast_3d(*tensors):
    """A matrix as n x m x 1, a vector of length n as 1 x n x 1, a 0-d tensor as 1x1x1."""
    return _at_least("atleast_3d", 3, _three_dims, tensors)


def _stacked(name, tensors, each, dim_of):
    """cat of ``each(tensor)`` for every tensor, along ``dim_of(first of them)``."""
    _check_tensor_list(name, tensors, 0)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    shaped = [each(tensor) for tensor in tensors]
    return cat(shaped, dim_of(shaped[0]))


def hstack(tensors):
    """Side by side: cat along dim 1 (dim 0 for vectors), like numpy.hstack."""
    return _stacked("hstack", tensors, atleast_1d, lambda first: 0 if first.ndim == 1 else 1)


def vstack(tensors):
    """One under the other: vectors become rows, then cat along dim 0, like numpy.vstack."""
    return _stacked("vstack", tensors, atleast_2d, lambda first: 0)


row_stack = vstack


def dstack(tensors):
    """In depth: each made at least 3-d, then cat along dim 2, like numpy.dstack."""
    return _stacked("dstack", tensors, atleast_3d, lambda first: 2)


def column_stack(tensors):
    """Vectors (and 0-d tensors) as columns, then side by side (cat along dim 1)."""
    return _stacked("column_stack", tensors,
                    lambda t: reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t, lambda first: 1)


# --- repeat_interleave, take_along_dim -------------------------------------------------------

def _repeat_interleave_positions(repeats, output_size=None):
    """``repeat_interleave`` of a vector of counts: i repeated counts[i] times (a tensor of the
    counts' dtype). ``output_size``, when given, is the length the caller promises."""
    counts = repeats._array
    if counts.dtype not in (np.int32, np.int64):          # (the kernel has no other dtypes)
        raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for '
                                  f"'{scalar_type_name(repeats.dtype)}'")
    if counts.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if counts.size:
        total = int(counts.sum(dtype=np.int64))
        if output_size is None:
            if counts.min() < 0:
                raise RuntimeError("repeats can not be negative")
        else:
            # PyTorch allocates the promised length, then compares it with the counts' sum
            if output_size < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {output_size}: "
                                   f"[{output_size}]")
            if output_size != total:
                raise RuntimeError("allocated size does not match required size")
            if counts.min() < 0:
                raise RuntimeError("repeats can not be negative")
    positions = np.repeat(np.arange(counts.size, dtype=counts.dtype), counts)
    return _wrap(positions)


@history_first
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (or each slice along ``dim``) repeated ``repeats`` times in a row.

    With a number, PyTorch writes it as unsqueeze, expand, clone (a copy in memory order),
    view; with a tensor of counts (even of one count), as index_select at 0,0,1,2,2,2,...
    Their nodes show. ``repeat_interleave(counts)`` alone gives those positions.
    """
    if repeats is None:                      # torch.repeat_interleave(counts)
        return _repeat_interleave_positions(input, output_size)
    if isinstance(repeats, Tensor):
        if dim is None:
            input, dim = reshape(input, -1) if input.ndim != 1 else input, 0
        if repeats.ndim == 0 or (repeats.ndim == 1 and repeats.shape[0] == 1):
            # one count for every slice (input.size(dim) checks the dim)
            repeats = expand(reshape(repeats, (1,)), (input.size(dim),))
        elif repeats.ndim == 1:
            if repeats.shape[0] != input.size(dim):    # (the message shows dim as given)
                raise RuntimeError("repeats must have the same size as input along dim, but got "
                                   f"repeats.size(0) = {repeats.shape[0]} and "
                                   f"input.size({dim}) = {input.size(dim)}")
        else:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        return index_select(input, dim, _repeat_interleave_positions(repeats, output_size))
    # (the dim is checked against the input as given, before it is flattened)
    flat = input if dim is not None else reshape(input, -1) if input.ndim != 1 else input
    dim = _normalize_dim(0 if dim is None else dim, input.ndim)
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    unsqueezed = flat.unsqueeze(dim + 1)       # (a 0-d input with a dim fails here, as in PyTorch)
    shape = list(flat.shape)
    if output_size is not None and output_size != repeats * shape[dim]:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {repeats * shape[dim]} "
                           f"but got {output_size}")
    spread = shape[:dim + 1] + [repeats] + shape[dim + 1:]
    copied = clone(expand(unsqueezed, spread))
    return view(copied, shape[:dim] + [shape[dim] * repeats] + shape[dim + 1:])


@history_first
def _check_take_along_dim_indices(indices):
    if indices._array.dtype != np.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{cpp_name(indices.dtype).capitalize()}")


def take_along_dim(input, indices, dim=None):
    """Elements picked by ``indices`` along ``dim`` (gather), the two broadcast to each other
    first; without ``dim``, from the flattened input."""
    if not isinstance(indices, Tensor):
        raise TypeError(f"take_along_dim(): argument 'indices' (position 2) must be Tensor, not "
                        f"{type_name(indices)}")
    if dim is None:     # (gather's own check of the indices' dtype, which takes int32 too)
        return gather(view(input, -1), 0, view(indices, -1))
    _check_take_along_dim_indices(indices)
    dim = _normalize_dim(dim, input.ndim)
    if input.ndim != indices.ndim:
        raise RuntimeError(
            f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
            f"but got {input.ndim} dimensions for input, and {indices.ndim} dimensions for indices")
    # broadcast every dim but ``dim``, where each keeps its own size
    input_shape, index_shape = list(input.shape), list(indices.shape)
    input_shape[dim] = index_shape[dim]
    try:
        shape = list(np.broadcast_shapes(tuple(input_shape), tuple(index_shape)))
    except ValueError:
        from .pointwise import _broadcast_error
        raise _broadcast_error(_wrap(np.empty(input_shape)), indices) from None
    input_shape, index_shape = list(shape), list(shape)
    input_shape[dim] = input.shape[dim]
    index_shape[dim] = indices.shape[dim]
    # (PyTorch gathers with a contiguous copy of the broadcast indices: changing indices in
    # place after this is fine)
    indices = expand(indices, index_shape).clone(memory_format=contiguous_format)
    return gather(expand(input, input_shape), dim, indices)


# --- unfold ----------------------------------------------------------------------------------

class UnfoldBackward0(Node):
    """result = self.unfold(dimension, size, step) (windows, a view)   ->
        grad_self = zeros, with each window's gradient added back where the window was"""

    def backward(self, grad):
        dim, size, step = self.dimension, self.size, self.step
        shape = self.self_sym_sizes
        if not shape:                        # a 0-d input: one window of one element
            # (recorded as unfold_backward too, as in PyTorch)
            return (result(grad._array.reshape(()).copy(), UnfoldBackwardBackward0, (grad,), dim=dim,
                           size=size, step=step),)
        # element j of window i came from position i * step + j along ``dim``
        windows = grad.shape[dim]
        positions = (np.arange(windows)[:, None] * step + np.arange(size)[None, :]).reshape(-1)
        pieces = np.moveaxis(grad._array, -1, dim + 1)            # (..., window, j, ...)
        pieces = pieces.reshape(shape[:dim] + (windows * size,) + shape[dim + 1:])
        grad_self = np.zeros(shape, dtype=grad._array.dtype)
        np.add.at(np.moveaxis(grad_self, dim, 0), positions, np.moveaxis(pieces, dim, 0))
        # recorded as PyTorch's unfold_backward, so that create_graph=True can differentiate it
        return (result(grad_self, UnfoldBackwardBackward0, (grad,), dim=dim, size=size, step=step),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.unfold(dimension, size, step)"""
        return unfold(tangents[0], self.dimension, self.size, self.step)


class UnfoldBackwardBackward0(Node):
    """result = zeros with each window of grad_in added back where it was (unfold's backward)   ->
        grad_grad_in = grad.unfold(dim, size, step)"""

    def backward(self, grad):
        return (unfold(grad, self.dim, self.size, self.step),)


@history_first
def unfold(input, dimension, size, step):
    """Every window of ``size`` elements along ``dimension``, ``step`` apart, as a new last dim.

    A view: the window dim steps through memory as ``dimension`` did, and ``dimension`` now
    steps ``step`` times as far. Gradient: each window's gradient added back in place.
    """
    array = with_pytorch_steps(input)
    ndim = array.ndim
    dim = _normalize_dim(dimension, ndim)
    length = array.shape[dim] if ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {length} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if ndim == 0:
        out = array.reshape(1) if size == 1 else array.reshape(1)[:0]
    else:
        windows = (length - size) // step + 1
        shape = array.shape[:dim] + (windows,) + array.shape[dim + 1:] + (size,)
        strides = (array.strides[:dim] + (array.strides[dim] * step,) + array.strides[dim + 1:]
                   + (array.strides[dim],))
        out = np.lib.stride_tricks.as_strided(array, shape, strides)     # (read-only if array is)
    node = result(out, UnfoldBackward0, (input,), dimension=dim, size=size, step=step,
                  self_sym_sizes=tuple(array.shape), dimension_as_given=dimension)
    return _make_view(node, input)


_show_as_pytorch(UnfoldBackward0, {"dimension": lambda s: s["dimension_as_given"] % 2**64,
                                   "self_sym_sizes": "self_sym_sizes", "size": "size", "step": "step"})
