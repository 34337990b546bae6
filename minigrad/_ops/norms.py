"""Norms of matrices and distances: linalg.matrix_norm, linalg.norm, dist (PyTorch: torch.linalg).

A vector norm (``vector_norm``, in reduction.py) looks at the elements one by one. A matrix
norm looks at the matrix as a map; PyTorch composes each from simpler operations, and so
does minigrad, so the recorded graph shows the same nodes:

* 'fro':      the vector 2-norm of all the elements      (LinalgVectorNormBackward0)
* 1 / -1:     the largest / smallest column sum of |A|   (AmaxBackward0 of a vector 1-norm)
* inf / -inf: the largest / smallest row sum of |A|      (the same, over the other dim)
* 2 / -2:     the largest / smallest singular value      (AmaxBackward0 of svdvals)
* 'nuc':      the sum of the singular values             (SumBackward1 of svdvals)
"""
import numpy as np

from .._tensor import _normalize_dim, _wrap
from ..autograd.graph import Node
from . import result
from .reduction import vector_norm, vector_norm_gradient, amax, amin, sum as sum_
from .decompositions import check_matrices, show_settings, refuse_half
from .spectral import svdvals
from .._dtype import from_numpy_dtype, result_type
from .pointwise import _broadcast_error
from ..autograd.kernel_writes import kernel_writes
from .views import history_first

_INF = float("inf")


def _matrix_dims(A, dim):
    if not isinstance(dim, (tuple, list)) or len(dim) != 2:
        shown = " ".join(str(d) for d in (dim if isinstance(dim, (tuple, list)) else (dim,)))
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {shown}")
    d0, d1 = (_normalize_dim(d, A.ndim) for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    return d0, d1


@history_first
def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """``torch.linalg.matrix_norm``: a norm of each matrix over the two dims ``dim``.

    ``ord``: 'fro' (default), 'nuc', 1, -1, 2, -2, inf, -inf (see this module's docstring).
    """
    check_matrices("linalg.matrix_norm", A, square=False)
    d0, d1 = _matrix_dims(A, dim)
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif ord not in (1, -1, 2, -2, _INF, -_INF):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord:g} not supported.")
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    if ord in (1, -1, _INF, -_INF):
        # a vector 1-norm over one dim (column sums for 1, row sums for inf), then the extreme
        # over the other (which moved down by one if the first was before it and was dropped)
        summed, over = (d0, d1) if abs(ord) == 1 else (d1, d0)
        if not keepdim and summed < over:
            over -= 1
        sums = vector_norm(A, 1.0, summed, keepdim, dtype=dtype)
        return _extreme(sums, over, keepdim, ord > 0)
    if dtype is not None:
        A = A.to(dtype)
    refuse_half(A, name="linalg.matrix_norm")
    # the singular values of the matrices, moved to be the last two dims
    others = [d for d in range(A.ndim) if d not in (d0, d1)]
    order = others + [d0, d1]
    values = svdvals(A.permute(order))
    if ord == "nuc":
        out = sum_(values, -1, keepdim)
    else:
        out = _extreme(values, -1, keepdim, ord > 0)
    if keepdim:
        return out.unsqueeze(-1).permute(tuple(int(i) for i in np.argsort(order)))
    return out


def _extreme(values, dim, keepdim, largest):
    """The largest (amax) or smallest (amin) of ``values`` along ``dim``. The largest of
    nothing (a matrix without elements) is 0 in PyTorch's matrix norms, new zeros without
    history; the smallest of nothing is amin's error."""
    if largest and values.shape[dim] == 0:
        shape = list(values.shape)
        if keepdim:
            shape[dim] = 1
        else:
            del shape[dim]
        return _wrap(np.zeros(shape, values._array.dtype))
    return (amax if largest else amin)(values, dim, keepdim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """``torch.linalg.norm``: a vector norm (over one dim, or over all the elements when neither
    ``ord`` nor ``dim`` is given) or a matrix norm (over two dims, or of a 2-D ``A`` with ``ord``).
    """
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if isinstance(ord, str):           # 'fro' and 'nuc' are matrix norms
            return matrix_norm(A, ord, dims, keepdim, dtype=dtype)
        if len(dims) == 1:
            return vector_norm(A, 2.0 if ord is None else ord, dims if not isinstance(dim, int) else dim,
                               keepdim, dtype=dtype)
        if len(dims) == 2:
            return matrix_norm(A, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dims)}")
    if ord is None:
        return vector_norm(A, 2.0, None, keepdim, dtype=dtype)
    if A.ndim not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D "
                           f"or 2D. Got {A.ndim}D.")
    if A.ndim == 1 and not isinstance(ord, str):
        return vector_norm(A, ord, None, keepdim, dtype=dtype)
    return matrix_norm(A, ord, (0, 1), keepdim, dtype=dtype)


def cond(A, p=None):
    """``torch.linalg.cond``: the condition number, how much A can stretch an error relative
    to the solution: ||A|| ||A^-1|| in the norm ``p``. For p None, 2 or -2 it is the ratio of
    the largest and smallest singular values (S_max / S_min; -2: S_min / S_max), which needs no
    inverse; 'nuc' is sum(S) * sum(1/S), from the singular values too (so a singular matrix
    gives a large finite number where rounding left its smallest S above 0, as in PyTorch);
    any other p needs a square matrix and gives inf for a singular one. NumPy defines no
    condition number for matrices without elements: PyTorch gives 0 (new zeros, no history)."""
    return kernel_writes("cond", _condition_number(A, p), A, p=p)


def _condition_number(A, p):
    if isinstance(p, str):
        check_matrices(f"linalg.cond(ord={p})", A)
    elif A.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if p not in (None, "fro", "nuc", 1, -1, 2, -2, _INF, -_INF):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if A._array.size == 0:
        return _wrap(np.zeros(A.shape[:-2], A._array.dtype))
    if p in (None, 2, -2):
        values = svdvals(A)
        k = values.shape[-1]
        largest, smallest = values.narrow(-1, 0, 1), values.narrow(-1, k - 1, 1)
        ratio = largest / smallest if p != -2 else smallest / largest
        return ratio.squeeze(-1)
    if p not in ("fro", "nuc", 1, -1, _INF, -_INF):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    check_matrices(f"linalg.cond(ord={p if isinstance(p, str) else format(p, 'g')})", A)
    if p == "nuc":
        # ||A||_nuc ||A^-1||_nuc, the singular values of A^-1 being 1/S: no inverse needed
        # (PyTorch computes the singular values twice, one node each)
        return svdvals(A).sum(-1) * svdvals(A).reciprocal().sum(-1)
    from .decompositions import inv_ex
    inverse, info = inv_ex(A)
    # a singular matrix has no inverse: its condition number is infinite (PyTorch fills the
    # inverse in place, so that its norm is inf)
    singular = (info > 0).unsqueeze(-1).unsqueeze(-1)
    inverse.masked_fill_(singular, _INF)
    product = matrix_norm(A, p) * matrix_norm(inverse, p)
    return product.nan_to_num(_INF, _INF)


class DistBackward0(Node):
    """result = ||self - other||_p   ->   grad_self = norm's gradient at (self - other);
        grad_other = -grad_self"""

    _saved_names = ("other", "result", "self")

    def backward(self, grad):
        other, norm, a = self.saved_tensors
        # (each gradient computed on its own, as PyTorch's formulas are: with create_graph=True
        # the two are separate chains of nodes, which a second-order backward goes through)
        grad_self = grad_other = None
        if self.should_compute_output(0):
            grad_self = vector_norm_gradient(grad, a - other, norm, self.p, (), False, True)
        if self.should_compute_output(1):
            grad_other = -vector_norm_gradient(grad, a - other, norm, self.p, (), False, True)
        return grad_self, grad_other

    def jvp(self, tangents, inputs, out):
        """result_t = the p-norm's tangent at (self - other), for the tangent self_t - other_t"""
        from .reduction import LinalgVectorNormBackward0
        (a, b), (a_t, b_t) = inputs, tangents
        norm_rule = LinalgVectorNormBackward0()
        norm_rule.p, norm_rule.dims, norm_rule.keepdim = self.p, (), False
        return norm_rule.jvp((a_t - b_t,), (a - b,), out)


def dist(input, other, p=2):
    """``torch.dist``: the ``p``-norm of ``input - other`` (broadcast), a 0-d tensor.
    Gradient: the norm's gradient at the difference, with opposite signs for the two."""
    from .views import check_history_kept
    check_history_kept(input, other, saves=((0, 1), (0, 1)))    # (before the shapes, as PyTorch's
                                                                # recorded operations)
    if input._array.dtype.kind == "b" or other._array.dtype.kind == "b":
        from .pointwise import bool_subtraction_error
        raise bool_subtraction_error(input, other)       # (PyTorch subtracts first: before the shapes)
    try:
        shape = np.broadcast_shapes(tuple(input.shape), tuple(other.shape))
    except ValueError:
        raise _broadcast_error(input, other) from None
    # (in the dtype PyTorch promotes the two to: a 0-d float64 other keeps a float32 input's,
    # a float other makes an integer input's difference float)
    dtype = result_type(input, other)
    if dtype.kind != "f":
        raise RuntimeError("norm(): input dtype should be either floating point or complex. Got "
                           f"{from_numpy_dtype(dtype).tensor_type_name[:-6]} instead.")
    from .._tensor import _wrap
    from ..autograd.grad_mode import no_grad
    with no_grad():
        difference = _wrap(np.broadcast_to(input._array.astype(dtype, copy=False)
                                           - other._array.astype(dtype, copy=False), shape))
        value = vector_norm(difference, p)._array
    out = result(value, DistBackward0, (input, other), p=p)
    node = out._grad_fn
    if isinstance(node, DistBackward0):
        from . import SavedOutput
        node.save_for_backward(other, SavedOutput(out), input)
    return out


show_settings(DistBackward0, p="p")


