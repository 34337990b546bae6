"""Seeing memory through any sizes and strides: as_strided, as_strided_, as_strided_scatter.

Every tensor is a window onto a block of memory (its *storage*): element ``[i, j]`` sits
``storage_offset + i * stride[0] + j * stride[1]`` elements into it. ``view``, ``t``,
``x[1:]``, ``expand`` ... all pick sizes, strides and an offset for you; ``as_strided``
lets you pick them yourself. The result is a view (same memory, same version counter).

Its gradient: every element of the window was read from one place in memory, so its
gradient goes back to that place; a place the window reads twice (overlapping windows,
a stride of 0) gets both gradients added. That is the same ``AsStridedBackward0`` a view
gets when its base changes in place (views.py), and it is computed there.

PyTorch: torch.as_strided, Tensor.as_strided_, torch.as_strided_scatter.
"""
import numpy as np

from .._type_names import type_name
from .._dtype import scalar_type_name
from .._tensor import Tensor, _wrap
from ..autograd.grad_mode import is_grad_enabled
from ..autograd.graph import Node, _SETTINGS_KEPT_AS, show_saved_names
from .views import AsStridedBackward0, history_first
from . import result
from .shape import _make_view
from ..autograd.kernel_writes import kernel_writes


# --- the storage behind a tensor ---------------------------------------------------------------

def storage_of(tensor):
    """The whole memory of ``tensor``'s storage as a flat numpy array, and where ``tensor``
    starts in it (its storage offset).

    The storage belongs to the root base (a view has none of its own). A tensor whose own
    layout ``as_strided_`` changed keeps the flat memory it had in ``_storage_memory``."""
    root = tensor._base if tensor._base is not None else tensor
    memory = _memory_of(root)
    if root is tensor and tensor._detached_from is not None:
        # detach() and view(dtype) share their source's storage (while it still holds it)
        source = tensor._detached_from()
        if source is not None and source is not tensor:
            shared = _memory_of(source._base if source._base is not None else source)
            if _lies_within(tensor._array, shared):
                memory = shared
    if memory.dtype != tensor._array.dtype:     # (seen through view(dtype): the same bytes)
        usable = memory.nbytes - memory.nbytes % tensor._array.itemsize
        memory = memory.view(np.uint8)[:usable].view(tensor._array.dtype)
    start = memory.__array_interface__["data"][0]
    offset = (tensor._array.__array_interface__["data"][0] - start) // tensor._array.itemsize
    return memory, offset


def _memory_of(root):
    """The flat memory of a root tensor (one that is no view), from its first element to its last."""
    memory = root.__dict__.get("_storage_memory")
    if memory is None:
        array = root._array
        length = 0
        if array.size:       # (the last element's position, plus one)
            length = 1 + sum((n - 1) * step for n, step in zip(array.shape, array.strides)) // array.itemsize
        memory = np.lib.stride_tricks.as_strided(array, (length,), (array.itemsize,),
                                                 writeable=array.flags.writeable)
    return memory


def _lies_within(array, memory):
    """Does ``array`` start inside ``memory``'s bytes?"""
    start = memory.__array_interface__["data"][0]
    return start <= array.__array_interface__["data"][0] < start + max(memory.nbytes, 1)


def _int_list(name, values, position):
    """``size``/``stride`` must be sequences of ints (PyTorch's TypeError otherwise)."""
    if isinstance(values, (int, np.integer)) and not isinstance(values, bool):
        return (int(values),)
    if not isinstance(values, (tuple, list)) or not all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        raise TypeError(f"as_strided(): argument '{name}' (position {position}) must be tuple of "
                        f"ints, not {type_name(values)}")
    return tuple(int(v) for v in values)


def _window(tensor, size, stride, storage_offset, name="as_strided"):
    """The numpy array seeing ``tensor``'s storage with these sizes, strides and offset,
    after PyTorch's checks (in PyTorch's order), and the offset used."""
    size = _int_list("size", size, 2)
    stride = _int_list("stride", stride, 3)
    if storage_offset is not None and (not isinstance(storage_offset, (int, np.integer))
                                       or isinstance(storage_offset, bool)):
        raise TypeError(f"{name}(): argument 'storage_offset' (position 4) must be int, not "
                        f"{type_name(storage_offset)}")
    memory, own_offset = storage_of(tensor)
    offset = own_offset if storage_offset is None else int(storage_offset)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(step < 0 for step in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {list(stride)}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    itemsize = memory.itemsize
    # the memory the window reaches: up to its last element (nothing, if it has no elements)
    needed = 0 if 0 in size else offset + 1 + sum((n - 1) * step for n, step in zip(size, stride))
    if needed > memory.size:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
            f"itemsize {itemsize} requiring a storage size of {needed * itemsize} are out of bounds "
            f"for storage of size {memory.size * itemsize}")
    start = memory[offset:] if offset < memory.size else memory[memory.size:]
    array = np.lib.stride_tricks.as_strided(start, size, tuple(step * itemsize for step in stride),
                                            writeable=memory.flags.writeable)
    return array, offset


# --- as_strided: a view with the sizes, strides and offset you give -------------------------------
# AsStridedBackward0 itself lives in views.py (a view whose base changed in place gets one too).
# PyTorch's node shows the view's geometry: _saved_size, _saved_stride, _saved_storage_offset
# (None when as_strided was called without an offset).

def _view_geometry(part):
    def shown(settings):
        view = settings["view_array"]
        if part == "size":
            return tuple(view.shape)
        if part == "stride":
            return tuple(step // view.itemsize for step in view.strides)
        if "storage_offset" in settings:       # (as given to as_strided, None if it was not)
            return settings["storage_offset"]
        base = settings["base_array"]          # (a view made again: where it starts in its base)
        return (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // view.itemsize
    return shown


_GEOMETRY = {"size": _view_geometry("size"), "storage_offset": _view_geometry("storage_offset"),
             "stride": _view_geometry("stride")}
_SETTINGS_KEPT_AS["AsStridedBackward0"] = _GEOMETRY
show_saved_names(AsStridedBackward0, _GEOMETRY)


@history_first
def as_strided(input, size, stride, storage_offset=None):
    """A view of ``input``'s memory with the given ``size``, ``stride`` and ``storage_offset``
    (the offset defaults to input's own): element ``[i, j]`` is memory
    ``storage_offset + i * stride[0] + j * stride[1]``.

    Windows may overlap (``x.as_strided((3, 2), (1, 1))`` sees ``x[1]`` twice); each
    element's gradient is added back where it was read.

    Gradient: grad_input = zeros, with grad added at the memory each element was read from.
    """
    array, _ = _window(input, size, stride, storage_offset)
    out = result(array, AsStridedBackward0, (input,), base_array=input._array, view_array=array,
                 storage_offset=storage_offset)
    return _make_view(out, input)


class AsStridedBackward1(AsStridedBackward0):
    """result = self.as_strided_(size, stride, storage_offset)   ->
        grad_self = zeros, with grad added at the memory each element was read from"""


_SETTINGS_KEPT_AS["AsStridedBackward1"] = _GEOMETRY
show_saved_names(AsStridedBackward1, _GEOMETRY)


def as_strided_(self, size, stride, storage_offset=None):
    """Let this tensor itself see its memory with new sizes, strides and offset (in place;
    AsStridedBackward1)."""
    from .inplace import check_inplace                 # lazy: inplace imports shape, as we do
    from .inplace_unary import _reshape_inplace
    check_inplace(self, overlap_ok=True, layout_only=True)     # only the layout changes, not the memory
    memory, _ = storage_of(self)
    array, offset = _window(self, size, stride, storage_offset, "as_strided_")
    old_array = self._array
    if self._base is None:
        self.__dict__["_storage_memory"] = memory     # its storage stays what it was
    return _reshape_inplace(self, array, AsStridedBackward1, base_array=old_array, view_array=array,
                            storage_offset=offset)


# --- as_strided_scatter: the same window, written into a copy --------------------------------------

class AsStridedScatterBackward0(Node):
    """result = input with input.as_strided(size, stride, storage_offset) replaced by src   ->
        grad_input = grad inside the window, zeros outside (PyTorch's formula, see below);
        grad_src = grad.as_strided(size, stride, storage_offset)

    Careful: PyTorch 2.13's gradient for ``input`` keeps grad *inside* the window and zeros
    outside, the reverse of the true derivative (the window's old values were overwritten,
    the rest were copied through): ``gradcheck`` fails for input in PyTorch too. minigrad
    computes what PyTorch computes, so that the two libraries agree; src's gradient is right.
    Both windows are measured in grad's own (contiguous) memory.
    """

    def backward(self, grad):
        # as PyTorch, step by step (so that with create_graph=True the history is PyTorch's):
        # the window of grad, a view; for input, new zeros with that window copied in, seen
        # with input's sizes and strides
        grad_input = None
        window = as_strided(grad.contiguous(), self.size, self.stride, self.storage_offset)
        if self.should_compute_output(0):
            memory = _wrap(np.zeros(grad._array.shape, dtype=grad._array.dtype))
            as_strided(memory, self.size, self.stride, self.storage_offset).copy_(window)
            grad_input = as_strided(memory, self.input_shape, self.input_strides, 0)
        return grad_input, window if self.should_compute_output(1) else None

    def jvp(self, tangents, inputs, out):
        """result_t = self_t with its window replaced by src_t (forward mode has the true
        derivative, in PyTorch as here)"""
        return as_strided_scatter(tangents[0], tangents[1], self.size, self.stride,
                                  self.storage_offset_as_given)


_SETTINGS_KEPT_AS["AsStridedScatterBackward0"] = {
    "size": "size", "storage_offset": "storage_offset_as_given", "stride": "stride"}
show_saved_names(AsStridedScatterBackward0, _SETTINGS_KEPT_AS["AsStridedScatterBackward0"])


@history_first
def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """A copy of ``input`` whose window ``input.as_strided(size, stride, storage_offset)`` holds
    ``src`` instead.

    As in PyTorch the copy keeps input's layout in a copy of its whole storage, so the window
    is measured in that storage (an offset counts from the storage's start, not input's).

    Gradient: grad_input = grad with zeros in the window; grad_src = grad read in the window.
    """
    if not isinstance(src, Tensor):
        raise TypeError(f"as_strided_scatter(): argument 'src' (position 2) must be Tensor, not "
                        f"{type_name(src)}")
    if (input.requires_grad or src.requires_grad) and not input.is_contiguous():
        raise RuntimeError(
            '!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT FAILED at "/__w/pytorch/'
            'pytorch/aten/src/ATen/native/TensorShape.cpp":4754, please report a bug to PyTorch. '
            "as_strided_scatter is currently only supported for contiguous inputs")
    if (input.requires_grad or src.requires_grad) and input._array.dtype.kind not in "fc" and is_grad_enabled():
        # the result has input's dtype, which cannot carry a gradient: PyTorch refuses to record
        # (rather than record nothing, as most operations with such results do)
        raise RuntimeError(f"Autograd not support dtype: {scalar_type_name(input.dtype)}")
    memory, own_offset = storage_of(input)
    copy = memory.copy()
    out_array = np.lib.stride_tricks.as_strided(
        copy[own_offset:], input._array.shape, input._array.strides)
    out = _wrap(out_array)
    out.__dict__["_storage_memory"] = copy        # (its storage is the whole copy)
    window, offset = _window(out, size, stride, storage_offset, "as_strided_scatter")
    if tuple(src.shape) != window.shape:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{list(src.shape)}, slice size = {list(window.shape)}")
    window[...] = src._array
    recorded = result(out_array, AsStridedScatterBackward0, (input, src), size=tuple(window.shape),
                      stride=tuple(s // window.itemsize for s in window.strides), storage_offset=offset,
                      storage_offset_as_given=storage_offset, input_shape=tuple(input.shape),
                      input_strides=input.stride())
    recorded.__dict__["_storage_memory"] = copy
    return kernel_writes("as_strided_scatter", recorded, input, src)
