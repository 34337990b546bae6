"""AdamW (PyTorch: torch/optim/adamw.py): Adam with decoupled weight decay.

Adam adds ``weight_decay * p`` to the gradient, so the running averages scale
the decay too; AdamW shrinks the parameter directly, ``p <- p * (1 - lr * weight_decay)``,
before the Adam step (Loshchilov and Hutter, "Decoupled Weight Decay Regularization").
"""
from .adam import Adam


class AdamW(Adam):
    """Adam with decoupled weight decay: p <- p * (1 - lr * weight_decay) before each step."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable, differentiable=differentiable,
                         fused=fused, decoupled_weight_decay=True)
