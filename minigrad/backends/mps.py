"""torch.backends.mps: Apple's GPUs (Metal Performance Shaders). minigrad, like a PyTorch built
without them, has none, so both questions are answered False."""


def is_available():
    """False: no MPS device can be used."""
    return False


def is_built():
    """False: built without MPS support."""
    return False
