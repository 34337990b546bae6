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
from ..._signatures import Signatures
from ..._python_arg_parser import check_device
from ..._tensor import Tensor, device as _device
from ...autograd.grad_mode import no_grad
from ...utils.hooks import RemovableHandle
from ..parameter import Parameter, Buffer, is_lazy
from . import _hooks
from ._hooks import _global_call_hooks
from ._hooks import (  # noqa: F401  (PyTorch's torch.nn.modules.module names)
    register_module_forward_pre_hook, register_module_forward_hook, register_module_backward_hook,
    register_module_full_backward_pre_hook, register_module_full_backward_hook,
    register_module_buffer_registration_hook, register_module_module_registration_hook,
    register_module_parameter_registration_hook)

# the state_dict key of what get_extra_state returns, e.g. 'layer._extra_state'
_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it missed and the keys it did not know."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _empty_like(tensor):
    from ... import empty_like          # (minigrad's top level imports nn)
    return empty_like(tensor)


def _indent_after_first_line(text, spaces):
    """Indent every line but the first: how a child's repr nests inside its parent's."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def _class_repr(value):
    """``str(type(value))`` as PyTorch prints it: minigrad's classes under torch's names
    (minigrad mirrors torch's module layout; only Tensor lives elsewhere, in _tensor.py)."""
    cls = type(value)
    if issubclass(cls, Tensor) and cls.__module__ == "minigrad._tensor":
        return "<class 'torch.Tensor'>"
    module = cls.__module__
    if module.split(".")[0] == "minigrad":
        module = "torch" + module[len("minigrad"):]
    return f"<class '{cls.__qualname__ if module == 'builtins' else module + '.' + cls.__qualname__}'>"


def _run_registration_hooks(hooks, module, name, value):
    """What the global registration hooks make of ``value`` (each may return a replacement)."""
    for hook in hooks.values():
        output = hook(module, name, value)
        if output is not None:
            value = output
    return value


def _check_name(kind, name):
    """A parameter, buffer or child module needs a plain attribute name (PyTorch's messages,
    which name the type with torch.typename: 'torch.FloatTensor', 'collections.OrderedDict')."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
    if "." in name:
        raise KeyError(f'{kind} name can\'t contain "."' + (f", got: {name}" if kind == "module" else ""))
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')


# the ways PyTorch's Module.to takes its arguments (torch._C._nn._parse_to): a number given
# for the tensor stands for a tensor of it
_TO_SIGNATURES = Signatures(
    "to", "torch.device? device=None, torch.dtype? dtype=None, bool non_blocking=False, bool copy=False, "
          "*, torch.memory_format? memory_format=None",
    "torch.dtype dtype, bool non_blocking=False, bool copy=False, *, torch.memory_format? memory_format=None",
    "Tensor tensor, bool non_blocking=False, bool copy=False, *, torch.memory_format? memory_format=None",
    numbers_as_tensors=True)
_NUMBER_DTYPES = {bool: _dtype.bool_, int: _dtype.int64, float: _dtype.float64}


def _parse_to(*args, **kwargs):
    """The device and dtype ``Module.to`` was given (None when not given), or PyTorch's error
    for arguments that fit none of its ways."""
    form, values = _TO_SIGNATURES.parse(args, kwargs)
    if values["copy"]:
        raise RuntimeError(".to() does not accept copy argument")
    if form == 2:                         # (a tensor: its dtype and device)
        tensor = values["tensor"]
        dtype = tensor.dtype if isinstance(tensor, Tensor) else _NUMBER_DTYPES[
            next(kind for kind in _NUMBER_DTYPES if isinstance(tensor, kind))]
        return None, dtype
    dtype = values["dtype"]
    return values.get("device"), _NUMBER_DTYPES.get(dtype, dtype)


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

    def __setstate__(self, state):
        """Unpickling: a module saved before some hook dictionaries existed gets empty ones."""
        self.__dict__.update(state)
        for name in ("_backward_pre_hooks", "_backward_hooks", "_forward_hooks",
                     "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
                     "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_state_dict_hooks",
                     "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
                     "_load_state_dict_post_hooks"):
            self.__dict__.setdefault(name, OrderedDict())
        self.__dict__.setdefault("_is_full_backward_hook", None)

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
            # (a module replaced keeps its place among the children)
            for place in (self.__dict__, self._parameters, self._buffers):
                place.pop(name, None)
            self._non_persistent_buffers_set.discard(name)
            self._modules[name] = _run_registration_hooks(
                _hooks._global_module_registration_hooks, self, name, value)
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self._modules[name] = _run_registration_hooks(
                _hooks._global_module_registration_hooks, self, name, value)
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
        self._parameters[name] = _run_registration_hooks(
            _hooks._global_parameter_registration_hooks, self, name, param)

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
        self._buffers[name] = _run_registration_hooks(
            _hooks._global_buffer_registration_hooks, self, name, tensor)
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
        self._modules[name] = _run_registration_hooks(
            _hooks._global_module_registration_hooks, self, name, module)

    def register_module(self, name, module):
        """The same as ``add_module`` (a method of its own, so errors name it)."""
        self.add_module(name, module)

    # --- reaching a module, parameter or buffer by its dotted name ---------------------------

    def get_submodule(self, target):
        """The module named ``target`` (``'encoder.layers.0'``; ``''`` is this module)."""
        if target == "":
            return self
        module = self
        for name in target.split("."):
            if not hasattr(module, name):
                raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
            module = getattr(module, name)
            if not isinstance(module, Module):
                raise AttributeError("`" + name + "` is not an nn.Module")
        return module

    def set_submodule(self, target, module, strict=False):
        """Put ``module`` at the dotted name ``target`` (whose parent must exist). ``strict``:
        the name must already exist too."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        names = target.split(".")
        if not isinstance(module, Module):
            raise ValueError("`module` is not an nn.Module, found " + _class_repr(module))
        parent = self if len(names) == 1 else self.get_submodule(".".join(names[:-1]))
        if strict and not hasattr(parent, names[-1]):
            raise AttributeError(parent._get_name() + " has no attribute `" + names[-1] + "`")
        if hasattr(parent, names[-1]) and not isinstance(getattr(parent, names[-1]), Module):
            raise AttributeError("`" + names[-1] + "` is not an nn.Module")
        setattr(parent, names[-1], module)

    def _get_owned(self, target, kind, is_kind):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
        value = getattr(module, name)
        if not is_kind(module, name, value):
            raise AttributeError("`" + name + "` is not " + kind)
        return value

    def get_parameter(self, target):
        """The parameter named ``target``, e.g. ``'0.weight'``."""
        return self._get_owned(target, "an nn.Parameter",
                               lambda module, name, value: isinstance(value, Parameter))

    def get_buffer(self, target):
        """The buffer named ``target``, e.g. ``'bn.running_mean'``."""
        return self._get_owned(target, "a buffer", lambda module, name, value: name in module._buffers)

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

    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate=True):
        """(dotted name, member) for what ``get_members_fn(module)`` lists ((name, value)
        pairs) in this module and, with ``recurse``, every module inside it."""
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        seen = set()
        for module_prefix, module in modules:
            for name, value in get_members_fn(module):
                if value is None or (remove_duplicate and id(value) in seen):
                    continue              # a tensor shared by two layers is listed once
                seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def _named_tensors(self, place, prefix, recurse, remove_duplicate=True):
        yield from self._named_members(lambda module: getattr(module, place).items(), prefix,
                                       recurse, remove_duplicate)

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """(name, parameter) pairs such as ``('0.weight', ...)``, in registration order."""
        yield from self._named_tensors("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        """Every parameter of this module and its sub-modules: what you give an optimizer."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """``(name, tensor)`` for every buffer (state that is saved but not trained), e.g. ``'bn.running_mean'``."""
        yield from self._named_tensors("_buffers", prefix, recurse, remove_duplicate)

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

    def _apply(self, fn, recurse=True):
        """Replace every parameter's and buffer's values (and gradients) by ``fn(tensor)``,
        children first: what ``float()``, ``to()``, ``half()`` ... are made of. The tensors
        stay the same objects (``.data`` is set), so an optimizer keeps seeing them."""
        if recurse:
            for child in self.children():
                child._apply(fn)
        with no_grad():
            for tensor in list(self._parameters.values()) + list(self._buffers.values()):
                if tensor is None:
                    continue
                tensor.data = fn(tensor)
                if tensor._grad is not None:
                    tensor._grad = fn(tensor._grad)
        return self

    def _convert(self, dtype):
        # an integer buffer (BatchNorm's num_batches_tracked) stays as it is
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def double(self):
        """Convert every floating-point parameter and buffer to float64, in place; returns self."""
        return self._convert(_dtype.float64)

    def float(self):
        """Convert every floating-point parameter and buffer to float32, in place; returns self."""
        return self._convert(_dtype.float32)

    def half(self):
        """Convert every floating-point parameter and buffer to float16, in place; returns self."""
        return self._convert(_dtype.float16)

    def bfloat16(self):
        """PyTorch converts to bfloat16; minigrad (numpy) has no bfloat16 dtype, so this
        raises (unless there is nothing to convert)."""
        def refuse(tensor):
            if not tensor.is_floating_point():
                return tensor
            raise TypeError("minigrad has no bfloat16 dtype (numpy has none)\n"
                            "minigrad hint: use half() (float16) or float() instead.")
        return self._apply(refuse)

    def type(self, dst_type):
        """Convert every parameter and buffer (integer ones too) to ``dst_type``, a dtype or a
        name such as ``'torch.DoubleTensor'``; returns self."""
        return self._apply(lambda t: t.type(dst_type))

    def to(self, *args, **kwargs):
        """Only dtypes matter (minigrad runs on the CPU): ``model.to(torch.float64)``,
        ``model.to('cpu')``, ``model.to(other_tensor)`` (its dtype); returns self."""
        device, dtype = _parse_to(*args, **kwargs)
        # (as PyTorch reads an index, 'cpu:0', 'cpu:01', '', ...)
        if isinstance(device, int) or (isinstance(device, str) and device.partition(":")[0] in ("cpu", "")):
            check_device(device)
        elif device is not None and _device(device).type != "cpu":
            from ... import empty         # (as a tensor refuses to move there)
            empty(0).to(device)
        if dtype is None:
            return self
        if not (dtype.is_floating_point or getattr(dtype, "is_complex", False)):
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={dtype}")
        return self._convert(dtype)

    def cpu(self):
        """Everything already lives on the CPU; returns self."""
        return self

    # A CPU-only PyTorch build raises these when there is a tensor to move (minigrad has no
    # other device); a module without tensors is returned as it is.
    def cuda(self, device=None):
        """Raises as a PyTorch built without CUDA does: minigrad runs on the CPU only."""
        return self._no_device("Torch not compiled with CUDA enabled", AssertionError)

    def xpu(self, device=None):
        """Raises as a PyTorch built without XPU support does."""
        return self._no_device("Torch not compiled with XPU enabled", AssertionError)

    def ipu(self, device=None):
        """Raises as a PyTorch built without IPU support does."""
        return self._no_device("PyTorch is not linked with support for ipu devices", RuntimeError)

    def mtia(self, device=None):
        """Raises as a PyTorch built without MTIA support does."""
        return self._no_device(
            "Torch not compiled with MTIA enabled. Ensure you have `import mtia.host_runtime."
            "torch_mtia.dynamic_library` in your python src file and include `//mtia/host_runtime/"
            "torch_mtia:torch_mtia` as your target dependency!", AssertionError)

    def _no_device(self, message, error):
        def refuse(tensor):
            raise error(message)
        return self._apply(refuse)

    def to_empty(self, *, device, recurse=True):
        """New, uninitialized storage for every parameter and buffer on ``device`` (only the
        CPU): in PyTorch, how a module built on the 'meta' device gets real memory."""
        if device is not None:
            check_device(_device(device))
        return self._apply(lambda t: _empty_like(t), recurse=recurse)

    def share_memory(self):
        """Tensor.share_memory_() on every parameter and buffer (minigrad's tensors are numpy
        arrays in this process: nothing changes); returns self."""
        return self._apply(lambda t: t.share_memory_() if hasattr(t, "share_memory_") else t)

    def compile(self, *args, **kwargs):
        """PyTorch compiles the module's call with ``torch.compile``; minigrad runs eagerly, so
        the module keeps running exactly as before (returns None, as PyTorch's does)."""
        return None

    # --- saving and loading --------------------------------------------------------------------

    def get_extra_state(self):
        """Override (with ``set_extra_state``) to save anything besides tensors in the
        state_dict, under ``'<prefix>_extra_state'``."""
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
            "bug-report.yml to report this bug.")

    def set_extra_state(self, state):
        """Override (with ``get_extra_state``): receives what ``get_extra_state`` returned."""
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
            "bug-report.yml to report this bug.")

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """Put this module's own parameters, persistent buffers and extra state (not its
        children's) into ``destination``."""
        for name, param in self._parameters.items():
            if param is not None:
                # an uninitialized (lazy) tensor goes in as it is: it cannot be detached
                destination[prefix + name] = param if keep_vars or is_lazy(param) else param.detach()
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = (buffer if keep_vars or is_lazy(buffer)
                                              else buffer.detach())
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of every parameter and buffer by name (detached, unless keep_vars).

        Unlike ``named_parameters()``, a layer used twice appears under both names.
        """
        if args:
            warnings.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module."
                "state_dict for details.", FutureWarning, stacklevel=2)
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, child in self._modules.items():
            if child is not None:
                child.state_dict(destination=destination, prefix=prefix + name + ".",
                                 keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if getattr(hook, "_from_public_api", False):
                if result is not None:
                    raise RuntimeError("state_dict post-hook must return None")
            elif result is not None:
                destination = result
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        """Load this module's own tensors (not its children's) from ``state_dict``, adding to
        the three lists what is missing, unexpected, or wrong. Override to read an older
        layout of the module's state."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                 error_msgs)
        local_state = {name: tensor for name, tensor in self._parameters.items() if tensor is not None}
        local_state.update((name, tensor) for name, tensor in self._buffers.items()
                           if tensor is not None and name not in self._non_persistent_buffers_set)
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected '
                                  "torch.Tensor or Tensor-like object from checkpoint but "
                                  f"received {_class_repr(value)}")
                continue
            lazy = is_lazy(param)
            # (a checkpoint from before 0-dim tensors existed holds shape (1,))
            if not lazy and param.dim() == 0 and value.dim() == 1 and value.shape[0] == 1:
                value = value[0]
            if not lazy and tuple(value.shape) != tuple(param.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                                  f"{value.shape} from checkpoint, the shape in current model is "
                                  f"{param.shape}.")
                continue
            try:
                with no_grad():
                    if assign:
                        if isinstance(param, Parameter) and not isinstance(value, Parameter):
                            value = Parameter(value, requires_grad=param.requires_grad)
                        elif isinstance(param, Parameter):
                            value.requires_grad_(param.requires_grad)
                        setattr(self, name, value)
                    else:
                        param.copy_(value)
            except Exception as ex:
                error_msgs.append(f'While copying the parameter named "{key}", whose dimensions '
                                  f"in the model are {param.size()} and whose dimensions in the "
                                  f"checkpoint are {value.size()}, an exception occurred : "
                                  f"{ex.args}.")
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            # a key with a dot must name a child; one without, a tensor of this module
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    first, dot, _ = key[len(prefix):].partition(".")
                    if first not in (self._modules if dot else local_state):
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy the tensors of ``state_dict`` into this module's parameters and buffers
        (``assign=True``: take the state_dict's tensors themselves).

        With ``strict=True`` (the default) missing or unexpected keys are an error.
        Returns the lists of missing and unexpected keys.
        """
        if not hasattr(state_dict, "keys") or not hasattr(state_dict, "__getitem__"):
            raise TypeError(f"Expected state_dict to be dict-like, got {_class_repr(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)        # (the caller's is left as it was)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=""):
            # each module reads its own keys, then each child reads the keys under its prefix
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True,
                                         missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {key: value for key, value in local_state_dict.items()
                                 if key.startswith(child_prefix)}, child_prefix)
            incompatible_keys = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, incompatible_keys) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                        "expected to return new values, if incompatible_keys need to be "
                        "modified, it should be done inplace.")

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                keys = ", ".join(f'"{name}"' for name in unexpected_keys)
                error_msgs.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing_keys:
                keys = ", ".join(f'"{name}"' for name in missing_keys)
                error_msgs.insert(0, f"Missing key(s) in state_dict: {keys}. ")
        if error_msgs:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(error_msgs))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # --- running the module ----------------------------------------------------------------------

    def forward(self, *args, **kwargs):
        """The computation; every subclass writes its own."""
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        """``model(x)``: ``forward(x)``, with the hooks around it if there are any."""
        # the common case (no hook anywhere) costs one test: this runs for every layer call
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks or _global_call_hooks):
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
