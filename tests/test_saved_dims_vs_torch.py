"""Dims a node keeps, as PyTorch's node shows them.

PyTorch keeps a dim as it was given: ``x.sum(-1).grad_fn._saved_dim`` is ``(2**64 - 1,)``
(the unsigned 64-bit number with the bits of -1), a tuple of dims stays in the order given,
and each setting has PyTorch's name (``_saved_dim`` and ``_saved_keepdim`` on AmaxBackward0,
not minigrad's own). Each program below runs in minigrad and in PyTorch; the node's name,
every ``_saved_*`` name dir() lists and each one's value must agree. F.glu and nanmean are
also checked for values, gradients, gradcheck and their second-order graph.
"""
import numpy as np
import pytest

import minigrad

from conftest import import_torch

# minigrad's own Node internals that happen to start with "_saved" (not saved values)
INTERNALS = {"_saved", "_saved_names", "_saved_value", "_saved_versions", "_raw_saved_value"}


def _long(L, values):
    return L.tensor(values, dtype=L.long)


# name -> program(L, x) with x a 2x3 float tensor that requires grad; each gives a tensor
# whose grad_fn is compared (or the node itself). Every dim is written negative and
# non-negative, since PyTorch shows the two differently.
PROGRAMS = {}
for _dim in (-1, 1):
    _d = "neg" if _dim < 0 else "pos"
    PROGRAMS.update({
        f"sum_{_d}": lambda L, x, d=_dim: x.sum(d),
        f"sum_keepdim_{_d}": lambda L, x, d=_dim: x.sum(d, keepdim=True),
        f"mean_{_d}": lambda L, x, d=_dim: x.mean(d),
        f"unsqueeze_{_d}": lambda L, x, d=_dim: x.unsqueeze(d),
        f"squeeze_{_d}": lambda L, x, d=_dim: x.unsqueeze(d).squeeze(d),
        f"squeeze_not_one_{_d}": lambda L, x, d=_dim: x.squeeze(d),
        f"transpose_{_d}": lambda L, x, d=_dim: x.transpose(d, 0),
        f"softmax_{_d}": lambda L, x, d=_dim: x.softmax(d),
        f"F_softmax_{_d}": lambda L, x, d=_dim: L.nn.functional.softmax(x, d),
        f"log_softmax_{_d}": lambda L, x, d=_dim: x.log_softmax(d),
        f"cumsum_{_d}": lambda L, x, d=_dim: x.cumsum(d),
        f"cumprod_{_d}": lambda L, x, d=_dim: x.cumprod(d),
        f"select_{_d}": lambda L, x, d=_dim: x.select(d, 0),
        f"narrow_{_d}": lambda L, x, d=_dim: x.narrow(d, 0, 1),
        f"max_dim_{_d}": lambda L, x, d=_dim: x.max(d)[0],
        f"min_dim_{_d}": lambda L, x, d=_dim: x.min(d, keepdim=True)[0],
        f"norm_dim_{_d}": lambda L, x, d=_dim: x.norm(dim=d),
        f"logsumexp_{_d}": lambda L, x, d=_dim: x.logsumexp(d),
        f"prod_dim_{_d}": lambda L, x, d=_dim: x.prod(d),
        f"var_{_d}": lambda L, x, d=_dim: x.var(d),
        f"std_{_d}": lambda L, x, d=_dim: x.std(d, keepdim=True),
        f"amax_{_d}": lambda L, x, d=_dim: x.amax(d),
        f"amin_{_d}": lambda L, x, d=_dim: x.amin(d),
        f"movedim_{_d}": lambda L, x, d=_dim: x.movedim(d, 0),
        f"flip_{_d}": lambda L, x, d=_dim: x.flip(d),
        f"roll_{_d}": lambda L, x, d=_dim: x.roll(1, d),
        f"gather_{_d}": lambda L, x, d=_dim: x.gather(d, L.zeros(2, 1, dtype=L.long)),
        f"cat_{_d}": lambda L, x, d=_dim: L.cat([x, x], d),
        f"stack_{_d}": lambda L, x, d=_dim: L.stack([x, x], d),
        f"unbind_{_d}": lambda L, x, d=_dim: x.unbind(d)[0],
        f"chunk_{_d}": lambda L, x, d=_dim: x.chunk(2, d)[0],
        f"split_{_d}": lambda L, x, d=_dim: x.split(1, d)[0],
        f"split_sizes_{_d}": lambda L, x, d=_dim: x.split([1, 2], d)[0],
        f"median_dim_{_d}": lambda L, x, d=_dim: x.median(d)[0],
        f"nanmedian_dim_{_d}": lambda L, x, d=_dim: x.nanmedian(d)[0],
        f"kthvalue_{_d}": lambda L, x, d=_dim: x.kthvalue(1, d)[0],
        f"mode_{_d}": lambda L, x, d=_dim: x.mode(d)[0],
        f"sort_{_d}": lambda L, x, d=_dim: x.sort(d)[0],
        f"topk_{_d}": lambda L, x, d=_dim: x.topk(1, d)[0],
        f"index_select_{_d}": lambda L, x, d=_dim: x.index_select(d, _long(L, [0])),
        f"scatter_{_d}": lambda L, x, d=_dim: x.scatter(d, L.zeros(2, 1, dtype=L.long), x),
        f"scatter_value_{_d}": lambda L, x, d=_dim: x.scatter(d, L.zeros(2, 1, dtype=L.long), 2.0),
        f"scatter_add_{_d}": lambda L, x, d=_dim: x.scatter_add(d, L.zeros(2, 1, dtype=L.long), x),
        f"index_add_{_d}": lambda L, x, d=_dim: x.index_add(d, _long(L, [0]), x[:, :1]),
        f"nansum_{_d}": lambda L, x, d=_dim: x.nansum(d),
        f"cummax_{_d}": lambda L, x, d=_dim: x.cummax(d)[0],
        f"cummin_{_d}": lambda L, x, d=_dim: x.cummin(d)[0],
        f"unfold_{_d}": lambda L, x, d=_dim: x.unfold(d, 2, 1),
        f"glu_{_d}": lambda L, x, d=_dim: L.nn.functional.glu(x.repeat(2, 2), d),
        f"nanmean_{_d}": lambda L, x, d=_dim: x.nanmean(d),
        f"torch_nanmean_{_d}": lambda L, x, d=_dim: L.nanmean(x, d, keepdim=True),
        f"t_squeeze_{_d}": lambda L, x, d=_dim: x[:1].t().squeeze(d - 1 if d > 0 else d - 1),
        f"expand_sum_{_d}": lambda L, x, d=_dim: x.expand(2, 2, 3).sum(d - 2),
        f"diagonal_{_d}": lambda L, x, d=_dim: x.diagonal(0, d, d - 1),
        f"diag_embed_{_d}": lambda L, x, d=_dim: L.diag_embed(x, 0, d, d - 1 if d > 0 else d + 1),
        f"tensor_split_{_d}": lambda L, x, d=_dim: x.tensor_split(2, d)[0],
        f"index_copy_{_d}": lambda L, x, d=_dim: x.index_copy(d, _long(L, [0]), x[:, :1]),
        f"index_fill_{_d}": lambda L, x, d=_dim: x.index_fill(d, _long(L, [0]), 2.0),
        f"repeat_interleave_{_d}": lambda L, x, d=_dim: x.repeat_interleave(2, d),
        f"unflatten_{_d}": lambda L, x, d=_dim: x.unflatten(d, (3, 1) if d > 0 else (1, 3)),
        f"flatten_{_d}": lambda L, x, d=_dim: x.flatten(d - 1, d),
        f"argsort_values_{_d}": lambda L, x, d=_dim: x.sort(d, descending=True)[0],
        f"take_along_dim_{_d}": lambda L, x, d=_dim: L.take_along_dim(x, L.zeros(2, 1, dtype=L.long), d),
        f"all_dims_sum_{_d}": lambda L, x, d=_dim: x.sum((d, 0)),
        f"var_dims_{_d}": lambda L, x, d=_dim: x.var((0, d)),
        f"amax_dims_{_d}": lambda L, x, d=_dim: x.amax((d, 0)),
        f"logsumexp_dims_{_d}": lambda L, x, d=_dim: x.logsumexp((d, 0)),
        f"norm_dims_{_d}": lambda L, x, d=_dim: x.norm(dim=(d, 0)),
        f"mean_dims_{_d}": lambda L, x, d=_dim: x.mean((d, 0), keepdim=True),
        f"flip_dims_{_d}": lambda L, x, d=_dim: x.flip((d, 0)),
        f"roll_dims_{_d}": lambda L, x, d=_dim: x.roll((1, 1), (d, 0)),
        f"nansum_dims_{_d}": lambda L, x, d=_dim: x.nansum((d, 0)),
        f"permute_{_d}": lambda L, x, d=_dim: x.permute(d, 0),
        f"rot90_{_d}": lambda L, x, d=_dim: x.rot90(1, (d, 0)),
    })
PROGRAMS.update({
    "sum_no_dim": lambda L, x: x.sum(), "mean_no_dim": lambda L, x: x.mean(),
    "var_no_dim": lambda L, x: x.var(), "std_no_dim": lambda L, x: x.std(),
    "amax_no_dim": lambda L, x: x.amax(), "amin_no_dim": lambda L, x: x.amin(),
    "norm_no_dim": lambda L, x: x.norm(), "logsumexp_empty_dims": lambda L, x: x.logsumexp(()),
    "var_none_dim": lambda L, x: L.var(x, None, correction=0),
    "squeeze_all": lambda L, x: x.unsqueeze(0).squeeze(),
    "squeeze_dims": lambda L, x: x.unsqueeze(0).unsqueeze(-1).squeeze((-1, 0)),
    "squeeze_dims_pos": lambda L, x: x.unsqueeze(0).unsqueeze(-1).squeeze((0, 3)),
    "nanmean_no_dim": lambda L, x: x.nanmean(), "glu_default": lambda L, x: L.nn.functional.glu(x.repeat(2, 2)),
    "amax_empty_dims": lambda L, x: x.amax(()), "sum_empty_dims": lambda L, x: x.sum(()),
    "diagonal_offset": lambda L, x: x.diagonal(-1), "transpose_mixed": lambda L, x: x.transpose(0, -1),
    "var_unbiased": lambda L, x: x.var(-1, unbiased=False), "std_correction": lambda L, x: x.std(0, correction=0.5),
    "var_none": lambda L, x: x.var(unbiased=False), "roll_no_dims": lambda L, x: x.roll(1),
    "var_keepdim_only": lambda L, x: x.var(keepdim=True), "std_keepdim_only": lambda L, x: L.std(x, keepdim=True),
    "var_correction_none": lambda L, x: x.var(correction=None), "std_correction_one": lambda L, x: x.std(correction=1),
    "softmax_no_dim_given": lambda L, x: L.nn.functional.softmax(x, dim=None, _stacklevel=5),
    "movedim_tuple": lambda L, x: x.unsqueeze(0).movedim((-1, 0), (0, -1)),
    "max_keepdim": lambda L, x: x.max(dim=-1, keepdim=True)[0],
    "split_chunk_empty": lambda L, x: x[:, :0].chunk(2, -1)[0],
    "repeat": lambda L, x: x.repeat(1, 2), "tile": lambda L, x: x.tile(2),
    "matmul_batched": lambda L, x: x.expand(2, 2, 3).matmul(x.t()),
    "expand": lambda L, x: x.expand(2, 2, 3), "reshape": lambda L, x: x.reshape(3, 2),
    "unfold_neg_size": lambda L, x: x.unfold(-2, 1, 1),
    "index_last": lambda L, x: x[..., -1], "slice_last": lambda L, x: x[:, -2:],
    "std_all": lambda L, x: x.std(), "median_all": lambda L, x: x.median(),
    "kthvalue_default": lambda L, x: x.kthvalue(1)[0], "mode_default": lambda L, x: x.mode()[0],
    "cummax_pos": lambda L, x: x.cummax(0)[0], "sort_default": lambda L, x: x.sort()[0],
    "topk_default": lambda L, x: x.topk(2)[0], "max_all": lambda L, x: x.max(),
    "squeeze_in_place": lambda L, x: x.unsqueeze(1).clone().squeeze_(-2),
    "squeeze_in_place_all": lambda L, x: x.unsqueeze(1).clone().squeeze_(),
    "unsqueeze_in_place": lambda L, x: x.clone().unsqueeze_(-1), "transpose_in_place": lambda L, x: x.clone().transpose_(-1, 0),
    "cumsum_in_place": lambda L, x: x.clone().cumsum_(-1),
    "scatter_in_place": lambda L, x: x.clone().scatter_(-1, L.zeros(2, 1, dtype=L.long), 2.0),
    "matmul_vector_matrix": lambda L, x: x[0].matmul(x.t()),
})


def _node(made):
    """A program gives a tensor (its grad_fn is looked at) or a node itself."""
    return made.grad_fn if hasattr(made, "grad_fn") else made


def saved_names(node):
    return sorted(n for n in dir(node) if n.startswith("_saved_") and n not in INTERNALS)


def plain(value):
    if hasattr(value, "detach"):
        return ("tensor", value.detach().numpy().tolist())
    return value


def _data():
    return np.random.default_rng(0).uniform(0.5, 2, (2, 3))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_saved_dims_show_what_torchs_node_shows(name):
    torch = import_torch()
    data = _data()
    try:
        theirs = _node(PROGRAMS[name](torch, torch.tensor(data, requires_grad=True)))
    except Exception as error:          # PyTorch refuses: so must minigrad, with its message
        with pytest.raises(type(error)) as ours:
            PROGRAMS[name](minigrad, minigrad.tensor(data, requires_grad=True))
        assert str(ours.value).split("\nminigrad hint:")[0] == str(error)
        return
    ours = _node(PROGRAMS[name](minigrad, minigrad.tensor(data, requires_grad=True)))
    assert ours.name() == theirs.name()
    assert saved_names(ours) == saved_names(theirs)
    # a setting another node of minigrad's same class keeps is no attribute of this one
    for attribute in ("_saved_dims", "_saved_dim", "_saved_keepdim", "_saved_sizes"):
        assert hasattr(ours, attribute) == hasattr(theirs, attribute), attribute
    for attribute in saved_names(theirs):
        a, b = plain(getattr(ours, attribute)), plain(getattr(theirs, attribute))
        if isinstance(b, tuple) and b and b[0] == "tensor":
            np.testing.assert_allclose(a[1], b[1], rtol=1e-12, err_msg=attribute)
        else:
            assert a == b, attribute
            assert type(a) is type(b), attribute


# --- glu and nanmean: new operations, checked in full -----------------------------------------

NEW_OPERATIONS = {
    "glu_last": lambda L, x: L.nn.functional.glu(x),
    "glu_dim0": lambda L, x: L.nn.functional.glu(x, 0),
    "glu_neg_dim0": lambda L, x: L.nn.functional.glu(x, -2),
    "nanmean": lambda L, x: x.nanmean(),
    "nanmean_dim": lambda L, x: L.nanmean(x, -1),
    "nanmean_dims_keepdim": lambda L, x: x.nanmean((1, 0), keepdim=True),
    "nanmean_keepdim_only": lambda L, x: x.nanmean(keepdim=True),
    "nanmean_dtype": lambda L, x: x.nanmean(0, dtype=L.float32),
}


def _input(library, nan=False):
    data = np.random.default_rng(1).standard_normal((4, 6))
    if nan:
        data[1, 2] = data[3, 0] = np.nan
    return library.tensor(data, requires_grad=True)


def _graph(node, depth=4):
    """Node names and _saved_* settings (not tensors), with next_functions, a few levels deep."""
    if node is None:
        return None
    settings = {name: getattr(node, name) for name in saved_names(node)
                if not hasattr(getattr(node, name), "detach")}
    children = tuple(_graph(child, depth - 1) for child, _ in node.next_functions) if depth else ()
    return node.name(), settings, children


@pytest.mark.parametrize("nan", [False, True])
@pytest.mark.parametrize("name", sorted(NEW_OPERATIONS))
def test_new_operations_values_gradients_and_graphs_as_torch(name, nan):
    torch = import_torch()
    program = NEW_OPERATIONS[name]
    if nan and name.startswith("glu"):
        return                       # (glu has no nan handling to check)
    x_ours, x_theirs = _input(minigrad, nan), _input(torch, nan)
    ours, theirs = program(minigrad, x_ours), program(torch, x_theirs)
    assert ours.dtype.__repr__() == theirs.dtype.__repr__()
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-6, atol=1e-12)
    assert _graph(ours.grad_fn) == _graph(theirs.grad_fn)
    # gradient, with its own graph (second order)
    weights = np.random.default_rng(2).standard_normal(tuple(theirs.shape))
    (g_ours,) = minigrad.autograd.grad((ours * minigrad.tensor(weights, dtype=ours.dtype)).sum(), x_ours,
                                       create_graph=True)
    (g_theirs,) = torch.autograd.grad((theirs * torch.tensor(weights, dtype=theirs.dtype)).sum(), x_theirs,
                                      create_graph=True)
    np.testing.assert_allclose(g_ours.detach().numpy(), g_theirs.detach().numpy(), rtol=1e-6, atol=1e-12)
    assert _graph(g_ours.grad_fn, depth=1) == _graph(g_theirs.grad_fn, depth=1)
    assert g_ours.requires_grad == g_theirs.requires_grad       # (nanmean is linear: no second order)
    if g_theirs.requires_grad:       # third order: the values
        (gg_ours,) = minigrad.autograd.grad((g_ours * g_ours).sum(), x_ours)
        (gg_theirs,) = torch.autograd.grad((g_theirs * g_theirs).sum(), x_theirs)
        np.testing.assert_allclose(gg_ours.numpy(), gg_theirs.numpy(), rtol=1e-6, atol=1e-12)


@pytest.mark.parametrize("name", sorted(NEW_OPERATIONS))
def test_new_operations_pass_gradcheck_and_gradgradcheck(name):
    if "dtype" in name:
        return                       # (float32 on purpose: gradcheck wants float64)
    x = _input(minigrad)
    program = NEW_OPERATIONS[name]
    assert minigrad.autograd.gradcheck(lambda t: program(minigrad, t), (x,))
    assert minigrad.autograd.gradgradcheck(lambda t: program(minigrad, t), (x,))


@pytest.mark.parametrize("program", [
    "F.glu(L.tensor(1.0))", "F.glu(L.ones(2, 3))", "F.glu(L.ones(2, 3), 0)", "F.glu(L.ones(2, 3), -3)",
    "F.glu(L.ones(4, dtype=L.long))", "F.glu(L.ones(3, dtype=L.bool))", "L.ones(2, dtype=L.long).nanmean()",
    "L.ones(2, 3).nanmean(5)", "L.nanmean(L.ones(0))", "F.glu(L.ones(2, 0))",
    "F.glu(1)", "F.glu(L.ones(4), 1.5)", "F.glu(L.ones(4), dim=None)", "F.glu(L.ones(4), True)",
    "F.glu(input=L.ones(4), dim=0)", "L.nanmean(1)", "L.ones(2).nanmean(dim=1.5)",
    "L.ones(2).nanmean(keepdim=1)", "L.ones(2, dtype=L.float16).nanmean(0)",
])
def test_new_operations_refuse_as_torch(program):
    torch = import_torch()

    def run(L):
        return eval(program, {"L": L, "F": L.nn.functional})
    try:
        expected = run(torch)
    except Exception as error:
        with pytest.raises(type(error)) as ours:
            run(minigrad)
        assert str(ours.value).split("\nminigrad hint:")[0] == str(error)
        return
    got = run(minigrad)
    assert tuple(got.shape) == tuple(expected.shape)
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


@pytest.mark.parametrize("dim", [-1, 0, 1, -2])
def test_glu_third_order_graph_as_torch(dim):
    """The gradient of glu's gradient, w.r.t. the input and w.r.t. the incoming gradient:
    the same nodes as PyTorch's glu_double_backward records, with the same settings."""
    torch = import_torch()

    def graphs(L):
        x = L.tensor(np.random.default_rng(3).standard_normal((4, 6)), requires_grad=True)
        v = L.tensor(np.random.default_rng(4).standard_normal((2, 6) if dim in (0, -2) else (4, 3)),
                     requires_grad=True)
        (g,) = L.autograd.grad(L.nn.functional.glu(x, dim), x, v, create_graph=True)
        w = L.tensor(np.random.default_rng(5).standard_normal((4, 6)))
        gx, gv = L.autograd.grad((g * w).sum(), (x, v), create_graph=True)
        return _graph(gx.grad_fn, depth=8), _graph(gv.grad_fn, depth=8), gx.detach().numpy(), gv.detach().numpy()

    ours, theirs = graphs(minigrad), graphs(torch)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("dim", [None, 0, -1])
def test_glu_module_as_torch(dim):
    torch = import_torch()
    data = np.random.default_rng(6).standard_normal((4, 6))

    def run(L):
        module = L.nn.GLU() if dim is None else L.nn.GLU(dim)
        x = L.tensor(data, requires_grad=True)
        out = module(x)
        out.sum().backward()
        return repr(module), out.detach().numpy(), x.grad.numpy(), out.grad_fn.name()

    ours, theirs = run(minigrad), run(torch)
    assert ours[0] == theirs[0] and ours[3] == theirs[3]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-12)
