"""The complex-number functions, on the real tensors minigrad has: angle, real, imag, conj, ...

minigrad has no complex dtype, but PyTorch code asks real tensors these questions too, and
PyTorch answers them in a fixed way that this file follows:

* ``angle(x)``: the angle of x in the complex plane: pi for negative numbers, 0 otherwise
  (nan stays nan). Its derivative is 0 (the angle only jumps, at 0).
* ``real(x)`` / ``x.real``, ``conj(x)``, ``conj_physical(x)``, ``resolve_conj(x)``,
  ``resolve_neg(x)``: a real number is its own real part and its own conjugate, so they give
  ``x`` itself (the same object, no new node).
* ``imag(x)`` / ``x.imag``: refused; a real tensor has no imaginary part to view.
* ``isreal(x)``: all True; ``is_complex``, ``is_conj``, ``is_neg``: False.
* ``is_nonzero(x)``: ``bool(x)`` of a one-element tensor.
"""
import math

import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.graph import Node
from . import result, plain_output
from .pointwise import like_its_input
from ..autograd.kernel_writes import kernel_writes


class AngleBackward0(Node):
    """result = angle(self) (pi for self < 0, else 0)   ->   grad_self = 0"""

    _saved_names = ("self",)        # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        # (unpacked, so checked for in-place changes, as in PyTorch)
        (x,) = self.saved_tensors
        # PyTorch: zeros laid out like self (not like grad), no graph
        return (_wrap(np.zeros_like(x._array, dtype=grad._array.dtype)),)

    def jvp(self, tangents, inputs, out):
        """result_t = 0"""
        return _wrap(np.zeros_like(tangents[0]._array))


def angle(input):
    """The angle of each element seen as a complex number: pi for negative numbers, 0 for the
    others, nan for nan (integers and bools give float32). Gradient: 0."""
    array = input._array
    values = array if array.dtype.kind == "f" else array.astype(np.float32)
    out = np.where(values < 0, values.dtype.type(math.pi), values.dtype.type(0))
    out = np.where(np.isnan(values), values, out)
    return result(like_its_input(out, array), AngleBackward0, (input,), saved=(input,))


def isreal(input):
    """True for each element whose imaginary part is 0: all of them, in a real tensor."""
    return kernel_writes("isreal", plain_output(np.ones(input._array.shape, dtype=bool), input), input)


def is_complex(input):
    """False: minigrad's dtypes are all real (PyTorch: True for complex64/complex128)."""
    return False


def is_conj(input):
    """False: a real tensor is never a lazily conjugated view."""
    return False


def is_neg(input):
    """False: a real tensor is never a lazily negated view."""
    return False


def conj(input):
    """The complex conjugate: a real tensor is its own, so ``input`` itself comes back."""
    return input


def resolve_conj(input):
    """``input`` with a lazy conjugation carried out: none on a real tensor, so ``input`` itself."""
    return input


def resolve_neg(input):
    """``input`` with a lazy negation carried out: none on a real tensor, so ``input`` itself."""
    return input


def conj_physical(input):
    """The conjugate, computed (not lazy): for a real tensor, ``input`` itself."""
    return input


class ConjPhysicalBackward1(Node):
    """result = conj(self) (self itself, for real numbers)   ->   grad_self = conj(grad) = grad"""

    def backward(self, grad):
        return (grad,)

    def jvp(self, tangents, inputs, out):
        """result_t = conj(self_t) = self_t"""
        return tangents[0]


def conj_physical_(self):
    """In place: self becomes its conjugate (its own values, for a real tensor); recorded as
    ConjPhysicalBackward1, as PyTorch does, with the usual in-place rules."""
    from .inplace import apply_inplace        # (inplace.py builds on the files of this package)
    # (for a real tensor PyTorch's kernel has nothing to write, so memory seen at several
    # positions, an expanded tensor, is no obstacle)
    return apply_inplace(self, lambda t: result(t._array.copy(), ConjPhysicalBackward1, (t,)), overlap_ok=True)


def real(input):
    """The real part: a real tensor is its own, so ``input`` itself comes back."""
    return input


def imag(input):
    """The imaginary part: PyTorch refuses it for real tensors (there is nothing to view)."""
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


def set_real(input, value):
    """``x.real = value``: the value copied into the real part (into ``x`` itself, for a real
    tensor); a number or a tensor, as PyTorch makes a tensor of it first."""
    from .._type_names import type_name
    if not isinstance(value, (Tensor, int, float, complex, np.number, np.bool_)):
        raise TypeError(f"can't assign a {type_name(value)} to a torch.{input.dtype.tensor_type_name}")
    input.copy_(value)


def set_imag(input, value):
    """``x.imag = value``: refused for a real tensor, whose imaginary part PyTorch does not make."""
    imag(input)


def is_nonzero(input):
    """``bool(input)`` for a tensor of exactly one element (nan counts as non-zero)."""
    size = input._array.size
    if size == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if size > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input._array.reshape(()) != 0)


METHODS = {"angle": angle, "isreal": isreal, "is_complex": is_complex, "is_conj": is_conj,
           "is_neg": is_neg, "conj": conj, "resolve_conj": resolve_conj, "resolve_neg": resolve_neg,
           "conj_physical": conj_physical, "conj_physical_": conj_physical_,
           "is_nonzero": is_nonzero,
           "real": property(real, set_real, doc="The real part: the tensor itself, for a real tensor."),
           "imag": property(imag, set_imag, doc="The imaginary part: refused for a real tensor, as in PyTorch.")}
