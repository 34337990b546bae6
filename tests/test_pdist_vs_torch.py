"""F.pdist / torch.pdist against PyTorch: values, the node and its saved values, gradients for
every kind of p, the second-order node that refuses, gradcheck and the errors."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck

from conftest import import_torch

PS = [2, 1, 0, float("inf"), 0.5, 1.5, 3]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("p", PS)
def test_values_node_and_gradients_as_torch(p, dtype):
    torch = import_torch()
    array = np.random.default_rng(0).standard_normal((5, 3)).astype(dtype)
    array[3] = array[1]                     # a zero distance
    seen = []
    for lib in (minigrad, torch):
        x = lib.tensor(array, requires_grad=True)
        y = lib.pdist(x, p)
        node = y.grad_fn
        shown = (type(node).__name__, node._saved_p, tuple(node._saved_self.shape), tuple(node._saved_result.shape))
        (y * lib.tensor(np.linspace(-1, 1, y.numel()).astype(dtype))).sum().backward()
        seen.append((y.detach().numpy(), shown, x.grad.numpy()))
    assert seen[0][1] == seen[1][1]
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(seen[0][0], seen[1][0], rtol=rtol, atol=rtol)
    np.testing.assert_allclose(seen[0][2], seen[1][2], rtol=rtol, atol=rtol)


def test_second_order_is_refused_as_torch():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        x = lib.tensor(np.random.default_rng(1).standard_normal((4, 3)), requires_grad=True)
        (grad,) = lib.autograd.grad(lib.pdist(x).sum(), x, create_graph=True)
        edges = [None if c is None else type(c).__name__ for c, _ in grad.grad_fn.next_functions]
        with pytest.raises(NotImplementedError) as caught:
            grad.sum().backward()
        seen.append((type(grad.grad_fn).__name__, edges, str(caught.value)))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("p", [2, 1.5, 3, float("inf")])
def test_gradcheck(p):
    x = minigrad.tensor(np.random.default_rng(2).standard_normal((4, 3)), requires_grad=True)
    assert gradcheck(lambda t: minigrad.pdist(t, p), (x,))


BAD = {
    "1d": lambda L: L.pdist(L.randn(3)),
    "negative_p": lambda L: L.pdist(L.randn(3, 2), -1),
    "integers": lambda L: L.pdist(L.ones(3, 2, dtype=L.long)),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_errors_as_torch(name):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        with pytest.raises(RuntimeError) as caught:
            BAD[name](lib)
        outcomes.append(str(caught.value))
    assert outcomes[0] == outcomes[1]


def test_one_or_no_rows_give_no_distances():
    torch = import_torch()
    for rows in (0, 1):
        shapes = [tuple(lib.pdist(lib.ones(rows, 2)).shape) for lib in (minigrad, torch)]
        assert shapes[0] == shapes[1]


def test_a_strided_input_is_made_contiguous_first_as_torch():
    """PyTorch computes pdist from input.contiguous(): a strided view records CloneBackward0,
    which the saved input is the result of."""
    torch = import_torch()
    graphs = []
    for lib in (torch, minigrad):
        x = lib.tensor(np.arange(24.0).reshape(4, 6), requires_grad=True)
        for view in (x[:, ::2], x.t(), x):
            node = lib.nn.functional.pdist(view).grad_fn
            graphs.append([node.name(), [n.name() for n, _ in node.next_functions],
                           node._saved_self.is_contiguous()])
    assert graphs[:3] == graphs[3:]
