"""DataLoader workers, played in the main process (PyTorch: torch/utils/data/_utils/worker.py).

PyTorch's ``DataLoader(num_workers=n)`` starts n processes. Worker k seeds
its own random streams from a base seed the main process drew for the pass:
``torch.manual_seed(base_seed + k)``, ``random.seed(base_seed + k)`` and
numpy's global generator with four 32-bit words hashed from (base_seed, k);
then it calls ``worker_init_fn(k)`` and fetches every batch the main process
hands it, in turn (batch 0 to worker 0, batch 1 to worker 1, ...).

minigrad keeps all of this except the processes: each ``Worker`` holds its
own copy of the dataset, its own three random streams and its own fetcher,
and fetches its batches in the main process, its streams swapped in while it
runs (``get_worker_info()`` answering for it). So the batches, the random
numbers a dataset draws inside a worker and the main process's stream
afterwards are PyTorch's, and nothing can hang or fail to pickle in a
notebook; the batches are not loaded in parallel.
"""
import contextlib
import copy
import dataclasses
import random
import sys
import traceback

import numpy as np

from ... import random as _random
from ._fetch import create_fetcher


@dataclasses.dataclass(frozen=True, slots=True)
class WorkerInfo:
    """What ``get_worker_info()`` tells code running in a worker: its ``id`` (0 to
    ``num_workers - 1``), ``num_workers``, the ``seed`` its streams were seeded with, and
    ``dataset``, the worker's own copy of the dataset."""

    id: int
    num_workers: int
    seed: int
    dataset: object
    rng: object = None
    worker_method: str = "multiprocessing"


_worker_info = None        # the WorkerInfo of the worker running now; None in the main process


def get_worker_info():
    """The ``WorkerInfo`` of the DataLoader worker running this code; None outside workers.

    Typical use, in an IterableDataset's ``__iter__``: each worker reads its own share of
    the stream (``info.id``-th of ``info.num_workers``), else every worker yields it all."""
    return _worker_info


def numpy_seed(base_seed, worker_id):
    """The four 32-bit words a worker seeds numpy's global generator with: ``(worker_id,
    base_seed)`` hashed and mixed as numpy's SeedSequence does, so that workers' numpy streams
    differ even for neighbouring seeds."""
    mask = 0xFFFF_FFFF
    multiplier_a = 0x43B0D7E5

    def hashed(value):
        nonlocal multiplier_a
        value = (value ^ multiplier_a) & mask
        multiplier_a = (multiplier_a * 0x931E8875) & mask
        value = (value * multiplier_a) & mask
        return (value ^ (value >> 16)) & mask

    def mixed(x, y):
        value = ((0xCA01F9DD * x) - (0x4973F715 * y)) & mask
        return (value ^ (value >> 16)) & mask

    pool = [hashed(word) for word in (worker_id, base_seed & mask, base_seed >> 32, 0)]
    for source in range(4):
        for target in range(4):
            if source != target:
                pool[target] = mixed(pool[target], hashed(pool[source]))
    multiplier_b = 0x8B51F9DD
    words = []
    for value in pool:
        value = (value ^ multiplier_b) & mask
        multiplier_b = (multiplier_b * 0x58F38DED) & mask
        value = (value * multiplier_b) & mask
        words.append((value ^ (value >> 16)) & mask)
    return words


class WorkerError:
    """An exception raised inside a worker, raised again in the main loop as PyTorch does:
    same class, its message "Caught <class> in DataLoader worker process <k>." and the
    original traceback."""

    def __init__(self, worker_id):
        kind, error, trace = sys.exc_info()
        self.kind = kind
        self.text = "".join(traceback.format_exception(kind, error, trace))
        self.where = f"in DataLoader worker process {worker_id}"

    def reraise(self):
        """Raise it (a RuntimeError if its class cannot be built from one message)."""
        message = f"Caught {self.kind.__name__} {self.where}.\nOriginal {self.text}"
        if self.kind is KeyError:
            message = _KeyErrorMessage(message)       # (KeyError would print the repr)
        try:
            error = self.kind(message)
        except Exception:
            raise RuntimeError(message) from None
        raise error


class _KeyErrorMessage(str):
    """A message that a KeyError prints as it is (a KeyError prints the repr of its argument)."""

    __slots__ = ()

    def __repr__(self):
        return self


STOPPED = object()        # what a worker answers when its IterableDataset copy has ended


class Worker:
    """One DataLoader worker: its dataset copy, random streams, ``worker_init_fn`` and fetcher."""

    def __init__(self, worker_id, loader, base_seed):
        try:
            dataset = copy.copy(loader.dataset)      # (its own object, sharing the data)
        except Exception:                            # noqa: BLE001 (then the dataset itself)
            dataset = loader.dataset
        seed = base_seed + worker_id
        self.info = WorkerInfo(id=worker_id, num_workers=loader.num_workers, seed=seed, dataset=dataset)
        self._loader = loader
        legacy_numpy = np.random.RandomState(numpy_seed(base_seed, worker_id))
        self._streams = (random.Random(seed).getstate(), legacy_numpy.get_state(),
                         _random.Generator().manual_seed(seed).get_state())
        self._init_error = None
        self._fetcher = None
        with self.running():
            try:
                if loader.worker_init_fn is not None:
                    loader.worker_init_fn(worker_id)
                self._fetcher = self._new_fetcher()
            except Exception:                        # noqa: BLE001 (given to the first batch)
                self._init_error = WorkerError(worker_id)

    def _new_fetcher(self):
        loader = self._loader
        return create_fetcher(loader._is_iterable, self.info.dataset, loader._auto_collation,
                              loader.collate_fn, loader.drop_last)

    @contextlib.contextmanager
    def running(self):
        """Run code as this worker: its streams in place of the main process's (which come
        back afterwards, untouched), ``get_worker_info()`` giving its WorkerInfo."""
        global _worker_info
        main = (random.getstate(), np.random.get_state(), _random.default_generator.get_state())
        random.setstate(self._streams[0])
        np.random.set_state(self._streams[1])
        _random.default_generator.set_state(self._streams[2])
        _worker_info = self.info
        try:
            yield
        finally:
            _worker_info = None
            self._streams = (random.getstate(), np.random.get_state(),
                             _random.default_generator.get_state())
            random.setstate(main[0])
            np.random.set_state(main[1])
            _random.default_generator.set_state(main[2])

    def restart_pass(self):
        """A new pass with persistent workers: a new fetcher (an IterableDataset starts over),
        the streams going on from where they were."""
        with self.running():
            try:
                self._fetcher = self._new_fetcher()
            except Exception:                        # noqa: BLE001
                self._init_error = WorkerError(self.info.id)

    def fetch(self, index):
        """The batch at ``index``; STOPPED if the worker's stream has ended; a WorkerError
        if fetching it raised (or, for the first batch, if ``worker_init_fn`` did)."""
        if self._init_error is not None:
            error, self._init_error = self._init_error, None
            return error
        with self.running():
            try:
                return self._fetcher.fetch(index)
            except StopIteration:
                if self._loader._is_iterable:
                    return STOPPED
                return WorkerError(self.info.id)
            except Exception:                        # noqa: BLE001 (raised in the main loop)
                return WorkerError(self.info.id)
