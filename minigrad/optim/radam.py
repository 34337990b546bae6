"""RAdam (PyTorch: torch/optim/radam.py): Adam that waits until its variance estimate is reliable.

In the first steps Adam's v rests on very few gradients, and dividing by its
root gives erratic steps. RAdam estimates how reliable v is from rho_t, the
length of the average it effectively takes:

    rho_inf = 2 / (1 - beta2) - 1
    rho_t   = rho_inf - 2 * t * beta2 ** t / (1 - beta2 ** t)

While rho_t <= 5 it steps like SGD with momentum (lr * m_hat); after that like
Adam, with the step scaled by a "rectification" factor that tends to 1.
"""
from .._creation import tensor, zeros_like
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_adam_settings


class RAdam(Optimizer):
    """RAdam: rectified Adam, with a momentum-only warm-up it chooses itself."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        check_adam_settings(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable,
                        decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _state_of(self, param):
        """The running averages of ``param``, created (at zero) on its first step."""
        state = self.state[param]
        if not state:
            state["step"] = tensor(0.0)
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
        return state

    @no_grad()
    def step(self, closure=None):
        """One RAdam update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay = group["weight_decay"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = -param.grad if group["maximize"] else param.grad
                state = self._state_of(param)
                state["step"] += 1
                step = state["step"].item()
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        param.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(param, alpha=weight_decay)
                m, v = state["exp_avg"], state["exp_avg_sq"]
                m.lerp_(grad, 1 - beta1)
                v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                m_hat = m / bias_correction1
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                if rho_t > 5.0:
                    rectification = ((rho_t - 4) * (rho_t - 2) * rho_inf
                                     / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                    adaptive_lr = (bias_correction2 ** 0.5) / v.sqrt().add_(eps)
                    param.add_(m_hat * lr * adaptive_lr * rectification, alpha=-1.0)
                else:
                    param.add_(m_hat * lr, alpha=-1.0)        # v not reliable yet: momentum only
        return loss
