"""Checks for lesson 9, the training loop: gradient descent written from scratch.

Used from ``notebooks/09_training_loop.ipynb``::

    from minigrad.course import lesson09 as check
    check.exercise_1(answer)

The lesson's two-parameter loss is L(a, b) = (a - 1)^2 + (b + 1)^2 + (a - b)^2,
with its minimum at a = 1/3, b = -1/3.
"""
import numpy as np

from .._creation import tensor
from ._check import check_choice, check_tensor, right, waiting, wrong, _is_tensor, _unanswered, _values

# Exercise 2: a few steps of gradient descent from this start point.
EXERCISE_2_START = (-1.0, 1.0)
EXERCISE_2_LR = 0.1
EXERCISE_2_STEPS = 5


def loss_gradient(a, b):
    """(dL/da, dL/db) of the lesson's two-parameter loss, written out by hand."""
    return 2 * (a - 1) + 2 * (a - b), 2 * (b + 1) - 2 * (a - b)


def descend(a, b, lr, steps):
    """Plain-Python gradient descent on the two-parameter loss: the final (a, b)."""
    for _ in range(steps):
        grad_a, grad_b = loss_gradient(a, b)
        a, b = a - lr * grad_a, b - lr * grad_b
    return a, b


def exercise_1(answer):
    """The gradient [dL/da, dL/db] at a = b = 0: [-2, 2]."""
    expected = tensor([-2.0, 2.0])
    if _is_tensor(answer) and tuple(answer.shape) == tuple(expected.shape) \
            and np.allclose(_values(answer), [2.0, -2.0]):
        return wrong("Exercise 1", "both signs are flipped.",
                     "At a = 0 the term (a - 1)^2 pulls a up towards 1, so L decreases when a "
                     "grows: dL/da is negative. Did you negate the gradient, like an update does?")
    return check_tensor(
        "Exercise 1", answer, expected,
        hint="Make a and b leaves equal to 0.0 with requires_grad=True, compute "
             "loss = two_param_loss(a, b), then grad_a, grad_b = torch.autograd.grad(loss, (a, b)) "
             "and answer torch.stack([grad_a, grad_b]).",
        success="correct: dL/da = 2(0 - 1) + 2(0 - 0) = -2 and dL/db = 2(0 + 1) - 2(0 - 0) = 2.")


def _as_pair(answer):
    values = []
    for value in answer:
        if _is_tensor(value):
            if value.numel() != 1:
                raise ValueError
            value = value.item()
        values.append(float(value))
    if len(values) != 2:
        raise ValueError
    return tuple(values)


def exercise_2(answer):
    """(a, b) after 5 steps of gradient descent from (-1, 1) with lr = 0.1."""
    name = "Exercise 2"
    if _unanswered(answer):
        return waiting(name)
    try:
        got = _as_pair(answer)
    except (TypeError, ValueError):
        return wrong(name, f"expected a pair (a, b) of numbers, got {answer!r}.",
                     "End the cell with answer = (a.item(), b.item()).")
    start, lr, steps = EXERCISE_2_START, EXERCISE_2_LR, EXERCISE_2_STEPS
    expected = descend(*start, lr, steps)
    if np.allclose(got, expected, atol=1e-4):
        return right(name, f"correct: a ≈ {expected[0]:.4f}, b ≈ {expected[1]:.4f}, on the way "
                           "to the minimum (1/3, -1/3).")
    if np.allclose(got, start):
        return wrong(name, "a and b did not move.",
                     "Update them in place inside torch.no_grad(): a -= lr * grad_a.")
    if np.allclose(got, descend(*start, -lr, steps), atol=1e-4):
        return wrong(name, "the loss went up: you stepped along the gradient.",
                     "Gradient descent SUBTRACTS the gradient: a -= lr * grad_a.")
    for other in (steps - 1, steps + 1):
        if np.allclose(got, descend(*start, lr, other), atol=1e-4):
            return wrong(name, f"these are the values after {other} steps, not {steps}.",
                         f"Use range({steps}) and read a and b after the loop.")
    return wrong(name, f"({got[0]:.4f}, {got[1]:.4f}) is not where {steps} steps with lr = {lr} "
                       f"from {start} end.",
                 "Use descend(-1.0, 1.0, lr=0.1, steps=5) from the lesson, or write the loop: "
                 "loss, torch.autograd.grad(loss, (a, b)), then the in-place update under no_grad.")


def exercise_3(answer):
    """Which update keeps w a leaf that requires grad: b) in place under no_grad."""
    return check_choice(
        "Exercise 3", answer, "b", ["a", "b", "c"],
        hint="w = w - ... makes a new tensor (and under no_grad it does not require grad); an "
             "in-place change of a leaf that requires grad is only allowed while recording is off.",
        success="correct: w -= lr * w.grad inside no_grad changes the same leaf in place.")


def exercise_4(answer):
    """With lr = 0.4 the descent from (0.5, -0.5) diverges."""
    name = "Exercise 4"
    if _unanswered(answer):
        return waiting(name)
    word = str(answer).strip().lower()
    if word.startswith("diverg"):
        return right(name, "correct: each step lands 1.4 times further from the minimum, on "
                           "the other side of the valley.")
    if word.startswith("converg"):
        return wrong(name, "look at the path again.",
                     "Print path[0], path[1], path[2], ... Does the distance to (1/3, -1/3) shrink "
                     "or grow from step to step?")
    return wrong(name, f'answer "converge" or "diverge" (got {answer!r}).')
