"""Losses and activations, as in ``torch.nn.functional``.

Each loss is one node in the graph (``MseLossBackward0``,
``BinaryCrossEntropyWithLogitsBackward0``, ...), like in PyTorch, with its
derivative written out next to it. ``cross_entropy`` is, as in PyTorch,
``log_softmax`` followed by ``nll_loss``. Activations and losses with more to say have
a file of their own next to this one (_elu.py: elu, selu, celu; _hardswish.py;
_mish.py; _soft_margin_loss.py; ...).
"""
import math
import warnings

import numpy as np

from .._type_names import type_name
from .._tensor import Tensor, _wrap, _normalize_dim, shrunk_to_0d
from .. import _zero_tensor
from ..autograd.graph import Node
from ..autograd.grad_mode import is_grad_enabled, _State
from ..autograd.forward_ad import _DualLevel
from .._ops import result, save_result, numpy_keywords, batched_as
from .._functorch import drawn
from ..autograd.function import _FuncTransforms
from .._ops.pointwise import sigmoid, tanh, _sigmoid_array, _silu_array  # noqa: F401  (re-exported)
from .._ops.pointwise import backward_kernel_layout, sigmoid_backward
from .._ops.pointwise import relu as _relu_out_of_place, exp, where, div_by_number, add_number, mul_by_number
from .._ops.pointwise import _broadcast_error, check_broadcasts_into, kernel_not_implemented
from .._ops.pointwise import opmath_dtype, times_number
from .._ops.pointwise import (_sigmoid_float32_scalar, _sigmoid_float32_vectorized, _sigmoid_float64_scalar,
                              _sigmoid_float64_vectorized)
from .._ops.linalg import addmm, matmul
from .._ops.reduction import _mean_array, _sum_array
from .._dtype import checked_number, cpp_name, scalar_type_name, result_type, from_numpy_dtype, dtype as _dtype_class
from .._creation import zeros
from .._memory_format import is_non_overlapping_and_dense
from .._ops.special import _erf_array, erf
from .._ops.inplace import apply_inplace, apply_pointwise_inplace
from .._ops.views import history_first
from .._ops.inplace_unary import METHODS
from .._python_arg_parser import checked, PARAMETERS
from .._warnings import quietly, stacklevel_outside_minigrad
from .. import _c_library_expf, _sleef_double_pairs, _sleef_float_pairs, _sleef_mathfun, _sleef_pow, _vectorized_loop
from . import _cross_entropy, _nll_sum, _softmax_kernel
from ..autograd.kernel_writes import kernel_writes
from ._argument_checks import REQUIRED, NUMBER, asked_for, parse_as, as_number, not_a_tensor
from ._argument_checks import reduction_number, stacklevel_checked

_REDUCTIONS = ("none", "mean", "sum")


def _reduce(array, reduction):
    """The per-element losses averaged ('mean') or added up ('sum') in PyTorch's order (the
    loss is a fresh, contiguous tensor there), or kept ('none')."""
    if reduction == "mean":
        return np.asarray(_mean_array(np.ascontiguousarray(array)), dtype=array.dtype)
    if reduction == "sum":
        array = np.ascontiguousarray(array)
        return np.asarray(_sum_array(array, tuple(range(array.ndim)), False, array.dtype),
                          dtype=array.dtype)
    return array


def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction"
                         "\nminigrad hint: use 'mean', 'sum' or 'none'")


def _scale_back(grad, node):
    """The gradient of a reduced loss, spread back over the elements it averaged or summed."""
    if node.reduction == "mean":
        return grad / node._count
    return grad


def _divide_in_place(tensor, number):
    """``tensor.div_(number)`` as PyTorch's formulas call it with a C++ number (recorded as
    DivBackward1, the node of a division by a number)."""
    return apply_inplace(tensor, lambda t: div_by_number(t, number))


def _reduce_tangent(tangent, node):
    """A loss's tangent, reduced the way the loss itself was."""
    if node.reduction == "mean":
        return tangent.mean()
    if node.reduction == "sum":
        return tangent.sum()
    return tangent


def _check_target(input, target, name):
    if not isinstance(target, Tensor):
        raise TypeError(f"{name}(): argument 'target' must be Tensor, not {type_name(target)}")
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size.")


def _check_not_differentiable(function, **arguments):
    """Weights of a loss are settings, not parameters: PyTorch refuses them requiring grad."""
    for name, value in arguments.items():
        if value is not None and value._graph_requires_grad:
            raise RuntimeError(
                f"The function '{function}' is not differentiable with respect to argument "
                f"'{name}'. This input cannot have requires_grad True.")


class _ReductionAsNumber:
    """For a loss's node: ``grad_fn._saved_reduction`` is PyTorch's number for the reduction."""

    @property
    def _saved_reduction(self):
        """0 for 'none', 1 for 'mean', 2 for 'sum' (PyTorch's Reduction enum)."""
        return _REDUCTIONS.index(self.reduction)


# --- mean squared error -------------------------------------------------------------------------

class MseLossBackward0(_ReductionAsNumber, Node):
    """result = mean((self - target)**2) (over N elements)   ->
        grad_self = grad * 2 (self - target) / N; grad_target = grad * 2 (target - self) / N

    Each gradient is one recorded operation, mse_loss_backward (the target's with self and
    target swapped, as PyTorch computes it): with create_graph=True it shows as
    MseLossBackwardBackward0, which can be differentiated again."""

    _saved_names = ("self", "target")        # grad_fn._saved_self, grad_fn._saved_target

    def backward(self, grad):
        input, target = self.saved_tensors
        grad_input = grad_target = None
        if self.should_compute_output(0):
            grad_input = mse_loss_backward(grad, input, target, self.reduction)
        if self.should_compute_output(1):
            grad_target = mse_loss_backward(grad, target, input, self.reduction)
        return grad_input, grad_target

    def jvp(self, tangents, inputs, out):
        """result_t = reduce(2 (self - target) (self_t - target_t))"""
        (x, y), (x_t, y_t) = inputs, tangents
        return _reduce_tangent(2 * (x - y) * (x_t - y_t), self)


def mse_loss_backward(grad, input, target, reduction):
    """grad * 2 (input - target), / N for 'mean': mse_loss's gradient w.r.t. input, recorded
    as one operation (MseLossBackwardBackward0) as PyTorch's mse_loss_backward is."""
    # PyTorch's kernel: norm * (input - target) * grad, norm = 2 / N (or 2) in the dtype it
    # computes in; the gradient takes the input's dtype
    dtype = result_type(grad, input, target)        # (PyTorch's promotion: int32 and float32 give float32)
    norm = 2.0 / input._array.size if reduction == "mean" and input._array.size else 2.0
    with np.errstate(invalid="ignore", over="ignore"):          # inf - inf: nan, as PyTorch
        values = dtype.type(norm) * _difference_in(dtype, input, target) * grad._array
    return result(values.astype(input._array.dtype, copy=False), MseLossBackwardBackward0,
                  (grad, input, target), saved=(grad, input, target), reduction=reduction)


class MseLossBackwardBackward0(_ReductionAsNumber, Node):
    """result = grad_output * 2 (self - target) / N (mse_loss's backward, recorded)   ->
        grad_grad_output = mse_loss_backward(grad, self, target);
        grad_self = 2 grad * grad_output / N; grad_target = -grad_self

    Linear in grad_output and in self - target, so each derivative is short. The one for
    grad_output has self's shape: the engine sums it to a reduced loss's single number."""

    _saved_names = ("grad_output", "self", "target")

    def backward(self, gg):
        grad, input, target = self.saved_tensors
        d_grad = d_input = d_target = None
        if self.should_compute_output(0):
            d_grad = mse_loss_backward(gg, input, target, self.reduction)
        if self.should_compute_output(1):
            d_input = _mse_loss_double_backward(gg * grad, input, self.reduction)
        if self.should_compute_output(2):
            d_target = -_mse_loss_double_backward(gg * grad, target, self.reduction)
        return d_grad, d_input, d_target

    def jvp(self, tangents, inputs, out):
        """result_t = 2 (self_t - target_t) grad_output / N + mse_loss_backward(grad_output_t, self, target)"""
        (grad, input, target), (grad_t, input_t, target_t) = inputs, tangents
        if self.reduction == "mean" and any(getattr(t, "_stands_for_no_tangent", False)
                                            for t in (input_t, target_t)):
            # PyTorch's rule divides 2 * self_t * grad_output by N in place, and a missing
            # tangent is its "zero tensor", which refuses to be changed
            raise RuntimeError(_zero_tensor.IMMUTABLE)
        return (_mse_loss_double_backward(input_t * grad, input, self.reduction)
                - _mse_loss_double_backward(target_t * grad, target, self.reduction)
                + mse_loss_backward(grad_t, input, target, self.reduction))


def _mse_loss_double_backward(grad, input, reduction):
    """2 grad, / N for 'mean', as PyTorch's formula computes it: the division is in place on
    the new tensor (so it counts in the gradient's version)."""
    doubled = mul_by_number(grad, 2)
    if reduction == "mean":
        doubled = _divide_in_place(doubled, input.numel())
    return doubled


def _warn_if_sizes_differ(input, target):
    """PyTorch's warning when a regression loss would silently broadcast target against input."""
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", UserWarning,
            stacklevel=stacklevel_outside_minigrad())


def _regression_loss_start(input, target, size_average, reduce, reduction):
    """The first steps of PyTorch's l1_loss, mse_loss and smooth_l1_loss, in its order: the
    sizes compared (and the warning when they differ), the old flags turned into ``reduction``
    (with their warning). Returns the reduction; the pair is broadcast next (_broadcast_pair)."""
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        asked_for("size", target, input)        # (PyTorch's first step: target.size() != input.size())
    _warn_if_sizes_differ(input, target)
    if size_average is not None or reduce is not None:
        from ._soft_margin_loss import _legacy_reduction
        reduction = _legacy_reduction(size_average, reduce)
    return reduction


def _weighted_loss(losses, input, weight, reduction):
    """PyTorch's Python steps for l1_loss's and mse_loss's ``weight``: each element's loss times
    its weight (MulBackward0), then summed (SumBackward0) and, for 'mean', divided by the sum of
    the weights (DivBackward0); the reduction is checked only at the end, as there."""
    if weight.size() != input.size():           # (the input as given, before broadcasting)
        raise ValueError("Weights and input must have the same size.")
    weighted = losses * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    if reduction == "mean":
        return weighted.sum() / weight.sum()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def _broadcast_pair(input, target):
    """input and target broadcast against each other, as PyTorch's regression losses do first
    (torch.broadcast_tensors): the one that grows is expanded, so the graph shows an
    ExpandBackward0 between the loss and it (its gradient is summed back there)."""
    if input.shape == target.shape:
        return input, target
    try:
        shape = np.broadcast_shapes(input.shape, target.shape)
    except ValueError:
        raise _broadcast_error(input, target) from None
    return (input if input.shape == shape else input.expand(shape),
            target if target.shape == shape else target.expand(shape))


def _difference_in(dtype, input, target):
    """input - target computed in ``dtype``, both converted first as PyTorch's loop does (an
    int32 input and a float32 target: float32, where numpy would subtract in float64)."""
    return input._array.astype(dtype, copy=False) - target._array.astype(dtype, copy=False)


def _loss_dtype(input, target, kernel):
    """The numpy dtype a regression loss computes in: PyTorch's promotion of input and target,
    which must be a floating one (its kernels have no integer version)."""
    dtype = result_type(input, target)
    if dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{scalar_type_name(from_numpy_dtype(dtype))}'")
    return dtype


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean of the squared differences between input and target.

    Gradient: grad_input = 2 (input - target) / N for 'mean'; grad_target = -grad_input.
    (``size_average`` and ``reduce`` are PyTorch's old way to say ``reduction``.)
    With ``weight`` (input's size): each squared difference times its weight, then added up
    ('sum'), or added up and divided by the weights' sum ('mean'), from ordinary operations.
    """
    reduction = _regression_loss_start(input, target, size_average, reduce, reduction)
    expanded_input, expanded_target = _broadcast_pair(input, target)
    if weight is not None:
        return _weighted_loss((expanded_input - expanded_target).pow(2), input, weight, reduction)
    input, target = expanded_input, expanded_target
    _check_reduction(reduction)
    diff = _difference_in(_loss_dtype(input, target, "mse_cpu"), input, target)
    value = _reduce(diff * diff, reduction)
    # (PyTorch reduces the losses in the same tensor: indexing reads their first size, see shrunk_to_0d)
    out = result(value, MseLossBackward0, (input, target), saved=(input, target), reduction=reduction,
                 _count=diff.size)
    return shrunk_to_0d(kernel_writes("mse_loss", out, input, target, reduction=reduction), (diff.shape or (0,))[0])


# --- binary cross-entropy (binary_cross_entropy itself: nn/_binary_cross_entropy.py) -----------

class BinaryCrossEntropyWithLogitsBackward0(_ReductionAsNumber, Node):
    """result = -w (target log s + (1 - target) log(1 - s)), s = sigmoid(self), reduced   ->
        grad_self = grad * w (s - target); grad_target = -grad * w * self (without pos_weight)

    (with pos_weight w: d/dx = (w t + 1 - t) s(x) - w t)
    """

    _saved_names = ("self", "target", "weight", "pos_weight")     # grad_fn._saved_target, ...

    def backward(self, grad):
        # PyTorch's steps, most of them in place on the new tensors it makes (each one counts
        # in the gradient's version), out of place while recording (create_graph=True)
        x, t, weight, pos_weight = self.saved_tensors
        in_place = not is_grad_enabled()

        def step(tensor, name, other):      # tensor.name_(other), or tensor.name(other)
            return getattr(tensor, name + "_" if in_place else name)(other)

        grad_x = grad_t = None
        if self.should_compute_output(0):
            if pos_weight is None:
                grad_x = step(sigmoid(x), "sub", t)                       # s - t
            else:
                scaled = pos_weight * t                                   # (w t + 1 - t) s - w t
                grad_x = step(step(step(scaled + 1, "sub", t), "mul", sigmoid(x)), "sub", scaled)
            grad_x = step(grad_x, "mul", grad)
            if weight is not None:
                grad_x = step(grad_x, "mul", weight)
            if self.reduction == "mean":
                grad_x = _divide_in_place(grad_x, self._count)
        if self.should_compute_output(1):     # does the target need a gradient?
            # the loss is linear in t: d/dt = -x, or with pos_weight w
            # log sigmoid(-x) - w log sigmoid(x), PyTorch's steps
            if pos_weight is None:
                grad_t = -x * grad
            else:
                grad_t = logsigmoid(-x).sub_(logsigmoid(x).mul_(pos_weight)).mul_(grad)
            if weight is not None:
                grad_t.mul_(weight)
            if self.reduction == "mean":
                grad_t = _divide_in_place(grad_t, self._count)
        return grad_x, grad_t

    def jvp(self, tangents, inputs, out):
        """result_t = reduce(w (s - target) self_t - w self target_t), s = sigmoid(self) (or with pos_weight)"""
        (x, t), (x_t, t_t) = inputs, tangents
        weight, pos_weight = self.saved_tensors[2:]
        s = sigmoid(x)
        if pos_weight is None:
            elementwise = x_t * (s - t)
            if t_t is not None:
                elementwise = elementwise - t_t * x
        else:
            elementwise = x_t * ((pos_weight * t + 1 - t) * s - pos_weight * t)
            if t_t is not None:
                elementwise = elementwise + t_t * ((pos_weight - 1) * softplus(-x) - x)
        return _reduce_tangent(elementwise if weight is None else elementwise * weight, self)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """Binary cross-entropy on raw scores (logits); sigmoid is applied inside, stably.

    Gradient: grad_input = (sigmoid(input) - target) / N for 'mean', the stable form of bce's.
    """
    if size_average is not None or reduce is not None:     # (PyTorch's old flags)
        from ._soft_margin_loss import _legacy_reduction
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        asked_for("size", target, input)        # (PyTorch's first step: target.size() == input.size())
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    if not (isinstance(weight, (Tensor, type(None))) and isinstance(pos_weight, (Tensor, type(None)))):
        parse_as("binary_cross_entropy_with_logits", input, target, weight, pos_weight,
                 reduction_number(reduction))
    _check_target(input, target, "binary_cross_entropy_with_logits")
    _check_floating_kernel(input, "log_sigmoid_cpu")       # (the loss uses log(sigmoid(input)))
    # PyTorch computes the loss in place from 1 - target: in the target's dtype, which must be
    # a floating one (1 - a bool tensor is refused first)
    if target.dtype.name == "bool":
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if not target.is_floating_point():
        raise RuntimeError(f"result type {scalar_type_name(input.dtype)} can't be cast to the "
                           f"desired output type {scalar_type_name(target.dtype)}"
                           "\nminigrad hint: targets must be floats, e.g. target.float()")
    if weight is not None and weight.shape != input.shape:    # (PyTorch multiplies the losses by it in place)
        check_broadcasts_into(input, weight)
    _check_not_differentiable("binary_cross_entropy_with_logits", weight=weight, pos_weight=pos_weight)
    x, t = input._array, target._array
    # PyTorch's steps: (1 - target) * input - log(sigmoid(input)), the log-sigmoid (which never
    # overflows) weighted by 1 + (pos_weight - 1) * target. Each step is in place, so rounded to
    # the dtype of the tensor written (1 - target: target's). An infinite logit gives nan where
    # inf - inf meets, as in PyTorch (-inf - -inf for input -inf).
    from ._log_sigmoid import _log_sigmoid_arrays
    log_sigmoid = _log_sigmoid_arrays(x)[0]
    with np.errstate(invalid="ignore", over="ignore"):
        if pos_weight is not None:
            weight_dtype = result_type(pos_weight, target)     # (a 0-d pos_weight: target's)
            log_weight = (pos_weight._array - 1).astype(weight_dtype, copy=False) * t.astype(weight_dtype) + 1
            log_sigmoid = (log_sigmoid * log_weight).astype(x.dtype, copy=False)
        losses = ((1 - t) * x).astype(t.dtype, copy=False)
        losses = (losses - log_sigmoid).astype(t.dtype, copy=False)
        if weight is not None:
            losses = (losses * weight._array).astype(t.dtype, copy=False)
    # Edges to input and target only: weight and pos_weight are settings (checked above).
    return result(_reduce(losses, reduction), BinaryCrossEntropyWithLogitsBackward0,
                  (input, target), saved=(input, target, weight, pos_weight), reduction=reduction,
                  _count=x.size)


# --- softmax family -----------------------------------------------------------------------------

def _softmax_dim(ndim, dim, name):
    if dim is None:
        warnings.warn(
            f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
            "dim=X as an argument.", UserWarning, stacklevel=stacklevel_outside_minigrad())
        dim = 0 if ndim in (0, 1, 3) else 1
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        # F.softmax calls input.softmax(dim), where dim is the first argument
        raise TypeError(f"{name}(): argument 'dim' (position 1) must be int, not "
                        f"{type_name(dim)}")
    return _normalize_dim(dim, ndim)


def _check_floating_kernel(input, kernel):
    """PyTorch's activations have kernels for floating dtypes only, and say so naming the kernel
    ('"silu_cpu" not implemented for 'Long'')."""
    if input._array.dtype.kind != "f":      # (is_floating_point(), without the method's call)
        raise kernel_not_implemented(kernel, input)


def _check_floating(name, input, dim):
    """softmax of integers: PyTorch has no such kernel (and says so with its kernel's name);
    without elements it runs no kernel, and the empty result keeps the integer dtype."""
    if input._array.dtype.kind != "f" and input._array.size:     # (not is_floating_point())
        kernel = f"{name}_lastdim_kernel_impl" if dim == max(input.ndim - 1, 0) else \
            f"{name}_kernel_impl"
        raise NotImplementedError(
            f'"{kernel}" not implemented for \'{cpp_name(input.dtype).capitalize()}\'')


def _log_softmax_array(array, dim):
    """log_softmax with numpy's exp and log (cross_entropy's fast path)."""
    if array.size == 0:                  # nothing to normalise (and max() would fail)
        return array.copy()
    # inf - inf = nan (a row with inf), silently as in PyTorch: numpy's warnings off (nothing
    # else here can warn), in the context ``quietly`` keeps, cheaper than entering np.errstate
    return quietly(_shifted_log_softmax, array, dim)


def _shifted_log_softmax(array, dim):
    """(x - max) - log(sum(exp(x - max))) over ``dim``, with numpy's exp and log."""
    # (the ufuncs' reduce, not the methods .max()/.sum(): the same numbers, without the
    # Python function numpy's methods go through)
    shifted = array - np.maximum.reduce(array, axis=dim, keepdims=True)   # avoids overflow in exp
    shifted -= np.log(np.add.reduce(np.exp(shifted), axis=dim, keepdims=True))   # (in place: a new array)
    return shifted


def _has_pytorchs_last_bit(array, dim):
    """float32 or float64 over the last dim: PyTorch's vectorised kernel, whose bits minigrad
    reproduces."""
    return array.dtype in (np.float32, np.float64) and dim == array.ndim - 1 and array.size > 0


def _has_pytorchs_other_dim_bits(array, dim):
    """float32 or float64 over another dim: PyTorch's kernel for it, see _softmax_kernel."""
    return (array.dtype in (np.float32, np.float64) and array.ndim and dim != array.ndim - 1
            and array.size > 0)


def _sleef_exp_log(dtype):
    """SLEEF's exp and log for this dtype, and the lanes of PyTorch's vectors of it."""
    if dtype == np.float32:
        return _sleef_mathfun.exp, _sleef_mathfun.log, 8
    return _sleef_pow.exp, _sleef_pow.log, 4


def _pytorch_softmax_array(array, dim):
    """softmax in PyTorch's order of operations: exp(x - max), the row's sum, then a product
    with 1 / sum (not a division), with PyTorch's own exp (float32 and float64, last dim; see
    _sleef_mathfun and _sleef_pow). Elsewhere numpy's exp and log, which may differ in the
    last bit."""
    if _has_pytorchs_other_dim_bits(array, dim):
        return _softmax_kernel.softmax(array, dim)
    if not _has_pytorchs_last_bit(array, dim):
        return np.exp(_log_softmax_array(array, dim))
    exp, _, lanes = _sleef_exp_log(array.dtype)
    with np.errstate(invalid="ignore"):       # inf - inf = nan (a row with inf), silently
        exps = exp(array - array.max(axis=dim, keepdims=True))
    return exps * (1 / _sleef_mathfun.row_sum(exps, lanes))


def _pytorch_log_softmax_array(array, dim):
    """log_softmax in PyTorch's order of operations, (x - max) - log(sum(exp(x - max))), with
    PyTorch's own exp and log where minigrad has them (float32 and float64, last dim)."""
    if _has_pytorchs_other_dim_bits(array, dim):
        return _softmax_kernel.log_softmax(array, dim)
    if not _has_pytorchs_last_bit(array, dim):
        return _log_softmax_array(array, dim)
    exp, log, lanes = _sleef_exp_log(array.dtype)
    with np.errstate(invalid="ignore"):
        shifted = array - array.max(axis=dim, keepdims=True)
        shifted -= log(_sleef_mathfun.row_sum(exp(shifted), lanes))
    return shifted


class SoftmaxBackward0(Node):
    """result = softmax(self, dim)   ->   grad_self = result * (grad - sum(grad * result, dim))"""

    _saved_names = ('result',)      # grad_fn._saved_result, as in PyTorch

    def backward(self, grad):
        (s,) = self.saved_tensors      # the result, saved as PyTorch does
        return (softmax_backward_data(grad, s, self.dim),)

    def jvp(self, tangents, inputs, out):
        """result_t = result * (self_t - sum(self_t * result, dim))"""
        return out * (tangents[0] - (tangents[0] * out).sum(dim=self.dim, keepdim=True))


def softmax_backward_data(grad, out, dim):
    """out * (grad - sum(grad * out, dim)): softmax's backward from its result, recorded as one
    node (SoftmaxBackwardDataBackward0), so that create_graph=True shows PyTorch's graph."""
    g, p = grad._array, out._array
    if _has_pytorchs_last_bit(p, dim) and g.dtype == p.dtype:      # PyTorch's order of additions
        inner = _sleef_mathfun.row_sum(g * p, _sleef_exp_log(p.dtype)[2])
    elif _has_pytorchs_other_dim_bits(p, dim) and g.dtype == p.dtype:
        return result(_softmax_kernel.softmax_backward(g, p, dim), SoftmaxBackwardDataBackward0,
                      (grad, out), saved=(grad, out), dim=dim)
    else:
        inner = (g * p).sum(axis=dim, keepdims=True) if p.ndim else g * p
    return result(p * (g - inner), SoftmaxBackwardDataBackward0, (grad, out), saved=(grad, out),
                  dim=dim)


class SoftmaxBackwardDataBackward0(Node):
    """result = out * (g - sum(g * out, dim)) (softmax's backward, recorded)   ->
        grad_g = out * (grad - sum(grad * out, dim));
        grad_out = g * grad - sum(out * g, dim) * grad - g * sum(out * grad, dim)"""

    _saved_names = ("grad_output", "output")

    def backward(self, gg):
        grad, s = self.saved_tensors
        d_grad = softmax_backward_data(gg, s, self.dim) if self.should_compute_output(0) else None
        d_out = None
        if self.should_compute_output(1):
            dim = self.dim if s.ndim else None

            def summed(t):
                return t.sum(dim=dim, keepdim=True) if dim is not None else t
            # PyTorch's formula a - b - c, its C++ making c's nodes first, then b's, then a's
            c = grad * summed(s * gg)
            b = summed(s * grad) * gg
            a = grad * gg
            d_out = a - b - c
        return d_grad, d_out


@history_first
@numpy_keywords
def softmax(input, dim=None, dtype=None):
    """exp(x) / sum(exp(x)) along ``dim``: turns scores into probabilities.

    Gradient: s * (grad - sum(grad * s, dim)), s the saved result.
    """
    if not isinstance(input, Tensor):       # PyTorch's F.softmax calls input.softmax(dim)
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'softmax'")
    if dtype is not None:
        input = input.to(dtype)
    dim_as_given, dim = dim, _softmax_dim(input.ndim, dim, "softmax")
    _check_floating("softmax", input, dim)
    array = input._array if input.ndim else input._array.reshape(1)
    # PyTorch's result is contiguous whatever the input's layout (reshape then views it)
    out = np.asarray(_pytorch_softmax_array(array, dim).reshape(input._array.shape), order="C")
    if not input.is_floating_point():       # (empty: nothing computed, input's dtype kept)
        out = out.astype(input._array.dtype)
    return save_result(result(out, SoftmaxBackward0, (input,), dim=dim,
                              dim_as_given=dim if dim_as_given is None else dim_as_given))


class LogSoftmaxBackward0(Node):
    """result = log_softmax(self, dim)   ->   grad_self = grad - softmax(self) * grad.sum(dim)"""

    _saved_names = ('result',)      # grad_fn._saved_result, as in PyTorch

    def backward(self, grad):
        (log_probabilities,) = self.saved_tensors     # the result, saved as PyTorch does
        g, out = grad._array, log_probabilities._array
        # (cross_entropy's log_softmax keeps numpy's exp here too, for speed)
        pytorch_bits = getattr(self, "_pytorch_bits", False) and g.dtype == out.dtype
        if pytorch_bits and _has_pytorchs_last_bit(out, self.dim):
            exp, _, lanes = _sleef_exp_log(out.dtype)       # PyTorch's exp and order of additions
            # and its compiler's one fused multiply-add for g - e**out * total
            values = _sleef_pow._fma(-exp(out), _sleef_mathfun.row_sum(g, lanes), g)
        elif pytorch_bits and _has_pytorchs_other_dim_bits(out, self.dim):
            values = _softmax_kernel.log_softmax_backward(g, out, self.dim)
        else:
            total = np.add.reduce(g, axis=self.dim, keepdims=True) if g.ndim else g   # (g.sum, one call less)
            values = g - np.exp(out) * total
        # recorded as one node, so that create_graph=True shows PyTorch's graph
        return (result(values, LogSoftmaxBackwardDataBackward0,
                       (grad, log_probabilities), saved=(grad, log_probabilities), dim=self.dim),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t - sum(softmax(self) * self_t, dim)"""
        return tangents[0] - (tangents[0] * out.exp()).sum(dim=self.dim, keepdim=True)


class LogSoftmaxBackwardDataBackward0(Node):
    """result = g - e ** out * g.sum(dim) (log_softmax's backward, recorded)   ->
        grad_g = grad - sum(grad * e ** out, dim); grad_out = -grad * e ** out * g.sum(dim)"""

    _saved_names = ("grad_output", "output")

    def backward(self, gg):
        grad, log_probabilities = self.saved_tensors
        dim = self.dim if grad.ndim else None

        def summed(t):
            return t.sum(dim=dim, keepdim=True) if dim is not None else t
        # in PyTorch's order of operations, each with its own exp(), so that a third
        # derivative walks through the same nodes
        d_grad = d_out = None
        if self.should_compute_output(0):
            d_grad = gg - summed(gg * log_probabilities.exp())
        if self.should_compute_output(1):
            d_out = -summed(grad) * log_probabilities.exp() * gg
        return d_grad, d_out


@history_first
@numpy_keywords
def log_softmax(input, dim=None, dtype=None):
    """log(softmax(x)), computed without overflow.

    Gradient: grad - softmax(x) * grad.sum(dim); after it, nll_loss makes cross_entropy's
    softmax - one_hot.
    """
    if dtype is not None:
        input = input.to(dtype)
    dim_as_given, dim = dim, _softmax_dim(input.ndim, dim, "log_softmax")
    return _log_softmax_result(input, dim, _pytorch_log_softmax_array, dim_as_given)


def _log_softmax_with_numpy(input, dim):
    """log_softmax with numpy's exp and log, for cross_entropy: PyTorch's last bit (see
    _sleef_mathfun) would cost each training step tens of microseconds; the loss may then
    differ from PyTorch's in its last bit. (``dim`` is cross_entropy's class dim, which
    exists: nothing here can fail on a lost history, so there is no history_first.)"""
    return _log_softmax_result(input, dim, _log_softmax_array)


def _log_softmax_result(input, dim, compute, dim_as_given=None):
    """log_softmax over ``dim`` (already checked), its values by ``compute(array, dim)``;
    ``dim_as_given`` is what grad_fn._saved_dim shows (``dim`` if None)."""
    _check_floating("log_softmax", input, dim)
    array = input._array if input._array.ndim else input._array.reshape(1)
    out = np.asarray(compute(array, dim).reshape(input._array.shape), order="C")
    return save_result(result(out, LogSoftmaxBackward0, (input,), dim=dim,
                              dim_as_given=dim if dim_as_given is None else dim_as_given,
                              _pytorch_bits=compute is _pytorch_log_softmax_array))


# Tensor.softmax and torch.softmax are the functions above (they also take numpy's axis=).
# F.softmax is PyTorch's Python function (input, dim, _stacklevel, dtype), which calls
# input.softmax(dim): a bad dim is named at position 1 there, however it was passed.
_softmax, _log_softmax = softmax, log_softmax


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / sum(exp(x)) along ``dim``: turns scores into probabilities.

    Gradient: s * (grad - sum(grad * s, dim)), s the saved result.
    """
    if not isinstance(input, Tensor):   # (PyTorch asks input.dim() if no dim, then input.softmax)
        asked_for("softmax" if dim is not None else "dim", input)
    if dim is None:
        stacklevel_checked(_stacklevel)
    if dtype is not None and not (type(dim) in (int, type(None)) and isinstance(dtype, _dtype_class)):
        # (input.softmax(dim, dtype=dtype) in PyTorch, a missing dim chosen first: 0 or 1)
        parse_as("softmax", 0 if dim is None else dim, dtype=dtype)
    return _softmax(input, dim, dtype=dtype) if dtype is not None else _softmax(input, dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log(softmax(x)), computed without overflow.

    Gradient: grad - softmax(x) * grad.sum(dim); after it, nll_loss makes cross_entropy's
    softmax - one_hot.
    """
    if not isinstance(input, Tensor):   # (PyTorch asks input.dim() if no dim, then input.log_softmax)
        asked_for("log_softmax" if dim is not None else "dim", input)
    if dim is None:
        stacklevel_checked(_stacklevel)
    if dtype is not None and not (type(dim) in (int, type(None)) and isinstance(dtype, _dtype_class)):
        # (input.log_softmax(dim, dtype=dtype) in PyTorch, a missing dim chosen first: 0 or 1)
        parse_as("log_softmax", 0 if dim is None else dim, dtype=dtype)
    return _log_softmax(input, dim, dtype=dtype) if dtype is not None else _log_softmax(input, dim)

class _NllLossSettings:
    """The settings nll_loss's nodes show as PyTorch's do: C++ enum and unsigned numbers."""

    @property
    def _saved_reduction(self):
        """0 for 'none', 1 for 'mean', 2 for 'sum' (PyTorch's Reduction enum)."""
        return _REDUCTIONS.index(self._reduction)

    @property
    def _saved_ignore_index(self):
        """ignore_index as PyTorch's node shows it: a 64-bit unsigned number (-100 -> 2**64 - 100)."""
        return self._ignore_index % 2 ** 64


class NllLossBackward0(_NllLossSettings, Node):
    """result = -mean_i self[i, target[i]] (self holds log-probabilities)   ->
        grad_self = -grad * one_hot(target) / N

    (N is the number of rows, or the total weight of their labels with ``weight``; no / N
    for reduction='sum'.) After log_softmax, as in cross_entropy, the two nodes compose to
    the famous grad_logits = (softmax(logits) - one_hot(target)) / N.

    As PyTorch, it saves ``target`` (and ``weight``): changing the labels in place
    before backward is an error, not a silently different gradient.
    """

    _saved_names = ("self", "target", "weight", "total_weight")   # grad_fn._saved_target, ...

    def backward(self, grad):
        input, target, weight, total_weight = self.saved_tensors   # (checks none was changed in place)
        return (nll_loss_backward(grad, input, target, weight, total_weight, self),)

    def jvp(self, tangents, inputs, out):
        """result_t = nll_loss(self_t, target) (the loss is linear in self)"""
        _, target, weight, _ = self.saved_tensors
        return nll_loss(tangents[0], target, weight=weight, ignore_index=self._ignore_index,
                        reduction=self._reduction)


class NllLoss2DBackward0(NllLossBackward0):
    """result = nll_loss(self, target) with one label per pixel (self N x C x H x W)   ->
        grad_self = as for NllLossBackward0, per pixel"""


# nll_loss's backward is itself one operation of PyTorch (nll_loss_backward), with its own
# derivative: with create_graph=True the gradient records it, with edges to grad and self.

class NllLossBackwardBackward0(_NllLossSettings, Node):
    """result = nll_loss_backward(g, self, target) (nll_loss's backward, recorded)   ->
        grad_g = nll_loss(grad, target, weight, reduction, ignore_index); grad_self = 0

    The gradient of nll_loss only picks -g at each label: it is linear in g (so its
    derivative is nll_loss again, of the incoming gradient) and does not depend on the
    values of self at all (zeros, which PyTorch still hands to self's edge).
    """

    _saved_names = ("target", "weight")    # grad_fn._saved_target, _saved_weight

    def backward(self, gg):
        target, weight = self.saved_tensors
        d_grad = None
        if self.should_compute_output(0):
            d_grad = nll_loss(gg, target, weight=weight, ignore_index=self._ignore_index,
                              reduction=self._reduction)
        d_self = _wrap(np.zeros_like(gg._array)) if self.should_compute_output(1) else None
        return d_grad, d_self

    def jvp(self, tangents, inputs, out):
        """result_t = nll_loss_backward(g_t, self, target) (self's tangent changes nothing)"""
        target, weight = self.saved_tensors
        # (PyTorch's tangent has no edge to self: its values are never read)
        return nll_loss_backward(tangents[0], inputs[1].detach(), target, weight,
                                 _wrap(np.asarray(self._total_weight, dtype=out._array.dtype)), self)


class NllLoss2DBackwardBackward0(NllLossBackwardBackward0):
    """result = nll_loss2d_backward(g, self, target) (nll_loss's backward, one label per pixel)   ->
        grad_g = nll_loss(grad, target, weight, reduction, ignore_index); grad_self = 0"""


def nll_loss_backward(grad, input, target, weight, total_weight, settings):
    """The gradient of nll_loss w.r.t. its input, recorded as one operation as in PyTorch.

    Each row's label gets -grad (times the label's weight; grad divided by the total
    weight first for 'mean'), every other entry 0. ``settings`` is the forward node
    (reduction, ignore_index, the shape of the rows). With create_graph=True this records
    NllLossBackwardBackward0: the gradient then depends on grad and on input, as PyTorch's does.
    """
    per_pixel = type(settings) in (NllLoss2DBackward0, NllLoss2DBackwardBackward0)
    _check_nll_backward_shapes(input, target, per_pixel)
    reduction, ignore_index = settings._reduction, settings._ignore_index
    g = grad._array
    if reduction == "none":
        minus_grad = -g.reshape(-1)                   # one per row, in the rows' order
    elif reduction == "mean" and total_weight._array >= 1:
        # the usual case (the number of rows): dividing by it can neither overflow nor divide
        # by 0, so no errstate is needed (entering one costs more than the division)
        minus_grad = -(g / total_weight._array)
    elif reduction == "mean":
        with np.errstate(divide="ignore", invalid="ignore"):   # total weight 0: inf or nan, as PyTorch
            minus_grad = -(g / total_weight._array)
    else:
        minus_grad = -g
    labels = target._array.reshape(-1)
    rows_shape = settings._rows_shape
    picked = np.zeros(rows_shape, dtype=g.dtype)
    rows = np.arange(len(labels))
    if _every_label_counts(labels, weight, ignore_index, rows_shape[1]):
        picked[rows, labels] = minus_grad
    else:
        keep = labels != ignore_index
        kept_minus_grad = minus_grad[keep] if minus_grad.ndim else minus_grad
        if weight is not None:
            with np.errstate(invalid="ignore"):       # 0 * inf: nan, as in PyTorch
                kept_minus_grad = weight._array[labels[keep]] * kept_minus_grad
        picked[rows[keep], labels[keep]] = kept_minus_grad
    if per_pixel:       # rows are pixels (n, h, w) with the classes last: classes back to dim 1
        n, c, h, w = input.shape
        picked = np.ascontiguousarray(picked.reshape(n, h, w, c).transpose(0, 3, 1, 2))
    else:
        picked = picked.reshape(input._array.shape)
    node_class = NllLoss2DBackwardBackward0 if per_pixel else NllLossBackwardBackward0
    return result(picked, node_class, (grad, input), saved=(target, weight),
                  _reduction=reduction, _ignore_index=ignore_index, _rows_shape=rows_shape,
                  _total_weight=settings._total_weight)


def _check_nll_backward_shapes(input, target, per_pixel):
    """PyTorch's backward kernels check again what forward accepted, and two inputs pass
    forward only: a 1-D input with a 1-D target (forward takes it, backward wants one row
    per label), and a dense input laid out other than row-major for one label per pixel
    (backward would write into the gradient as if it were row-major)."""
    if per_pixel:
        array = input._array
        if not array.flags.c_contiguous and is_non_overlapping_and_dense(array):
            raise RuntimeError("grad_input must be contiguous")
    elif (input._array.ndim == 1 and target._array.ndim == 1
          and input._array.shape[0] != target._array.shape[0]):
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)}, target: "
                           f"{list(target.shape)})")


def _saved_nll(input, target, weight, total_weight, reduction):
    """What PyTorch's nll_loss node saves: self, target, weight and the total weight (a
    0-d tensor of the input's dtype; 0 for reduction='none', which needs none)."""
    total = np.asarray(total_weight if reduction != "none" else 0, dtype=input._array.dtype)
    return input, target, weight, _wrap(total)


def _every_label_counts(labels, weight, ignore_index, n_classes):
    """The usual case: no class weights, and every label is a class (none is ignore_index)."""
    # one pass instead of min() and max(): read as unsigned, a negative label is huge
    unsigned = labels.view(_UNSIGNED_OF_SIZE[labels.dtype.itemsize])
    return (weight is None and labels.shape[0] > 0 and not 0 <= ignore_index < n_classes
            and np.maximum.reduce(unsigned) < n_classes)


_UNSIGNED_OF_SIZE = {1: np.uint8, 8: np.uint64}       # for the label dtypes: uint8 and int64


def _nll_rows(logp, labels, weight, ignore_index, reduction):
    """The loss for log-probabilities ``logp`` (one row per label, or per pixel): (value, total
    weight), float32/float64 summed in the order of PyTorch's kernels (_nll_sum)."""
    n_rows, n_classes = logp.shape
    kept_rows = None                       # (all)
    if _every_label_counts(labels, weight, ignore_index, n_classes):
        # the same numbers as below, in a third of the numpy calls (each weight is 1)
        losses = -logp[np.arange(n_rows), labels]
        total_weight = logp.dtype.type(n_rows)
        kept_losses = losses
    else:
        keep = labels != ignore_index
        if np.any((labels[keep] < 0) | (labels[keep] >= n_classes)):
            bad = labels[keep][(labels[keep] < 0) | (labels[keep] >= n_classes)][0]
            raise IndexError(f"Target {bad} is out of bounds.")
        w = weight._array[labels[keep]] if weight is not None else np.ones(keep.sum(), dtype=logp.dtype)
        losses = np.zeros(n_rows, dtype=logp.dtype)
        losses[keep] = -logp[np.arange(n_rows)[keep], labels[keep]] * w
        kept_rows = None if keep.all() else keep
        kept_losses = losses[keep]
        if weight is not None and logp.dtype in (np.float32, np.float64):
            total_weight = _nll_sum.nll_sum(w, kept_rows)
        elif weight is not None:
            total_weight = w.sum()
        else:                      # (PyTorch counts the kept rows)
            total_weight = logp.dtype.type(len(kept_losses))
    if reduction == "none":
        return losses, total_weight
    if logp.dtype in (np.float32, np.float64):
        total = _nll_sum.nll_sum(kept_losses, kept_rows)
    else:
        total = losses.sum()
    if reduction == "mean":
        if n_rows == 0:
            # no rows at all: PyTorch's kernel answers NaN itself (the sign bit clear), not 0 / 0
            return np.asarray(np.nan, dtype=logp.dtype), total_weight
        if total_weight == 0:
            # every label ignored (or weighted 0): PyTorch gives 0 / 0 = nan, and no warning
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.asarray(total / total_weight, dtype=logp.dtype), total_weight
        return np.asarray(total / total_weight, dtype=logp.dtype), total_weight
    return np.asarray(total, dtype=logp.dtype), total_weight


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """Negative log-likelihood of class indices ``target`` under log-probabilities ``input``.

    ``input`` is (C,), (N, C) or (N, C, d1, ...) with the classes in dimension 1;
    ``target`` has the input's shape without that dimension.

    Gradient: -1 / N at each row's target entry (weights scale it), 0 elsewhere.
    (``size_average`` and ``reduce`` are PyTorch's old way to say ``reduction``.)
    """
    if size_average is not None or reduce is not None:
        from ._soft_margin_loss import _legacy_reduction
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)) or (
            weight is not None and not isinstance(weight, Tensor)):
        parse_as("nll_loss_nd", input, target, weight, 1, ignore_index)    # (PyTorch's C++ function)
    logp, labels = input._array, target._array     # (checked on the arrays: no Size or dtype made)
    if logp.ndim == 0:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    if weight is not None:
        _check_not_differentiable("nll_loss_forward", weight=weight)
    _cross_entropy.check_class_target_shape(input, target)
    if labels.dtype.type not in (np.int64, np.uint8):
        name = {"signed char": "Char", "unsigned char": "Byte"}.get(
            cpp_name(target.dtype), cpp_name(target.dtype).capitalize())
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {name}\n"
            "minigrad hint: class indices must be int64, e.g. minigrad.tensor([1, 0]) or "
            "target.long()")
    if logp.ndim == 2 and labels.ndim == 0:     # (an empty batch: PyTorch asks for the target's size)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if logp.ndim == 1 and labels.ndim == 1 and labels.shape[0] != 1:
        raise ValueError("For 1D input, 1D target must have size 1, but got target size: "
                         f"{labels.shape[0]}")
    if logp.ndim == 4 and labels.shape[1:] != logp.shape[2:]:
        # (nll_loss2d checks the sizes after the dtype, and words it so)
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: "
                           f"{list(target.shape)}")
    if logp.ndim >= 3:
        return _nll_loss_per_position(input, target, weight, ignore_index, reduction)
    if logp.ndim <= 2 and weight is not None:
        _cross_entropy.check_weight(weight, logp.shape[-1], "")
    _check_floating_kernel(input, "nll_loss_out_frame")
    if weight is not None and weight.dtype != input.dtype:      # (the kernel reads it as input's type)
        raise RuntimeError(f"expected scalar type {scalar_type_name(input.dtype)} but found "
                           f"{scalar_type_name(weight.dtype)}")
    one_d = logp.ndim == 1
    if one_d:
        logp = logp.reshape(1, -1)
    labels = labels.reshape(-1)
    if labels.shape[0] != logp.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({logp.shape[0]}) to match target batch_size ({labels.shape[0]}).")
    value, total_weight = _nll_rows(logp, labels, weight, ignore_index, reduction)
    if reduction == "none" and one_d:
        value = value.reshape(())
    # One edge, to the input: the class indices can never have a gradient (as in PyTorch).
    out = result(value, NllLossBackward0, (input,),
                 saved=_saved_nll(input, target, weight, total_weight, reduction),
                 _reduction=reduction, _rows_shape=logp.shape,
                 _ignore_index=ignore_index, _total_weight=float(total_weight))
    return batched_as(out, target, weight)      # (inside vmap: batched if the target is)


def _nll_loss_per_position(input, target, weight, ignore_index, reduction):
    """nll_loss with a label per position (e.g. per pixel), recorded as PyTorch does.

    PyTorch views any input that is not N x C x H x W as N x C x 1 x (all positions),
    records one NllLoss2DBackward0, and views a per-position result back to the target's shape.
    """
    n, c = input.shape[0], input.shape[1]
    # (as PyTorch: a contiguous copy first if need be, CloneBackward0, then a view; without
    # elements, where -1 could be anything, N x C x 0 x 0 and N x 0 x 0)
    images = input if input.ndim == 4 else input.contiguous().view(
        (n, c, 1, -1) if input.numel() else (n, c, 0, 0))
    labels_per_pixel = target if input.ndim == 4 else target.contiguous().view(
        (n, 1, -1) if target.numel() else (n, 0, 0))
    if tuple(labels_per_pixel.shape[1:]) != tuple(images.shape[2:]):
        raise RuntimeError(f"size mismatch (got input: {list(images.shape)} , target: "
                           f"{list(labels_per_pixel.shape)}")
    _check_floating_kernel(images, "nll_loss2d_forward_out_frame")
    n, _, h, w = images.shape
    logp = np.moveaxis(images._array, 1, -1).reshape(n * h * w, c)       # one row per pixel
    labels = target._array.reshape(-1)
    value, total_weight = _nll_rows(logp, labels, weight, ignore_index, reduction)
    if reduction == "none":
        value = value.reshape(n, h, w)
    out = result(value, NllLoss2DBackward0, (images,),
                 saved=_saved_nll(images, labels_per_pixel, weight, total_weight, reduction),
                 _reduction=reduction, _rows_shape=logp.shape,
                 _ignore_index=ignore_index, _total_weight=float(total_weight))
    if reduction == "none" and input.ndim != 4:
        out = out.reshape(target.shape)
    return batched_as(out, target, weight)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """Softmax cross-entropy: ``nll_loss(log_softmax(input, 1), target)``.

    ``target`` holds class indices (int64), or class probabilities (float, same shape as input).
    Gradient (mean reduction, class indices): d input = (softmax(input) - one_hot(target)) / N,
    composed by the engine from LogSoftmaxBackward0 and NllLossBackward0.
    ``label_smoothing`` in (0, 1] mixes in a uniform target (see nn/_cross_entropy.py).
    (``size_average`` and ``reduce`` are PyTorch's old way to say ``reduction``.)
    """
    if size_average is not None or reduce is not None:
        from ._soft_margin_loss import _legacy_reduction
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)         # (PyTorch's Python turns it into a number first)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor) and isinstance(weight, (Tensor, type(None)))
            and type(ignore_index) is int and isinstance(label_smoothing, NUMBER)):
        parse_as("cross_entropy_loss", input, target, weight, reduction_number(reduction), ignore_index,
                 label_smoothing)
    _cross_entropy.check_cross_entropy_arguments(input, target, weight, ignore_index)
    if label_smoothing > 0.0:
        return _cross_entropy.cross_entropy_with_label_smoothing(
            input, target, weight, ignore_index, reduction, label_smoothing)
    class_dim = 0 if input._array.ndim == 1 else 1
    if input._array.dtype == np.float64:        # PyTorch's bits (float32: numpy's, for speed)
        logp = _log_softmax_result(input, class_dim, _pytorch_log_softmax_array)
    else:
        logp = _log_softmax_with_numpy(input, class_dim)
    # (class probabilities: a float target of the input's shape; else class indices, which
    # nll_loss checks)
    if target._array.dtype.kind == "f" and target._array.shape == input._array.shape:
        return cross_entropy_with_probabilities(input, logp, target, weight, reduction)
    try:
        return nll_loss(logp, target, weight=weight, ignore_index=ignore_index, reduction=reduction)
    except RuntimeError as error:
        if target._array.dtype.kind != "f" or not str(error).startswith("expected target dtype"):
            raise
        raise RuntimeError(         # (a float target of another shape than the input's)
            f"{str(error).splitlines()[0]}\nminigrad hint: float targets are class probabilities and "
            f"must have the input's shape {list(input.shape)}, not {list(target.shape)}; class "
            "indices must be int64 (target.long())") from None


def cross_entropy_with_probabilities(input, logp, target, weight, reduction):
    """cross_entropy for a target of class probabilities: -sum(target * logp) over the
    classes (each class scaled by its weight), reduced; 'mean' divides by the number of rows.

    The same steps as PyTorch, so that the graph is the same too."""
    class_dim = 0 if input.ndim == 1 else 1
    weighted = logp * target
    if weight is not None:
        # (viewed with input's number of dims, as PyTorch: its saved view shows [1, C, ...])
        class_shape = [1] * input.ndim
        class_shape[class_dim] = -1
        weighted = weighted * weight.reshape(class_shape)
    if reduction == "none":
        return -weighted.sum(class_dim)
    if reduction == "sum":
        return -weighted.sum()
    if input.numel() == 0:      # nothing to average: PyTorch fills the sum with nan in place
        return -weighted.sum().fill_(float("nan"))
    # the number of rows (positions)
    n_classes = input.shape[class_dim]
    batch_size = input.numel() // n_classes
    return div_by_number(-weighted.sum(), batch_size)


def linear(input, weight=REQUIRED, bias=None, *more):
    """input @ weight.T + bias (what a fully-connected layer computes).

    With a bias, PyTorch uses one addmm: a contiguous input that is not a matrix is
    first viewed as rows (ViewBackward0), and the result viewed back again; any other
    input goes through matmul, and the bias is added in place (AddBackward0).
    """
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor)) or (
            bias is not None and not isinstance(bias, Tensor)) or more:
        # (a missing weight: PyTorch's parser says so after checking input; ``more``: too many)
        given = (input,) if weight is REQUIRED else (input, weight) if bias is None and not more else (
            input, weight, bias, *more)
        parse_as("linear", *given)
    if input.ndim == 0 or weight.ndim == 0:     # (checked here, so that the message names linear)
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.ndim}D and {weight.ndim}D")
    if bias is None:
        return matmul(input, weight.t())
    if input.ndim == 2:
        return addmm(bias, input, weight.t())
    # PyTorch folds into one addmm only a contiguous input, with a contiguous bias of one dim
    # once its sizes of 1 are left out
    one_d_bias = bias.ndim == 1 or sum(size != 1 for size in bias.shape) == 1
    if not (input.is_contiguous() and one_d_bias and bias.is_contiguous()):
        return matmul(input, weight.t()).add_(bias)
    # (the number of rows counted out, not -1: that cannot be worked out for an empty last dim)
    rows = input.reshape(math.prod(input.shape[:-1]), input.shape[-1])
    out = addmm(bias, rows, weight.t())
    return out.reshape(tuple(input.shape[:-1]) + (weight.shape[0],))


class SoftplusBackward0(Node):
    """result = log(1 + e ** (beta self)) / beta   ->
        grad_self = grad * sigmoid(beta self) (grad where result is just self)"""

    _saved_names = ("self",)       # grad_fn._saved_self (and _saved_beta, _saved_threshold)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (softplus_backward(grad, x, self.beta, self.threshold),)

    def jvp(self, tangents, inputs, out):
        """result_t = sigmoid(beta self) * self_t (self_t where result is just self)"""
        scaled = inputs[0] * self.beta
        return tangents[0] * sigmoid(scaled).masked_fill(scaled > self.threshold, 1)


def _softplus_formulas(dtype, beta, threshold):
    """PyTorch's two float32 or float64 softplus formulas, log1p(exp(beta x)) / beta (x past
    the threshold): SLEEF's exp and log1p for whole vectors, the C library's for the numbers
    left over (see _vectorized_loop)."""
    beta, threshold = dtype(beta), dtype(threshold)
    if dtype == np.float32:
        sleef_exp, sleef_log1p = _sleef_mathfun.exp, _sleef_float_pairs.log1p
        c_exp = _c_library_expf.expf
    else:
        sleef_exp, sleef_log1p, c_exp = _sleef_pow.exp, _sleef_double_pairs.log1p, np.exp

    def vectorized(x):
        with np.errstate(all="ignore"):
            scaled = x * beta
            return np.where(scaled > threshold, x, sleef_log1p(sleef_exp(scaled)) / beta)

    def scalar(x):
        with np.errstate(all="ignore"):
            scaled = x * beta
            return np.where(scaled > threshold, x, np.log1p(c_exp(scaled)) / beta)
    return vectorized, scalar


def _softplus_slope(x, beta, threshold):
    """numpy: d softplus/dx = sigmoid(beta x), 1 where beta x > threshold (out is just x)."""
    scaled = x * beta
    return np.where(scaled > threshold, 1.0, 1.0 / (1.0 + np.exp(-scaled))).astype(x.dtype), scaled


class SoftplusBackwardBackward0(Node):
    """result = g * softplus'(self) (softplus's backward, recorded)   ->
        grad_g = grad * softplus'(self); grad_self = grad * g * beta s (1 - s), s = sigmoid(beta self) (0 where beta self >= threshold)"""

    _saved_names = ("grad_output", "self")     # grad_fn._saved_grad_output, grad_fn._saved_self

    def backward(self, gg):
        grad, x = self.saved_tensors
        d_grad = (softplus_backward(gg, x, self.beta, self.threshold)
                  if self.should_compute_output(0) else None)
        d_x = None
        if self.should_compute_output(1):
            # PyTorch's steps: sigmoid's own backward of sigmoid(beta x), kept below the
            # threshold, times beta
            product = gg * grad
            scaled = mul_by_number(x, self.beta)
            below = _wrap((scaled._array < self.threshold).astype(product._array.dtype))
            d_x = mul_by_number(sigmoid_backward(product, sigmoid(scaled)) * below, self.beta)
        return d_grad, d_x


def _softplus_backward_formulas(dtype, beta, threshold):
    """PyTorch's two float32 or float64 formulas for softplus's gradient: g z / (z + 1),
    z = exp(beta x) (g past the threshold), SLEEF's exp for whole vectors, the C library's
    for the rest."""
    beta, threshold = dtype(beta), dtype(threshold)

    def formula(exp):
        def gradient(g, x):
            with np.errstate(all="ignore"):
                z = exp(x * beta)
                return np.where(x * beta > threshold, g, g * z / (z + dtype(1)))
        return gradient
    if dtype == np.float64:
        return formula(_sleef_pow.exp), formula(np.exp)
    return formula(_sleef_mathfun.exp), formula(_c_library_expf.expf)


def softplus_backward(grad, x, beta=1.0, threshold=20.0):
    """grad * d softplus(x)/dx, recorded as one operation (SoftplusBackwardBackward0), as in PyTorch."""
    dtype, work = x._array.dtype, opmath_dtype(x._array.dtype)   # (float16: in float32, rounded once)
    if dtype.type in (np.float16, np.float32, np.float64) and grad._array.dtype == dtype:
        out = _vectorized_loop.elementwise_pair(grad._array.astype(work, copy=False), x._array.astype(work, copy=False),
                                                *_softplus_backward_formulas(work.type, beta, threshold),
                                                lanes=32 // dtype.itemsize).astype(dtype, copy=False)
    else:
        slope, _ = _softplus_slope(x._array, beta, threshold)
        out = (grad._array * slope).astype(x._array.dtype, copy=False)
    return result(backward_kernel_layout(out, grad, x), SoftplusBackwardBackward0, (grad, x),
                  saved=(grad, x), beta=beta,
                  threshold=threshold)


def softplus(input, beta=1, threshold=20):
    """A smooth relu: log(1 + e^(beta x)) / beta, and simply x where beta x > threshold.

    Gradient: grad * sigmoid(beta x) (grad where the result is just x).
    """
    if not (isinstance(input, Tensor) and isinstance(beta, NUMBER) and isinstance(threshold, NUMBER)):
        parse_as("softplus", input, beta, threshold)     # (PyTorch's F.softplus is a C++ function)
        beta, threshold = as_number(beta), as_number(threshold)
    _check_floating_kernel(input, "softplus_cpu")
    x = input._array
    work = opmath_dtype(x.dtype)          # (float16: the float32 formulas, rounded once)
    for setting in (beta, threshold):     # (kept in float32 for float16 and float32: 1e39 is refused)
        checked_number(setting, work)
    out = _vectorized_loop.elementwise(x.astype(work, copy=False), *_softplus_formulas(work.type, beta, threshold),
                                       lanes=32 // x.dtype.itemsize).astype(x.dtype, copy=False)
    return result(out, SoftplusBackward0, (input,), saved=(input,), beta=beta, threshold=threshold)


class LeakyReluBackward0(Node):
    """result = self where self > 0, else slope * self   ->
        grad_self = grad where self > 0, else slope * grad"""

    _saved_names = ("self",)       # grad_fn._saved_self (and _saved_negative_slope)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (leaky_relu_backward(grad, x, self.negative_slope),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where self > 0, else slope * self_t"""
        slopes = np.where(inputs[0]._array > 0, 1, self.negative_slope).astype(out._array.dtype)
        return tangents[0] * _wrap(slopes)


class LeakyReluBackwardBackward0(Node):
    """result = grad_output where self > 0, else slope * grad_output (leaky_relu's backward)   ->
        grad_grad_output = grad where self > 0, else slope * grad; grad_self = 0"""

    _saved_names = ("self",)       # grad_fn._saved_self (and _saved_negative_slope)

    def backward(self, gg):
        (x,) = self.saved_tensors
        d_grad = leaky_relu_backward(gg, x, self.negative_slope) if self.should_compute_output(0) else None
        # the slopes are constant on each side of 0: nothing flows to self, but PyTorch still
        # hands it zeros (not None)
        d_x = _wrap(np.zeros_like(gg._array)) if self.should_compute_output(1) else None
        return d_grad, d_x


def leaky_relu_backward(grad, x, negative_slope):
    """grad * d leaky_relu(x)/dx, recorded as one operation (LeakyReluBackwardBackward0), as in
    PyTorch, so that create_graph=True sees that the gradient depends on x."""
    g = grad._array
    return result(np.where(x._array > 0, g, times_number(g, negative_slope)), LeakyReluBackwardBackward0,
                  (grad, x), saved=(x,), negative_slope=negative_slope)


def _leaky_relu_out_of_place(input, negative_slope=0.01, node_class=LeakyReluBackward0):
    """relu that lets a little through for negative inputs: x, or negative_slope * x.

    ``node_class`` is the node recorded: LeakyReluBackward1 when ``leaky_relu(inplace=True)``
    writes this result back into its input.
    """
    _check_floating_kernel(input, "leaky_relu_cpu")
    x = input._array
    out = np.where(x > 0, x, times_number(x, negative_slope)).astype(x.dtype, copy=False)
    if node_class is LeakyReluBackward1:      # in place: the input will be gone, save the result
        return save_result(result(out, LeakyReluBackward1, (input,), negative_slope=negative_slope))
    return result(out, node_class, (input,), saved=(input,), negative_slope=negative_slope)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean absolute difference, built from ``abs`` and ``mean`` (so its graph is PyTorch's).

    Gradient: sign(input - target) / N for 'mean' (0 where they are equal).
    (``size_average`` and ``reduce`` are PyTorch's old way to say ``reduction``.)
    With ``weight`` (input's size): each absolute difference times its weight, then added up
    ('sum'), or added up and divided by the weights' sum ('mean').
    """
    reduction = _regression_loss_start(input, target, size_average, reduce, reduction)
    expanded_input, expanded_target = _broadcast_pair(input, target)
    if weight is not None:
        return _weighted_loss((expanded_input - expanded_target).abs(), input, weight, reduction)
    input, target = expanded_input, expanded_target
    _check_reduction(reduction)
    distances = (input - target).abs()
    if reduction == "mean":
        return distances.mean()
    if reduction == "sum":
        return distances.sum()
    return distances


from ._robust_losses import smooth_l1_loss, huber_loss  # noqa: E402,F401  (one node each)
from ._binary_cross_entropy import binary_cross_entropy  # noqa: E402,F401  (one node, and its backward)
from ._log_sigmoid import logsigmoid  # noqa: E402,F401  (one node, and its backward)
from ._glu import glu  # noqa: E402,F401  (a * sigmoid(b), the input's two halves; one node, and its backward)
from ._kl_div import kl_div  # noqa: E402,F401  (composed of ordinary operations)
from ._hardtanh import hardtanh, hardtanh_, relu6, threshold  # noqa: E402,F401  (cut off at fixed values)
from ._hardtanh import _in_vector_registers  # noqa: E402  (where PyTorch's loop meets NaN in blocks)
from ._hardtanh import _hardtanh_call  # noqa: E402  (hardtanh without its check of the bounds' order)


def dropout(input, p=0.5, training=True, inplace=False):
    """In training, zero each element with probability ``p`` and scale the rest by 1 / (1 - p).

    The scaling keeps the expected value of every element unchanged, so nothing
    needs to change at evaluation time, when dropout returns ``input`` itself.
    The graph records one multiplication by the random mask (``MulBackward0``).

    Gradient: grad times the same mask, scaled by 1 / (1 - p).
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not isinstance(input, Tensor) or not isinstance(training, bool):
        parse_as("dropout_" if inplace else "dropout", input, p, training)   # (PyTorch's C++ function)
    if not training or p == 0.0 or input.numel() == 0:
        return input
    if p == 1.0:                                # nothing is kept, and no random numbers are drawn
        mask = zeros((), dtype=input.dtype)
    else:
        # PyTorch's CPU recipe, so that the same seed drops the same elements: a 0/1 "noise"
        # tensor with P(1) = 1 - p, divided by (1 - p) in the input's dtype. Like PyTorch's
        # empty_like, numpy's keeps the input's memory layout, which sets the filling order.
        noise = _wrap(np.empty_like(input._array))
        if _FuncTransforms.vmaps:    # inside vmap: batched where the vmap draws different numbers
            drawn(noise)
        mask = noise.bernoulli_(1 - p).div_(1 - p)
    if inplace:
        return input.mul_(mask)
    return input * mask


# --- more activations: gelu, silu ----------------------------------------------------------------

_SQRT_HALF = 0.5 ** 0.5
_INV_SQRT_2PI = (2 * np.pi) ** -0.5
_KAPPA = 0.044715                                # gelu's tanh form: kappa and beta = sqrt(2 / pi)
_BETA = 2 ** 0.5 * (2 / np.pi ** 0.5) * 0.5


def _gelu_slope(x, approximate):
    """numpy: d gelu/dx at x, exact or of the tanh approximation (in PyTorch's steps:
    0.5 (1 + t) + 0.5 x (1 - t^2) beta (1 + 3 kappa x^2), t = tanh(beta (x + kappa x^3)))."""
    if approximate == "tanh":
        x_squared = x * x
        tanh_inner = np.tanh(_BETA * (x + _KAPPA * (x_squared * x)))
        left_derivative = 0.5 * (1 + tanh_inner)
        inner_derivative = _BETA * (1 + 3 * _KAPPA * x_squared)
        return left_derivative + 0.5 * x * (1 - tanh_inner * tanh_inner) * inner_derivative
    cdf = 0.5 * (1 + _erf_array(x * _SQRT_HALF))
    pdf = np.exp(-0.5 * x * x) * _INV_SQRT_2PI
    return cdf + x * pdf


class GeluBackward0(Node):
    """result = self * Phi(self), Phi the standard normal CDF   ->
        grad_self = grad * (Phi(self) + self * phi(self))

    With approximate='tanh', Phi(x) is replaced by 0.5 * (1 + tanh(u)),
    u = sqrt(2/pi) * (x + 0.044715 x^3), and the derivative follows that formula.
    The gradient is one recorded operation (PyTorch's gelu_backward), so a second-order
    graph shows GeluBackwardBackward0.
    """

    _saved_names = ("self",)       # grad_fn._saved_self (and _saved_approximate)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (gelu_backward(grad, x, self.approximate),)


class GeluBackwardBackward0(Node):
    """result = g * gelu'(self) (gelu's backward, recorded)   ->
        grad_g = grad * gelu'(self); grad_self = grad * g * gelu''(self)"""

    _saved_names = ("grad_output", "self")     # grad_fn._saved_grad_output, grad_fn._saved_self

    def backward(self, gg):
        grad, x = self.saved_tensors
        d_grad = gelu_backward(gg, x, self.approximate) if self.should_compute_output(0) else None
        d_x = None
        if self.should_compute_output(1):
            if self.approximate == "none":
                d_x = _gelu_double_backward(gg, grad, x)
            else:
                d_x = _gelu_tanh_double_backward(gg, grad, x)
        return d_grad, d_x


def _gelu_double_backward(gg, grad, x):
    """gg * grad * gelu''(x), gelu''(x) = phi(x) (2 - x**2), phi the normal density, in
    PyTorch's steps (so that a third derivative walks through the same nodes)."""
    x_squared = x * x
    pdf = mul_by_number(mul_by_number(x_squared, -0.5).exp(), _INV_SQRT_2PI)
    # PyTorch's `gg * grad * (pdf * 2 - x_squared * pdf)`: its C++ makes the right-hand
    # side's nodes first
    x_squared_pdf = x_squared * pdf
    second = mul_by_number(pdf, 2) - x_squared_pdf
    return gg * grad * second


def _gelu_tanh_double_backward(gg, grad, x):
    """gg * grad * gelu''(x) for gelu's tanh form, in PyTorch's steps (so that a third
    derivative walks through the same nodes, and its values agree to the last bits).

    With gelu(x) = f g0, f = x / 2, g0 = 1 + tanh(u), u = beta (x + kappa x^3):
        gelu'(x)  = f' g0 + f g0' = (1/2) g0 + f g h,   g = 1 - tanh(u)^2, h = du/dx
        gelu''(x) = 2 (1/2) g h + f h g' + f g h'      (g' = dg/dx, h' = dh/dx)
    """
    inner = mul_by_number(x + mul_by_number(x ** 3, _KAPPA), _BETA)
    tanh_inner = inner.tanh()
    ones = _wrap(np.ones_like(x._array))         # (PyTorch's 1 - t and 1 / t: a tensor of ones)
    sech_inner = ones / inner.cosh()
    f = mul_by_number(x, 0.5)
    g = ones - tanh_inner * tanh_inner                       # sech(u)^2
    h = mul_by_number(add_number(mul_by_number(x, 3 * _KAPPA) * x, 1), _BETA)
    f_prime_gh = mul_by_number(g, 0.5) * h
    # g' = 2 sech(u) * (-sech(u) tanh(u)) * h (PyTorch's C++ makes the right factor first)
    minus_sech_tanh = -sech_inner * tanh_inner
    g_prime = mul_by_number(sech_inner, 2) * minus_sech_tanh * h
    g_prime_fh = f * h * g_prime
    h_prime = mul_by_number(mul_by_number(x, 6 * _KAPPA), _BETA)
    fg_h_prime = f * g * h_prime
    second = mul_by_number(f_prime_gh, 2) + g_prime_fh + fg_h_prime
    return gg * grad * second


def gelu_backward(grad, x, approximate="none"):
    """grad * d gelu(x)/dx, recorded as one operation (GeluBackwardBackward0)."""
    first = _gelu_slope(x._array, approximate)
    out = backward_kernel_layout((grad._array * first).astype(x._array.dtype, copy=False), grad, x)
    return result(out, GeluBackwardBackward0, (grad, x), saved=(grad, x), approximate=approximate)


@history_first
def gelu(input, *, approximate="none"):
    """Gaussian Error Linear Unit: x * Phi(x), or its tanh approximation (approximate='tanh').

    Gradient: grad * (Phi(x) + x * phi(x)) (the tanh form's own derivative with
    approximate='tanh').
    """
    if not isinstance(input, Tensor):
        raise not_a_tensor("gelu", input)
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _check_floating_kernel(input, "GeluKernelImpl")
    x = input._array
    if approximate == "tanh":
        with np.errstate(over="ignore", invalid="ignore"):     # gelu(-inf) = -inf * 0 = nan, silently
            out = 0.5 * x * (1 + np.tanh(_BETA * (x + _KAPPA * (x * x * x))))
    else:
        with np.errstate(invalid="ignore"):       # gelu(-inf) = -inf * 0 = nan, silently
            out = 0.5 * x * (1 + _erf_array(x * _SQRT_HALF))
    return result(out.astype(x.dtype, copy=False), GeluBackward0, (input,), saved=(input,),
                  approximate=approximate)


class SiluBackward0(Node):
    """result = self * sigmoid(self)   ->
        grad_self = grad * s * (1 + self * (1 - s)), s = sigmoid(self)"""

    _saved_names = ('self',)      # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        if x._array.dtype in (np.float32, np.float64) and not _State.enabled and not _DualLevel.open:
            # nothing recorded: PyTorch's kernel, whose compiler fuses 1 + x * (1 - s) into
            # one multiply-add (one rounding), so the last bit is PyTorch's
            g, a = grad._array, x._array
            # (np.asarray: numpy gives a scalar for 0-d arrays, which a .grad could not hold)
            return (_wrap(backward_kernel_layout(np.asarray(_silu_backward_values(g, a)), grad, x)),)
        s = sigmoid(x)
        # PyTorch's graph of this formula: (1 - s) is a tensor of ones minus s, and 1 + ...
        # adds a plain number (AddBackward1)
        one_minus_s = _wrap(np.ones_like(s._array)) - s
        return (grad * s * add_number(x * one_minus_s, 1),)


def _silu_backward_values(g, a):
    """grad * s * (1 + x (1 - s)) of float32 or float64 arrays, in the steps of PyTorch's kernel
    over (grad, x): the sigmoid's exp from SLEEF on whole vectors, from the C library on the
    rest (see _vectorized_loop), and 1 + x (1 - s) one multiply-add."""
    one = np.ones((), a.dtype)

    def slope(sigmoid_of):
        def formula(g_part, a_part):
            s = sigmoid_of(a_part)
            return g_part * s * _sleef_pow._fma(a_part, one - s, one)
        return formula
    if a.dtype == np.float32:
        vectorized, scalar = _sigmoid_float32_vectorized, _sigmoid_float32_scalar
    else:
        vectorized, scalar = _sigmoid_float64_vectorized, _sigmoid_float64_scalar
    return _vectorized_loop.elementwise_pair(g, a, slope(vectorized), slope(scalar), lanes=32 // a.itemsize)


def silu(input, inplace=False):
    """x * sigmoid(x) (also called swish).

    Gradient: grad * s * (1 + x (1 - s)), s = sigmoid(x).
    """
    if not isinstance(input, Tensor):   # (after PyTorch's `if inplace:`, its C++ function)
        parse_as("silu_" if inplace else "silu", input)
    if inplace:
        return apply_pointwise_inplace(input, silu)
    _check_floating_kernel(input, "silu_cpu")
    x = input._array
    with np.errstate(invalid="ignore"):       # silu(-inf) = -inf * 0 = nan, silently
        out = _silu_array(x).astype(x.dtype, copy=False)
    return result(out, SiluBackward0, (input,), saved=(input,))


from ._elu import (  # noqa: E402,F401  (elu, selu, celu: one kernel, three settings)
    elu, elu_, selu, selu_, celu, celu_, elu_backward, EluBackward0, EluBackward1, EluBackwardBackward0)
from ._hardswish import hardsigmoid, hardswish  # noqa: E402,F401  (made of straight pieces)
from ._mish import mish  # noqa: E402,F401  (x * tanh(softplus(x)))
from ._soft_margin_loss import soft_margin_loss  # noqa: E402,F401  (logistic loss for labels 1 / -1)
from ._similarity import normalize, cosine_similarity, pairwise_distance  # noqa: E402,F401  (composed of ordinary operations)
from ._margin_losses import (  # noqa: E402,F401  (composed of ordinary operations)
    margin_ranking_loss, hinge_embedding_loss, cosine_embedding_loss, triplet_margin_loss,
    triplet_margin_with_distance_loss, multilabel_soft_margin_loss)
from ._multi_margin_losses import multi_margin_loss, multilabel_margin_loss  # noqa: E402,F401  (one node each)
from ._likelihood_losses import poisson_nll_loss, gaussian_nll_loss  # noqa: E402,F401  (composed of ordinary operations)
from ._upsampling import interpolate  # noqa: E402,F401  (one node per resizing)
from ._pdist import pdist  # noqa: E402,F401  (distances between all pairs of rows; one node)
from ._bilinear import bilinear  # noqa: E402,F401  (x1^T A x2 + b, by _trilinear)
from ._ctc_loss import ctc_loss_function as ctc_loss  # noqa: E402,F401  (one node: CtcLossBackward0)
from ._local_response_norm import local_response_norm, gumbel_softmax  # noqa: E402,F401  (composed)
from ._pixel_shuffle import (  # noqa: E402,F401  (one node each)
    pixel_shuffle, pixel_unshuffle, channel_shuffle, native_channel_shuffle)
from ._shrink import (  # noqa: E402,F401  (hardshrink, softshrink, rrelu: a node each; the others composed)
    hardshrink, softshrink, tanhshrink, softsign, prelu, rrelu, rrelu_)
from ._affine_grid import affine_grid  # noqa: E402,F401  (one node)
from ._grid_sample import grid_sample  # noqa: E402,F401  (one node)


# --- relu and leaky_relu, also with inplace=True ---------------------------------------------------

def relu(input, inplace=False):
    """max(x, 0); with inplace=True written into ``input`` itself (as ``input.relu_()``).

    Gradient: grad where x > 0, else 0 (0 at exactly 0, as in PyTorch).
    """
    if inplace:                   # (PyTorch's Python asks this first, whatever the input is)
        return relu_(input)
    if not isinstance(input, Tensor):
        parse_as("relu", input)
    return _relu_out_of_place(input)


def relu_(input):
    """max(x, 0) written into ``input`` (ReluBackward0, like x.relu_())."""
    return METHODS["relu_"](input)


class LeakyReluBackward1(LeakyReluBackward0):
    """result = leaky_relu(self, slope, inplace=True), PyTorch's in-place node   ->
        grad_self = grad where result > 0, else slope * grad

    In place, self is overwritten, so PyTorch saves the result instead (with a positive
    slope it is > 0 exactly where self was)."""

    _saved_names = ("result",)     # grad_fn._saved_result


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x for x > 0, else negative_slope * x; inplace=True writes into ``input``.

    Gradient: grad where x > 0, else negative_slope * grad.
    """
    if not (isinstance(input, Tensor) and isinstance(negative_slope, NUMBER)):
        parse_as("leaky_relu_" if inplace else "leaky_relu", input, negative_slope)  # (PyTorch's C++ function)
        negative_slope = as_number(negative_slope)
    if not inplace:
        return _leaky_relu_out_of_place(input, negative_slope)
    return apply_pointwise_inplace(input, lambda t: _leaky_relu_out_of_place(t, negative_slope,
                                                                             LeakyReluBackward1))


def leaky_relu_(input, negative_slope=0.01):
    """``leaky_relu(input, negative_slope, inplace=True)``: input changed in place (LeakyReluBackward1)."""
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """``hardtanh(input, min_val, max_val, inplace=True)``: input cut off in place (HardtanhBackward0),
    without F.hardtanh's check that min_val <= max_val (PyTorch's F.hardtanh_ is its C++ function)."""
    return _hardtanh_call(input, min_val, max_val, inplace=True)


def threshold_(input, threshold, value):
    """``threshold(input, threshold, value, inplace=True)``: input changed in place (ThresholdBackward1)."""
    return _threshold_function(input, threshold, value, inplace=True)


_threshold_function = threshold       # (threshold_'s own argument hides the function's name)


# Arguments checked like every public function (see minigrad/_python_arg_parser.py).
def _check_activation_arguments():
    # (relu, silu, gelu, softplus, leaky_relu and sigmoid, tanh check their own: see each)
    for name in ("relu_", "selu", "selu_", "celu", "celu_", "hardsigmoid", "hardswish", "mish"):
        globals()[name] = checked(globals()[name], name, PARAMETERS.get(name, (("input", "Tensor"),)))


_check_activation_arguments()


def sigmoid(input):
    """1 / (1 + exp(-x)): ``input.sigmoid()``, which is all PyTorch's F.sigmoid does."""
    return input.sigmoid()


def tanh(input):
    """The hyperbolic tangent: ``input.tanh()``, which is all PyTorch's F.tanh does."""
    return input.tanh()
logsigmoid = checked(logsigmoid, "log_sigmoid", (("input", "Tensor"),))    # (PyTorch's C++ name)

# --- convolution, pooling, padding: each in a file of its own (_convolution.py, _pooling.py, _padding.py)
from ._convolution import (  # noqa: E402,F401
    conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d)
from ._fold import unfold, fold  # noqa: E402,F401
from ._padding import pad  # noqa: E402,F401
from ._pooling import (  # noqa: E402,F401
    max_pool1d, max_pool2d, avg_pool1d, avg_pool2d, adaptive_avg_pool1d, adaptive_avg_pool2d,
    adaptive_max_pool1d, adaptive_max_pool2d)
from ._pooling import (  # noqa: E402,F401  (3-d pooling, power-average pooling)
    max_pool3d, avg_pool3d, adaptive_avg_pool3d, adaptive_max_pool3d, lp_pool1d, lp_pool2d, lp_pool3d)
from ._max_unpool import max_unpool1d, max_unpool2d, max_unpool3d  # noqa: E402,F401
from ._fractional_max_pool import fractional_max_pool2d, fractional_max_pool3d  # noqa: E402,F401

# --- normalization, embedding, one_hot and channel dropout (one block: nn/_normalization.py, nn/_embedding.py)
from ._normalization import (  # noqa: E402,F401  (layer, batch and group norm: one node each)
    layer_norm, batch_norm, group_norm, rms_norm, instance_norm)
from ._embedding import embedding, one_hot  # noqa: E402,F401  (a table lookup: EmbeddingBackward0)
from ._embedding_bag import embedding_bag  # noqa: E402,F401  (lookups summed per bag: EmbeddingBagBackward0)
from ._dropout import (  # noqa: E402,F401  (whole channels at a time; alpha dropout for SELU)
    dropout1d, dropout2d, dropout3d, alpha_dropout, feature_alpha_dropout)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-x) along ``dim``: the smallest value gets the largest probability.

    Recorded as PyTorch records it: a negation, then softmax (SoftmaxBackward0 <- NegBackward0).
    """
    if dim is None:
        dim = _softmax_dim(input.dim(), None, "softmin")
    return softmax(-input, dim, dtype=dtype)

from ._attention import (  # noqa: E402,F401  (the fused kernel's node, or the math way; multi-head)
    scaled_dot_product_attention, multi_head_attention_forward, _canonical_mask, _none_or_dtype,
    _mha_shape_check, _in_projection_packed, _in_projection)


# --- uninitialized parameters (lazy modules): every function refuses them, as in PyTorch ------
# (done only once one exists: nn/parameter.py calls this, so no call pays for the check before)
# PyTorch's functions written in C, which its error shows as built-in functions or methods
_BUILT_IN_FUNCTIONS = frozenset((
    "avg_pool2d", "avg_pool3d", "elu_", "gelu", "hardtanh_", "leaky_relu_", "linear", "logsigmoid",
    "one_hot", "scaled_dot_product_attention", "softplus", "softshrink"))
_BUILT_IN_METHODS = frozenset((
    "adaptive_avg_pool1d", "avg_pool1d", "bilinear", "celu_", "channel_shuffle", "conv1d", "conv2d",
    "conv3d", "conv_tbc", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "cosine_similarity", "hardshrink", "native_channel_shuffle", "pairwise_distance", "pdist",
    "pixel_shuffle", "pixel_unshuffle", "prelu", "relu_", "rrelu_", "selu_", "threshold_"))


def check_for_uninitialized():
    """Make every public function here refuse an uninitialized parameter or buffer first, with
    PyTorch's ValueError naming the function as PyTorch shows it."""
    import functools
    import inspect
    from .parameter import refuse_uninitialized
    module = globals()
    for name, function in list(module.items()):
        # (the public functions: those that vmap's batching wraps, see func/_batched_tensor.py;
        # the helpers imported here stay as they are)
        if name.startswith("_") or not inspect.isfunction(function) or not hasattr(function, "_unbatched"):
            continue
        if name in _BUILT_IN_FUNCTIONS:
            shown = f"<built-in function {name}>"
        elif name in _BUILT_IN_METHODS:
            shown = f"<built-in method {name} of type object at {hex(id(Tensor))}>"
        else:
            shown = f"<function {name} at {hex(id(function))}>"

        def checking(*args, _function=function, _shown=shown, **kwargs):
            refuse_uninitialized(_shown, args, kwargs)
            return _function(*args, **kwargs)
        module[name] = functools.wraps(function)(checking)
