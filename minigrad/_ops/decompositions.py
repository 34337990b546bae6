"""Matrix decompositions and what they give: det, slogdet, inv, solve (PyTorch: torch.linalg).

Each works on a matrix or on a batch of them (the last two dims are the matrix; any dims
before are a batch). numpy (LAPACK) computes the values; the backward formulas below are
the matrix calculus written with minigrad's own operations, so that ``create_graph=True``
records them and they can be differentiated again.

The key fact behind most of them: the derivative of the inverse is
``d(A^-1) = -A^-1 dA A^-1``. From it:

* ``det``:    d(det A) = det A * trace(A^-1 dA)     ->   grad_A = grad * det A * A^-T
* ``slogdet``: d(log|det A|) = trace(A^-1 dA)        ->   grad_A = grad * A^-T
* ``inv``:    grad_A = -A^-T grad A^-T
* ``solve``:  X = A^-1 B                             ->   grad_B = A^-T grad, grad_A = -grad_B X^T

A singular matrix has no inverse: PyTorch then raises ``torch.linalg.LinAlgError`` (a
RuntimeError), named after the LU factorization's first zero on the diagonal.
"""
import warnings

import numpy as np

from .._tensor import _wrap
from .._dtype import from_numpy_dtype
from .._warnings import stacklevel_outside_minigrad
from ..autograd.graph import Node, SavedOutput, attach_outputs, connect, keep_settings, needs_grad
from ..autograd.graph import _SETTINGS_KEPT_AS, show_saved_names
from ..autograd.forward_ad import _DualLevel, _paused, _set_tangent, input_tangents
from ..autograd.grad_mode import _State
from ..autograd.function import _FuncTransforms
from .._functorch import seeing_through_vmap, _GradLevels
from . import result, plain_output
from ..autograd.kernel_writes import kernel_writes
from .lu_solve_order import lu_solve_like_pytorch
from .lu_blocked import lu_in_panels, SIZES as lu_in_panels_sizes
from .._fused_multiply_add import fma as _fma     # (a * b + c rounded once, in the arrays' dtype)
from .lu_blocked import lu_fused_in_panels, FUSED_PANEL_SIZES as lu_fused_in_panels_sizes
from .mkl_kernels import MKL_FUSES_MULTIPLY_ADDS
from .._cascade_sum import pytorch_sum


class _LinAlgError(RuntimeError):
    """What PyTorch raises when a matrix has no inverse or no Cholesky factor
    (``torch.linalg.LinAlgError``, a RuntimeError)."""


_LinAlgError.__module__ = "torch._C"      # (where PyTorch's class lives: its printed name)


# --- named results -------------------------------------------------------------------------

def named_result(name, fields):
    """A tuple class with named fields, printed as PyTorch's ``torch.return_types.<name>``."""

    def __new__(cls, *values):
        if len(values) == 1 and len(fields) > 1:      # made from one sequence, as PyTorch's can be
            (values,) = values
        return tuple.__new__(cls, values)

    def __repr__(self):
        parts = ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self))
        return f"torch.return_types.{name}(\n{parts})"

    namespace = {"__new__": __new__, "__repr__": __repr__, "_name": name, "_field_names": fields,
                 "__doc__": f"The named result ({', '.join(fields)}) of {name}."}
    for position, field in enumerate(fields):
        namespace[field] = property(lambda self, position=position: self[position])
    return type(name, (tuple,), namespace)


def _register(*classes):
    from .reduction import return_types      # (torch.return_types.<name>)
    for cls in classes:
        setattr(return_types, cls._name, cls)


linalg_slogdet = named_result("linalg_slogdet", ("sign", "logabsdet"))
slogdet_result = named_result("slogdet", ("sign", "logabsdet"))
linalg_inv_ex = named_result("linalg_inv_ex", ("inverse", "info"))
linalg_solve_ex = named_result("linalg_solve_ex", ("result", "info"))
linalg_cholesky_ex = named_result("linalg_cholesky_ex", ("L", "info"))
_register(linalg_slogdet, slogdet_result, linalg_inv_ex, linalg_solve_ex, linalg_cholesky_ex)


def lapack_layout(array):
    """``array`` laid out as LAPACK (and so PyTorch) returns matrices: each one column by
    column (column-major), the matrices of a batch one after the other. Such a result is not
    contiguous: ``x.view(-1)`` of it fails in PyTorch, and here too."""
    if array.ndim < 2:
        return np.ascontiguousarray(array)
    # (a new array: numpy keeps odd steps along dims of size 1 of an array it need not copy,
    # where PyTorch's are those of a fresh column-major layout)
    out = np.swapaxes(np.empty(array.shape[:-2] + array.shape[:-3:-1], dtype=array.dtype), -1, -2)
    out[...] = array
    return out


# --- checks shared by every function here ---------------------------------------------------

def check_matrices(name, A, square=True, floating=True):
    """PyTorch's checks of a (batch of) matrices, in its order: at least 2-D, square, floating."""
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if square and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if floating:
        check_floating(name, A)


def refuse_half(A, kernel=None, name=None, message=None):
    """PyTorch has no float16 LAPACK kernels: its error for a float16 ``A`` (naming the
    ``kernel``, or the function ``name`` that refuses low precision, or a ``message``)."""
    if A._array.dtype != np.float16:
        return
    if kernel is not None:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Half\'')
    raise RuntimeError(message or f"{name}: Low precision dtypes not supported. Got Half")


def check_floating(name, A):
    if A._array.dtype.kind != "f":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{from_numpy_dtype(A._array.dtype).tensor_type_name[:-6]}")


def raise_for_info(name, info, batched, describe):
    """PyTorch's error for the first matrix whose ``info`` is not 0, naming its batch element."""
    flat = np.asarray(info).reshape(-1)
    bad = np.flatnonzero(flat)
    if bad.size == 0:
        return
    first = int(bad[0])
    where = f"(Batch element {first}): " if batched else ""
    raise _LinAlgError(f"{name}: {where}{describe(int(flat[first]))}")


# --- several outputs of one node -------------------------------------------------------------

def several_results(arrays, node_class, inputs, differentiable, **attributes):
    """Tensors for ``arrays``, those at positions ``differentiable`` recorded as outputs
    0, 1, ... of one ``node_class`` node (as PyTorch's U, S, Vh of one LinalgSvdBackward0).
    Returns the tensors and the node (None if nothing was recorded)."""
    outs = [plain_output(np.asarray(array), *inputs) for array in arrays]     # (layouts kept)
    if not needs_grad(inputs):
        return outs, None
    node = connect(outs[differentiable[0]], node_class(), inputs)
    keep_settings(node, attributes)
    attach_outputs(node, [out if i in differentiable else None for i, out in enumerate(outs)],
                   [np.shape(array) for array in arrays])
    return outs, node


def push_tangents(outs, inputs, rule):
    """Forward mode for an operation with several outputs: while a dual level is open and an
    input carries a tangent, give each output the tangent ``rule(tangents)`` returns for it
    (None: no tangent, as for an integer output)."""
    if not _DualLevel.open:
        return
    tangents = input_tangents(inputs)
    if tangents is None:
        return
    with _paused(), seeing_through_vmap():
        out_tangents = rule(tangents)
    for out, tangent in zip(outs, out_tangents):
        if tangent is not None:
            _set_tangent(out, tangent)


def zeros_if_none(grad, like):
    """An output that was not used sends no gradient (None): it counts as zeros."""
    return grad if grad is not None else _wrap(np.zeros(like.shape, dtype=like._array.dtype))


# --- the LU factorization (what det, slogdet, inv and solve are computed from) ----------------

def lu_factor(array):
    """Gaussian elimination with partial pivoting, as LAPACK's getrf: returns LU (L below the
    diagonal, with 1s not stored; U on and above it), the pivots (1-based row swaps, int32)
    and info (0, or the first position whose pivot is exactly 0: a singular matrix).

    Each m x n matrix (square or not) is eliminated column by column, in the order of the
    getrf that PyTorch's CPU build calls (MKL's, found by comparing the bits of its factors):
    the column below the pivot is scaled by the reciprocal of the pivot (one rounding more
    than a division), except in a square matrix of at most 4 x 4, whose step with a single
    number below the pivot divides; then the rank-1 update of the rest, one column at a
    time (on Intel's processors with fused multiply-adds, see mkl_kernels). This gives MKL's
    factors to the bit up to 16 x 16. Beyond, MKL works in panels on AMD's processors, whose
    order lu_blocked follows for float64 matrices of most sizes up to 64 x 64, and
    on Intel's, followed up to 64 x 64 (float64 and float32)."""
    m, n = array.shape[-2], array.shape[-1]
    batch = array.shape[:-2]
    steps = min(m, n)
    if array.size == 0:                 # no matrices, or empty ones: nothing to eliminate
        return (array.copy(), np.zeros(batch + (steps,), dtype=np.int32),
                np.zeros(batch, dtype=np.int32))
    lu = np.array(array, copy=True).reshape((-1, m, n))
    count = lu.shape[0]
    pivots = np.zeros((count, steps), dtype=np.int32)
    info = np.zeros(count, dtype=np.int32)
    every = np.arange(count)
    # (from 17 x 17 on MKL works in panels: of 8 columns on AMD's processors, followed for
    # float64; of 16 or 24 columns, left-looking inside, on Intel's: see lu_blocked)
    if MKL_FUSES_MULTIPLY_ADDS:
        in_panels = lu_fused_in_panels if n in lu_fused_in_panels_sizes.get(lu.dtype, ()) else None
    else:
        in_panels = lu_in_panels if n in lu_in_panels_sizes and lu.dtype == np.float64 else None
    if m == n and in_panels is not None:
        panel_pivots, panel_info = in_panels(lu)
        return (lu.reshape(array.shape), (panel_pivots + 1).astype(np.int32).reshape(batch + (steps,)),
                panel_info.reshape(batch))
    one, tiny = lu.dtype.type(1), np.finfo(lu.dtype).tiny
    with np.errstate(all="ignore"):
        for k in range(steps):
            p = k + np.argmax(np.abs(lu[:, k:, k]), axis=1)
            pivots[:, k] = p + 1
            row_k, row_p = lu[every, k].copy(), lu[every, p].copy()
            lu[every, k], lu[every, p] = row_p, row_k
            pivot = lu[:, k, k]
            zero = pivot == 0
            info[(info == 0) & zero] = k + 1
            # (a zero pivot means the column below is all zero too: nothing to eliminate;
            # a pivot so small that its reciprocal overflows is divided by, as LAPACK does)
            divide = (np.abs(pivot) < tiny) | (m == n <= 4 and k == n - 2)
            column = lu[:, k + 1:, k]
            scaled = column * (one / np.where(zero, one, pivot))[:, None]
            lu[:, k + 1:, k] = np.where(divide[:, None], column / np.where(zero, one, pivot)[:, None], scaled)
            below, right = lu[:, k + 1:, k:k + 1], lu[:, k:k + 1, k + 1:]
            if MKL_FUSES_MULTIPLY_ADDS:     # (Intel's processors: see mkl_kernels)
                lu[:, k + 1:, k + 1:] = _fma(-below, right, lu[:, k + 1:, k + 1:])
            else:
                lu[:, k + 1:, k + 1:] -= below * right
    return lu.reshape(array.shape), pivots.reshape(batch + (steps,)), info.reshape(batch)


def _inverse_arrays(array, lu, pivots, info):
    """A^-1 for each matrix as PyTorch computes it: A X = I solved with A's LU factors, in
    MKL's order (a singular matrix gives inf and nan, as LAPACK's solve does)."""
    n = array.shape[-1]
    return lu_solve_like_pytorch(lu, pivots, np.broadcast_to(np.eye(n, dtype=array.dtype), array.shape))


def _singular_inverse_message(position):
    return (f"The diagonal element {position} is zero, the inversion could not be completed "
            "because the input matrix is singular.")


# --- det and slogdet -------------------------------------------------------------------------

def _det_from_lu(lu, pivots):
    """det(A) = (-1)^(number of row swaps) * the product of U's diagonal, as LAPACK gives it
    (so a singular matrix's determinant may be -0.0, as in PyTorch)."""
    swaps = (pivots != np.arange(1, pivots.shape[-1] + 1)).sum(axis=-1)
    sign = np.where(swaps % 2 == 1, -1, 1).astype(lu.dtype)
    with np.errstate(over="ignore", under="ignore"):    # (inf or 0 as LAPACK's product, silently)
        return np.asarray(sign * np.prod(np.diagonal(lu, axis1=-2, axis2=-1), axis=-1), dtype=lu.dtype)


def _slogdet_from_lu(lu, pivots):
    """The sign and log|det| from the LU factors (a singular matrix's sign may be -0.0)."""
    diagonal = np.diagonal(lu, axis1=-2, axis2=-1)
    swaps = (pivots != np.arange(1, pivots.shape[-1] + 1)).sum(axis=-1)
    sign = np.where(swaps % 2 == 1, -1, 1).astype(lu.dtype) * np.prod(np.sign(diagonal), axis=-1)
    with np.errstate(divide="ignore"):
        logs = np.ascontiguousarray(np.log(np.abs(diagonal)))
    # (the logs added up in the order of PyTorch's sum, where minigrad knows it)
    logabsdet = pytorch_sum(logs, (logs.ndim - 1,), False)
    if logabsdet is None:
        logabsdet = np.sum(logs, axis=-1)
    return np.asarray(sign, dtype=lu.dtype), np.asarray(logabsdet, dtype=lu.dtype)


def _as_lapack_sees_it(array):
    """The matrices det and slogdet factor: PyTorch hands its LU factorization the memory as
    it is, and LAPACK reads it by columns, so of a row-major A it factors A^T (the same
    determinant; another LU, which may find an exact 0 pivot where A's has a tiny one)."""
    return np.swapaxes(array, -1, -2) if array.flags.c_contiguous else array


def _as_matrix_scale(values):
    """A batch of numbers (..., ) as (..., 1, 1), to scale each matrix of a batch."""
    return values.unsqueeze(-1).unsqueeze(-1)


class LinalgDetBackward0(Node):
    """result = det(A)   ->   grad_A = grad * det(A) * A^-T  (= grad * adjugate(A)^T)

    PyTorch's steps, which decide the values at singular matrices: a 1 x 1 matrix's gradient
    is grad itself; otherwise G solves A^T G = diag(grad * det(A)). Without create_graph the
    solve uses the LU factors of the forward pass, an exact 0 pivot replaced by eps (so a
    matrix with a 0 pivot gets 0). With create_graph, matrices with |det| < 100 eps get the
    transposed adjugate through the SVD (which stays differentiable there), the others
    ``linalg.solve(A^T, ...)``."""

    _saved_names = ("A", "LU", "pivots", "result")

    def backward(self, grad):
        A, LU, pivots, det = self.saved_tensors
        if A._array.size == 0:
            return (None,)
        if A.shape[-1] == 1:
            return (grad.unsqueeze(-1).unsqueeze(-1).expand(A.shape),)
        if _FuncTransforms.depth or _GradLevels.differentiating is not None:
            # inside torch.func transforms PyTorch's tensors are wrapped ("subclass-like"),
            # and its formula then takes the SVD for every matrix: no data-dependent choice
            return (_adjugate_by_svd(A, grad),)
        if not _State.enabled:
            return (_wrap(_det_gradient_by_lu(A, LU._array, pivots._array, (grad * det)._array)),)
        from .diagonals import diag_embed
        d = diag_embed((grad * det).unsqueeze(-1).expand_as(pivots)).mT
        eps = np.finfo(A._array.dtype).eps
        singular = np.abs(det._array) < A._array.dtype.type(100 * eps)
        if np.all(singular):
            return (_adjugate_by_svd(A, grad),)
        if not np.any(singular):
            return (solve(A.mT, d),)
        # a batch with both kinds: each formula on its own matrices, put together in place
        # (by indexing, as PyTorch's C++ does: a single matrix loses its batch dim in a view)
        from .._creation import empty_like
        mask, others = _wrap(singular), _wrap(~singular)
        out = empty_like(A)
        out[mask] = _adjugate_by_svd(A[mask], grad[mask])
        out[others] = solve(A[others].mT, d[others])
        return (out,)

    def jvp(self, tangents, inputs, out):
        """result_t = det(A) * trace(A^-1 A_t), as PyTorch computes it: A^-1 A_t solved with
        A's LU factors (as LAPACK sees A: of A^T for a row-major A, solved transposed), an
        exact 0 pivot replaced by eps (so a singular A gives a number, not an error)."""
        from .lu import lu_solve            # (recorded: the tangent's own history is kept)
        (A,), (A_t,) = inputs, tangents
        array = A._array
        lu, pivots, _ = lu_factor(_as_lapack_sees_it(array))
        factors = _zero_pivots_as_eps(lu)
        solved = lu_solve(_wrap(factors), _wrap(pivots), A_t, adjoint=bool(array.flags.c_contiguous))
        return solved.diagonal(0, -2, -1).sum(-1) * out


def _adjugate_by_svd(A, grad):
    """grad * adjugate(A)^T from A = U S Vh: det(U) det(Vh) U diag(the product of the other
    singular values) Vh, which needs no inverse (PyTorch's formula near singular matrices)."""
    from .spectral import svd
    from .scan import _product_of_the_others
    U, S, Vh = svd(A)
    alpha = det(U) * det(Vh) * grad
    D = alpha.unsqueeze(-1) * _product_of_the_others(S, S.ndim - 1)
    return (U * D.unsqueeze(-2)).matmul(Vh)


def _zero_pivots_as_eps(lu):
    """LU factors with each diagonal element that is exactly 0 replaced by the dtype's eps, as
    PyTorch's det formulas solve with them. (PyTorch adds a diagonal matrix of eps and +0.0 to
    the factors: every -0.0 in them becomes +0.0, which decides the signs of the zeros a solve
    gives.)"""
    eye = np.eye(lu.shape[-1], dtype=lu.dtype)
    shift = np.where(np.diagonal(lu, axis1=-2, axis2=-1) == 0, np.finfo(lu.dtype).eps, 0)
    return lu + shift.astype(lu.dtype)[..., None] * eye


def _det_gradient_by_lu(A, lu, pivots, scales):
    """det's gradient as PyTorch computes it without create_graph: X with A^T X =
    diag(grad * det) (``scales``), solved with the LU factors of the forward pass (of A^T for
    a row-major A, else of A, solved transposed), where a diagonal element that is exactly 0
    is replaced by the dtype's eps: a matrix with a 0 pivot gets zeros, with the signs of zero
    of PyTorch's solve."""
    array = A._array
    eye = np.eye(array.shape[-1], dtype=array.dtype)
    factors = _zero_pivots_as_eps(lu)
    rhs = np.where(eye == 1, np.asarray(scales, dtype=array.dtype)[..., None, None], eye * 0)
    by_rows = array.flags.c_contiguous
    return lapack_layout(lu_solve_like_pytorch(factors, pivots, rhs, transposed=not by_rows))


def det(A):
    """``torch.linalg.det``: the determinant of a square matrix (or of each in a batch).

    Gradient: grad * det(A) * A^-T, the transposed adjugate; 0 for a matrix whose LU has an
    exact 0 on the diagonal, as in PyTorch.
    """
    check_matrices("linalg.det", A)
    refuse_half(A, kernel="lu_cpu")
    array = A._array
    lu, pivots, _ = lu_factor(_as_lapack_sees_it(array))
    value = _det_from_lu(lu, pivots)
    out = result(value, LinalgDetBackward0, (A,))
    node = out._grad_fn
    if isinstance(node, LinalgDetBackward0):
        node.save_for_backward(A, _wrap(lapack_layout(lu)), _wrap(pivots), SavedOutput(out))   # (LAPACK keeps LU by columns)
    return kernel_writes("det", out, A)


class LinalgSlogdetBackward0(Node):
    """results = (sign, logabsdet) = slogdet(A)   ->   grad_A = grad_logabsdet * A^-T

    The sign is piecewise constant: it sends no gradient."""

    _saved_names = ("A", "LU", "pivots", "sign")

    def backward(self, grad_sign, grad_logabsdet):
        if grad_logabsdet is None:
            return (None,)
        A = self.saved_tensors[0]
        n = A.shape[-1]
        if _State.enabled:
            # create_graph: PyTorch solves A^T X = diag(g), differentiable in A (and so it
            # fails for a singular A, as linalg.solve does)
            eye = _wrap(np.eye(n, dtype=A._array.dtype))
            return (solve(A.mT, _as_matrix_scale(grad_logabsdet) * eye),)
        # the same solve, without history and without its error (a singular A gives inf and
        # nan), with the LU factors of the forward pass (of A^T for a row-major A, else of A,
        # solved transposed) in MKL's order, as PyTorch's lu_solve
        array = A._array
        rhs = grad_logabsdet._array[..., None, None] * np.eye(n, dtype=array.dtype)
        lu, pivots, _ = lu_factor(_as_lapack_sees_it(array))
        values = _solve_arrays(lu, pivots, rhs, transposed=not array.flags.c_contiguous)
        return (_wrap(lapack_layout(values)),)


def slogdet(A, _result_type=linalg_slogdet, _name="linalg.slogdet"):
    """``torch.linalg.slogdet``: the sign and the log of the absolute value of the determinant,
    as the named pair (sign, logabsdet). Accurate where det itself would overflow or underflow.

    Gradient: grad_logabsdet * A^-T (the sign has none).
    """
    check_matrices(_name, A)
    refuse_half(A, name=_name)
    array = A._array
    lu, pivots, _ = lu_factor(_as_lapack_sees_it(array))
    sign, logabsdet = _slogdet_from_lu(lu, pivots)
    (sign_out, log_out), node = several_results(
        [np.asarray(sign, dtype=array.dtype), np.asarray(logabsdet, dtype=array.dtype)],
        LinalgSlogdetBackward0, (A,), differentiable=(0, 1))
    if node is not None:
        node.save_for_backward(A, _wrap(lapack_layout(lu)), _wrap(pivots), SavedOutput(sign_out))   # (by columns)
    # forward mode: the sign does not change; d(log|det A|) = trace(A^-1 A_t)
    push_tangents((sign_out, log_out), (A,), lambda tangents: (
        sign_out.detach() * 0, solve(A.detach(), tangents[0]).diagonal(0, -2, -1).sum(-1)))
    return kernel_writes("slogdet", _result_type(sign_out, log_out), A)


def slogdet_function(A):
    """``torch.slogdet``: ``torch.linalg.slogdet``, its result named ``torch.return_types.slogdet``."""
    return slogdet(A, slogdet_result)


def logdet(A):
    """``torch.logdet``: log(det(A)), nan where det(A) < 0 (the log of a negative number).

    Computed from slogdet, as PyTorch does: ``where(sign < 0, nan, logabsdet)``.
    Gradient: grad * A^-T where det(A) > 0.
    """
    check_matrices("logdet", A)
    refuse_half(A, name="logdet")
    sign, logabsdet = slogdet(A)
    from .pointwise import where
    nan = _wrap(np.asarray(np.nan, dtype=A._array.dtype))
    return where(sign < 0, nan, logabsdet)


# --- inv ---------------------------------------------------------------------------------------

class LinalgInvExBackward0(Node):
    """result = A^-1   ->   grad_A = -A^-T grad A^-T"""

    _saved_names = ("inverse",)

    def backward(self, grad, grad_info=None):
        (inverse,) = self.saved_tensors
        inverse_t = inverse.mT
        # grad times A^-T first, then A^-T times that: PyTorch's order (the same rounding,
        # and the same nodes when the gradient is recorded with create_graph=True)
        return (-(inverse_t.matmul(grad.matmul(inverse_t))),)

    def jvp(self, tangents, inputs, out):
        """result_t = -A^-1 A_t A^-1"""
        return -(out.matmul(tangents[0]).matmul(out))


def inv_ex(A, *, check_errors=False, _name="linalg.inv"):
    """``torch.linalg.inv_ex``: the inverse and ``info`` (int32: 0, or for a singular matrix the
    position of the first zero pivot of its LU factorization), without raising unless
    ``check_errors``. Gradient: -A^-T grad A^-T."""
    check_matrices(_name, A)
    refuse_half(A, name=_name)
    array = A._array
    lu, pivots, info = lu_factor(array)
    if check_errors:
        raise_for_info(_name, info, A.ndim > 2, _singular_inverse_message)
    out = result(lapack_layout(_inverse_arrays(array, lu, pivots, info)), LinalgInvExBackward0, (A,))
    node = out._grad_fn
    if isinstance(node, LinalgInvExBackward0):
        node.save_for_backward(SavedOutput(out))
    return kernel_writes("inv_ex", linalg_inv_ex(out, plain_output(np.asarray(info, dtype=np.int32), A)), A)


def inv(A):
    """``torch.linalg.inv`` (and ``torch.inverse``): the inverse of a square matrix; a singular
    one raises ``torch.linalg.LinAlgError``. Gradient: -A^-T grad A^-T."""
    return inv_ex(A, check_errors=True).inverse


# --- solve -------------------------------------------------------------------------------------

def _is_vector_case(A, B):
    """PyTorch's rule: B is a vector (or a batch of vectors) when it is 1-D, or has exactly
    A's batch dims and one more."""
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


class LinalgSolveExBackward0(Node):
    """result = X with A X = B   ->   grad_B = A^-T grad; grad_A = -grad_B X^T

    With left=False (X A = B): grad_B = grad A^-T and grad_A = -X^T grad_B."""

    _saved_names = ("A", "LU", "pivots", "result")

    def backward(self, grad, grad_info=None):
        A, _, _, X = self.saved_tensors
        if self.vector_case:
            # B was a vector (or batch of vectors): solved as a one-column matrix, and the
            # gradient follows that matrix formula, giving grad_B back as vectors. Written
            # out like this the recorded graph (create_graph=True) is PyTorch's.
            grad_B = solve(A.mT, grad.unsqueeze(-1))
            grad_A = -(grad_B.matmul(X.unsqueeze(-1).mT)) if self.should_compute_output(0) else None
            return grad_A, grad_B.squeeze(-1)
        if self.left:
            grad_B = solve(A.mT, grad)
            grad_A = -(grad_B.matmul(X.mT)) if self.should_compute_output(0) else None
        else:
            grad_B = solve(A.mT, grad, left=False)
            grad_A = -(X.mT.matmul(grad_B)) if self.should_compute_output(0) else None
        return grad_A, grad_B

    def jvp(self, tangents, inputs, out):
        """result_t = A^-1 (B_t - A_t X)"""
        (A, B), (A_t, B_t) = inputs, tangents
        if self.vector_case:
            return solve(A, B_t - A_t.matmul(out.unsqueeze(-1)).squeeze(-1))
        if self.left:
            return solve(A, B_t - A_t.matmul(out))
        return solve(A, B_t - out.matmul(A_t), left=False)


def solve_ex(A, B, *, left=True, check_errors=False, _name="linalg.solve"):
    """``torch.linalg.solve_ex``: solve A X = B (``left=False``: X A = B) and give ``info``
    (0, or the first zero pivot of a singular A) instead of raising, unless ``check_errors``."""
    check_matrices(_name, A)
    if A._array.dtype != B._array.dtype:
        raise RuntimeError(f"{_name}: Expected A and B to have the same dtype, but found A of type "
                           f"{from_numpy_dtype(A._array.dtype).tensor_type_name[:-6]} and B of type "
                           f"{from_numpy_dtype(B._array.dtype).tensor_type_name[:-6]} instead")
    refuse_half(A, kernel="lu_cpu")
    vector_case = _is_vector_case(A, B)
    b = B._array[..., None] if vector_case else B._array
    a = A._array
    n = a.shape[-1]
    if (left and b.shape[-2] != n) or (not left and b.shape[-1] != n):
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{_name}: Incompatible shapes of A and B for the equation {equation} "
                           f"({a.shape[-2]}x{a.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})")
    try:
        np.broadcast_shapes(b.shape[:-2], a.shape[:-2])
    except ValueError:        # the batch dims clash: PyTorch's broadcasting message (B's first)
        from .pointwise import _broadcast_error
        raise _broadcast_error(np.empty(b.shape[:-2]), np.empty(a.shape[:-2])) from None
    lu, pivots, info = lu_factor(a)
    if check_errors and np.any(info):
        if A.ndim > 2:
            raise_for_info("torch.linalg.solve", info, True,
                           lambda _: "The solver failed because the input matrix is singular.")
        raise _LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.")
    if not left:                                # X A = B is A^T X^T = B^T (A's factors)
        x = np.swapaxes(_solve_arrays(lu, pivots, np.swapaxes(b, -1, -2), transposed=True), -1, -2)
    else:
        x = _solve_arrays(lu, pivots, b)
    if vector_case:        # (a batch of vectors comes as one column-major matrix, as PyTorch's)
        x = np.asfortranarray(x[..., 0], dtype=a.dtype)
    else:
        x = x.astype(a.dtype, copy=False)
        # X A = B is solved as A^T X^T = B^T: LAPACK's X^T comes column by column, so X
        # itself is laid out row by row
        x = lapack_layout(x) if left else np.ascontiguousarray(x)
    out = result(x, LinalgSolveExBackward0, (A, B),
                 left=left, vector_case=vector_case)
    node = out._grad_fn
    if isinstance(node, LinalgSolveExBackward0):
        node.save_for_backward(A, _wrap(lapack_layout(lu)), _wrap(pivots), SavedOutput(out))   # (LAPACK keeps LU by columns)
    return kernel_writes("solve_ex", linalg_solve_ex(out, plain_output(np.asarray(info, dtype=np.int32), A, B)), A, B)


def _solve_arrays(lu, pivots, b, transposed=False):
    """X with A X = b (``transposed``: A^T X = b) from A's LU factors, as PyTorch's solve does
    (getrs, in MKL's order), broadcasting the batch dims; a singular matrix gives inf and nan."""
    batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    lu = np.broadcast_to(lu, batch + lu.shape[-2:])
    pivots = np.broadcast_to(pivots, batch + pivots.shape[-1:])
    return lu_solve_like_pytorch(lu, pivots, np.broadcast_to(b, batch + b.shape[-2:]), transposed)


def solve(A, B, *, left=True):
    """``torch.linalg.solve``: X with A X = B (``left=False``: X A = B), for a square,
    invertible A; B may be a vector. Gradient: grad_B = A^-T grad; grad_A = -grad_B X^T."""
    return solve_ex(A, B, left=left, check_errors=True).result


_warned = set()      # PyTorch warns about a deprecated function once per process (TORCH_WARN_ONCE)


def warn_once(key, message):
    """``message`` as a UserWarning pointing at the learner's line, the first time only."""
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, UserWarning, stacklevel=stacklevel_outside_minigrad())


def show_settings(node_class, **kept_as):
    """The settings ``node_class``'s nodes show as ``grad_fn._saved_<name>`` (PyTorch's names),
    and only those (a node keeps other attributes for its own use)."""
    _SETTINGS_KEPT_AS[node_class.__name__] = kept_as
    show_saved_names(node_class, kept_as)


show_settings(LinalgDetBackward0)
show_settings(LinalgSlogdetBackward0)
show_settings(LinalgInvExBackward0)
show_settings(LinalgSolveExBackward0, left="left")


def inverse(input):
    """``torch.inverse`` / ``x.inverse()``: ``torch.linalg.inv``."""
    return inv(input)


def det_function(input):
    """``torch.det`` / ``x.det()``: ``torch.linalg.det``."""
    return det(input)

