"""The parts of a floating-point number: frexp, ldexp, nextafter.

A float is stored as mantissa * 2 ** exponent. ``frexp`` takes it apart (mantissa in
[0.5, 1) by size, exponent an int32), ``ldexp`` puts it together again (x * 2 ** e), and
``nextafter(x, y)`` is the closest float after x in the direction of y (one step of the
float grid: what "the last bit" means).

Derivatives: the mantissa is x / 2 ** exponent, a straight line while the exponent stays the
same, so grad_x = grad / 2 ** exponent; ldexp's is grad * 2 ** other to x, and, as
d/de 2 ** e = 2 ** e * log(2), grad * result * log(2) to other. nextafter moves x by one
step at most: PyTorch passes grad through to x (0 where x = y, which leaves x unchanged) and
gives y no gradient.
"""
import math

import numpy as np

from .._type_names import type_name
from .._tensor import Tensor, _wrap
from ..autograd.graph import Node, gets_gradient_edge
from . import result, plain_output, save_result, zeros_set_in_place
from .bitwise import _kernel_error
from .pointwise import (_binary, _float_ufunc, check_broadcasts_into, check_shapes_fit, like_its_input,
                        mul_by_number, pow, where)
from .reduction import return_types
from ..autograd.kernel_writes import kernel_writes
from .views import check_history_kept


class _MantissaExponent(tuple):
    """The pair (mantissa, exponent), printed as ``torch.return_types.frexp``."""

    _name = "frexp"         # (a named result: vmap rebuilds it from its parts)

    def __new__(cls, mantissa, exponent):
        return tuple.__new__(cls, (mantissa, exponent))

    @property
    def mantissa(self):
        return self[0]

    @property
    def exponent(self):
        return self[1]

    def __repr__(self):
        return f"torch.return_types.frexp(\nmantissa={self[0]!r},\nexponent={self[1]!r})"


_MantissaExponent.__name__ = _MantissaExponent.__qualname__ = "frexp"
return_types.frexp = _MantissaExponent     # (minigrad.return_types.frexp, as torch.return_types.frexp)


class FrexpBackward0(Node):
    """result = frexp(self).mantissa = self / 2 ** exponent   ->   grad_self = grad / 2 ** exponent"""

    _saved_names = ("exponent",)         # grad_fn._saved_exponent, as in PyTorch

    def backward(self, grad, grad_exponent=None):
        (exponent,) = self.saved_tensors
        return (grad / exponent.exp2(),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / 2 ** exponent"""
        (exponent,) = self.saved_tensors
        return tangents[0] / exponent.exp2()


def frexp(input):
    """``input`` as mantissa * 2 ** exponent: (mantissa, exponent), the mantissa of the input's
    dtype with 0.5 <= |mantissa| < 1 (0, inf and nan stay themselves, exponent 0), the
    exponent int32. Gradient to input: grad / 2 ** exponent."""
    array = input._array
    if array.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    mantissa, exponent = np.frexp(array)
    exponent = plain_output(like_its_input(exponent.astype(np.int32), array), input)
    mantissa = result(like_its_input(mantissa, array), FrexpBackward0, (input,), saved=(exponent,))
    return kernel_writes("frexp", _MantissaExponent(mantissa, exponent), input)


class LdexpBackward0(Node):
    """result = self * 2 ** other   ->
        grad_self = grad * 2 ** other; grad_other = grad * result * log(2)"""

    _saved_names = ("other", "result")    # grad_fn._saved_other, grad_fn._saved_result

    def backward(self, grad):
        other, out = self.saved_tensors
        return (grad * pow(2, other) if self.should_compute_output(0) else None,
                mul_by_number(grad * out, math.log(2.0)) if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * 2 ** other + other_t * result * log(2)"""
        (_, other), (self_t, other_t) = inputs, tangents
        tangent = self_t * pow(2, other)
        if other_t is None:            # (an integer exponent has no tangent)
            return tangent
        return tangent + mul_by_number(other_t * out, math.log(2.0))


def _check_other(name, other, position=2):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not "
                        f"{type_name(other)}")


def _refuse_bool_exponents(input, other, in_place=False):
    """PyTorch's kernel for a floating input has no loop for bool exponents (an integer input,
    made float32 first, goes another way); its loop compares the shapes first (in place, other
    may not broadcast input to a larger shape). Before that, autograd saves other for input's
    gradient: an inference tensor is refused first."""
    if other._array.dtype == np.bool_ and input._array.dtype.kind == "f":
        check_history_kept(input, other, saves=((1,), ()))
        (check_broadcasts_into if in_place else check_shapes_fit)(input, other)
        raise NotImplementedError("\"ldexp_cpu_exp\" not implemented for 'Bool'")


def ldexp(input, other):
    """input * 2 ** other, elementwise (integers become float32; other may be any number).

    Gradient: grad * 2 ** other to input, grad * result * log(2) to other."""
    _check_other("ldexp", other)
    _refuse_bool_exponents(input, other)
    from .._dtype import result_type
    base = input if input._array.dtype.kind == "f" else _wrap(input._array.astype(np.float32))
    dtype = result_type(base, other)
    with np.errstate(over="ignore", invalid="ignore"):     # (as PyTorch: self * pow(2, other))
        out = _binary(lambda b, e: np.multiply(b, np.power(np.asarray(2.0, dtype), np.asarray(e, dtype)),
                                               dtype=dtype), base, other, ((1,), ()))
    # (other only for self's gradient, as PyTorch saves it: when self gets an edge)
    return save_result(result(out, LdexpBackward0, (input, other)), other if gets_gradient_edge(input) else None)


def ldexp_(self, other):
    """In-place ``ldexp``: self becomes self * 2 ** other (self must be a float tensor)."""
    from .inplace import apply_inplace, check_inplace, overlaps_itself, _values_in_loop_order    # (builds on this package)
    _check_other("ldexp_", other, position=1)
    check_inplace(self, others=(other,) if isinstance(other, Tensor) else ())   # (autograd's rules first)
    if self._array.dtype.kind != "f":
        raise RuntimeError(f"ldexp can't be cast to the desired output type "
                           f"{self.dtype.tensor_type_name[:-len('Tensor')]}")
    _refuse_bool_exponents(self, other, in_place=True)
    if overlaps_itself(self._array):
        # (windows that overlap: PyTorch computes 2 ** other first, then multiplies element by
        # element in its loop order, each reading what the last write left)
        exponents = other._array if isinstance(other, Tensor) else np.asarray(other)
        try:                                # shapes that do not fit: PyTorch's message first
            shape = np.broadcast_shapes(self._array.shape, exponents.shape)
        except ValueError:
            from .pointwise import _broadcast_error
            raise _broadcast_error(self, other) from None
        dtype = self._array.dtype.type
        powers = np.broadcast_to(np.power(dtype(2), exponents.astype(dtype)), shape)
        values = _values_in_loop_order(self._array, (powers,), lambda a, p: a * p)

        def with_those_values(t, *_):
            new = ldexp(t, other)
            new._array[...] = values
            return new
        return apply_inplace(self, with_those_values, other)
    return apply_inplace(self, lambda t, *_: ldexp(t, other), other)


class NextafterBackward0(Node):
    """result = the next float after self towards other   ->
        grad_self = grad where self != other, else 0; grad_other = 0"""

    _saved_names = ("self", "other")      # grad_fn._saved_self, grad_fn._saved_other

    def backward(self, grad):
        a, b = self.saved_tensors
        grad_self = None
        if self.should_compute_output(0):       # (a and b are saved only for this gradient)
            moved = _wrap(np.broadcast_to(a._array != b._array, grad.shape))
            grad_self = where(moved, grad, _wrap(np.zeros((), dtype=grad._array.dtype)))
        return (grad_self,
                # (PyTorch's zeros_like(other): new memory zeroed in place, so at version 1)
                zeros_set_in_place(*self._other_shape_and_dtype) if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where self != other, else 0"""
        (a, b), (a_t, _) = inputs, tangents
        return a_t * _wrap((a._array != b._array).astype(a_t._array.dtype))


def nextafter(input, other):
    """The next floating-point value after ``input`` towards ``other`` (``input`` itself where
    they are equal). Float tensors only. Gradient: grad to input (0 where equal), 0 to other."""
    _check_other("nextafter", other)
    from .._dtype import result_type
    dtype = result_type(input, other)
    if dtype.kind != "f":
        check_shapes_fit(input, other)
        raise _kernel_error("nextafter_cpu", dtype)
    out = _binary(lambda a, b: np.nextafter(np.asarray(a, dtype), np.asarray(b, dtype)), input, other,
                  ((1,), ()))
    # (both are saved only for self's gradient, as PyTorch saves them: when self gets an edge)
    saved = (input, other) if gets_gradient_edge(input) else (None, None)
    out = result(out, NextafterBackward0, (input, other), saved=saved)
    if out._grad_fn is not None:        # (other's gradient, zeros, needs only its shape and dtype)
        out._grad_fn._other_shape_and_dtype = (other._array.shape, other._array.dtype)
    return out


def nextafter_(self, other):
    """In-place ``nextafter``: self becomes the next float after it towards other."""
    from .inplace import (apply_inplace, check_inplace, refuse_if_old_values_needed, refuse_partial_overlap,
                          refuse_memory_seen_twice)
    from .bitwise import check_castable
    _check_other("nextafter_", other, position=1)
    check_inplace(self, overlap_ok=True, others=(other,))    # autograd's rules come first,
    refuse_if_old_values_needed(self, nextafter, (other,))   # and its copy of self's old values
    refuse_memory_seen_twice(self)           # then the kernel's: memory self sees twice (expand),
    refuse_partial_overlap(self, other)      # memory other shares with self, and only then shapes
    # autograd saves other (for self's gradient) before the loop checks the shapes: an inference
    # tensor given as other is refused first, as by the out-of-place nextafter
    check_history_kept(self, other, saves=((1,), ()))
    check_castable("nextafter_", self, other)
    return apply_inplace(self, lambda t, *_: nextafter(t, other), other)


def _frexp_method(self):
    """``torch.frexp(self)``: (mantissa, exponent) with self = mantissa * 2 ** exponent."""
    return frexp(self)


def _ldexp_method(self, other):
    """``torch.ldexp(self, other)``: self * 2 ** other."""
    _check_other("ldexp", other, position=1)
    return ldexp(self, other)


def _nextafter_method(self, other):
    """``torch.nextafter(self, other)``: the next float after self towards other."""
    _check_other("nextafter", other, position=1)
    return nextafter(self, other)


METHODS = {"frexp": _frexp_method, "ldexp": _ldexp_method, "ldexp_": ldexp_,
           "nextafter": _nextafter_method, "nextafter_": nextafter_}
