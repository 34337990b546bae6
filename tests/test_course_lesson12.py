"""Lesson 12's exercise checks accept right answers (minigrad or torch) and explain wrong ones."""
import pytest

import minigrad
from minigrad.course import lesson12


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def three_momentum_steps(library):
    p = library.nn.Parameter(library.tensor(lesson12.EXERCISE_3_START))
    optimizer = library.optim.SGD([p], lr=lesson12.EXERCISE_3_LR,
                                  momentum=lesson12.EXERCISE_3_MOMENTUM)
    for _ in range(lesson12.EXERCISE_3_STEPS):
        p.grad = library.tensor(lesson12.EXERCISE_3_GRADIENT)
        optimizer.step()
    return p


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson12.exercise_1, lesson12.exercise_2, lesson12.exercise_3,
                     lesson12.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


@pytest.mark.parametrize("library_name", ["minigrad", "torch"])
def test_exercise_1_counts_parameters(capsys, library_name):
    library = pytest.importorskip(library_name)
    nn = library.nn
    model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
    result, out = run(capsys, lesson12.exercise_1, sum(p.numel() for p in model.parameters()))
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson12.exercise_1, library.tensor(65))
    assert result
    result, out = run(capsys, lesson12.exercise_1, 48)
    assert not result and "bias" in out
    result, out = run(capsys, lesson12.exercise_1, len(list(model.parameters())))
    assert not result and "tensors" in out
    result, out = run(capsys, lesson12.exercise_1, "many")
    assert not result and "number" in out


@pytest.mark.parametrize("library_name", ["minigrad", "torch"])
def test_exercise_2_weight_shape(capsys, library_name):
    library = pytest.importorskip(library_name)
    result, out = run(capsys, lesson12.exercise_2, library.nn.Linear(2, 16).weight.shape)
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson12.exercise_2, (2, 16))
    assert not result and "W1" in out
    result, out = run(capsys, lesson12.exercise_2, 32)
    assert not result and "Hint" in out


@pytest.mark.parametrize("library_name", ["minigrad", "torch"])
def test_exercise_3_momentum(capsys, library_name):
    library = pytest.importorskip(library_name)
    p = three_momentum_steps(library)
    result, out = run(capsys, lesson12.exercise_3, p.item())
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson12.exercise_3, p.detach())
    assert result
    result, out = run(capsys, lesson12.exercise_3, 0.7)
    assert not result and "momentum was not used" in out
    result, out = run(capsys, lesson12.exercise_3, 0.71)
    assert not result and "2 steps" in out
    result, out = run(capsys, lesson12.exercise_3, 0.5)
    assert not result and "Hint" in out


def test_exercise_3_matches_the_hand_formula():
    assert three_momentum_steps(minigrad).item() == pytest.approx(
        lesson12.sgd_momentum(1.0, 1.0, 0.1, 0.9, 3))


def test_exercise_4_accumulation(capsys):
    p = minigrad.nn.Parameter(minigrad.tensor(1.0))
    (3 * p).backward()
    (3 * p).backward()
    assert p.grad.item() == 6.0           # the sum: answer b
    result, out = run(capsys, lesson12.exercise_4, "b")
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson12.exercise_4, "a")
    assert not result and "Hint" in out
    result, out = run(capsys, lesson12.exercise_4, "d")
    assert not result and "choose" in out
