"""Inverse trigonometric and hyperbolic functions, and turning degrees into radians.

* ``asin``, ``acos``, ``atan``: the angle whose sine, cosine, tangent is the input.
  d/dx asin(x) = 1 / sqrt(1 - x^2), d/dx acos(x) = -1 / sqrt(1 - x^2), d/dx atan(x) = 1 / (1 + x^2).
* ``sinh``, ``cosh``: (e^x - e^-x) / 2 and (e^x + e^-x) / 2; each is the other's derivative.
* ``asinh``, ``acosh``, ``atanh``: their inverses (and tanh's).
  d/dx asinh(x) = 1 / sqrt(x^2 + 1), d/dx acosh(x) = 1 / sqrt(x^2 - 1), d/dx atanh(x) = 1 / (1 - x^2).
* ``deg2rad``, ``rad2deg``: multiplication by pi / 180 or 180 / pi.

Each saves its input (``grad_fn._saved_self``), as PyTorch's derivatives do. PyTorch also
names them arcsin, arccos, ... (numpy's names): the same functions. Integer inputs give
float32 results, as for sin and exp. Outside its domain (asin(2), acosh(0.5)) the result
is nan, silently.
"""
import math

import numpy as np

from ..autograd.graph import Node
from . import result
from .._tensor import _wrap
from .pointwise import (_cosh_array, _float_ufunc, _sinh_array, add_number, mul_by_number, rsqrt,
                        sub, sub_number, with_new_nans, nans_by_loop, with_all_ones_nans_in_vectors,
                        ALL_ONES_NAN, NEGATIVE_NAN, POSITIVE_NAN, _UNSIGNED)
from ..autograd.kernel_writes import kernel_writes


def _unary(ufunc, node_class, input, saved=True):
    """``ufunc`` of each element (ints promoted to float32), recorded as ``node_class``."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):   # nan/inf, silently
        out = _float_ufunc(ufunc, input)
    return result(out, node_class, (input,), saved=(input,) if saved else None)


def _asin_nans(array):
    """asin's NaNs outside [-1, 1]: x86's (negative) in float32 and float64; PyTorch's float16
    asin gives the NaN the sign opposite to the number's (acos's NaNs are always negative)."""
    if array.itemsize == 2:
        return np.where(np.signbit(array), POSITIVE_NAN[2], NEGATIVE_NAN[2])
    return NEGATIVE_NAN[array.itemsize]


def _atanh_nans(array):
    """atanh's NaNs outside [-1, 1]: PyTorch's vector loop (SLEEF) gives NaNs with every bit set
    (but the sign bit below -1 in float32 and float16), its scalar loop x86's NaN."""
    size = array.itemsize
    vector = np.where(array < 0, ALL_ONES_NAN[size] >> (size != 8), ALL_ONES_NAN[size])
    return np.where(nans_by_loop(array, 1, 0) == 1, vector, NEGATIVE_NAN[size])


# (a NaN input: every bit set in the whole vectors of PyTorch's loop, its own bits in the rest)
_atanh_array = with_all_ones_nans_in_vectors(with_new_nans(np.arctanh, _atanh_nans))


_arcsin = with_new_nans(np.arcsin, _asin_nans)
_arccos = with_new_nans(np.arccos, lambda array: NEGATIVE_NAN[array.itemsize])


class _SavesSelf:
    """What these nodes share (each is also a Node): the input is saved as ``self``."""

    _saved_names = ("self",)        # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (grad * self.slope(x),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * (the slope at self)"""
        return tangents[0] * self.slope(inputs[0])


class AsinBackward0(_SavesSelf, Node):
    """result = asin(self)   ->   grad_self = grad / sqrt(1 - self**2)"""

    @staticmethod
    def slope(x):
        return rsqrt(add_number(-x * x, 1))


class AcosBackward0(_SavesSelf, Node):
    """result = acos(self)   ->   grad_self = -grad / sqrt(1 - self**2)"""

    @staticmethod
    def slope(x):
        return -rsqrt(add_number(-x * x, 1))


class AtanBackward0(_SavesSelf, Node):
    """result = atan(self)   ->   grad_self = grad / (1 + self**2)"""

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (grad / add_number(x * x, 1),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / (1 + self**2)"""
        return tangents[0] / add_number(inputs[0] * inputs[0], 1)


class SinhBackward0(_SavesSelf, Node):
    """result = sinh(self)   ->   grad_self = grad * cosh(self)"""

    @staticmethod
    def slope(x):
        return cosh(x)


class CoshBackward0(_SavesSelf, Node):
    """result = cosh(self)   ->   grad_self = grad * sinh(self)"""

    @staticmethod
    def slope(x):
        return sinh(x)


class AsinhBackward0(_SavesSelf, Node):
    """result = asinh(self)   ->   grad_self = grad / sqrt(self**2 + 1)"""

    @staticmethod
    def slope(x):
        return rsqrt(add_number(x ** 2, 1))


class AcoshBackward0(_SavesSelf, Node):
    """result = acosh(self)   ->   grad_self = grad / sqrt(self**2 - 1)"""

    @staticmethod
    def slope(x):
        return rsqrt(sub_number(x * x, 1))


class AtanhBackward0(_SavesSelf, Node):
    """result = atanh(self)   ->   grad_self = grad / (1 - self**2)"""

    def backward(self, grad):
        (x,) = self.saved_tensors
        # PyTorch's formula is grad * 1 / (1 - self**2): the product with the Scalar 1 is
        # recorded too (MulBackward1 under create_graph)
        return (mul_by_number(grad, 1) / _one_minus_square(x),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / (1 - self**2)"""
        return tangents[0] / _one_minus_square(inputs[0])


def _one_minus_square(x):
    """1 - x**2, with the 1 a tensor (SubBackward0), as PyTorch's formula records it."""
    return sub(_wrap(np.ones((), dtype=x._array.dtype)), x ** 2)


def asin(input):
    """The inverse sine (in radians, -pi/2 to pi/2), elementwise. Gradient: grad / sqrt(1 - input**2)."""
    return _unary(_arcsin, AsinBackward0, input)


def acos(input):
    """The inverse cosine (in radians, 0 to pi), elementwise. Gradient: -grad / sqrt(1 - input**2)."""
    return _unary(_arccos, AcosBackward0, input)


def atan(input):
    """The inverse tangent (in radians, -pi/2 to pi/2), elementwise. Gradient: grad / (1 + input**2)."""
    return _unary(np.arctan, AtanBackward0, input)


def sinh(input):
    """The hyperbolic sine (e**x - e**-x) / 2, elementwise. Gradient: grad * cosh(input)."""
    return _unary(_sinh_array, SinhBackward0, input)


def cosh(input):
    """The hyperbolic cosine (e**x + e**-x) / 2, elementwise. Gradient: grad * sinh(input)."""
    return _unary(_cosh_array, CoshBackward0, input)


def asinh(input):
    """The inverse hyperbolic sine, elementwise. Gradient: grad / sqrt(input**2 + 1)."""
    return _unary(np.arcsinh, AsinhBackward0, input)


def acosh(input):
    """The inverse hyperbolic cosine (input >= 1), elementwise. Gradient: grad / sqrt(input**2 - 1)."""
    return _unary(np.arccosh, AcoshBackward0, input)


def atanh(input):
    """The inverse hyperbolic tangent (-1 < input < 1), elementwise. Gradient: grad / (1 - input**2)."""
    return _unary(_atanh_array, AtanhBackward0, input)


# --- asinh_, acosh_, atanh_: PyTorch records them, but has no derivative for them -------------

class _InPlaceWithoutDerivative:
    """What the nodes of x.asinh_(), acosh_(), atanh_() share (each is also a Node): they are
    recorded, but backward refuses: PyTorch has no derivative for the in-place forms of these
    three (write x = x.asinh() instead)."""

    def backward(self, grad):
        raise NotImplementedError(f"the derivative for 'inplace version of {self.operation}' is not "
                                  "implemented.")


class AsinhBackward1(_InPlaceWithoutDerivative, Node):
    """result = self.asinh_()   ->   grad_self = error: no derivative in PyTorch"""

    operation = "asinh"


class AcoshBackward1(_InPlaceWithoutDerivative, Node):
    """result = self.acosh_()   ->   grad_self = error: no derivative in PyTorch"""

    operation = "acosh"


class AtanhBackward1(_InPlaceWithoutDerivative, Node):
    """result = self.atanh_()   ->   grad_self = error: no derivative in PyTorch"""

    operation = "atanh"


def asinh_in_place(input):
    """asinh, recorded as x.asinh_() is (AsinhBackward1, no derivative)."""
    return _unary(np.arcsinh, AsinhBackward1, input, saved=False)


def acosh_in_place(input):
    """acosh, recorded as x.acosh_() is (AcoshBackward1, no derivative)."""
    return _unary(np.arccosh, AcoshBackward1, input, saved=False)


def atanh_in_place(input):
    """atanh, recorded as x.atanh_() is (AtanhBackward1, no derivative)."""
    return _unary(_atanh_array, AtanhBackward1, input, saved=False)


# --- degrees and radians: multiplication by a constant --------------------------------------

class Deg2RadBackward0(Node):
    """result = self * pi / 180   ->   grad_self = grad * pi / 180 (nothing saved)"""

    factor = math.pi / 180

    def backward(self, grad):
        return (mul_by_number(grad, self.factor),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * pi / 180"""
        return mul_by_number(tangents[0], self.factor)


class Rad2DegBackward0(Deg2RadBackward0):
    """result = self * 180 / pi   ->   grad_self = grad * 180 / pi (nothing saved)"""

    factor = 180 / math.pi


def deg2rad(input):
    """Angles in degrees turned into radians (times pi / 180). Gradient: grad * pi / 180."""
    out = _unary(lambda array: array * np.asarray(Deg2RadBackward0.factor, array.dtype),
                 Deg2RadBackward0, input, saved=False)
    return kernel_writes("deg2rad", out, input)       # (an empty result, then deg2rad's out= variant)


def rad2deg(input):
    """Angles in radians turned into degrees (times 180 / pi). Gradient: grad * 180 / pi."""
    out = _unary(lambda array: array * np.asarray(Rad2DegBackward0.factor, array.dtype),
                 Rad2DegBackward0, input, saved=False)
    return kernel_writes("rad2deg", out, input)       # (an empty result, then rad2deg's out= variant)


# numpy's names, which PyTorch also has
arcsin, arccos, arctan = asin, acos, atan
arcsinh, arccosh, arctanh = asinh, acosh, atanh
