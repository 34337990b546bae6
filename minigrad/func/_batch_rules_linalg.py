"""Batching rules for torch.linalg: its functions take a batch of matrices natively.

``linalg.det(A)`` of one (n, n) matrix also takes (b, n, n), a matrix per sample, so under
vmap the batch dim goes in front and the function runs once, as in PyTorch (its graph: the
function's own node, after a PermuteBackward0 when the batch was not in front). Functions
given dims count them from the end (``dim=(-2, -1)``), which the batch in front leaves
unchanged; dims counted from the front, tensors among the other arguments, a sample with
fewer dims than a matrix, go to the per-sample fallback (with its messages). A function of
two tensors (``solve(A, B)``) gets both with the batch in front, the one not batched
expanded to the batch (ExpandBackward0), as PyTorch's rules do; ``lu_solve``,
``cholesky_solve`` and ``cdist`` broadcast the one not batched instead, as theirs do.

Functions that PyTorch writes as a few steps of other functions (``cond``, ``norm``,
``vecdot``, ``trace``, ``tensorinv``, ``multi_dot``, ``outer``, ``dist``) run those steps
under vmap, each by its rule, so their graph is the steps' nodes on the whole batch.
PyTorch has no rule for ``linalg.lu``, ``tensorsolve`` and ``cond`` with a named norm ('fro',
'nuc'): they run once per sample, with PyTorch's fallback graph and its "performance drop"
warning.

PyTorch: aten/src/ATen/functorch/BatchRulesLinearAlgebra.cpp.
"""
import numpy as np

from .._tensor import Tensor
from .._functorch import _Vmaps, warn_no_batching_rule
from ._batched_tensor import BatchedTensor
from ._batch_rules import (unwrap, wrap, _has_tensor, _arguments, _dispatching, _matmul,
                           per_sample_as_pytorch)

# one matrix (or a stack of them) in, nothing else batched
_MATRIX_FUNCTIONS = """det slogdet inv inv_ex cholesky cholesky_ex eigh eigvalsh svd svdvals qr
    lu_factor lu_factor_ex matrix_exp matrix_power pinv matrix_rank""".split()
# torch.xxx functions of a matrix (or a stack of them) that PyTorch's rules run once too
_TORCH_MATRIX_FUNCTIONS = """det logdet slogdet inverse svd pinverse matrix_exp cholesky
    cholesky_inverse""".split()


# PyTorch's message for a sample of fewer than 2 dims where its rule (or the function it runs
# under vmap) says otherwise than the function outside vmap; ``size``: the batch's size
_TOO_FEW_DIMS = {
    "inv": "linalg.inv_ex: The input tensor A must have at least 2 dimensions.",
    "inv_ex": "linalg.inv_ex: The input tensor A must have at least 2 dimensions.",
    "eigvalsh": "linalg.eigh: The input tensor A must have at least 2 dimensions.",
    "lu_factor": "torch.lu_factor_ex: Expected tensor with 2 or more dimensions. Got size: {size} instead",
    "lu_factor_ex": "torch.lu_factor_ex: Expected tensor with 2 or more dimensions. Got size: {size} instead",
    "matrix_exp": "torch.matrix_exp: The input tensor A must have at least 2 dimensions.",
    "pinv": "linalg.pinv: The input tensor input must have at least 2 dimensions.",
    "matrix_rank": "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.",
}


def _matrices(op, level, args, kwargs):
    """linalg.inv(t), linalg.svd(t), ...: the function once on the batch of matrices."""
    value, batched = unwrap(args[0], level)
    if not batched or _has_tensor((args[1:], kwargs)):
        return NotImplemented
    name = op.__name__
    if args[0].dim() < 2:
        if name in _TOO_FEW_DIMS:
            raise RuntimeError(_TOO_FEW_DIMS[name].format(size=list(args[0]._value.shape)))
        return NotImplemented
    rows, columns = args[0].shape[-2:]
    if name == "eigvalsh" and rows != columns:     # (PyTorch runs eigh under vmap)
        raise RuntimeError(f"linalg.eigh: A must be batches of square matrices, but they are "
                           f"{rows} by {columns} matrices")
    return wrap(op(value, *args[1:], **kwargs), level)


def _is_dim(d, rank):
    return isinstance(d, int) and not isinstance(d, bool) and -rank <= d < rank


def _counted_from_end(dim):
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    return all(isinstance(d, int) and not isinstance(d, bool) and d < 0 for d in dims)


def _matrix_norm(op, level, args, kwargs):
    """linalg.matrix_norm(t, ord, dim=(-2, -1), keepdim): the dims counted from the end."""
    given = _arguments(("A", "ord", "dim", "keepdim", "dtype"), args, kwargs, dim=(-2, -1))
    if given is None or not isinstance(args[0], Tensor) or not isinstance(given["dim"], (tuple, list)):
        return NotImplemented
    rank = args[0].dim()
    if not all(_is_dim(d, rank) for d in given["dim"]):
        return NotImplemented
    # dims of a sample counted from its front: the same dims counted from the end
    given["dim"] = tuple(d - rank if d >= 0 else d for d in given["dim"])
    A = given.pop("A")
    return _matrices(op, level, (A,), given)


def _vector_norm(op, level, args, kwargs):
    """linalg.vector_norm(t, ord, dim=None, keepdim): the batch dim in front and each dim of a
    sample counted past it (no dims: every dim of a sample)."""
    given = _arguments(("x", "ord", "dim", "keepdim", "dtype"), args, kwargs, ord=2, dim=None)
    if given is None or not isinstance(given.get("x"), Tensor):
        return NotImplemented
    value, batched = unwrap(given["x"], level)
    rank = given["x"].dim()
    if not batched or _has_tensor(([v for k, v in given.items() if k != "x"],)):
        return NotImplemented
    dims = given["dim"] if given["dim"] is not None else tuple(range(rank))
    dims = dims if isinstance(dims, (tuple, list)) else (dims,)
    if rank == 0 or not all(isinstance(d, int) and not isinstance(d, bool) and -rank <= d < rank
                            for d in dims):
        return NotImplemented
    given.update(x=value, dim=tuple(d % rank + 1 for d in dims))
    return wrap(op(**given), level)


def _operands(count, least_dims):
    """The rule of a function of ``count`` tensors (each of at least ``least_dims`` dims per
    sample) and options: every tensor with the batch in front, one not batched expanded."""
    def rule(op, level, args, kwargs):
        tensors, rest = args[:count], args[count:]
        if len(tensors) != count or not all(isinstance(t, Tensor) and t.dim() >= least_dims
                                            for t in tensors) or _has_tensor((rest, kwargs)):
            return NotImplemented
        size = _Vmaps.batch_sizes[level]
        values = []
        for tensor in tensors:
            value, batched = unwrap(tensor, level)
            values.append(value if batched else tensor.expand(size, *tensor.shape))
        return wrap(op(*values, *rest, **kwargs), level)
    return rule


def _cross(op, level, args, kwargs):
    """linalg.cross(a, b, dim=-1), torch.cross(a, b, dim): the dim past the batch in front."""
    given = _arguments(("input", "other", "dim"), args, kwargs, dim=-1 if op.__name__ == "cross" else None)
    if given is None or not all(isinstance(t, Tensor) for t in args[:2]) or \
            args[0].dim() != args[1].dim() or not _is_dim(given["dim"], args[0].dim()):
        return NotImplemented
    dim = given["dim"] % args[0].dim() + 1          # (of the batch in front, as PyTorch saves it)
    return _operands(2, 1)(_linalg("cross"), level, args[:2], {"dim": dim})


# --- functions PyTorch runs as steps of other functions under vmap ------------------------------

def _linalg(name):
    """torch.linalg.``name`` sent to the batching rules again (a step of a function)."""
    from .. import linalg
    function = getattr(linalg, name)
    return _dispatching("linalg." + name, getattr(function, "_unbatched", function))


def _cond(op, level, args, kwargs):
    """linalg.cond(A, p): for p None, 2 or -2 its steps (svdvals, two narrows, a division, a
    squeeze), each by its rule; for a numbered norm the function once on the batch (its steps
    on the batch record the same nodes); for 'fro' and 'nuc' once per sample, as PyTorch has
    no rule for linalg_cond.p_str."""
    given = _arguments(("A", "p"), args, kwargs, p=None)
    A, p = (given or {}).get("A"), (given or {}).get("p")
    if given is None or not isinstance(A, BatchedTensor) or A._level != level or \
            _has_tensor(p) or A.dim() < 2:
        return NotImplemented
    if p is None or (isinstance(p, (int, float)) and not isinstance(p, bool) and p in (2, -2)):
        values = _linalg("svdvals")(A)
        k = values.shape[-1]
        largest, smallest = values.narrow(-1, 0, 1), values.narrow(-1, k - 1, 1)
        ratio = largest / smallest if p != -2 else smallest / largest
        return ratio.squeeze(-1)
    if isinstance(p, str):
        if p not in ("fro", "nuc"):
            return NotImplemented         # (the fallback gives PyTorch's error)

        def cond_of_sample(*a, **k):
            warn_no_batching_rule("linalg_cond.p_str", a[:1])
            return op(*a, **k)
        return per_sample_as_pytorch("linalg.cond", cond_of_sample, level, args, kwargs)
    return wrap(op(unwrap(A, level)[0], p), level)


def _lu(op, level, args, kwargs):
    """linalg.lu(A): no rule in PyTorch: once per sample, with its warning."""
    def lu_of_sample(*a, **k):
        warn_no_batching_rule("linalg_lu", a[:1])
        return op(*a, **k)
    return per_sample_as_pytorch("linalg.lu", lu_of_sample, level, args, kwargs)


def _lstsq(op, level, args, kwargs):
    """linalg.lstsq(A, B): both with the batch in front (the one not batched expanded), once.
    A B of one dim per sample is refused, as PyTorch's rule refuses it."""
    if len(args) >= 2 and all(isinstance(t, Tensor) for t in args[:2]) and args[0].dim() >= 2 \
            and args[1].dim() == 1 and args[0].dtype == args[1].dtype:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    return _operands(2, 2)(op, level, args, kwargs)


def _broadcast(ranks):
    """The rule of a function of tensors with at least these numbers of dims per sample
    (matrices: 2, pivots: 1) and options: those batched with the batch in front, the others
    as they are (the function broadcasts them over the batch, without an ExpandBackward0, as
    PyTorch's rules do), once. ``lu_solve(LU, pivots, B)``, ``cholesky_solve(B, L)``."""
    def rule(op, level, args, kwargs):
        tensors = args[:len(ranks)]
        if op.__name__ == "lu_solve" and len(args) == 3 and isinstance(args[2], Tensor) and \
                args[0].dim() >= 2 and args[2].dim() < 2:     # (PyTorch's rule checks this)
            raise RuntimeError(f"B should have at least 2 dimensions, but has {args[2].dim()} "
                               "dimensions instead.")
        if len(tensors) != len(ranks) or _has_tensor((args[len(ranks):], kwargs)) or not all(
                isinstance(t, Tensor) and t.dim() >= rank for t, rank in zip(tensors, ranks)):
            return NotImplemented
        # the dims of a sample before its matrices (a vmap inside this one batches them): the
        # batched ones get size-1 dims after the batch dim up to the most, so that the
        # function's broadcasting lines the samples up
        most = max(t.dim() - rank for t, rank in zip(tensors, ranks))
        values = []
        for tensor, rank in zip(tensors, ranks):
            value, batched = unwrap(tensor, level)
            if batched and tensor.dim() - rank < most:
                padding = (1,) * (most - tensor.dim() + rank)
                value = value.view((value.shape[0],) + padding + tuple(tensor.shape))
            values.append(value)
        return wrap(op(*values, *args[len(ranks):], **kwargs), level)
    return rule


def _vecdot(op, level, args, kwargs):
    """linalg.vecdot(x, y, dim=-1): of two vectors, vdot's steps (a matmul of a row and a
    column, two squeezes); else x * y summed over dim, each by its rule."""
    if len(args) != 2 or set(kwargs) - {"dim"} or not all(isinstance(t, Tensor) for t in args) \
            or args[0].dtype != args[1].dtype or not args[0].is_floating_point():
        return NotImplemented
    x, y = args
    dim = kwargs.get("dim", -1)
    if x.dim() == 1 and y.dim() == 1:
        return _vdot(op, level, (x, y), {})
    if not _is_dim(dim, max(x.dim(), y.dim())):
        return NotImplemented
    return (x * y).sum(dim)


def _vdot(op, level, args, kwargs):
    """vdot(x, y) (dot for real numbers): a matmul of a row and a column, squeezed, as
    PyTorch's rule decomposes it."""
    if kwargs or len(args) != 2 or not all(isinstance(t, Tensor) and t.dim() == 1 for t in args):
        return NotImplemented
    if not args[0].is_floating_point() or args[0].dtype != args[1].dtype:
        return NotImplemented
    return _matmul(op, level, args, kwargs)


def _norm(op, level, args, kwargs):
    """linalg.norm(A, ord, dim, keepdim, dtype): the vector_norm or matrix_norm it stands
    for, by its rule."""
    given = _arguments(("A", "ord", "dim", "keepdim"), args, kwargs, ord=None, dim=None,
                       keepdim=False, dtype=None)
    if given is None or not isinstance(given["A"], BatchedTensor) or _has_tensor(
            (args[1:], kwargs)):
        return NotImplemented
    A, ord, dim, keepdim, dtype = (given[k] for k in ("A", "ord", "dim", "keepdim", "dtype"))
    rank = A.dim()
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if not all(_is_dim(d, max(rank, 1)) for d in dims):
            return NotImplemented
        if isinstance(ord, str) or len(dims) == 2:
            if len(dims) != 2:
                return NotImplemented
            return _linalg("matrix_norm")(A, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
        if len(dims) != 1:
            return NotImplemented
        return _linalg("vector_norm")(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)
    if ord is None:
        return _linalg("vector_norm")(A, 2.0, None, keepdim, dtype=dtype)
    if rank == 1 and not isinstance(ord, str):
        return _linalg("vector_norm")(A, ord, None, keepdim, dtype=dtype)
    if rank != 2:
        return NotImplemented
    return _linalg("matrix_norm")(A, ord, (0, 1), keepdim, dtype=dtype)


def _diagonal(op, level, args, kwargs):
    """linalg.diagonal(A, offset=0, dim1=-2, dim2=-1): Tensor.diagonal, by its rule."""
    given = _arguments(("A",), args, {}, **kwargs)
    if given is None or set(given) - {"A", "offset", "dim1", "dim2"} or \
            not isinstance(given["A"], BatchedTensor):
        return NotImplemented
    return given["A"].diagonal(given.get("offset", 0), given.get("dim1", -2), given.get("dim2", -1))


def _tensorinv(op, level, args, kwargs):
    """linalg.tensorinv(A, ind=2): A seen as a matrix (a view), inverted, shaped back."""
    given = _arguments(("A", "ind"), args, kwargs, ind=2)
    A = (given or {}).get("A")
    ind = (given or {}).get("ind")
    if not isinstance(A, BatchedTensor) or not isinstance(ind, int) or not 0 < ind <= A.dim():
        return NotImplemented
    rows_shape, columns_shape = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    rows, columns = int(np.prod(rows_shape)), int(np.prod(columns_shape))
    if rows != columns:
        return NotImplemented              # (the fallback gives PyTorch's error)
    return _linalg("inv")(A.reshape(rows, columns)).reshape(columns_shape + rows_shape)


def _tensorsolve(op, level, args, kwargs):
    """linalg.tensorsolve(A, B): no rule in PyTorch: once per sample, with its warning."""
    def tensorsolve_of_sample(*a, **k):
        warn_no_batching_rule("linalg_tensorsolve", a[:2])
        return op(*a, **k)
    return per_sample_as_pytorch("linalg.tensorsolve", tensorsolve_of_sample, level, args, kwargs)


def _outer(op, level, args, kwargs):
    """outer(v, w), ger(v, w): v as a column (a view) times w, as PyTorch decomposes it."""
    if kwargs or len(args) != 2 or not all(isinstance(t, Tensor) and t.dim() == 1 for t in args):
        return NotImplemented
    return args[0].reshape(-1, 1) * args[1]


def _dist(op, level, args, kwargs):
    """dist(a, b, p=2): the p-norm of a - b, both steps by their rules, as in PyTorch."""
    given = _arguments(("input", "other", "p"), args, kwargs, p=2)
    if given is None or not all(isinstance(t, Tensor) and t.is_floating_point() for t in args[:2]) \
            or _has_tensor(given["p"]):
        return NotImplemented
    difference = given["input"] - given["other"]
    value, batched = unwrap(difference, level)
    if not batched or isinstance(value, BatchedTensor) or given["p"] < 1:
        return NotImplemented
    return wrap(_norm_node(value, given["p"], tuple(range(1, value.dim()))), level)


def _norm_node(value, p, dims):
    """The p-norm of ``value`` over ``dims`` (p >= 1), recorded as PyTorch's older norm kernel
    records it (NormBackward1), which dist runs under vmap."""
    from ..autograd.grad_mode import no_grad
    from .._ops import result, save_result
    from ..nn._similarity import NormBackward1
    with no_grad():
        array = value.norm(p, dims)._array
    out = result(array, NormBackward1, (value,), p=p, dims=dims, keepdim=False,
                 input_shape=tuple(value.shape), all_dims=False, dim_as_given=dims)
    return save_result(out, value)


def _multi_dot(op, level, args, kwargs):
    """linalg.multi_dot(tensors) of matrices: a chain of mm (each by its rule), viewed."""
    if kwargs or len(args) != 1 or not isinstance(args[0], (list, tuple)) or len(args[0]) < 2 or \
            not all(isinstance(t, Tensor) and t.dim() == 2 and t.dtype == args[0][0].dtype
                    for t in args[0]):
        return NotImplemented
    tensors = list(args[0])
    if any(a.shape[1] != b.shape[0] for a, b in zip(tensors, tensors[1:])):
        return NotImplemented              # (the fallback gives PyTorch's error)
    from .._ops.matrix_products import _chain_order
    shapes = [tuple(t.shape) for t in tensors]
    if len(tensors) == 3:                  # (as multi_dot compares the two orders)
        a, b, c, d = shapes[0][0], shapes[1][0], shapes[2][0], shapes[2][1]
        if a * b * c + a * c * d <= b * c * d + a * b * d:
            product = tensors[0].mm(tensors[1]).mm(tensors[2])
        else:
            product = tensors[0].mm(tensors[1].mm(tensors[2]))
    else:
        split = _chain_order(shapes)

        def chain(i, j):
            return tensors[i] if i == j else chain(i, split[i][j]).mm(chain(split[i][j] + 1, j))
        product = chain(0, len(tensors) - 1)
    if len(tensors) == 2:
        return product
    return product.view(shapes[0][0], shapes[-1][1])


def _chain_matmul(op, level, args, kwargs):
    """chain_matmul(*matrices): PyTorch has no rule, and cannot run it per sample either."""
    raise RuntimeError("Batching rule not implemented for aten::chain_matmul. We could not "
                       "generate a fallback.")


def _trace(op, level, args, kwargs):
    """trace(A): the diagonal summed, as PyTorch's rule decomposes it."""
    if kwargs or len(args) != 1 or not isinstance(args[0], BatchedTensor) or args[0].dim() != 2:
        return NotImplemented
    return args[0].diagonal().sum()


LINALG_RULES = {"linalg." + name: _matrices for name in _MATRIX_FUNCTIONS}
LINALG_RULES.update({"linalg.matrix_norm": _matrix_norm, "linalg.vector_norm": _vector_norm,
                     "linalg.solve": _operands(2, 1), "linalg.solve_ex": _operands(2, 1),
                     "linalg.solve_triangular": _operands(2, 2), "linalg.cross": _cross,
                     "linalg.cond": _cond, "linalg.lu": _lu, "linalg.lstsq": _lstsq,
                     "linalg.lu_solve": _broadcast((2, 1, 2)), "linalg.vecdot": _vecdot, "vdot": _vdot,
                     "linalg.norm": _norm, "trace": _trace,
                     "cholesky_solve": _broadcast((2, 2))})
LINALG_RULES.update({name: _matrices for name in _TORCH_MATRIX_FUNCTIONS})
LINALG_RULES.update({"linalg.diagonal": _diagonal, "linalg.matmul": _matmul, "cross": _cross,
                     "linalg.householder_product": _operands(2, 1), "orgqr": _operands(2, 1),
                     "lu_unpack": _broadcast((2, 1)), "cdist": _broadcast((2, 2)),
                     "linalg.tensorinv": _tensorinv, "linalg.tensorsolve": _tensorsolve,
                     "outer": _outer, "ger": _outer, "dist": _dist, "linalg.multi_dot": _multi_dot,
                     "chain_matmul": _chain_matmul})
