"""Which backward pass is running, and what it will do.

The engine (engine.py) announces each backward pass here while it runs. Hooks
that must know about the whole pass ask: ``register_multi_grad_hook`` (which
tensors will get a gradient in this pass?) and ``checkpoint`` (recompute once
per pass). PyTorch calls this a "graph task".
"""
import threading

from .graph import AccumulateGrad


class _RunningTasks(threading.local):
    """The backward passes running in this thread, innermost last (a hook may start another).

    Each entry says which nodes that pass will run; multi-grad hooks and
    checkpointing ask it. Per thread: two threads may run backward at once.
    """
    tasks = ()

    def push(self, task):
        self.tasks = self.tasks + (task,)

    def pop(self):
        self.tasks = self.tasks[:-1]


running_tasks = _RunningTasks()


class GraphTask:
    """What one run_backward call will do: reachable nodes, and which of them run."""

    def __init__(self, root_nodes, order, needed, captured_nodes, is_grad_call, keep_graph):
        self.is_grad_call = is_grad_call    # autograd.grad (nothing accumulates into .grad)
        self.keep_graph = keep_graph        # retain_graph: saved tensors survive this pass
        self.root_nodes = set(root_nodes)
        self.order = order                  # every node reachable from the roots, in running order
        self._reachable = None
        self.needed = needed
        self.captured_nodes = captured_nodes
        self.hook_state = {}          # per-pass memory of register_multi_grad_hook

    @property
    def reachable(self):
        """The set of nodes in ``order``, made when first asked (only some hooks ask)."""
        if self._reachable is None:
            self._reachable = set(self.order)
        return self._reachable


def current_graph_task():
    """The backward pass running in this call stack, or None outside backward."""
    tasks = running_tasks.tasks
    return tasks[-1] if tasks else None


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
