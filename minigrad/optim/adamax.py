"""Adamax (PyTorch: torch/optim/adamax.py): Adam with a running maximum instead of a mean square.

    m       <- beta1 * m + (1 - beta1) * g
    exp_inf <- max(beta2 * exp_inf, |g| + eps)

and the step is  lr / (1 - beta1 ** step) * m / exp_inf. The maximum (the
infinity norm of the past gradients) needs no bias correction of its own.
"""
from .._creation import tensor, zeros_like
from .._ops.pointwise import maximum
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_adam_settings


class Adamax(Optimizer):
    """Adamax: Adam's direction, divided by the largest recent gradient size."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        check_adam_settings(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _state_of(self, param):
        """The running mean and maximum of ``param``, created (at zero) on its first step."""
        state = self.state[param]
        if not state:
            state["step"] = tensor(0.0)
            state["exp_avg"] = zeros_like(param)
            state["exp_inf"] = zeros_like(param)
        return state

    @no_grad()
    def step(self, closure=None):
        """One Adamax update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = -param.grad if group["maximize"] else param.grad
                state = self._state_of(param)
                state["step"] += 1
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])     # L2 penalty
                exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
                exp_avg.lerp_(grad, 1 - beta1)
                exp_inf.copy_(maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)))
                clr = lr / (1 - beta1 ** state["step"].item())
                param.addcdiv_(exp_avg, exp_inf, value=-clr)
        return loss
