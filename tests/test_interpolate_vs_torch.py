"""F.interpolate and the Upsample layers against PyTorch: values and gradients (to the last
bit where minigrad follows PyTorch's loops), the recorded nodes and their saved settings,
second order, gradcheck and gradgradcheck, the errors for bad arguments, and printing."""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch

CASES = [
    ((2, 3, 7), dict(scale_factor=2)),
    ((2, 3, 7), dict(size=11)),
    ((2, 3, 7), dict(scale_factor=0.6)),
    ((2, 3, 7), dict(size=4, mode="linear")),
    ((2, 3, 7), dict(scale_factor=1.7, mode="linear", align_corners=True)),
    ((2, 3, 7), dict(size=13, mode="nearest-exact")),
    ((2, 3, 7), dict(size=3, mode="area")),
    ((2, 3, 5, 6), dict(scale_factor=2)),
    ((2, 3, 5, 6), dict(size=(7, 9))),
    ((2, 3, 5, 6), dict(scale_factor=(1.5, 0.5))),
    ((2, 3, 5, 6), dict(scale_factor=1.7, mode="bilinear")),
    ((2, 3, 5, 6), dict(size=(9, 11), mode="bilinear", align_corners=True)),
    ((2, 3, 5, 6), dict(size=(3, 4), mode="bilinear")),
    ((1, 2, 40, 50), dict(size=(70, 80), mode="bilinear")),        # a larger output: another loop
    ((2, 3, 5, 6), dict(size=(6, 7), mode="nearest-exact")),
    ((2, 3, 5, 6), dict(size=(2, 3), mode="area")),
    ((2, 3, 5, 6), dict(scale_factor=1.5, mode="bilinear", recompute_scale_factor=True)),
    ((1, 2, 3, 4, 5), dict(scale_factor=2)),
    ((1, 2, 3, 4, 5), dict(size=(4, 5, 7), mode="trilinear")),
    ((1, 2, 3, 4, 5), dict(scale_factor=1.5, mode="trilinear", align_corners=True)),
    ((1, 2, 3, 4, 5), dict(size=(5, 5, 5), mode="nearest-exact")),
    ((2, 3, 5, 6), dict(scale_factor=2, mode="bicubic")),
    ((2, 3, 5, 6), dict(size=(4, 9), mode="bicubic", align_corners=True)),
    ((1, 2, 23, 19), dict(size=(7, 5), mode="bicubic")),
    ((1, 2, 31, 30), dict(scale_factor=(0.3, 1.7), mode="bicubic")),
    ((2, 9, 5, 6), dict(scale_factor=1.7, mode="bilinear")),        # channels 8 at a time
    ((1, 16, 5, 6), dict(size=(3, 9), mode="bilinear")),
]


def graph(grad_fn):
    if grad_fn is None:
        return None
    saved = {name: getattr(grad_fn, name) for name in dir(grad_fn)
             if name.startswith("_saved_") and name != "_saved_self"}
    return (type(grad_fn).__name__, saved, tuple(graph(c) for c, _ in grad_fn.next_functions))


def run(lib, shape, settings, dtype):
    array = np.random.default_rng(sum(shape)).standard_normal(shape).astype(dtype)
    x = lib.tensor(array, requires_grad=True)
    y = lib.nn.functional.interpolate(x, **settings)
    recorded = graph(y.grad_fn)
    weights = lib.tensor(np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)).astype(dtype))
    (y * weights).sum().backward()
    return y.detach().numpy(), x.grad.numpy(), recorded


def _name(case):
    shape, settings = case
    return "x".join(map(str, shape)) + "-" + "-".join(f"{k}={v}" for k, v in settings.items())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CASES, ids=_name)
def test_values_gradients_and_nodes_as_torch(case, dtype):
    torch = import_torch()
    ours, theirs = run(minigrad, *case, dtype), run(torch, *case, dtype)
    assert ours[2] == theirs[2]
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])


@pytest.mark.parametrize("case", [c for c in CASES if c[1].get("mode") != "area"],
                         ids=_name)
def test_second_order_nodes_and_values_as_torch(case):
    torch = import_torch()
    shape, settings = case
    array = np.random.default_rng(1).standard_normal(shape)
    seen = []
    for lib in (minigrad, torch):
        x = lib.tensor(array, requires_grad=True)
        y = lib.nn.functional.interpolate(x, **settings)
        (grad,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        recorded = graph(grad.grad_fn)
        (grad * grad).sum().backward()
        seen.append((recorded, grad.detach().numpy(), x.grad.numpy()))
    assert seen[0][0] == seen[1][0]
    np.testing.assert_allclose(seen[0][1], seen[1][1], rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(seen[0][2], seen[1][2], rtol=1e-13, atol=1e-13)


SMALL = [case for case in CASES if np.prod(case[0]) <= 200]


@pytest.mark.parametrize("case", SMALL, ids=_name)
def test_gradcheck_and_gradgradcheck(case):
    shape, settings = case
    shape = (1, 1) + tuple(shape[2:])       # one image of one channel (each is resized on its own)
    x = minigrad.tensor(np.random.default_rng(2).standard_normal(shape), requires_grad=True)
    assert gradcheck(lambda t: minigrad.nn.functional.interpolate(t, **settings), (x,))
    assert gradgradcheck(lambda t: minigrad.nn.functional.interpolate(t, **settings), (x,))


BAD = {
    "both": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4), size=3, scale_factor=2),
    "neither": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4)),
    "align_nearest": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4), size=3, align_corners=True),
    "size_length": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4), size=(3, 3, 3)),
    "size_type": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4), size=(3.0, 3)),
    "scale_length": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4), scale_factor=(2, 2, 2)),
    "recompute_with_size": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4), size=3, recompute_scale_factor=True),
    "bilinear_3d": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4), size=3, mode="bilinear"),
    "linear_4d": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4), size=3, mode="linear"),
    "trilinear_4d": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4), size=3, mode="trilinear"),
    "bicubic_5d": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4, 4), size=3, mode="bicubic"),
    "two_dims": lambda L: L.nn.functional.interpolate(L.ones(4, 4), size=3),
    "unknown_mode": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4), size=3, mode="cubic"),
    "antialias_nearest": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4), size=3, antialias=True),
    "zero_output": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4), scale_factor=0.1),
    "zero_output_1d": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4), size=0, mode="linear"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_arguments_raise_as_torch(name):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as caught:
            BAD[name](lib)
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[0] == outcomes[1]


LAYERS = {
    "upsample_scale": lambda nn: nn.Upsample(scale_factor=2, mode="bilinear"),
    "upsample_size": lambda nn: nn.Upsample(size=(5, 7)),
    "upsample_tuple": lambda nn: nn.Upsample(scale_factor=(2, 1.5), mode="nearest-exact"),
    "nearest2d": lambda nn: nn.UpsamplingNearest2d(size=6),
    "bilinear2d": lambda nn: nn.UpsamplingBilinear2d(scale_factor=2),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layers_print_and_resize_as_torch(name):
    torch = import_torch()
    array = np.random.default_rng(3).standard_normal((1, 2, 3, 4)).astype(np.float32)
    made = []
    for lib in (minigrad, torch):
        layer = LAYERS[name](lib.nn)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = layer(lib.tensor(array)).numpy()
        made.append((repr(layer), layer.scale_factor, layer.size, layer.mode, layer.align_corners, out))
    assert made[0][:5] == made[1][:5]
    np.testing.assert_array_equal(made[0][5], made[1][5])


MORE_BAD = {
    "long_nearest_1d": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, dtype=L.long), size=3),
    "long_bilinear_small": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4, dtype=L.long), size=(2, 2), mode="bilinear"),
    "long_bilinear_large": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 80, 80, dtype=L.long), size=(100, 100), mode="bilinear"),
    "long_bicubic": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4, dtype=L.long), size=(2, 2), mode="bicubic"),
    "long_trilinear": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4, 4, dtype=L.long), size=2, mode="trilinear"),
    "no_channels": lambda L: L.nn.functional.interpolate(L.ones(1, 0, 4), size=2),
    "zero_height": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 4, 4), size=(0, 2), mode="bilinear"),
}


@pytest.mark.parametrize("name", sorted(MORE_BAD))
def test_more_bad_inputs_raise_as_torch(name):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as caught:
            MORE_BAD[name](lib)
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("sizes", [(9, 14), (23, 7), (40, 70)])
def test_bicubic_weights_are_torchs_to_the_last_bit(sizes, dtype):
    # channel k holds a one in column k only: each output then shows one weight exactly
    torch = import_torch()
    n, m = sizes
    seen = [lib.nn.functional.interpolate(lib.tensor(np.eye(n, dtype=dtype).reshape(1, n, 1, n)),
                                          size=(1, m), mode="bicubic").numpy()
            for lib in (minigrad, torch)]
    np.testing.assert_array_equal(seen[0], seen[1])


def test_an_empty_batch_resizes_to_an_empty_batch():
    torch = import_torch()
    shapes = [tuple(lib.nn.functional.interpolate(lib.ones(0, 2, 4, 4), size=(2, 3)).shape)
              for lib in (minigrad, torch)]
    assert shapes[0] == shapes[1]
