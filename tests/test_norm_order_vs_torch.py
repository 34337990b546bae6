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
