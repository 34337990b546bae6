"""Window functions: hann_window, hamming_window, blackman_window, bartlett_window, kaiser_window.

A window is a bell-shaped run of weights that tapers a signal to zero at both ends before a
Fourier transform (torch.stft). Each is built as PyTorch builds it, step by step in the
window's dtype (0, 1, 2, ... times a constant, a cosine, ...), so the values match to the
last bit. ``periodic=True`` (the default) computes one point more and drops it: the window
then repeats without a seam, as a spectrogram wants.
"""
import math

import numpy as np

from .._type_names import type_name
from .. import _dtype
from .._creation import _leaf
from .._dtype import cpp_name
from .._python_arg_parser import invalid_combination
from ..autograd.grad_mode import no_grad
from .._fused_multiply_add import fma64
from .bessel import _I0_SMALL, _I0_LARGE


def _options(dtype, requires_grad):
    """PyTorch prints the tensor options a bad window was asked with."""
    requires = "true" if requires_grad else "false (default)"
    return (f"TensorOptions(dtype={_cpp_type(dtype)}, device=cpu, layout=Strided (default), "
            f"requires_grad={requires}, pinned_memory=false, memory_format=(nullopt))")


def _cpp_type(dtype):
    names = {"int64": "long int", "int16": "short int", "float16": "c10::Half"}
    return names.get(dtype.name, cpp_name(dtype))


def _checked_length(name, window_length, dtype, requires_grad, given):
    """window_length must be an int (not a bool or float), >= 0, and the dtype floating."""
    if not isinstance(window_length, (int, np.integer)) or isinstance(window_length, bool):
        raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                        f"{type_name(window_length)}")
    for value in given:
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float, np.number))):
            raise invalid_combination(name, (window_length,) + tuple(v for v in given if v is not None), {})
    dtype = _dtype.get_default_dtype() if dtype is None else dtype
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: {_options(dtype, requires_grad)}")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    return dtype


def _window(name, window_length, periodic, dtype, requires_grad, shape, given=()):
    """The common steps: checks, the two short windows, one point more when periodic, and
    ``shape(n, length)`` giving the window of ``length`` points as a tensor (n = 0, 1, 2, ...)."""
    from .._creation import arange
    dtype = _checked_length(name, window_length, dtype, requires_grad, given)
    if not isinstance(periodic, bool):
        raise invalid_combination(name, (window_length, periodic), {})
    numpy_dtype = dtype.numpy_dtype
    if window_length == 0:
        return _leaf(np.empty(0, dtype=numpy_dtype), requires_grad)
    if window_length == 1:
        return _leaf(np.ones(1, dtype=numpy_dtype), requires_grad)
    length = window_length + 1 if periodic else window_length
    with no_grad():
        window = shape(arange(length, dtype=dtype), length)
    array = window._array[:window_length] if periodic else window._array
    return _leaf(np.ascontiguousarray(array), requires_grad)


_UNSET = object()      # (an argument not given: PyTorch's overloads need periodic before alpha or beta)


def _settings(name, window_length, periodic, numbers, defaults, keywords):
    """PyTorch's overloads: ``(n)``, ``(n, periodic)``, ``(n, periodic, alpha)``, ...: a number may
    only be given after all those before it."""
    given = [periodic] + list(numbers)
    if any(value is not _UNSET for value in given):
        last = max(i for i, value in enumerate(given) if value is not _UNSET)
        if any(value is _UNSET for value in given[:last]):
            shown = {key: value for key, value in zip(keywords, given) if value is not _UNSET}
            raise invalid_combination(name, (window_length,), shown)
    periodic = True if periodic is _UNSET else periodic
    return [periodic] + [default if value is _UNSET else value for value, default in zip(numbers, defaults)]


def hamming_window(window_length, periodic=_UNSET, alpha=_UNSET, beta=_UNSET, *, dtype=None, layout=None,
                   device=None, pin_memory=False, requires_grad=False):
    """The Hamming window: ``alpha - beta * cos(2 pi n / (N - 1))`` for n = 0 .. N-1 (alpha 0.54,
    beta 0.46 by default). ``periodic=True`` gives N = window_length + 1 with the last point dropped."""
    periodic, alpha, beta = _settings("hamming_window", window_length, periodic, (alpha, beta), (0.54, 0.46),
                                      ("periodic", "alpha", "beta"))

    def shape(n, length):
        return n.mul(math.pi * 2.0 / (length - 1)).cos().mul(-beta).add(alpha)
    return _window("hamming_window", window_length, periodic, dtype, requires_grad, shape, (alpha, beta))


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False):
    """The Hann window: ``0.5 - 0.5 * cos(2 pi n / (N - 1))``, zero at both ends (the usual
    window of a spectrogram). ``periodic=True`` gives N = window_length + 1, last point dropped."""
    _checked_length("hann_window", window_length, dtype, requires_grad, ())
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype, requires_grad=requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    pin_memory=False, requires_grad=False):
    """The Blackman window: ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``.
    ``periodic=True`` gives N = window_length + 1, last point dropped."""
    def shape(n, length):
        n = n.mul(math.pi / (length - 1))
        return n.mul(4).cos().mul(0.08) - n.mul(2).cos().mul(0.5) + 0.42
    return _window("blackman_window", window_length, periodic, dtype, requires_grad, shape)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    pin_memory=False, requires_grad=False):
    """The Bartlett (triangular) window: rising from 0 to 1 in the middle, back to 0 at the end.
    ``periodic=True`` gives N = window_length + 1, last point dropped."""
    def shape(n, length):
        n = n.mul(2.0 / (length - 1))
        first_half = ((length - 1) >> 1) + 1
        second = n[first_half:].mul(-1).add(2)
        n._array[first_half:] = second._array
        return n
    return _window("bartlett_window", window_length, periodic, dtype, requires_grad, shape)


def kaiser_window(window_length, periodic=_UNSET, beta=_UNSET, *, dtype=None, layout=None, device=None,
                  pin_memory=False, requires_grad=False):
    """The Kaiser window: ``i0(beta * sqrt(1 - ((n - a) / a)**2)) / i0(beta)`` with a = (N - 1) / 2;
    a larger ``beta`` (12 by default) gives a narrower bell. ``periodic=True`` gives
    N = window_length + 1, last point dropped."""
    periodic, beta = _settings("kaiser_window", window_length, periodic, (beta,), (12.0,), ("periodic", "beta"))

    def shape(n, length):
        # as PyTorch's CPU kernel: each point alone, in the dtype's own arithmetic, where the
        # compiler fused 1 - r*r into one multiply-add (one rounding)
        values = n._array
        kind = values.dtype.type
        alpha, b = kind((length - 1) / 2.0), kind(beta)
        r = (values - alpha) / alpha
        inside = np.sqrt(np.abs(_fused(-r, r, kind(1), kind)))
        n._array = (_calc_i0(b * inside, kind) / _calc_i0(np.asarray(b), kind)).astype(kind)
        return n
    return _window("kaiser_window", window_length, periodic, dtype, requires_grad, shape, (beta,))


def _fused(a, b, c, kind):
    """a * b + c rounded once (the CPU's fused multiply-add), in float32 or float64."""
    if kind is np.float32:
        return (np.asarray(a, np.float64) * np.asarray(b, np.float64) + c).astype(np.float32)
    return fma64(a, b, c)


def _chebyshev(coefficients, y, kind):
    """Cephes' chbevl in the dtype's arithmetic, each step ``y * b1 - b2`` fused, then ``+ c``."""
    b0, b1, b2 = np.full_like(y, kind(coefficients[0])), np.zeros_like(y), np.zeros_like(y)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = _fused(y, b1, -b2, kind) + kind(c)
    return kind(0.5) * (b0 - b2)


def _calc_i0(x, kind):
    """PyTorch's calc_i0 (its kernel's i0): exp(x) times the series on [0, 8], and beyond 8
    exp(x) times the other series, divided by sqrt(x) last."""
    x = np.abs(np.asarray(x, kind))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        grown = np.exp(x.astype(np.float64)).astype(kind)     # (exp correctly rounded, as glibc's)
        near = grown * _chebyshev(_I0_SMALL, x / kind(2) - kind(2), kind)
        beyond = np.maximum(x, kind(8))
        far = grown * _chebyshev(_I0_LARGE, kind(32) / beyond - kind(2), kind) / np.sqrt(beyond)
    return np.where(x <= 8, near, far)
