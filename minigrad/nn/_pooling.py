"""Pooling: max_pool1d/2d/3d, avg_pool1d/2d/3d, adaptive_avg_pool1d/2d/3d, adaptive_max_pool1d/2d/3d,
lp_pool1d/2d/3d.

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
before, ``squeeze(-2)`` after), and so is minigrad's: the recorded graph is PyTorch's. 2-d and
3-d pooling are one code here, written for any number of spatial dims (``dims``); only their
node names and a few messages differ.
"""
import math

import numpy as np

from .._type_names import type_name
from .._tensor import Tensor, _wrap
from .._ops import result, plain_output, zeros_set_in_place
from .._ops.pointwise import kernel_not_implemented, relu, sign
from ..autograd.graph import Node, _SETTINGS_KEPT_AS
from ..autograd.forward_ad import _DualLevel
from ..autograd.function import _FuncTransforms
from ._convolution import im2col, col2im
from ._size_arguments import check_int_tuples, check_tensor
from ..autograd.kernel_writes import kernel_writes
from ._argument_checks import REQUIRED


_COUNT = {2: "two", 3: "three"}


def _sizes(value, dims, name, function):
    """kernel_size=2 -> (2, 2) (or (2, 2, 2)), or PyTorch's message for a tuple of the wrong length."""
    values = tuple(int(v) for v in value) if isinstance(value, (tuple, list)) else (int(value),)
    if len(values) == 1:
        return values * dims
    if len(values) != dims:
        # (avg_pool3d says "must be", the others "must either be", and max_pool3d's dilation "must be either")
        either = "" if function == "avg_pool3d" else "either "
        tuple_of = f"a tuple of {_COUNT[dims]} ints"
        if name == "stride":
            raise RuntimeError(f"{function}: stride must {either}be omitted, a single int, or {tuple_of}")
        if name == "dilation" and dims == 3:
            raise RuntimeError(f"{function}: dilation must be either a single int, or {tuple_of}")
        raise RuntimeError(f"{function}: {name} must {either}be a single int, or {tuple_of}")
    return values


def _given_stride(stride, dims, function):
    """The stride as PyTorch keeps it: () when none was given (the windows then side by side)."""
    if stride is None or (isinstance(stride, (tuple, list)) and not stride):
        return ()
    return _sizes(stride, dims, "stride", function)


def _pooled_size(size, kernel, stride, padding, dilation, ceil_mode):
    """Number of windows along one dim; with ``ceil_mode`` a last partial window counts too,
    unless it would start inside the right padding only."""
    span = size + 2 * padding - dilation * (kernel - 1) - 1
    count = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (count - 1) * stride >= size + padding:
        count -= 1
    return count


def _check_pool_shape(function, input, kernel, stride, padding, dilation, out_size, max_pool):
    """PyTorch's checks, in its order, before a 2-d or 3-d max or average pooling."""
    dims, shape = len(kernel), tuple(input.shape)
    if any(s == 0 for s in stride) or any(k == 0 for k in kernel):
        raise RuntimeError("stride should not be zero")
    if dims == 2 and any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilation[0]} "
                           f"dilationW: {dilation[1]}")
    if any(p < 0 for p in padding):
        raise RuntimeError(f"pad must be non-negative, but got pad: {min(padding)}")
    for k, p, d in zip(kernel, padding, dilation):
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    if dims == 2 and max_pool and (kernel[1] // 2 < padding[1] or kernel[0] // 2 < padding[0]):
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = "
                           f"{padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, kH = {kernel[0]}")
    if dims == 3:
        _check_pool3d_shape(function, shape, kernel, padding, dilation)
    if any(n < 1 for n in out_size):
        sizes = "x".join(map(str, shape[-dims - 1:]))
        raise RuntimeError(f"Given input size: ({sizes}). Calculated output size: "
                           f"({'x'.join(map(str, (shape[-dims - 1],) + tuple(out_size)))}). Output size is too small")


def _check_pool3d_shape(function, shape, kernel, padding, dilation):
    """The checks only 3-d pooling makes (PyTorch's pool3d_shape_check)."""
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilationT: {dilation[0]} "
                           f"dilationH: {dilation[1]} dilationW: {dilation[2]}")
    if 0 in shape[-4:]:
        where = "max_pool3d_with_indices_out_cpu_template()" if function == "max_pool3d" else f"{function}()"
        raise RuntimeError(f"{where}: Expected input's non-batch dimensions to have positive length, but input has "
                           f"a shape of [{', '.join(map(str, shape))}] and non-batch dimension 0 has length zero!")
    (kT, kH, kW), (pT, pH, pW), (T, H, W) = kernel, padding, shape[-3:]
    if function == "avg_pool3d" and (T < kT or H < kH or W < kW):
        raise RuntimeError(f"input image (T: {T} H: {H} W: {W}) smaller than kernel size (kT: {kT} kH: {kH} kW: {kW})")
    if kT // 2 < pT or kH // 2 < pH or kW // 2 < pW:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got kT: {kT} kW: {kW} "
                           f"kH: {kH} padT: {pT} padW: {pW} padH: {pH}")


def _windows(array, kernel, stride, padding, dilation, out_size, fill):
    """numpy: (N, C, prod(kernel), *out_size) windows of ``array`` (N, C, *spatial), padded with ``fill``.

    With ceil_mode the last window may hang over the far edge: the padding is made wide
    enough for it, so the window simply sees more ``fill`` there.
    """
    extra = [max(0, (o - 1) * s + d * (k - 1) + 1 - (n + 2 * p))
             for o, s, d, k, n, p in zip(out_size, stride, dilation, kernel, array.shape[2:], padding)]
    padded = np.pad(array, ((0, 0), (0, 0)) + tuple((p, p + e) for p, e in zip(padding, extra)),
                    constant_values=fill)
    windows = im2col(padded, kernel, stride, dilation, out_size)
    return windows.reshape(array.shape[:2] + (math.prod(kernel),) + tuple(out_size))


def _as_batch(array, dims=2):
    """numpy: a (C, *spatial) array seen as a batch of one, (1, C, *spatial); a batch stays as it is.
    (Only the numpy array: PyTorch's pooling records no unsqueeze for an unbatched input.)"""
    return array if array.ndim == dims + 2 else array[None]


def _along(values, d, dims):
    """numpy: a 1-d array of values for spatial dim ``d``, shaped to broadcast over all ``dims``."""
    return np.asarray(values).reshape([-1 if i == d else 1 for i in range(dims)])


def _flat_position(positions, input_size):
    """numpy: per-dim positions (each broadcastable) -> one flat position in the image, as
    PyTorch numbers them (depth * H * W + row * W + column)."""
    flat = 0
    for position, size in zip(positions, input_size):
        flat = flat * size + position
    return flat


# What grad_fn._saved_* shows for each node (PyTorch's names; the rest minigrad keeps for itself).
# The stride shows as it was given: () when none was.
_MAX_SETTINGS = {"ceil_mode": "ceil_mode", "dilation": "dilation", "kernel_size": "kernel_size",
                 "padding": "padding", "stride": "stride_as_given"}
_AVG_SETTINGS = {"ceil_mode": "ceil_mode", "count_include_pad": "count_include_pad",
                 "divisor_override": "divisor_override", "kernel_size": "kernel_size", "padding": "padding",
                 "stride": "stride_as_given"}
for _dims in ("2D", "3D"):
    _SETTINGS_KEPT_AS[f"MaxPool{_dims}WithIndicesBackward0"] = _MAX_SETTINGS
    _SETTINGS_KEPT_AS[f"AdaptiveMaxPool{_dims}Backward0"] = {}
    _SETTINGS_KEPT_AS[f"MaxPool{_dims}WithIndicesBackwardBackward0"] = {"indices": "indices"}
    _SETTINGS_KEPT_AS[f"AdaptiveMaxPool{_dims}BackwardBackward0"] = {"indices": "indices"}
    _SETTINGS_KEPT_AS[f"AvgPool{_dims}Backward0"] = _AVG_SETTINGS
    _SETTINGS_KEPT_AS[f"AvgPool{_dims}BackwardBackward0"] = _AVG_SETTINGS
    _SETTINGS_KEPT_AS[f"AdaptiveAvgPool{_dims}Backward0"] = {}
# (the double-backward node of adaptive average pooling shows the sizes of the gradient's last dims)
_SETTINGS_KEPT_AS["AdaptiveAvgPool2DBackwardBackward0"] = {
    f"grad_output_sym_argsize_minus_{i}": (lambda settings, i=i: settings["output_size"][-i]) for i in (1, 2)}
_SETTINGS_KEPT_AS["AdaptiveAvgPool3DBackwardBackward0"] = {
    f"grad_output_sym_argsize_minus_{i}": (lambda settings, i=i: settings["output_size"][-i]) for i in (1, 2, 3)}


# --- max pooling ----------------------------------------------------------------------------

def _scatter_to_input(grad, indices, input_shape, dims):
    """numpy: each gradient added at the (flat, per channel) input position ``indices`` names.

    The images of all (sample, channel) pairs lie one after the other in memory, and PyTorch
    adds at image start + index: a window that saw only padding keeps an index one image
    further (see _max_pool_with_indices), whose gradient then lands in the next image, as
    in PyTorch (past the last image, nowhere)."""
    planes, plane_size = math.prod(input_shape[:-dims]), math.prod(input_shape[-dims:])
    places = (np.arange(planes)[:, None] * plane_size + indices.reshape(planes, -1)).ravel()
    grads = grad.reshape(-1)
    inside = places < planes * plane_size
    summed = np.zeros(planes * plane_size, dtype=grad.dtype)
    np.add.at(summed, places[inside], grads[inside])
    return summed.reshape(input_shape)


class _MaxBackward(Node):
    """result = the largest value of each window   ->
        grad_self = grad added at the position of each window's largest value (result1)

    Shared by the nodes of max_pool2d/3d and adaptive_max_pool2d/3d (``dims`` spatial dims)."""

    _saved_names = ("self", "result1")
    dims = 2

    def backward(self, grad):
        input, indices = self.saved_tensors
        values = _scatter_to_input(grad._array, indices._array, tuple(input.shape), self.dims)
        return (result(values, self.double_backward_class, (grad, input), indices=indices),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t at the position of each window's largest value"""
        planes = math.prod(out.shape[:-self.dims])
        read = tangents[0].reshape(planes, -1).gather(1, _wrap(self.flat_indices.reshape(planes, -1)))
        return read.reshape(tuple(out.shape))


class _MaxBackwardBackward(Node):
    """result = max pooling's gradient (grad added at the indices)   ->   grad_grad = gg read at the same indices"""

    dims = 2

    def backward(self, gg):
        planes = math.prod(self.indices.shape[:-self.dims])
        read = gg.reshape(planes, -1).gather(1, _wrap(self.indices._array.reshape(planes, -1)))
        return read.reshape(tuple(self.indices.shape)), _zeros_for_self(self, gg)


def _zeros_for_self(node, gg):
    """A pooling gradient's gradient for the pooled input: PyTorch's zeros_like(self) (the
    gradient does not depend on the input's values, but the input has an edge). gg has the
    input's shape and dtype, as the pooling gradient it belongs to."""
    return zeros_set_in_place(gg._array.shape, gg._array.dtype) if node.should_compute_output(1) else None


class MaxPool2DWithIndicesBackwardBackward0(_MaxBackwardBackward):
    """result = max_pool2d's gradient   ->   grad_grad = gg read at the indices of the maxima"""


class MaxPool2DWithIndicesBackward0(_MaxBackward):
    """result = the largest value in each window   ->
        grad_self = grad added at the position of each window's largest value (result1), zero elsewhere"""

    double_backward_class = MaxPool2DWithIndicesBackwardBackward0


class MaxPool3DWithIndicesBackwardBackward0(_MaxBackwardBackward):
    """result = max_pool3d's gradient   ->   grad_grad = gg read at the indices of the maxima"""

    dims = 3


class MaxPool3DWithIndicesBackward0(_MaxBackward):
    """result = the largest value in each 3-d window   ->
        grad_self = grad added at the position of each window's largest value (result1), zero elsewhere"""

    dims = 3
    double_backward_class = MaxPool3DWithIndicesBackwardBackward0


class AdaptiveMaxPool2DBackwardBackward0(_MaxBackwardBackward):
    """result = adaptive_max_pool2d's gradient   ->   grad_grad = gg read at the indices of the maxima"""


class AdaptiveMaxPool2DBackward0(_MaxBackward):
    """result = the largest value in each of output_size windows   ->
        grad_self = grad added at the position of each window's largest value (result1), zero elsewhere"""

    double_backward_class = AdaptiveMaxPool2DBackwardBackward0


class AdaptiveMaxPool3DBackwardBackward0(_MaxBackwardBackward):
    """result = adaptive_max_pool3d's gradient   ->   grad_grad = gg read at the indices of the maxima"""

    dims = 3


class AdaptiveMaxPool3DBackward0(_MaxBackward):
    """result = the largest value in each of output_size 3-d windows   ->
        grad_self = grad added at the position of each window's largest value (result1), zero elsewhere"""

    dims = 3
    double_backward_class = AdaptiveMaxPool3DBackwardBackward0


def _position_of_largest(windows, axis):
    """numpy: where each window's largest value is, as PyTorch's loop finds it: the first of
    equal largest values, but the last nan (a nan replaces whatever was found before it)."""
    offsets = np.argmax(windows, axis=axis)
    nans = np.isnan(windows) if windows.dtype.kind == "f" else None
    if nans is not None and nans.any():
        last_nan = windows.shape[axis] - 1 - np.argmax(np.flip(nans, axis=axis), axis=axis)
        offsets = np.where(nans.any(axis=axis), last_nan, offsets)
    return offsets


def _window_positions(offset, kernel, stride, padding, dilation, out_size, input_size):
    """numpy: the flat input position of window element ``offset`` (numbered over the kernel) of every window."""
    element = np.unravel_index(offset, kernel)
    dims = len(kernel)
    return _flat_position([_along(np.arange(out_size[d]) * stride[d] - padding[d], d, dims) + element[d] * dilation[d]
                           for d in range(dims)], input_size)


_MAX_POOL_NODES = {2: MaxPool2DWithIndicesBackward0, 3: MaxPool3DWithIndicesBackward0}


def _max_pool_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode, dims, function):
    kernel = _sizes(kernel_size, dims, "kernel_size", function)
    given_stride = _given_stride(stride, dims, function)
    strides = given_stride or kernel
    padding, dilation = _sizes(padding, dims, "padding", function), _sizes(dilation, dims, "dilation", function)
    input_size = tuple(input.shape[-dims:])
    out_size = tuple(_pooled_size(n, k, s, p, d, ceil_mode) if s else 0
                     for n, k, s, p, d in zip(input_size, kernel, strides, padding, dilation))
    _check_pool_shape(function, input, kernel, strides, padding, dilation, out_size, max_pool=True)
    array = input._array
    fill = -np.inf if array.dtype.kind == "f" else np.iinfo(array.dtype).min
    windows = _windows(_as_batch(array, dims), kernel, strides, padding, dilation, out_size, fill)
    offsets = _position_of_largest(windows, axis=2)
    values = np.take_along_axis(windows, offsets[:, :, None], axis=2)[:, :, 0]
    indices = _window_positions(offsets, kernel, strides, padding, dilation, out_size, input_size)
    # A window whose largest value is the fill itself (nothing larger than -inf in it, or only
    # padding) keeps the position PyTorch's loop starts from: its first element past the padding
    first = [np.arange(n) * s - p for n, s, p in zip(out_size, strides, padding)]
    first = [np.where(f < 0, f + d * (-(f // d)), f) for f, d in zip(first, dilation)]   # (stepped by d)
    first = _flat_position([_along(f, d, dims) for d, f in enumerate(first)], input_size)
    indices = np.where(values == fill, first, indices)
    values, indices = values.reshape(array.shape[:-dims] + out_size), indices.reshape(array.shape[:-dims] + out_size)
    out = result(np.ascontiguousarray(values), _MAX_POOL_NODES[dims], (input,),
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
    out, indices = _max_pool_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode, 2, "max_pool2d")
    return (out, indices) if return_indices else out


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The largest value of each ``kernel_size`` window of each channel (N, C, D, H, W) or (C, D, H, W).

    As max_pool2d, one dim more; the indices count depth * H * W + row * W + column.
    Recorded as MaxPool3DWithIndicesBackward0.
    """
    check_tensor("max_pool3d", "input", input, 1)
    check_int_tuples("max_pool3d", [("kernel_size", kernel_size, 2), ("stride", stride, 3), ("padding", padding, 4),
                                    ("dilation", dilation, 5)])
    if input.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    if input.dtype.name == "bool":
        raise kernel_not_implemented("max_pool3d", input)
    out, indices = _max_pool_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode, 3, "max_pool3d")
    return (out, indices) if return_indices else out


def _check_1d_input(input, name, own_kernel=False):
    """``own_kernel``: max_pool1d's own 1-d kernel runs, which also refuses empty channels or
    lengths (only the batch may be empty)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type_name(input)}")
    if input.ndim not in (2, 3) or (own_kernel and 0 in input.shape[-2:]):
        if name == "max_pool1d":
            raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size "
                               f"for input, but got:[{', '.join(map(str, input.shape))}]")
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {name})")


def _one(value):
    return int(value[0]) if isinstance(value, (tuple, list)) else int(value)


def _max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The largest value of each window along the last dim of (N, C, L) or (C, L).

    As in PyTorch: max_pool2d of the input seen with a height of 1 (UnsqueezeBackward0 ->
    MaxPool2DWithIndicesBackward0 -> SqueezeBackward1).
    """
    check_tensor("max_pool1d", "input", input, 1)
    check_int_tuples("max_pool1d", [("kernel_size", kernel_size, 2), ("stride", stride, 3), ("padding", padding, 4),
                                    ("dilation", dilation, 5)])
    _check_1d_input(input, "max_pool1d", own_kernel=not return_indices and not input.requires_grad)
    if not return_indices and not input.dtype.is_floating_point:
        # without indices (and so without grad: an integer tensor never requires it) PyTorch
        # runs its own 1-d kernel, which has floating-point versions only; with indices it runs
        # max_pool2d's, which takes integers too
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


class _AvgBackwardBackward(Node):
    """result = average pooling's gradient   ->   grad_grad = the same average pooling of gg"""

    def backward(self, gg):
        return _avg_pool(gg, *self.arguments), _zeros_for_self(self, gg)


class _AvgBackward(Node):
    """result = the mean of each window (sum / divisor)   ->
        grad_self = each window's grad / divisor, added to every element of the window"""

    _saved_names = ("self",)

    def backward(self, grad):
        (input,) = self.saved_tensors
        kernel, strides, padding = self.kernel_size, self.strides, self.padding
        dims = len(kernel)
        g = _as_batch(grad._array, dims)
        out_size, input_size = g.shape[2:], tuple(input.shape[-dims:])
        # every element of a window gets the window's gradient / divisor: the same value
        # prod(kernel) times, then added back where it came from
        windows = np.broadcast_to((g / self.divisor)[(slice(None), slice(None)) + (None,) * dims],
                                  g.shape[:2] + kernel + out_size)
        padded_shape = g.shape[:2] + tuple(
            max(n + 2 * p, (o - 1) * s + k)
            for n, p, o, s, k in zip(input_size, padding, out_size, strides, kernel))
        summed = col2im(windows, padded_shape, kernel, strides, (1,) * dims, out_size, window_order=True)
        values = summed[(slice(None), slice(None)) + tuple(slice(p, p + n) for p, n in zip(padding, input_size))]
        values = np.ascontiguousarray(values.reshape(tuple(input.shape))).astype(input._array.dtype, copy=False)
        shown = {name: getattr(self, name) for name in (      # (what the double-backward node shows)
            "kernel_size", "stride_as_given", "padding", "ceil_mode", "count_include_pad", "divisor_override")}
        return (result(values, self.double_backward_class, (grad, input), arguments=self.arguments, **shown),)

    def jvp(self, tangents, inputs, out):
        """result_t = the same average pooling of self_t (a mean is linear)"""
        return _avg_pool(tangents[0], *self.arguments)


class AvgPool2DBackwardBackward0(_AvgBackwardBackward):
    """result = avg_pool2d's gradient   ->   grad_grad = avg_pool2d(gg) with the same settings"""


class AvgPool2DBackward0(_AvgBackward):
    """result = the mean of each window (sum / divisor)   ->
        grad_self = each window's grad / divisor, added to every element of the window"""

    double_backward_class = AvgPool2DBackwardBackward0


class AvgPool3DBackwardBackward0(_AvgBackwardBackward):
    """result = avg_pool3d's gradient   ->   grad_grad = avg_pool3d(gg) with the same settings"""


class AvgPool3DBackward0(_AvgBackward):
    """result = the mean of each 3-d window (sum / divisor)   ->
        grad_self = each window's grad / divisor, added to every element of the window"""

    double_backward_class = AvgPool3DBackwardBackward0


_AVG_POOL_NODES = {2: AvgPool2DBackward0, 3: AvgPool3DBackward0}


def _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, dims=2):
    function = f"avg_pool{dims}d"
    kernel = _sizes(kernel_size, dims, "kernel_size", function)
    given_stride = _given_stride(stride, dims, function)
    strides = given_stride or kernel
    padding = _sizes(padding, dims, "padding", function)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    input_size = tuple(input.shape[-dims:])
    out_size = tuple(_pooled_size(n, k, s, p, 1, ceil_mode) if s else 0
                     for n, k, s, p in zip(input_size, kernel, strides, padding))
    _check_pool_shape(function, input, kernel, strides, padding, (1,) * dims, out_size, max_pool=False)
    array = input._array
    windows = _windows(_as_batch(array, dims), kernel, strides, padding, (1,) * dims, out_size, 0)
    if divisor_override is not None:
        divisor = np.asarray(divisor_override, dtype=array.dtype)
    else:
        divisor = 1
        for d in range(dims):
            divisor = divisor * _along(_divisors(input_size[d], kernel[d], strides[d], padding[d], out_size[d],
                                                 count_include_pad), d, dims)
        divisor = divisor.astype(array.dtype)
    # added up one window element after the other, as PyTorch's loop does (numpy's sum over
    # many elements adds them in another order, which can round differently in the last bit)
    total = np.zeros(windows.shape[:2] + windows.shape[3:], dtype=windows.dtype)
    for element in range(windows.shape[2]):
        total += windows[:, :, element]
    values = (total / divisor).reshape(array.shape[:-dims] + out_size)
    arguments = (kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, dims)
    return result(np.ascontiguousarray(values.astype(array.dtype, copy=False)), _AVG_POOL_NODES[dims], (input,),
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
    if input.ndim == 0:             # (PyTorch asks for the size of dim -3 first)
        raise IndexError("Dimension specified as -3 but tensor has no dimensions")
    if input.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [-{input.ndim}, "
                         f"{input.ndim - 1}], but got -3)")
    _check_pool2d_input(input, "avg_pool2d")
    if not input.dtype.is_floating_point and input.dtype.name != "int64":
        raise kernel_not_implemented("avg_pool2d", input)     # (its kernels: floats and int64)
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each ``kernel_size`` window of each channel (N, C, D, H, W) or (C, D, H, W).

    As avg_pool2d, one dim more. Recorded as AvgPool3DBackward0.
    """
    check_tensor("avg_pool3d", "input", input, 1)
    check_int_tuples("avg_pool3d", [("kernel_size", kernel_size, 2), ("stride", stride, 3), ("padding", padding, 4)])
    if input.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    if input.dtype.name not in ("float32", "float64", "int64"):
        raise kernel_not_implemented("avg_pool3d_out_frame", input)     # (its only kernels)
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3)


# (PyTorch's function is _max_pool1d, which Python's "missing argument" message names)
max_pool1d = _max_pool1d
max_pool1d.__name__ = "max_pool1d"


def avg_pool1d(input, kernel_size=REQUIRED, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The mean of each window along the last dim of (N, C, L) or (C, L): avg_pool2d with a height of 1."""
    check_tensor("avg_pool1d", "input", input, 1)
    if kernel_size is REQUIRED:       # (PyTorch's parser: input first, then what is missing)
        raise TypeError('avg_pool1d() missing 1 required positional arguments: "kernel_size"')
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


def _adaptive_output_size(input, output_size, name, dims=2):
    sizes = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size,) * dims
    if len(sizes) != dims:
        if name == "adaptive_max_pool3d":
            raise RuntimeError(f"{name}(): internal error: output_size.size() must be 3")
        raise RuntimeError(f"{name}: output_size must be {dims}")
    sizes = tuple(input.shape[-dims + i] if s is None else int(s) for i, s in enumerate(sizes))
    if any(s < 0 for s in sizes):
        if name == "adaptive_max_pool3d":
            shape = tuple(input.shape[:-dims]) + sizes
            raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: "
                               f"[{', '.join(map(str, shape))}]")
        listed = f"{sizes[0]}, {sizes[1]}" if dims == 2 else f"{sizes[0]}, {sizes[1]},{sizes[2]}"   # (sic)
        raise RuntimeError(f"{name}: elements of output_size must be greater than or equal to 0 but received "
                           f"{{{listed}}}")
    return sizes


def _check_adaptive_input(input, name, dims=2):
    if not isinstance(input, Tensor):
        # (PyTorch's Python code asks the input for its size before any check)
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'size'")
    if input.ndim not in (dims + 1, dims + 2):
        colon = ":" if name.startswith("adaptive_max") else ""
        raise RuntimeError(f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got{colon} "
                           f"[{', '.join(map(str, input.shape))}]")
    if dims == 3:
        for dim in range(input.ndim - 4, input.ndim):
            if input.shape[dim] == 0:
                _refuse_empty(input, name, dim)


def _check_not_empty(input, name, first):
    """PyTorch's refusal of an input empty in one of the dims from ``first`` on (the pooled
    dims: an empty batch gives an empty result)."""
    for dim in range(first, input.ndim):
        if input.shape[dim] == 0:
            _refuse_empty(input, name, dim)


def _refuse_empty(input, name, dim):
    raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, but "
                       f"input has sizes [{', '.join(map(str, input.shape))}] with dimension {dim} being empty")


class _AdaptiveAvgBackwardBackward(Node):
    """result = adaptive average pooling's gradient   ->   grad_grad = the same adaptive pooling of gg"""

    def backward(self, gg):
        return _adaptive_avg_pool(gg, self.output_size), _zeros_for_self(self, gg)


class _AdaptiveAvgBackward(Node):
    """result = the mean of each of output_size windows   ->
        grad_self = each window's grad / its number of elements, added to every element of the window"""

    _saved_names = ("self",)

    def backward(self, grad):
        (input,) = self.saved_tensors
        g = grad._array
        dims = self.dims
        values = np.zeros(tuple(input.shape), dtype=g.dtype)
        for cell, window in _adaptive_windows(tuple(input.shape[-dims:]), g.shape[-dims:]):
            share = g[(Ellipsis,) + cell + (None,) * dims]
            for bounds in window:      # (divided by each dim's size in turn, as PyTorch's kernel rounds)
                share = share / (bounds.stop - bounds.start)
            values[(Ellipsis,) + window] += share
        return (result(values, self.double_backward_class, (grad, input), output_size=tuple(g.shape[-dims:])),)

    def jvp(self, tangents, inputs, out):
        """result_t = the same adaptive average pooling of self_t (a mean is linear)"""
        return _adaptive_avg_pool(tangents[0], tuple(out.shape[-self.dims:]))


class AdaptiveAvgPool2DBackwardBackward0(_AdaptiveAvgBackwardBackward):
    """result = adaptive_avg_pool2d's gradient   ->   grad_grad = adaptive_avg_pool2d(gg) again"""


class AdaptiveAvgPool2DBackward0(_AdaptiveAvgBackward):
    """result = the mean of each of output_size windows   ->
        grad_self = each window's grad / its number of elements, added to every element of the window"""

    dims = 2
    double_backward_class = AdaptiveAvgPool2DBackwardBackward0


class AdaptiveAvgPool3DBackwardBackward0(_AdaptiveAvgBackwardBackward):
    """result = adaptive_avg_pool3d's gradient   ->   grad_grad = adaptive_avg_pool3d(gg) again"""


class AdaptiveAvgPool3DBackward0(_AdaptiveAvgBackward):
    """result = the mean of each of output_size 3-d windows   ->
        grad_self = each window's grad / its number of elements, added to every element of the window"""

    dims = 3
    double_backward_class = AdaptiveAvgPool3DBackwardBackward0


def _adaptive_windows(input_size, output_size):
    """(output cell, window of slices) of every cell of an adaptive pooling, in PyTorch's loop order."""
    bounds = [[slice(*b) for b in _adaptive_bounds(n, o)] for n, o in zip(input_size, output_size)]
    return [(cell, tuple(b[i] for b, i in zip(bounds, cell))) for cell in np.ndindex(*output_size)]


def _adaptive_avg_pool(input, sizes):
    dims = len(sizes)
    array = input._array
    values = np.empty(array.shape[:-dims] + sizes, dtype=array.dtype)
    for cell, window in _adaptive_windows(array.shape[-dims:], sizes):
        # added up one element after the other, row by row, as PyTorch's kernel does (a
        # numpy sum adds in pairs, which can round differently in the last bit)
        total = np.zeros(array.shape[:-dims], dtype=array.dtype)
        for position in np.ndindex(*(b.stop - b.start for b in window)):
            total += array[(Ellipsis,) + tuple(b.start + i for b, i in zip(window, position))]
        for bounds in window:          # (PyTorch divides by each dim's size in turn)
            total = total / (bounds.stop - bounds.start)
        values[(Ellipsis,) + cell] = total
    node = AdaptiveAvgPool2DBackward0 if dims == 2 else AdaptiveAvgPool3DBackward0
    out = result(values, node, (input,), saved=(input,))
    return kernel_writes("adaptive_avg_pool", out, input)


def adaptive_avg_pool2d(input, output_size):
    """Average pooling with exactly ``output_size`` windows per channel, whatever the input's size.

    ``output_size`` 1 is the mean over the last two dims (recorded as MeanBackward1, as PyTorch
    does); ``None`` in it keeps that dim's size.
    """
    _check_adaptive_input(input, "adaptive_avg_pool2d")
    sizes = _adaptive_output_size(input, output_size, "adaptive_avg_pool2d")
    if sizes == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    _check_not_empty(input, "adaptive_avg_pool2d", input.ndim - 2)
    if not input.dtype.is_floating_point:
        raise kernel_not_implemented("adaptive_avg_pool2d", input)
    return _adaptive_avg_pool(input, sizes)


def adaptive_avg_pool3d(input, output_size):
    """Average pooling with exactly ``output_size`` (depth, height, width) windows per channel.

    ``output_size`` 1 is the mean over the last three dims (MeanBackward1, as in PyTorch).
    """
    _check_adaptive_input(input, "adaptive_avg_pool3d", 3)
    sizes = _adaptive_output_size(input, output_size, "adaptive_avg_pool3d", 3)
    if sizes == (1, 1, 1):
        return input.mean((-1, -2, -3), keepdim=True)
    if not input.dtype.is_floating_point:
        raise kernel_not_implemented("adaptive_avg_pool3d_cpu", input)
    return _adaptive_avg_pool(input, sizes)


def adaptive_avg_pool1d(input, output_size):
    """Average pooling with exactly ``output_size`` windows along the last dim of (N, C, L) or (C, L)."""
    _check_1d_input(input, "adaptive_avg_pool1d")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, _one(output_size))).squeeze(-2)


def _adaptive_max_pool(input, sizes):
    dims = len(sizes)
    array = input._array
    input_size = array.shape[-dims:]
    values = np.empty(array.shape[:-dims] + sizes, dtype=array.dtype)
    indices = np.empty(array.shape[:-dims] + sizes, dtype=np.int64)
    for cell, window in _adaptive_windows(input_size, sizes):
        part = array[(Ellipsis,) + window]
        part = part.reshape(array.shape[:-dims] + (math.prod(part.shape[-dims:]),))
        position = _position_of_largest(part, axis=-1)
        values[(Ellipsis,) + cell] = np.take_along_axis(part, position[..., None], axis=-1)[..., 0]
        element = np.unravel_index(position, tuple(b.stop - b.start for b in window))
        indices[(Ellipsis,) + cell] = _flat_position([b.start + e for b, e in zip(window, element)], input_size)
    node = AdaptiveMaxPool2DBackward0 if dims == 2 else AdaptiveMaxPool3DBackward0
    out = result(values, node, (input,), flat_indices=indices)
    indices = plain_output(indices, input)
    if out._grad_fn is not None:
        out._grad_fn.save_for_backward(input, indices)
    return out, indices


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max pooling with exactly ``output_size`` windows per channel (AdaptiveMaxPool2DBackward0).

    With ``return_indices`` also the position (row * W + column) of each maximum.
    """
    _check_adaptive_input(input, "adaptive_max_pool2d")
    _check_not_empty(input, "adaptive_max_pool2d", 1)     # (before the output size, as PyTorch)
    sizes = _adaptive_output_size(input, output_size, "adaptive_max_pool2d")
    if not input.dtype.is_floating_point:
        raise kernel_not_implemented("adaptive_max_pool2d", input)
    out, indices = _adaptive_max_pool(input, sizes)
    return (out, indices) if return_indices else out


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max pooling with exactly ``output_size`` (depth, height, width) windows per channel
    (AdaptiveMaxPool3DBackward0); the indices count depth * H * W + row * W + column."""
    _check_adaptive_input(input, "adaptive_max_pool3d", 3)
    sizes = _adaptive_output_size(input, output_size, "adaptive_max_pool3d", 3)
    if not input.dtype.is_floating_point:
        raise kernel_not_implemented("adaptive_max_pool3d_cpu", input)
    out, indices = _adaptive_max_pool(input, sizes)
    return (out, indices) if return_indices else out


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Max pooling with exactly ``output_size`` windows along the last dim of (N, C, L) or (C, L)."""
    _check_1d_input(input, "adaptive_max_pool1d")
    _check_not_empty(input, "adaptive_max_pool1d", 1)
    out, indices = adaptive_max_pool2d(input.unsqueeze(-2), (1, _one(output_size)), True)
    # (unlike max_pool1d, PyTorch's kernel always gives views of its (N, C, 1, L) results)
    out, indices = out.squeeze(-2), indices.squeeze(-2)
    return (out, indices) if return_indices else out


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """``torch.max_pool1d_with_indices``: ``max_pool1d(..., return_indices=True)``."""
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def adaptive_max_pool1d_with_indices(input, output_size):
    """``torch.adaptive_max_pool1d`` (the top-level one): the values and their indices, always."""
    return adaptive_max_pool1d(input, output_size, return_indices=True)


# --- power-average pooling: (sum of x ** p over each window) ** (1 / p) ---------------------------

def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, max_pool, avg_pool, count):
    """As PyTorch composes it: avg_pool of x ** p, times the window's size, to the power 1 / p
    (so the graph shows PowBackward0, AvgPool2DBackward0, ...); p = +-inf is max pooling of |x|."""
    if isinstance(norm_type, (int, float)):
        if norm_type == math.inf:
            return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -math.inf:
            return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    # (sign * relu(abs) is |out| with its sign: 0 where the sum is 0, so the gradient there is 0)
    return (sign(out) * relu(out.abs())).mul(count).pow(1.0 / norm_type)


def _window_count(kernel_size, dims):
    sizes = tuple(kernel_size) if isinstance(kernel_size, (tuple, list)) else (kernel_size,) * dims
    return math.prod(sizes)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The ``norm_type``-norm of each window along the last dim: (sum of x ** p) ** (1 / p)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, max_pool1d, avg_pool1d, kernel_size)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The ``norm_type``-norm of each ``kernel_size`` window of each channel: (sum of x ** p) ** (1 / p)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, max_pool2d, avg_pool2d,
                    _window_count(kernel_size, 2))


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The ``norm_type``-norm of each 3-d ``kernel_size`` window of each channel."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, max_pool3d, avg_pool3d,
                    _window_count(kernel_size, 3))
