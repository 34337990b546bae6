"""torch._standard_gamma and torch._sample_dirichlet: gamma and Dirichlet samples as PyTorch's CPU
draws them, with the gradients that make them reparameterisable (_standard_gamma_grad,
_dirichlet_grad). The distributions Gamma, Chi2, Beta, Dirichlet, StudentT, ... build on these.

(PyTorch: aten/src/ATen/native/Distributions.cpp and Distributions.h.)

Sampling, one element after another in row-major order, in float64:

* alpha below 1 is boosted first: one uniform u gives the factor (1 - u) ** (1 / alpha), and the
  sample is then drawn for alpha + 1 (Gamma(alpha) = Gamma(alpha + 1) * U ** (1 / alpha)).
* Marsaglia and Tsang's rejection method: d = alpha - 1/3, c = 1 / sqrt(9 d); draw normals x
  until y = 1 + c x is positive, then v = y**3 and a uniform u (taken as 1 - u); accept d * v
  when u < 1 - 0.0331 x**4 or log u < x**2 / 2 + d (1 - v + log v), else try again.
* The normals are the generator's single Box-Muller draws (the partner value kept for the next
  one), the uniforms float64 ones (53 bits), as in minigrad/random.py.
* For float32 tensors PyTorch keeps alpha in float32 while it boosts it and subtracts 1/3
  (the constant 1/3 is a float32 one even for float64): ``_round`` follows that.
* The sample is at least the dtype's smallest normal number (also for alpha = 0, and nan).

Dirichlet: gamma samples in float64 for each concentration, each divided by their sum over the
last dim, clamped into [smallest normal, largest number below 1] of the dtype.

Gradients (the reparameterisation trick: d sample / d alpha = -(d cdf / d alpha) / pdf):

* _standard_gamma_grad(alpha, x): a Taylor series for x < 0.8, Rice's saddle point expansion for
  alpha > 8, a fitted rational function of log(x / alpha) and log(alpha) otherwise.
* _dirichlet_grad(x, alpha, total): the same for a Beta(alpha, total - alpha) marginal: series
  for x near 0 or near 1, a saddle point expansion when both concentrations pass 6, a rational
  correction to an analytic approximation otherwise.
"""
import functools
import math

import numpy as np

from .._type_names import type_name
from .. import random as _random
from .._dtype import from_numpy_dtype, scalar_type_name
from .._out import resize_output
from .._tensor import Tensor, _wrap
from ..autograd.forward_ad import _tangent_of
from ..autograd.graph import Node
from . import result, save_result
from .pointwise import _broadcast_error, kernel_not_implemented
from .rounding import _NotImplementedBackward


# --- C's float and double arithmetic, without Python's exceptions -------------------------------

def _float32(value):
    """Round a float64 to float32 (one rounding after an exact-enough float64 operation gives the
    float32 operation's result for +, -, *, /)."""
    return float(np.float32(value))


def _same(value):
    return value


@functools.cache
def _c_float_functions():
    """The C library's logf and powf: PyTorch's std::log and std::pow of floats."""
    # (ctypes is imported here: ctypes.util alone costs every `import minigrad` about 0.01 s)
    import ctypes
    import ctypes.util
    library = ctypes.CDLL(ctypes.util.find_library("m") or None)
    logf, powf = library.logf, library.powf
    logf.restype, logf.argtypes = ctypes.c_float, [ctypes.c_float]
    powf.restype, powf.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]
    return logf, powf


def _log(x):
    """C's log: -inf at 0, nan below (math.log raises)."""
    if x > 0:
        return math.log(x)
    return -math.inf if x == 0 else math.nan


def _pow(x, y):
    """C's pow (math.pow raises where C gives inf or nan)."""
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.inf
    except (ValueError, ZeroDivisionError):
        return math.inf if x == 0 else math.nan


def _sqrt(x):
    return math.sqrt(x) if x >= 0 else math.nan


def _exp(x):
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


class _Arithmetic:
    """The scalar type's arithmetic: float32 rounds after each operation and uses logf/powf."""

    def __init__(self, dtype):
        self.single = dtype == np.float32
        self.round = _float32 if self.single else _same

    def log(self, x):
        if self.single:
            return float(_c_float_functions()[0](x)) if x == x else math.nan
        return _log(x)

    def pow(self, x, y):
        if self.single:
            return float(_c_float_functions()[1](x, y))
        return _pow(x, y)


_ONE_THIRD_F = _float32(1.0 / 3.0)        # C's 1.0f / 3.0f
_F0331 = _float32(0.0331)


# --- the random stream: float64 uniforms and Box-Muller normals ---------------------------------

class _Stream:
    """Uniforms and normals from a generator, as PyTorch's samplers ask for them one by one.

    32-bit words are drawn ahead in blocks (one numpy call each); ``done()`` then sets the
    generator where the words used leave it, as if each number had been drawn alone."""

    def __init__(self, generator, function):
        if generator is not None and not isinstance(generator, _random.Generator):
            raise TypeError(f"{function}(): argument 'generator' must be torch.Generator, not "
                            f"{type_name(generator)}")
        self.generator = _random._pick(generator)
        self.before = None
        self.words, self.position, self.used, self.ahead = [], 0, 0, 64

    def _word(self):
        if self.position == len(self.words):
            if self.before is None:
                self.before = self.generator._bits.state
            self.used += len(self.words)
            self.words = self.generator._bits.random_raw(self.ahead).tolist()
            self.position, self.ahead = 0, 2 * self.ahead
        self.position += 1
        return self.words[self.position - 1]

    def uniform(self):
        """A float64 uniform in [0, 1): 53 bits of two words, the first the high half."""
        high = self._word()
        low = self._word()
        return (((high << 32) | low) & ((1 << 53) - 1)) * 2.0 ** -53

    def normal(self):
        """A standard normal: the kept partner of the last pair, or a new Box-Muller pair."""
        generator = self.generator
        if generator._next_normal is not None:
            value, generator._next_normal = generator._next_normal, None
            return value
        u1 = self.uniform()
        u2 = self.uniform()
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        angle = 2.0 * math.pi * u1
        generator._next_normal = radius * math.sin(angle)
        return radius * math.cos(angle)

    def done(self):
        """Give back the words drawn ahead and not used."""
        if self.before is not None:
            self.generator._bits.state = self.before
            self.generator.random32(self.used + self.position)


def _sample_gamma(alpha, stream, arithmetic):
    """One Gamma(alpha, 1) sample (float64, before its rounding to the dtype)."""
    round_ = arithmetic.round
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        scale *= _pow(1.0 - stream.uniform(), round_(1.0 / alpha))
        alpha = round_(alpha + 1.0)
    d = round_(alpha - _ONE_THIRD_F)
    root = _sqrt(9.0 * d)
    c = 1.0 / root if root else math.inf
    while True:
        while True:
            x = stream.normal()
            y = 1.0 + c * x
            if not y <= 0:         # (a nan y ends the loop too, as in C)
                break
        v = y * y * y
        u = 1.0 - stream.uniform()
        xx = x * x
        if u < 1.0 - _F0331 * xx * xx:
            return scale * d * v
        if _log(u) < 0.5 * xx + d * (1.0 - v + _log(v)):
            return scale * d * v


def _at_least_tiny(values, dtype):
    """C++'s std::max(smallest normal, sample): nan becomes the smallest normal too."""
    tiny = np.finfo(dtype).tiny
    return np.where(values >= tiny, values, tiny).astype(dtype)


def _check_tensor(value, function, name="input", position=1):
    if not isinstance(value, Tensor):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be Tensor, not "
                        f"{type_name(value)}")


# --- _standard_gamma and its gradient -----------------------------------------------------------

class StandardGammaBackward0(Node):
    """result = _standard_gamma(self)   ->   grad_self = grad * _standard_gamma_grad(self, result)"""

    _saved_names = ('self', 'result')      # grad_fn._saved_self, grad_fn._saved_result

    def backward(self, grad):
        alpha, sample = self.saved_tensors
        return (grad * _standard_gamma_grad(alpha, sample),)

    def jvp(self, tangents, inputs, out):
        """result_t = error: PyTorch has no forward-mode rule"""
        raise NotImplementedError(
            "Trying to use forward AD with _standard_gamma that does not support it because it has "
            "not been implemented yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/"
            "pytorch/issues/new?template=feature-request.yml so that we can prioritize its "
            "implementation or submit a PR adding the implementation to derivatives.yaml")


def _standard_gamma(input, generator=None):
    """Samples of Gamma(input, 1) (concentration ``input``, rate 1), as PyTorch's CPU draws them.

    Differentiable (StandardGammaBackward0): the reparameterised gradient
    ``_standard_gamma_grad(input, result)``."""
    _check_tensor(input, "_standard_gamma")
    stream = _Stream(generator, "_standard_gamma")
    alphas = input._array
    if alphas.dtype not in (np.float32, np.float64):
        raise kernel_not_implemented("gamma_cpu", input)
    arithmetic = _Arithmetic(alphas.dtype)
    try:
        samples = [_sample_gamma(alpha, stream, arithmetic) for alpha in alphas.reshape(-1).tolist()]
    finally:
        stream.done()
    values = np.array(samples, np.float64).astype(alphas.dtype)    # (rounded once, as C's cast)
    out = result(_at_least_tiny(values, alphas.dtype).reshape(alphas.shape), StandardGammaBackward0,
                 (input,))
    return save_result(out, input)


def _digamma_one(x, arithmetic):
    """PyTorch's digamma_one: x in the scalar type (float32 rounds), the sum kept in float64."""
    round_ = arithmetic.round
    if x == 0:
        return math.inf
    extra = 0.0
    if x < 0:
        if x == math.floor(x):
            return math.inf
        pi = round_(math.pi)
        extra = round_(-pi / round_(math.tan(round_(pi * x))))
        x = round_(1.0 - x)
    total = 0.0
    while x < 10:
        total -= round_(1.0 / x)
        x = round_(x + 1.0)
    if x == 10:
        return round_(total + 2.25175258906672110764 + extra)
    y = 0.0
    if x < _float32(1.0e17):
        z = 1.0 / round_(x * x)
        series = 0.0
        for coefficient in (8.33333333333333333333E-2, -2.10927960927960927961E-2,
                            7.57575757575757575758E-3, -4.16666666666666666667E-3,
                            3.96825396825396825397E-3, -8.33333333333333333333E-3,
                            8.33333333333333333333E-2):
            series = series * z + coefficient
        y = z * series
    return round_(total + arithmetic.log(x) - round_(0.5 / x) - y + extra)


_DOUBLE = _Arithmetic(np.float64)
_F08, _F09, _F11 = _float32(0.8), _float32(0.9), _float32(1.1)

# the rational approximation's coefficients, in u = log(x / alpha) (rows) and log(alpha)
_GAMMA_GRAD_COEFFICIENTS = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
     0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
     0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07),
)


def _as_in_c(function):
    """Run a scalar formula on Python floats, or, where one divides by zero, again on numpy
    float64 numbers, which give C's inf and nan instead of raising."""

    @functools.wraps(function)
    def with_c_division(*args):
        try:
            return function(*args)
        except ZeroDivisionError:
            with np.errstate(all="ignore"):
                return float(function(*(np.float64(a) if isinstance(a, float) else a for a in args)))
    return with_c_division


@_as_in_c
def _standard_gamma_grad_one(alpha, x):
    """d x / d alpha for a Gamma(alpha, 1) sample x, in float64 (PyTorch's standard_gamma_grad_one)."""
    if x < _F08:                 # Taylor series of the incomplete gamma function around 0
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = _pow(x, alpha)
        pdf = _pow(x, alpha - 1) * _exp(-x)
        cdf = pow_x_alpha * series1
        cdf_alpha = (_log(x) - _digamma_one(alpha, _DOUBLE)) * cdf - pow_x_alpha * series2
        value = -cdf_alpha / pdf
        return 0.0 if value != value else value
    if alpha > 8.0:              # Rice's saddle point expansion
        if _F09 * alpha <= x <= _F11 * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
                       + alpha * (107 + 3600 * x))
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return numer_1 * numer_2 / denom
        denom = _sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = _pow(x - alpha - alpha * _log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = _log(x / alpha) * term23 - _sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        numer = x * term1
        return -stirling * numer / denom
    u, v = _log(x / alpha), _log(alpha)      # a fitted rational function
    coef = [a + u * (b + u * c) for a, b, c in zip(*_GAMMA_GRAD_COEFFICIENTS)]
    p = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]))
    q = coef[4] + v * (coef[5] + v * (coef[6] + v * coef[7]))
    return _exp(p / q)


class StandardGammaGradBackward0(Node):
    """result = _standard_gamma_grad(self, output)   ->   grad_self = error: not implemented"""

    def backward(self, grad):
        raise NotImplementedError("the derivative for '_standard_gamma_grad' is not implemented.")

    def jvp(self, tangents, inputs, out):
        """result_t = error: no forward-mode rule either"""
        raise NotImplementedError(
            "Trying to use forward AD with _standard_gamma_grad that does not support it because it "
            "has not been implemented yet.\nPlease file an issue to PyTorch at https://github.com/"
            "pytorch/pytorch/issues/new?template=feature-request.yml so that we can prioritize its "
            "implementation or submit a PR adding the implementation to derivatives.yaml")


def _elementwise_inputs(tensors, names, kernel, function):
    """Check the tensors of a float kernel (same dtype, broadcastable) and broadcast them to the
    first one's shape (a larger shape resizes the result, with PyTorch's warning)."""
    for position, (value, name) in enumerate(zip(tensors, names), 1):
        _check_tensor(value, function, name, position)
    first = tensors[0]._array.dtype
    for value in tensors[1:]:
        if value._array.dtype != first:
            raise RuntimeError(f"Found dtype {scalar_type_name(from_numpy_dtype(value._array.dtype))} "
                               f"but expected {scalar_type_name(from_numpy_dtype(first))}")
    shape = tensors[0]._array.shape
    for value in tensors[1:]:
        try:
            shape = np.broadcast_shapes(shape, value._array.shape)
        except ValueError:
            raise _broadcast_error(tensors[0], value) from None
    if first not in (np.float32, np.float64):
        raise kernel_not_implemented(kernel, tensors[0])
    return shape, [np.broadcast_to(value._array, shape).reshape(-1).tolist() for value in tensors]


def _like_first(out, first, shape):
    if shape != first._array.shape:       # (PyTorch makes the result like the first input, then resizes it)
        resize_output(_wrap(np.zeros(first._array.shape, first._array.dtype)), out)
    return out


def _standard_gamma_grad(self, output):
    """d output / d self for samples ``output`` of Gamma(self, 1), elementwise (float64 inside)."""
    shape, (alphas, xs) = _elementwise_inputs((self, output), ("self", "output"),
                                              "_standard_gamma_grad_cpu", "_standard_gamma_grad")
    dtype = self._array.dtype
    values = np.array([_standard_gamma_grad_one(a, x) for a, x in zip(alphas, xs)], np.float64)
    out = result(values.astype(dtype).reshape(shape), StandardGammaGradBackward0, (self,))
    return _like_first(out, self, shape)


# --- _sample_dirichlet and its gradient ---------------------------------------------------------

class _DirichletNoDerivative(_NotImplementedBackward):
    """result = _sample_dirichlet(self) or _dirichlet_grad(x, alpha, total)   ->
        grad_self = error: PyTorch records a node that refuses to run (no derivative); grad_x = error;
        grad_alpha = error; grad_total = error"""

    _operation = "_sample_dirichlet"        # (each node names its own operation: _refusing_result)


_DirichletNoDerivative.__name__ = _DirichletNoDerivative.__qualname__ = "NotImplemented"


def _sample_dirichlet(input, generator=None):
    """Samples of Dirichlet(input) over the last dim: gamma samples in float64, each divided by
    their sum (no derivative: Dirichlet.rsample adds one with _dirichlet_grad)."""
    _check_tensor(input, "_sample_dirichlet")
    stream = _Stream(generator, "_sample_dirichlet")
    alphas = input._array
    if alphas.dtype not in (np.float32, np.float64):
        raise kernel_not_implemented("dirichlet", input)
    try:
        gammas = [_sample_gamma(alpha, stream, _DOUBLE) for alpha in alphas.reshape(-1).tolist()]
    finally:
        stream.done()
    gammas = _at_least_tiny(np.array(gammas, np.float64), np.float64).reshape(alphas.shape)
    # the sum as PyTorch's sum of a float64 tensor adds it up (minigrad's sum does the same)
    total = _wrap(gammas).sum(-1, keepdim=True)._array if gammas.ndim else gammas
    with np.errstate(all="ignore"):
        ratios = (gammas / total).astype(alphas.dtype)
    largest = np.nextafter(alphas.dtype.type(1), alphas.dtype.type(0))
    ratios = np.minimum(_at_least_tiny(ratios, alphas.dtype), largest)
    return _refusing_result(ratios, (input,) if _graph_input(input) else (), "_sample_dirichlet")


def _refusing_result(array, inputs, operation):
    """``result`` with a _DirichletNoDerivative node whose messages name ``operation`` (forward
    mode refuses inside ``result``, so the class carries the name meanwhile)."""
    _DirichletNoDerivative._operation = operation
    try:
        out = result(array, _DirichletNoDerivative, inputs)
    finally:
        _DirichletNoDerivative._operation = "_sample_dirichlet"
    if out._grad_fn is not None:
        out._grad_fn._operation = operation
    return out


def _graph_input(value):
    return value.requires_grad or _tangent_of(value) is not None


def _beta_grad_alpha_small(x, alpha, beta, arithmetic):
    """Series for x near 0 (in the scalar type)."""
    r = arithmetic.round
    factor = r(r(_digamma_one(alpha, arithmetic) - _digamma_one(r(alpha + beta), arithmetic))
               - arithmetic.log(x))
    numer = 1.0
    series = r(r(numer / alpha) * r(factor + r(1.0 / alpha)))
    for i in range(1, 11):
        numer = r(numer * r(r(r(i - beta) * x) / i))
        denom = r(alpha + i)
        series = r(series + r(r(numer / denom) * r(factor + r(1.0 / denom))))
    value = r(r(x * arithmetic.pow(r(1.0 - x), -beta)) * series)
    return 0.0 if value != value else value


def _beta_grad_beta_small(x, alpha, beta, arithmetic):
    """Series for the other concentration, x near 0 (in the scalar type)."""
    r = arithmetic.round
    factor = r(_digamma_one(r(alpha + beta), arithmetic) - _digamma_one(beta, arithmetic))
    numer, betas, dbetas, series = 1.0, 1.0, 0.0, r(factor / alpha)
    for i in range(1, 9):
        numer = r(numer * r(-x / i))
        dbetas = r(r(dbetas * r(beta - i)) + betas)
        betas = r(betas * r(beta - i))
        series = r(series + r(r(numer / r(alpha + i)) * r(dbetas + r(factor * betas))))
    value = r(-arithmetic.pow(r(1.0 - x), r(1.0 - beta)) * series)
    return 0.0 if value != value else value


def _beta_grad_alpha_mid(x, alpha, beta):
    """Saddle point expansion for two large concentrations (float64)."""
    total = alpha + beta
    mean = alpha / total
    std = _sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:       # (x = mean is a singularity of the other form)
        poly = (47 * x * (beta * beta) * (beta * beta) + alpha * (
                (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                    3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                        (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                            8 * (1 - x) * (135 * beta - 11))))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / _sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = _sqrt(2 * alpha / beta) * _pow(total, 1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * _log(alpha / (total * x))
    term3 = _sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = beta * _log(beta / (total * (1 - x))) + alpha * _log(alpha / (total * x))
    term4 = _pow(term4_base, -1.5)
    return stirling * prefactor * (term1 + term2 * (term3 + (term4 if x < mean else -term4)))


# coefficients of the rational correction: [numerator, denominator][power of log x][power of a][power of b]
_DIRICHLET_COEFFICIENTS = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))),
)


@_as_in_c
def _dirichlet_grad_one(x, alpha, total, arithmetic):
    """d x / d alpha for x of a Beta(alpha, total - alpha), over (1 - x) (PyTorch's dirichlet_grad_one)."""
    r = arithmetic.round
    beta = r(total - alpha)
    boundary = r(r(total * x) * r(1.0 - x))
    if x <= 0.5 and boundary < 2.5:
        return _beta_grad_alpha_small(x, alpha, beta, arithmetic)
    if x >= 0.5 and boundary < 0.75:
        return -_beta_grad_beta_small(r(1.0 - x), beta, alpha, arithmetic)
    if alpha > 6 and beta > 6:
        return _beta_grad_alpha_mid(x, alpha, total - alpha)
    u = _log(x)
    a = _log(alpha) - u
    b = _log(total) - a
    powers_u, powers_a = (1.0, u, u * u), (1.0, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = powers_u[i] * powers_a[j]
            c0, c1 = _DIRICHLET_COEFFICIENTS[0][i][j], _DIRICHLET_COEFFICIENTS[1][i][j]
            p += ua * (c0[0] + b * (c0[1] + b * (c0[2] + b * c0[3])))
            q += ua * (c1[0] + b * (c1[1] + b * (c1[2] + b * c1[3])))
    # (the two digammas are of the scalar type, and so is their difference)
    difference = r(_digamma_one(r(total), arithmetic) - _digamma_one(alpha, arithmetic))
    approx = x * difference / (total - alpha)
    return p / q * approx


def _dirichlet_grad(x, alpha, total):
    """The reparameterised gradient of Dirichlet samples ``x`` with respect to ``alpha`` (each
    coordinate as a Beta(alpha, total - alpha) one), elementwise. No derivative of its own."""
    shape, (xs, alphas, totals) = _elementwise_inputs((x, alpha, total), ("x", "alpha", "total"),
                                                      "_dirichlet_grad_cpu", "_dirichlet_grad")
    dtype = x._array.dtype
    arithmetic = _Arithmetic(dtype)
    values = np.array([_dirichlet_grad_one(*args, arithmetic) for args in zip(xs, alphas, totals)],
                      np.float64)
    out = _refusing_result(values.astype(dtype).reshape(shape), tuple(t for t in (x, alpha, total)
                                                                      if _graph_input(t)), "_dirichlet_grad")
    return _like_first(out, x, shape)
