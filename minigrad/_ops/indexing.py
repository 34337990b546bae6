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
from ..autograd.graph import Node, needs_grad
from ..autograd.forward_ad import _DualLevel
from . import result
from .._dtype import cpp_name
from .shape import select, _make_view
from .inplace import check_inplace, apply_inplace, bump_version, _overlaps, _writeable, _same_elements

_BASIC = (int, slice, type(None), type(Ellipsis))


def _numpy_index(item):
    """Tensors used as indices become numpy arrays (or plain ints for 0-d integer tensors)."""
    if isinstance(item, Tensor):
        array = item._array
        if array.ndim == 0 and array.dtype.kind in "iu":
            return int(array)
        if array.dtype.kind not in "iub":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return array
    if isinstance(item, (list, np.ndarray)):
        array = np.asarray(item)
        # PyTorch makes a list of floats an index tensor of whole numbers (truncating them)
        return array.astype(np.int64) if isinstance(item, list) and array.dtype.kind == "f" else array
    if isinstance(item, bool):
        return np.asarray(item)
    if isinstance(item, float):
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                         "Variables are valid indices (got float)")
    if isinstance(item, str):
        raise TypeError("new(): invalid data type 'str'")
    return item


def _mask_mismatch(shape, items):
    """PyTorch's message for a bool mask that does not fit: whole shapes, first clash."""
    dim = 0
    for item in items:
        if item is None:
            continue
        if item is Ellipsis:
            return None
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
    return IndexError(str(error).replace("axis", "dimension"))


class SliceBackward0(Node):
    """result = self[start:stop:step] along dim   ->
        grad_self = zeros, with grad at those positions"""

    def backward(self, grad):
        full = np.zeros(self.input_shape, dtype=grad._array.dtype)
        full[self.index] = grad._array
        # recorded as PyTorch's slice_backward, so that create_graph=True can differentiate it
        return (result(full, SliceBackwardBackward0, (grad,), index=self.index),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t[start:stop:step] along dim"""
        return tangents[0][self.index]


class SliceBackwardBackward0(Node):
    """result = zeros with g placed at a slice (slice's backward, recorded)   ->
        grad_g = grad[slice]"""

    def backward(self, gg):
        return (gg[self.index],)


def _slice(input, dim, item):
    index = (slice(None),) * dim + (item,)
    out = result(input._array[index], SliceBackward0, (input,), input_shape=input._array.shape,
                 index=index)
    return _make_view(out, input)


def _covers(item, size):
    """True for a slice that keeps every element in order (x[0:] = v writes into x itself)."""
    return item.indices(size) == (0, size, 1)


def _basic_getitem(input, items, full_view=True):
    """Apply integers, slices and None one dimension at a time.

    ``x[:]`` and ``x[...]`` still make a new (view) tensor, unless ``full_view`` is False
    (``x[:] = v`` writes into ``x`` itself, as in PyTorch).
    """
    has_ellipsis = any(i is Ellipsis for i in items)
    if has_ellipsis:
        at = items.index(Ellipsis)
        used = sum(1 for i in items if i is not None and i is not Ellipsis)
        items = items[:at] + (slice(None),) * (input.ndim - used) + items[at + 1:]
    if sum(1 for i in items if i is not None) > input.ndim:
        raise IndexError(f"too many indices for tensor of dimension {input.ndim}")
    out, dim = input, 0        # dim: where the next item applies in ``out``
    for position, item in enumerate(items):
        if item is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif isinstance(item, slice):
            if item != slice(None) and (full_view or not _covers(item, out.shape[dim])):
                out = _slice(out, dim, item)
            dim += 1
        else:
            size = out.shape[dim]
            if not -size <= item < size:
                # PyTorch's message counts the position among all index items (None too)
                raise IndexError(
                    f"index {item} is out of bounds for dimension {position} with size {size}")
            out = select(out, dim, item)
    if out is input and full_view:       # x[:] still makes a new (view) tensor
        if has_ellipsis or not input.ndim:
            return _make_view(result(input._array.view(), AliasBackward0, (input,)), input)
        out = _slice(input, 0, slice(None))
    return out


class AliasBackward0(Node):
    """result = self, seen through a new tensor (x[...])   ->   grad_self = grad"""

    def backward(self, grad):
        return (grad,)


class IndexBackward0(Node):
    """result = self[indices] (lists, tensors, masks)   ->
        grad_self = zeros, with grad added at indices"""

    def backward(self, grad):
        # PyTorch adds into zeros in place (its node: IndexPutImplBackward0)
        zeros = _wrap(np.zeros(self.input_shape, dtype=grad._array.dtype))
        return (index_put(zeros, self.index, grad, accumulate=True, node_class=IndexPutImplBackward0),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t[indices]"""
        return tangents[0][self.index]


def _is_basic(item):
    return isinstance(item, _BASIC) and not isinstance(item, bool)


def _check_zero_dim(input, index):
    """PyTorch's own messages for ``x[0]`` and ``x[:1]`` on a 0-d tensor (a single integer or
    slice; in a tuple, or with a list, it is the usual "too many indices")."""
    if input.ndim:
        return
    if type(index) is int:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if isinstance(index, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")


def _index_items(index):
    """The parts of an index as a tuple; PyTorch reads only the first ``...`` (numpy allows one)."""
    items = index if isinstance(index, tuple) else (index,)
    if sum(item is Ellipsis for item in items) > 1:
        first = items.index(Ellipsis)
        items = items[:first + 1] + tuple(item for item in items[first + 1:] if item is not Ellipsis)
    return items


def getitem(input, index):
    _check_zero_dim(input, index)
    items = _index_items(index)
    items = tuple(_numpy_index(i) for i in items)
    if all(_is_basic(i) for i in items):
        return _basic_getitem(input, items)
    if input.ndim == 0 and len(items) == 1 and np.ndim(items[0]) == 0:
        # x[mask] on a 0-d tensor: PyTorch indexes x.unsqueeze(0) with mask.unsqueeze(0)
        input, items = input.unsqueeze(0), (np.reshape(items[0], (1,)),)
    elif input.ndim == 0 and any(not _is_basic(i) for i in items):
        raise IndexError("too many indices for tensor of dimension 0")
    if any(i is None or isinstance(i, int) or (isinstance(i, slice) and i != slice(None))
           for i in items if _is_basic(i)):
        # Mixed, e.g. x[1:, [0, 2]] or x[0, :, [0, 1]]: like PyTorch, apply the integers,
        # slices and None first (Select/Slice/UnsqueezeBackward0), then the lists, tensors
        # and masks in one IndexBackward0 on that result.
        basic, rest = [], []
        for item in items:
            if _is_basic(item):
                basic.append(item)
                if item is Ellipsis:
                    rest.append(Ellipsis)
                elif not isinstance(item, int):       # an integer's dimension is gone
                    rest.append(slice(None))
            else:
                # a k-dimensional mask covers k dimensions
                covered = np.ndim(item) if np.asarray(item).dtype == bool else 1
                basic.extend([slice(None)] * covered)
                rest.append(item)
        input, items = _basic_getitem(input, tuple(basic)), tuple(rest)
    try:
        out = np.asarray(input._array[items])
    except IndexError as error:
        raise _out_of_range(error, input._array.shape, items) from None
    if out.base is not None or np.shares_memory(out, input._array):
        out = out.copy()
    # saved=(): the index counts as saved, so a second backward raises as in PyTorch
    return result(out, IndexBackward0, (input,), saved=(), input_shape=input._array.shape,
                  index=items)


class IndexPutBackward0(Node):
    """result = self with values written (or added) at indices   ->
        grad_self = grad, 0 where overwritten (all of grad when added);
        grad_values = grad[indices]"""

    def backward(self, grad):
        grad_self = grad
        if not self.accumulate:
            mask = np.ones(self.input_shape, dtype=bool)
            mask[self.index] = False
            grad_self = grad * _wrap(mask)
        return grad_self, grad[self.index]

    def jvp(self, tangents, inputs, out):
        """result_t = self_t with values_t written (or added) at indices"""
        return index_put(tangents[0], self.index, tangents[1], self.accumulate)


def index_put(input, index, values, accumulate=False, node_class=IndexPutBackward0):
    """A copy of ``input`` with ``values`` written (or, with accumulate, added) at ``index``."""
    if not isinstance(index, tuple):
        index = (index,)
    index = tuple(_numpy_index(i) for i in index)
    values_array = values._array if isinstance(values, Tensor) else np.asarray(values)
    out = input._array.copy()
    try:
        if accumulate:
            np.add.at(out, index, values_array)
        else:
            out[index] = values_array
    except IndexError as error:
        raise _out_of_range(error) from None
    except ValueError:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(np.shape(values_array))} cannot be broadcast "
            f"to indexing result of shape {list(out[index].shape)}") from None
    return result(out, node_class, (input, values), input_shape=input._array.shape, index=index,
                  accumulate=accumulate)


class IndexPutImplBackward0(IndexPutBackward0):
    """result = zeros with g added at indices (indexing's backward, recorded)   ->
        grad_g = grad[indices]"""


def _broadcast_value(value, shape):
    """Like PyTorch's x[i] = v: v viewed without its leading size-1 dims (a view is recorded
    even when nothing is dropped), then expanded to the target's shape if it differs."""
    lead = 0
    while lead < value.ndim and value.shape[lead] == 1:
        lead += 1
    value = value.view(value.shape[lead:])
    if value.shape != shape:
        value = value.expand(shape)      # a mismatch raises PyTorch's message for x[i] = v
    return value


def _check_index_put_dtype(tensor, value):
    if isinstance(value, Tensor) and value._array.dtype != tensor._array.dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{cpp_name(tensor.dtype).capitalize()} for the destination and "
            f"{cpp_name(value.dtype).capitalize()} for the source.")


def setitem(tensor, index, value):
    """``tensor[index] = value``, in place.

    As in PyTorch: with integers and slices the target is a view of ``tensor``
    that is filled (a number or a 0-d tensor) or copied into (a tensor), so a recorded change
    shows up as ``CopySlices`` on the base; with lists, tensors or masks it is
    one ``index_put_`` (``IndexPutBackward0``).
    """
    _check_zero_dim(tensor, index)
    items = _index_items(index)
    items = tuple(_numpy_index(i) for i in items)
    if not isinstance(value, (Tensor, int, float, bool, np.number, np.bool_)):
        kind = type(value)
        kind = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
        raise TypeError(f"can't assign a {kind} to a minigrad."
                        f"{tensor.dtype.tensor_type_name}")
    if all(_is_basic(i) for i in items):
        target = _basic_getitem(tensor, items, full_view=False)
        if not isinstance(value, Tensor):          # a number becomes a 0-d tensor first
            value = _wrap(np.asarray(value, dtype=tensor._array.dtype))
        if value.shape != target.shape and value.ndim:
            value = _broadcast_value(value, target.shape)     # its errors come first
        if target._base is not None and _overlaps(target._array) and not (
                value.ndim and _same_elements(target, value)):
            check_inplace(target)                  # raises: memory seen twice
            # (but a copy from the very same elements copies nothing, and checks nothing)
        if value.ndim == 0 and target.ndim:
            target.fill_(value)                    # PyTorch fills with a 0-d value
        else:
            target.copy_(value)
        return
    if tensor.ndim == 0 and not (len(items) == 1 and np.ndim(items[0]) == 0):
        raise IndexError("too many indices for tensor of dimension 0")     # y[[0]] = v
    one_mask = len(items) == 1 and np.asarray(items[0]).dtype == bool
    if tensor.ndim == 0 and one_mask:
        # as when reading x[mask]: PyTorch writes through the view x.unsqueeze(0)
        view = tensor.unsqueeze(0)
        check_inplace(view, overlap_ok=True, others=(value,))
        _check_index_put_dtype(tensor, value)
        return setitem(view, (np.reshape(items[0], (1,)),), value)
    # PyTorch still allows writing at positions of memory seen twice (expand), with a warning
    check_inplace(tensor, overlap_ok=True, others=(value,))
    if not one_mask:              # x[mask] = v is a masked_fill: v may have any dtype
        _check_index_put_dtype(tensor, value)
    if not tensor._array.flags.writeable or (tensor._base is not None and _overlaps(tensor._array)):
        warnings.warn("Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor "
                      "before performing this operation. This also applies to advanced indexing e.g. "
                      "tensor[indices] = tensor", UserWarning, stacklevel=3)
        _writeable(tensor)
    if not isinstance(value, Tensor):
        value = _wrap(np.asarray(value, dtype=tensor._array.dtype))
    if _DualLevel.open and not needs_grad((tensor, value)):    # forward mode: tangents need this path
        return apply_inplace(tensor, lambda old, v: index_put(old, index, v), value, overlap_ok=True)
    if not needs_grad((tensor, value)):
        try:
            tensor._array[items] = value._array
        except IndexError as error:
            raise _out_of_range(error) from None
        except ValueError:
            # value does not broadcast to the indexed part
            raise RuntimeError(
                f"shape mismatch: value tensor of shape {list(value.shape)} cannot be broadcast to "
                f"indexing result of shape {list(tensor._array[items].shape)}") from None
        bump_version(tensor)
        return
    apply_inplace(tensor, lambda old, v: index_put(old, index, v), value, overlap_ok=True)
