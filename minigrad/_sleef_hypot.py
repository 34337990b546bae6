"""The float64 ``hypot`` of PyTorch's CPU, step by step (SLEEF's ``Sleef_hypotd4_u05``).

PyTorch's AVX2 kernel takes hypot from SLEEF for whole vectors of numbers (the few left over
go through the C library's ``hypot``, as numpy's does: see ``_vectorized_loop``). SLEEF works
with the smaller and the larger of |x| and |y|: t = min / max as a pair (high, low) of float64,
then max * sqrt(1 + t**2), each step in pair arithmetic with fused multiply-adds, rounded once
at the end. (float32's ``hypotf`` agrees with numpy's to the last bit: nothing to do there.)
"""
import numpy as np

from ._fused_multiply_add import fma as _fma

_SMALLEST_NORMAL = 2.2250738585072014e-308


def _times_minus(x, y, z):
    """x * y - z, rounded once."""
    return _fma(x, y, -z)


def _minus_times(x, y, z):
    """z - x * y, rounded once."""
    return _fma(-x, y, z)


def hypot(x, y):
    """sqrt(x**2 + y**2) of float64 arrays, as SLEEF's hypot (u05), bit for bit."""
    x, y = np.abs(x), np.abs(y)
    smaller, larger = np.minimum(x, y), np.maximum(x, y)
    tiny = larger < _SMALLEST_NORMAL           # scaled up by 2**54 so that t keeps its bits
    with np.errstate(all="ignore"):
        n = np.where(tiny, smaller * float(1 << 54), smaller)
        d = np.where(tiny, larger * float(1 << 54), larger)
        # t = n / d as a pair
        reciprocal = 1.0 / d
        t_high = n * reciprocal
        t_low = _fma(t_high, _minus_times(d, reciprocal, 1.0), _times_minus(reciprocal, n, t_high))
        # 1 + t**2 as a pair
        square = t_high * t_high
        square_low = _fma(t_high + t_high, t_low, _times_minus(t_high, t_high, square))
        a_high = square + 1.0
        moved = a_high - square
        a_low = ((square - (a_high - moved)) + (1.0 - moved)) + square_low
        # its square root as a pair: (a + r*r) / r / 2, r the rounded root
        r = np.sqrt(a_high + a_low)
        r_square = r * r
        r_square_low = _times_minus(r, r, r_square)
        b_high = a_high + r_square
        moved = b_high - a_high
        b_low = ((a_high - (b_high - moved)) + (r_square - moved)) + (a_low + r_square_low)
        inverse = 1.0 / r
        inverse_low = inverse * _minus_times(r, inverse, 1.0)
        c_high = b_high * inverse
        c_low = _fma(b_high, inverse_low, _fma(b_low, inverse, _times_minus(b_high, inverse, c_high)))
        c_high, c_low = c_high * 0.5, c_low * 0.5
        # times the larger one
        e_high = c_high * larger
        out = e_high + _fma(c_low, larger, _times_minus(c_high, larger, e_high))
    out = np.where(np.isnan(out), np.inf, out)
    out = np.where(smaller == 0, larger, out)
    out = np.where(np.isnan(x) | np.isnan(y), np.nan, out)
    return np.where((x == np.inf) | (y == np.inf), np.inf, out)
