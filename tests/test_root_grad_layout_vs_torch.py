"""w.backward(g) on a leaf w: PyTorch copies g into w.grad laid out like w (its gradient
layout contract), with w's very strides, those of size-1 dims too, when w's elements fill
one block of memory; row-major otherwise. minigrad gives the same .grad.stride()."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch

LEAVES = {
    "transposed_row": lambda L: L.zeros(3, 1).t(),
    "transposed_column": lambda L: L.zeros(1, 3).t(),
    "stepped_row": lambda L: L.zeros(5, 3)[::5],
    "stepped_row_transposed": lambda L: L.zeros(5, 3)[::5].t(),
    "column_of_matrix": lambda L: L.zeros(3, 4)[:, 1:2],
    "stepped_first_dim": lambda L: L.zeros(10, 2, 3)[::10],
    "stepped_middle_dim": lambda L: L.zeros(2, 10, 3)[:, ::10],
    "stepped_then_permuted": lambda L: L.zeros(3, 10, 2)[:, ::10].permute(2, 1, 0),
    "permuted": lambda L: L.zeros(3, 1, 2).permute(2, 1, 0),
    "unsqueezed": lambda L: L.zeros(3).unsqueeze(0),
    "transposed_unsqueezed": lambda L: L.zeros(2, 3).t().unsqueeze(1),
    "stepped_one_by_one": lambda L: L.zeros(5, 9)[::5, ::9],
    "stepped_one": lambda L: L.zeros(4)[::4],
    "plain": lambda L: L.zeros(2, 3),
}

GRADS = {
    "contiguous": lambda L, shape: L.arange(float(np.prod(shape))).reshape(shape),
    "reversed_dims": lambda L, shape: L.arange(float(np.prod(shape))).reshape(
        tuple(reversed(shape))).permute(*reversed(range(len(shape)))),
    "stepped": lambda L, shape: L.ones(*[2 * n for n in shape])[tuple(slice(None, None, 2) for _ in shape)],
    "expanded": lambda L, shape: L.ones(()).expand(shape),
}


def _grad_of_root(L, leaf_name, grad_name, twice):
    w = LEAVES[leaf_name](L).detach().requires_grad_()
    g = GRADS[grad_name](L, tuple(w.shape))
    w.backward(g)
    if twice:
        w.backward(g)
    return w.stride(), w.grad.stride(), w.grad.tolist()


@pytest.mark.parametrize("twice", [False, True])
@pytest.mark.parametrize("grad_name", sorted(GRADS))
@pytest.mark.parametrize("leaf_name", sorted(LEAVES))
def test_grad_of_a_leaf_that_is_the_root_is_laid_out_as_torch(leaf_name, grad_name, twice):
    torch = import_torch()
    assert _grad_of_root(minigrad, leaf_name, grad_name, twice) == _grad_of_root(
        torch, leaf_name, grad_name, twice)


@pytest.mark.parametrize("leaf_name", sorted(LEAVES))
def test_the_callers_gradient_is_not_the_grad(leaf_name):
    w = LEAVES[leaf_name](minigrad).detach().requires_grad_()
    g = minigrad.ones(w.shape)
    w.backward(g)
    g.add_(1)
    assert w.grad.tolist() == minigrad.ones(w.shape).tolist()
