"""Hooks on several tensors at once, and hooks that run after a leaf's ``.grad`` is updated.

(In PyTorch these live in torch/autograd/graph.py; minigrad's graph.py
imports them from here, so ``minigrad.autograd.graph.register_multi_grad_hook``
works the same way.)
"""
from . import _graph_task
from .graph import _add_hook, gradient_edge


def run_post_accumulate_grad_hooks(tensor):
    """After AccumulateGrad updated ``tensor.grad``: call each hook with the tensor itself.

    A hook may return None or the tensor itself (``lambda p: p.add_(p.grad, alpha=-lr)``, as in
    PyTorch's docs, returns ``p``); anything else is refused, as PyTorch refuses it."""
    for hook in list(tensor._post_accumulate_grad_hooks.values()):
        result = hook(tensor)
        if result is None or result is tensor:
            continue
        if not hasattr(result, "grad_fn"):
            raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def add_post_accumulate_grad_hook(tensor, hook):
    """Tensor.register_post_accumulate_grad_hook (see there)."""
    if not tensor.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if tensor.grad_fn is not None:     # (a view's node is made again first, as in PyTorch)
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    if tensor._post_accumulate_grad_hooks is None:
        tensor._post_accumulate_grad_hooks = {}
    return _add_hook(tensor._post_accumulate_grad_hooks, hook)


class _MultiHandle:
    """Removes the hook from every tensor it was registered on (also on leaving a ``with``
    block). (PyTorch's is a subclass of ``utils.hooks.RemovableHandle``; this module is loaded
    with the autograd package, before minigrad.utils can be.)"""

    def __init__(self, handles):
        self._handles = handles

    def remove(self):
        """Unregister the hook from every tensor."""
        for handle in self._handles:
            handle.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call ``fn`` once per backward pass, when the gradients of ``tensors`` are computed.

    mode="all": ``fn(grads)`` runs after every tensor of ``tensors`` that this
    backward pass reaches got its gradient; ``grads`` has one entry per tensor,
    None for those the pass does not reach.
    mode="any": ``fn(grad)`` runs once, with the first of those gradients computed.

    ``fn``'s return value is ignored. Returns a handle whose ``remove()`` unregisters it.
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    if mode == "all" and not all(t.requires_grad for t in tensors):
        # (PyTorch's mode "all" looks up every tensor's node first; "any" skips such tensors)
        raise AssertionError("Expected gradient function to be set")
    key = object()        # this registration's entry in each backward pass's hook_state

    def make_hook(index):
        def hook(grad):
            # what this registration saw so far lives on the running backward pass,
            # so it is forgotten when that pass ends
            state = _graph_task.current_graph_task().hook_state
            if mode == "any":
                if key not in state:
                    state[key] = True
                    fn(grad)
                return None
            if key not in state:
                expected = sum(1 for t in tensors if t.requires_grad and _reached(t))
                state[key] = [[None] * len(tensors), expected]
            grads, remaining = state[key]
            grads[index] = grad
            state[key][1] = remaining - 1
            if remaining == 1:
                fn(tuple(grads))
            return None
        return hook

    handles = [t.register_hook(make_hook(i)) for i, t in enumerate(tensors) if t.requires_grad]
    return _MultiHandle(handles)


def _reached(tensor):
    """Will the running backward pass compute a gradient for ``tensor``?"""
    node, _ = gradient_edge(tensor)
    return node is not None and _graph_task.will_engine_execute_node(node)
