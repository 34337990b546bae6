"""How PyTorch's messages name the type of a value ("must be Tensor, not collections.OrderedDict").

PyTorch's C++ code names a type by Python's ``tp_name``: the name alone for a class written in
Python, the module and the name for a type written in C (except the builtins). minigrad names
types in one place, here, by the same rule (this module imports nothing of minigrad's, so that
every other module can use it).
"""

# minigrad's classes that stand for types PyTorch writes in C, with PyTorch's names for them
_PYTORCH_C_TYPES = {
    ("minigrad._dtype", "dtype"): "torch.dtype", ("minigrad._tensor", "device"): "torch.device",
    ("minigrad._dtype", "Size"): "torch.Size", ("minigrad._layout", "layout"): "torch.layout",
    ("minigrad._memory_format", "memory_format"): "torch.memory_format",
    ("minigrad.random", "Generator"): "torch._C.Generator", ("minigrad._dtype", "finfo"): "torch.finfo",
    ("minigrad._dtype", "iinfo"): "torch.iinfo",
}
_HEAPTYPE, _IMMUTABLETYPE = 1 << 9, 1 << 8      # (CPython's type flags)


def type_name(value):
    """The name PyTorch's C++ messages give the value's type, Python's ``tp_name``: a class
    written in Python by its name alone (``Tensor``, ``Fraction``, a learner's own class), a
    type written in C by its module and name (``collections.OrderedDict``, ``numpy.ndarray``,
    ``decimal.Decimal``) unless it is a builtin (``int``, ``function``); minigrad's classes
    that stand for PyTorch's C types by PyTorch's names (``torch.dtype``, ``torch.Size``)."""
    kind = type(value)
    if kind.__module__.startswith("minigrad"):
        return _PYTORCH_C_TYPES.get((kind.__module__, kind.__qualname__), kind.__name__)
    # (a class made by a class statement is the one kind of type Python code can change)
    written_in_c = not kind.__flags__ & _HEAPTYPE or kind.__flags__ & _IMMUTABLETYPE
    if not written_in_c or kind.__module__ == "builtins":
        return kind.__name__
    return f"{kind.__module__}.{kind.__name__}"
