"""The half-normal distribution: ``|X|`` with ``X ~ Normal(0, scale)``."""

import math

import minigrad as torch
from . import constraints
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform

__all__ = ["HalfNormal"]


class HalfNormal(TransformedDistribution):
    """The absolute value of a centred normal with standard deviation ``scale``."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        base_dist = Normal(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(HalfNormal, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def scale(self):
        """The standard deviation of the underlying normal."""
        return self.base_dist.scale

    @property
    def mean(self):
        """``scale √(2/π)``."""
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def mode(self):
        """Zero."""
        return torch.zeros_like(self.scale)

    @property
    def variance(self):
        """``scale² (1 - 2/π)``."""
        return self.scale.pow(2) * (1 - 2 / math.pi)

    def log_prob(self, value):
        """The normal's log density plus ``log 2`` at ``value >= 0``, ``-inf`` below."""
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return torch.where(value >= 0, log_prob, -float("inf"))

    def cdf(self, value):
        """``2 Φ(value) - 1``."""
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        """The normal's icdf at ``(prob + 1) / 2``."""
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        """The normal's entropy minus ``log 2``."""
        return self.base_dist.entropy() - math.log(2)
