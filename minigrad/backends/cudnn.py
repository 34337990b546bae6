"""torch.backends.cudnn: NVIDIA's library of neural-network kernels, absent from minigrad as from a
PyTorch built for the CPU only.

``is_available()`` is False and ``version()`` None. The switches (``enabled``, ``deterministic``,
``benchmark``, ``allow_tf32``) only steer cuDNN's choice of kernels, so here they change nothing;
they are still kept, read back, and refuse a value that is not a bool with PyTorch's message, so
that the usual lines of a reproducible run work unchanged::

    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
"""
import sys
import types


def is_available():
    """False: there is no cuDNN."""
    return False


def version():
    """None: there is no cuDNN, so no version of it."""
    return None


def is_acceptable(tensor):
    """False: cuDNN could run on no tensor here (it needs a CUDA tensor)."""
    return False


# The switches and their defaults (PyTorch's), with the name of the setter PyTorch's message
# names when it is given something that is not a bool.
_switches = {"enabled": True, "deterministic": False, "benchmark": False, "allow_tf32": True}
_SETTER_NAMES = {"enabled": "set_enabled_cudnn", "deterministic": "set_deterministic_cudnn",
                 "benchmark": "set_benchmark_cudnn", "allow_tf32": "set_allow_tf32_cublas"}
benchmark_limit = None      # (how many algorithms benchmark=True tries: any value is kept)


def _switch(name):
    """A property of this module that reads and writes ``_switches[name]``, bools only."""
    def read(module):
        return _switches[name]

    def write(module, value):
        if not isinstance(value, bool):
            raise RuntimeError(f"{_SETTER_NAMES[name]} expects a bool, but got {type(value).__name__}")
        _switches[name] = value
    return property(read, write, doc=f"cuDNN's '{name}' switch (a bool; changes nothing here).")


class _CudnnModule(types.ModuleType):
    """This module's class: a module cannot have properties, its class can. Giving the module
    this class makes ``cudnn.deterministic = 1`` check its value, as PyTorch's does."""
    enabled = _switch("enabled")
    deterministic = _switch("deterministic")
    benchmark = _switch("benchmark")
    allow_tf32 = _switch("allow_tf32")


sys.modules[__name__].__class__ = _CudnnModule
