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
    "relu6": lambda L, x: L.nn.functional.relu6(x),
    "relu6_inplace": lambda L, x: L.nn.functional.relu6(x * 1, inplace=True),
    "hardtanh": lambda L, x: L.nn.functional.hardtanh(x),
    "hardtanh_minus_zero": lambda L, x: L.nn.functional.hardtanh(x, -0.0, 1.0),
    "hardtanh_inplace": lambda L, x: L.nn.functional.hardtanh(x * 1, -2.0, 0.5, inplace=True),
    "threshold": lambda L, x: L.nn.functional.threshold(x, 0.0, 0.0),
    "threshold_minus_zero_value": lambda L, x: L.nn.functional.threshold(x, 0.1, -0.0),
    "threshold_inplace": lambda L, x: L.nn.functional.threshold(x * 1, 0.0, 20.0, inplace=True),
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
# (a few elements only: PyTorch's vectorised hardtanh backward gives NaN inputs a gradient of
# 0, its scalar loop - used for short tensors - the grad; minigrad follows the scalar rule)
@pytest.mark.parametrize("name", ["relu", "clamp_min0", "clamp_0_1", "leaky_relu", "relu6", "hardtanh",
                                  "hardtanh_minus_zero", "hardtanh_inplace", "threshold",
                                  "threshold_inplace", "relu6_inplace"])
def test_gradient_at_signed_zeros_and_nan_as_torch(name, dtype):
    torch = import_torch()
    data = np.array(VALUES, dtype=dtype)
    x = minigrad.tensor(data, requires_grad=True)
    t = torch.tensor(data, requires_grad=True)
    ours_out, theirs_out = PROGRAMS[name](minigrad, x), PROGRAMS[name](torch, t)
    assert ours_out.grad_fn.name() == theirs_out.grad_fn.name()
    (ours,) = minigrad.autograd.grad(ours_out.sum(), x)
    (theirs,) = torch.autograd.grad(theirs_out.sum(), t)
    assert bits(ours) == bits(theirs)


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.hardtanh(L.tensor([1.0]), 2.0, 1.0),
    lambda L: L.nn.functional.relu6(L.tensor([9, -1])),
    lambda L: L.nn.functional.threshold(L.tensor([1, 5]), 2, 0),
    lambda L: L.nn.functional.hardtanh(L.tensor([1, -3]), -2, 1)])
def test_cut_off_activations_of_integers_and_bad_bounds_as_torch(call):
    torch = import_torch()
    outcomes = []
    for L in (minigrad, torch):
        try:
            outcomes.append(("value", call(L).tolist(), str(call(L).dtype).split(".")[1]))
        except Exception as error:       # noqa: BLE001  (the class is compared)
            outcomes.append((type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]


def test_one_over_relu_of_minus_zero_is_minus_inf():
    assert (1 / minigrad.relu(minigrad.tensor([-0.0]))).item() == -float("inf")
