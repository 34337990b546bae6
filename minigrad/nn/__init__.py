"""minigrad.nn: only ``functional`` (losses and activations); there are no Module classes."""
from . import functional  # noqa: F401
