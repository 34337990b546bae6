"""Adagrad (PyTorch: torch/optim/adagrad.py): a step size per parameter that only shrinks.

Adagrad adds up the square of every gradient a parameter has seen,

    sum <- sum + g * g

and steps by  clr * g / (sqrt(sum) + eps). A parameter with large or frequent
gradients thus slows down, one with rare gradients keeps moving. ``lr_decay``
also shrinks the rate over the steps: clr = lr / (1 + (step - 1) * lr_decay).
"""
from .._creation import full_like, tensor
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer


class Adagrad(Optimizer):
    """Adagrad: divide each step by the root of the summed squared gradients."""

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
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
        # unlike the other optimizers, Adagrad creates its state at once, not on the first step
        for group in self.param_groups:
            for param in group["params"]:
                self.state[param]["step"] = tensor(0.0)
                self.state[param]["sum"] = full_like(param, initial_accumulator_value)

    @no_grad()
    def step(self, closure=None):
        """One Adagrad update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, eps = group["lr"], group["eps"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                state = self.state[param]
                state["step"] += 1
                step = state["step"].item()
                grad = -param.grad if group["maximize"] else param.grad
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])     # L2 penalty
                clr = lr / (1 + (step - 1) * group["lr_decay"])
                state["sum"].addcmul_(grad, grad, value=1)
                std = state["sum"].sqrt().add_(eps)
                param.addcdiv_(grad, std, value=-clr)
        return loss
