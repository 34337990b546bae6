"""What differed between the numpy versions minigrad supports (2.0, what Colab ships, up to the
newest), checked against PyTorch on whichever numpy runs the tests.

numpy 2.1 made ``np.power`` take shortcuts for a few exponents (x * x for 2, 1 / x for -1,
sqrt for 0.5); numpy 2.0 calls the C library's pow for them, which differs from PyTorch in the
last bit and at -inf and -0. minigrad takes PyTorch's steps itself, so the results agree on
every numpy. NaNs too: numpy 2.0's and 2.1's float16 log of a negative number is a NaN with
the sign bit clear (2.4's: set, as PyTorch's), and where both factors are NaN, numpy 2.0's
vector multiply keeps the other NaN than 2.4's; minigrad puts PyTorch's NaNs in itself. And the library tests must still collect where PyTorch is not installed (the
differential ones skip, or fail in CI), so no test module imports torch directly.
"""
import ast
import pathlib

import numpy as np
import pytest

import minigrad

from conftest import import_torch

torch = import_torch()

TESTS = pathlib.Path(__file__).parent


def assert_same_bits(mine, theirs):
    """Equal to the last bit and sign (nan: any nan, its sign bit is not a value)."""
    assert mine.dtype == theirs.dtype
    both_nan = np.isnan(mine) & np.isnan(theirs)
    same = (mine == theirs) & (np.signbit(mine) == np.signbit(theirs)) | both_nan
    assert np.flatnonzero(~same).tolist() == []


# (0.5 is sqrt, whose last bit in PyTorch is MKL's: README; its edges are checked below)
@pytest.mark.parametrize("exponent", [2, -1, 2.0, -1.0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_powers_numpy_2_0_computed_with_pow_are_pytorchs_bits(dtype, exponent):
    rng = np.random.default_rng(7)
    x = rng.uniform(-5, 5, 4099).astype(dtype)
    x[:6] = [-np.inf, np.inf, -0.0, 0.0, np.nan, 1e-30]
    mine = (minigrad.tensor(x) ** exponent).numpy()
    theirs = (torch.tensor(x) ** exponent).numpy()
    assert_same_bits(mine, theirs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_square_root_as_a_power_at_minus_infinity_and_minus_zero(dtype):
    mine = minigrad.tensor([-float("inf"), -0.0, 4.0], dtype=getattr(minigrad, dtype), requires_grad=True)
    theirs = torch.tensor([-float("inf"), -0.0, 4.0], dtype=getattr(torch, dtype), requires_grad=True)
    for x in (mine, theirs):
        (x ** 0.5).sum().backward()
    assert [str(v) for v in (mine ** 0.5).tolist()] == [str(v) for v in (theirs ** 0.5).tolist()]
    assert [str(v) for v in mine.grad.tolist()] == [str(v) for v in theirs.grad.tolist()]


def test_integer_tensor_to_minus_one_is_pytorchs():
    x = np.arange(-50, 1000)
    mine, theirs = minigrad.tensor(x) ** -1.0, torch.tensor(x) ** -1.0
    assert str(mine.dtype) == str(theirs.dtype) == "torch.float32"
    assert_same_bits(mine.numpy(), theirs.numpy())


def same_nan_signs(mine, theirs):
    """The NaNs are at the same places, with the same sign bits."""
    nans = np.isnan(theirs)
    return (np.isnan(mine) == nans).all() and (np.signbit(mine[nans]) == np.signbit(theirs[nans])).all()


def test_float16_xlogy_and_kl_div_of_negative_numbers_give_pytorchs_nans():
    y = np.linspace(-3, 3, 64).astype(np.float16)          # (a whole vector of numbers and more)
    x = np.linspace(-2, 2, 64).astype(np.float16)
    for call in (lambda L: L.xlogy(L.tensor(x), L.tensor(y)), lambda L: L.xlogy(2.5, L.tensor(y)),
                 lambda L: L.nn.functional.kl_div(L.tensor(x), L.tensor(y), reduction="none")):
        assert same_nan_signs(call(minigrad).numpy(), call(torch).numpy())


def test_no_test_module_imports_torch_directly():
    # `import torch` at the top of a test module stops the whole run where PyTorch is missing;
    # conftest.import_torch() skips the module instead (and fails it in CI).
    offenders = []
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.parse(path.read_text()).body:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n == "torch" or n.startswith("torch.") for n in names):
                offenders.append(path.name)
    assert offenders == []
