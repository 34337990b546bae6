"""The C library's own functions (float32 ``log1pf``, ``tanhf``, ``sinf``; float64 ``sin``),
called one number at a time.

PyTorch's CPU kernels send the few numbers left over after their last whole vectors through
the C library (``std::log1p`` of a float is ``log1pf``; see ``_vectorized_loop``). numpy's
float32 ``log1p`` and ``tanh`` are other formulas that differ in the last bit now and then.
Where minigrad has not written the C library's method out in numpy (``_c_library_expf`` does
that for ``expf``), it asks the C library itself, through ctypes: the very library PyTorch's
kernels call, so the very same bits. A call per number is slow, but a loop leaves at most 15
numbers over.
"""
import ctypes
import ctypes.util
import functools

import numpy as np


_C_TYPES = {np.float32: ctypes.c_float, np.float64: ctypes.c_double}


@functools.cache
def _function(name, dtype=np.float32):
    """The C library's function ``name`` of one number of ``dtype`` (float -> float, or double
    -> double), ready to call; None where no C math library can be loaded this way (Windows has
    no ``libm``)."""
    try:
        function = getattr(ctypes.CDLL(ctypes.util.find_library("m") or None), name)
    except (OSError, TypeError, AttributeError):
        return None
    function.restype, function.argtypes = _C_TYPES[dtype], [_C_TYPES[dtype]]
    return function


def _elementwise(name, x, numpy_function, dtype=np.float32):
    """The C library's ``name`` of each number of the array x as ``dtype`` (the same shape);
    numpy's function where the C library cannot be called (then the last bit may differ)."""
    x = np.asarray(x, dtype)
    function = _function(name, dtype)
    if function is None:
        return numpy_function(x)
    return np.array([function(number) for number in x.reshape(-1).tolist()],
                    dtype).reshape(x.shape)


def log1pf(x):
    """log(1 + x) of a float32 array, as the C library's ``log1pf``."""
    return _elementwise("log1pf", x, np.log1p)


def tanhf(x):
    """tanh(x) of a float32 array, as the C library's ``tanhf``."""
    return _elementwise("tanhf", x, np.tanh)


def sinf(x):
    """sin(x) of a float32 array, as the C library's ``sinf`` (PyTorch's scalar float32 kernels,
    trigamma's reflection among them, call it)."""
    return _elementwise("sinf", x, np.sin)


def sin(x):
    """sin(x) of a float64 array, as the C library's ``sin``."""
    return _elementwise("sin", x, np.sin, np.float64)
