"""linalg.eig and linalg.eigvals: the eigenvalues of a general (non-symmetric) matrix.

They are complex numbers in general (a rotation has none that are real), and PyTorch returns
complex tensors (cfloat, cdouble). minigrad has no complex dtypes, so these two check their
input as PyTorch does and then refuse, pointing to what a real matrix can use instead.
"""
import numpy as np

from .._dtype import from_numpy_dtype
from .._ops.decompositions import check_matrices

_HINT = ("\nminigrad hint: minigrad has no complex tensors. For a symmetric matrix the eigenvalues "
         "are real: use torch.linalg.eigh(A) (or eigvalsh); torch.linalg.svd(A) gives singular "
         "values of any matrix.")


def _refuse(name, A):
    """PyTorch's checks of A (with its messages), then minigrad's refusal."""
    check_matrices(name, A, square=True, floating=False)
    array = A._array
    type_name = from_numpy_dtype(array.dtype).tensor_type_name[:-6]
    if array.dtype.kind != "f":          # (PyTorch looks for the complex dtype to return first)
        raise RuntimeError(f"Unknown Complex ScalarType for {type_name}")
    if array.dtype == np.float16:
        raise NotImplementedError("\"linalg_eig_out_cpu\" not implemented for 'Half'")
    complex_name = {"Float": "ComplexFloat", "Double": "ComplexDouble"}.get(type_name, type_name)
    raise NotImplementedError(f"{name}: the result would be a {complex_name} tensor, and complex "
                              f"dtypes are not implemented{_HINT}")


def eig(input, *, out=None):
    """``torch.linalg.eig``: eigenvalues and eigenvectors of a square matrix, complex in PyTorch;
    minigrad has no complex tensors and raises (after PyTorch's checks of ``input``)."""
    _refuse("linalg.eig", input)


def eigvals(input, *, out=None):
    """``torch.linalg.eigvals``: the eigenvalues of a square matrix, complex in PyTorch;
    minigrad has no complex tensors and raises (after PyTorch's checks of ``input``)."""
    _refuse("linalg.eigvals", input)
