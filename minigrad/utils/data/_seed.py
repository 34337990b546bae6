"""The seed a shuffling step draws, exactly as PyTorch draws it.

PyTorch writes ``torch.empty((), dtype=torch.int64).random_()``: one 64-bit
number from the generator (two 32-bit draws, the first one the high half),
kept below 2**63 so that it fits an int64. Drawing it the same way keeps the
random stream in step with PyTorch's, so the same ``manual_seed`` gives the
same shuffles.
"""
from ... import random as _random


def draw_seed(generator=None):
    """One int64 seed in [0, 2**63) from ``generator`` (the default one if None)."""
    generator = _random._pick(generator)
    return int(generator.random64(1)[0] % (1 << 63))
