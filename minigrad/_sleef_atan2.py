"""``atan2`` of PyTorch's CPU, step by step (SLEEF's ``Sleef_atan2f8_u10`` and ``Sleef_atan2d4_u10``).

PyTorch's AVX2 kernel takes atan2 from SLEEF for whole vectors of numbers; the few left over go
through the C library's ``atan2f``/``atan2``, as numpy's do (see ``_vectorized_loop``). SLEEF
reduces to an angle in [0, pi/4]: with q quarter turns taken off (x < 0: two; |y| > |x|: one
more, y / x becoming -x / y), s = y / x as a pair (high, low), atan(s) = s + s * s**2 * P(s**2)
with pairs where precision matters, then q * pi/2 (as a pair) added back; signs and the
infinities, zeros and nan at the end. Each step rounds as the CPU does (a multiply-add once).
"""
import numpy as np

from ._fused_multiply_add import fma as _fma
from ._sleef_pow import (_add_larger_first, _divide, _estrin, _normalize, _square, _times_number,
                         _times_pair)

f32, f64 = np.float32, np.float64

_P32 = [f32(c) for c in (-0.00176397908944636583328247, 0.0107900900766253471374512,
                         -0.0309564601629972457885742, 0.0577365085482597351074219,
                         -0.0838950723409652709960938, 0.109463557600975036621094,
                         -0.142626821994781494140625, 0.199983194470405578613281)]
_P64 = (1.06298484191448746607415e-05, -0.000125620649967286867384336, 0.00070557664296393412389774,
        -0.00251865614498713360352999, 0.00646262899036991172313504, -0.0128281333663399031014274,
        0.0208024799924145797902497, -0.0289002344784740315686289, 0.0359785005035104590853656,
        -0.041848579703592507506027, 0.0470843011653283988193763, -0.0524914210588448421068719,
        0.0587946590969581003860434, -0.0666620884778795497194182, 0.0769225330296203768654095,
        -0.0909090442773387574781907)
_P64_TAIL = (0.111111108376896236538123, -0.142857142756268568062339, 0.199999999997977351284817,
             -0.333333333333317605173818)
_HALF_PI = {f32: (f32(1.5707963705062866211), f32(-4.3711388286737928865e-08)),
            f64: (1.570796326794896557998982, 6.12323399573676603586882e-17)}
_TINY = {f32: (f32(2.9387372783541830947e-39), f32(1 << 24)), f64: (5.5626846462680083984e-309, float(1 << 53))}


def _number_sum(x, y):
    """x + y as a pair when |x| >= |y|."""
    high = x + y
    return high, (x - high) + y


def _angle_pair(y, x):
    """atan2(y, x) for y >= 0 as a pair (SLEEF's atan2k_u1 / atan2kf_u1)."""
    dtype = y.dtype.type
    zero = np.zeros_like(y)
    q = np.where(x < 0, -2, 0)
    negative = x < 0
    x_high, x_low = np.where(negative, -x, x), np.where(negative, -zero, zero)
    p = x_high < y
    q = np.where(p, q + 1, q)
    s = _divide((np.where(p, -x_high, y), np.where(p, -x_low, zero)),
                (np.where(p, y, x_high), np.where(p, zero, x_low)))
    t = _normalize(_square(s))
    if dtype is f32:
        u = np.full_like(y, _P32[0])
        for c in _P32[1:]:
            u = _fma(u, t[0], c)
        t = _times_pair(t, _number_sum(f32(-0.333332866430282592773438), u * t[0]))
        one = _number_sum(f32(1), t[0])
        t = _times_pair(s, (one[0], one[1] + t[1]))
    else:
        u = _estrin(t[0], _P64)
        for c in _P64_TAIL:
            u = _fma(u, t[0], c)
        t = _add_larger_first(s, _times_number(_times_pair(s, t), u))
    half_pi = tuple(np.full_like(y, c) for c in _HALF_PI[dtype])
    return _add_larger_first(_times_number(half_pi, q.astype(dtype)), t)


def _with_sign_of(r, x):
    """r with its sign flipped where x's sign bit is set (SLEEF's mulsign)."""
    return np.where(np.signbit(x), -r, r)


def atan2(y, x):
    """atan2(y, x) of float32 or float64 arrays (the same dtype), as SLEEF's u10, bit for bit."""
    dtype = np.result_type(y, x).type
    y, x = np.asarray(y, dtype), np.asarray(x, dtype)
    half_pi, quarter_pi, pi = dtype(np.pi / 2), dtype(np.pi / 4), dtype(np.pi)
    tiny, scale = _TINY[dtype]
    with np.errstate(all="ignore"):
        small = np.abs(x) < tiny                # scaled up, so that y / x keeps its bits
        x, y = np.where(small, x * scale, x), np.where(small, y * scale, y)
        angle = _angle_pair(np.abs(y), x)
        r = _with_sign_of(angle[0] + angle[1], x)
        x_infinite = np.isinf(x)
        r = np.where(x_infinite | (x == 0), half_pi - np.where(x_infinite, _with_sign_of(half_pi, x), 0), r)
        r = np.where(np.isinf(y), half_pi - np.where(x_infinite, _with_sign_of(quarter_pi, x), 0), r)
        r = np.where(y == 0, np.where(np.signbit(x), pi, dtype(0)), r)
        # (a nan in: every bit of the result set, a nan with its sign bit)
        all_bits = np.array(-1, np.int32 if dtype is f32 else np.int64).view(dtype)
        r = np.where(np.isnan(x) | np.isnan(y), all_bits, _with_sign_of(r, y))
    return r.astype(dtype, copy=False)
