"""embedding_bag: embedding followed by a sum, mean or max over each bag of indices, in one
operation (EmbeddingBagBackward0), as in PyTorch.

``input`` is one long run of indices cut into bags by ``offsets`` (bag b starts at offsets[b]),
or a 2-D (B, N) tensor of B bags of N. For each bag the looked-up rows of ``weight`` are

    sum:   added up (each times its ``per_sample_weights`` entry, if given)
    mean:  added up and divided by the bag's size
    max:   the largest value of each column

An empty bag gives zeros; rows of ``padding_idx`` are left out (and not counted in a mean).
PyTorch's operation also returns three helper tensors, which its node keeps (``_saved_result1``
to ``_saved_result3``): the bag of each index (offset2bag), each bag's size (bag_size: zeros
when the mode is sum) and, for max, the row that gave each maximum (for mean: the bag sizes).

Gradients: each bag's gradient row goes back to the rows the bag looked up (times its
per-sample weight, divided by the bag's size for mean); for max, only to the row of each
maximum. The weight of a sample gets the dot product of its bag's gradient with its row.
PyTorch cannot differentiate these gradients again, and neither can minigrad (same messages).
"""
import numpy as np

from .._fused_multiply_add import fma
from .._tensor import Tensor, _wrap
from .._ops import result
from .._ops.rounding import _NotImplementedBackward
from ..autograd.graph import Node, _SETTINGS_KEPT_AS
from .. import _dtype
from .._global_settings import get_num_threads
from ._embedding import _renorm_rows

_MODES = {"sum": 0, "mean": 1, "max": 2}

_SETTINGS_KEPT_AS["EmbeddingBagBackward0"] = {
    "mode": "mode", "padding_idx": lambda settings: settings["padding_idx"] % 2**64,   # (None: -1, unsigned)
    "scale_grad_by_freq": "scale_grad_by_freq", "sparse": "sparse", "weight_sym_argsize_0": "num_weights"}
_SETTINGS_KEPT_AS["EmbeddingBagBackwardBackward0"] = {}


class EmbeddingBagBackwardBackward0(Node):
    """result = embedding_bag's gradient for the weight   ->   grad_grad = error: PyTorch has no derivative for it"""

    def backward(self, *grads):
        raise NotImplementedError("the derivative for '_embedding_bag_backward' is not implemented.")


class EmbeddingBagBackward0(Node):
    """result = each bag's sum, mean or max of the rows it looks up   ->
        grad_weight = each bag's grad added to the rows it looked up (times the sample's weight,
                      / the bag's size for mean, for max only to the row of each maximum);
        grad_per_sample_weights = dot(the bag's grad, the sample's row)"""

    _saved_names = ("indices", "offsets", "per_sample_weights", "result1", "result2", "result3", "weight")

    def _sum_backward(self, g, places, bags, per_sample_weights, bag_size, table):
        """numpy: sum and mean's gradient for the table, added as PyTorch's CPU kernel adds it:
        index after index in sorted order, each term grad * scale with the scale worked out in
        float64 (the sample's weight, / the bag's size for mean) and rounded to grad's dtype,
        added with one rounding (its BLAS axpy: a fused multiply-add).

        With ``scale_grad_by_freq`` PyTorch's kernel divides the terms of the k-th smallest
        distinct index by the count of the k-th smallest index (counted with repeats), not
        by its own count, and so does minigrad, to give the same numbers."""
        order = np.argsort(places, kind="stable")
        ordered = places[order]
        kept = (ordered != self.padding_idx) & (bags[order] >= 0)
        scale = np.ones(len(places))
        if per_sample_weights is not None:
            scale = per_sample_weights._array[order].astype(np.float64)
        if self.scale_grad_by_freq:
            counts = np.bincount(places, minlength=self.num_weights)
            group = np.cumsum(np.r_[0, ordered[1:] != ordered[:-1]]) if len(places) else ordered
            scale = scale / counts[ordered[group]]
        if self.mode == 1:
            sizes = bag_size[bags[order]]
            scale = np.where(sizes != 0, scale / np.maximum(sizes, 1), scale)
        scale, rows, targets = scale.astype(g.dtype)[kept][:, None], g[bags[order][kept]], ordered[kept]
        # the k-th term of every index at once (an index appears at most once in each step)
        starts = np.r_[0, np.flatnonzero(targets[1:] != targets[:-1]) + 1] if len(targets) else targets
        rank = np.arange(len(targets)) - np.repeat(starts, np.diff(np.r_[starts, len(targets)]))
        for k in range(int(rank.max()) + 1 if len(rank) else 0):
            step = rank == k
            table[targets[step]] = fma(scale[step], rows[step], table[targets[step]])
        return table

    def backward(self, grad):
        indices, _, per_sample_weights, _, bag_size, max_indices, weight = self.saved_tensors
        g, places, bags = grad._array, indices._array.astype(np.int64), self.bags
        table = np.zeros((self.num_weights, g.shape[1]), dtype=g.dtype)
        if self.mode == 2:
            filled = bag_size._array > 0               # (an empty bag's maxima came from nowhere)
            columns = np.broadcast_to(np.arange(g.shape[1]), max_indices.shape)[filled]
            np.add.at(table, (max_indices._array[filled], columns), g[filled])
        else:
            table = self._sum_backward(g, places, bags, per_sample_weights, bag_size._array, table)
        grad_weight = result(table, EmbeddingBagBackwardBackward0, (grad, per_sample_weights))
        if per_sample_weights is None:
            return grad_weight, None
        dots = np.zeros(places.shape, dtype=g.dtype)
        kept = (places != self.padding_idx) & (bags >= 0)
        dots[kept] = np.einsum("ij,ij->i", g[bags[kept]], weight._array[places[kept]])
        grad_weights = result(dots, _NotImplementedBackward, (grad, weight),
                              _operation="_embedding_bag_per_sample_weights_backward")
        return grad_weight, grad_weights


def _bags(offsets, include_last_offset, count):
    """numpy: the bag of each index and each bag's (start, end). (With ``include_last_offset`` the
    last offset only says how many bags there are: PyTorch's last bag still runs to the end.)"""
    starts = offsets[:-1] if include_last_offset else offsets
    ends = np.append(starts[1:], count) if len(starts) else starts
    bags = np.full(count, -1, dtype=np.int64)
    for bag, (start, end) in enumerate(zip(starts, ends)):
        bags[start:end] = bag
    return bags, list(zip(starts.tolist(), ends.tolist()))


def _check(input, weight, offsets, mode, scale_grad_by_freq, sparse, per_sample_weights):
    """The checks of PyTorch's Python embedding_bag, in its order."""
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(f"embedding_bag: If per_sample_weights ({_size(per_sample_weights)}) is not None, then it "
                         f"must have the same shape as the input ({_size(input)})")
    if weight.ndim != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.ndim}")
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {_type_str(offsets)}")
    elif input.ndim == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.ndim != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.ndim}")
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")


def _size(tensor):
    return f"torch.Size([{', '.join(map(str, tensor.shape))}])"


def _type_str(value):
    return "<class 'torch.Tensor'>" if isinstance(value, Tensor) else str(type(value))


def _check_values(indices, offsets, weight, padding_idx):
    """PyTorch's C++ checks of the indices, offsets and padding_idx; returns padding_idx as a row (-1: none)."""
    if indices.dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{indices.dtype.tensor_type_name} instead (while checking "
                           "arguments for embedding_bag)")
    if not weight.dtype.is_floating_point:
        # (PyTorch names a bool tensor's type in its older spelling here)
        shown = "CPUBoolType" if weight.dtype is _dtype.bool_ else f"torch.{weight.dtype.tensor_type_name}"
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following scalar types: "
                           f"Half, BFloat16, Float, Double; but got {shown} instead (while checking arguments "
                           "for embedding_bag)")
    count = weight.shape[0]
    if padding_idx is None:
        padding_idx = -1
    elif not -count <= padding_idx < count:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{count} through {count - 1}, "
                           f"but got {padding_idx}")
    elif padding_idx < 0:
        padding_idx += count
    starts = offsets._array
    if starts.size and starts[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {starts[0]}\n[ torch.{offsets.dtype.tensor_type_name}{{}} ]")
    if starts.size and starts[-1] > indices.numel():
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {indices.numel()} but got "
                           f"offsets[-1] of {starts[-1]}")
    return padding_idx


def _check_range(indices, count, fast, spans):
    """Every index a row of the table (the faster float32 kernel words its message differently)."""
    bad = (indices < 0) | (indices >= count)
    if bad.any():
        if fast:
            raise _faster_kernel_range_error(indices, bad, count, spans)
        raise RuntimeError(f"embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be "
                           f"{indices[bad][0]}")


def _faster_kernel_range_error(indices, bad, count, spans):
    """The faster float32 kernel's error for an index out of range.

    PyTorch shares the bags out among its threads (``get_num_threads()``, equal shares in bag
    order), and a share with a bad index reports it. Its report reads the share's offsets as if
    the share began at the start of the input, so a later share whose first offset is not below
    its own number of indices fails an internal check instead, with that check's message. (When
    several shares have a bad index, PyTorch's threads race to report; minigrad reports the
    first share's.)"""
    place = int(np.flatnonzero(bad)[0])
    threads = min(get_num_threads(), len(spans))
    if threads > 1:
        share = -(-len(spans) // threads)
        first_share_end = spans[share - 1][1]
        if place >= first_share_end:
            bag = next(b for b, (start, end) in enumerate(spans) if start <= place < end)
            first, last = bag // share * share, min(bag // share * share + share, len(spans)) - 1
            if spans[first][0] >= spans[last][1] - spans[first][0]:
                return RuntimeError("Expected i < index_size to be true, but got false.  (Could this error message "
                                    "be improved?  If so, please report an enhancement request to PyTorch.)")
    return RuntimeError(f"Index {place} of input takes value {indices[place]} which is not in the valid "
                        f"range [0, {count})")


def _reduce(table, places, per_sample_weights, spans, mode, padding_idx, fused):
    """numpy: each bag's sum or max of its rows, added up index after index (PyTorch's order:
    the same result to the last bit), and the row of each maximum. ``fused``: a weighted sum
    rounds w * x + sum once, as PyTorch's faster float32 kernel does (a fused multiply-add)."""
    out = np.zeros((len(spans), table.shape[1]), dtype=table.dtype)
    max_indices = np.zeros((len(spans), table.shape[1]), dtype=np.int64)
    for bag, (start, end) in enumerate(spans):
        seen = False
        for i in range(start, end):
            row = places[i]
            if row == padding_idx:
                continue
            values = table[row]
            if mode == 2:
                larger = (values > out[bag]) if seen else np.ones(values.shape, dtype=bool)
                out[bag][larger], max_indices[bag][larger] = values[larger], row
            elif per_sample_weights is None:
                out[bag] += values
            elif fused:      # (PyTorch's faster float32 kernel adds w * x with one rounding)
                out[bag] = fma(per_sample_weights[i], values, out[bag])
            else:
                out[bag] += per_sample_weights[i] * values
            seen = True
    return out, max_indices


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """The sum, mean or max (``mode``) of the rows of ``weight`` that each bag of indices looks up:
    one row per bag, (B, embedding_dim). Bags: ``input`` 2-D (B, N), or 1-D cut at ``offsets``.
    Recorded as EmbeddingBagBackward0."""
    # (PyTorch's Python reads weight.dtype first, then input.size() or input.dim())
    from ._argument_checks import asked_for
    if not isinstance(weight, Tensor):
        asked_for("dtype", weight)
    if not isinstance(input, Tensor) and weight.dtype is _dtype.int64:
        asked_for("is_floating_point", input)
    if weight.dtype is _dtype.int64 and input.is_floating_point():
        import warnings
        from .._warnings import stacklevel_outside_minigrad
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
                      UserWarning, stacklevel=stacklevel_outside_minigrad())
        weight, input = input, weight
    if not isinstance(input, Tensor) and per_sample_weights is not None:
        asked_for("size", input)
    if not isinstance(input, Tensor) and weight.ndim == 2:
        asked_for("dim", input)
    _check(input, weight, offsets, mode, scale_grad_by_freq, sparse, per_sample_weights)
    if input.ndim == 2:
        offsets = _wrap(np.arange(0, input.numel(), input.shape[1], dtype=input._array.dtype))
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    if max_norm is not None:
        _renorm_rows(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request "
                                  "on GitHub.")
    padding_idx = _check_values(input, offsets, weight, padding_idx)
    places = input._array.astype(np.int64)
    bags, spans = _bags(offsets._array.astype(np.int64), include_last_offset, places.size)
    number = _MODES[mode]
    # PyTorch's float32 sum and mean without padding take a faster kernel: its last bag ends at
    # the last offset, not at the end of input
    fast = weight.dtype is _dtype.float32 and padding_idx < 0 and number != 2
    _check_range(places, weight.shape[0], fast, spans)
    if fast and include_last_offset and spans:
        spans[-1] = (spans[-1][0], min(int(offsets._array[-1]), places.size))
    out, max_indices = _reduce(weight._array, places, None if per_sample_weights is None else
                               per_sample_weights._array, spans, number, padding_idx, fused=fast)
    bag_size = np.bincount(bags[(places != padding_idx) & (bags >= 0)], minlength=len(spans))[:len(spans)]
    if number == 1:
        out /= np.maximum(bag_size, 1)[:, None].astype(out.dtype)
    offset2bag = bags
    if number == 0:
        if fast:
            offset2bag = np.zeros(0, dtype=np.int64)      # (the faster kernel skips it)
        bag_size = max_indices = np.zeros(len(spans), dtype=np.int64)
    elif number == 1:
        max_indices = bag_size.copy()
    saved = (input, offsets, per_sample_weights, _wrap(offset2bag), _wrap(bag_size), _wrap(max_indices),
             weight if per_sample_weights is not None else None)
    return result(out, EmbeddingBagBackward0, (weight, per_sample_weights), saved=saved, mode=number,
                  padding_idx=padding_idx, scale_grad_by_freq=bool(scale_grad_by_freq), sparse=bool(sparse),
                  num_weights=weight.shape[0], bags=bags)
