"""torch.fill(input, value): a new tensor of input's shape and dtype, every element ``value``.

The out-of-place twin of ``x.fill_(value)``. Its gradient reaches ``input`` as zeros (no
output depends on input's values) and, when ``value`` is a 0-d tensor, reaches it as the sum
of the incoming gradient (every output element is that one value).
"""
import numpy as np

from .._tensor import Tensor
from .._python_arg_parser import invalid_combination
from . import result
from ..autograd.graph import Node


class FillBackward0(Node):
    """result = fill(self, value), value a number   ->   grad_self = zeros_like(grad)"""

    def backward(self, grad):
        return (grad * 0,)

    def jvp(self, tangents, inputs, out):
        """result_t = zeros_like(self_t)"""
        return tangents[0] * 0


class FillBackward1(Node):
    """result = fill(self, value), value a 0-d tensor   ->
        grad_self = zeros_like(grad); grad_value = grad.sum()"""

    def backward(self, grad):
        return grad * 0, grad.sum()


def fill(input, value):
    """A tensor like ``input`` with every element ``value`` (a number, or a 0-d tensor).

    Gradient: zeros to input; to a tensor value, the sum of the gradient."""
    if not isinstance(input, Tensor) or not isinstance(value, (Tensor, int, float, bool, np.number)):
        raise invalid_combination("fill", (input, value), {})
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} "
                               "dimensions.")
        filled = np.full(input._array.shape, value._array, dtype=input._array.dtype)
        return result(filled, FillBackward1, (input, value))
    filled = np.full(input._array.shape, value, dtype=input._array.dtype)
    return result(filled, FillBackward0, (input,))
