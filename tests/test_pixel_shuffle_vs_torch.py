"""pixel_shuffle, pixel_unshuffle and channel_shuffle (functions, torch-level names and layers)
against PyTorch: values, nodes, saved settings, gradients to second order, forward mode,
gradcheck, errors and printing."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch

CALLS = {
    "pixel_shuffle": (lambda L, x: L.nn.functional.pixel_shuffle(x, 2), (2, 8, 3, 5)),
    "pixel_shuffle_3": (lambda L, x: L.pixel_shuffle(x, 3), (9, 2, 2)),
    "pixel_shuffle_5d": (lambda L, x: L.pixel_shuffle(x, 2), (2, 1, 4, 3, 2)),
    "pixel_unshuffle": (lambda L, x: L.nn.functional.pixel_unshuffle(x, 2), (2, 3, 4, 6)),
    "pixel_unshuffle_3d": (lambda L, x: L.pixel_unshuffle(x, 3), (2, 6, 3)),
    "channel_shuffle": (lambda L, x: L.nn.functional.channel_shuffle(x, 4), (2, 8, 3, 5)),
    "channel_shuffle_3d": (lambda L, x: L.channel_shuffle(x, 3), (2, 6, 5)),
    "native_channel_shuffle": (lambda L, x: L.native_channel_shuffle(x, 2), (2, 6, 5)),
    "layer_pixel_shuffle": (lambda L, x: L.nn.PixelShuffle(2)(x), (1, 4, 2, 2)),
    "layer_pixel_unshuffle": (lambda L, x: L.nn.PixelUnshuffle(2)(x), (1, 1, 4, 4)),
    "layer_channel_shuffle": (lambda L, x: L.nn.ChannelShuffle(3)(x), (1, 6, 2, 2)),
}


def _names(grad_fn):
    return (type(grad_fn).__name__, {k: getattr(grad_fn, k) for k in dir(grad_fn) if k.startswith("_saved_")},
            [type(c).__name__ for c, _ in grad_fn.next_functions])


@pytest.mark.parametrize("name", sorted(CALLS))
def test_values_nodes_and_gradients_as_torch(name):
    torch = import_torch()
    call, shape = CALLS[name]
    array = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    seen = []
    for lib in (minigrad, torch):
        x = lib.tensor(array, requires_grad=True)
        y = call(lib, x)
        graph = _names(y.grad_fn)
        grad_out = lib.tensor(np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)).astype(np.float32))
        if name == "native_channel_shuffle":
            with pytest.raises(RuntimeError) as refused:
                y.backward(grad_out)
            seen.append((y.detach().numpy(), graph, str(refused.value), y.is_contiguous()))
            continue
        (grad,) = lib.autograd.grad(y, x, grad_out, create_graph=True)
        seen.append((y.detach().numpy(), graph, grad.detach().numpy(), y.is_contiguous()))
    np.testing.assert_array_equal(seen[0][0], seen[1][0])
    assert seen[0][1] == seen[1][1]
    assert seen[0][3] == seen[1][3]
    if isinstance(seen[0][2], str):
        assert seen[0][2] == seen[1][2]
    else:
        np.testing.assert_array_equal(seen[0][2], seen[1][2])


@pytest.mark.parametrize("name", ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle"])
def test_second_order_nodes_as_torch(name):
    torch = import_torch()
    call, shape = CALLS[name]
    array = np.random.default_rng(1).standard_normal(shape)
    seen = []
    for lib in (minigrad, torch):
        x = lib.tensor(array, requires_grad=True)
        y = call(lib, x)
        (grad,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        graph = _names(grad.grad_fn)
        grad.sum().backward()
        seen.append((graph, x.grad.numpy()))
    assert seen[0][0] == seen[1][0]
    np.testing.assert_array_equal(seen[0][1], seen[1][1])


@pytest.mark.parametrize("name", ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle_3d"])
def test_gradcheck_gradgradcheck_and_forward_mode(name):
    call, shape = CALLS[name]
    x = minigrad.tensor(np.random.default_rng(2).standard_normal(shape), requires_grad=True)
    assert gradcheck(lambda t: call(minigrad, t), (x,))
    assert gradgradcheck(lambda t: call(minigrad, t), (x,))
    assert gradcheck(lambda t: call(minigrad, t), (x,), check_forward_ad=True,
                     check_backward_ad=False, check_batched_grad=False)


BAD = {
    "channels": lambda L: L.pixel_shuffle(L.ones(1, 7, 2, 2), 2),
    "two_dims": lambda L: L.pixel_shuffle(L.ones(2, 2), 2),
    "zero_factor": lambda L: L.pixel_shuffle(L.ones(1, 4, 2, 2), 0),
    "negative_factor": lambda L: L.pixel_unshuffle(L.ones(1, 4, 2, 2), -2),
    "height": lambda L: L.pixel_unshuffle(L.ones(1, 1, 3, 4), 2),
    "width": lambda L: L.pixel_unshuffle(L.ones(1, 1, 4, 3), 2),
    "unshuffle_two_dims": lambda L: L.pixel_unshuffle(L.ones(4, 4), 2),
    "groups": lambda L: L.channel_shuffle(L.ones(1, 6, 2), 4),
    "zero_groups": lambda L: L.channel_shuffle(L.ones(1, 6, 2), 0),
    "shuffle_two_dims": lambda L: L.channel_shuffle(L.ones(2, 6), 3),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_raises_as_torch(name):
    torch = import_torch()
    outcomes = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as caught:
            BAD[name](lib)
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[0] == outcomes[1]


def test_layers_print_as_torch():
    torch = import_torch()
    for make in (lambda nn: nn.PixelShuffle(3), lambda nn: nn.PixelUnshuffle(2), lambda nn: nn.ChannelShuffle(4)):
        assert repr(make(minigrad.nn)) == repr(make(torch.nn))
