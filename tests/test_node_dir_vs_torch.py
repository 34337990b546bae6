"""dir(grad_fn) lists the saved values as PyTorch's node does (``_saved_self``,
``_raw_saved_self``, ``_saved_dim``, ...), and each listed name gives PyTorch's value."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch

# minigrad's own Node internals that happen to start with "_saved" (not saved values)
INTERNALS = {"_saved", "_saved_names", "_saved_value", "_saved_versions", "_raw_saved_value"}

PROGRAMS = {
    "mul": lambda L, x: x * x, "add": lambda L, x: x + x, "add_alpha": lambda L, x: L.add(x, x, alpha=2),
    "sub": lambda L, x: x - x, "div": lambda L, x: x / x, "exp": lambda L, x: x.exp(),
    "log": lambda L, x: x.log(), "sin": lambda L, x: x.sin(), "tanh": lambda L, x: x.tanh(),
    "sigmoid": lambda L, x: x.sigmoid(), "relu": lambda L, x: x.relu(), "pow": lambda L, x: x ** 2,
    "sqrt": lambda L, x: x.sqrt(), "sum": lambda L, x: x.sum(), "sum_dim": lambda L, x: x.sum(1),
    "mean": lambda L, x: x.mean(), "mean_dim": lambda L, x: x.mean(0), "view": lambda L, x: x.view(12),
    "t": lambda L, x: x.t(), "transpose": lambda L, x: x.transpose(0, 1), "permute": lambda L, x: x.permute(1, 0),
    "unsqueeze": lambda L, x: x.unsqueeze(0), "max": lambda L, x: x.max(), "clamp": lambda L, x: x.clamp(0, 1),
    "softmax": lambda L, x: L.nn.functional.softmax(x, 1), "abs": lambda L, x: x.abs(), "neg": lambda L, x: -x,
    "cat": lambda L, x: L.cat([x, x]),
    "nll_loss": lambda L, x: L.nn.functional.nll_loss(x, L.tensor([1, 0, 3])),
    "nll_loss_weight_sum": lambda L, x: L.nn.functional.nll_loss(
        x, L.tensor([1, 0, 3]), weight=L.tensor([1.0, 2.0, 3.0, 4.0]), reduction="sum", ignore_index=0),
    "nll_loss_none": lambda L, x: L.nn.functional.nll_loss(x, L.tensor([1, 0, 3]), reduction="none"),
    "nll_loss_byte_target": lambda L, x: L.nn.functional.nll_loss(x, L.tensor([1, 0, 3], dtype=L.uint8)),
    "nll_loss_2d": lambda L, x: L.nn.functional.nll_loss(x.reshape(1, 3, 2, 2), L.tensor([[[0, 1], [2, 0]]])),
    "nll_loss_per_position": lambda L, x: L.nn.functional.nll_loss(x.reshape(2, 3, 2), L.tensor([[0, 1], [2, 0]])),
    "nll_loss_1d": lambda L, x: L.nn.functional.nll_loss(x[0], L.tensor([2])),
    "mse_loss": lambda L, x: L.nn.functional.mse_loss(x, L.ones(3, 4)),
    "binary_cross_entropy": lambda L, x: L.nn.functional.binary_cross_entropy(x / 3, L.ones(3, 4) / 2),
    "binary_cross_entropy_with_logits": lambda L, x: L.nn.functional.binary_cross_entropy_with_logits(
        x, L.ones(3, 4) / 2, pos_weight=L.ones(4)),
    "smooth_l1_loss": lambda L, x: L.nn.functional.smooth_l1_loss(x, L.ones(3, 4), beta=0.5, reduction="sum"),
    "huber_loss": lambda L, x: L.nn.functional.huber_loss(x, L.ones(3, 4), delta=0.7),
    "relu6": lambda L, x: L.nn.functional.relu6(x), "hardtanh": lambda L, x: L.nn.functional.hardtanh(x, -0.5, 1.5),
    "threshold": lambda L, x: L.nn.functional.threshold(x, 1.0, -2.0),
    "kl_div_batchmean": lambda L, x: L.nn.functional.kl_div(x, L.ones(3, 4) / 4, reduction="batchmean"),
    "xlogy_of_kl_div": lambda L, x: L.nn.functional.kl_div(
        x, x / 3, reduction="none").grad_fn.next_functions[0][0],
}


def _node(made):
    """A program gives a tensor (its grad_fn is looked at) or a node itself."""
    return made.grad_fn if hasattr(made, "grad_fn") else made


def saved_names(node):
    return sorted(n for n in dir(node) if (n.startswith("_saved_") or n.startswith("_raw_saved_"))
                  and n not in INTERNALS)


def plain(value):
    if hasattr(value, "detach"):
        return ("tensor", value.detach().numpy().tolist())
    return value


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_dir_of_grad_fn_lists_torchs_saved_names(name):
    torch = import_torch()
    data = np.random.default_rng(0).uniform(0.5, 2, (3, 4)).astype(np.float32)
    ours = _node(PROGRAMS[name](minigrad, minigrad.tensor(data, requires_grad=True)))
    theirs = _node(PROGRAMS[name](torch, torch.tensor(data, requires_grad=True)))
    assert saved_names(ours) == saved_names(theirs)
    for attribute in saved_names(theirs):
        if attribute.startswith("_saved_"):
            a, b = plain(getattr(ours, attribute)), plain(getattr(theirs, attribute))
            if isinstance(b, tuple) and b and b[0] == "tensor":
                np.testing.assert_allclose(a[1], b[1], rtol=1e-6, err_msg=attribute)
            else:
                assert a == b, attribute
