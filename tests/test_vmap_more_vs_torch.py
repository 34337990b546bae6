"""Under vmap, on the whole batch at once: more products, triangles and diagonals.

``inner``, ``tensordot``, ``kron``, ``multi_dot`` of vectors, ``addmm``, ``addmv``, ``addr``,
``baddbmm``, ``diag``, ``diag_embed``, ``tril`` and ``triu`` run once for the whole batch, as in
PyTorch: their own node, or the nodes of the steps PyTorch's vmap runs them as (addmm: a
product with beta, mm, an add with alpha); so do ``matmul`` (mv's rule, matmul's fold) and
``F.linear`` (addmm's steps). ``vander``, ``pdist`` and ``diagflat`` have no rule in PyTorch:
they run once per sample, with PyTorch's warning and the graph of its fallback. Each program
runs in minigrad and in PyTorch: shapes, graphs, values (to the last bit, but for matrix
products, whose BLAS adds in its own order), gradients, warnings and the saved settings must
agree. Then: ``vjp_fn(c)`` of a function linear in a batched x, c not batched, is not batched.
"""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import failure_of, import_torch, item_or_refusal
from test_vmap_batched_vs_torch import graph


def _leaf(L, shape, seed):
    values = np.random.default_rng(seed).standard_normal(shape)
    return L.tensor(values, requires_grad=True)


def _program(body, *shapes):
    """``body(L, vmap, *leaves)`` for float64 leaves of ``shapes``."""
    def run(L):
        leaves = [_leaf(L, shape, seed) for seed, shape in enumerate(shapes)]
        return body(L, L.func.vmap, *leaves), leaves
    run.body, run.shapes = body, shapes
    return run


PROGRAMS = {
    # inner and tensordot: permute, reshape, mm or dot, view (each by its rule)
    "inner_vectors": _program(lambda L, vmap, x, y: vmap(L.inner)(x, y), (3, 4), (3, 4)),
    "inner_matrices": _program(lambda L, vmap, x, y: vmap(L.inner)(x, y), (3, 2, 4), (3, 5, 4)),
    "inner_one_batched": _program(lambda L, vmap, x, y: vmap(lambda t: L.inner(t, y[0]))(x),
                                  (3, 4), (3, 4)),
    "inner_other_batched": _program(lambda L, vmap, x, y: vmap(lambda t: L.inner(x[0], t))(y),
                                    (3, 2, 4), (3, 4)),
    "inner_method_in_dims_1": _program(lambda L, vmap, x, y: vmap(lambda s, t: s.inner(t), in_dims=1)(x, y),
                                       (4, 3), (4, 3)),
    "inner_number": _program(lambda L, vmap, x, y: vmap(lambda s, t: L.inner(s[0], t))(x, y),
                             (3, 4), (3, 4)),
    "tensordot": _program(lambda L, vmap, x, y: vmap(lambda s, t: L.tensordot(s, t, dims=1))(x, y),
                          (3, 2, 4), (3, 4, 5)),
    "tensordot_lists": _program(lambda L, vmap, x, y: vmap(
        lambda s, t: L.tensordot(s, t, dims=([0], [1])))(x, y), (3, 2, 4), (3, 4, 2)),
    "tensordot_all": _program(lambda L, vmap, x, y: vmap(lambda s, t: L.tensordot(s, t))(x, y),
                              (3, 2, 4), (3, 2, 4)),
    "tensordot_one_batched": _program(lambda L, vmap, x, y: vmap(
        lambda s: L.tensordot(s, y[0], dims=1))(x), (3, 2, 4), (3, 4, 5)),
    # kron: unsafe views, a product, an unsafe view
    "kron": _program(lambda L, vmap, x, y: vmap(L.kron)(x, y), (3, 2, 2), (3, 2, 3)),
    "kron_vectors": _program(lambda L, vmap, x, y: vmap(L.kron)(x, y), (3, 2), (3, 3)),
    "kron_ranks": _program(lambda L, vmap, x, y: vmap(L.kron)(x, y), (3, 2), (3, 2, 3)),
    "kron_one_batched": _program(lambda L, vmap, x, y: vmap(lambda s: L.kron(s, y[0]))(x),
                                 (3, 2, 2), (3, 2, 3)),
    # multi_dot with vectors at the ends: a chain of mm
    "multi_dot_vectors": _program(lambda L, vmap, x, a, y: vmap(
        lambda s, m, t: L.linalg.multi_dot([s, m, t]))(x, a, y), (3, 4), (3, 4, 5), (3, 5)),
    "multi_dot_row": _program(lambda L, vmap, x, a, b: vmap(
        lambda s, m, n: L.linalg.multi_dot([s, m, n]))(x, a, b), (3, 4), (3, 4, 5), (3, 5, 2)),
    "multi_dot_column_not_batched": _program(lambda L, vmap, a, y: vmap(
        lambda m: L.linalg.multi_dot([m, m, y[0]]))(a), (3, 4, 4), (3, 4)),
    # the add* products: PyTorch's decompositions
    "addmm": _program(lambda L, vmap, c, a, b: vmap(L.addmm)(c, a, b), (3, 2, 5), (3, 2, 4), (3, 4, 5)),
    "addmm_factors": _program(lambda L, vmap, c, a, b: vmap(
        lambda s, t, u: L.addmm(s, t, u, beta=0.5, alpha=2))(c, a, b), (3, 2, 5), (3, 2, 4), (3, 4, 5)),
    "addmm_input_not_batched": _program(lambda L, vmap, c, a, b: vmap(
        lambda t: L.addmm(c[0], t, b[0]))(a), (3, 2, 5), (3, 2, 4), (3, 4, 5)),
    "addmm_method": _program(lambda L, vmap, c, a, b: vmap(
        lambda s, t, u: s.addmm(t, u, alpha=3))(c, a, b), (3, 1, 5), (3, 2, 4), (3, 4, 5)),
    "addmv": _program(lambda L, vmap, c, a, v: vmap(L.addmv)(c, a, v), (3, 2), (3, 2, 4), (3, 4)),
    "addmv_factors": _program(lambda L, vmap, c, a, v: vmap(
        lambda s, t, u: L.addmv(s, t, u, beta=0, alpha=0.5))(c, a, v), (3, 2), (3, 2, 4), (3, 4)),
    "addmv_matrix_not_batched": _program(lambda L, vmap, c, a, v: vmap(
        lambda s, u: L.addmv(s, a[0], u, beta=2))(c, v), (3, 2), (3, 2, 4), (3, 4)),
    "addr": _program(lambda L, vmap, c, x, y: vmap(L.addr)(c, x, y), (3, 2, 4), (3, 2), (3, 4)),
    "addr_factors": _program(lambda L, vmap, c, x, y: vmap(
        lambda s, t, u: L.addr(s, t, u, beta=0.5, alpha=2))(c, x, y), (3, 2, 4), (3, 2), (3, 4)),
    "addr_beta_0": _program(lambda L, vmap, c, x, y: vmap(
        lambda s, t, u: L.addr(s, t, u, beta=0))(c, x, y), (3, 2, 4), (3, 2), (3, 4)),
    "addr_input_broadcast": _program(lambda L, vmap, c, x, y: vmap(
        lambda t, u: L.addr(c[0, 0], t, u))(x, y), (3, 2, 4), (3, 2), (3, 4)),
    "baddbmm": _program(lambda L, vmap, c, a, b: vmap(L.baddbmm)(c, a, b),
                        (3, 2, 2, 5), (3, 2, 2, 4), (3, 2, 4, 5)),
    "baddbmm_factors": _program(lambda L, vmap, c, a, b: vmap(
        lambda s, t, u: L.baddbmm(s, t, u, beta=0.25, alpha=4))(c, a, b),
        (3, 2, 2, 5), (3, 2, 2, 4), (3, 2, 4, 5)),
    # mv, by PyTorch's rule (a permute of the matrices when the vectors are batched)
    "mv": _program(lambda L, vmap, a, v: vmap(L.mv)(a, v), (3, 2, 4), (3, 4)),
    "mv_in_dims_1": _program(lambda L, vmap, a, v: vmap(L.mv, in_dims=(1, 0))(a, v), (2, 3, 4), (3, 4)),
    "mv_vector_batched": _program(lambda L, vmap, a, v: vmap(lambda u: L.mv(a[0], u))(v), (3, 2, 4), (3, 4)),
    # matmul of a matrix (or a stack of them) and a vector, of a vector and a matrix: mv, mm
    "matmul_matrix_vector": _program(lambda L, vmap, a, v: vmap(L.matmul)(a, v), (3, 2, 4), (3, 4)),
    "matmul_vector_batched": _program(lambda L, vmap, a, v: vmap(lambda u: a[0] @ u)(v),
                                      (3, 2, 4), (3, 4)),
    "matmul_stack_vector": _program(lambda L, vmap, a, v: vmap(L.matmul)(a, v), (3, 2, 3, 4), (3, 4)),
    "matmul_stack_not_batched": _program(lambda L, vmap, a, v: vmap(lambda u: L.matmul(a[0], u))(v),
                                         (3, 2, 3, 4), (3, 4)),
    "matmul_vector_matrix": _program(lambda L, vmap, v, a: vmap(L.matmul)(v, a), (3, 4), (3, 4, 2)),
    "matmul_vector_not_batched": _program(lambda L, vmap, v, a: vmap(lambda m: L.matmul(v[0], m))(a),
                                          (3, 4), (3, 4, 2)),
    # ... of stacks of matrices: matmul's steps (a fold, or expand, reshape, bmm), each by its rule
    "matmul_stacks": _program(lambda L, vmap, a, b: vmap(L.matmul)(a, b), (3, 2, 3, 4), (3, 2, 4, 5)),
    "matmul_stack_matrix": _program(lambda L, vmap, a, b: vmap(L.matmul)(a, b), (3, 2, 3, 4), (3, 4, 5)),
    "matmul_matrix_stack": _program(lambda L, vmap, a, b: vmap(L.matmul)(a, b), (3, 3, 4), (3, 2, 4, 5)),
    "matmul_stack_weight": _program(lambda L, vmap, a, w: vmap(lambda t: t @ w)(a), (3, 2, 3, 4), (4, 5)),
    "matmul_weight_stack": _program(lambda L, vmap, w, a: vmap(lambda t: w @ t)(a), (4, 5), (3, 2, 5, 3)),
    "matmul_stacks_nested": _program(lambda L, vmap, a, b: vmap(vmap(L.matmul))(a, b),
                                     (2, 3, 2, 3, 4), (2, 3, 2, 4, 5)),
    "matmul_nested": _program(lambda L, vmap, a, b: vmap(vmap(L.matmul))(a, b),
                              (2, 3, 2, 4), (2, 3, 4, 5)),
    # F.linear with a weight and bias that require grad: addmm's steps, matmul's fold
    "linear": _program(lambda L, vmap, x, w, b: vmap(lambda t: L.nn.functional.linear(t, w, b))(x),
                       (3, 2, 4), (5, 4), (5,)),
    "linear_stack": _program(lambda L, vmap, x, w, b: vmap(
        lambda t: L.nn.functional.linear(t, w, b))(x), (3, 2, 3, 4), (5, 4), (5,)),
    "linear_stack_no_bias": _program(lambda L, vmap, x, w: vmap(
        lambda t: L.nn.functional.linear(t, w))(x), (3, 2, 3, 4), (5, 4)),
    "linear_in_dims_1": _program(lambda L, vmap, x, w, b: vmap(
        lambda t: L.nn.functional.linear(t, w, b), in_dims=1)(x), (2, 3, 4), (5, 4), (5,)),
    "linear_vector": _program(lambda L, vmap, x, w, b: vmap(lambda t: L.nn.functional.linear(t, w, b))(x),
                              (3, 4), (5, 4), (5,)),
    # triangles and diagonals: their own node on the batch
    "tril": _program(lambda L, vmap, a: vmap(L.tril)(a), (3, 4, 4)),
    "triu_offset": _program(lambda L, vmap, a: vmap(lambda t: L.triu(t, 1))(a), (3, 4, 5)),
    "tril_method": _program(lambda L, vmap, a: vmap(lambda t: t.tril(-1))(a), (3, 2, 4, 4)),
    "triu_in_dims_1": _program(lambda L, vmap, a: vmap(L.triu, in_dims=1)(a), (4, 3, 4)),
    # (a sample of one dim: PyTorch's rule gives the triangle of the batch, one row per sample)
    "tril_of_vectors": _program(lambda L, vmap, x: vmap(L.tril)(x), (3, 4)),
    "triu_of_vectors_in_dims_1": _program(lambda L, vmap, x: vmap(lambda t: t.triu(-1), in_dims=1)(x),
                                          (4, 3)),
    "diag_embed": _program(lambda L, vmap, x: vmap(L.diag_embed)(x), (3, 4)),
    "diag_embed_dims": _program(lambda L, vmap, x: vmap(
        lambda t: L.diag_embed(t, 1, 0, 2))(x), (3, 2, 4)),
    "diag_embed_in_dims_1": _program(lambda L, vmap, x: vmap(L.diag_embed, in_dims=1)(x), (4, 3)),
    "diag_of_vector": _program(lambda L, vmap, x: vmap(L.diag)(x), (3, 4)),
    "diag_of_vector_offset": _program(lambda L, vmap, x: vmap(lambda t: L.diag(t, -2))(x), (3, 4)),
    "diag_of_matrix": _program(lambda L, vmap, a: vmap(L.diag)(a), (3, 4, 4)),
    "diag_of_matrix_offset": _program(lambda L, vmap, a: vmap(lambda t: t.diag(1))(a), (3, 4, 5)),
    # no rule in PyTorch: per sample, with its warning
    "vander": _program(lambda L, vmap, x: vmap(L.vander)(x), (3, 4)),
    "vander_increasing": _program(lambda L, vmap, x: vmap(
        lambda t: L.vander(t, N=3, increasing=True))(x), (3, 4)),
    "pdist": _program(lambda L, vmap, a: vmap(L.pdist)(a), (3, 4, 2)),
    "pdist_functional": _program(lambda L, vmap, a: vmap(lambda t: L.nn.functional.pdist(t, 1))(a),
                                 (3, 4, 2)),
    "diagflat": _program(lambda L, vmap, a: vmap(L.diagflat)(a), (3, 2, 2)),
    # inside vmap inside vmap
    "inner_nested": _program(lambda L, vmap, x, y: vmap(vmap(L.inner))(x, y), (2, 3, 4), (2, 3, 4)),
    "addmm_nested": _program(lambda L, vmap, c, a, b: vmap(vmap(L.addmm))(c, a, b),
                             (2, 3, 2, 5), (2, 3, 2, 4), (2, 3, 4, 5)),
    "tril_nested": _program(lambda L, vmap, a: vmap(vmap(L.tril))(a), (2, 3, 4, 4)),
    "kron_nested": _program(lambda L, vmap, x, y: vmap(vmap(L.kron))(x, y), (2, 3, 2), (2, 3, 3)),
    # no rule, inside vmap inside vmap: PyTorch's two fallbacks, nested
    "vander_nested": _program(lambda L, vmap, x: vmap(vmap(L.vander))(x), (2, 3, 4)),
    "pdist_nested": _program(lambda L, vmap, a: vmap(vmap(L.pdist))(a), (2, 3, 4, 2)),
    "diagflat_nested_in_dims_1": _program(lambda L, vmap, a: vmap(vmap(L.diagflat), in_dims=1)(a),
                                          (3, 2, 2, 2)),
    # in place: no rule in PyTorch (its warning), each sample changed through a view
    "triu_in_place": _program(lambda L, vmap, a: vmap(lambda t: t.clone().triu_(1))(a), (3, 4, 4)),
    "tril_in_place_nested": _program(lambda L, vmap, a: vmap(vmap(lambda t: t.clone().tril_()))(a),
                                     (3, 2, 2, 2)),
}
_PER_SAMPLE = ("vander", "vander_increasing", "pdist", "pdist_functional", "diagflat",
               "vander_nested", "pdist_nested", "diagflat_nested_in_dims_1", "triu_in_place",
               "tril_in_place_nested")


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
    # (PyTorch adds where its C++ code warned)
    messages = [(w.category.__name__, str(w.message).split(" (Triggered internally")[0])
                for w in caught]
    try:
        sum(o.pow(2).sum() for o in outs if o.requires_grad).backward()
    except RuntimeError as error:
        # (vander's graph, run per sample, changes in place a value cumprod saved: PyTorch's
        # backward refuses it, and so does minigrad's)
        messages.append(("backward", str(error).split("\nminigrad hint:")[0]))
    grads = [None if x.grad is None else x.grad.numpy() for x in leaves]
    return shown, values, grads, messages


def _assert_same(ours, theirs, exact):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert (a is None) == (b is None)
        if a is not None and exact:
            np.testing.assert_array_equal(a, b)
        elif a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-14)


# values from a matrix product (mm, bmm, dot): PyTorch's BLAS adds in an order of its own, so
# they agree to rounding (see README); the others agree to the last bit
_BLAS = tuple(n for n in PROGRAMS if n.split("_")[0] in (
    "inner", "tensordot", "multi", "addmm", "addmv", "baddbmm", "mv", "matmul", "linear")
    and n != "inner_number")


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_matches_torch(name):
    torch = import_torch()
    theirs = _outcome(torch, name)
    ours = _outcome(minigrad, name)
    assert ours[0] == theirs[0]                      # shapes, dtypes and graphs
    _assert_same(ours[1], theirs[1], exact=name not in _BLAS)     # values
    _assert_same(ours[2], theirs[2], exact=False)    # gradients
    assert ours[3] == theirs[3]                      # warnings


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
    """The saved settings (numbers, dims, sizes) of the nodes of the first output's graph."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out, _ = PROGRAMS[name](L)
    settings, stack = [], [_flat(out)[0].grad_fn]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        for attribute in sorted(dir(node)):
            if attribute.startswith("_saved_"):
                value = getattr(node, attribute)
                if isinstance(value, (bool, int, float, str, tuple, list)):
                    settings.append((type(node).__name__, attribute,
                                     tuple(value) if isinstance(value, list) else value))
        stack.extend(child for child, _ in node.next_functions)
    return settings


@pytest.mark.parametrize("name", ["inner_vectors", "inner_one_batched", "tensordot_lists", "kron",
                                  "multi_dot_vectors", "addmm_factors", "addmv_factors",
                                  "addr_factors", "baddbmm_factors", "mv", "mv_vector_batched",
                                  "triu_offset", "diag_embed_dims", "diag_of_vector_offset",
                                  "diag_of_matrix_offset", "pdist_functional"])
def test_saved_settings_are_torchs(name):
    torch = import_torch()
    assert _saved(minigrad, name) == _saved(torch, name)


@pytest.mark.parametrize("name", ["inner_vectors", "tensordot_lists", "kron_ranks", "multi_dot_row",
                                  "addmm_factors", "addmv_factors", "addr_factors",
                                  "baddbmm_factors", "diag_embed_dims", "diag_of_matrix_offset",
                                  "triu_in_dims_1", "pdist", "diagflat", "pdist_nested", "linear_stack"])
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
    "tril_number": lambda L: L.func.vmap(L.tril)(_ones(L, 3)),
    "triu_number": lambda L: L.func.vmap(lambda t: t.triu(1))(_ones(L, 3)),
    "mm_vector": lambda L: L.func.vmap(L.mm)(_ones(L, 3, 2), _ones(L, 3, 2, 2)),
    "mv_vectors": lambda L: L.func.vmap(L.mv)(_ones(L, 3, 2), _ones(L, 3, 2)),
    "mv_matrices": lambda L: L.func.vmap(L.mv)(_ones(L, 3, 2, 2), _ones(L, 3, 2, 2)),
    "mm_not_batched_vector": lambda L: L.func.vmap(L.mm, in_dims=(None, 0))(_ones(L, 2), _ones(L, 3, 2, 2)),
    "dot_matrix": lambda L: L.func.vmap(L.dot)(_ones(L, 3, 2, 2), _ones(L, 3, 2)),
    "diag_3d": lambda L: L.func.vmap(L.diag)(_ones(L, 3, 2, 2, 2)),
    "diag_embed_same_dims": lambda L: L.func.vmap(lambda t: L.diag_embed(t, 0, 1, -1))(_ones(L, 3, 4)),
    "inner_sizes": lambda L: L.func.vmap(L.inner)(_ones(L, 3, 4), _ones(L, 3, 5)),
    "tensordot_sizes": lambda L: L.func.vmap(lambda s, t: L.tensordot(s, t, 1))(_ones(L, 3, 4), _ones(L, 3, 5)),
    "addmm_sizes": lambda L: L.func.vmap(L.addmm)(_ones(L, 3, 2, 2), _ones(L, 3, 2, 4), _ones(L, 3, 5, 2)),
    "addmv_matrix_vector": lambda L: L.func.vmap(L.addmv)(_ones(L, 3, 2), _ones(L, 3, 2), _ones(L, 3, 2)),
    "addr_matrix": lambda L: L.func.vmap(L.addr)(_ones(L, 3, 2, 2), _ones(L, 3, 2, 2), _ones(L, 3, 2)),
    "baddbmm_sizes": lambda L: L.func.vmap(L.baddbmm)(
        _ones(L, 3, 2, 2, 5), _ones(L, 3, 2, 2, 4), _ones(L, 3, 2, 3, 5)),
    "multi_dot_sizes": lambda L: L.func.vmap(lambda s, t: L.linalg.multi_dot([s, t]))(
        _ones(L, 3, 4), _ones(L, 3, 5)),
    "pdist_vector": lambda L: L.func.vmap(L.pdist)(_ones(L, 3, 4)),
    "vander_matrix": lambda L: L.func.vmap(L.vander)(_ones(L, 3, 2, 2)),
}


@pytest.mark.parametrize("name", list(FAILING))
def test_failure_is_torchs(name):
    torch = import_torch()
    assert failure_of(lambda: FAILING[name](minigrad)) == failure_of(lambda: FAILING[name](torch))


# --- vjp_fn(c) with c not batched: a derivative that uses no batched value is not batched -------
# (PyTorch's backward pass starts from c itself: what it computes from c and from values not
# batched alone is not batched, so .item() works on it inside the vmap)

def _vjp_programs(L):
    F = L.func
    c = L.tensor([0.5, -1.0, 2.0, 0.25], dtype=L.float64)
    c_grad = L.tensor([0.5, -1.0, 2.0, 0.25], dtype=L.float64, requires_grad=True)

    def vjp_of(function, *primals, cotangent=c):
        return F.vjp(function, *primals)[1](cotangent)
    return {
        "linear": lambda x, y: vjp_of(lambda t: t * 2, x),
        "linear_sum_expand": lambda x, y: vjp_of(
            lambda t: (t * 3).sum(0, keepdim=True).expand(4) + t, x),
        "linear_in_one_of_two": lambda x, y: vjp_of(lambda t, w: t * w, x, c),
        "not_linear": lambda x, y: vjp_of(lambda t: t.sin(), x),
        "input_not_used": lambda x, y: vjp_of(lambda t, u: t * 2, x, x),
        "captured_batched": lambda x, y: vjp_of(lambda t: t * y, c),
        "cotangent_requires_grad": lambda x, y: vjp_of(lambda t: t * 2, x, cotangent=c_grad),
        "two_outputs": lambda x, y: vjp_of(lambda t: (t * 2, t.sin()), x, cotangent=(c, c)),
        "two_outputs_zero_cotangent": lambda x, y: vjp_of(
            lambda t: (t * 2, t.sin()), x, cotangent=(c, L.zeros(4, dtype=L.float64))),
        "stacked": lambda x, y: vjp_of(lambda t: L.stack([t, t * 2]), x,
                                       cotangent=L.ones(2, 4, dtype=L.float64)),
        "batched_cotangent": lambda x, y: vjp_of(lambda t: t * 2, x, cotangent=y),
        "grad": lambda x, y: (F.grad(lambda t: (t * c).sum())(x),),
        "jacrev": lambda x, y: (F.jacrev(lambda t: t * 2)(x),),
    }


def _vjp_outcome(L, name):
    xs = L.tensor(np.linspace(-1.0, 1.0, 12).reshape(3, 4))
    ys = L.tensor(np.linspace(-2.0, 1.0, 12).reshape(3, 4))
    seen = []

    def body(x, y):
        out = _vjp_programs(L)[name](x, y)
        seen.extend(item_or_refusal(o) for o in out)
        return out
    out = L.func.vmap(body)(xs, ys)
    return seen, [(tuple(o.shape), graph(o)) for o in out], [o.detach().numpy() for o in out]


@pytest.mark.parametrize("name", list(_vjp_programs(minigrad)))
def test_vjp_of_no_batched_value_is_not_batched(name):
    torch = import_torch()
    ours, theirs = _vjp_outcome(minigrad, name), _vjp_outcome(torch, name)
    assert ours[:2] == theirs[:2]        # .item() inside, shapes, graphs
    _assert_same(ours[2], theirs[2], exact=True)


def _unbatched_output(L, out_dims):
    c = L.tensor([0.5, -1.0, 2.0], dtype=L.float64, requires_grad=True)
    out = L.func.vmap(lambda x: c * 2, out_dims=out_dims)(L.ones(3, 2, dtype=L.float64))
    return tuple(out.shape), graph(out), out.detach().numpy()


@pytest.mark.parametrize("out_dims", [0, 1])
def test_output_not_batched_is_expanded_once(out_dims):
    """A result that is not batched leaves vmap through one ExpandBackward0, with the batch
    at out_dims (PyTorch lines the tensor up with the expanded shape from the end)."""
    torch = import_torch()
    ours, theirs = _unbatched_output(minigrad, out_dims), _unbatched_output(torch, out_dims)
    assert ours[:2] == theirs[:2]
    np.testing.assert_array_equal(ours[2], theirs[2])


def _grad_with_tril_in_place(L):
    a = L.tensor(np.random.default_rng(0).standard_normal((3, 4, 4)), requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = L.func.vmap(L.func.grad(lambda t: (t.clone().tril_() ** 2).sum()))(a)
    return out.detach().numpy(), [str(w.message)[:100] for w in caught], graph(out)[0]


def test_tril_in_place_inside_grad_inside_vmap():
    """Recorded once for the batch (PyTorch: once per sample, through views), with PyTorch's
    warning, gradient and top node."""
    torch = import_torch()
    ours, theirs = _grad_with_tril_in_place(minigrad), _grad_with_tril_in_place(torch)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1:] == theirs[1:]


def _nested_fallback_values(L):
    a = L.tensor(np.random.default_rng(0).standard_normal((2, 3, 4, 4)))
    b = L.tensor(np.random.default_rng(1).standard_normal((2, 3, 4)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return L.func.vmap(L.func.vmap(L.linalg.tensorsolve))(a, b).numpy()


def test_fallback_inside_vmap_inside_vmap_gives_each_sample_its_own():
    """(Each inner sample's own result, not the first one's.)"""
    torch = import_torch()
    np.testing.assert_allclose(_nested_fallback_values(minigrad), _nested_fallback_values(torch),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["kron_ranks", "addmm_factors", "addr_factors", "diag_embed_dims",
                                  "tril", "inner_vectors", "linear"])
def test_gradgradcheck(name):
    """Second derivatives of the whole-batch programs, against finite differences."""
    program = PROGRAMS[name]
    _, leaves = program(minigrad)
    inputs = [leaf.detach().clone().requires_grad_() for leaf in leaves]

    def run(*a):
        return tuple(o for o in _flat(program.body(minigrad, minigrad.func.vmap, *a)) if o.requires_grad)
    assert minigrad.autograd.gradgradcheck(run, inputs)


@pytest.mark.parametrize("in_dims", [0, 1, 2])
def test_is_contiguous_answers_for_one_sample(in_dims):
    torch = import_torch()

    def answers(L):
        x = L.zeros(3, 4, 5)
        return [L.func.vmap(lambda t: L.tensor(f(t)), in_dims=in_dims)(x).tolist()
                for f in (lambda t: t.is_contiguous(), lambda t: t.mT.is_contiguous())]
    assert answers(minigrad) == answers(torch)
