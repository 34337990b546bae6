"""Building tensors out of others: broadcast_tensors, meshgrid, cartesian_prod, combinations,
block_diag, vander, fill_diagonal_; and index helpers: tril_indices, triu_indices, argwhere,
isin, unravel_index.

Most of these are written, as in PyTorch, with operations you already know, so their graphs
show familiar nodes:

* ``broadcast_tensors`` expands every tensor to the common shape (ExpandBackward0, a view).
* ``meshgrid`` gives each 1-D tensor its own axis (view) and expands it over the others.
* ``cartesian_prod`` flattens a meshgrid and stacks the columns; ``combinations`` picks the
  index tuples that increase (masked_select) out of the same grid.
* ``vander`` writes 1s and x into an empty matrix and takes the running product (cumprod).
* ``fill_diagonal_`` fills a strided view of the diagonal (CopySlices on the tensor).

Only ``block_diag`` has its own node (BlockDiagBackward0). The index helpers give integer or
bool tensors and are never recorded.
PyTorch: torch.broadcast_tensors, torch.meshgrid, torch.cartesian_prod, torch.combinations,
torch.block_diag, torch.vander, Tensor.fill_diagonal_, torch.tril_indices, torch.argwhere,
torch.isin, torch.unravel_index.
"""
import math

import numpy as np

from .._tensor import Tensor, _wrap
from .._dtype import Size, result_type, int64, to_numpy_dtype
from .._warnings import warn_once
from ..autograd.graph import Node, _SETTINGS_KEPT_AS
from . import result, plain_output
from .shape import stack, expand
from ..autograd.kernel_writes import kernel_writes


# --- broadcasting ------------------------------------------------------------------------------

def _shape_of_argument(shape):
    """A shape given to broadcast_shapes: an int n is (n,)."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return (int(shape),)
    return shape


def broadcast_shapes(*shapes):
    """The shape tensors of these shapes broadcast to (without making any tensor):
    ``broadcast_shapes((3, 1), (4,))`` is ``torch.Size([3, 4])``."""
    common = []                                   # built from the last dim backwards
    for index, shape in enumerate(shapes):
        shape = _shape_of_argument(shape)
        if isinstance(shape, (tuple, list)):
            for item, size in enumerate(shape):
                if isinstance(size, float):
                    raise TypeError(f"torch.Size() takes an iterable of 'int' (item {item} is 'float')")
        sizes = list(shape) if isinstance(shape, (tuple, list)) else [shape]
        for position, size in enumerate(reversed(sizes), start=1):
            fits = isinstance(size, (int, np.integer)) and size >= 0
            if fits and position > len(common):
                common.insert(0, int(size))
                continue
            current = common[-position] if position <= len(common) else 1
            if fits and (size == current or size == 1 or current == 1):
                common[-position] = current if size == 1 else int(size)     # (1 gives way)
                continue
            shown = shape if isinstance(shape, (tuple, list, str)) else (shape,)
            shown = tuple(shown) if isinstance(shown, list) else shown
            raise RuntimeError(
                f"Attempting to broadcast a dimension of length {size} at -{position}! Mismatching "
                f"argument at index {index} had {shown}; but expected shape should be broadcastable "
                f"to {common}")
    return Size(common)


def broadcast_tensors(*tensors):
    """The tensors expanded to one common shape (views: ExpandBackward0, no copy); a tensor
    that already has that shape comes back as itself."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    try:
        shape = np.broadcast_shapes(*(t._array.shape for t in tensors))
    except ValueError:
        from .pointwise import _broadcast_error
        first = tensors[0]
        for other in tensors[1:]:            # PyTorch names the first pair that does not fit
            try:
                np.broadcast_shapes(first._array.shape, other._array.shape)
            except ValueError:
                raise _broadcast_error(first, other) from None
            first = _wrap(np.empty(np.broadcast_shapes(first._array.shape, other._array.shape)))
        raise
    return tuple(t if t._array.shape == shape else expand(t, shape) for t in tensors)


# --- grids -------------------------------------------------------------------------------------

MESHGRID_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the "
                    "indexing argument. (Triggered internally at /__w/pytorch/pytorch/aten/src/"
                    "ATen/native/TensorShape.cpp:4215.)")


def meshgrid(*tensors, indexing=None):
    """Grids of coordinates: with inputs of sizes n0, n1, ... every output has shape
    (n0, n1, ...) and output i repeats input i along all the other dims.

    ``indexing='ij'`` (matrix indexing, the default, with a warning when not given) or ``'xy'``
    (Cartesian: the first two dims swapped, as numpy's default). Each output is a view:
    input i seen along its own dim (view), expanded over the others (expand).
    """
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warn_once(MESHGRID_WARNING)      # (the first time only, as PyTorch)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got: {_printed_by_cpp(t)}")
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
                           f"{indexing}")
    sizes = [t.numel() for t in tensors]
    axes = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) >= 2:      # x varies along columns, y along rows
        axes[0], axes[1] = 1, 0
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for t, axis in zip(tensors, axes):
        own = [1] * len(tensors)
        own[axis] = -1
        grids.append(t.view(own).expand(sizes))
    return tuple(grids)


def _printed_by_cpp(t):
    """A tensor as PyTorch's C++ code prints one in a message: whole numbers as integers, others
    with 4 decimals, right-aligned in one width, then its type and sizes. A tensor of more than
    two dims is printed as its matrices, each under its index (``(1,.,.) =``)."""
    kind = f"[ torch.{t.dtype.tensor_type_name}{{{','.join(map(str, t.shape))}}} ]"
    if t.numel() == 0:
        return kind
    array = t._array.reshape(1, 1) if t.ndim == 0 else t._array.reshape(t.shape[0], -1) if t.ndim < 3 else t._array
    whole = bool(np.all(np.mod(array, 1) == 0))
    width = 1 + max(len(str(int(v)) if whole else f"{float(v):.4f}") for v in array.flat)

    def rows(matrix):
        return [" ".join((str(int(v)) if whole else f"{float(v):.4f}").rjust(width) for v in row)
                for row in matrix]
    if t.ndim < 3:
        return "\n".join(rows(array)) + "\n" + kind
    slices = []
    for index in np.ndindex(*t.shape[:-2]):
        header = "(" + ",".join(str(i + 1) for i in index) + ",.,.) = \n"
        slices.append(header + "\n ".join(rows(array[index])) + "\n")
    return "\n".join(slices) + kind


def cartesian_prod(*tensors):
    """Every combination of one element from each 1-D tensor, one per row (as
    ``itertools.product``): the meshgrid, flattened, the columns stacked. One tensor comes
    back as itself."""
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([grid.flatten() for grid in grids], dim=1)


def combinations(input, r=2, with_replacement=False):
    """Every combination of ``r`` elements of the 1-D ``input``, one per row, in order (as
    ``itertools.combinations``, or ``combinations_with_replacement``).

    Computed as PyTorch does: the meshgrid of r copies of input, and of r copies of the
    positions 0..n-1; the position tuples that increase (or don't decrease) pick the rows
    (masked_select of each grid).
    """
    if input.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _wrap(np.empty((0,), dtype=input._array.dtype))
    n = input.shape[0]
    positions = np.meshgrid(*([np.arange(n)] * r), indexing="ij")
    keep = np.ones((n,) * r, dtype=bool)
    for left, right in zip(positions, positions[1:]):
        keep &= (left <= right) if with_replacement else (left < right)
    mask = _wrap(keep)
    grids = meshgrid(*([input] * r), indexing="ij")
    return stack([grid.masked_select(mask) for grid in grids], dim=1)


# --- block_diag --------------------------------------------------------------------------------

class BlockDiagBackward0(Node):
    """result = the inputs as blocks along the diagonal   ->
        grad_input_i = grad's block i (in input i's shape)"""

    def backward(self, grad):
        # as PyTorch takes each block out (so that create_graph records its nodes): two slices;
        # a vector's row squeezed (a no-op, still recorded) and summed back to its shape; a
        # number's 1x1 block squeezed twice
        grads = []
        row = column = 0
        for shape, (rows, columns) in zip(self.shapes, self.blocks):
            block = grad[row:row + rows, column:column + columns]
            if len(shape) == 1:
                block = block.squeeze(-1).sum(0, keepdim=True).view(shape)
            elif len(shape) == 0:
                block = block.squeeze(-1).squeeze(-1)
            grads.append(block)
            row, column = row + rows, column + columns
        return tuple(grads)


def block_diag(*tensors):
    """A matrix with the inputs as blocks along its diagonal and zeros elsewhere (a vector
    is one row, a number a 1x1 block). Its dtype is the inputs' promoted dtype.

    Gradient: each input gets its block of grad.
    """
    blocks = []
    for position, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                               f"Input {position} has {t.ndim} dimensions")
        blocks.append((1, 1) if t.ndim == 0 else (1, t.shape[0]) if t.ndim == 1 else tuple(t.shape))
    dtype = result_type(*tensors) if tensors else np.dtype(np.float32)
    out = np.zeros((sum(b[0] for b in blocks), sum(b[1] for b in blocks)), dtype=dtype)
    row = column = 0
    for t, (rows, columns) in zip(tensors, blocks):
        out[row:row + rows, column:column + columns] = t._array.reshape(rows, columns)
        row, column = row + rows, column + columns
    if not tensors:
        return _wrap(np.zeros((1, 0), dtype=dtype))
    out = result(out, BlockDiagBackward0, tensors, shapes=[tuple(t.shape) for t in tensors], blocks=blocks)
    return kernel_writes("block_diag", out, *tensors)


# shown by PyTorch's node: nothing (its sizes are kept out of sight)
_SETTINGS_KEPT_AS["BlockDiagBackward0"] = {}


# --- vander ------------------------------------------------------------------------------------

def vander(x, N=None, increasing=False):
    """The Vandermonde matrix: column j is x ** (N - 1 - j) (``increasing``: x ** j).

    Built as PyTorch builds it, so the graph is PyTorch's: an empty matrix; 1s written into
    the first column; x into the others; their running product (cumprod) written back;
    flipped unless ``increasing``.
    """
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    if N is None:
        N = x.shape[0]
    if N < 0:
        raise RuntimeError("N must be non-negative.")
    dtype = x._array.dtype if x._array.dtype.kind == "f" else np.dtype(np.int64)
    out = _wrap(np.empty((x.shape[0], N), dtype=dtype))
    out._vmap_levels = x._vmap_levels       # (made from x: a sample of a vmap's fallback too)
    if N > 0:
        out.select(1, 0).fill_(1)
    if N > 1:
        rest = out[:, 1:]
        rest.copy_(x.unsqueeze(1))
        from .differences import _slice_to_end     # (C++'s slice(1, 1): its node shows no end)
        rest.copy_(_slice_to_end(out, 1, 1).cumprod(1))
    if not increasing:
        return out.flip(1)
    return out


# --- fill_diagonal_ ----------------------------------------------------------------------------

def fill_diagonal_(self, fill_value, wrap=False):
    """Write ``fill_value`` into the main diagonal of this tensor itself (all dims must have
    the same size, or a 2-D tensor may be taller than wide). ``wrap``: in a tall matrix, start
    again below every N-th row (numpy's ``fill_diagonal(wrap=True)``).

    Recorded as PyTorch records it: a fill of a view of the diagonal (CopySlices)."""
    if self.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.ndim > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    steps = self.stride()
    length = min(self.shape)
    self.as_strided((length,), (sum(steps),), self.storage_offset()).fill_(fill_value)
    height, width = self.shape[0], self.shape[-1]
    if wrap and self.ndim == 2 and height > width + 1:
        # in a tall matrix the diagonal goes on below, one empty row between: every
        # (width + 1)-th element of memory from row width + 1 (a second view, a second fill)
        step = width + 1
        rest = (self.numel() + step - 1) // step - length
        self.as_strided((rest,), (step,), self.storage_offset() + step * width).fill_(fill_value)
    return self


# --- index helpers -----------------------------------------------------------------------------

def _triangle_indices(name, row, col, offset, dtype, lower):
    dtype = int64 if dtype is None else dtype
    if to_numpy_dtype(dtype).kind not in "iu":
        raise NotImplementedError(f"\"{name}\" not implemented for '{_scalar_name(dtype)}'")
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    rows, columns = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return _wrap(np.stack([rows, columns]).astype(to_numpy_dtype(dtype)).reshape(2, -1))


def _scalar_name(dtype):
    from .._dtype import scalar_type_name
    return scalar_type_name(dtype)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The positions of the lower triangle of a row x col matrix (at or below the diagonal
    ``offset``), as a 2 x N tensor: first the row of each, then the column, row by row."""
    return _triangle_indices("tril_indices", row, col, offset, dtype, lower=True)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The positions of the upper triangle of a row x col matrix (at or above the diagonal
    ``offset``), as a 2 x N tensor: first the row of each, then the column, row by row."""
    return _triangle_indices("triu_indices", row, col, offset, dtype, lower=False)


def argwhere(input):
    """The positions of the non-zero elements, one row each (the same as ``nonzero(input)``)."""
    return input.nonzero()


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """A bool tensor: True where an element of ``elements`` is one of ``test_elements``
    (``invert``: where it is not). Either may be a plain number."""
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        from .._python_arg_parser import invalid_combination
        raise invalid_combination("isin", (elements, test_elements), {})
    if any(isinstance(t, Tensor) and t._array.dtype.kind == "b" for t in (elements, test_elements)):
        raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    values = elements._array if isinstance(elements, Tensor) else np.asarray(elements)
    tests = test_elements._array if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    if isinstance(test_elements, Tensor) and tests.size < int(10.0 * values.size ** 0.145):
        # PyTorch compares with few test elements directly: it views them as one row, which
        # fails as view() does for a tensor whose memory is not one run (a transposed one);
        # with more, it sorts a flattened copy instead
        test_elements.detach().view(-1)
    found = np.isin(values, tests, assume_unique=assume_unique, invert=invert)
    inputs = [t for t in (elements, test_elements) if isinstance(t, Tensor)]
    return kernel_writes("isin", plain_output(np.asarray(found), *inputs), *inputs,
                         number_tested=not isinstance(test_elements, Tensor))


def unravel_index(indices, shape):
    """The coordinates, one tensor per dim of ``shape``, of the flat (row-major) positions
    ``indices``: ``unravel_index(tensor(5), (2, 4))`` is ``(tensor(1), tensor(1))``. A
    position outside the shape wraps around (it counts modulo the number of elements)."""
    if not isinstance(indices, Tensor):
        raise AttributeError(f"'{type(indices).__name__}' object has no attribute 'is_complex'")
    if indices._array.dtype.kind not in "iu":
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    shape = _shape_of_argument(shape)
    shape = tuple(shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    if not shape:
        return ()
    flat = indices._array.astype(np.int64)
    coordinates = []
    for n, below in zip(shape, [math.prod(shape[k + 1:]) for k in range(len(shape))]):
        coordinates.append(np.floor_divide(flat, below) % n if n else flat * 0)
    # (PyTorch stacks the coordinates on a last dim and unbinds it: each is a view of that)
    stacked = _wrap(np.stack(coordinates, axis=-1))
    return tuple(stacked.unbind(-1))


def nonzero_static(input, *, size, fill_value=-1):
    """``nonzero(input)`` with exactly ``size`` rows: cut off after ``size``, or padded with
    rows of ``fill_value`` (a fixed shape, for code that needs one)."""
    if not isinstance(size, (int, np.integer)) or size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = input.nonzero()._array[:size]
    padding = np.full((size - found.shape[0], found.shape[1]), fill_value, dtype=np.int64)
    return plain_output(np.concatenate([found, padding]), input)
