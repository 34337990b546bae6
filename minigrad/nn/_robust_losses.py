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
from .._tensor import Tensor, _wrap, shrunk_to_0d
from .._dtype import scalar_type_name
from ..autograd.kernel_writes import kernel_writes
from ._argument_checks import asked_for


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


# PyTorch's kernels multiply in one order in its blocks of vector registers (where beta and
# delta are numbers of the tensor's dtype) and in another one element at a time at the end of
# a row (where they stay C++ doubles): the last bit of float32 depends on it, so both are
# written out, and `vector` says which elements each one computes (see _hardtanh.py).

def _smooth_l1_slope(d, g, norm, beta, vector):
    """grad * d smooth_l1 / d input, times norm (1 / N for 'mean'): d / beta * grad near the
    target, -+grad beyond beta."""
    kind = d.dtype.type
    inside_vector = norm * (d / kind(beta)) * g
    inside_one_by_one = ((norm * d * g).astype(np.float64) / beta).astype(d.dtype)
    inside = np.where(vector, inside_vector, inside_one_by_one)
    return np.where(d <= -beta, -norm * g, np.where(d >= beta, norm * g, inside))


def _huber_slope(d, g, norm, delta, vector):
    """grad * d huber / d input, times norm (1 / N for 'mean'): d * grad near the target,
    -+delta * grad beyond delta."""
    kind = d.dtype.type
    outside = np.where(vector, norm * kind(delta) * g,
                       ((norm * g).astype(np.float64) * delta).astype(d.dtype))
    return np.where(d <= -delta, -outside, np.where(d >= delta, outside, norm * d * g))


def _loss_backward(node_class, grad, input, target, reduction, cutoff):
    """grad * slope(input - target) (/ N for 'mean'), recorded as one operation, as PyTorch's
    smooth_l1_loss_backward and huber_loss_backward are."""
    from ._hardtanh import _in_vector_registers
    if node_class.one_dtype_only:
        # huber_loss_backward's loop takes no mixed dtypes: the gradient (in the loss's promoted
        # dtype) or the other input must have this input's dtype
        for other in (grad, target):
            if other._array.dtype != input._array.dtype:
                raise RuntimeError(f"Found dtype {scalar_type_name(other.dtype)} but expected "
                                   f"{scalar_type_name(input.dtype)}")
    d = input._array - target._array
    kind = d.dtype.type
    norm = kind(1.0 / d.size) if reduction == "mean" and d.size else kind(1.0)
    g = grad._array.astype(d.dtype, copy=False)
    # (PyTorch writes into a new row-major tensor: inputs laid out otherwise go one by one)
    row_major_output = np.empty(d.shape, d.dtype)
    vector = (_in_vector_registers(row_major_output, input._array, target._array, g) if d.ndim
              else np.asarray(False))
    with np.errstate(invalid="ignore"):          # NaN compares as False, and stays NaN
        out = node_class.slope(d, g, norm, cutoff, vector)
    # computed in the common dtype, written into zeros like ``input`` (PyTorch's grad_input): a
    # float32 input with a float64 target gets a float32 gradient from this node itself
    return result(out.astype(input._array.dtype, copy=False), node_class, (grad, input, target),
                  saved=(grad, input, target), reduction=reduction, **{node_class.cutoff_name: cutoff})


class _RecordedLossBackward:
    """What the two recorded backwards share. Their result grad_output * slope(d) is linear in
    grad_output; the slope's own slope (the curve) is constant where |d| < the cutoff and 0
    beyond, so d result / d self is grad_output times that curve, and the target gets minus it.
    Each derivative is written with tensor operations in PyTorch's steps, so that a third
    derivative walks through the same nodes."""

    _saved_names = ("grad_output", "self", "target")

    @property
    def _saved_reduction(self):
        """0 for 'none', 1 for 'mean', 2 for 'sum' (PyTorch's Reduction enum)."""
        return ("none", "mean", "sum").index(self.reduction)

    @property
    def cutoff(self):
        """beta (smooth_l1) or delta (huber): where the curve bends."""
        return getattr(self, self.cutoff_name)

    def backward(self, gg):
        grad, x, t = self.saved_tensors
        d_grad = d_x = d_t = None
        if self.should_compute_output(0):
            d_grad = self.grad_output_backward(gg, grad, x, t)
        if self.should_compute_output(1):
            d_x = self.double_backward(gg * grad, x, t)
        if self.should_compute_output(2):
            d_t = -self.double_backward(gg * grad, x, t)
        return d_grad, d_x, d_t

    def _inside(self, x, t):
        """|self - target| < the cutoff (False for NaN), as a mask tensor."""
        with np.errstate(invalid="ignore"):
            return np.abs(x._array - t._array) < self.cutoff

    def _divided_for_mean(self, tensor, x):
        """/ N for 'mean', in place on the new tensor as PyTorch's formula does (the gradient
        then counts that step in its version)."""
        if self.reduction == "mean":
            from .functional import _divide_in_place
            return _divide_in_place(tensor, x.numel())
        return tensor


class SmoothL1LossBackwardBackward0(_RecordedLossBackward, Node):
    """result = grad_output * slope(d), slope = clamp(d / beta, -1, 1) (smooth_l1's backward)   ->
        grad_grad_output = smooth_l1_loss_backward(grad, self, target); grad_self = grad * grad_output / beta where |d| < beta (else 0); grad_target = -grad_self"""

    slope = staticmethod(_smooth_l1_slope)
    cutoff_name = "beta"
    one_dtype_only = False      # (a float32 input and a float64 target: computed in float64)

    def grad_output_backward(self, gg, grad, x, t):
        """the same backward, of gg (the engine sums it to a reduced loss's one number)"""
        return _loss_backward(type(self), gg, x, t, self.reduction, self.beta)

    def double_backward(self, product, x, t):
        """product * (|d| < beta) / beta, / N for 'mean'"""
        from .functional import div_by_number
        inside = _wrap(self._inside(x, t).astype(product._array.dtype))
        return self._divided_for_mean(div_by_number(product * inside, self.beta), x)


class HuberLossBackwardBackward0(_RecordedLossBackward, Node):
    """result = grad_output * slope(d), slope = clamp(d, -delta, delta) (huber's backward)   ->
        grad_grad_output = sum(grad * huber_loss_backward(1, self, target)); grad_self = grad * grad_output where |d| < delta (else 0); grad_target = -grad_self"""

    slope = staticmethod(_huber_slope)
    cutoff_name = "delta"
    one_dtype_only = True       # (PyTorch's loop refuses a float64 target of a float32 input)

    def grad_output_backward(self, gg, grad, x, t):
        """the same backward, of gg for 'none'; of ones, times gg, summed for 'mean' and 'sum'
        (PyTorch's steps)"""
        if self.reduction == "none":
            return _loss_backward(type(self), gg, x, t, self.reduction, self.delta)
        ones = _wrap(np.ones_like(grad._array))
        return (_loss_backward(type(self), ones, x, t, self.reduction, self.delta) * gg).sum()

    def double_backward(self, product, x, t):
        """product * (|d| < delta), / N for 'mean' (PyTorch multiplies by the bool mask itself)"""
        return self._divided_for_mean(product * _wrap(self._inside(x, t)), x)

    def jvp(self, tangents, inputs, out):
        """result_t = (none: PyTorch has no forward-mode rule for huber_loss_backward, and says so)"""
        raise NotImplementedError(
            "Trying to use forward AD with huber_loss_backward that does not support it because "
            "it has not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
            "can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml")


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
    reduction = F._regression_loss_start(input, target, size_average, reduce, reduction)
    input, target = F._broadcast_pair(input, target)
    F._check_reduction(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return F.l1_loss(input, target, reduction=reduction)
    d = F._difference_in(F._loss_dtype(input, target, "smooth_l1_cpu"), input, target)
    z = np.abs(d)
    losses = np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta).astype(d.dtype, copy=False)
    # (PyTorch reduces the losses in the same tensor: indexing reads their first size, see shrunk_to_0d)
    out = result(F._reduce(losses, reduction), SmoothL1LossBackward0, (input, target),
                 saved=(input, target), reduction=reduction, beta=beta, _count=d.size)
    return shrunk_to_0d(kernel_writes("smooth_l1_loss", out, input, target, reduction=reduction),
                        (d.shape or (0,))[0])


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 d**2 for small differences d = input - target, delta (|d| - 0.5 delta) for large ones;
    with ``weight`` (input's size), each element's loss times its weight, then reduced."""
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        asked_for("size", target, input)        # (PyTorch's first step: target.size() != input.size())
    if weight is None:
        return _huber_loss(input, target, reduction, delta)
    # PyTorch's Python steps: the sizes compared and the pair broadcast, the weight's size
    # checked, the loss of each element (HuberLossBackward0), times the weight (MulBackward0),
    # then its own sum or mean
    from . import functional as F
    F._warn_if_sizes_differ(input, target)
    expanded_input, expanded_target = F._broadcast_pair(input, target)
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    weighted = _huber_loss(expanded_input, expanded_target, "none", delta) * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    if reduction == "mean":
        return weighted.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def _huber_loss(input, target, reduction, delta):
    """huber_loss without a weight: one node, HuberLossBackward0."""
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
