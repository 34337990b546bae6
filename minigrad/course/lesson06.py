"""Exercise checks for Lesson 6 · Leaves and nodes.

    from minigrad.course import lesson06 as check
    check.exercise_1(answer)
"""
from .._tensor import Tensor
from ._check import _is_tensor, _unanswered, check_raises, check_tensor, right, waiting, wrong

# Exercise 1: the code the learner reads, and why each tensor is (not) a leaf.
#   a = torch.tensor([1.0, 2.0], requires_grad=True)
#   b = a * 2
#   c = torch.tensor([3.0, 4.0])
#   d = c * 2
#   e = b.detach()
EXERCISE_1_NAMES = ("a", "b", "c", "d", "e")
EXERCISE_1_LEAVES = (True, False, True, True, True)
EXERCISE_1_REASONS = {
    "a": "a was created by you: a leaf.",
    "b": "b is the result of a recorded operation (a requires grad): it has a grad_fn, so it "
         "is not a leaf.",
    "c": "c was created by you: a leaf.",
    "d": "d is computed from c, which does not require grad: nothing was recorded, d has no "
         "grad_fn, so it is a leaf.",
    "e": "detach() returns a tensor without history: a leaf.",
}


def exercise_1(answer):
    """(a.is_leaf, b.is_leaf, c.is_leaf, d.is_leaf, e.is_leaf)."""
    exercise = "Exercise 1"
    if _unanswered(answer):
        return waiting(exercise)
    if not isinstance(answer, (tuple, list)) or len(answer) != len(EXERCISE_1_NAMES):
        return wrong(exercise, f"answer with five booleans, one for each of a, b, c, d, e "
                               f"(got {answer!r}).")
    answer = tuple(answer)
    if not all(type(flag) is bool for flag in answer):
        return wrong(exercise, "every entry should be True or False.")
    mistakes = [name for name, got, want in zip(EXERCISE_1_NAMES, answer, EXERCISE_1_LEAVES)
                if got != want]
    if mistakes:
        first = mistakes[0]
        return wrong(exercise, f"not right for {', '.join(mistakes)}.",
                     "Look at " + first + ": " + EXERCISE_1_REASONS[first])
    return right(exercise, "correct! A tensor is a leaf exactly when its grad_fn is None.")


def exercise_2(answer):
    """The names of the tensors whose .grad is filled in by loss.backward(): {'w', 'k'}."""
    exercise = "Exercise 2"
    if _unanswered(answer):
        return waiting(exercise)
    if isinstance(answer, str):
        answer = [answer]
    if not isinstance(answer, (tuple, list, set, frozenset)) or \
            not all(isinstance(name, str) for name in answer):
        return wrong(exercise, f"answer with a list of names, like ['w'] (got {answer!r}).")
    names = {name.strip() for name in answer}
    expected = {"w", "k"}
    if names == expected:
        return right(exercise, "correct! Only leaves that require grad get a .grad: w, and k "
                               "(a new leaf made with detach().requires_grad_()).")
    if "h" in names or "loss" in names:
        hint = "h and loss are results of recorded operations (non-leaves): their .grad stays None."
    elif "x" in names or "frozen" in names:
        hint = "x and frozen do not require grad: backward computes no gradient for them."
    elif "k" not in names:
        hint = ("k comes from h.detach(), which is a leaf, and requires_grad_() switches "
                "recording on for it: it is a leaf that requires grad.")
    else:
        hint = "Which tensors are leaves that require grad?"
    return wrong(exercise, f"{sorted(names)} is not right.", hint)


def exercise_3(answer):
    """A leaf that requires grad, with the values of h = w * 3 = [3, 6, 9]."""
    exercise = "Exercise 3"
    if _is_tensor(answer):
        if not answer.is_leaf:
            return wrong(exercise, "your tensor is not a leaf (it has a grad_fn).",
                         "Cut the history with .detach() first.")
        if not answer.requires_grad:
            return wrong(exercise, "your tensor is a leaf but does not require grad.",
                         "Call .requires_grad_() on the detached tensor.")
    return check_tensor(exercise, answer, Tensor([3.0, 6.0, 9.0]),
                        hint="Start from h itself: h.detach().requires_grad_().",
                        success="correct! A new leaf, with h's values, that requires grad.")


def exercise_4(answer):
    """A function raising the RuntimeError for changing requires_grad of a non-leaf."""
    return check_raises(
        "Exercise 4", answer, RuntimeError, message_contains="requires_grad flags of leaf",
        hint=("Compute a non-leaf (e.g. y = w * 2 with w requiring grad) and set "
              "y.requires_grad = False."),
        how_to_define="Define it with `def change_flag(): ...` and pass `change_flag`.",
        success="correct: requires_grad can only be changed on leaves.")
