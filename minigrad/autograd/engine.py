"""The backward pass: walk the graph from the outputs to the leaves, applying the chain rule.

    1. Put every node reachable from the outputs in an order where each node
       comes after all the nodes that send it a gradient (a topological order):
       a node may only run once *all* the gradients flowing into it have
       arrived and been summed.
    2. Start from the outputs with their gradients (1 for a scalar loss).
    3. Take the nodes in that order: run each node's ``backward`` on the sum of
       what arrived, and add each resulting gradient into the buffer of the
       node at the end of that edge.

``run_backward`` below is that loop, the same one lesson 10 writes by hand.
Everything it does only now and then (hooks, capturing gradients for
``autograd.grad``, observers, anomaly mode, freeing saved tensors, fitting a
gradient's shape and dtype) is a named step further down the file.

The graph is walked with an explicit heap instead of recursion, so a chain of
100,000 operations needs no deep Python recursion. An edge to a leaf may hold the
leaf itself rather than its AccumulateGrad node (graph.leaf_edge): the loop then
adds the gradient into the leaf's ``.grad`` as that node would. (PyTorch's engine is
torch/csrc/autograd/engine.cpp; it is organised the same way.)
"""
from heapq import heappop, heappush
from sys import getrefcount

import numpy as np

from .. import _tensor      # loaded from the end of _tensor.py, once Tensor and _wrap exist
from .._tensor import Tensor, _wrap, _NEVER_CHANGED
from .._zero_tensor import as_zero_tensor as _as_zero_tensor
from .._dtype import from_numpy_dtype
from .._memory_format import contiguous_format
from .forward_ad import _DualLevel
from .grad_mode import _State
from .graph import (FREED, FREED_MESSAGE, REFS_OF_A_LOCAL, AccumulateGrad, _view_of_a_temporary,
                    accumulate_into_leaf, grad_accumulator, leaf_edge)
from .anomaly_mode import _Anomaly, run_node_checked
from .._ops.reduction import _sum_array
from .._cascade_sum import pytorch_sum
from .._ops.shape import _make_view
from .._ops.pointwise import laid_out_as_pytorch
from .._ops import _ndarray, _np_add
from ._graph_task import GraphTask


# (numpy keeps one dtype object per built-in type: an `is` test answers for these two)
_FLOAT32, _FLOAT64 = np.dtype(np.float32), np.dtype(np.float64)


def run_backward(roots, keep_graph, create_graph, capture=None, run_captured=False):
    """Run the backward pass.

    roots:   list of ((node, output_nr), gradient) to start from.
    capture: None to accumulate into the leaves' ``.grad`` (``backward()``);
             or a list of edges whose incoming gradients are returned instead
             (``autograd.grad`` and ``backward(inputs=...)``).
    run_captured: run the nodes at the captured edges too (``backward(inputs=...)``
             does, so a leaf's AccumulateGrad fills its ``.grad``; ``autograd.grad`` does not).
    """
    root_nodes = list({edge[0]: None for edge, _ in roots})
    order, leaf_nodes = topological_order(root_nodes)  # PyTorch's order, see below
    task = GraphTask(root_nodes, order, keep_graph, create_graph)   # what this pass does
    if capture is not None:                            # autograd.grad: which nodes run (see below)
        plan_capture(task, capture, run_captured, single_output=len(roots) == 1)
    needed, capture_at = task.needed, task.capture_at
    buffers = starting_buffers(roots)                  # node -> gradient(s) arrived so far
    with task:                                         # (announced to hooks; records if create_graph)
        for node in order:                             # all its gradients have arrived
            grads = buffers.pop(node, None)            # what arrived, summed (see starting_buffers)
            if node._is_tensor:                        # a leaf without its AccumulateGrad (graph.leaf_edge):
                if node._grad_accumulator is None or leaf_edge(node) is node:
                    if grads is not None and needed is None:    # into .grad (adopted if nothing else holds it)
                        held_elsewhere = getrefcount(grads) > REFS_OF_A_LOCAL    # (besides `grads` here)
                        accumulate_into_leaf(node, grads, held_elsewhere)
                    continue
                # (rare) something looked at an edge during the pass, which gave the leaf its node:
                # what arrived at the leaf (first) and at that node goes through the node, hooks and all
                leaf, arrived_at_leaf = node, grads
                node = leaf_edge(leaf)
                grads = buffers.pop(node, None)
                if arrived_at_leaf is not None and grads is not None:
                    buffers[node] = arrived_at_leaf
                    add_to_buffer(buffers, node, node, 0, grads, create_graph)
                    grads = buffers.pop(node)
                elif grads is None:
                    grads = arrived_at_leaf
            grads = [grads] if node._num_outputs == 1 else grads or [None] * node._num_outputs
            runs = needed is None or node in needed    # autograd.grad: only nodes leading to an input
            has_hooks = node._has_hooks
            if has_hooks:
                grads = apply_pre_hooks(node, grads, runs, task)
            if capture_at and node in capture_at:
                task.capture_gradients(node, grads)
            if not runs or (grads[0] is None and all(grad is None for grad in grads)):
                continue                               # nothing to pass on
            if type(node) is AccumulateGrad and not (has_hooks or _Anomaly.enabled or _observers):
                node.backward(*grads)                  # a leaf's .grad takes it: nothing flows on (and
                continue                               # call_backward's checks all pass, so skip them)
            grad_inputs = call_backward(node, grads, keep_graph)
            grads = None                               # (let go of what arrived, as PyTorch does)
            next_nrs = node._next_nrs                  # (node.next_functions: these and the nodes)
            next_nodes = (node._next_node_0, node._next_node_1) if len(next_nrs) < 3 else node._all_next_nodes
            for i, grad in enumerate(grad_inputs):
                next_node = next_nodes[i]
                if grad is None or next_node is None:
                    continue                           # no gradient, or none wanted there
                if next_node._is_tensor:               # an edge that holds a leaf (graph.leaf_edge):
                    if leaf_nodes:                     # to its AccumulateGrad if it has one,
                        next_node = leaf_nodes.get(next_node, next_node)
                    if type(next_node) is not AccumulateGrad:   # else to the leaf itself
                        if next_node not in buffers and grad._array.shape == next_node._array.shape \
                                and grad._array.dtype is next_node._array.dtype:
                            buffers[next_node] = grad  # (the usual case, as below)
                        else:
                            add_to_buffer(buffers, node, next_node, 0, grad, create_graph, grad_inputs)
                        continue
                # the usual case, without a call: the first gradient to arrive at a one-output
                # node, of its shape and dtype, is what arrived there (else add_to_buffer sums)
                # (an integer node, which an in-place comparison can give history, is refused
                # there; float32 and float64 are known floating without asking numpy)
                dtype = grad._array.dtype
                if next_node not in buffers and next_node._num_outputs == 1 and (
                        grad._array.shape == next_node._output_shape and dtype is next_node._output_dtype
                        and (dtype is _FLOAT32 or dtype is _FLOAT64 or dtype.kind in "fc")):
                    buffers[next_node] = grad
                else:
                    add_to_buffer(buffers, node, next_node, next_nrs[i], grad, create_graph, grad_inputs)
            grad_inputs = grad = None          # the buffers hold them now (PyTorch moves them there)
    return task.captured


# --- the graph: which nodes, in which order -------------------------------------------------

def topological_order(root_nodes):
    """Every node below ``root_nodes``, each once, in the order the engine runs them; and for
    the edges that hold a leaf instead of its AccumulateGrad (graph.leaf_edge), the leaves
    whose node takes their gradient (``{leaf: node}``: those with hooks, or a node alive).

    PyTorch's rule: of the nodes whose gradients have all arrived, run the one
    made last in the forward pass (the highest ``_sequence_number``); a leaf's
    AccumulateGrad runs as soon as its gradient is complete. Each node is made
    after the nodes its edges point to, so taking the nodes from the highest
    sequence number down only ever meets nodes that are ready, with no queue of
    ready nodes to maintain: the nodes found but not taken yet wait in a heap
    that gives the highest number first. A node found again is still waiting
    there (every node with an edge to it was made after it, so was taken before
    it): only those waiting nodes are held, never a table of the whole graph (a
    chain of 100,000 nodes keeps one), and nothing recurses. Each AccumulateGrad
    goes right after the last node that sends it a gradient.
    """
    nodes = []                # the nodes other than leaves' AccumulateGrad, latest made first
    last_sender = {}          # AccumulateGrad (or leaf) -> how many nodes were taken when its last edge was met
    leaf_nodes = {}           # leaf -> its AccumulateGrad, for edges that hold the leaf (graph.leaf_edge)
    shows_nodes = _Anomaly.enabled or bool(_observers)      # every node must be there to be shown
    waiting = {}              # minus the sequence number -> the node found with it, not taken yet
    heap = []                 # those keys (heappop gives the smallest first: the latest made)
    root_accumulators = []    # (a leaf's node as a root: it runs first, if nothing sends to it)
    for node in root_nodes:
        if type(node) is AccumulateGrad:
            root_accumulators.append(node)
        else:
            waiting[-node._sequence_number] = node
            heappush(heap, -node._sequence_number)
    take = nodes.append       # (looked up once: this loop runs for every node of the graph)
    while heap:
        node = waiting.pop(heappop(heap))
        take(node)
        # (node._next_nodes, read from its fields without a call: see Node)
        for next_node in ((node._next_node_0, node._next_node_1) if len(node._next_nrs) < 3
                          else node._all_next_nodes):
            if next_node is None:
                continue
            holds_leaf = next_node._is_tensor     # an edge that holds a leaf (graph.leaf_edge)
            if holds_leaf:
                if next_node in leaf_nodes:       # (met before: x + b in a loop sends b 1,000 times)
                    next_node = leaf_nodes[next_node]
                elif next_node not in last_sender and (
                        next_node._grad_accumulator is not None or next_node._backward_hooks is not None
                        or shows_nodes):          # (a node alive, or needed: its hooks, or shown)
                    accumulator = accumulator_for_pass(next_node, shows_nodes)
                    if accumulator is not None:
                        leaf_nodes[next_node] = next_node = accumulator
            if holds_leaf or type(next_node) is AccumulateGrad:    # (the leaf, or its node)
                last_sender.pop(next_node, None)    # (moved to the end: the dict keeps them in
                last_sender[next_node] = len(nodes)     # the order their last edges are met)
                continue
            key = -next_node._sequence_number
            if key not in waiting:
                waiting[key] = next_node
                heappush(heap, key)
    if not last_sender and not root_accumulators:
        return nodes, leaf_nodes                      # (no leaf takes a gradient: nothing to place)
    order = [node for node in root_accumulators if node not in last_sender] if root_accumulators else []
    taken = 0
    for leaf_node, after in last_sender.items():      # each after the last node sending to it
        order += nodes[taken:after]
        order.append(leaf_node)
        taken = after
    order += nodes[taken:]
    return order, leaf_nodes


def accumulator_for_pass(leaf, shows_nodes):
    """The AccumulateGrad node that takes ``leaf``'s gradient in this pass, for an edge that
    holds the leaf itself (graph.leaf_edge): its live node, or a new one if the pass needs it
    (for the leaf's hooks, or ``shows_nodes``: anomaly mode, viz); None if the leaf takes it."""
    node = leaf_edge(leaf)
    if node is leaf and (leaf._backward_hooks is not None or shows_nodes):
        node = grad_accumulator(leaf)        # (the pass keeps it alive until it ends)
    return node if node is not leaf else None


def reachable_edges(root_nodes):
    """Every edge (node, next_node) of the graph below ``root_nodes``, each node expanded once.

    An explicit stack instead of recursion: a chain of 100,000 nodes is fine.
    """
    seen = set(root_nodes)
    stack = list(root_nodes)
    while stack:
        node = stack.pop()
        for next_node in node._next_nodes:
            if next_node is None:
                continue
            yield node, next_node
            if next_node not in seen:
                seen.add(next_node)
                stack.append(next_node)


def nodes_leading_to(root_nodes, targets):
    """The nodes from which some node in ``targets`` can be reached (they must run)."""
    parents = {}
    for node, next_node in reachable_edges(root_nodes):
        parents.setdefault(next_node, []).append(node)
    seen = set(root_nodes).union(parents)
    needed = set()
    stack = [t for t in targets if t in seen]
    while stack:
        node = stack.pop()
        for parent in parents.get(node, ()):
            if parent not in needed:
                needed.add(parent)
                stack.append(parent)
    return needed


def starting_buffers(roots):
    """The gradients the pass starts with: what each node's buffer holds.

    A node with one output (most) keeps its gradient itself; one with several, a list
    with a slot per output. (A wide graph waits with thousands of gradients at once: a
    list around each would be one more object each for the garbage collector.)
    """
    buffers = {}
    for (node, output_nr), grad in roots:
        if node._num_outputs == 1:
            buffers[node] = grad if node not in buffers else buffers[node] + grad
            continue
        buffer = buffers.setdefault(node, [None] * node._num_outputs)
        buffer[output_nr] = grad if buffer[output_nr] is None else buffer[output_nr] + grad
    return buffers


# --- autograd.grad and backward(inputs=...): capture instead of accumulate ------------------

def plan_capture(task, capture, run_captured, single_output):
    """Make ``task`` capture the gradients arriving at the edges ``capture`` and run only
    the nodes that lead to them (``autograd.grad(outputs, inputs)``; ``backward()`` runs
    every node and captures nothing). ``run_captured``: run the nodes at those edges too."""
    task.is_grad_call = not run_captured
    task.captured = [None] * len(capture)
    capture_at = task.capture_at = {}
    for i, (node, output_nr) in enumerate(capture):
        capture_at.setdefault(node, []).append((output_nr, i))
    task.needed = nodes_leading_to(task.root_nodes, list(capture_at))
    if run_captured:
        task.needed.update(capture_at)
    if single_output and task.root_nodes[0] not in task.needed:
        # PyTorch starts the pass of one output at that output's node itself (of several,
        # at a node above them all, which leads nowhere if none leads to an input): even
        # when it leads to no input, the tensor hooks of that output (and retain_grad)
        # see its gradient, as at a captured node
        task.hooks_only = task.root_nodes[0]


# --- running one node ------------------------------------------------------------------------

def call_backward(node, grads, keep_graph):
    """``node.backward(*grads)``, with every duty that goes with it.

    Observers see the gradients; a freed graph refuses to run twice; anomaly
    mode checks for NaN; the number of gradients returned is checked; post-hooks
    may replace them; saved tensors are freed unless ``retain_graph``.
    (While a profiler is on, autograd/profiler.py swaps in a timed version of this function.)
    """
    saved = node._saved
    if saved is FREED:             # even nodes that keep only indices refuse
        raise RuntimeError(FREED_MESSAGE)
    if _Anomaly.enabled:           # detect_anomaly: NaN check, forward traceback on error
        grad_inputs = run_node_checked(node, grads)
    elif len(grads) == 1 and type(node) is not AccumulateGrad:
        # (most nodes: a plain call costs half of unpacking the list; AccumulateGrad counts
        # the references to its gradient, the call's own tuple among them)
        grad_inputs = node.backward(grads[0])
    else:
        grad_inputs = node.backward(*grads)
    if type(grad_inputs) is not tuple:      # one input: a bare tensor, as in PyTorch
        grad_inputs = (grad_inputs,)
    if len(grad_inputs) != len(node._next_nrs):       # (one output number per edge)
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients "
            f"(expected {len(node._next_nrs)}, got {len(grad_inputs)})")
    if node._has_hooks and node._post_hooks:
        grad_inputs = apply_post_hooks(node, fitted_to_inputs(node, grad_inputs), grads)
    if _observers:
        grad_inputs = notify_observers(node, grads, grad_inputs)
    if saved is not None and not keep_graph:
        node._saved = FREED             # free what forward saved (PyTorch does too)
    return grad_inputs


# --- adding a gradient to what already arrived ------------------------------------------------

def add_to_buffer(buffers, producer, node, output_nr, grad, create_graph, sent_with=()):
    """Add ``grad`` (from ``producer``, one of the gradients ``sent_with``) into ``node``'s
    buffer slot ``output_nr``.

    A tensor used twice receives two gradients: they add up. Before that, the
    gradient is fitted to the tensor's shape and dtype (undoing broadcasting).
    Like PyTorch, the second gradient is added *into* the first when nothing
    but the buffer holds the first one or its memory, so that gradient's
    version goes up (``(x * x).sum().backward()`` leaves ``x.grad._version`` at 1).
    """
    array = grad._array
    leaf = node._is_tensor                    # (an edge that holds a leaf: graph.leaf_edge)
    shape, dtype = (node._array.shape, node._array.dtype) if leaf else (node._output_shape, node._output_dtype)
    if array.shape != shape or (array.dtype is not dtype and array.dtype != dtype):
        grad = _fit_to_node(grad, node, output_nr, producer)
    elif not leaf and node._num_outputs == 1:
        refuse_integer_gradient(dtype)        # (an integer's gradient of the right dtype too)
    if leaf or node._num_outputs == 1:        # (its gradient kept bare: see starting_buffers)
        buffer, current = None, buffers.get(node)
        if current is None:                   # the first gradient to arrive at this node
            buffers[node] = grad
            return
    else:
        buffer = buffers.get(node)
        if buffer is None:
            buffer = buffers[node] = [None] * node._num_outputs
        current = buffer[output_nr]
        if current is None:
            buffer[output_nr] = grad
            return
    if create_graph or _DualLevel.open:       # (forward mode: keep the tangents)
        total = current + grad                # recorded, so it can be differentiated
        if current._zero_tensor_memory is not None and grad._zero_tensor_memory is not None:
            _as_zero_tensor(total)              # (two ZeroTensors add up to one)
    else:
        total = _np_add(current._array, grad._array)    # (the operator would cost numpy a detour)
        if type(total) is not _ndarray:     # two 0-d arrays add up to a numpy scalar, which
            total = np.asarray(total)       # could not be changed in place later (x.grad.zero_())
        holders = getrefcount(current) - REFS_OF_A_LOCAL        # (besides the name `current`)
        if holders > 1 and len(sent_with) > 1:
            # the tuple its producer returned does not count: PyTorch moves each gradient out
            # of its list as it hands it on (here the loop still holds the tuple)
            holders -= _times_in(current, sent_with)
        # (new memory without elements is a view of a fresh array: see keep_zero_steps; a
        # gradient summed to a 0-d shape may be a view of a sum nothing else holds)
        own_memory = current._array.base is None or (
            current._base is None and current._detached_from is None
            and (current._array.size == 0 or _view_of_a_temporary(current._array)))
        if holders == 1 and own_memory and getrefcount(current._array) == REFS_OF_A_LOCAL:
            # nothing but the buffer holds the first gradient, nothing but that tensor its
            # memory: PyTorch adds into it in place (its version goes up). Here the sum takes
            # the old memory's place: the same, since nobody else can see that memory, and
            # numpy is faster at it for tiny tensors
            current._array = total
            counter = current._versions         # (read without the property's call once it exists:
            if counter is _NEVER_CHANGED:       # a leaf's gradient is summed here at every use)
                counter = current._version_counter
            counter[0] += 1
            return
        # a new sum, laid out as PyTorch's out-of-place add lays it out (like the first
        # gradient when the two disagree): AccumulateGrad may then have to copy it into the
        # leaf's layout, and that copy_ counts as a change of .grad (its version goes to 1)
        total = _wrap(laid_out_as_pytorch(total, current._array, grad._array))
        if current._zero_tensor_memory is not None and grad._zero_tensor_memory is not None:
            _as_zero_tensor(total)              # (two ZeroTensors add up to one)
    if buffer is None:
        buffers[node] = total
    else:
        buffer[output_nr] = total


def _times_in(grad, grads):
    """How many times ``grad`` itself is among ``grads``."""
    return sum(1 for other in grads if other is grad)


def _gradient_shape_and_dtype(node, output_nr):
    """The shape and dtype of the gradient that ``node`` takes at ``output_nr`` (of a leaf's
    gradient, for an edge that holds the leaf itself: graph.leaf_edge)."""
    if isinstance(node, Tensor):
        return node._array.shape, node._array.dtype
    if node._num_outputs == 1:
        return node._output_shape, node._output_dtype
    dtypes = getattr(node, "_output_dtypes", None)      # (a custom Function's outputs may differ)
    return node._output_shapes[output_nr], node._output_dtype if dtypes is None else dtypes[output_nr]


def _fit_to_node(grad, node, output_nr, producer):
    """Make ``grad`` match the shape and dtype of the tensor the edge leads to."""
    shape, dtype = _gradient_shape_and_dtype(node, output_nr)
    if grad._array.shape != shape:
        fitted = sum_to_shape(grad, shape, in_pass=True)
        if fitted is None:
            index = next(i for i, edge in enumerate(producer.next_functions)
                         if (edge[0] is node or getattr(edge[0], "variable", None) is node)
                         and edge[1] == output_nr)
            raise RuntimeError(
                f"Function {producer.name()} returned an invalid gradient at index {index} - got "
                f"{list(grad.shape)} but expected shape compatible with {list(shape)}")
        grad = fitted
    if dtype is not None and grad._array.dtype != dtype:
        refuse_integer_gradient(dtype)
        grad = grad.to(from_numpy_dtype(dtype))
    return grad


# PyTorch's engine casts each gradient to its tensor's dtype, then asserts that the dtype can
# carry a gradient: an integer tensor that an in-place change gave history (x.lt_(y)) fails there
_NOT_DIFFERENTIABLE = ('isDifferentiableType(grad.scalar_type()) INTERNAL ASSERT FAILED at "/__w/pytorch/'
                       'pytorch/torch/csrc/autograd/engine.cpp":998, please report a bug to PyTorch. ')


def refuse_integer_gradient(dtype):
    """PyTorch's assertion for a gradient cast to an integer or bool ``dtype`` (see above)."""
    if dtype.kind not in "fc":
        raise RuntimeError(_NOT_DIFFERENTIABLE)


def sum_to_shape(grad, shape, in_pass=False):
    """Undo broadcasting: sum ``grad`` over the dimensions that were broadcast to reach its shape.

    This is the one place where that happens for every operation (PyTorch does
    the same in its engine), so no backward formula has to think about it.
    ``in_pass``: called by the backward pass, which runs with numpy's warnings off.
    """
    sizes = grad._array.shape       # (the array's: no Size made, no property called)
    lead = len(sizes) - len(shape)
    if lead < 0:
        return None
    dims = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and sizes[lead + i] != 1)
    for i, n in enumerate(shape):
        if n != 1 and sizes[lead + i] != n:
            return None
    if not _State.enabled and not _DualLevel.open:
        # the usual case: nothing is recorded, so let numpy sum (keeping the summed dims, as
        # PyTorch does); without its leading dims the gradient is then a view of that sum,
        # except for a 0-d tensor, whose gradient PyTorch sums in one step (a new tensor)
        array = grad._array
        if shape == ():
            return _tensor._wrap(np.asarray(_ordered_sum(array, tuple(range(array.ndim)), False, in_pass)))
        # (row-major, as PyTorch allocates a reduction's result: a sum of a permuted gradient
        # may come out of numpy permuted, which AccumulateGrad would then have to copy)
        summed = _tensor._wrap(np.ascontiguousarray(_ordered_sum(array, dims, True, in_pass)))
        if not lead:
            return summed
        if 1 not in shape and 0 not in shape:
            # summed.view(shape), made directly (a bias's gradient, every step of a training
            # loop): only leading size-1 dims go, so numpy's reshape steps as view's would
            # (an empty tensor's steps are view's own business)
            return _make_view(_tensor._wrap(summed._array.reshape(shape)), summed)
        return summed.view(shape)
    if shape == ():
        return grad.sum()                           # recorded in one step, as PyTorch does (SumBackward0)
    if dims:
        grad = grad.sum(dim=dims, keepdim=True)     # recorded (create_graph=True)
    if lead:
        grad = grad.reshape(shape)
    return grad


def _ordered_sum(array, dims, keepdim, in_pass):
    """The sum in PyTorch's order of additions (_sum_array). In the pass, numpy's warnings are
    already off (autograd.backward), so the sum enters no errstate of its own: a bias's
    gradient is summed at every training step, and an errstate costs more than the sum."""
    if in_pass:
        ordered = pytorch_sum(array, dims, keepdim, quiet=True)
        if ordered is not None:
            return ordered
    return _sum_array(array, dims, keepdim, array.dtype)


# --- hooks -----------------------------------------------------------------------------------

def apply_pre_hooks(node, grads, node_runs, task):
    """Tensor hooks, retain_grad and node pre-hooks may inspect or replace incoming gradients.

    A node that only has its input gradient captured (autograd.grad) does not
    run, so its own pre-hooks do not fire; tensor hooks and retain_grad do, as they
    do at the node of a lone output that leads to no input (``task.hooks_only``).
    Any other node that does not run fires nothing.
    """
    if not node_runs and node not in task.capture_at and node is not task.hooks_only:
        return grads
    if isinstance(node, AccumulateGrad):
        hooks = node.variable._backward_hooks
        if hooks:
            for hook in list(hooks.values()):
                new = hook(grads[0])
                if new is not None:
                    grads[0] = _checked_hook_result(hook, grads[0], new)
    if node._tensor_pre_hooks:
        for output_nr, hooks in node._tensor_pre_hooks.items():
            for hook in list(hooks.values()):
                if grads[output_nr] is not None:
                    new = hook(grads[output_nr])
                    if new is not None:
                        grads[output_nr] = _checked_hook_result(hook, grads[output_nr], new)
    if node._retains_grad_hook:
        for output_nr, tensor_ref in node._retains_grad_hook.items():
            tensor = tensor_ref()
            if tensor is not None and grads[output_nr] is not None:
                retain_grad(tensor, grads[output_nr])
    if node._pre_hooks and node_runs:
        for hook in list(node._pre_hooks.values()):
            new = hook(tuple(grads))
            if new is not None:
                grads[:] = _checked_node_hook_result(hook, grads, new)
    return grads


def retain_grad(tensor, grad):
    """What ``tensor.retain_grad()`` asked for, as PyTorch does it: the first gradient becomes
    ``tensor.grad`` as a contiguous copy (never the gradient itself, which flows on), and each
    later one is added out of place, so that ``.grad`` is a new tensor every time."""
    current = tensor._grad
    if current is None:
        tensor._grad = grad.clone(memory_format=contiguous_format)
    else:
        tensor._grad = current + grad


def fitted_to_inputs(node, grad_inputs):
    """The gradients as PyTorch checks them before post-hooks see them: each summed to the
    shape of its input and cast to its dtype (otherwise add_to_buffer does that later)."""
    return tuple(grad if grad is None or next_node is None else _fit_to_node(grad, next_node, nr, node)
                 for grad, next_node, nr in zip(grad_inputs, _edge_ends(node), node._next_nrs))


def _edge_ends(node):
    """What ``node``'s edges hold, as they are: a node, or a leaf not given its node yet
    (``node._next_nodes`` would give it one, which the pass must not do: see graph.leaf_edge)."""
    return (node._next_node_0, node._next_node_1)[:len(node._next_nrs)] if len(node._next_nrs) < 3 \
        else node._all_next_nodes


def apply_post_hooks(node, grad_inputs, grads):
    """Node post-hooks see what the node received and passed on, and may replace the latter."""
    for hook in list(node._post_hooks.values()):
        new = hook(tuple(grad_inputs), tuple(grads))
        if new is not None:
            grad_inputs = _checked_node_hook_result(hook, grad_inputs, new)
    return grad_inputs


def _checked_node_hook_result(hook, grads, new):
    """A node hook may replace the gradients by a tuple of as many, each of the same dtype and
    shape as the one it replaces (PyTorch's rule)."""
    if not isinstance(new, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(new).__name__}'")
    if len(new) != len(grads):
        name = getattr(hook, "__name__", type(hook).__name__)
        raise RuntimeError(f"hook '{name}' has returned an incorrect number of values "
                           f"(got {len(new)}, but expected {len(grads)})")
    return tuple(g if g is None or old is None else _checked_hook_result(hook, old, g)
                 for old, g in zip(grads, new))


def _checked_hook_result(hook, grad, new):
    """A tensor hook may replace the gradient, but only by a tensor of the same dtype and shape
    (PyTorch's rule)."""
    if not isinstance(new, _tensor.Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
    name = getattr(hook, "__name__", type(hook).__name__)
    if new.dtype is not grad.dtype:          # PyTorch checks the type before the size
        raise RuntimeError(f"hook '{name}' has changed the type of value (was "
                           f"torch.{grad.dtype.tensor_type_name} got torch.{new.dtype.tensor_type_name})")
    if new._array.shape != grad._array.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value\n"
                           f"minigrad hint: the hook got a gradient of shape {list(grad.shape)} "
                           f"and returned one of shape {list(new.shape)}")
    return new


# --- observers (minigrad.viz records a backward pass frame by frame) ---------------------------

# Functions called after every step of a backward pass. Empty in normal use.
_observers = []


def observe(observer):
    """Call ``observer(step)`` after each node runs, until the returned handle is removed.

    ``step`` is a dict: ``node``, ``grad_outputs`` (the gradients the node received),
    ``grad_inputs`` (what it passed on, one per entry of ``node.next_functions``).
    """
    _observers.append(observer)

    class _Handle:
        def remove(self):
            if observer in _observers:
                _observers.remove(observer)

        def __enter__(self):
            return self

        def __exit__(self, *exc_info):
            self.remove()

    return _Handle()


def notify_observers(node, grads, grad_inputs):
    for observer in list(_observers):
        observer({"node": node, "grad_outputs": tuple(grads), "grad_inputs": grad_inputs})
    return grad_inputs


# --- gradient ownership -------------------------------------------------------------------------
#
# When a leaf receives its first gradient, accumulate_grad (graph.py) adopts that
# tensor as the leaf's ``.grad`` without copying, and later adds into it in place
# (``x.grad += g``); add_to_buffer adds a second incoming gradient into the first.
# PyTorch does either only when it holds the last reference to that gradient (its
# use count is 1), so that no tensor someone else holds (a hook that kept it,
# another leaf's buffer, the caller's starting gradient) ever changes behind their
# back. minigrad asks Python's reference count the same question, which is why the
# loop above lets go of each node's gradients once the buffers hold them. A starting
# gradient is flagged (``_shared_gradient``): PyTorch's caller holds it throughout.
