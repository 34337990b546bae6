"""``InstanceNorm1d``, ``InstanceNorm2d``, ``InstanceNorm3d`` (PyTorch: torch/nn/modules/instancenorm.py).

Each channel of each sample is normalized on its own, over its positions only (popular for
style transfer: the contrast of one image should not depend on the others in the batch).
Unlike BatchNorm, by default there is no weight and bias (``affine=False``) and no running
statistics (``track_running_stats=False``). An input without a batch dim is accepted too.
"""
import warnings

from .. import functional as F
from .batchnorm import _NormBase
from .lazy import _LazyNormBase


class _InstanceNorm(_NormBase):
    """What the three InstanceNorm layers share; they differ in the input dims they accept."""

    _dims_without_batch = 2

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False,
                 device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def _normalize(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input):
        """``F.instance_norm``; an input without batch dim gets one of size 1 for the call."""
        self._check_input_dim(input)
        channel_dim = input.dim() - self._dims_without_batch
        if input.size(channel_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={channel_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.size(channel_dim)}.")
            warnings.warn(f"input's size at dim={channel_dim} does not match num_features. You can silence "
                          "this warning by not passing in num_features, which is not used because affine=False",
                          stacklevel=2)
        if input.dim() == self._dims_without_batch:
            return self._normalize(input.unsqueeze(0)).squeeze(0)
        return self._normalize(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of (N, C, L) or (C, L) input."""

    _dims_without_batch = 2

    def _check_input_dim(self, input):
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of (N, C, H, W) or (C, H, W) input."""

    _dims_without_batch = 3

    def _check_input_dim(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"expected 3D or 4D input (got {input.dim()}D input)")


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of (N, C, D, H, W) or (C, D, H, W) input."""

    _dims_without_batch = 4

    def _check_input_dim(self, input):
        if input.dim() not in (4, 5):
            raise ValueError(f"expected 4D or 5D input (got {input.dim()}D input)")


class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm1d whose ``num_features`` is ``input.shape[1]`` of the first input; it then
    becomes an ``InstanceNorm1d``. Unlike the eager layer, affine and track_running_stats default
    to True, as in PyTorch."""

    cls_to_become = InstanceNorm1d
    _dims_without_batch = 2
    _check_input_dim = InstanceNorm1d._check_input_dim


class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm2d whose ``num_features`` is ``input.shape[1]`` of the first input; it then
    becomes an ``InstanceNorm2d``."""

    cls_to_become = InstanceNorm2d
    _dims_without_batch = 3
    _check_input_dim = InstanceNorm2d._check_input_dim


class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm3d whose ``num_features`` is ``input.shape[1]`` of the first input; it then
    becomes an ``InstanceNorm3d``."""

    cls_to_become = InstanceNorm3d
    _dims_without_batch = 4
    _check_input_dim = InstanceNorm3d._check_input_dim
