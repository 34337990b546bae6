"""DataLoader: batches from a dataset, one at a time (PyTorch: torch/utils/data/dataloader.py).

Each pass (``for batch in loader``) does, batch after batch:

    indices = next(batch_sampler)                 # e.g. [7, 2, 9, 0] (shuffled or in order)
    samples = [dataset[i] for i in indices]       # each sample, e.g. (x_i, y_i)
    batch   = collate_fn(samples)                 # e.g. [x stacked, y stacked]

minigrad loads in the main process only: ``num_workers`` must be 0.
"""
import warnings

from ..._warnings import stacklevel_outside_minigrad
from ._collate import default_collate, default_convert
from ._seed import draw_seed
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

_FIXED_AFTER_INIT = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                     "persistent_workers")


class _InfiniteConstantSampler(Sampler):
    """The "sampler" of an IterableDataset: None forever (the stream decides what comes)."""

    def __iter__(self):
        while True:
            yield None


def get_worker_info():
    """Information about the worker process loading data: always None here (one process)."""
    return None


class DataLoader:
    """Iterate over ``dataset`` in batches of ``batch_size`` (shuffled each pass if
    ``shuffle=True``), each batch put together by ``collate_fn`` (``default_collate``)."""

    _initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in "
                             "multiprocessing.let num_workers > 0 to enable multiprocessing, "
                             "otherwise set prefetch_factor to None.")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if num_workers > 0:
            raise NotImplementedError(
                f"DataLoader(num_workers={num_workers}): loading in worker processes is not "
                "supported\nminigrad hint: minigrad loads every batch in the main process; use "
                "num_workers=0 (the default).")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.in_order = in_order
        if multiprocessing_context is not None:
            raise ValueError("multiprocessing_context can only be used with multi-process "
                             f"loading (num_workers > 0), but got num_workers={num_workers}")
        self.multiprocessing_context = None
        self._is_iterable = isinstance(dataset, IterableDataset)
        if self._is_iterable:
            if shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler "
                                 f"option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None:
            if self._is_iterable:
                sampler = _InfiniteConstantSampler()
            else:
                sampler = (RandomSampler(dataset, generator=generator) if shuffle
                           else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._initialized = True

    def __setattr__(self, name, value):
        if self._initialized and name in _FIXED_AFTER_INIT:
            raise ValueError(f"{name} attribute should not be set after "
                             f"{type(self).__name__} is initialized")
        super().__setattr__(name, value)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        """What gives the indices of each step: lists of them (batches) or single ones."""
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self):
        """One pass over the dataset: an iterator giving one batch at a time."""
        return _SingleProcessDataLoaderIter(self)

    def __len__(self):
        if self._is_iterable:
            # the stream's own length, in batches (the last one shorter unless drop_last)
            length = len(self.dataset)
            if self.batch_size is not None:
                if self.drop_last:
                    return length // self.batch_size
                return -(-length // self.batch_size)
            return length
        return len(self._index_sampler)




class _SingleProcessDataLoaderIter:
    """One pass of a DataLoader (what ``iter(loader)`` returns): indices, samples, a batch."""

    def __init__(self, loader):
        self._loader = loader
        self._dataset = loader.dataset
        self._auto_collation = loader._auto_collation
        self._collate_fn = loader.collate_fn
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be used "
                          f"as the device,ignore pin_memory_device='{loader.pin_memory_device}'.",
                          stacklevel=stacklevel_outside_minigrad())
        if loader.pin_memory:          # minigrad has no accelerator (no GPU) to pin memory for
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then "
                          "device pinned memory won't be used.",
                          stacklevel=stacklevel_outside_minigrad())
        self._sampler_iter = iter(loader._index_sampler)
        # PyTorch draws a base seed for its worker processes here, even without workers;
        # drawing it too (at the same moment) keeps the random stream the same as PyTorch's.
        self._base_seed = draw_seed(loader.generator)
        self._num_yielded = 0
        self._stream = iter(self._dataset) if loader._is_iterable else None
        self._drop_last = loader.drop_last
        self._stream_ended = False

    def __iter__(self):
        return self

    def __next__(self):
        index = next(self._sampler_iter)          # StopIteration ends the pass
        if self._stream is not None:
            return self._next_from_stream(index)
        if self._auto_collation:
            getitems = getattr(self._dataset, "__getitems__", None)
            samples = getitems(index) if callable(getitems) else [self._dataset[i] for i in index]
        else:
            samples = self._dataset[index]
        self._num_yielded += 1
        return self._collate_fn(samples)

    def _next_from_stream(self, index):
        """The next batch (or sample) of an IterableDataset: as many samples as the batch has
        places, fewer at the end of the stream."""
        if self._stream_ended:
            raise StopIteration
        if not self._auto_collation:
            samples = next(self._stream)
        else:
            samples = []
            for _ in index:
                try:
                    samples.append(next(self._stream))
                except StopIteration:
                    self._stream_ended = True
                    break
            if not samples or (self._drop_last and len(samples) < len(index)):
                raise StopIteration
        self._num_yielded += 1
        return self._collate_fn(samples)

    def __len__(self):
        return len(self._loader)
