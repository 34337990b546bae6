"""The regularized incomplete gamma functions: igamma (special.gammainc) and igammac (gammaincc).

    igamma(a, x)  = P(a, x) = (1 / Gamma(a)) * integral from 0 to x of t ** (a - 1) e ** -t dt
    igammac(a, x) = Q(a, x) = 1 - P(a, x)

P(a, x) is the probability that a Gamma(a, 1) random number is at most x (for whole a: that a
Poisson count of mean x is at least a). Computed as in Numerical Recipes: a power series for
P where x < a + 1, a continued fraction for Q elsewhere (each where it converges fast). For a
large a and x near it, both would need about sqrt(a) terms (a million for a = 1e12): there,
as in PyTorch, Temme's uniform asymptotic expansion (DLMF 8.12.3, 8.12.4) takes over, a
normal distribution's tail plus a correction in powers of 1 / a (``_asymptotic_series``).

Derivatives: d/dx P(a, x) = x ** (a - 1) e ** -x / Gamma(a), written as PyTorch does:
exp((a - 1) * log(x) - x - lgamma(a)); Q's is its negative. PyTorch has no derivative in a:
backward refuses ("the derivative for 'igamma: input' is not implemented.").
"""
import functools
import math
from fractions import Fraction

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
_erfc_scalar = np.frompyfunc(math.erfc, 1, 1)


def _prefactor(a, x):
    """x ** a e ** -x / Gamma(a), in logs (it under- and overflows on its own). For a large a,
    a log(x), x and lgamma(a) are huge and nearly cancel (a = 1e12 keeps 4 digits): there it is
    written with Stirling's series instead, as sqrt(a / (2 pi)) e ** (a (log(1 + s) - s)) / G,
    s = (x - a) / a, G = Gamma(a) / (sqrt(2 pi / a) (a / e)**a) = 1 + 1 / (12 a) + ..."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        in_logs = np.exp(a * np.log(x) - x - np.asarray(_lgamma_scalar(a), dtype=np.float64))
        large = a > 200
        if not np.any(large):
            return in_logs
        s = (x - a) / a
        stirling_sum = sum(float(g) / a ** k for k, g in enumerate(_stirling_coefficients()[:10]))
        by_stirling = np.sqrt(a / (2 * math.pi)) * np.exp(a * (np.log1p(s) - s)) / stirling_sum
        return np.where(large, by_stirling, in_logs)


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


# --- a large, x near a: Temme's uniform asymptotic expansion ----------------------------------
#
#   Q(a, x) = erfc(eta sqrt(a / 2)) / 2 + e ** (-a eta**2 / 2) / sqrt(2 pi a) * sum_k c_k(eta) / a**k
#
# (P: the same with -eta and the sum subtracted), where lambda = x / a and eta, which has the sign
# of lambda - 1, solves eta**2 / 2 = lambda - 1 - log(lambda). Each c_k is used through its
# Taylor series in eta, c_k(eta) = sum_n d[k][n] eta**n, 25 terms of 25 coefficients.

TERMS = 25


@functools.cache
def _stirling_coefficients():
    """g_k of Stirling's series, Gamma(a) ~ sqrt(2 pi / a) (a / e)**a sum_k g_k / a**k (1, 1/12,
    1/288, -139/51840, ...), exactly: the series is the exponential of
    sum_m B_2m / (2m (2m - 1) a**(2m - 1)), B the Bernoulli numbers."""
    bernoulli = [Fraction(1)]
    for n in range(1, TERMS + 2):
        bernoulli.append(-sum(math.comb(n + 1, j) * bernoulli[j] for j in range(n)) / (n + 1))
    log_series = [Fraction(0)] * (TERMS + 1)
    for j in range(1, TERMS + 1, 2):
        log_series[j] = bernoulli[j + 1] / ((j + 1) * j)
    g = [Fraction(1)]
    for n in range(1, TERMS + 1):             # (exp of a series: n g_n = sum_j j l_j g_(n-j))
        g.append(sum(j * log_series[j] * g[n - j] for j in range(1, n + 1)) / n)
    return g


@functools.cache
def _temme_coefficients():
    """d[k][n], computed exactly (fractions) once, from DLMF 8.12.9-8.12.10:

        c_0(eta) = 1 / mu - 1 / eta,   c_k(eta) = c_(k-1)'(eta) / eta + (-1)**k g_k / mu,

    mu = lambda - 1 as a series in eta, g_k the coefficients of Stirling's series for Gamma.
    Each step lowers the degree by two, so c_0 needs 2 * TERMS more terms than are kept."""
    length = 3 * TERMS + 2
    # mu = m1 eta + m2 eta**2 + ...: from mu mu' = eta (1 + mu), the derivative of the relation
    m = [Fraction(0), Fraction(1)]
    for n in range(2, length + 2):
        m.append((m[n - 1] - sum(m[i] * (n - i + 1) * m[n - i + 1] for i in range(2, n))) / (n + 1))
    # eta / mu = 1 / (1 + m2 eta + m3 eta**2 + ...), term by term
    eta_over_mu = [Fraction(1)]
    for k in range(1, length + 1):
        eta_over_mu.append(-sum(m[j + 1] * eta_over_mu[k - j] for j in range(1, k + 1)))
    g = _stirling_coefficients()
    c = eta_over_mu[1:]                       # c_0: 1 / mu - 1 / eta, without its 1 / eta
    table = [c[:TERMS]]
    for k in range(1, TERMS):
        sign = (-1) ** k
        # (the 1 / eta terms of the two parts cancel: c_k is smooth at eta = 0)
        c = [(n + 2) * c[n + 2] + sign * g[k] * eta_over_mu[n + 1] for n in range(len(c) - 2)]
        table.append(c[:TERMS])
    return np.array([[float(value) for value in row] for row in table])


# PyTorch's kernel takes pi in float32 here: sqrt(2 pi a) uses 3.1415927410125732
_PI_AS_FLOAT32 = float(np.float32(math.pi))
_EPSILON = 2.0 ** -53       # where a term stops counting


def _asymptotic_series(a, x, upper):
    """Q(a, x) (P(a, x) unless ``upper``) of float64 arrays, by the expansion above, in PyTorch's
    steps: the Taylor series of each c_k stops at the first term below the rounding of its sum,
    the sum over k at the first term that grows (the series diverges) or stops counting."""
    sign = 1.0 if upper else -1.0
    ratio, sigma = x / a, (x - a) / a       # (lambda, and lambda - 1 without rounding 1 away)
    eta = np.sqrt(-2 * (np.log1p(sigma) - sigma))
    eta = np.where(ratio < 1, -eta, np.where(ratio > 1, eta, 0.0))
    tail = 0.5 * np.asarray(_erfc_scalar(sign * eta * np.sqrt(a / 2)), dtype=np.float64)
    d = _temme_coefficients()
    eta_powers = np.cumprod(np.broadcast_to(eta, (TERMS,) + eta.shape), axis=0)   # eta, eta**2, ...
    total = np.zeros_like(eta)
    a_power = np.ones_like(eta)             # 1 / a**k
    last_size = np.full_like(eta, np.inf)
    summing = np.ones(eta.shape, bool)
    for k in range(TERMS):
        c_k = np.full_like(eta, d[k][0])
        adding = np.ones(eta.shape, bool)
        for n in range(1, TERMS):
            term = d[k][n] * eta_powers[n - 1]
            c_k = np.where(adding, c_k + term, c_k)
            adding &= ~(np.abs(term) < _EPSILON * np.abs(c_k))
        term = c_k * a_power
        size = np.abs(term)
        summing &= ~(size > last_size)      # (growing: the series is past its best term)
        total = np.where(summing, total + term, total)
        summing &= ~(size < _EPSILON * np.abs(total))
        last_size = size
        a_power = a_power / a
    return tail + sign * np.exp(-0.5 * a * eta * eta) * total / np.sqrt(2 * _PI_AS_FLOAT32 * a)


def _asymptotic_region(a, x):
    """Where PyTorch uses the expansion: 20 < a < 200 and x within 30% of a, or a > 200 and x
    within 4.5 standard deviations (4.5 sqrt(a)) of a."""
    with np.errstate(divide="ignore", invalid="ignore"):
        distance = np.abs(x - a) / a
        return (((a > 20) & (a < 200) & (distance < 0.3))
                | ((a > 200) & (distance < 4.5 / np.sqrt(a))))


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
    asymptotic = inside & _asymptotic_region(a_in, x_in)
    if asymptotic.any():
        values = values.copy()
        with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            values[asymptotic] = _asymptotic_series(a_in[asymptotic], x_in[asymptotic], upper)
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
