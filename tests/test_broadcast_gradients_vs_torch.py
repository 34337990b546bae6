"""Gradients summed back over broadcast or expanded dims agree with PyTorch's to the last bit.

The engine sums a gradient back to its input's shape wherever an operation broadcast that
input (``x @ w + b``: ``b.grad`` is the sum of 128 rows). Adding float numbers rounds after
every addition, so the order of the additions decides the last bits: the engine adds in the
order of PyTorch's sum kernel (minigrad/_cascade_sum.py), as ``Tensor.sum`` does.
"""
import numpy as np
import pytest

import minigrad
from conftest import import_torch

# (shape of the result, shape of the broadcast input)
SHAPES = [
    ((128, 256), (256,)),          # a bias of a layer, over a batch
    ((128, 10), (10,)),
    ((64, 10), (1, 10)),
    ((300, 40), (300, 1)),         # along the rows
    ((7, 33, 5), (33, 1)),
    ((4, 3, 100), (1, 3, 1)),      # over two dims that are not neighbours
    ((1000,), (1,)),
    ((50000,), ()),                # into a 0-d tensor, in pieces as PyTorch's threads add them
    ((2, 3, 4, 5), (3, 1, 5)),
]


def _name(case):
    shape, input_shape = case
    return f"{'x'.join(map(str, shape))}-to-{'x'.join(map(str, input_shape)) or '0d'}"


def gradient_of_broadcast_input(lib, grad, input_shape, how):
    b = lib.zeros(input_shape, dtype=getattr(lib, str(grad.dtype)), requires_grad=True)
    if how == "add":
        y = lib.zeros(grad.shape, dtype=b.dtype) + b
    elif how == "mul":
        y = lib.ones(grad.shape, dtype=b.dtype) * b
    else:                                           # expand: summed by the same engine step
        y = b.expand(grad.shape)
    y.backward(lib.tensor(grad))
    return b.grad.numpy()


@pytest.mark.parametrize("how", ["add", "mul", "expand"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", SHAPES, ids=_name)
def test_summed_gradient_is_pytorchs_to_the_last_bit(case, dtype, how):
    torch = import_torch()
    shape, input_shape = case
    grad = np.random.default_rng(len(shape)).standard_normal(shape).astype(dtype)
    ours = gradient_of_broadcast_input(minigrad, grad, input_shape, how)
    theirs = gradient_of_broadcast_input(torch, grad, input_shape, how)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


def test_bias_gradient_of_a_layer_step():
    """A layer's ``(h + b).relu()`` and a loss, as learners write it: the bias gradient bit for
    bit (``h`` given: matrix products themselves differ in the last bit, see README)."""
    torch = import_torch()
    rng = np.random.default_rng(0)
    h = rng.standard_normal((128, 30)).astype(np.float32)
    b = rng.standard_normal(30).astype(np.float32)
    grads = []
    for lib in (minigrad, torch):
        bias = lib.tensor(b, requires_grad=True)
        ((lib.tensor(h) + bias).relu() ** 2).mean().backward()
        grads.append(bias.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])
