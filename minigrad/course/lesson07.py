"""Exercise checks for Lesson 7 · Gradients of intermediate tensors: retain_grad and hooks.

    from minigrad.course import lesson07 as check
    check.exercise_1(answer)
"""
import numpy as np

from .._tensor import Tensor
from ._check import _is_tensor, _unanswered, _values, check_number, check_tensor, right, waiting, wrong

# The graph of exercises 1 and 2:
#   x = [1, 2, 3],  h = x ** 2,  y = (3 * h).sum()
#   dy/dh = 3,  dy/dx = 3 * 2x = 6x
_X = np.array([1.0, 2.0, 3.0])


def _values_or_none(answer):
    return _values(answer) if _is_tensor(answer) else None


def exercise_1(answer):
    """h.grad after retain_grad() and backward: dy/dh = 3 everywhere."""
    hint = "Call h.retain_grad() before y.backward(), then pass h.grad."
    values = _values_or_none(answer)
    if values is not None and values.shape == _X.shape and np.allclose(values, 6 * _X):
        hint = "That is x.grad (dy/dx = 6x). The question asks for the gradient with respect to h."
    return check_tensor("Exercise 1", answer, Tensor([3.0, 3.0, 3.0]), hint=hint,
                        success="correct! y = 3 * sum(h), so dy/dh = 3 for every entry.")


def exercise_2(answer):
    """x.grad when a hook multiplies the gradient of h by 10: 10 * 3 * 2x = 60x."""
    hint = ("Register the hook on h before calling backward: h.register_hook(fn) where fn "
            "returns grad * 10. The changed gradient then flows on to x (dh/dx = 2x).")
    values = _values_or_none(answer)
    if values is not None and values.shape == _X.shape:
        if np.allclose(values, 6 * _X):
            hint = ("That is x.grad without the hook. Does your hook *return* the new gradient? "
                    "A hook that returns None leaves the gradient unchanged.")
        elif np.allclose(values, 30.0):
            hint = "That is the changed gradient of h (30). Pass x.grad: it goes on through h = x ** 2."
        elif np.allclose(values, 12 * _X):
            hint = ("Twice the gradient without the hook: did x.grad accumulate from an earlier "
                    "backward? Build the graph again, starting from a fresh x.")
    return check_tensor("Exercise 2", answer, Tensor(list(60 * _X)), hint=hint,
                        success="correct! The hook changed dy/dh from 3 to 30, and everything "
                                "below h used the changed value.")


EXERCISE_3_NAMES = ("SumBackward0", "MulBackward0", "ExpBackward0", "AccumulateGrad")


def _node_name(item):
    if hasattr(item, "next_functions"):      # a node itself (minigrad's or PyTorch's)
        return type(item).__name__
    name = str(item).strip()
    # PyTorch's AccumulateGrad.name() spells out its C++ namespace
    return name.split("::")[-1]


def exercise_3(answer):
    """Node names from y.grad_fn down to the leaf, for y = (x.exp() * 2).sum()."""
    exercise = "Exercise 3"
    if _unanswered(answer):
        return waiting(exercise)
    if not isinstance(answer, (tuple, list)):
        return wrong(exercise, f"answer with a list of names, top to bottom (got {answer!r}).",
                     "Start with names = [] and append type(node).__name__ as you walk.")
    names = tuple(_node_name(item) for item in answer)
    if names == EXERCISE_3_NAMES:
        return right(exercise, "correct! Sum, then the multiplication by 2, then exp, then the "
                               "leaf's AccumulateGrad.")
    if names == tuple(reversed(EXERCISE_3_NAMES)):
        hint = "Your names are in reverse order: start at y.grad_fn (the last operation)."
    elif len(names) < len(EXERCISE_3_NAMES):
        hint = ("Keep going until you reach a node whose next_functions is empty "
                "(the AccumulateGrad of x).")
    else:
        hint = ("Start at node = y.grad_fn, then repeat node = node.next_functions[0][0] until "
                "next_functions is empty.")
    return wrong(exercise, f"{list(names)} is not right.", hint)


def exercise_4(answer):
    """How many times a printing hook runs: twice before handle.remove(), not after."""
    return check_number(
        "Exercise 4", answer, 2,
        hint="The hook runs once per backward pass that goes through h, as long as it is "
             "registered. After handle.remove() it is gone.",
        success="correct! Two backward passes with the hook, one without it.",
    )
