"""Adadelta (PyTorch: torch/optim/adadelta.py): steps measured in the parameter's own units.

Adadelta keeps two running averages, of the squared gradient and of the squared
step it took:

    square_avg <- rho * square_avg + (1 - rho) * g * g
    delta       = sqrt(acc_delta + eps) / sqrt(square_avg + eps) * g
    acc_delta  <- rho * acc_delta + (1 - rho) * delta * delta

and moves by  lr * delta. The ratio of the two roots gives the step the units
of the parameter, which is why its default lr is 1.0.
"""
from .._creation import tensor, zeros_like
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer


class Adadelta(Optimizer):
    """Adadelta: scale each step by the ratio of recent step sizes to recent gradient sizes."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def _state_of(self, param):
        """The two running averages of ``param``, created (at zero) on its first step."""
        state = self.state[param]
        if not state:
            state["step"] = tensor(0.0)
            state["square_avg"] = zeros_like(param)
            state["acc_delta"] = zeros_like(param)
        return state

    @no_grad()
    def step(self, closure=None):
        """One Adadelta update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, rho, eps = group["lr"], group["rho"], group["eps"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                state = self._state_of(param)
                state["step"] += 1
                grad = -param.grad if group["maximize"] else param.grad
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])     # L2 penalty
                square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                std = square_avg.add(eps).sqrt_()
                delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
                acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                param.add_(delta, alpha=-lr)
        return loss
