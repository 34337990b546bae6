"""Losses and activations of nn.functional under create_graph=True, against PyTorch.

For each program (a loss or an activation of x, and for losses of a target t that may
require grad too) both libraries compute the gradient with create_graph=True from an
incoming gradient that requires grad, then differentiate that gradient again w.r.t. the
incoming gradient, x and t. Compared: values (float64, to 1e-12), whether each result
requires grad, its grad_fn's name, settings and saved values (``_saved_*``) and
next_functions two levels down, its _version and (for the gradient) its strides.
The second derivatives are also checked against finite differences (gradgradcheck).
"""
import warnings

import numpy as np
import pytest

import minigrad

from conftest import import_torch

SHAPE = (3, 4)
# minigrad's own Node internals that start with "_saved" (not saved values)
INTERNALS = {"_saved", "_saved_names", "_saved_value", "_saved_versions", "_raw_saved_value"}


def settings(node):
    """The node's ``_saved_*`` values: numbers and strings as they are, tensors as their shape."""
    shown = {}
    for name in dir(node):
        if name.startswith("_saved_") and name not in INTERNALS:
            value = getattr(node, name)
            shown[name] = ("tensor", tuple(value.shape)) if hasattr(value, "shape") else value
    return shown


def structure(node, depth=2):
    """(name, settings, children) down ``depth`` levels of next_functions, then names only."""
    if node is None:
        return None
    if depth == 0:
        return node.name()
    return (node.name(), settings(node),
            tuple(structure(child, depth - 1) for child, _ in node.next_functions))


def values(tensor):
    if tensor is None:
        return None
    if getattr(tensor, "_is_zerotensor", lambda: False)():
        # PyTorch's "efficient zeros" (sgn's gradient), which refuse .numpy(): zeros
        return np.zeros(tuple(tensor.shape))
    return tensor.detach().numpy()


def F(L):
    return L.nn.functional


def weights(L):
    return L.tensor([1.0, 2.0, 0.5, 3.0], dtype=L.float64)


def labels(L):
    return L.tensor([0, 3, 1])


def scaled(L, x, factor):
    """x times a tensor (not a Python number, which PyTorch keeps as a tensor in _saved_other)."""
    return x * L.tensor(factor, dtype=L.float64)


# name -> (program(L, x, t), does the target require grad?)
PROGRAMS = {
    # activations
    "relu": (lambda L, x, t: F(L).relu(x), False),
    "elu": (lambda L, x, t: F(L).elu(x), False),
    "elu_alpha": (lambda L, x, t: F(L).elu(x, alpha=0.7), False),
    "silu": (lambda L, x, t: F(L).silu(x), False),
    "log_softmax": (lambda L, x, t: F(L).log_softmax(x, 1), False),
    "log_softmax_dim0": (lambda L, x, t: F(L).log_softmax(x, 0), False),
    "hardtanh": (lambda L, x, t: F(L).hardtanh(x), False),
    "relu6": (lambda L, x, t: F(L).relu6(scaled(L, x, 5.0)), False),
    "threshold": (lambda L, x, t: F(L).threshold(x, 0.1, 2.0), False),
    "gelu": (lambda L, x, t: F(L).gelu(x), False),
    "gelu_tanh": (lambda L, x, t: F(L).gelu(x, approximate="tanh"), False),
    "softplus": (lambda L, x, t: F(L).softplus(x), False),
    "softplus_beta_threshold": (lambda L, x, t: F(L).softplus(x, beta=2.0, threshold=1.0), False),
    "leaky_relu": (lambda L, x, t: F(L).leaky_relu(x), False),
    "leaky_relu_inplace": (lambda L, x, t: F(L).leaky_relu(x.clone(), 0.2, inplace=True), False),
    "elu_inplace": (lambda L, x, t: F(L).elu(x.clone(), inplace=True), False),
    "relu_inplace": (lambda L, x, t: F(L).relu(x.clone(), inplace=True), False),
    "silu_inplace": (lambda L, x, t: F(L).silu(x.clone(), inplace=True), False),
    "nn.GELU-like gelu of softplus": (lambda L, x, t: F(L).gelu(F(L).softplus(x)), False),
    "tanh_of_sigmoid": (lambda L, x, t: F(L).tanh(F(L).sigmoid(x)), False),
    "sigmoid": (lambda L, x, t: F(L).sigmoid(x), False),
    "tanh": (lambda L, x, t: F(L).tanh(x), False),
    "logsigmoid": (lambda L, x, t: F(L).logsigmoid(x), False),
    "nn.LogSigmoid": (lambda L, x, t: L.nn.LogSigmoid()(x), False),
    "softmax": (lambda L, x, t: F(L).softmax(x, 1), False),
    "softmax_dim0": (lambda L, x, t: F(L).softmax(x, 0), False),
    # losses
    "mse_loss": (lambda L, x, t: F(L).mse_loss(x, t), True),
    "mse_loss_sum": (lambda L, x, t: F(L).mse_loss(x, t, reduction="sum"), True),
    "mse_loss_none": (lambda L, x, t: F(L).mse_loss(x, t, reduction="none"), True),
    "nn.MSELoss": (lambda L, x, t: L.nn.MSELoss()(x, t), True),
    "nn.SmoothL1Loss": (lambda L, x, t: L.nn.SmoothL1Loss(beta=0.3)(x, t), True),
    "nn.HuberLoss": (lambda L, x, t: L.nn.HuberLoss(delta=0.4)(x, t), True),
    "nn.BCEWithLogitsLoss": (lambda L, x, t: L.nn.BCEWithLogitsLoss()(x, t), True),
    "nn.KLDivLoss": (lambda L, x, t: L.nn.KLDivLoss(reduction="batchmean")(x, t), True),
    "mse_loss_of_tanh": (lambda L, x, t: F(L).mse_loss(x.tanh(), t), True),
    "mse_loss_fixed_target": (lambda L, x, t: F(L).mse_loss(x, t), False),
    "l1_loss": (lambda L, x, t: F(L).l1_loss(x, t), True),
    "l1_loss_none": (lambda L, x, t: F(L).l1_loss(x, t, reduction="none"), True),
    "smooth_l1_loss_beta_0": (lambda L, x, t: F(L).smooth_l1_loss(x, t, beta=0.0), True),
    "smooth_l1_loss": (lambda L, x, t: F(L).smooth_l1_loss(x, t), True),
    "smooth_l1_loss_beta_sum": (lambda L, x, t: F(L).smooth_l1_loss(x, t, beta=0.5, reduction="sum"), True),
    "smooth_l1_loss_none": (lambda L, x, t: F(L).smooth_l1_loss(x, t, reduction="none"), True),
    "huber_loss": (lambda L, x, t: F(L).huber_loss(x, t), True),
    "huber_loss_delta_sum": (lambda L, x, t: F(L).huber_loss(x, t, delta=0.5, reduction="sum"), True),
    "huber_loss_none": (lambda L, x, t: F(L).huber_loss(x, t, reduction="none"), True),
    "binary_cross_entropy": (lambda L, x, t: F(L).binary_cross_entropy(x.sigmoid(), t), True),
    "binary_cross_entropy_sum": (
        lambda L, x, t: F(L).binary_cross_entropy(x.sigmoid(), t, reduction="sum"), True),
    "binary_cross_entropy_none": (
        lambda L, x, t: F(L).binary_cross_entropy(x.sigmoid(), t, reduction="none"), True),
    "binary_cross_entropy_weight": (
        lambda L, x, t: F(L).binary_cross_entropy(x.sigmoid(), t, weight=weights(L)), True),
    "binary_cross_entropy_with_logits_pos_weight": (
        lambda L, x, t: F(L).binary_cross_entropy_with_logits(x, t, pos_weight=weights(L)), True),
    "binary_cross_entropy_with_logits": (
        lambda L, x, t: F(L).binary_cross_entropy_with_logits(x, t), True),
    "binary_cross_entropy_with_logits_sum": (
        lambda L, x, t: F(L).binary_cross_entropy_with_logits(x, t, reduction="sum"), True),
    "binary_cross_entropy_with_logits_none": (
        lambda L, x, t: F(L).binary_cross_entropy_with_logits(x, t, reduction="none"), True),
    "binary_cross_entropy_with_logits_weight": (
        lambda L, x, t: F(L).binary_cross_entropy_with_logits(x, t, weight=weights(L)), True),
    "kl_div_log_target": (
        lambda L, x, t: F(L).kl_div(x, t.log(), reduction="batchmean", log_target=True), True),
    "kl_div_batchmean": (lambda L, x, t: F(L).kl_div(F(L).log_softmax(x, 1), t, reduction="batchmean"), True),
    "kl_div_sum": (lambda L, x, t: F(L).kl_div(x, t, reduction="sum"), True),
    "kl_div_none": (lambda L, x, t: F(L).kl_div(x, t, reduction="none"), True),
    "kl_div_mean": (lambda L, x, t: F(L).kl_div(x, t, reduction="mean"), True),
    "kl_div_fixed_target": (lambda L, x, t: F(L).kl_div(x, t, reduction="sum"), False),
    "nll_loss": (lambda L, x, t: F(L).nll_loss(x, labels(L)), False),
    "cross_entropy": (lambda L, x, t: F(L).cross_entropy(x, labels(L)), False),
    "cross_entropy_label_smoothing": (
        lambda L, x, t: F(L).cross_entropy(x, labels(L), label_smoothing=0.1), False),
    "cross_entropy_probabilities": (lambda L, x, t: F(L).cross_entropy(x, t), True),
    "cross_entropy_probabilities_label_smoothing": (
        lambda L, x, t: F(L).cross_entropy(x, t, label_smoothing=0.1), True),
}

# Programs that still differ from PyTorch, with the reason (strict: fixing one shows up here).
KNOWN_DIFFERENCES = {}


def _run(L, program, target_requires_grad, shape=SHAPE, nan_at=None, seed=0):
    """Everything compared, by name: the output, the gradients and the third-order gradients.
    ``nan_at``: an index where x holds NaN."""
    rng = np.random.default_rng(seed)
    x_data = rng.uniform(-1.5, 1.5, shape)
    if nan_at is not None:
        x_data[nan_at] = np.nan
    x = L.tensor(x_data, dtype=L.float64, requires_grad=True)
    t = L.tensor(rng.uniform(0.05, 0.95, shape), dtype=L.float64, requires_grad=target_requires_grad)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # kl_div's 'mean' warning, in both libraries
        out = program(L, x, t)
    grad_output = L.tensor(rng.uniform(0.5, 1.5, tuple(out.shape)), dtype=L.float64,
                           requires_grad=True)
    inputs = [x, t] if target_requires_grad else [x]
    gradients = L.autograd.grad(out, inputs, grad_output, create_graph=True)
    report = {"out": values(out), "out.grad_fn": structure(out.grad_fn)}
    for i, g in enumerate(gradients):
        report[f"grad{i}"] = values(g)
        report[f"grad{i}: requires_grad, _version, stride"] = (g.requires_grad, g._version, g.stride())
        report[f"grad{i}.grad_fn"] = structure(g.grad_fn)
        if not g.requires_grad:
            continue
        gg = L.tensor(rng.uniform(-1, 1, tuple(g.shape)), dtype=L.float64)
        third = L.autograd.grad(g, [grad_output] + inputs, gg, create_graph=True, allow_unused=True)
        for j, h in enumerate(third):
            report[f"third{i}{j}"] = values(h)
            if h is not None:
                report[f"third{i}{j}: requires_grad, _version"] = (h.requires_grad, h._version)
                report[f"third{i}{j}.grad_fn"] = structure(h.grad_fn)
    return report


def _compare(name, shape=SHAPE, nan_at=None):
    torch = import_torch()
    program, target_requires_grad = PROGRAMS[name]
    ours = _run(minigrad, program, target_requires_grad, shape, nan_at)
    theirs = _run(torch, program, target_requires_grad, shape, nan_at)
    assert list(ours) == list(theirs)
    for key, expected in theirs.items():
        got = ours[key]
        if isinstance(expected, np.ndarray):
            assert got is not None and got.shape == expected.shape, key
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15, err_msg=key)
            assert np.array_equal(np.isnan(got), np.isnan(expected)), key
        else:
            assert got == expected, key


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[name]))
    if name in KNOWN_DIFFERENCES else name for name in sorted(PROGRAMS)])
def test_second_and_third_order_as_torch(name):
    _compare(name)


# programs that take any shape (no class dim, no per-class weight or labels)
ANY_SHAPE = sorted(name for name in PROGRAMS if name not in KNOWN_DIFFERENCES and not any(
    word in name for word in ("softmax", "weight", "nll", "batchmean", "KLDiv"))
    and not name.startswith("cross_entropy"))


@pytest.mark.parametrize("shape", [(5,), (), (2, 3, 2)])
@pytest.mark.parametrize("name", ANY_SHAPE)
def test_other_shapes_as_torch(name, shape):
    _compare(name, shape)


@pytest.mark.parametrize("name", ANY_SHAPE)
def test_nan_input_as_torch(name):
    """A NaN in x: where it spreads (and where it does not) in every order of derivative.
    (binary_cross_entropy refuses a NaN probability, in both libraries.)"""
    if name.startswith("binary_cross_entropy") and "logits" not in name:
        program, target_requires_grad = PROGRAMS[name]
        errors = []
        for L in (minigrad, import_torch()):
            with pytest.raises(RuntimeError) as error:
                _run(L, program, target_requires_grad, nan_at=(1, 2))
            errors.append(str(error.value).split("\nminigrad hint")[0])
        assert errors[0] == errors[1]
        return
    _compare(name, nan_at=(1, 2))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_second_derivatives_against_finite_differences(name):
    """gradgradcheck in float64, away from kinks (inputs at least 0.05 from the bends)."""
    program, target_requires_grad = PROGRAMS[name]
    rng = np.random.default_rng(5)
    x_data = rng.uniform(-1.5, 1.5, SHAPE)
    x_data[np.abs(x_data) < 0.15] += 0.3           # away from relu's, hardtanh's, threshold's kinks
    x = minigrad.tensor(x_data, dtype=minigrad.float64, requires_grad=True)
    t = minigrad.tensor(rng.uniform(0.05, 0.95, SHAPE), dtype=minigrad.float64,
                        requires_grad=target_requires_grad)
    inputs = (x, t) if target_requires_grad else (x,)

    def function(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return program(minigrad, args[0], args[1] if target_requires_grad else t)
    assert minigrad.autograd.gradgradcheck(function, inputs)


@pytest.mark.parametrize("inplace", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [5, 12, 17])
def test_elu_gradient_at_nan_as_torch(torch, size, dtype, inplace):
    """NaN where PyTorch's loop works in blocks of vector registers, the gradient itself in
    the rest of the row (elu asks "x <= 0?" there, which NaN is not)."""
    for position in range(size):
        gradients = []
        for L in (minigrad, torch):
            x = L.zeros(size, dtype=getattr(L, dtype))
            x[position] = float("nan")
            x.requires_grad_()
            y = L.nn.functional.elu(x.clone(), inplace=True) if inplace else L.nn.functional.elu(x)
            gradients.append(L.autograd.grad(y, x, L.ones(size, dtype=getattr(L, dtype)))[0].numpy())
        np.testing.assert_array_equal(gradients[0], gradients[1], err_msg=f"NaN at {position}")


# float32: the gradients whose kernels are plain arithmetic come out bit for bit as PyTorch's
# (those through exp, log or tanh may differ in the last bit: numpy's functions are not
# PyTorch's vectorised ones)
BIT_FOR_BIT = sorted(name for name in ANY_SHAPE if not any(
    word in name.lower() for word in ("sigmoid", "silu", "softplus", "tanh", "gelu", "kl_div",
                                      "binary_cross_entropy", "bcewithlogits"))
    and not name.startswith("elu"))


@pytest.mark.parametrize("name", BIT_FOR_BIT)
def test_float32_gradients_bit_for_bit(torch, name):
    program, target_requires_grad = PROGRAMS[name]
    gradients = []
    for L in (minigrad, torch):
        rng = np.random.default_rng(1)
        x = L.tensor(rng.uniform(-3, 3, (4, 37)).astype(np.float32), requires_grad=True)
        t = L.tensor(rng.uniform(0.05, 0.95, (4, 37)).astype(np.float32),
                     requires_grad=target_requires_grad)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = program(L, x, t)
        grad_output = L.tensor(rng.uniform(0.5, 1.5, tuple(out.shape)).astype(np.float32))
        inputs = [x, t] if target_requires_grad else [x]
        gradients.append([g.numpy() for g in L.autograd.grad(out, inputs, grad_output)])
    for ours, theirs in zip(*gradients):
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("case", ["integers", "list"])
def test_logsigmoid_refusals_as_torch(torch, case):
    messages = []
    for L in (minigrad, torch):
        argument = L.tensor([1, 2]) if case == "integers" else [1.0]
        with pytest.raises((NotImplementedError, TypeError)) as error:
            L.nn.functional.logsigmoid(argument)
        messages.append((error.type, str(error.value).split("\nminigrad hint")[0]))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("operation", ["mul", "div", "xlogy"])
def test_binary_gradients_made_in_pytorchs_order(torch, operation):
    """PyTorch's MulBackward0, DivBackward0 and XlogyBackward0 compute the second input's
    gradient first: its nodes are made first (lower sequence numbers), and so run later in a
    third-order backward, which shows in the order sums add their terms (kl_div's)."""
    def sequence_number(node):
        return node._sequence_nr()
    orders = []
    for L in (minigrad, torch):
        a = L.tensor([0.3, 0.6], dtype=L.float64, requires_grad=True)
        b = L.tensor([0.7, 0.2], dtype=L.float64, requires_grad=True)
        out = {"mul": lambda: a * b, "div": lambda: a / b,
               "xlogy": lambda: L.nn.functional.kl_div(b, a, reduction="sum")}[operation]()
        grad_a, grad_b = L.autograd.grad(out.sum(), [a, b], create_graph=True)
        orders.append(sequence_number(grad_a.grad_fn) > sequence_number(grad_b.grad_fn))
    assert orders[0] == orders[1]


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", ["smooth_l1_loss", "huber_loss", "mse_loss"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_regression_loss_gradients_bit_for_bit(torch, dtype, name, reduction, transposed):
    """PyTorch's kernel multiplies in one order in its blocks of vector registers and in
    another one element at a time (at the end of a row, or everywhere when the inputs are
    not laid out like the new row-major gradient): the last bit follows it."""
    rng = np.random.default_rng(7)
    for rows in (5, 16, 17, 40):
        a = rng.uniform(-3, 3, (rows, 3)).astype(dtype)
        b = rng.uniform(-1, 1, (rows, 3)).astype(dtype)
        cutoff = float(rng.uniform(0.1, 2))
        g = rng.uniform(0.5, 1.5, (3, rows) if transposed else (rows, 3)).astype(dtype)
        gradients = []
        for L in (minigrad, torch):
            x, t = L.tensor(a, requires_grad=True), L.tensor(b, requires_grad=True)
            x_in, t_in = (x.t(), t.t()) if transposed else (x, t)
            setting = {"smooth_l1_loss": {"beta": cutoff}, "huber_loss": {"delta": cutoff}}.get(name, {})
            loss = getattr(L.nn.functional, name)(x_in, t_in, reduction=reduction, **setting)
            grad_output = L.tensor(g) if reduction == "none" else L.tensor(g[0, 0])
            gradients.append([v.numpy() for v in L.autograd.grad(loss, [x, t], grad_output)])
        for ours, theirs in zip(*gradients):
            np.testing.assert_array_equal(ours, theirs, err_msg=f"{rows} rows")


@pytest.mark.parametrize("requires_grad", [(True, False), (True, True), (False, True)], ids=str)
@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32"), ("float16", "float32")], ids=str)
@pytest.mark.parametrize("name", ["smooth_l1_loss", "huber_loss"])
def test_robust_losses_of_two_dtypes_as_torch(torch, name, dtypes, requires_grad):
    """An input and a target of two dtypes: smooth_l1_loss's gradient is computed in the common
    dtype and written in each input's own (the node itself gives a float32 gradient, no
    ToCopyBackward0 under create_graph); huber_loss's backward refuses mixed dtypes (found by
    the random-program test)."""
    def graph(node):
        return None if node is None else (node.name(), tuple(graph(n) for n, _ in node.next_functions))

    def outcome(L):
        x = L.tensor([0.5, -1.0, 2.0], dtype=getattr(L, dtypes[0]), requires_grad=requires_grad[0])
        t = L.tensor([0.25, 1.0, 2.5], dtype=getattr(L, dtypes[1]), requires_grad=requires_grad[1])
        loss = getattr(L.nn.functional, name)(x, t, reduction="none")
        wanted = [v for v in (x, t) if v.requires_grad]
        try:
            grads = L.autograd.grad(loss, wanted, L.ones_like(loss), create_graph=True)
        except RuntimeError as error:
            return str(error)
        return [(str(g.dtype), graph(g.grad_fn), g.tolist()) for g in grads]
    assert outcome(minigrad) == outcome(torch)
