"""More products: kron, tensordot, inner, vdot, ger, chain_matmul, addbmm.

Most of these PyTorch writes in terms of the products it already has, and so does minigrad,
step by step as PyTorch does, so that the graph shows PyTorch's nodes:

* ``tensordot(a, b, dims)`` moves the summed dims of ``a`` to the end and those of ``b`` to
  the front (permute), flattens both into matrices (reshape) and multiplies them (mm; dot
  when both matrices are a single row and column), then gives the result its shape (view).
* ``inner(a, b)`` is tensordot over the last dim of both (a product, if one is a number).
* ``kron(a, b)`` spreads a's dims over the even positions and b's over the odd ones, so
  that one broadcast product (mul) holds every a[i] * b[j], then merges each pair of dims.
* ``chain_matmul(A, B, C, ...)`` multiplies in the order that needs the fewest
  multiplications (the classic matrix-chain order), as ``torch.linalg.multi_dot`` does.

Only ``vdot`` and ``addbmm`` have their own nodes.
PyTorch: torch.kron, torch.tensordot, torch.inner, torch.vdot, torch.ger, torch.chain_matmul,
torch.addbmm.
"""
import math

import numpy as np

from .._type_names import type_name
from .._tensor import Tensor
from .._zero_tensor import zero_tensors_exist
from .. import _zero_tensor
from ..autograd.graph import Node
from .._dtype import cpp_name
from .._warnings import warn_once
from . import result
from .linalg import outer, _check_not_bool, _save_operands
from .blas import _times
from .shape import unsafe_view, UnsafeViewBackward0, _normalize_dim
from .matrix_products import multi_dot
from .views import SAVES_OTHER, check_history_kept
from ..autograd.kernel_writes import kernel_writes


def _check_tensor(value, function, name, position):
    if not isinstance(value, Tensor):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be Tensor, "
                        f"not {type_name(value)}")


# --- kron --------------------------------------------------------------------------------------

def kron(input, other):
    """The Kronecker product: every element of ``input`` times all of ``other``, laid out in
    blocks (``kron(A, B)[i*p + k, j*q + l] = A[i, j] * B[k, l]``).

    Recorded as PyTorch records it: a view of each input with a size-1 dim between its dims,
    one broadcast product (MulBackward0), a view merging the pairs of dims.
    """
    _check_tensor(input, "kron", "input", 1)
    _check_tensor(other, "kron", "other", 2)
    ndim = max(input.ndim, other.ndim)
    a_shape = (1,) * (ndim - input.ndim) + tuple(input.shape)
    b_shape = (1,) * (ndim - other.ndim) + tuple(other.shape)
    a_spread, b_spread = [], []
    for n, m in zip(a_shape, b_shape):
        a_spread += [n, 1]            # a's dims at the even positions ...
        b_spread += [1, m]            # ... b's at the odd ones
    merged = tuple(n * m for n, m in zip(a_shape, b_shape))
    # (PyTorch's _unsafe_view: a view that must not copy, so an input that can't be seen with
    # the new shape gets view's error)
    product = _viewed(input, a_spread) * _viewed(other, b_spread)
    return _viewed(product, merged)


def _viewed(tensor, shape):
    """``tensor`` with ``shape``, as PyTorch's ``_unsafe_view`` (UnsafeViewBackward0): view's
    error when it can't be done without a copy, and view's strides, size-1 dims included
    (the product's memory layout follows them, and so whether the last view can be done)."""
    steps = tensor.view(shape)._array.strides      # (raises view's error)
    array = np.lib.stride_tricks.as_strided(tensor._array, tuple(shape), steps,
                                            writeable=tensor._array.flags.writeable)
    out = result(array, UnsafeViewBackward0, (tensor,), input_shape=tensor._array.shape)
    out._is_inference = tensor._is_inference     # (a view of an inference tensor is one too)
    return out


# --- tensordot ---------------------------------------------------------------------------------

def _dims_lists(a, b, dims):
    """The summed dims of a and of b, from ``dims``: an int n (a's last n, b's first n), or a
    pair of lists (or of ints)."""
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, (int, np.integer)) and not isinstance(dims, bool):
        dims = int(dims)
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.ndim, b.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        return list(range(a.ndim - dims, a.ndim)), list(range(dims))
    if isinstance(dims, (tuple, list)) and len(dims) == 2:
        first, second = dims
        first = [first] if isinstance(first, (int, np.integer)) else list(first)
        second = [second] if isinstance(second, (int, np.integer)) else list(second)
        return first, second
    raise RuntimeError(f"tensordot expects dims to be a list of two lists or an int, got {dims}\n"
                       "minigrad hint: dims=2, or dims=([1, 2], [0, 1])")


def tensordot(a, b, dims=2):
    """Sum of products over the dims ``dims`` names: ``tensordot(a, b, 1)`` is a matrix
    product over a's last and b's first dim; ``dims=([1, 0], [0, 1])`` pairs a's dim 1 with
    b's dim 0 and a's dim 0 with b's dim 1.

    Recorded as PyTorch computes it: permute (summed dims of a last, of b first), reshape
    into matrices, mm (or dot), view to the result's shape.
    """
    _check_tensor(a, "tensordot", "input", 1)
    _check_tensor(b, "tensordot", "other", 2)
    dims_a, dims_b = _dims_lists(a, b, dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype != b.dtype:       # (a batched tensor has no _array: see func/)
        raise RuntimeError("both inputs should have same dtype")
    dims_a = [_normalize_dim(d, a.ndim) for d in dims_a]
    dims_b = [_normalize_dim(d, b.ndim) for d in dims_b]
    summed = 1
    as_given_a, as_given_b = _dims_lists(a, b, dims)
    if isinstance(dims, (int, np.integer)):      # (PyTorch names a's dims from the end then)
        as_given_a = [d - a.ndim for d in as_given_a]
    for given_a, given_b, da, db in zip(as_given_a, as_given_b, dims_a, dims_b):
        # a dim of size 1 on one side is broadcast: the other side is summed over it at once
        # (PyTorch's rule, which sums a's dim when b's is 1, also when a's is 1 too)
        if b.shape[db] == 1:
            a = a.sum(da, keepdim=True, dtype=a.dtype)
        elif a.shape[da] == 1:
            b = b.sum(db, keepdim=True, dtype=b.dtype)
        elif a.shape[da] != b.shape[db]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {a.shape[da]} in dim "
                f"{given_a} and second has size {b.shape[db]} in dim {given_b}")
        else:
            summed *= a.shape[da]
    kept_a = [d for d in range(a.ndim) if d not in dims_a]
    kept_b = [d for d in range(b.ndim) if d not in dims_b]
    rows = math.prod(a.shape[d] for d in kept_a)
    columns = math.prod(b.shape[d] for d in kept_b)
    out_shape = tuple(a.shape[d] for d in kept_a) + tuple(b.shape[d] for d in kept_b)
    # (the summed dims as given, e.g. -1: PermuteBackward0's _saved_dims shows them so)
    a_moved = a.permute(kept_a + as_given_a)
    b_moved = b.permute(as_given_b + kept_b)
    if rows == 1 and columns == 1 and a_moved.is_contiguous() and b_moved.is_contiguous():
        # one row times one column: a dot product
        product = a_moved.flatten().dot(b_moved.flatten())   # (flatten: a vector stays itself)
    elif rows == 1 and columns == 1:
        # ... of memory laid out otherwise (a slice with steps, an expanded gradient): PyTorch
        # multiplies elementwise and sums instead
        product = (a_moved.squeeze() * b_moved.squeeze()).sum()
    else:
        # (methods: under vmap each step goes to its batching rule)
        product = a_moved.reshape(rows, summed).mm(b_moved.reshape(summed, columns))
    return product.view(out_shape)


# --- inner, vdot, ger --------------------------------------------------------------------------

def inner(input, other):
    """Sum of products over the last dim of both: for vectors their dot product, for
    matrices ``input @ other.T``; a number multiplies every element.

    Recorded as PyTorch computes it: tensordot over dim -1 of both (mul for a 0-d input).
    """
    _check_tensor(input, "inner", "input", 1)
    _check_tensor(other, "inner", "other", 2)
    if input.ndim == 0 or other.ndim == 0:
        value = input * other
    else:
        if input.shape[-1] != other.shape[-1]:
            raise RuntimeError(
                f"inner() the last dimension must match on both input tensors but got shapes "
                f"{list(input.shape)} and {list(other.shape)}")
        value = tensordot(input, other, ([-1], [-1]))
    return value


class VdotBackward0(Node):
    """result = sum(self * other), two vectors   ->   grad_self = grad * other;
        grad_other = grad * self"""

    _saved_names = ("other", "self")      # grad_fn._saved_other, _saved_self as in PyTorch

    def backward(self, grad):
        # (other is unpacked for self's gradient, self for other's)
        other, this = self.saved_tensors_for((self.should_compute_output(0), self.should_compute_output(1)))
        return (grad * other if self.should_compute_output(0) else None,
                grad * this if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t . other + self . other_t (the product rule)"""
        return vdot(tangents[0], inputs[1]) + vdot(inputs[0], tangents[1])


def vdot(input, other):
    """The dot product of two 1-D tensors (for real numbers the same as ``dot``; for complex
    ones PyTorch conjugates the first, and minigrad has no complex numbers).

    Gradient: grad_input = grad * other; grad_other = grad * input.
    """
    _check_tensor(input, "vdot", "input", 1)
    _check_tensor(other, "vdot", "other", 2)
    # PyTorch records the product, saving each input for the other's gradient (an inference
    # tensor can't be saved), before its kernel checks the arguments
    if input.ndim != 1 or other.ndim != 1:
        check_history_kept(input, other, saves=SAVES_OTHER)     # (recorded, then checked)
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    if input._array.dtype != other._array.dtype:
        check_history_kept(input, other, saves=SAVES_OTHER)
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{cpp_name(input.dtype).capitalize()} and {cpp_name(other.dtype).capitalize()}")
    if input.shape[0] != other.shape[0]:
        check_history_kept(input, other, saves=SAVES_OTHER)
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src [{other.shape[0]}] "
            f"to have the same number of elements, but got {input.shape[0]} and {other.shape[0]} "
            "elements respectively")
    _check_not_bool(input, "dot")
    # (a product with a ZeroTensor is one, its zeros not computed: see _zero_tensor.py)
    zero = zero_tensors_exist and _zero_tensor.involved(input, other)
    if zero:
        products_sum = np.zeros((), input._array.dtype)
    else:
        products_sum = np.asarray(np.dot(input._array, other._array))
        if products_sum.dtype.kind in "fc":     # (a sum that starts at +0, as dot's: see linalg.dot)
            products_sum = products_sum + products_sum.dtype.type(0)
    value = result(products_sum, VdotBackward0, (input, other))
    if zero:
        _zero_tensor.as_zero_tensor(value)
    kernel_writes("vdot", value, input, other)
    node = value._grad_fn
    if node is not None:
        # (each only when the other gets a gradient, as PyTorch saves them)
        node.save_for_backward(other if node.should_compute_output(0) else None,
                               input if node.should_compute_output(1) else None)
    return value


# (given by ger's out= variant only, at every call: see OUT_WARNINGS in minigrad/_out.py)
GER_WARNING = ("torch.ger is deprecated and will be removed in a future PyTorch release. Use "
               "torch.outer instead. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/"
               "native/LinearAlgebra.cpp:1270.)")


def ger(input, vec2):
    """The outer product of two vectors: the old name of ``torch.outer`` (with ``out=`` it warns
    that it is deprecated, as PyTorch's does)."""
    return outer(input, vec2)


# --- chain_matmul ------------------------------------------------------------------------------

CHAIN_MATMUL_WARNING = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
    "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
    "multiple parameters. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
    "LinearAlgebra.cpp:1102.)")
# (its out= variant has a warning of its own, once too: PyTorch's line differs)
CHAIN_MATMUL_OUT_WARNING = CHAIN_MATMUL_WARNING.replace(":1102.)", ":1120.)")


def chain_matmul(*matrices):
    """The product of two or more matrices, multiplied in the cheapest order (deprecated in
    PyTorch for ``torch.linalg.multi_dot``; the first call warns so)."""
    warn_once(CHAIN_MATMUL_WARNING)
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for matrix in matrices:
        if matrix.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {matrix.ndim}, expected 2 instead.")
    if len(matrices) == 1:
        return matrices[0].clone()
    return multi_dot(matrices)                      # (PyTorch's chain_matmul is multi_dot)


# --- addbmm: a sum of a batch of products -------------------------------------------------------

class AddbmmBackward0(Node):
    """result = beta * self + alpha * sum_b(batch1[b] @ batch2[b])   ->
        grad_self = beta * grad; grad_batch1 = alpha * grad @ batch2[b]^T for every b;
        grad_batch2 = alpha * batch1[b]^T @ grad for every b"""

    _saved_names = ("batch1", "batch2")

    def backward(self, grad):
        batch1, batch2 = self.saved_tensors
        grad_input = _times(grad, self.beta) if self.should_compute_output(0) else None
        grad_1 = grad_2 = None
        # every product of the batch got the same gradient: grad repeated along the batch
        repeated = grad.unsqueeze(0).expand(self.batch1_sym_argsize_0, *grad.shape)
        if self.should_compute_output(1):
            grad_1 = _times(repeated.bmm(batch2.transpose(1, 2)), self.alpha)
        if self.should_compute_output(2):
            grad_2 = _times(batch1.transpose(1, 2).bmm(repeated), self.alpha)
        return grad_input, grad_1, grad_2

    def jvp(self, tangents, inputs, out):
        """result_t = beta * self_t + alpha * sum_b(batch1_t[b] @ batch2[b] + batch1[b] @ batch2_t[b])"""
        products = tangents[1].bmm(inputs[2]) + inputs[1].bmm(tangents[2])
        return _times(tangents[0], self.beta) + _times(products.sum(0), self.alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * (the sum over b of batch1[b] @ batch2[b]).

    Gradient: grad_input = beta * grad; grad_batch1[b] = alpha * grad @ batch2[b]^T;
    grad_batch2[b] = alpha * batch1[b]^T @ grad.
    """
    for name, value, position in (("input", input, 1), ("batch1", batch1, 2), ("batch2", batch2, 3)):
        _check_tensor(value, "addbmm", name, position)
    # PyTorch's order: what recording saves (an inference batch is refused), the result's shape
    # (input must expand to it), then the batches
    check_history_kept(input, batch1, batch2, saves=((), (2,), (1,)))
    shape = _addbmm_shape(input, batch1, batch2)
    for name, first in (("self", input), ("mat1", batch1)):
        if first._array.dtype != batch2._array.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                               f"{cpp_name(first.dtype).capitalize()} and "
                               f"{cpp_name(batch2.dtype).capitalize()}")
    product = np.matmul(batch1._array, batch2._array).sum(axis=0)
    added = 0 if beta == 0 else (input._array if beta == 1 else input._array * beta)
    value = np.asarray((product if alpha == 1 else product * alpha) + added, dtype=batch1._array.dtype)
    value = np.broadcast_to(value, shape).copy()
    recorded = result(value, AddbmmBackward0, (input, batch1, batch2), alpha=alpha, beta=beta,
                      batch1_sym_argsize_0=batch1.shape[0], batch1_sym_argsize_1=batch1.shape[1],
                      batch2_sym_argsize_2=batch2.shape[2])
    _save_operands(recorded, batch1, batch2)
    return kernel_writes("addbmm", recorded, input, batch1, batch2)


def _addbmm_shape(input, batch1, batch2):
    """The shape of addbmm's result, after PyTorch's checks of the shapes in its order: input
    must expand to the product's shape, then the batches are checked."""
    from ..autograd.grad_mode import no_grad
    shape = (batch1.shape[1], batch2.shape[_normalize_dim(2, batch2.ndim)])
    with no_grad():
        input.expand(shape)           # (expand's errors, word for word)
    if batch1.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if batch2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got "
                           f"{batch1.shape[0]} and {batch2.shape[0]}")
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x{batch1.shape[2]} "
                           f"and {batch2.shape[1]}x{batch2.shape[2]})")
    return shape


def resizing_self_first(addbmm_in_place):
    """``x.addbmm_(batch1, batch2)`` as PyTorch's kernel runs it: it writes the result into x
    through ``resize_``, so an x that only broadcasts to the product's shape (a row, a number)
    first takes that shape, filled with its broadcast values, and is then changed in place as
    usual (``addbmm_in_place``). An x that already has the product's shape goes straight on, and
    so does every x under vmap (PyTorch's loop over the batch there resizes each slice into the
    next one's memory; minigrad refuses instead)."""
    def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        from ..autograd.function import _FuncTransforms
        if (not _FuncTransforms.vmaps and isinstance(self, Tensor) and isinstance(batch1, Tensor) and isinstance(batch2, Tensor)
                and batch1.ndim == 3 and batch2.ndim == 3
                and tuple(self._array.shape) != (batch1._array.shape[1], batch2._array.shape[2])):
            from .inplace import check_inplace
            check_inplace(self, others=(batch1, batch2))        # (autograd's rules come first)
            check_history_kept(batch1, batch2)
            shape = _addbmm_shape(self, batch1, batch2)
            _resize_to_broadcast(self, shape)
        return addbmm_in_place(self, batch1, batch2, beta=beta, alpha=alpha)
    addbmm_.__doc__ = addbmm_in_place.__doc__
    return addbmm_


def _resize_to_broadcast(tensor, shape):
    """Give ``tensor`` the row-major ``shape`` over its memory (grown if too short), filled with
    its old values broadcast to that shape: PyTorch's ``resize_`` then ``copy_`` from an expanded
    view of the same memory (autograd sees neither, and the version stays as it was).

    The copy runs position by position in row-major order, so a position that the expanded
    view reads after the copy wrote it gives the value just written (x of shape (2, 1) with
    steps (2, 1), say): each position's value is found by following such reads back to one
    that was not yet written."""
    from .resize import grown_over_memory
    old = tensor._array
    steps = [0] * len(shape)             # (the expanded view's steps, in elements)
    for dim in range(1, old.ndim + 1):
        if old.shape[-dim] != 1:
            steps[-dim] = old.strides[-dim] // old.itemsize
    new = grown_over_memory(tensor, shape)
    tensor._array = new
    count = new.size
    if not count:
        return
    reads = sum(np.arange(n).reshape((-1,) + (1,) * (len(shape) - 1 - d)) * step
                for d, (n, step) in enumerate(zip(shape, steps)))
    reads = np.broadcast_to(reads, shape).reshape(-1)
    position = np.arange(count)
    while True:                          # follow each read of a position written before it
        earlier = reads[position] < position
        if not earlier.any():
            break
        position = np.where(earlier, reads[position], position)
    span = max(count, int(reads.max()) + 1)
    memory = np.lib.stride_tricks.as_strided(new.reshape(-1)[:1], (span,), (old.itemsize,))
    new[...] = memory[reads[position]].reshape(shape)
