"""Adamax (PyTorch: torch/optim/adamax.py): Adam with a running maximum instead of a mean square.

    m       <- beta1 * m + (1 - beta1) * g
    exp_inf <- max(beta2 * exp_inf, |g| + eps)

and the step is  lr / (1 - beta1 ** step) * m / exp_inf. The maximum (the
infinity norm of the past gradients) needs no bias correction of its own.

``step()`` has PyTorch's two implementations: a loop over the parameters (the default) and
``foreach=True``, each line on the whole list with torch._foreach_* (the same formulas in
the multi-tensor version's order, so the last bits can differ).
"""
from .._creation import tensor, zeros_like
from .._foreach import (_foreach_abs, _foreach_abs_, _foreach_add, _foreach_add_,
                        _foreach_addcdiv_, _foreach_lerp_, _foreach_maximum_, _foreach_mul_,
                        _foreach_neg)
from .._ops.pointwise import maximum
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_adam_settings, foreach_step


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
            params = [p for p in group["params"] if p.grad is not None]
            states = [self._state_of(p) for p in params]
            if foreach_step(group):
                _multi_tensor_adamax(params, states, group)
            else:
                _single_tensor_adamax(params, states, group)
        return loss


def _single_tensor_adamax(params, states, group):
    """The update, one parameter after the other."""
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    for param, state in zip(params, states):
        grad = -param.grad if group["maximize"] else param.grad
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])     # L2 penalty
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        exp_avg.lerp_(grad, 1 - beta1)
        exp_inf.copy_(maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)))
        clr = lr / (1 - beta1 ** state["step"].item())
        param.addcdiv_(exp_avg, exp_inf, value=-clr)


def _multi_tensor_adamax(params, states, group):
    """The same update, each line on the whole list (PyTorch's _multi_tensor_adamax)."""
    if not params:
        return
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    weight_decay, maximize = group["weight_decay"], group["maximize"]
    grads = [p.grad for p in params]
    if maximize:
        grads = _foreach_neg(grads)
    steps = [state["step"] for state in states]
    _foreach_add_(steps, tensor(1.0), alpha=1.0)
    if weight_decay != 0:
        if maximize:                              # (grads is already a new list)
            _foreach_add_(grads, params, alpha=weight_decay)
        else:
            grads = _foreach_add(grads, params, alpha=weight_decay)
    exp_avgs = [state["exp_avg"] for state in states]
    exp_infs = [state["exp_inf"] for state in states]
    _foreach_lerp_(exp_avgs, grads, 1 - beta1)
    _foreach_mul_(exp_infs, beta2)
    if not maximize and weight_decay == 0:       # (grads are the parameters' own .grad)
        grads = _foreach_abs(grads)
    else:
        _foreach_abs_(grads)
    _foreach_add_(grads, eps)
    _foreach_maximum_(exp_infs, grads)
    step_sizes = [(lr / (1 - beta1 ** step.item())) * -1 for step in steps]
    _foreach_addcdiv_(params, exp_avgs, exp_infs, step_sizes)
