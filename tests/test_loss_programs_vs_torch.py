"""Small loss programs in the style of PyTorch's tutorials (nll_loss / cross_entropy with
weights, ignore_index, reductions, probabilities and label smoothing; mse, l1, binary
cross-entropy with weights and pos_weight), run under minigrad and under torch: the same
values, gradients, grad_fn names, dtypes, shapes, errors and warnings."""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _data(L, *shape, seed=0, requires_grad=True, low=-2.0, high=2.0):
    values = np.random.default_rng(seed).uniform(low, high, shape).astype(np.float32)
    return L.tensor(values, requires_grad=requires_grad)


def _report(L, loss, *leaves):
    out = {"value": loss.detach().numpy().tolist(), "grad_fn": loss.grad_fn.name() if loss.grad_fn else None,
           "dtype": str(loss.dtype).split(".")[-1], "shape": tuple(loss.shape)}
    loss.sum().backward() if loss.ndim else loss.backward()
    out["grads"] = [leaf.grad.numpy().tolist() for leaf in leaves]
    return out


PROGRAMS = {}


def program(fn):
    PROGRAMS[fn.__name__] = fn
    return fn


@program
def nll_with_class_weights(L):
    F = L.nn.functional
    x = _data(L, 5, 4)
    w = L.tensor([0.5, 1.0, 2.0, 0.0])
    return _report(L, F.nll_loss(F.log_softmax(x, 1), L.tensor([0, 1, 2, 3, 1]), weight=w), x)


@program
def nll_ignore_index_sum(L):
    F = L.nn.functional
    x = _data(L, 4, 3)
    return _report(L, F.nll_loss(x, L.tensor([0, -1, 2, -1]), ignore_index=-1, reduction="sum"), x)


@program
def nll_none_reduction(L):
    x = _data(L, 4, 3)
    return _report(L, L.nn.functional.nll_loss(x, L.tensor([2, 1, 0, 1]), reduction="none"), x)


@program
def nll_all_ignored_mean(L):
    x = _data(L, 2, 3)
    return _report(L, L.nn.functional.nll_loss(x, L.tensor([1, 1]), ignore_index=1), x)


@program
def nll_target_out_of_bounds(L):
    return L.nn.functional.nll_loss(_data(L, 2, 3), L.tensor([0, 3]))


@program
def nll_negative_target(L):
    return L.nn.functional.nll_loss(_data(L, 2, 3), L.tensor([0, -2]))


@program
def nll_float_target(L):
    return L.nn.functional.nll_loss(_data(L, 2, 3), L.tensor([0.0, 1.0]))


@program
def nll_batch_mismatch(L):
    return L.nn.functional.nll_loss(_data(L, 2, 3), L.tensor([0, 1, 2]))


@program
def cross_entropy_weights_ignore_index(L):
    x = _data(L, 6, 4)
    w = L.tensor([1.0, 2.0, 0.5, 1.5])
    return _report(L, L.nn.functional.cross_entropy(x, L.tensor([0, 3, -100, 2, 1, -100]), weight=w), x)


@program
def cross_entropy_images_none(L):
    x = _data(L, 2, 3, 2, 2)
    t = L.tensor([[[0, 1], [2, 1]], [[1, 1], [0, 2]]])
    return _report(L, L.nn.functional.cross_entropy(x, t, reduction="none"), x)


@program
def cross_entropy_sequence_sum(L):
    x = _data(L, 2, 4, 3)
    t = L.tensor([[0, 1, 3], [2, 2, 1]])
    return _report(L, L.nn.functional.cross_entropy(x, t, reduction="sum"), x)


@program
def cross_entropy_probabilities_weighted(L):
    F = L.nn.functional
    x = _data(L, 3, 4)
    p = F.softmax(_data(L, 3, 4, seed=1, requires_grad=False), 1)
    return _report(L, F.cross_entropy(x, p, weight=L.tensor([1.0, 0.5, 2.0, 1.0])), x)


@program
def cross_entropy_probabilities_smoothing(L):
    F = L.nn.functional
    x = _data(L, 3, 4)
    p = F.softmax(_data(L, 3, 4, seed=1, requires_grad=False), 1)
    return _report(L, F.cross_entropy(x, p, label_smoothing=0.3, reduction="sum"), x)


@program
def cross_entropy_smoothing_weights(L):
    x = _data(L, 5, 3)
    w = L.tensor([1.0, 3.0, 0.5])
    return _report(L, L.nn.functional.cross_entropy(x, L.tensor([0, 1, 2, 1, 0]), weight=w,
                                                    label_smoothing=0.1), x)


@program
def cross_entropy_module(L):
    x = _data(L, 4, 5)
    loss_fn = L.nn.CrossEntropyLoss(ignore_index=2)
    return _report(L, loss_fn(x, L.tensor([2, 4, 1, 0])), x)


@program
def cross_entropy_bad_smoothing(L):
    return L.nn.functional.cross_entropy(_data(L, 2, 3), L.tensor([0, 1]), label_smoothing=1.5)


@program
def cross_entropy_bad_reduction(L):
    return L.nn.functional.cross_entropy(_data(L, 2, 3), L.tensor([0, 1]), reduction="avg")


@program
def mse_sum_and_target_grad(L):
    x, y = _data(L, 3, 2), _data(L, 3, 2, seed=2)
    return _report(L, L.nn.functional.mse_loss(x, y, reduction="sum"), x, y)


@program
def mse_module_none(L):
    x = _data(L, 2, 3)
    return _report(L, L.nn.MSELoss(reduction="none")(x, L.zeros(2, 3)), x)


@program
def l1_mean(L):
    x, y = _data(L, 4), _data(L, 4, seed=3)
    return _report(L, L.nn.functional.l1_loss(x, y), x, y)


@program
def l1_at_ties(L):
    x = L.tensor([1.0, -0.0, 2.0], requires_grad=True)
    return _report(L, L.nn.functional.l1_loss(x, L.tensor([1.0, 0.0, 3.0]), reduction="sum"), x)


@program
def bce_weight_none(L):
    F = L.nn.functional
    x = _data(L, 3, 2)
    p = x.sigmoid()
    t = L.tensor([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    return _report(L, F.binary_cross_entropy(p, t, weight=L.tensor([1.0, 2.0]), reduction="none"), x)


@program
def bce_of_exact_zero_and_one(L):
    p = L.tensor([0.0, 1.0, 0.5], requires_grad=True)
    return _report(L, L.nn.functional.binary_cross_entropy(p, L.tensor([0.0, 1.0, 1.0])), p)


@program
def bce_out_of_range(L):
    return L.nn.functional.binary_cross_entropy(L.tensor([1.5, 0.5]), L.tensor([1.0, 0.0]))


@program
def bce_with_logits_pos_weight(L):
    x = _data(L, 4, 3)
    t = L.tensor([[1.0, 0.0, 1.0]] * 4)
    return _report(L, L.nn.functional.binary_cross_entropy_with_logits(
        x, t, pos_weight=L.tensor([3.0, 1.0, 0.5])), x)


@program
def bce_with_logits_weight_sum(L):
    x = _data(L, 2, 3)
    t = L.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
    return _report(L, L.nn.functional.binary_cross_entropy_with_logits(
        x, t, weight=L.tensor([[2.0], [0.5]]), reduction="sum"), x)


@program
def bce_with_logits_module_large_logits(L):
    x = L.tensor([100.0, -100.0, 0.0], requires_grad=True)
    loss_fn = L.nn.BCEWithLogitsLoss(pos_weight=L.tensor([2.0, 2.0, 2.0]))
    return _report(L, loss_fn(x, L.tensor([0.0, 1.0, 1.0])), x)


@program
def bce_with_logits_shape_mismatch(L):
    return L.nn.functional.binary_cross_entropy_with_logits(_data(L, 2, 3), L.ones(3, 2))


@program
def smooth_l1_beta(L):
    x, y = _data(L, 5), _data(L, 5, seed=6)
    return _report(L, L.nn.functional.smooth_l1_loss(x, y, beta=0.5), x, y)


@program
def smooth_l1_none_at_the_bend(L):
    x = L.tensor([0.0, 0.5, -0.5, 1.5, -0.0], requires_grad=True)
    return _report(L, L.nn.functional.smooth_l1_loss(x, L.zeros(5), beta=0.5, reduction="none"), x)


@program
def smooth_l1_beta_zero_is_l1(L):
    x, y = _data(L, 2, 3), _data(L, 2, 3, seed=7)
    return _report(L, L.nn.functional.smooth_l1_loss(x, y, beta=0.0, reduction="sum"), x, y)


@program
def smooth_l1_negative_beta(L):
    return L.nn.functional.smooth_l1_loss(_data(L, 3), _data(L, 3, seed=1), beta=-1.0)


@program
def huber_delta(L):
    x, y = _data(L, 5), _data(L, 5, seed=6)
    return _report(L, L.nn.functional.huber_loss(x, y, delta=0.7, reduction="sum"), x, y)


@program
def huber_none_float64(L):
    x = L.tensor([0.0, 0.7, -0.7, 3.0, -2.5], dtype=L.float64, requires_grad=True)
    return _report(L, L.nn.functional.huber_loss(x, L.zeros(5, dtype=L.float64), delta=0.7,
                                                 reduction="none"), x)


@program
def huber_zero_delta(L):
    return L.nn.functional.huber_loss(_data(L, 3), _data(L, 3, seed=1), delta=0.0)


@program
def kl_div_batchmean(L):
    F = L.nn.functional
    x = _data(L, 3, 4)
    p = F.softmax(_data(L, 3, 4, seed=4, requires_grad=False), 1)
    return _report(L, F.kl_div(F.log_softmax(x, 1), p, reduction="batchmean"), x)


@program
def kl_div_log_target_sum(L):
    F = L.nn.functional
    x = _data(L, 2, 3)
    logp = F.log_softmax(_data(L, 2, 3, seed=5, requires_grad=False), 1)
    return _report(L, F.kl_div(F.log_softmax(x, 1), logp, reduction="sum", log_target=True), x)


@program
def kl_div_mean_warns(L):
    x = L.tensor([[-1.0, -0.5], [-2.0, -0.25]], requires_grad=True)
    return _report(L, L.nn.functional.kl_div(x, L.tensor([[0.5, 0.5], [0.0, 1.0]])), x)


@program
def kl_div_target_with_zeros_requires_grad(L):
    x = L.tensor([[-1.0, -0.5, -3.0]], requires_grad=True)
    p = L.tensor([[0.0, 0.25, 0.75]], requires_grad=True)
    out = _report(L, L.nn.functional.kl_div(x, p, reduction="none"), x, p)
    out["graph"] = [edge[0].name() if edge[0] else None
                    for edge in L.nn.functional.kl_div(x, p, reduction="none").grad_fn.next_functions]
    return out


@program
def kl_div_bad_reduction(L):
    return L.nn.functional.kl_div(_data(L, 2), _data(L, 2, seed=1), reduction="avg")


# Programs whose numbers go through softmax / log_softmax / sigmoid: PyTorch's vectorised
# exp and log may round the last bit differently from numpy's, so these compare to 1e-6.
ROUNDED = {"nll_with_class_weights", "cross_entropy_weights_ignore_index", "cross_entropy_images_none",
           "cross_entropy_sequence_sum", "cross_entropy_probabilities_weighted",
           "cross_entropy_probabilities_smoothing", "cross_entropy_smoothing_weights",
           "cross_entropy_module", "bce_weight_none", "bce_with_logits_pos_weight",
           "bce_with_logits_weight_sum",
           "nll_all_ignored_mean",
           "smooth_l1_beta", "kl_div_batchmean", "kl_div_log_target_sum",
           "kl_div_target_with_zeros_requires_grad"}    # (torch sums float32 numbers in another order than numpy)     # (nan: compared as numbers, nan equal to nan)


def _run(L, name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = PROGRAMS[name](L)
            if not isinstance(out, dict):
                out = {"no error": out.detach().numpy().tolist()}
        except Exception as error:      # noqa: BLE001  (the class is compared)
            out = {"error": (type(error).__name__,
                             str(error).split("\nminigrad hint")[0].replace("minigrad", "torch"))}
    return out, [str(w.message) for w in caught]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_loss_program_as_torch(name):
    torch = import_torch()
    (ours, our_warnings), (theirs, their_warnings) = _run(minigrad, name), _run(torch, name)
    assert our_warnings == their_warnings
    if name not in ROUNDED:
        assert ours == theirs
        return
    numbers = ("value", "grads")
    assert {k: v for k, v in ours.items() if k not in numbers} == {
        k: v for k, v in theirs.items() if k not in numbers}
    np.testing.assert_allclose(np.array(ours["value"]), np.array(theirs["value"]), rtol=1e-6)
    for a, b in zip(ours["grads"], theirs["grads"], strict=True):
        np.testing.assert_allclose(np.array(a), np.array(b), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("make", [
    lambda nn: nn.Sequential(nn.Linear(2, 3), nn.ReLU6(), nn.Hardtanh(-2.0, 2.0), nn.Threshold(0.1, 20.0)),
    lambda nn: nn.ReLU6(inplace=True), lambda nn: nn.Hardtanh(-2, 3, inplace=True),
    lambda nn: nn.SmoothL1Loss(beta=0.5), lambda nn: nn.HuberLoss(delta=2.0),
    lambda nn: nn.KLDivLoss(reduction="batchmean", log_target=True)])
def test_new_modules_print_and_keep_settings_as_torch(make):
    torch = import_torch()
    ours, theirs = make(minigrad.nn), make(torch.nn)
    assert repr(ours) == repr(theirs)
    for name in ("min_val", "max_val", "threshold", "value", "inplace", "beta", "delta", "log_target",
                 "reduction"):
        assert getattr(ours, name, None) == getattr(theirs, name, None), name


@pytest.mark.parametrize("make", [lambda nn: nn.SmoothL1Loss(beta=0.5, reduction="sum"),
                                  lambda nn: nn.HuberLoss(delta=0.7, reduction="none"),
                                  lambda nn: nn.KLDivLoss(reduction="sum")])
def test_new_loss_modules_give_torchs_loss_and_gradient(make):
    torch = import_torch()
    data = np.random.default_rng(8).uniform(0.1, 1.0, (2, 3)).astype(np.float32)
    target = np.random.default_rng(9).uniform(0.1, 1.0, (2, 3)).astype(np.float32)
    results = []
    for L in (minigrad, torch):
        x = L.tensor(data, requires_grad=True)
        loss = make(L.nn)(x, L.tensor(target))
        loss.sum().backward()
        results.append((loss.grad_fn.name(), loss.detach().numpy().tolist(), x.grad.numpy().tolist()))
    np.testing.assert_allclose(np.array(results[0][1]), np.array(results[1][1]), rtol=1e-6)
    np.testing.assert_allclose(np.array(results[0][2]), np.array(results[1][2]), rtol=1e-6)
    assert results[0][0] == results[1][0]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("weights", ["none", "weight", "pos_weight", "both", "0-d float64 pos_weight"])
def test_bce_with_logits_follows_pytorch_steps(dtype, weights):
    """binary_cross_entropy_with_logits is (1 - target) * input - logsigmoid(input) (weighted) in
    PyTorch's steps: the same bits, and nan for infinite logits where inf - inf meets (an
    input of -inf: -inf - -inf), not the inf another stable formula gives (found by the
    random-program test)."""
    torch = import_torch()
    rng = np.random.default_rng(5)
    x = rng.standard_normal(2000) * 6
    x[:4] = [np.inf, -np.inf, np.inf, -np.inf]
    t = rng.uniform(0, 1, 2000)
    t[:4] = [0.5, 0.5, 1.0, 0.0]
    w, p = rng.uniform(0, 2, 2000), rng.uniform(0, 3, 2000)
    seen = []
    for L in (minigrad, torch):
        kwargs = {}
        if weights in ("weight", "both"):
            kwargs["weight"] = L.tensor(w, dtype=getattr(L, dtype))
        if weights in ("pos_weight", "both"):
            kwargs["pos_weight"] = L.tensor(p, dtype=getattr(L, dtype))
        if weights == "0-d float64 pos_weight":
            kwargs["pos_weight"] = L.tensor(1.7, dtype=L.float64)
        losses = L.nn.functional.binary_cross_entropy_with_logits(
            L.tensor(x, dtype=getattr(L, dtype)), L.tensor(t, dtype=getattr(L, dtype)), reduction="none", **kwargs)
        seen.append(losses.numpy())
    np.testing.assert_array_equal(seen[0], seen[1], strict=True)
