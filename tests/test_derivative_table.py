"""The derivative table (minigrad.autograd.derivatives) covers every node, in one form, and is published up to date."""
import pathlib
import subprocess
import sys

import minigrad
from minigrad.autograd import derivatives
from minigrad.autograd.derivative_table import (BACKWARD_FORM, FORWARD_FORM, FROM_BACKWARD, SEPARATOR,
                                                node_classes)

ROOT = pathlib.Path(__file__).resolve().parent.parent


def rows_by_class():
    rows = {(row.module, row.node): row for row in derivatives()}
    return [(cls, rows[(cls.__module__, cls.__name__)]) for cls in node_classes()]


def test_every_node_class_has_a_row():
    classes = node_classes()
    assert len(classes) > 100
    assert len(derivatives()) == len(classes)


def test_every_backward_formula_is_one_line_in_the_vjp_form():
    """``result = <operation>   ->   grad_<input> = ...; grad_<input> = ...`` for every node."""
    wrong = [f"{cls.__name__}: {row.backward!r}" for cls, row in rows_by_class()
             if not BACKWARD_FORM.match(row.backward)]
    assert wrong == []


def test_every_forward_rule_is_in_the_table_in_the_same_style():
    """Every class with a ``jvp`` shows its rule (``result_t = ...``); the others say they use backward's."""
    wrong = []
    for cls, row in rows_by_class():
        has_jvp = getattr(cls, "jvp", None) is not None and cls.__dict__.get("_forward_cls") is None
        if has_jvp and not FORWARD_FORM.match(row.forward):
            wrong.append(f"{cls.__name__}: {row.forward!r}")
        if not has_jvp and row.forward != FROM_BACKWARD:
            wrong.append(f"{cls.__name__}: {row.forward!r} (no jvp of its own)")
    assert wrong == []


def test_each_input_gradient_is_named_once():
    for cls, row in rows_by_class():
        vjp = row.backward.split(SEPARATOR, 1)[1]
        names = [part.split(" = ", 1)[0] for part in vjp.split("; ")]
        assert len(names) == len(set(names)), cls.__name__


def test_rows_name_real_nodes_and_what_they_save():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    names = {row.node: row for row in derivatives()}
    y = (x * x).exp()
    assert y.grad_fn.name() in names
    assert names["MulBackward0"].saves == ("self", "other")
    assert names["MulBackward0"].backward == (
        "result = self * other   ->   grad_self = grad * other; grad_other = grad * self")


def test_the_famous_cross_entropy_gradient_is_stated():
    from minigrad.autograd.derivative_table import markdown
    assert "grad_logits = (softmax(logits) - one_hot(target)) / N" in markdown()


def test_the_docs_page_is_up_to_date():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "derivative_table.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
