"""The Cholesky factorization A = L L^T of a symmetric positive-definite matrix:
linalg.cholesky, linalg.cholesky_ex and the older torch.cholesky (PyTorch: torch.linalg).

L is lower triangular with a positive diagonal; it exists exactly when A is positive-definite
(x^T A x > 0 for every x != 0), and the factorization finds out: a diagonal value that is not
positive on the way means the leading minor of that order is not positive-definite.
Only A's lower triangle is read.

The gradient: from dA = dL L^T + L dL^T, L^-1 dA L^-T = (L^-1 dL) + (L^-1 dL)^T, of which
L^-1 dL is the lower "half" (phi: the lower triangle with the diagonal halved). Turned
around, grad_A = L^-T sym(tril(L^T grad_L)) L^-1 with sym(X) = (X + X^T - diag X) / 2.
"""
import numpy as np

from ..autograd.graph import Node, SavedOutput
from . import result, plain_output
from .decompositions import (check_matrices, refuse_half, raise_for_info, lapack_layout,
                             linalg_cholesky_ex, show_settings, warn_once)
from ..autograd.kernel_writes import kernel_writes
from .triangular_solves import solve_triangular
from .pointwise import mul_by_number
from .._dtype import scalar_type_name


def _phi(X):
    """The lower triangle of X with its diagonal halved (the 'half' of a symmetric matrix)."""
    return X.tril() - 0.5 * X.diagonal(0, -2, -1).diag_embed()


def cholesky_gradient(L, grad_L):
    """grad_A for A = L L^T, from grad_L (Murray, 2016):
        grad_A = L^-T sym(tril(L^T grad_L)) L^-1,   sym(X) = (X + X^T - diag X) / 2.

    Only grad_L's lower triangle matters: tril(L^T grad_L) does not see its strict upper
    triangle (L^T times an upper triangle is upper, and tril drops it). The two inverses are
    two triangular solves rather than inv(L): cheaper, more accurate, and the same operations
    PyTorch records when the gradient is itself differentiated (create_graph=True)."""
    P = L.mT.matmul(grad_L).tril()
    # symmetric: A's two triangles share the gradient (times a plain number: MulBackward1)
    P = mul_by_number(P + P.tril(-1).mT, 0.5)
    P = solve_triangular(L.mT, P, upper=True, left=True)         # L^-T P
    return solve_triangular(L, P, upper=False, left=False)       # (L^-T P) L^-1


class LinalgCholeskyExBackward0(Node):
    """result = L = cholesky(A) (A = L L^T)   ->
        grad_A = sym(L^-T phi(L^T grad) L^-1), phi = lower triangle with the diagonal halved"""

    _saved_names = ("L",)

    def backward(self, grad, grad_info=None):
        (L,) = self.saved_tensors
        if self.upper:                # U = L^T was returned: its gradient, as L's
            L, grad = L.mT, grad.mT
        return (cholesky_gradient(L, grad),)

    def jvp(self, tangents, inputs, out):
        """result_t = L phi(L^-1 A_t L^-T)"""
        return cholesky_tangent(out, tangents[0], self.upper)


def cholesky_tangent(out, A_t, upper):
    """The tangent of the Cholesky factor: from A = L L^T, dA = dL L^T + L dL^T, so
    L^-1 dA L^-T = (L^-1 dL) + (L^-1 dL)^T, of which L^-1 dL is the lower 'half'."""
    L = out.mT if upper else out
    X = solve_triangular(L, A_t, upper=False, left=True)           # L^-1 A_t
    X = solve_triangular(L.mT, X, upper=True, left=False)          # (L^-1 A_t) L^-T
    L_t = L.matmul(_phi(X))
    return L_t.mT if upper else L_t


def _not_positive_definite(order):
    return ("The factorization could not be completed because the input is not positive-definite "
            f"(the leading minor of order {order} is not positive-definite).")


def _cholesky_arrays(array, upper):
    """L for each matrix (from its lower triangle) and info: 0, or the order of the first
    leading minor that is not positive-definite (L is then only partly computed)."""
    n = array.shape[-1]
    if array.size == 0:
        return array.copy(), np.zeros(array.shape[:-2], dtype=np.int32)
    flat = array.reshape((-1, n, n))
    factors = np.zeros_like(flat)
    info = np.zeros(flat.shape[0], dtype=np.int32)
    for i, matrix in enumerate(flat):
        lower = np.tril(matrix) + np.tril(matrix, -1).T        # (only the lower triangle is read)
        if not np.isfinite(lower).all():
            # numpy's LAPACK carries infinities and NaNs its own way (an inf on the diagonal
            # can hide a NaN below it); PyTorch's stops where the column-by-column steps do
            factors[i], info[i] = _partial_cholesky(np.tril(matrix))
            continue
        try:
            factors[i] = np.linalg.cholesky(lower)
        except np.linalg.LinAlgError:
            factors[i], info[i] = _partial_cholesky(np.tril(matrix))
            continue
        if not (np.diagonal(factors[i]) > 0).all():
            # a NaN reached the diagonal: numpy's LAPACK carries it on, PyTorch's stops there (a
            # NaN is not positive) and reports that leading minor
            factors[i], info[i] = _partial_cholesky(np.tril(matrix))
    factors = factors.reshape(array.shape)
    if upper:
        factors = np.swapaxes(factors, -1, -2)
    return lapack_layout(factors), info.reshape(array.shape[:-2])


def _partial_cholesky(L):
    """Cholesky column by column (LAPACK's potf2), in place in the lower triangle ``L``, up
    to the first column whose diagonal value is not positive: that value is left there
    (not its square root), and the columns after it keep A's values. Returns L and info."""
    # (infinities make NaNs on the way, inf - inf or inf / inf, as they do in PyTorch's kernel)
    with np.errstate(invalid="ignore", over="ignore"):
        for j in range(L.shape[0]):
            diagonal = L[j, j] - L[j, :j] @ L[j, :j]
            if not diagonal > 0:                    # (nan counts as not positive)
                L[j, j] = diagonal
                return L, j + 1
            L[j, j] = np.sqrt(diagonal)
            if np.isinf(L[j, j]) and L.dtype == np.float32:
                # PyTorch's float32 kernel (MKL's) turns the column under an infinite diagonal value
                # into NaN, where dividing by inf would give 0 (its float64 kernel does divide); the
                # next diagonal value is then NaN and the factorization stops there. (The NaN is the
                # processor's default one, with the sign bit set, as an invalid operation makes.)
                L[j + 1:, j] = -np.nan
                continue
            L[j + 1:, j] = (L[j + 1:, j] - L[j + 1:, :j] @ L[j, :j]) / L[j, j]
    return L, 0


def cholesky_ex(A, *, upper=False, check_errors=False, _name="linalg.cholesky"):
    """``torch.linalg.cholesky_ex``: the Cholesky factor and ``info`` (0, or the order of the
    first leading minor that is not positive-definite) without raising, unless ``check_errors``."""
    check_matrices(_name, A)
    if A.numel():                           # (an empty batch never reaches the kernel)
        refuse_half(A, kernel="cholesky_cpu")
    factors, info = _cholesky_arrays(A._array, upper)
    if check_errors:
        raise_for_info(_name, info, A.ndim > 2, _not_positive_definite)
    out = result(factors, LinalgCholeskyExBackward0, (A,), upper=upper)
    node = out._grad_fn
    if isinstance(node, LinalgCholeskyExBackward0):
        node.save_for_backward(SavedOutput(out))
    return kernel_writes("cholesky_ex", linalg_cholesky_ex(out, plain_output(info, A)), A)


def cholesky(A, *, upper=False):
    """``torch.linalg.cholesky``: L, lower triangular with a positive diagonal, such that
    A = L L^T, for a symmetric positive-definite A (``upper=True``: U = L^T). Only A's lower
    triangle is read. Gradient: L^-T sym(tril(L^T grad)) L^-1."""
    return cholesky_ex(A, upper=upper, check_errors=True).L


class CholeskyBackward0(Node):
    """result = cholesky(self, upper)   ->   grad_self = as LinalgCholeskyExBackward0's"""

    _saved_names = ("result",)

    def backward(self, grad):
        (L,) = self.saved_tensors
        if self.upper:
            L, grad = L.mT, grad.mT
        return (cholesky_gradient(L, grad),)

    def jvp(self, tangents, inputs, out):
        """result_t = (none: PyTorch has no forward-mode rule for the old torch.cholesky, and says so)"""
        raise NotImplementedError(
            "Trying to use forward AD with cholesky that does not support it because it has not "
            "been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
            "can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml")


_CHOLESKY_DEPRECATED = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
    "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
    "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results for "
    "all valid (symmetric positive definite) inputs.")


def cholesky_function(input, upper=False):
    """``torch.cholesky`` (deprecated in PyTorch): ``linalg.cholesky(input)``, or its transpose
    with ``upper=True``, recorded as CholeskyBackward0. Warns once, as PyTorch does."""
    warn_once("cholesky", _CHOLESKY_DEPRECATED)
    if input.numel() == 0:              # (PyTorch returns an empty tensor before any check)
        out = result(input._array.copy(), CholeskyBackward0, (input,), upper=upper)
        if isinstance(out._grad_fn, CholeskyBackward0):
            out._grad_fn.save_for_backward(SavedOutput(out))
        return kernel_writes("cholesky_function", out, input)
    # (its own name in messages; no dtype check before the kernel, which an empty batch
    # never reaches)
    check_matrices("cholesky", input, floating=False)
    if input.numel() and input._array.dtype not in (np.float32, np.float64):
        raise NotImplementedError(f"\"cholesky_cpu\" not implemented for '{scalar_type_name(input.dtype)}'")
    factors, info = _cholesky_arrays(input._array, upper)
    raise_for_info("cholesky", info, input.ndim > 2, _not_positive_definite)
    out = result(factors, CholeskyBackward0, (input,), upper=upper)
    node = out._grad_fn
    if isinstance(node, CholeskyBackward0):
        node.save_for_backward(SavedOutput(out))
    return kernel_writes("cholesky_function", out, input)


show_settings(LinalgCholeskyExBackward0, upper="upper")
show_settings(CholeskyBackward0, upper="upper")
