"""Finding and replacing the numbers that are not finite: nan, inf and -inf.

* ``isnan``, ``isinf``, ``isfinite``, ``isposinf``, ``isneginf`` answer a question about
  each element with a bool tensor. Like comparisons they are never recorded: a yes/no
  answer has no useful gradient. Integer and bool tensors hold only finite numbers,
  so the answers there are all False (all True for ``isfinite``).
* ``nan_to_num`` replaces nan by 0 (or ``nan=``), inf by the largest finite number of the
  dtype (or ``posinf=``) and -inf by the smallest (or ``neginf=``). Its gradient lets
  through what passed unchanged: grad where the input was finite, 0 where it was replaced.

A learner meets them when a loss turns into nan: ``torch.isnan(loss)`` tells which
elements went wrong, ``x.isfinite().all()`` is the usual guard in a training loop.
"""
import numpy as np

from .._type_names import type_name
from .._tensor import _wrap
from ..autograd.graph import Node
from . import plain_output, result
from .pointwise import laid_out_as_pytorch
from .views import check_history_kept
from .._memory_format import empty_laid_out_like, with_pytorch_steps
from ..autograd.kernel_writes import kernel_writes


def _answer(question, input):
    """A bool tensor from ``question`` (a numpy test of each element), never recorded."""
    array = input._array
    out = np.asarray(question(array))      # (numpy answers a 0-d array with a numpy scalar)
    if out.ndim > 1 and not array.flags.c_contiguous:
        out = laid_out_as_pytorch(out, array)      # (numpy's layout may differ in size-1 dims)
    return plain_output(out, input)


def _all_false(array):
    return np.zeros(array.shape, dtype=bool)


def _known_answer(answer, input):
    """Integer and bool tensors hold only finite numbers, so PyTorch answers without looking:
    a new bool tensor filled with ``answer`` (zeros_like/ones_like, an in-place fill that
    counts a version for inference tensors: see autograd/kernel_writes.py)."""
    fill = _all_false if not answer else (lambda array: np.ones(array.shape, dtype=bool))
    return kernel_writes("filled_like", _answer(fill, input), input)


def isnan(input):
    """True where ``input`` is nan (not a number). Never recorded."""
    return _answer(np.isnan if input._array.dtype.kind == "f" else _all_false, input)


def isinf(input):
    """True where ``input`` is inf or -inf. Never recorded."""
    if input._array.dtype.kind == "f":
        return _answer(np.isinf, input)
    return _known_answer(False, input)


def isposinf(input):
    """True where ``input`` is inf (not -inf). Never recorded."""
    if input._array.dtype.kind == "f":
        return _answer(np.isposinf, input)
    return _known_answer(False, input)


def isneginf(input):
    """True where ``input`` is -inf. Never recorded."""
    if input._array.dtype.kind == "f":
        return _answer(np.isneginf, input)
    return _known_answer(False, input)


def isfinite(input):
    """True where ``input`` is an ordinary number (neither nan, inf nor -inf). Never recorded."""
    if input._array.dtype.kind == "f":
        # PyTorch's isfinite of floats is ``(x == x) * (x.abs() != inf)``, and abs, a recorded
        # operation, first looks up x's history: a view whose history was lost raises
        check_history_kept(input)
        return _answer(np.isfinite, input)
    return _known_answer(True, input)


# --- nan_to_num -------------------------------------------------------------------------------

class NanToNumBackward0(Node):
    """result = self with nan, inf, -inf replaced by numbers   ->
        grad_self = grad * isfinite(self)

    A replaced element is a constant, so no gradient reaches it; the others passed
    through unchanged (slope 1)."""

    _saved_names = ("self",)        # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (grad * isfinite(x),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * isfinite(self)"""
        return tangents[0] * isfinite(inputs[0])


def _replacement(name, value):
    """nan=, posinf=, neginf= as a Python float (None: the default), with PyTorch's TypeError."""
    if value is None:
        return None
    if isinstance(value, (int, float, np.number, np.bool_)):
        return float(value)
    if hasattr(value, "_array") and value._array.size == 1:   # a one-element tensor counts too
        return float(value._array)
    raise TypeError(f"nan_to_num(): argument '{name}' must be float, not {type_name(value)}")


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """``input`` with nan replaced by ``nan`` (0.0), inf by ``posinf`` and -inf by ``neginf``
    (by default the largest and smallest finite numbers of the dtype).

    Gradient: grad where the input was finite, 0 where an element was replaced.
    """
    nan, posinf, neginf = (_replacement("nan", nan), _replacement("posinf", posinf),
                           _replacement("neginf", neginf))
    array = input._array
    if array.dtype.kind != "f":             # integers and bools have nothing to replace
        return kernel_writes("nan_to_num", result(array.copy(), NanToNumBackward0, (input,), saved=(input,)), input)
    # a replacement too large for the dtype becomes inf, as PyTorch's cast does
    with np.errstate(over="ignore"):
        out = np.asarray(np.nan_to_num(array, nan=0.0 if nan is None else nan, posinf=posinf,
                                       neginf=neginf))
    if out.strides != array.strides:
        # PyTorch's nan_to_num writes into empty_like(input): its very steps when it is dense
        laid_out = empty_laid_out_like(with_pytorch_steps(input), out.dtype)
        laid_out[...] = out
        out = laid_out
    return kernel_writes("nan_to_num", result(out, NanToNumBackward0, (input,), saved=(input,)), input)


def nan_to_num_(input, nan=0.0, posinf=None, neginf=None):
    """``nan_to_num`` written into ``input`` itself (recorded as NanToNumBackward0 too)."""
    from .inplace import apply_inplace       # (inplace.py builds on the files of this package)
    nan, posinf, neginf = (_replacement("nan", nan), _replacement("posinf", posinf),
                           _replacement("neginf", neginf))
    if input._array.dtype.kind not in "fc" and not input.requires_grad:
        # integers and bools hold no nan or inf: PyTorch copies the tensor onto itself, which
        # counts a version and, copying nothing, is fine for an expanded tensor too (one with
        # history, from an in-place comparison, is refused as by any recorded change)
        return input.copy_(input)
    return apply_inplace(input, lambda t: nan_to_num(t, nan, posinf, neginf))
