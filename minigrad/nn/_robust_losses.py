"""smooth_l1_loss and huber_loss: squared error near the target, absolute error far from it.

Both are one node in PyTorch's graph (SmoothL1LossBackward0, HuberLossBackward0) with the
derivative written out, as here. With d = input - target and z = |d|:

    smooth_l1:  0.5 z**2 / beta  if z < beta,  else z - 0.5 beta     (slope d / beta, or sign d)
    huber:      0.5 z**2         if z < delta, else delta (z - 0.5 delta)   (slope d, or delta sign d)

so huber is beta * smooth_l1 with beta = delta. smooth_l1 with beta = 0 is l1_loss (PyTorch
then records l1's graph).
"""
import numpy as np

from ..autograd.graph import Node
from .._ops import result
from .._tensor import _wrap


class _RobustLossBackward:
    """What the two nodes share (each is also a Node): backward is grad * slope(d), / N for
    'mean', and the target gets minus that."""

    _saved_names = ("self", "target")          # grad_fn._saved_self, grad_fn._saved_target

    @property
    def _saved_reduction(self):
        """0 for 'none', 1 for 'mean', 2 for 'sum' (PyTorch's Reduction enum)."""
        return ("none", "mean", "sum").index(self.reduction)

    def backward(self, grad):
        input, target = self.saved_tensors
        d = input._array - target._array
        slope = self._slope(d).astype(d.dtype, copy=False)
        if self.reduction == "mean":
            grad = grad / self._count
        g = grad * _wrap(slope)
        return g, (-g if self.should_compute_output(1) else None)


class SmoothL1LossBackward0(_RobustLossBackward, Node):
    """result = 0.5 d**2 / beta where |d| < beta, else |d| - 0.5 beta (d = self - target)   ->
        grad_self = grad * (d / beta where |d| <= beta, else sign(d)); grad_target = -grad_self"""

    def _slope(self, d):
        return np.where(d < -self.beta, -1.0, np.where(d > self.beta, 1.0, d / self.beta))


class HuberLossBackward0(_RobustLossBackward, Node):
    """result = 0.5 d**2 where |d| < delta, else delta (|d| - 0.5 delta) (d = self - target)   ->
        grad_self = grad * (d where |d| <= delta, else delta sign(d)); grad_target = -grad_self"""

    def _slope(self, d):
        return np.where(d < -self.delta, -self.delta, np.where(d > self.delta, self.delta, d))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 d**2 / beta for small differences d = input - target, |d| - 0.5 beta for large ones."""
    from . import functional as F
    F._warn_if_sizes_differ(input, target)
    input, target = F._broadcast_pair(input, target)
    F._check_reduction(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return F.l1_loss(input, target, reduction=reduction)
    d = input._array - target._array
    z = np.abs(d)
    losses = np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta).astype(d.dtype, copy=False)
    return result(F._reduce(losses, reduction), SmoothL1LossBackward0, (input, target),
                  saved=(input, target), reduction=reduction, beta=beta, _count=d.size)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 d**2 for small differences d = input - target, delta (|d| - 0.5 delta) for large ones."""
    from . import functional as F
    F._warn_if_sizes_differ(input, target)
    input, target = F._broadcast_pair(input, target)
    F._check_reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    d = input._array - target._array
    z = np.abs(d)
    losses = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)).astype(d.dtype, copy=False)
    return result(F._reduce(losses, reduction), HuberLossBackward0, (input, target),
                  saved=(input, target), reduction=reduction, delta=delta, _count=d.size)
