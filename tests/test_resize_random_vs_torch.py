"""Resizing in place (x.resize_, x.resize_as_, torch.resize_as_, the deprecated x.resize) and the
samplers torch.poisson and torch.binomial, against PyTorch: shapes, steps, values the memory
keeps, versions, nodes, gradients, messages and warnings; the samples after manual_seed."""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch

torch = import_torch()

LIBRARIES = (minigrad, torch)


def _outcome(function, L):
    """What ``function(L)`` gives: its result, or its exception's class and text."""
    try:
        return function(L)
    except Exception as error:       # noqa: BLE001 (the exception is what is compared)
        return (type(error).__name__, str(error))


def _state(t):
    """A tensor's shape, steps and version (values are compared where PyTorch's are defined)."""
    return tuple(t.shape), t.stride(), t._version


def _same(function):
    ours, theirs = _outcome(function, minigrad), _outcome(function, torch)
    assert ours == theirs
    return ours


# --- resize_: the shape, the steps, the values the memory keeps, the version ---------------

SHRINK_OR_KEEP = {
    "shrink": lambda L: L.arange(6.).resize_(2, 2),
    "same count": lambda L: L.arange(6.).resize_(2, 3),
    "a tuple": lambda L: L.arange(6.).resize_((3, 2)),
    "a list": lambda L: L.arange(6.).resize_([3, 2]),
    "size=": lambda L: L.arange(6.).resize_(size=(3, 2)),
    "a Size": lambda L: L.arange(6.).resize_(L.Size([6])),
    "to none": lambda L: L.arange(6.).resize_(0),
    "a size-0 dim": lambda L: L.arange(6).resize_(4, 0, 2),
    "a scalar": lambda L: L.arange(6.).resize_(()),
    "same shape keeps steps": lambda L: L.arange(6.).reshape(2, 3).t().resize_(3, 2),
    "a transpose made row-major": lambda L: L.arange(6.).reshape(2, 3).t().resize_(2, 3),
    "an expand, same shape": lambda L: L.arange(3.).expand(2, 3).resize_(2, 3),
    "a view that shrinks": lambda L: L.arange(6.)[1:4].resize_(2),
    "a view within its base": lambda L: L.arange(6.)[1:4].resize_(5),
    "int64": lambda L: L.arange(6).resize_(1, 3),
    "bool": lambda L: (L.arange(6) > 2).resize_(3),
    "channels_last": lambda L: L.arange(24.).resize_(1, 2, 3, 4, memory_format=L.channels_last),
    "channels_last same shape": lambda L: L.arange(24.).reshape(2, 3, 2, 2).resize_(
        2, 3, 2, 2, memory_format=L.channels_last),
    "channels_last_3d": lambda L: L.arange(120.).resize_(1, 2, 3, 4, 5, memory_format=L.channels_last_3d),
    "contiguous_format": lambda L: L.arange(6.).reshape(3, 2).t().resize_(3, 2, memory_format=L.contiguous_format),
    "resize_as_": lambda L: L.arange(6.).resize_as_(L.ones(2, 3)),
    "resize_as_ another dtype": lambda L: L.arange(6.).resize_as_(L.ones(3, 2, dtype=L.int64)),
    "resize_as_ a transpose": lambda L: L.arange(6.).resize_as_(L.ones(2, 3).t()),
    "resize_as_ preserve": lambda L: L.arange(24.).resize_as_(
        L.ones(2, 3, 2, 2).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2), memory_format=L.preserve_format),
    "resize_as_ channels_last": lambda L: L.arange(24.).resize_as_(L.ones(1, 2, 3, 4),
                                                                    memory_format=L.channels_last),
    "torch.resize_as_": lambda L: L.resize_as_(L.arange(6.), L.ones(2, 2)),
    "a size from a tensor": lambda L: L.arange(6.).resize_(L.tensor(4)),
    "a size from a 1-element tensor": lambda L: L.arange(6.).resize_(L.tensor([2])),
    "sizes from tensors": lambda L: L.arange(6.).resize_(L.tensor(3), 2),
}


@pytest.mark.parametrize("case", SHRINK_OR_KEEP)
def test_resize_within_the_memory_keeps_its_values(case):
    def run(L):
        t = SHRINK_OR_KEEP[case](L)
        return _state(t), t.dtype.__repr__(), t.tolist()
    _same(run)


GROW = {    # (the case, and how many of its first values were in the memory before)
    "grow": (lambda L: L.arange(6.).resize_(3, 3), 6),
    "grow an int tensor": (lambda L: L.arange(6).resize_(4, 4), 6),
    "grow from nothing": (lambda L: L.zeros(0).resize_(2, 2), 0),
    "grow an expand": (lambda L: L.arange(3.).expand(2, 3).resize_(6), 3),
    "grow a view beyond its base": (lambda L: L.arange(6.)[1:4].resize_(10), 5),
    "grow channels_last": (lambda L: L.arange(6.).resize_(2, 3, 2, 2, memory_format=L.channels_last), 0),
    "resize_as_ grows": (lambda L: L.ones(2).resize_as_(L.ones(2, 3)), 2),
}


@pytest.mark.parametrize("case", GROW)
def test_resize_beyond_the_memory(case):
    """The old values come first; the new elements are zeros in minigrad (memory PyTorch leaves
    as it was: any values), so only the old ones are compared."""
    function, kept = GROW[case]
    ours, theirs = function(minigrad), function(torch)
    assert _state(ours) == _state(theirs)
    assert ours.dtype.__repr__() == theirs.dtype.__repr__()
    if ours.stride() == minigrad.empty(ours.shape).stride():       # (row-major: flat order is memory order)
        flat_ours, flat_theirs = ours.reshape(-1).tolist(), theirs.reshape(-1).tolist()
        assert flat_ours[:kept] == flat_theirs[:kept]
        assert all(value == 0 for value in flat_ours[kept:])


def test_shrinking_then_growing_finds_the_old_values():
    def run(L):
        t = L.arange(6.)
        t.resize_(2)
        t.resize_(2, 3)
        return _state(t), t.tolist()
    _same(run)


def test_a_view_and_its_base_share_the_grown_memory():
    def run(L):
        base = L.arange(6.)
        view = base[1:4]
        view.resize_(10)
        view[0] = 100
        view[3] = 7
        return base.tolist(), base._version, view._version, view[:5].tolist()
    _same(run)


def test_a_view_that_shrinks_still_writes_into_its_base():
    def run(L):
        base = L.arange(6.)
        view = base[2:]
        view.resize_(2, 2)
        view.fill_(-1)
        return base.tolist(), base._version
    _same(run)


def test_the_same_shape_is_no_change():
    def run(L):
        t = L.ones(2, 3)
        t.resize_(2, 3)
        t.resize_as_(L.zeros(2, 3))
        return t._version
    assert _same(run) == 0


# --- what a resize refuses ---------------------------------------------------------------

def _leaf(L):
    return L.ones(2, 3, requires_grad=True)


REFUSED = {
    "a leaf that requires grad": lambda L: _leaf(L).resize_(3, 2),
    "a leaf, same shape": lambda L: _leaf(L).resize_(2, 3),
    "a leaf under no_grad": lambda L: _no_grad(L, lambda: _leaf(L).resize_(6)),
    "a result that requires grad": lambda L: (_leaf(L) * 2).resize_(6),
    "resize_as_ a leaf": lambda L: _leaf(L).resize_as_(L.ones(6)),
    "torch.resize_as_ a leaf": lambda L: L.resize_as_(_leaf(L), L.ones(6)),
    "a negative size": lambda L: L.ones(2).resize_(-1),
    "a negative size among others": lambda L: L.ones(2).resize_(2, -1),
    "too many elements": lambda L: L.ones(2).resize_(2 ** 40, 2 ** 40),
    "no size": lambda L: L.ones(2).resize_(),
    "a float size": lambda L: L.ones(2).resize_(2.0),
    "a float tensor size": lambda L: L.ones(2).resize_(L.tensor(2.0)),
    "a tensor of sizes": lambda L: L.ones(2).resize_(L.tensor([3, 1])),
    "an inference tensor": lambda L: _inference_ones(L).resize_(2),
    "a forward grad": lambda L: _dual_resized(L, (2,)),
    "a forward grad, same shape": lambda L: _dual_resized(L, (3,)),
    "a str size": lambda L: L.ones(2).resize_("a"),
    "a tuple and more": lambda L: L.ones(2).resize_((2, 3), 2),
    "size twice": lambda L: L.ones(2).resize_(2, size=3),
    "channels_last of rank 2": lambda L: L.ones(6).resize_(2, 3, memory_format=L.channels_last),
    "channels_last_3d of rank 4": lambda L: L.ones(6).resize_(1, 2, 3, 1, memory_format=L.channels_last_3d),
    "preserve_format": lambda L: L.ones(6).resize_(2, 3, memory_format=L.preserve_format),
    "memory_format an int": lambda L: L.ones(6).resize_(2, 3, memory_format=1),
    "resize_as_ a list": lambda L: L.ones(6).resize_as_([1, 2]),
    "resize_as_ a format by position": lambda L: L.ones(6).resize_as_(L.ones(2, 3), L.contiguous_format),
    "torch.resize_as_ a format by position": lambda L: L.resize_as_(L.ones(6), L.ones(2, 3), L.contiguous_format),
}


def _inference_ones(L):
    with L.inference_mode():
        return L.ones(3)


def _dual_resized(L, shape):
    with L.autograd.forward_ad.dual_level():
        dual = L.autograd.forward_ad.make_dual(L.ones(3), L.ones(3))
        return dual.resize_(*shape)


def _no_grad(L, function):
    with L.no_grad():
        return function()


@pytest.mark.parametrize("case", REFUSED)
def test_refused(case):
    ours, theirs = _outcome(REFUSED[case], minigrad), _outcome(REFUSED[case], torch)
    assert isinstance(theirs, tuple)
    assert ours == theirs


def test_a_refused_leaf_keeps_its_shape_and_version():
    def run(L):
        leaf = _leaf(L)
        _outcome(lambda _: leaf.resize_(6), L)
        return _state(leaf)
    _same(run)


def test_a_detached_copy_of_a_leaf_can_be_resized_and_its_graph_sees_the_change():
    def run(L):
        leaf = _leaf(L)
        loss = (leaf * leaf).sum()
        alias = leaf.detach()
        alias.resize_(3)
        refused = _outcome(lambda _: loss.backward(), L)
        return _state(alias), alias.tolist(), tuple(leaf.shape), leaf._version, refused[0], refused[1].split("\n")[0]
    _same(run)


@pytest.mark.parametrize("new_shape", [(5,), (3, 2), (1,)])
def test_a_leaf_resized_after_its_graph_was_recorded(new_shape):
    """A leaf that required grad when the graph was made, then no longer: the graph keeps the
    shape the leaf had, and its gradient does not reach .grad (the leaf does not require grad)."""
    def run(L):
        leaf = L.ones(2, 3, requires_grad=True)
        loss = (leaf * 2).sum()
        leaf.requires_grad_(False)
        leaf.resize_(*new_shape)
        loss.backward()
        return _state(leaf), leaf.grad
    _same(run)


# --- the deprecated out-of-place forms ------------------------------------------------------

def _with_warnings(function, L):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = _outcome(function, L)
    return value, [(w.category.__name__, str(w.message)) for w in caught]


DEPRECATED = {
    "resize": lambda L: L.arange(6.).resize(3, 2),
    "resize_as": lambda L: L.arange(6.).reshape(2, 3).resize_as(L.ones(6)),
    "resize another count": lambda L: L.ones(2, 3).resize(7),
    "resize a tuple is refused": lambda L: L.arange(6.).resize((3, 2)),
    "resize nothing": lambda L: L.arange(6.).resize(),
}


@pytest.mark.parametrize("case", DEPRECATED)
def test_deprecated_resize(case):
    def run(L):
        value, caught = _with_warnings(DEPRECATED[case], L)
        if not isinstance(value, tuple):
            value = (_state(value), value.tolist(), value.grad_fn)
        return value, caught
    _same(run)


def test_deprecated_resize_is_recorded():
    def run(L):
        x = L.arange(6., requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = x.resize(2, 3)
        (y * L.arange(6.).reshape(2, 3)).sum().backward()
        node = y.grad_fn
        return (type(node).__name__, [(type(n).__name__, i) for n, i in node.next_functions],
                tuple(y.shape), x.grad.tolist())
    assert _same(run)[0] == "ResizeBackward"


# --- torch.poisson and torch.binomial: the samples after manual_seed --------------------------

def _rates(L, dtype):
    # rates below 10 (products of uniforms), 10 and above (transformed rejection), 0, tiny, huge
    return L.tensor([0.5, 3.0, 12.0, 100.0, 0.0, 1e-3, 9.99, 10.0, 1e4, 35.7] * 6, dtype=dtype)


def _counts_and_probs(L, dtype):
    # count * p below 10 (inversion) and above (BTRS), p above 1/2 (the complement), 0 and 1,
    # counts that are 0 or negative, nan
    counts = L.tensor([10.0, 100.0, 5.0, 1000.0, 3.0, 50.0, 20.0, 7.0, 0.0, -4.0, 40.0, 12.5] * 5, dtype=dtype)
    probs = L.tensor([0.5, 0.3, 0.9, 0.01, 0.2, 0.95, 0.6, 0.0, 0.5, 0.5, 1.0, 0.7] * 5, dtype=dtype)
    return counts, probs


SAMPLES = {
    "poisson float32": lambda L: L.poisson(_rates(L, L.float32)),
    "poisson float64": lambda L: L.poisson(_rates(L, L.float64)),
    "poisson float16": lambda L: L.poisson(L.tensor([0.5, 3.0, 12.0, 40.0], dtype=L.float16)),
    "poisson 2d": lambda L: L.poisson(L.arange(1.0, 13.0).reshape(3, 4) * 3),
    "poisson a transpose": lambda L: L.poisson((L.arange(1.0, 13.0).reshape(3, 4) * 3).t()),
    "poisson steps of 2": lambda L: L.poisson((L.arange(1.0, 13.0).reshape(3, 4) * 3)[:, ::2]),
    "poisson an expand": lambda L: L.poisson(L.tensor([[5.0]]).expand(2, 3)),
    "poisson a scalar": lambda L: L.poisson(L.tensor(4.0)),
    "poisson nothing": lambda L: L.poisson(L.zeros(0, 3)),
    "poisson an infinite rate": lambda L: L.poisson(L.tensor([float("inf")])),
    "poisson a huge rate": lambda L: L.poisson(L.tensor([1e20])),
    "binomial float32": lambda L: L.binomial(*_counts_and_probs(L, L.float32)),
    "binomial float64": lambda L: L.binomial(*_counts_and_probs(L, L.float64)),
    "binomial nan": lambda L: L.binomial(L.tensor([10.0, 100.0]), L.tensor([float("nan"), 0.3])),
    "binomial p out of [0, 1]": lambda L: L.binomial(L.tensor([10.0, 100.0]), L.tensor([1.5, -0.3])),
    "binomial a transpose": lambda L: L.binomial(L.arange(10.0, 130.0, 10.0).reshape(3, 4).t(), L.full((4, 3), 0.3)),
    "binomial broadcast count": lambda L: L.binomial(L.tensor([50.0]), L.tensor([0.2, 0.5, 0.7])),
    "binomial scalars": lambda L: L.binomial(L.tensor(50.0), L.tensor(0.4)),
}


@pytest.mark.filterwarnings("ignore:An output with one or more elements was resized")   # (tested below)
@pytest.mark.parametrize("case", SAMPLES)
def test_samples_after_manual_seed(case):
    def run(L):
        L.manual_seed(3)
        first = SAMPLES[case](L)
        second = SAMPLES[case](L)
        after = L.rand(3).tolist()           # (the stream goes on where PyTorch's does)
        return [(str(t.dtype), tuple(t.shape), t.stride(), t._version, str(t.tolist())) for t in (first, second)], after
    _same(run)


@pytest.mark.parametrize("seed", range(6))
def test_many_samples(seed):
    def run(L):
        L.manual_seed(seed)
        rates = L.rand(400, dtype=L.float64) * 40
        counts, probs = (L.rand(300) * 200).floor(), L.rand(300)
        return L.poisson(rates).tolist(), L.binomial(counts, probs).tolist()
    _same(run)


def test_the_generator_state_after_sampling():
    """The numbers drawn ahead and not used are given back: the state is PyTorch's."""
    def run(L):
        L.manual_seed(2)
        L.poisson(L.tensor([3.0, 30.0, 0.5]))
        L.binomial(L.tensor([40.0, 3.0]), L.tensor([0.3, 0.6]))
        return L.get_rng_state().tolist()
    _same(run)


def test_a_generator_of_its_own():
    def run(L):
        generator = L.Generator().manual_seed(7)
        L.manual_seed(1)
        values = (L.poisson(L.full((5,), 20.0), generator=generator).tolist(),
                  L.binomial(L.full((5,), 30.0), L.full((5,), 0.4), generator).tolist(),
                  L.poisson(L.full((5,), 2.0), generator).tolist())
        return values, L.rand(2).tolist()
    _same(run)


def test_binomial_warns_when_prob_broadcasts_count():
    def run(L):
        L.manual_seed(0)
        value, caught = _with_warnings(
            lambda L: L.binomial(L.tensor([10.0, 100.0]), L.tensor([0.5, 0.3]).expand(3, 2)), L)
        return value.tolist(), [(category, message.split(" (Triggered internally")[0]) for category, message in caught]
    _same(run)


COUNT_ERRORS = {
    "a negative rate": lambda L: L.poisson(L.tensor([-1.0, 1.0])),
    "a negative rate after others": lambda L: L.poisson(L.tensor([1.0, 20.0, -1.0, 3.0])),
    "a nan rate": lambda L: L.poisson(L.tensor([float("nan")])),
    "integer rates": lambda L: L.poisson(L.tensor([1, 2])),
    "int32 rates": lambda L: L.poisson(L.tensor([1], dtype=L.int32)),
    "bool rates": lambda L: L.poisson(L.tensor([True])),
    "rates a list": lambda L: L.poisson([1.0, 2.0]),
    "poisson generator an int": lambda L: L.poisson(L.tensor([1.0]), generator=3),
    "integer counts": lambda L: L.binomial(L.tensor([10, 100]), L.tensor([0.5, 0.3])),
    "bool counts": lambda L: L.binomial(L.tensor([True]), L.tensor([0.5])),
    "integer probs": lambda L: L.binomial(L.tensor([1.0]), L.tensor([1], dtype=L.int64)),
    "dtypes differ": lambda L: L.binomial(L.tensor([10.0]), L.tensor([0.5], dtype=L.float64)),
    "float16": lambda L: L.binomial(L.tensor([50.0], dtype=L.float16), L.tensor([0.4], dtype=L.float16)),
    "shapes clash": lambda L: L.binomial(L.tensor([10.0, 100.0]), L.tensor([0.5, 0.3, 0.2])),
    "prob a number": lambda L: L.binomial(L.tensor([10.0, 100.0]), 0.5),
    "count a list": lambda L: L.binomial([10.0], L.tensor([0.5])),
    "binomial generator an int": lambda L: L.binomial(L.tensor([1.0]), L.tensor([1.0]), generator=3),
}


@pytest.mark.parametrize("case", COUNT_ERRORS)
def test_count_errors(case):
    def run(L):
        L.manual_seed(0)
        refused = _outcome(COUNT_ERRORS[case], L)
        return refused, L.rand(2).tolist()
    refused, _ = _same(run)
    assert isinstance(refused, tuple)


def test_poisson_gradient_is_zero():
    def run(L):
        L.manual_seed(0)
        rates = L.tensor([3.0, 30.0], requires_grad=True)
        sample = L.poisson(rates)
        node = sample.grad_fn
        (grad,) = L.autograd.grad((sample * 2).sum(), rates)
        return (sample.tolist(), node.name(), [(type(n).__name__, i) for n, i in node.next_functions],
                grad.tolist(), grad.grad_fn)
    assert _same(run)[1] == "PoissonBackward0"


def test_poisson_forward_mode_tangent_is_zero():
    def run(L):
        L.manual_seed(0)
        with L.autograd.forward_ad.dual_level():
            dual = L.autograd.forward_ad.make_dual(L.tensor([2.0, 40.0]), L.tensor([1.0, 1.0]))
            return L.autograd.forward_ad.unpack_dual(L.poisson(dual)).tangent.tolist()
    _same(run)


@pytest.mark.parametrize("needs", ["count", "prob", "both"])
def test_binomial_records_a_node_that_refuses_backward(needs):
    def run(L):
        L.manual_seed(0)
        count = L.tensor([10.0, 20.0], requires_grad=needs in ("count", "both"))
        prob = L.tensor([0.5, 0.5], requires_grad=needs in ("prob", "both"))
        sample = L.binomial(count, prob)
        node = sample.grad_fn
        edges = [(type(n).__name__, i) for n, i in node.next_functions]
        return sample.tolist(), type(node).__name__, node.name(), edges, _outcome(lambda _: sample.sum().backward(), L)
    assert _same(run)[1] == "NotImplemented"


def test_binomial_refuses_forward_mode():
    def run(L):
        with L.autograd.forward_ad.dual_level():
            dual = L.autograd.forward_ad.make_dual(L.tensor([2.0, 40.0]), L.tensor([1.0, 1.0]))
            return _outcome(lambda _: L.binomial(dual, L.tensor([0.5, 0.5])), L)
    _same(run)


# --- torch.histogramdd --------------------------------------------------------------------

def _points(L, dtype=None):
    return L.tensor([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.5, 1.7]], dtype=dtype or L.float32)


def _random_points(L, shape, dtype, nan=False):
    values = np.random.default_rng(5).standard_normal(shape).astype(dtype)
    if nan:
        values[::7, 0] = np.nan
    return L.tensor(values)


HISTOGRAMS = {
    "bins for each dim": lambda L: L.histogramdd(_points(L), bins=[3, 3]),
    "one number of bins": lambda L: L.histogramdd(_points(L), bins=3),
    "a tuple of bins": lambda L: L.histogramdd(_points(L), (2, 4)),
    "range": lambda L: L.histogramdd(_points(L), bins=(2, 4), range=[0.0, 1.0, 0.0, 1.0]),
    "range by position": lambda L: L.histogramdd(_points(L), [2, 2], [0.0, 1.0, 0.0, 1.0]),
    "weight": lambda L: L.histogramdd(_points(L), bins=[2, 2], weight=L.tensor([1.0, 2.0, 4.0, 8.0, 16.0])),
    "density": lambda L: L.histogramdd(_points(L), bins=[2, 3], density=True),
    "weighted density": lambda L: L.histogramdd(_points(L, L.float64), bins=[3, 2], density=True,
                                                 weight=L.tensor([1.0, 2.0, 4.0, 8.0, 16.0], dtype=L.float64)),
    "edges": lambda L: L.histogramdd(_points(L), bins=[L.tensor([0.0, 1.0, 2.0]), L.tensor([0.0, 0.5, 2.5])]),
    "three dims": lambda L: L.histogramdd(L.rand(2, 3, 3, generator=L.Generator().manual_seed(0)), bins=[2, 3, 2]),
    "one dim": lambda L: L.histogramdd(L.tensor([[0.5], [0.1], [0.9]]), bins=4),
    "no points": lambda L: L.histogramdd(L.zeros(0, 2), bins=[2, 2]),
    "all points equal": lambda L: L.histogramdd(L.tensor([[1.0, 1.0], [1.0, 1.0]]), bins=[2, 2]),
    "many points float64": lambda L: L.histogramdd(_random_points(L, (500, 3), "float64"), bins=[7, 5, 9]),
    "many points float32": lambda L: L.histogramdd(_random_points(L, (500, 2), "float32"), bins=[10, 13],
                                                    range=[-1.0, 1.5, -2.0, 0.7]),
    "nan points are not counted": lambda L: L.histogramdd(_random_points(L, (50, 2), "float32", nan=True),
                                                         bins=[3, 4], range=[-1.0, 1.0, -1.0, 1.0]),
    "nothing counted, density": lambda L: L.histogramdd(_points(L), bins=[2, 2], range=[5.0, 6.0, 5.0, 6.0],
                                                        density=True),
}


@pytest.mark.parametrize("case", HISTOGRAMS)
def test_histogramdd(case):
    def run(L):
        hist, edges = HISTOGRAMS[case](L)
        named = HISTOGRAMS[case](L)
        return (type(named).__name__, str(hist.dtype), tuple(hist.shape), str(hist.tolist()),
                [(str(e.dtype), e.tolist()) for e in edges], named.hist.shape, len(named.bin_edges),
                repr(named).split("(")[0])
    _same(run)


@pytest.mark.parametrize("bins", ["numbers", "edges"])
@pytest.mark.parametrize("needs", ["input", "weight"])
def test_histogramdd_records_nodes_that_refuse_backward(bins, needs):
    def run(L):
        points = _points(L).requires_grad_(needs == "input")
        weight = L.ones(5, requires_grad=needs == "weight")
        given = [L.tensor([0.0, 1.0, 2.0]), L.tensor([0.0, 0.5, 2.5])]
        hist, edges = L.histogramdd(points, bins=[2, 2] if bins == "numbers" else given, weight=weight)
        node = hist.grad_fn
        edge_nodes = [None if e.grad_fn is None else e.grad_fn.name() for e in edges]
        return (node.name(), type(node).__name__, edge_nodes, [e is g for e, g in zip(edges, given)],
                [(type(n).__name__, i) for n, i in node.next_functions],
                _first_line(_outcome(lambda _: hist.sum().backward(), L)),
                _first_line(_outcome(lambda _: edges[1].sum().backward(), L)))
    _same(run)


def _first_line(refused):
    """An error's class and the first line of its text (minigrad's own hint comes after)."""
    return refused[0], refused[1].split("\n")[0]


HISTOGRAM_ERRORS = {
    "bins and dims differ": lambda L: L.histogramdd(_points(L), bins=[2]),
    "no bins": lambda L: L.histogramdd(_points(L), bins=[2, 0]),
    "range too short": lambda L: L.histogramdd(_points(L), bins=[2, 2], range=[0.0, 1.0]),
    "range reversed": lambda L: L.histogramdd(_points(L), bins=[2, 2], range=[1.0, 0.0, 0.0, 1.0]),
    "range from nan points": lambda L: L.histogramdd(_random_points(L, (50, 2), "float64", nan=True), bins=2),
    "range not finite": lambda L: L.histogramdd(_points(L), bins=[2, 2], range=[0.0, float("inf"), 0.0, 1.0]),
    "weight of another shape": lambda L: L.histogramdd(_points(L), bins=[2, 2], weight=L.ones(4)),
    "weight of another dtype": lambda L: L.histogramdd(_points(L, L.float64), bins=[2, 2], weight=L.ones(5)),
    "integers": lambda L: L.histogramdd(_points(L).long(), bins=[2, 2]),
    "one dimension": lambda L: L.histogramdd(_points(L).reshape(-1), bins=[2]),
    "edges of 2 dims": lambda L: L.histogramdd(_points(L), bins=[L.tensor([0.0, 1.0, 2.0]), L.tensor([[0.0, 0.5, 2.5]])]),
    "too few edges": lambda L: L.histogramdd(_points(L), bins=[L.tensor([0.0, 1.0, 2.0])]),
    "edges of another dtype": lambda L: L.histogramdd(
        _points(L), bins=[L.tensor([0.0, 1.0, 2.0]), L.tensor([0.0, 1.0, 2.0], dtype=L.float64)]),
    "bins a float": lambda L: L.histogramdd(_points(L), bins=2.5),
}


@pytest.mark.parametrize("case", HISTOGRAM_ERRORS)
def test_histogramdd_errors(case):
    refused = _same(lambda L: _outcome(HISTOGRAM_ERRORS[case], L))
    assert isinstance(refused, tuple)
