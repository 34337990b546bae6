"""Every differentiable operation, one family per file, each forward next to its backward.

* pointwise.py      - + - * / **, exp, log, sin, relu, sigmoid, clamp, ...
* reduction.py      - sum, mean, max, min, norm, ...
* shape.py          - reshape/view, transpose, permute, squeeze, expand, cat, stack, ...
* linalg.py         - matmul, mm, mv, dot
* indexing.py       - x[...] and x[...] = v
* inplace.py        - add_, mul_, zero_, copy_, ... and PyTorch's rules for them
* views.py          - how a view follows its base (AsStridedBackward0, CopySlices)
* scan.py           - cumsum, cumprod, prod
* gather_scatter.py - gather, scatter, scatter_add, index_select, index_add
* sorting.py        - sort, argsort, topk, roll
* rounding.py       - round, floor, ceil, trunc, frac, div(rounding_mode=), //, % and fmod
* einsum.py         - einsum
* blas.py           - bmm, baddbmm, addmm, addmv, addr with beta/alpha
* special.py        - erf, erfc, erfinv, sinc
* nonfinite.py      - isnan, isinf, isfinite, nan_to_num (finding and replacing nan and inf)
* logarithms.py     - log2, log10, expm1, exp2, logaddexp, logaddexp2, xlogy, logit
* trigonometry.py   - asin, acos, atan, sinh, cosh, asinh, acosh, atanh, deg2rad, rad2deg
* gamma.py          - lgamma, digamma, polygamma, mvlgamma
* bessel.py         - i0, i0e, i1, i1e: modified Bessel functions (torch.special)
* binary_ops.py     - hypot, copysign, fmax, fmin, heaviside, float_power
* blend.py          - addcmul, addcdiv, lerp (what optimisers update parameters with)
* math_aliases.py   - positive, signbit, true_divide, greater/less/..., x.gt_(y) and the like
* logical.py        - logical_not, logical_and, logical_or, logical_xor
* inplace_unary.py  - x.exp_(), x.relu_(), x.unsqueeze_(0), x.t_(), ... (torch.exp_(x) too)
* rearrange.py      - movedim, tile, unflatten, rot90, tensor_split, repeat_interleave, unfold, ...
* diagonals.py      - diag, diag_embed, diagflat, trace
* index_ops.py      - take, put, index_copy, index_fill, index_put, masked_scatter
* selection.py      - kthvalue, mode, cummax, cummin
* aminmax.py        - aminmax: the smallest and the largest value at once
* logcumsumexp.py   - logcumsumexp: a running logsumexp
* scatter_views.py  - select_scatter, slice_scatter, diagonal_scatter, narrow_copy
* angles.py         - atan2 (arctan2): the angle of a point
* triangular.py     - tril, triu: the lower and upper triangle of a matrix
* median.py         - median, nanmedian: the middle value
* masked_select.py  - masked_select: the elements where a mask is True
* summing.py        - nansum (nan counts as 0), count_nonzero, sum_to_size
* statistics.py     - var_mean, std_mean, quantile, nanquantile, cov, corrcoef
* counting.py       - unique, bincount, histc, histogram, searchsorted, bucketize
* differences.py    - diff, trapezoid, cumulative_trapezoid
* scatter_reduce.py - scatter_reduce, index_reduce: sum/prod/mean/amax/amin into chosen places
* renorm.py         - renorm: slices scaled down to a largest norm
* decompositions.py - det, slogdet, inv, solve (torch.linalg, from the LU factorization)
* cholesky.py       - linalg.cholesky, cholesky_ex, torch.cholesky
* spectral.py       - svd, eigh, qr, pinv, matrix_rank, lstsq, matrix_exp
* lu.py             - linalg.lu_factor, lu, lu_solve, torch.lu_unpack
* triangular_solves.py - linalg.solve_triangular, cholesky_solve, cholesky_inverse
* norms.py          - linalg.matrix_norm, linalg.norm, cond, dist (vector norms: reduction.py)
* matrix_products.py - cross, vecdot, multi_dot, matrix_power, vander, tensorinv, tensorsolve
* resize.py         - x.resize_, x.resize_as_, torch.resize_as_ (and the deprecated x.resize)
* counts.py         - poisson, binomial: random counts drawn as PyTorch's CPU draws them
* histogramdd.py    - histogramdd: histograms of points in D dimensions

An operation computes its result with numpy and, if it must be recorded, creates
a Node subclass named like PyTorch's (``MulBackward0``) whose ``backward``
turns d(loss)/d(output) into d(loss)/d(each input). Backward formulas are
written with tensor operations, so with ``create_graph=True`` they are recorded
too and can be differentiated again. Gradients that were broadcast in forward
are summed back to each input's shape in one place: the engine (engine.py).

Next to each ``backward`` sits ``jvp(tangents, inputs, out)``, the forward-mode
rule: given a tangent (a small change) for each input, the tangent of the
output. ``result`` applies it while a dual level is open (autograd/forward_ad.py).
"""
import functools

import numpy as np

from .._type_names import type_name
from .._tensor import _wrap, Tensor
from ..autograd.graph import SavedOutput, connect
from ..autograd.grad_mode import _State, _threads_not_recording
from ..autograd.forward_ad import _DualLevel, result_with_tangent
from .._python_arg_parser import invalid_combination
from ..autograd.graph import _ZEROS, attach, attach_outputs, keep_settings, leaf_edge, zero_output_numbers
from ..autograd.function import _FuncTransforms
from .._functorch import carry_batching


# True while a vmap runs (func/_vmap.py sets it): result() then marks which outputs are
# batched. A plain module global, because result() runs for every operation and a global
# is the cheapest thing to test.
vmap_running = False

# Set while an operator mode is open (utils/_python_dispatch.py: selective checkpointing,
# checkpoint's debug log): each operation result() records is recorded by it instead
# (record_node, with the modes looking on), and it may hand back another output (the one
# forward kept). None otherwise; a module global, tested only when an operation is recorded.
operation_observer = None

_new_object = object.__new__

# numpy's module has a __getattr__ (for its old names), and Python (3.11) then reads every
# ``np.<name>`` the slow way, some 300 machine instructions each: the few names every operation
# of a graph of tiny tensors uses (and backward's sums) are read once, here.
_ndarray, _np_add, _np_multiply = np.ndarray, np.add, np.multiply


def result(array, node_class, inputs, saved=None, **attributes):
    """Wrap ``array`` as the output tensor; record ``node_class`` if any input requires grad.

    ``inputs`` are the forward inputs the node has edges to (tensors, or None /
    numbers for inputs that can't require grad); ``saved`` are the values
    backward needs; ``attributes`` are plain settings (dim, shape, ...).
    """
    if type(array) is not _ndarray:
        array = np.asarray(array)     # numpy gives scalars for 0-d results; tensors hold arrays
    out = _wrap(array)
    if vmap_running:              # inside vmap: batched if an input is (see minigrad/_functorch.py)
        carry_batching(out, inputs, saved, tuple(attributes.values()))   # (an index, a mask, ...)
    if _DualLevel.open:           # forward mode: the usual result, then its tangent (forward_ad.py)
        return result_with_tangent(result, array, node_class, inputs, saved, attributes)
    if _threads_not_recording and not _State.enabled:   # (while the set is empty, all threads record)
        return out
    next_nodes = []               # where each input's gradient goes: one pass over the inputs
    recorded = False              # (does any input have an edge?)
    for value in inputs:
        if not isinstance(value, Tensor):
            next_nodes.append(None)                 # a number: no gradient
        elif value._grad_fn is not None and value._output_nr == 0 and (
                value._base is None or value._attr_version == value._versions[0]):
            next_nodes.append(value._grad_fn)       # made by a recorded operation
            recorded = True
        elif value._grad_fn is None and value._base is None:     # a leaf: its AccumulateGrad,
            if value._requires_grad:                # made when needed (none yet: the leaf itself)
                next_nodes.append(value if value._grad_accumulator is None else leaf_edge(value))
                recorded = True
            else:
                next_nodes.append(None)
        else:                     # one output of several, or a view whose node is out of date
            return _record(out, node_class, inputs, saved, attributes)
    if not recorded:
        return out                # no input requires grad: nothing to record
    if operation_observer is not None:
        return operation_observer(out, node_class, inputs, saved, attributes)
    node = _new_object(node_class)   # (without Node.__init__: attach sets all it would, for less)
    count = len(next_nodes)
    attach(out, node, next_nodes, _ZEROS[count] if count < 9 else zero_output_numbers(count))
    if saved is not None:
        node.save_for_backward(*saved)
    if attributes:
        keep_settings(node, attributes)
    return out


def plain_output(array, *inputs):
    """A tensor for ``array`` that ``result`` does not record (a comparison's, indices, a
    piece of split that is recorded later): batched inside vmap if one of ``inputs`` is
    (see minigrad/_functorch.py)."""
    return batched_as(_wrap(array), *inputs)


def several_outputs(arrays, node_class, inputs, shapes=None, dtype=None, saved=(), contiguous=False,
                    **settings):
    """The results of one operation with several outputs (a backward recorded under
    ``create_graph=True``: ConvolutionBackwardBackward0, ...), as one node whose outputs they
    are (``attach_outputs``). ``arrays`` holds None where an output was not asked for; the first
    array given makes the node, with edges to ``inputs``; ``saved`` is what its backward needs.
    ``shapes`` and ``dtype`` describe every output, also those not computed (by default: the
    arrays' own). ``contiguous`` lays every result out in row-major order first."""
    if contiguous:
        arrays = [None if array is None else np.ascontiguousarray(array) for array in arrays]
    first = next((i for i, array in enumerate(arrays) if array is not None), None)
    if first is None:
        return tuple(arrays)
    made = result(arrays[first], node_class, inputs, **settings)
    outputs = [made if i == first else None if array is None else plain_output(array, *inputs)
               for i, array in enumerate(arrays)]
    node = made._grad_fn
    if isinstance(node, node_class):        # (recorded: an input requires grad)
        attach_outputs(node, outputs, shapes if shapes is not None
                       else [None if array is None else array.shape for array in arrays])
        if saved:
            node.save_for_backward(*saved)
        if dtype is not None:
            node._output_dtype = dtype
    return tuple(outputs)


def batched_as(out, *inputs):
    """Inside vmap, mark ``out`` batched where one of ``inputs`` is: for outputs that also
    depend on what ``result`` does not see (an index tensor, a target, new_zeros' tensor)."""
    if _FuncTransforms.vmaps:
        carry_batching(out, inputs)
    return out


def _record(out, node_class, inputs, saved, attributes):
    """``result`` for inputs that include views or one output of several."""
    for value in inputs:          # record only if some input requires grad
        if isinstance(value, Tensor) and (value._grad_fn is not None or value._requires_grad or (
                value._base is not None and value._base._graph_requires_grad)):   # (a view: views.py)
            break
    else:
        return out
    if operation_observer is not None:
        return operation_observer(out, node_class, inputs, saved, attributes)
    return record_node(out, node_class, inputs, saved, attributes)


def record_node(out, node_class, inputs, saved, attributes):
    """Give ``out`` a new ``node_class`` node with edges to ``inputs``, the values ``saved`` for
    backward and the settings ``attributes`` (the general form of what ``result`` does)."""
    node = node_class()
    connect(out, node, inputs)
    if saved is not None:
        node.save_for_backward(*saved)
    if attributes:
        keep_settings(node, attributes)
    return out


def numpy_keywords(function):
    """Let ``function`` also take numpy's spelling ``axis=``/``keepdims=``, as PyTorch does.

    ``x.sum(axis=0, keepdims=True)`` is ``x.sum(dim=0, keepdim=True)``. Only calls
    with keyword arguments pay for the renaming.
    """

    @functools.wraps(function)
    def with_numpy_keywords(*args, **kwargs):
        if kwargs:
            if "axis" in kwargs:
                kwargs["dim"] = kwargs.pop("axis")
            if "keepdims" in kwargs:
                kwargs["keepdim"] = kwargs.pop("keepdims")
            _check_reduction_keywords(function.__name__, args, kwargs)
        return function(*args, **kwargs)
    return with_numpy_keywords


def _check_reduction_keywords(name, args, kwargs):
    """PyTorch's TypeErrors for x.sum(dim='a') or x.max(dim=1, keepdim='yes')."""
    keepdim = kwargs.get("keepdim", False)
    if not isinstance(keepdim, (bool, np.bool_)):
        raise TypeError(f"{name}(): argument 'keepdim' must be bool, not {type_name(keepdim)}")
    dim = kwargs.get("dim")
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    if not all(d is None or isinstance(d, (int, np.integer)) for d in dims):
        if name in _SEVERAL_SIGNATURES:
            raise invalid_combination(name, args[1:], kwargs)
        # one signature: PyTorch names the argument and the type it wants
        wanted = "tuple of ints" if name in ("logsumexp", "nansum", "nanmean") else "int"
        raise TypeError(f"{name}(): argument 'dim' must be {wanted}, not {type_name(dim)}")


# these have several signatures (dim an int or a tuple; a stable= variant; max(other) ...),
# so PyTorch's TypeError lists them instead of naming one argument
_SEVERAL_SIGNATURES = {"sum", "mean", "amax", "amin", "var", "std", "norm", "all", "any",
                       "squeeze", "sort", "argsort", "max", "min"}


def save_result(out, *before):
    """Save ``out`` (the operation's own result) for backward, after the values ``before``.

    Like PyTorch's derivatives that use ``result``: exp, sigmoid, tanh, sqrt, ... save
    their output because the derivative is cheaper from it. A SavedOutput keeps only
    the data and version, never ``out.grad_fn`` (that would be a reference cycle).
    """
    node = out._grad_fn
    if node is not None:
        node.save_for_backward(*before, SavedOutput(out))
    return out


def as_tensor(value, like=None):
    """Tensors pass through; numbers and lists become tensors (of ``like``'s dtype for numbers)."""
    if isinstance(value, Tensor):
        return value
    from .._creation import tensor      # lazy: _creation imports result() from this package
    if like is not None and isinstance(value, (int, float, bool)):
        return _wrap(np.asarray(value, dtype=like._array.dtype))
    return tensor(value)


def zeros_set_in_place(shape, dtype):
    """Zeros for a backward formula, as PyTorch's formulas get them from ``at::zeros``: new
    memory set to 0 in place (``zero_()``), so the tensor is at version 1 before the formula
    writes into it. (``grad.new_zeros(...)`` and ``zeros_like``, which other formulas use,
    start at version 0: ``_wrap(np.zeros(...))``.)"""
    return _wrap(np.empty(shape, dtype=dtype)).zero_()
