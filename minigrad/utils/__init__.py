"""Utilities beyond the core library (PyTorch: torch/utils): ``checkpoint``."""
from . import checkpoint  # noqa: F401
