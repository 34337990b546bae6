"""Batched and fused matrix products: bmm, baddbmm, addmm with beta/alpha.

bmm multiplies a batch of matrices pair by pair: out[b] = A[b] @ B[b].
The "add" forms fuse a scaled sum in: out = beta * input + alpha * (A @ B),
which is what a linear layer computes in one call. Their gradients are the
ones of a matrix product, per batch: dA = grad @ B^T, dB = A^T @ grad.
PyTorch: torch.bmm, torch.baddbmm, torch.addmm (BLAS names).
"""
import warnings

import numpy as np

from .._fused_multiply_add import fma as _fma
from .._type_names import type_name
from .._tensor import Tensor
from ..autograd.graph import Node
from . import result
from .linalg import (BmmBackward0, nothing_to_multiply, batched_product, addmm as _plain_addmm,
                     _check_same_dtype, _check_not_bool,
                     _save_operands, _mat1_gradient, _mat2_gradient, _remember_layouts)
from .._dtype import _category, cpp_name, cpp_type_name
from .views import SAVES_OTHER, check_history_kept
from .pointwise import mul_by_number
from .._out import RESIZE_WARNING
from .._warnings import stacklevel_outside_minigrad
from ..autograd.kernel_writes import kernel_writes


def _check_batches(first, second, function):
    for name, value, position in (("input", first, 1), ("mat2", second, 2)):
        if not isinstance(value, Tensor):
            raise TypeError(f"{function}(): argument '{name}' (position {position}) must be "
                            f"Tensor, not {type_name(value)}")
    if first.ndim != 3 or second.ndim != 3 or second.shape[:2] != first.shape[::2]:
        check_history_kept(first, second, saves=SAVES_OTHER)   # (recorded, then checked)
    if first.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if second.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if second.shape[0] != first.shape[0] or second.shape[1] != first.shape[2]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{first.shape[0]}, {first.shape[2]}] but got: [{second.shape[0]}, {second.shape[1]}].")
    if first._array.dtype.kind == "b" or first._array.dtype != second._array.dtype:
        # (autograd saves each for the other's gradient before the kernel compares the dtypes:
        # an inference tensor is refused first)
        check_history_kept(first, second, saves=SAVES_OTHER)
    if not nothing_to_multiply(first, second):      # (else PyTorch's kernel returns first)
        _check_not_bool(first, function)           # its kernel is chosen by the first's dtype
        if first._array.dtype != second._array.dtype:
            raise RuntimeError(f"expected scalar type {cpp_name(first.dtype).capitalize()} but "
                               f"found {cpp_name(second.dtype).capitalize()}")


def bmm(input, mat2):
    """A batch of matrix products: out[b] = input[b] @ mat2[b] (both 3-D, same batch size).

    Gradient, batch by batch: grad_input = grad @ mat2^T; grad_mat2 = input^T @ grad.
    """
    _check_batches(input, mat2, "bmm")
    # (saved: only what the gradients need, so the other may change in place before backward)
    out = kernel_writes("mm", result(batched_product(input, mat2), BmmBackward0, (input, mat2)), input, mat2)
    return _save_operands(out, input, mat2)



class BaddbmmBackward0(Node):
    """result = beta * self + alpha * (batch1 @ batch2), per batch   ->
        grad_self = beta * grad; grad_batch1 = alpha * grad @ batch2^T;
        grad_batch2 = alpha * batch1^T @ grad"""

    _saved_names = ("batch1", "batch2")      # grad_fn._saved_batch1, ... (and _saved_alpha, _saved_beta)

    def backward(self, grad):
        a, b = self.saved_tensors
        grad_input = _times(grad, self.beta) if self.should_compute_output(0) else None
        grad_a = _times(bmm(grad, b.transpose(1, 2)), self.alpha) if self.should_compute_output(1) else None
        grad_b = _times(bmm(a.transpose(1, 2), grad), self.alpha) if self.should_compute_output(2) else None
        return grad_input, grad_a, grad_b


def _times(tensor, number):
    """tensor * number (MulBackward1, a product with a plain number), or the tensor itself for
    1: PyTorch records no multiplication by 1 (its maybe_multiply), so create_graph=True sees
    the same nodes."""
    return tensor if number == 1 else mul_by_number(tensor, number)


def _size(tensor, dim):
    """tensor.size(dim), with PyTorch's error for a dim the tensor does not have."""
    if dim >= tensor.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(tensor.ndim, 1)}, "
                         f"{max(tensor.ndim, 1) - 1}], but got {dim})")
    return tensor._array.shape[dim]


def _check_input_expands(input, batch1, batch2):
    """PyTorch's baddbmm first reads the result's shape from the batches (batch1's first two
    sizes, batch2's last) and expands input to it: before any other check."""
    shape = (_size(batch1, 0), _size(batch1, 1), _size(batch2, 2))
    try:
        np.broadcast_to(input._array, shape)
    except ValueError:
        input.detach().expand(shape)        # (raises expand's own error)


def check_baddbmm_in_place(self, batch1, batch2):
    """x.baddbmm_(batch1, batch2): the result takes batch2's dtype, and an in-place call may not
    change x's dtype. PyTorch checks it once the shapes are known to fit (after baddbmm's own
    argument checks), before its kernel compares the dtypes."""
    if not (isinstance(batch1, Tensor) and isinstance(batch2, Tensor)):
        return                          # (baddbmm's own errors follow)
    _check_input_expands(self, batch1, batch2)
    if self._array.dtype != batch1._array.dtype or batch1.ndim != 3 or batch2.ndim != 3 \
            or batch2.shape[:2] != batch1.shape[::2]:
        return                          # (baddbmm's own errors follow)
    if batch2._array.dtype != self._array.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {cpp_type_name(self.dtype)} and output "
                           f"tensor dtype {cpp_type_name(batch2.dtype)} should match")


def check_addmm_in_place(self, mat1, mat2):
    """x.addmm_(mat1, mat2): x itself (not broadcast) must have the product's shape. PyTorch
    checks it once mat1 and mat2 are known to multiply (after addmm's own argument checks),
    before x is broadcast for the sum (x of shape [2, 3] and a product of [1, 3] is refused)."""
    if not (isinstance(mat1, Tensor) and isinstance(mat2, Tensor)):
        return                          # (addmm's own errors follow)
    if self._array.dtype != mat2._array.dtype or mat1._array.dtype != mat2._array.dtype \
            or mat1.ndim != 2 or mat2.ndim != 2 or mat1.shape[1] != mat2.shape[0]:
        return                          # (addmm's own errors follow)
    product_shape = [mat1.shape[0], mat2.shape[1]]
    if list(self.shape) != product_shape:
        raise RuntimeError(f"Bad in-place call: input tensor size {list(self.shape)} and output "
                           f"tensor size {product_shape} should match")


def check_baddbmm_out(out, input=None, batch1=None, batch2=None, **_):
    """baddbmm(..., out=t): once the shapes fit, PyTorch lays out the result with batch2's dtype
    and refuses an out of another one, before its kernel compares the batches' dtypes (a float32
    input and batch1 with a float64 batch2 want a float64 out)."""
    if not all(isinstance(t, Tensor) for t in (out, input, batch1, batch2)):
        return                          # (baddbmm's own errors follow)
    _check_input_expands(input, batch1, batch2)
    if input._array.dtype != batch1._array.dtype or batch1.ndim != 3 or batch2.ndim != 3 \
            or batch2.shape[:2] != batch1.shape[::2]:
        return                          # (baddbmm's own errors follow)
    if batch2._array.dtype != batch1._array.dtype and out._array.dtype != batch2._array.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {cpp_type_name(batch2.dtype)}, but got "
                           f"{cpp_type_name(out.dtype)} instead")


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * bmm(batch1, batch2) (input broadcasts to the result's shape).

    Gradient: grad_input = beta * grad; grad_batch1 = alpha * grad @ batch2^T; grad_batch2 =
    alpha * batch1^T @ grad.
    """
    if isinstance(input, Tensor) and isinstance(batch1, Tensor) and isinstance(batch2, Tensor):
        _check_input_expands(input, batch1, batch2)
    if (isinstance(input, Tensor) and isinstance(batch1, Tensor) and isinstance(batch2, Tensor)
            and input._array.dtype != batch1._array.dtype):
        # (PyTorch names the types as the C++ compiler does: 'long int', 'c10::Half'; it saves
        # each batch for the other's gradient first)
        check_history_kept(input, batch1, batch2, saves=((), (2,), (1,)))
        names = [cpp_type_name(t.dtype) for t in (input, batch1, batch2)]
        raise RuntimeError(f"Input dtypes must be the same, got: input {names[0]}, batch1: {names[1]}, "
                           f"batch2: {names[2]}")
    _check_batches(batch1, batch2, "baddbmm")
    _check_not_bool(batch1, "baddbmm")
    product = batched_product(batch1, batch2)
    added = input._array if beta == 1 else input._array * beta
    out = (product if alpha == 1 else product * alpha) + (0 if beta == 0 else added)
    out = result(np.asarray(out, dtype=product.dtype), BaddbmmBackward0, (input, batch1, batch2),
                 beta=beta, alpha=alpha)
    kernel_writes("addmm", out, input, batch1, batch2, beta=beta)
    return _save_operands(out, batch1, batch2)      # (only what the gradients need, as for bmm)


class ScaledAddmmBackward(Node):
    """result = beta * self + alpha * (mat1 @ mat2)   ->
        grad_self = beta * grad; grad_mat1 = alpha * grad @ mat2^T;
        grad_mat2 = alpha * mat1^T @ grad"""

    _saved_names = ("mat1", "mat2")      # grad_fn._saved_mat1, ... (and _saved_alpha, _saved_beta)

    _mat1_column_major = _mat2_column_major = False     # (set by forward: see _column_major)

    def backward(self, grad):
        a, b = self.saved_tensors
        grad_input = _times(grad, self.beta) if self.should_compute_output(0) else None
        grad_a = grad_b = None
        if self.should_compute_output(1):
            grad_a = _times(_mat1_gradient(grad, b, self._mat1_column_major), self.alpha)
        if self.should_compute_output(2):
            grad_b = _times(_mat2_gradient(grad, a, self._mat2_column_major), self.alpha)
        return grad_input, grad_a, grad_b


ScaledAddmmBackward.__name__ = ScaledAddmmBackward.__qualname__ = "AddmmBackward0"


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """beta * input + alpha * (mat1 @ mat2); with beta = alpha = 1 one AddmmBackward0 as in linear.

    Gradient: grad_input = beta * grad; grad_mat1 = alpha * grad @ mat2^T; grad_mat2 = alpha *
    mat1^T @ grad.
    """
    for name, value, position in (("input", input, 1), ("mat1", mat1, 2), ("mat2", mat2, 3)):
        if not isinstance(value, Tensor):
            raise TypeError(f"addmm(): argument '{name}' (position {position}) must be Tensor, "
                            f"not {type_name(value)}")
    # PyTorch compares dtypes before anything else: self with mat2, then mat1 with mat2
    for name, first in (("self", input), ("mat1", mat1)):
        if isinstance(first, Tensor) and first._array.dtype != mat2._array.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                               f"{cpp_name(first.dtype).capitalize()} and "
                               f"{cpp_name(mat2.dtype).capitalize()}")
    if mat1.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {mat1.ndim}-D tensor")  # PyTorch's text
    if mat2.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {mat2.ndim}-D tensor")
    if beta == 1 and alpha == 1:
        return _plain_addmm(input, mat1, mat2)
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})")
    _check_same_dtype(mat1, mat2)
    product = mat1._array @ mat2._array
    out = product * alpha + (0 if beta == 0 else input._array * beta)
    out = result(np.asarray(out, dtype=product.dtype), ScaledAddmmBackward, (input, mat1, mat2),
                 beta=beta, alpha=alpha)
    kernel_writes("addmm", out, input, mat1, mat2, beta=beta)
    return _save_operands(_remember_layouts(out, mat1, mat2, ("mat1", "mat2"), 1), mat1, mat2)


# --- addmv, addr: the matrix-vector and outer products, with beta/alpha --------------------------

def _scaled_sum(input, product, beta, alpha):
    """beta * input + alpha * product; with beta 0 input is ignored (its nan and inf too)."""
    dtype = product.dtype
    scaled = product if alpha == 1 else product * np.asarray(alpha, dtype)
    if beta == 0:
        return np.broadcast_to(scaled, product.shape).copy()
    return np.asarray(input * np.asarray(beta, dtype) + scaled if beta != 1 else input + scaled, dtype)


class AddmvBackward0(Node):
    """result = beta * self + alpha * (mat @ vec)   ->
        grad_self = beta * grad; grad_mat = alpha * outer(grad, vec); grad_vec = alpha * mat^T @ grad"""

    _saved_names = ("mat", "vec")      # grad_fn._saved_mat, ... (and _saved_alpha, _saved_beta)

    def backward(self, grad):
        mat, vec = self.saved_tensors
        beta, alpha = self.beta, self.alpha
        return (_by(grad, beta) if self.should_compute_output(0) else None,
                _by(grad.outer(vec), alpha) if self.should_compute_output(1) else None,
                _by(mat.t().mv(grad), alpha) if self.should_compute_output(2) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = beta * self_t + alpha * (mat_t @ vec + mat @ vec_t)"""
        (_, mat, vec), (self_t, mat_t, vec_t) = inputs, tangents
        return _by(self_t, self.beta) + _by(mat_t.mv(vec) + mat.mv(vec_t), self.alpha)


def _by(tensor, number):
    return tensor if number == 1 else mul_by_number(tensor, number)


def _must_be_tensors(name, *named):
    for position, (parameter, value) in enumerate(named, start=1):
        if not isinstance(value, Tensor):
            raise TypeError(f"{name}(): argument '{parameter}' (position {position}) must be Tensor, "
                            f"not {type_name(value)}")


def _empty_matrix_shortcut(input, rows, beta):
    """beta * input, in input's own shape: PyTorch's addmv of an empty matrix writes this product
    into its (rows,) result, which is resized to input's shape (a warning if it had elements)."""
    if input.shape != (rows,) and rows:
        warnings.warn(RESIZE_WARNING.format(old=[rows], new=list(input.shape)), UserWarning,
                      stacklevel=stacklevel_outside_minigrad())
    return np.asarray(input._array * np.asarray(beta, input._array.dtype), input._array.dtype)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """beta * input + alpha * (mat @ vec): a matrix times a vector, plus a (scaled) vector.

    Gradient: beta * grad to input, alpha * outer(grad, vec) to mat, alpha * mat^T @ grad to vec.
    """
    _must_be_tensors("addmv", ("input", input), ("mat", mat), ("vec", vec))
    if mat.ndim != 2 or vec.ndim != 1 or input.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, {vec.ndim}")
    if mat.shape[1] != vec.shape[0] or (input.ndim and input.shape[0] not in (1, mat.shape[0])):
        raise RuntimeError(f"size mismatch, got input ({input.shape[0] if input.ndim else 1}), mat "
                           f"({mat.shape[0]}x{mat.shape[1]}), vec ({vec.shape[0]})")
    dtypes = [t._array.dtype for t in (input, mat, vec)]
    if len(set(dtypes)) > 1:
        names = ", ".join(cpp_name(t.dtype).capitalize() for t in (input, mat))
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {names}, and "
                           f"{cpp_name(vec.dtype).capitalize()}")
    if mat._array.size == 0 and beta != 0:
        out = _empty_matrix_shortcut(input, mat.shape[0], beta)
    else:
        out = _scaled_sum(input._array, mat._array @ vec._array, beta, alpha)
    # (mat is saved only for vec's gradient, vec only for mat's: see _save_operands)
    return _save_operands(result(out, AddmvBackward0, (input, mat, vec), beta=beta, alpha=alpha), mat, vec)


class AddrBackward0(Node):
    """result = beta * self + alpha * outer(vec1, vec2)   ->
        grad_self = beta * grad; grad_vec1 = alpha * grad @ vec2; grad_vec2 = alpha * grad^T @ vec1"""

    _saved_names = ("vec1", "vec2")      # grad_fn._saved_vec1, ... (and _saved_alpha, _saved_beta)

    def backward(self, grad):
        vec1, vec2 = self.saved_tensors
        beta, alpha = self.beta, self.alpha
        return (_by(grad, beta) if self.should_compute_output(0) else None,
                _by(grad.mv(vec2), alpha) if self.should_compute_output(1) else None,
                _by(grad.t().mv(vec1), alpha) if self.should_compute_output(2) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = beta * self_t + alpha * (outer(vec1_t, vec2) + outer(vec1, vec2_t))"""
        (_, vec1, vec2), (self_t, vec1_t, vec2_t) = inputs, tangents
        return _by(self_t, self.beta) + _by(vec1_t.outer(vec2) + vec1.outer(vec2_t), self.alpha)


def addr(input, vec1, vec2, *, beta=1, alpha=1):
    """beta * input + alpha * outer(vec1, vec2): a matrix plus a (scaled) outer product.

    Gradient: beta * grad to input, alpha * grad @ vec2 to vec1, alpha * grad^T @ vec1 to vec2.
    """
    _must_be_tensors("addr", ("input", input), ("vec1", vec1), ("vec2", vec2))
    for name, vec in (("vec1", vec1), ("vec2", vec2)):
        if vec.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {vec.ndim}-D")
    dtype = addr_dtype(input._array, vec1._array, vec2._array)
    product = np.multiply.outer(vec1._array.astype(dtype, copy=False), vec2._array.astype(dtype, copy=False))
    try:
        np.broadcast_to(input._array, product.shape)
    except ValueError:
        raise RuntimeError(
            f"The expanded size of the tensor ({product.shape[-1]}) must match the existing size "
            f"({input.shape[-1]}) at non-singleton dimension {input.ndim - 1}.  Target sizes: "
            f"{list(product.shape)}.  Tensor sizes: {list(input.shape)}") from None
    _check_addr_scalar(product.dtype, beta, "beta")
    _check_addr_scalar(product.dtype, alpha, "alpha")
    out = addr_values(input._array, vec1._array, vec2._array, beta, alpha) if product.dtype.kind == "f" \
        else _scaled_sum(input._array, product, beta, alpha)
    return _save_operands(result(out, AddrBackward0, (input, vec1, vec2), beta=beta, alpha=alpha), vec1, vec2)


def _check_addr_scalar(dtype, number, name):
    """PyTorch's rules for addr's beta and alpha: a bool only for a bool result, a float not for
    integers."""
    if isinstance(number, (bool, np.bool_)) and dtype != np.bool_:
        raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
    if dtype.kind not in "fc" and isinstance(number, (float, np.floating)):
        raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")


def addr_dtype(*arrays):
    """The dtype of addr's result: PyTorch expands input to the matrix before it promotes, so
    all three count alike (a 0-d int64 input with float32 vectors gives float32, a float64 0-d
    input with float32 vectors float64), the highest kind first (float > integer > bool)."""
    top = max(_category(a.dtype) for a in arrays)
    return np.result_type(*(a.dtype for a in arrays if _category(a.dtype) == top))


def addr_values(input, vec1, vec2, beta, alpha):
    """beta * input + alpha * outer(vec1, vec2) for floats, rounded as PyTorch's CPU loop rounds
    each element: (alpha * vec1[i]) * vec2[j], then beta * input + that in one fused
    multiply-add (alpha * vec1 * vec2 alone for beta 0). (Where a row is long enough for
    PyTorch's vector loop, 16 float32 or 8 float64 with AVX2, it groups the fused step the
    other way: those elements can differ in the last bit.)"""
    dtype = addr_dtype(np.asarray(input), np.asarray(vec1), np.asarray(vec2))
    beta_, alpha_ = np.asarray(beta, dtype), np.asarray(alpha, dtype)
    with np.errstate(all="ignore"):
        scaled = np.multiply.outer(vec1.astype(dtype) * alpha_, vec2.astype(dtype))
        if beta == 0:
            return scaled
        shape = scaled.shape
        return _fma(np.broadcast_to(beta_, shape), np.broadcast_to(input.astype(dtype), shape), scaled)
