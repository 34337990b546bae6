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
    with AVX2). PyTorch walks the numbers in the order they lie in memory: so does this for a
    C- or Fortran-ordered (transposed) array; other strided views are read in C order, and
    their last bits may then differ where PyTorch's loop restarts at each row."""
    if array.flags.f_contiguous and not array.flags.c_contiguous:
        return elementwise(array.T, vectorized, scalar, lanes).T
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
