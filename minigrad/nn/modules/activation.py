"""Activation functions as layers (PyTorch: torch/nn/modules/activation.py).

Each one only calls the function of the same name; being a Module lets it sit
inside a ``Sequential``.
"""
import warnings

from .. import functional as F
from .module import Module


class ReLU(Module):
    """max(x, 0), element by element."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """``F.relu(input, inplace)``: max(input, 0) (in place with ``inplace=True``)."""
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        """``inplace=True`` in the printed module, when it is set (as PyTorch prints it)."""
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    """tanh(x), element by element."""

    def forward(self, input):
        """``tanh(input)``."""
        return F.tanh(input)


class Sigmoid(Module):
    """1 / (1 + exp(-x)), element by element."""

    def forward(self, input):
        """``sigmoid(input)``."""
        return F.sigmoid(input)


class LogSigmoid(Module):
    """log(sigmoid(x)), element by element, without overflow."""

    def forward(self, input):
        """``F.logsigmoid(input)``."""
        return F.logsigmoid(input)


class GLU(Module):
    """The gated linear unit: a * sigmoid(b), a and b the two halves of the input along ``dim``."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        """``F.glu(input, dim)``."""
        return F.glu(input, self.dim)

    def extra_repr(self):
        """The setting PyTorch prints: ``dim=-1``."""
        return f"dim={self.dim}"


class LeakyReLU(Module):
    """x where x > 0, else negative_slope * x."""

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        """``F.leaky_relu(input, negative_slope, inplace)``."""
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        """The settings PyTorch prints: ``negative_slope=0.01``, plus ``inplace=True`` if set."""
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    """x where x > 0, else alpha * (exp(x) - 1): smooth below 0, with the slope 1 above."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        """``F.elu(input, alpha, inplace)``."""
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        """The settings PyTorch prints: ``alpha=1.0``, plus ``inplace=True`` if set."""
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Hardtanh(Module):
    """x cut off to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        # (min_value and max_value: the bounds' old names, still taken with PyTorch's warning)
        for old_name, new_name, value in (("min_value", "min_val", min_value), ("max_value", "max_val", max_value)):
            if value is not None:
                warnings.warn(f"keyword argument `{old_name}` is deprecated and renamed to `{new_name}`",
                              FutureWarning, stacklevel=2)
        min_val = min_val if min_value is None else min_value
        max_val = max_val if max_value is None else max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        """``F.hardtanh(input, min_val, max_val, inplace)``."""
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        """The settings PyTorch prints: ``min_val=-1.0, max_val=1.0``, plus ``inplace=True`` if set."""
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class ReLU6(Hardtanh):
    """min(max(x, 0), 6): Hardtanh with the bounds 0 and 6."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    # forward is Hardtanh's: F.hardtanh(input, 0.0, 6.0), so the node shows the bounds as
    # the floats 0.0 and 6.0, as PyTorch's does (F.relu6 passes the whole numbers 0 and 6)

    def extra_repr(self):
        """PyTorch prints only ``inplace=True``, if set."""
        return "inplace=True" if self.inplace else ""


class Threshold(Module):
    """x where x > threshold, else value."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        """``F.threshold(input, threshold, value, inplace)``."""
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        """The settings PyTorch prints: ``threshold=0.1, value=20.0``, plus ``inplace=True`` if set."""
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta: a smooth ReLU."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        """``F.softplus(input, beta, threshold)``."""
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        """The settings PyTorch prints: ``beta=1.0, threshold=20.0``."""
        return f"beta={self.beta}, threshold={self.threshold}"


class Softmax(Module):
    """exp(x) / sum(exp(x)) along ``dim``: scores to probabilities."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        """``F.softmax(input, dim)``."""
        return F.softmax(input, self.dim)

    def extra_repr(self):
        """The setting PyTorch prints: ``dim=...``."""
        return f"dim={self.dim}"


class Softmin(Module):
    """exp(-x) / sum(exp(-x)) along ``dim``: the smallest score gets the largest probability."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        """``F.softmin(input, dim)``."""
        return F.softmin(input, self.dim)

    def extra_repr(self):
        """The setting PyTorch prints: ``dim=...``."""
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """log(softmax(x)) along ``dim``, computed without overflow."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        """``F.log_softmax(input, dim)``."""
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        """The setting PyTorch prints: ``dim=...``."""
        return f"dim={self.dim}"


class SELU(Module):
    """Scaled ELU: scale * (x, or alpha * (exp(x) - 1) below 0), with selu's fixed constants."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """``F.selu(input, inplace)``."""
        return F.selu(input, self.inplace)

    def extra_repr(self):
        """``inplace=True`` in the printed module, when it is set (as PyTorch prints it)."""
        return "inplace=True" if self.inplace else ""


class CELU(Module):
    """x where x > 0, else alpha * (exp(x / alpha) - 1): an ELU with slope 1 on both sides of 0."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        """``F.celu(input, alpha, inplace)``."""
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        """The settings PyTorch prints: ``alpha=1.0``, plus ``inplace=True`` if set."""
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Hardsigmoid(Module):
    """min(max(x + 3, 0), 6) / 6: a sigmoid made of straight pieces."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """``F.hardsigmoid(input, inplace)``."""
        return F.hardsigmoid(input, self.inplace)

    # (PyTorch prints Hardsigmoid() even with inplace=True: no extra_repr)


class Hardswish(Module):
    """x * min(max(x + 3, 0), 6) / 6: swish (x * sigmoid(x)) made of straight pieces."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """``F.hardswish(input, inplace)``."""
        return F.hardswish(input, self.inplace)

    # (PyTorch prints Hardswish() even with inplace=True: no extra_repr)


class Mish(Module):
    """x * tanh(softplus(x)): smooth, not monotonic, unbounded above."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """``F.mish(input, inplace)``."""
        return F.mish(input, self.inplace)

    def extra_repr(self):
        """``inplace=True`` in the printed module, when it is set (as PyTorch prints it)."""
        return "inplace=True" if self.inplace else ""


class GELU(Module):
    """x * Phi(x), Phi the standard normal CDF (or its tanh approximation, approximate='tanh')."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        """``F.gelu(input, approximate)``."""
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        """The setting PyTorch prints: ``approximate='none'``."""
        return f"approximate={self.approximate!r}"


class Hardshrink(Module):
    """x where |x| > lambd, else 0: small values set to 0."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        """``F.hardshrink(input, lambd)``."""
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        """lambd, as PyTorch prints it: ``Hardshrink(0.5)``."""
        return f"{self.lambd}"


class Softshrink(Module):
    """x - lambd above lambd, x + lambd below -lambd, else 0: every value moved lambd towards 0."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        """``F.softshrink(input, lambd)``."""
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        """lambd, as PyTorch prints it: ``Softshrink(0.5)``."""
        return str(self.lambd)


class Tanhshrink(Module):
    """x - tanh(x)."""

    def forward(self, input):
        """``F.tanhshrink(input)``."""
        return F.tanhshrink(input)


class Softsign(Module):
    """x / (1 + |x|)."""

    def forward(self, input):
        """``F.softsign(input)``."""
        return F.softsign(input)


class PReLU(Module):
    """x where x > 0, else a * x, with the slope a learned: one for all channels
    (``num_parameters=1``) or one per channel (dim 1 of the input), each starting at ``init``."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        from ..._creation import empty
        from ..parameter import Parameter
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(empty(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        """Every slope set to ``init`` again."""
        from ...autograd.grad_mode import no_grad
        with no_grad():
            self.weight.fill_(self.init)

    def forward(self, input):
        """``F.prelu(input, weight)``."""
        return F.prelu(input, self.weight)

    def extra_repr(self):
        """The setting PyTorch prints: ``num_parameters=1``."""
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    """x where x >= 0, else a * x, a drawn uniformly from [lower, upper) for each element while
    training, (lower + upper) / 2 in eval mode."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        """``F.rrelu(input, lower, upper, self.training, inplace)``."""
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        """The settings PyTorch prints: ``lower=0.125, upper=0.333...``, plus ``inplace=True`` if set."""
        return f"lower={self.lower}, upper={self.upper}" + (", inplace=True" if self.inplace else "")


class Softmax2d(Module):
    """softmax over the channels (dim -3) at every position of a (C, H, W) or (N, C, H, W) input."""

    def forward(self, input):
        """``F.softmax(input, -3)`` for a 3-d or 4-d input."""
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3)


class SiLU(Module):
    """x * sigmoid(x) (also called swish)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """``F.silu(input, inplace)``."""
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        """``inplace=True`` in the printed module, when it is set (as PyTorch prints it)."""
        return "inplace=True" if self.inplace else ""


from ._multihead_attention import MultiheadAttention  # noqa: E402,F401  (PyTorch keeps it in this module)
