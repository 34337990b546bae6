"""The version counter of every gradient autograd hands out is PyTorch's.

A gradient's ``_version`` counts the in-place changes made to it, and PyTorch
makes some itself: its engine adds a second incoming gradient *into* the first
one when nothing else holds it, AccumulateGrad then adopts that buffer as
``.grad`` and adds later gradients into it, and many backward formulas write
into fresh zeros (``max(dim)``, indexing, ``diagonal``...). So
``(x * x).sum().backward()`` leaves ``x.grad._version`` at 1. Each program below
runs under minigrad and PyTorch and every gradient it can see (``.grad`` of
leaves, retained grads, results of ``autograd.grad``, what hooks receive) must
have the same version and values.
"""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _data(shape, seed, low=0.5, high=1.5):
    """Distinct values in [low, high) (no ties unless asked for), float32."""
    rng = np.random.default_rng(seed)
    values = rng.permutation(np.linspace(low, high, int(np.prod(shape)), endpoint=False))
    return values.reshape(shape).astype(np.float32)


X = _data((3, 4), 0)
Y = _data((3, 4), 1)
TIES = np.array([[1.0, 2.0, 2.0, 0.5], [3.0, 3.0, 1.0, 3.0], [0.0, 0.0, 0.0, 0.0]], np.float32)


def _idx(L, values):
    return L.tensor(values, dtype=L.int64)


# Each takes the library and a leaf x (3, 4) (and y, a second leaf of the same shape) and
# returns a tensor computed from them.
OPS = {
    # pointwise
    "mul_self": lambda L, x, y: x * x,
    "mul": lambda L, x, y: x * y,
    "mul_scalar": lambda L, x, y: x * 2.5,
    "add": lambda L, x, y: x + y,
    "add_self": lambda L, x, y: x + x,
    "add_alpha": lambda L, x, y: L.add(x, y, alpha=2),
    "sub": lambda L, x, y: x - y,
    "sub_self": lambda L, x, y: x - x,
    "div": lambda L, x, y: x / y,
    "div_self": lambda L, x, y: x / x,
    "neg": lambda L, x, y: -x,
    "exp": lambda L, x, y: x.exp(),
    "log": lambda L, x, y: x.log(),
    "log1p": lambda L, x, y: x.log1p(),
    "sqrt": lambda L, x, y: x.sqrt(),
    "rsqrt": lambda L, x, y: x.rsqrt(),
    "reciprocal": lambda L, x, y: x.reciprocal(),
    "sin": lambda L, x, y: x.sin(),
    "cos": lambda L, x, y: x.cos(),
    "tan": lambda L, x, y: x.tan(),
    "tanh": lambda L, x, y: x.tanh(),
    "sigmoid": lambda L, x, y: x.sigmoid(),
    "relu": lambda L, x, y: (x - 1).relu(),
    "abs": lambda L, x, y: (x - 1).abs(),
    "sign": lambda L, x, y: x.sign(),
    "pow_scalar": lambda L, x, y: x ** 3,
    "pow_square": lambda L, x, y: x ** 2,
    "pow_tensor": lambda L, x, y: x ** y,
    "rpow": lambda L, x, y: 2 ** x,
    "rsub": lambda L, x, y: 1 - x,
    "rdiv": lambda L, x, y: 1 / x,
    "square": lambda L, x, y: x.square(),
    "clamp": lambda L, x, y: x.clamp(0.8, 1.2),
    "clamp_min": lambda L, x, y: x.clamp(min=0.8),
    "clamp_max": lambda L, x, y: x.clamp(max=1.2),
    "clamp_tensor": lambda L, x, y: x.clamp(y * 0 + 0.8, y * 0 + 1.2),
    "maximum": lambda L, x, y: L.maximum(x, y),
    "minimum": lambda L, x, y: L.minimum(x, y),
    "maximum_self": lambda L, x, y: L.maximum(x, x),
    "where": lambda L, x, y: L.where(x > 1, x, y),
    "where_self": lambda L, x, y: L.where(x > 1, x, x * 2),
    "erf": lambda L, x, y: L.erf(x),
    "floor": lambda L, x, y: x.floor(),
    "round": lambda L, x, y: x.round(),
    "frac": lambda L, x, y: x.frac(),
    "remainder": lambda L, x, y: x % 0.3,
    "remainder_tensor": lambda L, x, y: x % y,
    "floordiv": lambda L, x, y: x // 0.3,
    "masked_fill": lambda L, x, y: x.masked_fill(x > 1, 0.5),
    "to_double": lambda L, x, y: x.double(),
    "clone": lambda L, x, y: x.clone(),
    "contiguous_t": lambda L, x, y: x.t().contiguous(),
    # reductions
    "sum": lambda L, x, y: x.sum(),
    "sum0": lambda L, x, y: x.sum(0),
    "sum_keepdim": lambda L, x, y: x.sum(1, keepdim=True),
    "mean": lambda L, x, y: x.mean(),
    "mean1": lambda L, x, y: x.mean(1),
    "max": lambda L, x, y: x.max(),
    "min": lambda L, x, y: x.min(),
    "max0": lambda L, x, y: x.max(0)[0],
    "max1_keepdim": lambda L, x, y: x.max(1, keepdim=True)[0],
    "min0": lambda L, x, y: x.min(0)[0],
    "amax": lambda L, x, y: x.amax(1),
    "amin": lambda L, x, y: x.amin(0),
    "std": lambda L, x, y: x.std(),
    "var0": lambda L, x, y: x.var(0),
    "norm": lambda L, x, y: x.norm(),
    "norm1": lambda L, x, y: x.norm(p=1),
    "norm_dim": lambda L, x, y: x.norm(dim=1),
    "logsumexp": lambda L, x, y: x.logsumexp(1),
    "prod": lambda L, x, y: x.prod(),
    "prod0": lambda L, x, y: x.prod(0),
    "cumsum": lambda L, x, y: x.cumsum(1),
    "cumprod": lambda L, x, y: x.cumprod(0),
    "softmax": lambda L, x, y: x.softmax(1),
    "log_softmax": lambda L, x, y: x.log_softmax(0),
    # sorting
    "sort": lambda L, x, y: x.sort(1)[0],
    "topk": lambda L, x, y: x.topk(2, 1)[0],
    "roll": lambda L, x, y: x.roll(1, 0),
    "flip": lambda L, x, y: x.flip(1),
    # linear algebra
    "matmul": lambda L, x, y: x @ y.t(),
    "mm_self": lambda L, x, y: x @ x.t(),
    "mv": lambda L, x, y: x.mv(y[0]),
    "dot": lambda L, x, y: x[0].dot(y[0]),
    "dot_self": lambda L, x, y: x[0].dot(x[0]),
    "bmm": lambda L, x, y: x.view(1, 3, 4).bmm(y.view(1, 4, 3)),
    "addmm": lambda L, x, y: L.addmm(x[:, :3], x, y.t()[:, :3]),
    "addmm_scaled": lambda L, x, y: L.addmm(x[:, :3], x, y.t()[:, :3], beta=0.5, alpha=2),
    "baddbmm": lambda L, x, y: L.baddbmm(x.view(1, 3, 4)[:, :, :3], x.view(1, 3, 4),
                                          y.view(1, 4, 3)),
    "einsum": lambda L, x, y: L.einsum("ij,ij->i", x, y),
    "einsum_trace": lambda L, x, y: L.einsum("ii->", x[:, :3]),
    # views and shapes
    "view": lambda L, x, y: x.view(12),
    "reshape_t": lambda L, x, y: x.t().reshape(12),
    "t": lambda L, x, y: x.t(),
    "transpose": lambda L, x, y: x.transpose(0, 1),
    "permute": lambda L, x, y: x.permute(1, 0),
    "unsqueeze": lambda L, x, y: x.unsqueeze(1),
    "squeeze": lambda L, x, y: x.view(3, 1, 4).squeeze(),
    "squeeze_dim": lambda L, x, y: x.view(3, 1, 4).squeeze(1),
    "expand": lambda L, x, y: x[:1].expand(3, 4),
    "expand_new_dim": lambda L, x, y: x.expand(2, 3, 4),
    "repeat": lambda L, x, y: x.repeat(2, 1),
    "flatten": lambda L, x, y: x.flatten(),
    "diagonal": lambda L, x, y: x.diagonal(),
    "diagonal_offset": lambda L, x, y: x.diagonal(1),
    "select": lambda L, x, y: x[1],
    "select_dim1": lambda L, x, y: x.select(1, 2),
    "slice": lambda L, x, y: x[1:],
    "slice_step": lambda L, x, y: x[:, ::2],
    "narrow": lambda L, x, y: x.narrow(1, 1, 2),
    "full_slice": lambda L, x, y: x[:],
    "ellipsis": lambda L, x, y: x[...],
    "newaxis": lambda L, x, y: x[None],
    "index_list": lambda L, x, y: x[[0, 2]],
    "index_list_repeated": lambda L, x, y: x[[0, 0, 2]],
    "index_tensor": lambda L, x, y: x[_idx(L, [2, 1])],
    "index_mask": lambda L, x, y: x[x > 1],
    "index_two_lists": lambda L, x, y: x[[0, 1], [2, 3]],
    "index_slice_and_list": lambda L, x, y: x[1:, [0, 3]],
    "index_select": lambda L, x, y: x.index_select(1, _idx(L, [3, 0, 3])),
    "gather": lambda L, x, y: x.gather(1, _idx(L, [[0, 1], [2, 2], [3, 0]])),
    "scatter": lambda L, x, y: x.scatter(1, _idx(L, [[0], [1], [2]]), y[:, :1]),
    "scatter_value": lambda L, x, y: x.scatter(1, _idx(L, [[0], [1], [2]]), 5.0),
    "scatter_add": lambda L, x, y: x.scatter_add(1, _idx(L, [[0], [1], [2]]), y[:, :1]),
    "index_add": lambda L, x, y: x.index_add(0, _idx(L, [0, 0]), y[:2]),
    "cat": lambda L, x, y: L.cat([x, y, x], 0),
    "stack": lambda L, x, y: L.stack([x, y], 1),
    "split": lambda L, x, y: x.split(2, 1)[1],
    "split_both": lambda L, x, y: x.split(2, 1)[0] * x.split(2, 1)[1],
    "chunk": lambda L, x, y: x.chunk(3, 0)[2],
    "unbind": lambda L, x, y: x.unbind(0)[1],
    "unbind_all": lambda L, x, y: L.stack(x.unbind(1)[::-1], 0),
    # in-place on a non-leaf
    "add_": lambda L, x, y: (x * 1).add_(y),
    "mul_": lambda L, x, y: (x * 1).mul_(y),
    "exp_": lambda L, x, y: (x * 1).exp_(),
    "setitem": lambda L, x, y: _setitem(x * 1, 1, y[0]),
    "setitem_slice": lambda L, x, y: _setitem(x * 1, (slice(None), slice(1, 3)), y[:, :2]),
    "setitem_mask": lambda L, x, y: _setitem(x * 1, x > 1, 0.0),
    "view_mul_": lambda L, x, y: _view_inplace(x * 1, y),
    "copy_": lambda L, x, y: (x * 1).copy_(y),
    "zero_": lambda L, x, y: (x * 1).zero_() + y,
    "fill_": lambda L, x, y: (x * 1).fill_(2.0) + y,
    "clamp_": lambda L, x, y: (x * 1).clamp_(0.8, 1.2),
    "masked_fill_": lambda L, x, y: (x * 1).masked_fill_(x > 1, 0.0),
    "index_add_": lambda L, x, y: (x * 1).index_add_(0, _idx(L, [2, 2]), y[:2]),
    "squeeze_": lambda L, x, y: (x.view(3, 1, 4) * 1).squeeze_(),
    # neural-network functions
    "linear": lambda L, x, y: L.nn.functional.linear(x, y[:2], y[2, :2]),
    "gelu": lambda L, x, y: L.nn.functional.gelu(x - 1),
    "silu": lambda L, x, y: L.nn.functional.silu(x - 1),
    "elu": lambda L, x, y: L.nn.functional.elu(x - 1),
    "softplus": lambda L, x, y: L.nn.functional.softplus(x - 1),
    "leaky_relu": lambda L, x, y: L.nn.functional.leaky_relu(x - 1, 0.1),
    "hardtanh": lambda L, x, y: L.nn.functional.hardtanh(x - 1, -0.2, 0.2),
    "relu6": lambda L, x, y: L.nn.functional.relu6(x * 4),
    "threshold": lambda L, x, y: L.nn.functional.threshold(x, 1.0, 0.0),
    "mse_loss": lambda L, x, y: L.nn.functional.mse_loss(x, y),
    "l1_loss": lambda L, x, y: L.nn.functional.l1_loss(x, y),
    "huber_loss": lambda L, x, y: L.nn.functional.huber_loss(x, y * 3),
    "smooth_l1_loss": lambda L, x, y: L.nn.functional.smooth_l1_loss(x, y * 3),
    "cross_entropy": lambda L, x, y: L.nn.functional.cross_entropy(x, _idx(L, [0, 3, 1])),
    "nll_loss": lambda L, x, y: L.nn.functional.nll_loss(x.log_softmax(1), _idx(L, [0, 3, 1])),
    "bce": lambda L, x, y: L.nn.functional.binary_cross_entropy(x / 2, y / 2),
    "bce_weighted_sum": lambda L, x, y: L.nn.functional.binary_cross_entropy(
        x / 2, y / 2, weight=L.tensor([1.0, 2.0, 0.5, 1.0]), reduction="sum"),
    "bce_logits_pos_weight": lambda L, x, y: L.nn.functional.binary_cross_entropy_with_logits(
        x, y / 2, pos_weight=L.tensor([1.0, 2.0, 0.5, 1.0]), weight=L.tensor([2.0, 1.0, 1.0, 3.0])),
    "bce_logits": lambda L, x, y: L.nn.functional.binary_cross_entropy_with_logits(x, y / 2),
    "kl_div": lambda L, x, y: L.nn.functional.kl_div(x.log(), y, reduction="batchmean"),
    "dropout_eval": lambda L, x, y: L.nn.functional.dropout(x, 0.5, training=False),
    "one_minus_square_mean": lambda L, x, y: ((1 - x) ** 2).mean(),
    "cross_entropy_smoothing": lambda L, x, y: L.nn.functional.cross_entropy(
        x, _idx(L, [0, 3, 1]), label_smoothing=0.1),
    "cross_entropy_weighted": lambda L, x, y: L.nn.functional.cross_entropy(
        x, _idx(L, [0, 3, 1]), weight=L.tensor([1.0, 2.0, 0.5, 1.0])),
    "cross_entropy_probabilities": lambda L, x, y: L.nn.functional.cross_entropy(x, y.softmax(1)),
    "dropout_p0": lambda L, x, y: L.nn.functional.dropout(x, 0.0, training=True),
    # more methods and shapes
    "outer": lambda L, x, y: x[0].outer(y[1]),
    "mT": lambda L, x, y: x.mT,
    "swapaxes": lambda L, x, y: x.swapaxes(0, 1),
    "expand_as": lambda L, x, y: x[:1].expand_as(y),
    "reshape_as": lambda L, x, y: x.t().reshape_as(y.t()),
    "clip": lambda L, x, y: x.clip(0.8, 1.2),
    "var_dim": lambda L, x, y: x.var(1, keepdim=True),
    "sum_dims": lambda L, x, y: x.view(3, 2, 2).sum((0, 2)),
    "max_of_0d": lambda L, x, y: x[1, 1].max(),
    "max_dim_of_0d": lambda L, x, y: x[1, 1].max(0)[0],
    "sort_of_1_element": lambda L, x, y: x[1, 1:2].sort()[0],
    "max_1_element_dim": lambda L, x, y: x[:1].max(0)[0],
    "double_max0": lambda L, x, y: x.double().max(0)[0],
    "relu_": lambda L, x, y: (x - 1).relu_(),
    "sigmoid_": lambda L, x, y: (x * 1).sigmoid_(),
    "pow_": lambda L, x, y: (x * 1).pow_(2),
    "div_tensor_": lambda L, x, y: (x * 1).div_(y),
    "scatter_": lambda L, x, y: (x * 1).scatter_(1, _idx(L, [[0], [1], [2]]), y[:, :1]),
    "scatter_add_": lambda L, x, y: (x * 1).scatter_add_(1, _idx(L, [[0], [1], [2]]), y[:, :1]),
}

TIE_OPS = {
    "max": lambda L, x: x.max(),
    "max1": lambda L, x: x.max(1)[0],
    "min0": lambda L, x: x.min(0)[0],
    "amax1": lambda L, x: x.amax(1),
    "amin": lambda L, x: x.amin(),
    "maximum": lambda L, x: L.maximum(x, x.flip(1)),
    "sort": lambda L, x: x.sort(1)[0],
    "relu": lambda L, x: (x - 1).relu(),
    "abs": lambda L, x: (x - 1).abs(),
    "clamp": lambda L, x: x.clamp(1, 2),
    "norm_inf": lambda L, x: x.norm(p=float("inf")),
}


def _setitem(t, index, value):
    t[index] = value
    return t


def _view_inplace(t, y):
    t[0].mul_(y[0])
    return t


# --- programs: ways of asking for gradients ------------------------------------------------------

def _leaves(L):
    return (L.tensor(_inputs["x"].copy(), requires_grad=True),
            L.tensor(_inputs["y"].copy(), requires_grad=True))


_inputs = {"x": X, "y": Y}      # (the tests with ties swap x's values)


def _weights(L, out):
    """Fixed, distinct weights shaped like ``out`` (so the loss's gradient is dense)."""
    return L.tensor(_data(tuple(out.shape), 7, -1, 1)).to(out.dtype)


def program_sum_backward(L, op):
    """op(x).sum().backward(): the gradient starts expanded from a 0-d one."""
    x, y = _leaves(L)
    op(L, x, y).sum().backward()
    return {"x.grad": x.grad, "y.grad": y.grad}


def program_weighted_backward(L, op):
    """(op(x) * w).sum().backward(): a dense gradient of the engine's own."""
    x, y = _leaves(L)
    out = op(L, x, y)
    (out * _weights(L, out)).sum().backward()
    return {"x.grad": x.grad, "y.grad": y.grad}


def program_backward_with_given_grad(L, op):
    """op(x).backward(g) with g held by the caller."""
    x, y = _leaves(L)
    out = op(L, x, y)
    out.backward(_weights(L, out))
    return {"x.grad": x.grad, "y.grad": y.grad}


def program_backward_twice(L, op):
    """Two backward passes: the second adds into .grad."""
    x, y = _leaves(L)
    for _ in range(2):
        out = op(L, x, y)
        (out * _weights(L, out)).sum().backward()
    return {"x.grad": x.grad, "y.grad": y.grad}


def program_used_twice(L, op):
    """op(x) used by two later operations: its gradients are added first."""
    x, y = _leaves(L)
    out = op(L, x, y)
    (out * _weights(L, out) + out.exp()).sum().backward()
    return {"x.grad": x.grad, "y.grad": y.grad}


def program_autograd_grad(L, op):
    """autograd.grad of a weighted sum."""
    x, y = _leaves(L)
    out = op(L, x, y)
    gx, gy = L.autograd.grad((out * _weights(L, out)).sum(), [x, y], allow_unused=True)
    return {"gx": gx, "gy": gy}


def program_autograd_grad_of_sum(L, op):
    """autograd.grad of a plain sum."""
    x, y = _leaves(L)
    gx, gy = L.autograd.grad(op(L, x, y).sum(), [x, y], allow_unused=True)
    return {"gx": gx, "gy": gy}


def program_hooks(L, op):
    """What tensor hooks on the leaves and on the result receive, and .grad after them."""
    x, y = _leaves(L)
    seen = {}
    x.register_hook(lambda g: seen.__setitem__("hook x", (g._version, g.detach().clone())))
    out = op(L, x, y)
    out.register_hook(lambda g: seen.__setitem__("hook out", (g._version, g.detach().clone())))
    (out * _weights(L, out) + out).sum().backward()
    seen.update({"x.grad": x.grad, "y.grad": y.grad})
    return seen


def program_retain_grad(L, op):
    """retain_grad() of the result, used twice; then a second backward."""
    x, y = _leaves(L)
    out = op(L, x, y)
    out.retain_grad()
    loss = (out * _weights(L, out) + out).sum()
    loss.backward(retain_graph=True)
    first = (out.grad._version, out.grad.detach().clone())
    loss.backward()
    return {"out.grad first": first, "out.grad": out.grad, "x.grad": x.grad}


def program_create_graph(L, op):
    """backward(create_graph=True): .grad is made by recorded operations."""
    x, y = _leaves(L)
    out = op(L, x, y)
    (out * _weights(L, out)).sum().backward(create_graph=True)
    first = {"x.grad": x.grad, "y.grad": y.grad}
    (out * _weights(L, out)).sum().backward(create_graph=True)
    result = {k + " first": v for k, v in first.items()}
    result.update({"x.grad": x.grad, "y.grad": y.grad})
    return result


PROGRAMS = [program_sum_backward, program_weighted_backward, program_backward_with_given_grad,
            program_backward_twice, program_used_twice, program_autograd_grad,
            program_autograd_grad_of_sum, program_hooks, program_retain_grad,
            program_create_graph]


def _described(value):
    """(version, values) of a handed-out gradient (or the pair a hook recorded)."""
    if value is None:
        return None
    if isinstance(value, tuple):
        version, tensor = value
    else:
        version, tensor = value._version, value
    return version, np.asarray(tensor.detach().double().tolist())


def _run(L, program, op):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            grads = program(L, op)
        except Exception as error:          # both must fail alike (e.g. a view changed in place)
            return type(error).__name__
    return {name: _described(value) for name, value in grads.items()}


def assert_same_grads(ours, theirs):
    if isinstance(theirs, str) or isinstance(ours, str):
        assert ours == theirs
        return
    assert ours.keys() == theirs.keys()
    def version(described):
        return None if described is None else described[0]
    versions = {name: (version(ours[name]), version(theirs[name])) for name in theirs}
    assert all(a == b for a, b in versions.values()), f"versions (minigrad, torch): {versions}"
    for name in theirs:
        if theirs[name] is not None:
            assert ours[name] is not None, name
            np.testing.assert_allclose(ours[name][1], theirs[name][1], rtol=1e-4, atol=1e-5,
                                       err_msg=name)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__[len("program_"):])
@pytest.mark.parametrize("op_name", list(OPS))
def test_gradient_versions_match_torch(op_name, program):
    torch = import_torch()
    op = OPS[op_name]
    assert_same_grads(_run(minigrad, program, op), _run(torch, program, op))


@pytest.mark.parametrize("program", PROGRAMS[:3] + PROGRAMS[5:6],
                         ids=lambda p: p.__name__[len("program_"):])
@pytest.mark.parametrize("op_name", list(TIE_OPS))
def test_gradient_versions_with_ties_match_torch(op_name, program):
    torch = import_torch()

    def op(L, x, y):
        return TIE_OPS[op_name](L, x)

    def with_ties(L, op):
        _inputs["x"] = TIES
        try:
            return program(L, op)
        finally:
            _inputs["x"] = X
    assert_same_grads(_run(minigrad, with_ties, op), _run(torch, with_ties, op))


# --- whole programs: hooks, optimizers, custom Functions, second order... --------------------------
# Each returns the versions (and a few facts) of the gradients it can see.

def leaf(L, v=X):
    return L.tensor(v.copy(), requires_grad=True)


PROGRAMS_BY_NAME = {}


def prog(f):
    PROGRAMS_BY_NAME[f.__name__] = f
    return f


@prog
def hook_keeps(L):
    x = leaf(L)
    kept = []
    x.register_hook(lambda g: kept.append(g))
    (x * x).sum().backward()
    return [x.grad._version, kept[0]._version, x.grad is kept[0]]


@prog
def hook_replaces(L):
    x = leaf(L)
    x.register_hook(lambda g: g * 2)
    (x * x).sum().backward()
    return [x.grad._version]


@prog
def hook_returns_same(L):
    x = leaf(L)
    x.register_hook(lambda g: g)
    (x * x * 3).sum().backward()
    return [x.grad._version]


@prog
def hook_inplace(L):
    x = leaf(L)
    x.register_hook(lambda g: g.mul_(2))
    (x * x * 3).sum().backward()
    return [x.grad._version]


@prog
def nonleaf_hook_inplace(L):
    x = leaf(L)
    y = x * 2
    y.register_hook(lambda g: g.add_(1))
    (y * y).sum().backward()
    return [x.grad._version]


@prog
def post_accumulate(L):
    x = leaf(L)
    seen = []
    x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad._version))
    (x * x).sum().backward()
    (x * x).sum().backward()
    return seen + [x.grad._version]


@prog
def inputs_kw(L):
    x = leaf(L)
    y = leaf(L)
    (x * y * x).sum().backward(inputs=[x])
    return [x.grad._version, y.grad]


@prog
def grad_of_intermediate(L):
    x = leaf(L)
    y = x * 2
    z = y * y
    g, = L.autograd.grad(z.sum() + y.sum(), y)
    return [g._version]


@prog
def grad_two_outputs(L):
    x = leaf(L)
    y = x * 2
    g = L.autograd.grad([y.sum(), (y * y).sum()], x)[0]
    return [g._version]


@prog
def grad_outputs_given(L):
    x = leaf(L)
    y = x * x
    go = L.ones(3, 4)
    g = L.autograd.grad(y, x, grad_outputs=go)[0]
    return [g._version, go._version]


@prog
def user_grad_then_backward(L):
    x = leaf(L)
    x.grad = L.zeros(3, 4)
    (x * x).sum().backward()
    return [x.grad._version]


@prog
def zero_grad_then(L):
    x = leaf(L)
    (x * 2).sum().backward()
    x.grad.zero_()
    (x * x).sum().backward()
    return [x.grad._version]


@prog
def sgd_step(L):
    x = leaf(L)
    opt = L.optim.SGD([x], lr=0.1, momentum=0.9)
    for _ in range(2):
        opt.zero_grad()
        (x * x).sum().backward()
        opt.step()
    return [x.grad._version, x._version]


@prog
def sgd_zero_none_false(L):
    x = leaf(L)
    opt = L.optim.SGD([x], lr=0.1)
    for _ in range(2):
        opt.zero_grad(set_to_none=False)
        (x * x).sum().backward()
        opt.step()
    return [x.grad._version, x._version]


@prog
def custom_function(L):
    class F(L.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    x = leaf(L)
    (F.apply(x) + F.apply(x)).sum().backward()
    return [x.grad._version]


@prog
def custom_function_returns_grad(L):
    class F(L.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g
    x = leaf(L)
    y = x * 3
    (F.apply(y) * 2).sum().backward()
    return [x.grad._version]


@prog
def anomaly(L):
    x = leaf(L)
    with L.autograd.detect_anomaly():
        (x * x).sum().backward()
    return [x.grad._version]


@prog
def leaf_used_thrice(L):
    x = leaf(L)
    (x * x + x.exp() + x.sin()).sum().backward()
    return [x.grad._version]


@prog
def chain_w2(L):
    x = L.ones(1, requires_grad=True)
    b = L.ones(1, requires_grad=True)
    y = x
    for _ in range(10):
        y = y * 1.0001
        y = y + b
    y.sum().backward()
    return [x.grad._version, b.grad._version]


@prog
def scalar_leaf(L):
    x = L.tensor(2.0, requires_grad=True)
    (x * x * x).backward()
    return [x.grad._version]


@prog
def broadcast_twice(L):
    x = L.ones(4, requires_grad=True)
    m = L.ones(3, 4)
    ((x * m) + (x * m * 2)).sum().backward()
    return [x.grad._version]


@prog
def broadcast_keepdim(L):
    x = L.ones(3, 1, requires_grad=True)
    m = L.ones(3, 4)
    ((x * m) * (x * m)).sum().backward()
    return [x.grad._version]


@prog
def retain_graph_thrice(L):
    x = leaf(L)
    l = (x * x).sum()
    for _ in range(3):
        l.backward(retain_graph=True)
    return [x.grad._version]


@prog
def create_graph_then_plain(L):
    x = leaf(L)
    (x * x).sum().backward(create_graph=True)
    (x * x).sum().backward()
    return [x.grad._version]


@prog
def double_backward(L):
    x = leaf(L)
    g, = L.autograd.grad((x * x * x).sum(), x, create_graph=True)
    gg, = L.autograd.grad((g * g).sum(), x)
    return [g._version, gg._version]


@prog
def view_leaf_grad(L):
    base = leaf(L)
    v = base[1:]
    (v * v).sum().backward()
    return [base.grad._version]


@prog
def split_grads(L):
    x = leaf(L)
    a, b = x.split(2, 1)
    (a * b).sum().backward()
    return [x.grad._version]


@prog
def func_grad(L):
    f = L.func.grad(lambda x: (x * x).sum())
    return [f(L.tensor(X))._version]


@prog
def func_vjp(L):
    out, vjp = L.func.vjp(lambda x: x * x, L.tensor(X))
    return [vjp(L.ones(3, 4))[0]._version]


@prog
def jacobian(L):
    return [L.autograd.functional.jacobian(lambda x: x * x, L.tensor(X[0]))._version]


@prog
def checkpointed(L):
    import importlib
    cp = importlib.import_module(L.__name__ + ".utils.checkpoint")
    x = leaf(L)
    cp.checkpoint(lambda a: a * a, x, use_reentrant=False).sum().backward()
    return [x.grad._version]


@prog
def mlp(L):
    L.manual_seed(0)
    net = L.nn.Sequential(L.nn.Linear(4, 5), L.nn.ReLU(), L.nn.Linear(5, 2))
    x = L.tensor(X)
    L.nn.functional.cross_entropy(net(x), L.tensor([0, 1, 1])).backward()
    return [p.grad._version for p in net.parameters()]


@prog
def mlp_twice(L):
    L.manual_seed(0)
    net = L.nn.Sequential(L.nn.Linear(4, 5), L.nn.Tanh(), L.nn.Linear(5, 2))
    x = L.tensor(X)
    for _ in range(2):
        L.nn.functional.mse_loss(net(x), L.zeros(3, 2)).backward()
    return [p.grad._version for p in net.parameters()]


@prog
def shared_weight(L):
    w = L.tensor(X[:3, :3].copy(), requires_grad=True)
    x = L.tensor(X[:, :3].copy())
    (x @ w @ w).sum().backward()
    return [w.grad._version]


@prog
def conv_like_unfold_sum(L):
    x = leaf(L)
    ((x[:, :2] * x[:, 2:]).sum() + x.sum()).backward()
    return [x.grad._version]


@prog
def zero_dim_leaf_used_three_ways(L):
    x = L.tensor(0.3, requires_grad=True)
    (x.reshape(1, 1) * 2).sum().backward()
    versions = [x.grad._version]
    x.grad = None
    ((x * L.ones(2, 2)).sum() + (x * 3).sum() + (x.view(1) * 2).sum()).backward()
    return versions + [x.grad._version]


@prog
def relu_and_more(L):
    x = L.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    (x.relu() + x * 2).sum().backward()
    return [x.grad._version]


@prog
def products_with_zeros(L):
    values = np.array([[0, 2, 3, 1], [1, 0, 0, 2], [1, 2, 3, 4]], np.float32)
    versions = []
    for create_graph in (False, True):
        for op in (lambda x: x.cumprod(0), lambda x: x.cumprod(1), lambda x: x.prod(1),
                   lambda x: x.prod()):
            x = leaf(L, values)
            g, = L.autograd.grad((op(x) * 0.5).sum(), x, create_graph=create_graph)
            versions.append(g._version)
    return versions


@prog
def loss_gradients_for_input_and_target(L):
    F = L.nn.functional
    weight = L.tensor([1.0, 2.0, 0.5, 1.0])
    losses = [
        lambda x, t, r: F.binary_cross_entropy(x, t, reduction=r),
        lambda x, t, r: F.binary_cross_entropy(x, t, weight=weight, reduction=r),
        lambda x, t, r: F.binary_cross_entropy_with_logits(x, t, reduction=r),
        lambda x, t, r: F.binary_cross_entropy_with_logits(x, t, pos_weight=weight, reduction=r),
        lambda x, t, r: F.kl_div(x, t, reduction=r),
        lambda x, t, r: F.mse_loss(x, t, reduction=r),
        lambda x, t, r: F.huber_loss(x, t, reduction=r, delta=0.1),
    ]
    versions = []
    for loss in losses:
        for reduction in ("mean", "sum", "none"):
            for create_graph in (False, True):
                x, t = leaf(L, X / 2), leaf(L, Y / 2)
                out = loss(x, t, reduction)
                grads = L.autograd.grad((out * 0.7).sum(), [x, t], create_graph=create_graph)
                versions.append([g._version for g in grads])
    return versions


@prog
def starting_gradients(L):
    x = leaf(L)
    g = L.ones(3, 4)
    x.backward(g)
    x.backward(g)
    facts = [x.grad._version, g._version, x.grad is g]
    y = x * 2
    L.autograd.backward([y, x * 3], [g, g])
    facts += [x.grad._version, g._version]
    r = L.autograd.grad(y, y, grad_outputs=g)[0]        # the very gradient, handed back
    return facts + [r._version, r is g]


@prog
def node_hooks_see_versions(L):
    x = leaf(L)
    y = x * x
    seen = []
    y.grad_fn.register_hook(lambda gi, go: seen.append([g._version for g in gi if g is not None]))
    y.grad_fn.register_prehook(lambda go: seen.append([g._version for g in go]))
    (y + y).sum().backward()
    return seen + [x.grad._version]


@prog
def column_major_leaf(L):
    w = L.tensor(X.T.copy()).t().detach().requires_grad_()     # (3, 4), laid out column by column
    x = L.tensor(X[:, :3].copy())
    (x.t() @ w * 2).sum().backward()
    return [w.grad._version, w.grad.stride()]


@prog
def transposed_gradient_through_kernels(L):
    """A transposed gradient through a pointwise backward kernel (sigmoid_backward,
    elu_backward...) gives a transposed gradient, as PyTorch's kernels lay out their result
    like grad: AccumulateGrad copies it into the leaf's layout (a copy_: version 1)."""
    F = L.nn.functional
    functions = [lambda x: x.sigmoid(), lambda x: x.tanh(), lambda x: F.elu(x), lambda x: F.celu(x, 0.5),
                 lambda x: F.selu(x), lambda x: F.gelu(x), lambda x: F.gelu(x, approximate="tanh"),
                 lambda x: F.silu(x), lambda x: F.mish(x), lambda x: F.softplus(x, 2.0),
                 lambda x: F.hardsigmoid(x), lambda x: F.hardswish(x), lambda x: F.hardshrink(x, 0.9),
                 lambda x: F.softshrink(x, 0.9), lambda x: (x / 2).logit(), lambda x: (x / 2).logit(0.3),
                 lambda x: F.pad(x, (1, 2), value=0.5), lambda x: x.angle(), lambda x: L.kron(x, x),
                 lambda x: x.put(_idx(L, [0]), x.reshape(-1)[:1] * 2),
                 lambda x: x.index_put((_idx(L, [0]),), x.sum())]
    facts = []
    for f in functions:
        x = leaf(L)
        y = f(x)
        y.backward(L.ones(y.shape[1], y.shape[0]).t())
        facts.append([x.grad._version, x.grad.stride()])
    return facts


@prog
def two_layouts_added(L):
    """Two gradients laid out differently: the engine adds them out of place (a view's memory
    is not its own), the sum laid out like the first to arrive; AccumulateGrad copies a sum
    laid out unlike the leaf into the leaf's layout, a copy_ (version 1), else adopts it."""
    w, c = leaf(L), L.tensor(_data((2, 3, 4), 2), requires_grad=True)
    wt = L.tensor(X.T.copy()).t().detach().requires_grad_()
    programs = [(w, lambda: (w * 3).sum() + (w.t() * 2).sum()),
                (w, lambda: (w.t() * 3).sum() + (w * 2).sum()),
                (wt, lambda: (wt * 3).sum() + (wt.t() * 2).sum()),
                (wt, lambda: (wt.t() * 3).sum() + (wt * 2).sum()),
                (c, lambda: (c * 3).sum() + (c.permute(2, 0, 1) * 2).sum()),
                (w, lambda: (w * 3).sum() + (w.t().contiguous() * 2).sum()),
                (w, lambda: (w * 2).sum() + (w.t() * 3).sum() + (w * 4).sum())]
    facts = []
    for create_graph in (False, True):
        for x, f in programs:
            x.grad = None
            f().backward(create_graph=create_graph)
            facts.append([x.grad._version, x.grad.stride()])
    return facts


@pytest.mark.parametrize("name", list(PROGRAMS_BY_NAME))
def test_program_gradient_versions_match_torch(name):
    torch = import_torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert PROGRAMS_BY_NAME[name](minigrad) == PROGRAMS_BY_NAME[name](torch)


# --- the in-place steps must not break vmap: a batched gradient is never written into ----------
# zeros that are not batched (PyTorch then works out of place)

VMAPPED = {
    "max0": lambda L, x: x.max(0)[0].sum(),
    "max": lambda L, x: x.max(),
    "sort": lambda L, x: x.sort(1)[0][:, 0].sum(),
    "topk": lambda L, x: x.topk(2, 1)[0].sum(),
    "gather": lambda L, x: x.gather(1, _idx(L, [[0], [2], [1]])).sum(),
    "index_select": lambda L, x: x.index_select(1, _idx(L, [0, 0, 3])).sum(),
    "index": lambda L, x: x[[0, 0, 2]].sum(),
    "maximum": lambda L, x: L.maximum(x, x.flip(1)).sum(),
    "bce_logits": lambda L, x: L.nn.functional.binary_cross_entropy_with_logits(x, x.detach() / 3),
    "cumprod_with_zeros": lambda L, x: (x.cumprod(1) * 0.5).sum(),
    "diagonal": lambda L, x: x.diagonal().sum(),
    "mm": lambda L, x: (x @ x.t()).sum(),
    "relu": lambda L, x: (x - 1).relu().sum(),
    "used_twice": lambda L, x: (x * x).sum(),
}


@pytest.mark.parametrize("name", list(VMAPPED))
def test_vmap_of_grad_matches_torch(name):
    torch = import_torch()
    batch = np.stack([X, Y])
    batch[0, 1, 2] = 0.0                  # (cumprod's gradient with a zero takes another path)
    results = []
    for L in (minigrad, torch):
        grads = L.func.vmap(L.func.grad(lambda x: VMAPPED[name](L, x)))(L.tensor(batch))
        results.append(grads.detach().numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", list(VMAPPED))
def test_forward_over_reverse_matches_torch(name):
    """jvp of grad: the tangents pass through the formulas' in-place steps."""
    torch = import_torch()
    point = X.copy()
    point[1, 2] = 0.0
    results = []
    for L in (minigrad, torch):
        out, tangent = L.func.jvp(L.func.grad(lambda x: VMAPPED[name](L, x)), (L.tensor(point),),
                                  (L.tensor(Y),))
        results.append((out.detach().numpy(), tangent.detach().numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


# what reaches the leaf x through sgn (abs's second derivative): PyTorch's gradient of sgn is a
# ZeroTensor; each program is a list of backward calls, (loss, create_graph)
def _through_sgn(L, x):
    return L.autograd.grad(x.abs().sum(), x, create_graph=True)[0].sum()


def _poisson_second_order(L, x):
    loss = L.nn.functional.poisson_nll_loss(x, x.abs(), log_input=False)
    return L.autograd.grad(loss, x, create_graph=True)[0].sum()


ZERO_TENSOR_PROGRAMS = {
    "only": lambda L, x: [(_through_sgn(L, x), False)],
    "first_then_others": lambda L, x: [(_poisson_second_order(L, x), False)],
    "with_another": lambda L, x: [(_through_sgn(L, x) + (x * 3).sum(), False)],
    "another_first": lambda L, x: [((x * 3).sum() + _through_sgn(L, x), False)],
    "through_add": lambda L, x: [(L.autograd.grad((x + 1).abs().sum(), x, create_graph=True)[0].sum(), False)],
    "twice": lambda L, x: [(_through_sgn(L, x), False), (_through_sgn(L, x), False)],
    "twice_recorded": lambda L, x: [(_through_sgn(L, x), False), (_through_sgn(L, x), True)],
}


@pytest.mark.parametrize("grad_before", [False, True])
@pytest.mark.parametrize("name", sorted(ZERO_TENSOR_PROGRAMS))
def test_sgn_gradient_is_a_zero_tensor(name, grad_before):
    """sgn's gradient is PyTorch's ZeroTensor: a leaf whose only gradient it is keeps it as .grad
    (``_is_zerotensor()``, version 0) and refuses the next backward into it (two of them, with
    create_graph, add up to another); added to a gradient that arrives after it, it gives a new
    tensor (nothing is added into it in place) (found by the random-program test)."""
    torch = import_torch()

    def outcome(L):
        x = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
        if grad_before:
            x.grad = L.ones(3)
        seen = []
        for loss, create_graph in ZERO_TENSOR_PROGRAMS[name](L, x):
            try:
                loss.backward(create_graph=create_graph)
            except RuntimeError as error:
                seen.append(str(error))
            seen.append((x.grad._is_zerotensor(), x.grad._version))
        return seen
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert outcome(minigrad) == outcome(torch)
