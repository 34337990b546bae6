"""The Dirichlet distribution over the probability simplex, with ``concentration`` (alpha)."""

import minigrad as torch
from minigrad.autograd import Function
from minigrad.autograd.function import once_differentiable
from . import constraints
from .exp_family import ExponentialFamily

__all__ = ["Dirichlet"]


def _Dirichlet_backward(x, concentration, grad_output):
    # each coordinate's own reparameterised gradient (as a Beta marginal), then the simplex's
    # constraint: the coordinates sum to 1, so a push on one is taken from all
    total = concentration.sum(-1, True).expand_as(concentration)
    grad = torch._dirichlet_grad(x, concentration, total)
    return grad * (grad_output - (x * grad_output).sum(-1, True))


class _Dirichlet(Function):
    """Dirichlet samples with a reparameterised gradient (grad_fn ``_DirichletBackward``)."""

    @staticmethod
    def forward(ctx, concentration):
        x = torch._sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        """result = _sample_dirichlet(concentration)   ->   grad_concentration = _dirichlet_grad(result,
        concentration, total) * (grad - (result * grad).sum(-1, True))"""
        x, concentration = ctx.saved_tensors
        return _Dirichlet_backward(x, concentration, grad_output)


class Dirichlet(ExponentialFamily):
    """The density ``Gamma(sum a) / prod Gamma(a_i) * prod x_i**(a_i - 1)`` on the simplex (the
    last dim of ``concentration`` is the event)."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        batch_shape, event_shape = concentration.shape[:-1], concentration.shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its concentration expanded to ``batch_shape``."""
        new = self._get_checked_instance(Dirichlet, _instance)
        batch_shape = torch.Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape + self.event_shape)
        super(Dirichlet, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        """Normalised gamma samples (``torch._sample_dirichlet``), differentiable in the
        concentration through ``torch._dirichlet_grad``."""
        shape = self._extended_shape(sample_shape)
        concentration = self.concentration.expand(shape)
        return _Dirichlet.apply(concentration)

    def log_prob(self, value):
        """``sum (a_i - 1) log x_i + lgamma(sum a) - sum lgamma(a_i)``."""
        if self._validate_args:
            self._validate_sample(value)
        return (torch.xlogy(self.concentration - 1.0, value).sum(-1)
                + torch.lgamma(self.concentration.sum(-1))
                - torch.lgamma(self.concentration).sum(-1))

    @property
    def mean(self):
        """``a / sum a``."""
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        """``(a - 1) / sum (a - 1)`` (negative parts as 0); where every a is below 1, the corner
        of the largest one."""
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        mode[mask] = torch.nn.functional.one_hot(mode[mask].argmax(dim=-1),
                                                 concentrationm1.shape[-1]).to(mode)
        return mode

    @property
    def variance(self):
        """``a_i (a0 - a_i) / (a0**2 (a0 + 1))`` with ``a0 = sum a``."""
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self):
        """``sum lgamma(a_i) - lgamma(a0) - (k - a0) digamma(a0) - sum (a_i - 1) digamma(a_i)``."""
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (torch.lgamma(self.concentration).sum(-1) - torch.lgamma(a0)
                - (k - a0) * torch.digamma(a0)
                - ((self.concentration - 1.0) * torch.digamma(self.concentration)).sum(-1))

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - torch.lgamma(x.sum(-1))
