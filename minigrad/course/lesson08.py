"""Exercise checks for Lesson 8 · Jacobians and vector-Jacobian products.

    from minigrad.course import lesson08 as check
    check.exercise_1(answer)

Exercises 1, 2 and 4 use the function

    g(x) = (x0 * x1,  x0 + x1,  x1 ** 3)    at  x = (2, 3),

whose Jacobian is

    J = [[x1, x0      ],   =  [[3,  2],
         [1,  1       ],       [1,  1],
         [0,  3 x1 ** 2]]      [0, 27]]
"""
import numpy as np

from .._tensor import Tensor
from ._check import _is_tensor, _values, check_choice, check_tensor

JACOBIAN = np.array([[3.0, 2.0], [1.0, 1.0], [0.0, 27.0]])
V = np.array([1.0, -1.0, 2.0])     # exercise 2: v^T J
U = np.array([1.0, 0.0])           # exercise 4: J u


def _values_or_none(answer):
    return _values(answer) if _is_tensor(answer) else None


def exercise_1(answer):
    """The 3 x 2 Jacobian of g at (2, 3)."""
    hint = ("Row i holds the derivatives of output i with respect to x0 and x1. Build it row by "
            "row with torch.autograd.grad(y, x, grad_outputs=e_i, retain_graph=True), or with "
            "torch.autograd.functional.jacobian(g, x).")
    values = _values_or_none(answer)
    if values is not None and values.shape == (2, 3) and np.allclose(values, JACOBIAN.T):
        hint = "You have the transpose: J has one ROW per output (3 rows) and one column per input."
    return check_tensor("Exercise 1", answer, Tensor(JACOBIAN.tolist()), hint=hint,
                        success="correct! One row per output, one column per input.")


def exercise_2(answer):
    """v^T J for v = (1, -1, 2): (2, 55)."""
    hint = ("Compute y = g(x) with x requiring grad, call y.backward(v) once, and pass x.grad. "
            "The result has one entry per INPUT.")
    values = _values_or_none(answer)
    if values is not None and values.shape == (2,) and np.allclose(values, JACOBIAN.sum(axis=0)):
        hint = ("That is the product with (1, 1, 1), i.e. y.sum().backward(). Pass v to "
                "backward: y.backward(v).")
    return check_tensor("Exercise 2", answer, Tensor(list(V @ JACOBIAN)), hint=hint,
                        success="correct! One backward pass gives v^T J: (1*3 - 1*1 + 2*0, "
                                "1*2 - 1*1 + 2*27).")


def exercise_3(answer):
    """Full Jacobian of f: R^1000 -> R^2: reverse mode (2 passes) beats forward mode (1000)."""
    return check_choice(
        "Exercise 3", answer, "reverse", ["reverse", "forward"],
        hint="Reverse mode (backward) gives one ROW of J per pass, so it needs one pass per "
             "output; forward mode gives one COLUMN per pass, one pass per input. "
             "Count the outputs and the inputs.",
        success="correct! 2 backward passes (one per output) instead of 1000 forward ones.",
    )


def exercise_4(answer):
    """J u for u = (1, 0): the first column of J, (3, 1, 0)."""
    hint = ("Use torch.autograd.functional.jvp(g, x, u): it returns (g(x), J u). J u has one "
            "entry per OUTPUT.")
    values = _values_or_none(answer)
    if values is not None and values.shape == (2,) and np.allclose(values, JACOBIAN[0]):
        hint = ("That is the first ROW of J (what v^T J gives for a one-hot v on the output "
                "side). J u with u = (1, 0) picks the first COLUMN.")
    return check_tensor("Exercise 4", answer, Tensor(list(JACOBIAN @ U)), hint=hint,
                        success="correct! With u = (1, 0), J u is the first column: how each "
                                "output moves when x0 moves.")
