"""The exercise checks of lesson 7 (retain_grad and hooks) accept right answers and explain wrong ones."""
import pytest

import minigrad as torch
from minigrad.course import lesson07


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def graph():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x ** 2
    y = (3 * h).sum()
    return x, h, y


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson07.exercise_1, lesson07.exercise_2, lesson07.exercise_3,
                     lesson07.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_retained_gradient(capsys):
    x, h, y = graph()
    h.retain_grad()
    y.backward()
    result, out = run(capsys, lesson07.exercise_1, h.grad)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson07.exercise_1, x.grad)
    assert not result and "That is x.grad" in out
    result, out = run(capsys, lesson07.exercise_1, torch.ones(3))
    assert not result and "Hint" in out and "retain_grad" in out


def test_exercise_2_hook_that_changes_the_gradient(capsys):
    x, h, y = graph()
    h.register_hook(lambda grad: grad * 10)
    y.backward()
    result, out = run(capsys, lesson07.exercise_2, x.grad)
    assert result and out.startswith("✅")

    x, h, y = graph()
    h.register_hook(lambda grad: print(grad * 10))    # forgets to return the new gradient
    y.backward()
    capsys.readouterr()
    result, out = run(capsys, lesson07.exercise_2, x.grad)
    assert not result and "return" in out

    result, out = run(capsys, lesson07.exercise_2, torch.full((3,), 30.0))
    assert not result and "Pass x.grad" in out


def test_exercise_3_walk_next_functions(capsys):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x.exp() * 2).sum()
    names, nodes = [], []
    node = y.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        nodes.append(node)
        node = node.next_functions[0][0] if node.next_functions else None
    result, out = run(capsys, lesson07.exercise_3, names)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson07.exercise_3, nodes)            # the nodes themselves
    assert result
    pytorch_spelling = names[:-1] + ["torch::autograd::AccumulateGrad"]
    result, out = run(capsys, lesson07.exercise_3, pytorch_spelling)
    assert result
    result, out = run(capsys, lesson07.exercise_3, list(reversed(names)))
    assert not result and "reverse order" in out
    result, out = run(capsys, lesson07.exercise_3, names[:2])
    assert not result and "Keep going" in out
    result, out = run(capsys, lesson07.exercise_3, "SumBackward0")
    assert not result and "list of names" in out


def test_exercise_4_hook_removed_by_its_handle(capsys):
    result, out = run(capsys, lesson07.exercise_4, 2)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson07.exercise_4, 3)
    assert not result and "Hint" in out and "remove" in out


def test_exercise_3_with_real_pytorch_nodes(capsys):
    """PyTorch's nodes (and its spelling of AccumulateGrad) are accepted too."""
    pytorch = pytest.importorskip("torch")
    x = pytorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x.exp() * 2).sum()
    nodes, names = [], []
    node = y.grad_fn
    while node is not None:
        nodes.append(node)
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    result, out = run(capsys, lesson07.exercise_3, nodes)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson07.exercise_3, names)
    assert result
