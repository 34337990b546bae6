"""Write minigrad/_operator_table.py: PyTorch's ATen operators and which one each backward node
stands for, as facts read off an installed PyTorch.

Run from the repository root with PyTorch installed::

    python tools/make_operator_table.py

Two sources, both shipped with PyTorch in its ``torchgen`` package:

* native_functions.yaml lists every ATen operator with its overloads (``mm``: ``default``,
  ``out``, ``dtype``, ...): ``torch.ops.aten.<name>.<overload>`` exists exactly for these;
* derivatives.yaml gives each differentiable operator the backward node PyTorch generates
  for it (``mul.Tensor``: ``MulBackward0``, ``mul.Scalar``: ``MulBackward1``); torchgen's own
  loader names the nodes, so the names are PyTorch's, not a guess at its naming rule.

For the operators that record a node (and their in-place forms), the table also gives the
positional arguments of their schema (``slice.Tensor``: ``Tensor(a) self, int dim=0, SymInt?
start=None, SymInt? end=None, SymInt step=1``).
"""
import os
import pathlib
import pprint

import torchgen
from torchgen.gen import parse_native_yaml
from torchgen.packaged.autograd.load_derivatives import load_derivatives

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGED = pathlib.Path(os.path.dirname(torchgen.__file__)) / "packaged"
NATIVE = PACKAGED / "ATen" / "native" / "native_functions.yaml"
TAGS = PACKAGED / "ATen" / "native" / "tags.yaml"
DERIVATIVES = PACKAGED / "autograd" / "derivatives.yaml"

HEADER = '''"""PyTorch 2.13's ATen operators (facts about its dispatcher), for ``torch.ops.aten``.

Written by tools/make_operator_table.py from PyTorch's native_functions.yaml and
derivatives.yaml; read by _op_overloads.py. Regenerate rather than edit."""

'''


def overloads():
    """operator name -> its overload names (``default`` for the one without a name)."""
    parsed = parse_native_yaml(str(NATIVE), str(TAGS))
    table = {}
    for function in parsed.native_functions:
        name = function.func.name
        table.setdefault(str(name.name), []).append(name.overload_name or "default")
    return {name: tuple(names) for name, names in sorted(table.items())}


def node_operators():
    """backward node name -> ``name.overload`` of the functional operator that records it (an
    in-place or out= variant records the same node: the functional one is listed)."""
    infos, _ = load_derivatives(str(DERIVATIVES), str(NATIVE), str(TAGS))
    table = {}
    for by_dispatch_key in infos.values():
        for info in by_dispatch_key.values():
            name = info.func.func.name
            if info.op is None or name.name.inplace or name.overload_name.endswith("out"):
                continue
            table.setdefault(info.op, f"{name.name}.{name.overload_name or 'default'}")
    return dict(sorted(table.items()))


def schemas(names):
    """``name.overload`` -> its positional arguments as PyTorch's schema writes them
    (``Tensor self, int dim=0, SymInt? start=None, ...``), for ``names``."""
    parsed = parse_native_yaml(str(NATIVE), str(TAGS))
    table = {}
    for function in parsed.native_functions:
        name = function.func.name
        key = f"{name.name}.{name.overload_name or 'default'}"
        if key in names:
            table[key] = ", ".join(str(argument) for argument in function.func.arguments.flat_positional)
    return dict(sorted(table.items()))


def main():
    nodes = node_operators()
    all_overloads = overloads()
    recorded = set(nodes.values())
    for named in list(recorded):            # the in-place forms record the same nodes
        name, overload_name = named.split(".")
        if overload_name in all_overloads.get(name + "_", ()):
            recorded.add(f"{name}_.{overload_name}")
    text = (HEADER + "# operator name -> its overloads, in native_functions.yaml's order\n"
            + "OVERLOADS = " + pprint.pformat(all_overloads, width=100) + "\n\n"
            + "# backward node -> the operator (name.overload) whose call records it\n"
            + "NODE_OPERATORS = " + pprint.pformat(nodes, width=100) + "\n\n"
            + "# operator (name.overload) -> its positional arguments, as in its schema\n"
            + "SCHEMAS = " + pprint.pformat(schemas(recorded), width=100) + "\n")
    (ROOT / "minigrad" / "_operator_table.py").write_text(text)


if __name__ == "__main__":
    main()
