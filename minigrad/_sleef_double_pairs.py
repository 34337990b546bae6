"""The float64 ``expm1``, ``log1p``, ``sinh`` and ``cosh`` of PyTorch's CPU, step by step (SLEEF's u10).

The float64 twins of ``_sleef_float_pairs``: PyTorch's AVX2 kernels take these four from the
SLEEF library (``Sleef_expm1d4_u10``, ...). ``expm1`` and ``log1p`` go through SLEEF for every
number of the tensor (vectors of 4, the last few in a part-filled vector); ``sinh`` and
``cosh`` for whole vectors only, the numbers left over going through the C library's
``sinh``/``cosh``, as numpy's do (see ``_vectorized_loop``). The numbers are carried as pairs
(high, low) of float64 where one float64 lacks the precision; the pair arithmetic is
``_sleef_pow``'s, which works for both dtypes. Each step rounds as the CPU does (a fused
multiply-add rounds once), so the results are PyTorch's to the last bit.
"""
import numpy as np

from ._sleef_pow import (_LN2_HIGH_64, _LN2_LOW_64, _LN2_PAIR_64, _LOG_Q_64, _INV_LN2_64,
                         _add_larger_first, _add_number, _cvt_int32, _divide, _estrin, _fma,
                         _ldexp_64, _square, _times_number, _times_pair, log)

f64 = np.float64

_EXPK2_P = (0.1602472219709932072e-9, 0.2092255183563157007e-8, 0.2505230023782644465e-7,
            0.2755724800902135303e-6, 0.2755731892386044373e-5, 0.2480158735605815065e-4,
            0.1984126984148071858e-3, 0.1388888888886763255e-2, 0.8333333333333347095e-2,
            0.4166666666666669905e-1)


def _number_plus_pair(x, y):
    """number + pair when |number| >= |pair| (SLEEF's ddadd_vd2_vd_vd2)."""
    high = x + y[0]
    return high, ((x - high) + y[0]) + y[1]


def _exp_pair(a):
    """e**a as a float64 pair (SLEEF's expk2): a = q ln 2 + s, e**s = 1 + s + s^2/2 + s^3/6
    + s^4 P(s), the first terms as pairs, then both halves times 2**q."""
    dq = np.rint(a * _INV_LN2_64)
    q = _cvt_int32(dq)
    s = _add_number((a, np.zeros_like(a)), dq * -_LN2_HIGH_64)
    s = _add_number(s, dq * -_LN2_LOW_64)
    s2 = _square(s)
    s4 = _square(s2)
    u = _estrin(s[0], _EXPK2_P)               # (its powers s**2, s**4, s**8: the same numbers)
    t = _number_plus_pair(0.5, _times_number(s, 1 / 6))
    t = _number_plus_pair(1.0, _times_pair(t, s))
    t = _number_plus_pair(1.0, _times_pair(t, s))
    t = _add_larger_first(t, _times_number(s4, u))
    high, low = _ldexp_64(t[0], q), _ldexp_64(t[1], q)
    underflow = a < -1000
    high[underflow] = 0
    low[underflow] = 0
    return high, low


def expm1(a):
    """e**a - 1 of a float64 array, as SLEEF's ``expm1`` (u10), bit for bit: e**a as a pair
    minus 1, so that the small difference keeps its precision."""
    shape = np.shape(a)
    a = np.asarray(a, f64).reshape(-1)        # (a 0-d array would give numpy scalars)
    with np.errstate(all="ignore"):
        high, low = _add_number(_exp_pair(a), -1.0)
        out = high + low
    out[a > 709.782712893383996732223] = np.inf
    out[a < -36.736800569677101399113302437] = -1         # e**a below half a unit of 1
    out[(a == 0) & np.signbit(a)] = -0.0
    return out.reshape(shape)


def _reciprocal(d):
    """1 / pair, as a pair (SLEEF's ddrec, with multiply-adds)."""
    high = 1 / d[0]
    return high, high * _fma(-d[1], high, _fma(-d[0], high, np.ones_like(high)))


def _sinh_or_cosh(x, sign):
    """(e**|x| + sign e**-|x|) / 2, both terms as pairs (SLEEF's sinh and cosh)."""
    grow = _exp_pair(np.abs(x))
    shrink = _reciprocal(grow)
    high = grow[0] + sign * shrink[0]
    low = (((grow[0] - high) + sign * shrink[0]) + grow[1]) + sign * shrink[1]
    out = (high + low) * 0.5
    out[(np.abs(x) > 710) | np.isnan(out)] = np.inf
    return out


def sinh(x):
    """(e**x - e**-x) / 2 of a float64 array as SLEEF's ``sinh`` (u10), bit for bit."""
    shape = np.shape(x)
    x = np.asarray(x, f64).reshape(-1)
    with np.errstate(all="ignore"):
        out = np.copysign(_sinh_or_cosh(x, -1.0), x)
    out[np.isnan(x)] = np.nan
    return out.reshape(shape)


def cosh(x):
    """(e**x + e**-x) / 2 of a float64 array as SLEEF's ``cosh`` (u10), bit for bit."""
    shape = np.shape(x)
    x = np.asarray(x, f64).reshape(-1)
    with np.errstate(all="ignore"):
        out = _sinh_or_cosh(x, 1.0)
    out[np.isnan(x)] = np.nan
    return out.reshape(shape)


LOG1P_LARGEST = float.fromhex("0x1.c7b1f3cac7433p+1019")     # 1e307: above it, log(a) itself


def log1p(a):
    """log(1 + a) of a float64 array, as SLEEF's ``log1p`` (u10), bit for bit.

    1 + a = 2**e (1 + m) with 1 + m in [0.75, 1.5), m computed from a without rounding 1 + a
    first; log(1 + a) = e ln 2 + 2 atanh(m / (2 + m))."""
    shape = np.shape(a)
    a = np.asarray(a, f64).reshape(-1)
    with np.errstate(all="ignore"):
        one_plus_a = a + 1
        tiny = one_plus_a < 2.0 ** -1022                      # scaled up, to read its exponent
        one_plus_a = np.where(tiny, one_plus_a * 2.0 ** 64, one_plus_a)
        e = ((((one_plus_a * (1 / 0.75)).view(np.int64) >> 52) & 0x7ff) - 0x3ff)
        scale = (np.ones_like(a).view(np.int64) + ((-e) << 52)).view(f64)      # 2**-e
        m = _fma(a, scale, scale - 1)                         # (1 + a) 2**-e - 1, one rounding
        e = np.where(tiny, e - 64, e).astype(f64)
        s = _times_number(_LN2_PAIR_64, e)
        denominator = 2 + m
        x = _divide((m, np.zeros_like(m)), (denominator, (2 - denominator) + m))
        x2 = x[0] * x[0]
        t = _estrin(x2, _LOG_Q_64)
        s = _add_larger_first(s, (x[0] * 2, x[1] * 2))
        last = x2 * x[0] * t
        high = s[0] + last
        out = high + (((s[0] - high) + last) + s[1])
        large = a > LOG1P_LARGEST
        if large.any():
            out[large] = log(a[large])
    out[(a < -1) | np.isnan(a)] = np.nan
    out[a == -1] = -np.inf
    out[(a == 0) & np.signbit(a)] = -0.0
    return out.reshape(shape)
