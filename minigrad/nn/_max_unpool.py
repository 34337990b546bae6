"""Max unpooling: max_unpool1d/2d/3d, the partial inverse of max pooling.

Max pooling keeps the largest value of each window and (with ``return_indices=True``) where
it was. Unpooling puts each value back at that place in an image of zeros:

    out.flat[index] = value          (per channel; every other element 0)

Gradient: each input value went to one place, so its gradient is the gradient read back at
that place (PyTorch's ``max_pool_double_backward``: view, gather, view; recorded as such
under ``create_graph=True``).

PyTorch's 1-d unpooling is the 2-d one of the input with a width of 1 (``unsqueeze(-1)``
before, ``squeeze(-1)`` after), and so is minigrad's.
"""
import math

import numpy as np

from .._tensor import Tensor
from .._ops import result
from .._ops.pointwise import kernel_not_implemented
from ..autograd.graph import Node, _SETTINGS_KEPT_AS
from ._size_arguments import check_tensor

_SETTINGS_KEPT_AS["MaxUnpool2DBackward0"] = {}
_SETTINGS_KEPT_AS["MaxUnpool3DBackward0"] = {}


class _MaxUnpoolBackward(Node):
    """result = zeros with each value at its index   ->   grad_self = grad read at the indices"""

    _saved_names = ("indices",)

    def backward(self, grad):
        (indices,) = self.saved_tensors
        return (_read_at(grad, indices, self.dims),)

    def jvp(self, tangents, inputs, out):
        """result_t = max_unpool(self_t, indices, output_size)"""
        (indices,) = self.saved_tensors
        return _max_unpool(tangents[0], indices, tuple(out.shape[-self.dims:]), self.dims)


class MaxUnpool2DBackward0(_MaxUnpoolBackward):
    """result = zeros with each value at its index   ->   grad_self = grad read at the indices"""

    dims = 2


class MaxUnpool3DBackward0(_MaxUnpoolBackward):
    """result = zeros with each value at its index (3-d)   ->   grad_self = grad read at the indices"""

    dims = 3


def _read_at(grad, indices, dims):
    """The values of ``grad`` (N, C, *out) at ``indices`` (N, C, *in): the same view-gather-view as PyTorch."""
    if indices.numel() == 0:
        return grad.new_zeros(tuple(indices.shape))
    planes = tuple(indices.shape[:-dims]) + (-1,)
    return grad.contiguous().view(planes).gather(-1, indices.view(planes)).view(tuple(indices.shape))


def _max_unpool(input, indices, output_size, dims):
    """The numpy work and the record: ``input``'s values at ``indices`` in zeros of ``output_size``."""
    array, places = input._array, indices._array
    planes = math.prod(array.shape[:-dims])
    values = np.zeros((planes, math.prod(output_size)), dtype=array.dtype)
    flat_places, flat_values = places.reshape(planes, -1), array.reshape(planes, -1)
    bad = (flat_places < 0) | (flat_places >= values.shape[1])
    if bad.any():
        # (PyTorch's loop goes on past a bad index, and names the last one)
        raise RuntimeError(f"Found an invalid max index: {flat_places[bad][-1]} (output volumes are of size "
                           f"{'x'.join(map(str, output_size))})")
    rows = np.arange(planes)[:, None]
    # (where two values share an index, the first one stays, as in PyTorch: written last here)
    values[rows, flat_places[:, ::-1]] = flat_values[:, ::-1]
    values = values.reshape(array.shape[:-dims] + tuple(output_size))
    node = MaxUnpool2DBackward0 if dims == 2 else MaxUnpool3DBackward0
    return result(values, node, (input,), saved=(indices,))


def _unpool_output_size(input, kernel, stride, padding, output_size):
    """The size of the unpooled image: the one max pooling with these settings came from, or
    ``output_size`` if it is one of the sizes that pool to the same (PyTorch's checks and words)."""
    dims = len(kernel)
    default = [(input.shape[-dims + d] - 1) * stride[d] + kernel[d] - 2 * padding[d] for d in range(dims)]
    if output_size is None:
        sizes = default
    else:
        sizes = list(output_size)
        if len(sizes) == dims + 2:
            sizes = sizes[2:]
        if len(sizes) != dims:
            raise ValueError(f"output_size should be a sequence containing {dims} or {dims + 2} elements, but it "
                             f"has a length of '{len(sizes)}'")
        for d in range(dims):
            low, high = default[d] - stride[d], default[d] + stride[d]
            if not low < sizes[d] < high:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
    for d in range(dims):
        if sizes[d] < 0:
            raise ValueError("max_unpooling: output_size must contain non-negative spatial dimensions, but got "
                             f"output_size[{d}]={sizes[d]}")
    return tuple(sizes)


def _settings(kernel_size, stride, padding, dims):
    def as_tuple(value):
        return tuple(value) if isinstance(value, (tuple, list)) else (value,) * dims
    kernel = as_tuple(kernel_size)
    return kernel, (as_tuple(stride) if stride is not None else kernel), as_tuple(padding)


def _is_tensor(value, attribute):
    """PyTorch's Python code asks ``value`` for an attribute first: that error for a non-tensor."""
    if not isinstance(value, Tensor):
        raise AttributeError(f"'{type(value).__name__}' object has no attribute '{attribute}'")


def _checked(input, indices, dims, name, stride=None):
    """PyTorch's checks of max_unpool2d/3d's input and indices, in its order."""
    check_tensor(f"max_unpool{dims}d", "indices", indices, 2)
    if indices.dtype.name != "int64":
        # (only the 2-d message names the type it got)
        got = f" but got: {indices.dtype.tensor_type_name[:-len('Tensor')]}" if dims == 2 else ""
        raise RuntimeError(f"elements in indices should be type int64{got}")
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(f"Input to {name} should be a {dims + 1}d or {dims + 2}d Tensor, but got a tensor "
                           f"with {input.ndim} dimensions.")
    if tuple(indices.shape) != tuple(input.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"([{', '.join(map(str, input.shape))}]) but got indices tensor with shape: "
                           f"[{', '.join(map(str, indices.shape))}]")
    if stride is not None and any(s <= 0 for s in stride):
        raise RuntimeError(f"strides should be greater than zero, but got stride: [{', '.join(map(str, stride))}]")
    if not input.dtype.is_floating_point:
        raise kernel_not_implemented(f"max_unpool{dims}d", input)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Each value of ``input`` (N, C, H, W) or (C, H, W) put back at its place ``indices``
    (from ``max_pool2d(..., return_indices=True)``) in zeros of the pooled-from size.
    Recorded as MaxUnpool2DBackward0."""
    _is_tensor(input, "size")
    kernel, stride, padding = _settings(kernel_size, stride, padding, 2)
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    _checked(input, indices, 2, "max_unpooling2d")
    return _max_unpool(input, indices, size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Each value of ``input`` (N, C, D, H, W) or (C, D, H, W) put back at its place ``indices``
    (from ``max_pool3d(..., return_indices=True)``). Recorded as MaxUnpool3DBackward0."""
    _is_tensor(input, "size")
    kernel, stride, padding = _settings(kernel_size, stride, padding, 3)
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    _checked(input, indices, 3, "max_unpooling3d", stride)
    return _max_unpool(input, indices, size, 3)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Each value of ``input`` (N, C, L) or (C, L) put back at its place ``indices`` (from
    ``max_pool1d(..., return_indices=True)``): max_unpool2d with a width of 1, as in PyTorch."""
    _is_tensor(input, "size")
    kernel, stride, padding = _settings(kernel_size, stride, padding, 1)
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    _is_tensor(indices, "unsqueeze")
    input, indices = input.unsqueeze(-1), indices.unsqueeze(-1)
    _checked(input, indices, 2, "max_unpooling2d")
    return _max_unpool(input, indices, size + (1,), 2).squeeze(-1)
