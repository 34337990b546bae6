"""torch.frobenius_norm and torch.nuclear_norm: PyTorch's old matrix norms, kept (with a
warning) for old code; ``torch.linalg.vector_norm`` and ``torch.linalg.matrix_norm`` replaced them.

frobenius_norm is the 2-norm over one or two dims (PyTorch's old ``norm`` kernel: its node is
``NormBackward1``); nuclear_norm is the sum of the singular values (``matrix_norm(A, 'nuc')``).
"""
from .._tensor import _normalize_dim
from .._warnings import warn_once
from ..autograd.grad_mode import no_grad
from . import result, save_result

_FROBENIUS_DEPRECATED = (
    "at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be removed in a future "
    "PyTorch release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` instead (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:3175.)")
_NUCLEAR_DEPRECATED = (
    "at::nuclear_norm is deprecated and it is just left for JIT compatibility. It will be removed in a future "
    "PyTorch release. Please use `linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:3229.)")

_MISSING = object()


def frobenius_norm(input, dim=_MISSING, keepdim=False):
    """sqrt(sum of squares) over ``dim`` (one or two dims). Deprecated: ``linalg.vector_norm(A, 2, dim)``.

    Gradient: grad * input / result (PyTorch's ``NormBackward1``)."""
    from ..nn._similarity import NormBackward1
    if dim is _MISSING:
        raise TypeError('frobenius_norm() missing 1 required positional arguments: "dim"')
    if input._array.dtype.kind != "f":
        from .._dtype import from_numpy_dtype
        raise RuntimeError("norm(): input dtype should be either floating point or complex. Got "
                           f"{from_numpy_dtype(input._array.dtype).tensor_type_name[:-6]} instead.")
    warn_once(_FROBENIUS_DEPRECATED)
    given = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    if len(given) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(given)} dimensions instead.")
    dims = [_normalize_dim(d, input.ndim) for d in given]
    for d in dims:
        if dims.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    with no_grad():
        value = input.norm(2, tuple(dims), keepdim=keepdim)._array
    out = result(value, NormBackward1, (input,), p=2.0, dims=tuple(dims), keepdim=keepdim,
                 input_shape=tuple(input.shape), all_dims=not input.ndim, dim_as_given=given)
    return save_result(out, input)


def nuclear_norm(input, dim=None, keepdim=False):
    """The sum of the singular values of the matrices over ``dim`` (the last two dims by
    default). Deprecated: ``linalg.matrix_norm(A, 'nuc', dim, keepdim)``.

    Gradient: through the SVD (LinalgSvdBackward0), then the sum (SumBackward1)."""
    from .. import linalg
    if isinstance(dim, bool):          # nuclear_norm(input, keepdim)
        dim, keepdim = None, dim
    warn_once(_NUCLEAR_DEPRECATED)
    return linalg.matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim)

