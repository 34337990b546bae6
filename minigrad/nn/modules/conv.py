"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv3d`` and their ``ConvTranspose`` partners
(PyTorch: torch/nn/modules/conv.py).

Each layer owns a ``weight`` of shape (out_channels, in_channels / groups, *kernel_size)
(transposed: (in_channels, out_channels / groups, *kernel_size)) and a ``bias`` of one
number per output channel, and calls ``F.conv2d`` (or its relatives) with its settings.
"""
import math

from ..._creation import empty
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import _LazyConvXdMixin
from .module import Module


def _ntuple(value, n):
    """3 -> (3, 3) for a 2-d layer; a tuple or list stays as it is (PyTorch's _pair, _single)."""
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,) * n


# Python sets, as in PyTorch, because its messages print them: in an order that depends on the
# strings' hashes (PYTHONHASHSEED), the same order for both libraries in one process
_PADDING_STRINGS = {"same", "valid"}
_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


class _ConvNd(Module):
    """What every convolution layer shares: checking the settings, the parameters, their
    initialisation, and the printed settings."""

    _dims = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None, output_padding=0):
        super().__init__()
        n = self._dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in _PADDING_STRINGS:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {_PADDING_STRINGS}")
            if padding == "same" and any(s != 1 for s in _ntuple(stride, n)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got padding_mode={padding_mode!r}")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride, n)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.dilation = _ntuple(dilation, n)
        self.transposed = self._transposed
        self.output_padding = _ntuple(output_padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        # the amounts F.pad takes (last dim first, both sides), for a padding_mode other than zeros
        if padding == "same":
            totals = [d * (k - 1) for d, k in zip(self.dilation, self.kernel_size)]
            amounts = []
            for total in reversed(totals):
                amounts += [total // 2, total - total // 2]
            self._reversed_padding_repeated_twice = amounts
        elif padding == "valid":
            self._reversed_padding_repeated_twice = [0, 0] * n
        else:
            self._reversed_padding_repeated_twice = [p for p in reversed(self.padding) for _ in range(2)]
        if self._transposed:
            shape = (in_channels, out_channels // groups) + self.kernel_size
        else:
            shape = (out_channels, in_channels // groups) + self.kernel_size
        self.weight = Parameter(empty(*shape, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's default init: kaiming_uniform_(a=sqrt(5)) for the weight (a bound of
        1 / sqrt(fan_in)), then the bias uniform in [-1/sqrt(fan_in), 1/sqrt(fan_in)].

        The same calls in the same order as PyTorch, so after the same ``manual_seed`` the
        layer holds the same numbers."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        """``1, 6, kernel_size=(5, 5), stride=(1, 1)`` and whichever settings differ from their default."""
        text = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text

    def _conv_forward(self, input, weight, bias):
        """The convolution with these settings, for a given weight and bias (as in PyTorch, so
        that a subclass can convolve with a weight of its own)."""
        function = (F.conv1d, F.conv2d, F.conv3d)[self._dims - 1]
        if self.padding_mode != "zeros":
            # the padding is done by F.pad first, in the chosen mode; the convolution pads no more
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return function(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return function(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)


class Conv1d(_ConvNd):
    """A 1-d convolution layer over (N, C_in, L) or (C_in, L): ``F.conv1d(input, weight, bias, ...)``."""

    _dims = 1

    def forward(self, input):
        """The convolution of ``input`` with this layer's kernels (ConvolutionBackward0)."""
        return self._conv_forward(input, self.weight, self.bias)


class Conv2d(_ConvNd):
    """A 2-d convolution layer over images (N, C_in, H, W) or (C_in, H, W): ``F.conv2d(input, weight, bias, ...)``.

    ``Conv2d(1, 6, 5)``: 6 kernels of 5x5 over one input channel, so weight is (6, 1, 5, 5).
    """

    _dims = 2

    def forward(self, input):
        """The convolution of ``input`` with this layer's kernels (ConvolutionBackward0)."""
        return self._conv_forward(input, self.weight, self.bias)


class Conv3d(_ConvNd):
    """A 3-d convolution layer over (N, C_in, D, H, W) or (C_in, D, H, W): ``F.conv3d(input, weight, bias, ...)``."""

    _dims = 3

    def forward(self, input):
        """The convolution of ``input`` with this layer's kernels (ConvolutionBackward0)."""
        return self._conv_forward(input, self.weight, self.bias)


class _ConvTransposeNd(_ConvNd):
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                 groups=1, bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype, output_padding)


class ConvTranspose1d(_ConvTransposeNd):
    """The gradient of a Conv1d used as a layer: ``F.conv_transpose1d``; weight is (C_in, C_out / groups, k)."""

    _dims = 1

    def forward(self, input):
        """``F.conv_transpose1d`` with this layer's settings (ConvolutionBackward0, transposed)."""
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding, self.groups, self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    """The gradient of a Conv2d used as a layer (upsampling): ``F.conv_transpose2d``; weight is
    (C_in, C_out / groups, kH, kW)."""

    _dims = 2

    def forward(self, input):
        """``F.conv_transpose2d`` with this layer's settings (ConvolutionBackward0, transposed)."""
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding, self.groups, self.dilation)


class ConvTranspose3d(_ConvTransposeNd):
    """The gradient of a Conv3d used as a layer: ``F.conv_transpose3d``; weight is (C_in, C_out / groups, kD, kH, kW)."""

    _dims = 3

    def forward(self, input):
        """``F.conv_transpose3d`` with this layer's settings (ConvolutionBackward0, transposed)."""
        return F.conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding, self.groups, self.dilation)


# --- the lazy convolutions: in_channels comes from the first input (modules/lazy.py) -------------

class _LazyConvInit:
    """The constructor the three lazy convolutions share: the eager layer with 0 channels and no
    bias, then uninitialized weight and bias."""

    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode,
                         device, dtype)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)


class _LazyConvTransposeInit:
    """The constructor of the three lazy transposed convolutions (their own argument order)."""

    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
                         padding_mode, device, dtype)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)


class LazyConv1d(_LazyConvXdMixin, _LazyConvInit, Conv1d):
    """A Conv1d whose ``in_channels`` is read from the first input; it then becomes a ``Conv1d``."""

    cls_to_become = Conv1d


class LazyConv2d(_LazyConvXdMixin, _LazyConvInit, Conv2d):
    """A Conv2d whose ``in_channels`` is read from the first input; it then becomes a ``Conv2d``."""

    cls_to_become = Conv2d


class LazyConv3d(_LazyConvXdMixin, _LazyConvInit, Conv3d):
    """A Conv3d whose ``in_channels`` is read from the first input; it then becomes a ``Conv3d``."""

    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvXdMixin, _LazyConvTransposeInit, ConvTranspose1d):
    """A ConvTranspose1d whose ``in_channels`` is read from the first input; it then becomes a
    ``ConvTranspose1d``."""

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvXdMixin, _LazyConvTransposeInit, ConvTranspose2d):
    """A ConvTranspose2d whose ``in_channels`` is read from the first input; it then becomes a
    ``ConvTranspose2d``."""

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvXdMixin, _LazyConvTransposeInit, ConvTranspose3d):
    """A ConvTranspose3d whose ``in_channels`` is read from the first input; it then becomes a
    ``ConvTranspose3d``."""

    cls_to_become = ConvTranspose3d
