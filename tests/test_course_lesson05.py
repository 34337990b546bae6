"""The exercise checks of lesson 5 (no_grad and detach) accept right answers and explain wrong ones."""
import pytest

import minigrad as torch
from minigrad.course import lesson05


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson05.exercise_1, lesson05.exercise_2, lesson05.exercise_3,
                     lesson05.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_flags_under_no_grad_and_enable_grad(capsys):
    result, out = run(capsys, lesson05.exercise_1, (False, True))
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson05.exercise_1, [False, True])    # a list is fine too
    assert result
    result, out = run(capsys, lesson05.exercise_1, (False, False))
    assert not result and "❌" in out and "Hint" in out and "enable_grad" in out


def descend(steps=100, lr=0.1, in_place=True, zero=True):
    w = torch.zeros(2, requires_grad=True)
    for _ in range(steps):
        h = (w[0] - 2) ** 2 + 2 * (w[1] + 1) ** 2
        h.backward()
        with torch.no_grad():
            if in_place:
                w -= lr * w.grad
            else:
                return w - lr * w.grad          # what rebinding leaves behind
        if zero:
            w.grad.zero_()
    return w


def test_exercise_2_gradient_descent_reaches_the_minimum(capsys):
    result, out = run(capsys, lesson05.exercise_2, descend())
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson05.exercise_2, descend(steps=3))
    assert not result and "Hint" in out
    result, out = run(capsys, lesson05.exercise_2, descend(in_place=False))
    assert not result and "no longer requires grad" in out
    result, out = run(capsys, lesson05.exercise_2, torch.zeros(2, requires_grad=True))
    assert not result and "starting point" in out
    result, out = run(capsys, lesson05.exercise_2, descend(zero=False))
    assert not result and "never zeroes w.grad" in out
    result, out = run(capsys, lesson05.exercise_2, torch.zeros(3))
    assert not result and "shape" in out


def test_exercise_3_backward_notices_a_change_through_detach(capsys):
    def break_it():
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        h = x * 2
        y = (h * h).sum()
        h.detach()[0] = 0.0
        y.backward()

    def change_a_copy():
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        h = x * 2
        y = (h * h).sum()
        h.detach().clone()[0] = 0.0
        y.backward()

    def backward_twice():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        y.backward()

    result, out = run(capsys, lesson05.exercise_3, break_it)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson05.exercise_3, change_a_copy)
    assert not result and "without raising" in out and "Hint" in out
    result, out = run(capsys, lesson05.exercise_3, backward_twice)
    assert not result and "different RuntimeError" in out
    result, out = run(capsys, lesson05.exercise_3, 3)
    assert not result and "expected a function" in out


def test_exercise_4_set_grad_enabled_from_a_flag(capsys):
    def forward(x, training):
        with torch.set_grad_enabled(training):
            return (x ** 2).sum()

    def always_records(x, training):
        return (x ** 2).sum()

    def switches_off_for_good(x, training):
        torch.set_grad_enabled(training)
        return (x ** 2).sum()

    result, out = run(capsys, lesson05.exercise_4, forward)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson05.exercise_4, always_records)
    assert not result and "training=False" in out and "Hint" in out
    result, out = run(capsys, lesson05.exercise_4, switches_off_for_good)
    assert not result and "still switched off" in out
    assert torch.is_grad_enabled()          # the check put the mode back


def test_exercise_4_with_real_pytorch(capsys):
    """After a learner switches to `import torch`, their forward runs on PyTorch tensors."""
    pytorch = pytest.importorskip("torch")
    namespace = {"torch": pytorch}
    exec("def forward(x, training):\n"
         "    with torch.set_grad_enabled(training):\n"
         "        return (x ** 2).sum()\n", namespace)
    result, out = run(capsys, lesson05.exercise_4, namespace["forward"])
    assert result and out.startswith("✅")
    exec("def forward_off(x, training):\n"
         "    torch.set_grad_enabled(training)\n"
         "    return (x ** 2).sum()\n", namespace)
    result, out = run(capsys, lesson05.exercise_4, namespace["forward_off"])
    assert not result and "still switched off" in out
    assert pytorch.is_grad_enabled()
