"""Utilities beyond the core library (PyTorch: torch/utils): ``checkpoint``, ``data``."""
from . import checkpoint  # noqa: F401
from . import data  # noqa: F401
