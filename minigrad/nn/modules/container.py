"""Containers of layers and parameters (PyTorch: torch/nn/modules/container.py).

* ``Sequential``    - layers applied one after the other
* ``ModuleList``    - a list of layers, registered so that ``parameters()`` finds them
* ``ModuleDict``    - the same as a dict
* ``ParameterList`` - a list of parameters, registered under the names '0', '1', ...
* ``ParameterDict`` - the same as a dict

A plain Python list or dict of layers, assigned to a Module, is an ordinary attribute:
the Module cannot see inside it. These containers are Modules themselves, so whatever
they hold is registered and named.
"""
import operator
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from ..._tensor import Tensor
from ..parameter import Parameter
from .module import Module, _indent_after_first_line


class Sequential(Module):
    """``Sequential(a, b, c)(x)`` is ``c(b(a(x)))``.

    The layers are registered as sub-modules named ``'0'``, ``'1'``, ... (or
    with your own names when given an OrderedDict), so a parameter's name says
    which layer it belongs to: ``'0.weight'``.
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input):
        """Each module in turn, the output of one the input of the next."""
        for module in self:
            input = module(input)
        return input

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, index):
        if isinstance(index, slice):
            # a new Sequential of the same layers (not copies), keeping their names
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        return self._modules[self._key(index)]

    def __setitem__(self, index, module):
        setattr(self, self._key(index), module)

    def __delitem__(self, index):
        if isinstance(index, slice):
            for key in list(self._modules)[index]:
                del self._modules[key]
        else:
            del self._modules[self._key(index)]
        # renumber, so that the names stay 0, 1, 2, ...
        self.__dict__["_modules"] = OrderedDict(
            (str(i), module) for i, module in enumerate(self._modules.values()))

    def _key(self, index):
        """The name of the layer at position ``index`` (negative counts from the end)."""
        size = len(self)
        index = operator.index(index)      # (a str is refused with Python's own TypeError)
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of range")
        return list(self._modules)[index % size]

    def append(self, module):
        """Add a layer at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index, module):
        """Put ``module`` before position ``index`` (negative counts from the end); returns self."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        size = len(self._modules)
        if not -size <= index <= size:
            raise IndexError(f"Index out of range: {index}")
        _shift_right_and_put(self._modules, index + size if index < 0 else index, module)
        return self

    def extend(self, sequential):
        """Append every layer of ``sequential`` (any iterable of modules); returns self."""
        for layer in sequential:
            self.append(layer)
        return self

    def pop(self, key):
        """Remove the layer at ``key`` and return it (the others are renumbered)."""
        layer = self[key]
        del self[key]
        return layer

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, "
                             f"but {type(other)} is given.")
        return Sequential(*self, *other)

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, "
                             f"but {type(other)} is given.")
        return self.extend(list(other))

    def __mul__(self, times):
        """The same layers (not copies) ``times`` over: they share their weights."""
        _check_repeats(self, times)
        return Sequential(*(list(self) * times))

    __rmul__ = __mul__

    def __imul__(self, times):
        _check_repeats(self, times)
        return self.extend(list(self) * (times - 1))

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]


def _check_repeats(sequential, times):
    if not isinstance(times, int):
        raise TypeError(f"unsupported operand type(s) for *: {type(sequential)} and {type(times)}")
    if times <= 0:
        raise ValueError(f"Non-positive multiplication factor {times} for {type(sequential)}")


def _shift_right_and_put(modules, index, module):
    """Insert into a dict keyed '0', '1', ...: move the entries from ``index`` on one place up."""
    for i in range(len(modules), index, -1):
        modules[str(i)] = modules[str(i - 1)]
    modules[str(index)] = module


def _position(container, index):
    """The key ``'2'`` of position ``index`` in a list-like container (negative counts from the end)."""
    index = operator.index(index)
    if not -len(container) <= index < len(container):
        raise IndexError(f"index {index} is out of range")
    return str(index % len(container))


class ModuleList(Module):
    """A Python list of modules that the owning Module can see.

    A plain list attribute hides its layers: ``parameters()`` would not find them and
    ``model.to()`` would not convert them. In a ModuleList each layer is registered as a
    sub-module named ``'0'``, ``'1'``, ..., so its parameters are named ``'layers.0.weight'``.
    It has no ``forward``: you decide how to use the layers.
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(list(self._modules.values())[index])
        return self._modules[_position(self, index)]

    def __setitem__(self, index, module):
        setattr(self, _position(self, index), module)

    def __delitem__(self, index):
        if isinstance(index, slice):
            for i in range(len(self._modules))[index]:
                delattr(self, str(i))
        else:
            delattr(self, _position(self, index))
        # renumber, so that the names stay 0, 1, 2, ...
        self.__dict__["_modules"] = OrderedDict(
            (str(i), module) for i, module in enumerate(self._modules.values()))

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return ModuleList(list(self) + list(other))

    def insert(self, index, module):
        """Put ``module`` before position ``index``."""
        _shift_right_and_put(self._modules, index, module)

    def append(self, module):
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        """Append every module of the iterable ``modules``; returns self."""
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleList.extend should be called with an iterable, but got "
                            + type(modules).__name__)
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    def pop(self, key):
        """Remove the module at ``key`` and return it (the others are renumbered)."""
        module = self[key]
        del self[key]
        return module

    def __repr__(self):
        """Like any Module's, but a run of identical layers prints once: ``(0-2): 3 x Linear(...)``."""
        reprs = [repr(module) for module in self]
        if not reprs:
            return type(self).__name__ + "()"
        runs = []                   # [first index, last index, repr] of each run of equal reprs
        for i, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        lines = []
        for first, last, text in runs:
            label = f"({first}): {text}" if first == last else f"({first}-{last}): {last - first + 1} x {text}"
            lines.append(_indent_after_first_line(label, 2))
        return type(self).__name__ + "(\n  " + "\n  ".join(lines) + "\n)"

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]


class ModuleDict(Module):
    """A Python dict of modules that the owning Module can see (keys are the sub-module names).

    Keeps the order in which keys were added. ``update`` with a plain dict keeps its order too.
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        """Remove every module."""
        self._modules.clear()

    def pop(self, key):
        """Remove ``key`` and return its module."""
        module = self[key]
        del self[key]
        return module

    def keys(self):
        """The names, in order."""
        return self._modules.keys()

    def items(self):
        """(name, module) pairs, in order."""
        return self._modules.items()

    def values(self):
        """The modules, in order."""
        return self._modules.values()

    def update(self, modules):
        """Add (or replace) the modules of a mapping or of an iterable of (name, module) pairs."""
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value pairs, "
                            "but got " + type(modules).__name__)
        for key, module in _pairs("ModuleDict", modules, sort_plain_dicts=False):
            self[key] = module


def _pairs(kind, pairs, sort_plain_dicts):
    """The (key, value) pairs of a mapping or of an iterable of pairs, checked as PyTorch does.

    ParameterDict sorts the keys of a mapping that is not ordered by design (PyTorch's choice);
    ModuleDict keeps a dict's order.
    """
    if isinstance(pairs, (OrderedDict, ModuleDict, ParameterDict)):
        return list(pairs.items())
    if isinstance(pairs, Mapping):
        return sorted(pairs.items()) if sort_plain_dicts else list(pairs.items())
    checked = []
    for j, pair in enumerate(pairs):
        if not isinstance(pair, Iterable):
            raise TypeError(f"{kind} update sequence element #{j} should be Iterable; is{type(pair).__name__}")
        if len(pair) != 2:
            raise ValueError(f"{kind} update sequence element #{j} has length {len(pair)}; 2 is required")
        checked.append((pair[0], pair[1]))
    return checked


def _describe_entry(key, value, type_name):
    """One line of a ParameterList's / ParameterDict's printout."""
    if isinstance(value, Tensor):
        kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
        size = "x".join(str(n) for n in value.shape)
        return f"  ({key}): {kind} containing: [{type_name(value)} of size {size}]"
    return f"  ({key}): Object of type: {type(value).__name__}"


class ParameterList(Module):
    """A Python list of parameters that the owning Module can see.

    A tensor put in is turned into a ``Parameter`` (sharing its memory); each is registered
    under the name ``'0'``, ``'1'``, ... Other objects may be stored too, as plain attributes.
    """

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def __getitem__(self, index):
        if isinstance(index, slice):
            sliced = type(self)()
            for i in range(*index.indices(len(self))):
                sliced.append(self[i])
            return sliced
        return getattr(self, _position(self, index))

    def __setitem__(self, index, value):
        key = _position(self, index)
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, key, value)

    def __len__(self):
        return self._size

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __iadd__(self, values):
        return self.extend(values)

    def append(self, value):
        """Add ``value`` at the end (a tensor becomes a Parameter); returns self."""
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values):
        """Append every value of the iterable ``values``; returns self."""
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        """One line per entry: ``(0): Parameter containing: [torch.float32 of size 2x3]``."""
        return "\n".join(_describe_entry(i, value, lambda t: str(t.dtype)) for i, value in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]


class ParameterDict(Module):
    """A Python dict of parameters that the owning Module can see (keys are the parameter names).

    A tensor put in is turned into a ``Parameter``. Keys must be strings. ``update`` with a plain
    dict adds its keys in sorted order (an OrderedDict or ParameterDict keeps its own order).
    """

    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}               # a dict used as an ordered set of the keys
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _checked_key(key):
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string "
                            f"(type is '{type(key).__name__}'). Open an issue on github if you need "
                            "non-string keys.")
        return key

    def __getitem__(self, key):
        return getattr(self, self._checked_key(key))

    def __setitem__(self, key, value):
        self._keys[key] = None
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, self._checked_key(key), value)

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, self._checked_key(key))

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __reversed__(self):
        return reversed(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def copy(self):
        """A new ParameterDict holding the same parameters (not copies of them)."""
        return ParameterDict(OrderedDict((key, self[key]) for key in self._keys))

    def setdefault(self, key, default=None):
        """``self[key]``, after setting it to ``default`` if it was missing."""
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self):
        """Remove every entry."""
        for key in list(self._keys):
            del self[key]

    def pop(self, key):
        """Remove ``key`` and return its value."""
        value = self[key]
        del self[key]
        return value

    def popitem(self):
        """Remove and return the last (key, value) added."""
        key = next(reversed(self._keys))
        return key, self.pop(key)

    def get(self, key, default=None):
        """``self[key]``, or ``default`` if it is missing."""
        return self[key] if key in self else default

    def fromkeys(self, keys, default=None):
        """A new ParameterDict with each of ``keys`` set to ``default``."""
        return ParameterDict((key, default) for key in keys)

    def keys(self):
        """The keys, in order."""
        return self._keys.keys()

    def items(self):
        """(key, value) pairs, in order."""
        return ((key, self[key]) for key in self._keys)

    def values(self):
        """The values, in order."""
        return (self[key] for key in self._keys)

    def update(self, parameters):
        """Add (or replace) the entries of a mapping or of an iterable of (key, value) pairs."""
        if not isinstance(parameters, Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, "
                            "but got " + type(parameters).__name__)
        for key, value in _pairs("ParameterDict", parameters, sort_plain_dicts=True):
            self[key] = value

    def extra_repr(self):
        """One line per entry: ``(a): Parameter containing: [torch.FloatTensor of size 2x3]``."""
        return "\n".join(_describe_entry(key, value, lambda t: t.type()) for key, value in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other):
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other):
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other):
        self.update(other)
        return self
