"""Checks for lesson 2, ``backward()`` and the chain rule: gradients by the engine and by hand.

Used from ``notebooks/02_backward.ipynb``::

    from minigrad.course import lesson02 as check
    check.exercise_1(x.grad)
"""
import numpy as np

from .._tensor import _wrap
from ._check import _is_tensor, check_number, check_tensor, wrong


def exercise_1(answer):
    """x.grad for f(x) = x**3 - 2*x at x = 2 (f'(x) = 3x² - 2 = 10)."""
    hint = ("Create x = torch.tensor(2., requires_grad=True), compute f = x**3 - 2*x, call "
            "f.backward() and read x.grad. By hand: f'(x) = 3x² - 2.")
    if _is_tensor(answer) and answer.requires_grad:
        return wrong("Exercise 1", "this tensor requires grad: it looks like x itself (or f), "
                                   "not the gradient.", hint)
    return check_number("Exercise 1", answer, 10.0, hint=hint,
                        success="correct: 3·2² - 2 = 10, and backward() found it too.")


def exercise_2(answer):
    """dL/dW for L = (x @ W + b - y)**2, computed by hand, as a (3, 1) tensor."""
    x = np.array([1.0, 2.0, 3.0])
    W = np.array([[0.1], [0.2], [0.3]])
    r = x @ W + 0.5 - 1.0                       # the residual, shape (1,)
    expected = _wrap((2 * r * x).reshape(3, 1).astype(np.float32))
    if _is_tensor(answer) and tuple(answer.shape) == (3,):
        return wrong("Exercise 2", "the values may be right, but the shape is [3]; W has shape "
                                   "[3, 1], and a gradient always has the shape of its tensor.",
                     "Reshape it: answer.reshape(3, 1).")
    return check_tensor(
        "Exercise 2", answer, expected,
        hint="First the residual r = x·W + b - y (one number). Then dL/dW = 2·r·x, "
             "written as a column of shape (3, 1) like W.",
        success="correct: r = 0.9, so dL/dW = 2·0.9·x = [1.8, 3.6, 5.4] as a column.")


def exercise_3(answer):
    """dz/dx for u = 3x, z = u**2 + u at x = 1: (2u + 1)·3 = 21."""
    name = "Exercise 3"
    hint = ("Chain rule: dz/du = 2u + 1, du/dx = 3, multiply them. Check with x = "
            "torch.tensor(1., requires_grad=True), u = 3 * x, z = u ** 2 + u, z.backward(), x.grad.")
    if _is_tensor(answer) and answer.requires_grad:
        return wrong(name, "this tensor requires grad: it looks like x, u or z, not the gradient.", hint)
    if not _is_tensor(answer) and isinstance(answer, (int, float)) and abs(answer - 7.0) < 1e-4:
        return wrong(name, "7 is dz/du, the outer derivative only.",
                     "Multiply by the inner derivative du/dx = 3.")
    return check_number(name, answer, 21.0, hint=hint,
                        success="correct: dz/du · du/dx = (2·3 + 1)·3 = 21.")
