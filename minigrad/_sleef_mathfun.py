"""The float32 ``exp`` and ``log`` PyTorch's CPU softmax kernels use, step by step.

``softmax`` and ``log_softmax`` over the last dimension of a float32 tensor run
eight numbers at a time with AVX2 instructions, and the exponential and the
logarithm they call there are the SLEEF library's (``Sleef_expf8_u10`` and
``Sleef_logf8_u10``, accurate to one unit in the last place, not the closest
float32 every time). numpy's ``np.exp``/``np.log`` give another last bit now
and then, so ``kl_div(x.log_softmax(-1), x.softmax(-1))`` came out as -1e-08
where PyTorch gives exactly 0. To get *the same* bits, minigrad evaluates
SLEEF's formulas in the same order, rounding to float32 after every step as the
CPU does, and adds the row up in PyTorch's order (:func:`row_sum`).

Where the CPU fuses a multiply and the following add into one fused
multiply-add (one rounding instead of two), the product is taken in float64,
where it is exact, and the sum rounded once to float32 (``_fma``). Nothing here
is needed to understand autograd: the numbers differ from numpy's only in the
last bit.
"""
import numpy as np

from ._fused_multiply_add import fma as _fma, two_sum

f32, f64 = np.float32, np.float64


# exp(x) = 2**q * exp(s), q = round(x / ln 2), s = x - q ln 2 (ln 2 split in two parts, so that
# q * the first part is exact), exp(s) ~ 1 + s + s^2 * P(s) for |s| <= ln(2) / 2.
_INV_LN2 = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HIGH, _LN2_LOW = f32(0.693145751953125), f32(1.428606765330187045e-06)
_EXP_P = [f32(c) for c in (0.000198527617612853646278381, 0.00139304355252534151077271,
                           0.00833336077630519866943359, 0.0416664853692054748535156,
                           0.166666671633720397949219, 0.5)]


def exp(x):
    """e ** x of a float32 array, as SLEEF's ``expf`` (u10) computes it, bit for bit."""
    x = np.asarray(x, f32)
    with np.errstate(invalid="ignore", over="ignore"):
        q = np.rint(x * _INV_LN2)
        s = x - q * _LN2_HIGH              # exact: q * _LN2_HIGH fits in float32, x is close to it
        s = _fma(q, -_LN2_LOW, s)
        s64 = s.astype(f64)
        u = np.full(x.shape, _EXP_P[0], f32)
        product = np.empty(x.shape, f64)
        for c in _EXP_P[1:]:               # Horner's scheme, one fused multiply-add a step
            np.multiply(u, s64, out=product)
            np.add(product, c, out=u, casting="same_kind")
        u = _fma(s * s, u, s) + f32(1)
        # times 2 ** q; below -104 SLEEF gives 0, above 100 inf (nan stays nan)
        out = np.asarray(np.ldexp(u, np.where(np.isfinite(q), q, 0).astype(np.int32)))   # (0-d: an array)
    out[x < -104] = 0
    out[x > 100] = np.inf
    return out


_LN2_PARTS = (f32(0.69314718246459960938), f32(-1.904654323148236017e-09))
_LOG_P = (f32(0.3027294874), f32(0.3996108174), f32(0.6666694880))


def log(x):
    """The natural logarithm of a float32 array of positive normal numbers (such as the sums of
    exponentials softmax divides by), as SLEEF's ``logf`` (u10) computes it, bit for bit.

    x = 2**e * m with m in [0.75, 1.5); log(x) = e ln 2 + 2 atanh(t), t = (m - 1) / (m + 1),
    kept as unevaluated float32 pairs (high + low) for the precision a single float32 lacks."""
    x = np.asarray(x, f32)
    with np.errstate(all="ignore"):             # inf and nan go through, then are set below
        out = _log_of_finite(x)
    out[np.isnan(x) | (x < 0)] = np.nan
    out[x == np.inf] = np.inf
    out[x == 0] = -np.inf
    return out


def _log_of_finite(x):
    """SLEEF's logf for positive normal float32 numbers (see log)."""
    bits = x.view(np.int32)
    e = (((x * f32(1 / 0.75)).view(np.int32) >> 23) & 0xff) - 0x7f
    m = (bits - (e << 23)).view(f32)
    # e ln 2 as a pair
    e = e.astype(f32)
    high = _LN2_PARTS[0] * e
    low = _fma(_LN2_PARTS[1], e, _fma(_LN2_PARTS[0], e, -high))
    # t = (m - 1) / (m + 1) as a pair
    numerator, numerator_low = two_sum(np.full_like(m, -1), m)
    denominator, denominator_low = two_sum(np.full_like(m, 1), m)
    reciprocal = f32(1) / denominator
    t = numerator * reciprocal
    error = _fma(reciprocal, numerator, -t)
    correction = _fma(-denominator_low, reciprocal, _fma(-denominator, reciprocal, f32(1)))
    t_low = _fma(t, correction, _fma(numerator_low, reciprocal, error))
    t2 = t * t
    poly = _fma(_fma(_LOG_P[0], t2, _LOG_P[1]), t2, _LOG_P[2])
    # (high, low) + 2 t, then + t^3 * poly
    twice, twice_low = t * f32(2), t_low * f32(2)
    total = high + twice
    low = (((high - total) + twice) + low) + twice_low
    cubic = (t2 * t) * poly
    high, total = total, total + cubic
    low = ((high - total) + cubic) + low
    return total + low


def row_sum(values, lanes=8):
    """Sum over the last axis in the order of PyTorch's vectorised ``reduce_all`` (AVX2: 8
    lanes for float32, 4 for float64).

    Fewer than ``lanes`` numbers are added left to right. Otherwise one running sum per lane
    takes every lanes-th number, the leftover numbers go to the first lanes, and the lanes are
    added: for float32 pairwise, halves first, ((0+4) + (2+6)) + ((1+5) + (3+7)); for float64
    left to right, ((0+1) + 2) + 3. Returns the sums with a kept axis."""
    n = values.shape[-1]
    if n < lanes:
        return _left_to_right(values)
    full = n - n % lanes
    sums = values[..., :lanes].copy()
    for start in range(lanes, full, lanes):
        sums += values[..., start:start + lanes]
    sums[..., :n - full] += values[..., full:]
    if lanes != 8:                  # (PyTorch's shuffles are for float32; others: in order)
        return _left_to_right(sums)
    while sums.shape[-1] > 1:
        half = sums.shape[-1] // 2
        sums = sums[..., :half] + sums[..., half:]
    return sums


def _left_to_right(values):
    """Sum over the last axis, one number after the other (a kept axis)."""
    total = values[..., :1].copy()
    for i in range(1, values.shape[-1]):
        total += values[..., i:i + 1]
    return total
