"""``Parameter``: a tensor that a Module counts as one of its learnable weights.

A Parameter is an ordinary leaf tensor with ``requires_grad=True``. The only
thing special about it is its type: when you write ``self.weight = Parameter(...)``
inside a Module, the Module sees the type and adds the tensor to
``parameters()``, which is the list an optimizer updates.
(PyTorch: torch/nn/parameter.py.)
"""
from .._tensor import Tensor, _wrap
from .._creation import empty


class Parameter(Tensor):
    """A leaf tensor that requires grad and that a Module registers as a parameter.

    ``Parameter(data)`` shares ``data``'s memory (no copy), as in PyTorch.
    Results of operations on a Parameter are plain tensors.
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            # PyTorch calls data.detach() first; anything else fails right there
            raise AttributeError(
                f"'{type(data).__name__}' object has no attribute 'detach'\nminigrad hint: "
                f"Parameter() takes a tensor, e.g. Parameter(minigrad.tensor(...))")
        param = Tensor.__new__(cls)
        param._array = data._array                    # the same memory as data
        param._requires_grad = False
        param._grad_fn = None
        param._output_nr = 0
        param._grad = None
        param._version_counter = data._version_counter
        param.requires_grad = requires_grad            # checks the dtype can require grad
        return param

    def __init__(self, data=None, requires_grad=True):
        pass                                           # everything happened in __new__

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo):
        copy = Parameter(_wrap(self._array.copy()), self.requires_grad)
        if self._grad is not None:
            copy._grad = _wrap(self._grad._array.copy())
        memo[id(self)] = copy
        return copy

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self._array.copy(), self.requires_grad))


def _rebuild_parameter(array, requires_grad):
    return Parameter(_wrap(array), requires_grad)


class _BufferMeta(type):
    """``isinstance(t, Buffer)`` is True for a tensor made by ``Buffer(...)`` (a plain tensor
    marked ``_is_buffer``), as in PyTorch."""

    def __instancecheck__(cls, instance):
        if cls is Buffer and isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that a Module keeps as state but does not train (BatchNorm's running mean):
    ``self.mask = Buffer(t)`` registers it as a buffer, as ``register_buffer`` does.
    ``persistent=False`` leaves it out of ``state_dict``.

    ``Buffer(data)`` gives ``data`` detached (sharing its memory), marked as a buffer.
    """

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = empty(0)
        tensor = data.detach().requires_grad_(data.requires_grad)
        tensor.persistent = persistent
        tensor._is_buffer = True
        return tensor
