"""Special functions: erf, the Gauss error function (the normal CDF is 0.5 * (1 + erf(x / sqrt 2))).

erf(x) = 2/sqrt(pi) * integral from 0 to x of e^(-t^2) dt, so d/dx erf(x) = 2/sqrt(pi) * e^(-x^2).
PyTorch: torch.erf, torch.special.erf.
"""
import math

import numpy as np

from ..autograd.graph import Node
from . import result
from .pointwise import exp, like_its_input, mul_by_number

_erf_scalar = np.frompyfunc(math.erf, 1, 1)
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _erf_array(array):
    """erf of every element (math.erf, element by element: numpy has no erf of its own)."""
    dtype = array.dtype if array.dtype.kind == "f" else np.dtype(np.float32)
    return np.asarray(_erf_scalar(array), dtype=np.float64).astype(dtype)


class ErfBackward0(Node):
    """result = erf(self)   ->   grad_self = grad * 2 / sqrt(pi) * e ** (-self**2)"""

    _saved_names = ('self',)      # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        # (written in PyTorch's order, so a second-order graph has its nodes: 2 / sqrt(pi) *
        # exp(-self.pow(2)) * grad)
        return (mul_by_number(exp(-(x ** 2)), _TWO_OVER_SQRT_PI) * grad,)


def erf(input):
    """The Gauss error function, element by element.

    Gradient: grad * 2 / sqrt(pi) * e ** (-input**2).
    """
    return result(like_its_input(_erf_array(input._array), input._array), ErfBackward0, (input,), saved=(input,))


# --- erfc, erfinv: the complement and the inverse of erf ------------------------------------

_erfc_scalar = np.frompyfunc(math.erfc, 1, 1)


def _in_float(function, array):
    """``function`` (computed in float64) of each element, in ``array``'s float dtype (ints: float32)."""
    dtype = array.dtype if array.dtype.kind == "f" else np.dtype(np.float32)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        return np.asarray(function(array.astype(np.float64)), dtype=np.float64).astype(dtype)


class ErfcBackward0(Node):
    """result = erfc(self) = 1 - erf(self)   ->   grad_self = grad * -2 / sqrt(pi) * e ** (-self**2)"""

    _saved_names = ('self',)      # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (mul_by_number(exp(-(x ** 2)), -_TWO_OVER_SQRT_PI) * grad,)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * -2 / sqrt(pi) * e ** (-self**2)"""
        return mul_by_number(exp(-(inputs[0] ** 2)), -_TWO_OVER_SQRT_PI) * tangents[0]


def erfc(input):
    """1 - erf(input), elementwise, accurate where erf is close to 1 (large input).

    Gradient: grad * -2 / sqrt(pi) * e ** (-input**2).
    """
    array = input._array
    out = like_its_input(_in_float(lambda a: np.asarray(_erfc_scalar(a), dtype=np.float64), array), array)
    return result(out, ErfcBackward0, (input,), saved=(input,))


def _erfinv_float64(y):
    """The x with erf(x) = y, in float64: a first guess good to float32 (M. Giles' polynomials,
    "Approximating the erfinv function", 2010), then two Newton steps x -= (erf(x) - y) / erf'(x)."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        w = -np.log((1 - y) * (1 + y))
        central = w - 2.5
        p = np.full_like(y, 2.81022636e-08)
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                  -0.00417768164, 0.246640727, 1.50140941):
            p = c + p * central
        tail = np.sqrt(w) - 3
        q = np.full_like(y, -0.000200214257)
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                  0.00943887047, 1.00167406, 2.83297682):
            q = c + q * tail
        size = np.abs(y)
        x = np.where(w < 5, p, q) * size       # erfinv is odd: work with |y|, sign at the end
        finite = np.isfinite(x)
        for _ in range(2):
            # near 1, erf(x) - y cancels: 1 - y is exact there, so compare erfc(x) with it
            miss = np.where(size < 0.5, _erf_array(x) - size,
                            (1 - size) - np.asarray(_erfc_scalar(x), dtype=np.float64))
            x = np.where(finite, x - miss / (_TWO_OVER_SQRT_PI * np.exp(-x * x)), x)
        x = np.copysign(x, y)
        x = np.where(np.abs(y) == 1, np.copysign(np.inf, y), x)     # erfinv(+-1) = +-inf
        return np.where(np.abs(y) > 1, np.nan, x)                    # no x has erf(x) > 1


class ErfinvBackward0(Node):
    """result = erfinv(self)   ->   grad_self = grad * sqrt(pi) / 2 * e ** (erfinv(self)**2)"""

    _saved_names = ('self',)      # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (mul_by_number(exp(erfinv(x) ** 2), math.sqrt(math.pi) / 2) * grad,)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * sqrt(pi) / 2 * e ** (erfinv(self)**2)"""
        return mul_by_number(exp(erfinv(inputs[0]) ** 2), math.sqrt(math.pi) / 2) * tangents[0]


def erfinv(input):
    """The inverse of erf: the x with erf(x) = input (-1 < input < 1), elementwise.

    Gradient: grad * sqrt(pi) / 2 * e ** (erfinv(input)**2) (1 / erf' at the result).
    """
    array = input._array
    out = like_its_input(_in_float(_erfinv_float64, array), array)
    if out.dtype == np.float32:
        # PyTorch's float32 kernel gives -nan outside [-1, 1] (float64 and float16: nan)
        np.copyto(out, -np.float32(np.nan), where=np.abs(array) > 1)
    return result(out, ErfinvBackward0, (input,), saved=(input,))


# --- sinc: sin(pi x) / (pi x), the ideal low-pass filter --------------------------------------

class SincBackward0(Node):
    """result = sin(pi self) / (pi self)   ->
        grad_self = grad * (pi self cos(pi self) - sin(pi self)) / (pi self**2), 0 where self = 0"""

    _saved_names = ('self',)      # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (_times_sinc_slope(grad, x),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * sinc'(self)"""
        return _times_sinc_slope(tangents[0], inputs[0])


def _times_sinc_slope(grad, x):
    """grad * sinc'(x), 0 where x = 0 (sinc is flat there), recorded as PyTorch's formula is."""
    from .pointwise import cos, sin, where        # (recorded: the slope can be differentiated again)
    from .._tensor import _wrap
    pi_x = mul_by_number(x, math.pi)
    slope = (pi_x * cos(pi_x) - sin(pi_x)) / mul_by_number(x * x, math.pi)
    return where(x == 0, _wrap(np.zeros((), dtype=slope._array.dtype)), grad * slope)


def _sinc_array(array):
    dtype = array.dtype if array.dtype.kind == "f" else np.dtype(np.float32)
    # in float32 or float64, as PyTorch (pi x rounds: sinc(1) in float32 is -2.78e-08; float16
    # is computed in float32 and rounded at the end)
    array = array.astype(np.float32 if dtype.itemsize < 4 else dtype, copy=False)
    with np.errstate(invalid="ignore", divide="ignore"):
        pi_x = array * np.asarray(math.pi, array.dtype)
        return np.where(array == 0, np.asarray(1, array.dtype), np.sin(pi_x) / pi_x).astype(dtype)


def sinc(input):
    """The normalized sinc function sin(pi x) / (pi x) (1 at x = 0), elementwise.

    Gradient: grad * (pi x cos(pi x) - sin(pi x)) / (pi x**2), 0 at x = 0.
    """
    array = input._array
    return result(like_its_input(_sinc_array(array), array), SincBackward0, (input,), saved=(input,))
