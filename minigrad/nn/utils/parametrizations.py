"""Ready-made parametrizations (PyTorch: torch/nn/utils/parametrizations.py), registered with
``parametrize.register_parametrization``.

    weight_norm(module, name="weight", dim=0)   the weight as g * v / ||v||, with g
                                                (``original0``) and v (``original1``) trained
    spectral_norm(module, name="weight", ...)   the weight divided by its largest singular
                                                value, estimated by power iteration
    orthogonal(module, name="weight", ...)      an orthogonal weight (orthonormal rows or
                                                columns): the matrix exponential or the
                                                Cayley transform of a skew-symmetric matrix,
                                                or a product of Householder reflections
"""
from ... import _tensor
from ..._ops.linalg import mv
from ..._ops.products import vdot
from ... import linalg
from ...autograd.grad_mode import no_grad
from ..modules.module import Module
from .. import _weight_norm as _wn
from .. import functional as F
from . import parametrize


class _WeightNorm(Module):
    """w = g * v / ||v|| (norm over every dim but ``dim``); right_inverse splits a weight
    into its length g and its direction v."""

    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        """The weight from its length and direction."""
        return _wn._weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        """(g, v) = (||weight||, weight)."""
        return _wn.norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    """Reparametrize ``module.<name>`` by its length and direction (weight normalization)."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


class _SpectralNorm(Module):
    """w / sigma(w), sigma the largest singular value of w seen as a matrix (dim ``dim`` as
    rows, the rest flattened). sigma is estimated as u . (W v), with u and v (buffers ``_u``
    and ``_v``) refined by ``n_power_iterations`` steps of power iteration at each forward
    pass in training mode; in eval mode the stored u and v are used as they are."""

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but "
                             f"got n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            # a 1-d weight is simply normalized: it needs no u, v
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            # start from good vectors: random ones would give a poor sigma at first
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        """The weight as a matrix: dim ``self.dim`` first, the others flattened."""
        if weight.ndim <= 1:
            raise AssertionError(
                f"Expected weight to have more than 1 dimension, got {weight.ndim}")
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        """u <- W v / |W v|, v <- W^T u / |W^T u|, in place in the buffers (no gradient
        flows through the estimate of the singular vectors)."""
        if weight_mat.ndim <= 1:
            raise AssertionError("Expected weight_mat to have more than 1 dimension, got "
                                 f"{weight_mat.ndim}")
        with no_grad():
            for _ in range(n_power_iterations):
                self._u = F.normalize(mv(weight_mat, self._v), dim=0, eps=self.eps,
                                      out=self._u)
                self._v = F.normalize(mv(weight_mat.mT, self._u), dim=0,
                                      eps=self.eps, out=self._v)

    def forward(self, weight):
        """The weight divided by its estimated spectral norm."""
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        # copies: backward must see u and v as they are now, not after the next update
        u = self._u.clone()
        v = self._v.clone()
        sigma = vdot(u, mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value):
        """Any weight is a valid original: assigning stores it as it is."""
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide ``module.<name>`` by its spectral norm (largest singular value), estimated by
    power iteration: keeps a layer 1-Lipschitz, as in GAN discriminators. ``dim`` is the
    output dimension (1 for ConvTranspose layers, else 0)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, _tensor.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if _is_conv_transpose(module) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


def _is_conv_transpose(module):
    from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
    return isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d))


def _is_orthogonal(Q):
    """Q^T Q == I, to 10 * n roundings."""
    import minigrad
    n, k = Q.size(-2), Q.size(-1)
    eye = minigrad.eye(k, dtype=Q.dtype)
    return minigrad.allclose(Q.mT @ Q, eye, atol=10.0 * n * minigrad.finfo(Q.dtype).eps)


def _make_orthogonal(A):
    """The Q of A = QR (A tall), its columns signed so that diag(R) is non-negative."""
    import minigrad
    X, tau = minigrad.geqrf(A)
    Q = linalg.householder_product(X, tau)
    return Q * X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


_ORTHOGONAL_MAPS = ("matrix_exp", "cayley", "householder")


class _Orthogonal(Module):
    """An orthogonal matrix from an unconstrained one X: the lower triangle of X defines a
    skew-symmetric A = X - X^T, and Q = exp(A) ("matrix_exp") or (I - A/2)^-1 (I + A/2)
    ("cayley") is orthogonal; or ("householder") Q is the product of the reflections whose
    vectors are the columns of X below the diagonal. A wide weight is handled through its
    transpose, a tall one as the first columns of a square Q. With ``use_trivialization`` the result is multiplied by
    a buffer ``base`` (an orthogonal matrix set by right_inverse), so that training moves
    around the current weight rather than around the identity."""

    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        if weight.is_complex() and orthogonal_map == "householder":
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        """The orthogonal matrix (or batch) that X stands for."""
        import minigrad
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map == "householder":
            # the strict lower triangle holds the reflection vectors; tau = 2 / |v|^2 makes
            # each I - tau v v^T a reflection, and the diagonal's signs (as integers: 0 for
            # |x| < 1) flip the columns
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = linalg.householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        else:
            X = X.tril()
            if n != k:
                # square it with zero columns: only the first k columns of Q are kept
                X = minigrad.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)],
                                 dim=-1)
            A = X - X.mT
            if self.orthogonal_map == "matrix_exp":
                Q = minigrad.matrix_exp(A)
            else:
                eye = minigrad.eye(n, dtype=A.dtype)
                Q = linalg.solve(minigrad.add(eye, A, alpha=-0.5),
                                 minigrad.add(eye, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q):
        """Make the parametrization give Q: store Q (made orthogonal by QR if it is not,
        completed to a square with random columns if it is tall) as ``base``, and return the
        X that the maps turn into the identity."""
        import minigrad
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        with no_grad():
            Q_init = Q
            n, k = Q.size(-2), Q.size(-1)
            n_lt_k = n < k
            if n_lt_k:
                Q = Q.mT
                n, k = k, n
            if not hasattr(self, "base"):
                if self.orthogonal_map != "householder":
                    raise NotImplementedError(
                        "It is not possible to assign to the matrix exponential "
                        "or the Cayley parametrizations when use_trivialization=False.")
                # householder without a base: Q's own compact QR, its diagonal made the
                # signs that forward multiplies the columns by
                A, tau = minigrad.geqrf(Q)
                diagonal = A.diagonal(dim1=-2, dim2=-1)
                diagonal.sign_()
                diagonal[tau == 0.0] *= -1
                return A.mT if n_lt_k else A
            if n == k:
                Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
            else:
                N = minigrad.randn(*(tuple(Q.shape[:-2]) + (n, n - k)), dtype=Q.dtype)
                Q = _make_orthogonal(minigrad.cat([Q, N], dim=-1))
            self.base = Q
            # -I: X.tril() - X.tril().T is then 0, and both maps send 0 to I
            neg_id = minigrad.zeros_like(Q_init)
            neg_id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return neg_id


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Make ``module.<name>`` orthogonal (orthonormal columns, or rows if it is wide) at
    every read. ``orthogonal_map``: "matrix_exp" (the default for square weights), "cayley"
    or "householder" (the default for non-square ones)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, _tensor.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1) or weight.is_complex()
                          else "householder")
    if orthogonal_map not in _ORTHOGONAL_MAPS:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         f"Got: {orthogonal_map}")
    orth = _Orthogonal(weight, orthogonal_map, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
