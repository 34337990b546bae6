"""minigrad.utils.data against PyTorch: the same batches in the same order after manual_seed,
the same collated types and values, lengths, splits and messages."""
import collections
import warnings

import numpy as np
import pytest

import minigrad


def libraries(torch):
    return (minigrad, torch)


def plain(value):
    """A batch with every tensor replaced by (dtype name, shape, values), to compare."""
    if hasattr(value, "tolist") and hasattr(value, "dtype") and not isinstance(value, np.ndarray):
        return ("tensor", str(value.dtype).replace("torch.", "").replace("minigrad.", ""),
                tuple(value.shape), value.tolist())
    if isinstance(value, dict):
        return (type(value).__name__, {key: plain(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [plain(item) for item in value])
    return value


def run_loader(library, make_dataset, seed=0, passes=2, **options):
    library.manual_seed(seed)
    loader = library.utils.data.DataLoader(make_dataset(library), **options)
    batches = [[plain(batch) for batch in loader] for _ in range(passes)]
    after = library.rand(3).tolist()          # the random stream is left in the same place
    return batches, len(loader), after


def tensor_dataset(library):
    features = library.arange(26, dtype=library.float32).reshape(13, 2)
    return library.utils.data.TensorDataset(features, library.arange(13) % 3)


@pytest.mark.parametrize("options", [
    dict(), dict(batch_size=4), dict(batch_size=4, shuffle=True),
    dict(batch_size=5, drop_last=True),
    dict(batch_size=5, shuffle=True, drop_last=True), dict(batch_size=None),
    dict(batch_size=13, shuffle=True), dict(batch_size=20, shuffle=False),
])
def test_tensor_dataset_batches_match_torch(torch, options):
    ours, theirs = (run_loader(library, tensor_dataset, **options) for library in libraries(torch))
    assert ours == theirs


@pytest.mark.parametrize("seed", [0, 1, 42, 2024])
def test_shuffle_order_matches_torch_for_several_seeds(torch, seed):
    ours, theirs = (run_loader(library, tensor_dataset, seed=seed, passes=3, batch_size=3,
                               shuffle=True) for library in libraries(torch))
    assert ours == theirs


def test_shuffle_with_its_own_generator_matches_torch(torch):
    results = []
    for library in libraries(torch):
        generator = library.Generator()
        generator.manual_seed(7)
        loader = library.utils.data.DataLoader(tensor_dataset(library), batch_size=4,
                                               shuffle=True, generator=generator)
        results.append([[plain(batch) for batch in loader] for _ in range(2)])
    assert results[0] == results[1]


class Samples:
    """A map-style dataset of Python values: numbers, dicts, tuples, lists, strings, arrays."""

    def __init__(self, library, kind):
        self.library, self.kind = library, kind

    def __len__(self):
        return 7

    def __getitem__(self, index):
        if self.kind == "numbers":
            return (index, index * 0.5, bool(index % 2))
        if self.kind == "dict":
            return {"x": self.library.full((2,), float(index)), "label": index, "name": f"n{index}"}
        if self.kind == "list":
            return [np.arange(3, dtype=np.float32) * index, np.int64(index), np.float64(index / 3)]
        if self.kind == "nested":
            return {"pair": (index, [index, index + 1]),
                    "ordered": collections.OrderedDict(a=index)}
        return self.library.tensor([index, -index])


@pytest.mark.parametrize("kind", ["numbers", "dict", "list", "nested", "tensor"])
@pytest.mark.parametrize("options", [dict(batch_size=3), dict(batch_size=None),
                                     dict(batch_size=2, shuffle=True)])
def test_default_collate_matches_torch(torch, kind, options):
    ours, theirs = (run_loader(library, lambda lib: Samples(lib, kind), **options)
                    for library in libraries(torch))
    assert ours == theirs


def error_of(action):
    try:
        action()
    except Exception as error:  # noqa: BLE001 - the class and message are compared
        return type(error), str(error)
    return None


def test_collate_errors_match_torch(torch):
    cases = [
        lambda lib: lib.utils.data.default_collate([object(), object()]),
        lambda lib: lib.utils.data.default_collate([(1, 2), (1, 2, 3)]),
        lambda lib: lib.utils.data.default_collate([np.array(["a"]), np.array(["b"])]),
        lambda lib: lib.utils.data.default_collate([lib.zeros(2), lib.zeros(3)]),
    ]
    for case in cases:
        ours, theirs = (error_of(lambda: case(library)) for library in libraries(torch))
        assert ours is not None and ours[0] == theirs[0]
        if ours[0] is not RuntimeError or "equal size" in theirs[1]:
            assert ours == theirs


def test_tensor_dataset_and_subset_match_torch(torch):
    for library in libraries(torch):
        dataset = tensor_dataset(library)
        assert len(dataset) == 13
        x, y = dataset[4]
        assert x.tolist() == [8.0, 9.0] and y.item() == 1
        subset = library.utils.data.Subset(dataset, [5, 0, 3])
        assert len(subset) == 3 and subset[0][0].tolist() == [10.0, 11.0]
    ours, theirs = (error_of(lambda: library.utils.data.TensorDataset(library.zeros(3),
                                                                      library.zeros(4)))
                    for library in libraries(torch))
    assert ours == theirs == (AssertionError, "Size mismatch between tensors")


@pytest.mark.parametrize("lengths", [[3, 10], [0.2, 0.8], [0.5, 0.25, 0.25], [1, 1, 11],
                                     [0.1, 0.1, 0.8]])
def test_random_split_matches_torch(torch, lengths):
    results = []
    for library in libraries(torch):
        library.manual_seed(3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            parts = library.utils.data.random_split(range(13), lengths)
        results.append(([list(part.indices) for part in parts], [str(w.message) for w in caught],
                        library.rand(2).tolist()))
    assert results[0] == results[1]


def test_random_split_errors_and_generator_match_torch(torch):
    for make in [lambda lib: lib.utils.data.random_split(range(5), [2, 2]),
                 lambda lib: lib.utils.data.random_split(range(5), [1.5, -0.5])]:
        ours, theirs = (error_of(lambda: make(library)) for library in libraries(torch))
        assert ours is not None and ours == theirs
    splits = []
    for library in libraries(torch):
        generator = library.Generator().manual_seed(42)
        splits.append([part.indices for part in library.utils.data.random_split(
            range(9), [4, 5], generator=generator)])
    assert splits[0] == splits[1]


def test_samplers_match_torch(torch):
    results = []
    for library in libraries(torch):
        data = library.utils.data
        library.manual_seed(11)
        sequential = list(data.SequentialSampler(range(5)))
        shuffled = [list(data.RandomSampler(range(6))) for _ in range(2)]
        more = list(data.RandomSampler(range(4), num_samples=10))
        replaced = list(data.RandomSampler(range(5), replacement=True, num_samples=40))
        batches = [list(data.BatchSampler(data.SequentialSampler(range(10)), 3, drop_last))
                   for drop_last in (False, True)]
        lengths = [len(data.BatchSampler(range(10), 3, drop_last)) for drop_last in (False, True)]
        subset = list(data.SubsetRandomSampler([10, 20, 30, 40]))
        results.append((sequential, shuffled, more, replaced, batches, lengths, subset,
                        library.rand(2).tolist()))
    assert results[0] == results[1]


@pytest.mark.parametrize("make", [
    lambda lib, ds: lib.utils.data.DataLoader(ds, num_workers=-1),
    lambda lib, ds: lib.utils.data.DataLoader(ds, timeout=-1),
    lambda lib, ds: lib.utils.data.DataLoader(ds, prefetch_factor=2),
    lambda lib, ds: lib.utils.data.DataLoader(ds, persistent_workers=True),
    lambda lib, ds: lib.utils.data.DataLoader(ds, sampler=[0, 1], shuffle=True),
    lambda lib, ds: lib.utils.data.DataLoader(ds, batch_sampler=[[0, 1]], batch_size=2),
    lambda lib, ds: lib.utils.data.DataLoader(ds, batch_size=None, drop_last=True),
    lambda lib, ds: lib.utils.data.DataLoader(ds, batch_size=0),
    lambda lib, ds: lib.utils.data.DataLoader(ds, batch_size=2, drop_last=1),
    lambda lib, ds: lib.utils.data.RandomSampler(ds, replacement=1),
    lambda lib, ds: lib.utils.data.RandomSampler(ds, num_samples=0),
    lambda lib, ds: setattr(lib.utils.data.DataLoader(ds), "batch_size", 3),
])
def test_bad_loader_arguments_fail_as_torch(torch, make):
    ours, theirs = (error_of(lambda: make(library, tensor_dataset(library)))
                    for library in libraries(torch))
    assert ours is not None and ours == theirs




def test_custom_samplers_and_collate_match_torch(torch):
    results = []
    for library in libraries(torch):
        data = library.utils.data
        dataset = tensor_dataset(library)
        by_sampler = data.DataLoader(dataset, batch_size=2, sampler=[12, 0, 5, 7, 3])
        by_batches = data.DataLoader(dataset, batch_sampler=[[1, 2], [3], [4, 5, 6]])
        own_collate = data.DataLoader(dataset, batch_size=4, collate_fn=len)
        results.append(([plain(b) for b in by_sampler], [plain(b) for b in by_batches],
                        list(own_collate), len(by_sampler), len(by_batches)))
    assert results[0] == results[1]


def test_a_training_loop_over_a_loader_matches_torch(torch):
    """The tutorial pattern: shuffle, batches, a model, a loss, an optimizer, several epochs."""
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((20, 3)).astype(np.float32), rng.integers(0, 2, 20)
    losses = []
    for library in libraries(torch):
        library.manual_seed(0)
        model = library.nn.Linear(3, 2)
        with library.no_grad():
            model.weight.copy_(library.tensor(np.ones((2, 3), np.float32) * 0.1))
            model.bias.zero_()
        optimizer = library.optim.SGD(model.parameters(), lr=0.1)
        loader = library.utils.data.DataLoader(
            library.utils.data.TensorDataset(library.tensor(x), library.tensor(y)),
            batch_size=6, shuffle=True)
        history = []
        for _ in range(3):
            for inputs, targets in loader:
                optimizer.zero_grad()
                loss = library.nn.functional.cross_entropy(model(inputs), targets)
                loss.backward()
                optimizer.step()
                history.append(loss.item())
        losses.append(history)
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-6)


def test_the_seed_draws_happen_when_torch_makes_them(torch):
    """iter(loader) draws at once, the shuffle's own seed at the first batch."""
    results = []
    for library in libraries(torch):
        library.manual_seed(5)
        loader = library.utils.data.DataLoader(tensor_dataset(library), batch_size=4,
                                               shuffle=True)
        iterator = iter(loader)
        between = library.rand(1).tolist()
        first = plain(next(iterator))
        results.append((between, first, len(iterator), [plain(b) for b in iterator]))
    assert results[0] == results[1]


def make_stream(library, length=10):
    class Stream(library.utils.data.IterableDataset):
        def __iter__(self):
            return iter([library.tensor([float(i), -float(i)]) for i in range(length)])

        def __len__(self):
            return length
    return Stream()


@pytest.mark.parametrize("options", [dict(), dict(batch_size=4), dict(batch_size=4, drop_last=True),
                                     dict(batch_size=None), dict(batch_size=5),
                                     dict(batch_size=2, shuffle=False)])
def test_iterable_dataset_batches_match_torch(torch, options):
    ours, theirs = (run_loader(library, make_stream, **options) for library in libraries(torch))
    assert ours == theirs


@pytest.mark.parametrize("options", [dict(shuffle=True), dict(sampler=[0, 1]),
                                     dict(batch_sampler=[[0]])])
def test_iterable_dataset_refuses_indices_as_torch(torch, options):
    ours, theirs = (error_of(lambda: library.utils.data.DataLoader(make_stream(library),
                                                                   **options))
                    for library in libraries(torch))
    assert ours is not None and ours == theirs


def test_chained_and_concatenated_datasets_match_torch(torch):
    results = []
    for library in libraries(torch):
        chained = make_stream(library, 3) + make_stream(library, 2)
        concatenated = tensor_dataset(library) + library.utils.data.Subset(tensor_dataset(library),
                                                                          [1, 2])
        results.append(([t.tolist() for t in chained], len(chained), len(concatenated),
                        [plain(concatenated[i]) for i in (0, 12, 13, 14, -1)],
                        error_of(lambda: library.utils.data.ConcatDataset([])),
                        error_of(lambda: library.utils.data.ConcatDataset([chained]))))
    assert results[0] == results[1]


@pytest.mark.parametrize("options", [dict(pin_memory=True),
                                     dict(pin_memory=True, pin_memory_device="cuda")])
def test_pin_memory_warns_as_torch_without_an_accelerator(torch, options):
    if torch.accelerator.is_available():
        pytest.skip("PyTorch has an accelerator here")
    found = []
    for library in libraries(torch):
        loader = library.utils.data.DataLoader(range(3), **options)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            batches = [b.tolist() for b in loader]
        found.append((batches, [(w.category, str(w.message)) for w in caught]))
    assert found[0] == found[1] and found[0][1]
