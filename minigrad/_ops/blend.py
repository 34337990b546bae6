"""A tensor plus a scaled product, quotient or step: addcmul, addcdiv, lerp.

* ``addcmul(x, t1, t2, value=v)`` = x + v * t1 * t2
* ``addcdiv(x, t1, t2, value=v)`` = x + v * t1 / t2 (Adam's update: param + -lr * m / (sqrt(v) + eps))
* ``lerp(start, end, weight)`` = start + weight * (end - start), the point a fraction ``weight``
  of the way from start to end (an exponential moving average: avg.lerp_(x, 1 - momentum))

Optimisers use their in-place forms (``p.addcdiv_(m, denom, value=-lr)``) on every step.
"""
import numpy as np

from .._fused_multiply_add import fma
from .._type_names import type_name
from .._dtype import checked_number, cpp_type_name, result_type
from .._tensor import Tensor, _wrap
from ..autograd.graph import Node, gets_gradient_edge
from . import result
from .pointwise import (_broadcast_error, kernel_not_implemented, laid_out_as_pytorch, mul_by_number,
                        opmath_dtype, sub)
from .views import check_history_kept


def _times_value(tensor, value):
    """tensor * value, skipped when value is 1 (PyTorch's maybe_multiply)."""
    return tensor if value == 1 else mul_by_number(tensor, value)


class _SavesValue:
    """What addcmul's and addcdiv's nodes share (each is also a Node): PyTorch shows the number
    ``value`` as ``grad_fn._saved_value``, a name Node already uses for the method that looks
    saved values up; so here each of the three is a property of its own."""

    _saved_names = ("tensor1", "tensor2")      # grad_fn._saved_tensor1, ... as in PyTorch

    @property
    def _saved_value(self):
        return self.value

    @property
    def _saved_tensor1(self):
        return Node._saved_value(self, "tensor1")

    @property
    def _saved_tensor2(self):
        return Node._saved_value(self, "tensor2")


def _three_arrays(name, input, tensor1, tensor2, value, saves=None):
    """The operands as arrays in the dtype PyTorch computes their common dtype in (float32 for
    float16), and the common dtype; they must broadcast together (PyTorch's errors if not;
    ``saves``: what recording saves, refused first if an inference tensor, see check_history_kept)."""
    if not isinstance(value, (int, float, bool, np.number)):
        raise TypeError(f"{name}(): argument 'value' must be Number, not {type_name(value)}")
    for position, (parameter, value) in enumerate((("input", input), ("tensor1", tensor1),
                                                    ("tensor2", tensor2)), start=1):
        if not isinstance(value, Tensor):
            raise TypeError(f"{name}(): argument '{parameter}' (position {position}) must be Tensor, "
                            f"not {type_name(value)}")
    dtype = result_type(input, tensor1, tensor2)
    # (float16 operands in float32: PyTorch scales by the value in float32, see opmath_dtype)
    arrays = [t._array.astype(opmath_dtype(dtype), copy=False) for t in (input, tensor1, tensor2)]
    try:
        np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        check_history_kept(input, tensor1, tensor2, saves=saves)
        try:                      # PyTorch broadcasts input with tensor1, then the two with tensor2
            first = np.broadcast_shapes(arrays[0].shape, arrays[1].shape)
        except ValueError:
            raise _broadcast_error(input, tensor1) from None
        raise _broadcast_error(np.empty(first), tensor2) from None
    return arrays, dtype


def _value_in(dtype, value):
    """``value`` as a number of ``dtype``, the type the kernel computes in, converted as PyTorch
    converts it: an integer tensor cuts a float value (0.5 -> 0), and a value the type cannot
    hold is refused (float32 and 1e39; see checked_number)."""
    return np.asarray(checked_number(value, dtype), dtype)


class AddcmulBackward0(_SavesValue, Node):
    """result = self + value * tensor1 * tensor2   ->
        grad_self = grad; grad_tensor1 = grad * tensor2 * value; grad_tensor2 = grad * tensor1 * value"""

    def backward(self, grad):
        # each factor is unpacked (and checked for in-place changes) only for the other's gradient
        t1, t2 = self.saved_tensors_for((self.should_compute_output(2), self.should_compute_output(1)))
        return (grad if self.should_compute_output(0) else None,
                grad * _times_value(t2, self.value) if self.should_compute_output(1) else None,
                grad * _times_value(t1, self.value) if self.should_compute_output(2) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t + value * (tensor1_t * tensor2 + tensor1 * tensor2_t)"""
        (_, t1, t2), (x_t, t1_t, t2_t) = inputs, tangents
        return x_t + _times_value(t1_t * t2 + t1 * t2_t, self.value)


def addcmul(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 * tensor2, elementwise (broadcasting).

    Gradient: grad to input, grad * tensor2 * value to tensor1, grad * tensor1 * value to tensor2.
    """
    (x, t1, t2), dtype = _three_arrays("addcmul", input, tensor1, tensor2, value, ((), (2,), (1,)))
    if dtype.kind == "b":
        raise kernel_not_implemented("addcmul_cpu_out", input)
    with np.errstate(over="ignore", invalid="ignore"):      # (inf and NaN silently, as in PyTorch)
        scaled = _value_in(t1.dtype, value) * t1
        if dtype.kind == "f":      # PyTorch: one fused multiply-add, (value * tensor1) * tensor2 + input
            shape = np.broadcast_shapes(x.shape, t1.shape, t2.shape)
            sums = fma(*(np.broadcast_to(a, shape) for a in (scaled, t2, x)))
        else:
            sums = x + scaled * t2
        out = laid_out_as_pytorch(np.asarray(sums, dtype), x, t1, t2)
    # (each factor is saved only for the other's gradient, as PyTorch saves it: when the other
    # gets an edge, which a view made under no_grad does not)
    saved = (tensor1 if gets_gradient_edge(tensor2) else None, tensor2 if gets_gradient_edge(tensor1) else None)
    return result(out, AddcmulBackward0, (input, tensor1, tensor2), saved=saved, value=value)


def _number_tensor(number, like):
    """``number`` as a 0-d tensor of ``like``'s dtype (PyTorch's formulas wrap a number so)."""
    return _wrap(np.asarray(number, dtype=like._array.dtype))


class AddcdivBackward0(_SavesValue, Node):
    """result = self + value * tensor1 / tensor2   ->
        grad_self = grad; grad_tensor1 = grad * value / tensor2;
        grad_tensor2 = -grad * value * tensor1 / tensor2**2"""

    def backward(self, grad):
        # tensor1 is saved (and so checked for in-place changes) only for tensor2's gradient;
        # tensor2, which both gradients read, always
        t1, t2 = self.saved_tensors_for((self.should_compute_output(2), True))
        return (grad if self.should_compute_output(0) else None,
                grad * (_number_tensor(self.value, t2) / t2) if self.should_compute_output(1) else None,
                -grad * (mul_by_number(t1, self.value) / (t2 * t2)) if self.should_compute_output(2) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t + value * (tensor1_t / tensor2 - tensor1 * tensor2_t / tensor2**2)"""
        (_, t1, t2), (x_t, t1_t, t2_t) = inputs, tangents
        return x_t + _times_value(t1_t / t2 - t1 * t2_t / (t2 * t2), self.value)


def check_addcdiv_integers(input, tensor1, tensor2, value=1):
    """Integer tensor1 and tensor2 are refused, before anything else about them (x.addcdiv_(...)
    too, before the overlap and shape checks of its loop). ``value`` plays no part here."""
    if all(isinstance(t, Tensor) and t._array.dtype.kind in "iub" for t in (tensor1, tensor2)):
        raise RuntimeError(ADDCDIV_INTEGER_MESSAGE)


ADDCDIV_INTEGER_MESSAGE = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
    "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
    "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer "
    "inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
    "behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")


def addcdiv(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 / tensor2, elementwise (broadcasting).

    Gradient: grad to input, grad * value / tensor2 to tensor1,
    -grad * value * tensor1 / tensor2**2 to tensor2.
    """
    check_addcdiv_integers(input, tensor1, tensor2)
    (x, t1, t2), dtype = _three_arrays("addcdiv", input, tensor1, tensor2, value, ((2,), (2,), (1, 2)))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.asarray(x + _value_in(t1.dtype, value) * t1 / t2, dtype)
    out = laid_out_as_pytorch(out, x, t1, t2)
    # (tensor1 is saved only for tensor2's gradient, when tensor2 gets an edge, as PyTorch saves
    # it; tensor2 always)
    saved = (tensor1 if gets_gradient_edge(tensor2) else None, tensor2)
    return result(out, AddcdivBackward0, (input, tensor1, tensor2), saved=saved, value=value)


# --- lerp -----------------------------------------------------------------------------------

class LerpBackward0(Node):
    """result = self + weight * (end - self), weight a number   ->
        grad_self = grad * (1 - weight); grad_end = grad * weight"""

    def backward(self, grad):
        return (mul_by_number(grad, 1 - self.weight) if self.should_compute_output(0) else None,
                mul_by_number(grad, self.weight) if self.should_compute_output(1) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * (1 - weight) + end_t * weight"""
        start_t, end_t = tangents
        return mul_by_number(start_t, 1 - self.weight) + mul_by_number(end_t, self.weight)


class LerpBackward1(Node):
    """result = self + weight * (end - self)   ->
        grad_self = grad * (1 - weight); grad_end = grad * weight; grad_weight = grad * (end - self)"""

    _saved_names = ("self", "end", "weight")      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        start, end, weight = self.saved_tensors
        return (grad * sub(_number_tensor(1, weight), weight) if self.should_compute_output(0) else None,
                grad * weight if self.should_compute_output(1) else None,
                grad * (end - start) if self.should_compute_output(2) else None)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * (1 - weight) + end_t * weight + weight_t * (end - self)"""
        (start, end, weight), (start_t, end_t, weight_t) = inputs, tangents
        return start_t * (1 - weight) + end_t * weight + weight_t * (end - start)


def _lerp_array(start, end, weight):
    """start + weight * (end - start), computed from the nearer end (as PyTorch does: exact
    at weight 0 and at weight 1). PyTorch multiplies and adds in one step, rounding once (a
    fused multiply-add, see ``_fused_multiply_add.py``; float16 is computed in float32, see
    ``opmath_dtype``)."""
    dtype = opmath_dtype(start.dtype)
    if dtype.itemsize <= 4:
        start, end, weight = (np.asarray(a, np.float32) for a in (start, end, weight))
    with np.errstate(over="ignore", invalid="ignore"):     # (inf - inf is nan, as in PyTorch: no warning)
        difference = end - start
        # end - difference * (1 - weight), as PyTorch computes it: (weight - 1) * difference +
        # end (the same numbers, but a NaN keeps its sign, and so does the 0 at weight 1)
        back = weight - 1                  # (in the operands' precision, as PyTorch's)

        def from_start():
            return fma(np.asarray(difference), weight, start)

        def from_end():
            return fma(np.asarray(difference), back, end)

        if np.ndim(weight) == 0:           # one weight (Adam's 1 - beta1): one end is nearer for all
            out = from_start() if abs(weight) < 0.5 else from_end()
        else:
            out = np.where(np.abs(weight) < 0.5, from_start(), from_end())
    return np.asarray(out).astype(dtype, copy=False)


def check_lerp_dtypes(input, end, weight=None, *_):
    """end, then a tensor weight with dims, must have input's dtype: PyTorch's lerp checks them
    before broadcasting the shapes (x.lerp_(end, 0.5) too, before the loop's shape check, and
    before the memory an in-place lerp_ shares with its other inputs)."""
    if end._array.dtype != input._array.dtype:      # (PyTorch names the C++ types: 'long int')
        raise RuntimeError(f"expected dtype {cpp_type_name(input.dtype)} for `end` but got dtype "
                           f"{cpp_type_name(end.dtype)}")
    if isinstance(weight, Tensor) and weight.ndim and weight._array.dtype != input._array.dtype:
        raise RuntimeError(f"expected dtype {cpp_type_name(input.dtype)} for `weight` but got dtype "
                           f"{cpp_type_name(weight.dtype)}")


def lerp(input, end, weight):
    """The point a fraction ``weight`` of the way from input to end: input + weight * (end - input).

    ``weight`` is a number or a tensor (broadcast). Gradient: grad * (1 - weight) to input,
    grad * weight to end, grad * (end - input) to a tensor weight.
    """
    if not isinstance(end, Tensor):
        raise TypeError(f"lerp(): argument 'end' (position 2) must be Tensor, not {type_name(end)}")
    check_lerp_dtypes(input, end, weight)
    dtype = input._array.dtype
    weighted = isinstance(weight, Tensor)
    if weighted:        # a 0-d weight of another dtype takes part in the type promotion (input
        dtype = result_type(input, end, weight)     # and end integers, weight a float: floats)
    arrays = (input._array, end._array) + ((weight._array,) if weighted else ())
    try:
        np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        check_history_kept(input, end)
        try:                  # PyTorch broadcasts input with end, then the two with weight
            both = np.empty(np.broadcast_shapes(input._array.shape, end._array.shape))
        except ValueError:
            raise _broadcast_error(input, end) from None
        raise _broadcast_error(both, weight) from None
    if dtype.kind != "f":     # (the kernel is picked once the shapes are known to broadcast)
        raise kernel_not_implemented("lerp_kernel_tensor" if weighted else "lerp_kernel_scalar", input)
    # (a number weight is kept in float32 for float16 tensors: see opmath_dtype)
    w = weight._array.astype(dtype, copy=False) if weighted else np.asarray(
        checked_number(weight, opmath_dtype(dtype)), opmath_dtype(dtype))     # (1e39: refused)
    start, stop = (a.astype(dtype, copy=False) for a in (input._array, end._array))
    with np.errstate(over="ignore", invalid="ignore"):      # (inf and NaN silently, as in PyTorch)
        out = laid_out_as_pytorch(np.asarray(_lerp_array(start, stop, w), dtype), *arrays)
    if weighted:
        # self and end are needed only for weight's gradient: PyTorch saves them only when
        # weight gets an edge
        ends = (input, end) if gets_gradient_edge(weight) else (None, None)
        return result(out, LerpBackward1, (input, end, weight), saved=(*ends, weight))
    return result(out, LerpBackward0, (input, end), weight=weight)
