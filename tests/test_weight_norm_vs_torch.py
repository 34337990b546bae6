"""Weight normalization against PyTorch: parametrizations.weight_norm on layers (the node
WeightNormInterfaceBackward0 for dim 0 and the last dim, ordinary nodes otherwise), the
parameters it trains, values and gradients, torch.norm_except_dim and torch._weight_norm."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch


def graph(grad_fn):
    if grad_fn is None:
        return None
    return (type(grad_fn).__name__, tuple(graph(c) for c, _ in grad_fn.next_functions))


@pytest.mark.parametrize("make,dim", [(lambda nn: nn.Linear(3, 4), 0), (lambda nn: nn.Linear(3, 4), 1),
                                      (lambda nn: nn.Conv2d(2, 3, 3), 0), (lambda nn: nn.Conv2d(2, 3, 3), 2),
                                      (lambda nn: nn.Linear(3, 4), None)])
def test_weight_norm_layers_as_torch(make, dim):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        layer = lib.nn.utils.parametrizations.weight_norm(make(lib.nn), dim=dim)
        x = lib.randn(2, *((3,) if isinstance(layer, lib.nn.Linear) else (2, 5, 5)))
        y = layer(x)
        weight_graph = graph(layer.weight.grad_fn)
        y.pow(2).sum().backward()
        g = layer.parametrizations.weight.original0
        v = layer.parametrizations.weight.original1
        seen.append((repr(layer), [n for n, _ in layer.named_parameters()], weight_graph,
                     tuple(g.shape), y.detach().numpy(), g.grad.numpy(), v.grad.numpy()))
    assert seen[0][:4] == seen[1][:4]
    for ours, theirs in zip(seen[0][4:], seen[1][4:]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_norm_except_dim_and_weight_norm_functions(dim):
    torch = import_torch()
    array = np.random.default_rng(0).standard_normal((3, 4, 2))
    seen = []
    for lib in (minigrad, torch):
        v = lib.tensor(array, requires_grad=True)
        norms = lib.norm_except_dim(v, 2, dim)
        g = lib.tensor(np.random.default_rng(1).standard_normal(tuple(norms.shape)), requires_grad=True)
        w = lib._weight_norm(v, g, dim)
        w.pow(3).sum().backward()
        seen.append((norms.detach().numpy(), w.detach().numpy(), v.grad.numpy(), g.grad.numpy(),
                     graph(w.grad_fn)))
    assert seen[0][4] == seen[1][4]
    for ours, theirs in zip(seen[0][:4], seen[1][:4]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_weight_norm_gradcheck(dim):
    # (no gradgradcheck for dims 0 and last: PyTorch's second derivative there takes the saved
    # norms as constants, so its own gradgradcheck fails, and so does minigrad's)
    rng = np.random.default_rng(2)
    v = minigrad.tensor(rng.standard_normal((3, 4)), requires_grad=True)
    g = minigrad.tensor(rng.standard_normal((3, 1) if dim == 0 else (1, 4) if dim == 1 else ()),
                        requires_grad=True)
    assert gradcheck(lambda a, b: minigrad._weight_norm(a, b, dim), (v, g))
    if dim == -1:
        assert gradgradcheck(lambda a, b: minigrad._weight_norm(a, b, dim), (v, g))
