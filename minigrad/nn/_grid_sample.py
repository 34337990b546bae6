"""grid_sample reads an image at a grid's points (PyTorch: grid_sampler); with affine_grid
(_affine_grid.py), the spatial transformer's sampling.

Grid coordinates run from -1 (the first pixel) to 1 (the last). With align_corners=True
these are the pixels' centres, otherwise the pixels' outer edges. A point becomes a pixel
coordinate ("unnormalize"), then padding_mode says what happens outside the image:
'zeros' reads 0 there, 'border' clips to the edge, 'reflection' mirrors at the edges.

Sampling is written once, for any interpolation, as a sum over "taps": along each axis a
point reads a few pixels (1 for nearest, 2 for bilinear, 4 for bicubic), each with a weight
that depends on the point's position between pixels. Output = sum over tap pairs of
wy * wx * input[tap]. The gradients follow from that sum:

    d/d input = grad scattered back to the taps with weights wy * wx
    d/d grid  = sum over taps of (wy' wx, wy wx') * input[tap] * grad, times d pixel/d grid

and the second derivatives from the same sum with weights differentiated once more; so
GridSampler2DBackwardBackward0 (what create_graph=True records, as in PyTorch) has exact
backward formulas too.
"""
import functools

import numpy as np

from ..autograd.graph import Node
from .._ops import result, several_outputs
from .._tensor import _wrap
from .._fused_multiply_add import fma as _fma
from ._affine_grid import _warn_align_corners

_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}
_CUBIC_A = -0.75       # the bicubic kernel's constant (as in PyTorch and OpenCV)
# points at nan or far away read nothing (their indices fall outside), as in PyTorch; numpy's
# warnings on the way (nan - nan, casting nan to an index) would only be noise
def _quiet(function):
    @functools.wraps(function)
    def quietly(*args, **kwargs):
        with np.errstate(invalid="ignore", over="ignore"):
            return function(*args, **kwargs)
    return quietly


# --- grid_sample: coordinates ---------------------------------------------------------------

def _reflect(x, low, twice_span):
    """Mirror x at low and low + span (span given doubled), as PyTorch's vectorized kernel does
    it (whole double flips cut off first); also d result / d x (+-1)."""
    shifted = x - x.dtype.type(low)
    distance = np.abs(shifted)
    twice_span = x.dtype.type(twice_span)
    extra = distance - np.trunc(distance / twice_span) * twice_span
    reflected = twice_span - extra
    one_more_flip = extra > reflected
    values = np.where(one_more_flip, reflected, extra) + x.dtype.type(low)
    return values, np.where(one_more_flip ^ (shifted < 0), -1.0, 1.0).astype(x.dtype)


def _padded(x, size, padding, align_corners):
    """A pixel coordinate after padding_mode's rule, and its derivative (0 or +-1)."""
    if padding == 0:
        return x, np.ones_like(x)
    slope = np.ones_like(x)
    if padding == 2:
        if align_corners and size <= 1:          # (nothing to reflect in: all points at 0)
            x, slope = np.zeros_like(x), np.zeros_like(x)
        elif align_corners:
            x, slope = _reflect(x, 0, 2 * (size - 1))
        else:
            x, slope = _reflect(x, -0.5, 2 * size)
    inside = (x > 0) & (x < size - 1)
    clipped = np.minimum(np.fmax(x, x.dtype.type(0)), x.dtype.type(size - 1))   # (nan -> 0, as PyTorch)
    return clipped, np.where(inside, slope, 0).astype(x.dtype)


def _unnormalized(coord, size, align_corners):
    """Grid coordinate in [-1, 1] -> pixel coordinate; also d pixel / d grid."""
    dtype = coord.dtype.type
    if align_corners:
        scale = dtype(size - 1) / dtype(2)
        return (coord + dtype(1)) * scale, scale
    scale = dtype(size) / dtype(2)
    shifted = coord + dtype(1)
    return _fma(shifted, np.full_like(shifted, scale), np.full_like(shifted, -0.5)), scale   # (fused, as compiled)


def _cubic_weights(t, order):
    """The bicubic kernel's four tap weights at fraction t, or their ``order``-th derivative in t."""
    a = _CUBIC_A

    def near(x, k):            # |x| <= 1: (a+2)x^3 - (a+3)x^2 + 1
        return [((a + 2) * x - (a + 3)) * x * x + 1, (3 * (a + 2) * x - 2 * (a + 3)) * x,
                6 * (a + 2) * x - 2 * (a + 3)][k]

    def far(x, k):             # 1 < |x| < 2: a x^3 - 5a x^2 + 8a x - 4a
        return [((a * x - 5 * a) * x + 8 * a) * x - 4 * a, (3 * a * x - 10 * a) * x + 8 * a,
                6 * a * x - 10 * a][k]

    sign = -1 if order == 1 else 1          # (d/dt of f(1 - t) and f(2 - t) is -f')
    return [far(t + 1, order), near(t, order), sign * near(1 - t, order), sign * far(2 - t, order)]


def _axis_taps(coord, size, mode, padding, align_corners):
    """Along one axis: for each tap, (pixel index, in-image mask, weights by derivative order 0..2
    in grid units)."""
    pixel, scale = _unnormalized(coord, size, align_corners)
    if mode == 2:                          # bicubic: padding applies to each tap, not the point
        left = np.floor(pixel)
        t = pixel - left
        orders = [_cubic_weights(t, k) for k in range(3)]
        taps = []
        for i in range(4):
            index, _ = _padded(left - 1 + i, size, padding, align_corners)
            index = index.astype(np.int64)
            weights = [orders[0][i], orders[1][i] * scale, orders[2][i] * scale * scale, t, scale]
            taps.append((index, _inside(index, size), weights))
        return taps
    pixel, slope = _padded(pixel, size, padding, align_corners)
    chain = slope * scale
    if mode == 1:                          # nearest: round half to even, as nearbyint
        index = np.rint(pixel).astype(np.int64)
        one, zero = np.ones_like(pixel), np.zeros_like(pixel)
        return [(index, _inside(index, size), [one, zero, zero])]
    left = np.floor(pixel)
    frac = pixel - left
    index = left.astype(np.int64)
    zero = np.zeros_like(pixel)
    return [(index, _inside(index, size), [1 - frac, -chain, zero]),
            (index + 1, _inside(index + 1, size), [frac, chain, zero])]


def _inside(index, size):
    return (index >= 0) & (index < size)


def _taps(grid, height, width, mode, padding, align_corners):
    """(y taps, x taps) for a grid (N, Ho, Wo, 2) whose last axis holds (x, y)."""
    return (_axis_taps(grid[..., 1], height, mode, padding, align_corners),
            _axis_taps(grid[..., 0], width, mode, padding, align_corners))


def _gather(image, iy, ix, mask):
    """image (N, C, H, W) at per-point indices (N, Ho, Wo) -> (N, C, Ho, Wo), 0 outside."""
    n = np.arange(image.shape[0])[:, None, None]
    values = image[n, :, np.where(mask, iy, 0), np.where(mask, ix, 0)]     # (N, Ho, Wo, C)
    return np.moveaxis(values * mask[..., None], -1, 1)


def _combine(image, taps, oy, ox):
    """sum over taps of wy^(oy) wx^(ox) * image[tap] -> (N, C, Ho, Wo), in PyTorch's order:
    bicubic reads each row first (x), then combines the rows (y); the others weigh each
    corner by the product wy wx (computed first) and add the corners nw, ne, sw, se."""
    y_taps, x_taps = taps
    total = None
    if len(x_taps) == 4:
        for iy, my, wy in y_taps:
            row = None
            for ix, mx, wx in x_taps:
                term = _gather(image, iy, ix, my & mx) * wx[ox][:, None]
                row = term if row is None else row + term
            term = row * wy[oy][:, None]
            total = term if total is None else total + term
        return total
    for iy, my, wy in y_taps:
        for ix, mx, wx in x_taps:
            values = _gather(image, iy, ix, my & mx)
            weight = np.broadcast_to((wy[oy] * wx[ox])[:, None], values.shape)
            # (PyTorch's compiled kernel fuses each multiply-add: one rounding)
            total = values * weight if total is None else _fma(values, weight, total)
    return total


def _scatter(weighted, taps, oy, ox, shape):
    """The adjoint of _combine: weighted (N, C, Ho, Wo) added into an image of ``shape``.

    PyTorch adds one vector of points (32 bytes: 4 float64, 8 float32 with AVX2) at a time,
    tap after tap; the additions into one pixel are made here in that same order, so that
    the sums round alike."""
    y_taps, x_taps = taps
    bicubic = len(x_taps) == 4
    pairs = ([(y, x) for x in x_taps for y in y_taps] if bicubic     # (bicubic: x outer, as PyTorch)
             else [(y, x) for y in y_taps for x in x_taps])
    count, points = shape[0], weighted.shape[2] * weighted.shape[3]
    values = np.moveaxis(weighted, 1, -1).reshape(count, points, -1)   # (N, P, C)
    parts = []
    for (iy, my, wy), (ix, mx, wx) in pairs:
        if bicubic:
            contribution = values * wx[ox].reshape(count, points, 1) * wy[oy].reshape(count, points, 1)
        else:
            contribution = values * (wy[oy] * wx[ox]).reshape(count, points, 1)
        parts.append((iy.reshape(count, points), ix.reshape(count, points),
                      (my & mx).reshape(count, points), contribution))
    lanes = 32 // weighted.dtype.itemsize
    point = np.arange(points)
    n = np.broadcast_to(np.arange(count)[:, None], (count, points))
    # the order of all additions: sample, vector of points, tap, point within the vector
    key_tap = np.broadcast_to(np.arange(len(parts))[:, None, None], (len(parts), count, points))
    keys = (np.broadcast_to(point % lanes, key_tap.shape), key_tap,
            np.broadcast_to(point // lanes, key_tap.shape),
            np.broadcast_to(n, (len(parts), count, points)))
    order = np.lexsort(tuple(k.reshape(-1) for k in keys))
    all_iy = np.stack([p[0] for p in parts]).reshape(-1)[order]
    all_ix = np.stack([p[1] for p in parts]).reshape(-1)[order]
    mask = np.stack([p[2] for p in parts]).reshape(-1)[order]
    contributions = np.stack([p[3] for p in parts]).reshape(-1, values.shape[-1])[order]
    all_n = np.broadcast_to(n, (len(parts), count, points)).reshape(-1)[order]
    out = np.zeros(shape, dtype=weighted.dtype)
    np.add.at(out, (all_n[mask], slice(None), all_iy[mask], all_ix[mask]), contributions[mask])
    return out


def _grid_vjp(image, grad, taps, orders):
    """sum over channels of grad * _combine(image, taps, *order), one channel per order -> (N, Ho, Wo, k)."""
    return np.stack([(grad * _combine(image, taps, *o)).sum(axis=1) for o in orders], axis=-1)


def _grid_grad(image, grad, taps, mode):
    """grid_sample's gradient for the grid (N, Ho, Wo, 2), with PyTorch's formulas and order
    (channel after channel; the multiplier d pixel / d grid applied last)."""
    y_taps, x_taps = taps
    if mode == 1:
        return np.zeros(grad.shape[:1] + grad.shape[2:] + (2,), dtype=image.dtype)
    if mode == 0:
        (iy0, my0, (s, gy_mult, _)), (iy1, my1, (n, _, _)) = y_taps
        (ix0, mx0, (e, gx_mult, _)), (ix1, mx1, (w, _, _)) = x_taps
        gx_mult, gy_mult = -gx_mult, -gy_mult        # (tap 0 holds -d pixel / d grid)
        nw, ne = _gather(image, iy0, ix0, my0 & mx0), _gather(image, iy0, ix1, my0 & mx1)
        sw, se = _gather(image, iy1, ix0, my1 & mx0), _gather(image, iy1, ix1, my1 & mx1)
        s, n, e, w = (np.broadcast_to(a[:, None], nw.shape) for a in (s, n, e, w))
        # (each multiply-add fused, as PyTorch's compiled kernel does)
        gx = _channel_sum(_fma(se - sw, n, (ne - nw) * s), grad)
        gy = _channel_sum(_fma(se - ne, w, (sw - nw) * e), grad)
        return np.stack([gx * gx_mult, gy * gy_mult], axis=-1)
    # bicubic: PyTorch differentiates the tap weights in -t and subtracts
    gx = gy = np.zeros(grad.shape[:1] + grad.shape[2:], dtype=image.dtype)
    gx_mult, gy_mult = None, None
    cx, cy = [w[0] for _, _, w in x_taps], [w[0] for _, _, w in y_taps]
    tx, ty = x_taps[0][2][3], y_taps[0][2][3]
    cxg, cyg = _cubic_slopes(tx), _cubic_slopes(ty)
    for c in range(grad.shape[1]):
        g = grad[:, c]
        for i, (ix, mx, _) in enumerate(x_taps):
            for j, (iy, my, _) in enumerate(y_taps):
                val = _gather(image[:, c:c + 1], iy, ix, my & mx)[:, 0]
                gx = gx - val * g * cxg[i] * cy[j]
                gy = gy - val * g * cyg[j] * cx[i]
    return np.stack([gx * x_taps[0][2][4], gy * y_taps[0][2][4]], axis=-1)


def _cubic_slopes(t):
    """PyTorch's derivatives of the four bicubic tap weights, in -t."""
    a = _CUBIC_A
    x = -1 - t
    c0 = (-3 * a * x - 10 * a) * x - 8 * a
    x = 0 - t
    c1 = (-3 * (a + 2) * x - 2 * (a + 3)) * x
    x = 1 - t
    c2 = (3 * (a + 2) * x - 2 * (a + 3)) * x
    x = 2 - t
    c3 = (3 * a * x - 10 * a) * x + 8 * a
    return [c0, c1, c2, c3]


def _channel_sum(values, grad):
    """sum over channels of values * grad, one channel after the other, each step one fused
    multiply-add (as PyTorch's loop over channels)."""
    total = values[:, 0] * grad[:, 0]
    for c in range(1, values.shape[1]):
        total = _fma(np.ascontiguousarray(values[:, c]), grad[:, c], total)
    return total


# --- grid_sample: nodes ----------------------------------------------------------------------

def _no_forward_mode(name):
    """PyTorch has no forward-mode rule for grid_sampler, and says so."""
    raise NotImplementedError(
        f"Trying to use forward AD with {name} that does not support it because it has not been "
        "implemented yet.\nPlease file an issue to PyTorch at "
        "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can "
        "prioritize its implementation or submit a PR adding the implementation to derivatives.yaml")


class GridSampler2DBackward0(Node):
    """result = sum over taps of w(grid) * input[tap]   ->
        grad_input = grad scattered to the taps with weights w(grid);
        grad_grid = sum over channels of grad * sum over taps of dw/dgrid * input[tap]"""

    _saved_names = ("input", "grid")

    def jvp(self, tangents, inputs, out):
        """result_t = (none: PyTorch has no forward-mode rule for grid_sampler_2d)"""
        _no_forward_mode("grid_sampler_2d")

    def backward(self, grad):
        input, grid = self.saved_tensors
        return grid_sampler_2d_backward(grad, input, grid, self.interpolation_mode, self.padding_mode,
                                        self.align_corners, (self.should_compute_output(0),
                                                             self.should_compute_output(1)))


def _settings(node):
    return node.interpolation_mode, node.padding_mode, node.align_corners


@_quiet
def grid_sampler_2d_backward(grad, input, grid, interpolation_mode, padding_mode, align_corners,
                             output_mask=(True, True)):
    """(grad_input, grad_grid), recorded (under create_graph=True) as one
    GridSampler2DBackwardBackward0 with two outputs, as in PyTorch."""
    x, g = input._array, grid._array
    taps = _taps(g, x.shape[2], x.shape[3], interpolation_mode, padding_mode, align_corners)
    arrays = [_scatter(grad._array, taps, 0, 0, x.shape) if output_mask[0] else None,
              _grid_grad(x, grad._array, taps, interpolation_mode) if output_mask[1] else None]
    arrays = [None if a is None else a.astype(x.dtype, copy=False) for a in arrays]
    return several_outputs(arrays, GridSampler2DBackwardBackward0, (grad, input, grid),
                           [tuple(input.shape), tuple(grid.shape)], x.dtype,
                           saved=(grad, input, grid), contiguous=True,
                           align_corners=align_corners, interpolation_mode=interpolation_mode,
                           padding_mode=padding_mode)


class GridSampler2DBackwardBackward0(Node):
    """result = (grad_input, grad_grid) of grid_sample   ->
        grad_grad_output = grid_sample(gg_input, grid) + d grid_sample / d grid . gg_grid;
        grad_input = grad_output scattered to the taps with weights gg_grid . dw/dgrid;
        grad_grid = grid-gradient of grid_sample(gg_input, grid) + grad_output * (gg_grid^T H input)
        where H: the taps' second derivatives in the grid"""

    _saved_names = ("grad_output", "input", "grid")

    @_quiet
    def backward(self, gg_input, gg_grid):
        grad, input, grid = self.saved_tensors
        x, g, go = input._array, grid._array, grad._array
        taps = _taps(g, x.shape[2], x.shape[3], *_settings(self))
        dx = dy = None
        if gg_grid is not None:
            gg = gg_grid._array
            dx, dy = gg[..., 0][:, None], gg[..., 1][:, None]
        d_grad = d_input = d_grid = None
        if self.should_compute_output(0):
            total = np.zeros(go.shape, dtype=x.dtype)
            if gg_input is not None:
                total = total + _combine(gg_input._array, taps, 0, 0)
            if gg_grid is not None:
                total = total + _combine(x, taps, 0, 1) * dx + _combine(x, taps, 1, 0) * dy
            d_grad = _wrap(total.astype(x.dtype, copy=False))
        if self.should_compute_output(1) and gg_grid is not None:
            d_input = _wrap(_scatter(go * dx, taps, 0, 1, x.shape) + _scatter(go * dy, taps, 1, 0, x.shape))
        if self.should_compute_output(2):
            total = np.zeros(g.shape, dtype=x.dtype)
            if gg_input is not None:
                total = total + _grid_vjp(gg_input._array, go, taps, [(0, 1), (1, 0)])
            if gg_grid is not None:
                xx, xy, yy = (_grid_vjp(x, go, taps, [o])[..., 0] for o in [(0, 2), (1, 1), (2, 0)])
                total = total + np.stack([xx * dx[:, 0] + xy * dy[:, 0], xy * dx[:, 0] + yy * dy[:, 0]], -1)
            d_grid = _wrap(total.astype(x.dtype, copy=False))
        return d_grad, d_input, d_grid


def _check_grid_sampler(input, grid, interpolation_mode):
    """PyTorch's checks (and messages) before sampling, in PyTorch's order."""
    shown = lambda t: "[" + ", ".join(str(s) for s in t.shape) + "]"       # noqa: E731
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got "
                           f"input with sizes {shown(input)} and grid with sizes {shown(grid)}")
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in last "
                           f"dimension, but got grid with sizes {shown(grid)}")
    if interpolation_mode == 2 and input.dim() != 4:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    for i in range(2, input.dim()):
        if input.shape[i] <= 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial dimensions, "
                               f"but input has sizes {shown(input)} with dimension {i} being empty")
    wanted = 4 if input.dim() == 4 else 5        # (any other input is taken for a volume)
    if input.dim() != wanted or grid.dim() != wanted:
        raise RuntimeError(f"grid_sampler(): expected {wanted}D input and grid with same number of "
                           f"dimensions, but got input with sizes {shown(input)} and grid with sizes "
                           f"{shown(grid)}")
    if not input.is_floating_point():
        kernel = "grid_sampler_2d_cpu_kernel_impl" if input.dim() == 4 else "grid_sampler_3d_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_scalar_name(input)}'")
    if grid.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input)} but found {_scalar_name(grid)}")


def _scalar_name(tensor):
    from .._dtype import scalar_type_name
    return scalar_type_name(tensor.dtype)


@_quiet
def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """torch.grid_sampler: ``input`` (N, C, H, W) read at ``grid`` (N, Ho, Wo, 2) -> (N, C, Ho, Wo);
    modes as numbers (0 bilinear, 1 nearest, 2 bicubic; padding 0 zeros, 1 border, 2 reflection)."""
    _check_grid_sampler(input, grid, interpolation_mode)
    if input.dim() == 5:
        from ._grid_sample_3d import grid_sampler_3d
        return grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners)
    x = input._array
    taps = _taps(grid._array, x.shape[2], x.shape[3], interpolation_mode, padding_mode, align_corners)
    values = np.ascontiguousarray(_combine(x, taps, 0, 0).astype(x.dtype, copy=False))
    return result(values, GridSampler2DBackward0, (input, grid), saved=(input, grid),
                  align_corners=align_corners, interpolation_mode=interpolation_mode,
                  padding_mode=padding_mode)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Read ``input`` (N, C, H, W) at the points of ``grid`` (N, Ho, Wo, 2), coordinates in [-1, 1]
    as (x, y), or a volume (N, C, D, H, W) at (N, Do, Ho, Wo, 3) points (x, y, z).
    mode 'bilinear' | 'nearest' | 'bicubic', padding_mode 'zeros' | 'border' | 'reflection'."""
    if mode not in _MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
                         f"'bicubic', but got: '{mode}'")
    if padding_mode not in _PADDINGS:
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', "
                         f"or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        _warn_align_corners()
        align_corners = False
    return grid_sampler(input, grid, _MODES[mode], _PADDINGS[padding_mode], align_corners)
