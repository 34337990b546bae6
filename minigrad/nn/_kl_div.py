"""kl_div: the Kullback-Leibler divergence of ``target`` from the distribution whose
log-probabilities are ``input``, built from ordinary operations as PyTorch builds it:

    loss = xlogy(target, target) - target * input        (target holds probabilities)
    loss = exp(target) * (target - input)                (log_target=True: log-probabilities)

then reduced: 'batchmean' (sum / batch size: the mathematical KL divergence per sample),
'sum', 'mean' (over every element, with PyTorch's warning) or 'none'. Gradient with
respect to input: -target / N (or -exp(target) / N), composed by the engine.
"""
import warnings

import numpy as np

from .. import _c_library_logf
from ..autograd.graph import Node
from .._ops import result
from .._tensor import Tensor, _wrap
from ._argument_checks import parse_as
from ..autograd.function import _FuncTransforms
from .._functorch import warn_no_batching_rule
from .._warnings import stacklevel_outside_minigrad


class XlogyBackward0(Node):
    """result = self * log(other) (0 where self == 0)   ->
        grad_self = grad * log(other) (0 where self == 0 and other <= 0); grad_other = grad * self / other"""

    _saved_names = ("other", "self")       # grad_fn._saved_other, grad_fn._saved_self

    def backward(self, grad):
        other, x = self.saved_tensors
        grad_self = grad_other = None
        # other's gradient first, as PyTorch's generated node computes them
        if self.should_compute_output(1):
            grad_other = grad * x / other
        if self.should_compute_output(0):
            # xlogy itself, of grad (recorded: with create_graph=True it depends on grad and
            # other), then 0 where self == 0 and other <= 0
            zero_there = _wrap((x._array == 0) & (other._array <= 0))
            grad_self = xlogy(grad, other).masked_fill(zero_there, 0.0)
        return grad_self, grad_other


def _xlogy(x, y):
    """x * log(y), 0 where x == 0 (unless y is nan), as torch.xlogy."""
    with np.errstate(divide="ignore", invalid="ignore"):
        # PyTorch's kernel takes the C library's log (glibc's logf for float32, followed bit for
        # bit); numpy's own float32 log misses it in the last bit now and then
        log_y = _c_library_logf.c_library_log(y)
        out = np.asarray(x * log_y)
    return np.where((x == 0) & ~np.isnan(y), out.dtype.type(0), out)


def xlogy(input, other):
    """``input * log(other)``, taken as 0 where input is 0 (so 0 * log(0) is 0, not nan)."""
    values = _xlogy(input._array, other._array).astype(np.result_type(input._array, other._array),
                                                         copy=False)
    return result(values, XlogyBackward0, (input, other), saved=(other, input))


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """KL divergence of ``target`` from log-probabilities ``input`` (see the module docstring)."""
    if size_average is not None or reduce is not None:     # (PyTorch's old flags: no 'mean' warning)
        from ._soft_margin_loss import _legacy_reduction
        reduction = _legacy_reduction(size_average, reduce)
    else:
        check_reduction(reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        parse_as("kl_div", input, target, 1, log_target=log_target)    # (PyTorch's C++ function)
    loss = kl_div_of_elements(input, target, "sum" if reduction == "batchmean" else reduction,
                              log_target)
    return divided_by_batch_size(loss, input, reduction)


def check_reduction(reduction):
    """PyTorch's Python checks: a known reduction, and a warning for 'mean'."""
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if reduction == "mean":
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support size."
            "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
            "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
            UserWarning, stacklevel=stacklevel_outside_minigrad())


def kl_div_of_elements(input, target, reduction, log_target):
    """PyTorch's aten::kl_div: the loss of each element, reduced ('mean', 'sum' or 'none').
    (vmap has no batching rule for it, in PyTorch either: func/_batch_rules.py.)"""
    if _FuncTransforms.vmaps:
        warn_no_batching_rule("kl_div", (input, target))
    if input._array.dtype.kind in "biu" or target._array.dtype.kind in "biu":   # (before the shapes)
        raise RuntimeError("kl_div: Integral inputs not supported.")
    # PyTorch's C++ works out the right-hand side of each line first (so its nodes are made
    # first, and run after the others in backward: it shows in the order gradients add up)
    if log_target:
        difference = target - input
        loss = target.exp() * difference
    else:
        cross = target * input
        loss = xlogy(target, target) - cross
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def divided_by_batch_size(loss, input, reduction):
    """'batchmean': the sum divided by the batch size (input's first dim), in Python as in
    PyTorch's F.kl_div; the loss as it is for the other reductions."""
    if reduction == "batchmean" and input.ndim != 0:
        from .._creation import tensor
        return loss / tensor(input.shape[0])
    return loss
