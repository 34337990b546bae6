"""Function transforms: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, linearize.

A transform takes a function and returns a new function that computes a
derivative of it. They are built from the two tools of minigrad.autograd:

* reverse mode (``autograd.grad``) for grad, vjp and jacrev - one backward
  pass per output element;
* forward mode (``autograd.forward_ad``) for jvp and jacfwd - one forward
  pass per input element.

Every derivative is computed with ``create_graph=True`` and the inputs are
fresh leaves that stay connected to the originals, so transforms compose:
``jacfwd(jacrev(f))`` is a Hessian and ``vmap(grad(f))`` gives one gradient
per sample. When nothing outside the transform needs the graph, the results
are detached, as PyTorch returns them.

Each transform runs the function at its own *level* (func/_levels.py), as
PyTorch does: inside, a tensor shows only the graph of the innermost transform.

PyTorch: torch/func (implemented in torch/_functorch/eager_transforms.py).
"""
import functools

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import _FuncTransforms
from ..autograd.grad_mode import enable_grad
from ._pytree import tree_flatten, tree_unflatten
from .._tensor import Tensor, _wrap, _alias
from .._ops.shape import stack
from .._functorch import batched_levels, seeing_through_vmap, _Vmaps
from ._batch_rules import run_transform_per_sample, dispatch
from ._levels import GradLevel, differentiating
from ._batched_tensor import BatchedTensor


def _per_sample_inside_batched_vmap(transform, whole_batch=None):
    """A transform called inside a vmap that batches operations runs once per sample, on
    ordinary tensors (PyTorch wraps each level of transform around the batch instead).

    ``whole_batch(args)``, if given, returns the arguments to run the transform with on the
    whole batch, as PyTorch's does, or None when it cannot (see _differentiates_whole_batch).

    An argument not batched is given the batch: should the function then ask a tensor for a
    Python value (``.item()``, ``if w.sum() > 0:``), which PyTorch allows of one it does not
    batch, the transform runs again once per sample (refusing what PyTorch refuses)."""
    @functools.wraps(transform)
    def call(*args, **kwargs):
        if _Vmaps.batched_levels & ~_Vmaps.looping:
            _Vmaps.expanded_arguments += 1        # (marks what is computed from them alone)
            try:
                batch_args = whole_batch(args) if whole_batch is not None else None
            finally:
                _Vmaps.expanded_arguments -= 1
            if batch_args is None:
                return run_transform_per_sample(transform, args, kwargs)
            given, batched = tree_flatten(args)[0], tree_flatten(batch_args)[0]
            if all(a is b or isinstance(a, BatchedTensor) for a, b in zip(given, batched)):
                return transform(*batch_args, **kwargs)          # (nothing was given the batch)
            _Vmaps.expanded_arguments += 1
            try:
                results = transform(*batch_args, **kwargs)
            except RuntimeError as error:
                if not _refused_a_value(error):
                    raise
                return run_transform_per_sample(transform, args, kwargs)
            finally:
                _Vmaps.expanded_arguments -= 1
            return _unbatched_results(results)
        return transform(*args, **kwargs)
    return call


def _repeated(tensor):
    """Does ``tensor`` hold, at every vmap level that batches it, one value repeated (computed
    only from arguments given the batch and from tensors not batched)? PyTorch's is not batched."""
    while isinstance(tensor, BatchedTensor):
        if not tensor._expanded_only:
            return False
        tensor = tensor._value
    return True


def _one_of_the_repeated(tensor):
    """``tensor`` without the batch dims of its levels, if it holds one value repeated (as
    PyTorch gives it: not batched, so that ``.item()`` works); else ``tensor`` itself."""
    if not isinstance(tensor, BatchedTensor) or not _repeated(tensor):
        return tensor
    while isinstance(tensor, BatchedTensor):
        tensor = tensor._value.select(tensor._bdim, 0)
        node = _unbatched(tensor)._grad_fn
        if node is not None:        # (not PyTorch's: next_functions skips it, as the expand)
            node._adds_a_batch = True
    return tensor


def _unbatched_results(results):
    """The results of a transform run with arguments given the batch: those that hold one
    value repeated, not batched (see _one_of_the_repeated)."""
    leaves, spec = tree_flatten(results)
    return tree_unflatten([_one_of_the_repeated(leaf) for leaf in leaves], spec)


def _refused_a_value(error):
    """Is ``error`` vmap's refusal to give a Python value of a batched tensor?"""
    from ._vmap import _REFUSALS, _REFUSAL_UNDER_ANOTHER_TRANSFORM
    return str(error) in (_REFUSAL_UNDER_ANOTHER_TRANSFORM, *_REFUSALS.values())


def _differentiates_whole_batch(argnums, first=0):
    """For grad, vjp, jacrev inside vmap: the arguments with which one backward pass over the
    whole batch gives every sample's gradient, as in PyTorch (the samples do not depend on each
    other, so d(sum of the outputs)/d(sample i) is sample i's own); None when a fallback of a
    vmap loops over the samples, or forward mode runs. (``first``: the arguments before it
    are not the function's: vjp's func.)

    A differentiated argument that a running vmap does not batch (in_dims None, or captured)
    gets that vmap's batch: each sample has its own gradient for it, as in PyTorch, where its
    gradient is not summed over the samples (``vmap(grad(loss), in_dims=(None, 0, 0))(params,
    x, y)``: per-sample gradients), also when no argument is batched (f may use batched
    tensors it captured: ``vmap(lambda x: grad(lambda w: loss(w, x))(w))(xs)``)."""
    def check(args):
        levels = _running_batched_levels()
        if _Vmaps.looping or not levels:
            return None
        own = list(args[first:])
        try:
            numbers = _check_argnums(argnums, len(own)) if argnums is not None else range(len(own))
        except RuntimeError:
            return None                      # (the per-sample path raises PyTorch's message)
        trees = [tree_flatten(own[n]) for n in numbers]
        leaves = [leaf for tree, _ in trees for leaf in tree]
        if not all(isinstance(leaf, Tensor) and leaf.is_floating_point() for leaf in leaves):
            return None                      # (the per-sample path raises PyTorch's message)
        for n, (tree, spec) in zip(numbers, trees):
            own[n] = tree_unflatten([_batched_at(leaf, levels) for leaf in tree], spec)
        return list(args[:first]) + own
    return check


def _running_batched_levels():
    """The levels of the running vmaps that hand the function BatchedTensors, innermost first."""
    return [level for level in sorted(_Vmaps.batch_sizes, reverse=True)
            if _Vmaps.batched_levels >> level & 1]


def _batched_at(tensor, levels):
    """``tensor`` as a BatchedTensor of every vmap of ``levels`` (innermost first), expanded
    to the batch of those that do not batch it."""
    if not levels:
        return tensor
    level, outer = levels[0], levels[1:]
    if isinstance(tensor, BatchedTensor) and tensor._level == level:
        batched = BatchedTensor(_batched_at(tensor._value, outer), tensor._bdim, level)
        batched._expanded_only = tensor._expanded_only
        return batched
    inner = _batched_at(tensor, outer).unsqueeze(0)
    expanded = inner.expand(_Vmaps.batch_sizes[level], *inner.shape[1:])
    # (PyTorch shows the edge to the tensor itself: every node of the expansion is skipped)
    own = _unbatched(tensor)._grad_fn
    node = _unbatched(expanded)._grad_fn
    while node is not None and node is not own and type(node).__name__ != "AccumulateGrad":
        node._adds_a_batch = True
        node = node._next_nodes[0] if node._next_nodes else None
    batched = BatchedTensor(expanded, 0, level)
    batched._expanded_only = True
    return batched


def _tensor_class():
    return Tensor


def _zeros_like(x):
    zeros = _wrap(np.zeros(x._array.shape, dtype=x._array.dtype))
    if x._vmap_levels:          # inside vmap, batched like x (PyTorch's zeros_like)
        zeros._vmap_levels = x._vmap_levels
    return zeros


# --- the inputs a transform differentiates with respect to -------------------------------------

def _check_argnums(argnums, count):
    if isinstance(argnums, int) and not isinstance(argnums, bool):
        numbers = (argnums,)
    elif isinstance(argnums, tuple):
        if not argnums:
            raise RuntimeError("argnums must be non-empty")
        if not all(isinstance(n, int) for n in argnums):
            raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
        numbers = argnums
    else:
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    for n in numbers:
        if not -count <= n < count:
            raise RuntimeError(f"Got argnum={n}, but only {count} positional inputs")
    if len({n % count for n in numbers}) != len(numbers):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return numbers


def _fresh(x, level):
    """A leaf with x's values whose gradient can be asked for on its own: an input of ``level``.

    It stays connected to x (its AccumulateGrad passes gradients on to x's graph, and
    it carries x's tangent if x is a dual tensor), so that a transform around this one
    can still differentiate through it.
    """
    Tensor = _tensor_class()
    if not isinstance(x, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    if not x.is_floating_point():
        raise RuntimeError("only Tensors of floating point dtype can require gradients")
    if isinstance(x, BatchedTensor):      # grad inside vmap: the whole batch is the input
        fresh = BatchedTensor(_fresh(x._value, level), x._bdim, x._level)
        fresh._expanded_only = x._expanded_only
        return fresh
    fresh = x.detach()
    fresh._requires_grad = True      # (requires_grad_() is refused inside transforms, as in PyTorch)
    tangent = forward_ad._tangent_of(x)
    if tangent is not None and forward_ad._DualLevel.open:
        forward_ad._set_tangent(fresh, tangent)
    return level.input(x, fresh)


def _replace_args(args, argnums, level):
    """args with the differentiated ones replaced by fresh tensors (inputs of ``level``);
    also those fresh leaves."""
    args = list(args)
    diff_trees, fresh_leaves = [], []
    for n in argnums:
        leaves, spec = tree_flatten(args[n])
        fresh = [_fresh(leaf, level) for leaf in leaves]
        fresh_leaves.extend(fresh)
        args[n] = tree_unflatten(fresh, spec)
        diff_trees.append(spec)
    return args, diff_trees, fresh_leaves


def _reaches_outside(tensors, own_leaves):
    """Does the graph of ``tensors`` lead to anything but the transform's own fresh leaves?

    If not, nobody outside can differentiate the results, and they are detached.
    """
    own = {id(leaf) for leaf in own_leaves}
    stack, seen = [], set()
    for t in tensors:
        if t is None:
            continue
        if t.grad_fn is not None:
            stack.append(t.grad_fn)
        elif t._graph_requires_grad and id(t) not in own:
            return True
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "variable", None)
        if variable is not None and id(variable) not in own:
            return True
        for next_node, _ in node.next_functions:
            if next_node is not None:
                stack.append(next_node)
    return False


def _finish(tensors, own_leaves):
    """Detach results that no outer transform (or user graph) can differentiate.

    A result followed by an outer forward-mode transform keeps its tangent
    (itself finished the same way).
    """
    own_leaves = [_unbatched(leaf) for leaf in own_leaves]
    with seeing_through_vmap():          # (the graphs below a vmap's batched tensors count)
        return [_finish_one(t, own_leaves) for t in tensors]


def _unbatched(tensor):
    """The tensor of the whole batch inside a BatchedTensor, of every level (the graph is
    recorded on it)."""
    while isinstance(tensor, BatchedTensor):
        tensor = tensor._value
    return tensor


def _finish_one(tensor, own_leaves):
    if isinstance(tensor, BatchedTensor):
        finished = BatchedTensor(_finish_one(tensor._value, own_leaves), tensor._bdim, tensor._level)
        finished._expanded_only = tensor._expanded_only
        return finished
    if tensor is None or _reaches_outside([tensor], own_leaves):
        return tensor
    if any(tensor is leaf for leaf in own_leaves):
        return tensor._level_input_of    # an input handed back as it is: the caller's own tensor
    finished = tensor.detach()
    tangent = forward_ad._tangent_of(tensor) if forward_ad._DualLevel.open else None
    if tangent is not None:
        forward_ad._set_tangent(finished, _finish_one(tangent, own_leaves))
    return finished


def _grads(outputs, inputs, grad_outputs=None, by_vjp=False):
    """d(outputs)/d(inputs), zeros where an input was not used; always differentiable again.
    (``by_vjp``: the cotangents are those given to a vjp_fn.)"""
    level = getattr(_unbatched(inputs[0]), "_level", None) if inputs else None  # (the transform's)
    # inside vmap, PyTorch differentiates below the batched tensors; the hooks registered
    # at this transform's level run
    with seeing_through_vmap(), differentiating(level):
        if inputs and isinstance(inputs[0], BatchedTensor):
            return _batched_grads(outputs, inputs, grad_outputs, by_vjp)
        return _grads_seen_through(outputs, inputs, grad_outputs)


def _batched_grads(outputs, inputs, grad_outputs, by_vjp=False):
    """grad (vjp) inside vmap on the whole batch: d(outputs)/d(inputs) for every sample at once.

    ``inputs`` are BatchedTensors of the vmap around the transform (see
    _differentiates_whole_batch); the gradient of the sum over the samples of ``outputs`` is
    each sample's own gradient. The backward pass starts from ones (grad) or from the
    cotangents (vjp), given the batch of the outputs where they do not have it."""
    from ..autograd import grad      # local: this module's own grad is torch.func.grad
    values = [_unbatched(x) for x in inputs]
    pairs = []
    for i, output in enumerate(outputs):
        whole = _unbatched(output)
        if not whole._graph_requires_grad:
            continue                 # (does not depend on the samples)
        if grad_outputs is None:
            start = _wrap(np.ones(whole._array.shape, dtype=whole._array.dtype))
        else:
            cotangent = grad_outputs[i]
            if isinstance(cotangent, Tensor) and cotangent.shape != output.shape:
                # (PyTorch compares one sample's shapes)
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {cotangent.shape} and "
                    f"output[{i}] has a shape of {output.shape}.")
            start = _unbatched(_like_batch_of(cotangent, output))
        pairs.append((whole, start))
    if pairs:
        grads = grad([w for w, _ in pairs], values, [s for _, s in pairs], retain_graph=True,
                     create_graph=True, allow_unused=True)
    else:
        grads = [None] * len(values)
    # outputs and cotangents of one value repeated (computed from arguments given the batch
    # only): the gradient of such an argument is one value repeated too, not batched in PyTorch
    repeated = all(_repeated(output) for output in outputs) and \
        all(_repeated(cotangent) for cotangent in grad_outputs or ())
    # the cotangents of vjp_fn(c) not batched: a gradient computed from them and from values not
    # batched alone (of a function linear in x) is not batched in PyTorch either (the zeros of
    # an input not used are zeros_like(input): batched like it). (jacfwd and hessian, which
    # PyTorch runs in forward mode, give batched results.)
    from_cotangents_only = by_vjp and \
        all(_repeated(cotangent) for cotangent in grad_outputs)
    gradients = []
    for g, v, x in zip(grads, values, inputs):
        gradient = _rewrapped(g if g is not None else _zeros_like(v), x)
        if repeated and _repeated(x) or \
                from_cotangents_only and g is not None and _uses_no_batched_value(gradient, inputs):
            gradient = _one_of_the_repeated(_marked_repeated(gradient))
        gradients.append(gradient)
    return gradients


def _uses_no_batched_value(gradient, inputs):
    """Is ``gradient`` (of one vmap level) computed without any batched value, as PyTorch would
    see it? Its graph must reach no input of the transform that the vmap batches (those given
    the batch are fine), and, for the batched values that require no grad and so left no trace
    in the graph, it must hold one value repeated."""
    if not isinstance(gradient, BatchedTensor) or isinstance(gradient._value, BatchedTensor):
        return False                     # (a vmap inside a vmap: left batched)
    array = gradient._value._array
    first = np.take(array, [0], axis=gradient._bdim) if array.shape[gradient._bdim] else array
    if not np.array_equal(array, np.broadcast_to(first, array.shape), equal_nan=True):
        return False
    batched = {id(_unbatched(x)) for x in inputs if not _repeated(x)}
    stack, seen = [gradient._value.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen or getattr(node, "_adds_a_batch", False):
            continue                     # (below an expansion: a tensor not batched)
        seen.add(id(node))
        variable = node if isinstance(node, Tensor) else getattr(node, "variable", None)
        if variable is not None:         # (an edge holds a leaf, or its AccumulateGrad)
            if id(variable) in batched:
                return False
            continue
        # (the edges themselves: next_functions hides the inputs of finished transforms)
        stack.extend(node._next_nodes or ())
    return True


def _marked_repeated(tensor):
    """``tensor`` (BatchedTensors around a value) marked as holding one value repeated."""
    inner = tensor
    while isinstance(inner, BatchedTensor):
        inner._expanded_only = True
        inner = inner._value
    return tensor


def _like_batch_of(cotangent, output):
    """``cotangent`` with the batch dims (and layout) of ``output``, at every level."""
    if not isinstance(output, BatchedTensor):
        return cotangent
    if not (isinstance(cotangent, BatchedTensor) and cotangent._level == output._level):
        cotangent = _batched_at(cotangent, [output._level])
    inner = _like_batch_of(cotangent._value if cotangent._bdim == output._bdim
                           else cotangent._value.movedim(cotangent._bdim, output._bdim),
                           output._value)
    batched = BatchedTensor(inner, output._bdim, output._level)
    batched._expanded_only = cotangent._expanded_only
    return batched


def _rewrapped(gradient, like):
    """The gradient of the whole batch, in the BatchedTensors ``like`` (an input) is in."""
    if not isinstance(like, BatchedTensor):
        return gradient
    return BatchedTensor(_rewrapped(gradient, like._value), like._bdim, like._level)


def _grads_seen_through(outputs, inputs, grad_outputs):
    from ..autograd import grad      # local: this module's own grad is torch.func.grad
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs or [None] * len(outputs))
             if o._graph_requires_grad]
    if not pairs:
        return [_zeros_like(x) for x in inputs]
    grads = grad([o for o, _ in pairs], inputs, [g for _, g in pairs] if grad_outputs else None,
                 retain_graph=True, create_graph=True, allow_unused=True)
    grads = [g if g is not None else _zeros_like(x) for g, x in zip(grads, inputs)]
    if _FuncTransforms.vmaps and not grad_outputs:
        # inside vmap, PyTorch's grad starts from ones_like(output), batched like the output:
        # the gradients are batched wherever the output is
        grads = _batched_like(grads, [o for o, _ in pairs], inputs)
    return grads


def _split_aux(output, has_aux, name):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{name}: output of function f should be a tuple: (output, aux) "
                           "if has_aux is True")
    return output


def _check_aux(aux):
    """PyTorch's transforms hand back only tensors as aux (in tuples, lists and dicts)."""
    if isinstance(aux, (tuple, list)):
        for item in aux:
            _check_aux(item)
    elif isinstance(aux, dict):
        for item in aux.values():
            _check_aux(item)
    elif not isinstance(aux, _tensor_class()):
        raise RuntimeError(f"Expected tensors, got unsupported type {type(aux)}")


def _finish_aux(aux, own_leaves):
    _check_aux(aux)
    leaves, spec = tree_flatten(aux)
    Tensor = _tensor_class()
    tensors = [leaf for leaf in leaves if isinstance(leaf, Tensor)]
    finished = iter(_finish(tensors, own_leaves))
    return tree_unflatten([next(finished) if isinstance(leaf, Tensor) else leaf for leaf in leaves],
                          spec)


def _rebuild(flat, specs, argnums):
    """The gradients flat list back in the structure of the differentiated arguments."""
    results, start = [], 0
    for spec in specs:
        count = spec.num_leaves
        results.append(tree_unflatten(flat[start:start + count], spec))
        start += count
    return results[0] if isinstance(argnums, int) else tuple(results)


# --- grad ----------------------------------------------------------------------------------------

def grad_and_value(func, argnums=0, has_aux=False):
    """Like ``grad``, but the new function returns ``(gradient, value)``."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        numbers = _check_argnums(argnums, len(args))
        name = "grad_and_value(f)(*args)"
        with enable_grad():
            level = GradLevel()
            new_args, specs, fresh = _replace_args(args, numbers, level)
            output, aux = _split_aux(level.run(func, *new_args, **kwargs), has_aux, name)
            Tensor = _tensor_class()
            if not isinstance(output, Tensor):
                raise RuntimeError(f"{name}: Expected f(*args) to return a Tensor, got {type(output)}")
            if output.dim() != 0:
                raise RuntimeError(
                    f"{name}: Expected f(*args) to return a scalar Tensor, got tensor with "
                    f"{output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")
            grads = _grads([output], fresh)
        grads = _finish(grads, fresh)
        (value,) = _finish([output], fresh)
        gradient = _rebuild(grads, specs, argnums)
        if has_aux:
            return gradient, (value, _finish_aux(aux, fresh))
        return gradient, value
    return _per_sample_inside_batched_vmap(wrapper, _differentiates_whole_batch(argnums))


def grad(func, argnums=0, has_aux=False):
    """A function that returns the gradient of ``func`` (a scalar function) at its arguments.

    ``argnums`` picks the argument(s) to differentiate (an int or a tuple of
    ints); ``has_aux=True`` means func returns ``(output, aux)`` and the new
    function returns ``(gradient, aux)``.
    """
    with_value = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        gradient, value = with_value(*args, **kwargs)
        if has_aux:
            return gradient, value[1]
        return gradient
    return wrapper


# --- vjp and jvp ---------------------------------------------------------------------------------

def vjp(func, *primals, has_aux=False):
    """``(func(*primals), vjp_fn)``; ``vjp_fn(v)`` returns v^T J, one entry per primal.

    One forward pass now; each call of vjp_fn is one backward pass.
    """
    numbers = tuple(range(len(primals)))
    with enable_grad():
        level = GradLevel()
        new_args, specs, fresh = _replace_args(primals, numbers, level)
        output, aux = _split_aux(level.run(func, *new_args), has_aux, "vjp(f, *primals)")
    out_leaves, out_spec = tree_flatten(output)
    _check_outputs(out_leaves, "vjp(f, *primals)")
    _check_outputs_differentiable(out_leaves)

    def vjp_fn(*cotangents):
        cot_leaves, cot_spec = tree_flatten(cotangents[0] if len(cotangents) == 1 else cotangents)
        if cot_spec != out_spec and len(cot_leaves) != len(out_leaves):
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of "
                f"outputs to the function. cotangents: {cot_spec}, primal output: {out_spec}")
        newer = _batched_by_a_newer_vmap(cot_leaves, fresh)
        if newer is not None:
            return _vjp_per_sample_of(newer, vjp_fn, cot_leaves, cot_spec)
        with enable_grad():
            grads = _grads(out_leaves, fresh, list(cot_leaves), by_vjp=True)
        grads = _finish(grads, fresh)     # (a cotangent that requires grad keeps its graph)
        return _rebuild(grads, specs, numbers)

    finished = tree_unflatten(_finish(out_leaves, fresh), out_spec)
    if has_aux:
        return finished, vjp_fn, _finish_aux(aux, fresh)
    return finished, vjp_fn


# inside vmap, on the whole batch as grad (every primal is differentiated)
vjp = _per_sample_inside_batched_vmap(vjp, _differentiates_whole_batch(None, first=1))


def _batched_by_a_newer_vmap(cot_leaves, fresh):
    """The first cotangent batched by a vmap opened after the one batching the primals
    (``vmap(vjp_fn)`` inside a vmap, as in the neural tangent kernel tutorial), or None."""
    if not (fresh and isinstance(fresh[0], BatchedTensor)):
        return None                  # (not nested: the whole-batch backward takes any cotangent)
    for leaf in cot_leaves:
        if isinstance(leaf, BatchedTensor) and leaf._level > fresh[0]._level:
            return leaf
    return None


def _vjp_per_sample_of(newer, vjp_fn, cot_leaves, cot_spec):
    """vjp_fn of each sample of the newer vmap's batch, stacked back into that batch: one
    backward pass per sample, as jacrev takes one per row (the whole-batch backward below
    differentiates for the primals' vmap only)."""
    level, size = newer._level, newer._value.shape[newer._bdim]

    def sample(leaf, k):
        if isinstance(leaf, BatchedTensor) and leaf._level == level:
            return leaf._value.select(leaf._bdim, k)
        return leaf                  # (the same for every sample)

    results = [vjp_fn(tree_unflatten([sample(leaf, k) for leaf in cot_leaves], cot_spec))
               for k in range(size)]
    flat = [tree_flatten(result)[0] for result in results]
    spec = tree_flatten(results[0])[1]
    stacked = [BatchedTensor(dispatch("stack", stack, ([f[j] for f in flat],), {}), 0, level)
               for j in range(len(flat[0]))]
    return tree_unflatten(stacked, spec)


def _jvp_on_whole_batch(args):
    """For jvp inside vmap: the primals and tangents with which one forward pass over the whole
    batch gives every sample's product, as in PyTorch (each primal given the batch of every
    running vmap, each tangent laid out as its primal); None when a fallback of a vmap loops
    over the samples, forward mode already runs, nothing is batched, or the arguments are
    wrong (the per-sample path raises PyTorch's messages)."""
    levels = _running_batched_levels()
    if len(args) != 3 or not levels or _Vmaps.looping:
        return None
    func, primals, tangents = args
    if not isinstance(primals, tuple):
        return None
    primal_leaves, spec = tree_flatten(primals)
    tangent_leaves, tangent_spec = tree_flatten(tangents)
    leaves = primal_leaves + tangent_leaves
    if tangent_spec != spec or not all(isinstance(leaf, Tensor) and leaf.is_floating_point()
                                       and not isinstance(_unbatched(leaf), BatchedTensor)
                                       for leaf in leaves):
        return None
    primal_leaves = [_batched_at(p, levels) for p in primal_leaves]
    if any(tuple(t.shape) != tuple(p.shape) for t, p in zip(tangent_leaves, primal_leaves)):
        return None
    batched_tangents = []
    for tangent, primal in zip(tangent_leaves, primal_leaves):
        batched_tangents.append(_like_batch_of(tangent, primal))
        if not isinstance(tangent, BatchedTensor):
            # (a tangent passed straight through comes out as it went in: see _jvp_forward_mode)
            _unbatched(batched_tangents[-1])._expanded_from = tangent
    tangent_leaves = batched_tangents
    return func, tree_unflatten(primal_leaves, spec), tree_unflatten(tangent_leaves, spec)


@functools.partial(_per_sample_inside_batched_vmap, whole_batch=_jvp_on_whole_batch)
def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J @ tangents)``: one forward pass with dual tensors.

    Inside another forward-mode transform (``jacfwd(jacfwd(f))``) minigrad
    has only one dual level, so the inner product is computed with the
    double-backward trick instead; the result is the same.
    """
    name = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{name}: Expected primals to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")
    primal_leaves, primal_spec = tree_flatten(primals)
    tangent_leaves, tangent_spec = tree_flatten(tangents)
    if primal_spec != tangent_spec:
        raise RuntimeError(
            f"{name}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals with "
            f"structure {primal_spec} and tangents with structure {tangent_spec}")
    Tensor = _tensor_class()
    for what, leaves in (("primals", primal_leaves), ("tangents", tangent_leaves)):
        for leaf in leaves:
            if not isinstance(leaf, Tensor):
                raise RuntimeError(f"{name}: Expected {what} to only contain Tensors, got {type(leaf)}")
    way = _jvp_forward_mode if forward_ad._DualLevel.current is None else _jvp_double_backward
    result = way(func, primals, primal_leaves, tangent_leaves, primal_spec, has_aux, name)
    if has_aux:
        _check_aux(result[2])
    if _FuncTransforms.vmaps and batched_levels(primal_leaves):
        # inside vmap, PyTorch's forward rules use the primals, which are batched, so the tangents
        # that come out are too (unless one is a tangent passed straight through)
        result = (result[0], _batched_like(result[1], primal_leaves, tangent_leaves)) + result[2:]
    return result


def _batched_like(tree, sources, leave_out=()):
    """The tensors of ``tree`` marked batched wherever ``sources`` are (inside vmap), except
    those of ``leave_out`` (the caller's own tensors, handed back unchanged)."""
    levels = batched_levels(sources)
    leaves, spec = tree_flatten(tree)
    for leaf in leaves:
        if isinstance(leaf, Tensor) and not any(leaf is t for t in leave_out):
            leaf._vmap_levels |= levels
    return tree_unflatten(leaves, spec)


def _jvp_forward_mode(func, primals, primal_leaves, tangent_leaves, spec, has_aux, name):
    with forward_ad.dual_level():
        # PyTorch's jvp sees each primal through an alias (AliasBackward0 if it requires grad)
        aliases = [_alias(_unbatched(_check_is_tensor(p))) for p in primal_leaves]
        level = GradLevel(forward_mode=True)
        # (inside vmap the primals and tangents are BatchedTensors laid out alike: see
        # _jvp_on_whole_batch; the duals are the tensors of the whole batch inside them)
        duals = [_rewrapped(level.input(alias, _dual(alias, _unbatched(t))), p)
                 for alias, t, p in zip(aliases, tangent_leaves, primal_leaves)]
        # (a primal and tangent given the batch hold one value repeated: so does what is
        # computed from them alone, as _repeated says)
        duals = [_marked_repeated(d) if _repeated(p) and _repeated(t) else d
                 for d, p, t in zip(duals, primal_leaves, tangent_leaves)]
        output, aux = _split_aux(level.run(func, *tree_unflatten(duals, spec)), has_aux, name)
        out_leaves, out_spec = tree_flatten(output)
        _check_outputs(out_leaves, name)
        values, products = [], []
        for out in out_leaves:
            whole = _unbatched(out)
            tangent = forward_ad.unpack_dual(whole).tangent
            with forward_ad._paused():
                values.append(_rewrapped(_alias(whole), out))   # without its tangent (AliasBackward0)
            if _repeated(out):
                _marked_repeated(values[-1])
            if tangent is None:
                products.append(_zeros_like(values[-1]))
            elif "_expanded_from" in tangent.__dict__:
                # a tangent not batched, passed straight through: PyTorch's is the one given
                products.append(tangent._expanded_from)
            else:
                products.append(_rewrapped(tangent, out))
                if _repeated(out):
                    _marked_repeated(products[-1])
    result = (tree_unflatten(values, out_spec), tree_unflatten(products, out_spec))
    return result + (aux,) if has_aux else result


def _dual(primal, tangent):
    """make_dual(primal, tangent), its tangent still marked as expanded from an unbatched one.

    (Inside vmap the tangent of the whole batch may be laid out otherwise than its primal, an
    expanded or permuted view: both are made contiguous first, else make_dual would copy
    the tangent without its graph.)"""
    origin = tangent.__dict__.get("_expanded_from")
    if _FuncTransforms.vmaps and \
            forward_ad._layout(primal._array) != forward_ad._layout(tangent._array):
        primal, tangent = primal.contiguous(), tangent.contiguous()
    dual = forward_ad.make_dual(primal, tangent)
    if origin is not None:
        forward_ad._tangent_of(dual)._expanded_from = origin
    return dual


def _check_outputs(leaves, name):
    """f must return tensors only (in any nesting of tuples, lists and dicts)."""
    Tensor = _tensor_class()
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"{name}: expected f(*primals) to return only tensors, got "
                               f"unsupported type {type(leaf)}")


def _check_outputs_differentiable(leaves):
    """vjp (and jacrev, which runs it) needs outputs a gradient can flow into: floating point."""
    for leaf in leaves:
        if not leaf.is_floating_point():
            raise RuntimeError("vjp(f, ...): All outputs of f must be floating-point or complex "
                               f"Tensors, got Tensor with dtype torch.{leaf.dtype.name}")


def _check_is_tensor(p):
    """Transforms differentiate tensors only (PyTorch's message otherwise)."""
    Tensor = _tensor_class()
    if not isinstance(p, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(p)}")
    return p


def _jvp_double_backward(func, primals, primal_leaves, tangent_leaves, spec, has_aux, name):
    # u^T J is linear in u, so d(u^T J . v)/du = J v  (autograd.functional.jvp does the same)
    with enable_grad():
        level = GradLevel(forward_mode=True)
        fresh = [_fresh(p, level) for p in primal_leaves]
        output, aux = _split_aux(level.run(func, *tree_unflatten(fresh, spec)), has_aux, name)
        out_leaves, out_spec = tree_flatten(output)
        _check_outputs(out_leaves, name)
        dummies = [_cotangent_leaf(o) for o in out_leaves]
        pulled_back = _grads(out_leaves, fresh, dummies)
        products = _grads(pulled_back, dummies, list(tangent_leaves))
    products = _finish(products, fresh + dummies)
    values = _finish(out_leaves, fresh)
    result = (tree_unflatten(values, out_spec), tree_unflatten(products, out_spec))
    return result + (aux,) if has_aux else result


def _linearize_on_whole_batch(args):
    """For linearize inside vmap: PyTorch traces make_dual, which has no batching rule, so a
    batched primal is refused with its message; otherwise jvp_fn runs jvp on the whole batch."""
    if any(isinstance(leaf, BatchedTensor) for leaf in tree_flatten(args[1:])[0]):
        raise RuntimeError("Batching rule not implemented for aten::_make_dual; the fallback path "
                           "doesn't work on out= or view ops.")
    return args


@functools.partial(_per_sample_inside_batched_vmap, whole_batch=_linearize_on_whole_batch)
def linearize(func, *primals):
    """``(func(*primals), jvp_fn)``: jvp_fn(*tangents) is J @ tangents at these primals.

    (PyTorch traces the function once; minigrad simply runs jvp at each call.)
    """
    output = func(*primals)

    primal_leaves, _ = tree_flatten(primals)

    def jvp_fn(*tangents):
        for i, (tangent, primal) in enumerate(zip(tree_flatten(tangents)[0], primal_leaves)):
            for what, ours, expected in (("shape", tangent.shape, primal.shape),
                                         ("dtype", tangent.dtype, primal.dtype)):
                if ours != expected:
                    raise RuntimeError(
                        f"tangent:{i} with {what} {ours} in flattened pytree doesn't match the "
                        f"{what} {expected} of the corresponding primal.")
        return jvp(func, primals, tangents)[1]
    return output, jvp_fn


# --- whole Jacobians and Hessians ----------------------------------------------------------------

def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """A function returning the Jacobian of ``func``, built row by row with reverse mode.

    One backward pass per output element: the cheap choice when the function
    has fewer outputs than inputs. ``result[...]`` has shape
    ``output.shape + input.shape`` (nested like the outputs, then like argnums).
    """
    if chunk_size is not None and chunk_size <= 0:
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        numbers = _check_argnums(argnums, len(args))
        with enable_grad():
            level = GradLevel()
            new_args, specs, fresh = _replace_args(args, numbers, level)
            output, aux = _split_aux(level.run(func, *new_args, **kwargs), has_aux,
                                      "jacrev(f, ...)(*args)")
            out_leaves, out_spec = tree_flatten(output)
            _check_outputs(out_leaves, "vjp(f, *primals)")        # (PyTorch's jacrev runs vjp)
            _check_outputs_differentiable(out_leaves)
            blocks = []
            for out in out_leaves:
                if not isinstance(out, Tensor):
                    raise RuntimeError("vjp(f, *primals): expected f(*primals) to return only "
                                       f"tensors, got unsupported type {type(out)}")
                flat = out.reshape(-1)
                rows = [_grads([flat[k]], fresh) for k in range(flat.numel())]
                per_input = []
                for j, x in enumerate(fresh):
                    shape = tuple(out.shape) + tuple(x.shape)
                    if rows:
                        # (dispatched: inside vmap the rows may be BatchedTensors)
                        rows_j = dispatch("stack", stack, ([row[j] for row in rows],), {})
                        per_input.append(rows_j.reshape(shape))
                    else:                   # an empty output: an empty Jacobian
                        per_input.append(_wrap(np.zeros(shape, dtype=x._array.dtype)))
                blocks.append(per_input)
        finished = _finish([b for per_input in blocks for b in per_input], fresh)
        count = len(fresh)
        jac = tree_unflatten([_rebuild(finished[i * count:(i + 1) * count], specs, argnums)
                              for i in range(len(out_leaves))], out_spec)
        if has_aux:
            return jac, _finish_aux(aux, fresh)
        return jac
    return _per_sample_inside_batched_vmap(wrapper, _differentiates_whole_batch(argnums))


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """A function returning the Jacobian of ``func``, built column by column with forward mode.

    One forward pass (a jvp) per input element: the cheap choice when the
    function has more outputs than inputs. Same result layout as ``jacrev``.
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        numbers = _check_argnums(argnums, len(args))
        diff_leaves, specs = [], []
        for n in numbers:
            leaves, spec = tree_flatten(args[n])
            diff_leaves.extend(leaves)
            specs.append(spec)
        for leaf in diff_leaves:
            _check_is_tensor(leaf)

        def of_diff(*leaves):
            new_args = list(args)
            start = 0
            for n, spec in zip(numbers, specs):
                new_args[n] = tree_unflatten(list(leaves[start:start + spec.num_leaves]), spec)
                start += spec.num_leaves
            return func(*new_args, **kwargs)

        # PyTorch's jacfwd runs its jvps inside a vmap over the columns: that vmap is a level
        # too, so the jvp runs one level deeper (the function sees GradTrackingTensor(lvl=2, ...))
        _FuncTransforms.depth += 1
        try:
            output, columns, aux = _columns_by_jvp(of_diff, diff_leaves, has_aux)
        finally:
            _FuncTransforms.depth -= 1
        value_leaves, out_spec = tree_flatten(output)
        blocks = []
        for i, value in enumerate(value_leaves):
            per_input = []
            for j, x in enumerate(diff_leaves):
                shape = tuple(value.shape) + tuple(x.shape)
                cols = [leaves[i] for jj, leaves in columns if jj == j]
                if cols:
                    # (dispatched: inside vmap the columns may be BatchedTensors)
                    columns_j = dispatch("stack", stack, (cols,), {"dim": value.ndim})
                    per_input.append(columns_j.reshape(shape))
                else:
                    per_input.append(_wrap(np.zeros(shape, dtype=value._array.dtype)))
            blocks.append(_rebuild(per_input, specs, argnums))
        jac = tree_unflatten(blocks, out_spec)
        if has_aux:
            return jac, aux
        return jac
    return _per_sample_inside_batched_vmap(wrapper, _differentiates_whole_batch(argnums))


def _columns_by_jvp(of_diff, diff_leaves, has_aux):
    """One call of the function, then one Jacobian-vector product per element of the inputs
    (as PyTorch's jacfwd, which runs one jvp over a vmap of all the basis vectors): the
    output, the columns (the input's index and the product of each output), and aux.

    The products are computed from the one graph of that call with the double-backward
    trick (u^T J is linear in u, so d(u^T J . v)/du = J v), so the function, its prints and
    its side effects run once."""
    name = "jvp(f, primals, tangents)"
    with enable_grad():
        level = GradLevel(forward_mode=True)       # (the function sees a jvp's level)
        fresh = [_fresh(x, level) for x in diff_leaves]
        output, aux = _split_aux(level.run(of_diff, *fresh), has_aux, name)
        out_leaves, out_spec = tree_flatten(output)
        _check_outputs(out_leaves, name)
        dummies = [_cotangent_leaf(o) for o in out_leaves]
        pulled_back = _grads(out_leaves, fresh, dummies)
        columns = []
        for j, x in enumerate(diff_leaves):
            for k in range(x.numel()):
                tangents = []
                for jj, other in enumerate(diff_leaves):
                    direction = np.zeros(other.numel(), dtype=other.dtype.numpy_dtype)
                    if jj == j:
                        direction[k] = 1
                    tangents.append(_wrap(direction.reshape(tuple(other.shape))))
                products = _finish(_grads(pulled_back, dummies, tangents), fresh + dummies)
                if _FuncTransforms.vmaps:
                    # inside vmap, batched wherever the inputs are (as jvp's products: see jvp)
                    products = _batched_like(products, diff_leaves)
                columns.append((j, products))
    output = tree_unflatten(_finish(out_leaves, fresh), out_spec)
    if has_aux:
        aux = _finish_aux(aux, fresh)
    return output, columns, aux


def _cotangent_leaf(output):
    """Zeros shaped like ``output`` that require grad: the u of the double-backward trick
    (inside vmap, for the whole batch, in the BatchedTensors ``output`` is in)."""
    whole = _unbatched(output)
    dummy = _wrap(np.zeros(whole._array.shape, dtype=whole._array.dtype))
    dummy.requires_grad = True
    rewrapped = _rewrapped(dummy, output)
    return _marked_repeated(rewrapped) if _repeated(output) else rewrapped


def hessian(func, argnums=0):
    """The Hessian of a scalar function: ``jacfwd(jacrev(func))`` (forward-over-reverse)."""
    return jacfwd(jacrev(func, argnums), argnums)


# --- transforms for compilers: nothing to do in an eager library -----------------------------------

def functionalize(func, *, remove="mutations"):
    """``func`` with its in-place operations replaced by out-of-place ones.

    PyTorch uses this to hand a program without mutations to a compiler; the
    results (and the changes to the inputs) stay the same. minigrad runs every
    program eagerly and compiles nothing, so the new function simply calls ``func``.
    """
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}. "
            "Valid options are:\n     remove='mutations': all inplace and out= operators will be "
            "removed from the program, and replaced with their out-of-place equivalents.\n     "
            "remove='mutations_and_views': In addition to the above, all aliasing operators {view} "
            "will be replaced with their non-aliasing counterparts, {view}_copy.\n")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    return wrapper
