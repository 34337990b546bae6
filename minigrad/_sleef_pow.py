"""x ** y as PyTorch's CPU computes it, step by step (SLEEF's ``pow``, u10), and the float64
``exp`` and ``log`` of its vectorised kernels.

PyTorch's ``pow`` kernel takes a few exponents apart (0, 1, 2, 3, -2, 0.5, -0.5 and -1 become
a fill, a copy, products, a reciprocal or square roots), and sends every other power of a
float32 or float64 tensor, a vector at a time, to the SLEEF library's ``Sleef_powf8_u10`` or
``Sleef_powd4_u10``; the numbers left over after the last whole pair of vectors go to the C
library's ``pow`` (see ``_vectorized_loop``). SLEEF's method is published: x ** y =
e ** (y log |x|), the logarithm and the product carried as *pairs* (high, low) for the
precision one number lacks, then the sign and the special cases (zeros, infinities, nan) set
by IEEE's rules. minigrad follows it in numpy, rounding after every step as the CPU does (a
fused multiply-add rounds once: ``_fma``), so the results are PyTorch's to the last bit.

The float64 ``sigmoid``, ``silu`` and ``softmax`` kernels take SLEEF's float64 ``exp`` (and
``log_softmax`` its ``log``): :func:`exp` and :func:`log` below. (The float32 ones are in
``_sleef_mathfun``.)
"""
import numpy as np

from ._fused_multiply_add import fma as _fma, two_sum as _sum

f32, f64 = np.float32, np.float64


# --- pairs (high, low) of float32 or float64: the steps SLEEF's logk and expk need ----------
# (Python numbers next to a numpy array take the array's dtype, so each works for both.)

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


def _times_number(x, y):
    """pair * number: the product's rounding error from a multiply-add."""
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


def _divide(n, d):
    """pair / pair: the quotient of the high parts, corrected with multiply-adds."""
    reciprocal = 1 / d[0]
    high = n[0] * reciprocal
    error = _fma(reciprocal, n[0], -high)
    correction = _fma(-d[1], reciprocal, _fma(-d[0], reciprocal, np.ones_like(high)))
    return high, _fma(high, correction, _fma(n[1], reciprocal, error))


def _normalize(x):
    """A pair whose high part is the rounded sum."""
    high = x[0] + x[1]
    return high, (x[0] - high) + x[1]


def _cvt_int32(values):
    """float -> int32 rounded to nearest, as the CPU's cvtps2dq/cvtpd2dq (out of range or nan:
    -2**31)."""
    rounded = np.rint(values)
    inside = np.abs(rounded) < 2.0 ** 31            # (false for nan)
    return np.where(inside, rounded, 0).astype(np.int32) | np.where(inside, 0, np.int32(-2 ** 31))


def _estrin(x, coefficients):
    """The polynomial with these coefficients (highest power first) at x, as SLEEF's POLY
    macros evaluate it: Estrin's scheme, pairs of terms joined by multiply-adds with x**2,
    x**4, x**8 (not Horner's rule, so another last bit)."""
    def poly(c, powers):
        if len(c) == 1:
            return np.full_like(x, c[0])
        if len(c) == 2:
            return _fma(x, np.full_like(x, c[0]), np.full_like(x, c[1]))
        half = 1 << (len(c) - 1).bit_length() - 1          # the low part: the largest power of 2
        return _fma(powers[half], poly(c[:-half], powers), poly(c[-half:], powers))
    x2 = x * x
    x4 = x2 * x2
    powers = {2: x2, 4: x4, 8: x4 * x4}
    return poly(list(coefficients), powers)


# --- float32: log |x| as a pair ------------------------------------------------------------------------

_LN2_PAIR = (f32(0.69314718246459960938), f32(-1.904654323148236017e-09))
_SMALLEST_NORMAL = f32(1.17549435e-38)


def _log_pair_float32(d):
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


def _ldexp(x, q):
    """x * 2**q of float32 as SLEEF's vldexp: four equal powers of two, then the rest (so that
    no power of two overflows)."""
    sign = q >> 31
    m = (((sign + q) >> 6) - sign) << 4
    q = q - (m << 2)
    m = m + 0x7f
    m = np.where(m > 0, m, 0)
    m = np.where(m > 0xff, 0xff, m).astype(np.int32)
    u = (m << 23).view(f32)
    x = x * u * u * u * u
    return x * ((q + 0x7f) << 23).astype(np.int32).view(f32)


# --- float32: e ** (a pair) ----------------------------------------------------------------------------

_INV_LN2 = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HIGH, _LN2_LOW = f32(0.693145751953125), f32(1.428606765330187045e-06)
_EXP_P = (0.00136324646882712841033936, 0.00836596917361021041870117, 0.0416710823774337768554688,
          0.166665524244308471679688, 0.499999850988388061523438)


def _exp_of_pair_float32(d):
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


# --- float64: the same steps with longer polynomials (SLEEF's logk and expk) ----------------

_LN2_PAIR_64 = (0.693147180559945286226764, 2.319046813846299558417771e-17)
_LOG_P_64 = (0.116255524079935043668677, 0.103239680901072952701192, 0.117754809412463995466069,
             0.13332981086846273921509, 0.153846227114512262845736, 0.181818180850050775676507,
             0.222222222230083560345903, 0.285714285714249172087875, 0.400000000000000077715612)


def _log_start_float64(d):
    """The first steps of SLEEF's float64 logarithms: d = 2**e m with m in [0.75, 1.5), and
    x = (m - 1) / (m + 1) as a pair (log d = e ln 2 + 2 atanh(x)). Returns e (float64), x."""
    tiny = d < 2.0 ** -1022
    d = np.where(tiny, d * 2.0 ** 64, d)
    e = ((((d * (1 / 0.75)).view(np.int64) >> 52) & 0x7ff) - 0x3ff).astype(np.int32)
    m = (d.view(np.int64) + ((-e).astype(np.int64) << 52)).view(f64)
    e = np.where(tiny, e - 64, e)
    return e.astype(f64), _divide(_sum(np.full_like(m, -1), m), _sum(np.full_like(m, 1), m))


_LOG_Q_64 = (0.1532076988502701353e+0, 0.1525629051003428716e+0, 0.1818605932937785996e+0,
             0.2222214519839380009e+0, 0.2857142932794299317e+0, 0.3999999999635251990e+0,
             0.6666666666667333541e+0)


def log(d):
    """The natural logarithm of a float64 array, as SLEEF's ``log`` (u10), bit for bit."""
    shape = np.shape(d)
    d = np.asarray(d, f64).reshape(-1)
    with np.errstate(all="ignore"):
        e, x = _log_start_float64(d)
        x2 = x[0] * x[0]
        t = _estrin(x2, _LOG_Q_64)
        s = _add_larger_first(_times_number(_LN2_PAIR_64, e), (x[0] * 2, x[1] * 2))
        last = x2 * x[0] * t
        high = s[0] + last
        out = high + (((s[0] - high) + last) + s[1])
    out[d == np.inf] = np.inf
    out[(d < 0) | np.isnan(d)] = np.nan
    out[d == 0] = -np.inf
    return out.reshape(shape)


def _log_pair_float64(d):
    """log(d) as a pair of float64 for d >= 0 (SLEEF's logk), as _log_pair_float32."""
    e, x = _log_start_float64(d)
    x2 = _square(x)
    t = _estrin(x2[0], _LOG_P_64)
    s = _times_number(_LN2_PAIR_64, e)
    s = _add_larger_first(s, (x[0] * 2, x[1] * 2))
    x = _times_pair(x2, x)
    s = _add_larger_first(s, _times_pair(x, (0.666666666666666629659233, 3.80554962542412056336616e-17)))
    x = _times_pair(x2, x)
    return _add_larger_first(s, _times_number(x, t))


_INV_LN2_64 = 1.442695040888963407359924681001892137426645954152985934135449406931
_LN2_HIGH_64 = .69314718055966295651160180568695068359375
_LN2_LOW_64 = .28235290563031577122588448175013436025525412068e-12
_EXP_P_64 = (2.51069683420950419527139e-08, 2.76286166770270649116855e-07, 2.75572496725023574143864e-06,
             2.48014973989819794114153e-05, 0.000198412698809069797676111, 0.0013888888939977128960529,
             0.00833333333332371417601081, 0.0416666666665409524128449, 0.166666666666666740681535,
             0.500000000000000999200722)


def _power_of_two_64(q):
    """2**q as float64 from the exponent bits (q within the normal range)."""
    return (((q + 0x3ff) << 20).astype(np.int32).astype(np.int64) << 32).view(f64)


def _ldexp_64(x, q):
    """x * 2**q in two steps (SLEEF's vldexp2), so that no power of two overflows."""
    half = q >> 1
    return x * _power_of_two_64(half) * _power_of_two_64(q - half)


def _exp_of_pair_float64(d):
    """e ** d of a float64 pair d (SLEEF's expk)."""
    dq = np.rint((d[0] + d[1]) * _INV_LN2_64)
    q = _cvt_int32(dq)
    s = _add_number(d, dq * -_LN2_HIGH_64)
    s = _normalize(_add_number(s, dq * -_LN2_LOW_64))
    u = _estrin(s[0], _EXP_P_64)
    one_plus = 1 + s[0]
    t = one_plus, ((1 - one_plus) + s[0]) + s[1]
    t = _add_larger_first(t, _times_number(_square(s), u))
    out = _ldexp_64(t[0] + t[1], q)
    out[d[0] < -1000] = 0
    return out


_EXP_Q_64 = (0.2081276378237164457e-8, 0.2511210703042288022e-7, 0.2755762628169491192e-6,
             0.2755723402025388239e-5, 0.2480158687479686264e-4, 0.1984126989855865850e-3,
             0.1388888888914497797e-2, 0.8333333333314938210e-2, 0.4166666666666602598e-1,
             0.1666666666666669072e+0)


def exp(d):
    """e ** d of a float64 array, as SLEEF's ``exp`` (u10, with fused multiply-adds), bit for
    bit: d = q ln 2 + s, e**s from a polynomial in s, times 2**q."""
    shape = np.shape(d)
    d = np.asarray(d, f64).reshape(-1)
    with np.errstate(all="ignore"):
        u = np.rint(d * _INV_LN2_64)
        q = _cvt_int32(u)
        s = _fma(u, np.full_like(u, -_LN2_HIGH_64), d)
        s = _fma(u, np.full_like(u, -_LN2_LOW_64), s)
        u = _estrin(s, _EXP_Q_64)
        for c in (0.5, 1.0, 1.0):
            u = _fma(u, s, np.full_like(u, c))
        out = _ldexp_64(u, q)
        out[d > 709.782712893383973096] = np.inf
        out[d < -1000] = 0
    return out.reshape(shape)


# --- pow ----------------------------------------------------------------------------------------

def pow(x, y):
    """x ** y of float32 or float64 arrays (broadcast together; x's dtype), as SLEEF's ``powf``
    or ``pow`` (u10) computes it, bit for bit: e ** (y log |x|), then IEEE's special cases."""
    dtype = np.asarray(x).dtype
    x, y = np.broadcast_arrays(np.asarray(x, dtype), np.asarray(y, dtype))
    shape = x.shape
    x, y = x.reshape(-1), y.reshape(-1)
    with np.errstate(all="ignore"):
        if dtype == f32:
            y_is_int = (np.trunc(y) == y) | (np.abs(y) > 2.0 ** 24)
            y_is_odd = ((_cvt_int32(np.trunc(y)) & 1) == 1) & y_is_int & (np.abs(y) < 2.0 ** 24)
            out = _exp_of_pair_float32(_times_number(_log_pair_float32(np.abs(x)), y))
            out[np.isnan(out)] = np.inf
        else:
            y_is_int = np.rint(y) == y
            y_is_odd = (np.rint(y * 0.5) != y * 0.5) & y_is_int
            d = _times_number(_log_pair_float64(np.abs(x)), y)
            out = _exp_of_pair_float64(d)
            out[d[0] > 709.782712893383973096] = np.inf
        sign = np.where(x > 0, 1, np.where(y_is_int, np.where(y_is_odd, -1, 1), np.nan)).astype(dtype)
        out = out * sign
        distance = np.abs(x) - 1
        distance = np.where(np.signbit(y), -distance, distance)     # |x| vs 1, times y's sign
        at_inf = np.where(distance == 0, 1, np.where(distance < 0, 0, np.inf)).astype(dtype)
        out = np.where(np.isinf(y), at_inf, out)
        edge = np.where(np.signbit(y) ^ (x == 0), 0, np.inf).astype(dtype)
        edge = np.copysign(edge, np.where(y_is_odd, x, 1))
        out = np.where(np.isinf(x) | (x == 0), edge, out)
        out = np.where(np.isnan(x) | np.isnan(y), np.nan, out)
        out = np.where((y == 0) | (x == 1), 1, out)
    return out.astype(dtype, copy=False).reshape(shape)
