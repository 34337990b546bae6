"""linalg.eig and linalg.eigvals: the eigenvalues of a general (non-symmetric) matrix.

They are complex numbers in general (a rotation has none that are real), and PyTorch returns
complex tensors (cfloat, cdouble). minigrad has no complex dtypes, so these two check their
arguments and input as PyTorch does, in its order, and then refuse, pointing to what a real
matrix can use instead. (An ``out`` can never fit: only a complex tensor can take the result.)
"""
import functools

import numpy as np

from .._type_names import type_name
from .._dtype import from_numpy_dtype
from .._ops.decompositions import check_matrices
from .._signatures import Signatures
from .._tensor import Tensor
from .._warnings import warn_once
from ..autograd.grad_mode import is_grad_enabled

_HINT = ("\nminigrad hint: minigrad has no complex tensors. For a symmetric matrix the eigenvalues "
         "are real: use torch.linalg.eigh(A) (or eigvalsh); torch.linalg.svd(A) gives singular "
         "values of any matrix.")
_COMPLEX_NAMES = {"Half": "ComplexHalf", "Float": "ComplexFloat", "Double": "ComplexDouble"}


def _type_name(tensor):
    """PyTorch's ScalarType name of the tensor's dtype: Float, Long, Half, ..."""
    return from_numpy_dtype(tensor._array.dtype).tensor_type_name[:-6]


def _parsed(signatures, outputs):
    """The function with PyTorch's argument errors (``linalg_eig() takes 1 positional argument
    but 2 were given``, ...) and, for a tuple ``out``, its element and length checks."""
    def decorate(function):
        @functools.wraps(function)
        def with_parsed_arguments(*args, **kwargs):
            if isinstance(kwargs.get("out"), (tuple, list)) and outputs > 1:
                for k, element in enumerate(kwargs["out"]):     # (before the length, as PyTorch)
                    if not isinstance(element, Tensor):
                        raise TypeError(f"expected Tensor as element {k} in argument 1, but got "
                                        f"{type_name(element)}")
            _, arguments = signatures.parse(args, kwargs)
            out = arguments["out"]
            if outputs > 1 and out is not None and len(out) != outputs:
                raise TypeError(f"expected tuple of {outputs} elements but got {len(out)}")
            return function(arguments["input"], out=out)
        return with_parsed_arguments
    return decorate


def _refuse(name, A, out_values, check_finite):
    """PyTorch's checks of A and of ``out``'s eigenvalues, in its order, then minigrad's refusal."""
    if A._array.dtype.kind != "f":   # (PyTorch looks for the complex dtype to return first)
        raise RuntimeError(f"Unknown Complex ScalarType for {_type_name(A)}")
    complex_name = _COMPLEX_NAMES[_type_name(A)]
    if out_values is None and A._array.dtype == np.float16:     # (it makes its complex results)
        warn_once("ComplexHalf support is experimental and many operators don't support it yet.")
    if check_finite and not np.isfinite(A._array).all():        # (eig's own check, before shapes)
        raise RuntimeError(f"torch.{name}: input tensor should not contain infs or NaNs.")
    check_matrices(name, A, square=True, floating=False)
    if out_values is not None:      # (a real dtype: the complex eigenvalues cannot be cast to it)
        raise RuntimeError(f"torch.{name}: Expected eigenvalues to be safely castable from "
                           f"{complex_name} dtype, but got eigenvalues with dtype {_type_name(out_values)}")
    if A._array.dtype == np.float16:
        raise NotImplementedError("\"linalg_eig_out_cpu\" not implemented for 'Half'")
    raise NotImplementedError(f"{name}: the result would be a {complex_name} tensor, and complex "
                              f"dtypes are not implemented{_HINT}")


@_parsed(Signatures("linalg_eig", "Tensor input, *, tuple of Tensors out=None"), outputs=2)
def eig(input, *, out=None):
    """``torch.linalg.eig``: eigenvalues and eigenvectors of a square matrix, complex in PyTorch;
    minigrad has no complex tensors and raises (after PyTorch's checks of ``input``)."""
    # (its out= variant is not differentiable: autograd refuses before eig's own checks)
    if out is not None and is_grad_enabled() and any(t.requires_grad for t in (input, *out)):
        raise RuntimeError("linalg_eig(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    _refuse("linalg.eig", input, None if out is None else out[0], check_finite=True)


@_parsed(Signatures("linalg_eigvals", "Tensor input, *, Tensor out=None"), outputs=1)
def eigvals(input, *, out=None):
    """``torch.linalg.eigvals``: the eigenvalues of a square matrix, complex in PyTorch;
    minigrad has no complex tensors and raises (after PyTorch's checks of ``input``)."""
    _refuse("linalg.eigvals", input, out, check_finite=False)
