"""minigrad.utils.data: feeding a model with batches (PyTorch: torch/utils/data).

    dataset = TensorDataset(inputs, targets)          # dataset[i] -> (inputs[i], targets[i])
    loader = DataLoader(dataset, batch_size=32, shuffle=True)
    for x, y in loader:                               # x: 32 inputs stacked, y: 32 targets
        ...

    dataset.py     Dataset, IterableDataset, TensorDataset, Subset, ConcatDataset, random_split
    sampler.py     which indices, in which order: SequentialSampler, RandomSampler, BatchSampler,
                   WeightedRandomSampler
    _collate.py    default_collate: a list of samples -> one batch of tensors
    _fetch.py      fetching one batch: indices -> samples -> collate_fn
    _worker.py     the workers of DataLoader(num_workers=n), get_worker_info
    dataloader.py  DataLoader: sampler + dataset + collate, one batch at a time
"""
from ._collate import default_collate, default_convert  # noqa: F401
from .dataloader import DataLoader, get_worker_info  # noqa: F401
from .dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset, Subset,  # noqa: F401
                      TensorDataset, random_split)
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler,  # noqa: F401
                      SubsetRandomSampler, WeightedRandomSampler)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset",
           "IterableDataset", "RandomSampler", "Sampler", "SequentialSampler", "Subset",
           "SubsetRandomSampler", "TensorDataset", "default_collate", "default_convert",
           "WeightedRandomSampler", "get_worker_info", "random_split"]
