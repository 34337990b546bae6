"""The exercise checks of lesson 14 (forward mode, torch.func) accept right answers and explain wrong ones.

Each right answer is computed the way the lesson's solution does it, with
minigrad and (when installed) with real PyTorch: the checks accept both.
"""
import pytest

import minigrad
from minigrad.course import lesson14

from conftest import import_torch


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def libraries():
    return [minigrad, import_torch()]


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson14.exercise_1, lesson14.exercise_2, lesson14.exercise_3,
                     lesson14.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


@pytest.mark.parametrize("index", [0, 1])
def test_exercise_1_tangent(capsys, index):
    torch = libraries()[index]
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.tensor(1.0), torch.tensor(1.0))
        primal, tangent = fwAD.unpack_dual(x ** 3 * torch.exp(x))
    result, out = run(capsys, lesson14.exercise_1, tangent)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson14.exercise_1, primal)
    assert not result and "primal" in out
    result, out = run(capsys, lesson14.exercise_1, 3.0)
    assert not result and "Hint" in out


def test_exercise_2_forward_mode_cost(capsys):
    result, out = run(capsys, lesson14.exercise_2, 3)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson14.exercise_2, 1000)
    assert not result and "reverse mode" in out
    result, out = run(capsys, lesson14.exercise_2, 1)
    assert not result and "Hint" in out
    result, out = run(capsys, lesson14.exercise_2, "three")
    assert not result and "expected a number" in out


def f_exercise_3(p):
    return p[0] ** 2 * p[1] + p[1] * p[2] ** 3


@pytest.mark.parametrize("index", [0, 1])
def test_exercise_3_hessian_vector_product(capsys, index):
    torch = libraries()[index]
    p = torch.tensor(lesson14.EXERCISE_3_POINT)
    v = torch.tensor(lesson14.EXERCISE_3_DIRECTION)
    gradient, hvp = torch.func.jvp(torch.func.grad(f_exercise_3), (p,), (v,))
    result, out = run(capsys, lesson14.exercise_3, hvp)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson14.exercise_3, gradient)
    assert not result and "gradient" in out
    result, out = run(capsys, lesson14.exercise_3, torch.zeros(3))
    assert not result and "Hint" in out


@pytest.mark.parametrize("index", [0, 1])
def test_exercise_4_per_sample_gradients(capsys, index):
    torch = libraries()[index]

    def loss(w, x, y):
        return (w @ x - y) ** 2

    w = torch.tensor(lesson14.EXERCISE_4_W)
    X, Y = torch.tensor(lesson14.EXERCISE_4_X), torch.tensor(lesson14.EXERCISE_4_Y)
    per_sample = torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))(w, X, Y)
    result, out = run(capsys, lesson14.exercise_4, per_sample)
    assert result and out.startswith("✅")
    batch = torch.func.grad(lambda w: ((X @ w - Y) ** 2).mean())(w)
    result, out = run(capsys, lesson14.exercise_4, batch)
    assert not result and "mean loss" in out
    result, out = run(capsys, lesson14.exercise_4, torch.zeros(4, 3))
    assert not result and "Hint" in out
