"""Numbers a tensor's dtype cannot hold, signs of zeros from elu, and NaN payloads, against PyTorch.

PyTorch converts a number argument (a clamp bound, add's alpha, fill_'s value, ...) to the
type its kernel computes in and refuses one that type cannot hold ("value cannot be converted
to type c10::Half without overflow"); a number next to a tensor in arithmetic (x + 1e5) is
rounded instead, to inf for float16. Each case runs under both libraries with warnings as
errors, so a numpy warning leaking out fails too.
"""
import math
import warnings

import numpy as np
import pytest

import minigrad
from conftest import import_torch

torch = import_torch()

BIG_NUMBERS = [1e5, -1e5, 1e39, math.inf, math.nan, 1000, -1000, 70000, 2 ** 40]
DTYPES = ["float16", "float32", "int8", "uint8", "int16", "int32", "bool"]

# each operation that takes a number, written once for both libraries (lib: torch or minigrad)
OPERATIONS = {
    "clamp(min=v)": lambda lib, x, v: x.clamp(min=v),
    "clamp(max=v)": lambda lib, x, v: x.clamp(max=v),
    "clamp(-v, v)": lambda lib, x, v: x.clamp(-v, v),
    "clamp_min": lambda lib, x, v: lib.clamp_min(x, v),
    "clamp_max": lambda lib, x, v: lib.clamp_max(x, v),
    "clip": lambda lib, x, v: lib.clip(x, max=v),
    "clamp_(min=v)": lambda lib, x, v: x.clone().clamp_(min=v),
    "clamp_max_": lambda lib, x, v: x.clone().clamp_max_(v),
    "hardtanh(-1, v) float": lambda lib, x, v: lib.nn.functional.hardtanh(x, -1.0, v),
    "add(alpha=v)": lambda lib, x, v: x.add(x, alpha=v),
    "sub(alpha=v)": lambda lib, x, v: x.sub(x, alpha=v),
    "rsub(alpha=v)": lambda lib, x, v: lib.rsub(x, x, alpha=v),
    "add_(alpha=v)": lambda lib, x, v: x.clone().add_(x, alpha=v),
    "add(v, alpha=2)": lambda lib, x, v: lib.add(x, v, alpha=2),
    "sub(v, alpha=2)": lambda lib, x, v: lib.sub(x, v, alpha=2),
    "x + v": lambda lib, x, v: x + v,
    "x - v": lambda lib, x, v: x - v,
    "v - x": lambda lib, x, v: v - x,
    "x / v": lambda lib, x, v: x / v,
    "fill_": lambda lib, x, v: x.clone().fill_(v),
    "masked_fill": lambda lib, x, v: x.masked_fill(x > 0, v),
    "masked_fill_": lambda lib, x, v: x.clone().masked_fill_(x > 0, v),
    # a 0-d tensor value is filled in as its item(), with the same check (found by the
    # random-program test), after the mask's shape is checked
    "masked_fill(tensor v)": lambda lib, x, v: x.masked_fill(x > 0, lib.tensor(v)),
    "masked_fill_(tensor v)": lambda lib, x, v: x.clone().masked_fill_(x > 0, lib.tensor(v)),
    "masked_fill(bad mask, v)": lambda lib, x, v: x.masked_fill(lib.tensor([True, False]), v),
    "masked_fill(bad mask, tensor v)": lambda lib, x, v: x.masked_fill(lib.tensor([True, False]), lib.tensor(v)),
    "index_fill": lambda lib, x, v: x.index_fill(0, lib.tensor([0]), v),
    "full_like": lambda lib, x, v: lib.full_like(x, v),
    "hardtanh(v, 1e9)": lambda lib, x, v: lib.nn.functional.hardtanh(x, v, 1e9),
    "hardtanh_(-1, v)": lambda lib, x, v: lib.nn.functional.hardtanh_(x.clone(), -1.0, v),
    "threshold(v, 0)": lambda lib, x, v: lib.nn.functional.threshold(x, v, 0.0),
    "threshold(0, v)": lambda lib, x, v: lib.nn.functional.threshold(x, 0.0, v),
    "hardshrink": lambda lib, x, v: lib.nn.functional.hardshrink(x, v),
    "softshrink": lambda lib, x, v: lib.nn.functional.softshrink(x, v),
    "x ** v": lambda lib, x, v: x.pow(v),
    "x * v": lambda lib, x, v: x * v,
    "fmod": lambda lib, x, v: x.fmod(v),
    "where(c, x, v)": lambda lib, x, v: lib.where(x > 0, x, v),
    "where(c, v, x)": lambda lib, x, v: lib.where(x > 0, v, x),
    "remainder": lambda lib, x, v: x.remainder(v),
    "leaky_relu": lambda lib, x, v: lib.nn.functional.leaky_relu(x, v),
    "elu": lambda lib, x, v: lib.nn.functional.elu(x, v),
    "celu": lambda lib, x, v: lib.nn.functional.celu(x, v),
    "softplus(beta=v)": lambda lib, x, v: lib.nn.functional.softplus(x, v),
    "softplus(threshold=v)": lambda lib, x, v: lib.nn.functional.softplus(x, 1, v),
    "addcmul": lambda lib, x, v: lib.addcmul(x, x, x, value=v),
    "addcdiv": lambda lib, x, v: lib.addcdiv(x, x, x + 3, value=v),
    "lerp": lambda lib, x, v: lib.lerp(x, x + 1, v),
}


def _outcome(lib, name, dtype, value):
    """What ``name`` gives for ``value`` under ``lib``: the exception's class and message, or
    the result's dtype and values (NaN written as a string, so that NaN equals NaN)."""
    x = lib.tensor([-2, 0, 3]).to(getattr(lib, dtype))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = OPERATIONS[name](lib, x, value)
    except Exception as error:       # noqa: BLE001 - the exception is what is compared
        return type(error).__name__, str(error).split("\n")[0]
    return str(out.dtype).split(".")[-1], [repr(v) for v in out.tolist()]


# a NaN min_val of float16: PyTorch does not look at max_val then (1e9 is not refused)
SKIPPED_VALUES = {("hardtanh(v, 1e9)", "float16", "nan")}


@pytest.mark.parametrize("name", sorted(OPERATIONS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_number_arguments_a_dtype_cannot_hold(name, dtype):
    for value in BIG_NUMBERS:
        if (name, dtype, repr(value)) in SKIPPED_VALUES:
            continue
        expected = _outcome(torch, name, dtype, value)
        assert _outcome(minigrad, name, dtype, value) == expected, (name, dtype, value)


def test_the_message_names_the_dtype_as_pytorch_does():
    x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float16)
    with pytest.raises(RuntimeError, match=r"^value cannot be converted to type c10::Half without overflow$"):
        x.clamp(min=70000.0)
    y = minigrad.tensor([1, 2], dtype=minigrad.int8)
    with pytest.raises(RuntimeError, match=r"^value cannot be converted to type int8_t without overflow$"):
        y.clamp(max=1000)


# --- elu, selu, celu: a zero keeps its sign ----------------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("alpha", [1.0, -1.0, 2.0, -0.5, 0.0, math.nan])
def test_elu_family_keeps_signed_zeros(dtype, alpha):
    values = [0.0, -0.0, -1e-45, 1e-40, 2.0]
    for name in ("elu", "celu", "selu"):
        if name == "celu" and alpha == 0.0:
            continue
        results = []
        for lib in (torch, minigrad):
            x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
            f = getattr(lib.nn.functional, name)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                out = f(x) if name == "selu" else f(x, alpha)
                (grad,) = lib.autograd.grad(out, x, lib.full_like(out, -1.0))
            # the values with the signs of their zeros; the gradient where the input is a zero or
            # a tiny number (elsewhere numpy's exp can differ in the last bit: see the README)
            results.append([(repr(v), math.copysign(1, v)) for v in out.tolist() + grad.tolist()[:4]])
        assert results[1] == results[0], (name, dtype, alpha)


def test_elu_of_minus_zero_in_place():
    for lib in (torch, minigrad):
        x = lib.tensor([-0.0, 0.0])
        lib.nn.functional.elu_(x)
        assert [math.copysign(1, v) for v in x.tolist()] == [-1, 1]


# --- NaN payloads: PyTorch's exp, log, sin, ... give a NaN input back with its bits ------------

NAN_PAYLOADS = {"float32": ("int32", [0x7FC00123, 0x7F800001, -0x003FFEDD]),
                "float64": ("int64", [0x7FF8000000000123, 0x7FF0000000000001])}


@pytest.mark.parametrize("dtype", sorted(NAN_PAYLOADS))
@pytest.mark.parametrize("name", ["exp", "exp_", "expm1", "log", "log_", "log1p", "sin", "sin_",
                                  "cos", "tanh", "tanh_", "sinh", "cosh", "atanh", "logit", "sqrt", "abs",
                                  "neg", "relu"])
@pytest.mark.parametrize("size", [1, 8, 20, 33])
def test_nan_payloads_pass_through_as_in_pytorch(dtype, name, size):
    integer_dtype, patterns = NAN_PAYLOADS[dtype]
    for bits in patterns:
        seen = []
        for lib in (torch, minigrad):
            x = lib.zeros(size, dtype=getattr(lib, dtype))
            x.view(getattr(lib, integer_dtype)).fill_(bits)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                out = getattr(x, name)()
            seen.append(out.view(getattr(lib, integer_dtype)).tolist())
        assert seen[1] == seen[0], (dtype, name, hex(bits))


def test_float16_tanhshrink_of_every_value_is_pytorchs():
    """PyTorch's tanhshrink is x - tanh(x), as minigrad's; in float16 every number agrees (float32
    and float64 differ where tanh does: MKL's, see the README)."""
    every = np.arange(2 ** 16, dtype=np.uint16).view(np.float16)
    every = every[~np.isnan(every)]        # (NaN payloads in float16: not compared here)
    mine = minigrad.nn.functional.tanhshrink(minigrad.from_numpy(every.copy())).numpy()
    theirs = torch.nn.functional.tanhshrink(torch.from_numpy(every.copy())).numpy()
    assert np.array_equal(mine.view(np.uint16), theirs.view(np.uint16))


# complex numbers given where a real tensor takes a number (minigrad has no complex tensors, but
# these calls make none in PyTorch either): kept when the imaginary part is 0, else refused
COMPLEX_NUMBERS = [1j, 1 + 0j, 3.7 + 0j, 1e39 + 0j, complex(math.nan, 0), complex(1, math.nan),
                   300 + 0j, -1 + 0j, 0j]
COMPLEX_OPERATIONS = {
    "fill_": lambda lib, x, v: x.clone().fill_(v),
    "masked_fill": lambda lib, x, v: x.masked_fill(x > 0, v),
    "masked_fill_": lambda lib, x, v: x.clone().masked_fill_(x > 0, v),
    "scatter_": lambda lib, x, v: x.clone().scatter_(0, lib.tensor([1]), v),
    "index_fill": lambda lib, x, v: x.index_fill(0, lib.tensor([1]), v),
    "index_fill_": lambda lib, x, v: x.clone().index_fill_(0, lib.tensor([5]), v),
    "add_": lambda lib, x, v: x.clone().add_(v),
    "sub_(alpha=2)": lambda lib, x, v: x.clone().sub_(v, alpha=2),
    "mul_": lambda lib, x, v: x.clone().mul_(v),
    "div_": lambda lib, x, v: x.clone().div_(v),
}


@pytest.mark.parametrize("name", sorted(COMPLEX_OPERATIONS))
@pytest.mark.parametrize("dtype", DTYPES + ["float64"])
def test_complex_numbers_into_real_tensors(name, dtype):
    for value in COMPLEX_NUMBERS:
        results = []
        for lib in (torch, minigrad):
            x = lib.tensor([-2, 0, 3]).to(getattr(lib, dtype))
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    out = COMPLEX_OPERATIONS[name](lib, x, value)
                results.append((str(out.dtype), [repr(v) for v in out.tolist()]))
            except Exception as error:       # noqa: BLE001 - the exception is what is compared
                results.append((type(error).__name__, str(error).split("\n")[0]))
        assert results[1] == results[0], (name, dtype, value)
