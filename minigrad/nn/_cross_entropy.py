"""cross_entropy's rarer duties: checking its arguments, and label smoothing.

``nn.functional.cross_entropy`` keeps its common case short (log_softmax, then
nll_loss). Two things live here instead, so that the common case stays easy
to read:

* the argument checks PyTorch makes before it computes anything, with its
  messages (a class-index target with an extra dimension, a weight with the
  wrong number of classes, ...);
* label smoothing (PyTorch: ``cross_entropy_loss_label_smoothing`` in
  LossNLL.cpp). With smoothing ``eps`` and ``C`` classes, the target is no
  longer "all on the label" but ``1 - eps`` on the label plus ``eps / C`` on
  every class. The loss is then a mix of two losses PyTorch computes apart::

      (1 - eps) * nll_loss(logp, target)  +  (eps / C) * smooth_loss

  where ``smooth_loss = -sum over classes of logp`` (weighted by ``weight``),
  zero where the target is ``ignore_index``, reduced like nll_loss. Building
  the loss from ordinary ops gives the graph PyTorch records (AddBackward0 of
  two MulBackward1, ...) and its gradient for free.
"""
from .._tensor import Tensor
from .._dtype import scalar_type_name
from .._ops.pointwise import mul_by_number, add_number


def _check_label_smoothing(label_smoothing):
    if label_smoothing > 1.0:
        # PyTorch prints the number as C++ does (2.0 as "2")
        raise RuntimeError(
            f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")


def check_cross_entropy_arguments(input, target, weight, ignore_index):
    """PyTorch's checks on cross_entropy's arguments, in PyTorch's order, with its messages."""
    for name, value, position in (("input", input, 1), ("target", target, 2)):
        if not isinstance(value, Tensor):
            kind = type(value)       # (named as PyTorch names it: numpy.ndarray, list, NoneType)
            kind_name = kind.__name__ if kind.__module__ == "builtins" else \
                f"{kind.__module__}.{kind.__name__}"
            raise TypeError(f"cross_entropy_loss(): argument '{name}' (position {position}) must "
                            f"be Tensor, not {kind_name}")
    shape = input._array.shape      # (the arrays' shapes and dtypes: no Size or dtype made)
    n_dims = len(shape)
    if shape == target._array.shape:                      # class probabilities
        if target._array.dtype.kind != "f":
            raise RuntimeError(
                "Expected floating point type for target with class probabilities, got "
                f"{scalar_type_name(target.dtype)}\nminigrad hint: a target with the input's "
                "shape holds probabilities (float); class indices have one dimension less")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if n_dims == 0:                                   # PyTorch asks for the size of dim 1
            raise IndexError("Dimension specified as 1 but tensor has no dimensions")
        check_weight(weight, shape[0 if n_dims == 1 else 1], "cross_entropy: ")
        return
    if n_dims == 0:             # log_softmax over dim 1 comes first
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    # class indices: log_softmax comes first, then nll_loss's checks


def check_weight(weight, n_classes, prefix):
    """PyTorch's check that ``weight`` has one number per class."""
    if weight is not None and (weight.ndim != 1 or weight.numel() != n_classes):
        raise RuntimeError(
            f"{prefix}weight tensor should be defined either for all {n_classes} classes or no "
            f"classes but got weight tensor of shape: {list(weight.shape)}")


def check_class_target_shape(input, target):
    """PyTorch's checks of class indices' shape against the input's (1-d or more), in its order:
    one label per row of dim 0, then per position after the class dim."""
    shape, target_shape = input._array.shape, target._array.shape     # (numpy's: no Size made)
    n_dims, target_dims = len(shape), len(target_shape)
    # PyTorch reads the first size of a 0-d target too, which it does not have: it prints 0
    target_batch = target_shape[0] if target_dims else 0
    if n_dims != 1 and shape[0] != target_batch:
        raise ValueError(
            f"Expected input batch_size ({shape[0]}) to match target batch_size ({target_batch}).")
    if n_dims <= 2 and target_dims > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported"
                           "\nminigrad hint: class indices are one number per row, e.g. "
                           "target.view(-1) for a column of labels")
    if n_dims == 4 and target_dims != 3:       # N x C x H x W: PyTorch's nll_loss2d
        raise RuntimeError("only batches of spatial targets supported (3D tensors) but got targets "
                           f"of dimension: {target_dims}")
    if n_dims >= 3 and n_dims != 4 and target_shape[1:] != shape[2:]:
        raise RuntimeError(
            f"Expected target size {[shape[0]] + list(shape[2:])}, got {list(target_shape)}")


def cross_entropy_with_label_smoothing(input, target, weight, ignore_index, reduction,
                                       label_smoothing):
    """cross_entropy with ``label_smoothing`` > 0, recorded as PyTorch records it."""
    from . import functional as F
    probabilities = input.shape == target.shape and target.is_floating_point()
    if not probabilities:       # (checked before log_softmax for class indices, after it else)
        _check_label_smoothing(label_smoothing)
    class_dim = 0 if input.ndim == 1 else 1
    n_classes = input.shape[class_dim]
    logp = F.log_softmax(input, class_dim)
    if probabilities:
        _check_label_smoothing(label_smoothing)
        # Probabilities: smooth the target itself (PyTorch's C++ multiplies and adds plain
        # numbers: MulBackward1, AddBackward1), then the usual cross-entropy.
        smoothed = add_number(mul_by_number(target, 1 - label_smoothing),
                              _per_class(label_smoothing, n_classes))
        return F.cross_entropy_with_probabilities(input, logp, smoothed, weight, reduction)
    nll = F.nll_loss(logp, target, weight=weight, ignore_index=ignore_index, reduction=reduction)
    ignored = target == ignore_index
    if weight is not None:
        class_shape = [1] * input.ndim
        class_shape[class_dim] = n_classes
        smooth_loss = -(logp * weight.view(class_shape)).sum(class_dim)
    else:
        smooth_loss = -logp.sum(class_dim)
    smooth_loss = smooth_loss.masked_fill(ignored, 0.0)
    if reduction == "mean":
        kept = target[~ignored].reshape(-1)
        # the same denominator as nll_loss's mean: the number (or total weight) of kept labels
        total = weight.gather(0, kept).sum() if weight is not None else (~ignored).sum()
        smooth = smooth_loss.sum() / total
    elif reduction == "sum":
        smooth = smooth_loss.sum()
    else:
        smooth = smooth_loss
    # PyTorch multiplies by plain numbers here, which it records as MulBackward1. Its C++
    # sum `(1 - eps) * nll + smooth * (eps / C)` works out the right-hand product first, so
    # that node is made first: the engine, which runs the latest made node first, then
    # reaches the nll part first in backward (it shows in the order of a third-order sum).
    smooth_part = mul_by_number(smooth, _per_class(label_smoothing, n_classes))
    nll_part = mul_by_number(nll, 1 - label_smoothing)
    return nll_part + smooth_part


def _per_class(label_smoothing, n_classes):
    """label_smoothing / n_classes, divided as PyTorch's C++ divides doubles (by 0: infinity)."""
    return label_smoothing / n_classes if n_classes else float("inf")
