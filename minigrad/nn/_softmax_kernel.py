"""softmax and log_softmax over a dim that is not the last, in the order of PyTorch's CPU kernels.

With the tensor seen as (outer, dim, inner), PyTorch's kernel for such a dim walks the ``inner``
positions in vectors (8 float32 or 4 float64 with AVX2) and runs down ``dim`` for each: the
maximum, then the exponentials added one after the other from 0, then the result. So every sum
is a plain running sum over ``dim``, and what decides the last bit is which exponential each
number meets: SLEEF's for the positions in whole vectors, the C library's (``std::exp``) for the
0 to lanes - 1 positions left at the end of each row of ``inner`` (softmax's loop, split among
threads, also leaves the few positions before the end of each thread's piece to ``std::exp``,
float32's being glibc's ``expf``).

softmax then divides by the sum (its last-dim kernel multiplies by 1 / sum); log_softmax
subtracts the max and then SLEEF's log of the sum. The backward kernels add down ``dim`` from 0
as well: softmax's sum of grad * result with one fused multiply-add per step (as its compiler
fuses them), log_softmax's grad - exp(result) * sum(grad) fused the same way.
"""
import math

import numpy as np

from .. import _c_library_expf, _sleef_mathfun, _sleef_pow
from .._vectorized_loop import THREADS


def _lanes(dtype):
    """Numbers in one AVX2 vector."""
    return 8 if dtype == np.float32 else 4


def _vector_exp(values):
    """SLEEF's exp, as PyTorch's ``Vectorized<T>::exp``."""
    return (_sleef_mathfun.exp if values.dtype == np.float32 else _sleef_pow.exp)(values)


def _scalar_exp(values):
    """The C library's exp: for float32, ``expf`` (its float64 steps rounded once), as numpy's
    float64 exp rounded to float32 gives it; for float64, numpy's exp."""
    if values.dtype == np.float32:
        return _c_library_expf.expf(values)
    return np.exp(values)


def _in_row_tails(inner, lanes):
    """Which of the ``inner`` positions a row leaves to the one-number loop (past its whole vectors)."""
    return np.arange(inner) >= inner // lanes * lanes


def _softmax_scalar_positions(outer, inner, lanes):
    """Which (outer, inner) positions softmax's kernel computes one by one: a boolean (outer, inner).

    The outer * inner positions are shared among all the threads whatever their number (found by
    experiment: even 10 positions go to two threads), in equal pieces; each piece goes in vectors
    while a whole vector fits both in the row and in the piece; what is left of a row, or of the
    piece, goes one by one."""
    n = outer * inner
    if n == 1 or THREADS == 1:                  # one piece: only each row's tail
        return np.broadcast_to(_in_row_tails(inner, lanes), (outer, inner))
    used = min(THREADS, n)
    size = -(-n // used)
    position = np.arange(n)
    piece_start = position // size * size
    piece_stop = np.minimum(piece_start + size, n)
    row_start = np.maximum(position // inner * inner, piece_start)
    row_stop = np.minimum(position // inner * inner + inner, piece_stop)
    whole = (row_stop - row_start) // lanes * lanes
    return (position - row_start >= whole).reshape(outer, inner)


def _exp_by_position(shifted, scalar_positions):
    """exp of (outer, dim, inner) numbers: the C library's at the scalar (outer, inner) positions,
    SLEEF's elsewhere."""
    if not scalar_positions.any():
        return _vector_exp(shifted)
    if scalar_positions.all():
        return _scalar_exp(shifted)
    mask = np.broadcast_to(scalar_positions[:, None, :], shifted.shape)
    out = _vector_exp(shifted)
    out[mask] = _scalar_exp(shifted[mask])
    return out


def _running_sum_over_dim(values):
    """values[:, 0] + values[:, 1] + ... of a C-ordered (outer, dim, inner) array, in that order
    (numpy adds whole rows one after the other when the rows are not the last axis)."""
    return np.add.reduce(values, axis=1, keepdims=True)


def _as_blocks(array, dim):
    """array seen as (outer, dim, inner), C-ordered."""
    shape = array.shape
    return np.ascontiguousarray(array).reshape(math.prod(shape[:dim]), shape[dim],
                                               math.prod(shape[dim + 1:]))


def softmax(array, dim):
    """softmax of a float32/float64 array over a dim that is not its last, as PyTorch's kernel."""
    blocks = _as_blocks(array, dim)
    outer, _, inner = blocks.shape
    with np.errstate(invalid="ignore", over="ignore"):
        shifted = blocks - blocks.max(axis=1, keepdims=True)
        exps = _exp_by_position(shifted, _softmax_scalar_positions(outer, inner,
                                                                   _lanes(array.dtype)))
        return (exps / _running_sum_over_dim(exps)).reshape(array.shape)


def log_softmax(array, dim):
    """log_softmax of a float32/float64 array over a dim that is not its last, as PyTorch's
    kernel: (x - max) - log(sum), the sum's log from SLEEF."""
    blocks = _as_blocks(array, dim)
    inner = blocks.shape[2]
    log = _sleef_mathfun.log if array.dtype == np.float32 else _sleef_pow.log
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        maxima = blocks.max(axis=1, keepdims=True)
        exps = _exp_by_position(blocks - maxima, _in_row_tails(inner, _lanes(array.dtype))[None])
        return (blocks - maxima - log(_running_sum_over_dim(exps))).reshape(array.shape)


def softmax_backward(grad, out, dim):
    """out * (grad - sum(grad * out, dim)) over a dim that is not the last, PyTorch's order: the
    sum from 0, each product added with one fused multiply-add."""
    g, p = _as_blocks(grad, dim), _as_blocks(out, dim)
    total = np.zeros_like(p[:, :1])
    for d in range(p.shape[1]):
        total = _sleef_pow._fma(g[:, d:d + 1], p[:, d:d + 1], total)
    return (p * (g - total)).reshape(out.shape)


def log_softmax_backward(grad, out, dim):
    """grad - exp(out) * sum(grad, dim) over a dim that is not the last, PyTorch's order: the sum
    from 0, then one fused multiply-add with SLEEF's exp (the C library's for each row's tail)."""
    g, o = _as_blocks(grad, dim), _as_blocks(out, dim)
    exps = _exp_by_position(o, _in_row_tails(o.shape[2], _lanes(o.dtype))[None])
    with np.errstate(invalid="ignore", over="ignore"):
        return _sleef_pow._fma(-exps, _running_sum_over_dim(g), g).reshape(out.shape)
