"""mish: x * tanh(softplus(x)), a smooth activation (Misra, 2019).

    mish(x)  = x * tanh(log(1 + e^x))
    mish'(x) = t + x * sigmoid(x) * (1 - t^2),   t = tanh(log(1 + e^x))

(the second term from d tanh(s)/ds = 1 - tanh(s)^2 and d softplus(x)/dx = sigmoid(x)).

PyTorch records one node for the forward (MishBackward0). Its backward has two faces:
without create_graph it is one kernel that gives only numbers; with create_graph=True it
is written with ordinary operations (sigmoid, exp, log1p, tanh, *, -, +), so the gradient
carries that whole graph and can be differentiated again, as many times as you like.
"""
import numpy as np

from ..autograd.graph import Node
from ..autograd.grad_mode import is_grad_enabled
from .._ops import result
from .._ops.pointwise import backward_kernel_layout, kernel_not_implemented, sigmoid
from .._ops.inplace import apply_pointwise_inplace
from .._tensor import _wrap


class MishBackward0(Node):
    """result = self * tanh(softplus(self))   ->
        grad_self = grad * (t + self * sigmoid(self) * (1 - t * t)), t = tanh(log1p(e ** self))"""

    _saved_names = ("self",)        # grad_fn._saved_self

    def backward(self, grad):
        (x,) = self.saved_tensors
        if not is_grad_enabled():
            return (_wrap(backward_kernel_layout(_mish_backward_values(grad._array, x._array), grad, x)),)
        return (mish_backward_graph(grad, x),)

    def jvp(self, tangents, inputs, out):
        """result_t = mish'(self) * self_t, written as the backward's graph"""
        return mish_backward_graph(tangents[0], inputs[0])


def _mish_backward_values(g, x):
    """numpy: grad * mish'(x), PyTorch's kernel (only numbers, for a backward without a graph)."""
    with np.errstate(over="ignore", invalid="ignore"):
        s = 1 / (1 + np.exp(-x))
        t = np.tanh(np.log1p(np.exp(x)))
        # (np.asarray: numpy gives a scalar for 0-d arrays, which a .grad could not hold)
        return np.asarray((g * (t + x * s * (1 - t * t))).astype(x.dtype, copy=False))


def mish_backward_graph(grad, x):
    """grad * mish'(x) with ordinary operations, in PyTorch's order, so create_graph=True
    records the same nodes (the sigmoid first, then e^x, log1p, tanh)."""
    s = sigmoid(x)
    t = x.exp().log1p().tanh()
    # (PyTorch's 1.0 - t * t: the number becomes a 0-d tensor, SubBackward0 with no edge to it)
    one = _wrap(np.ones((), dtype=t._array.dtype))
    return grad * (t + x * s * (one - t * t))


def mish(input, inplace=False):
    """x * tanh(softplus(x)): smooth, not monotonic, unbounded above and bounded below.

    Gradient: grad * (t + x * sigmoid(x) * (1 - t^2)), t = tanh(softplus(x)).
    """
    if inplace:
        return apply_pointwise_inplace(input, mish)
    if not input.is_floating_point():
        raise kernel_not_implemented("mish_cpu", input)
    x = input._array
    with np.errstate(over="ignore", invalid="ignore"):
        out = x * np.tanh(np.log1p(np.exp(x)))
    return result(out.astype(x.dtype, copy=False), MishBackward0, (input,), saved=(input,))
