"""The backward engine: deep graphs, memory, accumulation, hooks, partial and higher-order backward."""
import gc
import sys
import weakref

import numpy as np
import pytest

import minigrad
from minigrad.autograd import engine


# --------------------------------------------------------------------------------------
# Deep graphs
# --------------------------------------------------------------------------------------

def test_chain_of_100000_operations_needs_no_recursion():
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)                     # Python's default
    try:
        x = minigrad.tensor(0.5, dtype=minigrad.float64, requires_grad=True)
        b = minigrad.tensor(0.001, dtype=minigrad.float64, requires_grad=True)
        y = x
        pairs = 50_000
        for _ in range(pairs):
            y = y * 1.0001
            y = y + b
        y.backward()
    finally:
        sys.setrecursionlimit(limit)
    m = 1.0001
    assert x.grad.item() == pytest.approx(m ** pairs, rel=1e-9)
    assert b.grad.item() == pytest.approx((m ** pairs - 1) / (m - 1), rel=1e-9)
    assert y.item() == pytest.approx(0.5 * m ** pairs + 0.001 * (m ** pairs - 1) / (m - 1), rel=1e-9)


def test_deep_graph_is_freed_without_recursion():
    x = minigrad.ones(1, requires_grad=True)
    y = x
    for _ in range(20_000):
        y = y.exp().log()
    last = weakref.ref(y.grad_fn)
    del y                       # frees 40,000 nodes one after the other
    assert last() is None


# --------------------------------------------------------------------------------------
# Memory: no reference cycles, saved tensors released
# --------------------------------------------------------------------------------------

def _training_step():
    """A small network step with most features: returns weak references to what it made."""
    w = minigrad.randn(4, 3, requires_grad=True)
    b = minigrad.zeros(3, requires_grad=True)
    x = minigrad.randn(5, 4)
    hidden = (x @ w + b).relu()
    hidden.retain_grad()
    hidden.register_hook(lambda g: g * 1)
    pieces = hidden.unbind(1)
    loss = minigrad.nn.functional.mse_loss(pieces[0] * pieces[1], minigrad.zeros(5))
    loss = loss + minigrad.nn.functional.cross_entropy(hidden, minigrad.tensor([0, 1, 2, 0, 1]))
    loss.backward()
    refs = [weakref.ref(t) for t in (w, b, x, hidden, loss, *pieces, w.grad)]
    nodes, stack = [], [loss.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and all(n is not node for n in nodes):
            nodes.append(node)
            stack.extend(next_node for next_node, _ in node.next_functions)
    refs += [weakref.ref(n) for n in nodes]
    return refs


def test_graph_is_freed_by_reference_counting_alone():
    gc.collect()
    gc.disable()
    try:
        refs = _training_step()
        alive = [r() for r in refs if r() is not None]
        assert alive == [], f"kept alive only by reference cycles: {alive!r}"
    finally:
        gc.enable()


def test_gc_finds_nothing_of_minigrad_to_collect():
    gc.collect()
    gc.disable()
    try:
        _training_step()
        for _ in range(3):
            _training_step()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        leftovers = [o for o in gc.garbage
                     if type(o).__module__.startswith("minigrad")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert leftovers == []


def test_custom_function_saving_its_output_leaves_no_cycle():
    class Exp(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            out = x.exp()
            ctx.save_for_backward(out)
            return out

        @staticmethod
        def backward(ctx, grad):
            (out,) = ctx.saved_tensors
            return grad * out

    gc.collect()
    gc.disable()
    try:
        x = minigrad.ones(3, requires_grad=True)
        y = Exp.apply(x)
        node = weakref.ref(y.grad_fn)
        y.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), np.e * np.ones(3), rtol=1e-6)
        del y
        assert node() is None
    finally:
        gc.enable()


def test_saved_tensors_are_released_after_backward():
    x = minigrad.ones(3, requires_grad=True)
    hidden = x * 2
    out = hidden * hidden              # saves hidden twice
    hidden_ref = weakref.ref(hidden)
    del hidden
    assert hidden_ref() is not None    # kept alive by the saved tensors
    out.sum().backward()
    assert hidden_ref() is None        # released by backward
    assert out.grad_fn._freed and not out.grad_fn._saved


def test_retain_graph_keeps_saved_tensors():
    x = minigrad.ones(3, requires_grad=True)
    hidden = x * 2
    out = (hidden * hidden).sum()
    hidden_ref = weakref.ref(hidden)
    del hidden
    out.backward(retain_graph=True)
    assert hidden_ref() is not None
    out.backward()
    np.testing.assert_allclose(x.grad.numpy(), [16.0, 16.0, 16.0])
    assert hidden_ref() is None
    with pytest.raises(RuntimeError, match="retain_graph"):
        out.backward()


def test_leaf_keeps_only_a_weak_reference_to_its_accumulate_grad():
    x = minigrad.ones(2, requires_grad=True)
    y = x * 2
    accumulate = weakref.ref(y.grad_fn.next_functions[0][0])
    assert accumulate().variable is x
    del y
    assert accumulate() is None
    assert (x * 3).grad_fn.next_functions[0][0] is not None


# --------------------------------------------------------------------------------------
# Accumulation and graph shapes
# --------------------------------------------------------------------------------------

def test_diamond_graph_accumulates():
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = a + a
    b.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]
    c = a * 3
    d = c.exp() + c.sin() + c            # c is used three times
    d.sum().backward()
    expected = 2 + 3 * (np.exp(3 * np.array([1.0, 2.0])) + np.cos(3 * np.array([1.0, 2.0])) + 1)
    np.testing.assert_allclose(a.grad.numpy(), expected, rtol=1e-6)


def test_gradients_accumulate_across_backward_calls_until_zeroed():
    w = minigrad.tensor([1.0, -1.0], requires_grad=True)
    for expected in ([2.0, -2.0], [4.0, -4.0]):
        (w * w).sum().backward()
        assert w.grad.tolist() == expected
    grad_tensor = w.grad
    w.grad.zero_()
    (w * w).sum().backward()
    assert w.grad is grad_tensor              # accumulated into the same tensor
    assert w.grad.tolist() == [2.0, -2.0]
    w.grad = None
    (w * 3).sum().backward()
    assert w.grad.tolist() == [3.0, 3.0]


def test_first_gradient_is_a_copy_not_the_upstream_tensor():
    x = minigrad.ones(3, requires_grad=True)
    upstream = minigrad.ones(3)
    (x * 1).backward(upstream)
    assert x.grad is not upstream
    x.grad.add_(1)
    assert upstream.tolist() == [1.0, 1.0, 1.0]


def test_gradient_seen_by_a_hook_is_not_changed_by_later_accumulation():
    x = minigrad.ones(2, requires_grad=True)
    seen = []
    x.register_hook(seen.append)
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    assert [g.tolist() for g in seen] == [[3.0, 3.0], [3.0, 3.0]]
    assert x.grad.tolist() == [6.0, 6.0]


def test_retained_grad_and_leaf_grad_are_different_tensors():
    x = minigrad.ones(2, requires_grad=True)
    y = x.clone()                      # CloneBackward0 passes the gradient on unchanged
    y.retain_grad()
    y.backward(minigrad.ones(2))
    x.clone().backward(minigrad.ones(2))
    assert y.grad is not x.grad
    assert y.grad.tolist() == [1.0, 1.0] and x.grad.tolist() == [2.0, 2.0]


def test_observed_gradients_keep_their_values():
    x = minigrad.ones(2, requires_grad=True)
    steps = []
    with engine.observe(steps.append):
        (x + 1).sum().backward()
    (x + 1).sum().backward()
    assert type(steps[-1]["node"]).__name__ == "AccumulateGrad"
    assert steps[-1]["grad_outputs"][0].tolist() == [1.0, 1.0]
    assert x.grad.tolist() == [2.0, 2.0]


def test_multiple_roots():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y1 = x * 2
    y2 = (x ** 2).sum()
    minigrad.autograd.backward([y1, y2], [minigrad.tensor([1.0, 10.0]), None])
    assert x.grad.tolist() == [2.0 + 2.0, 20.0 + 4.0]


def test_roots_sharing_a_graph_run_each_node_once():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    shared = x.exp()
    runs = []
    shared.grad_fn.register_prehook(lambda grads: runs.append(1))
    minigrad.autograd.backward([shared.sum(), (shared * 2).sum()])
    assert runs == [1]
    np.testing.assert_allclose(x.grad.numpy(), 3 * np.exp([1.0, 2.0]), rtol=1e-6)


def test_broadcast_gradients_are_summed_back_to_each_shape():
    a = minigrad.ones(3, 1, requires_grad=True)
    b = minigrad.ones(4, requires_grad=True)
    c = minigrad.ones((), requires_grad=True)
    (a * b + c).sum().backward()
    assert a.grad.shape == (3, 1) and a.grad.tolist() == [[4.0]] * 3
    assert b.grad.shape == (4,) and b.grad.tolist() == [3.0] * 4
    assert c.grad.shape == () and c.grad.item() == 12.0


def test_branch_not_requiring_grad_gets_no_edge():
    x = minigrad.ones(2, requires_grad=True)
    constant = minigrad.ones(2) * 5
    y = x * constant
    assert y.grad_fn.next_functions[1] == (None, 0)
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 5.0]
    assert constant.grad is None


# --------------------------------------------------------------------------------------
# Order of execution and hooks
# --------------------------------------------------------------------------------------

def test_nodes_run_after_all_their_gradients_arrived():
    x = minigrad.tensor(2.0, requires_grad=True)
    a = x * 3
    b = a.exp()
    c = a + b           # a reaches c directly and through b
    order = []
    with engine.observe(lambda step: order.append(type(step["node"]).__name__)):
        c.backward()
    assert order.index("MulBackward0") > order.index("ExpBackward0")
    assert order[0] == "AddBackward0" and order[-1] == "AccumulateGrad"


def test_observer_sees_each_step_and_can_be_removed():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    steps = []
    handle = engine.observe(steps.append)
    (x * 3).sum().backward()
    handle.remove()
    (x * 3).sum().backward()
    assert [type(s["node"]).__name__ for s in steps] == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
    mul = steps[1]
    assert mul["grad_outputs"][0].tolist() == [1.0, 1.0]
    assert mul["grad_inputs"][0].tolist() == [3.0, 3.0]
    assert mul["grad_inputs"][1] is None


def test_tensor_hooks_run_in_registration_order_and_may_replace_the_gradient():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    calls = []
    y.register_hook(lambda g: calls.append(("first", g.tolist())))
    y.register_hook(lambda g: (calls.append(("second", g.tolist())), g * 10)[1])
    y.register_hook(lambda g: calls.append(("third", g.tolist())))
    x.register_hook(lambda g: calls.append(("leaf", g.tolist())))
    y.sum().backward()
    assert calls == [("first", [1.0, 1.0]), ("second", [1.0, 1.0]), ("third", [10.0, 10.0]),
                     ("leaf", [20.0, 20.0])]
    assert x.grad.tolist() == [20.0, 20.0]


def test_hook_handles_remove_and_work_as_context_managers():
    x = minigrad.tensor([1.0], requires_grad=True)
    calls = []
    with x.register_hook(lambda g: calls.append(1)):
        (x * 2).sum().backward()
    (x * 2).sum().backward()
    handle = x.register_hook(lambda g: calls.append(2))
    handle.remove()
    handle.remove()                   # removing twice is harmless
    (x * 2).sum().backward()
    assert calls == [1]


def test_node_pre_and_post_hooks():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    calls = []
    y.grad_fn.register_prehook(lambda grads: (calls.append("pre"), (grads[0] * 2,))[1])
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: calls.append(
        ("post", grad_inputs[0].tolist(), grad_outputs[0].tolist())))
    y.sum().backward()
    assert calls == ["pre", ("post", [6.0, 6.0], [2.0, 2.0])]
    assert x.grad.tolist() == [6.0, 6.0]


def test_retain_grad_sees_the_gradient_after_tensor_hooks():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 100)
    z = (y * y).sum()
    z.backward()
    assert y.grad.tolist() == [400.0, 800.0]
    assert x.grad.tolist() == [800.0, 1600.0]


def test_retain_grad_accumulates_and_is_idempotent():
    x = minigrad.tensor([1.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.retain_grad()
    y.backward(retain_graph=True)
    y.backward()
    assert y.grad.tolist() == [2.0]
    assert x.grad.tolist() == [4.0]
    assert y.is_leaf is False and y.retains_grad


def test_leaf_retain_grad_is_a_no_op():
    x = minigrad.tensor([1.0], requires_grad=True)
    x.retain_grad()
    assert not x.retains_grad
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0]


# --------------------------------------------------------------------------------------
# Partial backward: inputs=..., autograd.grad
# --------------------------------------------------------------------------------------

def test_backward_with_inputs_fills_only_those():
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([3.0, 4.0], requires_grad=True)
    hidden = a * b
    hidden.retain_grad()
    (hidden * 2).sum().backward(inputs=[a], retain_graph=True)
    assert a.grad.tolist() == [6.0, 8.0]
    assert b.grad is None
    assert hidden.grad.tolist() == [2.0, 2.0]      # its retain_grad hook was on the way
    (hidden * 2).sum().backward(inputs=[hidden])
    assert hidden.grad.tolist() == [4.0, 4.0]      # accumulated once, not twice
    assert b.grad is None
    assert a.grad.tolist() == [6.0, 8.0]


def test_autograd_grad_does_not_touch_grad_attributes():
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    hidden = a.exp()
    hidden.retain_grad()
    (g,) = minigrad.autograd.grad(hidden.sum(), a)
    np.testing.assert_allclose(g.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)
    assert a.grad is None
    assert not g.requires_grad


def test_autograd_grad_of_an_intermediate():
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    hidden = a * 3
    out = (hidden ** 2).sum()
    (g,) = minigrad.autograd.grad(out, hidden)
    assert g.tolist() == [6.0, 12.0]


def test_autograd_grad_runs_only_the_needed_part_of_the_graph():
    a = minigrad.tensor([1.0], requires_grad=True)
    b = minigrad.tensor([1.0], requires_grad=True)
    ran = []
    side = b.exp()
    side.grad_fn.register_prehook(lambda grads: ran.append("side node"))
    side.register_hook(lambda g: ran.append("side tensor"))
    b.register_hook(lambda g: ran.append("b"))
    a.register_hook(lambda g: ran.append("a"))
    out = (a * 2 + side).sum()
    minigrad.autograd.grad(out, a)
    assert ran == ["a"]


# --------------------------------------------------------------------------------------
# Higher order
# --------------------------------------------------------------------------------------

def test_create_graph_gives_a_differentiable_gradient():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x ** 3).sum()
    y.backward(create_graph=True)
    assert x.grad.requires_grad and x.grad.grad_fn is not None
    first = x.grad.clone()
    x.grad = None
    first.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0, 18.0]


def test_grad_of_grad_with_autograd_grad():
    x = minigrad.tensor(0.7, dtype=minigrad.float64, requires_grad=True)
    y = x.tanh()
    (dy,) = minigrad.autograd.grad(y, x, create_graph=True)
    (d2y,) = minigrad.autograd.grad(dy, x)
    t = np.tanh(0.7)
    assert dy.item() == pytest.approx(1 - t ** 2)
    assert d2y.item() == pytest.approx(-2 * t * (1 - t ** 2))


def test_gradient_penalty_style_double_backward():
    w = minigrad.tensor([0.5, -1.0], dtype=minigrad.float64, requires_grad=True)
    x = minigrad.tensor([2.0, 3.0], dtype=minigrad.float64, requires_grad=True)
    out = (w * x).sin().sum()
    (gx,) = minigrad.autograd.grad(out, x, create_graph=True)
    penalty = (gx ** 2).sum()
    penalty.backward()
    # gx_i = w_i cos(w_i x_i); d penalty / d w_i = 2 gx_i (cos(w_i x_i) - w_i x_i sin(w_i x_i))
    wv, xv = np.array([0.5, -1.0]), np.array([2.0, 3.0])
    g = wv * np.cos(wv * xv)
    expected = 2 * g * (np.cos(wv * xv) - wv * xv * np.sin(wv * xv))
    np.testing.assert_allclose(w.grad.numpy(), expected, rtol=1e-10)


def test_without_create_graph_the_gradient_has_no_history():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    (x ** 3).sum().backward()
    assert not x.grad.requires_grad and x.grad.grad_fn is None


def test_grad_mode_is_restored_after_a_failing_backward():
    x = minigrad.tensor([1.0], requires_grad=True)
    y = x * 2
    y.grad_fn.register_prehook(lambda grads: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        y.backward()
    assert minigrad.is_grad_enabled()


def test_accumulate_grad_name_spells_out_its_namespace_like_pytorch(torch):
    names = []
    for lib in (minigrad, torch):
        x = lib.ones(2, requires_grad=True)
        node = (x * 2).grad_fn.next_functions[0][0]
        names.append((node.name(), type(node).__name__, repr(node).split(" object")[0]))
    assert names[0] == names[1] == ("torch::autograd::AccumulateGrad", "AccumulateGrad", "<AccumulateGrad")


def test_broadcast_gradient_summed_to_a_0d_input_records_one_sum_like_pytorch():
    from conftest import import_torch
    torch = import_torch()

    def graph_of_gradient(L):
        a = L.tensor(2.0, requires_grad=True)
        b = L.ones(3, requires_grad=True)
        g, = L.autograd.grad((a * b).sum(), a, create_graph=True)
        return g.grad_fn.name(), [n.name() for n, _ in g.grad_fn.next_functions], g.item()

    assert graph_of_gradient(minigrad) == graph_of_gradient(torch)
