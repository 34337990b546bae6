"""The exercise checks of lesson 6 (leaves and nodes) accept right answers and explain wrong ones."""
import pytest

import minigrad as torch
from minigrad.course import lesson06


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson06.exercise_1, lesson06.exercise_2, lesson06.exercise_3,
                     lesson06.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_which_tensors_are_leaves(capsys):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    c = torch.tensor([3.0, 4.0])
    d = c * 2
    e = b.detach()
    flags = (a.is_leaf, b.is_leaf, c.is_leaf, d.is_leaf, e.is_leaf)
    result, out = run(capsys, lesson06.exercise_1, flags)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson06.exercise_1, list(flags))
    assert result
    result, out = run(capsys, lesson06.exercise_1, (True, False, True, False, True))
    assert not result and "❌" in out and "Hint" in out and "d is computed from c" in out
    result, out = run(capsys, lesson06.exercise_1, (True, False))
    assert not result and "five booleans" in out


def test_exercise_2_only_leaves_that_require_grad_get_grad(capsys):
    result, out = run(capsys, lesson06.exercise_2, ["w", "k"])
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson06.exercise_2, ("k", " w"))
    assert result
    result, out = run(capsys, lesson06.exercise_2, ["w", "h", "k"])
    assert not result and "Hint" in out and "non-leaves" in out
    result, out = run(capsys, lesson06.exercise_2, ["w"])
    assert not result and "Hint" in out and "detach" in out
    result, out = run(capsys, lesson06.exercise_2, 3)
    assert not result and "list of names" in out


def test_exercise_3_a_new_leaf_from_a_non_leaf(capsys):
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = w * 3
    result, out = run(capsys, lesson06.exercise_3, h.detach().requires_grad_())
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson06.exercise_3, h)
    assert not result and "not a leaf" in out and "Hint" in out
    result, out = run(capsys, lesson06.exercise_3, h.detach())
    assert not result and "requires_grad_()" in out
    result, out = run(capsys, lesson06.exercise_3, w.detach().requires_grad_())
    assert not result and "values" in out


def test_exercise_4_requires_grad_of_a_non_leaf(capsys):
    def change_flag():
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        (w * 2).requires_grad = False

    def change_a_leaf():
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        w.requires_grad = False

    def wrong_error():
        torch.tensor([1, 2], requires_grad=True)

    result, out = run(capsys, lesson06.exercise_4, change_flag)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson06.exercise_4, change_a_leaf)
    assert not result and "without raising" in out and "Hint" in out
    result, out = run(capsys, lesson06.exercise_4, wrong_error)
    assert not result and "different RuntimeError" in out
    result, out = run(capsys, lesson06.exercise_4, "y.requires_grad = False")
    assert not result and "expected a function" in out


def test_exercise_3_with_real_pytorch_tensors(capsys):
    """After a learner switches to `import torch`, the check still tells leaves from non-leaves."""
    pytorch = pytest.importorskip("torch")
    w = pytorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = w * 3
    result, out = run(capsys, lesson06.exercise_3, h.detach().requires_grad_())
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson06.exercise_3, h)
    assert not result and "not a leaf" in out
