"""Initialising weights, as in ``torch.nn.init``.

Every function changes its tensor in place inside ``no_grad`` (so it works on
Parameters, which require grad) and returns it. The ``kaiming_*`` and
``xavier_*`` functions choose the spread of the random numbers from the
tensor's shape, so that signals neither blow up nor die out layer after layer.
"""
import math
import warnings

from ..autograd.grad_mode import no_grad
from .. import _dtype


def calculate_gain(nonlinearity, param=None):
    """The factor by which an activation function shrinks a signal's spread, compensated in init."""
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                        "conv_transpose2d", "conv_transpose3d", "sigmoid"):
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    """fan_in: inputs that feed one output unit; fan_out: outputs one input unit feeds."""
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field = 1                 # for convolutions: the size of one kernel
    for size in tensor.shape[2:]:
        receptive_field *= size
    fan_in = tensor.shape[1] * receptive_field      # a Linear weight is (out, in)
    fan_out = tensor.shape[0] * receptive_field
    return fan_in, fan_out


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _check_floating(tensor, kernel):
    """Random numbers fill only float tensors; PyTorch names the kernel it has no int version of."""
    if not tensor.is_floating_point():
        raise NotImplementedError(
            f'"{kernel}" not implemented for \'{_dtype.scalar_type_name(tensor.dtype)}\'')


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill with numbers drawn uniformly from [a, b)."""
    _check_floating(tensor, "check_uniform_bounds")
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill with numbers drawn from the normal distribution N(mean, std**2)."""
    _check_floating(tensor, "normal_kernel_cpu")
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor, val):
    """Fill with ``val``."""
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    """Fill with 1."""
    with no_grad():
        return tensor.fill_(1.0)


def zeros_(tensor):
    """Fill with 0."""
    with no_grad():
        return tensor.zero_()


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot init: uniform in [-a, a] with a = gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std        # a uniform on [-b, b] has std b / sqrt(3)
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot init: normal with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He init: uniform in [-b, b] with b = gain * sqrt(3 / fan); ``a`` is leaky_relu's slope.

    ``Linear`` uses ``a=sqrt(5)``, which gives b = 1 / sqrt(fan_in).
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He init: normal with std = gain / sqrt(fan)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0.0, std, generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill with numbers from N(mean, std**2) cut to [a, b], drawn as PyTorch draws them:

    - when [a, b] holds more than 30% of the distribution, draw normal numbers and draw again
      those that fall outside, until none does;
    - otherwise draw uniformly in [a, b] and keep each number x with probability
      exp(-(x - mean)**2 / (2 std**2)) relative to the peak, drawing the rejected ones again.
    """
    def normal_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)
    from .._creation import empty_like
    from .._ops.pointwise import where
    with no_grad():
        inside = normal_cdf((b - mean) / std) - normal_cdf((a - mean) / std)
        if inside > 0.3:
            low, high = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()
            drawn = tensor.normal_(mean, std, generator=generator)
            while True:
                outside = (drawn < low) | (drawn > high)
                if not outside.any():
                    break
                drawn = where(outside, empty_like(drawn).normal_(mean, std, generator=generator),
                              drawn)
            if drawn is not tensor:
                tensor.copy_(drawn)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2
        candidates, accept = empty_like(tensor), empty_like(tensor)
        tensor.uniform_(a, b, generator=generator)
        candidates.copy_(tensor)
        candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)     # log density - log peak
        pending = accept.uniform_(generator=generator).log_().gt(candidates)
        if pending.any():
            drawn = tensor
            while True:
                candidates.uniform_(a, b, generator=generator)
                drawn = where(pending, candidates, drawn)
                candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
                pending = where(pending, accept.uniform_(generator=generator).log_().gt(candidates),
                                pending)
                if not pending.any():
                    break
            tensor.copy_(drawn)
        return tensor


def eye_(tensor):
    """Fill a 2-d tensor with the identity matrix (ones on the diagonal), keeping its identity
    in Linear layers."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        tensor.zero_()
        tensor.fill_diagonal_(1)
    return tensor


def dirac_(tensor, groups=1):
    """Fill a 3, 4 or 5-d convolution weight so that the convolution passes its input through
    (a 1 at the centre of each matching input/output channel pair, per group)."""
    dimensions = tensor.ndimension()
    if dimensions not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    with no_grad():
        tensor.zero_()
        for group in range(groups):
            for d in range(min(out_per_group, sizes[1])):
                centre = tuple(size // 2 for size in sizes[2:])
                tensor[(group * out_per_group + d, d) + centre] = 1
    return tensor


def orthogonal_(tensor, gain=1, generator=None):
    """Fill with a (semi-)orthogonal matrix: the Q of the QR factorization of a normal random
    matrix, its signs fixed by R's diagonal, times ``gain`` (tensors of more than 2 dims are
    seen as rows x everything else)."""
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    from ..linalg import qr
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
    if rows < cols:
        flattened.t_()
    q, r = qr(flattened)
    q *= r.diag(0).sign()           # the signs that make the factorization unique
    if rows < cols:
        q.t_()
    with no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Fill a 2-d tensor with N(0, std**2) numbers, then zero a fraction ``sparsity`` of each
    column (rows chosen by randperm)."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    from .._creation import randperm
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for column in range(cols):
            tensor[randperm(rows)[:num_zeros], column] = 0
    return tensor


def _deprecated(function):
    """The old name without the trailing underscore, which warns as PyTorch's does."""
    new_name = function.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
                      FutureWarning, stacklevel=2)
        return function(*args, **kwargs)

    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    deprecated_init.__doc__ = f"Deprecated: use ``nn.init.{new_name}``."
    return deprecated_init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
