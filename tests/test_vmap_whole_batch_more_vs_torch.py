"""Under vmap, on the whole batch at once: more of torch.linalg and the torch matrix functions.

``cond``, ``lstsq``, ``lu_solve``, ``vecdot``, ``norm``, ``vdot``, ``trace``, ``cholesky_solve``,
``householder_product``, ``lu_unpack``, ``cdist``, ``cross``, ``tensorinv``, ``multi_dot``,
``outer``, ``dist`` and the torch.xxx matrix functions (``torch.det``, ``torch.svd``, ...) run
once for the whole batch, as in PyTorch: the function's own node, or the nodes of the steps
PyTorch's vmap runs it as (``cond``: svdvals, two slices, a division, a squeeze). ``linalg.lu``
, ``tensorsolve`` and ``cond`` of a named norm have no rule in PyTorch: they run once per sample, with
PyTorch's warning and the graph of its fallback. Each program runs in minigrad and in
PyTorch: shapes, graphs, values, gradients, warnings and errors must agree.
"""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import failure_of, import_torch, item_or_refusal
from test_vmap_batched_vs_torch import graph


def _x(L, *shape, seed=0):
    values = np.random.default_rng(seed).standard_normal(shape)
    return L.tensor(values, requires_grad=True)


def _spd(L, *shape, seed=0):
    """Symmetric positive definite matrices (a leaf): A A^T + 4 I."""
    a = np.random.default_rng(seed).standard_normal(shape)
    return L.tensor(a @ np.swapaxes(a, -1, -2) + 4 * np.eye(shape[-1]), requires_grad=True)


def _leaf(L, shape, seed):
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        return _spd(L, *shape, seed=seed)
    return _x(L, *shape, seed=seed)


def _program(body, *shapes):
    """``body(L, vmap, *leaves)`` for leaves of ``shapes`` (square ones well conditioned)."""
    def run(L):
        leaves = [_leaf(L, shape, seed) for seed, shape in enumerate(shapes)]
        return body(L, L.func.vmap, *leaves), leaves
    run.body, run.shapes = body, shapes
    return run


def _lu_solve(L, a, b, **options):
    return L.linalg.lu_solve(*L.linalg.lu_factor(a), b, **options)


PROGRAMS = {
    # cond: p None, 2, -2 as svdvals' steps; a numbered norm as the function on the batch
    "cond": _program(lambda L, vmap, a: vmap(L.linalg.cond)(a), (3, 4, 4)),
    "cond_minus_2": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.cond(t, -2))(a), (3, 4, 4)),
    "cond_in_dims_1": _program(lambda L, vmap, a: vmap(L.linalg.cond, in_dims=1)(a), (4, 3, 4)),
    "cond_fro": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.cond(t, "fro"))(a), (3, 4, 4)),
    "cond_1": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.cond(t, 1))(a), (3, 4, 4)),
    "cond_inf": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.cond(t, float("inf")))(a), (3, 4, 4)),
    "cond_nuc": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.cond(t, "nuc"))(a), (3, 4, 4)),
    "cond_2_not_square": _program(lambda L, vmap, a: vmap(L.linalg.cond)(a), (3, 4, 2)),
    # lstsq: both with the batch in front, the one not batched expanded
    "lstsq": _program(lambda L, vmap, a, b: vmap(lambda s, t: L.linalg.lstsq(s, t).solution)(a, b),
                      (3, 4, 4), (3, 4, 2)),
    "lstsq_tall": _program(lambda L, vmap, a, b: tuple(vmap(
        lambda s, t: L.linalg.lstsq(s, t, driver="gelsd"))(a, b)[:2]), (3, 5, 4), (3, 5, 2)),
    "lstsq_matrix_not_batched": _program(lambda L, vmap, a, b: vmap(
        lambda t: L.linalg.lstsq(a[0], t).solution)(b), (3, 4, 4), (3, 4, 2)),
    "lstsq_right_side_not_batched": _program(lambda L, vmap, a, b: vmap(
        lambda s: L.linalg.lstsq(s, b[0]).solution)(a), (3, 4, 4), (3, 4, 2)),
    # lu: no rule in PyTorch (its fallback's graph)
    "lu": _program(lambda L, vmap, a: tuple(vmap(L.linalg.lu)(a)[1:]), (3, 4, 4)),
    # lu_solve: a factor or B not batched is broadcast (no ExpandBackward0)
    "lu_solve": _program(lambda L, vmap, a, b: vmap(lambda s, t: _lu_solve(L, s, t))(a, b),
                         (3, 4, 4), (3, 4, 2)),
    "lu_solve_factors_not_batched": _program(lambda L, vmap, a, b: vmap(
        lambda t: _lu_solve(L, a[0], t))(b), (3, 4, 4), (3, 4, 2)),
    "lu_solve_right_side_not_batched": _program(lambda L, vmap, a, b: vmap(
        lambda s: _lu_solve(L, s, b[0]))(a), (3, 4, 4), (3, 4, 2)),
    "lu_solve_adjoint": _program(lambda L, vmap, a, b: vmap(
        lambda s, t: _lu_solve(L, s, t, adjoint=True))(a, b), (3, 4, 4), (3, 4, 2)),
    "lu_solve_right": _program(lambda L, vmap, a, b: vmap(
        lambda s, t: _lu_solve(L, s, t.mT, left=False))(a, b), (3, 4, 4), (3, 4, 2)),
    # vecdot of vectors: vdot's steps (matmul of a row and a column); else x * y summed
    "vecdot": _program(lambda L, vmap, x, y: vmap(L.linalg.vecdot)(x, y), (3, 4), (3, 4)),
    "vecdot_in_dims_1": _program(lambda L, vmap, x, y: vmap(L.linalg.vecdot, in_dims=1)(x, y),
                                 (4, 3), (4, 3)),
    "vecdot_second_not_batched": _program(lambda L, vmap, x, y: vmap(
        lambda t: L.linalg.vecdot(t, y[0]))(x), (3, 4), (3, 4)),
    "vecdot_first_not_batched": _program(lambda L, vmap, x, y: vmap(
        lambda t: L.linalg.vecdot(x[0], t))(y), (3, 4), (3, 4)),
    "vecdot_matrices": _program(lambda L, vmap, x, y: vmap(L.linalg.vecdot)(x, y), (3, 2, 4), (3, 2, 4)),
    "vecdot_dim_0": _program(lambda L, vmap, x, y: vmap(lambda s, t: L.linalg.vecdot(s, t, dim=0))(x, y),
                             (3, 2, 4), (3, 2, 4)),
    "vdot": _program(lambda L, vmap, x, y: vmap(L.vdot)(x, y), (3, 4), (3, 4)),
    "dot_second_not_batched": _program(lambda L, vmap, x, y: vmap(lambda t: L.dot(t, y[0]))(x),
                                       (3, 4), (3, 4)),
    "dot_first_not_batched": _program(lambda L, vmap, x, y: vmap(lambda t: L.dot(x[0], t))(y),
                                      (3, 4), (3, 4)),
    # norm: the vector_norm or matrix_norm it stands for
    "norm": _program(lambda L, vmap, a: vmap(L.linalg.norm)(a), (3, 4, 4)),
    "norm_of_vectors": _program(lambda L, vmap, x: vmap(lambda t: L.linalg.norm(t, 3))(x), (3, 4)),
    "norm_dim": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.norm(t, dim=0))(a), (3, 4, 4)),
    "norm_dims": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.norm(t, dim=(0, 1)))(a), (3, 4, 4)),
    "norm_fro": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.norm(t, "fro"))(a), (3, 4, 4)),
    "norm_nuc": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.norm(t, "nuc"))(a), (3, 4, 4)),
    "norm_2_keepdim": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.norm(t, 2, keepdim=True))(a),
                               (3, 4, 4)),
    "norm_1_dims": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.norm(t, 1, dim=(-1, 0)))(a),
                            (3, 4, 4)),
    "norm_in_dims_1": _program(lambda L, vmap, a: vmap(L.linalg.norm, in_dims=1)(a), (4, 3, 4)),
    "matrix_norm_dims_from_front": _program(lambda L, vmap, a: vmap(
        lambda t: L.linalg.matrix_norm(t, dim=(0, 1)))(a), (3, 4, 4)),
    "torch_norm_nuc": _program(lambda L, vmap, a: vmap(lambda t: L.norm(t, "nuc"))(a), (3, 4, 4)),
    # torch.xxx matrix functions
    "torch_det": _program(lambda L, vmap, a: vmap(L.det)(a), (3, 4, 4)),
    "logdet": _program(lambda L, vmap, a: vmap(L.logdet)(a), (3, 4, 4)),
    "slogdet": _program(lambda L, vmap, a: tuple(vmap(L.slogdet)(a)), (3, 4, 4)),
    "inverse": _program(lambda L, vmap, a: vmap(L.inverse)(a), (3, 4, 4)),
    "torch_svd": _program(lambda L, vmap, a: vmap(lambda t: L.svd(t)[1])(a), (3, 4, 4)),
    "pinverse": _program(lambda L, vmap, a: vmap(L.pinverse)(a), (3, 4, 4)),
    "torch_matrix_exp": _program(lambda L, vmap, a: vmap(lambda t: L.matrix_exp(t / 8))(a), (3, 4, 4)),
    "cholesky_inverse": _program(lambda L, vmap, a: vmap(
        lambda t: L.cholesky_inverse(L.linalg.cholesky(t)))(a), (3, 4, 4)),
    "trace": _program(lambda L, vmap, a: vmap(L.trace)(a), (3, 4, 4)),
    "cholesky_solve": _program(lambda L, vmap, b, a: vmap(
        lambda s, t: L.cholesky_solve(s, L.linalg.cholesky(t)))(b, a), (3, 4, 2), (3, 4, 4)),
    "cholesky_solve_factor_not_batched": _program(lambda L, vmap, b, a: vmap(
        lambda s: L.cholesky_solve(s, L.linalg.cholesky(a[0])))(b), (3, 4, 2), (3, 4, 4)),
    "cholesky_solve_right_side_not_batched": _program(lambda L, vmap, b, a: vmap(
        lambda t: L.cholesky_solve(b[0], L.linalg.cholesky(t)))(a), (3, 4, 2), (3, 4, 4)),
    # more matrix functions: their own node once, or PyTorch's steps
    "linalg_diagonal": _program(lambda L, vmap, a: vmap(L.linalg.diagonal)(a), (3, 4, 4)),
    "linalg_diagonal_offset": _program(lambda L, vmap, a: vmap(
        lambda t: L.linalg.diagonal(t, offset=1, dim1=0, dim2=1))(a), (3, 4, 4)),
    "linalg_matmul": _program(lambda L, vmap, a, b: vmap(L.linalg.matmul)(a, b), (3, 4, 4), (3, 4, 2)),
    "householder_product": _program(lambda L, vmap, a, t: vmap(L.linalg.householder_product)(a, t),
                                    (3, 4, 4), (3, 3)),
    "householder_product_tau_not_batched": _program(lambda L, vmap, a, t: vmap(
        lambda s: L.linalg.householder_product(s, t[0]))(a), (3, 4, 4), (3, 3)),
    "householder_product_matrix_not_batched": _program(lambda L, vmap, a, t: vmap(
        lambda u: L.linalg.householder_product(a[0], u))(t), (3, 4, 4), (3, 3)),
    "orgqr": _program(lambda L, vmap, a, t: vmap(L.orgqr)(a, t), (3, 4, 4), (3, 3)),
    "lu_unpack": _program(lambda L, vmap, a: tuple(vmap(
        lambda t: L.lu_unpack(*L.linalg.lu_factor(t)))(a)[1:]), (3, 4, 4)),
    "cdist": _program(lambda L, vmap, a, b: vmap(L.cdist)(a, b), (3, 4, 3), (3, 5, 3)),
    "cdist_not_batched": _program(lambda L, vmap, a, b: vmap(lambda s: L.cdist(s, b[0]))(a),
                                  (3, 4, 3), (3, 5, 3)),
    "torch_cross": _program(lambda L, vmap, x, y: vmap(lambda s, t: L.cross(s, t, dim=-1))(x, y),
                            (3, 3), (3, 3)),
    "torch_cross_dim_0": _program(lambda L, vmap, x, y: vmap(lambda s, t: L.cross(s, t, dim=0))(x, y),
                                  (4, 3, 2), (4, 3, 2)),
    "linalg_cross_dim_0": _program(lambda L, vmap, x, y: vmap(
        lambda s, t: L.linalg.cross(s, t, dim=0))(x, y), (4, 3, 2), (4, 3, 2)),
    "tensorinv": _program(lambda L, vmap, a: vmap(lambda t: L.linalg.tensorinv(t, ind=1))(a), (3, 4, 4)),
    "tensorsolve": _program(lambda L, vmap, a, b: vmap(L.linalg.tensorsolve)(a, b), (3, 4, 4), (3, 4)),
    "multi_dot": _program(lambda L, vmap, a, b: vmap(lambda s, t: L.linalg.multi_dot([s, s, t]))(a, b),
                          (3, 4, 4), (3, 4, 2)),
    "multi_dot_of_four": _program(lambda L, vmap, a, b: vmap(
        lambda s, t: L.linalg.multi_dot([t.mT, s, s, t]))(a, b), (3, 4, 4), (3, 4, 2)),
    "outer": _program(lambda L, vmap, x, y: vmap(L.outer)(x, y), (3, 4), (3, 5)),
    "ger": _program(lambda L, vmap, x, y: vmap(L.ger)(x, y), (3, 4), (3, 5)),
    "dist": _program(lambda L, vmap, x, y: vmap(L.dist)(x, y), (3, 4), (3, 4)),
    "dist_3_of_matrices": _program(lambda L, vmap, x, y: vmap(lambda s, t: L.dist(s, t, 3))(x, y),
                                   (3, 2, 4), (3, 2, 4)),
    # inside vmap inside vmap
    "cond_nested": _program(lambda L, vmap, a: vmap(vmap(L.linalg.cond))(a), (2, 3, 4, 4)),
    "lu_solve_nested": _program(lambda L, vmap, a, b: vmap(vmap(lambda s, t: _lu_solve(L, s, t)))(a, b),
                                (2, 3, 4, 4), (2, 3, 4, 2)),
    "norm_nested": _program(lambda L, vmap, a: vmap(vmap(L.linalg.norm))(a), (2, 3, 4)),
}
# the graphs of PyTorch's fallback that minigrad's fallback does not record (in a vmap inside a
# vmap, minigrad's fallback records no permute and no view at the outer level)
_GRAPH_DIFFERS = {}


def _flat(tree):
    if isinstance(tree, (tuple, list)):
        return [leaf for item in tree for leaf in _flat(item)]
    return [tree]


def _outcome(L, name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out, leaves = PROGRAMS[name](L)
    outs = tuple(_flat(out))
    shown = [(tuple(o.shape), str(o.dtype).split(".")[-1], graph(o)) for o in outs]
    values = [o.detach().numpy() for o in outs]
    differentiable = [o for o in outs if o.requires_grad]
    # (PyTorch adds where its C++ code warned)
    messages = [(w.category.__name__, str(w.message).split(" (Triggered internally")[0])
                for w in caught]
    try:
        if differentiable:
            sum(o.pow(2).sum() for o in differentiable).backward()
    except RuntimeError as error:
        # (cond of a norm other than 2 changes the inverse it saved, in place: PyTorch's
        # backward refuses it, inside vmap or not)
        messages.append(("backward", str(error).split("\nminigrad hint:")[0]))
    grads = [None if x.grad is None else x.grad.numpy() for x in leaves]
    return shown, values, grads, messages


def _assert_close(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_matches_torch(name):
    torch = import_torch()
    theirs = _outcome(torch, name)
    ours = _outcome(minigrad, name)
    assert ours[0] == theirs[0]           # shapes, dtypes and graphs
    _assert_close(ours[1], theirs[1])     # values
    _assert_close(ours[2], theirs[2])     # gradients
    assert ours[3] == theirs[3]           # warnings (and backward's refusal)


# one graph for the whole batch (no StackBackward0 of a graph per sample)
_PER_SAMPLE = ("cond_fro", "cond_nuc", "lu", "tensorsolve")


@pytest.mark.parametrize("name", [n for n in PROGRAMS if n not in _PER_SAMPLE])
def test_program_runs_once_on_the_batch(name):
    out, _ = PROGRAMS[name](minigrad)
    for o in _flat(out):
        names, stack = [], [o.grad_fn]
        while stack:
            node = stack.pop()
            if node is not None:
                names.append(type(node).__name__)
                stack.extend(child for child, _ in node.next_functions)
        assert "StackBackward0" not in names


def _saved(L, name):
    """The saved settings (numbers, dims, sizes) of the node at the top of the first output."""
    out, _ = PROGRAMS[name](L)
    node = _flat(out)[0].grad_fn
    settings = {}
    for attribute in dir(node):
        if attribute.startswith("_saved_"):
            value = getattr(node, attribute)
            if isinstance(value, (bool, int, float, str, tuple, list)):
                settings[attribute] = tuple(value) if isinstance(value, list) else value
    return settings


@pytest.mark.parametrize("name", ["cond", "norm_dim", "norm_dims", "norm_fro", "norm_1_dims", "dist",
                                  "dist_3_of_matrices", "linalg_diagonal_offset", "torch_cross_dim_0",
                                  "matrix_norm_dims_from_front", "trace", "vecdot", "lu_solve_right",
                                  "dot_first_not_batched"])
def test_saved_settings_are_torchs(name):
    torch = import_torch()
    assert _saved(minigrad, name) == _saved(torch, name)


@pytest.mark.parametrize("name", ["cond", "cond_minus_2", "lstsq", "lstsq_matrix_not_batched", "lu",
                                  "lu_solve", "lu_solve_factors_not_batched", "vecdot",
                                  "vecdot_second_not_batched", "norm_nuc", "trace",
                                  "lu_solve_right_side_not_batched", "householder_product",
                                  "tensorinv", "multi_dot", "outer", "dist_3_of_matrices",
                                  "cdist_not_batched"])
def test_gradcheck(name):
    """The gradients of the whole-batch programs, against finite differences."""
    program = PROGRAMS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, leaves = program(minigrad)
    inputs = [leaf.detach().clone().requires_grad_() for leaf in leaves]

    def run(*a):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return tuple(o for o in _flat(program.body(minigrad, minigrad.func.vmap, *a))
                         if o.requires_grad)
    assert minigrad.autograd.gradcheck(run, inputs)


def _ones(L, *shape):
    return L.ones(*shape, dtype=L.float64)


FAILING = {
    "lstsq_vector": lambda L: L.func.vmap(lambda s, t: L.linalg.lstsq(s, t))(
        _ones(L, 3, 4, 4), _ones(L, 3, 4)),
    "lu_solve_vector": lambda L: L.func.vmap(lambda s, t: _lu_solve(L, s, t))(
        L.eye(4, dtype=L.float64).expand(3, 4, 4), _ones(L, 3, 4)),
    "lu_solve_vector_outside_vmap": lambda L: _lu_solve(L, L.eye(4, dtype=L.float64), _ones(L, 4)),
    "lu_solve_vector_factor_outside_vmap": lambda L: L.linalg.lu_solve(
        _ones(L, 4), L.ones(4, dtype=L.int32), _ones(L, 4, 2)),
    "cond_bad_norm": lambda L: L.func.vmap(lambda t: L.linalg.cond(t, "bad"))(_ones(L, 3, 4, 4)),
    "cond_1_not_square": lambda L: L.func.vmap(lambda t: L.linalg.cond(t, 1))(_ones(L, 3, 4, 2)),
    "norm_3d_with_ord": lambda L: L.func.vmap(lambda t: L.linalg.norm(t, 2))(_ones(L, 3, 2, 2, 2)),
    "norm_three_dims": lambda L: L.func.vmap(lambda t: L.linalg.norm(t, dim=(0, 1, 2)))(
        _ones(L, 3, 2, 2, 2)),
    "norm_dtype_narrowing": lambda L: L.func.vmap(lambda t: L.linalg.norm(t, dtype=L.float32))(
        _ones(L, 3, 2)),
    "vecdot_dtypes": lambda L: L.func.vmap(L.linalg.vecdot)(_ones(L, 3, 2), L.ones(3, 2)),
    "vecdot_sizes": lambda L: L.func.vmap(L.linalg.vecdot)(_ones(L, 3, 2), _ones(L, 3, 4)),
    "trace_vector": lambda L: L.func.vmap(L.trace)(_ones(L, 3, 2)),
    "chain_matmul": lambda L: L.func.vmap(lambda s: L.chain_matmul(s, s))(_ones(L, 3, 2, 2)),
    "tensorinv_sizes": lambda L: L.func.vmap(lambda t: L.linalg.tensorinv(t, ind=1))(_ones(L, 3, 2, 3)),
    "multi_dot_sizes": lambda L: L.func.vmap(lambda s: L.linalg.multi_dot([s, s]))(_ones(L, 3, 2, 3)),
}


@pytest.mark.parametrize("name", list(FAILING))
def test_failure_is_torchs(name):
    torch = import_torch()
    assert failure_of(lambda: FAILING[name](minigrad)) == failure_of(lambda: FAILING[name](torch))


# --- a derivative that depends on no batched value is not batched --------------------------------
# The transform runs on the whole batch, with the arguments vmap does not batch given the batch;
# what is computed from those alone holds one value repeated, and comes out as that one value,
# as PyTorch's does (not batched: its .item() works, and it prints as one value).

def _unbatched_programs(L):
    F = L.func
    w = L.tensor([0.5, -1.0, 2.0, 0.25], dtype=L.float64)
    return {
        "grad": lambda x: F.grad(lambda p: (p.sin() * 2).sum())(w),
        "grad_argument_not_batched": lambda x: F.vmap(F.grad(lambda p, q: (p * p).sum()),
                                                      in_dims=(None, 0))(w, x.unsqueeze(0)),
        "grad_argument_and_batched_value": lambda x: F.grad(lambda p: (p * x).sum())(w),
        "grad_and_value": lambda x: F.grad_and_value(lambda p: (p.sin() * 2).sum())(w),
        "grad_has_aux": lambda x: F.grad(lambda p: ((p * 2).sum(), p * 3), has_aux=True)(w),
        "grad_argnums": lambda x: F.grad(lambda p, q: (p * q).sum(), argnums=(0, 1))(w, w.exp()),
        "jacrev": lambda x: F.jacrev(lambda p: p.sin() * 2)(w),
        "jacfwd": lambda x: F.jacfwd(lambda p: p.sin() * 2)(w),
        "hessian": lambda x: F.hessian(lambda p: p.sin().sum())(w),
        "vjp": lambda x: F.vjp(lambda p: p.sin(), w)[1](w),
        "vjp_output": lambda x: F.vjp(lambda p: p.sin(), w)[0],
        "vjp_batched_cotangent": lambda x: F.vjp(lambda p: p.sin(), w)[1](x),
        "nested": lambda x: F.vmap(lambda y: F.grad(lambda p: (p.sin() * 2).sum())(w))(
            x.unsqueeze(0).expand(2, 4)),
        "random_different": lambda x: F.grad(lambda p: (p * L.randn_like(p)).sum())(w),
    }


def _unbatched_outcome(L, name):
    x = L.tensor(np.linspace(-1.0, 1.0, 12).reshape(3, 4))
    seen = []

    def body(t):
        out = _unbatched_programs(L)[name](t)
        seen.extend(item_or_refusal(o) for o in _flat(out))
        return out
    randomness = "different" if name == "random_different" else "error"
    L.manual_seed(0)
    out = L.func.vmap(body, randomness=randomness)(x)
    values = [o.numpy() for o in _flat(out)]
    return seen, [v.shape for v in values], values


@pytest.mark.parametrize("name", list(_unbatched_programs(minigrad)))
def test_derivative_of_no_batched_value_is_not_batched(name):
    torch = import_torch()
    ours, theirs = _unbatched_outcome(minigrad, name), _unbatched_outcome(torch, name)
    assert ours[:2] == theirs[:2]
    if name != "random_different":       # (minigrad draws the numbers one after another)
        _assert_close(ours[2], theirs[2])


def _printed_unbatched(L):
    import contextlib
    import io
    x = L.tensor(np.linspace(-1.0, 1.0, 6).reshape(3, 2))
    w = L.tensor([1.0, 2.0], dtype=L.float32)

    def f(p):
        print("argument", p)
        y = p * 2
        print("computed", y)
        return y.sum()
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        L.func.vmap(lambda t: L.func.grad(f)(w))(x)
        L.func.vmap(lambda t: L.func.vmap(lambda u: L.func.grad(f)(w))(t))(x.reshape(3, 2, 1))
    return shown.getvalue()


def test_printed_value_not_batched_is_torchs():
    torch = import_torch()
    assert _printed_unbatched(minigrad) == _printed_unbatched(torch)


def test_gradient_not_batched_keeps_its_graph():
    """The gradient of an argument that requires grad, differentiated again outside vmap."""
    torch = import_torch()

    def run(L):
        w = L.tensor([0.5, -1.0, 2.0], dtype=L.float64, requires_grad=True)
        x = L.tensor(np.linspace(-1.0, 1.0, 6).reshape(2, 3))
        out = L.func.vmap(lambda t: L.func.grad(lambda p: (p.sin() * p).sum())(w) + t)(x)
        edges = [type(node).__name__ for node, _ in out.grad_fn.next_functions]
        out.pow(2).sum().backward()
        return out.detach().numpy(), edges, w.grad.numpy()
    ours, theirs = run(minigrad), run(torch)
    assert ours[1] == theirs[1]
    _assert_close([ours[0], ours[2]], [theirs[0], theirs[2]])


def _changed_in_place(L, change):
    """An argument vmap does not batch, changed in place inside grad by a batched value."""
    x = L.tensor(np.linspace(-1.0, 1.0, 12).reshape(3, 4))
    w = L.tensor([0.5, -1.0, 2.0, 0.25], dtype=L.float64)

    def loss(p, t):
        copy = p.clone()
        getattr(copy, change)(t)
        return copy.pow(2).sum()
    with pytest.raises(RuntimeError) as caught:
        L.func.vmap(lambda t: L.func.grad(loss)(w, t))(x)
    return str(caught.value)


@pytest.mark.parametrize("change", ["add_", "sub_", "mul_", "div_", "copy_", "__iadd__", "__imul__"])
def test_argument_not_batched_changed_by_batched_value_is_refused(change):
    torch = import_torch()
    assert _changed_in_place(minigrad, change) == _changed_in_place(torch, change)


def _cond_nuc(L, values):
    """linalg.cond(A, 'nuc') outside vmap: one set of singular values (its graph, its gradient)."""
    a = L.tensor(values, requires_grad=True)
    out = L.linalg.cond(a, "nuc")
    shown = graph(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out.sum().backward()
    return shown, out.detach().numpy(), a.grad.numpy()


@pytest.mark.parametrize("values", [
    np.random.default_rng(0).standard_normal((4, 4)) + 2 * np.eye(4),
    np.random.default_rng(1).standard_normal((2, 3, 3)),
])
def test_cond_nuc_is_torchs(values):
    torch = import_torch()
    ours, theirs = _cond_nuc(minigrad, values), _cond_nuc(torch, values)
    assert ours[0] == theirs[0]
    _assert_close(ours[1:], theirs[1:])


def test_cond_nuc_of_a_singular_matrix_is_torchs():
    torch = import_torch()
    values = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    ours = minigrad.linalg.cond(minigrad.tensor(values), "nuc").item()
    theirs = torch.linalg.cond(torch.tensor(values), "nuc").item()
    assert ours == pytest.approx(theirs, rel=1e-6)


# --- a jvp inside a jvp inside vmap: on the whole batch --------------------------------------------

def _jvp_programs(L):
    F = L.func
    c = L.tensor([0.1, 0.2, 0.3], dtype=L.float64)
    return {
        "jvp_of_jvp": lambda t: F.jvp(lambda a: F.jvp(lambda b: b.sin() * a, (a,), (a * 2,))[1],
                                      (t,), (t.cos(),)),
        "tangents_not_batched": lambda t: F.jvp(
            lambda a: F.jvp(lambda b: b.exp() * a, (a,), (c,))[1], (t,), (c,)),
        "primal_not_batched": lambda t: F.jvp(
            lambda a: F.jvp(lambda b: (b * t).tanh(), (a,), (a,))[1], (c,), (c,)),
        "jacfwd_of_jacfwd": lambda t: F.jacfwd(F.jacfwd(lambda a: (a.sin() * a).sum()))(t),
        "jvp_of_hessian": lambda t: F.jvp(lambda a: F.hessian(lambda b: (b.sin() * b).sum())(a),
                                          (t,), (t,)),
        "jvp_of_grad": lambda t: F.jvp(lambda a: F.grad(lambda b: (b.sin() * b).sum())(a),
                                       (t,), (t.cos(),)),
    }


def _jvp_outcome(L, name, in_dims=0):
    x = L.tensor([[0.5, 1.0, 0.2], [1.5, -2.0, 0.3]], dtype=L.float64, requires_grad=True)
    calls = []

    def body(t):
        calls.append(1)
        return _jvp_programs(L)[name](t)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = L.func.vmap(body, in_dims=in_dims)(x.T if in_dims else x)
    outs = _flat(out)
    shown = [(tuple(o.shape), type(o.grad_fn).__name__) for o in outs]
    sum(o.sum() for o in outs).backward()
    return len(calls), shown, [o.detach().numpy() for o in outs], x.grad.numpy()


@pytest.mark.parametrize("name", list(_jvp_programs(minigrad)))
def test_jvp_inside_jvp_inside_vmap_is_torchs(name):
    torch = import_torch()
    ours, theirs = _jvp_outcome(minigrad, name), _jvp_outcome(torch, name)
    assert ours[:2] == theirs[:2]
    _assert_close(ours[2] + [ours[3]], theirs[2] + [theirs[3]])


def test_jvp_inside_jvp_in_dims_1_is_torchs():
    torch = import_torch()
    ours, theirs = _jvp_outcome(minigrad, "jvp_of_jvp", 1), _jvp_outcome(torch, "jvp_of_jvp", 1)
    assert ours[0] == theirs[0]
    _assert_close(ours[2] + [ours[3]], theirs[2] + [theirs[3]])


def _printed_in_jvp_of_jvp(L):
    import contextlib
    import io
    F = L.func
    x = L.tensor([[0.5, 1.0], [1.5, -2.0]], dtype=L.float64)

    def inner(t):
        def f(a):
            out, tangent = F.jvp(lambda b: (print("inner sees", b) or b.sin() * a), (a,), (a * 2,))
            print("inner tangent", tangent)
            return tangent
        return F.jvp(f, (t,), (t.cos(),))
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        print(F.vmap(inner)(x))
    return shown.getvalue()


def test_printed_inside_jvp_of_jvp_in_vmap_is_torchs():
    """The whole batch, once, inside the wrappers of each level (as PyTorch prints it)."""
    torch = import_torch()
    assert _printed_in_jvp_of_jvp(minigrad) == _printed_in_jvp_of_jvp(torch)


def _printed_in_grad_in_jvp(L):
    import contextlib
    import io
    F = L.func
    x = L.tensor([[0.5, 1.0], [1.5, -2.0]], dtype=L.float64)

    def outer(t):
        def f(a):
            return F.grad(lambda b: (print("grad sees", b) or (b.sin() * b)).sum())(a)
        return F.jvp(f, (t,), (t,))
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        print(F.vmap(outer)(x))
    return shown.getvalue()


def test_printed_inside_grad_inside_jvp_in_vmap_is_torchs():
    torch = import_torch()
    assert _printed_in_grad_in_jvp(minigrad) == _printed_in_grad_in_jvp(torch)
