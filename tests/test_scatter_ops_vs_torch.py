"""aminmax, logcumsumexp, select_scatter, slice_scatter, diagonal_scatter, narrow_copy vs PyTorch:
values, dtypes, grad_fn names and edges, saved values, gradients (first and second order), errors."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck


def _both(torch, array, requires_grad=True):
    """The same float64 tensor in minigrad and in PyTorch."""
    return (minigrad.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def _same(mine, theirs):
    assert str(mine.dtype) == str(theirs.dtype)
    assert tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-12, atol=1e-12)


def _saved(node):
    return {name: getattr(node, name) for name in dir(node) if name.startswith("_saved_")}


def _same_saved(mine, theirs):
    m, t = _saved(mine), _saved(theirs)
    assert sorted(m) == sorted(t)
    for name in t:
        if hasattr(t[name], "shape"):
            _same(m[name], t[name])
        else:
            assert m[name] == t[name], name


def _raises_same(torch, call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as mine:
        call(minigrad)
    assert str(mine.value) == str(theirs.value)


def _names_of_edges(node):
    return [(None if n is None else type(n).__name__ if not hasattr(n, "name") else n.name(), nr)
            for n, nr in node.next_functions]


# --- aminmax -------------------------------------------------------------------------------

TIES = np.array([[1., 3., 3., 1.], [2., 2., 2., 2.], [0., -1., 5., 4.]])


@pytest.mark.parametrize("kwargs", [{}, {"dim": 1}, {"dim": -1, "keepdim": True}, {"dim": 0},
                                    {"keepdim": True}])
def test_aminmax_values_nodes_saved_and_grads(torch, kwargs):
    mx, tx = _both(torch, TIES)
    mine, theirs = minigrad.aminmax(mx, **kwargs), torch.aminmax(tx, **kwargs)
    assert repr(type(theirs).__name__) == repr(type(mine).__name__.replace("return_types_", ""))
    for m, t in ((mine.min, theirs.min), (mine.max, theirs.max)):
        _same(m, t)
        assert m.grad_fn.name() == t.grad_fn.name() == "AminmaxBackward0"
    assert mine.max.grad_fn is mine.min.grad_fn
    assert _names_of_edges(mine.min.grad_fn) == _names_of_edges(theirs.min.grad_fn)
    _same_saved(mine.min.grad_fn, theirs.min.grad_fn)
    weights = np.arange(1., 1 + theirs.min.numel()).reshape(theirs.min.shape)
    (mine.min * minigrad.tensor(weights) + mine.max * 100).sum().backward()
    (theirs.min * torch.tensor(weights) + theirs.max * 100).sum().backward()
    _same(mx.grad, tx.grad)


def test_aminmax_one_result_used_and_method(torch):
    mx, tx = _both(torch, TIES)
    mx.aminmax(dim=0).max.sum().backward()
    tx.aminmax(dim=0).max.sum().backward()
    _same(mx.grad, tx.grad)
    assert repr(minigrad.aminmax(minigrad.tensor([1, 5, 2]))) == repr(torch.aminmax(torch.tensor([1, 5, 2])))


def test_aminmax_gradcheck():
    x = minigrad.tensor(np.random.default_rng(0).standard_normal((3, 4)), requires_grad=True)
    assert gradcheck(lambda t: minigrad.aminmax(t, dim=1), (x,))
    assert gradgradcheck(lambda t: minigrad.aminmax(t, dim=0, keepdim=True), (x,))
    assert gradcheck(lambda t: minigrad.aminmax(t), (x,))


@pytest.mark.parametrize("call", [
    lambda t: t.aminmax(t.empty(0)),
    lambda t: t.aminmax(t.empty(2, 0), dim=1),
    lambda t: t.aminmax(t.ones(2, 3), dim=2),
])
def test_aminmax_errors(torch, call):
    _raises_same(torch, call)


# --- logcumsumexp ---------------------------------------------------------------------------

@pytest.mark.parametrize("array, dim", [
    (np.array([[1., 3., -2., 1.], [2., 700., 2., 2.]]), -1),
    (np.array([[1., 3., -2., 1.], [2., 700., 2., 2.]]), 0),
    (np.array([-np.inf, 1., 2.]), 0),
    (np.array(2.5), 0),
    (np.ones((1, 3)), 0),
])
def test_logcumsumexp_values_saved_and_grads(torch, array, dim):
    mx, tx = _both(torch, array)
    mine, theirs = minigrad.logcumsumexp(mx, dim), torch.logcumsumexp(tx, dim)
    _same(mine, theirs)
    assert mine.grad_fn.name() == theirs.grad_fn.name() == "LogcumsumexpBackward0"
    assert _names_of_edges(mine.grad_fn) == _names_of_edges(theirs.grad_fn)
    _same_saved(mine.grad_fn, theirs.grad_fn)
    weights = np.arange(-1., theirs.numel() - 1.).reshape(theirs.shape)
    (mg,) = minigrad.autograd.grad((mine * minigrad.tensor(weights)).sum(), mx, create_graph=True)
    (tg,) = torch.autograd.grad((theirs * torch.tensor(weights)).sum(), tx, create_graph=True)
    _same(mg, tg)
    assert (mg.grad_fn is None) == (tg.grad_fn is None)
    if tg.grad_fn is not None:
        assert mg.grad_fn.name() == tg.grad_fn.name()


def test_logcumsumexp_special_values_and_method(torch):
    values = [-np.inf, -np.inf, 1., np.inf, np.nan]
    _same(minigrad.tensor(values).logcumsumexp(0), torch.tensor(values).logcumsumexp(0))


def test_logcumsumexp_gradcheck():
    x = minigrad.tensor(np.random.default_rng(1).standard_normal((3, 4)), requires_grad=True)
    assert gradcheck(lambda t: minigrad.logcumsumexp(t, 0), (x,))
    assert gradgradcheck(lambda t: t.logcumsumexp(-1), (x,))


@pytest.mark.parametrize("call", [
    lambda t: t.logcumsumexp(t.tensor([1, 2]), 0),
    lambda t: t.logcumsumexp(t.tensor([True]), 0),
    lambda t: t.logcumsumexp(t.ones(2), 1),
    lambda t: t.logcumsumexp(t.ones(2)),
])
def test_logcumsumexp_errors(torch, call):
    _raises_same(torch, call)
