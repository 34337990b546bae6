"""glu, the gated linear unit: the input cut in two halves a and b along ``dim``, then
a * sigmoid(b) (b decides how much of a gets through).

With s = sigmoid(b), the derivatives are

    d/da = s          d/db = a * s * (1 - s)

and the gradient, both halves joined back along ``dim``, is one recorded operation
(glu_backward, GluBackwardBackward0), as in PyTorch. Its own derivatives, w.r.t. the
incoming gradient g and the input, give the second-order terms (PyTorch's glu_double_backward).
"""
import numpy as np

from .._type_names import type_name
from ..autograd.graph import Node
from .._ops import result
from .._ops.pointwise import sigmoid, _sigmoid_array
from .._ops.shape import cat
from .._tensor import Tensor, _normalize_dim, _wrap


def _halves(array, dim):
    """numpy: the first and the second half of ``array`` along ``dim``."""
    half = array.shape[dim] // 2
    return np.split(array, [half], axis=dim)


class GluBackward0(Node):
    """result = a * sigmoid(b), (a, b) = self's halves along dim   ->
        grad_self = cat([grad * s, grad * a * s * (1 - s)], dim), s = sigmoid(b)"""

    _saved_names = ("self",)          # grad_fn._saved_self (and _saved_dim), as in PyTorch

    def backward(self, grad):
        (input,) = self.saved_tensors
        return (glu_backward(grad, input, self.dim, self.dim_as_given),)

    def jvp(self, tangents, inputs, out):
        """result_t = a_t * s + a * s * (1 - s) * b_t"""
        half = inputs[0].shape[self.dim] // 2
        a, b = inputs[0].split(half, self.dim)
        a_t, b_t = tangents[0].split(half, self.dim)
        s = sigmoid(b)
        return a_t * s + a * s * (1 - s) * b_t


def glu_backward(grad, input, dim, dim_as_given):
    """glu's gradient, recorded as one operation (GluBackwardBackward0) as in PyTorch
    (``dim_as_given``: what its grad_fn._saved_dim shows)."""
    a, b = _halves(input._array, dim)
    s = _sigmoid_array(b)
    g = grad._array
    values = np.concatenate([g * s, g * a * s * (1 - s)], axis=dim).astype(input._array.dtype, copy=False)
    return result(values, GluBackwardBackward0, (grad, input), saved=(grad, input), dim=dim,
                  dim_as_given=dim_as_given)


class GluBackwardBackward0(Node):
    """result = cat([g * s, g * a * s * (1 - s)], dim) (glu's backward, recorded)   ->
        grad_g = the two halves of gg * glu_backward(ones, self), added;
        grad_self = cat([gg_b * g * ds, gg_b * a * g * dds + gg_a * g * ds], dim)
        with ds = s * (1 - s) (sigmoid's slope) and dds = ds * (1 - s) - s * ds (its slope)"""

    _saved_names = ("grad_output", "self")

    def backward(self, gg):
        grad, input = self.saved_tensors
        dim, half = self.dim_as_given, input.shape[self.dim] // 2      # (narrow and cat show dim as given)
        d_grad = d_input = None
        if self.should_compute_output(0):
            # linear in g: gg times glu's backward of ones, its two halves added (PyTorch
            # counts this dim from the front: its nodes show it so)
            ones = _wrap(np.ones(grad.shape, dtype=input._array.dtype))
            scaled = gg * glu_backward(ones, input, self.dim, self.dim)
            d_grad = scaled.narrow(self.dim, 0, half) + scaled.narrow(self.dim, half, half)
        if self.should_compute_output(1):
            # written step by step as PyTorch does, so that create_graph=True records its nodes
            a, b = input.narrow(dim, 0, half), input.narrow(dim, half, half)
            s = sigmoid(b)
            one_minus_s = _wrap(np.ones((), dtype=s._array.dtype)) - s       # (1 as a tensor: SubBackward0)
            ds = s * one_minus_s                                            # d s / d b
            gg_a, gg_b = gg.narrow(dim, 0, half), gg.narrow(dim, half, half)
            d_a = gg_b * grad * ds
            dds = ds * one_minus_s - s * ds                                 # d ds / d b
            d_b = gg_b * a * grad * dds + gg_a * grad * ds
            d_input = cat([d_a, d_b], dim)
        return d_grad, d_input


def glu(input, dim=-1):
    """The gated linear unit: a * sigmoid(b), where a and b are the two halves of ``input``
    along ``dim`` (its size there must be even).

    Gradient: grad * sigmoid(b) for a, grad * a * sigmoid(b) * (1 - sigmoid(b)) for b.
    """
    from . import functional as F
    if not isinstance(input, Tensor):       # PyTorch's F.glu first asks input.dim()
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'dim'")
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        raise TypeError(f"glu(): argument 'dim' (position 2) must be int, not {type_name(dim)}")
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {size}")
    F._check_floating_kernel(input, "glu_cpu")
    a, b = _halves(input._array, dim)
    out = np.ascontiguousarray(a * _sigmoid_array(b)).astype(input._array.dtype, copy=False)
    return result(out, GluBackward0, (input,), saved=(input,), dim=dim, dim_as_given=dim_as_given)

