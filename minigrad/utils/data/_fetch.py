"""Fetching one batch (PyTorch: torch/utils/data/_utils/fetch.py): indices in, a batch out.

A map-style dataset is read at the indices the sampler gives; an iterable one
is simply read on from where it stopped (the "indices" only say how many
samples a batch has). The DataLoader uses one fetcher in the main process, or
one per worker.
"""


class MapDatasetFetcher:
    """``collate_fn([dataset[i] for i in indices])`` (or ``__getitems__`` if the dataset has it)."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset, self.auto_collation = dataset, auto_collation
        self.collate_fn, self.drop_last = collate_fn, drop_last

    def fetch(self, index):
        """The batch at ``index``: a list of indices (batching) or a single one (no batching)."""
        if not self.auto_collation:
            return self.collate_fn(self.dataset[index])
        getitems = getattr(self.dataset, "__getitems__", None)
        samples = getitems(index) if callable(getitems) else [self.dataset[i] for i in index]
        return self.collate_fn(samples)


class IterableDatasetFetcher:
    """The next samples of an IterableDataset, as many as the batch has places (fewer at the
    end of the stream, or none with ``drop_last``): StopIteration when the stream has ended."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.auto_collation, self.collate_fn, self.drop_last = auto_collation, collate_fn, drop_last
        self.stream = iter(dataset)            # (started here, when the fetcher is made)
        self.ended = False

    def fetch(self, index):
        """The next batch (or sample); ``index`` only counts the places of the batch."""
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self.collate_fn(next(self.stream))
        samples = []
        for _ in index:
            try:
                samples.append(next(self.stream))
            except StopIteration:
                self.ended = True
                break
        if not samples or (self.drop_last and len(samples) < len(index)):
            raise StopIteration
        return self.collate_fn(samples)


def create_fetcher(is_iterable, dataset, auto_collation, collate_fn, drop_last):
    """The fetcher for this kind of dataset."""
    kind = IterableDatasetFetcher if is_iterable else MapDatasetFetcher
    return kind(dataset, auto_collation, collate_fn, drop_last)
