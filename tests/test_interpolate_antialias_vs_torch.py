"""F.interpolate(..., antialias=True) and the lanczos mode against PyTorch: values and gradients to
the last bit in float32 and float64 (shrinking and growing, align_corners, scale_factor, filters
wide enough for the vectorised sums), the Aa nodes and their saved settings, second order and
forward mode, gradcheck and gradgradcheck, and the errors."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch

MODES = ("bilinear", "bicubic", "lanczos")
RESIZES = [
    ((2, 3, 23, 19), dict(size=(7, 5))),                      # shrink both dims
    ((1, 2, 9, 10), dict(size=(14, 23))),                     # grow both dims
    ((1, 2, 7, 30), dict(size=(7, 3))),                       # only the width changes
    ((1, 2, 30, 7), dict(size=(4, 7))),                       # only the height changes
    ((1, 1, 64, 70), dict(size=(5, 9))),                      # wide filters: many taps per output
    ((1, 2, 31, 30), dict(scale_factor=(0.3, 1.7))),
    ((1, 2, 12, 10), dict(scale_factor=0.5, recompute_scale_factor=True)),
    ((1, 2, 6, 7), dict(size=(6, 7))),                        # the same size: a copy
    ((2, 3, 31, 30), dict(size=(4, 29), align_corners=True)),
    ((1, 1, 5, 6), dict(size=(1, 3), align_corners=True)),   # one output row
]
CASES = [(shape, dict(settings, mode=mode)) for mode in MODES for shape, settings in RESIZES
         if not (mode == "lanczos" and settings.get("align_corners"))]


def graph(grad_fn):
    if grad_fn is None:
        return None
    saved = {name: getattr(grad_fn, name) for name in dir(grad_fn)
             if name.startswith("_saved_") and name != "_saved_self"}
    return (type(grad_fn).__name__, saved, tuple(graph(c) for c, _ in grad_fn.next_functions))


def run(lib, shape, settings, dtype):
    rng = np.random.default_rng(sum(shape))
    x = lib.tensor(rng.standard_normal(shape).astype(dtype), requires_grad=True)
    y = lib.nn.functional.interpolate(x, antialias=True, **settings)
    recorded = graph(y.grad_fn)
    y.backward(lib.tensor(rng.standard_normal(tuple(y.shape)).astype(dtype)))
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


SECOND = [((1, 2, 9, 8), dict(scale_factor=(0.5, 1.5), mode=mode)) for mode in MODES]


@pytest.mark.parametrize("case", SECOND, ids=_name)
def test_second_order_and_forward_mode_as_torch(case):
    torch = import_torch()
    shape, settings = case
    array = np.random.default_rng(1).standard_normal(shape)
    seen = []
    for lib in (minigrad, torch):
        x = lib.tensor(array, requires_grad=True)
        y = lib.nn.functional.interpolate(x, antialias=True, **settings)
        (grad,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        recorded = graph(grad.grad_fn)
        (grad * grad).sum().backward()
        forward_ad = lib.autograd.forward_ad
        with forward_ad.dual_level():
            dual = forward_ad.make_dual(x.detach(), lib.tensor(array[::-1].copy()))
            out = lib.nn.functional.interpolate(dual, antialias=True, **settings)
            tangent = forward_ad.unpack_dual(out).tangent.numpy()
        seen.append((recorded, grad.detach().numpy(), x.grad.numpy(), tangent))
    assert seen[0][0] == seen[1][0]
    for ours, theirs in zip(seen[0][1:], seen[1][1:]):
        np.testing.assert_array_equal(ours, theirs)


SMALL = [((1, 1, 7, 6), dict(size=(3, 9), mode=mode)) for mode in MODES] + [
    ((1, 1, 5, 4), dict(scale_factor=(0.6, 1.5), mode="bicubic", align_corners=True))]


@pytest.mark.parametrize("case", SMALL, ids=_name)
def test_gradcheck_and_gradgradcheck(case):
    shape, settings = case
    x = minigrad.tensor(np.random.default_rng(2).standard_normal(shape), requires_grad=True)

    def resize(t):
        return minigrad.nn.functional.interpolate(t, antialias=True, **settings)

    assert gradcheck(resize, (x,))
    assert gradgradcheck(resize, (x,))


def test_an_empty_batch_resizes_and_backpropagates():
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        x = lib.ones(0, 2, 4, 4, requires_grad=True)
        y = lib.nn.functional.interpolate(x, size=(3, 5), mode="bicubic", antialias=True)
        y.sum().backward()
        seen.append((tuple(y.shape), tuple(x.grad.shape), type(y.grad_fn).__name__))
    assert seen[0] == seen[1]


def _resize(L, shape, dtype=None, **settings):
    return L.nn.functional.interpolate(L.ones(*shape, dtype=dtype or L.float32), **settings)


BAD = {
    "lanczos_without_antialias": lambda L: _resize(L, (1, 1, 4, 4), size=3, mode="lanczos"),
    "lanczos_align_corners": lambda L: _resize(L, (1, 1, 4, 4), size=3, mode="lanczos",
                                                antialias=True, align_corners=True),
    "lanczos_align_corners_only": lambda L: _resize(L, (1, 1, 4, 4), size=3, mode="lanczos",
                                                     align_corners=True),
    "lanczos_3d": lambda L: _resize(L, (1, 1, 4), size=3, mode="lanczos"),
    "lanczos_5d": lambda L: _resize(L, (1, 1, 4, 4, 4), size=3, mode="lanczos"),
    "antialias_linear": lambda L: _resize(L, (1, 1, 4), size=3, mode="linear", antialias=True),
    "antialias_bilinear_3d": lambda L: _resize(L, (1, 1, 4), size=3, mode="bilinear", antialias=True),
    "antialias_trilinear": lambda L: _resize(L, (1, 1, 4, 4, 4), size=3, mode="trilinear",
                                             antialias=True),
    "antialias_area": lambda L: _resize(L, (1, 1, 4, 4), size=3, mode="area", antialias=True),
    "antialias_int": lambda L: _resize(L, (1, 1, 4, 4), L.int32, size=3, mode="bicubic",
                                       antialias=True),
    "antialias_bool": lambda L: _resize(L, (1, 1, 4, 4), L.bool, size=3, mode="bilinear",
                                        antialias=True),
    "antialias_half": lambda L: _resize(L, (1, 1, 4, 4), L.float16, size=3, mode="lanczos",
                                        antialias=True),
    "antialias_long_zero_size": lambda L: _resize(L, (1, 1, 4, 4), L.int64, size=(0, 3),
                                                  mode="bilinear", antialias=True),
    "antialias_zero_output": lambda L: _resize(L, (1, 1, 4, 4), scale_factor=0.2, mode="bilinear",
                                               antialias=True),
    "antialias_zero_input": lambda L: _resize(L, (1, 1, 0, 4), size=3, mode="bicubic", antialias=True),
    "antialias_no_channels": lambda L: _resize(L, (1, 0, 4, 4), size=3, mode="lanczos", antialias=True),
    "antialias_size_length": lambda L: _resize(L, (1, 1, 4, 4), size=(3, 3, 3), mode="lanczos",
                                               antialias=True),
    "upsample_lanczos": lambda L: L.nn.Upsample(size=3, mode="lanczos")(L.ones(1, 1, 4, 4)),
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


UINT8 = [(channels, settings) for channels in (1, 3, 5) for settings in (
    dict(size=(7, 5), mode="bilinear", antialias=True),
    dict(scale_factor=(0.3, 1.7), mode="bicubic", antialias=True),
    dict(size=(14, 23), mode="lanczos", antialias=True),
    dict(size=(5, 17), mode="bilinear", align_corners=True),
    dict(size=(40, 9), mode="bicubic"),
    dict(size=(14, 23), mode="nearest-exact"),
)]


@pytest.mark.parametrize("channels,settings", UINT8,
                         ids=[f"{c}-" + "-".join(f"{k}={v}" for k, v in s.items()) for c, s in UINT8])
def test_uint8_images_resize_as_torch(channels, settings):
    # integer weights and sums, as Pillow: exact whatever the order
    torch = import_torch()
    array = np.random.default_rng(channels).integers(0, 256, (2, channels, 23, 19)).astype(np.uint8)
    seen = [lib.nn.functional.interpolate(lib.tensor(array), **settings) for lib in (minigrad, torch)]
    assert seen[0].dtype == minigrad.uint8 and seen[1].dtype == torch.uint8
    np.testing.assert_array_equal(seen[0].numpy(), seen[1].numpy())


LAYOUTS = [
    ((2, 5, 50, 60), dict(size=(90, 100), mode="bilinear")),     # PyTorch's channels-last loop
    ((2, 9, 20, 16), dict(size=(9, 7), mode="bicubic")),
    ((2, 5, 20, 16), dict(size=(9, 7), mode="nearest")),
    ((2, 5, 20, 16), dict(size=(9, 7), mode="lanczos", antialias=True)),
    ((1, 5, 6, 7, 8), dict(size=(9, 7, 5), mode="trilinear")),
    ((1, 5, 6, 7, 8), dict(size=(9, 7, 5), mode="nearest")),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", LAYOUTS, ids=_name)
def test_channels_last_inputs_resize_as_torch(case, dtype):
    torch = import_torch()
    shape, settings = case
    seen = []
    for lib in (minigrad, torch):
        layout = lib.channels_last if len(shape) == 4 else lib.channels_last_3d
        rng = np.random.default_rng(0)
        x = lib.tensor(rng.standard_normal(shape).astype(dtype)).contiguous(memory_format=layout)
        x.requires_grad_()
        y = lib.nn.functional.interpolate(x, **settings)
        y.backward(lib.tensor(rng.standard_normal(tuple(y.shape)).astype(dtype)).contiguous(
            memory_format=layout))
        seen.append((y.detach().numpy(), x.grad.numpy(), y.stride(), x.grad.stride()))
    assert seen[0][2:] == seen[1][2:]
    np.testing.assert_array_equal(seen[0][0], seen[1][0])
    np.testing.assert_array_equal(seen[0][1], seen[1][1])
