"""Batching rules: each operation on BatchedTensors as one operation on the whole batch.

``dispatch`` is where every operation on a BatchedTensor arrives (a Tensor method, an
operator, ``torch.xxx`` or ``F.xxx``). It finds the innermost vmap level among the
arguments, and runs the operation's rule for that level; a rule calls ordinary
operations on the batched values (which may be BatchedTensors of an outer vmap: their
own rules then run in turn). An operation without a rule runs once per sample
(``run_per_sample``), as PyTorch's fallback does.

The rules, by family (each a few lines):

* pointwise  - sin(t), t * y, where(c, t, y): line the batch dims up in front, pad
               the samples to the same number of dims, run the operation once;
* dims       - t.sum(1), t.softmax(-1), t.transpose(0, 1): the same operation on
               the value, each dim moved past the batch dim;
* shapes     - t.view(6), t.expand(2, 3), t[0]: the batch size put in front;
* indexing   - t[i] with batched positions, gather, scatter, index_select: the
               positions given the batch too, one index or gather of the whole batch;
* matmul     - t @ w: folded into one mm/mv over the whole batch, as PyTorch does;
               einsum runs its own steps (permutes, reshapes, bmm), each by its rule;
* losses     - in func/_batch_rules_loss.py.

PyTorch: aten/src/ATen/functorch/BatchRules*.cpp, BatchedFallback.cpp.
"""
import functools

import numpy as np

from .._tensor import Tensor
from .. import _dtype
from .._functorch import _Vmaps
from ._batched_tensor import BatchedTensor
from .._ops.shape import squeeze, SqueezeBackward2


def dispatch(name, op, args, kwargs):
    """Run ``op(*args, **kwargs)`` (named ``name``) on BatchedTensors: its rule, or once per
    sample. Tensors of a level being run sample by sample are replaced by their sample."""
    if _Vmaps.looping:
        args, kwargs = samples_of_looped(args), samples_of_looped(kwargs)
    level = innermost_level((args, kwargs))
    if not level:
        random_rule = _RANDOM_FACTORIES.get(name)
        if random_rule is not None and _Vmaps.different_randomness & _Vmaps.batched_levels:
            return random_rule(op, args, kwargs)
        return op(*args, **kwargs)
    if kwargs.get("out") is not None:
        raise RuntimeError(_out_refusal(name, args))
    if _Vmaps.expanded_arguments and name in _ARITHMETIC_IN_PLACE:
        _refuse_changing_repeated(name, args, kwargs, level)
    rule = RULES.get(name)
    out = NotImplemented
    if rule is not None:
        # the rule calls the operation on values that may be BatchedTensors of outer levels
        out = rule(_dispatching(name, op), level, args, kwargs)
    if out is NotImplemented:
        out = run_per_sample(name, op, level, args, kwargs, in_place=name.endswith("_")
                             and not name.endswith("__"))
    if _Vmaps.expanded_arguments:
        _mark_expanded_only(out, (args, kwargs), level)
    return out


# in-place arithmetic, and the name PyTorch's messages give it
_ARITHMETIC_IN_PLACE = {"add_": "add_", "sub_": "sub_", "mul_": "mul_", "div_": "div_",
                        "copy_": "copy_", "__iadd__": "add_", "__isub__": "sub_",
                        "__imul__": "mul_", "__itruediv__": "div_"}


def _refuse_changing_repeated(name, args, kwargs, level):
    """PyTorch's refusal to change in place, by a batched value, an argument a transform gave
    the batch (it is not batched there: it cannot hold one result per sample)."""
    from .._functorch import _not_batched_message, _INPLACE_MESSAGES
    self = args[0] if args else None
    if not (isinstance(self, BatchedTensor) and self._level == level and self._expanded_only):
        return
    others = [leaf for leaf in _leaves((args[1:], kwargs)) if isinstance(leaf, BatchedTensor)
              and leaf._level == level and not leaf._expanded_only]
    if not others:
        return
    name = _ARITHMETIC_IN_PLACE[name]
    if name == "add_":             # (batched by broadcasting: the result does not fit self)
        out, other = list(self.shape), list(others[0].shape)
        rank = max(len(out), len(other))
        other = [_Vmaps.batch_sizes[level]] + [1] * (rank - len(other)) + other
        padded = [1] * (len(other) - len(out)) + out
        broadcast = [max(a, b) if 1 in (a, b) else a for a, b in zip(padded, other)]
        raise RuntimeError(f"output with shape {out} doesn't match the broadcast shape {broadcast}")
    label, names_level = _INPLACE_MESSAGES.get(name, ("inplace arithmetic", False))
    raise RuntimeError(_not_batched_message(label, f"at level {level}" if names_level else "in a vmap"))


def _mark_expanded_only(out, inputs, level):
    """Mark the results of an operation whose inputs batched at ``level`` all hold one value
    repeated (an argument a transform expanded, or computed from such): so do they (unless
    "different" random numbers are drawn). An in-place change by a batched value unmarks."""
    batched = [leaf for leaf in _leaves(inputs)
               if isinstance(leaf, BatchedTensor) and leaf._level == level]
    repeated = all(leaf._expanded_only for leaf in batched) and \
        not _Vmaps.different_randomness >> level & 1
    for leaf in _leaves(out):
        if isinstance(leaf, BatchedTensor) and leaf._level == level:
            leaf._expanded_only = repeated


# out= inside vmap: PyTorch's fallback cannot write one sample at a time into ``out``, and
# refuses, naming the operation's out= overload
_OUT_OVERLOADS = {"sum": "sum.IntList_out", "where": "where.self_out"}
_NO_FALLBACK = ("cat", "concat", "stack")       # (PyTorch cannot even start a fallback for these)


def _out_refusal(name, args):
    """PyTorch's message for ``op(..., out=...)`` with batched tensors inside vmap."""
    if name in _NO_FALLBACK:
        return f"Batching rule not implemented for aten::{name}.out. We could not generate a fallback."
    if name == "pow":
        exponent_is_tensor = len(args) > 1 and isinstance(args[1], Tensor)
        overload = ("pow.Scalar_out" if not isinstance(args[0], Tensor) else
                    "pow.Tensor_Tensor_out" if exponent_is_tensor else "pow.Tensor_Scalar_out")
    else:
        overload = _OUT_OVERLOADS.get(name, name + ".out")
    return (f"Batching rule not implemented for aten::{overload}; the fallback path doesn't work "
            "on out= or view ops.")


@functools.lru_cache(maxsize=None)
def _dispatching(name, op):
    """``op`` sent to dispatch again (for torch.xxx and F.xxx, which do not dispatch
    themselves when a rule calls them with the values it unwrapped)."""
    def call(*args, **kwargs):
        return dispatch(name, op, args, kwargs)
    call.__name__ = op.__name__
    return call


def innermost_level(tree):
    """The highest vmap level of the BatchedTensors in ``tree`` (0: none)."""
    if isinstance(tree, BatchedTensor):
        return tree._level
    if isinstance(tree, (tuple, list)):
        return max((innermost_level(item) for item in tree), default=0)
    if isinstance(tree, dict):
        return max((innermost_level(item) for item in tree.values()), default=0)
    return 0


def _map(function, tree):
    if isinstance(tree, (tuple, list)) and not hasattr(tree, "_fields"):
        return type(tree)(_map(function, item) for item in tree)
    if isinstance(tree, dict):
        return {key: _map(function, item) for key, item in tree.items()}
    return function(tree)


# --- the fallback: once per sample -----------------------------------------------------------

def sample(tensor, index, level):
    """Sample ``index`` of ``tensor`` at ``level``, marked batched at that level for the
    checks of minigrad/_functorch.py (refusing .item(), in-place writes, ...)."""
    one = tensor._value.select(tensor._bdim, index)
    one._vmap_levels = one._vmap_levels | tensor._vmap_levels | 1 << level
    return one


def samples_of_looped(tree):
    """``tree`` with each BatchedTensor of a level now run sample by sample replaced by
    that sample (a tensor captured by a function that a fallback runs per sample)."""
    def replace(value):
        while isinstance(value, BatchedTensor) and _Vmaps.looping >> value._level & 1:
            value = sample(value, _Vmaps.sample_index[value._level], value._level)
        return value
    return _map(replace, tree)


def run_per_sample(name, op, level, args, kwargs, in_place=False):
    """PyTorch's fallback: run ``op`` once per sample of ``level`` and stack the results.
    (Each sample may still be batched at outer levels: it is dispatched again.)"""
    size = _Vmaps.batch_sizes[level]
    if size == 0:
        return _run_on_stand_in(name, op, level, args, kwargs)
    if in_place and isinstance(args[0], BatchedTensor) and args[0]._level == level \
            and _differentiated_inside(level):
        return _in_place_once(name, op, level, args, kwargs)
    results = _each_sample(name, op, level, args, kwargs)
    if in_place:
        return args[0]             # the samples were views of its value: it is changed
    return stack_samples(results, level)


def apply_per_sample(cls, args):
    """``cls.apply(*args)`` (a custom autograd Function) with BatchedTensors among ``args``:
    once per sample (its forward and backward are written for one sample), stacked."""
    return run_per_sample(cls.__name__ + ".apply", cls.apply, innermost_level(args), args, {})


class VmapInfo(tuple):
    """What a custom Function's vmap staticmethod is told: ``info.batch_size``, ``info.randomness``."""

    def __new__(cls, batch_size, randomness):
        return super().__new__(cls, (batch_size, randomness))

    batch_size = property(lambda self: self[0])
    randomness = property(lambda self: self[1])

    def __repr__(self):
        return f"VmapInfo(batch_size={self[0]}, randomness={self[1]!r})"


def apply_vmap_staticmethod(cls, args):
    """``cls.apply(*args)`` with BatchedTensors among ``args``, for a custom Function with its own
    ``vmap(info, in_dims, *args)``: that rule gets the batched values and where their batch dim
    is (None for the others) and returns ``(output, out_dims)``; the outputs with a batch dim are
    batched again."""
    level = innermost_level(args)
    in_dims = tuple(a._bdim if isinstance(a, BatchedTensor) and a._level == level else None
                    for a in args)
    values = [a._value if dim is not None else a for a, dim in zip(args, in_dims)]
    randomness = ("different" if _Vmaps.different_randomness >> level & 1 else
                  "same" if _Vmaps.same_randomness >> level & 1 else "error")
    result = cls.vmap(VmapInfo(_Vmaps.batch_sizes[level], randomness), in_dims, *values)
    message = ("Expected the vmap staticmethod to have two returns, an output and out_dims with "
               "pytree structure compatible with the output. ")
    if not isinstance(result, tuple):
        shown = "<class 'torch.Tensor'>" if isinstance(result, Tensor) else str(type(result))
        raise RuntimeError(message + f"Got a {shown} instead")
    if len(result) != 2:
        raise RuntimeError(message + f"Got {len(result)} returns instead")
    output, out_dims = result
    if isinstance(output, tuple):
        dims = out_dims if isinstance(out_dims, tuple) else (out_dims,) * len(output)
        return tuple(o if d is None else BatchedTensor(o, d, level) for o, d in zip(output, dims))
    return output if out_dims is None else BatchedTensor(output, out_dims, level)


def _each_sample(name, op, level, args, kwargs):
    """The results of ``op`` on each sample of ``level``, in order."""
    size = _Vmaps.batch_sizes[level]
    results = []
    index_before = _Vmaps.sample_index[level]
    _Vmaps.looping |= 1 << level
    from ..random import default_generator as generator
    start = (generator._bits.state, generator._next_normal)
    try:
        for index in range(size):
            _Vmaps.sample_index[level] = index
            if _Vmaps.same_randomness >> level & 1:     # every sample draws the same numbers
                generator._bits.state, generator._next_normal = start
            results.append(dispatch(name, op, args, kwargs))     # (samples_of_looped there)
    finally:
        _Vmaps.looping &= ~(1 << level)
        _Vmaps.sample_index[level] = index_before
    return results


# --- an in-place operation without a rule, inside a grad inside the vmap ---------------------
# Changing each sample in place would change the batch once per sample (a new version each
# time, the history rewritten each time), and the grad's backward pass would refuse the values
# its nodes saved. PyTorch's grad records the change once, at its own level, above the vmap's
# fallback: its node is the operation's own (PowBackward1, ClampBackward1, ...).

# operations that change each element by the element at the same place of the others (or,
# tril_ and triu_, each matrix of the last two dims): on the whole batch at once, batch dim
# in front, they change each sample as on its own
_ELEMENTWISE_IN_PLACE = set("""pow_ clamp_ clip_ clamp_min_ clamp_max_ masked_fill_ square_ negative_
    neg_ fix_ trunc_ copy_ fill_ tril_ triu_""".split())


def _differentiated_inside(level):
    """Does a grad (vjp, jacrev, ...) run inside the vmap of ``level``?"""
    from .._functorch import _GradLevels
    return any(grad_level.number > level and not grad_level.forward_mode
               for grad_level in _GradLevels.running)


def _in_place_once(name, op, level, args, kwargs):
    """``op`` changes ``args[0]`` (batched at ``level``) in place, recorded once for the batch.

    The samples run first on a copy, without recording, for PyTorch's warnings and refusals;
    then an elementwise operation (or scatter_) changes the whole batch at once (its own
    node, as in PyTorch); any other changes a copy of each sample, and the batch takes the
    stacked results in one ``copy_``."""
    from ..autograd.grad_mode import no_grad
    self = args[0]
    rule = _in_place if name in _ELEMENTWISE_IN_PLACE else _scatter if name == "scatter_" else None
    if name == "masked_fill_" and len(args) > 2 and isinstance(args[2], BatchedTensor):
        rule = None                  # (one value per sample: a 0-d value on each sample's copy)
    if rule is not None and self._bdim == 0 and not isinstance(self._value, BatchedTensor):
        copy = BatchedTensor(self._value.detach().clone(), 0, level)
        with no_grad():
            _each_sample(name, op, level, (copy,) + tuple(args[1:]), kwargs)
        if rule(_dispatching(name, op), level, args, kwargs) is not NotImplemented:
            return self

    def on_a_copy(target, *rest, **options):
        changed = target.clone()
        op(changed, *rest, **options)
        return changed
    on_a_copy.__name__ = getattr(op, "__name__", name)
    # (named so that no rule, and no in-place fallback, takes it for the operation itself)
    changed = stack_samples(_each_sample(name + " on a copy", on_a_copy, level, args, kwargs), level)
    front(self).copy_(front(changed))
    return self


def per_sample_as_pytorch(name, op, level, args, kwargs=None):
    """``run_per_sample``, recording what PyTorch's fallback records: each batched input's
    batch dim moved to the front (a permute, even when it is there already), one sample
    selected from that at a time, and the stacked results viewed as one batch."""
    def batch_in_front(value):
        if not (isinstance(value, BatchedTensor) and value._level == level):
            return value
        order = [value._bdim] + [d for d in range(value._value.dim()) if d != value._bdim]
        moved = BatchedTensor(value._value.permute(order), 0, level)
        moved._vmap_levels = value._vmap_levels     # (a sample of an outer vmap's fallback)
        return moved
    out = run_per_sample(name, op, level, _map(batch_in_front, args), _map(batch_in_front, kwargs or {}))

    def viewed(value):
        if isinstance(value, BatchedTensor) and value._level == level:
            view = value._value.view(value._value.shape)
            # (still batched at the levels of outer vmaps' fallbacks, which stack the results)
            inner = view
            while isinstance(inner, BatchedTensor):
                inner = inner._value
            inner._vmap_levels |= _marks(value._value)
            return wrap(view, level, value._bdim)
        return value
    if isinstance(out, tuple):
        items = [viewed(item) for item in out]
        return type(out)(*items) if hasattr(type(out), "_name") else tuple(items)
    return viewed(out)


def _run_on_stand_in(name, op, level, args, kwargs):
    """An empty batch: run ``op`` once on zeros shaped like a sample, to learn the shape of
    its results (kept with 0 samples), or to give PyTorch's warning and error for an
    operation without a rule (minigrad/_functorch.py, warn_no_batching_rule)."""
    def stand_in(value):
        if isinstance(value, BatchedTensor) and value._level == level:
            return _stand_in(value._value, value._bdim, level)
        return value
    out = dispatch(name, op, _map(stand_in, args), _map(stand_in, kwargs))

    def empty(value):
        if not isinstance(value, Tensor):
            return value
        value = value.unsqueeze(0).narrow(0, 0, 0)
        _unmark(value, level)
        return BatchedTensor(value, 0, level)
    return _map(empty, out)


def _stand_in(leaf, dim, level):
    """Zeros shaped like one sample of ``leaf``; in leaf's graph if it requires grad."""
    shape = list(leaf.shape)
    del shape[dim]
    zeros = leaf.new_zeros(tuple(shape))
    # (a sum over 0 samples is 0)
    zeros = zeros + leaf.sum(dim) if leaf._graph_requires_grad else zeros
    zeros._vmap_levels = leaf._vmap_levels | 1 << level
    return zeros


def stack_samples(results, level):
    """One BatchedTensor at ``level`` for each tensor the samples gave (the first sample's
    value for anything else; a function for functions, that runs per sample again)."""
    first = results[0]
    if isinstance(first, Tensor):
        if not any(_marks(result) >> level & 1 for result in results):
            return first         # computed from no sample (new_tensor, a grad of a captured c)
        from .._ops.shape import stack
        value = dispatch("stack", stack, (results,), {})   # (samples of outer levels: batched)
        _unmark(value, level)
        return BatchedTensor(value, 0, level)
    if isinstance(first, (tuple, list)):
        items = [stack_samples([r[i] for r in results], level) for i in range(len(first))]
        return type(first)(*items) if hasattr(type(first), "_name") else type(first)(items)
    if isinstance(first, dict):
        return {key: stack_samples([r[key] for r in results], level) for key in first}
    if callable(first) and not isinstance(first, type):
        return _per_sample_function(results, level)
    return first


def _marks(tensor):
    """The levels a result computed per sample is marked batched at (for a BatchedTensor of
    an outer level: its value's marks)."""
    marks = tensor._vmap_levels
    while isinstance(tensor, BatchedTensor):
        tensor = tensor._value
        marks |= tensor._vmap_levels
    return marks


def _unmark(tensor, level):
    """The batch of ``level`` is a dim of ``tensor`` now: no longer marked at that level."""
    tensor._vmap_levels &= ~(1 << level)
    while isinstance(tensor, BatchedTensor):
        tensor = tensor._value
        tensor._vmap_levels &= ~(1 << level)


def _per_sample_function(functions, level):
    """A function returned per sample (vjp's vjp_fn): calling it calls each sample's."""
    def call(*args, **kwargs):
        return run_per_sample("", lambda *a, **k: functions[_Vmaps.sample_index[level]](*a, **k),
                              level, args, kwargs)
    return call


def run_transform_per_sample(transform_call, args, kwargs):
    """A transform (grad, vjp, jvp, ...) called inside a batched vmap runs once per sample
    of every running vmap, on ordinary tensors (see func/_vmap.py)."""
    levels = [level for level in sorted(_Vmaps.batch_sizes) if _Vmaps.batched_levels >> level & 1
              and not _Vmaps.looping >> level & 1]
    if not levels:
        return transform_call(*args, **kwargs)
    level = levels[0]
    return run_per_sample("", lambda *a, **k: run_transform_per_sample(transform_call, a, k),
                          level, args, kwargs)


# --- helpers for the rules ---------------------------------------------------------------------

def unwrap(value, level):
    """(the value with its batch dim in front, True) for a BatchedTensor at ``level``;
    (value, False) for anything else."""
    if isinstance(value, BatchedTensor) and value._level == level:
        return front(value), True
    return value, False


def front(batched):
    """The value of ``batched`` with the batch dim moved to the front (PyTorch: movedim)."""
    value, bdim = batched._value, batched._bdim
    if bdim == 0:
        return value
    order = [bdim] + [d for d in range(value.dim()) if d != bdim]
    return value.permute(*order)


def wrap(out, level, bdim=0):
    """BatchedTensors at ``level`` around a result (a tensor or a tuple of them)."""
    if isinstance(out, Tensor):
        return BatchedTensor(out, bdim, level)
    if isinstance(out, tuple):
        items = [wrap(item, level, bdim) for item in out]
        return type(out)(*items) if hasattr(type(out), "_name") else tuple(items)
    return out


def _arguments(names, args, kwargs, **defaults):
    """The arguments given, by name (None if one is not among ``names``)."""
    given = dict(defaults, **dict(zip(names, args)))
    if len(args) > len(names) or set(kwargs) - set(names):
        return None
    given.update(kwargs)
    return given


def _logical_dim(value):
    return value.dim() if isinstance(value, Tensor) else 0


def _normalize(dim, rank):
    """A dim of a sample (possibly negative) as a dim of the value (after the batch dim)."""
    size = max(rank, 1)
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool) or not -size <= dim < size:
        return None             # not a dim, or out of range: the fallback gives PyTorch's error
    return dim % size + 1


# --- pointwise ---------------------------------------------------------------------------------

def pointwise(op, level, args, kwargs, batch_in_front=False):
    """One batched tensor first and nothing else batched: the operation on its value, batch
    dim kept where it is (unless ``batch_in_front``). Otherwise each batched tensor gets its
    batch dim in front and size-1 dims after it, up to the largest sample's number of dims, so
    that broadcasting lines the samples up."""
    first = args[0] if args else None
    others = (args[1:], kwargs)
    if not batch_in_front and isinstance(first, BatchedTensor) and first._level == level and \
            innermost_level(others) < level and not _has_tensor(others):
        return wrap(op(first._value, *args[1:], **kwargs), level, first._bdim)
    rank = max(_logical_dim(value) for value in _leaves((args, kwargs)))

    def lined_up(value):
        if not (isinstance(value, BatchedTensor) and value._level == level):
            return value
        moved = front(value)
        if value.dim() < rank:
            moved = moved.view((moved.shape[0],) + (1,) * (rank - value.dim()) + tuple(value.shape))
        return moved
    return wrap(op(*_map(lined_up, args), **_map(lined_up, kwargs)), level)


def _leaves(tree):
    if isinstance(tree, (tuple, list)):
        return [leaf for item in tree for leaf in _leaves(item)]
    if isinstance(tree, dict):
        return [leaf for item in tree.values() for leaf in _leaves(item)]
    return [tree]


def _has_tensor(tree):
    return any(isinstance(leaf, Tensor) for leaf in _leaves(tree))


# --- operations along dims ---------------------------------------------------------------------

def along_dim(op, level, args, kwargs, reduce_all=False):
    """t.sum(1), t.softmax(-1), t.cumsum(0), t.max(0): the dim moved past the batch dim.
    Without a dim, a reduction over every dim of the sample (``reduce_all``)."""
    value, batched = unwrap(args[0], level)
    if not batched or innermost_level((args[1:], kwargs)) == level:
        return NotImplemented
    rank = args[0].dim()
    rest, kwargs = list(args[1:]), dict(kwargs)
    dim = rest[0] if rest else kwargs.get("dim")
    if rank == 0 and not (dim is None and reduce_all == "flatten"):
        return _along_dim_of_numbers(op, level, value, dim, rest, kwargs, reduce_all)
    if dim is None:
        if reduce_all == "flatten":      # max(), argmax(), prod(): over the sample flattened
            flat = value if rank == 1 else value.reshape(value.shape[0], -1)
            out = op(flat, 1, **kwargs)
            return wrap(out[0] if isinstance(out, tuple) else out, level)
        if reduce_all == "last":         # sort(), softmax without a dim: the last dim
            dim = -1
        elif not reduce_all:
            return NotImplemented
        else:
            dim = tuple(range(rank))
    if isinstance(dim, (tuple, list)):
        moved = tuple(_normalize(d, rank) for d in dim)
    else:
        moved = _normalize(dim, rank)
    if moved is None or (isinstance(moved, tuple) and None in moved):
        return NotImplemented
    if rest:
        rest[0] = moved
    else:
        kwargs["dim"] = moved
    return wrap(op(value, *rest, **kwargs), level)


def _along_dim_of_numbers(op, level, value, dim, rest, kwargs, reduce_all):
    """t.sum(), t.softmax(0) with t one number per sample: as PyTorch does, the batch is
    given a dim of size 1 after it, the operation runs along that dim, and a result that
    kept the dim (softmax, keepdim=True) loses it again."""
    if dim is None and not reduce_all or dim not in (None, 0, -1, (0,), (-1,), [0], [-1]):
        return NotImplemented           # (the fallback gives PyTorch's error)
    if rest:
        rest[0] = 1
    else:
        kwargs["dim"] = 1
    out = op(value.unsqueeze(-1), *rest, **kwargs)

    def without_dim(result):
        return result.squeeze(-1) if result.dim() == value.dim() + 1 else result
    return wrap(tuple(without_dim(item) for item in out) if isinstance(out, tuple)
                else without_dim(out), level)


def _reduction(op, level, args, kwargs):
    return along_dim(op, level, args, kwargs, reduce_all=True)


def _max_like(op, level, args, kwargs):
    if len(args) > 1 and isinstance(args[1], Tensor):
        return pointwise(op, level, args, kwargs)       # max(t, other): elementwise
    return along_dim(op, level, args, kwargs, reduce_all="flatten")


def _two_dims(op, level, args, kwargs):
    """transpose(d0, d1), swapaxes."""
    value, batched = unwrap(args[0], level)
    if not batched or len(args) != 3 or kwargs or args[0].dim() == 0:
        return NotImplemented
    rank = args[0].dim()
    dims = [_normalize(d, rank) for d in args[1:]]
    if None in dims:
        return NotImplemented
    return wrap(op(value, *dims), level)


def _t(op, level, args, kwargs):
    value, batched = unwrap(args[0], level)
    if not batched or args[0].dim() != 2:
        return NotImplemented
    return wrap(value.transpose(1, 2), level)


def _T(op, level, args, kwargs):
    value, batched = unwrap(args[0], level)
    if not batched or args[0].dim() < 1:
        return NotImplemented
    return wrap(value.permute(0, *range(value.dim() - 1, 0, -1)), level)


def _mT(op, level, args, kwargs):
    """t.mT: a sample's last two dims swapped (the value's last two)."""
    value, batched = unwrap(args[0], level)
    if not batched or args[0].dim() < 2:
        return NotImplemented
    return wrap(value.transpose(value.dim() - 2, value.dim() - 1), level)     # (dims as PyTorch saves them)


def _dims_list(args):
    rest = args[1:]
    return list(rest[0]) if len(rest) == 1 and isinstance(rest[0], (tuple, list)) else list(rest)


def _permute(op, level, args, kwargs):
    value, batched = unwrap(args[0], level)
    if not batched or kwargs:
        return NotImplemented
    rank = args[0].dim()
    dims = [_normalize(d, rank) for d in _dims_list(args)]
    if None in dims or len(dims) != rank:
        return NotImplemented
    return wrap(value.permute(0, *dims), level)


def _unsqueeze(op, level, args, kwargs):
    value, batched = unwrap(args[0], level)
    if not batched or len(args) != 2 or kwargs:
        return NotImplemented
    dim = _normalize(args[1], args[0].dim() + 1)
    return NotImplemented if dim is None else wrap(value.unsqueeze(dim), level)


def _squeeze(op, level, args, kwargs):
    value, batched = unwrap(args[0], level)
    if not batched or kwargs or args[0].dim() == 0:
        return NotImplemented
    rank = args[0].dim()
    if len(args) == 1:                  # every size-1 dim: PyTorch views the value
        kept = tuple(size for size in args[0].shape if size != 1)
        return wrap(value.view((value.shape[0],) + kept), level)
    else:
        given = args[1] if isinstance(args[1], (tuple, list)) else (args[1],)
        dims = tuple(_normalize(d, rank) for d in given)
        if None in dims:
            return NotImplemented
    return wrap(value.squeeze(dims), level)


def _dim_after(position, reduce_all=False):
    """A rule for an operation whose dim is its argument number ``position`` (norm(p, dim),
    topk(k, dim)): the dim moved past the batch dim, as along_dim does for the first."""
    def rule(op, level, args, kwargs):
        value, batched = unwrap(args[0], level)
        if not batched or innermost_level((args[1:], kwargs)) == level or args[0].dim() == 0:
            return NotImplemented
        rank, rest, kwargs = args[0].dim(), list(args[1:]), dict(kwargs)
        in_args = len(rest) > position - 1
        dim = rest[position - 1] if in_args else kwargs.get("dim")
        if dim is None:
            if reduce_all == "last":
                dim = -1
            elif reduce_all:
                dim = tuple(range(rank))
            else:
                return NotImplemented
        moved = (tuple(_normalize(d, rank) for d in dim) if isinstance(dim, (tuple, list))
                 else _normalize(dim, rank))
        if moved is None or (isinstance(moved, tuple) and None in moved):
            return NotImplemented
        if in_args:
            rest[position - 1] = moved
        else:
            kwargs["dim"] = moved
        return wrap(op(value, *rest, **kwargs), level)
    return rule


def _flip(op, level, args, kwargs):
    value, batched = unwrap(args[0], level)
    if not batched or kwargs or len(args) != 2 or args[0].dim() == 0:
        return NotImplemented
    dims = args[1] if isinstance(args[1], (tuple, list)) else (args[1],)
    moved = [_normalize(d, args[0].dim()) for d in dims]
    return NotImplemented if None in moved else wrap(op(value, moved), level)


def _repeat(op, level, args, kwargs):
    value, batched = unwrap(args[0], level)
    sizes = _dims_list(args)
    if not batched or kwargs or len(sizes) != args[0].dim():
        return NotImplemented
    return wrap(value.repeat(1, *sizes), level)


def _masked_fill(op, level, args, kwargs):
    """masked_fill(mask, number): lined up as pointwise. With a tensor value PyTorch has no
    rule (masked_fill.Tensor): once per sample, recorded as its fallback records it."""
    if kwargs or len(args) != 3:
        return NotImplemented
    if isinstance(args[2], Tensor):
        return per_sample_as_pytorch("masked_fill", op, level, args)
    return pointwise(op, level, args, kwargs)


def _in_place(op, level, args, kwargs):
    """t.add_(y), t.mul_(2), t.relu_(), t += y: the value changed in place, batch dim in
    front (a view of it), the others lined up as pointwise does. Changing a tensor that is
    not batched by batched values is refused by the per-sample fallback, with PyTorch's
    message."""
    self = args[0]
    if not (isinstance(self, BatchedTensor) and self._level == level):
        # refused: per sample of every level, the checks of _functorch.py give PyTorch's message
        return run_transform_per_sample(op, args, kwargs)
    others = [value for value in _leaves((args[1:], kwargs)) if isinstance(value, Tensor)]
    if any(other.dim() > self.dim() for other in others):
        return NotImplemented

    def lined_up(value):
        if not (isinstance(value, BatchedTensor) and value._level == level):
            return value
        moved = front(value)
        if value.dim() < self.dim():
            moved = moved.view((moved.shape[0],) + (1,) * (self.dim() - value.dim()) + tuple(value.shape))
        return moved
    op(front(self), *_map(lined_up, args[1:]), **_map(lined_up, kwargs))
    return self


def _register_hook(op, level, args, kwargs):
    """t.register_hook(hook) on a BatchedTensor: a hook on the whole batch, given the gradient
    of the whole batch as a BatchedTensor (PyTorch's hook sees it through the same wrapper)."""
    self = args[0]
    if not isinstance(self, BatchedTensor) or self._level != level or len(args) != 2 or kwargs \
            or not self.requires_grad:      # (refused, with PyTorch's message, per sample)
        return NotImplemented
    hook, bdim = args[1], self._bdim

    def on_the_batch(grad):
        new = hook(BatchedTensor(grad, bdim, level))
        return new._value if isinstance(new, BatchedTensor) else new
    return self._value.register_hook(on_the_batch)


_GRAD_PARAMETERS = ("outputs", "inputs", "grad_outputs", "retain_graph", "create_graph",
                    "only_inputs", "allow_unused", "is_grads_batched", "materialize_grads")


def _autograd_grad(op, level, args, kwargs):
    """autograd.grad(y, x, v) where only the grad_outputs v are batched: one backward pass for
    the whole batch (is_grads_batched), as PyTorch's vmap runs it; so a graph that is not
    retained is freed after the batch, not after its first sample."""
    given = dict(zip(_GRAD_PARAMETERS, args), **kwargs)
    vectors = given.get("grad_outputs")
    vectors = [vectors] if isinstance(vectors, Tensor) else vectors
    if not vectors or given.get("is_grads_batched") or innermost_level(
            (given.get("outputs"), given.get("inputs"))) == level:
        return NotImplemented
    if not all(isinstance(v, Tensor) and (not isinstance(v, BatchedTensor) or v._level == level
               and not isinstance(v._value, BatchedTensor)) for v in vectors):
        return NotImplemented
    size = _Vmaps.batch_sizes[level]        # (a v not batched is the same for every sample)
    given["grad_outputs"] = [v._value.movedim(v._bdim, 0) if isinstance(v, BatchedTensor)
                             else v.expand(size, *v.shape) for v in vectors]
    given["is_grads_batched"] = True
    grads = op(**given)
    return tuple(g if g is None else BatchedTensor(g, 0, level) for g in grads)


def _gather(op, level, args, kwargs):
    """t.gather(dim, index): the index and t get the batch too (expanded, if not batched)."""
    given = dict(zip(("input", "dim", "index"), args), **kwargs)
    if set(given) != {"input", "dim", "index"} or not isinstance(given["index"], Tensor):
        return NotImplemented
    value, batched = unwrap(given["input"], level)
    index, index_batched = unwrap(given["index"], level)
    dim = _normalize(given["dim"], given["input"].dim()) if isinstance(given["input"], Tensor) else None
    if dim is None or given["index"].dim() != given["input"].dim():
        return NotImplemented
    if not index_batched:
        index = index.unsqueeze(0).expand(value.shape[0], *index.shape)
    if not batched:                     # (only the positions batched: ExpandBackward0)
        value = _with_batch(value, level)
    return wrap(op(value, dim, index), level)


def _with_batch(value, level):
    """``value`` with the batch of ``level`` in front: a batched tensor's value (batch dim
    moved there), or a tensor that is not batched expanded to the batch size (PyTorch's
    ExpandBackward0 if it requires grad)."""
    moved, batched = unwrap(value, level)
    if batched or not isinstance(value, Tensor):
        return moved
    return moved.expand(_Vmaps.batch_sizes[level], *moved.shape)


def _scatter(op, level, args, kwargs):
    """t.scatter(dim, index, src), t.scatter_add(dim, index, src): self, index and src (a
    tensor) all get the batch in front, and the dim moves past it."""
    names = ("input", "dim", "index", "src") if op.__name__ == "scatter_add" else \
        ("input", "dim", "index", "src", "value", "reduce")
    given = _arguments(names, args, kwargs)
    if given is None or "value" in given and "src" in given:
        return NotImplemented
    input, index = given["input"], given["index"]
    src = given.get("src", given.get("value"))
    if not isinstance(input, Tensor) or not isinstance(index, Tensor) or src is None or \
            index.dim() != input.dim() or input.dim() == 0 or \
            isinstance(src, Tensor) and src.dim() != input.dim():
        return NotImplemented
    dim = _normalize(given["dim"], input.dim())
    if dim is None:
        return NotImplemented
    src = _with_batch(src, level) if isinstance(src, Tensor) else src
    reduce = {} if given.get("reduce") is None else {"reduce": given["reduce"]}
    return wrap(op(_with_batch(input, level), dim, _with_batch(index, level), src, **reduce), level)


def _index_select(op, level, args, kwargs):
    """t.index_select(dim, index): as PyTorch's rule, one gather from the whole batch, the
    positions laid along ``dim`` and expanded over the other dims (GatherBackward0)."""
    given = _arguments(("input", "dim", "index"), args, kwargs)
    if given is None or len(given) != 3 or not isinstance(given["index"], Tensor) or \
            not isinstance(given["input"], Tensor) or given["input"].dim() == 0 or \
            given["index"].dim() > 1 or given["index"].dtype not in (_dtype.int64, _dtype.int32):
        return NotImplemented
    input, index = given["input"], given["index"]
    dim = _normalize(given["dim"], input.dim())
    if dim is None:
        return NotImplemented
    value = _with_batch(input, level)
    positions, batched = unwrap(index, level)
    count = max(index.numel(), 1)
    # the positions along ``dim``, size-1 everywhere else (the batch too, if they have none)
    along = [1] * value.dim()
    along[dim] = count
    if batched:
        along[0] = value.shape[0]
    positions = positions.reshape(along)
    wanted = list(value.shape)
    if index.dim() == 1:        # (PyTorch's rule repeats one position given as a number
        wanted[dim] = count     # as many times as the dim is long: kept so)
    return wrap(value.gather(dim, positions.expand(*wanted)), level)


def _roll(op, level, args, kwargs):
    """t.roll(shifts, dims): the dims moved past the batch dim. Without dims, each sample
    is rolled flattened (PyTorch views it as one row and back)."""
    given = _arguments(("input", "shifts", "dims"), args, kwargs, dims=None)
    value, batched = unwrap(given["input"], level) if given else (None, False)
    if not batched or innermost_level((given["shifts"], given["dims"])):
        return NotImplemented
    rank, shifts, dims = given["input"].dim(), given["shifts"], given["dims"]
    if dims is None or dims == ():
        out = op(value.reshape(value.shape[0], -1), shifts, 1)
        return wrap(out.view(value.shape), level)
    moved = [_normalize(d, rank) for d in (dims if isinstance(dims, (tuple, list)) else (dims,))]
    if None in moved:
        return NotImplemented
    return wrap(op(value, shifts, moved if isinstance(dims, (tuple, list)) else moved[0]), level)


def _diagonal(op, level, args, kwargs):
    """t.diagonal(offset, dim1, dim2): the same diagonal of every sample (a view)."""
    given = _arguments(("input", "offset", "dim1", "dim2"), args, kwargs, offset=0, dim1=0, dim2=1)
    value, batched = unwrap(given["input"], level) if given else (None, False)
    if not batched or given["input"].dim() < 2:
        return NotImplemented
    dims = [_normalize(given[name], given["input"].dim()) for name in ("dim1", "dim2")]
    if None in dims or not isinstance(given["offset"], int):
        return NotImplemented
    return wrap(op(value, given["offset"], *dims), level)


def _setitem(op, level, args, kwargs):
    """t[0] = v, t[:, 1:] = v: written into the value, behind a ``:`` for the batch dim."""
    self, index, given = args
    items = index if isinstance(index, tuple) else (index,)
    if not (isinstance(self, BatchedTensor) and self._level == level) or kwargs or not all(
            isinstance(item, _BASIC_INDEX) and not isinstance(item, bool) for item in items):
        return NotImplemented
    value, batched = unwrap(given, level)
    if not batched:
        front(self)[(slice(None),) + items] = value
        return None
    # batched values line up with the selected part of each sample, and are copied into it
    # (as PyTorch does: no expand of the values is recorded)
    part = self[index]
    if given.dim() > part.dim():
        return NotImplemented
    value = value.view((value.shape[0],) + (1,) * (part.dim() - given.dim()) + tuple(given.shape))
    front(self)[(slice(None),) + items].copy_(value)
    return None


# --- shapes ------------------------------------------------------------------------------------

def _with_batch_size(op, level, args, kwargs):
    """view(2, 3), reshape(-1), expand(2, 3): the batch size put in front of the new shape."""
    value, batched = unwrap(args[0], level)
    if not batched or kwargs:
        return NotImplemented
    shape = _dims_list(args)
    if not all(isinstance(size, (int, np.integer)) and not isinstance(size, bool) for size in shape):
        return NotImplemented
    if op.__name__ == "expand":
        if len(shape) < args[0].dim():
            return NotImplemented
        # (PyTorch views the value with the new dims first, even when there are none)
        value = value.view((value.shape[0],) + (1,) * (len(shape) - args[0].dim())
                           + tuple(args[0].shape))
        return wrap(value.expand(value.shape[0], *shape), level)
    if op.__name__ == "reshape" and not value.is_contiguous():
        # PyTorch reshapes a batched tensor with view when the memory allows it (where a
        # tensor outside vmap would record ReshapeAliasBackward0)
        try:
            return wrap(value.view(value.shape[0], *shape), level)
        except RuntimeError:
            pass                        # (a copy is needed: reshape makes it)
    return wrap(op(value, value.shape[0], *shape), level)


def _flatten(op, level, args, kwargs):
    value, batched = unwrap(args[0], level)
    rank = args[0].dim() if batched else 0
    if not batched or rank == 0 or innermost_level((args[1:], kwargs)):
        return NotImplemented
    names = ("start_dim", "end_dim")
    given = dict(zip(names, args[1:]), **kwargs)
    start = _normalize(given.get("start_dim", 0), rank)
    end = _normalize(given.get("end_dim", -1), rank)
    if start is None or end is None:
        return NotImplemented
    return wrap(value.flatten(start, end), level)


def _select_like(op, level, args, kwargs):
    """select(dim, index), narrow(dim, start, length), unbind(dim), split(size, dim), chunk."""
    value, batched = unwrap(args[0], level)
    if not batched or kwargs or innermost_level(args[1:]) or args[0].dim() == 0:
        return NotImplemented
    rank, rest = args[0].dim(), list(args[1:])
    name = op.__name__
    where = 1 if name in ("split", "chunk") else 0       # which argument is the dim
    if name == "unbind" and not rest:
        rest = [0]
    if name in ("split", "chunk") and len(rest) == 1:
        rest.append(0)
    if len(rest) <= where:
        return NotImplemented
    rest[where] = _normalize(rest[where], rank)
    if rest[where] is None:
        return NotImplemented
    return wrap(op(value, *rest), level)


_BASIC_INDEX = (int, slice, type(None), type(Ellipsis))
_INTEGER_DTYPES = (_dtype.int64, _dtype.int32, _dtype.int16, _dtype.int8, _dtype.uint8)


def _is_index_list(item):
    """One index of several positions: a list of ints, or an integer tensor not batched."""
    if isinstance(item, list):
        return all(isinstance(i, int) and not isinstance(i, bool) for i in item)
    return isinstance(item, Tensor) and not isinstance(item, BatchedTensor) and \
        item.dtype in _INTEGER_DTYPES


def _getitem(op, level, args, kwargs):
    """t[0], t[:, 1:], t[..., None], t[[0, 2]]: the same index behind a ``:`` for the batch
    dim (at most one list of positions, which then stays where it is, after the batch)."""
    value, batched = unwrap(args[0], level)
    index = args[1]
    items = index if isinstance(index, tuple) else (index,)
    lists = sum(1 for item in items if _is_index_list(item))
    if any(isinstance(item, BatchedTensor) and item._level == level for item in items) or lists > 1:
        return _advanced_getitem(args[0], items, level)
    if not batched or not all(
            (isinstance(item, _BASIC_INDEX) and not isinstance(item, bool)) or _is_index_list(item)
            or _is_mask(item) for item in items):
        return NotImplemented
    return wrap(value[(slice(None),) + items], level)


def _is_mask(item):
    """A bool tensor that is not batched: the positions where it is True."""
    return isinstance(item, Tensor) and not isinstance(item, BatchedTensor) and \
        item.dtype == _dtype.bool_


def _basic_steps_first(tensor, items):
    """As PyTorch's indexing does, the numbers (select), ``None`` (unsqueeze) and ``...``
    of an index are applied first; what is left is slices and positions.
    (None, None) for an index this does not know."""
    if sum(item is Ellipsis for item in items) > 1 or any(isinstance(item, bool) for item in items):
        return None, None
    counted = sum(1 for item in items if item is not None and item is not Ellipsis)
    rest, dim = [], 0
    for item in items:
        if item is Ellipsis:
            covered = tensor.dim() - counted
            if covered < 0:
                return None, None
            rest += [slice(None)] * covered
            dim += covered
        elif item is None:
            tensor = tensor.unsqueeze(dim)
            rest.append(slice(None))
            dim += 1
        elif isinstance(item, (int, np.integer)):
            if dim >= tensor.dim():
                return None, None
            tensor = tensor.select(dim, item)
        else:
            rest.append(item)
            dim += 1
    return tensor, tuple(rest)


def _advanced_getitem(tensor, items, level):
    """t[i, j] with several lists of positions, or with positions that are batched:
    PyTorch's rule, one index of the whole batch (numbers, ``None`` and ``...`` first).

    A batched tensor is indexed with an extra index in front, the batch's own positions
    (0, 1, 2, ... lined up against the others), so that sample b takes its positions from
    sample b of a batched index. A tensor that is not batched is indexed with the batched
    positions as they are. Then, as indexing puts the positions' dims in front or where the
    lists stood, a permute brings the batch dim to the front and the rest where one sample's
    indexing puts them."""
    tensor, items = _basic_steps_first(tensor, items)
    if tensor is None:
        return NotImplemented
    advanced = [k for k, item in enumerate(items) if not isinstance(item, slice)]
    if not all(isinstance(item, slice) or _is_index_list(item) or (
            isinstance(item, BatchedTensor) and item._level == level and item.dtype in _INTEGER_DTYPES)
            for item in items) or len(items) > tensor.dim() or not advanced:
        return NotImplemented
    size = _Vmaps.batch_sizes[level]
    rank = max(len(np.shape(item)) if isinstance(item, list) else item.dim()
               for item in items if not isinstance(item, slice))

    def positions(item):                # a batched index: batch in front, lined up by rank
        value, batched = unwrap(item, level)
        if not batched:
            return item
        return value.reshape((size,) + (1,) * (rank - item.dim()) + tuple(item.shape))
    adjacent = advanced == list(range(advanced[0], advanced[-1] + 1))
    where = advanced[0] if adjacent else 0      # where one sample's indexing puts the positions
    value, batched = unwrap(tensor, level)
    if batched and not any(isinstance(item, BatchedTensor) for item in items):
        # only the tensor batched: a ``:`` for its batch dim, which stays in front unless
        # the lists stand apart (their dims then come first, the batch dim after them)
        out = value[(slice(None),) + items]
        order = list(range(out.dim())) if adjacent else \
            [rank] + [d for d in range(out.dim()) if d != rank]
    elif batched:
        from .._creation import arange
        own = arange(size).reshape((size,) + (1,) * rank)
        out = value[(own,) + tuple(positions(item) for item in items)]
        # the positions' dims (the batch first) are in front: move them behind the slices
        # that come before them in one sample
        order = [0] + list(range(rank + 1, rank + 1 + where)) + list(range(1, rank + 1)) + \
            list(range(rank + 1 + where, out.dim()))
    else:
        out = tensor[tuple(positions(item) for item in items)]
        # the positions' dims (the batch first) are where the lists stood: the batch to the front
        order = [where] + [d for d in range(out.dim()) if d != where]
    if order != list(range(out.dim())):
        out = out.permute(order)
    return wrap(out, level)


def _cat_like(op, level, args, kwargs):
    """cat([t, y], dim), stack([t, y], dim): tensors not batched get the batch, expanded."""
    if not args or not isinstance(args[0], (list, tuple)) or innermost_level(args[1:]):
        return NotImplemented
    tensors = args[0]
    size = _Vmaps.batch_sizes[level]
    first = next(t for t in tensors if isinstance(t, BatchedTensor) and t._level == level)
    rest, kwargs = list(args[1:]), dict(kwargs)
    dim = rest[0] if rest else kwargs.get("dim", 0)
    rank = first.dim() + (1 if op.__name__ == "stack" else 0)
    moved = _normalize(dim, rank)
    if moved is None:
        return NotImplemented
    if rest:
        rest[0] = moved
    else:
        kwargs["dim"] = moved

    def with_batch(t):
        value, batched = unwrap(t, level)
        return value if batched else value.unsqueeze(0).expand(size, *value.shape)
    return wrap(op([with_batch(t) for t in tensors], *rest, **kwargs), level)


# --- matrix products ---------------------------------------------------------------------------

def _matmul(op, level, args, kwargs):
    """t @ w with only t batched, folded as PyTorch folds it: the batch joins the rows of
    one mm/mv (vector @ vector: mv); with w batched too, one broadcast matmul."""
    if kwargs or len(args) != 2:
        return NotImplemented
    (a, a_batched), (b, b_batched) = unwrap(args[0], level), unwrap(args[1], level)
    ra, rb = _logical_dim(args[0]), _logical_dim(args[1])
    if not (isinstance(args[0], Tensor) and isinstance(args[1], Tensor)) or 0 in (ra, rb):
        return NotImplemented
    name = op.__name__
    if name == "dot" and (ra, rb) != (1, 1):
        raise RuntimeError("Got wrong shapes for dot")        # (the messages of PyTorch's rules)
    wanted = {"mm": (2, 2), "mv": (2, 1)}.get(name)
    if wanted and (ra, rb) != wanted:
        raise RuntimeError(f"Shape mismatch: Got incorrect dims for {name}(a, b). a has dim {ra}and b "
                           f"has dim {rb}but expected them to have dim {wanted[0]} and dim {wanted[1]}")
    from .._ops.shape import unsafe_view
    if name in ("mv", "matmul", "__matmul__") and b_batched and (ra, rb) == (2, 1):
        return _mv_of_batched_vectors(args[0], args[1], a_batched, level)    # (matmul runs mv)
    if name in ("matmul", "__matmul__") and max(ra, rb) >= 3:
        from ._batch_rules_products import matmul_steps
        return matmul_steps(args[0], args[1])
    if name in ("matmul", "__matmul__") and (ra, rb) == (1, 2) and b_batched:
        # a vector times a batch of matrices: as a row, by mm's rule, squeezed in place
        product = args[0].unsqueeze(0).mm(args[1])
        return dispatch("squeeze_dims_", _squeeze_dims_in_place, (product, (0,)), {})
    if a_batched and not b_batched and rb <= 2 and not isinstance(a, BatchedTensor) and \
            not a.is_contiguous() and not (ra == 1 and rb == 1):
        # the batch dim was not in front (in_dims=1): PyTorch's matmul does not fold a
        # strided value (it would copy it), it broadcasts: ExpandBackward0, a reshape, bmm
        if ra > 1:
            return wrap(a.matmul(b), level)
        out = a.unsqueeze(1).matmul(b)
        return wrap(dispatch("squeeze_dims_", _squeeze_dims_in_place, (out, (1,)), {}), level)
    if ra == 1 and rb == 1 and a_batched != b_batched:
        return wrap(_dot_of_one_batched(a, b, a_batched), level)
    if a_batched and not b_batched and rb <= 2:
        if ra == 1:                             # a batch of vectors: a batch of 1-row matrices
            a = a.unsqueeze(1)
        rows = tuple(a.shape[:-1])              # the batch and the samples' rows, folded
        folded = a.reshape(int(np.prod(rows)), a.shape[-1])
        out = folded.mv(b) if rb == 1 else folded.mm(b)
        out = dispatch("unsafe_view", unsafe_view, (out, rows + tuple(out.shape[1:])), {})
        if ra == 1:
            out = dispatch("squeeze_dims_", _squeeze_dims_in_place, (out, (1,)), {})
        return wrap(out, level)
    # the general case: one matmul broadcast over the batch dim. Vectors become matrices
    # (a row on the left, a column on the right), a batched operand gets size-1 dims after
    # its batch dim up to the other's number of dims, and broadcasting does the rest.
    if ra == 1:
        a = a.unsqueeze((-2 if rb == 1 else 1) if a_batched else 0)     # (dot: -2, as PyTorch)
    if rb == 1:
        b = b.unsqueeze(-1)
    rank = max(max(ra, 2), max(rb, 2))

    def padded(value, batched, own_rank):
        if not batched or own_rank >= rank:
            return value
        return value.view((value.shape[0],) + (1,) * (rank - own_rank) + tuple(value.shape[1:]))
    a, b = padded(a, a_batched, max(ra, 2)), padded(b, b_batched, max(rb, 2))
    if innermost_level((a, b)) and a.dim() >= 3 and b.dim() >= 3 and a.shape[-1] == b.shape[-2]:
        out = _matmul_of_batches(a, b)    # (batched by an outer vmap too: matmul's steps there)
    else:
        out = a.matmul(b)
    if rb == 1:
        out = out.squeeze(-1)
    if ra == 1:
        out = out.squeeze(-2 if rb != 1 else -1)      # (counted from the end, as PyTorch saves it)
    return wrap(out, level)


def _mv_of_batched_vectors(matrix, vector, matrix_batched, level):
    """mv(A, v) with v batched, as PyTorch's rule runs it: the matrices' batch dim moved to the
    front by a permute (recorded even where it is there already), v a column, one matmul,
    squeezed; A not batched: v's batch dim moved last (a permute), one mm, batch dim 1."""
    def moved(batched, to_front):
        value, bdim = batched._value, batched._bdim
        order = [d for d in range(value.dim()) if d != bdim]
        order.insert(0 if to_front else len(order), bdim)
        return value.permute(*order)
    if not matrix_batched:
        return wrap(matrix.matmul(moved(vector, to_front=False)), level, bdim=1)
    column = front(vector).unsqueeze(-1)
    return wrap(moved(matrix, to_front=True).matmul(column).squeeze(-1), level)


def _dot_of_one_batched(a, b, a_batched):
    """dot(a, b) of a batch of vectors and one vector, as PyTorch's rule runs it: the batch as
    the rows of one mv (the vector through t(), TBackward0); the batch on the right: one mm of
    a row, squeezed in place (SqueezeBackward4)."""
    if a_batched:
        return a.mv(b.t())
    out = a.unsqueeze(0).mm(b.t())
    return dispatch("squeeze_dim_", _squeeze_dim_in_place, (out, 0), {})


def _squeeze_dim_in_place(input, dim):
    """``input`` (a result nobody else sees) without the size-1 ``dim``: SqueezeBackward4."""
    from .._ops.shape import SqueezeBackward4
    return squeeze(input, dim, _node=SqueezeBackward4)


def _bmm(op, level, args, kwargs):
    """t.bmm(m): as PyTorch's rule, one matmul of the values, broadcast over the batch
    (ExpandBackward0, ViewBackward0, BmmBackward0, UnsafeViewBackward0)."""
    if kwargs or len(args) != 2 or not all(isinstance(a, Tensor) and a.dim() == 3 for a in args):
        return NotImplemented
    a, b = unwrap(args[0], level)[0], unwrap(args[1], level)[0]
    if innermost_level((a, b)) and a.shape[-1] == b.shape[-2]:
        return wrap(_matmul_of_batches(a, b), level)
    return wrap(a.matmul(b), level)


def _matmul_of_batches(a, b):
    """a @ b of two stacks of matrices, one or both batched by an outer vmap: as PyTorch's matmul
    decomposes at that level (each step by its rule there): the batch dims broadcast and
    flattened, one bmm, unflattened."""
    from .._ops.shape import unsafe_view
    batch = tuple(np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2])))
    (n, m), p = tuple(a.shape[-2:]), b.shape[-1]
    count = int(np.prod(batch))
    product = a.expand(batch + (n, m)).reshape(count, n, m).bmm(
        b.expand(batch + (m, p)).reshape(count, m, p))
    return dispatch("unsafe_view", unsafe_view, (product, batch + (n, p)), {})


def _einsum(op, level, args, kwargs):
    """torch.einsum: PyTorch runs einsum's own steps on the batched operands (its permutes,
    reshapes and bmm, each by its rule), so that is what the graph shows."""
    from .._ops.einsum import einsum
    return einsum(*args, **kwargs)


class SqueezeBackward5(SqueezeBackward2):
    """result = self.squeeze_(dims), in place: PyTorch's matmul of a batch of vectors and a
    matrix records it   ->   grad_self = grad unsqueezed at every squeezed dim"""


def _squeeze_dims_in_place(input, dims):
    """``input`` (a result nobody else sees) without the size-1 ``dims``: SqueezeBackward5."""
    return squeeze(input, dims, _node=SqueezeBackward5)


def _folding_view(op, level, args, kwargs):
    """unsafe_view(t, shape), squeeze_dims_(t, dims), squeeze_dim_(t, dim) inside matmul's
    rule, for a value that an outer vmap batches too: the same on its value, behind the
    batch dim."""
    value, batched = unwrap(args[0], level)
    if op.__name__ == "unsafe_view":
        return wrap(op(value, (value.shape[0],) + tuple(args[1])), level)
    if isinstance(args[1], int):           # (squeeze_dim_)
        return wrap(op(value, _normalize(args[1], args[0].dim())), level)
    return wrap(op(value, tuple(_normalize(d, args[0].dim()) for d in args[1])), level)


def _linear(op, level, args, kwargs):
    """F.linear(t, weight, bias): t @ weight.T + bias."""
    given = dict(zip(("input", "weight", "bias"), args), **kwargs)
    if set(given) - {"input", "weight", "bias"} or not isinstance(given.get("weight"), Tensor):
        return NotImplemented
    if innermost_level((given.get("weight"), given.get("bias"))) == level:
        # a weight (or bias) of each sample (per-sample gradients of a model): PyTorch's
        # decomposition, a matmul by the transposed weight, then the bias added
        from .._ops.linalg import matmul
        out = dispatch("matmul", matmul, (given["input"], given["weight"].t()), {})
        bias = given.get("bias")
        return out if bias is None else out + bias
    input, weight, bias = given["input"], given["weight"], given.get("bias")
    from ._batch_rules_products import linear_steps
    steps = linear_steps(input, weight, bias, level)
    if steps is not None:
        return steps
    out = _matmul(_named("matmul", lambda x, y: x.matmul(y)), level, (input, weight.t()), {})
    if out is NotImplemented or bias is None:
        return out
    # (PyTorch adds the bias first for a batch of matrices, second for a batch of vectors)
    return bias + out if input.dim() > 1 else out + bias


def _rmatmul(op, level, args, kwargs):
    """y @ t with t batched (Python asks t.__rmatmul__(y))."""
    return _matmul(_named("matmul", lambda x, y: x.matmul(y)), level, (args[1], args[0]), kwargs)


def _named(name, function):
    function.__name__ = name
    return function


# --- random numbers ----------------------------------------------------------------------------

def _different_draws(op, args, kwargs):
    """rand(3) inside vmap(randomness="different"): one draw of shape (batch, 3) for the
    innermost such vmap, as PyTorch draws them; randperm: one draw per sample."""
    level = max(level for level in _Vmaps.batch_sizes if _Vmaps.different_randomness >> level & 1)
    if not _Vmaps.batched_levels >> level & 1:
        return op(*args, **kwargs)
    size = _Vmaps.batch_sizes[level]
    name = op.__name__
    if name == "randperm":
        from .._ops.shape import stack
        out = stack([op(*args, **kwargs) for _ in range(size)])
    elif name in ("rand", "randn"):
        sizes = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        out = op(size, *sizes, **kwargs)
    else:                                   # randint(low, high, size), normal(mean, std, size)
        given = dict(zip(("low", "high", "size") if name == "randint" else ("mean", "std", "size"),
                         args), **kwargs)
        if name == "randint" and given.get("size") is None and isinstance(given.get("high"), (tuple, list)):
            given["low"], given["high"], given["size"] = 0, given["low"], given["high"]
        if given.get("size") is None:
            return op(*args, **kwargs)      # normal of tensors: batched like them, if they are
        given["size"] = (size,) + tuple(given["size"])
        out = op(**given)
    out._vmap_levels = 0
    return BatchedTensor(out, 0, level)


_RANDOM_FACTORIES = {name: _different_draws for name in ("rand", "randn", "randint", "normal", "randperm")}


def _dropout(op, level, args, kwargs):
    """F.dropout(t, p): "different" draws one mask for the whole batch, as PyTorch does;
    "same" (one mask for every sample) runs per sample, each from the same random state."""
    if _Vmaps.different_randomness >> level & 1:
        return pointwise(op, level, args, kwargs)
    return NotImplemented


def _random_like(op, level, args, kwargs):
    """rand_like(t): one draw for the whole batch ("different"), or one sample's
    shape shared by all ("same")."""
    value, batched = unwrap(args[0], level)
    if not batched or len(args) > 1:
        return NotImplemented
    if _Vmaps.different_randomness >> level & 1:
        out = op(value, **kwargs)
        out._vmap_levels = 0
        return wrap(out, level)
    if _Vmaps.same_randomness >> level & 1:
        return op(_plain_like(args[0]), **kwargs)      # not batched: the same for all
    return NotImplemented


def _plain_like(batched):
    from .._creation import zeros
    return zeros(tuple(batched.shape), dtype=batched.dtype)


# --- the table ---------------------------------------------------------------------------------

_POINTWISE = """
    neg exp log log1p sqrt rsqrt sin cos tan tanh sigmoid relu abs square reciprocal sign sgn erf
    log2 log10 expm1 floor ceil round trunc fix frac isnan isinf isfinite isposinf isneginf
    nan_to_num logical_not detach clone contiguous float double half long int bool to cpu
    clamp clip clamp_min clamp_max zeros_like ones_like full_like empty_like
    add sub mul div pow maximum minimum where atan2 remainder floor_divide fmod rsub
    multiply subtract divide negative absolute true_divide
    logical_and logical_or logical_xor eq ne lt le gt ge
    __neg__ __pos__ __abs__ __invert__ __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__
    __truediv__ __rtruediv__ __pow__ __rpow__ __floordiv__ __rfloordiv__ __mod__ __rmod__
    __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __and__ __or__
    F.relu F.gelu F.silu F.elu F.leaky_relu F.softplus F.sigmoid F.tanh F.logsigmoid
    F.hardtanh F.relu6 F.hardsigmoid F.hardswish F.mish F.selu F.celu F.softsign F.tanhshrink
""".split()
_REDUCTIONS = "sum mean amax amin var std logsumexp nansum".split()
_ALONG_DIM = "softmax log_softmax F.softmax F.log_softmax cumsum cumprod".split()

# PyTorch gives these a number as a tensor (a "wrapped number"): its rule for two tensors
# moves the batch dim in front (a permute) even when the other operand is a number
_BINARY = """add sub mul div multiply subtract divide true_divide floor_divide rpow
    __add__ __radd__ __sub__ __mul__ __rmul__ __truediv__ __floordiv__ __rpow__""".split()


def _binary(op, level, args, kwargs):
    return pointwise(op, level, args, kwargs, batch_in_front=True)


def _rdiv(op, level, args, kwargs):
    """number / t: PyTorch's reciprocal (batch dim kept), then a multiplication (batch dim in
    front)."""
    batched, number = args
    return batched.reciprocal() * number


RULES = {}
RULES.update({name: pointwise for name in _POINTWISE})
RULES.update({name: _binary for name in _BINARY})
RULES.update({name: pointwise for name in ("lerp", "xlogy")})
RULES["__rtruediv__"] = _rdiv
RULES["where"] = lambda op, level, args, kwargs: (
    pointwise(op, level, args, kwargs) if len(args) + len(kwargs) == 3 else NotImplemented)
RULES.update({name: _reduction for name in _REDUCTIONS})
RULES.update({name: along_dim for name in _ALONG_DIM})
RULES.update({name: _max_like for name in "max min argmax argmin".split()})
for _name in ("prod", "all", "any"):
    RULES[_name] = lambda op, level, args, kwargs: along_dim(op, level, args, kwargs, "flatten")
RULES["sort"] = lambda op, level, args, kwargs: along_dim(op, level, args, kwargs, "last")
RULES["norm"] = _dim_after(2, reduce_all=True)
RULES["topk"] = _dim_after(2, reduce_all="last")
RULES.update({"flip": _flip, "repeat": _repeat, "masked_fill": _masked_fill})
# in place: PyTorch has rules for these (clamp_, pow_, masked_fill_, ... run per sample)
_IN_PLACE = """add_ sub_ mul_ div_ __iadd__ __isub__ __imul__ __itruediv__ zero_
    exp_ log_ log1p_ sin_ cos_ tan_ sqrt_ rsqrt_ tanh_ sigmoid_ relu_ abs_ neg_ reciprocal_
    sign_ floor_ ceil_ round_ trunc_ frac_ erf_ absolute_""".split()
RULES.update({name: _in_place for name in _IN_PLACE})
RULES.update({name: _in_place for name in ("log2_", "log10_", "expm1_", "sgn_")})   # (newer in-place forms)
RULES.update({name: _two_dims for name in "transpose swapaxes".split()})
RULES.update({name: _with_batch_size for name in "view reshape expand".split()})
RULES.update({name: _select_like for name in "select narrow unbind split chunk".split()})
RULES.update({name: _matmul for name in "matmul mm mv dot __matmul__".split()})
RULES.update({name: _cat_like for name in "cat concat stack".split()})
RULES.update({"t": _t, "T": _T, "mT": _mT, "permute": _permute, "unsqueeze": _unsqueeze,
              "squeeze": _squeeze, "flatten": _flatten, "__getitem__": _getitem,
              "F.linear": _linear, "unsafe_view": _folding_view, "squeeze_dims_": _folding_view, "squeeze_dim_": _folding_view, "gather": _gather, "__setitem__": _setitem, "__rmatmul__": _rmatmul, "rand_like": _random_like, "F.dropout": _dropout, "randn_like": _random_like})
RULES.update({"scatter": _scatter, "scatter_add": _scatter, "index_select": _index_select,
              "roll": _roll, "diagonal": _diagonal})
RULES.update({"bmm": _bmm, "einsum": _einsum, "register_hook": _register_hook,
              "autograd.grad": _autograd_grad})
RULES.update({name: pointwise for name in ("div_by_number", "mul_by_number", "add_number")})

# the losses' rules (PyTorch: BatchRulesLoss.cpp, and the decompositions its vmap runs)
from ._batch_rules_loss import LOSS_RULES  # noqa: E402  (they use the helpers above)
RULES.update(LOSS_RULES)

# the convolutions' rules (PyTorch: BatchRulesConvolution.cpp)
from ._batch_rules_conv import CONV_RULES  # noqa: E402  (they use the helpers above)
RULES.update(CONV_RULES)

# torch.linalg's rules (PyTorch: BatchRulesLinearAlgebra.cpp)
from ._batch_rules_linalg import LINALG_RULES  # noqa: E402  (they use the helpers above)
RULES.update(LINALG_RULES)

# more products, triangles and diagonals (PyTorch: its decompositions and view rules)
from ._batch_rules_products import PRODUCT_RULES  # noqa: E402  (they use the helpers above)
RULES.update(PRODUCT_RULES)
