"""Adafactor (PyTorch: torch/optim/_adafactor.py): Adam's scaling with far less memory.

For a matrix of gradients G (m x n), Adam keeps a running mean square of every element
(m * n numbers); Adafactor keeps only the running mean square of each row (m numbers) and
of each column (n numbers), and estimates the element's as row * column / mean of the rows.
A vector keeps its full running mean square. Then, for step t:

    beta2_t  = 1 - t ** beta2_decay               (the average forgets less as t grows)
    update   = G / sqrt(estimate)                  (clamped below by eps1**2 first)
    update  /= max(1, RMS(update) / d)             (clipped: its RMS at most d)
    param   -= max(eps2, RMS(param)) * min(lr, 1 / sqrt(t)) * update

so the step is relative to the parameter's own size. ``weight_decay`` shrinks the
parameter first by ``lr * weight_decay`` (decoupled, as AdamW).
"""
from .._creation import tensor, zeros_like
from .._dtype import finfo
from .._ops.reduction import norm
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_one_number_lr


class Adafactor(Optimizer):
    """Adafactor: per-row and per-column running mean squares instead of Adam's per-element ones."""

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, *,
                 foreach=None, maximize=False):
        check_one_number_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    def _state_of(self, param):
        """The step count and the running mean squares (of rows and columns, or of every element
        of a vector), created at zero on the parameter's first step."""
        state = self.state[param]
        if not state:
            state["step"] = tensor(0.0)
            grad = param.grad
            if grad.dim() > 1:
                row_shape, col_shape = list(grad.shape), list(grad.shape)
                row_shape[-1], col_shape[-2] = 1, 1
                state["row_var"] = grad.new_zeros(row_shape)
                state["col_var"] = grad.new_zeros(col_shape)
            else:
                state["variance"] = zeros_like(grad)
        return state

    @no_grad()
    def step(self, closure=None):
        """One Adafactor update of every parameter that has a gradient."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            eps1, eps2 = group["eps"]
            lr = group["lr"].item() if hasattr(group["lr"], "item") else group["lr"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                state = self._state_of(param)
                grad = -param.grad if group["maximize"] else param.grad
                self._update(param, grad, state, lr, group, eps1, eps2)
        return loss

    @staticmethod
    def _update(param, grad, state, lr, group, eps1, eps2):
        if eps1 is None:
            eps1 = finfo(param.dtype).eps
        state["step"] += 1
        step = state["step"].item()
        one_minus_beta2 = step ** group["beta2_decay"]
        relative_lr = min(lr, 1 / step ** 0.5)
        alpha = max(eps2, param.norm(2).item() / param.numel() ** 0.5) * relative_lr
        if group["weight_decay"] != 0:
            param.mul_(1 - lr * group["weight_decay"])
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(norm(grad, dim=-1, keepdim=True).square_().div_(grad.size(-1)), one_minus_beta2)
            col_var.lerp_(norm(grad, dim=-2, keepdim=True).square_().div_(grad.size(-2)), one_minus_beta2)
            estimate = row_var @ col_var
            estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            state["variance"].lerp_(grad * grad, one_minus_beta2)
            estimate = state["variance"].clone()
        update = estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denominator = max(1.0, update.norm(2).item() / (update.numel() ** 0.5 * group["d"]))
        param.add_(update, alpha=-alpha / denominator)
