"""Rounding: round, floor, ceil, trunc, frac, and integer division // and remainder %.

round/floor/ceil/trunc are flat steps: a tiny change of the input does not
change the output, so their gradient is 0 everywhere (PyTorch ignores the
jumps too). frac(x) = x - trunc(x) therefore has gradient 1. The remainder
a % b = a - floor(a / b) * b has gradient 1 for a and -floor(a / b) for b.
PyTorch: torch.round, floor, ceil, trunc, frac, floor_divide, remainder.
"""
import numpy as np

from .._type_names import type_name
from .._tensor import Tensor, _wrap
from ..autograd.graph import Node, gets_gradient_edge
from ..autograd.kernel_writes import kernel_writes
from . import result
from .._dtype import result_type, wrapped_to
from .._python_arg_parser import invalid_combination
from .views import check_history_kept
from .pointwise import (DivBackward0, _binary, in_opmath, _own, vector_loop_nans, _broadcast_error, _operand_arrays,
                        check_shapes_fit, kernel_not_implemented, laid_out_as_pytorch, like_its_input)


class _StepBackward(Node):
    """result = a step function of self   ->   grad_self = 0 (flat between the jumps)"""

    def backward(self, grad):
        # zeros that depend on nothing (PyTorch's zeros_like): no second-order graph
        return (_wrap(np.zeros_like(grad._array)),)


class RoundBackward0(_StepBackward):
    """result = round(self) (halves to even)   ->   grad_self = 0"""


class RoundBackward1(_StepBackward):
    """result = round(self, decimals)   ->   grad_self = 0"""


class FloorBackward0(_StepBackward):
    """result = floor(self)   ->   grad_self = 0"""


class CeilBackward0(_StepBackward):
    """result = ceil(self)   ->   grad_self = 0"""


class TruncBackward0(_StepBackward):
    """result = self rounded towards 0   ->   grad_self = 0"""


def _step(numpy_function, input, node_class):
    array = input._array
    if array.dtype.kind in "biu":           # integers are already whole numbers
        if array.dtype.kind == "b":         # (PyTorch has no bool version of these kernels)
            raise kernel_not_implemented(f"{numpy_function.__name__}_vml_cpu", input)
        # (PyTorch clones the input: a copy_ that counts a version for inference tensors)
        return kernel_writes("clone", result(like_its_input(array.copy(), array), node_class, (input,)), input)
    return result(like_its_input(numpy_function(array), array), node_class, (input,))


def round(input, *, decimals=None):
    """Nearest whole number (halves go to the even neighbour, as in PyTorch and numpy), or with
    ``decimals`` digits after the point.

    Gradient: 0 everywhere (flat between the jumps), as in PyTorch. Given ``decimals`` (even 0),
    PyTorch runs its other overload, recorded as RoundBackward1 (torch.special.round always
    gives it).
    """
    if decimals is None:
        return _step(np.round, input, RoundBackward0)
    if not isinstance(decimals, (int, np.integer)) or isinstance(decimals, bool):
        raise TypeError(f"round(): argument 'decimals' must be int, not {type_name(decimals)}")
    if input._array.dtype.kind != "f":
        raise kernel_not_implemented("round_cpu" if decimals else "round_vml_cpu", input)
    # (PyTorch's RoundBackward1 keeps nothing: its gradient is 0 whatever decimals was)
    return result(np.round(input._array, decimals), RoundBackward1, (input,))


def floor(input):
    """The largest whole number <= x.

    Gradient: 0 everywhere (flat between the jumps), as in PyTorch.
    """
    return _step(np.floor, input, FloorBackward0)


def ceil(input):
    """The smallest whole number >= x.

    Gradient: 0 everywhere (flat between the jumps), as in PyTorch.
    """
    return _step(np.ceil, input, CeilBackward0)


def trunc(input):
    """x rounded towards 0 (drop the fractional part).

    Gradient: 0 everywhere (flat between the jumps), as in PyTorch.
    """
    return _step(np.trunc, input, TruncBackward0)


fix = trunc


class FracBackward0(Node):
    """result = self - trunc(self)   ->   grad_self = grad"""

    def backward(self, grad):
        return (grad,)


def frac(input):
    """The fractional part x - trunc(x) (same sign as x).

    Gradient: grad (the jumps are ignored, as in PyTorch).
    """
    array = input._array
    if array.dtype.kind != "f":
        raise kernel_not_implemented("frac_cpu", input)
    with np.errstate(invalid="ignore"):       # frac(inf) = inf - inf = nan, silently
        return result(array - np.trunc(array), FracBackward0, (input,))


# --- division that rounds: div(rounding_mode=), //, % and fmod -----------------------------
#
# Two ways to round a quotient, and the remainder that goes with each:
#
#   rounding_mode='floor'   a // b = floor(a / b)   a % b  = a - (a // b) * b      (sign of b)
#   rounding_mode='trunc'   trunc(a / b)            fmod(a, b) = a - trunc(a / b) * b (sign of a)
#
# A rounded quotient is a step function: its gradient is 0. A remainder moves with a (slope 1)
# and, between the jumps, against b with slope -(the rounded quotient).

_ROUNDING_MODES = (None, "trunc", "floor")


class DivBackward2(Node):
    """result = div(self, other, rounding_mode)   ->
        grad_self = grad / other, 0 if rounded; grad_other = -grad * self / other / other, 0 if rounded"""

    _saved_names = ('self', 'other')      # grad_fn._saved_self, _saved_other, as in PyTorch
    _divisor = None           # a number other, as given (its gradient formula divides by it)

    def backward(self, grad):
        if self.rounding_mode is not None:     # a step function: flat between its jumps
            need_self, need_other = self.should_compute_output(0), self.should_compute_output(1)
            # PyTorch's formulas still read other (for self's zeros) and self (for other's), so a
            # saved input changed in place since fails here too
            self.saved_tensors_for((need_other, need_self or need_other))
            return (_wrap(np.zeros_like(grad._array)) if need_self else None,
                    _wrap(np.zeros_like(grad._array)) if need_other else None)
        a, b = self.saved_tensors             # rounding_mode=None: true division (DivBackward0)
        divisor = b if self._divisor is None else self._divisor      # (a number stays a number)
        grad_a = grad / divisor if self.should_compute_output(0) else None
        grad_b = -grad * ((a / b) / b) if self.should_compute_output(1) else None
        return grad_a, grad_b

    def jvp(self, tangents, inputs, out):
        """result_t = (self_t - other_t * result) / other, 0 if rounded"""
        if self.rounding_mode is not None:
            return _wrap(np.zeros_like(out._array))
        return DivBackward0.jvp(self, tangents, inputs, out)


def _check_rounding_mode(rounding_mode):
    if not (rounding_mode is None or isinstance(rounding_mode, str)):
        raise TypeError("div() received an invalid combination of arguments - got (Tensor, Tensor, "
                        f"rounding_mode={type(rounding_mode).__name__}), but expected one of:")
    if rounding_mode not in _ROUNDING_MODES:
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                           f"found '{rounding_mode}'")


def _true_quotient(a, b, dtype):
    """a / b as div computes it: in ``dtype`` (float32 for integers), x / 0 inf or nan silently."""
    if dtype.kind != "f":
        dtype = np.dtype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.asarray(np.true_divide(a, b)).astype(dtype, copy=False)


def _trunc_quotient(a, b):
    """a / b rounded towards 0 (C's integer division)."""
    if np.result_type(a, b).kind == "f":
        return np.trunc(np.true_divide(a, b))
    floor = np.floor_divide(a, b)     # integers: floor, then one up where it went below 0 wrongly
    return floor + ((np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0)))


def _rounded_array(input, other, rounding_mode, kernel, saves=None):
    """The quotient's values for ``rounding_mode``, in the dtype PyTorch gives them (``saves``:
    what the recorded operation saves, see check_history_kept)."""
    if result_type(input, other).kind == "b" and rounding_mode is not None:
        check_shapes_fit(input, other)        # (PyTorch's loop settles the shape first)
        raise kernel_not_implemented(kernel, input)
    if rounding_mode is None:
        a_arr, b_arr, dtype = _operand_arrays(input, other)
        try:
            return laid_out_as_pytorch(_true_quotient(a_arr, b_arr, dtype), a_arr, b_arr)
        except ValueError:
            check_history_kept(input, other, saves=saves)
            raise _broadcast_error(input, other) from None
    _check_integer_division(input, other)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):    # x // 0.0 is inf, silently
        return in_opmath(np.floor_divide if rounding_mode == "floor" else _trunc_quotient, input, other,
                       saves)


# one element of each rounding division, for in-place loops that read their own writes
_ROUNDED_ELEMENTWISE = {"floor": np.floor_divide, "trunc": _trunc_quotient}


def div_rounded(input, other, rounding_mode):
    """``div(input, other, rounding_mode=...)``: the quotient rounded down ('floor'), towards 0
    ('trunc'), or not at all (None, the true quotient).

    Gradient: 0 when rounded (a step function); for None that of input / other. PyTorch records
    DivBackward2 whenever rounding_mode is given, None too.
    """
    _check_rounding_mode(rounding_mode)
    out = _rounded_array(input, other, rounding_mode, f"div_{rounding_mode}_cpu", ((1,), (0, 1)))
    # other is saved as a tensor (a number as PyTorch wraps it: int64 or float64); input only
    # when other's gradient needs it
    other_saved = other if isinstance(other, Tensor) else _wrap(np.asarray(other))
    if isinstance(other, Tensor):
        out = result(out, DivBackward2, (input, other), rounding_mode=rounding_mode)
    else:
        out = result(out, DivBackward2, (input, other), rounding_mode=rounding_mode, _divisor=other)
    if out._grad_fn is not None:
        needs_input = isinstance(other, Tensor) and gets_gradient_edge(other)
        out._grad_fn.save_for_backward(input if needs_input else None, other_saved)
    return out


def _rounded_quotient(a, b, rounding_mode):
    """a / b rounded, inside remainder's and fmod's backward, as PyTorch's div(a, b,
    rounding_mode=...) there.

    Its derivative is 0, but with create_graph=True PyTorch still records it (DivBackward2),
    so the second-order graph reaches a and b through it (and a later backward frees them).
    """
    return result(_rounded_array(a, b, rounding_mode, ""), DivBackward2, (a, b), saved=(a, b),
                  rounding_mode=rounding_mode)


class _NotImplementedBackward(Node):
    """result = floor_divide(self, other)   ->
        grad_self = error: PyTorch records a node that refuses to run (no derivative)"""

    _operation = "floor_divide"       # (number % tensor sets "remainder")

    def name(self):
        """``'torch::autograd::NotImplemented'``: PyTorch spells out this C++ node's namespace."""
        return "torch::autograd::NotImplemented"

    def backward(self, grad):
        raise RuntimeError(f"derivative for aten::{self._operation} is not implemented")

    def jvp(self, tangents, inputs, out):
        """result_t = error: no forward-mode rule either"""
        raise NotImplementedError(f"Trying to use forward AD with aten::{self._operation} that does "
                                  "not support it.")


_NotImplementedBackward.__name__ = _NotImplementedBackward.__qualname__ = "NotImplemented"


def _divides_integers_by_zero(input, other):
    if type(other) is int and isinstance(input, Tensor) and input._array.dtype.kind in "iu":
        other = wrapped_to(other, input._array.dtype)    # (int32 // 2**32 divides by 0)
    divisor = other._array if isinstance(other, Tensor) else np.asarray(other)
    dividend = input._array if isinstance(input, Tensor) else np.asarray(input)
    return divisor.dtype.kind in "iub" and dividend.dtype.kind in "iub" and bool((divisor == 0).any())


def _check_integer_division(input, other):
    """Integers have no inf: PyTorch refuses integer // 0 and % 0 (floats give inf or nan),
    in its loop, so after the shapes were found to fit."""
    if _divides_integers_by_zero(input, other):
        if isinstance(input, Tensor) and isinstance(other, Tensor):
            check_shapes_fit(input, other)
        raise RuntimeError("ZeroDivisionError")


def _write_up_to_a_zero_divisor(self, other, elementwise):
    """``x //= y``, ``x %= y``, ``x.fmod_(y)`` of integers where y holds a 0: PyTorch's loop
    writes each element as it goes and stops at the first 0 (in its loop order), so the
    elements before it are changed (the version is not: the error comes first)."""
    from .inplace import check_inplace, memory_order
    if not _divides_integers_by_zero(self, other) or result_type(self, other).kind == "b":
        return
    dividend = self._array
    divisor = other._array if isinstance(other, Tensor) else np.asarray(other)
    try:
        shape = np.broadcast_shapes(dividend.shape, divisor.shape)
    except ValueError:
        return                        # (the operation's own error follows)
    check_inplace(self, others=(other,) if isinstance(other, Tensor) else ())
    if shape != dividend.shape:
        raise RuntimeError(f"output with shape {list(dividend.shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    dtype = np.dtype(result_type(self, other))
    if dividend.dtype == np.bool_ and dtype != np.bool_:
        # (the result's dtype is checked before the loop: bool // int is refused first)
        from .._dtype import from_numpy_dtype, scalar_type_name
        raise RuntimeError(f"result type {scalar_type_name(from_numpy_dtype(dtype))} can't be cast to the "
                           "desired output type Bool")
    if dtype != dividend.dtype:
        # computed in another dtype, into a buffer copied back at the end: nothing is written
        raise RuntimeError("ZeroDivisionError")
    divisor = np.broadcast_to(divisor, dividend.shape)
    with np.errstate(all="ignore"):
        values = elementwise(dividend.astype(dtype), divisor.astype(dtype)).astype(dividend.dtype)
    slowest_first = memory_order([list(dividend.strides)] * 2 + [list(divisor.strides)],
                                 dividend.shape)[::-1]
    written, read = dividend.transpose(slowest_first), divisor.transpose(slowest_first)
    first_zero = int(np.argmax(read.reshape(-1) == 0))
    before = (np.arange(read.size) < first_zero).reshape(read.shape)
    written[before] = values.transpose(slowest_first)[before]
    raise RuntimeError("ZeroDivisionError")


def _not_differentiable(out, input, other, operation):
    """Record PyTorch's node for an operation without a derivative: its edges go only to the
    inputs that require grad (backward then fails naming ``operation``)."""
    tensors = [t for t in (input, other) if isinstance(t, Tensor)]
    recorded = [t for t in tensors if t._graph_requires_grad] or tensors
    if operation == "floor_divide":
        return result(out, _NotImplementedBackward, tuple(recorded))
    return result(out, _NotImplementedBackward, tuple(recorded), _operation=operation)


def _number_as_tensor(number, tensor):
    """``number`` (the left operand of number // tensor) as a tensor of the result's dtype."""
    dtype = result_type(number, tensor)
    if type(number) is int and dtype.kind in "iu":
        number = wrapped_to(number, dtype)          # (2**63 // int64 tensor: its low bits)
    with np.errstate(over="ignore"):                # (1e5 // a float16 tensor: inf // x, silently)
        return _wrap(np.asarray(number, dtype=dtype))


def floor_divide(input, other, _operation="floor_divide"):
    """a // b: floor(a / b). Not differentiable (PyTorch refuses its backward too)."""
    if isinstance(input, (int, float)):            # 7 // tensor
        input = _number_as_tensor(input, other)
    out = _rounded_array(input, other, "floor", "div_floor_cpu")
    return _not_differentiable(out, input, other, _operation)


def rfloordiv(input, other):
    """number // tensor"""
    return floor_divide(other, input)


class RemainderBackward0(Node):
    """result = self % other, other a number   ->   grad_self = grad"""

    def backward(self, grad):
        return (grad,)


class RemainderBackward1(Node):
    """result = self % other = self - floor(self / other) * other   ->
        grad_self = grad; grad_other = -grad * floor(self / other)"""

    _saved_names = ('self', 'other')      # grad_fn._saved_self, _saved_other, as in PyTorch

    def backward(self, grad):
        grad_b = None
        if self.should_compute_output(1):
            a, b = self.saved_tensors
            grad_b = -grad * _rounded_quotient(a, b, "floor")
        return grad, grad_b

    def jvp(self, tangents, inputs, out):
        """result_t = self_t - other_t * floor(self / other)"""
        return _remainder_tangent(tangents, inputs, "floor")


def _remainder_tangent(tangents, inputs, rounding_mode):
    self_t, other_t = (_own(t) for t in tangents)
    if other_t is None:
        return self_t
    term = other_t * _rounded_quotient(inputs[0], inputs[1], rounding_mode)
    return -term if self_t is None else self_t - term


def _python_remainder(a, b):
    """a % b with b's sign, computed as PyTorch does: C's fmod, then moved into b's range.

    (numpy's remainder gives the same numbers but sometimes 0.0 where PyTorch has -0.0.)
    """
    mod = np.fmod(a, b)
    if mod.dtype.kind != "f":
        return np.remainder(a, b)
    wrong_sign = (mod != 0) & ((np.asarray(b) < 0) != (mod < 0))
    return np.where(wrong_sign, mod + b, mod).astype(mod.dtype, copy=False)


def _zero_divisor_nans(function):
    """fmod or remainder of arrays, with the NaNs of a zero divisor as PyTorch's kernel makes
    them: positive in its vector loop, x86's (negative, numpy's) for the numbers left over."""
    def elementwise(a, b):
        out = function(a, b)
        if out.dtype.kind == "f":
            new = np.isnan(out) & (np.asarray(b) == 0) & ~np.isnan(a)
            if new.any():
                return vector_loop_nans(out, new)
        return out
    return elementwise


def _check_operands(name, input, other):
    """x.fmod('a'), torch.remainder(2, 3): PyTorch lists the signatures it has."""
    for value in (input, other):
        if not isinstance(value, (Tensor, int, float, bool, np.number, np.bool_)):
            raise invalid_combination(name, (other,) if isinstance(input, Tensor) else (input, other), {})
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise invalid_combination(name, (input, other), {})


def _wrapped_into(number, input):
    """A Python int divisor of an integer tensor as PyTorch's remainder and fmod take it: wrapped
    into the tensor's dtype, as C converts (int8: 1000 is -24, and 2**40 is 0, a division by
    zero); anything else as it is."""
    dtype = input._array.dtype
    if type(number) is int and dtype.kind in "iu" and -2**63 <= number < 2**63:
        info = np.iinfo(dtype)
        if not info.min <= number <= info.max:
            return int(np.asarray(number, np.int64).astype(dtype))
    return number


def _remainder_like(numpy_function, kernel, input, other, node_number, node_tensor):
    """remainder and fmod: the values, then the node for a number or a tensor ``other``."""
    _check_operands(kernel[:-len("_cpu")], input, other)
    if result_type(input, other).kind == "b":
        check_shapes_fit(input, other)
        raise kernel_not_implemented(kernel, input)
    other = _wrapped_into(other, input)
    _check_integer_division(input, other)
    with np.errstate(divide="ignore", invalid="ignore"):     # x % 0.0 is nan, silently
        out = _binary(_zero_divisor_nans(numpy_function), input, other, ((), (0, 1)))     # (see below)
    if isinstance(other, Tensor):
        # both are needed only for other's gradient: PyTorch saves them only if other gets an
        # edge (a view made under no_grad requires grad but has none)
        saved = (input, other) if gets_gradient_edge(other) else None
        return result(out, node_tensor, (input, other), saved=saved)
    return result(out, node_number, (input,))


def remainder(input, other):
    """a % b with the sign of b (Python's rule; C's fmod keeps a's sign).

    Gradient: grad_input = grad; grad_other = -grad * floor(input / other).
    """
    if not isinstance(input, Tensor):
        _check_operands("remainder", input, other)
        return rremainder(other, input)
    return _remainder_like(_python_remainder, "remainder_cpu", input, other,
                           RemainderBackward0, RemainderBackward1)


def rremainder(input, other):
    """number % tensor: PyTorch has no derivative for this form (its backward fails)."""
    number = _number_as_tensor(other, input)
    if result_type(other, input).kind == "b":
        check_shapes_fit(other, input)
        raise kernel_not_implemented("remainder_cpu", input)
    _check_integer_division(number, input)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = _binary(_python_remainder, number, input)
    return _not_differentiable(out, number, input, "remainder")


class FmodBackward0(Node):
    """result = fmod(self, other), other a number   ->   grad_self = grad"""

    def backward(self, grad):
        return (grad,)


class FmodBackward1(Node):
    """result = fmod(self, other) = self - trunc(self / other) * other   ->
        grad_self = grad; grad_other = -grad * trunc(self / other)"""

    _saved_names = ('self', 'other')      # grad_fn._saved_self, _saved_other, as in PyTorch

    def backward(self, grad):
        grad_b = None
        if self.should_compute_output(1):
            a, b = self.saved_tensors
            grad_b = -grad * _rounded_quotient(a, b, "trunc")
        return grad, grad_b

    def jvp(self, tangents, inputs, out):
        """result_t = self_t - other_t * trunc(self / other)"""
        return _remainder_tangent(tangents, inputs, "trunc")


def fmod(input, other):
    """The remainder of a / b with the sign of a (C's fmod): a - trunc(a / b) * b.

    Gradient: grad_input = grad; grad_other = -grad * trunc(input / other).
    """
    return _remainder_like(np.fmod, "fmod_cpu", input, other, FmodBackward0, FmodBackward1)


# --- in place: x.fmod_(2), x %= 2, x //= 2, x.div_(y, rounding_mode='floor') -------------------

def binary_in_place(self, other, operation, elementwise):
    """``self = operation(self, other)`` written into self, with PyTorch's rules (leaves, views,
    versions, dtypes: inplace.apply_inplace). When ``other`` is (a part of) self's own memory,
    PyTorch refuses a partial overlap, and where the loop reads what it already wrote, the
    values are those of its element-by-element loop (``elementwise``, a numpy function); so
    too where self sees a memory location at several positions (overlapping windows)."""
    from . import inplace       # (inplace.py builds on the files of this package)
    if type(other) is Tensor and (other._version_counter is self._version_counter
                                  or inplace._shares_memory_unversioned(self, other)):
        inplace.check_inplace(self, others=(other,))
        check_history_kept(other)           # (a lost history of other before the overlap)
        inplace._check_partial_overlap(self, other)
        if inplace._reads_its_own_writes(self, other):
            return inplace.reading_its_own_writes(self, other, elementwise, operation)
    if inplace.overlaps_itself(self._array):      # (unfold's windows): element by element
        if isinstance(other, Tensor):
            return inplace.elementwise_in_loop_order(self, operation, (other,))
        return inplace.elementwise_in_loop_order(self, lambda t: operation(t, other))
    if elementwise in _INTEGER_DIVISIONS:
        _write_up_to_a_zero_divisor(self, other, elementwise)
    return inplace.apply_inplace(self, operation, other)


def _in_place(operation, name, elementwise):
    """The in-place form ``name`` of ``operation`` (see binary_in_place)."""
    def in_place(self, other):
        return binary_in_place(self, other, operation, elementwise)
    in_place.__name__ = in_place.__qualname__ = name
    in_place.__doc__ = f"``self = {name[:-1]}(self, other)``, written into self."
    return in_place


def _floor_divide_in_place(input, other):
    # (when backward fails, PyTorch names the in-place operation: aten::floor_divide_)
    return floor_divide(input, other, "floor_divide_")


# (the in-place loops that refuse an integer 0 divisor as they meet it)
_INTEGER_DIVISIONS = (np.floor_divide, _trunc_quotient, _python_remainder, np.fmod)

floor_divide_ = _in_place(_floor_divide_in_place, "floor_divide_", np.floor_divide)
remainder_ = _in_place(remainder, "remainder_", _python_remainder)
fmod_ = _in_place(fmod, "fmod_", np.fmod)
