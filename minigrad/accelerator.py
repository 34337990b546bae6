"""torch.accelerator: the one accelerator (CUDA, MPS, XPU, ...) a PyTorch build may use, asked
about without naming it. minigrad, like a PyTorch built for the CPU only, has none::

    device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

picks "cpu". Every function that needs the accelerator itself fails with PyTorch's message.
"""
import warnings

_NONE_AVAILABLE = "Cannot access accelerator device when none is available."


def is_available():
    """False: there is no accelerator."""
    return False


def current_accelerator(check_available=False):
    """The accelerator's device type (``torch.device('cuda')``, ...): None, as there is none."""
    return None


def device_count():
    """0: no accelerator devices."""
    return 0


def current_device_index():
    """Fails: there is no accelerator device (RuntimeError, as in PyTorch)."""
    raise RuntimeError(_NONE_AVAILABLE)


def set_device_index(device):
    """Fails: there is no accelerator device to make current."""
    raise RuntimeError(_NONE_AVAILABLE)


def current_device_idx():
    """The old name of ``current_device_index`` (warns, then fails as it does)."""
    warnings.warn("Use `current_device_index` instead.", FutureWarning, stacklevel=2)
    return current_device_index()


def set_device_idx(device):
    """The old name of ``set_device_index`` (warns, then fails as it does)."""
    warnings.warn("Use `set_device_index` instead.", FutureWarning, stacklevel=2)
    return set_device_index(device)


def synchronize(device=None):
    """Fails: there is no accelerator to wait for."""
    raise RuntimeError(_NONE_AVAILABLE)


def current_stream(device=None):
    """Fails: there is no accelerator stream."""
    raise RuntimeError(_NONE_AVAILABLE)


def empty_cache():
    """Fails: there is no accelerator memory."""
    raise RuntimeError(_NONE_AVAILABLE)


def memory_allocated(device_index=None):
    """Fails: there is no accelerator memory."""
    raise RuntimeError(_NONE_AVAILABLE)


def max_memory_allocated(device_index=None):
    """Fails: there is no accelerator memory."""
    raise RuntimeError(_NONE_AVAILABLE)


def reset_peak_memory_stats(device_index=None):
    """Fails: there is no accelerator memory."""
    raise RuntimeError(_NONE_AVAILABLE)


def memory_stats(device_index=None):
    """Fails: there is no accelerator memory."""
    raise RuntimeError(_NONE_AVAILABLE)


class device_index:
    """``with torch.accelerator.device_index(i):`` runs the block on accelerator ``i``. None means
    "stay where you are" and works; any index fails on entering, as there is no accelerator."""

    def __init__(self, device_index):
        self.idx = device_index

    def __enter__(self):
        if self.idx is not None:
            raise RuntimeError(_NONE_AVAILABLE)

    def __exit__(self, exc_type, exc_value, traceback):
        return False
