"""Bitwise operations on integer and bool tensors: and, or, xor, not, and the two shifts.

    x & y   bitwise_and      x << y   bitwise_left_shift
    x | y   bitwise_or       x >> y   bitwise_right_shift
    x ^ y   bitwise_xor      ~x       bitwise_not

They work on the bits of each integer (on True/False for bool tensors, where they are the
logical operations), so PyTorch has them only for integer and bool dtypes: a float
operand is refused by the kernel (NotImplementedError). Integers are not differentiable,
so nothing here is ever recorded.

Both operands are first brought to their common dtype (the usual type promotion: int8 and
int32 give int32; a Python int next to a uint8 tensor stays uint8 and wraps around, as in
C). A shift by a negative amount or by at least the number of bits of the dtype does what
PyTorch's kernel does: 0 for a left shift, and for a right shift the sign (0 or -1) of a
signed number, 0 for an unsigned one.
"""
import numpy as np

from .._dtype import result_type
from .._tensor import Tensor, _wrap
from .._python_arg_parser import invalid_combination
from . import plain_output
from .pointwise import _binary, check_shapes_fit, kernel_not_implemented, laid_out_as_pytorch

_NUMBERS = (bool, int, float, np.number, np.bool_)


def _kernel_error(kernel, dtype):
    """PyTorch's NotImplementedError of ``kernel`` for ``dtype`` (a numpy dtype)."""
    return kernel_not_implemented(kernel, _wrap(np.empty(0, dtype)))


def _check_operands(name, input, other, method=False):
    """Tensors and numbers only, at least one tensor (``bitwise_and(2, x)`` is allowed)."""
    if method:
        if not isinstance(other, (Tensor, *_NUMBERS)):
            raise invalid_combination(name, (other,), {})
    elif not (isinstance(input, Tensor) and isinstance(other, (Tensor, *_NUMBERS))
              or isinstance(input, _NUMBERS) and isinstance(other, Tensor)):
        raise invalid_combination(name, (input, other), {})


def _elementwise(kernel, function, input, other, allow_bool=True):
    """``function(a, b)`` on the arrays of ``input`` and ``other`` in their common dtype."""
    dtype = result_type(input, other)
    if dtype.kind == "f" or (dtype.kind == "b" and not allow_bool):
        check_shapes_fit(input, other)
        raise _kernel_error(kernel, dtype)

    def in_common_dtype(a, b):
        # (numbers wrap around into the dtype: 300 & a uint8 tensor is 44 & it, as in C)
        return function(np.asarray(a).astype(dtype, copy=False), np.asarray(b).astype(dtype, copy=False))
    return plain_output(_binary(in_common_dtype, input, other), input, other)


def _shift_left(a, shift):
    """a << shift, 0 where shift is negative or at least the number of bits."""
    bits = a.dtype.itemsize * 8
    signed_shift = shift.astype(np.dtype(f"i{a.dtype.itemsize}"), copy=False)   # (uint8 200 is -56)
    inside = (signed_shift >= 0) & (signed_shift < bits)
    shifted = np.left_shift(a, np.where(inside, shift, 0).astype(a.dtype, copy=False))
    return np.where(inside, shifted, a.dtype.type(0)).astype(a.dtype, copy=False)


def _shift_right(a, shift):
    """a >> shift; a shift that is negative or at least the number of bits leaves only the sign
    (a >> (bits - 1): 0 or -1 for signed numbers, 0 for unsigned ones)."""
    bits = a.dtype.itemsize * 8
    signed_shift = shift.astype(np.dtype(f"i{a.dtype.itemsize}"), copy=False)
    inside = (signed_shift >= 0) & (signed_shift < bits)
    shifted = np.right_shift(a, np.where(inside, shift, 0).astype(a.dtype, copy=False))
    sign_only = np.right_shift(a, a.dtype.type(bits - 1)) if a.dtype.kind == "i" else a.dtype.type(0)
    return np.where(inside, shifted, sign_only).astype(a.dtype, copy=False)


def bitwise_and(input, other):
    """The bits set in both ``input`` and ``other`` (logical and for bool tensors). Never recorded."""
    _check_operands("bitwise_and", input, other)
    return _elementwise("bitwise_and_cpu", np.bitwise_and, input, other)


def bitwise_or(input, other):
    """The bits set in ``input`` or ``other`` (logical or for bool tensors). Never recorded."""
    _check_operands("bitwise_or", input, other)
    return _elementwise("bitwise_or_cpu", np.bitwise_or, input, other)


def bitwise_xor(input, other):
    """The bits set in exactly one of ``input`` and ``other``. Never recorded."""
    _check_operands("bitwise_xor", input, other)
    return _elementwise("bitwise_xor_cpu", np.bitwise_xor, input, other)


def bitwise_left_shift(input, other):
    """``input`` shifted left by ``other`` bits (input * 2 ** other, wrapping around the dtype).
    Not for bool tensors. Never recorded."""
    _check_operands("bitwise_left_shift", input, other)
    return _elementwise("lshift_cpu", _shift_left, input, other, allow_bool=False)


def bitwise_right_shift(input, other):
    """``input`` shifted right by ``other`` bits (floor(input / 2 ** other)). Not for bool
    tensors. Never recorded."""
    _check_operands("bitwise_right_shift", input, other)
    return _elementwise("rshift_cpu", _shift_right, input, other, allow_bool=False)


def bitwise_not(input):
    """Every bit flipped (-x - 1 for signed integers, not x for bools). Never recorded."""
    array = input._array
    if array.dtype.kind == "f":
        raise _kernel_error("bitwise_not_cpu", array.dtype)
    flipped = np.logical_not(array) if array.dtype.kind == "b" else np.invert(array)
    return plain_output(laid_out_as_pytorch(np.asarray(flipped), array), input)


# --- as Tensor methods and operators -----------------------------------------------------------

_FUNCTIONS = {"bitwise_and": bitwise_and, "bitwise_or": bitwise_or, "bitwise_xor": bitwise_xor,
              "bitwise_left_shift": bitwise_left_shift, "bitwise_right_shift": bitwise_right_shift}


def _method(name):
    function = _FUNCTIONS[name]

    def method(self, other):
        _check_operands(name, self, other, method=True)
        return function(self, other)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = function.__doc__
    return method


def check_castable(name, tensor, other):
    """An in-place result is written in ``tensor``'s dtype: PyTorch refuses first a result type
    that does not fit (a float into an integer tensor, an integer into a bool one), after shapes
    that don't broadcast or an ``other`` that broadcasts ``tensor`` to a larger shape (its loop
    settles the shape first)."""
    from .inplace import check_result_fits      # (inplace.py builds on this package)
    shape = tensor._array.shape
    if isinstance(other, Tensor):
        check_shapes_fit(tensor, other)
        shape = np.broadcast_shapes(tensor._array.shape, other._array.shape)
    check_result_fits(tensor, shape, result_type(tensor, other))


def binary_method(name, compute, doc):
    """A Tensor method ``self.name(other)`` that returns ``compute(self, other)``."""
    def method(self, other):
        return compute(self, other)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = doc
    return method


def binary_method_in_place(name, compute):
    """The in-place Tensor method ``self.name_(other)``: self becomes ``compute(self, other)``,
    in self's dtype (a tensor ``other`` whose result type does not fit is refused first)."""
    def method(self, other):
        from .inplace import (apply_inplace, check_inplace, refuse_if_old_values_needed,    # (inplace.py
                              refuse_partial_overlap)                                      # builds on this package)
        others = (other,) if isinstance(other, Tensor) else ()
        check_inplace(self, others=others)                                       # autograd's rules first,
        refuse_if_old_values_needed(self, lambda t, *_: compute(t, other), others)   # its copy of self too
        refuse_partial_overlap(self, other)
        if isinstance(other, Tensor):
            check_castable(name + "_", self, other)
        return apply_inplace(self, lambda t, *_: compute(t, other), *others)
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In-place ``{name}``: self becomes {name}(self, other), in self's dtype."
    return method


def _method_in_place(name):
    function = _FUNCTIONS[name]

    def method(self, other):
        from .inplace import apply_inplace, check_inplace, refuse_partial_overlap    # (inplace.py builds on this package)
        _check_operands(name + "_", self, other, method=True)
        check_inplace(self, others=(other,) if isinstance(other, Tensor) else ())   # (autograd's rules first)
        refuse_partial_overlap(self, other)
        check_castable(name + "_", self, other)
        return apply_inplace(self, lambda t, *_: function(t, other),
                             *((other,) if isinstance(other, Tensor) else ()))
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In-place ``{name}``: self becomes {name}(self, other), in self's dtype."
    return method


def bitwise_not_(self):
    """In-place ``bitwise_not``: every bit of self flipped."""
    from .inplace import apply_inplace
    return apply_inplace(self, bitwise_not)


def _invert(self):
    """``~x``: bitwise_not for integer and bool tensors (for a bool mask: logical not)."""
    if self._array.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return bitwise_not(self)


def _operator(function, reflected=False):
    """``function`` as a Python operator: other operand types (a str, ...) get NotImplemented,
    so Python raises its usual TypeError; the reflected form (2 << x) puts the number first."""
    def operator(self, other):
        if not isinstance(other, (Tensor, *_NUMBERS)):
            return NotImplemented
        return function(other, self) if reflected else function(self, other)
    operator.__name__ = operator.__qualname__ = function.__name__
    operator.__doc__ = function.__doc__
    return operator


METHODS = {
    **{name: _method(name) for name in _FUNCTIONS},
    **{name + "_": _method_in_place(name) for name in _FUNCTIONS},
    "bitwise_not": bitwise_not, "bitwise_not_": bitwise_not_,
    "__invert__": _invert,
}
for _symbol, _name in (("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"),
                       ("lshift", "bitwise_left_shift"), ("rshift", "bitwise_right_shift")):
    METHODS[f"__{_symbol}__"] = _operator(_FUNCTIONS[_name])
    METHODS[f"__r{_symbol}__"] = _operator(_FUNCTIONS[_name], reflected=True)
    METHODS[f"__i{_symbol}__"] = METHODS[_name + "_"]
del _symbol, _name
