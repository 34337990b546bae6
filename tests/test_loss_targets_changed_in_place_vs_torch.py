"""A loss's target (and weight) changed in place between forward and backward: PyTorch's
nodes save them, so backward refuses with the saved-tensor version error instead of
computing a gradient from the changed labels. minigrad saves the same tensors."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _labels(L, values, dtype=None):
    return L.tensor(values, dtype=dtype if dtype is not None else L.int64)


# name -> (build(L, x) -> (loss, tensor to change), how to change it in place)
PROGRAMS = {
    "nll_loss": (lambda L, x: _nll(L, x, L.tensor([1, 0, 3])), "add_"),
    "nll_loss_byte_target": (lambda L, x: _nll(L, x, _labels(L, [1, 0, 3], L.uint8)), "add_"),
    "nll_loss_1d": (lambda L, x: _nll(L, x[0], L.tensor([2])), "add_"),
    "nll_loss_none": (lambda L, x: _nll(L, x, L.tensor([1, 0, 3]), reduction="none"), "add_"),
    "nll_loss_ignore_index": (lambda L, x: _nll(L, x, L.tensor([1, 0, 3]), ignore_index=0), "add_"),
    "nll_loss_2d": (lambda L, x: _nll(L, x.reshape(1, 3, 2, 2), L.tensor([[[0, 1], [2, 0]]])), "add_"),
    "nll_loss_per_position": (lambda L, x: _nll(L, x.reshape(2, 3, 2), L.tensor([[0, 1], [2, 0]])),
                              "add_"),
    "nll_loss_weight": (lambda L, x: _weighted(L, x), "mul_"),
    "cross_entropy": (lambda L, x: _ce(L, x, L.tensor([1, 0, 3])), "add_"),
    "cross_entropy_smoothing": (lambda L, x: _ce(L, x, L.tensor([1, 0, 3]), label_smoothing=0.2),
                                "add_"),
    "cross_entropy_probabilities": (lambda L, x: _ce(L, x, L.ones(3, 4) / 4), "mul_"),
    "mse_loss": (lambda L, x: _loss(L, "mse_loss", x, L.ones(3, 4)), "mul_"),
    "binary_cross_entropy": (lambda L, x: _loss(L, "binary_cross_entropy", x.sigmoid(), L.ones(3, 4) / 2),
                             "mul_"),
    "binary_cross_entropy_with_logits": (
        lambda L, x: _loss(L, "binary_cross_entropy_with_logits", x, L.ones(3, 4) / 2), "mul_"),
    "smooth_l1_loss": (lambda L, x: _loss(L, "smooth_l1_loss", x, L.ones(3, 4)), "mul_"),
    "huber_loss": (lambda L, x: _loss(L, "huber_loss", x, L.ones(3, 4)), "mul_"),
    "kl_div": (lambda L, x: _loss(L, "kl_div", x, L.ones(3, 4) / 4), "mul_"),
}


def _nll(L, x, target, **keywords):
    return L.nn.functional.nll_loss(x, target, **keywords), target


def _weighted(L, x):
    weight = L.tensor([1.0, 2.0, 3.0, 4.0])
    return L.nn.functional.nll_loss(x, L.tensor([1, 0, 3]), weight=weight), weight


def _ce(L, x, target, **keywords):
    return L.nn.functional.cross_entropy(x, target, **keywords), target


def _loss(L, name, x, target):
    return getattr(L.nn.functional, name)(x, target), target


def _run(L, name):
    build, change = PROGRAMS[name]
    data = np.random.default_rng(0).uniform(0.1, 0.9, (3, 4)).astype(np.float32)
    x = L.tensor(data, requires_grad=True)
    loss, target = build(L, x)
    getattr(target, change)(2)
    try:
        loss.sum().backward()
    except Exception as error:      # noqa: BLE001  (the class is compared below)
        return type(error).__name__, str(error).split("\nminigrad hint")[0].replace("minigrad.", "torch.")
    return "no error", x.grad.tolist()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_changing_the_target_in_place_before_backward_as_torch(name):
    torch = import_torch()
    ours, theirs = _run(minigrad, name), _run(torch, name)
    assert ours == theirs
    assert theirs[0] == "RuntimeError"


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("ignore_index", [-100, 0, 2])
def test_nll_loss_node_shows_torchs_saved_values(reduction, ignore_index):
    torch = import_torch()
    data = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
    nodes = []
    for L in (minigrad, torch):
        x, target = L.tensor(data, requires_grad=True), L.tensor([1, 0, 3])
        node = L.nn.functional.nll_loss(x, target, reduction=reduction, ignore_index=ignore_index,
                                        weight=L.tensor([1.0, 2.0, 3.0, 4.0])).grad_fn
        assert node._saved_target is target and node._saved_self is x
        nodes.append(node)
    ours, theirs = nodes
    assert ours._saved_reduction == theirs._saved_reduction
    assert ours._saved_ignore_index == theirs._saved_ignore_index
    assert ours._saved_total_weight.item() == theirs._saved_total_weight.item()
    assert str(ours._saved_total_weight.dtype).split(".")[1] == str(theirs._saved_total_weight.dtype).split(".")[1]
    assert ours._saved_weight.tolist() == theirs._saved_weight.tolist()
