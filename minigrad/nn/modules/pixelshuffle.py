"""Layers that rearrange channels and pixels (as torch/nn/modules/pixelshuffle.py and
channelshuffle.py): PixelShuffle, PixelUnshuffle, ChannelShuffle."""
from .. import functional as F
from .module import Module


class PixelShuffle(Module):
    """(*, C r^2, H, W) -> (*, C, H r, W r): channels become blocks of pixels (r = upscale_factor)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        """``F.pixel_shuffle(input, self.upscale_factor)``."""
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        """``upscale_factor=...``, as PyTorch prints it."""
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H r, W r) -> (*, C r^2, H, W): blocks of pixels become channels (r = downscale_factor)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        """``F.pixel_unshuffle(input, self.downscale_factor)``."""
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        """``downscale_factor=...``, as PyTorch prints it."""
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    """Mix the channels of ``groups`` groups (ShuffleNet)."""

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        """``F.channel_shuffle(input, self.groups)``."""
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        """``groups=...``, as PyTorch prints it."""
        return f"groups={self.groups}"
