"""The shared machinery of the exercise checks: compare, then explain.

Every check prints one line that starts with a mark:

    ✅  right
    ❌  wrong, followed by what differs and a hint
    ⏳  not answered yet (the answer is still ``None`` / ``...``)

and returns True or False, so a notebook can also ``assert`` on it.
"""
import inspect
import linecache
import re
import sys

import numpy as np

import minigrad
from .._tensor import Tensor
from ..autograd.function import Function

RIGHT, WRONG, WAITING = "✅", "❌", "⏳"


def _unanswered(answer):
    return answer is None or answer is Ellipsis


def _torch():
    """The torch module if the learner imported it (the checks never import it themselves)."""
    return sys.modules.get("torch")


def _is_tensor(value):
    """A minigrad tensor, or a real PyTorch one (so the checks keep working after the switch)."""
    torch = _torch()
    return isinstance(value, Tensor) or (torch is not None and isinstance(value, torch.Tensor))


def _values(tensor):
    return np.asarray(tensor.detach().cpu().numpy(), dtype=np.float64)


def _is_function_class(value):
    """A subclass of minigrad's or of PyTorch's ``autograd.Function``."""
    if not isinstance(value, type):
        return False
    torch = _torch()
    return issubclass(value, Function) or (
        torch is not None and issubclass(value, torch.autograd.Function))


def _library_of(value):
    """minigrad, or torch for a PyTorch tensor or Function class: make test inputs with it."""
    torch = _torch()
    if torch is not None and (isinstance(value, torch.Tensor) or (
            isinstance(value, type) and issubclass(value, torch.autograd.Function))):
        return torch
    return minigrad


class CheckResult:
    """What a check returns: true when the answer is right (``assert check.exercise_1(x)``).

    It shows nothing in a notebook (the printed line already said it all),
    where a plain True/False would be echoed under the message.
    """

    __slots__ = ("passed",)

    def __init__(self, passed):
        self.passed = passed

    def __bool__(self):
        return self.passed

    def __eq__(self, other):
        return bool(self) == other

    __hash__ = None

    def __repr__(self):
        return repr(self.passed)

    def _ipython_display_(self):
        pass


def _say(mark, exercise, message):
    print(f"{mark} {exercise}: {message}")


def right(exercise, message="correct!"):
    _say(RIGHT, exercise, message)
    return CheckResult(True)


def wrong(exercise, message, hint=None):
    _say(WRONG, exercise, message + (f"\n   Hint: {hint}" if hint else ""))
    return CheckResult(False)


def waiting(exercise):
    if _none_was_computed():
        _say(WRONG, exercise,
             "your answer is None, computed by your code.\n   Hint: a .grad is None until "
             "backward() has run, and a non-leaf tensor keeps no .grad at all unless you call "
             ".retain_grad() on it before backward(). Did you forget one of them (or run the "
             "cells out of order)?")
        return CheckResult(False)
    _say(WAITING, exercise, "replace the None (or ...) with your answer, then run the cell again.")
    return CheckResult(False)


def _none_was_computed():
    """True if the cell that called the check has no literal None/... left in it.

    The exercise cells start as ``answer = None`` or ``check.exercise_1(...)``:
    a None that comes from the learner's code (``answer = y.grad``) is a
    different situation and deserves a different hint.
    """
    try:
        frame = inspect.currentframe()
        while frame is not None and frame.f_globals.get("__name__", "").startswith("minigrad.course"):
            frame = frame.f_back
        if frame is None:
            return False
        filename = frame.f_code.co_filename
        source = "".join(linecache.getlines(filename, frame.f_globals))
    except Exception:           # noqa: BLE001 - no source: keep the usual message
        return False
    if not source:
        return False
    code = "\n".join(line.split("#", 1)[0] for line in source.splitlines())
    return re.search(r"\bNone\b|\.\.\.", code) is None


def check_tensor(exercise, answer, expected, hint=None, atol=1e-5, rtol=1e-4, success=None):
    """Is ``answer`` a tensor with ``expected``'s shape and (close) values?"""
    if _unanswered(answer):
        return waiting(exercise)
    if not _is_tensor(answer):
        return wrong(exercise, f"expected a tensor, got {type(answer).__name__}.", hint)
    if tuple(answer.shape) != tuple(expected.shape):
        return wrong(exercise, f"the shape should be {list(expected.shape)}, yours is "
                               f"{list(answer.shape)}.", hint)
    got = _values(answer)
    want = _values(expected)
    if not np.allclose(got, want, atol=atol, rtol=rtol):
        return wrong(exercise, f"the shape is right but the values are not:\n   yours:    "
                               f"{np.round(got, 4).tolist()}\n   expected: {np.round(want, 4).tolist()}", hint)
    return right(exercise, success or "correct!")


def check_number(exercise, answer, expected, hint=None, atol=1e-5, rtol=1e-4, success=None):
    """Is ``answer`` (a number or one-element tensor) close to ``expected``?"""
    if _unanswered(answer):
        return waiting(exercise)
    if _is_tensor(answer):
        if answer.numel() != 1:
            return wrong(exercise, f"expected a single number, got a tensor of shape {list(answer.shape)}.", hint)
        answer = answer.item()
    try:
        value = float(answer)
    except (TypeError, ValueError):
        return wrong(exercise, f"expected a number, got {type(answer).__name__}.", hint)
    if not np.isclose(value, float(expected), atol=atol, rtol=rtol):
        return wrong(exercise, f"{value:g} is not right.", hint)
    return right(exercise, success or "correct!")


def check_equal(exercise, answer, expected, hint=None, success=None):
    """Is ``answer`` exactly ``expected`` (a bool, a string, a tuple of names, ...)?"""
    if _unanswered(answer):
        return waiting(exercise)
    if isinstance(expected, bool) and _is_tensor(answer) and answer.numel() == 1:
        answer = bool(answer)
    if type(expected) is bool and type(answer) is not bool:
        return wrong(exercise, f"answer True or False (got {answer!r}).", hint)
    if answer != expected:
        return wrong(exercise, f"{answer!r} is not right.", hint)
    return right(exercise, success or "correct!")


def check_choice(exercise, answer, expected, choices, hint=None, success=None):
    """A multiple-choice answer: one of ``choices`` (letters or short strings)."""
    if _unanswered(answer):
        return waiting(exercise)
    normalised = str(answer).strip().lower()
    if normalised not in [str(c).lower() for c in choices]:
        return wrong(exercise, f"choose one of {', '.join(map(str, choices))} (got {answer!r}).", hint)
    if normalised != str(expected).lower():
        return wrong(exercise, f"{answer!r} is not the right choice.", hint)
    return right(exercise, success or "correct!")


def check_raises(exercise, function, exception_type, hint=None, success=None,
                 message_contains=None, how_to_define=None):
    """Does calling ``function()`` raise ``exception_type``? (for "make it fail" exercises)

    ``message_contains`` tells this error apart from others of the same type;
    ``how_to_define`` is the hint shown when the answer is not a function.
    """
    if _unanswered(function):
        return waiting(exercise)
    if not callable(function):
        return wrong(exercise, f"expected a function, got {type(function).__name__}.",
                     how_to_define or "Define it with `def ...():` and pass the function itself "
                                      "(without parentheses).")
    name = exception_type.__name__
    try:
        function()
    except exception_type as error:
        if message_contains is not None and message_contains not in str(error):
            return wrong(exercise, f"it raised a different {name}: {str(error)[:120]}", hint)
        return right(exercise, success or f"correct: it raises {name}.")
    except Exception as error:   # noqa: BLE001 - we report whatever it raised
        return wrong(exercise, f"it raised {type(error).__name__} instead of {name}.", hint)
    return wrong(exercise, "it ran without raising an error.", hint)
