"""Decompositions into orthogonal pieces: svd, eigh, qr, and what is built on them (svdvals,
eigvalsh, pinv, matrix_rank), plus matrix_exp (PyTorch: torch.linalg).

Their backward formulas come from differentiating the defining equations. For the
eigendecomposition of a symmetric A = V diag(L) V^T, say: dL = diag(V^T dA V) and
dV = V (F o (V^T dA V)), where F[i, j] = 1 / (L[j] - L[i]) off the diagonal (o: element by
element). Turning each around (the vector-Jacobian product) gives the gradients below. F
shows why a gradient through eigenvectors (or singular vectors) blows up when two
eigenvalues (singular values) are close: the vectors themselves are then ill-defined.
"""
import numpy as np

from .._type_names import type_name
from .._creation import eye
from .._tensor import _wrap
from ..autograd.graph import Node, SavedOutput
from . import result, plain_output
from .views import check_history_kept
from .pointwise import mul_by_number
from .decompositions import (check_matrices, check_floating, named_result, several_results,
                             zeros_if_none, solve, _register, show_settings, push_tangents,
                             lapack_layout, refuse_half, _LinAlgError)
from ..autograd.kernel_writes import kernel_writes
from .triangular_solves import solve_triangular
from .inplace import apply_inplace


linalg_svd = named_result("linalg_svd", ("U", "S", "Vh"))
svd_result = named_result("svd", ("U", "S", "V"))
linalg_eigh = named_result("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_qr = named_result("linalg_qr", ("Q", "R"))
qr_result = named_result("qr", ("Q", "R"))
_register(linalg_svd, svd_result, linalg_eigh, linalg_qr, qr_result)


def _off_diagonal_inverse(differences):
    """1 / differences off the diagonal, 0 on it (where the differences are 0), written so that
    a second derivative meets no inf: the diagonal is set to 1 before dividing."""
    n = differences.shape[-1]
    identity = eye(n, dtype=differences.dtype)
    return (1 / (differences + identity)) * (1 - identity)


# --- svd ---------------------------------------------------------------------------------------

class LinalgSvdBackward0(Node):
    """results = (U, S, Vh) = svd(A)   ->   grad_A = U [(J + J^T) S + diag(grad_S) + S (K + K^T)] Vh
        + (I - U U^T) grad_U S^-1 Vh + U S^-1 grad_Vh (I - V Vh),
        J = F o (U^T grad_U), K = F o (Vh grad_Vh^T), F[i, j] = 1 / (S[j]^2 - S[i]^2)"""

    _saved_names = ("S", "U", "Vh")

    def backward(self, grad_U, grad_S, grad_Vh):
        S, U, Vh = self.saved_tensors
        k = S.shape[-1]
        if self.full_matrices:         # only the first k columns (rows) of U (Vh) depend on A
            U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
            grad_U = grad_U.narrow(-1, 0, k) if grad_U is not None else None
            grad_Vh = grad_Vh.narrow(-2, 0, k) if grad_Vh is not None else None
        return (svd_gradient(grad_U, grad_S, grad_Vh, U, S, Vh),)


def svd_gradient(grad_U, grad_S, grad_Vh, U, S, Vh):
    """grad_A for A = U diag(S) Vh (U m x k, Vh k x n), each gradient possibly None.

    Written in PyTorch's steps (svd_backward), each product in its order, so that the
    values round alike and a gradient recorded with create_graph=True has the same nodes.
    The node's (J + J^T) is skew(U^T grad_U) / E here (F o X + (F o X)^T = F o (X - X^T),
    F = 1 / E being antisymmetric), and (K + K^T) likewise."""
    if grad_U is None and grad_S is None and grad_Vh is None:
        return None
    m, n = U.shape[-2], Vh.shape[-1]
    if grad_U is None and grad_Vh is None:            # svdvals: the singular values alone
        return U.matmul(grad_S.unsqueeze(-1) * Vh) if m >= n else (U * grad_S.unsqueeze(-2)).matmul(Vh)
    # U and V stay orthonormal: only the skew-symmetric parts of U^T grad_U and V^T grad_V
    # move them
    skew_U = _skew(U.mT.matmul(grad_U)) if grad_U is not None else None
    skew_V = _skew(Vh.matmul(grad_Vh.mT)) if grad_Vh is not None else None
    squares = S * S
    E = squares.unsqueeze(-2) - squares.unsqueeze(-1)
    E.diagonal(0, -2, -1).fill_(1)        # (any non-zero: the diagonal of what it divides is 0)
    if skew_U is not None and skew_V is not None:
        inner = (skew_U * S.unsqueeze(-2) + S.unsqueeze(-1) * skew_V) / E
    elif skew_U is not None:
        inner = (skew_U / E) * S.unsqueeze(-2)
    else:
        inner = S.unsqueeze(-1) * (skew_V / E)
    if grad_S is not None:
        inner = inner + grad_S.diag_embed()
    # A tall (wide) A: the part of grad_U (grad_Vh) outside the span of U (V) reaches A too.
    # For a square A it is zero, and left out (dividing its rounding residue by a zero
    # singular value would give inf or noise at a singular A).
    if m > n and grad_U is not None:
        grad_A = U.matmul(inner)
        grad_U_scaled = grad_U / S.unsqueeze(-2)
        grad_A = grad_A + grad_U_scaled - U.matmul(U.mT.matmul(grad_U_scaled))
        return grad_A.matmul(Vh)
    if m < n and grad_Vh is not None:
        grad_A = inner.matmul(Vh)
        grad_Vh_scaled = grad_Vh / S.unsqueeze(-1)
        grad_A = grad_A + grad_Vh_scaled - grad_Vh_scaled.matmul(Vh.mT).matmul(Vh)
        return U.matmul(grad_A)
    return U.matmul(inner.matmul(Vh)) if m >= n else U.matmul(inner).matmul(Vh)


def _skew(X):
    """X - X^T: twice the skew-symmetric part of X."""
    return X - X.mT


def _svd_arrays(A, full_matrices, driver=None):
    if driver is not None and not isinstance(driver, str):
        raise TypeError(f"linalg_svd(): argument 'driver' must be str, not {type_name(driver)}")
    check_matrices("linalg.svd", A, square=False)
    if A.numel() == 0:          # (PyTorch answers an empty batch before the driver and kernel)
        U, S, Vh = np.linalg.svd(A._array.astype(np.float32), full_matrices=full_matrices)
        return U.astype(A._array.dtype), S.astype(A._array.dtype), Vh.astype(A._array.dtype)
    if driver is not None:
        # (PyTorch chooses among cuSOLVER's algorithms with it; its CPU LAPACK has one)
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA "
                           "inputs with cuSOLVER backend.")
    refuse_half(A, kernel="linalg_svd_cpu")
    return lapack_svd(A._array, full_matrices=full_matrices)


def lapack_svd(array, **options):
    """``np.linalg.svd(array, **options)`` with PyTorch's outcome where LAPACK fails: a matrix
    with a NaN is refused (torch.linalg.LinAlgError, naming its batch element); one with an
    infinity but no NaN gives NaNs silently (numpy refuses both)."""
    try:
        return np.linalg.svd(array, **options)
    except np.linalg.LinAlgError:
        has_nan = np.isnan(array).any(axis=(-2, -1))
        if has_nan.any():
            where = f" (Batch element {int(np.argmax(has_nan.reshape(-1)))}):" if array.ndim > 2 else ""
            raise _LinAlgError(f"linalg.svd:{where} The algorithm failed to converge because the input "
                               "matrix contained non-finite values.") from None
        # (a value for each matrix, as if LAPACK had run: only those with an infinity are NaN)
        finite = np.where(np.isfinite(array), array, 0)
        results = np.linalg.svd(finite, **options)
        bad = ~np.isfinite(array).all(axis=(-2, -1))
        if not options.get("compute_uv", True):
            return np.where(bad[..., None], np.nan, results)
        return tuple(np.where(bad[..., None, None] if r.ndim == array.ndim else bad[..., None], np.nan, r)
                     for r in results)


def _svd_node(A, full_matrices, driver=None):
    U, S, Vh = _svd_arrays(A, full_matrices, driver)
    U, S, Vh = lapack_layout(U), np.ascontiguousarray(S.astype(A._array.dtype)), lapack_layout(Vh)
    # (svdvals returns S alone, but U and Vh are outputs of the node too: a second derivative
    # goes through them)
    (U_out, S_out, Vh_out), node = several_results([U, S, Vh], LinalgSvdBackward0, (A,), (0, 1, 2),
                                                   full_matrices=full_matrices,
                                                   S_sym_argsize_minus_1=S.shape[-1])
    if node is not None:
        node.save_for_backward(SavedOutput(S_out), SavedOutput(U_out), SavedOutput(Vh_out))
    push_tangents((U_out, S_out, Vh_out), (A,),
                  lambda tangents: _svd_tangents(U_out.detach(), S_out.detach(), Vh_out.detach(),
                                                 tangents[0], full_matrices))
    return U_out, S_out, Vh_out


def _svd_tangents(U, S, Vh, A_t, full_matrices):
    """Forward mode of the SVD: with P = U^T A_t V, S_t = diag(P),
    U_t = U (F o (P S + S P^T)) + (I - U U^T) A_t V S^-1, and V_t likewise with P^T
    (with full_matrices, the columns that only complete U or V get zeros)."""
    k = S.shape[-1]
    U_k, Vh_k = U[..., :k], Vh[..., :k, :]
    V = Vh_k.mT
    P = U_k.mT.matmul(A_t).matmul(V)
    squares = S * S
    F = _off_diagonal_inverse(squares.unsqueeze(-2) - squares.unsqueeze(-1))
    S_row, S_column = S.unsqueeze(-2), S.unsqueeze(-1)
    S_t = P.diagonal(0, -2, -1)
    U_t = U_k.matmul(F * (P * S_row + S_column * P.mT))
    V_t = V.matmul(F * (S_column * P + P.mT * S_row))
    if U_k.shape[-2] > k:                        # the parts outside the span of U (of V)
        outside = A_t.matmul(V) - U_k.matmul(P)
        U_t = U_t + outside / S_row
    if V.shape[-2] > k:
        outside = A_t.mT.matmul(U_k) - V.matmul(P.mT)
        V_t = V_t + outside / S_row
    Vh_t = V_t.mT
    if full_matrices:      # the completing columns of U (rows of Vh) get a zero tangent, as in PyTorch
        from .shape import cat
        if U.shape[-1] > k:
            U_t = cat([U_t, _wrap(np.zeros(tuple(U.shape[:-1]) + (U.shape[-1] - k,), dtype=U._array.dtype))], -1)
        if Vh.shape[-2] > k:
            Vh_t = cat([Vh_t, _wrap(np.zeros(tuple(Vh.shape[:-2]) + (Vh.shape[-2] - k, Vh.shape[-1]),
                                             dtype=Vh._array.dtype))], -2)
    return U_t, S_t, Vh_t


def svd(A, full_matrices=True, *, driver=None):
    """``torch.linalg.svd``: A = U diag(S) Vh, as the named triple (U, S, Vh); S descending.

    ``driver`` chooses a CUDA algorithm: on the CPU PyTorch refuses any, and so does minigrad.

    Gradient: see LinalgSvdBackward0 (finite only while the singular values are distinct).
    """
    return kernel_writes("svd", linalg_svd(*_svd_node(A, full_matrices, driver)), A,
                         full_matrices=full_matrices)


def svdvals(A, *, driver=None):
    """``torch.linalg.svdvals``: the singular values alone, descending.
    Gradient: U diag(grad) Vh. (``driver``: as svd's, refused on the CPU.)"""
    return _svd_node(A, False, driver)[1]


def svd_function(input, some=True, compute_uv=True):
    """``torch.svd`` (older): (U, S, V) with V = Vh^T; ``some=False`` gives full U and V.
    ``compute_uv=False``: U and V are zeros (of the full shapes), S the singular values."""
    if input.ndim < 2:                      # (its own message, before linalg.svd's checks)
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has "
                           f"{input.ndim} dimensions instead")
    if not compute_uv:
        S = svdvals(input)
        m, n = input.shape[-2], input.shape[-1]
        batch = tuple(input.shape[:-2])
        dtype = input._array.dtype
        return kernel_writes("svd_without_uv", svd_result(
            plain_output(np.zeros(batch + (m, m), dtype=dtype), input), S,
            plain_output(np.zeros(batch + (n, n), dtype=dtype), input)), input)
    U, S, Vh = _svd_node(input, not some)
    return kernel_writes("svd", svd_result(U, S, Vh.transpose(-2, -1)), input,
                         full_matrices=not some)


# --- eigh --------------------------------------------------------------------------------------

class LinalgEighBackward0(Node):
    """results = (L, V) = eigh(A)   ->
        grad_A = V (diag(grad_L) + skew(V^T grad_V) / E) V^T,
        skew(X) = (X - X^T) / 2, E[i, j] = L[j] - L[i] (1 on the diagonal)"""

    _saved_names = ("eigenvalues", "eigenvectors")

    def backward(self, grad_L, grad_V):
        L, V = self.saved_tensors
        if grad_V is None:
            if grad_L is None:
                return (None,)
            return ((V * grad_L.unsqueeze(-2)).matmul(V.mT),)      # V diag(grad_L) V^T
        # V stays orthonormal, so only the skew-symmetric part of V^T grad_V moves it: the
        # other part is projected away (the gradient is then symmetric, as A is)
        inner = V.mT.matmul(grad_V)
        inner = mul_by_number(inner - inner.mT, 0.5)
        # The differences of eigenvalues, with 1 on the diagonal (whose 0 / 1 is replaced
        # by grad_L below). In place, in PyTorch's steps, so that create_graph=True records
        # its nodes.
        E = L.unsqueeze(-2) - L.unsqueeze(-1)
        E.diagonal(0, -2, -1).fill_(1.0)
        inner = inner.div_(E)
        if grad_L is not None:
            inner.diagonal(0, -2, -1).copy_(grad_L)
        return (V.matmul(inner.matmul(V.mT)),)


def _eigh_node(A, UPLO, name):
    check_matrices(name, A)
    refuse_half(A, kernel="linalg_eigh_cpu")
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    values, vectors = np.linalg.eigh(A._array, UPLO=UPLO)
    (L, V), node = several_results([np.ascontiguousarray(values.astype(A._array.dtype)),
                                    lapack_layout(vectors)], LinalgEighBackward0,
                                   (A,), (0, 1))
    if node is not None:
        node.save_for_backward(SavedOutput(L), SavedOutput(V))
    push_tangents((L, V), (A,), lambda tangents: _eigh_tangents(L.detach(), V.detach(), tangents[0]))
    return L, V


def _eigh_tangents(L, V, A_t):
    """Forward mode of eigh: with P = V^T A_t V, L_t = diag(P) and V_t = V (F o P)."""
    P = V.mT.matmul(A_t).matmul(V)
    F = _off_diagonal_inverse(L.unsqueeze(-2) - L.unsqueeze(-1))
    return P.diagonal(0, -2, -1), V.matmul(F * P)


def eigh(A, UPLO="L"):
    """``torch.linalg.eigh``: eigenvalues (ascending) and orthonormal eigenvectors of a
    symmetric matrix, read from its lower (``UPLO='L'``) or upper triangle.
    Gradient: V (diag(grad_L) + F o (V^T grad_V)) V^T."""
    return kernel_writes("eigh", linalg_eigh(*_eigh_node(A, UPLO, "linalg.eigh")), A)


def eigvalsh(A, UPLO="L"):
    """``torch.linalg.eigvalsh``: the eigenvalues of a symmetric matrix, ascending.
    Gradient: V diag(grad) V^T."""
    return _eigh_node(A, UPLO, "linalg.eigvalsh")[0]


# --- qr ----------------------------------------------------------------------------------------

class LinalgQrBackward0(Node):
    """results = (Q, R) = qr(A) (A m x n, m >= n)   ->   grad_A = (grad_Q + Q copyltu(M)) R^-T,
        M = R grad_R^T - grad_Q^T Q, copyltu(M) = tril(M) + tril(M, -1)^T

    A wide A = [X | Y] (m < n) is a square QR of X, with grad_Q + Y grad_V^T for Q (where
    R = [U | V]), and Q grad_V for Y."""

    _saved_names = ("Q", "R")

    def backward(self, grad_Q, grad_R):
        if self.mode == "r":
            raise RuntimeError(
                "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
                "through linalg.qr.")
        Q, R = self.saved_tensors
        m, n = Q.shape[-2], R.shape[-1]
        if self.mode == "complete" and m > n:
            raise RuntimeError(
                "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
        if grad_Q is None and grad_R is None:
            return (None,)
        return (_qr_gradient(Q, R, grad_Q, grad_R),)


def _qr_gradient(Q, R, grad_Q, grad_R):
    """grad_A for A = Q R, in PyTorch's steps (linalg_qr_backward), so that a gradient
    recorded with create_graph=True has the same nodes. (The node's M is this M transposed,
    and its copyltu(M) this sym(triu(M)).)"""
    from .shape import cat
    m, n = Q.shape[-2], R.shape[-1]
    if grad_Q is None:
        M = grad_R.matmul(R.mT)
    elif grad_R is None:
        M = -(Q.mT.matmul(grad_Q))
    else:
        M = grad_R.matmul(R.mT) - Q.mT.matmul(grad_Q)
    if m >= n:
        # Q^T dQ is skew-symmetric and dR R^-1 upper triangular: the upper triangle of M,
        # mirrored into a symmetric matrix (its diagonal counted once)
        upper = M.triu()
        symmetric = upper + upper.mT
        # (times a plain number, in place: PyTorch's C++ records no edge for the number)
        apply_inplace(symmetric.diagonal(0, -2, -1), mul_by_number, 0.5)
        grad_A = Q.matmul(symmetric)
        if grad_Q is not None:
            grad_A = grad_A + grad_Q
        return solve_triangular(R.mT, grad_A, upper=False, left=False)          # ... R^-T
    # a wide A = [A1 | A2]: Q comes from the square part A1 = Q R1 alone, and R = Q^T A
    M = -M
    grad_A = Q.matmul((M - M.mT).tril())
    grad_A = solve_triangular(R.narrow(-1, 0, m).mT, grad_A, upper=False, left=False)
    grad_A = cat([grad_A, grad_A.new_zeros(tuple(R.shape[:-1]) + (n - m,))], -1)
    if grad_R is not None:
        grad_A = grad_A + Q.matmul(grad_R)
    return grad_A


def qr(A, mode="reduced"):
    """``torch.linalg.qr``: A = Q R with orthonormal columns in Q and R upper triangular, as
    the named pair (Q, R). ``mode``: 'reduced' (Q m x k), 'complete' (Q m x m), 'r' (R only,
    Q empty). Gradient: (grad_Q + Q copyltu(M)) R^-T (see LinalgQrBackward0)."""
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' "
                           "(default), 'r', or 'complete'")
    check_matrices("linalg.qr", A, square=False)
    refuse_half(A, kernel="geqrf_cpu")
    array = A._array
    if mode == "r":
        R = np.linalg.qr(array, mode="r")
        Q = np.zeros((0,), dtype=array.dtype)
    else:
        Q, R = np.linalg.qr(array, mode=mode)
    (Q_out, R_out), node = several_results([lapack_layout(Q), lapack_layout(R)], LinalgQrBackward0,
                                           (A,), (0, 1), mode=mode)
    if node is not None:
        node.save_for_backward(SavedOutput(Q_out), SavedOutput(R_out))
    if mode != "r":
        push_tangents((Q_out, R_out), (A,), lambda tangents: _qr_tangents(Q_out.detach(), R_out.detach(),
                                                                         tangents[0], A))
    return kernel_writes("qr", linalg_qr(Q_out, R_out), A, mode=mode)


def _qr_tangents(Q, R, A_t, A=None):
    """Forward mode of qr (m >= n): X = Q^T A_t R^-1 splits into Q^T Q_t (antisymmetric) and
    R_t R^-1 (upper triangular): Omega = tril(X, -1) - tril(X, -1)^T, R_t = (X - Omega) R,
    Q_t = A_t R^-1 - Q (X - Omega). A wide A = [X | Y]: the square QR of X, and V = Q^T Y
    moves by V_t = Q_t^T Y + Q^T Y_t."""
    m, n = Q.shape[-2], R.shape[-1]
    if m < n:
        from .shape import cat
        Q_t, U_t = _qr_tangents(Q, R[..., :m], A_t[..., :m])
        Y, Y_t = A.detach()[..., m:], A_t[..., m:]
        return Q_t, cat([U_t, Q_t.mT.matmul(Y) + Q.mT.matmul(Y_t)], -1)
    A_t_R_inverse = solve(R, A_t, left=False)
    X = Q.mT.matmul(A_t_R_inverse)
    lower = X.tril(-1)
    upper_part = X - (lower - lower.mT)
    return A_t_R_inverse - Q.matmul(upper_part), upper_part.matmul(R)


def qr_function(input, some=True):
    """``torch.qr`` (older): ``linalg.qr`` with ``some=False`` meaning mode='complete'."""
    from .decompositions import warn_once
    warn_once("qr", "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a "
              "future PyTorch release.\nThe boolean parameter 'some' has been replaced with a "
              "string parameter 'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\n"
              "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')")
    return qr_result(*qr(input, "reduced" if some else "complete"))


# --- pinv and matrix_rank ----------------------------------------------------------------------

def _tolerance(S, atol, rtol, shape, hermitian=False):
    """PyTorch's cut-off below which a singular value counts as zero: max(atol, rtol * S_max);
    given neither, rtol = eps * max(m, n)."""
    if atol is None and rtol is None:
        rtol = np.finfo(S.dtype).eps * max(shape[-2], shape[-1])
    atol = 0.0 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    largest = S.max(axis=-1, keepdims=True) if S.shape[-1] else np.zeros(S.shape[:-1] + (1,), S.dtype)
    return np.maximum(np.asarray(atol), np.asarray(rtol) * largest)


class LinalgPinvBackward0(Node):
    """result = P = pinv(A)   ->   grad_A = -P^T grad P^T + (I - A P) grad^T P P^T
        + P^T P grad^T (I - P A)"""

    _saved_names = ("self", "result")

    def backward(self, grad):
        A, P = self.saved_tensors
        return _pinv_gradient(A, P, grad)

    def jvp(self, tangents, inputs, out):
        """result_t = -P A_t P + P P^T A_t^T (I - A P) + (I - P A) A_t^T P^T P"""
        (A,), (A_t,), P = inputs, tangents, out
        A_t_T = A_t.mT
        return (-(P.matmul(A_t).matmul(P)) + P.matmul(P.mT).matmul(A_t_T - A_t_T.matmul(A).matmul(P))
                + (A_t_T - P.matmul(A.matmul(A_t_T))).matmul(P.mT).matmul(P))


def _pinv_gradient(A, P, grad):
    """The formula above in PyTorch's steps (its values, and its nodes under create_graph):
    the products are grouped to keep the matrices small, by whether A is wide or tall. Its
    first term is a transpose, so the gradient is laid out transposed (and AccumulateGrad
    copies it into a .grad laid out as A: version 1)."""
    P_t, grad_t = P.mT, grad.mT
    if A.shape[-2] <= A.shape[-1]:
        K = grad_t.matmul(P)                                  # grad^T P
        K_P_t = K.matmul(P_t)
        return (-(P.matmul(K)).mT + K_P_t - A.matmul(P).matmul(K_P_t)
                + P_t.matmul(P).matmul(grad_t - K.matmul(A)),)
    K = P.matmul(grad_t)                                      # P grad^T
    P_t_K = P_t.matmul(K)
    return (-(K.matmul(P)).mT + (grad_t - A.matmul(K)).matmul(P).matmul(P_t) + P_t_K
            - P_t_K.matmul(P).matmul(A),)


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None):
    """``torch.linalg.pinv``: the Moore-Penrose pseudo-inverse, V diag(1/S) U^T over the singular
    values above max(atol, rtol * S_max) (``rcond``, the older name, is ``rtol``). With
    ``hermitian=True`` A is taken as symmetric (its lower triangle) and eigh replaces the SVD.
    Gradient: see LinalgPinvBackward0."""
    if rcond is not None:
        rtol = rcond
    if A._array.dtype.kind != "f" or A._array.dtype == np.float16 or A.ndim < 2:
        from .._dtype import from_numpy_dtype
        name = from_numpy_dtype(A._array.dtype).tensor_type_name[:-6]
        raise RuntimeError(f"linalg.pinv({name}{{{list(A.shape)}}}): expected a tensor with 2 or "
                           "more dimensions of float, double, cfloat or cdouble types")
    array = A._array
    if hermitian:       # a symmetric A (its lower triangle read): A = V diag(L) V^T, pinv = V diag(1/L) V^T
        values, V = np.linalg.eigh(array, UPLO="L")
        keep = np.abs(values) > _tolerance(np.abs(values), atol, rtol, array.shape)
        inverse_L = np.where(keep, 1 / np.where(keep, values, 1), 0).astype(array.dtype)
        value = V @ (inverse_L[..., None] * np.swapaxes(V, -1, -2))
    else:
        U, S, Vh = lapack_svd(array, full_matrices=False)
        keep = S > _tolerance(S, atol, rtol, array.shape)
        inverse_S = np.where(keep, 1 / np.where(keep, S, 1), 0).astype(array.dtype)
        value = np.swapaxes(Vh, -1, -2) @ (inverse_S[..., None] * np.swapaxes(U, -1, -2))
    out = result(np.ascontiguousarray(value, dtype=array.dtype), LinalgPinvBackward0, (A,))
    from . import save_result
    return save_result(out, A)


def pinverse(input, rcond=1e-15):
    """``torch.pinverse`` / ``x.pinverse()``: ``linalg.pinv(input, rtol=rcond)``."""
    return pinv(input, rtol=rcond)


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None):
    """``torch.linalg.matrix_rank``: how many singular values are above the tolerance
    (int64, no gradient). ``tol``, the older spelling, is ``atol`` with no ``rtol``."""
    if tol is not None:
        atol, rtol = tol, 0.0
    check_matrices("linalg.matrix_rank", A, square=False)
    refuse_half(A, message="This function doesn't handle types other than float and double")
    # PyTorch counts the singular values it gets from a recorded svdvals (or eigvalsh), which
    # looks up A's history first: a view whose history was lost raises here
    check_history_kept(A)
    if hermitian:     # the singular values of a symmetric matrix are its |eigenvalues|
        S = np.abs(np.linalg.eigvalsh(A._array, UPLO="L"))
    else:
        S = lapack_svd(A._array, compute_uv=False)
    rank = (S > _tolerance(S, atol, rtol, A._array.shape)).sum(axis=-1)
    return kernel_writes("matrix_rank", plain_output(np.asarray(rank, dtype=np.int64), A), A)


# --- lstsq -------------------------------------------------------------------------------------

linalg_lstsq = named_result("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
_register(linalg_lstsq)


class LinalgLstsqBackward0(Node):
    """results = (X, residuals) = lstsq(A, B), X = pinv(A) B   ->
        grad_B = pinv(A)^T grad_X + 2 (B - A X) grad_residuals; grad_A = pinv's gradient for
        grad_X B^T + 2 (A X - B) grad_residuals X^T"""

    _saved_names = ("b", "self", "solution")

    def backward(self, grad_X, grad_residuals):
        B, A, X = self.saved_tensors
        if self.vector_case:
            B, X = B.unsqueeze(-1), X.unsqueeze(-1)
            grad_X = grad_X.unsqueeze(-1) if grad_X is not None else None
        grad_A = grad_B = None
        if grad_X is not None:
            P = pinv(A, rtol=self.rcond)
            grad_B = P.mT.matmul(grad_X)
            grad_P = grad_X.matmul(B.mT)
            (grad_A,) = _pinv_gradient(A, P, grad_P)
        if grad_residuals is not None and grad_residuals.numel():
            # at the least-squares solution the residual's slope in X is 0: only A and B move it
            misfit = A.matmul(X) - B
            weighted = 2 * misfit * grad_residuals.unsqueeze(-2)
            grad_A = weighted.matmul(X.mT) + (grad_A if grad_A is not None else 0)
            grad_B = -weighted + (grad_B if grad_B is not None else 0)
        if self.vector_case and grad_B is not None:
            grad_B = grad_B.squeeze(-1)
        return grad_A, grad_B


def _lstsq_tangent(A, B, tangents, rcond, vector_case):
    """X = pinv(A) B, so X_t = pinv(A)_t B + pinv(A) B_t (pinv's forward rule)."""
    A, B = A.detach(), B.detach()
    A_t, B_t = tangents
    if vector_case:
        B, B_t = B.unsqueeze(-1), B_t.unsqueeze(-1)
    P = pinv(A, rtol=rcond)
    P_t = LinalgPinvBackward0.jvp(None, (A_t,), (A,), P)
    X_t = P_t.matmul(B) + P.matmul(B_t)
    return X_t.squeeze(-1) if vector_case else X_t


_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq_layout(solution, rows):
    """numpy: the (n, k) solutions laid out as LAPACK leaves them: the first n rows of a column-
    major (max(m, n), k) buffer, which held B (so a column steps by max(m, n))."""
    buffer = np.empty(solution.shape[:-2] + (solution.shape[-1], rows), dtype=solution.dtype)
    buffer = np.swapaxes(buffer, -1, -2)[..., :solution.shape[-2], :]
    buffer[...] = solution
    return buffer


def lstsq(A, B, rcond=None, *, driver=None):
    """``torch.linalg.lstsq``: X minimising ||A X - B|| (the smallest such X if A is rank
    deficient), as the named result (solution, residuals, rank, singular_values).

    Which of the others are filled depends on ``driver`` as in PyTorch (CPU default 'gelsy'):
    rank for gelsy/gelsd/gelss, singular_values for gelsd/gelss, residuals (squared, per
    column of B) for the others when A is tall and of full rank. Gradient: through pinv(A) B.
    """
    driver = "gelsy" if driver is None else driver
    if driver not in _LSTSQ_DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of "
                           "(gels, gelsy, gelsd, gelss)")
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    vector_case = B.ndim == A.ndim - 1
    if A._array.dtype != B._array.dtype:
        from .._dtype import from_numpy_dtype
        raise RuntimeError("torch.linalg.lstsq: Expected input and other to have the same dtype, but "
                           f"got input's dtype {from_numpy_dtype(A._array.dtype).tensor_type_name[:-6]} "
                           f"and other's dtype {from_numpy_dtype(B._array.dtype).tensor_type_name[:-6]}")
    b = B._array[..., None] if vector_case else B._array
    if b.shape[-2] != A.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    check_floating("torch.linalg.lstsq", A)
    refuse_half(A, message="This function doesn't handle types other than float and double")
    a = A._array
    m, n = a.shape[-2], a.shape[-1]
    dtype = a.dtype
    rcond = float(np.finfo(dtype).eps * max(m, n)) if rcond is None else rcond
    U, S, Vh = np.linalg.svd(a, full_matrices=False)
    keep = S > rcond * (S.max(axis=-1, keepdims=True) if S.shape[-1] else 0)
    inverse_S = np.where(keep, 1 / np.where(keep, S, 1), 0)
    solution = np.swapaxes(Vh, -1, -2) @ (inverse_S[..., None] * (np.swapaxes(U, -1, -2) @ b))
    rank = keep.sum(axis=-1)
    if driver != "gelsy" and m > n and np.all(rank == n):
        residuals = ((a @ solution - b) ** 2).sum(axis=-2)
        residuals = residuals[..., 0] if vector_case else residuals
    else:
        residuals = np.zeros((0,), dtype=dtype)
    solution = _lstsq_layout(solution.astype(dtype), max(m, n))
    if vector_case:
        solution = solution[..., 0]
    (X, R), node = several_results([solution,
                                    np.ascontiguousarray(residuals.astype(dtype))],
                                   LinalgLstsqBackward0, (A, B), (0, 1), vector_case=vector_case,
                                   rcond=rcond)
    if node is not None:
        node.save_for_backward(B, A, SavedOutput(X))
    push_tangents((X,), (A, B), lambda tangents: (_lstsq_tangent(A, B, tangents, rcond, vector_case),))
    rank_out = plain_output(np.asarray(rank if driver != "gels" else np.zeros((0,)), dtype=np.int64), A)
    values = S if driver in ("gelsd", "gelss") else np.zeros((0,))
    return kernel_writes("lstsq", linalg_lstsq(X, R, rank_out, plain_output(np.asarray(values, dtype=dtype), A)), A, B)


# --- matrix_exp --------------------------------------------------------------------------------

def _exp_arrays(array):
    """e^A = I + A + A^2/2! + ..., after scaling A down by 2^s (so the series converges fast),
    then squared s times: e^A = (e^(A / 2^s))^(2^s)."""
    if array.size == 0:
        return array.copy()
    dtype = array.dtype
    array = array.astype(np.float64)        # (float32 too: the squarings would add up its rounding)
    size = np.abs(array).sum(axis=-2).max()          # the 1-norm of the largest matrix
    s = max(0, int(np.ceil(np.log2(size))) + 1) if size > 0 else 0
    scaled = array / 2.0 ** s
    total = np.broadcast_to(np.eye(array.shape[-1], dtype=array.dtype), array.shape).copy()
    term = total.copy()
    for k in range(1, 30):
        term = term @ scaled / k
        total = total + term
    for _ in range(s):
        total = total @ total
    return total.astype(dtype)


class LinalgMatrixExpBackward0(Node):
    """result = e^A   ->   grad_A = the top-right block of exp([[A^T, grad], [0, A^T]])"""

    _saved_names = ("self",)

    def backward(self, grad):
        (A,) = self.saved_tensors
        A_t = A.mT
        n = A.shape[-1]
        # The block matrix [[A^T, grad], [0, A^T]] is built by copying into a zero matrix
        # twice A's size (not by concatenating): written this way the recorded graph
        # (create_graph=True) has PyTorch's nodes, three CopySlices and two SliceBackward0.
        block = grad.new_zeros(tuple(A.shape[:-2]) + (2 * n, 2 * n))
        block.narrow(-2, 0, n).narrow(-1, 0, n).copy_(A_t)
        block.narrow(-2, n, n).narrow(-1, n, n).copy_(A_t)
        block.narrow(-2, 0, n).narrow(-1, n, n).copy_(grad)
        return (matrix_exp(block).narrow(-2, 0, n).narrow(-1, n, n),)


def matrix_exp(A):
    """``torch.linalg.matrix_exp`` / ``torch.matrix_exp``: e^A = I + A + A^2/2! + ...
    Gradient: the top-right block of exp([[A^T, grad], [0, A^T]])."""
    check_matrices("linalg.matrix_exp", A)
    out = result(np.ascontiguousarray(_exp_arrays(A._array)), LinalgMatrixExpBackward0, (A,),
                 saved=(A,))
    return kernel_writes("matrix_exp", out, A)


show_settings(LinalgSvdBackward0, full_matrices="full_matrices",
              S_sym_argsize_minus_1="S_sym_argsize_minus_1")
show_settings(LinalgEighBackward0)
show_settings(LinalgQrBackward0, mode="mode")
show_settings(LinalgPinvBackward0)
show_settings(LinalgMatrixExpBackward0)
show_settings(LinalgLstsqBackward0)

