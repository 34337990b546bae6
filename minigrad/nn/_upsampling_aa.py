"""F.interpolate(..., antialias=True): resizing that averages what it shrinks (bilinear, bicubic
and lanczos on 4-d input), in the steps of PyTorch's CPU kernel.

Without antialiasing, an output pixel reads its 2 (or 4) nearest input pixels whatever the
scale: shrinking an image 4 times skips most of it and aliases. With it, the filter is stretched
by the downscale factor so that each output averages every input its cell covers (as Pillow
does). Along one dim, with scale = in_size / out_size (or 1 / scale_factor, or
(in_size - 1) / (out_size - 1) with align_corners):

    support  = taps / 2 * max(scale, 1)         taps: 2 triangle (bilinear), 4 cubic (Keys,
                                                a = -0.5), 6 lanczos-3 (sinc(x) sinc(x / 3))
    centre   = (o + 0.5) * scale                output o reads inputs xmin .. xmin + xsize - 1,
    xmin     = int(centre - support + 0.5)      those within the support, clipped to the input
    weight_j = filter((xmin + j - centre + 0.5) / max(scale, 1)), divided by their sum

The resizing is separable: first along the width, then along the height, each pass skipped
when its size does not change. The gradient sends each output's gradient back to the inputs
it read, with weight_h * weight_w, output after output.

uint8 images (bilinear and bicubic too, without antialiasing) take the same two passes with
the weights turned into 16-bit integers, as Pillow does: see the end of this file.
"""
import functools
import math

import numpy as np

from .. import _c_library_mathf
from .._fused_multiply_add import fma as _fma

_TAPS = {"bilinear": 2, "bicubic": 4, "lanczos": 6}


# --- the filters, each as PyTorch's compiled code rounds it -----------------------------------------

def _triangle(x):
    """1 - |x| inside (-1, 1): bilinear's filter."""
    x = np.abs(x)
    return np.where(x < 1, (1 - x.astype(np.float64)).astype(x.dtype), 0).astype(x.dtype)


def keys_cubic(x, a=-0.5):
    """Keys' cubic convolution (a = -0.5 is Pillow's bicubic; PyTorch's bicubic without
    antialiasing takes a = -0.75), whose polynomials the compiled code evaluates with fused
    multiply-adds:
        |x| < 1:  ((a + 2) |x| - (a + 3)) |x|^2 + 1
        |x| < 2:  ((a |x| - 5a) |x| + 8a) |x| - 4a"""
    dtype = x.dtype.type
    x = np.abs(x)
    a = dtype(a)

    def fma(p, q, r):
        return _fma(np.broadcast_to(dtype(p), x.shape), np.broadcast_to(dtype(q), x.shape),
                    np.broadcast_to(dtype(r), x.shape))

    near = fma((fma(a + 2, x, -(a + 3)) * x).astype(dtype), x, 1)
    far = fma(fma(fma(a, x, -5 * a), x, 8 * a), x, -4 * a)
    return np.where(x < 1, near, np.where(x < 2, far, 0)).astype(dtype)


def _sinc(x):
    """sin(pi x) / (pi x), 1 at 0, in x's dtype (pi rounded to that dtype first)."""
    dtype = x.dtype.type
    angle = (x * dtype(math.pi)).astype(dtype)
    # (the C library's sine, as PyTorch's kernel calls it: numpy's can differ in the last bit)
    sine = (_c_library_mathf.sinf if dtype == np.float32 else _c_library_mathf.sin)(angle).astype(dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(x == 0, dtype(1), (sine / angle).astype(dtype))


def _lanczos3(x):
    """sinc(x) sinc(x / 3) inside (-3, 3). (PyTorch's code divides by 3.0, a double, so the
    second sinc is always computed in double precision, and the product too.)"""
    dtype = x.dtype.type
    x = np.abs(x)
    product = _sinc(x).astype(np.float64) * _sinc(x.astype(np.float64) / 3.0)
    return np.where(x < 3, product.astype(dtype), 0).astype(dtype)


_FILTERS = {"bilinear": _triangle, "bicubic": keys_cubic, "lanczos": _lanczos3}


# --- which inputs each output reads, and with which weights -------------------------------------------

def _scale(in_size, out_size, scale_factor, align_corners, dtype):
    """PyTorch's area_pixel_compute_scale, in ``dtype``."""
    if align_corners:
        return dtype(in_size - 1) / dtype(out_size - 1) if out_size > 1 else dtype(0)
    if scale_factor is not None and scale_factor > 0:
        return dtype(1.0 / scale_factor)
    return dtype(dtype(in_size) / dtype(out_size))


def axis_weights(mode, in_size, out_size, scale_factor, align_corners, dtype, for_backward=False):
    """(xmin, xsize, weights) along one dim: output o reads inputs xmin[o] .. xmin[o] + xsize[o]
    - 1 with weights[o, :xsize[o]] (the rest of the row is 0).

    The steps and their precisions are PyTorch's: the centre and the offsets are rounded to
    ``dtype`` where its C++ code stores them, but added to 0.5 in double precision."""
    f64 = np.float64
    scale = _scale(in_size, out_size, scale_factor, align_corners, dtype)
    half_taps = _TAPS[mode] * 0.5
    support = dtype(half_taps * f64(scale)) if scale >= 1 else dtype(half_taps)
    # the most inputs one output can read (the backward kernel rounds the support to float first)
    widest = math.ceil(np.float32(support) if for_backward else support) * 2 + 1
    inverse = dtype(1.0 / f64(scale)) if scale >= 1 else dtype(1)
    centre = (f64(scale) * (np.arange(out_size) + 0.5)).astype(dtype)
    xmin = np.maximum(np.trunc((centre - support).astype(dtype).astype(f64) + 0.5), 0).astype(np.int64)
    xmax = np.minimum(np.trunc((centre + support).astype(dtype).astype(f64) + 0.5), in_size)
    xsize = np.clip(xmax.astype(np.int64) - xmin, 0, widest)
    weights = np.zeros((out_size, widest), dtype)
    total = np.zeros(out_size, dtype)
    for j in range(widest):
        offset = ((xmin + j).astype(dtype) - centre).astype(dtype)
        w = _FILTERS[mode](((offset.astype(f64) + 0.5) * f64(inverse)).astype(dtype))
        w = np.where(j < xsize, w, dtype(0))
        weights[:, j] = w
        total = (total + w).astype(dtype)          # one weight after the other
    with np.errstate(invalid="ignore", divide="ignore"):
        normalised = (weights / total[:, None]).astype(dtype)
    weights = np.where((total != 0)[:, None] & (np.arange(widest) < xsize[:, None]), normalised, weights)
    return xmin, xsize, weights


# --- the resizing -----------------------------------------------------------------------------------

def _vector_width(dtype):
    """How many numbers PyTorch's AVX2 kernel multiplies at once (a 256-bit register)."""
    return 8 if dtype == np.float32 else 4


def _resize_axis(array, axis, xmin, xsize, weights):
    """One pass along ``axis``: output o = x[xmin] w0 + x[xmin + 1] w1 + ... in PyTorch's order.

    Its loop over the taps is vectorised by the compiler: the products of whole blocks of 8
    taps (4 in float64), then of a block of half that if as many are left, are rounded before
    they are added one by one; each remaining tap is added with one fused multiply-add."""
    dtype = array.dtype.type
    moved = np.moveaxis(array, axis, -1)
    width = _vector_width(dtype)
    steps = xsize - 1                                   # the taps after the first
    blocked = steps // width * width
    blocked = blocked + np.where(steps - blocked >= width // 2, width // 2, 0)
    last = moved.shape[-1] - 1
    total = (moved[..., np.minimum(xmin, last)] * weights[:, 0]).astype(dtype)
    for j in range(1, weights.shape[1]):
        values = moved[..., np.minimum(xmin + j, last)]
        w = np.broadcast_to(weights[:, j], values.shape)
        rounded = (total + (values * w).astype(dtype)).astype(dtype)
        fused = _fma(values, w, total)
        total = np.where(j > steps, total, np.where(j <= blocked, rounded, fused))
    return np.moveaxis(total, -1, axis)


def resize(array, mode, output_size, scale_factors, align_corners):
    """The antialiased resizing of a (N, C, H, W) array: the width first, then the height."""
    scales = scale_factors or (None, None)
    for axis in (3, 2):
        if array.shape[axis] != output_size[axis - 2]:
            weights = axis_weights(mode, array.shape[axis], output_size[axis - 2], scales[axis - 2],
                                   align_corners, array.dtype.type)
            array = _resize_axis(array, axis, *weights)
    return array


def backward_taps(input_shape, mode, output_size, scale_factors, align_corners, dtype):
    """Per dim (height, width), the taps of the gradient: (index, weight, used) for each of the
    widest number of inputs an output reads (``used`` is False past an output's own count)."""
    scales = scale_factors or (None, None)
    taps_per_dim = []
    for in_size, out_size, scale in zip(input_shape[2:], output_size, scales):
        xmin, xsize, weights = axis_weights(mode, in_size, out_size, scale, align_corners, dtype,
                                            for_backward=True)
        taps_per_dim.append([(np.minimum(xmin + j, in_size - 1), weights[:, j], j < xsize)
                             for j in range(weights.shape[1])])
    return taps_per_dim


# --- uint8 images: integer weights -------------------------------------------------------------------

def _plain_weights(mode, in_size, out_size, scale_factor, align_corners):
    """Without antialiasing (uint8 bilinear and bicubic): the 2 or 4 taps around each source
    position, in double precision; taps that fall outside the input add their weight to the
    first or last input instead."""
    f64 = np.float64
    taps = _TAPS[mode]
    scale = _scale(in_size, out_size, scale_factor, align_corners, f64)
    out = np.arange(out_size, dtype=f64)
    if align_corners:
        real = scale * out
    else:
        real = _fma(np.full(out_size, scale), out + 0.5, np.full(out_size, -0.5))
        if taps == 2:
            real = np.maximum(real, 0)
    index = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), in_size - 1)
    fraction = np.clip(real - index, 0, 1)
    half = taps // 2
    lowest = index - half + 1
    xmin = np.maximum(lowest, 0)
    xsize = np.clip(np.minimum(index + half + 1, in_size) - xmin, 0, taps)
    weights = np.zeros((out_size, taps))
    largest = 0.0
    filter = _triangle if taps == 2 else functools.partial(keys_cubic, a=-0.75)
    for o in range(out_size):
        slot = 0
        for j in range(taps):
            w = filter(np.array([j + 1 - half - fraction[o]]))[0]
            if lowest[o] + j <= 0:
                slot = 0
            elif lowest[o] + j >= in_size - 1:
                slot = xsize[o] - 1
            weights[o, slot] += w
            largest = max(largest, weights[o, slot])
            slot += 1
    return xmin, xsize, weights, largest


def _integer_weights(mode, in_size, out_size, scale_factor, align_corners, antialias):
    """The weights as 16-bit integers w * 2^precision, the precision as large as the largest
    weight allows (PyTorch's uint8 kernels, like Pillow's, add integers)."""
    if antialias:
        xmin, xsize, weights = axis_weights(mode, in_size, out_size, scale_factor, align_corners,
                                            np.float64)
        used = np.arange(weights.shape[1]) < xsize[:, None]
        largest = float(np.max(np.where(used, weights, 0), initial=0.0))
    else:
        xmin, xsize, weights, largest = _plain_weights(mode, in_size, out_size, scale_factor,
                                                       align_corners)
    precision = 0
    while precision < 22 and int(0.5 + largest * (1 << (precision + 1))) < (1 << 15):
        precision += 1
    scaled = weights * (1 << precision)
    integers = np.trunc(np.where(scaled < 0, scaled - 0.5, scaled + 0.5)).astype(np.int64)
    return xmin, xsize, integers, precision


def resize_uint8(array, mode, output_size, scale_factors, align_corners, antialias):
    """uint8 images: each pass adds pixel * integer weight, plus one half, shifts the sum back
    by the precision and clamps it to 0..255 (the width first, then the height)."""
    scales = scale_factors or (None, None)
    for axis in (3, 2):
        if array.shape[axis] == output_size[axis - 2]:
            continue
        xmin, xsize, weights, precision = _integer_weights(
            mode, array.shape[axis], output_size[axis - 2], scales[axis - 2], align_corners, antialias)
        moved = np.moveaxis(array, axis, -1).astype(np.int64)
        last = moved.shape[-1] - 1
        total = np.full(moved.shape[:-1] + (len(xmin),), 1 << (precision - 1), np.int64)
        for j in range(weights.shape[1]):
            values = moved[..., np.minimum(xmin + j, last)]
            total += np.where(j < xsize, values * weights[:, j], 0)
        array = np.moveaxis(np.clip(total >> precision, 0, 255).astype(np.uint8), -1, axis)
    return array
