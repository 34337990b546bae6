"""Forward-mode automatic differentiation: tangents that travel *with* the values.

Reverse mode (``backward``) records the operations and walks them backwards
afterwards. Forward mode needs no graph at all: every tensor may carry a
second tensor of the same shape, its *tangent* (a direction, a small change
of that tensor), and every operation computes the tangent of its output right
away, from the tangents of its inputs:

    out = f(a, b)   ->   out_tangent = df/da . a_tangent + df/db . b_tangent

This is the Jacobian-vector product J v, computed alongside the values in one
pass. A value together with its tangent is a *dual number* (a + b.eps, with
eps**2 = 0); PyTorch calls such a tensor a dual tensor::

    with forward_ad.dual_level():
        x = forward_ad.make_dual(primal, tangent)
        y = f(x)
        value, jvp = forward_ad.unpack_dual(y)

Where the rules live: every operation of minigrad/_ops records its backward
node through one function, ``_ops.result``. While a dual level is open, that
function also calls ``push_tangent`` below, which looks for tangents on the
inputs and, if there are any, asks the node class for its forward rule: the
``jvp`` method written right next to its ``backward``. An operation without
its own rule still gets correct tangents: ``jvp_from_backward``
obtains J v from the backward formula (the vector-Jacobian product is linear
in the gradient, so differentiating it once more transposes it back).

PyTorch: torch/autograd/forward_ad.py; its rules are the ``result:`` lines of
tools/autograd/derivatives.yaml.
"""
import functools
import weakref
from collections import namedtuple

import numpy as np

from .._type_names import type_name
from .grad_mode import _State, enable_grad, no_grad
from .graph import Node, keep_settings
from .._tensor import Tensor, _wrap
from .._functorch import seeing_through_vmap

__all__ = ["dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual",
           "UnpackedDualTensor"]


class _DualLevelState:
    """The state of forward mode. ``open`` is the one flag every operation checks.

    There is one such object, ``_DualLevel``: Python reads an object's own attribute
    faster than a class attribute, and every operation reads ``_DualLevel.open``.
    """

    def __init__(self):
        self.open = False            # True while a dual level is entered (and not paused)
        self.current = None          # the level number (PyTorch counts from 0), or None
        self.tangent_holders = []    # weak references to tensors that got a tangent at this level
        self.observers = []          # functions told about every tangent pushed (used by minigrad.viz)


_DualLevel = _DualLevelState()


UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = "What ``unpack_dual`` returns: the value and its tangent (or None)."


def enter_dual_level():
    """Open a dual level and return its number. Only one level may be open at a time."""
    if _DualLevel.current is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _DualLevel.current = 0
    _DualLevel.open = True
    _DualLevel.tangent_holders = []
    return 0


def exit_dual_level(*, level=None):
    """Close the dual level: every tangent made inside it is dropped."""
    if level is None:
        level = _DualLevel.current
    if level is None or level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != _DualLevel.current:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was "
                           "created. This is not supported.")
    for ref in _DualLevel.tangent_holders:
        tensor = ref()
        if tensor is not None:
            tensor.__dict__.pop("_fw_tangent", None)
    _DualLevel.tangent_holders = []
    _DualLevel.current = None
    _DualLevel.open = False


class dual_level:
    """Context manager: ``with dual_level():`` opens a level for dual tensors, closes it after.

    Tangents only exist inside the level; leaving it makes every dual tensor a
    plain tensor again.
    """

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc_info):
        exit_dual_level()

    def __call__(self, function):
        """``@dual_level()`` on a function: each call runs inside its own dual level."""
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with dual_level():
                return function(*args, **kwargs)
        return wrapper

    def __repr__(self):
        return f"<{type(self).__module__}.dual_level object at {hex(id(self))}>"


def _tangent_of(value):
    """The tangent a tensor carries at the open level, or None."""
    attributes = getattr(value, "__dict__", None)
    return attributes.get("_fw_tangent") if attributes else None


def _set_tangent(tensor, tangent):
    tensor.__dict__["_fw_tangent"] = tangent
    _DualLevel.tangent_holders.append(weakref.ref(tensor))


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` that carries ``tangent``: the direction forward mode pushes along.

    ``tangent`` must have the same size as ``tensor``; both must be floating point.
    """
    from .._ops.shape import view      # lazy: the operations import this module
    if level is None:
        level = _DualLevel.current
        if level is None:
            raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                               "make sure to enter_dual_level() first.")
    if not tensor.is_floating_point():
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not tangent.is_floating_point():
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if level != _DualLevel.current:
        raise RuntimeError("Invalid level given to _make_dual")
    if _tangent_of(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {level} is not supported.")
    if tangent.shape != tensor.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original "
            f"Tensor, this is not supported. Tensor is of size {list(tensor.shape)} while the given "
            f"forward gradient is of size {list(tangent.shape)}.")
    if _layout(tangent._array) != _layout(tensor._array):
        # PyTorch keeps the tangent laid out in memory like the primal: a copy if it is not
        copy = np.empty_like(tensor._array, dtype=tangent._array.dtype)
        copy[...] = tangent._array
        tangent = _wrap(copy)
    with _paused():
        dual = view(tensor, tuple(tensor.shape))       # a view, as in PyTorch
    _set_tangent(dual, tangent)
    return dual


def _layout(array):
    """Strides counted in elements (a size-1 dim may have any stride)."""
    return tuple(0 if n == 1 else stride // array.itemsize for n, stride in zip(array.shape, array.strides))


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of a dual tensor; the tangent is None for a plain tensor."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                        f"{type_name(tensor)}")
    if level is None:
        level = _DualLevel.current
    if level is None or level < 0:
        return UnpackedDualTensor(tensor, None)
    if _DualLevel.current is None:           # a level number, but no level open: no tangent
        return UnpackedDualTensor(_alias(tensor), None)
    if level != _DualLevel.current:
        raise RuntimeError("Invalid level given to _fw_primal")
    if not _DualLevel.open:                  # paused inside a custom Function's forward
        return UnpackedDualTensor(tensor, None)
    return UnpackedDualTensor(_alias(tensor), _tangent_of(tensor))


class Identity(Node):
    """result = unpack_dual(self).primal (the same values, without the tangent)   ->   grad_self = grad"""

    def name(self):
        """``'torch::autograd::Identity'``: PyTorch spells out this C++ node's namespace."""
        return "torch::autograd::Identity"

    def backward(self, grad):
        return (grad,)


def _alias(tensor):
    """A view of ``tensor`` with the same shape, recorded as Identity (PyTorch's primal)."""
    from .._ops import result                 # lazy: the operations import this module
    from .._ops.shape import _make_view
    with _paused():
        return _make_view(result(tensor._array.view(), Identity, (tensor,)), tensor)


class _paused:
    """Inside: operations do not look at tangents (used while a rule computes one)."""

    def __enter__(self):
        self.was_open = _DualLevel.open
        _DualLevel.open = False

    def __exit__(self, *exc_info):
        _DualLevel.open = self.was_open


# --- the one place where tangents are pushed through an operation ------------------------------

def input_tangents(inputs):
    """One tangent per input: its own, zeros for a float tensor without one, None otherwise.

    Returns None when no input has a tangent (then the output gets none either).
    """
    tangents = [_tangent_of(value) for value in inputs]
    if all(tangent is None for tangent in tangents):
        return None
    for i, value in enumerate(inputs):
        # a float tensor without a tangent is a constant: its tangent is 0
        if tangents[i] is None and getattr(value, "_array", None) is not None \
                and value._array.dtype.kind == "f":
            tangents[i] = _wrap(np.zeros(value._array.shape, dtype=value._array.dtype))
            tangents[i]._stands_for_no_tangent = True     # (mul's rule treats it as PyTorch does)
    return tangents


def result_with_tangent(result, array, node_class, inputs, saved, attributes):
    """``_ops.result`` while a dual level is open: record as usual, then push the tangent."""
    with _paused():
        out = result(array, node_class, inputs, saved, **attributes)
    push_tangent(out, node_class, inputs, saved, attributes)
    return out


def push_tangent(out, node_class, inputs, saved, attributes):
    """Called by ``_ops.result`` after an operation while a dual level is open.

    If an input carries a tangent, compute the output's tangent with the node
    class's forward rule (``jvp``) and attach it to ``out``.
    """
    tangents = input_tangents(inputs)
    if tangents is None or out._array.dtype.kind != "f":
        return
    node = _rule_node(node_class, inputs, saved, attributes, out)
    # (a rule is derivative code: it sees the whole graph, not what a vmap or grad shows the user)
    with _paused(), seeing_through_vmap():
        rule = getattr(node, "jvp", None)
        if rule is not None:
            tangent = rule(tangents, inputs, out)
        else:
            tangent = jvp_from_backward(node, tangents, inputs, out)
        tangent = _fit(tangent, out)
        if any(tangent is t for t in tangents):
            tangent = tangent.clone()     # out gets its own tangent (a later in-place change must not leak)
    _set_tangent(out, tangent)
    for observer in _DualLevel.observers:
        observer(node_class.__name__, inputs, out)


def push_tangents_of_pieces(pieces, input, node_class, attributes):
    """The same for operations with several outputs (unbind, split): one tangent per piece."""
    tangents = input_tangents((input,))
    if tangents is None or not pieces:
        return
    node = node_class()
    keep_settings(node, attributes)
    with _paused():
        piece_tangents = node.jvp(tangents, (input,), pieces)
    for piece, tangent in zip(pieces, piece_tangents):
        _set_tangent(piece, tangent)


def push_function_tangents(function, ctx, args, outputs):
    """Forward mode through a custom ``autograd.Function``: its ``jvp`` gives the tangents."""
    tangents = [_tangent_of(a) for a in args]
    if all(t is None for t in tangents):
        return
    tangents = input_tangents(args)
    saved = ctx.__dict__.get("_saved_for_forward")
    previous = ctx._saved, ctx._saved_versions
    if saved is not None:               # jvp reads what save_for_forward kept
        ctx.save_for_backward(*saved)
    try:
        with _paused():
            results = function.jvp(ctx, *tangents)
    finally:
        ctx._saved, ctx._saved_versions = previous
    if not isinstance(results, tuple):
        results = (results,)
    for out, tangent in zip(outputs, results):
        if isinstance(out, Tensor) and tangent is not None and out._array.dtype.kind == "f":
            _set_tangent(out, tangent)


def _with_tangent_of(tensor, old):
    """In-place operations compute on a stand-in for the old value: give it the tangent too."""
    if _DualLevel.open:
        tangent = _tangent_of(tensor)
        if tangent is not None:
            old.__dict__["_fw_tangent"] = tangent
    return old


def move_tangent(new, tensor):
    """After ``tensor`` took ``new``'s values in place, its tangent changes in place too (returns tensor).

    As in PyTorch, the tangent of a view is a view of its base's tangent, so
    writing into the tangent's memory (rather than swapping in a new tangent)
    keeps views and bases in step: ``x.mul_(2)`` also changes the tangent of
    ``x[0]``, and ``base[:2].copy_(dual)`` gives ``base`` a tangent.
    """
    tangent = _tangent_of(new) if _DualLevel.open else None
    if tangent is None:
        return tensor
    current = _tangent_of(tensor)
    if current is None and tensor._base is not None:
        current = _view_of_base_tangent(tensor)
        if current is not None:
            _set_tangent(tensor, current)
    if (current is not None and current._array.shape == tangent._array.shape
            and current._array.flags.writeable and not current._graph_requires_grad
            and not tangent._graph_requires_grad):
        current._array[...] = tangent._array
        current._version_counter[0] += 1
        return tensor
    _set_tangent(tensor, tangent)
    return tensor


def _view_of_base_tangent(view):
    """The part of the base's tangent (zeros if the base had none) that ``view`` looks at."""
    base = view._base
    base_array, view_array = base._array, view._array
    if not base_array.flags.c_contiguous:
        return None
    base_tangent = _tangent_of(base)
    if base_tangent is None:
        base_tangent = _wrap(np.zeros(base_array.shape, dtype=base_array.dtype))
        _set_tangent(base, base_tangent)
    target = base_tangent._array
    if target.dtype != base_array.dtype or not target.flags.c_contiguous:
        return None
    # the view starts this many elements into the base, and steps through it with the same strides
    offset = (view_array.__array_interface__["data"][0]
              - base_array.__array_interface__["data"][0]) // base_array.itemsize
    region = np.lib.stride_tricks.as_strided(target.reshape(-1)[offset:], shape=view_array.shape,
                                             strides=view_array.strides)
    tangent = _wrap(region)
    tangent._base = base_tangent
    tangent._version_counter = base_tangent._version_counter
    tangent._attr_version = tangent._version_counter[0]     # (its node is up to date: _ops/views.py)
    return tangent


def _rule_node(node_class, inputs, saved, attributes, out):
    """A node object holding the operation's settings, for its forward rule to read."""
    node = node_class()
    node.next_functions = tuple((_HAS_EDGE if _tangent_of(v) is not None or
                                 getattr(v, "_array", None) is not None else None, 0) for v in inputs)
    node._output_shape = out._array.shape
    node._output_dtype = out._array.dtype
    if saved is not None:
        node.save_for_backward(*saved)
    if attributes:
        keep_settings(node, attributes)
    return node


_HAS_EDGE = object()


def _fit(tangent, out):
    """The tangent must have the output's shape (an input may have been broadcast)."""
    if tangent is None:
        return _wrap(np.zeros(out._array.shape, dtype=out._array.dtype))
    if tangent._array.shape != out._array.shape:
        tangent = tangent + _wrap(np.zeros(out._array.shape, dtype=tangent._array.dtype))
    return tangent


def jvp_from_backward(node, tangents, node_inputs, out):
    """J v from the backward formula, for an operation that has no forward rule of its own.

    A rule may also call it itself, after saving what its backward reads (an
    operation that saves its values only after ``result`` returns)::

        def jvp(self, tangents, inputs, out):
            self.save_for_backward(inputs[0], out)
            return jvp_from_backward(self, tangents, inputs, out)

    backward(u) = u^T J is linear in u, so the derivative of u^T J v with
    respect to u is J v. Two passes instead of one: slower, but always right.
    A backward written with numpy (not differentiable in u) falls back to
    building J v one output element at a time.
    """
    from . import grad      # lazy: autograd/__init__ defines grad after importing this module
    u = _wrap(np.zeros(out._array.shape, dtype=out._array.dtype))
    u._requires_grad = True
    with enable_grad():
        total = _backward_dot_tangents(node, u, tangents)
        if total is None or not total._graph_requires_grad:
            return _jvp_row_by_row(node, tangents, out)
        (jv,) = grad(total, u, create_graph=True, allow_unused=True)
    differentiable = _State.enabled and any(
        getattr(v, "requires_grad", False) for v in list(tangents) + list(node_inputs))
    if jv is not None and not differentiable:
        jv = jv.detach()          # nothing outside depends on it: no graph to keep
    return jv


def _backward_dot_tangents(node, grad_output, tangents):
    """sum_i <backward(grad_output)_i, tangent_i>: the number u^T J v."""
    grads = node.backward(grad_output)
    if not isinstance(grads, tuple):
        grads = (grads,)
    total = None
    for g, t in zip(grads, tangents):
        if g is not None and t is not None:
            term = (g * t).sum()
            total = term if total is None else total + term
    return total


def _jvp_row_by_row(node, tangents, out):
    """(J v)[k] = e_k^T J v: one backward call per output element (no graph is kept)."""
    values = np.zeros(out._array.size, dtype=out._array.dtype)
    with no_grad():
        for k in range(values.size):
            one_hot = np.zeros(out._array.size, dtype=out._array.dtype)
            one_hot[k] = 1
            total = _backward_dot_tangents(node, _wrap(one_hot.reshape(out._array.shape)), tangents)
            # (the number itself: inside vmap total is batched, and .item() is refused to the
            # user's code, not to minigrad's own arithmetic on one sample)
            values[k] = 0 if total is None else total._array.item()
    return _wrap(values.reshape(out._array.shape))

