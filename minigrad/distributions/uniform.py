"""The continuous uniform distribution on ``[low, high)``."""

from numbers import Number

import minigrad as torch
from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Uniform"]


class Uniform(Distribution):
    """Uniformly distributed on the half-open interval ``[low, high)``."""

    has_rsample = True

    @property
    def arg_constraints(self):
        """``low < high``, each checked against the other."""
        return {"low": constraints.less_than(self.high), "high": constraints.greater_than(self.low)}

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = broadcast_all(low, high)
        if isinstance(low, Number) and isinstance(high, Number):
            batch_shape = torch.Size()
        else:
            batch_shape = self.low.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        """``(high + low) / 2``."""
        return (self.high + self.low) / 2

    @property
    def mode(self):
        """NaN: every point is a mode."""
        return float("nan") * self.high

    @property
    def stddev(self):
        """``(high - low) / √12``."""
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self):
        """``(high - low)² / 12``."""
        return (self.high - self.low).pow(2) / 12

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(Uniform, _instance)
        batch_shape = torch.Size(batch_shape)
        new.low = self.low.expand(batch_shape)
        new.high = self.high.expand(batch_shape)
        super(Uniform, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        """The interval ``[low, high]``."""
        return constraints.interval(self.low, self.high)

    def rsample(self, sample_shape=torch.Size()):
        """``low + u * (high - low)`` with ``u`` drawn by ``torch.rand``."""
        shape = self._extended_shape(sample_shape)
        rand = torch.rand(shape, dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value):
        """``-log(high - low)`` inside the interval, ``-inf`` outside."""
        if self._validate_args:
            self._validate_sample(value)
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return torch.log(lb.mul(ub)) - torch.log(self.high - self.low)

    def cdf(self, value):
        """``(value - low) / (high - low)``, clamped to ``[0, 1]``."""
        if self._validate_args:
            self._validate_sample(value)
        result = (value - self.low) / (self.high - self.low)
        return result.clamp(min=0, max=1)

    def icdf(self, value):
        """``value * (high - low) + low``."""
        return value * (self.high - self.low) + self.low

    def entropy(self):
        """``log(high - low)``."""
        return torch.log(self.high - self.low)
