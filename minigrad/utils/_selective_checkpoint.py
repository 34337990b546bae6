"""Selective activation checkpointing: rerun the cheap operations, keep the costly ones.

    context_fn = functools.partial(create_selective_checkpoint_contexts,
                                   [torch.ops.aten.mm.default])
    y = checkpoint(block, x, use_reentrant=False, context_fn=context_fn)

Plain checkpointing (checkpoint.py) reruns all of ``block`` in backward. Selective
checkpointing asks a *policy*, for each operation forward runs, whether to keep its output
(``CheckpointPolicy.MUST_SAVE``: a matrix product, slow to compute again) or to compute it
again (``PREFER_RECOMPUTE``: an ``exp``, cheap). The rerun then takes every kept output
instead of running its operation: the same values, less compute, a little more memory.
(PyTorch: torch/utils/checkpoint.py.)

``create_selective_checkpoint_contexts`` gives the two context managers ``context_fn`` must
give: one around forward, which asks the policy and keeps outputs (``_CachingTorchDispatchMode``),
one around the rerun, which hands them back in the same order (``_CachedTorchDispatchMode``).
Outputs are found again by operator and count: the 2nd ``aten.mm.default`` of the rerun
takes the output of forward's 2nd ``aten.mm.default``. A kept output is handed back once: a
second backward through the same graph (``retain_graph=True``) is refused.

Both are operator modes (_python_dispatch.py): they see the operations minigrad records a
backward node for (an input requires grad), named by the operator of that node, with the
arguments the node tells.
"""
import enum
from collections import defaultdict

from .._op_overloads import OpOverload, OpOverloadPacket
from ._python_dispatch import OperatorMode

__all__ = ["CheckpointPolicy", "SelectiveCheckpointContext", "create_selective_checkpoint_contexts"]


class CheckpointPolicy(enum.Enum):
    """A policy's answer for one operation: keep its output for backward (``*_SAVE``) or compute
    it again in the rerun (``*_RECOMPUTE``). ``MUST_*`` and ``PREFER_*`` mean the same here:
    the difference is for compilers, which may overrule a ``PREFER``. ``*_CPU_OFFLOAD`` (keep it
    in CPU memory) is recomputed, as in PyTorch's eager mode."""
    MUST_SAVE = 0
    PREFER_SAVE = 1
    MUST_RECOMPUTE = 2
    PREFER_RECOMPUTE = 3
    MUST_CPU_OFFLOAD = 4
    PREFER_CPU_OFFLOAD = 5


class SelectiveCheckpointContext:
    """What a policy is told besides the operation: its output (``op_output``), and
    ``is_recompute`` (always False: the policy is asked in forward only)."""

    def __init__(self, *, is_recompute, op_output=None):
        self.is_recompute = is_recompute
        self.op_output = op_output


# What the caching mode stores for an operation whose output is not kept, and what the cached
# mode leaves in place of an output it has handed back.
_RECOMPUTE = object()
_CONSUMED = object()

_MISMATCH = ("This can happen if the operations in the checkpointed region are nondeterministic "
             "or depend on global state that changed between forward and backward.")


class _KeptOutput:
    """An output kept in forward: the same memory without history, and the version it had, so
    that an in-place change of it before the rerun is caught."""

    def __init__(self, output):
        self.tensor = output.detach()
        self.version = output._version

    def get(self, allow_mutation):
        if not allow_mutation and self.tensor._version != self.version:
            raise RuntimeError("Tensor cached during selective activation checkpoint has been mutated")
        return self.tensor


class _Mode(OperatorMode):
    """What both modes share: the storage, and a count of each operator seen so far."""

    def __init__(self, storage):
        self.storage = storage          # operator -> {n: kept output, or _RECOMPUTE}
        self.counts = defaultdict(int)  # operator -> how many ran so far

    def next_index(self, op):
        index = self.counts[op]
        self.counts[op] += 1
        return index


class _CachingTorchDispatchMode(_Mode):
    """Around forward: ask the policy about each operation; keep the outputs it says to save."""

    def __init__(self, policy_fn, storage):
        super().__init__(storage)
        self.policy_fn = policy_fn

    def after(self, op, out, arguments):
        index = self.next_index(op)
        # (the policy sees the output as PyTorch's does, below autograd: without history)
        context = SelectiveCheckpointContext(is_recompute=False, op_output=out.detach())
        policy = self.policy_fn(context, op, *arguments)
        if isinstance(policy, bool):        # (an older form of policy: True means keep it)
            policy = CheckpointPolicy.MUST_SAVE if policy else CheckpointPolicy.PREFER_RECOMPUTE
        keep = policy in (CheckpointPolicy.MUST_SAVE, CheckpointPolicy.PREFER_SAVE)
        self.storage[op][index] = _KeptOutput(out) if keep else _RECOMPUTE


class _CachedTorchDispatchMode(_Mode):
    """Around the rerun: hand back each output forward kept, in the same order."""

    def __init__(self, storage, allow_cache_entry_mutation):
        super().__init__(storage)
        self.allow_cache_entry_mutation = allow_cache_entry_mutation

    def __enter__(self):
        self.counts.clear()     # each rerun counts from the start (a second one finds _CONSUMED)
        return super().__enter__()

    def before(self, op, out):
        index = self.next_index(op)
        entries = self.storage.get(op)
        if entries is None:
            raise RuntimeError(f"{op} encountered during backward but not found in storage. {_MISMATCH}")
        entry = entries.get(index)
        if entry is None:
            raise RuntimeError(f"{op} invocation index {index} encountered during backward but not "
                               f"found in storage. {_MISMATCH}")
        if entry is _CONSUMED:
            raise RuntimeError("Trying to backward an extra time. You are only allowed to backward "
                               "once on any region computed under selective activation checkpoint.")
        if entry is _RECOMPUTE:
            return out
        entries[index] = _CONSUMED
        return entry.get(self.allow_cache_entry_mutation)


def create_selective_checkpoint_contexts(policy_fn_or_list, allow_cache_entry_mutation=False):
    """The ``context_fn`` result for selective checkpointing: ``(forward's context, the rerun's
    context)``.

    ``policy_fn_or_list`` is a policy, ``policy(ctx, op, *args, **kwargs)`` returning a
    CheckpointPolicy (or a bool) for each operation, or a list of operators to keep
    (``[torch.ops.aten.mm.default]``: those MUST_SAVE, the rest PREFER_RECOMPUTE).
    ``allow_cache_entry_mutation=True`` lets a kept output change in place before the rerun.
    Give it to ``checkpoint`` through ``functools.partial``: each call makes a new pair.
    """
    if isinstance(policy_fn_or_list, list):
        for op in policy_fn_or_list:
            if not isinstance(op, OpOverload):
                advice = ("Please update the OpOverloadPacket to a specific OpOverload.For example, "
                          "if you have `torch.ops.aten.mm`, change it to `torch.ops.aten.mm.default`."
                          if isinstance(op, OpOverloadPacket) else "")
                raise ValueError(f"Expected op in `op_list` to be an OpOverload but got: {op} "
                                 f"of type {type(op)}. {advice}")
        ops_to_save = policy_fn_or_list

        def policy_fn(ctx, op, *args, **kwargs):
            return CheckpointPolicy.MUST_SAVE if op in ops_to_save else CheckpointPolicy.PREFER_RECOMPUTE
    elif callable(policy_fn_or_list):
        policy_fn = policy_fn_or_list
    else:
        raise TypeError("policy_fn_or_list must be either a function or a list of ops.")
    storage = defaultdict(dict)
    return (_CachingTorchDispatchMode(policy_fn, storage),
            _CachedTorchDispatchMode(storage, allow_cache_entry_mutation))
