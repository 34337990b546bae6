"""Lengths, directions and distances of vectors: normalize, cosine_similarity, pairwise_distance, cdist.

PyTorch builds all three from ordinary operations rather than giving each its own backward,
and so do we, step for step in PyTorch's order, so that the recorded graph (``grad_fn`` and its
``next_functions``), the values and the gradients are PyTorch's:

- ``normalize``:          input / norm.clamp_min(eps).expand_as(input)
                          (DivBackward0 <- ExpandBackward0 <- ClampMinBackward0 <- LinalgVectorNormBackward0)
- ``cosine_similarity``:  ((x1 / |x1|) * (x2 / |x2|)).sum(dim), each norm cloned and clamped
                          in place without recording, so the clamp leaves no node
                          (SumBackward1 <- MulBackward0 <- DivBackward0 <- CloneBackward0 <- LinalgVectorNormBackward0)
- ``pairwise_distance``:  norm(x1 - x2 + eps, p, last dim)
                          (NormBackward1 <- AddBackward1 <- SubBackward0): PyTorch calls its older
                          ``norm`` kernel here, whose node has a different name from ``linalg.vector_norm``'s.

``cdist`` (every row against every row) is one operation of its own in PyTorch, CdistBackward0,
or EuclideanDistBackward0 when it takes the matrix-product shortcut for many rows.
"""
import functools
import inspect

import numpy as np

from .._type_names import type_name
from .._tensor import Tensor
from .._dtype import result_type, from_numpy_dtype, cpp_type_name
from .._ops import result, save_result
from .._ops.pointwise import _broadcast_error, add_number, abs, sgn
from .._ops.reduction import LinalgVectorNormBackward0
from .._ops.views import SAVES_BOTH, check_history_kept
from .._python_arg_parser import checked, TENSOR
from ..autograd.grad_mode import no_grad
from ..autograd.kernel_writes import kernel_writes
from ..autograd.graph import Node, _SETTINGS_KEPT_AS, dims_shown_as_given
from ._argument_checks import NUMBER, REQUIRED, parse_as


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """Each vector along ``dim`` divided by its ``p``-norm (at least ``eps``), so it has length 1.

    ``v / max(||v||_p, eps)``: the ``eps`` keeps an all-zero vector at zero instead of 0/0.
    """
    if out is not None:
        # PyTorch clamps in place here, and the result records nothing
        denominator = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
        from .. import div      # (imported here: minigrad imports this file while it starts)
        return div(input, denominator, out=out)
    denominator = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denominator


def _broadcast_shape(x1, x2):
    """The common shape of two tensors, or PyTorch's message naming the first clashing dim."""
    try:
        return np.broadcast_shapes(tuple(x1.shape), tuple(x2.shape))
    except ValueError:
        raise _broadcast_error(x1, x2) from None


def cosine_similarity(x1, x2=REQUIRED, dim=1, eps=1e-8):
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim`` (which is then removed).

    Each input is divided by its own length first (clamped to at least ``eps``), then the
    products are summed: dividing first keeps the result between -1 and 1.
    """
    if not (isinstance(x1, Tensor) and isinstance(x2, Tensor) and type(dim) is int
            and isinstance(eps, NUMBER)):       # (a C++ function in PyTorch: its parser checks them)
        parse_as("cosine_similarity", *((x1,) if x2 is REQUIRED else (x1, x2, dim, eps)))
    common = from_numpy_dtype(result_type(x1, x2))
    if not common.is_floating_point:
        raise RuntimeError(
            f"expected common dtype to be floating point, yet common dtype is {common.tensor_type_name[:-6]}")
    # only integer (and bool) inputs are converted: a float32 one next to a float64 one keeps
    # its dtype (its length and quotient are float32; the product is then float64)
    x1, x2 = (x if x.is_floating_point() else x.to(common) for x in (x1, x2))
    if tuple(x1.shape) != tuple(x2.shape):
        # both are expanded (and both record an ExpandBackward0), as PyTorch does
        shape = _broadcast_shape(x1, x2)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    # cloned, because the clamp below changes them in place
    x1_norm = x1.norm(2, dim, keepdim=True).clone()
    x2_norm = x2.norm(2, dim, keepdim=True).clone()
    with no_grad():
        # not recorded: the gradient flows as if the length had never been clamped; PyTorch
        # clamps by a tensor (maximum's kernel: a NaN length comes out as the C library's NaN)
        x1_norm.clamp_min_(x1_norm.new_tensor(eps))
        x2_norm.clamp_min_(x2_norm.new_tensor(eps))
    return ((x1 / x1_norm) * (x2 / x2_norm)).sum(dim)


# grad_fn._saved_dim, _saved_keepdim, _saved_p: the names PyTorch's node shows (autograd/graph.py)
_SETTINGS_KEPT_AS["NormBackward1"] = {"dim": dims_shown_as_given("dim_as_given"), "keepdim": "keepdim",
                                      "p": lambda settings: float(settings["p"])}   # (a double, as PyTorch's)


class NormBackward1(LinalgVectorNormBackward0):
    """result = (sum |self|**p) ** (1/p), by PyTorch's older norm(input, p, dim) kernel   ->
        grad_self = grad * sign(self) |self|**(p-1) / result**(p-1)

    Same derivative as ``linalg.vector_norm``'s node for p >= 1; only the name differs, because
    ``pairwise_distance`` calls this kernel in PyTorch. This kernel also takes p < 1:
    p = 0 counts the non-zero elements (no gradient at all), p = -inf is the smallest |x|.
    """

    def backward(self, grad):
        p = self.p
        if p >= 1:
            return super().backward(grad)
        if p == 0:
            return (None,)        # a count: PyTorch gives no gradient, not even zeros
        a, norm = self.saved_tensors
        if not self.keepdim and not self.all_dims and a.ndim:
            for d in self.dims:
                grad, norm = grad.unsqueeze(d), norm.unsqueeze(d)
        if p == float("-inf"):
            # the gradient of min |a|, shared evenly among the elements that reach it
            mask = abs(a) == norm
            count = mask.sum(self.dims, True) if self.dims else mask.sum()
            return (sgn(a) * ((grad / count) * mask),)
        # sign(a) |a|**(p-1) / norm**(p-1), where a zero element (|0|**(p-1) = inf) gives 0
        scaled = sgn(a) * abs(a).pow_(p - 1).masked_fill_(a == 0, 0)
        scale = grad / norm.pow(p - 1)
        scale.masked_fill_(norm == 0, 0)
        return (scaled * scale,)


def _small_p_norm_array(array, p, axis, keepdim):
    """numpy: the p-"norm" for p < 1, which linalg.vector_norm refuses and old norm takes."""
    magnitude = np.abs(array)
    if p == 0:
        value = np.count_nonzero(array, axis=axis, keepdims=keepdim)
    elif p == float("-inf"):
        value = np.min(magnitude, axis=axis, keepdims=keepdim)
    else:
        with np.errstate(divide="ignore"):       # |0| ** (negative p) is inf, and the result 0
            value = np.sum(magnitude ** p, axis=axis, keepdims=keepdim) ** (1.0 / p)
    return np.ascontiguousarray(value, dtype=array.dtype)


def _norm_over_dim(input, p, dim, keepdim):
    """``norm(input, p, dim, keepdim)`` recorded as PyTorch's ``NormBackward1``."""
    dims = (dim % input.ndim,) if input.ndim else ()
    if p >= 1:
        with no_grad():
            value = input.norm(p, dim, keepdim=keepdim)._array
    else:
        value = _small_p_norm_array(input._array, p, dims or None, keepdim)
    out = result(value, NormBackward1, (input,), p=p, dims=dims, keepdim=keepdim,
                 input_shape=tuple(input.shape), all_dims=not input.ndim, dim_as_given=(dim,))
    return save_result(out, input)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The ``p``-norm distance between matching rows of ``x1`` and ``x2`` (over the last dim).

    ``eps`` is added to the difference, so that the distance of a vector to itself is
    not exactly zero (where the norm has no derivative).
    """
    last_dim = max(x1.ndim, x2.ndim) - 1
    # a Python number added in C++ records AddBackward1 (in Python code it would be AddBackward0)
    return _norm_over_dim(add_number(x1 - x2, eps), p, last_dim, keepdim)


# --- argument checks ---------------------------------------------------------------------------
# cosine_similarity and pairwise_distance are C++ functions in PyTorch: their arguments are
# checked, and named in the message, before anything runs.

_ACCEPTS = {
    "float": (bool, int, float, np.integer, np.floating, Tensor),     # (a bool counts as 0 or 1)
    "bool": (bool, np.bool_),
}


def _numbers_checked(function, kinds):
    """``function`` refusing a number argument of the wrong kind with PyTorch's TypeError."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def with_checked_numbers(*args, **kwargs):
        for position, name in enumerate(signature.parameters):
            if name not in kinds or (position >= len(args) and name not in kwargs):
                continue
            value = args[position] if position < len(args) else kwargs[name]
            if not isinstance(value, _ACCEPTS[kinds[name]]):
                # (PyTorch names the position only of an argument given by position)
                where = f" (position {position + 1})" if position < len(args) else ""
                raise TypeError(f"{function.__name__}(): argument '{name}'{where} must be "
                                f"{kinds[name]}, not {type_name(value)}")
        return function(*args, **kwargs)
    return with_checked_numbers


# (cosine_similarity parses its arguments itself)
pairwise_distance = checked(_numbers_checked(pairwise_distance, {"p": "float", "eps": "float", "keepdim": "bool"}),
                            "pairwise_distance", (("x1", TENSOR), ("x2", TENSOR)))


# --- cdist: every row of x1 against every row of x2 ----------------------------------------------

def _cdist_array(a, b, p):
    """numpy: ||a_i - b_j||_p for every pair of rows (batch dims broadcast)."""
    diff = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == 0:
        return np.count_nonzero(diff, axis=-1).astype(a.dtype)
    if p == float("inf"):
        return diff.max(axis=-1, initial=0).astype(a.dtype)
    if p == 1:
        return diff.sum(axis=-1)
    if p == 2:
        return np.sqrt((diff * diff).sum(axis=-1))
    return (diff ** p).sum(axis=-1) ** (1.0 / p)


def _cdist_gradient(grad, a, b, p, dist):
    """numpy: d(sum grad * cdist(a, b)) / da, a's rows against b's (PyTorch's _cdist_backward)."""
    diff = a[..., :, None, :] - b[..., None, :, :]
    d = dist[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 0:
            slope = np.zeros_like(diff)
        elif p == 1:
            slope = np.sign(diff)
        elif p == float("inf"):
            slope = np.sign(diff) * (np.abs(diff) == d)
        elif p == 2:
            slope = np.where(d == 0, 0, diff / d)
        elif p < 2:
            slope = np.where(d == 0, 0, np.sign(diff) * np.abs(diff) ** (p - 1) / d ** (p - 1))
        else:
            slope = np.where(d == 0, 0, diff * np.abs(diff) ** (p - 2) / d ** (p - 1))
    return (grad[..., None] * slope).sum(axis=-2)


def _summed_to_shape(array, shape):
    """``array`` summed over the batch dims it got by broadcasting, back to ``shape``."""
    extra = array.ndim - len(shape)
    if extra:
        array = array.sum(axis=tuple(range(extra)))
    broadcast = tuple(i for i, size in enumerate(shape) if size == 1 and array.shape[i] != 1)
    if broadcast:
        array = array.sum(axis=broadcast, keepdims=True)
    return np.ascontiguousarray(array.reshape(shape))


class CdistBackward0(Node):
    """result = ||x1[..., i, :] - x2[..., j, :]||_p at [..., i, j]   ->
        grad_x1[i] = sum over j of grad[i, j] * slope(x1[i] - x2[j]); grad_x2[j] = minus the sum over i of the same

    The slope of a p-norm at diff = x1[i] - x2[j] is diff / dist for p = 2 and sign(diff) for
    p = 1 (and sign(diff) |diff|**(p-1) / dist**(p-1) in general)."""

    _saved_names = ("x1", "x2", "result")

    def backward(self, grad):
        x1, x2, dist = self.saved_tensors
        g, a, b, d = grad._array, x1._array, x2._array, dist._array
        grads = []
        if self.should_compute_output(0):
            values = _summed_to_shape(_cdist_gradient(g, a, b, self.p, d), a.shape).astype(a.dtype, copy=False)
            grads.append(result(values, CdistBackwardBackward0, (grad, x1, x2, dist)))
        else:
            grads.append(None)
        if self.should_compute_output(1):
            # x2's gradient is x1's formula with the roles swapped: grad and the distances
            # transposed (and made contiguous, which records nodes when they require grad)
            grad_t, dist_t = grad.transpose(-2, -1).contiguous(), dist.transpose(-2, -1).contiguous()
            values = _cdist_gradient(grad_t._array, b, a, self.p, dist_t._array)
            values = _summed_to_shape(values, b.shape).astype(b.dtype, copy=False)
            grads.append(result(values, CdistBackwardBackward0, (grad_t, x2, x1, dist_t)))
        else:
            grads.append(None)
        return tuple(grads)


class CdistBackwardBackward0(Node):
    """result = cdist's gradient, recorded   ->
        grad_grad = error; grad_x1 = error; grad_x2 = error: PyTorch has no derivative for it"""

    def backward(self, grad):
        raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The ``p``-norm distance between each row of ``x1`` and each row of ``x2``.

    ``x1`` is (..., P, M), ``x2`` is (..., R, M); the result is (..., P, R), batch dims broadcast.
    For p = 2 with more than 25 rows (or ``compute_mode="use_mm_for_euclid_dist"``) the
    distances come from one matrix product instead (EuclideanDistBackward0), as in PyTorch.
    """
    if compute_mode not in ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                            "donot_use_mm_for_euclid_dist"):
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    if x1.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.ndim}D")
    if x2.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {x2.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} "
                           f"X2: {x2.shape[-1]}")
    rows1, rows2 = x1.shape[-2], x2.shape[-2]
    by_matrix_product = p == 2 and (compute_mode == "use_mm_for_euclid_dist" or (
        compute_mode == "use_mm_for_euclid_dist_if_necessary" and (rows1 > 25 or rows2 > 25)))
    if not by_matrix_product or x1._array.size == 0 or x2._array.size == 0:
        # PyTorch's _cdist_forward is recorded before its kernel checks anything: it saves
        # both inputs, so an inference tensor among them is refused first
        check_history_kept(x1, x2, saves=SAVES_BOTH)
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{x.dtype.tensor_type_name[:-6]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    try:
        batch = np.broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))
    except ValueError:
        raise _broadcast_error(x1._array[..., 0, 0], x2._array[..., 0, 0]) from None
    if 0 in (rows1, rows2, x1.shape[-1]) or 0 in batch:
        # PyTorch's shortcut before its kernels (so whatever the dtypes): an empty result, or
        # zeros when the rows have no columns
        values = np.zeros(tuple(batch) + (rows1, rows2), x1._array.dtype)
        out = save_result(result(values, CdistBackward0, (x1, x2), p=p), x1, x2)
        return kernel_writes("cdist_zeros", out, x1, x2)
    different = x1._array.dtype != x2._array.dtype
    if by_matrix_product:
        if different and x1.ndim == 2 == x2.ndim:       # (refused by the matrix product)
            check_history_kept(x1, x2, saves=SAVES_BOTH)  # (after _euclidean_dist saved both)
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                               f"{cpp_type_name(x1.dtype)} != {cpp_type_name(x2.dtype)}")
        if not different:
            return kernel_writes("cdist_by_matrix_product", _cdist_by_matrix_product(x1, x2), x1, x2)
    if different:
        raise RuntimeError(f"expected scalar type {x1.dtype.tensor_type_name[:-6]} but found "
                           f"{x2.dtype.tensor_type_name[:-6]}")
    values = np.ascontiguousarray(_cdist_array(x1._array, x2._array, p)).astype(x1._array.dtype, copy=False)
    out = result(values, CdistBackward0, (x1, x2), p=p)
    return save_result(out, x1, x2)


def _cdist_by_matrix_product(x1, x2):
    """The Euclidean cdist of many rows, as PyTorch computes it: from one matrix product.

    ||a - b||**2 = -2 a.b + ||a||**2 + ||b||**2, so with a' = [-2a, ||a||**2, 1] and
    b' = [b, 1, ||b||**2] every squared distance is one entry of a' @ b'.T (fast, but less
    exact for nearby points). Batch dims are broadcast and flattened into one first.
    """
    batch = tuple(np.broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2])))
    rows1, rows2, columns = x1.shape[-2], x2.shape[-2], x1.shape[-1]
    if batch:
        size = int(np.prod(batch))
        # (an expanded tensor is copied to contiguous memory first: CloneBackward0, as in PyTorch)
        x1 = x1.expand(batch + (rows1, columns)).contiguous().view(size, rows1, columns)
        x2 = x2.expand(batch + (rows2, columns)).contiguous().view(size, rows2, columns)
    return _euclidean_dist(x1, x2).view(batch + (rows1, rows2))


def _euclidean_dist(x1, x2):
    """PyTorch's ``_euclidean_dist``: one recorded operation, EuclideanDistBackward0."""
    a, b = x1._array, x2._array
    squared1 = (a ** 2).sum(axis=-1, keepdims=True)
    squared2 = (b ** 2).sum(axis=-1, keepdims=True)
    a_padded = np.concatenate([a * -2, squared1, np.ones_like(squared1)], axis=-1)
    b_padded = np.concatenate([b, np.ones_like(squared2), squared2], axis=-1)
    squared = np.matmul(a_padded, np.swapaxes(b_padded, -1, -2))
    values = np.ascontiguousarray(np.sqrt(np.maximum(squared, 0))).astype(a.dtype, copy=False)
    out = result(values, EuclideanDistBackward0, (x1, x2))
    return save_result(out, x1, x2)


class EuclideanDistBackward0(Node):
    """result = ||x1_i - x2_j|| for every pair, by a matrix product   ->
        grad_x1 = x1 * r.sum(-1) - r @ x2 with r = grad / result (0 where result is 0); grad_x2 = x2 * r.sum(-2) - r.T @ x1"""

    _saved_names = ("x1", "x2", "result")

    def backward(self, grad):
        # composed of ordinary operations, as PyTorch writes it, so create_graph=True records them
        x1, x2, dist = self.saved_tensors
        ratio = grad / dist
        ratio.masked_fill_(dist == 0, 0)
        grad_x1 = x1 * ratio.sum(-1, True) - ratio.matmul(x2)
        grad_x2 = x2 * ratio.sum(-2, False).unsqueeze(-1) - ratio.transpose(-2, -1).matmul(x1)
        return grad_x1, grad_x2
