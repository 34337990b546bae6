"""affine_grid and grid_sample against real PyTorch: values, gradients, nodes, warnings, errors."""
import warnings

import numpy as np
import pytest

import minigrad
import minigrad.nn.functional as F

from conftest import import_torch

torch = import_torch()

MODES = ["bilinear", "nearest", "bicubic"]
PADDINGS = ["zeros", "border", "reflection"]


def _pair(array, requires_grad=False):
    return (torch.tensor(array, requires_grad=requires_grad),
            minigrad.tensor(array, requires_grad=requires_grad))


def _grid(shape, seed, spread=1.3):
    """Points inside and somewhat outside [-1, 1], with a few exactly on pixel centres and edges."""
    rng = np.random.default_rng(seed)
    grid = rng.uniform(-spread, spread, shape)
    grid.flat[::7] = np.round(grid.flat[::7] * 4) / 4
    return grid


@pytest.mark.parametrize("size", [(2, 3, 4, 5), (2, 1, 1, 3), (1, 2, 3, 2, 4)])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_affine_grid_values_node_and_gradient(size, align_corners, dtype):
    rng = np.random.default_rng(0)
    theta = rng.standard_normal((size[0], len(size) - 2, len(size) - 1)).astype(dtype)
    t, m = _pair(theta, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tg, mg = torch.nn.functional.affine_grid(t, size, align_corners), F.affine_grid(m, size, align_corners)
    tol = 1e-13 if dtype == np.float64 else 1e-6
    np.testing.assert_array_equal(mg.detach().numpy(), tg.detach().numpy())     # to the last bit
    assert str(mg.dtype) == str(tg.dtype)
    assert type(mg.grad_fn).__name__ == type(tg.grad_fn).__name__ == "AffineGridGeneratorBackward0"
    assert mg.grad_fn._saved_align_corners == tg.grad_fn._saved_align_corners
    assert tuple(mg.grad_fn._saved_size) == tuple(tg.grad_fn._saved_size)
    w = rng.standard_normal(tuple(tg.shape)).astype(dtype)
    (tg * torch.tensor(w)).sum().backward()
    (mg * minigrad.tensor(w)).sum().backward()
    np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=tol, atol=tol)


def test_affine_grid_gradcheck():
    theta = minigrad.tensor(np.random.default_rng(1).standard_normal((2, 2, 3)), requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda a: F.affine_grid(a, (2, 3, 4, 5), False), (theta,))
    assert minigrad.autograd.gradgradcheck(lambda a: F.affine_grid(a, (2, 3, 4, 5), True), (theta,))


def _messages(fn_torch, fn_mini):
    caught = []
    for fn in (fn_torch, fn_mini):
        try:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                fn()
            caught.append(("ok", [str(x.message) for x in w]))
        except Exception as e:        # noqa: BLE001  (compared below)
            caught.append((type(e).__name__, str(e)))
    return caught


@pytest.mark.parametrize("theta_shape, size, kwargs", [
    ((2, 2, 3), (2, 3, 4, 5), {}),
    ((2, 3, 3), (2, 3, 4, 5), {}),
    ((2, 2, 3), (2, 3, 4), {}),
    ((2, 2, 3), (3, 3, 4, 5), {"align_corners": False}),
    ((2, 3, 4), (2, 3, 4, 5, 6), {"align_corners": False}),
    ((2, 2, 3), (2, 3, 4, 5, 6), {"align_corners": False}),
    ((2, 2, 3), (2, 3, 4, 5, 6, 7), {"align_corners": False}),
    ((2, 2, 3), (2, 3, 1, 5), {"align_corners": True}),
    ((2, 2, 3), (2, 0, 3, 5), {"align_corners": False}),
    ((2, 2, 3), [2, 3, 4, 5], {"align_corners": False}),
])
def test_affine_grid_errors_and_warnings(theta_shape, size, kwargs):
    theta = np.ones(theta_shape)
    t, m = _pair(theta)
    got = _messages(lambda: torch.nn.functional.affine_grid(t, size, **kwargs),
                    lambda: F.affine_grid(m, size, **kwargs))
    assert got[0] == got[1]


def test_affine_grid_integer_theta():
    t, m = torch.ones(2, 2, 3, dtype=torch.int32), minigrad.ones(2, 2, 3, dtype=minigrad.int32)
    got = _messages(lambda: torch.nn.functional.affine_grid(t, (2, 3, 4, 5), False),
                    lambda: F.affine_grid(m, (2, 3, 4, 5), False))
    assert got[0] == got[1]


def _sample_pair(mode, padding, align_corners, dtype=np.float64, shape=(2, 3, 4, 5), out=(3, 4), seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(dtype)
    g = _grid((shape[0],) + out + (2,), seed + 1).astype(dtype)
    tx, mx = _pair(x, requires_grad=True)
    tg, mg = _pair(g, requires_grad=True)
    ty = torch.nn.functional.grid_sample(tx, tg, mode, padding, align_corners)
    my = F.grid_sample(mx, mg, mode, padding, align_corners)
    return (tx, tg, ty), (mx, mg, my), rng


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("padding", PADDINGS)
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_grid_sample_values_gradients_node(mode, padding, align_corners, dtype):
    (tx, tg, ty), (mx, mg, my), rng = _sample_pair(mode, padding, align_corners, dtype)
    tol = 1e-12 if dtype == np.float64 else 2e-5
    np.testing.assert_allclose(my.detach().numpy(), ty.detach().numpy(), rtol=tol, atol=tol)
    assert str(my.dtype) == str(ty.dtype)
    node, tnode = my.grad_fn, ty.grad_fn
    assert type(node).__name__ == type(tnode).__name__ == "GridSampler2DBackward0"
    for name in ("align_corners", "interpolation_mode", "padding_mode"):
        assert getattr(node, "_saved_" + name) == getattr(tnode, "_saved_" + name)
    np.testing.assert_array_equal(node._saved_grid.detach().numpy(), tnode._saved_grid.detach().numpy())
    w = rng.standard_normal(tuple(ty.shape)).astype(dtype)
    tgi, tgg = torch.autograd.grad(ty, (tx, tg), torch.tensor(w), create_graph=True)
    mgi, mgg = minigrad.autograd.grad(my, (mx, mg), minigrad.tensor(w), create_graph=True)
    np.testing.assert_allclose(mgi.detach().numpy(), tgi.detach().numpy(), rtol=tol, atol=tol)
    np.testing.assert_allclose(mgg.detach().numpy(), tgg.detach().numpy(), rtol=tol, atol=tol * 10)
    if mode != "bicubic":             # (bilinear and nearest: to the last bit)
        np.testing.assert_array_equal(my.detach().numpy(), ty.detach().numpy())
        np.testing.assert_array_equal(mgi.detach().numpy(), tgi.detach().numpy())
        np.testing.assert_array_equal(mgg.detach().numpy(), tgg.detach().numpy())
    assert type(mgi.grad_fn).__name__ == type(tgi.grad_fn).__name__ == "GridSampler2DBackwardBackward0"
    assert mgi.grad_fn is mgg.grad_fn
    names = [type(f).__name__ if f is not None else None for f, _ in mgi.grad_fn.next_functions]
    tnames = [type(f).__name__ if f is not None else None for f, _ in tgi.grad_fn.next_functions]
    assert names == tnames


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("padding", PADDINGS)
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_second_derivatives_match_torch(mode, padding, align_corners):
    (tx, tg, ty), (mx, mg, my), rng = _sample_pair(mode, padding, align_corners, seed=3)
    w = rng.standard_normal(tuple(ty.shape))
    ta, tb = rng.standard_normal(tuple(tx.shape)), rng.standard_normal(tuple(tg.shape))
    tw, mw = _pair(w, requires_grad=True)
    tgi, tgg = torch.autograd.grad(ty, (tx, tg), tw, create_graph=True)
    mgi, mgg = minigrad.autograd.grad(my, (mx, mg), mw, create_graph=True)
    ts = (tgi * torch.tensor(ta)).sum() + (tgg * torch.tensor(tb)).sum()
    ms = (mgi * minigrad.tensor(ta)).sum() + (mgg * minigrad.tensor(tb)).sum()
    expected = torch.autograd.grad(ts, (tw, tx, tg), allow_unused=True)
    got = minigrad.autograd.grad(ms, (mw, mx, mg), allow_unused=True)
    for e, g in zip(expected, got):
        if e is None:
            assert g is None or not np.any(g.numpy())
        else:
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("padding", PADDINGS)
def test_grid_sample_gradcheck_and_gradgradcheck(mode, padding):
    rng = np.random.default_rng(5)
    x = minigrad.tensor(rng.standard_normal((1, 2, 3, 4)), requires_grad=True)
    # points away from pixel centres and edges, where the sampling is smooth
    g = minigrad.tensor(_grid((1, 2, 3, 2), 6)[...] * 0.9 + 0.013, requires_grad=True)
    fn = lambda a, b: F.grid_sample(a, b, mode, padding, align_corners=False)   # noqa: E731
    assert minigrad.autograd.gradcheck(fn, (x, g))
    assert minigrad.autograd.gradgradcheck(fn, (x, g))


def test_grid_sample_warns_without_align_corners():
    x, g = np.ones((1, 1, 2, 2)), np.zeros((1, 1, 1, 2))
    (tx, mx), (tg, mg) = _pair(x), _pair(g)
    got = _messages(lambda: torch.nn.functional.grid_sample(tx, tg), lambda: F.grid_sample(mx, mg))
    assert got[0] == got[1] and got[0][1]


@pytest.mark.parametrize("x_shape, g_shape, kwargs", [
    ((2, 3, 4, 5), (2, 6, 7, 2), {"mode": "foo"}),
    ((2, 3, 4, 5), (2, 6, 7, 2), {"padding_mode": "foo"}),
    ((2, 3, 4, 5), (1, 6, 7, 2), {}),
    ((2, 3, 4, 5), (2, 6, 7, 1), {}),
    ((2, 3, 4, 5), (2, 6, 7, 3), {}),
    ((3, 4, 5), (2, 6, 7, 2), {}),
    ((2, 3, 4, 5, 6), (2, 6, 7, 2), {}),
    ((2, 3, 4, 5, 6), (2, 1, 6, 7, 3), {"mode": "bicubic"}),
    ((2, 3, 0, 5), (2, 6, 7, 2), {}),
    ((2, 3, 4), (2, 6, 2), {}),
    ((2, 3, 4), (2, 6, 1), {}),
    ((2, 3, 4, 5, 6, 7), (2, 1, 1, 1, 1, 4), {}),
    ((2, 3, 4, 5, 6), (2, 1, 1, 3), {}),
    ((2, 3, 4, 5), (2, 1, 6, 7, 2), {}),
])
def test_grid_sample_errors(x_shape, g_shape, kwargs):
    (tx, mx), (tg, mg) = _pair(np.ones(x_shape, np.float32)), _pair(np.zeros(g_shape, np.float32))
    got = _messages(lambda: torch.nn.functional.grid_sample(tx, tg, align_corners=False, **kwargs),
                    lambda: F.grid_sample(mx, mg, align_corners=False, **kwargs))
    assert got[0] == got[1]


@pytest.mark.parametrize("x_dtype, g_dtype", [(np.float32, np.float64), (np.int32, np.int32)])
def test_grid_sample_dtype_errors(x_dtype, g_dtype):
    (tx, mx), (tg, mg) = _pair(np.ones((1, 1, 2, 2), x_dtype)), _pair(np.zeros((1, 1, 1, 2), g_dtype))
    got = _messages(lambda: torch.nn.functional.grid_sample(tx, tg, align_corners=False),
                    lambda: F.grid_sample(mx, mg, align_corners=False))
    assert got[0] == got[1]


def test_spatial_transformer_tutorial_step():
    """The tutorial's stn(): a localisation net's theta, affine_grid, grid_sample, then backward."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal((4, 1, 28, 28)).astype(np.float32)
    theta = (np.array([[1, 0, 0], [0, 1, 0]], np.float32) + 0.1 * rng.standard_normal((4, 2, 3))).astype(np.float32)
    out = []
    for lib, fn in ((torch, torch.nn.functional), (minigrad, F)):
        xt, th = lib.tensor(x), lib.tensor(theta, requires_grad=True)
        grid = fn.affine_grid(th, xt.size(), align_corners=False)
        y = fn.grid_sample(xt, grid, align_corners=False)
        y.pow(2).sum().backward()
        out.append((y.detach().numpy(), th.grad.numpy()))
    np.testing.assert_allclose(out[1][0], out[0][0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[1][1], out[0][1], rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("padding", PADDINGS)
def test_grid_sample_points_at_nan_inf_and_far_away(mode, padding):
    x = np.arange(12.).reshape(1, 1, 3, 4)
    g = np.array([[[[np.nan, 0.2], [0.3, np.inf], [-np.inf, 0.1], [5e20, 0.0]]]])
    (tx, mx), (tg, mg) = _pair(x), _pair(g)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # (no numpy warnings on the way)
        got = F.grid_sample(mx, mg, mode, padding, align_corners=False).numpy()
    expected = torch.nn.functional.grid_sample(tx, tg, mode, padding, align_corners=False).numpy()
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding", PADDINGS)
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_grid_sample_volumes(mode, padding, align_corners, dtype):
    rng = np.random.default_rng(11)
    x = rng.standard_normal((2, 2, 3, 4, 5)).astype(dtype)
    g = _grid((2, 2, 3, 4, 3), 12).astype(dtype)
    (tx, mx), (tg, mg) = _pair(x, True), _pair(g, True)
    ty = torch.nn.functional.grid_sample(tx, tg, mode, padding, align_corners)
    my = F.grid_sample(mx, mg, mode, padding, align_corners)
    tol = 1e-13 if dtype == np.float64 else 2e-5
    np.testing.assert_allclose(my.detach().numpy(), ty.detach().numpy(), rtol=tol, atol=tol)
    assert type(my.grad_fn).__name__ == type(ty.grad_fn).__name__ == "GridSampler3DBackward0"
    assert my.grad_fn._saved_interpolation_mode == ty.grad_fn._saved_interpolation_mode
    w = rng.standard_normal(tuple(ty.shape)).astype(dtype)
    tgi, tgg = torch.autograd.grad(ty, (tx, tg), torch.tensor(w), create_graph=True)
    mgi, mgg = minigrad.autograd.grad(my, (mx, mg), minigrad.tensor(w), create_graph=True)
    np.testing.assert_allclose(mgi.detach().numpy(), tgi.detach().numpy(), rtol=tol, atol=tol)
    np.testing.assert_allclose(mgg.detach().numpy(), tgg.detach().numpy(), rtol=tol, atol=tol * 10)
    assert type(mgi.grad_fn).__name__ == type(tgi.grad_fn).__name__ == "GridSampler3DBackwardBackward0"
    np.testing.assert_array_equal(my.detach().numpy(), ty.detach().numpy())      # to the last bit
    np.testing.assert_array_equal(mgi.detach().numpy(), tgi.detach().numpy())
    np.testing.assert_array_equal(mgg.detach().numpy(), tgg.detach().numpy())
    if dtype == np.float64:
        ta, tb = rng.standard_normal(tuple(tx.shape)), rng.standard_normal(tuple(tg.shape))
        expected = torch.autograd.grad((tgi * torch.tensor(ta)).sum() + (tgg * torch.tensor(tb)).sum(),
                                       (tx, tg), allow_unused=True)
        got = minigrad.autograd.grad((mgi * minigrad.tensor(ta)).sum() + (mgg * minigrad.tensor(tb)).sum(),
                                     (mx, mg), allow_unused=True)
        for e, m in zip(expected, got):
            if e is None:
                assert m is None or not np.any(m.numpy())
            else:
                np.testing.assert_allclose(m.numpy(), e.numpy(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("padding", PADDINGS)
def test_grid_sample_volumes_gradgradcheck(padding):
    rng = np.random.default_rng(13)
    x = minigrad.tensor(rng.standard_normal((1, 2, 2, 3, 3)), requires_grad=True)
    g = minigrad.tensor(_grid((1, 2, 1, 2, 3), 14) * 0.9 + 0.013, requires_grad=True)
    fn = lambda a, b: F.grid_sample(a, b, "bilinear", padding, align_corners=True)   # noqa: E731
    assert minigrad.autograd.gradcheck(fn, (x, g))
    assert minigrad.autograd.gradgradcheck(fn, (x, g))


@pytest.mark.parametrize("dims", [2, 3])
def test_grid_sample_has_no_forward_mode(dims):
    x, g = np.ones((1, 1) + (2,) * dims), np.zeros((1,) + (1,) * dims + (dims,))
    got = []
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            a = fw.make_dual(lib.tensor(x), lib.tensor(np.ones_like(x)))
            try:
                lib.nn.functional.grid_sample(a, lib.tensor(g), align_corners=False)
                got.append("ok")
            except NotImplementedError as e:
                got.append(str(e))
    assert got[0] == got[1] != "ok"
