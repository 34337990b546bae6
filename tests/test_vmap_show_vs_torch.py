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


# --- PyTorch's "performance drop" warnings ---------------------------------------------------------

# operations of minigrad's API that PyTorch's vmap has no batching rule for, and a few that it has
WARNING_EXPRESSIONS = [
    "L.isclose(x, c)", "x.isclose(c)", "L.isclose(c, c) + x", "F.kl_div(x, c, reduction='batchmean')",
    "F.kl_div(x, c, reduction='sum', log_target=True)", "x.clone().clamp_(0.5)", "x.clone().clamp_(c)",
    "x.clone().clip_(0.5)", "x.clone().clip_(max=c)", "L.clamp_(x.clone(), 0.5)", "L.clip_(x.clone(), c)",
    "x.clone().pow_(c)", "x.clone().pow_(2)", "x.clone().square_()", "x.clone().negative_()",
    "x.clone().neg_()", "x.clone().fix_()", "x.clone().trunc_()", "L.square_(x.clone())",
    "L.negative_(x.clone())", "L.fix_(x.clone())",
    "x.clone().scatter_(0, L.tensor([0]), 2.)", "x.clone().scatter_(0, L.tensor([0]), x[:1])",
    "x.clone().scatter_(0, L.tensor([0]), 2., reduce='add')",
    "x.clone().scatter_(0, L.tensor([0]), x[:1], reduce='multiply')",
    "x.masked_fill(x > 1, c[0])", "c.masked_fill(x > 1, c[0])", "x.masked_fill(x > 1, 1.)",
    "x.clone().masked_fill_(x > 1, x[0])", "x.clone().masked_fill_(x > 1, 1.)", "c.clone().clamp_(x)",
    "c.masked_fill(c > 1, c[0]) + x", "x.clamp(0.5)", "x.exp()", "x.clone().clamp_min_(0.5)",
]

WARNING_PROGRAMS = {}
for _expression in WARNING_EXPRESSIONS:
    WARNING_PROGRAMS[_expression] = (lambda e: lambda L, c: L.func.vmap(
        lambda x: eval(e, {"L": L, "F": L.nn.functional, "x": x, "c": c}))(L.rand(4, 3) + 0.2))(_expression)
    # inside grad, PyTorch splits some operations into smaller ones that have batching rules
    WARNING_PROGRAMS[_expression + " [vmap(grad)]"] = (lambda e: lambda L, c: L.func.vmap(L.func.grad(
        lambda x: (eval(e, {"L": L, "F": L.nn.functional, "x": x, "c": c}) * 1.0).sum()))(
        L.rand(4, 3) + 0.2))(_expression)
WARNING_PROGRAMS.update({
    # once per call of the operation at each level it is batched at
    "nested_both_levels": lambda L, c: L.func.vmap(L.func.vmap(lambda x: L.isclose(x, c)))(L.rand(4, 2, 3)),
    "nested_inner_level": lambda L, c: L.func.vmap(
        lambda y: L.func.vmap(lambda x: L.isclose(x, c) & (y > 0))(L.ones(2, 3)))(L.rand(4, 3)),
    "nested_outer_level": lambda L, c: L.func.vmap(
        lambda y: L.func.vmap(lambda x: L.isclose(y, c) & (x > 0))(L.ones(2, 3)))(L.rand(4, 3)),
    "nested_clamp_": lambda L, c: L.func.vmap(L.func.vmap(lambda x: x.clone().clamp_(0.5)))(L.rand(3, 3, 3)),
    "grad_of_vmap": lambda L, c: L.func.grad(
        lambda q: L.func.vmap(lambda x: (x * L.isclose(x, q)).sum())(L.rand(4, 3)).sum())(c),
    "twice": lambda L, c: L.func.vmap(lambda x: L.isclose(x, c) & L.isclose(x, c))(L.rand(4, 3)),
    # over an empty batch PyTorch's fallback warns, then refuses
    "empty_batch": lambda L, c: L.func.vmap(lambda x: L.isclose(x, c))(L.rand(0, 3)),
    "empty_batch_clamp_": lambda L, c: L.func.vmap(lambda x: x.clone().clamp_(0.5))(L.rand(0, 3)),
    "empty_inner_batch": lambda L, c: L.func.vmap(
        lambda y: L.func.vmap(lambda x: L.isclose(x, c))(L.ones(0, 3)) + y)(L.ones(2, 1)),
})


def _warnings_and_outcome(L, program):
    c = L.tensor([0.2, 0.3, 0.5])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            program(L, c)
            outcome = "ok"
        except Exception as error:       # noqa: BLE001 (the error is the outcome)
            outcome = type(error).__name__, str(error)
    shown = [(w.category.__name__, re.sub(r" \(Triggered internally at [^)]*\.\)", "", str(w.message)))
             for w in caught if "performance drop" in str(w.message)]
    return shown, outcome


@pytest.mark.parametrize("name", list(WARNING_PROGRAMS))
def test_performance_drop_warnings_match_torch(name):
    torch = import_torch()
    ours = _warnings_and_outcome(minigrad, WARNING_PROGRAMS[name])
    theirs = _warnings_and_outcome(torch, WARNING_PROGRAMS[name])
    assert ours == theirs


def test_performance_drop_warning_points_at_the_learners_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minigrad.func.vmap(lambda x: minigrad.isclose(x, x))(minigrad.ones(2, 3))
    assert [w.filename for w in caught] == [__file__]


# --- printing a batched tensor -------------------------------------------------------------------
# PyTorch prints BatchedTensor(lvl=1, bdim=0, value=<the whole batch>), with the value's graph.
# minigrad's vmap hands the function the whole batch too, and prints it the same way.

def _printed(L, run):
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run(L)
    return out.getvalue()


def test_printing_a_batched_tensor_shows_the_whole_batch_as_torch():
    torch = import_torch()

    def run(L):
        x = L.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
        L.func.vmap(lambda xi: print(xi * 2) or print(xi) or xi)(x)
        L.func.vmap(lambda xi: print(xi.exp()) or xi, in_dims=1)(x)
    theirs = _printed(torch, run)
    assert theirs.startswith("BatchedTensor(lvl=1, bdim=0, value=\n    tensor([[ 2.,  4.],")
    assert _printed(minigrad, run) == theirs


def test_printing_nested_batched_tensors_nests_as_torch():
    torch = import_torch()

    def run(L):
        L.func.vmap(lambda a: L.func.vmap(lambda b: print(b.exp()) or b)(a))(L.zeros(2, 3))
        L.func.vmap(lambda a: L.func.vmap(lambda b: print(b * a) or b, in_dims=1)(L.ones(3, 4)))(
            L.arange(3.0))
    assert _printed(minigrad, run) == _printed(torch, run)


def test_tensors_that_are_not_batched_print_as_usual_inside_vmap():
    c = minigrad.tensor([1.0, 2.0], requires_grad=True)
    text = _printed(minigrad, lambda L: L.func.vmap(lambda x: print(c * 2) or x)(L.ones(1, 2)))
    assert text == "tensor([2., 4.], grad_fn=<MulBackward0>)\n"


@pytest.mark.parametrize("expression", ["z.trunc()", "z.clone().fix_()", "z.floor()"])
def test_jvp_inside_vmap_of_operations_without_a_forward_formula(expression):
    """Their tangent is computed from the backward formula, one output element at a time."""
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        x = L.tensor([[0.5, 1.5, -2.5], [3.0, 0.25, 1.0]])
        outcomes.append(_outcome(lambda: L.func.vmap(
            lambda xi: L.func.jvp(lambda z: eval(expression, {"z": z}), (xi,), (xi * 2,))[1])(x)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("program", [
    "L.func.vjp(lambda z: L.isclose(z, z), x[0])",
    "L.func.vjp(lambda z: (z, z.int()), x[0])",
    "L.func.jacrev(lambda z: z.long())(x[0])",
    "L.func.vmap(lambda xi: L.func.vjp(lambda z: L.isclose(z, z), xi)[0])(x)",
    "L.func.vjp(lambda z: z.double(), x[0])[0]",
])
def test_vjp_needs_floating_point_outputs(program):
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        x = L.tensor([[0.5, 1.5, -2.5], [3.0, 0.25, 1.0]])
        outcomes.append(_outcome(lambda: eval(program, {"L": L, "x": x})))
    assert outcomes[0] == outcomes[1]
