"""``Unfold`` and ``Fold``: the im2col and col2im steps of a convolution as layers
(PyTorch: torch/nn/modules/fold.py; the functions are in minigrad/nn/_fold.py)."""
from .. import functional as F
from .module import Module


class Unfold(Module):
    """Every ``kernel_size`` block of an image as a column: ``F.unfold`` with these settings."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        """``F.unfold(input, ...)``: (N, C, H, W) -> (N, C * kH * kW, blocks)."""
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        """``kernel_size=2, dilation=1, padding=0, stride=1``."""
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class Fold(Module):
    """Columns added back into an image of ``output_size``: ``F.fold`` with these settings."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        """``F.fold(input, output_size, ...)``: (N, C * kH * kW, blocks) -> (N, C, *output_size)."""
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        """``output_size=(4, 5), kernel_size=2, dilation=1, padding=0, stride=2``."""
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")
