"""The C library's own float32 functions (``log1pf``, ``tanhf``, ``sinf``), called one number at a time.

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


@functools.cache
def _function(name):
    """The C library's float function ``name`` (float -> float), ready to call; None where no C
    math library can be loaded this way (Windows has no ``libm``)."""
    try:
        function = getattr(ctypes.CDLL(ctypes.util.find_library("m") or None), name)
    except (OSError, TypeError, AttributeError):
        return None
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return function


def _elementwise(name, x, numpy_function):
    """The C library's ``name`` of each number of the float32 array x (the same shape); numpy's
    float32 function where the C library cannot be called (then the last bit may differ)."""
    x = np.asarray(x, np.float32)
    function = _function(name)
    if function is None:
        return numpy_function(x)
    return np.array([function(number) for number in x.reshape(-1).tolist()],
                    np.float32).reshape(x.shape)


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
