"""logsigmoid: log(sigmoid(x)) = -softplus(-x), computed without overflow.

PyTorch computes it as min(x, 0) - log(1 + e^-|x|) and keeps e^-|x| (the "buffer") for
backward, where the slope sigmoid(-x) = 1 - sigmoid(x) is built from it:

    d/dx log(sigmoid(x)) = 1 - e / (1 + e) for x < 0, e / (1 + e) otherwise   (e = e^-|x|)

Its gradient is one recorded operation (log_sigmoid_backward, LogSigmoidBackwardBackward0),
and its own derivative w.r.t. x is grad * (sigmoid(x) - 1) * sigmoid(x).
"""
import numpy as np

from .. import _sleef_double_pairs, _sleef_float_pairs, _sleef_mathfun, _sleef_pow
from ..autograd.graph import Node
from .._memory_format import empty_laid_out_like, keep_zero_steps, with_pytorch_steps
from .._ops import result
from .._ops.pointwise import sigmoid, sub_number
from .._tensor import _wrap


class LogSigmoidBackward0(Node):
    """result = log(sigmoid(self)) = min(self, 0) - log(1 + buffer), buffer = e ** -|self|   ->
        grad_self = grad * sigmoid(-self)"""

    _saved_names = ("self", "buffer")         # grad_fn._saved_self, grad_fn._saved_buffer

    def backward(self, grad):
        x, buffer = self.saved_tensors
        return (log_sigmoid_backward(grad, x, buffer),)

    def jvp(self, tangents, inputs, out):
        """result_t = log_sigmoid_backward(self_t, self, buffer)"""
        return log_sigmoid_backward(tangents[0], inputs[0], self.saved_tensors[1])


def _log_sigmoid_slope(x, buffer):
    """numpy: sigmoid(-x) from the buffer e = e^-|x|: 1 - e / (1 + e) for x < 0, else e / (1 + e)
    (PyTorch's kernel: max_deriv - sign * e / (1 + e))."""
    negative = x < 0
    return (np.where(negative, 1, 0).astype(x.dtype)
            - np.where(negative, 1, -1).astype(x.dtype) * (buffer / (1 + buffer)))


def log_sigmoid_backward(grad, x, buffer):
    """grad * sigmoid(-x), recorded as one operation (LogSigmoidBackwardBackward0) as in PyTorch."""
    # (in new memory laid out like grad's, PyTorch's empty_like(grad): an empty grad's steps
    # of 0 too, so the engine copies such a gradient into .grad, version 1)
    values = empty_laid_out_like(with_pytorch_steps(grad), x._array.dtype)
    values[...] = _log_sigmoid_slope(x._array, buffer._array) * grad._array
    return keep_zero_steps(result(values, LogSigmoidBackwardBackward0, (grad, x), saved=(grad, x, buffer)))


class LogSigmoidBackwardBackward0(Node):
    """result = grad_output * sigmoid(-self) (logsigmoid's backward, recorded)   ->
        grad_grad_output = grad * sigmoid(-self); grad_self = grad * grad_output * (sigmoid(self) - 1) * sigmoid(self)"""

    _saved_names = ("grad_output", "self", "buffer")

    def backward(self, gg):
        grad, x, buffer = self.saved_tensors
        d_grad = log_sigmoid_backward(gg, x, buffer) if self.should_compute_output(0) else None
        d_x = None
        if self.should_compute_output(1):
            # PyTorch's steps: z = sigmoid(x), then gg * grad * (z - 1) * z
            product = gg * grad
            z = sigmoid(x)
            d_x = product * sub_number(z, 1) * z
        return d_grad, d_x


def _log_sigmoid_arrays(x):
    """numpy: (min(x, 0) - log1p(buffer), buffer = e ** -|x|) in PyTorch's steps. Its kernel
    runs every number, the last few in a part-filled vector, through the vector functions: the
    SLEEF library's exp and log1p for float32 and float64 (followed bit for bit here), and a
    minimum that keeps nan."""
    with np.errstate(all="ignore"):
        if x.dtype == np.float32:
            buffer = _sleef_mathfun.exp(-np.abs(x))
            return np.minimum(x, np.float32(0)) - _sleef_float_pairs.log1p(buffer), buffer
        if x.dtype == np.float64:
            buffer = _sleef_pow.exp(-np.abs(x))
            return np.minimum(x, 0.0) - _sleef_double_pairs.log1p(buffer), buffer
        buffer = np.exp(-np.abs(x))
        return (np.minimum(x, 0) - np.log1p(buffer)).astype(x.dtype, copy=False), buffer


def logsigmoid(input):
    """log(sigmoid(x)), without overflow for large |x|.

    Gradient: grad * sigmoid(-x) (1 for very negative x, 0 for very positive x).
    """
    from . import functional as F
    F._check_floating_kernel(input, "log_sigmoid_cpu")
    out, buffer = _log_sigmoid_arrays(input._array)
    # (the buffer is a second output of PyTorch's forward, without a gradient of its own)
    return result(out, LogSigmoidBackward0, (input,), saved=(input, _wrap(buffer)))
