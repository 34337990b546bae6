"""Sums over the leading dims (a bias's gradient over the batch) agree with PyTorch to the last bit.

The usual shapes take a short way (``_cascade_sum._short_column_sums``: a few numpy calls);
it must give exactly the bits of the general one (``column_sums``), which follows PyTorch's
kernel, and of PyTorch itself, also for zeros of either sign, infinities and NaN.
"""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad._cascade_sum import _short_column_sums, column_sums
from conftest import import_torch

torch = import_torch()

# (rows, columns): every column in vector groups (256, 32, 64), every column interleaved
# (10, 3, 2), cascades in level 0 only (fewer rows than a block) or reaching level 1
SHAPES = [(128, 256), (128, 10), (64, 32), (12, 64), (256, 3), (48, 2), (16, 16), (4, 7),
          (300, 10), (1000, 32), (255, 256), (100, 40)]     # (the last three: the general way)


def _values(shape, dtype, kind, seed=0):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(shape).astype(dtype)
    if kind == "signed zeros":
        values = (values > 0).astype(dtype) * np.copysign(0.0, values).astype(dtype)
    elif kind == "inf and nan":
        values[rng.random(shape) < 0.05] = np.inf
        values[rng.random(shape) < 0.05] = -np.inf
        values[rng.random(shape) < 0.05] = np.nan
    elif kind == "large":
        values = values * dtype(1e30 if dtype == np.float32 else 1e300)
    return values


def _bits(array, any_nan=False):
    """The bits of each number; ``any_nan``: every NaN the same (the sign of the NaN that
    inf + -inf gives is the processor's business, not the order's)."""
    if any_nan:
        array = np.where(np.isnan(array), np.array(np.nan, array.dtype), array)
    return array.view(f"u{array.itemsize}")


@pytest.mark.parametrize("kind", ["normal", "signed zeros", "inf and nan", "large"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_sum_over_rows_is_pytorchs(shape, dtype, kind):
    values = _values(shape, dtype, kind)
    with np.errstate(all="ignore"):
        ours = minigrad.tensor(values).sum(0).numpy()
        short = _short_column_sums(values)
        general = column_sums(values.reshape(1, *shape).transpose(1, 0, 2)).reshape(shape[1])
    theirs = torch.tensor(values).sum(0).numpy()
    np.testing.assert_array_equal(_bits(ours, any_nan=True), _bits(theirs, any_nan=True))
    np.testing.assert_array_equal(_bits(general, any_nan=True), _bits(theirs, any_nan=True))
    if short is not None:                       # the short way is the general one, bit for bit
        np.testing.assert_array_equal(_bits(short), _bits(general))


@pytest.mark.parametrize("shape", [(128, 256), (128, 10), (300, 10)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_bias_gradient_is_pytorchs(shape):
    grad = _values(shape, np.float32, "normal", seed=1)
    grads = []
    for lib in (minigrad, torch):
        bias = lib.zeros(shape[1], requires_grad=True)
        (lib.zeros(shape) + bias).backward(lib.tensor(grad))
        grads.append(bias.grad.numpy())
    np.testing.assert_array_equal(_bits(grads[0]), _bits(grads[1]))


# rows holding +inf and -inf: the NaN of inf + -inf is x86's default NaN (sign bit set) in both
# libraries, and a NaN once made is carried unchanged by every later addition, whatever the order
_INF_SHAPES = [(2, 1), (2, 3), (3, 1), (16, 16), (4, 7), (128, 10), (300, 10), (33, 1), (5, 1000), (7, 3, 5)]
_INF_REDUCTIONS = {
    "sum(0)": lambda t: t.sum(0), "sum()": lambda t: t.sum(), "sum(-1)": lambda t: t.sum(-1),
    "transposed sum(0)": lambda t: t.transpose(0, -1).sum(0), "sum(0, keepdim)": lambda t: t.sum(0, keepdim=True),
    "sum((0, 1))": lambda t: t.sum((0, 1)), "mean(0)": lambda t: t.mean(0), "nansum(0)": lambda t: t.nansum(0),
    "cumsum(0)": lambda t: t.cumsum(0), "var(0)": lambda t: t.var(0), "std()": lambda t: t.std(),
}


@pytest.mark.parametrize("reduction", _INF_REDUCTIONS)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=["float16", "float32", "float64"])
@pytest.mark.parametrize("shape", _INF_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_nans_of_opposite_infinities_have_pytorchs_bits(shape, dtype, reduction):
    rng = np.random.default_rng(len(shape) * 1000 + shape[0])
    values = rng.standard_normal(shape).astype(dtype)
    values[rng.random(shape) < 0.1] = np.inf
    values[rng.random(shape) < 0.1] = -np.inf
    values.reshape(-1)[:2] = (np.inf, -np.inf)         # (at least one NaN in sum(0) and sum())
    with warnings.catch_warnings():
        warnings.simplefilter("error")                 # (and no numpy warning on the way)
        ours = _INF_REDUCTIONS[reduction](minigrad.tensor(values)).numpy()
    theirs = _INF_REDUCTIONS[reduction](torch.tensor(values)).numpy()
    nans = np.isnan(theirs)
    np.testing.assert_array_equal(np.isnan(ours), nans)
    np.testing.assert_array_equal(_bits(ours[nans]), _bits(theirs[nans]))


def test_the_nan_of_a_column_of_inf_and_minus_inf_is_negative():
    for dtype, bits in ((minigrad.float32, minigrad.int32), (minigrad.float64, minigrad.int64)):
        for column in ([[np.inf], [-np.inf]], [[-np.inf], [np.inf]]):
            for lib, lib_dtype, lib_bits in ((minigrad, dtype, bits),
                                             (torch, getattr(torch, str(dtype)[6:]), getattr(torch, str(bits)[6:]))):
                total = lib.tensor(column, dtype=lib_dtype).sum(0)
                assert total.view(lib_bits).item() < 0       # (the sign bit of x86's default NaN)
