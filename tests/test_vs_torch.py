"""minigrad against real PyTorch: the same program must give the same results in both.

Every test runs one piece of code twice, once with ``lib = minigrad`` and once
with ``lib = torch``, starting from the same numpy data, and compares what a
learner would see: values, gradients, dtypes, flags, ``grad_fn`` names, the
shape of the graph (``next_functions``), printed forms and exception types.

Where minigrad deliberately records a different graph than PyTorch (see
KNOWN_GRAPH_DIFFERENCES) the test says so with a strict xfail, so the list of
differences stays visible and shrinks when one is removed.
"""
import re
import warnings

import numpy as np
import pytest

import minigrad

# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def node_name(node):
    """``'AccumulateGrad'`` for torch's ``'torch::autograd::AccumulateGrad'``."""
    return node.name().split("::")[-1]


def graph_structure(node, leaves, depth=12):
    """The graph below ``node`` as nested tuples of names and output numbers.

    An AccumulateGrad is written with the position of its ``.variable`` in
    ``leaves`` (compared by identity), so the structure also checks that each
    AccumulateGrad points at the right leaf tensor.
    """
    if node is None:
        return None
    name = node_name(node)
    if name == "AccumulateGrad":
        positions = [i for i, leaf in enumerate(leaves) if leaf is node.variable]
        return f"AccumulateGrad(leaf {positions[0] if positions else '?'})"
    if depth == 0:
        return name
    return (name, tuple((graph_structure(child, leaves, depth - 1), nr)
                        for child, nr in node.next_functions))


def assert_close(ours, theirs, rtol=None, atol=None):
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.dtype.name == str(theirs.dtype).replace("torch.", "")
    expected = theirs.detach().numpy()
    if rtol is None:
        rtol = 1e-5 if expected.dtype == np.float32 else 1e-10
    if atol is None:
        atol = 1e-5 if expected.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(ours.detach().numpy(), expected, rtol=rtol, atol=atol)


def run_in_both(torch, program, arrays, dtype):
    """Run ``program(lib, *leaves)`` in both libraries; backward with the same random gradient."""
    runs = {}
    for lib in (minigrad, torch):
        lib_dtype = getattr(lib, np.dtype(dtype).name)
        leaves = [lib.tensor(np.array(a), dtype=lib_dtype, requires_grad=True) for a in arrays]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = program(lib, *leaves)
        runs[lib.__name__] = (leaves, out)
    return runs["minigrad"], runs["torch"]


def rand(*shape, seed=0, low=-1.0, high=1.0):
    return np.random.default_rng(seed).uniform(low, high, shape)


# Each program: (name, function of (lib, *leaves), list of input arrays). The output
# is one tensor; the test backpropagates a random gradient of the output's shape.
X3, W34, M234 = rand(3, seed=1), rand(3, 4, seed=2), rand(2, 3, 4, seed=3)
P34 = rand(3, 4, seed=4, low=0.05, high=0.95)
TARGET34 = rand(3, 4, seed=5, low=0, high=1)
POS3 = rand(3, seed=6, low=0.5, high=2)


PROGRAMS = [
    # arithmetic and the autograd tutorials' small expressions
    ("add", lambda lib, x, y: x + y, [X3, rand(3, seed=9)]),
    ("add_number", lambda lib, x: x + 4, [X3]),
    ("radd", lambda lib, x: 4 + x, [X3]),
    ("sub_broadcast", lambda lib, w, x: w - x.unsqueeze(1), [W34, X3]),
    ("rsub", lambda lib, x: 1 - x, [X3]),
    ("mul", lambda lib, x, y: x * y, [X3, rand(3, seed=9)]),
    ("x_times_x_plus_4", lambda lib, x: x * x + 4, [X3]),
    ("five_times_A_plus_3_mean", lambda lib, a: (5 * (a + 3)).mean(), [W34]),
    ("div", lambda lib, x, y: x / y, [X3, POS3]),
    ("div_number", lambda lib, x: x / 2, [X3]),
    ("rdiv", lambda lib, x: 2 / x, [POS3]),
    ("neg", lambda lib, x: -x, [X3]),
    ("pow", lambda lib, x: x ** 2, [X3]),
    ("pow_method", lambda lib, x: (x + 1).pow(2), [X3]),
    ("pow_tensor", lambda lib, x, y: x ** y, [POS3, X3]),
    ("rpow", lambda lib, x: 2 ** x, [X3]),
    ("sqrt", lambda lib, x: x.sqrt(), [POS3]),
    ("rsqrt", lambda lib, x: x.rsqrt(), [POS3]),
    ("square", lambda lib, x: x.square(), [X3]),
    ("reciprocal", lambda lib, x: x.reciprocal(), [POS3]),
    ("exp_log", lambda lib, x: x.exp().log1p() + x.exp().log(), [X3]),
    ("trig", lambda lib, x: x.sin() * x.cos() + x.tan(), [X3]),
    ("tanh_sigmoid", lambda lib, x: lib.tanh(x) + lib.sigmoid(x), [X3]),
    ("relu_abs", lambda lib, x: x.relu() + x.abs(), [X3]),
    ("clamp", lambda lib, x: x.clamp(-0.3, 0.4), [X3]),
    ("clamp_min", lambda lib, x: lib.clamp(x, min=0.1), [X3]),
    ("sign", lambda lib, x: x.sign() * x, [X3]),
    ("maximum", lambda lib, x, y: lib.maximum(x, y), [X3, rand(3, seed=9)]),
    ("where", lambda lib, x: lib.where(x > 0, x, 0.0), [X3]),
    ("where_two_tensors", lambda lib, x, y: lib.where(x > y, x, y), [X3, rand(3, seed=9)]),
    ("masked_fill", lambda lib, w: w.masked_fill(w > 0, 0.5), [W34]),
    ("masked_fill_tensor", lambda lib, w, v: w.masked_fill(w > 0, v), [W34, np.array(0.5)]),
    ("add_alpha", lambda lib, x, y: lib.add(x, y, alpha=2), [X3, rand(3, seed=9)]),
    ("sub_alpha", lambda lib, x, y: x.sub(y, alpha=3), [X3, rand(3, seed=9)]),
    # reductions
    ("sum", lambda lib, w: w.sum(), [W34]),
    ("sum_dim", lambda lib, w: w.sum(1), [W34]),
    ("sum_keepdim", lambda lib, w: w.sum(0, keepdim=True), [W34]),
    ("sum_dims", lambda lib, m: m.sum((0, 2)), [M234]),
    ("mean", lambda lib, w: w.mean(), [W34]),
    ("mean_dim", lambda lib, w: w.mean(-1), [W34]),
    ("max", lambda lib, w: w.max(), [W34]),
    ("min", lambda lib, w: w.min(), [W34]),
    ("max_dim", lambda lib, w: w.max(1).values, [W34]),
    ("min_dim_keepdim", lambda lib, w: w.min(0, keepdim=True)[0], [W34]),
    ("amax", lambda lib, w: w.amax(1), [W34]),
    ("norm", lambda lib, w: w.norm(), [W34]),
    ("norm_dim", lambda lib, w: w.norm(dim=1), [W34]),
    ("var_std", lambda lib, w: w.var() + w.std(1).sum(), [W34]),
    ("logsumexp", lambda lib, w: w.logsumexp(1), [W34]),
    # shapes
    ("view", lambda lib, w: w.view(-1), [W34]),
    ("view_2_6", lambda lib, w: w.view(2, 6), [W34]),
    ("reshape", lambda lib, m: m.reshape(6, 4), [M234]),
    ("flatten", lambda lib, m: m.flatten(1), [M234]),
    ("t", lambda lib, w: w.t(), [W34]),
    ("T", lambda lib, w: w.T, [W34]),
    ("transpose", lambda lib, m: m.transpose(0, 2), [M234]),
    ("permute", lambda lib, m: m.permute(2, 0, 1), [M234]),
    ("squeeze", lambda lib, w: w.unsqueeze(0).squeeze(), [W34]),
    ("squeeze_dim", lambda lib, w: w.unsqueeze(1).squeeze(1), [W34]),
    ("expand", lambda lib, x: x.unsqueeze(1).expand(3, 4), [X3]),
    ("repeat", lambda lib, x: x.repeat(2, 2), [X3]),
    ("flip", lambda lib, w: w.flip(0), [W34]),
    ("clone", lambda lib, w: w.clone(), [W34]),
    ("to_double", lambda lib, w: w.double() * 2, [W34]),
    ("cat", lambda lib, w, x: lib.cat([w, x.unsqueeze(0).expand(1, 3).t()], dim=1), [W34, X3]),
    ("stack", lambda lib, x, y: lib.stack([x, y], dim=1), [X3, rand(3, seed=9)]),
    ("stack_unbind", lambda lib, w: lib.stack(w.unbind()), [W34]),
    ("unbind", lambda lib, w: w.unbind(1)[2], [W34]),
    ("split", lambda lib, w: w.split(2)[1], [W34]),
    ("split_sizes", lambda lib, w: lib.split(w, [1, 3], dim=1)[1], [W34]),
    ("chunk", lambda lib, w: w.chunk(2, dim=1)[0], [W34]),
    # indexing
    ("select", lambda lib, w: w[0], [W34]),
    ("select_then_slice", lambda lib, w: w[0, 1:], [W34]),
    ("slice_then_select", lambda lib, w: w[1:, 2], [W34]),
    ("colon", lambda lib, w: w[:], [W34]),
    ("ellipsis", lambda lib, m: m[..., 1], [M234]),
    ("none_index", lambda lib, w: w[None], [W34]),
    ("step_slice", lambda lib, w: w[:, ::2], [W34]),
    ("list_index", lambda lib, w: w[[0, 2, 0]], [W34]),
    ("tensor_index", lambda lib, w: w[lib.tensor([2, 1])], [W34]),
    ("two_lists", lambda lib, w: w[[0, 1], [1, 2]], [W34]),
    ("mask", lambda lib, w: w[w > 0], [W34]),
    ("negative_index", lambda lib, w: w[-1, -2], [W34]),
    # matrix products
    ("dot", lambda lib, x, y: lib.dot(x, y), [X3, rand(3, seed=9)]),
    ("mv", lambda lib, w, x: lib.mv(w.t(), x), [W34, X3]),
    ("mm", lambda lib, w, v: lib.mm(w, v), [W34, rand(4, 2, seed=9)]),
    ("matmul_1d_1d", lambda lib, x, y: x @ y, [X3, rand(3, seed=9)]),
    ("matmul_2d_1d", lambda lib, w, x: w.t() @ x, [W34, X3]),
    ("matmul_1d_2d", lambda lib, x, w: lib.matmul(x, w), [X3, W34]),
    ("matmul_2d_2d", lambda lib, w, v: w @ v, [W34, rand(4, 2, seed=9)]),
    ("matmul_3d_2d", lambda lib, m, v: m @ v, [M234, rand(4, 2, seed=9)]),
    ("matmul_3d_3d", lambda lib, m, v: m @ v, [M234, rand(2, 4, 5, seed=9)]),
    ("matmul_3d_1d", lambda lib, m, x: m @ x, [M234, rand(4, seed=9)]),
    ("matmul_1d_3d", lambda lib, x, m: x @ m, [X3, rand(2, 3, 5, seed=9)]),
    ("matmul_broadcast_batch", lambda lib, a, b: a @ b, [rand(1, 3, 4, seed=8), rand(2, 4, 5, seed=9)]),
    ("outer", lambda lib, x, y: lib.outer(x, y), [X3, rand(4, seed=9)]),
    ("addmm", lambda lib, b, x, w: lib.addmm(b, x, w), [rand(4, seed=7), rand(2, 3, seed=8), W34]),
    ("linear", lambda lib, x, w, b: lib.nn.functional.linear(x, w, b),
     [rand(2, 4, seed=7), W34, X3]),
    ("linear_no_bias", lambda lib, x, w: lib.nn.functional.linear(x, w), [rand(2, 4, seed=7), W34]),
    ("linear_1d_input", lambda lib, x, w, b: lib.nn.functional.linear(x, w, b),
     [rand(4, seed=7), W34, X3]),
    ("linear_3d_input", lambda lib, x, w, b: lib.nn.functional.linear(x, w, b),
     [rand(2, 2, 4, seed=7), W34, X3]),
    # losses and activations
    ("one_layer_net", lambda lib, w, b: lib.nn.functional.binary_cross_entropy_with_logits(
        lib.matmul(lib.ones(5, dtype=w.dtype), w) + b, lib.zeros(3, dtype=w.dtype)), [rand(5, 3, seed=10), X3]),
    ("mse_loss", lambda lib, w: lib.nn.functional.mse_loss(w, lib.tensor(TARGET34, dtype=w.dtype)),
     [W34]),
    ("mse_loss_sum_target_grad", lambda lib, w, t: lib.nn.functional.mse_loss(w, t, reduction="sum"),
     [W34, TARGET34]),
    ("mse_loss_none", lambda lib, w: lib.nn.functional.mse_loss(
        w, lib.tensor(TARGET34, dtype=w.dtype), reduction="none"), [W34]),
    ("bce", lambda lib, p: lib.nn.functional.binary_cross_entropy(
        p, lib.tensor(TARGET34, dtype=p.dtype)), [P34]),
    ("bce_of_sigmoid_weight", lambda lib, w: lib.nn.functional.binary_cross_entropy(
        w.sigmoid(), lib.tensor(TARGET34, dtype=w.dtype), weight=lib.tensor(POS3[:1].repeat(4), dtype=w.dtype),
        reduction="sum"), [W34]),
    ("bce_target_grad", lambda lib, p, t: lib.nn.functional.binary_cross_entropy(p, t), [P34, TARGET34]),
    ("bce_with_logits", lambda lib, w: lib.nn.functional.binary_cross_entropy_with_logits(
        w * 3, lib.tensor(TARGET34, dtype=w.dtype)), [W34]),
    ("bce_with_logits_none", lambda lib, w: lib.nn.functional.binary_cross_entropy_with_logits(
        w * 3, lib.tensor(TARGET34, dtype=w.dtype), reduction="none"), [W34]),
    ("bce_with_logits_pos_weight", lambda lib, w: lib.nn.functional.binary_cross_entropy_with_logits(
        w * 3, lib.tensor(TARGET34, dtype=w.dtype), pos_weight=lib.tensor(rand(4, seed=11, low=0.5, high=3),
                                                                          dtype=w.dtype)), [W34]),
    ("bce_with_logits_weight_sum", lambda lib, w: lib.nn.functional.binary_cross_entropy_with_logits(
        w * 3, lib.tensor(TARGET34, dtype=w.dtype), weight=lib.tensor(rand(4, seed=12, low=0, high=2),
                                                                      dtype=w.dtype), reduction="sum"), [W34]),
    ("bce_with_logits_target_grad", lambda lib, w, t: lib.nn.functional.binary_cross_entropy_with_logits(
        w, t, pos_weight=lib.tensor(rand(4, seed=11, low=0.5, high=3), dtype=w.dtype)), [W34, TARGET34]),
    ("softmax", lambda lib, w: lib.nn.functional.softmax(w, dim=1), [W34]),
    ("softmax_method", lambda lib, w: w.softmax(0), [W34]),
    ("log_softmax", lambda lib, w: lib.nn.functional.log_softmax(w, dim=-1), [W34]),
    ("cross_entropy", lambda lib, w: lib.nn.functional.cross_entropy(w, lib.tensor([0, 3, 1])), [W34]),
    ("cross_entropy_sum", lambda lib, w: lib.nn.functional.cross_entropy(
        w, lib.tensor([0, 3, 1]), reduction="sum"), [W34]),
    ("cross_entropy_none", lambda lib, w: lib.nn.functional.cross_entropy(
        w, lib.tensor([0, 3, 1]), reduction="none"), [W34]),
    ("cross_entropy_weight_ignore", lambda lib, w: lib.nn.functional.cross_entropy(
        w, lib.tensor([0, -100, 1]), weight=lib.tensor([1.0, 2.0, 0.5, 1.5], dtype=w.dtype)), [W34]),
    ("cross_entropy_1d", lambda lib, x: lib.nn.functional.cross_entropy(x, lib.tensor(2)), [X3]),
    ("cross_entropy_probabilities", lambda lib, w: lib.nn.functional.cross_entropy(
        w, lib.tensor(np.random.default_rng(7).dirichlet(np.ones(4), size=3), dtype=w.dtype)), [W34]),
    ("cross_entropy_probabilities_sum", lambda lib, w: lib.nn.functional.cross_entropy(
        w, lib.tensor(np.random.default_rng(7).dirichlet(np.ones(4), size=3), dtype=w.dtype),
        reduction="sum"), [W34]),
    ("cross_entropy_probabilities_none", lambda lib, w: lib.nn.functional.cross_entropy(
        w, lib.tensor(np.random.default_rng(7).dirichlet(np.ones(4), size=3), dtype=w.dtype),
        reduction="none"), [W34]),
    ("cross_entropy_probabilities_weight", lambda lib, w: lib.nn.functional.cross_entropy(
        w, lib.tensor(np.random.default_rng(7).dirichlet(np.ones(4), size=3), dtype=w.dtype),
        weight=lib.tensor([1.0, 2.0, 0.5, 1.5], dtype=w.dtype)), [W34]),
    ("cross_entropy_3d_indices", lambda lib, m: lib.nn.functional.cross_entropy(
        m, lib.tensor([[0, 1, 2, 2], [2, 2, 0, 1]])), [M234]),
    ("nll_loss_3d_none", lambda lib, m: lib.nn.functional.nll_loss(
        m, lib.tensor([[0, 1, 2, 2], [2, -100, 0, 1]]), reduction="none"), [M234]),
    ("nll_loss_4d_weight", lambda lib, m: lib.nn.functional.nll_loss(
        m.reshape(2, 3, 2, 2), lib.tensor([[[0, 1], [2, 2]], [[2, 2], [0, 1]]]),
        weight=lib.tensor([1.0, 2.0, 0.5], dtype=m.dtype)), [M234]),
    ("nll_loss", lambda lib, w: lib.nn.functional.nll_loss(w.log_softmax(1), lib.tensor([1, 0, 3])), [W34]),
    ("nll_loss_weight", lambda lib, w: lib.nn.functional.nll_loss(
        w, lib.tensor([1, 0, 3]), weight=lib.tensor([1.0, 2.0, 0.5, 1.5], dtype=w.dtype)), [W34]),
    ("softplus", lambda lib, x: lib.nn.functional.softplus(x * 10), [X3]),
    ("softplus_beta", lambda lib, x: lib.nn.functional.softplus(x, beta=2, threshold=1), [X3]),
    ("leaky_relu", lambda lib, x: lib.nn.functional.leaky_relu(x, 0.2), [X3]),
    ("functional_relu", lambda lib, x: lib.nn.functional.relu(x), [X3]),
    # the examples of the tutorials
    ("tutorial_x1_x2_x3_norm", lambda lib, w1, w2, x: (lambda x1: (lambda x2: (w1 @ (x1 + x2)).norm())(
        x + w2 @ x1))(w1 @ x), [rand(5, 5, seed=1, low=0), rand(5, 5, seed=2, low=0), rand(5, seed=3)]),
    ("tutorial_linear_regression", lambda lib, w, b: (lib.tensor([1.0, 2.0, 3.0], dtype=w.dtype) @ w + b
                                                      - lib.tensor([1.0], dtype=w.dtype)) ** 2,
     [rand(3, 1, seed=1, low=0), rand(1, seed=2, low=0)]),
    ("tutorial_pow_sum_log_sum", lambda lib, t, u: t.pow(2).sum() + u.log().sum(),
     [np.array([1.0, 2.0, 4.0]), np.array([10.0, 20.0])]),
    ("tutorial_eye_plus_one_squared", lambda lib, inp: (inp + 1).pow(2), [np.eye(5)]),
]

# Graphs minigrad records differently from PyTorch on purpose (values and
# gradients still match). Batched products are one BmmBackward0 in minigrad;
# PyTorch folds/unfolds the batch with views, expands and clones around bmm/mv.
KNOWN_GRAPH_DIFFERENCES = {
    "matmul_3d_3d": "minigrad records one BmmBackward0; PyTorch records "
                    "UnsafeViewBackward0 <- BmmBackward0 <- ViewBackward0 <- ExpandBackward0",
    "matmul_3d_1d": "minigrad records SqueezeBackward1 <- BmmBackward0 <- UnsqueezeBackward0; "
                    "PyTorch records UnsafeViewBackward0 <- MvBackward0 <- ViewBackward0",
    "matmul_1d_3d": "minigrad records SqueezeBackward1 <- BmmBackward0; PyTorch records "
                    "UnsafeViewBackward0 <- MvBackward0 <- UnsafeViewBackward0 <- CloneBackward0 ...",
    "matmul_broadcast_batch": "minigrad records one BmmBackward0; PyTorch folds the batch into "
                              "an mm with transposes and clones",
}

PROGRAM_IDS = [p[0] for p in PROGRAMS]


def test_program_names_are_unique():
    assert len(set(PROGRAM_IDS)) == len(PROGRAM_IDS)
    assert set(KNOWN_GRAPH_DIFFERENCES) <= set(PROGRAM_IDS)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name, program, arrays", PROGRAMS, ids=PROGRAM_IDS)
def test_values_and_gradients_match(torch, name, program, arrays, dtype):
    (our_leaves, ours), (their_leaves, theirs) = run_in_both(torch, program, arrays, dtype)
    assert_close(ours, theirs)
    assert ours.requires_grad == theirs.requires_grad
    assert ours.is_leaf == theirs.is_leaf
    upstream = np.random.default_rng(99).standard_normal(tuple(theirs.shape)).astype(dtype)
    ours.backward(minigrad.tensor(upstream))
    theirs.backward(torch.tensor(upstream))
    for mine, reference in zip(our_leaves, their_leaves):
        if reference.grad is None:
            assert mine.grad is None
        else:
            assert_close(mine.grad, reference.grad)


@pytest.mark.parametrize("name, program, arrays", PROGRAMS, ids=PROGRAM_IDS)
def test_graph_matches(torch, name, program, arrays):
    if name in KNOWN_GRAPH_DIFFERENCES:
        pytest.xfail(KNOWN_GRAPH_DIFFERENCES[name])
    (our_leaves, ours), (their_leaves, theirs) = run_in_both(torch, program, arrays, "float32")
    assert (graph_structure(ours.grad_fn, our_leaves)
            == graph_structure(theirs.grad_fn, their_leaves))


@pytest.mark.parametrize("name", sorted(KNOWN_GRAPH_DIFFERENCES))
def test_known_graph_differences_are_still_different(torch, name):
    """If minigrad ever records PyTorch's graph here, take it off the list of differences."""
    program, arrays = next((p, a) for n, p, a in PROGRAMS if n == name)
    (our_leaves, ours), (their_leaves, theirs) = run_in_both(torch, program, arrays, "float32")
    assert (graph_structure(ours.grad_fn, our_leaves)
            != graph_structure(theirs.grad_fn, their_leaves))
