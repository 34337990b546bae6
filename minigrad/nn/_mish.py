"""mish: x * tanh(softplus(x)), a smooth activation (Misra, 2019).

    mish(x)  = x * tanh(log(1 + e^x))
    mish'(x) = t + x * sigmoid(x) * (1 - t^2),   t = tanh(log(1 + e^x))

(the second term from d tanh(s)/ds = 1 - tanh(s)^2 and d softplus(x)/dx = sigmoid(x)).

PyTorch records one node for the forward (MishBackward0). Its backward has two faces:
without create_graph it is one kernel that gives only numbers; with create_graph=True it
is written with ordinary operations (sigmoid, exp, log1p, tanh, *, -, +), so the gradient
carries that whole graph and can be differentiated again, as many times as you like.

For float32 both kernels give PyTorch's last bits: PyTorch computes whole vectors of 8
numbers with SLEEF's exp, log1p and tanh, and the numbers left over with the C library's
(see ``_vectorized_loop``); the backward's two sums are fused multiply-adds there. float16
takes the same float32 steps, rounded to float16 at the end (its NaNs' bits may differ).
"""
import numpy as np

from .. import _c_library_expf, _c_library_mathf, _sleef_float_pairs, _sleef_mathfun, _vectorized_loop
from ..autograd.graph import Node
from ..autograd.grad_mode import is_grad_enabled
from .._ops import result
from .._fused_multiply_add import fma as _fma
from .._ops.pointwise import ALL_ONES_NAN, backward_kernel_layout, kernel_not_implemented, sigmoid, with_bits
from .._ops.inplace import apply_pointwise_inplace
from .._tensor import _wrap


class MishBackward0(Node):
    """result = self * tanh(softplus(self))   ->
        grad_self = grad * (t + self * sigmoid(self) * (1 - t * t)), t = tanh(log1p(e ** self))"""

    _saved_names = ("self",)        # grad_fn._saved_self

    def backward(self, grad):
        (x,) = self.saved_tensors
        if not is_grad_enabled():
            return (_wrap(backward_kernel_layout(_mish_backward_values(grad._array, x._array), grad, x)),)
        return (mish_backward_graph(grad, x),)

    def jvp(self, tangents, inputs, out):
        """result_t = mish'(self) * self_t, written as the backward's graph"""
        return mish_backward_graph(tangents[0], inputs[0])


def _mish_backward_values(g, x):
    """numpy: grad * mish'(x), PyTorch's kernel (only numbers, for a backward without a graph)."""
    if x.dtype in (np.float32, np.float16) and g.dtype == x.dtype:
        # (float16 in float32: a vector holds 16 of them, so the loop's step is 32 numbers)
        values = _vectorized_loop.elementwise_pair(
            g.astype(np.float32, copy=False), x.astype(np.float32, copy=False),
            _mish_backward_float32_vectorized, _mish_backward_float32_scalar, lanes=32 // x.itemsize)
        return np.asarray(values.astype(x.dtype, copy=False))
    with np.errstate(over="ignore", invalid="ignore"):
        s = 1 / (1 + np.exp(-x))
        t = np.tanh(np.log1p(np.exp(x)))
        # (np.asarray: numpy gives a scalar for 0-d arrays, which a .grad could not hold)
        return np.asarray((g * (t + x * s * (1 - t * t))).astype(x.dtype, copy=False))


def _mish_backward_float32(g, x, exp, log1p, tanh):
    """grad * mish'(x) in PyTorch's float32 steps, with the given exp, log1p and tanh. The
    compiler fuses 1 - t * t and t + (x * s) * (that) into multiply-adds (one rounding each)."""
    one = np.float32(1)
    with np.errstate(over="ignore", invalid="ignore"):
        s = one / (one + exp(-x))
        t = tanh(log1p(exp(x)))
        slope = _fma(x * s, _fma(-t, t, one), t)
        out = slope * g
    # Where both are NaN, PyTorch's product keeps the slope's NaN. numpy's multiply keeps one
    # or the other depending on its version (2.0 and 2.4 differ) and on where in the array the
    # number lies, so the slope's NaN is put in explicitly.
    return with_bits(out, np.isnan(slope), slope.view(np.uint32))


def _mish_backward_float32_vectorized(g, x):
    """The vector formula (SLEEF's functions). A NaN x gives the NaN with every bit set that
    SLEEF's tanh makes of it."""
    out = _mish_backward_float32(g, x, _sleef_mathfun.exp, _sleef_float_pairs.log1p, _sleef_float_pairs.tanh)
    return with_bits(out, np.isnan(x), ALL_ONES_NAN[4])


def _mish_backward_float32_scalar(g, x):
    """The one-number formula (the C library's functions). A NaN x gives -x's NaN, the one its
    sigmoid carries (quiet, its payload kept)."""
    out = _mish_backward_float32(g, x, _c_library_expf.expf, _c_library_mathf.log1pf, _c_library_mathf.tanhf)
    quiet_bit = np.uint32(0x0040_0000)        # (set in a NaN by any arithmetic on it)
    return with_bits(out, np.isnan(x), (-x).view(np.uint32) | quiet_bit)


def mish_backward_graph(grad, x):
    """grad * mish'(x) with ordinary operations, in PyTorch's order, so create_graph=True
    records the same nodes (the sigmoid first, then e^x, log1p, tanh)."""
    s = sigmoid(x)
    t = x.exp().log1p().tanh()
    # (PyTorch's 1.0 - t * t: the number becomes a 0-d tensor, SubBackward0 with no edge to it)
    one = _wrap(np.ones((), dtype=t._array.dtype))
    return grad * (t + x * s * (one - t * t))


def mish(input, inplace=False):
    """x * tanh(softplus(x)): smooth, not monotonic, unbounded above and bounded below.

    Gradient: grad * (t + x * sigmoid(x) * (1 - t^2)), t = tanh(softplus(x)).
    """
    if inplace:
        return apply_pointwise_inplace(input, mish)
    if not input.is_floating_point():
        raise kernel_not_implemented("mish_cpu", input)
    x = input._array
    if x.dtype in (np.float32, np.float16):      # (float16 in float32, see _mish_backward_values)
        out = _vectorized_loop.elementwise(x.astype(np.float32, copy=False), _mish_float32_vectorized,
                                           _mish_float32_scalar, lanes=32 // x.itemsize)
        out = np.asarray(out.astype(x.dtype, copy=False))
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            out = x * np.tanh(np.log1p(np.exp(x)))
    return result(out.astype(x.dtype, copy=False), MishBackward0, (input,), saved=(input,))


def _mish_float32_vectorized(x):
    """PyTorch's vector formula: x * tanh(log1p(exp(x))) with SLEEF's functions.

    A NaN x gives x's NaN in the first vector of each step of two, and in the second the NaN
    with every bit set that SLEEF's tanh makes of it (the compiler ordered the two products'
    operands differently)."""
    with np.errstate(over="ignore", invalid="ignore"):
        out = x * _sleef_float_pairs.tanh(_sleef_float_pairs.log1p(_sleef_mathfun.exp(x)))
    in_second_vector = np.arange(x.size).reshape(x.shape) % 16 >= 8      # (a step: 2 vectors of 8)
    nans = np.isnan(x)
    # (x's NaN, made quiet, put in explicitly: when both factors are NaN, which one numpy's
    # multiply keeps depends on its version and on where in the array the number lies)
    quiet_bit = np.uint32(0x0040_0000)
    out = with_bits(out, nans & ~in_second_vector, x.view(np.uint32) | quiet_bit)
    return with_bits(out, nans & in_second_vector, ALL_ONES_NAN[4])


def _mish_float32_scalar(x):
    """PyTorch's one-number formula: the same with the C library's expf, log1pf and tanhf."""
    with np.errstate(over="ignore", invalid="ignore"):
        return x * _c_library_mathf.tanhf(_c_library_mathf.log1pf(_c_library_expf.expf(x)))
