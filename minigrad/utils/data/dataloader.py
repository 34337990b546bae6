"""DataLoader: batches from a dataset, one at a time (PyTorch: torch/utils/data/dataloader.py).

Each pass (``for batch in loader``) does, batch after batch:

    indices = next(batch_sampler)                 # e.g. [7, 2, 9, 0] (shuffled or in order)
    samples = [dataset[i] for i in indices]       # each sample, e.g. (x_i, y_i)
    batch   = collate_fn(samples)                 # e.g. [x stacked, y stacked]

With ``num_workers=n`` PyTorch loads the batches in n worker processes; minigrad plays
the workers in the main process (see _worker.py): the same batches, in the same order,
with the same random numbers inside each worker and in the main process afterwards.
"""
import itertools
import os
import warnings

from ..._warnings import stacklevel_outside_minigrad
from . import _worker
from ._collate import default_collate, default_convert
from ._fetch import create_fetcher
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


get_worker_info = _worker.get_worker_info


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
        elif num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2            # batches asked of each worker ahead of time
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.in_order = in_order
        self.multiprocessing_context = multiprocessing_context
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
        self._iterator = None              # the one pass object kept with persistent workers
        self._initialized = True
        self.check_worker_number_rationality()

    def __setattr__(self, name, value):
        if self._initialized and name in _FIXED_AFTER_INIT:
            raise ValueError(f"{name} attribute should not be set after "
                             f"{type(self).__name__} is initialized")
        super().__setattr__(name, value)

    @property
    def multiprocessing_context(self):
        """How PyTorch starts its workers ('fork', 'spawn', ... as a context); kept, and checked
        as PyTorch checks it, though minigrad's workers need no process."""
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context):
        if context is not None:
            # (imported here, not at the top: it costs every `import minigrad` a few hundredths
            # of a second, and only loaders with workers and a context need it)
            import multiprocessing
            if self.num_workers == 0:
                raise ValueError("multiprocessing_context can only be used with multi-process "
                                 f"loading (num_workers > 0), but got num_workers={self.num_workers}")
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise ValueError("multiprocessing_context option should specify a valid start "
                                     f"method in {methods!r}, but got multiprocessing_context={context!r}")
                context = multiprocessing.get_context(context)
            if not isinstance(context, multiprocessing.context.BaseContext):
                raise TypeError("multiprocessing_context option should be a valid context object or "
                                "a string specifying the start method, but got "
                                f"multiprocessing_context={context}")
        self._multiprocessing_context = context

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        """What gives the indices of each step: lists of them (batches) or single ones."""
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self):
        """One pass over the dataset: an iterator giving one batch at a time. With persistent
        workers, the same iterator each time, its workers (and their random streams) kept."""
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        if self.persistent_workers and self._iterator is not None:
            self._iterator._reset(self)
            return self._iterator
        self.check_worker_number_rationality()
        iterator = _MultiProcessingDataLoaderIter(self)
        if self.persistent_workers:
            self._iterator = iterator
        return iterator

    def check_worker_number_rationality(self):
        """PyTorch's warning when more workers are asked for than this process has CPUs."""
        if not self.num_workers:
            return
        has_affinity = hasattr(os, "sched_getaffinity")
        cpus = len(os.sched_getaffinity(0)) if has_affinity else os.cpu_count()
        if cpus is not None and self.num_workers <= cpus:
            return
        if cpus is None:
            suggestion = ("DataLoader is not able to compute a suggested max number of worker in "
                          "current system.")
        else:
            suggestion = (f"Our suggested max number of worker in current system is {cpus}"
                          f"{'' if has_affinity else ' (`cpuset` is not taken into account)'}, which "
                          "is smaller than what this DataLoader is going to create.")
        warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in total. "
                      f"{suggestion} Please be aware that excessive worker creation might get "
                      "DataLoader running slow or even freeze, lower the worker number to avoid "
                      "potential slowness/freeze if necessary.", stacklevel=stacklevel_outside_minigrad())

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


class _BaseDataLoaderIter:
    """What one pass does first, with or without workers: warn about pin_memory, start the
    sampler, draw the base seed of the workers' streams."""

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
        # drawn even without workers (PyTorch does), which keeps the stream in step with PyTorch's
        self._base_seed = draw_seed(loader.generator)
        self._num_yielded = 0

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._loader)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    """One pass of a DataLoader without workers: indices, samples, a batch, one at a time."""

    def __init__(self, loader):
        super().__init__(loader)
        self._fetcher = create_fetcher(loader._is_iterable, loader.dataset, loader._auto_collation,
                                       loader.collate_fn, loader.drop_last)

    def __next__(self):
        index = next(self._sampler_iter)          # StopIteration ends the pass
        batch = self._fetcher.fetch(index)        # (and so does the end of a stream)
        self._num_yielded += 1
        return batch


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """One pass with ``num_workers`` workers, handing out the batches as PyTorch does.

    Batch k goes to the next worker in turn that still has data (0, 1, ..., n-1, 0, ...),
    ``prefetch_factor`` batches per worker asked for ahead, one more each time a batch is
    returned, and batches come back in order. A worker whose IterableDataset copy has ended
    gets no more batches, and those already asked of it are skipped. (PyTorch's workers run
    at the same time; these run one batch at a time, when the batch is due.)"""

    def __init__(self, loader):
        super().__init__(loader)
        self._num_workers = loader.num_workers
        self._prefetch_factor = loader.prefetch_factor
        if self._prefetch_factor <= 0:
            raise AssertionError("prefetch_factor must be greater than 0 for "
                                 "MultiProcessingDataLoaderIter")
        self._workers = [_worker.Worker(k, loader, self._base_seed) for k in range(self._num_workers)]
        self._reset(loader, first_pass=True)

    def _reset(self, loader, first_pass=False):
        """Start a pass: the sampler from the beginning, every worker available, the first
        ``prefetch_factor * num_workers`` batches handed out."""
        if not first_pass:                        # (persistent workers: a pass after the first)
            self._finish_handed_out()
            self._sampler_iter = iter(loader._index_sampler)
            self._num_yielded = 0
            for worker in self._workers:
                worker.restart_pass()
        self._send_idx = 0                        # the number of the next batch to hand out
        self._rcvd_idx = 0                        # the number of the next batch to return
        self._task_info = {}                      # batch number -> (worker, indices)
        self._workers_status = [True] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _finish_handed_out(self):
        """A pass left before its end: PyTorch's persistent workers still fetch the batches
        already handed to them (drawing from their streams), and the results are thrown away."""
        ended = set()
        for number in sorted(self._task_info):
            worker_id, index = self._task_info[number]
            if worker_id in ended or not self._workers_status[worker_id]:
                continue                          # (a worker whose stream ended fetches no more)
            if self._workers[worker_id].fetch(index) is _worker.STOPPED:
                ended.add(worker_id)

    def _try_put_index(self):
        """Hand the sampler's next indices to the next available worker (if any)."""
        try:
            index = next(self._sampler_iter)
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_id = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_id]:
                break
        else:
            return                                # every worker has ended: the indices are dropped
        self._task_info[self._send_idx] = (worker_id, index)
        self._send_idx += 1

    def __next__(self):
        while True:
            # skip the batches handed to workers that have ended since
            while self._rcvd_idx < self._send_idx:
                worker_id, _ = self._task_info[self._rcvd_idx]
                if self._workers_status[worker_id]:
                    break
                del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                raise StopIteration
            worker_id, index = self._task_info.pop(self._rcvd_idx)
            data = self._workers[worker_id].fetch(index)
            if data is _worker.STOPPED:           # that worker's stream has ended
                self._workers_status[worker_id] = False
                self._rcvd_idx += 1
                self._try_put_index()
                continue
            self._rcvd_idx += 1
            self._try_put_index()
            if isinstance(data, _worker.WorkerError):
                data.reraise()
            self._num_yielded += 1
            return data
