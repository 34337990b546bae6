"""embedding (a table lookup, with its own node EmbeddingBackward0) and one_hot, as in PyTorch.

``embedding(indices, weight)`` is ``weight[indices]``: each index picks one row of the table.
Its backward sends each gradient row back to the row of the table it came from, adding them
up when an index appears several times:

    grad_weight = zeros(num_embeddings, dim).index_add(0, indices, grad rows)

except for the ``padding_idx`` row, which gets no gradient (a padding token stays as it is),
and, with ``scale_grad_by_freq``, each row divided by how often its index appears in the batch.
"""
import numpy as np

from .._type_names import type_name
from ..autograd.graph import Node, _SETTINGS_KEPT_AS
from ..autograd.grad_mode import is_grad_enabled, no_grad
from .._ops import result
from .._ops.inplace import bump_version
from .._tensor import Tensor, _wrap
from .._creation import zeros
from .. import _dtype
from ..autograd.kernel_writes import kernel_writes
from ._argument_checks import NUMBER, parse_as
from .._type_names import type_name

_SETTINGS_KEPT_AS["EmbeddingBackward0"] = {
    # (no padding_idx is kept as -1, shown as the unsigned 64-bit number of the same bits)
    "padding_idx": lambda settings: settings["padding_idx"] % 2**64,
    "scale_grad_by_freq": "scale_grad_by_freq", "sparse": "sparse",
    "weight_sym_argsize_0": "num_weights"}


class EmbeddingBackward0(Node):
    """result = weight[indices]   ->
        grad_weight = zeros_like(weight).index_add(0, indices, grad), no gradient to row padding_idx"""

    _saved_names = ("indices",)

    def backward(self, grad):
        (indices,) = self.saved_tensors
        return (embedding_backward(grad, indices, self.num_weights, self.padding_idx, self.scale_grad_by_freq),)


_SETTINGS_KEPT_AS["EmbeddingDenseBackwardBackward0"] = {
    "padding_idx": lambda settings: settings["padding_idx"] % 2**64}


class EmbeddingDenseBackwardBackward0(Node):
    """result = embedding's weight gradient: the rows of grad_output added into the rows their
        indices picked   ->   grad_grad_output = grad[indices] (the row of each index), 0 for padding_idx

    The node PyTorch records for the gradient of embedding under ``create_graph=True``. Its
    derivative ignores ``scale_grad_by_freq`` (PyTorch's formula leaves the scaling to the
    first backward), so this one does too."""

    _saved_names = ("indices",)         # grad_fn._saved_indices (and _saved_padding_idx)

    def backward(self, grad):
        (indices,) = self.saved_tensors
        rows = grad.index_select(0, indices.reshape(-1))
        if self.padding_idx >= 0:
            rows.masked_fill_((indices == self.padding_idx).reshape(-1, 1), 0)
        return (rows.view(tuple(indices.shape) + (-1,)),)


def embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    """The gradient of the table: each gradient row added into the row its index picked.

    With ``create_graph=True`` (a gradient that requires grad) it is one recorded operation,
    PyTorch's EmbeddingDenseBackwardBackward0, computed without recording its steps.
    """
    if grad.requires_grad and is_grad_enabled():
        with no_grad():
            table = embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq)
        return result(table._array, EmbeddingDenseBackwardBackward0, (grad,), saved=(indices,),
                      padding_idx=padding_idx)
    flat = indices.reshape(-1).to(_dtype.int64)
    rows = grad.reshape(flat.shape[0], grad.shape[-1] if grad.ndim else 1)
    if padding_idx >= 0:
        # the padding row learns nothing: its gradient rows are dropped
        rows = rows.masked_fill((flat == padding_idx).unsqueeze(1), 0)
    if scale_grad_by_freq:
        counts = np.bincount(flat._array, minlength=num_weights)
        rows = rows / _wrap(counts[flat._array].astype(rows._array.dtype)).unsqueeze(1)
    table = zeros(num_weights, rows.shape[1], dtype=grad.dtype)
    return table.index_add(0, flat, rows)


def _check_indices_dtype(input, argument, function):
    if input.dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError(f"Expected tensor for argument {argument} 'indices' to have one of the following scalar "
                           f"types: Long, Int; but got torch.{input.dtype.tensor_type_name} instead (while checking "
                           f"arguments for {function})")


def _check_indices(input, weight):
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    _check_indices_dtype(input, "#1", "embedding")
    array = input._array
    if array.size and weight.shape[0] == 0:       # (PyTorch's embedding is an index_select)
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if array.size and (array.min() < 0 or array.max() >= weight.shape[0]):
        if weight.shape[1] == 0:        # rows without numbers: another kernel checks, naming the first
            bad = array.reshape(-1)[(array.reshape(-1) < 0) | (array.reshape(-1) >= weight.shape[0])][0]
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={weight.shape[0]}")
        raise IndexError("index out of range in self")


def _renorm_rows(weight, indices, max_norm, norm_type):
    """Shrink, in place, every row that ``indices`` picks whose norm is above ``max_norm`` to
    norm ``max_norm`` (PyTorch's embedding_renorm_: not recorded, but one new version).

    PyTorch checks the table's dims, then the indices' dtype, then goes through the indices
    in increasing order, each one selecting its row (negative ones count from the end) and
    taking its norm: the first index out of range stops it there (the rows before it stay
    changed), and a table of integers fails at the first norm."""
    if weight.ndim != 2:
        raise RuntimeError(f"Expected 2-dimensional tensor, but got {weight.ndim}-dimensional tensor for "
                           "argument #1 'self' (while checking arguments for embedding_renorm_)")
    _check_indices_dtype(indices, "#2", "embedding_renorm_")
    rows = np.unique(indices._array)
    count = weight.shape[0]
    outside = np.flatnonzero((rows < -count) | (rows >= count))
    stop = outside[0] if outside.size else rows.size
    if stop > 0 and not (weight.is_floating_point() or weight.is_complex()):
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {_dtype.scalar_type_name(weight.dtype)} instead.")
    _shrink_rows(weight, np.unique(rows[:stop] % max(count, 1)), max_norm, norm_type)
    if stop < rows.size:        # (the version counts only once the whole operation is done)
        raise IndexError(f"select(): index {rows[stop]} out of range for tensor of size "
                         f"[{count}, {weight.shape[1]}] at dimension 0")
    bump_version(weight)


def _shrink_rows(weight, rows, max_norm, norm_type):
    """The rows ``rows`` of ``weight`` whose norm is above ``max_norm`` scaled down to it, in place."""
    table = weight._array
    picked = table[rows]
    # (in the table's dtype, as PyTorch: the norm of a float32 row is a float32 number, and the
    # row is multiplied by the scale rounded to float32)
    if norm_type == 2:
        norms = np.sqrt((picked * picked).sum(axis=1))
    else:
        norms = (np.abs(picked) ** norm_type).sum(axis=1) ** (1.0 / norm_type)
    too_long = norms > max_norm
    scale = (max_norm / (norms[too_long].astype(np.float64) + 1e-7)).astype(table.dtype)
    with no_grad():
        table[rows[too_long]] = picked[too_long] * scale[:, None]


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Look up rows of the table ``weight``: ``weight[input]``, of shape input.shape + (dim,).

    ``padding_idx``: that row gets no gradient (negative counts from the end). ``max_norm``: the
    rows looked up are first shrunk in place to at most that norm (in ``norm_type``). One recorded
    operation, EmbeddingBackward0. (``sparse=True`` gives a dense gradient here: minigrad has no
    sparse tensors.)
    """
    # PyTorch's Python steps first (padding_idx, max_norm), then its C++ embedding(weight, indices, ...)
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        input = input.contiguous()
        if not isinstance(weight, Tensor):      # (PyTorch renorms weight.detach())
            raise AttributeError(f"'{type_name(weight)}' object has no attribute 'detach'")
        if not (isinstance(weight, Tensor) and isinstance(max_norm, NUMBER) and isinstance(norm_type, NUMBER)):
            parse_as("embedding_renorm_", weight, input, max_norm, norm_type)
        _renorm_rows(weight, input, max_norm, norm_type)
    if not (isinstance(weight, Tensor) and isinstance(input, Tensor) and type(padding_idx) is int
            and isinstance(scale_grad_by_freq, bool) and isinstance(sparse, bool)):
        parse_as("embedding", weight, input, padding_idx, scale_grad_by_freq, sparse)
    _check_indices(input, weight)
    values = weight._array[input._array]
    return result(values, EmbeddingBackward0, (weight,), saved=(input,), padding_idx=padding_idx,
                  scale_grad_by_freq=bool(scale_grad_by_freq), sparse=bool(sparse), num_weights=weight.shape[0])


def one_hot(tensor, num_classes=-1):
    """Each class index becomes a row of zeros with a 1 at that index (an int64 tensor with one
    more dim, of size ``num_classes``; by default the largest index + 1)."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"one_hot(): argument 'input' (position 1) must be Tensor, not {type_name(tensor)}")
    if not isinstance(num_classes, (int, np.integer)) or isinstance(num_classes, bool):
        raise TypeError(f"one_hot(): argument 'num_classes' (position 2) must be int, not {type_name(num_classes)}")
    if tensor.dtype is not _dtype.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    array = tensor._array
    if array.size == 0:
        if num_classes == -1:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return kernel_writes("one_hot", _wrap(np.zeros(array.shape + (num_classes,), dtype=np.int64)), tensor)
    if array.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(array.max()) + 1
    elif array.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    # (a new row-major tensor whatever the layout of the indices, as PyTorch's)
    hot = (array[..., None] == np.arange(num_classes)).astype(np.int64, order="C")
    return kernel_writes("one_hot", _wrap(hot), tensor)
