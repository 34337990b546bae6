"""Writing your own differentiable operation: ``minigrad.autograd.Function``.

    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return 2 * x * grad_output

    y = Square.apply(x)        # y.grad_fn is a <SquareBackward object>

``forward`` runs with recording switched off; ``apply`` then puts a single
node, ``SquareBackward``, in the graph. That node *is* the ``ctx`` object:
what forward saves on ctx is what backward finds there. Built-in operations
(minigrad/_ops) follow the same pattern. (PyTorch: torch/autograd/function.py.)
"""
import inspect
import functools
import warnings

import numpy as np

from .anomaly_mode import _Anomaly, record_forward_stack
from .grad_mode import no_grad, is_grad_enabled
from .graph import Node, connect, gradient_edge, needs_grad, _sequence_numbers
from ._saved_tensor_hooks import _Hooks, pack_saved
from .._tensor import Tensor, _wrap
from .forward_ad import _DualLevel, _paused, push_function_tangents


class FunctionCtx:
    """The ``ctx`` argument: a place to keep what backward will need.

    Besides ``save_for_backward``, forward (or setup_context) may tell autograd:

    * ``mark_dirty(x)``               - forward changed input ``x`` in place and returns it;
    * ``mark_non_differentiable(i)`` - output ``i`` (e.g. indices) gets no gradient;
    * ``set_materialize_grads(False)`` - backward gets None, not zeros, for unused outputs;

    and read ``ctx.needs_input_grad`` (one bool per forward argument) to skip
    gradients nobody needs.
    """

    needs_input_grad = ()
    materialize_grads = True
    _non_differentiable = ()
    _dirty = ()

    def mark_non_differentiable(self, *tensors):
        """Outputs (such as indices) that get no gradient."""
        self._non_differentiable = tuple(id(t) for t in tensors)

    def mark_dirty(self, *tensors):
        """Inputs that forward modified in place (and returns as outputs)."""
        self._dirty = tensors

    def save_for_forward(self, *tensors):
        """Tensors that ``jvp`` (forward mode) will read from ``ctx.saved_tensors``."""
        self._saved_for_forward = tensors

    def set_materialize_grads(self, value):
        """With False, backward receives None instead of zeros for unused outputs."""
        self.materialize_grads = bool(value)


class BackwardCFunction(Node, FunctionCtx):
    """results = Function.forward(ctx, *inputs), a custom Function   ->
        grad_inputs = Function.backward(ctx, *grads)"""

    _forward_cls = None
    _packs_after_forward = True     # saved-tensor hooks see ctx's tensors once forward returned

    def __getattr__(self, name):
        # what forward kept on ctx (ctx.scale = 2) reads as grad_fn._saved_scale too. (Only
        # this kind of node has a __getattr__: see Node.__init_subclass__ for what it costs.)
        if name.startswith("_saved_"):
            return self._saved_value(name[len("_saved_"):])
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __repr__(self):
        # PyTorch creates these node classes in torch.autograd.function, and says so
        return f"<minigrad.autograd.function.{type(self).__name__} object at {hex(id(self))}>"

    def _user_backward(self):
        """The Function's ``backward``, or its ``vjp`` (another name for it); not both."""
        cls = self._forward_cls
        if cls.backward is not Function.backward and cls.vjp is not Function.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not "
                               "allowed. You should only implement one of them.")
        return cls.vjp if cls.vjp is not Function.vjp else cls.backward

    def backward(self, *grad_outputs):
        if self.materialize_grads:
            grad_outputs = tuple(
                g if g is not None or dtype is None else _zeros(shape, dtype)
                for g, shape, dtype in zip(grad_outputs, self._output_shapes, self._output_dtypes))
        grads = self._user_backward()(self, *grad_outputs)
        if not isinstance(grads, tuple):
            grads = (grads,)
        expected = len(self._input_is_tensor)
        if len(grads) > expected and all(g is None for g in grads[expected:]):
            grads = grads[:expected]    # extra Nones are fine: e.g. for an optional argument left out
        if len(grads) != expected:
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients "
                f"(expected {expected}, got {len(grads)})")
        # one gradient per forward argument; only tensor arguments have edges
        return tuple(g for g, is_tensor in zip(grads, self._input_is_tensor) if is_tensor)


def _zeros(shape, dtype):
    return _wrap(np.zeros(shape, dtype=dtype or np.float32))


LEGACY_CALL_MESSAGE = (
    "Legacy autograd function with non-static forward method is deprecated. Please use "
    "new-style autograd function with static forward method. (Example: "
    "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")


class _FuncTransforms:
    """How many torch.func transforms (grad, vjp, jvp, jacrev, jacfwd, vmap) are running a
    function right now, and how many of them are vmaps (minigrad/func sets these)."""

    depth = 0
    vmaps = 0


_NEEDS_SETUP_CONTEXT = (
    "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, ...), "
    "it must override the setup_context staticmethod. For more details, please see "
    "https://pytorch.org/docs/main/notes/extending.func.html")


def _check_usable_in_transforms(cls, uses_setup_context):
    """PyTorch's rules for a custom Function inside torch.func transforms."""
    if not uses_setup_context:
        raise RuntimeError(_NEEDS_SETUP_CONTEXT)
    if _FuncTransforms.vmaps and cls.generate_vmap_rule and "vmap" in _own_methods(cls):
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it has both generate_vmap_rule=True and an "
            "overridden vmap staticmethod. Please set generate_vmap_rule=False or delete the "
            "overridden vmap staticmethod to avoid ambiguity. For more details, please see "
            "https://pytorch.org/docs/main/notes/extending.func.html")
    if _FuncTransforms.vmaps and not cls.generate_vmap_rule and "vmap" not in _own_methods(cls):
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please "
            "override and implement the vmap staticmethod or set generate_vmap_rule=True. For more "
            "details, please see https://pytorch.org/docs/main/notes/extending.func.html")


def _own_methods(cls):
    """Names defined by the user's classes (not by Function itself)."""
    return {name for klass in cls.__mro__ if klass not in (Function, object) for name in vars(klass)}


class Function:
    """Base class for operations with a hand-written derivative.

    Subclasses define two static methods, ``forward(ctx, *args)`` and
    ``backward(ctx, *grad_outputs)`` (one gradient per forward argument, None
    for arguments that are not tensors), and are called with ``.apply(*args)``.

    The other style, as in PyTorch: ``forward(*args)`` without ctx plus a
    static ``setup_context(ctx, inputs, output)`` that saves what backward needs.
    Only that style works inside torch.func transforms; inside ``vmap`` the class
    also needs ``generate_vmap_rule = True`` (or its own ``vmap`` staticmethod).
    """

    # inside vmap: may the Function simply run per sample? (minigrad's vmap always loops over
    # the samples, but like PyTorch it asks the class to say so)
    generate_vmap_rule = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Each Function gets its own node class, named like PyTorch's: SquareBackward.
        cls._backward_cls = type(cls.__name__ + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": cls.__module__})

    def __init__(self, *args, **kwargs):
        # Old PyTorch code made Function objects; today everything is static.
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch.",
            DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(LEGACY_CALL_MESSAGE)

    @staticmethod
    def forward(ctx, *args, **kwargs):
        """Compute the outputs from the inputs (no recording happens in here).

        With ``setup_context`` defined, ``forward`` takes only the inputs; otherwise its first
        argument is ``ctx``, where it can ``ctx.save_for_backward(...)`` what backward needs.
        """
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        """The vector-Jacobian product: one gradient per output in, one per forward input out.

        Return ``None`` for inputs that need no gradient (``ctx.needs_input_grad[i]`` says which
        do). Run under ``create_graph=True``, the operations in here are recorded too.
        """
        raise NotImplementedError("You must implement either the backward or vjp method for your "
                                  "custom autograd.Function to use it with backward mode AD.")

    vjp = backward      # (the same method under its other name: define one of the two)

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """Forward mode: one tangent per forward argument in, one per output back."""
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function "
                                  "to use it with forward mode AD.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Optional: fill ``ctx`` from ``inputs`` and ``output`` (then ``forward`` takes no ``ctx``)."""
        raise NotImplementedError("setup_context is not implemented.")

    def __call__(self, *args, **kwargs):
        # Square()(x) is how very old PyTorch called Functions; now it is Square.apply(x)
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)\n"
            f"minigrad hint: call {type(self).__name__}.apply(...) instead of "
            f"{type(self).__name__}()(...)")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run forward without recording, then put one node for the whole Function in the graph."""
        if cls.setup_context is not Function.setup_context:
            # as in PyTorch, forward's signature takes the arguments, its defaults filled in
            # (so setup_context sees them all, and a missing one gets Python's own words)
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, {}
        ctx = cls._backward_cls()
        ctx._input_is_tensor = tuple(isinstance(a, Tensor) for a in args)
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._graph_requires_grad for a in args)
        uses_setup_context = cls.setup_context is not Function.setup_context
        if _FuncTransforms.depth:
            _check_usable_in_transforms(cls, uses_setup_context)
            if _FuncTransforms.vmaps and any(getattr(a, "_bdim", None) is not None for a in args):
                from ..func._batch_rules import apply_per_sample, apply_vmap_staticmethod
                if "vmap" in _own_methods(cls):      # the Function's own batching rule
                    return apply_vmap_staticmethod(cls, args)
                # a vmap's BatchedTensor (the whole batch): one node per sample, stacked
                return apply_per_sample(cls, args)
        with no_grad(), _paused():       # forward never sees tangents: jvp computes them
            if uses_setup_context:
                output = cls.forward(*args)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)    # (keywords are not inputs)
        is_tuple = isinstance(output, tuple)
        outputs = output if is_tuple else (output,)
        tensor_args = [a for a in args if isinstance(a, Tensor)]
        if not needs_grad(tensor_args):
            if _DualLevel.open:      # forward mode: jvp gives the outputs' tangents
                push_function_tangents(cls, ctx, args, outputs)
            return output            # (nothing recorded: what ctx saved is never looked at)
        # like PyTorch, look at what ctx saved once forward has returned, when the call is
        # recorded: tensors (or None) only; other values belong on ctx as attributes
        for i, value in enumerate(getattr(ctx, "_saved", None) or ()):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is "
                                f"of type {type(value).__name__}")
        outputs = _connect_outputs(ctx, tensor_args, outputs)
        if _Hooks.stack and ctx._saved:      # saved_tensors_hooks: pack what forward saved
            pack_saved(ctx)
        if _DualLevel.open:          # after recording, so tangents can depend on the outputs' graph
            push_function_tangents(cls, ctx, args, outputs)
        return outputs if is_tuple else outputs[0]


def _connect_outputs(ctx, tensor_args, outputs):
    """Make ``ctx`` the grad_fn of the outputs that can have a gradient."""
    dirty = ctx._dirty
    for tensor in dirty:
        # (PyTorch asks for the node as recorded, not made again, and for requires_grad, which a
        # view takes from its base)
        if tensor._grad_fn is None and tensor._graph_requires_grad:
            raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
    ctx.next_functions = tuple(gradient_edge(a) for a in tensor_args)

    def is_dirty(o):
        return any(o is d for d in dirty)

    # A dirty input is returned as itself (it now stands for the result, like x.add_(1));
    # any other input returned unchanged becomes a new tensor, a view of the input (as in
    # PyTorch), so the input keeps its history. (Marked non-differentiable, it stays so.)
    non_differentiable = set(ctx._non_differentiable)
    outputs = tuple(_returned_input_view(o, non_differentiable)
                    if isinstance(o, Tensor) and not is_dirty(o) and any(o is a for a in tensor_args)
                    else o for o in outputs)
    ctx._num_outputs = len(outputs)
    # (an output that is not a tensor, as PyTorch allows, gets None as its gradient)
    ctx._output_shapes = [o._array.shape if isinstance(o, Tensor) else () for o in outputs]
    ctx._output_dtypes = [o._array.dtype if isinstance(o, Tensor) else None for o in outputs]
    ctx._output_shape = ctx._output_shapes[0]
    ctx._output_dtype = ctx._output_dtypes[0]
    ctx._sequence_number = next(_sequence_numbers)
    if _Anomaly.enabled:
        record_forward_stack(ctx)
    for i, o in enumerate(outputs):
        if not isinstance(o, Tensor):
            continue
        if is_dirty(o):
            o._version_counter[0] += 1       # marking it dirty counts as a change, as in PyTorch
        if id(o) in non_differentiable or o._array.dtype.kind != "f":
            continue
        o._grad_fn = ctx
        o._output_nr = i
        if o._base is not None and is_dirty(o):     # (a view changed in place: this node is its own)
            o._attr_version = o._version_counter[0]
    # saved outputs: changed in place later, PyTorch's error names this Function ("output 0 of
    # Foo"), not the tensor's grad_fn by then
    ctx._saved_output_nrs = {k: o._output_nr for k, s in enumerate(ctx._saved or ())
                             for o in outputs if o is not None and s is o and o._grad_fn is ctx}
    return outputs


def _returned_input_view(tensor, non_differentiable):
    """A Function's output that is one of its inputs returned as-is: a new tensor viewing the
    input. PyTorch refuses to change such a view in place (views.check_view_inplace): autograd
    would have to rewrite the Function's backward."""
    from .._ops.views import register_view
    out = register_view(_wrap(tensor._array), tensor)
    out._custom_function_view = True
    if id(tensor) in non_differentiable:
        non_differentiable.add(id(out))
    return out


def once_differentiable(backward):
    """Decorator for a backward that is not itself differentiable (runs without recording).

    With ``create_graph=True``, the gradients it returns get an ``Error`` node
    as grad_fn: differentiating them again raises instead of silently giving
    a wrong (zero) second derivative.
    """
    @functools.wraps(backward)
    def wrapper(ctx, *grad_outputs):
        with no_grad():
            grads = backward(ctx, *grad_outputs)
        if not is_grad_enabled() or not any(getattr(g, "requires_grad", False) for g in grad_outputs):
            return grads
        single = not isinstance(grads, tuple)
        grads = _delayed_error((grads,) if single else grads)
        return grads[0] if single else grads
    return wrapper


class Error(Node):
    """result = a once_differentiable backward, recorded   ->
        grad_inputs = error: differentiating it twice is not supported"""

    def name(self):
        """``'torch::autograd::Error'``: PyTorch spells out this C++ node's namespace."""
        return "torch::autograd::Error"

    def backward(self, *grad_outputs):
        raise RuntimeError(
            "trying to differentiate twice a function that was marked with @once_differentiable")


def _delayed_error(grads):
    """The gradients again, each an output of one shared ``Error`` node.

    As in PyTorch, the node's edges do not lead back into the real graph (that
    backward was not recorded): each goes to a stand-in leaf, a detached copy
    of the gradient that requires grad, so that the outputs require grad too.
    """
    stand_ins = []
    for grad in grads:
        if isinstance(grad, Tensor):
            grad = grad.detach()
            grad._requires_grad = True
        stand_ins.append(grad)
    node = Error()
    outputs = []
    for k, grad in enumerate(grads):
        if not isinstance(grad, Tensor):
            outputs.append(grad)
            continue
        out = _wrap(grad._array)
        if not outputs or all(not isinstance(o, Tensor) for o in outputs):
            connect(out, node, stand_ins)         # the first tensor output makes the node's edges
        out._grad_fn, out._output_nr = node, k
        outputs.append(out)
    return tuple(outputs)
