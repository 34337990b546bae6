"""x.cauchy_(), x.log_normal_(), x.geometric_(p), x.random_(): more in-place random draws.

Each is PyTorch's CPU kernel: one draw after another from the generator's stream, in the
order the elements lie in memory, each turned into a sample in float64 and then stored in the
tensor's dtype, so that the same seed gives PyTorch's numbers:

* cauchy_:     median + sigma * tan(pi * (u - 0.5)),  u uniform in [0, 1) (53 random bits)
* log_normal_: exp(mean + std * z),  z standard normal (Box-Muller, as ``normal``)
* geometric_:  ceil(log(u) / log1p(-p)): the number of trials up to the first success
* random_:     an integer drawn from [from, to) (without bounds: every integer the dtype holds
  exactly: up to 2**24 for float32, 2**53 for float64, the largest value for integers)

The gradient of the old values is 0 (the new values do not depend on them).
"""
import math

import numpy as np

from .. import random as _random
from .._dtype import cpp_type_name
from .inplace import _FillBackward, _fill
from .pointwise import kernel_not_implemented


class CauchyBackward0(_FillBackward):
    """result = self.cauchy_(median, sigma)   ->   grad_self = 0"""


class LogNormalBackward0(_FillBackward):
    """result = self.log_normal_(mean, std)   ->   grad_self = 0"""


class GeometricBackward0(_FillBackward):
    """result = self.geometric_(p)   ->   grad_self = 0"""


class RandomBackward0(_FillBackward):
    """result = self.random_(from, to)   ->   grad_self = 0"""


class RandomBackward1(_FillBackward):
    """result = self.random_(to)   ->   grad_self = 0"""


class RandomBackward2(_FillBackward):
    """result = self.random_()   ->   grad_self = 0"""


def _in_memory_order(tensor, values):
    """``values`` (drawn one after another) placed in the elements in the order they lie in memory."""
    array = tensor._array
    shape, strides = array.shape, array.strides
    axes = sorted(range(len(shape)), key=lambda axis: -abs(strides[axis]))
    return values.reshape([shape[axis] for axis in axes]).transpose(np.argsort(axes))


def _uniforms(tensor, generator):
    return _random._uniform01(_random._pick(generator), tensor._array.size, np.float64)


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """In place: fill with samples of the Cauchy distribution (a bell with very heavy tails)."""
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={float(sigma):g}")
    if self._array.dtype.kind != "f":
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {cpp_type_name(self.dtype)}")
    u = _uniforms(self, generator)
    values = median + sigma * np.tan(math.pi * (u - 0.5))
    return _fill(self, _in_memory_order(self, values).astype(self._array.dtype), CauchyBackward0)


def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """In place: fill with exp of normal samples of ``mean`` and ``std`` (their logarithm is normal)."""
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={float(std):g}")
    if self._array.dtype.kind != "f":
        raise kernel_not_implemented("log_normal_cpu", self)
    z = _random._single_normals(_random._pick(generator), self._array.size)
    values = np.exp(z * std + mean)
    return _fill(self, _in_memory_order(self, values).astype(self._array.dtype), LogNormalBackward0)


def geometric_(self, p, *, generator=None):
    """In place: fill with the number of trials (of success probability ``p``) up to the first success."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={float(p):g}")
    u = _uniforms(self, generator)
    with np.errstate(divide="ignore"):
        values = np.ceil(np.log(u) / math.log1p(-p))
    return _fill(self, _in_memory_order(self, values).astype(self._array.dtype), GeometricBackward0)


def _largest_exact(dtype):
    """How far random_() without bounds draws: every integer the dtype holds exactly."""
    if dtype.kind == "f":
        return 2 ** {2: 11, 4: 24, 8: 53}[dtype.itemsize]
    if dtype.kind == "b":
        return 1
    return int(np.iinfo(dtype).max)


def random_(self, from_=None, to=None, *, generator=None):
    """In place: fill with integers drawn uniformly from [from, to) (``random_(to)``: from 0;
    ``random_()``: from 0 to the largest integer the dtype holds exactly)."""
    generator = _random._pick(generator)
    dtype = self._array.dtype
    n = self._array.size
    if from_ is None and to is None:
        node, bits = RandomBackward2, (64 if dtype in (np.float64, np.int64) else 32)
        draws = generator.random64(n) if bits == 64 else generator.random32(n)
        span = _largest_exact(dtype) + (1 if dtype.kind in "fb" or dtype == np.int64 else 1)
        values = draws % np.uint64(span)
    else:
        if to is None:
            node, low, high = RandomBackward1, 0, from_
        else:
            node, low, high = RandomBackward0, from_, to
        if not low < high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        span = high - low
        draws = generator.random64(n) if span >= 2 ** 32 else generator.random32(n)
        values = (draws % np.uint64(span)).astype(np.int64) + low
    if dtype.kind == "b":
        values = values & np.uint64(1) if values.dtype == np.uint64 else values
    return _fill(self, _in_memory_order(self, np.asarray(values)).astype(dtype), node)


METHODS = {"cauchy_": cauchy_, "log_normal_": log_normal_, "geometric_": geometric_, "random_": random_}
