"""The exercise checks of lesson 9 accept the right answers and explain wrong ones."""
import minigrad as torch
from minigrad.course import lesson09


def run(capsys, exercise, answer):
    result = exercise(answer)
    return result, capsys.readouterr().out


def two_param_loss(a, b):
    return (a - 1) ** 2 + (b + 1) ** 2 + (a - b) ** 2


def descend(a_start, b_start, lr, steps):
    """The loop the notebook teaches, with minigrad tensors."""
    a = torch.tensor(a_start, requires_grad=True)
    b = torch.tensor(b_start, requires_grad=True)
    for _ in range(steps):
        grad_a, grad_b = torch.autograd.grad(two_param_loss(a, b), (a, b))
        with torch.no_grad():
            a -= lr * grad_a
            b -= lr * grad_b
    return a, b


def test_unanswered_exercises_wait(capsys):
    for exercise in (lesson09.exercise_1, lesson09.exercise_2, lesson09.exercise_3,
                     lesson09.exercise_4):
        result, out = run(capsys, exercise, None)
        assert not result and out.startswith("⏳")


def test_hand_gradient_matches_autograd():
    a = torch.tensor(0.7, requires_grad=True)
    b = torch.tensor(-1.2, requires_grad=True)
    grads = torch.autograd.grad(two_param_loss(a, b), (a, b))
    for got, want in zip(grads, lesson09.loss_gradient(0.7, -1.2)):
        assert abs(got.item() - want) < 1e-5


def test_exercise_1_gradient_at_origin(capsys):
    a = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    grad_a, grad_b = torch.autograd.grad(two_param_loss(a, b), (a, b))
    result, out = run(capsys, lesson09.exercise_1, torch.stack([grad_a, grad_b]))
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson09.exercise_1, torch.tensor([2.0, -2.0]))
    assert not result and "signs" in out and "Hint" in out
    result, out = run(capsys, lesson09.exercise_1, torch.tensor([-2.0, 0.0]))
    assert not result and "Hint" in out


def test_exercise_2_five_steps(capsys):
    a, b = descend(*lesson09.EXERCISE_2_START, lesson09.EXERCISE_2_LR, lesson09.EXERCISE_2_STEPS)
    result, out = run(capsys, lesson09.exercise_2, (a.item(), b.item()))
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson09.exercise_2, (a, b))      # tensors are fine too
    assert result
    a6, b6 = descend(*lesson09.EXERCISE_2_START, lesson09.EXERCISE_2_LR, 6)
    result, out = run(capsys, lesson09.exercise_2, (a6.item(), b6.item()))
    assert not result and "after 6 steps" in out
    result, out = run(capsys, lesson09.exercise_2, lesson09.EXERCISE_2_START)
    assert not result and "did not move" in out
    result, out = run(capsys, lesson09.exercise_2, (0.0, 0.0))
    assert not result and "Hint" in out
    result, out = run(capsys, lesson09.exercise_2, "ab")
    assert not result and "pair" in out


def test_exercise_3_in_place_update(capsys):
    result, out = run(capsys, lesson09.exercise_3, "b")
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson09.exercise_3, "a")
    assert not result and "Hint" in out


def test_exercise_4_large_learning_rate_diverges(capsys):
    a, b = descend(0.5, -0.5, 0.4, 30)
    assert abs(a.item()) > 100              # the lesson's claim: it really diverges
    result, out = run(capsys, lesson09.exercise_4, "diverge")
    assert result and out.startswith("✅")
    result, out = run(capsys, lesson09.exercise_4, "Diverges")
    assert result
    result, out = run(capsys, lesson09.exercise_4, "converge")
    assert not result and "Hint" in out
    result, out = run(capsys, lesson09.exercise_4, "maybe")
    assert not result and "converge" in out
