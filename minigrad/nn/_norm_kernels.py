"""numpy copies of PyTorch's CPU kernels for the gradients of layer_norm and group_norm, so
that float32 and float64 gradients agree with PyTorch's to the last bit.

layer_norm, for each row (w the weight, 1 without one):

    ds = sum(dy * x * w),  db = sum(dy * w)
    b  = (db * mean - ds) * rstd**3 / N,  c = -b * mean - db * rstd / N
    dx = rstd * dy * w + b * x + c

(for ``layer_norm(x).sum()``, dy = 1, this gives exactly 0 where the textbook formula leaves
rounding noise). The sums run as PyTorch's vectorized loops add (``row_sums``), and some
multiply-adds are fused (one rounding) as the compiled kernels' are; which ones was found by
comparing with PyTorch.
"""
import numpy as np

from .._fused_multiply_add import fma as _fma
from .._vectorized_loop import THREADS
from ._rowwise_moments import fused


def _lanes_total(acc):
    """The sum of a vector's lanes (``vec_reduce_all``): float32 folds the 8 lanes in halves
    (AVX2 shuffles), float64 adds its 4 lanes in order."""
    if acc.dtype == np.float32:
        while acc.shape[1] > 1:
            half = acc.shape[1] // 2
            acc = acc[:, :half] + acc[:, half:]
        return acc[:, 0]
    total = acc[:, 0]
    for lane in range(1, acc.shape[1]):
        total = total + acc[:, lane]
    return total


def row_sums(factor, other=None, fuse_tail=True):
    """The sum of each row of ``factor * other`` (or of ``factor``), as PyTorch's
    ``vec::map2_reduce_all`` adds it: a row shorter than a vector lane by lane; else vectors
    added lane-wise, the last partial vector into the first lanes (there, where compiled so,
    with a fused multiply-add), then the lanes."""
    products = factor if other is None else factor * other
    rows, n = products.shape
    lanes = 32 // products.itemsize
    if n < lanes:
        total = products[:, 0]
        for j in range(1, n):
            total = total + products[:, j]
        return total
    whole = n // lanes * lanes
    acc = products[:, :lanes]
    for start in range(lanes, whole, lanes):
        acc = acc + products[:, start:start + lanes]
    if whole < n:
        acc = acc.copy()
        if other is None or not fuse_tail:
            acc[:, :n - whole] += products[:, whole:]
        else:
            acc[:, :n - whole] = _fma(factor[:, whole:], other[:, whole:], acc[:, :n - whole])
    return _lanes_total(acc)


def thread_rows(m):
    """The (start, stop) rows each thread takes in ``at::parallel_for(0, m, 1, ...)``."""
    used = max(1, min(THREADS, m))
    size = -(-m // used)
    return [(start, min(m, start + size)) for start in range(0, m, size)]


def layer_norm_kernel_backward(dy, x, mean, rstd, gamma, mask):
    """numpy: (dx, dgamma, dbeta) of layer_norm for rows (M, N), as PyTorch's CPU kernel."""
    opmath = np.float64 if x.dtype == np.float64 else np.float32
    dy, x, mean, rstd = (np.ascontiguousarray(a, opmath) for a in (dy, x, mean, rstd))
    n = x.shape[1]
    if not x.size:                  # (no numbers: nothing to add up)
        return (np.zeros(x.shape, opmath) if mask[0] else None, np.zeros(n, opmath), np.zeros(n, opmath))
    dx = dgamma = dbeta = None
    if mask[0]:
        scale = opmath(1) / opmath(n)
        if gamma is None:
            ds, db = row_sums(dy, x), row_sums(dy)
        else:
            wide = np.broadcast_to(gamma.astype(opmath), dy.shape)
            ds, db = row_sums(dy * x, wide), row_sums(dy, wide)
        a = rstd
        b = _fma(db, mean, -ds) * a * a * a * scale
        c = _fma(-b, mean, -(db * a * scale))
        ady = a[:, None] * dy if gamma is None else a[:, None] * dy * gamma.astype(opmath)
        dx = _fma(np.broadcast_to(b[:, None], x.shape), x, ady) + c[:, None]
    if mask[1] or mask[2]:
        # each thread adds its rows, one after the other, into a buffer of its own (the threads'
        # rows side by side here, padded with zero rows), then the buffers are added
        x_hat = _fma(np.broadcast_to(rstd[:, None], x.shape), x, np.broadcast_to((-rstd * mean)[:, None], x.shape))
        pieces = thread_rows(x.shape[0])
        longest = max(stop - start for start, stop in pieces)
        padded_dy, padded_x_hat = (np.zeros((len(pieces), longest, n), opmath) for _ in range(2))
        for t, (start, stop) in enumerate(pieces):
            padded_dy[t, :stop - start], padded_x_hat[t, :stop - start] = dy[start:stop], x_hat[start:stop]
        gamma_parts, beta_parts = np.zeros((len(pieces), n), opmath), np.zeros((len(pieces), n), opmath)
        for k in range(longest):
            if mask[1]:
                gamma_parts = _fma(padded_dy[:, k], padded_x_hat[:, k], gamma_parts)
            beta_parts = beta_parts + padded_dy[:, k]
        dgamma, dbeta = np.zeros(n, opmath), np.zeros(n, opmath)
        for t in range(len(pieces)):
            dgamma, dbeta = dgamma + gamma_parts[t], dbeta + beta_parts[t]
    return dx, dgamma, dbeta


def group_norm_kernel_backward(dy, x, mean, rstd, gamma, group, mask):
    """numpy: (dx, dgamma, dbeta) of group_norm for an input laid out in order (N, C, HxW), as
    PyTorch's CPU kernel computes them: per channel ds = sum(dy * x) and db = sum(dy); per
    group (with the weight w) ds_g = sum(ds * w), db_g = sum(db * w) and

        c2 = (db_g * mean - ds_g) * rstd**3 / n,  c3 = -c2 * mean - db_g * rstd / n
        dx = rstd * w * dy + c2 * x + c3,  dgamma = sum over samples of (ds - db * mean) * rstd

    with the kernel's order of sums and its fused multiply-adds."""
    n_samples, channels, size = x.shape
    dtype = x.dtype.type
    lanes = 32 // x.itemsize
    depth = channels // group
    rows = (n_samples * channels, size)
    # (the float32 kernel adds its last partial vector without fusing; the float64 one fuses)
    ds = row_sums(dy.reshape(rows), x.reshape(rows), fuse_tail=x.dtype == np.float64)
    db = row_sums(dy.reshape(rows))
    ds, db = ds.reshape(n_samples, group, depth), db.reshape(n_samples, group, depth)
    w = (np.ones(channels, dtype) if gamma is None else gamma).reshape(group, depth)
    m, r = mean.reshape(n_samples, group), rstd.reshape(n_samples, group)
    dx = dgamma = dbeta = None
    if mask[0]:
        whole = depth // lanes * lanes
        ds_lanes = db_lanes = np.zeros((n_samples, group, lanes), dtype)
        for j in range(0, whole, lanes):
            ds_lanes = fused(ds[:, :, j:j + lanes], w[:, j:j + lanes], ds_lanes)
            db_lanes = fused(db[:, :, j:j + lanes], w[:, j:j + lanes], db_lanes)
        ds_g, db_g = np.zeros((n_samples, group), dtype), np.zeros((n_samples, group), dtype)
        for lane in range(lanes):
            ds_g, db_g = ds_g + ds_lanes[:, :, lane], db_g + db_lanes[:, :, lane]
        for j in range(whole, depth):
            ds_g, db_g = fused(ds[:, :, j], w[:, j], ds_g), fused(db[:, :, j], w[:, j], db_g)
        scale = dtype(1) / dtype(depth * size)
        c2 = fused(db_g, m, -ds_g) * r * r * r * scale
        c3 = fused(-(db_g * r), scale, -c2 * m)
        c1 = r[:, :, None] * w
        grouped_x, grouped_dy = x.reshape(n_samples, group, depth, size), dy.reshape(n_samples, group, depth, size)
        dx = (fused(c1[..., None], grouped_dy, c2[..., None, None] * grouped_x) + c3[..., None, None]).reshape(x.shape)
    if mask[1]:
        dgamma = np.zeros((group, depth), dtype)
        for sample in range(n_samples):
            centred = fused(-db[sample], m[sample][:, None], ds[sample])
            dgamma = fused(centred, r[sample][:, None], dgamma)
        dgamma = dgamma.reshape(channels)
    if mask[2]:
        dbeta = np.zeros((group, depth), dtype)
        for sample in range(n_samples):
            dbeta = dbeta + db[sample]
        dbeta = dbeta.reshape(channels)
    return dx, dgamma, dbeta
