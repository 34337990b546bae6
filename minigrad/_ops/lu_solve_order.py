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

These give MKL's bits with MKL's factors (see decompositions.lu_factor): for any right-hand
side up to 8 x 8, and for a single column up to 32 x 32 (up to 4 x 4 for the transposed
solve; MKL blocks a single column's solve from 33 x 33 on); others agree to rounding (MKL's kernels for the transposed solve from 5 x 5 on add
in an order not found yet; for several columns of a larger matrix MKL splits the columns
among its threads, so its bits depend on torch.get_num_threads(): one order cannot give
them on every machine).
"""
import numpy as np


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
    one = lu.dtype.type(1)
    with np.errstate(all="ignore"):
        if transposed:
            _solve_rows(x, lu.swapaxes(-1, -2), downward=True, reciprocal=one)   # U^T
            _solve_rows(x, lu.swapaxes(-1, -2), downward=False, unit=True)      # L^T
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
                _solve_rows(x, lu, downward=False, reciprocal=one)               # U
    return x.reshape(batch + x.shape[-2:])


def _swap_rows(x, every, k, rows):
    row_k = x[every, k].copy()
    x[every, k] = x[every, rows]
    x[every, rows] = row_k


def _solve_rows(x, M, downward, unit=False, reciprocal=None):
    """One triangular solve, row by row (from the top when ``downward``, else from the
    bottom): the row's known terms added up starting from the far end (from the left below
    the diagonal, from the right above it), subtracted from the row at once, then (``unit``
    False) times 1/pivot."""
    n = M.shape[-1]
    for i in (range(n) if downward else reversed(range(n))):
        known = range(i) if downward else range(n - 1, i, -1)
        total = None
        for k in known:
            term = M[:, i, k, None] * x[:, k]
            total = term if total is None else total + term
        if total is not None:
            x[:, i] = x[:, i] - total
        if not unit:
            x[:, i] = x[:, i] * (reciprocal / M[:, i, i, None])


def _solve_lower_by_columns(x, L):
    """L y = b (1s on L's diagonal) column by column from the left: each solved unknown's
    terms subtracted from the rows below, one unknown at a time (MKL's order from 8 x 8)."""
    for k in range(L.shape[-1]):
        x[:, k + 1:] = x[:, k + 1:] - L[:, k + 1:, k, None] * x[:, k, None]


def _solve_upper_by_columns(x, U):
    """U x = y column by column from the right: each unknown divided by its pivot, then its
    terms subtracted from the rows above, one unknown at a time (MKL's order from 8 x 8)."""
    for k in reversed(range(U.shape[-1])):
        x[:, k] = x[:, k] / U[:, k, k, None]
        # (each row above on its own: one subtraction each, so all at once)
        x[:, :k] = x[:, :k] - U[:, :k, k, None] * x[:, k, None]
