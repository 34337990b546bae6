"""x ** y as PyTorch's CPU computes it for float32, step by step (SLEEF's ``powf``, u10).

PyTorch's ``pow`` kernel takes a few exponents apart (0, 1, 2, 3, -2, 0.5, -0.5 and -1 become
a fill, a copy, products, a reciprocal or square roots), and sends every other power of a
float32 tensor, eight numbers at a time, to the SLEEF library's ``Sleef_powf8_u10``; the
numbers left over after the last whole pair of vectors go to the C library's ``pow`` (see
``_vectorized_loop``). SLEEF's method is published: x ** y = e ** (y log |x|), the logarithm
and the product carried as float32 *pairs* (high, low) for the precision one float32 lacks,
then the sign and the special cases (zeros, infinities, nan) set by IEEE's rules. minigrad
follows it in numpy, rounding to float32 after every step as the CPU does (a fused
multiply-add rounds once: ``_fma``), so the results are PyTorch's to the last bit.
"""
import numpy as np

from ._sleef_float_pairs import _square, _times_number, _times_pair
from ._sleef_mathfun import _fma

f32 = np.float32


# --- float32 pairs (high, low): the steps SLEEF's logkf and expkf need (see _sleef_float_pairs) --

def _sum(x, y):
    """number + number as a pair, whatever their sizes (Knuth's two-sum)."""
    high = x + y
    back = high - x
    return high, (x - (high - back)) + (y - back)


def _add_number(x, y):
    """pair + number, whatever their sizes."""
    high, low = _sum(x[0], y)
    return high, low + x[1]


def _add_larger_first(x, y):
    """pair + pair when |x| >= |y|."""
    high = x[0] + y[0]
    return high, (((x[0] - high) + y[0]) + x[1]) + y[1]


def _add(x, y):
    """pair + pair, whatever their sizes."""
    high, low = _sum(x[0], y[0])
    return high, low + (x[1] + y[1])


def _divide(n, d):
    """pair / pair: the quotient of the high parts, corrected with multiply-adds."""
    reciprocal = f32(1) / d[0]
    high = n[0] * reciprocal
    error = _fma(reciprocal, n[0], -high)
    correction = _fma(-d[1], reciprocal, _fma(-d[0], reciprocal, f32(1)))
    return high, _fma(high, correction, _fma(n[1], reciprocal, error))


def _cvt_int32(values):
    """float32 -> int32 rounded to nearest, as the CPU's cvtps2dq (out of range or nan: -2**31)."""
    rounded = np.rint(values)
    inside = np.abs(rounded) < 2.0 ** 31            # (false for nan)
    return np.where(inside, rounded, 0).astype(np.int32) | np.where(inside, 0, np.int32(-2 ** 31))


def _ldexp(x, q):
    """x * 2**q as SLEEF's vldexp: four equal powers of two, then the rest (no 2**q overflows)."""
    sign = q >> 31
    m = (((sign + q) >> 6) - sign) << 4
    q = q - (m << 2)
    m = m + 0x7f
    m = np.where(m > 0, m, 0)
    m = np.where(m > 0xff, 0xff, m).astype(np.int32)
    u = (m << 23).view(f32)
    x = x * u * u * u * u
    return x * ((q + 0x7f) << 23).astype(np.int32).view(f32)


# --- log |x| as a pair ------------------------------------------------------------------------

_LN2_PAIR = (f32(0.69314718246459960938), f32(-1.904654323148236017e-09))
_SMALLEST_NORMAL = f32(1.17549435e-38)


def _log_pair(d):
    """log(d) as a pair for d >= 0 (SLEEF's logkf): d = 2**e m with m in [0.75, 1.5),
    log d = e ln 2 + 2 atanh(x), x = (m - 1) / (m + 1), the series in x**2 partly as pairs."""
    tiny = d < _SMALLEST_NORMAL
    d = np.where(tiny, d * f32(2.0 ** 64), d)
    e = (((d * f32(1 / 0.75)).view(np.int32) >> 23) & 0xff) - 0x7f
    m = (d.view(np.int32) + ((-e) << 23)).view(f32)
    e = np.where(tiny, e - 64, e)
    x = _divide(_sum(np.full_like(m, -1), m), _sum(np.full_like(m, 1), m))
    x2 = _square(x)
    t = _fma(np.full_like(m, f32(0.240320354700088500976562)), x2[0], f32(0.285112679004669189453125))
    t = _fma(t, x2[0], f32(0.400007992982864379882812))
    c = (f32(0.66666662693023681640625), f32(3.69183861259614332084311e-09))
    s = _times_number(_LN2_PAIR, e.astype(f32))
    s = _add_larger_first(s, (x[0] * f32(2), x[1] * f32(2)))
    return _add_larger_first(s, _times_pair(_times_pair(x2, x), _add(_times_number(x2, t), c)))


# --- e ** (a pair) ----------------------------------------------------------------------------

_INV_LN2 = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HIGH, _LN2_LOW = f32(0.693145751953125), f32(1.428606765330187045e-06)
_EXP_P = (0.00136324646882712841033936, 0.00836596917361021041870117, 0.0416710823774337768554688,
          0.166665524244308471679688, 0.499999850988388061523438)


def _exp_of_pair(d):
    """e ** d of a pair d (SLEEF's expkf): d = q ln 2 + s, e**s = 1 + s + s**2 P(s) as pairs."""
    q = _cvt_int32((d[0] + d[1]) * _INV_LN2)
    qf = q.astype(f32)
    s = _add_number(d, qf * -_LN2_HIGH)
    s = _add_number(s, qf * -_LN2_LOW)
    high = s[0] + s[1]
    s = high, (s[0] - high) + s[1]
    u = np.full_like(high, f32(_EXP_P[0]))
    for c in _EXP_P[1:]:
        u = _fma(u, s[0], f32(c))
    t = _add_larger_first(s, _times_number(_square(s), u))
    one_plus = f32(1) + t[0]
    t = one_plus, ((f32(1) - one_plus) + t[0]) + t[1]
    out = _ldexp(t[0] + t[1], q)
    out[d[0] < -104] = 0
    return out


# --- pow ----------------------------------------------------------------------------------------

def pow(x, y):
    """x ** y of float32 arrays (broadcast together), as SLEEF's ``powf`` (u10), bit for bit."""
    x, y = np.broadcast_arrays(np.asarray(x, f32), np.asarray(y, f32))
    shape = x.shape
    x, y = x.reshape(-1), y.reshape(-1)
    with np.errstate(all="ignore"):
        y_is_int = (np.trunc(y) == y) | (np.abs(y) > f32(1 << 24))
        truncated = _cvt_int32(np.trunc(y))
        y_is_odd = ((truncated & 1) == 1) & y_is_int & (np.abs(y) < f32(1 << 24))
        out = _exp_of_pair(_times_number(_log_pair(np.abs(x)), y))
        out[np.isnan(out)] = np.inf
        sign = np.where(x > 0, f32(1), np.where(y_is_int, np.where(y_is_odd, f32(-1), f32(1)), f32(np.nan)))
        out = out * sign
        distance = np.abs(x) - f32(1)
        distance = np.where(np.signbit(y), -distance, distance)     # |x| vs 1, times y's sign
        at_inf = np.where(distance == 0, f32(1), np.where(distance < 0, f32(0), f32(np.inf)))
        out = np.where(np.isinf(y), at_inf, out)
        edge = np.where(np.signbit(y) ^ (x == 0), f32(0), f32(np.inf))
        edge = np.copysign(edge, np.where(y_is_odd, x, f32(1)))
        out = np.where(np.isinf(x) | (x == 0), edge, out)
        out = np.where(np.isnan(x) | np.isnan(y), f32(np.nan), out)
        out = np.where((y == 0) | (x == 1), f32(1), out)
    return out.astype(f32, copy=False).reshape(shape)
