"""Ready-made parametrizations (PyTorch: torch/nn/utils/parametrizations.py), registered with
``parametrize.register_parametrization``.

    weight_norm(module, name="weight", dim=0)   the weight as g * v / ||v||, with g
                                                (``original0``) and v (``original1``) trained
    spectral_norm(module, name="weight", ...)   the weight divided by its largest singular
                                                value, estimated by power iteration
"""
from ... import _tensor
from ..._ops.linalg import mv
from ..._ops.products import vdot
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
