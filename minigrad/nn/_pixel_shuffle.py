"""Rearranging channels and pixels (PyTorch: pixel_shuffle, pixel_unshuffle, channel_shuffle).

    pixel_shuffle(x, r)     (*, C r^2, H, W) -> (*, C, H r, W r): each group of r^2 channels
                            becomes an r x r block of pixels (sub-pixel upsampling)
    pixel_unshuffle(x, r)   the inverse: each r x r block of pixels becomes r^2 channels
    channel_shuffle(x, g)   (*, C, ...) with C = g k: the channels, seen as a g x k grid, are
                            read column by column (ShuffleNet's mixing of groups)

Each is one node; the gradient of a rearrangement is the inverse rearrangement, recorded
as the other node (pixel_shuffle's gradient is a pixel_unshuffle, and so on).
"""
import numpy as np

from ..autograd.graph import Node
from .._ops import result
from .._tensor import Tensor
from .._ops.rounding import _NotImplementedBackward
from ..autograd.kernel_writes import kernel_writes


def _rearranged(view, shape):
    """``view`` copied into new row-major memory of ``shape``: PyTorch's kernels always write a
    new tensor, also when the rearrangement moves nothing (a factor or group count of 1)."""
    return np.array(view, order="C").reshape(shape)


def _shuffle_pixels(array, factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    *lead, channels, height, width = array.shape
    blocks = array.reshape(*lead, channels // factor ** 2, factor, factor, height, width)
    n = len(lead)
    # (..., C, r_h, r_w, H, W) -> (..., C, H, r_h, W, r_w)
    order = list(range(n)) + [n, n + 3, n + 1, n + 4, n + 2]
    return _rearranged(blocks.transpose(order),
                       (*lead, channels // factor ** 2, height * factor, width * factor))


def _unshuffle_pixels(array, factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    *lead, channels, height, width = array.shape
    blocks = array.reshape(*lead, channels, height // factor, factor, width // factor, factor)
    n = len(lead)
    # (..., C, H, r_h, W, r_w) -> (..., C, r_h, r_w, H, W)
    order = list(range(n)) + [n, n + 2, n + 4, n + 1, n + 3]
    return _rearranged(blocks.transpose(order),
                       (*lead, channels * factor ** 2, height // factor, width // factor))


class PixelShuffleBackward0(Node):
    """result = pixel_shuffle(self, upscale_factor)   ->   grad_self = pixel_unshuffle(grad, upscale_factor)"""

    def backward(self, grad):
        return (pixel_unshuffle(grad, self.upscale_factor),)

    def jvp(self, tangents, inputs, out):
        """result_t = pixel_shuffle(self_t, upscale_factor)"""
        return pixel_shuffle(tangents[0], self.upscale_factor)


class PixelUnshuffleBackward0(Node):
    """result = pixel_unshuffle(self, downscale_factor)   ->   grad_self = pixel_shuffle(grad, downscale_factor)"""

    def backward(self, grad):
        return (pixel_shuffle(grad, self.downscale_factor),)

    def jvp(self, tangents, inputs, out):
        """result_t = pixel_unshuffle(self_t, downscale_factor)"""
        return pixel_unshuffle(tangents[0], self.downscale_factor)


def _parsed(name, input, number):
    """PyTorch's parser's TypeError for a call (input, number) whose types do not fit."""
    if not isinstance(input, Tensor) or type(number) is not int:
        from .._python_arg_parser import pytorch_signatures
        pytorch_signatures(name).parse((input, number), {})


def _check_factor(name, kind, factor, input):
    _parsed(name, input, factor)
    if input.dim() < 3:                 # (PyTorch's first check)
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input "
                           f"with {input.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {kind}_factor, but got {factor}")


def pixel_shuffle(input, upscale_factor):
    """Move channels into space: (*, C r^2, H, W) -> (*, C, H r, W r), r = upscale_factor."""
    _check_factor("pixel_shuffle", "upscale", upscale_factor, input)
    channels = input.shape[-3]
    if channels % (upscale_factor * upscale_factor):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
            f"of upscale_factor, but input.size(-3)={channels} is not divisible by "
            f"{upscale_factor * upscale_factor}")
    out = result(_shuffle_pixels(input._array, upscale_factor), PixelShuffleBackward0, (input,),
                 upscale_factor=upscale_factor)
    return kernel_writes("pixel_shuffle", out, input)


def pixel_unshuffle(input, downscale_factor):
    """Move space into channels: (*, C, H r, W r) -> (*, C r^2, H, W), r = downscale_factor."""
    _check_factor("pixel_unshuffle", "downscale", downscale_factor, input)
    for name, size in (("height", input.shape[-2]), ("width", input.shape[-1])):
        if size % downscale_factor:
            axis = -2 if name == "height" else -1
            raise RuntimeError(
                f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                f"input.size({axis})={size} is not divisible by {downscale_factor}")
    # (PyTorch gives a tensor without elements back as a copy of the same shape)
    moved = input._array.copy() if input._array.size == 0 else _unshuffle_pixels(input._array, downscale_factor)
    out = result(moved, PixelUnshuffleBackward0,
                 (input,), downscale_factor=downscale_factor)
    return kernel_writes("pixel_unshuffle", out, input)


class ChannelShuffleBackward0(Node):
    """result = channel_shuffle(self, groups)   ->   grad_self = channel_shuffle(grad, C / groups)
    (reading the grid the other way round puts every channel back)"""

    def backward(self, grad):
        return (channel_shuffle(grad, grad.shape[1] // self.groups),)

    def jvp(self, tangents, inputs, out):
        """result_t = channel_shuffle(self_t, groups)"""
        return channel_shuffle(tangents[0], self.groups)


def _shuffled_channels(input, groups):
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    channels = input.shape[1]
    if channels % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {channels} "
                           f"channels and {groups} groups.")
    array = input._array
    grid = array.reshape(array.shape[0], groups, channels // groups, *array.shape[2:])
    return _rearranged(np.swapaxes(grid, 1, 2), array.shape)


def channel_shuffle(input, groups):
    """Mix the channels of ``groups`` groups: channel j of group i moves to place j * groups + i."""
    _parsed("channel_shuffle", input, groups)
    return kernel_writes("channel_shuffle", result(_shuffled_channels(input, groups), ChannelShuffleBackward0,
                                                   (input,), groups=groups), input)


def native_channel_shuffle(input, groups):
    """channel_shuffle by PyTorch's native kernel, which has no derivative (NotImplemented)."""
    _parsed("native_channel_shuffle", input, groups)
    return result(_shuffled_channels(input, groups), _NotImplementedBackward, (input,),
                  _operation="native_channel_shuffle")
