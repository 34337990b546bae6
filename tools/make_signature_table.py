"""Write minigrad/_signature_table.py and _tensor_signature_table.py: PyTorch's Python
signatures of the torch.X functions and of the Tensor methods minigrad has, as facts read off
an installed PyTorch.

Run from the repository root with PyTorch installed::

    python tools/make_signature_table.py

Two sources, both PyTorch's own descriptions of its API:

* its error message when a call fits no signature (40 arguments fit none): it lists each
  signature the parser tries, in its order, as it prints them
  (``(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)``); a function with a
  single signature instead says ``takes 1 positional argument but 40 were given``;
* torch/_C/_VariableFunctions.pyi, for what the printed form leaves out: a single signature
  itself, which parameters take None without a default, which "tuple of ints" also takes one
  int (``dim: _int | _size``), and whether a Tensor parameter takes a Python number
  (``input: Tensor | Number``).

The methods are read the same way (called through torch._C.TensorBase, ``self`` left out of
their signatures; the .pyi is torch/_C/__init__.pyi's class TensorBase, whose ``*sizes``
overloads PyTorch prints as a tuple); a method that takes nothing is Python's own (``takes no
arguments``). For a method with a single signature the .pyi's first parameter name is checked
against the one PyTorch's errors give (``requires_grad_(mode)`` is printed ``requires_grad``).

PyTorch's deprecated signatures (tools/autograd/deprecated.yaml: ``add(Tensor self, Scalar
alpha, Tensor other)``, ...) are taken but never printed in its errors: each is called on
small tensors, in its function, method and in-place forms, and written as PyTorch's
deprecation warning prints it.

Each signature is written as PyTorch prints it, with ``=`` for `` = ``, ``?`` after the type of
a parameter that takes None but has no default, and ``tuple of ints[1]`` for a tuple of ints
that also takes one int.
"""
import ast
import pathlib
import pprint
import re

import torch

import minigrad

ROOT = pathlib.Path(__file__).resolve().parent.parent
PYI = pathlib.Path(torch.__file__).parent / "_C" / "_VariableFunctions.pyi"

# how PyTorch prints the types the .pyi names
_DISPLAY = [("Tensor | tuple[Tensor, ...] | list[Tensor]", "tuple of Tensors"),
            ("tuple[Tensor, ...] | list[Tensor]", "tuple of Tensors"),
            ("Sequence[Tensor]", "tuple of Tensors"),
            ("Tensor", "Tensor"), ("Number", "Number"), ("_complex", "Number"),
            ("_size", "tuple of ints"), ("Sequence[_int | SymInt]", "tuple of ints"),
            ("Sequence[_int]", "tuple of ints"), ("_int", "int"), ("SymInt", "int"),
            ("_float", "float"), ("_bool", "bool"), ("_dtype", "torch.dtype"),
            ("_layout", "torch.layout"), ("DeviceLikeType", "torch.device"),
            ("Generator", "torch.Generator"), ("memory_format", "torch.memory_format"),
            ("Sequence[str | EllipsisType | None]", "tuple of names"),
            ("str | EllipsisType | None", "name"), ("str", "str")]


def _pyi_overloads(path=PYI, class_name=None):
    """name -> [[(parameter, annotation text, default text or None, keyword-only)], ...]: the
    module's functions, or the methods of its class ``class_name`` (``self`` dropped); an
    overload taking ``*sizes`` (view(2, 3)) is left out: PyTorch prints the tuple form."""
    tree = ast.parse(path.read_text())
    if class_name is not None:
        tree = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == class_name)
    overloads = {}
    unparse = lambda node: "" if node is None else ast.unparse(node)    # noqa: E731
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or (class_name and node.args.vararg):
            continue
        a = node.args
        positional = a.posonlyargs + a.args
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        params = [(p.arg, unparse(p.annotation), None if d is None else unparse(d), False)
                  for p, d in zip(positional, defaults)]
        params += [(p.arg, unparse(p.annotation), None if d is None else unparse(d), True)
                   for p, d in zip(a.kwonlyargs, a.kw_defaults)]
        overloads.setdefault(node.name, []).append(params[1:] if class_name else params)
    return overloads


def _display_type(annotation):
    if annotation.startswith(("_int |", "SymInt |")) and ("_size" in annotation or "Sequence[" in annotation):
        return "tuple of ints"
    for text, shown in _DISPLAY:
        if annotation.startswith(text):
            return shown
    raise ValueError(annotation)


def _from_pyi(params):
    parts, starred = [], False
    for name, annotation, default, keyword_only in params:
        if keyword_only and not starred:
            parts.append("*")
            starred = True
        if default is not None:
            default = default.replace(", ", ",")        # (the table splits parameters at ", ")
        type_name = _display_type(annotation)
        if type_name == "tuple of ints" and annotation.startswith(("_int", "SymInt")):
            type_name += "[1]"
        if (default is None or (default != "None" and type_name == "bool")) and annotation.endswith("| None"):
            type_name += "?"
        shown = f"{type_name} {'input' if name == 'self' else name}"
        parts.append(shown + ("" if default is None else f" = {default}"))
    return ", ".join(parts)


def _shown_type(annotation):
    try:
        return _display_type(annotation)
    except ValueError:
        return None


def _annotate(shown, overloads):
    """Add ``?`` and ``[1]`` to a printed signature from the .pyi overload with its names."""
    if not shown:
        return shown          # (no parameters: x.float())
    specs = shown.split(", ")
    names = [s.partition(" = ")[0].rpartition(" ")[2] for s in specs if s != "*"]
    types = [s.partition(" = ")[0].rpartition(" ")[0] for s in specs if s != "*"]
    same_names = [params for params in overloads
                  if [("input" if p[0] == "self" else p[0]) for p in params] == names]
    # (of overloads with the same names, the one whose types print as these: count_nonzero's
    # dim is an int in one, a tuple of ints in the other)
    same_types = [params for params in same_names if [_shown_type(p[1]) for p in params] == types]
    params = (same_types or same_names or [None])[0]
    out, index = [], 0
    for spec in specs:
        if spec == "*":
            out.append(spec)
            continue
        declared, has_default, default = spec.partition(" = ")
        type_name, _, name = declared.rpartition(" ")
        if params is not None:
            annotation = params[index][1]
            if type_name == "tuple of ints" and annotation.startswith(("_int |", "_int|", "SymInt |")):
                type_name += "[1]"
            # (a bool with a default that takes None too: the factories' pin_memory and
            # requires_grad, `bool? requires_grad=False`; a Number's "| None" is not the parser's)
            takes_none = not has_default or (default.strip() != "None" and type_name == "bool")
            if takes_none and annotation.endswith("| None") and not type_name.endswith("?"):
                type_name += "?"
        out.append(f"{type_name} {name}" + (f"={default}" if has_default else ""))
        index += 1
    return ", ".join(out)


def _probe(name, method=False):
    """PyTorch's printed signatures of torch.<name> (or of the method Tensor.<name>), None if it
    has a single one, NO_ARGUMENTS if the method takes none."""
    function = getattr(torch._C.TensorBase, name) if method else getattr(torch, name)
    try:
        function(*([torch.ones(2, 2)] if method else []), *[object()] * 40)
    except TypeError as error:
        text = str(error)
    else:
        raise AssertionError(name)
    if "but expected one of:" in text:
        return re.findall(r"^ \* \((.*)\)$", text, re.M)
    found = re.search(r"but expected \((.*)\)$", text)
    if found:
        return [found.group(1)]
    if re.search(r"takes (from \d+ to )?\d+ positional argument", text):
        return None
    if method and text.endswith("takes no arguments (40 given)"):
        return NO_ARGUMENTS
    return ()             # (not parsed by PyTorch's argument parser: not taken)


NO_ARGUMENTS = "no arguments"


def _takes_two_numbers(name):
    try:
        getattr(torch, name)(2, 3)
    except Exception:       # noqa: BLE001 (any refusal)
        return False
    return True


def table():
    """name -> (signatures, takes numbers for tensors) for every function both libraries have."""
    overloads = _pyi_overloads()
    names = sorted(n for n in dir(minigrad) if not n.startswith("_")
                   and n in dir(torch._C._VariableFunctions) and n in overloads
                   and callable(getattr(minigrad, n)) and not isinstance(getattr(minigrad, n), type))
    signatures, numbers, hidden = {}, set(), set()
    for name in names:
        if any("Number" in a and "Tensor" in a.partition("|")[0] for p in overloads[name] for _, a, _, _ in p):
            numbers.add(name)
        if _takes_two_numbers(name):      # (aliases: torch.multiply(2, 3); the .pyi says Tensor)
            numbers.add(name)
        shown = _probe(name)
        if shown == ():
            continue
        if shown is None:
            # (the one printed signature: the .pyi's only overload without named dimensions)
            unnamed = [o for o in overloads[name]
                       if not any(p[0] == "names" or "EllipsisType" in p[1] for p in o)]
            if len(unnamed) != 1:
                continue          # (one of several declared: which one is not told)
            if len(overloads[name]) > 1:
                hidden.add(name)
            try:
                shown = [_from_pyi(unnamed[0])]      # (already annotated)
            except ValueError:
                continue          # (a type PyTorch's parser does not print: not taken)
        signatures[name] = tuple(_annotate(s, overloads[name]) for s in shown)
        if len(overloads[name]) > len(shown):
            hidden.add(name)
    return signatures, numbers, hidden


def symint_parameters(names):
    """name -> its int and int-list parameters the .pyi declares SymInt (``index: _int | SymInt``,
    ``dims: Sequence[_int | SymInt]``): PyTorch's parser takes a one-element integer tensor of
    any shape for such an int (and a bool one only to fail as it reads it), where an int64
    parameter takes a 0-d integer tensor alone; a bool tensor in such a list fails as it is read."""
    overloads = _pyi_overloads()
    found = {}
    for name in names:
        symint = {("input" if p[0] == "self" else p[0]) for o in overloads.get(name, ()) for p in o
                  if p[1].startswith(("_int | SymInt", "SymInt", "Sequence[_int | SymInt]"))}
        if symint:
            found[name] = tuple(sorted(symint))
    return found


# PyTorch's deprecated signatures (tools/autograd/deprecated.yaml): it takes them but prints
# them only in a warning. Each: its parameters in order ("self" the tensor a method is called
# on), of which the others are Scalars (Numbers); with the sizes of the tensors to try it on.
_DEPRECATED = {
    "add": [("self", "alpha", "other")], "sub": [("self", "alpha", "other")],
    "addcmul": [("self", "value", "tensor1", "tensor2")],
    "addcdiv": [("self", "value", "tensor1", "tensor2")],
    **{name: [("beta", "self", "alpha", a, b), ("beta", "self", a, b)] for name, a, b in (
        ("addmm", "mat1", "mat2"), ("addmv", "mat", "vec"), ("addr", "vec1", "vec2"),
        ("addbmm", "batch1", "batch2"), ("baddbmm", "batch1", "batch2"))},
}
_SIZES = {"addmv": {"self": (2,), "vec": (2,)}, "addr": {"vec1": (2,), "vec2": (2,)},
          "addbmm": {"batch1": (2, 2, 2), "batch2": (2, 2, 2)},
          "baddbmm": {"self": (2, 2, 2), "batch1": (2, 2, 2), "batch2": (2, 2, 2)}}
_SCALARS = ("alpha", "beta", "value")


def deprecated():
    """(functions, methods): name -> the deprecated signatures PyTorch takes, as its warning
    prints them (torch.add and x.add, and the in-place forms x.add_, torch.addmv_)."""
    import warnings
    torch._C._set_warnAlways(True)       # (the warning is given once a process otherwise)
    functions, methods = {}, {}
    for base, forms in _DEPRECATED.items():
        for parameters in forms:
            values = [2 if p in _SCALARS else torch.ones(_SIZES.get(base, {}).get(p, (2, 2)))
                      for p in parameters]
            self_at = parameters.index("self")
            for name in (base, base + "_"):
                calls = [(functions, lambda: getattr(torch, name)(*values))] if hasattr(torch, name) else []
                if hasattr(torch.Tensor, name):
                    calls.append((methods, lambda: getattr(values[self_at].clone(), name)(
                        *values[:self_at], *values[self_at + 1:])))
                for found, call in calls:
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        try:
                            call()
                        except (TypeError, RuntimeError):
                            continue
                    text = str(caught[0].message)
                    shown = re.search(r"deprecated:\n\t" + re.escape(name) + r"\((.*)\)\n", text).group(1)
                    found.setdefault(name, []).append(shown.replace(" = ", "="))
    torch._C._set_warnAlways(False)
    return ({name: tuple(s) for name, s in functions.items()},
            {name: tuple(s) for name, s in methods.items()})


def method_table():
    """Tensor.<name> -> its signatures (without self), for every method both libraries have
    that PyTorch's argument parser reads; the methods that take no arguments; and those with
    signatures PyTorch does not print."""
    import minigrad
    overloads = _pyi_overloads(PYI.parent / "__init__.pyi", "TensorBase")
    names = sorted(n for n in dir(minigrad.Tensor) if not n.startswith("_")
                   and n in vars(torch._C.TensorBase) and n not in vars(torch.Tensor)
                   and callable(getattr(torch.Tensor, n)))
    signatures, no_arguments, hidden = {}, set(), set()
    for name in names:
        shown = _probe(name, method=True)
        if shown == NO_ARGUMENTS:
            no_arguments.add(name)
            continue
        if shown == () or name not in overloads:
            continue
        if shown is None:
            unnamed = [o for o in overloads[name]
                       if not any(p[0] == "names" or "EllipsisType" in p[1] for p in o)]
            if len(unnamed) != 1:
                continue
            try:
                shown = [_first_name_as_printed(name, _from_pyi(unnamed[0]))]
            except ValueError:
                continue
        elif len(shown) == 1 or len(overloads[name]) > len(shown):
            hidden.add(name)      # (a lone signature never lists itself: others are hidden)
        signatures[name] = tuple(_annotate(s, overloads[name]) for s in shown)
    return signatures, no_arguments, hidden


def _first_name_as_printed(name, shown):
    """The .pyi's signature with its first parameter named as PyTorch's parser names it in
    its errors (x.requires_grad_(0): 'requires_grad', where the .pyi says 'mode')."""
    try:
        getattr(torch._C.TensorBase, name)(torch.ones(2, 2), object())
    except TypeError as error:
        found = re.search(r"argument '(\w+)' \(position 1\)", str(error))
    else:
        found = None
    if not found or not shown or shown.startswith("*"):
        return shown
    first, _, rest = shown.partition(", ")
    declared, equals, default = first.partition(" = ")     # (as _from_pyi writes a default)
    type_name, _, _ = declared.rpartition(" ")
    return ", ".join(filter(None, [f"{type_name} {found.group(1)}{equals}{default}", rest]))


def write_method_table():
    signatures, no_arguments, hidden = method_table()
    deprecated_methods = deprecated()[1]
    text = ('"""PyTorch 2.13\'s Python signatures of the Tensor methods minigrad has (facts about its API).\n\n'
            "Written by tools/make_signature_table.py, as _signature_table.py is for the torch.X\n"
            "functions and in its notation; ``self`` is not among the parameters. Read by\n"
            '_python_arg_parser.py. Regenerate rather than edit."""\n\n'
            "# name -> its signatures, in the order PyTorch tries them\n"
            f"SIGNATURES = {pprint.pformat(signatures, width=100, sort_dicts=True)}\n\n"
            "# the methods whose Tensor parameters take a Python number too (x.mul(2): PyTorch's list)\n"
            f"NUMBERS_AS_TENSORS = frozenset({pprint.pformat(sorted(n for n in signatures if torch._C._should_allow_numbers_as_tensors(n)), width=100, compact=True)})\n\n"
            "# the methods that take no argument at all (x.exp(1): Python's own TypeError)\n"
            f"NO_ARGUMENTS = frozenset({pprint.pformat(sorted(no_arguments), width=100, compact=True)})\n\n"
            "# the methods with signatures PyTorch does not print: a lone printed one is reported as\n"
            "# one of several\n"
            f"HIDDEN = frozenset({pprint.pformat(sorted(hidden | set(deprecated_methods)), width=100, compact=True)})\n\n"
            "# name -> its deprecated signatures, which PyTorch takes with a warning and never prints in\n"
            "# its errors (tools/autograd/deprecated.yaml)\n"
            f"DEPRECATED = {pprint.pformat(deprecated_methods, width=100, sort_dicts=True)}\n")
    (ROOT / "minigrad" / "_tensor_signature_table.py").write_text(text)
    print(len(signatures), "methods,", len(no_arguments), "without arguments")

# Written as they are (facts checked against torch 2.13 by calling each with wrong keyword
# arguments in turn): the factories whose one printed signature neither source tells.
_FACTORIES = "\n# the factories whose one printed signature the listings above cannot tell (their .pyi declares\n# `*size` and named-dimension overloads too, which PyTorch 2.13's parser does not offer), as\n# PyTorch 2.13 checks them: the order of the keyword arguments is the order in which it reports\n# the first wrong one (torch.empty checks memory_format first); `object data` takes anything\nFACTORY_SIGNATURES = {\n    '_efficientzerotensor': ('tuple of ints size, *, torch.dtype dtype=None, torch.layout layout=None, '\n                             'torch.device device=None, bool? pin_memory=False, bool? '\n                             'requires_grad=False',),\n    'asarray': ('object obj, *, torch.dtype? dtype=None, torch.device? device=None, bool? copy=None, '\n                'bool? requires_grad=False',),\n    'as_tensor': ('object data, *, torch.dtype dtype=None, torch.device? device=None',),\n    'empty': ('tuple of ints size, *, torch.memory_format? memory_format=None, Tensor out=None, '\n              'torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, '\n              'bool? pin_memory=False, bool? requires_grad=False',),\n    'full': ('tuple of ints size, Number fill_value, *, Tensor out=None, torch.dtype dtype=None, '\n             'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, '\n             'bool? requires_grad=False',),\n    'ones': ('tuple of ints size, *, Tensor out=None, torch.dtype dtype=None, torch.layout '\n             'layout=None, torch.device device=None, bool? pin_memory=False, bool? '\n             'requires_grad=False',),\n    'tensor': ('object data, *, torch.dtype dtype=None, torch.device? device=None, bool '\n               'pin_memory=False, bool requires_grad=False',),\n    'zeros': ('tuple of ints size, *, Tensor out=None, torch.dtype dtype=None, torch.layout '\n              'layout=None, torch.device device=None, bool? pin_memory=False, bool? '\n              'requires_grad=False',),\n}\n"


def main():
    signatures, numbers, hidden = table()
    deprecated_functions = deprecated()[0]
    hidden |= set(deprecated_functions)
    text = ('"""PyTorch 2.13\'s Python signatures of the torch.X functions minigrad has (facts about its API).\n\n'
            "Written by tools/make_signature_table.py from PyTorch's own listings of its signatures; read\n"
            "by _python_arg_parser.py. Each is written as PyTorch prints it, with ``?`` after the type\n"
            "of a parameter that takes None without a default, and ``tuple of ints[1]`` for a tuple of\n"
            'ints that also takes a single int. Regenerate rather than edit."""\n\n'
            "# name -> its signatures, in the order PyTorch tries them\n"
            f"SIGNATURES = {pprint.pformat(signatures, width=100, sort_dicts=True)}\n\n"
            "# the functions whose Tensor parameters take a Python number too (torch.add(2, 3))\n"
            f"NUMBERS_AS_TENSORS = frozenset({pprint.pformat(sorted(numbers), width=100, compact=True)})\n\n"
            "# the functions with signatures PyTorch does not print (deprecated ones): a lone printed one\n"
            "# is reported as one of several\n"
            f"HIDDEN = frozenset({pprint.pformat(sorted(hidden), width=100, compact=True)})\n\n"
            "# name -> its deprecated signatures, which PyTorch takes with a warning and never prints in\n"
            "# its errors (tools/autograd/deprecated.yaml)\n"
            f"DEPRECATED = {pprint.pformat(deprecated_functions, width=100, sort_dicts=True)}\n\n"
            "# name -> its int and int-list parameters PyTorch declares SymInt (a one-element integer\n"
            "# tensor of any shape counts as one such int; the others take a 0-d one alone)\n"
            f"SYMINT = {pprint.pformat(symint_parameters(signatures), width=100, sort_dicts=True)}\n"
            + _FACTORIES)
    (ROOT / "minigrad" / "_signature_table.py").write_text(text)
    print(len(signatures), "functions")
    write_method_table()


if __name__ == "__main__":
    main()
