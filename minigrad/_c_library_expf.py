"""e ** x of float32 numbers as the C library (glibc) computes ``expf``, bit for bit.

PyTorch's CPU kernels send the few numbers left over after their last whole vectors through
the C library (see ``_vectorized_loop``). glibc's ``expf`` is not always the float32 closest
to e ** x (about one number in 1,500 is one unit off), so rounding float64's exp misses those.
Its method is published: x / ln 2 = k / 32 + r, e ** x = 2 ** (k / 32) * 2 ** r, 2 ** (k / 32)
from a table of 32 float64 powers of two with k's high bits added to the exponent, 2 ** r
from a polynomial of degree 3, all in float64 (multiply-adds fused), then rounded once.
"""
import decimal
import functools

import numpy as np

from ._fused_multiply_add import fma64

_N = 32
_INV_LN2_N = float.fromhex("0x1.71547652b82fep+0") * _N
_SHIFT = float.fromhex("0x1.8p+52")            # adding it rounds to an integer, kept in the low bits
_POLY = (float.fromhex("0x1.c6af84b912394p-5") / _N ** 3, float.fromhex("0x1.ebfce50fac4f3p-3") / _N ** 2,
         float.fromhex("0x1.62e42ff0c52d6p-1") / _N)
_OVERFLOW = np.float32(float.fromhex("0x1.62e42ep6"))        # above: inf
_UNDERFLOW = np.float32(-float.fromhex("0x1.9fe368p6"))      # below: 0


# (made at the first expf, not at import: the 60-digit powers cost every `import minigrad` a
# hundredth of a second, and few programs reach this kernel)
@functools.cache
def _table():
    """2 ** (i / 32) as float64 bits, correctly rounded, less i / 32's share of the exponent
    (so that adding k << 47 puts all of k / 32 in)."""
    context = decimal.Context(prec=60)
    return np.array([np.float64(float(context.power(2, decimal.Decimal(i) / _N))).view(np.int64) - (i << 47)
                     for i in range(_N)], np.int64)


def expf(x):
    """e ** x of a float32 array, as glibc's ``expf``."""
    x = np.asarray(x, np.float32)
    with np.errstate(all="ignore"):
        xd = x.astype(np.float64)
        z = _INV_LN2_N * xd
        kd = z + _SHIFT
        k = np.where(np.isfinite(kd), kd, 0).view(np.int64)
        r = z - (kd - _SHIFT)
        scale = (_table()[k % _N] + (k << 47)).view(np.float64)
        low = fma64(np.full_like(r, _POLY[0]), r, np.full_like(r, _POLY[1]))
        y = fma64(np.full_like(r, _POLY[2]), r, np.ones_like(r))
        y = fma64(low, r * r, y)
        out = (y * scale).astype(np.float32)
    out = np.where(x > _OVERFLOW, np.float32(np.inf), out)
    out = np.where(x < _UNDERFLOW, np.float32(0), out)
    return np.where(np.isnan(x), x, out)
