"""Checking the arguments of Tensor methods, in one place (PyTorch: python_variable_methods.cpp).

PyTorch parses ``x.sum(...)`` with the same argument parser as ``torch.sum(...)``, against the
method's own signatures (those of _tensor_signature_table.py, without ``self``), so
``x.sum('a')`` lists them and ``x.add(y, 2)`` says ``add() takes 1 positional argument but 2
were given``; a method that takes nothing (``x.exp(1)``) gets Python's own refusal. Each method
is wrapped once, when the methods are installed: a correct call passes a cheap look at its
arguments' exact types (as torch.X's do, _python_arg_parser.py) and costs little more; any
other goes through the whole parse, which raises PyTorch's TypeError, or takes it (a deprecated
signature such as ``x.add_(2, y)`` with PyTorch's warning).
"""
import functools
import inspect
import sys
import types

import numpy as np

from . import _dtype, _memory_format
from ._python_arg_parser import _cheap_looks, _looks_right, deprecated_call
from ._signatures import Signatures, _CHECKS

# methods whose PyTorch signatures minigrad does not follow yet, with the reason
NOT_PARSED = {
    "new": "the legacy constructor's storage and object parameters",
    "to": "Tensor.to parses its own arguments (to_arguments), as it needs which signature fitted",
}

# methods PyTorch parses in tensor_new.cpp and python_variable_methods.cpp, not listed with the
# others: their signatures
MORE_SIGNATURES = {
    "new_ones": ("tuple of ints size, *, torch.dtype dtype=None, torch.layout layout=None, "
                 "torch.device device=None, bool pin_memory=False, bool requires_grad=False",),
    "new_tensor": ("object data, *, torch.dtype dtype=None, torch.device device=None, "
                   "bool requires_grad=False",),
    "cpu": ("*, torch.memory_format memory_format=None",),
    # (PyTorch's Dimname forms, x.size('N'), are left out: minigrad has no named tensors)
    "size": ("int? dim=None",),
    "stride": ("int? dim=None",),
    "contiguous": ("*, torch.memory_format memory_format=torch.contiguous_format",),
    "is_contiguous": ("*, torch.memory_format memory_format=torch.contiguous_format",),
    "map_": ("Tensor other, object callable",),
    "map2_": ("Tensor x, Tensor y, object callable",),
    # (PyTorch declares indices a list of optional tensors, and refuses a None among them here)
    "index_put": ("tuple of Tensors indices, Tensor values, bool accumulate=False",),
    "index_put_": ("tuple of Tensors indices, Tensor values, bool accumulate=False",),
}


def method_signatures(name):
    """PyTorch's signatures of the method Tensor.<name>, None if not known."""
    from ._tensor_signature_table import SIGNATURES, NUMBERS_AS_TENSORS, HIDDEN, DEPRECATED
    texts = SIGNATURES.get(name) or MORE_SIGNATURES.get(name)
    if texts is None or name in NOT_PARSED:
        return None
    if any(_type_name(spec) not in _CHECKS
           for text in texts for spec in text.split(", ") if spec not in ("", "*")):
        return None
    return Signatures(name, *texts, numbers_as_tensors=name in NUMBERS_AS_TENSORS,
                      hidden=name in HIDDEN, deprecated=DEPRECATED.get(name, ()))


@functools.cache
def _to_signatures():
    from ._tensor_signature_table import SIGNATURES
    return Signatures("to", *SIGNATURES["to"], numbers_as_tensors=True)


# x.to(float): Python's number types stand for PyTorch's dtypes
_PYTHON_TYPES = {float: _dtype.float64, int: _dtype.int64, bool: _dtype.bool_}


def _number_dtype(number):
    """The dtype of the tensor PyTorch's parser makes of a Python number given for a Tensor
    (x.to(1.5) is x.to(torch.tensor(1.5, dtype=torch.float64)))."""
    kind = np.asarray(number).dtype.kind
    if kind == "c":                   # (minigrad has no complex dtypes: its own refusal)
        from ._creation import tensor
        return tensor(number).dtype
    return {"b": _dtype.bool_, "f": _dtype.float64}.get(kind, _dtype.int64)


def to_arguments(args, kwargs):
    """(dtype or None, copy, memory_format) of a call ``x.to(*args, **kwargs)``, parsed as PyTorch
    parses it (python_variable_methods.cpp's parse_to_conversion) against its three signatures:
    (device, dtype, non_blocking, copy), (dtype, non_blocking, copy), (other tensor,
    non_blocking, copy), each with a keyword-only memory_format. A number stands for a tensor
    (``x.to(1.5)`` converts to float64); a device other than the CPU gets PyTorch's error."""
    from ._tensor import Tensor, check_cpu_device
    index, values = _to_signatures().parse(args, kwargs)
    if index == 2:
        other = values["tensor"]
        dtype = other.dtype if isinstance(other, Tensor) else _number_dtype(other)
    else:
        dtype = _PYTHON_TYPES.get(values["dtype"], values["dtype"])
        check_cpu_device(values.get("device"))
    memory_format = values["memory_format"]
    if memory_format is None:
        memory_format = _memory_format.preserve_format
    return dtype, values["copy"], memory_format


_CUDA_LIBRARY_MISSING = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared "
    "libraries: a CPU library and a CUDA library; this error has occurred because you are trying to "
    "use some CUDA functionality, but the CUDA library has not been loaded by the dynamic linker for "
    "some reason.  The CUDA library MUST be loaded, EVEN IF you don't directly use any symbols from "
    "the CUDA library! One common culprit is a lack of -Wl,--no-as-needed in your link arguments; "
    "many dynamic linkers will delete dynamic library dependencies if you don't depend on any of "
    "their symbols.  You can check if this has occurred by using ldd on your binary to see if there "
    "is a dependency on *_cuda.so library.")


def dtype_of_type(value):
    """The dtype ``x.type(value)`` converts to (PyTorch: python_variable_methods.cpp's
    THPVariable_type): a dtype, a typed-tensor class (``minigrad.LongTensor``) or its full name
    (``'torch.LongTensor'``); ``Tensor`` and ``'torch.Tensor'`` mean the default dtype. Another
    class is looked up by its name (as Python's C level names it: ``'float'``,
    ``'numpy.float64'``), which no type has, so PyTorch's ValueError names it."""
    if isinstance(value, _dtype.dtype):
        return value
    if isinstance(value, type):
        from ._tensortype import tensortype
        from ._tensor import Tensor
        if isinstance(value, tensortype):
            return value.dtype
        if value is Tensor:
            return _dtype.get_default_dtype()
        heap_type = value.__flags__ & (1 << 9)      # (a class written in Python: its bare name)
        value = value.__name__ if heap_type or value.__module__ == "builtins" else (
            f"{value.__module__}.{value.__qualname__}")
    elif not isinstance(value, str):
        raise TypeError("dtype must be a type, str, or dtype object")
    if value.startswith("torch.cuda."):
        raise RuntimeError(_CUDA_LIBRARY_MISSING)
    if value == "torch.Tensor":
        return _dtype.get_default_dtype()
    for dtype in _dtype.ALL_DTYPES:
        if value == "torch." + dtype.tensor_type_name:
            return dtype
    raise ValueError(f"invalid type: '{value}'")


def _type_name(spec):
    """The type of one parameter's text, as _signatures._Parameter reads it: "int[1]? dim=None"
    is an int."""
    return spec.partition("=")[0].rpartition(" ")[0].rstrip("?").removesuffix("[1]")


def parsed_method(method, name, signatures):
    """``method`` with the arguments after self parsed as PyTorch parses Tensor.<name>."""
    looks = None     # (made at the first call, when the signatures are read: see Signatures)

    @functools.wraps(method)
    def with_parsed_arguments(self, *args, **kwargs):
        nonlocal looks
        if looks is None:
            looks = _cheap_looks(signatures, method=True, several_ints=_takes_several(method))
        if not _looks_right(looks, args, kwargs):
            args, kwargs = _parse(signatures, args, kwargs)
        return method(self, *args, **kwargs)
    with_parsed_arguments.parsed_as_pytorch = name
    return with_parsed_arguments


def _takes_several(function):
    """Does ``function`` take any number of arguments by position (view(self, *size))?"""
    return any(p.kind is p.VAR_POSITIONAL for p in inspect.signature(function).parameters.values())


def _parse(signatures, args, kwargs):
    """PyTorch's whole parse of a call that failed the cheap look: its TypeError, or the
    arguments to call the method with (a deprecated signature's as the first signature takes
    them; a lone tuple of ints given as several ints or by keyword, as one tuple by position:
    x.squeeze_(0, 1), x.reshape(shape=(2, 3)))."""
    index, values = signatures.parse(args, kwargs)
    if index >= len(signatures.signatures):
        return deprecated_call(signatures, signatures.deprecated[index - len(signatures.signatures)],
                               values, kwargs)
    if values.converted:          # (integer tensors given for ints: the method gets the ints)
        args, kwargs = values.as_called(kwargs)
    signature = signatures.signatures[index]
    if signature.varargs:
        name = signature.params[0].name
        if name in kwargs:
            kwargs = dict(kwargs)
            args = (kwargs.pop(name),)
        elif len(args) > 1:
            args = (tuple(args),)
    return args, kwargs


def without_arguments(method, name):
    """``method``, which takes nothing after self, with Python's refusal of anything more
    (PyTorch's C method shows its class as TensorBase)."""
    @functools.wraps(method)
    def taking_no_arguments(self, *args, **kwargs):
        if args or kwargs:
            if kwargs:
                raise TypeError(f"TensorBase.{name}() takes no keyword arguments")
            raise TypeError(f"TensorBase.{name}() takes no arguments ({len(args)} given)")
        return method(self)
    taking_no_arguments.parsed_as_pytorch = name
    return taking_no_arguments


# methods PyTorch writes in Python (torch/_tensor.py): Python's own refusal of a wrong call names
# them ``Tensor.X`` (their qualified name), however they are called
# (resize and resize_as, installed later with resize_, are not renamed yet)
WRITTEN_IN_PYTHON = ("dim_order", "eig", "is_shared", "lstsq", "share_memory_", "solve", "symeig",
                     "unflatten")

# the C methods behind methods PyTorch writes in Python, which parse what the Python one passes on
BEHIND_PYTHON_METHODS = {"unflatten": ("int dim, tuple of ints sizes",)}


@functools.cache
def _behind_python_method(name):
    return Signatures(name, *BEHIND_PYTHON_METHODS[name])


def parsed_arguments(name, args):
    """``args`` as the C method ``name`` behind a method PyTorch writes in Python takes them
    (integer tensors given for ints read as ints), or PyTorch's TypeError."""
    return _parse(_behind_python_method(name), args, {})[0]

# PyTorch's C methods that take nothing more and are not parsed (python_variable.cpp)
MORE_NO_ARGUMENTS = ("detach", "detach_")


def named_as_in_tensor_class(function, name):
    """A copy of ``function`` whose qualified name is ``Tensor.<name>``, so that Python's message
    for a wrong call reads as PyTorch's (the function itself may serve torch.X too)."""
    # (Python 3.11 and later name a function in these messages by its code's qualified name;
    # Python 3.10, whose code objects have none, by the function's __qualname__, set below)
    names = dict(co_name=name, co_qualname=f"Tensor.{name}") if sys.version_info >= (3, 11) else dict(
        co_name=name)
    copy = types.FunctionType(function.__code__.replace(**names),
                              function.__globals__, name, function.__defaults__, function.__closure__)
    copy.__kwdefaults__, copy.__doc__, copy.__dict__ = function.__kwdefaults__, function.__doc__, dict(
        function.__dict__)
    copy.__qualname__ = f"Tensor.{name}"
    return copy


def _apply_taking_one(method):
    """x.apply_(callable): a C method of one argument in PyTorch (its own message otherwise)."""
    @functools.wraps(method)
    def apply_(self, *args, **kwargs):
        if kwargs:
            raise TypeError("TensorBase.apply_() takes no keyword arguments")
        if len(args) != 1:
            raise TypeError(f"TensorBase.apply_() takes exactly one argument ({len(args)} given)")
        return method(self, args[0])
    apply_.parsed_as_pytorch = "apply_"
    return apply_


def _class_attribute(cls, name):
    """``cls``'s own attribute ``name`` (found along its MRO, without calling descriptors), or
    None: what inspect.getattr_static gives for a plain class, at a small part of its cost."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return None


def install(tensor_class):
    """Wrap each method of ``tensor_class`` that PyTorch parses (called once, after every
    method is installed)."""
    from ._tensor_signature_table import SIGNATURES, NO_ARGUMENTS
    for name in sorted(set(SIGNATURES) | set(MORE_SIGNATURES) | NO_ARGUMENTS):
        method = _class_attribute(tensor_class, name)
        if not inspect.isfunction(method) or getattr(method, "parsed_as_pytorch", None) == name:
            continue          # (a property, a class's own attribute, or already wrapped)
        if name in NO_ARGUMENTS:
            setattr(tensor_class, name, without_arguments(method, name))
            continue
        signatures = method_signatures(name)
        if signatures is not None:
            setattr(tensor_class, name, parsed_method(method, name, signatures))
    for name in WRITTEN_IN_PYTHON:
        method = _class_attribute(tensor_class, name)
        if inspect.isfunction(method) and method.__qualname__ != f"Tensor.{name}":
            setattr(tensor_class, name, named_as_in_tensor_class(method, name))
    for name in MORE_NO_ARGUMENTS:
        setattr(tensor_class, name, without_arguments(_class_attribute(tensor_class, name), name))
    tensor_class.apply_ = _apply_taking_one(tensor_class.apply_)
