"""3-d pooling and padding, power-average pooling (LPPool), unpooling (MaxUnpool) and fractional
max pooling against PyTorch: values to the last bit, indices, the recorded graph and the settings each node
shows, gradients, gradcheck and gradgradcheck, the gradient's own graph under create_graph,
forward mode, the errors for bad input and the layers' printing."""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import every_node_saved, import_torch
from test_convolution_vs_torch import _error, _arrays, graph, run


def F(lib):
    return lib.nn.functional


def _pooled_and_unpooled(L, x, pool, unpool, *settings, **options):
    out, indices = pool(x, *settings, return_indices=True)
    return unpool(out, indices, *settings, **options)


PROGRAMS = {
    # 3-d max pooling
    "max_pool3d": (lambda L, x: F(L).max_pool3d(x, 2, return_indices=True), [(2, 3, 5, 6, 7)]),
    "max_pool3d_all": (lambda L, x: F(L).max_pool3d(x, 3, (2, 1, 2), 1, (1, 2, 1), True, True), [(2, 3, 7, 8, 9)]),
    "max_pool3d_unbatched_ceil": (lambda L, x: F(L).max_pool3d(x, (2, 3, 2), None, (1, 1, 0), ceil_mode=True),
                                  [(3, 5, 6, 7)]),
    "max_pool3d_overlapping": (lambda L, x: F(L).max_pool3d(x, 3, 1, return_indices=True), [(1, 2, 4, 5, 4)]),
    # 3-d average pooling
    "avg_pool3d": (lambda L, x: F(L).avg_pool3d(x, 2), [(2, 3, 5, 6, 7)]),
    "avg_pool3d_ceil_no_pad_count": (lambda L, x: F(L).avg_pool3d(x, 3, 2, 1, True, False), [(2, 3, 5, 6, 7)]),
    "avg_pool3d_divisor_unbatched": (lambda L, x: F(L).avg_pool3d(x, (3, 2, 3), (1, 2, 2), (1, 0, 1), False, True, 5),
                                     [(3, 5, 6, 7)]),
    "avg_pool3d_overlapping": (lambda L, x: F(L).avg_pool3d(x, 3, 1, 1, True, True), [(1, 2, 4, 5, 6)]),
    # 3-d adaptive pooling
    "adaptive_avg_pool3d": (lambda L, x: F(L).adaptive_avg_pool3d(x, (2, 3, 4)), [(2, 3, 5, 6, 7)]),
    "adaptive_avg_pool3d_none_unbatched": (lambda L, x: F(L).adaptive_avg_pool3d(x, (3, None, 4)), [(3, 5, 6, 7)]),
    "adaptive_avg_pool3d_global": (lambda L, x: F(L).adaptive_avg_pool3d(x, 1), [(2, 3, 4, 5, 3)]),
    "adaptive_max_pool3d": (lambda L, x: F(L).adaptive_max_pool3d(x, (2, 3, 4), True), [(2, 3, 5, 6, 7)]),
    "adaptive_max_pool3d_larger_unbatched": (lambda L, x: F(L).adaptive_max_pool3d(x, (4, 5, 3), True),
                                             [(3, 5, 6, 4)]),
    # unpooling
    "max_unpool2d": (lambda L, x: _pooled_and_unpooled(L, x, F(L).max_pool2d, F(L).max_unpool2d, 2), [(2, 3, 4, 6)]),
    "max_unpool2d_output_size": (lambda L, x: _pooled_and_unpooled(L, x, F(L).max_pool2d, F(L).max_unpool2d, 3, 2, 1,
                                                                    output_size=(7, 9)), [(2, 3, 7, 9)]),
    "max_unpool2d_unbatched_overlapping": (
        lambda L, x: _pooled_and_unpooled(L, x, F(L).max_pool2d, F(L).max_unpool2d, 3, 1), [(2, 5, 4)]),
    "max_unpool3d": (lambda L, x: _pooled_and_unpooled(L, x, F(L).max_pool3d, F(L).max_unpool3d, 2),
                     [(2, 3, 4, 4, 6)]),
    "max_unpool3d_padding": (lambda L, x: _pooled_and_unpooled(L, x, F(L).max_pool3d, F(L).max_unpool3d, 3, 2, 1),
                             [(1, 2, 5, 5, 5)]),
    "max_unpool1d": (lambda L, x: _pooled_and_unpooled(L, x, F(L).max_pool1d, F(L).max_unpool1d, 2), [(2, 3, 7)]),
    "max_unpool1d_unbatched": (lambda L, x: _pooled_and_unpooled(L, x, F(L).max_pool1d, F(L).max_unpool1d, 3, 1, 1),
                               [(3, 7)]),
    # power-average pooling (composed of ordinary operations, as in PyTorch)
    "lp_pool1d": (lambda L, x: F(L).lp_pool1d(x, 2, 3), [(2, 3, 7)]),
    "lp_pool1d_cubic_ceil": (lambda L, x: F(L).lp_pool1d(x.abs(), 3., 3, 2, True), [(2, 3, 8)]),
    "lp_pool2d": (lambda L, x: F(L).lp_pool2d(x, 2, (2, 3)), [(2, 3, 7, 8)]),
    "lp_pool2d_infinity": (lambda L, x: F(L).lp_pool2d(x, float("inf"), 2), [(2, 3, 6, 8)]),
    "lp_pool3d": (lambda L, x: F(L).lp_pool3d(x.abs(), 1.5, 2, 1), [(2, 3, 4, 5, 6)]),
    "lp_pool3d_minus_infinity": (lambda L, x: F(L).lp_pool3d(x, -float("inf"), 2), [(1, 2, 4, 5, 6)]),
    # fractional max pooling: random windows from the same draws as PyTorch's after manual_seed
    "fractional_max_pool2d": (lambda L, x: _seeded(L, F(L).fractional_max_pool2d, x, 2, output_size=(4, 5),
                                                   return_indices=True), [(2, 3, 7, 8)]),
    "fractional_max_pool2d_ratio_unbatched": (lambda L, x: _seeded(L, F(L).fractional_max_pool2d, x, (3, 2),
                                                                   output_ratio=(0.5, 0.4), return_indices=True),
                                              [(3, 9, 8)]),
    "fractional_max_pool2d_tight": (lambda L, x: _seeded(L, F(L).fractional_max_pool2d, x, 2, output_size=(6, 7)),
                                    [(2, 3, 7, 8)]),
    "fractional_max_pool2d_samples": (lambda L, x: F(L).fractional_max_pool2d(
        x, 2, output_size=5, return_indices=True, _random_samples=_samples(L, x, (2, 2, 2))), [(2, 2, 9, 9)]),
    "fractional_max_pool3d": (lambda L, x: _seeded(L, F(L).fractional_max_pool3d, x, 2, output_size=(3, 4, 5),
                                                   return_indices=True), [(2, 3, 7, 8, 9)]),
    "fractional_max_pool3d_ratio_unbatched": (lambda L, x: _seeded(L, F(L).fractional_max_pool3d, x, (2, 3, 2),
                                                                   output_ratio=(0.5, 0.4, 0.6)), [(3, 7, 8, 9)]),
    # layers
    "max_pool3d_module": (lambda L, x: L.nn.MaxPool3d(2, return_indices=True)(x), [(1, 2, 4, 6, 4)]),
    "avg_pool3d_module": (lambda L, x: L.nn.AvgPool3d(3, 1, 1, count_include_pad=False)(x), [(1, 2, 4, 5, 6)]),
    "adaptive_avg_pool3d_module": (lambda L, x: L.nn.AdaptiveAvgPool3d((2, 3, 2))(x), [(1, 2, 5, 7, 4)]),
    "adaptive_max_pool3d_module": (lambda L, x: L.nn.AdaptiveMaxPool3d(2)(x), [(1, 2, 5, 7, 4)]),
    "lp_pool2d_module": (lambda L, x: L.nn.LPPool2d(2, 2)(x), [(1, 2, 4, 6)]),
    "max_unpool2d_module": (lambda L, x: L.nn.MaxUnpool2d(2)(*L.nn.MaxPool2d(2, return_indices=True)(x)),
                            [(1, 2, 4, 6)]),
    "zero_pad3d_module": (lambda L, x: L.nn.ZeroPad3d((1, 0, 2, 1, 0, 1))(x), [(1, 2, 3, 3, 2)]),
    "constant_pad3d_module": (lambda L, x: L.nn.ConstantPad3d(1, 2.5)(x), [(2, 3, 3, 2)]),
    "reflection_pad3d_module": (lambda L, x: L.nn.ReflectionPad3d(1)(x), [(1, 2, 3, 3, 4)]),
    "replication_pad3d_module": (lambda L, x: L.nn.ReplicationPad3d((2, 1, 0, 1, 1, 2))(x), [(1, 2, 3, 3, 4)]),
    "fractional_max_pool2d_module": (lambda L, x: _seeded(L, L.nn.FractionalMaxPool2d(3, output_ratio=0.5), x),
                                     [(1, 2, 8, 9)]),
    "fractional_max_pool3d_module": (lambda L, x: _seeded(L, L.nn.FractionalMaxPool3d(2, output_size=3), x),
                                     [(1, 2, 5, 6, 7)]),
}


def _seeded(L, function, *arguments, **options):
    """``function`` run after manual_seed(1): its random draws are the same in both libraries."""
    L.manual_seed(1)
    return function(*arguments, **options)


def _samples(L, x, shape):
    return L.tensor(np.random.default_rng(3).random(shape).astype(str(x.dtype).replace("torch.", "")))

# pow to a power not 2 (or its root) rounds as numpy does, which is not PyTorch's vectorised pow
ROUNDED = {name for name in PROGRAMS if name.startswith("lp_pool") and "infinity" not in name}


@pytest.mark.parametrize("name, dtype", [(name, dtype) for name in sorted(PROGRAMS)
                                         for dtype in (np.float32, np.float64)])
def test_values_graph_settings_and_gradients_as_torch(name, dtype):
    torch = import_torch()
    program, shapes = PROGRAMS[name]
    arrays = _arrays(shapes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = run(minigrad, program, arrays, dtype), run(torch, program, arrays, dtype)
    tolerance = 1e-6 if dtype == np.float32 else 1e-14
    if name in ROUNDED:
        np.testing.assert_allclose(ours[0], theirs[0], rtol=tolerance, atol=tolerance)
    else:
        np.testing.assert_array_equal(ours[0], theirs[0])         # to the last bit
    assert ours[0].dtype == theirs[0].dtype
    if theirs[1] is not None:
        np.testing.assert_array_equal(ours[1], theirs[1])         # the indices of the maxima
    assert ours[2] == theirs[2]
    assert ours[3] == theirs[3]
    for our_grad, their_grad in zip(ours[4], theirs[4]):
        if name in ROUNDED:
            np.testing.assert_allclose(our_grad, their_grad, rtol=10 * tolerance, atol=10 * tolerance)
        else:
            np.testing.assert_array_equal(our_grad, their_grad)


# Unpooling after max pooling with overlapping windows: one element can be the largest of two
# windows, and unpooling then writes it once but its gradient is read twice (PyTorch's too), so
# the composition is not differentiable there; these are checked against PyTorch above only.
OVERLAPPING = {"max_unpool2d_output_size", "max_unpool2d_unbatched_overlapping", "max_unpool3d_padding",
               "max_unpool1d_unbatched"}


# (fractional max pooling is checked with its random windows fixed: a seed before each call)
@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if "module" not in n and n not in OVERLAPPING))
def test_gradcheck_and_gradgradcheck_in_float64(name):
    program, shapes = PROGRAMS[name]
    if len(shapes[0]) >= 4 and "unbatched" not in name:    # a batch of one is enough here (smaller Jacobians)
        shapes = [(1,) + tuple(shapes[0][1:])] + list(shapes[1:])
    if len(shapes) == 1 and len(shapes[0]) >= 4:            # and one channel (each is pooled on its own)
        shapes = [(1,) * (len(shapes[0]) - 3) + tuple(shapes[0][-3:])]
    inputs = [minigrad.tensor(a, requires_grad=True) for a in _arrays(shapes, seed=1)]

    def first_output(*xs):
        out = program(minigrad, *xs)
        return out[0] if isinstance(out, tuple) else out

    assert gradcheck(first_output, inputs)
    assert gradgradcheck(first_output, inputs)


SECOND_ORDER = {
    "max_pool3d": (lambda L, x: F(L).max_pool3d(x, 2), (1, 3, 4, 6, 6)),
    "max_pool2d": (lambda L, x: F(L).max_pool2d(x, 2), (3, 4, 6)),
    "avg_pool3d": (lambda L, x: F(L).avg_pool3d(x, 2, 1, 1, True, False, None), (1, 3, 4, 6, 6)),
    "avg_pool3d_divisor": (lambda L, x: F(L).avg_pool3d(x, (2, 1, 2), (1, 2, 1), divisor_override=3), (3, 4, 6, 6)),
    "adaptive_avg_pool3d": (lambda L, x: F(L).adaptive_avg_pool3d(x, (2, 3, 4)), (1, 3, 4, 6, 6)),
    "adaptive_max_pool3d": (lambda L, x: F(L).adaptive_max_pool3d(x, (2, 3, 4)), (1, 3, 4, 6, 6)),
    "adaptive_max_pool2d": (lambda L, x: F(L).adaptive_max_pool2d(x, 3), (1, 3, 7, 6)),
    "avg_pool2d": (lambda L, x: F(L).avg_pool2d(x, 3, 2, 1, True, False, 2), (1, 3, 7, 6)),
    "adaptive_avg_pool2d": (lambda L, x: F(L).adaptive_avg_pool2d(x, (2, 4)), (3, 7, 6)),
    "max_unpool2d": (lambda L, x: F(L).max_unpool2d(*F(L).max_pool2d(x, 2, return_indices=True), 2), (1, 3, 4, 6)),
    "max_unpool3d": (lambda L, x: F(L).max_unpool3d(*F(L).max_pool3d(x, 2, return_indices=True), 2),
                     (1, 3, 4, 6, 6)),
    "lp_pool2d": (lambda L, x: F(L).lp_pool2d(x, 2, 2), (3, 4, 6)),
    "fractional_max_pool2d": (lambda L, x: _seeded(L, F(L).fractional_max_pool2d, x, 2, output_size=3),
                              (1, 3, 7, 6)),
    "fractional_max_pool3d": (lambda L, x: _seeded(L, F(L).fractional_max_pool3d, x, 2, output_size=3),
                              (1, 3, 5, 6, 6)),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_gradient_graphs_under_create_graph_as_torch(name):
    """The gradient's own graph (create_graph=True) has PyTorch's nodes and what they show, and
    differentiates as PyTorch's."""
    torch = import_torch()
    program, shape = SECOND_ORDER[name]
    x = _arrays([shape], seed=6)[0]
    seen = []
    for lib in (minigrad, torch):
        leaf = lib.tensor(x, requires_grad=True)
        out = program(lib, leaf)
        grad_out = lib.tensor(_arrays([tuple(out.shape)], seed=8)[0], requires_grad=True)
        (grad_x,) = lib.autograd.grad(out, leaf, grad_out, create_graph=True)
        shown = graph(grad_x.grad_fn), every_node_saved(grad_x.grad_fn, [])
        (again,) = lib.autograd.grad((grad_x * grad_x).sum(), grad_out)
        seen.append(shown + (again.numpy(),))
    assert seen[0][0] == seen[1][0]
    assert seen[0][1] == seen[1][1]
    np.testing.assert_allclose(seen[0][2], seen[1][2], rtol=1e-12, atol=1e-12)


FORWARD_MODE = {
    "max_pool3d": lambda L, x: F(L).max_pool3d(x, 2, 1),
    "avg_pool3d": lambda L, x: F(L).avg_pool3d(x, 3, 1, 1, count_include_pad=False),
    "adaptive_avg_pool3d": lambda L, x: F(L).adaptive_avg_pool3d(x, (2, 3, 4)),
    "adaptive_max_pool3d": lambda L, x: F(L).adaptive_max_pool3d(x, 3),
    "max_unpool3d": lambda L, x: F(L).max_unpool3d(*F(L).max_pool3d(x, 2, return_indices=True), 2),
    "lp_pool3d": lambda L, x: F(L).lp_pool3d(x, 2, 2),
    "fractional_max_pool3d": lambda L, x: _seeded(L, F(L).fractional_max_pool3d, x, 2, output_ratio=0.5),
}


@pytest.mark.parametrize("name", sorted(FORWARD_MODE))
def test_forward_mode_as_torch(name):
    """Tangents pushed forward (torch.autograd.forward_ad) are PyTorch's."""
    torch = import_torch()
    primal, tangent = _arrays([(2, 3, 4, 6, 6), (2, 3, 4, 6, 6)], seed=4)
    results = []
    for lib in (minigrad, torch):
        forward_ad = lib.autograd.forward_ad
        with forward_ad.dual_level():
            out = FORWARD_MODE[name](lib, forward_ad.make_dual(lib.tensor(primal), lib.tensor(tangent)))
            results.append([t.numpy() for t in forward_ad.unpack_dual(out)[:2]])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def _x(L, *shape):
    return L.arange(float(np.prod(shape))).reshape(shape)


def _with_nans(L, *shape):
    """Small numbers with two nans in the first window of each channel."""
    values = np.arange(float(np.prod(shape))).reshape(shape) % 7
    first = (0,) * (len(shape) - 3)
    values[first + (0,) + (0,) * 2], values[first + (0,) + (1,) * 2] = np.nan, np.nan
    values[first + (1, 0, 1)], values[first + (1, 1, 0)] = np.nan, np.nan
    return L.tensor(values)


def _unpool_arguments(L, kernel=2, dims=2, shape=(2, 3, 4, 6)):
    pool = F(L).max_pool2d if dims == 2 else F(L).max_pool3d
    return pool(_x(L, *shape), kernel, return_indices=True)


ERRORS = {
    # max_pool3d / avg_pool3d settings
    "max_pool3d_kernel_length": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), (2, 2)),
    "max_pool3d_stride_length": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 2, (2, 2)),
    "max_pool3d_padding_length": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 2, padding=(1, 1)),
    "max_pool3d_dilation_length": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 2, dilation=(1, 1)),
    "avg_pool3d_kernel_length": lambda L: F(L).avg_pool3d(_x(L, 2, 3, 5, 6, 7), (2, 2)),
    "avg_pool3d_stride_length": lambda L: F(L).avg_pool3d(_x(L, 2, 3, 5, 6, 7), 2, (2, 2)),
    "avg_pool3d_padding_length": lambda L: F(L).avg_pool3d(_x(L, 2, 3, 5, 6, 7), 2, padding=(1, 1)),
    "max_pool3d_stride_zero": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 2, 0),
    "max_pool3d_kernel_zero": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 0),
    "max_pool3d_dilation_zero": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 2, dilation=0),
    "max_pool3d_padding_negative": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 2, padding=-1),
    "max_pool3d_padding_large": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 3, padding=2),
    "max_pool3d_padding_past_half_kernel": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 3, padding=2, dilation=2),
    "max_pool3d_output_too_small": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 8),
    "avg_pool3d_smaller_than_kernel": lambda L: F(L).avg_pool3d(_x(L, 2, 3, 5, 6, 7), (2, 7, 2)),
    "avg_pool3d_smaller_than_kernel_with_padding": lambda L: F(L).avg_pool3d(_x(L, 1, 2, 2, 5, 5), 3, padding=1),
    "avg_pool3d_stride_zero": lambda L: F(L).avg_pool3d(_x(L, 2, 3, 5, 6, 7), 2, 0),
    "avg_pool3d_padding_large": lambda L: F(L).avg_pool3d(_x(L, 2, 3, 5, 6, 7), 3, padding=2),
    "avg_pool3d_divisor_zero": lambda L: F(L).avg_pool3d(_x(L, 2, 3, 5, 6, 7), 2, divisor_override=0),
    "max_pool3d_3d_input": lambda L: F(L).max_pool3d(_x(L, 5, 6, 7), 2),
    "avg_pool3d_3d_input": lambda L: F(L).avg_pool3d(_x(L, 5, 6, 7), 2),
    "max_pool3d_empty_channels": lambda L: F(L).max_pool3d(_x(L, 1, 0, 5, 6, 7), 2),
    "avg_pool3d_empty_channels": lambda L: F(L).avg_pool3d(_x(L, 1, 0, 5, 6, 7), 2),
    "max_pool3d_empty_batch": lambda L: F(L).max_pool3d(_x(L, 0, 3, 5, 6, 7), 2).shape,
    "max_pool3d_bool": lambda L: F(L).max_pool3d(_x(L, 1, 2, 2, 2, 2).bool(), 2),
    "avg_pool3d_bool": lambda L: F(L).avg_pool3d(_x(L, 1, 2, 2, 2, 2).bool(), 2),
    "max_pool3d_not_a_tensor": lambda L: F(L).max_pool3d("a", 2),
    "avg_pool3d_not_a_tensor": lambda L: F(L).avg_pool3d("a", 2),
    "max_pool3d_float_kernel": lambda L: F(L).max_pool3d(_x(L, 2, 3, 5, 6, 7), 2.5),
    "avg_pool3d_float_kernel": lambda L: F(L).avg_pool3d(_x(L, 2, 3, 5, 6, 7), 2.5),
    # adaptive 3-d pooling
    "adaptive_avg_pool3d_3d_input": lambda L: F(L).adaptive_avg_pool3d(_x(L, 5, 6, 7), 2),
    "adaptive_max_pool3d_3d_input": lambda L: F(L).adaptive_max_pool3d(_x(L, 5, 6, 7), 2),
    "adaptive_avg_pool3d_size_length": lambda L: F(L).adaptive_avg_pool3d(_x(L, 2, 3, 5, 6, 7), (2, 2)),
    "adaptive_max_pool3d_size_length": lambda L: F(L).adaptive_max_pool3d(_x(L, 2, 3, 5, 6, 7), (2, 2)),
    "adaptive_avg_pool3d_negative": lambda L: F(L).adaptive_avg_pool3d(_x(L, 2, 3, 5, 6, 7), (2, -1, 2)),
    "adaptive_max_pool3d_negative": lambda L: F(L).adaptive_max_pool3d(_x(L, 2, 3, 5, 6, 7), (2, -1, 2)),
    "adaptive_avg_pool3d_long": lambda L: F(L).adaptive_avg_pool3d(_x(L, 2, 3, 5, 6, 7).long(), 2),
    "adaptive_max_pool3d_long": lambda L: F(L).adaptive_max_pool3d(_x(L, 2, 3, 5, 6, 7).long(), 2),
    "adaptive_avg_pool3d_empty": lambda L: F(L).adaptive_avg_pool3d(_x(L, 1, 0, 5, 6, 7), 2),
    "adaptive_max_pool3d_empty": lambda L: F(L).adaptive_max_pool3d(_x(L, 1, 2, 0, 6, 7), 2),
    # unpooling
    "max_unpool2d_float_indices": lambda L: F(L).max_unpool2d(_unpool_arguments(L)[0],
                                                              _unpool_arguments(L)[1].float(), 2),
    "max_unpool3d_int_indices": lambda L: F(L).max_unpool3d(_unpool_arguments(L, 2, 3, (1, 2, 4, 4, 4))[0],
                                                            _unpool_arguments(L, 2, 3, (1, 2, 4, 4, 4))[1].int(), 2),
    "max_unpool2d_indices_shape": lambda L: F(L).max_unpool2d(_unpool_arguments(L)[0],
                                                              _unpool_arguments(L)[1][:1], 2),
    "max_unpool2d_output_size_length": lambda L: F(L).max_unpool2d(*_unpool_arguments(L), 2, output_size=(1, 2, 3)),
    "max_unpool2d_output_size_range": lambda L: F(L).max_unpool2d(*_unpool_arguments(L), 2, output_size=(9, 6)),
    "max_unpool2d_2d_input": lambda L: F(L).max_unpool2d(_unpool_arguments(L)[0][0, 0],
                                                         _unpool_arguments(L)[1][0, 0], 2),
    "max_unpool3d_3d_input": lambda L: F(L).max_unpool3d(_unpool_arguments(L)[0][0],
                                                         _unpool_arguments(L)[1][0], 2),
    "max_unpool2d_long": lambda L: F(L).max_unpool2d(_unpool_arguments(L)[0].long(), _unpool_arguments(L)[1], 2),
    # (one bad index each: where there are several, PyTorch's threads race to name one)
    "max_unpool2d_index_too_large": lambda L: F(L).max_unpool2d(L.ones(1, 1, 1, 2), L.tensor([[[[0, 9]]]]), 2),
    "max_unpool2d_index_negative": lambda L: F(L).max_unpool2d(L.ones(1, 1, 1, 2), L.tensor([[[[-3, 1]]]]), 2),
    "max_unpool3d_index_negative": lambda L: F(L).max_unpool3d(L.ones(1, 1, 1, 1, 2), L.tensor([[[[[-5, 1]]]]]), 2),
    "max_unpool1d_index_too_large": lambda L: F(L).max_unpool1d(L.ones(1, 2), L.tensor([[0, 7]]), 2),
    "max_unpool3d_stride_zero": lambda L: F(L).max_unpool3d(*_unpool_arguments(L, 2, 3, (1, 2, 4, 4, 4)), 2, 0),
    "max_unpool2d_input_not_a_tensor": lambda L: F(L).max_unpool2d("a", _unpool_arguments(L)[1], 2),
    "max_unpool2d_indices_not_a_tensor": lambda L: F(L).max_unpool2d(_unpool_arguments(L)[0], "b", 2),
    "max_unpool1d_indices_not_a_tensor": lambda L: F(L).max_unpool1d(L.ones(1, 2), "b", 2),
    "max_unpool1d_1d_input": lambda L: F(L).max_unpool1d(*F(L).max_pool1d(_x(L, 1, 6), 2, return_indices=True)[0:1],
                                                         L.zeros(3, dtype=L.int64), 2),
    # fractional max pooling
    "fractional_no_size": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), 2),
    "fractional_ratio_number": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), 2, output_ratio=0.5),
    "fractional_ratio_length": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), 2, output_ratio=(.5, .5, .5)),
    "fractional_height_too_large": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), 2, output_size=(7, 8)),
    "fractional_width_too_large": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), 2, output_size=(6, 8)),
    "fractional_size_length": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), 2, output_size=(2, 2, 2)),
    "fractional_kernel_length": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), (2, 2, 2), output_size=2),
    "fractional_2d_input": lambda L: F(L).fractional_max_pool2d(_x(L, 7, 8), 2, output_size=2),
    "fractional_empty_channels": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 0, 7, 8), 2, output_size=2),
    "fractional_empty_batch": lambda L: F(L).fractional_max_pool2d(_x(L, 0, 2, 7, 8), 2, output_size=2).shape,
    "fractional_samples_size": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), 2, output_size=2,
                                                                    _random_samples=L.rand(2, 3, 3)),
    "fractional_samples_batch": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), 2, output_size=2,
                                                                     _random_samples=L.rand(1, 3, 2)),
    "fractional_samples_dtype": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), 2, output_size=2,
                                                                     _random_samples=L.rand(2, 3, 2).double()),
    "fractional_negative_size": lambda L: F(L).fractional_max_pool2d(_x(L, 2, 3, 7, 8), 2, output_size=(-1, 2)),
    "fractional3d_no_size": lambda L: F(L).fractional_max_pool3d(_x(L, 2, 3, 7, 8, 9), 2),
    "fractional3d_time_too_large": lambda L: F(L).fractional_max_pool3d(_x(L, 2, 3, 7, 8, 9), 2, output_size=(7, 7, 8)),
    "fractional3d_time_just_fits": lambda L: F(L).fractional_max_pool3d(_x(L, 2, 3, 7, 8), 2, output_size=2),
    "fractional3d_size_length": lambda L: F(L).fractional_max_pool3d(_x(L, 2, 3, 7, 8, 9), 2, output_size=(2, 2)),
    "fractional3d_kernel_length": lambda L: F(L).fractional_max_pool3d(_x(L, 2, 3, 7, 8, 9), (2, 2), output_size=2),
    "fractional3d_samples_size": lambda L: F(L).fractional_max_pool3d(_x(L, 2, 3, 7, 8, 9), 2, output_size=2,
                                                                      _random_samples=L.rand(2, 3, 2)),
    "fractional3d_empty_channels": lambda L: F(L).fractional_max_pool3d(_x(L, 2, 0, 7, 8, 9), 2, output_size=2),
    "fractional_module_no_size": lambda L: L.nn.FractionalMaxPool2d(2),
    "fractional_module_both": lambda L: L.nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5),
    "fractional_module_ratio": lambda L: L.nn.FractionalMaxPool2d(2, output_ratio=1.5),
    "fractional3d_module_ratio": lambda L: L.nn.FractionalMaxPool3d(2, output_ratio=(0.5, 1.0, 0.5)),
    "fractional3d_module_no_size": lambda L: L.nn.FractionalMaxPool3d(2),
    # where a window holds several nans, PyTorch's loop keeps the last one
    "max_pool2d_two_nans": lambda L: F(L).max_pool2d(_with_nans(L, 1, 2, 4, 4), 2, return_indices=True),
    "max_pool3d_two_nans": lambda L: F(L).max_pool3d(_with_nans(L, 1, 2, 4, 4, 4), 2, return_indices=True),
    "adaptive_max_pool2d_two_nans": lambda L: F(L).adaptive_max_pool2d(_with_nans(L, 2, 4, 4), 2, True),
    "adaptive_max_pool3d_two_nans": lambda L: F(L).adaptive_max_pool3d(_with_nans(L, 2, 4, 4, 4), 2, True),
    "fractional_max_pool2d_two_nans": lambda L: F(L).fractional_max_pool2d(
        _with_nans(L, 1, 2, 4, 4), 2, output_size=2, return_indices=True, _random_samples=L.full((1, 2, 2), 0.5)),
    "max_unpool2d_same_index_twice": lambda L: F(L).max_unpool2d(L.tensor([[[1., 2., 3.]]]),
                                                                 L.tensor([[[0, 0, 3]]]), 2),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_and_edge_cases_as_torch(name):
    torch = import_torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _error(minigrad, ERRORS[name]), _error(torch, ERRORS[name])
    assert ours == theirs
    if ours is None:         # (no error: the results themselves)
        assert repr(ERRORS[name](minigrad)) == repr(ERRORS[name](torch))


LAYERS = [
    lambda L: L.nn.MaxPool3d(2),
    lambda L: L.nn.MaxPool3d((2, 1, 2), padding=1, dilation=2, ceil_mode=True, return_indices=True),
    lambda L: L.nn.AvgPool3d(2),
    lambda L: L.nn.AvgPool3d((2, 2, 1), 1, 1, True, False, 3),
    lambda L: L.nn.AdaptiveAvgPool3d(2),
    lambda L: L.nn.AdaptiveMaxPool3d((2, None, 3)),
    lambda L: L.nn.LPPool1d(2, 3),
    lambda L: L.nn.LPPool2d(2, 3),
    lambda L: L.nn.LPPool3d(2.5, 3, 2),
    lambda L: L.nn.MaxUnpool1d(2),
    lambda L: L.nn.MaxUnpool2d(2),
    lambda L: L.nn.MaxUnpool3d(2, 1, 1),
    lambda L: L.nn.ReflectionPad3d(1),
    lambda L: L.nn.ReplicationPad3d((1, 2, 3, 4, 5, 6)),
    lambda L: L.nn.ZeroPad3d(2),
    lambda L: L.nn.ConstantPad3d(1, 2.5),
    lambda L: L.nn.CircularPad3d(1),
    lambda L: L.nn.FractionalMaxPool2d(2, output_size=3),
    lambda L: L.nn.FractionalMaxPool3d((2, 2, 3), output_ratio=(0.5, 0.5, 0.5), return_indices=True),
]


@pytest.mark.parametrize("number", range(len(LAYERS)))
def test_layers_print_as_torch(number):
    torch = import_torch()
    ours, theirs = LAYERS[number](minigrad), LAYERS[number](torch)
    assert repr(ours) == repr(theirs)
    kept = {k: v for k, v in vars(theirs).items() if not k.startswith("_") and k != "training"}
    assert {k: getattr(ours, k) for k in kept} == kept
