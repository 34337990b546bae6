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
import warnings

import numpy as np

from .. import random as _random
from .._fused_multiply_add import fma64
from .._warnings import stacklevel_outside_minigrad
from .._dtype import cpp_type_name, from_numpy_dtype
from .inplace import _FillBackward, _fill, check_inplace
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
    return _random.in_memory_order(values, tensor._array.shape, tensor._array.strides)


def _uniforms(tensor, generator):
    return _random._uniform01(_random._pick(generator), tensor._array.size, np.float64)


def _stored(values, dtype):
    """float64 samples stored in ``dtype``: C++ makes a float16 from a double through a float
    (two roundings, which can differ from one)."""
    if dtype == np.float16:
        values = values.astype(np.float32)
    return values.astype(dtype)


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """In place: fill with samples of the Cauchy distribution (a bell with very heavy tails)."""
    check_inplace(self, overlap_ok=True)     # (autograd's rules first, as in PyTorch)
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={float(sigma):g}")
    if self._array.dtype.kind != "f":
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {cpp_type_name(self.dtype)}")
    check_inplace(self)                      # (then memory seen twice: an expanded tensor)
    u = _uniforms(self, generator)
    values = median + sigma * np.tan(math.pi * (u - 0.5))
    return _fill(self, _stored(_in_memory_order(self, values), self._array.dtype), CauchyBackward0)


def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """In place: fill with exp of normal samples of ``mean`` and ``std`` (their logarithm is normal)."""
    check_inplace(self, overlap_ok=True)     # (autograd's rules first, as in PyTorch)
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={float(std):g}")
    check_inplace(self)                      # (memory seen twice, before the dtype)
    if self._array.dtype.kind != "f":
        raise kernel_not_implemented("log_normal_cpu", self)
    z = _random._single_normals(_random._pick(generator), self._array.size)
    values = np.exp(fma64(z, std, mean))     # (z * std + mean: one fused step)
    return _fill(self, _stored(_in_memory_order(self, values), self._array.dtype), LogNormalBackward0)


def geometric_(self, p, *, generator=None):
    """In place: fill with the number of trials (of success probability ``p``) up to the first success."""
    check_inplace(self, overlap_ok=True)     # (autograd's rules first, as in PyTorch)
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={float(p):g}")
    check_inplace(self)                      # (memory seen twice, before the dtype)
    if self._array.dtype.kind == "b":
        raise kernel_not_implemented("geometric_cpu", self)
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


def _mantissa_digits(dtype):
    return {2: 11, 4: 24, 8: 53}[dtype.itemsize]


def _as_float_and_back(value, dtype):
    """``value`` (an int) stored in the float dtype and read back as an int (None if it does
    not fit at all)."""
    with np.errstate(over="ignore"):
        stored = dtype.type(value)
    return int(stored) if np.isfinite(stored) else None


def _representable_from(low, dtype):
    """PyTorch's first value for a float dtype: where ``low + 1`` rounds down in the dtype, the
    next number the dtype holds above it (so that every value drawn can be stored)."""
    rounded = _as_float_and_back(low + 1, dtype)
    if rounded is not None and rounded < low:
        return rounded + (1 << (abs(low + 1).bit_length() - 1 - _mantissa_digits(dtype) + 1))
    return low


def _representable_to(high, dtype):
    """PyTorch's end for a float dtype: where ``high - 1`` rounds up in the dtype, the number
    below it that the dtype holds."""
    rounded = _as_float_and_back(high - 1, dtype)
    if rounded is not None and rounded >= high:
        return rounded - (1 << (abs(high - 1).bit_length() - 1 - _mantissa_digits(dtype) + 1))
    return high


def _check_in_range(low, high_inclusive, dtype):
    """PyTorch's checks of the bounds: both must fit in the dtype; for floats, a warning past
    the integers the dtype holds exactly (2**24 for float32)."""
    name = cpp_type_name(from_numpy_dtype(dtype))
    if dtype.kind == "f":
        smallest, largest = float(np.finfo(dtype).min), float(np.finfo(dtype).max)
    elif dtype.kind == "b":
        smallest, largest = 0, 1
    else:
        smallest, largest = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    for value, what in ((low, "from"), (high_inclusive, "to - 1")):
        if not smallest <= value <= largest:
            raise RuntimeError(f"{what} is out of bounds for {name}")
    if dtype.kind == "f":
        digits = _mantissa_digits(dtype)
        for value, what, line in ((low, "from", 110), (high_inclusive, "to - 1", 111)):
            if not -(1 << digits) <= value <= 1 << digits:
                warnings.warn(
                    f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {name} can support discrete uniform distribution only within "
                    "this range. This warning will become an error in version 1.7 release, please "
                    "fix the code in advance (Triggered internally at "
                    f"/__w/pytorch/pytorch/aten/src/ATen/native/DistributionTemplates.h:{line}.)",
                    stacklevel=stacklevel_outside_minigrad())


_NOT_GIVEN = object()       # random_(5) (to=5) is not random_(5, None) (from 5 to the top)


def random_(self, from_=None, to=_NOT_GIVEN, *, generator=None, **keywords):
    """In place: fill with integers drawn uniformly from [from, to) (``random_(to)``: from 0;
    ``random_()``, ``random_(from, None)``: up to the largest integer the dtype holds exactly)."""
    if "from" in keywords:       # (``from`` is a Python keyword: only ``**{"from": 3}`` passes it)
        from_ = keywords.pop("from")
    if keywords:
        raise TypeError(f"random_() got an unexpected keyword argument '{next(iter(keywords))}'")
    if from_ is None and to not in (None, _NOT_GIVEN):      # random_(to=9) is random_(9)
        from_, to = to, _NOT_GIVEN
    check_inplace(self)          # (autograd's rules, then memory seen twice, before the bounds)
    generator = _random._pick(generator)
    dtype = self._array.dtype
    n = self._array.size
    if to is None and from_ == -2 ** 63:
        # the whole int64 range: one 64-bit draw per element, read as a signed integer
        if dtype not in (np.int64, np.float64, np.float32):
            raise RuntimeError("random_full_64_bits_range_kernel_cpu handles only int64, double, "
                               "float and bfloat16")
        values = generator.random64(n).view(np.int64)
        return _fill(self, _in_memory_order(self, values).astype(dtype), RandomBackward0)
    if from_ is None and to in (None, _NOT_GIVEN):
        node, bits = RandomBackward2, (64 if dtype in (np.float64, np.int64) else 32)
        draws = generator.random64(n) if bits == 64 else generator.random32(n)
        values = draws % np.uint64(_largest_exact(dtype) + 1)
    else:
        if to is None:
            node, low = RandomBackward0, from_
            # random_(from, None): up to the largest integer the dtype holds exactly, included
            high_inclusive = _largest_exact(dtype)
            if dtype.kind == "f":
                low = _representable_from(low, dtype)
            _check_in_range(low, high_inclusive, dtype)     # (before comparing the two, as PyTorch)
            if not low <= high_inclusive:
                raise RuntimeError("random_ expects 'from' casted to dtype to be less than or equal to "
                                   f"'to_inc' casted to dtype, but got from={low} > to_inc={high_inclusive}")
            high = high_inclusive + 1
        else:
            if to is _NOT_GIVEN:
                node, low, high = RandomBackward1, 0, from_
            else:
                node, low, high = RandomBackward0, from_, to
            if not low < high:
                raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
            if dtype.kind == "f":
                low, high = _representable_from(low, dtype), _representable_to(high, dtype)
                if not low < high:
                    raise RuntimeError("random_ expects 'from' casted to dtype to be less than 'to' casted "
                                       f"to dtype, but got from={low} >= to={high}")
        _check_in_range(low, high - 1, dtype)
        values = _random.integers((n,), low, high, generator)
    if dtype.kind == "b":
        values = values & np.uint64(1) if values.dtype == np.uint64 else values
    return _fill(self, _in_memory_order(self, np.asarray(values)).astype(dtype), node)


METHODS = {"cauchy_": cauchy_, "log_normal_": log_normal_, "geometric_": geometric_, "random_": random_}
