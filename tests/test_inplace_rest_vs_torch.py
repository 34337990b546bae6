"""The last in-place differences, compared with real PyTorch.

* integer tensors given history by ``x[mask] = v`` (``v`` requiring grad): any later
  operation that would record them fails ("Autograd not support dtype: Long");
* ``logical_and_`` and its siblings check the written tensor's own overlap first, then the
  other operand's, then the shapes;
"""
import warnings

import numpy as np
import pytest

import minigrad


def _outcome(run):
    """What running ``run()`` shows: ('ok', what it returned) or (exception class name, message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ("ok", run())
    except Exception as error:       # (the class and the message are what is compared)
        return (type(error).__name__, str(error))


# --- integer tensors with history ------------------------------------------------------------

AFTER_INDEX_PUT = {
    "add": lambda L, i: i + 1,
    "view": lambda L, i: i.view(-1),
    "alias": lambda L, i: i[...],
    "select": lambda L, i: i[0],
    "clone": lambda L, i: i.clone(),
    "sum": lambda L, i: i.sum(),
    "cat": lambda L, i: L.cat([i, i]),
    "backward": lambda L, i: i.sum().backward(),
    "float": lambda L, i: i.float(),
    "detach": lambda L, i: i.detach(),
    "compare": lambda L, i: i > 0,
    "mul_": lambda L, i: i.mul_(2),
    "index_put_again": lambda L, i: i.__setitem__(i > 0, L.ones((), requires_grad=True) * 2),
}


def _integers_with_history(L, dtype):
    x = L.tensor([0.5, 2.0, 1.0], requires_grad=True)
    i = L.tensor([0, 2, 1], dtype=dtype)
    i[i > 0] = x.sum()
    return i


@pytest.mark.parametrize("name", sorted(AFTER_INDEX_PUT))
@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
def test_integers_with_history(torch, name, dtype):
    seen = []
    for L in (minigrad, torch):
        i = _integers_with_history(L, getattr(L, dtype))
        assert (i.requires_grad, type(i.grad_fn).__name__, i._version) == (True, "IndexPutBackward0", 1)
        outcome = _outcome(lambda: AFTER_INDEX_PUT[name](L, i))
        if outcome[0] == "ok" and outcome[1] is not None:
            result = outcome[1]
            outcome = ("ok", result.tolist(), str(result.dtype).split(".")[-1], result.requires_grad,
                       type(result.grad_fn).__name__)
        seen.append((outcome, i.tolist(), i._version))
    assert seen[0] == seen[1]


def test_integer_results_of_recorded_inputs_are_plain(torch):
    """Results with no derivative (indices, comparisons, conversions) are not refused."""
    for run in (lambda L, x: x.long(), lambda L, x: x.argmax(), lambda L, x: x.sort()[1],
                lambda L, x: x > 0, lambda L, x: L.bucketize(x, x.detach()), lambda L, x: x.isnan()):
        seen = []
        for L in (minigrad, torch):
            result = run(L, L.tensor([0.5, 2.0, 1.0], requires_grad=True))
            seen.append((result.tolist(), result.requires_grad, result.grad_fn))
        assert seen[0] == seen[1]


# --- logical_and_ and siblings: the order of their checks ------------------------------------

LOGICAL = {
    "logical_and_": lambda L, x, o: x.logical_and_(o),
    "logical_or_": lambda L, x, o: x.logical_or_(o),
    "logical_xor_": lambda L, x, o: x.logical_xor_(o),
    "logical_not_": lambda L, x, o: x.logical_not_(),
}
VIEWS = {
    "expanded": lambda L: L.tensor([1.0, 0.0]).expand(3, 2),
    "windows": lambda L: L.tensor([1.0, 0.0, 2.0, 0.0, 3.0]).unfold(0, 2, 1),
    "plain": lambda L: L.tensor([[1.0, 0.0], [2.0, 0.0], [0.0, 3.0]]),
}
OTHERS = {"same": (3, 2), "row": (2,), "longer": (4,), "bigger": (3, 2, 2), "wider": (2, 3, 2)}


@pytest.mark.parametrize("name", sorted(LOGICAL))
@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("other", sorted(OTHERS))
def test_logical_in_place_check_order(torch, name, view, other):
    seen = []
    for L in (minigrad, torch):
        x = VIEWS[view](L)
        o = L.ones(OTHERS[other])
        outcome = _outcome(lambda: LOGICAL[name](L, x, o).tolist())
        seen.append((outcome, x._version))
    assert seen[0] == seen[1]


def test_logical_in_place_partial_overlap_comes_before_shapes(torch):
    seen = []
    for L in (minigrad, torch):
        base = L.tensor([1.0, 0.0, 2.0, 0.0, 3.0, 1.0])
        seen.append(_outcome(lambda: base[:4].view(2, 2).logical_and_(base[1:])))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("name", ["logical_and_", "logical_or_", "logical_xor_"])
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_logical_in_place_reading_its_own_writes(torch, name, dtype):
    """Overlapping windows, or an operand that reads what the loop writes (a row of a
    transposed self): each position is written in turn, reading what earlier writes left."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        values = rng.integers(0, 2, size=12)
        seen = []
        for L in (minigrad, torch):
            base = L.tensor(values, dtype=getattr(L, dtype))
            windows = base[:9].as_strided((3, 4), (2, 1))
            getattr(windows, name)(L.tensor([1, 0, 1, 1], dtype=base.dtype))
            square = base[:9].view(3, 3).t()
            getattr(square, name)(square[1])
            seen.append((base.tolist(), base._version))
        assert seen[0] == seen[1]
