"""Checks for lesson 10, under the hood: finite differences, the graph, the engine, custom Functions.

Used from ``notebooks/10_under_the_hood.ipynb``::

    from minigrad.course import lesson10 as check
    check.exercise_1(answer)
"""
import math

import numpy as np

from ._check import (check_choice, check_number, right, waiting, wrong, _is_function_class,
                     _is_tensor, _library_of, _unanswered, _values)


def exercise_1(answer):
    """The central-difference estimate of d/dx (x e^x) at x = 1: 2e, to 6 digits."""
    name = "Exercise 1"
    expected = 2 * math.e
    if _unanswered(answer):
        return waiting(name)
    try:
        value = float(answer.item() if hasattr(answer, "item") else answer)
    except (TypeError, ValueError):
        return wrong(name, f"expected a number, got {type(answer).__name__}.",
                     "End the cell with answer = central_difference(g, x, 1e-6).item().")
    if abs(value - expected) < 1e-6:
        return right(name, f"correct: {value:.6f}, and the exact value is (1 + 1)·e¹ = 2e ≈ "
                           f"{expected:.6f}.")
    if abs(value - expected) < 0.05:
        return wrong(name, f"{value:.6f} is close, but not accurate to 6 digits.",
                     "With eps = 1e-6, float32 rounding ruins the estimate. Make x with "
                     "dtype=torch.float64.")
    if abs(value - math.e) < 0.05:
        return wrong(name, f"{value:.6f} is about e, the value of g(1) or of the derivative of e^x only.",
                     "g(x) = x * torch.exp(x); its derivative has two terms (product rule).")
    return wrong(name, f"{value:g} is not right.",
                 "Define g(x) = x * torch.exp(x), then central_difference(g, torch.tensor(1.0, "
                 "dtype=torch.float64), 1e-6).")


def exercise_2(answer):
    """Edges pointing at the AccumulateGrad of a in e = (a * a) * a: 3."""
    return check_number(
        "Exercise 2", answer, 3,
        hint="Look at e.grad_fn.next_functions: one edge goes to the MulBackward0 of a * a and "
             "one to a's AccumulateGrad. Then look at the next_functions of that first "
             "MulBackward0. Add up every edge that ends at a's AccumulateGrad.",
        success="correct: two edges from a * a and one from (a * a) * a; the three gradients "
                "a², a², a² add up to 3a².")


def exercise_3(answer):
    """Why u's MulBackward0 must wait: b) the gradient through v has not arrived."""
    return check_choice(
        "Exercise 3", answer, "b", ["a", "b", "c"],
        hint="u is used twice, by L = u * v and by v = u + x. How many gradients flow into the "
             "node of u, and which node sends the second one?",
        success="correct: the node of u runs only once AddBackward0 has sent its share too.")


def exercise_4(answer):
    """A custom Function Exp: forward torch.exp, backward from the saved result; gradcheck passes.

    A PyTorch Function (after ``import torch``) is checked with PyTorch's own gradcheck.
    """
    name = "Exercise 4"
    if _unanswered(answer):
        return waiting(name)
    if not _is_function_class(answer):
        return wrong(name, f"expected a class that inherits from torch.autograd.Function, got "
                           f"{answer!r}.",
                     "Write class Exp(torch.autograd.Function): ... and pass Exp itself "
                     "(not Exp.apply, not Exp()).")
    library = _library_of(answer)
    x = library.tensor([-1.0, 0.0, 0.5, 2.0], dtype=library.float64, requires_grad=True)
    try:
        out = answer.apply(x)
    except Exception as error:          # noqa: BLE001 - we report whatever went wrong
        return wrong(name, f"Exp.apply(x) raised {type(error).__name__}: {error}",
                     "forward(ctx, x) should return torch.exp(x), after "
                     "ctx.save_for_backward(result).")
    expected = np.exp(_values(x))
    if not _is_tensor(out) or tuple(out.shape) != tuple(x.shape) or \
            not np.allclose(_values(out), expected):
        return wrong(name, "forward does not compute e^x.", "Return torch.exp(x) from forward.")
    try:
        passed = library.autograd.gradcheck(answer.apply, (x,), raise_exception=False)
    except Exception as error:          # noqa: BLE001
        return wrong(name, f"the backward pass raised {type(error).__name__}: {error}",
                     "backward(ctx, grad_output) should read (result,) = ctx.saved_tensors "
                     "and return grad_output * result.")
    if not passed:
        return wrong(name, "gradcheck says the gradient is wrong.",
                     "The chain rule: dL/dx = dL/dy * dy/dx = grad_output * e^x. Did you forget "
                     "to multiply by grad_output?")
    saved = out.grad_fn.saved_tensors if out.grad_fn is not None else ()
    if not saved:
        return wrong(name, "the gradient is right, but nothing was saved with "
                           "ctx.save_for_backward.",
                     "Keeping a tensor as an attribute of ctx (ctx.result = result) skips the "
                     "checks save_for_backward does (an in-place change of the result would go "
                     "unnoticed) and can leak memory. Use ctx.save_for_backward(result) in "
                     "forward and (result,) = ctx.saved_tensors in backward.")
    if any(np.allclose(_values(s), _values(x)) for s in saved if _is_tensor(s)):
        return right(name, "the gradient is right (gradcheck passes). Tip: you saved the input, "
                           "so backward computes e^x a second time; saving the result avoids that.")
    return right(name, "correct: gradcheck passes, and backward reuses the saved result "
                       "instead of computing e^x again.")
