"""Shrinking and learned-slope activations: hardshrink, softshrink, tanhshrink, softsign,
prelu, rrelu.

    hardshrink(x, l) = x if |x| > l, else 0          (small values are set to 0)
    softshrink(x, l) = x - l if x > l, x + l if x < -l, else 0   (and the rest moved towards 0)
    tanhshrink(x)    = x - tanh(x)
    softsign(x)      = x / (1 + |x|)
    prelu(x, w)      = x if x > 0, else w * x        (w learned, one per channel or one for all)
    rrelu(x, l, u)   = x if x >= 0, else a * x       (training: a drawn uniformly from [l, u) for
                                                      each element; eval: a = (l + u) / 2)

hardshrink, softshrink and rrelu are kernels of their own in PyTorch, each with a node and a
recorded backward (``...BackwardBackward0``) so that create_graph=True sees the gradient
depend on x. tanhshrink and softsign are written with ordinary operations, so their graphs
are those of - tanh, / abs +.
"""
import numpy as np

from .._type_names import type_name
from ..autograd.graph import Node, attach_outputs
from .._ops import plain_output, result, save_result
from .._dtype import checked_number
from .._ops.pointwise import backward_kernel_layout, kernel_not_implemented, opmath_dtype, times_number, where
from .._ops.inplace import apply_inplace, apply_pointwise_inplace
from .._dtype import scalar_type_name
from .._tensor import Tensor, _wrap, _shows_as_batched
from ..autograd.function import _FuncTransforms
from .. import _vectorized_loop, random as _random


# --- hardshrink and softshrink ---------------------------------------------------------------

def _outside(x, lambd):
    """numpy: where |x| > lambd (NaN counts as outside: PyTorch's test is -l <= x <= l)."""
    return ~((x >= -lambd) & (x <= lambd))


def _shrink_backward(node_class, grad, x, lambd):
    """grad where |x| > lambd, else 0: both shrinks' backward, recorded as one operation."""
    g = grad._array
    out = np.where(_outside(x._array, lambd), g, g.dtype.type(0))
    return result(backward_kernel_layout(out, grad, x), node_class, (grad, x), saved=(x,), lambd=lambd)


class _ShrinkBackwardBackward:
    """What the recorded backwards of hardshrink and softshrink share (each is also a Node)."""

    _saved_names = ("self",)        # grad_fn._saved_self (and _saved_lambd), as in PyTorch

    def backward(self, gg):
        (x,) = self.saved_tensors
        d_grad = _shrink_backward(type(self), gg, x, self.lambd) if self.should_compute_output(0) else None
        d_self = _wrap(np.zeros_like(gg._array)) if self.should_compute_output(1) else None
        return d_grad, d_self

    def jvp(self, tangents, inputs, out):
        """result_t = g_t where |self| > lambd, else 0"""
        return _shrink_backward(type(self), tangents[0], inputs[1], self.lambd)


class HardshrinkBackwardBackward0(_ShrinkBackwardBackward, Node):
    """result = g where |self| > lambd, else 0 (hardshrink's backward, recorded)   ->
        grad_g = grad where |self| > lambd, else 0; grad_self = 0"""


class SoftshrinkBackwardBackward0(_ShrinkBackwardBackward, Node):
    """result = g where |self| > lambd, else 0 (softshrink's backward, recorded)   ->
        grad_g = grad where |self| > lambd, else 0; grad_self = 0"""


class _ShrinkBackward:
    """What hardshrink's and softshrink's nodes share: the slope is 1 outside [-lambd, lambd]."""

    _saved_names = ("self",)        # grad_fn._saved_self (and _saved_lambd), as in PyTorch

    def backward(self, grad):
        (x,) = self.saved_tensors
        return (_shrink_backward(self._backward_node, grad, x, self.lambd),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where |self| > lambd, else 0"""
        return _shrink_backward(self._backward_node, tangents[0], inputs[0], self.lambd)


class HardshrinkBackward0(_ShrinkBackward, Node):
    """result = self if |self| > lambd, else 0   ->   grad_self = grad where |self| > lambd, else 0"""

    _backward_node = HardshrinkBackwardBackward0


class SoftshrinkBackward0(_ShrinkBackward, Node):
    """result = self - lambd, self + lambd or 0   ->   grad_self = grad where |self| > lambd, else 0"""

    _backward_node = SoftshrinkBackwardBackward0


def _check_lambd(name, lambd, position=2):
    if isinstance(lambd, Tensor) and lambd.ndim == 0:
        return lambd.item()
    if not isinstance(lambd, (int, float, np.integer, np.floating)):      # (True and False count, as 1 and 0)
        raise TypeError(f"{name}(): argument 'lambd' (position {position}) must be Number, not "
                        f"{type_name(lambd)}")
    return lambd


def hardshrink(input, lambd=0.5):
    """input where |input| > lambd, else 0.

    Gradient: grad where |input| > lambd, else 0."""
    lambd = _check_lambd("hardshrink", lambd)
    x = input._array
    if x.dtype.kind != "f":
        raise kernel_not_implemented("hardshrink_cpu", input)
    checked_number(lambd, x.dtype)          # (PyTorch refuses a lambd x's dtype cannot hold)
    out = np.where(_outside(x, lambd), x, x.dtype.type(0))
    return result(out, HardshrinkBackward0, (input,), saved=(input,), lambd=lambd)


def softshrink(input, lambd=0.5):
    """input - lambd where input > lambd, input + lambd where input < -lambd, else 0
    (lambd may not be negative).

    Gradient: grad where |input| > lambd, else 0."""
    lambd = _check_lambd("softshrink", lambd)
    x = input._array
    if x.dtype.kind != "f":
        raise kernel_not_implemented("softshrink_check", input)     # (its range check dispatches first)
    largest = float(np.finfo(x.dtype).max)     # (a Python float: numpy would compare in float16)
    if not 0 <= lambd <= largest:
        raise RuntimeError(f"lambda must be in range [0, {largest:g}] for input dtype "
                           f"{scalar_type_name(input.dtype)}, but found {lambd:g}")
    work = opmath_dtype(x.dtype)         # (float16 in float32, rounded once)
    l = work.type(lambd)

    def formula(zero):
        return lambda a: np.where(a > l, a - l, np.where(a < -l, a + l, zero(a)))
    # inside, PyTorch's vector loop gives 0.0, its scalar loop multiplies by 0 (-0.3 becomes -0.0);
    # nan stays nan
    out = _vectorized_loop.elementwise(x.astype(work, copy=False),
                                       formula(lambda a: np.where(np.isnan(a), a, work.type(0))),
                                       formula(lambda a: a * work.type(0)), lanes=32 // x.dtype.itemsize)
    return result(out.astype(x.dtype, copy=False), SoftshrinkBackward0, (input,), saved=(input,),
                  lambd=lambd)


def tanhshrink(input):
    """input - tanh(input). Gradient: grad * tanh(input) ** 2 (through the graph of - and tanh)."""
    return input - input.tanh()


def softsign(input):
    """input / (1 + |input|): a slower-saturating tanh. Gradient: grad / (1 + |input|) ** 2
    (through the graph of /, + and abs)."""
    return input / (input.abs() + 1)


# --- prelu: a learned slope for negative inputs --------------------------------------------------

def _prelu_kernel_backward(grad, x, w):
    """prelu's gradients (grad_self, grad_weight), computed as PyTorch's kernel does (grad_weight
    has the input's shape: the engine sums it to the weight's), recorded as one
    PreluKernelBackwardBackward0 with two outputs so that they can be differentiated again."""
    g, a, slope = grad._array, x._array, w._array
    positive = a > 0
    zero = g.dtype.type(0)
    arrays = (np.where(positive, g, slope * g).astype(g.dtype, copy=False),
              np.where(positive, zero, a * g).astype(g.dtype, copy=False))
    grad_self = result(arrays[0], PreluKernelBackwardBackward0, (grad, x, w), saved=(grad, x, w))
    node = grad_self._grad_fn
    grad_weight = plain_output(arrays[1], grad, x, w)
    if isinstance(node, PreluKernelBackwardBackward0):     # (recorded: create_graph=True)
        attach_outputs(node, (grad_self, grad_weight))
    return grad_self, grad_weight


class PreluKernelBackwardBackward0(Node):
    """result = (grad_self, grad_weight) of prelu (its backward, recorded)   ->
        grad_grad_output = gg_self where self >= 0, else gg_self * weight + gg_weight * self;
        grad_self = 0 where self >= 0, else grad_output * gg_weight;
        grad_weight = 0 where self >= 0, else grad_output * gg_self

    Written with ``where`` and ``*``, as PyTorch writes it, so that a third derivative records
    those. (PyTorch's test here is self >= 0 where the kernel's is self > 0: at self = 0 the
    two disagree, and minigrad follows PyTorch.)"""

    _saved_names = ("grad_output", "self", "weight")

    def backward(self, gg_self, gg_weight):
        grad, x, w = self.saved_tensors
        at_least_0 = x >= 0
        zero = _wrap(np.zeros((), dtype=x._array.dtype))
        d_grad = d_self = d_weight = None
        if self.should_compute_output(0):
            if gg_self is not None:
                below = gg_self * w if gg_weight is None else gg_self * w + gg_weight * x
                d_grad = where(at_least_0, gg_self, below)
            elif gg_weight is not None:
                d_grad = where(at_least_0, zero, gg_weight * x)
        if self.should_compute_output(1):
            d_self = (where(at_least_0, zero, grad * gg_weight) if gg_weight is not None
                      else _wrap(np.zeros_like(x._array)))
        if self.should_compute_output(2):
            # (the shape of self: the engine sums it to the weight's)
            d_weight = (where(at_least_0, zero, grad * gg_self) if gg_self is not None
                        else _wrap(np.zeros_like(x._array)))
        return d_grad, d_self, d_weight


class PreluKernelBackward0(Node):
    """result = self if self > 0, else weight * self   ->
        grad_self = grad where self > 0, else grad * weight; grad_weight = grad * self where self <= 0, else 0"""

    _saved_names = ("self", "weight")     # grad_fn._saved_self, grad_fn._saved_weight

    def backward(self, grad):
        x, w = self.saved_tensors
        return _prelu_kernel_backward(grad, x, w)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t where self > 0, else weight * self_t + weight_t * self"""
        (x, w), (x_t, w_t) = inputs, tangents
        positive = _wrap(x._array > 0)
        below = x_t * w if w_t is None else x_t * w + w_t * x
        return where(positive, x_t, below)


def prelu(input, weight):
    """input where input > 0, else weight * input; ``weight`` holds one slope for all elements or
    one per channel (dim 1).

    Gradient: grad (or grad * weight below 0) to input; grad * input below 0 to weight, summed
    over everything but the channel."""
    if not isinstance(weight, Tensor):
        raise TypeError(f"prelu(): argument 'weight' (position 2) must be Tensor, not {type_name(weight)}")
    if input.dtype != weight.dtype:                  # (PyTorch checks this before any shape)
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{scalar_type_name(input.dtype)} and {scalar_type_name(weight.dtype)}")
    count = weight.numel()
    if count != 1:                          # (the count is checked before the weight's dims)
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim >= 2 else 1
        if count != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter "
                               f"numbers = {count} and channel size = {channels}.")
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}")

    if weight.ndim != input.ndim:
        # as PyTorch: weight viewed with input's number of dims, one slope per channel (dim 1)
        # or one for all (grad_fn._saved_weight is [1, C, 1, ...], [1] or [])
        weight = weight.reshape(tuple(count if d == 1 else 1 for d in range(input.ndim)))
    x, w = input._array, weight._array
    if x.dtype.kind != "f":
        raise kernel_not_implemented("prelu_cpu", input)
    out = np.where(x > 0, x, w * x).astype(np.result_type(x, w), copy=False)
    return result(out, PreluKernelBackward0, (input, weight), saved=(input, weight))


# --- rrelu: a random slope while training ---------------------------------------------------------

def _rrelu_backward(node_class, grad, x, noise, lower, upper, training):
    """grad times rrelu's slope at x: the drawn slope (noise) while training, else (lower + upper) / 2
    below 0; recorded as one operation."""
    g = grad._array
    if training:
        out = (g * noise._array).astype(g.dtype, copy=False)
    else:
        out = np.where(x._array > 0, g, times_number(g, (lower + upper) / 2))
    return result(out, node_class, (grad, x), saved=(x, noise), lower=lower, upper=upper,
                  training=training)


class RreluWithNoiseBackwardBackward0(Node):
    """result = g * rrelu's slope at self (rrelu's backward, recorded)   ->
        grad_g = grad * the slope; grad_self = 0"""

    _saved_names = ("self", "noise")    # grad_fn._saved_self, _saved_noise (and lower, upper, training)

    def backward(self, gg):
        x, noise = self.saved_tensors
        d_grad = (_rrelu_backward(type(self), gg, x, noise, self.lower, self.upper, self.training)
                  if self.should_compute_output(0) else None)
        d_self = _wrap(np.zeros_like(gg._array)) if self.should_compute_output(1) else None
        return d_grad, d_self


class RreluWithNoiseBackward0(Node):
    """result = self if self >= 0, else slope * self   ->   grad_self = grad * slope

    Where self > 0 the slope is 1; below, the drawn noise while training, else
    (lower + upper) / 2."""

    _saved_names = ("self", "noise")    # grad_fn._saved_self, _saved_noise (and lower, upper, training)

    def backward(self, grad):
        x, noise = self.saved_tensors
        return (_rrelu_backward(RreluWithNoiseBackwardBackward0, grad, x, noise, self.lower, self.upper,
                                self.training),)

    def jvp(self, tangents, inputs, out):
        """result_t = self_t * slope"""
        (noise,) = self.saved_tensors[1:]
        return _rrelu_backward(RreluWithNoiseBackwardBackward0, tangents[0], inputs[0], noise,
                               self.lower, self.upper, self.training)


class RreluWithNoiseBackward1(Node):
    """result = self if self >= 0, else slope * self (in place)   ->   grad_self = grad * slope
        (read from the result: where it is > 0 the slope is 1)"""

    _saved_names = ("noise", "result")  # grad_fn._saved_noise, _saved_result (and lower, upper, training)

    def backward(self, grad):
        noise, out = self.saved_tensors
        return (_rrelu_backward(RreluWithNoiseBackwardBackward0, grad, out, noise, self.lower, self.upper,
                                self.training),)


def _rrelu_values(input, lower, upper, training, node_class):
    x = input._array
    if x.dtype.kind != "f" or (training and x.dtype == np.float16):
        # (PyTorch's kernel: leaky_relu's with the mean slope outside training; its training
        # kernel has no float16 version)
        raise kernel_not_implemented("rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu", input)
    noise = np.ones(x.shape, dtype=x.dtype)
    if training:
        # one draw per element <= 0, in order, as PyTorch's loop does (uniform in double, between
        # the bounds first rounded to the dtype it computes in: float32 but for float64 inputs)
        below = x <= 0
        computed_in = np.float64 if x.dtype == np.float64 else np.float32
        low, high = (float(computed_in(bound)) for bound in (lower, upper))
        slopes = _random.uniform((int(below.sum()),), low, high, dtype=np.float64, fused=False)
        noise[below] = slopes.astype(x.dtype)
        out = np.where(below, x * noise, x).astype(x.dtype, copy=False)
    else:
        out = np.where(x >= 0, x, times_number(x, (lower + upper) / 2)).astype(x.dtype, copy=False)
    out = np.asarray(out, order="C")    # (PyTorch's result is row-major, whatever the input's layout)
    noise = _wrap(noise)
    settings = dict(lower=lower, upper=upper, training=training)
    if node_class is RreluWithNoiseBackward1:      # in place: the input will be gone, save the result
        return save_result(result(out, node_class, (input,), **settings), noise)
    return result(out, node_class, (input,), saved=(input, noise), **settings)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky relu: input where input >= 0, else slope * input, the slope drawn
    uniformly from [lower, upper) for each element while training, (lower + upper) / 2 in eval.

    Gradient: grad times the slope used (1 above 0)."""
    if _FuncTransforms.vmaps and _shows_as_batched(input):
        raise RuntimeError("vmap: we do not yet support aten::rrelu. Please file an issue")
    if not inplace:
        return _rrelu_values(input, lower, upper, training, RreluWithNoiseBackward0)
    in_place = lambda t: _rrelu_values(t, lower, upper, training, RreluWithNoiseBackward1)  # noqa: E731
    if training:
        return apply_inplace(input, in_place)
    # (outside training, leaky_relu's kernel: an element that overlapping windows show at several
    # positions is changed once per position, as for any in-place activation)
    return apply_pointwise_inplace(input, in_place)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """``rrelu(input, lower, upper, training, inplace=True)``: input changed in place."""
    return rrelu(input, lower, upper, training, inplace=True)


def hardshrink_method(self, lambd=0.5):
    """``F.hardshrink(self, lambd)`` as a method."""
    lambd = _check_lambd("hardshrink", lambd, position=1)
    return hardshrink(self, lambd)


def prelu_method(self, weight):
    """``F.prelu(self, weight)`` as a method."""
    if not isinstance(weight, Tensor):
        raise TypeError(f"prelu(): argument 'weight' (position 1) must be Tensor, not {type_name(weight)}")
    return prelu(self, weight)
