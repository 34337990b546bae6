"""torch.backends.cpu: which instruction set PyTorch's CPU kernels were picked for."""
from .. import random


def get_cpu_capability():
    """'AVX2', 'AVX512' or 'DEFAULT': the CPU kernels PyTorch picks on this machine (the variable
    ATEN_CPU_CAPABILITY overrides it). minigrad follows the same choice where it changes a result
    (float32 randn: see minigrad/random.py)."""
    return random.cpu_capability().upper()
