"""torch.poisson(rates) and torch.binomial(count, prob): random counts, as PyTorch's CPU draws them.

(PyTorch: aten/src/ATen/native/Distributions.cpp and Distributions.h.)

Each element is sampled in turn (in row-major order) from uniform float64 numbers of the
generator's stream (53 random bits each, see minigrad/random.py), in float64:

* poisson, rate below 10: multiply uniforms until the product falls to exp(-rate) or below;
  the sample is how many uniforms came before that last one (0 for a rate of 0).
* poisson, rate 10 or more: Hoermann's transformed rejection (PTRS), two uniforms a try.
* binomial, count * p below 10 (p taken as its complement 1 - p when p > 1/2, the sample
  then counted from count): inversion, adding geometric waiting times ceil(log(u) / log1p(-p))
  until they pass count.
* binomial, count * p of 10 or more: Hoermann's BTRS, two uniforms a try (with PyTorch's bound,
  which compares log(v * alpha / (a / us**2 + b)) with Stirling's approximation).

A rate that is not finite, as PyTorch's int64 cast of it, gives the smallest int64.
poisson's gradient is 0 (PoissonBackward0); binomial's node refuses to run (NotImplemented).
"""
import builtins
import functools
import math

import numpy as np

from .._type_names import type_name
from .. import random as _random
from .._tensor import Tensor, _wrap
from .._dtype import scalar_type_name, from_numpy_dtype
from .._out import resize_output
from ..autograd.forward_ad import _tangent_of
from . import result
from .inplace import _FillBackward
from .pointwise import _broadcast_error, kernel_not_implemented
from .rounding import _NotImplementedBackward


class PoissonBackward0(_FillBackward):
    """result = poisson(self)   ->   grad_self = 0"""


class _BinomialBackward(_NotImplementedBackward):
    """result = binomial(count, prob)   ->
        grad_count = error: PyTorch records a node that refuses to run (no derivative)"""

    _operation = "binomial"


_BinomialBackward.__name__ = _BinomialBackward.__qualname__ = "NotImplemented"


class _Uniforms:
    """Uniform float64 numbers in [0, 1) from a generator, one at a time as the samplers ask.

    They are drawn ahead in blocks (one numpy call each); ``done()`` then puts the generator
    where the numbers used leave it, as if each had been drawn alone: its state from before,
    moved on by exactly those draws."""

    def __init__(self, generator, function, expected=16):
        if generator is not None and not isinstance(generator, _random.Generator):
            raise TypeError(f"{function}(): argument 'generator' must be torch.Generator, not "
                            f"{type_name(generator)}")
        self.generator = _random._pick(generator)
        self.before = None
        self.block, self.position, self.used, self.ahead = [], 0, 0, builtins.max(expected, 16)

    def __call__(self):
        if self.position == len(self.block):
            if self.before is None:
                self.before = self.generator._bits.state
            self.used += len(self.block)
            self.block = _random._uniform01(self.generator, self.ahead, np.float64).tolist()
            self.position, self.ahead = 0, 2 * self.ahead
        self.position += 1
        return self.block[self.position - 1]

    def done(self):
        """Give back the numbers drawn ahead and not used."""
        if self.before is not None:
            self.generator._bits.state = self.before
            self.generator.random64(self.used + self.position)


@functools.cache
def _c_lgamma():
    """The C library's lgamma (Python's math.lgamma is its own and differs in the last bits,
    which a large rate's rejection test can see)."""
    import ctypes        # lazy: only rates of 10 or more need it
    import ctypes.util

    function = ctypes.CDLL(ctypes.util.find_library("m") or None).lgamma
    function.restype, function.argtypes = ctypes.c_double, [ctypes.c_double]
    return function


def _as_int64(value):
    """C++'s cast of a double to int64 on x86: out of range (or nan) gives the smallest int64."""
    if math.isfinite(value) and -2.0 ** 63 <= value < 2.0 ** 63:
        return int(value)
    return -2 ** 63


def _poisson_sample(rate, uniform):
    if not rate >= 0:      # (checked element by element: the ones before have drawn their numbers)
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    if rate >= 10:
        root, log_rate = math.sqrt(rate), math.log(rate)
        b = 0.931 + 2.53 * root
        a = -0.059 + 0.02483 * b
        inverse_alpha = 1.1239 + 1.1328 / (b - 3.4)
        v_r = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = uniform() - 0.5
            v = uniform()
            us = 0.5 - abs(u)
            # (k stays a float64 in the tests, as PyTorch's compiled code keeps it: a rate beyond
            # int64 is only cast, to the smallest int64, when returned)
            k = float(math.floor((2 * a / us + b) * u + rate + 0.43)) if math.isfinite(rate) else rate
            if us >= 0.07 and v <= v_r:
                return _as_int64(k)
            if k < 0 or (us < 0.013 and v > us):
                continue
            if (math.log(v) + math.log(inverse_alpha) - math.log(a / (us * us) + b)
                    <= -rate + k * log_rate - _c_lgamma()(k + 1.0)):
                return _as_int64(k)
    if rate == 0:
        return 0
    limit, product, count = math.exp(-rate), 1.0, 0
    while True:
        product *= uniform()
        if product <= limit:
            return count
        count += 1


def poisson(input, generator=None):
    """Counts drawn from Poisson distributions of rates ``input`` (PoissonBackward0: gradient 0)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"poisson(): argument 'input' (position 1) must be Tensor, not {type_name(input)}")
    uniform = _Uniforms(generator, "poisson", 3 * input._array.size)
    rates = input._array
    if rates.dtype.kind != "f":
        raise kernel_not_implemented("poisson_cpu", input)
    flat = np.ascontiguousarray(rates).reshape(-1).astype(np.float64)
    try:
        samples = np.array([_poisson_sample(float(rate), uniform) for rate in flat], np.float64)
    finally:                   # (also after a rate refused: the draws before it were made)
        uniform.done()
    return result(samples.astype(rates.dtype).reshape(rates.shape), PoissonBackward0, (input,))


_STIRLING_TAILS = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                   0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                   0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k):
    """log(k!) less Stirling's approximation of it (a table up to 9, then its series)."""
    if k <= 9:
        return _STIRLING_TAILS[int(k)]
    square = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / square) / square) / (k + 1)


# The samplers work in float64, but PyTorch computes what involves count, p and k alone in their
# own dtype: ``rounded`` rounds such a value to float32 for float32 tensors (identity for float64).

def _binomial_inversion(count, p, uniform, rounded):
    log_q = _c_log1pf()(-p) if rounded is _float32 else math.log1p(-p)
    total, successes = 0.0, 0
    while True:
        total += math.ceil(math.log(uniform()) / log_q)
        if total > count:
            return successes
        successes += 1


def _btrs(count, p, uniform, rounded):
    deviation = math.sqrt(rounded(rounded(count * p) * rounded(1 - p)))
    b = 1.15 + 2.53 * deviation
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = rounded(count * p) + 0.5
    v_r = 0.92 - 4.2 / b
    r = rounded(p / rounded(1 - p))
    alpha = (2.83 + 5.1 / b) * deviation
    m = math.floor(rounded(rounded(count + 1) * p))
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = rounded(float(math.floor((2 * a / us + b) * u + c)))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        rest = rounded(count - k)                 # (count - k, in count's dtype)
        bound = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
                 + rounded(count + 1) * math.log((count - m + 1) / rounded(rest + 1))
                 + (k + 0.5) * math.log(r * rounded(rest + 1) / rounded(k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m) - _stirling_tail(k) - _stirling_tail(rest))
        if v <= bound:
            return k


def _float32(value):
    return float(np.float32(value))


def _float64(value):
    return value


@functools.cache
def _c_log1pf():
    """The C library's float32 log1p (PyTorch's std::log1p of a float)."""
    import ctypes
    import ctypes.util

    function = ctypes.CDLL(ctypes.util.find_library("m") or None).log1pf
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return function


def _binomial_sample(count, p, uniform, rounded):
    if count <= 0.0 or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return count
    if p <= 0.5:
        sampler = _btrs if rounded(count * p) >= 10.0 else _binomial_inversion
        return sampler(count, p, uniform, rounded)
    if p > 0.5:
        q = rounded(1.0 - p)
        sampler = _btrs if rounded(count * q) >= 10.0 else _binomial_inversion
        return rounded(count - sampler(count, q, uniform, rounded))
    return math.nan


def binomial(count, prob, generator=None):
    """Numbers of successes out of ``count`` trials of probability ``prob`` each (its node refuses
    backward: PyTorch has no derivative for it)."""
    for name, position, value in (("count", 1, count), ("prob", 2, prob)):
        if not isinstance(value, Tensor):
            raise TypeError(f"binomial(): argument '{name}' (position {position}) must be Tensor, not "
                            f"{type_name(value)}")
    uniform = _Uniforms(generator, "binomial", 3 * builtins.max(count._array.size, prob._array.size))
    counts, probs = count._array, prob._array
    for name, array in (("count", counts), ("prob", probs)):
        if array.dtype.kind != "f":
            raise ValueError(f"binomial only supports floating-point dtypes for {name}, got: "
                             f"{scalar_type_name(from_numpy_dtype(array.dtype))}")
    if probs.dtype != counts.dtype:
        raise RuntimeError(f"Found dtype {scalar_type_name(from_numpy_dtype(probs.dtype))} but expected "
                           f"{scalar_type_name(from_numpy_dtype(counts.dtype))}")
    try:
        shape = np.broadcast_shapes(counts.shape, probs.shape)
    except ValueError:
        raise _broadcast_error(count, prob) from None
    if counts.dtype == np.float16:
        raise kernel_not_implemented("binomial_cpu", count)
    flat_counts = np.broadcast_to(counts, shape).reshape(-1).astype(np.float64)
    flat_probs = np.broadcast_to(probs, shape).reshape(-1).astype(np.float64)
    rounded = _float64 if counts.dtype == np.float64 else _float32
    try:
        samples = np.array([_binomial_sample(float(n), float(p), uniform, rounded)
                            for n, p in zip(flat_counts, flat_probs)], np.float64)
    finally:
        uniform.done()
    # (the node has edges to the inputs that require grad only; forward mode refuses dual inputs)
    out = result(samples.astype(counts.dtype).reshape(shape), _BinomialBackward,
                 tuple(t for t in (count, prob) if t.requires_grad or _tangent_of(t) is not None))
    if shape != counts.shape:         # (PyTorch makes the result like count, then resizes it: it warns)
        like_count = _wrap(np.zeros(counts.shape, counts.dtype))
        resize_output(like_count, out)
    return out
