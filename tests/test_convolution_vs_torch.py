"""Convolutions, pooling and padding against PyTorch: values, the recorded graph (names,
next_functions and the settings each node shows as ``_saved_*``), gradients, gradcheck and
gradgradcheck, the errors for bad input, the layers' printing and initial weights, and
PyTorch's "Neural Networks" tutorial (LeNet) printing the same."""
import contextlib
import io
import re
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch


def graph(grad_fn):
    """The graph below ``grad_fn`` as nested (name, children) pairs, in next_functions order."""
    if grad_fn is None:
        return None
    name = grad_fn.name().replace("torch::autograd::", "")
    return (name, tuple(graph(child) for child, _ in grad_fn.next_functions))


def shown_settings(grad_fn):
    """The ``_saved_*`` values of a node that are not tensors (the settings PyTorch shows)."""
    names = [n for n in dir(grad_fn) if n.startswith("_saved_")]
    settings = {}
    for name in names:
        value = getattr(grad_fn, name)
        if not hasattr(value, "shape"):
            settings[name] = value
    return settings


def run(lib, program, arrays, dtype):
    """``program(lib, *inputs)`` on fresh leaves: its values, graph, settings and the leaves' grads."""
    leaves = [lib.tensor(a.astype(dtype), requires_grad=True) for a in arrays]
    out = program(lib, *leaves)
    if isinstance(out, tuple):
        out, indices = out
        indices = indices.numpy()
    else:
        indices = None
    weights = lib.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)).astype(dtype))
    settings = shown_settings(out.grad_fn) if "CopySlices" not in out.grad_fn.name() else {}
    (out * weights).sum().backward()
    grads = [None if leaf.grad is None else leaf.grad.numpy() for leaf in leaves]
    return out.detach().numpy(), indices, graph(out.grad_fn), settings, grads


def F(lib):
    return lib.nn.functional


PROGRAMS = {
    # convolutions
    "conv2d": (lambda L, x, w, b: F(L).conv2d(x, w, b), [(2, 3, 8, 8), (4, 3, 3, 3), (4,)]),
    "conv2d_no_bias": (lambda L, x, w: F(L).conv2d(x, w), [(2, 3, 7, 6), (4, 3, 3, 2)]),
    "conv2d_stride_padding": (lambda L, x, w, b: F(L).conv2d(x, w, b, stride=2, padding=1),
                              [(2, 3, 8, 9), (4, 3, 3, 2), (4,)]),
    "conv2d_dilation_groups": (lambda L, x, w, b: F(L).conv2d(x, w, b, (2, 1), (1, 2), (2, 1), 2),
                               [(2, 4, 9, 8), (6, 2, 3, 3), (6,)]),
    "conv2d_same_odd": (lambda L, x, w: F(L).conv2d(x, w, padding="same"), [(1, 2, 6, 5), (3, 2, 3, 3)]),
    "conv2d_same_dilated": (lambda L, x, w: F(L).conv2d(x, w, padding="same", dilation=2),
                            [(1, 2, 6, 5), (3, 2, 2, 2)]),
    "conv2d_valid_unbatched": (lambda L, x, w, b: F(L).conv2d(x, w, b, padding="valid"),
                               [(2, 6, 5), (3, 2, 2, 3), (3,)]),
    "conv2d_depthwise": (lambda L, x, w: L.conv2d(x, w, groups=3), [(2, 3, 5, 5), (6, 1, 3, 3)]),
    "conv1d": (lambda L, x, w, b: F(L).conv1d(x, w, b, stride=3, padding=2), [(2, 3, 10), (4, 3, 3), (4,)]),
    "conv1d_unbatched": (lambda L, x, w: L.conv1d(x, w, dilation=2), [(3, 10), (4, 3, 3)]),
    "conv_transpose2d": (lambda L, x, w, b: F(L).conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
                         [(2, 3, 4, 5), (3, 2, 3, 3), (2,)]),
    "conv_transpose2d_output_padding_past_stride": (
        lambda L, x, w: F(L).conv_transpose2d(x, w, stride=(1, 2), dilation=(2, 1), output_padding=(1, 0)),
        [(1, 2, 3, 3), (2, 2, 3, 2)]),
    "conv_transpose2d_groups": (lambda L, x, w: F(L).conv_transpose2d(x, w, groups=2, dilation=2),
                                [(1, 4, 3, 3), (4, 3, 2, 2)]),
    "conv_transpose1d": (lambda L, x, w, b: F(L).conv_transpose1d(x, w, b, stride=3), [(2, 3, 4), (3, 2, 2), (2,)]),
    "conv3d": (lambda L, x, w, b: L.conv3d(x, w, b, stride=(1, 2, 1), padding=(1, 0, 1), groups=2),
               [(1, 4, 4, 5, 3), (2, 2, 2, 3, 2), (2,)]),
    "conv_transpose3d": (lambda L, x, w: F(L).conv_transpose3d(x, w, stride=2), [(1, 2, 2, 3, 2), (2, 1, 2, 2, 2)]),
    "conv2d_module": (lambda L, x: _seeded(L, lambda: L.nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect"))(x),
                      [(1, 3, 5, 5)]),
    "conv1d_module_circular": (lambda L, x: _seeded(L, lambda: L.nn.Conv1d(2, 4, 3, padding="same",
                                                                          padding_mode="circular"))(x), [(1, 2, 5)]),
    "conv2d_module_same_even": (lambda L, x: _seeded(L, lambda: L.nn.Conv2d(2, 2, (2, 3), padding="same",
                                                                           padding_mode="replicate"))(x),
                                [(1, 2, 4, 5)]),
    # pooling
    "max_pool2d": (lambda L, x: F(L).max_pool2d(x, 2), [(2, 3, 6, 6)]),
    "max_pool2d_all": (lambda L, x: F(L).max_pool2d(x, 3, 2, 1, 2, True, True), [(2, 3, 9, 8)]),
    "max_pool2d_unbatched_ceil": (lambda L, x: F(L).max_pool2d(x, (3, 2), (2, 1), (1, 1), ceil_mode=True),
                                  [(3, 7, 8)]),
    "max_pool1d": (lambda L, x: F(L).max_pool1d(x, 3, 2, 1, return_indices=True), [(2, 3, 9)]),
    "max_pool1d_unbatched": (lambda L, x: L.max_pool1d(x, 2), [(3, 9)]),
    "avg_pool2d": (lambda L, x: F(L).avg_pool2d(x, 2), [(2, 3, 6, 6)]),
    "avg_pool2d_ceil_padding": (lambda L, x: F(L).avg_pool2d(x, 3, 2, 1, ceil_mode=True), [(2, 3, 8, 7)]),
    "avg_pool2d_no_pad_count": (lambda L, x: F(L).avg_pool2d(x, 3, 2, 1, True, False), [(2, 3, 8, 7)]),
    "avg_pool2d_divisor": (lambda L, x: F(L).avg_pool2d(x, (3, 2), (1, 2), (1, 0), divisor_override=5),
                           [(3, 8, 7)]),
    "avg_pool1d": (lambda L, x: F(L).avg_pool1d(x, 3, 2, 1), [(2, 3, 9)]),
    "avg_pool2d_large_kernel": (lambda L, x: F(L).avg_pool2d(x, 4, 2, (0, 1), False, False, 3), [(2, 3, 5, 3)]),
    "avg_pool2d_overlapping": (lambda L, x: F(L).avg_pool2d(x, 3, 1, 1, count_include_pad=False), [(1, 2, 5, 6)]),
    "adaptive_avg_pool2d": (lambda L, x: F(L).adaptive_avg_pool2d(x, (3, 4)), [(2, 3, 8, 7)]),
    "adaptive_avg_pool2d_none": (lambda L, x: F(L).adaptive_avg_pool2d(x, (None, 2)), [(3, 5, 7)]),
    "adaptive_avg_pool2d_global": (lambda L, x: F(L).adaptive_avg_pool2d(x, 1), [(2, 3, 5, 7)]),
    "adaptive_avg_pool1d": (lambda L, x: F(L).adaptive_avg_pool1d(x, 4), [(2, 3, 9)]),
    "adaptive_max_pool2d": (lambda L, x: F(L).adaptive_max_pool2d(x, (3, 4), True), [(2, 3, 8, 7)]),
    "adaptive_max_pool2d_unbatched": (lambda L, x: F(L).adaptive_max_pool2d(x, 3), [(3, 8, 7)]),
    "adaptive_max_pool1d": (lambda L, x: L.adaptive_max_pool1d(x, 4), [(2, 3, 9)]),
    "max_pool2d_module": (lambda L, x: L.nn.MaxPool2d(2, return_indices=True)(x), [(1, 2, 4, 6)]),
    "avg_pool1d_module": (lambda L, x: L.nn.AvgPool1d(3, 1, 1, count_include_pad=False)(x), [(1, 2, 6)]),
    "adaptive_avg_pool2d_module": (lambda L, x: L.nn.AdaptiveAvgPool2d((2, 3))(x), [(1, 2, 5, 7)]),
    # padding
    "pad_constant": (lambda L, x: F(L).pad(x, (1, 2, 0, -1)), [(2, 3, 4, 5)]),
    "pad_value": (lambda L, x: F(L).pad(x, (1, 2), value=2.5), [(2, 3, 4, 5)]),
    "pad_reflect": (lambda L, x: F(L).pad(x, (1, 2, 3, 1), mode="reflect"), [(2, 3, 4, 5)]),
    "pad_reflect1d": (lambda L, x: F(L).pad(x, (1, 2), mode="reflect"), [(3, 5)]),
    "pad_replicate": (lambda L, x: F(L).pad(x, (1, 2, 3, 1), mode="replicate"), [(2, 3, 4, 5)]),
    "pad_replicate3d": (lambda L, x: F(L).pad(x, (1, 2, 3, 1, 1, 1), mode="replicate"), [(2, 3, 4, 5)]),
    "pad_circular": (lambda L, x: F(L).pad(x, (1, 2, 3, 1), mode="circular"), [(2, 3, 4, 5)]),
    "constant_pad_nd": (lambda L, x: L.constant_pad_nd(x, (2, 1), -1.0), [(2, 3)]),
    "zero_pad2d_module": (lambda L, x: L.nn.ZeroPad2d((1, 0, 2, 1))(x), [(1, 2, 3, 3)]),
    "reflection_pad2d_module": (lambda L, x: L.nn.ReflectionPad2d(1)(x), [(1, 2, 3, 3)]),
    "replication_pad1d_module": (lambda L, x: L.nn.ReplicationPad1d((2, 1))(x), [(1, 2, 3)]),
    # im2col and col2im themselves
    "unfold": (lambda L, x: F(L).unfold(x, (2, 3), dilation=1, padding=1, stride=2), [(2, 3, 5, 6)]),
    "unfold_unbatched_dilated": (lambda L, x: F(L).unfold(x, 2, dilation=2), [(2, 5, 4)]),
    "fold": (lambda L, x: F(L).fold(x, (5, 6), (2, 3), padding=1, stride=2), [(2, 18, 9)]),
    "fold_unbatched_overlapping": (lambda L, x: F(L).fold(x, (4, 4), 2), [(8, 9)]),
    "unfold_module": (lambda L, x: L.nn.Unfold((2, 3), 2, 1, (1, 2))(x), [(1, 2, 5, 6)]),
}

# convolutions add up products in another order than PyTorch's kernels: equal to rounding
CONVOLUTIONS = {name for name in PROGRAMS if "conv" in name}


def _seeded(lib, make):
    lib.manual_seed(0)
    return make()


def _arrays(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape) for shape in shapes]


# (a program with a layer runs in float32 only: the layer's parameters are float32)
@pytest.mark.parametrize("name, dtype", [(name, dtype) for name in sorted(PROGRAMS)
                                         for dtype in (np.float32, np.float64)
                                         if not (name.startswith("conv") and "module" in name and dtype == np.float64)])
def test_values_graph_settings_and_gradients_as_torch(name, dtype):
    torch = import_torch()
    program, shapes = PROGRAMS[name]
    arrays = _arrays(shapes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = run(minigrad, program, arrays, dtype), run(torch, program, arrays, dtype)
    tolerance = 1e-5 if dtype == np.float32 else 1e-12
    if name in CONVOLUTIONS:
        np.testing.assert_allclose(ours[0], theirs[0], rtol=tolerance, atol=tolerance)
    else:
        np.testing.assert_array_equal(ours[0], theirs[0])         # pooling and padding: to the last bit
    assert ours[0].dtype == theirs[0].dtype
    if theirs[1] is not None:
        np.testing.assert_array_equal(ours[1], theirs[1])         # the indices of the maxima
    assert ours[2] == theirs[2]
    assert ours[3] == theirs[3]
    for our_grad, their_grad in zip(ours[4], theirs[4]):
        np.testing.assert_allclose(our_grad, their_grad, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if "module" not in n))
def test_gradcheck_and_gradgradcheck_in_float64(name):
    program, shapes = PROGRAMS[name]
    if len(shapes[0]) >= 3 and "unbatched" not in name:    # a batch of one is enough here (smaller Jacobians)
        shapes = [(1,) + tuple(shapes[0][1:])] + list(shapes[1:])
    inputs = [minigrad.tensor(a, requires_grad=True) for a in _arrays(shapes, seed=1)]

    def first_output(*xs):
        out = program(minigrad, *xs)
        return out[0] if isinstance(out, tuple) else out

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert gradcheck(first_output, inputs)
        assert gradgradcheck(first_output, inputs)


def test_third_derivative_of_a_convolution():
    """The gradient's own node differentiates with convolutions again: any order works."""
    x = minigrad.tensor(_arrays([(1, 2, 5)], seed=2)[0], requires_grad=True)
    w = minigrad.tensor(_arrays([(3, 2, 2)], seed=3)[0], requires_grad=True)
    assert gradgradcheck(lambda x, w: F(minigrad).conv1d(x, w, padding=1) ** 3, (x, w))
    torch = import_torch()
    results = []
    for lib in (minigrad, torch):
        X, W = lib.tensor(x.detach().numpy(), requires_grad=True), lib.tensor(w.detach().numpy(), requires_grad=True)
        (gx,) = lib.autograd.grad((F(lib).conv1d(X, W) ** 2).sum(), X, create_graph=True)
        (gw,) = lib.autograd.grad((gx ** 2).sum(), W, create_graph=True)
        (gxx,) = lib.autograd.grad(gw.sum(), X)
        results.append((gx.detach().numpy(), gw.detach().numpy(), gxx.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def test_the_gradient_node_is_pytorchs():
    """Under create_graph=True the three gradients are outputs 0, 1, 2 of one ConvolutionBackwardBackward0."""
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        x, w, b = (lib.tensor(a, requires_grad=True) for a in _arrays([(1, 3, 6, 6), (4, 3, 3, 3), (4,)]))
        y = F(lib).conv2d(x, w, b, stride=2)
        gx, gw, gb = lib.autograd.grad((y * y).sum(), (x, w, b), create_graph=True)
        node = gx.grad_fn
        numbers = [t.output_nr if lib is torch else t._output_nr for t in (gx, gw, gb)]
        seen.append((graph(node), node is gw.grad_fn is gb.grad_fn, numbers,
                     shown_settings(node), [n for n in dir(node) if n.startswith("_saved_")],
                     [n for n in dir(y.grad_fn) if n.startswith("_saved_")]))
    assert seen[0] == seen[1]


def test_same_padding_with_an_even_kernel_warns_as_torch():
    torch = import_torch()
    messages = []
    for lib in (minigrad, torch):
        x, w = lib.ones(1, 1, 4, 4), lib.ones(1, 1, 2, 2)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            F(lib).conv2d(x, w, padding="same")
        messages.append([re.sub(r" \(Triggered internally at .*\)$", "", str(c.message)) for c in caught])
    assert messages[0] == messages[1] and len(messages[0]) == 1


ERRORS = {
    "channels": lambda L: F(L).conv2d(L.randn(1, 3, 32, 32), L.randn(6, 1, 5, 5)),
    "kernel_too_large": lambda L: F(L).conv2d(L.randn(1, 1, 3, 3), L.randn(6, 1, 5, 5)),
    "kernel_too_large_dilated": lambda L: F(L).conv2d(L.randn(1, 1, 6, 6), L.randn(6, 1, 3, 3), dilation=3),
    "conv2d_5d_input": lambda L: F(L).conv2d(L.randn(2, 1, 1, 3, 3), L.randn(6, 1, 5, 5)),
    "conv2d_3d_weight": lambda L: F(L).conv2d(L.randn(1, 1, 8, 8), L.randn(6, 1, 5)),
    "conv3d_4d_input": lambda L: F(L).conv3d(L.randn(1, 2, 3, 3), L.randn(1, 1, 2, 2, 2)),
    "conv3d_3d_input": lambda L: F(L).conv3d(L.randn(2, 3, 3), L.randn(1, 1, 2, 2, 2)),
    "conv1d_4d_weight": lambda L: F(L).conv1d(L.randn(1, 1, 8), L.randn(6, 1, 5, 5)),
    "groups_channels": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 2, 3, 3), groups=3),
    "groups_divide": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 2, 3, 3), groups=4),
    "groups_zero": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 2, 3, 3), groups=0),
    "bias_size": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 4, 3, 3), L.randn(5)),
    "stride_zero": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 4, 3, 3), stride=0),
    "padding_negative": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 4, 3, 3), padding=-1),
    "dilation_zero": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 4, 3, 3), dilation=0),
    "same_strided": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 4, 3, 3), stride=2, padding="same"),
    "padding_string": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 4, 3, 3), padding="foo"),
    "stride_length": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 4, 3, 3), stride=(1, 2, 3)),
    "weight_dtype": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 4, 3, 3).double()),
    "bias_dtype": lambda L: F(L).conv2d(L.randn(1, 4, 8, 8), L.randn(6, 4, 3, 3), L.randn(6).double()),
    "transposed_output_too_small": lambda L: F(L).conv_transpose2d(L.randn(1, 1, 3, 2), L.randn(1, 1, 1, 1),
                                                                   stride=2, padding=2),
    "transposed1d_output_too_small": lambda L: F(L).conv_transpose1d(L.randn(1, 1, 2), L.randn(1, 1, 2),
                                                                     stride=2, padding=2),
    "transposed_channels": lambda L: F(L).conv_transpose2d(L.randn(1, 4, 3, 3), L.randn(3, 2, 3, 3)),
    "module_channels": lambda L: _seeded(L, lambda: L.nn.Conv2d(3, 6, 5))(L.randn(1, 1, 32, 32)),
    "module_groups_in": lambda L: L.nn.Conv2d(3, 6, 5, groups=2),
    "module_groups_out": lambda L: L.nn.Conv2d(4, 6, 5, groups=4),
    "module_padding_string": lambda L: L.nn.Conv2d(4, 6, 5, padding="foo"),
    "module_same_strided": lambda L: L.nn.Conv2d(4, 6, 5, padding="same", stride=2),
    "module_padding_mode": lambda L: L.nn.Conv2d(4, 6, 5, padding_mode="foo"),
    "module_groups_zero": lambda L: L.nn.Conv2d(4, 6, 5, groups=0),
    "max_pool_pad": lambda L: F(L).max_pool2d(L.randn(2, 3, 8, 8), 3, padding=2),
    "max_pool_pad_dilated": lambda L: F(L).max_pool2d(L.randn(1, 1, 5, 5), 2, padding=2, dilation=3),
    "max_pool_too_small": lambda L: F(L).max_pool2d(L.randn(2, 3, 8, 8), 9),
    "max_pool_kernel_zero": lambda L: F(L).max_pool2d(L.randn(2, 3, 8, 8), 0),
    "max_pool_stride_zero": lambda L: F(L).max_pool2d(L.randn(2, 3, 8, 8), 2, stride=0),
    "max_pool_dilation_zero": lambda L: F(L).max_pool2d(L.randn(2, 3, 8, 8), 2, dilation=0),
    "max_pool_kernel_length": lambda L: F(L).max_pool2d(L.randn(2, 3, 8, 8), (2, 2, 2)),
    "max_pool_stride_length": lambda L: F(L).max_pool2d(L.randn(2, 3, 8, 8), 2, stride=(1, 2, 3)),
    "max_pool_2d_input": lambda L: F(L).max_pool2d(L.randn(8, 8), 2),
    "max_pool_negative_pad": lambda L: F(L).max_pool2d(L.randn(1, 1, 5, 5), 2, padding=-1),
    "max_pool_empty_channels": lambda L: F(L).max_pool2d(L.randn(1, 0, 4, 4), 2),
    "max_pool_5d_input": lambda L: F(L).max_pool2d(L.randn(1, 1, 1, 4, 4), 2),
    "max_pool_empty_height": lambda L: F(L).max_pool2d(L.randn(3, 0, 4), 2),
    "avg_pool_5d_input": lambda L: F(L).avg_pool2d(L.randn(1, 1, 1, 4, 4), 2),
    "avg_pool_empty_height": lambda L: F(L).avg_pool2d(L.randn(3, 0, 4), 2),
    "max_pool1d_4d_input": lambda L: F(L).max_pool1d(L.randn(2, 3, 8, 8), 2),
    "avg_pool_pad": lambda L: F(L).avg_pool2d(L.randn(1, 1, 5, 5), 2, padding=2),
    "avg_pool_too_small": lambda L: F(L).avg_pool2d(L.randn(2, 3, 8, 8), 9),
    "avg_pool_2d_input": lambda L: F(L).avg_pool2d(L.randn(8, 8), 2),
    "avg_pool_divisor_zero": lambda L: F(L).avg_pool2d(L.randn(2, 3, 8, 8), 2, divisor_override=0),
    "avg_pool_kernel_length": lambda L: F(L).avg_pool2d(L.randn(1, 1, 5, 5), (2, 2, 2)),
    "avg_pool1d_4d_input": lambda L: F(L).avg_pool1d(L.randn(2, 3, 8, 8), 2),
    "avg_pool1d_too_small": lambda L: F(L).avg_pool1d(L.randn(3, 8, 8), 9),
    "adaptive_avg_output_length": lambda L: F(L).adaptive_avg_pool2d(L.randn(2, 3, 8, 8), (2, 2, 2)),
    "adaptive_avg_2d_input": lambda L: F(L).adaptive_avg_pool2d(L.randn(8, 8), 2),
    "adaptive_avg_negative": lambda L: F(L).adaptive_avg_pool2d(L.randn(2, 3, 8, 8), -1),
    "adaptive_max_2d_input": lambda L: F(L).adaptive_max_pool2d(L.randn(8, 8), 2),
    "adaptive_avg1d_4d_input": lambda L: F(L).adaptive_avg_pool1d(L.randn(2, 3, 8, 8), 2),
    "pad_odd_length": lambda L: F(L).pad(L.randn(2, 3, 4), (1,)),
    "pad_too_long": lambda L: F(L).pad(L.randn(2, 3, 4), (1, 2, 3, 4, 5, 6, 7, 8)),
    "pad_crop_too_much": lambda L: F(L).pad(L.randn(2, 3, 4), (-3, -2)),
    "pad_crop_more_than_the_input": lambda L: F(L).pad(L.randn(3, 1, 1), (3, -2)),
    "pad_reflect_value": lambda L: F(L).pad(L.randn(2, 3, 4), (1, 2), mode="reflect", value=1),
    "pad_reflect_too_wide": lambda L: F(L).pad(L.randn(2, 3, 4), (4, 1), mode="reflect"),
    "pad_reflect_unsupported": lambda L: F(L).pad(L.randn(2, 3, 4), (1, 1, 1, 1, 1, 1), mode="reflect"),
    "pad_mode": lambda L: F(L).pad(L.randn(2, 3, 4), (1, 1), mode="foo"),
    "pad_reflect_1d_input": lambda L: F(L).pad(L.randn(4), (1, 1), mode="reflect"),
    # reflect and replicate refuse bools (after the size checks); circular copies them
    "pad_replicate_bool": lambda L: F(L).pad(L.ones(2, 3, dtype=L.bool), (1, 1), mode="replicate"),
    "pad_replicate2d_bool": lambda L: F(L).pad(L.ones(1, 2, 3, dtype=L.bool), (1, 1, 1, 1), mode="replicate"),
    "pad_replicate3d_bool": lambda L: F(L).pad(L.ones(1, 1, 2, 3, 3, dtype=L.bool), (1,) * 6, mode="replicate"),
    "pad_reflect_bool": lambda L: F(L).pad(L.ones(2, 3, dtype=L.bool), (1, 1), mode="reflect"),
    "pad_reflect2d_bool": lambda L: F(L).pad(L.ones(1, 2, 3, dtype=L.bool), (1, 1, 1, 1), mode="reflect"),
    "pad_reflect_bool_too_wide": lambda L: F(L).pad(L.ones(2, 3, dtype=L.bool), (5, 5), mode="reflect"),
    # ... and inputs with an empty dim other than the batch dim (before the width check)
    "pad_replicate_empty": lambda L: F(L).pad(L.ones(2, 0), (1, 1), mode="replicate"),
    "pad_replicate_empty_channels": lambda L: F(L).pad(L.ones(0, 3), (1, 1), mode="replicate"),
    "pad_reflect2d_empty": lambda L: F(L).pad(L.ones(1, 0, 2, 3), (1, 1, 1, 1), mode="reflect"),
    "pad_reflect2d_empty_too_wide": lambda L: F(L).pad(L.ones(2, 2, 0), (5, 5, 1, 1), mode="reflect"),
    "pad_replicate3d_empty": lambda L: F(L).pad(L.ones(1, 2, 0, 3), (1,) * 6, mode="replicate"),
    "unfold_2d_input": lambda L: F(L).unfold(L.randn(5, 6), 2),
    "unfold_too_large": lambda L: F(L).unfold(L.randn(2, 3, 5, 6), 7),
    "unfold_stride_zero": lambda L: F(L).unfold(L.randn(2, 3, 5, 6), 2, stride=0),
    "fold_not_divisible": lambda L: F(L).fold(L.randn(2, 18, 9), (5, 6), (2, 2)),
    "fold_block_count": lambda L: F(L).fold(L.randn(2, 18, 9), (5, 6), (2, 3)),
    "fold_1d_input": lambda L: F(L).fold(L.randn(9), (5, 6), (2, 3)),
    "conv2d_list_input": lambda L: F(L).conv1d([1.], L.randn(1, 1, 4, 4)),
    "conv2d_list_bias": lambda L: F(L).conv2d(L.randn(1, 1, 4, 4), L.randn(1, 1, 4, 4), [1.]),
    "conv2d_float_groups": lambda L: F(L).conv2d(L.randn(1, 1, 4, 4), L.randn(1, 1, 4, 4), None, 1, "same", 1, 1.5),
    "conv2d_stride_element": lambda L: F(L).conv2d(L.randn(1, 1, 4, 4), L.randn(1, 1, 4, 4), None, (1, "a")),
    "conv1d_float_stride": lambda L: F(L).conv1d(L.randn(1, 4, 4), L.randn(1, 4, 4), stride=2.0),
    "conv2d_bool": lambda L: F(L).conv2d(L.ones(1, 1, 4, 4, dtype=L.bool), L.ones(1, 1, 4, 4, dtype=L.bool)),
    "conv_transpose2d_list_weight": lambda L: F(L).conv_transpose2d(L.randn(1, 1, 4, 4), [1.]),
    "conv_transpose2d_float_stride": lambda L: F(L).conv_transpose2d(L.randn(1, 1, 4, 4), L.randn(1, 1, 2, 2),
                                                                     stride=1.5),
    "module_double_input": lambda L: L.nn.Conv2d(1, 2, 3)(L.randn(1, 1, 4, 4).double()),
    "max_pool_list_input": lambda L: F(L).max_pool2d([1.], 2),
    "max_pool_float_kernel": lambda L: F(L).max_pool2d(L.randn(1, 1, 4, 4), kernel_size=2.5),
    "max_pool_float_stride": lambda L: F(L).max_pool2d(L.randn(1, 1, 4, 4), 2, stride=1.5),
    "max_pool_float_padding_element": lambda L: F(L).max_pool2d(L.randn(1, 1, 4, 4), 2, 1, padding=(1.5, 1)),
    "max_pool_bool": lambda L: F(L).max_pool2d(L.ones(1, 1, 4, 4, dtype=L.bool), 2),
    "max_pool1d_bool": lambda L: F(L).max_pool1d(L.ones(1, 4, 4, dtype=L.bool), 2),
    "avg_pool_float_kernel": lambda L: F(L).avg_pool2d(L.randn(1, 1, 4, 4), 2.5),
    "avg_pool_bool": lambda L: F(L).avg_pool2d(L.ones(1, 1, 4, 4, dtype=L.bool), 2),
    "avg_pool1d_list_input": lambda L: F(L).avg_pool1d([1.], 2),
    "adaptive_avg_list_input": lambda L: F(L).adaptive_avg_pool2d([1.], 2),
    "adaptive_avg_long": lambda L: F(L).adaptive_avg_pool2d(L.arange(16).reshape(1, 1, 4, 4), 2),
    "adaptive_max_long": lambda L: F(L).adaptive_max_pool2d(L.arange(16).reshape(1, 1, 4, 4), 2),
    "pad_list_input": lambda L: F(L).pad([1.], (1, 1)),
    "pad_float_first": lambda L: F(L).pad(L.randn(1, 4), (1.5, 1)),
    "pad_float_second": lambda L: F(L).pad(L.randn(1, 4), [1, 2.0]),
    "pad_int": lambda L: F(L).pad(L.randn(1, 4), 1),
    "unfold_list_input": lambda L: F(L).unfold([1.], 2),
    "unfold_long": lambda L: F(L).unfold(L.arange(16).reshape(1, 1, 4, 4), 2),
    "fold_list_input": lambda L: F(L).fold([1.], (2, 2), 2),
    "fold_long": lambda L: F(L).fold(L.ones(1, 4, 4, dtype=L.long), (3, 3), 2),
    "pad_circular_wraps_twice": lambda L: F(L).pad(L.randn(2, 3, 4), (5, 1), mode="circular"),
    # (found by the random-program test: the sizes are checked before the dtype, in PyTorch's order)
    "fold_long_block_count": lambda L: F(L).fold(L.ones(1, 2, 3, dtype=L.long), (2, 4), (1, 2)),
    "fold_long_1d_input": lambda L: F(L).fold(L.ones(3, dtype=L.long), (1, 4), (1, 2)),
    "fold_stride_zero": lambda L: F(L).fold(L.ones(1, 2, 3), (1, 4), (1, 2), stride=0),
    "fold_kernel_zero_and_stride_zero": lambda L: F(L).fold(L.ones(1, 2, 3), (1, 4), (0, 2), stride=0),
    "fold_stride_zero_and_dilation_zero": lambda L: F(L).fold(L.ones(1, 2, 3), (1, 4), (1, 2), 0, 0, 0),
    "fold_negative_padding": lambda L: F(L).fold(L.ones(1, 2, 3), (1, 4), (1, 2), padding=-1),
    "fold_negative_block_counts": lambda L: F(L).fold(L.ones(1, 2, 10), (-2, -4), (1, 2)),
    "unfold_long_too_large": lambda L: F(L).unfold(L.ones(1, 1, 2, 3, dtype=L.long), (3, 2)),
    "unfold_long_2d_input": lambda L: F(L).unfold(L.ones(2, 3, dtype=L.long), (1, 2)),
    "unfold_0d_input": lambda L: F(L).unfold(L.ones(()), 2),
    "unfold_1d_input": lambda L: F(L).unfold(L.ones(3), 2),
    "unfold_5d_input": lambda L: F(L).unfold(L.ones(1, 1, 1, 2, 3), 1),
    "unfold_no_channels": lambda L: F(L).unfold(L.ones(1, 0, 2, 3), (1, 2)),
    "unfold_unbatched_empty": lambda L: F(L).unfold(L.ones(0, 2, 3), 1),
    "unfold_kernel_zero": lambda L: F(L).unfold(L.ones(1, 1, 2, 3), (0, 2)),
    "unfold_dilation_zero_and_stride_zero": lambda L: F(L).unfold(L.ones(1, 1, 2, 3), 1, 0, 0, 0),
    "unfold_negative_padding": lambda L: F(L).unfold(L.ones(1, 1, 2, 3), (1, 2), padding=-1),
}


def test_fold_and_unfold_of_bools_as_torch():
    """PyTorch's im2col and col2im have a kernel for bool (overlapping trues stay true)."""
    torch = import_torch()

    def run(L):
        bits = L.tensor(np.array([[[True, False, True], [False, False, True]]]))
        return (F(L).fold(bits, (1, 4), (1, 2)).tolist(), F(L).unfold(bits, (1, 2), padding=1).tolist(),
                str(F(L).fold(bits, (1, 4), (1, 2)).dtype))
    assert run(minigrad) == run(torch)


def _sorted_sets(message):
    """A Python set printed in a message, its elements sorted: PyTorch prints sets, whose order
    depends on the strings' hashes and even on when its .pyc file was compiled."""
    return re.sub(r"\{('[^}]*')\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", message)


def _error(lib, program):
    try:
        program(lib)
    except Exception as error:          # noqa: BLE001  (the class is what is compared)
        message = _sorted_sets(str(error))
        if "invalid combination of arguments" in message:
            message = message.split("\n")[0]       # (the signatures listed below it: only their first line)
        return type(error).__name__, message
    return None


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_as_torch(name):
    torch = import_torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _error(minigrad, ERRORS[name]) == _error(torch, ERRORS[name])


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64"])
@pytest.mark.parametrize("dims, dilation, transposed", [(1, 1, False), (2, 1, False), (3, 1, False),
                                                        (1, 2, False), (3, 2, False), (1, 1, True),
                                                        (2, 2, True), (3, 1, True)])
def test_integer_and_bool_convolutions_as_torch(dtype, dims, dilation, transposed):
    # PyTorch's kernel for them follows from the settings (dilated, transposed, 3-d), and each
    # has its own dtypes and name (found by the random-program test: a dilated conv1d of bools)
    torch = import_torch()

    def convolve(L):
        x = L.ones((1, 1) + (5,) * dims, dtype=getattr(L, dtype))
        w = L.ones((1, 1) + (2,) * dims, dtype=getattr(L, dtype))
        name = f"conv_transpose{dims}d" if transposed else f"conv{dims}d"
        return getattr(L.nn.functional, name)(x, w, dilation=dilation, stride=2)
    assert _error(minigrad, convolve) == _error(torch, convolve)
    if _error(torch, convolve) is None:
        ours, theirs = convolve(minigrad), convolve(torch)
        assert (str(ours.dtype), ours.tolist()) == (str(theirs.dtype), theirs.tolist())


LAYERS = [
    lambda L: L.nn.Conv2d(1, 6, 5),
    lambda L: L.nn.Conv2d(1, 6, 5, stride=2, padding=1, dilation=2, bias=False, padding_mode="reflect"),
    lambda L: L.nn.Conv2d(4, 4, (3, 2), groups=2),
    lambda L: L.nn.Conv1d(2, 4, 3, padding="same"),
    lambda L: L.nn.Conv1d(2, 4, 3, stride=2),
    lambda L: L.nn.ConvTranspose2d(3, 4, 3, stride=2, output_padding=1),
    lambda L: L.nn.ConvTranspose1d(2, 4, 3, groups=2, bias=False),
    lambda L: L.nn.MaxPool2d(2),
    lambda L: L.nn.MaxPool2d(3, 2, 1, 2, True, True),
    lambda L: L.nn.MaxPool2d((2, 3)),
    lambda L: L.nn.MaxPool1d(2),
    lambda L: L.nn.AvgPool2d(2),
    lambda L: L.nn.AvgPool2d(3, 2, 1, True, False, 2),
    lambda L: L.nn.AvgPool2d((2, 3), (1, 1), (1, 0)),
    lambda L: L.nn.AvgPool1d(3),
    lambda L: L.nn.AvgPool1d(3, 2, 1, True, False),
    lambda L: L.nn.AdaptiveAvgPool2d((5, 7)),
    lambda L: L.nn.AdaptiveAvgPool2d(1),
    lambda L: L.nn.AdaptiveAvgPool1d(3),
    lambda L: L.nn.AdaptiveMaxPool2d((2, None)),
    lambda L: L.nn.AdaptiveMaxPool1d(2),
    lambda L: L.nn.ZeroPad2d(2),
    lambda L: L.nn.ZeroPad1d(1),
    lambda L: L.nn.ConstantPad2d((1, 2, 3, 4), 3.5),
    lambda L: L.nn.ConstantPad1d(2, 1.),
    lambda L: L.nn.ReflectionPad2d(1),
    lambda L: L.nn.ReflectionPad1d(2),
    lambda L: L.nn.ReplicationPad2d((1, 0, 1, 0)),
    lambda L: L.nn.ReplicationPad1d(1),
    lambda L: L.nn.CircularPad2d(1),
    lambda L: L.nn.Conv2d(2, 3, 2, dtype=L.float64),
    lambda L: L.nn.Conv1d(4, 2, 1, groups=2, padding_mode="circular", padding=1),
    lambda L: L.nn.Conv3d(2, 4, 3, stride=(1, 2, 1)),
    lambda L: L.nn.ConvTranspose3d(2, 4, 2, bias=False),
    lambda L: L.nn.Unfold(2),
    lambda L: L.nn.Unfold((2, 3), 2, 1, (1, 2)),
    lambda L: L.nn.Fold((4, 5), 2, stride=2),
]


@pytest.mark.parametrize("number", range(len(LAYERS)))
def test_layers_print_and_initialise_as_torch(number):
    """The printed layer, and after the same manual_seed the same weights (the same draws in the same order)."""
    torch = import_torch()
    made = []
    for lib in (minigrad, torch):
        lib.manual_seed(3)
        layer = LAYERS[number](lib)
        made.append((repr(layer), [(name, tuple(p.shape), p.detach().numpy()) for name, p in layer.named_parameters()]))
    assert made[0][0] == made[1][0]
    assert [(n, s) for n, s, _ in made[0][1]] == [(n, s) for n, s, _ in made[1][1]]
    for (_, _, ours), (_, _, theirs) in zip(made[0][1], made[1][1]):
        np.testing.assert_array_equal(ours, theirs)


LENET = '''
class Net(nn.Module):

    def __init__(self):
        super(Net, self).__init__()
        # 1 input image channel, 6 output channels, 5x5 square convolution kernel
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        # an affine operation: y = Wx + b
        self.fc1 = nn.Linear(16 * 5 * 5, 120)  # 5*5 from image dimension
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, input):
        c1 = F.relu(self.conv1(input))
        s2 = F.max_pool2d(c1, (2, 2))
        c3 = F.relu(self.conv2(s2))
        s4 = F.max_pool2d(c3, 2)
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        output = self.fc3(f6)
        return output

torch.manual_seed(0)
net = Net()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())  # conv1's .weight
input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out)
net.zero_grad()
out.backward(torch.randn(1, 10))
output = net(input)
target = torch.randn(10)  # a dummy target, for example
target = target.view(1, -1)  # make it the same shape as output
criterion = nn.MSELoss()
loss = criterion(output, target)
print(loss)
print(loss.grad_fn)  # MSELoss
print(loss.grad_fn.next_functions[0][0])  # Linear
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])  # ReLU
net.zero_grad()     # zeroes the gradient buffers of all parameters
print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)
loss.backward()
print('conv1.bias.grad after backward')
print(net.conv1.bias.grad)
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)
optimizer = optim.SGD(net.parameters(), lr=0.01)
optimizer.zero_grad()   # zero the gradient buffers
output = net(input)
loss = criterion(output, target)
loss.backward()
optimizer.step()    # Does the update
print(loss)
print(net(input))
print(net.conv1(input).grad_fn, net.conv1(input).grad_fn.next_functions)
'''


def _printed(lib):
    """What the tutorial's program prints with ``lib`` as ``torch`` (object addresses blanked)."""
    output = io.StringIO()
    namespace = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional, "optim": lib.optim}
    with contextlib.redirect_stdout(output):
        exec(LENET, namespace)
    return re.sub(r"0x[0-9a-f]+", "0x...", output.getvalue())


def test_the_neural_networks_tutorial_prints_as_torch():
    """PyTorch's "Neural Networks" tutorial (LeNet, MSELoss, one SGD step): the same printout."""
    torch = import_torch()
    ours, theirs = _printed(minigrad), _printed(torch)
    assert "Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))" in ours
    assert ours == theirs


FORWARD_MODE = {
    "conv2d": lambda L, x, w, b: F(L).conv2d(x, w, b, padding=1),
    "conv_transpose1d": lambda L, x, w, b: F(L).conv_transpose1d(x.flatten(2), w.transpose(0, 1)[:, :, 0], b, stride=2),
    "max_pool2d": lambda L, x, w, b: F(L).max_pool2d(x, 2),
    "avg_pool2d": lambda L, x, w, b: F(L).avg_pool2d(x, 3, 1, 1, count_include_pad=False),
    "adaptive_avg_pool2d": lambda L, x, w, b: F(L).adaptive_avg_pool2d(x, (2, 3)),
    "adaptive_max_pool2d": lambda L, x, w, b: F(L).adaptive_max_pool2d(x, 3),
    "pad_constant": lambda L, x, w, b: F(L).pad(x, (1, 0, 2, -1), value=1.5),
    "pad_reflect": lambda L, x, w, b: F(L).pad(x, (1, 2, 2, 1), mode="reflect"),
    "pad_replicate": lambda L, x, w, b: F(L).pad(x.flatten(2), (1, 2), mode="replicate"),
    "unfold": lambda L, x, w, b: F(L).unfold(x, 2, padding=1),
    "fold": lambda L, x, w, b: F(L).fold(x.reshape(2, 12, 9)[:, :, :4], (3, 3), 2, stride=2, padding=1),
}


@pytest.mark.parametrize("name", sorted(FORWARD_MODE))
def test_forward_mode_as_torch(name):
    """Tangents pushed forward (torch.autograd.forward_ad) are PyTorch's."""
    torch = import_torch()
    primals = _arrays([(2, 3, 6, 6), (4, 3, 3, 3), (4,)], seed=4)
    tangents = _arrays([(2, 3, 6, 6), (4, 3, 3, 3), (4,)], seed=5)
    results = []
    for lib in (minigrad, torch):
        forward_ad = lib.autograd.forward_ad
        with forward_ad.dual_level():
            duals = [forward_ad.make_dual(lib.tensor(p), lib.tensor(t)) for p, t in zip(primals, tangents)]
            out = FORWARD_MODE[name](lib, *duals)
            primal, tangent = forward_ad.unpack_dual(out)
            results.append((primal.numpy(), tangent.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


EDGE_CASES = {
    "empty_batch": lambda L: F(L).conv2d(L.zeros(0, 3, 6, 6), L.ones(4, 3, 3, 3)),
    "integers": lambda L: F(L).conv2d(L.arange(36).reshape(1, 1, 6, 6), L.ones(2, 1, 3, 3, dtype=L.int64)),
    "no_grad": lambda L: _under_no_grad(L),
    "vmap": lambda L: L.func.vmap(lambda t: F(L).conv1d(t, L.ones(2, 1, 2)))(L.arange(12.).reshape(3, 1, 4)),
    # a window that sees only padding keeps the position PyTorch's loop starts from
    "max_pool_window_in_padding": lambda L: F(L).max_pool1d(L.tensor([[[0.5], [-1.2]]]), 2, 1, 1, 2,
                                                            return_indices=True),
    "max_pool_only_minus_infinity": lambda L: F(L).max_pool2d(L.tensor([[[[0.5, float("-inf")]]]]), (1, 2), 1, (0, 1),
                                                              (1, 2), return_indices=True),
    "max_pool_ties_and_nan": lambda L: F(L).max_pool2d(
        L.tensor([[[[1., 1., float("nan"), 0.], [1., 0., 2., 2.]]]]), 2, return_indices=True),
}


def _under_no_grad(lib):
    with lib.no_grad():
        out = F(lib).conv2d(lib.ones(1, 1, 3, 3, requires_grad=True), lib.ones(1, 1, 2, 2, requires_grad=True))
    return out, out.requires_grad, out.grad_fn


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_edge_cases_as_torch(name):
    torch = import_torch()
    assert repr(EDGE_CASES[name](minigrad)) == repr(EDGE_CASES[name](torch))


SECOND_ORDER = {
    "max_pool2d": lambda L, x: F(L).max_pool2d(x, 2),
    "max_pool1d": lambda L, x: F(L).max_pool1d(x[0], 2),
    "adaptive_max_pool2d": lambda L, x: F(L).adaptive_max_pool2d(x, 2),
    "avg_pool2d": lambda L, x: F(L).avg_pool2d(x, 2),
    "adaptive_avg_pool2d": lambda L, x: F(L).adaptive_avg_pool2d(x, 3),
    "pad_reflect": lambda L, x: F(L).pad(x[0], (1, 1), mode="reflect"),
    "pad_replicate": lambda L, x: F(L).pad(x, (1, 1, 1, 1), mode="replicate"),
    "pad_constant": lambda L, x: F(L).pad(x, (1, 1)),
    "unfold": lambda L, x: F(L).unfold(x, 2),
    "conv_transpose2d": lambda L, x: F(L).conv_transpose2d(x, L.ones(3, 2, 2, 2, dtype=L.float64)),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_gradient_graphs_under_create_graph_as_torch(name):
    """The gradient's own graph (create_graph=True) has PyTorch's nodes, and differentiates as PyTorch's."""
    torch = import_torch()
    x = _arrays([(1, 3, 6, 6)], seed=6)[0]
    seen = []
    for lib in (minigrad, torch):
        leaf = lib.tensor(x, requires_grad=True)
        out = SECOND_ORDER[name](lib, leaf)
        grad_out = lib.ones(tuple(out.shape), dtype=lib.float64, requires_grad=True)
        (grad_x,) = lib.autograd.grad(out, leaf, grad_out, create_graph=True)
        (again,) = lib.autograd.grad((grad_x * grad_x).sum(), grad_out)
        seen.append((graph(grad_x.grad_fn), again.numpy()))
    assert seen[0][0] == seen[1][0]
    np.testing.assert_allclose(seen[0][1], seen[1][1], rtol=1e-12, atol=1e-12)


THIRD_ORDER = {
    "plain": ((1, 2, 5, 5), (3, 2, 3, 3), {}, False),
    "stride_padding": ((2, 2, 7, 6), (3, 2, 3, 2), dict(stride=2, padding=1), False),
    "dilation": ((2, 2, 7, 6), (3, 2, 3, 2), dict(stride=(2, 1), padding=(1, 0), dilation=(1, 2)), False),
    "groups": ((2, 4, 6, 6), (6, 2, 3, 3), dict(groups=2, stride=2), False),
    "conv1d": ((2, 3, 9), (4, 3, 3), dict(stride=3), False),
    "transposed": ((2, 3, 3, 4), (3, 2, 3, 3), dict(stride=2, padding=1), True),
    "transposed_output_padding": ((2, 3, 3, 4), (3, 2, 3, 3), dict(stride=2, padding=1, output_padding=1), True),
    "transposed_groups": ((1, 4, 3, 3), (4, 3, 2, 2), dict(groups=2, dilation=2), True),
    "transposed_wide_output_padding": ((1, 2, 3, 3), (2, 2, 3, 2),
                                       dict(stride=(1, 2), dilation=(2, 1), output_padding=(1, 0)), True),
}


@pytest.mark.parametrize("name", sorted(THIRD_ORDER))
def test_third_order_graphs_and_values_as_torch(name):
    """The gradient of the gradient's gradient: PyTorch builds its terms from ordinary convolutions
    (the weight's from the transposed batch), and so does minigrad, node for node. (PyTorch's own
    backward refuses the third derivative of a transposed convolution with output_padding.)"""
    torch = import_torch()
    x_shape, w_shape, settings, transposed = THIRD_ORDER[name]
    x, w = _arrays([x_shape, w_shape], seed=7)
    seen = []
    for lib in (minigrad, torch):
        function = getattr(F(lib), ("conv_transpose" if transposed else "conv") + f"{len(x_shape) - 2}d")
        X, W = lib.tensor(x, requires_grad=True), lib.tensor(w, requires_grad=True)
        out = function(X, W, **settings)
        grad_x, grad_w = lib.autograd.grad((out * out).sum(), (X, W), create_graph=True)
        grad_w2, grad_x2 = lib.autograd.grad((grad_x * grad_x).sum() + (grad_w ** 3).sum(), (W, X), create_graph=True)
        try:
            third = [g.numpy() for g in lib.autograd.grad((grad_w2 ** 2).sum() + (grad_x2 ** 2).sum(), (X, W))]
        except RuntimeError as error:
            third = str(error)
        seen.append((graph(grad_w2.grad_fn), graph(grad_x2.grad_fn), third))
    assert seen[0][:2] == seen[1][:2]
    if isinstance(seen[1][2], str):
        assert seen[0][2] == seen[1][2]
    else:
        for ours, theirs in zip(seen[0][2], seen[1][2]):
            np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-10)
