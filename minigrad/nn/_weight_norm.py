"""Weight normalization: w = g * v / ||v|| (Salimans and Kingma), the length g learned apart
from the direction v. The norm is taken over every dim but ``dim`` (one length per output
unit for dim=0).

    norm_except_dim(v, 2, dim)      ||v|| per slice along dim, with size-1 dims elsewhere
    _weight_norm(v, g, dim)         w; for dim 0 or the last dim one node,
                                    WeightNormInterfaceBackward0, as in PyTorch; otherwise
                                    v * (g / norm_except_dim(v, 2, dim)) with ordinary nodes
    WeightNormInterfaceBackward0    grad_g = sum(grad * v) / ||v||,
                                    grad_v = g / ||v|| * (grad - v * sum(grad * v) / ||v||^2)
"""
from ..autograd.graph import Node, _SETTINGS_KEPT_AS
from ..autograd.grad_mode import no_grad
from .._ops import result, plain_output, save_result
from ._similarity import NormBackward1, _norm_over_dim

# grad_fn._saved_p (and _saved_self, _saved_result): what PyTorch's node shows
_SETTINGS_KEPT_AS["NormBackward0"] = {"p": "p"}


class NormBackward0(NormBackward1):
    """result = (sum |self|**p) ** (1/p) over all elements (C++'s ``v.norm(p)``)   ->
        grad_self = grad * sign(self) |self|**(p-1) / result**(p-1)"""


def _norm_of_all(input, p):
    """``input.norm(p)`` as PyTorch's C++ records it (NormBackward0; Python's records
    LinalgVectorNormBackward0)."""
    with no_grad():
        value = input.norm(p)._array
    out = result(value, NormBackward0, (input,), p=p, dims=(), keepdim=False,
                 input_shape=tuple(input.shape), all_dims=True, dim_as_given=None)
    return save_result(out, input)


def norm_except_dim(v, pow=2, dim=0):
    """The ``pow``-norm of each slice of ``v`` along ``dim`` (shape: size 1 in the other dims);
    dim=-1 gives the norm of everything."""
    if dim == -1:
        return _norm_of_all(v, pow)
    if dim == 0:
        output_size = [v.size(0)] + [1] * (v.dim() - 1)
        return _norm_over_dim(v.contiguous().view(v.size(0), -1), pow, 1, False).view(output_size)
    if dim == v.dim() - 1:
        output_size = [1] * (v.dim() - 1) + [v.size(-1)]
        return _norm_over_dim(v.contiguous().view(-1, v.size(-1)), pow, 0, False).view(output_size)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _sum_except_dim(tensor, dim):
    """Sum over every dim but ``dim``, keeping them as size 1."""
    others = [d for d in range(tensor.dim()) if d != dim]
    return tensor.sum(others, keepdim=True) if others else tensor


class WeightNormInterfaceBackward0(Node):
    """result = v * (g / ||v||)   ->   grad_g = sum(grad * v) / ||v||; grad_v = (g / ||v||) * (grad - v * (sum(grad * v) / ||v||^2))

    Sums are over every dim but ``dim``; the node's second output, ||v||, is not
    differentiable."""

    _saved_names = ("v", "g", "result1")

    def backward(self, grad):
        v, g, norms = self.saved_tensors
        per_slice = _sum_except_dim(grad * v, self.dim)
        grad_v = (g / norms) * (grad - v * (per_slice / (norms * norms)))
        grad_g = per_slice / norms
        return grad_v, grad_g


def _weight_norm_interface(v, g, dim=0):
    """(w, norms): w recorded as one node; the norms are a second result that does not
    require grad (PyTorch's is not differentiable either)."""
    norms = plain_output(norm_except_dim(v.detach(), 2, dim)._array, v)
    values = (v._array * (g._array / norms._array)).astype(v._array.dtype, copy=False)
    w = result(values, WeightNormInterfaceBackward0, (v, g), saved=(v, g, norms), dim=dim)
    return w, norms


def _weight_norm(v, g, dim=0):
    """w = v * (g / ||v||) with the norm over every dim but ``dim`` (see the module docstring)."""
    v, g = v.contiguous(), g.contiguous()
    if dim == 0 or dim == v.dim() - 1:
        return _weight_norm_interface(v, g, dim)[0]
    return v * (g / norm_except_dim(v, 2, dim))
