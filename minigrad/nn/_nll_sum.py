"""The order in which PyTorch's CPU ``nll_loss`` adds up a batch's losses (and weights).

Its kernel (one label per row) keeps 8 levels of partial sums, like a counter in base
``step`` = 2 ** max(4, ceil(log2(batch)) // 8): each row's loss goes into level 0, and after row
``b`` every level ``j`` whose digits up to ``j`` of ``b`` are all 0 (``b`` a multiple of
``step ** (j + 1)``) moves its sum into level ``j + 1``. So row 0 goes straight to the top
level; rows 1 to ``step`` are added one by one into level 0 and passed on together, and so on.
At the end the levels are added from 0, the lowest first. A row whose label is ``ignore_index``
is skipped before the passing on, so it shifts nothing but also passes nothing on.
"""
import numpy as np

from .._cascade_sum import _block_sums, _running_sum
from .._warnings import quietly

LEVELS = 8


def _step(n):
    """Rows per block at each level for a batch of n rows."""
    ceil_log2 = int(n - 1).bit_length() if n > 1 else 0
    return 1 << max(4, ceil_log2 // LEVELS)


def _sum_every_row_kept(values, step):
    """The total of values (no row ignored): the levels' sums, found block by block."""
    zero = values.dtype.type(0)
    total = zero
    items = values[1:]                     # row 0 went to the top level
    for _ in range(LEVELS - 1):
        whole = len(items) // step
        total = total + _running_sum(items[whole * step:])      # what stays in this level
        if whole == 0:                     # the levels above are empty (adding 0 changes
            return total + (zero + values[0])                   # nothing: total is never -0)
        items = _block_sums(items, step)                          # passed on, one per block
    return total + _running_sum(np.concatenate([values[:1], items]))     # the top level


def _sum_with_rows_skipped(values, rows, step):
    """The total of values[i], taken at batch rows rows[i] (ignored rows left out), one by one."""
    partial = [values.dtype.type(0)] * LEVELS
    for value, b in zip(values, rows.tolist()):
        partial[0] = partial[0] + value
        for j in range(LEVELS - 1):
            if b % step ** (j + 1):
                break
            partial[j + 1] = partial[j + 1] + partial[j]
            partial[j] = values.dtype.type(0)
    total = values.dtype.type(0)
    for level in partial:
        total = total + level
    return total


# With ignored rows the levels are followed row by row, in Python: up to this many rows (above,
# numpy's sum, which can differ in the last bit)
MOST_ROWS_ONE_BY_ONE = 1 << 16


def nll_sum(values, kept=None):
    """The sum of a float32/float64 1-d array of per-row losses (or weights) in PyTorch's order;
    ``kept``: a boolean mask of the rows not ignored (None: all), values holding those rows only."""
    n = len(values) if kept is None else len(kept)
    if len(values) == 0:
        return values.dtype.type(0)
    step = _step(n)
    if kept is None:      # (a sum past the dtype's range is inf, silently as in PyTorch: see quietly)
        return quietly(_sum_every_row_kept, values, step)
    with np.errstate(over="ignore", invalid="ignore"):
        if n > MOST_ROWS_ONE_BY_ONE:
            return values.sum()
        return _sum_with_rows_skipped(values, np.flatnonzero(kept), step)
