"""Student's t distribution with ``df`` degrees of freedom, location ``loc`` and ``scale``."""

import math

import minigrad as torch
from . import constraints
from .chi2 import Chi2
from .distribution import Distribution
from .utils import _standard_normal, broadcast_all

__all__ = ["StudentT"]

inf, nan = math.inf, math.nan


class StudentT(Distribution):
    """``loc + scale * X / sqrt(Z / df)``, X standard normal and Z chi-squared with ``df``:
    heavier tails than the normal the fewer the degrees of freedom."""

    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        batch_shape = self.df.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        """``loc``, undefined (nan) for ``df <= 1``."""
        m = self.loc.clone(memory_format=torch.contiguous_format)
        m[self.df <= 1] = nan
        return m

    @property
    def mode(self):
        """``loc``."""
        return self.loc

    @property
    def variance(self):
        """``scale**2 df / (df - 2)``; inf for 1 < df <= 2, nan for df <= 1."""
        m = self.df.clone(memory_format=torch.contiguous_format)
        above_2 = self.df > 2
        m[above_2] = self.scale[above_2].pow(2) * self.df[above_2] / (self.df[above_2] - 2)
        m[(self.df <= 2) & (self.df > 1)] = inf
        m[self.df <= 1] = nan
        return m

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(StudentT, _instance)
        batch_shape = torch.Size(batch_shape)
        new.df = self.df.expand(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new._chi2 = self._chi2.expand(batch_shape)
        super(StudentT, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=torch.Size()):
        """Normal noise first, then the chi-squared sample (the order of the draws matters for
        the numbers after ``manual_seed``)."""
        shape = self._extended_shape(sample_shape)
        X = _standard_normal(shape, dtype=self.df.dtype, device=self.df.device)
        Z = self._chi2.rsample(sample_shape)
        Y = X * torch.rsqrt(Z / self.df)
        return self.loc + self.scale * Y

    def log_prob(self, value):
        """``-(df + 1) / 2 log(1 + y**2 / df) - log(scale sqrt(df pi) B(df / 2, 1 / 2))``, with
        ``y = (value - loc) / scale``."""
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        Z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi)
             + torch.lgamma(0.5 * self.df) - torch.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * torch.log1p(y**2.0 / self.df) - Z

    def entropy(self):
        """``log scale + (df + 1) / 2 (digamma((df + 1) / 2) - digamma(df / 2)) + log(sqrt(df)
        B(df / 2, 1 / 2))``."""
        lbeta = torch.lgamma(0.5 * self.df) + math.lgamma(0.5) - torch.lgamma(0.5 * (self.df + 1))
        return (self.scale.log()
                + 0.5 * (self.df + 1) * (torch.digamma(0.5 * (self.df + 1)) - torch.digamma(0.5 * self.df))
                + 0.5 * self.df.log() + lbeta)
