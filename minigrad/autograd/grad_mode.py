"""Switching gradient recording on and off: ``no_grad``, ``enable_grad``,
``set_grad_enabled`` and ``inference_mode``.

Every operation asks one question before it records itself in the graph:
"is grad mode on, and does any input require grad?". This module owns the
first half of that question. (PyTorch: torch/autograd/grad_mode.py.)

The mode belongs to the *thread* that set it, as in PyTorch: a thread started
inside ``no_grad`` records normally, and two threads training at once do not
switch each other's recording off.
"""
from .._type_names import type_name
import inspect
import functools
import threading


class _ThreadGradMode(threading.local):
    """The grad-mode switches of one thread.

    The class attributes are the values a new thread starts with; a thread
    that changes one gets its own copy (that is what ``threading.local`` does).
    """

    # Read by every operation: "record this op?". It is False inside
    # inference_mode even when grad mode itself is on (enable_grad inside
    # inference_mode does not record, like PyTorch).
    enabled = True
    inference = False            # inside inference_mode(True)?
    grad_in_inference = False    # the grad mode set (by enable_grad...) inside inference_mode


_State = _ThreadGradMode()

# The threads (their idents) that switched recording off and have not switched it back on.
# While it is empty every thread records, and an operation need not ask the per-thread
# switch (reading a threading.local costs about as much as the rest of the check).
_threads_not_recording = set()


def _set_recording(enabled):
    """``_State.enabled = enabled`` for this thread, keeping ``_threads_not_recording`` up to date."""
    if enabled:
        _threads_not_recording.discard(threading.get_ident())
    else:
        _threads_not_recording.add(threading.get_ident())
    _State.enabled = enabled

# One entry per inference_mode(True) block running right now, in any thread. Tensor
# creation only looks up the (slower) per-thread switch when this list is not empty.
_inference_blocks = []
# Becomes [True] once inference mode was used: from then on, saving a tensor for
# backward checks that it is not an inference tensor (PyTorch refuses those).
_inference_tensors_exist = []


def is_grad_enabled():
    """True when grad mode is on (operations are recorded for backward)."""
    state = _State
    return state.grad_in_inference if state.inference else state.enabled


def _set_grad_mode(mode):
    """Switch grad mode for this thread; inside inference_mode nothing is recorded anyway."""
    if _State.inference:
        _State.grad_in_inference = mode
    else:
        _set_recording(mode)


class _DecoratorContextManager:
    """A context manager that also works as a decorator: ``@no_grad()``."""

    def __call__(self, function):
        if inspect.isgeneratorfunction(function):
            return self._wrap_generator(function)

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with self.clone():
                return function(*args, **kwargs)
        return wrapper

    def _wrap_generator(self, function):
        # a decorated generator runs each of its steps inside the mode, as in PyTorch, and the
        # caller's code between two steps outside it
        @functools.wraps(function)
        def generator(*args, **kwargs):
            steps = function(*args, **kwargs)
            try:
                with self.clone():
                    response = steps.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with self.clone():
                            steps.close()
                        raise
                    except BaseException as error:
                        with self.clone():
                            response = steps.throw(error)
                    else:
                        with self.clone():
                            response = steps.send(request)
            except StopIteration as stop:
                return stop.value
        return generator

    def clone(self):
        """A fresh copy of this context manager (a decorator enters a new one on every call)."""
        return type(self)()


class _GradModeContext(_DecoratorContextManager):
    """Base for no_grad and enable_grad."""

    def _new_mode(self):
        raise NotImplementedError

    def __enter__(self):
        self._previous = is_grad_enabled()
        _set_grad_mode(self._new_mode())
        return None

    def __exit__(self, *exc_info):
        _set_grad_mode(self._previous)
        return False


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
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                            f"not {type_name(mode)}")
        self.mode = mode
        self._previous = is_grad_enabled()
        _set_grad_mode(self.mode)

    def _new_mode(self):
        return self.mode

    def __enter__(self):
        # The mode was already set in __init__; remember what to restore.
        _set_grad_mode(self.mode)
        return None

    def clone(self):
        """A fresh copy of this context manager with the same mode."""
        return set_grad_enabled.__new__(set_grad_enabled)._with_mode(self.mode)

    def _with_mode(self, mode):
        self.mode = mode
        return self

    def __call__(self, function):
        # Undo the immediate switch made by __init__: as a decorator it only
        # applies while the function runs.
        _set_grad_mode(self._previous)
        mode = self.mode

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            previous = is_grad_enabled()
            _set_grad_mode(mode)
            try:
                return function(*args, **kwargs)
            finally:
                _set_grad_mode(previous)
        return wrapper


# --- inference mode --------------------------------------------------------------------

def is_inference_mode_enabled():
    """True inside ``inference_mode()`` (in this thread)."""
    return _State.inference


class inference_mode(_DecoratorContextManager):
    """``no_grad`` taken further, for code that will never be differentiated.

    Inside, nothing is recorded, and new tensors are *inference tensors*
    (``t.is_inference()``): they skip the bookkeeping autograd needs (no
    version counter), which makes them cheap, but for the same reason they can
    never join a recorded computation later. ``inference_mode(False)`` switches
    it off again inside an inference block.
    """

    def __new__(cls, mode=True):
        self = super().__new__(cls)
        if callable(mode) and not isinstance(mode, bool):    # bare decorator: @inference_mode
            self.__init__()
            return self(mode)
        return self

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        state = _State
        self._previous = (state.enabled, state.inference, state.grad_in_inference)
        if self.mode:
            state.grad_in_inference = False
            _set_recording(False)
            state.inference = True
            _inference_blocks.append(self)
            if not _inference_tensors_exist:
                _inference_tensors_exist.append(True)
        else:
            # PyTorch: inference_mode(False) also turns grad mode on
            state.inference = False
            _set_recording(True)
        return None

    def __exit__(self, *exc_info):
        enabled, _State.inference, _State.grad_in_inference = self._previous
        _set_recording(enabled)
        if self.mode:
            _inference_blocks.remove(self)
        return False

    def clone(self):
        """A fresh copy of this context manager with the same mode."""
        return type(self)(self.mode)


def _mark_if_inference(tensor):
    """Called for each new tensor while some thread is in inference mode (or while a
    torch.func transform runs a function: see ``stamp_new_tensors``)."""
    if _State.inference:
        tensor._is_inference = True
    if _new_tensor_stamps:
        tensor._made_at = _new_tensor_stamps[-1]()
    return tensor


# While a torch.func transform (grad, vjp, ...) runs a function, each new tensor is stamped
# with a number of the node order (func/_levels.py: a tensor made inside a transform by no
# recorded operation, torch.ones(3) or x.detach(), is shown in the transform's wrapper).
# The transform puts its stamping function here and an entry in _inference_blocks, so that
# tensor creation pays nothing when no transform runs.
_new_tensor_stamps = []


INFERENCE_SAVE_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")

INFERENCE_INPLACE_MESSAGE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")


def check_not_inference(values):
    """Refuse to save an inference tensor for backward (it has no version counter)."""
    for value in values:
        if getattr(value, "_is_inference", False):
            raise RuntimeError(INFERENCE_SAVE_MESSAGE)


def check_inplace_allowed(tensor):
    """Outside inference mode, an inference tensor may not change in place (but for the
    ``detach()`` of one made outside inference mode: PyTorch gives it a version counter)."""
    if tensor._is_inference and not _State.inference and not tensor._counts_versions:
        raise RuntimeError(INFERENCE_INPLACE_MESSAGE)


class _Multithreading:
    enabled = True


class set_multithreading_enabled(_DecoratorContextManager):
    """Allow (True) or forbid (False) the backward pass to run on several threads.

    minigrad's backward always runs on the calling thread, so this changes nothing
    but the flag; it exists so PyTorch programs that set it run unchanged. Like
    ``set_grad_enabled``, it takes effect at once, and as a context manager the
    previous setting comes back at the end.
    """

    def __init__(self, mode):
        self.mode = bool(mode)
        self._previous = _Multithreading.enabled
        _Multithreading.enabled = self.mode

    def __enter__(self):
        _Multithreading.enabled = self.mode

    def __exit__(self, *exc_info):
        _Multithreading.enabled = self._previous

    def clone(self):
        """A fresh copy of this context manager with the same mode."""
        return set_multithreading_enabled(self.mode)


def is_multithreading_enabled():
    """The flag ``set_multithreading_enabled`` sets (True unless turned off)."""
    return _Multithreading.enabled


class _GradLayout:
    enforced = True


class enforce_grad_layout_policy(_DecoratorContextManager):
    """Whether a leaf's first ``.grad`` must be laid out in memory like the leaf (True, the
    default: PyTorch's gradient layout contract) or may keep the layout of the gradient that
    arrives, when backward can hand that tensor over as it is (False).

    Like ``set_grad_enabled``, it takes effect at once, and as a context manager the previous
    setting comes back at the end.
    """

    def __init__(self, enable=True):
        self.mode = enable
        self._previous = _GradLayout.enforced
        _GradLayout.enforced = enable

    def __enter__(self):
        pass

    def __exit__(self, *exc_info):
        _GradLayout.enforced = self._previous

    def __call__(self, function):
        _GradLayout.enforced = self._previous       # as a decorator, only while function runs
        return super().__call__(function)

    def clone(self):
        """A fresh copy of this context manager with the same setting."""
        return enforce_grad_layout_policy(self.mode)
