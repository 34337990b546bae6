"""What a batched tensor shows inside vmap, compared with PyTorch.

PyTorch hands the function of a vmap BatchedTensors: wrappers around the tensor of the
whole batch. The wrapper is in no graph (requires_grad=False, grad_fn=None, is_leaf=True)
although the graph outside the vmap is recorded all the same. Here: those flags, the
errors that follow from them, the gradients of transforms composed with vmap, PyTorch's
"performance drop" warnings, and what printing a batched tensor shows.
"""
import re
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _flags(t):
    return (t.requires_grad, type(t.grad_fn).__name__ if t.grad_fn is not None else None, t.is_leaf)


# expressions of xi (a sample of x, which requires grad outside), c (captured, requires grad)
FLAG_EXPRESSIONS = ["xi", "xi * 2", "(xi * 2).sum()", "c * 2", "xi * c", "xi.detach()", "xi[0]",
                    "xi.exp().view(3, 1)", "L.zeros_like(xi)", "xi.clone().mul_(c)"]


def _flags_in_vmap(L):
    x = L.arange(6.0).reshape(2, 3).requires_grad_()
    c = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = {}

    def f(xi):
        for expression in FLAG_EXPRESSIONS:
            seen[expression] = _flags(eval(expression, {"L": L, "xi": xi, "c": c}))
        return xi * c
    out = L.func.vmap(f)(x)
    return seen, out.requires_grad


def test_batched_tensors_show_no_graph():
    torch = import_torch()
    assert _flags_in_vmap(minigrad) == _flags_in_vmap(torch)


def _nested_flags(L, how):
    """Flags seen inside compositions of vmap with other transforms (x does not require grad)."""
    x = L.arange(6.0).reshape(2, 3)
    p = L.tensor([1.0, 2.0, 3.0])
    seen = []

    def show(*tensors):
        seen.append([_flags(t) for t in tensors])
    if how == "vmap(grad)":
        def body(xi):
            b = xi * 3

            def g(z):
                show(z * xi, b * 1, xi, z * 2)
                return (z * xi).sum()
            r = L.func.grad(g)(p)
            show(r, b)
            return r
        L.func.vmap(body)(x)
    elif how == "grad(vmap)":
        def h(q):
            def body(xi):
                show(xi, xi * q, q * 2)
                return (xi * q).sum()
            return L.func.vmap(body)(x).sum()
        L.func.grad(h)(p)
    elif how == "vmap(vmap)":
        def body(xi):
            a = xi * 2

            def inner(e):
                show(e, a, e * a)
                return e * a
            return L.func.vmap(inner)(xi)
        L.func.vmap(body)(x.reshape(2, 3, 1).expand(2, 3, 2))
    elif how == "vmap(vjp)":
        def body(xi):
            o, fn = L.func.vjp(lambda z: z * xi, p)
            (g,) = fn(L.ones(3))
            show(o, g)
            return g
        L.func.vmap(body)(x)
    return seen[:1] + seen[-1:]


@pytest.mark.parametrize("how", ["vmap(grad)", "grad(vmap)", "vmap(vmap)", "vmap(vjp)"])
def test_flags_in_compositions(how):
    torch = import_torch()
    assert _nested_flags(minigrad, how) == _nested_flags(torch, how)


def _outcome(run):
    try:
        out = run()
    except Exception as error:          # noqa: BLE001 (the error is the outcome)
        return type(error).__name__, str(error).split("\nminigrad hint:")[0]
    if isinstance(out, (tuple, list)):
        out = out[0]
    return "ok", np.round(np.asarray(out.detach().numpy()), 5).tolist()


# what the function tries with a batched tensor y (made from x, which requires grad)
INSIDE = {
    "autograd_grad_of_batched": lambda L, x, xi, y: L.autograd.grad(y.sum(), x),
    "autograd_grad_wrt_sample": lambda L, x, xi, y: L.autograd.grad(y.sum(), xi),
    "retain_grad": lambda L, x, xi, y: y.retain_grad(),
    "register_hook": lambda L, x, xi, y: y.register_hook(lambda g: g),
    "requires_grad_false": lambda L, x, xi, y: setattr(y, "requires_grad", False),
    "backward": lambda L, x, xi, y: y.sum().backward(),
    "grad_attribute": lambda L, x, xi, y: y.grad,
}


@pytest.mark.parametrize("name", list(INSIDE))
def test_autograd_on_batched_tensor_matches_torch(name):
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        x = L.arange(6.0).reshape(2, 3).requires_grad_()
        result = {}

        def f(xi):
            y = xi * 2
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    value = INSIDE[name](L, x, xi, y)
                    result["outcome"] = "ok", value is None       # (values of y can't be read here)
                except Exception as error:     # noqa: BLE001 (the error is the outcome)
                    result["outcome"] = type(error).__name__, str(error).split("\nminigrad hint:")[0]
            result["warnings"] = [str(w.message) for w in caught]
            return y
        L.func.vmap(f)(x)
        outcomes.append(result)
    assert outcomes[0] == outcomes[1]


# the gradients outside: vmap composed with the other transforms and with backward
COMPOSITIONS = {
    "backward_through_vmap": lambda L, x, p: _backward(L.func.vmap(lambda xi: (xi * p).exp())(x), x, p),
    "vmap_of_grad": lambda L, x, p: L.func.vmap(L.func.grad(lambda xi: (xi * p).sin().sum()))(x),
    "vmap_of_grad_then_backward": lambda L, x, p: _backward(
        L.func.vmap(L.func.grad(lambda q, xi: (xi * q).sin().sum()), in_dims=(None, 0))(p, x), x, p),
    "grad_of_vmap": lambda L, x, p: L.func.grad(
        lambda q: L.func.vmap(lambda xi: (xi * q).tanh().sum())(x).sum())(p),
    "jacrev_of_vmap": lambda L, x, p: L.func.jacrev(lambda q: L.func.vmap(lambda xi: xi * q * q)(x))(p),
    "vmap_of_jacrev": lambda L, x, p: L.func.vmap(L.func.jacrev(lambda xi: xi.exp() * p))(x),
    "vjp_of_vmap": lambda L, x, p: L.func.vjp(
        lambda q: L.func.vmap(lambda xi: xi * q.exp())(x), p)[1](L.ones(2, 3)),
    "vmap_of_vjp": lambda L, x, p: L.func.vmap(
        lambda xi: L.func.vjp(lambda q: (q * xi).cos(), p)[1](L.ones(3)))(x),
    "vmap_of_grad_with_outer_graph": lambda L, x, p: _backward(
        L.func.vmap(L.func.grad(lambda xi: (xi * xi * p).sum()))(x), x, p),
    "vmap_of_vmap_backward": lambda L, x, p: _backward(
        L.func.vmap(lambda xi: L.func.vmap(lambda e: e * p[0])(xi))(x), x, p),
}


def _backward(out, *leaves):
    out.pow(2).sum().backward()
    return tuple(leaf.grad for leaf in leaves if leaf.requires_grad)


@pytest.mark.parametrize("name", list(COMPOSITIONS))
@pytest.mark.parametrize("x_requires_grad", [False, True])
def test_compositions_give_torchs_gradients(name, x_requires_grad):
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        x = L.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], requires_grad=x_requires_grad)
        p = L.tensor([1.0, -2.0, 0.5], requires_grad=True)
        outcomes.append(_outcome(lambda: COMPOSITIONS[name](L, x, p)))
    assert outcomes[0] == outcomes[1]
