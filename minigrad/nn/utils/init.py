"""``skip_init``: make a module without spending random numbers on its initial values
(PyTorch: torch/nn/utils/init.py)."""
import inspect

from ...random import get_rng_state, set_rng_state
from ..modules.module import Module


def skip_init(module_cls, *args, **kwargs):
    """``module_cls(*args, **kwargs)`` with parameters and buffers left uninitialized: their values
    are arbitrary (as from ``torch.empty``), and the random number generator is left as it was,
    so the random numbers drawn next are the same as without this module.

    The module must take a ``device`` argument, as PyTorch requires.
    """
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    # PyTorch builds the module on the 'meta' device, where init draws no random numbers; here
    # the module is built as usual and the generator is put back to where it was
    state = get_rng_state()
    try:
        return module_cls(*args, **kwargs)
    finally:
        set_rng_state(state)
