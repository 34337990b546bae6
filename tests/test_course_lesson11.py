"""The exercise checks of lesson 11 accept the right answers and explain wrong ones."""
import math

import minigrad as torch
from minigrad.course import lesson11


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson11.exercise_1, lesson11.exercise_2, lesson11.exercise_3,
                     lesson11.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_second_derivative(capsys):
    x = torch.tensor(2.0, requires_grad=True)
    (first,) = torch.autograd.grad(x ** 4, x, create_graph=True)
    (second,) = torch.autograd.grad(first, x)
    result, out = run(capsys, lesson11.exercise_1, second)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson11.exercise_1, first)
    assert not result and "first derivative" in out
    result, out = run(capsys, lesson11.exercise_1, 24)
    assert not result and "Hint" in out


def test_exercise_2_hessian(capsys):
    def q(p):
        return p[0] * torch.exp(p[1])

    hessian = torch.autograd.functional.hessian(q, torch.tensor([2.0, 0.0]))
    result, out = run(capsys, lesson11.exercise_2, hessian)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson11.exercise_2, torch.eye(2))
    assert not result and "Hint" in out


def test_exercise_3_reverse_mode_cost(capsys):
    result, out = run(capsys, lesson11.exercise_3, 1000)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson11.exercise_3, 3)
    assert not result and "forward mode" in out
    result, out = run(capsys, lesson11.exercise_3, 1)
    assert not result and "Hint" in out


def test_exercise_4_newton(capsys):
    def h(x):
        return x ** 2 + torch.exp(-x)

    x = torch.tensor(lesson11.EXERCISE_4_START, dtype=torch.float64, requires_grad=True)
    for _ in range(lesson11.EXERCISE_4_STEPS):
        (slope,) = torch.autograd.grad(h(x), x, create_graph=True)
        (curvature,) = torch.autograd.grad(slope, x)
        with torch.no_grad():
            x -= slope / curvature
    assert abs(2 * x.item() - math.exp(-x.item())) < 1e-12      # it is the minimum
    result, out = run(capsys, lesson11.exercise_4, x.item())
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson11.exercise_4, x)           # a tensor is fine too
    assert result
    result, out = run(capsys, lesson11.exercise_4, 0.0)
    assert not result and "did not move" in out
    result, out = run(capsys, lesson11.exercise_4, lesson11.newton(0.0, 1))
    assert not result and "one step" in out
    result, out = run(capsys, lesson11.exercise_4, 1.0)
    assert not result and "Hint" in out
