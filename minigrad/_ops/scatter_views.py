"""Writing into a view, out of place: select_scatter, slice_scatter, diagonal_scatter; and
narrow_copy, narrow as a new tensor.

``torch.select_scatter(x, src, dim, i)`` is a copy of x whose slice ``x.select(dim, i)``
is replaced by src (slice_scatter: ``x[start:end:step]`` along dim; diagonal_scatter:
``x.diagonal(offset, dim1, dim2)``). Each output element comes either from x or from
src, so the gradient splits the same way: src gets grad read at the view, x gets grad
with zeros written at the view (those old values were overwritten).
PyTorch: torch.select_scatter, torch.slice_scatter, torch.diagonal_scatter, torch.narrow_copy.
"""
import numpy as np

from .._type_names import type_name
from .._tensor import Tensor, _wrap, _normalize_dim
from ..autograd.graph import Node, _SETTINGS_KEPT_AS, show_saved_names, shown_as_given
from .views import history_first
from .strided import storage_of
from . import result
from .shape import select
from .einsum import diagonal
from .indexing import _slice, SliceBackwardBackward0
from ..autograd.kernel_writes import kernel_writes


def _check_src(name, src):
    """x.select_scatter(src, ...): src must be a tensor (torch.select_scatter's check, which
    counts x as position 1, is made when the function is called: see _python_arg_parser.py)."""
    if not isinstance(src, Tensor):
        raise TypeError(f"{name}(): argument 'src' (position 1) must be Tensor, not "
                        f"{type_name(src)}")


def _check_src_size(src, view_shape):
    if tuple(src.shape) != tuple(view_shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{list(src.shape)}, slice size = {list(view_shape)}")


def _zeros_like(tensor, dtype):
    return _wrap(np.zeros(tensor.shape, dtype=dtype))


def _clone_keeping_strides(input):
    """The copy of ``input`` the *_scatter operations write into, PyTorch's
    clone_preserve_strides: the whole storage copied and seen with input's sizes, strides and
    offset (so a transposed or overlapping input gives a transposed or overlapping result);
    an input that repeats elements through a step of 0 (expand) is copied row-major instead.
    Returns the array and the storage it sees (None for a row-major copy)."""
    array = input._array
    if not array.size or any(step == 0 and n > 1 for n, step in zip(array.shape, array.strides)):
        return np.array(array, order="C"), None
    memory, offset = storage_of(input)
    if memory.size == array.size:
        # a storage of just the elements (in some order): a copy in the same layout owns its
        # memory, as PyTorch's clone does (so the engine may add a gradient into it in place)
        copy = array.copy(order="K")
        if copy.strides == array.strides:
            return copy, None
    memory = memory.copy()
    return np.lib.stride_tricks.as_strided(memory[offset:], array.shape, array.strides), memory


def _with_storage(out, memory):
    """``out`` (made from a _clone_keeping_strides array) keeps the whole copied storage."""
    if memory is not None:
        out.__dict__["_storage_memory"] = memory      # (its storage: see strided.py)
    return out


def _scattered(input, src, index):
    """A copy of input (see _clone_keeping_strides) with src written at ``index`` (cast to
    input's dtype), and the storage the copy sees."""
    out, memory = _clone_keeping_strides(input)
    out[index] = src._array
    return out, memory


# --- select_scatter --------------------------------------------------------------------------

class SelectScatterBackward0(Node):
    """result = self with self.select(dim, index) replaced by src   ->
        grad_self = select_scatter(grad, zeros_like(src), dim, index);
        grad_src = grad.select(dim, index)"""

    def backward(self, grad):
        grad_self = grad_src = None
        if self.should_compute_output(0):
            zeros = _zeros_like(grad.select(self.dim, self.index), grad._array.dtype)
            grad_self = select_scatter(grad, zeros, self.dim, self.index)
        if self.should_compute_output(1):
            grad_src = select(grad, self.dim, self.index)
        return grad_self, grad_src

    def jvp(self, tangents, inputs, out):
        """result_t = select_scatter(self_t, src_t, dim, index)"""
        return select_scatter(tangents[0], tangents[1], self.dim, self.index)


_SETTINGS_KEPT_AS["SelectScatterBackward0"] = {"dim": shown_as_given("dim_as_given"),
                                               "index": shown_as_given("index")}
show_saved_names(SelectScatterBackward0, _SETTINGS_KEPT_AS["SelectScatterBackward0"])


@history_first
def select_scatter(input, src, dim, index):
    """A copy of ``input`` with ``input.select(dim, index)`` replaced by ``src``.

    Gradient: src gets grad.select(dim, index); input gets grad with zeros there.
    """
    _check_src("select_scatter", src)
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)
    size = input.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(input.shape)} at dimension {dim}")
    position = (slice(None),) * dim + (index % size,)
    _check_src_size(src, input._array[position].shape)
    values, memory = _scattered(input, src, position)
    out = _with_storage(result(values, SelectScatterBackward0, (input, src),
                               dim=dim, index=index, dim_as_given=dim_as_given), memory)
    return kernel_writes("select_scatter", out, input, src)


# --- slice_scatter ---------------------------------------------------------------------------

class SliceScatterBackward0(Node):
    """result = self with self[start:end:step] (along dim) replaced by src   ->
        grad_self = slice_scatter(grad, zeros_like(src), dim, start, end, step);
        grad_src = grad[start:end:step] along dim"""

    def backward(self, grad):
        grad_self = grad_src = None
        if self.should_compute_output(0):
            zeros = _wrap(np.zeros(grad._array[self.position].shape, dtype=grad._array.dtype))
            grad_self = slice_scatter(grad, zeros, self.dim, self.start, self.end, self.step)
        if self.should_compute_output(1):
            grad_src = _slice(grad, self.dim, self.position[self.dim], dim_as_given=self.dim)
        return grad_self, grad_src

    def jvp(self, tangents, inputs, out):
        """result_t = slice_scatter(self_t, src_t, dim, start, end, step)"""
        return slice_scatter(tangents[0], tangents[1], self.dim, self.start, self.end, self.step)


_SETTINGS_KEPT_AS["SliceScatterBackward0"] = {
    "dim": shown_as_given("dim_as_given"), "end": shown_as_given("end"),
    "start": shown_as_given("start"), "step": "step"}
show_saved_names(SliceScatterBackward0, _SETTINGS_KEPT_AS["SliceScatterBackward0"])


@history_first
def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """A copy of ``input`` with ``input[start:end:step]`` along ``dim`` replaced by ``src``.

    Gradient: src gets grad[start:end:step]; input gets grad with zeros there.
    """
    if input.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    _check_src("slice_scatter", src)
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    # (a Python slice clamps start and end to the dimension, as PyTorch does)
    position = (slice(None),) * dim + (slice(start, end, step),)
    _check_src_size(src, input._array[position].shape)
    values, memory = _scattered(input, src, position)
    out = _with_storage(result(values, SliceScatterBackward0, (input, src),
                               dim=dim, start=start, end=end, step=step, position=position,
                               dim_as_given=dim_as_given), memory)
    return kernel_writes("slice_scatter", out, input, src)


# --- diagonal_scatter ------------------------------------------------------------------------

class DiagonalScatterBackward0(Node):
    """result = self with self.diagonal(offset, dim1, dim2) replaced by src   ->
        grad_self = diagonal_scatter(grad, zeros_like(src), offset, dim1, dim2);
        grad_src = grad.diagonal(offset, dim1, dim2)"""

    def backward(self, grad):
        grad_self = grad_src = None
        if self.should_compute_output(0):
            zeros = _wrap(np.zeros(self.src_shape, dtype=grad._array.dtype))
            grad_self = diagonal_scatter(grad, zeros, self.offset, self.dim1, self.dim2)
        if self.should_compute_output(1):
            grad_src = diagonal(grad, self.offset, self.dim1, self.dim2)
        return grad_self, grad_src

    def jvp(self, tangents, inputs, out):
        """result_t = diagonal_scatter(self_t, src_t, offset, dim1, dim2)"""
        return diagonal_scatter(tangents[0], tangents[1], self.offset, self.dim1, self.dim2)


_SETTINGS_KEPT_AS["DiagonalScatterBackward0"] = {
    "dim1": shown_as_given("dim1_as_given"), "dim2": shown_as_given("dim2_as_given"),
    "offset": shown_as_given("offset")}
show_saved_names(DiagonalScatterBackward0, _SETTINGS_KEPT_AS["DiagonalScatterBackward0"])


@history_first
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """A copy of ``input`` with ``input.diagonal(offset, dim1, dim2)`` replaced by ``src``.

    Gradient: src gets grad.diagonal(offset, dim1, dim2); input gets grad with zeros there.
    """
    _check_src("diagonal_scatter", src)
    values, memory = _clone_keeping_strides(input)
    out = _wrap(values)                                 # (no history: only its diagonal view)
    view = diagonal(out, offset, dim1, dim2)            # checks the dims, as PyTorch does
    _check_src_size(src, view.shape)
    view._array[...] = src._array                       # writes into out's memory
    out = _with_storage(result(out._array, DiagonalScatterBackward0, (input, src), offset=offset,
                               dim1=_normalize_dim(dim1, input.ndim), dim2=_normalize_dim(dim2, input.ndim),
                               dim1_as_given=dim1, dim2_as_given=dim2, src_shape=tuple(view.shape)), memory)
    return kernel_writes("diagonal_scatter", out, input, src)


# --- narrow_copy -----------------------------------------------------------------------------

class NarrowCopyBackward0(Node):
    """result = self.narrow(dim, start, length), copied   ->
        grad_self = zeros, with grad at positions start .. start+length-1 along dim"""

    def backward(self, grad):
        full = np.zeros(self.self_sym_sizes, dtype=grad._array.dtype)
        full[self.position] = grad._array
        # recorded as PyTorch's slice_backward, so that create_graph=True can differentiate it
        return (result(full, SliceBackwardBackward0, (grad,), index=self.position,
                       dim_as_given=self.dim_as_given),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.narrow_copy(dim, start, length)"""
        return narrow_copy(tangents[0], self.dim, self.start_as_given, self.length)


_SETTINGS_KEPT_AS["NarrowCopyBackward0"] = {
    "dim": shown_as_given("dim_as_given"), "length": "length", "self_sym_sizes": "self_sym_sizes",
    "start": shown_as_given("start_as_given")}
show_saved_names(NarrowCopyBackward0, _SETTINGS_KEPT_AS["NarrowCopyBackward0"])


@history_first
def narrow_copy(input, dim, start, length):
    """A new (contiguous) tensor holding ``input.narrow(dim, start, length)``.

    Gradient: grad placed back at those positions, zeros elsewhere.
    """
    if isinstance(start, Tensor):        # (a one-element integer tensor counts as its number)
        start = int(start.item())
    for position, (name, value) in enumerate((("dim", dim), ("start", start), ("length", length)), 1):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):   # (x.narrow_copy(...))
            raise TypeError(f"narrow_copy(): argument '{name}' (position {position}) must be int, not "
                            f"{type_name(value)}")
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if dim >= input.ndim:
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but "
                           "got false.  (Could this error message be improved?  If so, please "
                           "report an enhancement request to PyTorch.)")
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)
    size = input.shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but "
                         f"got {start})")
    first = start + size if start < 0 else start
    if length < 0 or first + length > size:
        raise RuntimeError(f"start ({first}) + length ({length}) exceeds dimension size ({size}).")
    position = (slice(None),) * dim + (slice(first, first + length),)
    return result(np.array(input._array[position], order="C"), NarrowCopyBackward0, (input,),
                  dim=dim, length=length, self_sym_sizes=tuple(input.shape), position=position,
                  dim_as_given=dim_as_given, start_as_given=start)
