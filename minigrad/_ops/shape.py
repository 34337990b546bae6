"""Operations that move elements around without changing them.

view/reshape, transpose/t/permute, squeeze/unsqueeze, flatten, expand, cat,
stack, split, flip, dtype conversion and clone. Their backward moves the
gradient back to where each element came from: the inverse reshape, the
inverse permutation, a sum over expanded dimensions, a slice of the gradient.
"""
import math

import numpy as np

from .._type_names import type_name
from .._dtype import Size, result_type, dtype as _dtype_class, cpp_name as _cpp_name, cpp_type_name, scalar_type_name, checked_scalar
from .._tensor import Tensor, _wrap, _normalize_dim
from ..autograd.graph import Node, attach_outputs, connect, keep_settings, needs_grad
from ..autograd.forward_ad import _DualLevel, push_tangents_of_pieces
from ..autograd.grad_mode import _State
from ..autograd.kernel_writes import kernel_writes
from ..autograd.function import _FuncTransforms
from .._functorch import batched_levels, warn_no_batching_rule
from . import result, numpy_keywords, plain_output, batched_as
from .views import register_view, check_history_kept, history_first
from .._python_arg_parser import invalid_combination
from .._creation import zeros, ones, full, tensor, _check_size_given
from .._memory_format import (check_memory_format, contiguous_format, copy_in_format, empty_laid_out_like,
                              keep_zero_steps, row_major, with_pytorch_steps,
                              is_in_format, preserve_format)
from .pointwise import _broadcast_error, where


def _make_view(out, base):
    """``out`` shares memory with ``base``: the version counter and history follow (views.py).

    (A view's steps are computed from its base's ``with_pytorch_steps``, so a view without
    elements stepping by 0 in every dim really does, as in PyTorch: ``keep_zero_steps``.)"""
    if out._is_inference is not base._is_inference:   # a view of a normal tensor stays normal
        out._is_inference = base._is_inference
    if not out._array.size:
        keep_zero_steps(out)
    if base._is_inference:
        # an inference tensor carries no autograd layer, so PyTorch keeps no view relation for
        # it: the view shares the memory but has no _base (_is_view() is False) and none of the
        # rules for in-place changes of views made in no_grad or inference mode; like
        # detach(), it remembers its source, whose storage it shares (strided.storage_of, and
        # memory it sees twice is refused: inplace.check_inplace)
        out._version_counter = base._version_counter
        out._detached_from = base._detached_from or _KeptAlive(base)
        return out
    return register_view(out, base)


class _KeptAlive:
    """A reference called like a weak one, that keeps its tensor alive: the source of a view of
    an inference tensor holds the storage, as a view's base does."""
    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor

    def __call__(self):
        return self.tensor


def _sizes(args):
    """Accept f(2, 3), f((2, 3)), f([2, 3]) and f(minigrad.Size([2, 3]))."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = args[0]
    return tuple(int(n) for n in args)


def _check_size_arguments(name, sizes):
    """x.view(3.0, 2) must fail like in PyTorch: a size is a tuple of ints (or ints)."""
    flat = sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes
    for size in flat:
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
            raise invalid_combination(name, sizes, {})


def _infer_shape(shape, numel):
    """Replace a -1 in ``shape`` by what makes the element count right."""
    shape = list(shape)
    for i, n in enumerate(shape):
        if n < -1:
            raise RuntimeError(f"invalid shape dimension {n} at index {i} of shape {shape}")
    unknown = [i for i, n in enumerate(shape) if n == -1]
    if len(unknown) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(n for n in shape if n != -1)
    if unknown:
        if known == 0 and numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {shape} because the unspecified "
                "dimension size -1 can be any value and is ambiguous")
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{shape}' is invalid for input of size {numel}")
        shape[unknown[0]] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{shape}' is invalid for input of size {numel}")
    return tuple(shape)


class ViewBackward0(Node):
    """result = self.view(shape)   ->   grad_self = grad.reshape(self.shape)"""

    def backward(self, grad):
        return (grad.reshape(self.input_shape),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.view(shape)"""
        return tangents[0].reshape(out.shape)


def _view_strides(old_shape, old_strides, shape):
    """The strides (in elements) PyTorch gives ``shape`` seen in the memory of a tensor with
    ``old_shape``/``old_strides``, or None if no strides can do it (a copy is needed).

    The old dimensions are walked from the last one in chunks whose elements follow each
    other in memory; each chunk must be covered by whole new dimensions, which are laid
    out inside it. A new size-1 dimension takes the stride it would have there: the
    strides of size-1 dimensions matter when PyTorch compares two tensors' memory."""
    if not old_shape:
        return (1,) * len(shape)
    numel = math.prod(old_shape)
    if numel == 0:
        if tuple(old_shape) == tuple(shape):
            return tuple(old_strides)
        strides, step = [], 1                     # the contiguous strides of ``shape``
        for n in reversed(shape):
            strides.append(step)
            step *= max(n, 1)
        return tuple(reversed(strides))
    strides = [0] * len(shape)
    new_d = len(shape) - 1
    chunk_stride = old_strides[-1]          # the stride of the chunk's last dimension
    chunk_numel = new_numel = 1
    for d in range(len(old_shape) - 1, -1, -1):
        chunk_numel *= old_shape[d]
        chunk_ends = d == 0 or (old_shape[d - 1] != 1 and
                                old_strides[d - 1] != chunk_numel * chunk_stride)
        if not chunk_ends:
            continue
        while new_d >= 0 and (new_numel < chunk_numel or shape[new_d] == 1):
            strides[new_d] = new_numel * chunk_stride
            new_numel *= shape[new_d]
            new_d -= 1
        if new_numel != chunk_numel:
            return None
        if d > 0:
            chunk_stride, chunk_numel, new_numel = old_strides[d - 1], 1, 1
    return None if new_d != -1 else tuple(strides)


def _reshaped_without_copy(array, shape):
    """``array`` seen with ``shape`` in the same memory (PyTorch's strides), or None if
    that needs a copy."""
    if array.flags.c_contiguous and array.size and (1 not in array.shape or 1 not in shape):
        # the usual case: numpy gives the same strides, faster (they can differ only in the
        # steps of size-1 dims, when both shapes have some; e.g. a bias gradient summed to
        # (1, n) and viewed as (n,) comes this way)
        return np.reshape(array, shape)
    size = array.itemsize
    strides = _view_strides(array.shape, [s // size for s in array.strides], shape)
    if strides is None:
        return None
    return np.lib.stride_tricks.as_strided(array, tuple(shape), tuple(s * size for s in strides),
                                           writeable=array.flags.writeable)


def _unsqueezed(array, dim):
    """``array`` with a size-1 dimension at ``dim``, with PyTorch's stride for it (the
    size times stride of the dimension it goes before, 1 at the end)."""
    if dim < array.ndim:
        stride = array.shape[dim] * array.strides[dim]
    else:
        stride = array.itemsize
    return np.lib.stride_tricks.as_strided(
        array, array.shape[:dim] + (1,) + array.shape[dim:],
        array.strides[:dim] + (stride,) + array.strides[dim:], writeable=array.flags.writeable)


@history_first
def view(input, *shape):
    """The same memory seen with another shape (must not need a copy).

    Gradient: grad reshaped back to the input's shape.
    """
    if len(shape) == 1 and isinstance(shape[0], _dtype_class):
        return view_as_dtype(input, shape[0])     # x.view(dtype)
    _check_size_arguments("view", shape)
    array = with_pytorch_steps(input)
    new_shape = _infer_shape(_sizes(shape), array.size)
    out_array = _reshaped_without_copy(array, new_shape)
    if out_array is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    out = result(out_array, ViewBackward0, (input,), input_shape=array.shape)
    return _make_view(out, input)


def view_as_dtype(input, dtype):
    """``x.view(dtype)``: the same memory read as numbers of another dtype (its bits, not its
    values). As in PyTorch, the result shares the memory and the version counter but is no
    view autograd follows: it has no history and does not require grad (like ``detach()``).
    With a dtype of another size the last dim shrinks or grows by the ratio of the sizes."""
    from .._dtype import scalar_type_name, to_numpy_dtype
    array = with_pytorch_steps(input)
    new_dtype = to_numpy_dtype(dtype)
    old_size, new_size = array.itemsize, new_dtype.itemsize
    if old_size != new_size:
        what = (f"to view {scalar_type_name(input.dtype)} as {scalar_type_name(dtype)} "
                f"(different element sizes)")
        if array.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 {what}")
        steps = input.stride()
        ratio = new_size // old_size
        if new_size > old_size:               # growing: whole groups of old elements (PyTorch's order)
            if array.shape[-1] % ratio:
                raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got "
                                   f"{array.shape[-1]}")
            if input.storage_offset() % ratio:
                raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {what}, "
                                   f"but got {input.storage_offset()}")
        if steps[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {steps[-1]}")
        if new_size > old_size:
            for i, step in enumerate(steps[:-1]):
                if step % ratio:
                    raise RuntimeError(f"self.stride({i}) must be divisible by {ratio} {what}, "
                                       f"but got {step}")
    out = input.detach()                      # (shared memory and version counter, no history)
    if out._is_inference and not _State.inference:
        out._is_inference = False     # (unlike detach(), PyTorch's view(dtype) of an inference
                                      # tensor outside inference mode makes a normal tensor)
    if array.size == 0:                       # (numpy needs no contiguous last axis for no bytes)
        shape = array.shape[:-1] + (array.shape[-1] * old_size // new_size,) if array.ndim else ()
        out._array = np.empty(shape, dtype=new_dtype)
    else:
        out._array = array.view(new_dtype)
    return out


class ReshapeAliasBackward0(Node):
    """result = self.reshape(shape), a view of a non-contiguous self   ->
        grad_self = grad.reshape(self.shape)"""

    def backward(self, grad):
        return (grad.reshape(self.input_shape),)


class UnsafeViewBackward0(Node):
    """result = self.reshape(shape) after a copy (reshape that had to copy, matmul's unfolding)   ->
        grad_self = grad.reshape(self.shape)"""

    def backward(self, grad):
        return (grad.reshape(self.input_shape),)


def unsafe_view(input, shape):
    """``input`` (a tensor nobody else sees) with a new shape, recorded as UnsafeViewBackward0."""
    array = input._array
    return result(array.reshape(shape), UnsafeViewBackward0, (input,), input_shape=array.shape)


@history_first
def reshape(input, *shape):
    """``input`` with a new shape: a view when the memory allows it, else a copy.

    As in PyTorch: a view of a contiguous tensor is ViewBackward0, of a
    non-contiguous one ReshapeAliasBackward0; a copy is a clone (CloneBackward0)
    seen with the new shape (UnsafeViewBackward0).

    Gradient: grad reshaped back to the input's shape.
    """
    array = with_pytorch_steps(input)
    new_shape = _infer_shape(_sizes(shape), array.size)
    out_array = _reshaped_without_copy(array, new_shape)
    if out_array is None:
        return unsafe_view(contiguous(input), new_shape)
    node_class = ViewBackward0 if array.flags.c_contiguous else ReshapeAliasBackward0
    return _make_view(result(out_array, node_class, (input,), input_shape=array.shape), input)


def contiguous(input, memory_format=contiguous_format):
    """``input`` itself if its memory is in row-major order (or the ``memory_format`` asked
    for), else a copy that is (a clone)."""
    check_memory_format("contiguous", memory_format)
    if memory_format is preserve_format:      # PyTorch reads it as row-major here
        memory_format = contiguous_format
    if is_in_format(with_pytorch_steps(input), memory_format):
        return input
    return result(copy_in_format(input._array, memory_format), CloneBackward0, (input,))


def view_as(input, other):
    """``input.view(other.shape)``: the same memory seen with ``other``'s shape. Gradient: reshaped back."""
    return view(input, other.shape)


def reshape_as(input, other):
    """``input.reshape(other.shape)``. Gradient: reshaped back."""
    return reshape(input, other.shape)


def flatten(input, start_dim=0, end_dim=-1):
    """Merge dimensions start_dim..end_dim into one.

    Gradient: grad reshaped back to the input's shape.
    """
    ndim = input.ndim
    if ndim == 0:          # (a 0-d tensor's dims are checked as if it had one: 0 or -1)
        _normalize_dim(start_dim, 0), _normalize_dim(end_dim, 0)
        return reshape(input, 1)
    start, end = _normalize_dim(start_dim, ndim), _normalize_dim(end_dim, ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input                     # nothing to merge: PyTorch returns the tensor itself
    shape = input.shape
    merged = int(np.prod(shape[start:end + 1]))
    return reshape(input, tuple(shape[:start]) + (merged,) + tuple(shape[end + 1:]))


class TBackward0(Node):
    """result = self.t() (2-D)   ->   grad_self = grad.t()"""

    def backward(self, grad):
        return (grad.t(),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.t()"""
        return tangents[0].t()


def t(input):
    """Transpose of a matrix (a vector or scalar is returned as it is).

    Gradient: grad.t().
    """
    check_history_kept(input)
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return _make_view(result(with_pytorch_steps(input).T, TBackward0, (input,)), input)


class TransposeBackward0(Node):
    """result = self.transpose(dim0, dim1)   ->   grad_self = grad.transpose(dim0, dim1)"""

    def backward(self, grad):
        # the dims as they were given (-2, -1 stay negative): a gradient recorded with
        # create_graph=True then shows PyTorch's TransposeBackward0 settings
        return (grad.transpose(*self._dims_given()),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.transpose(dim0, dim1)"""
        return tangents[0].transpose(*self._dims_given())

    def _dims_given(self):
        return getattr(self, "dims_as_given", (self.dim0, self.dim1))


@history_first
def transpose(input, dim0, dim1=None):
    """A view with dimensions ``dim0`` and ``dim1`` swapped. Gradient: the gradient swapped back."""
    if dim1 is None:                  # PyTorch's wording, not Python's
        raise TypeError('transpose() missing 1 required positional arguments: "dim1"')
    ndim = input.ndim
    dims_as_given = (dim0, dim1)          # (grad_fn._saved_dim0 / _saved_dim1 show them)
    dim0, dim1 = _normalize_dim(dim0, ndim), _normalize_dim(dim1, ndim)
    array = np.swapaxes(with_pytorch_steps(input), dim0, dim1) if ndim else input._array.view()
    out = result(array, TransposeBackward0, (input,),
                 dim0=dim0, dim1=dim1, dims_as_given=dims_as_given)
    return _make_view(out, input)


swapaxes = transpose


class PermuteBackward0(Node):
    """result = self.permute(dims)   ->   grad_self = grad.permute(the inverse of dims)"""

    def backward(self, grad):
        return (grad.permute(tuple(np.argsort(self.dims))),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.permute(dims)"""
        return tangents[0].permute(self.dims)


@history_first
def permute(input, *dims):
    """A view with the dimensions reordered as ``dims``. Gradient: the gradient permuted back."""
    if not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    ndim = input.ndim
    dims_as_given = dims = tuple(_sizes(dims))      # (grad_fn._saved_dims shows them)
    if len(dims) == ndim:       # PyTorch checks how many dims there are before the dims themselves
        dims = tuple(_normalize_dim(d, ndim) for d in dims)
    if len(dims) != ndim or sorted(dims) != list(range(ndim)):
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {ndim} is not equal "
            f"to len(dims) = {len(dims)}" if len(dims) != ndim else "permute(): duplicate dims are not allowed.")
    return _make_view(result(np.transpose(with_pytorch_steps(input), dims), PermuteBackward0, (input,), dims=dims,
                             dims_as_given=dims_as_given),
                      input)


class SqueezeBackward0(Node):
    """result = self.squeeze()   ->   grad_self = grad unsqueezed at every squeezed dim"""

    squeezed_dims = None

    def backward(self, grad):
        # as PyTorch writes it (unsqueeze_to): one unsqueeze per squeezed dim, in order, and
        # nothing recorded when nothing was squeezed
        dims = self.squeezed_dims
        if dims is None:
            dims = [d for d, n in enumerate(self.input_shape) if n == 1]
        if grad.ndim + len(dims) != len(self.input_shape):
            return (grad.reshape(self.input_shape),)
        for d in dims:
            grad = grad.unsqueeze(d)
        return (grad,)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t squeezed the same way"""
        return tangents[0].reshape(out.shape)


class SqueezeBackward1(SqueezeBackward0):
    """result = self.squeeze(dim)   ->   grad_self = grad.unsqueeze(dim) if it was squeezed"""


class SqueezeBackward2(SqueezeBackward0):
    """result = self.squeeze(dims)   ->   grad_self = grad unsqueezed at every squeezed dim"""


class SqueezeBackward4(SqueezeBackward0):
    """result = self.squeeze_(dim), in place (matmul of a vector and a matrix records it)   ->
        grad_self = grad.unsqueeze(dim)"""


@history_first
@numpy_keywords
def squeeze(input, dim=None, *, _node=None):
    """``input`` without size-1 dimensions (all of them, or those in ``dim``).

    Gradient: grad reshaped back to the input's shape.
    """
    array = with_pytorch_steps(input)
    if dim is None:
        node = SqueezeBackward0
        out = np.squeeze(array)
        dims = tuple(d for d, n in enumerate(array.shape) if n == 1)
    else:
        node = SqueezeBackward2 if isinstance(dim, (tuple, list)) else SqueezeBackward1
        node = _node or node
        dims = [_normalize_dim(d, array.ndim) for d in (dim if isinstance(dim, (tuple, list)) else (dim,))]
        for d in dims:
            if dims.count(d) > 1:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        dims = tuple(d for d in dims if array.ndim and array.shape[d] == 1)
        dims = tuple(sorted(set(dims)))
        out = np.squeeze(array, axis=dims) if dims else array.view()
    return _make_view(result(out, node, (input,), input_shape=array.shape, squeezed_dims=dims,
                             dim_as_given=dim), input)       # (grad_fn._saved_dim shows it)


class UnsqueezeBackward0(Node):
    """result = self.unsqueeze(dim)   ->   grad_self = grad.squeeze(dim)"""

    def backward(self, grad):
        # (the dim as given: with create_graph=True, SqueezeBackward1 shows it so, as in PyTorch)
        return (grad.squeeze(self.__dict__.get("dim_as_given", self.dim)),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.unsqueeze(dim)"""
        return tangents[0].unsqueeze(self.dim)


@history_first
@numpy_keywords
def unsqueeze(input, dim):
    """A view with a new dimension of size 1 at ``dim``. Gradient: that dimension squeezed away."""
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        raise TypeError(f"unsqueeze(): argument 'dim' (position 1) must be int, not {type_name(dim)}")
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim + 1)      # (grad_fn._saved_dim shows it)
    return _make_view(result(_unsqueezed(with_pytorch_steps(input), dim), UnsqueezeBackward0, (input,), dim=dim,
                             dim_as_given=dim_as_given), input)


class ExpandBackward0(Node):
    """result = self.expand(sizes) (no copy)   ->
        grad_self = grad summed over the expanded dims"""

    @property
    def _saved_self_sym_sizes(self):
        """The input's sizes, as PyTorch's node shows them."""
        return self._input_shape

    def backward(self, grad):
        if not self._input_shape:
            return (grad.sum(),)     # PyTorch sums to a 0-d input in one step (SumBackward0)
        return (grad,)       # summed back to the input's shape by the engine, like broadcasting

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.expand(sizes)"""
        return tangents[0].expand(out.shape)


@history_first
def expand(input, *sizes):
    """A view repeating size-1 dimensions to ``sizes`` without copying (-1 keeps a size).
    Gradient: summed over the expanded dimensions.
    """
    sizes = list(_sizes(sizes))
    array = with_pytorch_steps(input)
    if len(sizes) < array.ndim:
        # (PyTorch names a bool tensor's type CPUBoolType here, the others torch.FloatTensor, ...)
        type_name = ("CPUBoolType" if array.dtype.kind == "b"
                     else f"torch.{input.dtype.tensor_type_name}")
        raise RuntimeError(
            f"expand({type_name}{{{list(array.shape)}}}, size={sizes}): "
            f"the number of sizes provided ({len(sizes)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({array.ndim})")
    offset = len(sizes) - array.ndim
    for i in range(offset):
        if sizes[i] < 0:
            raise RuntimeError(f"The expanded size of the tensor ({sizes[i]}) isn't allowed in a "
                               f"leading, non-existing dimension {i}")
    for i, n in reversed(list(enumerate(array.shape))):      # PyTorch checks from the last dim
        if sizes[offset + i] == -1:
            sizes[offset + i] = n
        elif n != 1 and sizes[offset + i] != n:
            raise RuntimeError(
                f"The expanded size of the tensor ({sizes[offset + i]}) must match the existing size "
                f"({n}) at non-singleton dimension {offset + i}.  Target sizes: {sizes}.  "
                f"Tensor sizes: {list(array.shape)}")
    # as_strided rather than broadcast_to: the view is writable like the tensor itself
    # (fill_ works on it); in-place arithmetic on it is refused by check_inplace
    strides = [0 if n == 1 and sizes[offset + i] != 1 else array.strides[i]
               for i, n in enumerate(array.shape)]
    # a new leading dimension of size 1 gets PyTorch's stride (the size times stride of the
    # dimension after it), one that is really expanded gets 0
    for i in reversed(range(offset)):
        after = sizes[i + 1] * strides[0] if strides else 0
        strides.insert(0, after if sizes[i] == 1 else 0)
    strides = tuple(strides)
    expanded = np.lib.stride_tricks.as_strided(array, tuple(sizes), strides,
                                               writeable=array.flags.writeable)
    return _make_view(result(expanded, ExpandBackward0, (input,), _input_shape=array.shape),
                      input)


def _needs_record(input):
    return needs_grad((input,))


@history_first
def expand_as(input, other):
    """``input.expand(other.size())``. Gradient: summed over the expanded dimensions."""
    return expand(input, other.shape)


class RepeatBackward0(Node):
    """result = self.repeat(repeats)   ->   grad_self = grad summed over the copies"""

    def backward(self, grad):
        # the steps PyTorch takes (so create_graph=True records the same nodes):
        if 0 in self.repeats:
            return (grad.new_zeros(self.input_shape),)
        # new leading dims: summed away one at a time
        for _ in range(len(self.repeats) - len(self.input_shape)):
            grad = grad.sum(0)
        # a dim repeated r times splits into (r, n); sum over the r's, only if some r > 1
        split_shape, repeat_dims = [], []
        for n, r in zip(self.input_shape, self.repeats[len(self.repeats) - len(self.input_shape):]):
            if r != 1:
                repeat_dims.append(len(split_shape))
                split_shape.append(r)
            split_shape.append(n)
        if repeat_dims:
            grad = grad.reshape(split_shape).sum(dim=tuple(repeat_dims))
        return (grad,)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.repeat(repeats)"""
        return tangents[0].repeat(self.repeats)


def _check_repeats(repeats):
    """x.repeat(2.0) and friends: PyTorch's three messages, by how the sizes were given."""
    def bad(value):
        return not isinstance(value, (int, np.integer)) or isinstance(value, bool)
    start = "repeat(): argument 'repeats' "
    if len(repeats) == 1 and isinstance(repeats[0], (tuple, list)):
        for k, r in enumerate(repeats[0]):
            if bad(r):
                raise TypeError(start + f"(position 1) must be tuple of ints, but found element of "
                                f"type {type(r).__name__} at pos {k}")
    elif len(repeats) == 1 and bad(repeats[0]):
        raise TypeError(start + f"(position 1) must be tuple of ints, not {type(repeats[0]).__name__}")
    else:
        for k, r in enumerate(repeats):
            if bad(r):
                raise TypeError(start + f"failed to unpack the object at pos {k + 1} with error "
                                f"\"type must be tuple of ints,but got {type(r).__name__}\"")


@history_first
def repeat(input, *repeats):
    """The tensor tiled ``repeats`` times along each dimension (a copy).
    Gradient: the sum of the gradient over the copies.
    """
    _check_repeats(repeats)
    repeats = _sizes(repeats)
    if len(repeats) < input.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of "
                           "dimensions of tensor")
    if any(r < 0 for r in repeats):
        padded = (1,) * (len(repeats) - input.ndim) + tuple(input.shape)
        out_shape = [n * r for n, r in zip(padded, repeats)]
        bad = next(n for n in out_shape if n < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {out_shape}")
    # (PyTorch's result is row-major; numpy's tile of nothing to tile keeps the input's layout)
    out = result(row_major(np.tile(input._array, repeats)), RepeatBackward0, (input,), repeats=repeats,
                 input_shape=input._array.shape)
    return kernel_writes("repeat", out, input, repeats=repeats)


class FlipBackward0(Node):
    """result = self.flip(dims)   ->   grad_self = grad.flip(dims)"""

    def backward(self, grad):
        return (flip(grad, self.dims),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.flip(dims)"""
        return flip(tangents[0], self.dims)


@history_first
def flip(input, dims):
    """The elements in reverse order along ``dims`` (a copy). Gradient: the gradient flipped back."""
    dims_as_given = dims                  # (grad_fn._saved_dims shows them)
    dims = tuple(_normalize_dim(d, input.ndim) for d in ((dims,) if isinstance(dims, int) else dims))
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    # PyTorch's result keeps the input's layout (a transposed input gives a transposed result);
    # a 0-d tensor (dim 0 or -1 allowed, as for every operation) has nothing to reverse
    axes = dims if input._array.ndim else ()
    if not input._array.size:     # (numpy lays out a new empty array its own way; PyTorch as clone())
        copy = copy_in_format(with_pytorch_steps(input), preserve_format)
        out = keep_zero_steps(result(copy, FlipBackward0, (input,), dims=dims, dims_as_given=dims_as_given))
    else:
        out = result(np.flip(input._array, axes).copy(order="K"), FlipBackward0, (input,), dims=dims,
                     dims_as_given=dims_as_given)
    return kernel_writes("flip", out, input, dims=axes)


# --- joining and splitting --------------------------------------------------------------------

class CatBackward0(Node):
    """result = cat(tensors, dim)   ->
        grad_tensors[k] = the slice of grad where tensors[k] sits"""

    def backward(self, grad):
        grads, start = [], 0
        for size in self.sizes:
            if size is None:          # a skipped empty 1-D input: an empty gradient
                # (new zeros, filled in place by PyTorch's backward: at version 1, and only the
                # buffer holds it, so a second gradient for the same input is added into it)
                empty = _wrap(np.zeros(0, dtype=grad._array.dtype))
                empty._versions = [1]
                grads.append(empty)
                continue
            index = [slice(None)] * grad.ndim
            index[self.dim] = slice(start, start + size)
            grads.append(grad[tuple(index)])
            start += size
        return tuple(grads)

    def jvp(self, tangents, inputs, out):
        """result_t = cat(tensors_t, dim)"""
        return cat(tangents, self.dim)


@numpy_keywords
def cat(tensors, dim=0):
    """Join tensors along an existing dimension.

    Gradient: each input gets its own slice of grad back.
    """
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    check_history_kept(*tensors)
    for position, t in enumerate(tensors):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {position}) cannot be "
                               "concatenated\nminigrad hint: use minigrad.stack to join numbers")
    dtype = result_type(*tensors)
    # PyTorch skips empty 1-D tensors (shape [0]) whatever the others' shapes
    joined = [t for t in tensors if t.shape != (0,)] or tensors[:1]
    dim_as_given, dim = dim, _normalize_dim(dim, joined[0].ndim)     # (grad_fn._saved_dim shows it)
    try:
        out = np.concatenate([t._array for t in joined], axis=dim).astype(dtype, order="C", copy=False)
    except ValueError:
        raise _cat_mismatch(joined, dim) from None
    # (every empty 1-D input is skipped, even the one joined when all are: it gets new zeros back)
    sizes = [None if t.shape == (0,) else t.shape[dim] for t in tensors]
    return result(out, CatBackward0, tensors, dim=dim, sizes=sizes, dim_as_given=dim_as_given)


concat = cat


def _cat_mismatch(tensors, dim):
    """PyTorch's message for the first tensor that does not fit next to the first one."""
    first = tensors[0].shape
    hint = f"\nminigrad hint: the shapes are {[list(t.shape) for t in tensors]}"
    for number, t in enumerate(tensors[1:], start=1):
        if t.ndim != len(first):
            return RuntimeError(
                f"Tensors must have same number of dimensions: got {len(first)} and {t.ndim}" + hint)
        for d, (expected, got) in enumerate(zip(first, t.shape)):
            if d != dim and expected != got:
                return RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size "
                    f"{expected} but got size {got} for tensor number {number} in the list." + hint)
    return RuntimeError(f"Sizes of tensors must match except in dimension {dim}")


class StackBackward0(Node):
    """result = stack(tensors, dim)   ->   grad_tensors[k] = grad.select(dim, k)"""

    def backward(self, grad):
        return tuple(grad.select(self.dim, i) for i in range(self.count))

    def jvp(self, tangents, inputs, out):
        """result_t = stack(tensors_t, dim)"""
        return stack(tangents, self.dim)


@numpy_keywords
def stack(tensors, dim=0):
    """Join same-shaped tensors along a new dimension.

    Gradient: each input gets grad.select(dim, k), its slice of the gradient.
    """
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    check_history_kept(*tensors)
    shapes = {t.shape for t in tensors}
    if len(shapes) > 1:
        first, *_ = tensors
        bad = next(i for i, t in enumerate(tensors) if t.shape != first.shape)
        raise RuntimeError(
            f"stack expects each tensor to be equal size, but got {list(first.shape)} at entry 0 "
            f"and {list(tensors[bad].shape)} at entry {bad}")
    dim_as_given, dim = dim, _normalize_dim(dim, tensors[0].ndim + 1)     # (grad_fn._saved_dim shows it)
    out = np.stack([t._array for t in tensors], axis=dim).astype(result_type(*tensors), order="C",
                                                                 copy=False)
    return result(out, StackBackward0, tensors, dim=dim, count=len(tensors), dim_as_given=dim_as_given)


# unbind, split and chunk return several tensors made by *one* node, as in PyTorch: each
# piece is output number i of that node (its ``output_nr``), so the graph shows a single
# UnbindBackward0 / SplitBackward0 with edges (node, 0), (node, 1), ... pointing at it.

def _pieces_of(input, arrays, node_class, **attributes):
    """Tensors (views of ``input``) for ``arrays``, all recorded as outputs of one node."""
    pieces = tuple(_make_view(plain_output(array, input), input) for array in arrays)
    if _DualLevel.open:        # forward mode: each piece gets its part of the input's tangent
        push_tangents_of_pieces(pieces, input, node_class, attributes)
    if pieces and needs_grad((input,)):
        node = connect(pieces[0], node_class(), (input,))
        keep_settings(node, attributes)
        attach_outputs(node, pieces)
    if _State.enabled and not input._is_inference:
        # PyTorch's rules for several views made at once apply even without history (but not
        # to the pieces of an inference tensor, which are no views: see _make_view)
        for piece in pieces:
            if piece._made_in_inference_mode:
                continue            # (PyTorch: a view of a view made in inference mode stays one)
            piece._multi_output_view = True
            piece._view_of_no_grad_view = False      # PyTorch: the newer rule (multiple views) wins
    return pieces


def _zeros_where_missing(node, grads):
    """Pieces that were never used get no gradient (None): they contribute zeros."""
    return [g if g is not None else _wrap(np.zeros(shape, dtype=node._output_dtype))
            for g, shape in zip(grads, node._output_shapes)]


class UnbindBackward0(Node):
    """results = self.unbind(dim)   ->   grad_self = stack(grads of the slices, dim)"""

    def backward(self, *grads):
        return (stack(_zeros_where_missing(self, grads), self.dim),)

    def jvp(self, tangents, inputs, out):
        """results_t = self_t.unbind(dim)"""
        return unbind(tangents[0], self.dim)


@history_first
def unbind(input, dim=0):
    """The slices along ``dim`` as a tuple.

    Gradient: the slices' gradients stacked back along ``dim`` (zeros for unused slices).
    """
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)     # (grad_fn._saved_dim shows it)
    if input.ndim == 0:         # (checked after the dim, which a 0-d tensor takes as -1 or 0)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    # basic indexing with a trailing ... gives numpy views (np.take would copy)
    array = with_pytorch_steps(input)
    arrays = [array[(slice(None),) * dim + (i, Ellipsis)] for i in range(input.shape[dim])]
    return _pieces_of(input, arrays, UnbindBackward0, dim=dim, dim_as_given=dim_as_given)


class SplitBackward0(Node):
    """results = self.split(size, dim)   ->   grad_self = cat(grads of the pieces, dim)"""

    def backward(self, *grads):
        return (cat(_zeros_where_missing(self, grads), self.dim),)

    def jvp(self, tangents, inputs, out):
        """results_t = self_t split into the same pieces"""
        return split(tangents[0], [piece.shape[self.dim] for piece in out], self.dim)


class SplitWithSizesBackward0(SplitBackward0):
    """results = self.split(sizes, dim), a list of sizes   ->
        grad_self = cat(grads of the pieces, dim)"""


@history_first
def split(input, split_size_or_sections, dim=0):
    """Pieces of ``split_size`` along ``dim`` (the last may be smaller), or of the listed sizes.

    Gradient: the pieces' gradients joined back along ``dim`` (zeros for unused pieces).
    """
    if input.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)     # (grad_fn._saved_dim shows it)
    length = input.shape[dim]
    if isinstance(split_size_or_sections, int):
        if split_size_or_sections <= 0 and length:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                               f"size of {length}" if split_size_or_sections == 0 else
                               f"split expects split_size be non-negative, but got split_size="
                               f"{split_size_or_sections}")
        if length == 0:
            sizes = [0]           # PyTorch: an empty dimension still gives one (empty) piece
        else:
            sizes = [split_size_or_sections] * (length // split_size_or_sections)
            if length % split_size_or_sections:
                sizes.append(length % split_size_or_sections)
        node_class = SplitBackward0
    else:
        sizes = [int(n) for n in split_size_or_sections]
        if any(n < 0 for n in sizes):       # (checked first: [4, -1] sums to 3 but is no split)
            raise RuntimeError("split_with_sizes expects split_sizes have only non-negative entries, "
                               f"but got split_sizes={sizes}")
        if sum(sizes) != length:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {length} (input tensor's "
                f"size at dimension {dim}), but got split_sizes={sizes}")
        node_class = SplitWithSizesBackward0
    arrays, start, array = [], 0, with_pytorch_steps(input)
    for size in sizes:
        index = (slice(None),) * dim + (slice(start, start + size),)
        arrays.append(array[index])
        start += size
    return _pieces_of(input, arrays, node_class, dim=dim, dim_as_given=dim_as_given,
                      split_size=split_size_or_sections, input_shape=input._array.shape)


def chunk(input, chunks, dim=0):
    """``chunks`` pieces of (nearly) equal size along ``dim`` (a split, as in PyTorch)."""
    if input.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    length = input.shape[_normalize_dim(dim, input.ndim)]
    if length == 0:
        return split(input, [0] * chunks, dim)      # PyTorch: ``chunks`` empty pieces
    return split(input, -(-length // chunks), dim)


# --- copies and conversions ----------------------------------------------------------------------

class ToCopyBackward0(Node):
    """result = self.to(dtype)   ->   grad_self = grad.to(self.dtype)"""

    def backward(self, grad):
        return (grad.to(self._input_dtype),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.to(dtype)"""
        return tangents[0].to(out.dtype)


def to_dtype(input, dtype, memory_format=preserve_format):
    """A copy of ``input`` in ``dtype`` (ToCopyBackward0), laid out as input (or ``memory_format``)."""
    out = input._array.astype(dtype.numpy_dtype)
    if memory_format is not preserve_format:
        out = copy_in_format(out, memory_format)
    elif not input._array.flags.c_contiguous or 1 in out.shape or not out.size:
        laid_out = empty_laid_out_like(with_pytorch_steps(input), out.dtype)   # as clone lays it out
        laid_out[...] = out
        out = laid_out
    if dtype.is_floating_point:
        return keep_zero_steps(result(out, ToCopyBackward0, (input,), _input_dtype=input.dtype))
    return keep_zero_steps(plain_output(out, input))    # integer results can't carry gradients


class CloneBackward0(Node):
    """result = self.clone()   ->   grad_self = grad"""

    def backward(self, grad):
        return (grad,)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.clone()"""
        return clone(tangents[0])


def clone(input, *, memory_format=preserve_format):
    """A copy with its own memory (the same memory layout, as PyTorch's clone keeps strides,
    unless ``memory_format`` asks for another)."""
    check_memory_format("clone", memory_format)
    out = result(copy_in_format(with_pytorch_steps(input), memory_format), CloneBackward0, (input,))
    kernel_writes("clone", out, input)
    return keep_zero_steps(out) if memory_format is preserve_format else out


class CopyBackwards(Node):
    """result = self.copy_(src)   ->   grad_self = 0; grad_src = grad, summed to src's shape"""

    def name(self):
        """``'torch::autograd::CopyBackwards'``: PyTorch spells out this C++ node's namespace."""
        return "torch::autograd::CopyBackwards"

    def backward(self, grad):
        # zeros_like(grad) for self, as PyTorch: new zeros with no history
        return _wrap(np.zeros(grad._array.shape, dtype=grad._array.dtype)), grad.to(self._source_dtype)

    def jvp(self, tangents, inputs, out):
        """result_t = src_t, broadcast to self's shape and dtype"""
        return copy_into(tangents[0], tangents[1])


def copy_into(old, source):
    """The out-of-place half of ``copy_``: ``source`` broadcast to ``old``'s shape and dtype."""
    try:
        array = np.broadcast_to(source._array, old._array.shape).astype(old._array.dtype)
    except ValueError:
        # PyTorch broadcasts the two shapes; the result must be the destination's own shape
        # (so even extra leading size-1 dims of the source are refused)
        try:
            shape = np.broadcast_shapes(old._array.shape, source._array.shape)
        except ValueError:
            raise _broadcast_error(old, source) from None
        raise RuntimeError(f"output with shape {list(old.shape)} doesn't match the broadcast "
                           f"shape {list(shape)}") from None
    return result(array, CopyBackwards, (old, source), _source_dtype=source.dtype)


class SelectBackward0(Node):
    """result = self.select(dim, index)   ->   grad_self = zeros, with grad at index along dim"""

    def backward(self, grad):
        full = np.zeros(self.input_shape, dtype=grad._array.dtype)
        full[self.index] = grad._array
        # recorded as PyTorch's select_backward, so that create_graph=True can differentiate it
        return (result(full, SelectBackwardBackward0, (grad,), index=self.index),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.select(dim, index)"""
        return tangents[0][self.index]


class SelectBackwardBackward0(Node):
    """result = zeros with g placed at index along dim (select's backward, recorded)   ->
        grad_g = grad.select(dim, index)"""

    def backward(self, gg):
        return (gg[self.index],)


@history_first
def select(input, dim, index):
    """A view of ``input`` at ``index`` along ``dim`` (that dimension removed). Gradient: scattered back
    into zeros at that index.
    """
    if input.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim_as_given, index_as_given = dim, index       # (grad_fn._saved_dim / _saved_index show them)
    dim = _normalize_dim(dim, input.ndim)
    size = input.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(input.shape)} at dimension {dim}")
    full_index = (slice(None),) * dim + (index % size,)
    # the trailing ... keeps a 0-d result a numpy view (a[0] alone would copy out a scalar)
    out = result(with_pytorch_steps(input)[full_index + (Ellipsis,)], SelectBackward0, (input,),
                 input_shape=input._array.shape, index=full_index, dim_as_given=dim_as_given,
                 index_as_given=index_as_given)
    return _make_view(out, input)


# --- new tensors with the same dtype, and comparisons of whole tensors ---------------------------

def new_zeros(input, *size, dtype=None, requires_grad=False):
    """A new tensor of ``size`` filled with 0, with this tensor's dtype unless ``dtype`` (no history).

    Inside vmap, new_zeros, new_ones and new_full of a batched tensor are batched too, as
    in PyTorch (new_tensor's are not: they hold the data given)."""
    _check_size_given("new_zeros", size)
    out = batched_as(zeros(*size, dtype=dtype or input.dtype, requires_grad=requires_grad), input)
    return kernel_writes("new_zeros", out, input)


def new_empty(input, *size, dtype=None, requires_grad=False):
    """A new tensor of ``size`` with this tensor's dtype unless ``dtype`` (no history).

    PyTorch leaves its values unset (whatever was in memory); minigrad fills it with 0,
    so that lessons print the same every run."""
    flat = size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    for value in flat:
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise TypeError(f"new_empty(): argument 'size' (position 1) must be tuple of ints, not "
                            f"{type_name(value)}")
    _check_size_given("new_empty", size)
    return batched_as(zeros(*size, dtype=dtype or input.dtype, requires_grad=requires_grad), input)


def new_ones(input, *size, dtype=None, requires_grad=False):
    """A new tensor of ``size`` filled with 1, with this tensor's dtype unless ``dtype`` (no history)."""
    _check_size_given("new_ones", size)
    out = batched_as(ones(*size, dtype=dtype or input.dtype, requires_grad=requires_grad), input)
    return kernel_writes("new_ones", out, input)


def new_full(input, size, fill_value, dtype=None, requires_grad=False):
    """A new tensor of ``size`` filled with ``fill_value``, with this tensor's dtype unless ``dtype`` (no history)."""
    out = batched_as(full(size, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad), input)
    return kernel_writes("new_full", out, input)


def new_tensor(input, data, dtype=None, requires_grad=False):
    """A copy of ``data`` as a tensor with this tensor's dtype unless ``dtype`` (no history)."""
    return tensor(data, dtype=dtype or input.dtype, requires_grad=requires_grad)


class MaskedFillBackward0(Node):
    """result = self.masked_fill(mask, value), value a number   ->
        grad_self = grad, 0 where mask"""

    _saved_names = ('mask',)      # grad_fn._saved_mask, ... as in PyTorch

    def backward(self, grad):
        (mask,) = self.saved_tensors
        return (grad.masked_fill(mask, 0),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t, 0 where mask"""
        return tangents[0].masked_fill(self.saved_tensors[0], 0)


class MaskedFillBackward1(Node):
    """result = self.masked_fill(mask, value), value a 0-d tensor   ->
        grad_self = grad, 0 where mask; grad_value = grad summed where mask"""

    _saved_names = ('mask',)      # grad_fn._saved_mask, ... as in PyTorch

    def backward(self, grad):
        (mask,) = self.saved_tensors
        return grad.masked_fill(mask, 0), where(mask, grad, grad * 0).sum()

    def jvp(self, tangents, inputs, out):
        """result_t = self_t, value_t where mask"""
        return tangents[0].masked_fill(self.saved_tensors[0], tangents[1])


def masked_fill(input, mask, value):
    """A copy of ``input`` with ``value`` wherever the bool tensor ``mask`` is True."""
    if _FuncTransforms.vmaps and isinstance(value, Tensor):
        warn_no_batching_rule("masked_fill.Tensor", (input, mask, value), "masked_fill.Tensor")
    return masked_fill_copy(input, mask, value)


def masked_fill_copy(input, mask, value):
    """``masked_fill`` itself (``masked_fill_`` writes its result back)."""
    if mask._array.dtype.kind != "b":
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{cpp_type_name(mask.dtype)}")
    if isinstance(value, Tensor) and value.ndim != 0:
        raise RuntimeError(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value.ndim} dimension(s).")
    try:                                  # the shapes first, then the value
        np.broadcast_shapes(mask._array.shape, input._array.shape)
    except ValueError:
        check_history_kept(input)
        raise _broadcast_error(mask, input) from None
    if isinstance(value, Tensor):
        # PyTorch fills with value.item(), converted to input's dtype with its check: a NaN or
        # 300 can't fill an int8 tensor (the value's gradient, if any, is its masked sum)
        checked_scalar(value._array.item(), input._array.dtype)
        out = np.where(mask._array, value._array, input._array).astype(input._array.dtype, order="C",
                                                                         copy=False)
        return kernel_writes("masked_fill", result(out, MaskedFillBackward1, (input, value), saved=(mask,)),
                             input, mask, value)
    if type(value) in (int, float, complex):      # (PyTorch's checked conversion to input's dtype)
        value = checked_scalar(value, input._array.dtype)
    # PyTorch fills a contiguous copy, whatever the input's layout
    out = np.where(mask._array, value, input._array).astype(input._array.dtype, order="C", copy=False)
    return kernel_writes("masked_fill", result(out, MaskedFillBackward0, (input,), saved=(mask,)), input, mask)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True if all elements are close: |input - other| <= atol + rtol * |other|."""
    if _FuncTransforms.vmaps and batched_levels((input, other)):   # one True/False for a batch?
        raise RuntimeError("vmap over torch.allclose isn't supported yet. Please file an issue at "
                           "https://github.com/pytorch/pytorch/issues if you need this feature.")
    if not isinstance(other, Tensor):
        raise TypeError(f"allclose(): argument 'other' (position 2) must be Tensor, not {type_name(other)}")
    # PyTorch's allclose is isclose(...).all(): its checks too (the same dtype, tolerances >= 0),
    # but below the autograd layer, so no input's history is looked up
    return bool(_isclose(input, other, rtol, atol, equal_nan, looks_up_history=False)._array.all())


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise |input - other| <= atol + rtol * |other| (a boolean tensor, no gradient).

    As PyTorch computes it: ``input == other``, then (equal_nan) NaNs in both places, then the
    finite errors within the allowed one, each ORed into the result in place (so its version
    counts them); the errors in the inputs' dtype (bools and integers in the default float)."""
    return _isclose(input, other, rtol, atol, equal_nan, looks_up_history=True)


def _isclose(input, other, rtol, atol, equal_nan, looks_up_history):
    if _FuncTransforms.vmaps:
        warn_no_batching_rule("isclose", (input, other))
    if not isinstance(other, Tensor):
        raise TypeError(f"isclose(): argument 'other' (position 2) must be Tensor, not {type_name(other)}")
    a, b = input._array, other._array
    if a.dtype != b.dtype:
        raise RuntimeError(f"{scalar_type_name(input.dtype)} did not match {scalar_type_name(other.dtype)}")
    for name, value in (("rtol", rtol), ("atol", atol)):
        if value < 0:
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got {float(value):g}")
    try:
        close = np.asarray(a == b)
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise _broadcast_error(input, other) from None
    changes = 0
    if equal_nan and a.dtype.kind == "f":
        close = close | (np.isnan(a) & np.isnan(b))
        changes += 1
    if rtol != 0 or atol != 0:
        # PyTorch's isclose computes the errors with recorded operations (a subtraction, abs):
        # like any recorded operation they look up the inputs' history first, so a view whose
        # history was lost (made under no_grad, its base changed in place since) raises here
        if looks_up_history:
            check_history_kept(input, other)
        if a.dtype.kind != "f":                     # (PyTorch's arithmetic promotes them)
            a, b = a.astype(np.float32), b.astype(np.float32)
        with np.errstate(all="ignore"):
            allowed = np.abs(b * a.dtype.type(rtol)) + a.dtype.type(atol)
            actual = np.abs(a - b)
            close = close | (np.isfinite(actual) & (actual <= allowed))
        changes += 1
    out = plain_output(np.asarray(close), input, other)
    out._version_counter[0] += changes
    return out


def equal(input, other):
    """True if both tensors have the same shape and elements."""
    if _FuncTransforms.vmaps and batched_levels((input, other)):
        raise RuntimeError("Batching rule not implemented for aten::equal. We could not generate a "
                           "fallback.")
    return input.shape == other.shape and bool(np.array_equal(input._array, other._array))


def _array_of(value):
    return value._array if isinstance(value, Tensor) else np.asarray(value)


Size = Size
