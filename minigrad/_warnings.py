"""Pointing a warning at the learner's own line.

``warnings.warn(..., stacklevel=n)`` names the line n frames up. The public
functions of minigrad reach the place that warns through different numbers
of wrappers, so count the frames instead: the first one outside the package.
"""
import os
import sys

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def stacklevel_outside_minigrad():
    """The ``stacklevel`` (for the caller's warnings.warn) of the first frame outside minigrad."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level
