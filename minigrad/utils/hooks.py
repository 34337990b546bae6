"""Handles for hooks, and the machinery behind a Module's full backward hooks (PyTorch:
torch/utils/hooks.py).

A Module has no node of its own in the autograd graph: its forward is many operations. To
call a hook with "the gradients of the module's inputs and outputs", ``BackwardHook`` puts a
do-nothing node (``BackwardHookFunctionBackward``) in front of the inputs and another one
after the outputs. When backward reaches the output node it has the gradients of the outputs
(the pre-hooks may replace them); when it leaves the input node it has those of the inputs,
and the full hooks run (and may replace them).
"""
import itertools
import warnings
import weakref
from collections import OrderedDict

from .._tensor import Tensor
from .._warnings import stacklevel_outside_minigrad
from ..autograd.grad_mode import is_grad_enabled


def _reference(hooks):
    """A weak reference to a hook dict where it can have one (an OrderedDict can, so a dead
    module's hooks are not kept alive by its handles), else a call that returns it."""
    try:
        return weakref.ref(hooks)
    except TypeError:
        return lambda: hooks


class RemovableHandle:
    """What ``register_*_hook`` returns: ``handle.remove()`` unregisters the hook (also on
    leaving a ``with handle:`` block). ``extra_dict``: other dictionaries keyed by the same
    id (a Module keeps "this hook takes kwargs" there) that forget it too."""

    next_id = itertools.count()

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = _reference(hooks_dict)
        self.id = next(RemovableHandle.next_id)
        if extra_dict is None:
            extra_dict = ()
        elif isinstance(extra_dict, dict):
            extra_dict = (extra_dict,)
        self.extra_dict_ref = tuple(_reference(d) for d in extra_dict)

    def remove(self):
        """Unregister the hook (a second call does nothing)."""
        for ref in (self.hooks_dict_ref,) + self.extra_dict_ref:
            hooks = ref()
            if hooks is not None:
                hooks.pop(self.id, None)

    def __getstate__(self):
        # (weak references cannot be pickled: keep the dicts themselves)
        return (self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref))

    def __setstate__(self, state):
        hooks, self.id, extra = state
        self.hooks_dict_ref = _reference(OrderedDict() if hooks is None else hooks)
        self.extra_dict_ref = tuple(_reference(d) for d in extra if d is not None)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


def _tensor_positions(values):
    """The positions of the tensors among ``values``."""
    return [i for i, value in enumerate(values) if isinstance(value, Tensor)]


class BackwardHook:
    """The full backward hooks (and backward pre-hooks) of one call of ``module``.

    ``Module.__call__`` passes the inputs through ``setup_input_hook`` before forward and the
    result through ``setup_output_hook`` after it. Hooks see one entry per argument (None
    where the argument is not a tensor or gets no gradient)."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None          # set by the output node, read by the input node
        self.n_outputs = -1
        self.output_tensors_index = None  # None: no output went through a hook node
        self.n_inputs = -1
        self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size):
        """Gradients of the tensors, spread back to one entry per argument."""
        packed = [None] * size
        for i, value in zip(indices, values):
            packed[i] = value
        return tuple(packed)

    @staticmethod
    def _unpack_none(indices, values):
        return tuple(values[i] for i in indices)

    def _wrap_tensors(self, values, on_node):
        """Pass the tensors among ``values`` through one BackwardHookFunction node; ``on_node``
        registers the hook on that node. Nothing is wrapped when no gradient will flow."""
        positions = _tensor_positions(values)
        tensors = [values[i] for i in positions]
        if not (is_grad_enabled() and any(t.requires_grad for t in tensors)):
            return values, None
        from ..nn.modules._functions import BackwardHookFunction
        new_tensors = BackwardHookFunction.apply(*tensors)
        # (the outputs that got no node are the tensors that did not require grad)
        on_node(next(t.grad_fn for t in new_tensors if t.grad_fn is not None))
        values = list(values)
        for i, tensor in zip(positions, new_tensors):
            values[i] = tensor
        return tuple(values), positions

    # --- the inputs' side: the full hooks run once the inputs' gradients are known ----------

    def setup_input_hook(self, args):
        """The module's positional arguments, their tensors passed through a hook node."""
        def on_node(node):
            node.register_hook(self._call_user_hooks)
        wrapped, self.input_tensors_index = self._wrap_tensors(args, on_node)
        self.n_inputs = len(args)
        return wrapped

    def _call_user_hooks(self, grad_inputs, _grad_outputs):
        if self.grad_outputs is None:
            # the gradient reached the inputs without passing the outputs' node (e.g. a
            # second backward through a graph that only kept part of the module)
            return None
        grads = self._pack_with_none(self.input_tensors_index, grad_inputs, self.n_inputs)
        for hook in self.user_hooks:
            replaced = hook(self.module, grads, self.grad_outputs)
            if replaced is None:
                continue
            if len(replaced) != len(grads):
                raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                   f"got {len(replaced)}, but expected {len(grads)}")
            grads = replaced
        self.grad_outputs = None
        return self._unpack_none(self.input_tensors_index, grads)

    # --- the outputs' side: the pre-hooks run as soon as the outputs' gradients arrive ------

    def setup_output_hook(self, result):
        """The module's result (a tensor or a tuple), its tensors passed through a hook node."""
        single = not isinstance(result, tuple)
        values = (result,) if single else result

        def on_node(node):
            node.register_hook(self._on_output_gradients)
        wrapped, self.output_tensors_index = self._wrap_tensors(values, on_node)
        self.n_outputs = len(values)
        return wrapped[0] if single else wrapped

    def _on_output_gradients(self, _grad_inputs, grad_outputs):
        self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_outputs,
                                                 self.n_outputs)
        for hook in self.user_pre_hooks:
            replaced = hook(self.module, self.grad_outputs)
            if replaced is None:
                continue
            if len(replaced) != len(self.grad_outputs):
                raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                   f"got {len(replaced)}, but expected {len(self.grad_outputs)}")
            self.grad_outputs = replaced
        grad_outputs = self.grad_outputs
        if self.input_tensors_index is None:
            # no input needs a gradient, so the input node does not exist: call the full
            # hooks now, with no gradients of the inputs. PyTorch's engine replays the warnings
            # raised during backward at the learner's line that called backward: so do we.
            warnings.warn(
                "Full backward hook is firing when gradients are computed with respect to module "
                "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/"
                "main/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook "
                "for more details.", stacklevel=stacklevel_outside_minigrad())
            no_grads = self._pack_with_none([], [], self.n_inputs)
            for hook in self.user_hooks:
                replaced = hook(self.module, no_grads, self.grad_outputs)
                if replaced is not None and not (
                        isinstance(replaced, tuple) and all(g is None for g in replaced)):
                    raise RuntimeError("Backward hook for Modules where no input requires "
                                       "gradient should always return None or None for all "
                                       "gradients.")
            self.grad_outputs = None
        # the node is the identity: what flows on is the (maybe replaced) outputs' gradients
        return tuple(grad_outputs[i] for i in self.output_tensors_index)
