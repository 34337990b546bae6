"""Checks for lesson 3, the graph: ``autograd.grad``, control flow and ``retain_graph``.

Used from ``notebooks/03_the_graph.ipynb``::

    from minigrad.course import lesson03 as check
    check.exercise_1(answer)
"""
import numpy as np

from .._tensor import _wrap
from ._check import _is_tensor, _unanswered, _values, check_number, check_tensor, right, waiting, wrong


def exercise_1(answer):
    """``torch.autograd.grad((a * b).sum(), (a, b))`` for a = [1, 2], b = [3, 4]."""
    name = "Exercise 1"
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


def exercise_2(answer):
    """x.grad for the doubling loop started at x = 3 (doubled twice: 3 → 6 → 12)."""
    return check_number(
        "Exercise 2", answer, 4.0,
        hint="Follow the loop by hand for x = 3: how many times is y doubled before it "
             "reaches 10? Each doubling multiplies the derivative by 2.",
        success="correct: the loop doubled twice for this x, so the graph holds two "
                "multiplications by 2 and dy/dx = 4.")


def exercise_3(answer):
    """x.grad after two backward passes through s = (x**2).sum(), x = [1, 2, 3]: 2·2x."""
    name = "Exercise 3"
    hint = ("Call s.backward(retain_graph=True), then s.backward(), then read x.grad. "
            "Each pass adds 2x into x.grad.")
    if _is_tensor(answer) and tuple(answer.shape) == (3,) and np.allclose(_values(answer), [2., 4., 6.]):
        return wrong(name, "that is the gradient of one pass: 2x. The second backward() adds "
                           "the same again.", hint)
    return check_tensor(name, answer, _wrap(np.array([4., 8., 12.], dtype=np.float32)), hint=hint,
                        success="correct: each pass adds 2x = [2, 4, 6], so after two x.grad = "
                                "[4, 8, 12].")
