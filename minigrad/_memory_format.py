"""Memory formats: how a tensor's elements are laid out in memory (torch.memory_format).

minigrad keeps PyTorch's four names so that code passing ``memory_format=``
runs unchanged. ``contiguous_format`` is row-major order; ``preserve_format``
keeps the layout the tensor already has; ``channels_last`` stores a 4-D
(N, C, H, W) tensor with the channels innermost, as (N, H, W, C) in memory
(``channels_last_3d`` the same for 5-D tensors). The values never change,
only the strides.
"""
from ._type_names import type_name
import numpy as np


class memory_format:
    """One of PyTorch's memory formats (there are exactly four; compare them with ``is``)."""

    def __init__(self, name, rank=None):
        self.name = name
        self.rank = rank        # channels_last formats need a tensor of this many dims

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):      # pickling and copy.deepcopy keep the singleton
        return self.name


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last", rank=4)
channels_last_3d = memory_format("channels_last_3d", rank=5)


def check_memory_format(name, value):
    """PyTorch's TypeError for ``memory_format=`` that is not one of the four."""
    if not isinstance(value, memory_format):
        raise TypeError(f"{name}(): argument 'memory_format' must be torch.memory_format, "
                        f"not {type_name(value)}")


def channels_last_order(array):
    """The dims of ``array`` from outermost to innermost in channels-last memory: N, spatial..., C."""
    return (0,) + tuple(range(2, array.ndim)) + (1,)


def copy_in_format(array, fmt):
    """A copy of ``array`` laid out in memory as ``fmt`` says (same shape and values)."""
    if fmt is preserve_format:
        if array.flags.c_contiguous and array.size and 1 not in array.shape:
            return array.copy()          # (the usual case: row-major, nothing to choose)
        copy = empty_laid_out_like(array, array.dtype)
        copy[...] = array
        return copy
    if fmt is contiguous_format:
        return np.array(array, order="C", copy=True)
    if array.ndim != fmt.rank:
        raise RuntimeError(f"required rank {fmt.rank} tensor to use {fmt.name} format")
    order = channels_last_order(array)
    if not array.size:
        # (numpy steps a new empty array by 0; PyTorch's channels-last steps multiply the
        # sizes, a size 0 too: C steps by 1, the last spatial dim by C, ..., N by the rest)
        steps, step = [0] * array.ndim, array.itemsize
        for dim in reversed(order):
            steps[dim] = step
            step *= array.shape[dim]
        return np.lib.stride_tricks.as_strided(np.empty(0, array.dtype), array.shape, steps)
    # row-major in the (N, spatial..., C) order, then seen again as (N, C, spatial...). (Always
    # new memory: numpy's ascontiguousarray would keep an array that is already in that order
    # with its size-1 dims' steps, where PyTorch steps every dim, a size-1 one too, by the
    # sizes inside it: empty(2, 3, 1, 1, memory_format=channels_last).stride() is (3, 1, 3, 3).)
    return np.array(array.transpose(order), order="C", copy=True).transpose(np.argsort(order))


def is_in_format(array, fmt):
    """Are ``array``'s elements laid out as ``fmt`` says?"""
    if fmt is contiguous_format or fmt is preserve_format:
        return array.flags.c_contiguous
    if array.ndim != fmt.rank:
        return False
    if not array.size:
        # numpy calls any array without elements contiguous in any order; PyTorch does so for
        # row-major only, and checks the channels-last steps of the dims longer than 1
        expected = array.itemsize
        for dim in reversed(channels_last_order(array)):
            if array.shape[dim] != 1:
                if array.strides[dim] != expected:
                    return False
                expected *= array.shape[dim]
        return True
    return array.transpose(channels_last_order(array)).flags.c_contiguous


def is_non_overlapping_and_dense(array):
    """PyTorch's "non-overlapping and dense": in some order of the dims, the elements fill a
    block of memory without gaps, none of them twice (a transposed matrix does; a slice
    with a step does not). PyTorch calls a tensor without elements contiguous, so dense too."""
    if not array.size:
        return True
    expected = array.itemsize
    for stride, size in sorted(zip(array.strides, array.shape)):
        if size == 1:
            continue
        if stride != expected:
            return False
        expected *= size
    return True


def empty_with_steps_of(like, dtype):
    """New memory shaped like the array ``like`` that steps through memory as ``like`` does,
    size-1 dims included (``like`` must be non-overlapping and dense)."""
    block = np.empty(like.size, dtype)
    steps = tuple(step // like.itemsize * block.itemsize for step in like.strides)
    if like.size and steps == block.reshape(like.shape).strides:
        # row-major: plain new memory, which nothing else sees (the engine may then add the
        # next gradient into it in place, as PyTorch's does). (Not for no elements: numpy
        # steps a new empty array by 0, which would read as an empty tensor's real steps.)
        return np.empty(like.shape, dtype)
    return np.lib.stride_tricks.as_strided(block, like.shape, steps)


def empty_laid_out_like(like, dtype):
    """New memory for a copy of the array ``like``, laid out as PyTorch's ``preserve_format``
    lays it out (clone, empty_like, zeros_like, ``.to(dtype)``).

    * ``like`` fills one block of memory without gaps, or has no elements: its very steps,
      even those of size-1 dimensions and of empty tensors, which mean nothing;
    * an expanded ``like`` (one element seen at several positions): row-major;
    * otherwise (a slice with a step): its dimensions in the same order in memory, without
      gaps (PyTorch sorts them by their steps as TensorIterator does, ``memory_order``);
      a size-1 or size-0 dimension counts as 1 in the steps of those after it."""
    if is_non_overlapping_and_dense(like):
        return empty_with_steps_of(like, dtype)
    if any(step == 0 and size > 1 for step, size in zip(like.strides, like.shape)):
        return np.empty(like.shape, dtype)
    from ._ops.inplace import memory_order      # (the operations build on this module)
    steps, step = [0] * like.ndim, 1
    for dim in memory_order([list(like.strides)], like.shape):
        steps[dim] = step * np.dtype(dtype).itemsize
        step *= max(like.shape[dim], 1)
    return np.lib.stride_tricks.as_strided(np.empty(step, dtype), like.shape, steps)


# --- the steps of tensors without elements ---------------------------------------------------
# numpy steps every dimension of a new array without elements by 0; PyTorch gives a new empty
# tensor row-major steps (a size-0 dim counting as 1), so minigrad reads an empty array's all-0
# steps as row-major (Tensor.stride). But PyTorch keeps the steps of numpy data as they are
# (``torch.from_numpy(np.zeros((0, 3))).stride()`` is (0, 0)), and an expand can step by 0 in
# every dim; such a tensor says so with ``_zero_steps``, and its views and copies step as it does.

def row_major_steps(shape, itemsize=1):
    """The steps of a row-major array of ``shape`` (in bytes for an ``itemsize``), a size-0
    dimension counting as 1, as PyTorch computes them: (3, 1) for (2, 3), (1, 1) for (3, 0)."""
    steps, step = [], itemsize
    for size in reversed(shape):
        steps.append(step)
        step *= max(size, 1)
    return tuple(reversed(steps))


def with_pytorch_steps(tensor):
    """``tensor``'s array stepping as ``tensor.stride()`` says, for a view or a copy that
    computes its own steps from it: an empty array whose steps of 0 stand for row-major gets
    them written out (the elements, none, are the same)."""
    array = tensor._array
    if array.size or any(array.strides) or tensor._zero_steps:
        return array        # (the usual case: numpy's steps are PyTorch's)
    steps = row_major_steps(array.shape, array.itemsize)
    return np.lib.stride_tricks.as_strided(array, array.shape, steps, writeable=array.flags.writeable)


def keep_zero_steps(out):
    """Mark the tensor ``out`` as really stepping by 0 when its array has no elements and
    steps by 0 in every dim: ``out`` is a view or a copy whose steps were computed from
    PyTorch's, so those 0s are PyTorch's too, not numpy's placeholder for row-major."""
    array = out._array
    if not array.size and not any(array.strides) and array.ndim:
        out._zero_steps = True
    return out


def row_major(array):
    """``array`` (a new result) laid out row-major, as PyTorch lays out the result of a
    reduction (``x.t().sum(0, keepdim=True)``): numpy keeps the input's order of dimensions
    and picks its own steps for size-1 dimensions, which PyTorch gives the row-major step
    too (the product of the sizes after it). The values are the same, only ``stride()`` differs."""
    if array.size and array.flags.c_contiguous and 1 not in array.shape:
        return array            # (the usual case: numpy's steps are row-major)
    steps = row_major_steps(array.shape, array.itemsize)
    if array.strides == steps:
        return array
    if not array.flags.c_contiguous:
        array = np.ascontiguousarray(array)
    return np.lib.stride_tricks.as_strided(array, array.shape, steps)
