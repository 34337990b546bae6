"""Linear-algebra functions PyTorch removed in version 1.9 (torch.symeig, eig, lstsq, matrix_rank,
solve): each still exists, and raises PyTorch's RuntimeError saying what replaces it.

(PyTorch keeps them in torch/_linalg_utils.py too.) Old tutorials call them; the message is the
lesson: the torch.linalg function to use, and how its arguments differ.
"""

_REMOVED = "This function was deprecated since version 1.9 and is now removed."


def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    """Removed: use ``torch.linalg.matrix_rank`` (``symmetric`` is now ``hermitian``)."""
    raise RuntimeError(
        f"{_REMOVED}\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter "
        "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


def solve(input, A, *, out=None):
    """Removed: use ``torch.linalg.solve(A, B)`` (arguments reversed, no LU returned)."""
    raise RuntimeError(
        f"{_REMOVED} `torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` "
        "has its arguments reversed and does not return the LU factorization.\n\nTo get the LU "
        "factorization see `torch.lu`, which can be used with `torch.lu_solve` or `torch.lu_unpack`.\n"
        "X = torch.solve(B, A).solution should be replaced with:\nX = torch.linalg.solve(A, B)")


def lstsq(input, A, *, out=None):
    """Removed: use ``torch.linalg.lstsq(A, B)`` (arguments reversed, residuals in a field)."""
    raise RuntimeError(
        f"{_REMOVED} `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` "
        "has reversed arguments and does not return the QR decomposition in the returned tuple "
        "(although it returns other information about the problem).\n\nTo get the QR decomposition "
        "consider using `torch.linalg.qr`.\n\nThe returned solution in `torch.lstsq` stored the "
        "residuals of the solution in the last m - n columns of the returned value whenever m > n. "
        "In torch.linalg.lstsq, the residuals are in the field 'residuals' of the returned named "
        "tuple.\n\nThe unpacking of the solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\n"
        "should be replaced with:\nX = torch.linalg.lstsq(A, B).solution")


def symeig(input, eigenvectors=False, upper=True, *, out=None):
    """Removed: use ``torch.linalg.eigvalsh`` / ``torch.linalg.eigh`` (which read the lower
    triangle by default)."""
    raise RuntimeError(
        f"{_REMOVED} The default behavior has changed from using the upper triangular portion of the "
        "matrix by default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, "
        "upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else "
        "'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) should be replaced with:\nL, V = "
        "torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


def eig(self, eigenvectors=False, *, e=None, v=None):
    """Removed: use ``torch.linalg.eig`` / ``eigvals`` (complex results, which minigrad does
    not have: see minigrad.linalg.eig)."""
    raise RuntimeError(
        f"{_REMOVED} `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather "
        "than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced "
        "with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) "
        "should be replaced with:\nL_complex, V_complex = torch.linalg.eig(A)")


symeig.__name__ = symeig.__qualname__ = "_symeig"      # (PyTorch's name for it)
