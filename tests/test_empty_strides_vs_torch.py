"""stride() of tensors with no elements, as PyTorch reports it: a new empty tensor is
row-major (a size-0 dim counting as 1), and views of it (transpose, permute, slices,
expand) step as PyTorch's views do."""
import pytest

import minigrad

from conftest import import_torch

PROGRAMS = {
    "zeros(0,3)": lambda L: L.zeros(0, 3), "zeros(2,0,3)": lambda L: L.zeros(2, 0, 3),
    "zeros(3,0)": lambda L: L.zeros(3, 0), "zeros((0,))": lambda L: L.zeros((0,)),
    "zeros(0,0)": lambda L: L.zeros(0, 0), "zeros(1,0,1)": lambda L: L.zeros(1, 0, 1),
    "empty(0,2)": lambda L: L.empty(0, 2), "ones(0,2,2)": lambda L: L.ones(0, 2, 2),
    "randn(0,2,2)": lambda L: L.randn(0, 2, 2), "full": lambda L: L.full((2, 0), 1.0),
    "tensor([])": lambda L: L.tensor([]), "tensor([[]])": lambda L: L.tensor([[]]),
    "permute": lambda L: L.ones(2, 0, 3).permute(2, 0, 1), "t(0,3)": lambda L: L.zeros(0, 3).t(),
    "t(3,0)": lambda L: L.zeros(3, 0).t(), "T": lambda L: L.zeros(3, 0).T, "mT": lambda L: L.zeros(2, 0, 3).mT,
    "expand rows": lambda L: L.zeros(1, 3).expand(0, 3), "expand columns": lambda L: L.zeros(2, 1).expand(2, 0),
    "slice rows": lambda L: L.zeros(4, 3)[2:2], "slice columns": lambda L: L.zeros(4, 3)[:, 1:1],
    "slice with step": lambda L: L.zeros(4, 3)[::2, 3:], "slice 3d": lambda L: L.zeros(2, 3, 4)[:, 1:1],
    "narrow": lambda L: L.zeros(5, 4).narrow(0, 2, 0), "select": lambda L: L.zeros(2, 0, 3)[0],
    "reshape": lambda L: L.zeros(0, 6).reshape(0, 2, 3), "view": lambda L: L.zeros(0, 6).view(3, 0, 2),
    "unsqueeze": lambda L: L.zeros(0, 3).unsqueeze(1), "squeeze": lambda L: L.zeros(0, 1, 3).squeeze(1),
    "detach of transpose": lambda L: L.zeros(0, 3).t().detach(),
    "contiguous of transpose": lambda L: L.zeros(0, 3).t().contiguous(),
    "empty_like": lambda L: L.empty_like(L.zeros(2, 0, 3)), "add": lambda L: L.zeros(2, 0, 3) + 1,
    "sum": lambda L: L.zeros(2, 0, 3).sum(0), "cat": lambda L: L.cat([L.zeros(0, 3), L.zeros(0, 3)]),
    "stack": lambda L: L.stack([L.zeros(0, 3)]), "arange(0)": lambda L: L.arange(0),
    "matmul": lambda L: L.zeros(0, 3) @ L.zeros(3, 4), "matmul inner 0": lambda L: L.zeros(2, 0) @ L.zeros(0, 4),
}


def _layout(L, name):
    t = PROGRAMS[name](L)
    return tuple(t.shape), t.stride(), t.is_contiguous()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_stride_of_an_empty_tensor_as_torch(name):
    torch = import_torch()
    assert _layout(minigrad, name) == _layout(torch, name)


def test_an_empty_tensor_still_takes_values_and_gradients():
    w = minigrad.zeros(0, 3, requires_grad=True)
    (w.t() * 2).sum().backward()
    assert w.grad.shape == (0, 3) and w.grad.stride() == (3, 1)
    x = minigrad.tensor([])
    x.add_(1)
    assert x.tolist() == [] and x.numpy().shape == (0,)


# zeros_like / ones_like / empty_like keep the input's layout (PyTorch's preserve_format)
LIKE_INPUTS = {
    "transposed": lambda L: L.zeros(2, 3).t(), "permuted": lambda L: L.zeros(2, 3, 4).permute(2, 0, 1),
    "stepped": lambda L: L.zeros(4, 3)[:, ::2], "stepped_transposed": lambda L: L.zeros(4, 6)[:, ::2].t(),
    "stepped_permuted": lambda L: L.zeros(4, 6, 2)[:, ::2].permute(2, 0, 1),
    "size_one_dim_stepped": lambda L: L.zeros(5, 3)[::5], "empty_transposed": lambda L: L.zeros(0, 3).t(),
    "expanded": lambda L: L.zeros(1, 3).expand(2, 3), "expanded_transposed": lambda L: L.zeros(3, 1).expand(3, 2).t(),
    "plain": lambda L: L.zeros(2, 3),
}
LIKES = {
    "zeros_like": lambda L, x: L.zeros_like(x), "ones_like": lambda L, x: L.ones_like(x),
    "empty_like": lambda L, x: L.empty_like(x), "zeros_like_float64": lambda L, x: L.zeros_like(x, dtype=L.float64),
    "ones_like_requires_grad": lambda L, x: L.ones_like(x, requires_grad=True),
}


@pytest.mark.parametrize("like", sorted(LIKES))
@pytest.mark.parametrize("name", sorted(LIKE_INPUTS))
def test_like_keeps_the_inputs_layout_as_torch(name, like):
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        out = LIKES[like](L, LIKE_INPUTS[name](L))
        values = None if like == "empty_like" else out.tolist()
        outcomes.append((tuple(out.shape), out.stride(), out.requires_grad, values))
    assert outcomes[0] == outcomes[1]
