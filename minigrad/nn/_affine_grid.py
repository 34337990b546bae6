"""affine_grid: the sampling grid of a batch of affine maps (PyTorch: affine_grid_generator),
for grid_sample (_grid_sample.py) in spatial transformer networks.

Each output pixel gets its coordinates in [-1, 1] (x varying fastest; with align_corners=False
the pixels' edges, not their centres, are at +-1), then the affine map: grid = base @ theta^T.
"""
import warnings

import numpy as np

from ..autograd.graph import Node
from .._ops import result
from .._tensor import _wrap
from .._warnings import stacklevel_outside_minigrad

_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False "
                  "since 1.3.0. Please specify align_corners=True if the old behavior is desired. "
                  "See the documentation of grid_sample for details.")
_UNIT_SIZE_WARNING = ("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the "
                      "documentation of affine_grid for details.")


def _warn_align_corners():
    """PyTorch's warning when align_corners is not given (the default changed in 1.3.0)."""
    warnings.warn(_ALIGN_WARNING, UserWarning, stacklevel=stacklevel_outside_minigrad())


def _linspace_from_neg_one(steps, align_corners, dtype):
    """The coordinates of ``steps`` pixels from -1 to 1 (their edges at +-1 unless
    align_corners): torch.linspace's numbers, then scaled by (steps - 1) / steps."""
    from .._creation import linspace
    if steps <= 1:
        return np.zeros(1, dtype=dtype)
    values = linspace(-1, 1, steps, dtype=_dtype_of(dtype))._array
    if not align_corners:
        values = values * dtype.type(steps - 1) / dtype.type(steps)
    return values


def _dtype_of(numpy_dtype):
    from .._dtype import from_numpy_dtype
    return from_numpy_dtype(np.dtype(numpy_dtype))


def _base_grid(size, align_corners, dtype):
    """(H W, 3) or (D H W, 4): each pixel's (x, y[, z], 1), x varying fastest."""
    spatial = list(size[2:])
    axes = [_linspace_from_neg_one(n, align_corners, dtype) for n in spatial]
    mesh = np.meshgrid(*axes, indexing="ij")          # z, y, x order (slowest first)
    columns = [m.reshape(-1) for m in reversed(mesh)] + [np.ones(int(np.prod(spatial)), dtype=dtype)]
    return np.stack(columns, axis=-1)


class AffineGridGeneratorBackward0(Node):
    """result = base_grid @ theta^T   ->   grad_theta = (base_grid^T @ grad)^T"""

    def backward(self, grad):
        n = self.size[0]
        base = _wrap(_base_grid(self.size, self.align_corners, grad._array.dtype))
        rows = base.shape[0]
        flat = grad.reshape(n, rows, len(self.size) - 2)
        return (base.t().unsqueeze(0).expand(n, base.shape[1], rows).bmm(flat).transpose(1, 2),)


def affine_grid_generator(theta, size, align_corners):
    """torch.affine_grid_generator: the grid (N, H, W, 2) or (N, D, H, W, 3) of the affine maps theta."""
    size = tuple(int(s) for s in size)
    base = _base_grid(size, align_corners, theta._array.dtype)
    inner = base.shape[1]
    if theta.shape[0] != size[0]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{size[0]}, {inner}] but got: [{theta.shape[0]}, {theta.shape[1 + 1]}].")
    # each output coordinate is x t0 + y t1 (+ z t2) + t_last, added left to right as
    # PyTorch's batched product does here (no fused multiply-add)
    t = theta._array
    values = base[None, :, :1, None] * t[:, None, None, :, 0]
    for k in range(1, inner):
        values = values + base[None, :, k:k + 1, None] * t[:, None, None, :, k]
    values = values[:, :, 0]
    values = np.ascontiguousarray(values).reshape(size[:1] + size[2:] + (len(size) - 2,))
    return result(values, AffineGridGeneratorBackward0, (theta,), align_corners=align_corners,
                  size=list(size))


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of a batch of affine maps ``theta`` (N, 2, 3) or (N, 3, 4) for an output
    of ``size`` (N, C, H, W) or (N, C, D, H, W): for grid_sample, as in spatial transformer networks."""
    if align_corners is None:
        _warn_align_corners()
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-3:]
    else:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine "
                                  f"transforms, respectively. Got size {size}.")
    if align_corners and min(spatial) == 1:
        warnings.warn(_UNIT_SIZE_WARNING, UserWarning, stacklevel=stacklevel_outside_minigrad())
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return affine_grid_generator(theta, size, align_corners)
