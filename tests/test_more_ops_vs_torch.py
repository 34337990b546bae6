"""More operations code from PyTorch's tutorials uses, compared with PyTorch: rsub, division that
rounds (div's rounding_mode, floor_divide, remainder, fmod and their in-place forms), atan2,
tril/triu, median/nanmedian, masked_select, nansum, count_nonzero, torch.Tensor(...) and the
typed classes of old code (torch.FloatTensor, torch.LongTensor, ...).

Each program runs in minigrad and in PyTorch and must give the same values, dtypes, strides,
node names, edges (next_functions), saved values (grad_fn._saved_*), gradients, warnings and
errors (class and text). Gradients are also checked with finite differences (gradcheck and
gradgradcheck, in float64)."""
import re
import warnings

import numpy as np
import pytest

import minigrad
from conftest import rounded  # (tests/ is on sys.path under pytest)

NAN, INF = float("nan"), float("inf")

# attributes of minigrad's nodes that PyTorch's nodes do not list (how minigrad keeps them)
_OWN_NODE_ATTRIBUTES = {"_saved", "_saved_names", "_saved_value", "_saved_versions"}


def _plain(value):
    """What a learner sees of one result, in a form both libraries compare on."""
    if hasattr(value, "grad_fn") and hasattr(value, "tolist"):
        grad_fn = value.grad_fn
        return ("tensor", repr(rounded(value.tolist())), str(value.dtype).split(".")[-1],
                tuple(value.shape), value.stride(), value.requires_grad, value._version,
                None if grad_fn is None else grad_fn.name().split("::")[-1])
    if isinstance(value, (tuple, list)):
        items = tuple(_plain(item) for item in value)
        # a named result (values, indices) shows its type's name: torch.return_types.median
        return (type(value).__name__,) + items if hasattr(value, "indices") else items
    if hasattr(value, "next_functions"):                   # a node: its name, edges, saved values
        return ("node", value.name(), tuple(None if node is None else (node.name(), nr)
                                            for node, nr in value.next_functions), _saved(value))
    return value


# the nodes of the operations tested here: their saved values are compared (those of the
# other nodes in a graph, x ** 2's for example, are the business of other tests)
OUR_NODES = {"RsubBackward0", "RsubBackward1", "DivBackward2", "FmodBackward0", "FmodBackward1",
             "RemainderBackward0", "RemainderBackward1", "torch::autograd::NotImplemented",
             "Atan2Backward0", "TrilBackward0", "TriuBackward0", "MedianBackward0", "MedianBackward1",
             "NanmedianBackward0", "NanmedianBackward1", "MaskedSelectBackward0",
             "MaskedScatterBackward0", "NansumBackward0", "AliasBackward0"}


def _saved(node):
    """A node's ``_saved_*`` attributes (names and values), as ``dir()`` lists them."""
    if node.name() not in OUR_NODES:
        return ()
    names = [name for name in dir(node) if name.startswith("_saved_") and name not in _OWN_NODE_ATTRIBUTES]
    return tuple((name, _plain(getattr(node, name))) for name in names)


def _graph(tensor):
    """Every node behind ``tensor``, in the order a walk along next_functions meets them."""
    seen, order, stack = set(), [], [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(_plain(node))
        stack.extend(next_node for next_node, _ in reversed(node.next_functions))
    return tuple(order)


def _of_two_inputs(call):
    """A program: ``call(lib, x, y)`` of two leaves, what it shows, and both gradients."""
    def program(lib):
        x = lib.tensor(X, requires_grad=True)
        y = lib.tensor(Y, requires_grad=True)
        out = call(lib, x, y)
        seen = _plain(out), _graph(out)
        out.backward(lib.ones_like(out))
        return seen, x.grad, y.grad
    return program


def outcome(lib, program):
    """The result of ``program(lib)`` (or its exception's class and message) and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = _plain(program(lib))
        except Exception as error:       # the class and the text, word for word
            message = str(error).split("\nminigrad hint:")[0]
            if "but expected one of:" in message:     # minigrad gives the first line of the list
                message = message.split("\n")[0]
            value = (type(error).__name__, message)
    messages = [(w.category.__name__, re.sub(r" \(Triggered internally at .*\)$", "", str(w.message)))
                for w in caught if "torch.jit" not in str(w.message)]
    return value, messages


def same(torch, program):
    """``program`` gives the same outcome in minigrad and in PyTorch (and return it)."""
    ours, theirs = outcome(minigrad, program), outcome(torch, program)
    assert ours == theirs
    return ours


def check_derivatives(function, *arrays):
    """gradcheck and gradgradcheck (float64) of ``function`` pass in both libraries."""
    for lib in (minigrad, pytest.importorskip("torch")):
        inputs = tuple(lib.tensor(np.asarray(a, dtype=np.float64), requires_grad=True) for a in arrays)
        assert lib.autograd.gradcheck(lambda *xs: function(lib, *xs), inputs)
        assert lib.autograd.gradgradcheck(lambda *xs: function(lib, *xs), inputs)


X = [1.5, -2.0, 3.0, -0.5]
Y = [0.5, 2.0, -1.0, -3.0]
X_BETWEEN_JUMPS = [1.3, -2.1, 2.7, -0.4]     # X / Y is no whole number: no jump of // or % nearby


# --- rsub: other - alpha * input ----------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda lib, x, y: 1 - x,
    lambda lib, x, y: 2.5 - x,
    lambda lib, x, y: lib.rsub(x, y),
    lambda lib, x, y: lib.rsub(x, 2),
    lambda lib, x, y: lib.rsub(x, y, alpha=3),
    lambda lib, x, y: lib.rsub(x, 2, alpha=0.5),
    lambda lib, x, y: lib.rsub(x, y.detach()),
    lambda lib, x, y: lib.rsub(x.detach(), y, alpha=2),
    lambda lib, x, y: lib.rsub(x[:, None], y),
])
def test_rsub_values_nodes_and_gradients(torch, call):
    same(torch, _of_two_inputs(call))


def test_rsub_dtypes_and_errors(torch):
    same(torch, lambda lib: lib.rsub(lib.tensor([1, 2]), 5))
    same(torch, lambda lib: lib.rsub(lib.tensor([1, 2]), 5.5))
    same(torch, lambda lib: lib.rsub(lib.tensor([1, 2]), lib.tensor([1.5]), alpha=2))
    same(torch, lambda lib: lib.rsub(lib.tensor([1, 2]), 5, alpha=1.5))
    same(torch, lambda lib: lib.rsub(lib.tensor([True]), lib.tensor([False])))
    same(torch, lambda lib: lib.rsub(lib.tensor([1.]), True))
    same(torch, lambda lib: lib.rsub(2, lib.tensor([1.])))
    same(torch, lambda lib: lib.rsub(lib.tensor([1., 2.]), lib.tensor([1., 2., 3.])))
    same(torch, lambda lib: lib.rsub(lib.tensor([1.]), 2, alpha="a"))
    same(torch, lambda lib: hasattr(lib.tensor([1.]), "rsub"))


def test_rsub_second_order_and_forward_mode(torch):
    def program(lib):
        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        y = lib.tensor(Y, dtype=lib.float64, requires_grad=True)
        (gx, gy) = lib.autograd.grad((lib.rsub(x, y, alpha=2) ** 2).sum(), (x, y), create_graph=True)
        seen = _graph(gx), _graph(gy)
        (gg,) = lib.autograd.grad((gx * gy).sum(), x)
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            dual = fwd.make_dual(lib.tensor(X), lib.tensor([1., 2., 3., 4.]))
            tangents = (fwd.unpack_dual(1 - dual).tangent, fwd.unpack_dual(lib.rsub(dual, 2, alpha=3)).tangent,
                        fwd.unpack_dual(lib.rsub(dual, dual * 2)).tangent)
        return seen, gg, tangents
    same(torch, program)
    check_derivatives(lambda lib, x, y: lib.rsub(x, y, alpha=2) * x, X, Y)


# --- division that rounds -------------------------------------------------------------------------

@pytest.mark.parametrize("mode", [None, "trunc", "floor"])
@pytest.mark.parametrize("call", [
    lambda lib, x, y, mode: lib.div(x, y, rounding_mode=mode),
    lambda lib, x, y, mode: x.div(2, rounding_mode=mode),
    lambda lib, x, y, mode: x.divide(y.detach(), rounding_mode=mode),
    lambda lib, x, y, mode: lib.divide(x.detach(), y, rounding_mode=mode),
    lambda lib, x, y, mode: lib.div(x[:, None], y, rounding_mode=mode),
    lambda lib, x, y, mode: lib.div(x, 2.5, rounding_mode=mode),
])
def test_div_rounding_mode(torch, mode, call):
    def program(lib):
        x = lib.tensor(X, requires_grad=True)
        y = lib.tensor(Y, requires_grad=True)
        out = call(lib, x, y, mode)
        seen = _plain(out), _graph(out)
        out.backward(lib.ones_like(out) * 3)
        return seen, x.grad, y.grad
    same(torch, program)


@pytest.mark.parametrize("mode", [None, "trunc", "floor"])
def test_div_rounding_mode_dtypes_and_special_values(torch, mode):
    same(torch, lambda lib: lib.div(lib.tensor([7, -7, 6, -6]), lib.tensor([2, 2, -4, -4]), rounding_mode=mode))
    same(torch, lambda lib: lib.div(lib.tensor([7, -7]), 2, rounding_mode=mode))
    same(torch, lambda lib: lib.div(lib.tensor([7, -7]), 2.5, rounding_mode=mode))
    same(torch, lambda lib: lib.div(lib.tensor([7, -7], dtype=lib.int32), lib.tensor([2, 2], dtype=lib.int8),
                                    rounding_mode=mode))
    same(torch, lambda lib: lib.div(lib.tensor([7, 200], dtype=lib.uint8), 3, rounding_mode=mode))
    same(torch, lambda lib: lib.div(lib.tensor([7, -7]), 0, rounding_mode=mode))
    same(torch, lambda lib: lib.div(lib.tensor([True, False]), lib.tensor([True, True]), rounding_mode=mode))
    same(torch, lambda lib: lib.div(lib.tensor([1., -1., 0., 5., -0.5, 0.5, -1.]),
                                    lib.tensor([0., 0., 0., -0., 2., -2., 1e30]), rounding_mode=mode))
    same(torch, lambda lib: lib.div(lib.tensor([INF, 1., -1., NAN]), lib.tensor([2., INF, INF, 1.]),
                                    rounding_mode=mode))
    same(torch, lambda lib: lib.div(lib.tensor([[1., 2.], [3., 4.]]).t(), lib.tensor([[3.], [-3.]]),
                                    rounding_mode=mode))
    same(torch, lambda lib: lib.div(lib.tensor([5.], dtype=lib.float64), lib.tensor(2.), rounding_mode=mode))


def test_div_rounding_mode_errors(torch):
    same(torch, lambda lib: lib.div(lib.tensor([1.]), lib.tensor([2.]), rounding_mode="round"))
    same(torch, lambda lib: lib.tensor([1.]).div(2, rounding_mode="Floor"))
    same(torch, lambda lib: lib.div(lib.tensor([1.]), lib.tensor([2.]), rounding_mode=3))
    same(torch, lambda lib: lib.div(lib.tensor([1., 2.]), lib.tensor([1., 2., 3.]), rounding_mode="floor"))


@pytest.mark.parametrize("mode", [None, "trunc", "floor"])
def test_div_rounding_mode_in_place(torch, mode):
    def program(lib):
        x = lib.tensor(X, requires_grad=True)
        y = lib.tensor(Y, requires_grad=True)
        a = x.clone()
        same_tensor = a.div_(y, rounding_mode=mode) is a
        seen = _plain(a), _graph(a)
        a.sum().backward()
        b = lib.tensor([7, -7])
        return same_tensor, seen, x.grad, y.grad, b.div_(2, rounding_mode=mode) if mode else b
    same(torch, program)
    same(torch, lambda lib: lib.tensor([7, -7]).div_(2.5, rounding_mode="trunc"))
    same(torch, lambda lib: lib.tensor([7, -7]).div_(2, rounding_mode=None))
    same(torch, lambda lib: lib.tensor([7., -7]).div_(2, rounding_mode="x"))
    same(torch, lambda lib: lib.tensor([7., -7], requires_grad=True).div_(2, rounding_mode="floor"))


@pytest.mark.parametrize("mode", [None, "trunc", "floor"])
def test_div_rounding_mode_second_order_and_forward_mode(torch, mode):
    def program(lib):
        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        y = lib.tensor(Y, dtype=lib.float64, requires_grad=True)
        (gx, gy) = lib.autograd.grad((lib.div(x, y, rounding_mode=mode) * x).sum(), (x, y), create_graph=True)
        seen = _graph(gx), _graph(gy)
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            dual = fwd.make_dual(lib.tensor(X), lib.tensor([1., 2., 3., 4.]))
            tangents = (fwd.unpack_dual(lib.div(dual, lib.tensor(Y), rounding_mode=mode)).tangent,
                        fwd.unpack_dual(lib.div(lib.tensor(Y), dual, rounding_mode=mode)).tangent,
                        fwd.unpack_dual(lib.div(dual, 3, rounding_mode=mode)).tangent)
        return seen, tangents
    same(torch, program)


def test_div_without_rounding_keeps_its_gradient(torch):
    check_derivatives(lambda lib, x, y: lib.div(x, y, rounding_mode=None), X, Y)
    check_derivatives(lambda lib, x: lib.div(x, 3.0, rounding_mode=None), X)


# --- floor_divide, remainder (%), fmod ---------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda lib, x, y: x // y,
    lambda lib, x, y: x // 2,
    lambda lib, x, y: 2.5 // x,
    lambda lib, x, y: lib.floor_divide(x, y.detach()),
    lambda lib, x, y: x % y,
    lambda lib, x, y: x % 2,
    lambda lib, x, y: 2 % x,
    lambda lib, x, y: lib.remainder(2.5, x),
    lambda lib, x, y: x.remainder(-1.5),
    lambda lib, x, y: lib.fmod(x, y),
    lambda lib, x, y: lib.fmod(x, 2),
    lambda lib, x, y: x.fmod(-1.5),
    lambda lib, x, y: x.fmod(y.detach()),
    lambda lib, x, y: lib.fmod(x.detach(), y),
    lambda lib, x, y: lib.fmod(x, lib.tensor(2.)),
    lambda lib, x, y: lib.fmod(x[:, None], y),
    lambda lib, x, y: lib.remainder(x[:, None], y),
])
def test_floor_divide_remainder_fmod(torch, call):
    def program(lib):
        x = lib.tensor(X, requires_grad=True)
        y = lib.tensor(Y, requires_grad=True)
        out = call(lib, x, y)
        seen = _plain(out), _graph(out)
        try:
            out.backward(lib.ones_like(out))
        except RuntimeError as error:           # (// and number % tensor have no derivative)
            return seen, str(error)
        return seen, x.grad, y.grad
    same(torch, program)


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod"])
def test_floor_divide_remainder_fmod_dtypes_and_special_values(torch, name):
    def on(lib, a, b):
        return getattr(lib, name)(a, b)
    same(torch, lambda lib: on(lib, lib.tensor([7, -7, 6, -6]), lib.tensor([2, 2, -4, -4])))
    same(torch, lambda lib: on(lib, lib.tensor([7, -7]), 2.5))
    same(torch, lambda lib: on(lib, lib.tensor([7, -7], dtype=lib.int16), 3))
    same(torch, lambda lib: on(lib, lib.tensor([7, -7]), 0))
    same(torch, lambda lib: on(lib, lib.tensor([True]), lib.tensor([True])))
    same(torch, lambda lib: on(lib, lib.tensor([-3., 3., -0.0, 5., INF, 1.]), lib.tensor([2., -2., 1., 0., 2., INF])))
    same(torch, lambda lib: on(lib, lib.tensor([[1., 2.], [3., 4.]]).t(), lib.tensor([[3.], [-3.]])))
    same(torch, lambda lib: on(lib, [1.], lib.tensor([2.])))


def test_number_first_remainder_and_fmod(torch):
    same(torch, lambda lib: lib.remainder(2, lib.tensor([3, -3])))
    same(torch, lambda lib: lib.remainder(2.5, lib.tensor([3, -3])))
    same(torch, lambda lib: lib.fmod(2, lib.tensor([3., -3.])))
    same(torch, lambda lib: 7 // lib.tensor([2, -2]))
    same(torch, lambda lib: 7 % lib.tensor([2, 0]))


@pytest.mark.parametrize("name", ["floor_divide_", "remainder_", "fmod_", "__ifloordiv__", "__imod__"])
def test_floor_divide_remainder_fmod_in_place(torch, name):
    def program(lib):
        x = lib.tensor(X, requires_grad=True)
        y = lib.tensor(Y, requires_grad=True)
        a = x.clone()
        same_tensor = getattr(a, name)(y) is a
        seen = _plain(a), _graph(a)
        try:
            a.sum().backward()
        except RuntimeError as error:
            return same_tensor, seen, str(error)
        return same_tensor, seen, x.grad, y.grad
    same(torch, program)
    same(torch, lambda lib: getattr(lib.tensor([7, -7]), name)(2))
    same(torch, lambda lib: getattr(lib.tensor([7, -7]), name)(2.5))
    same(torch, lambda lib: getattr(lib.tensor([7., -7.]), name)(lib.tensor([[2.], [3.]])))
    same(torch, lambda lib: getattr(lib.tensor([7., -7.], requires_grad=True), name)(2))


def test_python_operators_in_place(torch):
    def program(lib):
        x = lib.tensor([7., -7., 5.])
        y = x
        y %= 3
        z = lib.tensor([7, -7])
        w = z
        w //= 2
        return x, y is x, z, w is z
    same(torch, program)


@pytest.mark.parametrize("name", ["remainder", "fmod"])
def test_remainder_and_fmod_second_order_and_forward_mode(torch, name):
    def program(lib):
        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        y = lib.tensor(Y, dtype=lib.float64, requires_grad=True)
        out = getattr(lib, name)(x, y)
        (gx, gy) = lib.autograd.grad((out * out).sum(), (x, y), create_graph=True)
        seen = _graph(gx), _graph(gy)
        (gg,) = lib.autograd.grad(gy.sum(), y)
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            dual = fwd.make_dual(lib.tensor(X), lib.tensor([1., 2., 3., 4.]))
            tangents = (fwd.unpack_dual(getattr(lib, name)(dual, lib.tensor(Y))).tangent,
                        fwd.unpack_dual(getattr(lib, name)(lib.tensor(Y), dual)).tangent,
                        fwd.unpack_dual(getattr(lib, name)(dual, 1.5)).tangent)
        return seen, gg, tangents
    same(torch, program)
    check_derivatives(lambda lib, x, y: getattr(lib, name)(x, y), X_BETWEEN_JUMPS, Y)


# --- atan2 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda lib, x, y: lib.atan2(x, y),
    lambda lib, x, y: lib.arctan2(y, x),
    lambda lib, x, y: x.atan2(y.detach()),
    lambda lib, x, y: x.detach().arctan2(y),
    lambda lib, x, y: lib.atan2(x[:, None], y),
    lambda lib, x, y: lib.atan2(x, lib.tensor(2.)),
])
def test_atan2_values_nodes_and_gradients(torch, call):
    same(torch, _of_two_inputs(call))


def test_atan2_dtypes_special_values_and_errors(torch):
    same(torch, lambda lib: lib.atan2(lib.tensor([1, 2]), lib.tensor([3, 4])))
    same(torch, lambda lib: lib.atan2(lib.tensor([1, 2]), lib.tensor([3., 4], dtype=lib.float64)))
    same(torch, lambda lib: lib.atan2(lib.tensor([0., -0., 0., -0., INF, NAN]), lib.tensor([0., 0., -0., -0., INF, 1.])))
    same(torch, lambda lib: lib.atan2(lib.tensor([[1., 2.], [3., 4.]]).t(), lib.tensor([[3.], [-3.]])))
    same(torch, lambda lib: lib.atan2(lib.tensor([1.]), 2))
    same(torch, lambda lib: lib.tensor([1.]).atan2(2.0))
    same(torch, lambda lib: lib.atan2([1.], lib.tensor([1.])))
    same(torch, lambda lib: lib.atan2(lib.tensor([1., 2., 3.]), lib.tensor([1., 2.])))


def test_atan2_at_the_origin_and_in_place(torch):
    def program(lib):
        x = lib.tensor([0., 1e-30, 1.], requires_grad=True)
        y = lib.tensor([0., 1e-30, 0.], requires_grad=True)
        gx, gy = lib.autograd.grad(lib.atan2(x, y).sum(), (x, y), create_graph=True)
        seen = _graph(gx), _graph(gy)
        a = lib.tensor(X, requires_grad=True).clone()
        b = lib.tensor(Y, requires_grad=True)
        same_tensor = a.atan2_(b) is a
        c = lib.tensor(Y)
        c.arctan2_(lib.tensor(X))
        return seen, gx, gy, same_tensor, _plain(a), _graph(a), c
    same(torch, program)
    same(torch, lambda lib: lib.tensor([1, 2]).atan2_(lib.tensor([1., 2.])))
    same(torch, lambda lib: lib.tensor([1.], requires_grad=True).atan2_(lib.tensor([1.])))
    same(torch, lambda lib: lib.tensor([1.]).atan2_(1))


def test_atan2_second_order_and_forward_mode(torch):
    def program(lib):
        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        y = lib.tensor(Y, dtype=lib.float64, requires_grad=True)
        gx, gy = lib.autograd.grad((lib.atan2(x, y) ** 2).sum(), (x, y), create_graph=True)
        seen = _graph(gx), _graph(gy)
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            dual = fwd.make_dual(lib.tensor(X), lib.tensor([1., 2., 3., 4.]))
            tangents = (fwd.unpack_dual(lib.atan2(dual, lib.tensor(Y))).tangent,
                        fwd.unpack_dual(lib.atan2(lib.tensor(Y), dual)).tangent,
                        fwd.unpack_dual(lib.atan2(dual, dual * 2)).tangent)
        return seen, tangents
    same(torch, program)
    check_derivatives(lambda lib, x, y: lib.atan2(x, y), X, Y)


# --- tril and triu ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["tril", "triu"])
@pytest.mark.parametrize("diagonal", [0, 1, -1, 3, -5])
def test_tril_triu(torch, name, diagonal):
    def program(lib):
        m = lib.arange(12.).reshape(3, 4).requires_grad_()
        leaf = lib.tensor(np.arange(24.).reshape(2, 3, 4).tolist(), requires_grad=True)
        outs = (getattr(lib, name)(m, diagonal), getattr(m, name)(diagonal=diagonal),
                getattr(lib, name)(leaf, diagonal), getattr(leaf.transpose(1, 2), name)(diagonal))
        seen = tuple(_plain(out) for out in outs), _graph(outs[3])
        (outs[2] * lib.arange(24.).reshape(2, 3, 4)).sum().backward()
        return seen, leaf.grad
    same(torch, program)


@pytest.mark.parametrize("name", ["tril", "triu"])
def test_tril_triu_dtypes_errors_and_in_place(torch, name):
    same(torch, lambda lib: getattr(lib, name)(lib.ones(3, 3, dtype=lib.int64)))
    same(torch, lambda lib: getattr(lib, name)(lib.ones(3, 3, dtype=lib.bool)))
    same(torch, lambda lib: getattr(lib, name)(lib.ones(3, 0, 2)))
    same(torch, lambda lib: getattr(lib, name)(lib.ones(3)))
    same(torch, lambda lib: getattr(lib, name)(lib.tensor(1.)))
    same(torch, lambda lib: getattr(lib.ones(3, 3), name)(1.5))
    same(torch, lambda lib: getattr(lib.ones(3, 3), name + "_")(None))
    same(torch, lambda lib: getattr(lib, name)([[1.]]))

    def program(lib):
        m = lib.tensor(np.arange(12.).reshape(3, 4).tolist(), requires_grad=True)
        a = m.clone()
        same_tensor = getattr(a, name + "_")(1) is a
        seen = _plain(a), _graph(a)
        a.sum().backward()
        b = lib.ones(3, 3)
        getattr(b, name + "_")(-1)
        return same_tensor, seen, m.grad, b
    same(torch, program)
    same(torch, lambda lib: getattr(lib.ones(2, 2, requires_grad=True), name + "_")())


@pytest.mark.parametrize("name", ["tril", "triu"])
def test_tril_triu_second_order_and_forward_mode(torch, name):
    def program(lib):
        x = lib.tensor(np.arange(1., 7.).reshape(2, 3).tolist(), dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad((getattr(lib, name)(x, 1) ** 2).sum(), x, create_graph=True)
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            dual = fwd.make_dual(lib.ones(3, 3), lib.arange(9.).reshape(3, 3))
            tangent = fwd.unpack_dual(getattr(dual, name)(-1)).tangent
        return _graph(g), g, tangent
    same(torch, program)
    check_derivatives(lambda lib, x: getattr(lib, name)(x, 1) * x, np.arange(1., 13.).reshape(3, 4))


# --- median and nanmedian -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["median", "nanmedian"])
@pytest.mark.parametrize("values", [
    [3., 1., 2., 1., 5., 1.],
    [1., 4., 2., 3.],
    [1., NAN, 2., NAN, 0., 1.],
    [NAN, NAN, NAN, NAN],
    [-0.0, 0.0, 0.0, -0.0, 1.],
    [7.],
])
def test_median_of_all_elements(torch, name, values):
    def program(lib):
        x = lib.tensor(values, requires_grad=True)
        out = getattr(lib, name)(x)
        seen = _plain(out), _graph(out), _plain(getattr(x, name)())
        out.backward()
        return seen, x.grad
    same(torch, program)


@pytest.mark.parametrize("name", ["median", "nanmedian"])
@pytest.mark.parametrize("dim, keepdim", [(1, False), (0, True), (-1, True), (0, False)])
def test_median_along_a_dimension(torch, name, dim, keepdim):
    def program(lib):
        x = lib.tensor([[1., 1., 1., 2., 2., 0.], [5., 3., 3., 1., 5., 3.], [1., NAN, 2., NAN, 0., 1.],
                        [NAN] * 6], requires_grad=True)
        out = getattr(lib, name)(x, dim, keepdim=keepdim)
        seen = _plain(out), _graph(out.values), _plain(getattr(x.t(), name)(dim=dim))
        (out.values * 2).sum().backward()
        return seen, out.indices, x.grad
    same(torch, program)


def test_median_index_among_equal_values_is_pytorchs(torch):
    rng = np.random.default_rng(0)
    for size in list(range(1, 12)) + [31, 64, 101]:
        values = rng.integers(0, 3, size=(20, size)).astype(np.float32)
        values[rng.random(values.shape) < 0.2] = np.nan
        values[0] = np.nan                             # a row of nans only
        for name in ("median", "nanmedian"):
            same(torch, lambda lib: getattr(lib, name)(lib.tensor(values.tolist()), dim=1))
            same(torch, lambda lib: getattr(lib, name)(lib.tensor(values.tolist()), dim=0))


@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_dtypes_shapes_and_errors(torch, name):
    same(torch, lambda lib: getattr(lib, name)(lib.tensor([3, 1, 2, 4])))
    same(torch, lambda lib: getattr(lib, name)(lib.tensor([[3, 1], [2, 4]], dtype=lib.int32), 0))
    same(torch, lambda lib: getattr(lib, name)(lib.tensor([True, False])))
    same(torch, lambda lib: getattr(lib, name)(lib.tensor([])))
    same(torch, lambda lib: getattr(lib, name)(lib.zeros(0, 3), dim=0))
    same(torch, lambda lib: getattr(lib, name)(lib.zeros(0, 3), dim=1))
    same(torch, lambda lib: getattr(lib, name)(lib.tensor(3., requires_grad=True), dim=0))
    same(torch, lambda lib: getattr(lib, name)(lib.tensor(3., requires_grad=True), dim=-1, keepdim=True))
    same(torch, lambda lib: getattr(lib, name)(lib.ones(3), dim=2))
    same(torch, lambda lib: getattr(lib.ones(3), name)(1.5))
    same(torch, lambda lib: getattr(lib, name)(lib.ones(3), keepdim=True))
    same(torch, lambda lib: getattr(lib, name)([1.]))
    same(torch, lambda lib: getattr(lib.tensor([[4., 1.], [2., 3.]]), name)(axis=1))


@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_second_order_and_forward_mode(torch, name):
    def program(lib):
        x = lib.tensor([[1., 2., 2.], [4., 3., 5.]], dtype=lib.float64, requires_grad=True)
        (g_all,) = lib.autograd.grad(getattr(x, name)() ** 2, x, create_graph=True)
        (g_dim,) = lib.autograd.grad((getattr(x, name)(0).values ** 2).sum(), x, create_graph=True)
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            dual = fwd.make_dual(lib.tensor([[1., 2., 2.], [4., 2., 5.]]), lib.arange(6.).reshape(2, 3))
            tangents = (fwd.unpack_dual(getattr(dual, name)()).tangent,
                        fwd.unpack_dual(getattr(dual, name)(1).values).tangent)
        return _graph(g_all), _graph(g_dim), g_all, g_dim, tangents
    same(torch, program)
    check_derivatives(lambda lib, x: getattr(x, name)(1).values * 2, [[1., 2., 3.], [6., 5., 4.]])
    check_derivatives(lambda lib, x: getattr(x, name)(), [[1., 2., 3.], [6., 5., 4.]])


# --- masked_select ----------------------------------------------------------------------------------

MASK = [[True, False, True], [False, True, True]]


@pytest.mark.parametrize("call", [
    lambda lib, x, mask: lib.masked_select(x, mask),
    lambda lib, x, mask: x.masked_select(mask[0]),
    lambda lib, x, mask: lib.masked_select(x[0], mask),
    lambda lib, x, mask: lib.masked_select(x.t(), mask.t()),
    lambda lib, x, mask: lib.masked_select(x[:1], mask[:, None, :]),
    lambda lib, x, mask: lib.masked_select(x, lib.zeros(2, 3, dtype=lib.bool)),
    lambda lib, x, mask: lib.masked_select(x.sum(), mask),
])
def test_masked_select(torch, call):
    def program(lib):
        x = lib.tensor(np.arange(6.).reshape(2, 3).tolist(), requires_grad=True)
        mask = lib.tensor(MASK)
        out = call(lib, x, mask)
        seen = _plain(out), _graph(out)
        (out * lib.arange(float(out.numel()))).sum().backward()
        return seen, x.grad
    same(torch, program)


def test_masked_select_dtypes_and_errors(torch):
    same(torch, lambda lib: lib.masked_select(lib.tensor([1, 2, 3]), lib.tensor([True, False, True])))
    same(torch, lambda lib: lib.masked_select(lib.tensor(1.), lib.tensor(True)))
    same(torch, lambda lib: lib.masked_select(lib.ones(2, 3), lib.tensor(MASK).to(lib.uint8)))
    same(torch, lambda lib: lib.masked_select(lib.ones(2, 3), lib.tensor(MASK).float()))
    same(torch, lambda lib: lib.masked_select(lib.ones(2, 3), lib.tensor([True, False])))
    same(torch, lambda lib: lib.masked_select(lib.ones(2, 3), [True, False, True]))
    same(torch, lambda lib: lib.ones(2, 3).masked_select([True]))


def test_masked_select_second_order_and_forward_mode(torch):
    def program(lib):
        x = lib.tensor([1., 2., 3.], dtype=lib.float64, requires_grad=True)
        mask = lib.tensor(MASK)
        (g,) = lib.autograd.grad((lib.masked_select(x, mask) ** 2).sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad((g ** 2).sum(), x)
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            dual = fwd.make_dual(lib.tensor([1., 2., 3.]), lib.tensor([4., 5., 6.]))
            tangent = fwd.unpack_dual(dual.masked_select(mask)).tangent
        return _graph(g), g, gg, tangent
    same(torch, program)
    check_derivatives(lambda lib, x: lib.masked_select(x, lib.tensor(MASK)) ** 2, [1., 2., 3.])


# --- nansum and count_nonzero -----------------------------------------------------------------------

WITH_NANS = [[1., NAN, 2.], [NAN, NAN, NAN], [3., 4., -0.0]]


@pytest.mark.parametrize("arguments", [{}, {"dim": 1}, {"dim": 0, "keepdim": True}, {"dim": (0, 1)},
                                       {"dim": ()}, {"dim": -1}, {"dim": None}, {"axis": 0},
                                       {"dim": [1], "keepdim": True}, {"keepdim": True}])
def test_nansum(torch, arguments):
    def program(lib):
        x = lib.tensor(WITH_NANS, requires_grad=True)
        out = lib.nansum(x, **arguments)
        seen = _plain(out), _graph(out), _plain(x.t().nansum(**arguments))
        (out * 3).sum().backward()
        return seen, x.grad
    same(torch, program)


def test_nansum_dtypes_and_errors(torch):
    same(torch, lambda lib: lib.nansum(lib.tensor([1, 2])))
    same(torch, lambda lib: lib.nansum(lib.tensor([True, True])))
    same(torch, lambda lib: lib.nansum(lib.tensor([[1, 2]], dtype=lib.int32), 1))
    same(torch, lambda lib: lib.nansum(lib.tensor([1., NAN]), dtype=lib.float64))
    same(torch, lambda lib: lib.nansum(lib.tensor([])))
    same(torch, lambda lib: lib.nansum(lib.ones(2), dim=1.5))
    same(torch, lambda lib: lib.nansum(lib.ones(2), dim=3))
    same(torch, lambda lib: lib.nansum(lib.ones(2, 2), dim=(0, 0)))
    same(torch, lambda lib: lib.nansum([1.]))


def test_nansum_second_order_and_forward_mode(torch):
    def program(lib):
        x = lib.tensor(WITH_NANS, dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad((lib.nansum(x, 1) ** 2).sum(), x, create_graph=True)
        (g_all,) = lib.autograd.grad(lib.nansum(x) ** 2, x, create_graph=True)
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            dual = fwd.make_dual(lib.tensor(WITH_NANS), lib.arange(9.).reshape(3, 3))
            tangents = fwd.unpack_dual(dual.nansum()).tangent, fwd.unpack_dual(dual.nansum(0)).tangent
        return _graph(g), _graph(g_all), g, g_all, tangents
    same(torch, program)
    check_derivatives(lambda lib, x: lib.nansum(x * x, 1), [[1., 2., 3.], [4., 5., 6.]])


@pytest.mark.parametrize("arguments", [(), (0,), (1,), ((0, 1),), ([1, 0],), (-1,), (None,)])
def test_count_nonzero(torch, arguments):
    def program(lib):
        x = lib.tensor([[0., 1., NAN], [0., 0., -0.0]], requires_grad=True)
        return (lib.count_nonzero(x, *arguments), x.count_nonzero(*arguments),
                lib.count_nonzero(x.t(), *arguments))
    same(torch, program)


def test_count_nonzero_dtypes_and_errors(torch):
    same(torch, lambda lib: lib.tensor([True, False]).count_nonzero())
    same(torch, lambda lib: lib.tensor([[1, 0], [2, 0]]).count_nonzero(0))
    same(torch, lambda lib: lib.count_nonzero(lib.tensor(3.), dim=0))
    same(torch, lambda lib: lib.count_nonzero(lib.ones(2, 2), dim=3))
    same(torch, lambda lib: lib.count_nonzero(lib.ones(2, 2), dim=(0, 0)))
    same(torch, lambda lib: lib.count_nonzero([1, 2]))


# --- torch.Tensor(...): PyTorch's legacy constructor ---------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda lib: lib.Tensor([1, 2]),
    lambda lib: lib.Tensor((1., 2.)),
    lambda lib: lib.Tensor([[1, 2], [3, 4]]),
    lambda lib: lib.Tensor(np.array([1, 2])),
    lambda lib: lib.Tensor(np.array([1.5], dtype=np.float64)),
    lambda lib: lib.Tensor([lib.tensor(1.), lib.tensor(2.)]),
    lambda lib: lib.Tensor([]),
    lambda lib: lib.Tensor(),
    lambda lib: lib.Tensor(2, 3).zero_(),
    lambda lib: lib.Tensor(lib.Size([2])).zero_(),
    lambda lib: lib.Tensor(0),
    lambda lib: lib.Tensor([1, 2], device="cpu"),
    lambda lib: lib.Tensor(3.0),
    lambda lib: lib.Tensor(True),
    lambda lib: lib.Tensor(None),
    lambda lib: lib.Tensor("ab"),
    lambda lib: lib.Tensor(-1),
    lambda lib: lib.Tensor(2, -1),
    lambda lib: lib.Tensor(2, 3.0),
    lambda lib: lib.Tensor([[1], [2, 3]]),
    lambda lib: lib.Tensor([1], dtype=lib.float64),
    lambda lib: lib.Tensor([1], requires_grad=True),
    lambda lib: lib.Tensor(lib.tensor([1.]), 2),
])
def test_legacy_constructor(torch, call):
    same(torch, call)


@pytest.mark.parametrize("data", [[1, 2], [1., 2.], [True, False], 3, 2.5])
@pytest.mark.parametrize("dtype", [None, "float64", "int32", "uint8"])
def test_legacy_constructor_of_a_tensor_is_an_alias(torch, data, dtype):
    """Tensor(x) keeps x's dtype (an int64 x gives int64, not float32) and shares its memory."""
    def program(lib):
        x = lib.tensor(data) if dtype is None else lib.tensor(data, dtype=getattr(lib, dtype))
        y = lib.Tensor(x)
        seen = _plain(y), y is x, y._base is x
        y.add_(1)
        return seen, x, x._version, y._version
    same(torch, program)


def test_legacy_constructor_of_a_tensor_that_requires_grad(torch):
    def program(lib):
        leaf = lib.tensor([1., 2.], requires_grad=True)
        y = lib.Tensor(leaf)
        z = lib.Tensor(leaf * 2)
        (y * z).sum().backward()
        with lib.no_grad():
            w = lib.Tensor(leaf)
        return _plain(y), _graph(y), _plain(z), _graph(z), y.is_leaf, leaf.grad, _plain(w)
    same(torch, program)


def test_arguments_that_match_no_signature(torch):
    """These functions have several signatures: PyTorch's TypeError lists them."""
    x = [1., 2.]
    same(torch, lambda lib: lib.floor_divide(7, lib.tensor(x)))
    same(torch, lambda lib: lib.remainder(2, 3))
    for name in ("remainder", "fmod", "rsub", "floor_divide"):
        same(torch, lambda lib: getattr(lib, name)(lib.tensor(x), "a"))
    same(torch, lambda lib: lib.tensor(x).fmod("a"))
    same(torch, lambda lib: lib.tensor(x).remainder("a"))
    same(torch, lambda lib: lib.median(lib.tensor(x), dim=None))
    same(torch, lambda lib: lib.median(lib.tensor(x), 0, True))
    same(torch, lambda lib: lib.count_nonzero(lib.tensor(x), dim=1.5))
    same(torch, lambda lib: lib.tensor(x).masked_select(lib.tensor([True])).shape)


TENSOR_CLASSES = ["FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor",
                  "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor"]


@pytest.mark.parametrize("name", TENSOR_CLASSES)
def test_typed_tensor_classes(torch, name):
    def make(lib):
        return getattr(lib, name)
    same(torch, lambda lib: make(lib)([1, 0, 2]))
    same(torch, lambda lib: make(lib)([[1.7, -2.5]]) if name != "ByteTensor" else make(lib)([[1.7, 2.5]]))
    same(torch, lambda lib: make(lib)(np.array([1, 2])))
    same(torch, lambda lib: make(lib)(2, 3).zero_())
    same(torch, lambda lib: make(lib)())
    same(torch, lambda lib: make(lib)(3.0))
    same(torch, lambda lib: make(lib)(-1))
    same(torch, lambda lib: make(lib)([1], dtype=lib.float64))
    same(torch, lambda lib: (str(make(lib).dtype).split(".")[1], make(lib).__name__,
                             repr(make(lib)).replace("minigrad", "torch")))
    same(torch, lambda lib: [isinstance(lib.zeros(1, dtype=d), make(lib)) for d in
                             (lib.float32, lib.float64, lib.int64, lib.bool)])
    same(torch, lambda lib: isinstance(make(lib)([1]), lib.Tensor))

    def of_a_tensor(lib):
        x = lib.zeros(2, dtype=make(lib).dtype)
        y = make(lib)(x)
        return _plain(y), y is x, y._base is x, make(lib)(lib.ones(2, dtype=lib.float64 if name != "DoubleTensor"
                                                                    else lib.float32))
    same(torch, of_a_tensor)


def test_typed_tensor_classes_with_type_and_gradients(torch):
    def program(lib):
        x = lib.tensor([1.5, -2.0], requires_grad=True)
        y = lib.FloatTensor(x)
        (y * 2).sum().backward()
        return (_plain(y), _graph(y), x.grad, x.type().split(".")[1], x.type(lib.LongTensor),
                x.detach().type(lib.DoubleTensor), lib.LongTensor([3, 1]).type().split(".")[1])
    same(torch, program)


@pytest.mark.parametrize("name", ["tril_", "triu_"])
@pytest.mark.parametrize("diagonal", [0, 1, -1, 5])
def test_tril_triu_in_place_of_an_expanded_tensor(torch, name, diagonal):
    """PyTorch's kernel writes only the zeros: where elements share memory, all see the zero."""
    def program(lib):
        base = lib.arange(4.).reshape(2, 1, 2)
        a = lib.tensor([5.]).expand(2, 3)
        b = lib.arange(3.)[:, None].expand(3, 3)
        c = base.expand(2, 3, 2)
        return getattr(a, name)(diagonal), getattr(b, name)(diagonal), getattr(c, name)(diagonal), base
    same(torch, program)


@pytest.mark.parametrize("call", [
    lambda x, other: x.atan2_(other),
    lambda x, other: x.fmod_(other),
    lambda x, other: x.remainder_(other),
    lambda x, other: x.floor_divide_(other),
    lambda x, other: x.div_(other, rounding_mode="floor"),
    lambda x, other: x.div_(other, rounding_mode="trunc"),
    lambda x, other: x.div_(other, rounding_mode=None),
])
@pytest.mark.parametrize("part", ["first", "itself", "transposed"])
def test_in_place_with_its_own_memory(torch, call, part):
    """x.fmod_(x[0]) is refused (a partial overlap); x.fmod_(x.t()) reads what it wrote."""
    def program(lib):
        x = lib.tensor([[1.5, 2.], [3., -4.]])
        other = {"first": x[0, 0], "itself": x, "transposed": x.t()}[part]
        return call(x, other), x
    same(torch, program)


@pytest.mark.parametrize("function", [
    lambda lib, x: x.median(0).values,
    lambda lib, x: x.nanmedian(),
    lambda lib, x: x.tril(),
    lambda lib, x: x.nansum(1),
    lambda lib, x: x.count_nonzero(),
    lambda lib, x: lib.atan2(x, x.flip(0)),
    lambda lib, x: x.fmod(2) + lib.div(x, 2, rounding_mode="floor") + lib.rsub(x, 1),
    lambda lib, x: lib.Tensor(x),
    lambda lib, x: x.masked_select(lib.tensor([True, False, True])),
    lambda lib, x: x.masked_select(x > 1),
])
def test_inside_vmap(torch, function):
    def program(lib):
        batch = lib.tensor([[[3., 1., 2.], [0., 5., 4.]], [[1., 1., 9.], [2., -1., 0.]]])
        return lib.vmap(lambda x: function(lib, x))(batch)
    same(torch, program)


@pytest.mark.parametrize("function", [
    lambda lib, d: d // 2,
    lambda lib, d: 2 % d,
    lambda lib, d: d.clone().floor_divide_(2),
    lambda lib, d: d.masked_select(d > 0),
    lambda lib, d: d.median(),
    lambda lib, d: d.reshape(1, 3).nanmedian(1).values,
    lambda lib, d: d.reshape(1, 3).clone().tril_(),
    lambda lib, d: d.clone().fmod_(2),
    lambda lib, d: d.clone().atan2_(lib.ones(3)),
    lambda lib, d: lib.Tensor(d),
    lambda lib, d: d.log().nansum(),
    lambda lib, d: lib.rsub(d, d * 2, alpha=3),
    lambda lib, d: lib.div(d, d + 5, rounding_mode="floor"),
])
def test_forward_mode(torch, function):
    def program(lib):
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            dual = fwd.make_dual(lib.tensor([1.5, -2.5, 3.]), lib.tensor([1., 2., 3.]))
            return fwd.unpack_dual(function(lib, dual)).tangent
    same(torch, program)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.tril(x, 1.5),
    lambda lib, x: lib.tril(x, diagonal=1.5),
    lambda lib, x: lib.triu(x, None),
    lambda lib, x: lib.tril(x, True),
    lambda lib, x: lib.tril(x, lib.tensor(1)),
    lambda lib, x: x.triu(lib.tensor([-1])),
    lambda lib, x: lib.median(x, 1.5),
    lambda lib, x: lib.median(x, dim=1.5),
    lambda lib, x: lib.nanmedian(x, dim=None),
    lambda lib, x: lib.median(x, True),
    lambda lib, x: lib.median(x, lib.tensor(1)),
])
def test_int_arguments(torch, call):
    same(torch, lambda lib: call(lib, lib.arange(9.).reshape(3, 3)))
