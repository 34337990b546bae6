"""Random numbers: ``manual_seed`` and the generator behind rand, randn and normal_.

minigrad draws from one numpy Generator. Seeding it makes every run give the
same numbers (the streams differ from PyTorch's: same seed, different values).
"""
import numpy as np

# PyTorch's default seed, so a fresh session is reproducible here too.
_DEFAULT_SEED = 67280421310721


class _Generator:
    rng = np.random.default_rng(_DEFAULT_SEED)
    seed = _DEFAULT_SEED


def manual_seed(seed):
    """Restart the random stream from ``seed``."""
    seed = int(seed)
    _Generator.rng = np.random.default_rng(seed & 0xFFFF_FFFF_FFFF_FFFF)
    _Generator.seed = seed
    return _Generator


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
