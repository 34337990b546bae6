"""Checks for lesson 1, ``requires_grad``: which tensors are recorded, and by what.

Used from ``notebooks/01_requires_grad.ipynb``::

    from minigrad.course import lesson01 as check
    check.exercise_1(answer)
"""
from ._check import _is_tensor, _unanswered, check_choice, check_equal, right, waiting, wrong


def exercise_1(answer):
    """Which of p, q, r, s, t require grad? ``answer`` is a collection of names, e.g. ("p", "r")."""
    name = "Exercise 1"
    if _unanswered(answer):
        return waiting(name)
    if isinstance(answer, str):
        answer = [answer]
    try:
        chosen = sorted({str(item).strip().lower() for item in answer})
    except TypeError:
        return wrong(name, f"expected a tuple of names such as ('p', 'r'), got {answer!r}.")
    expected = ["q", "s", "t"]
    if chosen == expected:
        return right(name, "correct: q was created with requires_grad=True, s because one operand (q) requires grad, "
                           "and t because it is computed from s.")
    hint = "A result requires grad as soon as ONE of its operands does; the flag is passed on "
    if "r" in chosen:
        hint += "— but r = p * 2 only uses p, and p does not require grad."
    elif "p" in chosen:
        hint += "— but p was created without requires_grad, and nothing changed it afterwards."
    else:
        hint += "through every later operation, so follow q through s to t."
    return wrong(name, f"{tuple(chosen)} is not the right set.", hint)


def exercise_2(answer):
    """A tensor holding 1, 2, 3 that requires grad (it must be floating point)."""
    name = "Exercise 2"
    if _unanswered(answer):
        return waiting(name)
    if not _is_tensor(answer):
        return wrong(name, f"expected a tensor, got {type(answer).__name__}.")
    if not answer.is_floating_point():
        return wrong(name, f"its dtype is {answer.dtype}: an integer tensor cannot require grad.",
                     "Write the numbers with a decimal point (1., 2., 3.) or pass "
                     "dtype=torch.float32.")
    if answer.tolist() != [1.0, 2.0, 3.0]:
        return wrong(name, f"the values should be [1.0, 2.0, 3.0], yours are {answer.tolist()}.")
    if not answer.requires_grad:
        return wrong(name, "the values are right, but it does not require grad.",
                     "Pass requires_grad=True, or call .requires_grad_() on it.")
    if not answer.is_leaf:
        return wrong(name, "it requires grad, but it was made by an operation "
                           f"({answer.grad_fn.name()}), so it is not a tensor you created.",
                     "Switch the flag on for the finished float tensor, e.g. "
                     "torch.tensor([1., 2., 3.], requires_grad=True) or "
                     "torch.tensor([1, 2, 3]).float().requires_grad_(), instead of computing "
                     "it from a tensor that already requires grad.")
    return right(name, "correct: a floating-point leaf that requires grad.")


def exercise_3(answer):
    """The name of ``loss.grad_fn`` for ``loss = (x @ w + b).mean()``."""
    name = "Exercise 3"
    if not isinstance(answer, str) and callable(getattr(answer, "name", None)):
        answer = answer.name()             # the grad_fn node itself is fine too
    return check_equal(
        name, answer, "MeanBackward0",
        hint="Only the LAST operation names the grad_fn: here that is .mean(). "
             "Print loss.grad_fn.name() to see it, and copy it as a string.",
        success="correct: the last operation, mean(), made loss, so loss.grad_fn is MeanBackward0.")


def exercise_4(answer):
    """Which line does NOT switch requires_grad on? (multiple choice)"""
    return check_choice(
        "Exercise 4", answer, "d", ["a", "b", "c", "d"],
        hint="Three of the lines set the flag; one of them only reads it. "
             "Which one has no assignment, no argument and no method call that changes anything?",
        success="correct: t.requires_grad only reads the flag (and gives False).")
