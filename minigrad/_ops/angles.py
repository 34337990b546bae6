"""The angle of a point: atan2 (also called arctan2).

``atan2(y, x)`` is the angle, in (-pi, pi], from the positive x axis to the point (x, y): like
``atan(y / x)``, but it knows which quarter of the plane the point is in (``atan(-1 / -1)``
and ``atan(1 / 1)`` are the same, the two angles are not) and it works for x = 0.

Its derivatives are those of atan(y / x), simplified:

    d/dy atan2(y, x) =  x / (x**2 + y**2)        d/dx atan2(y, x) = -y / (x**2 + y**2)

At the origin (x = y = 0) the angle has no slope; PyTorch gives 0 there (1 / 0 is replaced
by 0), and so does minigrad. PyTorch: torch.atan2, torch.arctan2, Tensor.atan2_.
"""
import numpy as np

from .._type_names import type_name
from .. import _sleef_atan2, _vectorized_loop
from .._tensor import Tensor
from ..autograd.graph import Node
from . import result
from .pointwise import _broadcast_error, _operand_arrays, _own, laid_out_as_pytorch
from .views import SAVES_BOTH, check_history_kept


class Atan2Backward0(Node):
    """result = atan2(self, other)   ->
        grad_self = grad * other / (self**2 + other**2); grad_other = grad * -self / (self**2 + other**2)"""

    _saved_names = ("self", "other")      # grad_fn._saved_self, _saved_other, as in PyTorch

    def backward(self, grad):
        a, b = self.saved_tensors
        one_over = _one_over_squared_distance(a, b)
        return (grad * b * one_over if self.should_compute_output(0) else None,
                grad * -a * one_over if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = (self_t * other - other_t * self) / (self**2 + other**2)"""
        (a, b), (a_t, b_t) = inputs, [_own(t) for t in tangents]
        one_over = _one_over_squared_distance(a, b)
        if b_t is None:
            return a_t * b * one_over
        if a_t is None:
            return b_t * -a * one_over
        return (a_t * b - b_t * a) * one_over


def _one_over_squared_distance(a, b):
    """1 / (a**2 + b**2), 0 where that is inf (at the origin), as PyTorch writes it."""
    reciprocal = (a * a + b * b).reciprocal()
    return reciprocal.masked_fill(reciprocal.isinf(), 0)


def _check_other(name, other):
    """x.atan2(2): PyTorch wants a tensor (torch.atan2(x, 2) is checked by its argument parser)."""
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not "
                        f"{type_name(other)}")


def _atan2_array(a, b, dtype):
    """atan2 of two arrays in ``dtype``, as PyTorch's CPU computes it: float32 and float64 with
    SLEEF's formula for whole vectors and the C library's (numpy's) for the rest."""
    if dtype in (np.float32, np.float64):
        a, b = np.asarray(a, dtype), np.asarray(b, dtype)
        return _vectorized_loop.elementwise_pair(a, b, _sleef_atan2.atan2, np.arctan2,
                                                 lanes=8 if dtype == np.float32 else 4)
    return np.arctan2(a, b).astype(dtype, copy=False)


def atan2(input, other):
    """The angle of the point (x=other, y=input), in (-pi, pi]: elementwise atan2(input, other).

    Gradient: grad_input = grad * other / (input**2 + other**2);
    grad_other = -grad * input / (input**2 + other**2). Integers give float32.
    """
    _check_other("atan2", other)
    a, b, dtype = _operand_arrays(input, other)
    if dtype.kind != "f":
        dtype = np.dtype(np.float32)
    try:
        out = _atan2_array(a, b, dtype)
    except ValueError:
        check_history_kept(input, other, saves=SAVES_BOTH)
        raise _broadcast_error(input, other) from None
    return result(laid_out_as_pytorch(np.asarray(out), a, b), Atan2Backward0, (input, other),
                  saved=(input, other))


arctan2 = atan2


def atan2_(self, other):
    """``self = atan2(self, other)``, written into self (a float tensor: integers can't hold it)."""
    from .rounding import binary_in_place
    _check_other("atan2_", other)
    return binary_in_place(self, other, atan2, np.arctan2)


arctan2_ = atan2_
