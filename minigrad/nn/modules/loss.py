"""Losses as layers (PyTorch: torch/nn/modules/loss.py).

Each one remembers its settings (``reduction``, class weights, ...) and calls
the function of the same name in ``nn.functional``. ``reduction`` says what to
do with the per-element losses: ``'mean'`` (the default), ``'sum'``, or
``'none'`` (keep them all).
"""
from .. import functional as F
from .._soft_margin_loss import _legacy_reduction
from .module import Module


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            # PyTorch's two old flags, replaced by ``reduction`` (with PyTorch's warning)
            reduction = _legacy_reduction(size_average, reduce)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        # a buffer: saved in state_dict with the model, but not learned
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """Mean absolute error: mean |input - target|."""

    def forward(self, input, target):
        """``F.l1_loss(input, target, reduction=self.reduction)``."""
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """Mean squared error: mean (input - target)**2."""

    def forward(self, input, target):
        """``F.mse_loss(input, target, reduction=self.reduction)``."""
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood: -input[i, target[i]], for log-probabilities ``input``."""

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        """``F.nll_loss(input, target, ...)`` with this module's weight, ignore_index and reduction."""
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Softmax cross-entropy for raw scores (logits): ``NLLLoss`` of ``log_softmax(input)``."""

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction="mean", label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        """``F.cross_entropy(input, target, ...)``: log_softmax then nll_loss. Gradient: (softmax - one_hot) / N."""
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCEWithLogitsLoss(_Loss):
    """Binary cross-entropy on logits: the sigmoid is applied inside, without overflow."""

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean",
                 pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        """``F.binary_cross_entropy_with_logits(input, target, ...)`` with this module's settings."""
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Squared error below ``beta``, absolute error (minus beta / 2) above it."""

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        """``F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)``."""
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared error below ``delta``, delta times the absolute error (minus delta / 2) above it."""

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        """``F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)``."""
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """KL divergence of ``target`` from log-probabilities ``input`` (use reduction='batchmean')."""

    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        """``F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)``."""
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class SoftMarginLoss(_Loss):
    """Logistic loss for labels 1 or -1: mean log(1 + exp(-target * input))."""

    def forward(self, input, target):
        """``F.soft_margin_loss(input, target, reduction=self.reduction)``."""
        return F.soft_margin_loss(input, target, reduction=self.reduction)
