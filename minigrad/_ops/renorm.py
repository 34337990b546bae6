"""renorm: scale down each slice whose p-norm is above a limit.

``x.renorm(p, dim, maxnorm)`` looks at the slices x.select(dim, i) one by one: a slice whose
p-norm is larger than ``maxnorm`` is multiplied by maxnorm / (norm + 1e-7), so that its norm
becomes (just under) maxnorm; the others stay as they are. Embedding layers use it
(``max_norm=``) to keep their vectors short.

Gradient, as PyTorch writes it (renorm_backward): a slice that was left alone passes grad
through; a scaled one gets factor * (grad - (1 / norm) * d norm), where d norm is the
gradient of the norm for sum(self * grad) over the slice - the scale depends on the slice.

PyTorch: torch.renorm, Tensor.renorm_.
"""
import numpy as np

from .._tensor import _normalize_dim
from .._dtype import from_numpy_dtype, float32, float64
from ..autograd.graph import Node, _SETTINGS_KEPT_AS, show_saved_names, shown_as_given
from .views import history_first
from . import result
from .pointwise import where, mul_by_number, add_number
from .reduction import vector_norm_gradient
from .reduction import vector_norm
from ..autograd.kernel_writes import kernel_writes


def _norms(array, p, dims):
    """The p-norm of each slice (the reduced dims kept, size 1), in the array's dtype."""
    magnitudes = np.abs(array)
    if p == float("inf"):
        value = np.max(magnitudes, axis=dims, keepdims=True, initial=0)
    elif p == 2:
        value = np.sqrt(np.sum(array * array, axis=dims, keepdims=True))
    else:
        value = np.sum(magnitudes ** p, axis=dims, keepdims=True) ** (1.0 / p)
    return np.asarray(value, dtype=array.dtype)


class RenormBackward0(Node):
    """result = self * where(norm > maxnorm, maxnorm / (norm + 1e-7), 1), norm of each slice   ->
        grad_self = where(norm > maxnorm, maxnorm / (norm + 1e-7) * (grad - d norm / (norm + 1e-7)), grad)"""

    _saved_names = ("self",)              # grad_fn._saved_self, as in PyTorch (and p, dim, maxnorm)

    def backward(self, grad):
        (a,) = self.saved_tensors
        dims, p = self._dims, self.p
        # (PyTorch computes the norms and the scaled gradient in the accumulation type of its
        # CPU kernels, float64 for float32 too, and converts the result back: ToCopyBackward0)
        wide = float64 if a._array.dtype.itemsize >= 4 else float32
        norm = vector_norm(a, p, dims, keepdim=True, dtype=wide)
        projected = (a * grad).sum(dims, keepdim=True, dtype=wide)
        from_norm = vector_norm_gradient(projected, a, norm, p, dims, True, False)
        inverse = add_number(norm, 1e-7).reciprocal()
        factor = mul_by_number(inverse, self.maxnorm)
        scaled = factor * (grad - inverse * from_norm)
        return (where(norm > self.maxnorm, scaled.to(grad.dtype), grad),)


_SETTINGS_KEPT_AS["RenormBackward0"] = {"dim": shown_as_given("dim_as_given"), "maxnorm": "maxnorm", "p": "p"}
show_saved_names(RenormBackward0, _SETTINGS_KEPT_AS["RenormBackward0"])


@history_first
def renorm(input, p, dim, maxnorm):
    """``input`` with each slice along ``dim`` whose p-norm exceeds ``maxnorm`` scaled down to
    norm maxnorm (times maxnorm / (norm + 1e-7)); the other slices unchanged.

    Gradient: grad through the unchanged slices; through a scaled one, the scale's too.
    """
    _check_arguments(input, p, maxnorm)
    array = input._array
    dim_as_given, dim = dim, _normalize_dim(dim, input.ndim)
    dims = tuple(d for d in range(input.ndim) if d != dim)
    out = np.asarray(array * _factor(input, p, dims, maxnorm), order="C")
    out = result(out, RenormBackward0, (input,), saved=(input,), p=p, maxnorm=maxnorm,
                 dim_as_given=dim_as_given, _dims=dims)
    return kernel_writes("renorm", out, input)


def _check_arguments(input, p, maxnorm):
    """PyTorch's checks of renorm's arguments (before anything else of its kernel)."""
    if isinstance(p, complex):
        raise RuntimeError("renorm: p must be real-valued")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if isinstance(maxnorm, complex):
        raise RuntimeError("renorm: maxnorm must be real-valued")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {float(maxnorm):g}")
    if input.ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.ndim} dimensions")


def _factor(input, p, dims, maxnorm):
    """What each slice is multiplied by, in the input's dtype (maxnorm and 1e-7 too, as
    PyTorch's kernel computes it), its reduced dims kept (size 1)."""
    array = input._array
    if array.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                           f"Got {from_numpy_dtype(array.dtype).tensor_type_name[:-6]}")
    norms = _norms(array, p, dims)
    dtype = array.dtype.type
    with np.errstate(divide="ignore"):
        factor = np.where(norms > dtype(maxnorm), dtype(maxnorm) / (norms + dtype(1e-7)), dtype(1))
    return factor.astype(array.dtype)


def renorm_(self, p, dim, maxnorm):
    """In-place renorm: ``self = self.renorm(p, dim, maxnorm)``.

    As PyTorch: autograd's rules, then renorm's arguments, then the memory (an expanded self
    is refused). Where self sees a memory location at several positions (overlapping
    windows), the norms are taken first, then each position is multiplied by its slice's
    factor in PyTorch's loop order, so a location seen twice is scaled twice."""
    from .inplace import (apply_inplace, check_inplace, overlaps_itself, refuse_integer_history,
                          _values_in_loop_order)
    check_inplace(self, overlap_ok=True)
    refuse_integer_history(self)        # (autograd's copy of the old values comes first)
    _check_arguments(self, p, maxnorm)
    operation = lambda t: renorm(t, p, dim, maxnorm)      # noqa: E731
    if not overlaps_itself(self._array):
        return apply_inplace(self, operation)
    check_inplace(self)
    dims = tuple(d for d in range(self.ndim) if d != _normalize_dim(dim, self.ndim))
    factor = _factor(self, p, dims, maxnorm)
    values = _values_in_loop_order(self._array, factor, lambda value, scale: value * scale)

    def with_those_values(t):
        new = operation(t)
        new._array[...] = values
        return new
    return apply_inplace(self, with_those_values)
