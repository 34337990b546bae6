"""Exercise checks for Lesson 5 · Switching recording off: no_grad and detach.

    from minigrad.course import lesson05 as check
    check.exercise_1(answer)
"""
import numpy as np

import minigrad
from .._tensor import Tensor
from ._check import (_is_tensor, _unanswered, _values, check_equal, check_raises, check_tensor,
                     right, waiting, wrong)


def _as_tuple(answer):
    """Accept a list as well as a tuple: the order is what matters."""
    return tuple(answer) if isinstance(answer, list) else answer


def exercise_1(answer):
    """(y.requires_grad, z.requires_grad): y made under no_grad, z under enable_grad inside it."""
    return check_equal(
        "Exercise 1", _as_tuple(answer), (False, True),
        hint="Inside `no_grad`, new results are not recorded, so they do not require grad. "
             "`enable_grad` switches recording back on for the code inside it, even when it sits "
             "inside a `no_grad` block. Answer with a pair of booleans: (y.requires_grad, "
             "z.requires_grad).",
        success="correct! y was made under no_grad; z under enable_grad, from x, which "
                "requires grad.",
    )


# The function of exercise 2 and where its minimum is:
#   h(w) = (w[0] - 2)^2 + 2 (w[1] + 1)^2   is smallest at   w = (2, -1).
EXERCISE_2_MINIMUM = (2.0, -1.0)
EXERCISE_2_STEPS = 100
EXERCISE_2_LR = 0.1


def _descent_without_reset():
    """Where exercise 2's loop ends when it never zeroes w.grad (the usual slip), in plain numpy."""
    w = np.zeros(2)
    accumulated = np.zeros(2)
    for _ in range(EXERCISE_2_STEPS):
        accumulated += np.array([2 * (w[0] - 2), 4 * (w[1] + 1)])    # dh/dw, added up
        w -= EXERCISE_2_LR * accumulated
    return w


def exercise_2(answer):
    """``w`` after gradient descent on h(w) = (w[0] - 2)^2 + 2 (w[1] + 1)^2: close to (2, -1)."""
    expected = Tensor(list(EXERCISE_2_MINIMUM))
    hint = ("Each step: compute h(w), call backward(), then inside `with torch.no_grad():` update "
            "in place (`w -= lr * w.grad`), and finally zero the gradient (`w.grad.zero_()` or "
            "`w.grad = None`). Run enough steps (100 with lr = 0.1).")
    if _is_tensor(answer) and tuple(answer.shape) == tuple(expected.shape):
        values = _values(answer)
        if not answer.requires_grad:
            hint = ("Your w no longer requires grad, so it is not the tensor you started with. "
                    "Writing `w = w - ...` makes a new tensor; update in place with `w -= ...`.")
        elif np.allclose(values, _descent_without_reset(), atol=1e-3):
            hint = ("These are the numbers of a loop that never zeroes w.grad, so every step "
                    "moves by the sum of all gradients so far. Zero it after each update "
                    "(`w.grad.zero_()` or `w.grad = None`).")
        elif np.allclose(values, 0.0):
            hint = "w is still at its starting point (0, 0): is the update inside the loop?"
        elif np.all(np.isfinite(values)) and np.abs(values).max() > 10:
            hint = ("w ran away from the minimum: the gradients probably accumulate across steps. "
                    "Zero w.grad after each update.")
    return check_tensor("Exercise 2", answer, expected, hint=hint, atol=1e-3, rtol=0,
                        success="correct! w reached the minimum (2, -1).")


def exercise_3(answer):
    """A function that makes backward fail because a saved tensor was changed through detach()."""
    return check_raises(
        "Exercise 3", answer, RuntimeError, message_contains="modified by an inplace operation",
        hint=("Build h = x * 2 and y = (h * h).sum() (the multiplication saves h for backward), "
              "then change h through h.detach() (for example `h.detach()[0] = 0.`) and call "
              "y.backward()."),
        how_to_define="Define it with `def break_it(): ...` and pass `break_it` (without parentheses).",
        success="correct: backward noticed that a saved tensor was changed "
                "(its version counter moved on).")


def _library_of(function):
    """The module the learner's function calls ``torch``: minigrad, or PyTorch after the switch."""
    library = getattr(function, "__globals__", {}).get("torch")
    needed = ("tensor", "is_grad_enabled", "set_grad_enabled")
    return library if all(hasattr(library, name) for name in needed) else minigrad


def exercise_4(answer):
    """A function ``forward(x, training)`` returning (x ** 2).sum(), recorded only when training."""
    exercise = "Exercise 4"
    if _unanswered(answer):
        return waiting(exercise)
    if not callable(answer):
        return wrong(exercise, f"expected a function, got {type(answer).__name__}.",
                     "Define it with `def forward(x, training): ...` and pass `forward`.")
    library = _library_of(answer)
    x = library.tensor([1.0, 2.0], requires_grad=True)
    mode_before = library.is_grad_enabled()
    try:
        out_train = answer(x, True)
        mode_after_train = library.is_grad_enabled()
        out_eval = answer(x, False)
        mode_after_eval = library.is_grad_enabled()
    except Exception as error:   # noqa: BLE001 - we report whatever it raised
        return wrong(exercise, f"calling forward(x, training) raised {type(error).__name__}: {error}")
    finally:
        library.set_grad_enabled(mode_before)     # as a plain call: put the mode back now
    for out in (out_train, out_eval):
        if not _is_tensor(out):
            return wrong(exercise, f"forward should return a tensor, got {type(out).__name__}.")
        if out.numel() != 1 or abs(out.item() - 5.0) > 1e-5:
            return wrong(exercise, "forward(x, training) should return (x ** 2).sum() "
                                   "(5.0 for x = [1, 2]).")
    if not mode_after_train or not mode_after_eval:
        return wrong(exercise, "after your function returns, recording is still switched off.",
                     "Use set_grad_enabled in a `with` block: called as a plain function it "
                     "switches the mode for everything that follows.")
    if not out_train.requires_grad:
        return wrong(exercise, "with training=True the result should be recorded (require grad).",
                     "Pass the flag itself: `with torch.set_grad_enabled(training):`.")
    if out_eval.requires_grad:
        return wrong(exercise, "with training=False the result should not be recorded.",
                     "Compute the result inside `with torch.set_grad_enabled(training):`.")
    return right(exercise, "correct! One flag chooses between recording (training) and not "
                           "(evaluation).")
