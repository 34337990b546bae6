"""Which saved inputs backward reads, for operations of three or more tensor inputs, against PyTorch.

PyTorch's node saves an input only for the derivatives that need it, and only when the input
those derivatives belong to requires grad; backward then checks (and may refuse) each saved
input that was changed in place since. So after the forward, each input in turn is changed in
place (and then the output), for every choice of the inputs that require grad, and backward
must fail exactly when PyTorch's fails, with its message, or give its gradients.
"""
import itertools

import numpy as np
import pytest

import minigrad


def _floats(*shape):
    return lambda rng: rng.standard_normal(shape)


def _positive(*shape):
    return lambda rng: rng.uniform(0.5, 2.0, shape)


def _probabilities(*shape):
    return lambda rng: rng.uniform(0.1, 0.9, shape)


def _spd(n):
    def make(rng):
        a = rng.standard_normal((n, n))
        return a @ a.T + n * np.eye(n)
    return make


def _lower(n):
    return lambda rng: np.tril(rng.standard_normal((n, n))) + 3 * np.eye(n)


def _ints(values):
    return lambda rng: np.array(values, dtype=np.int64)


def _mask(values):
    return lambda rng: np.array(values, dtype=bool)


F = "nn.functional."


# (name, the inputs' makers, the operation of the library L and the inputs)
OPERATIONS = [
    ("addmm", [_floats(2, 4), _floats(2, 3), _floats(3, 4)], lambda L, a, b, c: L.addmm(a, b, c)),
    ("addmm_scaled", [_floats(2, 4), _floats(2, 3), _floats(3, 4)],
     lambda L, a, b, c: L.addmm(a, b, c, beta=0.5, alpha=2.0)),
    ("addmm_beta0", [_floats(2, 4), _floats(2, 3), _floats(3, 4)],
     lambda L, a, b, c: L.addmm(a, b, c, beta=0)),
    ("addmv", [_floats(2), _floats(2, 3), _floats(3)], lambda L, a, b, c: L.addmv(a, b, c)),
    ("addr", [_floats(2, 3), _floats(2), _floats(3)], lambda L, a, b, c: L.addr(a, b, c)),
    ("baddbmm", [_floats(2, 2, 4), _floats(2, 2, 3), _floats(2, 3, 4)], lambda L, a, b, c: L.baddbmm(a, b, c)),
    ("addbmm", [_floats(2, 4), _floats(2, 2, 3), _floats(2, 3, 4)], lambda L, a, b, c: L.addbmm(a, b, c)),
    ("addcmul", [_floats(3), _floats(3), _floats(3)], lambda L, a, b, c: L.addcmul(a, b, c, value=0.5)),
    ("addcdiv", [_floats(3), _floats(3), _positive(3)], lambda L, a, b, c: L.addcdiv(a, b, c, value=0.5)),
    ("lerp", [_floats(3), _floats(3), _floats(3)], lambda L, a, b, c: L.lerp(a, b, c)),
    ("where", [_mask([True, False, True]), _floats(3), _floats(3)], lambda L, m, a, b: L.where(m, a, b)),
    ("clamp", [_floats(3), _floats(3), _floats(3)], lambda L, a, lo, hi: L.clamp(a, lo, hi)),
    ("clamp_min_only", [_floats(3), _floats(3)], lambda L, a, lo: L.clamp(a, min=lo)),
    ("index_add", [_floats(4, 2), _ints([0, 2]), _floats(2, 2)], lambda L, a, i, s: a.index_add(0, i, s)),
    ("index_add_alpha", [_floats(4, 2), _ints([0, 2]), _floats(2, 2)],
     lambda L, a, i, s: a.index_add(0, i, s, alpha=2.0)),
    ("index_copy", [_floats(4, 2), _ints([0, 2]), _floats(2, 2)], lambda L, a, i, s: a.index_copy(0, i, s)),
    ("index_fill", [_floats(4, 2), _ints([0, 2]), _floats()], lambda L, a, i, v: a.index_fill(0, i, v)),
    ("index_put", [_floats(4, 2), _ints([0, 2]), _floats(2, 2)], lambda L, a, i, v: a.index_put((i,), v)),
    ("index_put_acc", [_floats(4, 2), _ints([0, 2]), _floats(2, 2)],
     lambda L, a, i, v: a.index_put((i,), v, accumulate=True)),
    ("put", [_floats(4), _ints([0, 2]), _floats(2)], lambda L, a, i, v: a.put(i, v)),
    ("put_acc", [_floats(4), _ints([0, 2]), _floats(2)], lambda L, a, i, v: a.put(i, v, accumulate=True)),
    ("scatter", [_floats(3, 2), _ints([[0, 1], [2, 0]]), _floats(2, 2)], lambda L, a, i, s: a.scatter(0, i, s)),
    ("scatter_add", [_floats(3, 2), _ints([[0, 1], [2, 0]]), _floats(2, 2)],
     lambda L, a, i, s: a.scatter_add(0, i, s)),
    ("scatter_reduce_sum", [_floats(3, 2), _ints([[0, 1], [2, 0]]), _floats(2, 2)],
     lambda L, a, i, s: a.scatter_reduce(0, i, s, "sum")),
    ("scatter_reduce_prod", [_floats(3, 2), _ints([[0, 1], [2, 0]]), _floats(2, 2)],
     lambda L, a, i, s: a.scatter_reduce(0, i, s, "prod")),
    ("scatter_reduce_mean", [_floats(3, 2), _ints([[0, 1], [2, 0]]), _floats(2, 2)],
     lambda L, a, i, s: a.scatter_reduce(0, i, s, "mean")),
    ("scatter_reduce_amax", [_floats(3, 2), _ints([[0, 1], [2, 0]]), _floats(2, 2)],
     lambda L, a, i, s: a.scatter_reduce(0, i, s, "amax", include_self=False)),
    ("masked_fill", [_floats(3), _mask([True, False, True]), _floats()], lambda L, a, m, v: a.masked_fill(m, v)),
    ("masked_scatter", [_floats(3), _mask([True, False, True]), _floats(3)],
     lambda L, a, m, s: a.masked_scatter(m, s)),
    ("masked_select", [_floats(3), _mask([True, False, True])], lambda L, a, m: a.masked_select(m)),
    ("cat3", [_floats(2), _floats(3), _floats(1)], lambda L, a, b, c: L.cat([a, b, c])),
    ("stack3", [_floats(2), _floats(2), _floats(2)], lambda L, a, b, c: L.stack([a, b, c])),
    ("multi_dot", [_floats(2, 3), _floats(3, 4), _floats(4, 2)], lambda L, a, b, c: L.linalg.multi_dot([a, b, c])),
    ("chain_matmul", [_floats(2, 3), _floats(3, 4), _floats(4, 2)], lambda L, a, b, c: L.chain_matmul(a, b, c)),
    ("einsum3", [_floats(2, 3), _floats(3, 4), _floats(4)], lambda L, a, b, c: L.einsum("ij,jk,k->i", a, b, c)),
    ("lu_solve", [_spd(3), _floats(3, 2)],
     lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b)),
    ("cholesky_solve", [_floats(3, 2), _lower(3)], lambda L, b, l: L.cholesky_solve(b, l)),
    ("solve_triangular", [_lower(3), _floats(3, 2)],
     lambda L, a, b: L.linalg.solve_triangular(a, b, upper=False)),
    ("linear", [_floats(2, 3), _floats(4, 3), _floats(4)], lambda L, x, w, b: L.nn.functional.linear(x, w, b)),
    ("conv1d", [_floats(1, 2, 5), _floats(3, 2, 2), _floats(3)],
     lambda L, x, w, b: L.nn.functional.conv1d(x, w, b)),
    ("conv2d", [_floats(1, 2, 4, 4), _floats(3, 2, 2, 2), _floats(3)],
     lambda L, x, w, b: L.nn.functional.conv2d(x, w, b)),
    ("conv_transpose1d", [_floats(1, 2, 4), _floats(2, 3, 2), _floats(3)],
     lambda L, x, w, b: L.nn.functional.conv_transpose1d(x, w, b)),
    ("layer_norm", [_floats(2, 3), _floats(3), _floats(3)],
     lambda L, x, w, b: L.nn.functional.layer_norm(x, (3,), w, b)),
    ("group_norm", [_floats(2, 4, 3), _floats(4), _floats(4)],
     lambda L, x, w, b: L.nn.functional.group_norm(x, 2, w, b)),
    ("batch_norm_train", [_floats(4, 3), _floats(3), _positive(3), _floats(3), _floats(3)],
     lambda L, x, m, v, w, b: L.nn.functional.batch_norm(x, m, v, w, b, training=True)),
    ("batch_norm_eval", [_floats(4, 3), _floats(3), _positive(3), _floats(3), _floats(3)],
     lambda L, x, m, v, w, b: L.nn.functional.batch_norm(x, m, v, w, b, training=False)),
    ("instance_norm", [_floats(2, 3, 4), _floats(3), _floats(3)],
     lambda L, x, w, b: L.nn.functional.instance_norm(x, weight=w, bias=b)),
    ("nll_loss_weight", [_floats(3, 4), _ints([0, 3, 1]), _positive(4)],
     lambda L, x, t, w: L.nn.functional.nll_loss(x, t, weight=w)),
    ("cross_entropy_weight", [_floats(3, 4), _ints([0, 3, 1]), _positive(4)],
     lambda L, x, t, w: L.nn.functional.cross_entropy(x, t, weight=w)),
    ("cross_entropy_probs_weight", [_floats(3, 4), _probabilities(3, 4), _positive(4)],
     lambda L, x, t, w: L.nn.functional.cross_entropy(x, t, weight=w)),
    ("binary_cross_entropy_weight", [_probabilities(3), _probabilities(3), _positive(3)],
     lambda L, x, t, w: L.nn.functional.binary_cross_entropy(x, t, weight=w)),
    ("bce_with_logits_weights", [_floats(3), _probabilities(3), _positive(3), _positive(3)],
     lambda L, x, t, w, p: L.nn.functional.binary_cross_entropy_with_logits(x, t, weight=w, pos_weight=p)),
    ("embedding", [_ints([0, 2, 1]), _floats(4, 2)], lambda L, i, w: L.nn.functional.embedding(i, w)),
    ("hypot", [_floats(3), _floats(3)], lambda L, a, b: L.hypot(a, b)),
    # two tensor inputs and an index, or a few more
    ("gather", [_floats(3, 2), _ints([[0, 1], [2, 0]])], lambda L, a, i: a.gather(0, i)),
    ("index_select", [_floats(4, 2), _ints([0, 2])], lambda L, a, i: a.index_select(0, i)),
    ("take", [_floats(4), _ints([0, 2])], lambda L, a, i: a.take(i)),
    ("take_along_dim", [_floats(3, 2), _ints([[0, 1], [2, 0]])], lambda L, a, i: L.take_along_dim(a, i, 0)),
    ("indexing", [_floats(4, 2), _ints([0, 2])], lambda L, a, i: a[i]),
    ("indexing_mask", [_floats(3), _mask([True, False, True])], lambda L, a, m: a[m]),
    ("index_reduce_prod", [_floats(4, 2), _ints([0, 2]), _floats(2, 2)],
     lambda L, a, i, s: a.index_reduce(0, i, s, "prod")),
    ("index_reduce_amax", [_floats(4, 2), _ints([0, 2]), _floats(2, 2)],
     lambda L, a, i, s: a.index_reduce(0, i, s, "amax")),
    ("lerp_scalar", [_floats(3), _floats(3)], lambda L, a, b: L.lerp(a, b, 0.3)),
    ("clamp_max_only", [_floats(3), _floats(3)], lambda L, a, hi: L.clamp(a, max=hi)),
    ("linalg_solve", [_spd(3), _floats(3, 2)], lambda L, a, b: L.linalg.solve(a, b)),
    ("lstsq", [_floats(4, 3), _floats(4, 2)], lambda L, a, b: L.linalg.lstsq(a, b).solution),
    ("cdist", [_floats(3, 2), _floats(4, 2)], lambda L, a, b: L.cdist(a, b)),
    ("dist", [_floats(3), _floats(3)], lambda L, a, b: L.dist(a, b)),
    ("kron", [_floats(2, 2), _floats(2, 3)], lambda L, a, b: L.kron(a, b)),
    ("vecdot", [_floats(2, 3), _floats(2, 3)], lambda L, a, b: L.linalg.vecdot(a, b)),
    ("block_diag", [_floats(2, 2), _floats(1, 3), _floats(2)], lambda L, a, b, c: L.block_diag(a, b, c)),
    ("diagonal_scatter", [_floats(3, 3), _floats(3)], lambda L, a, s: L.diagonal_scatter(a, s)),
    ("slice_scatter", [_floats(4, 2), _floats(2, 2)], lambda L, a, s: L.slice_scatter(a, s, 0, 1, 3)),
    ("select_scatter", [_floats(3, 2), _floats(2)], lambda L, a, s: L.select_scatter(a, s, 0, 1)),
    ("as_strided_scatter", [_floats(4), _floats(2)], lambda L, a, s: L.as_strided_scatter(a, s, (2,), (2,))),
    ("xlogy", [_floats(3), _positive(3)], lambda L, a, b: L.xlogy(a, b)),
    ("xlog1py", [_floats(3), _positive(3)], lambda L, a, b: L.special.xlog1py(a, b)),
    ("atan2", [_floats(3), _floats(3)], lambda L, a, b: L.atan2(a, b)),
    ("copysign", [_floats(3), _floats(3)], lambda L, a, b: L.copysign(a, b)),
    ("fmod", [_floats(3), _positive(3)], lambda L, a, b: L.fmod(a, b)),
    ("remainder", [_floats(3), _positive(3)], lambda L, a, b: L.remainder(a, b)),
    ("cosine_similarity", [_floats(2, 3), _floats(2, 3)],
     lambda L, a, b: L.nn.functional.cosine_similarity(a, b)),
    ("pairwise_distance", [_floats(2, 3), _floats(2, 3)],
     lambda L, a, b: L.nn.functional.pairwise_distance(a, b)),
    ("prelu", [_floats(2, 3), _positive(3)], lambda L, a, w: L.nn.functional.prelu(a, w)),
    ("kl_div", [_floats(3), _probabilities(3)], lambda L, a, t: L.nn.functional.kl_div(a, t, reduction="sum")),
    ("huber_loss", [_floats(3), _floats(3)], lambda L, a, t: L.nn.functional.huber_loss(a, t)),
    ("soft_margin_loss", [_floats(3), _floats(3)],
     lambda L, a, t: L.nn.functional.soft_margin_loss(a, t.sign())),
    ("rms_norm", [_floats(2, 3), _floats(3)], lambda L, x, w: L.nn.functional.rms_norm(x, (3,), w)),
    ("conv_transpose2d", [_floats(1, 2, 3, 3), _floats(2, 3, 2, 2), _floats(3)],
     lambda L, x, w, b: L.nn.functional.conv_transpose2d(x, w, b)),
    ("conv2d_groups", [_floats(1, 4, 3, 3), _floats(4, 2, 2, 2), _floats(4)],
     lambda L, x, w, b: L.nn.functional.conv2d(x, w, b, groups=2)),
    ("nll_loss_weight_sum", [_floats(3, 4), _ints([0, 3, 1]), _positive(4)],
     lambda L, x, t, w: L.nn.functional.nll_loss(x, t, weight=w, reduction="sum")),
    ("cross_entropy_smoothing_weight", [_floats(3, 4), _ints([0, 3, 1]), _positive(4)],
     lambda L, x, t, w: L.nn.functional.cross_entropy(x, t, weight=w, label_smoothing=0.1)),
    ("cholesky_inverse", [_lower(3)], lambda L, l: L.cholesky_inverse(l)),
    ("renorm", [_floats(3, 2)], lambda L, a: a.renorm(2, 0, 1.0)),
    # a zero gradient, but the node still unpacks what it saved
    ("sgn", [_floats(3)], lambda L, a: L.sgn(a)),
    ("angle", [_floats(3)], lambda L, a: L.angle(a)),
    ("prelu_0d", [_floats(), _positive(1)], lambda L, a, w: L.nn.functional.prelu(a, w)),
]


# the running statistics of batch_norm cannot require grad (both libraries refuse)
NO_GRAD = {"batch_norm_train": (1, 2), "batch_norm_eval": (1, 2)}


def _grad_choices(name, makers, rng):
    """Each non-empty set of the floating inputs (by position) that may require grad."""
    floating = [i for i, make in enumerate(makers)
                if np.asarray(make(rng)).dtype.kind == "f" and i not in NO_GRAD.get(name, ())]
    for count in range(1, len(floating) + 1):
        yield from itertools.combinations(floating, count)


def _outcome(L, fn, arrays, needs_grad, changed):
    """Run forward, change input ``changed`` (the output after the inputs) in place, ask for the
    gradients: what happens."""
    leaves, inputs = [], []
    for i, array in enumerate(arrays):
        if i in needs_grad:
            leaf = L.tensor(array, requires_grad=True)
            leaves.append(leaf)
            inputs.append(leaf.clone())          # (a leaf that requires grad cannot change in place)
        else:
            inputs.append(L.tensor(array))
    try:
        out = fn(L, *inputs)
        if isinstance(out, tuple):
            out = out[0]
        target = inputs[changed] if changed < len(inputs) else out      # (or the output itself)
        target.copy_(target.detach().clone())
        grads = L.autograd.grad(out.sum(), leaves)
    except RuntimeError as error:
        return ("error", str(error).splitlines()[0])
    return ("ok", [np.asarray(g.detach().tolist()) for g in grads])


@pytest.mark.parametrize("name, makers, fn", OPERATIONS, ids=[op[0] for op in OPERATIONS])
def test_changing_a_saved_input_fails_as_in_pytorch(torch, name, makers, fn):
    rng = np.random.default_rng(0)
    arrays = [make(rng) for make in makers]
    differences = []
    for needs_grad in _grad_choices(name, makers, rng):
        for changed in range(len(arrays) + 1):
            mine = _outcome(minigrad, fn, arrays, needs_grad, changed)
            theirs = _outcome(torch, fn, arrays, needs_grad, changed)
            same = mine[0] == theirs[0] and (
                mine[1] == theirs[1] if mine[0] == "error"
                else all(np.allclose(a, b, rtol=1e-10, atol=1e-12) for a, b in zip(mine[1], theirs[1])))
            if not same:
                differences.append(f"grad of {needs_grad}, input {changed} changed: "
                                   f"minigrad {mine} but torch {theirs}")
    assert not differences, "\n".join(differences)
