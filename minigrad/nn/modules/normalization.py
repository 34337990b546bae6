"""``LayerNorm``, ``GroupNorm``, ``RMSNorm`` (PyTorch: torch/nn/modules/normalization.py).

Each keeps a learnable scale ``weight`` (ones at the start) and, except RMSNorm, a shift
``bias`` (zeros), so a fresh layer only normalizes; training then finds the best scale and shift.
"""
import numbers

from ..._creation import empty
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


def _add_scale_and_shift(module, shape, learnable, bias, dtype):
    """The parameters ``weight`` and ``bias`` of ``shape`` (None where not ``learnable``, and
    bias None without ``bias``), registered in PyTorch's order; their values come from
    ``_reset_scale_and_shift``."""
    module.register_parameter("weight", Parameter(empty(shape, dtype=dtype)) if learnable else None)
    module.register_parameter("bias", Parameter(empty(shape, dtype=dtype)) if learnable and bias else None)


def _reset_scale_and_shift(module):
    """weight = 1 and bias = 0 (where the module has them)."""
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class LayerNorm(Module):
    """Normalize each sample over its last dims (``normalized_shape``): mean 0, variance 1,
    then ``* weight + bias`` (one number per element of ``normalized_shape``)."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _add_scale_and_shift(self, self.normalized_shape, elementwise_affine, bias, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        """weight = 1 and bias = 0: a fresh layer only normalizes."""
        _reset_scale_and_shift(self)

    def forward(self, input):
        """``F.layer_norm(input, normalized_shape, weight, bias, eps)``."""
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        """The settings PyTorch prints: ``(4,), eps=1e-05, elementwise_affine=True, bias=True``."""
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class GroupNorm(Module):
    """Split the channels (dim 1) into ``num_groups`` groups, normalize each group of each
    sample, then ``* weight + bias`` per channel."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _add_scale_and_shift(self, (num_channels,), affine, bias, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        """weight = 1 and bias = 0."""
        _reset_scale_and_shift(self)

    def forward(self, input):
        """``F.group_norm(input, num_groups, weight, bias, eps)``."""
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        """The settings PyTorch prints: ``2, 4, eps=1e-05, affine=True, bias=True``."""
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    """Divide each sample by the root mean square over its last dims, then ``* weight``.

    ``eps=None`` uses the machine epsilon of the input's dtype.
    """

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(empty(self.normalized_shape, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self):
        """weight = 1."""
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        """``F.rms_norm(x, normalized_shape, weight, eps)``."""
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        """The settings PyTorch prints: ``(4,), eps=None, elementwise_affine=True``."""
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class LocalResponseNorm(Module):
    """Normalize each element by the squares of its ``size`` neighbours across channels
    (AlexNet): x / (k + alpha * mean(x^2 over the window))^beta."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        """``F.local_response_norm(input, size, alpha, beta, k)``."""
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        """``size, alpha=..., beta=..., k=...``, as PyTorch prints them."""
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
