"""hardtanh, relu6 and threshold: activations that cut their input off at fixed values.

    hardtanh(x, min_val, max_val) = min(max(x, min_val), max_val)    (relu6 = hardtanh(x, 0, 6))
    threshold(x, threshold, value) = x if x > threshold, else value

As in PyTorch, an input equal to a bound is kept as it is (hardtanh(-0.0, 0, 6) is -0.0), NaN
passes through, and the gradient is 0 where the input is at or beyond a bound:
hardtanh's slope is 1 only for min_val < x < max_val (and for NaN), threshold's for x > threshold.
"""
import numpy as np

from ..autograd.graph import Node
from .._ops import result
from .._ops.pointwise import clip_keeping_input_on_ties
from .._ops.inplace import apply_inplace
from .._tensor import _wrap


class HardtanhBackward0(Node):
    """result = clamp(self, min_val, max_val)   ->
        grad_self = 0 where self <= min_val or self >= max_val, else grad"""

    _saved_names = ("self",)        # grad_fn._saved_self; _saved_min_val, _saved_max_val the numbers

    def backward(self, grad):
        (x,) = self.saved_tensors
        cut = (x._array <= self.min_val) | (x._array >= self.max_val)
        return (_wrap(np.where(cut, grad._array.dtype.type(0), grad._array)),)


class ThresholdBackward0(Node):
    """result = self where self > threshold, else value   ->
        grad_self = 0 where self <= threshold, else grad"""

    _saved_names = ("self",)        # grad_fn._saved_self; _saved_threshold the number

    def backward(self, grad):
        (x,) = self.saved_tensors
        cut = x._array <= self.threshold
        return (_wrap(np.where(cut, grad._array.dtype.type(0), grad._array)),)


class ThresholdBackward1(ThresholdBackward0):
    """result = threshold(self, threshold, value, inplace=True), PyTorch's in-place node   ->
        grad_self = 0 where self <= threshold, else grad"""


def _hardtanh(input, min_val, max_val):
    x = input._array
    if x.dtype.kind == "b":
        raise RuntimeError('"hardtanh_backward_cpu" not implemented for \'Bool\'')
    out = clip_keeping_input_on_ties(x, min_val, max_val).astype(x.dtype, copy=False)
    return result(out, HardtanhBackward0, (input,), saved=(input,), min_val=min_val, max_val=max_val)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x cut off to [min_val, max_val]. Gradient: grad strictly inside, else 0."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return apply_inplace(input, lambda t: _hardtanh(t, min_val, max_val))
    return _hardtanh(input, min_val, max_val)


def relu6(input, inplace=False):
    """min(max(x, 0), 6): hardtanh(x, 0, 6), recorded as HardtanhBackward0 (as in PyTorch)."""
    return hardtanh(input, 0, 6, inplace=inplace)


def _threshold(input, threshold, value, node_class):
    x = input._array
    out = np.where(x > threshold, x, np.asarray(value).astype(x.dtype)).astype(x.dtype, copy=False)
    # (NaN is not > threshold, but PyTorch's rule is "x <= threshold ? value : x": NaN stays)
    out = np.where(np.isnan(x), x, out) if x.dtype.kind == "f" else out
    return result(out, node_class, (input,), saved=(input,), threshold=threshold)


def threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else value. Gradient: grad where x > threshold, else 0."""
    if inplace:
        return apply_inplace(input, lambda t: _threshold(t, threshold, value, ThresholdBackward1))
    return _threshold(input, threshold, value, ThresholdBackward0)
