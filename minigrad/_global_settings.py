"""Process-wide settings and small helpers that PyTorch defines in torch/__init__.py.

minigrad runs on numpy, on the CPU, one thread, always deterministically; these settings are
kept and reported back as PyTorch reports them (so code that sets them runs unchanged), but
they change nothing in how minigrad computes.
"""
import math
import os
import warnings

import numpy as np

from ._type_names import type_name
from ._warnings import stacklevel_outside_minigrad
from ._tensor import Tensor, device as _device, check_cpu_device

int_type = type(0)       # (the setters below take PyTorch's parameter name ``int``, hiding Python's)

pi = math.pi
e = math.e
inf = math.inf
nan = math.nan
newaxis = None          # x[:, torch.newaxis] adds a dimension, as x[:, None]

_state = {"num_threads": os.cpu_count() or 1, "num_interop_threads": None,
          "deterministic": False, "deterministic_warn_only": False, "matmul_precision": "highest",
          "default_device": None, "warn_always": False}


def set_num_threads(int):       # noqa: A002 (PyTorch's parameter name)
    """How many threads PyTorch may use within an operation (minigrad uses numpy's; kept only)."""
    if isinstance(int, bool) or not isinstance(int, (int_type, np.integer)):
        raise TypeError(f"set_num_threads(): argument 'int' (position 1) must be int, not {type_name(int)}")
    if int <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _state["num_threads"] = int


def get_num_threads():
    """The number of threads set with ``set_num_threads`` (PyTorch's default: the CPU's cores)."""
    return _state["num_threads"]


def set_num_interop_threads(int):       # noqa: A002
    """How many threads PyTorch may use between operations (kept only)."""
    if isinstance(int, bool) or not isinstance(int, (int_type, np.integer)):
        raise TypeError(f"set_num_interop_threads(): argument 'int' (position 1) must be int, not "
                        f"{type_name(int)}")
    if int <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    _state["num_interop_threads"] = int


def get_num_interop_threads():
    """The number of threads for running operations side by side (PyTorch's default: the cores)."""
    value = _state["num_interop_threads"]
    return _state["num_threads"] if value is None else value


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Ask for deterministic algorithms only (minigrad's always are: the setting is kept)."""
    if not isinstance(mode, bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
                        f"{type_name(mode)}")
    _state["deterministic"], _state["deterministic_warn_only"] = mode, bool(warn_only) and mode


def are_deterministic_algorithms_enabled():
    """True after ``use_deterministic_algorithms(True)``."""
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    """True after ``use_deterministic_algorithms(True, warn_only=True)``."""
    return _state["deterministic_warn_only"]


def set_deterministic_debug_mode(debug_mode):
    """``use_deterministic_algorithms`` by a name or number: "default" (0), "warn" (1), "error" (2)."""
    if isinstance(debug_mode, str):
        names = {"default": 0, "warn": 1, "error": 2}
        if debug_mode not in names:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, "
                               f"but got {debug_mode}")
        debug_mode = names[debug_mode]
    elif isinstance(debug_mode, int_type):
        if debug_mode not in (0, 1, 2):
            raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    else:
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    """0 (not deterministic), 1 (deterministic, warn only) or 2 (deterministic, error)."""
    if not _state["deterministic"]:
        return 0
    return 1 if _state["deterministic_warn_only"] else 2


def set_float32_matmul_precision(precision):
    """"highest", "high" or "medium": how exactly float32 matrix products must be computed on
    GPUs (minigrad always computes them in full float32: kept only)."""
    if isinstance(precision, bytes):        # (PyTorch's parser reads bytes as a str)
        precision = precision.decode()
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got {type_name(precision)}")
    if precision not in ("highest", "high", "medium"):
        # (PyTorch's text, a missing space included)
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect. (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/Context.cpp:458.)", UserWarning,
                      stacklevel=stacklevel_outside_minigrad())
        return
    _state["matmul_precision"] = precision


def get_float32_matmul_precision():
    """The precision set with ``set_float32_matmul_precision`` ("highest" by default)."""
    return _state["matmul_precision"]


def set_default_device(device):
    """The device new tensors go to by default (minigrad has only the CPU: kept and reported; another
    device is refused here already, where PyTorch refuses it at the next tensor made)."""
    if device is not None:
        device = _device(device)
        check_cpu_device(device)        # (refused at once: minigrad's factories only make CPU tensors)
    _state["default_device"] = device


def get_default_device():
    """The default device: ``device(type='cpu')`` unless another one was set."""
    value = _state["default_device"]
    return _device("cpu") if value is None else value


def set_warn_always(b):
    """Warn every time, not once, for the warnings PyTorch gives once per process (kept only)."""
    _state["warn_always"] = bool(b)


def is_warn_always_enabled():
    """True after ``set_warn_always(True)``."""
    return _state["warn_always"]


def typename(obj):
    """The type of ``obj`` as a string: ``'torch.FloatTensor'`` for a float32 tensor, the module
    and class name for other objects (``'torch.nn.modules.linear.Linear'``)."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    qualname = ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module in ("", "builtins"):
        return qualname
    return f"{_as_torch(module)}.{qualname}"


def _as_torch(module):
    """minigrad's modules are named as PyTorch's (minigrad.nn.modules.linear -> torch.nn...)."""
    return "torch" + module[len("minigrad"):] if module.split(".")[0] == "minigrad" else module


def is_storage(obj):
    """False: minigrad has no storage objects (a tensor's memory is a numpy array)."""
    return False


def get_device(input):
    """-1: the tensor is on the CPU (a GPU tensor would give its GPU's number)."""
    return input.get_device()


def set_anomaly_enabled(enabled, check_nan=True):
    """Turn anomaly detection on or off for the rest of the program (``autograd.detect_anomaly``
    does it for a ``with`` block): nodes remember the line that made them, and with
    ``check_nan`` a backward step that gives NaN raises."""
    from .autograd.anomaly_mode import _Anomaly
    _Anomaly.enabled, _Anomaly.check_nan = bool(enabled), bool(check_nan)
