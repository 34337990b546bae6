"""requires_grad_(False) and its neighbours, compared with PyTorch program by program.

A view made under no_grad asks its base for requires_grad each time; a leaf that stopped
requiring grad keeps its .grad through backward (its hooks still run); autograd.grad of a
lone output that leads to no input still runs that output's tensor hooks; index_add_ from
a view of self's own memory reads what it already wrote, in PyTorch's order. Each program
runs in both libraries and must give the same values, flags, node names, hook calls, and
exception classes with PyTorch's message text.
"""
import warnings

import numpy as np
import pytest

import minigrad


def _seen(value):
    """What a learner sees of one result, in a form both libraries compare on."""
    if hasattr(value, "requires_grad") and hasattr(value, "tolist"):
        try:
            grad_fn = value.grad_fn
            name = None if grad_fn is None else grad_fn.name().split("::")[-1]
        except RuntimeError as error:          # a view whose history was lost
            name = ("RuntimeError", str(error))
        return ("tensor", value.tolist(), value.requires_grad, value.is_leaf if name is None
                or isinstance(name, str) else None, name)
    if isinstance(value, (tuple, list)):
        return tuple(_seen(item) for item in value)
    return value


def outcome(lib, program):
    """What ``program(lib)`` returns (or the exception's class and first line of text)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _seen(program(lib))
        except Exception as error:     # PyTorch's words (minigrad may add a hint line after them)
            message = str(error).split("\nminigrad hint:")[0]
            return (type(error).__name__, message)


def same(torch, program):
    ours, theirs = outcome(minigrad, program), outcome(torch, program)
    assert ours == theirs, f"\nminigrad: {ours}\ntorch:    {theirs}"
    return theirs


def attempt(step):
    """``step()``'s result, or its exception's class and text (to go on after it)."""
    try:
        return _seen(step())
    except Exception as error:
        return (type(error).__name__, str(error).split("\nminigrad hint:")[0])


def _leaf(L, n=3, requires_grad=True):
    return L.tensor(np.arange(1.0, n + 1), requires_grad=requires_grad)


# --- a view made under no_grad asks its base ------------------------------------------------------

def no_grad_view_follows_base(L):
    x = _leaf(L)
    with L.no_grad():
        v = x[:2]
        w = v[0]
    seen = [v.requires_grad, w.requires_grad, v.is_leaf]
    x.requires_grad_(False)
    seen += [v.requires_grad, w.requires_grad, v.grad_fn]
    x.requires_grad_(True)
    seen += [v.requires_grad, w.requires_grad]
    return seen


def no_grad_view_requires_grad_set_on_view(L):
    x = _leaf(L)
    with L.no_grad():
        v = x[:2]
    x.requires_grad_(False)
    v.requires_grad_(True)             # the view's own flag: it stays when the base changes
    seen = [v.requires_grad, x.requires_grad]
    x.requires_grad_(True)
    seen.append(v.requires_grad)
    x.requires_grad_(False)
    seen.append(v.requires_grad)
    return seen


def no_grad_view_requires_grad_false_on_view(L):
    x = _leaf(L)
    with L.no_grad():
        v = x[:2]
    v.requires_grad_(False)            # the base still requires grad: so does the view
    seen = [v.requires_grad]
    x.requires_grad_(False)
    seen.append(v.requires_grad)
    x.requires_grad_(True)
    seen.append(v.requires_grad)
    return seen


def recorded_view_of_no_grad_view(L):
    x = _leaf(L)
    with L.no_grad():
        v = x[:2]
    u = v[0]
    x.requires_grad_(False)
    return u, v.requires_grad


def recorded_view_keeps_its_node(L):
    x = _leaf(L)
    v = x[:2]
    x.requires_grad_(False)
    return v


def view_of_plain_tensor_then_base_requires_grad(L):
    x = _leaf(L, requires_grad=False)
    with L.no_grad():
        v = x[:2]
    x.requires_grad_(True)
    y = v * 2
    seen = [v.requires_grad, v.grad_fn, y]
    x.requires_grad_(False)
    seen.append(v.requires_grad)
    return seen


def operations_on_view_after_base_stops(L):
    x = _leaf(L)
    with L.no_grad():
        v = x[:2]
    x.requires_grad_(False)
    return v + 1, attempt(v.retain_grad), attempt(lambda: v.register_hook(print))


def view_of_non_leaf_under_no_grad(L):
    a = _leaf(L)
    b = a * 2
    with L.no_grad():
        v = b[:2]
    return v, attempt(lambda: b.requires_grad_(False)), v.requires_grad


# --- a no_grad view whose base changed in place ------------------------------------------------

def changed_base_then_requires_grad_false(L):
    x = _leaf(L)
    with L.no_grad():
        v = x[:2]
        x.mul_(2)
    seen = [attempt(lambda: v.grad_fn)]
    x.requires_grad_(False)
    seen += [v, attempt(lambda: v.grad_fn)]
    x.requires_grad_(True)             # the history is lost again
    seen += [attempt(lambda: v.grad_fn), attempt(lambda: v.is_leaf)]
    return seen


def changed_base_then_view_changed_without_grad(L):
    x = _leaf(L)
    with L.no_grad():
        v = x[:2]
        x.mul_(2)
    x.requires_grad_(False)
    v.add_(1)                          # nothing requires grad: allowed, nothing recorded
    seen = [v, x]
    x.requires_grad_(True)
    seen.append(attempt(lambda: v.grad_fn))
    return seen


def plain_base_changed_then_requires_grad(L):
    x = _leaf(L, requires_grad=False)
    with L.no_grad():
        v = x[:2]
    x.mul_(2)
    seen = [v.grad_fn]
    x.requires_grad_(True)
    seen.append(attempt(lambda: v.grad_fn))
    return seen


def recorded_view_base_changed_then_requires_grad_false(L):
    x = _leaf(L)
    v = x[:2]
    with L.no_grad():
        x.mul_(2)
    x.requires_grad_(False)
    return v


class MarkDirty:
    """A custom Function that changes its input in place and says so."""

    @staticmethod
    def make(L):
        class Double(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.mul_(2)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad * 2
        return Double


def dirty_no_grad_view(L):
    x = _leaf(L)
    with L.no_grad():
        v = x[:2]
    return MarkDirty.make(L).apply(v)


def dirty_view_whose_base_came_to_require_grad(L):
    x = _leaf(L, requires_grad=False)
    v = x[:2]
    x.requires_grad_(True)
    return MarkDirty.make(L).apply(v)


def dirty_no_grad_view_of_base_that_stopped(L):
    x = _leaf(L)
    with L.no_grad():
        v = x[:2]
    x.requires_grad_(False)
    return MarkDirty.make(L).apply(v)


# --- a leaf that stopped requiring grad: backward leaves its .grad alone ---------------------------

def _watched_leaf(L, calls):
    x = _leaf(L)
    x.register_hook(lambda g: calls.append(("hook", g.tolist())))
    x.register_post_accumulate_grad_hook(
        lambda t: calls.append(("post", None if t.grad is None else t.grad.tolist())))
    return x


def stopped_leaf_backward(L):
    calls = []
    x = _watched_leaf(L, calls)
    y = (x * 2).sum()
    x.requires_grad_(False)
    seen = [attempt(lambda: y.backward(retain_graph=True)), x.grad]
    x.grad = L.full((3,), 5.0, dtype=L.float64)
    seen += [attempt(lambda: y.backward(retain_graph=True)), x.grad.tolist()]
    x.requires_grad_(True)             # requiring grad again: gradients add up again
    seen += [attempt(lambda: y.backward(retain_graph=True)), x.grad.tolist()]
    return seen, calls


def stopped_leaf_grad_and_inputs(L):
    x = _leaf(L)
    y = (x * 2).sum()
    x.requires_grad_(False)
    return (attempt(lambda: L.autograd.grad(y, [x], retain_graph=True)),
            attempt(lambda: y.backward(inputs=[x], retain_graph=True)), x.grad,
            attempt(lambda: x.register_hook(print)),
            attempt(lambda: x.register_post_accumulate_grad_hook(print)))


def stopped_leaf_next_to_another(L):
    w = _leaf(L)
    x = L.ones(2, dtype=L.float64, requires_grad=True)
    y = (x * w[:2]).sum()
    x.requires_grad_(False)
    y.backward()
    return x.grad, w.grad


def stopped_leaf_hook_returns_new_gradient(L):
    calls = []
    x = _leaf(L)
    x.register_hook(lambda g: calls.append(g.tolist()) or g * 10)
    y = (x * 2).sum()
    x.requires_grad_(False)
    y.backward()
    return x.grad, calls


def stopped_leaf_create_graph(L):
    x = _leaf(L)
    y = (x ** 2).sum()
    x.requires_grad_(False)
    y.backward(create_graph=True)
    return x.grad


def stopped_leaf_toggled_back(L):
    x = _leaf(L)
    y = x.exp().sum()
    x.requires_grad_(False)
    x.requires_grad_(True)
    y.backward()
    return x.grad


def stopped_base_of_recorded_view(L):
    x = _leaf(L)
    v = x[:2]
    y = (v * 2).sum()
    x.requires_grad_(False)
    y.backward()
    return x.grad, v.requires_grad


def graph_made_before_leaf_required_grad(L):
    x = _leaf(L, requires_grad=False)
    y = (x * 2).sum()
    x.requires_grad_(True)
    return y.requires_grad, attempt(y.backward), x.grad


def stopped_leaf_no_grad_view_set_by_user(L):
    x = _leaf(L, requires_grad=False)
    with L.no_grad():
        v = x[:2]
    v.requires_grad_(True)             # a no_grad view that requires grad itself gets a .grad
    y = (v * 3).sum()
    y.backward(retain_graph=True)
    seen = [v.grad]
    v.requires_grad_(False)
    y.backward()
    seen.append(v.grad)
    return seen


def stopped_leaf_retains_grad_of_result(L):
    x = _leaf(L)
    h = x * 2
    h.retain_grad()
    x.requires_grad_(False)
    h.sum().backward()
    return h.grad, x.grad


# --- autograd.grad of a lone output that leads to no input: its tensor hooks run ------------------

def _hooked(calls, name, change=None):
    def hook(grad):
        calls.append((name, grad.tolist()))
        return None if change is None else change(grad)
    return hook


def grad_output_that_requires_grad(L):
    """Without create_graph, a grad_output that requires grad is used as it is (not detached):
    what a view's backward makes of it is a view of it, made without recording, so it requires
    grad through its base, as in PyTorch."""
    seen = []
    for make in ("permute", "view", "t", "expand", "select", "mul", "sum", "clone"):
        calls = []
        x = L.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        y = {"permute": lambda: x.permute(1, 0), "view": lambda: x.view(4), "t": lambda: x.t(),
             "expand": lambda: x[0].expand(2, 2), "select": lambda: x[0], "mul": lambda: x * 2,
             "sum": lambda: x.sum(0), "clone": lambda: x.clone()}[make]()
        given = L.ones(tuple(y.shape)).requires_grad_()
        y.register_hook(lambda g: calls.append((g.requires_grad, g.is_leaf)))
        y.retain_grad()
        (g,) = L.autograd.grad([y], [x], grad_outputs=[given], retain_graph=True)
        y.backward(given)
        seen.append((make, _seen(g), g is given, _seen(x.grad), _seen(y.grad), calls))
    with L.no_grad():
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = x.permute(0)
    with L.no_grad():
        (g,) = L.autograd.grad([v], [x], grad_outputs=[x], retain_graph=True)
    seen.append(_seen(g))
    return seen


def unused_leaf_output_hooks(L):
    calls = []
    x = L.tensor(2.0, requires_grad=True)
    other = L.tensor(3.0, requires_grad=True)
    x.register_hook(_hooked(calls, "x", lambda g: g * 2))
    x.register_post_accumulate_grad_hook(lambda t: calls.append(("post",)))
    given = L.tensor(5.0)
    seen = [L.autograd.grad([x], [other], grad_outputs=[given], allow_unused=True), x.grad]
    seen.append(attempt(lambda: L.autograd.grad([x], [other], grad_outputs=[given])))
    seen.append(L.autograd.grad([x], [x, other], grad_outputs=[given], allow_unused=True))
    return seen, calls


def unused_non_leaf_output_hooks_and_retain_grad(L):
    calls = []
    a = L.tensor(4.0, requires_grad=True)
    other = L.tensor(3.0, requires_grad=True)
    d = a * 2
    d.register_hook(_hooked(calls, "d"))
    d.retain_grad()
    d.grad_fn.register_prehook(lambda grads: calls.append(("node pre-hook",)))
    result = L.autograd.grad([d], [other], grad_outputs=[L.tensor(7.0)], allow_unused=True)
    return result, d.grad, calls


def unused_output_backward_inputs(L):
    calls = []
    a = L.tensor(4.0, requires_grad=True)
    other = L.tensor(3.0, requires_grad=True)
    d = a * 3
    d.register_hook(_hooked(calls, "d"))
    d.backward(L.tensor(1.0), inputs=[other])
    return other.grad, a.grad, calls


def several_outputs_none_used(L):
    calls = []
    x = L.tensor(2.0, requires_grad=True)
    a = L.tensor(4.0, requires_grad=True)
    other = L.tensor(3.0, requires_grad=True)
    d = a * 2
    x.register_hook(_hooked(calls, "x"))
    d.register_hook(_hooked(calls, "d"))
    ones = [L.tensor(1.0), L.tensor(1.0)]
    return L.autograd.grad([x, d], [other], grad_outputs=ones, allow_unused=True), calls


def unused_branch_hooks_stay_quiet(L):
    calls = []
    a = L.tensor(2.0, requires_grad=True)
    b = L.tensor(3.0, requires_grad=True)
    c = b * 2
    c.register_hook(_hooked(calls, "c"))
    e = c.sin()
    e.register_hook(_hooked(calls, "e"))
    y = a * 3 + e
    first = L.autograd.grad(y, [a], retain_graph=True)
    second = L.autograd.grad([c, y], [a], grad_outputs=[L.tensor(1.0), L.tensor(1.0)])
    return first, second, calls


def unused_output_hook_changes_dtype(L):
    x = L.tensor(2.0, requires_grad=True)
    other = L.tensor(3.0, requires_grad=True)
    x.register_hook(lambda g: g.double())
    return L.autograd.grad([x], [other], grad_outputs=[L.tensor(1.0)], allow_unused=True)


def unused_output_hook_changes_size(L):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    other = L.tensor(3.0, requires_grad=True)
    x.register_hook(lambda g: g.sum())
    return L.autograd.grad([x], [other], grad_outputs=[L.ones(2)], allow_unused=True)


def unused_scalar_output_implicit_gradient(L):
    calls = []
    x = L.tensor(2.0, requires_grad=True)
    other = L.tensor(3.0, requires_grad=True)
    x.register_hook(_hooked(calls, "x"))
    return L.autograd.grad([x], [other], allow_unused=True), calls


# --- index_add_ from a view of self's own memory -------------------------------------------------

def _index_add(shape, dim, positions, source_of, alpha=1):
    def program(L):
        x = L.tensor(np.arange(1.0, 1 + int(np.prod(shape))).reshape(shape))
        result = x.index_add_(dim, L.tensor(positions), source_of(x), alpha=alpha)
        return result is x, x
    return program


INDEX_ADD = {
    "expanded first element, dim 0 (as scatter_add_)":
        _index_add((2, 1, 3), 0, [0], lambda x: x.reshape(-1)[:1].reshape(1, 1, 1).expand(1, 1, 3)),
    "expanded element of a matrix": _index_add((3, 3), 0, [0], lambda x: x[0:1, 0:1].expand(1, 3)),
    "expanded element, alpha 2 (slice after slice)":
        _index_add((3, 3), 0, [0], lambda x: x[0:1, 0:1].expand(1, 3), alpha=2),
    "expanded element, middle dim (slice after slice)":
        _index_add((2, 3, 2), 1, [1, 1], lambda x: x[:, :1, :1].expand(2, 2, 2)),
    "every other row": _index_add((3, 3), 0, [2, 1], lambda x: x[::2]),
    "every other row, alpha -1": _index_add((3, 3), 0, [2, 0], lambda x: x[::2], alpha=-1),
    "a column, along the last dim": _index_add((3, 3), 1, [1, 2], lambda x: x[:, 0:2]),
    "a row expanded twice": _index_add((3, 3), 0, [1, 2], lambda x: x[0:1].expand(2, 3)),
    "the same row twice": _index_add((3, 3), 0, [0, 0], lambda x: x[0:1].expand(2, 3)),
    "a column expanded, last dim": _index_add((3, 3), 1, [0, 0], lambda x: x[:, 0:1].expand(3, 2)),
    "a column transposed": _index_add((3, 3), 0, [0], lambda x: x[:, 0:1].t()),
    "an element expanded along the last dim": _index_add((2, 3), 1, [1, 2],
                                                         lambda x: x[:, 0:1].expand(2, 2)),
    "the diagonal": _index_add((3, 3), 0, [1], lambda x: x.diagonal().reshape(1, 3)),
    "a vector's first element expanded": _index_add((4,), 0, [1, 2, 3], lambda x: x[0:1].expand(3)),
    "long rows of one element expanded": _index_add((2, 20), 0, [0],
                                                    lambda x: x[0:1, 0:1].expand(1, 20)),
    "long columns, dim 1": _index_add((20, 2), 1, [0], lambda x: x[0:1, 0:1].expand(20, 1)),
    # refused by PyTorch: a dense source over self's memory, or slice 0 over another layout
    "rows of self (dense)": _index_add((3, 3), 0, [1, 2], lambda x: x[0:2]),
    "self transposed (dense)": _index_add((3, 3), 0, [0, 1, 2], lambda x: x.t()),
    "a vector's own elements (dense)": _index_add((4,), 0, [1, 2, 3], lambda x: x[0:3]),
    "slice 0 over itself in another layout": _index_add((1, 2), 1, [1, 1],
                                                        lambda x: x[:, :1].expand(1, 2), alpha=2),
}


def _index_add_arguments(self_shape, dim, positions, source_shape, index_dtype="int64",
                         source_dtype="float32"):
    def program(L):
        x = L.zeros(self_shape)
        index = L.tensor(positions, dtype=getattr(L, index_dtype))
        source = L.ones(source_shape, dtype=getattr(L, source_dtype))
        return x.index_add(dim, index, source), x.index_add_(dim, index, source)
    return program


INDEX_ADD_ARGUMENTS = {
    "rows": _index_add_arguments((2, 3), 0, [0], (1, 3)),
    "columns": _index_add_arguments((2, 3), 1, [0], (2, 1)),
    "numbers": _index_add_arguments((), 0, [0], ()),
    "a vector": _index_add_arguments((2,), 0, [0], (1,)),
    "an empty matrix": _index_add_arguments((2, 0), 0, [0], (1, 0)),
    "other sizes": _index_add_arguments((2, 3), 0, [0], (1, 2)),
    "more dims": _index_add_arguments((2, 3), 0, [0], (1, 3, 1)),
    "a vector into a number": _index_add_arguments((), 0, [0], (1,)),
    "a number into a vector": _index_add_arguments((2,), 0, [0], ()),
    "a number into a matrix": _index_add_arguments((2, 3), 0, [0], ()),
    "fewer positions than slices": _index_add_arguments((2,), 0, [0], (2,)),
    "more positions than slices": _index_add_arguments((2, 3), 0, [0, 1], (1, 3)),
    "a dim the source lacks": _index_add_arguments((2, 3), 1, [0], (3,)),
    "a float index": _index_add_arguments((2, 3), 0, [0.0], (1, 3), index_dtype="float32"),
    "an int16 index": _index_add_arguments((2, 3), 0, [0], (1, 3), index_dtype="int16"),
    "a matrix index": _index_add_arguments((2, 3), 0, [[0]], (1, 3)),
    "another dtype before the sizes": _index_add_arguments((2, 3), 0, [0, 1], (1, 2),
                                                           source_dtype="float64"),
    "out of range after the sizes": _index_add_arguments((2, 3), 0, [5], (1, 3)),
}


def index_add_shared_number(L):
    """A number's index_add_ from a view of itself: PyTorch checks the sizes before the overlap."""
    x = L.tensor(1.5, requires_grad=True)
    with L.no_grad():
        seen = [attempt(lambda: x.index_add_(0, L.tensor([0]), x.reshape(1)))]
        seen.append(attempt(lambda: x.index_add_(0, L.tensor([0]), x.reshape(()))))
        v = L.tensor([1.0, 2.0])
        seen.append(attempt(lambda: v.index_add_(0, L.tensor([0]), v[0])))
        seen.append(attempt(lambda: v.index_add_(0, L.tensor([1, 0]), v[:1].expand(2))))
    return seen, x, v


def index_add_recorded_from_own_memory(L):
    leaf = L.tensor(np.arange(1.0, 7.0).reshape(2, 3), requires_grad=True)
    x = leaf * 1
    x.index_add_(0, L.tensor([0]), x[0:1, 0:1].expand(1, 3))
    x.sum().backward()
    return x, leaf.grad


PROGRAMS = [
    no_grad_view_follows_base, no_grad_view_requires_grad_set_on_view,
    no_grad_view_requires_grad_false_on_view, recorded_view_of_no_grad_view,
    recorded_view_keeps_its_node, view_of_plain_tensor_then_base_requires_grad,
    operations_on_view_after_base_stops, view_of_non_leaf_under_no_grad,
    changed_base_then_requires_grad_false, changed_base_then_view_changed_without_grad,
    plain_base_changed_then_requires_grad, recorded_view_base_changed_then_requires_grad_false,
    dirty_no_grad_view, dirty_view_whose_base_came_to_require_grad,
    dirty_no_grad_view_of_base_that_stopped,
    stopped_leaf_backward, stopped_leaf_grad_and_inputs, stopped_leaf_next_to_another,
    stopped_leaf_hook_returns_new_gradient, stopped_leaf_create_graph, stopped_leaf_toggled_back,
    stopped_base_of_recorded_view, graph_made_before_leaf_required_grad,
    stopped_leaf_no_grad_view_set_by_user, stopped_leaf_retains_grad_of_result,
    grad_output_that_requires_grad,
    unused_leaf_output_hooks, unused_non_leaf_output_hooks_and_retain_grad,
    unused_output_backward_inputs, several_outputs_none_used, unused_branch_hooks_stay_quiet,
    unused_output_hook_changes_dtype, unused_output_hook_changes_size,
    unused_scalar_output_implicit_gradient, index_add_recorded_from_own_memory,
    index_add_shared_number,
]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_same_as_pytorch(torch, program):
    same(torch, program)


@pytest.mark.parametrize("name", list(INDEX_ADD))
def test_index_add_from_own_memory(torch, name):
    same(torch, INDEX_ADD[name])


@pytest.mark.parametrize("name", list(INDEX_ADD_ARGUMENTS))
def test_index_add_arguments(torch, name):
    same(torch, INDEX_ADD_ARGUMENTS[name])


def test_the_programs_show_the_rules(torch):
    """A few outcomes spelled out, so that a change in both libraries at once is noticed too."""
    assert same(torch, no_grad_view_follows_base)[3:5] == (False, False)
    seen, calls = same(torch, stopped_leaf_backward)
    assert seen[1] is None and seen[3] == (5.0, 5.0, 5.0) and seen[5] == (7.0, 7.0, 7.0)
    assert ("post", None) in calls                                  # the hooks still ran
    assert same(torch, unused_leaf_output_hooks)[1][0] == ("x", 5.0)
    assert same(torch, INDEX_ADD["expanded element of a matrix"])[1][1][0] == [2.0, 4.0, 5.0]
    assert same(torch, INDEX_ADD["rows of self (dense)"])[0] == "RuntimeError"
