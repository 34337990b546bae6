"""Reading a graph from either library: minigrad tensors or real PyTorch tensors.

The drawings only need a few facts about a tensor (its values, shape, dtype,
``grad_fn``, ``.grad``, which memory it shares) and about a node (its name,
``next_functions``, what it saved, how many outputs its forward operation had).
Both libraries offer these under the same public names, with a few exceptions
that this file handles, so that the same program draws the same picture:

- PyTorch calls the leaf node ``torch::autograd::AccumulateGrad``;
- PyTorch exposes saved values as ``_saved_<name>`` attributes (``_saved_self``,
  ``_saved_other``, ``_saved_result``...) and raises RuntimeError once backward
  freed them; minigrad keeps them in a list, in the order of the operation's inputs;
- PyTorch has no ``_array``: values come through ``.detach().numpy()``.

PyTorch is never imported here: a tensor is a PyTorch tensor only if the
``torch`` module is already loaded and the object is an instance of its Tensor.
"""
import sys

import numpy as np

from .._tensor import Tensor, _wrap
from ..autograd.graph import AccumulateGrad, PackedTensor, SavedOutput


def _torch():
    return sys.modules.get("torch")


def is_torch_tensor(value):
    torch = _torch()
    return torch is not None and isinstance(value, torch.Tensor)


def is_tensor(value):
    """A minigrad Tensor or a PyTorch tensor."""
    return isinstance(value, Tensor) or is_torch_tensor(value)


def is_node(value):
    """A backward node (a ``grad_fn``) of either library."""
    if isinstance(getattr(value, "next_functions", None), tuple) and hasattr(value, "name"):
        return True
    return False


def node_name(node):
    """'MulBackward0', 'AccumulateGrad' (PyTorch writes 'torch::autograd::AccumulateGrad')."""
    return node.name().split("::")[-1]


def is_accumulate_grad(node):
    return isinstance(node, AccumulateGrad) or node_name(node) == "AccumulateGrad"


def forward_class(node):
    """The custom Function class behind a node (``Square`` for SquareBackward), or None."""
    return getattr(node, "_forward_cls", None)


def num_outputs(node):
    """How many outputs the node's forward operation had."""
    if hasattr(node, "_num_outputs"):
        return node._num_outputs
    return len(node._input_metadata)


def output_shape(node, output_nr=0):
    """The shape of output ``output_nr`` of ``node``'s forward operation."""
    if hasattr(node, "_num_outputs"):
        if node._num_outputs > 1:
            return tuple(node._output_shapes[output_nr])
        return tuple(node._output_shape)
    return tuple(node._input_metadata[output_nr].shape)


# PyTorch's names for saved inputs, in the order minigrad saves them (the operation's inputs,
# then its result).
_SAVED_ORDER = ("self", "other", "tensor", "mat2", "vec", "input", "weight", "exponent", "result")


def _torch_saved(node):
    """PyTorch's saved tensors (and wrapped numbers) of ``node`` in minigrad's order; None if freed."""
    names = [a[len("_saved_"):] for a in dir(node) if a.startswith("_saved_")]
    known = [n for n in _SAVED_ORDER if n in names]
    others = sorted(n for n in names if n not in _SAVED_ORDER)
    values = []
    for name in known + others:
        try:
            value = getattr(node, "_saved_" + name)
        except RuntimeError:            # freed by backward()
            return None
        if is_torch_tensor(value):
            # PyTorch saves a Python number operand (the 2 of x * 2) as a 0-d int64/float64 tensor
            if value.dim() == 0 and not value.requires_grad and value.grad_fn is None and \
                    str(value.dtype) in ("torch.int64", "torch.float64") and name in ("other", "self"):
                value = value.item()
            values.append(value)
        elif value is None and name in ("self", "other"):
            values.append(None)         # keeps positions: entry i is input i
    return values


def saved_list(node):
    """What the node saved for backward, entry i for input i where it is an input; None once freed."""
    if hasattr(node, "_freed"):
        return None if node._freed else [_saved_output_tensor(node, v) if isinstance(v, SavedOutput)
                                         else v.unpack(node) if isinstance(v, PackedTensor)
                                         else v for v in node._saved or ()]
    if is_accumulate_grad(node):
        return []
    if forward_class(node) is not None:     # a custom Function: what it saved for backward
        try:
            return list(node.saved_tensors)
        except RuntimeError:                # freed by backward()
            return None
    return _torch_saved(node)


def _saved_output_tensor(node, saved):
    """A handle on the output a minigrad node saved (it keeps only the data, not the tensor)."""
    tensor = _wrap(saved.array)
    tensor._version_counter = saved.version_counter
    tensor._grad_fn = node
    tensor._output_nr = saved.output_nr
    return tensor


def array(tensor):
    """The values as a numpy array."""
    if isinstance(tensor, Tensor):
        return tensor._array
    return tensor.detach().cpu().resolve_conj().resolve_neg().numpy()


def grad(tensor):
    """``tensor.grad`` without PyTorch's warning about non-leaf tensors (callers check first)."""
    if isinstance(tensor, Tensor):
        return tensor._grad
    return tensor.grad


def output_nr(tensor):
    return tensor._output_nr if isinstance(tensor, Tensor) else tensor.output_nr


def memory_key(tensor):
    """Equal for tensors that share memory (a view and its base, a detached copy)."""
    if isinstance(tensor, Tensor):
        return id(tensor._version_counter)
    return ("torch", tensor.untyped_storage().data_ptr())


def find_same(value, tensors):
    """``value`` if it is one of ``tensors``, else the one it is a fresh handle of, else None.

    PyTorch hands out a new tensor object for some saved values (``_saved_result``,
    and inputs it saved in another form) even though it is the same data and graph
    position; those are recognised by their memory, shape, strides and grad_fn.
    """
    if value in tensors:
        return value
    if isinstance(value, Tensor):       # a saved output: the same data and the same grad_fn
        return next((t for t in tensors if isinstance(t, Tensor) and t._array is value._array
                     and t._grad_fn is value._grad_fn), None)
    if not is_torch_tensor(value):
        return None
    key = _torch_identity(value)
    for tensor in tensors:
        if is_torch_tensor(tensor) and _torch_identity(tensor) == key:
            return tensor
    return None


def _torch_identity(tensor):
    return (tensor.untyped_storage().data_ptr(), tensor.storage_offset(), tuple(tensor.shape),
            tensor.stride(), tensor.dtype, tensor.requires_grad, tensor.grad_fn)


def dtype_name(tensor):
    """'float32', 'int64', ... for either library."""
    return str(tensor.dtype).split(".")[-1]


def retained_tensors(node):
    """The tensors made by ``node`` that called retain_grad() (minigrad only: PyTorch hides them)."""
    hooks = getattr(node, "_retains_grad_hook", None) or {}
    found = []
    for nr in sorted(hooks):
        tensor = hooks[nr]()
        if tensor is not None:
            found.append(tensor)
    return found


def copy(tensor):
    """A copy of a gradient (None stays None), in the tensor's own library."""
    if tensor is None:
        return None
    if isinstance(tensor, Tensor):
        return _wrap(np.array(tensor._array, copy=True))
    return tensor.detach().clone()


def ones_like(tensor):
    if isinstance(tensor, Tensor):
        return _wrap(np.ones(tensor._array.shape, dtype=tensor._array.dtype))
    return _torch().ones_like(tensor).detach()


def as_gradient(value, like):
    """A gradient given to backward() as a copy in ``like``'s library."""
    if is_tensor(value):
        return copy(value)
    if isinstance(like, Tensor):
        return _wrap(np.asarray(value, dtype=like._array.dtype))
    return _torch().as_tensor(value, dtype=like.dtype)


def describe(value):
    """What an unexpected object is, for error messages: 'list [1, 2]', 'numpy.ndarray ...'."""
    kind = type(value)
    module = kind.__module__
    name = kind.__qualname__ if module in ("builtins", None) else f"{module}.{kind.__qualname__}"
    return f"{name}: {value!r:.60}"
