"""The gamma function's logarithm and its derivatives: lgamma, digamma, polygamma.

* ``lgamma(x)`` = log |Gamma(x)|, where Gamma(n) = (n - 1)! extends the factorial.
* ``digamma(x)`` = d/dx lgamma(x) (also called psi(x)).
* ``polygamma(n, x)`` = the n-th derivative of digamma; polygamma(0, x) is digamma(x).

So each one's gradient is the next one: lgamma -> digamma -> polygamma(1) -> polygamma(2) ...
All save their input (``grad_fn._saved_self``), as PyTorch's derivatives do.

numpy has none of them, so they are computed here from textbook formulas:
* digamma: psi(x) = psi(x + 1) - 1/x moves x above 10, where the asymptotic series
  psi(x) ~ log x - 1/(2x) - sum B_2k / (2k x^2k) is exact enough; below 0 the reflection
  psi(x) = psi(1 - x) - pi / tan(pi x) comes first. These are PyTorch's steps, taken in
  float64 for float64 and in float32 for the other dtypes, as its kernel does: the same bits.
* polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x), with the Hurwitz zeta function
  zeta(s, x) = sum over k >= 0 of 1 / (x + k)^s, summed directly until x + k is above 10
  and finished with the Euler-Maclaurin formula.
"""
import math

import numpy as np

from .._type_names import type_name
from ..autograd.graph import Node
from .. import _c_library_logf, _c_library_mathf
from .._fused_multiply_add import fma
from . import result
from .pointwise import like_its_input
from ..autograd.kernel_writes import kernel_writes

def _lgamma_of_number(x):
    """math.lgamma, but inf at the poles (0, -1, -2, ...) where math.lgamma raises."""
    try:
        return math.lgamma(x)
    except ValueError:
        return math.inf


_lgamma_scalar = np.frompyfunc(_lgamma_of_number, 1, 1)

# Bernoulli numbers B_2, B_4, ..., B_16 (for the asymptotic series)
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)


def _in_float(function, input):
    """``function`` (computed in float64) of every element, in the input's float dtype (ints: float32)."""
    array = input._array
    dtype = array.dtype if array.dtype.kind == "f" else np.dtype(np.float32)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        out = np.asarray(function(array.astype(np.float64)), dtype=np.float64).astype(dtype)
    return like_its_input(out, array)


def _lgamma_float64(x):
    return np.asarray(_lgamma_scalar(x), dtype=np.float64).reshape(x.shape)


# the coefficients of digamma's asymptotic series in 1 / x**2 (Cephes), highest power first
_DIGAMMA_SERIES = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                   -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                   8.33333333333333333333E-2)
_DIGAMMA_OF_10 = 2.25175258906672110764


def _digamma_in(x, dtype):
    """digamma of every number of x in PyTorch's steps, each rounded to ``dtype`` (float32 for
    float32, float16 and integers; float64): psi(x) = psi(1 - x) - pi / tan(pi x) below 0 (that
    term in float64, from x's fractional part), psi(x) = psi(x + 1) - 1/x up to 10, then the
    series (a multiply-add a term) with the C library's log (float32: logf)."""
    f = np.dtype(dtype).type
    log = _c_library_logf.logf if f is np.float32 else np.log
    x = given = np.array(x, dtype=f, ndmin=1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        negative = x < 0
        fraction = (x - np.trunc(x)).astype(np.float64)       # exact, as C's modf
        reflection = np.where(negative, (np.pi / np.tan(np.pi * fraction)).astype(f), f(0))
        x = np.where(negative, f(1) - x, x)
        total = np.zeros_like(x)
        small = x < 10
        while small.any():                                     # psi(x) = psi(x + 1) - 1/x
            total[small] -= f(1) / x[small]
            x[small] += f(1)
            small = x < 10
        z = f(1) / (x * x)
        series = np.zeros_like(x)
        for coefficient in _DIGAMMA_SERIES:
            series = fma(series, z, np.full_like(z, coefficient))
        tail = np.where(x < f(1.0e17), z * series, f(0))
        out = total + log(x) - f(0.5) / x - tail
        out = np.where(x == 10, total + f(_DIGAMMA_OF_10), out)
        out = out - reflection
    # poles: -inf at 0.0, inf at -0.0, NaN at the negative whole numbers (-inf too)
    out = np.where(negative & (given == np.floor(given)), f(np.nan), out)
    return np.where(given == 0, np.where(np.signbit(given), f(np.inf), f(-np.inf)), out).reshape(np.shape(given))


def _hurwitz_zeta(s, x):
    """zeta(s, x) = sum over k >= 0 of 1 / (x + k)**s, for whole s >= 2."""
    x = np.array(x, dtype=np.float64, ndmin=1)
    out = np.where(np.isfinite(x), 0.0, np.where(x == np.inf, 0.0, np.nan))    # zeta(s, inf) = 0
    outside = ~np.isfinite(x)
    x = np.where(outside, 10.0, x)
    small = x < 10
    with np.errstate(divide="ignore", invalid="ignore"):    # (a pole, 0 ** -s: inf, silently)
        while small.any():
            out[small] += x[small] ** -s
            x[small] += 1
            small = (x < 10) & np.isfinite(out)
    x = np.maximum(x, 10.0)           # (an element that hit a pole stops below 10; it stays inf)
    ends = out.copy()
    # Euler-Maclaurin: integral from x to infinity, half the first term, then Bernoulli corrections
    out += x ** (1 - s) / (s - 1) + 0.5 * x ** -s
    rising, power = float(s), x ** (-s - 1)
    for k, b in enumerate(_BERNOULLI, start=1):
        out += b / math.factorial(2 * k) * rising * power
        rising *= (s + 2 * k - 1) * (s + 2 * k)
        power = power / (x * x)
    return np.where(np.isfinite(ends) & ~outside, out, ends)


def _trigamma_float64(x):
    return _trigamma_in(x, np.float64)


def _trigamma_in(x, dtype):
    """polygamma(1, x) as PyTorch computes it, every step in ``dtype`` (float32 for a float32
    input: near a pole, sin(pi * x) in float32 sets the size of the result): reflection below
    1/2, 6 steps of psi1(x) = psi1(x + 1) + 1/x^2, then 5 terms of the asymptotic series.

    The series is evaluated as the compiler builds PyTorch's kernel: each ``a - b * c`` and
    ``a + b * c`` a fused multiply-add (one rounding), and float32's sine is the C library's
    ``sinf``; either one alone moves the last bit of some results."""
    f = np.dtype(dtype).type
    x = np.array(x, dtype=dtype, ndmin=1)
    sign = np.ones_like(x)
    total = np.zeros_like(x)
    reflect = x < f(0.5)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        angle = f(np.pi) * x[reflect]
        sin_pi_x = np.zeros_like(x)
        sin_pi_x[reflect] = _c_library_mathf.sinf(angle) if f is np.float32 else np.sin(angle)
        total = np.where(reflect, total - f(np.pi) * f(np.pi) / (sin_pi_x * sin_pi_x), total).astype(dtype)
        sign = np.where(reflect, f(-1), sign).astype(dtype)
        x = np.where(reflect, f(1) - x, x).astype(dtype)
        for _ in range(6):
            total = total + f(1) / (x * x)
            x = x + f(1)
        inverse_square = f(1) / (x * x)
        minus_square = -inverse_square

        def constant(value):
            return np.full_like(x, f(value))
        series = fma(minus_square, constant(1 / 42), constant(1 / 30))      # 1/30 - z/42
        series = fma(minus_square, series, constant(1 / 6))                 # 1/6 - z (...)
        series = fma(inverse_square, series, f(1) + f(1) / (f(2) * x))      # 1 + 1/(2x) + z (...)
        total = total + series / x
    return sign * total


def _polygamma_float64(n, x):
    if n == 0:
        return _digamma_in(x, np.float64).reshape(np.shape(x))
    if n == 1:
        return _trigamma_float64(x).reshape(np.shape(x))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return ((-1) ** (n + 1) * math.factorial(n) * _hurwitz_zeta(n + 1, x)).reshape(np.shape(x))


class LgammaBackward0(Node):
    """result = log|Gamma(self)|   ->   grad_self = grad * digamma(self)"""

    _saved_names = ('self',)      # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (grad * digamma(x),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * digamma(self)"""
        return tangents[0] * digamma(inputs[0])


def lgamma(input):
    """log |Gamma(input)|, elementwise (lgamma(n) = log((n - 1)!)). Gradient: grad * digamma(input)."""
    return result(_in_float(_lgamma_float64, input), LgammaBackward0, (input,), saved=(input,))


class DigammaBackward0(Node):
    """result = digamma(self)   ->   grad_self = grad * polygamma(1, self)"""

    _saved_names = ('self',)      # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (grad * polygamma(1, x),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * polygamma(1, self)"""
        return tangents[0] * polygamma(1, inputs[0])


def _digamma_values(input):
    """digamma of every element, in the input's float dtype (integers: float32), computed in
    float64 for float64 and in float32 for the others, as PyTorch's kernel does."""
    array = input._array
    dtype = array.dtype if array.dtype.kind == "f" else np.dtype(np.float32)
    work = np.float64 if dtype == np.float64 else np.float32
    out = _digamma_in(array, work).reshape(array.shape).astype(dtype, copy=False)
    return like_its_input(out, array)


def digamma(input):
    """The derivative of lgamma, elementwise (-inf at 0, nan at negative integers).

    Gradient: grad * polygamma(1, input).
    """
    return result(_digamma_values(input), DigammaBackward0, (input,), saved=(input,))


class PolygammaBackward0(Node):
    """result = polygamma(n, self)   ->   grad_self = grad * polygamma(n + 1, self)"""

    _saved_names = ('self',)      # grad_fn._saved_self (and _saved_n), as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (grad * polygamma(self.n + 1, x),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * polygamma(n + 1, self)"""
        return tangents[0] * polygamma(self.n + 1, inputs[0])


class PolygammaBackward1(PolygammaBackward0):
    """result = self.polygamma_(n)   ->   grad_self = grad * polygamma(n + 1, self)"""


def polygamma(n, input, node_class=PolygammaBackward0):
    """The n-th derivative of digamma, elementwise (n = 0: digamma itself).

    Gradient: grad * polygamma(n + 1, input).
    """
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if n == 0:
        values = _digamma_values(input)
    elif n == 1 and (input._array.dtype.kind != "f" or input._array.dtype == np.float32):
        values = like_its_input(_trigamma_in(input._array, np.float32).reshape(input._array.shape), input._array)
    else:
        values = _in_float(lambda x: _polygamma_float64(n, x), input)
    return result(values, node_class, (input,), saved=(input,), n=n)


# --- mvlgamma: the multivariate log-gamma function -------------------------------------------

class MvlgammaBackward0(Node):
    """result = sum over j < p of lgamma(self - j/2) + p (p - 1) / 4 log(pi)   ->
        grad_self = grad * sum over j < p of digamma(self - j/2)"""

    _saved_names = ("self",)        # grad_fn._saved_self (and _saved_p)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (grad * _sum_over_halves(x, self.p, digamma),)


def _sum_over_halves(x, p, function):
    """sum over the last dim of function(x[..., None] + (-(p-1)/2, ..., -1/2, 0)), in
    PyTorch's steps: the p points as one more dim, the function applied in place, summed."""
    from .._creation import arange
    from .inplace import apply_inplace
    offsets = arange(-p / 2 + 0.5, 0.5, 0.5, dtype=x.dtype)
    points = offsets + x.unsqueeze(-1)
    return apply_inplace(points, function).sum(-1)


_NOT_GIVEN = object()


def _check_order(name, p, position):
    """p must be given, as a whole number (PyTorch's argument parser: not a float, not a bool).
    ``position`` is its place among the arguments, None when it was given by name."""
    if p is _NOT_GIVEN:
        raise TypeError(f'{name}() missing 1 required positional arguments: "p"')
    if hasattr(p, "_array") and p.numel() == 1 and p._array.dtype.kind in "iu":
        return int(p.item())          # (a one-element integer tensor counts as an int)
    if not isinstance(p, (int, np.integer)) or isinstance(p, (bool, np.bool_)):
        where = f" (position {position})" if position is not None else ""
        raise TypeError(f"{name}(): argument 'p'{where} must be int, not {type_name(p)}")
    return p


def _check_mvlgamma(input, p):
    if input._array.dtype.kind == "b":
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")


def _mvlgamma(input, p):
    """The multivariate log-gamma function of dimension p, elementwise:
    log Gamma_p(x) = p (p - 1) / 4 log(pi) + sum over j = 0 .. p-1 of lgamma(x - j/2).

    (The gamma function of a p x p matrix argument, used by the Wishart distribution;
    defined for x > (p - 1) / 2, inf or nan elsewhere.) Integers give float32.
    Gradient: grad * sum over j of digamma(x - j/2).
    """
    _check_mvlgamma(input, p)
    array = input._array
    dtype = array.dtype if array.dtype.kind == "f" else np.dtype(np.float32)
    # the p points x - (p-1)/2, ..., x - 1/2, x, in the result's dtype, as PyTorch forms them
    offsets = np.arange(-p / 2 + 0.5, 0.5, 0.5).astype(dtype)
    points = offsets + array.astype(dtype)[..., None]
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        terms = np.asarray(_lgamma_float64(points.astype(np.float64))).astype(dtype)
        out = terms.sum(-1) + dtype.type(p * (p - 1) * math.log(math.pi) * 0.25)
    out = result(np.asarray(out, dtype=dtype), MvlgammaBackward0, (input,), saved=(input,), p=p)
    return kernel_writes("mvlgamma", out, input)


def _checked_order(name, first_position):
    """A form of mvlgamma that checks ``p`` as PyTorch's argument parser does, counting
    positions from ``first_position`` (2 for torch.mvlgamma(x, p), 1 for x.mvlgamma(p))."""
    def decorate(function):
        def with_checked_order(input, *args, **kwargs):
            if args:
                p, position = args[0], first_position
            else:
                p, position = kwargs.pop("p", _NOT_GIVEN), None
            return function(input, _check_order(name, p, position))
        with_checked_order.__name__ = with_checked_order.__qualname__ = function.__name__
        with_checked_order.__doc__ = function.__doc__
        return with_checked_order
    return decorate


mvlgamma = _checked_order("mvlgamma", 2)(_mvlgamma)
multigammaln = _checked_order("special_multigammaln", 2)(_mvlgamma)
mvlgamma_method = _checked_order("mvlgamma", 1)(_mvlgamma)


@_checked_order("mvlgamma_", 1)
def mvlgamma_(input, p):
    """In-place ``mvlgamma``: x.mvlgamma_(p) writes mvlgamma(x, p) into x (floats only)."""
    from .inplace import apply_inplace, refuse_integer_history
    refuse_integer_history(input)       # (autograd's copy of x first)
    _check_mvlgamma(input, p)
    if input._array.dtype.kind != "f":
        raise RuntimeError(f"mvlgamma: result type {input.dtype.tensor_type_name[:-len('Tensor')]} "
                           "can't be cast to the desired output type Float")
    return apply_inplace(input, lambda t: _mvlgamma(t, p))
