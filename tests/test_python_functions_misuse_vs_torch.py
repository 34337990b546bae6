"""Wrong calls of the functions PyTorch writes in Python (torch/functional.py: einsum, split,
unique, tensordot, norm, meshgrid, ...), of their Tensor methods (torch/_tensor.py), of
nn.Module.to, and the names messages give the types of wrong arguments, fail as in PyTorch:
same exception class, same message (minigrad's text up to its "minigrad hint:" line), or both
succeed.

The cases are generated the same way every time: each function is called with no argument,
with each value of a pool of wrong (and right) arguments, and with a fixed-seed sample of pairs
and triples of them; then with wrong keywords.

Left out, with the reason:
- ``torch.float32`` (or any minigrad class standing for one of PyTorch's C types) where
  Python's own message names its type ("'torch.dtype' object has no attribute 'split'"):
  minigrad's dtype is a Python class named ``dtype``. PyTorch's parser messages are in (see
  TYPE_NAMES).
- einsum's sublist format with a non-list label list: Python's own message then names the
  type (as above).
- embedding and the other nn.functional functions: tests/test_functional_misuse_vs_torch.py.
"""
import collections
import decimal
import fractions
import itertools
import random

import numpy as np
import pytest

import minigrad
from conftest import import_torch, outcome_of

torch = import_torch()

FUNCTIONS = [
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
    "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum", "lu", "norm", "meshgrid",
    "split", "tensordot", "unique", "unique_consecutive", "unravel_index",
]
METHODS = ["split", "unique", "unique_consecutive", "norm", "lu"]
KEYWORDS = ["dim", "p", "dims", "indexing", "sorted", "return_inverse", "return_counts", "out",
            "pivot", "get_infos", "keepdim", "dtype", "compute_mode", "foo"]


def _pool(lib):
    """Arguments a learner might pass (the same for both libraries)."""
    return [lib.ones(2, 3), lib.tensor([1, 0]), lib.ones(3), lib.tensor(1.), "x", None, [1., 2.],
            2, 0.5, lib.ones(2, 3, dtype=lib.float64), lib.tensor([[1, 0, 2], [0, 1, 1]]),
            lib.ones(0, 3), lib.ones(2, 3, 4), "ij,jk", (1, 2), True, -1, [lib.ones(2)], "fro"]


POOL_SIZE = 19


def _sample(rng, count, how_many):
    combos = list(itertools.product(range(POOL_SIZE), repeat=count))
    return combos if len(combos) <= how_many else rng.sample(combos, how_many)


def _function_cases():
    rng = random.Random(0)
    cases = []
    for name in FUNCTIONS:
        combos = [()] + _sample(rng, 1, POOL_SIZE) + _sample(rng, 2, 26) + _sample(rng, 3, 18)
        cases += [(name, combo, None) for combo in combos]
        # a keyword, after one or two right-looking arguments
        for keyword in rng.sample(KEYWORDS, 4):
            cases.append((name, (rng.choice((0, 2, 12)),), (keyword, rng.randrange(POOL_SIZE))))
            cases.append((name, (0, rng.randrange(POOL_SIZE)), (keyword, rng.randrange(POOL_SIZE))))
    return cases


_outcome = outcome_of


def _ids(value):
    if isinstance(value, str):
        return value
    if value is None:
        return "-"
    return "-".join(map(str, value))


@pytest.mark.parametrize("name, combo, keyword", _function_cases(), ids=_ids)
def test_python_function_misuse_matches_torch(name, combo, keyword):
    outcomes = []
    for lib in (torch, minigrad):
        pool = _pool(lib)
        kwargs = {} if keyword is None else {keyword[0]: pool[keyword[1]]}
        function = getattr(lib, name)
        outcomes.append(_outcome(lambda: function(*[pool[k] for k in combo], **kwargs)))
    assert outcomes[1] == outcomes[0]


def _method_cases():
    rng = random.Random(1)
    cases = []
    for name in METHODS:
        for self_index in (0, 10):
            combos = [()] + _sample(rng, 1, POOL_SIZE) + _sample(rng, 2, 12) + _sample(rng, 3, 6)
            cases += [(name, self_index, combo) for combo in combos]
    return cases


@pytest.mark.parametrize("name, self_index, combo", _method_cases(),
                         ids=lambda value: _ids(value) if not isinstance(value, int) else str(value))
def test_tensor_method_misuse_matches_torch(name, self_index, combo):
    outcomes = []
    for lib in (torch, minigrad):
        pool = _pool(lib)
        method = getattr(pool[self_index], name)
        outcomes.append(_outcome(lambda: method(*[pool[k] for k in combo])))
    assert outcomes[1] == outcomes[0]


def _to_pool(lib):
    return ["a", 1, 2, None, int, float, bool, lib.int64, lib.float64, lib.float16, lib.bool,
            lib.ones(1, dtype=lib.long), lib.ones(2), "cpu", "cuda", 2.5, True, [1],
            lib.channels_last, -1, 0, lib.device("cpu")]


def _to_cases():
    rng = random.Random(2)
    size = 22
    cases = [((), None)]
    cases += [((k,), None) for k in range(size)]
    cases += [(combo, None) for combo in rng.sample(list(itertools.product(range(size), repeat=2)), 60)]
    cases += [(combo, None) for combo in rng.sample(list(itertools.product(range(size), repeat=3)), 30)]
    for keyword in ("dtype", "device", "non_blocking", "copy", "memory_format", "tensor", "foo"):
        cases += [((), (keyword, k)) for k in rng.sample(range(size), 6)]
        cases += [((8,), (keyword, k)) for k in rng.sample(range(size), 3)]
    return cases


@pytest.mark.parametrize("combo, keyword", _to_cases(), ids=_ids)
def test_module_to_misuse_matches_torch(combo, keyword):
    outcomes = []
    for lib in (torch, minigrad):
        lib.manual_seed(0)
        module = lib.nn.Linear(2, 2)
        pool = _to_pool(lib)
        kwargs = {} if keyword is None else {keyword[0]: pool[keyword[1]]}
        # (the module's class name: the same module comes back on success)
        outcomes.append(_outcome(lambda: type(module.to(*[pool[k] for k in combo], **kwargs)).__name__))
    assert outcomes[1] == outcomes[0]


class LearnersClass:
    """A class written in Python: PyTorch names it by its name alone."""


def _learners_function():
    """A function: PyTorch names its type 'function'."""


TYPE_NAMES = {
    "OrderedDict": lambda lib: collections.OrderedDict(), "deque": lambda lib: collections.deque(),
    "defaultdict": lambda lib: collections.defaultdict(int), "Fraction": lambda lib: fractions.Fraction(1, 2),
    "Decimal": lambda lib: decimal.Decimal(1), "float64": lambda lib: np.float64(1.5),
    "int64": lambda lib: np.int64(1), "ndarray": lambda lib: np.ones(2), "user class": lambda lib: LearnersClass(),
    "function": lambda lib: _learners_function, "builtin": lambda lib: len, "range": lambda lib: range(2),
    "set": lambda lib: {1}, "complex": lambda lib: 1j, "bytes": lambda lib: b"x",
    "numpy dtype": lambda lib: np.dtype("float32"), "torch dtype": lambda lib: lib.float32,
    "device": lambda lib: lib.device("cpu"), "Size": lambda lib: lib.Size([2]),
    "layout": lambda lib: lib.strided, "memory_format": lambda lib: lib.contiguous_format,
    "Generator": lambda lib: lib.Generator(), "Parameter": lambda lib: lib.nn.Parameter(lib.ones(1)),
    "module": lambda lib: lib.nn.Linear(1, 1), "finfo": lambda lib: lib.finfo(lib.float32),
}

# calls whose messages name the type of their wrong argument
NAMING_CALLS = {
    "requires_grad_": lambda lib, value: lib.ones(1).requires_grad_(value),
    "exp": lambda lib, value: lib.exp(value),
    "unique": lambda lib, value: lib.unique(value),
    "block_diag": lambda lib, value: lib.block_diag(lib.ones(1), value),
    "split": lambda lib, value: lib.ones(3).split(value),
}


@pytest.mark.parametrize("call", NAMING_CALLS)
@pytest.mark.parametrize("kind", TYPE_NAMES)
def test_type_names_match_torch(kind, call):
    outcomes = []
    for lib in (torch, minigrad):
        value = TYPE_NAMES[kind](lib)
        outcomes.append(_outcome(lambda: NAMING_CALLS[call](lib, value)))
    assert outcomes[1] == outcomes[0]
