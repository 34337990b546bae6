"""local_response_norm / LocalResponseNorm and gumbel_softmax against PyTorch: values and
gradients to the last bit where their operations are (float64), the graph node by node,
the random numbers of gumbel_softmax, gradcheck, errors and printing."""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch


def graph(grad_fn):
    if grad_fn is None:
        return None
    return (type(grad_fn).__name__, tuple(graph(c) for c, _ in grad_fn.next_functions))


PROGRAMS = {
    "lrn_3d": (lambda L, x: L.nn.functional.local_response_norm(x, 3), (2, 5, 4)),
    "lrn_4d": (lambda L, x: L.nn.functional.local_response_norm(x, 2, alpha=0.1, beta=0.5, k=2.0), (2, 4, 3, 3)),
    "lrn_5d": (lambda L, x: L.nn.LocalResponseNorm(4)(x), (1, 6, 2, 2, 3)),
    "gumbel": (lambda L, x: L.nn.functional.gumbel_softmax(x, tau=0.5), (3, 5)),
    "gumbel_hard": (lambda L, x: L.nn.functional.gumbel_softmax(x, hard=True, dim=0), (3, 5)),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_values_graph_and_gradients_as_torch(name, dtype):
    torch = import_torch()
    program, shape = PROGRAMS[name]
    array = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    seen = []
    for lib in (minigrad, torch):
        lib.manual_seed(3)
        x = lib.tensor(array, requires_grad=True)
        y = program(lib, x)
        recorded = graph(y.grad_fn)
        (y * lib.tensor(np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)).astype(dtype))).sum().backward()
        seen.append((y.detach().numpy(), recorded, x.grad.numpy()))
    assert seen[0][1] == seen[1][1]
    # pow and exp/log are PyTorch's vector math (README): to rounding
    rtol = 1e-5 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(seen[0][0], seen[1][0], rtol=rtol, atol=rtol)
    np.testing.assert_allclose(seen[0][2], seen[1][2], rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name", ["lrn_3d", "lrn_4d"])
def test_gradcheck(name):
    program, shape = PROGRAMS[name]
    x = minigrad.tensor(np.random.default_rng(1).standard_normal(shape), requires_grad=True)
    assert gradcheck(lambda t: program(minigrad, t), (x,))
    assert gradgradcheck(lambda t: program(minigrad, t), (x,))


def test_errors_warnings_and_printing_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        with pytest.raises(ValueError) as caught:
            lib.nn.functional.local_response_norm(lib.ones(2, 3), 2)
        with warnings.catch_warnings(record=True) as caught_warnings:
            warnings.simplefilter("always")
            lib.nn.functional.gumbel_softmax(lib.ones(2, 3), eps=1e-3)
        empty = lib.nn.functional.local_response_norm(lib.ones(0, 3, 2), 2)
        seen.append((str(caught.value), [str(w.message) for w in caught_warnings],
                     repr(lib.nn.LocalResponseNorm(3, k=2)), tuple(empty.shape)))
    assert seen[0] == seen[1]
