"""Statistics: var_mean, std_mean, quantile, nanquantile, cov and corrcoef.

* ``var_mean`` and ``std_mean`` give two results from one pass, and PyTorch records them
  as ONE node with two outputs (VarMeanBackward0, StdMeanBackward0): its backward gets
  one gradient per output and adds up var's (or std's) gradient and mean's.
* ``quantile`` is written in PyTorch from smaller operations (sort, gather, lerp), so its
  graph is made of their nodes: the value between the two sorted neighbours of rank
  q * (n - 1), and the gradient goes back to those two neighbours only.
* ``cov`` and ``corrcoef`` are composed as well: centre the observations, one matrix
  product, divide by the degrees of freedom (corrcoef then divides by the standard
  deviations and clips to [-1, 1]).

PyTorch: torch.var_mean, torch.std_mean, torch.quantile, torch.nanquantile, torch.cov,
torch.corrcoef.
"""
import warnings

import numpy as np

from .._dtype import from_numpy_dtype, scalar_type_name
from .._tensor import Tensor, _wrap, _normalize_dim, shrunk_to_0d
from .._warnings import stacklevel_outside_minigrad
from ..autograd.forward_ad import _DualLevel, _paused, _set_tangent, input_tangents
from ..autograd.graph import (Node, SavedOutput, _SETTINGS_KEPT_AS, attach_outputs, show_saved_names,
                              dims_shown_as_given)
from .views import history_first
from . import result, plain_output
from .pointwise import div_by_number, mul_by_number
from .reduction import (NO_DIM, _correction_shown, _variance, _var_backward, _mean_array,
                        variance_arguments, _welford)
from .._memory_format import row_major
from ..autograd.kernel_writes import kernel_writes


# --- var_mean and std_mean ---------------------------------------------------------------

def _mean_backward(node, grad, shape):
    """mean's gradient as PyTorch writes it: grad given its reduced dims back, expanded, / N."""
    if not node.all_dims and not node.keepdim and shape:
        for d in node.dims:            # sorted, so each lands where it was
            grad = grad.unsqueeze(d)
    return div_by_number(grad.expand(shape), node.count)


class VarMeanBackward0(Node):
    """results = (var, mean) = var_mean(self, dim)   ->
        grad_self = grad_var * 2 (self - mean) / (N - correction) + grad_mean / N"""

    _saved_names = ("self",)               # grad_fn._saved_self, as in PyTorch

    def backward(self, grad_var, grad_mean):
        (a,) = self.saved_tensors
        grad_self = None
        if grad_var is not None:           # (None: that result was not used)
            (grad_self,) = _var_backward(self, grad_var, a)
        if grad_mean is not None:
            from_mean = _mean_backward(self, grad_mean, a.shape)
            grad_self = from_mean if grad_self is None else grad_self + from_mean
        return (grad_self,)


    def jvp(self, tangents, inputs, out):
        """results_t = (2 sum((self - mean) * self_t) / (N - correction), self_t's mean)"""
        return _spread_tangent(self, tangents[0], inputs[0])


def _spread_tangent(node, tangent, a):
    """var's tangent: 2 sum((a - mean) * a_t) / (N - correction) over the reduced dims."""
    dims = node.dims or tuple(range(a.ndim))
    centred = a - a.mean(dim=dims, keepdim=True) if dims else a - a
    spread = (centred * tangent).sum(dim=dims, keepdim=node.keepdim) if dims else centred * tangent
    return mul_by_number(spread, 2.0 / (node.count - node.correction)) if node.count != node.correction \
        else spread * float("inf")


class StdMeanBackward0(Node):
    """results = (std, mean) = std_mean(self, dim)   ->
        grad_self = grad_std * (self - mean) / ((N - correction) * std) + grad_mean / N"""

    _saved_names = ("self", "result0")     # the input and the std, as PyTorch saves them

    def backward(self, grad_std, grad_mean):
        a, std = self.saved_tensors
        grad_self = None
        if grad_std is not None:           # as std's backward: var's of grad / (2 std), 0 where std is 0
            from_std = (grad_std / mul_by_number(std, 2)).masked_fill_(std == 0, 0)
            (grad_self,) = _var_backward(self, from_std, a)
        if grad_mean is not None:
            from_mean = _mean_backward(self, grad_mean, a.shape)
            grad_self = from_mean if grad_self is None else grad_self + from_mean
        return (grad_self,)

    def jvp(self, tangents, inputs, out):
        """results_t = (var_t / (2 std), self_t's mean), var_t as for var_mean"""
        return _spread_tangent(self, tangents[0], inputs[0]) / mul_by_number(out, 2)


for _node in ("VarMeanBackward0", "StdMeanBackward0"):
    _SETTINGS_KEPT_AS[_node] = {"correction": "correction_as_given",
                                "dim": dims_shown_as_given("dim_as_given"), "keepdim": "keepdim"}
show_saved_names(VarMeanBackward0, _SETTINGS_KEPT_AS["VarMeanBackward0"])
show_saved_names(StdMeanBackward0, _SETTINGS_KEPT_AS["StdMeanBackward0"])


def _spread_and_mean(name, node_class, input, dim, unbiased, keepdim, correction):
    """var_mean and std_mean: both results, outputs 0 and 1 of one node."""
    dim_given, (dim, unbiased) = dim, variance_arguments(dim, unbiased)
    correction_as_given = _correction_shown(dim_given, correction, unbiased)
    value, dims, count, correction = _variance(name, input, dim, correction, keepdim, unbiased)
    array = input._array
    in_order = _welford(array, dims, correction, value.shape)
    if in_order is not None:                       # PyTorch's one pass, to the last bit
        value, mean = in_order
        value = value if name == "var_mean" else np.sqrt(value)
        value = row_major(np.asarray(value.astype(array.dtype)))
    else:
        if name == "std_mean":
            value = np.sqrt(value)
        with np.errstate(invalid="ignore", divide="ignore"):      # (the mean of nothing is nan)
            mean = _mean_array(array, dims or None, keepdim) if array.size else np.full(value.shape, np.nan, array.dtype)
    mean = row_major(np.asarray(mean, dtype=array.dtype).reshape(value.shape))
    first = result(value, node_class, (input,), dims=dims, keepdim=keepdim, count=count,
                   correction=correction, all_dims=dim is None, dim_as_given=dim,
                   correction_as_given=correction_as_given)
    second = plain_output(mean, input)
    node = first._grad_fn
    if isinstance(node, node_class) and first._output_nr == 0:
        attach_outputs(node, (first, second))     # the mean is the node's second output, as in PyTorch
        saved = (input,) if name == "var_mean" else (input, SavedOutput(first))
        node.save_for_backward(*saved)
    if _DualLevel.open:            # forward mode: result() gave the spread its tangent; the mean its own
        tangents = input_tangents((input,))
        if tangents is not None:
            with _paused():
                mean_t = tangents[0].mean(dim=dims, keepdim=keepdim) if dims else tangents[0] * 1
                _set_tangent(second, mean_t)
    return first, second


@history_first
def var_mean(input, dim=NO_DIM, unbiased=None, keepdim=False, *, correction=None):
    """(var, mean) of the elements (over ``dim`` if given) in one call; a plain tuple.

    Gradient: var's and mean's added up (one node, VarMeanBackward0, with two outputs).
    """
    out = _spread_and_mean("var_mean", VarMeanBackward0, input, dim, unbiased, keepdim, correction)
    return kernel_writes("var_mean", out, input)


@history_first
def std_mean(input, dim=NO_DIM, unbiased=None, keepdim=False, *, correction=None):
    """(std, mean) of the elements (over ``dim`` if given) in one call; a plain tuple.

    Gradient: std's and mean's added up (one node, StdMeanBackward0, with two outputs).
    """
    out = _spread_and_mean("std_mean", StdMeanBackward0, input, dim, unbiased, keepdim, correction)
    return kernel_writes("var_mean", out, input)


# --- quantile ------------------------------------------------------------------------------

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan):
    """quantile and nanquantile, step by step as PyTorch composes them."""
    from .._creation import tensor
    if not isinstance(q, Tensor):
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {float(q):g}")
        q = _wrap(np.asarray(q, dtype=input._array.dtype if input._array.dtype.kind == "f" else np.float32))
    array = input._array
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint "
                           f"or nearest, but got {interpolation}")
    if array.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if array.dtype not in (np.float32, np.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q._array.dtype != array.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    wrapped = _normalize_dim(0 if dim is None else dim, array.ndim)
    q_array = q._array
    if not ((q_array >= 0) & (q_array <= 1)).all():
        raise RuntimeError("quantile() q values must be in the range [0, 1]")

    # the output's shape: the q's first (if q is a vector), then the dims that remain
    if dim is not None and array.ndim:
        out_shape = list(array.shape)
        if keepdim:
            out_shape[wrapped] = 1
        else:
            del out_shape[wrapped]
    else:
        out_shape = [1] * array.ndim if keepdim else []
    # sorted along the reduced dim, which is moved last (its old place keeps a size-1 dim)
    if dim is None:
        ordered = input.flatten().sort()[0]
    elif wrapped == array.ndim - 1:
        ordered = input.sort()[0]
    else:
        ordered = input.unsqueeze(-1).transpose(wrapped, -1).sort()[0]
    n = ordered.shape[-1] if ordered.ndim else 1
    ordered = ordered.view(out_shape + [n])

    # the rank (position in the sorted values) of each quantile, computed in q's dtype
    sorted_array = ordered._array
    with np.errstate(invalid="ignore"):
        if ignore_nan:           # among the values that are not nan (all nan: rank 0, the nan)
            valid = np.sum(~np.isnan(sorted_array), axis=-1, keepdims=True) - 1
            ranks = (q_array * valid).astype(array.dtype)
            ranks[ranks < 0] = 0
        else:                    # any nan: the last rank, where sort put the nan
            has_nan = np.isnan(sorted_array).any(axis=-1, keepdims=True)
            ranks = np.broadcast_to(q_array * array.dtype.type(n - 1), np.broadcast_shapes(
                q_array.shape, has_nan.shape)).copy()
            ranks[np.broadcast_to(has_nan, ranks.shape)] = n - 1
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    elif interpolation == "nearest":
        ranks = np.round(ranks)         # (half to even, as PyTorch's round)
    below = ranks.astype(np.int64)
    values = ordered.gather(-1, tensor(below))
    if interpolation in ("linear", "midpoint"):
        # the value between the two neighbours, in place as PyTorch does (LerpBackward1)
        weights = np.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        above = ordered.gather(-1, tensor(np.ceil(ranks).astype(np.int64)))
        values.lerp_(above, _wrap(np.asarray(weights, dtype=array.dtype)))
    if q.ndim == 0:
        return shrunk_to_0d(values.squeeze_(-1), 1)       # (PyTorch's squeeze_: see shrunk_to_0d)
    return values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)   # the q's first


@history_first
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """The q-th quantiles of the elements (along ``dim`` if given): the value below which a
    fraction q of them lie, between two neighbours of the sorted values as ``interpolation``
    says (linear, lower, higher, midpoint, nearest). A nan gives nan.

    Gradient: to the one or two elements the quantile was taken from (sort, gather, lerp).
    """
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=False)


@history_first
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """``quantile`` of the elements that are not nan (nan only where all of them are)."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=True)


# --- cov and corrcoef ---------------------------------------------------------------------

def _check_weights(name, weights, observations, kind, wanted):
    """fweights / aweights: one per observation, of the right dtype, none negative."""
    if weights.ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} "
                           f"with {weights.ndim} dimensions")
    if weights._array.dtype.kind not in kind:
        raise RuntimeError(f"cov(): expected {name} to have {wanted} dtype but got {name} with "
                           f"{scalar_type_name(from_numpy_dtype(weights._array.dtype))} dtype")
    if weights.numel() != observations:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations "
                           f"in the input but got {weights.numel()} != {observations}")
    if observations and weights._array.min() < 0:
        raise RuntimeError(f"cov(): {name} cannot be negative")


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of ``input`` (observations in the
    columns), optionally weighted by how often each observation occurs (``fweights``) and how
    important it is (``aweights``); ``correction=1`` divides by N - 1. A 0-d result for one variable.

    Gradient: through the composed operations (mean, subtraction, mm, division).
    """
    if input.ndim > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an input "
                           f"with {input.ndim} dimensions")
    if input._array.dtype.kind == "b":
        raise RuntimeError("cov(): bool dtype is not supported for input")
    observations_in = input.view(1, -1) if input.ndim < 2 else input
    observations = observations_in.shape[1]
    weights = None
    if fweights is not None:
        _check_weights("fweights", fweights, observations, "iu", "integral")
        weights = fweights
    if aweights is not None:
        _check_weights("aweights", aweights, observations, "f", "floating point")
        weights = aweights if weights is None else weights * aweights
    if weights is None:
        weight_sum = _wrap(np.asarray(observations, dtype=np.int64))
    else:
        weight_sum = weights.sum()
        if weight_sum._array == 0:
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    average = (observations_in if weights is None else observations_in * weights).sum(1) / weight_sum
    if weights is not None and correction != 0:
        if aweights is None:
            norm_factor = weight_sum - correction
        else:
            norm_factor = weight_sum - correction * (weights * aweights).sum() / weight_sum
    else:
        norm_factor = weight_sum - correction
    if norm_factor._array <= 0:
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than "
                      "the number of observations.", UserWarning, stacklevel=stacklevel_outside_minigrad())
        norm_factor = norm_factor.zero_()
    centred = observations_in - average.unsqueeze(1)
    product = centred.mm((centred if weights is None else centred * weights).t())
    return (product / norm_factor).squeeze()


def corrcoef(input):
    """The Pearson correlation coefficients of the variables in the rows of ``input``:
    ``cov`` divided by the product of the standard deviations, clipped to [-1, 1].

    Gradient: through the composed operations.
    """
    if input.ndim > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.ndim} dimensions")
    c = cov(input)
    if c.ndim == 0:            # one variable: 1, or nan where its covariance is 0, inf or nan
        return c / c
    spread = c.diagonal().sqrt()
    c = c / spread.view(-1, 1)
    c = c / spread.view(1, -1)
    return c.clip(-1, 1)
