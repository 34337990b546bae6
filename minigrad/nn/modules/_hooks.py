"""Hooks common to all modules, and calling a module that has hooks (PyTorch keeps both in
torch/nn/modules/module.py: ``register_module_forward_hook`` and ``Module._call_impl``).

``Module.__call__`` checks once whether any hook exists; only then does it come here.
The order of one call, as in PyTorch:

1. forward pre-hooks (global ones first), which may replace the arguments;
2. with full backward hooks or backward pre-hooks: the tensor arguments pass through a
   ``BackwardHookFunctionBackward`` node (minigrad/utils/hooks.py);
3. ``forward``;
4. forward hooks (global ones first), which may replace the result;
5. the result's tensors pass through another ``BackwardHookFunctionBackward`` node;
6. old-style (``register_backward_hook``) hooks go on the result's ``grad_fn``.

Forward hooks registered with ``always_call=True`` also run when forward raised.
"""
import warnings
from collections import OrderedDict

from ..._tensor import Tensor
from ...utils.hooks import RemovableHandle, BackwardHook

# the hooks every module runs; the dicts are keyed by the handles' ids
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_forward_hooks_with_kwargs = OrderedDict()
_global_forward_hooks_always_called = OrderedDict()
_global_backward_pre_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_is_full_backward_hook = None      # None: no kind chosen yet; True: full; False: old
_global_buffer_registration_hooks = OrderedDict()
_global_module_registration_hooks = OrderedDict()
_global_parameter_registration_hooks = OrderedDict()

# one entry per global hook that changes how modules are called (the four kinds above), so
# that Module.__call__ asks one dict whether there are any (the handles remove them from it too)
_global_call_hooks = {}

_MIXED_GLOBAL = ("Cannot use both regular backward hooks and full backward hooks as a global "
                 "Module hook. Please use only one of them.")


def _add(hooks, hook, extra_dict=()):
    handle = RemovableHandle(hooks, extra_dict=list(extra_dict))
    hooks[handle.id] = hook
    return handle


def _add_call_hook(hooks, hook, extra_dict=()):
    """A global hook that Module.__call__ must see: also counted in _global_call_hooks."""
    handle = _add(hooks, hook, [_global_call_hooks, *extra_dict])
    _global_call_hooks[handle.id] = True
    return handle


def _add_global_backward_hook(hook, full):
    """Old-style and full global backward hooks share one dict, and the first one registered
    decides which kind it holds: PyTorch refuses to mix them."""
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is (not full):
        raise RuntimeError(_MIXED_GLOBAL)
    _global_is_full_backward_hook = full
    return _add_call_hook(_global_backward_hooks, hook)


def register_module_forward_pre_hook(hook):
    """``hook(module, args)`` runs before every module's forward (before the module's own
    pre-hooks) and may return new args. Returns a handle."""
    return _add_call_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """``hook(module, args, output)`` (``with_kwargs``: ``hook(module, args, kwargs, output)``)
    runs after every module's forward, before the module's own hooks, and may return a new
    output. ``always_call``: run it even when forward raised. Returns a handle."""
    handle = _add_call_hook(_global_forward_hooks, hook,
                            [_global_forward_hooks_with_kwargs, _global_forward_hooks_always_called])
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def register_module_backward_hook(hook):
    """Deprecated: the old-style backward hook for every module (see
    ``Module.register_backward_hook``). Returns a handle."""
    return _add_global_backward_hook(hook, full=False)


def register_module_full_backward_pre_hook(hook):
    """``hook(module, grad_output)`` runs for every module when the gradients of its outputs
    are known, and may return new ones. Returns a handle."""
    return _add_call_hook(_global_backward_pre_hooks, hook)


def register_module_full_backward_hook(hook):
    """``hook(module, grad_input, grad_output)`` runs for every module once the gradients of
    its inputs are known, and may return new ``grad_input``. Returns a handle."""
    return _add_global_backward_hook(hook, full=True)


def register_module_buffer_registration_hook(hook):
    """``hook(module, name, buffer)`` runs in every ``register_buffer`` and may return the
    buffer to register instead. Returns a handle."""
    return _add(_global_buffer_registration_hooks, hook)


def register_module_module_registration_hook(hook):
    """``hook(module, name, submodule)`` runs in every ``add_module`` and may return the
    module to register instead. Returns a handle."""
    return _add(_global_module_registration_hooks, hook)


def register_module_parameter_registration_hook(hook):
    """``hook(module, name, param)`` runs in every ``register_parameter`` and may return the
    parameter to register instead. Returns a handle."""
    return _add(_global_parameter_registration_hooks, hook)


def _backward_hooks_of(module):
    """(full hooks, old-style hooks, pre-hooks) that apply to ``module``: global ones first."""
    full, old = [], []
    for is_full, hooks in ((_global_is_full_backward_hook, _global_backward_hooks),
                           (module._is_full_backward_hook, module._backward_hooks)):
        if is_full is True:
            full += hooks.values()
        elif is_full is False:
            old += hooks.values()
    pre = list(_global_backward_pre_hooks.values()) + list(module._backward_pre_hooks.values())
    return full, old, pre


def call_with_hooks(module, args, kwargs):
    """``module(*args, **kwargs)`` for a module with hooks (see the module docstring)."""
    state = {"args": args, "kwargs": kwargs, "result": None}
    called = set()          # the always_call hooks that already ran
    try:
        return _run(module, state, called)
    except Exception:
        _always_called_after_error(module, state, called)
        raise


def _run(module, state, called):
    args, kwargs = state["args"], state["kwargs"]
    full_hooks, old_hooks, pre_hooks = _backward_hooks_of(module)
    for hook_id, hook in (*_global_forward_pre_hooks.items(), *module._forward_pre_hooks.items()):
        if hook_id in module._forward_pre_hooks_with_kwargs:
            new = hook(module, args, kwargs)
            if new is not None:
                if not (isinstance(new, tuple) and len(new) == 2):
                    raise RuntimeError("forward pre-hook must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {new}.")
                args, kwargs = new
        else:
            new = hook(module, args)
            if new is not None:
                args = new if isinstance(new, tuple) else (new,)
        state["args"], state["kwargs"] = args, kwargs
    bw_hook = None
    if full_hooks or pre_hooks:
        bw_hook = BackwardHook(module, full_hooks, pre_hooks)
        args = bw_hook.setup_input_hook(args)
        state["args"] = args
    result = module.forward(*args, **kwargs)
    state["result"] = result
    for hook_id, hook in (*_global_forward_hooks.items(), *module._forward_hooks.items()):
        if hook_id in module._forward_hooks_always_called or \
                hook_id in _global_forward_hooks_always_called:
            called.add(hook_id)
        if hook_id in module._forward_hooks_with_kwargs or \
                hook_id in _global_forward_hooks_with_kwargs:
            new = hook(module, args, kwargs, result)
        else:
            new = hook(module, args, result)
        if new is not None:
            result = new
            state["result"] = result
    if bw_hook is not None:
        if not isinstance(result, (Tensor, tuple)):
            warnings.warn("For backward hooks to be called, module output should be a Tensor or "
                          f"a tuple of Tensors but received {type(result)}", stacklevel=3)
        result = bw_hook.setup_output_hook(result)
    if old_hooks:
        _register_old_style_hooks(module, old_hooks, args, result)
    return result


def _always_called_after_error(module, state, called):
    """Forward raised: the ``always_call`` forward hooks that did not run yet run now; their
    own errors become warnings (the first error is the one raised)."""
    args, kwargs, result = state["args"], state["kwargs"], state["result"]
    for hook_id, hook in _global_forward_hooks.items():
        if hook_id in _global_forward_hooks_always_called and hook_id not in called:
            try:
                new = hook(module, args, result)
                if new is not None:
                    result = new
            except Exception as e:
                warnings.warn("global module forward hook with ``always_call=True`` raised an "
                              f"exception that was silenced as another error was raised in "
                              f"forward: {str(e)}", stacklevel=3)
    for hook_id, hook in module._forward_hooks.items():
        if hook_id in module._forward_hooks_always_called and hook_id not in called:
            try:
                if hook_id in module._forward_hooks_with_kwargs:
                    new = hook(module, args, kwargs, result)
                else:
                    new = hook(module, args, result)
                if new is not None:
                    result = new
            except Exception as e:
                warnings.warn("module forward hook with ``always_call=True`` raised an exception "
                              f"that was silenced as another error was raised in forward: "
                              f"{str(e)}", stacklevel=3)


class _WrappedHook:
    """An old-style module hook put on a node: the node calls it without the module."""

    def __init__(self, hook, module):
        self.hook = hook
        self.module = module

    def __call__(self, grad_inputs, grad_outputs):
        return self.hook(self.module, grad_inputs, grad_outputs)


def _register_old_style_hooks(module, hooks, args, result):
    """``register_backward_hook``'s hooks see the gradients of the last operation of forward
    (its grad_fn), which are those of the module only for simple modules: hence the warnings."""
    var = result
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) \
            else var[0]
    grad_fn = var.grad_fn
    if grad_fn is None:
        return
    for hook in hooks:
        grad_fn.register_hook(_WrappedHook(hook, module))
    _warn_old_style(args, result, grad_fn)


def _warn_old_style(inputs, result, grad_fn):
    """PyTorch's FutureWarnings where an old-style hook will miss some gradients."""
    if isinstance(result, Tensor):
        result = (result,)
    elif not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
        warnings.warn(
            "Using non-full backward hooks on a Module that does not return a single Tensor or a "
            "tuple of Tensors is deprecated and will be removed in future versions. This hook "
            "will be missing some of the grad_output. Please use register_full_backward_hook to "
            "get the documented behavior.", FutureWarning, stacklevel=5)
        return
    if isinstance(inputs, Tensor):
        inputs = (inputs,)
    elif not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
        warnings.warn(
            "Using non-full backward hooks on a Module that does not take as input a single "
            "Tensor or a tuple of Tensors is deprecated and will be removed in future versions. "
            "This hook will be missing some of the grad_input. Please use "
            "register_full_backward_hook to get the documented behavior.", FutureWarning,
            stacklevel=5)
        return
    out_nodes = {r.grad_fn for r in result if r.grad_fn is not None}
    if not out_nodes or (len(out_nodes) == 1 and grad_fn not in out_nodes):
        warnings.warn(
            "Using a non-full backward hook when outputs are nested in python data structure is "
            "deprecated and will be removed in future versions. This hook will be missing some "
            "grad_output.", FutureWarning, stacklevel=5)
    elif len(out_nodes) > 1:
        warnings.warn(
            "Using a non-full backward hook when outputs are generated by different autograd "
            "Nodes is deprecated and will be removed in future versions. This hook will be "
            "missing some grad_output. Please use register_full_backward_hook to get the "
            "documented behavior.", FutureWarning, stacklevel=5)
    else:
        in_nodes = {i.grad_fn for i in inputs if i.grad_fn is not None}
        next_nodes = {n[0] for n in grad_fn.next_functions}
        if in_nodes != next_nodes:
            warnings.warn(
                "Using a non-full backward hook when the forward contains multiple autograd "
                "Nodes is deprecated and will be removed in future versions. This hook will be "
                "missing some grad_input. Please use register_full_backward_hook to get the "
                "documented behavior.", FutureWarning, stacklevel=5)
