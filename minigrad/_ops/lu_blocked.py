"""The LU factorization of a float64 square matrix from 17 x 17 to 64 x 64 (the sizes in SIZES)
in the order of PyTorch's CPU build (MKL's dgetrf), so that the factors agree to the last bit.

Up to 16 x 16 MKL eliminates one column at a time (decompositions.lu_factor). From 17 x 17 on
it works in panels of 8 columns, inside panels of 32 columns (a panel of 32 is factored with
rules 1-3 applied to its own columns, then rules 2 and 3 bring its 32 columns to the rest of
the matrix); each rule below was found by rebuilding every entry of
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
   a partner is solved ``x - l0 u0 - l1 u1 - ...``, one term at a time, except that from the
   9th row on the terms before the row's block of 8 rows go first into running sums (four
   for the 9th, 11th, ... row, two for the 10th, 12th, ...).
3. The rest of the matrix gets A22 - L21 U12: the entries in whole blocks of 12 rows x 4
   columns through fused multiply-adds, ``fma(-l7, u7, ... fma(-l0, u0, x))``; the
   rows and columns left over (all entries, below 12 rows), one term at a time
   without fusing, except for the first row's entry of each column that starts at an odd
   multiple of 8 bytes in memory (by columns, a batch's matrices one after the other: so the
   2nd, 4th, ... column of an odd-sized matrix, and other columns in a batch): it takes the
   terms four at a time, the first four subtracted from x, each later group summed on its
   own and then added.

The rules are known for these sizes only (checked: every matrix of many random ones per
size, alone and in batches); odd sizes from 35 x 35 (and 42 x 42) meet the update of 32
terms in a peeled row or a short block, whose order is not known yet, and float32 (sgetrf)
solves its panel rows in another order, so those keep the column-at-a-time order, which
agrees with PyTorch's factors to rounding. On Intel's processors MKL works otherwise:
lu_fused_in_panels follows it (float32 and float64 up to 64 x 64).
"""
import numpy as np

from .._fused_multiply_add import fma      # (a * b + c rounded once, in the arrays' dtype)

PANEL = 8
OUTER_PANEL = 32
# (the sizes where every rule above was checked; odd sizes from 35 and 42 x 42 meet the
# update of 32 terms in a peeled row or a short block, whose order is not known yet)
SIZES = frozenset(range(17, 35)) | frozenset(range(36, 65, 2)) - {42}
# (on Intel's processors: the sizes lu_fused_in_panels was checked at, its panels' width, and
# the width of the outer panels of float32, inside which its panels update only their columns)
FUSED_PANEL_SIZES = {np.dtype(np.float32): frozenset(range(17, 65)),
                     np.dtype(np.float64): frozenset(range(17, 65))}
FUSED_PANEL = {np.dtype(np.float32): 16, np.dtype(np.float64): 24}
FUSED_OUTER_PANEL = {np.dtype(np.float32): 32, np.dtype(np.float64): None}
# (the update of the rest takes the columns 6 at a time, and the rows 64 bytes at a time)
UPDATE_COLUMNS = 6
UPDATE_ROW_BYTES = 64


def lu_in_panels(lu):
    """Factor each matrix of ``lu`` (count, n, n), float64, n in SIZES, in place in MKL's
    order; returns the 0-based pivot rows (count, n) and LAPACK's info (count,)."""
    count, n = lu.shape[0], lu.shape[-1]
    pivots = np.zeros((count, n), dtype=np.int64)
    info = np.zeros(count, dtype=np.int32)
    with np.errstate(all="ignore"):
        for outer in range(0, n, OUTER_PANEL):
            outer_end = min(outer + OUTER_PANEL, n)
            for start in range(outer, outer_end, PANEL):
                end = min(start + PANEL, outer_end)
                _factor_panel(lu, start, end, pivots, info)
                if end < outer_end:
                    _solve_panel_rows(lu, start, end, outer_end)
                    _update_rest(lu, start, end, outer_end)
            if outer_end < n:
                _solve_panel_rows(lu, outer, outer_end, n)
                _update_rest(lu, outer, outer_end, n)
    return pivots, info


def lu_fused_in_panels(lu):
    """Factor each matrix of ``lu`` (count, n, n), float32 or float64, n in FUSED_PANEL_SIZES
    of its dtype, in place in the order of MKL's getrf on Intel's processors (see
    mkl_kernels); returns the 0-based pivot rows (count, n) and LAPACK's info (count,).

    MKL works in panels of FUSED_PANEL columns (16 of float32, 24 of float64). Each panel is
    factored left-looking, a column at a time, with the terms from the panel's first column
    on (_factor_panel_fused), fusing each multiply and add. Then the panel's rows right of it
    (U12 = L11^-1 A12) are solved row by row, each earlier row's term subtracted from the
    whole row exactly, one at a time; the rest of the matrix gets A22 - L21 U12
    (_update_rest_fused); and the next panel follows. float32 works so inside outer panels
    of 32 columns (FUSED_OUTER_PANEL), whose panels solve and update only the outer panel's
    columns; the outer panel then does the same for the columns right of it.
    Found by rebuilding every entry of PyTorch's factors from the entries it depends on;
    checked on 100 random matrices and more of every size in FUSED_PANEL_SIZES."""
    count, n = lu.shape[0], lu.shape[-1]
    pivots = np.zeros((count, n), dtype=np.int64)
    info = np.zeros(count, dtype=np.int32)
    width, outer_width = FUSED_PANEL[lu.dtype], FUSED_OUTER_PANEL[lu.dtype] or n
    with np.errstate(all="ignore"):
        for outer in range(0, n, outer_width):
            outer_end = min(outer + outer_width, n)
            for start in range(outer, outer_end, width):
                end = min(start + width, outer_end)
                _factor_panel_fused(lu, start, end, pivots, info)
                if end < outer_end:
                    _solve_and_update_fused(lu, start, end, outer_end)
            if outer_end < n:
                _solve_and_update_fused(lu, outer, outer_end, n)
    return pivots, info


def _solve_and_update_fused(lu, start, end, stop):
    """After the panel of columns start..end-1: its rows in the columns end..stop-1 solved
    (U12 = L11^-1 A12), row by row, each earlier row's term subtracted exactly, one at a time;
    then the rows below it in those columns updated (_update_rest_fused)."""
    for i in range(start + 1, end):
        for k in range(start, i):
            lu[:, i, end:stop] = fma(-lu[:, i, k, None], lu[:, k, end:stop], lu[:, i, end:stop])
    _update_rest_fused(lu, start, end, stop)


def _factor_panel_fused(lu, start, end, pivots, info):
    """The columns start..end-1 left-looking, with the terms from column ``start`` on: column
    j's part above the diagonal is solved row by row, each entry ``x - (l . u)`` with the dot
    product in a vector loop (dot_in_lanes); its part on and below the diagonal gets each
    earlier term subtracted exactly, one at a time, in order; then the pivot."""
    for j in range(start, end):
        for i in range(start + 1, j):
            lu[:, i, j] = lu[:, i, j] - dot_in_lanes(lu[:, i, start:i], lu[:, start:i, j])
        for k in range(start, j):
            lu[:, j:, j] = fma(-lu[:, j:, k], lu[:, k, j, None], lu[:, j:, j])
        _pivot_and_scale(lu, j, pivots, info)


def dot_in_lanes(l, u):
    """The sum of l_k u_k over the last dim, as a vector loop of 32 bytes with fused
    multiply-adds (four float64 lanes, eight float32 ones): lane q takes terms q, q + lanes,
    ... (the first rounded, each later one added exactly); then the lanes are added as the
    processor's horizontal add does: neighbours first, then the halves of what is left
    (for eight: (1st + 3rd) + (2nd + 4th) of the four pair sums)."""
    terms, lanes = l.shape[-1], 32 // l.dtype.itemsize
    sums = []
    for lane in range(lanes):
        if lane >= terms:                             # (an empty lane holds 0)
            sums.append(np.zeros(l.shape[:-1], l.dtype))
            continue
        total = l[..., lane] * u[..., lane]
        for k in range(lane + lanes, terms, lanes):
            total = fma(l[..., k], u[..., k], total)
        sums.append(total)
    sums = [sums[q] + sums[q + 1] for q in range(0, lanes, 2)]
    while len(sums) > 1:
        half = len(sums) // 2
        sums = [sums[q] + sums[q + half] for q in range(half)]
    return sums[0]


def _update_rest_fused(lu, start, end, stop):
    """A22 -= L21 U12 after the panel of columns start..end-1, for the rows after it and the
    columns end..stop-1, in blocks as MKL's kernel takes
    them: the columns 6 at a time (UPDATE_COLUMNS; fewer than 6 make one block, and so do the
    1 to 5 left over), the rows 64 bytes at a time (8 float64s, 16 float32s; as many as there
    are, if no more than that). Each entry's terms are summed in running sums (each sum's
    first term rounded, each later one added exactly), which are added, then subtracted from
    the entry: one running sum, but two (the even terms and the odd ones) in a block of three
    columns or of at most 32 bytes of rows; a block of one or two columns takes two running
    sums that multiply and add with a rounding each."""
    n = lu.shape[-1]
    rows_at_a_time = UPDATE_ROW_BYTES // lu.dtype.itemsize
    if n - end > rows_at_a_time:
        row_blocks = [(r, min(r + rows_at_a_time, n)) for r in range(end, n, rows_at_a_time)]
    else:
        row_blocks = [(end, n)]
    column_blocks = [(c, min(c + UPDATE_COLUMNS, stop)) for c in range(end, stop, UPDATE_COLUMNS)]
    for row_first, row_stop in row_blocks:
        few_rows = row_stop - row_first <= rows_at_a_time // 2
        for column_first, column_stop in column_blocks:
            columns = column_stop - column_first
            fused = columns > 2
            running_sums = 2 if columns <= 3 or few_rows else 1
            L21 = lu[:, row_first:row_stop, start:end]
            U12 = lu[:, start:end, column_first:column_stop]
            sums = [None] * running_sums
            for k in range(end - start):
                l, u = L21[:, :, k, None], U12[:, None, k, :]
                which = k % running_sums
                if sums[which] is None:
                    sums[which] = l * u
                else:
                    sums[which] = fma(l, u, sums[which]) if fused else sums[which] + l * u
            total = sums[0] if running_sums == 1 else sums[0] + sums[1]
            block = (slice(None), slice(row_first, row_stop), slice(column_first, column_stop))
            lu[block] = lu[block] - total


def _factor_panel(lu, start, end, pivots, info):
    """Rule 1: the columns start..end-1, left-looking; row swaps are applied to whole rows at
    once (the same final matrix as LAPACK's swaps of the panel first, the other columns after)."""
    for j in range(start, end):
        for i in range(start + 1, j):               # U's part of column j, rows of the panel
            total = lu[:, i, start] * lu[:, start, j]
            for k in range(start + 1, i):
                total = total + lu[:, i, k] * lu[:, k, j]
            lu[:, i, j] = lu[:, i, j] - total
        for k in range(start, j):                    # the rest of column j, a term at a time
            lu[:, j:, j] -= lu[:, j:, k] * lu[:, k, j, None]
        _pivot_and_scale(lu, j, pivots, info)


def _pivot_and_scale(lu, j, pivots, info):
    """Column j's pivot (the largest magnitude on or below the diagonal, the first on ties),
    the swap of its row with row j (whole rows), and the column below it times 1/pivot."""
    every = np.arange(lu.shape[0])
    one, tiny = lu.dtype.type(1), np.finfo(lu.dtype).tiny
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


def _solve_panel_rows(lu, start, end, n):
    """Rule 2: U12 = L11^-1 A12 for the panel's rows, columns end..n-1."""
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
        for i in range(1, end - start):
            # (the terms before the row's block of 8 rows in running sums: four for an even
            # row, two for an odd one; then the block's own terms one at a time)
            before = i // 8 * 8
            x = b[:, i] if before == 0 else _running_sums(b[:, i], L[:, i, :before], b[:, :before],
                                                          4 if i % 2 == 0 else 2)
            for k in range(before, i):
                x = x - L[:, i, k] * b[:, k]
            b[:, i] = x


def _running_sums(x, l, u, lanes):
    """x - sum l_k u_k with the terms dealt in turn to ``lanes`` running sums, the first
    starting from x; then the sums added pairwise ((1st + 3rd) + (2nd + 4th) for four)."""
    sums = [x] + [None] * (lanes - 1)
    for k in range(l.shape[-1]):
        term = l[:, k] * u[:, k]
        lane = k % lanes
        sums[lane] = -term if sums[lane] is None else sums[lane] - term
    if lanes == 4:
        return (sums[0] + sums[2]) + (sums[1] + sums[3])
    return sums[0] + sums[1]


def _update_rest(lu, start, end, stop):
    """Rule 3: A22 -= L21 U12 for the rows after the panel, columns end..stop-1."""
    count, n = lu.shape[0], lu.shape[-1]
    C, L21, U12 = lu[:, end:, end:stop], lu[:, end:, start:end], lu[:, start:end, end:stop]
    # (where each entry sits in memory, counted in float64s: MKL's matrices are stored by
    # columns, each matrix of a batch right after the one before)
    position = (np.arange(count)[:, None, None] * n * n + np.arange(end, stop)[None, None, :] * n
                + np.arange(end, n)[None, :, None])
    # (blocks of 12 rows x 4 columns by fused multiply-adds; the columns left over, then the
    # rows left over, one term at a time)
    rows, columns = C.shape[1] // 12 * 12, C.shape[2] // 4 * 4
    if rows == 0 or columns == 0:
        _subtract_one_term_at_a_time(C, L21, U12, position)
        return
    block = C[:, :rows, :columns]
    for k in range(end - start):
        block[...] = fma(-L21[:, :rows, k, None], U12[:, None, k, :columns], block)
    if columns < C.shape[2]:
        _subtract_one_term_at_a_time(C[:, :, columns:], L21, U12[:, :, columns:], position[:, :, columns:])
    if rows < C.shape[1]:
        _subtract_one_term_at_a_time(C[:, rows:, :columns], L21[:, rows:], U12[:, :, :columns],
                                     position[:, rows:, :columns])


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
