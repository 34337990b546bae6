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

class _LogToBaseBackward:
    """What log2's and log10's nodes share (each is also a Node): grad / (self * ln(base)),
    with ln(base) in ``ln_base``; each is its own class only for the name PyTorch shows."""

    _saved_names = ("self",)        # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        return (grad / mul_by_number(a, self.ln_base),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / (self * ln(base))"""
        return tangents[0] / mul_by_number(inputs[0], self.ln_base)


class Log2Backward0(_LogToBaseBackward, Node):
    """result = log2(self)   ->   grad_self = grad / (self * log(2))"""

    ln_base = math.log(2.0)


class Log10Backward0(_LogToBaseBackward, Node):
    """result = log10(self)   ->   grad_self = grad / (self * log(10))"""

    ln_base = math.log(10.0)


def _log_to_base(ufunc, node_class, input):
    with np.errstate(divide="ignore", invalid="ignore"):      # (log of 0 or of a negative number)
        return result(_float_ufunc(ufunc, input), node_class, (input,), saved=(input,))


def log2(input):
    """The base-2 logarithm, elementwise. Gradient: grad / (input * log(2))."""
    return _log_to_base(np.log2, Log2Backward0, input)


def log10(input):
    """The base-10 logarithm, elementwise. Gradient: grad / (input * log(10))."""
    return _log_to_base(np.log10, Log10Backward0, input)


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
