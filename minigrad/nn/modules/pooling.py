"""Pooling layers: ``MaxPool1d/2d/3d``, ``AvgPool1d/2d/3d``, ``AdaptiveAvgPool1d/2d/3d``,
``AdaptiveMaxPool1d/2d/3d``, ``LPPool1d/2d/3d``, ``MaxUnpool1d/2d/3d``, ``FractionalMaxPool2d/3d``
(PyTorch: torch/nn/modules/pooling.py).

They have no parameters: each keeps its settings and calls the function of the same name
in ``F`` (minigrad/nn/_pooling.py, where the windows and the gradients are explained).
"""
from .. import functional as F
from .module import Module


def _tuple_of(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size    # (the windows side by side)
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        """``kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False``, as PyTorch prints them."""
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """The largest value of each window along the last dim: ``F.max_pool1d`` with these settings."""

    def forward(self, input):
        """``F.max_pool1d(input, ...)`` (and the indices too, with return_indices=True)."""
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    """The largest value of each window of each channel: ``F.max_pool2d`` with these settings.

    ``MaxPool2d(2)`` halves the height and the width, keeping the largest of each 2x2 block.
    """

    def forward(self, input):
        """``F.max_pool2d(input, ...)`` (and the indices too, with return_indices=True)."""
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool3d(_MaxPoolNd):
    """The largest value of each 3-d window of each channel: ``F.max_pool3d`` with these settings."""

    def forward(self, input):
        """``F.max_pool3d(input, ...)`` (and the indices too, with return_indices=True)."""
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class _AvgPoolNd(Module):
    def extra_repr(self):
        """``kernel_size=2, stride=2, padding=0`` (a 1-d layer keeps 1-tuples: ``kernel_size=(3,), ...``)."""
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    """The mean of each window along the last dim: ``F.avg_pool1d`` with these settings."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        # (PyTorch keeps these as 1-tuples here, and prints them so)
        self.kernel_size = _tuple_of(kernel_size, 1)
        self.stride = _tuple_of(stride if stride is not None else kernel_size, 1)
        self.padding = _tuple_of(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        """``F.avg_pool1d(input, ...)``."""
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AvgPool2d(_AvgPoolNd):
    """The mean of each window of each channel: ``F.avg_pool2d`` with these settings."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        """``F.avg_pool2d(input, ...)``."""
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AvgPool3d(_AvgPoolNd):
    """The mean of each 3-d window of each channel: ``F.avg_pool3d`` with these settings."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        """``F.avg_pool3d(input, ...)``."""
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class _AdaptivePoolNd(Module):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        if return_indices or type(self).__name__.startswith("AdaptiveMax"):
            self.return_indices = return_indices

    def extra_repr(self):
        """``output_size=...``."""
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePoolNd):
    """Average pooling to exactly ``output_size`` values per channel: ``F.adaptive_avg_pool1d``."""

    def __init__(self, output_size):
        super().__init__(output_size)

    def forward(self, input):
        """``F.adaptive_avg_pool1d(input, output_size)``."""
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptivePoolNd):
    """Average pooling to exactly ``output_size`` (height, width) per channel: ``F.adaptive_avg_pool2d``.

    ``AdaptiveAvgPool2d(1)`` is the mean of each channel ("global average pooling").
    """

    def __init__(self, output_size):
        super().__init__(output_size)

    def forward(self, input):
        """``F.adaptive_avg_pool2d(input, output_size)``."""
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveMaxPool1d(_AdaptivePoolNd):
    """Max pooling to exactly ``output_size`` values per channel: ``F.adaptive_max_pool1d``."""

    def forward(self, input):
        """``F.adaptive_max_pool1d(input, output_size, return_indices)``."""
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptivePoolNd):
    """Max pooling to exactly ``output_size`` (height, width) per channel: ``F.adaptive_max_pool2d``."""

    def forward(self, input):
        """``F.adaptive_max_pool2d(input, output_size, return_indices)``."""
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveAvgPool3d(_AdaptivePoolNd):
    """Average pooling to exactly ``output_size`` (depth, height, width) per channel: ``F.adaptive_avg_pool3d``."""

    def __init__(self, output_size):
        super().__init__(output_size)

    def forward(self, input):
        """``F.adaptive_avg_pool3d(input, output_size)``."""
        return F.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool3d(_AdaptivePoolNd):
    """Max pooling to exactly ``output_size`` (depth, height, width) per channel: ``F.adaptive_max_pool3d``."""

    def forward(self, input):
        """``F.adaptive_max_pool3d(input, output_size, return_indices)``."""
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _LPPoolNd(Module):
    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride          # (kept as given: None prints as None)
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        """``norm_type=2, kernel_size=3, stride=None, ceil_mode=False``."""
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """The ``norm_type``-norm of each window along the last dim: ``F.lp_pool1d`` with these settings."""

    def forward(self, input):
        """``F.lp_pool1d(input, norm_type, kernel_size, stride, ceil_mode)``."""
        return F.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """The ``norm_type``-norm of each window of each channel: ``F.lp_pool2d`` with these settings."""

    def forward(self, input):
        """``F.lp_pool2d(input, norm_type, kernel_size, stride, ceil_mode)``."""
        return F.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool3d(_LPPoolNd):
    """The ``norm_type``-norm of each 3-d window of each channel: ``F.lp_pool3d`` with these settings."""

    def forward(self, input):
        """``F.lp_pool3d(input, norm_type, kernel_size, stride, ceil_mode)``."""
        return F.lp_pool3d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class _MaxUnpoolNd(Module):
    _dims = 2

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        # (kept as tuples, and printed so, as PyTorch does)
        self.kernel_size = _tuple_of(kernel_size, self._dims)
        self.stride = _tuple_of(stride if stride is not None else kernel_size, self._dims)
        self.padding = _tuple_of(padding, self._dims)

    def extra_repr(self):
        """``kernel_size=(2, 2), stride=(2, 2), padding=(0, 0)``."""
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool1d``: each value back at its index, zeros elsewhere."""

    _dims = 1

    def forward(self, input, indices, output_size=None):
        """``F.max_unpool1d(input, indices, ...)``."""
        return F.max_unpool1d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool2d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool2d``: each value back at its index, zeros elsewhere."""

    def forward(self, input, indices, output_size=None):
        """``F.max_unpool2d(input, indices, ...)``."""
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool3d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool3d``: each value back at its index, zeros elsewhere."""

    _dims = 3

    def forward(self, input, indices, output_size=None):
        """``F.max_unpool3d(input, indices, ...)``."""
        return F.max_unpool3d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class _FractionalMaxPoolNd(Module):
    _dims = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        self.kernel_size = _tuple_of(kernel_size, self._dims)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _tuple_of(output_size, self._dims) if output_size is not None else None
        self.output_ratio = _tuple_of(output_ratio, self._dims) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{type(self).__name__} requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Max pooling over pseudo-randomly placed windows: ``F.fractional_max_pool2d`` with these settings
    (new random places at every call, unless ``_random_samples`` is given)."""

    def forward(self, input):
        """``F.fractional_max_pool2d(input, ...)`` (and the indices too, with return_indices=True)."""
        return F.fractional_max_pool2d(input, self.kernel_size, self.output_size, self.output_ratio,
                                       self.return_indices, _random_samples=self._random_samples)


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Max pooling over pseudo-randomly placed 3-d windows: ``F.fractional_max_pool3d`` with these settings."""

    _dims = 3

    def forward(self, input):
        """``F.fractional_max_pool3d(input, ...)`` (and the indices too, with return_indices=True)."""
        return F.fractional_max_pool3d(input, self.kernel_size, self.output_size, self.output_ratio,
                                       self.return_indices, _random_samples=self._random_samples)
