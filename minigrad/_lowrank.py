"""Randomized low-rank SVD and PCA: torch.svd_lowrank and torch.pca_lowrank.

Halko, Martinsson and Tropp (2009), "Finding structure with randomness": multiply A by a
random n x q matrix; the columns of the product span (nearly) the range of A's q largest
singular directions. Orthonormalize them (QR), sharpen them with a few power iterations
(A^T Q, then A Q, each orthonormalized again), project A onto them (B = Q^T A, only q rows; real matrices: .mT is PyTorch's .mH)
and take the small SVD of B. Everything is composed of differentiable operations (randn,
matmul, qr, svd), so the graph is theirs, as in PyTorch (which writes these in Python too).
"""
from ._ops.linalg import matmul
from ._creation import randn


def _floating_dtype(A):
    """A's dtype if it is floating, else float32 (what the random matrix is drawn in)."""
    from . import float32
    return A.dtype if A.is_floating_point() else float32


def get_approximate_basis(A, q, niter=2, M=None):
    """An m x q matrix Q with orthonormal columns whose span nearly holds the range of A - M
    (Algorithm 4.4 of Halko et al., with ``niter`` power iterations)."""
    from .linalg import qr
    niter = 2 if niter is None else niter
    R = randn(A.shape[-1], q, dtype=_floating_dtype(A))
    X = matmul(A, R)
    if M is not None:
        X = X - matmul(M, R)
    Q = qr(X).Q
    for _ in range(niter):
        X = matmul(A.mT, Q)
        if M is not None:
            X = X - matmul(M.mT, Q)
        Q = qr(X).Q
        X = matmul(A, Q)
        if M is not None:
            X = X - matmul(M, Q)
        Q = qr(X).Q
    return Q


def svd_lowrank(A, q=6, niter=2, M=None):
    """``torch.svd_lowrank``: (U, S, V) with A - M ~ U diag(S) V^T, of rank ``q``, by a
    randomized method (draws from the global generator: seed it for repeatable results).
    ``niter``: power iterations (more: more accurate for slowly decaying singular values)."""
    from .linalg import svd
    q = 6 if q is None else q
    m, n = A.shape[-2], A.shape[-1]
    if M is not None:
        M = M.broadcast_to(A.size())
    if m < n:                      # the method wants a tall matrix: work on A^T, swap U and V
        A = A.mT
        if M is not None:
            M = M.mT
    Q = get_approximate_basis(A, q, niter=niter, M=M)
    B = matmul(Q.mT, A)
    if M is not None:
        B = B - matmul(Q.mT, M)
    U, S, Vh = svd(B, full_matrices=False)
    V = Vh.mT
    U = Q.matmul(U)
    if m < n:
        U, V = V, U
    return U, S, V


def pca_lowrank(A, q=None, center=True, niter=2):
    """``torch.pca_lowrank``: (U, S, V), the low-rank SVD of A with each column's mean taken
    out first (``center``); the principal directions are V's columns, the data projected on
    the first k of them ``A @ V[:, :k]``. ``q`` defaults to min(6, m, n)."""
    m, n = A.shape[-2], A.shape[-1]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not (niter >= 0):
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return svd_lowrank(A, q, niter=niter)
    C = A.mean(dim=(-2,), keepdim=True)
    return svd_lowrank(A - C, q, niter=niter)
