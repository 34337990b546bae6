"""Ready-made parametrizations (PyTorch: torch/nn/utils/parametrizations.py), registered with
``parametrize.register_parametrization``.

    weight_norm(module, name="weight", dim=0)   the weight as g * v / ||v||, with g
                                                (``original0``) and v (``original1``) trained
"""
from ..modules.module import Module
from .. import _weight_norm as _wn
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
