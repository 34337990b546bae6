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


# index_put with no indices at all: PyTorch fails inside, in one of three ways (index_ops.py)
NO_INDEX_SELVES = ["zeros(3)", "zeros(2, 3)", "zeros(())", "zeros(2, 0)", "zeros(0)", "zeros(2, 3).long()",
                   "zeros(1, 1)"]
NO_INDEX_VALUES = ["tensor(5.)", "ones(3)", "ones(2, 3)", "ones(1)", "ones(1, 1)", "ones(4)", "ones(0)",
                   "tensor(5)", "ones(1, 3)", "ones(2, 3).long()"]
NO_INDEX_CALLS = ["x.index_put_((), v, accumulate=a)", "x.index_put_([], v, accumulate=a)",
                  "x.index_put((), v, accumulate=a)", "torch.index_put(x, [], v, a)",
                  "torch.index_put_(x, (), v, a)"]


@pytest.mark.parametrize("call", NO_INDEX_CALLS)
@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("value", NO_INDEX_VALUES)
@pytest.mark.parametrize("tensor", NO_INDEX_SELVES)
def test_index_put_without_indices(torch, tensor, value, accumulate, call):
    def run(lib):
        names = {"torch": lib, "x": eval(f"lib.{tensor}", {"lib": lib}),     # noqa: S307
                 "v": eval(f"lib.{value}", {"lib": lib}), "a": accumulate}  # noqa: S307
        try:
            out = eval(call, names)                                        # noqa: S307
            return tuple(out.shape), out.tolist(), names["x"].tolist(), names["x"]._version
        except Exception as error:      # noqa: BLE001 (every exception is compared)
            return f"{type(error).__name__}: {str(error).split(chr(10) + 'minigrad hint')[0]}", names["x"]._version
    assert run(minigrad) == run(torch)
