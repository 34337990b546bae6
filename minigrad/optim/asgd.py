"""ASGD, averaged stochastic gradient descent (PyTorch: torch/optim/asgd.py).

ASGD steps like SGD with a step size ``eta`` that shrinks over the steps,

    eta_t = lr / (1 + lambd * lr * t) ** alpha

(and a small decay of the parameter, ``p <- p * (1 - lambd * eta)``), and keeps
beside each parameter ``ax``, a running average of the parameter's values
from step ``t0`` on: averaging the noisy SGD iterates lands closer to the
minimum than any single one of them. The parameter itself is the SGD iterate;
``optimizer.state[p]["ax"]`` holds the average.
"""
from .._creation import ones, tensor, zeros, zeros_like
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer


class ASGD(Optimizer):
    """ASGD: SGD with a decaying step size, plus an average of the iterates (``state['ax']``)."""

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    def _state_of(self, param, lr):
        """The step size, averaging weight and average of ``param``, made on its first step."""
        state = self.state[param]
        if not state:
            # eta and mu are float32 numbers kept as 0-d tensors, as in PyTorch (they round)
            state["step"] = zeros(())
            state["eta"] = tensor(lr)
            state["mu"] = ones(())
            state["ax"] = zeros_like(param)
        return state

    @no_grad()
    def step(self, closure=None):
        """One ASGD update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = -param.grad if group["maximize"] else param.grad
                state = self._state_of(param, lr)
                state["step"] += 1
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])     # L2 penalty
                eta = state["eta"].item()
                param.mul_(1 - lambd * eta)                # decay
                param.add_(grad, alpha=-eta)               # the SGD step
                ax, mu = state["ax"], state["mu"]
                if mu.item() != 1:
                    ax.add_(param.sub(ax).mul_(mu))        # move the average towards p
                else:
                    ax.copy_(param)                        # before t0: the average is p itself
                step = state["step"].item()
                state["eta"].copy_(tensor(lr / ((1 + lambd * lr * step) ** alpha)))
                state["mu"].copy_(tensor(1 / max(1, step - t0)))
        return loss
