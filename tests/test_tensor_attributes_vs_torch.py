"""Assigning a tensor's attributes, right and wrong, as in PyTorch.

``x.grad = ...``, ``x.data = ...``, ``x.requires_grad = ...`` and the attributes PyTorch only lets
one read (``x.shape = ...``, ``x.grad_fn = None``, ``x.is_leaf = True``, ...), on a leaf, a
non-leaf, a tensor without gradients, an integer tensor, a Parameter and a view, each given
values of many kinds: the same value afterwards, or the same exception class and message.
"""
import itertools
import warnings

import pytest

import minigrad

ATTRIBUTES = ("grad", "data", "requires_grad", "grad_fn", "is_leaf", "shape", "dtype", "T", "names",
              "retains_grad", "ndim", "device", "output_nr", "layout")


def values(lib):
    return {"f2": lib.ones(2), "f3": lib.ones(3), "d2": lib.ones(2, dtype=lib.float64),
            "i2": lib.tensor([1, 2]), "none": None, "int": 1, "str": "a", "list": [1., 2.], "true": True,
            "r2": lib.ones(2, requires_grad=True), "f22": lib.ones(2, 2), "b2": lib.tensor([True, False]),
            "p": lib.nn.Parameter(lib.ones(2))}


def targets(lib):
    x = lib.ones(2, requires_grad=True)
    return {"leaf": x, "nonleaf": x * 2, "plain": lib.ones(2), "int": lib.tensor([1, 2]),
            "param": lib.nn.Parameter(lib.ones(2)), "view": (x * 2)[:2]}


CASES = list(itertools.product(ATTRIBUTES, targets(minigrad), values(minigrad)))


def outcome(lib, attribute, target, value):
    t, v = targets(lib)[target], values(lib)[value]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            setattr(t, attribute, v)
            return "ok", str(getattr(t, attribute))
    except Exception as error:      # noqa: BLE001 (every exception is compared)
        return f"{type(error).__name__}: {str(error).split(chr(10) + 'minigrad hint')[0]}"


@pytest.mark.parametrize("attribute, target, value", CASES)
def test_assign_attribute(torch, attribute, target, value):
    assert outcome(minigrad, attribute, target, value) == outcome(torch, attribute, target, value)
