"""Products built for linear algebra: cross, vecdot, multi_dot, matrix_power (PyTorch: torch.linalg).

Only ``cross`` has a node of its own (LinalgCrossBackward0); the others are compositions of
products minigrad already has (mul and sum, mm, matmul), exactly as PyTorch composes
them, so their graphs show those nodes.
"""
import warnings

import numpy as np

from .._fused_multiply_add import fma as _fma
from .._tensor import _wrap, _normalize_dim
from .._zero_tensor import zero_tensors_exist
from .. import _zero_tensor
from .._dtype import cpp_name, cpp_type_name, scalar_type_name
from .._warnings import stacklevel_outside_minigrad
from ..autograd.graph import Node, gets_gradient_edge
from . import result
from .pointwise import _broadcast_error, kernel_not_implemented
from .linalg import matmul
from .views import SAVES_OTHER, check_history_kept
from .decompositions import check_matrices, inv, show_settings
from ..autograd.graph import shown_as_given


# --- cross -------------------------------------------------------------------------------------

class LinalgCrossBackward0(Node):
    """result = self x other (along dim)   ->   grad_self = other x grad; grad_other = grad x self"""

    _saved_names = ("other", "self")

    def backward(self, grad):
        # (other is unpacked for self's gradient, self for other's)
        other, a = self.saved_tensors_for((self.should_compute_output(0), self.should_compute_output(1)))
        grad_self = cross(other, grad, dim=self.dim) if self.should_compute_output(0) else None
        grad_other = cross(grad, a, dim=self.dim) if self.should_compute_output(1) else None
        return grad_self, grad_other

    def jvp(self, tangents, inputs, out):
        """result_t = self_t x other + self x other_t"""
        (a, b), (a_t, b_t) = inputs, tangents
        return cross(a_t, b, dim=self.dim) + cross(a, b_t, dim=self.dim)


def _cross_axis(input, other, dim):
    """The axis ``dim`` names, once the kernel's checks of the two inputs pass."""
    if input.ndim != other.ndim:
        raise RuntimeError(f"linalg.cross: inputs must have the same number of dimensions.")
    axis = _normalize_dim(dim, input.ndim)
    if input.shape[axis] != 3 or other.shape[axis] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input.shape[axis]} and {other.shape[axis]}")
    try:
        np.broadcast_shapes(tuple(input.shape), tuple(other.shape))
    except ValueError:
        raise _broadcast_error(input, other) from None
    # PyTorch's kernel is chosen by input's dtype (none for bool), writes into a result of that
    # dtype and reads other only as that dtype
    if input._array.dtype == np.bool_:
        raise kernel_not_implemented("cross", input)
    if other._array.dtype != input._array.dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(input.dtype)} but found "
                           f"{scalar_type_name(other.dtype)}")
    return axis


def cross(input, other, *, dim=-1):
    """``torch.linalg.cross``: the cross product of 3-vectors along ``dim`` (broadcast), the
    vector perpendicular to both. Gradient: grad_input = other x grad; grad_other = grad x input."""
    try:
        axis = _cross_axis(input, other, dim)
    except (RuntimeError, IndexError, NotImplementedError):
        # PyTorch records the product, saving each input for the other's gradient (an inference
        # tensor can't be saved), before its kernel checks the arguments
        check_history_kept(input, other, saves=SAVES_OTHER)
        raise
    a, b = np.broadcast_arrays(input._array, other._array)
    value = _cross_product(a, b, axis)
    # (each saved only when the other's gradient needs it, as PyTorch saves them)
    out = result(np.ascontiguousarray(value), LinalgCrossBackward0, (input, other),
                 saved=(other if gets_gradient_edge(input) else None, input if gets_gradient_edge(other) else None),
                 dim=dim)
    if zero_tensors_exist and _zero_tensor.involved(input, other):
        _zero_tensor.made_zero(out)         # (a product with a ZeroTensor is one: see _zero_tensor.py)
    return out


def _cross_product(a, b, axis):
    """a x b along ``axis``: component k is a[i] * b[j] - a[j] * b[i]. PyTorch's compiled loop
    fuses the first product into the subtraction for float32 and float64 (one rounding), so
    x.cross(x) is not always exactly 0, as numpy's cross would give."""
    if a.dtype not in (np.float32, np.float64):
        return np.cross(a, b, axisa=axis, axisb=axis, axisc=axis)
    a, b = np.moveaxis(a, axis, -1), np.moveaxis(b, axis, -1)
    with np.errstate(all="ignore"):
        parts = [_fma(a[..., i], b[..., j], -(a[..., j] * b[..., i]))
                 for i, j in ((1, 2), (2, 0), (0, 1))]
    return np.moveaxis(np.stack(parts, -1), -1, axis)


def cross_function(input, other, dim=None):
    """``torch.cross`` / ``x.cross(other)``: ``linalg.cross`` along ``dim``; without ``dim``, along
    the first dim of size 3 (deprecated in PyTorch, which warns)."""
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease "
                      "either pass the dim explicitly or simply use torch.linalg.cross.\nThe "
                      "default value of dim will change to agree with that of linalg.cross in a "
                      "future release.", UserWarning, stacklevel=stacklevel_outside_minigrad())
        sizes = list(input.shape)
        if 3 not in sizes:
            raise RuntimeError("no dimension of size 3 in input")
        dim = sizes.index(3)
    return cross(input, other, dim=dim)


# --- vecdot ------------------------------------------------------------------------------------

def vecdot(x, y, *, dim=-1):
    """``torch.linalg.vecdot``: the dot product of vectors along ``dim`` (broadcast):
    ``(x * y).sum(dim)``, recorded as those two operations; of two 1-d tensors ``vdot``."""
    if x._array.dtype.kind != "f":       # (x's dtype is checked first, then that y's is the same)
        from .decompositions import check_floating
        check_floating("linalg.vecdot", x)
    if x._array.dtype != y._array.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of "
                           f"type {cpp_name(x.dtype).capitalize()} and y of type "
                           f"{cpp_name(y.dtype).capitalize()} instead")
    if x.ndim == 1 and y.ndim == 1:
        from .products import vdot       # (products builds on this module)
        return vdot(x, y)         # (PyTorch's path for two vectors, whatever dim: VdotBackward0)
    return (x * y).sum(dim)


# --- multi_dot ---------------------------------------------------------------------------------

def _check_chain(tensors):
    count = len(tensors)
    if count < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {count}")
    for i, t in enumerate(tensors):
        if i == 0 and t.ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {t.ndim}D")
        if i == count - 1 and t.ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {t.ndim}D")
        if 0 < i < count - 1 and t.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D")
    first = tensors[0]
    for i, t in enumerate(tensors[1:], 1):
        if t.dtype != first.dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 "
                               f"is {cpp_type_name(first.dtype)} and tensor {i} {cpp_type_name(t.dtype)}")


def _chain_order(shapes):
    """The cheapest order to multiply a chain of matrices (dynamic programming over where the
    last product splits): ``split[i][j]`` is where the product of matrices i..j splits."""
    n = len(shapes)
    dims = [shapes[0][0]] + [s[1] for s in shapes]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _multiply_chain(matrices, split, i, j):
    if i == j:
        return matrices[i]
    k = split[i][j]
    # (methods: under vmap each product goes to its batching rule)
    return _multiply_chain(matrices, split, i, k).mm(_multiply_chain(matrices, split, k + 1, j))


def multi_dot(tensors):
    """``torch.linalg.multi_dot``: the product of a chain of matrices, multiplied in the
    cheapest order. The first may be a row vector, the last a column vector (1-D)."""
    tensors = list(tensors)
    _check_chain(tensors)
    first, last = tensors[0], tensors[-1]
    matrices = list(tensors)
    if first.ndim == 1:
        matrices[0] = first.unsqueeze(0)
    if last.ndim == 1:
        matrices[-1] = last.unsqueeze(-1)
    for i in range(len(matrices) - 1):
        if matrices[i].shape[1] != matrices[i + 1].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"{list(tensors[i].shape)} and {list(tensors[i + 1].shape)} cannot be multiplied")
    shapes = [tuple(m.shape) for m in matrices]
    if len(matrices) == 3:
        # three matrices: PyTorch compares the two orders directly, and prefers (AB)C on a tie
        a, b, c = shapes[0][0], shapes[1][0], shapes[2][0]
        d = shapes[2][1]
        if a * b * c + a * c * d <= b * c * d + a * b * d:
            product = matrices[0].mm(matrices[1]).mm(matrices[2])
        else:
            product = matrices[0].mm(matrices[1].mm(matrices[2]))
    else:
        product = _multiply_chain(matrices, _chain_order(shapes), 0, len(matrices) - 1)
    shape = ((first.shape[0],) if first.ndim == 2 else ()) + ((last.shape[1],) if last.ndim == 2 else ())
    return product.view(shape)


# --- vander ------------------------------------------------------------------------------------

def vander(x, N=None):
    """``torch.linalg.vander``: the Vandermonde matrix, columns x**0, x**1, ..., x**(N-1)
    (N defaults to x's last size). Made as PyTorch makes it: a running product of copies of x
    (cumprod), after a column of ones."""
    N = x.shape[-1] if N is None else N
    if N <= 1:
        raise RuntimeError("N must be greater than 1.")
    from .shape import cat
    powers = x.unsqueeze(-1).expand(*x.shape, N - 1).cumprod(-1)
    ones = _wrap(np.ones(tuple(x.shape) + (1,), dtype=powers._array.dtype))
    return cat([ones, powers], -1)


# --- tensorinv and tensorsolve: inv and solve of a tensor seen as a matrix ----------------------

def tensorinv(A, ind=2):
    """``torch.linalg.tensorinv``: the inverse of A seen as a matrix, its first ``ind`` dims the
    rows and the others the columns, shaped back as A.shape[ind:] + A.shape[:ind] (so that
    ``tensordot(tensorinv(A), A, ind)`` is the identity)."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows_shape, columns_shape = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    rows, columns = int(np.prod(rows_shape)), int(np.prod(columns_shape))
    if rows != columns:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {columns} != {rows}")
    return inv(A.reshape(rows, columns)).reshape(columns_shape + rows_shape)


def tensorsolve(A, B, dims=None):
    """``torch.linalg.tensorsolve``: X with ``tensordot(A, X, X.ndim) = B``, solved as one
    linear system (A seen as a square matrix); ``dims``: dims of A moved to the end first."""
    from .decompositions import solve
    if dims is not None:
        moved = [d % A.ndim for d in dims]
        A = A.permute([d for d in range(A.ndim) if d not in moved] + moved)
    result_shape = tuple(A.shape[B.ndim:])
    columns, rows = int(np.prod(result_shape)), B.numel()
    if rows != columns:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {columns} != {rows}")
    # (flatten, as PyTorch: a vector B stays itself, with no node)
    return solve(A.reshape(rows, columns), B.flatten()).view(result_shape)


# --- matrix_power ------------------------------------------------------------------------------

def matrix_power(A, n):
    """``torch.linalg.matrix_power``: A multiplied by itself ``n`` times (n = 0: the identity;
    n < 0: the inverse's power). Recorded as the products it makes, by repeated squaring."""
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if n == 0:
        # PyTorch copies the identity into a clone of A: the graph shows CopyBackwards
        identity = _wrap(np.broadcast_to(np.eye(A.shape[-1], dtype=A._array.dtype), A._array.shape).copy())
        return A.clone().copy_(identity)
    if n < 0:
        check_matrices("linalg.inv", A)
        A, n = inv(A), -n
        if n == 1:
            return A
    elif n == 1:
        return A.clone()
    if n == 2:
        return matmul(A, A)
    if n == 3:
        return matmul(matmul(A, A), A)
    # repeated squaring: z runs through A, A^2, A^4, ...; the bits of n pick which to multiply in
    z = product = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = A if z is None else matmul(z, z)
        if bit:
            if n == 0:
                return z if product is None else matmul(product, z)
            product = z if product is None else matmul(product, z)
    return product


show_settings(LinalgCrossBackward0, dim=shown_as_given("dim"))

