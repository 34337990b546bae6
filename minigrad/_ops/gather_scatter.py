"""Reading and writing elements at given positions: gather, scatter, scatter_add, index_select, index_add.

``gather`` reads  out[i][j] = input[index[i][j]][j]      (for dim=0)
``scatter`` writes out[index[i][j]][j] = src[i][j]

They are each other's backward: the gradient of a read is written back
(added, when an element was read twice) to where it was read from, and the
gradient of a written value is read from where it was written.
PyTorch: torch.gather, Tensor.scatter, scatter_add, index_select, index_add.
"""
import warnings

import numpy as np

from .._type_names import type_name
from .._tensor import Tensor, _wrap, _normalize_dim
from ..autograd.graph import Node, needs_grad
from .views import history_first
from . import result, numpy_keywords
from .._warnings import stacklevel_outside_minigrad
from .._dtype import checked_number, checked_scalar, cpp_name
from .rounding import _not_differentiable
from ..autograd.kernel_writes import kernel_writes


def _check_index(function, index, input, dim, src=None):
    if not isinstance(index, Tensor):
        raise TypeError(f"{function}(): argument 'index' (position 2) must be Tensor, not "
                        f"{type_name(index)}")
    if index._array.dtype.kind not in "iu":
        raise RuntimeError(f"{function}(): Expected dtype int32/int64 for index")
    if isinstance(src, Tensor) and src._array.dtype != input._array.dtype:
        # (before the shapes, as PyTorch checks; scatter_add's check is scatter's, message included)
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if not index._array.size:
        return                  # (PyTorch checks no shapes for an empty index: nothing to do)
    if index.ndim != input.ndim and not (index.ndim <= 1 and input.ndim <= 1):
        named = "self" if function.startswith("scatter") else "input"     # (gather's is "input")
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {named} tensor")
    if isinstance(src, Tensor):
        _check_src_dims(index, input, dim, src)
    src_sizes = (src.shape if src.ndim else (1,)) if isinstance(src, Tensor) else None   # (0-d: one element)
    if src_sizes is not None and len(src_sizes) == max(index.ndim, 1):
        # scatter with a src tensor checks self and src at once, with one message
        if any(index.shape[d] > src_sizes[d] or (d != dim and index.shape[d] > input.shape[d])
               for d in range(index.ndim)):
            raise RuntimeError(
                f"Expected index {list(index.shape)} to be no larger than self "
                f"{list(input.shape)} apart from dimension {dim} and to be no larger size than "
                f"src {list(src.shape)}")
    for d in range(index.ndim):
        if d != dim and index.shape[d] > input.shape[d]:
            if function.startswith("scatter"):      # (scatter of a number: its own wording)
                raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self "
                                   f"{list(input.shape)} apart from dimension {dim}")
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index {list(index.shape)} to be "
                f"no larger than self {list(input.shape)} apart from dimension {dim}")


def _check_src_dims(index, input, dim, src):
    """PyTorch's scatters compare index's sizes with self's, then (if those fit) with src's,
    dim by dim, asking src for each size (a src with fewer dims has none to give: an IndexError);
    then they refuse a src with another number of dims than index, before any size message."""
    self_sizes_fit = all(d == dim or index.shape[d] <= input.shape[d] for d in range(index.ndim))
    if self_sizes_fit:
        for d in range(index.ndim):
            if src.ndim and d >= src.ndim:
                raise IndexError(f"Dimension out of range (expected to be in range of [{-src.ndim}, "
                                 f"{src.ndim - 1}], but got {d})")
            if index.shape[d] > (src.shape[d] if src.ndim else 1):
                break               # (a size that does not fit: said below)
    if max(src.ndim, 1) != max(index.ndim, 1):          # (a 0-d tensor counts as 1-d)
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")


def _positions(index_array, dim, size):
    """numpy fancy-index tuple addressing, for every element of index, its target in ``dim``
    (a 0-d index, which only a tensor of at most one dim takes, addresses it as a 1-d one)."""
    # unlike Python's lists, gather and scatter take no negative indices
    if index_array.size and (index_array.min() < 0 or index_array.max() >= size):
        bad = index_array[(index_array < 0) | (index_array >= size)].flat[0]
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
    if index_array.ndim == 0:
        return (index_array.reshape(1),)
    positions = list(np.indices(index_array.shape, sparse=True))
    positions[dim] = index_array
    return tuple(positions)


# --- gather -------------------------------------------------------------------------------

class GatherBackward0(Node):
    """result = self.gather(dim, index)   ->
        grad_self = zeros, with grad added at index along dim"""

    _saved_names = ("index", "self")      # the input too, as PyTorch saves it

    def backward(self, grad):
        index, _ = self.saved_tensors
        zeros = _wrap(np.zeros(self.self_sym_sizes, dtype=grad._array.dtype))    # grad.new_zeros
        return (zeros.scatter_add_(self.dim, index, grad),)     # in place, as PyTorch (version 1)


@history_first
@numpy_keywords
def gather(input, dim, index, *, sparse_grad=False):
    """out[i][j] = input[index[i][j]][j] (for dim=0; the index picks along ``dim``).

    Gradient: zeros with grad added back at ``index`` (repeats add up).
    """
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)      # (grad_fn._saved_dim shows it)
    _check_index("gather", index, input, dim)
    array = input._array
    if array.ndim == 0:           # a 0-d tensor: its one element, at each place of the index
        _positions(index._array.reshape(-1), 0, 1)       # (which holds only 0s: a 1-d one too)
        return result(np.full(index._array.shape, array), GatherBackward0, (input,), saved=(index, input), dim=0,
                      self_sym_sizes=(), dim_as_given=dim_as_given, sparse_grad=sparse_grad)
    if not index._array.size:       # (of any dims: nothing is read)
        out = np.empty(index._array.shape, dtype=array.dtype)
    else:
        out = array[_positions(index._array, dim, array.shape[dim])].reshape(index._array.shape)
    return result(np.asarray(out, order="C"), GatherBackward0, (input,), saved=(index, input), dim=dim,
                  self_sym_sizes=input._array.shape, dim_as_given=dim_as_given, sparse_grad=sparse_grad)


# --- scatter and scatter_add --------------------------------------------------------------

class ScatterBackward0(Node):
    """result = self.scatter(dim, index, src)   ->
        grad_self = grad, 0 where overwritten; grad_src = grad.gather(dim, index)"""

    _saved_names = ("index",)      # grad_fn._saved_index, as in PyTorch

    def backward(self, grad):
        (index,) = self.saved_tensors
        grad_input = scatter(grad, self.dim, index, 0.0) if self.should_compute_output(0) else None
        grad_src = gather(grad, self.dim, index) if self.should_compute_output(1) else None
        return grad_input, grad_src


class ScatterBackward1(Node):
    """result = self.scatter(dim, index, value), value a number   ->
        grad_self = grad, 0 where overwritten"""

    _saved_names = ("index",)      # grad_fn._saved_index, as in PyTorch

    def backward(self, grad):
        (index,) = self.saved_tensors
        return (scatter(grad, self.dim, index, 0.0),)


class ScatterAddBackward0(Node):
    """result = self.scatter_add(dim, index, src)   ->
        grad_self = grad; grad_src = grad.gather(dim, index)"""

    _saved_names = ("index",)      # grad_fn._saved_index, as in PyTorch

    def backward(self, grad):
        # PyTorch saves index only for src's gradient (so only then checks it for in-place changes)
        (index,) = self.saved_tensors_for((self.should_compute_output(1),))
        grad_src = gather(grad, self.dim, index) if self.should_compute_output(1) else None
        return grad, grad_src


def _scatter_checks(function, input, dim, index, src):
    dim = _normalize_dim(dim, input.ndim)
    _check_index(function, index, input, dim, src)
    return dim


def scatter_argument_checks(input, dim, index, src, function="scatter"):
    """scatter's checks of its arguments (PyTorch makes them before it looks at the memory it
    writes); gives dim, made non-negative."""
    return _scatter_checks(function, input, dim, index, src)


def _src_values(src, index):
    """The part of ``src`` that index addresses (src may be larger than index; a 0-d src counts
    as one element along every dim)."""
    if not isinstance(src, Tensor):
        return src
    if src.ndim == 0:
        return np.broadcast_to(src._array, index._array.shape)
    if index.ndim == 0:           # (src of one dim, read as the index is: its first element)
        return src._array[:1]
    return src._array[tuple(slice(0, n) for n in index._array.shape)]


@history_first
@numpy_keywords
def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """A copy of ``input`` with out[index[i][j]][j] = src[i][j] (dim=0); src may be a number.

    Gradient: grad_input = grad with 0 where overwritten; grad_src = grad.gather(dim, index).
    """
    out = scatter_into_copy(input, dim, index, src, value, reduce, "scatter")
    return kernel_writes("scatter", out, input, index, src if isinstance(src, Tensor) else None)


def scatter_into_copy(input, dim, index, src, value, reduce, operation):
    """scatter's work; ``operation`` is "scatter", or "scatter_" for x.scatter_ (error messages)."""
    if src is None:
        src = value
    dim_as_given, dim = dim, scatter_argument_checks(input, dim, index, src)
    combine = None
    if reduce is not None:
        # the older reduce= form combines instead of overwriting; like PyTorch, not differentiable
        combine = {"add": np.add, "multiply": np.multiply}.get(reduce)
        if combine is None:
            raise RuntimeError("reduce argument must be either add or multiply.")
    if not isinstance(src, Tensor):
        # PyTorch's kernel takes the number in self's dtype (refusing one that does not fit, before
        # it looks at the positions), and combines in that dtype: int8's 100 * 2.7 is 100 * 2,
        # which wraps around to -56
        src = checked_number(src, input._array.dtype)
    out = input._array.copy()
    positions = _positions(index._array, dim, out.shape[dim] if out.ndim else 1)
    # a 0-d input is written as one element along dim 0 (its index may be 1-d)
    target = out.reshape(1) if out.ndim == 0 else out
    if combine is not None:
        if isinstance(src, Tensor) and not _Warned.reduce:
            _Warned.reduce = True            # (PyTorch says it once per process)
            warnings.warn(
                "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
                "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
                "reduction options.", UserWarning, stacklevel=stacklevel_outside_minigrad())
        if index._array.size:       # (an empty index may have other dims than src: nothing to do)
            combine.at(target, positions, _src_values(src, index))
        # (PyTorch's node for it has edges only to the inputs that require grad)
        return _not_differentiable(out, input, src, operation)
    if index._array.size:           # (an empty index may have other dims than src: nothing to do)
        target[positions] = _src_values(src, index)
    if isinstance(src, Tensor):
        return result(out, ScatterBackward0, (input, src), saved=(index,), dim=dim, dim_as_given=dim_as_given)
    return result(out, ScatterBackward1, (input,), saved=(index,), dim=dim, dim_as_given=dim_as_given)


class _Warned:
    reduce = False


@history_first
@numpy_keywords
def scatter_add(input, dim, index, src):
    """A copy of ``input`` with src[i][j] added to out[index[i][j]][j] (repeats add up).

    Gradient: grad_input = grad; grad_src = grad.gather(dim, index).
    """
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_add(): argument 'src' (position 3) must be Tensor, not "
                        f"{type_name(src)}")
    dim_as_given, dim = dim, scatter_argument_checks(input, dim, index, src, "scatter_add")
    out = input._array.copy()
    target = out.reshape(1) if out.ndim == 0 else out      # (a 0-d input: one element along dim 0)
    if index._array.size:           # (an empty index may have other dims than src: nothing to do)
        np.add.at(target, _positions(index._array, dim, out.shape[dim] if out.ndim else 1),
                  _src_values(src, index))
    # (the index is saved for src's gradient only, as PyTorch saves it; vmap still sees it)
    out = result(out, ScatterAddBackward0, (input, src), saved=(index if needs_grad((src,)) else None,),
                 dim=dim, dim_as_given=dim_as_given, _index=index)
    return kernel_writes("scatter_add", out, input, index, src)


# --- index_select and index_add -------------------------------------------------------------

def _check_vector_index(function, index, size):
    if not isinstance(index, Tensor):
        raise TypeError(f"{function}(): argument 'index' (position 2) must be Tensor, not "
                        f"{type_name(index)}")
    if index.ndim > 1:
        raise IndexError(f"{function}(): Index is supposed to be a vector")
    if index._array.dtype.kind not in "iu":
        raise RuntimeError(f"{function}(): Expected dtype int32 or int64 for index")
    array = index._array.reshape(-1)
    if size is not None and array.size and (array.min() < -size or array.max() >= size):
        raise IndexError("index out of range in self")
    return array


def _check_index_select_range(input, dim, positions, size):
    """index_select takes no negative positions, and PyTorch's kernels word the error
    differently: an empty input, or dim 1 of a 2-D or larger input, get a RuntimeError."""
    if positions.size == 0:
        return
    if input.ndim > 1 and input._array.size == 0 and size == 0:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    outside = (positions < 0) | (positions >= size)
    if not outside.any():
        return
    if input.ndim > 1 and (input._array.size == 0 or dim == 1):
        raise RuntimeError(f"INDICES element is out of DATA bounds, "
                           f"id={int(positions[outside.argmax()])} axis_dim={size}")
    raise IndexError("index out of range in self")


def _check_index_add_range(input, dim, positions, size):
    """index_add takes no negative positions. PyTorch adds slice by slice to a tensor of 2
    or more dims, naming the position and dim when one is out of bounds; for a vector its
    message is index_select's."""
    outside = (positions < 0) | (positions >= size)
    if not outside.any():
        return
    if input.ndim > 1:
        raise RuntimeError(f"index {int(positions[outside.argmax()])} is out of bounds for "
                           f"dimension {dim} with size {size}")
    raise IndexError("index out of range in self")


class IndexSelectBackward0(Node):
    """result = self.index_select(dim, index)   ->
        grad_self = zeros.index_add(dim, index, grad)"""

    _saved_names = ("index",)      # grad_fn._saved_index, as in PyTorch

    def backward(self, grad):
        (index,) = self.saved_tensors
        zeros = _wrap(np.zeros(self.self_sym_sizes, dtype=grad._array.dtype))
        return (zeros.index_add_(self.dim, index, grad),)       # in place, as PyTorch (version 1)


@history_first
@numpy_keywords
def index_select(input, dim, index):
    """The slices number ``index`` (a 1-D integer tensor) of ``input`` along ``dim``.

    Gradient: zeros with grad added back into the selected slices.
    """
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)      # (grad_fn._saved_dim shows it)
    size = input.shape[dim] if input.ndim else 1
    if input.ndim == 0 and isinstance(index, Tensor) and index.numel() != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                           f"{index.numel()} value(s)")
    positions = _check_vector_index("index_select", index, None)     # (its own range check:)
    _check_index_select_range(input, dim, positions, size)
    out = np.take(input._array, positions, axis=dim if input.ndim else None)
    if input.ndim == 0:
        out = out.reshape(())           # PyTorch: one value of a 0-d tensor is 0-d
    return result(out, IndexSelectBackward0, (input,), saved=(index,), dim=dim,
                  self_sym_sizes=input._array.shape, dim_as_given=dim_as_given)


class IndexAddBackward0(Node):
    """result = self.index_add(dim, index, source)   ->
        grad_self = grad; grad_source = grad.index_select(dim, index)"""

    _saved_names = ("index", "source")      # source too, as PyTorch saves it (for its shape)

    def backward(self, grad):
        # PyTorch saves index and source only for source's gradient (so only then checks them
        # for in-place changes)
        index, source = self.saved_tensors_for((self.should_compute_output(1),) * 2)
        grad_source = None
        if self.should_compute_output(1):
            # as PyTorch writes it: grad's slices, expanded like source, times alpha unless 1
            grad_source = index_select(grad, self.dim, index).expand_as(source)
            if self.alpha != 1:
                grad_source = grad_source * self.alpha
        return grad, grad_source


def check_index_add_arguments(input, dim, index, source):
    """PyTorch's checks of index_add's arguments, in its order (before any position is looked
    at): the index is a vector of integers, source has self's dtype, one slice per index
    position along ``dim`` (already normalised), and self's sizes apart from ``dim`` (a
    number goes with a number). Returns the positions as a flat numpy array."""
    if not isinstance(index, Tensor):
        raise TypeError(f"index_add(): argument 'index' (position 2) must be Tensor, not "
                        f"{type_name(index)}")
    if not isinstance(source, Tensor):
        raise TypeError(f"index_add(): argument 'source' (position 3) must be Tensor, not "
                        f"{type_name(source)}")
    if index.ndim > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {index.ndim} "
                         f"with type: {cpp_name(index.dtype).capitalize()} and size: {list(index.shape)}")
    if index._array.dtype not in (np.int32, np.int64):
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{cpp_name(index.dtype).capitalize()}")
    if source._array.dtype != input._array.dtype:
        raise RuntimeError(f"index_add_(): self ({cpp_name(input.dtype).capitalize()}) and source "
                           f"({cpp_name(source.dtype).capitalize()}) must have the same scalar type")
    positions = index._array.reshape(-1)
    self_sizes, source_sizes = list(input.shape), list(source.shape)
    if dim != 0 and dim >= source.ndim:
        raise RuntimeError(f"index_add_(): Indexing dim {dim} is out of bounds of the source "
                           f"tensor with dim {source.ndim}")
    if source.ndim == 0 and positions.size != 1:       # (PyTorch then asks a number for its size)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if source.ndim:
        if positions.size != source.shape[dim]:
            raise RuntimeError(f"index_add_(): Number of indices ({positions.size}) should be equal "
                               f"to source.size(dim): ({source.shape[dim]}), for dim: {dim}")
        if input.ndim:
            del self_sizes[dim], source_sizes[dim]
    if self_sizes != source_sizes:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified dimension. "
            f"Got self.shape = {list(input.shape)} source.shape = {list(source.shape)}")
    return positions


def _alpha_as_kernel_number(alpha, dtype):
    """alpha as PyTorch's kernel for ``dtype`` holds it: an integer kernel cuts 1.5 to 1 (and 0.5
    to 0, adding nothing; a number out of the dtype's range is refused), a bool one keeps only
    whether it is nonzero."""
    alpha = checked_scalar(alpha, dtype)
    if dtype.kind in "iu":
        return int(alpha)
    if dtype.kind == "b":
        return bool(alpha)
    return alpha


@history_first
@numpy_keywords
def index_add(input, dim, index, source, *, alpha=1):
    """A copy of ``input`` with alpha * source[k] added to slice index[k] along ``dim``.

    Gradient: grad_input = grad; grad_source = alpha * grad.index_select(dim, index).
    """
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)      # (grad_fn._saved_dim shows it)
    positions = check_index_add_arguments(input, dim, index, source)    # (its own range check:)
    out = input._array.copy()
    if input.ndim <= 1 or out.size:        # (an empty matrix: nothing to add to, no position checked)
        _check_index_add_range(input, dim, positions, input.shape[dim] if input.ndim else 1)
        moved = np.moveaxis(out, dim, 0) if out.ndim else out.reshape(1)
        values = np.moveaxis(source._array, dim, 0) if source.ndim else source._array.reshape(1)
        scale = _alpha_as_kernel_number(alpha, out.dtype)
        np.add.at(moved, positions, values * scale if scale != 1 else values)
    # (index and source are saved for source's gradient only, as PyTorch saves them; vmap still
    # sees the index)
    saved = (index, source) if needs_grad((source,)) else (None, None)
    out = result(out, IndexAddBackward0, (input, source), saved=saved, dim=dim, alpha=alpha,
                 dim_as_given=dim_as_given, source_dim=source.ndim, _index=index)
    return kernel_writes("index_add", out, input, index, source, alpha=alpha)
