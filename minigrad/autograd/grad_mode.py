"""Switching gradient recording on and off: ``no_grad``, ``enable_grad``, ``set_grad_enabled``.

Every operation asks one question before it records itself in the graph:
"is grad mode on, and does any input require grad?". This module owns the
first half of that question. (PyTorch: torch/autograd/grad_mode.py.)
"""
import functools


class _State:
    # A class attribute rather than a module global so that every module reads
    # the same value with one attribute lookup on the hot path.
    enabled = True


def is_grad_enabled():
    """True when operations are being recorded for backward."""
    return _State.enabled


class _GradModeContext:
    """Base for the three context managers; each also works as a decorator."""

    def _new_mode(self):
        raise NotImplementedError

    def __enter__(self):
        self._previous = _State.enabled
        _State.enabled = self._new_mode()
        return None

    def __exit__(self, *exc_info):
        _State.enabled = self._previous
        return False

    def __call__(self, function):
        # Used as @no_grad() (or @no_grad): run the function inside a fresh context.
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with self.clone():
                return function(*args, **kwargs)
        return wrapper

    def clone(self):
        return type(self)()


class no_grad(_GradModeContext):
    """Context manager (and decorator) in which operations are not recorded.

    Results computed inside have ``requires_grad=False``, even when their
    inputs require grad. Use it for inference and for updating parameters.
    """

    def __new__(cls, function=None):
        self = super().__new__(cls)
        if callable(function):          # used as a bare decorator: @no_grad
            self.__init__()
            return self(function)
        return self

    def __init__(self, function=None):
        pass

    def _new_mode(self):
        return False


class enable_grad(no_grad):
    """Context manager (and decorator) that turns recording back on inside ``no_grad``."""

    def _new_mode(self):
        return True


class set_grad_enabled(_GradModeContext):
    """Turn recording on or off: as a function call, a context manager or a decorator.

    ``set_grad_enabled(False)`` switches recording off immediately, like PyTorch;
    used in a ``with`` statement, the previous mode comes back at the end.
    """

    def __init__(self, mode):
        self.mode = bool(mode)
        self._previous = _State.enabled
        _State.enabled = self.mode

    def _new_mode(self):
        return self.mode

    def __enter__(self):
        # The mode was already set in __init__; remember what to restore.
        _State.enabled = self.mode
        return None

    def clone(self):
        return set_grad_enabled.__new__(set_grad_enabled)._with_mode(self.mode)

    def _with_mode(self, mode):
        self.mode = mode
        return self

    def __call__(self, function):
        # Undo the immediate switch made by __init__: as a decorator it only
        # applies while the function runs.
        _State.enabled = self._previous
        mode = self.mode

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            previous = _State.enabled
            _State.enabled = mode
            try:
                return function(*args, **kwargs)
            finally:
                _State.enabled = previous
        return wrapper
