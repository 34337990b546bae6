"""Small things PyTorch's graphs show, against PyTorch: what each node saves.

Every node a learner reaches through ``grad_fn`` and ``next_functions`` shows its saved values
as ``_saved_*`` attributes (tensors, dims, sizes, flags). Here whole graphs of many operations
are walked in both libraries side by side, and each node's set of ``_saved_*`` names and every
value (tensors by shape, strides, dtype and value; numbers and tuples exactly) must be PyTorch's.
Some nodes in particular: ``TrilinearBackward0`` (``F.bilinear``) saves an input only when
another input's gradient needs it, einsum's ``UnsqueezeBackward0`` shows the dim it was given,
``ToCopyBackward0`` shows nothing, the fused attention keeps its logsumexp laid out as
PyTorch's kernel does, and reading a saved tensor changed in place raises as backward does.
"""
import itertools
import re

import numpy as np
import pytest

import minigrad

from conftest import import_torch  # noqa: F401  (tests/ is on sys.path under pytest)
from test_einsum_vs_torch import EQUATIONS
from test_saved_inputs_sweep_vs_torch import OPERATIONS, NO_GRAD


# --- comparing what nodes show -------------------------------------------------------------------

def _shown(value):
    """What one ``_saved_*`` value shows, in a form both libraries' values can be compared in."""
    if hasattr(value, "stride") and hasattr(value, "detach"):
        value = value.detach()
        return ("tensor", tuple(value.shape), tuple(value.stride()), str(value.dtype).split(".")[-1],
                np.asarray(value.tolist()))
    if isinstance(value, (tuple, list)):
        return tuple(_shown(v) for v in value)
    if type(value).__name__ in ("dtype", "device", "layout", "memory_format"):
        return str(value).replace("minigrad.", "torch.")
    return value


def _saved(node):
    """Each ``_saved_*`` name of ``node`` and what it shows (or the error reading it gives)."""
    shown = {}
    for name in dir(node):
        if name.startswith("_saved_"):
            try:
                shown[name] = _shown(getattr(node, name))
            except RuntimeError as error:
                shown[name] = ("error", str(error).splitlines()[0])
    return shown


def _same(mine, theirs):
    if isinstance(theirs, tuple) and theirs and theirs[0] == "tensor":
        if not (isinstance(mine, tuple) and mine and mine[0] == "tensor" and mine[1:4] == theirs[1:4]):
            return False
        # (values computed in another order, a matrix product's, can differ in the last bits)
        tolerance = 1e-9 if theirs[3] == "float64" else 1e-5
        if theirs[4].dtype.kind in "fc":
            return np.allclose(mine[4], theirs[4], rtol=tolerance, atol=tolerance, equal_nan=True)
        return np.array_equal(mine[4], theirs[4])
    if isinstance(theirs, tuple):
        return isinstance(mine, tuple) and len(mine) == len(theirs) and all(
            _same(a, b) for a, b in zip(mine, theirs))
    if isinstance(theirs, float) and np.isnan(theirs):
        return isinstance(mine, float) and np.isnan(mine)
    return type(mine) is type(theirs) and mine == theirs


def graph_differences(mine, theirs, where="output"):
    """How the graphs below two nodes differ: names, edges, saved names and values, every node."""
    differences, seen, stack = [], set(), [(mine, theirs, where)]
    while stack:
        a, b, where = stack.pop()
        if a is None or b is None:
            if (a is None) != (b is None):
                differences.append(f"{where}: {a} but torch {b}")
            continue
        if id(b) in seen:
            continue
        seen.add(id(b))
        if a.name() != b.name():
            differences.append(f"{where}: {a.name()} but torch {b.name()}")
            continue
        ours, torchs = _saved(a), _saved(b)
        if set(ours) != set(torchs):
            differences.append(f"{where} {a.name()}: saved {sorted(ours)} but torch {sorted(torchs)}")
        for name in sorted(set(ours) & set(torchs)):
            if not _same(ours[name], torchs[name]):
                differences.append(f"{where} {a.name()}.{name}: {ours[name]} but torch {torchs[name]}")
        if len(a.next_functions) != len(b.next_functions):
            differences.append(f"{where} {a.name()}: {len(a.next_functions)} edges but torch "
                               f"{len(b.next_functions)}")
            continue
        for k, ((next_a, nr_a), (next_b, nr_b)) in enumerate(zip(a.next_functions, b.next_functions)):
            if nr_a != nr_b:
                differences.append(f"{where}.{k}: output {nr_a} but torch {nr_b}")
            stack.append((next_a, next_b, f"{where}.{k}"))
    return differences


def _outputs(program, arrays, requires_grad, torch):
    """``program`` run by both libraries on the same numbers: (minigrad's output, torch's)."""
    made = []
    for L in (minigrad, torch):
        tensors = [L.tensor(a, requires_grad=bool(r)) for a, r in zip(arrays, requires_grad)]
        out = program(L, *tensors)
        made.append(out[0] if isinstance(out, tuple) else out)
    return made


# --- a sweep over many operations --------------------------------------------------------------

# x and y: (3, 4), numbers in [0.5, 2); both require grad
PROGRAMS = [
    "x + y", "x - y", "x * y", "x / y", "x ** y", "x ** 2", "2 ** x", "2.5 ** x", "x * 2", "x / 3", "-x",
    "L.add(x, y, alpha=2)", "L.sub(x, y, alpha=0.5)",
    "x.exp()", "x.log()", "x.sin()", "x.cos()", "x.tan()", "x.tanh()", "x.sigmoid()", "x.relu()",
    "x.sqrt()", "x.rsqrt()", "x.abs()", "x.reciprocal()", "x.square()", "x.log1p()", "x.expm1()",
    "x.log2()", "x.log10()", "x.exp2()", "x.erf()", "x.erfc()", "x.asinh()", "x.sinh()", "x.cosh()",
    "(x / 3).asin()", "(x / 3).acos()", "x.atan()", "(x / 3).atanh()", "(x + 1).acosh()", "x.lgamma()",
    "x.digamma()", "x.sign()", "x.floor()", "x.round()", "x.frac()", "x.trunc()",
    "x.clamp(0.7, 1.5)", "x.clamp(min=1.0)", "x.clamp(max=1.0)", "L.maximum(x, y)", "L.minimum(x, y)",
    "L.atan2(x, y)", "L.hypot(x, y)", "x.pow(y)", "L.fmod(x, 0.3)", "L.remainder(x, 0.3)",
    "L.lerp(x, y, 0.3)", "L.addcmul(x, x, y, value=0.5)", "L.addcdiv(x, x, y, value=0.5)",
    "L.where(x > 1, x, y)", "L.xlogy(x, y)", "L.logaddexp(x, y)", "L.logit(x / 3)",
    "x.sum()", "x.sum(0)", "x.sum((0, 1))", "x.sum(-1, keepdim=True)", "x.mean()", "x.mean(1)",
    "x.mean(-1, keepdim=True)", "x.prod()", "x.prod(1)", "x.max()", "x.max(0)[0]", "x.min(1)[0]",
    "x.amax(1)", "x.amin(-1)", "x.amax((0, 1))", "x.norm()", "x.norm(dim=1)", "x.norm(p=1, dim=0)",
    "L.linalg.vector_norm(x, 3, dim=-1)", "x.var()", "x.var(1)", "x.std(0)", "x.std(-1, unbiased=False)",
    "x.logsumexp(1)", "x.logsumexp(-1)", "x.cumsum(0)", "x.cumsum(-1)", "x.cumprod(1)",
    "x.logcumsumexp(1)", "x.cummax(1)[0]", "x.cummin(0)[0]", "x.median()", "x.median(1)[0]",
    "x.kthvalue(2, 1)[0]", "x.mode(1)[0]", "x.sort(1)[0]", "x.sort(-1, descending=True)[0]",
    "x.sort(dim=0, stable=True)[0]", "x.topk(2)[0]", "x.topk(2, 0)[0]", "x.msort()", "x.nansum()",
    "x.nanmean(1)", "L.var_mean(x, 1)[0]", "L.std_mean(x)[1]",
    "x.view(12)", "x.view(-1, 2)", "x.reshape(4, 3)", "x.t()", "x.mT", "x.transpose(0, 1)",
    "x.transpose(-1, -2)", "x.permute(1, 0)", "x.permute(-1, 0)", "x.unsqueeze(0)", "x.unsqueeze(-1)",
    "x.unsqueeze(2)", "x.unsqueeze(1).squeeze(1)", "x.unsqueeze(0).squeeze()", "x.unsqueeze(-1).squeeze(-1)",
    "x.flatten()", "x.expand(2, 3, 4)", "x[:1].expand(3, 4)", "x.repeat(2, 1)", "x.flip(0)", "x.flip(-1)",
    "x.roll(1, 0)", "x.roll((1, 2), (0, 1))", "x.narrow(1, 1, 2)", "x[1]", "x[:, 1]", "x[1:, ::2]", "x[-1]",
    "x[..., 1]", "x[None]", "x.select(1, -1)",
    "L.cat([x, y])", "L.cat([x, y], -1)", "L.stack([x, y])", "L.stack([x, y], -1)", "x.split(2, 1)[1]",
    "x.chunk(2, 0)[0]", "x.unbind(1)[2]", "x.diagonal()", "x.diagonal(1)", "x.diagonal(-1, 1, 0)",
    "x.tril()", "x.triu(1)", "x.tril(-1)", "x.movedim(0, 1)", "x.unflatten(1, (2, 2))", "x.tile((2, 1))",
    "x.rot90()", "x.repeat_interleave(2, 0)", "x.unfold(1, 2, 1)",
    "x.take_along_dim(L.tensor([[0], [1], [2]]), 1)", "x.gather(1, L.tensor([[0], [1], [2]]))",
    "x.index_select(1, L.tensor([0, 2]))", "x.masked_fill(x > 1, 0.0)",
    "x.contiguous()", "x.t().contiguous()", "x.clone()", "x.to(L.float32)", "x.float()", "x.double()",
    "x.to('cpu', dtype=L.float64)", "x.half()", "x.type(L.float64)",
    "L.diag(x)", "L.diag(x[0])", "L.diag(x[0], 1)", "L.diagflat(x[0])", "L.diag_embed(x)", "L.trace(x)",
    "L.outer(x[0], y[0])", "x @ y.t()", "x.mm(y.t())", "x.matmul(y[0])", "x[0] @ y[0]",
    "L.bmm(x.unsqueeze(0), y.t().unsqueeze(0))", "L.mv(x, y[0])", "L.dot(x[0], y[0])",
    "L.addmm(y[0, :3], x, y.t())", "L.kron(x, y)", "L.cross(x[:, :3], y[:, :3], dim=1)",
    "F.softmax(x, 1)", "F.log_softmax(x, 0)", "F.softmin(x, 1)", "F.gelu(x)", "F.gelu(x, approximate='tanh')",
    "F.silu(x)", "F.mish(x)", "F.elu(x - 1)", "F.selu(x - 1)", "F.celu(x - 1)", "F.leaky_relu(x - 1, 0.1)",
    "F.hardtanh(x, 0.7, 1.5)", "F.relu6(x)", "F.softplus(x)", "F.softplus(x, beta=2, threshold=1)",
    "F.softsign(x)", "F.logsigmoid(x)", "F.hardswish(x)", "F.hardsigmoid(x)", "F.tanhshrink(x)",
    "F.softshrink(x, 1.0)", "F.hardshrink(x, 1.0)", "F.threshold(x, 1.0, 0.0)", "F.glu(x, 1)",
    "F.normalize(x)", "F.normalize(x, dim=0)", "F.mse_loss(x, y)", "F.l1_loss(x, y)",
    "F.smooth_l1_loss(x, y)", "F.huber_loss(x, y)", "F.binary_cross_entropy(x / 3, y / 3)",
    "F.binary_cross_entropy_with_logits(x, y / 3)", "F.kl_div(x, y, reduction='batchmean')",
    "F.poisson_nll_loss(x, y)", "F.gaussian_nll_loss(x, y, y)", "F.cross_entropy(x, L.tensor([0, 3, 1]))",
    "F.nll_loss(x, L.tensor([0, 3, 1]))", "F.cross_entropy(x, y / 4)", "F.cosine_similarity(x, y)",
    "F.pairwise_distance(x, y)", "F.margin_ranking_loss(x, y, L.ones(3, 4))",
    "F.hinge_embedding_loss(x, L.ones(3, 4))", "F.soft_margin_loss(x, L.ones(3, 4))",
    "F.multilabel_soft_margin_loss(x, L.ones(3, 4))", "F.multi_margin_loss(x, L.tensor([0, 3, 1]))",
    "F.triplet_margin_loss(x, y, x * 2)", "F.cosine_embedding_loss(x, y, L.ones(3))",
    "F.layer_norm(x, (4,))", "F.layer_norm(x, (4,), y[0], y[1])", "F.rms_norm(x, (4,))",
    "F.group_norm(x.unsqueeze(-1), 2)", "F.batch_norm(x, None, None, training=True)",
    "F.batch_norm(x, L.zeros(4, dtype=x.dtype), L.ones(4, dtype=x.dtype), y[0], y[1], training=True)", "F.instance_norm(x.unsqueeze(0))",
    "F.linear(x, y)", "F.linear(x, y, y[0, :3])", "F.bilinear(x, y, x.view(3, 4, 1).expand(3, 4, 4).contiguous())",
    "F.dropout(x, 0.0)", "F.embedding(L.tensor([0, 2]), x)", "F.pad(x, (1, 1))",
    "F.pad(x.unsqueeze(0), (1, 1), mode='reflect')", "F.pad(x.unsqueeze(0), (1, 2), mode='replicate')",
    "F.pad(x.unsqueeze(0), (1, 1), mode='circular')", "F.avg_pool1d(x.unsqueeze(0), 2)",
    "F.max_pool1d(x.unsqueeze(0), 2)", "F.avg_pool2d(x.view(1, 1, 3, 4), 2)",
    "F.max_pool2d(x.view(1, 1, 3, 4), 2)", "F.max_pool2d(x.view(1, 1, 3, 4), 2, return_indices=True)[0]",
    "F.adaptive_avg_pool2d(x.view(1, 1, 3, 4), 2)", "F.adaptive_max_pool2d(x.view(1, 1, 3, 4), 2)",
    "F.adaptive_avg_pool1d(x.unsqueeze(0), 2)", "F.lp_pool1d(x.unsqueeze(0), 2, 2)",
    "F.conv1d(x.unsqueeze(0), y[:, :3].reshape(3, 3, 1))", "F.conv2d(x.view(1, 1, 3, 4), y.view(3, 1, 2, 2))",
    "F.conv2d(x.view(1, 1, 3, 4), y.view(3, 1, 2, 2), y[0, :3], stride=2, padding=1)",
    "F.conv_transpose1d(x.unsqueeze(0), y.view(3, 2, 2))", "F.conv_transpose2d(x.view(1, 1, 3, 4), y.view(1, 3, 2, 2))",
    "F.interpolate(x.view(1, 1, 3, 4), scale_factor=2)",
    "F.interpolate(x.view(1, 1, 3, 4), scale_factor=2, mode='bilinear')",
    "F.interpolate(x.view(1, 1, 3, 4), size=(5, 5), mode='bicubic')",
    "F.interpolate(x.unsqueeze(0), size=7, mode='linear')", "F.pixel_shuffle(x.view(1, 4, 3, 1), 2)",
    "F.unfold(x.view(1, 1, 3, 4), 2)", "F.fold(x.reshape(1, 4, 3), (2, 4), 2)",
    "F.grid_sample(x.view(1, 1, 3, 4), (y.view(1, 2, 3, 2) - 1) / 2, align_corners=False)",
    "F.affine_grid(x[:2, :3].reshape(1, 2, 3), (1, 1, 2, 2), align_corners=False)",
    "F.scaled_dot_product_attention(x.view(1, 1, 3, 4), y.view(1, 1, 3, 4), y.view(1, 1, 3, 4))",
    "F.scaled_dot_product_attention(x.view(1, 3, 4), y.view(1, 3, 4), y.view(1, 3, 4))",
    "F.pdist(x)", "L.cdist(x, y)", "L.dist(x, y)", "F.one_hot(L.tensor([0, 2]), 3) * x[0, :3]",
    "L.einsum('ij,kj->ik', x, y)", "L.einsum('ij->j', x)", "L.einsum('ij,ij->', x, y)",
    "L.einsum('i,j->ij', x[0], y[0])", "L.einsum('bi,bj->bij', x, y)", "L.tensordot(x, y, ([1], [1]))",
    "L.linalg.det(x[:, :3])", "L.linalg.inv(x[:, :3] + 3 * L.eye(3))", "L.linalg.slogdet(x[:, :3])[1]",
    "L.linalg.svd(x)[1]", "L.linalg.svdvals(x)", "L.linalg.qr(x)[1]", "L.linalg.eigh(x[:, :3] @ x[:, :3].mT)[0]",
    "L.linalg.cholesky(x[:, :3] @ x[:, :3].mT + L.eye(3))", "L.linalg.pinv(x)", "L.linalg.matrix_norm(x)",
    "L.linalg.norm(x, 'nuc')", "L.linalg.matrix_exp(x[:, :3])", "L.linalg.lu_factor(x[:, :3])[0]",
    "L.linalg.matrix_power(x[:, :3], 3)", "L.linalg.multi_dot([x, y.t(), x])",
    "L.linalg.solve(x[:, :3] + 3 * L.eye(3), y)", "L.linalg.lstsq(y.t(), x.t()).solution",
    "L.linalg.lstsq(y.t(), x[0]).solution", "L.logdet(x[:, :3] @ x[:, :3].mT + L.eye(3))",
    "L.trapezoid(x)", "L.diff(x)", "L.cov(x)", "L.corrcoef(x)", "L.quantile(x, 0.3)", "L.renorm(x, 2, 0, 1.0)",
    "L.sinc(x)", "L.special.i0(x)", "L.special.xlog1py(x, y)", "L.special.entr(x)", "L.special.ndtr(x)",
    "L.special.log_ndtr(x)", "L.special.erfcx(x)", "L.nan_to_num(x)", "L.deg2rad(x)", "L.ldexp(x, L.tensor(2))",
    "L.copysign(x, y - 1)", "L.float_power(x, 2)", "L.heaviside(x, y) * x", "L.fmax(x, y)",
    "x.scatter(1, L.tensor([[0], [1], [2]]), 2.0)", "x.scatter(1, L.tensor([[0], [1], [2]]), y)",
    "x.scatter_add(1, L.tensor([[0], [1], [2]]), y)", "x.index_add(1, L.tensor([0, 2]), y[:, :2])",
    "x.index_fill(1, L.tensor([0, 2]), 2.0)", "x.masked_scatter(x > 1, y)", "x.masked_select(x > 1)",
    "x.put(L.tensor([0, 5]), y[0, :2])", "x.take(L.tensor([0, 5]))",
    "L.select_scatter(x, y[0], 0, 1)", "L.slice_scatter(x, y[:, :2], 1, 0, 2)",
    "L.diagonal_scatter(x, y[0, :3])", "L.as_strided(x, (2, 2), (1, 2))", "x.as_strided((2, 2), (1, 2), 1)",
    "L.block_diag(x, y)", "L.cartesian_prod(x[0], y[0])", "L.combinations(x[0])", "L.atleast_3d(x)",
    "L.broadcast_to(x[0], (3, 4))", "L.linalg.vander(x[0], N=3)", "L.logspace(0, 1, 3) * x[0, :3]",
    "x.new_zeros(2) + x[0, :2]", "L.polygamma(1, x)", "L.mvlgamma(x + 2, 2)", "L.special.zeta(x + 1, y)",
    "L.igamma(x, y)", "L.vander(x[0], 3)", "L.vander(x[0])", "L.vander(x[0], 3, increasing=True)",
    # indexing with tensors, lists and masks: IndexBackward0 and IndexPutBackward0 show their indices
    "x[L.tensor([0, 2])]", "x[[0, 2], [1, 3]]", "x[:, [0, 2]]", "x[x > 1]", "x[L.tensor([True, False, True])]",
    "x[..., L.tensor([1, 3])]", "x[1:, L.tensor([0, 3])]", "x[L.tensor([0, 2]), 1:]", "x[None, L.tensor([0])]",
    "x.index_put((L.tensor([0, 2]),), y[:2])", "x.index_put((L.tensor([0, 2]), L.tensor([1, 3])), y[0, :2], accumulate=True)",
    "x.index_put((x > 1,), y[x > 1])",
]


def _run_program(L, expression, dtype, requiring_grad="xy"):
    rng = np.random.default_rng(0)
    x = L.tensor(rng.uniform(0.5, 2, (3, 4)).astype(dtype), requires_grad="x" in requiring_grad)
    y = L.tensor(rng.uniform(0.5, 2, (3, 4)).astype(dtype), requires_grad="y" in requiring_grad)
    return eval(expression, {"L": L, "F": L.nn.functional, "x": x, "y": y})


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("expression", PROGRAMS)
def test_every_node_saves_what_pytorchs_saves(torch, expression, dtype):
    mine, theirs = (_run_program(L, expression, dtype) for L in (minigrad, torch))
    mine, theirs = (out[0] if isinstance(out, tuple) else out for out in (mine, theirs))
    assert not graph_differences(mine.grad_fn, theirs.grad_fn), "\n".join(
        graph_differences(mine.grad_fn, theirs.grad_fn))


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("requiring_grad", ["x", "y"])
@pytest.mark.parametrize("expression", PROGRAMS)
def test_nodes_save_only_what_the_gradients_asked_for_need(torch, expression, requiring_grad):
    # (PyTorch saves an input only for the gradients of inputs that require grad)
    outcomes = []
    for L in (minigrad, torch):
        try:
            out = _run_program(L, expression, "float64", requiring_grad)
        except Exception as error:      # noqa: BLE001 (y alone may not require grad: a target)
            out = error
        outcomes.append(out[0] if isinstance(out, tuple) else out)
    mine, theirs = outcomes
    if isinstance(theirs, Exception):
        assert type(mine) is type(theirs)
        return
    assert (mine.grad_fn is None) == (theirs.grad_fn is None)
    differences = graph_differences(mine.grad_fn, theirs.grad_fn)
    assert not differences, "\n".join(differences)


def _requires_grad_choices(name, arrays):
    """All the floating inputs that may require grad, and the first of them alone."""
    floating = [i for i, a in enumerate(arrays) if np.asarray(a).dtype.kind == "f"
                and i not in NO_GRAD.get(name, ())]
    return [set(floating), {floating[0]}]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name, makers, program", OPERATIONS, ids=[op[0] for op in OPERATIONS])
def test_nodes_of_operations_with_several_inputs(torch, name, makers, program):
    rng = np.random.default_rng(0)
    arrays = [make(rng) for make in makers]
    for needs_grad in _requires_grad_choices(name, arrays):
        flags = [i in needs_grad for i in range(len(arrays))]
        try:
            mine, theirs = _outputs(program, arrays, flags, torch)
        except RuntimeError:       # (a weight or target that may not require grad: both refuse)
            continue
        differences = graph_differences(mine.grad_fn, theirs.grad_fn)
        assert not differences, f"requires grad: {sorted(needs_grad)}\n" + "\n".join(differences)


# --- einsum ----------------------------------------------------------------------------------------

MORE_EQUATIONS = [
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("abc,cd,de->abe", [(2, 3, 4), (4, 5), (5, 2)]),
    ("i,jk->ijk", [(2,), (3, 4)]),
    ("ab,cd->", [(2, 3), (4, 5)]),
    ("ik,kj->", [(2, 3), (3, 2)]),
    ("...ij,jk->...ik", [(2, 2, 3), (3, 4)]),
    ("...i,...i->...", [(2, 3), (4, 2, 3)]),
    ("i...,i->...", [(3, 2, 2), (3,)]),
    ("ij,ij,ij->", [(2, 3)] * 3),
]


@pytest.mark.parametrize("equation, shapes", EQUATIONS + MORE_EQUATIONS,
                         ids=[e for e, _ in EQUATIONS + MORE_EQUATIONS])
def test_einsum_nodes_save_what_pytorchs_save(torch, equation, shapes):
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(shape) for shape in shapes]
    mine, theirs = _outputs(lambda L, *ts: L.einsum(equation, *ts), arrays, [True] * len(arrays), torch)
    differences = graph_differences(mine.grad_fn, theirs.grad_fn)
    assert not differences, "\n".join(differences)


# --- F.bilinear: TrilinearBackward0 ------------------------------------------------------------------

def _bilinear_outcome(L, arrays, requires_grad, asked, changed):
    """F.bilinear(x1, x2, weight); then the inputs in ``changed`` changed in place; then the
    gradients of those in ``asked``: what the node shows, and what backward gives."""
    leaves = [L.tensor(a, requires_grad=bool(r)) for a, r in zip(arrays, requires_grad)]
    inputs = [leaf.clone() if r else leaf for leaf, r in zip(leaves, requires_grad)]
    out = L.nn.functional.bilinear(inputs[0], inputs[2], inputs[1])
    node = out.grad_fn
    while node.name() != "TrilinearBackward0":
        node = node.next_functions[0][0]
    saved = _saved(node)
    for k in changed:
        inputs[k].mul_(1)
    try:
        grads = L.autograd.grad(out.sum(), [leaf for leaf, a in zip(leaves, asked) if a])
        outcome = [np.asarray(g.tolist()) for g in grads]
    except RuntimeError as error:
        outcome = str(error).splitlines()[0]
    return saved, outcome


@pytest.mark.parametrize("requires_grad", [r for r in itertools.product((0, 1), repeat=3) if any(r)])
def test_bilinear_saves_only_what_gradients_need(torch, requires_grad):
    rng = np.random.default_rng(2)
    arrays = [rng.standard_normal((2, 3)), rng.standard_normal((4, 3, 5)), rng.standard_normal((2, 5))]
    asked_choices = [a for a in itertools.product((0, 1), repeat=3)
                     if any(a) and all(r or not k for k, r in zip(a, requires_grad))]
    for asked in asked_choices:
        for count in range(4):
            for changed in itertools.combinations(range(3), count):
                mine = _bilinear_outcome(minigrad, arrays, requires_grad, asked, changed)
                theirs = _bilinear_outcome(torch, arrays, requires_grad, asked, changed)
                where = f"asked {asked}, changed {changed}"
                assert set(mine[0]) == set(theirs[0]), where
                for name in theirs[0]:
                    assert _same(mine[0][name], theirs[0][name]), f"{where}: {name}"
                if isinstance(theirs[1], str):
                    assert mine[1] == theirs[1], where
                else:
                    assert not isinstance(mine[1], str), f"{where}: {mine[1]}"
                    for a, b in zip(mine[1], theirs[1]):
                        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_bilinear_layer_saves_as_pytorch(torch):
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal((2, 3)), rng.standard_normal((2, 4))]
    weight, bias = rng.standard_normal((5, 3, 4)), rng.standard_normal(5)
    outs = []
    for L in (minigrad, torch):
        layer = L.nn.Bilinear(3, 4, 5).double()
        with L.no_grad():
            layer.weight.copy_(L.tensor(weight))
            layer.bias.copy_(L.tensor(bias))
        outs.append(layer(*[L.tensor(a) for a in arrays]))
    assert not graph_differences(outs[0].grad_fn, outs[1].grad_fn)


# --- conversions: ToCopyBackward0 -----------------------------------------------------------------

@pytest.mark.parametrize("expression", ["x.to(L.float64)", "x.double()", "x.double().float()", "x.half()",
                                        "x.to('cpu')", "x.to('cpu', dtype=L.float64)", "x.type(L.float64)",
                                        "x.to(L.float64, copy=True)", "x.to(L.zeros(1, dtype=L.float64))"])
def test_to_copy_node_shows_what_pytorchs_shows(torch, expression):
    outs = [eval(expression, {"L": L, "x": L.tensor([1.0, 2.0], requires_grad=True)}) for L in (minigrad, torch)]
    if outs[1].grad_fn is None:       # (no copy made)
        assert outs[0].grad_fn is None
        return
    assert sorted(n for n in dir(outs[0].grad_fn) if n.startswith("_saved_")) == sorted(
        n for n in dir(outs[1].grad_fn) if n.startswith("_saved_"))
    assert not graph_differences(outs[0].grad_fn, outs[1].grad_fn)


# --- scaled_dot_product_attention's fused kernel ------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
@pytest.mark.parametrize("shapes, permuted", [
    (((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)), False),
    (((1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)), False),
    (((2, 1, 3, 4), (2, 1, 5, 4), (2, 1, 5, 4)), False),
    (((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)), True),
])
def test_attention_keeps_logsumexp_as_pytorchs_kernel(torch, shapes, permuted, dtype):
    rng = np.random.default_rng(4)
    arrays = [rng.standard_normal(shape).astype(dtype) for shape in shapes]
    nodes = []
    for L in (minigrad, torch):
        tensors = [L.tensor(a, requires_grad=True) for a in arrays]
        if permuted:       # (heads and positions swapped in memory)
            tensors = [t.transpose(1, 2).contiguous().transpose(1, 2) for t in tensors]
        nodes.append(L.nn.functional.scaled_dot_product_attention(*tensors).grad_fn)
    assert nodes[0].name() == nodes[1].name() == "ScaledDotProductFlashAttentionForCpuBackward0"
    mine, theirs = _saved(nodes[0]), _saved(nodes[1])
    assert set(mine) == set(theirs)
    for name in theirs:
        if isinstance(theirs[name], tuple) and theirs[name][0] == "tensor":
            assert mine[name][1:4] == theirs[name][1:4], name      # sizes, strides, dtype
            # (the kernel adds in blocks of its own: values agree to rounding)
            tolerance = {"float64": 1e-12, "float32": 1e-5, "float16": 1e-2}[dtype]
            np.testing.assert_allclose(mine[name][4], theirs[name][4], rtol=tolerance, atol=tolerance)
        else:
            assert mine[name] == theirs[name], name


# --- reading a saved tensor that was changed in place ------------------------------------------

@pytest.mark.parametrize("program", [
    lambda L, x: (lambda y: (y * y, y))(x * 2),
    lambda L, x: (lambda y: (y.exp(), y))(x * 2),
    lambda L, x: (lambda y: (y.cumprod(0), y))(x * 2),
    lambda L, x: (lambda y: (L.addcmul(y, y, y), y))(x * 2),
    lambda L, x: (lambda y: (L.vander(y, 3), None))(x * 2),
])
def test_reading_a_saved_tensor_changed_in_place_raises_as_pytorch(torch, program):
    messages = []
    for L in (minigrad, torch):
        out, changed = program(L, L.tensor([1.5, 0.5, 2.0], requires_grad=True))
        if changed is not None:
            changed.mul_(2)
        shown = [_saved(node) for node in _nodes(out.grad_fn)]
        messages.append(shown)
    assert len(messages[0]) == len(messages[1])
    for mine, theirs in zip(*messages):
        assert set(mine) == set(theirs)
        for name in theirs:
            assert _same(mine[name], theirs[name]), (name, mine[name], theirs[name])


def _nodes(node):
    """Every node below ``node``, depth first, each once."""
    found, stack, seen = [], [node], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        found.append(node)
        stack.extend(next_node for next_node, _ in reversed(node.next_functions))
    return found


# --- sort and argsort: which signature, and PyTorch's messages when none fits ----------------

SORT_CALLS = [
    "L.sort(x, 0, stable=True)", "x.sort(0, stable=True)", "L.sort(x, stable=True, dim=0)",
    "L.sort(x, dim=0, stable=True)", "L.sort(x, 0, True, stable=True)", "x.sort(0, True, stable=True)",
    "L.sort(x, stable=True)", "x.sort(stable=True)", "L.sort(x, True)", "x.sort(True)", "L.sort(x, 0, True)",
    "L.sort(x, stable=True, descending=True)", "L.sort(x, True, 0)", "L.sort(x, stable=False, dim=0)",
    "L.sort(x, 0, stable=None)", "L.sort(x, stable=None)", "L.sort(x, stable=None, dim=0)",
    "L.sort(x, 0, descending=True, stable=True)", "L.sort(x, dim=0, descending=True, stable=True)",
    "x.sort(dim=0, stable=True)", "x.sort(0, descending=True, stable=True)", "L.sort(x, -1, False, stable=True)",
    "L.sort(x, stable=True, dim=0, descending=True)", "L.sort(input=x, stable=True, dim=0)", "L.sort(x, stable=1)",
    "L.sort(x, 0, stable='a')", "L.sort(x, 'a', stable=True)", "L.argsort(x, 0, stable=True)",
    "L.argsort(x, stable=True, dim=0)", "x.argsort(0, stable=True)", "L.argsort(x, 0, True, stable=True)",
    "L.argsort(x, stable=True)", "x.argsort(stable=True, dim=0)", "L.msort(x)", "L.sort(x)",
    "L.sort(x, L.tensor(0))", "L.sort(x, 'a')", "x.sort('a')", "L.sort(x, dim='a')", "L.sort(x, foo=1)",
    "L.sort(x, 0, dim=0)", "x.sort(0, dim=0)", "x.sort(foo=1)", "L.sort()", "x.sort(0, True, 1)",
    "L.sort(x, 0, True, 1)", "L.argsort(x, 0, True, 1)", "x.argsort(0, True, stable=True)", "L.sort(x, dim=0.5)",
    "x.sort(descending=1)", "L.argsort(x, stable=None)", "L.argsort(x, dim=0, stable=1)", "L.sort(x, dim=None)",
    "x.sort(None)", "L.sort(x.detach().numpy(), 0)", "L.sort(x, 0, True, None)", "x.sort(0, True, stable=None)",
    "L.sort(x, True, stable=True)", "x.sort(stable='a')", "x.sort(dim=0, descending=1, stable=True)",
    "L.argsort(x, 0, True, foo=1)", "L.argsort(x, stable=True, foo=1)", "x.sort(stable=True, foo=1)",
    "x.sort(dim=0, stable=True, dim2=3)", "L.argsort(x, stable=True, input=x)", "x.argsort(0, True, stable='a')",
    "L.argsort(x, 0.5, True, stable=True)", "L.argsort(stable=True)", "L.argsort(x, stable=True, out=3)",
    "x.sort('a', True)", "L.sort(x, 'a', True)", "L.sort(x, axis=0)", "x.sort(axis=0, stable=True)",
    "L.sort(input=x, dim=0)", "x.argsort()", "L.argsort(x, 1, True)", "x.sort(np.int64(0))",
    "x.sort(0, np.bool_(True))", "x.sort(dim=0, descending=False, stable=False)",
    "L.sort(x, a=1, b=2, c=3)", "x.sort(dim=0, stable=True, descending=True, foo=1, bar=2)",
    "L.argsort(x, keepdim=1, zeta=2, out=3, alpha=4)",
]


def _sort_outcome(L, call):
    x = L.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0], [3.0, 1.0, 1.0]], requires_grad=True)
    try:
        out = eval(call, {"L": L, "x": x, "np": np})
    except Exception as error:      # noqa: BLE001 (the class and message are compared)
        return type(error).__name__, str(error)
    out = out if isinstance(out, tuple) else (out,)
    return "ok", out[0].grad_fn and out[0].grad_fn.name(), [t.tolist() for t in out]


@pytest.mark.parametrize("call", SORT_CALLS)
def test_sort_takes_its_arguments_as_pytorch(torch, call):
    assert _sort_outcome(minigrad, call) == _sort_outcome(torch, call)


# --- uninitialized parameters (lazy modules) given to operations and functions ---------------

UNINITIALIZED_USES = [
    "w + 1", "1 + w", "1 - w", "2 * w", "1 / w", "2 ** w", "w ** 2", "w - 1", "w / 2", "-w", "abs(w)",
    "w > 0", "w == 1", "w % 2", "w // 2", "x @ w", "w @ x", "x - w", "x / w", "x ** w", "x // w", "x % w",
    "x + w", "x * w", "x < w", "x == w", "x & w", "len(w)", "w[0]", "w.__setitem__(0, 1.0)", "iter(w)",
    "w.sum()", "w.exp()", "w.dim()", "w.numel()", "w.view(-1)", "w.detach()", "w.clone()", "w.t()",
    "f'{w}'", "bool(w)", "float(w)", "int(w)", "~w", "1 in w", "reversed(w)",
    "L.sum(w)", "L.exp(w)", "L.add(x, w)", "L.cat([x, w])", "L.stack([w])", "L.where(x > 0, x, w)",
    "L.zeros_like(w)", "L.matmul(x, w)", "L.numel(w)", "L.allclose(w, w)", "L.clone(w)", "L.einsum('ij->i', w)",
    "F.relu(w)", "F.linear(x, w)", "F.linear(x, L.ones(3, 2), w)", "F.conv1d(x.unsqueeze(0), w)",
    "F.softmax(w, 0)", "F.mse_loss(w, x)", "F.layer_norm(x, (2,), w)", "F.gelu(w)", "F.pad(w, (1, 1))",
    "F.embedding(L.tensor([0]), w)", "F.bilinear(x, x, w)", "F.batch_norm(x, b, None)",
    "b + 1", "L.sum(b)", "repr(w)", "str(w)", "w.shape", "w.data.shape", "w.size()", "w.grad",
    "w.requires_grad", "w.dtype", "w.is_leaf", "L.is_tensor(w)", "type(hash(w)).__name__",
    "type(copy.deepcopy(w)).__name__", "w.T",
]


def _uninitialized_outcome(L, use):
    import copy
    w = L.nn.LazyLinear(3).weight
    b = L.nn.LazyBatchNorm1d().running_mean
    x = L.ones(2, 2)
    try:
        value = eval(use, {"L": L, "F": L.nn.functional, "w": w, "b": b, "x": x, "copy": copy})
    except Exception as error:      # noqa: BLE001 (the class and message are compared)
        # (the addresses PyTorch prints are its own)
        return type(error).__name__, re.sub("0x[0-9a-f]+", "0x...", str(error))
    return "ok", str(value).replace("minigrad", "torch")


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("use", UNINITIALIZED_USES)
def test_uninitialized_parameter_is_refused_as_in_pytorch(torch, use):
    assert _uninitialized_outcome(minigrad, use) == _uninitialized_outcome(torch, use)


# --- layers: the graph of one forward, the layers' parameters shared ---------------------------

LAYERS = [
    ("nn.Linear(4, 3)", (2, 4)), ("nn.Conv1d(2, 3, 2)", (1, 2, 5)), ("nn.Conv2d(1, 2, 2, padding=1)", (1, 1, 3, 3)),
    ("nn.ConvTranspose2d(1, 2, 2)", (1, 1, 3, 3)), ("nn.RNN(4, 3)", (2, 1, 4)), ("nn.GRU(4, 3)", (2, 1, 4)),
    ("nn.LSTM(4, 3)", (2, 1, 4)), ("nn.LSTM(4, 3, num_layers=2, bidirectional=True)", (2, 1, 4)),
    ("nn.RNNCell(4, 3)", (2, 4)), ("nn.LSTMCell(4, 3)", (2, 4)), ("nn.GRUCell(4, 3)", (2, 4)),
    ("nn.MultiheadAttention(4, 2)", (3, 1, 4)), ("nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0)", (3, 1, 4)),
    ("nn.BatchNorm1d(4)", (3, 4)), ("nn.LayerNorm(4)", (3, 4)), ("nn.GroupNorm(2, 4)", (3, 4)),
    ("nn.InstanceNorm1d(4, affine=True)", (1, 4, 3)), ("nn.PReLU()", (2, 4)), ("nn.Bilinear(4, 4, 2)", (2, 4)),
    ("nn.Embedding(5, 3)", None), ("nn.EmbeddingBag(5, 3)", None),
]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("layer, shape", LAYERS, ids=[layer for layer, _ in LAYERS])
def test_layers_nodes_save_what_pytorchs_save(torch, layer, shape):
    outs, weights = [], None
    for L in (minigrad, torch):
        module = eval(layer, {"nn": L.nn}).double()
        if weights is None:
            weights = [np.asarray(p.detach().tolist()) for p in module.parameters()]
        else:
            with L.no_grad():
                for p, w in zip(module.parameters(), weights):
                    p.copy_(L.tensor(w))
        x = L.tensor([[0, 2, 1]]) if shape is None else L.tensor(np.random.default_rng(1).standard_normal(shape))
        arguments = {"nn.Bilinear": (x, x), "nn.MultiheadAttention": (x, x, x)}.get(layer.split("(")[0], (x,))
        out = module(*arguments)
        while isinstance(out, tuple):
            out = out[0]
        outs.append(out)
    differences = graph_differences(outs[0].grad_fn, outs[1].grad_fn)
    assert not differences, "\n".join(differences)


# --- index_put: the indices must be a tuple of tensors ---------------------------------------

INDEX_PUT_CALLS = [
    "x.index_put((None, i), L.ones(1))", "L.index_put(x, (None, i), L.ones(1))", "x.index_put((1,), L.ones(1))",
    "L.index_put(x, [1], L.ones(1))", "x.index_put(i, L.ones(1))", "L.index_put(x, i, L.ones(1))",
    "x.index_put([[0]], L.ones(1))", "x.index_put_((i, None), L.ones(1))", "L.index_put_(x, (i, None), L.ones(1))",
    "x.index_put((i,), L.ones(3))", "L.index_put(x, [i], L.ones(3))", "x.index_put(indices=(i,), values=L.ones(3))",
    "x.index_put('a', L.ones(1))", "x.index_put((i, 1.5), L.ones(1))", "L.index_put(x, (i,), 'a')",
    "x.index_put((i,), 'a')", "x.index_put_(i, L.ones(1))", "L.index_put_(x, i, L.ones(1))",
    "L.index_put_(x, (None,), L.ones(1))", "x.index_put_((i,), 'a')", "L.index_put_(x, (i,), 'a')",
]


@pytest.mark.parametrize("call", INDEX_PUT_CALLS)
def test_index_put_checks_its_indices_as_pytorch(torch, call):
    def outcome(L):
        try:
            return "ok", eval(call, {"L": L, "x": L.zeros(2, 3), "i": L.tensor([0])}).tolist()
        except Exception as error:      # noqa: BLE001 (the class and message are compared)
            return type(error).__name__, str(error)
    assert outcome(minigrad) == outcome(torch)
