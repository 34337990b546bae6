"""Sums over the leading dims (a bias's gradient over the batch) agree with PyTorch to the last bit.

The usual shapes take a short way (``_cascade_sum._short_column_sums``: a few numpy calls);
it must give exactly the bits of the general one (``column_sums``), which follows PyTorch's
kernel, and of PyTorch itself, also for zeros of either sign, infinities and NaN.
"""
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
