"""vmap batches: the function runs once on the whole batch, as in PyTorch.

So the outputs of ``vmap`` carry the graph of the batched operations (``SinBackward0``,
not one graph per sample stacked together), printing a batched tensor shows the whole
batch, and ``randomness="different"`` draws PyTorch's numbers. Each program here runs in
minigrad and in PyTorch; values, gradients and the graph's node names must agree.
"""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch


def graph(tensor):
    """The graph below ``tensor`` as nested (name, children) tuples; None for no graph."""
    def walk(node, depth=0):
        if node is None:
            return None
        name = type(node).__name__
        if depth > 12 or name == "AccumulateGrad":
            return name
        return (name, tuple(walk(child, depth + 1) for child, _ in node.next_functions))
    return walk(tensor.grad_fn)


def _x(L, *shape, seed=0):
    values = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return L.tensor(values, requires_grad=True)


# programs: L -> (output, leaves whose gradient to compare)
def _program(body, *shapes, **vmap_options):
    def run(L):
        inputs = [_x(L, *shape, seed=i) for i, shape in enumerate(shapes)]
        return L.func.vmap(lambda *a: body(L, *a), **vmap_options)(*inputs), inputs
    return run


def _c(L, *shape):
    return L.tensor(np.linspace(-1.0, 1.0, int(np.prod(shape))).reshape(shape).astype(np.float32))


def _plus_equals(a, b):
    a += b
    return a


def _set_first(t, value):
    t[0] = value
    return t


def _linear(L):
    L.manual_seed(0)
    return L.nn.Linear(3, 2)


PROGRAMS = {
    # pointwise, with broadcasting against tensors that are not batched
    "sin": _program(lambda L, t: t.sin(), (4, 3)),
    "torch_exp": _program(lambda L, t: L.exp(t), (4, 3)),
    "chain": _program(lambda L, t: (t * 2 + 1).tanh().sigmoid(), (4, 3)),
    "times_captured": _program(lambda L, t: t * _c(L, 3), (4, 3)),
    "times_bigger": _program(lambda L, t: t * _c(L, 2, 3), (4, 3)),
    "both_batched_ranks": _program(lambda L, t, u: t * u, (4, 3), (4, 2, 3)),
    "number_minus": _program(lambda L, t: 1 - t, (4, 3)),
    "divide": _program(lambda L, t, u: t / (u * u + 1), (4, 3), (4, 3)),
    "pow": _program(lambda L, t: t ** 2, (4, 2, 3)),
    "where": _program(lambda L, t: L.where(t > 0, t, 0.0), (4, 2, 3)),
    "maximum": _program(lambda L, t: L.maximum(t, _c(L, 3)), (4, 3)),
    "relu": _program(lambda L, t: L.relu(t), (4, 2, 3)),
    "F_relu": _program(lambda L, t: L.nn.functional.relu(t), (4, 2, 3)),
    "F_gelu": _program(lambda L, t: L.nn.functional.gelu(t), (4, 3)),
    "clamp": _program(lambda L, t: t.clamp(-0.5, 0.5), (4, 3)),
    "in_dims_1": _program(lambda L, t: t.sin(), (3, 4), in_dims=1),
    "out_dims_1": _program(lambda L, t: t.sin(), (4, 3), out_dims=1),
    "in_none": _program(lambda L, t, u: t * u, (4, 3), (3,), in_dims=(0, None)),
    # reductions
    "sum_all": _program(lambda L, t: (t * 2).sum(), (4, 2, 3)),
    "sum_dim": _program(lambda L, t: t.sum(0), (4, 2, 3)),
    "sum_dims": _program(lambda L, t: t.sum(dim=(0, 1)), (4, 2, 3)),
    "mean_keepdim": _program(lambda L, t: t.mean(-1, keepdim=True), (4, 2, 3)),
    "max_dim": _program(lambda L, t: t.max(0).values, (4, 2, 3)),
    "softmax": _program(lambda L, t: t.softmax(-1), (4, 2, 3)),
    "F_log_softmax": _program(lambda L, t: L.nn.functional.log_softmax(t, dim=0), (4, 2, 3)),
    "inner": _program(lambda L, t: (t * t).sum(-1), (4, 2, 3)),
    "norm_by_hand": _program(lambda L, t: t / (t * t).sum().sqrt(), (4, 3)),
    # shapes and views
    "view": _program(lambda L, t: t.view(6), (4, 2, 3)),
    "reshape": _program(lambda L, t: t.reshape(3, 2), (4, 2, 3)),
    "transpose": _program(lambda L, t: t.transpose(0, 1), (4, 2, 3)),
    "T": _program(lambda L, t: t.T, (4, 2, 3)),
    "t": _program(lambda L, t: t.t(), (4, 2, 3)),
    "permute": _program(lambda L, t: t.permute(1, 0), (4, 2, 3)),
    "unsqueeze": _program(lambda L, t: t.unsqueeze(0), (4, 2, 3)),
    "squeeze": _program(lambda L, t: t.unsqueeze(0).squeeze(0), (4, 2, 3)),
    "expand": _program(lambda L, t: t.expand(2, 3), (4, 3)),
    "index": _program(lambda L, t: t[1], (4, 2, 3)),
    "slice": _program(lambda L, t: t[:, 1:], (4, 2, 3)),
    "ellipsis": _program(lambda L, t: t[..., 0], (4, 2, 3)),
    "flatten": _program(lambda L, t: t.flatten(), (4, 2, 3)),
    "cat": _program(lambda L, t: L.cat([t, t]), (4, 3)),
    # matrix products
    "vector_dot": _program(lambda L, t: t @ _c(L, 3), (4, 3)),
    "vector_matrix": _program(lambda L, t: t @ _c(L, 3, 5), (4, 3)),
    "matrix_vector": _program(lambda L, t: t @ _c(L, 3), (4, 2, 3)),
    "matrix_matrix": _program(lambda L, t: t @ _c(L, 3, 5), (4, 2, 3)),
    "mm": _program(lambda L, t: t.mm(_c(L, 3, 5)), (4, 2, 3)),
    "mv": _program(lambda L, t: t.mv(_c(L, 3)), (4, 2, 3)),
    "dot": _program(lambda L, t: t.dot(_c(L, 3)), (4, 3)),
    "linear_2d": _program(lambda L, t: L.nn.functional.linear(t, _c(L, 5, 3), _c(L, 5)), (4, 2, 3)),
    # more operations with rules
    "norm": _program(lambda L, t: t.norm(), (4, 2, 3)),
    "norm_dim": _program(lambda L, t: t.norm(dim=0), (4, 2, 3)),
    "prod": _program(lambda L, t: t.prod(), (4, 3)),
    "max_vector": _program(lambda L, t: t.max(), (4, 3)),
    "sort": _program(lambda L, t: t.sort().values, (4, 2, 3)),
    "topk": _program(lambda L, t: t.topk(2).values, (4, 3)),
    "flip": _program(lambda L, t: t.flip(0), (4, 2, 3)),
    "repeat": _program(lambda L, t: t.repeat(2, 1), (4, 2, 3)),
    "masked_fill": _program(lambda L, t: t.masked_fill(t > 0, 0.0), (4, 3)),
    "index_list": _program(lambda L, t: t[[0, 2]], (4, 3)),
    "index_tensor": _program(lambda L, t: t[:, L.tensor([2, 0])], (4, 2, 3)),
    "squeeze_all": _program(lambda L, t: t.unsqueeze(0).squeeze(), (4, 2, 3)),
    "in_place": _program(lambda L, t: t.clone().add_(1).mul_(_c(L, 3)), (4, 3)),
    "in_place_batched_other": _program(lambda L, t, u: (t * 2).sub_(u), (4, 2, 3), (4, 3)),
    "in_place_unary": _program(lambda L, t: (t * 1).relu_(), (4, 3)),
    "plus_equals": _program(lambda L, t: _plus_equals(t * 2, t), (4, 3)),
    "mse_loss": _program(lambda L, t: L.nn.functional.mse_loss(t, _c(L, 2, 3)), (4, 2, 3)),
    "mse_loss_batched": _program(lambda L, t, u: L.nn.functional.mse_loss(t, u * 1), (4, 2, 3), (4, 2, 3)),
    "mse_loss_sum": _program(lambda L, t: L.nn.functional.mse_loss(t, _c(L, 3), reduction="sum"), (4, 3)),
    "mse_loss_none": _program(lambda L, t: L.nn.functional.mse_loss(t, _c(L, 2, 3), reduction="none"), (4, 2, 3)),
    "gather": _program(lambda L, t: t.gather(0, L.tensor([2, 0])), (4, 3)),
    "setitem": _program(lambda L, t: _set_first(t.clone(), 5.0), (4, 3)),
    "setitem_batched": _program(lambda L, t, u: _set_first(t.clone(), u.sum()), (4, 2, 3), (4, 3)),
    "iterate": _program(lambda L, t: sum(row for row in t), (4, 2, 3)),
    "empty_batch": _program(lambda L, t: t.sin().sum(0), (0, 2, 3)),
    "module": lambda L: ((lambda layer, x: (L.func.vmap(layer)(x), [x, layer.weight]))(
        _linear(L), _x(L, 4, 3))),
    # the batch dim elsewhere than in front
    "in_dims_1_sum": _program(lambda L, t: t.sum(0), (2, 4, 3), in_dims=1),
    "in_dims_1_sum_all": _program(lambda L, t: t.sum(), (2, 4, 3), in_dims=1),
    "in_dims_1_softmax": _program(lambda L, t: t.softmax(-1), (2, 4, 3), in_dims=1),
    "in_dims_1_transpose": _program(lambda L, t: t.transpose(0, 1), (2, 4, 3), in_dims=1),
    "in_dims_1_permute": _program(lambda L, t: t.permute(1, 0), (2, 4, 3), in_dims=1),
    "in_dims_1_T": _program(lambda L, t: t.T, (2, 4, 3), in_dims=1),
    "in_dims_1_T_vector": _program(lambda L, t: t.T, (3, 4), in_dims=1),
    "in_dims_1_unsqueeze": _program(lambda L, t: t.unsqueeze(0), (2, 4, 3), in_dims=1),
    "in_dims_1_view": _program(lambda L, t: t.reshape(6), (2, 4, 3), in_dims=1),
    "in_dims_1_index": _program(lambda L, t: t[0], (2, 4, 3), in_dims=1),
    "in_dims_1_select": _program(lambda L, t: t.select(1, 0), (2, 4, 3), in_dims=1),
    "in_dims_1_expand": _program(lambda L, t: t.unsqueeze(0).expand(2, 2, 3), (2, 4, 3), in_dims=1),
    "in_dims_1_add": _program(lambda L, t, u: t + u, (2, 4, 3), (4, 2, 3), in_dims=(1, 0)),
    "in_dims_1_max": _program(lambda L, t: t.max(), (2, 4, 3), in_dims=1),
    "in_dims_1_mean": _program(lambda L, t: t.mean(1, keepdim=True), (2, 4, 3), in_dims=1),
    "out_dims_neg": _program(lambda L, t: t.exp(), (4, 2, 3), out_dims=-1),
    # unbatched outputs are expanded; nested vmaps and chunks
    "unbatched_output": _program(lambda L, t: (t, _c(L, 3) * 2), (4, 3)),
    "nested": lambda L: ((lambda x: (L.func.vmap(L.func.vmap(lambda e: e.exp() * 2))(x), [x]))(_x(L, 4, 3))),
    "nested_in_dims": lambda L: ((lambda a, b: (L.func.vmap(L.func.vmap(
        lambda p, q: p * q, in_dims=(None, 1)), in_dims=(0, None))(a, b), [a, b]))(_x(L, 2, 3), _x(L, 3, 4))),
    "nested_functions": lambda L: ((lambda x: (L.func.vmap(L.func.vmap(
        lambda e: L.relu(L.nn.functional.linear(e, _c(L, 2, 3), _c(L, 2)))))(x), [x]))(_x(L, 4, 2, 3))),
    "nested_matrix_product": lambda L: ((lambda x: (L.func.vmap(L.func.vmap(
        lambda e: e @ _c(L, 3, 5)))(x), [x]))(_x(L, 4, 2, 2, 3))),
    "chunk_size": _program(lambda L, t: t.sin(), (4, 3), chunk_size=2),
    "chunk_size_uneven": _program(lambda L, t: t.sin() * 2, (5, 3), chunk_size=2),
}


def _outcome(L, name):
    out, leaves = PROGRAMS[name](L)
    outs = out if isinstance(out, tuple) else (out,)
    shown = [(tuple(o.shape), graph(o)) for o in outs]
    values = [o.detach().numpy() for o in outs]
    outs[0].pow(2).sum().backward()
    grads = [None if x.grad is None else x.grad.numpy() for x in leaves]
    return shown, values, grads


def _assert_close(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_batched_program_matches_torch(name):
    torch = import_torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _outcome(torch, name)
    ours = _outcome(minigrad, name)
    assert ours[0] == theirs[0]           # shapes and graphs
    _assert_close(ours[1], theirs[1])     # values
    _assert_close(ours[2], theirs[2])     # gradients


# --- random numbers: randomness="different" draws once for the whole batch, as PyTorch -------

RANDOM_EXPRESSIONS = [
    "L.rand(3)", "L.randn(2, 3)", "L.rand_like(t)", "L.randn_like(t)", "t + L.randn(3)",
    "L.nn.functional.dropout(t, 0.5)", "L.randint(0, 5, (3,))", "L.normal(0., 1., (3,))",
    "L.bernoulli(t / 2)", "t.clone().normal_()", "t.clone().uniform_()", "L.randperm(3)",
]


def _draws(L, expression, randomness):
    L.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = L.func.vmap(lambda t: eval(expression, {"L": L, "t": t}), randomness=randomness)(
                L.ones(4, 3)).tolist()
        except RuntimeError as error:
            out = str(error)
    return out, L.rand(2).tolist()        # and where the random stream went on from


@pytest.mark.parametrize("randomness", ["different", "same"])
@pytest.mark.parametrize("expression", RANDOM_EXPRESSIONS)
def test_random_numbers_are_torchs(expression, randomness):
    torch = import_torch()
    assert _draws(minigrad, expression, randomness) == _draws(torch, expression, randomness)


# --- printing and flags inside vmap ---------------------------------------------------------------

def _shown_inside(L):
    import contextlib
    import io
    x = L.arange(6.0).reshape(2, 3).requires_grad_()
    seen = []

    def f(t):
        y = (t * 2).sum(0)
        seen.append((repr(t), repr(y), t.requires_grad, t.grad_fn, t.is_leaf, tuple(y.shape), y.dim()))
        return y
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = L.func.vmap(f)(x)
        L.func.vmap(lambda t: print(t.T) or t, in_dims=1)(x)
    return seen, out.getvalue(), graph(result)


def test_what_a_batched_tensor_shows_is_torchs():
    torch = import_torch()
    assert _shown_inside(minigrad) == _shown_inside(torch)


# --- per-sample gradients (PyTorch's tutorial): vmap(grad) of a model's loss ---------------------

def _per_sample_gradients(L):
    L.manual_seed(0)
    model = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.ReLU(), L.nn.Linear(4, 2))
    params = {k: v.detach() for k, v in model.named_parameters()}
    data, targets = L.randn(5, 3), L.tensor([0, 1, 1, 0, 1])

    def loss(params, sample, target):
        out = L.func.functional_call(model, params, (sample.unsqueeze(0),))
        return L.nn.functional.cross_entropy(out, target.unsqueeze(0))
    grads = L.func.vmap(L.func.grad(loss), in_dims=(None, 0, 0))(params, data, targets)
    return {k: v.numpy() for k, v in grads.items()}


def test_per_sample_gradients_are_torchs():
    torch = import_torch()
    ours, theirs = _per_sample_gradients(minigrad), _per_sample_gradients(torch)
    assert ours.keys() == theirs.keys()
    for key in ours:
        np.testing.assert_allclose(ours[key], theirs[key], rtol=1e-5, atol=1e-6)


# --- operations without a batching rule: once per sample, with PyTorch's warning ------------------

def _fallback(L):
    x = L.arange(6.0).reshape(2, 3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = L.func.vmap(lambda t: L.isclose(t, t * 1.0))(x)
    return out.tolist(), [str(w.message).split(" (Triggered internally")[0] for w in caught]


def test_operations_without_a_rule_warn_as_torch():
    torch = import_torch()
    ours, theirs = _fallback(minigrad), _fallback(torch)
    assert ours == theirs and "performance drop" in theirs[1][0]


def _nested_fallbacks(L):
    c = L.tensor([0.2, 0.3, 0.5])
    x = L.arange(24.0).reshape(4, 2, 3) / 10
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both = L.func.vmap(L.func.vmap(lambda e: L.isclose(e, c) & (e > 0.25)))(x)
        outer = L.func.vmap(lambda y: L.func.vmap(lambda e: L.isclose(e, c) & (y > 0.2))(
            L.ones(2, 3) / 5))(x[:, 0])
        in_place = L.func.vmap(L.func.vmap(lambda e: (e * 2).clone().clamp_(0.5)))(x)
    return both.tolist(), outer.tolist(), in_place.tolist()


def test_nested_fallbacks_give_torchs_values():
    torch = import_torch()
    assert _nested_fallbacks(minigrad) == _nested_fallbacks(torch)


def test_warnings_of_functions_point_at_the_callers_line():
    """torch.xxx and F.xxx pass through vmap's dispatch; their warnings still name the line
    that called them."""
    F = minigrad.nn.functional
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minigrad.tensor(minigrad.ones(2))
        F.kl_div(minigrad.ones(3).log_softmax(0), minigrad.ones(3).softmax(0))
        F.mse_loss(minigrad.ones(3), minigrad.ones(2, 3))
    assert [w.filename for w in caught] == [__file__] * 3


# --- vmap inside grad, jacrev, jvp: batched too -----------------------------------------------

def _vmap_inside_transforms(L):
    x = L.arange(6.0).reshape(2, 3)
    w = L.tensor([1.0, -0.5, 2.0], requires_grad=True)
    grad = L.func.grad(lambda v: L.func.vmap(lambda t: (t * v).sin().sum())(x).sum())(w)
    jac = L.func.jacrev(lambda v: L.func.vmap(lambda t: (t * v).exp())(x))(w)
    tangent = L.func.jvp(lambda v: L.func.vmap(lambda t: (t * v).exp())(x), (w,), (L.ones(3),))[1]
    inside = L.func.grad(lambda v: L.func.vmap(lambda t: (t * v).tanh().sum())(x).sum())
    outer = inside(w * 1)               # w * 1 requires grad: the graph outside is kept
    return [grad.detach().numpy(), jac.detach().numpy(), tangent.detach().numpy(),
            outer.detach().numpy()], graph(outer)


def test_vmap_inside_transforms_matches_torch():
    torch = import_torch()
    ours, theirs = _vmap_inside_transforms(minigrad), _vmap_inside_transforms(torch)
    _assert_close(ours[0], theirs[0])
    # the batched operations' nodes (grad's own input is a view in minigrad: see the README)
    assert ours[1][0] == theirs[1][0] == "ViewBackward0"
    assert ours[1][1][0][0] == theirs[1][1][0][0] == "SumBackward1"
