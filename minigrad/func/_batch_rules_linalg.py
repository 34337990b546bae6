"""Batching rules for torch.linalg: its functions take a batch of matrices natively.

``linalg.det(A)`` of one (n, n) matrix also takes (b, n, n), a matrix per sample, so under
vmap the batch dim goes in front and the function runs once, as in PyTorch (its graph: the
function's own node, after a PermuteBackward0 when the batch was not in front). Functions
given dims count them from the end (``dim=(-2, -1)``), which the batch in front leaves
unchanged; dims counted from the front, tensors among the other arguments, a sample with
fewer dims than a matrix, go to the per-sample fallback (with its messages). A function of
two tensors (``solve(A, B)``) gets both with the batch in front, the one not batched
expanded to the batch (ExpandBackward0), as PyTorch's rules do.

PyTorch: aten/src/ATen/functorch/BatchRulesLinearAlgebra.cpp.
"""
from .._tensor import Tensor
from .._functorch import _Vmaps
from ._batch_rules import unwrap, wrap, _has_tensor, _arguments

# one matrix (or a stack of them) in, nothing else batched
_MATRIX_FUNCTIONS = """det slogdet inv inv_ex cholesky cholesky_ex eigh eigvalsh svd svdvals qr
    lu_factor lu_factor_ex matrix_exp matrix_power pinv matrix_rank""".split()
# (cond is not among them: PyTorch runs its steps under vmap, each by its rule, and records
# their nodes; minigrad's cond runs once per sample)


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


def _counted_from_end(dim):
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    return all(isinstance(d, int) and not isinstance(d, bool) and d < 0 for d in dims)


def _matrix_norm(op, level, args, kwargs):
    """linalg.matrix_norm(t, ord, dim=(-2, -1), keepdim): the dims counted from the end."""
    given = _arguments(("A", "ord", "dim", "keepdim"), args, kwargs, dim=(-2, -1))
    if given is None or not _counted_from_end(given["dim"]):
        return NotImplemented
    return _matrices(op, level, args, kwargs)


def _vector_norm(op, level, args, kwargs):
    """linalg.vector_norm(t, ord, dim=None, keepdim): the batch dim in front and each dim of a
    sample counted past it (no dims: every dim of a sample)."""
    given = _arguments(("x", "ord", "dim", "keepdim", "dtype"), args, kwargs, ord=2, dim=None)
    value, batched = unwrap(args[0], level)
    rank = args[0].dim()
    if given is None or not batched or _has_tensor((args[1:], kwargs)):
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
    """linalg.cross(a, b, dim=-1): a dim counted from the end."""
    given = _arguments(("input", "other", "dim"), args, kwargs, dim=-1)
    if given is None or not _counted_from_end(given["dim"]) or \
            not all(isinstance(t, Tensor) for t in args[:2]) or args[0].dim() != args[1].dim():
        return NotImplemented
    return _operands(2, 1)(op, level, args, kwargs)


LINALG_RULES = {"linalg." + name: _matrices for name in _MATRIX_FUNCTIONS}
LINALG_RULES.update({"linalg.matrix_norm": _matrix_norm, "linalg.vector_norm": _vector_norm,
                     "linalg.solve": _operands(2, 1), "linalg.solve_ex": _operands(2, 1),
                     "linalg.solve_triangular": _operands(2, 2), "linalg.cross": _cross})
