"""inf and nan without a word: PyTorch computes them silently, so minigrad must not let
numpy's RuntimeWarnings ("divide by zero", "invalid value", "overflow") escape.

Each program runs in both libraries with every warning turned into an error; the
values and gradients (inf and nan included) must be PyTorch's.
"""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch

EDGES = [0.0, -1.0, 1.0, float("inf"), -float("inf"), float("nan"), 1e30, -1e30, 100.0, -100.0]

PROGRAMS = {
    "sqrt": lambda L, x: x.sqrt(), "rsqrt": lambda L, x: x.rsqrt(), "log": lambda L, x: x.log(),
    "log1p": lambda L, x: x.log1p(), "exp": lambda L, x: x.exp(), "reciprocal": lambda L, x: x.reciprocal(),
    "sigmoid": lambda L, x: x.sigmoid(), "tanh": lambda L, x: x.tanh(), "sin": lambda L, x: x.sin(),
    "cos": lambda L, x: x.cos(), "tan": lambda L, x: x.tan(), "abs": lambda L, x: x.abs(),
    "relu": lambda L, x: x.relu(), "square": lambda L, x: x.square(), "pow2": lambda L, x: x ** 2,
    "pow_half": lambda L, x: x ** 0.5, "pow_minus_half": lambda L, x: x ** -0.5,
    "pow_negative": lambda L, x: x ** -1.5, "rpow": lambda L, x: 2 ** x,
    "div_by_zero": lambda L, x: x / L.tensor([0.0, 1.0]), "div_zero_by": lambda L, x: L.tensor([0.0, 1.0]) / x,
    "div_by_number_zero": lambda L, x: x / 0.0, "div_by_int_zero": lambda L, x: x / 0,
    "div_by_small_number": lambda L, x: x / 1e-30, "div_by_number": lambda L, x: x / -2,
    "div_by_inf": lambda L, x: x / float("inf"), "div_by_minus_inf": lambda L, x: x / -float("inf"),
    "rdiv": lambda L, x: 1.0 / x,
    "pow_tensor": lambda L, x: L.tensor([0.0, 2.0]) ** x, "remainder": lambda L, x: x % L.tensor([0.0, 2.0]),
    "frac": lambda L, x: x.frac(), "floor": lambda L, x: x.floor(), "sign": lambda L, x: x.sign(),
    "maximum": lambda L, x: L.maximum(x, L.tensor([0.0, 1.0])), "clamp": lambda L, x: x.clamp(0, 1),
    "softplus": lambda L, x: L.nn.functional.softplus(x), "silu": lambda L, x: L.nn.functional.silu(x),
    "gelu": lambda L, x: L.nn.functional.gelu(x), "elu": lambda L, x: L.nn.functional.elu(x),
    "softmax": lambda L, x: L.nn.functional.softmax(x, 0), "log_softmax": lambda L, x: L.nn.functional.log_softmax(x, 0),
    "prod": lambda L, x: x.prod(), "cumprod": lambda L, x: x.cumprod(0), "logsumexp": lambda L, x: x.logsumexp(0),
    "amax": lambda L, x: x.amax(), "max": lambda L, x: x.max(),
}


def run(L, name, value, upstream):
    x = L.tensor([value, 0.5], requires_grad=True)
    out = PROGRAMS[name](L, x)
    out.backward(L.full(out.shape, upstream))
    return out.detach().numpy().copy(), x.grad.numpy().copy()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_no_numpy_warning(name):
    for value in EDGES:
        for upstream in (1.0, 0.0, float("inf")):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                run(minigrad, name, value, upstream)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_values_at_the_edges_are_torchs(name):
    torch = import_torch()
    for value in EDGES:
        ours, theirs = run(minigrad, name, value, 1.0), run(torch, name, value, 1.0)
        for a, b in zip(ours, theirs):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=f"{name}({value})")


def test_the_sqrt_backward_of_the_anomaly_note_is_quiet():
    x = minigrad.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x.sqrt().sum().backward()
    assert x.grad.tolist() == [float("inf"), 0.5]
