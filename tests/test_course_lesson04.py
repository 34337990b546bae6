"""The exercise checks of lesson 4 accept the right answers and explain wrong ones."""
import pytest

import minigrad as torch
from minigrad.course import lesson04


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson04.exercise_1, lesson04.exercise_2, lesson04.exercise_3,
                     lesson04.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_exercise_1_four_accumulated_calls(capsys):
    inp = torch.eye(5, requires_grad=True)
    out = (inp + 1).pow(2)
    for _ in range(4):
        out.backward(torch.ones_like(inp), retain_graph=True)
    result, text = run(capsys, lesson04.exercise_1, inp.grad[0, 0])
    assert result and text.startswith("✅")
    result, text = run(capsys, lesson04.exercise_1, 4)
    assert not result and "Hint" in text


def test_exercise_2_held_reference(capsys):
    result, out = run(capsys, lesson04.exercise_2, "b")
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson04.exercise_2, "a")
    assert not result and "Hint" in out
    result, out = run(capsys, lesson04.exercise_2, "z")
    assert not result and "choose one of" in out


def train(zero_each_step):
    x = torch.tensor(lesson04.EXERCISE_3_X)
    y = torch.tensor(lesson04.EXERCISE_3_Y)
    w = torch.tensor(0., requires_grad=True)
    b = torch.tensor(0., requires_grad=True)
    for _ in range(lesson04.EXERCISE_3_STEPS):
        loss = ((w * x + b - y) ** 2).mean()
        if zero_each_step:
            w.grad = None
            b.grad = None
        loss.backward()
        with torch.no_grad():
            w -= lesson04.EXERCISE_3_LR * w.grad
            b -= lesson04.EXERCISE_3_LR * b.grad
    return w, b


def test_exercise_3_training_loop(capsys):
    w, b = train(zero_each_step=True)
    result, out = run(capsys, lesson04.exercise_3, (w.item(), b.item()))
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson04.exercise_3, (w, b))        # one-element tensors work too
    assert result
    w, b = train(zero_each_step=False)
    result, out = run(capsys, lesson04.exercise_3, (w.item(), b.item()))
    assert not result and "never resets" in out and "Hint" in out
    result, out = run(capsys, lesson04.exercise_3, (0.0, 0.0))
    assert not result and "no_grad" in out
    result, out = run(capsys, lesson04.exercise_3, 2.0)
    assert not result and "pair" in out


def test_exercise_4_micro_batch_scale(capsys):
    result, out = run(capsys, lesson04.exercise_4, 1 / 3)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson04.exercise_4, 3)
    assert not result and "Hint" in out


def test_answers_computed_with_real_pytorch_are_accepted(capsys):
    real = pytest.importorskip("torch")
    w, b = train(zero_each_step=True)
    result, out = run(capsys, lesson04.exercise_3, (real.tensor(w.item()), real.tensor(b.item())))
    assert result
    result, out = run(capsys, lesson04.exercise_1, real.tensor(16.))
    assert result
