"""Adagrad (PyTorch: torch/optim/adagrad.py): a step size per parameter that only shrinks.

Adagrad adds up the square of every gradient a parameter has seen,

    sum <- sum + g * g

and steps by  clr * g / (sqrt(sum) + eps). A parameter with large or frequent
gradients thus slows down, one with rare gradients keeps moving. ``lr_decay``
also shrinks the rate over the steps: clr = lr / (1 + (step - 1) * lr_decay).

``step()`` has PyTorch's three implementations: a loop over the parameters (the default),
``foreach=True`` (each line on the whole list with torch._foreach_*) and ``fused=True``
(PyTorch's fused CPU kernel, emulated in ``_fused.py``).
"""
from .._creation import full_like, tensor, zeros
from .._dtype import float32
from .._foreach import (_foreach_add_, _foreach_addcdiv_, _foreach_addcmul_,
                        _foreach_mul, _foreach_mul_, _foreach_sqrt)
from ..autograd.grad_mode import no_grad
from . import _fused
from .optimizer import (Optimizer, check_fused_param, check_learning_rate, check_fused_settings,
                        foreach_gradients_and_steps, foreach_step, foreach_weight_decay)


class Adagrad(Optimizer):
    """Adagrad: divide each step by the root of the summed squared gradients."""

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        check_learning_rate(lr)
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError("Invalid initial_accumulator_value value: "
                             f"{initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        check_fused_settings(fused, foreach, differentiable)
        # unlike the other optimizers, Adagrad creates its state at once, not on the first step
        for group in self.param_groups:
            for param in group["params"]:
                # (the fused kernel reads its step as a float32 number, whatever the default dtype)
                self.state[param]["step"] = (zeros((), dtype=float32) if group["fused"]
                                             else tensor(0.0))
                self.state[param]["sum"] = full_like(param, initial_accumulator_value)

    @no_grad()
    def step(self, closure=None):
        """One Adagrad update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            states = [self.state[p] for p in params]
            if group["fused"]:
                for param in params:
                    check_fused_param(param)
                _fused.adagrad(params, [p.grad for p in params], states, group)
            elif foreach_step(group):
                _multi_tensor_adagrad(params, states, group)
            else:
                _single_tensor_adagrad(params, states, group)
        return loss


def _single_tensor_adagrad(params, states, group):
    """The update, one parameter after the other."""
    lr, eps = group["lr"], group["eps"]
    for param, state in zip(params, states):
        state["step"] += 1
        step = state["step"].item()
        grad = -param.grad if group["maximize"] else param.grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])     # L2 penalty
        clr = lr / (1 + (step - 1) * group["lr_decay"])
        state["sum"].addcmul_(grad, grad, value=1)
        std = state["sum"].sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)


def _multi_tensor_adagrad(params, states, group):
    """The same update, each line on the whole list (PyTorch's _multi_tensor_adagrad): the
    gradient is multiplied by -clr first, then divided by std (the loop does it the other
    way round)."""
    if not params:
        return
    weight_decay = group["weight_decay"]
    grads, steps = foreach_gradients_and_steps(params, states, group)
    grads = foreach_weight_decay(params, grads, group)
    minus_clr = [-group["lr"] / (1 + (step.item() - 1) * group["lr_decay"]) for step in steps]
    sums = [state["sum"] for state in states]
    _foreach_addcmul_(sums, grads, grads, value=1)
    std = _foreach_sqrt(sums)
    _foreach_add_(std, group["eps"])
    if weight_decay != 0 or group["maximize"]:   # (grads is a new list: scale it in place)
        _foreach_mul_(grads, minus_clr)
        numerator = grads
    else:
        numerator = _foreach_mul(grads, minus_clr)
    _foreach_addcdiv_(params, numerator, std)
