"""aminmax: the smallest and the largest value in one pass, as the named pair (min, max).

Like amin and amax (reduction.py), each gradient is split evenly among the tied
elements: grad_min among the minima, grad_max among the maxima, the two added up.
Both results are outputs of one node, AminmaxBackward0 (output 0 is min, 1 is max).
PyTorch: torch.aminmax.
"""
import numpy as np

from .._type_names import type_name
from .._tensor import _wrap, _normalize_dim, shrunk_to_0d
from .._memory_format import row_major
from ..autograd.graph import Node, SavedOutput, _SETTINGS_KEPT_AS, attach_outputs, show_saved_names, shown_as_given
from ..autograd.forward_ad import _DualLevel, _paused, _set_tangent, input_tangents
from .views import history_first
from . import result, plain_output
from .reduction import return_types
from ..autograd.kernel_writes import kernel_writes


class _MinMax(tuple):
    """The pair (min, max), printed as ``torch.return_types.aminmax``."""

    _name = "aminmax"       # (a named result: vmap rebuilds it from its parts)

    def __new__(cls, min, max):
        return tuple.__new__(cls, (min, max))

    @property
    def min(self):
        return self[0]

    @property
    def max(self):
        return self[1]

    def __repr__(self):
        return f"torch.return_types.aminmax(\nmin={self[0]!r},\nmax={self[1]!r})"


class AminmaxBackward0(Node):
    """results = (min, max) = aminmax(self, dim)   ->
        grad_self = grad_min / (number of minima) at each minimum
                  + grad_max / (number of maxima) at each maximum"""

    _saved_names = ("self", "min", "max")     # grad_fn._saved_self, _saved_min, _saved_max

    def backward(self, grad_min, grad_max):
        input, smallest, largest = self.saved_tensors
        grad_self = None
        for grad, extreme in ((grad_min, smallest), (grad_max, largest)):
            if grad is None:            # that result was not used: no gradient from it
                continue
            share = self._even_share(input, extreme, grad)
            grad_self = share if grad_self is None else grad_self + share
        return (grad_self,)

    def _even_share(self, input, extreme, grad):
        """grad / count at each element equal to ``extreme`` (as amin/amax do), 0 elsewhere."""
        dims = self.dims
        extreme = extreme._array if self.keepdim else np.expand_dims(extreme._array, dims)
        mask = input._array == extreme
        count = mask.sum(axis=dims, keepdims=True).astype(input._array.dtype)
        if not self.keepdim:
            grad = grad.view([1 if d in dims else n for d, n in enumerate(input.shape)])
        return (grad / _wrap(count)) * _wrap(mask)

    def jvp(self, tangents, inputs, out):
        """results_t = (the mean of self_t over the minima, the mean of self_t over the maxima),
        per slice (aminmax gives max its tangent the same way)"""
        return _mean_over_extremes(tangents[0], inputs[0], out, self.dims, self.keepdim)


def _mean_over_extremes(tangent, input, extreme, dims, keepdim):
    """The mean of ``tangent`` over the elements equal to ``extreme``, in each reduced slice."""
    extreme = extreme._array if keepdim else np.expand_dims(extreme._array, dims)
    mask = (input._array == extreme).astype(input._array.dtype)
    share = mask / mask.sum(axis=dims, keepdims=True)
    return (tangent * _wrap(share)).sum(dim=dims, keepdim=keepdim)


_MinMax.__name__ = _MinMax.__qualname__ = "aminmax"
return_types.aminmax = _MinMax          # (minigrad.return_types.aminmax, as torch.return_types.aminmax)

_SETTINGS_KEPT_AS["AminmaxBackward0"] = {"dim": shown_as_given("dim_as_given"), "keepdim": "keepdim"}
show_saved_names(AminmaxBackward0, _SETTINGS_KEPT_AS["AminmaxBackward0"])


@history_first
def aminmax(input, *, dim=None, keepdim=False):
    """The smallest and the largest value (over all elements, or along ``dim``), as the
    named pair (min, max).

    Gradient: each split evenly among its tied elements (as amin and amax).
    """
    if dim is not None and (not isinstance(dim, (int, np.integer)) or isinstance(dim, bool)):
        raise TypeError(f"aminmax(): argument 'dim' must be int, not {type_name(dim)}")
    array = input._array
    if dim is None:
        if array.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                               "operation has no identity.")
        dims = tuple(range(array.ndim))
    else:
        axis = _normalize_dim(dim, array.ndim)
        if array.ndim and array.shape[axis] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {axis} to have non-zero size.")
        dims = (axis,) if array.ndim else ()
    keep = keepdim and array.ndim > 0
    smallest = row_major(np.asarray(array.min(axis=dims, keepdims=keep)))
    largest = row_major(np.asarray(array.max(axis=dims, keepdims=keep)))
    if keepdim and dim is None and array.ndim:      # all dims reduced, each kept as size 1
        smallest, largest = smallest.reshape((1,) * array.ndim), largest.reshape((1,) * array.ndim)
    out_min = result(smallest, AminmaxBackward0, (input,), dims=dims, keepdim=keep,
                     dim_as_given=dim)
    out_max = plain_output(largest, input)
    node = out_min._grad_fn
    if node is not None and out_min._output_nr == 0 and isinstance(node, AminmaxBackward0):
        # max is the node's second output, as in PyTorch
        attach_outputs(node, (out_min, out_max))
        node.save_for_backward(input, SavedOutput(out_min), SavedOutput(out_max))
    if _DualLevel.open:          # forward mode: result() gave min its tangent; max gets its own
        tangents = input_tangents((input,))
        if tangents is not None and largest.dtype.kind == "f":
            with _paused():
                _set_tangent(out_max, _mean_over_extremes(tangents[0], input, out_max, dims, keep))
    out = return_types.aminmax(out_min, out_max)
    # (along a dim, the kept dim squeezed away: see shrunk_to_0d)
    if dim is None:
        return kernel_writes("aminmax", out, input)
    out = shrunk_to_0d(out, 1 if input.ndim else 0)
    return kernel_writes("aminmax_keepdim" if keepdim else "aminmax_dim", out, input)
