"""Fractional max pooling: fractional_max_pool2d/3d, as in PyTorch (Graham, "Fractional
Max-Pooling", 2014).

The input is shrunk by a factor that need not be a whole number: ``output_size`` windows of
``kernel_size`` along each dim, whose starts are spread pseudo-randomly over the input. One
random number ``u`` in [0, 1) per sample, channel and dim places them (PyTorch's formula):

    alpha    = (input - kernel) / (output - 1)
    start[i] = int((i + u) * alpha) - int(u * alpha)        (the last window ends at the edge)

The random numbers are ``rand(N, C, dims)`` drawn when the function runs (the same numbers as
PyTorch's after the same ``manual_seed``), or ``_random_samples`` if given. Each window keeps
its largest value, and the gradient goes back to it, as in max pooling (_pooling.py), whose
nodes these are but for their names.
"""
import numpy as np

from .._ops import result, plain_output
from .._creation import rand
from ..autograd.graph import _SETTINGS_KEPT_AS
from ._pooling import _MaxBackward, _MaxBackwardBackward, _flat_position

for _dims in ("2D", "3D"):
    _SETTINGS_KEPT_AS[f"FractionalMaxPool{_dims}Backward0"] = {"kernel_size": "kernel_size",
                                                                "output_size": "output_size"}
    _SETTINGS_KEPT_AS[f"FractionalMaxPool{_dims}BackwardBackward0"] = {"indices": "indices"}


class FractionalMaxPool2DBackwardBackward0(_MaxBackwardBackward):
    """result = fractional_max_pool2d's gradient   ->   grad_grad = gg read at the indices of the maxima"""


class FractionalMaxPool2DBackward0(_MaxBackward):
    """result = the largest value in each pseudo-random window   ->
        grad_self = grad added at the position of each window's largest value (result1), zero elsewhere"""

    double_backward_class = FractionalMaxPool2DBackwardBackward0


class FractionalMaxPool3DBackwardBackward0(_MaxBackwardBackward):
    """result = fractional_max_pool3d's gradient   ->   grad_grad = gg read at the indices of the maxima"""

    dims = 3


class FractionalMaxPool3DBackward0(_MaxBackward):
    """result = the largest value in each pseudo-random 3-d window   ->
        grad_self = grad added at the position of each window's largest value (result1), zero elsewhere"""

    dims = 3
    double_backward_class = FractionalMaxPool3DBackwardBackward0


def _starts(sample, size, count, kernel):
    """numpy: the first position of each of ``count`` windows, from the random numbers ``sample``
    (any shape), computed in their dtype as PyTorch computes them; shape sample.shape + (count,)."""
    starts = np.zeros(sample.shape + (count,), dtype=np.int64)
    if count > 1:
        alpha = sample.dtype.type(size - kernel) / sample.dtype.type(count - 1)
        steps = np.arange(count - 1).astype(sample.dtype)
        # (numpy's float-to-int conversion cuts toward zero, as C++'s static_cast<int> does)
        starts[..., :-1] = ((steps + sample[..., None]) * alpha).astype(np.int64) - \
            (sample * alpha).astype(np.int64)[..., None]
    if count > 0:
        starts[..., -1] = size - kernel
    return starts


def _sizes(value, dims, name, function):
    values = tuple(value) if isinstance(value, (tuple, list)) else (value,) * dims
    if len(values) != dims:
        tuple_of = "tuple of Ints" if dims == 2 else "tuple of three Ints"
        raise RuntimeError(f"{function}: {name} must either be a single Int or {tuple_of}")
    return tuple(int(v) for v in values)


def _check(input, kernel, out_size, samples, dims, function):
    """PyTorch's checks of the sizes and the random numbers, in its order."""
    where = "fractional_max_pool2d()" if dims == 2 else "fractional_max_pool3d_out()"
    shape = tuple(input.shape)
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(f"{where}: Expected {dims + 1}D or {dims + 2}D tensor, but got: "
                           f"[{', '.join(map(str, shape))}]")
    for dim in range(1, input.ndim):
        if shape[dim] == 0:
            raise RuntimeError(f"{where}: Expected input to have non-zero size for non-batch dimensions, but "
                               f"got[{', '.join(map(str, shape))}] with dimension {dim} being empty.")
    names = ("height", "width") if dims == 2 else ("time", "height", "width")
    for name, size, k, o in zip(names, shape[-dims:], kernel, out_size):
        # (the 3-d version asks for one position more)
        if o + k - 1 > size or (dims == 3 and o + k - 1 == size):
            raise RuntimeError(f"{where}: pool {name} {k} too large relative to input {name} {size}")
    if any(o < 0 for o in out_size):
        full = shape[:-dims] + tuple(out_size)
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out_size)}: "
                           f"[{', '.join(map(str, full))}]")
    if samples.dtype != input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.shape[-1] != dims:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {dims}; got {samples.shape[-1]}.")
    batch = shape[0] if input.ndim == dims + 2 else 1
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")


def _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices, samples, dims):
    function = f"fractional_max_pool{dims}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{function} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if dims == 2 and len(output_ratio) > 2:       # (a single number fails here, as in PyTorch)
            raise ValueError("fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.")
        ratios = tuple(output_ratio) if isinstance(output_ratio, (tuple, list)) else (output_ratio,) * dims
        output_size = [int(input.size(-dims + d) * ratios[d]) for d in range(dims)]
    if samples is None:
        batch = 1 if input.ndim == dims + 1 else input.size(0)
        samples = rand(batch, input.size(-dims - 1), dims, dtype=input.dtype)
    kernel = _sizes(kernel_size, dims, "kernel_size", function)
    out_size = _sizes(output_size, dims, "output_size", function)
    _check(input, kernel, out_size, samples, dims, function)
    array = input._array if input.ndim == dims + 2 else input._array[None]
    size = array.shape[2:]
    # PyTorch's samples are (width, height) in 2-d, (time, height, width) in 3-d
    order = (1, 0) if dims == 2 else (0, 1, 2)
    u = samples._array[:array.shape[0]]
    starts = [_starts(u[..., order[d]], size[d], out_size[d], kernel[d]) for d in range(dims)]
    # per (sample, channel): the start of each window along each dim, shaped to broadcast
    starts = [s.reshape(s.shape[:2] + tuple(out_size[d] if i == d else 1 for i in range(dims)))
              for d, s in enumerate(starts)]
    values = np.full(array.shape[:2] + out_size, -np.inf, dtype=array.dtype)
    indices = np.broadcast_to(_flat_position(starts, size), values.shape).copy()
    planes = np.arange(array.shape[0])[:, None], np.arange(array.shape[1])[None, :]
    flat = array.reshape(array.shape[:2] + (int(np.prod(size)),))
    for offset in np.ndindex(*kernel):        # PyTorch's loop: a larger value or a nan takes the place
        place = np.broadcast_to(_flat_position([s + o for s, o in zip(starts, offset)], size), values.shape)
        place = place.reshape(place.shape[:2] + (int(np.prod(out_size)),))
        seen = flat[(planes[0][..., None], planes[1][..., None], place)].reshape(values.shape)
        place = place.reshape(values.shape)
        take = (seen > values) | np.isnan(seen)
        values, indices = np.where(take, seen, values), np.where(take, place, indices)
    values, indices = values.reshape(input.shape[:-dims] + out_size), indices.reshape(input.shape[:-dims] + out_size)
    node = FractionalMaxPool2DBackward0 if dims == 2 else FractionalMaxPool3DBackward0
    out = result(values, node, (input,), kernel_size=kernel, output_size=out_size, flat_indices=indices)
    indices = plain_output(indices.astype(np.int64), input)
    if out._grad_fn is not None:
        out._grad_fn.save_for_backward(input, indices)
    return (out, indices) if return_indices else out


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """The largest value of each of ``output_size`` (or input size * ``output_ratio``) windows of
    ``kernel_size``, placed pseudo-randomly over each channel of (N, C, H, W) or (C, H, W).
    Recorded as FractionalMaxPool2DBackward0."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 2)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """As fractional_max_pool2d, for (N, C, D, H, W) or (C, D, H, W). Recorded as FractionalMaxPool3DBackward0."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 3)
