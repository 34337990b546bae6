"""F.embedding, nn.Embedding, F.embedding_bag, nn.EmbeddingBag and F.one_hot against PyTorch:
values, graph, gradients (with padding_idx, scale_grad_by_freq and max_norm, which shrinks the
table in place), what grad_fn shows, the same initial table after manual_seed, printing and
the errors."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch


def graph(grad_fn):
    if grad_fn is None:
        return None
    return (type(grad_fn).__name__, tuple(graph(child) for child, _ in grad_fn.next_functions))


TABLE = np.random.default_rng(0).standard_normal((6, 3))
SETTINGS = [{}, {"padding_idx": 2}, {"padding_idx": -1}, {"scale_grad_by_freq": True}, {"max_norm": 1.0},
            {"max_norm": 0.5, "norm_type": 1.0, "padding_idx": 0}]


def lookups(L, settings):
    weight = L.tensor(TABLE.copy(), requires_grad=True)
    out = L.nn.functional.embedding(L.tensor([[1, 2, 2], [5, 0, 2]]), weight, **settings)
    node = out.grad_fn
    shown = sorted((name, getattr(node, name).tolist() if name == "_saved_indices" else getattr(node, name))
                   for name in dir(node) if name.startswith(("_saved_", "_raw_saved_")) and "raw" not in name)
    names = [name for name in dir(node) if name.startswith(("_saved_", "_raw_saved_"))]
    (out * L.arange(18., dtype=L.float64).reshape(2, 3, 3)).sum().backward()
    return (out.detach().numpy().tolist(), graph(node), weight.grad.numpy().tolist(), weight._version,
            weight.detach().numpy().tolist(), shown, names)


@pytest.mark.parametrize("settings", SETTINGS)
def test_embedding_as_torch(settings):
    torch = import_torch()
    ours, theirs = lookups(minigrad, settings), lookups(torch, settings)
    for our, their in zip(ours, theirs):
        if isinstance(our, list) and our and isinstance(our[0], list):
            np.testing.assert_allclose(np.array(our, dtype=float), np.array(their, dtype=float), rtol=1e-14)
        else:
            assert our == their


def test_gradcheck_and_gradgradcheck():
    weight = minigrad.tensor(np.random.default_rng(1).standard_normal((6, 3)), requires_grad=True)
    indices = minigrad.tensor([[1, 2, 2], [5, 0, 2]])
    assert gradcheck(lambda w: minigrad.nn.functional.embedding(indices, w), [weight])
    # (with padding_idx the gradient is on purpose not the derivative, but it is linear in grad,
    # and its own derivative is checked; with scale_grad_by_freq PyTorch's second derivative
    # leaves the scaling out, so gradgradcheck fails there, in PyTorch too)
    for settings in SETTINGS[:3]:
        assert gradgradcheck(lambda w: minigrad.nn.functional.embedding(indices, w, **settings), [weight])


@pytest.mark.parametrize("settings", SETTINGS[:4], ids=str)
def test_second_order_node_as_torch(settings):
    """Under create_graph the table's gradient is one node, EmbeddingDenseBackwardBackward0
    (saving the indices and padding_idx), whose own gradient picks the rows of each index,
    0 for padding_idx and without scale_grad_by_freq's scaling (found by the random-program
    test)."""
    torch = import_torch()

    def second_order(L):
        weight = L.tensor(TABLE.copy(), requires_grad=True)
        out = L.nn.functional.embedding(L.tensor([[1, 2, 2], [5, 0, 2]]), weight, **settings)
        grad_out = L.arange(18., dtype=L.float64).reshape(2, 3, 3).requires_grad_()
        (grad,) = L.autograd.grad(out * out, weight, grad_out, create_graph=True)
        node = grad.grad_fn
        shown = sorted((name, getattr(node, name).tolist() if name == "_saved_indices" else getattr(node, name))
                       for name in dir(node) if name.startswith("_saved_"))
        grad_grad = L.tensor(TABLE[::-1].copy(), requires_grad=True)
        second = L.autograd.grad(grad, (grad_out, weight), grad_grad, create_graph=True)
        return (graph(node), shown, grad.detach().numpy(),
                [(graph(g.grad_fn), g.detach().numpy()) for g in second])
    ours, theirs = second_order(minigrad), second_order(torch)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-14)
    for (our_graph, our_values), (their_graph, their_values) in zip(ours[3], theirs[3]):
        assert our_graph == their_graph
        np.testing.assert_allclose(our_values, their_values, rtol=1e-14)


def others(L):
    F, seen = L.nn.functional, []
    L.manual_seed(3)
    layer = L.nn.Embedding(10, 3, padding_idx=1)
    seen += [np.round(layer.weight.detach().numpy(), 6).tolist(), repr(layer), list(layer.state_dict())]
    L.manual_seed(4)
    seen.append(L.nn.Embedding(50, 7).weight.detach().numpy().tolist())          # the same numbers, exactly
    seen.append(repr(L.nn.Embedding(10, 3, max_norm=2, norm_type=1, scale_grad_by_freq=True, sparse=True)))
    pretrained = L.nn.Embedding.from_pretrained(L.ones(4, 2))
    seen += [repr(pretrained), pretrained.weight.requires_grad,
             L.nn.Embedding.from_pretrained(L.ones(4, 2), freeze=False).weight.requires_grad]
    seen += [F.one_hot(L.tensor([[0, 2], [1, 1]])).tolist(), F.one_hot(L.tensor([0, 2]), 5).tolist(),
             str(F.one_hot(L.tensor(1), 3).dtype), tuple(F.one_hot(L.tensor([], dtype=L.int64), 4).shape),
             F.embedding(L.tensor([1, 0], dtype=L.int32), L.ones(3, 2)).tolist()]
    return seen


def test_module_and_one_hot_as_torch():
    torch = import_torch()
    assert others(minigrad) == others(torch)


def _error(call):
    try:
        call()
    except Exception as error:
        return type(error).__name__, str(error)
    return "no error"


def errors(L):
    F, table = L.nn.functional, L.ones(5, 3)
    calls = [lambda: F.embedding(L.tensor([5]), table), lambda: F.embedding(L.tensor([-1]), table),
             lambda: F.embedding(L.tensor([1.]), table), lambda: F.embedding(L.tensor([1]), table, padding_idx=5),
             lambda: F.embedding(L.tensor([1]), table, padding_idx=-6), lambda: L.nn.Embedding(5, 3, padding_idx=5),
             lambda: L.nn.Embedding(5, 3, _weight=L.ones(2, 2)), lambda: L.nn.Embedding.from_pretrained(L.ones(3)),
             lambda: F.one_hot(L.tensor([1, -1])), lambda: F.one_hot(L.tensor([1, 3]), 3),
             lambda: F.one_hot(L.tensor([1., 3]), 3), lambda: F.one_hot(L.tensor([1, 2]), -2),
             lambda: F.one_hot(L.tensor([], dtype=L.int64)), lambda: F.embedding(L.tensor([1]), L.ones(3))]
    return [_error(call) for call in calls]


def test_errors_as_torch():
    torch = import_torch()
    assert errors(minigrad) == errors(torch)


def empty_tables(L):
    """Looking up rows of a table with no rows (PyTorch's index_select refuses) or with rows of
    no numbers (another kernel checks the indices, naming the first one out of bounds)."""
    outcomes = []
    for table in (L.ones(3, 0), L.ones(0, 3), L.ones(0, 0)):
        for indices in ([[1, 0], [1, 1]], [5], [1, -4, 3], [], 0):
            outcomes.append(_error(lambda: L.nn.functional.embedding(L.tensor(indices, dtype=L.int64), table)))
    return outcomes


def test_empty_tables_as_torch():
    torch = import_torch()
    assert empty_tables(minigrad) == empty_tables(torch)


# --- embedding_bag ----------------------------------------------------------------------------

BAG_TABLE = np.random.default_rng(2).standard_normal((10, 3))
BAG_INDICES = [1, 2, 4, 5, 4, 3, 2, 9, 2, 2, 7]
BAG_OFFSETS = [0, 4, 4, 8]          # (a bag of four, an empty one, four, three)
BAG_SETTINGS = [
    {"mode": "sum"}, {"mode": "mean"}, {"mode": "max"}, {"mode": "sum", "per_sample_weights": True},
    {"mode": "mean", "padding_idx": 2}, {"mode": "sum", "padding_idx": -8}, {"mode": "max", "padding_idx": 2},
    {"mode": "sum", "padding_idx": 2, "per_sample_weights": True}, {"mode": "mean", "max_norm": 1.0},
    {"mode": "sum", "include_last_offset": True, "offsets": [0, 4, 4, 8, 11]},
    {"mode": "mean", "include_last_offset": True, "offsets": [0, 4, 4, 11]},
    {"mode": "max", "include_last_offset": True, "offsets": [0, 4, 4, 8, 11]},
    {"mode": "max", "two_dims": True}, {"mode": "sum", "two_dims": True, "per_sample_weights": True},
    {"mode": "max", "offsets": [0, 2, 5], "padding_idx": 4},
    # (PyTorch divides the k-th smallest index's terms by the count of the k-th index in sorted order)
    {"mode": "sum", "scale_grad_by_freq": True}, {"mode": "mean", "scale_grad_by_freq": True, "padding_idx": 4},
    {"mode": "sum", "scale_grad_by_freq": True, "per_sample_weights": True},
]


def bags(L, settings, dtype):
    settings = dict(settings)
    weight = L.tensor(BAG_TABLE.astype(dtype), requires_grad=True)
    indices, offsets = L.tensor(BAG_INDICES), L.tensor(settings.pop("offsets", BAG_OFFSETS))
    if settings.pop("two_dims", False):
        indices, offsets = L.tensor(BAG_INDICES[:10]).reshape(2, 5), None
    per_sample = None
    if settings.pop("per_sample_weights", False):
        per_sample = L.tensor(np.linspace(0.3, 2.1, indices.numel()).reshape(tuple(indices.shape)).astype(dtype),
                              requires_grad=True)
    out = L.nn.functional.embedding_bag(indices, weight, offsets, per_sample_weights=per_sample, **settings)
    node = out.grad_fn
    shown = {}
    for name in dir(node):
        if name.startswith("_saved_"):
            value = getattr(node, name)
            shown[name] = (str(value.dtype), value.tolist()) if hasattr(value, "shape") else value
    (out * L.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)).astype(dtype))).sum().backward()
    grads = [weight.grad.numpy()] + ([] if per_sample is None else [per_sample.grad.numpy()])
    return out.detach().numpy(), graph(node), shown, grads, weight.detach().numpy()


@pytest.mark.parametrize("settings, dtype", [(s, d) for s in BAG_SETTINGS for d in (np.float32, np.float64)])
def test_embedding_bag_as_torch(settings, dtype):
    """Values to the last bit, the node, what it shows (the three helper results too) and the gradients."""
    torch = import_torch()
    ours, theirs = bags(minigrad, settings, dtype), bags(torch, settings, dtype)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1] == theirs[1]
    assert ours[2] == theirs[2]
    np.testing.assert_array_equal(ours[3][0], theirs[3][0])   # the table's gradient, to the last bit
    tolerance = 1e-6 if dtype == np.float32 else 1e-14
    for our, their in zip(ours[3][1:], theirs[3][1:]):          # (per_sample_weights': dot products)
        np.testing.assert_allclose(our, their, rtol=tolerance, atol=tolerance)
    np.testing.assert_array_equal(ours[4], theirs[4])          # (max_norm shrinks the table in place)


def test_embedding_bag_gradcheck():
    """The gradients are the derivatives (for the weight, and for per_sample_weights)."""
    F = minigrad.nn.functional
    weight = minigrad.tensor(BAG_TABLE, requires_grad=True)
    indices, offsets = minigrad.tensor(BAG_INDICES), minigrad.tensor(BAG_OFFSETS)
    per_sample = minigrad.tensor(np.linspace(0.3, 2.1, 11), requires_grad=True)
    for mode in ("sum", "mean", "max"):
        for padding_idx in (None, 2):
            assert gradcheck(lambda w: F.embedding_bag(indices, w, offsets, mode=mode, padding_idx=padding_idx),
                             [weight])
    assert gradcheck(lambda w, p: F.embedding_bag(indices, w, offsets, mode="sum", per_sample_weights=p),
                     [weight, per_sample])


def bag_second_order(L):
    """Differentiating the gradient again: PyTorch refuses, with these messages and nodes."""
    F, seen = L.nn.functional, []
    weight = L.tensor(BAG_TABLE, requires_grad=True)
    per_sample = L.tensor(np.linspace(0.3, 2.1, 11), requires_grad=True)
    for mode, weights in (("sum", None), ("max", None), ("sum", per_sample)):
        out = F.embedding_bag(L.tensor(BAG_INDICES), weight, L.tensor(BAG_OFFSETS), mode=mode,
                              per_sample_weights=weights)
        grad_out = L.ones(tuple(out.shape), dtype=L.float64, requires_grad=True)
        grads = L.autograd.grad(out, (weight,) if weights is None else (weight, weights), grad_out,
                                create_graph=True)
        for grad in grads:
            seen.append((grad.grad_fn.name(), graph(grad.grad_fn)[1]))
            seen.append(_error(lambda: L.autograd.grad(grad.sum(), grad_out)))
    return seen


def test_embedding_bag_second_order_as_torch():
    torch = import_torch()
    assert bag_second_order(minigrad) == bag_second_order(torch)


def bag_module(L):
    seen = []
    L.manual_seed(5)
    layer = L.nn.EmbeddingBag(10, 3, mode="sum", padding_idx=2)
    seen += [layer.weight.detach().numpy().tolist(), repr(layer), list(layer.state_dict()),
             layer(L.tensor([[1, 2], [3, 4]])).detach().numpy().tolist(),
             layer(L.tensor([1, 2, 3]), L.tensor([0, 1]), L.tensor([0.5, 2.0, 1.0])).detach().numpy().tolist()]
    seen += [repr(L.nn.EmbeddingBag(10, 3)),
             repr(L.nn.EmbeddingBag(10, 3, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, mode="max",
                                    padding_idx=-1, include_last_offset=True))]
    pretrained = L.nn.EmbeddingBag.from_pretrained(L.ones(4, 2), mode="max")
    seen += [repr(pretrained), pretrained.weight.requires_grad, pretrained.include_last_offset,
             L.nn.EmbeddingBag.from_pretrained(L.ones(4, 2), freeze=False).weight.requires_grad]
    return seen


def test_embedding_bag_module_as_torch():
    torch = import_torch()
    assert bag_module(minigrad) == bag_module(torch)


def bag_errors(L):
    F, table, indices, offsets = L.nn.functional, L.ones(10, 3), L.tensor(BAG_INDICES), L.tensor(BAG_OFFSETS)
    calls = [lambda: F.embedding_bag(indices, table, offsets, mode="foo"),
             lambda: F.embedding_bag(indices, table),
             lambda: F.embedding_bag(indices[:10].reshape(2, 5), table, offsets),
             lambda: F.embedding_bag(indices[:8].reshape(2, 2, 2), table, offsets),
             lambda: F.embedding_bag(indices, table[0], offsets),
             lambda: F.embedding_bag(indices, table, offsets.reshape(2, 2)),
             lambda: F.embedding_bag(indices, table, offsets, mode="max", scale_grad_by_freq=True),
             lambda: F.embedding_bag(indices, table, offsets, mode="max", sparse=True),
             lambda: F.embedding_bag(indices, table, offsets, mode="mean", per_sample_weights=L.ones(11)),
             lambda: F.embedding_bag(indices, table, offsets, per_sample_weights=L.ones(7)),
             lambda: F.embedding_bag(indices, table, L.tensor([1, 4])),
             lambda: F.embedding_bag(indices, table, L.tensor([0, 12])),
             lambda: F.embedding_bag(indices + 5, table.double(), offsets),
             lambda: F.embedding_bag(L.tensor([1, 10, 2]), table, L.tensor([0])),
             lambda: F.embedding_bag(L.tensor([1, -1, 2]), table, L.tensor([0]), mode="max"),
             lambda: F.embedding_bag(indices.float(), table, offsets),
             lambda: F.embedding_bag(indices, table, offsets, padding_idx=10),
             lambda: F.embedding_bag(indices, table, offsets, padding_idx=-11),
             lambda: L.nn.EmbeddingBag(5, 3, padding_idx=5),
             lambda: L.nn.EmbeddingBag(5, 3, padding_idx=-6),
             lambda: L.nn.EmbeddingBag(5, 3, _weight=L.ones(2, 2)),
             lambda: L.nn.EmbeddingBag.from_pretrained(L.ones(3))]
    return [_error(call) for call in calls]


def test_embedding_bag_errors_as_torch():
    torch = import_torch()
    assert bag_errors(minigrad) == bag_errors(torch)


def bag_range_errors(L, threads):
    """The faster float32 kernel's error for an index out of range, with the bags shared out
    among 1 or 2 threads (only one share with a bad index: with several, PyTorch's threads race)."""
    previous = L.get_num_threads()
    L.set_num_threads(threads)
    seen = []
    try:
        for indices in ([[1, 0], [0, 0]], [[0, 0], [1, 1]], [[0, 0], [0, 0], [1, 0]], [[0], [0], [1]],
                        [[0, 0, 0], [0, 1, 0]]):
            try:
                L.nn.functional.embedding_bag(L.tensor(indices), L.ones(1, 3))
            except RuntimeError as error:
                seen.append(str(error))
    finally:
        L.set_num_threads(previous)
    return seen


@pytest.mark.parametrize("threads", [1, 2])
def test_embedding_bag_range_errors_as_torch(threads):
    """Found by the random-program test: a bad index in the second of two bags, with 2 threads."""
    torch = import_torch()
    assert bag_range_errors(minigrad, threads) == bag_range_errors(torch, threads)


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "uint8", "float16"])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_table_dtypes_as_torch(dtype, mode):
    """A table of integers or bools is refused, after the indices' dtype (found by the
    random-program test: mean of a bool table let numpy's casting error out)."""
    torch = import_torch()

    def run(L):
        try:
            out = L.nn.functional.embedding_bag(L.tensor([[1, 0], [1, 1]]), L.ones(2, 3, dtype=getattr(L, dtype)),
                                                mode=mode)
        except RuntimeError as error:
            return str(error)
        return out.tolist(), str(out.dtype)
    assert run(minigrad) == run(torch)
