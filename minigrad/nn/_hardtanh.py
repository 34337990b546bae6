"""hardtanh, relu6 and threshold: activations that cut their input off at fixed values.

    hardtanh(x, min_val, max_val) = min(max(x, min_val), max_val)    (relu6 = hardtanh(x, 0, 6))
    threshold(x, threshold, value) = x if x > threshold, else value

As in PyTorch, an input equal to a bound is kept as it is (hardtanh(-0.0, 0, 6) is -0.0), NaN
passes through, and the gradient is 0 where the input is at or beyond a bound:
hardtanh's slope is 1 only for min_val < x < max_val, threshold's for x > threshold.
For NaN, PyTorch's hardtanh gradient depends on how its loop reached the element (see
``_in_vector_registers``): 0 where it works on a block of elements at once, grad elsewhere.
"""
import numpy as np

from ..autograd.graph import Node
from .. import _dtype
from .._ops import result
from .._ops.pointwise import (clip_keeping_input_on_ties, kernel_not_implemented, laid_out_as_pytorch,
                              opmath_bound, opmath_dtype, threshold_backward)
from .._dtype import checked_number
from .._ops.inplace import apply_inplace, memory_order
from .._tensor import Tensor, _wrap
from ..autograd.kernel_writes import kernel_writes
from ._argument_checks import NUMBER, parse_as, as_number


class HardtanhBackward0(Node):
    """result = clamp(self, min_val, max_val)   ->
        grad_self = 0 where self <= min_val or self >= max_val, else grad
        (for NaN: 0 where PyTorch's loop works in vector registers, else grad)"""

    _saved_names = ("self",)        # grad_fn._saved_self; _saved_min_val, _saved_max_val the numbers

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (hardtanh_backward(grad, x, self.min_val, self.max_val),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where min_val < self < max_val, else 0"""
        return hardtanh_backward(tangents[0], inputs[0], self.min_val, self.max_val)


# hardtanh's backward is itself an operation of PyTorch (hardtanh_backward): with
# create_graph=True the gradient records it as one node, with edges to grad and to self.
# So the gradient requires grad as soon as self does, even when grad does not.

class HardtanhBackwardBackward0(Node):
    """result = g where min_val < self < max_val, else 0 (hardtanh's backward, recorded)   ->
        grad_g = grad where min_val < self < max_val, else 0; grad_self = 0

    Linear in g, and the slopes are constant between the bounds: nothing flows to self,
    but PyTorch still hands it zeros (not None)."""

    _saved_names = ("self",)        # grad_fn._saved_self; _saved_min_val, _saved_max_val the numbers

    def backward(self, gg):
        (x,) = self.saved_tensors
        d_grad = (hardtanh_backward(gg, x, self.min_val, self.max_val)
                  if self.should_compute_output(0) else None)
        d_self = _wrap(np.zeros_like(gg._array)) if self.should_compute_output(1) else None
        return d_grad, d_self

    def jvp(self, tangents, inputs, out):
        """result_t = g_t where min_val < self < max_val, else 0 (self's tangent changes nothing)"""
        # PyTorch's rule only reads where self lies: its tangent has no edge to self
        return hardtanh_backward(tangents[0], inputs[1].detach(), self.min_val, self.max_val)


def hardtanh_backward(grad, x, min_val, max_val):
    """``grad`` with zeros where ``x`` is at or beyond a bound, recorded as one operation
    (HardtanhBackwardBackward0), as in PyTorch."""
    cut = (x._array <= opmath_bound(x._array, min_val)) | (x._array >= opmath_bound(x._array, max_val))
    if x._array.dtype.kind == "f" and np.isnan(x._array).any():
        cut = cut | (np.isnan(x._array) & _in_vector_registers(grad._array, x._array))
    grad_self = np.where(cut, grad._array.dtype.type(0), grad._array)
    grad_self = laid_out_as_pytorch(grad_self, grad._array, x._array)
    return result(grad_self, HardtanhBackwardBackward0, (grad, x), saved=(x,),
                  min_val=min_val, max_val=max_val)


def _in_vector_registers(*inputs):
    """True for the elements PyTorch's CPU loop computes in vector registers (AVX2).

    PyTorch's loop (TensorIterator) runs over the dimensions in memory order, joins the
    ones it can walk as one, and along the innermost one, when every operand is one
    element after the other (or one input repeats a single value), takes blocks of two
    vector registers: 16 float32 or 8 float64 (64 bytes). What is left at the end of a
    row goes one element at a time, with the plain C++ comparison. The two paths
    disagree on NaN (a NaN compared in a vector register counts as cut off), which is
    all this is needed for. (Rows over 32768 elements, shared between threads, are
    split in other places; not reproduced.)"""
    shape = np.broadcast_shapes(*(array.shape for array in inputs))
    itemsize = inputs[0].itemsize
    steps = [[step // itemsize for step in np.broadcast_to(array, shape).strides] for array in inputs]
    steps.insert(0, [0] * len(shape))            # the new output: laid out as the loop runs
    order = [dim for dim in memory_order(steps[1:], shape) if shape[dim] != 1]
    size = 1
    for dim in order:                             # the output is dense in the loop's order
        steps[0][dim] = size
        size *= shape[dim]
    # the innermost row: the fastest dimensions that follow one another in every operand
    row, length = [], 1
    for dim in order:
        if row and any(operand[dim] != operand[row[-1]] * shape[row[-1]] for operand in steps):
            break
        row.append(dim)
        length *= shape[dim]
    inner = [operand[row[0]] if row else 1 for operand in steps]
    contiguous = all(step == 1 for step in inner) or any(
        inner[k] == 0 and all(step == 1 for j, step in enumerate(inner) if j != k)
        for k in range(1, len(inner)))
    if not contiguous:
        return np.zeros(shape, dtype=bool)
    # each element's place along its row, in the original layout
    place = np.zeros(shape, dtype=np.int64)
    span = 1
    for dim in row:
        index_shape = [1] * len(shape)
        index_shape[dim] = shape[dim]
        place = place + np.arange(shape[dim]).reshape(index_shape) * span
        span *= shape[dim]
    block = 64 // itemsize
    return place < length // block * block


class ThresholdBackward0(Node):
    """result = self where self > threshold, else value   ->
        grad_self = 0 where self <= threshold, else grad

    Its gradient is relu's, with another threshold: ``threshold_backward``, which with
    create_graph=True records ThresholdBackwardBackward0 (see _ops/pointwise.py)."""

    _saved_names = ("self",)        # grad_fn._saved_self; _saved_threshold the number

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (threshold_backward(grad, x, self.threshold),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where self > threshold, else 0"""
        return threshold_backward(tangents[0], inputs[0], self.threshold)


class ThresholdBackward1(ThresholdBackward0):
    """result = threshold(self, threshold, value, inplace=True), PyTorch's in-place node   ->
        grad_self = 0 where self <= threshold, else grad"""


def _hardtanh(input, min_val, max_val):
    x = input._array
    if x.dtype.kind == "b":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    low, high = min_val, max_val
    if x.dtype.kind in "iu":
        # PyTorch reads an integer tensor's bounds as int64 first (NaN is refused for int64_t),
        # then refuses negative ones for uint8, then converts them to x's dtype (in clip)
        low, high = (int(checked_number(bound, np.int64)) for bound in (min_val, max_val))
        if x.dtype.kind == "u" and (low < 0 or high < 0):
            raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    out = clip_keeping_input_on_ties(x, low, high).astype(x.dtype, copy=False)
    return result(out, HardtanhBackward0, (input,), saved=(input,), min_val=min_val, max_val=max_val)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x cut off to [min_val, max_val]. Gradient: grad strictly inside, else 0."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    for bound in (min_val, max_val):           # (read as C++ 64-bit ints: 2**64 is refused)
        _dtype.check_python_int(bound)
    return _hardtanh_call(input, min_val, max_val, inplace)


def _hardtanh_call(input, min_val, max_val, inplace):
    """hardtanh after F.hardtanh's own check of the bounds, which PyTorch's F.hardtanh_ (a C++
    function) does not make: F.hardtanh_(x, 2., -1.) sets every element to -1."""
    if not (isinstance(input, Tensor) and isinstance(min_val, NUMBER) and isinstance(max_val, NUMBER)):
        parse_as("hardtanh_" if inplace else "hardtanh", input, min_val, max_val)  # (PyTorch's C++ function)
        min_val, max_val = as_number(min_val), as_number(max_val)
    if inplace:
        return apply_inplace(input, lambda t: _hardtanh(t, min_val, max_val))
    return kernel_writes("hardtanh", _hardtanh(input, min_val, max_val), input)


def hardtanh_(input, min_val=-1, max_val=1):
    """hardtanh in place: ``hardtanh(input, min_val, max_val, inplace=True)``.

    (PyTorch's defaults here are the whole numbers -1 and 1, which the node shows as such.)"""
    return _hardtanh_call(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    """min(max(x, 0), 6): hardtanh(x, 0, 6), recorded as HardtanhBackward0 (as in PyTorch)."""
    return hardtanh(input, 0, 6, inplace=inplace)


def _threshold(input, threshold, value, node_class):
    x = input._array
    if x.dtype.kind == "b":
        raise kernel_not_implemented("threshold_cpu", input)
    # PyTorch's kernel converts the threshold to the type it compares in (float32 for float16)
    # and the value to x's dtype, refusing a number that type cannot hold (see checked_number);
    # its rule is "x <= threshold ? value : x", so a NaN x, or a NaN threshold, keeps x
    bound = checked_number(threshold, opmath_dtype(x.dtype))
    fill = checked_number(value, x.dtype)
    out = np.where(x <= bound, fill, x).astype(x.dtype, copy=False)
    return result(out, node_class, (input,), saved=(input,), threshold=threshold)


def threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else value. Gradient: grad where x > threshold, else 0."""
    for number in (threshold, value):          # (read as C++ 64-bit ints: 2**64 is refused)
        _dtype.check_python_int(number)
    if inplace:
        # PyTorch's threshold_ kernel is the one in-place activation that skips the check for
        # memory seen twice: an expanded tensor is written (each copy gets the same new value)
        return apply_inplace(input, lambda t: _threshold(t, threshold, value, ThresholdBackward1),
                             overlap_ok=True)
    return _threshold(input, threshold, value, ThresholdBackward0)
