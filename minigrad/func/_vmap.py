"""vmap: run a function written for one sample over a whole batch.

``vmap(f)(xs)`` returns what ``stack([f(x) for x in xs])`` would, without a
Python loop: f is called once, with BatchedTensors (func/_batched_tensor.py)
that hold the whole batch and show f one sample. Each operation f applies runs
once on the whole batch (its batching rule, func/_batch_rules.py), so the
outputs carry the graph of those operations: ``vmap(torch.sin)(x).grad_fn`` is
``SinBackward0``, as in PyTorch. An operation without a rule runs once per
sample and its results are stacked (PyTorch's fallback, with its "performance
drop" warning where PyTorch has no rule either).

A grad, vjp, jvp, jacrev, jacfwd or hessian called inside a vmap differentiates the
whole batch at once, as PyTorch's does (func/_transforms.py: one backward pass gives
every sample's gradient, since the samples do not depend on each other; jvp pushes
the tangents of the whole batch forward, a jvp inside it by the double-backward trick on
the whole batch; linearize refuses a batched primal, as PyTorch's does). A transform called
by an operation that vmap runs sample by sample runs once per sample, on ordinary tensors
marked batched at their levels (minigrad/_functorch.py keeps PyTorch's refusals for them).
What a transform computes only from arguments vmap does not batch comes out unbatched, as
PyTorch's does (func/_transforms.py).

PyTorch: torch/_functorch/apis.py and vmap.py.
"""
import functools

from ..autograd.function import _FuncTransforms
from ._pytree import tree_flatten, tree_unflatten, broadcast_prefix
from .._tensor import Tensor, _normalize_dim
from .._functorch import _Vmaps
from .. import _ops
from .._ops.shape import cat
from ._batched_tensor import BatchedTensor, tensor_methods_batching


# what PyTorch's vmap says when the function asks a batched tensor for its values
_REFUSALS = {
    "item": ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
             "calling .item() on a Tensor, please try to rewrite what you're doing with other "
             "operations. If error is occurring somewhere inside PyTorch internals, please file a "
             "bug report."),       # also float(t) and int(t)
    "bool": ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control "
             "flow. We don't support that yet, please file an issue at "
             "https://github.com/pytorch/pytorch/issues ."),      # if t: ..., while t: ...
    "data": "Cannot access data pointer of Tensor that doesn't have storage",   # tolist(), numpy()
}
# .item() or bool() while another transform (grad, jvp, jacrev, ...) runs inside the vmap:
# PyTorch cannot tell which of the two was meant
_REFUSAL_UNDER_ANOTHER_TRANSFORM = (
    "vmap: It looks like you're either (1) calling .item() on a Tensor or (2) attempting to use a "
    "Tensor in some data-dependent control flow or (3) encountering this error in PyTorch "
    "internals. For (1): we don't support vmap over calling .item() on a Tensor, please try to "
    "rewrite what you're doing with other operations. For (2): we don't support data-dependent "
    "control flow in vmap yet, please file an issue at https://github.com/pytorch/pytorch/issues . "
    "For (3): please file an issue.")


# randomness="error" (the default): a random draw inside the function is refused. With
# "same" every sample draws the same numbers (not batched); with "different" (minigrad: one
# draw after another) they differ and are batched, though not with PyTorch's values, which
# come from one batched draw.
_RANDOM_IN_ERROR_MODE = (
    "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
    "'different' randomness flags on vmap or perform the randomness operation out of vmap")


def refuse_inside_vmap(kind, tensor):
    """Raise PyTorch's RuntimeError if ``tensor`` is batched by a running vmap.

    ``kind`` is "item", "bool" or "data". In PyTorch a batched tensor holds the
    whole batch, so one Python number or one True/False cannot stand for it.
    minigrad's vmap hands the function one sample at a time, so it could
    answer; refusing keeps programs portable. A tensor computed only from
    what the function captured from outside (a closure, a global, a module's
    parameter, an argument with in_dim None) or from constants is not batched
    (see minigrad/_functorch.py), and PyTorch lets it answer.
    Tensor.item, __bool__, tolist, ... call this only while a vmap runs.
    """
    if _FuncTransforms.vmaps and tensor._vmap_levels:
        if kind != "data" and _FuncTransforms.depth not in _Vmaps.batch_sizes:
            raise RuntimeError(_REFUSAL_UNDER_ANOTHER_TRANSFORM)      # the innermost is not a vmap
        raise RuntimeError(_REFUSALS[kind])


def _name(func):
    return getattr(func, "__name__", repr(func))


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Vectorise ``func`` over a batch dimension.

    * ``in_dims``  - which dimension of each argument is the batch (an int for
      all, or a tuple with one entry per argument; None = not batched);
    * ``out_dims`` - where the batch dimension goes in each output;
    * ``chunk_size`` - run the batch in chunks of this size (to save memory);
      the outputs' chunks are concatenated (``CatBackward0``);
    * ``randomness`` - "error" refuses random draws inside ``func``; "same" draws
      one sample's numbers for every sample; "different" draws for the whole batch.

    ``func`` runs once, on BatchedTensors (see the module docstring). PyTorch's
    vmap refuses code whose path depends on the values of a batched tensor
    (``.item()``, ``if tensor:``); ``refuse_inside_vmap`` above holds its
    messages. Nested vmaps work: each wraps the batch once more, at its own level.
    """
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        prefix = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
        if not isinstance(in_dims, (int, tuple)) or isinstance(in_dims, bool):
            raise ValueError(
                f"{prefix}: expected `in_dims` to be int or a (potentially nested) tuple matching "
                f"the structure of inputs, got: {type(in_dims)}.")
        if not args:
            raise ValueError(f"vmap({_name(func)})(<inputs>): got no inputs. Maybe you forgot to "
                             "add inputs, or you are trying to vmap over a function with no inputs. "
                             "The latter is unsupported.")
        leaves, spec = tree_flatten(args)
        _, in_spec = tree_flatten(in_dims)

        def structure_error():
            return ValueError(
                f"{prefix}: in_dims is not compatible with the structure of `inputs`. in_dims has "
                f"structure {in_spec} but inputs has structure {spec}.")
        if isinstance(in_dims, tuple):
            dims = broadcast_prefix(in_dims, spec, structure_error)    # one entry per argument
        else:
            dims = [in_dims] * len(leaves)
        sizes = []
        for leaf, dim in zip(leaves, dims):
            if dim is None:
                continue
            if not isinstance(dim, int):
                raise ValueError(f"{prefix}: in_dim must be an int or None, got {type(dim)}")
            if not isinstance(leaf, Tensor):
                raise ValueError(
                    f"{prefix}: Got in_dim={dim} for an input but the input is of type "
                    f"{type(leaf)}. We cannot vmap over non-Tensor arguments, please use None as "
                    "the respective in_dim")
            if not -leaf.dim() <= dim < leaf.dim():
                raise ValueError(
                    f"{prefix}: Got in_dim={dim} for some input, but that input is a Tensor of "
                    f"dimensionality {leaf.dim()} so expected in_dim to satisfy "
                    f"-{leaf.dim()} <= in_dim < {leaf.dim()}.")
            sizes.append(leaf.shape[dim])
        if not sizes:
            raise ValueError("vmap: Expected at least one Tensor to vmap over")
        if len(set(sizes)) != 1:
            raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                             f"dimension, got sizes {sizes} for the mapped dimension")
        from .. import random
        _FuncTransforms.depth += 1       # (custom Functions check these: autograd/function.py)
        _FuncTransforms.vmaps += 1
        _ops.vmap_running = True
        level = _FuncTransforms.depth           # PyTorch's level: how deep in the transforms
        _Vmaps.batch_sizes[level] = sizes[0]
        _Vmaps.sample_index[level] = 0          # (the sample a per-sample fallback runs)
        refused_before = random.refuse_draws
        randomness_before = _Vmaps.different_randomness, _Vmaps.same_randomness
        if randomness == "different":          # a draw is batched at this level
            _Vmaps.different_randomness |= 1 << level
        elif randomness == "same":
            _Vmaps.same_randomness |= 1 << level
        random.refuse_draws = _RANDOM_IN_ERROR_MODE if randomness == "error" else None
        outermost = not _Vmaps.batched_levels
        _Vmaps.batched_levels |= 1 << level
        try:
            if outermost:        # Tensor's methods send BatchedTensor arguments to the rules
                with tensor_methods_batching():
                    return _run_batched(func, leaves, dims, spec, kwargs, out_dims, level, chunk_size)
            return _run_batched(func, leaves, dims, spec, kwargs, out_dims, level, chunk_size)
        finally:
            _FuncTransforms.depth -= 1
            _FuncTransforms.vmaps -= 1
            _Vmaps.batched_levels &= ~(1 << level)
            _ops.vmap_running = _FuncTransforms.vmaps > 0
            del _Vmaps.batch_sizes[level], _Vmaps.sample_index[level]
            random.refuse_draws = refused_before
            _Vmaps.different_randomness, _Vmaps.same_randomness = randomness_before
    return wrapper


def _run_batched(func, leaves, dims, spec, kwargs, out_dims, level, chunk_size):
    """Call ``func`` once with BatchedTensors; with ``chunk_size``, once per chunk of the
    batch (the outputs' chunks are then concatenated, as PyTorch does)."""
    size = _Vmaps.batch_sizes[level]
    if chunk_size is None or chunk_size >= size:
        inputs = [leaf if dim is None else BatchedTensor(leaf, dim % leaf.dim(), level)
                  for leaf, dim in zip(leaves, dims)]
        return _unwrap_outputs(func, func(*tree_unflatten(inputs, spec), **kwargs), out_dims, level)
    chunks = []
    for start in range(0, size, chunk_size):
        length = min(chunk_size, size - start)
        _Vmaps.batch_sizes[level] = length
        inputs = [leaf if dim is None else BatchedTensor(leaf.narrow(dim, start, length),
                                                          dim % leaf.dim(), level)
                  for leaf, dim in zip(leaves, dims)]
        chunks.append(tree_flatten(_unwrap_outputs(
            func, func(*tree_unflatten(inputs, spec), **kwargs), out_dims, level)))
    _Vmaps.batch_sizes[level] = size
    out_spec = chunks[0][1]
    dims = _output_dims(func, out_dims, out_spec, len(chunks[0][0]))
    joined = [pieces[0] if dim is None or not isinstance(pieces[0], Tensor)
              else cat(pieces, dim=dim)
              for pieces, dim in zip(zip(*(leaves for leaves, _ in chunks)), dims)]
    return tree_unflatten(joined, out_spec)


def _output_dims(func, out_dims, out_spec, count):
    """One out_dim per output (PyTorch's errors when out_dims does not fit the outputs)."""
    _, dims_spec = tree_flatten(out_dims)

    def structure_error():
        return ValueError(
            f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible "
            f"with the structure of `outputs`. out_dims has structure {dims_spec} but outputs has "
            f"structure {out_spec}.")
    if isinstance(out_dims, tuple):
        if out_spec.kind is not tuple:
            raise structure_error()
        return broadcast_prefix(out_dims, out_spec, structure_error)
    return [out_dims] * count


def _unwrap_outputs(func, outputs, out_dims, level):
    """The function's outputs with this level's batch dim made a real dim at out_dim:
    a BatchedTensor's value, its batch dim moved there; a tensor that is not batched,
    expanded to the batch size (both views, as in PyTorch)."""
    leaves, out_spec = tree_flatten(outputs)
    dims = _output_dims(func, out_dims, out_spec, len(leaves))
    unwrapped = []
    for leaf, dim in zip(leaves, dims):
        batched = isinstance(leaf, BatchedTensor) and leaf._level == level
        if dim is None:
            if batched:
                raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` can not return a "
                                 "BatchedTensor when out_dim is None")
            unwrapped.append(leaf)
            continue
        if not isinstance(leaf, Tensor):
            raise ValueError(
                f"vmap({_name(func)}, ...): `{_name(func)}` must only return Tensors, got type "
                f"{type(leaf)}. Did you mean to set out_dims= to None for output?")
        if batched:
            value, bdim = leaf._value, leaf._bdim
        else:
            # one expand to the batch size at out_dim, as PyTorch's (whose shape is then lined
            # up with the tensor's from the end: out_dim 1 of a vector fails there as in PyTorch)
            bdim = _normalize_dim(dim, leaf.dim() + 1)
            shape = list(leaf.shape)
            shape.insert(bdim, _Vmaps.batch_sizes[level])
            value = leaf.expand(*shape)
        dim = _normalize_dim(dim, value.dim())
        if bdim != dim:
            order = [d for d in range(value.dim()) if d != bdim]
            order.insert(dim, bdim)
            value = value.permute(*order)
        unwrapped.append(value)
    return tree_unflatten(unwrapped, out_spec)

