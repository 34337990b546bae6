"""torch.lobpcg: a few extreme eigenpairs of a large symmetric (generalized) eigenproblem.

LOBPCG (Locally Optimal Block Preconditioned Conjugate Gradient, Knyazev 2001) looks for the
k largest (or smallest) solutions of A x = lambda B x without factorizing A: it only multiplies
A by blocks of vectors. Each step searches the span of three blocks,

    S = [X, P, W]     X: the current eigenvector guesses,
                      P: the step just taken (the "conjugate direction"),
                      W: the preconditioned residuals iK (A X - B X E),

and keeps the best vectors of that span (the Rayleigh-Ritz procedure: solve the small
eigenproblem S^T A S z = theta S^T B S z). Eigenpairs whose residual is small enough are
"converged" and are no longer searched for.

Two variants, as in PyTorch: ``method="basic"`` (Knyazev's, which makes S^T B S well
conditioned with a Cholesky factorization, and can fail when S's columns become dependent),
and ``method="ortho"`` (the default: S is kept B-orthonormal, Stathopoulos and Wu 2002,
Duersch et al. 2018, so the small problem is a plain symmetric one).

PyTorch writes all of this in Python on tensor operations (torch/_lobpcg.py); so does minigrad,
with the same steps in the same order, so results agree with PyTorch's to rounding (numpy's
LAPACK may pick other signs for eigenvectors). Its gradient (for B=None) is the
LOBPCGAutogradFunction below: a custom autograd Function, as in PyTorch.
"""
import minigrad as torch
from . import _linalg_utils as _utils
from .autograd.function import Function

__all__ = ["lobpcg"]


# --- the backward: how the k eigenpairs move when A moves ----------------------------------------

def _symeig_backward_complete_eigenspace(D_grad, U_grad, A, D, U):
    """The gradient of A = U diag(D) U^T when U holds all of A's eigenvectors (k = m):
    U (diag(D_grad) + (U^T U_grad) * F) U^T with F_ij = 1 / (d_j - d_i), F_ii = 0."""
    F = D.unsqueeze(-2) - D.unsqueeze(-1)
    F.diagonal(dim1=-2, dim2=-1).fill_(float("inf"))   # 1/inf = 0 on the diagonal
    F.pow_(-1)
    Ut = U.mT.contiguous()
    return torch.matmul(U, torch.matmul(torch.diag_embed(D_grad) + torch.matmul(Ut, U_grad) * F, Ut))


def _polynomial_coefficients_given_roots(roots):
    """The coefficients (a_0, ..., a_n = 1) of (x - r_1) ... (x - r_n), along the last dim.

    Multiplying the polynomial by (x - r) one root at a time: a new a_j is a_(j-1) - r a_j.
    The coefficients sit at the end of a row of n + 2 numbers, the polynomial of degree i in
    its last i + 1 places, so each step is one subtraction on a window one place wider (the
    first place is a spare that keeps every window inside the row). When the roots require
    grad, each step works on a copy, so that the graph records every step."""
    n = roots.shape[-1]
    shape = list(roots.shape)
    shape[-1] += 2
    coefficients = roots.new_zeros(shape)
    coefficients[..., 0] = 1          # the spare place (never read back)
    coefficients[..., -1] = 1         # the leading coefficient
    for i in range(1, n + 1):
        new = coefficients.clone() if roots.requires_grad else coefficients
        window = new.narrow(-1, n - i, i + 1)
        window -= roots.narrow(-1, i - 1, 1) * coefficients.narrow(-1, n - i + 1, i + 1)
        coefficients = new
    return coefficients.narrow(-1, 1, n + 1)


def _polynomial_value(poly, x, zero_power, transition):
    """poly(x) by Horner's rule: start from x^0 (``zero_power``) and apply
    ``transition(value, x, coefficient)`` = x * value + coefficient, from the highest
    coefficient but one down to a_0 (the highest is 1, already in ``zero_power``)."""
    value = zero_power.clone()
    for k in range(poly.size(-1) - 2, -1, -1):
        value = transition(value, x, poly[..., k])
    return value


def _matrix_polynomial_value(poly, x, zero_power=None):
    """poly(x) for a (batch of) square matrix x: Horner's rule with x @ value + a_k I."""
    def transition(value, x, coefficient):
        value = x.matmul(value)
        value.diagonal(dim1=-2, dim2=-1).add_(coefficient.unsqueeze(-1))
        return value

    if zero_power is None:
        size = x.size(-1)
        zero_power = torch.eye(size, size, dtype=x.dtype, device=x.device).view(
            *([1] * len(list(x.shape[:-2]))), size, size)
    return _polynomial_value(poly, x, zero_power, transition)


def _vector_polynomial_value(poly, x, zero_power=None):
    """poly(x) for each number of a (batch of) vector x: Horner's rule with x * value + a_k."""
    def transition(value, x, coefficient):
        return torch.addcmul(coefficient.unsqueeze(-1), x, value)

    if zero_power is None:
        zero_power = x.new_ones(1).expand(x.shape)
    return _polynomial_value(poly, x, zero_power, transition)


def _symeig_backward_partial_eigenspace(D_grad, U_grad, A, D, U, largest):
    """The gradient of A when U holds only k < m eigenvectors (what lobpcg returns).

    The part inside span(U) is the complete-eigenspace formula. The part in the orthogonal
    complement needs dX with (U_o^T A U_o) dX - dX diag(D) = -U_o^T dA U (a Sylvester equation),
    solved without A's other eigenvectors by the polynomial solution of Hu and Cheng (2006):
    with p the characteristic polynomial of diag(D) (its roots are D), the solution involves
    p(A) restricted to the complement and sums of A^j U_grad weighted by polynomials in D.
    U_o is a basis of that complement drawn at random, from a generator of fixed seed, so the
    gradient is the same on every call."""
    # I - U U^T projects onto the orthogonal complement of span(U)
    Ut = U.mT.contiguous()
    proj_U_ortho = -U.matmul(Ut)
    proj_U_ortho.diagonal(dim1=-2, dim2=-1).add_(1)
    gen = torch.Generator(A.device)
    U_ortho = proj_U_ortho.matmul(torch.randn(
        (*A.shape[:-1], A.size(-1) - D.size(-1)), dtype=A.dtype, device=A.device, generator=gen))
    U_ortho_t = U_ortho.mT.contiguous()

    chr_poly_D = _polynomial_coefficients_given_roots(D)

    # series_acc = sum over k of A^(k-1) U_grad * q_k(D), q_k the tail of p from a_k on
    # (one product by A per term, instead of a matrix power each time)
    U_grad_projected = U_grad
    series_acc = U_grad_projected.new_zeros(U_grad_projected.shape)
    for k in range(1, chr_poly_D.size(-1)):
        poly_D = _vector_polynomial_value(chr_poly_D[..., k:], D)
        series_acc += U_grad_projected * poly_D.unsqueeze(-2)
        U_grad_projected = A.matmul(U_grad_projected)

    # p(A) seen from the complement: U_o^T p(A) U_o. Its eigenvalues are p at A's other
    # eigenvalues, all of one sign when D are the k smallest (positive) or the k largest
    # (the sign of (-1)^k); so it is (plus or minus) positive definite: solve with Cholesky.
    chr_poly_D_at_A = _matrix_polynomial_value(chr_poly_D, A)
    chr_poly_D_at_A_to_U_ortho = torch.matmul(U_ortho_t, torch.matmul(chr_poly_D_at_A, U_ortho))
    sign = -1 if (largest and (D.size(-1) % 2 == 1)) else +1
    L = torch.linalg.cholesky(sign * chr_poly_D_at_A_to_U_ortho)

    res = _symeig_backward_complete_eigenspace(D_grad, U_grad, A, D, U)
    res -= U_ortho.matmul(sign * torch.cholesky_solve(U_ortho_t.matmul(series_acc), L)).matmul(Ut)
    return res


def _symeig_backward(D_grad, U_grad, A, D, U, largest):
    """The gradient of A from those of its eigenvalues D and eigenvectors U (columns)."""
    if U.size(-1) == U.size(-2):        # all the eigenvectors: the closed formula
        return _symeig_backward_complete_eigenspace(D_grad, U_grad, A, D, U)
    return _symeig_backward_partial_eigenspace(D_grad, U_grad, A, D, U, largest)


class LOBPCGAutogradFunction(Function):
    """lobpcg as one node of the graph (``LOBPCGAutogradFunctionBackward``): its forward runs
    the iterations without recording them, its backward differentiates the eigenpairs found
    (for a symmetric A and B=None only)."""

    @staticmethod
    def forward(ctx, A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None,
                largest=None, method=None, tracker=None, ortho_iparams=None, ortho_fparams=None,
                ortho_bparams=None):
        """The eigenpairs (D, U) of ``_lobpcg``; A, B, D and U are kept for backward."""
        A = A.contiguous()
        if B is not None:
            B = B.contiguous()
        D, U = _lobpcg(A, k, B, X, n, iK, niter, tol, largest, method, tracker,
                       ortho_iparams, ortho_fparams, ortho_bparams)
        ctx.save_for_backward(A, B, D, U)
        ctx.largest = largest
        return D, U

    @staticmethod
    def backward(ctx, D_grad, U_grad):
        """results = (E, U) = lobpcg(A), U: k of A's eigenvectors   ->
            grad_A = U (diag(grad_E) + F o (U^T grad_U)) U^T + the part outside span(U),
            F[i, j] = 1 / (E[j] - E[i])

        The part outside span(U) solves a Sylvester equation (``_symeig_backward``). B's
        gradient is not implemented: with B given, a ValueError (as in PyTorch)."""
        A, B, D, U = ctx.saved_tensors
        if B is not None:
            raise ValueError("lobpcg.backward does not support backward with B != I yet.")
        largest = True if ctx.largest is None else ctx.largest
        grads = [None] * 14                 # one per forward argument: only A (index 0) gets one
        grads[0] = _symeig_backward(D_grad, U_grad, A, D, U, largest)
        return tuple(grads)


def lobpcg(A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None,
           method=None, tracker=None, ortho_iparams=None, ortho_fparams=None, ortho_bparams=None):
    """``torch.lobpcg``: the k largest (or smallest) eigenvalues E and eigenvectors X of the
    symmetric positive definite problem A X = B X diag(E), by LOBPCG iterations.

    A, B: (*, m, m) (B=None: the identity). X: (*, m, n), an initial guess of the eigenvectors
    (default: n = k random columns from the global generator: seed it for repeatable results).
    k defaults to X's column count or 1; it must hold that m >= 3 n. iK: a preconditioner
    (an approximate inverse of A). niter: the most iterations (default 1000; -1: until
    converged). tol: the residual tolerance (default sqrt of the dtype's epsilon). largest:
    the largest eigenvalues (default True) or the smallest. method: "ortho" (default) or
    "basic". tracker(worker): called after each iteration with the LOBPCG worker (its
    ``ivars["istep"]``, ``X``, ``E``, ``R``, ``tvars["rerr"]``...); setting
    ``worker.bvars["force_stop"] = True`` stops the iterations. ortho_iparams / fparams /
    bparams: settings of the "ortho" method (ortho_i_max, ortho_j_max, ortho_tol,
    ortho_tol_drop, ortho_tol_replace, ortho_use_drop).

    Returns (E, X): E of shape (*, k), X of shape (*, m, k).

    Differentiable for A when B is None. Since A is assumed symmetric but its gradient need not
    be, A is first replaced by (A + A^T) / 2 when it (or B) requires grad, so that the gradient
    is symmetric too.
    """
    if A.requires_grad or (B is not None and B.requires_grad):
        A_sym = (A + A.mT) / 2
        B_sym = (B + B.mT) / 2 if B is not None else None
        return LOBPCGAutogradFunction.apply(A_sym, k, B_sym, X, n, iK, niter, tol, largest, method,
                                            tracker, ortho_iparams, ortho_fparams, ortho_bparams)
    return _lobpcg(A, k, B, X, n, iK, niter, tol, largest, method, tracker,
                   ortho_iparams, ortho_fparams, ortho_bparams)


def _lobpcg(A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None,
            method=None, tracker=None, ortho_iparams=None, ortho_fparams=None, ortho_bparams=None):
    """Check the arguments, fill in the defaults, and run one LOBPCG worker per matrix."""
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")

    dtype = _utils.get_floating_dtype(A)
    device = A.device
    if tol is None:
        feps = {torch.float32: 1.2e-07, torch.float64: 2.23e-16}[dtype]
        tol = feps ** 0.5

    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]     # a given X decides n
    if m < 3 * n:       # S = [X, P, W] has 3 n columns, which must fit in m dimensions
        raise ValueError(
            f"LOBPCG algorithm is not applicable when the number of A rows (={m})"
            f" is smaller than 3 x the number of requested eigenpairs (={n})")

    method = "ortho" if method is None else method
    iparams = {"m": m, "n": n, "k": k, "niter": 1000 if niter is None else niter}
    fparams = {"tol": tol}
    bparams = {"largest": True if largest is None else largest}
    if method == "ortho":               # (the ortho_* settings are read only by this method)
        if ortho_iparams is not None:
            iparams.update(ortho_iparams)
        if ortho_fparams is not None:
            fparams.update(ortho_fparams)
        if ortho_bparams is not None:
            bparams.update(ortho_bparams)
        iparams["ortho_i_max"] = iparams.get("ortho_i_max", 3)
        iparams["ortho_j_max"] = iparams.get("ortho_j_max", 3)
        fparams["ortho_tol"] = fparams.get("ortho_tol", tol)
        fparams["ortho_tol_drop"] = fparams.get("ortho_tol_drop", tol)
        fparams["ortho_tol_replace"] = fparams.get("ortho_tol_replace", tol)
        bparams["ortho_use_drop"] = bparams.get("ortho_use_drop", False)

    if len(A.shape) > 2:                # a batch: one worker per matrix, in order
        N = int(torch.prod(torch.tensor(A.shape[:-2])))
        bA = A.reshape((N,) + A.shape[-2:])
        bB = B.reshape((N,) + A.shape[-2:]) if B is not None else None
        bX = X.reshape((N,) + X.shape[-2:]) if X is not None else None
        bE = torch.empty((N, k), dtype=dtype, device=device)
        bXret = torch.empty((N, m, k), dtype=dtype, device=device)
        for i in range(N):
            A_ = bA[i]
            B_ = bB[i] if bB is not None else None
            X_ = torch.randn((m, n), dtype=dtype, device=device) if bX is None else bX[i]
            if not (len(X_.shape) == 2 and X_.shape == (m, n)):
                raise AssertionError(f"X_ shape mismatch: got {X_.shape}, expected {(m, n)}")
            iparams["batch_index"] = i
            worker = LOBPCG(A_, B_, X_, iK, iparams, fparams, bparams, method, tracker)
            worker.run()
            bE[i] = worker.E[:k]
            bXret[i] = worker.X[:, :k]
        return bE.reshape(A.shape[:-2] + (k,)), bXret.reshape(A.shape[:-2] + (m, k))

    X = torch.randn((m, n), dtype=dtype, device=device) if X is None else X
    if not (len(X.shape) == 2 and X.shape == (m, n)):
        raise AssertionError(f"X shape mismatch: got {X.shape}, expected {(m, n)}")
    worker = LOBPCG(A, B, X, iK, iparams, fparams, bparams, method, tracker)
    worker.run()
    return worker.E[:k], worker.X[:, :k]


class LOBPCG:
    """The state of one LOBPCG run (what a ``tracker`` sees after each iteration).

    Inputs: ``A``, ``B``, ``iK``; settings ``iparams`` (m, n, k, niter, ortho_*), ``fparams``
    (tol, ortho_tol*), ``bparams`` (largest, ortho_use_drop). Iteration variables: ``X`` (m x n,
    the eigenvector guesses), ``E`` (n, their eigenvalues), ``R`` (the residuals A X - B X E),
    ``S`` (m x 3n: the search basis [X, P, W]), and the dictionaries ``ivars`` (istep,
    converged_count, converged_end, iterations_left), ``fvars`` (norms, ortho errors),
    ``bvars`` (force_stop) and ``tvars`` (rerr, the relative residual of each pair)."""

    def __init__(self, A, B, X, iK, iparams, fparams, bparams, method, tracker):
        self.A = A
        self.B = B
        self.iK = iK
        self.iparams = iparams
        self.fparams = fparams
        self.bparams = bparams
        self.method = method
        self.tracker = tracker
        m = iparams["m"]
        n = iparams["n"]
        self.X = X
        self.E = torch.zeros((n,), dtype=X.dtype, device=X.device)
        self.R = torch.zeros((m, n), dtype=X.dtype, device=X.device)
        self.S = torch.zeros((m, 3 * n), dtype=X.dtype, device=X.device)
        self.tvars = {}
        self.ivars = {"istep": 0}
        self.fvars = {"_": 0.0}
        self.bvars = {"_": False}

    def __str__(self):
        lines = ["LOBPCG:"]
        for name in ("iparams", "fparams", "bparams", "ivars", "fvars", "bvars", "tvars",
                     "A", "B", "iK", "X", "E"):
            lines.append(f"  {name}={getattr(self, name)}")
        return "".join(line + "\n" for line in lines)

    def update(self):
        """One iteration (the first one also measures the norms the convergence test uses)."""
        if self.ivars["istep"] == 0:
            X_norm = float(torch.norm(self.X))
            iX_norm = X_norm ** -1
            self.fvars["X_norm"] = X_norm
            self.fvars["A_norm"] = float(torch.norm(_utils.matmul(self.A, self.X))) * iX_norm
            self.fvars["B_norm"] = float(torch.norm(_utils.matmul(self.B, self.X))) * iX_norm
            self.ivars["iterations_left"] = self.iparams["niter"]
            self.ivars["converged_count"] = 0
            self.ivars["converged_end"] = 0
        if self.method == "ortho":
            self._update_ortho()
        else:
            self._update_basic()
        self.ivars["iterations_left"] = self.ivars["iterations_left"] - 1
        self.ivars["istep"] = self.ivars["istep"] + 1

    def update_residual(self):
        """R = A X - B X diag(E)."""
        mm = _utils.matmul
        self.R = mm(self.A, self.X) - mm(self.B, self.X) * self.E

    def update_converged_count(self):
        """How many leading eigenpairs have converged: those whose backward-stable relative
        residual |r| / (|x| (|A| + |e| |B|)) is below tol (Duersch et al. 2018, section 4.3),
        counted from the first up to the first that has not, so the pairs stay in order."""
        prev_count = self.ivars["converged_count"]
        tol = self.fparams["tol"]
        A_norm = self.fvars["A_norm"]
        B_norm = self.fvars["B_norm"]
        E, X, R = self.E, self.X, self.R
        rerr = torch.norm(R, 2, (0,)) / (
            torch.norm(X, 2, (0,)) * (A_norm + torch.abs(E[: X.shape[-1]]) * B_norm))
        converged = rerr < tol
        count = 0
        for b in converged:
            if not b:
                break
            count += 1
        if count < prev_count:
            raise AssertionError(
                f"the number of converged eigenpairs (was {prev_count}, got {count}) cannot decrease")
        self.ivars["converged_count"] = count
        self.tvars["rerr"] = rerr
        return count

    def stop_iteration(self):
        """True when forced by a tracker, out of iterations, or k pairs have converged."""
        return (self.bvars.get("force_stop", False)
                or self.ivars["iterations_left"] == 0
                or self.ivars["converged_count"] >= self.iparams["k"])

    def run(self):
        """Iterate until ``stop_iteration`` (at least once), calling the tracker after each step."""
        self.update()
        if self.tracker is not None:
            self.call_tracker()
        while not self.stop_iteration():
            self.update()
            if self.tracker is not None:
                self.call_tracker()

    def call_tracker(self):
        """Hand this worker to the user's tracker."""
        self.tracker(self)

    # --- the two methods' steps ---

    def _update_basic(self):
        """One step of Knyazev's method: Rayleigh-Ritz on S = [X, P, W] made B-orthonormal by
        a Cholesky factorization (``_get_rayleigh_ritz_transform``). X and E change in place."""
        mm = torch.matmul
        ns = self.ivars["converged_end"]
        nc = self.ivars["converged_count"]
        n = self.iparams["n"]
        largest = self.bparams["largest"]

        if self.ivars["istep"] == 0:    # the first search space is X alone: no P yet
            Ri = self._get_rayleigh_ritz_transform(self.X)
            M = _utils.qform(_utils.qform(self.A, self.X), Ri)
            E, Z = _utils.symeig(M, largest)
            self.X[:] = mm(self.X, mm(Ri, Z))
            self.E[:] = E
            np = 0
            self.update_residual()
            nc = self.update_converged_count()
            self.S[..., :n] = self.X
            W = _utils.matmul(self.iK, self.R)
            self.ivars["converged_end"] = ns = n + np + W.shape[-1]
            self.S[:, n + np: ns] = W
        else:                           # converged columns (before nc) are left out of S
            S_ = self.S[:, nc:ns]
            Ri = self._get_rayleigh_ritz_transform(S_)
            M = _utils.qform(_utils.qform(self.A, S_), Ri)
            E_, Z = _utils.symeig(M, largest)
            self.X[:, nc:] = mm(S_, mm(Ri, Z[:, : n - nc]))
            self.E[nc:] = E_[: n - nc]
            P = mm(S_, mm(Ri, Z[:, n: 2 * n - nc]))
            np = P.shape[-1]
            self.update_residual()
            nc = self.update_converged_count()
            self.S[..., :n] = self.X
            self.S[:, n: n + np] = P
            W = _utils.matmul(self.iK, self.R[:, nc:])
            self.ivars["converged_end"] = ns = n + np + W.shape[-1]
            self.S[:, n + np: ns] = W

    def _update_ortho(self):
        """One step of the orthogonal method: S = [X, P, W] is kept B-orthonormal
        (``_get_ortho``), so Rayleigh-Ritz is a plain symmetric eigenproblem of S^T A S."""
        mm = torch.matmul
        ns = self.ivars["converged_end"]
        nc = self.ivars["converged_count"]
        n = self.iparams["n"]
        largest = self.bparams["largest"]

        if self.ivars["istep"] == 0:
            Ri = self._get_rayleigh_ritz_transform(self.X)
            M = _utils.qform(_utils.qform(self.A, self.X), Ri)
            _E, Z = _utils.symeig(M, largest)
            # (X is a new tensor here, and E stays 0 until the next step, as in PyTorch)
            self.X = mm(self.X, mm(Ri, Z))
            self.update_residual()
            np = 0
            nc = self.update_converged_count()
            self.S[:, :n] = self.X
            W = self._get_ortho(self.R, self.X)
            ns = self.ivars["converged_end"] = n + np + W.shape[-1]
            self.S[:, n + np: ns] = W
        else:
            S_ = self.S[:, nc:ns]
            E_, Z = _utils.symeig(_utils.qform(self.A, S_), largest)     # Rayleigh-Ritz
            self.X[:, nc:] = mm(S_, Z[:, : n - nc])
            self.E[nc:] = E_[: n - nc]
            # P: the part of the other Ritz vectors orthogonal to the new X's coefficients
            P = mm(S_, mm(Z[:, n - nc:], _utils.basis(Z[: n - nc, n - nc:].mT)))
            np = P.shape[-1]
            self.update_residual()
            nc = self.update_converged_count()
            self.S[:, :n] = self.X
            self.S[:, n: n + np] = P
            W = self._get_ortho(self.R[:, nc:], self.S[:, : n + np])
            ns = self.ivars["converged_end"] = n + np + W.shape[-1]
            self.S[:, n + np: ns] = W

    def _get_rayleigh_ritz_transform(self, S):
        """Ri, upper triangular, with Ri^T (S^T B S) Ri = I, so that S^T A S c = theta S^T B S c
        becomes the standard problem (Ri^T S^T A S Ri) z = theta z with c = Ri z.

        As in Duersch et al. (2018): scale S^T B S by d = diag(S^T B S)^(-1/2) on both sides
        (elementwise products rather than products with diag(d)), factor it R^T R (Cholesky),
        and Ri = R^-1 diag(d), from one triangular solve."""
        SBS = _utils.qform(self.B, S)
        d_row = SBS.diagonal(0, -2, -1) ** -0.5
        d_col = d_row.reshape(d_row.shape[0], 1)
        R = torch.linalg.cholesky((SBS * d_row) * d_col, upper=True)
        return torch.linalg.solve_triangular(R, d_row.diag_embed(), upper=True, left=False)

    def _get_svqb(self, U, drop, tau):
        """U's columns made B-orthonormal (U^T B U = I) through the eigendecomposition of the
        scaled U^T B U (Algorithm 4 of Duersch's thesis, 2015, after Stathopoulos and Wu).
        Eigenvalues below tau * the largest are raised to it (``drop=False``) or their
        directions dropped (``drop=True``): either way no division by a tiny number."""
        if torch.numel(U) == 0:
            return U
        UBU = _utils.qform(self.B, U)
        d = UBU.diagonal(0, -2, -1)
        # columns of U that are exactly zero would give d ** -0.5 = inf: leave them out first
        nz = torch.where(abs(d) != 0.0)
        if len(nz) != 1:
            raise AssertionError(f"expected nz to have length 1, got {nz}")
        if len(nz[0]) < len(d):
            U = U[:, nz[0]]
            if torch.numel(U) == 0:
                return U
            UBU = _utils.qform(self.B, U)
            d = UBU.diagonal(0, -2, -1)
            nz = torch.where(abs(d) != 0.0)
            if len(nz[0]) != len(d):
                raise AssertionError(f"expected nz[0] length {len(d)}, got {len(nz[0])}")

        d_col = (d ** -0.5).reshape(d.shape[0], 1)
        DUBUD = (UBU * d_col) * d_col.mT
        E, Z = _utils.symeig(DUBUD)
        t = tau * abs(E).max()
        if drop:
            keep = torch.where(E > t)
            if len(keep) != 1:
                raise AssertionError(f"expected keep to have length 1, got {keep}")
            E = E[keep[0]]
            Z = Z[:, keep[0]]
            d_col = d_col[keep[0]]
        else:
            E[(torch.where(E < t))[0]] = t
        return torch.matmul(U * d_col.mT, Z * E ** -0.5)

    def _get_ortho(self, U, V):
        """U's columns made B-orthonormal and B-orthogonal to V's (V already B-orthonormal):
        repeatedly subtract the V components and re-orthonormalize with ``_get_svqb`` until the
        relative errors of U^T B U - I and V^T B U are below ortho_tol (Algorithm 3 of
        Duersch's thesis; Algorithm 6, which may drop columns, with ortho_use_drop=True).
        May return no columns, when all of U lies in span(V)."""
        mm = torch.matmul
        mm_B = _utils.matmul
        m = self.iparams["m"]
        tau_ortho = self.fparams["ortho_tol"]
        tau_drop = self.fparams["ortho_tol_drop"]
        tau_replace = self.fparams["ortho_tol_replace"]
        i_max = self.iparams["ortho_i_max"]
        j_max = self.iparams["ortho_j_max"]
        use_drop = self.bparams["ortho_use_drop"]

        # forget the previous call's error records
        for vkey in list(self.fvars.keys()):
            if vkey.startswith("ortho_") and vkey.endswith("_rerr"):
                self.fvars.pop(vkey)
        self.ivars.pop("ortho_i", 0)
        self.ivars.pop("ortho_j", 0)

        BV_norm = torch.norm(mm_B(self.B, V))
        BU = mm_B(self.B, U)
        VBU = mm(V.mT, BU)
        i = j = 0
        for i in range(i_max):
            U = U - mm(V, VBU)
            drop = False
            tau_svqb = tau_drop
            for j in range(j_max):
                if use_drop:
                    U = self._get_svqb(U, drop, tau_svqb)
                    drop = True
                    tau_svqb = tau_replace
                else:
                    U = self._get_svqb(U, False, tau_replace)
                if torch.numel(U) == 0:         # every column of U was in span(V)
                    self.ivars["ortho_i"] = i
                    self.ivars["ortho_j"] = j
                    return U
                BU = mm_B(self.B, U)
                UBU = mm(U.mT, BU)
                U_norm = torch.norm(U)
                BU_norm = torch.norm(BU)
                R = UBU - torch.eye(UBU.shape[-1], device=UBU.device, dtype=UBU.dtype)
                R_norm = torch.norm(R)
                rerr = float(R_norm) * float(BU_norm * U_norm) ** -1
                self.fvars[f"ortho_UBUmI_rerr[{i}, {j}]"] = rerr
                if rerr < tau_ortho:
                    break
            VBU = mm(V.mT, BU)
            VBU_norm = torch.norm(VBU)
            U_norm = torch.norm(U)
            rerr = float(VBU_norm) * float(BV_norm * U_norm) ** -1
            self.fvars[f"ortho_VBU_rerr[{i}]"] = rerr
            if rerr < tau_ortho:
                break
            if m < U.shape[-1] + V.shape[-1]:
                B = self.B
                if B is None:
                    raise AssertionError("B must not be None")
                raise ValueError(
                    "Overdetermined shape of U:"
                    f" #B-cols(={B.shape[-1]}) >= #U-cols(={U.shape[-1]})"
                    f" + #V-cols(={V.shape[-1]}) must hold")
        self.ivars["ortho_i"] = i
        self.ivars["ortho_j"] = j
        return U
