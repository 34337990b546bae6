"""relu and clamp with signed zeros and NaN, bit for bit as PyTorch: only a negative input
becomes 0 (relu(-0.0) is -0.0), and a clamp keeps the input when it equals a bound."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch

DTYPES = ["float16", "float32", "float64"]
VALUES = [-0.0, 0.0, float("nan"), -1.0, 2.0, -float("inf")]

PROGRAMS = {
    "relu": lambda L, x: L.relu(x),
    "F.relu": lambda L, x: L.nn.functional.relu(x),
    "relu_": lambda L, x: x.clone().relu_(),
    "relu_transposed": lambda L, x: L.relu(x.reshape(2, -1).t()),
    "clamp_min0": lambda L, x: x.clamp(min=0),
    "clamp_min_minus0": lambda L, x: x.clamp(min=-0.0),
    "clamp_max0": lambda L, x: x.clamp(max=0.0),
    "clamp_0_1": lambda L, x: x.clamp(0, 1),
    "clamp_min_": lambda L, x: x.clone().clamp_min_(0),
    "clamp_max_": lambda L, x: x.clone().clamp_max_(-0.0),
    "leaky_relu": lambda L, x: L.nn.functional.leaky_relu(x),
    "clamp_zero_d": lambda L, x: x[0].clamp(min=0),
    "clamp__zero_d": lambda L, x: x[0].clone().clamp_(0, 1),
}


def bits(tensor):
    array = tensor.detach().numpy()
    return array.view(f"u{array.dtype.itemsize}").tolist(), array.strides


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("size", [1, 40])     # numpy's loops differ for short and long arrays
def test_signed_zeros_and_nan_as_torch(name, dtype, size):
    torch = import_torch()
    data = np.resize(np.array(VALUES, dtype=dtype), size * len(VALUES))
    ours = PROGRAMS[name](minigrad, minigrad.tensor(data))
    theirs = PROGRAMS[name](torch, torch.tensor(data))
    assert bits(ours) == bits(theirs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["relu", "clamp_min0", "clamp_0_1", "leaky_relu"])
def test_gradient_at_signed_zeros_and_nan_as_torch(name, dtype):
    torch = import_torch()
    data = np.array(VALUES, dtype=dtype)
    x = minigrad.tensor(data, requires_grad=True)
    t = torch.tensor(data, requires_grad=True)
    (ours,) = minigrad.autograd.grad(PROGRAMS[name](minigrad, x).sum(), x)
    (theirs,) = torch.autograd.grad(PROGRAMS[name](torch, t).sum(), t)
    assert bits(ours) == bits(theirs)


def test_one_over_relu_of_minus_zero_is_minus_inf():
    assert (1 / minigrad.relu(minigrad.tensor([-0.0]))).item() == -float("inf")
