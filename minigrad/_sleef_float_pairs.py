"""The float32 ``expm1``, ``log1p``, ``sinh``, ``cosh`` and ``tanh`` of PyTorch's CPU, step by step (SLEEF's u10).

PyTorch takes ``exp`` and ``log`` from Intel's MKL, whose methods are not published, but
these from the SLEEF library (``Sleef_expm1f8_u10``, ...), whose methods are.
``expm1`` and ``log1p`` go through SLEEF for every number of the tensor (vectors of 8, the
last few in a part-filled vector); ``sinh`` and ``cosh`` for whole vectors only, the numbers
left over going through the C library's ``sinhf``/``coshf``, as numpy's float32 ones do
(see ``_vectorized_loop``). ``tanh`` is the one kernels written with PyTorch's vector type
call (``mish``'s; ``torch.tanh`` itself is MKL's). minigrad follows SLEEF's methods in numpy, rounding to float32
after every step as the CPU does, so the results are PyTorch's to the last bit.

They need more precision than one float32 holds near their hardest inputs, so they carry
numbers as *pairs* (high, low) of float32, whose exact sum is the value (double-float
arithmetic, after Dekker): the helpers below add and multiply such pairs with the rounding
error of each step kept in the low part. A fused multiply-add (``_fma``, one rounding) is
what the CPU's FMA instruction does; see ``_sleef_mathfun``.
"""
import numpy as np

from ._fused_multiply_add import fma as _fma
from ._sleef_mathfun import log

f32 = np.float32


# --- arithmetic on float32 pairs (high, low) ------------------------------------------------

def _add_pair_number(x, y):
    """pair + number, the rounding error of the high sum recovered exactly (any sizes)."""
    high = x[0] + y
    back = high - x[0]
    return high, ((x[0] - (high - back)) + (y - back)) + x[1]


def _add_pairs(x, y):
    """pair + pair, as _add_pair_number with both low parts added at the end."""
    high = x[0] + y[0]
    back = high - x[0]
    return high, ((x[0] - (high - back)) + (y[0] - back)) + (x[1] + y[1])


def _add_number_pair_larger_first(x, y):
    """number + pair when |number| >= |pair|: a cheaper way to the same exact error."""
    high = x + y[0]
    return high, ((x - high) + y[0]) + y[1]


def _add_pairs_larger_first(x, y):
    """pair + pair when |x| >= |y|: as _add_number_pair_larger_first, x's low part added too."""
    high = x[0] + y[0]
    return high, (((x[0] - high) + y[0]) + x[1]) + y[1]


def _times_number(x, y):
    """pair * number: the product's rounding error x.high * y - high from a multiply-add."""
    high = x[0] * y
    return high, _fma(x[1], y, _fma(x[0], y, -high))


def _times_pair(x, y):
    """pair * pair (the low * low term is too small to matter)."""
    high = x[0] * y[0]
    return high, _fma(x[0], y[1], _fma(x[1], y[0], _fma(x[0], y[0], -high)))


def _square(x):
    """pair * itself."""
    high = x[0] * x[0]
    return high, _fma(x[0] + x[0], x[1], _fma(x[0], x[0], -high))


# --- e**x as a pair, then expm1 ----------------------------------------------------------------

_INV_LN2 = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HIGH, _LN2_LOW = f32(0.693145751953125), f32(1.428606765330187045e-06)


def _times_power_of_two(d, q):
    """d * 2**q in two steps (2**(q//2), then the rest), so that 2**q itself never overflows."""
    half = q >> 1
    return d * np.ldexp(f32(1), half).astype(f32) * np.ldexp(f32(1), q - half).astype(f32)


def _exp_pair(a):
    """e**a as a float32 pair: a = q ln 2 + s, e**a = 2**q (1 + s + s^2 P(s)), the terms kept as pairs."""
    q = np.rint(a * _INV_LN2)
    s = _add_pair_number((a, np.zeros_like(a)), q * -_LN2_HIGH)
    s = _add_pair_number(s, q * -_LN2_LOW)
    u = np.full_like(a, f32(0.1980960224e-3))
    for c in (0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1):
        u = _fma(u, s[0], f32(c))
    t = _add_pair_number(_times_number(s, u), f32(0.166666659414234244790680580464))
    t = _add_pair_number(_times_pair(s, t), f32(0.5))
    t = _add_pairs(s, _times_pair(_square(s), t))
    t = _add_number_pair_larger_first(f32(1), t)
    q = np.where(np.isfinite(q), q, 0).astype(np.int32)
    high, low = _times_power_of_two(t[0], q), _times_power_of_two(t[1], q)
    underflow = a < -104
    high[underflow] = 0
    low[underflow] = 0
    return high, low


def expm1(a):
    """e**a - 1 of a float32 array, as SLEEF's ``expm1f`` (u10) computes it, bit for bit:
    e**a as a pair minus 1, so that the small difference keeps its precision."""
    shape = np.shape(a)
    a = np.asarray(a, f32).reshape(-1)        # (a 0-d array would give numpy scalars)
    with np.errstate(all="ignore"):
        high, low = _add_pair_number(_exp_pair(a), f32(-1))
        out = high + low
    out[a > f32(88.72283172607421875)] = np.inf
    out[a < f32(-16.635532333438687426013570)] = -1        # e**a below half a unit of 1
    out[(a == 0) & np.signbit(a)] = -0.0
    out[np.isnan(a)] = np.nan
    return out.reshape(shape)


def _reciprocal(d):
    """1 / pair, as a pair: the quotient of the high part, corrected by the error of d * it."""
    high = f32(1) / d[0]
    return high, high * _fma(-d[1], high, _fma(-d[0], high, f32(1)))


def _divide_pairs(n, d):
    """pair / pair: n's high part times 1 / d's, corrected by multiply-adds for the errors of
    that quotient, of the reciprocal and of both low parts."""
    reciprocal = f32(1) / d[0]
    high = n[0] * reciprocal
    error = _fma(reciprocal, n[0], -high)
    correction = _fma(-d[1], reciprocal, _fma(-d[0], reciprocal, f32(1)))
    return high, _fma(high, correction, _fma(n[1], reciprocal, error))


def sinh(x):
    """(e**x - e**-x) / 2 of a float32 array as SLEEF's ``sinhf`` (u10), bit for bit: e**|x|
    and its reciprocal as pairs, their difference as a pair, then halved, with x's sign."""
    shape = np.shape(x)
    x = np.asarray(x, f32).reshape(-1)        # (a 0-d array would give numpy scalars)
    with np.errstate(all="ignore"):
        grow = _exp_pair(np.abs(x))
        shrink = _reciprocal(grow)
        high = grow[0] - shrink[0]
        low = (((grow[0] - high) - shrink[0]) + grow[1]) - shrink[1]
        out = (high + low) * f32(0.5)
    out[(np.abs(x) > 89) | np.isnan(out)] = np.inf
    out = np.copysign(out, x)
    out[np.isnan(x)] = np.nan
    return out.reshape(shape)


def cosh(x):
    """(e**x + e**-x) / 2 of a float32 array as SLEEF's ``coshf`` (u10), bit for bit."""
    shape = np.shape(x)
    x = np.asarray(x, f32).reshape(-1)        # (a 0-d array would give numpy scalars)
    with np.errstate(all="ignore"):
        grow = _exp_pair(np.abs(x))
        shrink = _reciprocal(grow)
        high = grow[0] + shrink[0]
        low = (((grow[0] - high) + shrink[0]) + grow[1]) + shrink[1]
        out = (high + low) * f32(0.5)
    out[(np.abs(x) > 89) | np.isnan(out)] = np.inf
    out[np.isnan(x)] = np.nan
    return out.reshape(shape)


_TANH_IS_ONE = f32(8.664339742)      # above it, tanh rounds to 1 (SLEEF returns 1 outright)


def tanh(x):
    """(e**x - e**-x) / (e**x + e**-x) of a float32 array as SLEEF's ``tanhf`` (u10), bit for
    bit: e**|x| and its reciprocal as pairs, their difference and sum as pairs, the quotient
    of those as a pair, then x's sign. (SLEEF's NaN for a NaN has every bit set; this gives
    the plain one, as sinh and cosh do: callers set the bits their kernels show.)"""
    shape = np.shape(x)
    x = np.asarray(x, f32).reshape(-1)        # (a 0-d array would give numpy scalars)
    with np.errstate(all="ignore"):
        grow = _exp_pair(np.abs(x))
        shrink = _reciprocal(grow)
        difference = _add_pairs_larger_first(grow, (-shrink[0], -shrink[1]))
        total = _add_pairs_larger_first(grow, shrink)
        high, low = _divide_pairs(difference, total)
        out = high + low
    out[(np.abs(x) > _TANH_IS_ONE) | np.isnan(out)] = 1
    out = np.copysign(out, x)
    out[np.isnan(x)] = np.nan
    return out.reshape(shape)


# --- log1p ------------------------------------------------------------------------------------

_LN2_PAIR = (f32(0.69314718246459960938), f32(-1.904654323148236017e-09))
_LOG1P_LARGEST = f32(float.fromhex("0x1.2ced32p+126"))      # 1e38: above it, log(a) itself
_SMALLEST_NORMAL = f32(1.17549435e-38)


def log1p(a):
    """log(1 + a) of a float32 array, as SLEEF's ``log1pf`` (u10) computes it, bit for bit.

    1 + a = 2**e * (1 + m) with 1 + m in [0.75, 1.5), m computed from a without rounding
    1 + a first; log(1 + a) = e ln 2 + 2 atanh(m / (2 + m)), the first terms as pairs."""
    shape = np.shape(a)
    a = np.asarray(a, f32).reshape(-1)        # (a 0-d array would give numpy scalars)
    with np.errstate(all="ignore"):
        out = _log1p_core(a)
        large = a > _LOG1P_LARGEST
        if large.any():
            out[large] = log(a[large])
    out[(a < -1) | np.isnan(a)] = np.nan
    out[a == -1] = -np.inf
    out[(a == 0) & np.signbit(a)] = -0.0
    return out.reshape(shape)


def _log1p_core(a):
    """log1p for a in (-1, 1e38] (see log1p)."""
    one_plus_a = a + f32(1)
    tiny = one_plus_a < _SMALLEST_NORMAL                      # scaled up, to read its exponent
    one_plus_a = np.where(tiny, one_plus_a * f32(2.0 ** 64), one_plus_a)
    e = (((one_plus_a * f32(1 / 0.75)).view(np.int32) >> 23) & 0xff) - 0x7f
    scale = (np.ones_like(a).view(np.int32) + ((-e) << 23)).view(f32)     # 2**-e
    m = _fma(a, scale, scale - f32(1))                        # (1 + a) 2**-e - 1, one rounding
    e = np.where(tiny, e - 64, e).astype(f32)
    s = _times_number(_LN2_PAIR, e)                            # e ln 2 as a pair
    # x = m / (2 + m) as a pair: the quotient, then its error from multiply-adds
    denominator = f32(2) + m
    denominator_low = (f32(2) - denominator) + m
    reciprocal = f32(1) / denominator
    x = m * reciprocal
    error = _fma(reciprocal, m, -x)
    correction = _fma(-denominator_low, reciprocal, _fma(-denominator, reciprocal, f32(1)))
    x_low = _fma(x, correction, error)
    x2 = x * x
    poly = _fma(_fma(f32(0.3027294874), x2, f32(0.3996108174)), x2, f32(0.6666694880))
    # e ln 2 + 2 x, then + x^3 * poly
    twice, twice_low = x * f32(2), x_low * f32(2)
    high = s[0] + twice
    low = (((s[0] - high) + twice) + s[1]) + twice_low
    cubic = (x2 * x) * poly
    total = high + cubic
    low = ((high - total) + cubic) + low
    return total + low
