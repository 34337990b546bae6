"""Anomaly detection: find the forward line that made a backward pass go wrong.

    with minigrad.autograd.detect_anomaly():
        y = minigrad.log(x)          # x contains 0
        (y * 0).sum().backward()     # RuntimeError: Function 'LogBackward0' returned nan ...

While anomaly mode is on,

* every node remembers the Python stack of the forward call that created it
  (in ``node.metadata["traceback_"]``, the key PyTorch uses);
* the engine checks each node's gradients for NaN (unless ``check_nan=False``)
  and raises a RuntimeError naming the node;
* when a node fails in backward, a warning shows where that node was created
  in forward: usually the line to look at.

All of this costs time, so it is off by default. Unlike grad mode, the switch
is global (not per thread), as in PyTorch. (PyTorch: torch/autograd/anomaly_mode.py.)
"""
import os
import sys
import traceback
import warnings

import numpy as np


class _AnomalyState:
    """Anomaly mode's two switches. There is one such object, ``_Anomaly``: every recorded
    operation reads ``_Anomaly.enabled``, and Python reads an object's own attribute faster
    than a class attribute."""

    def __init__(self):
        self.enabled = False
        self.check_nan = True


_Anomaly = _AnomalyState()


def is_anomaly_enabled():
    """True while anomaly detection is on."""
    return _Anomaly.enabled


def is_anomaly_check_nan_enabled():
    """True if anomaly detection checks gradients for NaN (the default)."""
    return _Anomaly.check_nan


ENABLED_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and "
                   "should only be enabled for debugging.")


class detect_anomaly:
    """Context manager that turns anomaly detection on for the ``with`` block.

    ``check_nan=False`` keeps the forward tracebacks but skips the NaN check.
    (Like PyTorch 2.13, it is not a decorator.)
    """

    def __init__(self, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        warnings.warn(ENABLED_WARNING, UserWarning, stacklevel=2)

    def __enter__(self):
        _Anomaly.enabled, _Anomaly.check_nan = True, self.check_nan

    def __exit__(self, *exc_info):
        _Anomaly.enabled, _Anomaly.check_nan = self.prev, self.prev_check_nan
        return False


class set_detect_anomaly:
    """Switch anomaly detection on or off now; as a context manager, switch back at the end."""

    def __init__(self, mode, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        _Anomaly.enabled, _Anomaly.check_nan = bool(mode), bool(check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc_info):
        _Anomaly.enabled, _Anomaly.check_nan = self.prev, self.prev_check_nan
        return False


# --- what the graph and the engine call while anomaly mode is on ------------------------

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def record_forward_stack(node):
    """Keep the stack of the forward call creating ``node``, without minigrad's own frames."""
    frames = traceback.extract_stack(sys._getframe(1))
    while frames and frames[-1].filename.startswith(_PACKAGE_DIR):
        frames.pop()                 # the innermost frames are minigrad's, not the learner's
    node.metadata["traceback_"] = traceback.format_list(frames)


def run_node_checked(node, grads):
    """``node.backward(*grads)``, checked for NaN; on any error, show where ``node`` was made."""
    try:
        grad_inputs = node.backward(*grads)
        if type(grad_inputs) is not tuple:
            grad_inputs = (grad_inputs,)
        if _Anomaly.check_nan:
            for i, grad in enumerate(grad_inputs):
                if grad is not None and grad._array.dtype.kind == "f" and grad._array.size \
                        and bool(_isnan_any(grad._array)):
                    raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
    except Exception:
        warn_forward_stack(node)
        raise
    return grad_inputs


def _isnan_any(array):
    return np.isnan(array).any()


def warn_forward_stack(node):
    """PyTorch's warning: which forward call created the node that failed.

    The text is PyTorch's word for word, except for the end: PyTorch's C++
    warnings close with " (Triggered internally at <its C++ source file>:<line>.)",
    a place in PyTorch's own sources that says nothing about the learner's program,
    so minigrad stops before it.
    """
    stack = node.__dict__.get("_metadata", {}).get("traceback_")
    if stack is None:
        message = (f"Error detected in {node.name()}. No forward pass information available. "
                   "Enable detect anomaly during forward pass for more information.")
    else:
        message = (f"Error detected in {node.name()}. Traceback of forward call that caused the "
                   "error:\n" + "".join(stack))
    warnings.warn(message, UserWarning, stacklevel=4)
