"""Rprop (PyTorch: torch/optim/rprop.py): only the SIGN of the gradient matters.

Each parameter entry has its own step size. When its gradient keeps its sign
from one step to the next, the step size grows (times etas[1]); when the sign
flips (the last step jumped over a minimum) it shrinks (times etas[0]) and
that entry skips this update. The entry then moves by step_size against the
sign of its gradient. Meant for full-batch training.
"""
from .._creation import full_like, tensor, zeros_like
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer


class Rprop(Optimizer):
    """Rprop: per-entry step sizes that grow while the gradient's sign holds."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _state_of(self, param, lr):
        """The previous gradient and the step sizes of ``param``, created on its first step."""
        state = self.state[param]
        if not state:
            state["step"] = tensor(0.0)
            state["prev"] = zeros_like(param)
            state["step_size"] = full_like(param.grad, lr)
        return state

    @no_grad()
    def step(self, closure=None):
        """One Rprop update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            eta_minus, eta_plus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = -param.grad if group["maximize"] else param.grad
                state = self._state_of(param, group["lr"])
                state["step"] += 1
                prev, step_size = state["prev"], state["step_size"]
                same_sign = grad.mul(prev).sign()       # 1: sign kept, -1: flipped, 0: a zero
                flipped = same_sign < 0
                factor = (same_sign.masked_fill(same_sign > 0, eta_plus)
                          .masked_fill(flipped, eta_minus)
                          .masked_fill(same_sign == 0, 1))
                step_size.mul_(factor).clamp_(step_size_min, step_size_max)
                # after a flip, skip the update and forget the gradient (so the next step grows)
                grad = grad.masked_fill(flipped, 0)
                param.addcmul_(grad.sign(), step_size, value=-1)
                prev.copy_(grad)
        return loss
