"""vmap: run a function written for one sample over a whole batch.

``vmap(f)(xs)`` returns what ``stack([f(x) for x in xs])`` would. PyTorch gets
there without a Python loop: it passes f "batched tensors" whose operations
run once for the whole batch. minigrad really does loop over the batch
dimension in Python - slower, but the same results, and every step is
ordinary minigrad code you can step through. Because each sample goes
through the ordinary operations, ``vmap(grad(f))`` gives one gradient per
sample (per-sample gradients).

PyTorch: torch/_functorch/apis.py and vmap.py.
"""
import functools

from ._pytree import tree_flatten, tree_unflatten, broadcast_prefix
from .._tensor import Tensor
from .._ops.shape import stack


def _name(func):
    return getattr(func, "__name__", repr(func))


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Vectorise ``func`` over a batch dimension.

    * ``in_dims``  - which dimension of each argument is the batch (an int for
      all, or a tuple with one entry per argument; None = not batched);
    * ``out_dims`` - where the batch dimension goes in each output;
    * ``chunk_size`` - PyTorch runs the batch in chunks of this size to save
      memory; minigrad loops one sample at a time anyway (checked, then unused).

    minigrad's vmap loops over the batch in Python (see the module docstring),
    so it also accepts code PyTorch's vmap refuses, such as ``.item()``.
    Nested vmaps work: each one loops over its own dimension.
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
        results = []
        for b in range(sizes[0]):           # the Python loop over the batch
            sample = [leaf if dim is None else leaf.select(dim, b) for leaf, dim in zip(leaves, dims)]
            results.append(func(*tree_unflatten(sample, spec), **kwargs))
        return _stack_outputs(func, results, out_dims)
    return wrapper


def _stack_outputs(func, results, out_dims):
    per_sample = [tree_flatten(r) for r in results]
    leaves0, out_spec = per_sample[0]
    _, dims_spec = tree_flatten(out_dims)

    def structure_error():
        return ValueError(
            f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible "
            f"with the structure of `outputs`. out_dims has structure {dims_spec} but outputs has "
            f"structure {out_spec}.")
    if isinstance(out_dims, tuple):
        if out_spec.kind is not tuple:
            raise structure_error()
        dims = broadcast_prefix(out_dims, out_spec, structure_error)
    else:
        dims = [out_dims] * len(leaves0)
    stacked = []
    for i, dim in enumerate(dims):
        values = [leaves[i] for leaves, _ in per_sample]
        if dim is None:
            stacked.append(values[0])
            continue
        if not isinstance(values[0], Tensor):
            raise ValueError(
                f"vmap({_name(func)}, ...): `{_name(func)}` must only return Tensors, got type "
                f"{type(values[0])}. Did you mean to set out_dims= to None for output?")
        stacked.append(stack(values, dim=dim))
    return tree_unflatten(stacked, out_spec)
