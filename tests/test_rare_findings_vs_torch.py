"""Rare differences the random-program test found, each checked against PyTorch.

Each test runs the same small program in minigrad and in PyTorch and compares what a
learner sees: values, versions, grad_fn names, and the exception class and message.
"""
import warnings

import numpy as np
import pytest

import minigrad


def _versions(value):
    """The version of each tensor in ``value`` ('inference' for an inference tensor)."""
    values = value if isinstance(value, tuple) else (value,)
    return [v._version if not v.is_inference() else "inference" for v in values]


def _failure(call):
    """(exception class name, message) of ``call()``, or None if it works."""
    try:
        call()
    except Exception as error:      # noqa: BLE001 - the class is what is compared
        return type(error).__name__, str(error)
    return None


# --- 1. results of inference tensors, computed outside inference mode --------------------------
# PyTorch's kernel runs without its autograd layer (inference tensors have none); its own
# in-place steps on the new result (resize_, an out= call, div_) each count a version.

INFERENCE_INPUT_OPS = {
    "adaptive_avg_pool1d": lambda L, x: L.nn.functional.adaptive_avg_pool1d(x.reshape(1, -1), 2),
    "adaptive_avg_pool1d_1": lambda L, x: L.nn.functional.adaptive_avg_pool1d(x.reshape(1, -1), 1),
    "adaptive_avg_pool2d": lambda L, x: L.nn.functional.adaptive_avg_pool2d(x.reshape(1, 2, 3), 2),
    "adaptive_avg_pool2d_1": lambda L, x: L.nn.functional.adaptive_avg_pool2d(x.reshape(1, 2, 3), 1),
    "adaptive_avg_pool3d": lambda L, x: L.nn.functional.adaptive_avg_pool3d(x.reshape(1, 1, 2, 3), 2),
    "adaptive_avg_pool3d_1": lambda L, x: L.nn.functional.adaptive_avg_pool3d(x.reshape(1, 1, 2, 3), 1),
    "sum": lambda L, x: x.sum(),
    "sum_dim": lambda L, x: x.sum(0, keepdim=True),
    "sum_dtype": lambda L, x: x.sum(dtype=L.float64),
    "mean": lambda L, x: x.mean(),
    "mean_dims": lambda L, x: x.mean((0, 1)),
    "clone": lambda L, x: x.clone(),
    "detach": lambda L, x: x.detach(),
    "view_dtype": lambda L, x: x.view(L.int32),
    "neg": lambda L, x: -x,
    "abs": lambda L, x: x.abs(),
    "amax": lambda L, x: x.amax(),
    "amin_dim": lambda L, x: x.amin(0),
    "var": lambda L, x: x.var(),
    "var_dim": lambda L, x: x.var(0),
    "std_keepdim": lambda L, x: x.std((0, 1), keepdim=True),
    "std_dim": lambda L, x: x.std(1),
    "max": lambda L, x: x.max(),
    "max_dim": lambda L, x: x.max(1),
    "min_dim_keepdim": lambda L, x: x.min(0, keepdim=True),
    "max_dim_of_0d": lambda L, x: x[0, 0].max(0),
    "prod": lambda L, x: x.prod(),
    "prod_dim": lambda L, x: x.prod(1, keepdim=True),
    "logsumexp": lambda L, x: x.logsumexp(1),
}


@pytest.mark.parametrize("name", sorted(INFERENCE_INPUT_OPS))
@pytest.mark.parametrize("mode", ["inference tensor", "normal tensor", "inside inference_mode"])
def test_result_version_of_inference_input(torch, name, mode):
    op = INFERENCE_INPUT_OPS[name]
    seen = []
    for L in (minigrad, torch):
        data = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
        if mode == "normal tensor":
            x = L.tensor(data)
        else:
            with L.inference_mode():
                x = L.tensor(data)
        if mode == "inside inference_mode":
            with L.inference_mode():
                out = op(L, x)
        else:
            out = op(L, x)
        seen.append((_versions(out), [np.asarray(o.tolist()).tolist() for o in
                                      (out if isinstance(out, tuple) else (out,))]))
    assert seen[0] == seen[1]


def test_adaptive_avg_pool1d_program_of_the_random_test(torch):
    """The program: a leaf, adaptive_avg_pool1d of it in inference mode, then again outside."""
    seen = []
    for L in (minigrad, torch):
        leaf = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
        with L.no_grad(), L.inference_mode():
            inner = L.nn.functional.adaptive_avg_pool1d(leaf.reshape(1, -1), 2)
        with L.no_grad():
            outer = L.nn.functional.adaptive_avg_pool1d(inner.reshape(1, -1), 2)
        seen.append((outer._version, outer.is_inference(), outer.tolist()))
    assert seen[0] == seen[1] == (1, False, seen[1][2])


# --- 2. an in-place change of a view made in inference mode -----------------------------------
# PyTorch's message names inference mode (and "normal mode", and the inference_mode block)
# where a view made under no_grad gets no_grad's words.

def _view_in_inference_changed(L):
    leaf = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    with L.inference_mode():
        view = leaf[:1]
    view.mul_(2)


def _result_view_in_inference_changed(L):
    y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1
    with L.inference_mode():
        view = y.view(6)
    view.add_(1)


def _unbind_piece_in_inference_changed(L):
    y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1
    with L.inference_mode():
        piece = y.unbind(0)[0]
    piece.mul_(2)


def _view_of_inference_view_changed(L):
    y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1
    with L.inference_mode():
        view = y[0]
    view[:2].mul_(2)


def _inference_view_after_base_changed(L):
    y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1
    with L.inference_mode():
        view = y[0]
    y.add_(1)
    return view * 2


def _view_of_inference_view_after_base_changed(L):
    y = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1
    with L.inference_mode():
        view = y[0]
    inner = view[:2]
    y.add_(1)
    return inner.grad_fn


def _inference_view_of_plain_tensor_plus_leaf(L):
    plain = L.zeros(3)
    with L.inference_mode():
        view = plain[:2]
    view.add_(L.tensor([1., 2.], requires_grad=True))


def _inference_view_changed_under_no_grad(L):
    leaf = L.tensor([1., 2., 3.], requires_grad=True)
    with L.inference_mode():
        view = leaf[:2]
    with L.no_grad():
        view.mul_(2)
    return view.tolist()


def _no_grad_view_changed(L):
    leaf = L.tensor([1., 2., 3.], requires_grad=True)
    with L.no_grad():
        view = leaf[:2]
    view.mul_(2)


INFERENCE_VIEW_PROGRAMS = [_view_in_inference_changed, _result_view_in_inference_changed,
                           _unbind_piece_in_inference_changed, _view_of_inference_view_changed,
                           _inference_view_after_base_changed,
                           _view_of_inference_view_after_base_changed,
                           _inference_view_of_plain_tensor_plus_leaf,
                           _inference_view_changed_under_no_grad, _no_grad_view_changed]


@pytest.mark.parametrize("program", INFERENCE_VIEW_PROGRAMS, ids=lambda p: p.__name__.strip("_"))
def test_inplace_change_of_view_made_in_inference_mode(torch, program):
    assert _failure(lambda: program(minigrad)) == _failure(lambda: program(torch))


def test_inference_view_message_word_for_word():
    message = ("A view was created in inference mode and is being modified inplace in normal "
               "mode. Given that this use case is ambiguous and error-prone, it is forbidden. You "
               "can clarify your code by moving both the view and the inplace either both inside "
               "the inference_mode block (if you don't want the inplace to be tracked) or both "
               "outside (if you want the inplace to be tracked).")
    assert _failure(lambda: _view_in_inference_changed(minigrad)) == ("RuntimeError", message)


# --- 3. in-place changes of an integer tensor that x.ge_(y) gave history ------------------------
# An in-place operation whose derivative needs the old values clones them first, and that clone
# is an ordinary recorded operation: of an integer or bool tensor with history it is refused
# ('Autograd not support dtype: Long'), before anything is written and before the kernel's own
# checks. Operations that save nothing (neg_, add_, zero_, floor_) or only their result (relu_)
# go through.

INTEGER_WITH_HISTORY_CHANGES = {
    "abs_": lambda L, x, y: x.abs_(),
    "absolute_": lambda L, x, y: x.absolute_(),
    "square_": lambda L, x, y: x.square_(),
    "clamp_": lambda L, x, y: x.clamp_(0, 1),
    "clamp_min_": lambda L, x, y: x.clamp_(min=0),
    "clamp_tensor_": lambda L, x, y: x.clamp_(L.tensor([1, 2, 3])),
    "pow_": lambda L, x, y: x.pow_(2),
    "pow_tensor_": lambda L, x, y: x.pow_(L.tensor([1, 2, 3])),
    "sgn_": lambda L, x, y: x.sgn_(),
    "nan_to_num_": lambda L, x, y: x.nan_to_num_(),
    "cumprod_": lambda L, x, y: x.cumprod_(0),
    "hardtanh_": lambda L, x, y: L.nn.functional.hardtanh(x, inplace=True),
    "relu6_": lambda L, x, y: L.nn.functional.relu6(x, inplace=True),
    "threshold_": lambda L, x, y: L.nn.functional.threshold(x, 0, 1, inplace=True),
    "mul_self_": lambda L, x, y: x.mul_(x),
    "div_self_": lambda L, x, y: x.div_(x),
    "div_trunc_self_": lambda L, x, y: x.div_(x, rounding_mode="trunc"),
    "fmod_self_": lambda L, x, y: x.fmod_(x),
    "scatter_reduce_": lambda L, x, y: x.scatter_reduce_(0, L.tensor([0]), L.tensor([4]), "amax"),
    "sin_": lambda L, x, y: x.sin_(),                          # (before the cast check)
    "logit_": lambda L, x, y: x.logit_(),
    "copysign_": lambda L, x, y: x.copysign_(L.tensor([1, 2, 3])),
    "xlogy_": lambda L, x, y: x.xlogy_(L.tensor([1, 2, 3])),
    "atan2_": lambda L, x, y: x.atan2_(L.tensor([1, 2, 3])),
    "silu_": lambda L, x, y: L.nn.functional.silu(x, inplace=True),     # (before the kernel's)
    "hypot_": lambda L, x, y: x.hypot_(L.tensor([1, 2, 3])),
    "nextafter_": lambda L, x, y: x.nextafter_(L.tensor([1, 2, 3])),
    "renorm_": lambda L, x, y: x.unsqueeze(0).renorm_(2, 0, 1),
    # these save nothing of x (or only the result), and go through
    "neg_": lambda L, x, y: x.neg_(),
    "add_": lambda L, x, y: x.add_(1),
    "add_self_": lambda L, x, y: x.add_(x),
    "mul_number_": lambda L, x, y: x.mul_(2),
    "mul_plain_tensor_": lambda L, x, y: x.mul_(L.tensor([1, 2, 3])),
    "sub_self_": lambda L, x, y: x.sub_(x),
    "zero_": lambda L, x, y: x.zero_(),
    "fill_": lambda L, x, y: x.fill_(2),
    "fill_tensor_": lambda L, x, y: x.fill_(y[0]),
    "floor_": lambda L, x, y: x.floor_(),
    "sign_": lambda L, x, y: x.sign_(),
    "relu_": lambda L, x, y: x.relu_(),
    "remainder_": lambda L, x, y: x.remainder_(2),
    "cumsum_": lambda L, x, y: x.cumsum_(0),
    "masked_fill_": lambda L, x, y: x.masked_fill_(x > 0, 7),
    "index_add_": lambda L, x, y: x.index_add_(0, L.tensor([0]), L.tensor([4])),
    "addcmul_": lambda L, x, y: x.addcmul_(x, x),
    "ge_": lambda L, x, y: x.ge_(y),
    "sigmoid_": lambda L, x, y: x.sigmoid_(),                  # (saves its result: the cast check)
    "exp_": lambda L, x, y: x.exp_(),
}


@pytest.mark.parametrize("name", sorted(INTEGER_WITH_HISTORY_CHANGES))
def test_inplace_change_of_integer_tensor_with_history(torch, name):
    change = INTEGER_WITH_HISTORY_CHANGES[name]
    seen = []
    for L in (minigrad, torch):
        y = L.tensor([1., -2., 3.], requires_grad=True)
        x = L.tensor([1, -3, 2])
        x.ge_(y)              # x: integers with history (GeBackward1)
        x.sub_(5)             # (SubBackward0: saves nothing)
        before = x._version
        failure = _failure(lambda: change(L, x, y))
        node = type(x.grad_fn).__name__ if x.grad_fn is not None else None
        seen.append((failure, x.tolist(), x._version - before, node))
    assert seen[0] == seen[1]


def test_ge_then_another_operation_word_for_word():
    """The program of the random test: x.ge_(y) of integers, then an operation on x."""
    y = minigrad.tensor([1., 2., 3.], requires_grad=True)
    x = minigrad.tensor([1, 3, 2])
    x.ge_(y)
    assert _failure(lambda: x.abs_()) == ("RuntimeError", "Autograd not support dtype: Long")
    assert _failure(lambda: x * 2) == ("RuntimeError", "Autograd not support dtype: Long")
    assert x.tolist() == [1, 1, 0] and x._version == 1


# --- 4. in-place changes of a no_grad view of integers, with an input that requires grad ---------
# Autograd's rules (a view made under no_grad may not change while recording) come before the
# kernel's checks of the result type; copy_ into integers has no autograd at all.

NO_GRAD_INTEGER_VIEW_CHANGES = {
    "igamma_": lambda L, v, leaf: v.igamma_(leaf),
    "igammac_": lambda L, v, leaf: v.igammac_(leaf),
    "igamma_plain_other": lambda L, v, leaf: v.igamma_(L.tensor([1., 2., 3.])),
    "ldexp_": lambda L, v, leaf: v.ldexp_(leaf),
    "bitwise_and_": lambda L, v, leaf: v.bitwise_and_(leaf),
    "gcd_": lambda L, v, leaf: v.gcd_(leaf),
    "atan2_": lambda L, v, leaf: v.atan2_(leaf),
    "hypot_": lambda L, v, leaf: v.hypot_(leaf),
    "mul_": lambda L, v, leaf: v.mul_(leaf),
    "lerp_": lambda L, v, leaf: v.lerp_(leaf, 0.5),
    "polygamma_": lambda L, v, leaf: v.polygamma_(1),
    "copy_": lambda L, v, leaf: v.copy_(leaf),
    "lt_": lambda L, v, leaf: v.lt_(leaf),
}


@pytest.mark.parametrize("name", sorted(NO_GRAD_INTEGER_VIEW_CHANGES))
def test_inplace_change_of_no_grad_integer_view(torch, name):
    change = NO_GRAD_INTEGER_VIEW_CHANGES[name]
    seen = []
    for L in (minigrad, torch):
        leaf = L.tensor([1., 2., 3.], requires_grad=True)
        integers = L.tensor([1, 2, 3])
        with L.no_grad():
            view = integers[:3]
        failure = _failure(lambda: change(L, view, leaf))
        seen.append((failure, integers.tolist(), view._version, view.grad_fn is None))
    assert seen[0] == seen[1]


def test_copy_into_integers_with_history_keeps_their_node(torch):
    seen = []
    for L in (minigrad, torch):
        y = L.tensor([1., -2., 3.], requires_grad=True)
        x = L.tensor([1, -3, 2])
        x.ge_(y)
        x.copy_(y)
        seen.append((x.tolist(), x._version, type(x.grad_fn).__name__))
    assert seen[0] == seen[1] == ([1, -2, 3], 2, "GeBackward1")


# --- 5. the version of .grad after backward ------------------------------------------------------
# AccumulateGrad keeps a gradient laid out like the leaf (version as it comes); one laid out
# otherwise (pinverse's is a transpose, an empty one may step by 0) is copied: version 1.

GRAD_VERSION_OPS = {
    "pinverse": lambda L, x: L.pinverse(x),
    "linalg.pinv": lambda L, x: L.linalg.pinv(x),
    "index_copy": lambda L, x: x.index_copy(0, L.arange(x.shape[0]), x * 2),
    "index_put": lambda L, x: x.index_put((L.arange(x.shape[0]),), x * 2),
    "index_put_accumulate": lambda L, x: x.index_put((L.arange(x.shape[0]),), x, accumulate=True),
    "logsigmoid": lambda L, x: L.nn.functional.logsigmoid(x),
    "cummax": lambda L, x: x.cummax(0)[0],
    "cummin_last": lambda L, x: x.cummin(-1)[0],
    "index_fill": lambda L, x: x.index_fill(0, L.tensor([], dtype=L.long), 2.),
    "softplus": lambda L, x: L.nn.functional.softplus(x),
}
GRAD_VERSION_UPSTREAMS = {
    "sum": lambda L, out: out.sum().backward(),
    "mean": lambda L, out: out.mean().backward(),
    "ones": lambda L, out: out.backward(L.ones_like(out)),
    "twice": lambda L, out: (out.sum() + out.sum()).backward(),
    "scaled": lambda L, out: (out * 2).sum().backward(),
}


@pytest.mark.parametrize("name", sorted(GRAD_VERSION_OPS))
@pytest.mark.parametrize("upstream", sorted(GRAD_VERSION_UPSTREAMS))
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3), (2, 3), (3, 2), (1, 3), (2, 3, 4)])
def test_grad_version_after_backward(torch, name, upstream, shape):
    seen = []
    for L in (minigrad, torch):
        data = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) % 5 + 1
        data[..., :1] *= 2                      # (a matrix of full rank for pinverse)
        x = L.tensor(data, requires_grad=True)
        failure = _failure(lambda: GRAD_VERSION_UPSTREAMS[upstream](L, GRAD_VERSION_OPS[name](L, x)))
        seen.append(failure or (x.grad._version, x.grad.stride()))
    assert seen[0] == seen[1]


def test_pinverse_gradient_against_torch(torch):
    rng = np.random.default_rng(3)
    for shape in [(2, 3), (3, 2), (2, 4, 3)]:
        a = rng.standard_normal(shape)
        g = rng.standard_normal(shape[:-2] + shape[-1:] + shape[-2:-1])
        grads = []
        for L in (minigrad, torch):
            x = L.tensor(a, requires_grad=True)
            L.pinverse(x).backward(L.tensor(g))
            grads.append(x.grad.numpy())
        np.testing.assert_allclose(grads[0], grads[1], rtol=1e-10, atol=1e-12)
    x = minigrad.tensor(rng.standard_normal((3, 2)), requires_grad=True)
    assert minigrad.autograd.gradcheck(minigrad.pinverse, (x,))
    assert minigrad.autograd.gradgradcheck(minigrad.pinverse, (x,))


def test_index_put_counts_its_indices_first(torch):
    programs = [
        lambda L: L.ones((), dtype=L.long).index_put((L.tensor([0]),), L.tensor([1.])),
        lambda L: L.index_put(L.ones(0), (L.tensor([0]), L.tensor([0])), L.tensor([1.])),
        lambda L: L.ones(2).index_put_((L.tensor([0]), L.tensor([0])), L.tensor([1.])),
        lambda L: L.ones(2)[[0], [0]],
    ]
    for program in programs:
        assert _failure(lambda: program(minigrad)) == _failure(lambda: program(torch))
    assert _failure(lambda: programs[0](minigrad)) == (
        "IndexError", "too many indices for tensor of dimension 0 (got 1)")


# --- 6. matrix norms and condition numbers of matrices without elements ------------------------
# PyTorch takes no shortcut for them: 'nuc' is the sum of svdvals (SumBackward1), 1 and inf
# the extreme of vector 1-norms; the largest of nothing is 0 (new zeros, no history), the
# smallest of nothing amin's error. linalg.cond gives 0 (no history).


def _node_names(node, depth=5):
    names, todo = [], [(node, 0)]
    while todo:
        node, level = todo.pop(0)
        if node is None or level > depth:
            continue
        names.append(type(node).__name__)
        todo.extend((n, level + 1) for n, _ in node.next_functions)
    return names


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 3)])
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, float("inf"), -float("inf")])
@pytest.mark.parametrize("keepdim", [False, True])
def test_matrix_norm_of_matrices_without_elements(torch, shape, ord, keepdim):
    seen = []
    for L in (minigrad, torch):
        x = L.ones(shape, requires_grad=True)

        def norm():
            out = L.linalg.matrix_norm(x, ord, keepdim=keepdim)
            grad = None
            if out.requires_grad:
                out.sum().backward()
                grad = (x.grad.tolist(), x.grad._version)
            return tuple(out.shape), out.tolist(), _node_names(out.grad_fn), grad
        failure = _failure(norm)
        seen.append(failure if failure else norm())
    assert seen[0] == seen[1]


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 3), (2, 0, 0), (3,)])
@pytest.mark.parametrize("p", [None, "fro", "nuc", 1, 2, -2, float("inf"), 3])
def test_cond_of_matrices_without_elements(torch, shape, p):
    seen = []
    for L in (minigrad, torch):
        x = L.ones(shape, requires_grad=True)
        out = []
        failure = _failure(lambda: out.append(L.linalg.cond(x, p)))
        seen.append(failure or (out[0].tolist(), str(out[0].dtype), out[0].grad_fn is None))
    assert seen[0] == seen[1]


def test_nuclear_norm_of_empty_matrix_records_svd(torch):
    for L in (minigrad, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = L.nuclear_norm(L.ones(0, 3, requires_grad=True))
        assert _node_names(out.grad_fn) == ["SumBackward1", "LinalgSvdBackward0", "PermuteBackward0",
                                            "AccumulateGrad"]


# --- 7. slogdet of singular matrices --------------------------------------------------------------
# PyTorch factors a row-major A as LAPACK reads it (A^T), and its backward solves
# A^T X = diag(g) anew: without create_graph no error (inf and nan), with it linalg.solve's.

SINGULAR_MATRICES = {
    "rank_one": [[1., 2.], [2., 4.]],
    "zeros": [[0., 0.], [0., 0.]],
    "one_pivot": [[1., 0.], [0., 0.]],
    "nilpotent": [[0., 1.], [0., 0.]],
    "one_to_nine": [[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]],
    "batch": [[[1., 2.], [2., 4.]], [[2., 1.], [1., 3.]]],
    "regular": [[2., 1.], [1., 3.]],
}


def _signed(values):
    """Values with NaN, infinities and the sign of zeros told apart (for ==)."""
    array = np.asarray(values, dtype=np.float64)
    return [repr(v) for v in np.where(array == 0, np.copysign(0.5, array), array).ravel()]


@pytest.mark.parametrize("name", sorted(SINGULAR_MATRICES))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("layout", ["rows", "columns"])
@pytest.mark.parametrize("loss", ["logabsdet", "logdet", "sign_times_logabsdet"])
def test_slogdet_of_singular_matrices(torch, name, dtype, layout, loss):
    seen = []
    for L in (minigrad, torch):
        data = np.array(SINGULAR_MATRICES[name], dtype=dtype)
        if layout == "columns":
            leaf = L.tensor(np.swapaxes(data, -1, -2).copy(), requires_grad=True)
            x = leaf.mT
        else:
            leaf = x = L.tensor(data, requires_grad=True)
        sign, logabsdet = L.linalg.slogdet(x)
        out = {"logabsdet": lambda: logabsdet, "logdet": lambda: L.logdet(x),
               "sign_times_logabsdet": lambda: sign * logabsdet}[loss]()
        out.sum().backward()
        seen.append((_signed(sign.tolist()), _signed(logabsdet.tolist()), leaf.grad.tolist(),
                     leaf.grad._version))
    (sign, logabsdet, grad, version), (sign_t, logabsdet_t, grad_t, version_t) = seen
    assert (sign, version) == (sign_t, version_t)
    # where rounding left a tiny pivot (one_to_nine, factored by columns), the two LAPACKs
    # may round the huge results differently: nan, inf and signs must agree, values closely
    np.testing.assert_allclose(np.array(grad), np.array(grad_t), rtol=1e-9)
    assert _signed(np.sign(grad)) == _signed(np.sign(grad_t))
    assert logabsdet == logabsdet_t


def test_slogdet_create_graph_of_singular_matrix(torch):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([[1., 2.], [2., 4.]], dtype=L.float64, requires_grad=True)
        seen.append(_failure(lambda: L.autograd.grad(L.linalg.slogdet(x)[1], x, create_graph=True)))
    assert seen[0] == seen[1]
    assert seen[0][1] == "torch.linalg.solve: The solver failed because the input matrix is singular."
    for L in (minigrad, torch):
        x = L.tensor([[2., 1.], [1., 3.]], dtype=L.float64, requires_grad=True)
        (g,) = L.autograd.grad(L.linalg.slogdet(x)[1], x, create_graph=True)
        seen.append((_node_names(g.grad_fn), g.stride(), np.round(g.tolist(), 12).tolist()))
    assert seen[2] == seen[3]


def test_slogdet_gradients_gradcheck():
    x = minigrad.tensor([[2., 1., 0.5], [1., 3., 0.25], [0.5, 0.25, 4.]], dtype=minigrad.float64,
                        requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda a: minigrad.linalg.slogdet(a)[1], (x,))
    assert minigrad.autograd.gradgradcheck(lambda a: minigrad.linalg.slogdet(a)[1], (x,))


@pytest.mark.parametrize("function", ["slogdet", "logdet", "det"])
def test_determinant_gradients_come_laid_out_by_columns(torch, function):
    seen = []
    for L in (minigrad, torch):
        x = L.tensor([[[2., 1.], [1., 3.]], [[1., 0.], [0., 1.]]], dtype=L.float64, requires_grad=True)
        hooked = []
        x.register_hook(lambda g: hooked.append(g.stride()))
        out = {"slogdet": lambda: L.linalg.slogdet(x)[1], "logdet": lambda: L.logdet(x),
               "det": lambda: L.linalg.det(x)}[function]()
        out.sum().backward()
        seen.append((hooked, x.grad._version, x.grad.stride(), np.round(x.grad.tolist(), 12).tolist()))
    assert seen[0] == seen[1]


# --- 8. histograms of integers and bools -------------------------------------------------------
# PyTorch's histogram kernels take floats only, but an earlier step may refuse first: the number
# of bins, the extremes of a non-empty input ("histogramdd"), the edges made in the input's
# dtype ("linspace_cpu" for bools; uint8 can't hold histc's -1), the dtypes of given edges and
# weights; else the kernel ("histogram_cpu").

HISTOGRAM_CALLS = {
    "histogram": lambda L, x: L.histogram(x, 3),
    "histogram_method": lambda L, x: x.histogram(3),
    "histogram_range": lambda L, x: L.histogram(x, 3, range=(0., 1.)),
    "histogram_float_edges": lambda L, x: L.histogram(x, L.tensor([0., 1., 2.])),
    "histogram_own_edges": lambda L, x: L.histogram(x, L.tensor([0, 1, 2], dtype=x.dtype)),
    "histogram_float_weight": lambda L, x: L.histogram(x, 3, weight=L.ones(x.shape)),
    "histogram_own_weight": lambda L, x: L.histogram(x, 3, weight=L.ones(x.shape, dtype=x.dtype)),
    "histogram_no_bins": lambda L, x: L.histogram(x, 0),
    "histogramdd": lambda L, x: L.histogramdd(x.reshape(-1, 1), 3),
    "histogramdd_range": lambda L, x: L.histogramdd(x.reshape(-1, 1), 3, range=[0., 1.]),
    "histogramdd_edges": lambda L, x: L.histogramdd(x.reshape(-1, 2), [L.tensor([0, 1], dtype=x.dtype),
                                                                        L.tensor([0., 1.])]),
    "histc": lambda L, x: L.histc(x, 3),
    "histc_range": lambda L, x: L.histc(x, 3, 0, 5),
    "histc_no_bins": lambda L, x: L.histc(x, 0),
}


@pytest.mark.parametrize("name", sorted(HISTOGRAM_CALLS))
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "float32"])
@pytest.mark.parametrize("shape", [(0,), (4,), (2, 0)])
def test_histograms_of_integers_and_bools(torch, name, dtype, shape):
    seen = []
    for L in (minigrad, torch):
        x = L.zeros(shape, dtype=getattr(L, dtype))
        if name == "histogramdd_edges" and x.numel() % 2:
            return
        out = []
        failure = _failure(lambda: out.append(HISTOGRAM_CALLS[name](L, x)))
        seen.append(failure or str(out[0]))
    assert seen[0] == seen[1]


def test_histogram_of_empty_integers_word_for_word():
    x = minigrad.zeros(0, dtype=minigrad.long)
    assert _failure(lambda: minigrad.histogram(x, 3)) == (
        "NotImplementedError", "\"histogram_cpu\" not implemented for 'Long'")


# --- 9. one-input in-place changes of integers with history ---------------------------------------
# (the rule of section 3: abs_, clamp_, square_, ... save the old values, whose copy is refused)

@pytest.mark.parametrize("name", ["abs_", "absolute_", "clamp_", "clip_", "square_", "sgn_", "neg_",
                                  "floor_", "relu_", "sin_", "exp_", "mvlgamma_", "trunc_", "sign_"])
def test_one_input_inplace_change_of_integers_with_history(torch, name):
    calls = {"clamp_": lambda x: x.clamp_(-0.5, 0.5), "clip_": lambda x: x.clip_(0, 1),
             "mvlgamma_": lambda x: x.mvlgamma_(1)}
    seen = []
    for L in (minigrad, torch):
        y = L.tensor([1., -2., 3.], requires_grad=True)
        x = L.tensor([1, -3, 2])
        x.ge_(y)
        failure = _failure(lambda: calls.get(name, lambda x: getattr(x, name)())(x))
        seen.append((failure, x.tolist(), x._version, type(x.grad_fn).__name__))
    assert seen[0] == seen[1]


# --- 10. an in-place result's shape is checked before its dtype (lerp_: its dtypes first) ---------

RESULT_CHECKS = {
    "lerp_shape_and_dtype": lambda L: L.zeros(3).lerp_(L.zeros(2, 3, dtype=L.float64), 0.5),
    "lerp_dtype": lambda L: L.zeros(3).lerp_(L.zeros(3, dtype=L.float64), 0.5),
    "lerp_shape": lambda L: L.zeros(3).lerp_(L.zeros(2, 3), 0.5),
    "lerp_weight_shape_and_dtype": lambda L: L.zeros(3).lerp_(L.zeros(3), L.zeros(2, 3, dtype=L.float64)),
    "hypot_": lambda L: L.zeros(3, dtype=L.long).hypot_(L.zeros(2, 3)),
    "atan2_": lambda L: L.zeros(3, dtype=L.long).atan2_(L.zeros(2, 3)),
    "igamma_": lambda L: L.zeros(3, dtype=L.long).igamma_(L.zeros(2, 3)),
    "igamma_dtype": lambda L: L.zeros(3, dtype=L.long).igamma_(L.zeros(3)),
    "bitwise_and_": lambda L: L.zeros(3, dtype=L.bool).bitwise_and_(L.zeros(2, 3, dtype=L.long)),
    "bitwise_and_dtype": lambda L: L.zeros(3, dtype=L.bool).bitwise_and_(L.zeros(3, dtype=L.long)),
    "addcmul_": lambda L: L.zeros(3, dtype=L.long).addcmul_(L.zeros(2, 3), L.zeros(3)),
    "addcdiv_": lambda L: L.zeros(3, dtype=L.long).addcdiv_(L.zeros(3), L.ones(3)),
    "add_": lambda L: L.zeros(3, dtype=L.long).add_(L.zeros(2, 3)),
    "mul_dtype": lambda L: L.zeros(3, dtype=L.long).mul_(L.zeros(3)),
    "copysign_": lambda L: L.zeros(3, dtype=L.long).copysign_(L.zeros(2, 3)),
    "xlogy_": lambda L: L.zeros(3, dtype=L.long).xlogy_(L.zeros(3)),
    "pow_": lambda L: L.zeros(3, dtype=L.long).pow_(0.5),
    "sqrt_": lambda L: L.zeros(3, dtype=L.long).sqrt_(),
    "clamp_": lambda L: L.zeros(3, dtype=L.bool).clamp_(0, 1),
    "nextafter_": lambda L: L.zeros(3).nextafter_(L.zeros(2, 3)),
}


@pytest.mark.parametrize("name", sorted(RESULT_CHECKS))
def test_inplace_result_shape_before_dtype(torch, name):
    assert _failure(lambda: RESULT_CHECKS[name](minigrad)) == _failure(lambda: RESULT_CHECKS[name](torch))


def test_lerp_checks_its_dtypes_first_word_for_word():
    assert _failure(lambda: RESULT_CHECKS["lerp_shape_and_dtype"](minigrad)) == (
        "RuntimeError", "expected dtype float for `end` but got dtype double")
    assert _failure(lambda: RESULT_CHECKS["hypot_"](minigrad)) == (
        "RuntimeError", "output with shape [3] doesn't match the broadcast shape [2, 3]")


def _chain(node, length=6):
    """The names of ``node`` and of the first node of each next_functions after it."""
    names = []
    while node is not None and len(names) < length:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


@pytest.mark.parametrize("shape", [(3,), (2, 3), ()])
def test_cumsum_with_dtype_casts_grad_before_its_backward(torch, shape):
    """cumsum(dtype=float64) of float32: the formula turns grad into float32 first, so under
    create_graph the reversed cumsum (FlipBackward0) comes after ToCopyBackward0."""
    results = []
    for L in (minigrad, torch):
        x = L.tensor(np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32).reshape(shape),
                     requires_grad=True)
        y = x.cumsum(0, dtype=L.float64)
        (g,) = L.autograd.grad(y, x, y, create_graph=True)
        results.append((_chain(g.grad_fn), str(g.dtype).split(".")[-1], g.detach().numpy().tolist()))
    assert results[0] == results[1]


LERP_OVER_OWN_MEMORY = {     # each takes x, y = x[1:] (x integers, or floats for names with "float")
    "int_float_weight": lambda L, x, y: x.lerp_(y, y.sigmoid()),
    "int_float_end": lambda L, x, y: x.lerp_(y.float(), y.sigmoid()),
    "int_number_weight": lambda L, x, y: x.lerp_(y, 0.5),
    "int_weight_0d": lambda L, x, y: x.lerp_(y, L.tensor(0.5)),
    "float_double_weight": lambda L, x, y: x.lerp_(y, y.double()),
    "float_double_weight_keyword": lambda L, x, y: x.lerp_(y, weight=y.double()),
    "int_heaviside_values_keyword": lambda L, x, y: x.heaviside_(values=y.float()),
}


@pytest.mark.parametrize("name", sorted(LERP_OVER_OWN_MEMORY))
def test_lerp_checks_dtypes_before_shared_memory(torch, name):
    """x.lerp_(end, weight) with end a view of x: end's and a weight tensor's dtypes are
    checked before the memory end shares with x (and before the shapes)."""
    failures = []
    for L in (minigrad, torch):
        x = L.tensor([1.0, 2.0, 3.0] if name.startswith("float") else [1, 2, 3])
        failures.append(_failure(lambda: LERP_OVER_OWN_MEMORY[name](L, x, x[1:])))
    assert failures[0] == failures[1]


OWN_VIEW_READERS = {
    "lt_": lambda x, v: x.lt_(v), "gt_": lambda x, v: x.gt_(v), "le_": lambda x, v: x.le_(v),
    "ge_": lambda x, v: x.ge_(v), "eq_": lambda x, v: x.eq_(v), "hypot_": lambda x, v: x.hypot_(v),
    "true_divide_": lambda x, v: x.true_divide_(v), "copysign_": lambda x, v: x.copysign_(v),
    "atan2_": lambda x, v: x.atan2_(v), "addcmul_": lambda x, v: x.addcmul_(v, v),
}


@pytest.mark.parametrize("name", sorted(OWN_VIEW_READERS))
def test_inplace_reading_a_view_of_itself_element_by_element(torch, name):
    """x.lt_(x[..., :1]) (a view that isn't dense, which PyTorch lets through): PyTorch's loop
    reads x[..., 0] again after it wrote it, so later elements compare with the new value."""
    data = np.array([-0.95, -0.80, 1.25, -1.63, 0.4, 0.91], np.float32).reshape(2, 1, 3)
    values = []
    for L in (minigrad, torch):
        x = L.tensor(data.copy())
        OWN_VIEW_READERS[name](x, x[..., :1])
        values.append(x.numpy())
    np.testing.assert_array_equal(values[0], values[1])


SVD_USERS = {
    "svd": lambda L, a: L.linalg.svd(a), "svdvals": lambda L, a: L.linalg.svdvals(a),
    "torch_svd": lambda L, a: L.svd(a), "pinv": lambda L, a: L.linalg.pinv(a),
    "pinverse": lambda L, a: a.pinverse(), "matrix_rank": lambda L, a: L.linalg.matrix_rank(a),
    "norm2": lambda L, a: L.linalg.norm(a, 2, dim=(-2, -1)), "cond": lambda L, a: L.linalg.cond(a),
}


@pytest.mark.parametrize("name", sorted(SVD_USERS))
@pytest.mark.parametrize("bad", ["nan", "inf", "nan_batch", "inf_batch"])
def test_svd_of_non_finite_matrices(torch, name, bad):
    """LAPACK fails on a matrix with a NaN (torch.linalg.LinAlgError naming the batch element)
    and gives NaNs for one with an infinity."""
    outcomes = []
    for L in (minigrad, torch):
        a = np.array([[1.0, 2.0, 2.0], [0.0, 1.0, 1.0]], np.float32)
        a = np.stack([a, a]) if bad.endswith("batch") else a
        a[(-1, 0, 1) if a.ndim == 3 else (0, 1)] = float(bad[:3])
        failure = _failure(lambda: SVD_USERS[name](L, L.tensor(a)))
        if failure is None:
            r = SVD_USERS[name](L, L.tensor(a))
            r = r if isinstance(r, tuple) else (r,)
            failure = [(tuple(t.shape), int(t.isnan().sum())) for t in r]
        outcomes.append(failure)
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("name", ["asin", "acos", "log1p"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [3, 8, 19])
def test_sign_of_nans_outside_the_domain(torch, name, dtype, size):
    """asin(2), acos(2) and float32 log1p(-2): PyTorch's NaN has its sign bit set; a NaN given
    keeps its own sign."""
    data = np.full(size, 2.0 if name != "log1p" else -2.0)
    data[:3] = [np.nan, -np.nan, 0.5 if name != "log1p" else -0.5]
    signs = []
    for L in (minigrad, torch):
        out = getattr(L, name)(L.tensor(data, dtype=getattr(L, dtype)))
        signs.append(np.signbit(out.numpy()).tolist())
    assert signs[0] == signs[1]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("call", ["pow", "pow_", "**"])
def test_sign_of_nans_of_a_square_root_by_pow(torch, dtype, call):
    """x ** 0.5 is PyTorch's sqrt for float32 and float64: a negative number's NaN has its sign
    bit clear (float16 goes through pow, whose NaN has it set)."""
    data = np.array([-0.95, -2.0, 4.0, -np.inf, -0.0])
    signs = []
    for L in (minigrad, torch):
        x = L.tensor(data, dtype=getattr(L, dtype))
        out = {"pow": lambda: x.pow(0.5), "pow_": lambda: x.clone().pow_(0.5), "**": lambda: x ** 0.5}[call]()
        signs.append(np.signbit(out.numpy()).tolist())
    assert signs[0] == signs[1]
