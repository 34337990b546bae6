"""Indexing and assigning through an index, right and wrong, as PyTorch does.

``x[index]`` and ``x[index] = 7.`` for every index of one or two parts drawn from integers (in
and out of range), floats, None, ``...``, slices (also stepping backwards or by 0), lists,
masks, tensors and a str, on a 3x4 tensor: the same values and shapes, or the same exception
and message. PyTorch counts the parts against the dims first, then applies them left to right,
so of several mistakes it reports the first (``x[5, 1.5]`` is about the 5, not the float).
"""
import itertools

import pytest

import minigrad


def parts(lib):
    return [0, -1, 5, -6, 1.5, None, Ellipsis, slice(None), slice(1, None, 2), slice(None, None, -1),
            slice(0, 1, 0), [0, 1], [0, 5], [1.0], [True, False], [], (), lib.tensor(1), lib.tensor([0, 2]),
            lib.tensor([True, False, True]), lib.tensor(1.0), lib.tensor([[0], [1]]), "a", True, False,
            lib.tensor([True, False]), [[0, 1], [1, 0]], (0, 0)]


CASES = [(operation, combo) for count in (1, 2) for combo in itertools.product(range(28), repeat=count)
         for operation in ("get", "set")]


def outcome(lib, operation, combo):
    x = lib.arange(12.).reshape(3, 4)
    pool = parts(lib)
    index = pool[combo[0]] if len(combo) == 1 else tuple(pool[i] for i in combo)
    try:
        if operation == "get":
            out = x[index]
            return tuple(out.shape), out.tolist()
        x[index] = 7.
        return x.tolist()
    except Exception as error:      # noqa: BLE001 (every exception is compared)
        return f"{type(error).__name__}: {str(error).split(chr(10) + 'minigrad hint')[0]}"


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("operation, combo", CASES)
def test_index(torch, operation, combo):
    assert outcome(minigrad, operation, combo) == outcome(torch, operation, combo)
