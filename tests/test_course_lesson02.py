"""The exercise checks of lesson 2 accept the right answers and explain wrong ones."""
import pytest

import minigrad as torch
from minigrad.course import lesson02


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson02.exercise_1, lesson02.exercise_2, lesson02.exercise_3):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_gradient_of_a_cubic(capsys):
    x = torch.tensor(2., requires_grad=True)
    f = x ** 3 - 2 * x
    f.backward()
    result, out = run(capsys, lesson02.exercise_1, x.grad)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson02.exercise_1, 10)
    assert result
    result, out = run(capsys, lesson02.exercise_1, x)             # x itself, not its gradient
    assert not result and "Hint" in out
    result, out = run(capsys, lesson02.exercise_1, 12.0)          # forgot the -2
    assert not result and "3x² - 2" in out


def test_exercise_2_linear_regression_by_hand(capsys):
    x = torch.tensor([1., 2., 3.])
    W = torch.tensor([[0.1], [0.2], [0.3]], requires_grad=True)
    b = torch.tensor([0.5], requires_grad=True)
    y = torch.tensor([1.])
    ((x @ W + b - y) ** 2).backward()
    result, out = run(capsys, lesson02.exercise_2, W.grad)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson02.exercise_2, torch.tensor([[1.8], [3.6], [5.4]]))
    assert result
    result, out = run(capsys, lesson02.exercise_2, torch.tensor([1.8, 3.6, 5.4]))
    assert not result and "reshape" in out
    result, out = run(capsys, lesson02.exercise_2, torch.tensor([[0.9], [1.8], [2.7]]))  # no 2
    assert not result and "Hint" in out


def test_exercise_3_chain_rule_by_hand(capsys):
    x = torch.tensor(1., requires_grad=True)
    u = 3 * x
    (u ** 2 + u).backward()
    result, out = run(capsys, lesson02.exercise_3, x.grad)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson02.exercise_3, 21)
    assert result
    result, out = run(capsys, lesson02.exercise_3, 7)             # forgot du/dx = 3
    assert not result and "inner derivative" in out
    result, out = run(capsys, lesson02.exercise_3, x)             # x itself
    assert not result and "requires grad" in out
    result, out = run(capsys, lesson02.exercise_3, 9.0)
    assert not result and "Hint" in out


def test_answers_computed_with_real_pytorch_are_accepted(capsys):
    real = pytest.importorskip("torch")
    x = real.tensor(2., requires_grad=True)
    (x ** 3 - 2 * x).backward()
    result, out = run(capsys, lesson02.exercise_1, x.grad)
    assert result
    result, out = run(capsys, lesson02.exercise_2, real.tensor([[1.8], [3.6], [5.4]]))
    assert result
    result, out = run(capsys, lesson02.exercise_2, real.tensor([1.8, 3.6, 5.4]))
    assert not result and "reshape" in out
    x = real.tensor(1., requires_grad=True)
    ((3 * x) ** 2 + 3 * x).backward()
    result, out = run(capsys, lesson02.exercise_3, x.grad)
    assert result and out.startswith("✅")
