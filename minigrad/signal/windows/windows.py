"""SciPy-style windows, as PyTorch writes them: each a few tensor operations on evenly spaced points.

Unlike ``torch.hann_window`` (periodic by default), these are symmetric by default
(``sym=True``: the first and last points mirror each other, for filter design);
``sym=False`` gives the periodic window a spectrogram wants. With ``requires_grad=True``
the points require grad, so the window's operations are recorded as usual.
"""
import math
from collections.abc import Iterable

from ... import _dtype


def _checked(name, M, dtype, layout):
    """PyTorch's checks for every window; the dtype to use."""
    dtype = _dtype.get_default_dtype() if dtype is None else dtype
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not None and str(layout) != "torch.strided":
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype.name not in ("float32", "float64"):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _empty(dtype, requires_grad):
    from ..._creation import empty
    return empty((0,), dtype=dtype, requires_grad=requires_grad)


def _one(dtype, requires_grad):
    from ..._creation import ones
    return ones((1,), dtype=dtype, requires_grad=requires_grad)


def _points(start, end, M, dtype, requires_grad):
    from ..._creation import linspace
    return linspace(start, end, M, dtype=dtype, requires_grad=requires_grad)


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=None, device=None,
                requires_grad=False):
    """The exponential (Poisson) window ``exp(-|n - center| / tau)``; ``center`` defaults to
    the middle, and can only be given for a periodic window (``sym=False``)."""
    from ..._ops.pointwise import exp, abs as absolute
    dtype = _checked("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _empty(dtype, requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    scale = 1 / tau
    k = _points(-center * scale, (-center + (M - 1)) * scale, M, dtype, requires_grad)
    return exp(-absolute(k))


def cosine(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The cosine (sine) window ``sin(pi (n + 0.5) / M)``, as SciPy's: not zero at the ends."""
    from ..._ops.pointwise import sin
    dtype = _checked("cosine", M, dtype, layout)
    if M == 0:
        return _empty(dtype, requires_grad)
    step = math.pi / (M + 1 if not sym and M > 1 else M)
    return sin(_points(0.5 * step, (0.5 + (M - 1)) * step, M, dtype, requires_grad))


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The Gaussian window ``exp(-(n - middle)**2 / (2 std**2))``."""
    from ..._ops.pointwise import exp
    dtype = _checked("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _empty(dtype, requires_grad)
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    scale = 1 / (std * math.sqrt(2))
    k = _points(start * scale, (start + (M - 1)) * scale, M, dtype, requires_grad)
    return exp(-k ** 2)


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The Kaiser window ``i0(sqrt(beta**2 - k**2)) / i0(beta)`` for k evenly from -beta to beta."""
    from ..._creation import tensor
    from ..._ops.pointwise import sqrt, minimum, pow
    from ..._ops.bessel import i0
    dtype = _checked("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    if M == 0:
        return _empty(dtype, requires_grad)
    if M == 1:
        return _one(dtype, requires_grad)
    beta = tensor(beta, dtype=dtype)
    start = -beta
    step = 2.0 * beta / (M if not sym else M - 1)
    end = minimum(beta, start + (M - 1) * step)
    k = _points(start, end, M, dtype, requires_grad)
    return i0(sqrt(beta * beta - pow(k, 2))) / i0(beta)


def hamming(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The Hamming window: ``general_hamming`` with alpha = 0.54."""
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The Hann window: ``general_hamming`` with alpha = 0.5 (zero at both ends when symmetric)."""
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The Blackman window: ``general_cosine`` with a = [0.42, 0.5, 0.08]."""
    dtype = _checked("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout,
                          requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The Bartlett (triangular) window ``1 - |k|`` for k evenly from -1 to 1."""
    from ..._ops.pointwise import abs as absolute
    dtype = _checked("bartlett", M, dtype, layout)
    if M == 0:
        return _empty(dtype, requires_grad)
    if M == 1:
        return _one(dtype, requires_grad)
    step = 2 / (M if not sym else M - 1)
    return 1 - absolute(_points(-1, -1 + (M - 1) * step, M, dtype, requires_grad))


def general_cosine(M, *, a, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """A sum of cosines ``sum_i (-1)**i a[i] cos(i 2 pi n / (M - 1))`` (Hann, Hamming, Blackman
    and Nuttall are such sums)."""
    from ..._creation import tensor, arange
    from ..._ops.pointwise import cos
    dtype = _checked("general_cosine", M, dtype, layout)
    if M == 0:
        return _empty(dtype, requires_grad)
    if M == 1:
        return _one(dtype, requires_grad)
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    step = 2 * math.pi / (M if not sym else M - 1)
    k = _points(0, (M - 1) * step, M, dtype, requires_grad)
    weights = tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype, requires_grad=requires_grad)
    i = arange(weights.shape[0], dtype=weights.dtype, requires_grad=weights.requires_grad)
    return (weights.unsqueeze(-1) * cos(i.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """``alpha - (1 - alpha) cos(2 pi n / (M - 1))``: Hamming's window (0.54) and Hann's (0.5)."""
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout,
                          requires_grad=requires_grad)


nuttall_coefficients = (0.3635819, 0.4891775, 0.1365995, 0.0106411)


def nuttall(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The Nuttall window: ``general_cosine`` with Nuttall's four coefficients (very low side lobes)."""
    return general_cosine(M, a=list(nuttall_coefficients), sym=sym, dtype=dtype, layout=layout,
                          requires_grad=requires_grad)
