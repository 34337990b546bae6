"""NAdam (PyTorch: torch/optim/nadam.py): Adam with Nesterov momentum.

Like Adam, NAdam keeps the running averages m and v of g and g * g. Its
momentum coefficient mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
grows slowly over the steps, and the step looks ahead (Nesterov): it mixes
the current gradient, weighted by (1 - mu_t), with the NEXT momentum mu_{t+1}
applied to m. ``mu_product`` (the product of all mu so far) plays the role of
Adam's bias correction for m.

``step()`` has PyTorch's two implementations: a loop over the parameters (the default) and
``foreach=True``, each line on the whole list with torch._foreach_* (the same formulas in
the multi-tensor version's order, so the last bits can differ).
"""
from .._creation import tensor, zeros_like
from .._foreach import (_foreach_add_, _foreach_addcdiv_, _foreach_addcmul_, _foreach_div_,
                        _foreach_lerp_, _foreach_mul_, _foreach_sqrt)
from ..autograd.grad_mode import no_grad
from .optimizer import (Optimizer, check_adam_settings, foreach_gradients_and_steps, foreach_step,
                        foreach_weight_decay)


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
            params = [p for p in group["params"] if p.grad is not None]
            states = [self._state_of(p) for p in params]
            if foreach_step(group):
                _multi_tensor_nadam(params, states, group)
            else:
                _single_tensor_nadam(params, states, group)
        return loss


def _momentum(beta1, step, momentum_decay):
    """NAdam's momentum coefficient at ``step``."""
    return beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))


def _single_tensor_nadam(params, states, group):
    """The update, one parameter after the other."""
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    weight_decay, momentum_decay = group["weight_decay"], group["momentum_decay"]
    for param, state in zip(params, states):
        grad = -param.grad if group["maximize"] else param.grad
        state["step"] += 1
        step = state["step"].item()
        bias_correction2 = 1 - beta2 ** step
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * weight_decay)               # shrink p itself
            else:
                grad = grad.add(param, alpha=weight_decay)      # L2 penalty in g
        mu = _momentum(beta1, step, momentum_decay)
        mu_next = _momentum(beta1, step + 1, momentum_decay)
        state["mu_product"] *= mu
        mu_product = state["mu_product"].item()
        m, v = state["exp_avg"], state["exp_avg_sq"]
        m.lerp_(grad, 1 - beta1)
        v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denominator = v.div(bias_correction2).sqrt().add_(eps)
        # the current gradient's share, then the look-ahead momentum's share
        param.addcdiv_(grad, denominator, value=-lr * (1.0 - mu) / (1.0 - mu_product))
        param.addcdiv_(m, denominator, value=(-lr * mu_next) / (1.0 - mu_product * mu_next))


def _multi_tensor_nadam(params, states, group):
    """The same update, each line on the whole list (PyTorch's _multi_tensor_nadam): the
    denominator is sqrt(v) / sqrt(bias_correction2) here, sqrt(v / bias_correction2) in the loop."""
    if not params:
        return
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    weight_decay, momentum_decay = group["weight_decay"], group["momentum_decay"]
    grads, steps = foreach_gradients_and_steps(params, states, group)
    grads = foreach_weight_decay(params, grads, group)
    exp_avgs = [state["exp_avg"] for state in states]
    exp_avg_sqs = [state["exp_avg_sq"] for state in states]
    mu_products = [state["mu_product"] for state in states]
    _foreach_lerp_(exp_avgs, grads, 1 - beta1)
    _foreach_mul_(exp_avg_sqs, beta2)
    _foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2)
    denominators = _foreach_sqrt(exp_avg_sqs)
    bias_corrections2_sqrt = [(1 - beta2 ** step.item()) ** 0.5 for step in steps]
    mus = [_momentum(beta1, step.item(), momentum_decay) for step in steps]
    mu_nexts = [_momentum(beta1, step.item() + 1, momentum_decay) for step in steps]
    _foreach_mul_(mu_products, mus)
    _foreach_div_(denominators, bias_corrections2_sqrt)
    _foreach_add_(denominators, eps)
    grad_step_sizes = [(lr * (1.0 - mu) / (1.0 - mu_product.item())) * -1
                       for mu_product, mu in zip(mu_products, mus)]
    exp_avg_step_sizes = [(lr * mu_next / (1.0 - mu_product.item() * mu_next)) * -1
                          for mu_product, mu_next in zip(mu_products, mu_nexts)]
    _foreach_addcdiv_(params, grads, denominators, grad_step_sizes)
    _foreach_addcdiv_(params, exp_avgs, denominators, exp_avg_step_sizes)
