"""Normalization: layer_norm, batch_norm, group_norm (one node each), rms_norm and instance_norm
(composed of ordinary operations), as in PyTorch.

All of them do the same two steps, over different sets of elements:

    x_hat  = (x - mean) / sqrt(var + eps)       normalize: mean 0, variance 1 (var is biased: / n)
    result = x_hat * weight + bias              then let the layer learn a scale and a shift

    layer_norm   statistics over the last dims (``normalized_shape``) of each sample;
                 weight and bias have the shape ``normalized_shape``
    batch_norm   statistics of each channel (dim 1) over the batch and all positions;
                 weight and bias have one number per channel
    group_norm   statistics of each group of channels of each sample; weight and bias per channel

The backward of all three is the same formula. With g = grad * weight (the gradient that
reaches x_hat) and averages taken over the elements that shared a mean and a variance:

    grad_x      = rstd * (g - mean(g) - x_hat * mean(g * x_hat))      rstd = 1 / sqrt(var + eps)
    grad_weight = sum of grad * x_hat over everything but the weight's own dims
    grad_bias   = sum of grad           over the same

(the two subtracted means are there because every x also moved the mean and the variance).
Each kernel computes it in its own order; with ``create_graph=True`` the gradients are recorded
as PyTorch records them, so that they can be differentiated again (see
``_normalization_backward.py``).

As in PyTorch, each node saves the mean and rstd it computed, and shows them as
``grad_fn._saved_result1`` and ``_saved_result2`` (the second and third outputs of PyTorch's
``native_layer_norm`` and the like, which the F functions do not return). group_norm's are
outputs of its node that require grad; layer_norm's and batch_norm's are plain tensors.
"""
import warnings

import numpy as np

from .._type_names import type_name
from ..autograd.graph import Node, SavedOutput, _SETTINGS_KEPT_AS, attach_outputs
from ..autograd.grad_mode import is_grad_enabled
from .._ops import result
from .._ops.pointwise import add_number, kernel_not_implemented
from .._tensor import Tensor, _wrap
from .. import _dtype
from ._batch_norm_kernel import affine_values, batch_statistics, invstd_of, update_running
from ._rowwise_moments import fused, rowwise_moments
from ._normalization_backward import batch_norm_backward, group_norm_backward_recorded, layer_norm_backward
from ._norm_kernels import group_norm_kernel_backward
from .._memory_format import channels_last, channels_last_3d, contiguous_format, copy_in_format, is_in_format


def _shape_text(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _statistics(array, axes, eps):
    """numpy: mean and rstd = 1 / sqrt(var + eps) over ``axes`` (kept as size 1), in float64
    for every dtype, so that float32 results are correctly rounded."""
    wide = array.astype(np.float64)
    if not wide.size:     # no elements: nan (0 / 0), silently as in PyTorch (numpy warns)
        with warnings.catch_warnings(), np.errstate(invalid="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            mean = wide.mean(axis=axes, keepdims=True)
            var = np.square(wide - mean).mean(axis=axes, keepdims=True)
        return mean, 1.0 / np.sqrt(var + eps), var
    mean = wide.mean(axis=axes, keepdims=True)
    var = np.square(wide - mean).mean(axis=axes, keepdims=True)
    return mean, 1.0 / np.sqrt(var + eps), var


def _in_kernel_order(array):
    """Does minigrad follow PyTorch's kernel step by step for this input (float32 and float64)?"""
    return array.dtype in (np.float32, np.float64) and array.size > 0


def _batch_norm_kernel_layout(input):
    """Is the input laid out as PyTorch's batch_norm kernels want it (in order, or channels-last
    for 4-d and 5-d)? Other layouts take its generic path, computed otherwise."""
    from .. import channels_last, channels_last_3d
    return input.is_contiguous() or (input.ndim == 4 and input.is_contiguous(memory_format=channels_last)) or (
        input.ndim == 5 and input.is_contiguous(memory_format=channels_last_3d))


def _layer_norm_rows(rows, weight, bias, eps):
    """numpy: (values, mean, rstd) of layer_norm over rows (M, N) as PyTorch's kernel computes
    them: the moments in the input's dtype (``rowwise_moments``), rstd = 1 / sqrt(var + eps),
    then x_hat * weight + bias with one rounding."""
    dtype = rows.dtype.type
    mean, var = rowwise_moments(rows)
    rstd = dtype(1) / np.sqrt(var + dtype(eps))
    x_hat = (rows - mean[:, None]) * rstd[:, None]
    scale = np.ones((), dtype) if weight is None else weight._array.reshape(-1)
    shift = np.zeros((), dtype) if bias is None else bias._array.reshape(-1)
    return fused(x_hat, scale, shift), mean, rstd


def _group_norm_groups(groups, weight, bias, eps):
    """numpy: (values, mean, rstd) of group_norm for an input seen as (N, G, D, HxW), as
    PyTorch's kernel computes them: the moments in the input's dtype, rstd in float64, then
    scale * x + (beta - scale * mean) with scale = rstd * gamma, each multiply-add rounded once."""
    n, g, d, _ = groups.shape
    mean, var = rowwise_moments(groups.reshape(n * g, -1))
    rstd = (1 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(groups.dtype)
    mean, rstd = mean.reshape(n, g, 1, 1), rstd.reshape(n, g, 1, 1)
    if weight is None and bias is None:
        return (groups - mean) * rstd, mean, rstd
    scale = rstd if weight is None else rstd * weight._array.reshape(1, g, d, 1)
    beta = np.zeros((), groups.dtype) if bias is None else bias._array.reshape(1, g, d, 1)
    return fused(scale, groups, fused(-scale, mean, beta)), mean, rstd


def _affine(x_hat, weight, bias, view_shape):
    """numpy: x_hat * weight + bias, the weight and bias viewed as ``view_shape`` to broadcast."""
    if weight is not None:
        x_hat = x_hat * weight._array.astype(np.float64).reshape(view_shape)
    if bias is not None:
        x_hat = x_hat + bias._array.astype(np.float64).reshape(view_shape)
    return x_hat


def _laid_out_as_pytorch_suggests(values, input_array, dtype):
    """``values`` in ``dtype``, laid out in memory as PyTorch's batch and group norm kernels write:
    channels-last for a channels-last 4-d or 5-d input, row-major for everything else."""
    values = values.astype(dtype, copy=False)
    for fmt in (channels_last, channels_last_3d):
        if input_array.ndim == fmt.rank and not input_array.flags.c_contiguous and is_in_format(input_array, fmt):
            return copy_in_format(values, fmt)
    return np.ascontiguousarray(values)


def _check_tensor(function, value, name="input", position=1):
    """PyTorch's TypeError for an argument that must be a tensor."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be Tensor, not "
                        f"{type_name(value)}")


def _check_floating(kernel, input):
    """The kernels have float versions only, and say so naming the kernel."""
    if not input.is_floating_point():
        raise kernel_not_implemented(kernel, input)


def _verify_batch_size(size):
    """More than one value must share each mean, or the variance is 0 and x_hat undefined."""
    values = size[0]
    for n in size[2:]:
        values *= n
    if values == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def _check_same_dtype(input, *tensors):
    """PyTorch's CPU kernels want the weight, bias and running statistics (``tensors``, in that
    order) in the input's dtype, or, for a float16 input, all of them float32.

    As PyTorch decides: the first parameter given names the case. In the input's dtype, every
    other one must be too (the kernel reads them as the input's type); otherwise ("mixed") all
    must be float32 and the input float16."""
    _check_mixed_dtype(input, *tensors)
    _check_dtype_as_input(input, *tensors)


def _check_mixed_dtype(input, *tensors):
    """The "mixed" half of ``_check_same_dtype``: layer_norm and group_norm check it before
    the kernel, and the other half in it."""
    given = [t for t in tensors if t is not None]
    if not given or given[0].dtype is input.dtype:
        return
    if any(tensor.dtype is not _dtype.float32 for tensor in given):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    if input.dtype is not _dtype.float16:
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


def _check_dtype_as_input(input, *tensors):
    """The other half: the first parameter given has the input's dtype, so must all."""
    given = [t for t in tensors if t is not None]
    if not given or given[0].dtype is not input.dtype:
        return
    for tensor in given:
        if tensor.dtype is not input.dtype:
            raise RuntimeError(f"expected scalar type {_dtype.scalar_type_name(input.dtype)} but found "
                               f"{_dtype.scalar_type_name(tensor.dtype)}")


def _normalization_backward(node, grad, input, weight, mean, rstd, axes, stats_shape, view_shape):
    """The gradients of input, weight and bias (see the module docstring), not recorded.

    ``stats_shape``: the shape in which ``axes`` are the elements that shared a mean (the input's
    own shape, or (N, groups, elements per group) for group_norm); ``view_shape``: the weight's shape for
    broadcasting against the input.
    """
    x = input.reshape(stats_shape)
    x_hat = ((x - mean) * rstd).reshape(input.shape)
    grad_input = grad_weight = grad_bias = None
    if node.should_compute_output(0):
        g = grad if weight is None else grad * weight.reshape(view_shape)
        g = g.reshape(stats_shape)
        x_hat_s = x_hat.reshape(stats_shape)
        g = g - g.mean(axes, keepdim=True) - x_hat_s * (g * x_hat_s).mean(axes, keepdim=True)
        grad_input = (rstd * g).reshape(input.shape)
    # the weight and bias got one gradient per weight: summed over all other dims
    other_dims = tuple(d for d in range(input.ndim) if view_shape[d] == 1) if input.ndim else ()
    if weight is not None and node.should_compute_output(1):
        grad_weight = (grad * x_hat).sum(other_dims).reshape(weight.shape)
    if len(node._next_nrs) > 2 and node.should_compute_output(2):
        grad_bias = grad.sum(other_dims).reshape(node.bias_shape)
    return grad_input, grad_weight, grad_bias


# --- layer_norm -------------------------------------------------------------------------------------

_SETTINGS_KEPT_AS["NativeLayerNormBackward0"] = {"normalized_shape": "normalized_shape"}


class NativeLayerNormBackward0(Node):
    """result = (x - mean) * rstd * weight + bias, mean and rstd over the last dims   ->
        grad_input = rstd * (g - mean(g) - x_hat * mean(g * x_hat)) with g = grad * weight; grad_weight = sum(grad * x_hat); grad_bias = sum(grad)"""

    _saved_names = ("input", "weight", "bias", "result1", "result2")

    def backward(self, grad):
        input, weight, bias, mean, rstd = self.saved_tensors
        mask = [self.should_compute_output(i) for i in range(3)]
        return layer_norm_backward(grad, input, self.normalized_shape, mean, rstd, weight, bias, mask)


def _int_shape(function, normalized_shape):
    """``normalized_shape`` as a tuple of ints; PyTorch's TypeError for anything else (a single
    int too: only the modules accept one)."""
    wanted = f"{function}(): argument 'normalized_shape' (position 2) must be tuple of ints"
    if not isinstance(normalized_shape, (tuple, list)):
        raise TypeError(f"{wanted}, not {type(normalized_shape).__name__}")
    for position, size in enumerate(normalized_shape):
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
            raise TypeError(f"{wanted}, but found element of type {type(size).__name__} at pos {position}")
    return tuple(int(n) for n in normalized_shape)


def _check_normalized_shape(input, normalized_shape, weight, bias, star=", "):
    if not normalized_shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                           f"least one element, but got normalized_shape = {_shape_text(normalized_shape)}")
    for name, tensor in (("weight", weight), ("bias", bias)):
        if tensor is not None and tuple(tensor.shape) != normalized_shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                               f"shape {_shape_text(tensor.shape)} and normalized_shape = "
                               f"{_shape_text(normalized_shape)}")
    k = len(normalized_shape)
    if input.ndim < k or tuple(input.shape[input.ndim - k:]) != normalized_shape:
        expected = "[*" + star + ", ".join(str(n) for n in normalized_shape) + "]"
        raise RuntimeError(f"Given normalized_shape={_shape_text(normalized_shape)}, expected input with "
                           f"shape {expected}, but got input of size{_shape_text(input.shape)}")


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalize each sample over its last dims (``normalized_shape``), then scale and shift.

    ``F.layer_norm(x, (4,))`` gives every row of 4 numbers mean 0 and variance 1. One recorded
    operation, NativeLayerNormBackward0, as in PyTorch.
    """
    _check_tensor("layer_norm", input)
    normalized_shape = _int_shape("layer_norm", normalized_shape)
    _check_mixed_dtype(input, weight, bias)          # (PyTorch's order)
    _check_normalized_shape(input, normalized_shape, weight, bias)
    _check_floating("LayerNormKernelImpl", input)
    _check_dtype_as_input(input, weight, bias)
    axes = tuple(range(input.ndim - len(normalized_shape), input.ndim))
    dtype = input._array.dtype
    if _in_kernel_order(input._array):
        stats_shape = input.shape[:input.ndim - len(axes)] + (1,) * len(axes)
        rows = np.ascontiguousarray(input._array).reshape(-1, int(np.prod(normalized_shape)))
        values, mean, rstd = _layer_norm_rows(rows, weight, bias, eps)
        values, mean, rstd = values.reshape(input.shape), mean.reshape(stats_shape), rstd.reshape(stats_shape)
    else:
        mean, rstd, _ = _statistics(input._array, axes, eps)
        values = _affine((input._array - mean) * rstd, weight, bias, normalized_shape)
    saved_mean, saved_rstd = _wrap(mean.astype(dtype)), _wrap(rstd.astype(dtype))
    # (PyTorch's result is contiguous whatever the input's layout)
    return result(np.ascontiguousarray(values, dtype=dtype), NativeLayerNormBackward0, (input, weight, bias),
                  saved=(input, weight, bias, saved_mean, saved_rstd), normalized_shape=normalized_shape,
                  eps=eps, bias_shape=normalized_shape)


# --- batch_norm -------------------------------------------------------------------------------------

_SETTINGS_KEPT_AS["NativeBatchNormBackward0"] = {"eps": "eps", "training": "training"}


class NativeBatchNormBackward0(Node):
    """result = (x - mean) * rstd * weight + bias, each channel's mean and rstd over the batch   ->
        grad_input = rstd * (g - mean(g) - x_hat * mean(g * x_hat)) with g = grad * weight (in eval: rstd * g); grad_weight = sum(grad * x_hat); grad_bias = sum(grad)"""

    _saved_names = ("input", "weight", "running_mean", "running_var", "result1", "result2")

    def backward(self, grad):
        input, weight, running_mean, running_var, mean, rstd = self.saved_tensors
        mask = [self.should_compute_output(i) for i in range(3)]
        return batch_norm_backward(grad, input, weight, running_mean, running_var, mean, rstd, self.training,
                                   self.eps, mask)


def _check_channels(name, tensor, channels):
    if tensor is not None and tensor.numel() != channels:
        raise RuntimeError(f"{name} should contain {channels} elements not {tensor.numel()}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-5):
    """Normalize each channel (dim 1) over the batch and all positions, then scale and shift.

    In training the batch's own statistics are used, and ``running_mean`` / ``running_var`` (if
    given) move towards them by ``momentum``: new = (1 - momentum) * old + momentum * batch
    value, where the batch variance is the unbiased one (divided by n - 1). In eval mode the
    running statistics are used instead. One recorded operation, NativeBatchNormBackward0.
    """
    if training:
        if not isinstance(input, Tensor):       # (PyTorch asks input.size() first)
            raise AttributeError(f"'{type(input).__name__}' object has no attribute 'size'")
        _verify_batch_size(input.shape)
    _check_tensor("batch_norm", input)
    if momentum is None or isinstance(momentum, bool) or not isinstance(momentum, (int, float, np.floating)):
        raise TypeError(f"batch_norm(): argument 'momentum' (position 7) must be float, not {type_name(momentum)}")
    if input._array.size == 0 and input.ndim > 1:
        # PyTorch's shortcut for no elements: a copy (no view of input, no new empty tensor,
        # which would cut the graph), times weight[0], plus bias[0]; no statistics
        out = input.clone()
        if weight is not None:
            out = out * weight.select(0, 0)
        if bias is not None:
            out = out + bias.select(0, 0)
        return out
    # the rest in PyTorch's order
    channels = input.shape[1] if input.ndim > 1 else 0      # (a 1-d input has no channel dim)
    for name, tensor in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                         ("bias", bias)):
        if tensor is None and not training and name.startswith("running"):
            raise RuntimeError(f"{name} must be defined in evaluation mode")
        _check_channels(name, tensor, channels)
    if input.ndim < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    axes = (0,) + tuple(range(2, input.ndim))
    if training and not input.is_floating_point() and not _batch_norm_kernel_layout(input) and all(
            t is None or t.dtype is input.dtype for t in (weight, bias, running_mean)):
        # PyTorch's path for other layouts (taken when weight, bias and running_mean, not
        # running_var, have the input's dtype) starts with at::mean, whose refusal of integers
        # and bools comes before the kernel's own
        _wrap(input._array).mean(axes)
    _check_floating("batch_norm", input)
    _check_same_dtype(input, weight, bias, running_mean, running_var)
    view_shape = (1, channels) + (1,) * (input.ndim - 2)
    dtype = input._array.dtype
    array = input._array
    in_order = _in_kernel_order(array) and all(t is None or t.dtype is input.dtype for t in (weight, bias))
    strided = in_order and not _batch_norm_kernel_layout(input)
    if training and strided:
        # PyTorch's path for other layouts: at::mean, then the squares around it added in float64
        count = input.numel() // channels
        mean = _wrap(array).mean(axes)._array
        centred = array.astype(np.float64) - mean.astype(np.float64).reshape(view_shape)
        var_sum64 = (centred * centred).sum(axis=axes)
        rstd = (1 / np.sqrt(var_sum64 / count + eps)).astype(dtype)
        var_sum = var_sum64.astype(dtype)
        if running_mean is not None or running_var is not None:
            update_running(None if running_mean is None else running_mean._array,
                           None if running_var is None else running_var._array, mean, var_sum, momentum, count)
        saved_mean, saved_rstd = _wrap(mean), _wrap(rstd)
    elif training and in_order:
        mean, var_sum = batch_statistics(array)
        count = input.numel() // channels
        rstd = invstd_of(var_sum, count, eps)
        if running_mean is not None or running_var is not None:
            # (written straight into their memory, without a new version, as for the others)
            update_running(None if running_mean is None else running_mean._array,
                           None if running_var is None else running_var._array, mean, var_sum, momentum, count)
        saved_mean, saved_rstd = _wrap(mean), _wrap(rstd)
    elif training:
        mean, rstd, var = _statistics(array, axes, eps)
        if running_mean is not None or running_var is not None:
            _update_running_statistics(running_mean, running_var, mean, var, momentum,
                                       input.numel() // channels)
        saved_mean = _wrap(mean.reshape(channels).astype(dtype))
        saved_rstd = _wrap(rstd.reshape(channels).astype(dtype))
    else:
        if in_order and running_mean.dtype is input.dtype and running_var.dtype is input.dtype:
            mean = running_mean._array.reshape(channels)
            rstd = dtype.type(1) / np.sqrt(running_var._array.reshape(channels) + dtype.type(eps))
        else:
            mean = running_mean._array.astype(np.float64).reshape(view_shape)
            rstd = 1.0 / np.sqrt(running_var._array.astype(np.float64).reshape(view_shape) + eps)
        saved_mean = saved_rstd = _wrap(np.empty(0, dtype))     # PyTorch keeps empty ones in eval
    if strided and mean.ndim == 1:
        # ((x - mean) * invstd) * weight + bias, element by element in the input's dtype
        values = (array - mean.reshape(view_shape)) * rstd.reshape(view_shape)
        if weight is not None:
            values = values * weight._array.reshape(view_shape)
        if bias is not None:
            values = values + bias._array.reshape(view_shape)
    elif in_order and mean.ndim == 1:
        values = affine_values(array, mean, rstd, None if weight is None else weight._array.reshape(channels),
                               None if bias is None else bias._array.reshape(channels))
    else:
        values = _affine((array - mean) * rstd, weight, bias, view_shape)
    return result(_laid_out_as_pytorch_suggests(values, input._array, dtype), NativeBatchNormBackward0, (input, weight, bias),
                  saved=(input, weight, running_mean, running_var, saved_mean, saved_rstd),
                  eps=eps, training=bool(training), bias_shape=(channels,))


def _update_running_statistics(running_mean, running_var, mean, var, momentum, count):
    """Move the running statistics towards the batch's, in place.

    Written straight into their memory, without counting a new version, as PyTorch's kernel
    does: a graph that saved them is not spoilt by the next training step.
    """
    if running_mean is not None:
        new = (1 - momentum) * running_mean._array + momentum * mean.reshape(running_mean.shape)
        running_mean._array[...] = new
    if running_var is not None:
        unbiased = var.reshape(running_var.shape) * (count / max(count - 1, 1))
        running_var._array[...] = (1 - momentum) * running_var._array + momentum * unbiased


# --- group_norm -------------------------------------------------------------------------------------

_SETTINGS_KEPT_AS["NativeGroupNormBackward0"] = {"C": "C", "HxW": "HxW", "N": "N", "eps": "eps",
                                                 "group": "group"}


class NativeGroupNormBackward0(Node):
    """result = (x - mean) * rstd * weight + bias, mean and rstd per sample and group of channels   ->
        grad_input = rstd * (g - mean(g) - x_hat * mean(g * x_hat)) over each group, g = grad * weight; grad_weight = sum(grad * x_hat); grad_bias = sum(grad)

    Unlike layer_norm's and batch_norm's, this node's mean and rstd are outputs that require grad
    (as in PyTorch: ``grad_fn._saved_result1.grad_fn`` is the node itself); a gradient reaching
    them adds grad_mean / m + grad_rstd * (-rstd**3) (x - mean) / m to the input's, m the group's size
    (only when both got one, as in PyTorch). With create_graph=True the gradient is written with
    recorded operations on those outputs (``group_norm_backward_recorded``), so that it can be
    differentiated again.
    """

    _saved_names = ("input", "weight", "result1", "result2")

    def backward(self, grad, grad_mean=None, grad_rstd=None):
        input, weight, mean, rstd = self.saved_tensors
        mask = [self.should_compute_output(i) for i in range(3)]
        if is_grad_enabled() or grad_mean is not None or grad_rstd is not None:
            # written with recorded operations, through this node's own mean and rstd outputs
            return group_norm_backward_recorded(grad, grad_mean, grad_rstd, input, mean, rstd, weight, self.N,
                                                self.C, self.HxW, self.group, mask)
        if grad is None:
            return None, None, None
        if _in_kernel_order(input._array) and input._array.flags.c_contiguous:
            arrays = group_norm_kernel_backward(
                grad._array.reshape(self.N, self.C, self.HxW), input._array.reshape(self.N, self.C, self.HxW),
                mean._array, rstd._array, None if weight is None else weight._array, self.group, mask)
            shapes = (input.shape, (self.C,), (self.C,))
            return tuple(None if a is None or not wanted else _wrap(np.ascontiguousarray(a).reshape(shape))
                         for a, wanted, shape in zip(arrays, mask, shapes))
        stats_shape = (self.N, self.group, (self.C // self.group) * self.HxW)
        view_shape = (1, self.C) + (1,) * (input.ndim - 2)
        return _normalization_backward(self, grad, input, weight, mean.unsqueeze(-1), rstd.unsqueeze(-1), (2,),
                                       stats_shape, view_shape)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Split the channels (dim 1) into ``num_groups`` groups and normalize each group of each
    sample, then scale and shift each channel. One recorded operation, NativeGroupNormBackward0.
    """
    if not isinstance(input, Tensor):            # (PyTorch asks input.dim() first)
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'dim'")
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.ndim}")
    n, c = input.shape[0], input.shape[1]
    _verify_batch_size([n * c // num_groups, num_groups] + list(input.shape[2:]))
    if c % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, but got "
                           f"input of shape {_shape_text(input.shape)} and num_groups={num_groups}")
    for name, tensor in (("weight", weight), ("bias", bias)):
        if tensor is not None and (tensor.ndim != 1 or tensor.numel() != c):
            # (PyTorch's message about the bias shows the weight's shape, [0] without a weight)
            shown = (0,) if weight is None else weight.shape
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in "
                               f"input, but got {name} of shape {_shape_text(shown)} and input of "
                               f"shape {_shape_text(input.shape)}")
    _check_mixed_dtype(input, weight, bias)
    _check_floating("GroupNormKernelImpl", input)
    _check_dtype_as_input(input, weight, bias)
    # PyTorch's kernel works on an input laid out in order (or channels-last): it makes such a
    # copy first (a recorded clone, which is then the node's edge and saved input)
    if not input.is_contiguous() and not any(input.ndim == fmt.rank and is_in_format(input._array, fmt)
                                             for fmt in (channels_last, channels_last_3d)):
        input = input.contiguous()
    array = input._array
    grouped = array.reshape(n, num_groups, (c // num_groups) * int(np.prod(array.shape[2:])))
    view_shape = (1, c) + (1,) * (input.ndim - 2)
    if _in_kernel_order(array) and array.flags.c_contiguous:
        groups = array.reshape(n, num_groups, c // num_groups, -1)
        values, mean, rstd = _group_norm_groups(groups, weight, bias, eps)
        values = values.reshape(array.shape)
    else:           # (channels-last: PyTorch's kernel for it adds in another order)
        mean, rstd, _ = _statistics(grouped, (2,), eps)
        x_hat = ((grouped - mean) * rstd).reshape(array.shape)
        values = _affine(x_hat, weight, bias, view_shape)
    dtype = array.dtype
    values = _laid_out_as_pytorch_suggests(values, array, dtype)
    out = result(values, NativeGroupNormBackward0, (input, weight, bias), C=c, HxW=int(np.prod(array.shape[2:])),
                 N=n, eps=eps, group=num_groups, bias_shape=(c,))
    node = out._grad_fn
    if node is not None and out._output_nr == 0 and isinstance(node, NativeGroupNormBackward0):
        # the mean and rstd are the node's second and third outputs, as in PyTorch (F.group_norm
        # returns only the first; the node keeps the others as saved outputs)
        saved_mean = _wrap(mean.reshape(n, num_groups).astype(dtype))
        saved_rstd = _wrap(rstd.reshape(n, num_groups).astype(dtype))
        attach_outputs(node, (out, saved_mean, saved_rstd))
        node.save_for_backward(input, weight, SavedOutput(saved_mean), SavedOutput(saved_rstd))
    return out


# --- rms_norm and instance_norm: ordinary operations ------------------------------------------------

def rms_norm(input, normalized_shape, weight=None, eps=None):
    """Divide each sample by the root of the mean of its squares over the last dims, then scale.

    ``x * rsqrt(mean(x**2) + eps) * weight``: like layer_norm without subtracting the mean and
    without a bias. PyTorch records it as the ordinary operations it is made of (PowBackward0,
    MeanBackward1, AddBackward1, RsqrtBackward0, MulBackward0), and so do we. ``eps=None`` means
    the dtype's machine epsilon (``torch.finfo(dtype).eps``). float16 is computed in float32.
    """
    _check_tensor("rms_norm", input)
    normalized_shape = _int_shape("rms_norm", normalized_shape)
    _check_normalized_shape(input, normalized_shape, weight, None, star="")
    _check_floating("rms_norm", input)
    # the last dims, listed from the last one back, as PyTorch lists them (grad_fn's _saved_dim shows it)
    dims = tuple(range(input.ndim - 1, input.ndim - len(normalized_shape) - 1, -1))
    upcast = input.to(_dtype.float32) if input.dtype is _dtype.float16 else input
    if eps is None:
        eps = float(np.finfo(upcast._array.dtype).eps)
    out = upcast * add_number(upcast.pow(2).mean(dims, keepdim=True), eps).rsqrt()
    if weight is not None:
        out = out * weight
    # PyTorch then makes the result contiguous in input's suggested memory format: row-major
    # (channels-last for a channels-last input), where the operations one by one kept a
    # transposed input's layout; that copy is recorded (CloneBackward0) when it is made
    out = out.contiguous(memory_format=_suggested_memory_format(input._array))
    return out.to(input.dtype)


def _suggested_memory_format(array):
    """The memory format PyTorch suggests for a tensor laid out as ``array``: channels-last for
    a channels-last 4-d or 5-d tensor (that is not also row-major), else row-major."""
    for fmt in (channels_last, channels_last_3d):
        if array.ndim == fmt.rank and not array.flags.c_contiguous and is_in_format(array, fmt):
            return fmt
    return contiguous_format


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Normalize each channel of each sample on its own (over the positions only).

    As PyTorch does it: the batch is folded into the channels, (N, C, ...) -> (1, N*C, ...),
    and batch_norm runs on that, the weight, bias and running statistics repeated N times.
    """
    if not isinstance(input, Tensor):            # (PyTorch asks input.size() first)
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'size'")
    if use_input_stats:
        spatial = int(np.prod(input.shape[2:]))
        if spatial == 1:
            raise ValueError("Expected more than 1 spatial element when training, got input size "
                             f"{input.shape}")
    elif running_mean is None or running_var is None:
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    n, c = input.shape[0], input.shape[1]
    folded = input.reshape((1, n * c) + tuple(input.shape[2:]))
    repeated = [None if t is None else t.repeat(n) for t in (weight, bias, running_mean, running_var)]
    out = batch_norm(folded, repeated[2], repeated[3], repeated[0], repeated[1], use_input_stats, momentum, eps)
    for running, folded_running in ((running_mean, repeated[2]), (running_var, repeated[3])):
        if running is not None and use_input_stats:
            # each channel's new running value: the average over the samples
            running._array[...] = folded_running._array.reshape(n, c).mean(axis=0)
    return out.view(input.shape)

