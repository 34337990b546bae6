"""geqrf's Householder QR step by step, in the dtype of the matrix, as LAPACK's unblocked
geqr2 takes its steps (PyTorch's CPU build calls MKL's sgeqrf/dgeqrf).

For each column j: the part below the diagonal, x, and the diagonal entry, alpha, make one
reflection H = I - tau v v^T (larfg):

* xnorm = ||x||, by the scaled sum of squares of the reference nrm2 (a running ``scale``,
  the largest |x_i| so far, and ``ssq``, the sum of (x_i / scale)^2), so that no square
  overflows;
* beta = -sign(alpha) sqrt(alpha^2 + xnorm^2), by lapy2: w sqrt(1 + (z / w)^2) with w the
  larger and z the smaller of |alpha| and xnorm;
* tau = (beta - alpha) / beta, v = [1, x / (alpha - beta)] (divided: MKL divides here),
  and beta goes on the diagonal: R's entry;

then the columns to the right, C, are reflected (larf): w = C^T v, the rows added from the
top, and C - v (tau w). An x of zeros gives tau = 0 and no reflection.

Each order of the additions rounds its own way: this one gives MKL's float32 bits for nearly
every matrix up to 4 x 4 and most up to about 16 rows (a norm now and then rounds the other
way; MKL works in blocks for larger ones, where the results agree to rounding). MKL's float64
routine takes other steps (not found yet): float64 stays with numpy's LAPACK.
"""
import numpy as np


def geqrf_arrays(a):
    """(a, tau) of geqrf for a batch of m x n matrices ``a`` (count, m, n), in a's dtype."""
    a = np.array(a, copy=True)
    count, m, n = a.shape
    k = min(m, n)
    tau = np.zeros((count, k), dtype=a.dtype)
    with np.errstate(all="ignore"):
        for j in range(k):
            alpha, x = a[:, j, j].copy(), a[:, j + 1:, j]
            xnorm = _scaled_norm(x)
            beta = -np.copysign(_lapy2(alpha, xnorm), alpha)
            reflect = xnorm != 0
            tau[:, j] = np.where(reflect, (beta - alpha) / beta, 0)
            a[:, j + 1:, j] = np.where(reflect[:, None], x / (alpha - beta)[:, None], x)
            a[:, j, j] = np.where(reflect, beta, alpha)
            if j + 1 < n:
                _reflect_columns(a[:, j:, j + 1:], a[:, j + 1:, j], tau[:, j], reflect)
    return a, tau


def _scaled_norm(x):
    """||x|| of each row of x (count, length), as the reference nrm2: element by element,
    scale = the largest |x_i| so far, ssq = sum of (x_i / scale)^2, result scale sqrt(ssq)."""
    one = x.dtype.type(1)
    scale = np.zeros(x.shape[0], dtype=x.dtype)
    ssq = np.ones(x.shape[0], dtype=x.dtype)
    for i in range(x.shape[1]):
        size = np.abs(x[:, i])
        larger = scale < size
        grown = one + ssq * ((scale / size) * (scale / size))
        added = ssq + (size / scale) * (size / scale)
        ssq = np.where(size == 0, ssq, np.where(larger, grown, added))
        scale = np.where(larger, size, scale)
    return scale * np.sqrt(ssq)


def _lapy2(x, y):
    """sqrt(x^2 + y^2) without overflow, as LAPACK's lapy2: w sqrt(1 + (z / w)^2)."""
    x, y = np.abs(x), np.abs(y)
    w, z = np.maximum(x, y), np.minimum(x, y)
    return np.where(z == 0, w, w * np.sqrt(x.dtype.type(1) + (z / w) * (z / w)))


def _reflect_columns(C, below, tau, reflect):
    """C <- H C = C - v (tau (C^T v)) in place, v = [1, below], for the matrices that reflect."""
    w = C[:, 0].copy()                           # (v's first entry is 1)
    for i in range(1, C.shape[1]):
        w = w + C[:, i] * below[:, i - 1, None]
    step = (tau[:, None] * w)[:, None, :]
    update = C[:, :1] - step                     # (the first row: v's entry is 1)
    rest = C[:, 1:] - below[:, :, None] * step
    C[:, :1] = np.where(reflect[:, None, None], update, C[:, :1])
    C[:, 1:] = np.where(reflect[:, None, None], rest, C[:, 1:])
