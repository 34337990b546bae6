"""F.embedding, nn.Embedding and F.one_hot against PyTorch: values, graph, gradients (with
padding_idx, scale_grad_by_freq and max_norm, which shrinks the table in place), what
grad_fn shows, the same initial table after manual_seed, printing and the errors."""
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
    # (with padding_idx or scale_grad_by_freq the gradient is on purpose not the derivative,
    # but it is linear in grad, and its own derivative is checked)
    for settings in SETTINGS[:4]:
        assert gradgradcheck(lambda w: minigrad.nn.functional.embedding(indices, w, **settings), [weight])


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
