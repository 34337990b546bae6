"""Optimizers made with wrong arguments fail as PyTorch's do.

A learner passes the model instead of ``model.parameters()``, a tensor of learning rates, a
list, a negative number, an empty list, a non-leaf tensor... Each optimizer is made with zero,
one or two positional arguments drawn from such values, under both libraries, and must end the
same way: the same exception class and PyTorch's message (minigrad's advice only on a
``minigrad hint:`` line), or success in both.
"""
import itertools
import random
import warnings

import pytest

import minigrad

OPTIMIZERS = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "LBFGS", "Adadelta", "Adamax", "NAdam",
              "RAdam", "ASGD", "Rprop", "SparseAdam", "Adafactor"]


def candidates(lib):
    """The values a learner might pass, made fresh for each call."""
    w = lib.ones(2, requires_grad=True)
    return [w, [w], [w, w], lib.ones(2), "x", None, [], -0.1, 0.1, (0.9, 0.999), {"params": [w]},
            [{"params": [w]}, {"params": [w]}], 2, w.detach() * 2, w * 2, lib.tensor(0.01),
            lib.tensor(-1.0), {"params": [w], "lr": -1}]


CASES = [(name, combo) for name in OPTIMIZERS for count in (0, 1, 2)
         for combo in itertools.product(range(18), repeat=count)]
CASES = random.Random(0).sample(CASES, 1500)


def outcome(lib, name, combo):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = candidates(lib)
            getattr(lib.optim, name)(*[values[i] for i in combo])
    except Exception as error:      # noqa: BLE001 (every exception is compared)
        return f"{type(error).__name__}: {str(error).split(chr(10) + 'minigrad hint')[0]}"
    return "ok"


@pytest.mark.parametrize("name, combo", CASES)
def test_optimizer_made_with_wrong_arguments(torch, name, combo):
    assert outcome(minigrad, name, combo) == outcome(torch, name, combo)
