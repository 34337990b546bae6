"""Adam (PyTorch: torch/optim/adam.py); AdamW, in adamw.py, changes one line of it.

Adam keeps, for every parameter, two running averages of its gradient g:

    m <- beta1 * m + (1 - beta1) * g          (the mean: where to go)
    v <- beta2 * v + (1 - beta2) * g * g      (the mean square: how noisy it is)

and steps by  lr * m_hat / (sqrt(v_hat) + eps), where m_hat and v_hat undo the
bias towards 0 that m and v have in the first steps (they start at zero).
Each parameter thus gets its own step size. With ``decoupled_weight_decay``
(AdamW) the weight decay shrinks the parameter itself instead of being added to g.

``step()`` has PyTorch's three implementations: a loop over the parameters (the default),
``foreach=True`` (each line on the whole list with torch._foreach_*: the same formulas in
another order, so the last bits can differ) and ``fused=True`` (PyTorch's fused CPU
kernel, emulated in ``_fused.py``).
"""
from .._creation import tensor, zeros, zeros_like
from .._dtype import float32
from .._foreach import (_foreach_add_, _foreach_addcdiv_, _foreach_addcmul_, _foreach_div_,
                        _foreach_lerp_, _foreach_maximum_, _foreach_mul_, _foreach_sqrt)
from .._ops.pointwise import maximum
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from . import _fused
from .optimizer import (Optimizer, check_adam_settings, check_fused_param, check_fused_settings,
                        foreach_gradients_and_steps, foreach_step, foreach_weight_decay)


class Adam(Optimizer):
    """Adam: gradient descent with a per-parameter step size from running averages."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        if isinstance(lr, Tensor) and foreach and not capturable:
            # (the multi-tensor step reads lr as a Python number)
            raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
        check_adam_settings(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)
        check_fused_settings(fused, foreach, differentiable)

    def _state_of(self, param, amsgrad, fused=False):
        """The running averages of ``param``, created (at zero) on its first step."""
        state = self.state[param]
        if not state:
            if fused:
                check_fused_param(param)
            # the fused kernel reads its step as a float32 number, whatever the default dtype
            state["step"] = zeros((), dtype=float32) if fused else tensor(0.0)
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
            params = [p for p in group["params"] if p.grad is not None]
            states = [self._state_of(p, group["amsgrad"], group["fused"]) for p in params]
            if group["fused"]:
                _fused.adam(params, [p.grad for p in params], states, group)
            elif foreach_step(group):
                _multi_tensor_adam(params, states, group)
            else:
                _single_tensor_adam(params, states, group)
        return loss


def _single_tensor_adam(params, states, group):
    """The update, one parameter after the other."""
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    weight_decay, amsgrad = group["weight_decay"], group["amsgrad"]
    for param, state in zip(params, states):
        grad = -param.grad if group["maximize"] else param.grad
        state["step"] += 1
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * weight_decay)               # AdamW: shrink p itself
            else:
                grad = grad.add(param, alpha=weight_decay)      # Adam: L2 penalty in g
        m, v = state["exp_avg"], state["exp_avg_sq"]
        m.lerp_(grad, 1 - beta1)                   # m moves (1 - beta1) of the way to g
        v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        step = state["step"].item()
        bias_correction1 = 1 - beta1 ** step
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
        if amsgrad:                                # never let the step size grow back
            state["max_exp_avg_sq"].copy_(maximum(state["max_exp_avg_sq"], v))
            v = state["max_exp_avg_sq"]
        denominator = (v.sqrt() / bias_correction2_sqrt).add_(eps)
        param.addcdiv_(m, denominator, value=-lr / bias_correction1)


def _multi_tensor_adam(params, states, group):
    """The same update, each line on the whole list (PyTorch's _multi_tensor_adam)."""
    if not params:
        return
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    weight_decay = group["weight_decay"]
    grads, steps = foreach_gradients_and_steps(params, states, group)
    grads = foreach_weight_decay(params, grads, group)
    exp_avgs = [state["exp_avg"] for state in states]
    exp_avg_sqs = [state["exp_avg_sq"] for state in states]
    _foreach_lerp_(exp_avgs, grads, 1 - beta1)
    _foreach_mul_(exp_avg_sqs, beta2)
    _foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2)
    # the bias corrections are Python numbers, one per parameter
    step_sizes = [(lr / (1 - beta1 ** step.item())) * -1 for step in steps]
    bias_corrections2_sqrt = [(1 - beta2 ** step.item()) ** 0.5 for step in steps]
    if group["amsgrad"]:
        max_exp_avg_sqs = [state["max_exp_avg_sq"] for state in states]
        _foreach_maximum_(max_exp_avg_sqs, exp_avg_sqs)
        denominators = _foreach_sqrt(max_exp_avg_sqs)
    else:
        denominators = _foreach_sqrt(exp_avg_sqs)
    _foreach_div_(denominators, bias_corrections2_sqrt)
    _foreach_add_(denominators, eps)
    _foreach_addcdiv_(params, exp_avgs, denominators, step_sizes)
