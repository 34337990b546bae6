"""A leaf's AccumulateGrad is made only when something needs it (graph.leaf_edge): every
program here must still behave as in PyTorch, where the node exists from the start.

Each program runs under both libraries and returns what a learner could see: gradients,
versions of .grad, the identity of the nodes shown by next_functions, what hooks saw, errors.
"""
import gc

import numpy as np
import pytest

import minigrad

from conftest import import_torch

torch = import_torch()


def _value(x):
    if isinstance(x, (torch.Tensor, minigrad.Tensor)):
        return ("tensor", x.detach().numpy().tolist(), tuple(x.shape), str(x.dtype).split(".")[-1])
    if isinstance(x, (list, tuple)):
        return type(x).__name__, [_value(v) for v in x]
    return x


def _run(lib, program):
    try:
        return program(lib)
    except Exception as error:      # the same error class and message in both
        return ("raised", type(error).__name__, str(error).split("\nminigrad hint")[0])


PROGRAMS = {}


def program(function):
    PROGRAMS[function.__name__] = function
    return function


def _leaves(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = lib.tensor([4.0, -5.0, 6.0], requires_grad=True)
    return a, b


@program
def shared_node_across_graphs(lib):
    a, b = _leaves(lib)
    y1, y2 = a * b, a * 3
    first = y1.grad_fn.next_functions[0][0]
    return [first is y2.grad_fn.next_functions[0][0], first.variable is a,
            y1.grad_fn.next_functions[1][0] is y2.grad_fn.next_functions[0][0],
            type(first).__name__, first.name()]


@program
def node_shown_after_backward(lib):
    a, b = _leaves(lib)
    y = (a * b).sum()
    y.backward(retain_graph=True)
    node = y.grad_fn.next_functions[0][0].next_functions[0][0]
    y.backward()
    return [node.variable is a, a.grad, b.grad, a.grad._version]


@program
def node_hooks_then_other_graph(lib):
    a, b = _leaves(lib)
    seen = []
    y = a * b
    node = y.grad_fn.next_functions[0][0]
    node.register_prehook(lambda grads: seen.append(("pre", grads[0].tolist())))
    node.register_hook(lambda grad_inputs, grad_outputs: seen.append(("post", grad_outputs[0].tolist())))
    (a * 2).sum().backward()          # a new graph: the same node (alive), hooks and all
    return [seen, a.grad]


@program
def leaf_hook_after_forward(lib):
    a, b = _leaves(lib)
    y = (a * b + a).sum()
    seen = []
    a.register_hook(lambda g: seen.append(g.tolist()) or g * 10)
    b.register_post_accumulate_grad_hook(lambda t: seen.append(("post", t.grad.tolist())))
    y.backward()
    return [seen, a.grad, b.grad, a.grad._version, b.grad._version]


@program
def hook_looks_at_edges_during_backward(lib):
    a, b = _leaves(lib)
    y = a * b
    z = (y * 2).sum()
    seen = []

    def look(grad):
        node = y.grad_fn.next_functions[0][0]       # gives a's node while the pass runs
        node.register_prehook(lambda grads: seen.append(grads[0].tolist()))
        return None
    y.register_hook(look)
    z.backward()
    return [seen, a.grad, b.grad]


@program
def grad_of_some_leaves(lib):
    a, b = _leaves(lib)
    y = (a * b * a).sum()
    (ga,) = lib.autograd.grad(y, a, retain_graph=True)
    first = [ga, a.grad, b.grad]
    y.backward(inputs=[b])
    return first + [a.grad, b.grad]


@program
def leaf_used_twice_sums_first(lib):
    a, b = _leaves(lib)
    y = (a * b + a * 2 + a).sum()
    y.backward()
    return [a.grad, a.grad._version, b.grad._version]


@program
def gradient_kept_by_user_is_copied(lib):
    a, b = _leaves(lib)
    kept = []
    y = a * b
    y.register_hook(lambda g: kept.append(g))
    y.sum().backward()
    return [a.grad, b.grad, kept[0] is b.grad]


@program
def leaf_reshaped_in_place_after_forward(lib):
    a, b = _leaves(lib)
    y = (a * b).sum()
    with lib.no_grad():
        a.unsqueeze_(0)
    y.backward()
    return [a.grad, tuple(a.shape)]


@program
def leaf_data_replaced_after_forward(lib):
    a, b = _leaves(lib)
    y = (a * b).sum()
    a.data = lib.zeros(2, 3)
    y.backward()
    return [a.grad]


@program
def leaf_reshaped_then_new_graph(lib):
    a, b = _leaves(lib)
    with lib.no_grad():
        a.unsqueeze_(0)
    (a * b).sum().backward()
    return [a.grad]


@program
def leaf_stops_requiring_grad(lib):
    a, b = _leaves(lib)
    y = (a * b).sum()
    a.requires_grad_(False)
    y.backward()
    return [a.grad, b.grad]


@program
def leaf_moved_into_graph(lib):
    a, b = _leaves(lib)
    y = (a * b).sum()
    a.requires_grad_(False)
    a.mul_(b)
    y.backward()
    return [a.grad]


@program
def temporary_leaf_stays_alive(lib):
    y = lib.ones(3, requires_grad=True) * 2
    gc.collect()
    node = y.grad_fn.next_functions[0][0]
    return [node.variable, node.variable.requires_grad]


@program
def create_graph_through_leaves(lib):
    a, b = _leaves(lib)
    y = (a * a * b).sum()
    (ga,) = lib.autograd.grad(y, a, create_graph=True)
    ga.sum().backward()
    return [ga, a.grad, b.grad, ga.grad_fn.name()]


@program
def second_backward_accumulates(lib):
    a, b = _leaves(lib)
    y = (a * b).sum()
    y.backward(retain_graph=True)
    first = a.grad
    y.backward()
    return [a.grad, first is a.grad, a.grad._version]


@program
def anomaly_mode_names_nodes(lib):
    a, b = _leaves(lib)
    with lib.autograd.detect_anomaly(check_nan=True):
        (a * b).sum().backward()
    return [a.grad, b.grad]


@program
def parameter_in_optimizer(lib):
    w = lib.nn.Parameter(lib.tensor([[1.0, 2.0], [3.0, 4.0]]))
    optimizer = lib.optim.SGD([w], lr=0.1, momentum=0.9)
    for _ in range(3):
        optimizer.zero_grad()
        (w @ lib.tensor([1.0, -1.0])).pow(2).sum().backward()
        optimizer.step()
    return [w.detach(), w.grad]


@program
def hashing_is_by_identity(lib):
    a, b = _leaves(lib)
    table = {a: "a", b: "b"}
    return [table[a], table[b], len({a, a, b}), hash(a) == hash(a), a in {b}]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_torch(name):
    ours = _run(minigrad, PROGRAMS[name])
    theirs = _run(torch, PROGRAMS[name])
    assert _value(ours) == _value(theirs)


def test_a_wide_graph_makes_no_node_per_leaf():
    """The point of it all: products of leaves give the collector fewer objects to track."""
    left = [minigrad.tensor([float(i)], requires_grad=True) for i in range(1000)]
    right = [minigrad.tensor([2.0], requires_grad=True) for i in range(1000)]
    gc.collect()
    gc.disable()
    try:
        before = gc.get_count()[0]
        products = [x * y for x, y in zip(left, right)]
        made = gc.get_count()[0] - before
    finally:
        gc.enable()
    # each product: its tensor, its node and the pair it saved; no AccumulateGrad (nor its weak
    # reference) per leaf, which would make 7
    assert made <= 3 * len(products) + 20
    sum(products, minigrad.tensor([0.0])).backward()
    assert np.array_equal(left[7].grad.numpy(), [2.0]) and np.array_equal(right[7].grad.numpy(), [7.0])


@program
def node_post_hook_before_leaves(lib):
    a, b = _leaves(lib)
    z = a * b
    seen = []
    z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append([g.tolist() for g in grad_inputs]))
    (z + b + lib.copysign(a, b)).sum().backward()
    return [seen, a.grad, b.grad, a.grad._version, b.grad._version]
