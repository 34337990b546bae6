"""A solve with LU factors in the order of PyTorch's CPU kernel (LAPACK's getrs from MKL).

Mathematically every order of the additions gives X with P L U X = B; in floating point
each order rounds its own way, and where the answer is 0 the order decides its sign.
linalg.solve, inv, lu_solve and the gradients of det and slogdet are such solves, so to
give PyTorch's bits, and its signs of zero at singular matrices, minigrad adds in MKL's
order, found by comparing their results with PyTorch's on many random matrices:

* ``A X = B`` (P L U X = B): the row swaps, then L y = P b row by row (each row's known
  terms summed from the left, then subtracted), then U x = y from the bottom row up, each
  row's known terms summed from the right end, subtracted, then multiplied by the reciprocal
  of the pivot; from 8 x 8 on, L y = P b column by column (each solved unknown's terms
  subtracted one at a time from the rows below), then each unknown of U x = y divided by its
  pivot and its terms subtracted one at a time from the rows above.
* ``A^T X = B`` (U^T L^T P^T X = B): U^T from the top (terms summed from the left, times the
  reciprocal of the pivot), L^T from the bottom (terms summed from the right), then the row
  swaps undone, the last first.

On Intel's processors MKL runs other kernels (see mkl_kernels), which fuse each multiply
and add: a row's single known term is subtracted in one rounding, and longer sums start
with the second term rounded plus the first exactly, then each term added exactly (for L^T
the terms are taken from the left); their 3 x 3 kernel solves the columns two at a time and
divides by U's pivots in a column left without a partner; from 8 x 8 on, each subtraction
by columns is fused.

These give MKL's bits with MKL's factors (see decompositions.lu_factor): for any right-hand
side up to 8 x 8, and for a single column up to 32 x 32 (up to 4 x 4 for the transposed
solve; MKL blocks a single column's solve from 33 x 33 on); others agree to rounding (MKL's kernels for the transposed solve from 5 x 5 on add
in an order not found yet; for several columns of a larger matrix MKL splits the columns
among its threads, so its bits depend on torch.get_num_threads(): one order cannot give
them on every machine).
"""
import numpy as np

from .._fused_multiply_add import fma as _fma     # (a * b + c rounded once, in the arrays' dtype)
from .mkl_kernels import MKL_FUSES_MULTIPLY_ADDS


def lu_solve_like_pytorch(lu, pivots, b, transposed=False):
    """X with A X = b (``transposed``: A^T X = b) for a batch of LU factors ``lu`` (..., n, n),
    1-based ``pivots`` (..., n) and right-hand sides ``b`` (..., n, k), in MKL's order."""
    n = lu.shape[-1]
    batch = lu.shape[:-2]
    if lu.size == 0 or b.size == 0:             # nothing to solve (and numpy cannot reshape -1)
        return np.zeros(batch + b.shape[-2:], dtype=lu.dtype)
    lu = lu.reshape((-1, n, n))
    pivots = pivots.reshape((-1, n)) - 1
    x = np.array(b, dtype=lu.dtype, copy=True).reshape((lu.shape[0], n, -1))
    every = np.arange(lu.shape[0])
    with np.errstate(all="ignore"):
        if transposed:
            _solve_rows_with_pivots(x, lu.swapaxes(-1, -2), downward=True)        # U^T
            _solve_rows(x, lu.swapaxes(-1, -2), downward=False, unit=True, fused_from_the_left=True)  # L^T
            for k in reversed(range(n)):
                _swap_rows(x, every, k, pivots[:, k])
        else:
            for k in range(n):
                _swap_rows(x, every, k, pivots[:, k])
            if n >= 8:
                _solve_lower_by_columns(x, lu)                                  # L
                _solve_upper_by_columns(x, lu)                                  # U
            else:
                _solve_rows(x, lu, downward=True, unit=True)                    # L
                _solve_rows_with_pivots(x, lu, downward=False)                   # U
    return x.reshape(batch + x.shape[-2:])


def _swap_rows(x, every, k, rows):
    row_k = x[every, k].copy()
    x[every, k] = x[every, rows]
    x[every, rows] = row_k


def _solve_rows_with_pivots(x, M, downward):
    """_solve_rows for U or U^T: each row times the reciprocal of its pivot, except in MKL's
    fused 3 x 3 kernel (Intel's processors), which solves the columns two at a time and
    divides by the pivots in a column left without a partner."""
    one = M.dtype.type(1)
    if MKL_FUSES_MULTIPLY_ADDS and M.shape[-1] == 3 and x.shape[-1] % 2 == 1:
        _solve_rows(x[..., :-1], M, downward, reciprocal=one)
        _solve_rows(x[..., -1:], M, downward, divide=True)
    else:
        _solve_rows(x, M, downward, reciprocal=one)


def _solve_rows(x, M, downward, unit=False, reciprocal=None, divide=False, fused_from_the_left=False):
    """One triangular solve, row by row (from the top when ``downward``, else from the
    bottom): the row's known terms added up starting from the far end (from the left below
    the diagonal, from the right above it), subtracted from the row at once, then (``unit``
    False) times 1/pivot, or divided by the pivot (``divide``).

    With fused multiply-adds (Intel's processors, see mkl_kernels) the sum of the negated
    terms starts as the second term rounded plus the first term exactly, and each later term
    is added exactly (one rounding per term), then the sum is added to the row; a single
    known term is subtracted from the row exactly. MKL's
    fused kernel for L^T takes the terms from the left (``fused_from_the_left``)."""
    n = M.shape[-1]
    for i in (range(n) if downward else reversed(range(n))):
        known = list(range(i) if downward else range(n - 1, i, -1))
        if MKL_FUSES_MULTIPLY_ADDS and fused_from_the_left:
            known.sort()
        if MKL_FUSES_MULTIPLY_ADDS and len(known) == 1:
            k = known[0]
            x[:, i] = _fma(-M[:, i, k, None], x[:, k], x[:, i])
        elif MKL_FUSES_MULTIPLY_ADDS and known:
            # (in the order the terms are added: the second rounded, the first, the rest;
            # all but the last are summed, the sum negated and the last term subtracted
            # from it, and that is added to the row: the same numbers as subtracting the
            # sum, and where terms add up to 0, MKL's signs)
            order = [known[1], known[0]] + known[2:]
            partial = M[:, i, order[0], None] * x[:, order[0]]
            for k in order[1:-1]:
                partial = _fma(M[:, i, k, None], x[:, k], partial)
            last = order[-1]
            total = _fma(-M[:, i, last, None], x[:, last], -partial)
            x[:, i] = x[:, i] + total
        elif known:
            total = M[:, i, known[0], None] * x[:, known[0]]
            for k in known[1:]:
                total = total + M[:, i, k, None] * x[:, k]
            x[:, i] = x[:, i] - total
        if divide:
            x[:, i] = x[:, i] / M[:, i, i, None]
        elif not unit:
            x[:, i] = x[:, i] * (reciprocal / M[:, i, i, None])


def _solve_lower_by_columns(x, L):
    """L y = b (1s on L's diagonal) column by column from the left: each solved unknown's
    terms subtracted from the rows below, one unknown at a time (MKL's order from 8 x 8;
    fused on Intel's processors)."""
    for k in range(L.shape[-1]):
        x[:, k + 1:] = _minus_product(x[:, k + 1:], L[:, k + 1:, k, None], x[:, k, None])


def _solve_upper_by_columns(x, U):
    """U x = y column by column from the right: each unknown divided by its pivot, then its
    terms subtracted from the rows above, one unknown at a time (MKL's order from 8 x 8;
    fused on Intel's processors)."""
    for k in reversed(range(U.shape[-1])):
        x[:, k] = x[:, k] / U[:, k, k, None]
        # (each row above on its own: one subtraction each, so all at once)
        x[:, :k] = _minus_product(x[:, :k], U[:, :k, k, None], x[:, k, None])


def _minus_product(x, a, b):
    """x - a * b, in one rounding where MKL fuses it (see mkl_kernels)."""
    if MKL_FUSES_MULTIPLY_ADDS:
        return _fma(-a, b, x)
    return x - a * b
