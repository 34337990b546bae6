"""The generalized Pareto distribution, the model of a distribution's tail: the exponential
(concentration 0), Pareto (concentration > 0) and uniform (concentration -1) are special cases."""

from numbers import Number

import minigrad as torch
from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["GeneralizedPareto"]

inf = float("inf")
nan = float("nan")


class GeneralizedPareto(Distribution):
    """A generalized Pareto distribution with ``loc``, ``scale`` and ``concentration`` ξ. Where
    ξ is (close to) 0 the formulas take their exponential limit."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive, "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        if isinstance(loc, Number) and isinstance(scale, Number) and isinstance(concentration, Number):
            batch_shape = torch.Size()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(GeneralizedPareto, _instance)
        batch_shape = torch.Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        super(GeneralizedPareto, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=torch.Size()):
        """``icdf(u)`` with ``u`` from ``torch.rand``."""
        shape = self._extended_shape(sample_shape)
        u = torch.rand(shape, dtype=self.loc.dtype)
        return self.icdf(u)

    def _safe_concentration(self):
        # ξ, with 1 where ξ is close to 0 so that the ξ ≠ 0 formula (thrown away there) stays finite
        eq_zero = torch.isclose(self.concentration, torch.tensor(0.0))
        return eq_zero, torch.where(eq_zero, torch.ones_like(self.concentration), self.concentration)

    def log_prob(self, value):
        """``-log scale - (1/ξ + 1) log1p(ξ z)`` with ``z = (value - loc) / scale``; ``-log scale - z``
        at ξ = 0."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        y = 1 / safe_conc + torch.ones_like(z)
        where_nonzero = torch.where(y == 0, y, y * torch.log1p(safe_conc * z))
        return -self.scale.log() - torch.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        """``log P(X > value)``: ``-log1p(ξ z) / ξ``, ``-z`` at ξ = 0."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        where_nonzero = -torch.log1p(safe_conc * z) / safe_conc
        return torch.where(eq_zero, -z, where_nonzero)

    def log_cdf(self, value):
        """``log(1 - survival)``."""
        return torch.log1p(-torch.exp(self.log_survival_function(value)))

    def cdf(self, value):
        """``exp(log_cdf)``."""
        return torch.exp(self.log_cdf(value))

    def icdf(self, value):
        """``loc + scale expm1(-ξ log1p(-u)) / ξ``; ``loc - scale log1p(-u)`` at ξ = 0."""
        loc = self.loc
        scale = self.scale
        concentration = self.concentration
        eq_zero = torch.isclose(concentration, torch.zeros_like(concentration))
        safe_conc = torch.where(eq_zero, torch.ones_like(concentration), concentration)
        logu = torch.log1p(-value)
        where_nonzero = loc + scale / safe_conc * torch.expm1(-safe_conc * logu)
        where_zero = loc - scale * logu
        return torch.where(eq_zero, where_zero, where_nonzero)

    def _z(self, x):
        return (x - self.loc) / self.scale

    @property
    def mean(self):
        """``loc + scale / (1 - ξ)`` for ξ < 1, NaN otherwise."""
        concentration = self.concentration
        valid = concentration < 1
        safe_conc = torch.where(valid, concentration, 0.5)
        result = self.loc + self.scale / (1 - safe_conc)
        return torch.where(valid, result, nan)

    @property
    def variance(self):
        """``scale² / ((1 - ξ)² (1 - 2ξ))`` for ξ < 1/2, NaN otherwise."""
        concentration = self.concentration
        valid = concentration < 0.5
        safe_conc = torch.where(valid, concentration, 0.25)
        result = self.scale**2 / ((1 - safe_conc) ** 2 * (1 - 2 * safe_conc))
        return torch.where(valid, result, nan)

    def entropy(self):
        """``log scale + ξ + 1``."""
        ans = torch.log(self.scale) + self.concentration + 1
        return torch.broadcast_to(ans, self._batch_shape)

    @property
    def mode(self):
        """``loc``."""
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        """``[loc, inf]`` for ξ ≥ 0, ``[loc, loc - scale / ξ]`` for ξ < 0."""
        lower = self.loc
        upper = torch.where(self.concentration < 0, lower - self.scale / self.concentration, inf)
        return constraints.interval(lower, upper)
