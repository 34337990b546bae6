"""The half-Cauchy distribution: ``|X|`` with ``X ~ Cauchy(0, scale)``."""

import math

import minigrad as torch
from . import constraints
from .cauchy import Cauchy
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform

__all__ = ["HalfCauchy"]


class HalfCauchy(TransformedDistribution):
    """The absolute value of a centred Cauchy variable with scale ``scale``."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        base_dist = Cauchy(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(HalfCauchy, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def scale(self):
        """The scale of the underlying Cauchy distribution."""
        return self.base_dist.scale

    @property
    def mean(self):
        """Infinite."""
        return torch.full(self._extended_shape(), math.inf, dtype=self.scale.dtype)

    @property
    def mode(self):
        """Zero."""
        return torch.zeros_like(self.scale)

    @property
    def variance(self):
        """Infinite (the Cauchy's)."""
        return self.base_dist.variance

    def log_prob(self, value):
        """The Cauchy's log density plus ``log 2`` at ``value >= 0``, ``-inf`` below."""
        if self._validate_args:
            self._validate_sample(value)
        value = torch.as_tensor(value, dtype=self.base_dist.scale.dtype)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return torch.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value):
        """``2 F(value) - 1`` with ``F`` the Cauchy's cdf."""
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        """The Cauchy's icdf at ``(prob + 1) / 2``."""
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        """The Cauchy's entropy minus ``log 2``."""
        return self.base_dist.entropy() - math.log(2)
