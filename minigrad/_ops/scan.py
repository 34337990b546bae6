"""Running totals along a dimension: cumsum, cumprod (and prod, the last running product).

out[k] = x[0] + ... + x[k] (or x[0] * ... * x[k]). Element x[i] appears in
every out[k] with k >= i, so its gradient collects the output gradients from
position i to the end: a *reverse* running total of the gradient.
PyTorch: torch.cumsum, torch.cumprod, torch.prod (derivatives.yaml).
"""
import numpy as np

from .._type_names import type_name
from .. import _dtype, _vectorized_loop
from .._tensor import Tensor, _wrap, _normalize_dim
from .._memory_format import row_major
from ..autograd.graph import Node
from ..autograd.grad_mode import _State
from ..autograd.function import _FuncTransforms
from .views import history_first
from . import result, save_result, zeros_set_in_place
from .shape import flip, cat, stack
from .indexing import _slice
from .._python_arg_parser import invalid_combination
from ..autograd.forward_ad import jvp_from_backward, _DualLevel
from ..autograd.kernel_writes import kernel_writes


def _reverse_cumsum(grad, dim):
    """sum of grad[k] for k >= i, at every i (flip, running sum, flip back)."""
    return flip(cumsum(flip(grad, (dim,)), dim), (dim,))


def _dim_argument(input, dim, name):
    if dim is None:
        raise TypeError(f"{name}() missing 1 required positional arguments: \"dim\"")
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        raise TypeError(f"{name}(): argument 'dim' (position 1) must be int, not "
                        f"{type_name(dim)}")
    return _normalize_dim(dim, input.ndim)


# --- cumsum -------------------------------------------------------------------------------

class CumsumBackward0(Node):
    """result[k] = self[0] + ... + self[k]   ->
        grad_self[i] = grad[i] + grad[i+1] + ... (a reversed cumsum)"""

    def backward(self, grad):
        input_dtype = getattr(self, "input_dtype", None)
        if input_dtype is not None and grad.dtype is not input_dtype:
            # cumsum(dtype=...): PyTorch's formula turns grad into the input's dtype first
            # (ToCopyBackward0 under create_graph, before the reversed cumsum's FlipBackward0)
            grad = grad.to(input_dtype)
        if grad.ndim == 0:
            return (grad,)
        return (_reverse_cumsum(grad, self.dim),)


@history_first
def cumsum(input, dim=None, dtype=None, *, axis=None):
    """Running sum along ``dim``: out[k] = input[0] + ... + input[k].

    Gradient: a reversed cumsum of grad (grad[i] + grad[i+1] + ...).
    """
    dim_as_given = axis if dim is None else dim          # (grad_fn._saved_dim shows it)
    dim = _dim_argument(input, dim_as_given, "cumsum")
    array = input._array
    if dtype is not None:
        out_dtype = dtype.numpy_dtype
        # (PyTorch fills a 0-d result with the input and leaves an empty one: only the kernel
        # for the other tensors has no bool version)
        if dtype is _dtype.bool_ and array.ndim and array.size:
            raise NotImplementedError('"cumsum_out_cpu" not implemented for \'Bool\'')
    else:   # integers and bools add up as int64, like sum
        out_dtype = np.int64 if array.dtype.kind in "biu" else array.dtype
    # PyTorch's CPU kernel keeps a float32 running sum in float64 and rounds each step's total
    # to float32 (numpy would round after every addition: other last bits)
    running = np.float64 if np.dtype(out_dtype) == np.float32 else out_dtype
    with np.errstate(invalid="ignore", over="ignore"):    # (inf + -inf: NaN, silently, as in PyTorch)
        out = np.cumsum(array, axis=dim if array.ndim else None, dtype=running).reshape(array.shape)
    out = np.asarray(out, dtype=out_dtype, order="C")   # contiguous whatever the input's layout
    settings = {} if dtype is None else {"input_dtype": input.dtype}
    return kernel_writes("cumsum", result(out, CumsumBackward0, (input,), dim=dim, dim_as_given=dim_as_given,
                                          **settings), input)


# --- cumprod ------------------------------------------------------------------------------

class _SavesInputAndResult:
    """Forward rule shared by cumprod and prod: their backward reads (input, result),
    which the op saves only after ``result`` returns, so save them here first and
    get J v from the backward formula."""

    def jvp(self, tangents, inputs, out):
        """result_t = J self_t, computed from the backward formula (after saving self and result)"""
        self.save_for_backward(inputs[0], out)
        return jvp_from_backward(self, tangents, inputs, out)


class CumprodBackward0(_SavesInputAndResult, Node):
    """result[k] = self[0] * ... * self[k]   ->
        grad_self[i] = sum over k >= i of grad[k] * prod_{j <= k, j != i} self[j]

    Without zeros in x that is reverse_cumsum(out * grad) / x. With zeros,
    dividing is impossible, so (as PyTorch does) each grad_self[i] is computed
    on its own from the products of the elements before i and after i. Both are
    written with tensor operations, so they can be differentiated again.
    """

    _saved_names = ('self', 'result')      # grad_fn._saved_self, _saved_result, as in PyTorch

    def backward(self, grad):
        input, out = self.saved_tensors
        dim = self.dim
        if input.numel() <= 1 or input.shape[dim] == 1:
            return (grad,)              # every product is the element itself
        if not (input._array == 0).any():
            return (_reverse_cumsum(out * grad, dim) / input,)
        return (_cumprod_grad_with_zeros(input, grad, dim),)


def _cumprod_grad_with_zeros(input, grad, dim):
    """grad_input[k] = sum over i >= k of grad[i] * (the product of input[:i+1] without
    input[k]), one k at a time: for i >= k that product is (everything before k) times
    (the running product from k+1 to i), with an empty product of 1 at i == k.

    Recording (create_graph=True), PyTorch writes each k into at::zeros (set in place) with
    copy_, so the gradient's version counts them; otherwise its faster path makes a new tensor
    (version 0): here, the pieces stacked. Inside vmap, PyTorch works out of place too (a
    batched piece cannot be copied into zeros that are not batched), and so does minigrad in
    forward mode (stack carries the tangents along)."""
    n = input.shape[dim]
    ones_shape = list(input.shape)
    ones_shape[dim] = 1
    ones = _wrap(np.ones(1, dtype=grad._array.dtype)).expand(ones_shape)
    pieces = []
    for k in range(n):
        if k == n - 1:              # nothing after k: just the product of everything before it
            omitted = input.narrow(dim, 0, k).prod(dim, keepdim=True)
        elif k == 0:                # nothing before k
            omitted = cat([ones, input.narrow(dim, 1, n - 1).cumprod(dim)], dim)
        else:
            before = input.narrow(dim, 0, k).prod(dim, keepdim=True)
            after = input.narrow(dim, k + 1, n - k - 1).cumprod(dim)
            omitted = cat([before, before.expand_as(after) * after], dim)
        pieces.append((grad.narrow(dim, k, n - k) * omitted).sum(dim))
    if not _State.enabled or _FuncTransforms.vmaps or _DualLevel.open:
        return stack(pieces, dim)
    grad_input = zeros_set_in_place(input.shape, grad._array.dtype)
    for k, piece in enumerate(pieces):
        grad_input.select(dim, k).copy_(piece)
    return grad_input


@history_first
def cumprod(input, dim=None, dtype=None, *, axis=None):
    """Running product along ``dim``: out[k] = input[0] * ... * input[k].

    Gradient: grad_input[i] = sum over k >= i of grad[k] * (the product up to k without
    input[i]).
    """
    dim_as_given = axis if dim is None else dim          # (grad_fn._saved_dim shows it)
    dim = _dim_argument(input, dim_as_given, "cumprod")
    array = input._array
    if dtype is _dtype.bool_ and array.ndim and array.size:   # (0-d and empty: as cumsum)
        raise NotImplementedError('"cumprod_out_cpu" not implemented for \'Bool\'')
    out_dtype = dtype.numpy_dtype if dtype is not None else (
        np.int64 if array.dtype.kind in "biu" else array.dtype)
    # (a float32 running product kept in float64, rounded at each step, as PyTorch's CPU kernel)
    running = np.float64 if np.dtype(out_dtype) == np.float32 else out_dtype
    out_array = np.cumprod(array, axis=dim if array.ndim else None, dtype=running).astype(out_dtype)
    out_array = np.asarray(out_array.reshape(array.shape), order="C")     # contiguous, as in PyTorch
    out = result(out_array, CumprodBackward0, (input,), dim=dim, dim_as_given=dim_as_given)
    return save_result(kernel_writes("cumprod", out, input), input)       # PyTorch saves self and result


# --- prod ---------------------------------------------------------------------------------

def _product_of_the_others(x, dim):
    """prod of x[j] for j != i, at every i along ``dim``, without dividing (safe with zeros).

    (product of everything before i) * (product of everything after i): two
    running products shifted by one place.
    """
    n = x.shape[dim]
    ones_shape = list(x.shape)
    ones_shape[dim] = 1
    one = _wrap(np.ones(ones_shape, dtype=x._array.dtype))
    before = cumprod(cat([one, x.narrow(dim, 0, n - 1)], dim), dim)
    after = flip(cumprod(cat([one, flip(x.narrow(dim, 1, n - 1), (dim,))], dim), dim), (dim,))
    return before * after


def _saved_in_result_dtype(node, grad):
    """prod's saved input and result, the input converted to the result's dtype first (prod
    with dtype=...): PyTorch's formula reads self.to(grad's dtype), recorded (ToCopyBackward0)
    under create_graph, and the engine converts the gradient back to the input's dtype."""
    input, out = node.saved_tensors
    if input._array.dtype != grad._array.dtype:
        input = input.to(grad.dtype)
    return input, out


class ProdBackward0(_SavesInputAndResult, Node):
    """result = self.prod() (all elements)   ->
        grad_self[i] = grad * (the product of all the others)"""

    _saved_names = ('self', 'result')      # grad_fn._saved_self, _saved_result, as in PyTorch

    def backward(self, grad):
        input, out = _saved_in_result_dtype(self, grad)
        if input.ndim == 0:
            return (grad,)
        if not (input._array == 0).any():     # (no elements: no 0 either)
            return (grad * (out / input),)      # PyTorch's formula when nothing is 0
        flat = input.reshape(-1)
        return ((grad * _product_of_the_others(flat, 0)).reshape(input.shape),)


class ProdBackward1(_SavesInputAndResult, Node):
    """result = self.prod(dim)   ->   grad_self[i] = grad * (the product of the others along dim)"""

    _saved_names = ('self', 'result')      # grad_fn._saved_self, _saved_result, as in PyTorch

    def backward(self, grad):
        input, out = _saved_in_result_dtype(self, grad)
        if input.ndim == 0:
            return (grad,)
        if not self.keepdim:
            grad, out = grad.unsqueeze(self.dim), out.unsqueeze(self.dim)
        if not (input._array == 0).any():     # (no elements: no 0 either)
            return (grad * (out / input),)      # PyTorch's formula when nothing is 0
        return (grad * _product_of_the_others(input, self.dim),)


def _row_products(rows):
    """Products of the rows of a C-ordered 2-D float32/float64 array in the order of PyTorch's
    vectorised inner reduction (AVX2): a row of at least 4 vectors (32 float32, 16 float64)
    keeps 4 vectors of running products over its whole blocks of 4 vectors, multiplies them
    (0 * 1) * (2 * 3), then the lanes one by one; the numbers after the last block follow one
    by one (a shorter row: all one by one, from 1)."""
    lanes = 8 if rows.dtype == np.float32 else 4
    block = 4 * lanes
    blocks = rows.shape[1] // block
    one = rows.dtype.type(1)
    if blocks:
        # numpy multiplies along an axis that is not the last one slice after the other
        accumulators = np.multiply.reduce(rows[:, :blocks * block].reshape(len(rows), blocks, 4, lanes),
                                          axis=1)
        vector = (accumulators[:, 0] * accumulators[:, 1]) * (accumulators[:, 2] * accumulators[:, 3])
        out = one * np.multiply.accumulate(vector, axis=1)[:, -1]
    else:
        out = np.full(len(rows), one)
    if rows.shape[1] > blocks * block:
        out = np.multiply.accumulate(np.concatenate([out[:, None], rows[:, blocks * block:]], axis=1),
                                     axis=1)[:, -1]
    return out


def _pytorch_prod(array, dim, keepdim):
    """The float32/float64 product over ``dim`` (None: all) in PyTorch's order where minigrad
    follows it (a C-ordered array, one thread's work), else None. Over the last dim (or all):
    _row_products; over another dim PyTorch multiplies the slices one after the other, as numpy."""
    if array.dtype not in (np.float32, np.float64) or not array.flags.c_contiguous or \
            array.size == 0 or array.size > _vectorized_loop.GRAIN_SIZE:
        return None
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        if dim is None:
            return _row_products(array.reshape(1, -1)).reshape(())
        if dim != array.ndim - 1:
            return None
        out = _row_products(array.reshape(-1, array.shape[-1]))
        return out.reshape(array.shape[:-1] + ((1,) if keepdim else ()))


@history_first
def prod(input, dim=None, keepdim=False, dtype=None, *, axis=None, keepdims=None):
    """Product of all elements, or along ``dim`` (one dimension, as in PyTorch)."""
    dim = axis if dim is None else dim
    keepdim = keepdims if keepdims is not None else keepdim
    array = input._array
    out_dtype = dtype.numpy_dtype if dtype is not None else (
        np.int64 if array.dtype.kind in "biu" else array.dtype)
    ordered = None
    if dtype is None or np.dtype(out_dtype) == array.dtype:
        ordered = _pytorch_prod(array, None if dim is None or not array.ndim else
                                _normalize_dim(dim, array.ndim), keepdim and array.ndim > 0) \
            if (dim is None or isinstance(dim, int) and not isinstance(dim, bool)) else None
    if dim is None:
        value = ordered if ordered is not None else np.prod(array, dtype=out_dtype)
        out = result(np.asarray(value), ProdBackward0, (input,))
    else:
        if not isinstance(dim, int) or isinstance(dim, bool):
            raise invalid_combination("prod", (dim,), {})
        dim_as_given, dim = dim, _normalize_dim(dim, array.ndim)
        out_array = ordered if ordered is not None else np.prod(
            array, axis=dim if array.ndim else None, keepdims=keepdim and array.ndim > 0, dtype=out_dtype)
        out = result(row_major(np.asarray(out_array)), ProdBackward1, (input,), dim=dim, keepdim=keepdim,
                     dim_as_given=dim_as_given)
    return save_result(kernel_writes("prod", out, input), input)       # PyTorch saves self and result


def narrow(input, dim, start, length):
    """The slice ``start:start+length`` of dimension ``dim`` (a view, SliceBackward0).

    Gradient: grad placed back in those positions, zeros elsewhere.
    """
    if isinstance(start, Tensor):     # (PyTorch's overload for a tensor start checks it first)
        if start._array.ndim != 0 or start._array.dtype.kind not in "iu":
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start._array)
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    size = input.shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but "
                         f"got {start})")
    start = start + size if start < 0 else start
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    # always a slice, even of the whole dimension (x[0:n] in a longer index records nothing)
    return _slice(input, dim, slice(start, start + length), dim_as_given=dim_as_given)
