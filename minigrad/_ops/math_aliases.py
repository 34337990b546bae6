"""Other names PyTorch gives existing operations, and a few tiny ones built on them.

* ``positive(x)`` is x itself (unary +); ``signbit(x)``: True where the sign bit is set (-0.0 too).
* ``true_divide`` is ``div``; ``greater``, ``less``, ``not_equal``, ... are ``gt``, ``lt``, ``ne``, ...
  (torch.eq(x, y) is x == y: a bool tensor, never recorded).
* In-place comparisons ``x.gt_(y)``, ``x.eq_(y)``, ...: x becomes 1 where the comparison holds,
  0 elsewhere, in x's own dtype. Recorded (GtBackward0, ...) with a gradient of zeros: the
  answer does not change when x changes a little.
"""
import numpy as np

from .._type_names import type_name
from .._tensor import Tensor, _wrap
from ..autograd.graph import Node
from ..autograd.kernel_writes import kernel_writes
from . import plain_output, result
from .pointwise import compare, div, like_its_input


def positive(input):
    """``input`` itself (unary plus); PyTorch refuses it for bool tensors."""
    if input._array.dtype.kind == "b":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def signbit(input):
    """True where the sign bit of ``input`` is set: negative numbers and -0.0. Never recorded."""
    array = input._array
    out = plain_output(like_its_input(np.asarray(np.signbit(array)), array), input)
    return kernel_writes("signbit", out, input)


def true_divide(input, other):
    """The same as ``div``: input / other, true division (ints give floats)."""
    return div(input, other)


def _comparison(ufunc, name):
    def comparison(input, other):
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type_name(input)}")
        return compare(ufunc, input, other)
    comparison.__name__ = comparison.__qualname__ = name
    comparison.__doc__ = f"input {_SYMBOLS[name]} other elementwise: a bool tensor (never recorded)."
    return comparison


_UFUNCS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
           "gt": np.greater, "ge": np.greater_equal}
_SYMBOLS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
eq, ne, lt, le, gt, ge = (_comparison(_UFUNCS[name], name) for name in _UFUNCS)
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne


# --- comparisons in place: x.gt_(0) ------------------------------------------------------------

class _ComparisonBackward:
    """What the in-place comparisons' nodes share (each is also a Node): a gradient of zeros
    for self (and for other, if it is a tensor)."""

    def backward(self, grad):
        zeros = _zeroed(grad.shape, grad._array.dtype)
        if len(self._next_nrs) == 1:
            return (zeros,)
        return zeros, _zeroed(self.other_shape, grad._array.dtype)

    def jvp(self, tangents, inputs, out):
        """result_t = 0"""
        return _wrap(np.zeros(out.shape, dtype=out._array.dtype))


def _zeroed(shape, dtype):
    """PyTorch's zeros_like: new memory zeroed in place, so the gradient is at version 1."""
    zeros = _wrap(np.zeros(shape, dtype=dtype))
    zeros._version_counter[0] = 1
    return zeros


_NODES = {}
for _name in _UFUNCS:
    for _overload in (0, 1):       # 0: other a number, 1: other a tensor (PyTorch's numbering)
        _node = type(f"{_name.capitalize()}Backward{_overload}", (_ComparisonBackward, Node), {
            "__doc__": f"result = (self {_SYMBOLS[_name]} other) in self's dtype   ->   grad_self = 0",
            "__module__": __name__})
        globals()[_node.__name__] = _NODES[_name, _overload] = _node
del _name, _overload, _node


def _compared_in_place(name):
    def method(self, other):
        from .inplace import (apply_inplace, check_inplace, elementwise_in_loop_order,  # (inplace.py
                              overlaps_itself, refuse_partial_overlap, _overlaps,       # builds on this
                              _reads_its_own_writes)                                    # package)
        check_inplace(self, overlap_ok=True, others=(other,))    # autograd's rules come first
        refuse_partial_overlap(self, other)

        def operation(t, *given):
            answer = compare(_UFUNCS[name], t, given[0] if given else other)
            if answer.shape != t.shape:      # x.gt_(y) can't grow x
                raise RuntimeError(f"output with shape {list(t.shape)} doesn't match the broadcast "
                                   f"shape {list(answer.shape)}")
            values = answer._array.astype(t._array.dtype)
            if isinstance(other, Tensor):
                return result(values, _NODES[name, 1], (t, other), other_shape=other.shape)
            return result(values, _NODES[name, 0], (t,))
        others = (other,) if isinstance(other, Tensor) else ()
        if (overlaps_itself(self._array) and not _overlaps(self._array)) or (
                others and _reads_its_own_writes(self, other)):
            # windows that overlap, or other a view of self that isn't dense (x.lt_(x[..., :1])):
            # a location is compared once per position, in loop order, reading what was written
            return elementwise_in_loop_order(self, operation, others)
        return apply_inplace(self, operation, *others)
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = (f"In place: self becomes 1 where self {_SYMBOLS[name]} other, 0 elsewhere "
                      "(in self's dtype). Gradient: zeros.")
    return method


METHODS = {name + "_": _compared_in_place(name) for name in _UFUNCS}
METHODS.update(greater_=METHODS["gt_"], greater_equal_=METHODS["ge_"], less_=METHODS["lt_"],
               less_equal_=METHODS["le_"], not_equal_=METHODS["ne_"])


def polygamma_method(self, n):
    """``x.polygamma(n)`` is ``torch.polygamma(n, x)``: the n-th derivative of digamma."""
    from .gamma import polygamma
    return polygamma(n, self)


def keyword_only_method(function, name, positional):
    """``function`` as a Tensor method whose settings (value=, beta=, alpha=) are keywords only,
    with PyTorch's TypeError when one is given by position (x.addcmul(a, b, 2)): PyTorch does
    not count self among the positional arguments, as Python would."""
    def method(self, *args, **kwargs):
        if len(args) > positional:
            raise TypeError(f"{name}() takes {positional} positional arguments but {len(args)} were given")
        return function(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = function.__doc__
    return method
