"""Drawing indices against PyTorch: torch.multinomial, Tensor.exponential_,
WeightedRandomSampler and DataLoader(num_workers > 0) give the same numbers and leave the
random stream in the same state after the same manual_seed; bad input gets the same message."""
import dataclasses
import os
import random
import warnings

import numpy as np
import pytest

import minigrad
from conftest import import_torch

SEEDS = [0, 3, 42, 2**32 + 5]


@pytest.fixture(autouse=True, scope="module")
def _loader_workers_polled_often():
    """PyTorch's loader and its workers look at each other every 5 s (MP_STATUS_CHECK_INTERVAL):
    a worker notices the end of its iterator, and the iterator gives up waiting for a worker
    to stop, that late. Some cases below drop an iterator whose workers are busy or not yet
    started, and then waited 10 s for PyTorch's workers; polled every 0.1 s here, the same
    things happen in the same order, sooner."""
    try:
        from torch.utils.data import _utils
    except ImportError:
        yield
        return
    kept = _utils.MP_STATUS_CHECK_INTERVAL
    _utils.MP_STATUS_CHECK_INTERVAL = _utils.worker.MP_STATUS_CHECK_INTERVAL = 0.1
    yield
    _utils.MP_STATUS_CHECK_INTERVAL = _utils.worker.MP_STATUS_CHECK_INTERVAL = kept


def same_state(torch):
    """The two default generators are at the same place of their streams."""
    return np.array_equal(minigrad.get_rng_state()._array, torch.get_rng_state().numpy())


def error_of(function):
    """The class and message of what ``function()`` raises (without minigrad's extra advice,
    the lines starting "minigrad hint:"), None if it raises nothing."""
    try:
        function()
    except Exception as error:       # noqa: BLE001 (the class is compared)
        lines = [line for line in str(error).split("\n") if not line.startswith("minigrad hint:")]
        return type(error), "\n".join(lines)
    return None


# -- exponential_ ----------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("lambd", [1.0, 3.0, 0.25])
@pytest.mark.parametrize("seed", SEEDS)
def test_exponential_numbers_and_state(torch, dtype, lambd, seed):
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(seed)
        outs.append(lib.empty(37, dtype=getattr(lib, dtype)).exponential_(lambd).numpy())
    assert outs[0].dtype == outs[1].dtype and np.array_equal(outs[0], outs[1])
    assert same_state(torch)


def test_exponential_fills_a_transposed_tensor_in_memory_order(torch):
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(1)
        outs.append(lib.empty(3, 5).t().exponential_(generator=lib.Generator().manual_seed(9)).numpy())
    assert np.array_equal(outs[0], outs[1])


def test_exponential_graph(torch):
    names = []
    for lib in (minigrad, torch):
        y = lib.ones(3, requires_grad=True).clone().exponential_()
        names.append((type(y.grad_fn).__name__, type(y.grad_fn.next_functions[0][0]).__name__))
        y.sum().backward()
    assert names[0] == names[1] == ("ExponentialBackward0", "CloneBackward0")


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(3).exponential_(0),
    lambda lib: lib.ones(3).exponential_(-1.5),
    lambda lib: lib.ones(3).exponential_(float("nan")),
    lambda lib: lib.ones(3, dtype=lib.int64).exponential_(),
    lambda lib: lib.ones(3).exponential_("a"),
])
def test_exponential_messages(torch, call):
    assert error_of(lambda: call(minigrad)) == error_of(lambda: call(torch))


FILLS = [("uniform_", ()), ("normal_", ()), ("exponential_", ()), ("bernoulli_", (0.5,)),
         ("bernoulli_", ("tensor", 0.5)), ("exponential_", (-1,)), ("bernoulli_", (2.0,)),
         ("bernoulli_", ("tensor", 2.0)), ("normal_", (0, -1)), ("uniform_", (1, 0))]


@pytest.mark.parametrize("target", ["float32", "int64", "requires_grad"])
@pytest.mark.parametrize("method,args", FILLS)
def test_random_fills_check_in_pytorchs_order(torch, method, args, target):
    """Autograd's rules, the arguments, memory seen twice (an expanded tensor), the dtype: the
    first rule broken gives the message."""
    def call(lib):
        base = (lib.zeros(3, requires_grad=True) if target == "requires_grad"
                else lib.zeros(3, dtype=getattr(lib, target)))
        values = (lib.tensor(args[1]),) if args[:1] == ("tensor",) else args
        getattr(base.expand(2, 3), method)(*values)
    expected = error_of(lambda: call(torch))
    assert expected is not None
    assert error_of(lambda: call(minigrad)) == expected


# -- multinomial -----------------------------------------------------------------------------
def random_problems():
    """(probabilities, num_samples, replacement): 1-d and 2-d, three float dtypes, rows with a
    zero, one sample and many, with and without replacement."""
    rng = np.random.default_rng(7)
    problems = []
    for k in range(60):
        dtype = (np.float32, np.float64, np.float16)[k % 3]
        categories, rows = int(rng.integers(2, 12)), int(rng.integers(1, 4))
        p = rng.random((rows, categories) if k % 7 < 3 else categories).astype(dtype)
        if k % 5 == 0:
            p[..., 0] = 0
        replacement = k % 4 < 2
        most = 30 if replacement else int((p > 0).sum(-1).min())   # (see the test of ties below)
        problems.append((p, int(rng.integers(1, most + 1)), replacement))
    return problems


@pytest.mark.parametrize("p,num_samples,replacement", random_problems())
@pytest.mark.parametrize("seed", SEEDS[:2])
def test_multinomial_samples_and_state(torch, p, num_samples, replacement, seed):
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(seed)
        outs.append(lib.multinomial(lib.tensor(p), num_samples, replacement))
    assert outs[0].dtype == minigrad.int64 and tuple(outs[0].shape) == tuple(outs[1].shape)
    assert outs[0].tolist() == outs[1].tolist()
    assert same_state(torch)


def test_multinomial_method_generator_and_many_samples(torch):
    outs = []
    for lib in (minigrad, torch):
        weights = lib.tensor([0.1, 3.0, 0.0, 1.5, 0.7], dtype=lib.float64)
        generator = lib.Generator().manual_seed(11)
        outs.append((weights.multinomial(1000, replacement=True, generator=generator).tolist(),
                     weights.multinomial(4, generator=generator).tolist(),
                     weights.multinomial(1, generator=generator).tolist()))
    assert outs[0] == outs[1]


def test_multinomial_of_a_transposed_matrix(torch):
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(4)
        p = lib.arange(1.0, 13.0).reshape(3, 4).t()
        outs.append((lib.multinomial(p, 2).tolist(), lib.multinomial(p, 3, True).tolist()))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("categories,zeros", [(5, 3), (12, 9), (40, 30), (200, 150), (300, 298)])
@pytest.mark.parametrize("num_samples", ["all", "one more", "few"])
def test_multinomial_ties_come_in_pytorchs_order(torch, categories, zeros, num_samples):
    """Categories of probability 0 come last, when more samples than non-zero categories are
    asked for without replacement, in the order PyTorch's topk leaves them."""
    p = np.random.default_rng(categories).random(categories)
    p[np.random.default_rng(zeros).permutation(categories)[:zeros]] = 0
    n = {"all": categories, "one more": categories - zeros + 1, "few": 2}[num_samples]
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(2)
        outs.append(lib.multinomial(lib.tensor(p), n).tolist())
    assert outs[0] == outs[1]


def test_largest_k_with_ties_in_topks_order(torch):
    """_selection.topk_order (the steps of PyTorch's topk) against torch.topk, rows full of
    equal numbers, k both small (a heap) and large (a selection then a sort)."""
    from minigrad._selection import topk_order
    rng = np.random.default_rng(0)
    for trial in range(300):
        n = int(rng.integers(1, 300))
        k = int(rng.integers(1, n + 1)) if trial % 2 else max(1, n // 64)
        row = rng.integers(0, 4 if trial % 3 else 50, n).astype(np.float64)
        assert topk_order(row.tolist(), k) == torch.tensor(row).topk(k).indices.tolist()


def test_multinomial_empty(torch):
    for lib in (minigrad, torch):
        out = lib.multinomial(lib.ones(0, 3), 2)
        assert tuple(out.shape) == (0, 2) and out.dtype == lib.int64


@pytest.mark.parametrize("call", [
    lambda lib: lib.multinomial(lib.tensor(1.0), 1),
    lambda lib: lib.multinomial(lib.ones(1, 1, 2), 1),
    lambda lib: lib.multinomial(lib.ones(3, dtype=lib.int64), 1),
    lambda lib: lib.multinomial(lib.ones(3, dtype=lib.bool), 1),
    lambda lib: lib.multinomial(lib.ones(3), 0),
    lambda lib: lib.multinomial(lib.ones(3), -2),
    lambda lib: lib.multinomial(lib.ones(3), 4),
    lambda lib: lib.multinomial(lib.ones(0), 1),
    lambda lib: lib.multinomial(lib.ones(3), 2.0),
    lambda lib: lib.ones(3).multinomial(2.0),
    lambda lib: lib.multinomial([1.0, 2.0], 1),
    lambda lib: lib.multinomial(lib.tensor([1.0, -1.0, 2.0]), 2),
    lambda lib: lib.multinomial(lib.tensor([1.0, -1.0, 2.0]), 1, True),
    lambda lib: lib.multinomial(lib.tensor([1.0, -1.0, 2.0]), 2, True),
    lambda lib: lib.multinomial(lib.tensor([1.0, float("inf"), -2.0]), 2, True),
    lambda lib: lib.multinomial(lib.tensor([1.0, float("nan"), 2.0]), 2, True),
    lambda lib: lib.multinomial(lib.tensor([1.0, float("nan"), 2.0]), 2),
    lambda lib: lib.multinomial(lib.tensor([1.0, float("inf"), 2.0]), 1),
    lambda lib: lib.multinomial(lib.zeros(3), 2),
    lambda lib: lib.multinomial(lib.zeros(3), 2, True),
    lambda lib: lib.multinomial(lib.tensor([[1.0, 2.0], [0.0, 0.0]]), 1),
    lambda lib: lib.multinomial(lib.tensor([[1.0, 2.0], [0.0, 0.0]]), 2, True),
    lambda lib: lib.multinomial(lib.ones(2, 0), 1, True),
])
def test_multinomial_messages(torch, call):
    expected = error_of(lambda: call(torch))
    assert expected is not None
    assert error_of(lambda: call(minigrad)) == expected


# -- WeightedRandomSampler -------------------------------------------------------------------
WEIGHTS = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]


@pytest.mark.parametrize("num_samples,replacement", [(5, True), (50, True), (1, True), (5, False),
                                                     (1, False), (6, False)])
@pytest.mark.parametrize("seed", SEEDS)
def test_weighted_sampler_indices(torch, num_samples, replacement, seed):
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(seed)
        sampler = lib.utils.data.WeightedRandomSampler(WEIGHTS, num_samples, replacement)
        outs.append((list(sampler), list(sampler), len(sampler), sampler.weights.dtype == lib.float64))
    assert outs[0] == outs[1]
    assert same_state(torch)


def test_weighted_sampler_with_its_generator_in_a_loader(torch):
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        sampler = lib.utils.data.WeightedRandomSampler(lib.tensor([1.0, 2.0, 3.0, 4.0]), 10,
                                                       generator=lib.Generator().manual_seed(5))
        loader = lib.utils.data.DataLoader(lib.arange(4) * 10, batch_size=3, sampler=sampler)
        outs.append([batch.tolist() for batch in loader])
    assert outs[0] == outs[1]
    assert same_state(torch)


@pytest.mark.parametrize("call", [
    lambda lib: lib.utils.data.WeightedRandomSampler(WEIGHTS, 0),
    lambda lib: lib.utils.data.WeightedRandomSampler(WEIGHTS, True),
    lambda lib: lib.utils.data.WeightedRandomSampler(WEIGHTS, 2.0),
    lambda lib: lib.utils.data.WeightedRandomSampler(WEIGHTS, 2, replacement=1),
    lambda lib: lib.utils.data.WeightedRandomSampler([[1.0, 2.0]], 2),
    lambda lib: lib.utils.data.WeightedRandomSampler(5.0, 2),
    lambda lib: list(lib.utils.data.WeightedRandomSampler([1.0, 2.0], 3, replacement=False)),
    lambda lib: list(lib.utils.data.WeightedRandomSampler([1.0, -2.0], 3)),
])
def test_weighted_sampler_messages(torch, call):
    expected = error_of(lambda: call(torch))
    assert expected is not None
    assert error_of(lambda: call(minigrad)) == expected


# -- DataLoader with workers -----------------------------------------------------------------
# PyTorch starts real worker processes here; minigrad plays them in the main process. The
# batches, the numbers each worker's three random streams give (torch, random, numpy) and
# the main process's streams afterwards must be the same.
class Noisy:
    """A map-style dataset whose samples draw from the streams of whoever loads them."""

    def __init__(self, lib, n=11, fail_at=None, error=ValueError):
        self.lib, self.n, self.fail_at, self.error, self.offset = lib, n, fail_at, error, 0

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.fail_at:
            raise self.error(f"no sample {i}")
        info = self.lib.utils.data.get_worker_info()
        return (i + self.offset, self.lib.rand(1).item(), random.random(), float(np.random.rand()),
                None if info is None else (info.id, info.num_workers, info.seed))


def stream(lib, n, sharded):
    """An IterableDataset of 0..n-1; ``sharded``: each worker yields its own part of it."""
    class Stream(lib.utils.data.IterableDataset):
        def __iter__(self):
            info = lib.utils.data.get_worker_info()
            if info is None or not sharded:
                return iter(range(n))
            share = -(-n // info.num_workers)
            return iter(range(info.id * share, min(n, (info.id + 1) * share)))
    return Stream()


def shift_each_worker(worker_id):
    """A worker_init_fn: the worker's own dataset copy starts its numbers at 100 * id."""
    info = minigrad.utils.data.get_worker_info() or import_torch().utils.data.get_worker_info()
    info.dataset.offset = 100 * worker_id
    np.random.seed(worker_id)


def plain(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def load(lib, make, passes=2, **options):
    lib.manual_seed(5)
    random.seed(1)
    np.random.seed(2)
    loader = lib.utils.data.DataLoader(make(lib), **options)
    batches = [plain(list(loader)) for _ in range(passes)]
    return batches, lib.rand(2).tolist(), random.random(), float(np.random.rand())


WORKER_CASES = [
    (lambda lib: lib.utils.data.TensorDataset(lib.arange(10.0)),
     dict(batch_size=3, shuffle=True, num_workers=2)),
    (lambda lib: Noisy(lib), dict(batch_size=2, shuffle=True, num_workers=2)),
    (lambda lib: Noisy(lib, 5), dict(batch_size=None, num_workers=2, prefetch_factor=1)),
    (lambda lib: Noisy(lib), dict(batch_size=3, num_workers=2, persistent_workers=True)),
    (lambda lib: Noisy(lib), dict(batch_size=2, num_workers=2, worker_init_fn=shift_each_worker)),
    (lambda lib: Noisy(lib, 7), dict(batch_size=2, num_workers=1, prefetch_factor=3,
                                     persistent_workers=True, worker_init_fn=shift_each_worker)),
    (lambda lib: stream(lib, 9, sharded=True), dict(batch_size=2, num_workers=2)),
    (lambda lib: stream(lib, 7, sharded=True), dict(batch_size=3, num_workers=2, prefetch_factor=1)),
    (lambda lib: stream(lib, 5, sharded=False), dict(batch_size=2, num_workers=2, drop_last=True)),
    (lambda lib: stream(lib, 7, sharded=True), dict(batch_size=2, num_workers=2, persistent_workers=True)),
    (lambda lib: stream(lib, 4, sharded=True), dict(batch_size=None, num_workers=2)),
]


@pytest.mark.parametrize("make,options", WORKER_CASES)
def test_workers_give_pytorchs_batches_and_streams(torch, make, options):
    assert load(minigrad, make, **options) == load(torch, make, **options)


def test_worker_info_outside_workers(torch):
    assert minigrad.utils.data.get_worker_info() is None is torch.utils.data.get_worker_info()
    fields = [[field.name for field in dataclasses.fields(info)]
              for info in (minigrad.utils.data._worker.WorkerInfo, torch.utils.data._utils.worker.WorkerInfo)]
    assert fields[0] == fields[1]


def first_line_of_error(lib, make, **options):
    loader = lib.utils.data.DataLoader(make(lib), **options)
    iterator = iter(loader)
    got = []
    try:
        while True:
            got.append(plain(next(iterator))[0])
    except StopIteration:
        return got, None
    except Exception as error:    # noqa: BLE001 (class and first line compared)
        return got, type(error), str(error).splitlines()[0]


def failing_init(worker_id):
    """A worker_init_fn that fails in worker 1."""
    if worker_id == 1:
        raise ValueError("cannot start")


@pytest.mark.parametrize("make,options", [
    (lambda lib: Noisy(lib, fail_at=3), dict(batch_size=None, num_workers=2)),
    (lambda lib: Noisy(lib, fail_at=4, error=KeyError), dict(batch_size=2, num_workers=2)),
    (lambda lib: Noisy(lib), dict(batch_size=None, num_workers=2, worker_init_fn=failing_init)),
])
def test_errors_in_workers(torch, make, options):
    assert first_line_of_error(minigrad, make, **options) == first_line_of_error(torch, make, **options)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")   # (PyTorch's
@pytest.mark.parametrize("call", [                     # iterator, refused, fails to clean up)
    lambda lib: lib.utils.data.DataLoader(range(4), num_workers=2, prefetch_factor=-1),
    lambda lib: iter(lib.utils.data.DataLoader(range(4), num_workers=2, prefetch_factor=0)),
    lambda lib: lib.utils.data.DataLoader(range(4), prefetch_factor=2),
    lambda lib: lib.utils.data.DataLoader(range(4), persistent_workers=True),
    lambda lib: lib.utils.data.DataLoader(range(4), multiprocessing_context="fork"),
    lambda lib: lib.utils.data.DataLoader(range(4), num_workers=1, multiprocessing_context="thread"),
    lambda lib: lib.utils.data.DataLoader(range(4), num_workers=1, multiprocessing_context=5),
])
def test_worker_option_messages(torch, call):
    expected = error_of(lambda: call(torch))
    assert expected is not None
    assert error_of(lambda: call(minigrad)) == expected


def test_worker_options_kept(torch):
    kept = []
    for lib in (minigrad, torch):
        loader = lib.utils.data.DataLoader(range(4), num_workers=2, multiprocessing_context="spawn")
        kept.append((loader.prefetch_factor, loader.multiprocessing_context.get_start_method(),
                     type(iter(loader)).__name__))
    assert kept[0] == kept[1]


def test_more_workers_than_cpus_warns(torch):
    messages = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loader = lib.utils.data.DataLoader(range(4), num_workers=len(os.sched_getaffinity(0)) + 1)
            iterator = iter(loader)          # (made, then started: a warning each time)
        messages.append([(w.category, str(w.message)) for w in caught])
        del iterator
    assert messages[0] == messages[1] and len(messages[0]) == 2


def test_weighted_sampler_with_zero_weights_without_replacement(torch):
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(8)
        sampler = lib.utils.data.WeightedRandomSampler([0, 1, 0, 0, 2, 0, 0, 3], 8, replacement=False)
        outs.append([list(sampler) for _ in range(3)])
    assert outs[0] == outs[1]


@pytest.mark.parametrize("randomness", ["error", "different", "same"])
@pytest.mark.parametrize("replacement", [True, False])
def test_multinomial_inside_vmap(torch, randomness, replacement):
    """Batched probabilities: one draw per sample ("different", the numbers of a 2-d draw),
    PyTorch's refusals for "error" and "same"."""
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        probabilities = lib.tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [0.5, 0.0, 4.0]])
        drawn = []
        error = error_of(lambda: drawn.append(lib.vmap(lambda p: lib.multinomial(p, 2, replacement),
                                                       randomness=randomness)(probabilities).tolist()))
        outs.append((drawn, error, lib.rand(1).item()))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("shape", [(3,), (2, 3)])
@pytest.mark.parametrize("replacement", [True, False])
def test_multinomial_of_unbatched_probabilities_inside_vmap(torch, shape, replacement):
    """vmap(randomness="different") over something else: each sample draws its own indices
    from the same probabilities (PyTorch stacks them into rows and draws once)."""
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        probabilities = lib.arange(1.0, 1.0 + shape[-1]).expand(*shape) * 1

        def sample(x):
            return lib.multinomial(probabilities, 2, replacement) + x
        outs.append((lib.vmap(sample, randomness="different")(lib.zeros(2, 2, dtype=lib.int64)).tolist(),
                     lib.vmap(sample, randomness="same")(lib.zeros(2, 2, dtype=lib.int64)).tolist(),
                     lib.rand(1).item()))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("make", [lambda lib: Noisy(lib, 13), lambda lib: stream(lib, 9, sharded=True)])
def test_persistent_workers_after_a_pass_left_early(torch, make):
    """The batches already handed out when a pass is left are still fetched by PyTorch's
    persistent workers (their streams move on); the next pass starts from there."""
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(5)
        random.seed(1)
        np.random.seed(2)
        loader = lib.utils.data.DataLoader(make(lib), batch_size=2, num_workers=2,
                                           persistent_workers=True, prefetch_factor=2)
        first = []
        for batch in loader:
            first.append(plain(batch))
            if len(first) == 2:
                break
        outs.append((first, plain(list(loader)), plain(list(loader)), lib.rand(1).item()))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("call", [
    lambda lib: lib.multinomial(lib.ones(3, dtype=lib.int64), 2, out=lib.empty(2)),
    lambda lib: lib.multinomial(lib.ones(3), 0, out=lib.empty(2)),
    lambda lib: lib.multinomial(lib.ones(1, 1, 3), 4, out=lib.empty(2)),
    lambda lib: lib.multinomial(lib.ones(3), 2, out=5),
    lambda lib: lib.multinomial(lib.ones(3, requires_grad=True), 2, out=lib.empty(2, dtype=lib.int64)),
    lambda lib: lib.multinomial(lib.tensor([[1.0, 2.0, 3.0]]), 2, out=lib.empty(5, dtype=lib.int64)),
    lambda lib: lib.multinomial(lib.tensor([1.0, 2.0, 3.0]), 3, True, out=lib.empty(0, dtype=lib.int64)),
])
def test_multinomial_out(torch, call):
    """out= is resized silently (no warning) and written in place; PyTorch's checks first."""
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = []
            error = error_of(lambda: got.append(call(lib)))
        outs.append((error, [(t.tolist(), tuple(t.shape), t._version) for t in got]))
    assert outs[0] == outs[1]


def test_multinomial_out_into_a_strided_view(torch):
    outs = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        memory = lib.zeros(6, dtype=lib.int64)
        lib.multinomial(lib.ones(3), 2, out=memory[::2])
        outs.append(memory.tolist())
    assert outs[0] == outs[1]
