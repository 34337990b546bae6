"""torch.func programs that run as PyTorch runs them, compared with PyTorch.

* ``vmap(grad(f))`` differentiates the whole batch at once (one graph, not one per sample
  stacked): the results' graphs and what f prints are PyTorch's, and an in-place operation
  without a batching rule inside f is recorded once for the batch;
* tensors made inside a transform by no recorded operation (``torch.ones``, ``x.detach()``)
  and the gradient a hook receives print in the transform's wrappers;
* ``jacfwd`` and ``hessian`` call the function once;
* ``out=`` inside vmap is refused with PyTorch's message.

Each program runs with both libraries (``L`` is torch or minigrad) and writes what it sees
into a list: the two lists must be the same.
"""
import collections
import contextlib
import io
import re
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _name(node):
    return type(node).__name__ if node is not None else None


def _outside(log, label, t):
    """Write down a result: shape, flags, grad_fn and its edges, values (4 decimals)."""
    node = t.grad_fn
    edges = [_name(n) for n, _ in node.next_functions] if node is not None else None
    log.append((label, tuple(t.shape), t.requires_grad, _name(node), edges,
                np.round(t.detach().numpy(), 4).tolist()))


def _printed(program, L):
    """What ``program(L)`` prints and returns (warnings ignored; an error is the outcome)."""
    out = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out):
        warnings.simplefilter("ignore")
        try:
            log = program(L)
        except Exception as error:     # noqa: BLE001 (the error is the outcome)
            log = (type(error).__name__, str(error))
    return re.sub(r" at 0x[0-9a-f]+", "", out.getvalue()), log


# --- 1. vmap over grad, jacrev: one whole-batch graph ------------------------------------------

def vmap_grad(L):
    log = []
    xs = L.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
    w = L.tensor([0.5, -1.], requires_grad=True)

    def f(x):
        print(x)
        y = (x * w).sin()
        print(y)
        return y.sum()
    g = L.func.vmap(L.func.grad(f))(xs)
    _outside(log, "grad", g)
    g.sum().backward()
    _outside(log, "xs.grad", xs.grad)
    _outside(log, "w.grad", w.grad)
    return log


def vmap_grad_and_value_with_aux(L):
    log = []
    xs = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    g, (value, aux) = L.func.vmap(L.func.grad_and_value(
        lambda x: ((x ** 2).sum(), x * 3), has_aux=True))(xs)
    for label, t in (("grad", g), ("value", value), ("aux", aux)):
        _outside(log, label, t)
    return log


def vmap_grad_of_an_argument_not_batched(L):
    log = []
    xs = L.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
    w = L.tensor([0.5, -1.], requires_grad=True)
    gx, gw = L.func.vmap(L.func.grad(lambda x, w: (x * w).sum() ** 2, argnums=(0, 1)),
                         in_dims=(0, None))(xs, w)
    _outside(log, "grad x", gx)
    _outside(log, "grad w (one per sample)", gw)
    return log


def per_sample_gradients_of_a_model(L):
    """The usual per-sample-gradients program: the parameters are not batched, the data is."""
    log = []
    model = L.nn.Linear(3, 2)
    with L.no_grad():
        model.weight.copy_(L.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
        model.bias.copy_(L.tensor([0.05, -0.05]))
    params = {name: p.detach() for name, p in model.named_parameters()}
    x = L.tensor([[1., 2., 3.], [0.5, -1., 2.], [-2., 0., 1.]])
    y = L.tensor([0, 1, 1])

    def loss(p, xb, yb):
        out = L.func.functional_call(model, p, (xb.unsqueeze(0),))
        print(out)
        return L.nn.functional.cross_entropy(out, yb.unsqueeze(0))
    grads = L.func.vmap(L.func.grad(loss), in_dims=(None, 0, 0))(params, x, y)
    for name in ("weight", "bias"):
        _outside(log, name, grads[name])
    return log


def vmap_vmap_grad(L):
    log = []
    xs = L.tensor([[[1., 2.]], [[3., 4.]], [[5., 6.]]], requires_grad=True)
    w = L.tensor([0.5, -1.], requires_grad=True)
    g = L.func.vmap(L.func.vmap(L.func.grad(lambda x: (x * w).sin().sum())))(xs)
    _outside(log, "grad", g)
    return log


def vmap_grad_of_grad(L):
    log = []
    xs = L.tensor([1., 2., 3.], requires_grad=True)
    _outside(log, "second derivative", L.func.vmap(L.func.grad(L.func.grad(lambda s: s.sin())))(xs))
    return log


def vmap_jacrev(L):
    log = []
    xs = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    w = L.tensor([0.5, -1.])
    jac = L.func.vmap(L.func.jacrev(lambda x: x.sin() * w))(xs)
    log.append(("jacrev", np.round(jac.detach().numpy(), 4).tolist(), jac.requires_grad))
    return log


def _in_place_program(expression):
    def program(L):
        log = []
        c = L.tensor([0.2, 0.3, 0.5])
        xs = L.tensor([[2.5, 3.1, 1.7], [1.8, 2.2, 2.8], [0.5, 3.3, 2.5]], requires_grad=True)

        def f(x):
            y = eval(expression, {"L": L, "x": x, "c": c})
            print(y.grad_fn)
            return (y * y).sum()
        g = L.func.vmap(L.func.grad(f))(xs)
        _outside(log, "grad", g)
        g.sum().backward()
        _outside(log, "xs.grad", xs.grad)
        return log
    return program


# in-place operations that PyTorch's vmap has no batching rule for: recorded once for the batch
IN_PLACE = ["x.clone().clamp_(2.)", "x.clone().masked_fill_(x > 2, 1.)", "x.clone().pow_(2)",
            "x.clone().clip_(max=c + 2)", "x.clone().scatter_(0, L.tensor([0]), x[:1])",
            "x * 1"]


# --- 2. printing inside transforms ---------------------------------------------------------------

def _made_inside(L, x):
    print("ones", L.ones(2))
    print("detach", x.detach())
    print("zeros_like", L.zeros_like(x))
    print("tensor", L.tensor([1., 2.]))
    print("arange", L.arange(2.))


def printing_inside_grad(L):
    w = L.tensor([0.5, -1.], requires_grad=True)

    def f(x):
        _made_inside(L, x)
        y = x * w
        y.register_hook(lambda grad: print("hook", grad))
        return y.sum()
    L.func.grad(f)(L.tensor([1., 2.]))
    return []


def printing_inside_vmap_grad(L):
    w = L.tensor([0.5, -1.], requires_grad=True)

    def f(x):
        _made_inside(L, x)
        y = x * w
        y.register_hook(lambda grad: print("hook", grad))
        return y.sum()
    L.func.vmap(L.func.grad(f))(L.tensor([[1., 2.], [3., 4.]]))
    return []


def printing_inside_grad_of_grad(L):
    def f(t):
        x = t.expand(2)
        _made_inside(L, x)
        y = x * 3
        y.register_hook(lambda grad: print("hook", grad))
        return y.sum() * t
    L.func.grad(lambda s: L.func.grad(f)(s))(L.tensor(1.))
    return []


# --- 3. jacfwd and hessian call the function once ----------------------------------------------

def jacfwd_calls_once(L):
    calls = []

    def f(x):
        calls.append(1)
        print("inside", x)
        return x.sin() * 2
    jac = L.func.jacfwd(f)(L.tensor([1., 2.]))
    return [np.round(jac.numpy(), 4).tolist(), len(calls)]


def hessian_calls_once(L):
    calls = []

    def f(x):
        calls.append(1)
        return (x ** 3).sum()
    h = L.func.hessian(f)(L.tensor([1., 2.]))
    return [np.round(h.numpy(), 4).tolist(), len(calls)]


def vmap_hessian_of_linear(L):
    w = L.tensor([[1., 2.], [0.5, -1.]])
    b = L.tensor([0.1, -0.2])
    xs = L.tensor([[1., 2.], [3., 4.]]) / 4
    h = L.func.vmap(L.func.hessian(lambda w, b, x: L.nn.functional.linear(x, w, b).tanh(), argnums=2),
                    in_dims=(None, None, 0))(w, b, xs)
    return [np.round(h.numpy(), 4).tolist()]


# --- 4. out= inside vmap -------------------------------------------------------------------------

OUT_EXPRESSIONS = ["L.add(x, 1, out=o)", "L.sum(x, 0, out=o)", "L.cat([x, x], out=o)",
                   "L.pow(x, 2, out=o)", "L.where(x > 0, x, x, out=o)", "L.exp(x, out=o)",
                   "L.add(c, 1, out=o)"]


def _out_program(expression):
    def program(L):
        o, c = L.empty(2), L.ones(2)
        out = L.func.vmap(lambda x: eval(expression, {"L": L, "x": x, "o": o, "c": c}))(L.ones(3, 2))
        return [tuple(out.shape)]
    return program


# --- 5. the losses' old size_average / reduce flags under vmap ----------------------------------

LEGACY_FLAGS = [dict(size_average=False), dict(reduce=False), dict(size_average=True, reduce=True),
                dict(size_average=False, reduce=False)]
LEGACY_LOSSES = ["mse_loss", "l1_loss", "smooth_l1_loss", "kl_div", "binary_cross_entropy",
                 "binary_cross_entropy_with_logits"]


def _graph(node, depth=0, lines=None):
    """The names of the graph below ``node``, indented (four levels)."""
    lines = [] if lines is None else lines
    if node is not None and depth < 4:
        lines.append("  " * depth + type(node).__name__)
        for child, _ in node.next_functions:
            _graph(child, depth + 1, lines)
    return lines


def _legacy_program(loss, flags):
    def program(L):
        x = L.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
        y = L.tensor([[0.2, 0.9, 0.4], [0.6, 0.1, 0.7]])
        inputs = x.sigmoid() if loss == "binary_cross_entropy" else x
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            out = L.func.vmap(lambda s, t: getattr(L.nn.functional, loss)(s, t, **flags))(inputs, y)
            plain = getattr(L.nn.functional, loss)(inputs, y, **flags)
        return [tuple(out.shape), _graph(out.grad_fn), np.round(out.detach().numpy(), 4).tolist(),
                _name(plain.grad_fn), np.round(plain.detach().numpy(), 4).tolist(),
                [re.sub(r" \(Triggered internally at [^)]*\.\)", "", str(w.message)) for w in seen]]
    return program


# --- aux: only tensors ----------------------------------------------------------------------------

AUX_PROGRAMS = {
    "grad": lambda L, aux: L.func.grad(lambda x: (x.sum(), aux(x)), has_aux=True)(L.ones(2)),
    "vjp": lambda L, aux: L.func.vjp(lambda x: (x.sum(), aux(x)), L.ones(2), has_aux=True)[2],
    "jacrev": lambda L, aux: L.func.jacrev(lambda x: (x.sum(), aux(x)), has_aux=True)(L.ones(2)),
    "jacfwd": lambda L, aux: L.func.jacfwd(lambda x: (x.sum(), aux(x)), has_aux=True)(L.ones(2)),
    "jvp": lambda L, aux: L.func.jvp(lambda x: (x.sum(), aux(x)), (L.ones(2),), (L.ones(2),),
                                     has_aux=True)[2],
    "vmap(grad)": lambda L, aux: L.func.vmap(L.func.grad(lambda x: (x.sum(), aux(x)), has_aux=True))(
        L.ones(3, 2)),
}
AUXES = {"int": lambda x: 3, "None": lambda x: None, "list": lambda x: [x, 2.0],
         "dict of tensors": lambda x: {"a": x * 2}}


def _aux_program(transform, aux):
    def program(L):
        AUX_PROGRAMS[transform](L, AUXES[aux])
        return ["ok"]
    return program


PROGRAMS = {
    "vmap_grad": vmap_grad, "vmap_grad_and_value_with_aux": vmap_grad_and_value_with_aux,
    "vmap_vmap_grad": vmap_vmap_grad,
    "per_sample_gradients_of_a_model": per_sample_gradients_of_a_model,
    "vmap_grad_of_an_argument_not_batched": vmap_grad_of_an_argument_not_batched, "vmap_grad_of_grad": vmap_grad_of_grad,
    "vmap_jacrev": vmap_jacrev,
    "printing_inside_grad": printing_inside_grad,
    "printing_inside_vmap_grad": printing_inside_vmap_grad,
    "printing_inside_grad_of_grad": printing_inside_grad_of_grad,
    "jacfwd_calls_once": jacfwd_calls_once, "hessian_calls_once": hessian_calls_once,
    "vmap_hessian_of_linear": vmap_hessian_of_linear,
}
PROGRAMS.update({f"in_place {e}": _in_place_program(e) for e in IN_PLACE})
PROGRAMS.update({f"out {e}": _out_program(e) for e in OUT_EXPRESSIONS})
PROGRAMS.update({f"aux {transform} {aux}": _aux_program(transform, aux)
                 for transform in AUX_PROGRAMS for aux in AUXES})
PROGRAMS.update({f"legacy {loss} {flags}": _legacy_program(loss, flags)
                 for loss in LEGACY_LOSSES for flags in LEGACY_FLAGS})


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_func_program_matches_torch(name):
    torch = import_torch()
    assert _printed(PROGRAMS[name], minigrad) == _printed(PROGRAMS[name], torch)


def test_in_place_inside_vmap_grad_warns_as_torch():
    """The samples still run one by one for PyTorch's "performance drop" warning (once)."""
    torch = import_torch()

    def caught(L):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            L.func.vmap(L.func.grad(lambda x: (x.clone().clamp_(L.tensor([0.5, 0.5])) * 1.).sum()))(
                L.ones(3, 2))
        return [re.sub(r" \(Triggered internally at [^)]*\.\)", "", str(w.message))
                for w in seen if "performance drop" in str(w.message)]
    assert caught(minigrad) == caught(torch)


_Pair = collections.namedtuple("_Pair", "first second")


@pytest.mark.parametrize("program", [
    lambda L: L.func.vmap(lambda x: x.max(0))(L.ones(3, 4)),
    lambda L: L.func.vmap(lambda x: x.sort())(L.tensor([[3., 1.], [0., 2.]])),
    lambda L: L.func.vmap(lambda x: _Pair(x * 2, x.sum()))(L.ones(3, 4)),
    lambda L: L.func.vmap(lambda pair: pair.first + pair.second)(_Pair(L.ones(3), L.arange(3.))),
])
def test_vmap_returns_and_takes_named_tuples(program):
    """A named tuple (or torch.return_types' pair) is a structure vmap looks into, as PyTorch's
    pytree does: it comes out batched and of the same type."""
    torch = import_torch()
    assert repr(program(minigrad)) == repr(program(torch))

