"""Activation checkpointing: trade compute for memory.

    y = checkpoint(block, x, use_reentrant=False)

Normally every node of ``block``'s graph keeps the tensors its backward needs
until backward runs: for a deep network, that is most of the memory. With
checkpointing, those saved tensors are not kept: backward runs ``block`` a
second time to make them again, just before they are needed. Memory goes down,
compute goes up by (at most) one extra forward of ``block``.
(PyTorch: torch/utils/checkpoint.py.)

How ``use_reentrant=False`` (the recommended variant) does it, with nothing but
saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks):

1. forward runs ``block`` normally, so the graph and every ``grad_fn`` look as
   usual, under a pack hook that keeps, instead of each saved tensor, an empty
   ``_Holder`` (and the tensor's shape, dtype and device, for a check later);
2. the first time backward unpacks one of those holders, the unpack hook runs
   ``block`` again on the same inputs (with the random state forward had),
   under a second pack hook that puts the n-th tensor saved now into the n-th
   holder;
3. once the rerun has saved as many tensors as forward did, every holder is
   full: the rerun is stopped there ("early stop", on by default), so the rest
   of ``block`` -- a print, a counter, a random draw after its last saved
   tensor -- does not run a second time. ``set_checkpoint_early_stop(False)``
   (or ``early_stop=False``) runs ``block`` to its end instead;
4. the recomputed tensors are compared with what forward saved (how many, and
   their shapes, dtypes and devices): a ``block`` that did something different
   the second time raises ``CheckpointError``.

Selective checkpointing (``context_fn=`` with ``create_selective_checkpoint_contexts``) keeps
the outputs of chosen operations so that the rerun need not compute them:
_selective_checkpoint.py. ``debug=True`` reports what forward and the rerun ran when they
differ: _checkpoint_debug.py.

Checkpoints nest: the inputs of an inner checkpoint count as tensors saved by
the outer one, so unpacking them runs the outer block again first.

``use_reentrant=True`` is the older variant: ``block`` runs without recording,
and one node, ``CheckpointFunctionBackward``, stands for all of it; its
backward reruns the whole ``block`` with recording on and backpropagates
through that.
"""
import contextlib
import warnings
import weakref

from ..autograd import _graph_task
from ..autograd.function import Function
from ..autograd.grad_mode import enable_grad, is_grad_enabled, no_grad
from ..autograd.graph import _modified_in_place_message
from ..autograd._saved_tensor_hooks import PackedTensor, _Hooks, pack, saved_tensors_hooks
from .._tensor import Tensor
from .. import autograd, random
from ._checkpoint_debug import OperatorLog, debug_report
from ._selective_checkpoint import (  # noqa: F401  (torch.utils.checkpoint's names)
    CheckpointPolicy, SelectiveCheckpointContext, create_selective_checkpoint_contexts)

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "noop_context_fn", "set_checkpoint_debug_enabled", "set_checkpoint_early_stop",
           "CheckpointPolicy", "SelectiveCheckpointContext", "create_selective_checkpoint_contexts",
           "GraphExecGroup"]

USE_REENTRANT_WARNING = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the differences "
    "between the two variants.")

# The end of each CheckpointError about a rerun that differs from forward (PyTorch's text).
DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint\u2011debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""
FORWARD_CONTEXT_SUPPRESSED = (
    "torch.utils.checkpoint: the forward context provided by context_fn suppressed an exception "
    "raised during the checkpointed forward. This is not supported because checkpoint cannot "
    "return a value for a failed forward.")


class CheckpointError(RuntimeError):
    """The rerun of a checkpointed function did not save what its first run saved."""


def noop_context_fn():
    """The default ``context_fn``: no extra context around forward or its rerun."""
    return contextlib.nullcontext(), contextlib.nullcontext()


# Settings for every checkpoint made while a ``with`` block below is open. None: each
# checkpoint follows its own argument (early_stop=..., debug=...).
_early_stop_override = None
_debug_override = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """Context manager: checkpoints made inside it stop their rerun in backward as soon as every
    tensor backward needs is back (``True``, the default) or run the whole function again
    (``False``). It only matters while forward runs: the checkpoint remembers it for backward."""
    global _early_stop_override
    previous, _early_stop_override = _early_stop_override, enable
    try:
        yield
    finally:
        _early_stop_override = previous


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled):
    """Context manager: checkpoints made inside it behave as if given ``debug=enabled``
    (``None``: each follows its own ``debug`` argument)."""
    global _debug_override
    previous, _debug_override = _debug_override, enabled
    try:
        yield
    finally:
        _debug_override = previous


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn,
               determinism_check="default", debug=False, early_stop=True, **kwargs):
    """``function(*args, **kwargs)``, keeping none of its saved tensors until backward needs them.

    ``preserve_rng_state=True`` (a keyword, default) reruns ``function`` with the random state it
    first had, so dropout draws the same mask twice. With ``use_reentrant=False``:
    ``context_fn()`` gives two context managers, one around forward and one around the rerun;
    ``determinism_check="none"`` skips comparing shapes, dtypes and devices of the rerun's tensors;
    ``early_stop`` is explained in the module's docstring.
    """
    if use_reentrant is None:
        warnings.warn(USE_REENTRANT_WARNING, UserWarning, stacklevel=2)
        use_reentrant = True            # PyTorch's default, for now
    preserve_rng_state = kwargs.pop("preserve_rng_state", True)
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    return _checkpoint_without_reentrant(function, args, kwargs, preserve_rng_state, context_fn,
                                         determinism_check, debug, early_stop)


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


# --- use_reentrant=False ---------------------------------------------------------------

def _tensor_metadata(tensor):
    """What ``determinism_check="default"`` compares between forward and the rerun."""
    return {"shape": tensor.shape, "dtype": tensor.dtype, "device": tensor.device}


DETERMINISM_CHECKS = {"default": _tensor_metadata, "none": lambda tensor: None}


def _checkpoint_without_reentrant(function, args, kwargs, preserve_rng_state, context_fn,
                                  determinism_check, debug, early_stop):
    """checkpoint(..., use_reentrant=False): run ``function`` under the frame's hooks."""
    debug = _debug_override if _debug_override is not None else debug
    if debug and context_fn is not noop_context_fn:
        raise ValueError("debug=True is incompatible with non-default context_fn")
    if determinism_check not in DETERMINISM_CHECKS:
        raise ValueError(f"determinism_check should be one of {list(DETERMINISM_CHECKS)}, "
                         f"but got {determinism_check}")
    if debug:       # the contexts log every operator forward and the rerun run, for the report
        operator_logs = (OperatorLog(), OperatorLog())
        forward_context, rerun_context = operator_logs
    else:
        operator_logs = None
        forward_context, rerun_context = context_fn()   # (called even under no_grad)
    if not is_grad_enabled():
        return function(*args, **kwargs)        # nothing is saved: nothing to checkpoint
    # The rerun must draw the random numbers forward drew (the same dropout mask), and must
    # not move the caller's random stream: fork_rng puts the caller's state back afterwards.
    forward_rng_state = random.get_rng_state() if preserve_rng_state else None

    def rerun_function(*inputs):
        with random.fork_rng(enabled=preserve_rng_state):
            if preserve_rng_state:
                random.set_rng_state(forward_rng_state)
            with rerun_context:
                function(*inputs, **kwargs)

    if _early_stop_override is not None:
        early_stop = _early_stop_override       # the with block wins over the argument
    frame = _CheckpointFrame(rerun_function, early_stop, DETERMINISM_CHECKS[determinism_check],
                             operator_logs)
    frame.keep_inputs(args)
    failed = False
    with saved_tensors_hooks(frame.pack_in_forward, frame.unpack), forward_context:
        try:
            outputs = function(*args, **kwargs)
        except BaseException:
            failed = True
            raise
    if failed:      # forward_context swallowed the exception: there is no output to return
        raise RuntimeError(FORWARD_CONTEXT_SUPPRESSED)
    frame.forward_done = True
    return outputs


class GraphExecGroup:
    """Context manager: the backward calls made inside one ``with GraphExecGroup():`` block share
    one rerun of each checkpointed function (``use_reentrant=False``), instead of one rerun per
    call. The calls must need different saved tensors (a tensor is handed out once), as when
    backward is split into parts: ``autograd.grad(loss, hidden, retain_graph=True)``, then
    ``hidden.backward(...)``. Blocks do not nest."""

    _current = None

    def __enter__(self):
        if GraphExecGroup._current is not None:
            raise RuntimeError("GraphExecGroup contexts cannot be nested. Already inside group "
                               f"{GraphExecGroup._current}")
        GraphExecGroup._current = self
        return self

    def __exit__(self, *exc_info):
        GraphExecGroup._current = None

    @classmethod
    def _get_current_group(cls):
        """The open group, or None."""
        return cls._current


class _StopRerun(Exception):
    """Raised inside the rerun once every saved tensor is back: the rest need not run."""


class _Holder:
    """What a node keeps, inside a checkpoint, instead of a tensor it saves.

    ``recomputed`` maps each rerun (one per backward pass) to the tensor it saved in this
    place, and to None once backward has unpacked it: a recomputed tensor is let go as soon
    as it is used, even with retain_graph=True (a later backward reruns the function again).
    """

    def __init__(self):
        self.recomputed = weakref.WeakKeyDictionary()


class _Rerun:
    """One rerun of a checkpointed function, made by the first unpack in a backward pass."""

    def __init__(self):
        self.saved_count = 0        # tensors this rerun has saved so far
        self.done = False


class _CheckpointFrame:
    """Everything one checkpointed call keeps between its forward and backward."""

    def __init__(self, rerun_function, early_stop, metadata_fn, operator_logs):
        self.rerun_function = rerun_function
        self.early_stop = early_stop
        self.metadata_fn = metadata_fn
        self.operator_logs = operator_logs      # debug=True: forward's and the rerun's OperatorLog
        self.inputs = []
        # One weak reference per tensor saved in forward, in saving order. A node freed by a
        # backward without retain_graph lets go of its holders; the rerun skips those places.
        self.holders = []
        self.metadata = []              # the metadata_fn of each tensor saved in forward
        self.group_reruns = weakref.WeakKeyDictionary()     # GraphExecGroup -> its one rerun
        self.forward_done = False
        # Set when a backward inside the function itself (before forward ended) made the rerun
        # save more than forward had saved so far: then the counts cannot be compared.
        self.counts_unknown = False

    # forward ------------------------------------------------------------------
    def keep_inputs(self, args):
        """Keep the tensor inputs as saved tensors: the hooks in effect around the checkpoint
        (an outer checkpoint's, or save_on_cpu's) see them, and an in-place change of one
        before backward is caught, as for any saved tensor."""
        for arg in args:
            if isinstance(arg, Tensor) and _Hooks.stack:
                pack_hook, unpack_hook = _Hooks.stack[-1]
                arg = pack(arg, None, pack_hook, unpack_hook)
            elif isinstance(arg, Tensor):
                arg = _KeptInput(arg)
            self.inputs.append(arg)

    def pack_in_forward(self, tensor):
        """Pack hook of forward: keep an empty holder instead of ``tensor``."""
        holder = _Holder()
        self.holders.append(weakref.ref(holder))
        self.metadata.append(self.metadata_fn(tensor))
        return holder

    # backward -----------------------------------------------------------------
    def unpack(self, holder):
        """Unpack hook: the tensor the rerun saved in ``holder``'s place (rerunning first if
        this backward pass has not yet)."""
        try:
            task = _graph_task.current_graph_task()
            group = GraphExecGroup._get_current_group()
            if group is not None:       # several backward calls share one rerun
                rerun = self.group_reruns.setdefault(group, _Rerun())
            elif task is None:          # grad_fn._saved_result outside backward: rerun each time
                rerun = _Rerun()
            else:
                rerun = task.hook_state.setdefault(self, _Rerun())
            if not rerun.done:
                self.rerun(rerun)
            tensor = holder.recomputed.get(rerun)
            if tensor is None:
                overlapping = (
                    "Performing two backward calls that overlap (i.e. require the same saved "
                    "activation in order to compute gradients) is not allowed while under the "
                    "torch.utils.checkpoint.GraphExecGroup context. " if group is not None else "")
                raise CheckpointError(
                    "torch.utils.checkpoint: Unpack is being triggered for a tensor that was "
                    f"already unpacked once. {overlapping}If you are calling ctx.saved_tensors in "
                    "backward, make sure to do so only once. Otherwise please open an issue with "
                    "details on your use case.")
            holder.recomputed[rerun] = None
            return tensor
        except CheckpointError as error:
            if self.operator_logs is None:
                raise
            raise CheckpointError(debug_report(*self.operator_logs)) from error

    def rerun(self, rerun):
        """Run the function again, filling the holders; stop early once all are full."""
        inputs = [arg.unpack(None) if type(arg) in (PackedTensor, _KeptInput) else arg
                  for arg in self.inputs]
        try:
            with saved_tensors_hooks(lambda tensor: self.pack_in_rerun(rerun, tensor),
                                     lambda tensor: tensor), enable_grad():
                self.rerun_function(*inputs)
        except _StopRerun:
            pass
        rerun.done = True
        self.check_rerun(rerun)

    def pack_in_rerun(self, rerun, tensor):
        """Pack hook of the rerun: put the n-th tensor saved into the n-th holder."""
        log = self.operator_logs[1] if self.operator_logs is not None else None
        # an input saved after its operation was logged: if the rerun stops here, PyTorch
        # (which saves inputs first) never ran that operation, and must not show it
        stops_before_the_operation = log is not None and log.saving_input(tensor)
        # The rerun's own graph is thrown away, but a backward inside the function may still
        # run through it: keep a tensor without history, as any saved tensor is kept.
        if tensor.requires_grad:
            detached = tensor.detach()
            if log is not None:                     # (PyTorch's log shows this detach)
                log.detached(tensor, detached)
            tensor = detached
        try:
            return self._fill_holder(rerun, tensor)
        except (CheckpointError, _StopRerun):
            if stops_before_the_operation:
                log.drop_last_operation()
            raise

    def _fill_holder(self, rerun, tensor):
        """pack_in_rerun's last step: ``tensor`` into the next holder; stop when all are full."""
        index = rerun.saved_count
        rerun.saved_count += 1
        if index >= len(self.holders):
            if not self.forward_done:
                self.counts_unknown = True
                return tensor
            raise CheckpointError("torch.utils.checkpoint: trying to save more tensors during "
                                  "recomputation than during the original forward pass.\n"
                                  + DEBUG_TIP)
        holder = self.holders[index]()
        if holder is not None:
            holder.recomputed[rerun] = tensor
        if self.early_stop and rerun.saved_count == len(self.holders):
            raise _StopRerun            # every holder is full: the rest of the function need not run
        return tensor

    def check_rerun(self, rerun):
        """Raise CheckpointError if the rerun saved other tensors than forward did."""
        if self.counts_unknown:
            return
        if rerun.saved_count != len(self.holders):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.holders)}\n"
                f"Number of tensors saved during recomputation: {rerun.saved_count}.\n"
                + DEBUG_TIP)
        differences = ""
        for index, (weak_holder, metadata) in enumerate(zip(self.holders, self.metadata)):
            holder = weak_holder()
            if holder is None:
                continue
            recomputed = self.metadata_fn(holder.recomputed[rerun])
            if recomputed != metadata:
                differences += (f"tensor at position {index}:\nsaved metadata: {metadata}\n"
                                f"recomputed metadata: {recomputed}\n")
        if differences:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{differences}.\n" + DEBUG_TIP)


class _KeptInput:
    """A tensor input kept without hooks, with its version, to catch an in-place change."""

    __slots__ = ("tensor", "version")

    def __init__(self, tensor):
        self.tensor, self.version = tensor, tensor._version

    def unpack(self, node):
        """The input itself, after checking it was not changed in place since."""
        tensor = self.tensor
        if tensor._version != self.version:
            raise RuntimeError(_modified_in_place_message(tensor, self.version, tensor.grad_fn,
                                                          output_nr=0))
        return tensor


# --- use_reentrant=True ----------------------------------------------------------------

class CheckpointFunction(Function):
    """The whole checkpointed block as one node: forward unrecorded, backward recomputes it."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        """Run ``run_function(*args)`` without recording it; keep only the inputs (and the RNG state)."""
        ctx.run_function = run_function
        ctx.rng_state = random.get_rng_state() if preserve_rng_state else None
        if not any(isinstance(a, Tensor) and a._graph_requires_grad for a in args):
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                          UserWarning, stacklevel=4)
        # Tensor inputs are saved as any node's saved tensors (so saved-tensor hooks see them,
        # and an in-place change before backward is an error); other arguments are kept as is.
        ctx.tensor_positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[args[i] for i in ctx.tensor_positions])
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
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
        inputs = list(ctx.inputs)
        for position, tensor in zip(ctx.tensor_positions, ctx.saved_tensors):
            inputs[position] = tensor
        inputs = [a.detach().requires_grad_(a._graph_requires_grad) if isinstance(a, Tensor) else a
                  for a in inputs]
        # the rerun draws what forward drew; the caller's random stream is left where it was
        with random.fork_rng(enabled=ctx.rng_state is not None):
            if ctx.rng_state is not None:
                random.set_rng_state(ctx.rng_state)
            with enable_grad():
                outputs = ctx.run_function(*inputs)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        needing_grad = [(o, g) for o, g in zip(outputs, grad_outputs)
                        if isinstance(o, Tensor) and o._graph_requires_grad]
        if not needing_grad:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not "
                               "necessary")
        pairs = [(o, g) for o, g in needing_grad if g is not None]
        if pairs:
            autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        grads = tuple(a.grad if isinstance(a, Tensor) else None for a in inputs)
        return (None, None) + grads
