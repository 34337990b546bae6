"""Which values a running ``vmap`` batches, and the in-place changes it refuses.

PyTorch's vmap hands the function "batched tensors" that hold the whole batch
(torch/_functorch, BatchedTensor). A value is batched at a vmap *level* (1 for
the outermost running transform, 2 inside it, ...) exactly when it was computed
from a batched input of that level; a value computed only from captured tensors
and constants is an ordinary tensor, whose ``.item()`` or ``if t:`` works.

minigrad's vmap hands the function BatchedTensors too (func/_batched_tensor.py).
Where it runs something once per sample instead (an operation without a batching
rule, a grad inside a vmap, a vmap inside a grad), each value holds one sample's
numbers, and this module keeps PyTorch's bookkeeping for them, to refuse what
PyTorch refuses: each tensor's ``_vmap_levels`` is a bit mask of
the levels it is batched at (bit ``1 << level``; 0, the class default, for
unbatched). Operations carry the levels of their inputs to their outputs
(``_ops.result`` and the few operations that make their outputs themselves
call ``carry_batching``). This module imports nothing from minigrad when it is
loaded, so every part of the library can use it.
"""
import warnings


class _Vmaps:
    """The running vmaps: their levels, and each level's batch size (for messages)."""

    batch_sizes = {}      # level -> number of samples of the vmap running at that level
    sample_index = {}     # level -> the sample that vmap's loop is running now
    seeing_through = 0    # > 0 while a transform computes derivatives (see seeing_through_vmap)
    different_randomness = 0     # the levels whose vmap has randomness="different" (a mask)
    same_randomness = 0          # ... and those with randomness="same"
    batched_levels = 0    # the levels whose vmap hands the function BatchedTensors (a mask)
    looping = 0           # the levels an operation without a batching rule runs sample by sample
    # > 0 while a transform inside vmap runs with arguments that vmap does not batch given the
    # batch (expanded): results computed from those alone are then marked (func/_batch_rules.py)
    expanded_arguments = 0


class _GradLevels:
    """The running grad-like transforms (grad, vjp, jacrev, jvp, ...), each a
    ``func._levels.GradLevel``: what a tensor shows of autograd depends on them."""

    running = []          # outermost first
    seen_from = None      # a level number while printing what that level sees (None: the innermost)
    inputs_made = False   # has any transform made an input node yet? (next_functions asks)
    differentiating = None    # the level whose transform runs its backward pass now


def batched_levels(values):
    """The union of the vmap levels of ``values`` (tensors, numbers, lists/tuples of them)."""
    levels = 0
    for value in values:
        if type(value) in (list, tuple):
            levels |= batched_levels(value)
        else:
            levels |= getattr(value, "_vmap_levels", 0)      # numbers and None: 0
    return levels


def carry_batching(out, *inputs):
    """Mark ``out`` (a tensor, or a tuple of them) batched wherever one of ``inputs`` is.

    Only called while a vmap runs (callers check ``_FuncTransforms.vmaps``)."""
    levels = batched_levels(inputs)
    if levels:
        for tensor in (out if isinstance(out, (tuple, list)) else (out,)):
            if hasattr(tensor, "_array"):
                tensor._vmap_levels |= levels
    return out


# --- what a batched tensor shows of autograd ---------------------------------------------------
# PyTorch's vmap hands the function a BatchedTensor *wrapped around* the tensor of the whole
# batch. Autograd records the operations on the tensor inside, so the graph outside the vmap
# is built as usual; the wrapper itself is not part of any graph: it says requires_grad=False,
# grad_fn=None, is_leaf=True, and torch.autograd.grad(batched, x) refuses it. A grad (vjp,
# jacrev, ...) running *inside* the vmap wraps tensors again, in a wrapper that does take part
# in its own graph: there the flags are those of that graph.

def shows_as_batched(tensor, depth):
    """Does the user see ``tensor`` as a BatchedTensor, whose autograd flags are hidden?

    True when ``tensor`` is batched at a running vmap level and no other kind of transform
    (grad, vjp, jvp, ...) runs inside that level; ``depth`` is how many transforms run now
    (the innermost one's level). Only called for tensors with ``_vmap_levels`` set while a
    vmap runs (Tensor.requires_grad, grad_fn, is_leaf, grad)."""
    if _Vmaps.seeing_through:
        return False
    top = tensor._vmap_levels.bit_length() - 1        # the innermost level it is batched at
    if top not in _Vmaps.batch_sizes:
        return False                                  # that vmap has finished
    return all(level in _Vmaps.batch_sizes for level in range(top + 1, depth + 1))


class seeing_through_vmap:
    """``with seeing_through_vmap():`` a transform's own derivative code sees every tensor's
    real flags: the whole graph, not what a vmap's BatchedTensor or a grad's level shows the
    user (PyTorch computes derivatives below those wrappers)."""

    def __enter__(self):
        _Vmaps.seeing_through += 1

    def __exit__(self, *exc_info):
        _Vmaps.seeing_through -= 1


# --- printing a batched tensor ---------------------------------------------------------------
# PyTorch prints BatchedTensor(lvl=1, bdim=0, value=<the whole batch>), and so does minigrad's
# BatchedTensor. A sample of a level run one sample at a time (a grad inside a vmap) has no
# whole batch to show: minigrad says so, and names the sample it shows, instead of pretending.

def batched_repr(tensor, plain_repr):
    """``repr`` of a tensor batched by running vmaps: one wrapper line per level, like PyTorch's,
    around ``plain_repr(tensor)`` (one sample's values, with the graph below the wrapper)."""
    with seeing_through_vmap():              # PyTorch shows the grad_fn of the value inside, too
        text = plain_repr(tensor)
    for level in sorted(_Vmaps.batch_sizes):   # the innermost level is the outermost wrapper
        if tensor._vmap_levels >> level & 1:
            inner = "\n".join("    " + line for line in text.split("\n"))
            text = (f"BatchedTensor(lvl={level}, sample={_Vmaps.sample_index[level]}, "
                    f"batch_size={_Vmaps.batch_sizes[level]}, value=\n{inner}\n)")
    return text


# --- operations PyTorch has no batching rule for ------------------------------------------------
# For those, PyTorch's vmap falls back to running the operation once per sample, and warns.
# (minigrad's fallback, func/_batch_rules.py, runs them per sample too: they warn from here.)

_PERFORMANCE_DROP = ("There is a performance drop because we have not yet implemented the batching "
                     "rule for aten::{}. Please file us an issue on GitHub so that we can prioritize "
                     "its implementation.")


def warn_no_batching_rule(name, inputs, name_inside_other_transform=None):
    """PyTorch's UserWarning for an operation without a batching rule, if one of ``inputs`` is
    batched; ``name`` is PyTorch's (``"clamp_.Tensor"``: with its overload).

    When a grad, jvp, ... runs inside the vmap, PyTorch first splits some operations into
    smaller ones: ``name_inside_other_transform`` is then the one that still has no rule
    (None: they all have one, no warning). Only called while a vmap runs.

    PyTorch warns once per call of the operation at each level it is batched at; its fallback
    at a level runs the operation once per sample of that level, so an operation batched at
    two levels warns 1 + (inner batch size) times. minigrad calls the operation once per
    sample of every vmap, so it warns in the calls PyTorch would make: those where every vmap
    not looped over by a fallback runs its first sample."""
    from .autograd.function import _FuncTransforms     # (imported here: see the module docstring)
    from ._warnings import stacklevel_outside_minigrad
    levels = [level for level in sorted(_Vmaps.batch_sizes) if batched_levels(inputs) >> level & 1]
    if not levels:
        return
    if _FuncTransforms.depth not in _Vmaps.batch_sizes:     # the innermost transform isn't a vmap
        name = name_inside_other_transform
        if name is None:
            return
    for level in reversed(levels):            # the innermost level's fallback runs first
        looped = {deeper for deeper in levels if deeper > level}    # by fallbacks at deeper levels
        if all(index == 0 for other, index in _Vmaps.sample_index.items() if other not in looped):
            warnings.warn(_PERFORMANCE_DROP.format(name), UserWarning,
                          stacklevel=stacklevel_outside_minigrad())
        if _Vmaps.batch_sizes[level] == 0:
            raise RuntimeError(f"Batching rule not implemented for aten::{name}. The fallback path "
                               "does not support vmap over dims of size 0.")


# PyTorch's messages when a tensor that is not batched at some level would be changed
# in place by values that are: it would have to hold one value per sample. Which one an
# operation gives depends on how PyTorch batches it (see _INPLACE_MESSAGES).
def _not_batched_message(name, where):
    return (f"vmap: {name}(self, *extra_args) is not possible because there exists a Tensor "
            "`other` in extra_args that has more elements than `self`. This happened due to "
            f"`other` being vmapped over but `self` not being vmapped over {where}. Please try to "
            f"use out-of-place operators instead of {name}. If said operator is being called "
            "inside the PyTorch framework, please file a bug report instead.")


# operation -> the name PyTorch's message uses, and whether it names the level ("aten::" names,
# from PyTorch's fallback that runs such an operation sample by sample) or says "in a vmap"
_INPLACE_MESSAGES = {
    "sub_": ("inplace arithmetic", False), "mul_": ("inplace arithmetic", False),
    "div_": ("inplace arithmetic", False), "copy_": ("inplace arithmetic", False),
    "clamp_min_": ("inplace arithmetic", False), "clamp_max_": ("inplace arithmetic", False),
    "masked_fill_": ("inplace arithmetic", False),        # a batched mask
    "masked_fill_value": ("aten::masked_fill_", True),    # a batched 0-d value
    "fill_": ("fill_", False), "index_put_": ("index_put_", False),
    "scatter_add_": ("scatter_add_", False), "index_add_": ("index_add_", False),
    "pow_": ("aten::pow_", True), "clamp_": ("aten::clamp_", True), "clip_": ("aten::clip_", True),
    "scatter_": ("aten::scatter_", True),
}


def check_inplace_batching(name, tensor, others):
    """Refuse, with PyTorch's message, to change ``tensor`` in place by batched ``others``
    at a vmap level where ``tensor`` itself is not batched.

    ``x.add_(y)`` with x captured and y batched would need x to hold one result per
    sample. (The other way round is fine: a batched x changed by a captured y.)"""
    missing = batched_levels(others) & ~tensor._vmap_levels
    if not missing:
        return
    if name == "add_":
        raise RuntimeError(_add_shape_message(tensor, others[0]))
    label, names_level = _INPLACE_MESSAGES.get(name, ("inplace arithmetic", False))
    level = missing.bit_length() - 1          # PyTorch meets the innermost such level first
    raise RuntimeError(_not_batched_message(label, f"at level {level}" if names_level else "in a vmap"))


def _add_shape_message(tensor, other):
    """add_ is batched by broadcasting: PyTorch's error is then the one for a result that
    does not fit ``tensor``. Follow its shapes from the innermost level to the outermost:
    at each level, a tensor batched there gets the batch size in front (padded with size-1
    dims to the other's number of dims); one that is not batched stays as it is."""
    shapes = [list(tensor.shape), list(getattr(other, "shape", ()))]
    levels = [tensor._vmap_levels, batched_levels((other,))]
    for level in sorted(_Vmaps.batch_sizes, reverse=True):
        rank = max(len(shapes[0]), len(shapes[1]))
        for i in (0, 1):
            if levels[i] >> level & 1:
                shapes[i] = [_Vmaps.batch_sizes[level]] + [1] * (rank - len(shapes[i])) + shapes[i]
    out, other_shape = shapes
    width = max(len(out), len(other_shape))
    padded = [[1] * (width - len(s)) + s for s in (out, other_shape)]
    broadcast = [max(a, b) if 1 in (a, b) else a for a, b in zip(*padded)]
    return f"output with shape {out} doesn't match the broadcast shape {broadcast}"


# --- random numbers: randomness="different" draws one value per sample, "same" one for all ---

def drawn(out, keep=False):
    """A tensor of random numbers drawn inside vmap: batched at the levels whose vmap draws
    "different" numbers for each sample; not batched where they are "the same" (PyTorch
    draws once for all samples then, even for rand_like of a batched tensor). With ``keep``,
    the levels ``out`` already has are kept (bernoulli of batched probabilities).

    Only called while a vmap runs (callers check ``_FuncTransforms.vmaps``)."""
    out._vmap_levels = (out._vmap_levels if keep else 0) | _Vmaps.different_randomness
    return out


def check_same_randomness(input):
    """bernoulli(p) with p batched at a level whose vmap draws "the same" numbers for every
    sample: PyTorch has no way to do that, and says so."""
    if _Vmaps.same_randomness & input._vmap_levels:
        raise RuntimeError("Vmap does not currently support same randomness with a batched tensor "
                           "input. Please file an issue with functorch")


def check_inplace_randomness(tensor):
    """x.normal_() inside vmap(randomness="different") must draw one x per sample: PyTorch
    refuses it for a tensor that is not batched (every sample would share it)."""
    if _Vmaps.different_randomness & ~tensor._vmap_levels:
        raise RuntimeError(
            "vmap: Cannot ask for different inplace randomness on an unbatched tensor. This will "
            "appear like same randomness. If this is necessary for your usage, please file an "
            "issue with functorch.")
