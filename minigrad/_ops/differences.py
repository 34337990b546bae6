"""Differences and integrals along a dimension: diff, trapezoid (trapz), cumulative_trapezoid.

PyTorch writes all of them from slices, subtraction and sums, so their graphs are made of
SliceBackward0, SubBackward0, SumBackward1, ... nodes: each gradient is the sum of the
gradients of the pieces, with nothing new to learn. minigrad composes them the same way,
step by step, so that the recorded graph (and its second order) is PyTorch's.

* ``diff(x)`` is ``x[1:] - x[:-1]`` along ``dim``, n times (after putting ``prepend`` before
  and ``append`` after ``x``).
* ``trapezoid(y, x)`` is the area under the points (x, y) by the trapezoidal rule:
  sum of (y[i] + y[i+1]) / 2 * (x[i+1] - x[i]); with a constant spacing ``dx`` that is
  dx * (sum(y) - (y[0] + y[-1]) / 2). ``cumulative_trapezoid`` keeps the running sums.

PyTorch: torch.diff, torch.trapezoid, torch.trapz, torch.cumulative_trapezoid.
"""
import numpy as np

from .._tensor import Tensor, _wrap, _normalize_dim
from .indexing import _slice
from .logical import logical_xor
from .shape import cat
from .scan import narrow
from .pointwise import mul_by_number, div_by_number


# --- diff ---------------------------------------------------------------------------------

def _check_joined(input, other, dim):
    """prepend / append must have input's dimensions and its sizes, except along dim."""
    if other is None:
        return
    wrapped = _normalize_dim(dim, input.ndim)
    if other.ndim != input.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for d in range(other.ndim):
        if d != wrapped and other.shape[d] != input.shape[d]:
            raise RuntimeError("diff expects the shape of tensor to prepend or append to match that of "
                               f"input except along the differencing dimension; input.size({d}) = "
                               f"{input.shape[d]}, but got tensor.size({d}) = {other.shape[d]}")


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The n-th forward difference along ``dim``: out[i] = x[i+1] - x[i], n times (for bools,
    x[i+1] xor x[i]). ``prepend`` / ``append`` are put before / after ``input`` first.

    Gradient: through the slices and subtractions it is made of (as PyTorch records them).
    """
    if input.ndim < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    _check_joined(input, prepend, dim)
    _check_joined(input, append, dim)
    if n == 0:                      # a copy, as PyTorch makes it: zeros, then copy_ (CopyBackwards)
        return _wrap(np.zeros_like(input._array)).copy_(input)
    if prepend is not None or append is not None:
        input = cat([t for t in (prepend, input, append) if t is not None], dim)
    size = input.shape[_normalize_dim(dim, input.ndim)]
    out, length = input, size - 1
    for _ in range(min(n, size)):
        later, earlier = narrow(out, dim, 1, length), narrow(out, dim, 0, length)
        out = logical_xor(later, earlier) if out.dtype.name == "bool" else later - earlier
        length -= 1
    return out


# --- trapezoid and cumulative_trapezoid ---------------------------------------------------

def _slice_to_end(y, dim, start):
    """``y.slice(dim, start)`` as PyTorch's C++ writes it: no end given (its node shows
    _saved_end None, where x[start:] in Python shows the largest int64)."""
    out = _slice(y, _normalize_dim(dim, y.ndim), slice(start, None), dim_as_given=dim)
    if out.grad_fn is not None and type(out.grad_fn).__name__ == "SliceBackward0":
        out.grad_fn.no_end = True
    return out


def _left_and_right(y, dim):
    """y without its last sample and y without its first, along dim."""
    return _slice(y, _normalize_dim(dim, y.ndim), slice(0, -1), dim_as_given=dim), _slice_to_end(y, dim, 1)


def _spacing(name, y, x, dim):
    """x[i+1] - x[i] along dim, for an ``x`` of one dimension (viewed along dim) or several
    (leading 1s added), checked against ``y``."""
    if x.dtype.name == "bool" or y.dtype.name == "bool":
        raise RuntimeError(f"{name}: received a bool input for `x` or `y`, but bool is not supported")
    if x.ndim == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        sizes = [1] * y.ndim
        sizes[dim] = x.shape[0]
        x = x.view(sizes)
    elif x.ndim < y.ndim:
        x = x.view([1] * (y.ndim - x.ndim) + list(x.shape))
    left, right = _left_and_right(x, dim)
    return right - left


def _check_constant_spacing(name, y, dx):
    if y.dtype.name == "bool":
        raise RuntimeError(f"{name}: received a bool input for `y`, but bool is not supported")
    if isinstance(dx, (bool, np.bool_, complex)):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")


def _check_has_dims(y, dim):
    if y.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")


def _zeros_without(y, dim):
    """No samples along dim: the integral is 0 (as numpy's), one per remaining position."""
    shape = list(y.shape)
    del shape[_normalize_dim(dim, y.ndim)]
    out = _wrap(np.zeros(shape, dtype=y._array.dtype))
    out._versions = [1]         # (PyTorch's at::zeros fills new memory in place: version 1)
    return out


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, the samples at ``x`` (a
    tensor) or ``dx`` apart (a number, 1 by default).

    Gradient: through the slices, sums and products it is made of (as PyTorch records them).
    """
    _check_has_dims(y, dim)
    if isinstance(x, Tensor):
        dim = _normalize_dim(dim, y.ndim)
        if y.shape[dim] == 0:
            return _zeros_without(y, dim)
        step = _spacing("trapezoid", y, x, dim)
        left, right = _left_and_right(y, dim)
        return div_by_number(((left + right) * step).sum(dim), 2.0)
    dx = 1 if dx is None else dx
    if y.shape[_normalize_dim(dim, y.ndim)] == 0:
        return _zeros_without(y, dim)
    _check_constant_spacing("trapezoid", y, dx)
    ends = y.select(dim, 0) + y.select(dim, -1)
    return mul_by_number(y.sum(dim) - mul_by_number(ends, 0.5), float(dx))


def trapz(y, x=None, *, dx=None, dim=-1):
    """``trapezoid`` by its older name (the same integral by the trapezoidal rule)."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running integral of ``y`` along ``dim`` by the trapezoidal rule: one value per
    interval between neighbouring samples (``x`` a tensor of sample points, or ``dx`` apart).

    Gradient: through the slices, products and cumsum it is made of (as PyTorch records them).
    """
    if y.ndim == 0:                 # (PyTorch slices y first, whatever dim is)
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if isinstance(x, Tensor):
        dim = _normalize_dim(dim, y.ndim)
        # (no shortcut for an empty dim, unlike trapezoid: PyTorch records the same steps)
        step = _spacing("cumulative_trapezoid", y, x, dim)
        left, right = _left_and_right(y, dim)
        return div_by_number(((left + right) * step).cumsum(dim), 2.0)
    dx = 1 if dx is None else dx
    _check_constant_spacing("cumulative_trapezoid", y, dx)     # (an empty dim too: no shortcut)
    left, right = _left_and_right(y, dim)
    return mul_by_number(left + right, float(dx) / 2.0).cumsum(dim)


# --- gradient -------------------------------------------------------------------------------
# torch.gradient estimates the derivative of sampled values along each dim: the central
# difference (f[i+1] - f[i-1]) / 2h inside, one-sided differences at the two ends (first order,
# or second order with edge_order=2). With coordinates instead of a step h, the weights of the
# three neighbours follow from the unequal steps. All from slices, as PyTorch writes it.

def _part(input, dim, start, end=None):
    """``input.slice(dim, start, end)`` as PyTorch's C++ writes it (SliceBackward0 always)."""
    if end is None:
        return _slice_to_end(input, dim, start)
    return _slice(input, dim, slice(start, end), dim_as_given=dim)


def _check_gradient(input, spacing_size, dims, edge_order):
    if input.dtype.name == "uint8":
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if spacing_size is not None and dims is None and spacing_size != input.ndim:
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to "
            f"'self.dim() = {input.ndim}', since dim argument was not given, but got a list of length "
            f"{spacing_size}")
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim arguments "
            f"to have the same length, but got a spacing argument of length {spacing_size} and a dim "
            f"argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    normalized = [_normalize_dim(d, input.ndim) for d in (range(input.ndim) if dims is None else dims)]
    for d in normalized:
        if normalized.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    for d in normalized:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    return normalized


def _over(values, number):
    """values / number: a DivBackward1 for floats, a float result for integers (true division)."""
    return div_by_number(values, number) if values.is_floating_point() else values / number


def _times(values, number):
    return mul_by_number(values, number) if values.is_floating_point() else values * number


def _with_step(input, dim, h, edge_order):
    """Equal steps ``h``: (f[2:] - f[:-2]) / h / 2 inside, one-sided differences / h at the ends.
    (PyTorch's C++ multiplies and divides by numbers here: MulBackward1, DivBackward1.)"""
    center = _over(_part(input, dim, 2) - _part(input, dim, 0, -2), h)
    if edge_order == 1:
        first = _over(_part(input, dim, 1, 2) - _part(input, dim, 0, 1), h)
        last = _over(_part(input, dim, -1) - _part(input, dim, -2, -1), h)
    else:
        first = _over(_times(_part(input, dim, 0, 1), -1.5) + _times(_part(input, dim, 1, 2), 2)
                              - _times(_part(input, dim, 2, 3), 0.5), h)
        last = _over(_times(_part(input, dim, -3, -2), 0.5) + _times(_part(input, dim, -2, -1), -2)
                             + _times(_part(input, dim, -1), 1.5), h)
    return cat([first, _over(center, 2), last], dim)


def _with_coordinates(input, dim, coordinates, edge_order):
    """Samples at ``coordinates`` (1-D): each point's neighbours weighted by the unequal steps."""
    steps = coordinates.diff(1, 0)
    before, after = _part(steps, 0, 0, -1), _part(steps, 0, 1)
    shape = [1] * input.ndim
    shape[dim] = -1
    a = (-after / (before * (before + after))).reshape(shape)
    b = ((after - before) / (before * after)).reshape(shape)
    c = (before / (after * (before + after))).reshape(shape)
    center = a * _part(input, dim, 0, -2) + b * _part(input, dim, 1, -1) + c * _part(input, dim, 2)
    h0, h1, h_last, h_before_last = steps[0], steps[1] if steps.shape[0] > 1 else None, steps[-1], \
        steps[-2] if steps.shape[0] > 1 else None
    if edge_order == 1:
        first = (_part(input, dim, 1, 2) - _part(input, dim, 0, 1)) / h0
        last = (_part(input, dim, -1) - _part(input, dim, -2, -1)) / h_last
    else:
        a = -(2.0 * h0 + h1) / (h0 * (h0 + h1))
        b = (h0 + h1) / (h0 * h1)
        c = -h0 / (h1 * (h0 + h1))
        first = a * _part(input, dim, 0, 1) + b * _part(input, dim, 1, 2) + c * _part(input, dim, 2, 3)
        a = h_last / (h_before_last * (h_last + h_before_last))
        b = -(h_last + h_before_last) / (h_last * h_before_last)
        c = (2 * h_last + h_before_last) / (h_last * (h_last + h_before_last))
        last = a * _part(input, dim, -3, -2) + b * _part(input, dim, -2, -1) + c * _part(input, dim, -1)
    return cat([first, center, last], dim)


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """The derivative of ``input``'s samples along each dim in ``dim`` (all, by default), as a
    tuple with one tensor per dim: central differences inside, one-sided at the ends.

    ``spacing`` is the step between samples (a number, or one per dim), or the coordinates of
    the samples (one 1-D tensor per dim). ``edge_order`` 2 uses three points at the ends.
    Gradient: each result is made of slices, products and a cat, recorded as PyTorch's are.
    """
    dims = None if dim is None else [dim] if isinstance(dim, (int, np.integer)) else list(dim)
    if isinstance(spacing, (tuple, list)):
        spacing_size, steps = len(spacing), list(spacing)
    else:
        spacing_size, steps = None, None
    dims = _check_gradient(input, spacing_size, dims, edge_order)
    if steps is None:
        steps = [spacing] * len(dims)
    out = []
    for d, step in zip(dims, steps):
        if isinstance(step, Tensor):
            if step.ndim != 1:
                raise RuntimeError("torch.gradient expected each element of spacing to have one dimension, "
                                   f"but got an element with {step.ndim} dimensions!")
            out.append(_with_coordinates(input, d, step, edge_order))
        else:
            out.append(_with_step(input, d, step, edge_order))
    return tuple(out)
