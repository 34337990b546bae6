"""``Variable``: the name tensors had before PyTorch 0.4, kept so old code still runs.

Today every tensor can record its history, so ``Variable(t, requires_grad=True)``
simply returns a new leaf sharing ``t``'s memory (``t.detach()`` with
``requires_grad`` set), and ``isinstance(t, Variable)`` is true for any tensor.
(PyTorch: torch/autograd/variable.py.)
"""
import warnings
from .._tensor import Tensor


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """Deprecated: ``Variable(t, requires_grad=...)`` returns a tensor (see the module docstring)."""

    def __new__(cls, data, requires_grad=False, volatile=False):
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                          "instead.", UserWarning, stacklevel=2)
        out = data.detach()
        if requires_grad:
            out.requires_grad_(True)
        return out
