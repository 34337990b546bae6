"""Batching rules for the losses: each loss on BatchedTensors as PyTorch's vmap runs it.

PyTorch has rules for a few losses (mse_loss, smooth_l1_loss, huber_loss,
binary_cross_entropy: the loss of every element of the whole batch, then each sample's
mean) and runs the others as their decomposition: the few operations the loss is made
of (nll_loss: a gather, a negation, a where, a sum), each batched by its own rule. So
minigrad's graph under vmap shows those same nodes. kl_div has no rule in PyTorch: its
fallback runs it once per sample.

PyTorch: aten/src/ATen/functorch/BatchRulesLoss.cpp, torch/_decomp/decompositions.py,
aten/src/ATen/native/Loss.cpp and LossNLL.cpp (the C++ compositions).
"""
from .._tensor import Tensor
from .. import _dtype
from .._functorch import _Vmaps
from ._batched_tensor import BatchedTensor
from ._batch_rules import (_arguments, dispatch, innermost_level, per_sample_as_pytorch,
                           unwrap, wrap)


def _same_shapes(input, target):
    return isinstance(input, Tensor) and isinstance(target, Tensor) and \
        tuple(input.shape) == tuple(target.shape)


def _elementwise_loss(*settings):
    """F.mse_loss(t, target), smooth_l1_loss (``beta``), huber_loss (``delta``): each sample
    flattened to one row (PyTorch's view), the loss of every element, then the sample's mean
    or sum (or the elements viewed back)."""
    def rule(op, level, args, kwargs):
        given = _arguments(("input", "target", "reduction") + settings, args, kwargs,
                           reduction="mean")
        if given is not None and given.get("weight") is not None and \
                _same_shapes(given["weight"], given["input"]):
            # (weighted: PyTorch's Python multiplies the loss of each element by the weight)
            weight, reduction = given.pop("weight"), given.get("reduction", "mean")
            given["reduction"] = "none"
            return _reduced(rule(op, level, (), given) * weight, reduction)
        if given is None or given.pop("weight", None) is not None or \
                not _same_shapes(given["input"], given["target"]) or \
                given["reduction"] not in ("mean", "sum", "none") or \
                given["input"].dim() == 0 or innermost_level(given["input"]) != level:
            return NotImplemented
        input, target, reduction = given.pop("input"), given.pop("target"), given.pop("reduction")

        def rows(value):
            moved, batched = unwrap(value, level)
            if batched:
                return moved.flatten(1)
            return moved.flatten().expand(_Vmaps.batch_sizes[level], -1)   # (the same row for all)
        out = op(rows(input), rows(target), reduction="none", **given)
        if reduction == "none":
            return wrap(out.view((out.shape[0],) + tuple(input.shape)), level)
        return wrap(out.mean(-1) if reduction == "mean" else out.sum(-1), level)
    return rule


def _reduced(loss, reduction):
    """A loss of each element of a sample, reduced as ``reduction`` says (on the batch)."""
    if reduction == "mean":
        return loss.mean()
    return loss.sum() if reduction == "sum" else loss


def _l1_loss(op, level, args, kwargs):
    """F.l1_loss: PyTorch's decomposition, |input - target| then the mean or sum."""
    given = _arguments(("input", "target", "reduction"), args, kwargs, reduction="mean")
    if given is None or not _same_shapes(given["input"], given["target"]) or \
            given["reduction"] not in ("mean", "sum", "none"):
        return NotImplemented
    return _reduced((given["input"] - given["target"]).abs(), given["reduction"])


def _binary_cross_entropy(op, level, args, kwargs):
    """F.binary_cross_entropy: PyTorch's rule, the loss of every element of the whole batch
    (the target given the batch if it has none), times the weight, then each sample's mean."""
    given = _arguments(("input", "target", "weight", "reduction"), args, kwargs,
                       weight=None, reduction="mean")
    if given is None or not _same_shapes(given["input"], given["target"]) or \
            given["reduction"] not in ("mean", "sum", "none") or \
            innermost_level(given["weight"]) == level or \
            (given["weight"] is not None and given["weight"].dim() > given["input"].dim()):
        return NotImplemented
    input, target, weight = given["input"], given["target"], given["weight"]
    size = _Vmaps.batch_sizes[level]

    def with_batch(value):
        moved, batched = unwrap(value, level)
        return moved if batched else moved.unsqueeze(0).expand(size, *moved.shape)
    loss = wrap(op(with_batch(input), with_batch(target), reduction="none"), level)
    if weight is not None:
        loss = loss * weight
    return _reduced(loss, given["reduction"])


def _binary_cross_entropy_with_logits(op, level, args, kwargs):
    """F.binary_cross_entropy_with_logits: PyTorch's decomposition, the stable
    (1 - target) x + m + log(exp(-m) + exp(-x - m)) with m = max(-x, 0) (the second part
    scaled by 1 + (pos_weight - 1) target, if given), times the weight, if given."""
    given = _arguments(("input", "target", "weight", "size_average", "reduce", "reduction",
                        "pos_weight"), args, kwargs, weight=None, size_average=None,
                       reduce=None, reduction="mean", pos_weight=None)
    if given is None or not _same_shapes(given["input"], given["target"]) or \
            given["reduction"] not in ("mean", "sum", "none") or \
            given["size_average"] is not None or given["reduce"] is not None or \
            not given["target"].is_floating_point():
        return NotImplemented
    input, target, pos_weight = given["input"], given["target"], given["pos_weight"]
    biggest = (-input).clamp_min(0)
    from .._creation import ones
    one = ones((), dtype=target.dtype)  # (PyTorch subtracts from a tensor 1: SubBackward0)
    softplus = ((-biggest).exp() + (-input - biggest).exp()).log()
    if pos_weight is None:
        loss = (one - target) * input + biggest + softplus
    else:                               # the positive targets' part weighted by pos_weight
        loss = (one - target) * input + ((pos_weight - 1) * target + 1) * (softplus + biggest)
    if given["weight"] is not None:
        loss = loss * given["weight"]
    return _reduced(loss, given["reduction"])


def _legacy(given):
    """Were PyTorch's old size_average/reduce flags given? (the fallback takes those)"""
    return given["size_average"] is not None or given["reduce"] is not None


def _nll_loss(op, level, args, kwargs):
    """F.nll_loss on a batch of (C,), (N, C) or (N, C, d1, ...) log-probabilities: PyTorch's
    decomposition, each row's entry at its label picked out (gather) and negated, 0 where
    the label is ``ignore_index``; 'mean' divides the sum by the number of labels kept (or
    their weights)."""
    given = _arguments(("input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction"),
                       args, kwargs, weight=None, size_average=None, ignore_index=-100, reduce=None,
                       reduction="mean")
    if given is None or _legacy(given) or not _valid_class_target(given, level):
        return NotImplemented
    return _nll_decomposed(given["input"], given["target"], given["weight"],
                           given["ignore_index"], given["reduction"])


def _valid_class_target(given, level):
    """Class labels for (C,), (N, C) or (N, C, d1, ...) inputs, and a weight that is not
    batched."""
    input, target = given["input"], given["target"]
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)) or input.dim() == 0:
        return False
    without_classes = tuple(input.shape[:1]) + tuple(input.shape[2:]) if input.dim() > 1 else ()
    return target.dtype == _dtype.int64 and tuple(target.shape) == without_classes and \
        given["reduction"] in ("mean", "sum", "none") and \
        innermost_level(given["weight"]) != level and input.numel() > 0


def _nll_decomposed(input, target, weight, ignore_index, reduction):
    if input.dim() > 2 and input.dim() != 4:
        # PyTorch's nll_loss_nd: (N, C, d1, ...) viewed as (N, C, 1, d) images (nll_loss2d)
        n, classes = input.shape[0], input.shape[1]
        loss = _nll_decomposed(input.contiguous().view(n, classes, 1, -1),
                               target.contiguous().view(n, 1, -1), weight, ignore_index, reduction)
        return loss.view(n, *input.shape[2:]) if reduction == "none" else loss
    classes = 1 if input.dim() >= 2 else 0
    if weight is not None:
        if input.dim() >= 2:
            weight = weight.view([weight.shape[0] if d == 1 else 1 for d in range(input.dim())])
        input = input * weight
    kept = target != ignore_index
    labels = target.where(kept, 0).unsqueeze(classes)      # (an ignored label picks class 0)
    loss = -input.gather(classes, labels).squeeze(classes)
    loss = loss.where(kept, 0)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if weight is None:
        total = kept.sum().to(input.dtype)
    else:
        total = weight.expand(*input.shape).gather(classes, labels).squeeze(classes)
        total = total.where(kept, 0).sum()
    return loss.sum() / total


def _cross_entropy(op, level, args, kwargs):
    """F.cross_entropy with class labels: log_softmax over the classes, then nll_loss's
    decomposition (PyTorch's graph: LogSoftmaxBackward0, GatherBackward0, ...)."""
    given = _arguments(("input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction",
                        "label_smoothing"), args, kwargs, weight=None, size_average=None, ignore_index=-100,
                       reduce=None, reduction="mean", label_smoothing=0.0)
    if given is None or _legacy(given) or not 0 <= given["label_smoothing"] <= 1:
        return NotImplemented           # (the fallback gives PyTorch's error)
    input, target, weight = given["input"], given["target"], given["weight"]
    smoothing, reduction = given["label_smoothing"], given["reduction"]
    if _same_shapes(input, target) and target.is_floating_point() and input.dim() > 0 and \
            reduction in ("mean", "sum", "none") and innermost_level(weight) != level:
        if smoothing:                   # the probabilities mixed with a uniform target
            from .._ops.pointwise import mul_by_number, add_number
            classes = input.shape[1 if input.dim() >= 2 else 0]
            target = dispatch("mul_by_number", mul_by_number, (target, 1 - smoothing), {})
            target = dispatch("add_number", add_number, (target, _per_class(smoothing, classes)), {})
        return _cross_entropy_with_probabilities(input, target, weight, reduction)
    if not _valid_class_target(given, level):
        return NotImplemented
    log_probabilities = input.log_softmax(1 if input.dim() >= 2 else 0)
    nll = _nll_decomposed(log_probabilities, target, weight, given["ignore_index"], reduction)
    if smoothing:
        return _with_label_smoothing(nll, log_probabilities, target, weight, given["ignore_index"],
                                     reduction, smoothing)
    return nll


def _per_class(smoothing, classes):
    return smoothing / classes if classes else float("inf")


def _with_label_smoothing(nll, log_probabilities, target, weight, ignore_index, reduction,
                          smoothing):
    """(1 - smoothing) nll + smoothing / C times the loss of a uniform target (the sum of
    -log-probabilities over the classes), as PyTorch's C++ composes it."""
    from .._ops.pointwise import mul_by_number
    classes = 1 if log_probabilities.dim() >= 2 else 0
    count = log_probabilities.shape[classes]
    ignored = target == ignore_index
    if weight is not None:
        shape = [count if d == classes else 1 for d in range(log_probabilities.dim())]
        uniform = -(log_probabilities * weight.view(shape)).sum(classes)
    else:
        uniform = -log_probabilities.sum(classes)
    uniform = uniform.masked_fill(ignored, 0.0)
    if reduction == "mean":
        if weight is None:
            total = (~ignored).sum()
        else:       # the weights of the labels kept (batched labels: PyTorch's refusal)
            total = weight.gather(0, target.masked_select(~ignored).flatten()).sum()
        uniform = uniform.sum() / total
    elif reduction == "sum":
        uniform = uniform.sum()
    # (PyTorch works out the right-hand product first: its node is made first)
    uniform_part = dispatch("mul_by_number", mul_by_number, (uniform, _per_class(smoothing, count)), {})
    nll_part = dispatch("mul_by_number", mul_by_number, (nll, 1 - smoothing), {})
    return nll_part + uniform_part


def _cross_entropy_with_probabilities(input, target, weight, reduction):
    """cross_entropy for class probabilities: -sum(target * log_softmax(input)) over the
    classes (each scaled by its weight); 'mean' divides by the number of rows, a number."""
    from .._ops.pointwise import div_by_number
    classes = 1 if input.dim() >= 2 else 0
    weighted = input.log_softmax(classes) * target
    if weight is not None:
        weighted = weighted * weight.reshape((-1,) + (1,) * (input.dim() - classes - 1))
    if reduction == "none":
        return -weighted.sum(classes)
    if reduction == "sum":
        return -weighted.sum()
    rows = input.numel() // input.shape[classes] if input.shape[classes] else float("nan")
    return dispatch("div_by_number", div_by_number, (-weighted.sum(), rows), {})


def _kl_div(op, level, args, kwargs):
    """F.kl_div: PyTorch's Python steps on the batch (its checks, 'batchmean' dividing by
    the batch size), around aten::kl_div, which has no batching rule: PyTorch's fallback runs
    it once per sample (with its "performance drop" warning)."""
    from ..nn import _kl_div
    given = _arguments(("input", "target", "size_average", "reduce", "reduction", "log_target"),
                       args, kwargs, size_average=None, reduce=None, reduction="mean",
                       log_target=False)
    if given is None:
        return NotImplemented
    input, reduction = given["input"], given["reduction"]
    if given["size_average"] is not None or given["reduce"] is not None:
        from ..nn._soft_margin_loss import _legacy_reduction     # (PyTorch's old flags)
        reduction = _legacy_reduction(given["size_average"], given["reduce"])
    else:
        _kl_div.check_reduction(reduction)
    loss = per_sample_as_pytorch(
        "kl_div", _kl_div.kl_div_of_elements, level, (input, given["target"],
        "sum" if reduction == "batchmean" else reduction, given["log_target"]))
    return _kl_div.divided_by_batch_size(loss, input, reduction)


def _legacy_flags(name, rule):
    """``rule`` for a loss that also takes PyTorch's old ``size_average`` and ``reduce``:
    they are turned into ``reduction`` first (with PyTorch's warning, once), and the loss
    is batched as with that reduction."""
    def with_flags(op, level, args, kwargs):
        if "size_average" not in kwargs and "reduce" not in kwargs:
            return rule(op, level, args, kwargs)
        kwargs = dict(kwargs)
        size_average, reduce = kwargs.pop("size_average", None), kwargs.pop("reduce", None)
        if size_average is not None or reduce is not None:
            from ..nn._soft_margin_loss import _legacy_reduction
            kwargs["reduction"] = _legacy_reduction(size_average, reduce)
        out = rule(op, level, args, kwargs)
        if out is NotImplemented:
            from ._batch_rules import run_per_sample
            return run_per_sample(name, op, level, args, kwargs)
        return out
    return with_flags


LOSS_RULES = {
    "F.mse_loss": _elementwise_loss(), "F.smooth_l1_loss": _elementwise_loss("beta"),
    "F.huber_loss": _elementwise_loss("delta", "weight"), "F.l1_loss": _l1_loss,
    "F.binary_cross_entropy": _binary_cross_entropy,
    "F.binary_cross_entropy_with_logits": _binary_cross_entropy_with_logits,
    "F.nll_loss": _nll_loss, "F.cross_entropy": _cross_entropy,
}
LOSS_RULES = {name: _legacy_flags(name, rule) for name, rule in LOSS_RULES.items()}
LOSS_RULES["F.kl_div"] = _kl_div           # (takes the old flags itself)


def _kl_div_at_outer_level(op, level, args, kwargs):
    """aten::kl_div met again at an outer level (a vmap inside a vmap, whose fallback runs it
    per sample): that level's fallback too, as PyTorch nests them. (Its result stays marked
    batched at the inner level, whose fallback stacks it.)"""
    from ._batch_rules import _marks
    marks = 0
    for value in args:
        if isinstance(value, Tensor):
            marks |= _marks(value)
    outer_marks = marks & ~(1 << level)
    for value in args:           # (the samples keep the mark of the inner level: its warnings)
        if isinstance(value, BatchedTensor) and value._level == level:
            value._value._vmap_levels |= outer_marks
    out = per_sample_as_pytorch("kl_div", op, level, args, kwargs)
    # (the inner level's fallback then stacks the results, each moved to the front first: a
    # permute, recorded even when nothing moves, as PyTorch's graph shows)
    value = out._value.permute(*range(out._value.dim()))
    value._vmap_levels |= outer_marks
    return wrap(value, level, out._bdim)


LOSS_RULES["kl_div"] = _kl_div_at_outer_level
