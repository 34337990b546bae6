"""Which backward pass is running, and what it will do.

The engine (engine.py) makes one ``GraphTask`` per backward pass: the nodes it
runs, the gradients it hands back instead of accumulating them
(``autograd.grad``), and its settings. While the pass runs, the task is
announced here. Hooks that must know about the whole pass ask:
``register_multi_grad_hook`` (which tensors will get a gradient in this pass?)
and ``checkpoint`` (recompute once per pass). PyTorch calls this a "graph task".
"""
from threading import get_ident

from .graph import AccumulateGrad
from .grad_mode import _State, _set_recording


# The backward passes running in each thread, innermost last (a hook may start another):
# thread -> list of its GraphTasks. Per thread: two threads may run backward at once. (A dict
# keyed by the thread rather than a threading.local: every pass reads and writes it, and a
# threading.local's attributes cost several times more.)
_running = {}


class GraphTask:
    """What one backward pass does: which nodes run, which incoming gradients are handed
    back instead of accumulated, and whether it records (``create_graph``).

    ``backward()`` runs every node and captures nothing (``needed`` is None).
    ``autograd.grad(outputs, inputs)`` runs only the nodes that lead to an input
    (``needed``) and returns the gradient arriving at each input's edge instead of
    putting it into ``.grad`` (``capture_at``, ``captured``). The engine fills these in
    (engine.plan_capture). Used as ``with task:`` around the engine's loop.
    """

    # (slots: a pass makes one, and small graphs pay for every object they make)
    __slots__ = ("root_nodes", "order", "keep_graph", "create_graph", "needed", "capture_at",
                 "captured", "is_grad_call", "hooks_only", "_reachable", "hook_state",
                 "_previous_mode", "_running_here")

    def __init__(self, root_nodes, order, keep_graph, create_graph):
        self.root_nodes = root_nodes        # the nodes the pass starts from
        self.order = order                  # every node reachable from the roots, in running order
        self.keep_graph = keep_graph        # retain_graph: saved tensors survive this pass
        self.create_graph = create_graph    # the pass records its own operations
        self.needed = None                  # None: every node runs; else the set of those that do
        self.capture_at = None              # node -> [(output_nr, index into captured)], or None
        self.captured = None                # the gradients handed back (autograd.grad)
        self.is_grad_call = False           # autograd.grad (nothing accumulates into .grad)
        self.hooks_only = None              # a node that runs its tensor hooks, nothing more
        self._reachable = None
        self.hook_state = {}                # per-pass memory of register_multi_grad_hook

    @property
    def reachable(self):
        """The set of nodes in ``order``, made when first asked (only some hooks ask)."""
        if self._reachable is None:
            self._reachable = set(self.order)
        return self._reachable

    @property
    def captured_nodes(self):
        """The nodes whose incoming gradients the pass hands back (empty for ``backward()``)."""
        return self.capture_at or {}

    def capture_gradients(self, node, grads):
        """Keep the gradients arriving at ``node`` that the caller asked for."""
        for output_nr, i in self.capture_at[node]:
            self.captured[i] = grads[output_nr]

    def __enter__(self):
        # announce the pass in this thread; record only for create_graph
        running_here = self._running_here = _running.setdefault(get_ident(), [])
        running_here.append(self)
        self._previous_mode = _State.enabled
        _set_recording(self.create_graph)
        return self

    def __exit__(self, *exc_info):
        _set_recording(self._previous_mode)
        running_here = self._running_here
        running_here.pop()
        if not running_here:                # (the thread's last pass: forget the thread)
            del _running[get_ident()]


def current_graph_task():
    """The backward pass running in this call stack, or None outside backward."""
    running_here = _running.get(get_ident())
    return running_here[-1] if running_here else None


def will_engine_execute_node(node):
    """True if the running backward pass will reach ``node`` (run it or capture its gradient)."""
    task = current_graph_task()
    if task is None:
        raise RuntimeError("_will_engine_execute_node should only be called during the backward pass")
    if task.is_grad_call and isinstance(node, AccumulateGrad):
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are "
                           "currently running autograd.grad(). This is currently not supported.")
    if node not in task.reachable and node not in task.root_nodes:
        return False
    return task.needed is None or node in task.needed or node in task.captured_nodes
