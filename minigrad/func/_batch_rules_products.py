"""Batching rules for more products and for triangles and diagonals.

Under vmap PyTorch runs these on the whole batch, each in one of three ways, and so does
minigrad (the graph is then PyTorch's):

* a rule of its own: ``tril``, ``triu``, ``diag_embed`` run once on the batch of samples (the
  batch dim in front), their own node;
* the steps PyTorch writes the function as, each by its rule: ``tensordot`` and ``inner``
  (permute, reshape, mm or dot, view), ``kron`` (two unsafe views, a product, an unsafe
  view), ``multi_dot`` (a chain of mm), ``diag`` (diag_embed of a vector, a copy of the
  diagonal of a matrix), ``addmm`` (``beta * input`` added to mm with ``alpha``), ``addmv``
  and ``baddbmm`` (mv or bmm, times alpha unless 1, then ``beta * input`` added unless beta
  is 0), ``addr`` (input expanded, ``beta * input + alpha * outer(vec1, vec2)``);
* no rule in PyTorch either: ``vander``, ``pdist`` and ``diagflat`` run once per sample, with
  PyTorch's "performance drop" warning and the graph of its fallback.

PyTorch: aten/src/ATen/functorch/BatchRulesLinearAlgebra.cpp (the add* decompositions),
BatchRulesViews.cpp, torch/_refs (addr), aten/src/ATen/native/Linear.cpp (tensordot, kron).
"""
from .._tensor import Tensor
from .._functorch import warn_no_batching_rule, _Vmaps
from ._batched_tensor import BatchedTensor
from ._batch_rules import (dispatch, unwrap, wrap, innermost_level, _arguments, _normalize,
                           per_sample_as_pytorch, _marks)


def _triangle(op, level, args, kwargs):
    """tril(t, diagonal), triu(t, diagonal): the same triangle of every sample's last two dims,
    the batch dim in front."""
    given = _arguments(("input", "diagonal"), args, kwargs, diagonal=0)
    value, batched = unwrap(given["input"], level) if given else (None, False)
    if not batched or innermost_level(given["diagonal"]):
        return NotImplemented
    if given["input"].dim() == 0:
        raise RuntimeError(f"{op.__name__}: The input tensor must have at least 2 dimensions.")
    # (as PyTorch's rule, a sample of one dim is not refused: the triangle of the whole batch,
    # one row per sample)
    return wrap(op(value, given["diagonal"]), level)


def _diag_embed(op, level, args, kwargs):
    """diag_embed(t, offset, dim1, dim2): the dims of a sample's result moved past the batch."""
    given = _arguments(("input", "offset", "dim1", "dim2"), args, kwargs, offset=0, dim1=-2, dim2=-1)
    value, batched = unwrap(given["input"], level) if given else (None, False)
    if not batched or not isinstance(given["offset"], int):
        return NotImplemented
    rank = given["input"].dim() + 1
    dims = [_normalize(given[name], rank) for name in ("dim1", "dim2")]
    if None in dims:
        return NotImplemented           # (same dims: the function's error, with the dims it is given)
    return wrap(op(value, given["offset"], *dims), level)


def _diag(op, level, args, kwargs):
    """diag(t, diagonal): of a vector, diag_embed; of a matrix, a copy of its diagonal (as
    PyTorch writes diag under vmap)."""
    given = _arguments(("input", "diagonal"), args, kwargs, diagonal=0)
    if given is None or not isinstance(given["input"], Tensor) or \
            given["input"].dim() not in (1, 2) or not isinstance(given["diagonal"], int):
        return NotImplemented
    input, offset = given["input"], given["diagonal"]
    if input.dim() == 1:
        from .._ops.diagonals import diag_embed
        return dispatch("diag_embed", diag_embed, (input, offset), {})
    return input.diagonal(offset).clone()


def _tensordot(op, level, args, kwargs):
    """tensordot(a, b, dims), inner(a, b): PyTorch's steps on the batched tensors (permute,
    reshape, mm or dot, view), each by its rule."""
    if len(args) < 2 or not all(isinstance(t, Tensor) for t in args[:2]):
        return NotImplemented
    from .._ops import products
    return getattr(products, op.__name__)(*args, **kwargs)


def _kron(op, level, args, kwargs):
    """kron(a, b): as PyTorch writes it, each input seen with a size-1 dim between its dims
    (an unsafe view), one broadcast product, an unsafe view merging the pairs of dims."""
    if kwargs or len(args) != 2 or not all(isinstance(t, Tensor) for t in args):
        return NotImplemented
    from .._ops.shape import unsafe_view
    a, b = args
    rank = max(a.dim(), b.dim())
    a_shape = (1,) * (rank - a.dim()) + tuple(a.shape)
    b_shape = (1,) * (rank - b.dim()) + tuple(b.shape)
    a_spread = tuple(size for n in a_shape for size in (n, 1))     # a's dims at the even places
    b_spread = tuple(size for m in b_shape for size in (1, m))     # b's at the odd ones
    merged = tuple(n * m for n, m in zip(a_shape, b_shape))
    product = dispatch("unsafe_view", unsafe_view, (a, a_spread), {}) * \
        dispatch("unsafe_view", unsafe_view, (b, b_spread), {})
    return dispatch("unsafe_view", unsafe_view, (product, merged), {})


def _multi_dot(op, level, args, kwargs):
    """linalg.multi_dot([v, A, ..., w]) with a vector at an end: the chain of mm on the batched
    tensors (the vectors as a row and a column), viewed, each step by its rule (of matrices
    only: func/_batch_rules_linalg.py)."""
    from ._batch_rules_linalg import _multi_dot as of_matrices
    if kwargs or len(args) != 1 or not isinstance(args[0], (list, tuple)) or len(args[0]) < 2 or \
            not all(isinstance(t, Tensor) for t in args[0]):
        return NotImplemented
    tensors = list(args[0])
    ends = (tensors[0].dim(), tensors[-1].dim())
    if 1 not in ends or not all(d in (1, 2) for d in ends) or \
            not all(t.dim() == 2 for t in tensors[1:-1]):
        return of_matrices(op, level, args, kwargs)
    from .._ops.matrix_products import multi_dot
    return multi_dot(tensors)


def _with_factors(names, args, kwargs):
    """The three tensors of an add* function by name, with its keyword-only beta and alpha
    (None for anything else: the fallback gives PyTorch's error)."""
    options = {key: value for key, value in kwargs.items() if key not in ("beta", "alpha")}
    given = _arguments(names, args, options)
    if given is None or len(given) != 3 or not all(isinstance(given[n], Tensor) for n in names):
        return None
    given.update(beta=kwargs.get("beta", 1), alpha=kwargs.get("alpha", 1))
    if any(isinstance(given[n], Tensor) or isinstance(given[n], bool) for n in ("beta", "alpha")):
        return None
    return given


def _scaled(product, number):
    """``number * product`` as PyTorch's C++ writes it (a Scalar: MulBackward1), skipped for 1."""
    from .._ops.pointwise import mul_by_number
    return product if number == 1 else dispatch("mul_by_number", mul_by_number, (product, number), {})


def _add_products(product_name, names):
    """addmv(input, mat, vec), baddbmm(input, batch1, batch2): PyTorch's decomposition under
    vmap, ``beta * input + alpha * product`` (no multiplication by an alpha of 1, no input for
    a beta of 0)."""
    def rule(op, level, args, kwargs):
        given = _with_factors(names, args, kwargs)
        if given is None:
            return NotImplemented
        product = getattr(given[names[1]], product_name)(given[names[2]])
        out = _scaled(product, given["alpha"])
        if given["beta"] != 0:
            out = _scaled_always(given["input"], given["beta"]) + out
        return out
    return rule


def _scaled_always(tensor, number):
    """``number * tensor`` as PyTorch's C++ writes it: MulBackward1, even for 1."""
    from .._ops.pointwise import mul_by_number
    return dispatch("mul_by_number", mul_by_number, (tensor, number), {})


def _addmm(op, level, args, kwargs):
    """addmm(input, mat1, mat2): PyTorch's decomposition under vmap,
    ``add(input * beta, mm(mat1, mat2), alpha=alpha)``."""
    given = _with_factors(("input", "mat1", "mat2"), args, kwargs)
    if given is None:
        return NotImplemented
    product = given["mat1"].mm(given["mat2"])
    return _scaled_always(given["input"], given["beta"]).add(product, alpha=given["alpha"])


def _addr(op, level, args, kwargs):
    """addr(input, vec1, vec2): PyTorch's decomposition under vmap, input expanded to the outer
    product's shape, ``beta * input + alpha * outer(vec1, vec2)`` (Python numbers: MulBackward0;
    a beta of 0 drops input)."""
    given = _with_factors(("input", "vec1", "vec2"), args, kwargs)
    if given is None or not all(given[name].is_floating_point() for name in ("input", "vec1", "vec2")) \
            or given["vec1"].dim() != 1 or given["vec2"].dim() != 1:
        return NotImplemented           # (bool: PyTorch's logical_or; the fallback's errors)
    input, vec1, vec2 = given["input"], given["vec1"], given["vec2"]
    input = input.expand(vec1.shape[0], vec2.shape[0])
    from .._ops.linalg import outer
    product = given["alpha"] * dispatch("outer", outer, (vec1, vec2), {})
    if given["beta"] == 0:
        return product
    return given["beta"] * input + product


def _no_rule(name):
    """An operation PyTorch has no rule for: once per sample, with its warning and the graph
    of its fallback. Met again at an outer level (a vmap inside a vmap, whose fallback runs it
    per sample), that level's fallback too, as PyTorch nests them; the inner level's fallback
    then moves each result's batch dim to the front (a permute, recorded even when nothing
    moves, as PyTorch's graph shows)."""
    def rule(op, level, args, kwargs):
        def of_sample(*a, **k):
            warn_no_batching_rule(name, (a, k))       # (for every level batching the sample)
            return op(*a, **k)
        inside_inner_fallback = _Vmaps.looping >> (level + 1)
        if inside_inner_fallback:       # (op is the inner level's of_sample: it warns)
            return _at_outer_level(name, op, level, args, kwargs)
        return per_sample_as_pytorch(name, of_sample, level, args, kwargs)
    return rule


def _at_outer_level(name, op, level, args, kwargs):
    """The fallback of an outer level, met inside the fallback of an inner one (see _no_rule)."""
    out = per_sample_as_pytorch(name, op, level, args, kwargs)
    if not isinstance(out, BatchedTensor):
        return out
    value = out._value.permute(*range(out._value.dim()))
    value._vmap_levels |= _marks(out._value)      # (for the inner level's fallback)
    return wrap(value, level, out._bdim)


PRODUCT_RULES = {"tril": _triangle, "triu": _triangle, "diag_embed": _diag_embed, "diag": _diag,
                 "tensordot": _tensordot, "inner": _tensordot, "kron": _kron,
                 "linalg.multi_dot": _multi_dot, "addmm": _addmm, "addr": _addr,
                 "addmv": _add_products("mv", ("input", "mat", "vec")),
                 "baddbmm": _add_products("bmm", ("input", "batch1", "batch2")),
                 "vander": _no_rule("vander"), "pdist": _no_rule("pdist"),
                 "F.pdist": _no_rule("pdist"), "diagflat": _no_rule("diagflat")}
