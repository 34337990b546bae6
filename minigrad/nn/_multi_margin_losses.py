"""Hinge losses over classes, one node each (as in PyTorch):

    multi_margin_loss(x, y)      each row: sum over classes d != y of max(0, margin - x[y] + x[d])**p
                                 (times weight[y]), divided by the number of classes
    multilabel_margin_loss(x, y) each row: sum over its target classes j and the other classes
                                 d of max(0, 1 - x[j] + x[d]), divided by the number of classes

The right class must score at least ``margin`` (or 1) above every other one; until it does,
its score is pushed up and the others down. ``y`` of multilabel_margin_loss lists a row's
target classes, ended by -1 (``[3, 0, -1, 1]`` means classes 3 and 0).

PyTorch computes them with plain loops over each row, in the input's dtype, and adds up the
rows in double: the numpy below follows the same order of additions, so float32 results
match to the last bit. Their gradients have no derivative of their own in PyTorch:
differentiating them again fails (NotImplemented), and so does forward mode.
"""
import numpy as np

from ..autograd.graph import Node
from .._ops import result
from .._ops.rounding import _NotImplementedBackward
from .._tensor import _wrap
from .._dtype import scalar_type_name, from_numpy_dtype
from ._margin_losses import reduction_of
from ._soft_margin_loss import _ReductionAsNumber
from ..autograd.kernel_writes import kernel_writes


def _forward_ad_refused(operation):
    """PyTorch's error for forward mode through an operation without a forward rule."""
    return NotImplementedError(
        f"Trying to use forward AD with {operation} that does not support it because it has not "
        "been implemented yet.\nPlease file an issue to PyTorch at "
        "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
        "can prioritize its implementation or submit a PR adding the implementation to "
        "derivatives.yaml")


def _check_types(kernel, input, target, weight=None):
    """The dtypes PyTorch's loops read: float32 or float64 scores, int64 labels, weights of
    the scores' dtype."""
    if input._array.dtype not in (np.float32, np.float64):
        name = scalar_type_name(from_numpy_dtype(input._array.dtype))
        raise NotImplementedError(f'"{kernel}" not implemented for \'{name}\'')
    for tensor, wanted in ((target, np.int64), (weight, input._array.dtype)):
        if tensor is not None and tensor._array.dtype != wanted:
            raise RuntimeError(
                f"expected scalar type {scalar_type_name(from_numpy_dtype(np.dtype(wanted)))} but "
                f"found {scalar_type_name(from_numpy_dtype(tensor._array.dtype))}")


def _rows(input):
    """(number of rows, number of classes) of a 0-d, 1-d (one row) or 2-d input, or PyTorch's
    error for any other."""
    shape = tuple(input.shape)
    if not (len(shape) == 2 and shape[1] != 0 or len(shape) == 1 and shape[0] != 0
            or len(shape) == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, "
                           f"but got: {list(shape)}")
    if len(shape) <= 1:
        return 1, (shape[0] if shape else 1)
    return shape


def _sequential_sum(values, dtype):
    """values[0] + values[1] + ... in that order (numpy's sum pairs them up instead)."""
    return np.cumsum(values, dtype=dtype)[-1] if len(values) else dtype(0)


def _nothing_written(shape, dtype):
    """The result of a loss of no elements (a batch of 0 rows). PyTorch's kernels return before
    they write anything: the result is new memory as ``torch.empty`` gives it, undefined for the
    reduced 0-d loss, which PyTorch reads as whatever the memory held (``mean`` gives no nan);
    minigrad's empty memory holds zeros. Their backward loops likewise have nothing to do."""
    return np.zeros(shape, dtype=dtype)


# --- multi_margin_loss ---------------------------------------------------------------------------

class MultiMarginLossBackward0(_ReductionAsNumber, Node):
    """result = multi_margin_loss(self, target, p, margin, weight)   ->
        grad_self = multi_margin_loss_backward(grad, self, target, p, margin, weight)
        (for each row: where margin - self[y] + self[d] > 0, (p == 1: 1, p == 2: 2 z) weight[y] / C
        at d, minus their sum at y)"""

    _saved_names = ("self", "target", "weight")

    def backward(self, grad):
        x, target, weight = self.saved_tensors
        values = _multi_margin_gradient(grad._array, x._array, target._array,
                                        None if weight is None else weight._array,
                                        self.p, self.margin, self.reduction)
        return (_recorded_gradient(values, grad, x, "multi_margin_loss_backward"),)

    def jvp(self, tangents, inputs, out):
        """result_t = error: PyTorch has no forward-mode rule for this loss"""
        raise _forward_ad_refused("multi_margin_loss")


def _recorded_gradient(values, grad, x, operation):
    """The gradient, recorded (under create_graph=True) as PyTorch's node that refuses to be
    differentiated again."""
    return result(values, _NotImplementedBackward,
                  tuple(t for t in (grad, x) if t._graph_requires_grad) or (grad, x),
                  _operation=operation)


def _margins(rows, labels, margin, d):
    """z = margin - x[y] + x[d] for every row, in the rows' dtype (PyTorch's order)."""
    chosen = rows[np.arange(len(rows)), labels]
    return (margin - chosen) + rows[:, d]


def _multi_margin_rows(rows, labels, p, margin, weight):
    """Each row's loss: its terms added one class after another, then divided by C."""
    dtype = rows.dtype.type
    margin = dtype(margin)
    total = np.zeros(len(rows), dtype=rows.dtype)
    for d in range(rows.shape[1]):
        z = _margins(rows, labels, margin, d)
        h = z if p == 1 else z * z
        if weight is not None:
            h = h * weight[labels]
        total = np.where((z > 0) & (labels != d), total + h, total)
    return total / dtype(rows.shape[1])


def _multi_margin_gradient(grad_output, x, target, weight, p, margin, reduction):
    """numpy: PyTorch's backward loop, row by row (see MultiMarginLossBackward0)."""
    if x.size == 0:
        return _nothing_written(x.shape, x.dtype)
    n_rows, n_classes = _rows(_wrap(x))
    rows = x.reshape(n_rows, n_classes)
    labels = _checked_labels(target.reshape(n_rows), n_classes)
    dtype = x.dtype.type
    g = dtype(1.0 / (n_rows * n_classes) if reduction == "mean" else 1.0 / n_classes)
    margin = dtype(margin)
    out = np.zeros_like(rows)
    at_label = np.zeros(n_rows, dtype=x.dtype)
    for d in range(n_classes):
        z = _margins(rows, labels, margin, d)
        h = np.full(n_rows, g) if p == 1 else (dtype(2) * g) * z
        if weight is not None:
            h = h * weight[labels]
        counts = (z > 0) & (labels != d)
        at_label = np.where(counts, at_label - h, at_label)
        out[:, d] = np.where(counts, h, 0)
    out[np.arange(n_rows), labels] = at_label
    if reduction != "none" or grad_output.ndim == 0:
        out = out * grad_output.reshape(())
    else:
        out = out * grad_output.reshape(n_rows, 1)
    return out.reshape(x.shape).astype(x.dtype, copy=False)


def _checked_labels(labels, n_classes):
    if labels.size and ((labels < 0) | (labels >= n_classes)).any():
        raise RuntimeError("target out of range")
    return labels


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """Multi-class hinge loss: each wrong class d costs max(0, margin - x[y] + x[d]) (squared
    for p=2), times weight[y], averaged over the classes (see the module docstring)."""
    reduction = reduction_of(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    if weight is not None and weight._graph_requires_grad:
        raise RuntimeError("The function 'multi_margin_loss' is not differentiable with respect "
                           "to argument 'weight'. This input cannot have requires_grad True.")
    n_rows, n_classes = _rows(input)
    if target.dim() > 1 or target.numel() != n_rows:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{n_rows}], but got "
            f"{list(target.shape)}. Input has shape {list(input.shape)}.")
    if weight is not None and weight.numel() != n_classes:
        raise RuntimeError(f"inconsistent weight size, expected {n_classes} but got "
                           f"{list(weight.shape)}")
    if input.numel() == 0:          # (the kernel returns before it looks at the dtypes)
        values = _nothing_written((n_rows,) if reduction == "none" and target.dim() > 0 else (),
                                  input._array.dtype)
        return result(values, MultiMarginLossBackward0, (input,), saved=(input, target, weight),
                      p=p, margin=margin, reduction=reduction)
    _check_types("multi_margin_loss_cpu_kernel", input, target, weight)
    rows = input._array.reshape(n_rows, n_classes)
    labels = _checked_labels(target._array.reshape(n_rows), n_classes)
    losses = _multi_margin_rows(rows, labels, p, margin,
                                None if weight is None else weight._array)
    if reduction == "none" and target.dim() > 0:
        values = losses
    else:
        # the rows' losses added up in double, then divided (and rounded once)
        total = _sequential_sum(losses.astype(np.float64), np.float64)
        if reduction == "mean":
            total = total / n_rows
        values = np.asarray(total, dtype=input._array.dtype)
    out = result(values, MultiMarginLossBackward0, (input,), saved=(input, target, weight),
                 p=p, margin=margin, reduction=reduction)
    return kernel_writes("multi_margin_loss", out, input, target, weight)


# --- multilabel_margin_loss ----------------------------------------------------------------------

class MultilabelMarginLossBackward0(_ReductionAsNumber, Node):
    """result = multilabel_margin_loss(self, target)   ->
        grad_self = multilabel_margin_loss_backward(grad, self, target, is_target): for each
        target class j and other class d with 1 - self[j] + self[d] > 0, -1/C at j and +1/C at d"""

    _saved_names = ("self", "target", "is_target")

    def backward(self, grad):
        x, target, is_target = self.saved_tensors
        values = _multilabel_gradient(grad._array, x._array, target._array, is_target._array,
                                      self.reduction)
        return (_recorded_gradient(values, grad, x, "multilabel_margin_loss_backward"),)

    def jvp(self, tangents, inputs, out):
        """result_t = error: PyTorch has no forward-mode rule for this loss"""
        raise _forward_ad_refused("multilabel_margin_loss_forward")


def _multilabel_shapes(input, target):
    n_rows, n_classes = _rows(input)
    expected = (n_rows, n_classes) if input.dim() == 2 else None
    if (target.dim() > 1 or target.numel() != n_classes) if expected is None else \
            tuple(target.shape) != expected:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    return n_rows, n_classes


def _active_pairs(rows, labels, is_target):
    """For each row, target position t (before the first -1) and class d: does the pair
    (labels[t], d) count, d not a target and 1 - x[labels[t]] + x[d] > 0? Also z itself."""
    n_rows, n_classes = rows.shape
    one = rows.dtype.type(1)
    listed = np.cumprod(labels >= 0, axis=1).astype(bool)     # positions before the first -1
    safe = np.where(listed, labels, 0)
    chosen = np.take_along_axis(rows, safe, axis=1)                  # x[labels[t]]
    z = (one - chosen)[:, :, None] + rows[:, None, :]                 # [row, t, d]
    active = listed[:, :, None] & (is_target[:, None, :] == 0) & (z > 0)
    return active, z, safe


def _is_target(labels, n_classes, dtype):
    """1 at each class a row lists (before its first -1), 0 elsewhere, as PyTorch saves it."""
    marks = np.zeros(labels.shape, dtype=dtype)
    listed = np.cumprod(labels >= 0, axis=1).astype(bool)
    rows_index = np.nonzero(listed)
    marks[rows_index[0], labels[listed]] = 1
    return marks


def _multilabel_gradient(grad_output, x, target, is_target, reduction):
    """numpy: PyTorch's backward loop. Every change is g = 1/C (or 1/(N C)) added or taken
    away, so an element's value is g added up, one at a time, as many times as it counts."""
    if x.size == 0:
        return _nothing_written(x.shape, x.dtype)
    n_rows, n_classes = _rows(_wrap(x))
    rows = x.reshape(n_rows, n_classes)
    labels = target.reshape(n_rows, n_classes)
    marks = is_target.reshape(n_rows, n_classes)
    dtype = x.dtype.type
    g = dtype(1.0 / (n_rows * n_classes) if reduction == "mean" else 1.0 / n_classes)
    active, _, safe = _active_pairs(rows, labels, marks)
    raised = active.sum(axis=1)                                   # +g per pair, at d
    lowered = np.zeros_like(raised)                               # -g per pair, at labels[t]
    np.add.at(lowered, (np.arange(n_rows)[:, None], safe), active.sum(axis=2))
    most = int(max(raised.max(initial=0), lowered.max(initial=0)))
    repeated = np.concatenate([[dtype(0)], np.cumsum(np.full(most, g, dtype=x.dtype),
                                                     dtype=x.dtype)])
    out = repeated[raised] - repeated[lowered]
    if reduction != "none" or grad_output.ndim == 0:
        out = out * grad_output.reshape(())
    else:
        out = out * grad_output.reshape(n_rows, 1)
    return out.reshape(x.shape).astype(x.dtype, copy=False)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Multi-label hinge loss: every target class j of a row should score 1 above every class
    d that isn't one (see the module docstring)."""
    reduction = reduction_of(size_average, reduce, reduction)
    n_rows, n_classes = _multilabel_shapes(input, target)
    dtype = input._array.dtype
    if input.numel() == 0:          # (the kernel returns before it looks at the dtypes)
        values = _nothing_written(() if reduction != "none" or target.dim() <= 1 else (n_rows,), dtype)
        return result(values, MultilabelMarginLossBackward0, (input,),
                      saved=(input, target, _wrap(np.zeros(target.shape, dtype=dtype))),
                      reduction=reduction)
    _check_types("multilabel_margin_loss_forward_out_frame", input, target)
    labels = target._array.reshape(n_rows, n_classes)
    if labels.size and (labels.min() < -1 or labels.max() >= n_classes):
        raise RuntimeError("argument #2 'target' is out of range")
    marks = _is_target(labels, n_classes, dtype)
    rows = input._array.reshape(n_rows, n_classes)
    active, z, _ = _active_pairs(rows, labels, marks)
    # each row's terms added up in double, in PyTorch's order (target position, then class)
    terms = np.where(active, z, 0).astype(np.float64).reshape(len(rows), -1)
    row_sums = np.array([_sequential_sum(row, np.float64) for row in terms], dtype=np.float64)
    row_sums = row_sums.astype(dtype)                      # each row's sum, back in the dtype
    if reduction == "none" and target.dim() > 1:
        values = row_sums / dtype.type(n_classes)
    else:
        total = _sequential_sum(row_sums.astype(np.float64), np.float64) / n_classes
        if reduction == "mean":
            total = total / n_rows
        values = np.asarray(total, dtype=dtype)
    is_target = _wrap(marks.reshape(target.shape) if input.numel() else
                      np.zeros(target.shape, dtype=dtype))
    out = result(values, MultilabelMarginLossBackward0, (input,), saved=(input, target, is_target),
                 reduction=reduction)
    return kernel_writes("multilabel_margin_loss", out, input, target)


__all__ = ["multi_margin_loss", "multilabel_margin_loss"]

