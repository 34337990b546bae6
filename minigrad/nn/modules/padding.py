"""Padding layers: ``ZeroPad1d/2d/3d``, ``ConstantPad1d/2d/3d``, ``ReflectionPad1d/2d/3d``,
``ReplicationPad1d/2d/3d``, ``CircularPad1d/2d/3d`` (PyTorch: torch/nn/modules/padding.py).

Each keeps ``padding`` as F.pad takes it - (left, right) for 1-d, (left, right, top, bottom)
for 2-d, then (front, back) for 3-d - and calls ``F.pad`` (minigrad/nn/_padding.py) with its mode.
"""
from .. import functional as F
from .module import Module


def _amounts(padding, dims):
    """2 -> (2, 2, 2, 2) for a 2-d layer: the same amount on every side."""
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * (2 * dims)


class _PadNd(Module):
    _dims = 2
    _mode = "constant"

    def __init__(self, padding):
        super().__init__()
        self.padding = _amounts(padding, self._dims)

    def forward(self, input):
        """``F.pad(input, padding, mode)``."""
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        """The padding, e.g. ``(1, 1, 1, 1)``."""
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        """``F.pad(input, padding, 'constant', value)``."""
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        """``padding=(1, 1), value=0.5``."""
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with ``value``: (left, right)."""

    _dims = 1


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dims with ``value``: (left, right, top, bottom)."""


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dims with ``value``: (left, right, top, bottom, front, back)."""

    _dims = 3


class ZeroPad1d(ConstantPad1d):
    """Pad the last dim with zeros: (left, right)."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        """The padding, e.g. ``(1, 1)``."""
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pad the last two dims with zeros: (left, right, top, bottom)."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        """The padding, e.g. ``(1, 1, 1, 1)``."""
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pad the last three dims with zeros: (left, right, top, bottom, front, back)."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        """The padding, e.g. ``(1, 1, 1, 1, 1, 1)``."""
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    """Pad the last dim with its mirror image at each edge (the edge itself not repeated)."""

    _dims, _mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    """Pad the last two dims with their mirror image at each edge (the edge itself not repeated)."""

    _dims, _mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    """Pad the last three dims with their mirror image at each edge (the edge itself not repeated)."""

    _dims, _mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    """Pad the last dim by repeating its edge values."""

    _dims, _mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    """Pad the last two dims by repeating their edge values."""

    _dims, _mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    """Pad the last three dims by repeating their edge values."""

    _dims, _mode = 3, "replicate"


class CircularPad1d(_PadNd):
    """Pad the last dim by wrapping around: the left gets the right end, and vice versa."""

    _dims, _mode = 1, "circular"


class CircularPad2d(_PadNd):
    """Pad the last two dims by wrapping around."""

    _dims, _mode = 2, "circular"


class CircularPad3d(_PadNd):
    """Pad the last three dims by wrapping around."""

    _dims, _mode = 3, "circular"
