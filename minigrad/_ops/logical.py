"""Logical operations: not, and, or, xor of the truth of each element (non-zero is True).

They answer with bool tensors and are never recorded, like comparisons. ``~mask`` is
``mask.logical_not()`` for a bool mask; PyTorch's message for ``-mask`` points learners here.
"""
import numpy as np

from .._tensor import Tensor
from . import plain_output
from .pointwise import _broadcast_error, laid_out_as_pytorch, pytorch_steps_of


def logical_not(input):
    """True where ``input`` is 0 (or False). Never recorded."""
    array = input._array
    out = np.asarray(np.logical_not(array))      # (numpy answers a 0-d array with a numpy scalar)
    return plain_output(laid_out_as_pytorch(out, array), input)


def _logical(name, ufunc, input, other):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    a, b = input._array, other._array
    try:
        out = np.asarray(ufunc(a, b))
    except ValueError:
        raise _broadcast_error(input, other) from None
    a, b = pytorch_steps_of(input, a), pytorch_steps_of(other, b)
    return plain_output(laid_out_as_pytorch(out, a, b), input, other)


def logical_and(input, other):
    """True where both ``input`` and ``other`` are non-zero. Never recorded."""
    return _logical("logical_and", np.logical_and, input, other)


def logical_or(input, other):
    """True where ``input`` or ``other`` (or both) is non-zero. Never recorded."""
    return _logical("logical_or", np.logical_or, input, other)


def logical_xor(input, other):
    """True where exactly one of ``input`` and ``other`` is non-zero. Never recorded."""
    return _logical("logical_xor", np.logical_xor, input, other)
