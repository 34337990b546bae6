"""torch.xxx forms of nn operations and methods (torch.layer_norm, torch.dropout(input, p,
train), torch.embedding(weight, indices), torch.detach, torch.adjoint, ...) against PyTorch:
values, dtypes, nodes and gradients, with the same random numbers."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _x(L):
    return L.tensor(np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32),
                    requires_grad=True)


CALLS = {
    "detach": lambda L, x: L.detach(x * 2),
    "masked_fill": lambda L, x: L.masked_fill(x * 1, x > 0, 0.5),
    "index_put_": lambda L, x: L.index_put_(x * 1, (L.tensor([0, 1]),), L.tensor(3.0), True),
    "adjoint": lambda L, x: L.adjoint(x),
    "split_with_sizes": lambda L, x: L.split_with_sizes(x, [1, 2], 1)[1],
    "layer_norm": lambda L, x: L.layer_norm(x, [4], L.ones(4), L.zeros(4), 1e-3, True),
    "group_norm": lambda L, x: L.group_norm(x, 3, None, None, 1e-5, True),
    "rms_norm": lambda L, x: L.rms_norm(x, [3, 4]),
    "batch_norm": lambda L, x: L.batch_norm(x, None, None, L.zeros(3), L.ones(3), True, 0.1, 1e-5, False),
    "instance_norm": lambda L, x: L.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False),
    "embedding": lambda L, x: L.embedding(x[0], L.tensor([2, 0, 2])),
    "embedding_padding": lambda L, x: L.embedding(x[1], L.tensor([[1, 0], [2, 1]]), 1),
    "dropout": lambda L, x: L.dropout(x, 0.3, True),
    "dropout_eval": lambda L, x: L.dropout(x, 0.3, False),
    "dropout_": lambda L, x: L.dropout_(x * 1, 0.5, True),
    "alpha_dropout": lambda L, x: L.alpha_dropout(x, 0.2, True),
    "alpha_dropout_": lambda L, x: L.alpha_dropout_(x * 1, 0.2, True),
    "feature_dropout": lambda L, x: L.feature_dropout(x, 0.5, True),
    "feature_dropout_": lambda L, x: L.feature_dropout_(x * 1, 0.5, True),
    "feature_alpha_dropout": lambda L, x: L.feature_alpha_dropout(x, 0.5, True),
    "feature_alpha_dropout_": lambda L, x: L.feature_alpha_dropout_(x * 1, 0.5, True),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_torch_level_names_as_torch(name):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        lib.manual_seed(7)
        x = _x(lib)
        y = CALLS[name](lib, x)
        node = None if y.grad_fn is None else type(y.grad_fn).__name__
        if y.requires_grad:
            y.backward(lib.ones_like(y))
        seen.append((y.detach().numpy(), str(y.dtype).split(".")[-1], tuple(y.shape), node,
                     y._base is not None, None if x.grad is None else x.grad.numpy()))
    np.testing.assert_array_equal(seen[0][0], seen[1][0])
    assert seen[0][1:5] == seen[1][1:5]
    if seen[1][5] is None:
        assert seen[0][5] is None
    else:
        np.testing.assert_allclose(seen[0][5], seen[1][5], rtol=1e-6, atol=1e-6)


def test_adjoint_of_a_vector_raises_as_torch():
    torch = import_torch()
    messages = []
    for lib in (minigrad, torch):
        with pytest.raises(RuntimeError) as caught:
            lib.adjoint(lib.ones(3))
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
