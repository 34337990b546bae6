"""The regularized incomplete gamma functions: igamma (special.gammainc) and igammac (gammaincc).

    igamma(a, x)  = P(a, x) = (1 / Gamma(a)) * integral from 0 to x of t ** (a - 1) e ** -t dt
    igammac(a, x) = Q(a, x) = 1 - P(a, x)

P(a, x) is the probability that a Gamma(a, 1) random number is at most x (for whole a: that a
Poisson count of mean x is at least a). Computed as in Numerical Recipes: a power series for
P where x < a + 1, a continued fraction for Q elsewhere (each where it converges fast).

Derivatives: d/dx P(a, x) = x ** (a - 1) e ** -x / Gamma(a), written as PyTorch does:
exp((a - 1) * log(x) - x - lgamma(a)); Q's is its negative. PyTorch has no derivative in a:
backward refuses ("the derivative for 'igamma: input' is not implemented.").
"""
import math

import numpy as np

from .._type_names import type_name
from ..autograd.graph import Node, gets_gradient_edge, needs_grad
from .._dtype import result_type
from .._tensor import Tensor, _wrap
from . import result
from .bitwise import _kernel_error, binary_method, binary_method_in_place
from .gamma import lgamma
from .pointwise import _binary, check_shapes_fit, exp, log, sub_number

_lgamma_scalar = np.frompyfunc(math.lgamma, 1, 1)


def _prefactor(a, x):
    """x ** a e ** -x / Gamma(a), in logs (it under- and overflows on its own)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.exp(a * np.log(x) - x - np.asarray(_lgamma_scalar(a), dtype=np.float64))


def _lower_series(a, x):
    """P(a, x) = prefactor * sum over n of x ** n / (a (a + 1) ... (a + n))."""
    term = 1.0 / a
    total = term.copy()
    for n in range(1, 2000):
        term = term * x / (a + n)
        total = total + term
        if np.all(np.abs(term) <= np.abs(total) * 1e-17):
            break
    return total * _prefactor(a, x)


def _upper_fraction(a, x):
    """Q(a, x) = prefactor * the continued fraction 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - ...)),
    evaluated by the modified Lentz method."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = np.full_like(x, 1.0 / tiny)
    d = 1.0 / np.where(np.abs(b) < tiny, tiny, b)
    h = d.copy()
    for i in range(1, 2000):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = 1.0 / np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        delta = d * c
        h = h * delta
        if np.all(np.abs(delta - 1.0) <= 1e-16):
            break
    return h * _prefactor(a, x)


def _igamma64(a, x, upper):
    """P(a, x) (or Q(a, x) with ``upper``) of float64 arrays, with PyTorch's values at the edges."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    inside = (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
    a_in, x_in = np.where(inside, a, 1.0), np.where(inside, x, 1.0)
    series = x_in < a_in + 1
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        lower = np.where(series, _lower_series(np.where(series, a_in, 1.0), np.where(series, x_in, 0.5)), 0.0)
        upper_values = np.where(series, 0.0, _upper_fraction(np.where(series, 1.0, a_in),
                                                            np.where(series, 2.0, x_in)))
    p = np.where(series, lower, 1.0 - upper_values)
    q = np.where(series, 1.0 - lower, upper_values)
    values = q if upper else p
    # the edges: P(a, 0) = 0, P(0, x > 0) = 1, P(a, inf) = 1, P(inf, x) = 0; negative: nan
    at_zero_x, at_zero_a = 1.0 if upper else 0.0, 0.0 if upper else 1.0
    values = np.where(inside, values, np.nan)
    values = np.where((x == 0) & (a > 0), at_zero_x, values)
    values = np.where((a == 0) & (x > 0), at_zero_a, values)
    values = np.where((x == np.inf) & (a > 0) & np.isfinite(a), at_zero_a, values)
    values = np.where((a == np.inf) & (x >= 0) & np.isfinite(x), at_zero_x, values)
    return np.where((a < 0) | (x < 0) | np.isnan(a) | np.isnan(x), np.nan, values)


def _density(a, x):
    """x ** (a - 1) e ** -x / Gamma(a), in PyTorch's steps: exp((a - 1) * log(x) - x - lgamma(a))."""
    return exp(sub_number(a, 1) * log(x) - x - lgamma(a))


class IgammaBackward0(Node):
    """result = igamma(self, other)   ->
        grad_self = not implemented; grad_other = grad * exp((self - 1) * log(other) - other - lgamma(self))"""

    _saved_names = ("self", "other")     # grad_fn._saved_self, grad_fn._saved_other
    _sign = 1

    def backward(self, grad):
        a, x = self.saved_tensors
        if self.should_compute_output(0):
            name = type(self).__name__[:-len("Backward0")].lower()
            raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
        if not self.should_compute_output(1):     # (then nothing was saved)
            return None, None
        return None, (grad if self._sign > 0 else -grad) * _density(a, x)


class IgammacBackward0(IgammaBackward0):
    """result = igammac(self, other)   ->
        grad_self = not implemented; grad_other = -grad * exp((self - 1) * log(other) - other - lgamma(self))"""

    _sign = -1


def _incomplete(name, upper, input, other, position=2):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not "
                        f"{type_name(other)}")
    dtype = result_type(input, other)
    if dtype.kind != "f":
        check_shapes_fit(input, other)
        raise _kernel_error(f"{'igammac' if upper else 'igamma'}_cpu", dtype)
    out = _binary(lambda a, x: _igamma64(a, x, upper).astype(dtype), input, other, ((), (0, 1)))
    node = IgammacBackward0 if upper else IgammaBackward0
    # (both are saved for other's gradient only, as PyTorch saves them: self has none)
    return result(out, node, (input, other), saved=(input, other) if gets_gradient_edge(other) else (None, None))


def igamma(input, other):
    """The regularized lower incomplete gamma function P(input, other). Gradient (to other only):
    grad * other ** (input - 1) e ** -other / Gamma(input)."""
    return _incomplete("igamma", False, input, other)


def igammac(input, other):
    """The regularized upper incomplete gamma function Q(input, other) = 1 - P(input, other).
    Gradient (to other only): -grad * other ** (input - 1) e ** -other / Gamma(input)."""
    return _incomplete("igammac", True, input, other)


def gammainc(input, other):
    """``torch.special.gammainc``: igamma under SciPy's name."""
    return _incomplete("special_gammainc", False, input, other)


def gammaincc(input, other):
    """``torch.special.gammaincc``: igammac under SciPy's name."""
    return _incomplete("special_gammaincc", True, input, other)


def _method(name, upper):
    return binary_method(name, lambda self, other: _incomplete(name, upper, self, other, position=1),
                         f"``torch.{name}(self, other)`` as a method.")


def _in_place(name, upper):
    return binary_method_in_place(
        name, lambda self, other: _incomplete(name + "_", upper, self, other, position=1))


METHODS = {"igamma": _method("igamma", False), "igammac": _method("igammac", True),
           "igamma_": _in_place("igamma", False), "igammac_": _in_place("igammac", True)}
