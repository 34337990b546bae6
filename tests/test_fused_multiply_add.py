"""minigrad._fused_multiply_add: a * b + c rounded once, checked against exact rational arithmetic.

PyTorch's kernels get this from the processor's fused multiply-add; minigrad emulates it with
numpy (float32 through float64 with ties rounded to odd, float64 by Dekker's product and
Knuth's sums). The oracle here is the exact value, a Fraction, rounded once to the dtype.
"""
from fractions import Fraction

import numpy as np
import pytest

from minigrad._fused_multiply_add import fma, fma64, rounded_to_odd, split, two_sum


def exactly_rounded(value, dtype):
    """The Fraction ``value`` rounded to nearest, ties to even, in ``dtype``."""
    guess = dtype(float(value))            # within a step of the answer
    candidates = [np.nextafter(guess, dtype(-np.inf)), guess, np.nextafter(guess, dtype(np.inf))]
    candidates = [c for c in candidates if np.isfinite(c)]

    def distance(c):
        return abs(Fraction(float(c)) - value)

    best = min(distance(c) for c in candidates)
    nearest = [c for c in candidates if distance(c) == best]
    if len(nearest) == 2:                  # a tie: the one with an even last bit
        bits = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}[dtype]
        nearest = [c for c in nearest if int(np.asarray(c).view(bits)) % 2 == 0]
    return nearest[0]


def exact_fma(a, b, c, dtype):
    return np.array([exactly_rounded(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)), dtype)
                     for x, y, z in zip(a, b, c)], dtype)


def hard_inputs(dtype, n=400, seed=0):
    """Random factors and addends of many sizes, with c close to -a * b (cancellation) in a
    third of them, and sums just beside a halfway point between two numbers of ``dtype``."""
    rng = np.random.default_rng(seed)
    spread = 3 if dtype == np.float16 else 20       # (float16 ends at 65504)
    a = (rng.standard_normal(n) * 2.0 ** rng.integers(-spread, spread, n)).astype(dtype)
    b = (rng.standard_normal(n) * 2.0 ** rng.integers(-spread, spread, n)).astype(dtype)
    c = (rng.standard_normal(n) * 2.0 ** rng.integers(-2 * spread, 2 * spread, n)).astype(dtype)
    c[::3] = (-(a[::3].astype(np.float64) * b[::3])).astype(dtype)
    eps = np.finfo(dtype).eps
    # (1 + eps)(1 + eps) + small: the exact sum sits just beside a halfway point
    a[1::7], b[1::7] = dtype(1 + eps), dtype(1 + eps)
    c[1::7] = (rng.choice([-1, 1], len(c[1::7])) * eps * eps / 2).astype(dtype)
    # (1 + eps) * eps/2 (1 - eps) + (1 + eps) = 1 + eps + eps/2 - eps**3/2, times a power of 2:
    # just below a halfway point, which the float64 sum of float32 numbers rounds onto
    scale = 2.0 ** rng.integers(-spread, spread, len(a[2::7])) * rng.choice([-1, 1], len(a[2::7]))
    a[2::7], b[2::7], c[2::7] = dtype(1 + eps), dtype(eps / 2 * (1 - eps)), dtype(1 + eps)
    a[2::7], c[2::7] = (a[2::7] * scale).astype(dtype), (c[2::7] * scale).astype(dtype)
    return a, b, c


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_fma_rounds_once(dtype):
    a, b, c = hard_inputs(dtype)
    expected = exact_fma(a, b, c, dtype)
    out = fma(a, b, c)
    assert out.dtype == dtype
    assert np.array_equal(out, expected)


def test_float32_tie_that_rounding_twice_gets_wrong():
    # p + alpha * g = 1 + 2**-23 + 2**-24 - 2**-70: float64 rounds it onto the tie at
    # 1 + 2**-23 + 2**-24, which rounding to even takes up; the exact value rounds down
    p, alpha, g = np.float32(1 + 2 ** -23), np.float32(1 + 2 ** -23), np.float32(2 ** -24 * (1 - 2 ** -23))
    twice = np.float32(np.float64(alpha) * np.float64(g) + np.float64(p))
    assert twice == np.float32(1 + 2 ** -22)
    assert fma(np.array([alpha]), g, p)[0] == np.float32(1 + 2 ** -23)


def test_fma64_broadcasts_and_keeps_special_values():
    out = fma64(np.array([2.0, 0.0, -0.0, np.inf, 1e300, 3.0]),
                np.array([3.0, -1.0, 1.0, 0.0, 1e300, np.nan]), 1.0)
    assert out.tolist()[:2] == [7.0, 1.0]
    assert np.isnan(out[3]) and out[4] == np.inf and np.isnan(out[5])
    # an exact 0 has the plain sum's sign: -0 only from -0 + -0
    zeros = fma64(np.array([1.0, -0.0, 0.0]), np.array([-1.0, 1.0, 1.0]), np.array([1.0, -0.0, -0.0]))
    assert np.signbit(zeros).tolist() == [False, True, False]
    # factors past 1e300, whose halves overflow, still give the (rounded) plain answer
    assert fma64(1e305, 2.0, -1e305) == 1e305


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_error_free_steps(dtype):
    a, b, c = hard_inputs(dtype, n=100, seed=1)
    total, error = two_sum(a, c)
    assert all(Fraction(float(t)) + Fraction(float(e)) == Fraction(float(x)) + Fraction(float(z))
               for t, e, x, z in zip(total, error, a, c))
    if dtype == np.float64:
        high, low = split(a)
        assert np.array_equal(high + low, a)
        odd = rounded_to_odd(a, c)
        inexact = (Fraction(float(t)) != Fraction(float(x)) + Fraction(float(z)) for t, x, z in zip(odd, a, c))
        assert all(int(np.asarray(t).view(np.uint64)) % 2 == 1 for t, i in zip(odd, inexact) if i)
