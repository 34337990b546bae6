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


def test_fma64_of_numbers_near_the_largest_float64():
    # Veltkamp's split multiplies by 2**27 + 1, which overflows from about 1e300: such numbers
    # are split scaled down (uniform_(-5e300, 5e300) goes through here)
    rng = np.random.default_rng(1)
    for scale in (1e300, 1e307, 2.0 ** 1000):
        a, b = rng.standard_normal(300) * scale, rng.standard_normal(300)
        c = rng.standard_normal(300) * scale
        assert np.array_equal(fma64(a, b, c), exact_fma(a, b, c, np.float64))
        assert np.array_equal(fma64(b, a, c), exact_fma(b, a, c, np.float64))


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


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_only_the_sums_that_may_round_twice_are_done_again(dtype):
    """The float64 sums that land halfway (false ties, and true ones that are exact) and those
    near the smallest normal number are redone one by one: a few among many ordinary sums, in a
    matrix laid out column by column, with c broadcast along a row."""
    a, b, c = hard_inputs(dtype, n=300, seed=2)
    tiny = np.finfo(dtype).smallest_normal
    a[5::11], b[5::11] = dtype(tiny), dtype(0.75)          # products near the smallest normal
    c[5::22] = dtype(0)
    c[16::22] = (-(a[16::22].astype(np.float64) * b[16::22] * 0.5)).astype(dtype)   # cancellation
    a[6::13], b[6::13], c[6::13] = dtype(1.5), dtype(1), dtype(2 * np.finfo(dtype).eps)  # exact ties
    a[7::13], b[7::13], c[7::13] = dtype(0), dtype(1), dtype(0)                       # exact zeros
    bits = np.uint16 if dtype == np.float16 else np.uint32       # (compared bit for bit: -0)
    expected = exact_fma(a, b, c, dtype).reshape(15, 20).T
    out = fma(a.reshape(15, 20).T, b.reshape(15, 20).T, c.reshape(15, 20).T)
    assert np.array_equal(out.view(bits), expected.view(bits))
    row = fma(a.reshape(15, 20), b.reshape(15, 20), c[:20])
    expected = exact_fma(a, b, np.tile(c[:20], 15), dtype).reshape(15, 20)
    assert np.array_equal(row.view(bits), expected.view(bits))


def test_one_number_that_falls_on_a_tie():
    """A 0-d sum: the redone element is written back into a 0-d result."""
    p, alpha, g = np.float32(1 + 2 ** -23), np.float32(1 + 2 ** -23), np.float32(2 ** -24 * (1 - 2 ** -23))
    out = fma(np.asarray(alpha), np.asarray(g), np.asarray(p))
    assert out.shape == () and out == np.float32(1 + 2 ** -23)
    assert fma(np.zeros((0, 3), np.float32), np.float32(2), np.float32(1)).shape == (0, 3)


def test_float32_tie_below_the_smallest_normal_number():
    """Where float32 has fewer bits (subnormal results) its halfway points sit higher: here
    float64 rounds c + a * b = (513 + 1/2) 2**-149 - 2**-196 onto the tie, which rounding to
    even takes up to 514 * 2**-149; the exact sum rounds down to 513 * 2**-149."""
    c = np.float32(2.0 ** -140 + 2.0 ** -149)
    a, b = np.float32(2.0 ** -75 * (1 + 2.0 ** -23)), np.float32(2.0 ** -75 * (1 - 2.0 ** -23))
    assert np.float32(np.float64(a) * np.float64(b) + np.float64(c)) == np.float32(514 * 2.0 ** -149)
    addends = np.array([c, 1, 0, -c, c], np.float32)  # (-c: just beyond -(512 + 1/2), to -513)
    out = fma(np.full(5, a), np.full(5, b), addends)
    assert out[0] == np.float32(513 * 2.0 ** -149) and out[3] == np.float32(-513 * 2.0 ** -149)
    assert np.array_equal(out, exact_fma(np.full(5, a), np.full(5, b), addends, np.float32))
