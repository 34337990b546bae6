"""Saved-tensor hooks: decide what happens to every tensor a node saves for backward.

``pack_hook(tensor)`` runs when a node saves a tensor; whatever it returns is
kept instead of the tensor. ``unpack_hook(packed)`` runs when backward (or
``grad_fn._saved_self``) needs the tensor back and must return a tensor. This
is how PyTorch offloads saved tensors to the CPU (``save_on_cpu``) or drops
them and recomputes them (non-reentrant checkpointing). PyTorch keeps these in
torch/autograd/graph.py; graph.py re-exports them from here.
"""
import functools
import threading
import weakref

from .grad_mode import no_grad, _State
from .graph import SavedOutput, grad_accumulator, FREED, FREED_MESSAGE
from .._tensor import Tensor, _wrap

UNPACK_NOT_A_TENSOR = ("Output of saved tensor unpack_hook expected to be a Tensor but got "
                       "result of type {}")
HOOKS_ALREADY_SET = ("Calling register_hooks on a saved tensor whose hooks have already been set. "
                     "Hint: only one pair of hooks is allowed at a time.")
HOOKS_ON_NONE = "Calling register_hooks on a saved tensor with value None is forbidden"
HOOKS_AFTER_FREE = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values "
    "of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you need "
    "to access saved variables after calling backward.")


class _ThreadHooks(threading.local):
    """The (pack_hook, unpack_hook) pairs in effect in this thread, innermost last.

    ``Node.save_for_backward`` only looks at ``stack``: an empty tuple costs one
    check, so saving stays as cheap as without this feature. Each thread has its
    own (as in PyTorch); tuples are replaced, never changed, so no thread sees
    another's pairs.
    """
    stack = ()
    disabled_message = None     # set inside disable_saved_tensors_hooks(message)


_Hooks = _ThreadHooks()

# One entry per saved_tensors_hooks block open right now, in any thread. Saving for backward
# only looks at the (slower) per-thread stack when this list is not empty.
hook_blocks_open = []


class PackedTensor:
    """What a node keeps instead of a saved tensor once a pack hook has run.

    Besides what the hook returned, it remembers where the tensor sat in the
    graph (its grad_fn, or the AccumulateGrad of a leaf), so that the tensor
    given back has the same history: create_graph=True still differentiates it.
    """

    __slots__ = ("packed", "unpack_hook", "is_output", "grad_fn", "output_nr", "accumulator")

    def __init__(self, packed, unpack_hook, is_output, grad_fn, output_nr, accumulator):
        self.packed = packed
        self.unpack_hook = unpack_hook
        self.is_output = is_output          # the node's own output: its grad_fn is the node
        self.grad_fn = grad_fn              # an input's producer node (None for a leaf)
        self.output_nr = output_nr
        self.accumulator = accumulator      # a leaf's AccumulateGrad (kept: the graph's edges may
                                            # hold the leaf itself, see graph.leaf_edge)

    def unpack(self, node):
        """Give the tensor back: call the unpack hook, check it returned a tensor."""
        tensor = self.unpack_hook(self.packed)
        if not isinstance(tensor, Tensor):
            raise TypeError(UNPACK_NOT_A_TENSOR.format(type(tensor).__name__))
        if self.is_output:
            restored = _wrap(tensor._array)
            if _State.enabled:              # as SavedOutput.unpack: create_graph needs the history
                restored._grad_fn = node
                restored._output_nr = self.output_nr
        elif self.grad_fn is not None:
            restored = _wrap(tensor._array)
            restored._grad_fn = self.grad_fn
            restored._output_nr = self.output_nr
        elif self.accumulator is not None:  # a leaf that requires grad: same AccumulateGrad
            restored = _wrap(tensor._array)
            restored._requires_grad = True
            restored._grad_accumulator = weakref.ref(self.accumulator)
        else:
            restored = tensor
        return restored


def pack(value, node, pack_hook, unpack_hook):
    """Run ``pack_hook`` on one saved value (a tensor, or a SavedOutput)."""
    is_output = type(value) is SavedOutput
    if is_output:
        value = value.as_output_of(node)   # the hook sees the output itself, grad_fn and all
    grad_fn = None if is_output else value._grad_fn
    accumulator = None
    if grad_fn is None and not is_output and value._requires_grad:
        accumulator = grad_accumulator(value)
    with no_grad():                         # PyTorch runs pack hooks without recording
        packed = pack_hook(value)
    return PackedTensor(packed, unpack_hook, is_output, grad_fn, value._output_nr, accumulator)


def pack_saved(node):
    """Pack every tensor ``node`` saved with the innermost hooks (None and numbers stay)."""
    pack_hook, unpack_hook = _Hooks.stack[-1]
    saved = list(node._saved)
    versions = list(node._saved_versions)
    for i in node._pack_order or range(len(saved)):
        if i < len(saved) and _is_tensor(saved[i]):
            saved[i] = pack(saved[i], node, pack_hook, unpack_hook)
            versions[i] = None     # like PyTorch: no in-place check for hooked tensors
    node._saved = tuple(saved)
    node._saved_versions = tuple(versions)
    node._saves_output = True      # some entries must be unpacked on access


def _is_tensor(value):
    return isinstance(value, Tensor) or type(value) is SavedOutput


class SavedTensor:
    """``grad_fn._raw_saved_self``: one saved tensor of a node (PyTorch's
    ``torch._C._autograd.SavedTensor``), on which you can set a pair of hooks."""

    __slots__ = ("_node", "_index")

    def __init__(self, node, index):
        self._node = node
        self._index = index

    def register_hooks(self, pack_hook=None, unpack_hook=None):
        """Pack this saved tensor now with ``pack_hook``; ``unpack_hook`` gives it back later."""
        if not (callable(pack_hook) and callable(unpack_hook)):
            # PyTorch's binding checks the two arguments before anything else
            given = [repr(a) for a in (pack_hook, unpack_hook) if a is not None]
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument types "
                "are supported:\n    1. (self: minigrad.autograd.graph.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\nInvoked with: "
                + ", ".join([repr(self)] + given))
        node = self._node
        if node._saved is FREED:
            raise RuntimeError(HOOKS_AFTER_FREE)
        value = node._saved[self._index] if node._saved else None
        if value is None:
            raise RuntimeError(HOOKS_ON_NONE)
        if type(value) is PackedTensor:
            raise RuntimeError(HOOKS_ALREADY_SET)
        saved = list(node._saved)
        saved[self._index] = pack(value, node, pack_hook, unpack_hook)
        versions = list(node._saved_versions)
        versions[self._index] = None
        node._saved, node._saved_versions = tuple(saved), tuple(versions)
        node._saves_output = True

    def unpack(self):
        """The saved tensor as backward gets it (through the unpack hook, if one is set)."""
        from .graph import _UNPACK_ON_ACCESS     # lazy: graph defines it after importing this module
        node = self._node
        if node._saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        value = self._entry()
        return value.unpack(node) if type(value) in _UNPACK_ON_ACCESS else value

    def _entry(self):
        saved = self._node._saved
        return saved[self._index] if saved else None

    @property
    def data(self):
        """What is kept: the pack hook's result, or else the saved tensor's data."""
        value = self._entry()
        if type(value) is PackedTensor:
            return value.packed
        if type(value) is SavedOutput:
            return _wrap(value.array)
        return value.detach() if value is not None else None

    @property
    def unpack_hook(self):
        """The unpack hook set on this saved tensor (None without hooks)."""
        value = self._entry()
        return value.unpack_hook if type(value) is PackedTensor else None

    def __repr__(self):
        return f"<minigrad.autograd.graph.SavedTensor object at {hex(id(self))}>"


class saved_tensors_hooks:
    """Context manager: every tensor saved for backward inside it goes through
    ``pack_hook`` (at saving time) and ``unpack_hook`` (when it is used).

    Nested managers: the innermost pair wins. ::

        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = x.exp()        # pack(y) runs here
        y.sum().backward()     # unpack(...) runs here
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _Hooks.disabled_message is not None:
            raise RuntimeError(_Hooks.disabled_message)
        _Hooks.stack = _Hooks.stack + ((self.pack_hook, self.unpack_hook),)
        hook_blocks_open.append(self)

    def __exit__(self, *exc_info):
        _Hooks.stack = _Hooks.stack[:-1]
        hook_blocks_open.remove(self)


class save_on_cpu(saved_tensors_hooks):
    """Keep saved tensors on the CPU until backward needs them.

    minigrad only has a CPU, so the tensor is copied there and back (``pin_memory``
    and ``device_type`` are accepted as in PyTorch, and change nothing here).
    """

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            return (tensor.device, tensor.cpu())

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:
    """Context manager: using saved-tensor hooks inside it raises ``RuntimeError(error_message)``.

    Also raises at once if hooks are already in effect when it is entered.
    """

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        if _Hooks.stack:
            raise RuntimeError(self.error_message)
        self._previous = _Hooks.disabled_message
        _Hooks.disabled_message = self.error_message

    def __exit__(self, *exc_info):
        _Hooks.disabled_message = self._previous

    def __call__(self, function):

        @functools.wraps(function)
        def without_hooks(*args, **kwargs):
            with self:
                return function(*args, **kwargs)
        return without_hooks
