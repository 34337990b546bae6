"""Logical operations: not, and, or, xor of the truth of each element (non-zero is True).

They answer with bool tensors and are never recorded, like comparisons. ``~mask`` is
``mask.logical_not()`` for a bool mask; PyTorch's message for ``-mask`` points learners here.
"""
import numpy as np

from .._type_names import type_name
from .._tensor import Tensor
from . import plain_output
from .pointwise import _broadcast_error, laid_out_as_pytorch, pytorch_steps_of
from ..autograd.kernel_writes import kernel_writes


def logical_not(input):
    """True where ``input`` is 0 (or False). Never recorded."""
    array = input._array
    out = np.asarray(np.logical_not(array))      # (numpy answers a 0-d array with a numpy scalar)
    return kernel_writes("logical_not", plain_output(laid_out_as_pytorch(out, array), input), input)


def _logical(name, ufunc, input, other):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type_name(other)}")
    a, b = input._array, other._array
    try:
        out = np.asarray(ufunc(a, b))
    except ValueError:
        raise _broadcast_error(input, other) from None
    a, b = pytorch_steps_of(input, a), pytorch_steps_of(other, b)
    return kernel_writes(name, plain_output(laid_out_as_pytorch(out, a, b), input, other), input, other)


def logical_and(input, other):
    """True where both ``input`` and ``other`` are non-zero. Never recorded."""
    return _logical("logical_and", np.logical_and, input, other)


def logical_or(input, other):
    """True where ``input`` or ``other`` (or both) is non-zero. Never recorded."""
    return _logical("logical_or", np.logical_or, input, other)


def logical_xor(input, other):
    """True where exactly one of ``input`` and ``other`` is non-zero. Never recorded."""
    return _logical("logical_xor", np.logical_xor, input, other)


# --- in place: x.logical_and_(y) -------------------------------------------------------------

def _check_writable(tensor):
    """The kernel's own checks of the tensor written: inference tensors, memory seen at several
    positions (PyTorch makes them before it looks at the other operand's shape)."""
    from .inplace import check_inplace     # (inplace.py builds on the files of this package)
    from ..autograd.grad_mode import no_grad
    with no_grad():
        check_inplace(tensor)


def _written_back(tensor, answer):
    """Write the bool ``answer`` into ``tensor`` as 1 and 0 of its own dtype.

    PyTorch records nothing here (the result has no derivative) and, unlike the other
    in-place operations, does not refuse a leaf that requires grad: the tensor keeps its
    grad_fn, only its version goes up."""
    from .inplace import _write
    return _write(tensor, plain_output(answer._array.astype(tensor._array.dtype), answer))


def logical_not_(self):
    """In place: self becomes 1 where it was 0, 0 elsewhere (in its own dtype). Not recorded."""
    from .inplace import overlaps_itself, _values_in_loop_order
    _check_writable(self)
    if overlaps_itself(self._array):
        # (windows that overlap: a location seen at several positions is flipped once per
        # position, each time reading what the last write left, as PyTorch's loop does)
        flipped = _values_in_loop_order(self._array, (), lambda a: a == 0)
        return _written_back(self, plain_output(np.asarray(flipped, dtype=bool), self))
    return _written_back(self, logical_not(self))


def _logical_in_place(name, function, ufunc):
    def method(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"{name}_(): argument 'other' (position 1) must be Tensor, not "
                            f"{type_name(other)}")
        from .inplace import (refuse_partial_overlap, overlaps_itself, _reads_its_own_writes,
                              _values_in_loop_order)
        _check_writable(self)             # (PyTorch's order: self's own overlap, then other's, then shapes)
        refuse_partial_overlap(self, other)
        answer = function(self, other)
        if answer._array.shape == self._array.shape and (
                overlaps_itself(self._array) or _reads_its_own_writes(self, other)):
            # (PyTorch's loop writes each position in turn, reading what earlier writes left)
            truth = _values_in_loop_order(self._array, other._array, lambda a, b: ufunc(a != 0, b != 0))
            answer = plain_output(np.asarray(truth, dtype=bool), self)
        return _written_back(self, answer)
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = (f"In place: self becomes {name}(self, other) as 1 and 0 of self's dtype. "
                      "Not recorded (self keeps its grad_fn; only its version goes up).")
    return method


METHODS = {"logical_not_": logical_not_,
           **{name + "_": _logical_in_place(name, function, ufunc) for name, function, ufunc in (
               ("logical_and", logical_and, np.logical_and), ("logical_or", logical_or, np.logical_or),
               ("logical_xor", logical_xor, np.logical_xor))}}
