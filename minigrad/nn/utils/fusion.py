"""Folding an eval-mode BatchNorm into the layer before it (PyTorch: torch/nn/utils/fusion.py).

In eval mode BatchNorm is an affine map per channel, y = (x - mean) / sqrt(var + eps) * w + b,
so a convolution (or Linear) followed by it equals one convolution with

    weight' = weight * (w / sqrt(var + eps))           (per output channel)
    bias'   = (bias - mean) * (w / sqrt(var + eps)) + b

which saves a pass over the activations at inference time.
"""
import copy

from ..parameter import Parameter


def fuse_conv_bn_eval(conv, bn, transpose=False):
    """A copy of ``conv`` with the eval-mode BatchNorm ``bn`` folded into its weight and bias."""
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_conv = copy.deepcopy(conv)
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused_conv.weight, fused_conv.bias = fuse_conv_bn_weights(
        fused_conv.weight, fused_conv.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight,
        bn.bias, transpose)
    return fused_conv


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    """The folded (weight, bias) as Parameters (see the module docstring); ``transpose``: the
    output channels are dim 1 of a transposed convolution's weight."""
    from ... import zeros_like, ones_like, rsqrt
    weight_dtype = conv_w.dtype
    bias_dtype = conv_b.dtype if conv_b is not None else weight_dtype
    conv_b = zeros_like(bn_rm) if conv_b is None else conv_b
    bn_w = ones_like(bn_rm) if bn_w is None else bn_w
    bn_b = zeros_like(bn_rm) if bn_b is None else bn_b
    bn_var_rsqrt = rsqrt(bn_rv + bn_eps)
    shape = ([1, -1] if transpose else [-1, 1]) + [1] * (len(conv_w.shape) - 2)
    fused_w = (conv_w * (bn_w * bn_var_rsqrt).reshape(shape)).to(dtype=weight_dtype)
    fused_b = ((conv_b - bn_rm) * bn_var_rsqrt * bn_w + bn_b).to(dtype=bias_dtype)
    return Parameter(fused_w, conv_w.requires_grad), Parameter(fused_b, conv_b.requires_grad)


def fuse_linear_bn_eval(linear, bn):
    """A copy of ``linear`` with the eval-mode BatchNorm ``bn`` folded into its weight and bias."""
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_linear = copy.deepcopy(linear)
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
            f"linear.out_features={linear.out_features} and bn.num_features={bn.num_features}")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused_linear.weight, fused_linear.bias = fuse_linear_bn_weights(
        fused_linear.weight, fused_linear.bias, bn.running_mean, bn.running_var, bn.eps,
        bn.weight, bn.bias)
    return fused_linear


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """The folded (weight, bias) of a Linear layer as Parameters."""
    from ... import zeros_like, rsqrt
    weight_dtype = linear_w.dtype
    bias_dtype = linear_b.dtype if linear_b is not None else weight_dtype
    linear_b = zeros_like(bn_rm) if linear_b is None else linear_b
    bn_scale = bn_w * rsqrt(bn_rv + bn_eps)
    fused_w = linear_w * bn_scale.unsqueeze(-1).to(dtype=weight_dtype)
    fused_b = ((linear_b - bn_rm) * bn_scale + bn_b).to(dtype=bias_dtype)
    return Parameter(fused_w, linear_w.requires_grad), Parameter(fused_b, linear_b.requires_grad)
