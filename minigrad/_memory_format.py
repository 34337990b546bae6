"""Memory formats: how a tensor's elements are laid out in memory (torch.memory_format).

minigrad keeps PyTorch's four names so that code passing ``memory_format=``
runs unchanged. ``contiguous_format`` is row-major order; ``preserve_format``
keeps the layout the tensor already has; ``channels_last`` stores a 4-D
(N, C, H, W) tensor with the channels innermost, as (N, H, W, C) in memory
(``channels_last_3d`` the same for 5-D tensors). The values never change,
only the strides.
"""
import numpy as np


class memory_format:
    """One of PyTorch's memory formats (there are exactly four; compare them with ``is``)."""

    def __init__(self, name, rank=None):
        self.name = name
        self.rank = rank        # channels_last formats need a tensor of this many dims

    def __repr__(self):
        return "minigrad." + self.name

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
                        f"not {type(value).__name__}")


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
    # row-major in the (N, spatial..., C) order, then seen again as (N, C, spatial...)
    return np.ascontiguousarray(array.transpose(order)).transpose(np.argsort(order))


def is_in_format(array, fmt):
    """Are ``array``'s elements laid out as ``fmt`` says?"""
    if fmt is contiguous_format or fmt is preserve_format:
        return array.flags.c_contiguous
    if array.ndim != fmt.rank:
        return False
    return array.transpose(channels_last_order(array)).flags.c_contiguous


def is_non_overlapping_and_dense(array):
    """PyTorch's "non-overlapping and dense": in some order of the dims, the elements fill a
    block of memory without gaps, none of them twice (a transposed matrix does; a slice
    with a step does not)."""
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
    if steps == block.reshape(like.shape).strides:
        # row-major: plain new memory, which nothing else sees (the engine may then add the
        # next gradient into it in place, as PyTorch's does)
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
    if like.size == 0 or is_non_overlapping_and_dense(like):
        return empty_with_steps_of(like, dtype)
    if any(step == 0 and size > 1 for step, size in zip(like.strides, like.shape)):
        return np.empty(like.shape, dtype)
    from ._ops.inplace import memory_order      # (the operations build on this module)
    steps, step = [0] * like.ndim, 1
    for dim in memory_order([list(like.strides)], like.shape):
        steps[dim] = step * np.dtype(dtype).itemsize
        step *= max(like.shape[dim], 1)
    return np.lib.stride_tricks.as_strided(np.empty(step, dtype), like.shape, steps)
