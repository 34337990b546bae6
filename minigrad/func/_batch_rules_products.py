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

``matmul`` with a stack of matrices on one side and ``F.linear`` of a batched input (called by
the rules of func/_batch_rules.py) run the steps PyTorch writes them as, each by its rule too:
matmul's fold into the rows of one mm or mv, or its expand, reshape and bmm; linear's addmm.

PyTorch: aten/src/ATen/functorch/BatchRulesLinearAlgebra.cpp (the add* decompositions),
BatchRulesViews.cpp, torch/_refs (addr), aten/src/ATen/native/Linear.cpp (tensordot, kron,
linear), LinearAlgebra.cpp (matmul).
"""
import numpy as np

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


# --- matmul and F.linear: the steps PyTorch writes them as -----------------------------------

def matmul_steps(a, b):
    """matmul(a, b) with a stack of matrices on one side, as PyTorch's matmul runs on batched
    tensors, each step by its rule: the stack folded into the rows of one mm or mv (on the
    right: transposed) when its layout allows it or the other side requires grad, else
    both sides expanded to the broadcast batch, flattened, one bmm, unflattened."""
    from .._ops.shape import unsafe_view
    ra, rb = a.dim(), b.dim()
    if ra >= 3 and rb <= 2 and (_plain_requires_grad(b) or _foldable(a, transposed=False)):
        rows = tuple(a.shape[:-1])
        folded = a.reshape(int(np.prod(rows)), a.shape[-1])
        product = folded.mm(b) if rb == 2 else folded.mv(b)
        return dispatch("unsafe_view", unsafe_view, (product, rows + tuple(b.shape[1:])), {})
    if rb >= 3 and ra <= 2 and (_plain_requires_grad(a) or ra == 1 and _foldable(b, transposed=True)):
        flipped = b.mT
        rows = tuple(flipped.shape[:-1])
        folded = flipped.reshape(int(np.prod(rows)), flipped.shape[-1])
        if ra == 1:
            return dispatch("unsafe_view", unsafe_view, (folded.mv(a), rows), {})
        product = dispatch("unsafe_view", unsafe_view, (folded.mm(a.t()), rows + (a.shape[0],)), {})
        return product.mT.contiguous()
    n = a.shape[-2] if ra > 1 else 1
    p = b.shape[-1] if rb > 1 else 1
    batch = tuple(np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2])))
    count = int(np.prod(batch))
    left = a.expand(batch + (n, a.shape[-1])).reshape(count, n, a.shape[-1])
    if rb == 1:                      # (a vector on the right: a column, squeezed out again)
        right = b.expand(batch + (b.shape[-1],)).reshape(count, b.shape[-1], 1)
        return dispatch("unsafe_view", unsafe_view, (left.bmm(right).squeeze(-1), batch + (n,)), {})
    right = b.expand(batch + tuple(b.shape[-2:])).reshape(count, *b.shape[-2:])
    shape = batch + ((n,) if ra > 1 else ()) + (p,)
    return dispatch("unsafe_view", unsafe_view, (left.bmm(right), shape), {})


def _plain_requires_grad(tensor):
    """requires_grad as PyTorch's matmul sees it under vmap (a batched tensor says False)."""
    return not isinstance(tensor, BatchedTensor) and tensor.requires_grad


def _foldable(tensor, transposed):
    """Can the dims before the matrix dims of ``tensor`` (a sample, if batched) be merged with
    its rows (``transposed``: its columns) without a copy? (PyTorch's matmul's test.)"""
    sizes, steps = _sample_layout(tensor)
    if 0 in sizes:
        return True
    if transposed:
        sizes[-2:], steps[-2:] = sizes[:-3:-1], steps[:-3:-1]
    return all(steps[i] == steps[i + 1] * sizes[i + 1] for i in range(len(sizes) - 2))


def linear_steps(input, weight, bias, level):
    """F.linear of a batched input as PyTorch writes linear: with a bias, addmm for a matrix
    (its rule: ``bias * 1`` added to mm, MulBackward1), and for a contiguous stack of matrices
    the rows flattened (a view), addmm, viewed back; without one, matmul, which folds a stack
    of matrices into the rows of one mm (a reshape, mm by its rule, an unsafe view). None for
    the other cases (see func/_batch_rules.py, _linear)."""
    from .._ops.shape import unsafe_view
    if not isinstance(input, BatchedTensor) or isinstance(input._value, BatchedTensor) or \
            input.dim() < 2 or (bias is None and input.dim() == 2):
        return None
    rows, columns = tuple(input.shape[:-1]), input.shape[-1]
    flat_rows = int(np.prod(rows))
    if bias is not None and input.dim() == 2:
        return _addmm(None, level, (bias, input, weight.t()), {})
    if bias is not None and bias.dim() == 1 and _contiguous_sample(input):
        out = _addmm(None, level, (bias, input.reshape(flat_rows, columns), weight.t()), {})
        return out.view(*rows, out.shape[-1])
    if bias is None and (weight.requires_grad or _contiguous_sample(input)):
        product = input.reshape(flat_rows, columns).mm(weight.t())
        return dispatch("unsafe_view", unsafe_view, (product, rows + (weight.shape[0],)), {})
    return None


def _sample_layout(tensor):
    """The sizes and strides of one sample of ``tensor`` (the memory of the whole batch without
    the batch dims of its levels), as PyTorch's batched tensor reports them."""
    bdims = []
    while isinstance(tensor, BatchedTensor):
        bdims.append(tensor._bdim)
        tensor = tensor._value
    sizes, steps = list(tensor.shape), list(tensor.stride())
    for bdim in reversed(bdims):            # (the outermost level's batch dim first)
        del sizes[bdim], steps[bdim]
    return sizes, steps


def _contiguous_sample(batched):
    """Is one sample of ``batched`` laid out contiguously?"""
    sizes, steps = _sample_layout(batched)
    expected = 1
    for size, step in zip(reversed(sizes), reversed(steps)):
        if size != 1 and step != expected:
            return False
        expected *= size
    return True


def _is_contiguous(op, level, args, kwargs):
    """t.is_contiguous() (tensordot asks): is one sample laid out contiguously? (PyTorch's
    batched tensor answers for the sample it shows.)"""
    if len(args) != 1 or kwargs or not isinstance(args[0], BatchedTensor) or args[0]._level != level:
        return NotImplemented
    return _contiguous_sample(args[0])


# --- no rule in PyTorch: its fallback -------------------------------------------------------

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
                 "F.pdist": _no_rule("pdist"), "diagflat": _no_rule("diagflat"),
                 "is_contiguous": _is_contiguous}
