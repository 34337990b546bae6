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


def uniform_(tensor, a=0.0, b=1.0):
    """Fill with numbers drawn uniformly from [a, b)."""
    _check_floating(tensor, "check_uniform_bounds")
    with no_grad():
        return tensor.uniform_(a, b)


def normal_(tensor, mean=0.0, std=1.0):
    """Fill with numbers drawn from the normal distribution N(mean, std**2)."""
    _check_floating(tensor, "normal_kernel_cpu")
    with no_grad():
        return tensor.normal_(mean, std)


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


def xavier_uniform_(tensor, gain=1.0):
    """Glorot init: uniform in [-a, a] with a = gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std        # a uniform on [-b, b] has std b / sqrt(3)
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor, gain=1.0):
    """Glorot init: normal with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """He init: uniform in [-b, b] with b = gain * sqrt(3 / fan); ``a`` is leaky_relu's slope.

    ``Linear`` uses ``a=sqrt(5)``, which gives b = 1 / sqrt(fan_in).
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """He init: normal with std = gain / sqrt(fan)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0.0, std)
