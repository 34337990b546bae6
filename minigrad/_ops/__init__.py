"""Every differentiable operation, one family per file, each forward next to its backward.

* pointwise.py - + - * / **, exp, log, sin, relu, sigmoid, clamp, ...
* reduction.py - sum, mean, max, min, norm, ...
* shape.py     - reshape/view, transpose, permute, squeeze, expand, cat, stack, ...
* linalg.py    - matmul, mm, mv, dot
* indexing.py  - x[...] and x[...] = v
* inplace.py   - add_, mul_, zero_, copy_, ... and PyTorch's rules for them
* views.py     - how a view follows its base (AsStridedBackward0, CopySlices)

An operation computes its result with numpy and, if it must be recorded, creates
a Node subclass named like PyTorch's (``MulBackward0``) whose ``backward``
turns d(loss)/d(output) into d(loss)/d(each input). Backward formulas are
written with tensor operations, so with ``create_graph=True`` they are recorded
too and can be differentiated again. Gradients that were broadcast in forward
are summed back to each input's shape in one place: the engine (engine.py).
"""
import numpy as np

from .._tensor import _wrap, Tensor
from ..autograd.graph import SavedOutput, connect
from ..autograd.grad_mode import _State


def result(array, node_class, inputs, saved=None, **attributes):
    """Wrap ``array`` as the output tensor; record ``node_class`` if any input requires grad.

    ``inputs`` are the forward inputs the node has edges to (tensors, or None /
    numbers for inputs that can't require grad); ``saved`` are the values
    backward needs; ``attributes`` are plain settings (dim, shape, ...).
    """
    if type(array) is not np.ndarray:
        array = np.asarray(array)     # numpy gives scalars for 0-d results; tensors hold arrays
    out = _wrap(array)
    if not _State.enabled:
        return out
    for value in inputs:          # record only if some input requires grad
        if type(value) is Tensor and (value._grad_fn is not None or value._requires_grad):
            break
    else:
        return out
    node = node_class()
    connect(out, node, inputs)
    if saved is not None:
        node.save_for_backward(*saved)
    if attributes:
        node.__dict__.update(attributes)
    return out


def save_result(out, *before):
    """Save ``out`` (the operation's own result) for backward, after the values ``before``.

    Like PyTorch's derivatives that use ``result``: exp, sigmoid, tanh, sqrt, ... save
    their output because the derivative is cheaper from it. A SavedOutput keeps only
    the data and version, never ``out.grad_fn`` (that would be a reference cycle).
    """
    node = out._grad_fn
    if node is not None:
        node.save_for_backward(*before, SavedOutput(out))
    return out


def as_tensor(value, like=None):
    """Tensors pass through; numbers and lists become tensors (of ``like``'s dtype for numbers)."""
    if isinstance(value, Tensor):
        return value
    from .._creation import tensor
    if like is not None and isinstance(value, (int, float, bool)):
        return _wrap(np.asarray(value, dtype=like._array.dtype))
    return tensor(value)
