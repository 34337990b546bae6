"""More operations code from PyTorch's tutorials uses, compared with PyTorch: rsub, division that
rounds (div's rounding_mode, floor_divide, remainder, fmod and their in-place forms), atan2,
tril/triu, median/nanmedian, masked_select, nansum, count_nonzero and torch.Tensor(...).

Each program runs in minigrad and in PyTorch and must give the same values, dtypes, strides,
node names, edges (next_functions), saved values (grad_fn._saved_*), gradients, warnings and
errors (class and text). Gradients are also checked with finite differences (gradcheck and
gradgradcheck, in float64)."""
import re
import warnings

import numpy as np
import pytest

import minigrad

NAN, INF = float("nan"), float("inf")

# attributes of minigrad's nodes that PyTorch's nodes do not list (how minigrad keeps them)
_OWN_NODE_ATTRIBUTES = {"_saved", "_saved_names", "_saved_value", "_saved_versions"}


def _rounded(values):
    """Numbers to 6 significant digits (the libraries' atan2, ... may differ in the last bit)."""
    if isinstance(values, list):
        return [_rounded(v) for v in values]
    return float(f"{values:.6g}") if isinstance(values, float) else values


def _plain(value):
    """What a learner sees of one result, in a form both libraries compare on."""
    if hasattr(value, "grad_fn") and hasattr(value, "tolist"):
        grad_fn = value.grad_fn
        return ("tensor", repr(_rounded(value.tolist())), str(value.dtype).split(".")[-1],
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


def _saved(node):
    """A node's ``_saved_*`` attributes (names and values), as ``dir()`` lists them."""
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


def outcome(lib, program):
    """The result of ``program(lib)`` (or its exception's class and message) and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = _plain(program(lib))
        except Exception as error:       # the class and the text, word for word
            message = str(error).split("\nminigrad hint:")[0]     # (minigrad names its own module)
            message = re.sub(r"\bminigrad\.(\w*Tensor|Size|return_types)\b", r"torch.\1", message)
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
    def program(lib):
        x = lib.tensor(X, requires_grad=True)
        y = lib.tensor(Y, requires_grad=True)
        out = call(lib, x, y)
        seen = _plain(out), _graph(out)
        out.backward(lib.ones_like(out))
        return seen, x.grad, y.grad
    same(torch, program)


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
