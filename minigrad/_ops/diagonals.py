"""Diagonals: diag, diag_embed, diagflat, trace.

``diag_embed`` puts the last dim of its input on a diagonal of new zeros; reading a
diagonal back (``diagonal``, in einsum.py) is its backward, and the other way round.
``trace`` adds up the main diagonal of a matrix, so each element of that diagonal gets
the whole gradient and every other element none.
PyTorch: torch.diag, torch.diag_embed, torch.diagflat, torch.trace.
"""
import numpy as np

from .._tensor import _wrap, _normalize_dim
from ..autograd.graph import Node, _SETTINGS_KEPT_AS, show_saved_names
from .views import history_first
from . import result, zeros_set_in_place
from .einsum import DiagonalBackward0, diagonal
from .shape import contiguous, view
from ..autograd.kernel_writes import kernel_writes


class DiagEmbedBackward0(Node):
    """result = zeros with self's last dim written on the diagonal (offset, dim1, dim2)   ->
        grad_self = grad.diagonal(offset, dim1, dim2)"""

    def backward(self, grad):
        return (diagonal(grad, self.offset, self.dim1, self.dim2),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.diag_embed(offset, dim1, dim2)"""
        return diag_embed(tangents[0], self.offset, self.dim1, self.dim2)


@history_first
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor with one more dim, zeros except the diagonal over ``dim1``, ``dim2`` (of the
    result), which holds ``input``'s last dim. ``offset`` > 0 is above the main diagonal."""
    ndim = input.ndim + 1
    given = (dim1, dim2)
    dim1, dim2 = _normalize_dim(dim1, ndim), _normalize_dim(dim2, ndim)
    if dim1 == dim2:
        # (PyTorch's message shows the dims as they were given)
        raise RuntimeError(f"diagonal dimensions cannot be identical {given[0]}, {given[1]}")
    array = input._array if input.ndim else input._array.reshape(1)
    length = array.shape[-1]
    size = length + abs(offset)
    square = np.zeros(array.shape[:-1] + (size, size), dtype=array.dtype)
    along = np.arange(length)
    square[..., along + max(-offset, 0), along + max(offset, 0)] = array
    # the two new dims go where dim1 and dim2 say; the memory is laid out as the result's shape
    out = np.ascontiguousarray(np.moveaxis(square, (-2, -1), (dim1, dim2)))
    out = result(out, DiagEmbedBackward0, (input,), offset=offset, dim1=dim1, dim2=dim2,
                 dims_as_given=given)
    return kernel_writes("diag_embed", out, input)


class DiagonalBackward0_copy(DiagonalBackward0):       # noqa: N801 (PyTorch's name)
    """result = a copy of self.diagonal(offset) (torch.diag of a matrix)   ->
        grad_self = zeros of self's shape with grad written on that diagonal"""


@history_first
def diag(input, diagonal=0):
    """A vector: the matrix whose ``diagonal``-th diagonal it is; a matrix: a copy of that
    diagonal (offset ``diagonal`` > 0 above the main one, < 0 below it)."""
    if input.ndim == 1:
        return diag_embed(input, diagonal)     # (its dims as PyTorch gives them: -2, -1)
    if input.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")
    values = np.diagonal(input._array, diagonal).copy()
    out = result(values, DiagonalBackward0_copy, (input,), offset=diagonal, dim1=0, dim2=1,
                 input_shape=input._array.shape)
    return kernel_writes("diag", out, input)


@history_first
def diagflat(input, offset=0):
    """The elements of ``input`` (flattened) on the ``offset``-th diagonal of a square matrix.

    As in PyTorch: a flat view first (ViewBackward0, after a copy if the memory needs one),
    then diag_embed."""
    return diag_embed(view(contiguous(input), -1), offset)


class TraceBackward0(Node):
    """result = self[0][0] + self[1][1] + ...   ->
        grad_self = grad on the main diagonal, zeros elsewhere"""

    def backward(self, grad):
        # as PyTorch: flat zeros (set in place), the diagonal's flat positions filled with
        # grad in place (so the gradient is at version 2), seen as a matrix
        rows, cols = self.self_sym_sizes
        flat = zeros_set_in_place((rows * cols,), grad._array.dtype)
        positions = _wrap(np.arange(min(rows, cols), dtype=np.int64) * (cols + 1))
        return (flat.index_fill_(0, positions, grad).view(rows, cols),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.trace()"""
        return trace(tangents[0])


@history_first
def trace(input):
    """Sum of the main diagonal of a matrix (integers add up as int64, as in sum)."""
    if input._array.dtype.kind == "b":        # (the kernel refuses bools before the dims)
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    array = input._array
    dtype = np.int64 if array.dtype.kind in "biu" else array.dtype
    return result(np.asarray(np.trace(array, dtype=dtype)), TraceBackward0, (input,),
                  self_sym_sizes=array.shape)


def _show_as_pytorch(node_class, settings):
    """``grad_fn._saved_<name>`` of ``node_class``'s nodes: PyTorch's name -> the attribute
    (or how to compute it from the attributes), see autograd/graph.py."""
    _SETTINGS_KEPT_AS[node_class.__name__] = settings
    show_saved_names(node_class, settings)


# grad_fn._saved_<name> as PyTorch shows it: a negative number as the unsigned 64-bit number of
# the same bits (-1 is 2**64 - 1), see autograd/graph.py
_show_as_pytorch(DiagEmbedBackward0, {"dim1": lambda s: s["dims_as_given"][0] % 2**64,
                                      "dim2": lambda s: s["dims_as_given"][1] % 2**64,
                                      "offset": lambda s: s["offset"] % 2**64})
_show_as_pytorch(DiagonalBackward0_copy, {"dim1": "dim1", "dim2": "dim2",
                                          "offset": lambda s: s["offset"] % 2**64,
                                          "self_sym_sizes": "input_shape"})
