"""The other dropouts: whole channels at a time (dropout1d/2d/3d, feature_alpha_dropout) and
alpha dropout (for SELU networks), drawing the same random numbers as PyTorch.

``F.dropout`` (in functional.py) zeroes single elements. A convolution's neighbouring
positions are strongly correlated, so zeroing single positions hardly removes anything:
*feature* dropout zeroes whole channels instead. Its random mask has one number per
(sample, channel), shape (N, C, 1, 1, ...), and broadcasting spreads it over the positions.

*Alpha* dropout keeps SELU's self-normalizing property (mean 0, variance 1): a dropped element
becomes SELU's negative limit -alpha * scale instead of 0, and an affine map a * x + b brings
the mean and variance back:

    out = x * (keep * a) + (keep - 1) * alpha' * a + alpha' * a * p
        with alpha' = 1.7580993408473766 (SELU's alpha * scale), a = 1 / sqrt((alpha'^2 p + 1)(1 - p))

All of them draw the mask as PyTorch's CPU code does (an empty tensor filled by bernoulli_(1 - p)),
so the same seed drops the same elements. The graph records the multiplication (MulBackward0)
and, for alpha dropout, the addition (AddBackward0).
"""
import warnings

import numpy as np

from .._tensor import _wrap
from .._creation import zeros
from .._functorch import drawn
from ..autograd.function import _FuncTransforms
from .._warnings import stacklevel_outside_minigrad
from ._argument_checks import parse_as

_SELU_NEGATIVE_LIMIT = 1.7580993408473766      # alpha * scale of SELU: where it tends for x -> -inf


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _dropout(input, p, training, inplace, feature, alpha):
    """One recipe for the four kinds (element or channel mask; zero or alpha for dropped)."""
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:                       # everything dropped: no random numbers are drawn
        mask = zeros((), dtype=input.dtype)
        return input.mul_(mask) if inplace else input * mask
    # (checked only here, where the channel mask is made: as in PyTorch, eval mode, p=0, p=1 and
    # empty inputs of any number of dims pass through the shortcuts above)
    if feature and input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = (tuple(input.shape[:2]) + (1,) * (input.ndim - 2)) if feature else None
    noise = _wrap(np.empty(shape, dtype=input._array.dtype) if feature else np.empty_like(input._array))
    if _FuncTransforms.vmaps:        # inside vmap: batched where the vmap draws different numbers
        drawn(noise)
    noise.bernoulli_(1 - p)          # 1 = keep, with probability 1 - p
    if not alpha:
        noise.div_(1 - p)            # scaled so that the expected value stays the same
        return input.mul_(noise) if inplace else input * noise
    a = 1.0 / np.sqrt((_SELU_NEGATIVE_LIMIT ** 2 * p + 1) * (1 - p))
    shift = noise.add(-1).mul_(_SELU_NEGATIVE_LIMIT * a).add_(_SELU_NEGATIVE_LIMIT * a * p)
    noise.mul_(a)
    return input.mul_(noise).add_(shift) if inplace else (input * noise).add_(shift)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped elements become SELU's negative limit, and the result
    is scaled and shifted back to the input's mean and variance. (Off by default: training=False.)"""
    _check_p(p)
    return _dropout(input, p, training, inplace, feature=False, alpha=True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels (dim 1) at a time."""
    _check_p(p)
    return _dropout(input, p, training, inplace, feature=True, alpha=True)


def _channels_dropout(input, p, training, inplace, batched):
    """feature dropout, adding a batch dim of 1 first when the input has none."""
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = _dropout(input, p, training, inplace, feature=True, alpha=False)
    if not batched:
        out = out.squeeze_(0) if inplace else out.squeeze(0)
    return out


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, L) or (C, L) input, each with probability ``p``; scale the rest by 1 / (1 - p)."""
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that dropout1d "
            "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, "
            "and an optional batch dimension (i.e. 2D or 3D inputs).")
    if not isinstance(training, bool):      # (PyTorch's C++ feature_dropout(input, p, train) checks it)
        parse_as("feature_dropout_" if inplace else "feature_dropout", input, p, training)
    return _channels_dropout(input, p, training, inplace, batched=input.dim() == 3)


def _warn_unusual_dims(name, input, dims, spatial):
    if input.dim() not in dims:
        warnings.warn(
            f"{name}: Received a {input.dim()}-D input to {name}, which is deprecated and will result in an "
            "error in a future release. To retain the behavior and silence this warning, please use dropout "
            f"instead. Note that {name} exists to provide channel-wise dropout on inputs with {spatial} "
            "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. "
            f"{dims[0]}D or {dims[1]}D inputs).", stacklevel=stacklevel_outside_minigrad())


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, H, W) input (images), each with probability ``p``; scale the rest.

    A 3-D input is taken as (N, C, L), as PyTorch still does (with a warning).
    """
    _check_p(p)
    _warn_unusual_dims("dropout2d", input, (3, 4), 2)
    if input.dim() == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
            "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
            "will change in a future release to interpret the input as one without a batch dimension, i.e. "
            "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
            "dropout1d instead.", stacklevel=stacklevel_outside_minigrad())
    return _dropout(input, p, training, inplace, feature=True, alpha=False)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) input, each with probability ``p``; scale the rest."""
    _check_p(p)
    _warn_unusual_dims("dropout3d", input, (4, 5), 3)
    return _channels_dropout(input, p, training, inplace, batched=input.dim() == 5)
