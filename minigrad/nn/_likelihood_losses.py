"""Negative log-likelihoods of two distributions, built from ordinary operations as PyTorch
builds them:

    poisson_nll_loss(x, y)      = exp(x) - y x                    (x the log of the rate)
                                = x - y log(x + eps)               (log_input=False: x the rate)
                                  + y log y - y + log(2 pi y) / 2  (full=True: Stirling's term, for y > 1)
    gaussian_nll_loss(x, y, var) = (log(var) + (x - y)**2 / var) / 2   (+ log(2 pi) / 2 if full)

poisson_nll_loss is C++ in PyTorch (its numbers record MulBackward1), gaussian_nll_loss is
Python (its numbers record MulBackward0 and AddBackward0 with no edge for the number).
"""
import math

import numpy as np

from .._creation import ones_like
from .._ops.pointwise import mul_by_number, add_number
from ..autograd.grad_mode import no_grad
from ._margin_losses import reduction_of, reduced


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """The negative log-likelihood of counts ``target`` under Poisson distributions whose rate
    is exp(input) (``log_input=True``) or input itself, without the constant log(target!)
    unless ``full=True`` (then Stirling's approximation of it, for targets above 1)."""
    reduction = reduction_of(size_average, reduce, reduction)
    if log_input:
        # the product first, then exp, as PyTorch's C++ evaluates the operands of its `-`
        # (the nodes' order decides the order in which the two gradients reach input)
        product = target * input
        losses = input.exp() - product
    else:
        losses = input - target * add_number(input, eps).log()
    if full:
        # at target 0, 0 * log(0) is nan (masked away below): PyTorch computes it silently
        with np.errstate(divide="ignore", invalid="ignore"):
            half_log = mul_by_number(mul_by_number(target, 2 * math.pi).log(), 0.5)    # (first too)
            stirling = target * target.log() - target + half_log
        losses += stirling.masked_fill(target <= 1, 0)
    return reduced(losses, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """The negative log-likelihood of ``target`` under Gaussians of mean ``input`` and
    variance ``var`` (one per element, or one per sample: then ``var`` may lack the last dim
    or have size 1 in one dim). ``var`` is clamped to at least ``eps``, without the clamp
    showing in the gradient."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(input)
    elif (var < 0).any():
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)         # one variance per sample: broadcast over the last dim
        elif input.ndim == var.ndim and sum(
                v for i, v in zip(input.size(), var.size()) if i != v) == 1:
            pass                            # a size-1 dim where input has more: broadcast
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)                 # for stability; the gradient ignores the clamp
    losses = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        losses += 0.5 * math.log(2 * math.pi)
    return reduced(losses, reduction)


__all__ = ["poisson_nll_loss", "gaussian_nll_loss"]
