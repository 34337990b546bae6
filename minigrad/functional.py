"""torch.functional: the functions PyTorch writes in Python on top of its operations.

minigrad keeps most of them next to their operations (einsum, split, meshgrid, ...); this
module holds ``lu``, PyTorch's deprecated LU factorization (``torch.linalg.lu_factor`` took
its place), and ``lu_solve``, its companion.
"""
from ._warnings import warn_once

_LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be removed "
    "in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced with\n"
    "LU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2073.)")

_LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future PyTorch "
    "release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\n"
    "should be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2230.)")


def lu(A, pivot=True, get_infos=False, out=None):
    """The LU factorization of ``A`` packed in one matrix, and the pivots (deprecated: this is
    ``torch.linalg.lu_factor``, or ``lu_factor_ex`` with ``get_infos=True``, which adds infos)."""
    from ._ops.lu import lu_factor_ex, _check_lu_input, _lu_with_info
    from ._tensor import Tensor
    if not isinstance(A, Tensor):       # (PyTorch's torch.lu calls _lu_with_info, which checks)
        raise TypeError(f"_lu_with_info(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(A).__name__}")
    warn_once(_LU_DEPRECATED)
    _check_lu_input("torch.lu_factor", A)
    LU, pivots, infos = lu_factor_ex(A, pivot=pivot)     # (a singular A is no error here)
    return _lu_with_info(LU, pivots, infos) if get_infos else (LU, pivots)


def lu_solve(b, LU_data, LU_pivots, *, out=None):
    """The solution X of ``A X = b`` from A's packed LU factors (deprecated:
    ``torch.linalg.lu_solve(LU, pivots, B)``, its arguments in the other order)."""
    from ._ops.lu import lu_solve as solve
    warn_once(_LU_SOLVE_DEPRECATED)
    return solve(LU_data, LU_pivots, b)
