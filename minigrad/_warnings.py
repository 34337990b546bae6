"""Pointing a warning at the learner's own line.

``warnings.warn(..., stacklevel=n)`` names the line n frames up. The public
functions of minigrad reach the place that warns through different numbers
of wrappers, so count the frames instead: the first one outside the package.

And keeping numpy's own warnings out where PyTorch gives none (``quietly``).
"""
import contextvars
import os
import sys
import warnings

import numpy as np

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def stacklevel_outside_minigrad():
    """The ``stacklevel`` (for the caller's warnings.warn) of the first frame outside minigrad."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


_warned_once = set()      # the messages warn_once has given (PyTorch's TORCH_WARN_ONCE)
own_warnings_muted = []   # non-empty while an out= variant, which warns on its own, runs (_out.py)


def warn_once(message, category=UserWarning):
    """Warn with ``message`` the first time only, for the whole process, as PyTorch's C++
    ``TORCH_WARN_ONCE`` does (Python's own filters would warn again from another line)."""
    if message in _warned_once or own_warnings_muted:
        return
    _warned_once.add(message)
    warnings.warn(message, category, stacklevel=stacklevel_outside_minigrad())


# --- numpy's floating-point warnings, off where PyTorch has none -----------------------------
# PyTorch computes 0 * inf (nan), 1e30 * 1e30 in float32 (inf) and 1 / 0 (inf) silently, where
# numpy warns ("invalid value encountered in multiply"). ``with np.errstate(all="ignore"):``
# silences numpy, but costs about a third of a one-element operation. numpy reads these
# settings from a context variable, so the arithmetic runs its numpy call in a context of its
# own where they say "ignore": ``quietly(np.multiply, a, b)`` costs a thirtieth of the errstate
# (Python only switches contexts; nothing is made or undone). Only numpy runs in that context.
_quiet_numpy = contextvars.copy_context()
_quiet_numpy.run(np.seterr, all="ignore")
# quietly's first step alone, ``run_quietly(ufunc, a, b)``, for the two callers every operation
# of a graph of tiny tensors passes through (quietly's own call costs some 500 instructions);
# each hands over to ``quietly`` on a RuntimeError (the context in use elsewhere)
run_quietly = _quiet_numpy.run


def quietly(ufunc, a, b, out=None):
    """``ufunc(a, b)`` (into ``out`` if given; ``ufunc`` may be any function of two arrays)
    with numpy's warnings off.

    One thread at a time may be inside a context, and only once: where another thread is
    (while its numpy call runs without Python's lock), or this call runs inside it already,
    ``np.errstate`` does the same job, more slowly."""
    # (a fixed signature: packing *args and **kwargs would cost a one-element operation more
    # than the context saves)
    try:
        if out is None:                     # (some callers pass a function that takes two)
            return _quiet_numpy.run(ufunc, a, b)
        return _quiet_numpy.run(ufunc, a, b, out)
    except RuntimeError as error:
        if not str(error).startswith("cannot enter context"):
            raise                           # (the ufunc's own error)
    with np.errstate(all="ignore"):
        return ufunc(a, b) if out is None else ufunc(a, b, out)
