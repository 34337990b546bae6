"""Choosing among a function's signatures, and the errors when none fits, as PyTorch does.

Some PyTorch functions have several signatures (``sort``: one with a keyword-only ``stable``,
one with ``dim`` and ``descending`` by position). PyTorch tries each in turn
(python_arg_parser.cpp); when none fits it either reports the one signature the number of
arguments makes plausible (``sort() takes from 1 to 0 positional arguments but 2 were given``)
or lists them all (``received an invalid combination of arguments``, invalid_arguments.cpp),
where the keyword arguments come in the order of a C++ ``std::unordered_map`` (see
``_unordered``). ``Signatures.parse`` does the same and returns the arguments by name.
"""
import ast
import functools

import numpy as np

from ._tensor import Tensor
from ._type_names import type_name
from . import _dtype

_MISSING = object()
_MASK = 2**64 - 1

# numpy's names that PyTorch also takes for some parameters (torch.sort(x, axis=0))
_NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"), "other": ("x2",)}


def _is_int(value):
    if isinstance(value, Tensor):      # (an integer tensor of one element counts as an int)
        return value._array.size == 1 and value._array.dtype.kind in "iu"
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _int_like(value):
    """What PyTorch's parser takes for an int of a list of ints (a size, dims), or for the first
    of several ints given one by one (x.view(t, 3)): an int, or a tensor of one element of an
    integer or bool dtype, whatever its shape (torch.zeros(torch.tensor([3])))."""
    if isinstance(value, Tensor):
        return value._array.size == 1 and value._array.dtype.kind in "iub"
    return _is_int(value)


# the lists of ints PyTorch declares as SymInt[] (sizes, shifts): a bool tensor among them fails
# as it is read (torch.zeros(torch.tensor(True))), where one among dims is taken for 0 or 1 (by
# their names, where the signature's table does not tell: the Tensor methods)
_SYMINT_LISTS = frozenset(("size", "shape", "sizes", "stride", "repeats", "shifts", "output_size"))
_BOOL_FOR_SYMINT = ('scalar.isIntegral( false) INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/'
                    'torch/csrc/utils/pybind.cpp":27, please report a bug to PyTorch. ')
_NOT_INTEGRAL = ("Expected scalar.isIntegral( false) to be true, but got false.  (Could this error "
                 "message be improved?  If so, please report an enhancement request to PyTorch.)")


def _unpacked_int_list(name, parameter, value, symint):
    """A list of ints as PyTorch reads it once its signature fits: each item an int (a bool after
    the first one counts as 0 or 1: torch.zeros(2, True)), or a one-element integer tensor (its
    value); anything else fails with PyTorch's message."""
    ints = []
    for item, element in enumerate(value):
        if isinstance(element, Tensor) and _int_like(element):
            if element._array.dtype.kind == "b" and symint:
                raise RuntimeError(_NOT_INTEGRAL)
            ints.append(int(element._array.reshape(-1)[0]))
        elif isinstance(element, (int, np.integer)):
            if not -2**63 <= element < 2**63:
                from ._python_arg_parser import int64_overflow
                raise int64_overflow(name, parameter, item)
            ints.append(int(element))
        else:
            raise TypeError(f"{name}(): argument '{parameter}' failed to unpack the object at "
                            f"pos {item + 1} with error \"type must be tuple of ints,but got "
                            f"{_type_name(element)}\"")
    return ints


_PYTHON_NUMBERS = (int, float, complex, np.number, np.bool_)


def _is_number(value):
    """A Number: a Python or numpy number (a 0-d tensor stands for its number, unless it requires
    grad: PyTorch's parser keeps the gradient's path open by refusing it there)."""
    return isinstance(value, _PYTHON_NUMBERS) or (
        isinstance(value, Tensor) and value.ndim == 0 and not value.requires_grad)


def _is_int_list(value):
    """PyTorch's parser looks at the first element only (the others fail later, as they are
    unpacked: ``_unpack_error``)."""
    return isinstance(value, (tuple, list)) and (not value or _int_like(value[0]))


def _is_dtype(value):
    return isinstance(value, _dtype.dtype) or any(value is t for t in (float, int, bool, complex))


def _of_class(module, name):
    """An isinstance check against a minigrad class imported when first needed (these modules
    import this one)."""
    def check(value):
        import importlib
        return isinstance(value, getattr(importlib.import_module(module, __package__), name))
    return check


_CHECKS = {
    "Tensor": lambda v: isinstance(v, Tensor),
    "int": _is_int,
    "bool": lambda v: isinstance(v, bool),        # (not numpy's bool: PyTorch refuses it too)
    "float": lambda v: isinstance(v, (int, float, np.number)) and not isinstance(v, np.bool_)
    or (isinstance(v, Tensor) and v.ndim == 0 and not v.requires_grad),
    "tuple of Tensors": lambda v: isinstance(v, (tuple, list)) and all(isinstance(t, Tensor) for t in v),
    # (the torch._foreach_* functions: a Number is a Python number, Scalars a sequence of them)
    "Number": _is_number,
    "tuple of Scalars": lambda v: isinstance(v, (tuple, list)) and all(
        isinstance(x, (int, float, complex, np.number, np.bool_)) for x in v),
    "tuple of ints": _is_int_list,
    "tuple of floats": lambda v: isinstance(v, (tuple, list)) and all(_CHECKS["float"](x) for x in v),
    "ScalarType": lambda v: isinstance(v, _dtype.dtype),
    "object": lambda v: True,   # (any value, read by the function itself: x.type's, torch.tensor's data)
    "torch.dtype": _is_dtype,
    "str": lambda v: isinstance(v, str),
    "name": lambda v: isinstance(v, str),
    "tuple of names": lambda v: isinstance(v, (tuple, list)) and all(isinstance(x, str) for x in v),
    "torch.Generator": _of_class(".random", "Generator"),
    "torch.layout": _of_class("._layout", "layout"),
    "torch.memory_format": _of_class("._memory_format", "memory_format"),
    "torch.device": lambda v: isinstance(v, (str, int, np.integer)) and not isinstance(v, bool)
    or _of_class("._tensor", "device")(v),
}


_type_name = type_name


def _described(value):
    """As PyTorch's "didn't match" lines describe an argument: a list shows its items' types
    (``list of [Tensor, Tensor]``)."""
    if isinstance(value, (list, tuple)):
        items = ", ".join(_type_name(item) for item in value)
        return f"list of [{items}]" if isinstance(value, list) else (
            f"tuple of ({items}{',' if len(value) == 1 else ''})")
    return _type_name(value)


class _Parsed(dict):
    """The arguments by name, with where each was given (its position in ``args``, or the
    keyword) and those read into ints (``converted``), so that a caller can pass them on as
    PyTorch's parser hands them to the function."""

    def __init__(self, args):
        super().__init__()
        self.args, self.given, self.converted = args, {}, set()

    def convert(self, name, value):
        self[name] = value
        self.converted.add(name)

    def as_called(self, kwargs):
        """(args, kwargs) with the converted values in place of those given."""
        if not self.converted:
            return tuple(self.args), kwargs
        args, kwargs = list(self.args), dict(kwargs)
        for name in self.converted:
            where = self.given[name]
            if isinstance(where, int):
                args[where] = self[name]
            else:
                kwargs[where] = self[name]
        return tuple(args), kwargs


def _default_value(text):
    """A parameter's default as a signature writes it: a Python literal, or one of torch's names
    (``torch.contiguous_format``)."""
    if text.startswith("torch."):
        from . import _memory_format
        return getattr(_memory_format, text.removeprefix("torch."))
    return ast.literal_eval(text)


class _Parameter:
    """One parameter: ``"int dim=-1"``, ``"bool? stable"`` (None allowed, no default), ...;
    ``keyword_only`` if it comes after the ``*``."""

    def __init__(self, spec, keyword_only):
        declared, _, default = spec.partition("=")
        type_name, _, self.name = declared.rpartition(" ")
        # (None stands for an empty list of ints too: x.amax(None), x.roll(1, None))
        self.allow_none = type_name.endswith("?") or default == "None" or default == "()"
        type_name = type_name.rstrip("?")
        # (a "tuple of ints" declared with size 1, such as sum's dim, takes a single int too)
        self.takes_one_int = type_name.endswith("[1]")
        self.type_name = type_name.removesuffix("[1]")
        self.optional = bool(default)
        self.default = default
        self.keyword_only = keyword_only

    symint = None     # (declared SymInt: True or False; None where not known)

    def check(self, value, numbers_as_tensors=False):
        if isinstance(value, Tensor) and self.type_name == "int" and self.symint is not None:
            # (SymInt: a one-element integer or bool tensor; int64: a 0-d integer one alone)
            return _int_like(value) if self.symint else value.ndim == 0 and _is_int(value)
        if self.takes_one_int and _int_like(value):
            return True
        if numbers_as_tensors and self.type_name == "Tensor" and isinstance(value, _PYTHON_NUMBERS):
            return True
        return _CHECKS[self.type_name](value)

    def shown(self):
        return f"{self.type_name} {self.name}" + (f" = {self.default}" if self.optional else "")


class _Signature:
    def __init__(self, name, text, numbers_as_tensors=False, symint=None):
        """``symint``: the names of its int parameters declared SymInt, None if not known."""
        self.name = name
        self.numbers_as_tensors = numbers_as_tensors
        self.params, keyword_only = [], False
        for spec in text.split(", ") if text else ():
            if spec == "*":
                keyword_only = True
            else:
                self.params.append(_Parameter(spec, keyword_only))
                if symint is not None:
                    self.params[-1].symint = self.params[-1].name in symint
        self.max_pos_args = sum(not p.keyword_only for p in self.params)
        self.min_args = sum(not p.optional for p in self.params)
        self.max_args = len(self.params)
        # torch.ones(2, 3): a lone positional tuple of ints may be given as several ints (unless
        # it takes one int: x.std(-1, y) is dim=-1 and one argument too many)
        self.varargs = (self.max_pos_args == 1 and self.params[0].type_name == "tuple of ints"
                        and not self.params[0].takes_one_int)

    def shown(self):
        """As PyTorch prints it: ``(Tensor input, *, bool stable, int dim = -1, ...)``."""
        parts, starred = [], False
        for p in self.params:
            if p.keyword_only and not starred:
                parts.append("*")
                starred = True
            parts.append(p.shown())
        return "(" + ", ".join(parts) + ")"

    def parse(self, args, kwargs, raise_error):
        """The arguments by name if they fit this signature; else None, or PyTorch's error for
        the first thing that does not fit when ``raise_error``."""
        if self.varargs and args and _int_like(args[0]):
            args = (tuple(args),)
        if len(args) > self.max_pos_args:
            if raise_error:
                raise self._extra_args(len(args))
            return None
        values, position, remaining = _Parsed(args), 0, len(kwargs)
        for index, p in enumerate(self.params):
            value, by_keyword = _MISSING, False
            if position < len(args):
                value = args[position]
                values.given[p.name] = position
            elif kwargs:
                for name in (p.name,) + _NUMPY_NAMES.get(p.name, ()):
                    if name in kwargs:
                        value = kwargs[name]
                        values.given[p.name] = name
                        break
                by_keyword = True
            if (value is _MISSING and p.optional) or (value is None and p.allow_none):
                values[p.name] = None if value is None else _default_value(p.default)
            elif value is _MISSING:
                if raise_error:
                    missing = [f'"{q.name}"' for q in self.params[index:] if not q.optional]
                    # ("arguments" whatever the count: PyTorch's plural is the wrong way round)
                    raise TypeError(f"{self.name}() missing {len(missing)} required positional "
                                    f"argument{'s' if len(missing) == 1 else ''}: {', '.join(missing)}")
                return None
            elif p.check(value, self.numbers_as_tensors):
                values[p.name] = value
            elif p.type_name == "tuple of Tensors" and isinstance(value, (list, tuple)):
                # (PyTorch stops at a list with something else in it, whatever signature is next)
                item = next(i for i, v in enumerate(value) if not isinstance(v, Tensor))
                raise TypeError(f"expected Tensor as element {item} in argument {index}, but got "
                                f"{_type_name(value[item])}")
            elif raise_error:
                where = "" if by_keyword else f" (position {position + 1})"
                if p.type_name == "tuple of ints" and isinstance(value, (tuple, list)):
                    item = next(i for i, v in enumerate(value) if not _is_int(v))
                    raise TypeError(f"{self.name}(): argument '{p.name}'{where} must be tuple of ints, "
                                    f"but found element of type {_type_name(value[item])} at pos {item}")
                raise TypeError(f"{self.name}(): argument '{p.name}'{where} must be {p.type_name}, "
                                f"not {_type_name(value)}")
            else:
                return None
            if not by_keyword:
                position += 1
            elif value is not _MISSING:
                remaining -= 1
        if remaining > 0:
            if raise_error:
                for key in kwargs:
                    names = [p.name for p in self.params]
                    if key not in names:
                        raise TypeError(f"{self.name}() got an unexpected keyword argument '{key}'")
                    if names.index(key) < len(args):
                        raise TypeError(f"{self.name}() got multiple values for argument '{key}'")
                raise TypeError("invalid keyword arguments")
            return None
        # the signature fits: now the ints are read, the last first (PyTorch reads them as it
        # passes them on to its C++ function, whose arguments GCC evaluates from the right)
        for p in reversed(self.params):
            value = values.get(p.name)
            if p.type_name == "tuple of ints" and isinstance(value, (tuple, list)):
                symint = p.symint if p.symint is not None else p.name in _SYMINT_LISTS
                ints = _unpacked_int_list(self.name, p.name, value, symint)
                if any(type(v) is not int for v in value):     # (a tensor or numpy int among them)
                    values.convert(p.name, tuple(ints))
            elif p.type_name in ("int", "tuple of ints") and isinstance(value, (int, np.integer)) and not (
                    -2**63 <= value < 2**63):
                raise ValueError("Overflow when unpacking long long")     # (read as a C long long)
            elif type(value) is int and p.type_name in ("Number", "Tensor"):
                _dtype.check_python_int(value)      # (x.add(2**64): read as a C++ 64-bit integer)
            elif isinstance(value, Tensor) and p.type_name in ("int", "tuple of ints"):
                # (a one-element integer tensor given for an int: its value, x.sum(tensor(1)))
                if p.type_name == "int" and value._array.dtype.kind == "b":
                    raise RuntimeError(_BOOL_FOR_SYMINT)
                values.convert(p.name, int(value._array.reshape(-1)[0]))
        return values

    def _extra_args(self, given):
        if self.min_args != self.max_pos_args:
            return TypeError(f"{self.name}() takes from {self.min_args} to {self.max_pos_args} "
                             f"positional arguments but {given} were given")
        return TypeError(f"{self.name}() takes {self.max_pos_args} positional argument"
                         f"{'' if self.max_pos_args == 1 else 's'} but {given} "
                         f"{'was' if given == 1 else 'were'} given")


class Signatures:
    """A function's signatures, in PyTorch's order, each as PyTorch declares it:
    ``Signatures("sort", "Tensor input, *, bool? stable, int dim=-1, ...", ...)``."""

    def __init__(self, name, *texts, numbers_as_tensors=False, hidden=False, deprecated=(), symint=None):
        """``numbers_as_tensors``: its Tensor parameters take Python numbers too (torch.add(2, 3));
        ``hidden``: it has signatures PyTorch does not print (deprecated ones), so a lone printed
        signature is reported as one of several; ``deprecated``: those of them PyTorch still
        takes (torch.add(x, 2, y)), tried after the others and never printed; ``symint``: the
        names of its int parameters PyTorch declares SymInt (by default, those of torch.<name>:
        its Tensor method and its other forms declare the same), None if not known."""
        self.name = name
        self.texts, self.deprecated_texts = texts, tuple(deprecated)
        self._symint = symint
        self.hidden = hidden or bool(deprecated)
        self.numbers_as_tensors = numbers_as_tensors

    # The texts are read at first use, not here: `import minigrad` declares about a thousand
    # signatures and a program calls few of them, so reading them all would slow every import.
    @functools.cached_property
    def signatures(self):
        """The printed signatures, read from their texts."""
        return [_Signature(self.name, text, self.numbers_as_tensors, self.symint) for text in self.texts]

    @functools.cached_property
    def deprecated(self):
        """The deprecated signatures PyTorch still takes, read from their texts."""
        return [_Signature(self.name, text, self.numbers_as_tensors, self.symint)
                for text in self.deprecated_texts]

    @functools.cached_property
    def symint(self):
        """The names of the int parameters PyTorch declares SymInt (given, or torch.<name>'s)."""
        if self._symint is not None:
            return self._symint
        from ._signature_table import SYMINT, SIGNATURES
        return SYMINT.get(self.name, ()) if self.name in SIGNATURES else None

    def parse(self, args, kwargs):
        """(index of the signature that fits, the arguments by name), or PyTorch's TypeError; an
        index past the printed signatures is one of the deprecated ones."""
        if len(self.signatures) == 1 and not self.hidden:   # (a lone signature's own error)
            return 0, self.signatures[0].parse(args, kwargs, raise_error=True)
        for index, signature in enumerate(self.signatures + self.deprecated):
            values = signature.parse(args, kwargs, raise_error=False)
            if values is not None:
                return index, values
        given = len(args) + len(kwargs)
        # (the deprecated signatures are never plausible: PyTorch hides them)
        plausible = [s for s in self.signatures if s.min_args <= given <= s.max_args]
        if len(plausible) == 1:
            plausible[0].parse(args, kwargs, raise_error=True)
        raise TypeError(self._invalid_combination(args, kwargs))

    def _invalid_combination(self, args, kwargs):
        """invalid_arguments.cpp's message, which reads each printed signature back as
        "type name" pairs split at ", " (so ``int dim = -1`` is a type ``int dim =`` named
        ``-1``, and ``*`` is an argument too) and holds the keyword arguments in an unordered map."""
        keywords = _unordered(list(kwargs))
        described = [_type_name(a) for a in args] + [f"{k}={_type_name(kwargs[k])}" for k in keywords]
        got = "(" + (", ".join(described) if args else "".join(d + ", " for d in described)) + ")"
        start = f"{self.name}() received an invalid combination of arguments - got "
        if len(self.signatures) == 1:
            # (a keyword not among the last names read back is "unrecognized", as below)
            shown = self.signatures[0].shown()
            kind, note = _why_not(shown, args, kwargs, keywords, lone=True)
            if kind == "keywords":
                return f"{start}unrecognized keyword arguments: {note}"
            return f"{start}{note if kind == 'types' else got}, but expected {shown}"
        lines = [f"{start}{got}, but expected one of:"]
        for signature in self.signatures:
            shown = signature.shown()
            lines.append(f" * {shown}")
            kind, note = _why_not(shown, args, kwargs, keywords)
            if kind == "keywords":
                lines.append(f"      didn't match because some of the keywords were incorrect: {note}")
            elif kind == "types":
                lines.append(f"      didn't match because some of the arguments have invalid types: {note}")
        return "\n".join(lines) + "\n"


def _why_not(shown, args, kwargs, keywords, lone=False):
    """Why a printed signature did not fit, as invalid_arguments.cpp tells it when the count of
    arguments matches the "type name" pairs read back (the keywords: whatever the count for a
    ``lone`` signature): ("keywords", the unknown ones), or ("types", the arguments with the
    wrong ones between "!"); (None, None) otherwise."""
    read_back = [(spec.rpartition(" ")[0] if " " in spec else spec,
                  spec.rpartition(" ")[2]) for spec in shown[1:-1].split(", ")]
    count_matches = len(args) + len(kwargs) == len(read_back)
    if not count_matches and not lone:
        return None, None
    start = max(len(read_back) - len(kwargs), 0)
    unmatched = [k for k in keywords if k not in [name for _, name in read_back[start:]]]
    if unmatched:
        return "keywords", ", ".join(unmatched)
    if not count_matches:
        return None, None
    marked = []
    for i in range(len(args) + len(kwargs)):
        type_name, name = read_back[i]
        value = args[i] if i < len(args) else kwargs[name]
        fits = _type_name(value) in {"int": ("int", "long"), "float": ("float", "int", "long")}.get(
            type_name, (type_name,))
        text = (f"{name}=" if i >= len(args) else "") + _described(value)
        marked.append(text if fits else f"!{text}!")
    # (a trailing ", " is cut only after positional arguments, as for "got (dim=str, )")
    return "types", "(" + (", ".join(marked) if args else "".join(m + ", " for m in marked)) + ")"


def parsed_by(signatures):
    """Decorator: the function called with its arguments as ``signatures`` (one signature)
    parses them, so that a missing, extra or wrong argument gets PyTorch's TypeError."""
    def decorate(function):
        @functools.wraps(function)
        def with_parsed_arguments(*args, **kwargs):
            _, arguments = signatures.parse(args, kwargs)
            return function(**arguments)
        return with_parsed_arguments
    return decorate


# --- the order of a C++ std::unordered_map<std::string, ...> (GCC's libstdc++) ---------------

def _hash_bytes(data, seed=0xC70F6907):
    """libstdc++'s std::hash of a string: its 64-bit MurmurHash variant (_Hash_bytes)."""
    mul = (0xC6A4A793 << 32) + 0x5BD1E995
    shift_mix = lambda v: v ^ (v >> 47)    # noqa: E731
    length = len(data)
    h = (seed ^ (length * mul)) & _MASK
    aligned = length & ~7
    for start in range(0, aligned, 8):
        word = int.from_bytes(data[start:start + 8], "little")
        h = ((h ^ ((shift_mix((word * mul) & _MASK) * mul) & _MASK)) * mul) & _MASK
    if length & 7:
        h = ((h ^ int.from_bytes(data[aligned:], "little")) * mul) & _MASK
    h = (shift_mix(h) * mul) & _MASK
    return shift_mix(h)


def _unordered(keys):
    """The order an unordered_map iterates ``keys`` inserted in this order: its first insertion
    makes 13 buckets; a key in an empty bucket goes to the front of the list, a key whose bucket
    is taken goes just before that bucket's first key (more than 13 keys: not followed)."""
    order = []
    for key in keys:
        bucket = _hash_bytes(key.encode()) % 13
        same = [i for i, k in enumerate(order) if _hash_bytes(k.encode()) % 13 == bucket]
        order.insert(same[0] if same else 0, key)
    return order
