"""NAdam (PyTorch: torch/optim/nadam.py): Adam with Nesterov momentum.

Like Adam, NAdam keeps the running averages m and v of g and g * g. Its
momentum coefficient mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
grows slowly over the steps, and the step looks ahead (Nesterov): it mixes
the current gradient, weighted by (1 - mu_t), with the NEXT momentum mu_{t+1}
applied to m. ``mu_product`` (the product of all mu so far) plays the role of
Adam's bias correction for m.
"""
from .._creation import tensor, zeros_like
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_adam_settings


class NAdam(Optimizer):
    """NAdam: Adam whose momentum step looks one step ahead."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
        check_adam_settings(lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def _state_of(self, param):
        """The running averages of ``param``, created on its first step."""
        state = self.state[param]
        if not state:
            state["step"] = tensor(0.0)
            state["mu_product"] = tensor(1.0)     # a float32 tensor: the product rounds as it grows
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
        return state

    @no_grad()
    def step(self, closure=None):
        """One NAdam update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay, momentum_decay = group["weight_decay"], group["momentum_decay"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = -param.grad if group["maximize"] else param.grad
                state = self._state_of(param)
                state["step"] += 1
                step = state["step"].item()
                bias_correction2 = 1 - beta2 ** step
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        param.mul_(1 - lr * weight_decay)               # shrink p itself
                    else:
                        grad = grad.add(param, alpha=weight_decay)      # L2 penalty in g
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                state["mu_product"] *= mu
                mu_product = state["mu_product"].item()
                m, v = state["exp_avg"], state["exp_avg_sq"]
                m.lerp_(grad, 1 - beta1)
                v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denominator = v.div(bias_correction2).sqrt().add_(eps)
                # the current gradient's share, then the look-ahead momentum's share
                param.addcdiv_(grad, denominator, value=-lr * (1.0 - mu) / (1.0 - mu_product))
                param.addcdiv_(m, denominator, value=(-lr * mu_next) / (1.0 - mu_product * mu_next))
        return loss
