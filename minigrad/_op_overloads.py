"""``torch.ops.aten``: names for PyTorch's ATen operators (``torch.ops.aten.mm.default``).

Below its Python functions, PyTorch runs every tensor operation as an *operator* of its
dispatcher: ``x @ y`` of two matrices runs ``aten::mm``, ``x * 2`` runs ``aten::mul`` in its
``Tensor`` overload. Programs meet these names where they ask which operation ran, as the
policy of selective activation checkpointing does (utils/_selective_checkpoint.py)::

    ops_to_save = [torch.ops.aten.mm.default]

``torch.ops.aten.mm`` is an ``OpOverloadPacket`` (every overload of ``mm``), and
``torch.ops.aten.mm.default`` one ``OpOverload``. Both exist for exactly the operators and
overloads PyTorch has (``_operator_table.OVERLOADS``), are made once and then reused (``is``
and ``==`` agree), and can be called: minigrad runs its function of that name.

minigrad has no dispatcher: an operation knows its operator through the backward node it
records (``MmBackward0`` is recorded by ``aten::mm``: ``_operator_table.NODE_OPERATORS``),
which ``operator_of_node`` looks up; ``schema_arguments`` reads the positional arguments of
such an operator's schema (``slice.Tensor``: self, dim=0, start=None, end=None, step=1).
"""
import ast
import functools
import types

from ._operator_table import NODE_OPERATORS, OVERLOADS, SCHEMAS

NO_DEFAULT = object()       # an argument without a default

# defaults a schema writes by name (the loss reductions)
_NAMED_DEFAULTS = {"Mean": 1, "Sum": 2}


class OpOverload:
    """One overload of an ATen operator: ``torch.ops.aten.mul.Tensor``."""

    def __init__(self, packet, overload_name):
        self.overloadpacket = packet
        self._overloadname = overload_name
        self.__name__ = f"{packet.__name__}.{overload_name}"

    def name(self):
        """The dispatcher's name: ``aten::mm`` (the default overload), ``aten::mul.Tensor``."""
        suffix = "" if self._overloadname == "default" else "." + self._overloadname
        return f"aten::{self.overloadpacket.__name__}{suffix}"

    def __call__(self, *args, **kwargs):
        return self.overloadpacket(*args, **kwargs)

    def __deepcopy__(self, memo):
        return self             # (one object per overload: a copied policy list still matches)

    def __repr__(self):
        return f"<OpOverload(op='aten.{self.overloadpacket.__name__}', overload='{self._overloadname}')>"

    def __str__(self):
        return f"aten.{self.__name__}"


class OpOverloadPacket:
    """An ATen operator with all its overloads: ``torch.ops.aten.mm`` (``.default``, ``.out``, ...)."""

    def __init__(self, name):
        self.__name__ = name
        self._overloads = {}

    def __getattr__(self, overload_name):
        if overload_name.startswith("__") or overload_name not in OVERLOADS[self.__name__]:
            raise AttributeError(f"The underlying op of 'aten.{self.__name__}' has no overload "
                                 f"name '{overload_name}'")
        overload = self._overloads.get(overload_name)
        if overload is None:
            overload = self._overloads[overload_name] = OpOverload(self, overload_name)
        return overload

    def __call__(self, *args, **kwargs):
        """Run minigrad's function of this name (``torch.mm``, or the method ``x.mm``)."""
        import minigrad
        function = getattr(minigrad, self.__name__, None) or getattr(minigrad.Tensor, self.__name__, None)
        if function is None:
            raise NotImplementedError(f"aten::{self.__name__} cannot be called in minigrad\n"
                                      f"minigrad hint: call the torch function that runs it instead")
        return function(*args, **kwargs)

    def __deepcopy__(self, memo):
        return self

    def __repr__(self):
        return f"<OpOverloadPacket(op='aten.{self.__name__}')>"

    def __str__(self):
        return f"aten.{self.__name__}"


class _OpNamespace(types.ModuleType):
    """``torch.ops.aten``: each operator's packet, made on first use."""

    def __init__(self):
        super().__init__("torch.ops.aten")
        self.__file__ = "torch.ops"          # (how PyTorch's prints: <module ... from 'torch.ops'>)
        self._packets = {}

    def __getattr__(self, name):
        if name.startswith("__") or name not in OVERLOADS:
            raise AttributeError(f"'_OpNamespace' 'aten' object has no attribute '{name}'")
        packet = self._packets.get(name)
        if packet is None:
            packet = self._packets[name] = OpOverloadPacket(name)
        return packet


class _Ops(types.ModuleType):
    """``torch.ops``: the operator namespaces (minigrad has PyTorch's own, ``aten``)."""

    def __init__(self):
        super().__init__("torch.ops")
        self.__file__ = "_ops.py"
        self.aten = _OpNamespace()


# PyTorch's classes live in torch._ops: printed types (an error naming one) show that place
for _class in (OpOverload, OpOverloadPacket, _OpNamespace, _Ops):
    _class.__module__ = "torch._ops"

ops = _Ops()


def operator_of_node(node_class, in_place=False):
    """The OpOverload that records ``node_class`` (``MmBackward0``: ``aten.mm.default``), the
    in-place overload (``aten.mul_.Tensor``) for ``in_place``; None for a node of no operator."""
    named = NODE_OPERATORS.get(node_class.__name__)
    if named is None:
        return None
    name, overload_name = named.split(".")
    if in_place and overload_name in OVERLOADS.get(name + "_", ()):
        name += "_"
    return getattr(getattr(ops.aten, name), overload_name)


def _split_arguments(text):
    """The arguments of a schema's text, split at its commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, character in enumerate(text):
        if character in "[(":
            depth += 1
        elif character in "])":
            depth -= 1
        elif character == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return parts + [text[start:].strip()] if text else parts


@functools.cache
def schema_arguments(name):
    """The positional arguments of operator ``name`` (``"slice.Tensor"``) as (argument name,
    kind, default): kind 'tensor', 'tensors' (a list of them) or 'other'; None for an
    operator whose schema is not in the table (one that records no node)."""
    text = SCHEMAS.get(name)
    if text is None:
        return None
    arguments = []
    for part in _split_arguments(text):
        declaration, has_default, default_text = part.partition("=")
        type_text, _, argument_name = declaration.strip().rpartition(" ")
        kind = ("tensors" if "[]" in type_text else "tensor") if type_text.startswith("Tensor") \
            else "other"
        default = NO_DEFAULT
        if has_default:
            default = _NAMED_DEFAULTS.get(default_text)
            if default is None:
                try:
                    default = ast.literal_eval(default_text)
                except (ValueError, SyntaxError):
                    default = default_text
        arguments.append((argument_name, kind, default))
    return tuple(arguments)
