"""A view's node is made again lazily, only when it is asked for, compared with PyTorch.

A view remembers the version its grad_fn was made at. An in-place change of its base
(or of another view of it) does nothing to the view at once; when the view's node is
next asked for (``v.grad_fn``, ``v`` used in a recorded operation, ``v`` a root or an
input of backward, ``retain_grad``, hooks, printing, ``is_leaf``) and the version moved
on, it gets a new ``AsStridedBackward0`` on top of its base's history at that moment.

Learners can see the difference: which node a saved result is reported as output of,
when a failure comes, whether two asks give the same node. Each program runs with
``L = minigrad`` and ``L = torch`` and writes down what it sees (node names, the
nodes' edges, which nodes are the same object, values, gradients, exception classes
and messages); both records must be the same.
"""
import numpy as np
import pytest

import minigrad


class Record:
    """What a program saw, in a form both libraries share."""

    def __init__(self, L):
        self.L = L
        self.items = []
        self.nodes = []               # every node seen, to tell "the same node" from "a new one"

    def node(self, node, depth=2):
        if node is None:
            return None
        for number, seen in enumerate(self.nodes):
            if seen is node:
                index = number
                break
        else:
            self.nodes.append(node)
            index = len(self.nodes) - 1
        name = node.name().split("::")[-1]
        if depth == 0:
            return (index, name)
        return (index, name, [(self.node(n, depth - 1), nr) for n, nr in node.next_functions])

    def value(self, value):
        if isinstance(value, (list, tuple)):
            return [self.value(v) for v in value]
        if hasattr(value, "next_functions"):
            return self.node(value)
        if hasattr(value, "detach") and hasattr(value, "shape"):
            return ("tensor", tuple(value.shape),
                    np.round(np.asarray(value.detach().tolist(), dtype=float), 4).tolist())
        if isinstance(value, str):
            return value
        return value

    def __call__(self, label, thunk):
        """Write down what ``thunk()`` gives, or the exception it raises."""
        try:
            seen = self.value(thunk())
        except Exception as error:          # the error is part of what must match
            lines = [line for line in str(error).splitlines()
                     if not line.startswith("minigrad hint:")]
            seen = (type(error).__name__, " ".join(lines).strip())
        self.items.append((label, seen))
        return seen


def compare(program, torch):
    ours, theirs = Record(minigrad), Record(torch)
    program(minigrad, ours)
    program(torch, theirs)
    assert ours.items == theirs.items


PROGRAMS = {}


def program(function):
    PROGRAMS[function.__name__] = function
    return function


def start(L, shape=(3, 4)):
    """A leaf and a non-leaf base made from it (a base with a history of its own)."""
    x = L.tensor(np.arange(1.0, 1.0 + np.prod(shape)).reshape(shape) / 10, requires_grad=True)
    return x, x * 1


# --- the node is made again only when asked for, once per change ---------------------------------

@program
def asked_after_each_change(L, see):
    x, b = start(L)
    v = b[0]
    see("before", lambda: v.grad_fn)
    b.mul_(2)
    see("after a change", lambda: v.grad_fn)
    see("asked again: the same node", lambda: v.grad_fn)
    b.mul_(2)
    b.add_(1)
    see("after two more: one new node on the base's latest", lambda: v.grad_fn)
    see("version", lambda: v._version)
    see("backward", lambda: (v.sum().backward(), x.grad))


@program
def asked_under_no_grad(L, see):
    x, b = start(L)
    v = b[1:]
    b.mul_(2)
    with L.no_grad():
        see("asked under no_grad: made all the same", lambda: v.grad_fn)
    see("asked again", lambda: v.grad_fn)


@program
def asked_by_recording(L, see):
    x, b = start(L)
    v = b[0]
    b.mul_(2)
    y = v * 3                  # recording asks for v's node
    see("y", lambda: y.grad_fn)
    see("v", lambda: v.grad_fn)
    see("backward", lambda: (y.sum().backward(), x.grad))


@program
def not_asked_under_no_grad_use(L, see):
    x, b = start(L)
    v = b[0]
    b.mul_(2)
    with L.no_grad():
        y = v * 3               # nothing recorded: nothing asked
    see("y", lambda: (y, y.grad_fn))
    see("v", lambda: v.grad_fn)


@program
def view_of_a_stale_view(L, see):
    x, b = start(L)
    v = b[0]
    b.mul_(2)
    u = v[1:]                  # asks v for its node first
    see("u", lambda: u.grad_fn)
    see("v", lambda: v.grad_fn)
    w = b[1]
    ww = w.view(2, 2)
    b.add_(1)
    see("view of a view: on the base's node", lambda: ww.grad_fn)
    see("backward", lambda: (ww.sum().backward(), x.grad))


@program
def view_changed_in_place(L, see):
    x, b = start(L)
    v, w = b[0], b[1]
    v.mul_(2)                  # v gets its node at once (AsStrided of the CopySlices)
    see("v", lambda: v.grad_fn)
    see("w", lambda: w.grad_fn)
    see("v again", lambda: v.grad_fn)
    w.add_(v)
    see("b", lambda: b.grad_fn)
    see("v after w changed", lambda: v.grad_fn)
    see("backward", lambda: (b.sum().backward(), x.grad))


@program
def stale_view_changed_in_place(L, see):
    x, b = start(L)
    v = b[2]
    b.mul_(2)
    v.exp_()                   # v's node is made again before the change records its edge
    see("b", lambda: b.grad_fn)
    see("v", lambda: v.grad_fn)
    see("backward", lambda: (b.sum().backward(), x.grad))


@program
def changed_through_detach(L, see):
    x, b = start(L)
    v = b[0]
    b.detach().mul_(2)
    see("v", lambda: v.grad_fn)
    see("backward", lambda: (v.sum().backward(), x.grad))


@program
def changed_without_recording(L, see):
    x, b = start(L)
    v = b[0]
    with L.no_grad():
        b.mul_(2)
        v.add_(1)
    see("v", lambda: v.grad_fn)
    see("backward", lambda: (v.sum().backward(), x.grad))


@program
def backward_root_and_grad_input(L, see):
    x, b = start(L)
    v = b[0]
    b.mul_(2)
    see("root", lambda: (v.sum().backward(retain_graph=True), x.grad))
    c = x * 1
    w = c[0]
    c.mul_(3)
    see("input of grad", lambda: L.autograd.grad(c.sum(), [w]))
    see("w", lambda: w.grad_fn)


@program
def base_comes_to_require_grad(L, see):
    b = L.tensor([1.0, 2.0, 3.0])
    v = b[:2]
    b.mul_(2)
    see("before", lambda: v.grad_fn)
    b.requires_grad_()
    see("after", lambda: v.grad_fn)
    see("requires_grad", lambda: v.requires_grad)
    c = L.tensor([1.0, 2.0, 3.0])
    w = c[:2]
    c.requires_grad_()
    see("never changed", lambda: w.grad_fn)


@program
def printing_and_is_leaf_ask(L, see):
    x, b = start(L, (2, 2))
    v = b[0]
    old = v.grad_fn
    b.mul_(2)
    see("repr", lambda: repr(v))
    see("is_leaf", lambda: v.is_leaf)
    see("node", lambda: (old, v.grad_fn))


@program
def post_accumulate_grad_hook_asks(L, see):
    b = L.tensor([1.0, 2.0, 3.0])
    v = b[:2]
    b.mul_(2)
    b.requires_grad_()
    see("hook", lambda: v.register_post_accumulate_grad_hook(lambda t: None) and None)
    see("v", lambda: v.grad_fn)


def leaf_view_then(base_requires_grad):
    def run(L, see):
        b = L.tensor([1.0, 2.0, 3.0])
        v = b[:2]
        v.requires_grad_()              # a leaf of its own, with an AccumulateGrad
        if base_requires_grad == "before":
            b.requires_grad_()
            see("v", lambda: v.grad_fn)
        y = v * 2
        if base_requires_grad == "after":
            b.requires_grad_()
        with L.no_grad():
            b.mul_(2)
        see("backward: the leaf is asked for its node", lambda: y.sum().backward())
        see("grad", lambda: v.grad if v.grad_fn is None else "has a node now")
        see("v", lambda: v.grad_fn)
    return run


for _when in ("before", "after", "never"):
    PROGRAMS[f"leaf view, base requires grad {_when}, base changed"] = leaf_view_then(_when)


@program
def leaf_given_a_history_after_recording(L, see):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    w = L.tensor([3.0, 4.0], requires_grad=True)
    y = x * 2
    x.requires_grad_(False)
    x.mul_(w)
    see("backward", lambda: y.sum().backward())
    see("w.grad", lambda: w.grad)


# --- a saved result of an in-place change of a view: the view's node while it lives ------------

def exp_of_view_then(change, look):
    def run(L, see):
        x, b = start(L)
        v, w = b[0], b[1]
        v.exp_()               # saves its result, v; the error names v's node while it lives
        if change == "base":
            b.mul_(2)
        elif change == "other view":
            w.mul_(2)
        elif change == "view":
            v.mul_(2)
        elif change == "view under no_grad":
            with L.no_grad():
                v.mul_(2)
        if look == "grad_fn":
            see("v", lambda: v.grad_fn)
        elif look == "use":
            see("use", lambda: (v * 2).grad_fn)
        elif look == "retain_grad":
            see("retain_grad", lambda: v.retain_grad())
        see("backward", lambda: (b.sum().backward(), x.grad))
    return run


for _change in ("base", "other view", "view", "view under no_grad"):
    for _look in ("nothing", "grad_fn", "use", "retain_grad"):
        PROGRAMS[f"exp_ of a view, then {_change} changed, {_look} asked"] = exp_of_view_then(_change, _look)


@program
def exp_of_view_node_kept_alive(L, see):
    x, b = start(L)
    v = b[0]
    v.exp_()
    keep = v.grad_fn           # the node lives on in the program, though v's is made again
    b.mul_(2)
    see("v", lambda: v.grad_fn)
    see("kept", lambda: keep)
    see("backward", lambda: (b.sum().backward(), x.grad))


@program
def sigmoid_of_view_changed_twice(L, see):
    x, b = start(L)
    v = b[:, 1]
    v.sigmoid_()
    b[0].add_(1)
    b[1].add_(1)
    see("backward", lambda: (b.sum().backward(), x.grad))


# --- retain_grad and views ---------------------------------------------------------------------

@program
def retained_view_follows_its_new_node(L, see):
    x, b = start(L)
    v = b[0]
    v.retain_grad()
    b.mul_(2)
    see("backward before asking: the old node is not in the graph",
        lambda: (b.sum().backward(retain_graph=True), v.grad))
    see("v", lambda: v.grad_fn)
    see("backward through v", lambda: ((v * v).sum().backward(), v.grad))


def squeezed_retained_view(change, ask):
    def run(L, see):
        x = L.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
        b = x * 1
        v = b[0:1]
        v.retain_grad()
        see("squeeze_", lambda: v.squeeze_(0) if change == "squeeze_" else v.unsqueeze_(0))
        see("shape", lambda: tuple(v.shape))
        see("base changed", lambda: b.mul_(2))
        if ask == "grad_fn":
            see("first ask fails", lambda: v.grad_fn)
            see("the node is made all the same", lambda: v.grad_fn)
        elif ask == "use":
            see("use", lambda: (v * 2).grad_fn)
            see("again", lambda: (v * 2).grad_fn)
        elif ask == "repr":
            see("repr", lambda: repr(v))
        elif ask == "is_leaf":
            see("is_leaf", lambda: v.is_leaf)
        elif ask == "backward of the view":
            see("backward", lambda: v.sum().backward())
        see("requires_grad", lambda: v.requires_grad)
        see("backward of the base", lambda: (b.sum().backward(), x.grad))
        see("grad", lambda: v.grad)
    return run


for _change in ("squeeze_", "unsqueeze_"):
    for _ask in ("grad_fn", "use", "repr", "is_leaf", "backward of the view", "nothing"):
        PROGRAMS[f"retained view after {_change}, base changed, {_ask}"] = squeezed_retained_view(_change, _ask)


@program
def squeezed_retained_view_not_changed(L, see):
    x = L.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    b = x * 1
    v = b[0:1]
    v.retain_grad()
    v.squeeze_(0)
    see("v", lambda: v.grad_fn)
    see("backward", lambda: (v.sum().backward(), v.grad))


@program
def retain_grad_looks_at_the_node_it_has(L, see):
    b = L.tensor([1.0, 2.0, 3.0])
    v = b[:2]
    b.mul_(2)
    b.requires_grad_()
    see("no node yet: a leaf, nothing retained", lambda: (v.retain_grad(), v.retains_grad))
    see("v", lambda: v.grad_fn)
    x, c = start(L, (3,))
    w = c[:2]
    old = w.grad_fn
    c.mul_(2)
    see("a node: made again, then retained", lambda: (w.retain_grad(), w.retains_grad))
    see("w", lambda: (old, w.grad_fn))
    see("backward", lambda: ((w * w).sum().backward(), w.grad))


# --- histories that can't be made again: the error at every ask, not before ------------------

def no_grad_view(mode):
    def run(L, see):
        x, b = start(L, (3,))
        with L.no_grad():
            v = b[:2]
        if mode == "no_grad":
            with L.no_grad():
                b.mul_(2)
        else:
            b.mul_(2)
        see("grad_fn", lambda: v.grad_fn)
        see("grad_fn again", lambda: v.grad_fn)
        see("requires_grad", lambda: v.requires_grad)
        see("use", lambda: (v * 2).grad_fn)
        with L.no_grad():
            see("grad_fn under no_grad", lambda: v.grad_fn)
            see("use under no_grad", lambda: v * 2)
        see("repr", lambda: repr(v))
        see("is_leaf", lambda: v.is_leaf)
        see("view of it", lambda: v[:1])
        see("in place", lambda: v.add_(1))
        see("retain_grad", lambda: v.retain_grad())
    return run


PROGRAMS["no_grad view, base changed under no_grad"] = no_grad_view("no_grad")
PROGRAMS["no_grad view, base changed recording"] = no_grad_view("grad")


@program
def split_piece_after_base_changed(L, see):
    x, b = start(L, (4,))
    first, second = b.split(2)
    b.mul_(2)
    see("grad_fn", lambda: first.grad_fn)
    see("again", lambda: first.grad_fn)
    see("use", lambda: first * 2)
    see("in place", lambda: second.add_(1))
    see("backward of the base", lambda: (b.sum().backward(), x.grad))


@program
def split_piece_not_changed(L, see):
    x, b = start(L, (4,))
    first, second = b.split(2)
    see("grad_fn", lambda: first.grad_fn)
    see("use", lambda: (first * 2).grad_fn)


def test_an_in_place_change_leaves_other_views_alone():
    """Nothing happens to the other views at the change: their node is the old one until
    asked for (what makes a saved result name the view's node above)."""
    x = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = x * 1
    v = b[0]
    old = v._grad_fn
    b.mul_(2)
    assert v._grad_fn is old
    assert v.grad_fn is not old and v._grad_fn is v.grad_fn


# --- the earlier reports: saved tensors named after fill_, shapes after squeeze_, bmm ----------
# (a saved input is reported with its node and shape *now*, made again if it is a stale view;
# a saved output with those from when it was saved)

def saved_then_changed(make, change):
    def run(L, see):
        x = L.tensor([0.1, 0.2, 0.3], requires_grad=True)
        b = L.tensor([0.4, 0.5, 0.6]) if "plain" in make else x * 1
        v = b[:2]
        if make.endswith("times x"):
            y = v * x[:2]
        elif make.endswith("exp"):
            y = v.exp()
        else:
            y = v * v
        t = L.tensor(2.0, requires_grad=True)
        if change == "fill base with a tensor":
            b.fill_(t)
        elif change == "fill view with a tensor":
            v.fill_(t)
        elif change == "fill base":
            b.fill_(1.0)
        elif change == "fill view":
            v.fill_(1.0)
        elif change == "fill base under no_grad":
            with L.no_grad():
                b.fill_(1.0)
        elif change == "fill base after it requires grad":
            if b.requires_grad:
                b = b.detach()
            b.requires_grad_()
            with L.no_grad():
                b.fill_(1.0)
        elif change == "zero another view":
            b[2:].zero_()
        see("backward", lambda: (y.sum().backward(), x.grad))
    return run


for _make in ("plain base, times x", "base with history, squared", "base with history, exp"):
    for _change in ("fill base with a tensor", "fill view with a tensor", "fill base", "fill view",
                    "fill base under no_grad", "fill base after it requires grad", "zero another view"):
        PROGRAMS[f"saved {_make}, {_change}"] = saved_then_changed(_make, _change)


def saved_then_reshaped(target, change, then):
    def run(L, see):
        x = L.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], requires_grad=True)
        b = x * 1
        t = b if target == "base" else b[0:1]
        y = t.exp() if then == "exp" else t * t
        if target == "base":
            see("reshaped", lambda: t.unsqueeze_(0) if change == "unsqueeze_" else t[0:1].squeeze_(0))
        else:
            see("reshaped", lambda: t.unsqueeze_(0) if change == "unsqueeze_" else t.squeeze_(0))
        see("changed", lambda: t.mul_(2))
        see("backward", lambda: (y.sum().backward(), x.grad))
    return run


for _target in ("base", "view"):
    for _change in ("squeeze_", "unsqueeze_"):
        for _then in ("exp", "squared"):
            PROGRAMS[f"saved {_target}, {_change}, {_then}"] = saved_then_reshaped(_target, _change, _then)


@program
def bmm_then_view_of_its_result(L, see):
    a = L.tensor([[[0.1, 0.2, 0.3]], [[0.4, 0.5, 0.6]]], requires_grad=True)
    c = L.tensor([[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]]], requires_grad=True)
    y = L.bmm(a, c)
    for name, view in (("select", lambda: y[0]), ("transpose", lambda: y.transpose(1, 2)),
                       ("squeeze", lambda: y.squeeze(1)), ("slice", lambda: y[:, :, :1])):
        v = view()
        y.mul_(2)
        see(name, lambda: (v.grad_fn, tuple(v.shape), v.stride()))
        see(name + " grads", lambda: L.autograd.grad(v.sum(), [a, c], create_graph=True,
                                                     retain_graph=True))


@program
def view_of_base_kept_by_bmm(L, see):
    x = L.tensor([[[0.1, 0.2, 0.3]], [[0.4, 0.5, 0.6]]], requires_grad=True)
    b = x * 1
    v = b[:, :, :2]
    y = L.bmm(b, L.ones(2, 3, 1))      # needs no copy of b: b may change in place
    b.mul_(2)
    see("v", lambda: (v.grad_fn, tuple(v.shape), v.stride()))
    see("backward", lambda: ((v * y).sum().backward(), x.grad))


@pytest.mark.parametrize("product", ["bmm", "baddbmm", "baddbmm scaled"])
@pytest.mark.parametrize("needs_grad", ["first", "second"])
def test_products_save_only_what_a_gradient_needs(torch, product, needs_grad):
    def run(L, see):
        i = L.tensor([[[1.0]], [[2.0]]], requires_grad=True)
        a = L.tensor([[[0.1, 0.2, 0.3]], [[0.4, 0.5, 0.6]]], requires_grad=needs_grad == "first")
        c = L.tensor([[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]]], requires_grad=needs_grad == "second")
        a2, c2 = a * 1, c * 1
        y = (L.bmm(a2, c2) if product == "bmm" else L.baddbmm(i, a2, c2) if product == "baddbmm"
             else L.baddbmm(i, a2, c2, beta=2, alpha=3))
        see("saved", lambda: [getattr(y.grad_fn, "_saved_" + name, "-") is None for name in ("self", "mat2")])
        a2.mul_(2)
        c2.mul_(2)
        see("backward", lambda: (y.sum().backward(), a.grad, c.grad))
    compare(run, torch)


# --- random programs of views and in-place changes, where nothing asks unless told -------------
# (each step writes down only what does not ask for a node: shape, requires_grad, values;
# "ask" reads grad_fn, "backward" runs one; at the end the gradients of x and retained tensors)

STEPS = ["view0", "slice", "transpose", "squeeze", "unsqueeze", "exp", "mul", "bmm", "exp_", "mul_",
         "sigmoid_", "fill_", "fill_tensor", "zero_", "squeeze_", "unsqueeze_", "retain_grad", "ask",
         "mul_ under no_grad", "view under no_grad", "detach().mul_", "add_ another", "sum", "backward"]


def random_step(L, step, a, b):
    """Run one step on tensors ``a`` and ``b``; a tensor result joins the program's tensors."""
    if step == "view0":
        return a[0] if a.ndim else a.view(1)
    if step == "slice":
        return a[..., :2] if a.ndim else a.view(1)
    if step == "transpose":
        return a.transpose(0, -1) if a.ndim >= 2 else a.view(-1)
    if step == "squeeze":
        return a.squeeze()
    if step == "unsqueeze":
        return a.unsqueeze(0)
    if step == "exp":
        return a.exp()
    if step == "mul":
        return a * b if a.shape == b.shape else a * a
    if step == "bmm":
        return L.bmm(a, L.ones(a.shape[0], a.shape[2], 1)) if a.ndim == 3 else a.sum()
    if step in ("exp_", "sigmoid_", "zero_", "squeeze_"):
        return getattr(a, step)()
    if step == "mul_":
        return a.mul_(2)
    if step == "fill_":
        return a.fill_(0.5)
    if step == "fill_tensor":
        return a.fill_(L.tensor(0.3, requires_grad=True))
    if step == "unsqueeze_":
        return a.unsqueeze_(0)
    if step == "retain_grad":
        return a.retain_grad()
    if step == "ask":
        return None if a.grad_fn is None else a.grad_fn.name()
    if step == "mul_ under no_grad":
        with L.no_grad():
            return a.mul_(3)
    if step == "view under no_grad":
        with L.no_grad():
            return a[..., :1] if a.ndim else a.view(1)
    if step == "detach().mul_":
        return a.detach().mul_(2)
    if step == "add_ another":
        return a.add_(b) if a.shape == b.shape else a.add_(1)
    if step == "sum":
        return a.sum()
    return a.sum().backward(retain_graph=True)        # "backward"


def significant(values):
    """Values to 3 significant digits (float32 rounding differs in the last ones)."""
    if isinstance(values, list):
        return [significant(v) for v in values]
    return float(f"{values:.3g}")


def shown(made):
    """What a step made, without asking for a node (an exception is raised again)."""
    if isinstance(made, Exception):
        raise made
    if hasattr(made, "shape"):
        return (tuple(made.shape), made.requires_grad, significant(made.detach().tolist()))
    return made


def random_program(seed):
    generator = np.random.RandomState(seed)
    steps = [(STEPS[generator.randint(len(STEPS))], generator.randint(8), generator.randint(8))
             for _ in range(generator.randint(3, 9))]
    start = generator.rand(2, 1, 3).astype(np.float32)

    def run(L, see):
        x = L.tensor(start, requires_grad=True)
        tensors = [x, x * 1]
        for step, i, j in steps:
            a, b = tensors[i % len(tensors)], tensors[j % len(tensors)]
            try:
                made = random_step(L, step, a, b)
            except Exception as error:        # (the error is written down below)
                made = error
            see(step, lambda: shown(made))
            if hasattr(made, "shape"):
                tensors.append(made)
        for number, tensor in enumerate(tensors):
            if tensor is x or tensor.retains_grad:
                see(f"grad {number}", lambda: None if tensor.grad is None
                    else significant(tensor.grad.tolist()))
    return run


@pytest.mark.parametrize("seed", range(0, 400, 4))
def test_random_program_matches_pytorch(torch, seed):
    for program_seed in range(seed, seed + 4):
        compare(random_program(program_seed), torch)


# (last: every program above is in PROGRAMS by now)
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_matches_pytorch(torch, name):
    compare(PROGRAMS[name], torch)
