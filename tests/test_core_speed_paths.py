"""The fast paths of the core behave exactly like the general ones (and like PyTorch).

Speed work on the engine and on recording operations must never change a
result: these tests pin the cases each fast path could get wrong.
"""
import gc
import sys

import numpy as np
import pytest

import minigrad


def test_engine_order_is_pytorchs_on_a_wide_graph(torch):
    """Nodes run latest-made first, each AccumulateGrad right after its last gradient arrives."""
    values = np.random.default_rng(0).standard_normal((2, 7))
    orders = []
    for library in (minigrad, torch):
        left = [library.tensor([v], requires_grad=True) for v in values[0]]
        right = [library.tensor([v], requires_grad=True) for v in values[1]]
        order = []
        for i, leaf in enumerate(left + right):
            leaf.register_hook(lambda grad, i=i: order.append(i))
        terms = [a * b for a, b in zip(left, right)]
        while len(terms) > 1:
            paired = [terms[i] + terms[i + 1] for i in range(0, len(terms) - 1, 2)]
            terms = paired + terms[len(paired) * 2:]
        terms[0].backward()
        orders.append(order)
    assert orders[0] == orders[1]


def test_a_leaf_used_twice_by_one_node_runs_once_with_the_sum(torch):
    for library in (minigrad, torch):
        x = library.tensor([3.0], requires_grad=True)
        calls = []
        x.register_hook(lambda grad: calls.append(grad.item()))
        (x * x).backward()
        assert calls == [6.0] and x.grad.item() == 6.0


def test_next_functions_keeps_pytorchs_shape():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    a, b = x.unbind(0)
    y = b * 2
    (edge,) = [e for e in y.grad_fn.next_functions if e[0] is not None]
    assert edge[0] is b.grad_fn and edge[1] == 1
    assert y.grad_fn.next_functions[1] == (None, 0)
    assert isinstance(y.grad_fn.next_functions, tuple)


def test_version_counter_is_made_when_needed_and_still_catches_in_place_changes():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1.0
    z = y * y                          # saves y at version 0 (y has no counter yet)
    assert y._version == 0
    y.add_(1)                          # makes the counter and bumps it
    assert y._version == 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


def test_views_and_detach_share_a_version_counter_made_later():
    base = minigrad.tensor([1.0, 2.0, 3.0])
    view = base[1:]
    detached = base.detach()
    detached.mul_(2)
    assert base._version == view._version == detached._version == 1


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_relu_backward_keeps_nan_inf_and_signed_zero_like_pytorch(torch, dtype):
    x_values = np.array([-1.0, 2.0, -3.0, 4.0, -5.0, 0.0, 6.0], dtype=dtype)
    upstream = np.array([np.nan, np.nan, np.inf, -0.0, -2.0, -1.0, -0.0], dtype=dtype)
    grads = []
    for library in (minigrad, torch):
        x = library.tensor(x_values, requires_grad=True)
        x.relu().backward(library.tensor(upstream))
        grads.append(np.asarray(x.grad.detach().numpy() if library is torch else x.grad.numpy()))
    ours, theirs = grads
    assert np.array_equal(ours, theirs, equal_nan=True)
    assert np.array_equal(np.signbit(ours), np.signbit(theirs))


@pytest.mark.parametrize("labels, ignore_index", [
    ([0, 2, 1, 2], -100),           # every label counts: the short path
    ([0, -100, 1, 2], -100),        # a label equal to ignore_index: the general path
    ([0, 2, 1, 2], 2),              # ignore_index is a class
])
def test_cross_entropy_paths_match_pytorch(torch, labels, ignore_index):
    logits = np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)
    results = []
    for library in (minigrad, torch):
        x = library.tensor(logits, requires_grad=True)
        loss = library.nn.functional.cross_entropy(x, library.tensor(labels), ignore_index=ignore_index)
        loss.backward()
        results.append((loss.item(), x.grad.detach().numpy().copy()))
    assert results[0][0] == pytest.approx(results[1][0], rel=1e-6)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-6, atol=1e-7)


def test_cross_entropy_label_out_of_range_still_raises():
    x = minigrad.tensor(np.zeros((2, 3), dtype=np.float32), requires_grad=True)
    with pytest.raises(IndexError, match="Target 3 is out of bounds."):
        minigrad.nn.functional.cross_entropy(x, minigrad.tensor([0, 3]))


def test_a_recorded_chain_keeps_few_objects_for_the_garbage_collector():
    """Each recorded one-element operation keeps its node, and nothing else the collector
    tracks: the node keeps its edges itself (no tuple of them), a number saved again and again
    is one shared pair."""
    x = minigrad.tensor([1.0], requires_grad=True)
    b = minigrad.tensor([0.5], requires_grad=True)
    y = x
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(500):
        y = y * 1.0001
        y = y + b
    gc.collect()                      # (tuples of plain numbers become untracked here)
    per_op = (len(gc.get_objects()) - before) / 1000
    assert per_op <= 1.05, per_op
    y.backward()
    assert x.grad is not None



def test_a_product_of_leaves_allocates_few_tracked_objects():
    """W4's graph: each product of two leaves, and its share of the sums, allocates its two
    nodes (each keeps its edges itself, no tuple), the saved pair, and for each leaf its
    AccumulateGrad and the weak reference the leaf keeps to it: 7 objects the garbage
    collector tracks (the shape tuples of the AccumulateGrads are shared, not two more)."""
    left = [minigrad.tensor([float(i)], requires_grad=True) for i in range(200)]
    right = [minigrad.tensor([1.0], requires_grad=True) for _ in range(200)]
    gc.collect()
    gc.disable()
    try:
        before = gc.get_count()[0]
        terms = [a * b for a, b in zip(left, right)]
        total = terms[0]
        for term in terms[1:]:
            total = total + term
        del terms, term
        per_product = (gc.get_count()[0] - before) / len(left)
    finally:
        gc.enable()
    # (before Python 3.11 an object's attributes live in a dict of their own, which the
    # collector tracks as well: one more for each leaf's AccumulateGrad)
    assert per_product <= (7.05 if sys.version_info >= (3, 11) else 9.1), per_product
    total.backward()
    assert left[3].grad.item() == 1.0 and right[3].grad.item() == 3.0


def test_numbers_saved_again_and_again_are_pytorchs(torch):
    """mul by a Python number saves (None, number) at once, and the same pair saved again is
    shared: what each node shows, and each gradient, is still its own number's."""
    shown = []
    for library in (torch, minigrad):
        x = library.tensor([1.5, -2.0], requires_grad=True)
        y = x
        nodes = []
        for number in (2.0, 2.0, 3, True, 0.5, 2.0):
            y = y * number
            nodes.append(y.grad_fn)
        saved = [(node._saved_self, node._saved_other.item(), str(node._saved_other.dtype).split(".")[1])
                 for node in nodes]
        y.sum().backward()
        shown.append((saved, x.grad.tolist()))
    (theirs, their_grad), (ours, our_grad) = shown
    assert our_grad == their_grad
    for (our_self, our_other, our_dtype), (their_self, their_other, their_dtype) in zip(ours, theirs):
        assert our_self is None and their_self is None
        assert our_other == their_other and our_dtype == their_dtype


def test_the_same_float_with_tensors_of_other_dtypes_keeps_each_dtype(torch):
    """_binary's shortcut for the float used last must not hand a float32 operand to float64."""
    number = 0.1
    for library in (minigrad, torch):
        a = library.tensor([1.0], dtype=library.float32)
        b = library.tensor([1.0], dtype=library.float64)
        assert (a * number).dtype == library.float32
        assert (b * number).dtype == library.float64
        assert (b * number).item() == 0.1
        assert (a + number).dtype == library.float32

# (numpy's own warnings for inf * 0 and x / 0 are not what these tests are about)
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float32", "float64"])     # (float16: see the next test)
def test_a_python_float_used_again_and_again_gives_pytorchs_values(torch, dtype):
    """The last Python float is kept converted to the tensor's dtype: results must not change,
    whichever dtype comes next, for signed zeros, and in backward."""
    values = np.array([-1.5, 0.0, -0.0, 3.25, 1e-3, np.inf, np.nan], dtype=dtype)
    numbers = [1.0001, 1.0001, -0.0, 0.0, 0.1, 0.1, 1 / 3, -2.0]
    results = []
    for library in (minigrad, torch):
        x = library.tensor(values, dtype=getattr(library, dtype), requires_grad=True)
        other = library.tensor(values.astype("float64"), dtype=library.float64)
        out = []
        for number in numbers:
            for y in (x * number, x + number, x - number, x / number, number * x, other * number):
                out.append(y.detach().numpy().copy())
        (x * numbers[0] * numbers[1]).sum().backward()
        out.append(x.grad.numpy().copy())
        results.append(out)
    for ours, theirs in zip(*results):
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)
        assert np.array_equal(np.signbit(ours), np.signbit(theirs))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_a_kept_float16_operand_gives_pytorchs_float16_results():
    # (PyTorch computes float16 products and quotients with a number in float32 and rounds
    # once, sums with the number rounded to float16. Keeping the float converted must not
    # change either.)
    values = np.array([-1.5, 0.0, -0.0, 3.25, 1e-3, 600.0, np.inf, np.nan], dtype=np.float16)
    x = minigrad.tensor(values)
    wide = values.astype(np.float32)
    for number in [0.1, 0.1, 1.0001, -0.0, 1 / 3, 1 / 3]:
        with np.errstate(all="ignore"):
            expected = [(wide * np.float32(number)).astype(np.float16), values + number, values - number,
                        (wide / np.float32(number)).astype(np.float16)]
        for ours, theirs in zip([x * number, x + number, x - number, x / number], expected):
            assert ours.numpy().dtype == theirs.dtype
            np.testing.assert_array_equal(ours.numpy(), theirs)
            assert np.array_equal(np.signbit(ours.numpy()), np.signbit(theirs))


def test_the_kept_float_cannot_be_changed_through_a_result():
    x = minigrad.tensor([2.0])
    y = x * 0.5
    y.add_(1.0)                        # changes y, never the kept 0.5
    assert (x * 0.5).item() == 1.0


def test_nodes_read_their_attributes_without_a_getattr_hook():
    """A class with __getattr__ makes Python read every attribute of its objects the slow way;
    grad_fn._saved_* names are properties instead, and read as before."""
    from minigrad.autograd.graph import AccumulateGrad, Node
    from minigrad._ops.pointwise import AddBackward0, MulBackward0
    for cls in (Node, MulBackward0, AddBackward0, AccumulateGrad):
        assert not hasattr(cls, "__getattr__")
    x = minigrad.tensor([2.0, 3.0], requires_grad=True)
    product = x * 3.0
    assert product.grad_fn._saved_other == 3.0 and product.grad_fn._saved_self is None
    summed = product.sum(dim=0)
    assert summed.grad_fn._saved_dim == (0,) and summed.grad_fn._saved_self_sym_sizes == (2,)
    with pytest.raises(AttributeError, match="'MulBackward0' object has no attribute '_saved_dim'"):
        product.grad_fn._saved_dim


def test_a_node_made_by_hand_has_no_edges_and_saves_nothing():
    from minigrad._ops.pointwise import MulBackward0
    first, second = MulBackward0(), MulBackward0()
    assert first.next_functions == () and first.saved_tensors == ()
    assert first._sequence_nr() < second._sequence_nr()


def test_a_setting_of_one_node_is_not_shown_by_another_of_its_class():
    """dir() and ``_saved_<setting>`` show the settings this node keeps, not its class's others."""
    from minigrad.autograd.graph import Node
    from minigrad._ops import result

    class ScaleBackward0(Node):
        def backward(self, grad):
            return (grad * getattr(self, "factor", 1.0),)

    x = minigrad.tensor([1.0], requires_grad=True)
    with_factor = result(x._array * 2, ScaleBackward0, (x,), factor=2.0).grad_fn
    without = result(x._array, ScaleBackward0, (x,)).grad_fn
    assert with_factor._saved_factor == 2.0 and "_saved_factor" in dir(with_factor)
    assert "_saved_factor" not in dir(without)
    with pytest.raises(AttributeError, match="'ScaleBackward0' object has no attribute '_saved_factor'"):
        without._saved_factor


def test_recording_stays_per_thread_when_operations_skip_asking_the_thread():
    """Operations ask the per-thread grad mode only once some thread switched recording off."""
    import threading
    x = minigrad.tensor([1.0], requires_grad=True)
    seen = {}
    switched_off, done = threading.Event(), threading.Event()

    def other_thread():
        with minigrad.no_grad():
            switched_off.set()
            done.wait()
            seen["other"] = (x * 2).requires_grad
        seen["other after"] = (x * 2).requires_grad

    thread = threading.Thread(target=other_thread)
    thread.start()
    switched_off.wait()
    seen["main"] = (x * 2).requires_grad
    done.set()
    thread.join()
    assert seen == {"main": True, "other": False, "other after": True}
    with minigrad.no_grad():
        assert not (x * 2).requires_grad
    minigrad.set_grad_enabled(False)
    assert not (x * 2).requires_grad
    minigrad.set_grad_enabled(True)
    assert (x * 2).requires_grad


def test_edges_kept_in_the_node_show_as_pytorchs(torch):
    """A node keeps its first two edges in fields of its own (all of them in a tuple when
    there are more): next_functions, and which gradients the engine computes and sends, are
    PyTorch's for nodes with one, two and three edges, and with edges that lead nowhere."""
    def described(node):
        return [None if n is None else (type(n).__name__.replace("torch::autograd::", ""), nr)
                for n, nr in node.next_functions]

    shown = []
    for library in (torch, minigrad):
        a = library.tensor([1.0, 2.0], requires_grad=True)
        b = library.tensor([3.0, 4.0], requires_grad=True)
        c = library.tensor([5.0, 6.0])
        nodes = [(a * 2).grad_fn, (a * c).grad_fn, a.exp().grad_fn,
                 library.addcmul(a * 1, b, c).grad_fn, library.addcmul(c, a, b).grad_fn,
                 library.cat([a, c, b.exp()]).grad_fn]
        out = library.cat([a * 1, library.addcmul(c, a, b), b.exp()]).sum()
        out.backward()
        shown.append(([described(node) for node in nodes], a.grad.tolist(), b.grad.tolist()))
    assert shown[0] == shown[1]


def test_edges_set_by_hand_are_read_back():
    """``next_functions`` assigned by hand is kept in the node's own fields and read back as given."""
    from minigrad.autograd.graph import Node
    x = minigrad.tensor([1.0], requires_grad=True)
    edges_of = [(x * 2).grad_fn, (x * 3).grad_fn, (x * 4).grad_fn]
    for count in range(4):
        node = Node()
        node.next_functions = [(edge, 0) for edge in edges_of[:count]]
        assert node.next_functions == tuple((edge, 0) for edge in edges_of[:count])
        assert [node.should_compute_output(i) for i in range(count)] == [True] * count
