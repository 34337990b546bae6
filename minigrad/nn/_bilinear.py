"""F.bilinear: y[n, o] = sum over i, j of x1[n, i] weight[o, i, j] x2[n, j] (+ bias[o]).

PyTorch writes it with one general operation, ``_trilinear``: three tensors, each given
size-1 dims (``expand``) so that they line up, multiplied, then summed over ``sumdim``. For
bilinear: x1 -> (N, 1, I, 1), weight -> (1, O, I, J), x2 -> (N, 1, 1, J), summed over the
last two dims. Its gradient for each input is another ``_trilinear`` of the gradient and the
other two inputs (the gradient takes the summed dims' place, the input's expanded dims are
summed instead), so second order records TrilinearBackward0 nodes too.
"""
import numpy as np

from ..autograd.graph import Node
from .._ops import result
from ..autograd.kernel_writes import kernel_writes
from .._dtype import cpp_type_name


def _lined_up(array, expand, total_dims):
    """``array`` with size-1 dims inserted at the positions ``expand`` (of ``total_dims``)."""
    shape, source = [], iter(array.shape)
    for d in range(total_dims):
        shape.append(1 if d in expand else next(source))
    return array.reshape(shape)


class TrilinearBackward0(Node):
    """result = (i1 * i2 * i3, lined up by the expand dims).sum(sumdim)   ->
        grad_i1 = _trilinear(grad, i2, i3, sumdim, expand2, expand3, expand1), and likewise"""

    _saved_names = ("i1", "i2", "i3")

    def backward(self, grad):
        i1, i2, i3 = self.saved_tensors
        e1, e2, e3, sumdim = self.expand1, self.expand2, self.expand3, self.sumdim
        grad_i1 = _trilinear(grad, i2, i3, sumdim, e2, e3, e1) if self.should_compute_output(0) else None
        grad_i2 = _trilinear(i1, grad, i3, e1, sumdim, e3, e2) if self.should_compute_output(1) else None
        grad_i3 = _trilinear(i1, i2, grad, e1, e2, sumdim, e3) if self.should_compute_output(2) else None
        return grad_i1, grad_i2, grad_i3


def _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
    """PyTorch's ``torch._trilinear``: the three inputs lined up by their expand dims,
    multiplied, and summed over ``sumdim``."""
    expand1, expand2, expand3, sumdim = (tuple(sorted(d)) for d in (expand1, expand2, expand3, sumdim))
    total = i1.dim() + len(expand1)
    # PyTorch sums every dim but the unrolled one with a batched matrix product (bmm), which
    # has no bool version; it skips the products when an input is empty
    if (i1._array.dtype == np.bool_ and any(d != unroll_dim for d in sumdim)
            and i1.numel() and i2.numel() and i3.numel()):
        raise NotImplementedError('"bmm" not implemented for \'Bool\'')
    product = (_lined_up(i1._array, expand1, total) * _lined_up(i2._array, expand2, total)
               * _lined_up(i3._array, expand3, total))
    # an integer sum keeps its dtype (numpy's would widen int32 to int64), wrapping as PyTorch's
    values = product.sum(axis=sumdim, dtype=product.dtype) if sumdim else product
    out = result(np.ascontiguousarray(values), TrilinearBackward0, (i1, i2, i3),
                 expand1=expand1, expand2=expand2, expand3=expand3, sumdim=sumdim)
    node = out._grad_fn
    if node is not None:
        # each input's gradient needs the other two: an input is saved only when one of the
        # others requires grad (its edge is set), as PyTorch saves it, so only those are
        # checked for in-place changes (all of them, whichever gradient backward is asked for)
        edge = [node.should_compute_output(k) for k in range(3)]
        node.save_for_backward(i1 if edge[1] or edge[2] else None, i2 if edge[0] or edge[2] else None,
                               i3 if edge[0] or edge[1] else None)
    return out


def bilinear(input1, input2, weight, bias=None):
    """y = x1^T A x2 + b for each output unit (see the module docstring)."""
    tensors = {"input1": input1, "input2": input2, "weight": weight}
    if bias is not None:
        tensors["bias"] = bias
    if len({t.dtype for t in tensors.values()}) > 1:
        raise RuntimeError("All tensors must have the same dtype, got " + ", ".join(
            f"{name}: {cpp_type_name(t.dtype)}" for name, t in tensors.items()))
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and "
                           f"{input2.dim()}")
    for d in range(input1.dim() - 1):
        if input1.shape[d] != input2.shape[d]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {d}: got "
                               f"{input1.shape[d]} and {input2.shape[d]}")
    for name, given, expected in (("input1", input1.shape[-1], weight.shape[1]),
                                  ("input2", input2.shape[-1], weight.shape[2])):
        if given != expected:
            raise RuntimeError(f"bilinear(): {name} size does not match weight size: got {given} "
                               f"but expected {expected}")
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[0]} "
                           f"but expected {weight.shape[0]}")
    output_size = tuple(input1.shape[:-1]) + (weight.shape[0],)
    flat1 = input1.reshape(-1, input1.shape[-1])
    flat2 = input2.reshape(-1, input2.shape[-1])
    output = kernel_writes("trilinear", _trilinear(flat1, weight, flat2, (1, 3), (0,), (1, 2), (2, 3)),
                           flat1, weight, flat2).reshape(output_size)
    if bias is not None:
        output = output + bias
    return output
