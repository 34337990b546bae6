"""batch_norm's statistics, result and gradient in the order PyTorch's CPU kernels compute
them, so that float32 and float64 values agree to the last bit (numpy copies of the kernels).

* An input laid out in order with positions (N, C, H, W, H * W > 1): for each channel, the sum
  of its numbers one after the other in float64, mean = sum / n rounded to the input's dtype,
  then the sum of (x - mean)**2 the same way, kept in the input's dtype (``var_sum``).
* An input (N, C) or channels-last: the rows (one per sample and position) are added as vectors
  in the input's dtype, each thread its own share of the rows, the threads' totals then in
  float64 (with at most as many rows as threads, other loops: see ``_few_rows``).
* invstd = 1 / sqrt(var_sum / n + eps), the division in the input's dtype, the rest in float64;
  the result is x * alpha + beta with alpha = invstd * weight, beta = bias - mean * alpha, each
  multiply-add rounded once, as compiled.
* The gradient: see ``batch_norm_kernel_backward``. (For channels-last 4-d inputs PyTorch's
  gradient can differ in the last bit: its order there is not followed yet.)
"""
import numpy as np

from .._cascade_sum import _running_sum
from .._vectorized_loop import THREADS
from ._norm_kernels import row_sums, thread_rows
from ._rowwise_moments import fused

TILE = 16
THRESHOLD = 2048


def _rows_statistics(rows):
    """(mean, var_sum) of each column of rows (N * positions, C), as the channels-last kernel."""
    dtype = rows.dtype.type
    n, channels = rows.shape
    if n <= THREADS:
        return _few_rows(rows)
    shares = thread_rows(n)
    totals = []
    for start, stop in shares:
        part = np.zeros(channels, dtype)
        for k in range(start, stop):
            part = rows[k] + part
        totals.append(part)
    total = np.zeros(channels)
    for part in totals:
        total = total + part.astype(np.float64)
    mean = (total / n).astype(dtype)
    squares = []
    for start, stop in shares:
        part = np.zeros(channels, dtype)
        for k in range(start, stop):
            centred = rows[k] - mean
            part = fused(centred, centred, part)
        squares.append(part)
    var_sum = np.zeros(channels)
    for part in squares:
        var_sum = var_sum + part.astype(np.float64)
    return mean, var_sum.astype(dtype)


def _few_rows(rows):
    """(mean, var_sum) with no more rows than threads: in the input's dtype, vector by vector,
    when the channels fit one tile (or are many, or one thread runs); else per channel in float64."""
    dtype = rows.dtype.type
    n, channels = rows.shape
    if THREADS == 1 or channels <= TILE or channels > THRESHOLD:
        total = np.zeros(channels, dtype)
        for k in range(n):
            total = rows[k] + total
        mean = total / dtype(n)
        var_sum = np.zeros(channels, dtype)
        for k in range(n):
            centred = rows[k] - mean
            var_sum = fused(centred, centred, var_sum)
        return mean, var_sum
    mean = (_running_sum(rows.astype(np.float64)) / n).astype(dtype)
    centred = rows - mean
    return mean, _running_sum((centred * centred).astype(np.float64)).astype(dtype)


def batch_statistics(array):
    """(mean, var_sum) of each channel (dim 1) of a float32 or float64 array with numbers, laid
    out in order or channels-last, as PyTorch's kernel computes them (both in its dtype)."""
    channels = array.shape[1]
    positions = array.size // array.shape[0] // channels
    if array.flags.c_contiguous and positions > 1:
        rows = np.moveaxis(array, 1, -1).reshape(-1, channels)      # (a view: the numbers as summed)
        mean = (_running_sum(rows.astype(np.float64)) / rows.shape[0]).astype(array.dtype)
        centred = rows - mean
        return mean, _running_sum((centred * centred).astype(np.float64)).astype(array.dtype)
    return _rows_statistics(np.ascontiguousarray(np.moveaxis(array, 1, -1)).reshape(-1, channels))


def invstd_of(var_sum, count, eps):
    """1 / sqrt(var_sum / count + eps): the division in var_sum's dtype, the rest in float64."""
    var = var_sum / var_sum.dtype.type(count)
    return (1 / np.sqrt(var.astype(np.float64) + eps)).astype(var_sum.dtype)


def affine_values(array, mean, invstd, weight, bias):
    """x * alpha + beta per channel, alpha = invstd * weight and beta = bias - mean * alpha."""
    dtype = array.dtype.type
    alpha = invstd if weight is None else invstd * weight
    beta = fused(-mean, alpha, np.zeros((), dtype) if bias is None else bias)
    view = (1, array.shape[1]) + (1,) * (array.ndim - 2)
    return fused(alpha.reshape(view), array, beta.reshape(view))


def update_running(running_mean, running_var, mean, var_sum, momentum, count):
    """numpy, in place: running = momentum * batch value + (1 - momentum) * running, the mean in
    the input's dtype, the variance (unbiased: var_sum / (count - 1), divided in the input's
    dtype) added in float64, as PyTorch's kernel."""
    dtype = mean.dtype.type
    m = dtype(momentum)
    if running_mean is not None:
        running_mean[...] = (m * mean + (dtype(1) - m) * running_mean).reshape(running_mean.shape)
    if running_var is not None:
        unbiased = (var_sum / dtype(max(count - 1, 1))).astype(np.float64)
        kept = ((dtype(1) - m) * running_var).astype(np.float64)
        running_var[...] = (np.float64(m) * unbiased + kept).astype(running_var.dtype)


def _plane_sums(dy, x, mean):
    """(sum of dy, sum of (x - mean) * dy) of each channel of an input laid out in order: each
    sample's plane summed as a vectorized loop adds it, the planes' sums added in float64."""
    n, channels = dy.shape[:2]
    planes = (n * channels, dy.size // (n * channels))
    dy_rows = dy.reshape(planes)
    centred = (x - mean.reshape((1, channels) + (1,) * (x.ndim - 2))).reshape(planes)
    sums = row_sums(dy_rows).reshape(n, channels).astype(np.float64)
    dots = row_sums(centred, dy_rows).reshape(n, channels).astype(np.float64)
    return _running_sum(sums), _running_sum(dots)


def _rows_sums(dy_rows, x_rows, mean):
    """(sum of dy, sum of (x - mean) * dy) per column of rows (N * positions, C): each thread
    adds its rows in the input's dtype, the threads' totals in float64 (rounded back)."""
    dtype = dy_rows.dtype.type
    channels = dy_rows.shape[1]
    sums, dots = [], []
    for start, stop in thread_rows(dy_rows.shape[0]):
        total, dot = np.zeros(channels, dtype), np.zeros(channels, dtype)
        for k in range(start, stop):
            total = total + dy_rows[k]
            centred = x_rows[k] - mean
            dot = fused(centred, dy_rows[k], dot)
        sums.append(total)
        dots.append(dot)
    total, dot = np.zeros(channels), np.zeros(channels)
    for part_sum, part_dot in zip(sums, dots):
        total, dot = total + part_sum.astype(np.float64), dot + part_dot.astype(np.float64)
    return total, dot


def batch_norm_kernel_backward(dy, x, mean, invstd, weight, training, mask):
    """numpy: (dx, dweight, dbias) of batch_norm as PyTorch's CPU kernel computes them (mean and
    invstd: the saved ones in training, the running mean and 1 / sqrt(running_var + eps) in eval):
    per channel the sum of dy and of (x - mean) * dy, then

        dx = (dy - sum / n - (x - mean) * dot * invstd**2 / n) * invstd * w   (training)
        dx = dy * invstd * w   (eval),   dweight = dot * invstd,   dbias = sum"""
    dtype = x.dtype.type
    n, channels = x.shape[:2]
    count = x.size // channels
    w = np.ones(channels, dtype) if weight is None else weight
    view = (1, channels) + (1,) * (x.ndim - 2)
    in_planes = x.flags.c_contiguous and x.size // n // channels > 1
    if in_planes:
        total, dot = _plane_sums(np.ascontiguousarray(dy), x, mean)
        grad_mean = (total / count).astype(dtype)
        k = dot.astype(dtype) * invstd * invstd / dtype(count)
    else:
        rows = lambda a: np.ascontiguousarray(np.moveaxis(a, 1, -1)).reshape(-1, channels)
        total, dot = _rows_sums(rows(dy), rows(x), mean)
        total, dot = total.astype(dtype), dot.astype(dtype)
        grad_mean = total / dtype(count)
        k = dot * invstd * invstd / dtype(count)
    dx = dweight = dbias = None
    if mask[0]:
        if training:
            centred = x - mean.reshape(view)
            ahead = dy - grad_mean.reshape(view)
            fused_ahead = fused(-centred, k.reshape(view), ahead)
            if in_planes:
                ahead = fused_ahead
            else:
                # (as compiled: fused in the whole vectors of channels, not in the last partial one)
                whole = channels // (32 // x.itemsize) * (32 // x.itemsize)
                ahead = ahead - centred * k.reshape(view)
                ahead[:, :whole] = fused_ahead[:, :whole]
            dx = ahead * invstd.reshape(view) * w.reshape(view)
        else:
            dx = dy * invstd.reshape(view) * w.reshape(view)
    if mask[1]:
        dweight = (dot * invstd).astype(dtype)
    if mask[2]:
        dbias = total.astype(dtype)
    return dx, dweight, dbias
