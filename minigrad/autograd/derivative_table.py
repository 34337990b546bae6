"""Every derivative in minigrad, in one table generated from the code itself.

Each backward node's docstring begins with one line of math in one convention,
the operation and then its vector-Jacobian product, one ``grad_<input>`` per input:

    result = self * other   ->   grad_self = grad * other; grad_other = grad * self

``grad`` is the gradient arriving from the output, ``result`` the output itself,
and the inputs carry PyTorch's argument names (``self``, ``other``, ``mat2``, ...),
as in PyTorch's ``tools/autograd/derivatives.yaml``. A node's ``jvp`` method, when
it has one, begins with the forward-mode rule in the same style, with ``<input>_t``
for the tangents: ``result_t = self_t * other + self * other_t``. ``_saved_names``
says which values the forward pass keeps for backward (``grad_fn._saved_*``).
This module collects them: derivatives.yaml read from the nodes instead of written
apart from them. tests/test_derivative_table.py checks every node follows the form.

    python tools/derivative_table.py        # writes docs/derivatives.md from this module
"""
from collections import namedtuple
import re

from .graph import Node

Derivative = namedtuple("Derivative", ["node", "module", "backward", "forward", "saves"])
Derivative.__doc__ = """One row of the derivative table: a node class, where it lives, its formulas and saved values."""

# What forward mode does for a node without a ``jvp`` of its own (forward_ad.py).
FROM_BACKWARD = "J v computed from the backward formula (jvp_from_backward)"

# The convention every row follows: the operation, "   ->   ", then one "grad_<input> = ..."
# per input, separated by "; " (the first line of each node's docstring).
SEPARATOR = "   ->   "
BACKWARD_FORM = re.compile(r"^(result|results|values, indices|result\[k\]) = .+?   ->   "
                           r"grad_\w+(\[[^\]]*\])? = [^;]+(; grad_\w+(\[[^\]]*\])? = [^;]+)*$")
FORWARD_FORM = re.compile(r"^(result|results|values)_t = .+$")

# Famous results that take more than one node: the table's rows, composed.
COMPOSED = [
    ("cross_entropy(logits, target)",
     "LogSoftmaxBackward0 then NllLossBackward0",
     "grad_logits = (softmax(logits) - one_hot(target)) / N for reduction='mean' "
     "(without the / N for 'sum')"),
    ("binary_cross_entropy_with_logits(x, target)", "BinaryCrossEntropyWithLogitsBackward0",
     "grad_x = (sigmoid(x) - target) / N for reduction='mean'"),
    ("mse_loss(input, target)", "MseLossBackward0", "grad_input = 2 (input - target) / N for reduction='mean'"),
]


def _first_line(text):
    """A docstring's first paragraph on one line (a formula may wrap onto a second line)."""
    paragraph = (text or "").strip().split("\n\n")[0]
    line = " ".join(line.strip() for line in paragraph.splitlines())
    return re.sub(r"\s+->\s+", SEPARATOR, line, count=1)    # a wrapped "->" keeps its spacing


def node_classes():
    """Every backward node class defined in minigrad, sorted by module then name."""
    import minigrad                      # noqa: F401  lazy: every op module must be loaded; this one loads during import minigrad
    import minigrad.utils.checkpoint     # noqa: F401
    import minigrad.nn.modules._functions  # noqa: F401  (the module backward hooks' node)
    import minigrad.distributions        # noqa: F401  (minigrad imports it at its first use)
    found, stack = set(), [Node]
    while stack:
        for subclass in stack.pop().__subclasses__():
            if subclass not in found:
                found.add(subclass)
                stack.append(subclass)
    return sorted((cls for cls in found if cls.__module__.startswith("minigrad.")),
                  key=lambda cls: (cls.__module__, cls.__name__))


def backward_formula(cls):
    """The first line of the node's docstring (a custom Function: its backward's docstring)."""
    function = cls.__dict__.get("_forward_cls")
    if function is not None:
        return _first_line(function.backward.__doc__) or _first_line(function.__doc__)
    return _first_line(cls.__dict__.get("__doc__"))


def forward_rule(cls):
    """The first line of the node's ``jvp`` docstring, or how forward mode copes without one."""
    jvp = getattr(cls, "jvp", None)
    if jvp is None or cls.__dict__.get("_forward_cls") is not None:
        return FROM_BACKWARD
    return _first_line(jvp.__doc__)


def derivatives():
    """The derivative table: one ``Derivative`` row per backward node class in minigrad.

    Each row: the node's name (``MulBackward0``), its module, the backward formula
    (the vector-Jacobian product, from its docstring), the forward-mode rule (from
    its ``jvp``) and the names of what it saves for backward.
    """
    return [Derivative(cls.__name__, cls.__module__, backward_formula(cls), forward_rule(cls),
                       tuple(cls._saved_names))
            for cls in node_classes()]


def markdown():
    """The table as a Markdown page (what docs/derivatives.md holds)."""
    lines = ["# Every derivative in minigrad", "",
             "Generated by `python tools/derivative_table.py` "
             "from the nodes' docstrings; do not edit by hand.", "",
             "Each row: the backward node (what `grad_fn.name()` shows), the operation and its "
             "backward formula (the vector-Jacobian product), the forward-mode rule (`jvp`), "
             "and what the forward pass saves for backward.", ""]
    lines += ["Results worth knowing by heart (the first takes two nodes):", "",
              "| operation | nodes | gradient |", "|---|---|---|"]
    lines += [f"| `{operation}` | {nodes} | {gradient} |" for operation, nodes, gradient in COMPOSED]
    module = None
    for row in derivatives():
        if row.module != module:
            module = row.module
            lines += ["", f"## {module}", "",
                      "| node | backward | forward mode | saves |", "|---|---|---|---|"]
        cells = [f"`{row.node}`", row.backward, row.forward, ", ".join(row.saves) or "-"]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"

