"""gcd and lcm: the greatest common divisor and the least common multiple of integers.

gcd(a, b) is the largest integer dividing both (gcd(0, 0) = 0), never negative but where
an input is the dtype's smallest number (below); lcm(a, b) = |a / gcd(a, b) * b| (0 if either
is 0). Both follow PyTorch's kernel, which is C++ arithmetic on the elements: int8, int16 and
uint8 are widened to C's int for every step and wrap only when the result is stored (int8
lcm(-127, 2) is |-254| = 254, stored as -2), int32 and int64 wrap at every step (int64
lcm(2**62, 3) is |3 * 2**62| wrapped). Both need two integer tensors (no numbers, no bools,
no floats) and are never recorded: integers have no gradient.
"""
import numpy as np

from .._type_names import type_name
from .._dtype import result_type
from .._tensor import Tensor
from . import plain_output
from .bitwise import _kernel_error, binary_method, binary_method_in_place
from .pointwise import _binary, check_shapes_fit


def _integer_pair(name, input, other, position=2):
    """The common dtype of two integer tensors, with PyTorch's errors for anything else."""
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not "
                        f"{type_name(other)}")
    dtype = result_type(input, other)
    if dtype.kind not in "iu":
        check_shapes_fit(input, other)
        raise _kernel_error(f"{name.rstrip('_')}_cpu", dtype)     # (gcd_ too runs gcd_cpu)
    return dtype


def _gcd_array(a, b):
    with np.errstate(over="ignore"):      # (gcd of the smallest int64 and 0 is itself, as in C)
        divisor = np.gcd(a, b)
    if a.dtype.kind != "i":
        return divisor
    # PyTorch's Euclid starts from |a| and |b| in the dtype, and |-128| is -128 in int8 (the
    # smallest number of each signed dtype has no positive twin): from there C's remainders,
    # which keep the dividend's sign, end on a negative divisor (int8 gcd(-128, 6) is -2)
    smallest = np.iinfo(a.dtype).min
    at_smallest = (a == smallest) | (b == smallest)
    if not at_smallest.any():
        return divisor
    a, b, divisor = (np.array(x) for x in np.broadcast_arrays(a, b, divisor))
    divisor[at_smallest] = _euclid_as_in_c(a[at_smallest], b[at_smallest])
    return divisor


def _euclid_as_in_c(a, b):
    """gcd as PyTorch's C++ loop computes it: start from |a| and |b| (wrapped), then while a is
    not 0 replace (a, b) by (b % a, a), with C's remainder (the dividend's sign: np.fmod)."""
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        a, b = np.abs(a), np.abs(b)
        while (a != 0).any():
            going = a != 0
            a[going], b[going] = np.fmod(b[going], a[going]), a[going]
    return b


def _lcm_array(a, b):
    divisor = _gcd_array(a, b)
    # C widens int8, int16 and uint8 to int before it computes (so nothing wraps until the
    # result is stored); int32 and int64 wrap at every step. The division is exact (the divisor
    # divides a), so numpy's floor division gives C's truncated one.
    dtype = a.dtype
    wide = np.int64 if dtype.itemsize < 4 else dtype
    a, b, divisor = (x.astype(wide, copy=False) for x in (a, b, divisor))
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        multiple = np.abs(a // np.where(divisor == 0, 1, divisor) * b)
    return np.where(divisor == 0, 0, multiple).astype(dtype, copy=False)


def _elementwise(name, function, input, other, position=2):
    dtype = _integer_pair(name, input, other, position)
    def in_common_dtype(a, b):
        return function(np.asarray(a).astype(dtype, copy=False), np.asarray(b).astype(dtype, copy=False))
    return plain_output(_binary(in_common_dtype, input, other), input, other)


def gcd(input, other):
    """The greatest common divisor of each pair of integers (0 for 0 and 0). Never recorded."""
    return _elementwise("gcd", _gcd_array, input, other)


def lcm(input, other):
    """The least common multiple of each pair of integers (0 if one is 0). Never recorded."""
    return _elementwise("lcm", _lcm_array, input, other)


def _method(name, function):
    return binary_method(name, lambda self, other: _elementwise(name, function, self, other, position=1),
                         f"``{name}(self, other)`` as a method.")


def _in_place(name, function):
    return binary_method_in_place(
        name, lambda self, other: _elementwise(name + "_", function, self, other, position=1))


METHODS = {"gcd": _method("gcd", _gcd_array), "lcm": _method("lcm", _lcm_array),
           "gcd_": _in_place("gcd", _gcd_array), "lcm_": _in_place("lcm", _lcm_array)}
gcd_, lcm_ = METHODS["gcd_"], METHODS["lcm_"]
