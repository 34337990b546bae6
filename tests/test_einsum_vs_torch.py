"""einsum against PyTorch: values, gradients, and the whole recorded graph.

PyTorch runs einsum as permutes, reshapes, bmm, sums and products, and records
those nodes; minigrad runs the same program, so the graph below the output
(node names and next_functions, all the way down to the leaves) must be the
same, as must the errors for equations that do not fit the operands.
"""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

import minigrad

from conftest import import_torch  # noqa: F401  (tests/ is on sys.path under pytest)


def graph(fn):
    """The graph below ``fn`` as nested tuples of node names (output_nr kept when not 0)."""
    if fn is None:
        return None
    name = type(fn).__name__ if not hasattr(fn, "name") else fn.name().split("::")[-1]
    return (name, tuple((graph(f), n) for f, n in fn.next_functions))


EQUATIONS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),             # matrix product
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),    # batched matrix product
    ("i,i->", [(3,), (3,)]),                      # dot product
    ("i,j->ij", [(3,), (4,)]),                    # outer product
    ("ii->", [(3, 3)]),                           # trace
    ("ii->i", [(3, 3)]),                          # diagonal
    ("ij->ji", [(2, 3)]),                         # transpose
    ("ij->", [(2, 3)]),                           # sum of all elements
    ("ij->j", [(2, 3)]),                          # column sums
    ("bn,anm,bm->ba", [(2, 3), (5, 3, 4), (2, 4)]),   # bilinear
    ("...ij,...jk->...ik", [(2, 2, 3), (2, 3, 4)]),   # ellipsis
    ("...ij,jk->...ik", [(2, 2, 3), (3, 4)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("i...->...", [(2, 3, 4)]),
    ("...,...->...", [(2, 3), (3,)]),             # ellipsis broadcast from the left
    ("ij,ij->ij", [(2, 3), (2, 3)]),              # elementwise product
    ("ij,ij->", [(2, 3), (2, 3)]),
    ("ij,j->i", [(2, 3), (3,)]),                  # matrix-vector
    ("ij,i->j", [(2, 3), (2,)]),
    ("bi,bi->b", [(2, 3), (2, 3)]),               # batched dot
    ("ij,kj->ik", [(2, 3), (4, 3)]),              # A @ B.T (a reshape without copy: ReshapeAlias)
    ("ijk->kji", [(2, 3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),                  # implicit output
    ("ij", [(2, 3)]),
    ("ji", [(2, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),   # chain of three
    ("iij->j", [(2, 2, 3)]),
    ("ij,jk->", [(2, 3), (3, 4)]),
    ("i,i->i", [(3,), (3,)]),
    ("i->i", [(3,)]),
    ("bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)]),   # attention scores
    ("bhqk,bhkd->bhqd", [(2, 2, 3, 5), (2, 2, 5, 4)]),
    ("ij,kl->ijkl", [(2, 3), (2, 2)]),
    ("iJ,Jk->ik", [(2, 3), (3, 2)]),              # upper-case letters come first
    ("aB,Ba->", [(2, 3), (3, 2)]),
    ("ij,j", [(2, 3), (3,)]),
    ("i,jk,k->ij", [(2,), (3, 4), (4,)]),
    ("ij,jk->ik", [(2, 1), (1, 4)]),              # size-1 contraction
    ("ij,jk->ik", [(1, 3), (3, 1)]),
    ("bij,jk->bik", [(1, 2, 3), (3, 2)]),
    ("ijk,ijk->k", [(2, 3, 2), (2, 3, 2)]),
    (" i j , j k -> i k ", [(2, 3), (3, 4)]),     # spaces are ignored
]


def _run(L, equation, arrays, seed_grad=None):
    tensors = [L.tensor(a, requires_grad=True) for a in arrays]
    out = L.einsum(equation, *tensors)
    grads = L.autograd.grad(out, tensors, L.tensor(seed_grad), allow_unused=True)
    return out, grads


@pytest.mark.parametrize("equation,shapes", EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_einsum_matches_torch(equation, shapes):
    torch = import_torch()
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in shapes]
    expected = torch.einsum(equation, *[torch.tensor(a, requires_grad=True) for a in arrays])
    seed_grad = rng.standard_normal(tuple(expected.shape))
    ours, our_grads = _run(minigrad, equation, arrays, seed_grad)
    theirs, their_grads = _run(torch, equation, arrays, seed_grad)
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-12, atol=1e-12)
    for g, h in zip(our_grads, their_grads):
        np.testing.assert_allclose(g.numpy(), h.numpy(), rtol=1e-12, atol=1e-12)
    assert graph(ours.grad_fn) == graph(theirs.grad_fn)
    assert ours.is_contiguous() == theirs.is_contiguous()
    assert (ours._base is not None) == (theirs._base is not None)


@pytest.mark.parametrize("equation,shapes", [
    ("ii->i", [(3, 2)]),
    ("ij,jk->ik", [(3, 2), (3, 2)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (3, 4, 5)]),
    ("ij->k", [(2, 3)]),
    ("ij->i", [(3,)]),
    ("ij,jk", [(2, 3)]),
    ("i", [(2,), (2,)]),
    ("......->", [(2, 2)]), ("i..j->", [(2, 2)]), ("ij->...i...", [(2, 2)]), ("ij->i..", [(2, 2)]),
    ("i j->i1", [(2, 2)]), ("i j->ii", [(2, 2)]), ("ij,", [(2, 2), (2, 2)]), ("ij-->i", [(2, 2)]),
    ("ij>i", [(2, 2)]), ("ij->i->j", [(2, 2)]), ("ij", []), ("ij..", [(2, 2)]),
])
def test_einsum_errors_match_torch(equation, shapes):
    torch = import_torch()
    arrays = [np.ones(s) for s in shapes]
    errors = []
    for L in (minigrad, torch):
        with pytest.raises(Exception) as info:
            L.einsum(equation, *[L.tensor(a) for a in arrays])
        errors.append((type(info.value).__name__, str(info.value)))
    assert errors[0] == errors[1]


def test_einsum_double_backward_matches_torch():
    torch = import_torch()
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 2))
    results = []
    for L in (minigrad, torch):
        x, y = L.tensor(a, requires_grad=True), L.tensor(b, requires_grad=True)
        (gx,) = L.autograd.grad(L.einsum("ij,jk->", x, y) ** 2, x, create_graph=True)
        (gy,) = L.autograd.grad(gx.sum(), y)
        results.append((gx.detach().numpy(), gy.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_einsum_forward_mode_matches_torch():
    torch = import_torch()
    rng = np.random.default_rng(2)
    a, t, b = rng.standard_normal((3, 3)), rng.standard_normal((3, 3)), rng.standard_normal((3, 2))
    results = []
    for L in (minigrad, torch):
        fw = L.autograd.forward_ad
        with fw.dual_level():
            out = L.einsum("ii,ij->j", fw.make_dual(L.tensor(a), L.tensor(t)), L.tensor(b))
            results.append(fw.unpack_dual(out).tangent.numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)


def test_diagonal_is_a_view_like_torch():
    torch = import_torch()
    outs = []
    for L in (minigrad, torch):
        x = L.arange(9.0).reshape(3, 3)
        d = L.einsum("ii->i", x)
        d.mul_(10)         # writes through to x
        outs.append(x.numpy().copy())
    np.testing.assert_array_equal(outs[0], outs[1])


# --- random shapes: every letter gets a random size (1 included: broadcasting) -----------------

_SHAPED = [("ij,jk->ik", "ij", "jk"), ("bij,bjk->bik", "bij", "bjk"), ("i,j->ij", "i", "j"),
           ("ij,kj->ik", "ij", "kj"), ("bn,anm,bm->ba", "bn", "anm", "bm"), ("ii->i", "ii"),
           ("ijk,ikl->jl", "ijk", "ikl"), ("ij,ij->", "ij", "ij"), ("abc,cd->bad", "abc", "cd"),
           # the letters after the equation name the operands' dims, also those under '...'
           ("...ij,...jk->...ik", "bij", "bjk"), ("...ij,jk->...ik", "abij", "jk"),
           ("iij,jk->ik", "iij", "jk"), ("ij,jk,kl->il", "ij", "jk", "kl"), ("b...,b...->b", "bxy", "bxy")]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_einsum_random_shapes_match_torch(data):
    torch = import_torch()
    equation, *terms = data.draw(st.sampled_from(_SHAPED))
    letters = sorted(set("".join(terms)))
    size = {c: data.draw(st.integers(1, 4), label=c) for c in letters}
    seed = data.draw(st.integers(0, 2 ** 16))
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal([size[c] for c in term]) for term in terms]
    expected = torch.einsum(equation, *[torch.tensor(a) for a in arrays])
    seed_grad = rng.standard_normal(tuple(expected.shape))
    ours, our_grads = _run(minigrad, equation, arrays, seed_grad)
    theirs, their_grads = _run(torch, equation, arrays, seed_grad)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-10, atol=1e-12)
    for g, h in zip(our_grads, their_grads):
        np.testing.assert_allclose(g.numpy(), h.numpy(), rtol=1e-10, atol=1e-12)
    assert graph(ours.grad_fn) == graph(theirs.grad_fn)


@pytest.mark.parametrize("args", [(0, 0, 1), (1, 1, 2), (-1, 0, 2), (2, 2, 1), (0, -1, -2)])
def test_diagonal_matches_torch(args):
    torch = import_torch()
    a = np.arange(24.0).reshape(2, 3, 4)
    results = []
    for L in (minigrad, torch):
        x = L.tensor(a, requires_grad=True)
        d = L.diagonal(x, *args)
        (d * L.arange(float(d.shape[-1]))).sum().backward()
        results.append((d.detach().numpy(), x.grad.numpy(), graph(d.grad_fn)))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])
    assert results[0][2] == results[1][2]
