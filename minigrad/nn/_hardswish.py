"""hardsigmoid and hardswish: sigmoid and swish (silu) made of straight pieces.

    hardsigmoid(x) = min(max(x + 3, 0), 6) / 6     (0 below -3, 1 above 3, a line between)
    hardswish(x)   = x * hardsigmoid(x)            (0 below -3, x above 3, x (x + 3) / 6 between)

They are cheap on phones (MobileNetV3), and their slopes are simple:

    hardsigmoid'(x) = 1/6 for -3 < x < 3, else 0
    hardswish'(x)   = 0 for x <= -3,  x / 3 + 1/2 for -3 < x < 3,  1 for x >= 3

Each gradient is one recorded operation of PyTorch's (hardswish_backward,
hardsigmoid_backward). hardswish's second derivative is 1/3 between -3 and 3; hardsigmoid's
backward has no derivative in PyTorch: differentiating it again raises an error.
In place (``inplace=True``), PyTorch saves a copy of the input from before the change.
"""
import numpy as np

from ..autograd.graph import Node
from .._ops import result
from .._ops.pointwise import backward_kernel_layout, kernel_not_implemented, div_by_number, where
from .._ops.rounding import _NotImplementedBackward
from .._ops.inplace import apply_pointwise_inplace
from .._tensor import _wrap
from ._hardtanh import _in_vector_registers


def _check_floating(input, kernel):
    if not input.is_floating_point():
        raise kernel_not_implemented(kernel, input)


# --- hardsigmoid -------------------------------------------------------------------------------

class HardsigmoidBackward0(Node):
    """result = min(max(self + 3, 0), 6) / 6   ->
        grad_self = grad / 6 where -3 < self < 3, else 0"""

    _saved_names = ("self",)        # grad_fn._saved_self

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (hardsigmoid_backward(grad, x),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / 6 where -3 < self < 3, else 0"""
        return hardsigmoid_backward(tangents[0], inputs[0])


class HardsigmoidBackwardBackward0(_NotImplementedBackward):
    """result = hardsigmoid_backward(grad_output, self)   ->
        grad_grad_output = error; grad_self = error: PyTorch records a node that refuses to run"""

    _operation = "hardsigmoid_backward"


HardsigmoidBackwardBackward0.__name__ = HardsigmoidBackwardBackward0.__qualname__ = "NotImplemented"


def hardsigmoid_backward(grad, x):
    """grad * hardsigmoid'(x), recorded as one operation (with no derivative of its own)."""
    g, a = grad._array, x._array
    inside = (a > -3) & (a < 3)
    # PyTorch multiplies by 1/6 rounded to float32, in float64 too (its forward divides by 6)
    one_sixth = a.dtype.type(np.float32(1 / 6))
    values = np.where(inside, g * one_sixth, a.dtype.type(0))
    # (PyTorch's node has edges only to those of grad and x that require grad)
    recorded = tuple(t for t in (grad, x) if t.requires_grad)
    return result(backward_kernel_layout(values.astype(a.dtype, copy=False), grad, x),
                  HardsigmoidBackwardBackward0, recorded)


def hardsigmoid(input, inplace=False):
    """min(max(x + 3, 0), 6) / 6: a sigmoid made of three straight pieces.

    Gradient: grad / 6 where -3 < x < 3, else 0.
    """
    if inplace:
        return apply_pointwise_inplace(input, hardsigmoid)
    _check_floating(input, "hardsigmoid_cpu")
    x = input._array
    dtype = x.dtype.type
    out = np.minimum(np.maximum(x + dtype(3), dtype(0)), dtype(6)) / dtype(6)
    return result(out.astype(x.dtype, copy=False), HardsigmoidBackward0, (input,), saved=(input,))


# --- hardswish ---------------------------------------------------------------------------------

class HardswishBackward0(Node):
    """result = self * min(max(self + 3, 0), 6) / 6   ->
        grad_self = 0 where self <= -3, grad * (self / 3 + 1/2) where self < 3, else grad"""

    _saved_names = ("self",)        # grad_fn._saved_self

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (hardswish_backward(grad, x),)

    def jvp(self, tangents, inputs, out):
        """result_t = hardswish'(self) * self_t"""
        return hardswish_backward(tangents[0], inputs[0])


class HardswishBackwardBackward0(Node):
    """result = g * hardswish'(self) (hardswish's backward, recorded)   ->
        grad_g = grad * hardswish'(self); grad_self = grad * g / 3 where -3 < self < 3, else 0"""

    _saved_names = ("grad_output", "self")     # grad_fn._saved_grad_output, grad_fn._saved_self

    def backward(self, gg):
        grad, x = self.saved_tensors
        d_grad = hardswish_backward(gg, x) if self.should_compute_output(0) else None
        d_x = None
        if self.should_compute_output(1):
            # PyTorch's steps: where(-3 < self < 3, gg * grad / 3, 0), the 0 a 0-d tensor
            a = x._array
            between = _wrap((a > -3) & (a < 3))
            d_x = where(between, div_by_number(gg * grad, 3.0), _wrap(np.zeros((), dtype=a.dtype)))
        return d_grad, d_x


def hardswish_backward(grad, x):
    """grad * hardswish'(x), recorded as one operation (HardswishBackwardBackward0), as in PyTorch."""
    g, a = grad._array, x._array
    dtype = a.dtype.type
    values = np.where(a <= -3, dtype(0), np.where(a < 3, g * (a / dtype(3) + dtype(0.5)), g))
    # NaN is neither <= -3 nor < 3: PyTorch's loop gives grad one element at a time, and NaN
    # in its blocks of vector registers (see _hardtanh.py)
    if a.dtype.kind == "f" and np.isnan(a).any():
        values = np.where(np.isnan(a) & _in_vector_registers(g, a), np.nan, values)
    return result(backward_kernel_layout(values.astype(a.dtype, copy=False), grad, x),
                  HardswishBackwardBackward0, (grad, x),
                  saved=(grad, x))


def hardswish(input, inplace=False):
    """x * min(max(x + 3, 0), 6) / 6: swish (x * sigmoid(x)) made of straight pieces.

    Gradient: 0 where x <= -3, grad * (x / 3 + 1/2) where x < 3, else grad.
    """
    if inplace:
        return apply_pointwise_inplace(input, hardswish)
    _check_floating(input, "hardswish_cpu")
    x = input._array
    dtype = x.dtype.type
    with np.errstate(invalid="ignore"):       # hardswish(-inf) = -inf * 0 = nan, silently
        out = x * np.minimum(np.maximum(x + dtype(3), dtype(0)), dtype(6)) / dtype(6)
    return result(out.astype(x.dtype, copy=False), HardswishBackward0, (input,), saved=(input,))
