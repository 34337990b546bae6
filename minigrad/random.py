"""Random numbers: ``manual_seed`` and the generator behind rand, randn and normal_.

minigrad draws from one numpy Generator. Seeding it makes every run give the
same numbers (the streams differ from PyTorch's: same seed, different values).
"""
import numpy as np

# PyTorch's default seed, so a fresh session is reproducible here too.
_DEFAULT_SEED = 67280421310721


class Generator:
    """The random number generator (PyTorch's ``torch.Generator``), backed by numpy."""

    def __init__(self, seed=_DEFAULT_SEED):
        self.manual_seed(seed)

    def manual_seed(self, seed):
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed & 0xFFFF_FFFF_FFFF_FFFF)
        return self

    def initial_seed(self):
        return self.seed

    def __repr__(self):
        return f"<minigrad.Generator object at {hex(id(self))}>"


_Generator = Generator()      # the default generator every random function uses


def manual_seed(seed):
    """Restart the random stream from ``seed``; returns the default Generator (as PyTorch does)."""
    return _Generator.manual_seed(seed)


def seed():
    """Reseed from the operating system's randomness; returns the new seed."""
    new = int(np.random.SeedSequence().entropy) & 0xFFFF_FFFF_FFFF_FFFF
    manual_seed(new)
    return new


def initial_seed():
    return _Generator.seed


def generator():
    """The numpy Generator minigrad currently draws from."""
    return _Generator.rng
