"""The classical orthogonal polynomials of ``torch.special``: p_n(x) for a degree n.

    chebyshev_polynomial_t/u/v/w   T_n, U_n, V_n, W_n        (x in [-1, 1] is their home)
    shifted_chebyshev_polynomial_* the same of 2x - 1        (home [0, 1])
    hermite_polynomial_h / _he     H_n (physicists'), He_n (probabilists')
    laguerre_polynomial_l          L_n
    legendre_polynomial_p          P_n

Each is computed as PyTorch's kernels do: by its three-term recurrence from p_0 and p_1
(p_(k+1) = (a_k x + b_k) p_k - c_k p_(k-1)), with the same shortcuts: 0 for a negative degree,
exact values at the ends of [-1, 1], and for Chebyshev polynomials of high degree inside
(-1, 1) the closed forms in the angle acos(x) (T_n(cos t) = cos(n t), ...). The degree n is
cut to a whole number (2.5 counts as 2). PyTorch records nothing for them (they have no
derivative there), and integer inputs give float32.
"""
import numpy as np

from .._dtype import result_type
from .._tensor import Tensor, _wrap
from .._python_arg_parser import invalid_combination
from . import plain_output
from .pointwise import _binary


def _recurrence(x, n, first, step):
    """p_n(x) for one whole n >= 2: ``first`` = p_1(x), ``step(k, p_k, p_(k-1))`` = p_(k+1)."""
    previous, current = np.ones_like(x), first
    for k in range(1, n):
        previous, current = current, step(k, current, previous)
    return current


def _chebyshev(kind, x, n, shifted=False):
    """T, U, V or W of degree n (a whole number) at x (an array); ``shifted``: x is already 2x - 1
    (PyTorch's shifted kernels use the closed forms from degree 7 on, the others U, V, W from 9)."""
    high = 6 if shifted or kind == "t" else 8
    two_x = x + x
    first = {"t": x, "u": two_x, "v": two_x - 1, "w": two_x + 1}[kind]
    values = first if n == 1 else _recurrence(x, n, first, lambda k, q, p: two_x * q - p)
    if n == 0:
        values = np.ones_like(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        inside = np.abs(x) < 1
        angle = np.arccos(np.where(inside, x, 0.0))
        if kind == "t" and n > high:
            values = np.where(inside, np.cos(n * angle), values)
        elif kind == "u" and n > high:
            sine = np.sin(angle)
            closed = np.where(sine != 0, np.sin((n + 1) * angle) / sine, (n + 1) * np.cos((n + 1) * angle) / x)
            values = np.where(inside, closed, values)
        elif kind == "v" and n > high:
            closed = np.where(np.sin(angle / 2) != 1, np.cos((n + 0.5) * angle) / np.cos(angle / 2),
                              (n + n + 1) * (1 if n % 2 == 0 else -1))
            values = np.where(inside, closed, values)
        elif kind == "w" and n > high:
            closed = np.where(np.cos(angle / 2) != 1, np.sin((n + 0.5) * angle) / np.sin(angle / 2),
                              np.where(x > 0, n + n + 1, 1 if n % 2 == 0 else -1))
            values = np.where(inside, closed, values)
    sign = 1 if n % 2 == 0 else -1
    at_plus_one = {"t": 1, "u": n + 1, "v": 1, "w": n + n + 1}[kind]
    at_minus_one = {"t": sign, "u": sign * (n + 1), "v": sign * (n + n + 1), "w": sign}[kind]
    values = np.where(x == 1, at_plus_one, np.where(x == -1, at_minus_one, values))
    return values


def _hermite_h(x, n):
    if n == 0:
        return np.ones_like(x)
    two_x = x + x
    return two_x if n == 1 else _recurrence(x, n, two_x, lambda k, q, p: two_x * q - (2 * k) * p)


def _hermite_he(x, n):
    if n == 0:
        return np.ones_like(x)
    return x if n == 1 else _recurrence(x, n, x, lambda k, q, p: x * q - k * p)


def _laguerre(x, n):
    if n == 0:
        return np.ones_like(x)
    first = 1 - x
    values = first if n == 1 else _recurrence(x, n, first, lambda k, q, p: ((k + k + (1 - x)) * q - k * p) / (k + 1))
    return np.where(x == 0, 1.0, values)


def _legendre(x, n):
    if n == 0:
        return np.ones_like(x)
    values = x if n == 1 else _recurrence(x, n, x, lambda k, q, p: ((k + k + 1) * x * q - k * p) / (k + 1))
    sign = 1 if n % 2 == 0 else -1
    return np.where(x == 1, 1.0, np.where(x == -1, sign, values))


def _by_degree(polynomial, x, n):
    """``polynomial(x, whole n)`` for every element, each with its own degree (n cut to a whole
    number; 0 for a negative degree)."""
    x, n = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(n, np.float64))
    out = np.zeros(x.shape)
    with np.errstate(invalid="ignore"):
        whole = np.trunc(np.where(np.isfinite(n), n, -1)).astype(np.int64)
    for degree in np.unique(whole[whole >= 0]):
        chosen = whole == degree
        with np.errstate(over="ignore", invalid="ignore"):
            out[chosen] = polynomial(x[chosen], int(degree))
    return out


def _polynomial_function(name, polynomial, shifted=False):
    def function(input, n):
        for value in (input, n):
            if not isinstance(value, (Tensor, int, float, bool, np.number)):
                raise invalid_combination(f"special_{name}", (input, n), {})
        if not isinstance(input, Tensor) and not isinstance(n, Tensor):
            raise invalid_combination(f"special_{name}", (input, n), {})
        dtype = result_type(input, n)
        dtype = dtype if dtype.kind == "f" else np.dtype(np.float32)

        def values(x, degree):
            x = np.asarray(x, np.float64)
            if shifted:             # p*(x) = p(2x - 1): PyTorch tests the ends at x = 0 and 1
                x = x + x - 1
            return _by_degree(polynomial, x, degree).astype(dtype)
        if isinstance(input, Tensor):
            base = input if input._array.dtype.kind == "f" else _wrap(input._array.astype(dtype))
        else:
            base = _wrap(np.asarray(input, dtype))
        return plain_output(_binary(values, base, n), input, n)
    function.__name__ = function.__qualname__ = name
    return function


chebyshev_polynomial_t = _polynomial_function("chebyshev_polynomial_t", lambda x, n: _chebyshev("t", x, n))
chebyshev_polynomial_u = _polynomial_function("chebyshev_polynomial_u", lambda x, n: _chebyshev("u", x, n))
chebyshev_polynomial_v = _polynomial_function("chebyshev_polynomial_v", lambda x, n: _chebyshev("v", x, n))
chebyshev_polynomial_w = _polynomial_function("chebyshev_polynomial_w", lambda x, n: _chebyshev("w", x, n))
shifted_chebyshev_polynomial_t = _polynomial_function(
    "shifted_chebyshev_polynomial_t", lambda x, n: _chebyshev("t", x, n, shifted=True), shifted=True)
shifted_chebyshev_polynomial_u = _polynomial_function(
    "shifted_chebyshev_polynomial_u", lambda x, n: _chebyshev("u", x, n, shifted=True), shifted=True)
shifted_chebyshev_polynomial_v = _polynomial_function(
    "shifted_chebyshev_polynomial_v", lambda x, n: _chebyshev("v", x, n, shifted=True), shifted=True)
shifted_chebyshev_polynomial_w = _polynomial_function(
    "shifted_chebyshev_polynomial_w", lambda x, n: _chebyshev("w", x, n, shifted=True), shifted=True)
hermite_polynomial_h = _polynomial_function("hermite_polynomial_h", _hermite_h)
hermite_polynomial_he = _polynomial_function("hermite_polynomial_he", _hermite_he)
laguerre_polynomial_l = _polynomial_function("laguerre_polynomial_l", _laguerre)
legendre_polynomial_p = _polynomial_function("legendre_polynomial_p", _legendre)

_DESCRIPTIONS = {
    "chebyshev_polynomial_t": "T_n(x), the Chebyshev polynomial of the first kind (T_n(cos t) = cos(n t))",
    "chebyshev_polynomial_u": "U_n(x), the Chebyshev polynomial of the second kind",
    "chebyshev_polynomial_v": "V_n(x), the Chebyshev polynomial of the third kind",
    "chebyshev_polynomial_w": "W_n(x), the Chebyshev polynomial of the fourth kind",
    "shifted_chebyshev_polynomial_t": "T_n(2x - 1), T shifted to [0, 1]",
    "shifted_chebyshev_polynomial_u": "U_n(2x - 1), U shifted to [0, 1]",
    "shifted_chebyshev_polynomial_v": "V_n(2x - 1), V shifted to [0, 1]",
    "shifted_chebyshev_polynomial_w": "W_n(2x - 1), W shifted to [0, 1]",
    "hermite_polynomial_h": "H_n(x), the physicists' Hermite polynomial",
    "hermite_polynomial_he": "He_n(x), the probabilists' Hermite polynomial",
    "laguerre_polynomial_l": "L_n(x), the Laguerre polynomial",
    "legendre_polynomial_p": "P_n(x), the Legendre polynomial",
}
for _name, _text in _DESCRIPTIONS.items():
    globals()[_name].__doc__ = (f"{_text}, elementwise for degree n (a tensor or a number, cut to a "
                                "whole number; 0 for a negative degree). Never recorded.")
del _name, _text

NAMES = tuple(_DESCRIPTIONS)
