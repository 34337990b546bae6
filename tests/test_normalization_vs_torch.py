"""layer_norm, batch_norm, group_norm, rms_norm, instance_norm and their modules against PyTorch:
values, the recorded graph, gradients, the names and values grad_fn shows (_saved_*),
gradcheck and gradgradcheck, running statistics, printing, state_dict and the errors."""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

from conftest import import_torch, every_node_saved


def graph(grad_fn):
    """The graph below ``grad_fn`` as nested (name, children) pairs, in next_functions order."""
    if grad_fn is None:
        return None
    return (type(grad_fn).__name__, tuple(graph(child) for child, _ in grad_fn.next_functions))


RNG = np.random.default_rng(0)
X3 = RNG.standard_normal((3, 4, 5))
W5, B5, W4, B4 = (RNG.standard_normal(n) for n in (5, 5, 4, 4))
X4 = RNG.standard_normal((2, 4, 3, 2))


def _running(L, dtype):
    return L.linspace(-1, 1, 4, dtype=dtype), L.linspace(0.5, 2, 4, dtype=dtype)


# name: (program(L, x, w, b), input, weight, bias)
PROGRAMS = {
    "layer_norm": (lambda L, x, w, b: L.nn.functional.layer_norm(x, (5,), w, b), X3, W5, B5),
    "layer_norm_two_dims": (lambda L, x, w, b: L.nn.functional.layer_norm(x, (4, 5), None, None, 1e-3), X3, None, None),
    "layer_norm_weight_only": (lambda L, x, w, b: L.nn.functional.layer_norm(x, [5], w), X3, W5, None),
    "layer_norm_bias_only": (lambda L, x, w, b: L.nn.functional.layer_norm(x, [5], None, b), X3, None, B5),
    "batch_norm": (lambda L, x, w, b: L.nn.functional.batch_norm(x, None, None, w, b, True), X3, W4, B4),
    "batch_norm_4d": (lambda L, x, w, b: L.nn.functional.batch_norm(x, *_running(L, x.dtype), w, b, True, 0.3), X4, W4, B4),
    "batch_norm_2d_input": (lambda L, x, w, b: L.nn.functional.batch_norm(x[:, :, 0], None, None, w, None, True), X3, W4, None),
    "batch_norm_eval": (lambda L, x, w, b: L.nn.functional.batch_norm(x, *_running(L, x.dtype), w, b, False), X3, W4, B4),
    "batch_norm_eval_plain": (lambda L, x, w, b: L.nn.functional.batch_norm(x, *_running(L, x.dtype)), X4, None, None),
    "group_norm": (lambda L, x, w, b: L.nn.functional.group_norm(x, 2, w, b), X3, W4, B4),
    "group_norm_4d": (lambda L, x, w, b: L.nn.functional.group_norm(x, 4, w, None, 1e-2), X4, W4, None),
    "group_norm_one_group": (lambda L, x, w, b: L.nn.functional.group_norm(x, 1), X4, None, None),
    "rms_norm": (lambda L, x, w, b: L.nn.functional.rms_norm(x, (5,), w), X3, W5, None),
    "rms_norm_two_dims": (lambda L, x, w, b: L.nn.functional.rms_norm(x, [4, 5], eps=1e-3), X3, None, None),
    "instance_norm": (lambda L, x, w, b: L.nn.functional.instance_norm(x, weight=w, bias=b), X3, W4, B4),
    "instance_norm_plain": (lambda L, x, w, b: L.nn.functional.instance_norm(x), X4, None, None),
    "module_layer_norm": (lambda L, x, w, b: L.nn.LayerNorm(5, dtype=x.dtype)(x), X3, None, None),
    "module_batch_norm": (lambda L, x, w, b: L.nn.BatchNorm2d(4, dtype=x.dtype)(x), X4, None, None),
    "module_group_norm": (lambda L, x, w, b: L.nn.GroupNorm(2, 4, dtype=x.dtype)(x), X4, None, None),
    "module_rms_norm": (lambda L, x, w, b: L.nn.RMSNorm([5], dtype=x.dtype)(x), X3, None, None),
}


def run(L, name, dtype):
    program, x, w, b = PROGRAMS[name]
    leaves = [None if a is None else L.tensor(a.astype(dtype), requires_grad=True) for a in (x, w, b)]
    out = program(L, *leaves)
    weights = L.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)).astype(dtype))
    (out * weights).sum().backward()
    grads = [None if leaf is None else leaf.grad.numpy() for leaf in leaves]
    return out.detach().numpy(), graph(out.grad_fn), grads


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_values_graph_and_gradients_as_torch(name, dtype):
    torch = import_torch()
    ours, theirs = run(minigrad, name, dtype), run(torch, name, dtype)
    tolerance = 2e-6 if dtype == np.float32 else 1e-14
    assert ours[0].dtype == theirs[0].dtype
    np.testing.assert_allclose(ours[0], theirs[0], rtol=tolerance, atol=tolerance)
    assert ours[1] == theirs[1]
    for our_grad, their_grad in zip(ours[2], theirs[2]):
        assert (our_grad is None) == (their_grad is None)
        if our_grad is not None:
            np.testing.assert_allclose(our_grad, their_grad, rtol=5 * tolerance, atol=5 * tolerance)


# (PyTorch's second derivative of a layer_norm with a bias and no weight leaves out the bias's
# term, and fails gradgradcheck; minigrad's does the same, see test_normalization_second_order_vs_torch)
NOT_TWICE = {"layer_norm_bias_only"}


@pytest.mark.parametrize("name", sorted(name for name in PROGRAMS if not name.startswith("module")))
def test_gradcheck_and_gradgradcheck_in_float64(name):
    program, x, w, b = PROGRAMS[name]
    given = [a is not None for a in (x, w, b)]
    inputs = [minigrad.tensor(a, requires_grad=True) for a in (x, w, b) if a is not None]

    def function(*tensors):
        tensors = iter(tensors)
        return program(minigrad, *[next(tensors) if present else None for present in given])
    assert gradcheck(function, inputs)
    if name not in NOT_TWICE:
        assert gradgradcheck(function, inputs)


def _saved(node):
    """The names dir() lists, and what each _saved_ value is (a tensor as its shape and dtype)."""
    shown = {}
    for name in dir(node):
        if name.startswith("_saved_"):
            value = getattr(node, name)
            shown[name] = (tuple(value.shape), str(value.dtype).split(".")[-1]) if hasattr(value, "shape") else value
    return [name for name in dir(node) if name.startswith(("_saved_", "_raw_saved_"))], shown


@pytest.mark.parametrize("name", ["layer_norm", "layer_norm_two_dims", "batch_norm", "batch_norm_eval",
                                  "group_norm", "group_norm_one_group", "batch_norm_4d"])
def test_saved_values_as_torch(name):
    torch = import_torch()
    program, x, w, b = PROGRAMS[name]
    nodes = []
    for L in (minigrad, torch):
        leaves = [None if a is None else L.tensor(a, requires_grad=True) for a in (x, w, b)]
        nodes.append(program(L, *leaves).grad_fn)
    assert _saved(nodes[0]) == _saved(nodes[1])


def test_saved_mean_and_rstd_as_torch():
    torch = import_torch()
    values = []
    for L in (minigrad, torch):
        x = L.tensor(X3, requires_grad=True)
        node = L.nn.functional.layer_norm(x, (5,)).grad_fn
        group = L.nn.functional.group_norm(x, 2).grad_fn
        batch = L.nn.functional.batch_norm(x, None, None, training=True).grad_fn
        values.append([n.detach().numpy() for n in (node._saved_result1, node._saved_result2, group._saved_result1,
                                            group._saved_result2, batch._saved_result1, batch._saved_result2)])
    for ours, theirs in zip(*values):
        np.testing.assert_allclose(ours, theirs, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("momentum", [0.1, 0.5])
def test_running_statistics_as_torch(momentum):
    """The running mean moves towards the batch mean, the running var towards the unbiased batch
    variance; written without a new version, as PyTorch's kernel writes them."""
    torch = import_torch()
    seen = []
    for L in (minigrad, torch):
        mean, var = L.zeros(4, dtype=L.float64), L.ones(4, dtype=L.float64)
        x = L.tensor(X4)
        L.nn.functional.batch_norm(x, mean, var, training=True, momentum=momentum)
        L.nn.functional.batch_norm(x * 2 + 1, mean, var, training=True, momentum=momentum)
        seen.append((mean.numpy(), var.numpy(), mean._version, var._version))
    np.testing.assert_allclose(seen[0][0], seen[1][0], rtol=1e-14)
    np.testing.assert_allclose(seen[0][1], seen[1][1], rtol=1e-14)
    assert seen[0][2:] == seen[1][2:]


def strided_batch_norms(L):
    """batch_norm of inputs in layouts its kernels do not take (expanded, transposed, stepped):
    PyTorch computes ((x - mean) * invstd) * weight + bias element by element, so equal rows
    normalize to exact zeros."""
    x = L.tensor(np.random.default_rng(2).uniform(-2, 2, (3, 4)).astype(np.float32))
    w, b = L.linspace(0.5, 2, 3), L.linspace(-1, 1, 3)
    mean, var = L.linspace(-1, 1, 3), L.linspace(0.5, 2, 3)
    F = L.nn.functional
    return [F.batch_norm(x[0].expand(2, 4), None, None, training=True),
            F.batch_norm(x[0, :3].expand(5, 3), None, None, w, b, training=True),
            F.batch_norm(x.t(), mean, var, w, b), F.batch_norm(x.t()[::2], mean, var, w)]


def test_strided_batch_norm_as_torch():
    torch = import_torch()
    for ours, theirs in zip(strided_batch_norms(minigrad), strided_batch_norms(torch)):
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def modules(L):
    nn, seen = L.nn, []
    layers = [nn.LayerNorm(4), nn.LayerNorm((3, 4), eps=1e-3, elementwise_affine=False), nn.LayerNorm(4, bias=False),
              nn.GroupNorm(2, 4), nn.GroupNorm(1, 4, affine=False), nn.RMSNorm(4),
              nn.RMSNorm([3, 4], eps=1e-5, elementwise_affine=False), nn.BatchNorm1d(4),
              nn.BatchNorm2d(4, momentum=None), nn.BatchNorm1d(4, affine=False, track_running_stats=False),
              nn.BatchNorm3d(4, bias=False), nn.InstanceNorm1d(4), nn.InstanceNorm2d(4, affine=True),
              nn.InstanceNorm3d(4, track_running_stats=True, momentum=None)]
    for layer in layers:
        seen += [repr(layer), list(layer.state_dict()), [(n, tuple(p.shape)) for n, p in layer.named_parameters()],
                 [(n, str(b.dtype)) for n, b in layer.named_buffers()]]
    x = L.tensor(np.random.default_rng(0).standard_normal((5, 4, 3)).astype(np.float32))
    bn = nn.BatchNorm1d(4)
    bn(x)
    bn(x * 2)
    seen += [np.round(bn.running_mean.numpy(), 5).tolist(), np.round(bn.running_var.numpy(), 5).tolist(),
             bn.num_batches_tracked.item()]
    bn.eval()
    seen += [np.round(bn(x).detach().numpy(), 5).tolist(), bn.num_batches_tracked.item()]
    cumulative = nn.BatchNorm2d(4, momentum=None)
    cumulative(x.reshape(5, 4, 3, 1))
    cumulative(x.reshape(5, 4, 3, 1) * 3 + 1)
    seen.append(np.round(cumulative.running_var.numpy(), 5).tolist())
    untracked = nn.BatchNorm1d(4, track_running_stats=False).eval()
    seen.append(np.round(untracked(x).detach().numpy(), 5).tolist())
    instance = nn.InstanceNorm1d(4, affine=True, track_running_stats=True)
    x3 = L.tensor(np.random.default_rng(2).standard_normal((2, 4, 5)).astype(np.float32))
    seen.append(np.round(instance(x3).detach().numpy(), 6).tolist())
    seen += [np.round(instance.running_mean.numpy(), 6).tolist(), np.round(instance.running_var.numpy(), 6).tolist()]
    instance.eval()
    seen.append(np.round(instance(x3).detach().numpy(), 6).tolist())
    seen.append(np.round(nn.InstanceNorm2d(4)(x3.reshape(4, 5, 2)).numpy(), 6).tolist())     # no batch dim
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.InstanceNorm1d(3)(x3)
    seen.append([str(w.message) for w in caught])
    # converting a model converts floating tensors only: the batch count stays an integer
    converted = nn.Sequential(nn.BatchNorm1d(4)).double()
    seen.append([(name, str(t.dtype)) for name, t in converted.state_dict().items()])
    seen.append([(name, str(t.dtype)) for name, t in nn.BatchNorm1d(4).to(L.float64).state_dict().items()])
    return seen


def _same(ours, theirs):
    """Equal, numbers to float32 precision (rounded printouts could fall either side of a digit)."""
    if isinstance(ours, float) and isinstance(theirs, float):
        return abs(ours - theirs) <= 1e-5 * (1 + abs(theirs))
    if isinstance(ours, (list, tuple)) and isinstance(theirs, (list, tuple)):
        return len(ours) == len(theirs) and all(_same(a, b) for a, b in zip(ours, theirs))
    return ours == theirs


def test_modules_as_torch():
    torch = import_torch()
    ours, theirs = modules(minigrad), modules(torch)
    assert len(ours) == len(theirs)
    for our, their in zip(ours, theirs):
        assert _same(our, their), (our, their)


def _error(call):
    try:
        call()
    except Exception as error:
        return type(error).__name__, str(error)
    return "no error"


def errors(L):
    F, nn = L.nn.functional, L.nn
    x, x3 = L.ones(4, 3), L.ones(2, 3, 4)
    mean, var = L.zeros(3), L.ones(3)
    calls = [lambda: F.layer_norm(x, (4,)), lambda: F.layer_norm(x, (3,), L.ones(4)),
             lambda: F.layer_norm(x, (3,), None, L.ones(4)), lambda: F.layer_norm(x, ()),
             lambda: F.layer_norm(x, (2, 4, 3)), lambda: F.rms_norm(x, (4,)),
             lambda: F.batch_norm(L.ones(1, 3), mean, var, training=True),
             lambda: F.batch_norm(L.ones(2, 4), mean, var, training=True),
             lambda: F.batch_norm(L.ones(2, 3), None, None, training=False),
             lambda: F.batch_norm(L.ones(2, 3), mean, var, L.ones(4), training=False),
             lambda: F.group_norm(x3, 2), lambda: F.group_norm(L.ones(2, 4, 4), 2, L.ones(3)),
             lambda: F.group_norm(L.ones(2), 2), lambda: nn.BatchNorm1d(3)(L.ones(2, 3, 4, 5)),
             lambda: nn.BatchNorm2d(3)(x3), lambda: nn.BatchNorm3d(3)(x3), lambda: nn.GroupNorm(3, 4), lambda: F.layer_norm(x, 3),
             lambda: F.rms_norm(x, 3), lambda: F.layer_norm(x, (3.0,)), lambda: F.instance_norm(x),
             lambda: F.instance_norm(x3, use_input_stats=False), lambda: nn.InstanceNorm1d(3)(L.ones(2)),
             lambda: nn.InstanceNorm2d(3, affine=True)(L.ones(2, 4, 2, 2)), lambda: nn.InstanceNorm3d(3)(x3),
             lambda: F.batch_norm(x3.double(), mean, var, training=True),
             lambda: F.batch_norm(x3, mean.double(), var.double()), lambda: F.layer_norm(x3, (4,), L.ones(4).double()),
             lambda: F.group_norm(x3.double(), 1, L.ones(3))]
    return [_error(call) for call in calls]


def test_errors_as_torch():
    torch = import_torch()
    assert errors(minigrad) == errors(torch)


def integer_inputs(L, layout, training):
    """batch_norm of an int32 input (each way its parameters can be given): the error's class
    and first line. Laid out otherwise than PyTorch's kernel wants, in training, PyTorch starts
    with at::mean of the input (if weight, bias and running_mean have its dtype), which refuses
    integers before the kernel does (found by the random-program test)."""
    base = L.ones(48, dtype=L.int32)
    x = {"contiguous": lambda: base[:24].view(2, 3, 2, 2), "strided": lambda: base.view(2, 3, 2, 4)[..., ::2],
         "channels_last": lambda: base[:24].view(2, 2, 2, 3).permute(0, 3, 1, 2),
         "overlapping": lambda: base.as_strided((2, 3), (1, 1))}[layout]()
    ints, floats = L.ones(3, dtype=L.int32), L.ones(3)
    settings = [{}, {"weight": floats}, {"bias": floats}, {"weight": ints, "bias": ints},
                {"running_mean": floats, "running_var": floats}, {"running_mean": ints, "running_var": floats},
                {"running_mean": floats, "running_var": ints}]
    outcomes = []
    for given in settings:
        if not training and "running_mean" not in given:
            continue
        given = dict(given)
        mean, var = given.pop("running_mean", None), given.pop("running_var", None)
        try:
            L.nn.functional.batch_norm(x, mean, var, training=training, **given)
            outcomes.append("no error")
        except Exception as error:      # noqa: BLE001 (the error is what is compared)
            outcomes.append((type(error).__name__, str(error).splitlines()[0]))
    return outcomes


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("layout", ["contiguous", "strided", "channels_last", "overlapping"])
def test_batch_norm_of_integers_fails_as_in_torch(layout, training):
    torch = import_torch()
    assert integer_inputs(minigrad, layout, training) == integer_inputs(torch, layout, training)


def mixed_dtypes(L, input, weight, bias, running):
    """Each normalization of an input, weight, bias (and running statistics) of the given dtypes:
    the result's dtype or the error's text."""
    F, dt = L.nn.functional, lambda name: getattr(L, name)
    x, w, b = L.ones(2, 3, 2, dtype=dt(input)), L.ones(3, dtype=dt(weight)), L.zeros(3, dtype=dt(bias))
    mean, var = L.zeros(3, dtype=dt(running)), L.ones(3, dtype=dt(running))
    calls = [lambda: F.layer_norm(x, (2,), w[:2], b[:2]), lambda: F.group_norm(x, 3, w, b),
             lambda: F.instance_norm(x, None, None, w, b), lambda: F.batch_norm(x, mean, var, w, b),
             lambda: F.batch_norm(x, mean, var, training=True), lambda: F.batch_norm(x, mean, var, None, b)]
    outcomes = []
    for call in calls:
        try:
            outcomes.append(str(call().dtype))
        except RuntimeError as error:
            outcomes.append(str(error))
    return outcomes


@pytest.mark.parametrize("input, weight, bias, running", [
    ("float64", "float64", "float32", "float64"), ("float32", "float32", "float64", "float32"),
    ("float16", "float16", "float32", "float32"), ("float16", "float32", "float16", "float32"),
    ("float64", "float32", "float32", "float32"), ("float64", "float16", "float32", "float64"),
    ("float64", "float64", "float64", "float32"), ("float16", "float32", "float32", "float32")])
def test_mixed_dtypes_as_torch(input, weight, bias, running):
    """The first parameter given decides: in the input's dtype, every other must be too (PyTorch's
    kernel says 'expected scalar type ... but found ...'); else all must be float32, the input
    float16 ('mixed dtype (CPU): ...')."""
    torch = import_torch()
    assert mixed_dtypes(minigrad, input, weight, bias, running) == mixed_dtypes(torch, input, weight, bias, running)


def edge_cases(L):
    """Empty batches, a 1-d input, integers, lists: what comes out or which error, and its text."""
    F = L.nn.functional

    def outcome(call):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = call()
            return "ok", tuple(out.shape)
        except Exception as error:
            return type(error).__name__, str(error)
    calls = [lambda: F.batch_norm(L.randn(5), L.zeros(5), L.ones(5), training=True),
             lambda: F.batch_norm(L.randn(5), L.zeros(1), L.ones(1), training=False),
             lambda: F.batch_norm(L.randn(0, 3), L.zeros(3), L.ones(3), training=True),
             lambda: F.batch_norm(L.randn(0, 3), L.zeros(3), L.ones(3), training=False),
             lambda: F.layer_norm(L.randn(0, 3), (3,)), lambda: F.group_norm(L.randn(0, 4), 2),
             lambda: F.layer_norm([1, 2], (2,)), lambda: F.batch_norm([1, 2], None, None),
             lambda: F.batch_norm([1, 2], None, None, training=True), lambda: F.group_norm([1], 1),
             lambda: F.rms_norm([1], (1,)), lambda: F.instance_norm([1]),
             lambda: F.embedding([1, 2], L.ones(3, 2)), lambda: F.embedding(L.tensor([1]), [1, 2]),
             lambda: F.one_hot(L.ones(2, dtype=L.int64), 2.5),
             lambda: F.layer_norm(L.ones(2, 3, dtype=L.int64), (3,)),
             lambda: F.batch_norm(L.ones(2, 3, dtype=L.int64), None, None, training=True),
             lambda: F.group_norm(L.ones(2, 4, dtype=L.int64), 2), lambda: F.rms_norm(L.ones(2, 3, dtype=L.int64), (3,)),
             lambda: F.embedding(L.tensor([[]], dtype=L.int64), L.ones(3, 2)), lambda: F.embedding(L.tensor(1), L.ones(3, 2)),
             lambda: F.layer_norm(L.ones(3), (3,)), lambda: F.group_norm(L.ones(2, 4), 3),
             lambda: F.group_norm(L.ones(1, 1), 1), lambda: F.group_norm(L.ones(1, 2, 1), 2),
             lambda: F.instance_norm(L.ones(2, 3, 1)), lambda: F.rms_norm(L.ones(2, 3), (3,), L.ones(2)),
             lambda: F.layer_norm(L.ones(2, 3), (3,), eps=0),
             lambda: F.batch_norm(L.ones(2, 3), L.zeros(3), L.ones(3), momentum=None, training=True)]
    return [outcome(call) for call in calls]


def test_edge_cases_as_torch():
    torch = import_torch()
    assert edge_cases(minigrad) == edge_cases(torch)


def group_statistics(L):
    """group_norm's mean and rstd are outputs of its node (they require grad), layer_norm's and
    batch_norm's are not; a gradient through group_norm's counts when the output got one too."""
    x = L.tensor(np.random.default_rng(0).standard_normal((2, 4, 3)), requires_grad=True)
    w = L.tensor(np.random.default_rng(1).standard_normal(4), requires_grad=True)
    y = L.nn.functional.group_norm(x, 2, w)
    node = y.grad_fn
    mean, rstd = node._saved_result1, node._saved_result2
    seen = [mean.requires_grad, mean.grad_fn is node, rstd.is_leaf, mean.detach().numpy().tolist()]
    for other in (L.nn.functional.layer_norm(x, (3,)).grad_fn, L.nn.functional.batch_norm(x, None, None, training=True).grad_fn):
        seen.append((other._saved_result1.requires_grad, other._saved_result2.grad_fn is None))
    loss = (y * L.arange(24., dtype=L.float64).reshape(2, 4, 3)).sum() + (mean * L.tensor([[1., 2], [3, 4]], dtype=L.float64)).sum()
    (loss + (rstd ** 2).sum()).backward()
    seen += [x.grad.numpy().tolist(), w.grad.numpy().tolist()]
    x.grad = None
    L.nn.functional.group_norm(x, 2, w).grad_fn._saved_result2.sum().backward()
    seen.append(x.grad is None)
    return seen


def test_group_norm_statistics_are_outputs_as_in_torch():
    torch = import_torch()
    ours, theirs = group_statistics(minigrad), group_statistics(torch)
    for our, their in zip(ours, theirs):
        if isinstance(our, list):
            np.testing.assert_allclose(our, their, rtol=1e-13, atol=1e-13)
        else:
            assert our == their


def test_gradcheck_through_group_norm_statistics():
    x = minigrad.tensor(np.random.default_rng(0).standard_normal((2, 4, 3)), requires_grad=True)

    def function(x):
        y = minigrad.nn.functional.group_norm(x, 2)
        return y * 2 + y.grad_fn._saved_result1.sum() + y.grad_fn._saved_result2.sum()
    assert gradcheck(function, [x])


def layouts(L):
    """Output and gradient strides for channels_last and transposed inputs (channels_last stays
    so for batch and group norm; everything else comes out row-major)."""
    F, seen = L.nn.functional, []
    base = L.tensor(X3.astype(np.float32))
    inputs = [L.tensor(X4.astype(np.float32)).contiguous(memory_format=L.channels_last), base.transpose(0, 1),
              base.permute(2, 1, 0), base[:, :, ::2], base.transpose(1, 2)]
    for given in inputs:
        x = given.detach().requires_grad_()
        for function in [lambda x: F.batch_norm(x, None, None, training=True), lambda x: F.group_norm(x, 1),
                         lambda x: F.layer_norm(x, (x.shape[-1],)), lambda x: F.instance_norm(x),
                         lambda x: F.rms_norm(x, (x.shape[-1],))]:
            y = function(x)
            y.backward(L.ones_like(y))
            seen.append((y.stride(), x.grad.stride()))
            x.grad = None
    return seen


def test_layouts_as_torch():
    torch = import_torch()
    assert layouts(minigrad) == layouts(torch)


def composed(L):
    x = L.tensor(X3, requires_grad=True)
    F = L.nn.functional
    return [every_node_saved(F.rms_norm(x, (5,), L.ones(5, dtype=L.float64, requires_grad=True)).grad_fn, []),
            every_node_saved(F.rms_norm(x, (4, 5), eps=1e-3).grad_fn, []),
            every_node_saved(F.instance_norm(x, weight=L.ones(4, requires_grad=True, dtype=L.float64)).grad_fn, [])]


def test_composed_graphs_show_what_torch_shows():
    """rms_norm and instance_norm: every node's _saved_ values (dims in PyTorch's order)."""
    torch = import_torch()
    assert composed(minigrad) == composed(torch)


def some_require_grad(L):
    """Every combination of input, weight and bias requiring grad: the graph and the gradients."""
    import itertools
    F, seen = L.nn.functional, []
    for x_grad, w_grad, b_grad in itertools.product([True, False], repeat=3):
        x = L.tensor(X3, requires_grad=x_grad)
        w4, b4 = L.ones(4, dtype=L.float64, requires_grad=w_grad), L.zeros(4, dtype=L.float64, requires_grad=b_grad)
        w5, b5 = L.ones(5, dtype=L.float64, requires_grad=w_grad), L.zeros(5, dtype=L.float64, requires_grad=b_grad)
        running = (L.zeros(4, dtype=L.float64), L.ones(4, dtype=L.float64))
        for call in [lambda: F.layer_norm(x, (5,), w5, b5), lambda: F.batch_norm(x, None, None, w4, b4, True),
                     lambda: F.batch_norm(x, *running, w4, b4, False), lambda: F.group_norm(x, 2, w4, b4),
                     lambda: F.rms_norm(x, (5,), w5), lambda: F.instance_norm(x, None, None, w4, b4)]:
            y = call()
            seen.append(graph(y.grad_fn))
            if y.requires_grad:
                (y * L.linspace(-1, 1, y.numel(), dtype=L.float64).reshape(y.shape)).sum().backward()
                seen.append([None if t.grad is None else np.round(t.grad.numpy(), 10).tolist()
                             for t in (x, w4, b4, w5, b5)])
                for t in (x, w4, b4, w5, b5):
                    t.grad = None
    return seen


def test_some_inputs_requiring_grad_as_torch():
    torch = import_torch()
    assert some_require_grad(minigrad) == some_require_grad(torch)
