"""Small linear-algebra helpers, and the functions PyTorch removed in favour of torch.linalg
(torch/_linalg_utils.py).

The helpers (``matmul`` with None as the identity, ``qform``, ``basis``, ``symeig``) are the
vocabulary ``torch.lobpcg`` is written in (see _lobpcg.py); like PyTorch's they are internal.

Old tutorials still call ``torch.solve``, ``torch.eig``, ``torch.symeig``, ``torch.lstsq`` and
``torch.matrix_rank``; PyTorch keeps the names only to say, in a RuntimeError, what replaces them.
minigrad gives the same error, word for word.
"""


def is_sparse(A):
    """False for any tensor: minigrad has no sparse layouts (a TypeError for a non-tensor)."""
    from ._tensor import Tensor
    if isinstance(A, Tensor):
        return False
    raise TypeError(f"expected Tensor but got {type(A)}")


def get_floating_dtype(A):
    """A's dtype if it is a floating one, else float32 (the dtype integer input is worked in)."""
    from . import float16, float32, float64
    return A.dtype if A.dtype in (float16, float32, float64) else float32


def matmul(A, B):
    """A @ B, where ``A=None`` stands for the identity matrix (and so returns B itself, not a
    copy): lobpcg's optional B and iK are "no matrix" rather than an explicit identity."""
    from ._ops.linalg import matmul as _matmul
    return B if A is None else _matmul(A, B)


def bform(X, A, Y):
    """The bilinear form X^T A Y (A=None: the identity)."""
    return matmul(X.mT, matmul(A, Y))


def qform(A, S):
    """The quadratic form S^T A S (A=None: the identity)."""
    return bform(S, A, S)


def basis(A):
    """An orthonormal basis of the span of A's columns (the Q of its QR factorization)."""
    from .linalg import qr
    return qr(A).Q


def symeig(A, largest=False):
    """Eigenvalues and eigenvectors of the symmetric matrix A (its upper triangle is read),
    ascending, or descending with ``largest=True``."""
    from .linalg import eigh
    E, Z = eigh(A, UPLO="U")
    if largest:                 # eigh sorts ascending: reverse both, keeping the pairs together
        E = E.flip(dims=(-1,))
        Z = Z.flip(dims=(-1,))
    return E, Z


_REMOVED = "This function was deprecated since version 1.9 and is now removed."



def solve(input, A, *, out=None):
    """Removed: use ``torch.linalg.solve(A, B)`` (its arguments reversed)."""
    raise RuntimeError(_REMOVED + (
        ' `torch.solve` is deprecated in favor of `torch.linalg.solve`. '
        '`torch.linalg.solve` has its arguments reversed and does not return the LU '
        'factorization.\n'
        '\n'
        'To get the LU factorization see `torch.lu`, which can be used with '
        '`torch.lu_solve` or `torch.lu_unpack`.\n'
        'X = torch.solve(B, A).solution should be replaced with:\n'
        'X = torch.linalg.solve(A, B)'))


def lstsq(input, A, *, out=None):
    """Removed: use ``torch.linalg.lstsq(A, B).solution``."""
    raise RuntimeError(_REMOVED + (
        ' `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n'
        '`torch.linalg.lstsq` has reversed arguments and does not return the QR '
        'decomposition in the returned tuple (although it returns other information about'
        ' the problem).\n'
        '\n'
        'To get the QR decomposition consider using `torch.linalg.qr`.\n'
        '\n'
        'The returned solution in `torch.lstsq` stored the residuals of the solution in '
        'the last m - n columns of the returned value whenever m > n. In '
        "torch.linalg.lstsq, the residuals are in the field 'residuals' of the returned "
        'named tuple.\n'
        '\n'
        'The unpacking of the solution, as in\n'
        'X, _ = torch.lstsq(B, A).solution[:A.size(1)]\n'
        'should be replaced with:\n'
        'X = torch.linalg.lstsq(A, B).solution'))


def eig(self, eigenvectors=False, *, e=None, v=None):
    """Removed: use ``torch.linalg.eig`` / ``eigvals`` (complex results)."""
    raise RuntimeError(_REMOVED + (
        ' `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` '
        'rather than real tensors mimicking complex tensors.\n'
        '\n'
        'L, _ = torch.eig(A) should be replaced with:\n'
        'L_complex = torch.linalg.eigvals(A)\n'
        '\n'
        'and\n'
        '\n'
        'L, V = torch.eig(A, eigenvectors=True) should be replaced with:\n'
        'L_complex, V_complex = torch.linalg.eig(A)'))


def _symeig(input, eigenvectors=False, upper=True, *, out=None):
    """Removed (``torch.symeig``): use ``torch.linalg.eigh`` / ``eigvalsh``. (The leading
    underscore keeps the name apart from the ``symeig`` helper above, as in PyTorch.)"""
    raise RuntimeError(_REMOVED + (
        ' The default behavior has changed from using the upper triangular portion of the'
        ' matrix by default to using the lower triangular portion.\n'
        '\n'
        'L, _ = torch.symeig(A, upper=upper) should be replaced with:\n'
        "L = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n"
        '\n'
        'and\n'
        '\n'
        'L, V = torch.symeig(A, eigenvectors=True) should be replaced with:\n'
        "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')"))


def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    """Removed: use ``torch.linalg.matrix_rank``."""
    raise RuntimeError(_REMOVED + (
        '\n'
        'Please use the `torch.linalg.matrix_rank` function instead. The parameter '
        "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'."))
