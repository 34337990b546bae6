"""grid_sample of volumes: input (N, C, D, H, W) read at grid (N, Do, Ho, Wo, 3) points (x, y, z),
with 'bilinear' (trilinear, 8 taps) or 'nearest' interpolation (PyTorch: grid_sampler_3d).

The same tap sums as in _grid_sample.py, over any number of axes: output = sum over tap
combinations of (product of the axes' weights) * input[tap]. Their derivatives give
GridSampler3DBackward0 and, under create_graph=True, GridSampler3DBackwardBackward0, whose
own backward uses the weights differentiated once more (exact second derivatives).
"""
import itertools

import numpy as np

from ..autograd.graph import Node
from .._ops import result, several_outputs
from .._tensor import _wrap
from ._grid_sample import _axis_taps, _no_forward_mode, _quiet


def _taps(grid, spatial, mode, padding, align_corners):
    """One list of taps per axis (D, H, W), from the grid's (x, y, z) last axis."""
    count = len(spatial)
    return [_scalar_rounding(_axis_taps(grid[..., count - 1 - axis], size, mode, padding, align_corners),
                             grid[..., count - 1 - axis], size, mode, padding, align_corners)
            for axis, size in enumerate(spatial)]


def _scalar_rounding(taps, coord, size, mode, padding, align_corners):
    """PyTorch samples volumes with its scalar kernel, which rounds otherwise than the
    vectorized one for images: the pixel coordinate is ((g + 1) / 2)(size - 1) or
    ((g + 1) size - 1) / 2, reflection folds with fmod, and the weights are (x0 + 1) - x and x - x0."""
    dtype = coord.dtype.type
    if align_corners:
        pixel = ((coord + dtype(1)) / dtype(2)) * dtype(size - 1)
    else:
        pixel = ((coord + dtype(1)) * dtype(size) - dtype(1)) / dtype(2)
    if padding == 2:
        low, high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        if low == high:
            pixel = np.zeros_like(pixel)
        else:
            minimum, span = dtype(low / 2), dtype((high - low) / 2)
            distance = np.abs(pixel - minimum)
            extra = np.fmod(distance, span)
            even = np.fmod(np.floor(distance / span), 2) == 0
            pixel = np.where(even, extra + minimum, span - extra + minimum)
    if padding in (1, 2):
        pixel = np.minimum(dtype(size - 1), np.fmax(pixel, dtype(0)))
    if mode == 1:
        index = np.rint(pixel).astype(np.int64)
        return [(index, (index >= 0) & (index < size), taps[0][2])]
    left = np.floor(pixel)
    index = left.astype(np.int64)
    (_, _, w0), (_, _, w1) = taps
    return [(index, (index >= 0) & (index < size), [(left + dtype(1)) - pixel] + w0[1:]),
            (index + 1, (index + 1 >= 0) & (index + 1 < size), [pixel - left] + w1[1:])]


def _gather(image, indices, mask):
    """image (N, C, *S) at per-point indices -> (N, C, *points), 0 outside."""
    n = np.arange(image.shape[0]).reshape((-1,) + (1,) * (indices[0].ndim - 1))
    safe = [np.where(mask, i, 0) for i in indices]
    values = image[(n, slice(None)) + tuple(safe)]               # (N, *points, C)
    return np.moveaxis(values * mask[..., None], -1, 1)


def _corners(axis_taps, orders):
    """(indices, in-image mask, weight) of every tap combination; weight = the product of
    the axes' weights, each differentiated orders[axis] times."""
    for combination in itertools.product(*axis_taps):
        mask = np.logical_and.reduce([tap[1] for tap in combination])
        last = len(combination) - 1           # (x's weight first, then y's, then z's: PyTorch's order)
        weight = combination[last][2][orders[last]]
        for axis in range(last - 1, -1, -1):
            weight = weight * combination[axis][2][orders[axis]]
        yield [tap[0] for tap in combination], mask, weight


def _combine(image, axis_taps, orders):
    total = None
    for indices, mask, weight in _corners(axis_taps, orders):
        term = _gather(image, indices, mask) * weight[:, None]
        total = term if total is None else total + term
    return total


def _scatter(weighted, axis_taps, orders, shape):
    """The adjoint of _combine: weighted (N, C, *points) added into an image of ``shape``."""
    out = np.zeros(shape, dtype=weighted.dtype)
    values = np.moveaxis(weighted, 1, -1)
    n = np.broadcast_to(np.arange(shape[0]).reshape((-1,) + (1,) * (values.ndim - 2)), values.shape[:-1])
    corners = list(_corners(axis_taps, orders))
    # PyTorch's loop: point after point, each adding its corners in turn (the last axis of
    # these stacks), so that the additions into one voxel come in its order
    masks = np.stack([mask for _, mask, _ in corners], -1)
    indices = [np.stack([c[0][axis] for c in corners], -1)[masks] for axis in range(len(axis_taps))]
    contributions = np.stack([weight[..., None] * values for _, _, weight in corners], -2)[masks]
    samples = np.broadcast_to(n[..., None], masks.shape)[masks]
    np.add.at(out, (samples, slice(None)) + tuple(indices), contributions)
    return out


def _unit(axes, *axis_list):
    orders = [0] * axes
    for axis in axis_list:
        orders[axis] += 1
    return orders


def _grid_vjp(image, grad, axis_taps, orders):
    return (grad * _combine(image, axis_taps, orders)).sum(axis=1)


def _grid_gradient(image, grad, axis_taps, mode):
    """(N, *points, 3): d/d x, y, z (the axes W, H, D), in PyTorch's order: channel after
    channel, corner after corner, each corner's value times the other axes' weights added
    (far corner) or subtracted (near corner); d pixel / d grid applied last."""
    axes = len(axis_taps)
    if mode == 1:
        return np.zeros(grad.shape[:1] + grad.shape[2:] + (axes,), dtype=image.dtype)
    totals = [np.zeros(grad.shape[:1] + grad.shape[2:], dtype=image.dtype) for _ in range(axes)]
    combinations = list(itertools.product(*[range(len(taps)) for taps in axis_taps]))
    for c in range(grad.shape[1]):
        g = grad[:, c]
        channel = image[:, c:c + 1]
        for combination in combinations:
            taps = [axis_taps[axis][t] for axis, t in enumerate(combination)]
            mask = np.logical_and.reduce([tap[1] for tap in taps])
            value = _gather(channel, [tap[0] for tap in taps], mask)[:, 0]
            for k in range(axes):                  # component k: x, y, z = axis W, H, D
                axis = axes - 1 - k
                others = [taps[a][2][0] for a in range(axes - 1, -1, -1) if a != axis]   # (x before y before z)
                term = value * others[0] * others[1] * g
                totals[k] = totals[k] + term if combination[axis] else totals[k] - term
    return np.stack([axis_taps[axes - 1 - k][1][2][1] * totals[k] for k in range(axes)], -1)


class GridSampler3DBackward0(Node):
    """result = sum over taps of w(grid) * input[tap]   ->
        grad_input = grad scattered to the taps with weights w(grid); grad_grid = sum over channels of grad * sum over taps of dw/dgrid * input[tap]"""

    _saved_names = ("input", "grid")

    def jvp(self, tangents, inputs, out):
        """result_t = (none: PyTorch has no forward-mode rule for grid_sampler_3d)"""
        _no_forward_mode("grid_sampler_3d")

    def backward(self, grad):
        input, grid = self.saved_tensors
        return grid_sampler_3d_backward(grad, input, grid, self.interpolation_mode, self.padding_mode,
                                        self.align_corners, (self.should_compute_output(0),
                                                             self.should_compute_output(1)))


@_quiet
def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners):
    """torch.grid_sampler for volumes (the checks done by the caller)."""
    x = input._array
    taps = _taps(grid._array, x.shape[2:], interpolation_mode, padding_mode, align_corners)
    values = np.ascontiguousarray(_combine(x, taps, [0, 0, 0]).astype(x.dtype, copy=False))
    return result(values, GridSampler3DBackward0, (input, grid), saved=(input, grid),
                  align_corners=align_corners, interpolation_mode=interpolation_mode,
                  padding_mode=padding_mode)


@_quiet
def grid_sampler_3d_backward(grad, input, grid, interpolation_mode, padding_mode, align_corners,
                             output_mask=(True, True)):
    """(grad_input, grad_grid), recorded (under create_graph=True) as one
    GridSampler3DBackwardBackward0 with two outputs, as in PyTorch."""
    x, g = input._array, grid._array
    taps = _taps(g, x.shape[2:], interpolation_mode, padding_mode, align_corners)
    arrays = [_scatter(grad._array, taps, [0, 0, 0], x.shape) if output_mask[0] else None,
              _grid_gradient(x, grad._array, taps, interpolation_mode) if output_mask[1] else None]
    arrays = [None if a is None else a.astype(x.dtype, copy=False) for a in arrays]
    return several_outputs(arrays, GridSampler3DBackwardBackward0, (grad, input, grid),
                           [tuple(input.shape), tuple(grid.shape)], x.dtype,
                           saved=(grad, input, grid), contiguous=True,
                           align_corners=align_corners, interpolation_mode=interpolation_mode,
                           padding_mode=padding_mode)


class GridSampler3DBackwardBackward0(Node):
    """result = (grad_input, grad_grid) of grid_sample   ->
        grad_grad_output = grid_sample(gg_input, grid) + d grid_sample / d grid . gg_grid; grad_input = grad_output scattered to the taps with weights gg_grid . dw/dgrid; grad_grid = grid-gradient of grid_sample(gg_input, grid) + grad_output * (gg_grid^T H input)"""

    _saved_names = ("grad_output", "input", "grid")

    @_quiet
    def backward(self, gg_input, gg_grid):
        grad, input, grid = self.saved_tensors
        x, g, go = input._array, grid._array, grad._array
        taps = _taps(g, x.shape[2:], self.interpolation_mode, self.padding_mode, self.align_corners)
        axes = len(taps)
        # gg_grid's component for each axis (D, H, W <- z, y, x), shaped like one channel
        directions = None if gg_grid is None else \
            [gg_grid._array[..., axes - 1 - axis][:, None] for axis in range(axes)]
        d_grad = d_input = d_grid = None
        if self.should_compute_output(0):
            total = np.zeros(go.shape, dtype=x.dtype)
            if gg_input is not None:
                total = total + _combine(gg_input._array, taps, [0] * axes)
            if directions is not None:
                for axis in range(axes):
                    total = total + _combine(x, taps, _unit(axes, axis)) * directions[axis]
            d_grad = _wrap(total.astype(x.dtype, copy=False))
        if self.should_compute_output(1) and directions is not None:
            total = np.zeros(x.shape, dtype=x.dtype)
            for axis in range(axes):
                total = total + _scatter(go * directions[axis], taps, _unit(axes, axis), x.shape)
            d_input = _wrap(total)
        if self.should_compute_output(2):
            columns = []
            for axis in range(axes):
                total = np.zeros(go.shape[:1] + go.shape[2:], dtype=x.dtype)
                if gg_input is not None:
                    total = total + _grid_vjp(gg_input._array, go, taps, _unit(axes, axis))
                if directions is not None:
                    for other in range(axes):
                        total = total + _grid_vjp(x, go, taps, _unit(axes, axis, other)) * directions[other][:, 0]
                columns.append(total)
            d_grid = _wrap(np.stack(columns[::-1], -1).astype(x.dtype, copy=False))
        return d_grad, d_input, d_grid
