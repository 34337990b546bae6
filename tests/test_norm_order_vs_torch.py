"""The 2-norm over the last dims of contiguous memory adds its squares in PyTorch's order
(its vector loop's lanes, then the numbers left over), so norms, normalize, pairwise
distances and the losses built on them agree with PyTorch to the last bit."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch

SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17, 31, 33, 100, 1007]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("size", SIZES)
def test_two_norm_of_rows_to_the_last_bit(size, dtype):
    torch = import_torch()
    rows = np.random.default_rng(size).standard_normal((64, size)).astype(dtype)
    for call in (lambda L, x: x.norm(2, 1), lambda L, x: L.linalg.vector_norm(x),
                 lambda L, x: L.linalg.vector_norm(x.reshape(8, 8, size), dim=(-2, -1), keepdim=True),
                 lambda L, x: L.nn.functional.normalize(x, dim=-1),
                 lambda L, x: L.nn.functional.pairwise_distance(x, x.flip(0))):
        ours = call(minigrad, minigrad.tensor(rows)).numpy()
        theirs = call(torch, torch.tensor(rows)).numpy()
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("size", [3, 13])
def test_gradient_through_the_norm_to_the_last_bit(size):
    torch = import_torch()
    rows = np.random.default_rng(size).standard_normal((6, size))
    grads = []
    for lib in (minigrad, torch):
        x = lib.tensor(rows, requires_grad=True)
        (x.norm(dim=1) * lib.tensor(np.linspace(-1, 1, 6))).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(*grads)


def _graph(fn):
    """A backward graph as nested (name, children) tuples, read through next_functions."""
    if fn is None:
        return None
    return type(fn).__name__, tuple(_graph(child) for child, _ in fn.next_functions)


@pytest.mark.parametrize("dim", [None, 1])
@pytest.mark.parametrize("p", [2, 1, 3, 0.5, float("inf")])
def test_gradient_of_a_norm_computed_in_float64(p, dim):
    # (norm(x, dtype=float64) of float32 x: PyTorch's formula promotes as anywhere, so a 0-d
    # norm leaves the steps in float32 and one over a dim makes them float64; the engine casts
    # the gradient to float32 last, which create_graph records as a ToCopyBackward0 on top)
    torch = import_torch()
    values = np.random.default_rng(7).standard_normal((2, 3)).astype(np.float32)
    seen = []
    for lib in (minigrad, torch):
        x = lib.tensor(values, requires_grad=True)
        norm = lib.linalg.vector_norm(x, p, dim=dim, dtype=lib.float64)
        (grad,) = lib.autograd.grad(norm.sum(), x, create_graph=True)
        (second,) = lib.autograd.grad(grad.pow(2).sum(), x)
        seen.append((str(grad.dtype), _graph(grad.grad_fn), grad.detach().numpy(),
                     second.numpy(force=True)))     # (p = 1, inf: sgn's ZeroTensor)
    (ours_dtype, ours_graph, ours, ours_second), (dtype, graph, theirs, theirs_second) = seen
    assert (ours_dtype, ours_graph) == (dtype, graph)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    np.testing.assert_allclose(ours_second, theirs_second, rtol=1e-5, atol=1e-6)
