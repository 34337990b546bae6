"""The LU factorization of a float64 square matrix of 17 x 17 to 23 x 23 in the order of
PyTorch's CPU build (MKL's dgetrf), so that the factors agree to the last bit.

Up to 16 x 16 MKL eliminates one column at a time (decompositions.lu_factor). From 17 x 17 on
it works in panels of 8 columns; each rule below was found by rebuilding every entry of
PyTorch's factors from the entries it depends on, trying the possible orders of the additions
(and fused multiply-adds) until one rebuilt all of them, on many random matrices of each size:

1. The panel (8 columns, all rows below) is factored left-looking, a column at a time: its
   part above the diagonal is solved with the panel's L, each entry as
   ``x - (l0 u0 + l1 u1 + ...)`` (the terms summed first, from the left); its part on and
   below the diagonal gets ``x - l0 u0 - l1 u1 - ...`` one term at a time; then the pivot
   (the largest magnitude, first one on ties), the row swap, and the column below the pivot
   times the pivot's reciprocal.
2. The rows of the panel right of it (U12 = L11^-1 A12) are solved row by row, two columns at
   a time: each entry is ``(x - l0 u0 - l2 u2 - ...) + (-l1 u1 - l3 u3 - ...)`` (the even and
   odd terms in two running sums), plus ``- l u`` for an odd last term; a last column without
   a partner is solved ``x - l0 u0 - l1 u1 - ...``, one term at a time.
3. The rest of the matrix gets A22 - L21 U12: with 12 or more rows, the entries in whole
   blocks of 4 x 4 through fused multiply-adds, ``fma(-l7, u7, ... fma(-l0, u0, x))``; the
   rows and columns left over, and all entries of a smaller update, one term at a time
   without fusing, except for the first row's entry of each column that starts at an odd
   multiple of 8 bytes in memory (by columns, a batch's matrices one after the other: so the
   2nd, 4th, ... column of an odd-sized matrix, and other columns in a batch): it takes the
   terms four at a time, the first four subtracted from x, each later group summed on its
   own and then added.

The rules are known for these sizes only (checked: every matrix of many random ones per
size, alone and in batches); from 24 x 24 MKL's products of blocks add in other orders not
found yet, and float32 (sgetrf) solves its panel rows in another order, so those keep the
column-at-a-time order, which agrees with PyTorch's factors to rounding.
"""
import numpy as np

PANEL = 8
SIZES = range(17, 24)


def lu_in_panels(lu):
    """Factor each matrix of ``lu`` (count, n, n), float64, 17 <= n <= 23, in place in MKL's
    order; returns the 0-based pivot rows (count, n) and LAPACK's info (count,)."""
    count, n = lu.shape[0], lu.shape[-1]
    pivots = np.zeros((count, n), dtype=np.int64)
    info = np.zeros(count, dtype=np.int32)
    with np.errstate(all="ignore"):
        for start in range(0, n, PANEL):
            end = min(start + PANEL, n)
            _factor_panel(lu, start, end, pivots, info)
            if end < n:
                _solve_panel_rows(lu, start, end)
                _update_rest(lu, start, end)
    return pivots, info


def _factor_panel(lu, start, end, pivots, info):
    """Rule 1: the columns start..end-1, left-looking; row swaps are applied to whole rows at
    once (the same final matrix as LAPACK's swaps of the panel first, the other columns after)."""
    count, n = lu.shape[0], lu.shape[-1]
    every = np.arange(count)
    one, tiny = np.float64(1), np.finfo(np.float64).tiny
    for j in range(start, end):
        for i in range(start + 1, j):               # U's part of column j, rows of the panel
            total = lu[:, i, start] * lu[:, start, j]
            for k in range(start + 1, i):
                total = total + lu[:, i, k] * lu[:, k, j]
            lu[:, i, j] = lu[:, i, j] - total
        for k in range(start, j):                    # the rest of column j, a term at a time
            lu[:, j:, j] -= lu[:, j:, k] * lu[:, k, j, None]
        p = j + np.argmax(np.abs(lu[:, j:, j]), axis=1)
        pivots[:, j] = p
        row_j, row_p = lu[every, j].copy(), lu[every, p].copy()
        lu[every, j], lu[every, p] = row_p, row_j
        pivot = lu[:, j, j]
        zero = pivot == 0
        info[(info == 0) & zero] = j + 1
        # (as in the unblocked order: an exact 0 leaves the column, a pivot whose reciprocal
        # would overflow is divided by)
        safe = np.where(zero, one, pivot)[:, None]
        column = lu[:, j + 1:, j]
        lu[:, j + 1:, j] = np.where((np.abs(pivot) < tiny)[:, None], column / safe, column * (one / safe))


def _solve_panel_rows(lu, start, end):
    """Rule 2: U12 = L11^-1 A12 for the panel's rows, columns right of the panel."""
    n = lu.shape[-1]
    paired_end = end + (n - end) // 2 * 2
    L = lu[:, start:end, start:end]
    if paired_end > end:
        B = lu[:, start:end, end:paired_end]
        for i in range(1, end - start):
            x = B[:, i].copy()
            even_terms = i // 2 * 2
            if even_terms:
                even, odd = x, None
                for k in range(0, even_terms, 2):
                    even = even - L[:, i, k, None] * B[:, k]
                    term = L[:, i, k + 1, None] * B[:, k + 1]
                    odd = -term if odd is None else odd - term
                x = even + odd
            if i % 2:
                x = x - L[:, i, i - 1, None] * B[:, i - 1]
            B[:, i] = x
    if paired_end < n:
        b = lu[:, start:end, paired_end]
        for k in range(end - start):
            b[:, k + 1:] -= L[:, k + 1:, k] * b[:, k, None]


def _update_rest(lu, start, end):
    """Rule 3: A22 -= L21 U12 for the rows and columns after the panel."""
    count, n = lu.shape[0], lu.shape[-1]
    C, L21, U12 = lu[:, end:, end:], lu[:, end:, start:end], lu[:, start:end, end:]
    # (where each entry sits in memory, counted in float64s: MKL's matrices are stored by
    # columns, each matrix of a batch right after the one before)
    position = (np.arange(count)[:, None, None] * n * n + np.arange(end, n)[None, None, :] * n
                + np.arange(end, n)[None, :, None])
    rows = C.shape[1]
    if rows < 12:
        _subtract_one_term_at_a_time(C, L21, U12, position)
        return
    # (blocks of 4 x 4 entries by fused multiply-adds; the columns left over, then the rows
    # left over, one term at a time)
    whole = rows // 4 * 4
    block = C[:, :whole, :whole]
    for k in range(end - start):
        block[...] = fma(-L21[:, :whole, k, None], U12[:, None, k, :whole], block)
    if whole < rows:
        _subtract_one_term_at_a_time(C[:, :, whole:], L21, U12[:, :, whole:], position[:, :, whole:])
        _subtract_one_term_at_a_time(C[:, whole:, :whole], L21[:, whole:], U12[:, :, :whole],
                                     position[:, whole:, :whole])


def _subtract_one_term_at_a_time(C, L21, U12, position):
    """C -= L21 U12, each entry x - l0 u0 - l1 u1 - ..., except the first row's entry of each
    column that starts at an odd position (MKL's loop takes two rows at a time from 16-byte
    boundaries and peels that entry off; a single row has no such loop): it takes the terms
    four at a time, the first four subtracted from x, each later group summed on its own and
    then added."""
    terms = L21.shape[-1]
    first = C[:, 0].copy()
    for k in range(terms):
        C -= L21[:, :, k, None] * U12[:, None, k]
    if C.shape[1] < 2:
        return
    l, u = L21[:, 0], U12
    for k in range(min(4, terms)):
        first = first - l[:, k, None] * u[:, k]
    for group in range(4, terms, 4):
        total = -(l[:, group, None] * u[:, group])
        for k in range(group + 1, min(group + 4, terms)):
            total = total - l[:, k, None] * u[:, k]
        first = first + total
    C[:, 0] = np.where(position[:, 0] % 2 == 1, first, C[:, 0])


def fma(a, b, c):
    """a * b + c in float64 rounded once, as the CPU's fused multiply-add (exactly, for finite
    values without overflow: Boldo and Melquiond's emulation). The product is split into its
    rounded value and its exact error (Dekker), added to c exactly (Knuth's two-sum), and the
    two small parts added with rounding to odd, which makes the last rounding the only one."""
    a, b, c = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64),
                                  np.asarray(c, np.float64))
    product = a * b
    (a_high, a_low), (b_high, b_low) = _split(a), _split(b)
    product_error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
    high, low = _two_sum(c, product)
    rest, lost = _two_sum(low, product_error)
    # rounding to odd: an inexact sum whose last bit is even moves one step toward the lost part
    even = (rest.view(np.int64) & 1) == 0
    toward = np.nextafter(rest, np.where(lost > 0, np.inf, -np.inf))
    rest = np.where((lost != 0) & even, toward, rest)
    out = high + rest
    # (where the emulation overflows or meets inf/nan, the plain expression gives the answer)
    return np.where(np.isfinite(out) & np.isfinite(product), out, product + c)


def _split(a):
    """a as high + low, each with at most 26 significant bits (Veltkamp's split)."""
    scaled = a * 134217729.0                 # 2**27 + 1
    high = scaled - (scaled - a)
    return high, a - high


def _two_sum(a, b):
    """a + b as the rounded sum and its exact error (Knuth)."""
    total = a + b
    b_part = total - a
    return total, (a - (total - b_part)) + (b - b_part)
