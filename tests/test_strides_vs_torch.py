"""stride() of new results, compared with PyTorch over random shapes, layouts and operations.

PyTorch calls some of these steps meaningless (that of a size-1 dimension, or any step of a
tensor without elements), but prints them and programs can read them, so minigrad gives the
same: one-input operations keep their input's steps when its elements fill one block
(``x.t().unsqueeze(1).abs()``), or lay the result out channels-last; clone, ``.to`` and the
``*_like`` functions follow PyTorch's preserve_format; with a number or another broadcast
input, the result follows TensorIterator's order of dimensions, the steps of size-1 dims
included (``torch.zeros(0, 3).t() + 1``, ``torch.zeros(1, 2).t() + 1``). Reductions and
tensors without elements made from numpy data: tests/test_layout_vs_torch.py.
"""
import pytest
from hypothesis import given, settings, strategies as st

import minigrad

from conftest import import_torch

ONE_INPUT = {
    "abs": lambda L, x: x.abs(), "exp": lambda L, x: x.exp(), "neg": lambda L, x: -x,
    "relu": lambda L, x: x.relu(), "sigmoid": lambda L, x: x.sigmoid(), "tanh": lambda L, x: x.tanh(),
    "sin": lambda L, x: x.sin(), "sqrt": lambda L, x: x.sqrt(), "floor": lambda L, x: x.floor(),
    "clamp": lambda L, x: x.clamp(0, 1), "clamp_min": lambda L, x: x.clamp_min(0.5),
    "pow number": lambda L, x: x ** 2, "x + x": lambda L, x: x + x, "x * x": lambda L, x: x * x,
    "clone": lambda L, x: x.clone(), "contiguous": lambda L, x: x.contiguous(), "detach": lambda L, x: x.detach(),
    "double": lambda L, x: x.double(), "to float64": lambda L, x: x.to(L.float64),
    "empty_like": lambda L, x: L.empty_like(x), "zeros_like": lambda L, x: L.zeros_like(x),
    "ones_like": lambda L, x: L.ones_like(x), "x + contiguous": lambda L, x: x + L.zeros(*x.shape),
    "contiguous + x": lambda L, x: L.zeros(*x.shape) + x, "where": lambda L, x: L.where(x > 0, x, x),
}
# with a number, or another input broadcast: PyTorch orders the dims by their steps
WITH_A_NUMBER = {
    "+ 1": lambda L, x: x + 1, "* 2.0": lambda L, x: x * 2.0, "> 0": lambda L, x: x > 0,
    "1 - x": lambda L, x: 1 - x, "/ 2": lambda L, x: x / 2, "== 0": lambda L, x: x == 0,
    "** 2 (one input)": lambda L, x: x ** 2, "+ a 0-d tensor": lambda L, x: x + L.tensor(1.0),
    "* ones(1)": lambda L, x: x * L.ones(1), "where with a number": lambda L, x: L.where(x > 0, x, 1.0),
    "maximum of a 0-d tensor": lambda L, x: L.maximum(x, L.tensor(0.0)),
    "clamp (one input)": lambda L, x: x.clamp(0, 1),
}


def _build(L, shape, steps, order, unsqueeze_at):
    """zeros of ``shape``, sliced with ``steps``, permuted by ``order``, maybe unsqueezed."""
    x = L.zeros(*[size * step for size, step in zip(shape, steps)])
    x = x[tuple(slice(None, None, step) for step in steps)].permute(*order)
    return x if unsqueeze_at is None else x.unsqueeze(unsqueeze_at)


@st.composite
def layouts(draw, sizes=(0, 1, 1, 2, 3)):
    ndim = draw(st.integers(1, 4))
    shape = draw(st.lists(st.sampled_from(sizes), min_size=ndim, max_size=ndim))
    steps = draw(st.lists(st.sampled_from([1, 1, 2]), min_size=ndim, max_size=ndim))
    order = draw(st.permutations(range(ndim)))
    unsqueeze_at = draw(st.one_of(st.none(), st.integers(0, ndim)))
    return shape, steps, list(order), unsqueeze_at


def _strides(L, operation, layout):
    x = _build(L, *layout)
    return x.stride(), operation(L, x).stride()


def _compare(torch, operations, name, layout):
    theirs = _strides(torch, operations[name], layout)
    ours = _strides(minigrad, operations[name], layout)
    if ours[0] != theirs[0]:
        return          # (the input's own steps differ: a view's, not this operation's)
    assert ours[1] == theirs[1], (name, layout, theirs)


@settings(max_examples=300, deadline=None)
@given(layout=layouts(), name=st.sampled_from(sorted(ONE_INPUT)))
def test_strides_of_new_results_as_torch(layout, name):
    _compare(import_torch(), ONE_INPUT, name, layout)


@settings(max_examples=300, deadline=None)
@given(layout=layouts(sizes=(0, 1, 1, 2, 3)), name=st.sampled_from(sorted(WITH_A_NUMBER)))
def test_strides_of_results_with_a_number_as_torch(layout, name):
    _compare(import_torch(), WITH_A_NUMBER, name, layout)


@pytest.mark.parametrize("program", [
    lambda L: L.zeros(2, 3).t().unsqueeze(1).abs(), lambda L: L.zeros(0, 3).t() + 1,
    lambda L: L.zeros(3, 0).t() * 2.0, lambda L: L.zeros(4, 0, 3)[::2].permute(0, 2, 1) + 1,
    lambda L: L.zeros(2, 2, 2)[::2].permute(2, 1, 0).unsqueeze(0).exp(),      # channels-last
    lambda L: L.zeros(3, 2)[:, ::2].t().clone(), lambda L: L.zeros(0, 3).t().clone(),
    lambda L: L.zeros(2, 3).t().unsqueeze(1).double(), lambda L: L.zeros(1, 2).t() + 1,
    lambda L: L.zeros(2, 3).t().unsqueeze(1) * 2.0, lambda L: L.zeros(1, 2).t() > 0,
])
def test_examples_from_the_readme_as_torch(program):
    torch = import_torch()
    assert program(minigrad).stride() == program(torch).stride()
