"""F.pdist: the p-norm distance between every pair of rows of a matrix (i < j), in the
order (0, 1), (0, 2), ..., (1, 2), ... (the upper triangle of the distance matrix, row by row).

One node, PdistBackward0. Each pair's distance d = ||x_i - x_j||_p sends back to row i

    grad * (x_i - x_j) |x_i - x_j|^(p-2) / d^(p-1)        (0 where d == 0)

and the opposite to row j; p = 1 is grad * sign, p = inf shares grad among the columns
where |x_i - x_j| reaches d, p = 0 (a count) gives 0. Its gradient is recorded as
PdistBackwardBackward0, which PyTorch cannot differentiate again.
"""
import numpy as np

from ..autograd.graph import Node
from .._ops import result
from .._ops.rounding import _NotImplementedBackward
from ..autograd.kernel_writes import kernel_writes


def _pairs(n):
    rows, columns = np.triu_indices(n, k=1)
    return rows, columns


def _pair_gradients(x, distances, grad, p):
    """Each pair's gradient for row i (row j gets its negative)."""
    rows, columns = _pairs(x.shape[0])
    diff = x[rows] - x[columns]
    d = distances[:, None]
    g = grad[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 0:
            out = np.zeros_like(diff)
        elif p == 1:
            out = g * np.sign(diff)
        elif p == 2:
            out = np.where(d == 0, 0, g * diff / d)
        elif p == np.inf:
            out = g * np.sign(diff) * (np.abs(diff) == d)
        elif p < 2:
            out = np.where((d == 0) | ((diff == 0) & (p < 1)), 0,
                           np.sign(diff) * np.abs(diff) ** (p - 1) * g / d ** (p - 1))
        else:
            out = np.where(d == 0, 0, diff * np.abs(diff) ** (p - 2) * g / d ** (p - 1))
    return rows, columns, out.astype(x.dtype, copy=False)


class PdistBackward0(Node):
    """result = pdist(self, p)   ->   grad_self = _pdist_backward(grad, self, p, result)
    (see the module docstring)"""

    _saved_names = ("self", "result")

    def backward(self, grad):
        x, distances = self.saved_tensors
        rows, columns, per_pair = _pair_gradients(x._array, distances._array, grad._array, self.p)
        values = np.zeros_like(x._array)
        np.add.at(values, rows, per_pair)
        np.add.at(values, columns, -per_pair)
        # recorded (create_graph=True) as a node PyTorch cannot differentiate again; its edges
        # go to grad, self and the distances
        return (result(values, PdistBackwardBackward0, (grad, x, distances)),)


class PdistBackwardBackward0(_NotImplementedBackward):
    """result = _pdist_backward(grad, self, p, pdist)   ->   grad_grad = error: PyTorch has no derivative for it"""

    def name(self):
        """``'PdistBackwardBackward0'``."""
        return "PdistBackwardBackward0"

    def backward(self, grad):
        raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


PdistBackwardBackward0.__name__ = PdistBackwardBackward0.__qualname__ = "PdistBackwardBackward0"


def pdist(input, p=2):
    """The p-norm distances between all pairs of rows of a 2-d ``input`` (see above)."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if input._array.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    # (PyTorch computes from input.contiguous(): a strided input records CloneBackward0 first)
    input = input.contiguous()
    x = input._array
    rows, columns = _pairs(x.shape[0])
    diff = np.abs(x[rows] - x[columns])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if p == 0:
            values = np.count_nonzero(diff, axis=1).astype(x.dtype)
        elif p == np.inf:
            values = diff.max(axis=1, initial=0)
        elif p == 1:
            values = diff.sum(axis=1)
        elif p == 2:
            values = np.sqrt((diff * diff).sum(axis=1))
        else:
            values = (diff ** p).sum(axis=1) ** (1.0 / p)
    out = result(np.asarray(values, dtype=x.dtype), PdistBackward0, (input,), p=float(p))
    if out._grad_fn is not None:
        out._grad_fn.save_for_backward(input, out)
    return kernel_writes("pdist", out, input)

