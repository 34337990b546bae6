"""Pointing a warning at the learner's own line.

``warnings.warn(..., stacklevel=n)`` names the line n frames up. The public
functions of minigrad reach the place that warns through different numbers
of wrappers, so count the frames instead: the first one outside the package.

And keeping numpy's own warnings out where PyTorch gives none (``quiet_numpy``).
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
# own where they say "ignore": ``quiet_numpy.run(np.multiply, a, b)`` costs a thirtieth of the
# errstate (Python only switches contexts; nothing is made or undone).
quiet_numpy = contextvars.copy_context()
quiet_numpy.run(np.seterr, all="ignore")


def run_quietly(busy, function, *args, **kwargs):
    """``function(*args, **kwargs)`` with numpy's warnings off, when ``quiet_numpy.run`` raised
    ``busy``: one thread at a time may be inside a context, once (another thread is, while its
    numpy call runs without Python's lock, or the function called runs there already). Any
    other RuntimeError is the function's own, raised again."""
    if not str(busy).startswith("cannot enter context"):
        raise busy
    with np.errstate(all="ignore"):
        return function(*args, **kwargs)
