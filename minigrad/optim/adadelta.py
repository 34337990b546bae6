"""Adadelta (PyTorch: torch/optim/adadelta.py): steps measured in the parameter's own units.

Adadelta keeps two running averages, of the squared gradient and of the squared
step it took:

    square_avg <- rho * square_avg + (1 - rho) * g * g
    delta       = sqrt(acc_delta + eps) / sqrt(square_avg + eps) * g
    acc_delta  <- rho * acc_delta + (1 - rho) * delta * delta

and moves by  lr * delta. The ratio of the two roots gives the step the units
of the parameter, which is why its default lr is 1.0.

``step()`` has PyTorch's two implementations: a loop over the parameters (the default) and
``foreach=True``, each line on the whole list with torch._foreach_* (the same formulas in
the multi-tensor version's order, so the last bits can differ).
"""
from .._creation import tensor, zeros_like
from .._foreach import (_foreach_add, _foreach_add_, _foreach_addcmul_, _foreach_div_,
                        _foreach_mul_, _foreach_neg, _foreach_sqrt_)
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_learning_rate, foreach_step, foreach_weight_decay


class Adadelta(Optimizer):
    """Adadelta: scale each step by the ratio of recent step sizes to recent gradient sizes."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        check_learning_rate(lr)
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
            params = [p for p in group["params"] if p.grad is not None]
            states = [self._state_of(p) for p in params]
            if foreach_step(group):
                _multi_tensor_adadelta(params, states, group)
            else:
                _single_tensor_adadelta(params, states, group)
        return loss


def _single_tensor_adadelta(params, states, group):
    """The update, one parameter after the other."""
    lr, rho, eps = group["lr"], group["rho"], group["eps"]
    for param, state in zip(params, states):
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


def _multi_tensor_adadelta(params, states, group):
    """The same update, each line on the whole list (PyTorch's _multi_tensor_adadelta)."""
    if not params:
        return
    lr, rho, eps, weight_decay = group["lr"], group["rho"], group["eps"], group["weight_decay"]
    _foreach_add_([state["step"] for state in states], tensor(1.0), alpha=1.0)
    grads = [p.grad for p in params]
    if group["maximize"]:
        grads = _foreach_neg(grads)
    grads = foreach_weight_decay(params, grads, group)
    square_avgs = [state["square_avg"] for state in states]
    acc_deltas = [state["acc_delta"] for state in states]
    _foreach_mul_(square_avgs, rho)
    _foreach_addcmul_(square_avgs, grads, grads, value=1 - rho)
    std = _foreach_add(square_avgs, eps)
    _foreach_sqrt_(std)
    deltas = _foreach_add(acc_deltas, eps)
    _foreach_sqrt_(deltas)
    _foreach_div_(deltas, std)
    _foreach_mul_(deltas, grads)
    _foreach_mul_(acc_deltas, rho)
    _foreach_addcmul_(acc_deltas, deltas, deltas, value=1 - rho)
    _foreach_add_(params, deltas, alpha=-lr)
