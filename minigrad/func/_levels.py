"""Levels: what a tensor looks like inside ``grad``, ``vjp``, ``jacrev``, ``jvp``.

Inside ``grad(f)(x)`` PyTorch shows the function only the graph of that one transform:
f's input ``x`` is a leaf that requires grad (whatever x was outside), ``p * 2`` of a
captured ``p`` does not require grad (even if p does outside), and printing shows the
wrapper PyTorch keeps each tensor in::

    GradTrackingTensor(lvl=1, value=
        tensor([2., 4.], grad_fn=<MulBackward0>)
    )

PyTorch runs every transform at a *level* (1 for the outermost, 2 inside it, ...) with
its own graph, and wraps each tensor made there in a GradTrackingTensor of that level;
the wrapped value is the tensor as the level below sees it (its graph is the one shown
inside ``value=``).

minigrad records one graph for everything, the one the transforms differentiate (and
the one the results carry outside). What each level sees of it is read off that graph
when asked (``requires_grad``, ``grad_fn``, ``is_leaf``, printing, ``next_functions``):

* a transform's input is a new leaf whose AccumulateGrad (this module's) hands the
  gradient on to the tensor passed in: the transform asks for the gradient at that leaf, and
  a graph outside flows through it to x, as if the leaf were x;
* a tensor requires grad at level L when its graph reaches an input of level L
  (level 0, outside every transform: when it reaches an ordinary leaf);
* a tensor is wrapped at level L when level L runs and it is an input of L, or its
  grad_fn was made while L ran (nodes are numbered in the order they are made; a tensor
  made by no recorded operation is shown unwrapped, where PyTorch wraps it too);
* inside a jvp (a level in ``forward_mode``) nothing requires grad: it tracks tangents;
* a hook registered inside a level runs only when that level's transform differentiates.

PyTorch: torch/_functorch (TensorWrapper.cpp, eager_transforms.py).
"""
import functools
import weakref

from ..autograd import graph
from ..autograd.graph import gradient_edge, _sequence_numbers
from ..autograd.function import _FuncTransforms
from .._functorch import _GradLevels, _Vmaps
from ..autograd.grad_mode import _inference_blocks, _new_tensor_stamps


class GradLevel:
    """One running grad, vjp, jacrev (``forward_mode=False``) or jvp, jacfwd (True).

    ``number`` is PyTorch's level: how deep in the running transforms it is."""

    def __init__(self, forward_mode=False):
        self.number = _FuncTransforms.depth + 1
        self.forward_mode = forward_mode
        # every node made from now on (while this level runs) is numbered after this one
        self.first_node = next(_sequence_numbers)
        self.input_nodes = set()       # the AccumulateGrad nodes of its inputs (below; kept alive)

    def input(self, tensor, fresh):
        """Make ``fresh`` (a leaf with ``tensor``'s values) an input of this level."""
        fresh._level = self
        fresh._level_input_of = tensor
        if fresh._requires_grad:        # (a jvp's inputs are duals, not leaves)
            node = AccumulateGrad(fresh, gradient_edge(tensor))
            fresh._grad_accumulator = weakref.ref(node)     # (as for every leaf)
            self.input_nodes.add(node)
            _GradLevels.inputs_made = True
        return fresh

    def run(self, func, *args, **kwargs):
        """``func(*args, **kwargs)`` with this level running (the innermost)."""
        _FuncTransforms.depth += 1
        _GradLevels.running.append(self)
        with stamping_new_tensors():
            try:
                return func(*args, **kwargs)
            finally:
                _GradLevels.running.remove(self)
                _FuncTransforms.depth -= 1


class stamping_new_tensors:
    """``with stamping_new_tensors():`` each new tensor remembers when it was made (a number
    of the node order), so that one made by no recorded operation inside a transform
    (``torch.ones(3)``, ``x.detach()``) is shown wrapped at the levels running then, as
    PyTorch wraps it (autograd/grad_mode.py calls the stamp for each new tensor)."""

    def __enter__(self):
        _inference_blocks.append(self)
        _new_tensor_stamps.append(_sequence_numbers.__next__)

    def __exit__(self, *exc_info):
        _new_tensor_stamps.pop()
        _inference_blocks.remove(self)


class AccumulateGrad(graph.AccumulateGrad):
    """result = a transform's input, the leaf it differentiates   ->
        grad_input = grad, passed on as it is to the tensor given to the transform

    (A class of its own, named as PyTorch's node is named: the engine runs it as any
    other node, in its place in the graph, instead of first.)

    The transform asks ``autograd.grad`` for the gradient arriving here. A backward pass
    from outside (``grad(grad(f))``, or ``.backward()`` of a result) goes on through it to
    the tensor that was passed in, unchanged: the input *is* that tensor, at another level.
    """

    def __init__(self, variable, edge):
        super().__init__(variable)
        node, output_nr = edge
        self._next_nodes = (node,) if node is not None else ()
        self._next_nrs = (output_nr,) if node is not None else ()
        # an ordinary node for the engine (AccumulateGrad's run first, this runs in order)
        self._sequence_number = next(_sequence_numbers)

    def backward(self, grad):
        """The gradient goes on to the tensor passed in, as it is (nothing accumulates)."""
        return (grad,) if self._next_nodes else ()

    @property
    def next_functions(self):
        """``()``, as every AccumulateGrad's: the tensor passed in is another level's."""
        return ()


# --- hooks belong to the level they were registered at ----------------------------------------

def hook_of_level(hook):
    """A tensor hook registered inside a transform belongs to that level's graph: it runs
    when that transform differentiates, not in a backward pass of another level (PyTorch
    records each level's graph apart)."""
    level = _GradLevels.running[-1]
    levels = list(_GradLevels.running)

    @functools.wraps(hook)
    def at_level(grad):
        if _GradLevels.differentiating is not level:
            return None
        # the hook sees the gradient as the function saw its tensors: wrapped at the levels
        # running where it was registered (PyTorch runs the hook inside that level)
        inner = grad
        while hasattr(inner, "_bdim"):          # (a vmap's BatchedTensor: its whole batch)
            inner = inner._value
        if inner._grad_fn is None:
            inner._made_at = next(_sequence_numbers)
        running = _GradLevels.running
        before, seeing_through = list(running), _Vmaps.seeing_through
        running[:] = levels
        _Vmaps.seeing_through = 0          # (the hook is the user's code: it sees the levels)
        try:
            return hook(grad)
        finally:
            running[:] = before
            _Vmaps.seeing_through = seeing_through
    return at_level


class differentiating:
    """``with differentiating(level):`` the transform of ``level`` runs its backward pass."""

    def __init__(self, level):
        self.level = level

    def __enter__(self):
        self.before = _GradLevels.differentiating
        _GradLevels.differentiating = self.level

    def __exit__(self, *exc_info):
        _GradLevels.differentiating = self.before


# --- which levels a tensor is wrapped at ------------------------------------------------------

def wrapping_levels(tensor):
    """The running levels ``tensor`` is wrapped at, outermost first."""
    if "_bdim" in tensor.__dict__:       # a BatchedTensor of an outer vmap: those of its value
        return wrapping_levels(tensor._value)
    level = tensor.__dict__.get("_level")
    if level is not None:                # an input: of its level, and wrapped as the tensor passed in
        outer = wrapping_levels(tensor._level_input_of)
        return outer + [level] if level in _GradLevels.running else outer
    made = _made_at(tensor)
    return [level for level in _GradLevels.running if level.first_node < made]


def _made_at(tensor):
    """The number of the node that made ``tensor`` (-1: made by no recorded operation)."""
    node = tensor._grad_fn
    if node is not None:
        return node._sequence_number
    if tensor.__dict__.get("_fw_tangent") is not None:      # a dual made inside a jvp
        forward = [level for level in _GradLevels.running if level.forward_mode]
        return forward[-1].first_node + 1 if forward else -1
    return tensor.__dict__.get("_made_at", -1)    # (stamped when made inside a transform)


def _level_shown(levels):
    """Of the levels a tensor is wrapped at, the one the user sees (None: level 0)."""
    limit = _GradLevels.seen_from
    shown = [level for level in levels if limit is None or level.number <= limit]
    return shown[-1] if shown else None


# --- its flags at one level ------------------------------------------------------------------

def flags_seen(tensor):
    """``(requires_grad, grad_fn)`` as the user sees them now, or None for a tensor no
    running level wraps (its own flags). Called by Tensor's properties while levels run."""
    if _Vmaps.seeing_through:            # a transform's own code sees the whole graph
        return None
    levels = wrapping_levels(tensor)
    if not levels:
        return None
    return flags_at(tensor, _level_shown(levels))


def flags_at(tensor, level):
    """``(requires_grad, grad_fn)`` of ``tensor`` in the graph of ``level`` (None: level 0)."""
    input_level = tensor.__dict__.get("_level")
    if input_level is not None and input_level is not level:
        if level is None or input_level.number > level.number:
            return flags_at(tensor._level_input_of, level)    # a deeper level's input: the outer tensor
    if level is not None and level.forward_mode:
        return False, None               # a jvp tracks tangents, no graph
    if input_level is not None:
        return True, None                # this level's input: a leaf
    if not _reaches(tensor, level):
        return False, None
    return True, tensor._graph_grad_fn


def _reaches(tensor, level):
    """Does the graph of ``tensor`` reach an input of ``level`` (None: an ordinary leaf)?"""
    if tensor._grad_fn is None:
        return level is None and tensor._graph_requires_grad
    return _node_reaches(tensor._grad_fn, level)


def _node_reaches(node, level):
    """Does the graph below ``node`` reach an input of ``level`` (None: an ordinary leaf)?"""
    first = level.first_node if level is not None else -1
    stack, seen = [node], set()
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if level is None and type(node) is graph.AccumulateGrad:
            return True
        if level is not None and node in level.input_nodes:
            return True
        if node._sequence_number > first:    # (a node made before the level cannot lead to it)
            stack.extend(node._next_nodes)
    return False


def edges_seen(node, edges):
    """``node.next_functions`` as the user sees them now: inside a level, an edge to what
    does not lead to that level's inputs is ``(None, 0)``; an edge to the input of a level
    that has finished (or that is deeper than the level looked from) is the edge to the
    tensor that was passed in."""
    edges = [_passed_on(edge) for edge in edges]
    level = _level_shown([level for level in _GradLevels.running
                          if level.first_node < node._sequence_number and not level.forward_mode])
    if level is None:
        return tuple(edges)
    return tuple(edge if edge[0] is not None and _node_reaches(edge[0], level) else (None, 0)
                 for edge in edges)


def _passed_on(edge):
    node, output_nr = edge
    # (an expand that gave a transform's argument the batch of a vmap, or the select that
    # took it away from a result that holds one value repeated: not PyTorch's)
    while type(node) is AccumulateGrad and not _shows_input(node) or \
            getattr(node, "_adds_a_batch", False):
        if node._next_nodes:
            node, output_nr = node._next_nodes[0], node._next_nrs[0]
        else:
            node, output_nr = None, 0
    return node, output_nr


def _shows_input(node):
    level = node.variable._level
    limit = _GradLevels.seen_from
    return level in _GradLevels.running and (limit is None or level.number <= limit)


def batched_flags_seen(batched):
    """``(requires_grad, grad_fn)`` of a vmap's BatchedTensor as the user sees them now: those
    of the grad running inside that vmap which wraps it (None: none does, the wrapper's own)."""
    if _Vmaps.seeing_through:
        return None
    levels = _levels_above(batched)
    if not levels:
        return None
    return flags_at(batched._value, levels[-1])


def _levels_above(batched):
    """The running levels inside the vmap of ``batched`` that wrap it (shown around it)."""
    limit = _GradLevels.seen_from
    return [level for level in wrapping_levels(batched._value)
            if level.number > batched._level and (limit is None or level.number <= limit)]


# --- printing ---------------------------------------------------------------------------------

def repr_seen(tensor, plain_repr):
    """``repr`` of ``tensor``: one ``GradTrackingTensor(lvl=L, value=...)`` per level that
    wraps it, innermost outside, around ``plain_repr`` of the tensor at level 0."""
    levels = wrapping_levels(tensor)
    limit = _GradLevels.seen_from
    levels = [level for level in levels if limit is None or level.number <= limit]
    if not levels:
        return plain_repr(tensor)
    with seen_from(0):
        text = plain_repr(tensor)
    for level in levels:
        inner = "\n".join("    " + line if line else line for line in text.split("\n"))
        text = f"GradTrackingTensor(lvl={level.number}, value=\n{inner}\n)"
    return text


def batched_repr_seen(batched, plain_repr):
    """``repr`` of a vmap's BatchedTensor: the grads inside that vmap wrap it, and its value
    is shown as the level below the vmap sees it."""
    levels = _levels_above(batched)
    with seen_from(batched._level - 1):
        text = plain_repr(batched)
    for level in levels:
        inner = "\n".join("    " + line if line else line for line in text.split("\n"))
        text = f"GradTrackingTensor(lvl={level.number}, value=\n{inner}\n)"
    return text


class seen_from:
    """``with seen_from(n):`` Tensor's flags (and printing) are those level ``n`` sees."""

    def __init__(self, number):
        self.number = number

    def __enter__(self):
        self.before = _GradLevels.seen_from
        _GradLevels.seen_from = self.number

    def __exit__(self, *exc_info):
        _GradLevels.seen_from = self.before

