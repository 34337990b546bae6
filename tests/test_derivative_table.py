"""The derivative table (minigrad.autograd.derivatives) covers every node and is published up to date."""
import pathlib
import subprocess
import sys

import minigrad
from minigrad.autograd import derivatives
from minigrad.autograd.derivative_table import FROM_BACKWARD, node_classes

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_every_node_class_has_a_row_with_its_backward_formula():
    rows = {(row.module, row.node): row for row in derivatives()}
    classes = node_classes()
    assert len(classes) > 100
    for cls in classes:
        row = rows[(cls.__module__, cls.__name__)]
        assert row.backward, f"{cls.__name__} has no docstring giving its backward formula"
        assert row.forward, f"{cls.__name__}.jvp has no docstring giving its forward rule"


def test_every_forward_rule_is_in_the_table():
    for cls in node_classes():
        jvp = cls.__dict__.get("jvp")
        if jvp is not None:
            row = next(r for r in derivatives() if r.node == cls.__name__ and r.module == cls.__module__)
            assert row.forward != FROM_BACKWARD and row.forward.strip(), cls.__name__


def test_rows_name_real_nodes_and_what_they_save():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    names = {row.node: row for row in derivatives()}
    y = (x * x).exp()
    assert y.grad_fn.name() in names
    assert names["MulBackward0"].saves == ("self", "other")


def test_the_docs_page_is_up_to_date():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "derivative_table.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
