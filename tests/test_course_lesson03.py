"""The exercise checks of lesson 3 accept the right answers and explain wrong ones."""
import pytest

import minigrad as torch
from minigrad.course import lesson03


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson03.exercise_1, lesson03.exercise_2, lesson03.exercise_3):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_autograd_grad_returns_a_tuple(capsys):
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 4.], requires_grad=True)
    grads = torch.autograd.grad((a * b).sum(), (a, b))
    result, out = run(capsys, lesson03.exercise_1, grads)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson03.exercise_1, list(grads))
    assert not result and "tuple" in out
    result, out = run(capsys, lesson03.exercise_1, grads[:1])
    assert not result and "Hint" in out
    result, out = run(capsys, lesson03.exercise_1, (grads[1], grads[0]))   # swapped
    assert not result and "Hint" in out


def test_exercise_2_gradient_through_a_loop(capsys):
    def grow(x):
        y = x
        while y.item() < 10:
            y = y * 2
        return y

    x = torch.tensor(3., requires_grad=True)
    grow(x).backward()
    result, out = run(capsys, lesson03.exercise_2, x.grad)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson03.exercise_2, 8)
    assert not result and "Hint" in out


def test_exercise_3_two_backward_passes_add_up(capsys):
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    s = (x ** 2).sum()
    s.backward(retain_graph=True)
    result, out = run(capsys, lesson03.exercise_3, x.grad.clone())    # after one pass only
    assert not result and "second backward() adds" in out
    s.backward()
    result, out = run(capsys, lesson03.exercise_3, x.grad)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson03.exercise_3, torch.tensor([4., 8., 13.]))
    assert not result and "Hint" in out
    result, out = run(capsys, lesson03.exercise_3, 24.0)
    assert not result


def test_answers_computed_with_real_pytorch_are_accepted(capsys):
    real = pytest.importorskip("torch")
    a = real.tensor([1., 2.], requires_grad=True)
    b = real.tensor([3., 4.], requires_grad=True)
    result, out = run(capsys, lesson03.exercise_1, real.autograd.grad((a * b).sum(), (a, b)))
    assert result and out.startswith("✅")
    x = real.tensor(3., requires_grad=True)
    y = x
    while y.item() < 10:
        y = y * 2
    y.backward()
    result, out = run(capsys, lesson03.exercise_2, x.grad)
    assert result
    x = real.tensor([1., 2., 3.], requires_grad=True)
    s = (x ** 2).sum()
    s.backward(retain_graph=True)
    s.backward()
    result, out = run(capsys, lesson03.exercise_3, x.grad)
    assert result and out.startswith("✅")
