"""elu, selu and celu: one formula with three settings.

    elu(x) = scale * x                                  for x > 0
             scale * alpha * (e ** (input_scale * x) - 1)   otherwise

    elu:  alpha,                        scale = 1,      input_scale = 1
    selu: alpha = 1.6732632423543772,   scale = 1.0507009873554805, input_scale = 1
    celu: alpha,                        scale = 1,      input_scale = 1 / alpha

PyTorch computes all three with elu's kernel. selu even records elu's nodes (EluBackward0,
or EluBackward1 in place, with its alpha and scale as ``_saved_alpha``/``_saved_scale``);
celu has nodes of its own (CeluBackward0/1, which save only alpha) but its gradient is
elu's backward again. So every second-order graph here shows EluBackwardBackward0.

The derivative, below 0: scale * alpha * input_scale * e ** (input_scale * x). In place,
the input is gone; PyTorch saves the result r instead, and finds the same slope from it:
input_scale * (r + scale * alpha).
"""
import numpy as np

from .._type_names import type_name
from .._dtype import checked_number
from .. import _c_library_expf, _sleef_mathfun, _vectorized_loop
from ..autograd.graph import Node
from .._ops import result, save_result
from .._ops.pointwise import (backward_kernel_layout, like_its_input, mul_by_number, kernel_not_implemented,
                              opmath_dtype, _expm1_array)
from .._ops.inplace import apply_pointwise_inplace
from .._tensor import Tensor, _wrap
from ._argument_checks import NUMBER, parse_as
from ._hardtanh import _in_vector_registers

# selu's constants (Klambauer et al., "Self-Normalizing Neural Networks", 2017)
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


# --- the forward: one kernel for the three ---------------------------------------------------

def _in_opmath(array):
    """``array`` in the dtype PyTorch's kernels compute it in (float16 in float32: see opmath_dtype)."""
    return array.astype(opmath_dtype(array.dtype), copy=False)


def _elu_values(x, alpha, scale, input_scale):
    """numpy: elu's values, in PyTorch's steps (x < 0 ? expm1(x * input_scale) * (alpha * scale)
    : x * scale). A zero takes the x * scale branch, so it keeps its sign whatever alpha is
    (elu(-0.0) is -0.0, elu(0.0, alpha=-1) is 0.0, elu(0.0, alpha=nan) is 0.0, as PyTorch's);
    NaN is not < 0 either, so it stays NaN."""
    negative_coefficient = alpha * scale
    a = _in_opmath(x)
    below = _expm1_array(np.minimum(a, 0) * input_scale) * negative_coefficient
    return np.where(a < 0, below, a * scale).astype(x.dtype, copy=False)


def _number(function, name, value):
    """A setting PyTorch's argument parser reads as a Number: a Python number or a 0-d tensor."""
    if hasattr(value, "_array") and value.ndim == 0:
        return value.item()
    if not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{function}(): argument '{name}' (position 2) must be Number, not "
                        f"{type_name(value)}")
    return value


def _elu(input, node_class, coefficients, settings):
    """The values for ``coefficients`` (alpha, scale, input_scale), recorded with ``node_class``;
    an in-place node (EluBackward1, CeluBackward1) saves the result, as the input will be
    overwritten. ``settings`` are what the node shows (``_saved_alpha``, ...)."""
    if not input.is_floating_point():
        raise kernel_not_implemented("elu_cpu", input)
    for coefficient in coefficients:      # (in float32 for float16 and float32: 1e39 is refused)
        checked_number(coefficient, opmath_dtype(input._array.dtype))
    with np.errstate(over="ignore", invalid="ignore"):     # (alpha=1e5 of float16: inf, silently)
        out = _elu_values(input._array, *coefficients)
    out = like_its_input(out, input._array)      # (a transposed input gives a transposed result)
    if node_class._saved_names == ("result",):
        return save_result(result(out, node_class, (input,), **settings))
    return result(out, node_class, (input,), saved=(input,), **settings)


# --- the backward: elu_backward, a recorded operation of its own -----------------------------

def elu_backward(grad, x, alpha=1.0, scale=1, input_scale=1, is_result=False):
    """grad * d elu(x)/dx, recorded as one operation (EluBackwardBackward0), as in PyTorch.

    With ``is_result``, ``x`` is elu's result r instead of its input (in-place forms): the
    slope is then input_scale * (r + alpha * scale) where r <= 0."""
    a, g = _in_opmath(x._array), _in_opmath(grad._array)
    negative_coefficient = alpha * scale
    with np.errstate(over="ignore", invalid="ignore"):
        # PyTorch's steps, left to right: grad * input_scale * (r + alpha * scale), or
        # grad * input_scale * (alpha * scale) * e ** (x * input_scale); grad * scale above 0
        if is_result:
            below = g * input_scale * (a + negative_coefficient)
        elif x._array.dtype == np.float32:
            # PyTorch's kernel takes e ** (x * input_scale) from SLEEF on whole vectors and
            # from the C library on the numbers left over (see _vectorized_loop), whose last
            # bits numpy's exp does not always give
            def slopes(exp):
                return lambda a_part, g_part: g_part * input_scale * negative_coefficient * exp(a_part * input_scale)
            below = _vectorized_loop.elementwise_pair(a, g, slopes(_sleef_mathfun.exp),
                                                      slopes(_c_library_expf.expf), lanes=8)
        else:
            below = g * input_scale * negative_coefficient * np.exp(np.minimum(a, 0) * input_scale)
        values = np.where(a <= 0, below, g * scale)
    # PyTorch asks "x <= 0?", so a NaN input takes the slope `scale` where its loop works one
    # element at a time; in its blocks of vector registers the gradient is NaN (as hardtanh's,
    # see _hardtanh.py)
    if a.dtype.kind == "f" and np.isnan(a).any():
        values = np.where(np.isnan(a) & _in_vector_registers(g, a), np.nan, values)
    values = backward_kernel_layout(values.astype(x._array.dtype, copy=False), grad, x)
    return result(values, EluBackwardBackward0, (grad, x),
                  saved=(grad, x), alpha=alpha, scale=scale, input_scale=input_scale,
                  is_result=is_result)


class EluBackwardBackward0(Node):
    """result = g * elu'(self) (elu's backward, recorded)   ->
        grad_g = grad * elu'(self); grad_self = elu_backward(grad * g * input_scale, self) * (self < 0)
    (from the result r of an in-place form: grad_r = grad * g * input_scale * (r < 0))"""

    _saved_names = ("grad_output", "self_or_result")

    def backward(self, gg):
        grad, x = self.saved_tensors
        settings = (self.alpha, self.scale, self.input_scale, self.is_result)
        d_grad = elu_backward(gg, x, *settings) if self.should_compute_output(0) else None
        d_x = None
        if self.should_compute_output(1):
            # elu'' is input_scale * elu' where self < 0 and 0 elsewhere; PyTorch writes it
            # with elu's backward and a 0/1 mask. In terms of the result, the slope
            # input_scale * (r + alpha * scale) has the derivative input_scale where r < 0.
            a = x._array
            below_zero = _wrap((a < 0).astype(a.dtype))
            scaled = mul_by_number(gg * grad, self.input_scale)
            d_x = (scaled if self.is_result else elu_backward(scaled, x, *settings)) * below_zero
        return d_grad, d_x


# --- elu --------------------------------------------------------------------------------------

class EluBackward0(Node):
    """result = self if self > 0 else alpha (e ** self - 1)   ->
        grad_self = grad if self > 0 else grad * alpha * e ** self
    (times ``scale``, and with ``input_scale`` inside, for selu)"""

    _saved_names = ("self",)       # grad_fn._saved_self (and _saved_alpha, _saved_scale, ...)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (elu_backward(grad, x, self.alpha, self.scale, self.input_scale),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * elu'(self): elu's backward applied to the tangent"""
        return elu_backward(tangents[0], inputs[0], self.alpha, self.scale, self.input_scale)


class EluBackward1(Node):
    """result = elu(self, alpha, inplace=True)   ->
        grad_self = grad if result > 0 else grad * (result + alpha)

    In place, self is overwritten, so PyTorch saves the result instead: where
    x <= 0, result = alpha (e ** x - 1), so the slope alpha e ** x is result + alpha."""

    _saved_names = ("result",)     # grad_fn._saved_result

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (elu_backward(grad, out, self.alpha, self.scale, self.input_scale, is_result=True),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * elu'(self), the slope found from the result as in backward"""
        return elu_backward(tangents[0], out, self.alpha, self.scale, self.input_scale, is_result=True)


def elu(input, alpha=1.0, inplace=False):
    """Exponential Linear Unit: x for x > 0, alpha * (e^x - 1) otherwise.

    Gradient: grad where x > 0, else grad * alpha * e^x.
    """
    name = "elu_" if inplace else "elu"       # (PyTorch's first look: at inplace)
    if not (isinstance(input, Tensor) and isinstance(alpha, NUMBER)):
        parse_as(name, input, alpha)
    alpha = _number(name, "alpha", alpha)
    node_class = EluBackward1 if inplace else EluBackward0
    forward = lambda t: _elu(t, node_class, (alpha, 1, 1),  # noqa: E731
                             dict(alpha=alpha, scale=1, input_scale=1))
    # in place: computed out of place, then written back into input
    return apply_pointwise_inplace(input, forward) if inplace else forward(input)


def elu_(input, alpha=1.0):
    """``elu(input, alpha, inplace=True)``: input changed in place (EluBackward1)."""
    return elu(input, alpha, inplace=True)


# --- selu: elu with fixed alpha and scale ----------------------------------------------------

def selu(input, inplace=False):
    """Scaled ELU: scale * elu(x, alpha) with selu's fixed alpha and scale, chosen so that
    activations keep mean 0 and variance 1 through many layers.

    Recorded as PyTorch does: EluBackward0 (EluBackward1 in place) showing alpha and scale.
    Gradient: grad * scale where x > 0, else grad * scale * alpha * e^x.
    """
    node_class = EluBackward1 if inplace else EluBackward0
    forward = lambda t: _elu(t, node_class, (SELU_ALPHA, SELU_SCALE, 1),  # noqa: E731
                             dict(alpha=SELU_ALPHA, scale=SELU_SCALE, input_scale=1))
    return apply_pointwise_inplace(input, forward) if inplace else forward(input)


def selu_(input):
    """``selu(input, inplace=True)``: input changed in place (EluBackward1)."""
    return selu(input, inplace=True)


# --- celu: elu with the input scaled by 1 / alpha ---------------------------------------------

def _backward_input_scale(alpha):
    """1 / alpha as celu's derivative formula in PyTorch writes it: with alpha rounded to
    float32 first (``1.0 / alpha.toFloat()``), while the forward divides by alpha itself."""
    return 1.0 / float(np.float32(alpha))


class CeluBackward0(Node):
    """result = self if self > 0 else alpha (e ** (self / alpha) - 1)   ->
        grad_self = grad if self > 0 else grad * e ** (self / alpha)
    (elu's backward with input_scale = 1 / alpha)"""

    _saved_names = ("self",)       # grad_fn._saved_self (and _saved_alpha)

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (elu_backward(grad, x, self.alpha, 1, _backward_input_scale(self.alpha)),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * celu'(self): celu's backward applied to the tangent"""
        return elu_backward(tangents[0], inputs[0], self.alpha, 1, _backward_input_scale(self.alpha))


class CeluBackward1(Node):
    """result = celu(self, alpha, inplace=True)   ->
        grad_self = grad if result > 0 else grad * (result + alpha) / alpha
    (self is overwritten: the slope is found from the saved result, as for EluBackward1)"""

    _saved_names = ("result",)     # grad_fn._saved_result (and _saved_alpha)

    def backward(self, grad):
        (out,) = self.saved_tensors
        return (elu_backward(grad, out, self.alpha, 1, _backward_input_scale(self.alpha), is_result=True),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * celu'(self), the slope found from the result as in backward"""
        return elu_backward(tangents[0], out, self.alpha, 1, _backward_input_scale(self.alpha),
                            is_result=True)


def celu(input, alpha=1.0, inplace=False):
    """Continuously differentiable ELU: x for x > 0, alpha * (e^(x / alpha) - 1) otherwise.

    Unlike elu, its slope is 1 on both sides of 0 for every alpha.
    Gradient: grad where x > 0, else grad * e^(x / alpha).
    """
    alpha = _number("celu_" if inplace else "celu", "alpha", alpha)
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    node_class = CeluBackward1 if inplace else CeluBackward0
    forward = lambda t: _elu(t, node_class, (alpha, 1.0, 1.0 / float(alpha)),  # noqa: E731
                             dict(alpha=alpha))
    return apply_pointwise_inplace(input, forward) if inplace else forward(input)


def celu_(input, alpha=1.0):
    """``celu(input, alpha, inplace=True)``: input changed in place (CeluBackward1)."""
    return celu(input, alpha, inplace=True)
