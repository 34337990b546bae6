"""Wrong calls to nn.functional and to nn's layers fail as in PyTorch: same exception class, same
message (minigrad's text up to its "minigrad hint:" line), or both succeed.

The cases are generated the same way every time: each function is called with every one and
every pair of arguments from a pool of values a learner might pass by mistake (tensors of
several dtypes and shapes, a string, None, a list, numbers), plus a fixed-seed sample of
triples and of quadruples; each layer with every one and every pair of inputs from a pool of
its own.

Left out, with the reason:
- F.normalize: with a string or tensor ``p`` PyTorch's message comes from torch.norm's own
  Python steps (``linalg.matrix_norm: Order x not supported``), which minigrad's norm does not
  follow yet.
- torch.flatten (the function behind nn.Flatten): its argument checks belong to torch's
  functions; nn.Flatten's module cases are in.
- softplus(x, threshold=t): a wrong number given by keyword is named with its position.
"""
import itertools
import random

import pytest

import minigrad
from conftest import import_torch, outcome_of

torch = import_torch()

FUNCTIONS = [
    "dropout", "relu", "softmax", "log_softmax", "cross_entropy", "nll_loss", "mse_loss",
    "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "smooth_l1_loss",
    "huber_loss", "kl_div", "sigmoid", "tanh", "gelu", "leaky_relu", "elu", "softplus",
    "linear", "one_hot", "embedding", "pad", "cosine_similarity", "dropout1d", "silu",
    "hardtanh", "max_pool1d", "avg_pool1d",
]


def _pool(lib):
    """Arguments a learner might pass by mistake (the same for both libraries)."""
    return [lib.ones(2, 3), lib.tensor([1, 0]), lib.ones(3), lib.tensor(1.), "x", None, [1., 2.],
            2, 0.5, lib.ones(2, 3, dtype=lib.float64), lib.tensor([[1, 0, 2], [0, 1, 1]]),
            lib.ones(0, 3), lib.ones(2, 3, 4)]


def _function_cases():
    rng = random.Random(0)
    cases = []
    for name in FUNCTIONS:
        for count in (1, 2):
            cases += [(name, combo) for combo in itertools.product(range(13), repeat=count)]
        cases += [(name, combo) for combo in rng.sample(list(itertools.product(range(13), repeat=3)), 16)]
        cases += [(name, combo) for combo in rng.sample(list(itertools.product(range(13), repeat=4)), 10)]
    return cases


_outcome = outcome_of


@pytest.mark.parametrize("name, combo", _function_cases(),
                         ids=lambda value: value if isinstance(value, str) else "-".join(map(str, value)))
def test_functional_misuse_matches_torch(name, combo):
    outcomes = []
    for lib in (torch, minigrad):
        function = getattr(lib.nn.functional, name)
        pool = _pool(lib)
        outcomes.append(_outcome(lambda: function(*[pool[k] for k in combo])))
    assert outcomes[1] == outcomes[0]


MODULES = {
    "Dropout": lambda nn: nn.Dropout(0.5), "Softmax": lambda nn: nn.Softmax(dim=1),
    "CrossEntropyLoss": lambda nn: nn.CrossEntropyLoss(), "MSELoss": lambda nn: nn.MSELoss(),
    "Flatten": lambda nn: nn.Flatten(), "ReLU": lambda nn: nn.ReLU(),
    "NLLLoss": lambda nn: nn.NLLLoss(), "BCELoss": lambda nn: nn.BCELoss(),
    "GroupNorm": lambda nn: nn.GroupNorm(1, 2), "Linear": lambda nn: nn.Linear(3, 2),
    "LayerNorm": lambda nn: nn.LayerNorm(3), "Embedding": lambda nn: nn.Embedding(5, 2),
}


def _module_inputs(lib):
    ones = lib.ones
    return [ones(3), ones(2, 3), ones(4, 2), ones(2, 2, 3), ones(1, 2, 4, 4), ones(2, 3, 5),
            lib.tensor([1, 2]), lib.tensor([[0, 7]]), ones(0, 3), ones(2, 3, dtype=lib.float64),
            lib.tensor(1.), "x", None, [1., 2., 3.], ones(2, 3, 1, 1, 1)]


def _module_cases():
    cases = []
    for name in MODULES:
        for count in ((1,) if name not in ("CrossEntropyLoss", "MSELoss", "NLLLoss", "BCELoss") else (1, 2)):
            cases += [(name, combo) for combo in itertools.product(range(15), repeat=count)]
    return cases


@pytest.mark.parametrize("name, combo", _module_cases(),
                         ids=lambda value: value if isinstance(value, str) else "-".join(map(str, value)))
def test_module_misuse_matches_torch(name, combo):
    outcomes = []
    for lib in (torch, minigrad):
        lib.manual_seed(0)
        module = MODULES[name](lib.nn)
        pool = _module_inputs(lib)
        outcomes.append(_outcome(lambda: module(*[pool[k] for k in combo])))
    assert outcomes[1] == outcomes[0]
