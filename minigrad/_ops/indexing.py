"""Reading and writing parts of a tensor: ``x[i]``, ``x[1:3, 0]``, ``x[mask]``, ``x[i] = v``.

Basic indexing (integers, slices, None, ...) is done one dimension at a time,
as PyTorch does, so ``x[0, 1:]`` records a SliceBackward0 and a SelectBackward0.
Indexing with lists, integer tensors or boolean masks records one IndexBackward0.
In every case backward puts the gradient back at the positions that were read,
with zeros everywhere else.
"""
import re
import warnings

import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.graph import Node, needs_grad, FREED, FREED_MESSAGE, _SETTINGS_KEPT_AS
from ..autograd.forward_ad import _DualLevel
from . import result, batched_as
from ..autograd.function import _FuncTransforms
from .._functorch import check_inplace_batching
from .._dtype import cpp_name
from .._type_names import type_name
from .._warnings import stacklevel_outside_minigrad
from .shape import select, _make_view
from .._memory_format import with_pytorch_steps
from .inplace import (check_inplace, apply_inplace, bump_version, memory_order, _overlaps,
                      overlaps_itself, _writeable, _same_elements, _check_partial_overlap,
                      _shares_memory_unversioned)
from .views import check_history_kept, history_first
from .inplace_unary import EXPANDED_MASKED_FILL_WARNING

_BASIC = (int, slice, type(None), type(Ellipsis))


def _numpy_index(item):
    """Tensors used as indices become numpy arrays (or plain ints for 0-d integer tensors)."""
    if isinstance(item, Tensor):
        array = item._array
        if array.ndim == 0 and array.dtype.kind in "iu":
            return int(array)
        return array            # its dtype is checked when it is used (_check_index_dtypes)
    if isinstance(item, (list, np.ndarray, range)):      # (a range is a sequence of ints, as a list)
        array = np.asarray(item)
        # PyTorch makes a list of floats an index tensor of whole numbers (truncating them)
        return array.astype(np.int64) if isinstance(item, (list, range)) and array.dtype.kind == "f" else array
    if isinstance(item, bool):
        return np.asarray(item)
    if isinstance(item, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
    if not isinstance(item, (int, np.integer, np.bool_, slice, type(None), type(Ellipsis), tuple)):
        # (a float, a dict, an object: PyTorch's message, not numpy's)
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                         f"Variables are valid indices (got {type_name(item)})")
    return item


def _converted_items(shape, items):
    """The index's parts made ready for numpy (``_numpy_index``). A part that cannot index (a
    float, a str) fails here, but PyTorch first counts the parts against the dims and applies
    the parts before it left to right, so an earlier mistake is the one it reports."""
    converted = []
    for position, item in enumerate(items):
        try:
            converted.append(_numpy_index(item))
        except (IndexError, TypeError) as error:
            earlier = _earlier_index_error(shape, items, position)
            raise (earlier or error) from None
    return tuple(converted)


def _specified_dims(item):
    """How many dims of the tensor one index part takes, as PyTorch counts them."""
    if item is None or item is Ellipsis or isinstance(item, (bool, np.bool_)):
        return 0
    if isinstance(item, Tensor) and item._array.dtype in (np.bool_, np.uint8):
        return item._array.ndim
    return 1


def _earlier_index_error(shape, items, position):
    """PyTorch's error for the parts before ``position`` (None if they are fine): too many
    parts for the dims, then an integer out of range or a slice stepping by 0 or backwards."""
    specified = sum(_specified_dims(item) for item in items)
    if specified > len(shape):
        return IndexError(f"too many indices for tensor of dimension {len(shape)}")
    sizes, dim = list(shape), 0          # the result so far, and the dim the next part takes
    for real_dim, item in enumerate(items[:position]):
        if item is None:
            sizes.insert(dim, 1)
            dim += 1
        elif item is Ellipsis:
            dim += len(shape) - specified
        elif isinstance(item, slice):
            if item.step == 0:
                return ValueError("slice step cannot be zero")
            if item.step is not None and item.step < 0:
                return ValueError("step must be greater than zero")
            dim += 1
        elif isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
            if not -sizes[dim] <= item < sizes[dim]:
                return IndexError(f"index {item} is out of bounds for dimension {real_dim} with size "
                                  f"{sizes[dim]}")
            del sizes[dim]               # (a select: the next part takes the same dim)
        else:
            dim += _specified_dims(item)
    return None


def _check_index_dtypes(items):
    """PyTorch's index operation takes integer and bool index tensors only (it checks
    this itself, after the history of its input was looked up)."""
    for item in items:
        if isinstance(item, np.ndarray) and item.dtype.kind not in "iub":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def _mask_mismatch(shape, items, last=None):
    """PyTorch's message for a bool mask that does not fit: whole shapes, first clash (among
    the parts up to position ``last``, if given)."""
    dim = 0
    for position, item in enumerate(items):
        if last is not None and position > last:
            break
        if item is None:
            continue
        if item is Ellipsis:            # (the dims no other part takes)
            dim += len(shape) - sum(_dims_used(i) for i in items if i is not None and i is not Ellipsis)
            continue
        array = np.asarray(item) if isinstance(item, (np.ndarray, list)) else None
        if array is not None and array.dtype == bool:
            for j, size in enumerate(array.shape):
                if dim + j < len(shape) and shape[dim + j] != size:
                    return IndexError(
                        f"The shape of the mask {list(array.shape)} at index {j} does not match "
                        f"the shape of the indexed tensor {list(shape)} at index {dim + j}")
            dim += array.ndim
        else:
            dim += 1
    return None


def _out_of_range(error, shape=None, items=None):
    """numpy says 'axis'; PyTorch says 'dimension'."""
    if shape is not None and "boolean index did not match" in str(error):
        mismatch = _mask_mismatch(shape, items)
        if mismatch is not None:
            return mismatch
    shapes = re.match(r"shape mismatch: indexing arrays could not be broadcast together with "
                      r"shapes ((?:\([0-9, ]*\) ?)+)", str(error))
    if shapes:           # numpy writes (6,) (5,); PyTorch writes [6], [5]
        listed = [f"[{', '.join(n for n in group.split(',') if n.strip())}]".replace(" ", "")
                  for group in re.findall(r"\(([0-9, ]*)\)", shapes.group(1))]
        return IndexError("shape mismatch: indexing tensors could not be broadcast together with "
                          f"shapes {', '.join(item.replace(',', ', ') for item in listed)}")
    mask = re.match(r"boolean index did not match indexed array along (?:dimension|axis) (\d+); "
                    r"size of (?:dimension|axis) is (\d+) but size of corresponding boolean "
                    r"(?:dimension|axis) is (\d+)", str(error))
    if mask:
        dim, size, mask_size = mask.groups()
        return IndexError(f"The shape of the mask [{mask_size}] at index {dim} does not match the "
                          f"shape of the indexed tensor [{size}] at index {dim}")
    if re.match(r"index -?\d+ is out of bounds for axis \d+ with size 0$", str(error)):
        return IndexError("index is out of bounds for dimension with size 0")    # PyTorch's text
    bounds = re.match(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)$", str(error))
    if bounds and shape is not None:
        # PyTorch numbers the index tensors, not the dimensions: x[:, [5]] is about tensor 0
        value, axis, size = bounds.groups()
        return IndexError(f"index {value} is out of bounds for dimension "
                          f"{_tensors_before(items, len(shape), int(axis))} with size {size}")
    many = re.match(r"too many indices for array: array is (\d+)-dimensional", str(error))
    if many:
        return IndexError(f"too many indices for tensor of dimension {many.group(1)}")
    return IndexError(str(error).replace("axis", "dimension"))


def _dims_used(item):
    """How many dimensions of x one index item uses: k for a k-dimensional mask, else 1."""
    return np.ndim(item) if np.asarray(item).dtype == bool else 1


def _tensors_before(items, ndim, axis):
    """How many index tensors (a k-dim mask counts k) index dimensions before ``axis``."""
    count, dim = 0, 0
    for item in items:
        if item is Ellipsis:
            dim += ndim - sum(_dims_used(i) for i in items if i is not Ellipsis and i is not None)
            continue
        covered = _dims_used(item)
        if dim >= axis:
            break
        if not isinstance(item, slice):
            count += covered
        dim += covered
    return count


class SliceBackward0(Node):
    """result = self[start:stop:step] along dim   ->
        grad_self = zeros, with grad at those positions"""

    def backward(self, grad):
        full = np.zeros(self.input_shape, dtype=grad._array.dtype)
        full[self.index] = grad._array
        # recorded as PyTorch's slice_backward, so that create_graph=True can differentiate it
        # (it shows the same dim, start, end and step as this node)
        return (result(full, SliceBackwardBackward0, (grad,), index=self.index,
                       dim_as_given=self.dim_as_given, no_end=getattr(self, "no_end", False)),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t[start:stop:step] along dim"""
        return tangents[0][self.index]


class SliceBackwardBackward0(Node):
    """result = zeros with g placed at a slice (slice's backward, recorded)   ->
        grad_g = grad[slice]"""

    def backward(self, gg):
        return (gg[self.index],)


def _slice(input, dim, item, dim_as_given=None):
    index = (slice(None),) * dim + (item,)
    array = with_pytorch_steps(input)
    sliced = array[index]
    if not sliced.shape[dim] and item.step not in (None, 1):
        # numpy keeps the step of a dimension sliced down to nothing; PyTorch multiplies it by
        # the slice's step, as for any slice
        steps = sliced.strides[:dim] + (array.strides[dim] * item.step,) + sliced.strides[dim + 1:]
        sliced = np.lib.stride_tricks.as_strided(sliced, sliced.shape, steps,
                                                 writeable=sliced.flags.writeable)
    out = result(sliced, SliceBackward0, (input,), input_shape=input._array.shape, index=index,
                 dim_as_given=dim if dim_as_given is None else dim_as_given)   # (_saved_dim)
    return _make_view(out, input)


def _whole(item, size):
    """True for a slice PyTorch leaves out of a multi-part index: it starts at 0 (or None),
    steps by 1 and stops at or past the end, as written (``x[-5:5]`` still slices)."""
    return (item.start in (None, 0) and item.step in (None, 1)
            and (item.stop is None or item.stop >= size))


def _check_step(item):
    if item.step == 0:               # (Python's own check of the slice comes first)
        raise ValueError("slice step cannot be zero")
    if item.step is not None and item.step < 0:
        raise ValueError("step must be greater than zero")


def _basic_getitem(input, items, full_view=True, alias=True):
    """Apply integers, slices and None one dimension at a time.

    As in PyTorch, a slice that keeps a whole dimension as written (``x[0:]``, ``x[:100]``;
    not ``x[-3:]``, which slices even when it keeps every element) records nothing. When
    nothing was recorded, ``x[:, :]`` and ``x[...]`` still make a new tensor (an alias) unless
    ``alias`` is False (the lists and tensors of ``x[:, [0, 1]]`` index ``x`` itself). With
    ``full_view`` False (``x[0:] = v``), no alias is made: the assignment writes into ``x``
    itself, as in PyTorch.
    """
    # PyTorch's messages count the position among the items as written (None and ... too)
    positions = range(len(items))
    if any(i is Ellipsis for i in items):
        at = items.index(Ellipsis)
        used = sum(1 for i in items if i is not None and i is not Ellipsis)
        fill = max(input.ndim - used, 0)
        positions = [*range(at), *[at] * fill, *range(at + 1, len(items))]
        items = items[:at] + (slice(None),) * fill + items[at + 1:]
    if sum(1 for i in items if i is not None) > input.ndim:
        raise IndexError(f"too many indices for tensor of dimension {input.ndim}")
    out, dim = input, 0        # dim: where the next item applies in ``out``
    for position, item in zip(positions, items):
        if item is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif isinstance(item, slice):
            _check_step(item)
            if not _whole(item, out.shape[dim]):
                out = _slice(out, dim, item)
            dim += 1
        else:
            size = out.shape[dim]
            if not -size <= item < size:
                raise IndexError(
                    f"index {item} is out of bounds for dimension {position} with size {size}")
            out = select(out, dim, item)
    if out is input and full_view and alias:     # x[:, :] still makes a new (view) tensor
        return _make_view(result(with_pytorch_steps(input).view(), AliasBackward0, (input,)), input)
    return out


class AliasBackward0(Node):
    """result = self, seen through a new tensor (x[...])   ->   grad_self = grad"""

    def backward(self, grad):
        return (grad,)


def _indices_as_saved(node, ndim):
    """``grad_fn._saved_indices`` as PyTorch's node shows it: one entry per dimension indexed,
    up to the last indexed one - the index tensor as given (a list as an int64 or bool tensor,
    a k-dim mask as itself), None for a dimension taken whole (``:`` or ``...``)."""
    saved = node._saved
    if saved is FREED:
        raise RuntimeError(FREED_MESSAGE)
    given = {id(t._array): t for t in saved or () if isinstance(t, Tensor)}
    used = sum(1 if isinstance(item, slice) else _dims_used(item)
               for item in node.index if item is not Ellipsis and item is not None)
    shown = []
    for item in node.index:
        if item is Ellipsis:
            shown.extend([None] * (ndim - used))      # (the dimensions it stands for)
        elif isinstance(item, slice):
            shown.append(None)
        elif item is not None:
            tensor = given.get(id(item))
            if tensor is None:          # a list: PyTorch made an int64 (or bool) tensor of it
                array = np.asarray(item)
                tensor = _wrap(array if array.dtype == bool else array.astype(np.int64))
            shown.append(tensor)
    while shown and shown[-1] is None:
        shown.pop()
    return tuple(shown)


class IndexBackward0(Node):
    """result = self[indices] (lists, tensors, masks)   ->
        grad_self = zeros, with grad added at indices"""

    _saved_indices = property(lambda self: _indices_as_saved(self, len(self.input_shape)))

    def backward(self, grad):
        self.saved_tensors            # (the index tensors: checked for in-place changes)
        # PyTorch adds into zeros in place (its node: IndexPutImplBackward0), so the gradient
        # is at version 1
        zeros = _wrap(np.zeros(self.input_shape, dtype=grad._array.dtype))
        grad_self = index_put(zeros, self.index, grad, accumulate=True, node_class=IndexPutImplBackward0)
        bump_version(grad_self)
        return (grad_self,)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t[indices]"""
        return tangents[0][self.index]


def _is_basic(item):
    return isinstance(item, _BASIC) and not isinstance(item, bool)


def _check_zero_dim(input, index):
    """PyTorch's own messages for indexing a 0-d tensor with one item (not a tuple):
    ``x[0]``, ``x[5]``, ``x[:1]``, ``x[1.5]``; in a tuple, or with a list, it is the usual
    "too many indices"."""
    if input.ndim:
        return
    if type(index) is int:
        if index == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        size = input._stale_size      # (0, but where PyTorch's kernel left another: shrunk_to_0d)
        if -size <= index < size:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        raise IndexError(f"index {index} is out of bounds for dimension 0 with size {size}")
    if isinstance(index, slice):
        _check_step(index)
        # PyTorch records the slice before it finds the tensor has no dimension to slice
        check_history_kept(input)
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if isinstance(index, (float, str)) or (isinstance(index, Tensor) and index._array.dtype != bool):
        raise IndexError("too many indices for tensor of dimension 0")


_SEQUENCE_AS_TUPLE = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in "
    "pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as "
    "tensor index, x[torch.tensor(seq)], which will result either in an error or a different result")


def _sequence_as_tuple(index):
    """PyTorch's (and old numpy's) rule: a short list holding a list, tensor, slice, ``...``
    or None is read as a tuple (``x[[[0, 0]]]`` is ``x[[0, 0]]``), with a deprecation warning."""
    if not isinstance(index, list) or len(index) >= 32:
        return False
    if any(isinstance(item, (Tensor, list, tuple, str, slice)) or item is None or item is Ellipsis
           for item in index):
        warnings.warn(_SEQUENCE_AS_TUPLE, UserWarning, stacklevel=stacklevel_outside_minigrad())
        return True
    return False


def _index_items(index):
    """The parts of an index as a tuple; PyTorch reads only the first ``...`` (numpy allows one)."""
    items = index if isinstance(index, tuple) else tuple(index) if _sequence_as_tuple(index) else (index,)
    if sum(item is Ellipsis for item in items) > 1:
        first = items.index(Ellipsis)
        items = items[:first + 1] + tuple(item for item in items[first + 1:] if item is not Ellipsis)
    return items


def _getitem_in_vmap(input, index):
    """input[index] inside vmap: batched if input or an index tensor is."""
    _refuse_batched_mask(index)
    return batched_as(getitem(input, index, _vmap_done=True), index)


def _refuse_batched_mask(index):
    """Inside vmap, a boolean mask that is batched would pick a different number of elements
    in each sample: PyTorch refuses it."""
    for item in index if isinstance(index, tuple) else (index,):
        if isinstance(item, Tensor) and item._vmap_levels and item._array.dtype == np.bool_:
            raise RuntimeError("vmap: We do not support batching operators that can support dynamic "
                               "shape. Attempting to batch over indexing with a boolean mask.")


def getitem(input, index, _vmap_done=False):
    """``input[index]`` (x[0], x[1:, 2], x[[0, 2]], x[mask], ...), recorded as PyTorch records
    it (see the top of this file)."""
    if _FuncTransforms.vmaps and not _vmap_done:     # (_vmap_done: called back from there)
        return _getitem_in_vmap(input, index)
    _check_zero_dim(input, index)
    items = _converted_items(input._array.shape, _index_items(index))
    if all(_is_basic(i) for i in items):
        if isinstance(index, slice):         # x[a:b] alone is always a slice (SliceBackward0)
            _check_step(index)
            return _slice(input, 0, index)
        return _basic_getitem(input, items)
    if input.ndim == 0 and len(items) == 1 and np.ndim(items[0]) == 0:
        # x[mask] on a 0-d tensor: PyTorch indexes x.unsqueeze(0) with mask.unsqueeze(0)
        input, items = input.unsqueeze(0), (np.reshape(items[0], (1,)),)
    elif input.ndim == 0 and any(not _is_basic(i) and not _is_scalar_bool(i) for i in items):
        raise IndexError("too many indices for tensor of dimension 0")
    split = _split_mixed(items)
    if split:
        # Mixed, e.g. x[1:, [0, 2]] or x[0, :, [0, 1]]: like PyTorch, apply the integers,
        # slices and None first (Select/Slice/UnsqueezeBackward0), then the lists, tensors
        # and masks in one IndexBackward0 on that result.
        basic, rest = split
        input, items = _basic_getitem(input, basic, alias=False), rest
    return advanced_index(input, items, _index_tensors(index))


def _index_tensors(index):
    """The tensors in an index (integer tensors and masks): PyTorch saves them for backward,
    so changing one in place before backward fails as for any saved tensor."""
    items = index if isinstance(index, (tuple, list)) else (index,)
    return tuple(item for item in items if isinstance(item, Tensor) and item.ndim)


def _is_scalar_bool(item):
    """x[True], x[None, False], x[torch.tensor(True)]: a bool that is not a mask of any dimension."""
    return type(item) is np.ndarray and item.ndim == 0 and item.dtype == bool


def _split_mixed(items):
    """For an index that mixes integers, slices or None with lists, tensors or masks: the
    basic part (applied first, as views) and the rest (applied to that view); else None.

    A single bool (x[None, True]) is, as in PyTorch, a new dimension of size 1 in the basic
    part (an unsqueeze), which the rest then indexes with [0] for True, [] for False."""
    if not any(i is None or isinstance(i, int) or (isinstance(i, slice) and i != slice(None))
               for i in items if _is_basic(i)) and not any(_is_scalar_bool(i) for i in items):
        return None
    basic, rest = [], []
    for item in items:
        if _is_scalar_bool(item):
            basic.append(None)
            rest.append(np.zeros(int(item), dtype=np.int64))
        elif _is_basic(item):
            basic.append(item)
            if item is Ellipsis:
                rest.append(Ellipsis)
            elif not isinstance(item, int):       # an integer's dimension is gone
                rest.append(slice(None))
        else:
            # a k-dimensional mask covers k dimensions
            covered = _dims_used(item)
            basic.extend([slice(None)] * covered)
            rest.append(item)
    return tuple(basic), tuple(rest)


@history_first
def advanced_index(input, items, index_tensors=()):
    """``input[items]`` for lists, integer tensors and masks: one IndexBackward0 (which saves
    ``index_tensors``, the tensors ``items`` were made from)."""
    _check_index_dtypes(items)
    try:
        out = np.asarray(input._array[items])
    except IndexError as error:
        raise _out_of_range(error, input._array.shape, items) from None
    out = _laid_out_as_pytorch(out, input._array, items)
    # (the index is saved even without tensors, so a second backward raises as in PyTorch)
    return result(out, IndexBackward0, (input,), saved=index_tensors, input_shape=input._array.shape,
                  index=items)


# --- the memory layout of x[indices] -------------------------------------------------------------
# PyTorch computes x[indices] with a TensorIterator over x (restrided: a step of 0 along the
# dimensions that the indices replace) and the index tensors, and lays the new result out in
# the order of the steps its inputs take through memory (so a transposed x gives a
# transposed-looking result). The order matters to what a learner can see: stride(), and
# whether a later in-place copy from the result overlaps.


def _index_operands(shape, strides, items):
    """The steps (per result dimension) of PyTorch's operands for x[items]: x restrided,
    then each index tensor; and the result's shape."""
    items = list(items)
    if Ellipsis in [i if i is Ellipsis else None for i in items]:
        at = next(k for k, i in enumerate(items) if i is Ellipsis)
        used = sum(1 if not isinstance(i, np.ndarray) or i.dtype != bool else i.ndim
                   for i in items if i is not Ellipsis)
        items[at:at + 1] = [slice(None)] * (len(shape) - used)
    per_dim = []                     # one index array (or None) per dimension of x
    for item in items:
        array = item if isinstance(item, np.ndarray) else (None if isinstance(item, slice) else np.asarray(item))
        if array is not None and array.dtype == bool:
            # a k-dimensional mask: k index tensors, the columns of mask.nonzero() (N x k)
            positions = np.stack(np.nonzero(array), axis=1) if array.ndim else np.zeros((int(array), 0))
            per_dim += [np.lib.stride_tricks.as_strided(
                positions[:, j], strides=(array.ndim * 8,)) for j in range(array.ndim)]
        else:
            per_dim.append(array)
    per_dim += [None] * (len(shape) - len(per_dim))
    indexed = [d for d, a in enumerate(per_dim) if a is not None]
    arrays = np.broadcast_arrays(*[per_dim[d] for d in indexed])
    if indexed != list(range(indexed[0], indexed[-1] + 1)):
        # not side by side: PyTorch moves the indexed dimensions to the front first
        order = indexed + [d for d in range(len(shape)) if d not in indexed]
        shape, strides, per_dim = ([v[d] for d in order] for v in (shape, strides, per_dim))
        indexed = list(range(len(indexed)))
    before, after = indexed[0], len(shape) - indexed[-1] - 1
    replaced = arrays[0].shape
    result_shape = tuple(shape[:before]) + replaced + tuple(shape[before + len(indexed):])
    source = list(strides[:before]) + [0] * len(replaced) + list(strides[before + len(indexed):])
    operands = [source]
    for array in arrays:
        steps = [s // array.itemsize if array.itemsize else 0 for s in array.strides]
        operands.append(_with_size_one_dims(steps, replaced, before, after))
    for steps in operands[1:]:       # broadcast along dims of size 1 that the result doesn't have
        for d, size in enumerate(result_shape):
            if size != 1 and (d < before or d >= before + len(replaced)):
                steps[d] = 0
    return operands, result_shape


def _with_size_one_dims(steps, shape, before, after):
    """The steps of an index tensor reshaped to [1] * before + shape + [1] * after (a view):
    the new leading dims step over its first contiguous run, the trailing ones as its last dim."""
    if not shape:
        return [1] * (before + after)
    first_run = 0
    while first_run + 1 < len(shape) and (shape[first_run + 1] == 1 or
                                          steps[first_run] == steps[first_run + 1] * shape[first_run + 1]):
        first_run += 1
    lead = int(np.prod(shape[:first_run + 1])) * steps[first_run]
    return [lead] * before + list(steps) + [steps[-1]] * after


def _laid_out_as_pytorch(values, source, items):
    """``values`` (the result of x[items], from numpy) in new memory laid out as PyTorch's."""
    own = values.copy() if values.base is not None or np.shares_memory(values, source) else values
    if values.ndim < 2:
        return own                       # one way to lay it out
    try:
        operands, shape = _index_operands(source.shape, [s // source.itemsize for s in source.strides],
                                          items)
    except (ValueError, IndexError):     # (numpy accepted what this reading can't follow)
        return own
    if tuple(shape) != values.shape:
        return own
    order = memory_order(operands, shape)
    slowest_first = order[::-1]
    out = np.empty([shape[d] for d in slowest_first], dtype=values.dtype)
    out = out.transpose(np.argsort(slowest_first))
    out[...] = values
    return out


class IndexPutBackward0(Node):
    """result = self with values written (or added) at indices   ->
        grad_self = grad, 0 where overwritten (all of grad when added);
        grad_values = grad[indices]"""

    _saved_indices = property(lambda self: _indices_as_saved(self, len(self.input_shape)))

    def backward(self, grad):
        self.saved_tensors            # (the index tensors: checked for in-place changes)
        grad_self = grad
        if not self.accumulate:         # zeros written where values went (even over nan)
            zeros = _wrap(np.zeros(self.values_shape, dtype=grad._array.dtype))
            grad_self = index_put(grad, self.index, zeros)
        return grad_self, grad[self.index]

    def jvp(self, tangents, inputs, out):
        """result_t = self_t with values_t written (or added) at indices"""
        return index_put(tangents[0], self.index, tangents[1], self.accumulate)


def index_put(input, index, values, accumulate=False, node_class=IndexPutBackward0, index_tensors=None):
    """A copy of ``input`` with ``values`` written (or, with accumulate, added) at ``index``
    (``index_tensors``: the tensors it was made from, saved, if ``index`` holds numpy arrays)."""
    if not isinstance(index, tuple):
        index = (index,)
    if index_tensors is None:
        index_tensors = _index_tensors(index)
    index = tuple(_numpy_index(i) for i in index)
    _check_index_dtypes(index)
    values_array = values._array if isinstance(values, Tensor) else np.asarray(values)
    out = input._array.copy(order="K")      # (PyTorch's clone keeps input's order in memory)
    try:
        if accumulate:
            np.add.at(out, index, values_array)
        else:
            out[index] = values_array
    except IndexError as error:
        raise _out_of_range(error, out.shape, index) from None
    except ValueError:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(np.shape(values_array))} cannot be broadcast "
            f"to indexing result of shape {list(out[index].shape)}") from None
    # (the indices are saved even without tensors, so a second backward raises as in PyTorch)
    return result(out, node_class, (input, values), saved=index_tensors, input_shape=input._array.shape,
                  index=index, accumulate=accumulate, values_shape=np.shape(values_array))


class IndexPutImplBackward0(IndexPutBackward0):
    """result = zeros with g added at indices (indexing's backward, recorded)   ->
        grad_g = grad[indices]"""


# PyTorch's index_put nodes show only these settings (with _saved_indices, above)
_SETTINGS_KEPT_AS["IndexPutBackward0"] = _SETTINGS_KEPT_AS["IndexPutImplBackward0"] = {
    "accumulate": "accumulate"}


def _broadcast_value(value, shape):
    """Like PyTorch's x[i] = v: v viewed without its leading size-1 dims (a view is recorded
    even when nothing is dropped), then expanded to the target's shape if it differs."""
    value = value.view(value.shape[_leading_ones(value.shape):])
    if value.shape != shape:
        value = value.expand(shape)      # a mismatch raises PyTorch's message for x[i] = v
    return value


def _leading_ones(shape):
    """How many size-1 dims ``shape`` starts with (PyTorch's x[i] = v drops them from v)."""
    lead = 0
    while lead < len(shape) and shape[lead] == 1:
        lead += 1
    return lead


def check_index_put_values(tensor, indices, value):
    """index_put's checks of its values, in PyTorch's order (before any position is looked
    at): the indices' dtypes, that the values broadcast to the indexed part's shape, that
    their dtype is the tensor's."""
    index = tuple(_numpy_index(i) for i in indices)
    _check_index_dtypes(index)
    if isinstance(value, Tensor):
        # (the indexed part's shape, each position moved into range: a position out of range
        # is reported later, by the kernel)
        clipped, dim = [], 0
        for item in index:
            if isinstance(item, (int, np.ndarray)) and np.asarray(item).dtype.kind in "iu" and \
                    dim < tensor.ndim and tensor.shape[dim]:
                item = np.clip(item, -tensor.shape[dim], tensor.shape[dim] - 1)
            clipped.append(item)
            dim += item.ndim if isinstance(item, np.ndarray) and item.dtype == bool else 1
        try:
            shape = np.empty(tensor.shape, dtype=bool)[tuple(clipped)].shape
        except (IndexError, ValueError) as error:
            if "could not be broadcast" in str(error) or "boolean index did not match" in str(error):
                raise _out_of_range(error, tensor.shape, tuple(clipped)) from None
            shape = None                # (a position in a dim of size 0: the kernel says so)
        if shape is not None and not _broadcasts_to(value.shape, shape):
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(value.shape)} cannot be "
                               f"broadcast to indexing result of shape {list(shape)}")
    _check_index_put_dtype(tensor, value)


def _broadcasts_to(shape, target):
    try:
        return np.broadcast_shapes(tuple(shape), tuple(target)) == tuple(target)
    except ValueError:
        return False


def _check_index_put_dtype(tensor, value):
    if isinstance(value, Tensor) and value._array.dtype != tensor._array.dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{cpp_name(tensor.dtype).capitalize()} for the destination and "
            f"{cpp_name(value.dtype).capitalize()} for the source.")


def _written_in_loop_order(tensor, items, value, index_tensors):
    """``tensor[items] = value`` (an index_put_) into memory seen at several positions, with
    the values PyTorch's loop leaves (``overlapping_writes.index_put``); None for an index it
    does not replay."""
    from . import overlapping_writes
    operation = lambda old, v: index_put(old, items, v, index_tensors=index_tensors)    # noqa: E731
    operation(_wrap(tensor._array), value.detach())        # PyTorch's errors first
    values = overlapping_writes.index_put(tensor._array, items, value._array.astype(tensor._array.dtype),
                                          accumulate=False)
    if values is None:
        return None

    def with_those_values(old, v):
        new = operation(old, v)
        new._array[...] = values
        return new
    apply_inplace(tensor, with_those_values, value, overlap_ok=True)
    return tensor


def setitem(tensor, index, value, _index_tensors_given=None):
    """``tensor[index] = value``, in place.

    As in PyTorch: with integers and slices the target is a view of ``tensor``
    that is filled (a number or a 0-d tensor) or copied into (a tensor), so a recorded change
    shows up as ``CopySlices`` on the base; with lists, tensors or masks it is
    one ``index_put_`` (``IndexPutBackward0``).
    """
    if not isinstance(value, (Tensor, int, float, bool, np.number, np.bool_)):
        # (PyTorch makes the value a tensor before it looks at the index)
        kind = type(value)
        kind = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
        raise TypeError(f"can't assign a {kind} to a torch."
                        f"{tensor.dtype.tensor_type_name}")
    if index is False:
        return                      # PyTorch writes nothing, and checks nothing else
    if index is True:               # PyTorch writes through the view x.unsqueeze(0)
        return setitem(tensor.unsqueeze(0), Ellipsis, value)
    _check_zero_dim(tensor, index)
    items = _index_items(index)
    index_tensors = _index_tensors(items) if _index_tensors_given is None else _index_tensors_given
    items = _converted_items(tensor._array.shape, items)
    if all(_is_basic(i) for i in items):
        target = _basic_getitem(tensor, items, full_view=False)
        if not isinstance(value, Tensor):          # a number becomes a 0-d tensor first
            value = _wrap(np.asarray(value, dtype=tensor._array.dtype))
        if value.shape != target.shape and value.ndim:
            value = _broadcast_value(value, target.shape)     # its errors come first
        if target._base is not None and _overlaps(target._array) and not (
                value.ndim and _same_elements(target, value)):
            check_inplace(target, others=(value,))     # raises: memory seen twice (or autograd first)
            # (but a copy from the very same elements copies nothing, and checks nothing)
        if value.ndim == 0 and target.ndim:
            target.fill_(value)                    # PyTorch fills with a 0-d value
        else:
            target.copy_(value)
        return
    if tensor.ndim == 0 and not (len(items) == 1 and np.ndim(items[0]) == 0) and not any(
            _is_scalar_bool(i) for i in items):
        raise IndexError("too many indices for tensor of dimension 0")     # y[[0]] = v
    if _FuncTransforms.vmaps:     # a captured tensor can't take one value per sample
        check_inplace_batching("index_put_", tensor, (value, index))
        _refuse_batched_mask(index)
    split = _split_mixed(items)
    if split:
        # x[0, [0, 2]] = v: as when reading, the integers, slices and None make a view first;
        # the lists, tensors and masks then write into it (so the base gets CopySlices)
        basic, rest = split
        view = _basic_getitem(tensor, basic, alias=False)
        if view is not tensor:
            return setitem(view, rest, value, index_tensors)
    one_mask = len(items) == 1 and np.asarray(items[0]).dtype == bool
    if tensor.ndim == 0 and one_mask:
        # as when reading x[mask]: PyTorch writes through the view x.unsqueeze(0)
        view = tensor.unsqueeze(0)
        check_inplace(view, overlap_ok=True, others=(value,))
        _check_index_put_dtype(tensor, value)
        return setitem(view, (np.reshape(items[0], (1,)),), value, index_tensors)
    # PyTorch still allows writing at positions of memory seen twice (expand), with a warning
    check_inplace(tensor, overlap_ok=True, others=(value,))
    if isinstance(value, Tensor) and not (one_mask and value._array.size == 1) and (
            value._version_counter is tensor._version_counter or _shares_memory_unversioned(tensor, value)):
        # index_put_ refuses values over the tensor's memory before it looks at the indices (not
        # x[mask] = one value, which it hands to masked_fill_)
        _check_partial_overlap(tensor, value, full_ok=False)
    # index_put_ takes the parts left to right: a mask that does not fit, or a tensor that
    # cannot index, whichever comes first
    for position in range(len(items)):
        mismatch = _mask_mismatch(tensor._array.shape, items, last=position)
        if mismatch is not None:
            raise mismatch
        _check_index_dtypes(items[position:position + 1])
    if not one_mask:              # x[mask] = v is a masked_fill: v may have any dtype
        _check_index_put_dtype(tensor, value)
    if not tensor._array.flags.writeable or (tensor._base is not None and _overlaps(tensor._array)):
        warnings.warn("Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor "
                      "before performing this operation. This also applies to advanced indexing e.g. "
                      "tensor[indices] = tensor", UserWarning, stacklevel=3)
        if one_mask and np.size(getattr(value, "_array", value)) == 1:
            # PyTorch writes x[mask] = one value with masked_fill_, which warns in its turn
            warnings.warn(EXPANDED_MASKED_FILL_WARNING, UserWarning, stacklevel=3)
        _writeable(tensor)
    if not isinstance(value, Tensor):
        value = _wrap(np.asarray(value, dtype=tensor._array.dtype))
    elif value.ndim and value.shape[0] == 1:
        # PyTorch views the value without its leading size-1 dims first (recorded, a
        # ViewBackward0), only when there are some (the basic path above always views it)
        value = value.view(value.shape[_leading_ones(value.shape):])
    if _overlaps(tensor._array) or overlaps_itself(tensor._array):
        # memory seen at several positions: PyTorch's loop writes a location once per position
        written = _written_in_loop_order(tensor, items, value, index_tensors)
        if written is not None:
            return written
    if _DualLevel.open and not needs_grad((tensor, value)):    # forward mode: tangents need this path
        return apply_inplace(tensor, lambda old, v: index_put(old, items, v), value, overlap_ok=True)
    if not needs_grad((tensor, value)):
        try:
            tensor._array[items] = value._array
        except IndexError as error:
            raise _out_of_range(error, tensor._array.shape, items) from None
        except ValueError:
            # value does not broadcast to the indexed part
            raise RuntimeError(
                f"shape mismatch: value tensor of shape {list(value.shape)} cannot be broadcast to "
                f"indexing result of shape {list(tensor._array[items].shape)}") from None
        bump_version(tensor)
        return
    apply_inplace(tensor, lambda old, v: index_put(old, items, v, index_tensors=index_tensors), value,
                  overlap_ok=True)
