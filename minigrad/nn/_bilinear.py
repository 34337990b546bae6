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


def _sum_of_products(left, right, sum_dims):
    """PyTorch's ``sumproduct_pair``: ``left * right`` summed over ``sum_dims`` (kept, size 1).
    A dim that only one side spans is summed on that side first; the dims both span are then
    contracted by a matrix product, whose result is rounded once (float16 adds in float32)."""
    if not sum_dims:
        return left * right
    dtype = left.dtype
    both = tuple(d for d in sum_dims if left.shape[d] != 1 and right.shape[d] != 1)
    for d in sum_dims:
        if left.shape[d] != 1 and right.shape[d] == 1:
            left = _in_opmath(left).sum(axis=d, keepdims=True).astype(dtype, copy=False)
        elif right.shape[d] != 1 and left.shape[d] == 1:
            right = _in_opmath(right).sum(axis=d, keepdims=True).astype(dtype, copy=False)
    product = _in_opmath(left) * _in_opmath(right)
    return product.sum(axis=both, keepdims=True, dtype=product.dtype).astype(dtype, copy=False)


def _in_opmath(array):
    """float16 in float32, as PyTorch's matrix products and sums add it (other dtypes as they are)."""
    return array.astype(np.float32) if array.dtype == np.float16 else array


def _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
    """PyTorch's ``torch._trilinear``: the three inputs lined up by their expand dims,
    multiplied, and summed over ``sumdim``, in PyTorch's steps (so that the sums round alike):
    for each index k of ``unroll_dim``, i1 * i2 summed over the sum dims that i3 lacks, then
    that times i3 summed over the rest, added into a result of zeros."""
    expand1, expand2, expand3, sumdim = (tuple(sorted(d)) for d in (expand1, expand2, expand3, sumdim))
    total = i1.dim() + len(expand1)
    # PyTorch sums every dim but the unrolled one with a batched matrix product (bmm), which
    # has no bool version; it skips the products when an input is empty
    empty = not (i1.numel() and i2.numel() and i3.numel())
    if i1._array.dtype == np.bool_ and any(d != unroll_dim for d in sumdim) and not empty:
        raise NotImplementedError('"bmm" not implemented for \'Bool\'')
    a1, a2, a3 = (_lined_up(t._array, e, total) for t, e in ((i1, expand1), (i2, expand2), (i3, expand3)))
    sizes = np.broadcast_shapes(a1.shape, a2.shape, a3.shape)
    kept_shape = tuple(size for d, size in enumerate(sizes) if d not in sumdim)
    dims_12 = tuple(d for d in sumdim if d != unroll_dim and d in expand3)
    dims_23 = tuple(d for d in sumdim if d != unroll_dim and d not in expand3)
    if empty:
        values = np.zeros(kept_shape, dtype=a1.dtype)
    elif unroll_dim not in sumdim:
        # the slices k fill separate parts of the result: all of them at once (adding them to
        # zeros turns -0.0 into 0.0, as there)
        values = _sum_of_products(_sum_of_products(a1, a2, dims_12), a3, dims_23)
        values = (values + np.zeros((), dtype=values.dtype)).reshape(kept_shape)
    else:
        # every slice k is added into the same result, one after another, each sum rounded
        values = np.zeros([1 if d in sumdim else size for d, size in enumerate(sizes)], dtype=a1.dtype)
        for k in range(sizes[unroll_dim]):
            s1, s2, s3 = (np.take(a, [k if a.shape[unroll_dim] != 1 else 0], axis=unroll_dim)
                          for a in (a1, a2, a3))
            values = values + _sum_of_products(_sum_of_products(s1, s2, dims_12), s3, dims_23)
        values = values.reshape(kept_shape)
    out = result(values, TrilinearBackward0, (i1, i2, i3),
                 expand1=expand1, expand2=expand2, expand3=expand3, sumdim=sumdim)
    kernel_writes("trilinear", out, i1, i2, i3, sumdim=sumdim, slices=0 if empty else sizes[unroll_dim])
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
    output = _trilinear(flat1, weight, flat2, (1, 3), (0,), (1, 2), (2, 3)).reshape(output_size)
    if bias is not None:
        output = output + bias
    return output
