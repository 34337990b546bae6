"""How PyTorch's CPU runs an elementwise kernel over a tensor, and which numbers get which formula.

Many of PyTorch's elementwise kernels (``sigmoid`` among them) are written twice: once for
a *vector* of numbers at a time (with AVX2, 8 float32 in one register; the exponential
inside is the SLEEF library's, see ``_sleef_mathfun``) and once for a single number (with
the C library's ``std::exp``). Both compute the same function, but not always to the same
last bit. So which formula a number meets decides its last bit:

* the loop walks the numbers in steps of two vectors (16 float32), with the vector
  formula; the 0 to 15 numbers left at the end go one by one through the scalar formula;
* a tensor of more than 32768 numbers (PyTorch's ``GRAIN_SIZE``) is first cut into one
  equal, contiguous piece per thread (``at::parallel_for``), and each piece runs the loop
  above on its own, so each piece has its own scalar tail.

:func:`elementwise` reproduces that split for a contiguous array. It matters only for the
last bit: the two formulas agree on most numbers.
"""
import os

import numpy as np

GRAIN_SIZE = 32768      # PyTorch splits an elementwise loop among threads only above this


def _intra_op_threads():
    """How many threads PyTorch uses for one operation by default: OMP_NUM_THREADS when set,
    otherwise one per core (``torch.get_num_threads()``; minigrad takes the cores it may run on)."""
    try:
        return max(1, int(os.environ["OMP_NUM_THREADS"]))
    except (KeyError, ValueError):
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:        # (not on Linux)
            return os.cpu_count() or 1


THREADS = _intra_op_threads()


def pieces(n, threads=THREADS):
    """The (start, stop) ranges PyTorch's threads take of n numbers (one range when n is small)."""
    if n <= GRAIN_SIZE or threads == 1:
        return [(0, n)]
    used = min(threads, -(-n // GRAIN_SIZE))
    size = -(-n // used)                            # ceil(n / used), the last piece may be shorter
    return [(start, min(n, start + size)) for start in range(0, n, size)]


def elementwise(array, vectorized, scalar, lanes):
    """vectorized(numbers) on whole steps of 2 * lanes numbers, scalar(numbers) on each piece's
    tail, as PyTorch's ``cpu_kernel_vec`` does (lanes: numbers in one vector, 8 for float32
    with AVX2). PyTorch walks the numbers in the order they lie in memory: so does this, for a
    C- or Fortran-ordered (transposed) array, and for other strided views (the dims from the
    largest step to the smallest; each run of numbers that lie side by side has its own tail,
    and when even the innermost dim skips numbers, all get the one-number formula; a view
    that repeats numbers, expand's, is walked in C order)."""
    if array.flags.f_contiguous and not array.flags.c_contiguous:
        return elementwise(array.T, vectorized, scalar, lanes).T
    if not array.flags.c_contiguous:
        order = list(range(array.ndim))
        if all(step for step, size in zip(array.strides, array.shape) if size > 1):   # (not expand's)
            order.sort(key=lambda d: -abs(array.strides[d]))
        walked = array.transpose(order)
        run = _inner_run(walked.shape, (walked,))
        if run is None:
            return scalar(array)
        flat = np.ascontiguousarray(walked).reshape(-1)
        out = _by_runs((flat,), run, vectorized, scalar, lanes, array.dtype)
        return out.reshape(walked.shape).transpose(np.argsort(order))
    flat = array.reshape(-1)
    step = 2 * lanes
    if flat.size < step:                             # all of it is a tail (one number, ...)
        return scalar(array)
    out = np.empty_like(flat)
    for start, stop in pieces(flat.size):
        end_of_vectors = start + (stop - start) // step * step
        out[start:end_of_vectors] = vectorized(flat[start:end_of_vectors])
        if end_of_vectors < stop:
            out[end_of_vectors:stop] = scalar(flat[end_of_vectors:stop])
    return out.reshape(array.shape)



def rounded_twice_with_a_number(n, lanes):
    """Which of n numbers PyTorch's ``a + alpha * b`` (``b`` one number, ``a`` contiguous)
    computes in two roundings (``b * alpha`` rounded, then added): a boolean mask; the others
    get one fused multiply-add, rounded once.

    The vector loop fuses. The compiler turned the scalar tail loop into vector code of its own:
    the tail's first number alone (fused), then blocks of ``lanes`` and ``lanes // 2`` numbers
    that multiply and add in two steps, then the last 0 to ``lanes // 2 - 1`` one by one (fused
    again). Found by experiment: which numbers of a tail differ, over all lengths."""
    twice = np.zeros(n, dtype=bool)
    step, block = 2 * lanes, lanes // 2
    for start, stop in pieces(n):
        tail = start + (stop - start) // step * step
        if tail < stop:
            twice[tail + 1:tail + 1 + (stop - tail - 1) // block * block] = True
    return twice


def _inner_run(shape, arrays):
    """How many numbers PyTorch's loop walks in one go over arrays broadcast to ``shape``
    (TensorIterator merges neighbouring dims that every operand steps through evenly), or None
    when an operand steps through that run other than one by one or not at all (PyTorch then
    uses the one-number formula everywhere)."""
    steps = [[s // a.itemsize for s in np.broadcast_to(a, shape).strides] for a in arrays]
    dims = [d for d in range(len(shape)) if shape[d] != 1]
    if not dims:
        return 1
    inner = dims[-1]
    if any(step[inner] not in (0, 1) for step in steps) or all(step[inner] == 0 for step in steps):
        return None
    run, outer_step = shape[inner], [step[inner] * shape[inner] for step in steps]
    for d in reversed(dims[:-1]):
        if any(step[d] != reach for step, reach in zip(steps, outer_step)):
            break
        run *= shape[d]
        outer_step = [step[d] * shape[d] for step in steps]
    return run


def elementwise_pair(a, b, vectorized, scalar, lanes):
    """vectorized(a, b) or scalar(a, b) on each number of a and b broadcast together, as
    PyTorch's ``cpu_kernel_vec`` chooses for a two-input kernel with a new result: within
    each run of numbers it walks in one go (a row, or the whole tensor when both are laid out
    alike), cut where the threads' pieces start, whole steps of 2 * lanes numbers get the
    vector formula and the rest the one-number formula. Inputs that are not row-major are
    walked in PyTorch's order of their dims (see _pair_in_memory_order)."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    a, b = np.asarray(a), np.asarray(b)
    if not (a.flags.c_contiguous and b.flags.c_contiguous):
        return _pair_in_memory_order(a, b, shape, vectorized, scalar, lanes)
    n = int(np.prod(shape))
    run = _inner_run(shape, (a, b))
    flat_a = np.broadcast_to(a, shape).reshape(-1)
    flat_b = np.broadcast_to(b, shape).reshape(-1)
    if run is None:
        return scalar(flat_a, flat_b).reshape(shape)
    step = 2 * lanes
    if run == n and n <= GRAIN_SIZE:             # the usual case: one run, one thread
        vectors = n // step * step
        out = np.empty(n, dtype=np.result_type(a, b))
        out[:vectors] = vectorized(flat_a[:vectors], flat_b[:vectors])
        out[vectors:] = scalar(flat_a[vectors:], flat_b[vectors:])
        return out.reshape(shape)
    return _by_runs((flat_a, flat_b), run, vectorized, scalar, lanes,
                    np.result_type(a, b)).reshape(shape)


def _pair_in_memory_order(a, b, shape, vectorized, scalar, lanes):
    """elementwise_pair for inputs that are not both row-major (transposed, strided views):
    PyTorch's loop runs over the dims in the order their steps in memory give (the fastest
    innermost; ``memory_order``), so both are walked in that order, and where a run of
    numbers is not side by side in an input, every number gets the one-number formula."""
    from ._ops.inplace import memory_order     # (lazy: _ops imports this module)
    wide = [np.broadcast_to(v, shape) for v in (a, b)]
    steps = [[step // v.itemsize for step in v.strides] for v in wide]
    order = list(reversed(memory_order(steps, shape)))       # the slowest dim first
    walked = [v.transpose(order) for v in wide]
    run = _inner_run(walked[0].shape, walked)
    flats = [np.ascontiguousarray(v).reshape(-1) for v in walked]
    if run is None:
        out = scalar(*flats)
    else:
        out = _by_runs(flats, run, vectorized, scalar, lanes, np.result_type(a, b))
    return out.reshape(walked[0].shape).transpose(np.argsort(order))


def _by_runs(flats, run, vectorized, scalar, lanes, dtype):
    """vectorized(*flats) or scalar(*flats) on each number of the flat arrays, walked in runs of
    ``run`` numbers, each cut where a thread's piece starts (see elementwise_pair)."""
    n = flats[0].size
    step = 2 * lanes
    index = np.arange(n)
    starts = np.array([start for start, _ in pieces(n)])
    piece = np.searchsorted(starts, index, side="right") - 1
    piece_start, piece_stop = starts[piece], np.append(starts[1:], n)[piece]
    row_start = index // run * run
    segment_start = np.maximum(row_start, piece_start)
    segment_stop = np.minimum(row_start + run, piece_stop)
    in_tail = index >= segment_start + (segment_stop - segment_start) // step * step
    if in_tail.all():
        return scalar(*flats)
    out = np.empty(n, dtype=dtype)
    vector = ~in_tail
    out[vector] = vectorized(*(f[vector] for f in flats))
    if in_tail.any():
        out[in_tail] = scalar(*(f[in_tail] for f in flats))
    return out
