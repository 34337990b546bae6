"""cross_entropy(label_smoothing=...) and nn.CrossEntropyLoss(label_smoothing=...) against PyTorch.

Values, gradients, the recorded graph (grad_fn names and next_functions, walked
in order) and the error texts must be PyTorch's; gradcheck and gradgradcheck
confirm the derivatives in float64.
"""
import numpy as np
import pytest

import minigrad
import minigrad.nn.functional as F


def graph_names(grad_fn):
    """Every node reachable from grad_fn, depth first in next_functions order."""
    names, stack = [], [grad_fn]
    while stack:
        node = stack.pop()
        if node is None:
            names.append(None)
            continue
        names.append(type(node).__name__)
        stack.extend(reversed([n for n, _ in node.next_functions]))
    return names


def _inputs(torch, shape, target_kind, seed=0):
    rng = np.random.default_rng(seed)
    logits = rng.standard_normal(shape)
    class_dim = 0 if len(shape) == 1 else 1
    n_classes = shape[class_dim]
    if target_kind == "probs":
        target = rng.random(shape)
        target = target / target.sum(axis=class_dim, keepdims=True)
    else:
        target_shape = shape[:class_dim] + shape[class_dim + 1:]
        target = rng.integers(0, n_classes, size=target_shape)
        if target_kind == "ignored" and target.size:
            target.reshape(-1)[0] = -100 if target.size < 3 else 1
    return logits, target


CASES = [
    # (input shape, target kind, keywords)
    ((4, 3), "index", {}),
    ((4, 3), "index", {"reduction": "sum"}),
    ((4, 3), "index", {"reduction": "none"}),
    ((4, 3), "index", {"weight": [1.0, 2.0, 0.5]}),
    ((4, 3), "index", {"weight": [1.0, 2.0, 0.5], "reduction": "none"}),
    ((4, 3), "index", {"weight": [1.0, 2.0, 0.5], "reduction": "sum"}),
    ((4, 3), "index", {"ignore_index": 1}),
    ((4, 3), "index", {"ignore_index": 1, "weight": [1.0, 2.0, 0.5]}),
    ((4, 3), "index", {"ignore_index": 1, "reduction": "none"}),
    ((3,), "index", {}),
    ((3,), "index", {"reduction": "none"}),
    ((2, 3, 4), "index", {}),
    ((2, 3, 4, 2), "index", {"weight": [1.0, 2.0, 0.5], "reduction": "none"}),
    ((2, 3, 4, 2), "index", {"ignore_index": 0, "reduction": "mean"}),
    ((2, 3, 4), "index", {"weight": [1.0, 2.0, 0.5], "ignore_index": 2}),
    ((3,), "ignored", {"ignore_index": -100}),
    ((4, 3), "probs", {}),
    ((4, 3), "probs", {"reduction": "sum"}),
    ((4, 3), "probs", {"reduction": "none"}),
    ((4, 3), "probs", {"weight": [1.0, 2.0, 0.5]}),
    ((3,), "probs", {}),
    ((2, 3, 4), "probs", {"weight": [1.0, 2.0, 0.5], "reduction": "none"}),
]


def _both(torch, shape, kind, keywords, dtype):
    logits, target = _inputs(torch, shape, kind)
    made = []
    for lib in (minigrad, torch):
        x = lib.tensor(logits, dtype=getattr(lib, dtype), requires_grad=True)
        t = lib.tensor(target, dtype=getattr(lib, dtype) if kind == "probs" else lib.int64)
        kw = dict(keywords)
        if "weight" in kw:
            kw["weight"] = lib.tensor(kw["weight"], dtype=getattr(lib, dtype))
        made.append((x, t, kw))
    return made


@pytest.mark.parametrize("smoothing", [0.1, 0.5, 1.0])
@pytest.mark.parametrize("shape, kind, keywords", CASES)
def test_values_gradients_and_graph_match_pytorch(torch, shape, kind, keywords, smoothing):
    (x, t, kw), (tx, tt, tkw) = _both(torch, shape, kind, keywords, "float32")
    ours = F.cross_entropy(x, t, label_smoothing=smoothing, **kw)
    theirs = torch.nn.functional.cross_entropy(tx, tt, label_smoothing=smoothing, **tkw)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-5, atol=1e-6)
    assert ours.dtype.__repr__().replace("minigrad", "torch") == repr(theirs.dtype)
    assert graph_names(ours.grad_fn) == graph_names(theirs.grad_fn)
    ours.sum().backward()
    theirs.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape, kind, keywords", CASES)
def test_module_matches_function(torch, shape, kind, keywords):
    (x, t, kw), (tx, tt, tkw) = _both(torch, shape, kind, keywords, "float64")
    ours = minigrad.nn.CrossEntropyLoss(label_smoothing=0.2, **kw)(x, t)
    theirs = torch.nn.CrossEntropyLoss(label_smoothing=0.2, **tkw)(tx, tt)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-10)
    assert graph_names(ours.grad_fn) == graph_names(theirs.grad_fn)


# (a single sample whose label is ignored has a nan loss: nothing to check numerically)
@pytest.mark.parametrize("shape, kind, keywords", [
    case for case in CASES if not (case[1] == "ignored" and len(case[0]) == 1)])
def test_gradcheck_and_gradgradcheck(torch, shape, kind, keywords):
    (x, t, kw), _ = _both(torch, shape, kind, keywords, "float64")

    def loss(logits):
        return F.cross_entropy(logits, t, label_smoothing=0.3, **kw)

    assert minigrad.autograd.gradcheck(loss, (x,))
    assert minigrad.autograd.gradgradcheck(loss, (x,))


def test_smoothed_probability_target_is_not_changed(torch):
    target = minigrad.tensor([[0.2, 0.8]], dtype=minigrad.float64)
    F.cross_entropy(minigrad.zeros(1, 2, dtype=minigrad.float64, requires_grad=True), target,
                    label_smoothing=0.5)
    assert target.tolist() == [[0.2, 0.8]]


@pytest.mark.parametrize("smoothing", [1.5, 2.0, 1.0000001])
@pytest.mark.parametrize("kind", ["index", "probs"])
def test_smoothing_above_one_is_refused_as_pytorch_does(torch, smoothing, kind):
    (x, t, _), (tx, tt, _) = _both(torch, (4, 3), kind, {}, "float32")
    with pytest.raises(RuntimeError) as theirs:
        torch.nn.functional.cross_entropy(tx, tt, label_smoothing=smoothing)
    with pytest.raises(RuntimeError) as ours:
        F.cross_entropy(x, t, label_smoothing=smoothing)
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(RuntimeError) as ours_module:
        minigrad.nn.CrossEntropyLoss(label_smoothing=smoothing)(x, t)
    assert str(ours_module.value) == str(theirs.value)


@pytest.mark.parametrize("kind", ["index", "probs"])
def test_negative_smoothing_is_no_smoothing_as_in_pytorch(torch, kind):
    (x, t, _), (tx, tt, _) = _both(torch, (4, 3), kind, {}, "float32")
    ours = F.cross_entropy(x, t, label_smoothing=-0.5)
    theirs = torch.nn.functional.cross_entropy(tx, tt, label_smoothing=-0.5)
    np.testing.assert_allclose(ours.item(), theirs.item(), rtol=1e-6)
    assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__


def test_all_labels_ignored_gives_nan_like_pytorch(torch):
    (x, _, _), (tx, _, _) = _both(torch, (2, 3), "index", {}, "float32")
    ours = F.cross_entropy(x, minigrad.tensor([-100, -100]), label_smoothing=0.1)
    theirs = torch.nn.functional.cross_entropy(tx, torch.tensor([-100, -100]), label_smoothing=0.1)
    assert np.isnan(ours.item()) and np.isnan(theirs.item())


def test_float_target_of_the_wrong_shape_is_still_refused(torch):
    (x, _, _), (tx, _, _) = _both(torch, (4, 3), "index", {}, "float32")
    with pytest.raises(RuntimeError) as theirs:
        torch.nn.functional.cross_entropy(tx, torch.zeros(4), label_smoothing=0.1)
    with pytest.raises(RuntimeError) as ours:
        F.cross_entropy(x, minigrad.zeros(4), label_smoothing=0.1)
    assert str(ours.value).startswith(str(theirs.value))


def test_the_two_branches_share_one_log_softmax(torch):
    (x, t, _), _ = _both(torch, (4, 3), "index", {}, "float32")
    loss = F.cross_entropy(x, t, label_smoothing=0.1)
    nll_branch, smooth_branch = (edge[0] for edge in loss.grad_fn.next_functions)
    log_softmax_of_nll = nll_branch.next_functions[0][0].next_functions[0][0]
    node = smooth_branch
    while type(node).__name__ != "LogSoftmaxBackward0":
        node = node.next_functions[0][0]
    assert node is log_softmax_of_nll
