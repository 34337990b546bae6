"""torch.xxx names of operations that learners mostly meet as methods or in torch.nn.functional.

PyTorch exposes its C++ operations under ``torch`` too: ``torch.layer_norm`` is what
``F.layer_norm`` calls, ``torch.dropout(input, p, train)`` what ``F.dropout`` calls. Some
take their arguments in another order than the F function (``torch.embedding(weight,
indices)``, ``torch.batch_norm(input, weight, bias, ...)``), so each is written out here.
"""
from . import _dropout_functions as _drop


def detach(input):
    """``input.detach()``: the same values, cut from the graph (a view that never requires grad)."""
    return input.detach()


def detach_(input):
    """``input.detach_()``: cut ``input`` itself from its graph."""
    return input.detach_()


def masked_fill(input, mask, value):
    """``input.masked_fill(mask, value)``: a copy with ``value`` where ``mask`` is True."""
    return input.masked_fill(mask, value)


def index_put_(input, indices, values, accumulate=False):
    """``input.index_put_(indices, values, accumulate)``: write (or add) values at the indices."""
    from ._ops.index_ops import check_index_put_arguments
    check_index_put_arguments("index_put_", indices, values, first=1)     # (counting input)
    return input.index_put_(indices, values, accumulate)


def adjoint(input):
    """The conjugate transpose of the last two dims: for real tensors, ``input.mT`` (a view)."""
    if input.dim() == 0:                # (deprecated there: a warning, then the tensor itself)
        return input.adjoint()
    if input.dim() < 2:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. "
                           f"Got {input.dim()}-D tensor.")
    return input.transpose(-2, -1)


def split_with_sizes(input, split_sizes, dim=0):
    """``input.split(split_sizes, dim)`` with a list of sizes (SplitWithSizesBackward0)."""
    return input.split(list(split_sizes), dim)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    """``F.layer_norm`` (``cudnn_enable`` does nothing on the CPU)."""
    from .nn.functional import layer_norm as f_layer_norm
    return f_layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    """``F.group_norm`` (``cudnn_enabled`` does nothing on the CPU)."""
    from .nn.functional import group_norm as f_group_norm
    return f_group_norm(input, num_groups, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """``F.rms_norm``."""
    from .nn.functional import rms_norm as f_rms_norm
    return f_rms_norm(input, normalized_shape, weight, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled):
    """``F.batch_norm`` with PyTorch's C++ order of arguments (weight and bias first)."""
    from .nn.functional import batch_norm as f_batch_norm
    return f_batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  cudnn_enabled):
    """``F.instance_norm`` with PyTorch's C++ order of arguments."""
    from .nn.functional import instance_norm as f_instance_norm
    return f_instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                           momentum, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """``F.embedding(indices, weight)``: the C++ form takes the table first, and -1 for no padding."""
    from .nn.functional import embedding as f_embedding
    return f_embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


dropout = _drop.dropout
dropout_ = _drop.dropout_
alpha_dropout = _drop.alpha_dropout
alpha_dropout_ = _drop.alpha_dropout_
feature_dropout = _drop.feature_dropout
feature_dropout_ = _drop.feature_dropout_
feature_alpha_dropout = _drop.feature_alpha_dropout
feature_alpha_dropout_ = _drop.feature_alpha_dropout_


# --- the losses as torch.xxx: the reduction as PyTorch's C++ number (0 none, the default here, 1 mean, 2 sum) ---------
# (Called without it, PyTorch's torch.xxx forms reduce nothing, as with 0; another number, too.)

def _reduction_name(reduction):
    return {1: "mean", 2: "sum"}.get(reduction, "none")


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    """``F.binary_cross_entropy_with_logits`` with ``reduction`` as a number (0 none, the default here, 1 mean, 2 sum)."""
    from .nn import functional as F
    return F.binary_cross_entropy_with_logits(input, target, weight, reduction=_reduction_name(reduction),
                                              pos_weight=pos_weight)


def kl_div(input, target, reduction=0, *, log_target=False):
    """``F.kl_div`` with ``reduction`` as a number (0 none, 1 mean, 2 sum; PyTorch's "batchmean" is
    F's own: the sum divided by the batch size)."""
    from .nn import functional as F
    return F.kl_div(input, target, reduction=_reduction_name(reduction), log_target=log_target)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    """``F.cosine_embedding_loss`` with ``reduction`` as a number (0 none, the default here, 1 mean, 2 sum)."""
    from .nn import functional as F
    return F.cosine_embedding_loss(input1, input2, target, margin=margin, reduction=_reduction_name(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    """``F.hinge_embedding_loss`` with ``reduction`` as a number (0 none, the default here, 1 mean, 2 sum)."""
    from .nn import functional as F
    return F.hinge_embedding_loss(input, target, margin=margin, reduction=_reduction_name(reduction))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    """``F.margin_ranking_loss`` with ``reduction`` as a number (0 none, the default here, 1 mean, 2 sum)."""
    from .nn import functional as F
    return F.margin_ranking_loss(input1, input2, target, margin=margin, reduction=_reduction_name(reduction))


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    """``F.poisson_nll_loss`` with every argument given, ``reduction`` as a number (0 none, the default here, 1 mean, 2 sum)."""
    from .nn import functional as F
    return F.poisson_nll_loss(input, target, log_input=log_input, full=full, eps=eps,
                              reduction=_reduction_name(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, reduction=0):
    """``F.triplet_margin_loss`` with ``reduction`` as a number (0 none, the default here, 1 mean, 2 sum)."""
    from .nn import functional as F
    return F.triplet_margin_loss(anchor, positive, negative, margin=margin, p=p, eps=eps, swap=swap,
                                 reduction=_reduction_name(reduction))


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """``F.max_pool3d`` without ``return_indices`` (an empty ``stride`` is the kernel size)."""
    from .nn import functional as F
    return F.max_pool3d(input, kernel_size, stride if stride not in ((), []) else None, padding, dilation,
                        ceil_mode=ceil_mode)
