"""Combining many values into chosen places: scatter_reduce and index_reduce.

``x.scatter_reduce(dim, index, src, reduce)`` sends each element of ``src`` to the place
``index`` names along ``dim`` (as scatter_add does) and combines all that arrive at one place
with ``reduce``: "sum", "prod", "mean", "amax" or "amin". ``include_self=False`` leaves the
place's own value out (unless nothing arrives there). ``index_reduce`` is the same with one
index per slice of ``source`` along ``dim`` (as index_add), without "sum".

The gradient of each reduction, as PyTorch writes it (scatter_reduce_backward):
* sum:  grad to self, grad gathered back to src;
* mean: the same, divided by how many values were averaged at each place;
* prod: grad * (the product) / (the value) - written with the zeros masked, so that the
  one zero in a product still gets the product of the others;
* amax/amin: shared evenly among the values equal to the result.

PyTorch: Tensor.scatter_reduce, Tensor.index_reduce (and their in-place forms).
"""
import warnings

import numpy as np

from .._type_names import type_name
from .._dtype import scalar_type_name, from_numpy_dtype
from .._tensor import Tensor, _wrap, _normalize_dim
from .._warnings import stacklevel_outside_minigrad
from ..autograd.graph import Node, SavedOutput, _SETTINGS_KEPT_AS, show_saved_names, shown_as_given
from .views import check_history_kept, history_first
from . import result
from .gather_scatter import _scatter_checks, _positions, _src_values, gather, scatter_add, scatter
from .gather_scatter import index_select, index_add
from .index_ops import index_fill
from .pointwise import where
from ..autograd.kernel_writes import kernel_writes

_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
# what each reduction starts from when the place's own value is left out
_IDENTITY = {"sum": 0, "prod": 1, "mean": 0, "amax": -np.inf, "amin": np.inf}
# (np.maximum and np.minimum let nan win, as PyTorch's amax and amin do)
_COMBINE = {"sum": np.add, "prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}


def starting_value(reduce, dtype):
    """What a place starts from when its own value is left out: the reduction's identity in
    ``dtype`` (for amax and amin the dtype's lowest and highest value: False and True for bool,
    whose -inf would be True)."""
    identity = _IDENTITY[reduce]
    if dtype.kind in "iub" and not np.isfinite(identity):
        if dtype.kind == "b":
            return identity > 0
        info = np.iinfo(dtype)
        return info.min if identity < 0 else info.max
    return identity


def _reduce_into(out, places, values, reduce, include_self, counts_shape):
    """Combine ``values`` into ``out`` (in place) at ``places`` (numpy's index for ufunc.at)."""
    if not include_self:           # the places that receive a value start from the identity
        out[places] = starting_value(reduce, out.dtype)
    _COMBINE[reduce].at(out, places, values)
    if reduce == "mean":           # divided by how many arrived (and self, if included)
        count = np.full(counts_shape, 1 if include_self else 0, dtype=np.int64)
        np.add.at(count, places, 1)
        count = np.maximum(count, 1)
        if out.dtype.kind in "iu":
            out[...] = np.floor_divide(out, count)
        else:
            out[...] = out / count.astype(out.dtype)
    return out


class _ReduceBackward(Node):
    """result = self combined with src at index by reduce   ->
        grad_self = grad * d(reduce)/d(self); grad_src = grad * d(reduce)/d(src), taken at src's places

    What ScatterReduceBackward0 and IndexReduceBackward0 share: the formulas, written with
    ``_take`` (values of a result-shaped tensor at each source's place), ``_add`` (source-shaped
    values added into a result-shaped tensor) and ``_clear`` (0 at the places written)."""

    _saved_names = ("index", "result", "self", "src")

    def backward(self, grad):
        index, out, input, src = self.saved_tensors
        reduce, take, add = self.reduce, self._take, self._add
        if reduce == "sum":
            grad_self, grad_src = grad, take(grad, index)
        elif reduce == "mean":
            count = grad.new_ones(grad.shape) if self.include_self else grad.new_zeros(grad.shape)
            count = add(count, index, src.new_ones(src.shape))
            count.masked_fill_(count == 0, 1)
            grad_self = grad / count
            grad_src = take(grad, index) / take(count, index)
        elif reduce == "prod":
            # with the zeros replaced by 1, the product divided by the value is the product of
            # the others; a zero that is alone in its product still gets that
            masked_self = input.masked_fill(input == 0, 1)
            grad_self = grad * self._reduced(masked_self, index, src) / masked_self
            src_zero = src == 0
            zeros_at = take(add(input.new_zeros(input.shape), index, src_zero.to(input.dtype)), index)
            single_zero = src_zero.logical_and(zeros_at == 1)
            masked_src_result = self._reduced(input, index, src.masked_fill(single_zero, 1))
            grad_src = where(single_zero, take(grad * masked_src_result, index),
                             take(grad * out, index) / src.masked_fill(src_zero, 1))
        else:                       # amax, amin: shared evenly among the values equal to the result
            value = take(out, index)
            self_is_result = (input == out).to(input.dtype)
            src_is_result = (src == value).to(input.dtype)
            shared = grad / add(self_is_result, index, src_is_result)
            grad_self = self._self_share(input, out, self_is_result) * shared
            grad_src = self._src_share(src, value, src_is_result) * take(shared, index)
        if not self.include_self:
            grad_self = self._clear(grad_self, index)
        return grad_self, grad_src


class ScatterReduceBackward0(_ReduceBackward):
    """result = self.scatter_reduce(dim, index, src, reduce)   ->
        grad_self = grad * d(reduce)/d(self) at each place; grad_src = the same at src's places, gathered"""

    def jvp(self, tangents, inputs, out):
        """result_t = the same reduction of self_t and src_t (sum, mean); for amax/amin the mean
        of the tangents of the elements equal to the result; prod: none (PyTorch has no rule)"""
        (input, src), (input_t, src_t), index = inputs, tangents, self._index
        if self.reduce in ("sum", "mean"):         # linear: the same reduction of the tangents
            return scatter_reduce(input_t, self.dim, index, src_t, self.reduce, include_self=self.include_self)
        if self.reduce == "prod":
            return None
        self_mask, src_mask = input == out, src == gather(out, self.dim, index)
        numerator = scatter_add(where(self_mask, input_t, 0.0), self.dim, index, where(src_mask, src_t, 0.0))
        count = scatter_add(self_mask.to(input.dtype), self.dim, index, src_mask.to(input.dtype))
        return numerator / count

    def _take(self, tensor, index):
        return gather(tensor, self.dim, index)

    def _add(self, tensor, index, values):
        return scatter_add(tensor, self.dim, index, values)

    def _clear(self, tensor, index):
        return scatter(tensor, self.dim, index, 0)

    def _reduced(self, input, index, src):
        return scatter_reduce(input, self.dim, index, src, self.reduce, include_self=self.include_self)

    def _self_share(self, input, out, self_is_result):
        return input == out                # (a bool mask, as PyTorch multiplies with)

    def _src_share(self, src, value, src_is_result):
        return src == value


class IndexReduceBackward0(_ReduceBackward):
    """result = self.index_reduce(dim, index, source, reduce)   ->
        grad_self = grad * d(reduce)/d(self) at each place; grad_source = the same at source's places"""

    _saved_names = ("index", "result", "self", "source")

    def jvp(self, tangents, inputs, out):
        """result_t = error: PyTorch has no forward-mode rule for index_reduce"""
        raise NotImplementedError("Trying to use forward AD with index_reduce that does not support it "
                                  "because it has not been implemented yet.")

    def _take(self, tensor, index):
        return index_select(tensor, self.dim, index)

    def _add(self, tensor, index, values):
        return index_add(tensor, self.dim, index, values)

    def _clear(self, tensor, index):
        return index_fill(tensor, self.dim, index, 0)

    def _reduced(self, input, index, src):
        return index_reduce(input, self.dim, index, src, self.reduce, include_self=self.include_self)

    def _self_share(self, input, out, self_is_result):
        return self_is_result

    def _src_share(self, src, value, src_is_result):
        return src_is_result


for _node in (ScatterReduceBackward0, IndexReduceBackward0):
    _SETTINGS_KEPT_AS[_node.__name__] = {"dim": shown_as_given("dim_as_given"),
                                         "include_self": "include_self", "reduce": "reduce"}
    show_saved_names(_node, _SETTINGS_KEPT_AS[_node.__name__])


@history_first
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """A copy of ``input`` where each src[i][j] (dim=1: goes to [i][index[i][j]]) is combined
    with what is there by ``reduce`` ("sum", "prod", "mean", "amax", "amin"); with
    ``include_self=False`` the places that receive values forget their own.

    Gradient: each reduction's own (see the module's docstring), to input and to src.
    """
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_reduce(): argument 'src' (position 3) must be Tensor, not "
                        f"{type_name(src)}")
    # PyTorch's autograd saves self, index and src (whatever the reduction) before the kernel
    # checks anything: an inference tensor among them is refused first when one requires grad
    check_history_kept(input, src, index, saves=((0, 1, 2),) * 3)
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    # (PyTorch checks as scatter does, and its messages say scatter())
    dim_as_given, dim = dim, _scatter_checks("scatter", input, dim, index, src)
    if reduce == "mean" and input._array.dtype == np.bool_:
        # PyTorch's kernel has no bool mean; without an index it skips the kernel and then
        # fails at the division by the counts (a floor division, as for integers)
        kernel = "div_floor_cpu" if index._array.size == 0 else "scatter_gather_tensor_cpu_reduce_mean"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    out = input._array.copy()
    places = _positions(index._array, dim, out.shape[dim] if out.ndim else 1)
    target = out.reshape(1) if out.ndim == 0 else out       # (a 0-d input: one element along dim 0)
    if index._array.size:           # (an empty index may have other dims than src: nothing to do)
        _reduce_into(target, places, np.asarray(_src_values(src, index)), reduce, include_self, target.shape)
    recorded = result(out, ScatterReduceBackward0, (input, src), dim=dim, dim_as_given=dim_as_given,
                      reduce=reduce, include_self=include_self, _index=index)
    kernel_writes("scatter_reduce", recorded, input, index, src, reduce=reduce, include_self=include_self)
    return _save_for_reduce_backward(recorded, index, input, src)


def _save_for_reduce_backward(out, index, input, src):
    """index, the result, self and src, as PyTorch saves them (the result as a SavedOutput)."""
    node = out._grad_fn
    if isinstance(node, _ReduceBackward):
        node.save_for_backward(index, SavedOutput(out), input, src)
    return out


class _Warned:
    beta = False


def _refuse_bool_index_reduce(input, reduce, include_self):
    """PyTorch's kernels for bool tensors: only those over rows of a matrix (2 or more dims),
    with include_self, and not the mean (its floor division has no bool kernel)."""
    if not include_self:
        kernel = "index_reduce_func_exclude_input_init"
    elif input.ndim <= 1:
        kernel = "index_func_"
    elif reduce == "mean":
        kernel = "div_floor_cpu"
    else:
        return
    raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def check_index_reduce_arguments(input, dim, index, source, reduce, include_self=True):
    """index_reduce's checks of its arguments, in PyTorch's order (before it looks at the memory
    it writes, and before the positions in index are checked); gives dim, made non-negative."""
    if reduce not in _REDUCTIONS[1:]:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    dim = _normalize_dim(dim, input.ndim)
    index_array = index._array
    if index.ndim > 1:
        raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: {index.ndim} "
                         f"with type: {scalar_type_name(from_numpy_dtype(index_array.dtype))} and size: "
                         f"{list(index.shape)}")
    if index_array.dtype.kind not in "iu":
        raise RuntimeError("index_reduce_(): Expected dtype int32/int64 for index but got: "
                           f"{scalar_type_name(from_numpy_dtype(index_array.dtype))}")
    if source._array.dtype != input._array.dtype:
        raise RuntimeError(f"index_reduce_(): self ({scalar_type_name(input.dtype)}) and source "
                           f"({scalar_type_name(source.dtype)}) must have the same scalar type")
    source_size = source.shape[dim] if source.ndim else 1
    if index_array.size != source_size:
        raise RuntimeError(f"index_reduce_(): Number of indices ({index_array.size}) should be equal to "
                           f"source.size(dim): ({source_size}), for dim: {dim}")
    if source.ndim != input.ndim or any(a != b for d, (a, b) in enumerate(zip(input.shape, source.shape))
                                        if d != dim):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified "
                           f"dimension. Got self.shape = {list(input.shape)} source.shape = {list(source.shape)}")
    if input._array.dtype == np.bool_:
        _refuse_bool_index_reduce(input, reduce, include_self)
    return dim


def _check_index_reduce_positions(input, dim, positions, size, include_self):
    """The positions' checks of PyTorch's index_reduce kernel, in its order. Without
    include_self it first fills the places that receive values with the reduction's starting
    value by index_fill_, whose own checks then come first (negative positions pass there);
    over rows of a matrix it then takes the first slice along dim as a template of all the
    others (select(dim, 0), which a dim of size 0 does not have); then each position."""
    if not positions.size:
        return                                                # (the kernel stops at once)
    if not include_self:
        index_fill(input.detach(), dim, _wrap(positions.astype(np.int64)), 0)
    if input.ndim > 1 and size == 0:
        raise IndexError(f"select(): index 0 out of range for tensor of size {list(input.shape)} "
                         f"at dimension {dim}")
    if positions.min() < 0 or positions.max() >= size:
        raise IndexError("index out of range in self")       # (no negative positions either)


@history_first
def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """A copy of ``input`` where each slice source.select(dim, i) is combined into the slice
    index[i] along ``dim`` by ``reduce`` ("prod", "mean", "amax", "amin").

    Gradient: each reduction's own, to input and to source (as scatter_reduce's).
    """
    if not _Warned.beta:            # (PyTorch says it once per process)
        _Warned.beta = True
        warnings.warn("index_reduce() is in beta and the API may change at any time.", UserWarning,
                      stacklevel=stacklevel_outside_minigrad())
    dim_as_given, dim = dim, check_index_reduce_arguments(input, dim, index, source, reduce, include_self)
    index_array = index._array
    size = input.shape[dim] if input.ndim else 1
    flat_index = index_array.reshape(-1)
    _check_index_reduce_positions(input, dim, flat_index, size, include_self)
    # slices along dim: move dim first, so that ufunc.at combines whole slices
    out = np.moveaxis(input._array.copy(), dim, 0) if input.ndim else input._array.copy().reshape(1)
    values = np.moveaxis(source._array, dim, 0) if source.ndim else source._array.reshape(1)
    _reduce_into(out, (flat_index,), values, reduce, include_self, out.shape)
    out = np.ascontiguousarray(np.moveaxis(out, 0, dim) if input.ndim else out.reshape(()))
    recorded = result(out, IndexReduceBackward0, (input, source), dim=dim, dim_as_given=dim_as_given,
                      reduce=reduce, include_self=include_self)
    return _save_for_reduce_backward(recorded, index, input, source)
