"""Checks for lesson 11, higher-order gradients: create_graph, Hessians, costs, Newton's method.

Used from ``notebooks/11_higher_order.ipynb``::

    from minigrad.course import lesson11 as check
    check.exercise_1(answer)
"""
import math

from .._creation import tensor
from ._check import check_number, check_tensor, right, waiting, wrong, _unanswered

# Exercise 4: Newton's method on h(x) = x^2 + e^(-x), from this start, for this many steps.
EXERCISE_4_START = 0.0
EXERCISE_4_STEPS = 5


def _number(answer):
    """A float from a number or a one-element tensor (ValueError / TypeError otherwise)."""
    if hasattr(answer, "numel"):
        if answer.numel() != 1:
            raise ValueError
        return float(answer.item())
    return float(answer)


def exercise_1(answer):
    """d²/dx² x⁴ at x = 2: 12 x² = 48."""
    name = "Exercise 1"
    if not _unanswered(answer):
        try:
            if math.isclose(_number(answer), 32.0):
                return wrong(name, "32 is the first derivative, 4x³ at x = 2.",
                             "Compute the first derivative with create_graph=True, then call "
                             "torch.autograd.grad again on that result.")
        except (TypeError, ValueError):
            pass
    return check_number(
        name, answer, 48.0,
        hint="(first,) = torch.autograd.grad(x ** 4, x, create_graph=True), then "
             "(second,) = torch.autograd.grad(first, x).",
        success="correct: f''(x) = 12x² = 48 at x = 2.")


def exercise_2(answer):
    """The Hessian of p0 * exp(p1) at (2, 0): [[0, 1], [1, 2]]."""
    return check_tensor(
        "Exercise 2", answer, tensor([[0.0, 1.0], [1.0, 2.0]]),
        hint="By hand: d²q/dp0² = 0, d²q/dp0 dp1 = e^p1, d²q/dp1² = p0 e^p1. With autograd: "
             "torch.autograd.functional.hessian(q, torch.tensor([2.0, 0.0])) where "
             "q(p) = p[0] * torch.exp(p[1]).",
        success="correct: [[0, e^p1], [e^p1, p0 e^p1]] = [[0, 1], [1, 2]] at (2, 0).")


def exercise_3(answer):
    """Backward passes for the Jacobian of a 3 -> 1000 function in reverse mode: 1000."""
    name = "Exercise 3"
    if _unanswered(answer):
        return waiting(name)
    try:
        value = _number(answer)
    except (TypeError, ValueError):
        return wrong(name, f"expected a number, got {type(answer).__name__}.")
    if value == 1000:
        return right(name, "correct: one pass per output, because each backward pass gives one "
                           "row of the Jacobian.")
    if value == 3:
        return wrong(name, "3 is what forward mode would need (one pass per input).",
                     "In reverse mode, one backward pass gives one vector-Jacobian product: one "
                     "row of J. How many rows does a 1000 x 3 Jacobian have?")
    return wrong(name, f"{value:g} is not right.",
                 "One backward pass gives one row of the Jacobian, the derivatives of one "
                 "output. How many outputs are there?")


def newton(start, steps):
    """Newton's method on h(x) = x² + e^(-x) in plain Python: x after the given steps."""
    x = start
    for _ in range(steps):
        slope = 2 * x - math.exp(-x)
        curvature = 2 + math.exp(-x)
        x = x - slope / curvature
    return x


def exercise_4(answer):
    """x after 5 Newton steps on x² + e^(-x) from 0 (the minimum, 0.351734)."""
    name = "Exercise 4"
    if _unanswered(answer):
        return waiting(name)
    try:
        value = _number(answer)
    except (TypeError, ValueError):
        return wrong(name, f"expected a number, got {type(answer).__name__}.",
                     "End the cell with answer = x.item().")
    expected = newton(EXERCISE_4_START, EXERCISE_4_STEPS)
    if math.isclose(value, expected, abs_tol=1e-6):
        return right(name, f"correct: x ≈ {expected:.6f}, where h'(x) = 2x - e^(-x) = 0.")
    if math.isclose(value, EXERCISE_4_START):
        return wrong(name, "x did not move.",
                     "Update x in place inside torch.no_grad(): x -= slope / curvature.")
    if math.isclose(value, newton(EXERCISE_4_START, 1), abs_tol=1e-6):
        return wrong(name, "that is x after one step.", "Repeat the step 5 times in a loop.")
    return wrong(name, f"{value:g} is not where 5 Newton steps end.",
                 "In each step: (slope,) = torch.autograd.grad(h(x), x, create_graph=True), "
                 "(curvature,) = torch.autograd.grad(slope, x), then x -= slope / curvature "
                 "under torch.no_grad(). Did you divide by the curvature (not multiply)?")
