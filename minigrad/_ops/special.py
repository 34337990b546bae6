"""Special functions: erf, the Gauss error function (the normal CDF is 0.5 * (1 + erf(x / sqrt 2))).

erf(x) = 2/sqrt(pi) * integral from 0 to x of e^(-t^2) dt, so d/dx erf(x) = 2/sqrt(pi) * e^(-x^2).
PyTorch: torch.erf, torch.special.erf.
"""
import math

import numpy as np

from ..autograd.graph import Node
from . import result
from .pointwise import exp, like_its_input

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
        return (grad * exp(-(x * x)) * _TWO_OVER_SQRT_PI,)


def erf(input):
    """The Gauss error function, element by element.

    Gradient: grad * 2 / sqrt(pi) * e ** (-input**2).
    """
    return result(like_its_input(_erf_array(input._array), input._array), ErfBackward0, (input,), saved=(input,))
