"""The inverse gamma distribution: ``1 / X`` for X from ``Gamma(concentration, rate)``."""

import minigrad as torch
from . import constraints
from .gamma import Gamma
from .transformed_distribution import TransformedDistribution
from .transforms import PowerTransform

__all__ = ["InverseGamma"]


class InverseGamma(TransformedDistribution):
    """A Gamma distribution seen through ``y = x ** -1`` (a ``PowerTransform(-1)``)."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        base_dist = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base_dist.rate.new_ones(())
        super().__init__(base_dist, PowerTransform(neg_one), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(InverseGamma, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def concentration(self):
        """The base Gamma's concentration."""
        return self.base_dist.concentration

    @property
    def rate(self):
        """The base Gamma's rate (a scale of this distribution)."""
        return self.base_dist.rate

    @property
    def mean(self):
        """``rate / (concentration - 1)``, inf for concentration <= 1."""
        result = self.rate / (self.concentration - 1)
        return torch.where(self.concentration > 1, result, torch.inf)

    @property
    def mode(self):
        """``rate / (concentration + 1)``."""
        return self.rate / (self.concentration + 1)

    @property
    def variance(self):
        """``rate**2 / ((concentration - 1)**2 (concentration - 2))``, inf for concentration <= 2."""
        result = self.rate.square() / ((self.concentration - 1).square() * (self.concentration - 2))
        return torch.where(self.concentration > 2, result, torch.inf)

    def entropy(self):
        """``a + log rate + lgamma(a) - (1 + a) digamma(a)``."""
        return (self.concentration + self.rate.log() + self.concentration.lgamma()
                - (1 + self.concentration) * self.concentration.digamma())
