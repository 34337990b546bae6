"""Samplers: which dataset indices a DataLoader visits, and in which order
(PyTorch: torch/utils/data/sampler.py).

A sampler is just an iterable of indices. ``SequentialSampler`` gives 0, 1, 2, ...;
``RandomSampler`` a fresh random permutation on each pass (each epoch);
``WeightedRandomSampler`` draws indices with given weights (``torch.multinomial``);
``BatchSampler`` groups another sampler's indices into lists of ``batch_size``.
"""
import itertools
import types

from ... import random as _random
from ..._creation import as_tensor, randint, randperm
from ..._dtype import float64
from ..._multinomial import multinomial
from ._seed import draw_seed


class Sampler:
    """Base class: an iterable over dataset indices (subclasses write ``__iter__``)."""

    # ``Sampler[int]`` in a type annotation, as PyTorch's generic Sampler allows
    __class_getitem__ = classmethod(types.GenericAlias)

    def __iter__(self):
        """The indices, one by one."""
        raise NotImplementedError


class SequentialSampler(Sampler):
    """The indices 0, 1, ..., len(data_source) - 1, in order."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        """0, 1, 2, ..."""
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """The indices in a random order: a new permutation on every pass (or, with
    ``replacement=True``, ``num_samples`` independent draws)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError("replacement should be a boolean value, but got "
                            f"replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        """How many indices one pass gives (the dataset's length unless given)."""
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self):
        """Draw the order. Without a generator of its own, it seeds a fresh one from the
        default stream (one draw), as PyTorch does, so ``manual_seed`` fixes the order."""
        n = len(self.data_source)
        if self.generator is None:
            generator = _random.Generator()
            generator.manual_seed(draw_seed())
        else:
            generator = self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):                 # 32 draws at a time
                yield from randint(0, n, (32,), generator=generator).tolist()
            yield from randint(0, n, (self.num_samples % 32,), generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from randperm(n, generator=generator).tolist()
            yield from randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given ``indices``, in a random order (a new one on every pass)."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        """The indices, shuffled with ``randperm``."""
        for position in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[position]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices of ``weights``, index i drawn with probability
    ``weights[i] / sum(weights)`` (the weights need not sum to 1); each index at most once
    unless ``replacement`` (the default). A new draw on every pass, with ``torch.multinomial``.

    Typical use: oversample the rare classes of an unbalanced dataset, with the weight
    of each sample ``1 / (number of samples of its class)``."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got "
                             f"replacement={replacement}")
        weights = as_tensor(weights, dtype=float64)
        if weights.ndim != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape)}")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        """The drawn indices, one by one."""
        drawn = multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        yield from drawn.tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Group the indices of ``sampler`` into lists of ``batch_size`` (the last one shorter
    unless ``drop_last``)."""

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        """Lists of indices, ``batch_size`` at a time."""
        indices = iter(self.sampler)
        while True:
            batch = list(itertools.islice(indices, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
