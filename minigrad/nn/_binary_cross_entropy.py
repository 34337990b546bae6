"""binary_cross_entropy: the cross-entropy between probabilities p (the input) and targets t,

    loss = -w (t log p + (1 - t) log(1 - p)),   reduced ('mean', 'sum' or 'none')

one node in PyTorch's graph (BinaryCrossEntropyBackward0). Its gradients, as PyTorch
computes them:

    grad_p = grad * w (p - t) / max(p (1 - p), 1e-12)    (/ N for 'mean'): one recorded
             operation, binary_cross_entropy_backward (BinaryCrossEntropyBackwardBackward0)
    grad_t = -logit(p) * grad * w                         (/ N for 'mean'): logit, then steps
             in place on the new tensor

With create_graph=True, BinaryCrossEntropyBackwardBackward0 can be differentiated again;
its own derivatives are PyTorch's formulas (with its eps = 1e-12 against dividing by 0),
written step by step below so that a third derivative walks through the same nodes.
"""
import numpy as np

from ..autograd.graph import Node
from ..autograd.grad_mode import is_grad_enabled, no_grad
from .._ops import result
from .._ops.pointwise import add_number, div_by_number, mul_by_number, where
from .._tensor import Tensor, _wrap, shrunk_to_0d
from ._argument_checks import asked_for

_EPS = 1e-12        # PyTorch's guard against dividing by 0 in these formulas


def _reduction_number(reduction):
    """0 for 'none', 1 for 'mean', 2 for 'sum' (PyTorch's Reduction enum)."""
    return ("none", "mean", "sum").index(reduction)


def _divide_in_place(tensor, number):
    """tensor.div_(number) with a C++ number, as PyTorch's formulas call it (DivBackward1)."""
    from .functional import _divide_in_place as divide
    return divide(tensor, number)


def _one_minus(tensor):
    """1 - tensor as PyTorch's C++ writes it (a tensor of ones minus tensor: SubBackward0,
    whose first input needs no gradient)."""
    return _wrap(np.ones_like(tensor._array)) - tensor


# --- logit, for the target's gradient ------------------------------------------------------------

class LogitBackward0(Node):
    """result = log(self / (1 - self))   ->
        grad_self = grad / (self (1 - self)) where 0 <= self <= 1, else nan"""

    _saved_names = ("self",)        # grad_fn._saved_self (and _saved_eps, None)

    def backward(self, grad):
        (p,) = self.saved_tensors
        inside = _wrap((p._array >= 0) & (p._array <= 1))
        nan = _wrap(np.asarray(np.nan, dtype=p._array.dtype))
        with np.errstate(divide="ignore", invalid="ignore"):      # p = 0 or 1: inf, as PyTorch
            return (where(inside, grad / (p * _one_minus(p)), nan),)


def _logit(p):
    """log(p / (1 - p)), the inverse of sigmoid (PyTorch's torch.logit without eps)."""
    with np.errstate(divide="ignore", invalid="ignore"):      # p = 0 or 1: -inf or inf
        values = np.log(p._array / (1 - p._array))
    return result(values.astype(p._array.dtype, copy=False), LogitBackward0, (p,), saved=(p,),
                  eps=None)


# --- the loss and its gradients ------------------------------------------------------------------

class BinaryCrossEntropyBackward0(Node):
    """result = -w (target log self + (1 - target) log(1 - self)), reduced   ->
        grad_self = grad * w (self - target) / max(self (1 - self), 1e-12);
        grad_target = -grad * w * logit(self)"""

    _saved_names = ("self", "target", "weight")      # grad_fn._saved_target, ...

    @property
    def _saved_reduction(self):
        """0 for 'none', 1 for 'mean', 2 for 'sum' (PyTorch's Reduction enum)."""
        return _reduction_number(self.reduction)

    def backward(self, grad):
        p, t, weight = self.saved_tensors
        grad_p = grad_t = None
        if self.should_compute_output(0):
            grad_p = binary_cross_entropy_backward(grad, p, t, weight, self.reduction)
        if self.should_compute_output(1):
            # the loss is linear in t: d/dt = log(1 - p) - log(p) = -logit(p); PyTorch's steps,
            # each in place on the new tensor (so each counts in the gradient's version)
            grad_t = _logit(p).neg_().mul_(grad)
            if weight is not None:
                grad_t.mul_(weight)
            if self.reduction == "mean":
                grad_t = _divide_in_place(grad_t, t.numel())
        return grad_p, grad_t

    def jvp(self, tangents, inputs, out):
        """result_t = reduce(w (self - target) / (self (1 - self)) self_t + w (log(1 - self) - log self) target_t)"""
        (p, t), (p_t, t_t) = inputs, tangents
        elementwise = p_t * (p - t) / (p * (1 - p)).clamp(min=_EPS)
        if t_t is not None:
            elementwise = elementwise + t_t * ((1 - p).log() - p.log())
        weight = self.saved_tensors[2]
        if weight is not None:
            elementwise = elementwise * weight
        if self.reduction == "mean":
            return elementwise.mean()
        return elementwise.sum() if self.reduction == "sum" else elementwise


def binary_cross_entropy_backward(grad, p, t, weight, reduction):
    """grad * w (p - t) / max(p (1 - p), 1e-12), / N for 'mean': the loss's gradient w.r.t. p,
    recorded as one operation (BinaryCrossEntropyBackwardBackward0) as in PyTorch."""
    a, b = p._array, t._array
    # (the kernel's 1e-12 is a C++ float: 9.99999996e-13 in float64 too)
    values = grad._array * (a - b) / np.maximum((1 - a) * a, a.dtype.type(np.float32(_EPS)))
    if weight is not None:
        values = values * weight._array
    if reduction == "mean":
        values = values / a.dtype.type(a.size)
    return result(values.astype(a.dtype, copy=False), BinaryCrossEntropyBackwardBackward0,
                  (grad, p, t), saved=(grad, p, t, weight), reduction=reduction)


class BinaryCrossEntropyBackwardBackward0(Node):
    """result = grad_output * w (self - target) / max(self (1 - self), 1e-12) (bce's backward)   ->
        grad_grad_output = grad * w (self - target) / ((self + eps) (1 - self + eps));
        grad_self = grad * grad_output * w (self**2 - 2 self target + target) / ((self + eps)**2 (1 - self + eps)**2);
        grad_target = -grad * grad_output * w / max(self (1 - self), eps)

    (each / N for 'mean'; eps = 1e-12)"""

    _saved_names = ("grad_output", "self", "target", "weight")

    @property
    def _saved_reduction(self):
        """0 for 'none', 1 for 'mean', 2 for 'sum' (PyTorch's Reduction enum)."""
        return _reduction_number(self.reduction)

    def backward(self, gg):
        grad, p, t, weight = self.saved_tensors
        mean = self.reduction == "mean"
        d_grad = d_p = d_t = None
        # PyTorch's formulas, their steps in its order (its C++ makes a product's or a sum's
        # right-hand side first); *= and /= are in place on the new tensors, as PyTorch's are
        if self.should_compute_output(0):
            denominator = _one_minus(p)
            denominator = add_number(denominator, _EPS)
            denominator = add_number(p, _EPS) * denominator
            d_grad = (p - t) / denominator
            if weight is not None:
                d_grad.mul_(weight)
            d_grad.mul_(gg)
            if mean:
                d_grad = div_by_number(d_grad, p.numel())   # (the engine sums it to grad_output's shape)
        if self.should_compute_output(1):
            p_eps = add_number(p, _EPS)
            one_minus_p_eps = add_number(_one_minus(p), _EPS)
            denominator = one_minus_p_eps.pow(2)
            denominator = p_eps.pow(2) * denominator
            cross = mul_by_number(p, 2) * t
            d_p = (p * p - cross + t) / denominator
            d_p.mul_(gg * grad)
            if weight is not None:
                d_p.mul_(weight)
            if mean:
                d_p = div_by_number(d_p, p.numel())
        if self.should_compute_output(2):
            d_t = -gg * grad
            if weight is not None:
                d_t.mul_(weight)
            denominator = _one_minus(p).mul_(p)
            with no_grad():
                denominator.clamp_(min=_EPS)
            d_t.div_(denominator)
            if mean:
                d_t = _divide_in_place(d_t, t.numel())
        return d_grad, d_p, d_t


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """Cross-entropy between probabilities ``input`` (in [0, 1]) and targets.

    Gradient: grad_input = grad * (input - target) / (input (1 - input)), divided by N for
    'mean'.
    """
    from . import functional as F
    # PyTorch's Python steps: the reduction, the sizes, the weight expanded to the target's
    # size (broadcast_shapes' error if it cannot be)
    if size_average is not None or reduce is not None:     # (PyTorch's old flags)
        from ._soft_margin_loss import _legacy_reduction
        reduction = _legacy_reduction(size_average, reduce)
    F._check_reduction(reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        asked_for("size", target, input)        # (target.size() != input.size())
    F._check_target(input, target, "binary_cross_entropy")
    if weight is not None:
        if not isinstance(weight, Tensor):
            asked_for("size", weight)
        from ..functional import broadcast_shapes
        broadcast_shapes(target.size(), weight.size())
    if target.dtype != input.dtype:
        raise RuntimeError(f"Found dtype {F.scalar_type_name(target.dtype)} but expected "
                           f"{F.scalar_type_name(input.dtype)}\nminigrad hint: targets must be "
                           f"floats like the input, e.g. target.float()")
    F._check_not_differentiable("binary_cross_entropy", weight=weight)
    if not input.dtype.is_floating_point:      # (PyTorch's kernel has floating versions only)
        raise NotImplementedError(f'"binary_cross_entropy" not implemented for '
                                  f"'{F.scalar_type_name(input.dtype)}'")
    p, t = input._array, target._array
    # PyTorch's kernel checks element by element, the input's value before the target's (NaN is
    # refused too): the first element out of [0, 1] names which one is wrong
    bad_input, bad_target = np.broadcast_arrays(~((p >= 0) & (p <= 1)), ~((t >= 0) & (t <= 1)))
    bad = (bad_input | bad_target).reshape(-1)
    if bad.any() and bad_input.reshape(-1)[np.argmax(bad)]:
        raise RuntimeError(
            "all elements of input should be between 0 and 1\nminigrad hint: they are probabilities; "
            "pass raw scores to binary_cross_entropy_with_logits instead")
    if bad.any():
        raise RuntimeError("all elements of target should be between 0 and 1\nminigrad hint: targets "
                           "are probabilities too (0 or 1 for a yes/no label)")
    if weight is not None and weight.shape != target.shape:
        if not _broadcasts(weight.shape, target.shape):     # (the kernel multiplies the losses by it in place)
            raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape "
                               f"{list(np.broadcast_shapes(weight.shape, target.shape))}")
        weight = weight.expand(target.shape)      # as PyTorch's F.binary_cross_entropy does first
    with np.errstate(divide="ignore"):
        # PyTorch clamps the logs at -100 so that p = 0 or 1 gives a finite loss; its kernel
        # takes log(1 - p) as log1p(-p), and computes (t - 1) log(1 - p) - t log(p)
        log_p = np.maximum(np.log(p), -100)
        log_1mp = np.maximum(np.log1p(-p), -100)
    losses = (t - 1) * log_1mp - t * log_p
    if weight is not None:
        losses = losses * weight._array
    # Edges to input and target only: the weight is a setting (checked above).
    # (PyTorch reduces the losses in the same tensor: indexing reads their first size, see shrunk_to_0d)
    return shrunk_to_0d(result(F._reduce(losses.astype(p.dtype), reduction), BinaryCrossEntropyBackward0,
                               (input, target), saved=(input, target, weight), reduction=reduction,
                               _count=p.size), (losses.shape or (0,))[0])


def _broadcasts(shape, to_shape):
    """Can a tensor of ``shape`` be expanded to ``to_shape``?"""
    try:
        return np.broadcast_shapes(shape, to_shape) == tuple(to_shape)
    except ValueError:
        return False
