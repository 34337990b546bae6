"""add's and sub's other ways of taking alpha, as PyTorch's Python bindings read them.

* ``x.sub(2, y)`` and ``x.add(2, y)`` (and ``sub_``, ``add_``): an old signature, deprecated
  in PyTorch, puts alpha first, so ``x.sub(1, 2)`` is ``x - 1 * 2`` with alpha 1
  (``grad_fn._saved_alpha`` shows 1, not 2).
* ``x.subtract(1, 2)`` (and ``torch.subtract``, ``subtract_``): subtract has a signature of its
  own for a number ``other`` with alpha given by position (PyTorch's ``sub.Scalar``). Its
  node is SubBackward1, which keeps no alpha: the number takes no gradient.

With alpha given by keyword, all of them are the plain add and sub. (The functions here are
the Tensor methods, so they carry the methods' names.)
"""
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from . import result, pointwise, inplace


def _at_most_one(name, extra):
    """Python's error for a call with too many arguments by position."""
    if len(extra) > 1:
        raise TypeError(f"{name}() takes from 2 to 3 positional arguments but {len(extra) + 2} were given")


def _alpha_first(name, other, alpha_first, alpha):
    """(other, alpha) of a call that may have used the old (alpha, other) order."""
    _at_most_one(name, alpha_first)
    if not alpha_first:
        return other, alpha
    (other_given_second,) = alpha_first
    return other_given_second, pointwise.alpha_number(name, other)


def add(self, other, *alpha_first, alpha=1):
    """``self + alpha * other`` (see the module's docstring for ``x.add(alpha, other)``)."""
    other, alpha = _alpha_first("add", other, alpha_first, alpha)
    return pointwise.add(self, other, alpha)


def sub(self, other, *alpha_first, alpha=1):
    """``self - alpha * other`` (see the module's docstring for ``x.sub(alpha, other)``)."""
    other, alpha = _alpha_first("sub", other, alpha_first, alpha)
    return pointwise.sub(self, other, alpha)


def add_(self, other, *alpha_first, alpha=1):
    """``self += alpha * other`` (see the module's docstring for ``x.add_(alpha, other)``)."""
    other, alpha = _alpha_first("add_", other, alpha_first, alpha)
    return inplace.add_(self, other, alpha)


def sub_(self, other, *alpha_first, alpha=1):
    """``self -= alpha * other`` (see the module's docstring for ``x.sub_(alpha, other)``)."""
    other, alpha = _alpha_first("sub_", other, alpha_first, alpha)
    return inplace.sub_(self, other, alpha)


def _number(other):
    """A number ``other`` as subtract's number signature takes it (a 0-d tensor counts)."""
    if isinstance(other, Tensor) and other.ndim == 0:
        return other._array.item()
    return other


def _minus_number(input, number, alpha):
    """input - alpha * number, recorded as SubBackward1 (the number has no edge)."""
    with no_grad():             # (the values and checks are sub's; only the node differs)
        values = pointwise.sub(input, number, alpha)
    return result(values._array, pointwise.SubBackward1, (input,))


def subtract(input, other, *alpha_by_position, alpha=1):
    """``input - alpha * other``; ``subtract(x, number, alpha)`` records SubBackward1."""
    _at_most_one("subtract", alpha_by_position)
    if alpha_by_position and not (isinstance(other, Tensor) and other.ndim):
        return _minus_number(input, _number(other), pointwise.alpha_number("subtract", *alpha_by_position))
    return pointwise.sub(input, other, *alpha_by_position or (alpha,))


def subtract_(self, other, *alpha_by_position, alpha=1):
    """``self -= alpha * other``; ``x.subtract_(number, alpha)`` records SubBackward1."""
    _at_most_one("subtract_", alpha_by_position)
    if alpha_by_position and not (isinstance(other, Tensor) and other.ndim):
        number = _number(other)
        alpha = pointwise.alpha_number("subtract_", *alpha_by_position)
        return inplace.apply_inplace(self, lambda old: _minus_number(old, number, alpha))
    return inplace.sub_(self, other, *alpha_by_position or (alpha,))
