"""The von Mises distribution: a normal distribution wrapped onto the circle, with density
``exp(κ cos(x - loc)) / (2π I0(κ))``. Sampling is Best and Fisher's rejection sampler (1979),
run in float64 so that it cannot stall for tiny concentrations."""

import math

import minigrad as torch
from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, lazy_property

__all__ = ["VonMises"]


def _eval_poly(y, coef):
    """``coef[0] + y (coef[1] + y (coef[2] + ...))`` by Horner's rule."""
    coef = list(coef)
    result = coef.pop()
    while coef:
        result = coef.pop() + y * result
    return result


# polynomial approximations of the modified Bessel functions I0 and I1 (Abramowitz and Stegun
# 9.8.1-9.8.4): in (x/3.75)² below 3.75, in 3.75/x (times e^x / √x) above
_I0_COEF_SMALL = [1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2]
_I0_COEF_LARGE = [
    0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2,
    -0.2057706e-1, 0.2635537e-1, -0.1647633e-1, 0.392377e-2,
]
_I1_COEF_SMALL = [0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3]
_I1_COEF_LARGE = [
    0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1,
    0.2282967e-1, -0.2895312e-1, 0.1787654e-1, -0.420059e-2,
]

_COEF_SMALL = [_I0_COEF_SMALL, _I1_COEF_SMALL]
_COEF_LARGE = [_I0_COEF_LARGE, _I1_COEF_LARGE]


def _log_modified_bessel_fn(x, order=0):
    """``log I_order(x)`` for ``x > 0`` and order 0 or 1."""
    if order != 0 and order != 1:
        raise AssertionError(f"order must be 0 or 1, got {order}")
    y = x / 3.75
    y = y * y
    small = _eval_poly(y, _COEF_SMALL[order])
    if order == 1:
        small = x.abs() * small
    small = small.log()
    y = 3.75 / x
    large = x - 0.5 * x.log() + _eval_poly(y, _COEF_LARGE[order]).log()
    return torch.where(x < 3.75, small, large)


def _rejection_sample(loc, concentration, proposal_r, x):
    """Best and Fisher's sampler: each round draws three uniforms per entry (one ``rand`` call
    of shape ``(3,) + x.shape``, for every entry whether done or not) and keeps the first
    accepted angle of each entry; the result is shifted by ``loc`` and wrapped into [-π, π)."""
    done = torch.zeros(x.shape, dtype=torch.bool)
    while not done.all():
        u = torch.rand((3,) + x.shape, dtype=loc.dtype)
        u1, u2, u3 = u.unbind()
        z = torch.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = ((c * (2 - c) - u2) > 0) | ((c / u2).log() + 1 - c >= 0)
        if accept.any():
            # an entry accepted in an earlier round is overwritten again: PyTorch keeps the last
            x = torch.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    """A circular distribution centred on the angle ``loc`` (radians, any real: read modulo
    2π) with ``concentration`` κ (large κ: nearly normal with variance 1/κ)."""

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = broadcast_all(loc, concentration)
        batch_shape = self.loc.shape
        event_shape = torch.Size()
        super().__init__(batch_shape, event_shape, validate_args)

    def log_prob(self, value):
        """``κ cos(value - loc) - log 2π - log I0(κ)``."""
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * torch.cos(value - self.loc)
        return log_prob - math.log(2 * math.pi) - _log_modified_bessel_fn(self.concentration, order=0)

    @lazy_property
    def _loc(self):
        return self.loc.to(torch.double)

    @lazy_property
    def _concentration(self):
        return self.concentration.to(torch.double)

    @lazy_property
    def _proposal_r(self):
        # the wrapped Cauchy envelope's parameter; its Taylor form for tiny κ avoids 0/0
        kappa = self._concentration
        tau = 1 + (1 + 4 * kappa**2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        _proposal_r = (1 + rho**2) / (2 * rho)
        _proposal_r_taylor = 1 / kappa + kappa
        return torch.where(kappa < 1e-5, _proposal_r_taylor, _proposal_r)

    def sample(self, sample_shape=torch.Size()):
        """Best and Fisher's rejection sampler in float64, cast back to ``loc``'s dtype."""
        with torch.no_grad():
            shape = self._extended_shape(sample_shape)
            x = torch.empty(shape, dtype=self._loc.dtype)
            return _rejection_sample(self._loc, self._concentration, self._proposal_r, x).to(self.loc.dtype)

    def expand(self, batch_shape, _instance=None):
        """A new ``VonMises`` with its parameters expanded to ``batch_shape``."""
        try:
            return super().expand(batch_shape)
        except NotImplementedError:
            validate_args = self.__dict__.get("_validate_args")
            loc = self.loc.expand(batch_shape)
            concentration = self.concentration.expand(batch_shape)
            return type(self)(loc, concentration, validate_args=validate_args)

    @property
    def mean(self):
        """The circular mean: ``loc``."""
        return self.loc

    @property
    def mode(self):
        """``loc``."""
        return self.loc

    @lazy_property
    def variance(self):
        """The circular variance ``1 - I1(κ) / I0(κ)``."""
        return 1 - (
            _log_modified_bessel_fn(self.concentration, order=1)
            - _log_modified_bessel_fn(self.concentration, order=0)
        ).exp()
