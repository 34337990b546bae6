"""soft_margin_loss: logistic loss for labels y = 1 or -1.

    loss(x, y) = log(1 + e^(-y x))              (per element, then mean, sum or none)
    d loss/dx  = -y e^(-y x) / (1 + e^(-y x))  (= -y sigmoid(-y x)), / N for 'mean'

It is small when x has the sign of y and is large, and grows like -y x when the sign is
wrong. PyTorch records one node (SoftMarginLossBackward0); its gradient is one recorded
operation too (soft_margin_loss_backward), whose own derivative w.r.t. x is

    grad * grad_output * y^2 e^(-y x) / (1 + e^(-y x))^2   (/ N for 'mean')

written with ordinary operations, so the third-order graph shows them. The target is a
setting: it may not require grad.
"""
import warnings

import numpy as np

from .._type_names import type_name
from ..autograd.graph import Node
from .._ops import result
from .._ops.pointwise import NEGATIVE_BOOL_MESSAGE, add_number, check_broadcasts_into, div_by_number
from .._ops.inplace import apply_inplace
from .._tensor import Tensor, _wrap, shrunk_to_0d
from .._creation import ones_like
from .._dtype import result_type, scalar_type_name, from_numpy_dtype
from .._warnings import stacklevel_outside_minigrad
from ..autograd.kernel_writes import kernel_writes

_REDUCTIONS = ("none", "mean", "sum")      # PyTorch's Reduction enum: 0, 1, 2


class _ReductionAsNumber:
    @property
    def _saved_reduction(self):
        """0 for 'none', 1 for 'mean', 2 for 'sum' (PyTorch's Reduction enum)."""
        return _REDUCTIONS.index(self.reduction)


class SoftMarginLossBackward0(_ReductionAsNumber, Node):
    """result = log(1 + e ** (-target self)), reduced   ->
        grad_self = -target e ** (-target self) / (1 + e ** (-target self)) * grad (/ N for 'mean')"""

    _saved_names = ("self", "target")       # grad_fn._saved_self, grad_fn._saved_target

    def backward(self, grad):
        x, target = self.saved_tensors
        return (soft_margin_loss_backward(grad, x, target, self.reduction),)


def _soft_margin_slope(grad, x, y, reduction):
    """numpy: PyTorch's kernel steps: z = e^(-y x); (y z) (-norm) / (z + 1) * grad."""
    norm = 1.0 / x.size if reduction == "mean" and x.size else 1.0
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        z = np.exp(-y * x)
        return (y * z) * x.dtype.type(-norm) / (z + 1) * grad


def soft_margin_loss_backward(grad, x, target, reduction):
    """The gradient w.r.t. x, recorded as one operation (SoftMarginLossBackwardBackward0), as
    PyTorch's soft_margin_loss_backward is."""
    y = target._array if target._array.dtype.kind == "f" else target._array.astype(x._array.dtype)
    values = _soft_margin_slope(grad._array, x._array, y, reduction)
    values = np.broadcast_to(values, x.shape).astype(x._array.dtype)
    return result(values, SoftMarginLossBackwardBackward0, (grad, x), saved=(grad, x, target),
                  reduction=reduction)


class SoftMarginLossBackwardBackward0(_ReductionAsNumber, Node):
    """result = soft_margin_loss_backward(grad_output, self, target)   ->
        grad_grad_output = soft_margin_loss_backward(grad, self, target) (summed with grad for a reduced loss)
        grad_self = grad * grad_output * target^2 z / (1 + z)^2, z = e ** (-target self) (/ N for 'mean')"""

    _saved_names = ("grad_output", "self", "target")

    def backward(self, gg):
        grad_output, x, target = self.saved_tensors
        d_grad_output = d_x = None
        if self.should_compute_output(0):
            if self.reduction == "none":
                d_grad_output = soft_margin_loss_backward(gg, x, target, self.reduction)
            else:
                # grad_output was one number: its gradient is the slope for a 1, dotted with gg
                slopes = soft_margin_loss_backward(ones_like(grad_output), x, target, self.reduction)
                d_grad_output = (slopes * gg).sum()
        if self.should_compute_output(1):
            d_x = _soft_margin_double_backward(gg * grad_output, x, target, self.reduction)
        return d_grad_output, d_x


def _soft_margin_double_backward(grad, x, target, reduction):
    """grad * target^2 z / (1 + z)^2, z = e^(-target x), in PyTorch's steps (so that a
    third-order gradient walks through the same nodes)."""
    z = (x * _wrap(-target._array)).exp()
    z_plus_one = add_number(z, 1)
    out = grad * _wrap(target._array * target._array) * z / (z_plus_one * z_plus_one)
    if reduction == "mean":
        # PyTorch divides in place by the number of elements (DivBackward1)
        out = apply_inplace(out, lambda t: div_by_number(t, x.numel()))
    return out


def _legacy_reduction(size_average, reduce):
    """PyTorch's old flags turned into ``reduction``, with its warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else ("sum" if reduce else "none")
    warnings.warn(f"size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", UserWarning,
                  stacklevel=stacklevel_outside_minigrad())
    return reduction


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + e^(-target * input)), averaged (or summed, or kept per element).

    For labels target = 1 or -1. Gradient: -target sigmoid(-target input) (/ N for 'mean').
    """
    for name, position, value in (("input", 1, input), ("target", 2, target)):
        if not isinstance(value, Tensor):
            raise TypeError(f"soft_margin_loss(): argument '{name}' (position {position}) must be "
                            f"Tensor, not {type_name(value)}")
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    elif reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target._graph_requires_grad:
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect to "
                           "argument 'target'. This input cannot have requires_grad True.")
    x, y = input._array, target._array
    # PyTorch's steps: -input written into a new tensor of input's shape and dtype, then
    # multiplied by target in place, e^ and log1p in place: so target may only broadcast
    # into input's shape, and the result keeps input's dtype (a bool input fails at -input,
    # before target is looked at)
    if x.dtype.kind == "b":
        raise RuntimeError(NEGATIVE_BOOL_MESSAGE)
    check_broadcasts_into(input, target)
    if x.dtype.kind != "f":       # (an integer result of -input cannot take e^ or a float target)
        found = result_type(input, target)
        found = "Float" if found.kind != "f" else scalar_type_name(from_numpy_dtype(found))
        raise RuntimeError(f"result type {found} can't be cast to the desired output type "
                           f"{input.dtype.tensor_type_name[:-len('Tensor')]}")
    if y.dtype.kind != "f":
        y = y.astype(x.dtype)             # (integer labels compute in the input's dtype)
    with np.errstate(over="ignore"):
        losses = np.log1p(np.exp((-x * y).astype(x.dtype, copy=False)))
    first_size = (losses.shape or (0,))[0]
    if reduction in ("mean", "sum"):
        from .functional import _reduce          # (functional.py imports this file)
        losses = _reduce(losses, reduction)     # (in PyTorch's order of additions)
    # (PyTorch reduces the losses in the same tensor: indexing reads their first size, see shrunk_to_0d)
    out = result(losses, SoftMarginLossBackward0, (input,), saved=(input, target), reduction=reduction)
    return shrunk_to_0d(kernel_writes("soft_margin_loss", out, input, target), first_size)
