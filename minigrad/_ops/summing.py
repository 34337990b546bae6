"""Sums that skip or count: nansum, nanmean and count_nonzero.

* ``nansum`` adds the elements as ``sum`` does, counting each nan as 0. Its gradient is
  sum's (grad copied back along the summed dimensions) times 0 where the input was nan:
  a nan that was left out has no effect on the sum.
* ``nanmean`` is the mean of the elements that are not nan: PyTorch computes it as nansum
  divided by how many are not nan, so its graph is a DivBackward0 of a NansumBackward0.
* ``count_nonzero`` counts the elements that are not 0 (int64). A count has no gradient:
  it is never recorded.

PyTorch: torch.nansum, torch.nanmean, torch.count_nonzero.
"""
import numpy as np

from .._type_names import type_name
from .._python_arg_parser import invalid_combination
from .._dtype import from_numpy_dtype
from .._tensor import _normalize_dim
from ..autograd.graph import Node
from . import numpy_keywords, plain_output, result
from .nonfinite import isnan
from .reduction import _dims, _expand_back
from .views import history_first
from ..autograd.kernel_writes import kernel_writes


class NansumBackward0(Node):
    """result = self.nansum(dim)   ->   grad_self = grad (dims kept).expand(self.shape) * ~isnan(self)"""

    _saved_names = ("self",)             # grad_fn._saved_self, as in PyTorch (and dim, keepdim)

    def backward(self, grad):
        (input,) = self.saved_tensors
        expanded = _expand_back(grad, input._array.shape, self._dims, self.keepdim)
        return (expanded * isnan(input).logical_not(),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t, 0 where self is nan, summed over dim"""
        kept = tangents[0].masked_fill(isnan(inputs[0]), 0)
        if self.dim is None:
            return kept.sum()
        return kept.sum(dim=self._dims, keepdim=self.keepdim)


def _dim_as_tuple(name, dim):
    """dim as PyTorch keeps it: None, or a tuple of ints (an int becomes a 1-tuple)."""
    if dim is None:
        return None
    if isinstance(dim, (int, np.integer)) and not isinstance(dim, bool):
        return (int(dim),)
    if isinstance(dim, (tuple, list)) and all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in dim):
        return tuple(int(d) for d in dim)
    raise TypeError(f"{name}(): argument 'dim' must be tuple of ints, not {type_name(dim)}")


@history_first
@numpy_keywords
def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """The sum of the elements (over ``dim`` if given), counting nan as 0. Integers give int64.

    Gradient: grad copied back along the summed dimensions, 0 where the input was nan.
    """
    dim = _dim_as_tuple("nansum", dim)
    array = input._array
    out_dtype = dtype.numpy_dtype if dtype is not None else (
        np.dtype(np.int64) if array.dtype.kind in "biu" else array.dtype)
    dims = _dims(dim, array.ndim) if dim else ()       # () and None: every dimension
    axis = dims or None
    if array.dtype.kind == "f":
        with np.errstate(invalid="ignore", over="ignore"):    # (inf + -inf: NaN, silently)
            summed = np.nansum(array, axis=axis, keepdims=keepdim, dtype=out_dtype)
    else:
        summed = np.sum(array, axis=axis, keepdims=keepdim, dtype=out_dtype)
    if keepdim and not dims:                 # (every dimension kept, each of size 1)
        summed = np.reshape(summed, (1,) * array.ndim)
    # new row-major memory, with the steps PyTorch gives size-1 dimensions too
    out = np.empty(np.shape(summed), dtype=out_dtype)
    out[...] = summed
    out = result(out, NansumBackward0, (input,), saved=(input,), dim=dim, keepdim=keepdim, _dims=dims)
    return kernel_writes("nansum", out, input)      # (an empty result, then nansum's out= variant)


@history_first
@numpy_keywords
def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    """The mean of the elements that are not nan (over ``dim`` if given); nan if all are nan.

    Computed as PyTorch does: nansum / (number of elements that are not nan), so the gradient
    is nansum's divided by that count (the count itself has no gradient).
    """
    if input._array.dtype.kind not in "fc":
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but got "
                           f"{from_numpy_dtype(input._array.dtype).tensor_type_name[:-6]}")
    _dim_as_tuple("nanmean", dim)            # (PyTorch's TypeError for a dim that is no int)
    not_nan = isnan(input).logical_not()
    count = not_nan.sum(dim=dim, keepdim=keepdim) if dim is not None else not_nan.sum()
    return nansum(input, dim, keepdim, dtype=dtype) / count


def count_nonzero(input, *dim, **keywords):
    """How many elements are not 0 (over ``dim``, an int or a tuple of ints, if given), int64.

    Never recorded: a count has no gradient.
    """
    return _count_nonzero(input, dim, keywords, shown=(input,))


def count_nonzero_method(self, *dim, **keywords):
    """``x.count_nonzero(dim)``: as the function, but the dims may also come one by one
    (``x.count_nonzero(0, 1)``), and PyTorch's messages leave ``x`` out."""
    if len(dim) > 1 and _is_int(dim[0]):
        dim = (dim,)
    return _count_nonzero(self, dim, keywords, shown=())


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _count_nonzero(input, positional, keywords, shown):
    """count_nonzero after PyTorch's argument parser: its two signatures are (input, int dim=None)
    and (input, tuple of ints dim); anything else (keepdim=True, two dims) matches neither."""
    if len(positional) > 1 or set(keywords) - {"dim"} or (positional and keywords):
        # (PyTorch lists the keywords last given first)
        raise invalid_combination("count_nonzero", shown + positional, dict(reversed(keywords.items())))
    dim = positional[0] if positional else keywords.get("dim")
    array = input._array
    if dim is None:
        return plain_output(np.asarray(np.count_nonzero(array), dtype=np.int64), input)
    if not (_is_int(dim) or (isinstance(dim, (tuple, list)) and (not dim or _is_int(dim[0])))):
        raise invalid_combination("count_nonzero", shown + positional, keywords)
    dims = (dim,) if _is_int(dim) else tuple(dim)
    for position, d in enumerate(dims):
        if not _is_int(d):                  # a tuple that starts with an int, then isn't one
            raise TypeError(f"count_nonzero(): argument 'dim' failed to unpack the object at pos "
                            f"{position + 1} with error \"type must be tuple of ints,but got "
                            f"{type(d).__name__}\"")
    dims = _dims(tuple(_normalize_dim(d, array.ndim) for d in dims), array.ndim)
    count = np.count_nonzero(array, axis=dims) if dims else np.count_nonzero(array)
    return plain_output(np.asarray(count, dtype=np.int64, order="C"), input)


def sum_to_size(self, *size):
    """``self`` summed down to ``size`` (a shape ``self`` could be expanded from): the sum over
    the leading dims ``size`` lacks and over the dims where ``size`` has 1 - what the engine
    does to a gradient that was broadcast. ``self`` itself when nothing needs summing.

    Gradient: grad expanded back (SumBackward1, then ViewBackward0 when leading dims went).
    """
    if not size:
        raise TypeError('sum_to_size() missing 1 required positional arguments: "size"')
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    shape = self._array.shape
    leading = len(shape) - len(size)
    if leading < 0 or any(n != 1 and n != m for n, m in zip(size, shape[leading:])):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    if not size:
        return self.sum()
    dims = list(range(leading)) + [leading + d for d, n in enumerate(size)
                                   if n == 1 and shape[leading + d] != 1]
    out = self.sum(dims, keepdim=True) if dims else self
    return out.view(size) if leading > 0 else out
