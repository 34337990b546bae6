"""Checks for lesson 12, from scratch to torch.nn and torch.optim.

Used from ``notebooks/12_torch_nn_and_optim.ipynb``::

    from minigrad.course import lesson12 as check
    check.exercise_1(answer)

Every check accepts real PyTorch values too (tensors, ``torch.Size``).
"""
from ._check import (check_choice, check_number, right, waiting, wrong, _is_tensor,
                     _unanswered)

# Exercise 3: SGD with momentum on one number, by hand or with optim.SGD.
EXERCISE_3_START = 1.0
EXERCISE_3_GRADIENT = 1.0
EXERCISE_3_LR = 0.1
EXERCISE_3_MOMENTUM = 0.9
EXERCISE_3_STEPS = 3


def count_parameters(layer_sizes):
    """How many numbers a stack of Linear layers learns: (inputs + 1 bias) * outputs each."""
    return sum((n_in + 1) * n_out for n_in, n_out in zip(layer_sizes, layer_sizes[1:]))


def sgd_momentum(start, gradient, lr, momentum, steps):
    """PyTorch's SGD with momentum, on one number whose gradient is always ``gradient``."""
    value, buffer = start, None
    for _ in range(steps):
        buffer = gradient if buffer is None else momentum * buffer + gradient
        value -= lr * buffer
    return value


def exercise_1(answer):
    """The number of parameters (numbers learned) of Linear(2, 16) -> ReLU -> Linear(16, 1): 65."""
    name = "Exercise 1"
    if _unanswered(answer):
        return waiting(name)
    expected = count_parameters([2, 16, 1])
    try:
        value = answer.item() if _is_tensor(answer) else float(answer)
    except (TypeError, ValueError, RuntimeError):
        return wrong(name, f"expected a number, got {type(answer).__name__}.",
                     "sum(p.numel() for p in model.parameters())")
    if value == expected:
        return right(name, "correct: 2 x 16 + 16 in the first layer, 16 x 1 + 1 in the second.")
    if value == 2 * 16 + 16 * 1:
        return wrong(name, f"{value:g} counts the weights only.",
                     "Each Linear layer also has a bias: one number per output.")
    if value == 4:
        return wrong(name, "4 is the number of parameter tensors, not of numbers.",
                     "Count the elements: p.numel() for each p in model.parameters().")
    return wrong(name, f"{value:g} is not right.",
                 "Build the model with nn.Sequential and add up p.numel() over model.parameters().")


def exercise_2(answer):
    """The shape of ``nn.Linear(2, 16).weight``: (16, 2), one row per output."""
    name = "Exercise 2"
    if _unanswered(answer):
        return waiting(name)
    try:
        shape = tuple(int(n) for n in answer)
    except (TypeError, ValueError):
        return wrong(name, f"expected a shape such as (3, 4), got {answer!r}.",
                     "Answer with layer.weight.shape, or a tuple of two numbers.")
    if shape == (16, 2):
        return right(name, "correct: one row per output unit (out_features, in_features), so "
                           "forward computes x @ weight.T + bias.")
    if shape == (2, 16):
        return wrong(name, "that is the shape of lesson 9's W1, not of Linear's weight.",
                     "Linear stores (out_features, in_features); "
                     "print nn.Linear(2, 16).weight.shape.")
    return wrong(name, f"{shape} is not right.", "Print nn.Linear(2, 16).weight.shape.")


def exercise_3(answer):
    """The value after 3 steps of SGD(lr=0.1, momentum=0.9) from 1.0 with gradient 1: 0.439."""
    start, gradient = EXERCISE_3_START, EXERCISE_3_GRADIENT
    lr, momentum, steps = EXERCISE_3_LR, EXERCISE_3_MOMENTUM, EXERCISE_3_STEPS
    expected = sgd_momentum(start, gradient, lr, momentum, steps)
    name = "Exercise 3"
    if _unanswered(answer):
        return waiting(name)
    for value, explanation in [
            (sgd_momentum(start, gradient, lr, 0.0, steps),
             "the parameter moved as with plain SGD: the momentum was not used."),
            (sgd_momentum(start, gradient, lr, momentum, steps - 1),
             f"these are the values after {steps - 1} steps."),
            (sgd_momentum(start, gradient, lr, momentum, steps + 1),
             f"these are the values after {steps + 1} steps.")]:
        try:
            close = abs(float(answer.item() if _is_tensor(answer) else answer) - value) < 1e-5
        except (TypeError, ValueError, RuntimeError):
            break
        if close:
            return wrong(name, explanation,
                         "Per step: set p.grad, then optimizer.step(); the buffer is "
                         "1, then 0.9 * 1 + 1 = 1.9, then 0.9 * 1.9 + 1 = 2.71.")
    return check_number(
        name, answer, expected, atol=1e-5,
        hint="p = torch.nn.Parameter(torch.tensor(1.0)); opt = torch.optim.SGD([p], lr=0.1, "
             "momentum=0.9); three times: p.grad = torch.tensor(1.0); opt.step().",
        success="correct: 1 - 0.1 * (1 + 1.9 + 2.71) = 0.439. Momentum keeps adding up "
                "past gradients, so the steps grow while the gradient keeps its direction.")


def exercise_4(answer):
    """Without zero_grad, the second backward leaves the SUM of both gradients in .grad: b."""
    return check_choice(
        "Exercise 4", answer, "b", ["a", "b", "c"],
        hint="Lesson 4: backward adds into .grad. Nothing resets it unless you (or "
             "optimizer.zero_grad()) do.",
        success="correct: backward accumulates, so each step would use the sum of all "
                "gradients so far. That is why zero_grad() comes first in every loop.")
