"""Logarithms to other bases and exp(x) - 1: log2, log10, expm1.

log2(x) = log(x) / log(2), so d/dx log2(x) = 1 / (x log 2); the same for log10 with log 10.
expm1(x) = e^x - 1, accurate where x is tiny (e^x alone would round to 1); its slope e^x is
the result plus 1, so backward saves the result (as exp does).
"""
import math

import numpy as np

from ..autograd.graph import Node
from . import result, save_result
from .pointwise import _float_ufunc, mul_by_number, add_number

_LN2, _LN10 = math.log(2.0), math.log(10.0)


class Log2Backward0(Node):
    """result = log2(self)   ->   grad_self = grad / (self * log(2))"""

    _saved_names = ("self",)        # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        return (grad / mul_by_number(a, _LN2),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / (self * log(2))"""
        return tangents[0] / mul_by_number(inputs[0], _LN2)


def log2(input):
    """The base-2 logarithm, elementwise. Gradient: grad / (input * log(2))."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return result(_float_ufunc(np.log2, input), Log2Backward0, (input,), saved=(input,))


class Log10Backward0(Node):
    """result = log10(self)   ->   grad_self = grad / (self * log(10))"""

    _saved_names = ("self",)        # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        return (grad / mul_by_number(a, _LN10),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / (self * log(10))"""
        return tangents[0] / mul_by_number(inputs[0], _LN10)


def log10(input):
    """The base-10 logarithm, elementwise. Gradient: grad / (input * log(10))."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return result(_float_ufunc(np.log10, input), Log10Backward0, (input,), saved=(input,))


class Expm1Backward0(Node):
    """result = e ** self - 1   ->   grad_self = grad * (result + 1)"""

    _saved_names = ("result",)      # grad_fn._saved_result, as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (grad * add_number(out, 1),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * (result + 1)"""
        return tangents[0] * add_number(out, 1)


def expm1(input):
    """e ** input - 1, elementwise, accurate for tiny input. Gradient: grad * (result + 1)."""
    with np.errstate(over="ignore"):
        return save_result(result(_float_ufunc(np.expm1, input), Expm1Backward0, (input,)))
