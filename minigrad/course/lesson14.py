"""Checks for lesson 14, forward mode and function transforms.

Used from ``notebooks/14_forward_mode_and_func.ipynb``::

    from minigrad.course import lesson14 as check
    check.exercise_1(answer)

Every check accepts minigrad tensors and real PyTorch tensors alike.
"""
import math

import numpy as np

from .._creation import tensor
from ._check import check_number, check_tensor, right, waiting, wrong, _unanswered, _is_tensor

# Exercise 3: f(p) = p0² p1 + p1 p2³ at P, in the direction V.
EXERCISE_3_POINT = [1.0, 2.0, 1.0]
EXERCISE_3_DIRECTION = [0.0, 0.0, 1.0]

# Exercise 4: a linear model without bias, loss_i = (w . x_i - y_i)², one row of X per sample.
EXERCISE_4_W = [0.5, -1.0, 2.0]
EXERCISE_4_X = [[1.0, 0.0, 2.0], [0.0, 1.0, 1.0], [3.0, 1.0, 0.0], [1.0, 1.0, 1.0]]
EXERCISE_4_Y = [1.0, 0.0, -1.0, 2.0]


def exercise_1(answer):
    """The tangent of f(x) = x³ eˣ at x = 1 with tangent 1: f'(1) = (3x² + x³) eˣ = 4e."""
    name = "Exercise 1"
    expected = 4 * math.e
    if not _unanswered(answer):
        try:
            value = float(answer.item()) if _is_tensor(answer) else float(answer)
        except (TypeError, ValueError, RuntimeError):
            value = None
        if value is not None and math.isclose(value, math.e, rel_tol=1e-4):
            return wrong(name, "that is the value f(1) = e, the primal.",
                         "unpack_dual returns (primal, tangent): take the tangent.")
    return check_number(
        name, answer, expected,
        hint="with fwAD.dual_level(): x = fwAD.make_dual(torch.tensor(1.0), torch.tensor(1.0)); "
             "then answer = fwAD.unpack_dual(x ** 3 * torch.exp(x)).tangent.",
        success="correct: f'(x) = (3x² + x³) eˣ = 4e ≈ 10.873 at x = 1, computed in the same pass "
                "as the value.")


def exercise_2(answer):
    """Forward-mode passes for the full Jacobian of a 3 -> 1000 function: 3."""
    name = "Exercise 2"
    if _unanswered(answer):
        return waiting(name)
    try:
        value = float(answer.item()) if _is_tensor(answer) else float(answer)
    except (TypeError, ValueError, RuntimeError):
        return wrong(name, f"expected a number, got {type(answer).__name__}.")
    if value == 3:
        return right(name, "correct: one forward pass per input gives one column of the "
                           "1000 x 3 Jacobian. Reverse mode would need 1000 passes.")
    if value == 1000:
        return wrong(name, "1000 is what reverse mode needs (one backward pass per output).",
                     "A forward pass pushes one tangent - one direction in the input space - "
                     "and gives one column J v. How many columns does a 1000 x 3 Jacobian have?")
    return wrong(name, f"{value:g} is not right.",
                 "One forward pass gives one column of J: the change of every output when one "
                 "input moves. How many inputs are there?")


def hessian_of_exercise_3():
    """The Hessian of p0² p1 + p1 p2³ at EXERCISE_3_POINT, by the formulas."""
    p0, p1, p2 = EXERCISE_3_POINT
    return np.array([[2 * p1, 2 * p0, 0.0],
                     [2 * p0, 0.0, 3 * p2 ** 2],
                     [0.0, 3 * p2 ** 2, 6 * p1 * p2]])


def exercise_3(answer):
    """H v for f(p) = p0² p1 + p1 p2³ at (1, 2, 1), v = (0, 0, 1): the last column of H, (0, 3, 12)."""
    expected = hessian_of_exercise_3() @ np.array(EXERCISE_3_DIRECTION)
    name = "Exercise 3"
    if not _unanswered(answer) and _is_tensor(answer) and tuple(answer.shape) == (3,):
        values = np.asarray(answer.detach().numpy(), dtype=np.float64)
        p0, p1, p2 = EXERCISE_3_POINT
        gradient = np.array([2 * p0 * p1, p0 ** 2 + p2 ** 3, 3 * p1 * p2 ** 2])
        if np.allclose(values, gradient):
            return wrong(name, "that is the gradient, the primal of the dual result.",
                         "Take the tangent of the gradient: it is H v.")
    return check_tensor(
        name, answer, tensor(expected.tolist()),
        hint="torch.func.jvp(torch.func.grad(f), (p,), (v,)) returns (gradient, H v); or make p "
             "dual with tangent v, compute the gradient with torch.autograd.grad and unpack its "
             "tangent.",
        success="correct: H v = (0, 3, 12), the last column of the Hessian, without building H.")


def per_sample_gradients_of_exercise_4():
    """2 (w . x_i - y_i) x_i for every row of EXERCISE_4_X, as a numpy array."""
    w, x, y = (np.array(v) for v in (EXERCISE_4_W, EXERCISE_4_X, EXERCISE_4_Y))
    return 2 * (x @ w - y)[:, None] * x


def exercise_4(answer):
    """The per-sample gradients with respect to w: one row per sample, shape (4, 3)."""
    name = "Exercise 4"
    expected = per_sample_gradients_of_exercise_4()
    if not _unanswered(answer) and _is_tensor(answer):
        values = np.asarray(answer.detach().numpy(), dtype=np.float64)
        if values.shape == (3,) and np.allclose(values, expected.mean(axis=0)):
            return wrong(name, "that is the gradient of the mean loss: one row for the whole batch.",
                         "vmap over the samples: vmap(grad(loss), in_dims=(None, 0, 0))(w, X, Y).")
        if values.shape == (3,) and np.allclose(values, expected.sum(axis=0)):
            return wrong(name, "that is the gradient of the summed loss: one row for the whole batch.",
                         "vmap over the samples: vmap(grad(loss), in_dims=(None, 0, 0))(w, X, Y).")
    return check_tensor(
        name, answer, tensor(expected.tolist()),
        hint="def loss(w, x, y): return (w @ x - y) ** 2  - for ONE sample; then "
             "torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))(w, X, Y).",
        success="correct: one gradient per sample, 2 (w·xᵢ - yᵢ) xᵢ; their mean is the gradient "
                "of the mean loss.")
