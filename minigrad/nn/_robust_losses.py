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
    """What the two loss nodes share (each is also a Node): backward is grad * slope(d), / N
    for 'mean'. As in PyTorch, the target's gradient is the same backward with self and target
    swapped, and each is one recorded operation (the BackwardBackward0 nodes below), so that
    create_graph=True can differentiate the gradient again."""

    _saved_names = ("self", "target")          # grad_fn._saved_self, grad_fn._saved_target

    @property
    def _saved_reduction(self):
        """0 for 'none', 1 for 'mean', 2 for 'sum' (PyTorch's Reduction enum)."""
        return ("none", "mean", "sum").index(self.reduction)

    def backward(self, grad):
        input, target = self.saved_tensors
        recorded, cutoff = self._recorded_backward, self._cutoff
        grad_input = grad_target = None
        if self.should_compute_output(0):
            grad_input = _loss_backward(recorded, grad, input, target, self.reduction, cutoff)
        if self.should_compute_output(1):
            grad_target = _loss_backward(recorded, grad, target, input, self.reduction, cutoff)
        return grad_input, grad_target


def _smooth_l1_slope(d, beta):
    """d smooth_l1 / d input: d / beta near the target, the sign of d beyond beta."""
    return np.clip(d / beta, -1.0, 1.0)


def _huber_slope(d, delta):
    """d huber / d input: d near the target, delta times the sign of d beyond delta."""
    return np.clip(d, -delta, delta)


def _loss_backward(node_class, grad, input, target, reduction, cutoff):
    """grad * slope(input - target) (/ N for 'mean'), recorded as one operation, as PyTorch's
    smooth_l1_loss_backward and huber_loss_backward are."""
    d = input._array - target._array
    out = grad._array * node_class.slope(d, cutoff)
    if reduction == "mean":
        out = out / d.size
    return result(out.astype(d.dtype, copy=False), node_class, (grad, input, target),
                  saved=(grad, input, target), reduction=reduction, cutoff=cutoff)


class _RecordedLossBackward:
    """What the two recorded backwards share: their own derivatives. The slope's slope (the
    curve) is constant where |d| < the cutoff and 0 beyond, so d slope / d input is that
    curve, and the target gets minus it."""

    _saved_names = ("grad_output", "self", "target")

    def backward(self, gg):
        grad, x, t = self.saved_tensors
        d = x._array - t._array
        scale = 1 / d.size if self.reduction == "mean" and d.size else 1
        d_grad = d_x = d_t = None
        if self.should_compute_output(0):
            d_grad = gg * _wrap((self.slope(d, self.cutoff) * scale).astype(d.dtype))
            if d_grad.shape != grad.shape:      # grad_output of a reduced loss is one number
                d_grad = d_grad.sum()
        if self.should_compute_output(1) or self.should_compute_output(2):
            curve = np.where(np.abs(d) < self.cutoff, self.curve_height(self.cutoff), 0.0)
            bend = gg * grad * _wrap(curve.astype(d.dtype))
            if self.reduction == "mean" and d.size:
                # PyTorch divides its result by the number of elements in place (the input's
                # gradient is then at version 1; the target's, its negation, at 0)
                bend.div_(d.size)
            d_x = bend if self.should_compute_output(1) else None
            d_t = -bend if self.should_compute_output(2) else None
        return d_grad, d_x, d_t


class SmoothL1LossBackwardBackward0(_RecordedLossBackward, Node):
    """result = grad_output * slope(d), slope = clamp(d / beta, -1, 1) (smooth_l1's backward)   ->
        grad_grad_output = grad * slope(d); grad_self = grad * grad_output / beta where |d| < beta (else 0); grad_target = -grad_self"""

    slope = staticmethod(_smooth_l1_slope)

    @staticmethod
    def curve_height(beta):
        return 1.0 / beta


class HuberLossBackwardBackward0(_RecordedLossBackward, Node):
    """result = grad_output * slope(d), slope = clamp(d, -delta, delta) (huber's backward)   ->
        grad_grad_output = grad * slope(d); grad_self = grad * grad_output where |d| < delta (else 0); grad_target = -grad_self"""

    slope = staticmethod(_huber_slope)

    @staticmethod
    def curve_height(delta):
        return 1.0


class SmoothL1LossBackward0(_RobustLossBackward, Node):
    """result = 0.5 d**2 / beta where |d| < beta, else |d| - 0.5 beta (d = self - target)   ->
        grad_self = grad * (d / beta where |d| <= beta, else sign(d)); grad_target = grad * slope(target - self)"""

    _recorded_backward = SmoothL1LossBackwardBackward0

    @property
    def _cutoff(self):
        return self.beta


class HuberLossBackward0(_RobustLossBackward, Node):
    """result = 0.5 d**2 where |d| < delta, else delta (|d| - 0.5 delta) (d = self - target)   ->
        grad_self = grad * (d where |d| <= delta, else delta sign(d)); grad_target = grad * slope(target - self)"""

    _recorded_backward = HuberLossBackwardBackward0

    @property
    def _cutoff(self):
        return self.delta


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
    d = (input._array - target._array).astype(F._loss_dtype(input, target, "smooth_l1_cpu"),
                                              copy=False)
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
    dtype = F._loss_dtype(input, target, "huber_cpu")
    if not input.is_floating_point():
        # PyTorch writes the loss into a tensor like the input, which cannot hold floats
        raise RuntimeError(f"result type {F.scalar_type_name(F.from_numpy_dtype(dtype))} can't be "
                           f"cast to the desired output type {F.scalar_type_name(input.dtype)}")
    d = (input._array - target._array).astype(input._array.dtype, copy=False)
    z = np.abs(d)
    losses = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)).astype(d.dtype, copy=False)
    return result(F._reduce(losses, reduction), HuberLossBackward0, (input, target),
                  saved=(input, target), reduction=reduction, delta=delta, _count=d.size)
