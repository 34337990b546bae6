"""RAdam (PyTorch: torch/optim/radam.py): Adam that waits until its variance estimate is reliable.

In the first steps Adam's v rests on very few gradients, and dividing by its
root gives erratic steps. RAdam estimates how reliable v is from rho_t, the
length of the average it effectively takes:

    rho_inf = 2 / (1 - beta2) - 1
    rho_t   = rho_inf - 2 * t * beta2 ** t / (1 - beta2 ** t)

While rho_t <= 5 it steps like SGD with momentum (lr * m_hat); after that like
Adam, with the step scaled by a "rectification" factor that tends to 1.

``step()`` has PyTorch's two implementations: a loop over the parameters (the default) and
``foreach=True``, each line on the whole list with torch._foreach_* (the same formulas in
the multi-tensor version's order, so the last bits can differ).
"""
from .._creation import tensor, zeros_like
from .._foreach import (_foreach_add_, _foreach_addcmul_, _foreach_div_, _foreach_lerp_,
                        _foreach_mul_, _foreach_reciprocal_, _foreach_sqrt)
from ..autograd.grad_mode import no_grad
from .optimizer import (Optimizer, check_adam_settings, foreach_gradients_and_steps, foreach_step,
                        foreach_weight_decay)


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
            params = [p for p in group["params"] if p.grad is not None]
            states = [self._state_of(p) for p in params]
            if foreach_step(group):
                _multi_tensor_radam(params, states, group)
            else:
                _single_tensor_radam(params, states, group)
        return loss


def _single_tensor_radam(params, states, group):
    """The update, one parameter after the other."""
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    weight_decay = group["weight_decay"]
    for param, state in zip(params, states):
        grad = -param.grad if group["maximize"] else param.grad
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


def _multi_tensor_radam(params, states, group):
    """The same update, each line on the whole list (PyTorch's _multi_tensor_radam): both
    cases in one formula, p <- p + m * (1 / (sqrt(v) + eps) / c2 + c1), where one of the
    two per-parameter numbers c1 (momentum only) and c2 (rectified) is 0."""
    if not params:
        return
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    weight_decay = group["weight_decay"]
    grads, steps = foreach_gradients_and_steps(params, states, group)
    rho_inf = 2 / (1 - beta2) - 1
    rho_ts = [rho_inf - 2 * step.item() * (beta2 ** step.item()) / (1 - beta2 ** step.item())
              for step in steps]
    grads = foreach_weight_decay(params, grads, group)
    exp_avgs = [state["exp_avg"] for state in states]
    exp_avg_sqs = [state["exp_avg_sq"] for state in states]
    _foreach_lerp_(exp_avgs, grads, 1 - beta1)
    _foreach_mul_(exp_avg_sqs, beta2)
    _foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2)
    rectifications = [((rho_t - 4) * (rho_t - 2) * rho_inf
                       / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5 if rho_t > 5 else 0
                      for rho_t in rho_ts]
    unrectified = [0 if rectification > 0 else 1.0 for rectification in rectifications]
    bias_corrections1 = [1 - beta1 ** step.item() for step in steps]
    momentum_step_sizes = [(lr * flag / bc) * -1
                           for flag, bc in zip(unrectified, bias_corrections1)]
    rectified_scales = [((1 - beta2 ** step.item()) ** 0.5) * (lr * rectification / bc) * -1
                        for step, rectification, bc
                        in zip(steps, rectifications, bias_corrections1)]
    buffers = _foreach_sqrt(exp_avg_sqs)
    _foreach_add_(buffers, eps)
    _foreach_div_(buffers, rectified_scales)     # (by -0.0 while unrectified: then 1/x is -0.0)
    _foreach_reciprocal_(buffers)
    _foreach_add_(buffers, momentum_step_sizes)
    _foreach_addcmul_(params, exp_avgs, buffers)
