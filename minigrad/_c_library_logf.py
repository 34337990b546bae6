"""log(x) of float32 numbers as the C library (glibc) computes ``logf``, bit for bit.

PyTorch's kernels that call ``std::log`` on one float32 at a time (``xlogy``, and so
``kl_div``) get glibc's ``logf``, which numpy's float32 log (its own SIMD formula) and even
float64's log rounded to float32 miss now and then. Its method is published: x = 2**k z with z
near 1, z / c - 1 = r for the c of z's 1/16 of the range (a table of 1/c and log(c), in
float64), log(x) = log(c) + k ln 2 + log1p(r), log1p(r) from a polynomial of degree 4, all in
float64 (multiply-adds fused, as on a CPU with FMA), then rounded once.
"""
import numpy as np

from ._fused_multiply_add import fma64

_TABLE = [("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"), ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
          ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"), ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
          ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"), ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
          ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"), ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
          ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"), ("0x1p+0", "0x0p+0"),
          ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"), ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
          ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"), ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
          ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"), ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2")]
_INVERSE_C = np.array([float.fromhex(inverse) for inverse, _ in _TABLE])
_LOG_C = np.array([float.fromhex(log_c) for _, log_c in _TABLE])
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_POLY = [float.fromhex(c) for c in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2")]
_OFFSET = 0x3f330000            # z's range [0x3f330000, 2 * that) is cut in 16 around 1


def logf(x):
    """log(x) of a float32 array, as glibc's ``logf`` (0, negatives, inf and nan as numpy's)."""
    x = np.asarray(x, np.float32)
    bits = x.view(np.uint32).astype(np.int64)
    subnormal = (bits > 0) & (bits < 0x00800000)          # normalised first: times 2**23
    with np.errstate(over="ignore"):
        bits = np.where(subnormal, (x * np.float32(2.0 ** 23)).view(np.uint32).astype(np.int64)
                        - (23 << 23), bits)
    offset = (bits - _OFFSET) & 0xffffffff
    index = (offset >> 19) % 16
    k = np.where(offset >= 2 ** 31, offset - 2 ** 32, offset) >> 23
    z = ((bits - (offset & 0xff800000)) & 0xffffffff).astype(np.uint32).view(np.float32).astype(np.float64)
    r = fma64(z, _INVERSE_C[index], -1.0)
    y0 = fma64(k.astype(np.float64), _LN2, _LOG_C[index])
    r2 = r * r
    y = fma64(_POLY[0], r2, fma64(_POLY[1], r, _POLY[2]))
    out = fma64(y, r2, y0 + r).astype(np.float32)
    special = (x <= 0) | ~np.isfinite(x) | (bits == 0x3f800000)
    if special.any():
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(special, np.log(x), out)
    return out.reshape(x.shape)


_FLOAT16_DEFAULT_NAN = np.uint16(0xFE00).view(np.float16)      # (sign bit set: x86's default NaN)


def c_library_log(x):
    """log(x) of a float array as PyTorch's kernels that call the C library's log one number at a
    time (xlogy, kl_div) get it: ``logf`` above for float32, numpy's log for the other dtypes.
    float16 is computed as float32, so the NaN of a negative number is logf's, with the sign bit
    set; numpy's own float16 log gives it with the sign bit clear up to 2.1 (Colab's 2.0 among
    them) and set in 2.4, so it is put in explicitly."""
    x = np.asarray(x)
    if x.dtype == np.float32:
        return logf(x)
    out = np.log(x)
    if x.dtype == np.float16:
        out = np.where(x < 0, _FLOAT16_DEFAULT_NAN, out)
    return out
