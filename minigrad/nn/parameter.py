"""``Parameter``: a tensor that a Module counts as one of its learnable weights.

A Parameter is an ordinary leaf tensor with ``requires_grad=True``. The only
thing special about it is its type: when you write ``self.weight = Parameter(...)``
inside a Module, the Module sees the type and adds the tensor to
``parameters()``, which is the list an optimizer updates.
(PyTorch: torch/nn/parameter.py.)
"""
import inspect

from .._tensor import Tensor, _wrap, device as _device, check_cpu_device
from .._creation import empty
from .._python_arg_parser import TENSOR_TYPES


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
        if requires_grad and data._array.dtype.kind not in "fc":
            # (PyTorch's _make_subclass words it with a capital letter, unlike the setter)
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        param.requires_grad = requires_grad
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


# torch.X(parameter, ...) passes the argument parser's cheap look as a tensor does
TENSOR_TYPES.add(Parameter)


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


# --- parameters and buffers whose shape is not known yet (lazy modules) ------------------------

_SHAPE_UNKNOWN = (
    "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
    "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
    "`forward` to initialize the parameters before accessing their attributes.")

# What an uninitialized tensor still allows, as in PyTorch: its size (torch.Size([0])), copying
# into it, dtype questions and conversions (so ``model.double()`` works before the first forward)
_ALLOWED_METHODS = frozenset((
    "size", "copy_", "is_complex", "is_floating_point", "half", "float", "double", "char", "short",
    "int", "long", "cuda", "cpu", "to", "get_device"))

# Python's operators and built-in functions (len, iter, format...) on an uninitialized tensor,
# each under the name PyTorch's error gives what they call: a C method of TensorBase ("add"), or
# a Python function of PyTorch's Tensor class ("Tensor.__rsub__", shown with its address)
_OPERATOR_NAMES = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub", "__isub__": "sub_",
    "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_", "__truediv__": "div", "__itruediv__": "div_",
    "__matmul__": "matmul", "__neg__": "neg", "__abs__": "abs", "__gt__": "gt", "__lt__": "lt",
    "__ge__": "ge", "__le__": "le", "__eq__": "__eq__", "__ne__": "ne", "__mod__": "remainder",
    "__and__": "__and__", "__or__": "__or__", "__xor__": "__xor__", "__invert__": "__invert__",
    "__bool__": "__bool__", "__float__": "__float__", "__int__": "__int__", "__index__": "__index__",
    "__iter__": "dim",
    "__pow__": "function TensorBase.pow", "__rsub__": "function Tensor.__rsub__",
    "__rtruediv__": "function Tensor.__rdiv__", "__rpow__": "function Tensor.__rpow__",
    "__rmatmul__": "function Tensor.__rmatmul__", "__floordiv__": "function Tensor.__floordiv__",
    "__rfloordiv__": "function Tensor.__rfloordiv__", "__rmod__": "function Tensor.__rmod__",
    "__len__": "function Tensor.__len__", "__format__": "function Tensor.__format__",
    "__contains__": "function Tensor.__contains__", "__array__": "function Tensor.__array__",
    "__reversed__": "function Tensor.__reversed__",
    "__getitem__": "slot wrapper __getitem__", "__setitem__": "slot wrapper __setitem__",
    "__rand__": "__and__", "__ror__": "__or__", "__rxor__": "__xor__",
}
# x - w with x a tensor: Python asks w.__rsub__ first (w's class is a subclass of x's), where
# PyTorch's error names x's own operator
_WHEN_LEFT_IS_A_TENSOR = {"__rsub__": "sub", "__rtruediv__": "div", "__rmatmul__": "matmul",
                          "__rpow__": "function TensorBase.pow", "__rfloordiv__": "function Tensor.__floordiv__",
                          "__rmod__": "remainder"}


def _shown_as_pytorch(name, address):
    """How PyTorch's error prints the function it was refused in (``address``: one of ours)."""
    if name.startswith("function "):
        return f"<{name} at {hex(address)}>"
    if name.startswith("slot wrapper "):
        return f"<slot wrapper '{name.split()[-1]}' of 'torch._C.TensorBase' objects>"
    return f"<method '{name}' of 'torch._C.TensorBase' objects>"


def uninitialized_error(shown, tensor):
    """PyTorch's ValueError for an uninitialized ``tensor`` given to the function ``shown``."""
    return ValueError(
        f"Attempted to use an uninitialized parameter in {shown}. This error happens when you are "
        f"using a `LazyModule` or explicitly manipulating `torch.nn.parameter.{type(tensor).__name__}` "
        "objects. When using LazyModules Call `forward` with a dummy batch to initialize the "
        "parameters before calling torch functions")


def _refusing(method_name, when_left_is_a_tensor=None):
    """A method that raises PyTorch's error for an uninitialized parameter or buffer."""

    def refuse(self, *args, **kwargs):
        name = method_name
        if when_left_is_a_tensor is not None and args and isinstance(args[0], Tensor):
            name = when_left_is_a_tensor
        raise uninitialized_error(_shown_as_pytorch(name, id(refuse)), self)

    refuse.__name__ = method_name.split()[-1].split(".")[-1]
    refuse.__doc__ = "Not allowed before the tensor is materialized (raises ValueError)."
    return refuse


def refuse_uninitialized(shown, args, kwargs):
    """Raise PyTorch's error if an uninitialized tensor is among the arguments (or in a list of
    them) of the function ``shown`` (called by the functions' argument checks once one exists)."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, UninitializedTensorMixin):
                    raise uninitialized_error(shown, item)
        elif isinstance(value, UninitializedTensorMixin):
            raise uninitialized_error(shown, value)


class UninitializedTensorMixin:
    """What UninitializedParameter and UninitializedBuffer share: a tensor with no shape yet.

    It holds an empty array only to remember its dtype. Almost every tensor method raises
    PyTorch's ValueError until ``materialize(shape)`` gives it memory and turns it into a plain
    Parameter (or Tensor).
    """

    __slots__ = ()
    cls_to_become = None
    _methods_blocked = False

    def materialize(self, shape, device=None, dtype=None):
        """Give the tensor uninitialized memory of ``shape`` (in its dtype, or ``dtype``) and turn
        it into a ``cls_to_become`` (Parameter or Tensor), in place."""
        if device is not None:
            check_cpu_device(_device(device))     # only the CPU exists here
        if dtype is None:
            dtype = self.dtype
        self.data = empty(shape, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        """Unknown until the first forward: raises RuntimeError, as in PyTorch."""
        raise RuntimeError(_SHAPE_UNKNOWN)

    def share_memory_(self):
        """Not possible before the tensor is materialized (raises RuntimeError)."""
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to initialize "
            "the parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        return (type(self), (self.requires_grad,))

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, None, self.dtype)
        return memo[id(self)]


def _block_tensor_methods():
    """Put a refusing method on the mixin for every public Tensor method that is not allowed.

    Done when the first uninitialized tensor is made: by then every module of minigrad has added
    its methods to Tensor."""
    if UninitializedTensorMixin._methods_blocked:
        return
    for name in dir(Tensor):
        if name.startswith("_") or name in _ALLOWED_METHODS or name in vars(UninitializedTensorMixin):
            continue
        value = inspect.getattr_static(Tensor, name)
        if callable(value) and not isinstance(value, (property, type, staticmethod, classmethod)):
            setattr(UninitializedTensorMixin, name, _refusing(name))
    for name, torch_name in _OPERATOR_NAMES.items():
        setattr(UninitializedTensorMixin, name, _refusing(torch_name, _WHEN_LEFT_IS_A_TENSOR.get(name)))
    UninitializedTensorMixin.__hash__ = Tensor.__hash__      # (defining __eq__ would drop it)
    # the functions check their arguments too from now on (none pays for it before)
    from .. import _python_arg_parser
    _python_arg_parser.refuse_uninitialized = refuse_uninitialized
    from .functional import check_for_uninitialized
    check_for_uninitialized()
    UninitializedTensorMixin._methods_blocked = True


def is_lazy(param):
    """True for an ``UninitializedParameter`` or ``UninitializedBuffer`` (a shape not known yet)."""
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter whose shape is not known yet: what a Lazy layer holds before its first forward.

    Printing it shows ``<UninitializedParameter>``; ``materialize(shape)`` (done by the layer's
    first forward) turns it into an ordinary Parameter.
    """

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        if device is not None:
            check_cpu_device(_device(device))
        _block_tensor_methods()
        return Parameter.__new__(cls, empty(0, dtype=dtype), requires_grad)

    def __init__(self, requires_grad=True, device=None, dtype=None):
        pass                                           # everything happened in __new__


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is not known yet (a LazyBatchNorm's running statistics);
    ``materialize(shape)`` turns it into a plain tensor."""

    __slots__ = ()
    cls_to_become = Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        if device is not None:
            check_cpu_device(_device(device))
        _block_tensor_methods()
        buffer = Tensor.__new__(cls)
        data = empty(0, dtype=dtype)
        buffer._array = data._array
        buffer._requires_grad = False
        buffer._grad_fn = None
        buffer._output_nr = 0
        buffer._grad = None
        buffer._version_counter = data._version_counter
        buffer.requires_grad = requires_grad
        buffer.persistent = persistent
        buffer._is_buffer = True
        return buffer

    def __init__(self, requires_grad=False, device=None, dtype=None, persistent=True):
        pass                                           # everything happened in __new__
