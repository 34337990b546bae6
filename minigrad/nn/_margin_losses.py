"""Losses that ask for a margin between scores, built from ordinary operations as PyTorch
builds them (so their graphs show clamp_min, where, norm, ... nodes, not a node of their own):

    margin_ranking_loss(x1, x2, y)  = max(0, -y (x1 - x2) + margin)        y = 1 or -1: "x1 ranks higher"
    hinge_embedding_loss(x, y)      = x where y == 1, max(0, margin - x) where y == -1
    cosine_embedding_loss(x1, x2, y)= 1 - cos(x1, x2) where y == 1, max(0, cos - margin) where y == -1
    triplet_margin_loss(a, p, n)    = max(0, margin + d(a, p) - d(a, n))   d: pairwise distance
    multilabel_soft_margin_loss(x, y) = -mean over classes of y log sigmoid(x) + (1 - y) log sigmoid(-x)

Most of them are C++ functions in PyTorch: where their C++ adds or subtracts a plain number,
the node is the one of a number (AddBackward1, SubBackward1); ``number - tensor`` there
records SubBackward0 with no edge for the number. The Python ones (triplet loss with a
distance function, multilabel soft margin) record what Python's operators record.
Then each loss is reduced: 'mean' (the default), 'sum' or 'none'.
"""
import warnings

import numpy as np

from .._tensor import _wrap
from .._creation import zeros_like
from .._ops.pointwise import add_number, sub_number, where, minimum, clamp_min
from .._warnings import stacklevel_outside_minigrad
from ._soft_margin_loss import _legacy_reduction
from ._similarity import pairwise_distance
from ._log_sigmoid import logsigmoid

# float, not double: PyTorch's C++ constant is ``constexpr float EPSILON = 1e-12``
_EPSILON = float(np.float32(1e-12))


def reduction_of(size_average, reduce, reduction):
    """The reduction a loss uses, from PyTorch's old flags or its name (with PyTorch's checks
    and warnings, as ``torch.nn._reduction`` makes them)."""
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' "
                      "instead.", UserWarning, stacklevel=stacklevel_outside_minigrad())
        return "mean"
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def reduced(losses, reduction):
    """The per-element losses, averaged ('mean'), added up ('sum') or kept ('none')."""
    if reduction == "mean":
        return losses.mean()
    if reduction == "sum":
        return losses.sum()
    return losses


def number_minus(number, tensor):
    """``number - tensor`` as PyTorch's C++ computes it: the number becomes a tensor of
    ``tensor``'s dtype (filled with it: an integer tensor cuts 1.5 to 1) that needs no gradient,
    so the node is SubBackward0 with no edge for it (Python's ``number - tensor`` would record
    RsubBackward1), and two bool tensors may not be subtracted."""
    return _wrap(np.array(number).astype(tensor._array.dtype)) - tensor


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    """max(0, -target * (input1 - input2) + margin), reduced.

    ``target`` is 1 where input1 should score higher than input2, -1 where lower; the loss is
    0 once the right one leads by ``margin``. Gradient: -target (for input1) and +target (for
    input2) where the loss is positive, 0 elsewhere.
    """
    reduction = reduction_of(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    losses = add_number(-target * (input1 - input2), margin).clamp_min_(0)
    return reduced(losses, reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    """input where target is 1, max(0, margin - input) where target is -1, reduced.

    For distances ``input`` between pairs: similar pairs (1) are pulled together, dissimilar
    ones (-1) pushed at least ``margin`` apart.
    """
    reduction = reduction_of(size_average, reduce, reduction)
    zeros = zeros_like(input)
    margin_clamp = number_minus(margin, input).clamp_min_(0)
    output_margin = where(target != 1, margin_clamp, zeros)
    output_self = where(target != -1, input, zeros)
    return reduced(output_margin + output_self, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                          reduction="mean"):
    """1 - cos(input1, input2) where target is 1, max(0, cos - margin) where target is -1.

    The cosine is taken along the last dim of 2-d inputs (one per row, target 1-d) or of
    1-d inputs (target 0-d), with 1e-12 added to each squared length.
    """
    reduction = reduction_of(size_average, reduce, reduction)
    target_dim = target.dim()
    if target_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    expected = 2 if target_dim == 1 else 1
    if input1.dim() != expected:
        raise RuntimeError(
            f"{target_dim}D target tensor expects {expected}D input tensors, but found inputs "
            f"with sizes {list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(target_dim)
    mag_square1 = add_number((input1 * input1).sum(target_dim), _EPSILON)
    mag_square2 = add_number((input2 * input2).sum(target_dim), _EPSILON)
    denom = (mag_square1 * mag_square2).sqrt_()
    cos = prod_sum / denom
    zeros = zeros_like(cos)
    pos = number_minus(1, cos)
    neg = sub_number(cos, margin).clamp_min_(0)
    output_pos = where(target == 1, pos, zeros)
    output_neg = where(target == -1, neg, zeros)
    return reduced(output_pos + output_neg, reduction)


def _check_same_dims(anchor, positive, negative):
    dims = (anchor.ndim, positive.ndim, negative.ndim)
    if not dims[0] == dims[1] == dims[2]:
        raise RuntimeError(
            f"The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
            f"{dims[2]}D inputs")


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), d the p-norm distance.

    Pulls the anchor towards the positive example and pushes it from the negative one until
    they are ``margin`` apart. ``swap=True`` uses the smaller of d(a, n) and d(p, n).
    """
    reduction = reduction_of(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_same_dims(anchor, positive, negative)
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_swap = pairwise_distance(positive, negative, p, eps)
        dist_neg = minimum(dist_neg, dist_swap)
    losses = clamp_min(add_number(dist_pos, margin) - dist_neg, 0)
    return reduced(losses, reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """triplet_margin_loss with any distance: ``distance_function(x, y)`` (pairwise_distance
    when None). PyTorch writes this one in Python, so ``margin + d`` records AddBackward0."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_same_dims(anchor, positive, negative)
    distance = pairwise_distance if distance_function is None else distance_function
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        # the positive example may lie closer to the negative one than the anchor does
        dist_swap = distance(positive, negative)
        dist_neg = minimum(dist_neg, dist_swap)
    losses = clamp_min(margin + dist_pos - dist_neg, 0)
    return reduced(losses, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """For each sample, the mean over classes of the logistic loss of each class:

        -(target log sigmoid(input) + (1 - target) log sigmoid(-input)), times ``weight``,

    then reduced over the samples. ``target`` holds 0 or 1 for every class (several may be 1).
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    losses = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        losses = losses * weight
    class_dim = input.dim() - 1
    classes = input.size(class_dim)
    losses = losses.sum(dim=class_dim) / classes       # one loss per sample
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return reduced(losses, reduction)


__all__ = ["margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss",
           "triplet_margin_loss", "triplet_margin_with_distance_loss",
           "multilabel_soft_margin_loss"]
