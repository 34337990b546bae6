"""aminmax, logcumsumexp, select_scatter, slice_scatter, diagonal_scatter, narrow_copy vs PyTorch:
values, dtypes, grad_fn names and edges, saved values, gradients (first and second order), errors."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck


def _both(torch, array, requires_grad=True):
    """The same float64 tensor in minigrad and in PyTorch."""
    return (minigrad.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def _same(mine, theirs):
    assert str(mine.dtype) == str(theirs.dtype)
    assert tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-12, atol=1e-12)


def _saved(node):
    return {name: getattr(node, name) for name in dir(node) if name.startswith("_saved_")}


def _same_saved(mine, theirs):
    m, t = _saved(mine), _saved(theirs)
    assert sorted(m) == sorted(t)
    for name in t:
        if hasattr(t[name], "shape"):
            _same(m[name], t[name])
        else:
            assert m[name] == t[name], name


def _raises_same(torch, call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as mine:
        call(minigrad)
    assert str(mine.value) == str(theirs.value)


def _names_of_edges(node):
    return [(None if n is None else type(n).__name__ if not hasattr(n, "name") else n.name(), nr)
            for n, nr in node.next_functions]


# --- aminmax -------------------------------------------------------------------------------

TIES = np.array([[1., 3., 3., 1.], [2., 2., 2., 2.], [0., -1., 5., 4.]])


@pytest.mark.parametrize("kwargs", [{}, {"dim": 1}, {"dim": -1, "keepdim": True}, {"dim": 0},
                                    {"keepdim": True}])
def test_aminmax_values_nodes_saved_and_grads(torch, kwargs):
    mx, tx = _both(torch, TIES)
    mine, theirs = minigrad.aminmax(mx, **kwargs), torch.aminmax(tx, **kwargs)
    assert type(mine) is minigrad.return_types.aminmax and type(mine).__name__ == type(theirs).__name__
    for m, t in ((mine.min, theirs.min), (mine.max, theirs.max)):
        _same(m, t)
        assert m.grad_fn.name() == t.grad_fn.name() == "AminmaxBackward0"
    assert mine.max.grad_fn is mine.min.grad_fn
    assert _names_of_edges(mine.min.grad_fn) == _names_of_edges(theirs.min.grad_fn)
    _same_saved(mine.min.grad_fn, theirs.min.grad_fn)
    weights = np.arange(1., 1 + theirs.min.numel()).reshape(theirs.min.shape)
    (mine.min * minigrad.tensor(weights) + mine.max * 100).sum().backward()
    (theirs.min * torch.tensor(weights) + theirs.max * 100).sum().backward()
    _same(mx.grad, tx.grad)


def test_aminmax_one_result_used_and_method(torch):
    mx, tx = _both(torch, TIES)
    mx.aminmax(dim=0).max.sum().backward()
    tx.aminmax(dim=0).max.sum().backward()
    _same(mx.grad, tx.grad)
    assert repr(minigrad.aminmax(minigrad.tensor([1, 5, 2]))) == repr(torch.aminmax(torch.tensor([1, 5, 2])))


def test_aminmax_gradcheck():
    x = minigrad.tensor(np.random.default_rng(0).standard_normal((3, 4)), requires_grad=True)
    assert gradcheck(lambda t: minigrad.aminmax(t, dim=1), (x,))
    assert gradgradcheck(lambda t: minigrad.aminmax(t, dim=0, keepdim=True), (x,))
    assert gradcheck(lambda t: minigrad.aminmax(t), (x,))


@pytest.mark.parametrize("call", [
    lambda t: t.aminmax(t.empty(0)),
    lambda t: t.aminmax(t.empty(2, 0), dim=1),
    lambda t: t.aminmax(t.ones(2, 3), dim=2),
])
def test_aminmax_errors(torch, call):
    _raises_same(torch, call)


# --- logcumsumexp ---------------------------------------------------------------------------

@pytest.mark.parametrize("array, dim", [
    (np.array([[1., 3., -2., 1.], [2., 700., 2., 2.]]), -1),
    (np.array([[1., 3., -2., 1.], [2., 700., 2., 2.]]), 0),
    (np.array([-np.inf, 1., 2.]), 0),
    (np.array(2.5), 0),
    (np.ones((1, 3)), 0),
])
def test_logcumsumexp_values_saved_and_grads(torch, array, dim):
    mx, tx = _both(torch, array)
    mine, theirs = minigrad.logcumsumexp(mx, dim), torch.logcumsumexp(tx, dim)
    _same(mine, theirs)
    assert mine.grad_fn.name() == theirs.grad_fn.name() == "LogcumsumexpBackward0"
    assert _names_of_edges(mine.grad_fn) == _names_of_edges(theirs.grad_fn)
    _same_saved(mine.grad_fn, theirs.grad_fn)
    weights = np.arange(-1., theirs.numel() - 1.).reshape(theirs.shape)
    (mg,) = minigrad.autograd.grad((mine * minigrad.tensor(weights)).sum(), mx, create_graph=True)
    (tg,) = torch.autograd.grad((theirs * torch.tensor(weights)).sum(), tx, create_graph=True)
    _same(mg, tg)
    assert (mg.grad_fn is None) == (tg.grad_fn is None)
    if tg.grad_fn is not None:
        assert mg.grad_fn.name() == tg.grad_fn.name()


def test_logcumsumexp_special_values_and_method(torch):
    values = [-np.inf, -np.inf, 1., np.inf, np.nan]
    _same(minigrad.tensor(values).logcumsumexp(0), torch.tensor(values).logcumsumexp(0))


def test_logcumsumexp_gradcheck():
    x = minigrad.tensor(np.random.default_rng(1).standard_normal((3, 4)), requires_grad=True)
    assert gradcheck(lambda t: minigrad.logcumsumexp(t, 0), (x,))
    assert gradgradcheck(lambda t: t.logcumsumexp(-1), (x,))


@pytest.mark.parametrize("call", [
    lambda t: t.logcumsumexp(t.tensor([1, 2]), 0),
    lambda t: t.logcumsumexp(t.tensor([True]), 0),
    lambda t: t.logcumsumexp(t.ones(2), 1),
    lambda t: t.logcumsumexp(t.ones(2)),
])
def test_logcumsumexp_errors(torch, call):
    _raises_same(torch, call)


# --- select_scatter, slice_scatter, diagonal_scatter, narrow_copy ------------------------------

SCATTERS = [
    ("select_scatter", (3, 4), (4,), (0, -1)),
    ("select_scatter", (3, 4), (3,), (-1, 2)),
    ("slice_scatter", (3, 4), (3, 2), (1, 1, None, 2)),
    ("slice_scatter", (3, 4), (3, 4), ()),
    ("slice_scatter", (3, 4), (2, 4), (-2, -2)),
    ("slice_scatter", (3, 4), (3, 1), (1, -1, 7)),
    ("diagonal_scatter", (3, 4), (2,), (-1,)),
    ("diagonal_scatter", (3, 4), (2,), (1, 1, 0)),
    ("diagonal_scatter", (2, 3, 4), (3, 2), (0, -1, 0)),
]


def _pair_of_inputs(torch, self_shape, src_shape, seed=2):
    rng = np.random.default_rng(seed)
    return _both(torch, rng.standard_normal(self_shape)), _both(torch, rng.standard_normal(src_shape))


@pytest.mark.parametrize("name, self_shape, src_shape, args", SCATTERS)
def test_scatter_values_nodes_saved_and_grads(torch, name, self_shape, src_shape, args):
    (mx, tx), (ms, ts) = _pair_of_inputs(torch, self_shape, src_shape)
    mine, theirs = getattr(minigrad, name)(mx, ms, *args), getattr(torch, name)(tx, ts, *args)
    _same(mine, theirs)
    assert mine.is_contiguous() == theirs.is_contiguous()
    assert mine.grad_fn.name() == theirs.grad_fn.name()
    assert _names_of_edges(mine.grad_fn) == _names_of_edges(theirs.grad_fn)
    _same_saved(mine.grad_fn, theirs.grad_fn)
    v = np.random.default_rng(3).standard_normal(theirs.shape)
    mv, tv = _both(torch, v)
    mine_grads = minigrad.autograd.grad(mine, (mx, ms), mv, create_graph=True)
    their_grads = torch.autograd.grad(theirs, (tx, ts), tv, create_graph=True)
    for m, t in zip(mine_grads, their_grads):
        _same(m, t)
        assert m.grad_fn.name() == t.grad_fn.name()
        assert _names_of_edges(m.grad_fn) == _names_of_edges(t.grad_fn)
    # only src requires grad
    plain = getattr(minigrad, name)(mx.detach(), ms, *args)
    assert _names_of_edges(plain.grad_fn) == _names_of_edges(getattr(torch, name)(tx.detach(), ts, *args).grad_fn)


@pytest.mark.parametrize("name, self_shape, src_shape, args", SCATTERS)
def test_scatter_gradcheck(name, self_shape, src_shape, args):
    rng = np.random.default_rng(4)
    x = minigrad.tensor(rng.standard_normal(self_shape), requires_grad=True)
    s = minigrad.tensor(rng.standard_normal(src_shape), requires_grad=True)
    function = getattr(minigrad, name)
    assert gradcheck(lambda a, b: function(a, b, *args), (x, s))
    assert gradgradcheck(lambda a, b: function(a, b, *args), (x, s))


def test_scatter_methods_and_dtype(torch):
    ints = [[1, 1, 1], [2, 2, 2]]
    _same(minigrad.tensor(ints).select_scatter(minigrad.tensor([7., 8., 9.]), 0, 1),
          torch.tensor(ints).select_scatter(torch.tensor([7., 8., 9.]), 0, 1))
    _same(minigrad.tensor(ints).slice_scatter(minigrad.tensor([[0], [0]]), 1, 2),
          torch.tensor(ints).slice_scatter(torch.tensor([[0], [0]]), 1, 2))
    _same(minigrad.tensor(ints).diagonal_scatter(minigrad.tensor([5, 6]), 1),
          torch.tensor(ints).diagonal_scatter(torch.tensor([5, 6]), 1))
    _same(minigrad.tensor(ints).narrow_copy(1, 1, 2), torch.tensor(ints).narrow_copy(1, 1, 2))


@pytest.mark.parametrize("dim, start, length", [(1, -3, 2), (0, 1, 2), (-1, 0, 4), (1, 4, 0)])
def test_narrow_copy(torch, dim, start, length):
    array = np.random.default_rng(5).standard_normal((3, 4))
    mx, tx = _both(torch, array)
    mine, theirs = minigrad.narrow_copy(mx, dim, start, length), torch.narrow_copy(tx, dim, start, length)
    _same(mine, theirs)
    assert mine.is_contiguous() and mine._base is None
    assert mine.grad_fn.name() == theirs.grad_fn.name() == "NarrowCopyBackward0"
    _same_saved(mine.grad_fn, theirs.grad_fn)
    mv, tv = _both(torch, np.ones(theirs.shape) * 2)
    (mg,) = minigrad.autograd.grad(mine, mx, mv, create_graph=True)
    (tg,) = torch.autograd.grad(theirs, tx, tv, create_graph=True)
    _same(mg, tg)
    assert mg.grad_fn.name() == tg.grad_fn.name()
    x = minigrad.tensor(array, requires_grad=True)
    assert gradcheck(lambda t: t.narrow_copy(dim, start, length), (x,))
    assert gradgradcheck(lambda t: t.narrow_copy(dim, start, length), (x,))


@pytest.mark.parametrize("call", [
    lambda t: t.select_scatter(t.ones(2, 3), t.zeros(2), 0, 0),
    lambda t: t.select_scatter(t.ones(2, 3), t.zeros(3), 0, 5),
    lambda t: t.select_scatter(t.ones(2, 3), t.zeros(3), 0, -3),
    lambda t: t.select_scatter(t.ones(2, 3), t.zeros(3), 2, 0),
    lambda t: t.slice_scatter(t.ones(2, 3), t.zeros(2, 2)),
    lambda t: t.slice_scatter(t.ones(2, 3), t.zeros(2, 2), 1, 0, 4, 0),
    lambda t: t.slice_scatter(t.ones(2, 3), t.zeros(2, 2), 1, 0, 4, -1),
    lambda t: t.slice_scatter(t.ones(2, 3), t.zeros(2, 2), 3),
    lambda t: t.diagonal_scatter(t.ones(2, 3), t.zeros(3)),
    lambda t: t.diagonal_scatter(t.ones(2, 3), t.zeros(2), 0, 0, 0),
    lambda t: t.diagonal_scatter(t.ones(3), t.zeros(0)),
    lambda t: t.narrow_copy(t.ones(2, 3), 1, 2, 2),
    lambda t: t.narrow_copy(t.ones(2, 3), 1, -4, 2),
    lambda t: t.narrow_copy(t.ones(2, 3), 1, 0, -1),
    lambda t: t.narrow_copy(t.tensor(1.), 0, 0, 1),
    lambda t: t.narrow_copy(t.ones(2, 3), 2, 0, 1),
    lambda t: t.narrow_copy(t.ones(2, 3), -3, 0, 1),
])
def test_scatter_errors(torch, call):
    _raises_same(torch, call)


# --- forward mode ------------------------------------------------------------------------------

FORWARD_CASES = [
    ("logcumsumexp", lambda t, x, s: t.logcumsumexp(x, 1)),
    ("logcumsumexp", lambda t, x, s: t.logcumsumexp(x, 0)),
    ("select_scatter", lambda t, x, s: t.select_scatter(x, s, 0, 1)),
    ("slice_scatter", lambda t, x, s: t.slice_scatter(x, s[:2].reshape(1, 2).expand(3, 2), 1, 0, None, 2)),
    ("diagonal_scatter", lambda t, x, s: t.diagonal_scatter(x, s[:3])),
    ("narrow_copy", lambda t, x, s: t.narrow_copy(x, 1, 1, 2)),
    ("aminmax", lambda t, x, s: t.aminmax(x, dim=1)),
    ("aminmax", lambda t, x, s: t.aminmax(x)),
    ("aminmax", lambda t, x, s: t.aminmax(x.round(), dim=0, keepdim=True)),
]


@pytest.mark.parametrize("name, call", FORWARD_CASES)
def test_forward_mode_tangents(torch, name, call):
    rng = np.random.default_rng(6)
    arrays = [rng.standard_normal(shape) for shape in ((3, 4), (3, 4), (4,), (4,))]
    tangents = []
    for lib in (minigrad, torch):
        x, tx, s, ts = (lib.tensor(a) for a in arrays)
        with lib.autograd.forward_ad.dual_level():
            out = call(lib, lib.autograd.forward_ad.make_dual(x, tx),
                       lib.autograd.forward_ad.make_dual(s, ts))
            outs = out if isinstance(out, tuple) else (out,)
            tangents.append([lib.autograd.forward_ad.unpack_dual(o).tangent for o in outs])
    for m, t in zip(*tangents):
        _same(m, t)


@pytest.mark.parametrize("call", [
    lambda t: t.aminmax(t.ones(2), dim=1.5),
    lambda t: t.ones(2).aminmax(dim=1.5),
    lambda t: t.aminmax([1.]),
    lambda t: t.logcumsumexp(t.ones(2), 1.5),
    lambda t: t.logcumsumexp(t.ones(2), dim=1.5),
    lambda t: t.ones(2).logcumsumexp(1.5),
    lambda t: t.select_scatter(t.ones(2), 1., 0, 1),
    lambda t: t.ones(2).select_scatter(1., 0, 1),
    lambda t: t.select_scatter(t.ones(2), t.tensor(1.), 0.5, 1),
    lambda t: t.slice_scatter(t.ones(2), 1.),
    lambda t: t.ones(2).slice_scatter(1.),
    lambda t: t.diagonal_scatter(t.ones(2, 2), [1., 2.]),
    lambda t: t.ones(2, 2).diagonal_scatter([1., 2.]),
    lambda t: t.narrow_copy(t.ones(2), 0, 0.5, 1),
    lambda t: t.ones(2).narrow_copy(0, 0.5, 1),
])
def test_argument_type_errors(torch, call):
    _raises_same(torch, call)


def test_explicit_none_dim_and_tensor_start(torch):
    _same(minigrad.aminmax(minigrad.ones(2, 3), dim=None, keepdim=True).max,
          torch.aminmax(torch.ones(2, 3), dim=None, keepdim=True).max)
    _same(minigrad.narrow_copy(minigrad.ones(2, 3), 1, minigrad.tensor(1), 1),
          torch.narrow_copy(torch.ones(2, 3), 1, torch.tensor(1), 1))


@pytest.mark.parametrize("name, call", [
    ("logcumsumexp", lambda t, x, s: t.logcumsumexp(x, 1)),
    ("select_scatter", lambda t, x, s: t.select_scatter(x, s, 0, 1)),
    ("slice_scatter", lambda t, x, s: t.slice_scatter(x, s[None, :2].expand(3, 2), 1, 0, None, 2)),
    ("diagonal_scatter", lambda t, x, s: t.diagonal_scatter(x, s[:3])),
    ("narrow_copy", lambda t, x, s: t.narrow_copy(x, 1, 1, 2)),
    ("aminmax", lambda t, x, s: t.aminmax(x, dim=1).max),
])
def test_vmap_and_grad(torch, name, call):
    rng = np.random.default_rng(7)
    arrays = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4))
    results = []
    for lib in (minigrad, torch):
        x, s = (lib.tensor(a) for a in arrays)
        values = lib.func.vmap(lambda a, b: call(lib, a, b))(x, s)
        grads = lib.func.vmap(lib.func.grad(lambda a, b: call(lib, a, b).sum(), argnums=(0, 1)))(x, s)
        results.append((values, *grads))
    for m, t in zip(*results):
        _same(m, t)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logcumsumexp_to_the_last_bit(torch, dtype):
    array = (np.random.default_rng(8).standard_normal((20, 30)) * 5).astype(dtype)
    mine = minigrad.logcumsumexp(minigrad.tensor(array), 1)
    theirs = torch.logcumsumexp(torch.tensor(array), 1)
    assert str(mine.dtype) == str(theirs.dtype)
    assert mine.numpy().tobytes() == theirs.numpy().tobytes()


@pytest.mark.parametrize("kwargs", [{"dim": 1}, {}, {"dim": 0, "keepdim": True}])
def test_aminmax_second_order_nodes(torch, kwargs):
    found = []
    for lib in (minigrad, torch):
        x = lib.tensor([[1., 3., 3.], [2., 0., 2.]], dtype=lib.float64, requires_grad=True)
        r = lib.aminmax(x, **kwargs)
        v = lib.ones(r.min.shape, dtype=lib.float64, requires_grad=True)
        for outputs, grads in (((r.min, r.max), (v, v * 2)), ((r.min,), (v,)), ((r.max,), (v,))):
            (g,) = lib.autograd.grad(outputs, x, grads, create_graph=True, retain_graph=True)
            found.append((g.tolist(), g.grad_fn.name(), _names_of_edges(g.grad_fn)))
    half = len(found) // 2
    assert found[:half] == found[half:]


@pytest.mark.parametrize("scatter", [
    lambda L, x, s: x.clone().scatter_(0, L.tensor([0]), 2.0, reduce="multiply"),
    lambda L, x, s: x.clone().scatter_(0, L.tensor([0]), s, reduce="add"),
    lambda L, x, s: x.detach().scatter(0, L.tensor([0]), s, reduce="multiply"),
    lambda L, x, s: x.scatter(0, L.tensor([0]), s.detach(), reduce="add"),
    lambda L, x, s: L.ones(3).scatter_(0, L.tensor([0]), s, reduce="add"),
])
def test_scatter_with_reduce_records_edges_to_inputs_requiring_grad(torch, scatter):
    """scatter(..., reduce=) has no derivative: PyTorch's node has edges only to the inputs that
    require grad (found by the random-program test: x.scatter_(0, i, 2.0, reduce="multiply"))."""
    import warnings
    seen = []
    for L in (minigrad, torch):
        x, s = L.ones(3, requires_grad=True), L.tensor([2.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            node = scatter(L, x, s).grad_fn
        seen.append((node.name(), [(None if n is None else type(n).__name__, i) for n, i in node.next_functions]))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("dtype", ["int32", "int64", "int8", "uint8", "bool", "float16", "float32"])
@pytest.mark.parametrize("alpha", [0.5, 1.5, -0.5, -1.7, 300.5, -1, True, 1e39])
def test_index_add_alpha_as_the_kernel_holds_it(torch, dtype, alpha):
    """index_add's alpha becomes the dtype's number first: integers cut 1.5 to 1 and 0.5 to 0,
    and a number the dtype cannot hold is refused (found by the random-program test:
    x.index_add(0, i, s, alpha=0.5) of an int32 x)."""
    seen = []
    for L in (minigrad, torch):
        x, source = L.tensor([1, 0, 1]).to(getattr(L, dtype)), L.tensor([1, 1]).to(getattr(L, dtype))
        try:
            seen.append(x.index_add(0, L.tensor([0, 0]), source, alpha=alpha).tolist())
        except RuntimeError as error:
            seen.append(str(error))
    assert seen[0] == seen[1]
