"""Pointing a warning at the learner's own line.

``warnings.warn(..., stacklevel=n)`` names the line n frames up. The public
functions of minigrad reach the place that warns through different numbers
of wrappers, so count the frames instead: the first one outside the package.
"""
import os
import sys
import warnings

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
