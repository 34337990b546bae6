"""RMSprop (PyTorch: torch/optim/rmsprop.py).

RMSprop divides each gradient by a running root-mean-square of its recent
values, so every parameter gets a step size of its own:

    v <- alpha * v + (1 - alpha) * g * g
    p <- p - lr * g / (sqrt(v) + eps)
"""
from .._creation import tensor, zeros_like
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer


class RMSprop(Optimizer):
    """Gradient descent with each gradient scaled by 1 / its running root-mean-square."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def _state_of(self, param, group):
        state = self.state[param]
        if not state:
            state["step"] = tensor(0.0)
            state["square_avg"] = zeros_like(param)             # v
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = zeros_like(param)           # the running mean of g
        return state

    @no_grad()
    def step(self, closure=None):
        """One RMSprop update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, alpha, momentum = group["lr"], group["alpha"], group["momentum"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = -param.grad if group["maximize"] else param.grad
                state = self._state_of(param, group)
                state["step"] += 1
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])
                square_avg = state["square_avg"]
                square_avg.mul_(alpha).add_(grad * grad, alpha=1 - alpha)
                if group["centered"]:
                    # use the variance (mean square minus squared mean) instead of the mean square
                    grad_avg = state["grad_avg"]
                    grad_avg.add_(grad - grad_avg, alpha=1 - alpha)
                    average = (square_avg - grad_avg * grad_avg).sqrt() + group["eps"]
                else:
                    average = square_avg.sqrt() + group["eps"]
                if momentum > 0:
                    buffer = state["momentum_buffer"]
                    buffer.mul_(momentum).add_(grad / average)
                    param.add_(buffer, alpha=-lr)
                else:
                    param.add_(grad / average, alpha=-lr)
        return loss
