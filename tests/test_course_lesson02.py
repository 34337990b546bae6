"""The exercise checks of lesson 2 accept the right answers and explain wrong ones."""
import pytest

import minigrad as torch
from minigrad.course import lesson02


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson02.exercise_1, lesson02.exercise_2, lesson02.exercise_3,
                     lesson02.exercise_4):
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


def test_exercise_3_autograd_grad_returns_a_tuple(capsys):
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 4.], requires_grad=True)
    grads = torch.autograd.grad((a * b).sum(), (a, b))
    result, out = run(capsys, lesson02.exercise_3, grads)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson02.exercise_3, list(grads))
    assert not result and "tuple" in out
    result, out = run(capsys, lesson02.exercise_3, grads[:1])
    assert not result and "Hint" in out
    result, out = run(capsys, lesson02.exercise_3, (grads[1], grads[0]))   # swapped
    assert not result and "Hint" in out


def test_exercise_4_gradient_through_a_loop(capsys):
    def grow(x):
        y = x
        while y.item() < 10:
            y = y * 2
        return y

    x = torch.tensor(3., requires_grad=True)
    grow(x).backward()
    result, out = run(capsys, lesson02.exercise_4, x.grad)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson02.exercise_4, 8)
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
    a = real.tensor([1., 2.], requires_grad=True)
    b = real.tensor([3., 4.], requires_grad=True)
    result, out = run(capsys, lesson02.exercise_3, real.autograd.grad((a * b).sum(), (a, b)))
    assert result and out.startswith("✅")
