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
from .._foreach import (_foreach_add, _foreach_add_, _foreach_addcmul_, _foreach_copy_,
                        _foreach_sub)
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_learning_rate, foreach_step, foreach_gradients_and_steps


class ASGD(Optimizer):
    """ASGD: SGD with a decaying step size, plus an average of the iterates (``state['ax']``)."""

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        check_learning_rate(lr)
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
            params = [p for p in group["params"] if p.grad is not None]
            states = [self._state_of(p, group["lr"]) for p in params]
            if foreach_step(group):
                _multi_tensor_asgd(params, states, group)
            else:
                _single_tensor_asgd(params, states, group)
        return loss


def _single_tensor_asgd(params, states, group):
    """The update, one parameter after the other."""
    lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
    for param, state in zip(params, states):
        grad = -param.grad if group["maximize"] else param.grad
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


def _multi_tensor_asgd(params, states, group):
    """The same update, each line on the whole list (PyTorch's _multi_tensor_asgd). It differs
    from the loop in its rounding: p <- p - eta * (g + lambd * p) in one addcmul, the average
    always moved by mu (also while mu is 1), and the new eta computed from the step tensor, in
    float32 tensor arithmetic."""
    if not params:
        return
    lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
    weight_decay = group["weight_decay"]
    grads, steps = foreach_gradients_and_steps(params, states, group)
    if weight_decay != 0:
        if group["maximize"]:                     # (grads is already a new list)
            _foreach_add_(grads, params, alpha=weight_decay)
            intermediate = grads
        else:
            intermediate = _foreach_add(grads, params, alpha=weight_decay)
        _foreach_add_(intermediate, params, alpha=lambd)
    else:
        intermediate = _foreach_add(grads, params, alpha=lambd)
    etas = [state["eta"] for state in states]
    mus = [state["mu"] for state in states]
    axs = [state["ax"] for state in states]
    _foreach_addcmul_(params, intermediate, etas, value=-1)
    _foreach_addcmul_(axs, _foreach_sub(params, axs), mus)
    # (step is a tensor here: lambd * lr * step and what follows are tensor operations)
    _foreach_copy_(etas, [lr / ((1 + lambd * lr * step) ** alpha) for step in steps])
    _foreach_copy_(mus, [tensor(1 / max(1, step.item() - t0)) for step in steps])
