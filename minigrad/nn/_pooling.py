"""Pooling: max_pool1d/2d, avg_pool1d/2d, adaptive_avg_pool1d/2d, adaptive_max_pool1d/2d.

Pooling slides a window over each channel, like a convolution without weights, and keeps
one number per window: the largest (max pooling) or the mean (average pooling). The windows
come from the same ``im2col`` helper the convolutions use (_convolution.py).

Gradients:
* max:      only the element that was the largest receives the window's gradient; forward
            remembers where it was (the ``indices``, PyTorch's ``result1``), and backward
            adds each gradient back at its index.
* average:  every element of a window receives the window's gradient divided by the window's
            divisor (``col2im`` adds them up where windows overlap).

PyTorch's 1-d pooling is the 2-d pooling of the input with a height of 1 (``unsqueeze(-2)``
before, ``squeeze(-2)`` after), and so is minigrad's: the recorded graph is PyTorch's.
"""
import math

import numpy as np

from .._tensor import Tensor, _wrap
from .._ops import result, plain_output
from .._ops.pointwise import kernel_not_implemented
from ..autograd.graph import Node, _SETTINGS_KEPT_AS
from ..autograd.forward_ad import _DualLevel
from ..autograd.function import _FuncTransforms
from ._convolution import im2col, col2im
from ._size_arguments import check_int_tuples, check_tensor


def _two(value, name, function):
    """kernel_size=2 -> (2, 2), or PyTorch's message for a tuple of the wrong length."""
    values = tuple(int(v) for v in value) if isinstance(value, (tuple, list)) else (int(value),)
    if len(values) == 1:
        return values * 2
    if len(values) != 2:
        if name == "stride":
            raise RuntimeError(f"{function}: stride must either be omitted, a single int, or a tuple of two ints")
        raise RuntimeError(f"{function}: {name} must either be a single int, or a tuple of two ints")
    return values


def _pooled_size(size, kernel, stride, padding, dilation, ceil_mode):
    """Number of windows along one dim; with ``ceil_mode`` a last partial window counts too,
    unless it would start inside the right padding only."""
    span = size + 2 * padding - dilation * (kernel - 1) - 1
    count = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (count - 1) * stride >= size + padding:
        count -= 1
    return count


def _check_pool_shape(function, input, kernel, stride, padding, dilation, out_size, max_pool):
    """PyTorch's checks, in its order, before a 2-d max or average pooling."""
    if any(s == 0 for s in stride) or any(k == 0 for k in kernel):
        raise RuntimeError("stride should not be zero")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilation[0]} "
                           f"dilationW: {dilation[1]}")
    if any(p < 0 for p in padding):
        raise RuntimeError(f"pad must be non-negative, but got pad: {min(padding)}")
    for k, p, d in zip(kernel, padding, dilation):
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    if max_pool and (kernel[1] // 2 < padding[1] or kernel[0] // 2 < padding[0]):
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = "
                           f"{padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, kH = {kernel[0]}")
    shape = tuple(input.shape)
    if any(n < 1 for n in out_size):
        channels = shape[-3]
        raise RuntimeError(f"Given input size: ({channels}x{shape[-2]}x{shape[-1]}). Calculated output size: "
                           f"({channels}x{out_size[0]}x{out_size[1]}). Output size is too small")


def _windows(array, kernel, stride, padding, dilation, out_size, fill):
    """numpy: (N, C, kH * kW, oH, oW) windows of ``array`` (N, C, H, W), padded with ``fill``.

    With ceil_mode the last window may hang over the bottom or right edge: the padding is
    made wide enough for it, so the window simply sees more ``fill`` there.
    """
    extra = [max(0, (o - 1) * s + d * (k - 1) + 1 - (n + 2 * p))
             for o, s, d, k, n, p in zip(out_size, stride, dilation, kernel, array.shape[2:], padding)]
    padded = np.pad(array, ((0, 0), (0, 0), (padding[0], padding[0] + extra[0]), (padding[1], padding[1] + extra[1])),
                    constant_values=fill)
    windows = im2col(padded, kernel, stride, dilation, out_size)
    return windows.reshape(array.shape[:2] + (kernel[0] * kernel[1],) + tuple(out_size))


def _as_batch(array):
    """numpy: a (C, H, W) array seen as a batch of one, (1, C, H, W); a batch stays as it is.
    (Only the numpy array: PyTorch's 2-d pooling records no unsqueeze for an unbatched input.)"""
    return array if array.ndim == 4 else array[None]


# What grad_fn._saved_* shows for each node (PyTorch's names; the rest minigrad keeps for itself).
# The stride shows as it was given: () when none was.
_SETTINGS_KEPT_AS["MaxPool2DWithIndicesBackward0"] = {
    "ceil_mode": "ceil_mode", "dilation": "dilation", "kernel_size": "kernel_size", "padding": "padding",
    "stride": "stride_as_given"}
_SETTINGS_KEPT_AS["AdaptiveMaxPool2DBackward0"] = {}
_SETTINGS_KEPT_AS["MaxPool2DWithIndicesBackwardBackward0"] = {}
_SETTINGS_KEPT_AS["AdaptiveMaxPool2DBackwardBackward0"] = {}
_SETTINGS_KEPT_AS["AvgPool2DBackward0"] = {
    "ceil_mode": "ceil_mode", "count_include_pad": "count_include_pad", "divisor_override": "divisor_override",
    "kernel_size": "kernel_size", "padding": "padding", "stride": "stride_as_given"}
_SETTINGS_KEPT_AS["AvgPool2DBackwardBackward0"] = {}
_SETTINGS_KEPT_AS["AdaptiveAvgPool2DBackward0"] = {}
_SETTINGS_KEPT_AS["AdaptiveAvgPool2DBackwardBackward0"] = {}


# --- max pooling ----------------------------------------------------------------------------

def _scatter_to_input(grad, indices, input_shape):
    """numpy: each gradient added at the (flat, per channel) input position ``indices`` names.

    The images of all (sample, channel) pairs lie one after the other in memory, and PyTorch
    adds at image start + index: a window that saw only padding keeps an index one image
    further (see _max_pool2d_with_indices), whose gradient then lands in the next image, as
    in PyTorch (past the last image, nowhere)."""
    planes, plane_size = math.prod(input_shape[:-2]), math.prod(input_shape[-2:])
    places = (np.arange(planes)[:, None] * plane_size + indices.reshape(planes, -1)).ravel()
    grads = grad.reshape(-1)
    inside = places < planes * plane_size
    summed = np.zeros(planes * plane_size, dtype=grad.dtype)
    np.add.at(summed, places[inside], grads[inside])
    return summed.reshape(input_shape)


class _MaxBackward(Node):
    """result = the largest value of each window   ->
        grad_self = grad added at the position of each window's largest value (result1)

    Shared by max_pool2d's and adaptive_max_pool2d's nodes."""

    _saved_names = ("self", "result1")

    def backward(self, grad):
        input, indices = self.saved_tensors
        values = _scatter_to_input(grad._array, indices._array, tuple(input.shape))
        return (result(values, self.double_backward_class, (grad, input), indices=indices),)


    def jvp(self, tangents, inputs, out):
        """result_t = self_t at the position of each window's largest value"""
        planes = math.prod(out.shape[:-2])
        read = tangents[0].reshape(planes, -1).gather(1, _wrap(self.flat_indices.reshape(planes, -1)))
        return read.reshape(tuple(out.shape))


class _MaxBackwardBackward(Node):
    """result = max pooling's gradient (grad added at the indices)   ->   grad_grad = gg read at the same indices"""

    def backward(self, gg):
        planes = math.prod(self.indices.shape[:-2])
        read = gg.reshape(planes, -1).gather(1, _wrap(self.indices._array.reshape(planes, -1)))
        return read.reshape(tuple(self.indices.shape)), None


class MaxPool2DWithIndicesBackwardBackward0(_MaxBackwardBackward):
    """result = max_pool2d's gradient   ->   grad_grad = gg read at the indices of the maxima"""


class MaxPool2DWithIndicesBackward0(_MaxBackward):
    """result = the largest value in each window   ->
        grad_self = grad added at the position of each window's largest value (result1), zero elsewhere"""

    double_backward_class = MaxPool2DWithIndicesBackwardBackward0


class AdaptiveMaxPool2DBackwardBackward0(_MaxBackwardBackward):
    """result = adaptive_max_pool2d's gradient   ->   grad_grad = gg read at the indices of the maxima"""


class AdaptiveMaxPool2DBackward0(_MaxBackward):
    """result = the largest value in each of output_size windows   ->
        grad_self = grad added at the position of each window's largest value (result1), zero elsewhere"""

    double_backward_class = AdaptiveMaxPool2DBackwardBackward0


def _flat_index(offset, kernel, stride, padding, dilation, out_size, width):
    """numpy: the input position (row * width + column) of window element ``offset`` of every window."""
    ki, kj = np.divmod(offset, kernel[1])
    rows = np.arange(out_size[0])[:, None] * stride[0] - padding[0] + ki * dilation[0]
    columns = np.arange(out_size[1])[None, :] * stride[1] - padding[1] + kj * dilation[1]
    return rows * width + columns


def _max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode):
    kernel = _two(kernel_size, "kernel_size", "max_pool2d")
    given_stride = () if stride is None or (isinstance(stride, (tuple, list)) and not stride) else \
        _two(stride, "stride", "max_pool2d")
    strides = given_stride or kernel
    padding, dilation = _two(padding, "padding", "max_pool2d"), _two(dilation, "dilation", "max_pool2d")
    height, width = input.shape[-2:]
    out_size = tuple(_pooled_size(n, k, s, p, d, ceil_mode) if s else 0
                     for n, k, s, p, d in zip((height, width), kernel, strides, padding, dilation))
    _check_pool_shape("max_pool2d", input, kernel, strides, padding, dilation, out_size, max_pool=True)
    array = input._array
    fill = -np.inf if array.dtype.kind == "f" else np.iinfo(array.dtype).min
    windows = _windows(_as_batch(array), kernel, strides, padding, dilation, out_size, fill)
    # the first largest element wins a tie; a nan counts as the largest (numpy's argmax does both)
    offsets = np.argmax(windows, axis=2)
    values = np.take_along_axis(windows, offsets[:, :, None], axis=2)[:, :, 0]
    indices = _flat_index(offsets, kernel, strides, padding, dilation, out_size, width)
    # A window whose largest value is the fill itself (nothing larger than -inf in it, or only
    # padding) keeps the position PyTorch's loop starts from: its first element past the padding
    first = [np.arange(n) * s - p for n, s, p in zip(out_size, strides, padding)]
    first = [np.where(f < 0, f + d * (-(f // d)), f) for f, d in zip(first, dilation)]   # (stepped by d)
    indices = np.where(values == fill, first[0][:, None] * width + first[1][None, :], indices)
    values, indices = values.reshape(array.shape[:-2] + out_size), indices.reshape(array.shape[:-2] + out_size)
    out = result(np.ascontiguousarray(values), MaxPool2DWithIndicesBackward0, (input,),
                 kernel_size=kernel, stride_as_given=given_stride, padding=padding, dilation=dilation,
                 ceil_mode=bool(ceil_mode), flat_indices=indices)
    indices = plain_output(indices.astype(np.int64), input)
    if out._grad_fn is not None:
        out._grad_fn.save_for_backward(input, indices)
    return out, indices


def _check_pool2d_input(input, name):
    """PyTorch's messages for an input that is not (C, H, W) or (N, C, H, W) with C, H, W > 0
    (max_pool2d words a wrong number of dims differently)."""
    shape = tuple(input.shape)
    if name == "max_pool2d" and input.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if input.ndim not in (3, 4) or 0 in shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, "
                           f"but got:[{', '.join(map(str, shape))}]")


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The largest value of each ``kernel_size`` window of each channel (N, C, H, W) or (C, H, W).

    ``stride`` defaults to ``kernel_size`` (windows side by side); ``padding`` adds -inf
    around the input; ``ceil_mode`` keeps a last partial window. With ``return_indices``
    also the position (row * W + column) of each maximum. Recorded as MaxPool2DWithIndicesBackward0.
    """
    check_tensor("max_pool2d", "input", input, 1)
    check_int_tuples("max_pool2d", [("kernel_size", kernel_size, 2), ("stride", stride, 3), ("padding", padding, 4),
                                    ("dilation", dilation, 5)])
    _check_pool2d_input(input, "max_pool2d")
    if input.dtype.name == "bool":
        raise kernel_not_implemented("max_pool2d", input)
    out, indices = _max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, indices) if return_indices else out


def _check_1d_input(input, name):
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if input.ndim not in (2, 3):
        if name == "max_pool1d":
            raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size "
                               f"for input, but got:[{', '.join(map(str, input.shape))}]")
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {name})")


def _one(value):
    return int(value[0]) if isinstance(value, (tuple, list)) else int(value)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The largest value of each window along the last dim of (N, C, L) or (C, L).

    As in PyTorch: max_pool2d of the input seen with a height of 1 (UnsqueezeBackward0 ->
    MaxPool2DWithIndicesBackward0 -> SqueezeBackward1).
    """
    check_tensor("max_pool1d", "input", input, 1)
    check_int_tuples("max_pool1d", [("kernel_size", kernel_size, 2), ("stride", stride, 3), ("padding", padding, 4),
                                    ("dilation", dilation, 5)])
    _check_1d_input(input, "max_pool1d")
    if input.dtype.name == "bool":
        raise kernel_not_implemented("max_pool1d_impl", input)
    kernel = _one(kernel_size)
    stride = kernel if stride is None or (isinstance(stride, (tuple, list)) and not stride) else _one(stride)
    out, indices = max_pool2d(input.unsqueeze(-2), (1, kernel), (1, stride), (0, _one(padding)),
                              (1, _one(dilation)), ceil_mode, True)
    out, indices = out.squeeze(-2), indices.squeeze(-2)
    if return_indices:
        return out, indices
    if out._grad_fn is None and not _DualLevel.open and not _FuncTransforms.vmaps:
        # nothing to record: PyTorch's kernel without indices writes new memory, laid out in
        # order, and squeezes away the batch dim of a (C, L) input in place (version 1)
        out = _wrap(np.ascontiguousarray(out._array))
        if input.ndim == 2:
            out._versions = [1]
    return out


# --- average pooling ------------------------------------------------------------------------

def _divisors(size, kernel, stride, padding, out_count, count_include_pad):
    """numpy: how many elements each window along one dim is divided by.

    A window is cut at the far edge of the padding; ``count_include_pad=False`` also leaves
    out the padded positions themselves."""
    start = np.arange(out_count) * stride - padding
    end = np.minimum(start + kernel, size + padding)
    if count_include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


class AvgPool2DBackwardBackward0(Node):
    """result = avg_pool2d's gradient   ->   grad_grad = avg_pool2d(gg) with the same settings"""

    def backward(self, gg):
        return _avg_pool2d(gg, *self.arguments), None


class AvgPool2DBackward0(Node):
    """result = the mean of each window (sum / divisor)   ->
        grad_self = each window's grad / divisor, added to every element of the window"""

    _saved_names = ("self",)

    def backward(self, grad):
        (input,) = self.saved_tensors
        kernel, strides, padding = self.kernel_size, self.strides, self.padding
        g = _as_batch(grad._array)
        out_size, (height, width) = g.shape[2:], input.shape[-2:]
        # every element of a window gets the window's gradient / divisor: the same value
        # kH * kW times, then added back where it came from
        windows = np.broadcast_to((g / self.divisor)[:, :, None, None], g.shape[:2] + kernel + out_size)
        padded_shape = g.shape[:2] + tuple(
            max(n + 2 * p, (o - 1) * s + k)
            for n, p, o, s, k in zip((height, width), padding, out_size, strides, kernel))
        summed = col2im(windows, padded_shape, kernel, strides, (1, 1), out_size, window_order=True)
        values = summed[:, :, padding[0]:padding[0] + height, padding[1]:padding[1] + width].reshape(tuple(input.shape))
        return (result(np.ascontiguousarray(values).astype(input._array.dtype, copy=False),
                       AvgPool2DBackwardBackward0, (grad, input), arguments=self.arguments),)

    def jvp(self, tangents, inputs, out):
        """result_t = avg_pool2d(self_t) with the same settings (a mean is linear)"""
        return _avg_pool2d(tangents[0], *self.arguments)


def _avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    kernel = _two(kernel_size, "kernel_size", "avg_pool2d")
    given_stride = () if stride is None or (isinstance(stride, (tuple, list)) and not stride) else \
        _two(stride, "stride", "avg_pool2d")
    strides = given_stride or kernel
    padding = _two(padding, "padding", "avg_pool2d")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    height, width = input.shape[-2:]
    out_size = tuple(_pooled_size(n, k, s, p, 1, ceil_mode) if s else 0
                     for n, k, s, p in zip((height, width), kernel, strides, padding))
    _check_pool_shape("avg_pool2d", input, kernel, strides, padding, (1, 1), out_size, max_pool=False)
    array = input._array
    windows = _windows(_as_batch(array), kernel, strides, padding, (1, 1), out_size, 0)
    if divisor_override is not None:
        divisor = np.asarray(divisor_override, dtype=array.dtype)
    else:
        rows = _divisors(height, kernel[0], strides[0], padding[0], out_size[0], count_include_pad)
        columns = _divisors(width, kernel[1], strides[1], padding[1], out_size[1], count_include_pad)
        divisor = (rows[:, None] * columns[None, :]).astype(array.dtype)
    # added up one window element after the other, as PyTorch's loop does (numpy's sum over
    # many elements adds them in another order, which can round differently in the last bit)
    total = np.zeros(windows.shape[:2] + windows.shape[3:], dtype=windows.dtype)
    for element in range(windows.shape[2]):
        total += windows[:, :, element]
    values = (total / divisor).reshape(array.shape[:-2] + out_size)
    arguments = (kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    return result(np.ascontiguousarray(values.astype(array.dtype, copy=False)), AvgPool2DBackward0, (input,),
                  saved=(input,), kernel_size=kernel, strides=strides, stride_as_given=given_stride,
                  padding=padding, ceil_mode=bool(ceil_mode), count_include_pad=bool(count_include_pad),
                  divisor_override=divisor_override, divisor=divisor, arguments=arguments)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each ``kernel_size`` window of each channel (N, C, H, W) or (C, H, W).

    ``padding`` adds zeros, counted in the mean unless ``count_include_pad=False``;
    ``divisor_override`` divides every window's sum by that number instead. Recorded as
    AvgPool2DBackward0.
    """
    check_tensor("avg_pool2d", "input", input, 1)
    check_int_tuples("avg_pool2d", [("kernel_size", kernel_size, 2), ("stride", stride, 3), ("padding", padding, 4)])
    if input.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [-{max(input.ndim, 1)}, "
                         f"{max(input.ndim, 1) - 1}], but got -3)")
    _check_pool2d_input(input, "avg_pool2d")
    if input.dtype.name == "bool":
        raise kernel_not_implemented("avg_pool2d", input)
    return _avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The mean of each window along the last dim of (N, C, L) or (C, L): avg_pool2d with a height of 1."""
    check_tensor("avg_pool1d", "input", input, 1)
    check_int_tuples("avg_pool1d", [("kernel_size", kernel_size, 2), ("stride", stride, 3), ("padding", padding, 4)])
    _check_1d_input(input, "avg_pool1d")
    kernel = _one(kernel_size)
    stride = kernel if stride is None or (isinstance(stride, (tuple, list)) and not stride) else _one(stride)
    out = avg_pool2d(input.unsqueeze(-2), (1, kernel), (1, stride), (0, _one(padding)), ceil_mode,
                     count_include_pad)
    return out.squeeze(-2)


# --- adaptive pooling: the windows chosen so that there are exactly output_size of them -----------

def _adaptive_bounds(size, count):
    """Window i covers [floor(i * size / count), ceil((i + 1) * size / count)): windows of
    nearly equal size that together cover the whole dim (neighbours may share an element)."""
    return [((i * size) // count, -(-((i + 1) * size) // count)) for i in range(count)]


def _adaptive_output_size(input, output_size, name):
    sizes = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size, output_size)
    if len(sizes) != 2:
        raise RuntimeError(f"{name}: output_size must be 2")
    sizes = tuple(input.shape[-2 + i] if s is None else int(s) for i, s in enumerate(sizes))
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"{name}: elements of output_size must be greater than or equal to 0 but received "
                           f"{{{sizes[0]}, {sizes[1]}}}")
    return sizes


def _check_adaptive_input(input, name):
    if not isinstance(input, Tensor):
        # (PyTorch's Python code asks the input for its size before any check)
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'size'")
    if input.ndim not in (3, 4):
        colon = ":" if name == "adaptive_max_pool2d" else ""
        raise RuntimeError(f"{name}(): Expected 3D or 4D tensor, but got{colon} "
                           f"[{', '.join(map(str, input.shape))}]")


class AdaptiveAvgPool2DBackwardBackward0(Node):
    """result = adaptive_avg_pool2d's gradient   ->   grad_grad = adaptive_avg_pool2d(gg) again"""

    def backward(self, gg):
        return adaptive_avg_pool2d(gg, self.output_size), None


class AdaptiveAvgPool2DBackward0(Node):
    """result = the mean of each of output_size windows   ->
        grad_self = each window's grad / its number of elements, added to every element of the window"""

    _saved_names = ("self",)

    def backward(self, grad):
        (input,) = self.saved_tensors
        g = grad._array
        values = np.zeros(tuple(input.shape), dtype=g.dtype)
        rows = _adaptive_bounds(input.shape[-2], g.shape[-2])
        columns = _adaptive_bounds(input.shape[-1], g.shape[-1])
        for i, (top, bottom) in enumerate(rows):
            for j, (left, right) in enumerate(columns):
                # (divided by the height, then by the width, as PyTorch's kernel rounds)
                values[..., top:bottom, left:right] += g[..., i, j, None, None] / (bottom - top) / (right - left)
        return (result(values, AdaptiveAvgPool2DBackwardBackward0, (grad, input), output_size=tuple(g.shape[-2:])),)

    def jvp(self, tangents, inputs, out):
        """result_t = adaptive_avg_pool2d(self_t, output_size) (a mean is linear)"""
        return adaptive_avg_pool2d(tangents[0], tuple(out.shape[-2:]))


def adaptive_avg_pool2d(input, output_size):
    """Average pooling with exactly ``output_size`` windows per channel, whatever the input's size.

    ``output_size`` 1 is the mean over the last two dims (recorded as MeanBackward1, as PyTorch
    does); ``None`` in it keeps that dim's size.
    """
    _check_adaptive_input(input, "adaptive_avg_pool2d")
    sizes = _adaptive_output_size(input, output_size, "adaptive_avg_pool2d")
    if sizes == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    if not input.dtype.is_floating_point:
        raise kernel_not_implemented("adaptive_avg_pool2d", input)
    array = input._array
    values = np.empty(array.shape[:-2] + sizes, dtype=array.dtype)
    rows = _adaptive_bounds(array.shape[-2], sizes[0])
    columns = _adaptive_bounds(array.shape[-1], sizes[1])
    for i, (top, bottom) in enumerate(rows):
        for j, (left, right) in enumerate(columns):
            # added up one element after the other, row by row, as PyTorch's kernel does (a
            # numpy sum adds in pairs, which can round differently in the last bit)
            total = np.zeros(array.shape[:-2], dtype=array.dtype)
            for row in range(top, bottom):
                for column in range(left, right):
                    total += array[..., row, column]
            values[..., i, j] = total / (bottom - top) / (right - left)     # (PyTorch's two divisions)
    return result(values, AdaptiveAvgPool2DBackward0, (input,), saved=(input,))


def adaptive_avg_pool1d(input, output_size):
    """Average pooling with exactly ``output_size`` windows along the last dim of (N, C, L) or (C, L)."""
    _check_1d_input(input, "adaptive_avg_pool1d")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, _one(output_size))).squeeze(-2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max pooling with exactly ``output_size`` windows per channel (AdaptiveMaxPool2DBackward0).

    With ``return_indices`` also the position (row * W + column) of each maximum.
    """
    _check_adaptive_input(input, "adaptive_max_pool2d")
    sizes = _adaptive_output_size(input, output_size, "adaptive_max_pool2d")
    if not input.dtype.is_floating_point:
        raise kernel_not_implemented("adaptive_max_pool2d", input)
    array = input._array
    values = np.empty(array.shape[:-2] + sizes, dtype=array.dtype)
    indices = np.empty(array.shape[:-2] + sizes, dtype=np.int64)
    width = array.shape[-1]
    for i, (top, bottom) in enumerate(_adaptive_bounds(array.shape[-2], sizes[0])):
        for j, (left, right) in enumerate(_adaptive_bounds(width, sizes[1])):
            window = array[..., top:bottom, left:right].reshape(array.shape[:-2] + (-1,))
            position = np.argmax(window, axis=-1)           # (the first of equal maxima; nan wins)
            values[..., i, j] = np.take_along_axis(window, position[..., None], axis=-1)[..., 0]
            row, column = np.divmod(position, right - left)
            indices[..., i, j] = (top + row) * width + left + column
    out = result(values, AdaptiveMaxPool2DBackward0, (input,), flat_indices=indices)
    indices = plain_output(indices, input)
    if out._grad_fn is not None:
        out._grad_fn.save_for_backward(input, indices)
    return (out, indices) if return_indices else out


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Max pooling with exactly ``output_size`` windows along the last dim of (N, C, L) or (C, L)."""
    _check_1d_input(input, "adaptive_max_pool1d")
    out, indices = adaptive_max_pool2d(input.unsqueeze(-2), (1, _one(output_size)), True)
    out, indices = out.squeeze(-2), indices.squeeze(-2)
    if return_indices:
        return out, indices
    if out._grad_fn is None and not _DualLevel.open and not _FuncTransforms.vmaps:
        # nothing to record: PyTorch's kernel without indices writes new memory, laid out in
        # order, and squeezes away the batch dim of a (C, L) input in place (version 1)
        out = _wrap(np.ascontiguousarray(out._array))
        if input.ndim == 2:
            out._versions = [1]
    return out


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """``torch.max_pool1d_with_indices``: ``max_pool1d(..., return_indices=True)``."""
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def adaptive_max_pool1d_with_indices(input, output_size):
    """``torch.adaptive_max_pool1d`` (the top-level one): the values and their indices, always."""
    return adaptive_max_pool1d(input, output_size, return_indices=True)
