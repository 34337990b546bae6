"""Datasets: anything with ``dataset[i]`` and ``len(dataset)``
(PyTorch: torch/utils/data/dataset.py).

A ``Dataset`` subclass writes ``__getitem__`` (and usually ``__len__``);
``TensorDataset`` wraps tensors that share their first dimension; ``Subset``
is a view of some indices of another dataset; ``random_split`` cuts a dataset
into random, non-overlapping Subsets (a training and a validation set).
"""
import bisect
import itertools
import math
import types
import warnings

from ... import random as _random
from ..._creation import randperm


class Dataset:
    """Base class of the map-style datasets: write ``__getitem__(index)`` and ``__len__()``."""

    # ``Dataset[Tensor]`` in a type annotation, as PyTorch's generic Dataset allows
    __class_getitem__ = classmethod(types.GenericAlias)

    def __getitem__(self, index):
        """The sample at ``index`` (each dataset writes its own)."""
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """Base class of the datasets read as a stream: write ``__iter__`` (a DataLoader then
    takes samples in the order the stream gives them; no indices, no shuffling)."""

    def __iter__(self):
        """The samples, one after another (each dataset writes its own)."""
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other):
        return ChainDataset([self, other])


class ChainDataset(IterableDataset):
    """Several iterable datasets read one after another."""

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for dataset in self.datasets:
            if not isinstance(dataset, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from dataset

    def __len__(self):
        total = 0
        for dataset in self.datasets:
            if not isinstance(dataset, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(dataset)
        return total


class TensorDataset(Dataset):
    """Sample ``i`` is ``tuple(tensor[i] for tensor in tensors)``; all tensors must have the
    same first dimension (inputs and their targets, say)."""

    def __init__(self, *tensors):
        if not all(tensors[0].size(0) == tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, renumbered 0, 1, ..."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices):
        """Several samples at once (the DataLoader asks for a whole batch)."""
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after another, as one."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        for dataset in self.datasets:
            if isinstance(dataset, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index = len(self) + index
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = 0 if which == 0 else self.cumulative_sizes[which - 1]
        return self.datasets[which][index - start]


def random_split(dataset, lengths, generator=None):
    """Cut ``dataset`` into non-overlapping random Subsets of the given ``lengths``
    (counts, or fractions that sum to 1). One ``randperm`` of all indices, cut in order,
    from the default generator unless given one, so ``manual_seed`` fixes the split."""
    generator = _random.default_generator if generator is None else generator
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = []
        for number, fraction in enumerate(lengths):
            if fraction < 0 or fraction > 1:
                raise ValueError(f"Fraction at index {number} is not between 0 and 1")
            counts.append(math.floor(len(dataset) * fraction))
        # the items the rounding down left over go one each to the first splits
        for number in range(len(dataset) - sum(counts)):
            counts[number % len(counts)] += 1
        lengths = counts
        for number, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {number} is 0. This might result in an "
                              "empty dataset.", stacklevel=2)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, indices[end - length:end])
            for end, length in zip(itertools.accumulate(lengths), lengths)]
