"""gcd and lcm: the greatest common divisor and the least common multiple of integers.

gcd(a, b) is the largest integer dividing both (gcd(0, 0) = 0), never negative;
lcm(a, b) = |a / gcd(a, b) * b| (0 if either is 0), computed in the inputs' dtype, so it
wraps around where the true value does not fit (lcm of int8 100 and 3 is 300 - 256 = 44), as
PyTorch's kernel does. Both need two integer tensors (no numbers, no bools, no floats) and
are never recorded: integers have no gradient.
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
        return np.gcd(a, b)


def _lcm_array(a, b):
    divisor = _gcd_array(a, b)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        multiple = np.abs(a // np.where(divisor == 0, 1, divisor) * b)    # (wraps as in C)
    return np.where(divisor == 0, a.dtype.type(0), multiple).astype(a.dtype, copy=False)


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
