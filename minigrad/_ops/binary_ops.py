"""Elementwise functions of two tensors: hypot, copysign, fmax, fmin, heaviside, float_power.

* ``hypot(a, b)`` = sqrt(a^2 + b^2) without overflow; slopes a / result and b / result.
* ``copysign(a, b)`` = |a| with the sign of b; slope for a: result / a (+1 or -1), none for b
  (the sign of b only chooses which branch).
* ``fmax``/``fmin``: like ``maximum``/``minimum``, but a nan loses to a number (numpy's fmax).
  The gradient goes to the input that was picked, to self on ties (not shared as in maximum).
* ``heaviside(x, values)``: 0 below 0, 1 above, ``values`` at 0 (a step; no derivative).
* ``float_power(a, b)``: a ** b computed in float64 whatever the inputs are.
"""
import numpy as np

from .._type_names import type_name
from .. import _sleef_hypot, _vectorized_loop
from .._dtype import result_type
from .._tensor import Tensor, _wrap
from ..autograd.graph import Node, needs_grad
from . import result, save_result, zeros_set_in_place
from .pointwise import _binary, _operand_arrays, check_shapes_fit, kernel_not_implemented, pow, rpow
from .views import SAVES_BOTH
from .rounding import _NotImplementedBackward


def _other_must_be_tensor(name, other):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {type_name(other)}")


def _masked(grad, keep):
    """grad where ``keep`` (a bool array) holds, 0 elsewhere (as PyTorch's masked_fill)."""
    return grad.masked_fill(_wrap(~keep), 0)


# --- hypot ---------------------------------------------------------------------------------

class HypotBackward0(Node):
    """result = sqrt(self**2 + other**2)   ->
        grad_self = grad * self / result; grad_other = grad * other / result"""

    _saved_names = ("self", "other", "result")      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        # self is saved (and so checked for in-place changes) only for its own gradient, other
        # only for other's; the result, which both read, always
        a, b, out = self.saved_tensors_for((self.should_compute_output(0), self.should_compute_output(1), True))
        return (grad * a / out if self.should_compute_output(0) else None,
                grad * b / out if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = (self * self_t + other * other_t) / result"""
        (a, b), (a_t, b_t) = inputs, tangents
        return (a * a_t + b * b_t) / out


def _hypot_array(a, b):
    """hypot of two arrays as PyTorch's CPU computes it: float64 with SLEEF's formula for whole
    vectors and the C library's (numpy's) for the rest; other dtypes numpy's (float32's agrees)."""
    if np.result_type(a, b) == np.float64:
        return _vectorized_loop.elementwise_pair(a, b, _sleef_hypot.hypot, np.hypot, lanes=4)
    return np.hypot(a, b)


def hypot(input, other):
    """sqrt(input**2 + other**2), elementwise, without overflow (the length of the vector (a, b)).

    Gradient: grad * input / result to input, grad * other / result to other.
    """
    _other_must_be_tensor("hypot", other)
    dtype = result_type(input, other)
    if dtype.kind != "f":
        check_shapes_fit(input, other)
        raise kernel_not_implemented("hypot_cpu", _wrap(np.empty(0, dtype)))
    out = result(_binary(_hypot_array, input, other), HypotBackward0, (input, other))
    # (each input is saved for its own gradient only, as PyTorch saves it)
    return save_result(out, input if needs_grad((input,)) else None, other if needs_grad((other,)) else None)


# --- copysign ------------------------------------------------------------------------------

class CopysignBackward0(Node):
    """result = |self| with the sign of other   ->
        grad_self = grad * result / self (0 where self = 0); grad_other = 0"""

    _saved_names = ("self", "result")      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        # self is saved (and so checked for in-place changes) only for its own gradient; the
        # result, as every output PyTorch saves, always
        a, out = self.saved_tensors_for((self.should_compute_output(0), True))
        grad_self = grad * _sign_kept(a, out) if self.should_compute_output(0) else None
        if len(self._next_nrs) == 1 or not self.should_compute_output(1):
            return (grad_self,) if len(self._next_nrs) == 1 else (grad_self, None)
        # the sign of other only picks a branch: zeros of other's shape and dtype, which
        # PyTorch's zeros_like makes by zeroing new memory in place (so they are at version 1,
        # and a gradient added into them later is at version 2)
        return grad_self, zeros_set_in_place(self._other_shape, self._other_dtype)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * result / self (0 where self = 0)"""
        return tangents[0] * _sign_kept(inputs[0], out)


class CopysignBackward1(CopysignBackward0):
    """result = |self| with the sign of other, a number   ->   grad_self = grad * result / self"""


def _sign_kept(a, out):
    """result / self, 0 where self is 0: +1 where copysign kept the sign, -1 where it flipped it."""
    ratio = out / a
    return ratio.masked_fill(_wrap(a._array == 0), 0)


def copysign(input, other):
    """|input| with the sign of ``other`` (a tensor or a number), elementwise; ints give float32.

    Gradient: grad * (+1 or -1, as the sign was kept or flipped) to input (0 where input is 0);
    0 to other.
    """
    a, b, dtype = _operand_arrays(input, other)
    if dtype.kind != "f":
        # integers and bools are made float32 first (0 with a negative sign is -0.0)
        dtype = np.dtype(np.float32)
        as_float = _wrap(a.astype(dtype)), (_wrap(b.astype(dtype)) if isinstance(other, Tensor) else float(other))
        out = _binary(np.copysign, *as_float)
    else:
        out = _binary(lambda x, y: np.copysign(x, y, dtype=dtype), input, other).astype(dtype, copy=False)
    if isinstance(other, Tensor):
        # (self is saved for its own gradient only, as PyTorch saves it)
        out = save_result(result(out, CopysignBackward0, (input, other)), input if needs_grad((input,)) else None)
        if out._grad_fn is not None:    # what other's zero gradient looks like (not a saved value)
            out._grad_fn._other_shape, out._grad_fn._other_dtype = other._array.shape, other._array.dtype
        return out
    return save_result(result(out, CopysignBackward1, (input,)), input)


# --- fmax, fmin ----------------------------------------------------------------------------

class FmaxBackward0(Node):
    """result = fmax(self, other)   ->
        grad_self = grad where self >= other or other is nan, else 0; grad_other = the rest"""

    _saved_names = ("self", "other")      # grad_fn._saved_self, ... as in PyTorch
    _pick = staticmethod(np.greater_equal)

    def backward(self, grad):
        a, b = self.saved_tensors
        self_picked = self._pick(a._array, b._array) | np.isnan(b._array)
        return (_masked(grad, self_picked) if self.should_compute_output(0) else None,
                _masked(grad, ~self_picked) if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where self was picked, else other_t"""
        (a, b), (a_t, b_t) = inputs, tangents
        self_picked = self._pick(a._array, b._array) | np.isnan(b._array)
        return _masked(a_t, self_picked) + _masked(b_t, ~self_picked)


class FminBackward0(FmaxBackward0):
    """result = fmin(self, other)   ->
        grad_self = grad where self <= other or other is nan, else 0; grad_other = the rest"""

    _pick = staticmethod(np.less_equal)


def fmax(input, other):
    """The larger of input and other, elementwise; where one of them is nan, the other.

    Gradient: grad to the one picked (input on ties), 0 to the other.
    """
    _other_must_be_tensor("fmax", other)
    return result(_binary(np.fmax, input, other, SAVES_BOTH), FmaxBackward0, (input, other), saved=(input, other))


def fmin(input, other):
    """The smaller of input and other, elementwise; where one of them is nan, the other.

    Gradient: grad to the one picked (input on ties), 0 to the other.
    """
    _other_must_be_tensor("fmin", other)
    return result(_binary(np.fmin, input, other, SAVES_BOTH), FminBackward0, (input, other), saved=(input, other))


# --- heaviside -----------------------------------------------------------------------------

class _HeavisideBackward(_NotImplementedBackward):
    """result = heaviside(self, values)   ->   grad_self = error: no derivative in PyTorch"""

    _operation = "heaviside"


_HeavisideBackward.__name__ = _HeavisideBackward.__qualname__ = "NotImplemented"


def check_heaviside_dtypes(input, values):
    """PyTorch's heaviside checks the dtypes before broadcasting the shapes (x.heaviside_(v)
    too, before the loop's shape check)."""
    if input._array.dtype != values._array.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


def heaviside(input, values):
    """The step function: 0 where input < 0, 1 where input > 0, ``values`` where input is 0.

    Recorded with a node that refuses backward (PyTorch has no derivative for it).
    """
    if not isinstance(values, Tensor):
        raise TypeError("heaviside(): argument 'values' (position 2) must be Tensor, not "
                        f"{type_name(values)}")
    check_heaviside_dtypes(input, values)
    out = _binary(np.heaviside, input, values).astype(input._array.dtype, copy=False)
    if out.dtype.kind == "f":
        # PyTorch's rule is (input == 0 ? values : input > 0): a NaN input gives 0 (numpy: NaN)
        out[np.isnan(np.broadcast_to(input._array, out.shape))] = 0
    # (PyTorch's node has an edge only to the inputs that require grad)
    edges = tuple(t for t in (input, values) if needs_grad((t,))) or (input, values)
    return result(out, _HeavisideBackward, edges)


# --- float_power ---------------------------------------------------------------------------

def float_power(input, exponent):
    """input ** exponent computed in float64 (double precision), whatever the dtypes.

    Recorded as the conversion to float64 (ToCopyBackward0, for inputs of another dtype)
    and then the power (PowBackward0/1/2), as PyTorch records it.
    """
    from .._dtype import float64
    from .._python_arg_parser import invalid_combination
    for value in (input, exponent):
        if not isinstance(value, (Tensor, int, float, bool, np.number)):
            raise invalid_combination("float_power", (input, exponent), {})
    def as_double(value):
        if isinstance(value, Tensor):
            return value if value._array.dtype == np.float64 else value.to(float64)
        return float(value)
    if not isinstance(input, Tensor):          # 2.0 ** x: PowBackward2
        return rpow(as_double(exponent), as_double(input))
    return pow(as_double(input), as_double(exponent))
