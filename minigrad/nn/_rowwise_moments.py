"""The mean and variance of each row, in the order PyTorch's CPU computes them for layer_norm
and group_norm (``RowwiseMoments``), so that float32 results agree to the last bit.

PyTorch accumulates in the input's own dtype (float32 stays float32) with Welford's method,
one running mean and sum of squared deviations (m2) per lane of an AVX2 vector (8 float32 or 4
float64):

* each chunk of 16 vectors updates its own moments: mean += delta / k, m2 += delta * (x - mean);
* chunks are merged as a binary counter would carry (a cascade, so that moments of similar
  counts are merged), with Chan's formula for two groups of counts n_a, n_b:
  mean += (n_b / n) * (mean_b - mean), m2 += m2_b + delta**2 * (n_b / n) * n_a;
* the numbers after the last whole vector go through the plain one-by-one update, and the
  lanes are merged into that, one after the other; var = m2 / N.

Some multiply-adds are fused (rounded once), as the compiled kernel's are; which ones was found
by comparing with PyTorch. Rows of more than 4096 numbers use float64 instead (a long Python
loop for little gain), and can differ in the last bit.
"""
import numpy as np

from .._fused_multiply_add import fma as _fma

CHUNK = 16
LONGEST = 4096


def fused(a, b, c):
    """numpy: a * b + c rounded once (a fused multiply-add, as compiled kernels use), broadcast
    to one shape, in c's dtype."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    dtype = np.asarray(c).dtype
    return _fma(*(np.ascontiguousarray(np.broadcast_to(np.asarray(v, dtype), shape)) for v in (a, b, c)))


def _merge(count_b, mean_b, m2_b, count_a, mean_a, m2_a):
    """Chan's merge of the moments (count_b, mean_b, m2_b) into (count_a, mean_a, m2_a)."""
    dtype = mean_a.dtype.type
    n = count_a + count_b
    c = dtype(0) if n == 0 else dtype(count_b) / dtype(n)
    delta = mean_b - mean_a
    one_lane = np.ndim(mean_a) == 1         # (the one-number merge fuses both multiply-adds)
    mean = fused(c, delta, mean_a) if one_lane else mean_a + c * delta
    if one_lane:
        m2 = m2_a + fused(delta * delta * c, dtype(count_a), m2_b)
    else:
        m2 = fused(delta * delta * c, dtype(count_a), m2_a + m2_b)
    return n, mean, m2


def rowwise_moments(rows):
    """(mean, biased variance) of each row of a 2-d float32 or float64 array, in its dtype."""
    rows = np.ascontiguousarray(rows)
    dtype = rows.dtype.type
    count_rows, n_numbers = rows.shape
    if n_numbers > LONGEST:
        wide = rows.astype(np.float64)
        mean = wide.mean(axis=1)
        return mean.astype(dtype), np.square(wide - mean[:, None]).mean(axis=1).astype(dtype)
    lanes = 32 // rows.itemsize
    vectors = n_numbers // lanes
    chunks = -(-vectors // CHUNK)
    depth = (chunks - 1).bit_length() if chunks > 1 else 0
    zero = np.zeros((count_rows, lanes), dtype)
    stack = [[0, zero, zero] for _ in range(max(depth, 1))]
    steps = [dtype(1) / dtype(k + 1) for k in range(CHUNK)]
    for i in range(chunks):
        size = min(CHUNK, vectors - i * CHUNK)
        mean, m2 = zero, zero
        for k in range(size):
            start = (i * CHUNK + k) * lanes
            x = rows[:, start:start + lanes]
            delta = x - mean
            mean = fused(delta, steps[k], mean)
            m2 = fused(delta, x - mean, m2)
        stack[0] = list(_merge(size, mean, m2, *stack[0]))
        carry, level = i + 1, 1
        while level < depth and carry & 1 == 0:          # a full level moves up, as a counter carries
            stack[level] = list(_merge(*stack[level - 1], *stack[level]))
            stack[level - 1] = [0, zero, zero]
            carry >>= 1
            level += 1
    for level in range(1, depth):
        stack[0] = list(_merge(*stack[level], *stack[0]))
    count, mean, m2 = 0, np.zeros(count_rows, dtype), np.zeros(count_rows, dtype)
    for j in range(vectors * lanes, n_numbers):        # the numbers after the last whole vector
        x = rows[:, j]
        delta = x - mean
        count += 1
        mean = mean + delta / dtype(count)
        m2 = m2 + delta * (x - mean)
    for lane in range(lanes):
        count, mean, m2 = _merge(vectors, stack[0][1][:, lane], stack[0][2][:, lane], count, mean, m2)
    return mean, m2 / dtype(n_numbers)
