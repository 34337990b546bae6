"""torch.linalg: linear algebra on matrices and batches of matrices.

    import minigrad as torch
    A = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
    torch.linalg.det(A).backward()      # A.grad is det(A) * A^-T

Where each function lives (every one with its backward next to it):

    _ops/reduction.py        vector_norm (torch.norm too)
    _ops/norms.py            matrix_norm, norm, cond, (torch.dist)
    _ops/triangular_solves.py solve_triangular, (torch.cholesky_solve, torch.cholesky_inverse)
    _ops/decompositions.py   det, slogdet, inv, inv_ex, solve, solve_ex
    _ops/cholesky.py         cholesky, cholesky_ex, (torch.cholesky)
    _ops/spectral.py         svd, svdvals, eigh, eigvalsh, qr, pinv, matrix_rank, matrix_exp, lstsq
    _ops/householder.py      householder_product, (torch.geqrf, torch.orgqr)
    _ops/lu.py               lu_factor, lu_factor_ex, lu, lu_solve, (torch.lu_unpack)
    _ops/ldl.py              ldl_factor, ldl_factor_ex, ldl_solve (no derivative, as in PyTorch)
    linalg/_eig.py           eig, eigvals (complex results: refused, minigrad has no complex dtypes)
    _ops/matrix_products.py  cross, vecdot, multi_dot, matrix_power, vander, tensorinv, tensorsolve
    _ops/linalg.py           matmul (the ``@`` operator)

Every function takes a matrix or a batch of them (the last two dims are the matrix).
A singular matrix where an inverse is needed raises ``LinAlgError``, a RuntimeError.
"""
from .._ops.reduction import vector_norm as _vector_norm
from .._ops.norms import matrix_norm, norm, cond  # noqa: F401
from .._ops.triangular_solves import solve_triangular  # noqa: F401
from .._ops.lu import lu_factor, lu_factor_ex, lu, lu_solve  # noqa: F401
from .._ops.ldl import ldl_factor, ldl_factor_ex, ldl_solve  # noqa: F401
from ._eig import eig, eigvals  # noqa: F401
from .._ops.decompositions import (  # noqa: F401
    _LinAlgError as LinAlgError, det, slogdet, inv, inv_ex, solve, solve_ex)
from .._ops.cholesky import cholesky, cholesky_ex  # noqa: F401
from .._ops.spectral import (  # noqa: F401
    svd, svdvals, eigh, eigvalsh, qr, pinv, matrix_rank, matrix_exp, lstsq)
from .._ops.householder import householder_product  # noqa: F401
from .._ops.matrix_products import (  # noqa: F401
    cross, vecdot, multi_dot, matrix_power, vander, tensorinv, tensorsolve)
from .._ops.linalg import matmul  # noqa: F401
from .._ops.einsum import diagonal as _diagonal


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """The ``ord``-norm of the elements of ``x`` (over ``dim`` if given): ``(sum |x|**ord) **
    (1/ord)``; ord = inf is the largest |x|, -inf the smallest, 0 the number of non-zeros.

    Gradient: grad * sgn(x) |x|**(ord-1) / norm**(ord-1).
    """
    return _vector_norm(x, ord, dim, keepdim, dtype=dtype)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """The diagonal of each matrix (``torch.diagonal`` with the last two dims as defaults)."""
    return _diagonal(A, offset, dim1, dim2)


def _check_arguments():
    """PyTorch's TypeErrors for arguments of the wrong kind (``linalg_det(): argument 'A'
    (position 1) must be Tensor, not list``), checked before each function runs."""
    from .._python_arg_parser import checked, TENSOR, TENSORS, INT, OVERLOADED
    A, INPUT = (("A", TENSOR),), (("input", TENSOR),)
    parameters = {
        **{name: A for name in ("det", "slogdet", "inv", "inv_ex", "svd", "svdvals", "qr")},
        **{name: INPUT for name in ("vector_norm", "matrix_norm", "norm", "eigh", "eigvalsh",
                                    "cholesky", "cholesky_ex", "matrix_exp")},
        **{name: (("input", OVERLOADED),) for name in ("pinv", "matrix_rank")},
        **{name: (("A", TENSOR), ("B", TENSOR)) for name in ("solve", "solve_ex")},
        "lstsq": (("self", TENSOR), ("b", TENSOR)),
        "cond": INPUT, "vander": (("x", TENSOR),), "tensorinv": INPUT,
        "tensorsolve": (("A", TENSOR), ("B", TENSOR)),
        **{name: A for name in ("lu_factor", "lu_factor_ex", "lu")},
        "lu_solve": (("LU", TENSOR), ("pivots", TENSOR), ("B", TENSOR)),
        **{name: INPUT for name in ("ldl_factor", "ldl_factor_ex")},     # (eig, eigvals: see _eig.py)
        "ldl_solve": (("LD", TENSOR), ("pivots", TENSOR), ("B", TENSOR)),
        "solve_triangular": (("input", TENSOR), ("B", TENSOR)),
        "cross": (("input", TENSOR), ("other", TENSOR)),
        "vecdot": (("x", TENSOR), ("y", TENSOR)),
        "matrix_power": (("input", TENSOR), ("n", INT)), "matmul": (("input", TENSOR), ("other", TENSOR)),
        "householder_product": (("input", TENSOR), ("tau", TENSOR)),
        "multi_dot": (("tensors", TENSORS),),
    }
    from .._out import OUT_RULES
    for name, kinds in parameters.items():
        globals()[name] = checked(globals()[name], "linalg_" + name, kinds, OUT_RULES.get("linalg_" + name))


_check_arguments()

__all__ = ["LinAlgError", "vector_norm", "matrix_norm", "norm", "det", "slogdet", "inv", "inv_ex",
           "solve", "solve_ex", "cholesky", "cholesky_ex", "svd", "svdvals", "eigh", "eigvalsh",
           "qr", "pinv", "matrix_rank", "matrix_exp", "lstsq", "cross", "vecdot", "multi_dot",
           "matrix_power", "matmul", "diagonal", "cond", "vander", "solve_triangular",
           "lu_factor", "lu_factor_ex", "lu", "lu_solve", "tensorinv", "tensorsolve",
           "ldl_factor", "ldl_factor_ex", "ldl_solve", "eig", "eigvals"]
