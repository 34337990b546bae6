"""Reductions: sum, mean, max/min, norm, var/std, logsumexp, all/any, argmax.

Their backward has to *undo* the reduction's change of shape: the gradient of
a reduced result is copied back (expanded) along the dimensions that were
reduced. ``_expand_back`` does that for all of them.
"""
import builtins
import math
import warnings

import numpy as np

from .._fused_multiply_add import fma as _fma
from .._type_names import type_name
from .. import _cascade_sum, _dtype, _vectorized_loop
from .._dtype import from_numpy_dtype
from .._memory_format import row_major
from .._tensor import Tensor, _wrap, _normalize_dim, shrunk_to_0d
from ..autograd.graph import Node
from .views import history_first
from .._warnings import stacklevel_outside_minigrad
from . import result, save_result, numpy_keywords, plain_output, zeros_set_in_place
from .pointwise import abs, maximum, minimum, sign, sgn, mul_by_number, div_by_number
from ..autograd.kernel_writes import kernel_writes


def _dims(dim, ndim):
    """``dim`` as a sorted tuple of non-negative dims (None means all of them)."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    dims = tuple(sorted(_normalize_dim(d, ndim) for d in dim))
    if len(set(dims)) != len(dims):
        repeated = next(d for d in dims if dims.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    return dims if ndim else ()


def _expand_back(grad, input_shape, dims, keepdim):
    """Give ``grad`` (shaped like the reduced result) the input's shape again."""
    if not keepdim and input_shape:
        for d in sorted(dims):        # one unsqueeze per reduced dim, lowest first, as PyTorch
            grad = grad.unsqueeze(d)  # (so that create_graph records UnsqueezeBackward0 nodes)
    return grad.expand(input_shape)


class SumBackward0(Node):
    """result = self.sum() (all elements)   ->   grad_self = grad.expand(self.shape)"""

    def backward(self, grad):
        return (grad.expand(self.input_shape),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.sum()"""
        return tangents[0].sum()


class SumBackward1(Node):
    """result = self.sum(dims)   ->   grad_self = grad (dims kept).expand(self.shape)"""

    def backward(self, grad):
        return (_expand_back(grad, self.input_shape, self.dims, self.keepdim),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.sum(dims)"""
        return tangents[0].sum(dim=self.dims, keepdim=self.keepdim)


@history_first
@numpy_keywords
def sum(input, dim=None, keepdim=False, dtype=None):
    """Sum of all elements, or over ``dim`` (an int or a tuple of ints)."""
    array = input._array
    out_dtype = dtype.numpy_dtype if dtype is not None else (
        np.dtype(np.int64) if array.dtype.kind in "biu" else array.dtype)
    if dim is None:
        out = result(np.asarray(_sum_array(array, tuple(range(array.ndim)), False, out_dtype)),
                     SumBackward0, (input,), input_shape=array.shape)
        return kernel_writes("sum", out, input)
    dims = _dims(dim, array.ndim)
    # PyTorch's reductions give a row-major result whatever the input's layout (row_major);
    # dim=() reduces every dim, as dim=None does (its backward has no dim to unsqueeze)
    out = row_major(np.asarray(_sum_array(array, dims or tuple(range(array.ndim)), keepdim, out_dtype)))
    out = result(out, SumBackward1, (input,), input_shape=array.shape, dims=dims, keepdim=keepdim,
                 dim_as_given=dim)       # (grad_fn._saved_dim shows it)
    return kernel_writes("sum", out, input)


def _sum_array(array, dims, keepdim, out_dtype):
    """The sum over dims, floats added in PyTorch's order where minigrad knows it (float32 and
    float64 of C-ordered arrays, over any dims: _cascade_sum), elsewhere numpy's, which adds in
    another order and may differ in the last bit. With dtype=, converted first, as in PyTorch."""
    if out_dtype != array.dtype and out_dtype in (np.float32, np.float64):
        # sum(x, dtype=...) converts x first, then sums in that dtype (PyTorch's CPU reduction)
        array = array.astype(out_dtype)
    if out_dtype == array.dtype:
        ordered = _cascade_sum.pytorch_sum(array, dims, keepdim)
        if ordered is not None:
            return ordered
    if array.dtype.kind != "f":
        return array.sum(axis=dims or None, keepdims=keepdim, dtype=out_dtype)
    with np.errstate(invalid="ignore", over="ignore"):    # (inf + -inf is NaN silently, as in PyTorch)
        return array.sum(axis=dims or None, keepdims=keepdim, dtype=out_dtype)


class MeanBackward0(Node):
    """result = self.mean() (all N elements)   ->   grad_self = grad.expand(self.shape) / N"""

    def backward(self, grad):
        # divided by a number as PyTorch's C++ does (DivBackward1 when recorded)
        return (div_by_number(grad.expand(self.input_shape), self.count),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.mean()"""
        return tangents[0].sum() / self.count


class MeanBackward1(Node):
    """result = self.mean(dims)   ->
        grad_self = grad (dims kept).expand(self.shape) / (number averaged)"""

    def backward(self, grad):
        # as PyTorch writes it: sum's backward (unsqueeze, expand), divided by the count
        if not self.keepdim and self.input_shape:
            for d in self.dims:            # sorted, so each lands where it was
                grad = grad.unsqueeze(d)
        return (div_by_number(grad.expand(self.input_shape), self.count),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.mean(dims)"""
        return tangents[0].sum(dim=self.dims, keepdim=self.keepdim) / self.count


@history_first
@numpy_keywords
def mean(input, dim=None, keepdim=False, dtype=None):
    """Average of all elements, or over ``dim``."""
    array = input._array if dtype is None else input._array.astype(dtype.numpy_dtype)
    if array.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {from_numpy_dtype(array.dtype).tensor_type_name[:-6]}"
            "\nminigrad hint: convert first, e.g. x.float().mean()."
        )
    if array.size == 0:
        # the mean of nothing is 0 / 0: NaN, without numpy's warning, with the sign bit set, as
        # the processor's division gives it to PyTorch (x86's "default NaN")
        mean_of = (lambda a, axis=None, keepdims=False:
                   np.full(np.sum(a, axis=axis, keepdims=keepdims).shape, -np.nan, dtype=a.dtype))
    else:
        mean_of = _mean_array
    if dim is None:
        out = result(np.asarray(mean_of(array)), MeanBackward0, (input,),
                     input_shape=array.shape, count=array.size)
        return kernel_writes("mean", out, input)
    dims = _dims(dim, array.ndim)      # dim=() reduces every dim, as dim=None does
    count = int(np.prod([array.shape[d] for d in dims or range(array.ndim)])) if array.ndim else 1
    out = result(row_major(np.asarray(mean_of(array, axis=dims or None, keepdims=keepdim))), MeanBackward1, (input,),
                 input_shape=array.shape, dims=dims, keepdim=keepdim, count=count, dim_as_given=dim)
    return kernel_writes("mean", out, input)


def _mean_array(array, axis=None, keepdims=False):
    """The mean as PyTorch computes it: the sum (in PyTorch's order, see _sum_array), then one
    division by the count in the array's dtype."""
    dims = tuple(range(array.ndim)) if axis is None else tuple(axis) or tuple(range(array.ndim))
    ordered = _cascade_sum.pytorch_sum(array, dims, keepdims)
    if ordered is None:
        with np.errstate(invalid="ignore", over="ignore"):    # (inf + -inf: NaN, silently)
            return np.mean(array, axis=axis, keepdims=keepdims)
    count = math.prod(array.shape[d] for d in dims)
    return ordered / array.dtype.type(count)


# --- max and min ------------------------------------------------------------------------------

class return_types:
    """Named results, printed as PyTorch's: ``torch.return_types.max(values=..., indices=...)``."""

    class _ValuesIndices(tuple):
        _name = "max"

        def __new__(cls, values, indices):
            return tuple.__new__(cls, (values, indices))

        @property
        def values(self):
            return self[0]

        @property
        def indices(self):
            return self[1]

        def __repr__(self):
            return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"

    class max(_ValuesIndices):
        _name = "max"

    class min(_ValuesIndices):
        _name = "min"

    class median(_ValuesIndices):
        _name = "median"

    class nanmedian(_ValuesIndices):
        _name = "nanmedian"


def _extreme_all_backward(node, grad):
    # Every element equal to the max/min shares the gradient evenly, as PyTorch writes it:
    # zeros with grad / count filled in where the input equals the result (NaN: the NaNs)
    input, out = node.saved_tensors       # the result too, as PyTorch saves it
    if np.isnan(out._array):
        is_extreme = np.isnan(input._array)
    else:
        is_extreme = input._array == out._array
    zeros = _wrap(np.zeros(input._array.shape, dtype=grad._array.dtype))     # grad.new_zeros
    # filled in place, as PyTorch does (so the gradient is at version 1)
    return (zeros.masked_fill_(_wrap(is_extreme), grad / _wrap(np.asarray(is_extreme.sum()))),)


def _extreme_dim_backward(node, grad):
    # Only the element that was picked (its index was returned) gets the gradient: scattered
    # into zeros at those indices, as PyTorch does (so create_graph=True records ScatterBackward0)
    # (scattered in place into at::zeros, themselves set in place: the gradient is at version 2)
    zeros = zeros_set_in_place(node.input_shape, grad._array.dtype)
    if not node.input_shape:          # a 0-d input: it was the only element
        return (zeros.scatter_(0, _wrap(np.zeros((), dtype=np.int64)), grad),)
    grad = grad if node.keepdim else grad.unsqueeze(node.dim)
    indices = node.indices if node.keepdim else np.expand_dims(node.indices, node.dim)
    return (zeros.scatter_(node.dim, _wrap(np.asarray(indices, dtype=np.int64)), grad),)


def _extreme_all_jvp(tangents, inputs, out):
    is_extreme = inputs[0]._array == out._array
    share = is_extreme / is_extreme.sum()
    return (tangents[0] * _wrap(share.astype(inputs[0]._array.dtype))).sum()


def _extreme_dim_jvp(node, tangents):
    indices = node.indices if node.keepdim else np.expand_dims(node.indices, node.dim)
    picked = np.zeros(node.input_shape, dtype=bool)
    np.put_along_axis(picked, indices, True, axis=node.dim)
    return (tangents[0] * _wrap(picked)).sum(dim=node.dim, keepdim=node.keepdim)


class MaxBackward1(Node):
    """result = self.max() (all elements)   ->
        grad_self = grad / (number of maxima) at each maximum, else 0"""

    _saved_names = ('self', 'result')      # grad_fn._saved_self, _saved_result, as in PyTorch
    backward = _extreme_all_backward

    def jvp(self, tangents, inputs, out):
        """result_t = the mean of self_t over the maxima"""
        return _extreme_all_jvp(tangents, inputs, out)


class MaxBackward0(Node):
    """values, indices = self.max(dim)   ->   grad_self = zeros, with grad at indices"""
    backward = _extreme_dim_backward

    def jvp(self, tangents, inputs, out):
        """values_t = self_t at indices"""
        return _extreme_dim_jvp(self, tangents)


class MinBackward1(Node):
    """result = self.min() (all elements)   ->
        grad_self = grad / (number of minima) at each minimum, else 0"""

    _saved_names = ('self', 'result')      # grad_fn._saved_self, _saved_result, as in PyTorch
    backward = _extreme_all_backward

    def jvp(self, tangents, inputs, out):
        """result_t = the mean of self_t over the minima"""
        return _extreme_all_jvp(tangents, inputs, out)


class MinBackward0(Node):
    """values, indices = self.min(dim)   ->   grad_self = zeros, with grad at indices"""
    backward = _extreme_dim_backward

    def jvp(self, tangents, inputs, out):
        """values_t = self_t at indices"""
        return _extreme_dim_jvp(self, tangents)


def _extreme(input, dim, keepdim, numpy_reduce, numpy_arg, all_node, dim_node, return_type):
    array = input._array
    if isinstance(dim, Tensor):
        raise TypeError("max(input, other) is minigrad.maximum(input, other)")
    if array.size == 0 and (dim is None or array.shape[_normalize_dim(dim, array.ndim)] == 0):
        if dim is None:
            raise RuntimeError(
                f"{return_type._name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument.")
        raise IndexError(f"{return_type._name}(): Expected reduction dim "
                         f"{_normalize_dim(dim, array.ndim)} to have non-zero size.")   # (wrapped)
    if dim is None:
        extreme = np.asarray(numpy_reduce(array))
        return save_result(kernel_writes("max", result(extreme, all_node, (input,)), input), input)
    dim_as_given, dim = dim, _normalize_dim(dim, array.ndim)     # (grad_fn._saved_dim shows it as given)
    axis = dim if array.ndim else None
    indices = np.asarray(numpy_arg(array, axis=axis))
    values = np.asarray(numpy_reduce(array, axis=axis))
    if keepdim and array.ndim:
        indices, values = np.expand_dims(indices, dim), np.expand_dims(values, dim)
    indices, values = row_major(indices), row_major(values)     # as every reduction's result
    # saved=(): the indices count as saved, so a second backward raises as in PyTorch
    out = result(values, dim_node, (input,), saved=(), input_shape=array.shape, dim=dim,
                 keepdim=keepdim, indices=indices, dim_as_given=dim_as_given)
    indices = plain_output(indices.astype(np.int64), input)
    return kernel_writes("max_dim", return_type(out, indices), input, keepdim=keepdim)


@history_first
@numpy_keywords
def max(input, dim=None, keepdim=False):
    """Largest element; with ``dim``, (values, indices) along that dimension.

    Gradient: with ``dim``, grad goes to the element at ``indices``; over all elements it is
    shared evenly among tied maxima (as in PyTorch).
    """
    if isinstance(dim, Tensor):
        return maximum(input, dim)
    out = _extreme(input, dim, keepdim, np.max, np.argmax, MaxBackward1, MaxBackward0, return_types.max)
    return out if dim is None else shrunk_to_0d(out, _kept_dim_size(input))


@history_first
@numpy_keywords
def min(input, dim=None, keepdim=False):
    """Smallest element; with ``dim``, (values, indices) along that dimension.

    Gradient: with ``dim``, grad goes to the element at ``indices``; over all elements it is
    shared evenly among tied minima (as in PyTorch).
    """
    if isinstance(dim, Tensor):
        return minimum(input, dim)
    out = _extreme(input, dim, keepdim, np.min, np.argmin, MinBackward1, MinBackward0, return_types.min)
    return out if dim is None else shrunk_to_0d(out, _kept_dim_size(input))


def _kept_dim_size(input):
    """What PyTorch's kernel of a reduction along a dim (max, min, kthvalue, mode) leaves as
    the first size of a 0-d result: 1 (the kept dim, squeezed away) for a vector, 0 for a 0-d
    input (see shrunk_to_0d)."""
    return 1 if input.ndim else 0


class AmaxBackward0(Node):
    """result = amax(self, dims)   ->
        grad_self = grad / (number of maxima) at each maximum, else 0"""

    _saved_names = ("self", "result")      # grad_fn._saved_self, _saved_result, as in PyTorch

    def backward(self, grad):
        # as PyTorch writes it: (grad / count) * mask, grad given its reduced dims back (a view)
        input, out = self.saved_tensors      # the result too: changing it in place is an error
        extreme = out._array if self.keepdim else np.expand_dims(out._array, self.dims)
        mask = input._array == extreme
        count = mask.sum(axis=self.dims, keepdims=True).astype(input._array.dtype)
        if not self.keepdim:
            grad = grad.view([1 if d in self.dims else n for d, n in enumerate(self.input_shape)])
        return ((grad / _wrap(count)) * _wrap(mask),)

    def jvp(self, tangents, inputs, out):
        """result_t = the mean of self_t over the extremes (the maxima, or the minima), per slice"""
        (a,) = inputs
        extreme = out._array if self.keepdim else np.expand_dims(out._array, self.dims)
        mask = (a._array == extreme).astype(a._array.dtype)
        share = mask / mask.sum(axis=self.dims, keepdims=True)
        return (tangents[0] * _wrap(share)).sum(dim=self.dims, keepdim=self.keepdim)


class AminBackward0(AmaxBackward0):
    """result = amin(self, dims)   ->
        grad_self = grad / (number of minima) at each minimum, else 0"""


def _check_nonempty_reduction(name, input, dim):
    """A max or min over no elements has no value: PyTorch's messages."""
    if input._array.size:
        return
    if dim in ((), None):
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                           "Specify the reduction dim with the 'dim' argument.")
    for d in (dim if isinstance(dim, (tuple, list)) else (dim,)):      # named as given
        if input.shape[_normalize_dim(d, input.ndim)] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


@history_first
@numpy_keywords
def amax(input, dim=(), keepdim=False):
    """The largest value along ``dim`` (all dims if None). Gradient: split evenly among the tied maxima
    (PyTorch note: ``max(dim)`` instead sends it all to one index).
    """
    _check_nonempty_reduction("amax", input, dim)      # (before the repeated-dims check)
    dims = _dims(dim if dim != () else None, input.ndim)
    values = row_major(np.asarray(input._array.max(axis=dims, keepdims=keepdim)))
    out = result(values, AmaxBackward0, (input,), dims=dims, keepdim=keepdim,
                 input_shape=input._array.shape, dim_as_given=dim)
    return save_result(kernel_writes("amax", out, input), input)


@history_first
@numpy_keywords
def amin(input, dim=(), keepdim=False):
    """The smallest value along ``dim`` (all dims if None). Gradient: split evenly among the tied minima
    (PyTorch note: ``min(dim)`` instead sends it all to one index).
    """
    _check_nonempty_reduction("amin", input, dim)      # (before the repeated-dims check)
    dims = _dims(dim if dim != () else None, input.ndim)
    values = row_major(np.asarray(input._array.min(axis=dims, keepdims=keepdim)))
    out = result(values, AminBackward0, (input,), dims=dims, keepdim=keepdim,
                 input_shape=input._array.shape, dim_as_given=dim)
    return save_result(kernel_writes("amin", out, input), input)


def _index_of_extreme(numpy_function, input, dim, keepdim):
    """argmax / argmin: int64 indices, never recorded (an index has no gradient)."""
    array = input._array
    if array.dtype == np.bool_:
        raise RuntimeError(f"{numpy_function.__name__}(): does not support bool input")
    if array.size == 0:
        name = numpy_function.__name__
        if dim is None:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() "
                             "== 0.")
        if array.shape[_normalize_dim(dim, array.ndim)] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {_normalize_dim(dim, array.ndim)} "
                             "to have non-zero size.")
    if dim is None:
        # keepdim=True keeps every dimension, each of size 1
        shape = (1,) * array.ndim if keepdim else ()
        return plain_output(np.asarray(numpy_function(array), dtype=np.int64).reshape(shape), input)
    axis = _normalize_dim(dim, array.ndim)
    indices = np.asarray(numpy_function(array, axis=axis, keepdims=keepdim), dtype=np.int64)
    return kernel_writes("argmax_dim", plain_output(indices, input), input, dim=axis)


@numpy_keywords
def argmax(input, dim=None, keepdim=False):
    """Index of the largest element (of all, flattened, or along ``dim``)."""
    return _index_of_extreme(np.argmax, input, dim, keepdim)


@numpy_keywords
def argmin(input, dim=None, keepdim=False):
    """Index of the smallest element (of all, flattened, or along ``dim``)."""
    return _index_of_extreme(np.argmin, input, dim, keepdim)


@numpy_keywords
def all(input, dim=None, keepdim=False):
    """True if every element is non-zero (over ``dim`` if given)."""
    if dim is None:
        return kernel_writes("all", plain_output(np.asarray(np.all(input._array)), input), input)
    # (a list of dims, none reduced for an empty one)
    axis = _dims(dim, input.ndim) if isinstance(dim, (tuple, list)) else _normalize_dim(dim, input.ndim)
    out = plain_output(row_major(np.asarray(np.all(input._array, axis=axis, keepdims=keepdim))), input)
    return kernel_writes("all", out, input)


@numpy_keywords
def any(input, dim=None, keepdim=False):
    """True if some element is non-zero (over ``dim`` if given)."""
    if dim is None:
        return kernel_writes("any", plain_output(np.asarray(np.any(input._array)), input), input)
    # (a list of dims, none reduced for an empty one)
    axis = _dims(dim, input.ndim) if isinstance(dim, (tuple, list)) else _normalize_dim(dim, input.ndim)
    out = plain_output(row_major(np.asarray(np.any(input._array, axis=axis, keepdims=keepdim))), input)
    return kernel_writes("any", out, input)


# --- norm, variance, logsumexp ---------------------------------------------------------------

class LinalgVectorNormBackward0(Node):
    """result = (sum |self|**p) ** (1/p)   ->
        grad_self = grad * sgn(self) |self|**(p-1) / result**(p-1)"""

    _saved_names = ('self', 'result')      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        a, norm = self.saved_tensors      # the input and the result, as PyTorch saves them
        return (vector_norm_gradient(grad, a, norm, self.p, self.dims, self.keepdim, self.all_dims),)

    def jvp(self, tangents, inputs, out):
        """result_t = sum(sgn(self) |self|**(p-1) self_t) / result**(p-1)"""
        (a,), (a_t,) = inputs, tangents
        if a_t._array.dtype != out._array.dtype:
            a_t = a_t.to(out.dtype)
            a = a.to(out.dtype)
        safe_out = out.masked_fill(out == 0, 1)
        if self.p == 0:
            return out * 0
        if self.p == 1:
            return (sign(a) * a_t).sum(dim=self.dims, keepdim=self.keepdim)
        if self.p in (float("inf"), float("-inf")):
            # the tangent of max |a| (min |a|): shared evenly among the elements that reach it
            reached = out._array if self.keepdim or not self.dims else np.expand_dims(out._array, self.dims)
            mask = np.abs(a._array) == reached
            share = (mask / mask.sum(axis=self.dims or None, keepdims=True)).astype(a._array.dtype)
            return (sign(a) * a_t * _wrap(share)).sum(dim=self.dims, keepdim=self.keepdim)
        magnitude = abs(a)
        if self.p < 1:
            magnitude = magnitude.masked_fill(a == 0, 1)       # (its slope is taken as 0 there)
        slope = a if self.p == 2 else sign(a) * magnitude ** (self.p - 1)
        return (slope * a_t).sum(dim=self.dims, keepdim=self.keepdim) / safe_out ** (self.p - 1)


def vector_norm_gradient(grad, a, norm, p, dims, keepdim, all_dims):
    """d(norm)/d(a) times grad, for the ``p``-norm ``norm`` of ``a`` over ``dims``. A norm
    computed in a wider dtype (``dtype=``) is not converted back: as in PyTorch, the steps
    below promote as they would anywhere (a 0-d norm does not widen ``a``, one over ``dims``
    does), and the engine converts the gradient to a's dtype at the end."""
    # written as PyTorch writes it (norm_backward), so that create_graph=True records
    # the same nodes, made in the same order (PyTorch's C++ computes the right operand of a
    # product first, so its nodes are older, and a second backward runs them later); grad and
    # norm get their reduced dims back (size 1) unless dim was left out (then they are 0-d
    # and broadcast)
    if not keepdim and not all_dims and a.ndim:
        for d in dims:
            grad, norm = grad.unsqueeze(d), norm.unsqueeze(d)
    if p == 0:
        # a count of the non-zero elements: a step function, flat almost everywhere. PyTorch
        # gives no gradient at all (None), not zeros
        return None
    if p == 1:
        return sgn(a) * grad
    if p == 2:
        return grad * (a / norm).masked_fill_(norm == 0, 0)
    if p in (float("inf"), float("-inf")):
        # the gradient of max |a| (min |a|), shared evenly among the elements that reach it
        a_abs = abs(a)
        mask = _wrap(np.logical_or(a_abs._array == norm._array, np.isnan(a_abs._array)))
        count = mask.sum(dims, True) if dims else mask.sum()
        shares = (grad / count) * mask
        return sgn(a) * shares
    if p < 1:
        # |a|**(p-1) is infinite at a zero element; PyTorch takes its gradient as 0 there
        magnitude = abs(a).pow_(p - 1).masked_fill_(a == 0, 0)
        scaled = sgn(a) * magnitude
        norm_power = norm.pow(1 - p)
        return scaled * grad * norm_power
    if p < 2:
        magnitude = abs(a).pow_(p - 1)
        scaled = sgn(a) * magnitude
    else:
        scaled = a * abs(a).pow_(p - 2)
    scale = grad / norm.pow(p - 1)
    scale.masked_fill_(norm == 0, 0)
    return scaled * scale


@history_first
@numpy_keywords
def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """The p-norm of all elements (or over ``dim``); the default is the Euclidean norm.

    ``p`` may be any number: 2 (Euclidean), 1 (sum of |x|), inf (largest |x|), -inf
    (smallest |x|), 0 (how many are not zero), or any other p, also below 1:
    ``(sum |x|**p) ** (1/p)``. ``p='fro'`` is 2; ``p='nuc'`` (over two dims) is the sum of
    singular values, ``torch.linalg.matrix_norm``'s.
    """
    if p == "nuc" or (isinstance(p, str) and p != "fro"):
        from .norms import matrix_norm       # (norms.py imports this module)
        # (without dim, every dim: matrix_norm then refuses all but two)
        dim = tuple(range(input.ndim)) if dim is None else dim
        return matrix_norm(input, p, dim, keepdim, dtype=dtype)
    if p in ("fro", None):
        p = 2
    return vector_norm(input, p, dim, keepdim, dtype=dtype)


@history_first
def vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None, name="linalg.vector_norm"):
    """``torch.linalg.vector_norm``: the ``ord``-norm of the elements (over ``dim`` if given).

    Gradient: grad * sgn(x) |x|**(ord-1) / norm**(ord-1) (ord = 0: zero; +-inf: shared among
    the elements whose |x| is the norm).
    """
    array = input._array
    if not isinstance(ord, (int, float, np.number, np.bool_)):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, "
                        f"not {type_name(ord)}")
    if array.dtype.kind != "f":
        raise RuntimeError(
            f"{name}: Expected a floating point or complex tensor as input. Got "
            f"{from_numpy_dtype(array.dtype).tensor_type_name[:-6]}")
    if dtype is not None:
        if not dtype.is_floating_point:
            raise RuntimeError(f"{name}: dtype should be floating point or complex, but got "
                               f"{dtype.tensor_type_name[:-6]}")
        if np.dtype(dtype.numpy_dtype).itemsize < array.dtype.itemsize:
            raise RuntimeError(
                f"{name}: the dtype of the input ({from_numpy_dtype(array.dtype).tensor_type_name[:-6]}) "
                f"should be convertible without narrowing to the specified dtype "
                f"({dtype.tensor_type_name[:-6]})")
        array = array.astype(dtype.numpy_dtype)
    p = ord
    dims = _dims(dim, array.ndim)
    axis = dims if dims else None
    if p < 0 or p in (float("inf"), float("-inf")):
        _check_max_has_elements(array, dim, p)
    magnitude = np.abs(array)
    if p == 2 and dtype is None and _reduces_contiguous_last_dims(array, dims):
        value = _two_norm_of_rows(array, dims, keepdim)
    elif p == 2:
        value = np.sqrt(np.sum(array * array, axis=axis, keepdims=keepdim))
    elif p == float("inf"):
        value = np.max(magnitude, axis=axis, keepdims=keepdim)
    elif p == float("-inf"):
        value = np.min(magnitude, axis=axis, keepdims=keepdim)
    elif p == 0:
        value = np.count_nonzero(array, axis=axis, keepdims=keepdim)
    elif p == 1:
        value = np.sum(magnitude, axis=axis, keepdims=keepdim)
    else:
        with np.errstate(divide="ignore"):      # |0| ** (negative p) is inf, and the norm 0
            value = np.sum(magnitude ** p, axis=axis, keepdims=keepdim) ** (1.0 / p)
    value = row_major(np.asarray(value, dtype=array.dtype))     # (row-major, as every reduction)
    out = result(value, LinalgVectorNormBackward0, (input,), p=p, dims=dims,
                 keepdim=keepdim, input_shape=array.shape, all_dims=dim is None, dim_as_given=dim)
    return save_result(kernel_writes("vector_norm", out, input, all_dims=dim is None), input)


def _reduces_contiguous_last_dims(array, dims):
    """Does the norm run over the last dims of contiguous memory (all of them when ``dims`` is
    empty), so that PyTorch sees one run of numbers per result and takes its vector loop?"""
    if array.dtype.type not in (np.float32, np.float64) or not array.flags.c_contiguous or not array.size:
        return False
    reduced = dims if dims else tuple(range(array.ndim))
    return sorted(reduced) == list(range(array.ndim - len(reduced), array.ndim))


def _two_norm_of_rows(array, dims, keepdim):
    """The 2-norm over the last dims, added up in the order of PyTorch's vector loop (AVX2):

    - each of 4 (float64) or 8 (float32) lanes adds up the squares of every 4th (8th) number;
    - the lanes are added one after another;
    - the numbers left over are added last: in groups of four, square then sum, and the last
      one to three with each square fused with the sum (one rounding, as the compiled loop does).

    numpy's own sum pairs the numbers up in another order, which differs in the last bit for
    about one norm in ten."""
    reduced = dims if dims else tuple(range(array.ndim))
    kept_shape = array.shape[:array.ndim - len(reduced)]
    rows = array.reshape(kept_shape + (-1,))
    size = rows.shape[-1]
    lanes = 4 if array.dtype.type is np.float64 else 8
    whole = size - size % lanes
    lane_sums = np.zeros(kept_shape + (lanes,), dtype=array.dtype)
    for start in range(0, whole, lanes):
        block = rows[..., start:start + lanes]
        lane_sums = lane_sums + block * block
    total = lane_sums[..., 0]
    for lane in range(1, lanes):
        total = total + lane_sums[..., lane]
    fused_from = size - (size - whole) % 4
    for index in range(whole, fused_from):
        total = total + rows[..., index] * rows[..., index]
    for index in range(fused_from, size):
        total = _fma(rows[..., index], rows[..., index], total)
    value = np.sqrt(total)
    if keepdim:
        value = value.reshape(tuple(1 if d in reduced else n for d, n in enumerate(array.shape)))
    return value


def _check_max_has_elements(array, dim, p):
    """The +-inf norm is a max (a min), a negative p a sum of 1/|x|**|p| that is inverted: none
    has a value for no elements, so PyTorch refuses."""
    if array.size:
        return
    shown = f"{p:g}"           # (-1, 0.5, inf: as C++ prints the number)
    if dim is None:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on an empty tensor "
                           "because the operation does not have an identity")
    for as_given in (dim if isinstance(dim, (tuple, list)) else (dim,)):
        if array.shape[_normalize_dim(as_given, array.ndim)] == 0:
            # (PyTorch's message names the dim as given, with no space after it)
            raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on the dimension "
                               f"{as_given}because this dimension is empty and the operation does not "
                               "have an identity")


class VarBackward0(Node):
    """result = sum((self - mean)**2) / (N - correction)   ->
        grad_self = grad * 2 (self - mean) / (N - correction)"""

    _saved_names = ("self",)                # grad_fn._saved_self, as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        return _var_backward(self, grad, a)

    def jvp(self, tangents, inputs, out):
        """result_t = 2 sum((self - mean) * self_t) / (N - correction)"""
        (a,), (a_t,) = inputs, tangents
        centred = a - a.mean(dim=self.dims, keepdim=True)
        return (centred * a_t).sum(dim=self.dims, keepdim=self.keepdim) * 2 / (self.count - self.correction)


def _var_backward(node, grad, a):
    """var's gradient for ``node`` (a VarBackward0 or StdBackward0), as PyTorch writes it:
    (2 / dof) * grad * (a - mean), so that create_graph=True records the same nodes; grad
    broadcasts over the reduced dims."""
    dof = node.count - node.correction
    if node.all_dims or a.ndim == 0:
        if dof <= 0:
            # no degrees of freedom: the slope 2 / dof is infinite, so PyTorch gives inf times
            # (self - mean), taken as +inf, or nan where self - mean is 0 (inf * 0) - a constant
            # times grad
            array = a._array
            slopes = np.where(array == array.mean(), np.nan, np.inf).astype(array.dtype)
            return (grad * _wrap(slopes),)
        return (mul_by_number(grad, 2.0 / dof) * (a - a.mean()),)
    if not node.keepdim and a.ndim > 1:
        for d in node.dims:            # sorted, so each lands where it was
            grad = grad.unsqueeze(d)
    scale = 2.0 / dof if dof != 0 else float("inf")
    return (mul_by_number(grad, scale) * (a - a.mean(dim=node.dims, keepdim=True)),)


class StdBackward0(Node):
    """result = sqrt(var(self))   ->
        grad_self = grad * (self - mean) / ((N - correction) * result)"""

    _saved_names = ('self', 'result')      # input and result, as PyTorch saves them

    def backward(self, grad):
        # as PyTorch writes it: var's gradient of grad / (2 out), 0 where out is 0
        a, out = self.saved_tensors
        return _var_backward(self, (grad / mul_by_number(out, 2)).masked_fill_(out == 0, 0), a)

    def jvp(self, tangents, inputs, out):
        """result_t = sum((self - mean) * self_t) / ((N - correction) * result)"""
        (a,), (a_t,) = inputs, tangents
        centred = a - a.mean(dim=self.dims, keepdim=True)
        spread = (centred * a_t).sum(dim=self.dims, keepdim=self.keepdim)
        return spread / ((self.count - self.correction) * out)


def _variance(name, input, dim, correction, keepdim, unbiased):
    """var's value (its square root for ``name`` "std"), the reduced dims, N and the correction."""
    array = input._array
    if array.dtype.kind not in "fc":
        shown = name if name.endswith("_mean") else "std and var"     # (var_mean names itself)
        raise RuntimeError(f"{shown} only support floating point and complex dtypes")
    if unbiased is not None:
        correction = 1 if unbiased else 0
    correction = 1 if correction is None else correction
    dims = _dims(dim, array.ndim)
    count = int(np.prod([array.shape[d] for d in dims])) if dims else array.size
    if array.size == 0 or count - correction <= 0:
        # one element (or none) per result and the usual correction 1: nothing is left to divide
        # by. PyTorch still answers (nan, or inf where the spread is not 0) but warns each time.
        # (It counts N as input numel / output numel, so an empty input always warns.)
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=stacklevel_outside_minigrad())
        with warnings.catch_warnings():           # numpy's own words for the same thing
            warnings.simplefilter("ignore", RuntimeWarning)
            var = array.var(axis=dims or None, ddof=correction, keepdims=keepdim)
        if array.size == 0:     # (PyTorch's kernel answers NaN itself, the sign bit clear, where
            var = np.full(np.shape(var), np.nan, array.dtype)      # numpy's 0 / 0 sets it)
    else:
        with np.errstate(invalid="ignore", over="ignore"):    # (infs give NaN, silently)
            var = array.var(axis=dims or None, ddof=correction, keepdims=keepdim)
    # PyTorch's kernels, in float64 for float32 too: one result, two passes (_var_of_all); more,
    # one pass (Welford), where minigrad follows it
    if array.dtype in (np.float32, np.float64) and array.size:
        in_order = (_var_of_all(array, correction),) if np.size(var) == 1 else \
            _welford(array, dims, correction, np.shape(var))
        if in_order is not None:
            var = np.reshape(in_order[0], np.shape(var))
    if name == "std":           # (the root of the float64 variance, then rounded, as PyTorch's)
        var = np.sqrt(var)
    return row_major(np.asarray(var, dtype=array.dtype)), dims, count, correction


# var()/std() called without a dim: PyTorch matches another of its signatures then, and its
# node shows no correction. (var(None) names a dim, None, and shows the usual correction 1.)
NO_DIM = type("NoDim", (), {"__repr__": lambda self: "NO_DIM", "__doc__": "dim not given"})()


def _var_of_all(array, correction):
    """The float64 variance of a float32/float64 array with one result, as PyTorch's CPU computes
    it then (std_var_all_cpu): the mean as ``mean()`` gives it, then the squares of the float64
    differences added one by one in memory order, each thread's piece on its own (from 0), then
    the pieces' totals in order."""
    mean = float(_mean_array(array))
    flat = array.ravel(order="K").astype(np.float64)
    total = 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        for start, stop in _vectorized_loop.pieces(flat.size):
            differences = flat[start:stop] - mean
            total = total + (0.0 + np.add.accumulate(differences * differences)[-1])
        with np.errstate(divide="ignore"):
            return np.float64(total) / builtins.max(0.0, array.size - correction)


def _welford(array, dims, correction, shape):
    """(var, mean) as PyTorch's CPU kernel computes them in one pass (Welford's method), in
    float64 for float32 too: for each element in order, mean += (x - mean) / k and
    m2 += (x - old mean) * (x - new mean); var = m2 / (N - correction). Returns (var in float64,
    mean) shaped ``shape``, or None where minigrad does not follow it (float16, many numbers
    or a long loop, nothing to reduce)."""
    if array.dtype not in (np.float32, np.float64) or not array.size or array.size > 32768:
        return None
    reduced = list(dims) if dims else list(range(array.ndim))
    kept = [d for d in range(array.ndim) if d not in reduced]
    rows = np.transpose(array, kept + reduced).reshape(-1, int(np.prod([array.shape[d] for d in reduced]))
                                                        if reduced else 1).astype(np.float64)
    if rows.shape[1] > 4096:
        return None
    mean, m2 = np.zeros(len(rows)), np.zeros(len(rows))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):   # (infs: NaN, silently)
        for k in range(rows.shape[1]):          # (one step per element of a row, all rows at once)
            x = rows[:, k]
            delta = x - mean
            mean = mean + delta / float(k + 1)
            m2 = m2 + delta * (x - mean)
        var = m2 / builtins.max(rows.shape[1] - correction, 0)
    return var.reshape(shape), mean.astype(array.dtype).reshape(shape)


def _correction_shown(dim, correction, unbiased):
    """The correction grad_fn._saved_correction shows: PyTorch's as given (unbiased= as 1 or 0);
    None when var()/std() were given neither a dim nor a correction (another of their signatures)."""
    if correction is not None:
        return correction
    if unbiased is not None:
        return 1 if unbiased else 0
    return None if dim is NO_DIM else 1


def variance_arguments(dim, unbiased):
    """var(x, True) is var(x, unbiased=True): a bool in dim's place is unbiased. Returns
    (dim, unbiased) with dim None for every dimension (NO_DIM too)."""
    if isinstance(dim, (bool, np.bool_)):
        return None, bool(dim)
    return (None if dim is NO_DIM else dim), unbiased


@history_first
@numpy_keywords
def var(input, dim=NO_DIM, unbiased=None, keepdim=False, correction=None):
    """Variance (unbiased by default: divides by N - 1).

    Gradient: grad * 2 (input - mean) / (N - correction).
    """
    dim_given, (dim, unbiased) = dim, variance_arguments(dim, unbiased)
    correction_as_given = _correction_shown(dim_given, correction, unbiased)
    value, dims, count, correction = _variance("var", input, dim, correction, keepdim, unbiased)
    out = result(value, VarBackward0, (input,), saved=(input,), dims=dims, keepdim=keepdim,
                 count=count, correction=correction, input_shape=input._array.shape,
                 all_dims=dim is None, dim_as_given=dim, correction_as_given=correction_as_given)
    return kernel_writes("var", out, input)


@history_first
@numpy_keywords
def std(input, dim=NO_DIM, unbiased=None, keepdim=False, correction=None):
    """Standard deviation (unbiased by default).

    Gradient: grad * (input - mean) / ((N - correction) * std).
    """
    dim_given, (dim, unbiased) = dim, variance_arguments(dim, unbiased)
    correction_as_given = _correction_shown(dim_given, correction, unbiased)
    value, dims, count, correction = _variance("std", input, dim, correction, keepdim, unbiased)
    out = result(value, StdBackward0, (input,), dims=dims, keepdim=keepdim, count=count,
                 correction=correction, input_shape=input._array.shape, all_dims=dim is None,
                 dim_as_given=dim, correction_as_given=correction_as_given)
    return save_result(kernel_writes("var", out, input), input)


class LogsumexpBackward0(Node):
    """result = log(sum(e ** self))   ->
        grad_self = grad * e ** (self - result) = grad * softmax(self)"""

    _saved_names = ('self', 'result')      # input and result, as PyTorch saves them

    def backward(self, grad):
        a, out = self.saved_tensors
        # as PyTorch writes it: grad and out get their reduced dims back (size 1)
        if not self.keepdim and a.ndim:
            for d in self.dims:
                grad, out = grad.unsqueeze(d), out.unsqueeze(d)
        return (grad * (a - out).exp(),)

    def jvp(self, tangents, inputs, out):
        """result_t = sum(softmax(self) * self_t)"""
        (a,), (a_t,) = inputs, tangents
        weights = (a - logsumexp(a, self.dims, keepdim=True)).exp()
        return (weights * a_t).sum(dim=self.dims, keepdim=self.keepdim)


@history_first
@numpy_keywords
def logsumexp(input, dim, keepdim=False):
    """log(sum(exp(input))) along ``dim``, computed without overflow. Gradient: grad * softmax(input).

    ``dim=()`` reduces every dimension, as in sum; without ``keepdim`` PyTorch then adds
    its kept-dims maximum back into a 0-d result and fails (unless the input is empty).
    Integers and bools are summed as float32 (PyTorch converts them to its default dtype)."""
    array = input._array
    if array.dtype.kind != "f":             # exp of an integer is not an integer
        array = array.astype(_dtype.DEFAULT_FLOAT)
    dim_as_given = dim                      # (grad_fn._saved_dim shows it)
    if isinstance(dim, (tuple, list)) and not dim:
        dim = None
        if not keepdim and array.ndim and array.size:
            raise RuntimeError(f"output with shape [] doesn't match the broadcast shape {[1] * array.ndim}")
    dims = _dims(dim, array.ndim)
    peak = np.max(array, axis=dims, keepdims=True, initial=-np.inf)    # (nothing to sum: -inf)
    peak = np.where(np.isfinite(peak), peak, 0)
    with np.errstate(divide="ignore"):
        # the exponentials added in PyTorch's order (its exp and log are MKL's, not followed)
        value = np.log(_sum_array(np.exp(array - peak), dims, True, array.dtype)) + peak
    if not keepdim:
        value = np.squeeze(value, axis=dims)
    value = np.asarray(value, dtype=array.dtype, order="C")
    out = result(value, LogsumexpBackward0, (input,), dims=dims, keepdim=keepdim,
                 input_shape=array.shape, dim_as_given=dim_as_given)
    return save_result(kernel_writes("logsumexp", out, input), input)


_ = builtins  # the builtins sum/min/max are shadowed above on purpose (minigrad.sum, ...)
