"""``Module``: the base class of every layer and every model (PyTorch: torch/nn/modules/module.py).

A Module is a Python object that keeps three dictionaries of what it owns:

* ``_parameters`` - its own learnable tensors (``Parameter``), e.g. ``weight`` and ``bias``;
* ``_buffers``    - tensors that are saved with the model but not learned (e.g. a loss's weight);
* ``_modules``    - its sub-modules (the layers of a model), each a Module again.

You never fill them by hand: ``__setattr__`` looks at the type of what you
assign (``self.fc = Linear(2, 3)`` goes into ``_modules``, ``self.w =
Parameter(...)`` into ``_parameters``). Everything else - ``parameters()``,
``state_dict()``, ``zero_grad()``, the printed model - walks these dictionaries.
Calling the module, ``model(x)``, runs its ``forward(x)`` (plus any hooks).
"""
import functools
import warnings
from collections import OrderedDict, namedtuple
from typing import TypeVar

from ... import _dtype
from ..._global_settings import typename
from ..._tensor import Tensor, device as _device
from ...autograd.grad_mode import no_grad
from ...utils.hooks import RemovableHandle
from ..parameter import Parameter, Buffer, is_lazy
from . import _hooks
from ._hooks import (  # noqa: F401  (PyTorch's torch.nn.modules.module names)
    register_module_forward_pre_hook, register_module_forward_hook, register_module_backward_hook,
    register_module_full_backward_pre_hook, register_module_full_backward_hook,
    register_module_buffer_registration_hook, register_module_module_registration_hook,
    register_module_parameter_registration_hook)

# the state_dict key of what get_extra_state returns, e.g. 'layer._extra_state'
_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


def _unexpected_keys(module, keys, prefix):
    """The keys (in their order) that name nothing in ``module``, found as PyTorch finds them:
    each module, then its children in order, looks at the keys under its prefix; a key with
    a dot is its own when the first name is a child, a key without one when it is one of its
    parameters or persistent buffers. (So a checkpoint's keys for a missing child are listed
    before those of a child that has other tensors.)"""
    local = {name for name, tensor in module._parameters.items() if tensor is not None}
    local |= {name for name, tensor in module._buffers.items()
              if tensor is not None and name not in module._non_persistent_buffers_set}
    unexpected = []
    for key in keys:
        if key.startswith(prefix):
            first, dot, _ = key[len(prefix):].partition(".")
            if first not in (module._modules if dot else local):
                unexpected.append(key)
    for name, child in module._modules.items():
        if child is not None:
            child_prefix = prefix + name + "."
            unexpected += _unexpected_keys(child, [key for key in keys
                                                   if key.startswith(child_prefix)], child_prefix)
    return unexpected


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it missed and the keys it did not know."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _indent_after_first_line(text, spaces):
    """Indent every line but the first: how a child's repr nests inside its parent's."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def _type_name(value):
    return value.type() if isinstance(value, Tensor) else type(value).__name__


def _check_name(kind, name):
    """A parameter, buffer or child module needs a plain attribute name (PyTorch's messages,
    which name the type with torch.typename: 'torch.FloatTensor', 'collections.OrderedDict')."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
    if "." in name:
        raise KeyError(f'{kind} name can\'t contain "."' + (f", got: {name}" if kind == "module" else ""))
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')


class Module:
    """Base class for layers and models: subclass it, create the layers in ``__init__``
    (after calling ``super().__init__()``), and write the computation in ``forward``."""

    training: bool
    # PyTorch's class attributes: old checkpoints' source patches (unused), whether __init__
    # passes extra arguments on to the next class, and state_dict's destination type
    dump_patches = False
    call_super_init = False
    T_destination = TypeVar("T_destination", bound=dict)
    # the version of the module's state_dict layout, saved in state_dict()._metadata: a layer
    # whose layout changed (BatchNorm's num_batches_tracked) can read older checkpoints
    _version = 1

    def __init__(self, *args, **kwargs):
        if self.call_super_init is False and kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword "
                            f"argument '{next(iter(kwargs))}'")
        if self.call_super_init is False and args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        # object.__setattr__: our own __setattr__ needs these dictionaries to exist already
        set_ = functools.partial(object.__setattr__, self)
        set_("training", True)
        set_("_parameters", OrderedDict())
        set_("_buffers", OrderedDict())
        set_("_non_persistent_buffers_set", set())   # left out of state_dict
        set_("_modules", OrderedDict())
        # hooks, each dict keyed by its handle's id (utils/hooks.py RemovableHandle)
        set_("_backward_pre_hooks", OrderedDict())
        set_("_backward_hooks", OrderedDict())
        set_("_is_full_backward_hook", None)         # True: full hooks; False: the old kind
        set_("_forward_hooks", OrderedDict())
        set_("_forward_hooks_with_kwargs", OrderedDict())
        set_("_forward_hooks_always_called", OrderedDict())
        set_("_forward_pre_hooks", OrderedDict())
        set_("_forward_pre_hooks_with_kwargs", OrderedDict())
        set_("_state_dict_hooks", OrderedDict())
        set_("_state_dict_pre_hooks", OrderedDict())
        set_("_load_state_dict_pre_hooks", OrderedDict())
        set_("_load_state_dict_post_hooks", OrderedDict())
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    # --- registering what the module owns ------------------------------------------------

    def __setattr__(self, name, value):
        """Sort what is assigned: a Parameter, a Module, or an ordinary attribute."""
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            self._modules[name] = value
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self._modules[name] = value
        elif params is not None and (isinstance(value, Buffer) or name in self._buffers):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            if isinstance(value, Buffer):
                persistent = value.persistent
            else:
                persistent = name not in self._non_persistent_buffers_set
            self.__dict__.pop(name, None)
            self.register_buffer(name, value, persistent)
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name):
        """Remove ``name`` from wherever it was, before it is registered again."""
        for place in (self.__dict__, self._parameters, self._buffers, self._modules):
            place.pop(name, None)

    def __getattr__(self, name):
        # Python calls this only when normal lookup fails: look in the three dictionaries.
        for place in ("_parameters", "_buffers", "_modules"):
            owned = self.__dict__.get(place)
            if owned is not None and name in owned:
                return owned[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for place in (self._parameters, self._buffers, self._modules):
            if name in place:
                del place[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def register_parameter(self, name, param):
        """Add ``param`` (a Parameter, or None) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name("parameter", name)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        for hook in _hooks._global_parameter_registration_hooks.values():
            output = hook(self, name, param)
            if output is not None:
                param = output
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Add a tensor that is kept with the module (moved by ``.to()``, saved in
        ``state_dict`` unless ``persistent=False``) but is not a parameter."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name("buffer", name)
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        for hook in _hooks._global_buffer_registration_hooks.values():
            output = hook(self, name, tensor)
            if output is not None:
                tensor = output
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Add a child module under ``name`` (the same as ``self.name = module``)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        # (PyTorch asks about an existing attribute before the name's spelling)
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        _check_name("module", name)
        for hook in _hooks._global_module_registration_hooks.values():
            output = hook(self, name, module)
            if output is not None:
                module = output
        self._modules[name] = module

    def register_module(self, name, module):
        """The same as ``add_module`` (a method of its own, so errors name it)."""
        self.add_module(name, module)

    # --- walking the tree of modules ------------------------------------------------------

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(name, module) for this module and every module inside it, each once."""
        memo = set() if memo is None else memo
        if remove_duplicate and id(self) in memo:
            return
        memo.add(id(self))
        yield prefix, self
        for name, child in self._modules.items():
            if child is not None:
                yield from child.named_modules(memo, prefix + ("." if prefix else "") + name,
                                               remove_duplicate)

    def modules(self):
        """This module and every submodule below it, each once (depth first)."""
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        """(name, module) for the direct sub-modules only."""
        seen = set()
        for name, child in self._modules.items():
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                yield name, child

    def children(self):
        """The direct submodules (not their children)."""
        for _, child in self.named_children():
            yield child

    def _named_tensors(self, place, prefix, recurse, remove_duplicate=True):
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        seen = set()
        for module_prefix, module in modules:
            for name, tensor in getattr(module, place).items():
                if tensor is None or (remove_duplicate and id(tensor) in seen):
                    continue              # a tensor shared by two layers is listed once
                seen.add(id(tensor))
                yield module_prefix + ("." if module_prefix else "") + name, tensor

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """(name, parameter) pairs such as ``('0.weight', ...)``, in registration order."""
        yield from self._named_tensors("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        """Every parameter of this module and its sub-modules: what you give an optimizer."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True):
        """``(name, tensor)`` for every buffer (state that is saved but not trained), e.g. ``'bn.running_mean'``."""
        yield from self._named_tensors("_buffers", prefix, recurse)

    def buffers(self, recurse=True):
        """Every buffer (state that is saved but not trained); see ``named_buffers``."""
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def apply(self, fn):
        """Call ``fn(module)`` on every sub-module, then on this one; returns self."""
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # --- modes and gradients ---------------------------------------------------------------

    def train(self, mode=True):
        """Set training mode (Dropout drops) on this module and all inside it; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for child in self.children():
            child.train(mode)
        return self

    def eval(self):
        """Evaluation mode: ``train(False)`` (Dropout lets everything through)."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """Switch ``requires_grad`` of every parameter (e.g. to freeze a layer); returns self."""
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Reset the ``.grad`` of every parameter: to None (the default), or to zeros."""
        for param in self.parameters():
            if param.grad is None:
                continue
            if set_to_none:
                param.grad = None
            else:
                # as PyTorch: detach_() only a gradient with history (a view cannot be detached
                # in place)
                if param.grad.grad_fn is not None:
                    param.grad.detach_()
                else:
                    param.grad.requires_grad_(False)
                param.grad.zero_()

    # --- converting the parameters ----------------------------------------------------------

    def _convert(self, dtype):
        with no_grad():
            for tensor in list(self.parameters()) + list(self.buffers()):
                if not tensor.is_floating_point():
                    continue          # an integer buffer (BatchNorm's num_batches_tracked) stays as it is
                tensor.data = tensor.to(dtype)
                if tensor._grad is not None:
                    tensor._grad = tensor._grad.to(dtype)
        return self

    def double(self):
        """Convert every parameter and buffer to float64, in place; returns self."""
        return self._convert(_dtype.float64)

    def float(self):
        """Convert every parameter and buffer to float32, in place; returns self."""
        return self._convert(_dtype.float32)

    def to(self, *args, dtype=None, device=None):
        """Only dtypes matter (minigrad runs on the CPU): ``model.to(torch.float64)``."""
        for arg in args + ((device,) if device is not None else ()):
            if isinstance(arg, _dtype.dtype):
                dtype = arg
            else:
                _device(arg)          # 'cpu' is fine; any other device explains itself
        return self if dtype is None else self._convert(dtype)

    def cpu(self):
        """Everything already lives on the CPU; returns self."""
        return self

    # --- saving and loading --------------------------------------------------------------------

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of every parameter and buffer by name (detached, unless keep_vars).

        Unlike ``named_parameters()``, a layer used twice appears under both names.
        """
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = {"version": self._version}
        kept_buffers = [(name, tensor) for name, tensor in self._buffers.items()
                        if name not in self._non_persistent_buffers_set]
        for name, tensor in list(self._parameters.items()) + kept_buffers:
            if tensor is not None:
                # an uninitialized (lazy) tensor goes in as it is: it cannot be detached
                destination[prefix + name] = tensor if keep_vars or is_lazy(tensor) else tensor.detach()
        for name, child in self._modules.items():
            if child is not None:
                child.state_dict(destination, prefix + name + ".", keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy the tensors of ``state_dict`` into this module's parameters and buffers.

        With ``strict=True`` (the default) missing or unexpected keys are an error.
        Returns the lists of missing and unexpected keys.
        """
        if not hasattr(state_dict, "keys") or not hasattr(state_dict, "__getitem__"):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)        # (the caller's is left as it was)
        # each module's pre-hooks first: a lazy module materializes what the state_dict fills;
        # then a module may fill in what an older layout of its state lacked
        for module_name, module in self.named_modules():
            prefix = module_name + "." if module_name else ""
            local_metadata = {} if metadata is None else metadata.get(module_name, {})
            for hook in list(module.__dict__.get("_load_state_dict_pre_hooks", {}).values()):
                hook(state_dict, prefix, local_metadata, strict, [], [], [])
            upgrade = getattr(module, "_upgrade_state_dict", None)
            if upgrade is not None:
                upgrade(state_dict, prefix, local_metadata)
        own = self.state_dict(keep_vars=True)
        errors = []
        for name, tensor in own.items():
            if (name in state_dict and not is_lazy(tensor)
                    and tuple(state_dict[name].shape) != tuple(tensor.shape)):
                errors.append(
                    f"size mismatch for {name}: copying a param with shape "
                    f"{state_dict[name].shape} from checkpoint, the shape in current model is "
                    f"{tensor.shape}.")
            elif name in state_dict:
                with no_grad():
                    tensor.copy_(state_dict[name])
        missing = [name for name in own if name not in state_dict]
        unexpected = _unexpected_keys(self, list(state_dict), "")
        if strict:
            if unexpected:
                keys = ", ".join(f'"{name}"' for name in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing:
                keys = ", ".join(f'"{name}"' for name in missing)
                errors.insert(0, f"Missing key(s) in state_dict: {keys}. ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    # --- running the module ----------------------------------------------------------------------

    def forward(self, *args, **kwargs):
        """The computation; every subclass writes its own."""
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        """``model(x)``: ``forward(x)``, with the hooks around it if there are any."""
        # the common case (no hook anywhere) costs one test: this runs for every layer call
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks or _hooks.any_global_hooks()):
            return self.forward(*args, **kwargs)
        return _hooks.call_with_hooks(self, args, kwargs)

    # --- hooks -----------------------------------------------------------------------------------

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args)`` runs before forward and may return new args (a tuple, or
        one value). With ``with_kwargs=True``: ``hook(module, args, kwargs)`` returning None
        or ``(new_args, new_kwargs)``. ``prepend``: run it before the hooks already
        registered. Returns a handle."""
        handle = RemovableHandle(self._forward_pre_hooks,
                                 extra_dict=self._forward_pre_hooks_with_kwargs)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """``hook(module, args, output)`` runs after forward and may return a new output.
        ``with_kwargs``: ``hook(module, args, kwargs, output)``; ``always_call``: run it even
        when forward raised; ``prepend``: before the hooks already registered."""
        handle = RemovableHandle(self._forward_hooks, extra_dict=[
            self._forward_hooks_with_kwargs, self._forward_hooks_always_called])
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output)`` runs when the gradients of the module's outputs are
        known (one entry per output, None for non-tensors) and may return replacements.
        Returns a handle."""
        handle = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        if prepend:
            self._backward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output)`` runs once the gradients of the module's
        positional inputs are known (None for inputs that are not tensors or need no
        gradient) and may return replacements for ``grad_input``. Returns a handle.

        The module's tensor inputs and outputs then pass through ``BackwardHookFunctionBackward``
        nodes; its outputs are views that may not be changed in place."""
        if self._is_full_backward_hook is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "on a single Module. Please use only one of them.")
        self._is_full_backward_hook = True
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook):
        """Deprecated (use ``register_full_backward_hook``): ``hook(module, grad_input,
        grad_output)`` on the node of forward's last operation, whose gradients are the
        module's only when forward is a single operation."""
        if self._is_full_backward_hook is True:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "on a single Module. Please use only one of them.")
        self._is_full_backward_hook = False
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        """``hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)`` (``with_module``: the module first) runs before ``load_state_dict`` reads
        this module's tensors. Returns a handle."""
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = (
            functools.partial(hook, self) if with_module else hook)
        return handle

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` runs before this module's tensors are loaded; it may
        change ``state_dict`` in place. Returns a handle."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook):
        """``hook(module, incompatible_keys)`` runs after ``load_state_dict`` loaded this module
        and its children; it may edit the missing/unexpected key lists in place. Returns a
        handle."""
        handle = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

    def register_state_dict_pre_hook(self, hook):
        """``hook(module, prefix, keep_vars)`` runs before ``state_dict`` saves this module."""
        handle = RemovableHandle(self._state_dict_pre_hooks)
        self._state_dict_pre_hooks[handle.id] = hook
        return handle

    def register_state_dict_post_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata)`` runs after ``state_dict`` saved
        this module and its children; it may change ``state_dict`` in place and must return
        None."""
        hook._from_public_api = True      # (the private form may return a new dict)
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def _register_state_dict_hook(self, hook):
        """The private form of ``register_state_dict_post_hook``: the hook may return the
        dict to use from then on."""
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError("Cannot register the same function as the state dict post hook "
                               "that was previously registered via register_state_dict_post_hook")
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    # --- printing ---------------------------------------------------------------------------------

    def extra_repr(self):
        """The settings printed between the parentheses, e.g. ``in_features=2, ...``."""
        return ""

    def __repr__(self):
        extra_lines = self.extra_repr().split("\n") if self.extra_repr() else []
        child_lines = [f"({name}): " + _indent_after_first_line(repr(child), 2)
                       for name, child in self._modules.items()]
        lines = extra_lines + child_lines
        if not lines:
            return self._get_name() + "()"
        if len(extra_lines) == 1 and not child_lines:
            return f"{self._get_name()}({extra_lines[0]})"
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def _get_name(self):
        """The class's name, as printed (a subclass may print itself under another name)."""
        return type(self).__name__

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers)
                      | set(self._modules))
