"""Checks for lesson 2, ``backward()``: gradients by the engine and by hand.

Used from ``notebooks/02_backward.ipynb``::

    from minigrad.course import lesson02 as check
    check.exercise_1(x.grad)
"""
import numpy as np

from .._tensor import _wrap
from ._check import (_is_tensor, _unanswered, _values, check_number, check_tensor, right, waiting,
                     wrong)


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
    """``torch.autograd.grad((a * b).sum(), (a, b))`` for a = [1, 2], b = [3, 4]."""
    name = "Exercise 3"
    if _unanswered(answer):
        return waiting(name)
    hint = ("torch.autograd.grad returns a tuple with one gradient per input: "
            "d(sum(a*b))/da = b and d(sum(a*b))/db = a.")
    if not isinstance(answer, tuple):
        return wrong(name, f"expected a tuple (that is what autograd.grad returns), got "
                           f"{type(answer).__name__}.", hint)
    if len(answer) != 2:
        return wrong(name, f"expected a tuple of 2 gradients (one for a, one for b), got "
                           f"{len(answer)}.", "Pass both inputs: torch.autograd.grad(s, (a, b)).")
    expected = ([3.0, 4.0], [1.0, 2.0])
    for which, got, want in zip("ab", answer, expected):
        if not _is_tensor(got) or tuple(got.shape) != (2,) or not np.allclose(_values(got), want):
            return wrong(name, f"the gradient for {which} is not right (expected {want}).", hint)
    return right(name, "correct: the gradient for a is b, the gradient for b is a.")


def exercise_4(answer):
    """x.grad for the doubling loop started at x = 3 (doubled twice: 3 → 6 → 12)."""
    return check_number(
        "Exercise 4", answer, 4.0,
        hint="Follow the loop by hand for x = 3: how many times is y doubled before it "
             "reaches 10? Each doubling multiplies the derivative by 2.",
        success="correct: the loop doubled twice for this x, so the graph holds two "
                "multiplications by 2 and dy/dx = 4.")
