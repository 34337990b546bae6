"""a * b + c rounded once: the fused multiply-add (fma) of PyTorch's CPU kernels.

Processors have an instruction that multiplies and adds with a single rounding at the
end, and PyTorch's compiled kernels use it wherever the compiler or a vector library
(SLEEF, MKL, the C library's ``expf``) does. numpy has no such function: ``a * b + c``
rounds twice, after the product and after the sum, and the two results differ in the last
bit now and then. To give PyTorch's numbers to the last bit, minigrad computes the
once-rounded result with ordinary numpy arithmetic, in two ways:

* **float16 and float32** (:func:`fma` of such arrays): the product of two float32 numbers
  has at most 48 significant bits, so float64 holds it exactly; adding c in float64 rounds
  once, and rounding that to float32 is the answer, except where the float64 sum landed
  exactly halfway between two float32 neighbours. Those sums alone are done again, rounding
  "to odd" (:func:`rounded_to_odd`), which never creates a false tie; one integer test over
  the float64 sums (:func:`_may_round_twice`) finds whether there are any.
* **float64** (:func:`fma64`): the product's rounding error is found exactly by splitting
  each factor into halves of 26 bits (Veltkamp's :func:`split`, Dekker's product), and the
  sum's by Knuth's :func:`two_sum`; the two errors are added with rounding to odd and then
  added back (Boldo and Melquiond's emulation), which makes the final addition the only
  rounding that counts.

Where a factor is so large that its halves overflow (past about 1e300), or the inputs hold
inf or NaN, the plain ``a * b + c`` is the answer; and an exact 0 takes the plain sum's
sign, which the error terms would lose (-0 only from -0 + -0).

Nothing here is needed to understand autograd.
"""
import numpy as np

_VELTKAMP_SPLITTER = 134217729.0          # 2**27 + 1: splits a float64 into two 26-bit halves


def fma(a, b, c):
    """a * b + c rounded once, in a's dtype (float16, float32 or float64; a Python number as a
    gives the dtype numpy's promotion of a, b and c gives)."""
    if not hasattr(a, "dtype"):
        a = np.asarray(a, np.result_type(a, b, c))
    if a.dtype == np.float64:
        return fma64(a, b, c)
    wide = np.float64
    total = np.asarray(np.multiply(a, b, dtype=wide))  # exact: 2 * 24 bits fit in 53
    # the sum, rounded once to float64, written over the product when it has the sum's shape
    # (large float64 temporaries cost page faults when the C library hands them back between
    # calls: the fewer at once, the better)
    in_place = total.shape == np.broadcast_shapes(total.shape, np.shape(c))
    with np.errstate(invalid="ignore"):                # (inf - inf: nan, silently, as PyTorch)
        total = np.asarray(np.add(total, c, out=total if in_place else None, dtype=wide))
    rounded = total.astype(a.dtype)
    suspects = _may_round_twice(total, rounded)
    if suspects is not None:           # (rare: see there) those sums again, rounded to odd first
        a, b, c = np.broadcast_arrays(a, b, np.asarray(c))
        exact_product = np.multiply(a[suspects], b[suspects], dtype=wide)
        rounded[suspects] = rounded_to_odd(exact_product, c[suspects].astype(wide))
    return rounded


# As an int64, a one followed by 63 zeros: the smallest int64 (see _may_round_twice)
_ONE_THEN_ZEROS = np.iinfo(np.int64).min


def _may_round_twice(total, rounded):
    """Where could ``rounded``, the float64 sums ``total`` rounded to float16 or float32, differ
    from the exact sums rounded once? A boolean mask of those places, or None (the usual answer).

    Only where a sum fell exactly halfway between two neighbours: the exact sum, off that tie,
    rounds to the nearer one (every halfway point is a float64 number, so float64's rounding
    never carries a sum across one). That shows in the bits float64 has beyond the narrower
    fraction: a one, then zeros. Shifted to the top of an int64, those bits are then the
    smallest int64 there is, so one reduction (``min``) finds whether any sum is halfway,
    without an array of answers. Near and below the smallest normal number, where fewer bits
    count, every sum but 0 is suspect. (``total`` is overwritten.)"""
    if total.size == 0:
        return None
    info = np.finfo(rounded.dtype)
    limit = 2 * info.smallest_normal
    tiny = (rounded <= limit) & (rounded >= -limit)    # (no array of magnitudes: one less)
    tiny = tiny & (total != 0) if tiny.any() else None
    beyond = total.view(np.uint64)                     # (unsigned: shifting out the top is defined)
    np.left_shift(beyond, 64 - (52 - info.nmant), out=beyond)
    halfway = beyond.view(np.int64)
    if halfway.min() == _ONE_THEN_ZEROS:
        suspects = halfway == _ONE_THEN_ZEROS
        return suspects if tiny is None else suspects | tiny
    return tiny if tiny is not None and tiny.any() else None


def fma64(a, b, c):
    """a * b + c in float64, rounded once (Boldo and Melquiond's emulation, see the module's
    docstring); a, b and c are broadcast together."""
    a, b, c = (np.asarray(value, np.float64) for value in (a, b, c))
    with np.errstate(over="ignore", invalid="ignore"):
        product = a * b
        (a_high, a_low), (b_high, b_low) = split(a), split(b)
        product_error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
        total, sum_error = two_sum(product, c)
        # the two errors' sum rounded to odd, so that a tie in the last addition is never false
        exact = total + rounded_to_odd(product_error, sum_error)
        # (inf and nan, halves that overflowed, and an exact 0 with its sign: the plain sum)
        return np.where(np.isfinite(exact) & (exact != 0), exact, product + c)


def split(a):
    """float64 ``a`` as high + low, each with at most 26 significant bits (Veltkamp), so that
    a product of two halves is exact."""
    huge = (np.abs(a) > _SPLIT_LIMIT) & np.isfinite(a)       # (inf stays as it is: see fma64)
    if huge.any():
        # (a * splitter would overflow to inf: split a / 2**28 instead, then scale both halves
        # back; dividing and multiplying by a power of two are exact at these sizes)
        scale = np.where(huge, 2.0 ** 28, 1.0)
        high, low = split(a / scale)
        return high * scale, low * scale
    scaled = a * _VELTKAMP_SPLITTER
    high = scaled - (scaled - a)
    return high, a - high


_SPLIT_LIMIT = 2.0 ** 995       # above it, a * _VELTKAMP_SPLITTER (2**27 + 1) can overflow


def two_sum(a, b):
    """a + b as the rounded sum and the exact error of that rounding (Knuth): sum + error is
    exactly a + b. Works in any float dtype."""
    total = a + b
    b_part = total - a
    return total, (a - (total - b_part)) + (b - b_part)


def rounded_to_odd(x, y):
    """x + y in float64, but when the sum is not exact, the neighbour whose last bit is odd
    ("round to odd"). Rounding that once more (to float32, or in a later float64 addition) then
    gives the exactly rounded result: rounding twice to nearest could land on the wrong side
    of a tie."""
    with np.errstate(over="ignore", invalid="ignore"):
        total, error = two_sum(np.asarray(x, np.float64), np.asarray(y, np.float64))
        total = np.asarray(total)                       # (0-d arrays add up to a number)
        even = (total.view(np.int64) & 1) == 0
        move = (error != 0) & even & np.isfinite(total)
        if move.any():
            total = np.where(move, np.nextafter(total, np.where(error > 0, np.inf, -np.inf)), total)
    return total
