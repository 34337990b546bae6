"""Solving with triangular factors: linalg.solve_triangular, cholesky_solve, cholesky_inverse.

A triangular system is solved by substitution, one unknown at a time, without factorizing
anything: that is why the factorizations (LU, Cholesky) are worth computing once and
reusing. The gradients are those of solve (see decompositions.py), kept to the triangle
that was read: the other triangle of A was never used, so it gets no gradient.
"""
import numpy as np

from .._dtype import from_numpy_dtype
from .._tensor import _wrap
from ..autograd.graph import Node, SavedOutput
from . import result, save_result
from .decompositions import (check_matrices, show_settings, lapack_layout, refuse_half,
                             named_result, _register, several_results, warn_once, push_tangents)
from .pointwise import _broadcast_error
from .._signatures import Signatures, parsed_by
from ..autograd.kernel_writes import kernel_writes


def _triangular_solve_arrays(a, b, upper, left, unitriangular):
    """X with A X = B (left) or X A = B, reading only A's upper or lower triangle.

    By substitution, as the BLAS routine PyTorch calls (trsm): one row of X at a time (the
    first for a lower A, the last for an upper one), from the rows found before it. So a 0 on
    the diagonal gives inf or nan instead of an error, and a nan in A reaches only the rows
    that read it (a general solver, which factorizes A first, would spread it everywhere)."""
    if not left:            # X A = B is A^T X^T = B^T, and A^T's triangle is the other one
        flipped = _triangular_solve_arrays(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2),
                                           not upper, True, unitriangular)
        return np.swapaxes(flipped, -1, -2)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a, b = np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:])
    x = np.zeros(b.shape, dtype=np.result_type(a, b))
    n = a.shape[-1]
    with np.errstate(all="ignore"):                 # (inf and nan, silently, as in PyTorch)
        for i in (range(n - 1, -1, -1) if upper else range(n)):
            found = slice(i + 1, n) if upper else slice(0, i)
            rest = b[..., i, :] - (a[..., i:i + 1, found] @ x[..., found, :])[..., 0, :]
            x[..., i, :] = rest if unitriangular else rest / a[..., i, i, None]
    return x


class LinalgSolveTriangularBackward0(Node):
    """result = X with A X = B, A triangular   ->   grad_B = A^-T grad; grad_A = -grad_B X^T
        (kept to A's triangle, without the diagonal if unitriangular)"""

    _saved_names = ("self", "result")

    def backward(self, grad):
        A, X = self.saved_tensors
        grad_B = solve_triangular(A.mT, grad, upper=not self.upper, left=self.left,
                                  unitriangular=self.unitriangular)
        grad_A = None
        if self.should_compute_output(0):
            grad_A = -(grad_B.matmul(X.mT) if self.left else X.mT.matmul(grad_B))
            grad_A = grad_A.triu(int(self.unitriangular)) if self.upper else grad_A.tril(-int(self.unitriangular))
        return grad_A, grad_B


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    """``torch.linalg.solve_triangular``: X with A X = B (``left=False``: X A = B) for a
    triangular A (its upper triangle if ``upper``, else its lower; with ``unitriangular``, 1s
    on the diagonal are assumed). Gradient: as solve's, kept to the triangle read."""
    check_matrices("linalg.solve_triangular", A)
    refuse_half(A, kernel="triangular_solve_cpu")
    n = A.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                           f"{equation} ({A.shape[-2]}x{A.shape[-1]} and {B.shape[-2]}x{B.shape[-1]})")
    value = _triangular_solve_arrays(A._array, B._array, upper, left, unitriangular)
    out = result(lapack_layout(value.astype(A._array.dtype, copy=False)), LinalgSolveTriangularBackward0,
                 (A, B), upper=upper, left=left, unitriangular=unitriangular)
    return save_result(kernel_writes("solve_triangular", out, A, B), A)


class CholeskySolveBackward0(Node):
    """result = X = (L L^T)^-1 B   ->   grad_self = (L L^T)^-1 grad;
        grad_input2 = -(grad_self X^T + X grad_self^T) L"""

    _saved_names = ("input2", "result", "self")

    def backward(self, grad):
        L, X, B = self.saved_tensors
        grad_B = cholesky_solve(grad, L, self.upper)
        grad_L = None
        if self.should_compute_output(1):
            common = grad_B.matmul(X.mT)
            common = common + common.mT
            grad_L = -(L.matmul(common) if self.upper else common.matmul(L))
        return grad_B, grad_L


def cholesky_solve(input, input2, upper=False):
    """``torch.cholesky_solve``: X with A X = ``input`` where A = L L^T and L = ``input2`` is
    its Cholesky factor (``upper``: A = U^T U). Gradient: see CholeskySolveBackward0."""
    for name, t in (("b", input), ("u", input2)):
        if t.ndim < 2:
            raise RuntimeError(f"{name} should have at least 2 dimensions, but has {t.ndim} dimensions "
                               "instead")
    _check_solve_inputs(input, input2, "cholesky_solve")
    L, B = input2._array, input._array
    factor = np.triu(L) if upper else np.tril(L)
    A = np.swapaxes(factor, -1, -2) @ factor if upper else factor @ np.swapaxes(factor, -1, -2)
    value = np.linalg.solve(A, B)
    out = result(lapack_layout(value.astype(B.dtype, copy=False)), CholeskySolveBackward0, (input, input2),
                 upper=upper)
    node = out._grad_fn
    if isinstance(node, CholeskySolveBackward0):
        from . import SavedOutput
        node.save_for_backward(input2, SavedOutput(out), input)
    return kernel_writes("cholesky_solve", out, input, input2)


class CholeskyInverseBackward0(Node):
    """result = Y = (L L^T)^-1   ->   grad_self = -(Y (grad + grad^T) Y) L"""

    _saved_names = ("self", "result")

    def backward(self, grad):
        L, Y = self.saved_tensors
        # Y ((grad + grad^T) Y): PyTorch's order (its rounding, and its nodes under create_graph)
        common = Y.matmul((grad + grad.mT).matmul(Y))
        return (-(L.matmul(common) if self.upper else common.matmul(L)),)


def cholesky_inverse(input, upper=False):
    """``torch.cholesky_inverse``: A^-1 from A's Cholesky factor L (A = L L^T; ``upper``:
    A = U^T U). Gradient: -(Y (grad + grad^T) Y) L with Y = A^-1."""
    check_matrices("cholesky_inverse", input)
    refuse_half(input, kernel="cholesky_inverse_out_cpu")
    factor = np.triu(input._array) if upper else np.tril(input._array)
    A = np.swapaxes(factor, -1, -2) @ factor if upper else factor @ np.swapaxes(factor, -1, -2)
    value = np.linalg.inv(A)
    out = result(lapack_layout(value.astype(input._array.dtype, copy=False)), CholeskyInverseBackward0, (input,),
                 upper=upper)
    return save_result(kernel_writes("cholesky_inverse", out, input), input)


show_settings(LinalgSolveTriangularBackward0, left="left", unitriangular="unitriangular", upper="upper")
show_settings(CholeskySolveBackward0, upper="upper")
show_settings(CholeskyInverseBackward0, upper="upper")


# --- the older torch.triangular_solve (deprecated in PyTorch) ----------------------------------

triangular_solve_result = named_result("triangular_solve", ("solution", "cloned_coefficient"))
_register(triangular_solve_result)

_TRIANGULAR_SOLVE_DEPRECATED = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
    "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed "
    "and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\n"
    "should be replaced with\nX = torch.linalg.solve_triangular(A, B).")


class TriangularSolveBackward0(Node):
    """results = (X, A copy) = triangular_solve(self, A) (op(A) X = self, op = transpose or not)
        ->  grad_self = op(A)^-T grad_X; grad_A = -grad_self X^T (-X grad_self^T if transpose),
            kept to A's triangle, plus the copy's gradient grad_A_copy"""

    _saved_names = ("A", "self", "solution")

    def backward(self, grad_solution, grad_cloned_coefficient):
        A, b, X = self.saved_tensors
        grad_b = grad_A = None
        if grad_solution is not None:
            grad_b = triangular_solve(grad_solution, A, self.upper, not self.transpose,
                                      self.unitriangular)[0]
            if self.should_compute_output(1):
                grad_A = -X.matmul(grad_b.mT) if self.transpose else -grad_b.matmul(X.mT)
                diagonal = int(self.unitriangular)
                grad_A = grad_A.triu(diagonal) if self.upper else grad_A.tril(-diagonal)
        if grad_A is None:
            grad_A = _zeros_like(A)
        if grad_b is None:
            grad_b = _zeros_like(b)
        if self.should_compute_output(1) and grad_cloned_coefficient is not None:
            grad_A = grad_A.add(grad_cloned_coefficient)
        return grad_b, grad_A


def _zeros_like(t):
    """PyTorch's zeros for an input whose gradient nothing sends: one 0 expanded to its shape."""
    return _wrap(np.zeros(1, dtype=t._array.dtype)).expand(tuple(t.shape))


def _check_triangular_solve(b, A):
    """PyTorch's checks of triangular_solve's arguments, in its order, with its messages; returns
    the batch shape the two broadcast to."""
    for name, t in (("b", b), ("A", A)):
        if t.ndim < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {name} to have at least 2 dimensions, "
                               f"but it has {t.ndim} dimensions instead")
    return _check_solve_inputs(b, A, "triangular_solve")


def _check_solve_inputs(b, A, name):
    """PyTorch's checks of a right-hand side ``b`` and matrices ``A`` of at least 2 dims, in its
    order (linearSolveCheckInputs, then its kernel's dtype), for the solve ``name``; returns the
    batch shape the two broadcast to."""
    if b._array.dtype != A._array.dtype:
        def type_name(t):
            return from_numpy_dtype(t._array.dtype).tensor_type_name[:-6]
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {type_name(b)} "
                           f"and A of type {type_name(A)} instead.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")
    if A.shape[-1] != b.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is "
                           f"{A.shape[-2]} by {A.shape[-1]} but each b matrix is {b.shape[-2]} by "
                           f"{b.shape[-1]}")
    batch_b, batch_a = tuple(b.shape[:-2]), tuple(A.shape[:-2])
    try:
        batch = tuple(np.broadcast_shapes(batch_b, batch_a))
    except ValueError:
        raise _broadcast_error(np.empty(batch_b, dtype=bool), np.empty(batch_a, dtype=bool)) from None
    if b._array.dtype.kind != "f" or b._array.dtype == np.float16:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for "
                                  f"'{from_numpy_dtype(b._array.dtype).tensor_type_name[:-6]}'")
    return batch


@parsed_by(Signatures(
    "triangular_solve", "Tensor input, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False"))
def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):
    """``torch.triangular_solve`` (deprecated in PyTorch): X with op(A) X = b for a triangular A
    (op(A) = A^T with ``transpose``), as the named pair (solution, cloned_coefficient), the
    second a copy of A; batches broadcast. Warns once, as PyTorch does.
    Gradient: see TriangularSolveBackward0."""
    b = input                   # (the right-hand side)
    warn_once("triangular_solve", _TRIANGULAR_SOLVE_DEPRECATED)
    batch = _check_triangular_solve(b, A)
    n = A.shape[-1]
    a = np.broadcast_to(A._array, batch + (n, n))
    rhs = np.broadcast_to(b._array, batch + tuple(b.shape[-2:]))
    if transpose:       # the transpose of an upper triangle is a lower one
        a_used, upper_used = np.swapaxes(a, -1, -2), not upper
    else:
        a_used, upper_used = a, upper
    if rhs.size:
        value = _triangular_solve_arrays(a_used, rhs, upper_used, True, unitriangular)
    else:
        value = np.zeros(rhs.shape, dtype=rhs.dtype)
    (X, copy), node = several_results(
        [lapack_layout(value.astype(b._array.dtype, copy=False)), lapack_layout(a)],
        TriangularSolveBackward0, (b, A), (0, 1), transpose=transpose, unitriangular=unitriangular,
        upper=upper)
    if node is not None:
        node.save_for_backward(A, b, SavedOutput(X))
    push_tangents((X, copy), (b, A), lambda ts: _triangular_solve_tangents(
        b, A, X.detach(), ts, upper, transpose, unitriangular))
    return kernel_writes("triangular_solve", triangular_solve_result(X, copy), input, A)


_TRIANGULAR_SOLVE_METHOD = Signatures(
    "triangular_solve", "Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False")


def triangular_solve_method(self, *args, **kwargs):
    """``x.triangular_solve(A, upper=True, transpose=False, unitriangular=False)``:
    ``torch.triangular_solve(x, A, ...)``, with PyTorch's errors for its arguments."""
    _, arguments = _TRIANGULAR_SOLVE_METHOD.parse(args, kwargs)
    return triangular_solve(self, **arguments)


def _triangular_solve_tangents(b, A, X, tangents, upper, transpose, unitriangular):
    """Forward mode as PyTorch's rule computes it: X_t = op(A)^-1 (b_t - A_t X), with A_t as
    given (whole, and not transposed: PyTorch's rule is that of a general solve); the copy of
    A gets A_t."""
    b_t, A_t = tangents
    if A_t is None:
        A_t = _wrap(np.zeros(A.shape, dtype=A._array.dtype))
    if b_t is None:
        b_t = _wrap(np.zeros(b.shape, dtype=b._array.dtype))
    return triangular_solve(b_t - A_t.matmul(X), A, upper, transpose, unitriangular)[0], A_t


show_settings(TriangularSolveBackward0, transpose="transpose", unitriangular="unitriangular", upper="upper")
