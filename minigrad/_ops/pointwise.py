"""Elementwise operations: arithmetic, exp/log, activations, clamp, comparisons.

Each backward gets ``grad`` = d(loss)/d(output) and applies the chain rule:
d(loss)/d(input) = grad * d(output)/d(input). Shapes may still be broadcast;
the engine sums them back to each input's shape.
"""
import builtins

import numpy as np

from .._fused_multiply_add import fma as _fma
from .._type_names import type_name
from .._warnings import quietly, run_quietly
from .._dtype import result_type, cpp_name, wrapped_to, checked_number
from .. import _dtype
from .._memory_format import (channels_last, empty_with_steps_of, is_in_format, row_major,
                              with_pytorch_steps, is_non_overlapping_and_dense)
from .._tensor import Tensor, _wrap
from .._zero_tensor import as_zero_tensor as _as_zero_tensor, zero_tensors_exist
from .. import _zero_tensor
from ..autograd.graph import Node, FREED, _PLAIN_PAIR, _SETTINGS_KEPT_AS, show_saved_names
from ..autograd.grad_mode import _State
from ..autograd.forward_ad import _DualLevel
from ..autograd.function import _FuncTransforms
from . import result, save_result, as_tensor, plain_output, _ndarray, _np_add, _np_multiply
from .. import _c_library_expf, _sleef_double_pairs, _sleef_float_pairs, _sleef_mathfun, _sleef_pow, _vectorized_loop
from .views import SAVES_BOTH, SAVES_OTHER, check_history_kept
from .._python_arg_parser import invalid_combination
from ..autograd.kernel_writes import kernel_writes

_PYTHON_NUMBERS = (int, float, bool)
_INT64 = np.dtype(np.int64)


def _operand_arrays(a, b):
    """numpy operands and the dtype PyTorch would give ``a op b``."""
    a_arr = a._array if isinstance(a, Tensor) else a
    if isinstance(b, Tensor):
        b_arr = b._array
        if isinstance(a, Tensor) and a_arr.dtype is b_arr.dtype:
            return a_arr, b_arr, a_arr.dtype              # the common case, kept fast
    elif type(b) is float and isinstance(a, Tensor) and a_arr.dtype.kind == "f":
        number, dtype, b_arr = _last_number              # float tensor op Python float
        if b is not number or a_arr.dtype is not dtype:
            b_arr = _remember_number(b, a_arr.dtype)
        return a_arr, b_arr, a_arr.dtype
    elif isinstance(b, np.ndarray):
        # PyTorch turns a numpy array next to a tensor into a tensor (keeping its dtype)
        b = _wrap(b)
        b_arr = b._array
    else:
        b_arr = b
        if not isinstance(b, _PYTHON_NUMBERS) and not isinstance(b, np.generic):
            raise TypeError(f"unsupported operand type for a tensor operation: '{type(b).__name__}'")
    dtype = result_type(a, b)
    if dtype.kind == "f":
        # PyTorch converts each operand to the result's dtype before computing (an int32 tensor
        # minus a float32 one: both float32), where numpy would compute int32 - float32 in float64
        a_arr, b_arr = _converted(a_arr, dtype), _converted(b_arr, dtype)
    elif dtype.kind in "iu":                     # (int32 tensor + 2**32: PyTorch's C++ cast)
        if type(b_arr) is int:
            b_arr = wrapped_to(b_arr, dtype)
        if type(a_arr) is int:                   # (2**63 - x)
            a_arr = wrapped_to(a_arr, dtype)
        # PyTorch converts a wider 0-d tensor to the result's type first (int8 tensor and
        # tensor(1000): 1000 wraps to -24), where numpy would compute in the wider type
        a_arr, b_arr = _converted(a_arr, dtype), _converted(b_arr, dtype)
    return a_arr, b_arr, dtype


def _converted(operand, dtype):
    """An operand of a float or integer operation in the result's ``dtype`` (numbers of a float
    operand's dtype stay numbers: numpy already computes them in that dtype)."""
    if isinstance(operand, (np.ndarray, np.generic)):
        return operand if operand.dtype == dtype else operand.astype(dtype)
    if isinstance(operand, (int, float)) and not isinstance(operand, bool):
        with np.errstate(over="ignore"):
            return np.asarray(operand, dtype=dtype)
    return operand


# numpy spends a third of a one-element ``x * 1.0001`` turning the Python float into
# x's dtype; the same number comes back at every step of a loop (and in backward),
# so the last one is kept converted. (numpy gives the same result either way.)
_last_number = (None, None, None)


def _remember_number(number, dtype):
    """``number`` as a 0-d array of ``dtype``, kept for the next operation with it."""
    global _last_number
    with np.errstate(over="ignore"):
        array = np.asarray(number, dtype=dtype)
    if not np.isfinite(array) and np.isfinite(number):
        # too large for dtype: inf, as PyTorch rounds it too (float16 + 1e5); not kept, as
        # float16's multiplication keeps the same number in float32 (see opmath_number)
        return array
    array.flags.writeable = False      # shared: nothing may change it
    _last_number = (number, dtype, array)
    return array


# --- float16 with a number --------------------------------------------------------------
# PyTorch computes reduced-precision tensors with a number in float32, rounding once at the end:
# its CPU kernels multiply or divide a float16 tensor by a number (a Python number, or a 0-d
# tensor as the second operand) in float32, their "opmath" type, and so do the kernels that
# scale by a number (addcmul, addcdiv, lerp, leaky_relu, softplus, rrelu); numpy would round
# the number to float16 first, which moves the last bit of many results (x * 0.7, dropout's
# scale). PyTorch's +, -, add's alpha, pow, fmod and remainder do round the number to float16.
# (PyTorch's bfloat16 follows the same rule; minigrad has no bfloat16.)

_FLOAT16 = np.dtype(np.float16)
_FLOAT32 = np.dtype(np.float32)


def opmath_dtype(dtype):
    """The dtype PyTorch's kernels compute a ``dtype`` result in: float32 for float16, else ``dtype``."""
    return _FLOAT32 if dtype is _FLOAT16 else dtype


def opmath_number(input, other):
    """``other`` as a float32 number when PyTorch multiplies or divides the float16 tensor
    ``input`` by it in float32 (other a real number, or a 0-d tensor whose result is float16);
    None otherwise. Callers check first that ``input`` is float16 (no cost for other dtypes)."""
    if isinstance(other, Tensor):
        value = other._array
        if value.ndim or value.dtype.kind not in "fiu" or result_type(input, other) is not _FLOAT16:
            return None
    elif type(other) in (float, int) or isinstance(other, (np.floating, np.integer)):
        value = other
    else:
        return None
    with np.errstate(over="ignore"):
        return np.float32(value)


def opmath_bound(array, number):
    """``number`` as PyTorch's kernels compare ``array`` with it (threshold's and hardtanh's
    bounds): a float32 number for a float16 array (see the note above), else the number itself."""
    return np.float32(number) if array.dtype is _FLOAT16 else number


def times_number(array, number):
    """numpy: ``array * number`` in array's dtype, as PyTorch's kernels scale by a number
    (leaky_relu's slope): float16 in float32, rounded once (see the note above). A number the
    computing type cannot hold is refused (1e39 for float32, see checked_number); products
    past the largest float16 are inf, silently, as in PyTorch."""
    factor = checked_number(number, opmath_dtype(array.dtype))
    with np.errstate(over="ignore", invalid="ignore"):
        return (array * factor).astype(array.dtype, copy=False)


def in_opmath(ufunc, input, other, saves=None):
    """``ufunc(input, other)`` as ``_binary`` computes it, but for a float16 tensor ``input`` and
    a number ``other`` as PyTorch's multiplication and division (and rounding divisions) compute
    it: in float32, rounded to float16 once (see the note above)."""
    if isinstance(input, Tensor) and input._array.dtype is _FLOAT16:
        number = opmath_number(input, other)
        if number is not None:
            with np.errstate(over="ignore", invalid="ignore"):   # (x * 1e5: inf, silently, as PyTorch's)
                return _binary(lambda a, _: ufunc(a, number), input, other, saves)
    return _binary(ufunc, input, other, saves)


def check_broadcasts_into(input, other):
    """``other`` must broadcast into ``input``'s shape, as for ``input.mul_(other)``: PyTorch's
    errors when they do not broadcast, or when the result would be larger than ``input``."""
    try:
        shape = np.broadcast_shapes(input.shape, other.shape)
    except ValueError:
        raise _broadcast_error(input, other) from None
    if shape != tuple(input.shape):
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape "
                           f"{list(shape)}")


def _broadcast_error(a, b):
    shape_a = list(np.shape(getattr(a, "_array", a)))
    shape_b = list(np.shape(getattr(b, "_array", b)))
    # find the first dimension (from the right) where the sizes clash
    for offset in range(1, builtins.min(len(shape_a), len(shape_b)) + 1):
        size_a, size_b = shape_a[-offset], shape_b[-offset]
        if size_a != size_b and size_a != 1 and size_b != 1:
            dim = builtins.max(len(shape_a), len(shape_b)) - offset
            return RuntimeError(
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at "
                f"non-singleton dimension {dim}"
            )
    return RuntimeError(f"shapes {shape_a} and {shape_b} cannot be broadcast together")


def _binary(ufunc, a, b, saves=None):
    """ufunc(a, b) in PyTorch's result dtype and layout; ``saves``: what the recorded
    operation saves for backward (see check_history_kept), reported before a shape error."""
    # the two usual cases are read here, without the call to _operand_arrays (every
    # operation of a graph of tiny tensors pays for each Python call)
    a_arr = a._array if isinstance(a, Tensor) else None
    dtype = a_arr.dtype if a_arr is not None else None   # (asked of numpy once: each ask costs)
    # (the float first: isinstance() of a number costs more than the rest of this test)
    if dtype is not None and b is _last_number[0] and dtype is _last_number[1]:
        b_arr = _last_number[2]                         # a float tensor and the float used last
    elif dtype is not None and isinstance(b, Tensor) and b._array.dtype is dtype:
        b_arr = b._array                                # two tensors of one dtype
    else:
        a_arr, b_arr, dtype = _operand_arrays(a, b)
    try:
        # (0 * inf is nan, 1e30 * 1e30 in float32 inf: silently, as in PyTorch)
        try:
            out = run_quietly(ufunc, a_arr, b_arr)      # (quietly without its call: every op comes here)
        except RuntimeError:
            out = quietly(ufunc, a_arr, b_arr)          # (its context in use elsewhere: quietly's way)
    except ValueError:
        check_history_kept(a, b, saves=saves)     # PyTorch records the operation before it computes
        raise _broadcast_error(a, b) from None
    if out.dtype is not dtype and out.dtype != dtype:
        out = out.astype(dtype)
    elif type(out) is not _ndarray:         # numpy returns scalars for 0-d inputs
        out = np.asarray(out)
    if out.ndim > 1 and not (out.size and
            getattr(a_arr, "flags", out.flags).c_contiguous and getattr(b_arr, "flags", out.flags).c_contiguous
            and (1 not in out.shape or np.shape(a_arr) == np.shape(b_arr))):
        if not out.size:
            a_arr, b_arr = pytorch_steps_of(a, a_arr), pytorch_steps_of(b, b_arr)
        out = laid_out_as_pytorch(out, a_arr, b_arr)       # (rare: inputs in different layouts)
    return out


def pytorch_steps_of(value, array):
    """``array``, the numpy side of ``value``, stepping as ``value.stride()`` reports when
    ``value`` is a tensor (an empty array's steps of 0 may stand for row-major steps; see
    ``_memory_format.with_pytorch_steps``); for a new result without elements, laid out by them."""
    return with_pytorch_steps(value) if isinstance(value, Tensor) and not array.size else array


def like_its_input(out, array):
    """The result ``out`` of a one-input operation on ``array``, laid out as PyTorch lays it out
    (numpy may step differently over size-1 dimensions of an input that is not row-major)."""
    if out.ndim > 1 and not (out.size and array.flags.c_contiguous):
        return laid_out_as_pytorch(out, array)
    return out


def laid_out_as_pytorch(out, *inputs):
    """``out`` (a new result of one element per position) in the layout PyTorch gives it.

    PyTorch's TensorIterator lays out a new result in the order of dimensions its loops
    run in (``inplace.memory_order``): that of the first input that tells two dimensions
    apart, so ``x.t() + y`` comes out laid out as ``x.t()``. numpy picks another layout
    when its inputs disagree; the values are the same, only ``stride()`` differs. (When
    all inputs have the result's shape and the same steps, without gaps, PyTorch takes
    those steps as they are, even the meaningless ones of size-1 dimensions.)"""
    if out.ndim < 2:
        return out
    if out.size == 0:
        # PyTorch calls a tensor without elements contiguous, so inputs of the result's shape
        # give a row-major result; with a number among them, the general rule below decides
        if all(np.shape(array) == out.shape for array in inputs):
            return np.empty(out.shape, out.dtype)
    elif all(getattr(array, "flags", out.flags).c_contiguous for array in inputs) and (
            1 not in out.shape or all(np.shape(array) == out.shape for array in inputs)):
        # (the usual case: numpy and PyTorch agree. Not always with a size-1 dim and an input
        # broadcast, a number say: PyTorch then orders the dims by their steps, the meaningless
        # steps of size-1 dims too, where row-major inputs alone would give a row-major result)
        return out
    if out.ndim == 4 and all(np.shape(array) == out.shape and is_in_format(array, channels_last)
                             for array in inputs):
        # PyTorch's next shortcut: inputs all laid out channels-last (size-1 dimensions aside)
        # give a channels-last result, with the steps channels-last has for size-1 dimensions too
        n, c, h, w = (builtins.max(size, 1) for size in out.shape)
        steps = tuple(step * out.itemsize for step in (h * w * c, 1, w * c, c))
        if out.strides == steps:
            return out
        laid_out = np.lib.stride_tricks.as_strided(np.empty(out.size, out.dtype), out.shape, steps)
        laid_out[...] = out
        return laid_out
    if out.flags.c_contiguous and not any(np.ndim(array) and any(array.strides) for array in inputs):
        # (every input is one number, or one number broadcast, as a sum's gradient is: no input
        # tells two dimensions apart, so PyTorch keeps the row-major order numpy gave)
        return out
    from .inplace import memory_order       # (inplace.py builds on this file)
    # each input's steps as PyTorch's loop sees them: 0 where broadcast (a size-1
    # dimension that is not broadcast keeps its step, which numpy's broadcast_to would drop)
    steps = [(0,) * (out.ndim - array.ndim) + tuple(
        0 if size == 1 and out_size != 1 else step
        for step, size, out_size in zip(array.strides, array.shape, out.shape[out.ndim - array.ndim:]))
        for array in inputs if np.ndim(array)]
    if len(steps) == len(inputs) and all(np.shape(array) == out.shape and array.strides == steps[0]
                                         for array in inputs) and is_non_overlapping_and_dense(inputs[0]):
        laid_out = empty_with_steps_of(inputs[0], out.dtype)
    elif out.size == 0:
        laid_out = _empty_in_order(memory_order(steps, out.shape), out)
    else:
        slowest_first = memory_order(steps, out.shape)[::-1]
        laid_out = np.empty(tuple(out.shape[dim] for dim in slowest_first), out.dtype).transpose(
            np.argsort(slowest_first))
    if laid_out.strides == out.strides:
        return out                          # numpy made it so already
    laid_out[...] = out
    return laid_out


def _empty_in_order(fastest_first, out):
    """A new result without elements, as PyTorch lays it out with its dimensions in the order
    ``fastest_first``: row-major if that is their usual order; else each dimension steps over
    the sizes of the faster ones, a size 0 included (so the dimensions after it step by 0)."""
    if fastest_first == list(reversed(range(out.ndim))):
        return np.empty(out.shape, out.dtype)
    steps, step = [0] * out.ndim, out.itemsize
    for dim in fastest_first:
        steps[dim] = step
        step *= out.shape[dim]
    return np.lib.stride_tricks.as_strided(np.empty(0, out.dtype), out.shape, steps)


# --- + and - ----------------------------------------------------------------------------

class AddBackward0(Node):
    """result = self + alpha * other   ->   grad_self = grad; grad_other = alpha * grad"""

    alpha = 1

    def backward(self, grad):
        grad_b = None
        if self._next_node_1 is not None:        # (should_compute_output(1), without the call)
            # (times a number: MulBackward1 when create_graph=True records it, as PyTorch's)
            grad_b = grad if self.alpha == 1 else mul_by_number(grad, self.alpha)
        return grad, grad_b

    def jvp(self, tangents, inputs, out):
        """result_t = self_t + alpha * other_t"""
        a_t, b_t = tangents
        return a_t if b_t is None else a_t + (b_t if self.alpha == 1 else b_t * self.alpha)


class SubBackward0(Node):
    """result = self - alpha * other   ->   grad_self = grad; grad_other = -alpha * grad"""

    alpha = 1

    def backward(self, grad):
        grad_b = None
        if self.should_compute_output(1):
            # (negated, then times a number: NegBackward0 and MulBackward1 when recorded)
            grad_b = -grad if self.alpha == 1 else mul_by_number(-grad, self.alpha)
        return grad, grad_b

    def jvp(self, tangents, inputs, out):
        """result_t = self_t - alpha * other_t"""
        a_t, b_t = tangents
        return a_t if b_t is None else a_t - (b_t if self.alpha == 1 else b_t * self.alpha)


def alpha_number(name, alpha):
    """``alpha`` as a Python number, with PyTorch's TypeError for anything else (a 0-d tensor
    counts as the number it holds)."""
    if isinstance(alpha, Tensor) and alpha._array.ndim == 0:
        alpha = alpha._array.item()
    if not isinstance(alpha, (int, float, complex, np.number, np.bool_)):
        raise TypeError(f"{name}(): argument 'alpha' must be Number, not {type_name(alpha)}")
    return alpha


def subtracted_alpha(alpha):
    """sub's alpha as PyTorch applies it: sub adds -alpha times the other operand, an int negated
    as a C++ 64-bit int (-(2**64 - 1) is 1, -(-2**63) is -2**63); the alpha that subtracting
    gives the same."""
    if type(alpha) is int and not -2**63 < alpha < 2**63:
        _dtype.check_python_int(alpha)
        return -wrapped_to(-alpha, _INT64)
    return alpha


def check_alpha(dtype, alpha, subtract=False):
    """PyTorch's checks of add's and sub's ``alpha`` against the result's ``dtype``: a float
    alpha would be cut to an integer in an integer sum, so PyTorch refuses it, even 1.0; a
    bool alpha only makes sense when adding bools; and the dtype must hold it (``subtract``:
    sub and rsub add ``-alpha`` times the other, so that is the number converted)."""
    if dtype.kind in "biu" and isinstance(alpha, (float, complex, np.inexact)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point "
                           "number.")
    if isinstance(alpha, (complex, np.complexfloating)):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")
    if isinstance(alpha, bool) and dtype.kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if type(alpha) in (int, float):               # (PyTorch's checked conversion to the dtype)
        if subtract:     # (an int negated as a C++ 64-bit int: -(2**64 - 1) is 1)
            alpha = -alpha if type(alpha) is float else wrapped_to(-alpha, _INT64)
        _dtype.checked_scalar(alpha, dtype)


def times_alpha(other, alpha, dtype):
    """``alpha * other`` computed in the result's ``dtype``, as PyTorch's kernels do: alpha is
    first made a number of that dtype (-1 is 255 in uint8, 2 is True in bool), so a long
    tensor times 0.5 does not make a float32 sum float64 and nothing overflows on the way."""
    factor = np.asarray(alpha).astype(dtype)
    if isinstance(other, Tensor):
        return _wrap(other._array.astype(dtype, copy=False) * factor)
    if isinstance(other, np.ndarray):
        return other.astype(dtype, copy=False) * factor
    return other * alpha                    # a number: it stays a Python number


def _with_alpha(ufunc, node_class, input, other, alpha):
    """input ± alpha * other for alpha other than the int 1; the node keeps alpha for its backward."""
    alpha = alpha_number("add" if ufunc is np.add else "sub", alpha)
    check_alpha(result_type(input, other), alpha, subtract=ufunc is np.subtract)
    fused = _fused_with_alpha(input, other, alpha, subtract=ufunc is np.subtract)
    if fused is not None:
        return result(fused, node_class, (input, other), alpha=alpha)
    try:
        out = _binary(ufunc, input, times_alpha(other, alpha, result_type(input, other)))
    except RuntimeError:
        check_history_kept(input, other)      # (other's own history, not the scaled copy's)
        raise
    return result(out, node_class, (input, other), alpha=alpha)


def _fused_with_alpha(input, other, alpha, subtract=False):
    """input + alpha * other as PyTorch's CPU computes it for a float32 or float64 result: one
    fused multiply-add per number, rounded once (so ``a + 0.3 * b`` may differ in the last bit
    from rounding ``0.3 * b`` first), in its vector loop and its scalar tail alike; a number
    ``other`` (or a tensor of one element) is first made a number of the result's dtype, and
    part of the scalar tail then rounds twice (``rounded_twice_with_a_number``). None for the
    other cases (other dtypes, empty results, shapes that do not broadcast): the usual path.
    ``subtract``: input - alpha * other (alpha negated in the result's dtype, where it is exact)."""
    if isinstance(alpha, complex):
        return None                       # (refused or cast by the usual path, with its messages)
    if isinstance(other, Tensor):
        b = other._array
    elif type(other) in (int, float):
        b = other
    else:
        return None
    dtype = result_type(input, other)
    if dtype.type is not np.float32 and dtype.type is not np.float64 and dtype is not _FLOAT16:
        return None
    with np.errstate(over="ignore"):      # (a number past float16 is inf there, as in PyTorch)
        a, b = input._array.astype(dtype, copy=False), np.asarray(b).astype(dtype, copy=False)
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return None
    if 0 in shape:
        return None
    if dtype is _FLOAT16:
        out = _float16_with_alpha(a, b, -alpha if subtract else alpha)
        if out.ndim > 1 and not (a.flags.c_contiguous and b.flags.c_contiguous and a.shape == b.shape):
            out = laid_out_as_pytorch(out, a, b)
        return out
    factor = np.asarray(alpha, dtype)                  # (one number: broadcast by _fma)
    if subtract:
        factor = -factor
    with np.errstate(over="ignore", invalid="ignore"):    # (alpha=inf times 0 is NaN, silently)
        out = _fma(np.broadcast_to(b, shape), factor, np.broadcast_to(a, shape))
    if a.shape == shape and a.flags.c_contiguous:
        # PyTorch's inner loop runs over the last dimensions along which other is one number
        # (all of them: other is one number); in its tail, some numbers are rounded twice
        steps = (1,) * (len(shape) - b.ndim) + b.shape
        inner = len(shape)
        while inner and steps[inner - 1] == 1:
            inner -= 1
        row = int(np.prod(shape[inner:]))
        if row == out.size or (row > 1 and out.size <= _vectorized_loop.GRAIN_SIZE):
            twice = _vectorized_loop.rounded_twice_with_a_number(row, 32 // dtype.itemsize)
            with np.errstate(over="ignore", invalid="ignore"):
                separate = a + b * factor[()]      # (32 bytes: one AVX2 vector)
            out = np.where(twice, separate.reshape(-1, row), out.reshape(-1, row)).reshape(shape)
    if out.ndim > 1 and not (a.flags.c_contiguous and b.flags.c_contiguous and a.shape == b.shape):
        out = laid_out_as_pytorch(out, a, b)       # (the layout _binary would give)
    return out


def _float16_with_alpha(a, b, alpha):
    """a + alpha * b for float16 arrays as PyTorch's kernel computes it. Unlike a scaling by a
    number (see opmath_dtype), add's alpha is first rounded to float16; whole vectors (16
    numbers) then take a fused multiply-add in float32, where the product is exact, rounded
    to float16 once; the numbers left over take float16 steps, rounded twice."""
    alpha = np.float16(alpha)

    def vectorized(a, b):
        return (a.astype(np.float32) + b.astype(np.float32) * np.float32(alpha)).astype(_FLOAT16)

    def scalar(a, b):
        return a + b * alpha
    with np.errstate(over="ignore", invalid="ignore"):
        return _vectorized_loop.elementwise_pair(a, b, vectorized, scalar, lanes=16)


def add(input, other, alpha=1):
    """input + alpha * other

    Gradient: grad_input = grad; grad_other = alpha * grad (each summed back to its shape where
    it was broadcast).
    """
    if zero_tensors_exist and _zero_tensor.either_is_zero_tensor(input, other):
        return _sum_with_zero_tensors(np.add, AddBackward0, input, other, alpha)
    if type(alpha) is not int or alpha != 1:     # (alpha=1.0 is checked: integers refuse it)
        return _with_alpha(np.add, AddBackward0, input, other, alpha)
    return result(_binary(_np_add, input, other), AddBackward0, (input, other))


def sub(input, other, alpha=1):
    """input - alpha * other

    Gradient: grad_input = grad; grad_other = -alpha * grad.
    """
    if type(alpha) is not int or alpha != 1:
        alpha = subtracted_alpha(alpha_number("sub", alpha))       # (a wrong alpha is reported first)
    if input._array.dtype.kind == "b" or is_bool(other):
        raise bool_subtraction_error(input, other)
    if zero_tensors_exist and _zero_tensor.either_is_zero_tensor(input, other):
        return _sum_with_zero_tensors(np.subtract, SubBackward0, input, other, alpha)
    if type(alpha) is not int or alpha != 1:
        return _with_alpha(np.subtract, SubBackward0, input, other, alpha)
    return result(_binary(np.subtract, input, other), SubBackward0, (input, other))


def _sum_with_zero_tensors(ufunc, node_class, input, other, alpha):
    """``input ± alpha * other`` with a ZeroTensor among them (see _zero_tensor.py), recorded as
    the ordinary sum or difference is. Of two, PyTorch's is a ZeroTensor again; with one, its
    kernels give the other operand itself (``z - y``: ``-alpha * y``) without adding 0, so its
    zeros keep their sign (``z - 0`` is -0.0, where 0.0 - 0 is 0.0)."""
    if type(alpha) is not int or alpha != 1:
        out = _with_alpha(ufunc, node_class, input, other, alpha)
    else:
        out = result(_binary(ufunc, input, other), node_class, (input, other))
    if _zero_tensor.is_zero_tensor(input) and _zero_tensor.is_zero_tensor(other):
        return _zero_tensor.made_zero(out)
    dtype = out._array.dtype
    if _zero_tensor.is_zero_tensor(input):
        values = np.asarray(other._array if isinstance(other, Tensor) else other).astype(dtype)
        if alpha != 1:
            values = values * np.asarray(alpha).astype(dtype)
        if ufunc is np.subtract:
            values = np.negative(values)
    else:
        values = input._array.astype(dtype)
    out._array = np.broadcast_to(values, out._array.shape).copy()
    return out


def is_bool(value):
    """A bool tensor or a Python bool (PyTorch makes the latter a bool tensor)."""
    return value.__class__ is bool or (isinstance(value, Tensor) and value._array.dtype.kind == "b")


def bool_subtraction_error(input, other):
    """PyTorch refuses ``-`` with bools: True - False is no number a mask should become (after
    its parser refused an int past 64 bits: raised here)."""
    for value in (input, other):
        _dtype.check_python_int(value)
    from .views import check_history_kept      # (views.py builds on this file)
    check_history_kept(*(v for v in (input, other) if isinstance(v, Tensor)))   # (a lost history first)
    if is_bool(input) and is_bool(other):
        return RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                            "Use the `^` or `logical_xor()` operator instead.")
    return RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you "
                        "are trying to invert a mask, use the `~` or `logical_not()` operator instead.")


class RsubBackward0(Node):
    """result = other - alpha * self   ->   grad_self = -grad * alpha; grad_other = grad"""

    alpha = 1                 # (set on the node when another alpha is given)

    def backward(self, grad):
        return _times_minus_alpha(grad, self.alpha), grad if self.should_compute_output(1) else None

    def jvp(self, tangents, inputs, out):
        """result_t = other_t - alpha * self_t"""
        self_t, other_t = tangents
        term = -self_t if self.alpha == 1 else self_t * -self.alpha
        return term if other_t is None else other_t + term


class RsubBackward1(Node):
    """result = other - alpha * self, other a number   ->   grad_self = -grad * alpha"""

    alpha = 1                 # (``1 - x`` keeps no alpha of its own: grad_fn._saved_alpha is 1)

    def backward(self, grad):
        return (_times_minus_alpha(grad, self.alpha),)

    def jvp(self, tangents, inputs, out):
        """result_t = -alpha * self_t"""
        return -tangents[0] if self.alpha == 1 else tangents[0] * -self.alpha


def _times_minus_alpha(grad, alpha):
    """-grad * alpha, as PyTorch's formula writes it: only -grad when alpha is 1 (so a second
    order graph shows NegBackward0, then MulBackward1 for another alpha)."""
    return -grad if alpha == 1 else mul_by_number(-grad, alpha)


def rsub(input, other, alpha=1):
    """other - alpha * input: subtraction with the operands swapped (``1 - x`` is ``rsub(x, 1)``).

    Gradient: grad_input = -alpha * grad; grad_other = grad. PyTorch records RsubBackward0
    (``other`` a tensor) or RsubBackward1 (``other`` a number).
    """
    if type(alpha) is not int or alpha != 1:
        try:                                     # (a wrong alpha is reported first)
            alpha = subtracted_alpha(alpha_number("rsub", alpha))
        except TypeError:                        # (rsub has two signatures: PyTorch lists them)
            raise invalid_combination("rsub", (input, other), {"alpha": alpha}) from None
    if input._array.dtype.kind == "b" or is_bool(other):
        raise bool_subtraction_error(input, other)
    # a number has no edge: RsubBackward1 has one (to input), RsubBackward0 two
    node_class, inputs = ((RsubBackward0, (input, other)) if isinstance(other, Tensor)
                          else (RsubBackward1, (input,)))
    if type(alpha) is int and alpha == 1:
        return result(_binary(np.subtract, other, input), node_class, inputs)
    check_alpha(result_type(input, other), alpha, subtract=True)
    start, dtype = other, result_type(input, other)
    if type(other) in (int, float) and dtype.type in (np.float16, np.float32, np.float64):
        with np.errstate(over="ignore"):      # (a number: a 0-d tensor of the result's dtype)
            start = _wrap(np.asarray(other, dtype))
    fused = _fused_with_alpha(start, input, alpha, subtract=True) if isinstance(start, Tensor) else None
    if fused is not None:                   # other - alpha * input, rounded once
        return result(fused, node_class, inputs, alpha=alpha)
    try:
        out = _binary(np.subtract, other, times_alpha(input, alpha, result_type(input, other)))
    except RuntimeError:
        check_history_kept(input, other)
        raise
    return result(out, node_class, inputs, alpha=alpha)


class NegBackward0(Node):
    """result = -self   ->   grad_self = -grad"""

    def backward(self, grad):
        return (-grad,)

    def jvp(self, tangents, inputs, out):
        """result_t = -self_t"""
        return -tangents[0]


def neg(input):
    """-input elementwise. Gradient: -grad."""
    # np.negative of a 0-d array is a numpy scalar; keep an array so in-place ops still work
    try:
        return result(like_its_input(np.asarray(np.negative(input._array)), input._array), NegBackward0, (input,))
    except TypeError:           # numpy refuses -bool too, in its own words
        raise RuntimeError(NEGATIVE_BOOL_MESSAGE) from None


NEGATIVE_BOOL_MESSAGE = (
    "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a "
    "mask, use the `~` or `logical_not()` operator instead.")


def kernel_not_implemented(kernel, input):
    """PyTorch's error when its ``kernel`` has no version for ``input``'s dtype ('Bool', 'Long'...)."""
    name = input.dtype.tensor_type_name[:-len("Tensor")]
    return NotImplementedError(f'"{kernel}" not implemented for \'{name}\'')


def check_shapes_fit(input, other):
    """PyTorch's broadcast error if ``input`` and ``other`` (tensors or numbers) have shapes that
    don't broadcast. Its elementwise loop settles the result's shape before it picks a kernel for
    the dtype: called before a two-input kernel's NotImplementedError."""
    try:
        np.broadcast_shapes(np.shape(getattr(input, "_array", input)), np.shape(getattr(other, "_array", other)))
    except ValueError:
        raise _broadcast_error(input, other) from None


# --- * and / ----------------------------------------------------------------------------

class MulBackward0(Node):
    """result = self * other   ->   grad_self = grad * other; grad_other = grad * self"""

    _saved_names = ('self', 'other')      # grad_fn._saved_self, ... as in PyTorch
    _pack_order = (1, 0)      # PyTorch's saved-tensor hooks see the second one first

    def backward(self, grad):
        self_edge, other_edge = self._next_node_0, self._next_node_1   # (should_compute_output, without the calls)
        need_self, need_other = self_edge is not None, other_edge is not None
        if not (need_self or need_other):
            # PyTorch unpacks (and so checks) a saved input only for a gradient it computes
            return None, None
        # (mul() saved each only if the other needs a gradient; a saved one whose gradient is not
        # asked for, e.g. that of a view made in no_grad, may have been changed in place since)
        # self is read only for other's gradient, other only for self's
        unread = None if need_self and need_other else 0 if need_self else 1
        saved = self._saved
        if self._saved_versions is _PLAIN_PAIR and saved is not FREED:
            a, b = saved                    # two plain values (x * 2.0): saved_tensors checks nothing
        elif unread is None or type(saved) is tuple and saved[unread] is None:
            a, b = self.saved_tensors       # (the usual case, fast: nothing unread is held)
        else:
            a, b = self.saved_tensors_for((need_other, need_self))
        # other's gradient first, as PyTorch's generated node computes them (it shows in which
        # node is made first, so in the order a third-order sum adds its terms)
        grad_b = _times(grad, a) if need_other else None
        return (_times(grad, b) if need_self else None, grad_b)

    def jvp(self, tangents, inputs, out):
        """result_t = other_t * self + self_t * other (the product rule, in PyTorch's order)"""
        (a, b), (a_t, b_t) = (inputs, [_own(t) for t in tangents])
        first = b_t * a if b_t is not None else _zero_tangent_times(b, a)
        second = a_t * b if a_t is not None else _zero_tangent_times(a, b)
        return second if first is None else first if second is None else first + second


def _times(grad, factor):
    """``grad * factor`` in a backward formula.

    Without create_graph nothing is recorded, so the product goes straight to
    numpy instead of through the operator, ``mul`` and ``result`` (in a graph of
    tiny operations that machinery costs more than the product itself). With
    create_graph (or forward mode open) it is the ordinary, recorded ``grad * factor``.
    """
    if _State.enabled or _DualLevel.open or type(grad) is not Tensor or (
            zero_tensors_exist and grad._zero_tensor_memory is not None):   # (see _zero_tensor.py)
        return grad * factor
    array = grad._array
    number, dtype, converted = _last_number
    if factor is number and array.dtype is dtype and dtype is not _FLOAT16 and array.ndim == 1:
        # the gradient of a chain such as y = y * 1.0001: a row times the number converted last,
        # which needs none of _binary's work (float16 takes float32's: see in_opmath)
        try:
            return _wrap(run_quietly(_np_multiply, array, converted))  # (quietly without its call)
        except RuntimeError:
            return _wrap(quietly(np.multiply, array, converted))       # (its context in use elsewhere)
    out = _binary(np.multiply, grad, factor)
    if out.dtype is _FLOAT16:          # (by a number: again, in float32 as PyTorch, see in_opmath)
        out = in_opmath(np.multiply, grad, factor)
    return _wrap(out)


def _own(tangent):
    """None for the zeros forward mode gives a float tensor that has no tangent of its own."""
    return None if getattr(tangent, "_stands_for_no_tangent", False) else tangent


def _zero_tangent_times(without_tangent, primal):
    """PyTorch's tangent of ``without_tangent`` (an input that has none), times ``primal``.

    PyTorch's rule sees a zero tensor there, and the product still joins the
    graph of a ``primal`` that requires grad: so the tangent of ``dual * 2``
    requires grad too (grad_fn AddBackward0). Its values are all zeros, even
    where primal is inf (PyTorch's zero tensor is not really multiplied), so
    it is recorded here without multiplying. -0.0, so that adding it to a
    tangent changes no value, not even the sign of a zero. None if primal
    does not require grad: then the term would change nothing at all.
    """
    if not _requires_grad(primal):
        return None
    zero = _wrap(np.zeros(np.shape(without_tangent), dtype=primal._array.dtype))
    shape = np.broadcast_shapes(zero.shape, primal.shape)
    out = result(np.full(shape, -0.0, dtype=primal._array.dtype), MulBackward0, (zero, primal))
    if out._grad_fn is not None:
        out._grad_fn.save_for_backward(zero, None)     # d/d primal = grad * zero
    return out


def _requires_grad(value):
    # (a view requires grad when its base does: a view made under no_grad has no edge)
    return isinstance(value, Tensor) and (value._grad_fn is not None or value._requires_grad or (
        value._base is not None and value._base._graph_requires_grad))


def mul(input, other):
    """input * other elementwise (broadcasting). Gradient: d input = grad * other, d other = grad * input."""
    if zero_tensors_exist and _zero_tensor.either_is_zero_tensor(input, other):
        return _product_with_zero_tensor(input, other)
    array = _binary(_np_multiply, input, other, SAVES_OTHER)
    if array.dtype is _FLOAT16:        # (by a number: again, in float32 as PyTorch, see in_opmath)
        # (asked after the product, not before: the usual float32 product pays nothing for it)
        array = in_opmath(np.multiply, input, other, SAVES_OTHER)
    out = result(array, MulBackward0, (input, other))
    node = out._grad_fn
    if node is not None:
        # Save only what a gradient needs (d/da needs b, d/db needs a), as PyTorch does:
        # a later in-place change of the other operand must not break backward.
        # (Only an input with an edge gets a gradient: a view made in no_grad says it requires
        # grad but has none, so nothing is saved for it.)
        if type(other) in _PYTHON_NUMBERS:        # x * 2.0: a number never requires grad
            node.save_for_backward(None, other)
            return out
        node.save_for_backward(input if node._next_node_1 is not None else None,
                               other if node._next_node_0 is not None else None)
    return out


def _product_with_zero_tensor(input, other):
    """``z * y`` with a ZeroTensor among them: PyTorch's is a ZeroTensor, zeros whatever y holds
    (see _zero_tensor.py), recorded and saved for backward as mul records any product."""
    out = result(_zero_tensor.zeros_for(input, other), MulBackward0, (input, other))
    node = out._grad_fn
    if node is not None:          # (each input is saved for the other's gradient, as in mul)
        node.save_for_backward(input if node._next_node_1 is not None else None,
                               other if node._next_node_0 is not None else None)
    return _as_zero_tensor(out)


class MulBackward1(Node):
    """result = self * other, other a number   ->   grad_self = grad * other

    Python's ``x * 2`` records MulBackward0 (the 2 becomes a tensor, in PyTorch
    too); PyTorch's own derivative formulas multiply by a plain number, which
    records MulBackward1, and so do minigrad's.
    """

    def backward(self, grad):
        # PyTorch's formula multiplies by the same number: with create_graph=True that is
        # recorded as another MulBackward1, not the MulBackward0 of ``grad * factor``
        if _State.enabled and type(grad) is Tensor:
            return (mul_by_number(grad, self.other),)
        return (_times(grad, self.other),)


def mul_by_number(input, factor):
    """input * factor, recorded as MulBackward1 (as in PyTorch's derivative formulas)."""
    out = result(in_opmath(np.multiply, input, factor), MulBackward1, (input,), other=factor)   # (_saved_other, as PyTorch)
    if zero_tensors_exist and input._zero_tensor_memory is not None:
        _zero_tensor.made_zero(out)       # (a product with a ZeroTensor is one: see _zero_tensor.py)
    return out


class SubBackward1(Node):
    """result = self - other, other a number   ->   grad_self = grad"""

    def backward(self, grad):
        return (grad,)


def sub_number(input, number):
    """input - number, recorded as SubBackward1 (as in PyTorch's derivative formulas)."""
    return result(_binary(np.subtract, input, number), SubBackward1, (input,))


class AddBackward1(Node):
    """result = self + other, other a number   ->   grad_self = grad

    Like MulBackward1: recorded by PyTorch's own derivative formulas that add a
    plain number (Python's ``x + 1`` records AddBackward0)."""

    def backward(self, grad):
        return (grad,)


def add_number(input, number):
    """input + number, recorded as AddBackward1 (as in PyTorch's derivative formulas)."""
    return result(_binary(np.add, input, number), AddBackward1, (input,))


class DivBackward0(Node):
    """result = self / other   ->
        grad_self = grad / other; grad_other = -grad * ((self / other) / other)"""

    _saved_names = ('self', 'other')      # grad_fn._saved_self, ... as in PyTorch
    _pack_order = (1, 0)      # PyTorch's saved-tensor hooks see the second one first

    def backward(self, grad):
        a, b = self.saved_tensors
        # other's gradient first, as PyTorch's generated node computes them (see MulBackward0)
        grad_b = -grad * ((a / b) / b) if self.should_compute_output(1) else None    # PyTorch's order
        grad_a = grad / b if self.should_compute_output(0) else None
        return grad_a, grad_b

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / other - other_t * self / other**2 = (self_t - other_t * result) / other"""
        (a, b), (a_t, b_t) = inputs, [_own(t) for t in tangents]
        if b_t is None:              # PyTorch subtracts a zero tangent times result (see mul's jvp)
            zero_term = _zero_tangent_times(b, out)
            numerator = a_t if zero_term is None else a_t - zero_term
        elif a_t is None:            # (0 - x: -0.0, so that the sign of a zero is PyTorch's)
            numerator = _wrap(np.full(np.shape(a), -0.0, dtype=out._array.dtype)) - b_t * out
        else:
            numerator = a_t - b_t * out
        return numerator / b


_TRUE_DIVISION = object()      # div() without rounding_mode (rounding_mode=None records DivBackward2)


def div(input, other, *, rounding_mode=_TRUE_DIVISION):
    """input / other elementwise (true division).
    Gradient: d input = grad / other, d other = -grad * input / other**2.

    ``rounding_mode='floor'`` rounds the quotient down, ``'trunc'`` towards 0 (their gradient
    is 0: see div_rounded in rounding.py).
    """
    if rounding_mode is not _TRUE_DIVISION:
        from .rounding import div_rounded       # (rounding.py builds on this file)
        return div_rounded(input, other, rounding_mode)
    if zero_tensors_exist and _zero_tensor.either_is_zero_tensor(input, other):
        return _quotient_with_zero_tensors(input, other)
    if isinstance(input, Tensor) and input._array.dtype is _FLOAT16 and opmath_number(input, other) is not None:
        return _recorded_quotient(in_opmath(np.true_divide, input, other), input, other)
    a_arr, b_arr, dtype = _operand_arrays(input, other)
    if dtype.kind != "f":                     # integer / integer is true division in PyTorch
        dtype = _dtype.DEFAULT_FLOAT          # (in the default float dtype: set_default_dtype)
        if type(other) is int:
            b_arr = float(other)              # (its value, not as an integer tensor holds it)
    try:
        # (x / 0 = inf, 0 / 0 = nan, 1e30 / 1e-30 = inf: silently, as in PyTorch)
        out = quietly(np.true_divide, a_arr, b_arr)
    except ValueError:
        check_history_kept(input, other, saves=((1,), (0, 1)))    # (see below)
        raise _broadcast_error(input, other) from None
    return _recorded_quotient(laid_out_as_pytorch(np.asarray(out, dtype=dtype), a_arr, b_arr), input, other)


def _quotient_with_zero_tensors(input, other):
    """``input / other`` with a ZeroTensor among them, as PyTorch's kernel for them gives it (see
    _zero_tensor.py): ``z / y`` is a ZeroTensor, ``y / z`` ordinary +inf wherever y is (its
    values unread: even 0 / z and nan / z are +inf), and ``z / z`` ordinary +nan."""
    quotient = _zero_tensor.zeros_for(input, other)
    if quotient.dtype.kind not in "fc":     # (integers divide into the default float dtype)
        quotient = quotient.astype(_dtype.DEFAULT_FLOAT)
    if not _zero_tensor.is_zero_tensor(other):
        return _as_zero_tensor(_recorded_quotient(quotient, input, other))
    quotient[...] = np.nan if _zero_tensor.is_zero_tensor(input) else np.inf
    return _recorded_quotient(quotient, input, other)


def _recorded_quotient(out, input, other):
    """The quotient ``out`` of input / other as a tensor, with its DivBackward0."""
    out = result(out, DivBackward0, (input, other))
    if out._grad_fn is not None:
        # d/da needs only b; a is saved only when b gets a gradient (has an edge)
        out._grad_fn.save_for_backward(input if out._grad_fn.should_compute_output(1) else None, other)
    return out


class DivBackward1(Node):
    """result = self / other, other a number   ->   grad_self = grad / other

    Python's ``x / 2`` records DivBackward0 (in PyTorch too: the 2 becomes a
    tensor). PyTorch's own C++ code divides by a plain number, which records
    DivBackward1; the losses use ``div_by_number`` to show the same graph.
    """

    def backward(self, grad):
        # PyTorch's formula divides by the same number: with create_graph=True that is
        # recorded as another DivBackward1, not the DivBackward0 of ``grad / divisor``
        if _State.enabled and type(grad) is Tensor:
            return (div_by_number(grad, self.other),)
        return (grad / self.other,)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / other"""
        return tangents[0] / self.other


def div_by_number(input, divisor):
    """input / divisor for a Python number ``divisor``. Gradient: grad / divisor."""
    # (an ordinary tensor even of a ZeroTensor: PyTorch's division by a plain number turns one
    # into ordinary zeros first, unlike its product with one; see _zero_tensor.py)
    return result(in_opmath(np.true_divide, input, divisor), DivBackward1, (input,),
                  other=divisor)   # (_saved_other, as PyTorch)


class ReciprocalBackward0(Node):
    """result = 1 / self   ->   grad_self = -grad / self**2 = -grad * result**2"""

    _saved_names = ('result',)      # grad_fn._saved_result, ... as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (-grad * (out * out),)

    def jvp(self, tangents, inputs, out):
        """result_t = -result**2 * self_t"""
        return -tangents[0] * out * out


def reciprocal(input):
    """1 / input elementwise. Gradient: -grad / input**2."""
    array = input._array if input._array.dtype.kind == "f" else input._array.astype(_dtype.DEFAULT_FLOAT)
    with np.errstate(divide="ignore", over="ignore"):      # (1 / 0 and 1 / 1e-320: inf, silently)
        out = like_its_input(np.reciprocal(array), array)
        return save_result(result(out, ReciprocalBackward0, (input,)))


def rdiv(input, other):
    """other / input for a number ``other``: PyTorch records reciprocal, then a multiplication."""
    return mul(reciprocal(input), other)


# --- powers -----------------------------------------------------------------------------

class PowBackward0(Node):
    """result = self ** exponent, exponent a number   ->
        grad_self = grad * exponent * self ** (exponent - 1)"""

    _saved_names = ('self',)      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        n = self.exponent
        if n == 0:      # PyTorch's formula gives zeros_like(self) then: no graph, no NaN from grad
            return (_wrap(np.zeros_like(a._array)),)
        # (PyTorch's formula takes the exponent as a double: x ** -2**63 has the gradient of
        # x ** -2.0**63, and create_graph records the powers of a float)
        n = float(n) if isinstance(n, int) else n
        return (grad * mul_by_number(a ** (n - 1), n),)

    def jvp(self, tangents, inputs, out):
        """result_t = exponent * self ** (exponent - 1) * self_t"""
        (a,), (a_t,) = inputs, tangents
        n = self.exponent
        return a_t * 0 if n == 0 else a_t * mul_by_number(a ** (n - 1), n)    # (PyTorch's grouping)


class PowBackward1(Node):
    """result = self ** exponent   ->
        grad_self = grad * exponent * self ** (exponent - 1);
        grad_exponent = grad * result * log(self)"""

    _saved_names = ('self', 'exponent', 'result')      # grad_fn._saved_self, ... as in PyTorch
    _pack_order = (1, 0, 2)      # PyTorch's saved-tensor hooks see the second one first

    def backward(self, grad):
        a, b, out = self.saved_tensors
        zero = _wrap(np.zeros((), dtype=grad._array.dtype))
        grad_a = grad_b = None
        # (as PyTorch writes them: b - 1 subtracts a plain number, SubBackward1)
        if self.should_compute_output(0):       # 0 where the exponent is 0 (even at a = 0)
            grad_a = where(b == 0, zero, grad * (b * a ** sub_number(b, 1)))
        if self.should_compute_output(1):
            # where a == 0 (and b >= 0) the limit of a**b * log(a) is 0, not nan
            with np.errstate(divide="ignore", invalid="ignore"):
                grad_b = grad * where((a == 0) & (b >= 0), zero, out * log(a))
        return grad_a, grad_b

    def jvp(self, tangents, inputs, out):
        """result_t = exponent * self ** (exponent - 1) * self_t + result * log(self) * exponent_t"""
        (a, b), (a_t, b_t) = inputs, tangents
        out_t = a_t * b * a ** (b - 1)
        if b_t is not None:
            out_t = out_t + b_t * out * log(where(a == 0, ones_like(a), a))
        return out_t


class PowBackward2(Node):
    """result = self ** exponent, self a number   ->   grad_exponent = grad * (result * log(self))"""

    # (the number is kept as ``base``; grad_fn._saved_self shows it, as PyTorch's node does)

    _saved_names = ('exponent', 'result')      # grad_fn._saved_exponent, ... as in PyTorch

    def backward(self, grad):
        # from the saved result, as PyTorch: changing it in place makes backward refuse
        exponent, out = self.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            scaled = mul_by_number(out, float(np.log(self.base)) if self.base else -np.inf)
        if self.base == 0:           # 0 ** exponent: no change for exponents >= 0
            scaled = where(exponent >= 0, _wrap(np.zeros((), out._array.dtype)), scaled)
        return (grad * scaled,)

    def jvp(self, tangents, inputs, out):
        """result_t = result * log(self) * exponent_t"""
        return tangents[0] * out * float(np.log(self.base))


_SETTINGS_KEPT_AS["PowBackward2"] = {"self": "base"}
show_saved_names(PowBackward2, ("self",))


def _power(base, exponent):
    """np.power, with PyTorch's integer rule for negative tensor exponents: the fraction is
    truncated (2 ** -1 is 0), so only bases 1 and -1 keep a value (numpy refuses instead)."""
    try:
        return np.power(base, exponent)
    except ValueError:          # integers to negative powers (or shapes that don't broadcast)
        base, exponent = np.broadcast_arrays(base, exponent)
        out = np.power(base, np.maximum(exponent, 0))
        sign = np.where(exponent % 2 == 0, 1, base)              # (-1) ** -3 is -1
        return np.where(exponent < 0, np.where(np.abs(base) == 1, sign, 0), out).astype(out.dtype)


def _power_as_pytorch(input, exponent):
    """The power function for ``input ** exponent`` (tensors or numbers): a float32 or float64
    result takes PyTorch's own bits, SLEEF's pow for whole vectors of numbers and the C
    library's pow for the rest (see _sleef_pow); other dtypes take numpy's power."""
    dtype = result_type(input, exponent)
    if dtype == np.float32:
        return _power_float32
    return _power_float64 if dtype == np.float64 else _power_float16 if dtype == np.float16 else _power


def _power_float16(base, exponent):
    """base ** exponent in float16 (see _power_as_pytorch): numpy's values, with PyTorch's NaNs
    for a negative number to a fraction (see vector_loop_nans)."""
    return _float16_power_nans(np.asarray(_power(base, exponent)), base, exponent)


def _float16_power_nans(out, base, exponent):
    """A float16 power ``out`` with PyTorch's NaNs for a negative number to a fraction (see
    vector_loop_nans); ``out`` itself for other dtypes."""
    if out.dtype == np.float16:
        new = np.isnan(out) & ~np.isnan(base) & ~np.isnan(exponent)
        if new.any():
            return vector_loop_nans(out, new)
    return out


def _power_float32(base, exponent):
    """base ** exponent in float32 as PyTorch's tensor ** tensor kernel (see _power_as_pytorch)."""
    base, exponent = np.asarray(base, np.float32), np.asarray(exponent, np.float32)
    return _vectorized_loop.elementwise_pair(base, exponent, _sleef_pow.pow, np.power, lanes=8)


def _power_float64(base, exponent):
    """The same in float64 (4 numbers to a vector)."""
    base, exponent = np.asarray(base, np.float64), np.asarray(exponent, np.float64)
    return _vectorized_loop.elementwise_pair(base, exponent, _sleef_pow.pow, np.power, lanes=4)


def _power_of_number(array, exponent):
    """x ** exponent (a number) of a float32 or float64 array as PyTorch's kernel: SLEEF's pow,
    with the exponent in x's dtype, for whole vectors; for the numbers left over the C library's
    pow in float64, with the exponent as given."""
    vector_exponent = array.dtype.type(exponent)
    return _vectorized_loop.elementwise(
        array, lambda part: _sleef_pow.pow(part, vector_exponent),
        lambda part: np.power(part.astype(np.float64), float(exponent)).astype(array.dtype),
        lanes=32 // array.dtype.itemsize)


def pow(input, exponent):
    """input ** exponent elementwise. Gradient: d input = grad * exponent * input**(exponent - 1),
    d exponent = grad * input**exponent * log(input).
    """
    if isinstance(input, _PYTHON_NUMBERS):
        return rpow(exponent, input)
    if isinstance(exponent, Tensor):
        with np.errstate(all="ignore"):       # 0 ** -1 = inf, (-1) ** 0.5 = nan, 1e30 ** 2 = inf
            array = _binary(_power_as_pytorch(input, exponent), input, exponent, SAVES_BOTH)
        _check_not_bool_power(array)
        out = result(array, PowBackward1, (input, exponent))
        return save_result(out, input, exponent)
    if not isinstance(exponent, _PYTHON_NUMBERS + (np.number,)):
        raise invalid_combination("pow", (exponent,), {})
    a_arr = input._array
    if type(exponent) is int:
        _dtype.check_python_int(exponent)         # (x ** 2**64: PyTorch's OverflowError)
        if a_arr.dtype.kind in "biu" and exponent > 0:
            # PyTorch reads an integer tensor's exponent as an int64_t, then as its own dtype
            _dtype.checked_int(exponent, _INT64)
            _dtype.checked_int(exponent, a_arr.dtype if a_arr.dtype.kind != "b" else _INT64)
    if a_arr.dtype is _FLOAT16 and type(exponent) in (int, float):
        _dtype.checked_scalar(exponent, _FLOAT16)   # (float16 ** 7e4: refused, as in PyTorch)
    if a_arr.dtype.kind in "biu" and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if a_arr.dtype.kind in "biu" and not isinstance(exponent, (complex, np.complexfloating)):
        dtype = result_type(input, exponent)
        if dtype.kind == "f":          # (int tensor ** 2.5): PyTorch converts, then takes powers
            a_arr = row_major(a_arr.astype(dtype))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if exponent == -0.5 and a_arr.dtype.kind == "f":
            # PyTorch computes x ** -0.5 as 1 / sqrt(x): nan at -inf, where pow gives 0.
            # The gradient of x ** 0.5 uses it.
            out = _float16_power_nans(np.reciprocal(np.sqrt(a_arr)), a_arr, exponent)
        elif exponent == 0.5 and a_arr.dtype in (np.float32, np.float64):
            # and x ** 0.5 as sqrt(x) (float16: pow): nan at -inf and -0 at -0, where pow gives
            # inf and 0. numpy 2.1 and later take that shortcut inside np.power too, 2.0 not.
            # (Its NaNs are positive, where torch.sqrt's are x86's.)
            out = _positive_nan_sqrt(a_arr)
            out = row_major(out) if a_arr.flags.c_contiguous else like_its_input(out, a_arr)
        elif exponent in (2, 3, -1, -2) and a_arr.dtype.kind == "f":
            # PyTorch's own steps for these exponents (pow() rounds once, these twice):
            # x * x, x * x * x, 1 / x and 1 / (x * x). (numpy 2.1 and later take the same
            # shortcuts for 2 and -1 inside np.power; numpy 2.0 calls pow, off in the last bit.)
            if exponent == 2:
                out = a_arr * a_arr
            elif exponent == 3:
                out = a_arr * a_arr * a_arr
            elif exponent == -1:
                out = np.reciprocal(a_arr)
            else:
                out = np.reciprocal(a_arr * a_arr)
            out = row_major(out) if a_arr.flags.c_contiguous else like_its_input(out, a_arr)
        elif a_arr.dtype in (np.float32, np.float64) and not isinstance(exponent, complex) \
                and exponent not in (0, 1, 2, 0.5, -1):
            out = _power_of_number(a_arr, exponent)
            out = row_major(out) if a_arr.flags.c_contiguous else like_its_input(out, a_arr)
        else:     # (PyTorch's x ** number has one input, laid out as x: not as x + number)
            out = _binary(_power_float16 if a_arr.dtype == np.float16 else np.power, input, exponent)
            out = row_major(out) if a_arr.flags.c_contiguous else like_its_input(out, a_arr)
    out = result(out, PowBackward0, (input,), saved=(input,), exponent=exponent)
    return kernel_writes("pow", out, input, exponent=exponent)


def rpow(input, base):
    """base ** input, for a number ``base`` (the ``2 ** x`` form)."""
    with np.errstate(all="ignore"):           # 2 ** 1000 = inf, silently
        out = _binary(_power_as_pytorch(base, input), base, input)
    _check_not_bool_power(out)
    # (PyTorch's number ** x is row-major whatever x's layout, unlike x + number)
    out = row_major(out)
    return save_result(kernel_writes("rpow", result(out, PowBackward2, (input,), base=base), input), input)


def _check_not_bool_power(array):
    """A tensor exponent whose power would be a bool (True ** bools, bools ** bools): PyTorch's
    pow kernel has no bool version (a bool tensor to a number's power has one, and stays bool)."""
    if array.dtype == np.bool_:
        raise NotImplementedError('"pow" not implemented for \'Bool\'')


def square(input):
    """input * input elementwise. Gradient: 2 * grad * input."""
    return pow(input, 2)


class SqrtBackward0(Node):
    """result = sqrt(self)   ->   grad_self = grad / (2 result)"""

    _saved_names = ('result',)      # grad_fn._saved_result, ... as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (grad / mul_by_number(out, 2),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / (2 result)"""
        return tangents[0] / (2 * out)


def sqrt(input):
    """Square root elementwise. Gradient: grad / (2 * sqrt(input)) (the saved result)."""
    with np.errstate(invalid="ignore"):
        return save_result(result(_float_ufunc(_square_root, input), SqrtBackward0, (input,)))


def _square_root(array):
    """numpy's sqrt, but a negative number's float32/float64 NaN has its sign bit clear, as
    PyTorch's (MKL's) has; numpy's is -nan, as PyTorch's float16 one. Only ``copysign`` or
    ``signbit`` can tell them apart."""
    out = np.sqrt(array)
    if array.dtype == np.float16:
        return out
    negative = array < 0
    if negative.any():
        out = np.where(negative, np.array(np.nan, dtype=out.dtype), out)
    return out


class RsqrtBackward0(Node):
    """result = self ** -0.5   ->   grad_self = -0.5 * grad * result**3"""

    _saved_names = ('result',)      # grad_fn._saved_result, ... as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        # (PyTorch's C++ -0.5 * grad is mul with a Scalar: MulBackward1 under create_graph)
        return (mul_by_number(grad, -0.5) * out ** 3,)

    def jvp(self, tangents, inputs, out):
        """result_t = -0.5 * result**3 * self_t"""
        return tangents[0] * -0.5 * inputs[0] ** -1.5


def rsqrt(input):
    """1 / sqrt(input) elementwise. Gradient: -grad / (2 * input**1.5)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return save_result(result(_float_ufunc(lambda array: 1 / np.sqrt(array), input), RsqrtBackward0,
                                  (input,)))


# --- exp, log, trigonometry ---------------------------------------------------------------

def _float_ufunc(ufunc, input):
    """Integer tensors are promoted to the default float dtype (float32) first, as PyTorch does
    for exp, sin, ..."""
    array = input._array
    if array.dtype.kind != "f":
        array = array.astype(_dtype.DEFAULT_FLOAT)
    out = ufunc(array)
    if out.ndim > 1 and not array.flags.c_contiguous:
        out = laid_out_as_pytorch(out, array)     # (numpy's layout may differ in size-1 dims)
    return out


def _as_pytorch(sleef_float32, sleef_float64, numpy_function):
    """An elementwise function: PyTorch's own method for float32 and float64 arrays (SLEEF's,
    followed step by step in numpy: the same last bit), numpy's for other dtypes."""
    def elementwise(array):
        if array.dtype == np.float32:
            return sleef_float32(array)
        if array.dtype == np.float64:
            return sleef_float64(array)
        return numpy_function(array)
    elementwise.__name__ = numpy_function.__name__
    return elementwise


def _in_vectors_as_pytorch(sleef_float32, sleef_float64, numpy_function):
    """As _as_pytorch, for a kernel that runs SLEEF on whole vectors only (8 float32 or 4
    float64 with AVX2) and the C library on the numbers left over (numpy's function calls the
    same C library)."""
    def elementwise(array):
        if array.dtype == np.float32:
            return _vectorized_loop.elementwise(array, sleef_float32, numpy_function, lanes=8)
        if array.dtype == np.float64:
            return _vectorized_loop.elementwise(array, sleef_float64, numpy_function, lanes=4)
        return numpy_function(array)
    elementwise.__name__ = numpy_function.__name__
    return elementwise


# The bits of NaNs as PyTorch's CPU kernels make them: x86's default NaN (what an invalid
# operation gives, and numpy's functions) has its sign bit set; SLEEF's vector functions return
# a positive NaN or one with every bit set; a float16 kernel computes in float32 and keeps
# that NaN's sign and first bits.
_UNSIGNED = {2: np.uint16, 4: np.uint32, 8: np.uint64}
NEGATIVE_NAN = {2: 0xFE00, 4: 0xFFC0_0000, 8: 0xFFF8_0000_0000_0000}    # x86's default NaN
POSITIVE_NAN = {2: 0x7E00, 4: 0x7FC0_0000, 8: 0x7FF8_0000_0000_0000}
ALL_ONES_NAN = {2: 0xFFFF, 4: 0xFFFF_FFFF, 8: 0xFFFF_FFFF_FFFF_FFFF}


def with_new_nans(ufunc, bits):
    """``ufunc`` whose NaNs for numbers outside its domain (asin(2), log1p(-2); a NaN input
    keeps its own) have the bits PyTorch's kernel gives them: ``bits(array)`` returns them for
    an input array (one unsigned integer, or an array of them, one per number), or None to keep
    numpy's (see NEGATIVE_NAN above)."""
    def elementwise(array):
        out = ufunc(array)
        pattern = bits(array)
        if pattern is None:
            return out
        new = np.isnan(out) & ~np.isnan(array)
        return with_bits(out, new, pattern) if new.any() else out
    elementwise.__name__ = ufunc.__name__
    return elementwise


def keeping_nan_inputs(ufunc, itemsizes=(4, 8)):
    """``ufunc`` that gives a NaN input back with its own bits, quieted, as PyTorch's exp, log,
    sin, cos, tanh, ... do for float32 and float64 (``itemsizes``: the dtypes where it does):
    a NaN whose payload was written through an integer view keeps it, where numpy's loops
    return their plain NaN. Only a result that holds a NaN pays for the second look."""
    def elementwise(array):
        out = ufunc(array)
        if array.itemsize in itemsizes and np.isnan(out).any():
            nans = np.isnan(array)
            if nans.any():
                unsigned = _UNSIGNED[array.itemsize]
                # (a signalling NaN comes back quiet: the top bit of its fraction set)
                quiet_bit = unsigned(1 << (22 if array.itemsize == 4 else 51))
                out = with_bits(out, nans, array.view(unsigned) | quiet_bit)
        return out
    elementwise.__name__ = ufunc.__name__
    return elementwise


def with_bits(out, where, pattern):
    """numpy: a copy of ``out`` with the bit pattern ``pattern`` (an unsigned integer, or an
    array of them, one per number of out) at the numbers where ``where`` holds."""
    out = np.array(out)
    out.view(_UNSIGNED[out.itemsize])[where] = pattern if np.ndim(pattern) == 0 else pattern[where]
    return out


def vector_loop_nans(out, where):
    """numpy: ``out`` with the NaNs where ``where`` holds as kernels make them whose vector loop
    gives a positive NaN and whose scalar loop x86's (fmod by 0, float16's pow of a negative
    number to a fraction)."""
    size = out.itemsize
    return with_bits(out, where, nans_by_loop(out, POSITIVE_NAN[size], NEGATIVE_NAN[size]))


def nans_by_loop(array, vectorized, scalar):
    """numpy: the NaN bits of a kernel whose vector loop and scalar loop make different NaNs:
    ``vectorized`` or ``scalar`` (bit patterns) for each number of ``array``, as
    ``_vectorized_loop.elementwise`` splits a kernel of 2 vectors of 32 bytes per step."""
    return _vectorized_loop.elementwise(
        np.zeros(array.shape, _UNSIGNED[array.itemsize]), lambda part: np.full_like(part, vectorized),
        lambda part: np.full_like(part, scalar), lanes=32 // array.itemsize)


# log1p(-2): SLEEF's NaN with every bit set, in float32 (float16 through it) too
# (a NaN input gives the plain NaN, as PyTorch's AVX2 kernel gives it: its AVX512 one keeps
# the input's bits in float32)
_log1p_array = with_new_nans(
    _as_pytorch(_sleef_float_pairs.log1p, _sleef_double_pairs.log1p, np.log1p),
    lambda array: None if array.itemsize == 8 else ALL_ONES_NAN[array.itemsize])
_expm1_array = keeping_nan_inputs(_as_pytorch(_sleef_float_pairs.expm1, _sleef_double_pairs.expm1, np.expm1))
_exp_array = keeping_nan_inputs(np.exp)
_tanh_array = keeping_nan_inputs(np.tanh)
def with_all_ones_nans_in_vectors(function):
    """``function`` whose NaN inputs come back, in the whole vectors of PyTorch's loop (16
    float32 or 8 float64 numbers a step, see nans_by_loop), as a NaN with every bit set, as
    SLEEF's vector sinh and cosh give them; the numbers left over keep ``function``'s NaN."""
    def elementwise(array):
        out = function(array)
        if array.dtype.kind == "f" and array.itemsize in (4, 8):
            nans = np.isnan(array)
            if nans.any():
                in_vectors = nans_by_loop(array, 1, 0).astype(bool)
                out = with_bits(out, nans & in_vectors, ALL_ONES_NAN[array.itemsize])
        return out
    elementwise.__name__ = function.__name__
    return elementwise


# (a NaN input keeps its bits where PyTorch's loop takes one number at a time, and has every
# bit set in its whole vectors)
_sinh_array = with_all_ones_nans_in_vectors(keeping_nan_inputs(
    _in_vectors_as_pytorch(_sleef_float_pairs.sinh, _sleef_double_pairs.sinh, np.sinh)))
_cosh_array = with_all_ones_nans_in_vectors(keeping_nan_inputs(
    _in_vectors_as_pytorch(_sleef_float_pairs.cosh, _sleef_double_pairs.cosh, np.cosh)))


class ExpBackward0(Node):
    """result = e ** self   ->   grad_self = grad * result"""

    _saved_names = ('result',)      # grad_fn._saved_result, ... as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (grad * out,)

    def jvp(self, tangents, inputs, out):
        """result_t = result * self_t"""
        return tangents[0] * out


def exp(input):
    """e**input elementwise. Gradient: grad * exp(input) (the saved result)."""
    with np.errstate(over="ignore", invalid="ignore"):    # (invalid: a signalling NaN input)
        return save_result(result(_float_ufunc(_exp_array, input), ExpBackward0, (input,)))


class LogBackward0(Node):
    """result = log(self)   ->   grad_self = grad / self"""

    _saved_names = ('self',)      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        return (grad / a,)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / self"""
        return tangents[0] / inputs[0]


def with_positive_new_nans(ufunc):
    """``ufunc`` whose NaNs for numbers outside its domain (log of a negative number) have their
    sign bit clear, as PyTorch's log, log2 and log10 give them (numpy's are negative on x86);
    a NaN input keeps its own."""
    def elementwise(array):
        out = ufunc(array)
        new = np.isnan(out) & ~np.isnan(array)
        return np.where(new, np.abs(out), out) if new.any() else out
    elementwise.__name__ = ufunc.__name__
    return elementwise


_log_positive_nans = keeping_nan_inputs(with_positive_new_nans(np.log))
_positive_nan_sqrt = with_positive_new_nans(np.sqrt)


def log(input):
    """Natural logarithm elementwise. Gradient: grad / input."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return result(_float_ufunc(_log_positive_nans, input), LogBackward0, (input,), saved=(input,))


class Log1PBackward0(Node):
    """result = log(1 + self)   ->   grad_self = grad / (1 + self)"""

    _saved_names = ('self',)      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        # (PyTorch's C++ self + 1 is add with a Scalar: AddBackward1 under create_graph)
        return (grad / add_number(a, 1),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t / (1 + self)"""
        return tangents[0] / (inputs[0] + 1)


def log1p(input):
    """log(1 + input) elementwise, accurate for small input. Gradient: grad / (1 + input)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return result(_float_ufunc(_log1p_array, input), Log1PBackward0, (input,), saved=(input,))


class SinBackward0(Node):
    """result = sin(self)   ->   grad_self = grad * cos(self)"""

    _saved_names = ('self',)      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        return (grad * cos(a),)

    def jvp(self, tangents, inputs, out):
        """result_t = cos(self) * self_t"""
        return tangents[0] * cos(inputs[0])


def _float16_all_ones_nans(array):
    """sin, cos and tan of a float16 infinity: PyTorch's NaN with every bit set (float32's is x86's)."""
    return ALL_ONES_NAN[2] if array.itemsize == 2 else None


_sin_array, _cos_array, _tan_array = (with_new_nans(ufunc, _float16_all_ones_nans)
                                      for ufunc in (np.sin, np.cos, np.tan))
_sin_array, _cos_array = keeping_nan_inputs(_sin_array), keeping_nan_inputs(_cos_array)


def sin(input):
    """sin(input) elementwise. Gradient: grad * cos(input)."""
    with np.errstate(invalid="ignore"):       # sin(inf) = nan, silently
        return result(_float_ufunc(_sin_array, input), SinBackward0, (input,), saved=(input,))


class CosBackward0(Node):
    """result = cos(self)   ->   grad_self = -grad * sin(self)"""

    _saved_names = ('self',)      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        return (grad * -sin(a),)

    def jvp(self, tangents, inputs, out):
        """result_t = -sin(self) * self_t"""
        return tangents[0] * -sin(inputs[0])


def cos(input):
    """cos(input) elementwise. Gradient: -grad * sin(input)."""
    with np.errstate(invalid="ignore"):
        return result(_float_ufunc(_cos_array, input), CosBackward0, (input,), saved=(input,))


class TanBackward0(Node):
    """result = tan(self)   ->   grad_self = grad * (1 + result**2)"""

    _saved_names = ('result',)      # grad_fn._saved_result, ... as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        # (PyTorch's C++ 1 + result.pow(2) is add with a Scalar: AddBackward1 under create_graph)
        return (grad * add_number(out ** 2, 1),)

    def jvp(self, tangents, inputs, out):
        """result_t = (1 + result**2) * self_t"""
        return tangents[0] * (1 + out * out)


def tan(input):
    """tan(input) elementwise. Gradient: grad * (1 + tan(input)**2)."""
    with np.errstate(invalid="ignore"):
        return save_result(result(_float_ufunc(_tan_array, input), TanBackward0, (input,)))


# --- activations ----------------------------------------------------------------------------

class TanhBackward0(Node):
    """result = tanh(self)   ->   grad_self = grad * (1 - result**2)"""

    _saved_names = ('result',)      # grad_fn._saved_result, ... as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (tanh_backward(grad, out),)

    def jvp(self, tangents, inputs, out):
        """result_t = (1 - result**2) * self_t"""
        return tangents[0] * (1 - out * out)


def tanh(input):
    """Hyperbolic tangent elementwise. Gradient: grad * (1 - t**2), t the saved result."""
    return save_result(result(_float_ufunc(_tanh_array, input), TanhBackward0, (input,)))


def _sigmoid_array(array):
    """1 / (1 + e**-a) of a float array. float32 gives PyTorch's own bits: its kernel takes
    e**-a from SLEEF for whole vectors of numbers and from the C library for the few left
    over (see _vectorized_loop). Other dtypes use numpy's exp, which may differ in the last bit."""
    if array.dtype == np.float32:
        return _vectorized_loop.elementwise(array, _sigmoid_float32_vectorized,
                                            _sigmoid_float32_scalar, lanes=8)
    if array.dtype == np.float64:         # the same steps, with SLEEF's float64 exp
        return _vectorized_loop.elementwise(array, _sigmoid_float64_vectorized,
                                            _sigmoid_float64_scalar, lanes=4)
    # Written so that neither exp overflows: for large negative a, use e^a / (1 + e^a).
    # np.where computes both branches; the one it discards may overflow (inf / inf), so
    # numpy's warnings about it are silenced (PyTorch prints nothing there either).
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(array >= 0, 1 / (1 + np.exp(-array)), np.exp(array) / (1 + np.exp(array)))


def _silu_array(array):
    """x / (1 + e**-x) of a float array, PyTorch's silu: for float32 with its own bits, the
    exponential from SLEEF for whole vectors and from the C library for the rest (as sigmoid)."""
    if array.dtype == np.float32:
        return _vectorized_loop.elementwise(array, _silu_float32_vectorized, _silu_float32_scalar,
                                            lanes=8)
    if array.dtype == np.float64:
        return _vectorized_loop.elementwise(array, _silu_float64_vectorized, _silu_float64_scalar,
                                            lanes=4)
    return array * _sigmoid_array(array)


def _silu_float32_vectorized(array):
    """x / (1 + exp(-x)) with SLEEF's exp (a division, not a product with the sigmoid)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return array / (np.float32(1) + _sleef_mathfun.exp(-array))


def _silu_float32_scalar(array):
    """The same with the C library's expf (see _sigmoid_float32_scalar)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return array / (np.float32(1) + _c_library_expf.expf(-array))


def _sigmoid_float32_vectorized(array):
    """PyTorch's vector formula: 1 / (1 + exp(-a)), SLEEF's exp, every step in float32."""
    with np.errstate(over="ignore"):
        return np.float32(1) / (np.float32(1) + _sleef_mathfun.exp(-array))


def _sigmoid_float32_scalar(array):
    """PyTorch's one-number formula: the same steps with the C library's expf (numpy's float32
    exp is another formula, and float64's exp rounded to float32 misses expf's last bit now and
    then: see _c_library_expf)."""
    with np.errstate(over="ignore"):
        return np.float32(1) / (np.float32(1) + _c_library_expf.expf(-array))


def _sigmoid_float64_vectorized(array):
    """PyTorch's vector formula in float64: 1 / (1 + exp(-a)), SLEEF's exp (see _sleef_pow)."""
    with np.errstate(over="ignore"):
        return 1 / (1 + _sleef_pow.exp(-array))


def _sigmoid_float64_scalar(array):
    """PyTorch's one-number formula in float64: the C library's exp, as numpy's."""
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-array))


def _silu_float64_vectorized(array):
    """x / (1 + exp(-x)) in float64 with SLEEF's exp."""
    with np.errstate(over="ignore", invalid="ignore"):
        return array / (1 + _sleef_pow.exp(-array))


def _silu_float64_scalar(array):
    """The same with the C library's exp."""
    with np.errstate(over="ignore", invalid="ignore"):
        return array / (1 + np.exp(-array))


class SigmoidBackward0(Node):
    """result = 1 / (1 + e ** -self)   ->   grad_self = grad * result * (1 - result)"""

    _saved_names = ('result',)      # grad_fn._saved_result, ... as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (sigmoid_backward(grad, out),)

    def jvp(self, tangents, inputs, out):
        """result_t = result * (1 - result) * self_t"""
        return tangents[0] * out * (1 - out)


def sigmoid(input):
    """1 / (1 + e**-input) elementwise. Gradient: grad * s * (1 - s), s the saved result."""
    array = input._array if input._array.dtype.kind == "f" else input._array.astype(_dtype.DEFAULT_FLOAT)
    return save_result(result(like_its_input(_sigmoid_array(array).astype(array.dtype, copy=False), array),
                              SigmoidBackward0, (input,)))


class ReluBackward0(Node):
    """result = max(self, 0)   ->   grad_self = grad where result > 0, else 0"""

    _saved_names = ('result',)      # grad_fn._saved_result, ... as in PyTorch

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (threshold_backward(grad, out),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where self > 0, else 0"""
        return tangents[0] * _wrap(inputs[0]._array > 0)


# With create_graph=True a backward formula is itself recorded, so it can be
# differentiated again. PyTorch records some of them as one node of their own
# ("...BackwardBackward0"), with edges to the incoming gradient and to the saved result.

class ThresholdBackwardBackward0(Node):
    """result = g where self > threshold, else 0 (relu's and threshold's backward, recorded)   ->
        grad_g = grad where self > threshold, else 0; grad_self = 0

    (For relu, self is relu's saved result and threshold 0.) Linear in g, and the slope
    does not change with self: nothing flows to self, but PyTorch still hands it zeros."""

    _saved_names = ('self',)      # grad_fn._saved_self, ... as in PyTorch; _saved_threshold the number

    def backward(self, grad):
        (out,) = self.saved_tensors
        d_grad = threshold_backward(grad, out, self.threshold) if self.should_compute_output(0) else None
        d_self = _wrap(np.zeros_like(grad._array)) if self.should_compute_output(1) else None
        return d_grad, d_self

    def jvp(self, tangents, inputs, out):
        """result_t = 0 * self_t + (g_t where self > threshold, else 0)"""
        # PyTorch adds zeros for self's tangent to it, which records an AddBackward0
        zeros = _wrap(np.zeros(inputs[1]._array.shape, dtype=tangents[0]._array.dtype))
        return zeros + threshold_backward(tangents[0], inputs[1], self.threshold)


def threshold_backward(grad, out, threshold=0):
    """``grad``, with zeros where ``out <= threshold``: relu's backward (a NaN output passes grad
    on, as PyTorch's ``out <= threshold ? 0 : grad`` does), and F.threshold's."""
    g = grad._array
    if threshold and out._array.dtype is _FLOAT16:
        threshold = np.float32(threshold)      # (compared in float32: see opmath_bound)
    unsigned = _SAME_SIZE_UNSIGNED.get(g.dtype.itemsize)
    if unsigned is not None and g.dtype.kind == "f" and g.shape == out._array.shape:
        # np.where picks element by element, slowly when the mask looks random (a layer's
        # ReLU); grad's bits read as unsigned integers and multiplied by 1 (kept) or 0 (cleared
        # to +0.0) give exactly the same array, NaN and -0.0 included, about 10x faster
        keep = np.asarray(out._array <= threshold)          # (an array even when 0-d)
        np.logical_not(keep, out=keep)                      # True where grad passes, NaN too
        array = np.empty(g.shape, g.dtype)                  # (its own memory: a new tensor)
        np.multiply(g.view(unsigned), keep, out=array.view(unsigned))
    else:
        array = np.where(out._array <= threshold, g.dtype.type(0), g)
    return result(array, ThresholdBackwardBackward0, (grad, out), saved=(out,), threshold=threshold)


_SAME_SIZE_UNSIGNED = {2: np.uint16, 4: np.uint32, 8: np.uint64}


class SigmoidBackwardBackward0(Node):
    """result = g * out * (1 - out) (sigmoid's backward, recorded)   ->
        grad_g = grad * out * (1 - out); grad_out = grad * g * (-2 out + 1)"""

    _saved_names = ('grad_output', 'output')      # grad_fn._saved_grad_output, ... as in PyTorch

    def backward(self, grad):
        grad_output, out = self.saved_tensors
        d_grad = sigmoid_backward(grad, out) if self.should_compute_output(0) else None
        d_out = None
        if self.should_compute_output(1):
            # PyTorch's formula grad * grad_output * (-2 * out + 1): its C++ makes the
            # right-hand factor's nodes first (MulBackward1, AddBackward1)
            slope = add_number(mul_by_number(out, -2), 1)
            d_out = grad * grad_output * slope
        return d_grad, d_out


def sigmoid_backward(grad, out):
    """grad * (1 - out) * out: sigmoid's backward from its result, recorded as one operation
    (SigmoidBackwardBackward0) as in PyTorch (multiplied in PyTorch's order, for its last bit)."""
    g, s = grad._array, out._array
    return _recorded_backward(g * (1 - s) * s, SigmoidBackwardBackward0, grad, out)


class TanhBackwardBackward0(Node):
    """result = g * (1 - out**2) (tanh's backward, recorded)   ->
        grad_g = grad * (1 - out**2); grad_out = grad * (-2 out * g)"""

    _saved_names = ('grad_output', 'output')      # grad_fn._saved_grad_output, ... as in PyTorch

    def backward(self, grad):
        grad_output, out = self.saved_tensors
        d_grad = tanh_backward(grad, out) if self.should_compute_output(0) else None
        d_out = None
        if self.should_compute_output(1):
            # PyTorch's formula grad * (-2 * out * grad_output), its steps in its order
            d_out = grad * (mul_by_number(out, -2) * grad_output)
        return d_grad, d_out


def tanh_backward(grad, out):
    """grad * (1 - out**2): tanh's backward from its result, recorded as one operation
    (TanhBackwardBackward0) as in PyTorch."""
    g, t = grad._array, out._array
    return _recorded_backward(g * (1 - t * t), TanhBackwardBackward0, grad, out)


def _recorded_backward(array, node_class, grad, out):
    """A backward formula's result, recorded as one node with edges to grad and out."""
    return result(backward_kernel_layout(array, grad, out), node_class, (grad, out), saved=(grad, out))


def backward_kernel_layout(values, grad, x):
    """The array ``values`` of a pointwise backward kernel of (grad, x) (sigmoid_backward,
    elu_backward...), laid out as PyTorch's kernel lays out its new result: like grad when the
    two disagree (a transposed grad gives a transposed gradient, which AccumulateGrad must then
    copy into its leaf's layout: that copy_ counts as a change of .grad, version 1)."""
    return laid_out_as_pytorch(np.asarray(values), grad._array, x._array)


def _maximum_keeps_first_on_ties(dtype):
    """Which operand numpy's maximum returns when both compare equal (-0.0 == 0.0).

    numpy does not promise one: its float32/float64 loops (SIMD) return the second,
    its float16 loop the first. PyTorch's relu and clamp keep the input on a tie
    (relu(-0.0) is -0.0), so minigrad asks numpy once, here, and puts the input on
    the side numpy keeps. None: the answer was mixed (then relu takes a slower, exact way).
    """
    minus_zeros = np.full(37, -0.0, dtype)         # long enough for SIMD lanes and a tail
    kept_sign = np.signbit(np.maximum(minus_zeros, np.zeros_like(minus_zeros)))
    return True if kept_sign.all() else False if not kept_sign.any() else None


_MAXIMUM_KEEPS_FIRST = {np.dtype(t): _maximum_keeps_first_on_ties(t)
                        for t in (np.float16, np.float32, np.float64)}


def relu(input):
    """max(input, 0) elementwise. Gradient: grad where input > 0, else 0 (0 at exactly 0, as in PyTorch).

    As in PyTorch, only a negative input becomes 0: -0.0 and NaN come out unchanged.
    """
    array = input._array
    if array.dtype.kind == "b":
        raise RuntimeError("Boolean inputs not supported for relu")
    keeps_first = _MAXIMUM_KEEPS_FIRST.get(array.dtype, True)    # (integers: no -0, any order)
    if keeps_first is None:
        out = np.where(array < 0, array.dtype.type(0), array)
    else:
        # (a zero of the array's dtype: compared without a conversion, one pass over the array)
        zero = array.dtype.type(0)
        out = like_its_input(np.maximum(array, zero) if keeps_first else np.maximum(zero, array), array)
    return save_result(result(out, ReluBackward0, (input,)))


class AbsBackward0(Node):
    """result = |self|   ->   grad_self = grad * sign(self) (0 at self = 0)"""

    _saved_names = ('self',)      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        return (grad * sgn(a),)

    def jvp(self, tangents, inputs, out):
        """result_t = sign(self) * self_t"""
        return tangents[0] * sign(inputs[0])


def abs(input):
    """|input| elementwise. Gradient: grad * sign(input) (0 at 0, as in PyTorch)."""
    if input._array.dtype.kind == "b":
        raise kernel_not_implemented("abs_cpu", input)
    out = result(like_its_input(np.abs(input._array), input._array), AbsBackward0, (input,), saved=(input,))
    return kernel_writes("abs", out, input)


class SignBackward0(Node):
    """result = sign(self) (-1, 0 or 1)   ->
        grad_self = 0 (flat everywhere except the jump at 0)"""

    def backward(self, grad):
        return (_zeros_laid_out_like(grad),)

    def jvp(self, tangents, inputs, out):
        """result_t = 0"""
        return tangents[0] * 0


class SgnBackward0(Node):
    """result = sgn(self) (-1, 0 or 1; for real numbers the same as sign)   ->   grad_self = 0"""

    # (PyTorch's formula, written for complex numbers too, reads both: its node keeps them)
    _saved_names = ("self", "result")       # grad_fn._saved_self, grad_fn._saved_result

    def backward(self, grad):
        self.saved_tensors         # (unpacked, so checked for in-place changes, as in PyTorch)
        zeros = _wrap(np.zeros(grad.shape, grad._array.dtype))     # (new zeros in row-major order)
        return (_as_zero_tensor(zeros),)   # (PyTorch's is a ZeroTensor: see _zero_tensor.py)


def _zeros_laid_out_like(grad):
    """PyTorch's zeros_like(grad), without history: laid out as grad is (an empty gradient
    expanded from a sum keeps its zero steps, which decides whether a leaf adopts it)."""
    from .._creation import zeros_like      # (the creation functions are built on these ops)
    return zeros_like(grad)


def sgn(input):
    """The sign of each element, as ``sign`` (for real numbers they agree; for complex ones
    PyTorch's sgn is z / |z|). PyTorch's abs uses it in its derivative."""
    array = input._array
    signs = _signs(array) if array.dtype.kind != "b" else array.copy()   # (a bool is its own sign)
    return save_result(result(like_its_input(signs, array), SgnBackward0, (input,)), input)


def _signs(array):
    """np.sign, except that the sign of NaN is 0, as in PyTorch."""
    signs = np.sign(array)
    if signs.dtype.kind == "f" and np.isnan(signs).any():
        signs = np.where(np.isnan(signs), signs.dtype.type(0), signs)
    return signs


def sign(input):
    """-1, 0 or 1 for each element. Recorded like in PyTorch, although its gradient is always 0."""
    try:
        return result(like_its_input(_signs(input._array), input._array), SignBackward0, (input,))
    except TypeError:           # numpy has no sign of bools; PyTorch's is the value itself
        return result(input._array.copy(), SignBackward0, (input,))


class ClampBackward1(Node):
    """result = min(max(self, min), max)   ->   grad_self = grad where min <= self <= max, else 0"""

    _saved_names = ('self',)      # grad_fn._saved_self, ... as in PyTorch

    def backward(self, grad):
        (a,) = self.saved_tensors
        return (where(_wrap(_inside(a._array, self.low, self.high)), grad, 0.0),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where min <= self <= max, else 0"""
        return tangents[0] * _wrap(_inside(inputs[0]._array, self.low, self.high))


def _inside(array, low, high):
    """Where low <= array <= high (a missing bound holds everywhere), laid out as ``array`` is,
    as PyTorch's comparisons are (so a gradient through x.t().clamp(...) comes back laid out
    as x)."""
    if low is None:
        return array <= high if high is not None else np.ones_like(array, dtype=bool)
    return (array >= low) & (array <= high) if high is not None else array >= low


def clip_keeping_input_on_ties(array, low, high):
    """numpy's clip, except that an input equal to a bound is kept, as PyTorch keeps it.

    Only signed zeros can tell the two apart: a bound of 0 ties with an input of -0.0
    (and -0.0 with 0.0). PyTorch keeps the input (clamp(-0.0, min=0) is -0.0); numpy's
    clip may give the bound, depending on the dtype.
    """
    # (a bound the dtype cannot hold is refused, as PyTorch refuses it: see checked_number)
    low, high = (None if bound is None else checked_number(bound, array.dtype) for bound in (low, high))
    out = np.asarray(np.clip(array, low, high))      # (an array also for a 0-d input)
    if out.dtype == array.dtype and out.dtype.kind == "f" and 0 in (low, high):
        np.copyto(out, array, where=out == array)
    return out


def clamp(input, min=None, max=None):
    """Limit every element to [min, max] (either bound may be None).

    Gradient: grad where min <= input <= max, 0 where it was clamped (PyTorch: the bounds
    themselves count as inside).
    """
    if min is None and max is None:
        check_history_kept(input)        # PyTorch records clamp before it checks the bounds
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    for bound in (min, max):
        if bound is not None and not isinstance(bound, _PYTHON_NUMBERS + (np.number, Tensor)):
            bounds = {k: v for k, v in (("min", min), ("max", max)) if v is not None}
            raise invalid_combination("clamp", (), bounds)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _clamp_tensors(input, min, max)
    return _clamp_numbers(input, min, max, ClampBackward1)


def _clamp_numbers(input, low, high, node_class, **bound):
    """clamp with number bounds (either may be None), recorded as ``node_class``."""
    if input._array.dtype.kind != "f" and low is not None and high is not None:
        _check_bounds_promote(low, high)
    # the result's dtype comes from both bounds (a bool tensor clamped to (True, 1) is int64)
    dtype = result_type(input, *(bound for bound in (low, high) if bound is not None))
    if dtype == np.bool_:               # bools between bools: PyTorch has no such kernel
        kernel = "clamp" if low is not None and high is not None else \
            "clamp_min" if low is not None else "clamp_max"
        raise NotImplementedError(f'"{kernel}_scalar_cpu" not implemented for \'Bool\'')
    # each bound converted to the dtype as PyTorch's checked conversion does (uint8: -1 is 255)
    low_value, high_value = (_dtype.checked_scalar(number, dtype) if type(number) in (int, float) else number
                             for number in (low, high))
    array = input._array if input._array.dtype == dtype else input._array.astype(dtype)
    out = like_its_input(clip_keeping_input_on_ties(array, low_value, high_value), input._array)
    if out.dtype != dtype:
        out = out.astype(dtype)
    return result(np.asarray(out), node_class, (input,), saved=(input,), low=low, high=high, **bound)


def _check_bounds_promote(low, high):
    """An integer tensor's two number bounds are promoted together first: a uint64 one (from
    2**63 up) with an int or a bool has no common dtype for PyTorch."""
    names = ["Bool" if type(b) is bool else ("UInt64" if b >= 2**63 else "Long") if type(b) is int else None
             for b in (low, high)]
    if "UInt64" in names and None not in names and names[0] != names[1]:
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to "
                           f"promote {names[0]} and {names[1]}")


class ClampMinBackward0(ClampBackward1):
    """result = clamp_min(self, min), min a number   ->   grad_self = grad where self >= min, else 0"""

    _saved_names = ("self",)       # grad_fn._saved_self; _saved_min is the number


class ClampMaxBackward0(ClampBackward1):
    """result = clamp_max(self, max), max a number   ->   grad_self = grad where self <= max, else 0"""

    _saved_names = ("self",)       # grad_fn._saved_self; _saved_max is the number


class ClampMinBackward1(Node):
    """result = clamp_min(self, min), min a tensor   ->
        grad_self = where(self >= min, grad, 0); grad_min = where(self < min, grad, 0)"""

    _saved_names = ("self", "min")      # grad_fn._saved_self, grad_fn._saved_min
    _pack_order = (1, 0)      # PyTorch's saved-tensor hooks see min first

    def backward(self, grad):
        a, low = self.saved_tensors
        kept = _wrap(laid_out_as_pytorch(a._array >= low._array, a._array, low._array))
        return _split_by(self, grad, kept)


class ClampMaxBackward1(Node):
    """result = clamp_max(self, max), max a tensor   ->
        grad_self = where(self <= max, grad, 0); grad_max = where(self > max, grad, 0)"""

    _saved_names = ("self", "max")      # grad_fn._saved_self, grad_fn._saved_max
    _pack_order = (1, 0)      # PyTorch's saved-tensor hooks see max first

    def backward(self, grad):
        a, high = self.saved_tensors
        kept = _wrap(laid_out_as_pytorch(a._array <= high._array, a._array, high._array))
        return _split_by(self, grad, kept)


def _split_by(node, grad, kept):
    """grad to self where the input was ``kept``, to the bound elsewhere (a tie goes to self)."""
    zero = _wrap(np.zeros((), dtype=grad._array.dtype))
    grad_self = where(kept, grad, zero) if node.should_compute_output(0) else None
    grad_bound = where(kept, zero, grad) if node.should_compute_output(1) else None
    return grad_self, grad_bound


_NOT_GIVEN = object()


def _check_one_bound(name, input, bound):
    if not isinstance(bound, _PYTHON_NUMBERS + (np.number, Tensor)):
        raise invalid_combination(name, (input,) if bound is _NOT_GIVEN else (input, bound), {})


def _with_pytorchs_nan(ufunc):
    """np.maximum or np.minimum with the NaN PyTorch's kernel writes where an input is NaN (it
    shows in the bits, x.view(torch.int32)): not the input's own, but the C library's quiet NaN
    (sign bit clear) from the one-number formula, and all bits set from the vector formula
    (a comparison's mask ORed in), as ``_vectorized_loop`` tells which numbers get which."""
    def pick(a, b):
        out = ufunc(a, b)
        if out.dtype not in (np.float32, np.float64) or not np.isnan(out).any():
            return out
        lanes = 32 // out.dtype.itemsize          # (an AVX2 vector holds 32 bytes)
        in_vectors = _vectorized_loop.elementwise_pair(
            np.asarray(a), np.asarray(b), lambda x, y: np.ones(x.shape), lambda x, y: np.zeros(x.shape), lanes)
        all_bits = np.array(-1, dtype=np.int32 if lanes == 8 else np.int64).view(out.dtype)
        nan = np.where(in_vectors != 0, all_bits, out.dtype.type(np.nan))
        return np.where(np.isnan(out), nan, out).astype(out.dtype, copy=False)
    return pick


_maximum, _minimum = _with_pytorchs_nan(np.maximum), _with_pytorchs_nan(np.minimum)


def clamp_min(input, min=_NOT_GIVEN):
    """max(input, min) elementwise: clamp from below only (``min`` a number or a tensor).

    Gradient: grad where input >= min, else 0 (ClampMinBackward0); a tensor ``min`` gets
    grad where input < min (ClampMinBackward1).
    """
    _check_one_bound("clamp_min", input, min)
    if isinstance(min, Tensor):
        return result(_binary(_maximum, input, min, SAVES_BOTH), ClampMinBackward1, (input, min), saved=(input, min))
    return _clamp_numbers(input, min, None, ClampMinBackward0, min=min)


def clamp_max(input, max=_NOT_GIVEN):
    """min(input, max) elementwise: clamp from above only (``max`` a number or a tensor).

    Gradient: grad where input <= max, else 0 (ClampMaxBackward0); a tensor ``max`` gets
    grad where input > max (ClampMaxBackward1).
    """
    _check_one_bound("clamp_max", input, max)
    if isinstance(max, Tensor):
        return result(_binary(_minimum, input, max, SAVES_BOTH), ClampMaxBackward1, (input, max), saved=(input, max))
    return _clamp_numbers(input, None, max, ClampMaxBackward0, max=max)


class ClampBackward0(Node):
    """result = min(max(self, min), max), tensor bounds   ->
        grad_self = where(min <= self <= max, grad, 0);
        grad_min = where(self < min and min < max, grad, 0);
        grad_max = where(self > max or max < min, grad, 0)"""

    _saved_names = ('self', 'min', 'max')      # grad_fn._saved_self, ... as in PyTorch
    _pack_order = (2, 1, 0)      # PyTorch's saved-tensor hooks see max, min, then self

    def backward(self, grad):
        a, low, high = self.saved_tensors
        zero = _wrap(np.zeros((), dtype=grad._array.dtype))
        inside = np.ones(np.broadcast_shapes(a.shape, grad.shape), dtype=bool)
        grad_low = grad_high = None
        if low is not None:
            inside = inside & (a._array >= low._array)
        if high is not None:
            inside = inside & (a._array <= high._array)
        if low is not None and self.should_compute_output(1):
            below = a._array < low._array
            if high is not None:        # when min > max the result is max: min gets nothing
                below = below & (low._array < high._array)
            grad_low = where(_wrap(below), grad, zero)
        if high is not None and self.should_compute_output(2):
            above = a._array > high._array
            if low is not None:
                above = above | (high._array < low._array)
            grad_high = where(_wrap(above), grad, zero)
        grad_self = where(_wrap(inside), grad, zero) if self.should_compute_output(0) else None
        return grad_self, grad_low, grad_high


def _clamp_tensors(input, min, max):
    """clamp with tensor bounds: each bound broadcasts and, like PyTorch, gets a gradient."""
    if not (min is None or isinstance(min, Tensor)) or not (max is None or isinstance(max, Tensor)):
        raise TypeError("clamp() received an invalid combination of arguments: min and max must "
                        "both be tensors (or None), or both numbers")
    out = input._array
    # PyTorch records clamp (saving all three) before it broadcasts the bounds
    check_history_kept(input, min, max, saves=((0, 1, 2),) * 3)
    if min is not None:
        out = _binary(np.maximum, input, min)
    if max is not None:
        out = _binary(np.minimum, _wrap(out), max)
    return result(np.asarray(out), ClampBackward0, (input, min, max), saved=(input, min, max))


def _compared_as_pytorch(a, b, dtype):
    """The arrays of maximum's/minimum's inputs as PyTorch's comparisons in their gradient see
    them: in the result's dtype (a 0-d float64 and a float32 vector compare in float32, so
    numbers that float32 rounds together tie)."""
    return a._array.astype(dtype, copy=False), b._array.astype(dtype, copy=False)


def _gradient_of_pick(node, i, grad, a, b, lost):
    """maximum/minimum's gradient for input ``i``: grad where it was picked, half of it on a
    tie, 0 where it ``lost``. Written with PyTorch's recorded operations,
    where(a == b, grad / 2, grad).masked_fill_(lost, 0), so that a second-order graph
    shows the same nodes (and, filled in place, the gradient is at version 1). ``a`` and ``b``:
    the inputs' arrays, in the result's dtype."""
    if not node.should_compute_output(i):
        return None
    # (in place, as PyTorch's formula: the result keeps where's layout, that of a and b)
    tie = laid_out_as_pytorch(a == b, a, b)
    shared = where(_wrap(tie), div_by_number(grad, 2), grad)
    return shared.masked_fill_(_wrap(lost), 0)


class MaximumBackward0(Node):
    """result = maximum(self, other)   ->
        grad_self = grad where self > other, grad / 2 on ties, else 0;
        grad_other = grad where other > self, grad / 2 on ties, else 0"""

    _saved_names = ('self', 'other')      # grad_fn._saved_self, ... as in PyTorch
    _pack_order = (1, 0)      # PyTorch's saved-tensor hooks see the second one first

    def backward(self, grad):
        a, b = _compared_as_pytorch(*self.saved_tensors, grad._array.dtype)
        return (_gradient_of_pick(self, 0, grad, a, b, a < b),
                _gradient_of_pick(self, 1, grad, a, b, a > b))

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where self > other, other_t where other > self, (self_t + other_t) / 2 on ties"""
        (a, b), (a_t, b_t) = inputs, tangents
        a_wins = ((a._array > b._array) + 0.5 * (a._array == b._array)).astype(out._array.dtype)
        return a_t * _wrap(a_wins) + b_t * _wrap(1 - a_wins)


def maximum(input, other):
    """The larger of input and other elementwise. Gradient: to the larger one (halved for each on a tie)."""
    return result(_binary(_maximum, input, other, SAVES_BOTH), MaximumBackward0, (input, other),
                  saved=(input, other))


class MinimumBackward0(Node):
    """result = minimum(self, other)   ->
        grad_self = grad where self < other, grad / 2 on ties, else 0;
        grad_other = grad where other < self, grad / 2 on ties, else 0"""

    _saved_names = ('self', 'other')      # grad_fn._saved_self, ... as in PyTorch
    _pack_order = (1, 0)      # PyTorch's saved-tensor hooks see the second one first

    def backward(self, grad):
        a, b = _compared_as_pytorch(*self.saved_tensors, grad._array.dtype)
        return (_gradient_of_pick(self, 0, grad, a, b, a > b),
                _gradient_of_pick(self, 1, grad, a, b, a < b))

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where self < other, other_t where other < self, (self_t + other_t) / 2 on ties"""
        (a, b), (a_t, b_t) = inputs, tangents
        a_wins = ((a._array < b._array) + 0.5 * (a._array == b._array)).astype(out._array.dtype)
        return a_t * _wrap(a_wins) + b_t * _wrap(1 - a_wins)


def minimum(input, other):
    """The smaller of input and other elementwise. Gradient: to the smaller one (halved for each on a tie)."""
    return result(_binary(_minimum, input, other, SAVES_BOTH), MinimumBackward0, (input, other),
                  saved=(input, other))


class WhereBackward0(Node):
    """result = self where condition, else other   ->
        grad_self = grad where condition, else 0; grad_other = grad where not condition, else 0

    Like PyTorch, the node has edges to a and b only: the condition is a bool
    tensor, which can never need a gradient.
    """

    _saved_names = ('condition',)      # grad_fn._saved_condition, ... as in PyTorch

    def backward(self, grad):
        (condition,) = self.saved_tensors
        # PyTorch's where(condition, grad, 0): a plain 0, not grad * 0 (NaN * 0 is NaN, and
        # an unselected NaN or inf must not reach the other input)
        zero = _wrap(np.zeros((), dtype=grad._array.dtype))
        return where(condition, grad, zero), where(condition, zero, grad)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where condition, else other_t"""
        (condition,), (a_t, b_t) = self.saved_tensors, tangents
        return where(condition, a_t, b_t)


def where(condition, input=None, other=None):
    """Pick ``input`` where ``condition`` is True, else ``other``, element by element.

    With the condition alone, ``where(condition)`` is ``nonzero(condition, as_tuple=True)``:
    one index tensor per dimension, listing where the condition holds.

    Gradient: grad to ``input`` where condition holds, to ``other`` elsewhere; none to the
    condition.
    """
    if input is None and other is None:
        if _FuncTransforms.vmaps:
            _refuse_dynamic_shape("aten::where", condition)
        return nonzero(condition, as_tuple=True)
    if input is None or other is None:
        raise invalid_combination("where", tuple(a for a in (condition, input, other)
                                                 if a is not None), {})
    condition = as_tensor(condition)
    if condition._array.dtype.kind != "b":
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {cpp_name(condition.dtype).capitalize()}")
    # The result's dtype first, from the operands as given: a Python number such as
    # 0.5 next to an int tensor makes the result float (it must not be cast to int).
    dtype = result_type(input, other)
    # PyTorch's checked conversion of a number to the result's dtype (uint8: -1 is 255; float32
    # refuses 1e39), but for float16, whose numbers become inf as they are cast
    input, other = (_dtype.checked_scalar(value, dtype) if type(value) in (int, float) and dtype != _FLOAT16
                    else value for value in (input, other))
    # With a number, PyTorch converts the tensor to the result's dtype first (recorded as
    # ToCopyBackward0: an integer tensor that an in-place change gave history)
    input, other = _converted_for_where(input, other, dtype), _converted_for_where(other, input, dtype)
    try:
        out = np.where(condition._array, input._array, other._array).astype(dtype, copy=False)
        out = laid_out_as_pytorch(out, *(pytorch_steps_of(value, value._array)
                                         for value in (condition, input, other)))
    except ValueError:
        check_history_kept(input, other)
        # PyTorch broadcasts condition with input, then the two with other
        try:
            np.broadcast_shapes(condition._array.shape, input._array.shape)
        except ValueError:
            raise _broadcast_error(condition, input) from None
        raise _broadcast_error(np.empty(np.broadcast_shapes(condition._array.shape, input._array.shape),
                                        dtype=bool), other) from None
    return result(out, WhereBackward0, (input, other), saved=(condition,))


def _converted_for_where(value, partner, dtype):
    """``value`` (where's input or other) as a tensor of ``dtype``: a number as such, a tensor
    next to a number converted by ``to`` (a tensor next to a tensor is left as it is)."""
    if not isinstance(value, Tensor):
        # PyTorch refuses a number the result's dtype cannot hold (int8 and 1000, float32 and
        # 1e39: see checked_number), except for float16, where it rounds 70000 to inf
        if dtype is not _FLOAT16:
            value = checked_number(value, dtype)
        with np.errstate(over="ignore"):
            return _wrap(np.asarray(value, dtype=dtype))
    if not isinstance(partner, Tensor) and value._array.dtype != dtype:
        return value.to(_dtype.from_numpy_dtype(dtype))
    return value


def _refuse_dynamic_shape(name, input):
    """Inside vmap, each sample of a batched input could have a different number of
    non-zero elements: PyTorch refuses to batch that."""
    if getattr(input, "_vmap_levels", 0):
        raise RuntimeError(
            "vmap: We do not support batching operators that can output dynamic shape. Attempted "
            f"to vmap over {name}. Please file an issue at https://github.com/pytorch/pytorch/issues "
            "if you need this feature.")


def nonzero(input, *, as_tuple=False):
    """Indices of the non-zero elements: one row per element, or (as_tuple) one tensor per dim."""
    if _FuncTransforms.vmaps and input._vmap_levels:
        if as_tuple:
            raise RuntimeError("Batching rule not implemented for aten::nonzero_numpy. We could not "
                               "generate a fallback.")
        _refuse_dynamic_shape("aten::nonzero", input)
    if as_tuple:
        # (PyTorch's pieces are the columns of the one-row-per-element result: views, as unbind
        # makes them, which an in-place change of one of them then refuses as unbind's outputs)
        return nonzero(input.unsqueeze(0) if input.ndim == 0 else input).unbind(1)
    array = input._array
    positions = np.nonzero(array.reshape(1) if array.ndim == 0 else array)
    if array.ndim == 0:
        return kernel_writes("nonzero", _wrap(np.zeros((len(positions[0]), 0), dtype=np.int64)), input)
    # one row per element, laid out column by column as PyTorch's result is (strides (1, N))
    return kernel_writes("nonzero", _wrap(np.stack(positions, axis=0).astype(np.int64).T), input)


def ones_like(t):
    return _wrap(np.ones_like(t._array))


# --- comparisons --------------------------------------------------------------------------

def compare(ufunc, input, other):
    """==, <, ... : a bool tensor, never recorded (comparisons have no useful gradient)."""
    if not isinstance(other, (Tensor, int, float, bool, np.generic, np.ndarray)):
        return NotImplemented            # x == None: Python then compares identities
    a_arr = input._array
    b_arr = other._array if isinstance(other, Tensor) else other
    if type(other) is int and (a_arr.dtype.kind in "iu" or not -2**63 <= other < 2**63):
        # PyTorch compares with the number as the tensor's dtype holds it (uint8 tensor == 257
        # compares with 1), where numpy compares with the number itself
        if result_type(input, other).kind in "iu":
            b_arr = wrapped_to(other, result_type(input, other))
    if isinstance(other, Tensor) and b_arr.dtype != a_arr.dtype:
        # PyTorch compares in the two tensors' common dtype, a 0-d one converted to it first
        # (int8 tensor < tensor(1000) compares with -24; float16 == float64 tensor(1.0001) with 1.0)
        common = result_type(input, other)
        a_arr, b_arr = _converted(a_arr, common), _converted(b_arr, common)
    try:
        out = np.asarray(ufunc(a_arr, b_arr))
    except ValueError:
        raise _broadcast_error(input, other) from None
    if not out.size:
        a_arr, b_arr = pytorch_steps_of(input, a_arr), pytorch_steps_of(other, b_arr)
    return plain_output(laid_out_as_pytorch(out, a_arr, b_arr), input, other)
