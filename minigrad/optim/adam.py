"""Adam (PyTorch: torch/optim/adam.py); AdamW, in adamw.py, changes one line of it.

Adam keeps, for every parameter, two running averages of its gradient g:

    m <- beta1 * m + (1 - beta1) * g          (the mean: where to go)
    v <- beta2 * v + (1 - beta2) * g * g      (the mean square: how noisy it is)

and steps by  lr * m_hat / (sqrt(v_hat) + eps), where m_hat and v_hat undo the
bias towards 0 that m and v have in the first steps (they start at zero).
Each parameter thus gets its own step size. With ``decoupled_weight_decay``
(AdamW) the weight decay shrinks the parameter itself instead of being added to g.
"""
from .._creation import tensor, zeros_like
from .._ops.pointwise import maximum
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_adam_settings


class Adam(Optimizer):
    """Adam: gradient descent with a per-parameter step size from running averages."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        check_adam_settings(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _state_of(self, param, amsgrad):
        """The running averages of ``param``, created (at zero) on its first step."""
        state = self.state[param]
        if not state:
            state["step"] = tensor(0.0)
            state["exp_avg"] = zeros_like(param)             # m
            state["exp_avg_sq"] = zeros_like(param)          # v
            if amsgrad:
                state["max_exp_avg_sq"] = zeros_like(param)  # the largest v so far
        return state

    @no_grad()
    def step(self, closure=None):
        """One Adam update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay, amsgrad = group["weight_decay"], group["amsgrad"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = -param.grad if group["maximize"] else param.grad
                state = self._state_of(param, amsgrad)
                state["step"] += 1
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        param.mul_(1 - lr * weight_decay)               # AdamW: shrink p itself
                    else:
                        grad = grad.add(param, alpha=weight_decay)      # Adam: L2 penalty in g
                m, v = state["exp_avg"], state["exp_avg_sq"]
                m.add_(grad - m, alpha=1 - beta1)          # m moves (1 - beta1) of the way to g
                v.mul_(beta2).add_(grad * grad, alpha=1 - beta2)
                step = state["step"].item()
                bias_correction1 = 1 - beta1 ** step
                bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
                if amsgrad:                                # never let the step size grow back
                    state["max_exp_avg_sq"].copy_(maximum(state["max_exp_avg_sq"], v))
                    v = state["max_exp_avg_sq"]
                denominator = (v.sqrt() / bias_correction2_sqrt).add_(eps)
                param.add_(m / denominator, alpha=-lr / bias_correction1)
        return loss

