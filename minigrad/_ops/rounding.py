"""Rounding: round, floor, ceil, trunc, frac, and integer division // and remainder %.

round/floor/ceil/trunc are flat steps: a tiny change of the input does not
change the output, so their gradient is 0 everywhere (PyTorch ignores the
jumps too). frac(x) = x - trunc(x) therefore has gradient 1. The remainder
a % b = a - floor(a / b) * b has gradient 1 for a and -floor(a / b) for b.
PyTorch: torch.round, floor, ceil, trunc, frac, floor_divide, remainder.
"""
import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.graph import Node
from . import result
from .pointwise import _binary, kernel_not_implemented, like_its_input


class _StepBackward(Node):
    """result = a step function of self   ->   grad_self = 0 (flat between the jumps)"""

    def backward(self, grad):
        # zeros that depend on nothing (PyTorch's zeros_like): no second-order graph
        return (_wrap(np.zeros_like(grad._array)),)


class RoundBackward0(_StepBackward):
    """result = round(self) (halves to even)   ->   grad_self = 0"""


class RoundBackward1(_StepBackward):
    """result = round(self, decimals)   ->   grad_self = 0"""


class FloorBackward0(_StepBackward):
    """result = floor(self)   ->   grad_self = 0"""


class CeilBackward0(_StepBackward):
    """result = ceil(self)   ->   grad_self = 0"""


class TruncBackward0(_StepBackward):
    """result = self rounded towards 0   ->   grad_self = 0"""


def _step(numpy_function, input, node_class):
    array = input._array
    if array.dtype.kind in "biu":           # integers are already whole numbers
        if array.dtype.kind == "b":         # (PyTorch has no bool version of these kernels)
            raise kernel_not_implemented(f"{numpy_function.__name__}_vml_cpu", input)
        return result(like_its_input(array.copy(), array), node_class, (input,))
    return result(like_its_input(numpy_function(array), array), node_class, (input,))


def round(input, *, decimals=0):
    """Nearest whole number (halves go to the even neighbour, as in PyTorch and numpy).

    Gradient: 0 everywhere (flat between the jumps), as in PyTorch.
    """
    if not isinstance(decimals, (int, np.integer)) or isinstance(decimals, bool):
        raise TypeError(f"round(): argument 'decimals' must be int, not {type(decimals).__name__}")
    if decimals:
        if input._array.dtype.kind != "f":
            raise kernel_not_implemented("round_cpu", input)
        return result(np.round(input._array, decimals), RoundBackward1, (input,),
                      decimals=decimals)
    return _step(np.round, input, RoundBackward0)


def floor(input):
    """The largest whole number <= x.

    Gradient: 0 everywhere (flat between the jumps), as in PyTorch.
    """
    return _step(np.floor, input, FloorBackward0)


def ceil(input):
    """The smallest whole number >= x.

    Gradient: 0 everywhere (flat between the jumps), as in PyTorch.
    """
    return _step(np.ceil, input, CeilBackward0)


def trunc(input):
    """x rounded towards 0 (drop the fractional part).

    Gradient: 0 everywhere (flat between the jumps), as in PyTorch.
    """
    return _step(np.trunc, input, TruncBackward0)


fix = trunc


class FracBackward0(Node):
    """result = self - trunc(self)   ->   grad_self = grad"""

    def backward(self, grad):
        return (grad,)


def frac(input):
    """The fractional part x - trunc(x) (same sign as x).

    Gradient: grad (the jumps are ignored, as in PyTorch).
    """
    array = input._array
    if array.dtype.kind != "f":
        raise kernel_not_implemented("frac_cpu", input)
    with np.errstate(invalid="ignore"):       # frac(inf) = inf - inf = nan, silently
        return result(array - np.trunc(array), FracBackward0, (input,))


# --- // and % -------------------------------------------------------------------------------

class _NotImplementedBackward(Node):
    """result = floor_divide(self, other)   ->
        grad_self = error: PyTorch records a node that refuses to run (no derivative)"""

    operation = "floor_divide"

    def name(self):
        """``'torch::autograd::NotImplemented'``: PyTorch spells out this C++ node's namespace."""
        return "torch::autograd::NotImplemented"

    def backward(self, grad):
        raise RuntimeError(f"derivative for aten::{self.operation} is not implemented")


_NotImplementedBackward.__name__ = _NotImplementedBackward.__qualname__ = "NotImplemented"


def _check_integer_division(input, other):
    """Integers have no inf: PyTorch refuses integer // 0 and % 0 (floats give inf or nan)."""
    divisor = other._array if isinstance(other, Tensor) else np.asarray(other)
    dividend = input._array if isinstance(input, Tensor) else np.asarray(input)
    if divisor.dtype.kind in "iub" and dividend.dtype.kind in "iub" and (divisor == 0).any():
        raise RuntimeError("ZeroDivisionError")


def floor_divide(input, other):
    """a // b: floor(a / b). Not differentiable (PyTorch refuses its backward too)."""
    if isinstance(input, (int, float)):            # 7 // tensor
        input, other = _wrap(np.asarray(input, dtype=_binary(np.add, input, other).dtype)), other
    _check_integer_division(input, other)
    out = _binary(np.floor_divide, input, other)
    # PyTorch's node for a missing derivative has edges only to the inputs that require grad
    tensors = [t for t in (input, other) if isinstance(t, Tensor)]
    recorded = [t for t in tensors if t._graph_requires_grad] or tensors
    return result(out, _NotImplementedBackward, tuple(recorded))


def rfloordiv(input, other):
    return floor_divide(other, input)


class RemainderBackward0(Node):
    """result = self % other, other a number   ->   grad_self = grad"""

    def backward(self, grad):
        return (grad,)


class RemainderBackward1(Node):
    """result = self % other = self - floor(self / other) * other   ->
        grad_self = grad; grad_other = -grad * floor(self / other)"""

    _saved_names = ('self', 'other')      # grad_fn._saved_self, _saved_other, as in PyTorch

    def backward(self, grad):
        grad_b = None
        if self.should_compute_output(1):
            a, b = self.saved_tensors
            grad_b = -grad * _floor_quotient(a, b)
        return grad, grad_b


class DivBackward2(Node):
    """result = div(self, other, rounding_mode='floor')   ->   grad_self = 0; grad_other = 0
    (a step function: flat between its jumps)"""

    _saved_names = ('self', 'other')      # grad_fn._saved_self, _saved_other, as in PyTorch

    def backward(self, grad):
        zeros = _wrap(np.zeros_like(grad._array))
        return (zeros if self.should_compute_output(0) else None,
                zeros if self.should_compute_output(1) else None)


def _floor_quotient(a, b):
    """floor(a / b), as PyTorch's div(a, b, rounding_mode='floor') inside remainder's backward.

    Its derivative is 0, but with create_graph=True PyTorch still records it (DivBackward2),
    so the second-order graph reaches a and b through it (and a later backward frees them).
    """
    return result(np.floor_divide(a._array, b._array), DivBackward2, (a, b), saved=(a, b))


def _python_remainder(a, b):
    """a % b with b's sign, computed as PyTorch does: C's fmod, then moved into b's range.

    (numpy's remainder gives the same numbers but sometimes 0.0 where PyTorch has -0.0.)
    """
    mod = np.fmod(a, b)
    if mod.dtype.kind != "f":
        return np.remainder(a, b)
    wrong_sign = (mod != 0) & ((np.asarray(b) < 0) != (mod < 0))
    return np.where(wrong_sign, mod + b, mod).astype(mod.dtype, copy=False)


def remainder(input, other):
    """a % b with the sign of b (Python's rule; C's fmod keeps a's sign).

    Gradient: grad_input = grad; grad_other = -grad * floor(input / other).
    """
    if not isinstance(input, Tensor):
        return rremainder(other, input)
    _check_integer_division(input, other)
    with np.errstate(divide="ignore", invalid="ignore"):     # x % 0.0 is nan, silently
        out = _binary(_python_remainder, input, other)
    if isinstance(other, Tensor):
        # both are needed only for other's gradient: PyTorch saves them only if other requires grad
        saved = (input, other) if other._graph_requires_grad else None
        return result(out, RemainderBackward1, (input, other), saved=saved)
    return result(out, RemainderBackward0, (input,))


def rremainder(input, other):
    """number % tensor"""
    return remainder(_wrap(np.asarray(other, dtype=_binary(np.add, other, input).dtype)), input)
