"""The LDL factorization of a symmetric matrix: linalg.ldl_factor (+ex) and linalg.ldl_solve.

A = P L D L^T P^T, with L unit lower triangular and D block diagonal (blocks 1 x 1 or 2 x 2).
Unlike Cholesky it needs no positive definiteness: any symmetric matrix has one. The method is
Bunch and Kaufman's (LAPACK's sytrf), written down here step by step: at step k it picks a
1 x 1 pivot (the diagonal entry, perhaps swapped in from further down) or a 2 x 2 one, by
comparing the diagonal with the largest entry below it (``alpha`` = (1 + sqrt(17)) / 8 bounds
how much the entries may grow). Only the lower triangle of A is read.

``pivots`` keep LAPACK's 1-based convention, as PyTorch returns them: pivots[k] = p > 0 means
row and column k were swapped with p and D[k, k] is a 1 x 1 block; pivots[k] = pivots[k+1] =
-p means a 2 x 2 block at k, k+1, with k+1 swapped with p. ``LD`` packs L below the diagonal
(its 1s are not stored) and D on and below it; PyTorch zeroes the upper triangle.

PyTorch has no derivative for either function: it records a ``NotImplemented`` node, which
raises when backward reaches it (and forward mode refuses at once).
"""
import numpy as np

from .._dtype import from_numpy_dtype
from ..autograd.forward_ad import _DualLevel
from . import result, plain_output
from .decompositions import named_result, _register, lapack_layout, check_matrices
from .rounding import _NotImplementedBackward
from .pointwise import _broadcast_error
from ..autograd.kernel_writes import kernel_writes
from .._fused_multiply_add import fma                # (a * b + c rounded once, in the arrays' dtype)
from .mkl_kernels import MKL_FUSES_MULTIPLY_ADDS
from .lu_blocked import dot_in_lanes

linalg_ldl_factor = named_result("linalg_ldl_factor", ("LD", "pivots"))
linalg_ldl_factor_ex = named_result("linalg_ldl_factor_ex", ("LD", "pivots", "info"))
_register(linalg_ldl_factor, linalg_ldl_factor_ex)

_ALPHA = (1 + 17 ** 0.5) / 8


def _largest(values):
    """LAPACK's i?amax as PyTorch's LAPACK (MKL) runs it: the first NaN if there is one, else
    the first of the largest |values|. Returns (index, |value|)."""
    magnitudes = np.abs(values)
    nans = np.flatnonzero(np.isnan(magnitudes))
    i = int(nans[0]) if nans.size else int(np.argmax(magnitudes))
    return i, magnitudes[i]


def _max(a, b):
    """Fortran's MAX(a, b) as compiled (x86 maxsd): b when either is NaN."""
    return a if a > b else b


def _bunch_kaufman(a):
    """LAPACK's sytf2 (lower) on one n x n matrix ``a``, in place: returns pivots, info."""
    n = a.shape[0]
    pivots = np.zeros(n, dtype=np.int32)
    info = 0
    k = 0
    while k < n:
        step = 1
        diagonal = abs(a[k, k])
        imax, below = k, 0.0
        if k + 1 < n:                                   # the largest entry below the diagonal
            i, below = _largest(a[k + 1:, k])
            imax = k + 1 + i
        if _max(diagonal, below) == 0:
            # the column is zero: D[k, k] = 0 (a singular matrix); info notes the first one
            info = info or k + 1
            p = k
        else:
            if diagonal >= _ALPHA * below:
                p = k                                   # the diagonal is large enough
            else:
                # the largest off-diagonal entry in row/column imax (left of and below it)
                row_max = _largest(a[imax, k:imax])[1]
                if imax + 1 < n:
                    row_max = _max(row_max, _largest(a[imax + 1:, imax])[1])
                if diagonal >= _ALPHA * below * (below / row_max):
                    p = k
                elif abs(a[imax, imax]) >= _ALPHA * row_max:
                    p = imax                            # swap imax in, a 1 x 1 pivot
                else:
                    p, step = imax, 2                   # a 2 x 2 pivot on k, imax
            kk = k + step - 1
            if p != kk:
                _swap_symmetric(a, k, kk, p, step)
            if step == 1:
                _eliminate_one(a, k)
            else:
                _eliminate_two(a, k)
        if step == 1:
            pivots[k] = p + 1
        else:
            pivots[k] = pivots[k + 1] = -(p + 1)
        k += step
    return pivots, info


def _swap_symmetric(a, k, kk, p, step):
    """Swap rows and columns kk and p (> kk) of the trailing lower triangle a[k:, k:]."""
    a[p + 1:, [kk, p]] = a[p + 1:, [p, kk]]
    column, row = a[kk + 1:p, kk].copy(), a[p, kk + 1:p].copy()
    a[kk + 1:p, kk], a[p, kk + 1:p] = row, column
    a[kk, kk], a[p, p] = a[p, p], a[kk, kk]
    if step == 2:
        a[k + 1, k], a[p, k] = a[p, k], a[k + 1, k]


def _eliminate_one(a, k):
    """A 1 x 1 pivot: the trailing matrix loses x x^T / d (x = the column below d = a[k, k]),
    and x / d is L's column."""
    if k + 1 == a.shape[0]:
        return
    inverse = 1 / a[k, k]
    x = a[k + 1:, k]
    if MKL_FUSES_MULTIPLY_ADDS:     # (Intel's processors: each x_i (-x_j / d) added exactly)
        a[k + 1:, k + 1:] = fma(x[:, None], (-inverse * x)[None, :], a[k + 1:, k + 1:])
    else:
        a[k + 1:, k + 1:] += np.outer(x, -inverse * x)     # (as LAPACK's syr rounds it)
    a[k + 1:, k] = inverse * x


def _eliminate_two(a, k):
    """A 2 x 2 pivot D = a[k:k+2, k:k+2]: the trailing matrix loses W D^-1 W^T (W = the two
    columns below D), and W D^-1 is L's two columns; in LAPACK's order of operations (on
    Intel's processors, MKL's: _eliminate_two_fused)."""
    n = a.shape[0]
    if k + 2 >= n:
        return
    if MKL_FUSES_MULTIPLY_ADDS:
        _eliminate_two_fused(a, k)
        return
    d21 = a[k + 1, k]
    d11 = a[k + 1, k + 1] / d21
    d22 = a[k, k] / d21
    t = 1 / (d11 * d22 - 1)
    d21 = t / d21
    first, second = a[k + 2:, k].copy(), a[k + 2:, k + 1].copy()
    wk = d21 * (d11 * first - second)
    wkp1 = d21 * (d22 * second - first)
    a[k + 2:, k + 2:] = a[k + 2:, k + 2:] - np.outer(first, wk) - np.outer(second, wkp1)
    a[k + 2:, k], a[k + 2:, k + 1] = wk, wkp1


def _eliminate_two_fused(a, k):
    """_eliminate_two as MKL's kernels on Intel's processors compute it (see mkl_kernels),
    found by comparing their bits with PyTorch's factors: with d21 = D's entry below the
    diagonal, d11 = D[1, 1] / d21 and d22 = D[0, 0] / d21 as in LAPACK, but the scale
    1 / (d11 D[0, 0] - d21) taken at once, its product and difference fused; each row's
    L entries scale * (d11 w0 - w1) and scale * (d22 w1 - w0), each a fused multiply-add; and
    the trailing matrix loses w0 l0, then w1 l1, each subtracted exactly."""
    d21 = a[k + 1, k]
    d11 = a[k + 1, k + 1] / d21
    d22 = a[k, k] / d21
    scale = 1 / fma(d11, a[k, k], -d21)
    first, second = a[k + 2:, k].copy(), a[k + 2:, k + 1].copy()
    wk = scale * fma(d11, first, -second)
    wkp1 = scale * fma(d22, second, -first)
    trailing = fma(-first[:, None], wk[None, :], a[k + 2:, k + 2:])
    a[k + 2:, k + 2:] = fma(-second[:, None], wkp1[None, :], trailing)
    a[k + 2:, k], a[k + 2:, k + 1] = wk, wkp1


def _factor_arrays(array):
    """Bunch-Kaufman on each matrix of a batch: LD (upper triangle zeroed), pivots, info."""
    n = array.shape[-1]
    batch = array.shape[:-2]
    count = int(np.prod(batch))
    flat = np.array(array, copy=True).reshape((count, n, n))
    pivots = np.zeros((flat.shape[0], n), dtype=np.int32)
    info = np.zeros(flat.shape[0], dtype=np.int32)
    with np.errstate(all="ignore"):          # (a singular block gives inf and nan, as LAPACK's)
        for i, matrix in enumerate(flat):
            pivots[i], info[i] = _bunch_kaufman(matrix)
    return np.tril(flat).reshape(array.shape), pivots.reshape(batch + (n,)), info.reshape(batch)


def ldl_factor_ex(A, *, hermitian=False, check_errors=False):
    """``torch.linalg.ldl_factor_ex``: the compact LDL factorization of the symmetric ``A``
    (its lower triangle is read) as (LD, pivots, info); info[k] > 0: D has a zero at that
    1-based place (A is singular; LD is still returned). ``hermitian`` matters only for complex
    matrices. No derivative (backward raises, as in PyTorch)."""
    name = "torch.linalg.ldl_factor_ex"
    check_matrices(name, A)
    if A._array.dtype == np.float16:
        raise NotImplementedError("\"ldl_factor_kernel_cpu\" not implemented for 'Half'")
    LD, pivots, info = _factor_arrays(A._array)
    LD_out = result(lapack_layout(LD), _NotImplementedBackward, (A,), _operation="linalg_ldl_factor_ex")
    out = linalg_ldl_factor_ex(LD_out, plain_output(pivots, A), plain_output(info, A))
    if check_errors:
        _check_info(name, info)
    return kernel_writes("ldl_factor_ex", out, A)


def _check_info(name, info):
    """PyTorch's check of info: it knows no message for ldl's, and fails its own assertion."""
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat)
    if bad.size:
        code = int(flat[bad[0]])
        raise RuntimeError(
            'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
            f'BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. {name}: Unknown error '
            f"code: {code}.\nminigrad hint: D[{code - 1}, {code - 1}] is 0: the matrix is "
            "singular (ldl_factor_ex returns the factors and info without raising).")


def ldl_factor(A, *, hermitian=False):
    """``torch.linalg.ldl_factor``: (LD, pivots) of the symmetric ``A`` (see ldl_factor_ex);
    a singular A raises PyTorch's error."""
    LD, pivots, info = ldl_factor_ex(A, hermitian=hermitian)
    _check_info("torch.linalg.ldl_factor", info._array)
    return linalg_ldl_factor(LD, pivots)


# --- solving with the factors ------------------------------------------------------------------

def _dot(column, rows):
    """column^T rows, summed in order from the top, as LAPACK's gemv ('T') adds (numpy's
    products add in other orders, which can change the last bit)."""
    total = np.zeros(rows.shape[1:], dtype=rows.dtype)
    for weight, row in zip(column, rows):
        total = total + row * weight
    return total


def _dot_in_lanes(column, rows):
    """column^T rows as MKL's gemv ('T') adds on Intel's processors (see mkl_kernels): the
    vector loop of 32 bytes with fused multiply-adds that LU's dot products take too
    (lu_blocked.dot_in_lanes), over the terms of each column of rows."""
    terms_last = np.moveaxis(rows, 0, -1)
    return dot_in_lanes(terms_last, np.broadcast_to(column, terms_last.shape))


def _subtract_outer(b, column, row):
    """b -= column row^T, as LAPACK's ger rounds it (on Intel's processors each product is
    subtracted exactly: MKL's kernels fuse the multiply and the add)."""
    if MKL_FUSES_MULTIPLY_ADDS:
        b[...] = fma(column[:, None], -row[None, :], b)
    else:
        b += np.outer(column, -row)


def _solve_one(a, pivots, b):
    """LAPACK's sytrs (lower) for one matrix: x with A x = b, b (n x nrhs) solved in place
    (on Intel's processors in the order of MKL's fused kernels, found by comparing bits)."""
    n = a.shape[0]
    dot = _dot_in_lanes if MKL_FUSES_MULTIPLY_ADDS else _dot
    k = 0
    while k < n:                                   # L D y = P^T b, going down
        if pivots[k] > 0:
            p = pivots[k] - 1
            b[[k, p]] = b[[p, k]]
            _subtract_outer(b[k + 1:], a[k + 1:, k], b[k])
            b[k] *= 1 / a[k, k]
            k += 1
        else:
            p = -pivots[k] - 1
            b[[k + 1, p]] = b[[p, k + 1]]
            _subtract_outer(b[k + 2:], a[k + 2:, k], b[k])
            _subtract_outer(b[k + 2:], a[k + 2:, k + 1], b[k + 1])
            d21 = a[k + 1, k]
            d11, d22 = a[k, k] / d21, a[k + 1, k + 1] / d21
            denominator = d11 * d22 - 1
            first, second = b[k] / d21, b[k + 1] / d21
            b[k] = (d22 * first - second) / denominator
            b[k + 1] = (d11 * second - first) / denominator
            k += 2
    k = n - 1
    while k >= 0:                                  # L^T x = y, going up
        if pivots[k] > 0:
            b[k] -= dot(a[k + 1:, k], b[k + 1:])
            p = pivots[k] - 1
            b[[k, p]] = b[[p, k]]
            k -= 1
        else:
            b[k] -= dot(a[k + 1:, k], b[k + 1:])
            b[k - 1] -= dot(a[k + 1:, k - 1], b[k + 1:])
            p = -pivots[k] - 1
            b[[k, p]] = b[[p, k]]
            k -= 2
    return b


def _check_solve_arguments(LD, pivots, B):
    """PyTorch's checks of ldl_solve's arguments, in its order, with its messages."""
    name = "torch.linalg.ldl_solve"
    check_matrices(name, LD)
    if B.ndim < 2:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got -2)")
    if list(LD.shape[:-1]) != list(pivots.shape):
        raise RuntimeError(f"{name}: Expected LD.shape[:-1] and pivots.shape to be the same, but got "
                           f"pivots with shape {list(pivots.shape)} instead")
    if pivots._array.dtype.kind not in "iu":
        raise RuntimeError(f"{name}: Expected pivots to be integers. Got "
                           f"{from_numpy_dtype(pivots._array.dtype).tensor_type_name[:-6]}")
    if LD._array.dtype != B._array.dtype:
        def type_name(t):
            return from_numpy_dtype(t._array.dtype).tensor_type_name[:-6]
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{type_name(B)} and A of type {type_name(LD)} instead.")
    if B.shape[-2] != LD.shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for torch.linalg.ldl_solve: each A matrix is "
                           f"{LD.shape[-2]} by {LD.shape[-1]} but each b matrix is "
                           f"{B.shape[-2]} by {B.shape[-1]}")
    if LD._array.dtype == np.float16:
        raise NotImplementedError("\"ldl_solve_kernel_cpu\" not implemented for 'Half'")


def ldl_solve(LD, pivots, B, *, hermitian=False):
    """``torch.linalg.ldl_solve``: X with A X = B, A given by ldl_factor's (LD, pivots);
    batches of LD and B broadcast. No derivative (backward raises, as in PyTorch)."""
    from ..autograd.function import _FuncTransforms      # (late: it needs the package loaded)
    if _FuncTransforms.vmaps:       # (PyTorch's vmap has no rule for it: it runs per sample)
        from .._functorch import warn_no_batching_rule
        warn_no_batching_rule("linalg_ldl_solve", (LD, pivots, B))
    _check_solve_arguments(LD, pivots, B)
    n = LD.shape[-1]
    piv = pivots._array
    if piv.size and ((np.abs(piv) > n).any() or (np.abs(piv) < 1).any()):
        which = "<= LD.size(-2)" if (np.abs(piv) > n).any() else ">= 1"
        raise RuntimeError(f"Pivots given to ldl_solve must all satisfy |pivot| {which}. Did you "
                           "properly pass the result of ldl_factor?")
    batch_a, batch_b = tuple(LD.shape[:-2]), tuple(B.shape[:-2])
    try:
        batch = tuple(np.broadcast_shapes(batch_b, batch_a))
    except ValueError:
        raise _broadcast_error(np.empty(batch_b, dtype=bool), np.empty(batch_a, dtype=bool)) from None
    count, columns = int(np.prod(batch)), B.shape[-1]
    a = np.broadcast_to(LD._array, batch + (n, n)).reshape((count, n, n))
    p = np.broadcast_to(piv.astype(np.int64), batch + (n,)).reshape((count, n))
    b = np.array(np.broadcast_to(B._array, batch + (n, columns))).reshape((count, n, columns))
    with np.errstate(all="ignore"):          # (a singular D gives inf and nan, as LAPACK's)
        for i in range(b.shape[0]):
            _solve_one(a[i], p[i], b[i])
    # (PyTorch's NotImplemented node has edges only to the inputs that require grad; under
    # forward mode both are looked at, for a tangent to refuse)
    recorded = (LD, B) if _DualLevel.open else tuple(t for t in (LD, B) if t.requires_grad)
    value = lapack_layout(b.reshape(batch + (n, columns)))
    if not recorded:
        return plain_output(value, LD, B)      # (batched as its inputs are, inside vmap)
    return result(value, _NotImplementedBackward, recorded, _operation="linalg_ldl_solve")
