"""The exercise checks of lesson 10 accept the right answers and explain wrong ones."""
import math

import minigrad as torch
from minigrad.course import lesson10


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def central_difference(f, x, eps):
    return (f(x + eps) - f(x - eps)) / (2 * eps)


def g(x):
    return x * torch.exp(x)


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson10.exercise_1, lesson10.exercise_2, lesson10.exercise_3,
                     lesson10.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_finite_difference_in_float64(capsys):
    estimate = central_difference(g, torch.tensor(1.0, dtype=torch.float64), 1e-6)
    result, out = run(capsys, lesson10.exercise_1, estimate.item())
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson10.exercise_1, estimate)        # a tensor is fine too
    assert result
    in_float32 = central_difference(g, torch.tensor(1.0), 1e-6)
    assert abs(in_float32.item() - 2 * math.e) > 1e-6               # the lesson's point
    result, out = run(capsys, lesson10.exercise_1, in_float32.item())
    assert not result and "float64" in out
    result, out = run(capsys, lesson10.exercise_1, math.e)
    assert not result and "product rule" in out
    result, out = run(capsys, lesson10.exercise_1, 1.0)
    assert not result and "Hint" in out


def test_exercise_2_edges_into_the_leaf(capsys):
    a = torch.tensor(2.0, requires_grad=True)
    e = a * a * a
    inner = e.grad_fn.next_functions[0][0]
    edges = [node for node, _ in e.grad_fn.next_functions + inner.next_functions]
    count = sum(1 for node in edges if getattr(node, "variable", None) is a)
    result, out = run(capsys, lesson10.exercise_2, count)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson10.exercise_2, 2)
    assert not result and "Hint" in out


def test_exercise_3_waiting_for_all_gradients(capsys):
    result, out = run(capsys, lesson10.exercise_3, "b")
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson10.exercise_3, "a")
    assert not result and "Hint" in out


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


class ExpSavingInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.exp(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * torch.exp(x)


class ExpForgettingGradOutput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return result


class ExpWithBrokenBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.exp(x)

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors       # nothing was saved
        return grad_output * result


def test_exercise_4_custom_exp(capsys):
    result, out = run(capsys, lesson10.exercise_4, Exp)
    assert result and out.startswith("✅") and "Tip" not in out
    result, out = run(capsys, lesson10.exercise_4, ExpSavingInput)
    assert result and "Tip" in out
    result, out = run(capsys, lesson10.exercise_4, ExpForgettingGradOutput)
    assert not result and "grad_output" in out
    result, out = run(capsys, lesson10.exercise_4, ExpWithBrokenBackward)
    assert not result and "Hint" in out
    result, out = run(capsys, lesson10.exercise_4, Exp.apply)
    assert not result and "inherits" in out
    result, out = run(capsys, lesson10.exercise_4, torch.exp)
    assert not result
