"""The lower and upper triangle of a matrix: tril and triu.

``tril(x, diagonal=0)`` keeps the elements on and below a diagonal of each matrix (the last
two dimensions) and sets the others to 0; ``triu`` keeps those on and above it.
``diagonal=1`` moves the line one step up (towards the top-right), ``-1`` one step down.
A learner meets them in attention masks: ``torch.ones(n, n).tril()`` marks which earlier
positions each position may look at.

Each element either passes through unchanged (slope 1) or is replaced by 0 (slope 0), so the
gradient is the incoming gradient cut by the same triangle: grad.tril(diagonal).
PyTorch: torch.tril, torch.triu, Tensor.tril_, Tensor.triu_.
"""
import numpy as np

from .._type_names import type_name
from ..autograd.graph import Node
from . import result


class TrilBackward0(Node):
    """result = self.tril(diagonal)   ->   grad_self = grad.tril(diagonal)"""

    def backward(self, grad):
        return (tril(grad, self._diagonal),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.tril(diagonal)"""
        return tril(tangents[0], self._diagonal)


class TriuBackward0(Node):
    """result = self.triu(diagonal)   ->   grad_self = grad.triu(diagonal)"""

    def backward(self, grad):
        return (triu(grad, self._diagonal),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t.triu(diagonal)"""
        return triu(tangents[0], self._diagonal)


def _check(name, input, diagonal, in_place=False):
    """PyTorch's errors: an int diagonal, a tensor with rows and columns. (In place, autograd's
    rules come between the two, as PyTorch checks them before its kernel runs.)"""
    if not is_int(diagonal):
        # (as x.tril(0.5) says it; torch.tril(x, 0.5) is checked by its argument parser)
        raise TypeError(f"{name}(): argument 'diagonal' (position 1) must be int, not "
                        f"{type_name(diagonal)}")
    if in_place:
        from .inplace import check_inplace       # (inplace.py builds on this package)
        check_inplace(input, overlap_ok=True)    # (the overlap is allowed: see in_place below)
    else:
        # (PyTorch's autograd looks up the input's history before the kernel checks its dims:
        # a no_grad view whose base changed since is refused first)
        from .views import check_history_kept    # (views.py builds on this package)
        check_history_kept(input)
    if input._array.ndim < 2:
        raise RuntimeError(f"{name.rstrip('_')}: input tensor must have at least 2 dimensions")


def is_int(value):
    """An int, or what PyTorch takes as one: a one-element integer tensor (not a bool)."""
    if hasattr(value, "_array"):
        return value._array.size == 1 and value._array.dtype.kind in "iu"
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _triangle(numpy_function, node_class, name, input, diagonal):
    _check(name, input, diagonal)
    # a new row-major result whatever the input's layout, as PyTorch's
    out = np.ascontiguousarray(numpy_function(input._array, int(diagonal)))
    return result(out, node_class, (input,), _diagonal=int(diagonal))


def tril(input, diagonal=0):
    """The lower triangle of each matrix (the last two dimensions): elements above the
    ``diagonal``-th diagonal become 0 (``diagonal=0``: the main one; 1 is one step up).

    Gradient: grad.tril(diagonal) (the elements kept pass it on, the others get 0).
    """
    return _triangle(np.tril, TrilBackward0, "tril", input, diagonal)


def triu(input, diagonal=0):
    """The upper triangle of each matrix (the last two dimensions): elements below the
    ``diagonal``-th diagonal become 0 (``diagonal=0``: the main one; 1 is one step up).

    Gradient: grad.triu(diagonal) (the elements kept pass it on, the others get 0).
    """
    return _triangle(np.triu, TriuBackward0, "triu", input, diagonal)


def _in_place(name, operation, numpy_function):
    def in_place(self, diagonal=0):
        from .inplace import apply_inplace, _overlaps, overlaps_itself   # (inplace.py builds on this package)
        from ..autograd.function import _FuncTransforms
        if _FuncTransforms.vmaps:        # (PyTorch's vmap has no rule for it: once per sample)
            from .._functorch import warn_no_batching_rule
            warn_no_batching_rule(name, (self,), name)     # (inside a grad too)
        _check(name, self, diagonal, in_place=True)
        expanded = _overlaps(self._array)
        if not _batches_laid_out_in_order(self._array):
            # PyTorch computes into new memory and copies it back: a location seen twice keeps
            # what the copy's loop writes there last (an expanded tensor is refused by the copy)
            return apply_inplace(self, lambda t: operation(t, int(diagonal)))
        if expanded or overlaps_itself(self._array):     # several elements share memory
            return apply_inplace(self, lambda t: _zeros_written_through(
                operation(t, int(diagonal)), t, numpy_function, int(diagonal)), overlap_ok=expanded)
        return apply_inplace(self, lambda t: operation(t, int(diagonal)))
    in_place.__name__ = in_place.__qualname__ = name
    in_place.__doc__ = f"``self = self.{name[:-1]}(diagonal)``, written into self."
    return in_place


def _batches_laid_out_in_order(array):
    """PyTorch's test (checkTrilTriuBatchContiguous) for writing the zeros straight into self:
    true for a contiguous tensor, one of at most 3 dimensions, or one whose batch dimensions
    step over whole matrices one after another (the first may also be of size 1 or step 0)."""
    if array.flags.c_contiguous or array.ndim <= 3:
        return True
    steps = [step // array.itemsize for step in array.strides]
    expected = array.shape[-1] * array.shape[-2]
    for i in range(array.ndim - 3, -1, -1):
        if i == 0 and (steps[0] == 0 or array.shape[0] == 1):
            continue
        if steps[i] != expected:
            return False
        expected *= array.shape[i]
    return True


def _zeros_written_through(out, input, numpy_function, diagonal):
    """``out`` (the triangle of ``input``) as ``input``'s memory reads after PyTorch's in-place
    kernel, for an expanded input or overlapping windows: the kernel writes only the zeros, and
    where elements share memory, a zero written at one of them shows at all of them (PyTorch
    allows this here)."""
    array = input._array
    rows, columns = array.shape[-2:]
    kept = numpy_function(np.ones((rows, columns), dtype=bool), diagonal)
    written = np.broadcast_to(~kept, array.shape)
    # each element's place in memory (its offset in bytes): elements that share one, share a value
    offsets = sum(index * step for index, step in zip(np.indices(array.shape), array.strides))
    out._array[np.isin(offsets, offsets[written])] = 0
    return out


tril_ = _in_place("tril_", tril, np.tril)
triu_ = _in_place("triu_", triu, np.triu)
