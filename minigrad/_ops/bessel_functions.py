"""The Bessel functions of ``torch.special`` that PyTorch does not differentiate.

    bessel_j0, bessel_j1                   J0, J1: the Bessel functions of the first kind
    bessel_y0, bessel_y1                   Y0, Y1: ... of the second kind
    modified_bessel_i0, modified_bessel_i1 I0, I1: the modified ones of the first kind
    modified_bessel_k0, modified_bessel_k1 K0, K1: the modified ones of the second kind
    scaled_modified_bessel_k0/k1           e ** x K0(x), e ** x K1(x) (they do not underflow)
    spherical_bessel_j0                    j0(x) = sin(x) / x
    airy_ai                                Ai, the Airy function (K_(1/3) and J_(+-1/3) in disguise)

J0 and J1 solve x^2 y'' + x y' + (x^2 - n^2) y = 0 (a drum's vibrations); I and K the same
with -x^2 (decay and growth instead of waves). PyTorch records nothing for them: their results
never require grad. (``torch.special.i0``, ``i1``, ... are other functions with derivatives:
bessel.py.)

How they are computed here (in float64, then cast to the input's dtype; integers give float32):
J0 and J1 by Miller's backward recurrence below 25 and the Hankel expansion above, Y0 and Y1
from the same J_n by Neumann's series; I0 and I1 by
bessel.py's series; K0 and K1 from the integral K_n(x) = integral over t >= 0 of
e ** (-x cosh t) cosh(n t) dt by the trapezoidal rule, which for this smooth, fast-decaying
integrand is exact to rounding with a step of 0.1 (smaller for large x, where it is narrower).
"""
import math

import numpy as np

from . import plain_output
from .bessel import _i0_values, _i1_values
from .special import _in_float
from .pointwise import like_its_input

_EULER_GAMMA = 0.5772156649015329


def _float_result(function, input):
    """``function`` of ``input``'s values (float64 arrays in and out), in PyTorch's result dtype."""
    return like_its_input(_in_float(function, input._array), input._array)


# --- J0 and J1 ------------------------------------------------------------------------------------

def _bessel_j01_64(x):
    """J0 and J1 of |x|: Miller's backward recurrence J_(k-1) = (2k / x) J_k - J_(k+1), scaled by
    J0 + 2 (J2 + J4 + ...) = 1, below 25; the asymptotic (Hankel) expansion above."""
    a = np.abs(x)
    small = np.where((a >= 1e-8) & (a < 25), a, 1.0)
    start = 2 * ((int(np.max(small, initial=1.0)) + 40) // 2)
    above, current = np.zeros_like(small), np.full_like(small, 1e-300)
    total = np.zeros_like(small)
    j0 = j1 = None
    for k in range(start, 0, -1):
        below = (2.0 * k / small) * current - above
        above, current = current, below
        if k - 1 > 0 and (k - 1) % 2 == 0:
            total = total + 2.0 * current
        if k - 1 == 1:
            j1 = current
        big = np.abs(current) > 1e250        # (rescale before the numbers overflow)
        if big.any():
            scale = np.where(big, 1e-250, 1.0)
            above, current, total = above * scale, current * scale, total * scale
            if j1 is not None:
                j1 = j1 * scale
    j0 = current
    norm = j0 + total
    j0_small, j1_small = j0 / norm, j1 / norm
    # large x: sqrt(2 / (pi x)) (P cos(chi) - Q sin(chi)), chi = x - pi/4 (order 0) or x - 3pi/4 (order 1)
    large = np.where(a >= 25, a, 25.0)
    results = []
    for order in (0, 1):
        mu = 4.0 * order * order
        p, q = np.zeros_like(large), np.zeros_like(large)
        term = np.ones_like(large)
        for k in range(0, 30):
            if k % 2 == 0:
                p = p + (term if k % 4 == 0 else -term)
            else:
                q = q + (term if k % 4 == 1 else -term)
            term = term * (mu - (2 * k + 1) ** 2) / ((k + 1) * 8.0 * large)
        chi = large - (2 * order + 1) * math.pi / 4
        results.append(np.sqrt(2.0 / (math.pi * large)) * (p * np.cos(chi) - q * np.sin(chi)))
    tiny = a < 1e-8               # (the first terms of the series: the recurrence would overflow)
    j0 = np.where(a >= 25, results[0], np.where(tiny, 1 - a * a / 4, j0_small))
    j1 = np.where(a >= 25, results[1], np.where(tiny, a / 2, j1_small))
    j0 = np.where(np.isinf(a), np.nan, j0)        # (PyTorch: nan at +-inf)
    j1 = np.where(np.isinf(a), np.nan, j1)
    return j0, np.where(x < 0, -j1, j1)


def bessel_j0(input):
    """The Bessel function of the first kind of order 0. Not differentiable (never recorded)."""
    values = _float_result(lambda x: np.where(np.isfinite(x), _bessel_j01_64(np.where(np.isfinite(x), x, 0.0))[0], np.nan), input)
    return plain_output(values, input)


def bessel_j1(input):
    """The Bessel function of the first kind of order 1. Not differentiable (never recorded)."""
    values = _float_result(lambda x: np.where(np.isfinite(x), _bessel_j01_64(np.where(np.isfinite(x), x, 0.0))[1], np.nan), input)
    return plain_output(values, input)


# --- Y0 and Y1 ---------------------------------------------------------------------------------------

def _j_orders(x, count):
    """J_0(x) ... J_count(x) (rows) for 0 < x < 25 by Miller's backward recurrence, normalized
    by J0 + 2 (J2 + J4 + ...) = 1."""
    start = 2 * ((int(np.max(x, initial=1.0)) + count + 40) // 2)
    rows = np.zeros((count + 1,) + x.shape)
    above, current, total = np.zeros_like(x), np.full_like(x, 1e-300), np.zeros_like(x)
    for k in range(start, 0, -1):
        above, current = current, (2.0 * k / x) * current - above      # current is now J_(k-1)
        if k - 1 <= count:
            rows[k - 1] = current
        if k - 1 > 0 and (k - 1) % 2 == 0:
            total = total + 2.0 * current
        big = np.abs(current) > 1e250        # (rescale before the numbers overflow)
        if big.any():
            scale = np.where(big, 1e-250, 1.0)
            above, current, total, rows = above * scale, current * scale, total * scale, rows * scale
    return rows / (rows[0] + total)


def _bessel_y01_64(x):
    """Y0 and Y1 of x > 0: below 25 from Neumann's series
    Y0 = (2 / pi) (log(x / 2) + gamma) J0 - (4 / pi) sum over k >= 1 of (-1)^k J_2k / k
    and its derivative (Y1 = -Y0', with J_n' = (J_(n-1) - J_(n+1)) / 2); above, the Hankel expansion."""
    small = np.where(x < 25, x, 1.0)
    count = 2 * (int(np.max(small, initial=1.0)) + 40)
    j = _j_orders(small, count + 1)
    log_term = np.log(small / 2) + _EULER_GAMMA
    y0 = 2 / math.pi * log_term * j[0]
    y1 = -2 / math.pi * (j[0] / small - log_term * j[1])
    for k in range(1, count // 2 + 1):
        sign = -1.0 if k % 2 else 1.0
        y0 = y0 - 4 / math.pi * sign * j[2 * k] / k
        y1 = y1 + 2 / math.pi * sign * (j[2 * k - 1] - j[2 * k + 1]) / k
    large = np.where(x >= 25, x, 25.0)
    results = []
    for order in (0, 1):
        p, q = _hankel_pq(large, order)
        chi = large - (2 * order + 1) * math.pi / 4
        results.append(np.sqrt(2.0 / (math.pi * large)) * (p * np.sin(chi) + q * np.cos(chi)))
    return np.where(x >= 25, results[0], y0), np.where(x >= 25, results[1], y1)


def _hankel_pq(x, order):
    """The two series P and Q of the Hankel expansion of order 0 or 1 at x >= 25."""
    mu = 4.0 * order * order
    p, q = np.zeros_like(x), np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(0, 30):
        if k % 2 == 0:
            p = p + (term if k % 4 == 0 else -term)
        else:
            q = q + (term if k % 4 == 1 else -term)
        term = term * (mu - (2 * k + 1) ** 2) / ((k + 1) * 8.0 * x)
    return p, q


def _y64(x, order):
    """Y_order(x): -inf at 0, nan below 0 and at inf (as PyTorch)."""
    inside = np.isfinite(x) & (x > 0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        values = _bessel_y01_64(np.where(inside & (x >= 1e-8), x, 1.0))[order]
        # (tiny x, where the recurrence would overflow: the first terms of the series)
        positive = np.where(inside, x, 1.0)
        tiny = (2 / math.pi * (np.log(positive / 2) + _EULER_GAMMA) if order == 0
                else -2 / (math.pi * positive))
        values = np.where(x < 1e-8, tiny, values)
    values = np.where(inside, values, np.nan)
    return np.where(x == 0, -np.inf, values)


def bessel_y0(input):
    """Y0, the Bessel function of the second kind of order 0 (-inf at 0, nan below). Never recorded."""
    return plain_output(_float_result(lambda x: _y64(x, 0), input), input)


def bessel_y1(input):
    """Y1, the Bessel function of the second kind of order 1 (-inf at 0, nan below). Never recorded."""
    return plain_output(_float_result(lambda x: _y64(x, 1), input), input)


# --- I0 and I1 (as bessel.py's i0 and i1, without a node; nan at +-inf, as PyTorch) ----------------

def modified_bessel_i0(input):
    """I0, the modified Bessel function of the first kind of order 0. Never recorded."""
    values = _float_result(lambda x: np.where(np.isinf(x), np.nan, _i0_values(x)), input)
    return plain_output(values, input)


def modified_bessel_i1(input):
    """I1, the modified Bessel function of the first kind of order 1. Never recorded."""
    values = _float_result(lambda x: np.where(np.isinf(x), np.nan, _i1_values(x)), input)
    return plain_output(values, input)


# --- K0 and K1 ---------------------------------------------------------------------------------------

def _scaled_k64(x, order):
    """e ** x K_order(x) for x > 0: the trapezoidal rule on e ** (-x (cosh t - 1)) cosh(order t),
    out to where the integrand is below e ** -45 of its start; below 1e-6 the first terms of
    the series around 0."""
    x = np.asarray(x, np.float64)
    big = np.maximum(x, 1e-6)
    # (the integrand is about e ** (-x t^2 / 2): a step of 0.5 / sqrt(x) for large x, 0.1 below)
    step = np.minimum(0.1, 0.5 / np.sqrt(big))
    end = np.arccosh(1 + 45 / big) + 2 * step
    count = int(np.max(np.ceil(end / step), initial=1.0))
    t = np.multiply.outer(step, np.arange(count + 1))          # one row of points per element
    weights = np.ones(count + 1)
    weights[0] = 0.5                 # (the integrand is even: the rule on [0, inf) halves t = 0)
    with np.errstate(under="ignore", over="ignore"):
        integrand = np.exp(-big[..., None] * (np.cosh(t) - 1)) * np.cosh(order * t)
    values = (integrand @ weights) * step
    log_half = np.log(np.where(x > 0, x, 1.0) / 2) + _EULER_GAMMA
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        if order == 0:
            tiny = -log_half * (1 + x * x / 4) + x * x / 4
        else:
            tiny = 1 / x + x / 2 * (log_half - 0.5)
        tiny = tiny * np.exp(x)
    return np.where(x < 1e-6, tiny, values)


def _k64(x, order, scaled):
    """K_order(x) (or e ** x K_order(x)): inf at 0, 0 at inf, nan below 0."""
    inside = np.isfinite(x) & (x > 0)
    values = _scaled_k64(np.where(inside, x, 1.0), order)
    if not scaled:
        with np.errstate(under="ignore"):
            values = values * np.exp(-np.where(inside, x, 1.0))
    values = np.where(x == 0, np.inf, np.where(x == np.inf, 0.0, values))
    return np.where((x < 0) | np.isnan(x), np.nan, values)


def modified_bessel_k0(input):
    """K0, the modified Bessel function of the second kind of order 0 (inf at 0, nan below).
    Never recorded."""
    return plain_output(_float_result(lambda x: _k64(x, 0, False), input), input)


def modified_bessel_k1(input):
    """K1, the modified Bessel function of the second kind of order 1 (inf at 0, nan below).
    Never recorded."""
    return plain_output(_float_result(lambda x: _k64(x, 1, False), input), input)


def scaled_modified_bessel_k0(input):
    """e ** input * K0(input), which does not underflow for large input. Never recorded."""
    return plain_output(_float_result(lambda x: _k64(x, 0, True), input), input)


def scaled_modified_bessel_k1(input):
    """e ** input * K1(input), which does not underflow for large input. Never recorded."""
    return plain_output(_float_result(lambda x: _k64(x, 1, True), input), input)


# --- the Airy function Ai -------------------------------------------------------------------------

_AI_0, _MINUS_AI_SLOPE_0 = 0.355028053887817239, 0.258819403792806798      # Ai(0), -Ai'(0)


def _airy_series(x):
    """Ai(x) = Ai(0) f(x) + Ai'(0) g(x), the two power series of the Airy equation y'' = x y:
    f = 1 + x^3 / (2 3) + x^6 / (2 3 5 6) + ..., g = x + x^4 / (3 4) + x^7 / (3 4 6 7) + ..."""
    cube = x * x * x
    f_term, g_term = np.ones_like(x), x.copy()
    f, g = f_term.copy(), g_term.copy()
    for k in range(1, 80):
        f_term = f_term * cube / ((3 * k) * (3 * k - 1))
        g_term = g_term * cube / ((3 * k + 1) * (3 * k))
        f, g = f + f_term, g + g_term
    return _AI_0 * f - _MINUS_AI_SLOPE_0 * g


def _airy_oscillating(x):
    """Ai(x) for x < -8: the asymptotic expansion (Abramowitz and Stegun 10.4.60) in
    zeta = (2/3) |x| ** 1.5."""
    z = -x
    zeta = 2.0 / 3.0 * z ** 1.5
    p, q = np.zeros_like(z), np.zeros_like(z)
    u = 1.0
    power = np.ones_like(z)
    for k in range(0, 24):
        if k > 0:
            u = u * (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / ((2 * k - 1) * 216 * k)
            power = power / zeta
        sign = -1.0 if (k // 2) % 2 else 1.0
        if k % 2 == 0:
            p = p + sign * u * power
        else:
            q = q + sign * u * power
    phase = zeta + math.pi / 4
    return (np.sin(phase) * p - np.cos(phase) * q) / (math.sqrt(math.pi) * z ** 0.25)


def _airy_ai64(x):
    """Ai(x): the series on [-8, 2], the expansion below, (1 / pi) sqrt(x / 3) K_(1/3)((2/3) x ** 1.5)
    above (0 past 103.892, where PyTorch stops: the value is below 1e-308), nan at +-inf."""
    middle = np.where((x >= -8) & (x <= 2), x, 0.0)
    below = np.where(x < -8, x, -9.0)
    above = np.where((x > 2) & (x <= 103.892), x, 3.0)
    zeta = 2.0 / 3.0 * above ** 1.5
    with np.errstate(under="ignore"):
        decaying = np.sqrt(above / 3) / math.pi * _scaled_k64(zeta, 1.0 / 3.0) * np.exp(-zeta)
    values = np.where(x < -8, _airy_oscillating(below), np.where(x > 2, decaying, _airy_series(middle)))
    values = np.where(x > 103.892, 0.0, values)
    return np.where(np.isfinite(x), values, np.nan)


def airy_ai(input):
    """Ai, the Airy function: the solution of y'' = x y that decays for large x. Never recorded."""
    return plain_output(_float_result(_airy_ai64, input), input)


# --- the spherical Bessel function j0 ----------------------------------------------------------------

def _spherical_j0_64(x):
    """sin(x) / x: 1 at 0 (1 - x^2 / 6 + x^4 / 120 near it), 0 at +-inf."""
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.sin(x) / x
    small = x * x
    near_zero = 1 - small / 6 * (1 - small / 20)
    values = np.where(np.abs(x) < 0.5e-3, near_zero, values)
    return np.where(np.isinf(x), 0.0, values)


def spherical_bessel_j0(input):
    """The spherical Bessel function of the first kind of order 0: sin(x) / x. Never recorded."""
    return plain_output(_float_result(_spherical_j0_64, input), input)


NAMES = ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
         "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0",
         "airy_ai")
