"""The typed tensor classes of old PyTorch code: FloatTensor, LongTensor, DoubleTensor, ...

Before ``torch.tensor(data, dtype=...)`` existed, a tensor of a dtype was made with the class
named after it: ``torch.LongTensor([1, 2])``, ``torch.FloatTensor(2, 3)``. Tutorials still use
them, so minigrad has them too. They are not real subclasses: what they make is an ordinary
``Tensor`` (``type(x)`` is ``Tensor``), and ``isinstance(x, minigrad.FloatTensor)`` only asks
whether x's dtype is float32. ``x.type()`` names the class: ``'torch.FloatTensor'``.

Each takes what ``Tensor(...)`` takes (see _tensor.py): sizes, data (converted to its dtype),
nothing, or a tensor of its own dtype (seen through a new tensor, an alias); a tensor of
another dtype is refused, with PyTorch's message.
PyTorch: torch/csrc/tensor/python_tensor.cpp (the metaclass ``torch.tensortype``).
"""
from . import _dtype
from ._dtype import cpp_type_name
from ._tensor import (Tensor, _alias, _keep_empty_numpy_steps, _legacy_constructor_array, _wrap, device,
                      check_cpu_device)


def legacy_constructor(dtype, args, kwargs):
    """PyTorch's legacy constructor of ``dtype`` (``torch.FloatTensor(...)``, ``x.new(...)``):
    ``(2, 3)`` an uninitialized tensor of that size, ``(data)`` a tensor of ``data`` (a
    sequence), ``()`` an empty one, ``(y)`` the tensor y seen through a new tensor (y of that
    dtype)."""
    if len(args) == 1 and isinstance(args[0], Tensor) and not set(kwargs) - {"device"}:
        if kwargs.get("device") is not None:
            check_cpu_device(device(kwargs["device"]))
        return _of_a_tensor(dtype, args[0])
    made = _wrap(_legacy_constructor_array(args, kwargs, dtype))
    _keep_empty_numpy_steps(made, args)
    return made


class tensortype(type):
    """The type of FloatTensor, LongTensor, ...: calling one makes a tensor of its dtype."""

    def __call__(cls, *args, **kwargs):
        return legacy_constructor(cls.dtype, args, kwargs)

    def __instancecheck__(cls, instance):
        return isinstance(instance, Tensor) and instance.dtype is cls.dtype

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def _options(dtype):
    """How PyTorch's C++ prints the settings of a tensor of ``dtype`` (for its error)."""
    return (f"TensorOptions(dtype={cpp_type_name(dtype)}, device=cpu, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")


def _of_a_tensor(dtype, tensor):
    """FloatTensor(x): x itself seen through a new tensor, if x is float32; else an error."""
    if tensor.dtype is not dtype:
        raise TypeError(f"expected {_options(dtype)} (got {_options(tensor.dtype)})"
                        f"\nminigrad hint: convert it instead: x.to({dtype!r}).")
    return _alias(tensor)


def _tensor_class(dtype):
    return tensortype(dtype.tensor_type_name, (), {
        "dtype": dtype, "__module__": "minigrad",
        "__doc__": f"Old PyTorch's class of {dtype.name} tensors: ``{dtype.tensor_type_name}(data)`` "
                   f"or ``{dtype.tensor_type_name}(*sizes)`` makes one (see minigrad/_tensortype.py)."})


FloatTensor = _tensor_class(_dtype.float32)
DoubleTensor = _tensor_class(_dtype.float64)
HalfTensor = _tensor_class(_dtype.float16)
LongTensor = _tensor_class(_dtype.int64)
IntTensor = _tensor_class(_dtype.int32)
ShortTensor = _tensor_class(_dtype.int16)
CharTensor = _tensor_class(_dtype.int8)
ByteTensor = _tensor_class(_dtype.uint8)
BoolTensor = _tensor_class(_dtype.bool_)


tensortype.__module__ = "minigrad"        # (type(minigrad.FloatTensor) prints as PyTorch's does)
