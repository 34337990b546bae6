"""Integer tensors with history, and det's gradient at singular matrices, checked against PyTorch.

An integer tensor can get a ``grad_fn``: ``x.ge_(a)`` with ``a`` requiring grad records the
change (GeBackward1), although integers have no gradient. What PyTorch does with such a tensor
depends on how each operation is recorded:

* an operation with a derivative formula refuses an integer result ("Autograd not support
  dtype: Long"), and so does the copy of the old values an in-place change saves for backward,
  which comes before the operation's own checks (``x.renorm_(...)`` of a vector);
* an operation without a formula (PyTorch's fallback node, ``NotImplemented``: heaviside,
  detach_copy, floor_divide) gives an integer result no history, and leaves an integer tensor
  changed in place with the history it had;
* composite operations record their steps: ``special.ndtr(x)`` multiplies x by a number first
  (MulBackward1), ``where(c, x, 0.5)`` converts x to the result's dtype (ToCopyBackward0).

The survey runs every operation of the random-program test's tables on such a tensor (and with
it as the other operand) in both libraries and compares grad_fn names, next_functions, flags,
dtypes, values, versions and the exception class and message.
"""
import warnings

import numpy as np
import pytest

import minigrad
from test_fuzz_vs_torch import BINARY, INPLACE, INPLACE_BINARY, UNARY, VIEWS, Run, assert_same_state


def _message(error):
    """PyTorch's message, without the line of advice minigrad adds for learners."""
    return str(error).split("\nminigrad hint:")[0]


# --- 1. the survey: every operation of the random-program test on an integer tensor with history --
# Slots: 0 a float leaf requiring grad, 1 an integer tensor that x.ge_(slot 0) gave history,
# 2 an integer tensor without history.

def _program(shape):
    return [("leaf", shape, 0, False, True), ("leaf_int", shape, (1,), False, False),
            ("inplace_binary", "ge_t_", (1, 0), False, False), ("leaf_int", shape, (2,), False, False)]


def _survey_cases():
    cases = []
    for shape, patterns in (((3,), [(1, 1), (1, 0), (0, 1), (1, 2), (2, 1)]),
                            ((2, 3), [(1, 1), (1, 0), (0, 1)]), ((), [(1, 1), (1, 0), (0, 1)])):
        for kind, table in (("unary", UNARY), ("view", VIEWS), ("inplace", INPLACE)):
            cases += [(shape, kind, name, (1,)) for name in sorted(table)]
        for kind, table in (("binary", BINARY), ("inplace_binary", INPLACE_BINARY)):
            cases += [(shape, kind, name, args) for name in sorted(table) for args in patterns]
    return cases


@pytest.mark.parametrize("shape,kind,name,args", _survey_cases(),
                         ids=lambda v: str(v).replace(" ", ""))
def test_operation_on_integers_with_history(torch, shape, kind, name, args):
    ours, theirs = Run(minigrad), Run(torch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in _program(shape) + [(kind, name, args, False, False)]:
            mine, ref = ours.step(*step), theirs.step(*step)
            assert mine[0] == ref[0], f"{step}: minigrad {mine!r}, torch {ref!r}"
            if ref[0] == "error":
                assert (type(mine[1]).__name__, _message(mine[1])) == \
                    (type(ref[1]).__name__, _message(ref[1])), step
            else:
                assert mine[1] == ref[1], step
            assert_same_state(ours, theirs)


# --- 2. the cases by name, and what a wider look at Tensor's methods found ----------------------

def _with_history(L, values=(1, 2, 0), leaf=(1.5, -0.5, 2.0)):
    """(x, a): an int64 x that x.ge_(a) gave history, and the float leaf a."""
    a = L.tensor(list(leaf), requires_grad=True)
    x = L.tensor(list(values))
    x.ge_(a)
    return x, a


CASES = {
    # no formula (PyTorch's fallback): integer results get no history; in place, x keeps its own
    "heaviside": lambda L, x, a: L.heaviside(x, x),
    "heaviside_values": lambda L, x, a: L.heaviside(L.tensor([0, 3, 1]), x),
    "heaviside_": lambda L, x, a: x.heaviside_(L.tensor([0, 3, 1])),
    "heaviside_of_plain": lambda L, x, a: L.tensor([0, 3, 1]).heaviside_(x),
    "detach_copy": lambda L, x, a: L.detach_copy(x),
    "floor_divide": lambda L, x, a: x // L.tensor([1, 3, 2]),
    "floor_divide_": lambda L, x, a: x.floor_divide_(L.tensor([1, 3, 2])),
    "bincount_weights": lambda L, x, a: L.tensor([0, 1, 1]).bincount(x),
    "bincount_of_x": lambda L, x, a: x.bincount(a),
    "bincount_both": lambda L, x, a: x.bincount(x),
    # composite operations record their steps
    "ndtr": lambda L, x, a: L.special.ndtr(x),
    "where_number": lambda L, x, a: L.where(x > 0, x, 0.5),
    "where_number_first": lambda L, x, a: L.where(x > 0, 1.5, x),
    "where_method": lambda L, x, a: x.where(x > 0, 0.0),
    "where_int_number": lambda L, x, a: L.where(x > 0, x, 1),
    "where_tensor": lambda L, x, a: L.where(x > 0, x, a),
    "lerp_0d_weight": lambda L, x, a: L.lerp(x, L.tensor([3, 4, 5]), a[0]),
    "take_along_dim_float_indices": lambda L, x, a: x.take_along_dim(a),
    # formulas refuse integer results, also of unique
    "unique": lambda L, x, a: x.unique(),
    "unique_consecutive": lambda L, x, a: x.unique_consecutive(),
    "unique_dim": lambda L, x, a: L.unique(x, dim=0, return_counts=True),
    "requires_grad_": lambda L, x, a: x.requires_grad_(),
    # in place: autograd's copy of the old values comes before the operation's own checks
    "renorm_vector": lambda L, x, a: x.renorm_(1, 0, 0.5),
    "renorm_bad_p": lambda L, x, a: x.renorm_(-1, 0, 0.5),
    "lerp_tensor_weight": lambda L, x, a: x.lerp_(L.tensor([3, 4, 5]), a),
    "lerp_number_weight": lambda L, x, a: x.lerp_(a, 0.5),
    "nextafter_": lambda L, x, a: x.nextafter_(a),
    "nextafter_plain_self": lambda L, x, a: L.tensor([1, 2, 3]).nextafter_(x),
    "scatter_reduce_": lambda L, x, a: x.scatter_reduce_(0, L.tensor([0]), a[:1].detach(), "amax"),
    "clamp_without_bounds": lambda L, x, a: x.clamp_(),
    "clip_without_bounds": lambda L, x, a: x.clip_(),
    "clamp_min_short": lambda L, x, a: x.clamp_min_(a[:2]),
    "pow_short": lambda L, x, a: x.pow_(L.tensor([1, 2])),
    "atan2_short": lambda L, x, a: x.atan2_(L.tensor([1, 2])),
    "mul_short": lambda L, x, a: x.mul_(L.tensor([1, 2])),
    "cumprod_bad_dim": lambda L, x, a: x.cumprod_(1),
    "cumprod_dtype": lambda L, x, a: x.cumprod_(0, dtype=L.float32),
    "cumsum_bad_dim": lambda L, x, a: x.cumsum_(1),
    "mvlgamma_bad_p": lambda L, x, a: x.mvlgamma_(0),
    "polygamma_negative_n": lambda L, x, a: x.polygamma_(-1),
    "abs_": lambda L, x, a: x.abs_(),
    "neg_": lambda L, x, a: x.neg_(),
    "bernoulli": lambda L, x, a: x.bernoulli(),
    "bernoulli_integer_p": lambda L, x, a: x.bernoulli_(x),
    # in-place layout changes: the layout changes and a version is counted, then the refusal
    "t_": lambda L, x, a: x.t_(),
    "unsqueeze_": lambda L, x, a: x.unsqueeze_(0),
    "squeeze_": lambda L, x, a: x.squeeze_(),
    "transpose_": lambda L, x, a: x.transpose_(0, -1),
    "as_strided_": lambda L, x, a: x.as_strided_((1,), (1,)),
}


def _seen(L, value):
    """What a learner sees of a result: dtype, shape, flags, node, edges, values."""
    if isinstance(value, tuple):
        return tuple(_seen(L, v) for v in value)
    if not isinstance(value, L.Tensor):
        return value
    node = value.grad_fn
    edges = None if node is None else tuple(
        (n.name().split("::")[-1] if n is not None else None, nr) for n, nr in node.next_functions)
    return (str(value.dtype), tuple(value.shape), value.requires_grad, value.is_leaf,
            None if node is None else node.name().split("::")[-1], edges,
            value.detach().numpy().tobytes() if "float" in str(value.dtype) else value.tolist())


def _outcome(L, case):
    x, a = _with_history(L)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            seen = ("ok", _seen(L, CASES[case](L, x, a)))
        except Exception as error:      # noqa: BLE001 - the class and message are compared
            seen = ("error", type(error).__name__, _message(error))
    return seen, _seen(L, x), x._version, x.stride()


@pytest.mark.parametrize("case", sorted(set(CASES) - {"bernoulli_integer_p"}))
def test_named_case(torch, case):
    assert _outcome(minigrad, case) == _outcome(torch, case)


def test_bernoulli_refuses_integer_probabilities(torch):
    """(its draws differ: only the refusal is compared)"""
    for L in (minigrad, torch):
        L.manual_seed(0)
    assert _outcome(minigrad, "bernoulli_integer_p") == _outcome(torch, "bernoulli_integer_p")
    ours, theirs = (L.tensor([0, 1]) for L in (minigrad, torch))
    for p in ((minigrad.tensor([0, 1]), torch.tensor([0, 1])),
              (minigrad.tensor([True, False]), torch.tensor([True, False]))):
        outcomes = []
        for L, t, q in ((minigrad, ours, p[0]), (torch, theirs, p[1])):
            with pytest.raises(NotImplementedError) as caught:
                L.zeros(2).bernoulli_(q)
            outcomes.append(str(caught.value))
        assert outcomes[0] == outcomes[1]


ZERO_D_CASES = {
    "squeeze_dim": lambda x: x.squeeze_(1),
    "squeeze_dims": lambda x: x.squeeze_((0, 1)),
    "sort_dim": lambda x: x.sort(1),
    "argsort_dim": lambda x: x.argsort(1),
    "flatten_start": lambda x: x.flatten(1),
    "flatten_end": lambda x: x.flatten(0, 1),
    "roll_by_itself": lambda x: x.roll(x),
    "roll_by_0d_integer": lambda x: x.roll(x.detach().long()),
}


@pytest.mark.parametrize("kind", ["integer_with_history", "float_result", "plain"])
@pytest.mark.parametrize("case", sorted(ZERO_D_CASES))
def test_0d_tensor_with_a_dim_out_of_range(torch, case, kind):
    """A 0-d tensor takes only dim -1 or 0: PyTorch checks it before anything is recorded (or
    refused), and reads a 0-d integer tensor of shifts as its number."""
    def outcome(L):
        a = L.tensor(1.5, requires_grad=True)
        if kind == "integer_with_history":
            x = L.tensor(1)
            x.ge_(a)
        else:
            x = a * 1 if kind == "float_result" else L.tensor(1.5)
        try:
            seen = ("ok", _seen(L, ZERO_D_CASES[case](x)))
        except Exception as error:      # noqa: BLE001
            seen = ("error", type(error).__name__, _message(error))
        return seen, _seen(L, x), x._version
    assert outcome(minigrad) == outcome(torch)


@pytest.mark.parametrize("weight", [0.5, 0.3, 0.7])
@pytest.mark.parametrize("dtypes", [("int64", "int64", "float32"), ("int64", "int64", "float64"),
                                    ("bool", "bool", "float32"), ("float32", "float32", "float64"),
                                    ("float32", "float32", "int64"), ("int64", "int64", "bool")])
@pytest.mark.parametrize("ndim", [0, 1])
def test_lerp_promotes_a_0d_weight(torch, weight, dtypes, ndim):
    """lerp(input, end, weight) with a 0-d weight of another dtype: the three take part in the
    type promotion (integers and a float weight give floats), computed in the result's dtype."""
    def outcome(L):
        start, end = ([1, 2, 7], [3, 4, -5]) if ndim else (1, 3)
        start = L.tensor(start).to(getattr(L, dtypes[0]))
        end = L.tensor(end).to(getattr(L, dtypes[1]))
        w = L.tensor(weight if dtypes[2] != "int64" else 1).to(getattr(L, dtypes[2]))
        try:
            out = L.lerp(start, end, w)
        except Exception as error:      # noqa: BLE001
            return type(error).__name__, str(error)
        return str(out.dtype), out.numpy().tobytes()
    assert outcome(minigrad) == outcome(torch)


# --- 3. det's gradient at a singular matrix: the signs of its zeros --------------------------------
# Without create_graph PyTorch solves A^T X = diag(grad * det) with the LU factors of the forward
# pass, a diagonal element that is exactly 0 replaced by eps: at a singular matrix det is +-0, and
# X's zeros take their signs from that solve's order of operations.

SINGULAR = {
    "rank_1": [[1., 2., 3.], [2., 4., 6.], [3., 6., 9.]],
    "rank_2": [[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]],
    "zero_row": [[1., 2., 3.], [0., 0., 0.], [7., 8., 10.]],
    "zero_column": [[0., 2.], [0., 4.]],
    "zeros": [[0., 0., 0.], [0., 0., 0.], [0., 0., 0.]],
    "rank_1_2x2": [[1., 2.], [2., 4.]],
    "negative_0_det": [[-1., 2.], [0.5, -1.]],
    "rank_2_4x4": [[1., 0., 0., 0.], [0., 1., 0., 0.], [0., 0., 0., 0.], [0., 0., 0., 0.]],
    "rank_2_pivots": [[4., 6., -6.], [-5., -3., 4.], [-2., -3., 3.]],
    "zero_row_4x4": [[-6., -4., -2., 0.], [-10., -9., -3., -1.], [0., 0., 0., 0.], [4., -2., 2., -2.]],
    "rank_1_4x4": [[0., 0., 0., 0.], [3., 3., -3., 9.], [1., 1., -1., 3.], [2., 2., -2., 6.]],
}


def _det_gradient(L, matrix, dtype, transposed=False, grad_scale=1.0):
    A = L.tensor(matrix, dtype=getattr(L, dtype))
    A = (A.mT.contiguous().mT if transposed else A).requires_grad_()
    (L.linalg.det(A) * grad_scale).sum().backward()
    g = A.grad.numpy()
    return g.tolist(), np.signbit(g).tolist(), A.grad.stride()


@pytest.mark.parametrize("grad_scale", [1.0, -2.0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(SINGULAR))
def test_det_gradient_at_singular_matrix(torch, name, dtype, grad_scale):
    ours = _det_gradient(minigrad, SINGULAR[name], dtype, grad_scale=grad_scale)
    assert ours == _det_gradient(torch, SINGULAR[name], dtype, grad_scale=grad_scale)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_det_gradient_of_a_batch_of_singular_matrices(torch, dtype):
    batch = [SINGULAR["rank_1"], SINGULAR["zero_row"], SINGULAR["rank_2_pivots"]]
    assert _det_gradient(minigrad, batch, dtype) == _det_gradient(torch, batch, dtype)


def test_det_gradient_of_singular_integer_matrices(torch):
    """Rank-deficient matrices of small integers (products B @ C of lower rank), some with a
    row of zeros, whose LU factors are LAPACK's to the last bit and hold no -0.0 (see the
    README for those): the gradients are PyTorch's, signs of zero included."""
    from minigrad._ops.decompositions import lu_factor
    rng = np.random.default_rng(0)
    checked = 0
    for t in range(90):
        n = int(rng.integers(2, 5))
        r = int(rng.integers(0, n))
        M = rng.integers(-3, 4, size=(n, r)).astype(float) @ rng.integers(-3, 4, size=(r, n)).astype(float)
        if t % 3 == 0:
            M[rng.integers(0, n)] = 0
        for dtype in ("float32", "float64"):
            A = torch.tensor(M, dtype=getattr(torch, dtype))
            theirs = torch.linalg.lu_factor_ex(A.mT)[0].numpy()
            ours = lu_factor(M.T.astype(theirs.dtype))[0]
            if (torch.linalg.det(A).item() != 0 or not np.array_equal(ours, theirs)
                    or np.any(np.signbit(ours) != np.signbit(theirs)) or np.any(np.signbit(ours) & (ours == 0))):
                continue
            assert _det_gradient(minigrad, M.tolist(), dtype) == _det_gradient(torch, M.tolist(), dtype), M.tolist()
            checked += 1
    assert checked > 60
