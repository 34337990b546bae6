"""Batched matrix products of small matrices to the last bit, against real PyTorch.

PyTorch's bmm and baddbmm (so matmul of batches, and their gradients) compute products of
fewer than 400 multiply-adds per matrix (contraction x rows x columns) with a loop of their
own: each element adds its products first to last, rounding each step. minigrad follows that
loop (``_ops/linalg.small_batched_product``); numpy's BLAS adds in another order.
"""
import numpy as np
import pytest

import minigrad

PRODUCTS = {
    "bmm": lambda L, a, b, c: L.bmm(a, b),
    "matmul of batches": lambda L, a, b, c: L.matmul(a, b),
    "matmul broadcast over batches": lambda L, a, b, c: L.matmul(a.unsqueeze(0), b.unsqueeze(1)),
    "baddbmm": lambda L, a, b, c: L.baddbmm(c, a, b, beta=0.7, alpha=1.3),
    "baddbmm_": lambda L, a, b, c: c.clone().baddbmm_(a, b, alpha=-0.5),
    "gradient of bmm": lambda L, a, b, c: L.autograd.grad(L.bmm(a, b).mul(c).sum(), (a, b)),
    "second-order gradient of bmm": lambda L, a, b, c: L.autograd.grad(
        L.autograd.grad(L.bmm(a, b).pow(2).sum(), a, create_graph=True)[0].sum(), b),
}


@pytest.mark.parametrize("name", sorted(PRODUCTS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(12))
def test_small_batched_products_to_the_last_bit(torch, name, dtype, seed):
    rng = np.random.default_rng(seed)
    batch, rows, inner, columns = (int(n) for n in rng.integers(1, 8, 4))
    arrays = [rng.standard_normal(shape).astype(dtype) for shape in
              ((batch, rows, inner), (batch, inner, columns), (batch, rows, columns))]
    seen = []
    for L in (minigrad, torch):
        given = [L.tensor(a, requires_grad=True) for a in arrays]
        out = PRODUCTS[name](L, *given)
        seen.append([t.detach().numpy() for t in (out if isinstance(out, tuple) else (out,))])
    for mine, theirs in zip(*seen):
        np.testing.assert_array_equal(mine, theirs, strict=True)
