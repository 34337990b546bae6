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

from ._python_arg_parser import _cheap_looks, _looks_right, deprecated_call
from ._signatures import Signatures, _CHECKS

# methods whose PyTorch signatures minigrad does not follow yet, with the reason
NOT_PARSED = {
    "type": "x.type(dtype) takes a type name (an 'object' parameter the parser cannot name)",
    "new": "the legacy constructor's storage and object parameters",
    "to": "x.to(other tensor) and x.to(device, dtype) forms minigrad reads itself",
}


def method_signatures(name):
    """PyTorch's signatures of the method Tensor.<name>, None if not known."""
    from ._tensor_signature_table import SIGNATURES, NUMBERS_AS_TENSORS, HIDDEN, DEPRECATED
    if name not in SIGNATURES or name in NOT_PARSED:
        return None
    texts = SIGNATURES[name]
    if any(_type_name(spec) not in _CHECKS
           for text in texts for spec in text.split(", ") if spec not in ("", "*")):
        return None
    return Signatures(name, *texts, numbers_as_tensors=name in NUMBERS_AS_TENSORS,
                      hidden=name in HIDDEN, deprecated=DEPRECATED.get(name, ()))


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
            looks = _cheap_looks(signatures, method=True)
        if not _looks_right(looks, args, kwargs):
            args, kwargs = _parse(signatures, args, kwargs)
        return method(self, *args, **kwargs)
    with_parsed_arguments.parsed_as_pytorch = name
    return with_parsed_arguments


def _parse(signatures, args, kwargs):
    """PyTorch's whole parse of a call that failed the cheap look: its TypeError, or the
    arguments to call the method with (a deprecated signature's as the first signature takes
    them; a lone tuple of ints given as several ints or by keyword, as one tuple by position:
    x.squeeze_(0, 1), x.reshape(shape=(2, 3)))."""
    index, values = signatures.parse(args, kwargs)
    if index >= len(signatures.signatures):
        return deprecated_call(signatures, signatures.deprecated[index - len(signatures.signatures)],
                               values, kwargs)
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
    for name in sorted(set(SIGNATURES) | NO_ARGUMENTS):
        method = _class_attribute(tensor_class, name)
        if not inspect.isfunction(method) or getattr(method, "parsed_as_pytorch", None) == name:
            continue          # (a property, a class's own attribute, or already wrapped)
        if name in NO_ARGUMENTS:
            setattr(tensor_class, name, without_arguments(method, name))
            continue
        signatures = method_signatures(name)
        if signatures is not None:
            setattr(tensor_class, name, parsed_method(method, name, signatures))
