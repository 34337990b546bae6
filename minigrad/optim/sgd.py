"""Stochastic gradient descent, with momentum (PyTorch: torch/optim/sgd.py).

Three implementations of one step, as in PyTorch: a loop over the parameters (the default),
``foreach=True`` (each line on the whole list with torch._foreach_*, the same numbers here)
and ``fused=True`` (PyTorch's fused CPU kernel, emulated in ``_fused.py``).
"""
from .._foreach import _foreach_add, _foreach_add_, _foreach_mul_, _foreach_neg
from ..autograd.grad_mode import no_grad
from . import _fused
from .optimizer import Optimizer, check_fused_param, check_fused_settings, check_one_number_lr


class SGD(Optimizer):
    """p <- p - lr * g, where g is the gradient (plus weight decay and momentum if asked).

    With momentum, g is replaced by a running sum of the past gradients,
    ``buf <- momentum * buf + (1 - dampening) * g``, which speeds up along
    directions the gradient keeps pointing to.
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 *, maximize=False, foreach=None, differentiable=False, fused=None):
        check_one_number_lr(lr)
        if lr < 0.0:            # (SGD's own comparison: a list lr fails on "<", not "<=")
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
        check_fused_settings(fused, foreach, differentiable)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient. Returns ``closure()`` if given."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            if group["fused"]:
                for param in params:
                    check_fused_param(param)
                _fused.sgd(params, [p.grad for p in params], self.state, group)
            elif group["foreach"]:
                _multi_tensor_sgd(params, self.state, group)
            else:
                _single_tensor_sgd(params, self.state, group)
        return loss


def _single_tensor_sgd(params, state, group):
    """The update, one parameter after the other."""
    lr, momentum = group["lr"], group["momentum"]
    for param in params:
        grad = -param.grad if group["maximize"] else param.grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])     # L2 penalty
        if momentum != 0:
            buf = state[param].get("momentum_buffer")
            if buf is None:
                buf = grad.clone().detach()          # the first step: just g
                state[param]["momentum_buffer"] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        param.add_(grad, alpha=-lr)                  # the step itself, in place


def _multi_tensor_sgd(params, state, group):
    """The same update, each line on the whole list (PyTorch's _multi_tensor_sgd)."""
    if not params:
        return
    lr, momentum, weight_decay = group["lr"], group["momentum"], group["weight_decay"]
    grads = [p.grad for p in params]
    if group["maximize"]:
        grads = _foreach_neg(grads)
    if weight_decay != 0:
        if group["maximize"]:                         # (grads is already a new list)
            _foreach_add_(grads, params, alpha=weight_decay)
        else:
            grads = _foreach_add(grads, params, alpha=weight_decay)
    if momentum != 0:
        bufs = [state[p].get("momentum_buffer") for p in params]
        if all(buf is not None for buf in bufs):
            _foreach_mul_(bufs, momentum)
            _foreach_add_(bufs, grads, alpha=1 - group["dampening"])
        else:                                         # some start now: one at a time
            for i, (param, grad) in enumerate(zip(params, grads)):
                if bufs[i] is None:
                    bufs[i] = state[param]["momentum_buffer"] = grad.detach().clone()
                else:
                    bufs[i].mul_(momentum).add_(grad, alpha=1 - group["dampening"])
        if group["nesterov"]:
            # (in place: without maximize or weight decay these are the .grad tensors themselves,
            # which PyTorch's foreach Nesterov step changes too)
            _foreach_add_(grads, bufs, alpha=momentum)
        else:
            grads = bufs
    _foreach_add_(params, grads, alpha=-lr)
