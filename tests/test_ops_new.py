"""The newer operations against PyTorch, over random shapes drawn by hypothesis.

For each case, the same program runs in minigrad and in PyTorch on the same
float64 data: values, ``grad_fn`` names and gradients must agree. Then
minigrad's own ``gradcheck`` (first derivatives against finite differences)
and ``gradgradcheck`` (second derivatives, the backward recorded with
create_graph=True) must pass.

A case is a function of hypothesis' ``data`` returning ``(program, arrays)``:
``program(lib, *tensors)`` gets one tensor per array (all require grad) and
builds anything constant it needs (indices, masks) with ``lib`` itself.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

FEW = settings(max_examples=4, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def shape(data, min_dims=1, max_dims=3, min_side=1, max_side=3):
    return data.draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims,
                                      min_side=min_side, max_side=max_side))


def broadcast_shapes(data, count=2, min_dims=0, max_dims=3):
    return data.draw(hnp.mutually_broadcastable_shapes(
        num_shapes=count, min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=3)).input_shapes


def rng(data):
    return np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))


def values(data, shape_, domain="any"):
    """Distinct float64 numbers (no ties, so sort/topk/max pick the same elements in both libraries)."""
    generator = rng(data)
    n = int(np.prod(shape_))
    if domain == "away":       # away from the jumps of round/floor/% (and from 0)
        base = generator.permutation(n) + generator.uniform(0.2, 0.4, n)
        return (base - n / 2).reshape(shape_) * 0.7
    spread = generator.permutation(n) / max(n, 1) + generator.uniform(0, 0.5 / max(n, 1), n)
    if domain == "positive":
        return (spread + 0.5).reshape(shape_)
    return (2 * spread - 1).reshape(shape_)


def dim_of(data, ndim):
    return data.draw(st.integers(-ndim, ndim - 1)) if ndim else 0


CASES = {}


def case(name):
    def register(make):
        CASES[name] = make
        return make
    return register


# --- running totals and products ------------------------------------------------------------

@case("cumsum")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s))
    return (lambda lib, x: x.cumsum(d)), [values(data, s)]


@case("cumprod")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s))
    return (lambda lib, x: lib.cumprod(x, dim=d)), [values(data, s)]


@case("cumprod_with_zero")
def _(data):
    s = shape(data, min_side=2)
    d = dim_of(data, len(s))
    a = values(data, s)
    a.reshape(-1)[data.draw(st.integers(0, a.size - 1))] = 0.0
    return (lambda lib, x: x.cumprod(d)), [a]


@case("prod_all")
def _(data):
    s = shape(data, max_side=2)
    return (lambda lib, x: x.prod()), [values(data, s, "positive")]


@case("prod_dim_keepdim")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s))
    keep = data.draw(st.booleans())
    return (lambda lib, x: lib.prod(x, d, keepdim=keep)), [values(data, s)]


@case("prod_one_zero")
def _(data):
    s = shape(data, min_side=2, max_side=3)
    a = values(data, s)
    a.reshape(-1)[0] = 0.0
    return (lambda lib, x: x.prod()), [a]


@case("prod_two_zeros_dim")
def _(data):
    a = values(data, (3, 4))
    a[:2, 1] = 0.0
    return (lambda lib, x: x.prod(0)), [a]


# --- gather / scatter ---------------------------------------------------------------------

@case("gather")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s))
    index_shape = tuple(data.draw(st.integers(1, n)) for n in s)
    index = rng(data).integers(0, s[d], index_shape)
    return (lambda lib, x: lib.gather(x, d, lib.tensor(index))), [values(data, s)]


def _permutation_index(data, s, d):
    """Distinct targets along d (a scatter with repeated targets is not deterministic)."""
    generator = rng(data)
    index = np.argsort(generator.uniform(size=s), axis=d)
    return index


@case("scatter_src")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s))
    index = _permutation_index(data, s, d)
    return ((lambda lib, x, src: x.scatter(d, lib.tensor(index), src)),
            [values(data, s), values(data, s)])


@case("scatter_value")
def _(data):
    s = shape(data, min_side=2)
    d = dim_of(data, len(s))
    index = _permutation_index(data, s, d).take(range(1), axis=d % len(s))
    return (lambda lib, x: x.scatter(d, lib.tensor(index), 2.5)), [values(data, s)]


@case("scatter_add")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s))
    index = rng(data).integers(0, s[d], s)           # repeats add up: deterministic
    return ((lambda lib, x, src: lib.scatter_add(x, d, lib.tensor(index), src)),
            [values(data, s), values(data, s)])


@case("index_select")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s))
    index = rng(data).integers(0, s[d], data.draw(st.integers(1, 4)))
    return (lambda lib, x: x.index_select(d, lib.tensor(index))), [values(data, s)]


# --- ordering -----------------------------------------------------------------------------

@case("sort")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s))
    descending = data.draw(st.booleans())
    return (lambda lib, x: lib.sort(x, dim=d, descending=descending).values), [values(data, s)]


@case("sort_indices")
def _(data):
    s = shape(data)
    return (lambda lib, x: x * x.sort(-1)[1].to(x.dtype)), [values(data, s)]


@case("topk")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s))
    k = data.draw(st.integers(1, s[d]))
    largest = data.draw(st.booleans())
    return (lambda lib, x: x.topk(k, dim=d, largest=largest)[0]), [values(data, s)]


@case("roll")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s))
    shift = data.draw(st.integers(-4, 4))
    return (lambda lib, x: lib.roll(x, shift, d)), [values(data, s)]


@case("roll_flat")
def _(data):
    s = shape(data)
    return (lambda lib, x: x.roll(2)), [values(data, s)]


@case("roll_two_dims")
def _(data):
    s = shape(data, min_dims=2)
    return (lambda lib, x: x.roll((1, -2), (0, 1))), [values(data, s)]


# --- einsum and batched products ------------------------------------------------------------

EINSUMS = [("ij,jk->ik", [(2, 3), (3, 4)]), ("ij->j", [(3, 4)]), ("ii->i", [(3, 3)]),
           ("ii", [(3, 3)]), ("ij,ij->", [(2, 3), (2, 3)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
           ("i,j->ij", [(3,), (2,)]), ("...ij,jk->...ik", [(2, 2, 3), (3, 2)]), ("ij", [(2, 3)]),
           ("ji", [(2, 3)]), ("i,i", [(3,), (3,)]), ("ijk->kj", [(2, 3, 2)])]


@case("einsum")
def _(data):
    equation, shapes = data.draw(st.sampled_from(EINSUMS))
    return (lambda lib, *xs: lib.einsum(equation, *xs)), [values(data, s) for s in shapes]


@case("bmm")
def _(data):
    b, n, m, p = (data.draw(st.integers(1, 3)) for _ in range(4))
    return (lambda lib, x, y: lib.bmm(x, y)), [values(data, (b, n, m)), values(data, (b, m, p))]


@case("baddbmm")
def _(data):
    b, n, m, p = (data.draw(st.integers(1, 3)) for _ in range(4))
    beta, alpha = data.draw(st.sampled_from([(1, 1), (0.5, 2.0), (2, -1)]))
    input_shape = data.draw(st.sampled_from([(b, n, p), (n, p), (1, p)]))
    return ((lambda lib, i, x, y: lib.baddbmm(i, x, y, beta=beta, alpha=alpha)),
            [values(data, input_shape), values(data, (b, n, m)), values(data, (b, m, p))])


@case("addmm")
def _(data):
    n, m, p = (data.draw(st.integers(1, 3)) for _ in range(3))
    beta, alpha = data.draw(st.sampled_from([(1, 1), (0.5, 2.0), (3, 1)]))
    input_shape = data.draw(st.sampled_from([(n, p), (p,), (1, p)]))     # input broadcasts
    return ((lambda lib, i, x, y: lib.addmm(i, x, y, beta=beta, alpha=alpha)),
            [values(data, input_shape), values(data, (n, m)), values(data, (m, p))])


# --- activations ----------------------------------------------------------------------------

def _activation(name, **kwargs):
    @case(f"{name}{kwargs or ''}")
    def _(data):
        s = shape(data, min_dims=0)
        scale = 3.0
        return (lambda lib, x: getattr(lib.nn.functional, name)(x * 1.0, **kwargs)), [
            values(data, s) * scale]


_activation("gelu")
_activation("gelu", approximate="tanh")
_activation("silu")
_activation("elu")
_activation("elu", alpha=0.5)
_activation("softplus")
_activation("softplus", beta=2.0, threshold=1.0)


# --- rounding, // and % ------------------------------------------------------------------------

for _name in ("round", "floor", "ceil", "trunc", "frac"):
    def _make(name):
        @case(name)
        def _(data):
            s = shape(data, min_dims=0)
            return (lambda lib, x: getattr(x, name)() * x), [values(data, s, "away")]
    _make(_name)


@case("round_decimals")
def _(data):
    s = shape(data)
    generator = rng(data)
    # tenths plus a little: far from the jumps of rounding to one decimal (at ...05)
    a = generator.integers(-20, 20, s) / 10 + generator.uniform(0.01, 0.03, s)
    return (lambda lib, x: lib.round(x, decimals=1) * x), [a]


@case("remainder_number")
def _(data):
    s = shape(data)
    return (lambda lib, x: x % 1.5), [values(data, s, "away")]


@case("remainder_tensor")
def _(data):
    s1, s2 = broadcast_shapes(data)
    return (lambda lib, x, y: x % (y + 3.0)), [values(data, s1, "away"),
                                                values(data, s2, "positive")]


# --- in-place forms -------------------------------------------------------------------------

INPLACE = ["exp_", "sin_", "cos_", "tanh_", "sigmoid_", "relu_", "abs_", "neg_", "square_",
           "floor_", "frac_"]


@case("inplace_unary")
def _(data):
    s = shape(data, min_dims=0)
    name = data.draw(st.sampled_from(INPLACE))
    return (lambda lib, x: getattr(x * 1.0, name)()), [values(data, s, "away")]


@case("inplace_positive")
def _(data):
    s = shape(data, min_dims=0)
    name = data.draw(st.sampled_from(["sqrt_", "log_", "rsqrt_", "reciprocal_"]))
    return (lambda lib, x: getattr(lib, name)(x * 1.0)), [values(data, s, "positive")]


@case("clamp_inplace")
def _(data):
    s = shape(data)
    return (lambda lib, x: (x * 1.0).clamp_(-0.5, 0.5)), [values(data, s)]


@case("unsqueeze_squeeze_inplace")
def _(data):
    s = shape(data)
    d = dim_of(data, len(s) + 1)
    return (lambda lib, x: (x * 2.0).unsqueeze_(d).exp()), [values(data, s)]


@case("squeeze_inplace")
def _(data):
    s = (1,) + shape(data) + (1,)
    return (lambda lib, x: (x * 2.0).squeeze_().exp()), [values(data, s)]


# --------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------

def _first(out):
    return out[0] if isinstance(out, tuple) else out


def _name(node):
    return None if node is None else node.name().split("::")[-1]


NAME_DIFFERENCES = set()       # operations whose graph may differ from PyTorch's (none now)


@pytest.mark.parametrize("name", sorted(CASES))
@FEW
@given(data=st.data())
def test_against_torch(torch, name, data):
    program, arrays = CASES[name](data)
    ours = [minigrad.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    out_ours = _first(program(minigrad, *ours))
    out_theirs = _first(program(torch, *theirs))
    assert tuple(out_ours.shape) == tuple(out_theirs.shape)
    assert out_ours.dtype.name == str(out_theirs.dtype).replace("torch.", "")
    np.testing.assert_allclose(out_ours.detach().numpy(), out_theirs.detach().numpy(),
                               rtol=1e-10, atol=1e-12)
    if name not in NAME_DIFFERENCES:
        assert _name(out_ours.grad_fn) == _name(out_theirs.grad_fn)
    seed_grad = np.random.default_rng(1).standard_normal(tuple(out_ours.shape))
    out_ours.backward(minigrad.tensor(seed_grad))
    out_theirs.backward(torch.tensor(seed_grad))
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
@FEW
@given(data=st.data())
def test_gradcheck_and_gradgradcheck(name, data):
    program, arrays = CASES[name](data)
    inputs = [minigrad.tensor(a, requires_grad=True) for a in arrays]

    def func(*xs):
        return _first(program(minigrad, *xs))
    assert gradcheck(func, inputs)
    assert gradgradcheck(func, inputs)


# --------------------------------------------------------------------------------------
# Behaviour that is not a derivative
# --------------------------------------------------------------------------------------

def test_integer_floor_divide_and_remainder(torch):
    for lib in (minigrad, torch):
        a = lib.tensor([7, -7, 5])
        assert (a // 2).tolist() == [3, -4, 2]
        assert (a % 3).tolist() == [1, 2, 2]
        assert (7 // lib.tensor([2, -2])).tolist() == [3, -4]
        assert (7 % lib.tensor([2, -3])).tolist() == [1, -2]
        assert str((a // 2).dtype).endswith("int64")


def test_floor_divide_has_no_derivative(torch):
    for lib in (minigrad, torch):
        x = lib.ones(3, requires_grad=True)
        y = x // 2
        assert _name(y.grad_fn) == "NotImplemented"
        with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
            y.sum().backward()


def test_where_with_condition_only(torch):
    a = np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 0.5]])
    ours = minigrad.where(minigrad.tensor(a) > 0.7)
    theirs = torch.where(torch.tensor(a) > 0.7)
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        assert o.tolist() == t.tolist() and o.dtype.name == "int64"


def test_sort_and_topk_return_named_tuples(torch):
    a = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    for lib in (minigrad, torch):
        values, indices = lib.tensor(a).sort(descending=True)
        assert indices.tolist() == [[0, 2, 1], [1, 2, 0]]
        top = lib.tensor(a).topk(2)
        assert type(top).__name__ == "topk" and top.indices.tolist() == [[0, 2], [1, 2]]
        assert type(lib.sort(lib.tensor(a))).__name__ == "sort"


def test_inplace_unary_bumps_version_and_refuses_leaves(torch):
    for lib in (minigrad, torch):
        x = lib.ones(3) * 2
        x.exp_()
        assert x._version == 1
        leaf = lib.ones(3, requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used"):
            leaf.sqrt_()
        with lib.no_grad():
            leaf.sigmoid_()
        assert leaf._version == 1
        y = lib.ones(2, 3)
        y.unsqueeze_(1)
        assert tuple(y.shape) == (2, 1, 3)
        y.squeeze_()
        assert tuple(y.shape) == (2, 3)
        assert lib.relu_(lib.tensor([-1.0, 2.0])).tolist() == [0.0, 2.0]


def test_numpy_style_keywords(torch):
    a = np.arange(6.0).reshape(2, 3)
    for lib in (minigrad, torch):
        x = lib.tensor(a)
        assert tuple(x.sum(axis=0, keepdims=True).shape) == (1, 3)
        assert tuple(lib.mean(x, axis=1).shape) == (2,)
        assert tuple(x.max(axis=1).values.shape) == (2,)
        assert tuple(lib.cumsum(x, axis=1).shape) == (2, 3)
        assert tuple(x.prod(axis=0, keepdims=True).shape) == (1, 3)


def test_tensor_times_numpy_array(torch):
    for lib in (minigrad, torch):
        out = lib.ones(2) * np.ones(2)
        assert isinstance(out, lib.Tensor) and str(out.dtype).endswith("float64")
        out = lib.ones(2, dtype=lib.float64) + np.ones(2, dtype=np.float32)
        assert str(out.dtype).endswith("float64")


def test_del_grad_and_python_dtypes(torch):
    for lib in (minigrad, torch):
        x = lib.ones(2, requires_grad=True)
        x.sum().backward()
        del x.grad
        assert x.grad is None
        assert str(lib.tensor([1], dtype=float).dtype).endswith("float64")
        assert str(lib.tensor([1.5], dtype=int).dtype).endswith("int64")
        assert str(lib.zeros(2, dtype=bool).dtype).endswith("bool")
        assert str(lib.ones(2, dtype=float).dtype).endswith("float64")


def test_creation_keywords_from_d2l(torch):
    for lib in (minigrad, torch):
        assert tuple(lib.randn(size=(), requires_grad=True).shape) == ()
        assert tuple(lib.zeros(size=(2, 3)).shape) == (2, 3)
        w = lib.normal(0, 0.01, size=(3, 1), requires_grad=True)
        assert w.requires_grad and tuple(w.shape) == (3, 1)


def test_functional_inplace_activations(torch):
    for lib in (minigrad, torch):
        F = lib.nn.functional
        for name in ("relu", "leaky_relu", "elu", "silu"):
            x = lib.tensor([-1.0, 2.0], requires_grad=True) * 1.0
            expected = getattr(F, name)(x.detach().clone())
            out = getattr(F, name)(x, inplace=True)
            assert out is x and x._version == 1
            assert x.tolist() == expected.tolist()
            x.sum().backward()
        x = lib.tensor([-1.0, 2.0], requires_grad=True) * 1.0
        assert _name(F.leaky_relu(x, inplace=True).grad_fn) == "LeakyReluBackward1"
        x = lib.tensor([-1.0, 2.0], requires_grad=True) * 1.0
        assert _name(F.relu(x, inplace=True).grad_fn) == "ReluBackward0"
        assert F.relu_(lib.tensor([-1.0, 2.0])).tolist() == [0.0, 2.0]


@pytest.mark.parametrize("program", [
    "x.scatter_(1, lib.tensor([[0], [2]]), 1.5)",
    "x.scatter_(1, lib.tensor([[0], [2]]), w)",
    "x.scatter_add_(1, lib.tensor([[0, 0], [2, 1]]), w.expand(2, 2) * 1.0)",
    "x.index_add_(1, lib.tensor([2, 0]), w.expand(2, 2) * 1.0, alpha=2.0)",
    "x.masked_fill_(x.detach() > 0.5, 0.25)",
    "lib.nn.functional.elu(x, inplace=True)",
])
def test_inplace_positional_writes(torch, program):
    results = []
    for lib in (minigrad, torch):
        base = lib.tensor([[0.1, 0.7, 0.3], [0.9, 0.2, 0.6]], requires_grad=True)
        w = lib.tensor([[2.0], [3.0]], requires_grad=True)
        x = base * 1.0
        eval(program, {"lib": lib, "x": x, "w": w})
        (x * lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
        results.append((x.tolist(), _name(x.grad_fn), x._version, base.grad.tolist(),
                        None if w.grad is None else w.grad.tolist()))
    assert results[0] == results[1]


def test_values_from_pytorch_docs(torch):
    """Examples from PyTorch's documentation of the new ops: same values, dtypes and signs of zero."""
    examples = [
        "lib.gather(lib.tensor([[1, 2], [3, 4]]), 1, lib.tensor([[0, 0], [1, 0]]))",
        "lib.zeros(2, 4, dtype=lib.float64).scatter_(1, lib.tensor([[2], [3]]), 1.23)",
        "lib.full((2, 4), 2.).scatter_(1, lib.tensor([[2], [3]]), 1.23, reduce='multiply')",
        "lib.zeros(3, 5, dtype=lib.int64).scatter_(0, lib.tensor([[0, 1, 2, 0]]), "
        "lib.arange(1, 11).reshape((2, 5)))",
        "lib.topk(lib.arange(1., 6.), 3).values",
        "lib.cumprod(lib.tensor([1., 2., 0., 4.]), dim=0)",
        "lib.round(lib.tensor([4.7, -2.3, 9.1, -7.7, 0.5, 1.5, 2.5]))",
        "lib.round(lib.tensor([1.2345, 12.345]), decimals=2)",
        "lib.roll(lib.tensor([1, 2, 3, 4, 5, 6, 7, 8]).view(4, 2), shifts=(2, 1), dims=(0, 1))",
        "lib.frac(lib.tensor([1, 2.5, -3.2]))",
        "lib.remainder(lib.tensor([-3., -2, -1, 1, 2, 3]), 2)",
        "lib.remainder(lib.tensor([1, 2, 3, 4, 5]), -1.5)",
        "lib.tensor([5., -3.]) % -2",
        "lib.prod(lib.tensor([[1., 2.], [3., 0.]]), 1)",
        "lib.nn.functional.gelu(lib.tensor([-1., 0., 1.]), approximate='tanh')",
        "lib.nn.functional.softplus(lib.tensor([-30., 0., 30.]), beta=2, threshold=10)",
        "lib.baddbmm(lib.ones(3, 1, 2), lib.ones(3, 1, 4), lib.ones(3, 4, 2), beta=0.5, alpha=2)",
        "lib.argsort(lib.tensor([3., 1., 2.]), descending=True)",
    ]
    for example in examples:
        ours = eval(example, {"lib": minigrad})
        theirs = eval(example, {"lib": torch})
        assert ours.dtype.name == str(theirs.dtype).replace("torch.", ""), example
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, err_msg=example)
        assert (np.signbit(ours.numpy()) == np.signbit(theirs.numpy())).all(), example
