"""The LU factorization, A = P L U: linalg.lu_factor (+ex), linalg.lu, linalg.lu_solve, lu_unpack.

Gaussian elimination written down: L (unit lower triangular) records the multiples of rows
subtracted, U (upper triangular) is what is left, P the row swaps (partial pivoting: the
largest remaining entry of each column goes on the diagonal, for stability). lu_factor packs
L and U into one matrix (L's 1s are not stored) and keeps the swaps as LAPACK's 1-based
``pivots``; decompositions.lu_factor computes it.

The backward formula (square A): with X = L^-1 P^T dA U^-1 = L^-1 dL + dU U^-1, the first
part is strictly lower triangular and the second upper, so dL = L tril(X, -1) and
dU = triu(X) U. Turned around: grad_A = P L^-T (tril(L^T grad_L, -1) + triu(grad_U U^T)) U^-T.
"""
import numpy as np

from .._tensor import _wrap
from .._dtype import from_numpy_dtype
from ..autograd.graph import Node, SavedOutput
from . import result
from .decompositions import (lu_factor as lu_factor_arrays, named_result, several_results,
                             _register, show_settings, lapack_layout, refuse_half,
                             check_floating, check_matrices, push_tangents)
from .pointwise import _broadcast_error
from .lu_solve_order import lu_solve_like_pytorch
from .triangular_solves import solve_triangular
from ..autograd.kernel_writes import kernel_writes


linalg_lu_factor = named_result("linalg_lu_factor", ("LU", "pivots"))
linalg_lu_factor_ex = named_result("linalg_lu_factor_ex", ("LU", "pivots", "info"))
linalg_lu = named_result("linalg_lu", ("P", "L", "U"))
_register(linalg_lu_factor, linalg_lu_factor_ex, linalg_lu)


def _check_lu_input(name, A):
    if A.ndim < 2:
        raise RuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A.shape)} instead")
    if A._array.dtype.kind != "f" or A._array.dtype == np.float16:
        raise NotImplementedError(f'"lu_cpu" not implemented for '
                                  f"'{from_numpy_dtype(A._array.dtype).tensor_type_name[:-6]}'")


def _permutation(pivots, m, dtype):
    """P (m x m) from LAPACK's pivots, so that A = P L U: the swaps, applied in order to the
    rows of the identity, give P^T."""
    batch = pivots.shape[:-1]
    flat = pivots.reshape((int(np.prod(batch)), pivots.shape[-1]))
    matrices = np.empty((flat.shape[0], m, m), dtype=dtype)
    for i, swaps in enumerate(flat):
        order = np.arange(m)
        for k, p in enumerate(swaps):
            order[[k, p - 1]] = order[[p - 1, k]]
        matrices[i] = np.eye(m, dtype=dtype)[order].T
    return matrices.reshape(batch + (m, m))


def _unpack(lu):
    """L (unit lower, m x k) and U (upper, k x n) from the packed factors, k = min(m, n)."""
    m, n = lu.shape[-2], lu.shape[-1]
    k = min(m, n)
    L = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
    U = np.triu(lu[..., :k, :])
    return L, U


def _lu_arrays(A):
    """Gaussian elimination of each m x n matrix (square or not): packed LU, pivots, info."""
    return lu_factor_arrays(A._array)


def lu_gradient(P, L, U, grad_L, grad_U, pivot=True):
    """grad_A for A = P L U (m x n, k = min(m, n)) from grad_L and grad_U (either may be None).

    Square: grad_A = P L^-T (tril(L^T grad_L, -1) + triu(grad_U U^T)) U^-T.
    Wide (m < n, U = [U1 | U2]): A's extra columns A2 = P L U2 send L^-T grad_U2 back,
    and U2 = L^-1 P^T A2 passes -tril(grad_U U^T) through L to A1.
    Tall (m > n, L = [L1; L2]): the mirror image, L2 = P^T A2 U^-1.
    The steps, and their order, are PyTorch's (linalg_lu_backward): a gradient recorded with
    create_graph=True then has the same nodes."""
    from .shape import cat
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        grad_A = None
        if grad_L is not None:
            grad_A = L.mT.matmul(grad_L).tril(-1)
        if grad_U is not None:
            from_U = grad_U.matmul(U.mT).triu()
            grad_A = from_U if grad_A is None else grad_A + from_U
        grad_A = solve_triangular(U.mT, grad_A, upper=False, left=False)                  # ... U^-T
        grad_A = solve_triangular(L.mT, grad_A, upper=True, left=True, unitriangular=True)   # L^-T ...
    elif m < n:
        U1 = U if n == k else U.narrow(-1, 0, k)
        grad_A = None
        if grad_L is not None:
            grad_A = L.mT.matmul(grad_L)
        if grad_U is not None:
            from_U = grad_U.triu().matmul(U.mT)
            grad_A = -from_U if grad_A is None else grad_A - from_U
        grad_A = solve_triangular(U1.mT, grad_A.tril(-1), upper=False, left=False)
        if grad_U is not None:
            grad_U1 = grad_U if n == k else grad_U.narrow(-1, 0, k)
            grad_A = cat([grad_A + grad_U1.triu(), grad_U.narrow(-1, k, n - k)], -1)
        grad_A = solve_triangular(L.mT, grad_A, upper=True, left=True, unitriangular=True)
        if grad_U is None:          # the extra columns of A reach only U2
            grad_A = cat([grad_A, U.new_zeros(tuple(U.shape[:-1]) + (n - k,))], -1)
    else:
        L1 = L if m == k else L.narrow(-2, 0, k)
        grad_A = None
        if grad_U is not None:
            grad_A = grad_U.matmul(U.mT)
        if grad_L is not None:
            from_L = L.mT.matmul(grad_L.tril(-1))
            grad_A = -from_L if grad_A is None else grad_A - from_L
        grad_A = solve_triangular(L1.mT, grad_A.triu(), upper=True, left=True, unitriangular=True)
        if grad_L is not None:
            grad_L1 = grad_L if m == k else grad_L.narrow(-2, 0, k)
            grad_A = cat([grad_A + grad_L1.tril(-1), grad_L.narrow(-2, k, m - k)], -2)
        grad_A = solve_triangular(U.mT, grad_A, upper=False, left=False)
        if grad_L is None:          # the extra rows of A reach only L2
            grad_A = cat([grad_A, L.new_zeros(tuple(L.shape[:-2]) + (m - k, k))], -2)
    return P.matmul(grad_A) if pivot else grad_A


def lu_tangents(P, L, U, A_t):
    """Forward mode of A = P L U: (L_t, U_t) for the tangent A_t. For the square part, with
    X = L^-1 P^T A_t U^-1: L_t = L tril(X, -1), U_t = triu(X) U; a tall A's extra rows
    L2 = A2 U^-1 get (A2_t - L2 U_t) U^-1, a wide A's extra columns U2 = L^-1 A2 get
    L^-1 (A2_t - L_t U2)."""
    from .shape import cat
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    moved = P.mT.matmul(A_t)
    L1, U1 = L[..., :k, :], U[..., :, :k]
    inner = solve_triangular(L1, moved[..., :k, :k], upper=False, unitriangular=True)
    X = solve_triangular(U1, inner, upper=True, left=False)
    L1_t, U1_t = L1.matmul(X.tril(-1)), X.triu().matmul(U1)
    if m > n:
        L2 = L[..., k:, :]
        L2_t = solve_triangular(U1, moved[..., k:, :] - L2.matmul(U1_t), upper=True, left=False)
        return cat([L1_t, L2_t], -2), U1_t
    if m < n:
        U2 = U[..., :, k:]
        U2_t = solve_triangular(L1, moved[..., :, k:] - L1_t.matmul(U2), upper=False, unitriangular=True)
        return L1_t, cat([U1_t, U2_t], -1)
    return L1_t, U1_t


def _packed_tangent(L_t, U_t):
    """The tangent of the packed factors: L_t below the diagonal, U_t on and above it."""
    from .shape import cat
    m, n = L_t.shape[-2], U_t.shape[-1]
    k = min(m, n)
    top = L_t[..., :k, :].tril(-1) + U_t[..., :, :k]
    if m > n:
        return cat([top, L_t[..., k:, :]], -2)
    if m < n:
        return cat([top, U_t[..., :, k:]], -1)
    return top


def _unpacked(LU):
    """L and U from the packed factors, as operations on LU (a second derivative goes
    through them)."""
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    L = LU[..., :, :k].tril(-1) + _wrap(np.eye(m, k, dtype=LU._array.dtype))
    return L, LU[..., :k, :].triu()


class LinalgLuFactorExBackward0(Node):
    """results = (LU, pivots, info) = lu_factor_ex(A)   ->
        grad_A = P L^-T (tril(L^T grad_L, -1) + triu(grad_U U^T)) U^-T,
        grad_L = tril(grad_LU, -1), grad_U = triu(grad_LU)"""

    _saved_names = ("LU", "pivots")

    def backward(self, grad_LU, grad_pivots=None, grad_info=None):
        LU, pivots = self.saved_tensors
        # P, L and U through lu_unpack, one recorded node, as PyTorch does: with
        # create_graph=True the second derivative reaches LU through it
        P, L, U = lu_unpack(LU, pivots, unpack_pivots=self.pivot)
        k = min(LU.shape[-2], LU.shape[-1])
        # L's and U's parts of the packed gradient: lu_gradient's tril/triu keep only the
        # triangle each factor was packed in
        grad_L, grad_U = grad_LU.narrow(-1, 0, k), grad_LU.narrow(-2, 0, k)
        return (lu_gradient(P, L, U, grad_L, grad_U, self.pivot),)


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    """``torch.linalg.lu_factor_ex``: the packed LU factors, the pivots (1-based row swaps)
    and info (0, or the first position where U has an exact 0 on its diagonal)."""
    _check_lu_input("torch.lu_factor", A)      # (PyTorch's message names its older function)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    lu, pivots, info = _lu_arrays(A)
    (LU, pivots_out, info_out), node = several_results(
        [lapack_layout(lu), pivots.astype(np.int32), info.astype(np.int32)], LinalgLuFactorExBackward0, (A,), (0,),
        pivot=pivot)
    if node is not None:
        node.save_for_backward(SavedOutput(LU), pivots_out)

    def tangents(ts):
        P = _wrap(_permutation(pivots, A.shape[-2], A._array.dtype))
        L, U = _unpacked(LU.detach())
        return (_packed_tangent(*lu_tangents(P, L, U, ts[0])), None, None)

    push_tangents((LU, pivots_out, info_out), (A,), tangents)
    return kernel_writes("lu_factor_ex", linalg_lu_factor_ex(LU, pivots_out, info_out), A)


def lu_factor(A, *, pivot=True):
    """``torch.linalg.lu_factor``: the packed LU factors and the pivots; an exact 0 on U's
    diagonal (which lu_solve would divide by) raises, as in PyTorch."""
    LU, pivots, info = lu_factor_ex(A, pivot=pivot)
    flat = info._array.reshape(-1)
    bad = np.flatnonzero(flat)
    if bad.size:
        where = f"(Batch element {int(bad[0])}): " if A.ndim > 2 else ""
        k = int(flat[bad[0]])
        raise RuntimeError(
            f"torch.linalg.lu_factor: {where}U[{k},{k}] is zero and using it on lu_solve would result "
            "in a division by zero. If you still want to perform the factorization, consider calling "
            "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")
    return linalg_lu_factor(LU, pivots)


class LinalgLuBackward0(Node):
    """results = (P, L, U) = lu(A)   ->   grad_A = P L^-T (tril(L^T grad_L, -1) + triu(grad_U U^T)) U^-T"""

    _saved_names = ("L", "P", "U")

    def backward(self, grad_P, grad_L, grad_U):
        L, P, U = self.saved_tensors
        if grad_L is None and grad_U is None:
            return (None,)
        return (lu_gradient(P, L, U, grad_L, grad_U, self.pivot),)


def lu(A, *, pivot=True):
    """``torch.linalg.lu``: A = P L U as the named triple (P, L, U): P a permutation, L unit
    lower triangular, U upper triangular (A may be rectangular)."""
    _check_lu_input("linalg.lu", A)
    lu_packed, pivots, _ = _lu_arrays(A)
    L, U = _unpack(lu_packed)
    P = _permutation(pivots, A.shape[-2], A._array.dtype)
    (P_out, L_out, U_out), node = several_results(
        [np.ascontiguousarray(part) for part in (P, L, U)], LinalgLuBackward0, (A,), (1, 2), pivot=pivot)
    if node is not None:
        node.save_for_backward(SavedOutput(L_out), P_out, SavedOutput(U_out))
    push_tangents((P_out, L_out, U_out), (A,), lambda ts: (
        None, *lu_tangents(P_out.detach(), L_out.detach(), U_out.detach(), ts[0])))
    return kernel_writes("lu", linalg_lu(P_out, L_out, U_out), A)


class LinalgLuSolveBackward0(Node):
    """result = X = A^-1 B with A = P L U given as (LU, pivots)   ->
        grad_B = A^-T grad (lu_solve with adjoint flipped);
        grad_LU = tril(P^T grad_A U^T, -1) + triu(L^T P^T grad_A), grad_A = -grad_B X^T"""

    _saved_names = ("LU", "pivots", "result")

    def backward(self, grad):
        LU, pivots, X = self.saved_tensors
        grad_LU = None
        if self.should_compute_output(0):
            grad_LU = _lu_solve_LU_gradient(grad, LU, pivots, X, self.left, self.adjoint)
        grad_B = None
        if self.should_compute_output(1):
            grad_B = lu_solve(LU, pivots, grad, left=self.left, adjoint=not self.adjoint)
        return grad_LU, grad_B

    def jvp(self, tangents, inputs, out):
        """result_t = op(A)^-1 (B_t - op(A_t) X) (left; X A = B: (B_t - X op(A_t)) op(A)^-1),
        A_t = P (L_t U + L U_t) from LU_t's two triangles"""
        (LU, B), (LU_t, B_t) = inputs, tangents
        n = LU.shape[-1]
        P = _wrap(_permutation(self.pivots_for_tangent._array, n, LU._array.dtype))
        L, U = _unpacked(LU)
        A_t = P.matmul(LU_t.tril(-1).matmul(U) + L.matmul(LU_t.triu()))
        if self.adjoint:
            A_t = A_t.mT
        change = B_t - (A_t.matmul(out) if self.left else out.matmul(A_t))
        return lu_solve(LU, self.pivots_for_tangent, change, left=self.left, adjoint=self.adjoint)


def _lu_solve_LU_gradient(grad_X, LU, pivots, X, left, adjoint):
    """grad_LU of lu_solve, in PyTorch's steps (so that create_graph=True records its nodes).

    The four systems are op(A) X = B or X op(A) = B, A = P L U. When ``left != adjoint``
    (A X = B, or X A^T = B) the system is solved by L first, then U, and
    R = U^-T (-grad_X X^T) (X and grad_X in column form) gives grad_U = triu(R),
    grad_L = tril(L^-T R U^T, -1). Otherwise (A^T X = B, or X A = B) the roles of L and U
    swap: R = -P^T X grad_X^T P L^-T (column form again) gives grad_L = tril(R, -1),
    grad_U = triu(L^T R U^-T). (The node's formula, grad_A = -grad_B X^T put onto L and U,
    rearranged: grad_B = A^-T grad_X.)"""
    P, L, U = lu_unpack(LU, pivots, unpack_pivots=(left == adjoint))
    if left != adjoint:
        product = -(grad_X.matmul(X.mT) if left else grad_X.mT.matmul(X))
        R = solve_triangular(U.mT, product, upper=False)
        grad_L = solve_triangular(L.mT, R.matmul(U.mT), upper=True, left=True,
                                  unitriangular=True).tril(-1)
        return grad_L + R.triu()
    R = -(P.mT.matmul(X if left else X.mT).matmul(grad_X.mT if left else grad_X).matmul(P))
    R = solve_triangular(L.mT, R, upper=True, left=False, unitriangular=True)
    grad_U = solve_triangular(U.mT, L.mT.matmul(R), upper=False, left=False).triu()
    return R.tril(-1) + grad_U


def _type_name(t):
    return from_numpy_dtype(t._array.dtype).tensor_type_name[:-6]


def _check_lu_solve_arguments(LU, pivots, B, left):
    """PyTorch's checks of lu_solve's arguments, in its order, with its messages."""
    check_floating("torch.linalg.lu_solve", LU)
    if LU._array.dtype != B._array.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of "
                           f"type {_type_name(LU)} and B of type {_type_name(B)} instead")
    if pivots._array.dtype != np.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    check_matrices("torch.linalg.lu_solve", LU)
    if B.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    n = LU.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation {equation} "
                           f"({LU.shape[-2]}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    if pivots.ndim == 0 or pivots.shape[-1] != n:
        raise RuntimeError("linalg.lu_solve: Number of pivots per batch should be same as the "
                           "dimension of the matrix")
    if tuple(pivots.shape) != tuple(LU.shape[:-1]):
        raise RuntimeError("linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the same, "
                           f"but got pivots with shape {list(pivots.shape)} instead")
    batch_b, batch_a = tuple(B.shape[:-2]), tuple(LU.shape[:-2])
    try:
        np.broadcast_shapes(batch_b, batch_a)
    except ValueError:
        raise _broadcast_error(np.empty(batch_b, dtype=bool), np.empty(batch_a, dtype=bool)) from None
    values = pivots._array
    if values.size and values.max() > LU.shape[-2]:
        raise RuntimeError("Pivots given to lu_solve must all be smaller or equal to LU.size(-2). Did "
                           "you properly pass the result of lu_factor?")
    if values.size and values.min() < 1:
        raise RuntimeError("Pivots given to lu_solve must all be greater or equal to 1. Did you "
                           "properly pass the result of lu_factor?")
    refuse_half(LU, kernel="linalg.lu_solve_cpu")


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """``torch.linalg.lu_solve``: X with A X = B from A's LU factors (``adjoint``: A^T X = B;
    ``left=False``: X A = B). Gradient: see LinalgLuSolveBackward0."""
    _check_lu_solve_arguments(LU, pivots, B, left)
    # (MKL's getrs with the factors as given: X A = B is solved as A^T X^T = B^T)
    lu, b = LU._array, B._array
    batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    lu = np.broadcast_to(lu, batch + lu.shape[-2:])
    piv = np.broadcast_to(pivots._array, batch + pivots.shape[-1:])
    if left:
        value = lu_solve_like_pytorch(lu, piv, np.broadcast_to(b, batch + b.shape[-2:]), transposed=adjoint)
    else:
        rhs = np.swapaxes(np.broadcast_to(b, batch + b.shape[-2:]), -1, -2)
        value = np.swapaxes(lu_solve_like_pytorch(lu, piv, rhs, transposed=not adjoint), -1, -2)
    # (edges to LU and B only: the pivots are integers, with no gradient)
    value = value.astype(b.dtype, copy=False)
    # (left=False: LAPACK's X^T column by column is X row by row)
    value = lapack_layout(value) if left else np.ascontiguousarray(value)
    out = result(value, LinalgLuSolveBackward0, (LU, B),
                 left=left, adjoint=adjoint, pivots_for_tangent=pivots)
    node = out._grad_fn
    if isinstance(node, LinalgLuSolveBackward0):
        node.save_for_backward(LU, pivots, SavedOutput(out))
    return out


lu_unpack_result = named_result("lu_unpack", ("P", "L", "U"))
_register(lu_unpack_result)


class LuUnpackBackward0(Node):
    """results = (P, L, U) = lu_unpack(LU_data, LU_pivots)   ->
        grad_LU_data = tril(grad_L, -1) + triu(grad_U) (each where it was packed)"""

    def backward(self, grad_P, grad_L, grad_U):
        m, n = self.LU_data_sym_argsize_minus_2, self.LU_data_sym_argsize_minus_1
        k = min(m, n)
        zeros = _wrap(np.zeros(self.LU_shape, dtype=self._output_dtype))
        grad = zeros
        from .shape import cat
        if grad_L is not None:          # L is m x k: its strict lower triangle was packed
            lower = grad_L.tril(-1)
            grad = grad + (lower if k == n else cat([lower, zeros[..., :, k:]], -1))
        if grad_U is not None:          # U is k x n: its upper triangle was packed
            upper = grad_U.triu()
            grad = grad + (upper if k == m else cat([upper, zeros[..., k:, :]], -2))
        return (grad,)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """``torch.lu_unpack``: P, L and U from lu_factor's packed factors and pivots, as the named
    triple (P, L, U); ``unpack_data=False`` leaves L and U empty, ``unpack_pivots=False`` P.
    Gradient: grad_L's strict lower triangle and grad_U's upper triangle, put back in place."""
    m, n = LU_data.shape[-2], LU_data.shape[-1]
    dtype = LU_data._array.dtype
    if unpack_data:
        L, U = (np.ascontiguousarray(part) for part in _unpack(LU_data._array))
    else:
        L = U = np.zeros((0,), dtype=dtype)
    if unpack_pivots:
        P = np.ascontiguousarray(_permutation(LU_pivots._array, m, dtype))
    else:
        P = np.zeros((0,), dtype=dtype)
    (P_out, L_out, U_out), node = several_results(
        [P, L, U], LuUnpackBackward0, (LU_data,), (1, 2), LU_data_sym_argsize_minus_1=n,
        LU_data_sym_argsize_minus_2=m, LU_shape=tuple(LU_data.shape))
    if node is not None and not unpack_data:
        node.LU_shape = tuple(LU_data.shape)
    return lu_unpack_result(P_out, L_out, U_out)


show_settings(LuUnpackBackward0, LU_data_sym_argsize_minus_1="LU_data_sym_argsize_minus_1",
              LU_data_sym_argsize_minus_2="LU_data_sym_argsize_minus_2")
show_settings(LinalgLuFactorExBackward0, pivot="pivot")
show_settings(LinalgLuBackward0, pivot="pivot")
show_settings(LinalgLuSolveBackward0, adjoint="adjoint", left="left")


# (what torch.lu gives with get_infos=True: see minigrad/functional.py)
_lu_with_info = named_result("_lu_with_info", ("LU", "pivots", "info"))
_register(_lu_with_info)
