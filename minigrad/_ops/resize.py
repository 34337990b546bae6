"""Resizing a tensor in place: ``x.resize_(2, 3)``, ``x.resize_as_(y)``, ``torch.resize_as_``.

(PyTorch: aten/src/ATen/native/Resize.cpp, and ``resize_`` in autograd's VariableTypeManual.)

A resize gives the tensor a new shape over the memory it starts at, laid out row-major (or
channels-last with ``memory_format=``). Shrinking keeps the memory and its values; growing
beyond the memory moves the tensor, and every other tensor over that memory (its base, the
base's views), to new memory that starts with the old values and whose new elements are zeros
(minigrad's ``empty()`` gives zeros; PyTorch's are whatever the memory held). Memory that
numpy owns (``from_numpy``) cannot grow. The shape changed counts as a change of the tensor
(its version); the same shape keeps the tensor's steps as they are. Autograd does not record
a resize: a tensor that requires grad is refused.

``x.resize(...)`` and ``x.resize_as(y)`` (no underscore) are PyTorch's deprecated out-of-place
forms: a reshape of the same number of elements, recorded as ``ResizeBackward``.
"""

import functools
import gc
import math
import operator
import warnings
import weakref

import numpy as np

from .._type_names import type_name
from .._tensor import Tensor
from .._memory_format import (channels_last, channels_last_3d, check_memory_format, contiguous_format,
                              keep_zero_steps, preserve_format, row_major_steps)
from .._python_arg_parser import check_sizes
from .._warnings import stacklevel_outside_minigrad
from ..autograd.forward_ad import _tangent_of
from ..autograd.graph import give_edges_their_node
from ..autograd.grad_mode import _inference_tensors_exist, check_inplace_allowed
from ..autograd.function import Function
from .inplace import bump_version

_MAX_ELEMENTS = 2 ** 63


def resize_(self, *sizes, memory_format=None, **size):
    """Give this tensor the shape ``sizes`` in place, over the memory it starts at (new memory
    when it needs more; its new elements are zeros). Refused for a tensor that requires grad."""
    if size:
        unexpected = [name for name in size if name != "size"]
        if unexpected:
            raise TypeError(f"resize_() got an unexpected keyword argument '{unexpected[0]}'")
        if sizes:
            raise TypeError("resize_() got multiple values for argument 'size'")
        sizes = (size["size"],)
    if not sizes:
        raise TypeError('resize_() missing 1 required positional arguments: "size"')
    if len(sizes) == 1 and isinstance(sizes[0], Tensor) and sizes[0].numel() == 1 and not (
            sizes[0].is_floating_point() or sizes[0].dtype.__repr__() == "torch.bool"):
        sizes = (int(sizes[0].item()),)          # (a one-element integer tensor is an int here)
    sizes = check_sizes("resize_", sizes)
    if memory_format is not None:
        check_memory_format("resize_", memory_format)
    return _resize(self, sizes, memory_format)


_NO_TEMPLATE = object()


def resize_as_(self, the_template=_NO_TEMPLATE, *extra, memory_format=None):
    """Give this tensor ``the_template``'s shape in place (as ``self.resize_(the_template.shape)``;
    ``memory_format=torch.preserve_format`` takes the template's layout too)."""
    if the_template is _NO_TEMPLATE:          # (PyTorch's parser's words, not Python's)
        raise TypeError('resize_as_() missing 1 required positional arguments: "the_template"')
    if extra:
        raise TypeError(f"resize_as_() takes 1 positional argument but {1 + len(extra)} were given")
    if not isinstance(the_template, Tensor):
        raise TypeError(f"resize_as_(): argument 'the_template' (position 1) must be Tensor, not "
                        f"{type_name(the_template)}")
    if memory_format is not None:
        check_memory_format("resize_as_", memory_format)
    if memory_format is preserve_format:
        memory_format = _suggested_format(the_template)
    return _resize(self, tuple(the_template._array.shape), memory_format)


def resize_as_function(input, the_template, *extra, memory_format=None):
    """``torch.resize_as_(input, the_template)``: ``input.resize_as_(the_template)``."""
    if extra:
        raise TypeError(f"resize_as_() takes 2 positional arguments but {2 + len(extra)} were given")
    if not isinstance(input, Tensor):
        raise TypeError(f"resize_as_(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    return resize_as_(input, the_template, memory_format=memory_format)


def _suggested_format(tensor):
    """The layout a tensor is in, as PyTorch guesses it (channels-last when its steps are)."""
    array = tensor._array
    if array.ndim in (4, 5) and array.size:
        steps = _steps_in_format(array.shape, channels_last if array.ndim == 4 else channels_last_3d)
        if tuple(s * array.itemsize for s in steps) == array.strides and steps != _row_major(array.shape):
            return channels_last if array.ndim == 4 else channels_last_3d
    return contiguous_format


def _row_major(shape):
    return row_major_steps(shape)


def _steps_in_format(shape, fmt):
    """The steps (in elements) of a new tensor of ``shape`` laid out in ``fmt``."""
    if fmt is None or fmt is contiguous_format:
        return _row_major(shape)
    if fmt is channels_last or fmt is channels_last_3d:
        rank = 4 if fmt is channels_last else 5
        if len(shape) != rank:
            name = "channels_last" if rank == 4 else "channels_last_3d"
            raise RuntimeError(f"required rank {rank} tensor to use {name} format")
        order = [1] + list(range(rank - 1, 1, -1)) + [0]     # channels step by 1, then w, h, (d), n
        steps, step = [0] * rank, 1
        for dim in order:
            steps[dim] = step
            step *= max(shape[dim], 1)
        return tuple(steps)
    raise RuntimeError("Unsupported memory formatPreserve")


def _resize(tensor, sizes, fmt):
    if _inference_tensors_exist:
        check_inplace_allowed(tensor)
    if tensor.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if any(size < 0 for size in sizes) or math.prod(sizes) >= _MAX_ELEMENTS:
        raise RuntimeError("numel: integer multiplication overflow")
    steps = _steps_in_format(sizes, fmt)
    array = tensor._array
    if tuple(array.shape) == tuple(sizes):
        if fmt is not None and array.size:       # (the same shape keeps its steps, unless a format is asked)
            tensor._array = _over_memory(tensor, sizes, steps)
    else:
        if tensor._grad_fn is None and tensor._base is None:
            # a leaf that required grad when graphs were recorded (requires_grad_(False) since):
            # those graphs keep the shape it had (graph.py)
            give_edges_their_node(tensor)
        tensor._array = _over_memory(tensor, sizes, steps)
        if not tensor._array.size:
            keep_zero_steps(tensor)
        bump_version(tensor)
    if _tangent_of(tensor) is not None:          # (PyTorch resizes first, then refuses)
        raise RuntimeError("cannot resize variables that has a forward grad")
    return tensor


def grown_over_memory(tensor, sizes, steps=None):
    """An array of ``sizes`` (laid out with ``steps`` in elements, row-major if None) over
    ``tensor``'s memory from where it starts, that memory grown if it is too short (for out=:
    the tensors over that memory follow; those over the memory of an empty tensor that is no
    view have no elements to show, and are not looked for, so that out=torch.empty(0) stays
    cheap)."""
    steps = _row_major(tuple(sizes)) if steps is None else steps
    seen_by_others = tensor._base is not None or tensor._array.size > 0
    return _over_memory(tensor, tuple(sizes), steps, move_others=seen_by_others)


def _over_memory(tensor, sizes, steps, move_others=True):
    """An array of ``sizes`` and ``steps`` (in elements) over ``tensor``'s memory from where the
    tensor starts, in new memory (the old values first, then zeros) if that memory is too short."""
    memory, start = _memory(tensor)
    dtype = tensor._array.dtype
    needed = (1 + sum((n - 1) * s for n, s in zip(sizes, steps)) if all(sizes) else 0) * dtype.itemsize
    if start + needed > memory.size:
        if _shares_numpy_memory(tensor):
            raise RuntimeError("Trying to resize storage that is not resizable")
        if needed > 2 ** 40:              # (more than this computer holds: PyTorch's allocator error)
            from .._dtype import from_numpy_dtype
            from .._python_arg_parser import _allocation_error
            raise _allocation_error((needed // dtype.itemsize,), from_numpy_dtype(dtype))
        grown = np.zeros(start + needed, np.uint8)     # (zeros: minigrad's new memory, as empty() gives)
        grown[:memory.size] = memory
        if move_others:
            _move_views(memory, grown)
        memory = grown
    if not needed:
        return np.lib.stride_tricks.as_strided(np.zeros(0, dtype), tuple(sizes),
                                               tuple(s * dtype.itemsize for s in steps))
    if not memory.flags.writeable:
        memory = np.lib.stride_tricks.as_strided(memory, writeable=True)
    return np.ndarray(tuple(sizes), dtype, memory, start, tuple(s * dtype.itemsize for s in steps))


def _shares_numpy_memory(tensor):
    """Does ``tensor`` see the memory of a numpy array (``from_numpy``, ``as_tensor``)?"""
    root = root_array(tensor._array)
    return _NUMPY_OWNED.get(id(root)) is root


def _move_views(memory, grown):
    """Every tensor over ``memory`` (the tensor resized, its base, the base's other views,
    tensors detached from them) moves into ``grown``, which starts with the same bytes: PyTorch
    grows their shared storage, so they all see it.

    minigrad keeps no list of the tensors that share a memory, so this rare step looks for
    them among all live objects."""
    start = memory.__array_interface__["data"][0]
    end = start + memory.nbytes

    def moved(array):          # ``array`` over ``grown``, or None if it lies outside ``memory``
        if not isinstance(array, np.ndarray) or not array.size:
            return None
        first = array.__array_interface__["data"][0]
        low = first + sum((n - 1) * s for n, s in zip(array.shape, array.strides) if s < 0)
        high = first + sum((n - 1) * s for n, s in zip(array.shape, array.strides) if s > 0) + array.itemsize
        if not (start <= low and high <= end):
            return None
        new = np.ndarray(array.shape, array.dtype, grown, first - start, array.strides)
        new.flags.writeable = array.flags.writeable      # (an expanded view stays read-only)
        return new

    for thing in gc.get_objects():
        if issubclass(type(thing), Tensor):      # (type(): isinstance would ask modules for __class__)
            array = moved(thing._array)
            if array is not None:
                thing._array = array
            flat = moved(thing.__dict__.get("_storage_memory"))
            if flat is not None:
                thing.__dict__["_storage_memory"] = flat


def root_array(array):
    """The numpy array that owns ``array``'s memory (the end of its chain of ``.base``)."""
    root = array
    while True:          # (as_strided and broadcast_to hold their array in a wrapper's .base)
        holder = root.base
        if not isinstance(holder, np.ndarray):
            holder = getattr(holder, "base", None)
        if not isinstance(holder, np.ndarray):
            return root
        root = holder


# The arrays whose memory numpy owns and tensors see (from_numpy, as_tensor), by id: PyTorch
# cannot grow such a storage.
_NUMPY_OWNED = weakref.WeakValueDictionary()


def over_numpy_memory(tensor):
    """Mark the memory of ``tensor`` (made by from_numpy) as numpy's: resize_ will not grow it."""
    root = root_array(tensor._array)
    _NUMPY_OWNED[id(root)] = root
    return tensor


def _memory(tensor):
    """The bytes a tensor lies in (PyTorch's storage: the memory its array is a view of) and
    the byte it starts at."""
    array = tensor._array
    root = root_array(array)
    if root.flags.c_contiguous:
        memory = root.reshape(-1).view(np.uint8)
        offset = array.__array_interface__["data"][0] - memory.__array_interface__["data"][0]
        if 0 <= offset <= memory.size:
            return memory, offset
    # (memory numpy laid out otherwise: the span the tensor's own elements cover)
    if array.size == 0:
        return np.zeros(0, np.uint8), 0
    if any(s < 0 for s in array.strides):
        array = array.copy()
    span = array.itemsize + sum((n - 1) * s for n, s in zip(array.shape, array.strides))
    elements = np.lib.stride_tricks.as_strided(array, (span // array.itemsize,), (array.itemsize,))
    return elements.view(np.uint8), 0


# --- the deprecated out-of-place forms -------------------------------------------------------

def resize(self, *sizes):
    """Deprecated: this tensor's values in the shape ``sizes`` (the same number of elements);
    recorded as ``ResizeBackward``. Use ``reshape``."""
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=stacklevel_outside_minigrad())
    return Resize.apply(self, sizes)


def resize_as(self, tensor):
    """Deprecated: this tensor's values in ``tensor``'s shape (the same number of elements);
    recorded as ``ResizeBackward``. Use ``reshape_as``."""
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=stacklevel_outside_minigrad())
    return Resize.apply(self, tensor.size())


class Resize(Function):
    """PyTorch's ``torch.autograd._functions.Resize``: a reshape that keeps the number of
    elements (its node is ``ResizeBackward``)."""

    @staticmethod
    def forward(ctx, tensor, sizes):
        """The values of ``tensor`` in the shape ``sizes`` (a view when it is row-major)."""
        # (the sizes as given: resize((3, 2)) multiplies 1 by a tuple and is refused, as in PyTorch)
        ctx.sizes = sizes
        ctx.numel = functools.reduce(operator.mul, sizes, 1)
        ctx.input_sizes = tensor.size()
        if tensor.numel() != ctx.numel:
            raise RuntimeError(
                f"requested resize to {'x'.join(map(str, sizes))} ({ctx.numel} elements in total), but "
                f"the given tensor has a size of {'x'.join(map(str, tensor.size()))} ({tensor.numel()} "
                "elements). autograd's resize can only change the shape of a given tensor, while "
                "preserving the number of elements. ")
        return tensor.contiguous().view(*sizes)

    @staticmethod
    def backward(ctx, grad_output):
        """result = input.resize(sizes)   ->   grad_input = grad.contiguous().view(input.sizes())"""
        return grad_output.contiguous().view(ctx.input_sizes), None


# (PyTorch writes these two in Python: Python's refusal of a wrong call names them Tensor.X)
resize.__qualname__, resize_as.__qualname__ = "Tensor.resize", "Tensor.resize_as"


def _parsed(method, name):
    """``method`` with its arguments parsed as PyTorch parses x.<name>(...) (its own checks above
    serve torch.resize_as_)."""
    from .._python_variable_methods import method_signatures, parsed_method
    return parsed_method(method, name, method_signatures(name))


METHODS = {"resize_": _parsed(resize_, "resize_"), "resize_as_": _parsed(resize_as_, "resize_as_"),
           "resize": resize, "resize_as": resize_as}
