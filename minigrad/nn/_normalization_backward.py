"""The gradients of layer_norm, batch_norm and group_norm, and the gradients of those gradients
(``create_graph=True``), recorded as PyTorch records them.

layer_norm and batch_norm: the gradient comes from one kernel (numpy here), and with
create_graph=True it is recorded as one node with three outputs (grad_input, grad_weight,
grad_bias): ``NativeLayerNormBackwardBackward0`` / ``NativeBatchNormBackwardBackward0``. Their
backward writes the second derivative with ordinary recorded operations, in PyTorch's order
(its ``layer_norm_double_backward`` and ``batchnorm_double_backward``), so a third derivative
records those operations. Like PyTorch's, these nodes take the saved mean and rstd as
constants: the second derivative is exact (its formula accounts for how they move with the
input), a third one is not (PyTorch's is not either).

group_norm: with create_graph=True PyTorch writes the gradient itself with ordinary operations
that use the mean and rstd outputs of the group_norm node, so that the gradient's gradient
flows back through them (``infinitely_differentiable_native_group_norm_backward``).

The first gradients' values come from numpy copies of PyTorch's kernels (``_norm_kernels.py``,
``_batch_norm_kernel.py``).
"""
import math

import numpy as np

from ..autograd.graph import Node, _SETTINGS_KEPT_AS
from .._ops import several_outputs
from .._ops.inplace import apply_inplace
from .._ops.pointwise import add_number, div_by_number, mul_by_number
from .._tensor import _wrap
from ._batch_norm_kernel import batch_norm_kernel_backward
from ._norm_kernels import layer_norm_kernel_backward


# --- layer_norm ----------------------------------------------------------------------------------

def layer_norm_backward(grad, input, normalized_shape, mean, rstd, weight, bias, mask):
    """(grad_input, grad_weight, grad_bias) of layer_norm, those ``mask`` asks for, recorded (with
    create_graph=True) as one NativeLayerNormBackwardBackward0."""
    dtype = input._array.dtype
    m = math.prod(input.shape[:input.ndim - len(normalized_shape)])
    rows = (m, math.prod(normalized_shape))
    dx, dgamma, dbeta = layer_norm_kernel_backward(
        grad._array.reshape(rows), input._array.reshape(rows), mean._array.reshape(m), rstd._array.reshape(m),
        None if weight is None else weight._array.reshape(-1), mask)
    arrays = [None if dx is None else dx.astype(dtype).reshape(input.shape),
              dgamma.astype(weight._array.dtype).reshape(weight.shape) if mask[1] else None,
              dbeta.astype(bias._array.dtype).reshape(bias.shape) if mask[2] else None]
    return several_outputs(arrays, NativeLayerNormBackwardBackward0, (grad, input, mean, rstd, weight, bias),
                           saved=(grad, input, mean, rstd, weight), normalized_shape=tuple(normalized_shape))


_SETTINGS_KEPT_AS["NativeLayerNormBackwardBackward0"] = {"normalized_shape": "normalized_shape"}


class NativeLayerNormBackwardBackward0(Node):
    """result = (grad_input, grad_weight, grad_bias) of layer_norm   ->
        grad_grad_out = layer_norm's grad_input for gg_input + gg_weight * x_hat + gg_bias; grad_input = d(gg . result)/d input, the mean and rstd moving with it; grad_weight = sum(grad_out * layer_norm's grad_input for gg_input, weight 1)

    (PyTorch's layer_norm_double_backward, with the saved mean and rstd; nothing towards the
    bias: the gradients do not depend on it.)"""

    _saved_names = ("grad_out", "input", "mean", "rstd", "weight")

    def backward(self, gg_input, gg_weight, gg_bias):
        grad_out, input, mean, rstd, weight = self.saved_tensors
        g_input, g_weight, gg_out = _layer_norm_double_backward(
            input, weight, gg_input, gg_weight, gg_bias, grad_out, mean, rstd, self.normalized_shape)
        return gg_out, g_input, None, None, g_weight, None


def _div_(tensor, number):
    """tensor.div_(number), recorded as DivBackward1 (PyTorch's formulas divide by a C++ number in
    place: the result's _version counts such steps)."""
    return apply_inplace(tensor, div_by_number, number)


def _mul_(tensor, number):
    """tensor.mul_(number), recorded as MulBackward1 (see _div_)."""
    return apply_inplace(tensor, mul_by_number, number)


def _ones(shape, like):
    return _wrap(np.ones(shape, like._array.dtype))


def _layer_norm_double_backward(input_t, gamma, ggI, ggG, ggB, gO_t, mean_t, rstd_t, normalized_shape):
    """(grad of input, grad of weight, grad of grad_output) from the gradients (ggI, ggG, ggB)
    reaching grad_input, grad_weight and grad_bias; the rows of the input (M, N), each
    normalized on its own."""
    axis = input_t.ndim - len(normalized_shape)
    M, N = math.prod(input_t.shape[:axis]), math.prod(input_t.shape[axis:])
    input, gO = input_t.reshape(M, N), gO_t.reshape(M, N)
    mu, rstd = mean_t.reshape(M, 1), rstd_t.reshape(M, 1)
    affine = gamma is not None
    gamma_wide = gamma.reshape(1, N) if affine else _ones((1,), input)
    ggG_wide = ggG.reshape(1, N) if affine and ggG is not None else None
    ggB_wide = ggB.reshape(1, N) if affine and ggB is not None else None
    if ggB is not None and not affine and ggI is not None:
        # (PyTorch adds the bias's term only with a weight, and without one fails here)
        raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                           "argument #1 'other'")
    ggI_wide = ggI.reshape(M, N) if ggI is not None else None
    input_sub_mu = input - mu
    rstd2, rstd3 = rstd.pow(2), rstd.pow(3)
    input_mu_rstd3 = input_sub_mu * rstd3

    gI = None
    if ggI is not None:
        # how ggI . grad_input moves with the input (through x_hat, the mean and the rstd)
        gxhat = gO * gamma_wide
        gxhat_mu_sum = (gxhat * input_sub_mu).sum(1, True)
        gxhat_sum = gxhat.sum(1, True)
        ggI_sum = ggI_wide.sum(1, True)
        ggI_mu_sum = (ggI_wide * input_sub_mu).sum(1, True)
        # (in place where PyTorch works in place: the result's _version shows it)
        all_sub = (_div_(ggI_sum * gxhat_sum, N).sub_((ggI_wide * gxhat).sum(1, True))
                   .add_(_mul_(rstd2 * gxhat_mu_sum * ggI_mu_sum, 3.0 / N)))
        gI_0t = _div_(input_mu_rstd3 * all_sub, N)
        gI_1t = _div_(ggI_mu_sum * rstd3, N) * (div_by_number(gxhat_sum, N) - gxhat)
        gI_2t = _div_(gxhat_mu_sum * rstd3, N) * (div_by_number(ggI_sum, N) - ggI_wide)
        gI = gI_0t.add_(gI_1t).add_(gI_2t)
    if ggG_wide is not None:
        # how ggG . grad_weight (= sum of grad * x_hat) moves with the input
        t0 = gO * ggG_wide * rstd
        t1 = _div_(rstd * (gO * ggG_wide).sum(1, True), -N)
        t2 = _div_(input_mu_rstd3 * (gO * ggG_wide * input_sub_mu).sum(1, True), -N)
        term = t0.add_(t1).add_(t2)
        gI = term if gI is None else gI.add_(term)
    if gI is not None:
        gI = gI.reshape_as(input_t)

    def first_grad_input(g, scale):
        """layer_norm's grad_input for the incoming gradient g (times scale, the weight)."""
        h0 = _div_(scale * rstd, N)
        h1 = (mul_by_number(g, N).sub_(g.sum(1, True))
              .sub_(input_sub_mu.mul(rstd2) * (g * input_sub_mu).sum(1, True)))
        return h0 * h1

    gG = None
    if affine and ggI is not None:
        gG = (gO * first_grad_input(ggI_wide, _ones((), input))).sum(0).reshape_as(gamma)
    ggO = first_grad_input(ggI_wide, gamma_wide) if ggI is not None else None
    if ggG_wide is not None:
        term = ggG_wide * input_sub_mu * rstd
        ggO = term if ggO is None else ggO.add_(term)
    if ggB_wide is not None:
        ggO = ggB_wide if ggO is None else ggO.add_(ggB_wide)
    if ggO is not None:
        ggO = ggO.expand(M, N).reshape_as(input_t)
    return gI, gG, ggO


# --- batch_norm ----------------------------------------------------------------------------------

def batch_norm_backward(grad, input, weight, running_mean, running_var, save_mean, save_invstd, training, eps,
                        mask):
    """(grad_input, grad_weight, grad_bias) of batch_norm, those ``mask`` asks for, recorded (with
    create_graph=True) as one NativeBatchNormBackwardBackward0.

    Per channel, with the sums over the batch and the positions (n numbers each):
    grad_input = (dy - sum(dy) / n - (x - mean) * sum((x - mean) * dy) * invstd**2 / n) * invstd * w
    in training (the statistics moved with x), dy * invstd * w in eval; grad_weight =
    sum((x - mean) * dy) * invstd; grad_bias = sum(dy)."""
    x, dy = input._array, grad._array
    dtype = x.dtype
    channels = x.shape[1] if x.ndim > 1 else 0
    if dtype in (np.float32, np.float64) and x.size and (weight is None or weight.dtype is input.dtype) and (
            training or running_var.dtype is input.dtype):
        if training:
            mean, invstd = save_mean._array, save_invstd._array
        else:
            mean = running_mean._array
            invstd = (1 / np.sqrt(running_var._array.astype(np.float64) + eps)).astype(dtype)
        arrays = list(batch_norm_kernel_backward(dy, x, mean, invstd, None if weight is None else weight._array,
                                                 training, mask))
        if arrays[0] is not None:
            arrays[0] = np.ascontiguousarray(arrays[0], dtype)
        return several_outputs(arrays, NativeBatchNormBackwardBackward0,
                               (grad, input, weight, save_mean, save_invstd),
                               saved=(grad, input, weight, running_mean, running_var, save_mean, save_invstd),
                               eps=eps, train=bool(training))
    view = (1, channels) + (1,) * (x.ndim - 2)
    axes = (0,) + tuple(range(2, x.ndim))
    if training:
        mean, invstd = save_mean._array.reshape(view), save_invstd._array.reshape(view)
    else:
        mean = running_mean._array.reshape(view)
        invstd = (1 / np.sqrt(running_var._array.astype(np.float64) + eps)).astype(dtype).reshape(view)
    w = np.ones((), dtype) if weight is None else weight._array.reshape(view)
    centred = x - mean
    total, dot = dy.sum(axis=axes, keepdims=True), (centred * dy).sum(axis=axes, keepdims=True)
    n = x.size // max(channels, 1)
    arrays = [None, None, None]
    if mask[0]:
        if training:
            dx = (dy - total / n - centred * (dot * invstd * invstd / n)) * invstd * w
        else:
            dx = dy * invstd * w
        arrays[0] = np.ascontiguousarray(dx, dtype)
    if mask[1]:
        arrays[1] = (dot * invstd).astype(weight._array.dtype).reshape(weight.shape)
    if mask[2]:
        arrays[2] = total.astype(dtype).reshape(channels)
    return several_outputs(arrays, NativeBatchNormBackwardBackward0,
                           (grad, input, weight, save_mean, save_invstd),
                           saved=(grad, input, weight, running_mean, running_var, save_mean, save_invstd),
                           eps=eps, train=bool(training))


_SETTINGS_KEPT_AS["NativeBatchNormBackwardBackward0"] = {"eps": "eps", "train": "train"}


class NativeBatchNormBackwardBackward0(Node):
    """result = (grad_input, grad_weight, grad_bias) of batch_norm   ->
        grad_grad_out = batch_norm's grad_input for gg_input + gg_weight * x_hat + gg_bias; grad_input = d(gg . result)/d input, the batch's mean and invstd moving with it (in training); grad_weight = sum(grad_out * batch_norm's grad_input for gg_input, weight 1)

    (PyTorch's batchnorm_double_backward, with the saved mean and invstd.)"""

    _saved_names = ("grad_out", "input", "weight", "running_mean", "running_var", "save_mean", "save_invstd")

    def backward(self, gg_input, gg_weight, gg_bias):
        grad_out, input, weight, running_mean, running_var, save_mean, save_invstd = self.saved_tensors
        g_input, g_weight, gg_out = _batchnorm_double_backward(
            input, weight, gg_input, gg_weight, gg_bias, grad_out, running_mean, running_var, self.train, self.eps,
            save_mean, save_invstd)
        return gg_out, g_input, g_weight, None, None


def _sum_exclude_dim1(t, keepdim=True):
    """The sum over every dim but the channels' (dim 1): dim 0 first, then the last ones."""
    total = t.sum(0, keepdim)
    for dim in range(total.ndim - 1, 1 if keepdim else 0, -1):
        total = total.sum(dim, keepdim)
    return total


def _unsqueeze_dim1(src, target):
    """A per-channel vector shaped (1, C, 1, ...) against ``target``."""
    while src.ndim < target.ndim - 1:
        src = src.unsqueeze(1)
    if src.ndim == target.ndim - 1:
        src = src.unsqueeze(0)
    return src


def _expand_as_dim1(src, target):
    """A per-channel vector expanded to ``target``'s shape."""
    while src.ndim < target.ndim - 1:
        src = src.unsqueeze(1)
    return src.expand_as(target)


def _batchnorm_double_backward(input, gamma, ggI, ggG, ggB, gO, running_mean, running_var, training, eps,
                               save_mean, save_invstd):
    """(grad of input, grad of weight, grad of grad_output) from the gradients (ggI, ggG, ggB)
    reaching grad_input, grad_weight and grad_bias; M numbers share each channel's statistics."""
    affine = gamma is not None
    gamma_wide = _expand_as_dim1(gamma, input) if affine else _ones((), input)
    ggG_wide = _expand_as_dim1(ggG, input) if affine and ggG is not None else None
    ggB_wide = _expand_as_dim1(ggB, input) if affine and ggB is not None else None
    M = input.shape[0] * math.prod(input.shape[2:])
    mu = _unsqueeze_dim1(save_mean if training else running_mean, input)
    input_sub_mu = input - mu
    invstd = _unsqueeze_dim1(save_invstd if training else add_number(running_var, eps).pow(-0.5), input)
    invstd2, invstd3 = invstd.pow(2), invstd.pow(3)
    input_mu_invstd3 = input_sub_mu * invstd3
    gOinmu_sum = _sum_exclude_dim1(gO * input_sub_mu)
    gO_sum = _sum_exclude_dim1(gO)

    gI = None
    if ggI is not None and training:
        ggI_sum = _sum_exclude_dim1(ggI)
        ggIinmu_sum = _sum_exclude_dim1(ggI * input_sub_mu)
        # (in place where PyTorch works in place: the results' _version shows it)
        all_sub = (_div_(ggI_sum * gO_sum, M).sub_(_sum_exclude_dim1(gO * ggI))
                   .add_(_mul_(invstd2 * gOinmu_sum * ggIinmu_sum, 3.0 / M)))
        gI_0t = _div_(input_mu_invstd3 * all_sub, M)
        gI_1t = _div_(ggIinmu_sum * invstd3, M) * (div_by_number(gO_sum, M) - gO)
        gI_2t = _div_(gOinmu_sum * invstd3, M) * (div_by_number(ggI_sum, M) - ggI)
        gI = gamma_wide * gI_0t.add_(gI_1t).add_(gI_2t)
    if ggG_wide is not None:
        if training:
            t0 = gO * invstd
            t1 = _div_(invstd * gO_sum, -M)
            t2 = _div_(input_mu_invstd3 * _sum_exclude_dim1(gO * input_sub_mu), -M)
            term = ggG_wide * t0.add_(t1).add_(t2)
        else:
            term = ggG_wide * invstd * gO
        gI = term if gI is None else gI.add_(term)

    def first_grad_input(g, scale):
        """batch_norm's grad_input (training) for the incoming gradient g, times scale."""
        h0 = _div_(scale * invstd, M)
        h1 = (mul_by_number(g, M).sub_(_sum_exclude_dim1(g))
              .sub_(input_sub_mu.mul(invstd2) * _sum_exclude_dim1(g * input_sub_mu)))
        return h0 * h1

    gG = None
    if affine and ggI is not None:
        if training:
            gG = _sum_exclude_dim1(ggI * first_grad_input(gO, _ones((), invstd)), False)
        else:
            gG = _sum_exclude_dim1(ggI * gO * invstd, False)
    ggO = None
    if ggI is not None:
        ggO = first_grad_input(ggI, gamma_wide) if training else ggI * invstd * gamma_wide
    if ggG_wide is not None:
        term = ggG_wide * input_sub_mu * invstd
        ggO = term if ggO is None else ggO.add_(term)
    if ggB is not None:
        if ggB_wide is None and ggO is not None:
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                               "argument #1 'other'")
        ggO = ggB_wide if ggO is None else ggO.add_(ggB_wide)
    return gI, gG, ggO


# --- group_norm ----------------------------------------------------------------------------------

def group_norm_backward_recorded(dY, dmean, drstd, X, mean, rstd, gamma, N, C, HxW, group, mask):
    """(grad_input, grad_weight, grad_bias) of group_norm written with recorded operations (for
    create_graph=True, or when gradients reach the mean and rstd outputs), as PyTorch writes them:

        dX = rstd * w * dY + b * X + c,   with per group   ds = sum(dY * w * X), db = sum(dY * w),
        b = (db * mean - ds) * rstd**3 / n,  c = -b * mean - db * rstd / n

    plus, when both the mean and the rstd got a gradient, what they pass on to X (as
    ``var_mean``'s backward: dmean / n + dvar * 2 (X - mean(X)) / n, dvar = -rstd**3 / 2 * drstd).
    ``mean`` and ``rstd`` are the group_norm node's own outputs, so that a gradient of this
    gradient flows back through them."""
    G, D = group, C // group
    s = 1.0 / (D * HxW)
    X_t = X.reshape(N, G, D, HxW)
    mean_t, rstd_t = mean.reshape(N, G, 1, 1), rstd.reshape(N, G, 1, 1)
    dX = dgamma = dbeta = None
    if dY is not None:
        dY_t = dY.reshape(N, G, D, HxW)
        ds = (dY_t * X_t).sum(3).unsqueeze_(-1)
        db = dY_t.sum(3).unsqueeze_(-1)
    if mask[0]:
        gamma_t = gamma.reshape(1, G, D, 1) if gamma is not None else None
        rstd_cube = rstd_t * rstd_t * rstd_t
        dvar = mul_by_number(rstd_cube, -0.5) * drstd.view(N, G, 1, 1) if drstd is not None else None
        through_statistics = dmean is not None and drstd is not None
        if dY is not None:
            a = rstd_t * gamma_t if gamma is not None else rstd_t
            b = ((ds * gamma_t).sum(2) if gamma is not None else ds.sum(2)).unsqueeze_(-2)
            c = ((db * gamma_t).sum(2) if gamma is not None else db.sum(2)).unsqueeze_(-2)
            b = mul_by_number((c * mean_t - b) * rstd_cube, s)
            c = -b * mean_t - mul_by_number(c * rstd_t, s)
            dX = a * dY_t + b * X_t + c
            if through_statistics:
                dX += _var_mean_backward(dvar, dmean.view(N, G, 1, 1), X_t)     # (in place, as PyTorch)
            dX = dX.reshape_as(X)
        elif through_statistics:
            dX = _var_mean_backward(dvar, dmean.view(N, G, 1, 1), X_t).reshape_as(X)
    if mask[1] and dY is not None:
        dgamma = ((ds - db * mean_t) * rstd_t).sum(0).reshape_as(gamma)
    if mask[2] and dY is not None:
        dbeta = db.sum(0).reshape(C)
    return dX, dgamma, dbeta


def _var_mean_backward(dvar, dmean, X_t):
    """What gradients of a group's (biased) variance and mean pass on to its numbers X_t."""
    n = X_t.shape[2] * X_t.shape[3]
    through_var = mul_by_number(dvar, 2.0 / n) * (X_t - X_t.mean((2, 3), keepdim=True))
    return through_var + div_by_number(dmean.expand(X_t.shape), n)
