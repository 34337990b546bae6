"""torch.cuda in a build without CUDA: what PyTorch's CPU-only build answers.

minigrad, like a PyTorch built for the CPU only, has no CUDA: ``torch.cuda.is_available()`` is
False and there are no GPUs to count. Tutorials still call this module on their first lines::

    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.cuda.manual_seed_all(0)

so it answers every question exactly as the CPU-only PyTorch does:

- questions about the build (is_available, device_count, is_bf16_supported, ...) get their
  answers (False, 0, ...);
- the seeding functions accept a seed and keep nothing: PyTorch queues them until CUDA starts,
  which here never happens;
- memory statistics are 0, and empty_cache does nothing;
- everything that needs a GPU (current_device, synchronize, get_device_name, ...) fails as
  PyTorch's does, with an AssertionError "Torch not compiled with CUDA enabled".
"""
import collections
import warnings

from .._tensor import device as torch_device

# advice of minigrad's own, on a line after PyTorch's message
_HINT = ("\nminigrad hint: minigrad, like a CPU-only PyTorch, has no GPU; run GPU-only lines under "
         "`if torch.cuda.is_available():` (they are then skipped here).")
NOT_COMPILED = "Torch not compiled with CUDA enabled" + _HINT


def _missing_binding(name):
    """The error of the few functions whose CUDA-only C++ helper the CPU-only build lacks:
    PyTorch's Python code reaches for it and finds no such attribute."""
    return AttributeError(f"module 'torch._C' has no attribute '{name}'" + _HINT)


# --- questions about the build ------------------------------------------------------------------

def is_available():
    """False: there is no CUDA (this build, like a CPU-only PyTorch, has none)."""
    return False


def _is_compiled():
    """False: built without CUDA."""
    return False


def device_count():
    """0: no GPUs."""
    return 0


def is_initialized():
    """False: CUDA was never started (and cannot be)."""
    return False


def is_bf16_supported(including_emulation=True):
    """False: no GPU supports bfloat16 here."""
    return False


def is_tf32_supported():
    """False: no GPU supports TensorFloat-32 here."""
    return False


def get_arch_list():
    """[]: the build holds code for no GPU architecture."""
    return []


def get_gencode_flags():
    """'': the build was compiled for no GPU architecture."""
    return ""


# --- seeds and random states: accepted, then kept nowhere ---------------------------------------

def manual_seed(seed):
    """Seed the current GPU's generator. ``int(seed)`` must work (as in PyTorch); the seed is then
    kept nowhere, as PyTorch keeps it only until CUDA starts (never, here)."""
    int(seed)


def manual_seed_all(seed):
    """Seed every GPU's generator: like ``manual_seed``, accepted and kept nowhere."""
    int(seed)


def seed():
    """Seed the current GPU's generator with a random number: nothing to seed here."""


def seed_all():
    """Seed every GPU's generator with a random number: nothing to seed here."""


def initial_seed():
    """Fails: there is no GPU generator to ask (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def get_rng_state(device="cuda"):
    """Fails: there is no GPU generator to ask (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def get_rng_state_all():
    """The random states of every GPU: none, []."""
    return []


def set_rng_state(new_state, device="cuda"):
    """Set a GPU's random state. PyTorch copies ``new_state`` (a tensor: ``new_state.clone()``)
    before queueing the call; here the copy is made and the call dropped."""
    new_state.clone()


def set_rng_state_all(new_states):
    """``set_rng_state`` for each state in ``new_states``."""
    for state in new_states:
        set_rng_state(state)


# --- memory: nothing allocated, nothing cached ----------------------------------------------------

def empty_cache():
    """Release the cached GPU memory: there is none."""


def memory_allocated(device=None):
    """0 bytes of GPU memory held by tensors (any ``device`` given: not checked, as in PyTorch)."""
    return 0


def max_memory_allocated(device=None):
    """0: the peak of ``memory_allocated``."""
    return 0


def memory_reserved(device=None):
    """0 bytes of GPU memory held by the caching allocator."""
    return 0


def max_memory_reserved(device=None):
    """0: the peak of ``memory_reserved``."""
    return 0


def memory_stats(device=None):
    """The allocator's statistics: an empty ``OrderedDict``."""
    return collections.OrderedDict()


def memory_cached(device=None):
    """The old name of ``memory_reserved`` (warns, as in PyTorch)."""
    warnings.warn("`torch.cuda.memory_cached` has been renamed to `torch.cuda.memory_reserved`",
                  FutureWarning, stacklevel=2)
    return memory_reserved(device)


def max_memory_cached(device=None):
    """The old name of ``max_memory_reserved`` (warns, as in PyTorch)."""
    warnings.warn("`torch.cuda.max_memory_cached` has been renamed to `torch.cuda.max_memory_reserved`",
                  FutureWarning, stacklevel=2)
    return max_memory_reserved(device)


def reset_peak_memory_stats(device=None):
    """Fails as in the CPU-only PyTorch: its C++ helper for this exists only in CUDA builds."""
    raise _missing_binding("_cuda_resetPeakMemoryStats")


def reset_accumulated_memory_stats(device=None):
    """Fails as in the CPU-only PyTorch: its C++ helper exists only in CUDA builds."""
    raise _missing_binding("_cuda_resetAccumulatedMemoryStats")


def reset_max_memory_allocated(device=None):
    """The old form of ``reset_peak_memory_stats``: warns, then fails as it does."""
    warnings.warn("torch.cuda.reset_max_memory_allocated now calls torch.cuda.reset_peak_memory_stats, "
                  "which resets /all/ peak memory stats.", FutureWarning, stacklevel=2)
    return reset_peak_memory_stats(device)


def reset_max_memory_cached(device=None):
    """The old form of ``reset_peak_memory_stats``: warns, then fails as it does."""
    warnings.warn("torch.cuda.reset_max_memory_cached now calls torch.cuda.reset_peak_memory_stats, "
                  "which resets /all/ peak memory stats.", FutureWarning, stacklevel=2)
    return reset_peak_memory_stats(device)


# --- choosing a GPU ---------------------------------------------------------------------------------

def _device_index(device, optional=False):
    """The GPU index ``device`` names: an int as it is, 'cuda:1' as 1, 'cuda' (no index) as
    None if ``optional`` else a ValueError; another device type is a ValueError."""
    if isinstance(device, int) and not isinstance(device, bool):
        return device
    index = None
    if isinstance(device, (str, torch_device)):
        device = torch_device(device)       # (PyTorch's error for a name that is no device)
        if device.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        index = device.index
    if index is None and not optional:
        raise ValueError(f"Expected a torch.device with a specified index or an integer, but got:{device}")
    return index


def set_device(device):
    """Make ``device`` the current GPU. A negative index means "no change" (PyTorch's rule), so
    it is accepted; any GPU index fails as in the CPU-only PyTorch."""
    index = _device_index(device)
    if index >= 0:
        raise _missing_binding("_cuda_setDevice")


class device:
    """``with torch.cuda.device(1):`` runs the block with GPU 1 current. The device is read when
    the object is made; entering the block fails, as there is no GPU to switch to (a negative
    index, "no GPU", is accepted and changes nothing)."""

    def __init__(self, device):
        self.idx = _device_index(device, optional=True)
        self.prev_idx = -1

    def __enter__(self):
        if self.idx < 0:          # (None < 0 raises Python's TypeError, as in PyTorch)
            return None
        raise RuntimeError("PyTorch was compiled without CUDA support")

    def __exit__(self, exc_type, exc_value, traceback):
        return False


class device_of(device):
    """``with torch.cuda.device_of(tensor):`` makes the tensor's GPU current: a CPU tensor's
    "GPU" is -1, so nothing changes."""

    def __init__(self, obj):
        self.idx = -1
        self.prev_idx = -1


# --- everything that needs a GPU ---------------------------------------------------------------------

def current_device():
    """Fails: there is no current GPU (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def synchronize(device=None):
    """Fails: there is no GPU to wait for (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def get_device_name(device=None):
    """Fails: there is no GPU to name (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def get_device_properties(device=None):
    """Fails: there is no GPU to describe (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def get_device_capability(device=None):
    """Fails: there is no GPU to describe (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def init():
    """Fails: there is no CUDA to start (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def current_stream(device=None):
    """Fails: there is no GPU stream (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def default_stream(device=None):
    """Fails: there is no GPU stream (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def mem_get_info(device=None):
    """Fails: there is no GPU memory to measure (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def ipc_collect():
    """Fails: there is no GPU memory shared between processes (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def get_sync_debug_mode():
    """Fails: there is no GPU to synchronise with (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


def current_blas_handle():
    """Fails: there is no cuBLAS (AssertionError, as in PyTorch)."""
    raise AssertionError(NOT_COMPILED)


# --- streams, events, and the error for a full GPU -------------------------------------------------

class Stream:
    """A queue of work on a GPU: none can be made without CUDA (RuntimeError, as in PyTorch)."""

    def __init__(self, device=None, priority=0, **kwargs):
        raise RuntimeError("torch.cuda.Stream requires CUDA support")


class Event:
    """A marker in a GPU stream: none can be made without CUDA (RuntimeError, as in PyTorch)."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        raise RuntimeError("Tried to instantiate dummy base class Event")


class StreamContext:
    """``with torch.cuda.stream(s):`` runs the block on GPU stream ``s``. Without CUDA there is no
    stream to switch to, so the block runs as it would without the ``with``."""

    def __init__(self, stream):
        self.stream = stream

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_value, traceback):
        return False


def stream(stream):
    """A ``StreamContext`` for ``stream`` (without CUDA, a ``with`` block that changes nothing)."""
    return StreamContext(stream)


class OutOfMemoryError(RuntimeError):
    """What PyTorch raises when a device runs out of memory (``torch.OutOfMemoryError``, also
    ``torch.cuda.OutOfMemoryError``), so that ``except torch.cuda.OutOfMemoryError:`` can be
    written; minigrad, without a GPU, never raises it."""
