"""Checks for lesson 4, gradient accumulation: ``.grad`` adds up until you reset it.

Used from ``notebooks/04_gradient_accumulation.ipynb``::

    from minigrad.course import lesson04 as check
    check.exercise_1(answer)
"""
import numpy as np

from ._check import _is_tensor, _unanswered, check_choice, check_number, right, waiting, wrong

# The data of exercise 3 (the notebook shows the same numbers): points on y = 2x + 1.
EXERCISE_3_X = [-2.0, -1.0, 0.0, 1.0, 2.0]
EXERCISE_3_Y = [-3.0, -1.0, 1.0, 3.0, 5.0]
EXERCISE_3_LR = 0.1
EXERCISE_3_STEPS = 25


def exercise_1(answer):
    """inp.grad[0, 0] after four backward calls without zeroing (4 each time: 16)."""
    return check_number(
        "Exercise 1", answer, 16.0,
        hint="One backward call puts 2·(inp + 1) = 4 on the diagonal. Every further call ADDS "
             "the same amount again. How much after four calls?",
        success="correct: 4 + 4 + 4 + 4 = 16.")


def exercise_2(answer):
    """What happens to a held reference ``g = w.grad`` after ``w.grad = None`` and a new backward."""
    return check_choice(
        "Exercise 2", answer, "b", ["a", "b", "c"],
        hint="Setting w.grad = None only unhooks the tensor from w; it does not change the "
             "tensor itself. The next backward then has no .grad to add into.",
        success="correct: g keeps the old values, and backward creates a new tensor for w.grad.")


def _gradient_descent(zero_each_step, steps=None):
    """The loop of exercise 3, in plain numpy: w, b after ``steps`` (default: the exercise's) steps."""
    x = np.array(EXERCISE_3_X)
    y = np.array(EXERCISE_3_Y)
    w = b = 0.0
    grad_w = grad_b = 0.0
    for _ in range(EXERCISE_3_STEPS if steps is None else steps):
        residual = w * x + b - y
        if zero_each_step:
            grad_w = grad_b = 0.0
        grad_w += np.mean(2 * residual * x)      # d/dw of mean((w x + b - y)^2)
        grad_b += np.mean(2 * residual)
        w -= EXERCISE_3_LR * grad_w
        b -= EXERCISE_3_LR * grad_b
    return w, b


def _as_number(value):
    if _is_tensor(value):
        if value.numel() != 1:
            raise ValueError
        return value.item()
    return float(value)


def exercise_3(answer):
    """(w, b) after the gradient-descent loop, written with zeroing in the right place."""
    name = "Exercise 3"
    if _unanswered(answer):
        return waiting(name)
    try:
        w, b = (_as_number(v) for v in answer)
    except (TypeError, ValueError):
        return wrong(name, f"expected a pair (w, b) of numbers or one-element tensors, got "
                           f"{answer!r}.", "End the cell with answer = (w.item(), b.item()).")
    expected = _gradient_descent(zero_each_step=True)
    forgot = _gradient_descent(zero_each_step=False)
    # 1e-4: float32 rounding stays far below it, one step more or fewer moves b by ~1e-3
    if np.allclose((w, b), expected, atol=1e-4):
        return right(name, f"correct: w ≈ {expected[0]:.3f}, b ≈ {expected[1]:.3f}, close to "
                           "the line y = 2x + 1 the points came from.")
    for other in (EXERCISE_3_STEPS - 1, EXERCISE_3_STEPS + 1):
        if np.allclose((w, b), _gradient_descent(zero_each_step=True, steps=other), atol=1e-4):
            return wrong(name, f"these are the values after {other} steps, not {EXERCISE_3_STEPS}.",
                         f"Use range({EXERCISE_3_STEPS}) and read w and b after the loop.")
    if np.allclose((w, b), forgot, atol=1e-4):
        return wrong(name, "these are the numbers of a loop that never resets the gradients.",
                     "Set w.grad and b.grad to None (or zero_() them) in every step, before "
                     "loss.backward().")
    if np.allclose((w, b), (0.0, 0.0)):
        return wrong(name, "w and b did not move.",
                     "Update them in place under torch.no_grad(): w -= lr * w.grad.")
    return wrong(name, f"({w:.4f}, {b:.4f}) is not what {EXERCISE_3_STEPS} steps with "
                       f"lr = {EXERCISE_3_LR} give.",
                 "Each step: forward (loss = ((w * x + b - y) ** 2).mean()), reset the "
                 "gradients, loss.backward(), then the update under torch.no_grad(). Start "
                 "from w = b = 0 and run exactly the given number of steps.")


def exercise_4(answer):
    """The factor each of 3 equal micro-batch mean losses is multiplied by (1/3)."""
    return check_number(
        "Exercise 4", answer, 1 / 3, atol=1e-3,
        hint="The mean over 12 examples is the average of the 3 micro-batch means. "
             "An average of 3 numbers multiplies each of them by what?",
        success="correct: each micro-batch mean counts for 1/3 of the full-batch mean.")
