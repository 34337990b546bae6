"""softmin: softmax of the negated input, so the smallest score gets the largest probability.

    softmin(x, dim) = exp(-x) / sum(exp(-x)) along dim

As in PyTorch it is written as ``softmax(-x)``: its graph is SoftmaxBackward0 after NegBackward0.
"""
from .functional import _softmax, _softmax_dim


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """exp(-x) / sum(exp(-x)) along ``dim`` (without ``dim``: PyTorch's deprecated implicit choice,
    with its warning). Gradient: through softmax and the negation."""
    dim = _softmax_dim(input.ndim, dim, "softmin")
    return _softmax(-input, dim, dtype=dtype) if dtype is not None else _softmax(-input, dim)
