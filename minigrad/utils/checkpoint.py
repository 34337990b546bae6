"""Activation checkpointing: trade compute for memory.

    y = checkpoint(block, x, use_reentrant=False)

Normally every node of ``block``'s graph keeps the tensors its backward needs
until backward runs: for a deep network, that is most of the memory. With
checkpointing, those saved tensors are dropped right after forward, and
backward runs ``block`` a second time to make them again, just before they are
needed. Memory goes down, compute goes up by one extra forward of ``block``.
(PyTorch: torch/utils/checkpoint.py.)

How minigrad does it (``use_reentrant=False``, the recommended variant):

1. run ``block`` normally, so the graph and every ``grad_fn`` look as usual;
2. empty the saved tensors of the nodes ``block`` created;
3. a pre-hook on the output nodes runs ``block`` again when backward reaches
   them, and hands each node the tensors its twin from the second run saved.

``use_reentrant=True`` is the older variant: ``block`` runs without recording,
and one node, ``CheckpointFunctionBackward``, stands for all of it.
"""
import warnings

from ..autograd import _graph_task
from ..autograd.function import Function
from ..autograd.grad_mode import enable_grad, no_grad
from ..autograd.graph import FREED, AccumulateGrad, _sequence_numbers
from ..autograd._saved_tensor_hooks import PackedTensor, _Hooks, pack
from .._tensor import Tensor
from .. import autograd

USE_REENTRANT_WARNING = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the differences "
    "between the two variants.")


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check="default",
               debug=False, preserve_rng_state=True, **kwargs):
    """``function(*args, **kwargs)``, keeping none of its saved tensors until backward needs them."""
    if use_reentrant is None:
        warnings.warn(USE_REENTRANT_WARNING, UserWarning, stacklevel=2)
        use_reentrant = True            # PyTorch's default, for now
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    return _checkpoint_without_reentrant(function, args, kwargs)


SEQUENTIAL_USE_REENTRANT_WARNING = (
    "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed "
    "explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run ``functions`` (a list, or an ``nn.Sequential``'s children) one after the other on
    ``input``, in ``segments`` parts of equal length: all but the last part are checkpointed
    (the last one's saved tensors are needed at once by backward anyway)."""
    if use_reentrant is None:
        warnings.warn(SEQUENTIAL_USE_REENTRANT_WARNING, UserWarning, stacklevel=2)
        use_reentrant = True
    preserve_rng_state = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    from ..nn import Sequential
    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def run(start, stop):
        def part(value):
            for f in functions[start:stop]:
                value = f(value)
            return value
        return part
    size = len(functions) // segments
    stop = 0
    # (a step of 0, more segments than functions, is Python's ValueError from range, as in PyTorch)
    for start in range(0, size * (segments - 1), size):
        stop = start + size
        input = checkpoint(run(start, stop), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve_rng_state)
    return run(stop, len(functions))(input)


class set_checkpoint_early_stop:
    """Context manager: whether a checkpoint made inside stops its recomputation as soon as it has
    every tensor backward needs (PyTorch's default, ``True``) or runs the whole function again.

    minigrad always runs the whole function again (what ``set_checkpoint_early_stop(False)``
    asks for); the setting is kept so that code written for PyTorch runs unchanged.
    """
    enabled = True

    def __init__(self, enable):
        self.enable, self.previous = enable, None

    def __enter__(self):
        self.previous, set_checkpoint_early_stop.enabled = set_checkpoint_early_stop.enabled, self.enable

    def __exit__(self, *exc_info):
        set_checkpoint_early_stop.enabled = self.previous
        return False


# --- use_reentrant=False ---------------------------------------------------------------

def _checkpoint_without_reentrant(function, args, kwargs):
    first_node = next(_sequence_numbers)
    # Saved-tensor hooks of the caller see only the block's inputs (which checkpoint keeps),
    # never the tensors the block saves: those are checkpoint's own business (as in PyTorch).
    kept_args = _pack_inputs(args)
    with _without_saved_tensors_hooks():
        outputs = function(*args, **kwargs)
    nodes = _nodes_made_since(first_node, outputs)
    if not nodes:
        return outputs
    for node in nodes:
        node._saved = () if node._saved is not None else None    # dropped until backward
    key = object()
    # The inputs are kept to run function again; a backward without retain_graph lets them go.
    recompute_inputs = [kept_args, kwargs]

    def recompute_before_backward(grad_outputs):
        task = _graph_task.current_graph_task()
        if key in task.hook_state:
            return None                     # already done in this backward pass
        task.hook_state[key] = True
        if not recompute_inputs or any(node._saved is FREED for node in nodes):
            return None                     # a second backward: the node reports the error
        args, kwargs = recompute_inputs
        with _without_saved_tensors_hooks():
            _refill_saved(nodes, function, _unpacked(args), kwargs)
        if not task.keep_graph:
            recompute_inputs.clear()
        return None

    for output in _tensors_in(outputs):
        if output._grad_fn in nodes:
            output._grad_fn.register_prehook(recompute_before_backward)
    return outputs


def _tensors_in(outputs):
    values = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
    return [v for v in values if isinstance(v, Tensor)]


def _nodes_made_since(first_node, outputs):
    """The nodes recorded while ``function`` ran, oldest first (found from its outputs)."""
    found = {}
    stack = [t._grad_fn for t in _tensors_in(outputs) if t._grad_fn is not None]
    while stack:
        node = stack.pop()
        if node in found or isinstance(node, AccumulateGrad) or node._sequence_nr < first_node:
            continue
        found[node] = None
        stack.extend(next_node for next_node, _ in node.next_functions if next_node is not None)
    return sorted(found, key=lambda node: node._sequence_nr)


class _without_saved_tensors_hooks:
    """Run code as if no saved_tensors_hooks were in effect."""

    def __enter__(self):
        self.hooks, _Hooks.stack = _Hooks.stack, ()

    def __exit__(self, *exc_info):
        _Hooks.stack = self.hooks


def _pack_inputs(args):
    """With saved-tensor hooks in effect, the tensor inputs go through their pack hook."""
    if not _Hooks.stack:
        return args
    pack_hook, unpack_hook = _Hooks.stack[-1]
    return tuple(pack(a, None, pack_hook, unpack_hook) if isinstance(a, Tensor) else a
                 for a in args)


def _unpacked(args):
    """The inputs again, through their unpack hook if they were packed."""
    return tuple(a.unpack(None) if type(a) is PackedTensor else a for a in args)


def _refill_saved(nodes, function, args, kwargs):
    """Run ``function`` again on copies of the inputs; give each node its twin's saved tensors."""
    inputs = [a.detach().requires_grad_(a._graph_requires_grad) if isinstance(a, Tensor) else a
              for a in args]
    first_node = next(_sequence_numbers)
    with enable_grad():
        outputs = function(*inputs, **kwargs)
    twins = _nodes_made_since(first_node, outputs)
    originals = [n for n in nodes if n._saved is not None]
    twins = [n for n in twins if n._saved is not None]
    if len(originals) != len(twins):
        raise RuntimeError(
            "torch.utils.checkpoint: A different number of tensors was saved during the original "
            "forward and recomputation.")
    for node, twin in zip(originals, twins):
        node._saved, node._saved_versions = twin._saved, twin._saved_versions


# --- use_reentrant=True ----------------------------------------------------------------

class CheckpointFunction(Function):
    """The whole checkpointed block as one node: forward unrecorded, backward recomputes it."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        """Run ``run_function(*args)`` without recording it; keep only the inputs (and the RNG state)."""
        ctx.run_function = run_function
        ctx.inputs = args
        if not any(isinstance(a, Tensor) and a._graph_requires_grad for a in args):
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                          UserWarning, stacklevel=4)
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grad_outputs):
        """results = run_function(*args), not recorded   ->
            grad_args = backward through run_function(*args) run again with recording on"""
        task = _graph_task.current_graph_task()
        if task is not None and task.captured_nodes:
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or "
                "passing an `inputs` parameter to .backward(). To resolve this error, you can "
                "either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        inputs = [a.detach().requires_grad_(a._graph_requires_grad) if isinstance(a, Tensor) else a
                  for a in ctx.inputs]
        with enable_grad():
            outputs = ctx.run_function(*inputs)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs)
                 if isinstance(o, Tensor) and o._graph_requires_grad and g is not None]
        if pairs:
            autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        grads = tuple(a.grad if isinstance(a, Tensor) else None for a in inputs)
        return (None, None) + grads
