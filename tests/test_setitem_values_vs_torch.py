"""``x[index] = v`` with a value that has leading size-1 dims: PyTorch views it without them
first. Graphs (ViewBackward0 where PyTorch records one), values, gradients and messages."""
import numpy as np
import pytest

import minigrad
from conftest import import_torch


def graph(grad_fn):
    if grad_fn is None:
        return None
    return (type(grad_fn).__name__, tuple(graph(child) for child, _ in grad_fn.next_functions))


CASES = {   # name: (target shape, index, value shape)
    "mask_value_1": ((3,), lambda L: (L.tensor([True, False, True]),), (1,)),
    "mask_value_1x1": ((3,), lambda L: (L.tensor([True, False, True]),), (1, 1)),
    "mask_rows_value_1x2": ((3, 2), lambda L: (L.tensor([True, False, True]),), (1, 2)),
    "mask_value_0d": ((3,), lambda L: (L.tensor([True, False, True]),), ()),
    "tensor_index_value_1": ((3,), lambda L: (L.tensor([0, 2]),), (1,)),
    "tensor_index_value_1x2": ((3, 2), lambda L: (L.tensor([0, 2]),), (1, 2)),
    "tensor_index_value_2": ((3,), lambda L: (L.tensor([0, 2]),), (2,)),
    "list_index_value_1x1x2": ((3, 2), lambda L: ([0, 1],), (1, 1, 2)),
    "mixed_value_1x2": ((2, 3), lambda L: (0, L.tensor([0, 2])), (1, 2)),
    "slice_value_1x2": ((3, 2), lambda L: (slice(0, 2),), (1, 2)),
    "int_value_1": ((3,), lambda L: (1,), (1,)),
    "mismatch_value_1x3": ((3,), lambda L: (L.tensor([True, False, True]),), (1, 3)),
}


def run(lib, case):
    shape, index, value_shape = CASES[case]
    value = lib.arange(1.0, 1.0 + int(np.prod(value_shape)), dtype=lib.float64).reshape(value_shape)
    value.requires_grad_()
    target = lib.zeros(shape, dtype=lib.float64).clone()
    try:
        target[index(lib)] = value * 2
    except Exception as error:           # noqa: BLE001 (compared with PyTorch's)
        return type(error).__name__, str(error).split("\nminigrad hint:")[0]
    recorded = graph(target.grad_fn)
    (target * lib.arange(1.0, 1.0 + target.numel(), dtype=lib.float64).reshape(shape)).sum().backward()
    return recorded, target.detach().numpy().tolist(), value.grad.numpy().tolist()


@pytest.mark.parametrize("case", sorted(CASES))
def test_setitem_value_with_leading_ones_as_torch(case):
    torch = import_torch()
    assert run(minigrad, case) == run(torch, case)
