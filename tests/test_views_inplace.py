"""Views, in-place changes and saved tensors, each compared with PyTorch.

Every case is a small program written once and run with ``L = minigrad`` and
``L = torch``; what it returns (values, gradients, node names, error types and
messages) must be the same. The random programs of test_fuzz_vs_torch.py cover
the same ground more widely; these name the cases one by one.
"""
import gc
import warnings
import weakref

import numpy as np
import pytest

import minigrad


def seen(value):
    """What a learner sees, in a form both libraries share."""
    if isinstance(value, (list, tuple)):
        return [seen(v) for v in value]
    if hasattr(value, "detach") and hasattr(value, "shape"):
        return ("tensor", np.round(np.asarray(value.detach().tolist(), dtype=float), 5).tolist(),
                str(value.dtype).split(".")[-1])
    if hasattr(value, "next_functions"):
        return value.name().split("::")[-1]
    if isinstance(value, Exception):
        return (type(value).__name__, str(value).splitlines()[0])
    return value


def run(program, L):
    try:
        return seen(program(L))
    except Exception as error:            # the error is part of what must match
        return seen(error)


def graph(t):
    """grad_fn and the names at the end of its edges."""
    f = t.grad_fn
    return None if f is None else [f, [n for n, _ in f.next_functions]]


CASES = {}


def case(function):
    CASES[function.__name__] = function
    return function


@case
def view_follows_base_changed_in_place(L):
    leaf = L.tensor([1.0, 2.0], requires_grad=True)
    x = leaf * 2
    v = x[:1]
    x.mul_(3)
    v.sum().backward()
    return [leaf.grad, graph(v)]


@case
def in_place_change_of_a_view_rewrites_the_base(L):
    leaf = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = leaf * 2
    v = x[1:]
    v.mul_(leaf[1:])
    shown = [graph(x), graph(v)]
    (x * x).sum().backward()
    return shown + [leaf.grad]


@case
def setitem_forms(L):
    leaf = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = []
    for write in (lambda x, y: x.__setitem__(0, 5.0), lambda x, y: x.__setitem__(slice(0, None), 5.0),
                  lambda x, y: x.__setitem__(Ellipsis, 5.0), lambda x, y: x.__setitem__(0, y[0]),
                  lambda x, y: x.__setitem__([0, 1], y[:2]), lambda x, y: x.__setitem__(0, y[:1])):
        x, y = leaf * 2, leaf * 3
        write(x, y)
        out.append(graph(x))
        out.append(L.autograd.grad((x * x).sum(), leaf))
    return out


@case
def no_grad_view_of_a_leaf(L):
    leaf = L.tensor([1.0, 2.0], requires_grad=True)
    with L.no_grad():
        v = leaf[:1]
    out = [v.requires_grad, v.is_leaf, v.grad_fn, graph(v * 2)]
    try:
        v.backward(L.ones(1))
    except RuntimeError as error:
        out.append(seen(error))
    try:
        v.mul_(2)
    except RuntimeError as error:
        out.append(seen(error))
    return out


@case
def no_grad_view_whose_base_changed(L):
    leaf = L.tensor([1.0, 2.0], requires_grad=True)
    x = leaf * 2
    with L.no_grad():
        v = x[:1]
    x.mul_(2)
    return v.grad_fn


@case
def multi_output_view_in_place(L):
    a, b = (L.tensor([1.0, 2.0], requires_grad=True) * 1).unbind()
    return b.mul_(2)


@case
def saved_result_changed_in_place(L):
    leaf = L.tensor([1.0, 2.0], requires_grad=True)
    out = []
    for f in ("exp", "sigmoid", "tanh", "sqrt", "relu", "reciprocal"):
        y = getattr(leaf, f)()
        y.add_(1)
        try:
            y.sum().backward()
            out.append("no error")
        except RuntimeError as error:
            out.append(seen(error))
    return out


@case
def input_changed_after_an_op_that_saved_its_result(L):
    leaf = L.tensor([1.0, 2.0], requires_grad=True)
    x = leaf * 1
    y = x.exp() + x.sigmoid() + x.tanh() + (x * x + 1).sqrt() + x.softmax(0) + x.log_softmax(0)
    x.mul_(2)
    y.sum().backward()
    return leaf.grad


@case
def zero_dim_results_change_in_place(L):
    x = L.tensor(0.5, requires_grad=True)
    y = x.cos()
    y.add_(1)
    v = L.tensor([1.0, 2.0])[0]
    v.add_(1)
    return [y, graph(y), v, v._version]


@case
def retain_grad_then_in_place(L):
    leaf = L.tensor([1.0, 2.0], requires_grad=True)
    y = leaf * 2
    y.retain_grad()
    y.mul_(3)
    y.sum().backward()
    return [y.grad, leaf.grad]


@case
def weight_update_between_forward_and_backward(L):
    w = L.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    x = L.tensor([[1.0, 1.0]])
    y = x.mm(w)                      # needs x for w's gradient, not w itself
    with L.no_grad():
        w.sub_(0.1)
    y.sum().backward()
    return w.grad


@case
def second_backward_raises(L):
    leaf = L.tensor([1.0, 3.0, 2.0], requires_grad=True)
    out = []
    for make in (lambda: leaf.max(0)[0], lambda: leaf[[0, 1]].sum(), lambda: leaf.exp().sum(),
                 lambda: leaf.sum()):
        y = make()
        y.backward()
        try:
            y.backward()
            out.append("no error")
        except RuntimeError as error:
            out.append(seen(error))
    return out


@case
def second_order_through_relu_abs_clamp_max(L):
    leaf = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    out = []
    for f in (lambda x: x.relu() ** 2, lambda x: x.abs() ** 3, lambda x: x.clamp(-1, 2) ** 2,
              lambda x: x.sigmoid(), lambda x: x.tanh(), lambda x: (x ** 2).max(0)[0]):
        (g,) = L.autograd.grad(f(leaf).sum(), leaf, create_graph=True)
        out.append(graph(g))
        out.append(L.autograd.grad(g.sum(), leaf, allow_unused=True))
    return out


@case
def gradients_are_writable(L):
    leaf = L.tensor([1.0, 2.0], requires_grad=True)
    (leaf * leaf).sum().backward(create_graph=True)
    (leaf * 3).sum().backward()
    first = leaf.grad.detach().clone()
    leaf.grad = None
    leaf.expand(2, 2).sum().backward()
    leaf.grad.add_(1)
    return [first, leaf.grad]


@case
def shape_nodes(L):
    x = L.ones(2, 3, requires_grad=True)
    return [graph(x.t().contiguous()), x.contiguous() is x, graph(x.t().reshape(6)),
            graph(x.t().reshape(3, 2)), graph(x.reshape(3, 2)), x.expand(2, 3) is x,
            graph(x.expand(2, 3)), graph(x[...]), graph(x[:])]


@case
def clamp_with_tensor_bounds(L):
    x = L.tensor([-2.0, 0.5, 3.0], requires_grad=True)
    low = L.tensor([-1.0, -1.0, -1.0], requires_grad=True)
    high = L.tensor(1.0, requires_grad=True)
    y = x.clamp(low, high)
    y.sum().backward()
    return [graph(y), x.grad, low.grad, high.grad]


@case
def matmul_graphs(L):
    out = []
    for sa, sb in [((3,), (4, 3, 2)), ((2, 3), (4, 3, 2)), ((4, 2, 3), (3,)), ((4, 2, 3), (1, 3, 2)),
                   ((5, 4, 2, 3), (4, 3, 2)), ((1, 2, 3), (4, 3, 2))]:
        a = L.ones(*sa, requires_grad=True)
        b = L.ones(*sb, requires_grad=True)
        c = a @ b
        (c * c).sum().backward()
        out += [graph(c), a.grad, b.grad]
    return out


@case
def grad_after_create_graph_then_plain_backward(L):
    # .grad is a recorded copy (CopyBackwards); a plain backward adds into it in place,
    # keeping that node; a second create_graph backward records the sum (AddBackward0)
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward(create_graph=True)
    first = x.grad
    out = [graph(first), first]
    (x * x).sum().backward()
    out += [x.grad is first, graph(x.grad), x.grad]
    (x * x).sum().backward(create_graph=True)
    return out + [graph(x.grad), x.grad]


@case
def detach_changed_in_place_moves_views(L):
    leaf = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = leaf * 2
    v = x[:2]
    x.detach().mul_(3)
    v.sum().backward()
    return [graph(v), leaf.grad]


@case
def fill_of_expanded_view(L):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    e = y.expand(3, 2)
    e.fill_(1.5)
    out = [graph(y), graph(e)]
    try:
        e.sum().backward()
    except RuntimeError as error:
        out.append(error)
    return out


@case
def second_order_var_and_repeat(L):
    out = []
    for kwargs in ({}, {"dim": 1}, {"dim": (0, 2), "correction": 0}, {"dim": 1, "keepdim": True}):
        x = L.tensor(np.arange(6.0, dtype=np.float32).reshape(2, 1, 3), requires_grad=True)
        y = x.repeat(2, 1, 2, 1).var(**kwargs)
        (g,) = L.autograd.grad((y * y).sum(), x, create_graph=True)
        (h,) = L.autograd.grad(g.sum(), x)
        out += [graph(g), g.grad_fn.next_functions[0][0] and graph(g.grad_fn.next_functions[0][0]), g, h]
    return out


@case
def setitem_values_of_every_shape(L):
    # same shape: copy_; a 0-d value (or a number): fill_; otherwise the value is viewed
    # without its leading 1s (a ViewBackward0 even when nothing is dropped), then expanded
    out = []
    for shape, index, value_shape in [((2, 3), 0, ()), ((2, 3), 0, (1,)), ((2, 3), slice(None), (3,)),
                                      ((2, 3), slice(None), (2, 1)), ((2, 1, 3), 0, (1, 1, 3)),
                                      ((3,), 0, ()), ((), Ellipsis, ()), ((), Ellipsis, None)]:
        x = L.ones(shape, requires_grad=True) * 1
        value = 5.0 if value_shape is None else L.ones(value_shape, requires_grad=True) * 2
        x[index] = value
        nexts = [n for n, _ in x.grad_fn.next_functions]
        out += [graph(x), [n and graph_of_node(n) for n in nexts], x]
    return out


@case
def no_grad_views_changed_by_recorded_operations(L):
    out = []
    for setup in range(5):
        try:
            a = L.ones(3)
            w = L.ones(3, requires_grad=True)
            with L.no_grad():
                v = a[:2]                      # a no_grad view of a tensor without grad
            if setup == 0:
                v.add_(w[:2])                  # recorded: refused
            elif setup == 1:
                v.add_(1)                      # not recorded: fine
            elif setup == 2:
                v[0] = w[0]
            elif setup == 3:
                v[:1].add_(w[:1])
            else:
                x = L.ones(3, requires_grad=True) * 2
                with L.no_grad():
                    v = x[:2]
                v[:1].mul_(2)                  # a view of a no_grad view, with history
            out.append([graph(a), v.requires_grad])
        except RuntimeError as error:
            out.append(error)
    return out


@case
def split_of_no_grad_view_then_base_changed(L):
    x = L.ones(2, 1, 3, requires_grad=True)
    with L.no_grad():
        v = x[None]
    piece = v.chunk(2)[-1]
    with L.no_grad():
        x.fill_(1.5)
    try:
        return piece.grad_fn
    except RuntimeError as error:
        return error


@case
def second_order_of_max_dim_and_indexing(L):
    out = []
    data = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4) % 7
    for pick in (lambda x: x.max(1)[0], lambda x: x.min(0, keepdim=True)[0], lambda x: x[x > 2],
                 lambda x: x[[0, 0]], lambda x: x[0, 1], lambda x: x[1][:, 0], lambda x: x[0, ::2, 1:3],
                 lambda x: x[:1]):
        x = L.tensor(data, requires_grad=True)
        (g,) = L.autograd.grad((pick(x) ** 2).sum(), x, create_graph=True)
        (h,) = L.autograd.grad(g.sum(), x)
        out += [graph(g), g, h]
    return out


@case
def pieces_of_a_tensor_without_history(L):
    # chunk/unbind pieces made with grad mode on follow the multiple-views rules even when
    # nothing required grad yet
    out = []
    a = L.ones(4)
    w = L.ones(2, requires_grad=True)
    piece = a.chunk(2)[0]
    try:
        piece.add_(w)
    except RuntimeError as error:
        out.append(error)
    piece.add_(1)
    b = L.ones(4)
    other = b.chunk(2)[0]
    b.mul_(w.sum())
    try:
        out.append(other.grad_fn)
    except RuntimeError as error:
        out.append(error)
    return out + [a]


@case
def retained_base_changed_through_a_view(L):
    # retain_grad() follows the base's new history (CopySlices), not the old one
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    s = y.sigmoid()
    y.retain_grad()
    y[:2].mul_(3)
    (s.sum() + y.sum()).backward()
    return [y.grad, x.grad]


@case
def second_order_of_norm(L):
    out = []
    data = (np.arange(24.0, dtype=np.float32).reshape(2, 3, 4) % 5) - 2
    for kwargs in ({}, {"dim": 1}, {"dim": (0, 2)}):
        x = L.tensor(data, requires_grad=True)
        (g,) = L.autograd.grad(x.norm(**kwargs).sum(), x, create_graph=True)
        (h,) = L.autograd.grad((g * g).sum(), x)
        out += [graph(g), graph(g.grad_fn.next_functions[1][0]), g, h]
    return out


@case
def printing_a_view_whose_history_is_lost(L):
    x = L.ones(3, requires_grad=True) * 1
    piece = x.unbind()[0]
    with L.no_grad():
        x.add_(1)
    return repr(piece).replace("minigrad", "torch")


@case
def logsumexp_saves_its_result(L):
    out = []
    data = (np.arange(24.0, dtype=np.float32).reshape(2, 3, 4) % 5) - 2
    for kwargs in ({"dim": 1}, {"dim": (0, 2)}, {"dim": 2, "keepdim": True}):
        x = L.tensor(data, requires_grad=True)
        (g,) = L.autograd.grad((x.logsumexp(**kwargs) ** 2).sum(), x, create_graph=True)
        (h,) = L.autograd.grad((g * g).sum(), x)
        out += [graph(g), g, np.round(np.asarray(h.tolist()), 3).tolist()]   # float32 sums differ
    y = L.tensor(data, requires_grad=True).logsumexp(1)
    y.add_(1)
    try:
        y.sum().backward()
    except RuntimeError as error:
        out.append(error)
    return out


@case
def overlapping_memory_in_place(L):
    # PyTorch compares only dense tensors: the same bytes with the same strides are fine,
    # other overlaps are refused, non-dense ones are let through
    out = []
    for change in (lambda x: x.copy_(x.t()), lambda x: x[:2].add_(x[1:]),
                   lambda x: x.add_(x.view(-1).view(3, 3)), lambda x: x[0].copy_(x[:, 0]),
                   lambda x: x[:1].copy_(x[1:2]), lambda x: x.add_(x[0]),
                   lambda x: x[1].mul_(x[:2].sum(0))):
        x = L.arange(9.0).reshape(3, 3)
        try:
            change(x)
            out.append(x)
        except RuntimeError as error:
            out.append(error)
    y = L.ones(1, 1, 3)
    y[0] = y
    return out + [y]


def outcomes(*steps):
    """Run each step; what it returned or the error it raised, in order."""
    out = []
    for step in steps:
        try:
            out.append(step())
        except Exception as error:       # the error is part of what must match
            out.append(error)
    return out


def errors_of(*steps):
    """Run each step; the errors (or None) it raised, in order."""
    out = []
    for step in steps:
        try:
            step()
            out.append(None)
        except Exception as error:       # the error is part of what must match
            out.append(error)
    return out


# --- found by the random programs (test_fuzz_vs_torch.py) ------------------------------------------

@case
def zero_dim_tensor_index_errors(L):
    x = L.tensor(1.5, requires_grad=True)
    y = L.tensor(2.0)

    def assign(index, value):
        y[index] = value
    return errors_of(lambda: x[0], lambda: x[:1], lambda: x[:], lambda: x[(0,)], lambda: x[[0, 0]],
                     lambda: x[0, None], lambda: x.select(0, -1), lambda: x.unbind(),
                     lambda: x.split(1), lambda: x.chunk(2), lambda: L.cat([x, x]),
                     lambda: L.cat([L.ones(3), x]), lambda: assign(0, 1.0),
                     lambda: assign(slice(None, 1), 1.0), lambda: assign(0, L.tensor(2.0)),
                     lambda: assign([0], 1.0)) + [x[None], x[...], x[x > 0]]


@case
def split_and_chunk_of_an_empty_dimension(L):
    x = L.ones(0, requires_grad=True) * 1
    return [[graph(piece) for piece in pieces] for pieces in
            (x.split(1), x.split(3), x.chunk(2), x.split([0]))]


@case
def cat_skips_empty_1d_tensors(L):
    e = L.ones(0, requires_grad=True)
    x = L.ones(2, 3, requires_grad=True)
    y = L.cat([e, x, e])
    y.sum().backward()
    return [y, graph(y), e.grad, x.grad, L.cat([e, e]), L.cat([x, L.ones(0)], 1)] + errors_of(
        lambda: L.cat([e, L.ones(())]))


@case
def copy_broadcast_errors(L):
    return errors_of(lambda: L.ones(3).copy_(L.ones(2, 3)), lambda: L.ones(3).copy_(L.ones(2)),
                     lambda: L.ones(2, 1, 3).copy_(L.ones(2, 3)),
                     lambda: L.ones(1, 2, 3).copy_(L.ones(1, 1, 2, 3)),
                     lambda: L.ones(()).copy_(L.ones(1)), lambda: L.ones(6).copy_(L.ones(1, 3)))


@case
def inplace_checks_come_in_pytorchs_order(L):
    leaf = L.ones(3, requires_grad=True)
    expanded = leaf.expand(2, 3)               # a view of a leaf, and memory seen twice
    y = leaf * 1
    with L.no_grad():
        no_grad_view = y.expand(2, 3)           # made under no_grad, memory seen twice
    plain = L.ones(2, 3)
    with L.no_grad():
        piece = plain.chunk(2)[-1]
    gradient = L.autograd.grad(leaf.sum(), leaf)[0]     # PyTorch hands out an expanded tensor
    x = L.ones(2, 3, requires_grad=True)
    with L.no_grad():
        chunked = x.chunk(2)[-1]
    return errors_of(lambda: expanded.add_(1), lambda: leaf.copy_(leaf.flip(0)),
                     lambda: leaf.copy_(L.ones(2, 3)), lambda: no_grad_view.add_(1),
                     lambda: no_grad_view.copy_(L.ones(2, 3)), lambda: piece.add_(leaf[:1]),
                     lambda: gradient.copy_(leaf), lambda: gradient.add_(leaf),
                     lambda: chunked[0].fill_(3.0))


@case
def copy_from_the_same_elements_copies_nothing(L):
    x = L.ones(2, 3, requires_grad=True)
    gradient = L.autograd.grad(x.sum(), x)[0]          # expanded memory
    same = gradient.permute(1, 0).t()
    same.copy_(gradient)
    point = L.tensor(1.5)
    errors = errors_of(lambda: point.view(1)[0].copy_(point.view(1)),
                       lambda: point.squeeze().copy_(point.view(-1)))
    return [same, gradient._version, errors]


@case
def changed_unbind_and_split_pieces_keep_their_node_in_errors(L):
    x = L.ones(2, 3, requires_grad=True)
    piece = x.unbind()[0]
    with L.no_grad():
        piece.zero_()
    y = L.ones(2, 1, 3, requires_grad=True) @ L.ones(3, requires_grad=True)
    last = y.chunk(2)[-1]
    y[0] = 3.0
    z = (x * 1).split([1, 1])[0]
    return errors_of(lambda: piece.div_(2), lambda: last.sub_(0.5), lambda: z.mul_(2))


@case
def setitem_broadcast_errors_come_before_overlap(L):
    e = L.ones(1, 3).expand(2, 3)

    def assign(index, value):
        e[index] = value
    t = L.ones(2, 3)
    return errors_of(lambda: assign(0, 1.0), lambda: assign(0, L.ones(3)),
                     lambda: assign(0, L.ones(2, 1, 3)), lambda: assign(0, L.ones(2)),
                     lambda: assign(slice(None), 1.0), lambda: assign(Ellipsis, 1.0),
                     lambda: t.__setitem__(slice(None), L.ones(3, 2)),
                     lambda: L.ones(3, 2).expand(2, 3))


@case
def maximum_and_minimum_second_order_graph(L):
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = L.tensor([1.0, 3.0, 2.0], requires_grad=True)
    out = []
    for pick in (L.maximum, L.minimum):
        z = pick(x * x, y)
        gx, gy = L.autograd.grad((z * z).sum(), [x, y], create_graph=True)
        node = gy.grad_fn
        out += [gx, gy, graph(gx), graph(gy), graph_of_node(node.next_functions[0][0]),
                graph_of_node(node.next_functions[0][0].next_functions[0][0])]
    a = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = L.tensor([[1.0], [3.0]], requires_grad=True)
    L.maximum(a, b).sum().backward()
    return out + [a.grad, b.grad]


@case
def expand_of_a_0d_tensor_sums_in_one_step(L):
    c = L.tensor(2.0, requires_grad=True)
    x = L.ones(2, 3, requires_grad=True)
    g = L.autograd.grad((c.expand(2, 3) * x).sum(), c, create_graph=True)[0]
    return [g, graph(g)]


@case
def matmul_mixed_dtype_messages(L):
    out = []
    for a in [(3,), (2, 3), (2, 1, 3), (1, 1, 3)]:
        for b in [(3,), (3, 2), (2, 3, 2), (1, 3, 2), (1, 1, 3, 2)]:
            for grad_a, grad_b in [(False, False), (True, False), (False, True)]:
                out += errors_of(
                    lambda: L.ones(a, dtype=L.float64, requires_grad=grad_a) @ L.ones(b, requires_grad=grad_b),
                    lambda: L.ones(a, requires_grad=grad_a) @ L.ones(b, dtype=L.float64, requires_grad=grad_b))
    return out


def approx(t):
    """Values to 3 decimals (float32 rounding may differ in the 5th)."""
    rounded = np.round(np.asarray(t.detach().tolist(), dtype=float), 3) + 0.0     # -0.0 is 0.0
    return np.where(np.isnan(rounded), "nan", rounded.astype(str)).tolist()


def chain(node):
    """A node and everything below it, as nested names (second-order graphs)."""
    if node is None:
        return None
    return [node, [chain(n) for n, _ in node.next_functions]]


@case
def norm_second_order_graphs(L):
    out = []
    for p in (1, 1.5, 3, float("inf")):
        for dim in (None, 0, -1):
            x = L.tensor([[1.0, -2.0, 3.0], [0.5, 3.0, -1.0]], requires_grad=True)
            y = x.norm(p) if dim is None else x.norm(p, dim=dim)
            g = L.autograd.grad((y * y).sum(), x, create_graph=True)[0]
            second = L.autograd.grad(g.sum(), x)[0]
            out += [approx(g), chain(g.grad_fn), approx(second)]
    return out


@case
def norm_inf_forward_mode(L):
    fa = L.autograd.forward_ad
    out = []
    for dim in (None, 0, 1):
        x = L.tensor([[1.0, -3.0, 2.0], [3.0, 0.5, -1.0]])
        tangent = L.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])
        with fa.dual_level():
            dual = fa.make_dual(x, tangent)
            y = dual.norm(float("inf")) if dim is None else dual.norm(float("inf"), dim=dim)
            out.append(approx(fa.unpack_dual(y).tangent))
    return out


@case
def gelu_second_order_graph(L):
    out = []
    for approximate in ("none", "tanh"):
        x = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = L.nn.functional.gelu(x * 1, approximate=approximate)
        g = L.autograd.grad((y * y).sum(), x, create_graph=True)[0]
        second = L.autograd.grad(g.sum(), x)[0]
        out += [approx(g), chain(g.grad_fn), approx(second)]
    return out


@case
def zero_dim_tensor_sorting_gathering_and_rolling(L):
    x = L.tensor(1.5, requires_grad=True)
    y = L.tensor(2.5, requires_grad=True)
    i = L.zeros((), dtype=L.int64)
    done = [x.topk(1)[0], x.scatter(0, i, y), x.scatter_add(0, i, y), x.gather(0, i),
            x.index_select(0, L.tensor([0])), x.roll(1)]
    return [[t, graph(t)] for t in done] + errors_of(
        lambda: x.roll(1, 0), lambda: x.index_select(0, L.tensor([0, 0])))


@case
def floor_divide_node_has_edges_to_inputs_that_require_grad(L):
    x = L.ones(3, requires_grad=True)
    c = L.ones(3)
    return [graph(r) for r in (x // c, c // x, 7 // x, x // 7, x // x)] + [(c // c).grad_fn]


@case
def addmm_dtype_messages(L):
    d = L.float64
    return errors_of(*[lambda a=a, b=b, c=c: L.addmm(L.ones(1, 1, dtype=a), L.ones(1, 3, dtype=b),
                                                       L.ones(3, 1, dtype=c))
                       for a, b, c in [(d, None, None), (None, d, None), (None, None, d),
                                       (d, d, None)]] + [
        lambda: L.addmm(L.ones(1, 1, dtype=d), L.ones(1, 3), L.ones(2, 1))])


@case
def squeeze_and_unsqueeze_in_place_regenerate_views(L):
    x = L.ones(2, 3, requires_grad=True)
    v = x[:1]
    with L.no_grad():
        x.unsqueeze_(0)
    y = L.ones(2, 3, requires_grad=True) * 1
    w = y[:1]
    y.unsqueeze_(0)
    z = (L.ones(2, 1, 3, requires_grad=True) * 1)
    u = z.transpose(0, -1)
    u.squeeze_()
    e = L.ones(1, 3).expand(2, 1, 3)
    e.squeeze_(1)
    return [x._version, graph(v), y._version, graph(y), graph(w), graph(u), graph(z), e.shape]


@case
def zero_dim_mask_assignment_writes_through_a_view(L):
    x = L.tensor(1.5, requires_grad=True)

    def assign(t, mask, value):
        t[mask] = value
        return t
    done = [assign(x * 1, x > 0, 2.0), assign(x * 1, x > 0, L.tensor(2.0, requires_grad=True)),
            assign(x * 1, x < 0, 2.0)]
    y = x * 1
    assign(y, y > 0, 3.0)
    y.backward()
    return [[t, graph(t)] for t in done] + [x.grad] + errors_of(lambda: assign(x, x > 0, 2.0))


@case
def reduction_second_order_graphs(L):
    out = []
    for shape in [(), (3,), (2, 3)]:
        for reduce in (lambda x: x.max(0)[0], lambda x: x.min(-1, keepdim=True)[0],
                       lambda x: x.max(), lambda x: x.amax(), lambda x: x.mean(0),
                       lambda x: x.std(), lambda x: x.std(0), lambda x: x.var(-1),
                       lambda x: x.sort(0)[0], lambda x: x.topk(1, 0)[0]):
            x = L.tensor(np.arange(1.0, 1 + np.prod(shape)).reshape(shape) * 0.7 - 1,
                         requires_grad=True)
            y = reduce(x)
            g = L.autograd.grad((y * y).sum(), x, create_graph=True)[0]
            out += [approx(g), chain(g.grad_fn), approx(L.autograd.grad(g.sum(), x)[0])]
    return out


@case
def product_and_activation_second_order_graphs(L):
    out = []
    for data in ([[1.0, 0.5, 2.0], [3.0, -4.0, 1.5]], [[1.0, 0.0, 2.0], [3.0, 4.0, 0.0]], 1.5):
        for f in (lambda x: x.prod(), lambda x: x.prod(0), lambda x: x.cumprod(-1),
                  lambda x: L.nn.functional.softplus(x), lambda x: L.nn.functional.elu(x),
                  lambda x: L.nn.functional.silu(x), lambda x: x.cumprod(0)):
            x = L.tensor(data, requires_grad=True)
            y = f(x)
            g = L.autograd.grad((y * y).sum(), x, create_graph=True)[0]
            out += [approx(g), chain(g.grad_fn), approx(L.autograd.grad(g.sum(), x)[0])]
    return out


@case
def index_assignment_into_expanded_memory(L):
    import warnings
    e = L.ones(1, 3).expand(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e[e > 0] = 2.0
        first = e.clone()
        e[[0]] = 3.0
        second = e.clone()
        x = L.ones(3, requires_grad=True)
        g = L.autograd.grad(x.sum(), x)[0]
        g[g > 0] = 4.0
    return [first, second, g]


@case
def extremes_of_no_elements(L):
    return errors_of(lambda: L.ones(0).amin(), lambda: L.ones(0).amax(),
                     lambda: L.ones(0, 3).amax(0), lambda: L.ones(0).max(0),
                     lambda: L.ones(0).max(), lambda: L.ones(0, 3).min(0),
                     lambda: L.ones(0).max(-1), lambda: L.ones(0, 3).amax((1, -2))) + [
        L.ones(0, 3).amax(1), L.ones(0, 3).max(1)]


@case
def index_add_saves_its_source(L):
    x = L.ones(2, 3, requires_grad=True)
    s = L.ones(1, 3, requires_grad=True)
    source = s * 1
    y = x.index_add(0, L.tensor([0]), source)
    g = L.autograd.grad((y * y).sum(), s, create_graph=True)[0]
    z = x.index_add(0, L.tensor([0]), source, alpha=2.0)
    with L.no_grad():
        source.add_(1)                  # saved by index_add: its backward must refuse
    return [g, graph(g)] + errors_of(lambda: z.sum().backward())


@case
def step_functions_give_constant_zero_gradients(L):
    out = []
    for step in (L.floor, L.round, L.ceil, L.trunc, L.sign):
        x = L.tensor([1.5, 2.5], requires_grad=True)
        y = step(x) * x
        g = L.autograd.grad((y * y).sum(), x, create_graph=True)[0]
        out += [g, graph(g)]
    return out


@case
def gather_saves_its_input(L):
    x = L.ones(2, 3, requires_grad=True) * 1
    y = x.gather(0, L.zeros(1, 3, dtype=L.int64))
    with L.no_grad():
        x.add_(1)
    return errors_of(lambda: y.sum().backward())


@case
def baddbmm_dtype_messages(L):
    d = L.float64
    return errors_of(*[lambda a=a, b=b, c=c: L.baddbmm(L.ones(1, 1, 1, dtype=a), L.ones(1, 1, 3, dtype=b),
                                                         L.ones(1, 3, 1, dtype=c))
                       for a, b, c in [(d, None, None), (None, d, None), (None, None, d)]])


@case
def index_put_and_index_add_dtype_errors(L):
    x = L.ones(3)
    y = L.ones(3, requires_grad=True) * 1

    def assign(t, index, value):
        t[index] = value
    double = L.tensor(2.0, dtype=L.float64)
    return errors_of(lambda: assign(x, x > 0, double), lambda: assign(y, y > 0, double),
                     lambda: assign(y, [0], double), lambda: assign(x, [0], double),
                     lambda: assign(L.tensor(1.0), L.tensor(True), double),
                     lambda: assign(L.tensor(1.0, requires_grad=True), L.tensor(True), double),
                     lambda: assign(x, x > 0, L.tensor([2.0], dtype=L.float64)),
                     lambda: L.ones(3).index_add(0, L.tensor([0]), L.ones(1, dtype=L.float64))) + [y]


@case
def second_order_graphs_as_pytorch_writes_them(L):
    # silu's backward adds a plain number (AddBackward1) to x * (ones - s); cumprod through
    # zeros is computed one element at a time (select(dim, k).copy_: CopySlices); var and
    # std with no degrees of freedom multiply grad by a constant NaN tensor
    out = []
    for data, f in (([0.5, -1.2, 2.0], lambda L, x: L.nn.functional.silu(x)),
                    ([1.0, 0.0, 2.0], lambda L, x: x.cumprod(-1)),
                    ([[1.0, 0.0, 2.0], [0.5, 3.0, 0.0]], lambda L, x: x.cumprod(1)),
                    ([[1.0, 0.0, 2.0], [0.0, 3.0, 1.0]], lambda L, x: x.cumprod(0)),
                    ([[0.0, 2.0]], lambda L, x: x.cumprod(0)),
                    ([0.5], lambda L, x: x.std()), ([0.5], lambda L, x: x.var()),
                    (0.5, lambda L, x: x.std()), ([[0.5]], lambda L, x: x.std(0))):
        x = L.tensor(data, requires_grad=True)
        w = L.tensor(np.linspace(0.5, 1.5, x.numel()).reshape(x.shape), requires_grad=True)
        g = L.autograd.grad((f(L, x * 1.5) * w).sum(), x, create_graph=True)[0]
        out += [approx(g), chain(g.grad_fn)]
        if g.requires_grad:
            out.append([approx(t) for t in L.autograd.grad((g * g).sum(), (x, w))])
    return out


@case
def result_saved_by_an_in_place_operation_is_the_tensor(L):
    # x.exp_() saves its result, x itself: changing x again makes backward refuse it
    out = []
    for ops in (("exp_", "relu_"), ("exp_", "add_"), ("sigmoid_",), ("tanh_", "mul_"),
                ("sqrt_", "zero_")):
        leaf = L.tensor([0.5, 1.0, 2.0], requires_grad=True)
        y = leaf * 1 if ops[0] != "tanh_" else (leaf * 1)[:2]
        for op in ops:
            getattr(y, op)(*((2.0,) if op in ("add_", "mul_") else ()))
        out += errors_of(lambda: y.sum().backward()) + [leaf.grad]
    return out


@case
def third_order_graphs_of_elu_and_division(L):
    # elu's double backward goes through elu's backward again (times a 0/1 mask), and
    # div's gradient for the divisor is -grad * ((self / other) / other), as PyTorch writes them
    out = []
    for f in (lambda x: L.nn.functional.elu(x), lambda x: x.cumprod(0), lambda x: x.prod(0),
              lambda x: x / (x * x + 1)):
        for data in ([0.5, -1.2, 2.0], [-0.7], [0.4]):
            x = L.tensor(data, requires_grad=True)
            w = L.tensor(np.linspace(0.5, 1.5, x.numel()), dtype=L.float32, requires_grad=True)
            g = L.autograd.grad((f(x) * w).sum(), x, create_graph=True)[0]
            g2 = L.autograd.grad((g * g * w).sum(), x, create_graph=True)[0]
            out += [chain(g.grad_fn), chain(g2.grad_fn), approx(g2)]
    return out


@case
def elu_in_place_saves_its_result(L):
    # the input is overwritten, so EluBackward1 saves the result and its gradient is
    # elu_backward from the result (is_result): slope result + alpha, 1 at NaN, 0 at -inf;
    # with create_graph the graphs go through EluBackwardBackward0 to EluBackward1
    out = []
    for alpha in (1.0, 0.5):
        x = L.tensor([-1.0, 0.0, 2.0, float("nan"), -float("inf"), -0.3], requires_grad=True)
        w = L.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
        y = L.nn.functional.elu(x * 1, alpha=alpha, inplace=True)
        node = y.grad_fn
        out += [node, sorted(a for a in dir(node) if a.startswith("_saved_") and a[7:] in (
            "result", "self", "alpha", "scale", "input_scale")), node._saved_alpha, approx(node._saved_result)]
        g = L.autograd.grad((y * w).sum(), x, create_graph=True)[0]
        g2 = L.autograd.grad((g * g * w).sum(), [x, w], create_graph=True)
        g3 = L.autograd.grad(g2[0].sum(), x, allow_unused=True)[0]
        out += [approx(g), chain(g.grad_fn), [approx(t) for t in g2], [chain(t.grad_fn) for t in g2],
                None if g3 is None else approx(g3)]
    z = L.tensor([-2.0, 1.5], requires_grad=True)
    u = z.clone()
    out.append(L.nn.functional.elu_(u, 2.0) is u)
    u.sum().backward()
    out.append(z.grad)
    fw = L.autograd.forward_ad           # forward mode: the tangent through the same slope
    with fw.dual_level():
        dual = fw.make_dual(L.tensor([-1.0, 0.5, -2.0]), L.tensor([1.0, 2.0, 3.0]))
        out.append(approx(fw.unpack_dual(L.nn.functional.elu(dual * 1, inplace=True)).tangent))
    return out


@case
def sort_results_are_laid_out_like_the_input_and_freed_by_backward(L):
    x = L.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]], requires_grad=True)
    out = []
    for values in (x.t().sort(0)[0], x.t().sort(1)[0], x.t().sort(0)[1], x.sort(0)[0],
                   x.t().gather(1, x.t().argsort(1))):
        out += errors_of(lambda: values.view(-1))
    for f in (lambda: x.sort(0)[0], lambda: x.topk(1)[0], lambda: x.sort(1, descending=True)[0]):
        y = f()
        L.autograd.grad(y.sum(), x)
        out += errors_of(lambda: L.autograd.grad(y.sum(), x))
    return out


@case
def squeeze_backward_unsqueezes_only_what_was_squeezed(L):
    # PyTorch's unsqueeze_to: one UnsqueezeBackward0 per squeezed dim, nothing when nothing was
    out = []
    for shape in [(2, 3), (2, 1, 3), (1, 3, 1), ()]:
        for f in (lambda x: x.squeeze(), lambda x: x.squeeze(0), lambda x: x.squeeze(-1),
                  lambda x: x.clone().squeeze_(), lambda x: x.clone().squeeze_(0)):
            x = L.ones(shape, requires_grad=True)
            y = f(x)
            g = L.autograd.grad((y * y).sum(), x, create_graph=True)[0]
            out += [chain(g.grad_fn), list(g.shape)]
    return out


@case
def matmul_batch_dimensions_that_clash(L):
    return errors_of(*[lambda a=a, b=b: L.ones(a) @ L.ones(b)
                       for a, b in [((2, 2, 1, 3), (3, 3, 2)), ((2, 1, 3), (3, 4, 3, 2)),
                                    ((4, 2, 2, 3), (3, 1, 3, 4))]])


@case
def scans_give_contiguous_results_and_lost_views_name_their_node(L):
    x = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    t = x.t()
    out = [graph(t.cumsum(0).flatten()), graph(t.cumprod(1).flatten())]
    leaf = L.tensor(2.0, requires_grad=True)
    with L.no_grad():
        e = leaf.expand(4)
        e.requires_grad_()
    s = e[::2]                       # a view of a no_grad view
    with L.no_grad():
        leaf.sub_(1)                 # its history is lost
    return out + errors_of(lambda: s.mul_(2))


@case
def pow_with_a_tensor_exponent_second_order_graphs(L):
    # grad_self = where(b == 0, 0, grad * (b * a ** (b - 1))) (b - 1: SubBackward1);
    # grad_exponent = grad * where((a == 0) & (b >= 0), 0, result * log(a))
    out = []
    for a_data, b_data in [([0.5, 2.0, 0.0], [1.5, 0.0, 2.0]), ([0.5, 2.0, 3.0], [1.5, -1.0, 2.0])]:
        a = L.tensor(a_data, requires_grad=True)
        b = L.tensor(b_data, requires_grad=True)
        grads = L.autograd.grad(((a * 1) ** (b * 1)).sum(), (a, b), create_graph=True)
        out += [chain(g.grad_fn) for g in grads] + [approx(g) for g in grads]
    return out


@case
def lost_history_raises_before_the_operations_own_checks(L):
    leaf = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    x = leaf * 1
    first, second = x.unbind()       # views made by a function that returns several
    with L.no_grad():
        x.mul_(2)                     # their history is lost
    return errors_of(lambda: L.cat([second, L.tensor(1.0)]), lambda: L.stack([second, x]),
                     lambda: second.unsqueeze(0).expand(2, 2, 3).t(),
                     lambda: L.ones(2).copy_(second), lambda: L.ones(2).add_(second))


@case
def overlap_compares_strides_of_size_one_dims(L):
    # PyTorch compares two dense tensors over the same bytes by all their strides, those of
    # size-1 dims too; view, reshape, unsqueeze and expand give size-1 dims its strides
    out = []
    for change in (lambda a: a.copy_(a.view(1, 3)), lambda a: a.add_(a.unsqueeze(0)[0]),
                   lambda a: a.copy_(a[0].unsqueeze(0)), lambda a: a.mul_(a.expand(1, 3)),
                   lambda a: a[0].copy_(a.reshape(3)), lambda a: a.__setitem__(0, a),
                   lambda a: a.copy_(a.reshape(1, 1, 3)[0]), lambda a: a.copy_(a[None][0])):
        a = L.arange(6.0).reshape(2, 3)[::2]           # shape (1, 3), strides (6, 1)
        try:
            change(a)
            out.append(a)
        except RuntimeError as error:
            out.append(error)
    for shape in [(1, 1, 3), (1, 3)]:
        y = L.ones(shape)
        y[0] = y
        out.append(y)
    return out


@case
def no_grad_view_with_lost_history_raises_before_shape_errors(L):
    # PyTorch records an operation (and so asks for each input's history) before it computes:
    # a view made under no_grad whose base changed raises the lost-history error first, for
    # operators, matmul's products, where, masked_fill and clamp; the comparisons, which are
    # not recorded, and matmul's own checks before it multiplies give their own errors
    def lost(*shape):
        x = L.ones(*shape, requires_grad=True)
        base = x * 1
        with L.no_grad():
            view = base[0]
            base.mul_(2)
        return view
    four, mask = L.ones(4), L.ones(4) > 0
    return errors_of(
        lambda: lost(2, 3) * four, lambda: lost(2, 3) % four, lambda: four - lost(2, 3),
        lambda: lost(2, 3) / four, lambda: lost(2, 3) ** four, lambda: L.maximum(lost(2, 3), four),
        lambda: L.where(mask, lost(2, 3), 0.0), lambda: lost(2, 3).masked_fill(mask, 0.0),
        lambda: lost(2, 3).clamp(None, four), lambda: lost(2, 3) // four,
        lambda: lost(2, 3) @ four, lambda: L.ones(4, 2) @ lost(2, 3), lambda: lost(2, 2, 3) @ L.ones(4, 2),
        lambda: lost(2, 2, 2, 3) @ L.ones(4, 2), lambda: L.ones(4, 2) @ lost(2, 2, 3, 2),
        lambda: lost(2, 2, 2, 3) @ L.ones(2, 4, 2), lambda: L.bmm(lost(2, 2, 2, 3), L.ones(2, 4, 2)),
        lambda: lost(2, 2, 3, 3) @ L.ones(4, 3, 2), lambda: lost(2) @ L.ones(4, 2),
        lambda: lost(2, 3) == four, lambda: L.where(L.ones(3) > 0, four, 0.0),
        lambda: L.where(L.ones(3, 1) > 0, four, L.ones(5)))


@case
def matmul_folds_empty_tensors_and_reshape_refuses_an_ambiguous_minus_one(L):
    # matmul folds the batch into rows with the row count written out, so a last dim of 0
    # folds; reshape(-1, 0) of an empty tensor cannot infer -1, and PyTorch says so
    def product(shape_a, shape_b):
        def program():
            a = L.ones(*shape_a, requires_grad=True)
            b = L.ones(*shape_b, requires_grad=True)
            out = a @ b
            out.sum().backward()
            return [out.shape, out.grad_fn, a.grad.shape, b.grad.shape]
        return program
    return outcomes(product((2, 3, 0), (0, 4)), product((0,), (2, 0, 4)), product((2, 3, 0), (0,)),
                    product((4, 3), (2, 3, 0)), product((2, 0, 3), (3,)),
                    lambda: L.ones(2, 3, 0).reshape(-1, 0), lambda: L.ones(0).view(0, -1),
                    lambda: L.ones(6).view(-1, 0), lambda: L.ones(2, 0).reshape(-1).shape)


@case
def no_grad_view_asked_to_require_grad_still_loses_its_history(L):
    # requires_grad_() on a view made under no_grad does not spare it PyTorch's lost-history
    # error when its base then changes in place: an operation on it asks for its history
    out = []
    for base_requires_grad in (True, False):
        a = L.ones(3, requires_grad=base_requires_grad)
        b = a * 2 if base_requires_grad else a.clone()
        with L.no_grad():
            c = b[0]
        c.requires_grad_()
        b.add_(1)
        out += errors_of(lambda: c * 2, lambda: c.grad_fn, lambda: L.stack([c, c]))
    return out


@case
def index_select_positions_out_of_range(L):
    # no negative positions; an empty input or dim 1 of a matrix get PyTorch's other kernels' text
    def select(shape, dim, positions, view=lambda x: x):
        return lambda: view(L.ones(*shape)).index_select(dim, L.tensor(positions))
    return errors_of(select((0, 1, 3), 0, [0, 0]), select((2, 0), 1, [0]), select((2, 0), 0, [5]),
                     select((2, 3), 1, [1, 5]), select((2, 3), 0, [5]), select((2, 3), 1, [-1]),
                     select((3,), 0, [-1]), select((2, 3), 0, [-1]), select((2, 3, 4), 2, [0, 9]),
                     select((3, 2), 1, [5], lambda x: x.t()), select((2, 0, 3), 2, [5]),
                     select((0, 2), 1, [2]), select((0, 2), 1, [1]),
                     lambda: L.tensor(1.0).index_select(0, L.tensor([1])))


@case
def retained_view_changed_under_no_grad_and_lost_view_reaching_backward(L):
    # retain_grad() follows a view to the history it gets after an in-place change under no_grad;
    # a no_grad view asked to require grad, whose base then changed, makes backward raise when
    # the gradient reaches it (PyTorch's AccumulateGrad asks the leaf for its grad_fn)
    out = []
    for use_grad in (False, True):
        a = L.ones(2, 3, requires_grad=True)
        b = a[1:]
        b.retain_grad()
        with L.no_grad():
            b.div_(2)
        if use_grad:
            L.autograd.grad(b.sum(), [a])
        else:
            b.sum().backward()
        out.append(b.grad)
    a = L.ones(2, 3, requires_grad=True)
    with L.no_grad():
        v = a[...]
    v.requires_grad_()
    s = v.sum(0)
    with L.no_grad():
        a.sub_(1)
    return out + errors_of(lambda: s.sum().backward()) + [a.grad, s.grad_fn.next_functions[0][1]]


@case
def detached_expanded_tensor_may_not_be_written(L):
    # detach() keeps the memory (and its strides): elements seen twice may not be written
    def write(requires_grad, change):
        return lambda: change(L.ones(3, requires_grad=requires_grad).expand(2, 3).detach())
    return errors_of(write(False, lambda d: d.mul_(1)), write(True, lambda d: d.add_(1)),
                     write(False, lambda d: d.fill_(2)), write(False, lambda d: d[0].mul_(2)),
                     lambda: L.ones(2, 3).detach().mul_(2))


@case
def clamp_with_tensor_bounds_gradients_are_wheres(L):
    # PyTorch's clamp backward picks the gradient with where (so second-order graphs show
    # WhereBackward0), and when min > max the result is max: only max gets a gradient
    x = L.tensor([0.5, -1.0, 2.0, 5.0], requires_grad=True)
    low = L.tensor([0.0, 0.0, 3.0, 4.0], requires_grad=True)
    high = L.tensor([1.0, 1.0, 2.5, 3.0], requires_grad=True)
    out = []
    for bounds in [dict(min=low), dict(max=high), dict(min=low, max=high), dict(min=high, max=low)]:
        result = (x * 1).clamp(**bounds)
        grads = L.autograd.grad((result.sin() * L.arange(4.0)).sum(), [x] + list(bounds.values()),
                                create_graph=True)
        out += [[approx(g) for g in grads], [graph(g) for g in grads]]
    return out


@case
def product_that_computes_no_gradient_checks_nothing(L):
    # a no_grad view of a leaf requires grad but has no gradient edge: the product of it
    # computes no gradient, so PyTorch never unpacks (or checks) what it saved; a
    # one-input node such as log or sin unpacks first, and raises
    out = []
    for make in (lambda v: v * v, lambda v: v * v.detach(), lambda v: v * 2, lambda v: v.exp(),
                 lambda v: v.log(), lambda v: v.sin()):
        a = L.ones(2, 1, 3, requires_grad=True)
        with L.no_grad():
            v = a[0]
        result = make(v)
        with L.no_grad():
            v.floor_()
        out += errors_of(lambda: result.sum().backward())
    return out


@case
def lost_view_keeps_its_old_graph_alive(L):
    # a piece of unbind loses its history when its (leaf) base is squeezed in place, but the
    # graph behind it, the leaf's AccumulateGrad with the old shape among it, stays alive
    a = L.ones(2, 1, 3, requires_grad=True)
    piece = a.unbind()[0]
    piece.sum().backward(retain_graph=True)
    with L.no_grad():
        a.squeeze_()
    return errors_of(lambda: a.sum().backward(), lambda: piece.grad_fn) + [a.grad.shape]


@case
def cumprod_and_prod_results_changed_in_place_name_their_own_node(L):
    # they save their result: PyTorch's message names the node that made it, not the in-place
    # operation that changed it later
    out = []
    for make in (lambda x: x.cumprod(0), lambda x: x.prod(), lambda x: x.prod(0)):
        for change in (lambda y: y.pow_(2), lambda y: y.clamp_(0, 1)):
            x = L.tensor([0.5, 2.0, 3.0], requires_grad=True)
            y = make(x * 1)
            change(y)
            out += errors_of(lambda: y.sum().backward())
    return out


@case
def leaf_reshaped_in_place_after_the_graph_recorded_it(L):
    # the gradient is checked against the shape the graph recorded; the first .grad keeps the
    # gradient's shape when backward owns it and it is laid out like the leaf, else it is copied
    # into the leaf's current shape (broadcasting, which may fail); later ones add in place
    def reshaped(shape, change, use=lambda x: x * 2, grad=None, again=False, create_graph=False):
        def program():
            x = L.ones(*shape, requires_grad=True)
            y = use(x)
            with L.no_grad():
                change(x)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")      # create_graph=True's reference-cycle warning
                y.backward(grad if grad is not None else L.ones(y.shape), create_graph=create_graph)
                if again:
                    (x * 3).sum().backward(create_graph=create_graph)
            return [x.grad.shape, x.grad.stride(), x.grad]
        return program
    squeeze, unsqueeze0, unsqueeze1 = (lambda x: x.squeeze_(), lambda x: x.unsqueeze_(0),
                                       lambda x: x.unsqueeze_(1))
    return outcomes(
        reshaped((2, 1), squeeze), reshaped((2,), unsqueeze0), reshaped((1, 2), squeeze),
        reshaped((2, 1), squeeze, create_graph=True), reshaped((2, 1), squeeze, use=lambda x: x.sum()),
        reshaped((1, 2), squeeze, use=lambda x: x.sum()), reshaped((2,), unsqueeze1, use=lambda x: x.sum()),
        reshaped((2,), unsqueeze0, again=True), reshaped((2,), unsqueeze1, again=True),
        reshaped((2,), unsqueeze1, use=lambda x: (x * 2).sum(), again=True, create_graph=True),
        reshaped((2, 1), squeeze, grad=L.ones(2, 1), again=True))


def _first_lines_of_errors(L, programs):
    """The first line of each program's error (None if it raises none)."""
    found = []
    for program in programs:
        try:
            program(L)
            found.append(None)
        except RuntimeError as error:
            found.append(str(error).splitlines()[0])
    return found


def _changed_after_saving(make, change_first, change_second):
    """make(a, b) saves a and b; each is then changed in place (b twice, to tell them apart)."""
    def program(L):
        x = L.tensor([[0.5, 1.5, 2.5], [1.0, -2.0, 3.0]], requires_grad=True)
        a, b = x * 1, x * 2 + 1
        out = make(L, a, b)
        change_first(a)
        change_second(b)
        out.sum().backward()
    return program


def _twice(t):
    t.add_(1)
    t.add_(1)


@case
def saved_tensor_changed_through_a_view_is_output_of_copy_slices(L):
    def program(L, change):
        x = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        y = x * 1
        z = y.sin()
        change(y)
        z.sum().backward()
    changes = [lambda y: y.__setitem__(0, 3.0), lambda y: y[0].add_(1), lambda y: y[:1].fill_(2.0)]
    return _first_lines_of_errors(L, [lambda L, c=c: program(L, c) for c in changes])


@case
def several_saved_tensors_changed_the_first_reported_is_pytorchs(L):
    # PyTorch checks a node's saved inputs in alphabetical order of their names
    makes = [lambda L, a, b: a * b, lambda L, a, b: a / b, lambda L, a, b: L.maximum(a, b),
             lambda L, a, b: L.minimum(a, b), lambda L, a, b: a.abs() ** b, lambda L, a, b: a % b,
             lambda L, a, b: a @ b.t(), lambda L, a, b: L.addmm(a[0, 0], a, b.t()),
             lambda L, a, b: a.clamp(min=b), lambda L, a, b: L.bmm(a[None], b.t()[None]),
             lambda L, a, b: L.nn.functional.mse_loss(a, b)]
    add_one = lambda t: t.add_(1)
    return _first_lines_of_errors(L, [_changed_after_saving(make, add_one, _twice) for make in makes])


@case
def input_and_result_both_changed_the_input_is_reported(L):
    # ... and its own outputs (result) after its inputs
    makes = [lambda L, a, b: a.cumprod(0), lambda L, a, b: a.prod(), lambda L, a, b: a.prod(0),
             lambda L, a, b: a.norm(), lambda L, a, b: a.std(), lambda L, a, b: a.logsumexp(0),
             lambda L, a, b: a.max(), lambda L, a, b: a.amax(0)]

    def program(make):
        def run_it(L):
            x = L.tensor([[0.5, 1.5, 2.5], [1.0, -2.0, 3.0]], requires_grad=True)
            a = x * 1
            out = make(L, a, None)
            _twice(out)
            a.add_(1)
            out.sum().backward()
        return run_it
    return _first_lines_of_errors(L, [program(make) for make in makes])


@case
def result_saved_by_an_inplace_change_of_a_view(L):
    # v.exp_() saves v: the error names the view's node from just after exp_ while that
    # node lives (held by w below), else ExpBackward0 (CopySlices lets go of its
    # in-place node once backward ran through it)
    def program(L, keep, change):
        x = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        y = x * 1
        v = y[0]
        v.exp_()
        w = v * 2 if keep else None
        v.grad_fn                   # (PyTorch makes a view's node again when asked for it)
        change(y, v)
        v.grad_fn
        (y.sum() + (w.sum() if keep else 0)).backward()
    changes = [lambda y, v: v.add_(1), lambda y, v: y.add_(1), lambda y, v: y[1].mul_(2),
               lambda y, v: v.detach().add_(1)]
    return _first_lines_of_errors(L, [lambda L, k=k, c=c: program(L, k, c)
                                      for k in (False, True) for c in changes])


def handed_out(t):
    """What kind of tensor a gradient is: values, layout, flags, and whether it is a view."""
    if t is None:
        return None
    base = t._base
    return [seen(t), list(t.shape), list(t.stride()), t.requires_grad, t.is_leaf,
            seen(t.grad_fn) if t.grad_fn is not None else None, t._is_view(),
            None if base is None else [list(base.shape), list(base.stride())]]


@case
def retained_grad_is_a_copy_and_later_ones_are_added_out_of_place(L):
    x = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = x * 2
    y.retain_grad()
    g, = L.autograd.grad((y * y).sum(), [y], retain_graph=True)
    first = y.grad
    with L.no_grad():
        g.add_(100)                                 # .grad is a copy: it does not change
    shared = [g is first, first.tolist()]
    (y * y).sum().backward(retain_graph=True)
    again = [y.grad is first, first.tolist()]       # the first .grad is left as it was
    z = x.t() * 1                                   # a transposed gradient is kept contiguous
    z.retain_grad()
    z.t().sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # create_graph=True's reference-cycle warning
        w = x * 3
        w.retain_grad()
        (w * w).sum().backward(create_graph=True, retain_graph=True)
        recorded = handed_out(w.grad)
        (w * w).sum().backward(create_graph=True)
    return [shared, again, handed_out(z.grad), recorded, handed_out(w.grad)]


@case
def gradients_summed_over_broadcast_dims_are_views_of_the_sum(L):
    def gradient_of(make, create_graph=False):
        x = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        g, = L.autograd.grad(make(x).sum(), [x], create_graph=create_graph)
        return handed_out(g)
    return [gradient_of(lambda x: x.expand(2, 2, 3)), gradient_of(lambda x: x[None].expand(4, 2, 3)),
            gradient_of(lambda x: x.expand(2, 2, 3).sum(0).sigmoid()),
            gradient_of(lambda x: x + L.ones(5, 2, 3)), gradient_of(lambda x: x.sum(1, keepdim=True)),
            gradient_of(lambda x: x.sum()), gradient_of(lambda x: x.expand(2, 2, 3), create_graph=True)]


@case
def changing_a_gradient_that_is_a_no_grad_view(L):
    # the gradient of expand is a view made under no_grad: in place with grad mode on it may
    # change only while it does not require grad
    def program(L, change, requires_grad):
        x = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        g, = L.autograd.grad(x.expand(2, 2, 3).sum(), [x])
        if requires_grad:
            g.requires_grad_()
        change(g, x)
        return handed_out(g)
    changes = [lambda g, x: g.add_(1), lambda g, x: g.mul_(x), lambda g, x: g.__setitem__(0, 1.0),
               lambda g, x: g.expand(2, 2, 3).requires_grad]
    found = []
    for change in changes:
        for requires_grad in (False, True):
            try:
                found.append(program(L, change, requires_grad))
            except RuntimeError as error:
                found.append(seen(error))
    return found


@case
def copy_slices_of_a_base_that_needs_no_gradient(L):
    # the gradient of x.sum() is an expanded view of a 0-d tensor; changing it in place
    # records CopySlices on that 0-d base, which needs no gradient: nothing is written back
    x = L.tensor([[[1.0, -2.0, 3.0]], [[0.5, 1.5, -1.0]]], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g, = L.autograd.grad(x.sum(), [x], create_graph=True)
        g[g > 0] = x.sum()
    g.sum().backward()
    return [graph(g), x.grad]


@case
def setitem_from_the_same_elements_of_an_expanded_gradient(L):
    x = L.tensor([[[1.0, -2.0, 3.0]], [[0.5, 1.5, -1.0]]], requires_grad=True)
    g, = L.autograd.grad(x.sum(), [x])
    e = g.expand(2, *g.shape)
    with L.no_grad():
        e[0] = g                # the same elements: nothing to copy, nothing refused
    return g


@case
def leaf_squeezed_in_place_after_its_grad_was_made(L):
    x = L.tensor([[[1.0, -2.0, 3.0]], [[0.5, 1.5, -1.0]]], requires_grad=True)
    x.sum().backward()
    with L.no_grad():
        x.squeeze_()
    x.sum().backward()


@case
def flip_of_a_0d_tensor(L):
    x = L.tensor(2.0, requires_grad=True)
    y = x.flip(0)
    y.backward()
    found = [y, graph(y), x.grad]
    try:
        L.ones(2, 3).flip((0, -2))
    except RuntimeError as error:
        found.append(seen(error))
    return found


@case
def retain_grad_then_squeeze_in_place_then_another_change(L):
    # PyTorch's squeeze_/unsqueeze_ leave the retain_grad() hook on the old node; the next
    # in-place change cannot find it and fails PyTorch's internal assert
    def program(L, reshape, change):
        x = L.ones(2, 3, requires_grad=True)
        y = x * 2
        y.retain_grad()
        reshape(y)
        change(y)
        y.sum().backward()
        return [y.grad is None, x.grad]
    found = []
    for reshape in (lambda y: y.unsqueeze_(0), lambda y: y.unsqueeze_(0).squeeze_(), lambda y: None):
        for change in (lambda y: y.add_(1), lambda y: y.fill_(1.0), lambda y: None):
            try:
                found.append(program(L, reshape, change))
            except RuntimeError as error:
                found.append(seen(error))
    return found


@case
def leaf_grad_is_adopted_or_copied_as_pytorch_does(L):
    # .grad is the gradient itself only when backward alone holds it and it is laid out like
    # the leaf (a view of it is adopted detached); otherwise a copy written with copy_
    # (version 1). create_graph=True always copies.
    def leaf_grad(make, create_graph=False, shape=(2, 3)):
        x = L.tensor(np.arange(float(np.prod(shape)), dtype=np.float32).reshape(shape) - 1.5,
                     requires_grad=True)
        out = make(x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # create_graph=True's reference-cycle warning
            (out.sum() if out.ndim else out).backward(create_graph=create_graph)
        g = x.grad
        return handed_out(g) + [g._version]
    makes = [lambda x: x * 2, lambda x: x.sum(), lambda x: x.t(), lambda x: x + L.ones(4, 2, 3),
             lambda x: x.expand(2, 2, 3), lambda x: x.clone()]
    found = [leaf_grad(make) for make in makes]
    found += [leaf_grad(make, create_graph=True) for make in makes[:3]]
    found += [leaf_grad(make, shape=()) for make in (lambda x: x.sum(), lambda x: x.clone(),
                                                      lambda x: x * 2)]
    x = L.tensor([1.0, 2.0], requires_grad=True)
    given = L.tensor([3.0, 4.0])
    x.backward(given)                            # the caller's gradient: copied
    found.append([x.grad is given, x.grad._version])
    return found


@case
def fill_from_a_tensor_is_a_copy(L):
    # fill_(number) may write memory seen twice (expand); fill_(0-d tensor) may not, and a
    # value tensor with dimensions is refused first
    def expanded():
        return L.ones(3)[0].expand(2, 3)
    found = []
    for program in (lambda: expanded().fill_(1.5), lambda: expanded().fill_(L.tensor(2.0)),
                    lambda: expanded().fill_(L.tensor(2.0, requires_grad=True)),
                    lambda: expanded().fill_(L.tensor([2.0])), lambda: L.ones(3).fill_(L.tensor([2.0])),
                    lambda: L.ones(3, requires_grad=True).fill_(L.tensor([2.0]))):
        try:
            found.append(program())
        except RuntimeError as error:
            found.append(seen(error))
    return found


@case
def adopted_views_of_one_gradient_share_memory_as_in_pytorch(L):
    # each 0-d leaf adopts its own view of the one gradient that `+` passed to both: their
    # .grad share memory, so adding into one in place changes the other (PyTorch does so too)
    x1 = L.tensor(1.0, requires_grad=True)
    x2 = L.tensor(2.0, requires_grad=True)
    (x1.sum() + x2.sum()).backward()
    found = [x1.grad, x2.grad, x1.grad._version]
    (x1 * 3).backward()
    return found + [x1.grad, x2.grad]


@case
def backward_with_a_non_leaf_input_fills_its_grad_as_retain_grad_does(L):
    x = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    found = []
    for create_graph in (False, True):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")          # create_graph=True's reference-cycle warning
            y = x * 2
            (y * y).sum().backward(inputs=[y], create_graph=create_graph, retain_graph=True)
            first = y.grad
            y.sum().backward(inputs=[y], create_graph=create_graph, retain_graph=True)
            z = x * 3
            z.sum().backward(inputs=[z], create_graph=create_graph, retain_graph=True)
        found += [handed_out(first) + [first._version], handed_out(y.grad), y.grad is first,
                  handed_out(z.grad) + [z.grad._version]]
    return found


def test_view_changed_before_its_base_required_grad(torch):
    def program(L):
        x = L.tensor([1.0, 2.0, 3.0])
        v = x[:2]
        x.mul_(2)                   # changed while nothing requires grad
        x.requires_grad_()
        out = [graph(v), v.is_leaf]
        v.exp().sum().backward()
        return out + [x.grad]
    assert run(program, minigrad) == run(program, torch)


def graph_of_node(node):
    return [node, [n for n, _ in node.next_functions]]


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_pytorch(torch, name):
    program = CASES[name]
    assert run(program, minigrad) == run(program, torch)


def test_saved_results_make_no_reference_cycle():
    gc.collect()
    leaf = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = leaf.exp()
    node = weakref.ref(y.grad_fn)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        del y
        assert node() is None        # freed by reference counting alone: no cycle
    finally:
        if was_enabled:
            gc.enable()


def test_saved_tensor_message_names_the_operation_as_pytorch(torch):
    """'output 0 of Exp' (ExpBackward0), 'Clamp1' (ClampBackward1), 'Max1', and the full
    'torch::autograd::CopyBackwards' for a node without a number."""
    def messages(L):
        x = L.ones(3, requires_grad=True) * 1
        found = []
        for make in (lambda t: t.exp(), lambda t: t.clamp(0, 2), lambda t: t.max(),
                     lambda t: t.max(0)[0], lambda t: t.pow(x)):
            y = make(x * 1)
            loss = (y * y).sum()
            with L.no_grad():
                y.add_(1)
            try:
                loss.backward()
            except RuntimeError as error:
                found.append(str(error).split(", is at version")[0].split("which is ")[1])
        copied = L.zeros(3)
        copied.copy_(x)
        square = copied * copied
        with L.no_grad():
            copied.add_(1)
        try:
            square.sum().backward()
        except RuntimeError as error:
            found.append(str(error).split(", is at version")[0].split("which is ")[1])
        return found, copied.grad_fn.name()

    assert messages(minigrad) == messages(torch)



def test_remainder_second_order_graph_and_node_names(torch):
    """remainder's gradient for its divisor records floor(self / other) as DivBackward2;
    floor_divide's node is PyTorch's torch::autograd::NotImplemented."""
    def tree(node, depth=0):
        if node is None or depth > 6:
            return None
        return [node.name(), [tree(n, depth + 1) for n, _ in node.next_functions]]

    def program(L):
        x = L.tensor([1.5, -2.0, 3.0], requires_grad=True)
        y = x * x + 1
        g, = L.autograd.grad((x % y).sum(), [x], create_graph=True)
        return [tree(g.grad_fn), (x // y).grad_fn.name()]
    assert program(minigrad) == program(torch)
