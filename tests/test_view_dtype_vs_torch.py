"""``x.view(dtype)`` reads the same memory as numbers of another dtype, as in PyTorch: the bits,
not the values; shapes, strides, storage offsets, version counters and errors as PyTorch's."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch

torch = import_torch()

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]


def _source(lib, dtype, layout):
    base = lib.arange(48, dtype=lib.float32).reshape(48) * 0.37 - 5
    base = base.to(getattr(lib, dtype)) if dtype != "bool" else base > 0
    size, stride, offset = layout
    return base.as_strided(size, stride, offset)


LAYOUTS = [((48,), (1,), 0), ((6, 8), (8, 1), 0), ((3, 4), (4, 1), 2), ((3, 4), (3, 1), 1),
           ((3, 3), (4, 1), 0), ((3, 4), (5, 1), 0), ((2, 4), (8, 2), 0), ((), (), 3),
           ((4, 2), (1, 4), 0), ((2, 3, 4), (12, 4, 1), 4), ((0, 4), (4, 1), 0)]


def _outcome(lib, source_dtype, target_dtype, layout):
    x = _source(lib, source_dtype, layout)
    try:
        y = x.view(getattr(lib, target_dtype))
    except RuntimeError as error:
        return ("raised", str(error))
    return (y.numpy().tobytes(), tuple(y.shape), y.stride(), y.storage_offset(), str(y.dtype),
            y.requires_grad, y.grad_fn is None)


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@pytest.mark.parametrize("source_dtype", ["float32", "float64", "int16", "uint8"])
@pytest.mark.parametrize("target_dtype", DTYPES)
def test_view_dtype_matches_torch(source_dtype, target_dtype, layout):
    assert _outcome(minigrad, source_dtype, target_dtype, layout) == \
        _outcome(torch, source_dtype, target_dtype, layout)


@pytest.mark.parametrize("lib", [minigrad, torch], ids=["minigrad", "torch"])
def test_view_dtype_shares_memory_and_version_without_history(lib):
    x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    bits = x.view(lib.int32)
    assert not bits.requires_grad and bits.grad_fn is None and bits.is_leaf and bits._base is None
    bits.add_(1)                          # allowed, as on a detached tensor
    assert x._version == bits._version == 1
    assert x.detach().numpy()[0] == np.nextafter(np.float32(1), np.float32(2))
    y = (x * 2).view(lib.float32)
    assert y.grad_fn is None and not y.requires_grad


def test_detached_view_reports_its_storage_offset():
    for lib in (minigrad, torch):
        a = lib.arange(6.0)
        assert a[2:].detach().storage_offset() == 2
        assert a[1:].view(lib.int32).storage_offset() == 1


@pytest.mark.parametrize("layout", [((3, 4), (8, 2), 1), ((3, 4), (7, 2), 0), ((3, 4), (7, 1), 1),
                                    ((3, 3), (7, 2), 1)], ids=str)
def test_the_first_failed_check_is_pytorchs(layout):
    assert _outcome(minigrad, "float32", "float64", layout) == _outcome(torch, "float32", "float64", layout)
