"""F.unfold and F.fold: the im2col and col2im steps of a convolution, as operations of their own.

``unfold`` copies every kernel-sized block of an image into a column; ``fold`` adds columns
back into an image (where blocks overlap, their values add up). Each is the other's
gradient. A convolution is ``weight.view(C_out, -1) @ unfold(input)``: the numpy helpers
that do the copying are the convolutions' own (_convolution.py).
"""
import numpy as np

from .. import _dtype as dtypes
from .._ops import result
from .._ops.pointwise import kernel_not_implemented
from ..autograd.graph import Node
from ._convolution import im2col, col2im, _padded, _unpadded, _shown_size
from ._size_arguments import check_tensor
from ..autograd.kernel_writes import kernel_writes


def _pairs_of(value):
    return tuple(int(v) for v in value) if isinstance(value, (tuple, list)) else (int(value),) * 2


def _blocks(spatial, kernel, dilation, padding, stride):
    return tuple((n + 2 * p - d * (k - 1) - 1) // s + 1
                 for n, k, d, p, s in zip(spatial, kernel, dilation, padding, stride))


# PyTorch's errors for a window that cannot slide (each function checks them in its own order)

def _check_kernel(kernel):
    if any(k <= 0 for k in kernel):
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: {kernel[0]} "
                           f"kernel_width: {kernel[1]}")


def _check_stride(stride):
    if any(s <= 0 for s in stride):
        raise RuntimeError(f"stride should be greater than zero, but got stride_height: {stride[0]} "
                           f"stride_width: {stride[1]}")


def _check_dilation(dilation):
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: {dilation[0]} "
                           f"dilation_width: {dilation[1]}")


def _check_padding(padding):
    if any(p < 0 for p in padding):
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {padding[0]} "
                           f"pad_width: {padding[1]}")


class Im2ColBackward0(Node):
    """result = unfold(self): every kernel-sized block of self as a column   ->   grad_self = fold(grad)

    Each block was copied out of the input, so its gradient is added back where it came from
    (``fold``, the operation below, which is im2col's partner col2im)."""

    def backward(self, grad):
        return (fold(grad, (self.self_sym_argsize_minus_2, self.self_sym_argsize_minus_1), self.kernel_size,
                     self.dilation, self.padding, self.stride),)

    def jvp(self, tangents, inputs, out):
        """result_t = unfold(self_t) (copying is linear)"""
        return unfold(tangents[0], self.kernel_size, self.dilation, self.padding, self.stride)


class Col2ImBackward0(Node):
    """result = fold(self): columns added back into an image   ->   grad_self = unfold(grad)"""

    def backward(self, grad):
        return (unfold(grad, self.kernel_size, self.dilation, self.padding, self.stride),)

    def jvp(self, tangents, inputs, out):
        """result_t = fold(self_t) (adding up is linear)"""
        return fold(tangents[0], tuple(out.shape[-2:]), self.kernel_size, self.dilation, self.padding, self.stride)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Every ``kernel_size`` block of (N, C, H, W) (or (C, H, W)) as a column: (N, C * kH * kW, blocks).

    This is the im2col step of a convolution made visible: a conv2d is
    ``weight.view(C_out, -1) @ unfold(input, ...)``. Recorded as Im2ColBackward0.
    """
    check_tensor("im2col", "input", input, 1)
    kernel, dilation, padding, stride = (_pairs_of(v) for v in (kernel_size, dilation, padding, stride))
    # PyTorch checks the sizes first, in this order, and only then picks a kernel for the dtype
    _check_kernel(kernel)
    _check_dilation(dilation)
    _check_padding(padding)
    _check_stride(stride)
    sizes = tuple(input.shape)
    input.size(1), input.size(2)    # (PyTorch reads these before it counts the dims: their IndexError)
    if input.ndim not in (3, 4) or 0 in sizes[-3:] or (input.ndim == 3 and sizes[0] == 0):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {_shown_size(input.shape)}")
    spatial = sizes[-2:]
    blocks = _blocks(spatial, kernel, dilation, padding, stride)
    if any(b < 1 for b in blocks):
        raise RuntimeError(f"Given input with spatial size {spatial}, kernel_size={kernel}, dilation={dilation}, "
                           f"padding={padding}, calculated shape of the array of sliding blocks as {blocks}, "
                           "but its components must be at least one.")
    if not (input.dtype.is_floating_point or input.dtype == dtypes.bool_):
        raise kernel_not_implemented("im2col_out_cpu", input)
    array = input._array if input.ndim == 4 else input._array[None]
    windows = im2col(_padded(array, padding), kernel, stride, dilation, blocks)
    columns = windows.reshape(array.shape[0], array.shape[1] * kernel[0] * kernel[1], blocks[0] * blocks[1])
    if input.ndim == 3:
        columns = columns[0]
    out = result(np.ascontiguousarray(columns), Im2ColBackward0, (input,), dilation=dilation, kernel_size=kernel,
                 padding=padding, self_sym_argsize_minus_1=spatial[1], self_sym_argsize_minus_2=spatial[0],
                 stride=stride)
    return kernel_writes("unfold", out, input)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Columns (N, C * kH * kW, blocks) added back into an image (N, C, *output_size): col2im.

    Where blocks overlap, their values are added, so ``fold(unfold(x))`` is x times how many
    blocks saw each position. Recorded as Col2ImBackward0.
    """
    check_tensor("col2im", "input", input, 1)
    size, kernel, dilation, padding, stride = (_pairs_of(v) for v in (output_size, kernel_size, dilation,
                                                                      padding, stride))
    # PyTorch checks the sizes first, in this order, and only then picks a kernel for the dtype
    _check_kernel(kernel)
    _check_stride(stride)
    _check_dilation(dilation)
    _check_padding(padding)
    if input.ndim not in (2, 3) or 0 in tuple(input.shape)[-2:]:
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {_shown_size(input.shape)}")
    rows, count = input.shape[-2:]
    if rows % (kernel[0] * kernel[1]):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={rows} and kernel_size={kernel}.")
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if blocks[0] * blocks[1] != count:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, padding={padding}, "
                           f"stride={stride}, expected size of input's dimension 2 to match the calculated number of "
                           f"sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
                           f"input.size(2)={count}.")
    if any(b < 1 for b in blocks):       # (two negative counts multiply to the right number)
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, padding={padding}, "
                           f"stride={stride}, calculated shape of the array of sliding blocks as {blocks}, which is "
                           "too small (non-positive)")
    if any(n < 1 for n in size):
        raise RuntimeError(f"Expected output spatial size to be positive, but got: output_size={size}.")
    if not (input.dtype.is_floating_point or input.dtype == dtypes.bool_):
        raise kernel_not_implemented("col2im_out_cpu", input)
    array = input._array if input.ndim == 3 else input._array[None]
    channels = rows // (kernel[0] * kernel[1])
    windows = array.reshape((array.shape[0], channels) + kernel + blocks)
    padded_shape = (array.shape[0], channels) + tuple(n + 2 * p for n, p in zip(size, padding))
    image = _unpadded(col2im(windows, padded_shape, kernel, stride, dilation, blocks), padding)
    if input.ndim == 2:
        image = image[0]
    out = result(np.ascontiguousarray(image), Col2ImBackward0, (input,), dilation=dilation, kernel_size=kernel,
                 padding=padding, stride=stride)
    return kernel_writes("fold", out, input)

