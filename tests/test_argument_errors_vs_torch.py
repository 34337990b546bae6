"""torch.X called wrongly fails in minigrad as in PyTorch: same exception class, same message.

PyTorch's argument parser (python_arg_parser.cpp) checks every call of a torch-level function
against the function's signatures before any work: the number of positional arguments,
keyword-only parameters, unknown keywords, missing arguments and each argument's type, and
lists the signatures when none fits. Here each function minigrad has is called, with a fixed
seed, with no argument and with one or two arguments drawn from a pool of learner-like values
(tensors of several dtypes, numbers, None, a string, a list, a tuple), in both libraries. When
PyTorch's parser refuses the call (a TypeError), minigrad must raise the same TypeError with
the same text (up to a "minigrad hint:" line); when PyTorch accepts it, minigrad must accept it
too and give the same values. After every error the library must keep working.
"""
import random

import numpy as np
import pytest

import minigrad
from minigrad._signature_table import SIGNATURES
from conftest import assert_same_values, import_torch

torch = import_torch()

# the values a learner's wrong call is made of, each made fresh for each call
VALUES = {
    "float tensor": lambda m: m.tensor([[1.5, -2.0], [0.5, 3.0]]),
    "int tensor": lambda m: m.tensor([[1, 2], [3, 4]]),
    "bool tensor": lambda m: m.tensor([[True, False], [False, True]]),
    "1-d tensor": lambda m: m.tensor([0.25, 0.75]),
    "tensor requiring grad": lambda m: m.tensor([[0.5, 1.0], [1.5, 2.0]], requires_grad=True),
    "1": lambda m: 1, "2.5": lambda m: 2.5, "-1": lambda m: -1, "None": lambda m: None,
    "'a'": lambda m: "a", "[1, 2]": lambda m: [1, 2], "(2, 2)": lambda m: (2, 2),
    "3": lambda m: 3, "0": lambda m: 0, "True": lambda m: True,
}

# torch-level functions left out, with the reason
LEFT_OUT = {
    # random results: compared elsewhere, with generators
    **dict.fromkeys(("bernoulli", "multinomial", "normal", "poisson", "rand", "rand_like", "randint",
                     "randint_like", "randn", "randn_like", "randperm", "rrelu", "rrelu_", "dropout",
                     "alpha_dropout", "feature_dropout", "feature_alpha_dropout", "dropout_",
                     "alpha_dropout_", "feature_dropout_", "feature_alpha_dropout_", "empty",
                     "empty_like", "empty_strided"), "random or uninitialized values"),
    "binomial": "random values",
    "histogram": "minigrad's histogram needs bins (PyTorch's default is 100)",
    "geqrf": "minigrad's geqrf records no graph",
    "detach_copy": "minigrad's detach_copy takes no out=",
}


# torch-level functions minigrad has that are not in the signature table, so not here yet:
# - written in Python in PyTorch (their own checks, not the parser's): atleast_1d, atleast_2d,
#   atleast_3d, block_diag, broadcast_tensors, cartesian_prod, cdist, chain_matmul, einsum,
#   meshgrid, norm, split, tensordot, unique_consecutive;
# - one printed signature among several declared that the .pyi does not tell apart (named
#   dimensions, data of any type): as_tensor, asarray, empty, from_numpy, full, ones, zeros,
#   tensor, nonzero, index_put, index_put_, get_device.

# functions whose keyword cases are left out, with the reason
KEYWORDS_LEFT_OUT = {
    "max": "minigrad's max takes other= by position only",
    "min": "minigrad's min takes other= by position only",
    "clone": "minigrad's clone refuses memory_format=None",
}


def _functions():
    return sorted(n for n in SIGNATURES if hasattr(minigrad, n) and n not in LEFT_OUT)


def _cases(seed=0, singles=5, pairs=3):
    rng = random.Random(seed)
    labels = list(VALUES)
    cases = []
    for name in _functions():
        cases.append((name, ()))
        cases += [(name, (label,)) for label in rng.sample(labels, singles)]
        cases += [(name, (rng.choice(labels), rng.choice(labels))) for _ in range(pairs)]
        # keywords: an unknown one, and a known one with a value of a random kind
        known = sorted({spec.partition("=")[0].rpartition(" ")[2]
                        for signature in SIGNATURES[name] for spec in signature.split(", ") if spec != "*"})
        if name in KEYWORDS_LEFT_OUT:
            continue
        cases.append((name, ("float tensor", "x=1")))
        cases.append((name, ("float tensor", f"{rng.choice(known)}={rng.choice(labels)}")))
    return cases


def _outcome(module, name, labels):
    args = [VALUES[label](module) for label in labels if "=" not in label or label[0] in "'([-"]
    kwargs = {label.partition("=")[0]: VALUES[label.partition("=")[2]](module)
              for label in labels if "=" in label and label[0] not in "'([-"}
    try:
        return "ok", getattr(module, name)(*args, **kwargs)
    except Exception as error:          # noqa: BLE001 (any error is compared)
        return "error", error


def _message(error):
    return str(error).split("\nminigrad hint:")[0]


@pytest.mark.parametrize("name, labels", _cases(), ids=lambda v: v if isinstance(v, str) else ",".join(v))
def test_wrong_call_fails_as_in_torch(name, labels):
    kind, expected = _outcome(torch, name, labels)
    got_kind, got = _outcome(minigrad, name, labels)
    if kind == "error" and isinstance(expected, TypeError):
        assert got_kind == "error", f"minigrad accepted what PyTorch refuses: {expected}"
        assert type(got) is type(expected)
        assert _message(got) == str(expected)
    elif kind == "ok":
        assert got_kind == "ok", f"minigrad refused what PyTorch accepts: {got!r}"
        assert_same_values(expected, got)
    # (the library still works after the error)
    assert minigrad.add(minigrad.ones(2), 1).tolist() == [2.0, 2.0]


# --- requires_grad of the factories left out of the table (tensor, zeros, ones, empty, full) ---

_FACTORIES = {
    "zeros": lambda L, v: L.zeros(2, requires_grad=v),
    "ones": lambda L, v: L.ones(2, 3, requires_grad=v),
    "empty": lambda L, v: L.empty(2, requires_grad=v),
    "full": lambda L, v: L.full((2,), 1.5, requires_grad=v),
    "tensor": lambda L, v: L.tensor([1.0, 2.0], requires_grad=v),
    "tensor_of_ints": lambda L, v: L.tensor([1, 2], requires_grad=v),
    "zeros_of_ints": lambda L, v: L.zeros(2, dtype=L.int64, requires_grad=v),
    "zeros_of_a_wrong_size": lambda L, v: L.zeros("a", requires_grad=v),
}
_FLAGS = {"True": lambda L: True, "None": lambda L: None, "one": lambda L: 1,
          "float": lambda L: 1.0, "str": lambda L: "yes", "numpy_bool": lambda L: np.bool_(True),
          "tensor": lambda L: L.tensor(True), "list": lambda L: [True]}


@pytest.mark.parametrize("flag", sorted(_FLAGS))
@pytest.mark.parametrize("factory", sorted(_FACTORIES))
def test_factories_take_only_a_bool_for_requires_grad(factory, flag):
    outcomes = []
    for L in (torch, minigrad):
        try:
            made = _FACTORIES[factory](L, _FLAGS[flag](L))
            outcomes.append(("made", made.requires_grad, str(made.dtype)))
        except Exception as error:
            outcomes.append((type(error).__name__, _message(error)))
    assert outcomes[0] == outcomes[1]
