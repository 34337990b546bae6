"""Rprop (PyTorch: torch/optim/rprop.py): only the SIGN of the gradient matters.

Each parameter entry has its own step size. When its gradient keeps its sign
from one step to the next, the step size grows (times etas[1]); when the sign
flips (the last step jumped over a minimum) it shrinks (times etas[0]) and
that entry skips this update. The entry then moves by step_size against the
sign of its gradient. Meant for full-batch training.

``step()`` has PyTorch's two implementations: a loop over the parameters (the default) and
``foreach=True``, each line on the whole list with torch._foreach_* (the same formulas in
the multi-tensor version's order, so the last bits can differ).
"""
from .._creation import full_like, tensor, zeros_like
from .._foreach import (_foreach_add_, _foreach_addcmul_, _foreach_copy_, _foreach_mul,
                        _foreach_mul_, _foreach_neg_, _foreach_sign_)
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_learning_rate, foreach_step


class Rprop(Optimizer):
    """Rprop: per-entry step sizes that grow while the gradient's sign holds."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        check_learning_rate(lr)
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
            params = [p for p in group["params"] if p.grad is not None]
            states = [self._state_of(p, group["lr"]) for p in params]
            if foreach_step(group):
                _multi_tensor_rprop(params, states, group)
            else:
                _single_tensor_rprop(params, states, group)
        return loss


def _single_tensor_rprop(params, states, group):
    """The update, one parameter after the other."""
    eta_minus, eta_plus = group["etas"]
    step_size_min, step_size_max = group["step_sizes"]
    for param, state in zip(params, states):
        grad = -param.grad if group["maximize"] else param.grad
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


def _multi_tensor_rprop(params, states, group):
    """The same update, each line on the whole list (PyTorch's _multi_tensor_rprop)."""
    if not params:
        return
    eta_minus, eta_plus = group["etas"]
    step_size_min, step_size_max = group["step_sizes"]
    _foreach_add_([state["step"] for state in states], tensor(1.0), alpha=1.0)
    grads = [p.grad for p in params]
    prevs = [state["prev"] for state in states]
    step_sizes = [state["step_size"] for state in states]
    signs = _foreach_mul(grads, prevs)
    if group["maximize"]:
        _foreach_neg_(signs)
    _foreach_copy_(prevs, grads)               # prev holds this step's gradient from now on
    if group["maximize"]:
        _foreach_neg_(prevs)
    grads = prevs
    _foreach_sign_(signs)
    for sign in signs:                         # the sign of g * prev becomes the factor
        sign.masked_fill_(sign > 0, eta_plus)
        sign.masked_fill_(sign < 0, eta_minus)
        sign.masked_fill_(sign == 0, 1)
    _foreach_mul_(step_sizes, signs)
    for step_size in step_sizes:
        step_size.clamp_(step_size_min, step_size_max)
    for grad, sign in zip(grads, signs):       # after a flip: no update, and forget g
        grad.masked_fill_(sign == eta_minus, 0)
    _foreach_addcmul_(params, [grad.sign() for grad in grads], step_sizes, value=-1)
