"""F.bilinear / nn.Bilinear and torch._trilinear against PyTorch: the graph (ViewBackward0,
TrilinearBackward0 and its saved settings, AddBackward0), values and gradients, second order,
initial weights after manual_seed, gradcheck, errors and printing."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch


def graph(grad_fn):
    if grad_fn is None:
        return None
    saved = {k: getattr(grad_fn, k) for k in dir(grad_fn)
             if k.startswith("_saved_") and k not in ("_saved_i1", "_saved_i2", "_saved_i3", "_saved_self", "_saved_other")}
    return (type(grad_fn).__name__, saved, tuple(graph(c) for c, _ in grad_fn.next_functions))


def _arrays(dtype, batch=(5,)):
    rng = np.random.default_rng(0)
    return (rng.standard_normal(batch + (3,)).astype(dtype), rng.standard_normal(batch + (4,)).astype(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("batch", [(5,), (2, 3), ()])
@pytest.mark.parametrize("bias", [True, False])
def test_layer_values_graph_and_gradients_as_torch(bias, batch, dtype):
    torch = import_torch()
    a, b = _arrays(dtype, batch)
    seen = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        layer = lib.nn.Bilinear(3, 4, 2, bias=bias)
        if dtype == np.float64:
            layer = layer.double()
        x1, x2 = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        y = layer(x1, x2)
        recorded = graph(y.grad_fn)
        (y * y).sum().backward()
        seen.append((y.detach().numpy(), recorded, x1.grad.numpy(), x2.grad.numpy(),
                     layer.weight.grad.numpy(), layer.weight.detach().numpy()))
    assert seen[0][1] == seen[1][1]
    np.testing.assert_array_equal(seen[0][5], seen[1][5])          # the same initial weights
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    for ours, theirs in zip(seen[0][::2] + seen[0][3:5], seen[1][::2] + seen[1][3:5]):
        np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=rtol)


def test_second_order_graph_as_torch():
    torch = import_torch()
    a, b = _arrays(np.float64)
    w = np.random.default_rng(1).standard_normal((2, 3, 4))
    seen = []
    for lib in (minigrad, torch):
        x1, x2 = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        weight = lib.tensor(w, requires_grad=True)
        y = lib.nn.functional.bilinear(x1, x2, weight)
        (g1,) = lib.autograd.grad((y * y).sum(), x1, create_graph=True)
        recorded = graph(g1.grad_fn)
        g1.sum().backward()
        seen.append((recorded, weight.grad.numpy(), x2.grad.numpy()))
    assert seen[0][0] == seen[1][0]
    np.testing.assert_allclose(seen[0][1], seen[1][1], rtol=1e-12)
    np.testing.assert_allclose(seen[0][2], seen[1][2], rtol=1e-12)


def test_gradcheck_and_gradgradcheck():
    rng = np.random.default_rng(2)
    tensors = [minigrad.tensor(rng.standard_normal(s), requires_grad=True)
               for s in ((4, 3), (4, 2), (5, 3, 2), (5,))]
    assert gradcheck(minigrad.nn.functional.bilinear, tensors)
    assert gradgradcheck(minigrad.nn.functional.bilinear, tensors)


BAD = {
    "dims": lambda L, w: L.nn.functional.bilinear(L.ones(5, 3), L.ones(1, 5, 4), w),
    "batch": lambda L, w: L.nn.functional.bilinear(L.ones(5, 3), L.ones(4, 4), w),
    "input1": lambda L, w: L.nn.functional.bilinear(L.ones(5, 2), L.ones(5, 4), w),
    "input2": lambda L, w: L.nn.functional.bilinear(L.ones(5, 3), L.ones(5, 5), w),
    "bias": lambda L, w: L.nn.functional.bilinear(L.ones(5, 3), L.ones(5, 4), w, L.ones(3)),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_sizes_raise_as_torch(name):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        with pytest.raises(RuntimeError) as caught:
            BAD[name](lib, lib.ones(2, 3, 4))
        outcomes.append(str(caught.value))
    assert outcomes[0] == outcomes[1]


def test_printing_and_parameters_as_torch():
    torch = import_torch()
    made = [(repr(lib.nn.Bilinear(3, 4, 2, bias=False)),
             [(n, tuple(p.shape)) for n, p in lib.nn.Bilinear(3, 4, 2).named_parameters()])
            for lib in (minigrad, torch)]
    assert made[0] == made[1]
