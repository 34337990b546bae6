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

from ._python_arg_parser import _CheapLook, _looks_right, deprecated_call
from ._signatures import Signatures, _CHECKS, _Signature

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
    if any(p.type_name not in _CHECKS for text in texts for p in _Signature(name, text).params):
        return None
    return Signatures(name, *texts, numbers_as_tensors=name in NUMBERS_AS_TENSORS,
                      hidden=name in HIDDEN, deprecated=DEPRECATED.get(name, ()))


def parsed_method(method, name, signatures):
    """``method`` with the arguments after self parsed as PyTorch parses Tensor.<name>."""
    looks = tuple(_CheapLook(signature, signatures.numbers_as_tensors, method=True)
                  for signature in signatures.signatures)

    @functools.wraps(method)
    def with_parsed_arguments(self, *args, **kwargs):
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


def install(tensor_class):
    """Wrap each method of ``tensor_class`` that PyTorch parses (called once, after every
    method is installed)."""
    from ._tensor_signature_table import SIGNATURES, NO_ARGUMENTS
    for name in sorted(set(SIGNATURES) | NO_ARGUMENTS):
        method = inspect.getattr_static(tensor_class, name, None)
        if not inspect.isfunction(method) or getattr(method, "parsed_as_pytorch", None) == name:
            continue          # (a property, a class's own attribute, or already wrapped)
        if name in NO_ARGUMENTS:
            setattr(tensor_class, name, without_arguments(method, name))
            continue
        signatures = method_signatures(name)
        if signatures is not None:
            setattr(tensor_class, name, parsed_method(method, name, signatures))
