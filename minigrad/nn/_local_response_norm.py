"""local_response_norm (AlexNet's normalization across channels) and gumbel_softmax, built
from ordinary operations in PyTorch's own order, so their graphs are PyTorch's.

    local_response_norm:  x / (k + alpha * mean of x^2 over `size` neighbouring channels)^beta
                          (the mean over a window along dim 1, zero-padded at both ends)
    gumbel_softmax:       softmax((logits + g) / tau), g ~ Gumbel(0, 1) = -log(Exponential(1));
                          with hard=True, the one-hot of the largest, with the soft gradient
                          (y_hard - y_soft.detach() + y_soft: the "straight-through" trick)
"""
import warnings

from .._warnings import stacklevel_outside_minigrad


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Normalize each element by the squares of its ``size`` neighbours across channels."""
    from .functional import pad, avg_pool2d, avg_pool3d
    dim = input.dim()
    if dim < 3:
        # (PyTorch's message has these spaces, from a line continued inside its string)
        raise ValueError(f"Expected 3D or higher dimensionality                          input "
                         f"(got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """A differentiable sample from the categorical distribution of ``logits`` (see above)."""
    from .._creation import empty_like, zeros_like
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.",
                      stacklevel=stacklevel_outside_minigrad())
    gumbels = -empty_like(logits).exponential_().log()      # ~ Gumbel(0, 1)
    gumbels = (logits + gumbels) / tau                        # ~ Gumbel(logits, tau)
    y_soft = gumbels.softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
