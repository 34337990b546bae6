"""Stochastic gradient descent, with momentum (PyTorch: torch/optim/sgd.py)."""
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer


class SGD(Optimizer):
    """p <- p - lr * g, where g is the gradient (plus weight decay and momentum if asked).

    With momentum, g is replaced by a running sum of the past gradients,
    ``buf <- momentum * buf + (1 - dampening) * g``, which speeds up along
    directions the gradient keeps pointing to.
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 *, maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient. Returns ``closure()`` if given."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, momentum = group["lr"], group["momentum"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = -param.grad if group["maximize"] else param.grad
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])     # L2 penalty
                if momentum != 0:
                    buf = self.state[param].get("momentum_buffer")
                    if buf is None:
                        buf = grad.clone().detach()          # the first step: just g
                        self.state[param]["momentum_buffer"] = buf
                    else:
                        buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
                    grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
                param.add_(grad, alpha=-lr)                  # the step itself, in place
        return loss
