"""The middle value: median and nanmedian.

``x.median()`` sorts the elements and takes the one in the middle; for an even count PyTorch
takes the lower of the two middle ones (no average: the median is always an element), so
the k-th smallest with k = (n - 1) // 2. A nan makes the median nan; ``nanmedian`` leaves
the nans out (and is nan only when every element is).

``x.median(dim)`` gives (values, indices) along ``dim``, like ``max(dim)``. When several
elements equal the median, PyTorch's index is that of the k-th element in a *stable* sort
(equal values keep their order), which is what numpy's ``argsort(kind="stable")`` gives.

The gradients are those of picking an element (``max``'s, in reduction.py): with ``dim``,
grad goes to the element at ``indices``; over all elements it is shared evenly among the
elements equal to the median (the nans, if the median is nan).
PyTorch: torch.median, torch.nanmedian.
"""
import numpy as np

from .._type_names import type_name
from .._tensor import _normalize_dim
from ..autograd.graph import Node
from . import numpy_keywords, plain_output, result, save_result
from .pointwise import kernel_not_implemented
from .triangular import is_int
from .reduction import (_extreme_all_backward, _extreme_all_jvp, _extreme_dim_backward,
                        _extreme_dim_jvp, return_types)
from .views import history_first
from ..autograd.kernel_writes import kernel_writes


class MedianBackward0(Node):
    """result = self.median() (all elements)   ->
        grad_self = grad / (number of elements equal to the median) at each of them, else 0"""

    _saved_names = ("self", "result")      # grad_fn._saved_self, _saved_result, as in PyTorch
    backward = _extreme_all_backward

    def jvp(self, tangents, inputs, out):
        """result_t = the mean of self_t over the elements equal to the median"""
        return _extreme_all_jvp(tangents, inputs, out)


class NanmedianBackward0(MedianBackward0):
    """result = self.nanmedian() (all elements)   ->
        grad_self = grad / (number of elements equal to the median) at each of them, else 0"""


class MedianBackward1(Node):
    """values, indices = self.median(dim)   ->   grad_self = zeros, with grad at indices"""

    backward = _extreme_dim_backward

    def jvp(self, tangents, inputs, out):
        """values_t = self_t at indices"""
        return _extreme_dim_jvp(self, tangents)


class NanmedianBackward1(MedianBackward1):
    """values, indices = self.nanmedian(dim)   ->   grad_self = zeros, with grad at indices"""


def _median_of_all(input, skip_nan):
    """The lower median of all elements, as a 0-d array (nan if a nan counts, or none is left)."""
    values = input._array.reshape(-1)
    if values.dtype.kind == "f":
        is_nan = np.isnan(values)
        if is_nan.any():
            if not skip_nan:
                return np.asarray(np.nan, dtype=values.dtype)
            values = values[~is_nan]
        if values.size == 0:
            return np.asarray(np.nan, dtype=values.dtype)
    elif values.size == 0:
        # PyTorch fills the result with NaN converted to the integer type the way x86 does: the
        # "integer indefinite" (the lowest int32 or int64), of which int16 and smaller keep 0
        lowest = np.iinfo(values.dtype).min if values.dtype in (np.int32, np.int64) else 0
        return np.asarray(lowest, dtype=values.dtype)
    k = (values.size - 1) // 2
    return np.asarray(np.partition(values, k)[k])


def _median_along(array, dim, skip_nan):
    """values and int64 indices of the lower median along ``dim`` (which is removed)."""
    rows = np.moveaxis(array, dim, -1)                 # each median is taken along the last axis
    order = np.argsort(rows, axis=-1, kind="stable")   # (numpy sorts nan last)
    count = rows.shape[-1]
    if rows.dtype.kind == "f":
        nans = np.isnan(rows).sum(axis=-1)
    else:
        nans = np.zeros(rows.shape[:-1], dtype=np.int64)
    if skip_nan:
        k = (count - nans - 1) // 2                  # the middle of the numbers that are not nan
        indices = np.take_along_axis(order, np.maximum(k, 0)[..., None], axis=-1)[..., 0]
        # a row of nans only: PyTorch's nth_element sees them all as equal (see below)
        indices = np.where(nans == count, _pick_among_equals(count), indices)
    else:
        k = np.full(rows.shape[:-1], (count - 1) // 2)
        indices = np.take_along_axis(order, k[..., None], axis=-1)[..., 0]
        # a nan makes the median nan: PyTorch returns the first nan's index
        if rows.dtype.kind == "f":
            indices = np.where(nans > 0, np.argmax(np.isnan(rows), axis=-1), indices)
    values = np.take_along_axis(rows, indices[..., None], axis=-1)[..., 0]
    return np.asarray(values), np.asarray(indices, dtype=np.int64)


def _pick_among_equals(count):
    """The index PyTorch's nanmedian returns for a row of ``count`` nans.

    PyTorch finds a median with C++'s ``std::nth_element`` (GCC's introselect). For a row of
    nans only, every comparison says "not smaller", so which index lands in front is decided
    by how that algorithm moves elements: a pivot is swapped to the front, and the rest are
    swapped pairwise from both ends. This replays those moves on the indices 0..count-1.
    """
    indices = list(range(count))
    last = count
    while last > 3:                    # (GCC sorts the last 3 or fewer, which moves no equals)
        middle = last // 2
        indices[0], indices[middle] = indices[middle], indices[0]    # the pivot goes in front
        low, high = 1, last
        while True:                    # nothing is smaller: swap pairs until the ends meet
            high -= 1
            if low >= high:
                break
            indices[low], indices[high] = indices[high], indices[low]
            low += 1
        last = low                     # position 0 is left of the cut: continue there
    return indices[0]


# no dim given: the median of all elements (dim=None is an error in PyTorch, as it says)
_ALL = object()


def _median(name, all_node, dim_node, return_type, input, dim, keepdim, skip_nan):
    array = input._array
    is_bool = array.dtype.kind == "b"         # (PyTorch's kernels refuse bools, each by its name)
    if is_bool and dim is _ALL:
        raise kernel_not_implemented("median_cpu", input)
    if dim is _ALL:
        if keepdim:
            raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
        return save_result(result(_median_of_all(input, skip_nan), all_node, (input,)), input)
    if not is_int(dim):
        position = "" if dim is None else " (position 1)"      # (None can only be given by name)
        raise TypeError(f"{name}(): argument 'dim'{position} must be int, not {type_name(dim)}")
    dim_as_given, dim = int(dim), _normalize_dim(int(dim), array.ndim)
    if is_bool:
        raise kernel_not_implemented("median_out", input)
    if array.ndim == 0:                                # a number: it is its own median
        values, indices = array.copy(), np.zeros((), dtype=np.int64)
    else:
        if array.shape[dim] == 0:
            # (nanmedian's message says median too)
            raise IndexError(f"median(): Expected reduction dim {dim} to have non-zero size.")
        values, indices = _median_along(array, dim, skip_nan)
        if keepdim:
            values, indices = np.expand_dims(values, dim), np.expand_dims(indices, dim)
    indices_tensor = plain_output(np.asarray(indices, order="C"), input)
    # saved=(): the indices count as saved, so a second backward raises as in PyTorch
    out = result(np.asarray(values, order="C"), dim_node, (input,), saved=(),
                 input_shape=array.shape, dim=dim, keepdim=keepdim, indices=indices,
                 indices_tensor=indices_tensor, dim_as_given=dim_as_given)
    return return_type(out, indices_tensor)


@history_first
@numpy_keywords
def median(input, dim=_ALL, keepdim=False):
    """The middle element (the lower of the two middle ones for an even count); nan if there
    is a nan. With ``dim``: (values, indices) along that dimension.

    Gradient: with ``dim``, grad goes to the element at ``indices``; over all elements it is
    shared evenly among the elements equal to the median.
    """
    out = _median("median", MedianBackward0, MedianBackward1, return_types.median, input,
                  dim, keepdim, skip_nan=False)
    return kernel_writes("median" if dim is _ALL else "median_dim", out, input)


@history_first
@numpy_keywords
def nanmedian(input, dim=_ALL, keepdim=False):
    """``median`` leaving the nans out (nan only where every element is nan).

    Gradient: as for median.
    """
    out = _median("nanmedian", NanmedianBackward0, NanmedianBackward1, return_types.nanmedian,
                  input, dim, keepdim, skip_nan=True)
    return kernel_writes("median" if dim is _ALL else "median_dim", out, input)
