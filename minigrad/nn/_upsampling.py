"""F.interpolate: resizing images (and 1-d and 3-d signals) by PyTorch's upsampling operations.

Every output position looks up one or a few input positions in each spatial dim and mixes
them with weights:

    nearest        the input position floor(out * in_size / out_size)            1 tap
    nearest-exact  the one whose centre is closest: floor((out + 0.5) * scale)    1 tap
    linear (bilinear, trilinear)  the two neighbours of the source position,
                   weighted by closeness                                          2 taps
    bicubic        four neighbours with Keys' cubic weights (a = -0.75)           4 taps
    area           the average over each output cell (adaptive average pooling)

With ``antialias=True`` (bilinear, bicubic and lanczos, on 4-d input) the filter widens with the
downscale factor so that every input is averaged in: see _upsampling_aa.py.

The source position of output ``o`` is ``(o + 0.5) * in_size / out_size - 0.5`` (the
centres of the cells line up), or ``o * (in_size - 1) / (out_size - 1)`` with
``align_corners=True`` (the corner pixels line up). A ``scale_factor`` replaces
in_size / out_size by 1 / scale_factor unless ``recompute_scale_factor=True``.

Each operation is one node (UpsampleBilinear2DBackward0, ...). Resizing is linear in the
input, so its gradient sends each output's gradient back to the taps it came from, with the
same weights; that gradient is itself recorded as one node whose own gradient is the
resizing again.
"""
import math

import numpy as np

from ..autograd.graph import Node, _SETTINGS_KEPT_AS
from .._ops import result
from .._fused_multiply_add import fma as _fma
from .._memory_format import channels_last, channels_last_3d, copy_in_format, is_in_format, row_major
from .._tensor import Tensor
from . import _upsampling_aa

_LINEAR_MODES = ("linear", "bilinear", "bicubic", "trilinear", "lanczos")
_ALL_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
_NODE_NAMES = {"nearest": "UpsampleNearest{}DBackward0", "nearest-exact": "UpsampleNearestExact{}DBackward0",
               "linear": "UpsampleLinear1DBackward0", "bilinear": "UpsampleBilinear2DBackward0",
               "bicubic": "UpsampleBicubic2DBackward0", "trilinear": "UpsampleTrilinear3DBackward0",
               # antialias=True
               "bilinear-aa": "UpsampleBilinear2DAaBackward0", "bicubic-aa": "UpsampleBicubic2DAaBackward0",
               "lanczos-aa": "UpsampleLanczos2DAaBackward0"}


# --- where each output position reads, and with which weights ----------------------------------

def _scale(in_size, out_size, scale_factor, dtype):
    """in_size / out_size, or 1 / scale_factor when one was given (PyTorch's
    compute_scales_value), in ``dtype``."""
    if scale_factor is not None and scale_factor > 0:
        return dtype(1.0 / scale_factor)
    return dtype(in_size) / dtype(out_size)


def _nearest_taps(in_size, out_size, scale_factor, exact):
    """The one input position each output reads: floor(o * scale) (or of o + 0.5 for
    nearest-exact), worked out in float32 as PyTorch does, and kept inside the input."""
    out = np.arange(out_size)
    if not exact and out_size == in_size:
        return [(out, None)]
    if not exact and out_size == 2 * in_size:
        return [(out >> 1, None)]
    scale = _scale(in_size, out_size, scale_factor, np.float32)
    position = out.astype(np.float32) + np.float32(0.5) if exact else out.astype(np.float32)
    index = np.floor((position * scale).astype(np.float32)).astype(np.int64)
    return [(np.minimum(index, in_size - 1), None)]


def _source_positions(in_size, out_size, scale_factor, align_corners, dtype, cubic, fused=True):
    """Where each output position falls in the input (a fractional position), in ``dtype``."""
    out = np.arange(out_size).astype(dtype)
    if align_corners:
        scale = dtype(in_size - 1) / dtype(out_size - 1) if out_size > 1 else dtype(0)
        return (scale * out).astype(dtype)
    scale = _scale(in_size, out_size, scale_factor, dtype)
    # (o + 0.5) * scale - 0.5, the multiply and subtract fused as PyTorch's compiled code does
    # (except in bicubic's gradient)
    halves = (out + dtype(0.5)).astype(dtype)
    positions = _fma(np.full(out_size, scale, dtype), halves, np.full(out_size, -0.5, dtype)) \
        if fused else ((scale * halves).astype(dtype) - dtype(0.5)).astype(dtype)
    return positions if cubic else np.maximum(positions, dtype(0))


def _linear_taps(in_size, out_size, scale_factor, align_corners, dtype):
    """The two neighbours of each source position and their weights (1 - t, t)."""
    out = np.arange(out_size)
    if out_size == in_size:
        return [(out, np.ones(out_size, dtype)), (out, np.zeros(out_size, dtype))]
    real = _source_positions(in_size, out_size, scale_factor, align_corners, dtype, cubic=False)
    index0 = np.minimum(np.floor(real).astype(np.int64), in_size - 1)
    weight1 = np.clip(real - index0.astype(dtype), dtype(0), dtype(1)).astype(dtype)
    index1 = index0 + (index0 < in_size - 1)
    return [(index0, (dtype(1) - weight1).astype(dtype)), (index1, weight1)]


def _keys_cubic_inline(x, near):
    """Keys' cubic convolution for a = -0.75 as PyTorch's compiled bicubic kernel rounds it
    (the compiler fuses some of the multiply-adds and not others; found by experiment):
        |x| <= 1:  fma(a + 2, x, -(a + 3)) * x * x + 1
        1 < |x| < 2:  fma(fma(a, x, -5a), x, 8a) * x - 4a"""
    dtype = x.dtype.type
    a = dtype(-0.75)

    def fma(p, q, r):
        return _fma(*np.broadcast_arrays(np.asarray(p, dtype), np.asarray(q, dtype),
                                         np.asarray(r, dtype)))

    if near:
        inner = fma(a + 2, x, -(a + 3))
        return (((inner * x).astype(dtype) * x).astype(dtype) + dtype(1)).astype(dtype)
    inner = fma(fma(a, x, -5 * a), x, 8 * a)
    return ((inner * x).astype(dtype) - 4 * a).astype(dtype)


def _cubic_taps(in_size, out_size, scale_factor, align_corners, dtype):
    """The four neighbours (clamped to the input) of each source position, with Keys' cubic
    convolution weights for a = -0.75, as PyTorch's bicubic: the fraction t of the position
    (kept in [0, 1]) gives weights k(t + 1), k(t), k(1 - t), k((1 - t) + 1)."""
    real = _source_positions(in_size, out_size, scale_factor, align_corners, dtype, cubic=True)
    # (C's floorf: the position is rounded to float first, even in float64)
    index = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), in_size - 1)
    t = np.clip((real - index.astype(dtype)).astype(dtype), dtype(0), dtype(1))
    rest = (dtype(1) - t).astype(dtype)
    weights = [_keys_cubic_inline((t + dtype(1)).astype(dtype), near=False),
               _keys_cubic_inline(t, near=True), _keys_cubic_inline(rest, near=True),
               _keys_cubic_inline((rest + dtype(1)).astype(dtype), near=False)]
    return [(np.clip(index + offset, 0, in_size - 1), w)
            for offset, w in zip((-1, 0, 1, 2), weights)]


def _cubic_gradient_taps(in_size, out_size, scale_factor, align_corners, dtype):
    """The taps of bicubic's gradient, whose loop PyTorch compiles apart from the forward one:
    there the weights take one rounding per step (no fused multiply-adds) and the fraction t
    is not clamped."""
    real = _source_positions(in_size, out_size, scale_factor, align_corners, dtype, cubic=True,
                             fused=False)
    index = np.floor(real.astype(np.float32)).astype(np.int64)
    t = (real - index.astype(dtype)).astype(dtype)
    a = dtype(-0.75)

    def near(x):          # |x| <= 1
        return (((((a + 2) * x).astype(dtype) - (a + 3)) * x).astype(dtype) * x + dtype(1)).astype(dtype)

    def far(x):           # 1 < |x| < 2
        inner = (((a * x).astype(dtype) - 5 * a) * x).astype(dtype) + 8 * a
        return ((inner * x).astype(dtype) - 4 * a).astype(dtype)

    rest = (dtype(1) - t).astype(dtype)
    weights = [far((t + dtype(1)).astype(dtype)), near(t), near(rest), far((rest + dtype(1)).astype(dtype))]
    return [(np.clip(index + offset, 0, in_size - 1), w.astype(dtype))
            for offset, w in zip((-1, 0, 1, 2), weights)]


def _taps(mode, in_size, out_size, scale_factor, align_corners, dtype, for_backward=False):
    if mode in ("nearest", "nearest-exact"):
        return _nearest_taps(in_size, out_size, scale_factor, exact=mode == "nearest-exact")
    if mode == "bicubic":
        taps = _cubic_gradient_taps if for_backward else _cubic_taps
        return taps(in_size, out_size, scale_factor, align_corners, dtype)
    return _linear_taps(in_size, out_size, scale_factor, align_corners, dtype)


def _weight_grid(weights, ndim):
    """The product of one weight array per dim, as a grid over the output's spatial dims."""
    grid = None
    for d, w in enumerate(weights):
        shaped = w.reshape((1,) * d + (-1,) + (1,) * (ndim - d - 1))
        grid = shaped if grid is None else (grid * shaped).astype(w.dtype)
    return grid


def _resize(array, taps_per_dim, mode, channels_last=False):
    """The resized array, in the order of PyTorch's CPU kernels:

    - nearest: a lookup;
    - bilinear to a small output (height + width <= 128), or bilinear and trilinear of a
      channels-last input of 4 or more channels: PyTorch's channels-last loop, which
      adds the four products x00 w00 + x01 w01 + x10 w10 + x11 w11 (w00 = h0 * w0, ...), the
      first two with one fused multiply-add and then one more for each (the channels it
      takes 8 at a time, 4 in float64, in the reverse order: see below);
    - otherwise one dim at a time, the last dim first (PyTorch's generic loop): x0 w0 + x1 w1
      with x1 w1 rounded and x0 w0 fused to it, then (bicubic's four taps) one fused
      multiply-add for each of the others."""
    lead = (slice(None),) * 2
    if taps_per_dim[0][0][1] is None:            # nearest: a plain lookup
        return array[lead + np.ix_(*[index for (index, _), in taps_per_dim])]
    out_spatial = tuple(len(taps[0][0]) for taps in taps_per_dim)
    if mode in ("bilinear", "trilinear") and channels_last and array.shape[1] > 3 or \
            mode == "bilinear" and sum(out_spatial) <= 128:
        parts = [(picked, np.broadcast_to(_weight_grid([w for _, w in choice], len(choice)), picked.shape))
                 for choice in _product(taps_per_dim)
                 for picked in [array[lead + np.ix_(*[index for index, _ in choice])]]]
        # the channels that fill whole vector registers (8 float32 or 4 float64 at a time) take
        # x0 w0 + (x1 w1 + (... + (x6 w6 + x7 w7))), the others the plain loop's order
        (x0, w0), (x1, w1) = parts[:2]
        one_by_one = _fma(x0, w0, (x1 * w1).astype(x1.dtype))
        for x, w in parts[2:]:
            one_by_one = _fma(x, w, one_by_one)
        (x0, w0), (x1, w1) = parts[-2:]
        vectorised = _fma(x1, w1, (x0 * w0).astype(x0.dtype))
        for x, w in parts[-3::-1]:
            vectorised = _fma(x, w, vectorised)
        channels = array.shape[1]
        whole = channels - channels % (8 if array.dtype == np.float32 else 4)
        return np.concatenate([vectorised[:, :whole], one_by_one[:, whole:]], axis=1)
    for axis in range(array.ndim - 1, 1, -1):
        taps = taps_per_dim[axis - 2]
        shape = [1] * array.ndim
        shape[axis] = -1
        parts = [(np.take(array, index, axis=axis), weight.reshape(shape)) for index, weight in taps]
        (a0, w0), (a1, w1) = parts[:2]
        array = _fma(a0, np.broadcast_to(w0, a0.shape), (a1 * w1).astype(a1.dtype))
        for values, weight in parts[2:]:
            array = _fma(values, np.broadcast_to(weight, values.shape), array)
    return array


def _product(taps_per_dim):
    """Every choice of one tap per dim, the last dim varying fastest."""
    choices = [()]
    for taps in taps_per_dim:
        choices = [choice + (tap,) for choice in choices for tap in taps]
    return choices


def _resize_backward(grad, input_shape, taps_per_dim, cubic=False):
    """The gradient of _resize: each output's gradient, times each tap's weight, added back
    where the tap read.

    PyTorch walks the outputs in order and adds each product to its place with one fused
    multiply-add (bicubic: the width taps outside the height taps, each product rounded, then
    added). minigrad lists those additions in the same order, then does them in rounds:
    round k makes the k-th addition of every place at once (all images and channels too), so
    each place still receives its additions in PyTorch's order."""
    out = np.zeros(input_shape, dtype=grad.dtype)
    flat_out = out.reshape(out.shape[:2] + (math.prod(out.shape[2:]),))    # (sizes spelled out:
    flat_grad = grad.reshape(grad.shape[:2] + (math.prod(grad.shape[2:]),))   # a batch may be empty)
    spatial_out = grad.shape[2:]
    ndim = len(taps_per_dim)
    places, weights, used = [], [], []
    # (bicubic's gradient walks the width taps outside the height taps)
    choices = [c[::-1] for c in _product(taps_per_dim[::-1])] if cubic else _product(taps_per_dim)
    for choice in choices:
        index = np.ix_(*[tap[0] for tap in choice])
        places.append(np.ravel_multi_index(tuple(np.broadcast_to(i, spatial_out) for i in index),
                                           input_shape[2:]).reshape(-1))
        if choice[0][1] is None:
            weight = None
        elif cubic:            # gradient * weight_h, then times weight_w: two weights kept apart
            weight = np.stack([np.broadcast_to(_weight_grid([tap[1] if d == k else np.ones_like(tap[1])
                                                             for d, tap in enumerate(choice)], ndim),
                                               spatial_out).reshape(-1) for k in range(ndim)], axis=-1)
        else:
            weight = np.broadcast_to(_weight_grid([tap[1] for tap in choice], ndim), spatial_out).reshape(-1)
        weights.append(weight)
        # (antialiased taps say whether this output reads that far: a third entry, per output)
        uses = np.ones(spatial_out, bool)
        for d, tap in enumerate(choice if len(choice[0]) > 2 else ()):
            uses = uses & tap[2].reshape((1,) * d + (-1,) + (1,) * (ndim - d - 1))
        used.append(uses.reshape(-1))
    # the additions in PyTorch's order: output position by output position, tap after tap
    kept = np.stack(used, axis=1).reshape(-1)
    place = np.stack(places, axis=1).reshape(-1)[kept]
    source = np.repeat(np.arange(flat_grad.shape[-1]), len(places))[kept]
    weight = None if weights[0] is None else \
        np.stack(weights, axis=1).reshape((-1,) + weights[0].shape[1:])[kept]
    order = np.argsort(place, kind="stable")
    first = np.searchsorted(place[order], place[order], side="left")
    turn = np.empty_like(order)
    turn[order] = np.arange(len(order)) - first       # how many earlier additions share the place
    for k in range(int(turn.max(initial=-1)) + 1):
        now = turn == k
        targets, values = place[now], flat_grad[..., source[now]]
        if weight is None:                             # nearest: plain additions
            flat_out[..., targets] += values
        elif cubic:            # ((gradient * weight_h) * weight_w), then added: three roundings
            dtype = values.dtype
            product = ((values * weight[now, 0]).astype(dtype) * weight[now, 1]).astype(dtype)
            flat_out[..., targets] = (flat_out[..., targets] + product).astype(dtype)
        else:
            flat_out[..., targets] = _fma(values, np.broadcast_to(weight[now], values.shape),
                                          flat_out[..., targets])
    return out


def _suggested_layout(array):
    """channels_last (or channels_last_3d) when ``array`` is laid out so, else None: PyTorch's
    resizings write their result in the layout their input suggests."""
    for fmt in (channels_last, channels_last_3d):
        if array.ndim == fmt.rank and not array.flags.c_contiguous and is_in_format(array, fmt):
            return fmt
    return None


def _laid_out(values, layout):
    if layout is not None:
        return copy_in_format(np.ascontiguousarray(values), layout)
    # a lookup's steps can be odd (and numpy's for size-1 dims are its own): PyTorch's row-major
    return row_major(np.ascontiguousarray(values))


# --- the nodes --------------------------------------------------------------------------------

def _shown_settings(mode, ndim, of_backward):
    """What grad_fn._saved_<name> shows for this node (graph.py's _SETTINGS_KEPT_AS): the
    output size, one scale per dim (None when a size was given), align_corners for the
    interpolating modes, and the input's sizes for the forward node."""
    names = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}[ndim]
    shown = {"output_size": "output_size"}
    for position, name in enumerate(names):
        shown[name] = lambda settings, position=position: (
            None if settings["scale_factors"] is None else float(settings["scale_factors"][position]))
    if mode in _LINEAR_MODES:
        shown["align_corners"] = "align_corners"
    if not of_backward:
        shown["self_sym_sizes"] = "input_shape"
    return shown


class _UpsampleBackward(Node):
    """result = upsample(self)   ->   grad_self = upsample_backward(grad): each output's gradient,
    times the weight it was read with, added back where it was read"""

    def backward(self, grad):
        return (upsample_backward(grad, self.input_shape, self.mode, self.output_size,
                                  self.scale_factors, self.align_corners, self.antialias),)

    def jvp(self, tangents, inputs, out):
        """result_t = upsample(self_t)"""
        return _upsample(tangents[0], self.mode, self.output_size, self.scale_factors,
                         self.align_corners, self.antialias)


class _UpsampleBackwardBackward(Node):
    """result = upsample_backward(grad_output)   ->   grad_grad_output = upsample(grad): the
    resizing again (the gradient of a linear map's transpose is the map)"""

    def backward(self, grad):
        return (_upsample(grad, self.mode, self.output_size, self.scale_factors,
                          self.align_corners, self.antialias),)

    def jvp(self, tangents, inputs, out):
        """result_t = upsample_backward(grad_output_t)"""
        return upsample_backward(tangents[0], self.input_shape, self.mode, self.output_size,
                                 self.scale_factors, self.align_corners, self.antialias)


_NODE_CLASSES = {}


def _node_class(mode, ndim, backward_of_backward=False, antialias=False):
    """The node class PyTorch names for this mode and number of spatial dims."""
    name = _NODE_NAMES[mode + "-aa" if antialias else mode].format(ndim)
    if backward_of_backward:
        name = name[:-len("Backward0")] + "BackwardBackward0"
    if name not in _NODE_CLASSES:
        _SETTINGS_KEPT_AS[name] = _shown_settings(mode, ndim, backward_of_backward)
        base = _UpsampleBackwardBackward if backward_of_backward else _UpsampleBackward
        _NODE_CLASSES[name] = type(name, (base,), {"__doc__": base.__doc__, "_saved_names": ()})
    return _NODE_CLASSES[name]


def _all_taps(shape, mode, output_size, scale_factors, align_corners, dtype, antialias=False,
              for_backward=False):
    if antialias:
        return _upsampling_aa.backward_taps(shape, mode, output_size, scale_factors, align_corners,
                                            dtype.type)
    scales = scale_factors or (None,) * len(output_size)
    return [_taps(mode, in_size, out_size, scale, align_corners, dtype.type, for_backward)
            for in_size, out_size, scale in zip(shape[2:], output_size, scales)]


def _upsample(input, mode, output_size, scale_factors, align_corners, antialias=False):
    """The resizing itself, recorded as one node."""
    array = input._array
    layout = _suggested_layout(array)
    if antialias:
        values = _upsampling_aa.resize(array, mode, output_size, scale_factors, align_corners)
    else:
        taps = _all_taps(array.shape, mode, output_size, scale_factors, align_corners, array.dtype)
        values = _resize(array, taps, mode, channels_last=layout is not None)
    values = _laid_out(values.astype(array.dtype, copy=False), layout)
    return result(values, _node_class(mode, len(output_size), False, antialias),
                  (input,), mode=mode, output_size=tuple(output_size), scale_factors=scale_factors,
                  align_corners=align_corners, antialias=antialias, input_shape=array.shape)


def upsample_backward(grad, input_shape, mode, output_size, scale_factors, align_corners,
                      antialias=False):
    """The gradient of a resizing with respect to its input, recorded as one node (its own
    gradient is the resizing)."""
    taps = _all_taps(input_shape, mode, output_size, scale_factors, align_corners,
                     grad._array.dtype, antialias, for_backward=True)
    values = _resize_backward(grad._array, input_shape, taps, cubic=mode == "bicubic" and not antialias)
    values = _laid_out(values, _suggested_layout(grad._array))
    return result(values, _node_class(mode, len(output_size), True, antialias), (grad,),
                  mode=mode, output_size=tuple(output_size), scale_factors=scale_factors,
                  align_corners=align_corners, antialias=antialias, input_shape=input_shape)


# --- F.interpolate ------------------------------------------------------------------------------

def _is_integer(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) or (
        isinstance(value, Tensor) and value.dtype.is_floating_point is False)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resize ``input`` (N, C, d1, ..., dK with K = 1, 2 or 3) to ``size``, or by
    ``scale_factor``, with one of the modes of the module docstring."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size of "
                    f"{size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "output size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(x) for x in size):
                raise TypeError(
                    "expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                    f"Tuple[int, int, int], but got size with types {[type(x) for x in size]}")
            output_size = [int(x) for x in size]
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. Please provide input tensor in (N, C, "
                    "d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = list(scale_factor)
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True        # area pooling needs a whole output size
    if recompute_scale_factor:
        output_size = [math.floor(float(input.shape[i + 2] * scale_factors[i])) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes "
                         "and requires a 4-D tensor as input")
    wanted = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5, "lanczos": 4}
    if mode in ("nearest", "nearest-exact", "area") and input.dim() in (3, 4, 5) or \
            wanted.get(mode) == input.dim():
        if mode == "area":
            return _area(input, output_size)
        if mode == "lanczos":
            if align_corners:
                raise ValueError("Lanczos mode does not support align_corners=True")
            if not antialias:
                raise ValueError("Lanczos mode requires antialias=True")
        return _upsample_checked(input, mode, output_size, scale_factors, align_corners, antialias)
    names = {3: "3D", 4: "4D", 5: "5D"}
    if mode in ("linear", "bilinear", "trilinear") and input.dim() in names:
        raise NotImplementedError(f"Got {names[input.dim()]} input, but {mode} mode needs "
                                  f"{names[wanted[mode]]} input")
    raise NotImplementedError(
        "Input Error: Only 3D, 4D and 5D input Tensors supported"
        f" (got {input.dim()}D) for the modes: {_ALL_MODES}"
        f" (got {mode})")


def _area(input, output_size):
    from . import functional as F
    pools = {1: "adaptive_avg_pool1d", 2: "adaptive_avg_pool2d", 3: "adaptive_avg_pool3d"}
    return getattr(F, pools[len(output_size)])(input, output_size)


def _upsample_checked(input, mode, output_size, scale_factors, align_corners, antialias=False):
    """PyTorch's checks of the sizes, then the resizing."""
    if output_size is None:                # each size times its factor, cut to a whole number
        output_size = [int(size * factor) for size, factor in zip(input.shape[2:], scale_factors)]
    if any(s <= 0 for s in input.shape[2:]) or any(s <= 0 for s in output_size):
        letters = "DHW"[-len(output_size):]
        sizes_in = ", ".join(f"{k}: {v}" for k, v in zip(letters, input.shape[2:]))
        sizes_out = ", ".join(f"{k}: {v}" for k, v in zip(letters, output_size))
        joint = " and" if len(output_size) == 1 else ""
        raise RuntimeError("Input and output sizes should be greater than 0, but got input "
                           f"({sizes_in}){joint} output ({sizes_out})")
    if 0 in input.shape[1:]:
        raise RuntimeError(f"Non-empty {input.dim()}D data tensor expected but got a tensor with "
                           f"sizes {list(input.shape)}")
    if input._array.dtype == np.uint8 and (mode in ("nearest", "nearest-exact") or (
            len(output_size) == 2 and mode in ("bilinear", "bicubic", "lanczos"))):
        return _upsample_uint8(input, mode, output_size, scale_factors, align_corners, antialias)
    if antialias and input._array.dtype not in (np.float32, np.float64):
        from .._dtype import scalar_type_name, from_numpy_dtype
        raise NotImplementedError('"compute_index_ranges_weights" not implemented for '
                                  f"'{scalar_type_name(from_numpy_dtype(input._array.dtype))}'")
    if input._array.dtype.kind != "f":
        from .._dtype import scalar_type_name, from_numpy_dtype
        if len(output_size) == 2 and mode in ("nearest", "nearest-exact", "bilinear") and \
                sum(output_size) <= 128:
            kernel = f"upsample_{mode.split('-')[0]}2d_channels_last"
        else:
            kernel = "compute_indices_weights_" + {"bicubic": "cubic", "nearest-exact": "nearest"}.get(
                mode, "nearest" if mode == "nearest" else "linear")
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{scalar_type_name(from_numpy_dtype(input._array.dtype))}'")
    scales = tuple(scale_factors) if scale_factors is not None else None
    return _upsample(input, mode, output_size, scales, align_corners, antialias)


def _upsample_uint8(input, mode, output_size, scale_factors, align_corners, antialias):
    """Resizing a uint8 image (no gradient: integers have none)."""
    if mode in ("nearest", "nearest-exact"):
        taps = _all_taps(input.shape, mode, output_size, scale_factors, align_corners, np.dtype(np.float32))
        values = _resize(input._array, taps, mode)
    else:
        scales = tuple(scale_factors) if scale_factors is not None else None
        values = _upsampling_aa.resize_uint8(input._array, mode, output_size, scales, align_corners,
                                             antialias)
    return result(_laid_out(values, _suggested_layout(input._array)), None, ())
