"""torch.mps: Apple's GPUs (Metal Performance Shaders). minigrad, like a PyTorch built without MPS,
has none: ``is_available()`` is False and there are no devices; seeding is accepted and does
nothing, and everything that needs the GPU fails with PyTorch's message."""


def _without_mps(operation):
    """PyTorch's error for an operation that needs the MPS backend."""
    return RuntimeError(f"Cannot execute {operation}() without MPS backend.")


def is_available():
    """False: no MPS device."""
    return False


def device_count():
    """0: no MPS devices."""
    return 0


def manual_seed(seed):
    """Seed the MPS generator: there is none, so any ``seed`` is accepted and nothing happens."""


def seed():
    """Fails: there is no MPS generator to seed."""
    raise _without_mps("getDefaultGenerator")


def get_rng_state(device="mps"):
    """Fails: there is no MPS generator."""
    raise _without_mps("getDefaultGenerator")


def set_rng_state(new_state, device="mps"):
    """Fails: there is no MPS generator."""
    raise _without_mps("getDefaultGenerator")


def synchronize():
    """Fails: there is no MPS device to wait for."""
    raise _without_mps("deviceSynchronize")


def empty_cache():
    """Fails: there is no MPS memory."""
    raise _without_mps("emptyCache")


def current_allocated_memory():
    """Fails: there is no MPS memory."""
    raise _without_mps("getCurrentAllocatedMemory")


def driver_allocated_memory():
    """Fails: there is no MPS memory."""
    raise _without_mps("getDriverAllocatedMemory")


def recommended_max_memory():
    """Fails: there is no MPS memory."""
    raise _without_mps("getRecommendedMaxMemory")
