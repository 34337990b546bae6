"""Logarithms to other bases and exp(x) - 1: log2, log10, expm1; exp2, logaddexp, xlogy, logit.

log2(x) = log(x) / log(2), so d/dx log2(x) = 1 / (x log 2); the same for log10 with log 10.
expm1(x) = e^x - 1, accurate where x is tiny (e^x alone would round to 1); its slope e^x is
the result plus 1, so backward saves the result (as exp does).
exp2(x) = 2^x, whose slope is 2^x log 2: the result again, times log 2.

logaddexp(a, b) = log(e^a + e^b), computed without overflow as max + log1p(e^-|a - b|);
its slopes are the softmax of (a, b): 1 / (1 + e^(b - a)) and 1 / (1 + e^(a - b)).
logaddexp2 is the same with base 2.
xlogy(x, y) = x * log(y), but 0 where x = 0 (even where y = 0): the entropy terms p log p.
logit(p) = log(p / (1 - p)), the inverse of sigmoid; eps= clamps p to [eps, 1 - eps] first.
"""
import math

import numpy as np

from .._type_names import type_name
from .. import _c_library_logf
from ..autograd.graph import Node
from . import result, save_result
from .._python_arg_parser import invalid_combination
from .._tensor import Tensor, _wrap
from .views import SAVES_BOTH
from .pointwise import (with_positive_new_nans, keeping_nan_inputs, _binary, _expm1_array, _float_ufunc,
                        _operand_arrays, add_number, with_new_nans, NEGATIVE_NAN, POSITIVE_NAN,
                        check_shapes_fit, kernel_not_implemented, laid_out_as_pytorch,
                        like_its_input, mul_by_number, pow, where)

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


_log2_positive_nans = with_positive_new_nans(np.log2)


def log2(input):
    """The base-2 logarithm, elementwise. Gradient: grad / (input * log(2))."""
    return _log_to_base(_log2_positive_nans, Log2Backward0, input)


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
        return save_result(result(_float_ufunc(_expm1_array, input), Expm1Backward0, (input,)))


class Exp2Backward0(Node):
    """result = 2 ** self   ->   grad_self = grad * result * log(2)"""

    _saved_names = ("result",)      # grad_fn._saved_result, as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (mul_by_number(grad * out, math.log(2.0)),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * result * log(2)"""
        return mul_by_number(tangents[0] * out, math.log(2.0))


def exp2(input):
    """2 ** input, elementwise. Gradient: grad * result * log(2)."""
    with np.errstate(over="ignore"):
        return save_result(result(_float_ufunc(np.exp2, input), Exp2Backward0, (input,)))


# --- logaddexp, logaddexp2 ------------------------------------------------------------------

class LogaddexpBackward0(Node):
    """result = log(e ** self + e ** other)   ->
        grad_self = grad / (1 + e ** (other - self)); grad_other = grad / (1 + e ** (self - other))"""

    _saved_names = ("self", "other")      # grad_fn._saved_self, ... as in PyTorch
    _power = staticmethod(lambda difference: difference.exp())

    def backward(self, grad):
        a, b = self.saved_tensors
        return (grad / add_number(self._power(b - a), 1) if self.should_compute_output(0) else None,
                grad / add_number(self._power(a - b), 1) if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / (1 + e ** (other - self)) + other_t / (1 + e ** (self - other))"""
        (a, b), (a_t, b_t) = inputs, tangents
        return a_t / (self._power(b - a) + 1) + b_t / (self._power(a - b) + 1)


class Logaddexp2Backward0(LogaddexpBackward0):
    """result = log2(2 ** self + 2 ** other)   ->
        grad_self = grad / (1 + 2 ** (other - self)); grad_other = grad / (1 + 2 ** (self - other))"""

    _power = staticmethod(lambda difference: pow(2, difference))


def _float_pair(name, input, other):
    """The two operands of logaddexp as arrays of their common float dtype (PyTorch has no
    integer kernel: NotImplementedError)."""
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {type_name(other)}")
    a, b, dtype = _operand_arrays(input, other)
    if dtype.kind != "f":
        check_shapes_fit(input, other)
        raise kernel_not_implemented(f"{name}_cpu", _wrap(np.empty(0, dtype)))
    return dtype


def logaddexp(input, other):
    """log(e ** input + e ** other), elementwise, without overflow.

    Gradient: grad / (1 + e ** (other - input)) to input, grad / (1 + e ** (input - other)) to other.
    """
    dtype = _float_pair("logaddexp", input, other)
    with np.errstate(over="ignore", invalid="ignore"):
        out = _binary(np.logaddexp, input, other, SAVES_BOTH).astype(dtype, copy=False)
    return result(out, LogaddexpBackward0, (input, other), saved=(input, other))


def logaddexp2(input, other):
    """log2(2 ** input + 2 ** other), elementwise, without overflow.

    Gradient: grad / (1 + 2 ** (other - input)) to input, grad / (1 + 2 ** (input - other)) to other.
    """
    dtype = _float_pair("logaddexp2", input, other)
    with np.errstate(over="ignore", invalid="ignore"):
        out = _binary(np.logaddexp2, input, other, SAVES_BOTH).astype(dtype, copy=False)
    return result(out, Logaddexp2Backward0, (input, other), saved=(input, other))


# --- xlogy: x * log(y), 0 where x = 0 ---------------------------------------------------------

def _xlogy_array(x, y, dtype):
    """x * log(y), 0 where x is 0 (unless y is nan); the log is the C library's, as PyTorch's
    one-number kernel calls it (glibc's logf for float32)."""
    y = np.asarray(y, dtype=dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        log = _c_library_logf.c_library_log(y)
        product = np.multiply(x, log, dtype=dtype)
        # 0 * log(0) counts as 0 (the limit of x log x), but nan in y stays nan
        return np.where((np.asarray(x) == 0) & ~np.isnan(y), np.asarray(0, dtype), product)


class XlogyBackward0(Node):
    """result = self * log(other)   ->
        grad_self = grad * xlogy(self != 0, other); grad_other = grad * self / other"""

    _saved_names = ("self", "other")      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        x, y = self.saved_tensors
        return (_grad_times_log(grad, x, y) if self.should_compute_output(0) else None,
                grad * x / y if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * xlogy(self != 0, other) + other_t * self / other"""
        (x, y), (x_t, y_t) = inputs, tangents
        return x_t * xlogy((x != 0), y) + y_t * x / y


class XlogyBackward1(Node):
    """result = self * log(other), self a number   ->   grad_other = grad * self / other"""

    _saved_names = ("other",)        # grad_fn._saved_other (and _saved_self, the number)

    def backward(self, grad):
        (y,) = self.saved_tensors
        return (grad * self.self / y,)

    def jvp(self, tangents, inputs, out):
        """result_t = other_t * self / other"""
        return tangents[0] * self.self / inputs[0]


class XlogyBackward2(Node):
    """result = self * log(other), other a number   ->   grad_self = grad * xlogy(self != 0, other)"""

    _saved_names = ("self",)         # grad_fn._saved_self (and _saved_other, the number)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (_grad_times_log(grad, x, self.other),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * xlogy(self != 0, other)"""
        return tangents[0] * xlogy((inputs[0] != 0), self.other)


def _grad_times_log(grad, x, y):
    """grad * log(y), 0 where x = 0 and y <= 0 (there the result was the constant 0), written
    as PyTorch's formula: xlogy(grad, y).masked_fill((x == 0) & (y <= 0), 0)."""
    y_array = y._array if isinstance(y, Tensor) else np.asarray(y)
    return xlogy(grad, y).masked_fill(_wrap((x._array == 0) & (y_array <= 0)), 0)


def xlogy(input, other):
    """input * log(other), elementwise, with 0 where input is 0 (unless other is nan).

    Gradient: grad * log(other) (0 where input is 0) to input, grad * input / other to other.
    """
    for value in (input, other):
        if not isinstance(value, (Tensor, int, float, bool, np.number)):
            raise invalid_combination("xlogy", (input, other), {})
    if not isinstance(input, Tensor):        # xlogy(2, y): the number stays a number
        a, b, dtype = _operand_arrays(other, input)
        dtype = dtype if dtype.kind == "f" else np.dtype(np.float32)
        out = like_its_input(_xlogy_array(b, a, dtype), a)
        return result(out, XlogyBackward1, (other,), saved=(other,), self=input)
    a, b, dtype = _operand_arrays(input, other)
    if dtype.kind == "f":
        out = _binary(lambda x, y: _xlogy_array(x, y, dtype), input, other, SAVES_BOTH)
    else:                              # integers and bools: float32, as log's result
        out = _binary(lambda x, y: _xlogy_array(x, y, np.dtype(np.float32)),
                      _wrap(np.asarray(a, np.float32)), np.asarray(b, np.float32))
    if not isinstance(other, Tensor):
        return result(out, XlogyBackward2, (input,), saved=(input,), other=other)
    return result(out, XlogyBackward0, (input, other), saved=(input, other))


# --- logit: the inverse of sigmoid ----------------------------------------------------------------

class LogitBackward0(Node):
    """result = log(self / (1 - self))   ->   grad_self = grad / (self * (1 - self)) inside,
        nan outside [0, 1] (with eps: 0 outside [eps, 1 - eps], where self was clamped)"""

    _saved_names = ("self",)        # grad_fn._saved_self (and _saved_eps), as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (self._divided(grad, x),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / (self * (1 - self)) (inside the clamp)"""
        return self._divided(tangents[0], inputs[0])

    def _divided(self, grad, x):
        """grad / (x * (1 - x)) inside [0, 1] (or [eps, 1 - eps]); nan (or 0) outside."""
        from .pointwise import sub
        one = _wrap(np.ones((), dtype=x._array.dtype))
        quotient = grad / (x * sub(one, x))
        if self.eps is None:
            inside, filler = (x._array >= 0) & (x._array <= 1), np.nan
        else:
            inside, filler = (x._array >= self.eps) & (x._array <= 1 - self.eps), 0.0
        # (PyTorch's logit_backward is one kernel, its result laid out like grad: so is the mask)
        inside = laid_out_as_pytorch(inside, grad._array, x._array)
        return where(_wrap(inside), quotient, _wrap(np.full((), filler, dtype=quotient._array.dtype)))


def _logit_nans(array):
    """logit's NaNs outside [0, 1] as PyTorch's: positive (log's), but x86's negative one that
    inf / -inf gives in float32 and float64 (float16, computed in float32, ends positive)."""
    size = array.itemsize
    return POSITIVE_NAN[size] if size == 2 else np.where(np.isinf(array), NEGATIVE_NAN[size], POSITIVE_NAN[size])


_logit_array = keeping_nan_inputs(with_new_nans(lambda array: np.log(array / (1 - array)), _logit_nans))


def logit(input, eps=None):
    """log(p / (1 - p)) of each element p, the inverse of sigmoid; with ``eps``, p is first
    clamped to [eps, 1 - eps] (so 0 and 1 give finite numbers).

    Gradient: grad / (p * (1 - p)); with eps, 0 where p was clamped.
    """
    if isinstance(eps, Tensor) and eps.ndim == 0 and not eps.requires_grad:
        eps = eps.item()                  # (PyTorch's parser takes a 0-d tensor for a float)
    if eps is not None and not isinstance(eps, (int, float, np.number)):
        raise TypeError(f"logit(): argument 'eps' must be float, not {type_name(eps)}")
    eps = float(eps) if isinstance(eps, bool) else eps
    array = input._array if input._array.dtype.kind == "f" else input._array.astype(np.float32)
    if eps is not None:
        low, high = np.asarray(eps, array.dtype), np.asarray(1 - eps, array.dtype)
        # (PyTorch's kernel: below eps is eps, else above 1 - eps is 1 - eps; np.clip would
        # let the upper bound win where eps > 1 - eps)
        array = np.where(array < low, low, np.where(array > high, high, array))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = like_its_input(_logit_array(array), input._array)
    return result(out, LogitBackward0, (input,), saved=(input,), eps=eps)
