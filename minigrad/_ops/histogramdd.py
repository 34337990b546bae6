"""torch.histogramdd: a histogram of points in D dimensions (the last dim of the input holds
each point's D coordinates).

(PyTorch: aten/src/ATen/native/Histogram.cpp, the kernel torch.histogram uses too.)

Each dimension has its own bins: a number of equal-width bins over its range (the smallest
to the largest coordinate, or ``range=``'s pair for it), found as ``histogram`` finds them
(a first guess from the position in the range, then the edges next to it), or the given edges
(binary search). A point outside the edges of any dimension is not counted; the last edge
belongs to the last bin. The result is (hist, bin_edges): hist of shape (bins_0, ..., bins_D-1)
and a tuple of the D tensors of edges (the tensors given, if given). No gradient: nodes that
refuse backward.
"""
import builtins

import numpy as np

from .._tensor import Tensor
from ..autograd.graph import attach_outputs
from . import result, plain_output
from .counting import _edges, _Histogram, _NotImplementedPair, _signed_nan, extremes, refuse_histogram_of
from .reduction import return_types
from .views import history_first
from ..autograd.kernel_writes import kernel_writes


class _HistogramddResult(_Histogram):
    """The pair (hist, bin_edges), printed as ``torch.return_types.histogramdd``."""

    _name = "histogramdd"


_HistogramddResult.__name__ = _HistogramddResult.__qualname__ = "histogramdd"
return_types.histogramdd = _HistogramddResult


def _check_bins(bins):
    """bins as PyTorch's argument parser takes it: an int, a sequence of ints or of tensors."""
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        return int(bins)
    if isinstance(bins, (tuple, list)) and bins:
        if all(isinstance(b, Tensor) for b in bins):
            return list(bins)
        if all(isinstance(b, (int, np.integer)) and not isinstance(b, bool) for b in bins):
            return [int(b) for b in bins]
    got = "Tensor, bins=" + type(bins).__name__
    raise TypeError(
        f"histogramdd() received an invalid combination of arguments - got ({got}), but expected one of:\n"
        " * (Tensor input, int bins, tuple of floats range = None, Tensor weight = None, bool density = False)\n"
        " * (Tensor input, tuple of ints bins, tuple of floats range = None, Tensor weight = None, bool density = False)\n"
        " * (Tensor input, tuple of Tensors bins, tuple of floats range = None, Tensor weight = None, bool density = False)\n")


@history_first
def histogramdd(input, bins, range=None, weight=None, density=False):
    """A histogram of the points of ``input`` (its last dim: their coordinates) in as many
    dimensions: ``bins`` an int (that many bins in each), a sequence of ints (one for each), or
    a sequence of 1-d tensors of edges. ``range``: the low and high of each dimension, in one
    flat sequence; ``weight``: each point counts with its weight; ``density``: the counts
    divided by their sum and by the bins' volumes. Returns (hist, bin_edges).

    No gradient (inputs that require grad get a node that refuses backward, as in PyTorch).
    """
    bins = _check_bins(bins)
    array = input._array
    if array.ndim == 0:                 # (PyTorch reads input.size(-1) first)
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if array.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    dims = array.shape[-1]
    points = array.reshape(-1, dims)
    if isinstance(bins, int):
        bins = [bins] * dims
    if array.dtype.kind != "f":
        refuse_histogram_of(points, bins, range, weight)
    if isinstance(bins[0], Tensor):
        if len(bins) != dims:
            raise RuntimeError(f"torch.histogramdd: expected {dims} sequences of bin edges for a "
                               f"{dims}-dimensional histogram but got {len(bins)}")
    elif len(bins) != dims:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
    weights = _checked_weight(weight, array, points)
    if range is not None and not isinstance(bins[0], Tensor) and len(range) != 2 * dims:
        raise RuntimeError(f"torch.histogramdd: for a {dims}-dimensional histogram range should have "
                           f"{2 * dims} elements, but got {len(range)}")
    all_edges, nears = [], []
    for dim, bin_spec in enumerate(bins):
        edges, near = _dimension_edges(points[:, dim], bin_spec, range, dim, array)
        all_edges.append(edges)
        nears.append(near)
    counts = [builtins.max(len(edges) - 1, 0) for edges in all_edges]
    hist = np.zeros(counts, dtype=array.dtype)
    if all(counts) and points.shape[0]:
        inside = np.ones(points.shape[0], bool)
        for dim, edges in enumerate(all_edges):
            inside &= (points[:, dim] >= edges[0]) & (points[:, dim] <= edges[-1])
        kept = points[inside]
        positions = tuple(_positions(kept[:, dim], edges, near, array.dtype)
                          for dim, (edges, near) in enumerate(zip(all_edges, nears)))
        np.add.at(hist, positions, 1 if weights is None else weights[inside])
    if density:            # (nothing counted: 0 / 0, nan, as in PyTorch)
        total = hist.sum(dtype=np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            hist = hist / array.dtype.type(total)
            for dim, edges in enumerate(all_edges):
                shape = [1] * dims
                shape[dim] = -1
                hist = hist / np.diff(edges).reshape(shape)
    out = _outputs(input, weight, hist, all_edges, bins if isinstance(bins[0], Tensor) else None)
    given = [input, weight, *(bins if isinstance(bins[0], Tensor) else ())]
    kernel_writes("histogram", out[0], *given)         # (the counts, then each dim's edges)
    for edges in out[1]:
        kernel_writes("histogram_edges", edges, *given)
    return out


def _checked_weight(weight, array, points):
    if weight is None:
        return None
    if weight._array.shape != array.shape[:-1]:
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided it should have the same shape as the input "
            f"tensor excluding its innermost dimension, but got input with shape {list(array.shape)} and "
            f"weight with shape {list(weight.shape)}")
    if weight._array.dtype != array.dtype:
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have "
            f"the same dtype, but got input({weight_name(array)}), and weight({weight_name(weight._array)})")
    return weight._array.reshape(points.shape[0])


def weight_name(array):
    """The C++ name of an array's dtype (float, double), as this message shows it."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half"}.get(str(array.dtype), str(array.dtype))


def _dimension_edges(values, bin_spec, range, dim, array):
    """The edges of dimension ``dim``, and the number of equal bins (None: given edges)."""
    if isinstance(bin_spec, Tensor):
        if bin_spec.ndim != 1:
            raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but got "
                               f"{bin_spec.ndim} dimensions in the bins tensor for dimension {dim}")
        if bin_spec._array.dtype != array.dtype:
            raise RuntimeError(
                "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input "
                f"with dtype {weight_name(array)} and bins for dimension {dim} with dtype "
                f"{weight_name(bin_spec._array)}")
        return bin_spec._array.copy(), None
    if bin_spec <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bin_spec} for dimension {dim}")
    if range is not None:
        low, high = float(range[2 * dim]), float(range[2 * dim + 1])
    elif values.size:
        low, high = extremes(values)
    else:
        low, high = 0.0, 1.0
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension {dim}'s range [{_signed_nan(low)}, "
                           f"{_signed_nan(high)}] is not finite")
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max "
                           f"{high:g} for dimension {dim}")
    if low == high:                             # widened, as numpy does
        low, high = low - 0.5, high + 0.5
    return _edges(low, high, bin_spec, array.dtype), bin_spec


def _positions(values, edges, near, dtype):
    """The bin of each value (all within the edges), as histogram finds them."""
    count = len(edges) - 1
    found = np.searchsorted(edges, values, side="right")
    if near is not None:
        with np.errstate(invalid="ignore", divide="ignore"):
            guess = ((values - edges[0]) * dtype.type(near) / (edges[-1] - edges[0])).astype(np.int64)
        found = np.clip(found, np.maximum(guess - 1, 0), np.minimum(guess + 2, len(edges)))
    position = found - 1
    position[position == count] = count - 1       # the last edge belongs to the last bin
    return position


def _outputs(input, weight, hist, all_edges, given_edges):
    """hist, from a node that refuses backward if an input requires grad; the edges: the tensors
    given, or the outputs of one more such node (PyTorch computes them in an operation of their own)."""
    needing = tuple(t for t in (input, weight) if t is not None and t.requires_grad)
    operation = "_histogramdd_from_bin_tensors" if given_edges else "_histogramdd_from_bin_cts"
    out_hist = result(hist, _NotImplementedPair, needing, _operation=operation)
    if given_edges:
        return return_types.histogramdd(out_hist, tuple(given_edges))
    out_edges = [result(all_edges[0].copy(), _NotImplementedPair, needing, _operation="_histogramdd_bin_edges")]
    out_edges += [plain_output(edges.copy(), input) for edges in all_edges[1:]]
    node = out_edges[0]._grad_fn
    if node is not None and out_edges[0]._output_nr == 0:     # one node, an output for each dim
        attach_outputs(node, out_edges)
    return return_types.histogramdd(out_hist, tuple(out_edges))
