"""SparseAdam (PyTorch: torch/optim/sparse_adam.py): Adam for sparse gradients only.

PyTorch's SparseAdam updates only the rows a sparse gradient names (an Embedding with
``sparse=True``), for speed on huge tables. minigrad has no sparse tensors, so every gradient
is dense, and SparseAdam refuses it at its first step exactly as PyTorch refuses a dense one;
the settings are checked as PyTorch checks them.
"""
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_one_number_lr

HINT = ("minigrad hint: minigrad has no sparse tensors, so gradients are always dense; use "
        "torch.optim.Adam (the same update for every element) instead.")


class SparseAdam(Optimizer):
    """Adam for sparse gradients: in minigrad, whose gradients are dense, its step refuses to run."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        check_one_number_lr(lr)
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))

    @no_grad()
    def step(self, closure=None):
        """Refuse a dense gradient as PyTorch does (every minigrad gradient is dense)."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is not None:
                    raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam "
                                       "instead\n" + HINT)
        return loss
