"""What a tensor shows inside grad, vjp, jacrev, jvp (torch.func's levels), compared with PyTorch.

Each transform runs the function at a level of its own: inside, a tensor shows only the
graph of the innermost transform (the input is a leaf that requires grad, ``p * 2`` of a
captured ``p`` does not require grad) and prints as ``GradTrackingTensor(lvl=L, value=...)``
around what the level below sees. Outside, the results carry the graph PyTorch records.
Each program below runs with both libraries and writes what it sees into a list: the
two lists must be the same.
"""
import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _name(node):
    return type(node).__name__ if node is not None else None


def _look(log, label, t):
    """Write down what ``t`` shows: its flags, its printout, the names of its grad_fn's edges."""
    node = t.grad_fn
    edges = [_name(n) for n, _ in node.next_functions] if node is not None else None
    log.append((label, t.requires_grad, _name(node), t.is_leaf, edges, repr(t)))


def _outside(log, label, t):
    """Write down a result outside the transforms: flags, values, grad_fn."""
    log.append((label, t.requires_grad, _name(t.grad_fn), t.is_leaf,
                np.round(t.detach().numpy(), 4).tolist()))


# --- the programs: L is torch or minigrad -----------------------------------------------------

def grad_with_captured(L, x_requires_grad):
    log = []
    p = L.tensor([1.0, 2.0], requires_grad=True)
    x = L.tensor([0.5, 1.5], requires_grad=x_requires_grad)

    def f(x):
        _look(log, "x", x)
        _look(log, "p", p)
        q = p * 2
        _look(log, "p * 2", q)
        y = (x * q).sin()
        _look(log, "y", y)
        _look(log, "x * 3", x * 3)
        _look(log, "x[0]", x[0])
        _look(log, "x.exp().view(2, 1)", x.exp().view(2, 1))
        _look(log, "x.clone().mul_(p)", x.clone().mul_(p))
        return y.sum()
    g = L.func.grad(f)(x)
    _outside(log, "grad", g)
    g.sum().backward()
    _outside(log, "p.grad", p.grad)
    if x_requires_grad:
        _outside(log, "x.grad", x.grad)
    return log


def grad_of_grad(L):
    log = []
    x = L.tensor([0.5, 1.5], requires_grad=True)

    def inner(x):
        _look(log, "inner x", x)
        r = (x ** 3).sum()
        _look(log, "inner r", r)
        return r

    def outer(x):
        _look(log, "outer x", x)
        d = L.func.grad(inner)(x)
        _look(log, "inner grad", d)
        return d.sin().sum()
    gg = L.func.grad(outer)(x)
    _outside(log, "grad of grad", gg)
    (gg * gg).sum().backward()
    _outside(log, "x.grad", x.grad)
    return log


def grad_of_grad_plain_input(L):
    log = []
    x = L.tensor([0.5, 1.5])
    gg = L.func.grad(lambda x: L.func.grad(lambda y: (y ** 3).sum())(x).sum())(x)
    _outside(log, "grad of grad", gg)
    return log


def vjp_program(L):
    log = []
    p = L.tensor([1.0, 2.0], requires_grad=True)
    x = L.tensor([0.5, 1.5], requires_grad=True)

    def f(x):
        _look(log, "x", x)
        y = x.exp() * p
        _look(log, "y", y)
        return y
    out, vjp_fn = L.func.vjp(f, x)
    _outside(log, "out", out)
    (v,) = vjp_fn(L.tensor([1.0, -1.0]))
    _outside(log, "vjp", v)
    return log


def jacrev_program(L):
    log = []
    p = L.tensor([1.0, 2.0], requires_grad=True)

    def f(x):
        _look(log, "x", x)
        y = x.sin() * p
        _look(log, "y", y)
        return y
    for requires_grad in (False, True):
        j = L.func.jacrev(f)(L.tensor([0.5, 1.5], requires_grad=requires_grad))
        _outside(log, "jacobian", j)
    return log


def jvp_program(L):
    log = []
    p = L.tensor([1.0, 2.0], requires_grad=True)

    def f(x):
        _look(log, "p * 2", p * 2)
        y = (x * p).sin()
        _look(log, "y", y)
        return y
    for requires_grad in (False, True):
        x = L.tensor([0.5, 1.5], requires_grad=requires_grad)

        def g(x):
            _look(log, "x", x)
            return f(x)
        value, tangent = L.func.jvp(g, (x,), (L.ones(2),))
        _outside(log, "value", value)
        _outside(log, "tangent", tangent)
    return log


def jacfwd_program(L):
    log = []
    seen = []

    def f(x):
        if not seen:                 # (PyTorch calls f once, minigrad once per column)
            seen.append(True)
            _look(log, "y", x.sin() * 2)
        return x.sin() * 2
    _outside(log, "jacobian", L.func.jacfwd(f)(L.tensor([0.5, 1.5], requires_grad=True)))
    return log


def hessian_program(L):
    log = []
    seen = []

    def f(x):
        if not seen:
            seen.append(True)
            _look(log, "y", (x.sin() * 2))
        return (x.sin() * 2).sum()
    _outside(log, "hessian", L.func.hessian(f)(L.tensor([0.5, 1.5], requires_grad=True)))
    return log


def vmap_inside_grad(L):
    log = []

    def per_row(r):
        _look(log, "row", r)
        return r.sin()

    def f(x):
        _look(log, "x", x)
        y = L.func.vmap(per_row)(x)
        _look(log, "y", y)
        return y.sum()
    _outside(log, "grad", L.func.grad(f)(L.tensor([[0.5, 1.5], [1.0, 2.0]], requires_grad=True)))
    return log


def grad_and_value_program(L):
    log = []
    x = L.tensor([0.5, 1.5], requires_grad=True)
    g, value = L.func.grad_and_value(lambda x: (x * x).sum())(x)
    _outside(log, "grad", g)
    _outside(log, "value", value)
    g2, value2 = L.func.grad_and_value(lambda x: (x * x).sum())(L.tensor([0.5, 1.5]))
    _outside(log, "grad (plain input)", g2)
    _outside(log, "value (plain input)", value2)
    return log


def hooks_program(L):
    """A hook registered inside grad belongs to that level's graph: a backward pass outside
    does not run it again."""
    log = []

    def f(x):
        x.register_hook(lambda g: log.append(("hook x", round(g.sum().item(), 4))))
        y = x * 3
        y.register_hook(lambda g: log.append(("hook y", round(g.sum().item(), 4))))
        return (y * y).sum()
    x = L.tensor([0.5, 1.5], requires_grad=True)
    g = L.func.grad(f)(x)
    log.append("outside")
    g.sum().backward()
    _outside(log, "x.grad", x.grad)
    return log


def edges_program(L):
    """Inside grad, the input's node is an AccumulateGrad whose variable is the input."""
    log = []

    def f(x):
        node, _ = x.exp().grad_fn.next_functions[0]
        log.append((type(node).__name__, node.variable is x, node.next_functions))
        return x.exp().sum()
    L.func.grad(f)(L.tensor([0.5, 1.5], requires_grad=True))
    return log


PROGRAMS = {
    "hooks": hooks_program,
    "edges": edges_program,
    "grad_captured": lambda L: grad_with_captured(L, False),
    "grad_captured_input_requires_grad": lambda L: grad_with_captured(L, True),
    "grad_of_grad": grad_of_grad,
    "grad_of_grad_plain_input": grad_of_grad_plain_input,
    "vjp": vjp_program,
    "jacrev": jacrev_program,
    "jvp": jvp_program,
    "jacfwd": jacfwd_program,
    "hessian": hessian_program,
    "vmap_inside_grad": vmap_inside_grad,
    "grad_and_value": grad_and_value_program,
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_levels_match_torch(name):
    torch = import_torch()
    expected = PROGRAMS[name](torch)
    got = PROGRAMS[name](minigrad)
    assert len(got) == len(expected)
    for seen, wanted in zip(got, expected):
        assert seen == wanted


def test_flags_outside_are_unchanged_after_a_transform():
    # once the transform has returned, its tensors show the whole graph again
    kept = []
    p = minigrad.tensor([1.0, 2.0], requires_grad=True)

    def f(x):
        kept.append(p * 2)
        return (x * kept[0]).sum()
    minigrad.func.grad(f)(minigrad.tensor([0.5, 1.5]))
    assert kept[0].requires_grad and type(kept[0].grad_fn).__name__ == "MulBackward0"
    assert repr(kept[0]) == "tensor([2., 4.], grad_fn=<MulBackward0>)"
