"""Convolutions: conv1d/2d/3d, conv_transpose1d/2d/3d and the ``convolution`` under them all.

A convolution slides a small kernel over the input and takes a dot product at every
position. The trick that makes it fast with numpy is *im2col*: copy every window the
kernel sees into a column of one big array, and the whole convolution becomes one
matrix product (the kernels as rows times the windows as columns).

    input (N, C_in, *spatial)  --im2col-->  windows (N, C_in * kernel_size, positions)
    weight (C_out, C_in, *kernel)  as a matrix (C_out, C_in * kernel_size)
    output = weight_matrix @ windows        (N, C_out, positions), reshaped to (N, C_out, *out)

The backward pass reads the same picture the other way round:

    grad_weight = grad @ windows.T          (summed over the batch)
    grad_input  = col2im(weight_matrix.T @ grad): each window's gradient added back
                  to the input positions it was copied from (positions seen by several
                  windows get the sum)

A convolution is *bilinear*: linear in the input for a fixed weight and linear in the
weight for a fixed input. So its gradients are convolutions too, and so are the
gradients of its gradients. Like PyTorch, minigrad records one node for the forward,
``ConvolutionBackward0``, and, under ``create_graph=True``, one node with three outputs
for the backward, ``ConvolutionBackwardBackward0``, whose own backward is made of ordinary
(recorded) convolutions, PyTorch's, so any order of derivative works.

A transposed convolution (``conv_transpose2d``) is the input-gradient of an ordinary one,
used as a forward pass: it spreads each input value over a kernel-sized patch.
"""
import functools
import math
import warnings

import numpy as np

from .._tensor import Tensor
from .._dtype import can_cast
from .._ops import result, several_outputs
from .._ops.reduction import _sum_array
from .._ops.pointwise import kernel_not_implemented
from .._ops.shape import cat
from ..autograd.graph import Node
from .._warnings import stacklevel_outside_minigrad
from ._padding import constant_pad_nd
from ._size_arguments import check_int_tuples, check_tensor, int_tuple_error
from ..autograd.kernel_writes import kernel_writes


# --- im2col and col2im: the one numpy helper pair everything below uses ----------------------------

def _window_slices(offset, stride, dilation, out_size):
    """Where kernel element ``offset`` lands in the padded input, for every output position."""
    return tuple(slice(o * d, o * d + s * (n - 1) + 1, s)
                 for o, d, s, n in zip(offset, dilation, stride, out_size))


def im2col(padded, kernel_size, stride, dilation, out_size):
    """numpy: every window of ``padded`` (N, C, *spatial) as an array (N, C, *kernel_size, *out_size).

    ``windows[n, c, i, j, y, x]`` is the input value kernel element (i, j) multiplies at
    output position (y, x). One strided slice per kernel element (a 5x5 kernel: 25 slices),
    rather than one per output position, keeps the Python loop short.
    """
    batch, channels = padded.shape[:2]
    windows = np.empty((batch, channels) + tuple(kernel_size) + tuple(out_size), dtype=padded.dtype)
    for offset in np.ndindex(*kernel_size):
        windows[(slice(None), slice(None)) + offset] = \
            padded[(slice(None), slice(None)) + _window_slices(offset, stride, dilation, out_size)]
    return windows


def col2im(windows, padded_shape, kernel_size, stride, dilation, out_size, window_order=False):
    """numpy: the reverse of ``im2col``: add every window back where it came from.

    An input position that several windows saw receives the sum of their values: exactly
    what the chain rule asks of a value that was used several times. The values are added
    kernel element after kernel element (PyTorch's col2im order); ``window_order`` adds them
    window after window instead, as PyTorch's average pooling does (the same sum, but floats
    round differently in another order): for one input position, a later window means an
    earlier kernel element, so the kernel elements go backwards.
    """
    padded = np.zeros(padded_shape, dtype=windows.dtype)
    offsets = list(np.ndindex(*kernel_size))
    for offset in (reversed(offsets) if window_order else offsets):
        padded[(slice(None), slice(None)) + _window_slices(offset, stride, dilation, out_size)] += \
            windows[(slice(None), slice(None)) + offset]
    return padded


def _output_size(input_size, kernel_size, stride, padding, dilation):
    """How many positions the kernel takes along each spatial dim."""
    return tuple((n + 2 * p - d * (k - 1) - 1) // s + 1
                 for n, k, s, p, d in zip(input_size, kernel_size, stride, padding, dilation))


def _padded(array, padding):
    return np.pad(array, ((0, 0), (0, 0)) + tuple((p, p) for p in padding))


def _unpadded(array, padding):
    return array[(slice(None), slice(None)) + tuple(slice(p, array.shape[2 + i] - p)
                                                    for i, p in enumerate(padding))]


# The three bilinear maps of an ordinary convolution y = conv(x, w), in numpy. With x of shape
# (N, C_in, *spatial), w of shape (C_out, C_in / groups, *kernel) and grad of y's shape:
#   conv_array(x, w)                  = y
#   input_grad_array(grad, w, x_size) = d<grad, y>/dx
#   weight_grad_array(grad, x, w_size) = d<grad, y>/dw
# Groups split the channels into independent convolutions: one batched matrix product each.

def conv_array(x, w, s):
    """numpy: the convolution of ``x`` with ``w`` (settings ``s``: stride, padding, dilation, groups)."""
    groups, kernel_size = s["groups"], w.shape[2:]
    out_size = _output_size(x.shape[2:], kernel_size, s["stride"], s["padding"], s["dilation"])
    windows = im2col(_padded(x, s["padding"]), kernel_size, s["stride"], s["dilation"], out_size)
    per_group = w.shape[1] * math.prod(kernel_size)                       # C_in/g * K
    windows = windows.reshape(x.shape[0], groups, per_group, math.prod(out_size))   # (N, g, C_in/g * K, P)
    kernels = w.reshape(groups, w.shape[0] // groups, per_group)          # (g, C_out/g, C_in/g * K)
    return (kernels @ windows).reshape((x.shape[0], w.shape[0]) + out_size)


def input_grad_array(grad, w, input_shape, s):
    """numpy: the gradient of conv(x, w) with respect to x (of ``input_shape``), for ``grad``."""
    groups, kernel_size, out_size = s["groups"], w.shape[2:], grad.shape[2:]
    kernels = w.reshape(groups, w.shape[0] // groups, w.shape[1] * math.prod(kernel_size))
    grads = grad.reshape(grad.shape[0], groups, w.shape[0] // groups, math.prod(out_size))   # (N, g, C_out/g, P)
    windows = np.swapaxes(kernels, -1, -2) @ grads                           # (N, g, C_in/g * K, P)
    windows = windows.reshape((grad.shape[0], input_shape[1]) + tuple(kernel_size) + tuple(out_size))
    padded_shape = tuple(input_shape[:2]) + tuple(n + 2 * p for n, p in zip(input_shape[2:], s["padding"]))
    return _unpadded(col2im(windows, padded_shape, kernel_size, s["stride"], s["dilation"], out_size),
                     s["padding"])


def weight_grad_array(grad, x, weight_shape, s):
    """numpy: the gradient of conv(x, w) with respect to w (of ``weight_shape``), for ``grad``."""
    groups, kernel_size, out_size = s["groups"], tuple(weight_shape[2:]), grad.shape[2:]
    windows = im2col(_padded(x, s["padding"]), kernel_size, s["stride"], s["dilation"], out_size)
    windows = windows.reshape(x.shape[0], groups, weight_shape[1] * math.prod(kernel_size), math.prod(out_size))
    grads = grad.reshape(grad.shape[0], groups, weight_shape[0] // groups, math.prod(out_size))
    return (grads @ np.swapaxes(windows, -1, -2)).sum(axis=0).reshape(weight_shape)


def _transposed_output_size(input_size, kernel_size, s):
    """Spatial size of a transposed convolution's output: the input size of the ordinary one."""
    return tuple((n - 1) * st - 2 * p + d * (k - 1) + op + 1 for n, k, st, p, d, op in zip(
        input_size, kernel_size, s["stride"], s["padding"], s["dilation"], s["output_padding"]))


# Forward and both gradients of ``convolution`` for either kind: a transposed convolution is
# the ordinary one's input-gradient, so the roles of the three maps above swap.

def _forward_array(x, w, s):
    if not s["transposed"]:
        return conv_array(x, w, s)
    out_shape = (x.shape[0], w.shape[1] * s["groups"]) + _transposed_output_size(x.shape[2:], w.shape[2:], s)
    return input_grad_array(x, w, out_shape, s)


def _input_grad(grad, w, x_shape, s):
    if not s["transposed"]:
        return input_grad_array(grad, w, x_shape, s)
    # the ordinary convolution of the output-shaped grad; an output_padding of a stride or more
    # (allowed when the dilation is larger) gives it windows beyond the input: they are cut off
    return conv_array(grad, w, s)[(slice(None), slice(None)) + tuple(slice(0, n) for n in x_shape[2:])]


def _weight_grad(grad, x, w_shape, s):
    # (transposed: x plays the ordinary convolution's grad, grad plays its input)
    return weight_grad_array(grad, x, w_shape, s) if not s["transposed"] else weight_grad_array(x, grad, w_shape, s)


def _added(terms):
    """The sum of a list of tensors (recorded, term by term, like ``a + b + c``)."""
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


def _bias_view(bias, ndim):
    """(C,) -> (1, C, 1, ...): one value per channel, broadcast over batch and positions."""
    return bias.reshape((1, -1) + (1,) * (ndim - 2))


# --- the recorded operations ------------------------------------------------------------------

_SETTINGS = ("stride", "padding", "dilation", "transposed", "output_padding", "groups")


class ConvolutionBackward0(Node):
    """result = convolution(input, weight) + bias   ->
        grad_input = conv_transpose(grad, weight); grad_weight = sum over positions of grad * windows(input); grad_bias = grad summed over all dims but the channels

    One node for every kind of convolution (1-d, 2-d, transposed, grouped), as in PyTorch;
    ``_saved_transposed`` and the other ``_saved_*`` settings tell them apart.
    """

    _saved_names = ("input", "weight")

    def backward(self, grad):
        input, weight = self.saved_tensors
        if not self.transposed and any(self.output_padding):
            # (the forward pass ignores it; PyTorch's backward refuses it: this happens to the
            # third derivative of a transposed convolution with output_padding)
            raise RuntimeError("output_padding is not supported for non-transposed convolutions; got: "
                               + " ".join(map(str, self.output_padding)))
        mask = tuple(self.should_compute_output(i) for i in range(3))
        return convolution_backward(grad, input, weight, self._settings(), mask)

    def _settings(self):
        return {name: self.__dict__[name] for name in _SETTINGS}

    def jvp(self, tangents, inputs, out):
        """result_t = convolution(input_t, weight) + convolution(input, weight_t) + bias_t (bilinear: one argument changes at a time)"""
        (x, w, _), s = inputs, self._settings()
        x_t, w_t, b_t = (None if getattr(t, "_stands_for_no_tangent", False) else t for t in tangents)
        terms = []
        if x_t is not None:
            terms.append(convolution(x_t, w, None, **s))
        if w_t is not None:
            terms.append(convolution(x, w_t, None, **s))
        if b_t is not None:
            terms.append(_bias_view(b_t, out.ndim).expand(tuple(out.shape)))
        return _added(terms)


class ConvolutionBackwardBackward0(Node):
    """result = (grad_input, grad_weight, grad_bias) of a convolution   ->
        grad_grad_output = conv(gg_input, weight) + conv(input, gg_weight) + gg_bias; grad_input = conv_transpose(grad_output, gg_weight); grad_weight = weight-gradient of conv for (grad_output, gg_input)

    A convolution is linear in each argument, so the gradient of its gradient is made of
    convolutions again: each term swaps one argument for the incoming ``gg_*`` (the last two
    terms below, ``_input_term`` and ``_weight_term``).
    """

    _saved_names = ("grad_output", "input", "weight")

    def backward(self, gg_input, gg_weight, gg_bias):
        grad, input, weight = self.saved_tensors
        s = {name: self.__dict__[name] for name in _SETTINGS}
        grad_grad = grad_input = grad_weight = None
        if self.should_compute_output(0):
            terms = []
            if gg_input is not None:
                terms.append(convolution(gg_input, weight, None, **s))
            if gg_weight is not None:
                terms.append(convolution(input, gg_weight, None, **s))
            if gg_bias is not None:
                terms.append(_bias_view(gg_bias, grad.ndim).expand(tuple(grad.shape)))
            if terms:
                grad_grad = _added(terms)
        if self.should_compute_output(1) and gg_weight is not None:
            grad_input = _input_term(grad, gg_weight, tuple(input.shape), s)
        if self.should_compute_output(2) and gg_input is not None:
            grad_weight = _weight_term(grad, gg_input, tuple(weight.shape), s)
        return grad_grad, grad_input, grad_weight


# The two other terms of the gradient's gradient, built (as PyTorch builds them) from ordinary
# recorded convolutions, so that a third derivative records PyTorch's nodes.

def _input_term(grad, gg_weight, input_shape, s):
    """d<grad_weight, gg_weight>/d input: the convolution of the other kind (a transposed one
    for an ordinary convolution), with the output_padding that gives back the input's size."""
    if s["transposed"]:
        term = convolution(grad, gg_weight, None, s["stride"], s["padding"], s["dilation"], False,
                           s["output_padding"], s["groups"])
        # (an output_padding of a stride or more gives windows beyond the input: cut off)
        for dim in range(2, term.ndim):
            if term.shape[dim] > input_shape[dim]:
                term = term.narrow(dim, 0, input_shape[dim])
        return term
    no_output_padding = dict(s, output_padding=(0,) * len(s["stride"]))
    spans = _transposed_output_size(grad.shape[2:], gg_weight.shape[2:], no_output_padding)
    output_padding = tuple(n - m for n, m in zip(input_shape[2:], spans))
    return convolution(grad, gg_weight, None, s["stride"], s["padding"], s["dilation"], True, output_padding,
                       s["groups"])


def _weight_term(grad, gg_input, weight_shape, s):
    """d<grad_input, gg_input>/d weight: the samples become the channels (transpose(0, 1)) so that
    one convolution adds up over the batch; stride and dilation swap roles. One convolution per
    group, concatenated; the result cut to the kernel's size where the windows reach further."""
    groups = s["groups"]
    swapped = dict(stride=s["dilation"], padding=s["padding"], dilation=s["stride"], transposed=False,
                   output_padding=(0,) * len(s["stride"]), groups=1)
    grad_t, gg_input_t = grad.transpose(0, 1), gg_input.transpose(0, 1)
    if s["transposed"]:
        image, kernels = grad_t, gg_input_t      # (grad has the ordinary convolution's input shape)
    else:
        image, kernels = gg_input_t, grad_t
    if groups == 1:
        weight_t = convolution(image, kernels, None, **swapped)
    else:
        image_size, kernel_size = image.shape[0] // groups, kernels.shape[0] // groups
        weight_t = cat([convolution(image.narrow(0, g * image_size, image_size),
                                    kernels.narrow(0, g * kernel_size, kernel_size), None, **swapped)
                        for g in range(groups)], 1)
    weight = weight_t.transpose(0, 1)
    for dim in range(2, weight.ndim):
        if weight.shape[dim] > weight_shape[dim]:
            weight = weight.narrow(dim, 0, weight_shape[dim])
    return weight


def convolution_backward(grad, input, weight, settings, output_mask):
    """The gradients (grad_input, grad_weight, grad_bias) of a convolution, those ``output_mask`` asks for.

    Recorded (under ``create_graph=True``) as one ConvolutionBackwardBackward0 with three
    outputs, as in PyTorch, so that they can be differentiated again.
    """
    g, x, w = grad._array, input._array, weight._array
    arrays = [
        _input_grad(g, w, x.shape, settings).astype(x.dtype, copy=False) if output_mask[0] else None,
        _weight_grad(g, x, w.shape, settings).astype(w.dtype, copy=False) if output_mask[1] else None,
        # (float64: PyTorch's slow kernel adds with its sum, in its order; float32's oneDNN differs)
        _sum_array(g, (0,) + tuple(range(2, g.ndim)), False, g.dtype) if output_mask[2] else None,
    ]
    shapes = [tuple(input.shape), tuple(weight.shape), (g.shape[1],)]
    return several_outputs(arrays, ConvolutionBackwardBackward0, (grad, input, weight), shapes,
                           x.dtype, saved=(grad, input, weight), contiguous=True, **settings)


def _shown_size(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _check_bias_type(input, bias):
    """PyTorch compares the bias's dtype with the input's before anything else about them
    (conv1d/2d/3d too, before the input's number of dims; the transposed ones after it)."""
    if bias is not None and isinstance(bias, Tensor) and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({_cpp_type(input)}) and bias type ({_cpp_type(bias)}) "
                           "should be the same")


def _check_convolution(input, weight, bias, s):
    """PyTorch's checks (and messages) before a convolution, in PyTorch's order."""
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if not s["transposed"]:
        _check_bias_type(input, bias)
    if any(p < 0 for p in s["padding"]):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in s["output_padding"]):
        raise RuntimeError("negative output_padding is not supported")
    if any(st <= 0 for st in s["stride"]):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in s["dilation"]):
        raise RuntimeError(f"dilation should be greater than zero, but got {list(s['dilation'])}")
    groups, sizes = s["groups"], tuple(weight.shape)
    if input.ndim != weight.ndim:
        raise RuntimeError(f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight "
                           f"{_shown_size(sizes)}, but got {input.ndim}-dimensional input of size "
                           f"{_shown_size(input.shape)} instead")
    if sizes[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, "
                           f"but got weight of size {_shown_size(sizes)} instead")
    if sizes[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                           f"but got weight of size [{_shown_size(sizes)}] instead")
    if not s["transposed"]:
        if input.shape[1] != sizes[1] * groups:
            raise RuntimeError(f"Given groups={groups}, weight of size {_shown_size(sizes)}, expected "
                               f"input{_shown_size(input.shape)} to have {sizes[1] * groups} channels, "
                               f"but got {input.shape[1]} channels instead")
        if bias is not None and (bias.ndim != 1 or bias.shape[0] != sizes[0]):
            raise RuntimeError(f"Given weight of size {_shown_size(sizes)}, expected bias to be 1-dimensional "
                               f"with {sizes[0]} elements, but got bias of size {_shown_size(bias.shape)} instead")
        padded = [n + 2 * p for n, p in zip(input.shape[2:], s["padding"])]
        kernel = [d * (k - 1) + 1 for k, d in zip(sizes[2:], s["dilation"])]
        if any(n < k for n, k in zip(padded, kernel)):
            raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
                               f"Kernel size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater "
                               "than actual input size")
    else:
        if input.shape[1] != sizes[0]:
            raise RuntimeError(f"Given transposed=1, weight of size {_shown_size(sizes)}, expected "
                               f"input{_shown_size(input.shape)} to have {sizes[0]} channels, "
                               f"but got {input.shape[1]} channels instead")
        if bias is not None and (bias.ndim != 1 or bias.shape[0] != sizes[1] * groups):
            raise RuntimeError(f"Given transposed=1, weight of size {_shown_size(sizes)}, expected bias to be "
                               f"1-dimensional with {sizes[1] * groups} elements, but got bias of size "
                               f"{_shown_size(bias.shape)} instead")
        out_size = _transposed_output_size(input.shape[2:], sizes[2:], s)
        if any(n < 1 for n in out_size):
            shown_in = list(input.shape[2:]) if len(out_size) > 1 else [1] + list(input.shape[2:])
            shown_out = list(out_size) if len(out_size) > 1 else [1] + list(out_size)
            raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, shown_in))}). Calculated "
                               f"output size per channel: ({' x '.join(map(str, shown_out))}). Output size is "
                               "too small")
        for name in ("output_padding",):
            for op, st, d in zip(s[name], s["stride"], s["dilation"]):
                if op >= st and op >= d:
                    raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                                       f"output_padding_height: {s[name][0]} output_padding_width: "
                                       f"{s[name][-1]} stride_height: {s['stride'][0]} stride_width: "
                                       f"{s['stride'][-1]} dilation_height: {s['dilation'][0]} "
                                       f"dilation_width: {s['dilation'][-1]}")
    if input.dtype is not weight.dtype:     # (after the shapes: the kernel's own check)
        if s["transposed"] and groups > 1 and input._array.dtype == np.float32:
            # (PyTorch's oneDNN path for this case says it its own way)
            raise RuntimeError(f"Input type (torch.{input.dtype.tensor_type_name}) and weight type "
                               f"(torch.{weight.dtype.tensor_type_name}) should be the same or input should "
                               "be a MKLDNN tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {input.dtype.tensor_type_name[:-6]} but found "
                           f"{weight.dtype.tensor_type_name[:-6]}")
    if s["transposed"] and bias is not None and not can_cast(bias.dtype, input.dtype):
        # (a transposed convolution adds its bias to the result in place: a float result takes
        # any float bias, rounded; an integer one none)
        raise RuntimeError(f"result type {bias.dtype.tensor_type_name[:-6]} can't be cast to the desired "
                           f"output type {input.dtype.tensor_type_name[:-6]}")


def _cpp_type(tensor):
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
            "int32": "int"}.get(tensor._array.dtype.name, tensor._array.dtype.name)


def _expanded(value, name, dims):
    """stride=2 -> (2, 2): one value per spatial dim, or PyTorch's message for the wrong count."""
    values = tuple(int(v) for v in value) if isinstance(value, (tuple, list)) else (int(value),)
    if len(values) == 1:
        return values * dims
    if len(values) != dims:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dims} values to "
                           f"match the convolution dimensions, but got {name}={list(values)}")
    return values


def _per_dim(value, dims):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * dims


def _refuse_dtypes_without_a_kernel(input, settings, dims):
    """PyTorch picks one of its CPU kernels for an integer or bool convolution by its settings:
    the transposed ones (2-d for 1 and 2 dims, 3-d) and the dilated one compute in float types
    and int64 only; the plain ones (2-d, and 3-d, which builds its columns first) in every dtype
    but bool."""
    dtype = input._array.dtype
    if dtype.kind not in "biu" or dtype == np.int64:
        return
    if settings["transposed"]:
        kernel = "slow_conv_transpose3d_out_cpu" if dims == 3 else "slow_conv_transpose2d_out_cpu"
    elif any(d != 1 for d in settings["dilation"]):
        kernel = "slow_conv_dilated<>"
    elif dtype.kind == "b":
        kernel = "compute_columns3d" if dims == 3 else "slow_conv2d_cpu"
    else:
        return
    raise kernel_not_implemented(kernel, input)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """``torch.convolution``: the one operation every conv function calls (batched input only).

    ``transposed=False`` is an ordinary convolution; ``transposed=True`` is its input-gradient
    used as a forward pass (conv_transpose). Recorded as ConvolutionBackward0.
    """
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    dims = weight.ndim - 2
    s = {"stride": _expanded(stride, "stride", dims), "padding": _expanded(padding, "padding", dims),
         "dilation": _expanded(dilation, "dilation", dims), "transposed": bool(transposed),
         "output_padding": _expanded(output_padding, "output_padding", dims), "groups": int(groups)}
    _check_convolution(input, weight, bias, s)
    _refuse_dtypes_without_a_kernel(input, s, dims)
    array = _forward_array(input._array, weight._array, s)
    if bias is not None:        # (a bias of another dtype: added in the wider one, then rounded)
        array = (array + _bias_view(bias._array, array.ndim)).astype(array.dtype, copy=False)
    array = np.ascontiguousarray(array.astype(input._array.dtype, copy=False))
    # (PyTorch shows a missing bias's sizes as (0,))
    bias_sizes = tuple(bias.shape) if bias is not None else (0,)
    out = result(array, ConvolutionBackward0, (input, weight, bias), saved=(input, weight),
                 bias_sym_sizes_opt=bias_sizes, **s)
    return kernel_writes("convolution", out, input, weight, bias, transposed=transposed)


# --- conv1d, conv2d: unbatched input, padding='same'/'valid' --------------------------------------

_SAME_EVEN_KERNEL_WARNING = ("Using padding='same' with even kernel lengths and odd dilation may require a "
                             "zero-padded copy of the input be created")
# (PyTorch's text goes on " (Triggered internally at <its C++ file>:<line>.)", a place in its own
# sources that says nothing about the learner's program, so minigrad leaves that out)


def _same_padding(input, weight, stride, dilation):
    """padding='same': the padding that keeps the output the input's size.

    A kernel spanning an even number of positions needs one more zero on one side than on
    the other; a convolution pads both sides alike, so PyTorch pads the input itself first
    (ConstantPadNdBackward0, with a warning) and the convolution does the symmetric rest.
    """
    dims = weight.ndim - 2
    if any(st != 1 for st in _expanded(stride, "stride", dims)):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    dilation = _expanded(dilation, "dilation", dims)
    totals = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    left = [t // 2 for t in totals]
    extra = [t - 2 * lo for t, lo in zip(totals, left)]
    if any(extra):
        warnings.warn(_SAME_EVEN_KERNEL_WARNING, UserWarning, stacklevel=stacklevel_outside_minigrad())
        pad = []
        for e in reversed(extra):       # F.pad's order: the last dim first, (left, right) each
            pad += [0, e]
        input = constant_pad_nd(input, pad)
    return input, tuple(left)


_CONV_SIGNATURES = (
    " * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, tuple of ints padding = 0, "
    "tuple of ints dilation = 1, int groups = 1)\n"
    " * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, str padding = \"valid\", "
    "tuple of ints dilation = 1, int groups = 1)\n")
_CONV_PARAMETERS = ("input", "weight", "bias", "stride", "padding", "dilation", "groups")


def _conv_arguments_checked(function):
    """conv1d/conv2d refusing arguments of the wrong type as PyTorch's argument parser does:
    an element of a size tuple that is not an int is named; anything else matches neither of
    its two signatures (padding as numbers, or as a string), and both are listed."""
    name = function.__name__

    @functools.wraps(function)
    def with_checked_arguments(*args, **kwargs):
        given = dict(zip(_CONV_PARAMETERS, args), **kwargs)
        fits = (isinstance(given.get("input"), Tensor) and isinstance(given.get("weight"), Tensor)
                and isinstance(given.get("bias"), (Tensor, type(None)))
                and int_tuple_error(name, "groups", given.get("groups", 1), allow_int=True) is None
                and not isinstance(given.get("groups", 1), (tuple, list)))
        for argument in ("stride", "padding", "dilation"):
            value = given.get(argument, 1)
            if argument == "padding" and isinstance(value, str):
                continue
            if isinstance(value, (tuple, list)) and value and int_tuple_error(name, argument, value[:1]) is None:
                error = int_tuple_error(name, argument, value)
                if error is not None:
                    raise error          # (a later element: PyTorch names it)
            fits = fits and int_tuple_error(name, argument, value) is None
        if not fits:
            from .._python_arg_parser import pytorch_signatures
            signatures = pytorch_signatures(name)
            if signatures is not None:          # (PyTorch's parser: its marks of the wrong types)
                signatures.parse(args, kwargs)
            got = [type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()]
            raise TypeError(f"{name}() received an invalid combination of arguments - got ({', '.join(got)}), "
                            f"but expected one of:\n{_CONV_SIGNATURES}")
        return function(*args, **kwargs)

    return with_checked_arguments


def _conv(name, dims, input, weight, bias, stride, padding, dilation, groups):
    """conv1d/conv2d: batch an unbatched input, turn 'same'/'valid' into numbers, convolve."""
    _check_bias_type(input, bias)
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
                           f"input of size: {_shown_size(input.shape)}")
    unbatched = input.ndim == dims + 1
    if unbatched:
        input = input.unsqueeze(0)
    # a single number stands for one per spatial dim of *this* function (conv2d: two), before
    # the convolution compares their count with the weight's dims
    stride, dilation = _per_dim(stride, dims), _per_dim(dilation, dims)
    padding = padding if isinstance(padding, str) else _per_dim(padding, dims)
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            input, padding = _same_padding(input, weight, stride, dilation)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    out = convolution(input, weight, bias, stride, padding, dilation, False, 0, groups)
    return out.squeeze(0) if unbatched else out


@_conv_arguments_checked
def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """A 1-d convolution: ``input`` (N, C_in, L) or (C_in, L), ``weight`` (C_out, C_in / groups, k).

    ``padding`` is a number, or ``'valid'`` (none) or ``'same'`` (output as long as the input).
    Recorded as ConvolutionBackward0.
    """
    return _conv("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


@_conv_arguments_checked
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """A 2-d convolution: ``input`` (N, C_in, H, W) or (C_in, H, W), ``weight`` (C_out, C_in / groups, kH, kW).

    Each output channel is the sum over the input channels of each channel convolved with
    its own kernel, plus the bias. ``padding``: numbers, ``'valid'`` or ``'same'``.
    Recorded as ConvolutionBackward0.
    """
    return _conv("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


@_conv_arguments_checked
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """A 3-d convolution (videos, volumes): ``input`` (N, C_in, D, H, W) or (C_in, D, H, W),
    ``weight`` (C_out, C_in / groups, kD, kH, kW). The same im2col, with one more spatial dim."""
    return _conv("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)


def _conv_transpose(name, dims, input, weight, bias, stride, padding, output_padding, groups, dilation):
    check_tensor(name, "input", input, 1)
    check_tensor(name, "weight", weight, 2)
    check_int_tuples(name, [(argument, value, None) for argument, value in (
        ("stride", stride), ("padding", padding), ("output_padding", output_padding), ("dilation", dilation))])
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
                           f"input of size: {_shown_size(input.shape)}")
    unbatched = input.ndim == dims + 1
    if unbatched:
        input = input.unsqueeze(0)
    stride, padding, dilation = _per_dim(stride, dims), _per_dim(padding, dims), _per_dim(dilation, dims)
    output_padding = _per_dim(output_padding, dims)
    out = convolution(input, weight, bias, stride, padding, dilation, True, output_padding, groups)
    return out.squeeze(0) if unbatched else out


def _groups_and_bias_parsed(function):
    """``function`` (a conv_transpose), whose unusual ``groups`` or ``bias`` PyTorch's parser
    refuses with its message, naming a position only for an argument given by position."""
    name = function.__name__

    @functools.wraps(function)
    def with_parsed_arguments(*args, **kwargs):
        given = dict(zip(("input", "weight", "bias", "stride", "padding", "output_padding", "groups"), args),
                     **kwargs)
        if not (type(given.get("groups", 1)) is int and isinstance(given.get("bias"), (Tensor, type(None)))):
            from .._python_arg_parser import pytorch_signatures
            signatures = pytorch_signatures(name)
            if signatures is not None:
                signatures.parse(args, kwargs)
        return function(*args, **kwargs)
    return with_parsed_arguments


@_groups_and_bias_parsed
def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The gradient of conv1d with respect to its input, used as a layer ("deconvolution").

    ``weight`` is (C_in, C_out / groups, k): each input position spreads over k output positions.
    """
    return _conv_transpose("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding,
                           groups, dilation)


@_groups_and_bias_parsed
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The gradient of conv2d with respect to its input, used as a layer (upsampling by ``stride``).

    ``weight`` is (C_in, C_out / groups, kH, kW).
    """
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding,
                           groups, dilation)

@_groups_and_bias_parsed
def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The gradient of conv3d with respect to its input, used as a layer.

    ``weight`` is (C_in, C_out / groups, kD, kH, kW)."""
    return _conv_transpose("conv_transpose3d", 3, input, weight, bias, stride, padding, output_padding,
                           groups, dilation)
