"""torch.xpu: Intel's GPUs. minigrad, like a PyTorch built without XPU support, has none: the
questions are answered (``is_available()`` False, no devices, no memory in use), seeding is
accepted and kept nowhere, and everything that needs a GPU fails with an AssertionError
"Torch not compiled with XPU enabled", as in PyTorch."""

NOT_COMPILED = "Torch not compiled with XPU enabled"


def is_available():
    """False: no XPU."""
    return False


def device_count():
    """0: no XPU devices."""
    return 0


def is_initialized():
    """False: XPU was never started (and cannot be)."""
    return False


def is_bf16_supported(including_emulation=True):
    """False: no XPU supports bfloat16 here."""
    return False


def manual_seed(seed):
    """Seed the current XPU's generator: ``int(seed)`` must work; the seed is kept nowhere."""
    int(seed)


def manual_seed_all(seed):
    """Seed every XPU's generator: like ``manual_seed``."""
    int(seed)


def seed():
    """Seed the current XPU's generator with a random number: nothing to seed here."""


def seed_all():
    """Seed every XPU's generator with a random number: nothing to seed here."""


def empty_cache():
    """Release the cached XPU memory: there is none."""


def memory_allocated(device=None):
    """0 bytes of XPU memory held by tensors."""
    return 0


def max_memory_allocated(device=None):
    """0: the peak of ``memory_allocated``."""
    return 0


def init():
    """Fails: there is no XPU to start."""
    raise AssertionError(NOT_COMPILED)


def current_device():
    """Fails: there is no current XPU."""
    raise AssertionError(NOT_COMPILED)


def set_device(device):
    """Fails: there is no XPU to make current."""
    raise AssertionError(NOT_COMPILED)


def synchronize(device=None):
    """Fails: there is no XPU to wait for."""
    raise AssertionError(NOT_COMPILED)


def get_device_name(device=None):
    """Fails: there is no XPU to name."""
    raise AssertionError(NOT_COMPILED)


def initial_seed():
    """Fails: there is no XPU generator to ask."""
    raise AssertionError(NOT_COMPILED)


def get_rng_state(device="xpu"):
    """Fails: there is no XPU generator to ask."""
    raise AssertionError(NOT_COMPILED)
