"""RMSprop (PyTorch: torch/optim/rmsprop.py).

RMSprop divides each gradient by a running root-mean-square of its recent
values, so every parameter gets a step size of its own:

    v <- alpha * v + (1 - alpha) * g * g
    p <- p - lr * g / (sqrt(v) + eps)

``step()`` has PyTorch's two implementations: a loop over the parameters (the default) and
``foreach=True``, each line on the whole list with torch._foreach_* (the same formulas in
the multi-tensor version's order, so the last bits can differ).
"""
from .._creation import tensor, zeros_like
from .._foreach import (_foreach_add_, _foreach_addcdiv_, _foreach_addcmul,
                        _foreach_addcmul_, _foreach_lerp_, _foreach_mul_, _foreach_neg,
                        _foreach_sqrt, _foreach_sqrt_)
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_learning_rate, foreach_step, foreach_weight_decay


class RMSprop(Optimizer):
    """Gradient descent with each gradient scaled by 1 / its running root-mean-square."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        check_learning_rate(lr)
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
            params = [p for p in group["params"] if p.grad is not None]
            states = [self._state_of(p, group) for p in params]
            if foreach_step(group):
                _multi_tensor_rmsprop(params, states, group)
            else:
                _single_tensor_rmsprop(params, states, group)
        return loss


def _single_tensor_rmsprop(params, states, group):
    """The update, one parameter after the other (in PyTorch's operations, to its last bit)."""
    lr, alpha, momentum = group["lr"], group["alpha"], group["momentum"]
    for param, state in zip(params, states):
        grad = -param.grad if group["maximize"] else param.grad
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        square_avg = state["square_avg"]
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if group["centered"]:
            # use the variance (mean square minus squared mean) instead of the mean square
            grad_avg = state["grad_avg"]
            grad_avg.lerp_(grad, 1 - alpha)
            average = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            average = square_avg.sqrt()
        average = average.add_(group["eps"])
        if momentum > 0:
            buffer = state["momentum_buffer"]
            buffer.mul_(momentum).addcdiv_(grad, average)
            param.add_(buffer, alpha=-lr)
        else:
            param.addcdiv_(grad, average, value=-lr)


def _multi_tensor_rmsprop(params, states, group):
    """The same update, each line on the whole list (PyTorch's _multi_tensor_rmsprop)."""
    if not params:
        return
    lr, alpha, momentum = group["lr"], group["alpha"], group["momentum"]
    weight_decay = group["weight_decay"]
    grads = [p.grad for p in params]
    if group["maximize"]:
        grads = _foreach_neg(grads)
    _foreach_add_([state["step"] for state in states], tensor(1.0), alpha=1.0)
    grads = foreach_weight_decay(params, grads, group)
    square_avgs = [state["square_avg"] for state in states]
    _foreach_mul_(square_avgs, alpha)
    _foreach_addcmul_(square_avgs, grads, grads, value=1 - alpha)
    if group["centered"]:
        grad_avgs = [state["grad_avg"] for state in states]
        _foreach_lerp_(grad_avgs, grads, 1 - alpha)
        average = _foreach_addcmul(square_avgs, grad_avgs, grad_avgs, value=-1)
        _foreach_sqrt_(average)
    else:
        average = _foreach_sqrt(square_avgs)
    _foreach_add_(average, group["eps"])
    if momentum > 0:
        buffers = [state["momentum_buffer"] for state in states]
        _foreach_mul_(buffers, momentum)
        _foreach_addcdiv_(buffers, grads, average)
        _foreach_add_(params, buffers, alpha=-lr)
    else:
        _foreach_addcdiv_(params, grads, average, value=-lr)
