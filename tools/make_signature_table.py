"""Write minigrad/_signature_table.py: PyTorch's Python signatures of the torch.X functions
minigrad has, as facts read off an installed PyTorch.

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


def _pyi_overloads():
    """name -> [[(parameter, annotation text, default text or None, keyword-only)], ...]."""
    tree = ast.parse(PYI.read_text())
    overloads = {}
    unparse = lambda node: "" if node is None else ast.unparse(node)    # noqa: E731
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        a = node.args
        positional = a.posonlyargs + a.args
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        params = [(p.arg, unparse(p.annotation), None if d is None else unparse(d), False)
                  for p, d in zip(positional, defaults)]
        params += [(p.arg, unparse(p.annotation), None if d is None else unparse(d), True)
                   for p, d in zip(a.kwonlyargs, a.kw_defaults)]
        overloads.setdefault(node.name, []).append(params)
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
        if default is None and annotation.endswith("| None"):
            type_name += "?"
        shown = f"{type_name} {'input' if name == 'self' else name}"
        parts.append(shown + ("" if default is None else f" = {default}"))
    return ", ".join(parts)


def _annotate(shown, overloads):
    """Add ``?`` and ``[1]`` to a printed signature from the .pyi overload with its names."""
    specs = shown.split(", ")
    names = [s.partition(" = ")[0].rpartition(" ")[2] for s in specs if s != "*"]
    for params in overloads:
        if [("input" if p[0] == "self" else p[0]) for p in params] == names:
            break
    else:
        params = None
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
            if not has_default and annotation.endswith("| None") and not type_name.endswith("?"):
                type_name += "?"
        out.append(f"{type_name} {name}" + (f"={default}" if has_default else ""))
        index += 1
    return ", ".join(out)


def _probe(name):
    """PyTorch's printed signatures of torch.<name>, or None if it has a single one."""
    try:
        getattr(torch, name)(*[object()] * 40)
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
    return ()             # (not parsed by PyTorch's argument parser: not taken)


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


def main():
    signatures, numbers, hidden = table()
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
            f"HIDDEN = frozenset({pprint.pformat(sorted(hidden), width=100, compact=True)})\n")
    (ROOT / "minigrad" / "_signature_table.py").write_text(text)
    print(len(signatures), "functions")


if __name__ == "__main__":
    main()
