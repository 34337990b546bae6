"""Second-order nodes, node by node against PyTorch.

With ``create_graph=True`` the gradient of nll_loss (and so of cross_entropy), hardtanh,
relu6 and threshold is itself one recorded operation in PyTorch:
NllLossBackwardBackward0 / NllLoss2DBackwardBackward0, HardtanhBackwardBackward0,
ThresholdBackwardBackward0. Each has an edge to the incoming gradient AND to the forward
input, so the gradient requires grad as soon as the input does. These tests build the same
programs in minigrad and PyTorch and compare the gradient's graph (names, next_functions,
saved settings), its values, whether it requires grad, the third-order gradients, and
check the second derivatives with gradgradcheck in float64.
"""
import numpy as np
import pytest

import minigrad

from conftest import import_torch

# minigrad's own Node internals that happen to start with "_saved" (not saved values)
INTERNALS = {"_saved", "_saved_names", "_saved_value", "_saved_versions", "_raw_saved_value"}


def structure(node, drop=()):
    """A node as nested (name, settings, children): what next_functions shows, recursively.

    ``drop``: names of nodes to look through (their single child stands in their place)."""
    if node is None:
        return None
    children = [structure(child, drop) for child, _ in node.next_functions]
    if node.name() in drop and len(children) == 1:
        return children[0]
    return (node.name(), settings(node), tuple(children))


# nodes whose settings minigrad names differently from PyTorch (only their names are
# compared): none left, SqueezeBackward1 now shows PyTorch's _saved_dim / _saved_self_sym_sizes
SETTINGS_NAMED_DIFFERENTLY = set()


def settings(node):
    """The numbers a node shows (``_saved_reduction``, ``_saved_min_val``...), not tensors."""
    shown = {}
    if node.name() in SETTINGS_NAMED_DIFFERENTLY:
        return shown
    for name in dir(node):
        if name.startswith("_saved_") and name not in INTERNALS:
            value = getattr(node, name)
            if value is None or isinstance(value, (int, float, tuple)):
                shown[name] = value
    return shown


def saved_names(node):
    return sorted(n for n in dir(node) if (n.startswith("_saved_") or n.startswith("_raw_saved_"))
                  and n not in INTERNALS)


def as_numpy(tensor):
    return None if tensor is None else tensor.detach().numpy()


def assert_same_values(ours, theirs):
    if theirs is None:
        assert ours is None
        return
    np.testing.assert_allclose(as_numpy(ours), as_numpy(theirs), rtol=1e-12, atol=0)
    assert np.array_equal(np.signbit(as_numpy(ours)), np.signbit(as_numpy(theirs)))


# ---- the programs: (L, x) -> a loss or activation of x --------------------------------------

def _target(L, shape, n_classes, seed):
    """Class indices for an input of ``shape`` (classes in dim 1, or dim 0 for 1-D)."""
    rng = np.random.default_rng(seed)
    target_shape = () if len(shape) == 1 else (shape[0],) + tuple(shape[2:])
    return L.tensor(rng.integers(0, n_classes, target_shape))


def nll(shape, reduction="mean", weight=None, ignore_index=-100, seed=0):
    def program(L, x):
        target = _target(L, shape, shape[0 if len(shape) == 1 else 1], seed)
        w = None if weight is None else L.tensor(weight, dtype=L.float64)
        return L.nn.functional.nll_loss(x, target, weight=w, reduction=reduction,
                                        ignore_index=ignore_index)
    return program


def cross_entropy(shape, reduction="mean", weight=None, ignore_index=-100, label_smoothing=0.0,
                  probabilities=False, seed=0):
    def program(L, x):
        if probabilities:
            target = L.tensor(np.random.default_rng(seed).uniform(0, 1, shape))
        else:
            target = _target(L, shape, shape[0 if len(shape) == 1 else 1], seed)
        w = None if weight is None else L.tensor(weight, dtype=L.float64)
        return L.nn.functional.cross_entropy(x, target, weight=w, reduction=reduction,
                                             ignore_index=ignore_index,
                                             label_smoothing=label_smoothing)
    return program


SHAPES = [(3,), (4, 3), (2, 3, 4), (2, 3, 2, 2), (2, 3, 2, 1, 2)]
LOSSES = {}
for shape in SHAPES:
    for reduction in ("mean", "sum", "none"):
        for weight in (None, [0.5, 2.0, 1.5]):
            for ignore_index in (-100, 1):
                key = f"{shape}-{reduction}-{'w' if weight else 'nw'}-ii{ignore_index}"
                LOSSES["nll" + key] = nll(shape, reduction, weight, ignore_index)
                LOSSES["ce" + key] = cross_entropy(shape, reduction, weight, ignore_index)
                LOSSES["ce_smooth" + key] = cross_entropy(shape, reduction, weight, ignore_index,
                                                          label_smoothing=0.2)
        LOSSES[f"ce_probabilities{shape}-{reduction}"] = cross_entropy(
            shape, reduction, probabilities=True)
        LOSSES[f"ce_probabilities_smooth{shape}-{reduction}"] = cross_entropy(
            shape, reduction, label_smoothing=0.3, probabilities=True)

ACTIVATIONS = {
    "hardtanh": lambda L, x: L.nn.functional.hardtanh(x),
    "hardtanh_bounds": lambda L, x: L.nn.functional.hardtanh(x, -0.5, 0.25),
    "relu6": lambda L, x: L.nn.functional.relu6(x * L.tensor(4.0, dtype=L.float64)),
    "nn.ReLU6": lambda L, x: L.nn.ReLU6()(x * L.tensor(4.0, dtype=L.float64)),
    "nn.Hardtanh": lambda L, x: L.nn.Hardtanh(-0.3, 0.6)(x),
    "threshold": lambda L, x: L.nn.functional.threshold(x, 0.1, 20.0),
    "nn.Threshold": lambda L, x: L.nn.Threshold(-0.2, 3.0)(x),
    "relu": lambda L, x: L.nn.functional.relu(x),
    "relu_then_relu6": lambda L, x: L.nn.functional.relu6(L.nn.functional.relu(x) * L.tensor(7.0, dtype=L.float64)),
    "hardtanh_of_threshold": lambda L, x: L.nn.functional.hardtanh(
        L.nn.functional.threshold(x, 0.0, -1.0), -0.5, 0.5),
}

# In place: PyTorch saves a copy of the input (CloneBackward0 under the second-order node),
# minigrad the input itself (its saved-input rule, tested elsewhere): looked through here.
INPLACE = {
    "hardtanh_inplace": lambda L, x: L.nn.functional.hardtanh(x.clone(), inplace=True),
    "F.hardtanh_": lambda L, x: L.nn.functional.hardtanh_(x.clone()),
    "relu6_inplace": lambda L, x: L.nn.functional.relu6(x.clone(), inplace=True),
    "threshold_inplace": lambda L, x: L.nn.functional.threshold(x.clone(), 0.1, 2.0, inplace=True),
}


# Gradient formulas PyTorch writes in C++ with plain numbers (1 + result.pow(2), -0.5 * grad,
# grad / sqrt(2 pi), grad * 1 / ...): under create_graph those are the Scalar overloads,
# AddBackward1, MulBackward1, DivBackward1, not Python's AddBackward0 (found by the
# random-program test)
FORMULAS_WITH_NUMBERS = {
    "tan": lambda L, x: (x * 0.5).tan(),
    "tan_": lambda L, x: (x * 0.5).tan_(),
    "log1p": lambda L, x: x.abs().log1p(),
    "rsqrt": lambda L, x: (x.abs() + 0.5).rsqrt(),
    "atanh": lambda L, x: (x * 0.5).atanh(),
    "log_ndtr": lambda L, x: L.special.log_ndtr(x),
}


def _input(L, shape, seed):
    data = np.random.default_rng(seed).uniform(-1.5, 1.5, shape)
    return L.tensor(data, dtype=L.float64, requires_grad=True)


def _run(L, program, shape, grad_output_requires_grad, seed):
    """The program, its gradient with create_graph=True, and the gradient's own gradients."""
    x = _input(L, shape, seed)
    out = program(L, x)
    rng = np.random.default_rng(seed + 1)
    go = L.tensor(rng.uniform(0.5, 1.5, tuple(out.shape)), dtype=L.float64,
                  requires_grad=grad_output_requires_grad)
    (g,) = L.autograd.grad(out, x, go, create_graph=True)
    gg = L.tensor(rng.uniform(-1, 1, tuple(g.shape)), dtype=L.float64)
    wanted = [go, x] if grad_output_requires_grad else [x]
    third = L.autograd.grad(g, wanted, gg, create_graph=True, allow_unused=True) \
        if g.requires_grad else None
    return out, g, third


def _compare(program, shape, grad_output_requires_grad, seed=0, drop=()):
    torch = import_torch()
    ours = _run(minigrad, program, shape, grad_output_requires_grad, seed)
    theirs = _run(torch, program, shape, grad_output_requires_grad, seed)
    (out, g, third), (t_out, t_g, t_third) = ours, theirs
    assert structure(out.grad_fn, drop) == structure(t_out.grad_fn, drop)
    assert_same_values(out, t_out)
    assert g.requires_grad == t_g.requires_grad
    assert structure(g.grad_fn, drop) == structure(t_g.grad_fn, drop)
    if t_g.grad_fn is not None:
        assert saved_names(g.grad_fn) == saved_names(t_g.grad_fn)
    assert_same_values(g, t_g)
    assert g.stride() == t_g.stride()
    assert (third is None) == (t_third is None)
    for i, (a, b) in enumerate(zip(third or (), t_third or ())):
        assert_same_values(a, b)
        if b is not None:
            assert a.requires_grad == b.requires_grad
            assert structure(a.grad_fn, drop) == structure(b.grad_fn, drop)


def _shape_in(name):
    return tuple(int(n) for n in name[name.index("(") + 1:name.index(")")].split(",") if n.strip())


@pytest.mark.parametrize("grad_output_requires_grad", [False, True])
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_losses_second_order_graph_as_torch(name, grad_output_requires_grad):
    _compare(LOSSES[name], _shape_in(name), grad_output_requires_grad)


@pytest.mark.parametrize("name", ["ce_smooth(4, 3)-mean-nw-ii-100", "ce_smooth(2, 3, 4)-sum-w-ii1",
                                  "ce_probabilities_smooth(4, 3)-mean"])
def test_label_smoothing_made_in_pytorchs_order(torch, name):
    """PyTorch's C++ makes the smoothing term's nodes before the nll term's product (and the
    smoothed probabilities after log_softmax): the same sequence numbers, so the engine runs
    the two paths in the same order (it shows in the order of third-order sums)."""
    def numbered(root):
        """Each node's name, with its rank among the graph's sequence numbers (leaves aside)."""
        nodes, stack = {}, [root]
        while stack:
            node = stack.pop()
            if node is not None and node.next_functions and node not in nodes:
                nodes[node] = node._sequence_nr()
                stack.extend(child for child, _ in node.next_functions)
        ranks = {node: rank for rank, node in enumerate(sorted(nodes, key=nodes.get))}

        def shape(node):
            if node not in ranks:
                return None
            return (node.name(), ranks[node], tuple(shape(child) for child, _ in node.next_functions))
        return shape(root)
    ours = LOSSES[name](minigrad, _input(minigrad, _shape_in(name), 0))
    theirs = LOSSES[name](torch, _input(torch, _shape_in(name), 0))
    assert numbered(ours.grad_fn) == numbered(theirs.grad_fn)


@pytest.mark.parametrize("grad_output_requires_grad", [False, True])
@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4)])
@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activations_second_order_graph_as_torch(name, shape, grad_output_requires_grad):
    _compare(ACTIVATIONS[name], shape, grad_output_requires_grad)


@pytest.mark.parametrize("grad_output_requires_grad", [False, True])
@pytest.mark.parametrize("name", sorted(FORMULAS_WITH_NUMBERS))
def test_formulas_with_numbers_second_order_graph_as_torch(name, grad_output_requires_grad):
    _compare(FORMULAS_WITH_NUMBERS[name], (3, 4), grad_output_requires_grad)


@pytest.mark.parametrize("grad_output_requires_grad", [False, True])
@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_activations_second_order_graph_as_torch(name, grad_output_requires_grad):
    _compare(INPLACE[name], (3, 4), grad_output_requires_grad, drop=("CloneBackward0",))


def test_gradient_requires_grad_only_when_the_input_does(torch):
    """With an input that needs no gradient, nothing is recorded (in both libraries)."""
    for L in (minigrad, torch):
        x = L.tensor([[-2.0, 0.5, 3.0]], requires_grad=True)
        y = x.detach() * 1
        out = L.nn.functional.relu6(y).sum() + (x * 0).sum()
        (g,) = L.autograd.grad(out, x, create_graph=True)
        assert g.grad_fn is None or g.grad_fn.name() == "MulBackward0"


@pytest.mark.parametrize("name", ["nll(4, 3)-mean-w-ii1", "nll(2, 3, 4)-none-nw-ii-100",
                                  "ce(2, 3, 2, 2)-sum-w-ii-100", "ce_smooth(4, 3)-mean-w-ii1",
                                  "ce_probabilities_smooth(4, 3)-mean"])
def test_losses_gradgradcheck(name):
    """The second derivatives (through the new nodes) agree with finite differences."""
    shape = _shape_in(name)
    program = LOSSES[name]
    x = _input(minigrad, shape, 3)
    assert minigrad.autograd.gradgradcheck(lambda v: program(minigrad, v), (x,))


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activations_gradgradcheck(name):
    # away from the kinks, where finite differences are meaningful
    data = np.array([-1.7, -0.8, -0.35, 0.05, 0.2, 0.45, 0.9, 1.6])
    x = minigrad.tensor(data, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradgradcheck(lambda v: ACTIVATIONS[name](minigrad, v), (x,))


def test_nll_loss_backward_node_settings_as_torch(torch):
    """NllLossBackwardBackward0 shows target, weight, reduction and ignore_index (unsigned)."""
    nodes = []
    for L in (minigrad, torch):
        x = L.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], requires_grad=True)
        loss = L.nn.functional.nll_loss(x, L.tensor([2, 0]), weight=L.tensor([1.0, 2.0, 3.0]),
                                        reduction="sum")
        (g,) = L.autograd.grad(loss, x, create_graph=True)
        nodes.append(g.grad_fn)
    ours, theirs = nodes
    assert saved_names(ours) == saved_names(theirs)
    assert ours._saved_reduction == theirs._saved_reduction == 2
    assert ours._saved_ignore_index == theirs._saved_ignore_index == 2 ** 64 - 100
    assert ours._saved_target.tolist() == theirs._saved_target.tolist()
    assert ours._saved_weight.tolist() == theirs._saved_weight.tolist()


@pytest.mark.parametrize("shape", [(2, 3), (1, 3, 1, 2)])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_nll_loss_gradient_with_no_weight_left_as_torch(torch, shape, reduction):
    """Every label ignored or weighted 0: PyTorch's 'mean' gradient is nan at weight-0 labels."""
    for ignore_index in (-100, 0):
        results = []
        for L in (minigrad, torch):
            x = L.zeros(shape, requires_grad=True)
            target = L.zeros((shape[0],) + shape[2:], dtype=L.int64)
            loss = L.nn.functional.nll_loss(x, target, weight=L.tensor([0.0, 1.0, 2.0]),
                                            reduction=reduction, ignore_index=ignore_index)
            results.append(L.autograd.grad(loss, x)[0].numpy())
        np.testing.assert_array_equal(results[0], results[1])
        assert np.array_equal(np.signbit(results[0]), np.signbit(results[1]))


def _error_of(function):
    try:
        function()
    except Exception as error:       # noqa: BLE001  (compared with PyTorch's below)
        return type(error), str(error).split("\nminigrad hint")[0]
    return None


@pytest.mark.parametrize("case", ["1d_target_of_one", "channels_last", "transposed_pixels"])
def test_nll_loss_backward_refusals_as_torch(torch, case):
    """Inputs nll_loss's forward takes but PyTorch's backward refuses, with its message."""
    def program(L):
        if case == "1d_target_of_one":
            x = L.tensor([0.1, 0.2, 0.3], requires_grad=True)
            loss = L.nn.functional.nll_loss(x, L.tensor([1]))
        else:
            data = np.arange(24.0).reshape(2, 3, 2, 2)
            x = L.tensor(data, requires_grad=True)
            images = x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2) \
                if case == "channels_last" else x.transpose(2, 3)
            loss = L.nn.functional.nll_loss(images, L.zeros((2, 2, 2), dtype=L.int64))
        return L.autograd.grad(loss, x)
    ours, theirs = _error_of(lambda: program(minigrad)), _error_of(lambda: program(torch))
    assert theirs is not None and ours == theirs


def test_forward_mode_of_the_gradients_as_torch(torch):
    """Forward-over-reverse: the tangent of each gradient, and whether it has a grad_fn."""
    programs = {
        "relu6": lambda L, x: L.nn.functional.relu6(x * L.tensor(4.0, dtype=L.float64)),
        "relu": lambda L, x: L.nn.functional.relu(x),
        "threshold": lambda L, x: L.nn.functional.threshold(x, 0.1, 2.0),
        "nll_loss": lambda L, x: L.nn.functional.nll_loss(x, L.tensor([2, 0]), reduction="none"),
        "nll_loss2d": lambda L, x: L.nn.functional.nll_loss(x.reshape(2, 3, 1, 1),
                                                            L.tensor([[[2]], [[0]]])),
    }
    for name, program in programs.items():
        results = []
        for L in (minigrad, torch):
            forward_ad = L.autograd.forward_ad
            x = L.tensor([[-0.5, 0.3, 1.2], [2.0, -1.0, 0.1]], dtype=L.float64, requires_grad=True)
            with forward_ad.dual_level():
                out = program(L, x)
                go = forward_ad.make_dual(L.ones_like(out), L.full(tuple(out.shape), 3.0,
                                                                   dtype=L.float64))
                (g,) = L.autograd.grad(out, x, go, create_graph=True)
                tangent = forward_ad.unpack_dual(g).tangent
                results.append((tangent.detach().numpy(), tangent.grad_fn and tangent.grad_fn.name()))
        np.testing.assert_array_equal(results[0][0], results[1][0], err_msg=name)
        assert results[0][1] == results[1][1], name


def shared_structure(gradients):
    """Every node below the gradients, numbered in the order first met (depth first), each with
    its name and the numbers of its next nodes: which nodes two paths share shows, as it decides
    the order and the versions of a second-order backward."""
    numbers, nodes = {}, []

    def visit(node):
        if node is None:
            return None
        if node not in numbers:
            numbers[node] = len(numbers)
            children = tuple(visit(n) for n, _ in node.next_functions)
            nodes.append((numbers[node], node.name().split("::")[-1], children))
        return numbers[node]
    for gradient in gradients:
        visit(gradient.grad_fn if gradient is not None else None)
    return sorted(nodes)


SECOND_ORDER_PROGRAMS = {
    "dist_of_itself": lambda L, x, y: L.dist(x, x),
    "dist": lambda L, x, y: L.dist(x, y),
    "dist_p1": lambda L, x, y: L.dist(x, y, p=1),
    "dist_of_a_number": lambda L, x, y: L.dist(x, y.detach()),
    "svdvals": lambda L, x, y: L.linalg.svdvals(x).sum(),
    "nuclear_norm": lambda L, x, y: L.nuclear_norm(x * y),
    # (renorm's gradient is computed in float64 and converted back: ToCopyBackward0)
    "renorm": lambda L, x, y: (x.renorm(2, 0, 1.0) * y).sum(),
    "renorm_half": lambda L, x, y: (x.renorm(0.5, 1, 0.5) * y).sum(),
    # (a node without a derivative: edges only to the inputs that require grad)
    "hardsigmoid": lambda L, x, y: L.nn.functional.hardsigmoid(x * 3).sum(),
}


def _shown_gradient(grad):
    """A leaf's gradient as both libraries show it: version, ZeroTensor or not, values to
    rounding (NaN as a string, so that equal lists compare equal; the products of an SVD add up
    in another order)."""
    if grad._is_zerotensor():             # (PyTorch's has no values to list)
        return grad._version, True
    return grad._version, False, np.round(grad.tolist(), 3).astype(str).tolist()


@pytest.mark.parametrize("name", sorted(SECOND_ORDER_PROGRAMS))
def test_second_order_graph_nodes_shared_as_torch(name):
    """The gradient with create_graph=True is made of PyTorch's nodes, shared where PyTorch's
    are and separate where PyTorch computes a formula once per input (dist's gradient of self
    and of other are two chains), and a backward through it leaves the leaves' gradients at
    PyTorch's versions; a node without a derivative has edges only to the inputs that require
    grad (found by the random-program test)."""
    torch = import_torch()

    def outcome(L):
        x = L.tensor([[0.3, -1.2, 0.7], [0.1, 0.4, -0.5]], requires_grad=True)
        y = L.tensor([[0.2, 0.6, -0.9], [1.1, -0.3, 0.8]], requires_grad=True)
        out = SECOND_ORDER_PROGRAMS[name](L, x, y)
        grads = L.autograd.grad(out, (x, y), create_graph=True, allow_unused=True)
        graph = shared_structure(grads)
        total = sum(g.sum() for g in grads if g is not None)
        try:
            with L.no_grad():
                total.backward()
        except RuntimeError as error:
            return graph, str(error)
        return graph, [None if t.grad is None else _shown_gradient(t.grad) for t in (x, y)]
    assert outcome(minigrad) == outcome(torch)


@pytest.mark.parametrize("grad_output_requires_grad", [False, True])
@pytest.mark.parametrize("p", [0.5, -1.5, 1.5, 3.0, float("inf"), 1.0, 2.0])
def test_norm_second_order_backward_runs_nodes_in_torchs_order(p, grad_output_requires_grad):
    """The norm's gradient with create_graph=True makes its nodes in PyTorch's order (its C++
    computes a product's right operand first), so a second backward runs them in PyTorch's order:
    sgn's ZeroTensor arrives at the leaf when PyTorch's does, and the gradient ends at PyTorch's
    version (found by the random-program test)."""
    torch = import_torch()

    def outcome(L):
        x = L.tensor([0.5, -1.25, 2.0], requires_grad=True)
        grad_output = L.tensor(1.0, requires_grad=grad_output_requires_grad)
        (grad,) = L.autograd.grad(x.norm(p), [x], grad_output, create_graph=True)
        ran, seen = [], set()

        def watch(node):            # each node writes down when it runs
            if node is None or node in seen:
                return
            seen.add(node)
            node.register_hook(lambda grad_inputs, grad_outputs, node=node: ran.append(node.name()))
            for child, _ in node.next_functions:
                watch(child)
        watch(grad.grad_fn)
        inputs = [x, grad_output] if grad_output_requires_grad else [x]
        return ran, [g._version for g in L.autograd.grad(grad.sum(), inputs)]
    assert outcome(minigrad) == outcome(torch)
