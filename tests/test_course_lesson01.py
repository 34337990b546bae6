"""The exercise checks of lesson 1 accept the right answers and explain wrong ones."""
import pytest

import minigrad as torch
from minigrad.course import lesson01


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson01.exercise_1, lesson01.exercise_2, lesson01.exercise_3,
                     lesson01.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_which_tensors_require_grad(capsys):
    result, out = run(capsys, lesson01.exercise_1, ("q", "s", "t"))
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson01.exercise_1, ["t", "S", "q"])   # any order, any case
    assert result
    result, out = run(capsys, lesson01.exercise_1, ("q", "r", "s", "t"))
    assert not result and "❌" in out and "Hint" in out and "r = p * 2" in out
    result, out = run(capsys, lesson01.exercise_1, ("q",))
    assert not result and "Hint" in out


def test_exercise_2_float_tensor_that_requires_grad(capsys):
    result, out = run(capsys, lesson01.exercise_2, torch.tensor([1., 2., 3.], requires_grad=True))
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson01.exercise_2, torch.tensor([1, 2, 3]))
    assert not result and "Hint" in out and "decimal point" in out
    result, out = run(capsys, lesson01.exercise_2, torch.tensor([1., 2., 3.]))
    assert not result and "requires_grad=True" in out
    computed = torch.tensor([1., 2., 3.], requires_grad=True) * 1
    result, out = run(capsys, lesson01.exercise_2, computed)
    assert not result and "Hint" in out and "already requires grad" in out
    # the fix the lesson shows: convert first, then switch the flag on (still a leaf)
    converted = torch.tensor([1, 2, 3]).float().requires_grad_()
    result, out = run(capsys, lesson01.exercise_2, converted)
    assert result and out.startswith("✅")


def test_exercise_3_grad_fn_name(capsys):
    x = torch.ones(5)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    loss = (x @ w + b).mean()
    result, out = run(capsys, lesson01.exercise_3, "MeanBackward0")
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson01.exercise_3, loss.grad_fn)       # the node itself is fine too
    assert result
    result, out = run(capsys, lesson01.exercise_3, "AddBackward0")
    assert not result and "Hint" in out and "LAST" in out


def test_exercise_4_which_line_only_reads_the_flag(capsys):
    result, out = run(capsys, lesson01.exercise_4, "d")
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson01.exercise_4, " D ")
    assert result
    result, out = run(capsys, lesson01.exercise_4, "b")
    assert not result and "Hint" in out


def test_answers_computed_with_real_pytorch_are_accepted(capsys):
    real = pytest.importorskip("torch")
    result, out = run(capsys, lesson01.exercise_2, real.tensor([1., 2., 3.], requires_grad=True))
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson01.exercise_2, real.tensor([1, 2, 3]))
    assert not result and "decimal point" in out
    w = real.randn(5, 3, requires_grad=True)
    loss = (real.ones(5) @ w).mean()
    result, out = run(capsys, lesson01.exercise_3, loss.grad_fn)
    assert result
