"""The float32 ``log`` and ``sin``/``cos`` PyTorch's CPU ``randn`` uses, step by step.

For a float32 tensor of 16 or more elements PyTorch turns uniform numbers into
normal ones eight at a time with AVX2 instructions, and the logarithm, sine and
cosine it needs there are not the C library's: they are the Cephes
polynomial approximations (PyTorch's ``aten/src/ATen/native/cpu/avx_mathfun.h``).
Their last bit differs from numpy's ``np.log``/``np.sin`` now and then, so to
get *the same* random numbers minigrad evaluates the same polynomials, in the
same order, rounding to float32 after every step just as the CPU does.

Where the compiler fuses a multiply and the following add into one
fused-multiply-add instruction (one rounding instead of two), we do the same
with :func:`_fma`. Nothing here is needed to understand autograd: it exists
only so that ``manual_seed(0); randn(100)`` prints PyTorch's numbers.
"""
import numpy as np

from ._fused_multiply_add import fma as _fma

f32 = np.float32


def _mul(a, b):
    """a * b rounded to float32."""
    return (np.asarray(a, f32) * np.asarray(b, f32)).astype(f32)


# Cephes' coefficients: log(1 + m) ~ m - m^2/2 + m^3 * P(m) for m in [sqrt(1/2) - 1, sqrt(2) - 1].
_LOG_P = [7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1, 1.4249322787E-1,
          -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1]
_LN2_HIGH, _LN2_LOW = 0.693359375, -2.12194440e-4       # ln 2 split in two for accuracy


def log(x):
    """Natural logarithm of positive float32 values (Cephes ``logf`` as vectorised in PyTorch)."""
    bits = np.asarray(x, f32).view(np.int32)
    # x = mantissa * 2**exponent with the mantissa in [0.5, 1)
    exponent = ((bits >> 23) - 127).astype(f32) + f32(1)
    mantissa = ((bits & ~0x7F800000) | 0x3F000000).view(f32)
    # keep the mantissa close to 1: below sqrt(1/2) use 2 * mantissa and one exponent less
    small = mantissa < f32(0.707106781186547524)
    exponent = np.where(small, exponent - f32(1), exponent).astype(f32)
    m = np.where(small, (mantissa - f32(1)) + mantissa, mantissa - f32(1)).astype(f32)
    m_squared = _mul(m, m)
    poly = np.full_like(m, f32(_LOG_P[0]))
    for coefficient in _LOG_P[1:]:
        poly = _fma(poly, m, f32(coefficient))          # Horner's rule, one fused step each
    poly = _mul(poly, m)
    y = _fma(poly, m_squared, _mul(exponent, f32(_LN2_LOW)))
    y = _fma(m_squared, f32(-0.5), y)
    return _fma(exponent, f32(_LN2_HIGH), (m + y).astype(f32))


_PI_PARTS = (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8)   # -pi/4 in three pieces
_SIN_P = (-1.9515295891E-4, 8.3321608736E-3, -1.6666654611E-1)
_COS_P = (2.443315711809948E-005, -1.388731625493765E-003, 4.166664568298827E-002)


def sincos(x):
    """(sin x, cos x) of float32 values (Cephes ``sinf``/``cosf`` as vectorised in PyTorch)."""
    x = np.asarray(x, f32)
    sin_negative = np.signbit(x)
    x = np.abs(x)
    # which eighth of the circle: j = the nearest even multiple of pi/4 below 4x/pi, rounded up
    j = _mul(x, f32(1.27323954473516)).astype(np.int32)
    j = (j + 1) & ~1
    octant = j.astype(f32)
    for part in _PI_PARTS:                             # x - j*pi/4, carried in extra precision
        x = _fma(octant, f32(part), x)
    sin_negative = sin_negative ^ ((j & 4) != 0)
    cos_negative = (~(j - 2) & 4) != 0
    use_sin_polynomial_for_sin = (j & 2) == 0
    z = _mul(x, x)
    cos_poly = _fma(np.full_like(z, f32(_COS_P[0])), z, f32(_COS_P[1]))
    cos_poly = _fma(cos_poly, z, f32(_COS_P[2]))
    cos_poly = _mul(cos_poly, z)
    cos_poly = _fma(cos_poly, z, _mul(z, f32(-0.5)))
    cos_poly = (cos_poly + f32(1)).astype(f32)
    sin_poly = _fma(np.full_like(z, f32(_SIN_P[0])), z, f32(_SIN_P[1]))
    sin_poly = _fma(sin_poly, z, f32(_SIN_P[2]))
    sin_poly = _fma(_mul(sin_poly, z), x, x)
    sin = np.where(use_sin_polynomial_for_sin, sin_poly, cos_poly)
    cos = np.where(use_sin_polynomial_for_sin, cos_poly, sin_poly)
    return np.where(sin_negative, -sin, sin).astype(f32), np.where(cos_negative, -cos, cos).astype(f32)
