"""Picking the elements where a mask is True: masked_select.

``x.masked_select(mask)`` (the same as ``x[mask]`` for a mask of x's shape) gives a 1-D tensor
of the elements of x where the bool tensor ``mask`` is True, in row-major order. The mask and
x are broadcast against each other first, so a mask of shape (3,) picks from every row of a
(2, 3) tensor (and an element of x may be picked several times).

Backward puts each picked element's gradient back where it came from, into zeros: PyTorch's
``masked_scatter_`` of the gradient into a zero tensor (recorded as MaskedScatterBackward0
when ``create_graph=True``); the engine then sums it back to x's shape where x was broadcast.
PyTorch: torch.masked_select, Tensor.masked_select.
"""
import numpy as np

from .._type_names import type_name
from .._tensor import Tensor
from ..autograd.graph import Node
from . import result
from .pointwise import _broadcast_error


class MaskedSelectBackward0(Node):
    """result = self.masked_select(mask)   ->
        grad_self = zeros of the broadcast shape, with grad written where mask is True"""

    _saved_names = ("mask", "self")      # grad_fn._saved_mask, _saved_self, as in PyTorch

    def backward(self, grad):
        mask, input = self.saved_tensors
        shape = np.broadcast_shapes(input._array.shape, mask._array.shape)
        return (_scatter_into_zeros(grad, mask, shape),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.masked_select(mask)"""
        return masked_select(tangents[0], self.saved_tensors[0])


class MaskedScatterBackward0(Node):
    """result = self.masked_scatter(mask, source)   ->
        grad_self = grad, 0 where mask; grad_source = grad.masked_select(mask).view(source.shape)"""

    _saved_names = ("mask",)             # grad_fn._saved_mask, as in PyTorch

    def backward(self, grad):
        (mask,) = self.saved_tensors
        grad_self = grad.masked_fill(mask, 0) if self.should_compute_output(0) else None
        grad_source = None
        if self.should_compute_output(1):       # (the picked elements fill the source exactly)
            grad_source = masked_select(grad, mask).view(self.source_sym_sizes)
        return grad_self, grad_source


def _scatter_into_zeros(grad, mask, shape):
    """Zeros of ``shape`` with the elements of ``grad`` written, in order, where ``mask`` is
    True: PyTorch's ``zeros.masked_scatter_(mask, grad)`` (so the result is at version 1)."""
    from .inplace import bump_version       # (inplace.py builds on the files of this package)
    array = np.zeros(shape, dtype=grad._array.dtype)
    array[np.broadcast_to(mask._array, shape)] = grad._array
    out = result(array, MaskedScatterBackward0, (None, grad), saved=(mask,),
                 source_sym_sizes=tuple(grad._array.shape))
    bump_version(out)
    return out


def _check(name, input, mask):
    if not isinstance(mask, Tensor):       # (torch.masked_select is checked by its parser)
        raise TypeError(f"{name}(): argument 'mask' (position 1) must be Tensor, not "
                        f"{type_name(mask)}")
    if mask._array.dtype.kind != "b":
        raise RuntimeError("masked_select: expected BoolTensor for mask")


def masked_select(input, mask):
    """A 1-D tensor of the elements of ``input`` where ``mask`` is True (the two broadcast
    against each other first), in row-major order.

    Gradient: grad goes back to the picked positions, 0 elsewhere (summed where input was
    broadcast).
    """
    _check("masked_select", input, mask)
    if getattr(mask, "_vmap_levels", 0):     # inside vmap: each sample could pick another count
        raise RuntimeError(
            "vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
            "support this because for each batch this would return a differently shaped Tensor. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues if you need this "
            "feature.")
    try:
        shape = np.broadcast_shapes(mask._array.shape, input._array.shape)
    except ValueError:
        raise _broadcast_error(mask, input) from None      # (PyTorch names the mask first)
    picked = np.broadcast_to(input._array, shape)[np.broadcast_to(mask._array, shape)]
    return result(picked, MaskedSelectBackward0, (input,), saved=(mask, input))
