"""The order in which PyTorch's CPU adds up a float32 row, so that ``sum`` gives its last bit.

Adding float32 numbers rounds after every addition, so the order decides the last bits.
numpy adds in pairs of blocks of 128 (pairwise summation); PyTorch's ``cascade_sum`` (its
CPU sum kernel) instead keeps partial sums at a few *levels*: it adds ``step`` numbers
(at least 16) into level 0, moves that total into level 1, and every ``step`` totals
level 1 moves into level 2, and so on; numbers of similar size are then added together,
which keeps the rounding error small, in one pass over the row.

On top of that, for speed:

* a row of at least 8 float32 is read as vectors of 8 numbers (AVX2), every lane of a
  vector keeping its own sums, and four vectors in a row go to four separate sets of sums
  (more additions in flight at once); at the end the four are added, the numbers after the
  last whole vector are added one by one, then the 8 lanes one by one;
* a sum of all the numbers of a tensor longer than 32768 is cut into one piece per thread
  (as in ``_vectorized_loop``); each piece is summed as above, then the pieces' totals.

:func:`row_sums` follows those steps with numpy arrays, many rows at once, and
:func:`pytorch_sum` uses it where PyTorch's kernel walks the numbers that way: all the
numbers of a tensor laid out in one block, or its last dimensions. float64 goes the same
way with 4 numbers in a vector.
"""
import math

import numpy as np

from ._vectorized_loop import GRAIN_SIZE, THREADS, pieces

VECTOR_BYTES = 32      # an AVX2 vector: 8 float32 or 4 float64
INTERLEAVE = 4         # consecutive vectors that go to separate sets of sums
LEVELS = 4


def _running_sum(items, axis=0):
    """items[0] + items[1] + ... left to right along axis 0 (or 1), starting from 0.

    numpy's ``sum`` adds in pairs when it runs along the numbers lying next to each other in
    memory; across rows of a C-ordered array (each row at least 2 wide) it adds one row after
    the other, in order, as wanted. A single column is added in order with ``accumulate``.
    (Adding 0 at the end gives 0 + -0 = 0 as PyTorch's sums, which start from 0, do.)"""
    if items.shape[axis] == 0:
        return np.zeros(items.shape[:axis] + items.shape[axis + 1:], items.dtype)
    if math.prod(items.shape[axis + 1:]) > 1:
        return np.add.reduce(np.ascontiguousarray(items), axis=axis) + items.dtype.type(0)
    running = np.add.accumulate(items, axis=axis)
    return (running[-1] if axis == 0 else running[:, -1]) + items.dtype.type(0)


def _block_sums(items, step):
    """The running sum of each whole block of ``step`` items (the rest of the items ignored)."""
    whole = len(items) // step
    blocks = items[:whole * step].reshape((whole, step) + items.shape[1:])
    return _running_sum(blocks, axis=1)


def _cascade(items):
    """The sum of items (along axis 0) with PyTorch's levels of partial sums (multi_row_sum)."""
    step = 1 << max(4, (int(len(items) - 1).bit_length() if len(items) > 1 else 0) // LEVELS)
    if len(items) < step:                                     # all of it stays in level 0
        return _running_sum(items)
    level = _block_sums(items, step)                           # each full block, into level 1
    # what is left in level 0; None for nothing (a batch of 128 in blocks of 16): 0 + a sum
    # from 0, which is never -0, is that sum, so no zeros need making and adding
    total = _running_sum(items[len(level) * step:]) if len(items) % step else None
    for _ in range(LEVELS - 2):                               # levels 1 and 2 pass on groups
        if len(level) < step:
            break
        whole = len(level) // step * step
        rest = _running_sum(level[whole:])                    # what is left in this level
        total = rest if total is None else total + rest
        level = _block_sums(level, step)
    # the highest level reached keeps the rest (the levels above it hold 0)
    top = _running_sum(level)
    return top if total is None else total + top


def _interleaved_sum(items):
    """Groups of 4 consecutive items go to 4 cascades; the items left over join the first."""
    groups = len(items) // INTERLEAVE
    if groups == 0:
        return _running_sum(items)
    sums = _cascade(items[:groups * INTERLEAVE].reshape((groups, INTERLEAVE) + items.shape[1:]))
    if len(items) == groups * INTERLEAVE:                     # no item left over: nothing to join
        return _running_sum(sums)
    return _running_sum(np.concatenate([sums[:1], items[groups * INTERLEAVE:], sums[1:]]))


def _row_sums_one_thread(rows):
    """Sums of the rows (last axis) of a 2-D float array, as one thread of PyTorch adds them."""
    n = rows.shape[1]
    lanes_per_vector = VECTOR_BYTES // rows.itemsize
    if n < lanes_per_vector:                               # too short for vectors: numbers one at a time
        return _interleaved_sum(rows.T)
    vectors = n // lanes_per_vector
    in_vectors = vectors * lanes_per_vector
    lanes = _interleaved_sum(rows[:, :in_vectors].reshape(len(rows), vectors, lanes_per_vector)
                             .transpose(1, 0, 2))          # (rows, lanes): each lane's own sum
    # from 0: the numbers after the last vector one by one, then the lanes one by one
    return _running_sum(np.concatenate([rows[:, in_vectors:], lanes], axis=1), axis=1)


def row_sums(rows):
    """Sums over the last axis of a C-contiguous 2-D float32 or float64 array, in PyTorch's order."""
    if len(rows) != 1 or rows.shape[1] <= GRAIN_SIZE:   # (many rows: threads share the rows)
        return _row_sums_one_thread(rows)
    per_thread = np.zeros((THREADS, 1), rows.dtype)
    for thread, (start, stop) in enumerate(pieces(rows.shape[1])):
        per_thread[thread] = _row_sums_one_thread(rows[:, start:stop])
    return _interleaved_sum(per_thread)         # one thread adds up the threads' totals


def column_sums(block):
    """Sums down the columns of a (reduced, kept, columns) float array, as PyTorch's
    ``vectorized_outer_sum`` adds them: the numbers of a column lie a row apart in memory, so
    each column (or lane) keeps its own sums. Columns in groups of 4 vectors: one cascade each;
    the remaining whole vectors and then single columns: 4 consecutive rows to 4 cascades."""
    columns = block.shape[-1]
    lanes_per_vector = VECTOR_BYTES // block.itemsize
    group = INTERLEAVE * (lanes_per_vector if columns >= lanes_per_vector else 1)
    in_groups = columns // group * group
    # (the whole vectors after the groups and the single columns are summed the same way, each
    # column on its own: one call for both; and an empty part would only cost numpy calls)
    parts = [_cascade(block[..., :in_groups]) if in_groups else None,
             _interleaved_sum(block[..., in_groups:]) if columns > in_groups else None]
    parts = [part for part in parts if part is not None]
    return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=-1)


def pytorch_sum(array, dims, keepdim, quiet=False):
    """The float32/float64 sum of ``array`` over ``dims`` (sorted) in PyTorch's order, or None
    where minigrad does not follow PyTorch's order (then numpy's sum may differ in the last bit).

    Followed: every dim of a C- or Fortran-ordered array (read in memory order), and any run
    of neighbouring dims of a C-ordered one: the last ones (each row summed on its own,
    :func:`row_sums`) or with dims after them (down the columns, :func:`column_sums`).
    ``quiet``: numpy's warnings are already off (the backward pass), so no errstate is entered."""
    if array.dtype not in (np.float32, np.float64) or array.size == 0:
        return None
    if quiet:
        return _ordered_sum(array, dims, keepdim)
    with np.errstate(over="ignore", invalid="ignore"):     # inf + -inf = nan, silently, as PyTorch
        return _ordered_sum(array, dims, keepdim)


def _ordered_sum(array, dims, keepdim):
    """pytorch_sum's work (see there)."""
    shape = array.shape
    if dims == (0,) and len(shape) == 2 and shape[0] > 1 and shape[1] > 1 and array.flags.c_contiguous:
        # a bias's gradient summed over the batch, at every training step: straight to the
        # columns' sums (the case "before == 1" below), without finding the general case
        sums = _short_column_sums(array)
        if sums is not None:
            return sums.reshape((1, shape[1]) if keepdim else (shape[1],))
    out_shape = tuple(1 if d in dims else size for d, size in enumerate(shape)) if keepdim else \
        tuple(size for d, size in enumerate(shape) if d not in dims)
    if array.size == math.prod(out_shape):        # one number per sum: 0 + it
        return (array + array.dtype.type(0)).reshape(out_shape)
    if len(dims) == array.ndim:
        if array.flags.c_contiguous or array.flags.f_contiguous:
            in_memory_order = array.reshape(1, -1, order="C" if array.flags.c_contiguous else "F")
            return row_sums(in_memory_order)[0].reshape(out_shape)
        return None
    if not array.flags.c_contiguous:
        return None
    if dims != tuple(range(dims[0], dims[-1] + 1)):
        return _sum_of_apart_dims(array, dims, out_shape)
    before, reduced = math.prod(shape[:dims[0]]), math.prod(shape[dims[0]:dims[-1] + 1])
    after = math.prod(shape[dims[-1] + 1:])
    if after == 1:
        return row_sums(array.reshape(before, reduced)).reshape(out_shape)
    if before == 1:
        # (the leading dims: a bias's gradient summed over the batch, at every training step)
        sums = _short_column_sums(array.reshape(reduced, after))
        if sums is not None:
            return sums.reshape(out_shape)
    block = array.reshape(before, reduced, after).transpose(1, 0, 2)
    return column_sums(block).reshape(out_shape)


def _short_column_sums(rows):
    """column_sums of a C-ordered (rows, columns) array in a few numpy calls, or None.

    For the usual shapes: every column in the groups of vectors, or every column interleaved
    (4 consecutive rows to 4 cascades), and cascades that reach level 1 at most (at most
    step * step rows, in whole blocks). numpy's reduce over rows adds one row after the other;
    starting from the first number instead of from 0 changes only the sign of a zero sum, so
    one 0 added at the end gives the same bits as column_sums, which adds it at every step."""
    n, columns = rows.shape
    lanes_per_vector = VECTOR_BYTES // rows.itemsize
    group = INTERLEAVE * (lanes_per_vector if columns >= lanes_per_vector else 1)
    if columns % group == 0:                                 # each column its own cascade
        sums = _short_cascade(rows)
    elif columns < group and columns > 1 and n % INTERLEAVE == 0:     # 4 interleaved cascades
        sums = _short_cascade(rows.reshape(n // INTERLEAVE, INTERLEAVE, columns))
        sums = None if sums is None else np.add.reduce(sums, axis=0)
    else:
        return None
    return None if sums is None else sums + rows.dtype.type(0)


def _short_cascade(items):
    """_cascade of items (along axis 0, more than one number after it) without its last 0:
    all in level 0, or whole blocks of ``step`` into level 1 and those in order; else None."""
    n = len(items)
    step = 1 << max(4, (int(n - 1).bit_length() if n > 1 else 0) // LEVELS)
    if n < step:
        return np.add.reduce(items, axis=0)
    if n % step or n >= step * step:
        return None
    blocks = np.add.reduce(items.reshape((n // step, step) + items.shape[1:]), axis=1)
    return np.add.reduce(blocks, axis=0)


def _sum_of_apart_dims(array, dims, out_shape):
    """The sum over reduced dims that are not all neighbours (x.sum((0, 2))) of a C-ordered array.

    PyTorch's loop puts the reduced dims first, the one with the smallest step in memory
    innermost (joined with its reduced neighbours into one run), then the next reduced one: its
    kernel sums each run (a row of it: in vectors if its numbers lie next to each other, else one
    at a time) and adds each row's total into the result, one row after the other (the next
    reduced dim fastest). Followed while one thread does the work (up to GRAIN_SIZE numbers)."""
    if array.size > GRAIN_SIZE:
        return None
    # size-1 dims change nothing (PyTorch's loop drops them): leave them out
    sizes = [n for n in array.shape if n != 1]
    is_reduced = [d in dims for d, n in enumerate(array.shape) if n != 1]
    array = array.reshape(sizes)
    reduced = [d for d, r in enumerate(is_reduced) if r]
    innermost = [reduced[-1]]               # the innermost reduced dim and its reduced neighbours
    while innermost[0] - 1 in reduced:
        innermost.insert(0, innermost[0] - 1)
    outer = [d for d in reduced if d not in innermost]
    if not outer:                           # (neighbours once the size-1 dims are left out)
        return _ordered_sum(array, tuple(reduced), False).reshape(out_shape)
    kept = [d for d in range(array.ndim) if d not in reduced]
    run = math.prod(sizes[d] for d in innermost)
    rows = np.ascontiguousarray(array.transpose(kept + outer + innermost)).reshape(-1, run)
    if innermost[-1] == array.ndim - 1:     # numbers next to each other: in vectors
        totals = _row_sums_one_thread(rows)
    else:                                   # a step apart: one at a time
        totals = _interleaved_sum(np.ascontiguousarray(rows.T))
    totals = totals.reshape(math.prod(sizes[d] for d in kept), -1)    # (outputs, row totals in order)
    return _running_sum(np.ascontiguousarray(totals.T)).reshape(out_shape)
