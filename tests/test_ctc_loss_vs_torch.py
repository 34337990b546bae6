"""ctc_loss (F.ctc_loss, torch.ctc_loss, nn.CTCLoss) against PyTorch: values and gradients to
the last bit in float32 and float64 (padded and concatenated targets, repeated labels, empty
targets, impossible alignments, zero_infinity, unbatched input, int32 targets, tensor or tuple
lengths), the graph (CtcLossBackward0 and its saved values, the reduction nodes on top), the
refused second derivative and forward mode, gradcheck, and the errors word for word."""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck

from conftest import import_torch

torch = import_torch()

# (T, N, C, input lengths, target lengths, blank, targets concatenated, a label repeated)
CASES = {
    "padded": (8, 3, 5, (8, 6, 3), (3, 2, 0), 0, False, False),
    "concatenated_blank_2": (8, 3, 5, (8, 6, 3), (3, 2, 2), 2, True, False),
    "repeated_labels": (7, 2, 4, (7, 5), (3, 3), 0, False, True),
    "impossible": (6, 3, 4, (6, 1, 2), (3, 2, 3), 0, False, True),     # inf losses (nan gradients)
    "empty_inputs": (5, 3, 4, (5, 0, 0), (2, 1, 0), 3, False, False),
}
DTYPES = ("float32", "float64")
REDUCTIONS = ("none", "mean", "sum")


def _inputs(case, dtype, seed=0):
    T, N, C, il, tl, blank, concat, repeat = CASES[case]
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, N, C))
    lp = (x - np.log(np.exp(x).sum(-1, keepdims=True))).astype(dtype)
    S = max(tl) + 1
    targets = rng.integers(0, C - 1, size=(N, S))
    targets[targets >= blank] += 1                  # never the blank
    if repeat:
        targets[:, 1] = targets[:, 0]
    if concat:
        targets = np.concatenate([targets[b, :tl[b]] for b in range(N)])
    return lp, targets, il, tl, blank


def _both(L, lp, targets, il, tl, blank, reduction, zero_infinity, lengths_as="tuple",
          target_dtype="int64", requires_grad=True):
    x = L.tensor(lp, requires_grad=requires_grad)
    tg = L.tensor(targets.astype(target_dtype))
    if lengths_as == "tensor":
        il, tl = L.tensor(list(il)), L.tensor(list(tl))
    elif lengths_as == "list":
        il, tl = list(il), list(tl)
    loss = L.nn.functional.ctc_loss(x, tg, il, tl, blank=blank, reduction=reduction,
                                    zero_infinity=zero_infinity)
    return x, loss


def _run(L, case, dtype, reduction, zero_infinity, **options):
    lp, targets, il, tl, blank = _inputs(case, dtype)
    x, loss = _both(L, lp, targets, il, tl, blank, reduction, zero_infinity, **options)
    weights = np.linspace(0.5, 1.5, loss.numel()).reshape(tuple(loss.shape)).astype(dtype)
    loss.backward(L.tensor(weights))
    return loss.detach().numpy(), x.grad.numpy(), loss.grad_fn.name(), str(loss.dtype)


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("zero_infinity", [False, True])
def test_values_and_gradients_to_the_bit(case, dtype, reduction, zero_infinity):
    ours = _run(minigrad, case, dtype, reduction, zero_infinity)
    theirs = _run(torch, case, dtype, reduction, zero_infinity)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])
    assert ours[2:] == theirs[2:]


@pytest.mark.parametrize("options", [{"lengths_as": "tensor"}, {"lengths_as": "list"},
                                     {"target_dtype": "int32"}, {"target_dtype": "float64"}])
def test_ways_of_giving_targets_and_lengths(options):
    ours = _run(minigrad, "concatenated_blank_2", "float64", "mean", False, **options)
    theirs = _run(torch, "concatenated_blank_2", "float64", "mean", False, **options)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])


def _unbatched(L, reduction):
    lp, targets, il, tl, blank = _inputs("padded", "float64")
    x = L.tensor(lp[:, 0], requires_grad=True)
    loss = L.nn.functional.ctc_loss(x, L.tensor(targets[0, :3]), (8,), (3,), reduction=reduction)
    loss.backward()
    node = loss.grad_fn
    chain = []
    while node is not None and node.next_functions:
        chain.append(node.name())
        node = node.next_functions[0][0]
    return loss.detach().numpy(), x.grad.numpy(), tuple(loss.shape), chain


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_unbatched(reduction):
    ours, theirs = _unbatched(minigrad, reduction), _unbatched(torch, reduction)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])
    assert ours[2:] == theirs[2:]


def _graph(L, reduction, zero_infinity):
    lp, targets, il, tl, blank = _inputs("padded", "float64")
    x, loss = _both(L, lp, targets, il, tl, blank, reduction, zero_infinity)
    names, node = [], loss.grad_fn
    while node.name() != "CtcLossBackward0":
        names.append([None if n is None else n.name() for n, _ in node.next_functions])
        node = [n for n, _ in node.next_functions if n is not None][0]
    saved = {name: getattr(node, "_saved_" + name) for name in (
        "blank", "input_lengths", "target_lengths", "zero_infinity")}
    tensors = {name: getattr(node, "_saved_" + name) for name in ("log_probs", "targets", "result0")}
    log_alpha = node._saved_result1
    # (past each sample's lengths PyTorch leaves the alphas unset: compare the set ones)
    alphas = [log_alpha[b, :il[b], :2 * tl[b] + 1].detach().numpy() for b in range(len(il))]
    return (names, saved, {k: (v.detach().numpy(), str(v.dtype)) for k, v in tensors.items()},
            tuple(log_alpha.shape), alphas, [n.name() for n, _ in node.next_functions])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("zero_infinity", [False, True])
def test_graph_and_saved_values(reduction, zero_infinity):
    ours, theirs = _graph(minigrad, reduction, zero_infinity), _graph(torch, reduction, zero_infinity)
    assert ours[0] == theirs[0] and ours[1] == theirs[1] and ours[3] == theirs[3]
    assert ours[5] == theirs[5]
    for name in ours[2]:
        np.testing.assert_array_equal(ours[2][name][0], theirs[2][name][0])
        assert ours[2][name][1] == theirs[2][name][1]
    for a, b in zip(ours[4], theirs[4]):
        np.testing.assert_array_equal(a, b)


def _second_order(L):
    lp, targets, il, tl, blank = _inputs("padded", "float64")
    x = L.tensor(lp, requires_grad=True)
    y = x * 2
    loss = L.nn.functional.ctc_loss(y, L.tensor(targets), il, tl, reduction="none")
    (g,) = L.autograd.grad(loss, y, L.ones(3, dtype=L.float64, requires_grad=True), create_graph=True)
    edges = [n.name() for n, _ in g.grad_fn.next_functions]
    try:
        g.sum().backward()
    except RuntimeError as error:
        return g.grad_fn.name(), edges, g.requires_grad, str(error)


def test_second_derivative_is_refused():
    assert _second_order(minigrad) == _second_order(torch)


def _forward_mode(L):
    lp, targets, il, tl, blank = _inputs("padded", "float64")
    with L.autograd.forward_ad.dual_level():
        dual = L.autograd.forward_ad.make_dual(L.tensor(lp), L.ones(lp.shape, dtype=L.float64))
        try:
            L.nn.functional.ctc_loss(dual, L.tensor(targets), il, tl)
        except NotImplementedError as error:
            return str(error)


def test_forward_mode_is_refused():
    assert _forward_mode(minigrad) == _forward_mode(torch)


@pytest.mark.parametrize("case", ["padded", "concatenated_blank_2", "repeated_labels"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_gradcheck(case, reduction):
    # PyTorch's gradient holds for normalized log-probabilities (its e^log_probs term is the
    # log_softmax's part): checked through log_softmax, as PyTorch's own tests do
    lp, targets, il, tl, blank = _inputs(case, "float64")
    x = minigrad.tensor(lp, requires_grad=True)
    tg = minigrad.tensor(targets)
    assert gradcheck(lambda x: minigrad.nn.functional.ctc_loss(
        x.log_softmax(2), tg, il, tl, blank=blank, reduction=reduction), (x,))


def test_module_and_torch_function():
    lp, targets, il, tl, blank = _inputs("padded", "float64")
    for L in (minigrad, torch):
        assert repr(L.nn.CTCLoss()) == "CTCLoss()"
        assert repr(L.nn.CTCLoss(blank=2, reduction="sum", zero_infinity=True)) == "CTCLoss()"
    module = minigrad.nn.CTCLoss(blank=0, reduction="sum", zero_infinity=True)
    assert (module.blank, module.reduction, module.zero_infinity) == (0, "sum", True)
    ours = module(minigrad.tensor(lp), minigrad.tensor(targets), il, tl)
    theirs = torch.nn.CTCLoss(reduction="sum", zero_infinity=True)(
        torch.tensor(lp), torch.tensor(targets), il, tl)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    ours = minigrad.ctc_loss(minigrad.tensor(lp), minigrad.tensor(targets), il, tl, 0, 2, False)
    theirs = torch.ctc_loss(torch.tensor(lp), torch.tensor(targets), il, tl, 0, 2, False)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def _lp(L, shape=(6, 2, 4), dtype="float64"):
    return L.tensor(np.zeros(shape, dtype=dtype) - np.log(shape[-1]))


BAD = {
    "input_too_long": lambda L: (_lp(L), L.ones(2, 3, dtype=L.int64), (7, 5), (3, 2)),
    "input_negative": lambda L: (_lp(L), L.ones(2, 3, dtype=L.int64), (-1, 5), (3, 2)),
    "target_negative": lambda L: (_lp(L), L.ones(2, 3, dtype=L.int64), (6, 5), (-1, 2)),
    "target_too_long": lambda L: (_lp(L), L.ones(2, 3, dtype=L.int64), (6, 5), (4, 2)),
    "concatenated_too_short": lambda L: (_lp(L), L.ones(6, dtype=L.int64), (6, 5), (4, 3)),
    "targets_rows": lambda L: (_lp(L), L.ones(1, 3, dtype=L.int64), (6, 5), (3, 2)),
    "targets_3d": lambda L: (_lp(L), L.ones(1, 2, 3, dtype=L.int64), (6, 5), (3, 2)),
    "targets_0d": lambda L: (_lp(L), L.tensor(1), (6, 5), (3, 2)),
    "input_lengths_size": lambda L: (_lp(L), L.ones(2, 3, dtype=L.int64), (6,), (3, 2)),
    "target_lengths_size": lambda L: (_lp(L), L.ones(2, 3, dtype=L.int64), (6, 5), (3,)),
    "log_probs_int": lambda L: (_lp(L).long(), L.ones(2, 3, dtype=L.int64), (6, 5), (3, 2)),
    "log_probs_4d": lambda L: (_lp(L, (6, 2, 4, 1)), L.ones(2, 3, dtype=L.int64), (6, 5), (3, 2)),
    "log_probs_1d": lambda L: (_lp(L, (4,)), L.ones(2, 3, dtype=L.int64), (6, 5), (3, 2)),
    "log_probs_empty": lambda L: (_lp(L, (0, 2, 4)), L.ones(2, 3, dtype=L.int64), (0, 0), (0, 0)),
    "input_lengths_float": lambda L: (_lp(L), L.ones(2, 3, dtype=L.int64), L.tensor([6., 5.]),
                                      L.tensor([3, 2])),
    "target_lengths_float": lambda L: (_lp(L), L.ones(2, 3, dtype=L.int64), L.tensor([6, 5]),
                                       L.tensor([3., 2.])),
    "input_lengths_bool": lambda L: (_lp(L), L.ones(2, 3, dtype=L.int64), L.tensor([True, True]),
                                     L.tensor([3, 2])),
}


def _error(L, name, **options):
    try:
        L.nn.functional.ctc_loss(*BAD[name](L), **options)
    except Exception as error:      # noqa: BLE001  (the class is compared)
        return type(error).__name__, str(error).split("\n")[0]
    return None


@pytest.mark.parametrize("name", list(BAD))
def test_errors_word_for_word(name):
    assert _error(minigrad, name) is not None
    assert _error(minigrad, name) == _error(torch, name)


@pytest.mark.parametrize("options", [{"blank": 4}, {"blank": -1}, {"reduction": "avg"}])
def test_setting_errors(options):
    ours = _error(minigrad, "input_too_long", **options)
    assert ours == _error(torch, "input_too_long", **options)


def test_mixed_lengths_are_a_type_error():
    results = []
    for L in (minigrad, torch):
        with pytest.raises(TypeError) as info:
            L.nn.functional.ctc_loss(_lp(L), L.ones(2, 3, dtype=L.int64), L.tensor([6, 5]), (3, 2))
        results.append(str(info.value).split("\n")[0])
    assert results[0] == results[1]


def test_a_label_out_of_range_is_an_error():
    # (PyTorch reads whatever memory the label points to: minigrad refuses, with a hint)
    with pytest.raises(RuntimeError, match="target label 7 is out of range for 4 labels\nminigrad hint:"):
        minigrad.nn.functional.ctc_loss(_lp(minigrad), minigrad.tensor([[1, 7, 2], [1, 2, 3]]),
                                        (6, 5), (3, 2))


def _changed_in_place(L):
    x = L.tensor(np.full((4, 2, 3), -np.log(3.0)), requires_grad=True)
    y = x * 1
    loss = L.nn.functional.ctc_loss(y, L.tensor([[1, 2], [1, 1]]), (4, 4), (2, 2))
    y.add_(0)
    with pytest.raises(RuntimeError) as info:
        loss.backward()
    return str(info.value).split(" Hint:")[0]


def test_saved_log_probs_changed_in_place():
    assert _changed_in_place(minigrad) == _changed_in_place(torch)
