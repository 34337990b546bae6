"""More of ``torch.special``: entr, erfcx, ndtr, ndtri, log_ndtr, xlog1py, zeta.

    entr(x)     = -x log(x)  (0 at x = 0, -inf below 0): one term of an entropy
    erfcx(x)    = e ** (x**2) * erfc(x), the scaled complementary error function (erfc
                  alone underflows to 0 for x > 26; erfcx(x) stays near 1 / (x sqrt(pi)))
    ndtr(x)     = the standard normal distribution function: P(Z <= x) = (1 + erf(x / sqrt 2)) / 2
    ndtri(p)    = its inverse: the x with ndtr(x) = p
    log_ndtr(x) = log(ndtr(x)), accurate far below 0 (where ndtr itself underflows)
    xlog1py(x, y) = x * log(1 + y), 0 where x = 0
    zeta(x, q)  = the Hurwitz zeta function: the sum over k >= 0 of 1 / (k + q) ** x

Derivatives (PyTorch's formulas): entr' = -(1 + log x); erfcx' = 2 x erfcx(x) - 2 / sqrt(pi);
ndtri' = sqrt(2 pi) e ** (ndtri(p) ** 2 / 2); log_ndtr' = e ** (-x**2 / 2 - log_ndtr(x)) / sqrt(2 pi);
xlog1py's as xlogy's. ndtr is written with erf, so its graph is that of erf, + and *.
PyTorch has no derivative of zeta in x (backward says so); in q it is -x zeta(x + 1, q).
(The Bessel functions of torch.special are in bessel_functions.py.)

numpy has none of these, so they are computed here in float64 (then cast to the input's
dtype; integers and bools give float32), agreeing with PyTorch to about 1e-14 (not always
to the last bit).
"""
import math

import numpy as np

from ..autograd.graph import Node, gets_gradient_edge, needs_grad
from .._python_arg_parser import invalid_combination
from .._tensor import Tensor, _wrap
from . import result, save_result
from .gamma import _hurwitz_zeta
from .pointwise import (_binary, _operand_arrays, add_number, div_by_number, exp, like_its_input, log,
                        log1p, mul_by_number, sub_number)
from .special import _in_float, erf

_SQRT_PI = math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2 * math.pi)
_erfc_scalar = np.frompyfunc(math.erfc, 1, 1)


def _erfc64(x):
    return np.asarray(_erfc_scalar(x), dtype=np.float64)


def _float_result(function, input):
    """``function`` of ``input``'s values (float64 arrays in and out), in PyTorch's result dtype."""
    return like_its_input(_in_float(function, input._array), input._array)


# --- entr ------------------------------------------------------------------------------------------

class SpecialEntrBackward0(Node):
    """result = -self * log(self)   ->   grad_self = grad * -(1 + log(self))"""

    _saved_names = ("self",)        # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (grad * -(add_number(log(x), 1)),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * -(1 + log(self))"""
        return tangents[0] * -(add_number(log(inputs[0]), 1))


def _entr64(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        values = -x * np.log(np.where(x > 0, x, x.dtype.type(1)))
    zero, minus_inf = x.dtype.type(0), x.dtype.type(-np.inf)
    return np.where(np.isnan(x), x, np.where(x > 0, values, np.where(x == 0, zero, minus_inf)))


def entr(input):
    """-input * log(input) elementwise: 0 at 0, -inf for negative input.
    Gradient: grad * -(1 + log(input))."""
    array = input._array
    values = array if array.dtype.kind == "f" else array.astype(np.float32)   # (in its own dtype)
    return result(like_its_input(_entr64(values), array), SpecialEntrBackward0, (input,), saved=(input,))


# --- erfcx -----------------------------------------------------------------------------------------

def _erfcx64(x):
    """e ** (x**2) erfc(x): directly where that is exact enough, an asymptotic series for large x,
    and 2 e ** (x**2) - erfcx(-x) below 0 (inf once e ** (x**2) overflows)."""
    a = np.abs(x)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        direct = np.exp(np.minimum(a, 26.0) ** 2) * _erfc64(np.minimum(a, 26.0))
        inverse_square = 1.0 / (2.0 * np.maximum(a, 26.0) ** 2)
        series = np.ones_like(a)
        term = np.ones_like(a)
        for k in range(1, 12):     # 1 - 1/(2x^2) + 1*3/(2x^2)^2 - 1*3*5/(2x^2)^3 ...
            term = -term * (2 * k - 1) * inverse_square
            series = series + term
        asymptotic = series / (np.maximum(a, 26.0) * _SQRT_PI)
        positive = np.where(a > 26.0, asymptotic, direct)
        negative = 2.0 * np.exp(x * x) - positive
    return np.where(np.isnan(x), x, np.where(x >= 0, positive, negative))


class SpecialErfcxBackward0(Node):
    """result = e ** (self**2) * erfc(self)   ->   grad_self = (2 * self * result - 2 / sqrt(pi)) * grad"""

    _saved_names = ("self", "result")       # grad_fn._saved_self, grad_fn._saved_result

    def backward(self, grad):
        x, out = self.saved_tensors
        return (sub_number(mul_by_number(x, 2.0) * out, 2.0 / _SQRT_PI) * grad,)

    def jvp(self, tangents, inputs, out):
        """result_t = (2 * self * result - 2 / sqrt(pi)) * self_t"""
        return sub_number(mul_by_number(inputs[0], 2.0) * out, 2.0 / _SQRT_PI) * tangents[0]


def erfcx(input):
    """e ** (input**2) * erfc(input), without the overflow and underflow of the two factors.
    Gradient: (2 * input * result - 2 / sqrt(pi)) * grad."""
    out = result(_float_result(_erfcx64, input), SpecialErfcxBackward0, (input,))
    return save_result(out, input)


# --- the normal distribution: ndtr, ndtri, log_ndtr ------------------------------------------------

def ndtr(input):
    """P(Z <= input) for a standard normal Z: (1 + erf(input / sqrt(2))) / 2, written with erf
    (as PyTorch does), so the gradient flows through erf's node. An integer input is multiplied
    as it is (the product is float32): one that an in-place change gave history keeps it."""
    return mul_by_number(add_number(erf(mul_by_number(input, math.sqrt(0.5))), 1), 0.5)


def _ndtr64(x):
    return 0.5 * _erfc64(-x / math.sqrt(2.0))


def _ndtri64(p):
    """The x with ndtr(x) = p: Abramowitz and Stegun's 26.2.23 as the first guess, then Halley
    steps on ndtr(x) - p (computed with erfc, accurate in the far tail)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = np.minimum(p, 1.0 - p)                 # the tail below 0.5 (by symmetry)
        t = np.sqrt(-2.0 * np.log(np.clip(lower, 1e-320, 0.5)))
        x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t)
              / (1.0 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3))
        for _ in range(4):
            error = _ndtr64(x) - lower
            slope_ratio = error * _SQRT_2PI * np.exp(x * x / 2)
            x = x - slope_ratio / (1.0 + x * slope_ratio / 2)
        x = np.where(p > 0.5, -x, x)
    x = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, np.where(p == 0.5, 0.0, x)))
    return np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, x)


class SpecialNdtriBackward0(Node):
    """result = ndtri(self)   ->   grad_self = grad * sqrt(2 * pi) * e ** (result**2 / 2)"""

    _saved_names = ("result",)      # grad_fn._saved_result, as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (mul_by_number(grad, _SQRT_2PI) * exp(div_by_number(out ** 2, 2)),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * sqrt(2 * pi) * e ** (result**2 / 2)"""
        return mul_by_number(tangents[0], _SQRT_2PI) * exp(div_by_number(out ** 2, 2))


def ndtri(input):
    """The inverse of ndtr: the x with P(Z <= x) = input (-inf at 0, inf at 1, nan outside).
    Gradient: grad * sqrt(2 * pi) * e ** (result**2 / 2)."""
    return save_result(result(_float_result(_ndtri64, input), SpecialNdtriBackward0, (input,)))


def _log_ndtr64(x):
    """log(ndtr(x)): log1p(-erfc(x / sqrt 2) / 2) above -1; below, log(erfcx(-x / sqrt 2) / 2) - x**2 / 2,
    which stays finite where ndtr(x) underflows."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        upper = np.log1p(-0.5 * _erfc64(x / math.sqrt(2.0)))
        lower = np.log(_erfcx64(-x / math.sqrt(2.0)) / 2.0) - x * x / 2.0
    return np.where(x < -1.0, lower, upper)


class SpecialLogNdtrBackward0(Node):
    """result = log(ndtr(self))   ->   grad_self = grad / sqrt(2 * pi) * e ** (-self**2 / 2 - result)"""

    _saved_names = ("self", "result")       # grad_fn._saved_self, grad_fn._saved_result

    def backward(self, grad):
        x, out = self.saved_tensors
        # (PyTorch's C++ grad / sqrt(2 pi) divides by a Scalar: DivBackward1 under create_graph)
        return (div_by_number(grad, _SQRT_2PI) * exp(-(out + div_by_number(x ** 2, 2))),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / sqrt(2 * pi) * e ** (-self**2 / 2 - result)"""
        return mul_by_number(tangents[0], 1 / _SQRT_2PI) * exp(-(out + div_by_number(inputs[0] ** 2, 2)))


def log_ndtr(input):
    """log(ndtr(input)), accurate far below 0. Gradient: grad / sqrt(2 pi) * e ** (-input**2 / 2 - result)."""
    out = result(_float_result(_log_ndtr64, input), SpecialLogNdtrBackward0, (input,))
    return save_result(out, input)


# --- xlog1py: x * log(1 + y), 0 where x = 0 ----------------------------------------------------------

def _xlog1py_array(x, y, dtype):
    with np.errstate(divide="ignore", invalid="ignore"):
        product = np.multiply(x, np.log1p(np.asarray(y, dtype=dtype)), dtype=dtype)
        return np.where((np.asarray(x) == 0) & ~np.isnan(y), np.asarray(0, dtype), product)


def _as_float32(value):
    """A tensor's values as float32 (numbers stay numbers): integer inputs compute in float32."""
    return _wrap(value._array.astype(np.float32)) if isinstance(value, Tensor) else float(value)


def _grad_times_log1p(grad, x, y):
    """grad * log1p(y), 0 where x = 0 and y <= -1 (there the result was the constant 0), as
    PyTorch's formula: xlog1py(grad, y).masked_fill((x == 0) & (y <= -1), 0)."""
    y_array = y._array if isinstance(y, Tensor) else np.asarray(y)
    return xlog1py(grad, y).masked_fill(_wrap((x._array == 0) & (y_array <= -1)), 0)


class SpecialXlog1PyBackward0(Node):
    """result = self * log1p(other)   ->
        grad_self = grad * xlog1py(self != 0, other); grad_other = grad * self / (other + 1)"""

    _saved_names = ("self", "other")      # grad_fn._saved_self, grad_fn._saved_other

    def backward(self, grad):
        x, y = self.saved_tensors
        return (_grad_times_log1p(grad, x, y) if self.should_compute_output(0) else None,
                grad * x / add_number(y, 1) if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * log1p(other) + other_t * self / (other + 1)"""
        (x, y), (x_t, y_t) = inputs, tangents
        return x_t * log1p(y) + y_t * x / add_number(y, 1)


class SpecialXlog1PyBackward1(Node):
    """result = self * log1p(other), self a number   ->   grad_other = grad * self / (other + 1)"""

    _saved_names = ("other",)        # grad_fn._saved_other (and _saved_self, the number)

    def backward(self, grad):
        (y,) = self.saved_tensors
        return (mul_by_number(grad, self.self) / add_number(y, 1),)

    def jvp(self, tangents, inputs, out):
        """result_t = other_t * self / (other + 1)"""
        return mul_by_number(tangents[0], self.self) / add_number(inputs[0], 1)


class SpecialXlog1PyBackward2(Node):
    """result = self * log1p(other), other a number   ->   grad_self = grad * log1p(other)"""

    _saved_names = ("self",)         # grad_fn._saved_self (and _saved_other, the number)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (_grad_times_log1p(grad, x, self.other),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * log1p(other)"""
        return mul_by_number(tangents[0], math.log1p(self.other))


def xlog1py(input, other):
    """input * log(1 + other), elementwise, with 0 where input is 0 (unless other is nan).

    Gradient: grad * log1p(other) (0 where input is 0) to input, grad * input / (other + 1) to other.
    """
    for value in (input, other):
        if not isinstance(value, (Tensor, int, float, bool, np.number)):
            raise invalid_combination("special_xlog1py", (input, other), {})
    if not isinstance(input, Tensor):        # xlog1py(2, y): the number stays a number
        a, b, dtype = _operand_arrays(other, input)
        dtype = dtype if dtype.kind == "f" else np.dtype(np.float32)
        out = like_its_input(_xlog1py_array(b, a, dtype), a)
        return result(out, SpecialXlog1PyBackward1, (other,), saved=(other,), self=input)
    a, b, dtype = _operand_arrays(input, other)
    if dtype.kind != "f":                  # integers and bools: float32, as log1p's result
        input, other, dtype = _as_float32(input), _as_float32(other), np.dtype(np.float32)
    out = _binary(lambda x, y: _xlog1py_array(np.asarray(x, dtype), np.asarray(y, dtype), dtype), input, other,
                  ((0, 1), (0, 1)))
    if not isinstance(other, Tensor):
        return result(out, SpecialXlog1PyBackward2, (input,), saved=(input,), other=other)
    return result(out, SpecialXlog1PyBackward0, (input, other), saved=(input, other))


# --- zeta: the Hurwitz zeta function (no derivative in PyTorch) -------------------------------------

def _zeta_not_differentiable():
    return NotImplementedError("the derivative for 'zeta' is not implemented.")


def _grad_other_of_zeta(grad, x, q):
    """d/dq zeta(x, q) = -x zeta(x + 1, q): the sum of 1 / (k + q) ** x, differentiated term by term."""
    shifted = add_number(x, 1) if isinstance(x, Tensor) else x + 1
    slope = zeta(shifted, q)
    return grad * (-x if isinstance(x, Tensor) else -x) * slope if isinstance(x, Tensor) else \
        mul_by_number(grad, -x) * slope


class SpecialZetaBackward0(Node):
    """result = zeta(self, other)   ->   grad_self = not implemented; grad_other = grad * -self * zeta(self + 1, other)"""

    _saved_names = ("self", "other")     # grad_fn._saved_self, grad_fn._saved_other

    def backward(self, grad):
        x, q = self.saved_tensors
        if self.should_compute_output(0):         # (PyTorch has no derivative in the exponent)
            raise _zeta_not_differentiable()
        if not self.should_compute_output(1):     # (then nothing was saved)
            return None, None
        return None, _grad_other_of_zeta(grad, x, q)


class SpecialZetaBackward1(Node):
    """result = zeta(self, other), self a number   ->   grad_other = grad * -self * zeta(self + 1, other)"""

    _saved_names = ("other",)        # grad_fn._saved_other (and _saved_self, the number)

    def backward(self, grad):
        (q,) = self.saved_tensors
        return (_grad_other_of_zeta(grad, self.self, q),)


class SpecialZetaBackward2(Node):
    """result = zeta(self, other), other a number   ->   grad_self = not implemented"""

    def backward(self, grad):
        raise _zeta_not_differentiable()


def _zeta64(x, q):
    """Cephes' rules: x = 1 gives inf, x < 1 nan; a pole at q = 0, -1, -2, ... gives inf, and
    q < 0 otherwise nan unless x is whole."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    out = np.empty(x.shape)
    flat_x, flat_q, flat_out = x.reshape(-1), q.reshape(-1), out.reshape(-1)
    for s in np.unique(flat_x[np.isfinite(flat_x) & (flat_x > 1)]):
        where = flat_x == s
        flat_out[where] = _hurwitz_zeta(float(s), flat_q[where])
    with np.errstate(invalid="ignore"):
        flat_out[:] = np.where(flat_x == 1, np.inf, np.where(flat_x < 1, np.nan, flat_out))
        pole = (flat_q <= 0) & (flat_q == np.floor(flat_q))
        flat_out[:] = np.where(pole & (flat_x > 1), np.inf, flat_out)
        negative = (flat_q < 0) & ~pole & (flat_x != np.floor(flat_x))
        flat_out[:] = np.where(negative & (flat_x > 1), np.nan, flat_out)
        flat_out[:] = np.where(np.isnan(flat_x) | np.isnan(flat_q), np.nan, flat_out)
        flat_out[:] = np.where(flat_q == np.inf, np.nan, flat_out)         # (as PyTorch's series gives)
        flat_out[:] = np.where(flat_x == np.inf, np.where(flat_q == 1, 1.0, np.nan), flat_out)
    return out


def zeta(input, other):
    """The Hurwitz zeta function: the sum over k >= 0 of 1 / (k + other) ** input (the Riemann
    zeta function at other = 1). PyTorch has no derivative for it: backward refuses."""
    for value in (input, other):
        if not isinstance(value, (Tensor, int, float, bool, np.number)):
            raise invalid_combination("special_zeta", (input, other), {})
    if not isinstance(input, Tensor):
        a, b, dtype = _operand_arrays(other, input)
        dtype = dtype if dtype.kind == "f" else np.dtype(np.float32)
        out = like_its_input(_zeta64(b, a).astype(dtype), a)
        return result(out, SpecialZetaBackward1, (other,), saved=(other,), self=input)
    a, b, dtype = _operand_arrays(input, other)
    if dtype.kind != "f":
        input, other, dtype = _as_float32(input), _as_float32(other), np.dtype(np.float32)
    out = _binary(lambda x, y: _zeta64(x, y).astype(dtype), input, other, ((), (0, 1)))
    if not isinstance(other, Tensor):
        return result(out, SpecialZetaBackward2, (input,))     # (PyTorch keeps nothing: no derivative)
    # (both are saved for other's gradient only, as PyTorch saves them: self has none)
    return result(out, SpecialZetaBackward0, (input, other), saved=(input, other) if gets_gradient_edge(other) else (None, None))
