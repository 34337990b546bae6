"""The ``Tensor`` class: a numpy array plus what autograd needs to know about it.

A tensor holds its numbers in ``_array`` (a numpy array). For autograd it also
carries:

* ``requires_grad`` - should operations on it be recorded?
* ``grad_fn``       - the Node that produced it (None for a leaf);
* ``grad``          - where backward leaves d(loss)/d(this tensor) (leaves only);
* a version counter - bumped by every in-place change, so backward can notice
  that a tensor it saved was modified afterwards.

The arithmetic itself lives in ``minigrad/_ops`` (one file per family of
operations, each forward next to its backward); the methods here only forward
to it, so a learner looking for ``exp`` finds it in ``_ops/pointwise.py``.
PyTorch's Tensor is in torch/_tensor.py (Python side) and C++.
"""
import numbers
import warnings

import weakref

import numpy as np

from ._type_names import type_name
from . import _dtype, _memory_format
from ._dtype import Size
from ._tensor_str import tensor_repr
from ._warnings import warn_once
from ._zero_tensor import zero_tensors_exist as _zero_tensors_exist
from . import _zero_tensor


class device:
    """Where a tensor lives: ``torch.device('cpu')``, ``torch.device('cuda:1')``,
    ``torch.device('cuda', 1)``, with its ``type`` and ``index`` (None when not given).

    minigrad's tensors all live on the CPU. Like a PyTorch built for the CPU only, it can still
    name other devices (to print or compare them, as ``torch.device("cuda" if
    torch.cuda.is_available() else "cpu")`` does); a tensor sent to one fails (check_cpu_device)."""

    def __init__(self, *args, **kwargs):
        """``device('cuda:1')``, ``device('cuda', 1)``, ``device(type='cuda', index=1)``, or a copy
        of another device; wrong arguments get PyTorch's TypeError (its two signatures)."""
        if len(args) == 1 and not kwargs and isinstance(args[0], str):
            which, values = 0, {"device": args[0]}      # (the usual call, read without the parser)
        else:
            which, values = _device_signatures().parse(args, kwargs)
        if which == 0:                      # (a device, its name, or an index alone)
            name, index = values["device"], None
            if isinstance(name, device):
                name = str(name)
            elif not isinstance(name, str):
                check_cpu_device(name)      # (an index alone names an accelerator: refused)
        else:                               # (a type's name, and its index if not None)
            name, index = values["type"], values["index"]
            if index == -1 and "index" not in kwargs and len(args) < 2:
                index = None                # (left out: PyTorch's default, -1, means none)
        error = _unreadable_device_error(name)
        if error is not None:
            raise error
        kind, colon, number = name.partition(":")
        if which == 1 and colon:
            raise RuntimeError(f"type (string) must not include an index because index was passed "
                               f"explicitly: {name}")
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        if number:                          # ('cuda:1': the index is in the name)
            index = number
        self.type = kind
        self.index = None if index is None else int(index)

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        # (a device is never equal to a string, as in PyTorch: compare str(device) or .type)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return device, (str(self),)


_DEVICE_SIGNATURES = []


def _device_signatures():
    """torch.device's two signatures, as PyTorch declares them (made at first use: the parser
    imports this module)."""
    if not _DEVICE_SIGNATURES:
        from ._signatures import Signatures
        _DEVICE_SIGNATURES.append(Signatures("device", "torch.device device", "str type, int? index=-1"))
    return _DEVICE_SIGNATURES[0]


_DEVICE_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, "
                 "lazy, vulkan, mps, meta, hpu, mtia, privateuseone")

_DEVICE_HINT = "\nminigrad hint: minigrad runs on the CPU only; use 'cpu' (or leave the device out)."


def _unreadable_device_error(name):
    """PyTorch's error for a string that names no device (``'float64'``, ``'gpu'``, ``'cuda:x'``);
    None for a device's name."""
    kind, _, index = name.partition(":")
    if not kind or not all(c.isalpha() or c == "_" for c in kind) or (index and not index.isdigit()):
        return RuntimeError(f"Invalid device string: '{name}'" + _DEVICE_HINT)    # e.g. to('float64')
    if kind not in _DEVICE_TYPES.split(", "):
        return RuntimeError(f"Expected one of {_DEVICE_TYPES} device type at start of device "
                            f"string: {name}" + _DEVICE_HINT)
    return None


_CPU = device("cpu")


def _device_error(name):
    """What PyTorch (built for the CPU only) says about another device."""
    error = _unreadable_device_error(name)
    if error is not None:
        return error
    hint = _DEVICE_HINT
    kind = name.partition(":")[0]
    if kind == "cuda":
        return AssertionError("Torch not compiled with CUDA enabled" + hint)
    if kind == "xpu":
        return AssertionError("Torch not compiled with XPU enabled" + hint)
    if kind == "meta":       # PyTorch's meta tensors hold shapes without values; minigrad has none
        hint += (" minigrad has no meta tensors (shapes without values): where a model on 'meta' "
                 "only serves as the skeleton for torch.func.functional_call, a copy on the CPU "
                 "works the same (functional_call replaces its values).")
    # (what PyTorch says when a tensor or module is sent to a device it was built without)
    return RuntimeError(f"PyTorch is not linked with support for {kind} devices" + hint)


def check_cpu_device(value):
    """Nothing if ``value`` (a device, its name, an index, or None) is the CPU; PyTorch's error
    otherwise (an index names an accelerator: PyTorch built for the CPU has none)."""
    if value is None:
        return
    if isinstance(value, device):
        if value.type == "cpu":
            return
        raise _device_error(str(value))
    if isinstance(value, (int, np.integer)):
        if not -2**63 <= value < 2**63:
            raise ValueError("Overflow when unpacking long long")
        raise RuntimeError("Device index must not be negative" if value < 0 else
                           "Cannot access accelerator device when none is available.")
    kind, colon, index = value.partition(":")
    if kind != "cpu" or (colon and not index.isdigit()):     # ('cpu:0', 'cpu:1': the CPU)
        raise _device_error(value)


_DETACH_VIEW_ERROR = (
    "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
    "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
    "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
    "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. "
    "See github.com/pytorch/pytorch/pull/30531 for more information."
)


_REQUIRES_GRAD_IN_TRANSFORM = (
    "You are attempting to call Tensor.requires_grad_() (or perhaps using "
    "torch.autograd.functional.* APIs) inside of a function being transformed by a functorch "
    "transform. This is unsupported, please attempt to use the functorch transforms (e.g. grad, "
    "vjp, jacrev, jacfwd, hessian) or call requires_grad_() outside of a function being "
    "transformed instead.")


def shrunk_to_0d(out, size):
    """Note on ``out`` (a 0-d result, or several) the size ``size`` that PyTorch's kernel gave
    its first dim before shrinking it to 0-d (a reduction's kept dim squeezed away, a loss's
    elements reduced in the same tensor). PyTorch's indexing reads that stale size: x[-1]
    says "select() cannot be applied to a 0-dim tensor." when -size <= index < size."""
    for tensor in (out if isinstance(out, tuple) else (out,)):
        if isinstance(tensor, Tensor) and tensor._array.ndim == 0:
            tensor._stale_size = size
    return out


def _wrap(array):
    """A new tensor around a numpy array (no copy, no history). The hot path of every op."""
    t = _new_object(Tensor)
    t._array = array
    t._requires_grad = False
    t._grad_fn = None
    t._output_nr = 0
    t._versions = _NEVER_CHANGED     # the version counter is made on first need (see below)
    t._grad = None
    t._base = t._grad_accumulator = None
    if _inference_blocks:            # empty unless some thread is inside inference_mode()
        _mark_if_inference(t)
    return t


_new_object = object.__new__     # (an object without __init__; looked up once, not at every call)


# Most tensors are never changed in place and never share memory with a view,
# so a new tensor does not get its own version counter (a list, one more object
# for the garbage collector to track) until one is needed: until then it shares
# this tuple, which reads as version 0 and can never be bumped.
_NEVER_CHANGED = (0,)


def _check_can_require_grad(array, requires_grad):
    if requires_grad and array.dtype.kind != "f":
        raise RuntimeError(
            "Only Tensors of floating point and complex dtype can require gradients\n"
            f"minigrad hint: this one has dtype torch.{_dtype.from_numpy_dtype(array.dtype).name}. "
            "Create it with a float dtype, e.g. torch.tensor([1., 2.]) or dtype=torch.float32."
        )


def _is_alias_call(args, kwargs):
    """``Tensor(x)`` of a tensor x (a device may be named): PyTorch does not make a new tensor
    of x's values but gives x itself seen through a new tensor (an alias: the same memory, the
    same dtype, and AliasBackward0 if x requires grad)."""
    return len(args) == 1 and isinstance(args[0], Tensor) and not set(kwargs) - {"device"}


def _alias(tensor):
    """``tensor`` seen through a new tensor: a view of all of it (AliasBackward0 if recorded)."""
    if hasattr(tensor, "_value"):      # inside vmap, a BatchedTensor: the alias of its value
        return type(tensor)(_alias(tensor._value), tensor._bdim, tensor._level)
    from ._ops import result
    from ._ops.indexing import AliasBackward0
    from ._ops.shape import _make_view
    return _make_view(result(tensor._array.view(), AliasBackward0, (tensor,)), tensor)


def _legacy_constructor_error(args, kwargs, dtype):
    """PyTorch's error when ``Tensor(...)`` matches none of its forms (its five signatures, each
    with why it did not match)."""
    from ._signatures import Signatures
    from ._tensor_signature_table import SIGNATURES
    message = Signatures("new", *SIGNATURES["new"])._invalid_combination(args, kwargs)
    name = "Tensor" if dtype is _dtype.float32 else dtype.tensor_type_name
    hint = (f"\nminigrad hint: {name}(data) always makes {dtype.name} tensors; use "
            "minigrad.tensor(data, dtype=..., requires_grad=...) to choose.") if kwargs else ""
    return TypeError(message + hint)


def _legacy_constructor_array(args, kwargs, dtype=_dtype.float32):
    """The array of ``Tensor(*args)``: sizes (``Tensor(2, 3)``), data (``Tensor([1, 2])``,
    always float32) or nothing (an empty float32 tensor), with PyTorch's errors. (``dtype``:
    LongTensor(...) and the others of _tensortype.py make their own dtype.)"""
    if not args and ("size" in kwargs) != ("data" in kwargs):   # (Tensor(size=(2, 3)), data=[1])
        kwargs = dict(kwargs)
        if "data" in kwargs:
            args = (kwargs.pop("data"),)
        else:
            size = kwargs.pop("size")
            args = (Size(size),) if isinstance(size, (tuple, list)) and all(
                isinstance(s, (int, np.integer)) for s in size) else (size,)
    if set(kwargs) - {"device"}:
        raise _legacy_constructor_error(args, kwargs, dtype)
    if kwargs.get("device") is not None:
        check_cpu_device(device(kwargs["device"]))
    if not args:
        return np.zeros((0,), dtype=dtype.numpy_dtype)
    first = args[0]
    is_int = lambda value: isinstance(value, (int, np.integer)) and not isinstance(value, bool)  # noqa: E731
    if is_int(first) or (len(args) == 1 and isinstance(first, Size)):
        return _legacy_sized_array(tuple(first) if isinstance(first, Size) else args, dtype)
    if len(args) > 1:
        raise _legacy_constructor_error(args, kwargs, dtype)
    if isinstance(first, str):
        raise TypeError(f"new(): invalid data type '{type_name(first)}'")
    if not isinstance(first, (list, tuple, np.ndarray)):
        raise TypeError(f"new(): data must be a sequence (got {type_name(first)})")
    if type(first) is np.ndarray and first.dtype == dtype.numpy_dtype:
        return first          # PyTorch's Tensor(array) shares an array of its dtype's memory
    return tensor_data_to_array(first, dtype)


def _legacy_sized_array(sizes, dtype):
    """The array of ``Tensor(2, 3)``: PyTorch's parse of the sizes (a bool after the first counts
    as 0 or 1; an int past a C++ long long is refused with the first line of its message, which
    goes on with the C++ stack of the failed conversion: addresses that differ from one machine
    to the next), then its checks of their values, then the allocation."""
    from ._python_arg_parser import int64_overflow, check_storage_size, _allocation_error
    for position, size in enumerate(sizes):
        if not isinstance(size, (int, np.integer)) or (isinstance(size, bool) and position == 0):
            raise TypeError(f"new(): argument 'size' failed to unpack the object at pos "
                            f"{position + 1} with error \"type must be tuple of ints,but got "
                            f"{type_name(size)}\"")
        if not -2**63 <= size < 2**63:
            raise int64_overflow("new", "size", position)
    sizes = tuple(int(size) for size in sizes)
    if -2**63 in sizes:
        # (PyTorch keeps this one value of a C++ long long to mark a symbolic size; its message
        # names the generated source file that checks it)
        raise RuntimeError("/__w/pytorch/pytorch/build/aten/src/ATen/RegisterCPU_1.cpp:2398: "
                           "SymIntArrayRef expected to contain only concrete integers")
    if any(size < 0 for size in sizes):
        raise RuntimeError(f"Trying to create tensor with negative dimension "
                           f"{next(size for size in sizes if size < 0)}: {list(sizes)}")
    check_storage_size(sizes, dtype)
    try:
        return np.zeros(sizes, dtype=dtype.numpy_dtype)
    except (MemoryError, ValueError):             # (numpy's "array is too big")
        raise _allocation_error(sizes, dtype) from None


def _keep_empty_numpy_steps(tensor, args):
    """A tensor made from an empty numpy array reports numpy's steps (0 in every dim), as
    PyTorch's legacy constructors keep them (see Tensor.stride())."""
    if not tensor._array.size and args and isinstance(args[0], np.ndarray):
        tensor._zero_steps = not any(tensor._array.strides)


class Tensor:
    """A multi-dimensional array that can record the operations applied to it.

    ``minigrad.Tensor(data)`` makes a float32 tensor, like ``torch.Tensor``;
    ``minigrad.tensor(data)`` infers the dtype from the data. ``Tensor(2, 3)`` makes one of
    that shape, and ``Tensor(x)`` of a tensor x is x itself seen through a new tensor.
    """

    # Attributes every tensor sets are slots (fast, small). The rarer ones fall
    # back to the class defaults below until a tensor assigns its own value.
    # (``_grad`` too: a leaf's .grad set and reset kept the leaf's __dict__, which the garbage
    # collector stops tracking while it holds only None and tracks again, once per backward)
    # (``_base`` and ``_grad_accumulator`` too: recording reads them for every input, and Python
    # reads a slot about four times faster than a class default; _wrap and __new__ set them)
    __slots__ = ("_array", "_requires_grad", "_grad_fn", "_output_nr", "_versions", "_grad",
                 "_base",                # the tensor this one is a view of, or None
                 "_grad_accumulator",    # weak reference to this leaf's AccumulateGrad, or None
                 "__dict__", "__weakref__")

    _is_tensor = True             # (an edge of the graph may end here: autograd/graph.py leaf_edge)
    _retains_grad = False
    _created_in_no_grad = False   # a view made under no_grad of a tensor that requires grad
    _multi_output_view = False    # one of several views made at once (unbind, split)
    _custom_function_view = False  # an input a custom Function returned as-is (function.py)
    _attr_version = 0             # on a view: the version its grad_fn was made at (views.py)
    _view_of_no_grad_view = False           # made (recording) from a view made under no_grad
    _made_in_inference_mode = False         # ... under inference_mode (PyTorch's messages say so)
    _requires_grad_set_by_user = False      # x.requires_grad_() on a no_grad view: it gets .grad
    _backward_hooks = None        # hooks registered on a leaf with register_hook
    _shared_gradient = False      # set on a starting gradient of backward(): its caller holds it
    _is_inference = False         # made inside inference_mode (see autograd/grad_mode.py)
    # x.detach() of an inference tensor outside inference mode: still an inference tensor, but
    # with a version counter of its own (PyTorch's detach gives it one), which in-place changes
    # outside inference mode may raise
    _counts_versions = False
    _detached_from = None         # detach(): weak reference to the root whose version it shares
    _unsafe_piece = False         # a piece of unsafe_split/unsafe_chunk: its input's memory, no view
    _post_accumulate_grad_hooks = None   # hooks run after backward updated this leaf's .grad
    _vmap_levels = 0              # inside vmap: the levels it is batched at (see _functorch.py)
    _zero_steps = False           # no elements, and steps of 0 that PyTorch reports (stride())
    _stale_size = 0               # a 0-d result PyTorch shrank from a tensor: see shrunk_to_0d
    _zero_tensor_memory = None    # a ZeroTensor's array, held a second time (see _is_zerotensor)

    # numpy must hand arithmetic with tensors back to us (2.0 * t, np.float32(1) + t).
    __array_ufunc__ = None

    def __new__(cls, *args, **kwargs):
        # Tensor(x) of a tensor x is an alias of x, which __init__ can't return: made here.
        # (Not a metaclass: with one, every isinstance(value, Tensor) of a number is slower.
        # _wrap, the hot path, calls object.__new__ and never comes here.)
        if cls is Tensor and _is_alias_call(args, kwargs):
            if kwargs.get("device") is not None:
                check_cpu_device(device(kwargs["device"]))    # (another device fails as PyTorch's)
            return _alias(args[0])
        tensor = object.__new__(cls)
        tensor._base = tensor._grad_accumulator = None      # (slots without a default)
        return tensor

    def __init__(self, *args, **kwargs):
        if type(self) is Tensor and _is_alias_call(args, kwargs):
            return      # (Python calls __init__ on what __new__ returned: the alias, complete)
        # PyTorch's legacy constructor: sizes, data or nothing, always float32
        self._array = _legacy_constructor_array(args, kwargs)
        _keep_empty_numpy_steps(self, args)
        self._requires_grad = False
        self._grad_fn = None
        self._output_nr = 0
        self._versions = _NEVER_CHANGED
        self._grad = None
        if _inference_blocks:
            _mark_if_inference(self)

    # --- autograd attributes --------------------------------------------------------
    @property
    def grad_fn(self):
        """The Node that created this tensor, or None for a leaf."""
        if self._vmap_levels and _shows_as_batched(self):
            return None           # a vmap's BatchedTensor (see _functorch.py)
        if _GradLevels.running:   # inside grad, vjp, ...: the graph of that level (func/_levels.py)
            seen = _levels.flags_seen(self)
            if seen is not None:
                return seen[1]
        if self._base is not None:      # a view: its node is made again if its memory changed
            return _ops_views.view_grad_fn(self)
        return self._grad_fn

    @property
    def _graph_grad_fn(self):
        """``grad_fn`` as the graph has it: the same, except inside vmap or grad, where the
        user sees only the graph of the innermost transform. Operations ask this."""
        if self._base is not None:
            return _ops_views.view_grad_fn(self)
        return self._grad_fn

    @property
    def requires_grad(self):
        """True if operations on this tensor are recorded for backward."""
        if self._vmap_levels and _shows_as_batched(self):
            return False          # a vmap's BatchedTensor (see _functorch.py)
        if _GradLevels.running:   # inside grad, vjp, ...: the graph of that level (func/_levels.py)
            seen = _levels.flags_seen(self)
            if seen is not None:
                return seen[0]
        return self._graph_requires_grad

    @property
    def _graph_requires_grad(self):
        """``requires_grad`` as the graph sees it: are operations on this tensor recorded?

        The same as requires_grad, except inside vmap: a batched tensor tells the user False
        (PyTorch's BatchedTensor), while the operations on it are still recorded for the graph
        outside the vmap. Operations deciding what to record ask this."""
        # (a view whose history was lost still says True: only its grad_fn raises)
        if self._grad_fn is not None or self._requires_grad:
            return True
        # a view requires grad when its base does (the same memory), as in PyTorch
        return self._base is not None and self._base._graph_requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if value is False and self._vmap_levels and _shows_as_batched(self):
            return                # a BatchedTensor already says False
        if not isinstance(value, (bool, np.bool_)):
            raise RuntimeError("requires_grad must be a bool")
        if self._grad_fn is not None:
            if value:
                raise RuntimeError("you can only change requires_grad flags of leaf variables.")
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        value = bool(value)
        if value and self._is_inference and not _grad_state.inference:
            raise RuntimeError(
                "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        if value and self._array.dtype.kind != "f":
            raise RuntimeError(
                "only Tensors of floating point and complex dtype can require gradients\n"
                f"minigrad hint: this one is {self.dtype}; convert it first, e.g. x = x.float().")
        self._requires_grad = value
        if self._base is not None:
            self._requires_grad_set_by_user = value

    def requires_grad_(self, requires_grad=True):
        """Set ``requires_grad`` in place and return the tensor itself."""
        if _FuncTransforms.depth:        # inside grad, vmap, ...: they track gradients themselves
            raise RuntimeError(_REQUIRES_GRAD_IN_TRANSFORM)
        if not isinstance(requires_grad, (bool, np.bool_)):
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be bool, "
                            f"not {type_name(requires_grad)}")
        if requires_grad and self._array.dtype.kind != "f":     # (also integers with history)
            raise RuntimeError("only Tensors of floating point dtype can require gradients\n"
                               f"minigrad hint: this one is {self.dtype}; convert it first, "
                               "e.g. x = x.float().")
        if self._grad_fn is not None and requires_grad:
            return self                   # already requires grad: nothing changes
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self):
        """True for tensors not made by a recorded operation (grad_fn is None)."""
        if self._vmap_levels and _shows_as_batched(self):
            return True           # a vmap's BatchedTensor (see _functorch.py)
        return self.grad_fn is None

    @property
    def grad(self):
        """d(loss)/d(self) after backward: filled in for leaves (and retain_grad tensors)."""
        if (self._grad_fn is not None and not self._retains_grad and self._grad is None
                and not (self._vmap_levels and _shows_as_batched(self))):   # (a leaf to the user)
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value.dtype is not self.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_dtype.cpp_type_name(value.dtype)}' "
                    f"to a tensor with grad_dtype '{_dtype.cpp_name(self.dtype).capitalize()}'. "
                    "The gradient must match the tensor's grad_dtype (defaults to the tensor's "
                    "dtype). You can set the tensor's grad_dtype attribute with a specific dtype, "
                    "or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes "
                    "of a tensor and its gradient may break downstream systems that assume they "
                    f"match.\nminigrad hint: the gradient is {value.dtype.name}, the tensor "
                    f"{self.dtype.name}; convert the gradient with .to(x.dtype)."
                )
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of "
                    f"size '{list(self.shape)}'. Please ensure that the gradient and the tensor are "
                    "the same size"
                )
        self._grad = value

    @grad.deleter
    def grad(self):
        # ``del x.grad`` is how some code resets a gradient (the same as x.grad = None)
        self._grad = None

    @property
    def retains_grad(self):
        """True if ``retain_grad()`` was called on this non-leaf tensor."""
        return self._retains_grad

    def retain_grad(self):
        """Ask backward to fill in ``.grad`` of this non-leaf tensor too."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None or self._retains_grad:
            return                     # leaves keep their grad anyway
        node = self.grad_fn            # (a view's node is made again first, if out of date)
        self._retains_grad = True
        hooks = node._retains_grad_hook
        if hooks is None:
            hooks = node._retains_grad_hook = {}
        node._has_hooks = True
        hooks[self._output_nr] = weakref.ref(self)

    def register_hook(self, hook):
        """``hook(grad)`` runs when the gradient for this tensor is computed.

        It may return a new gradient to use instead. Returns a handle with ``remove()``.
        """
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if _GradLevels.running:          # inside grad, vjp, ...: a hook of that level's graph
            hook = _levels.hook_of_level(hook)
        if self._backward_hooks is not None and self._grad_fn is None:
            # PyTorch looks at grad_fn at the first hook only: a no_grad view whose base has
            # changed since then takes more hooks without the lost-history error
            return graph._add_hook(self._backward_hooks, hook)
        if self.grad_fn is None:         # (a view's node is made again first)
            if self._backward_hooks is None:
                self._backward_hooks = {}
            accumulator = self._grad_accumulator() if self._grad_accumulator is not None else None
            if accumulator is not None:
                accumulator._has_hooks = True     # the live node must now look for hooks
            return graph._add_hook(self._backward_hooks, hook)
        node = self._grad_fn
        if node._tensor_pre_hooks is None:
            node._tensor_pre_hooks = {}
        node._has_hooks = True
        hooks = node._tensor_pre_hooks.setdefault(self._output_nr, {})
        return graph._add_hook(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """``hook(tensor)`` runs after backward has added into this leaf's ``.grad``.

        Optimisers can update the parameter right there, while backward goes on.
        The hook must return None. Returns a handle with ``remove()``.
        """
        return add_post_accumulate_grad_hook(self, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute d(self)/d(leaf) for every leaf and accumulate it into ``leaf.grad``."""
        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """A tensor with the same data (shared memory) but no history and no grad."""
        out = _wrap(self._array)
        out._version_counter = self._version_counter
        if self._zero_steps:             # (the same memory, stepping the same way)
            out._zero_steps = True
        # an in-place change of the detached tensor is one of its source's memory (the
        # shared version counter tells the source's views); remember the source (weakly):
        # in-place rules treat the detached tensor like a view (inplace.check_inplace)
        root = self._base if self._base is not None else self
        out._detached_from = root._detached_from or weakref.ref(root)
        if _inference_blocks or self._is_inference:   # a view: an inference tensor only if self is one
            out._is_inference = self._is_inference
            if self._is_inference and not _grad_state.inference:
                out._versions = [0]                   # (a counter of its own, see _counts_versions)
                out._counts_versions = True
        if _FuncTransforms.vmaps:        # the same values: batched if self is
            out._vmap_levels = self._vmap_levels
        if _zero_tensors_exist and self._zero_tensor_memory is not None:
            _zero_tensor.as_zero_tensor(out)      # (the same no-memory zeros: see _zero_tensor.py)
        return out

    def detach_(self):
        """Cut this tensor from its history in place; it becomes a leaf."""
        if self._base is not None:
            raise RuntimeError(_DETACH_VIEW_ERROR)
        self._grad_fn = None
        self._requires_grad = False
        return self

    def _detached_copy(self):
        return _wrap(self._array.copy())

    @property
    def data(self):
        """The same values as a tensor without history (shares memory, like torch)."""
        if _FuncTransforms.vmaps and self._vmap_levels:
            raise RuntimeError("accessing `data` under vmap transform is not allowed")
        out = _wrap(self._array)
        if self._zero_steps:             # (the same memory, stepping the same way)
            out._zero_steps = True
        if _zero_tensors_exist and self._zero_tensor_memory is not None:
            _zero_tensor.as_zero_tensor(out)      # (the same no-memory zeros: see _zero_tensor.py)
        return out

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if value._array.dtype.kind not in "fc" and self.requires_grad:
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or "
                               "complex dtype")
        if self._requires_grad and self._grad_fn is None and self._base is None and (
                value._array.shape != self._array.shape or value._array.dtype != self._array.dtype):
            graph.give_edges_their_node(self)     # its graphs keep the leaf's old shape and dtype
        self._array = value._array
        if self._zero_steps or value._zero_steps:
            self._zero_steps = value._zero_steps

    @property
    def _version_counter(self):
        """The version counter: a one-element list, shared by every tensor of the same memory
        (views, detach()), bumped by each in-place change. Made the first time it is asked for."""
        counter = self._versions
        if counter is _NEVER_CHANGED:
            counter = self._versions = [0]
        return counter

    @_version_counter.setter
    def _version_counter(self, counter):
        self._versions = counter

    @property
    def _version(self):
        """How many times this tensor (or a view of the same memory) was changed in place."""
        if self._is_inference and not self._counts_versions:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._versions[0]

    def is_inference(self):
        """True for a tensor created inside ``inference_mode()``."""
        return self._is_inference

    # --- shape and dtype --------------------------------------------------------------
    @property
    def shape(self):
        """The size of each dimension, a ``torch.Size`` (a tuple)."""
        return Size(self._array.shape)

    def size(self, dim=None):
        """The shape as ``minigrad.Size``, or the length of one dimension."""
        if dim is None:
            return Size(self._array.shape)
        if not self._array.ndim:
            # (a 0-d tensor has no size to give, whatever the dim, even 0 or -1)
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._array.shape[_normalize_dim(dim, self._array.ndim)]

    @property
    def dtype(self):
        """The element type, e.g. ``torch.float32``."""
        return _dtype._BY_NUMPY[self._array.dtype]

    @property
    def device(self):
        """Where the data lives: always ``device('cpu')`` in minigrad."""
        return _CPU

    @property
    def ndim(self):
        """The number of dimensions (the same as ``dim()``)."""
        return self._array.ndim

    def dim(self):
        """The number of dimensions (``len(self.shape)``)."""
        return self._array.ndim

    def numel(self):
        """The number of elements (the product of the shape)."""
        return self._array.size

    nelement = numel
    ndimension = dim

    def element_size(self):
        """Bytes per element (4 for float32)."""
        return self._array.itemsize

    @property
    def itemsize(self):
        """Bytes per element (4 for float32), as ``element_size()``."""
        return self._array.itemsize

    @property
    def nbytes(self):
        """Bytes the elements take: numel() * itemsize (an expanded tensor counts every element
        it shows, though its memory holds fewer)."""
        return self._array.size * self._array.itemsize

    def is_same_size(self, other):
        """True if ``other`` has the same shape."""
        if not isinstance(other, Tensor):
            raise TypeError(f"is_same_size(): argument 'other' (position 1) must be Tensor, not "
                            f"{type_name(other)}")
        return self._array.shape == other._array.shape

    def is_signed(self):
        """True if the dtype can hold negative numbers (not uint8, not bool)."""
        return self._array.dtype.kind in "if"

    def storage_offset(self):
        """How many elements into its memory this tensor starts: 0 for a new tensor, 5 for
        ``x[1, 1:]`` of a 3x4 ``x`` (a view starts where its first element is)."""
        from ._ops.strided import storage_of      # (the storage behind a tensor is described there)
        return storage_of(self)[1]

    def is_floating_point(self):
        """True if the dtype is a floating-point type (only those can require grad)."""
        return self._array.dtype.kind == "f"

    def is_contiguous(self, memory_format=_memory_format.contiguous_format):
        """True if the elements lie in memory in row-major order without gaps (or in the
        ``memory_format`` given, e.g. minigrad.channels_last)."""
        _memory_format.check_memory_format("is_contiguous", memory_format)
        return _memory_format.is_in_format(_memory_format.with_pytorch_steps(self), memory_format)

    def contiguous(self, memory_format=_memory_format.contiguous_format):
        """Itself if its elements are in row-major order in memory, else a copy that is."""
        out = _ops_shape.contiguous(self, memory_format)
        return out if out is self else _kernel_writes("contiguous", out, self)     # (a clone: copy_)

    def _is_view(self):
        return self._base is not None

    def _is_zerotensor(self):
        """True for PyTorch's "ZeroTensor": zeros that take no memory and may not be changed
        (minigrad/_zero_tensor.py has its rules). ``sgn``'s gradient (of real numbers) is one, and
        so are products and views of one, so a second-order gradient through ``abs`` reaches a
        leaf as one. Adding a gradient to it makes a new tensor (nothing is added in place), and
        a ``.grad`` that is one refuses the next backward. (One holds its array a second time:
        the engine adds into a gradient's memory only when nothing else holds it, so it never
        adds into a ZeroTensor's.)"""
        return self._zero_tensor_memory is not None

    def stride(self, dim=None):
        """How many elements to step in memory to move one index along each dim.

        A tuple (or one number with ``dim``): (4, 1) for a contiguous 3x4 tensor,
        (1, 4) for its transpose, 0 along a dim that ``expand`` repeated.
        """
        array = self._array
        if array.size == 0 and not any(array.strides) and not self._zero_steps:
            # numpy gives a new empty array steps of 0; PyTorch gives it row-major steps (a size-0
            # dim counting as 1), but keeps numpy data's (see _memory_format.with_pytorch_steps)
            steps = _memory_format.row_major_steps(array.shape)
        else:
            steps = tuple(step // array.itemsize for step in array.strides)
        if dim is None:
            return steps
        if array.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return steps[_normalize_dim(dim, array.ndim)]

    # --- conversions ----------------------------------------------------------------
    def item(self):
        """The value of a one-element tensor as a Python number."""
        if self._array.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._array.size} elements cannot be converted to Scalar"
                "\nminigrad hint: item() needs exactly one element; index the tensor first or reduce "
                "it (e.g. .sum())."
            )
        if _FuncTransforms.vmaps:        # (a batched tensor inside vmap has no one value)
            refuse_inside_vmap("item", self)
        return self._array.reshape(()).item()

    def tolist(self):
        """The values as (nested) Python numbers; no gradient."""
        if _FuncTransforms.vmaps:
            refuse_inside_vmap("data", self)
        if self._zero_tensor_memory is not None and self._array.size:    # (no memory to read)
            raise RuntimeError(_zero_tensor.TOLIST)
        return self._array.tolist()

    def numpy(self, force=False):
        """The numpy array behind this tensor (shared memory, not a copy)."""
        if _FuncTransforms.vmaps:
            refuse_inside_vmap("data", self)
        if self._zero_tensor_memory is not None and not force:      # (no memory to share)
            raise RuntimeError(_zero_tensor.NUMPY)
        # (only while grad mode is on, as in PyTorch: a custom Function's forward may use it)
        if self.requires_grad and not force and _grad_mode.is_grad_enabled():
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
            )
        return self._array

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def __float__(self):
        return float(self._python_scalar())

    def __int__(self):
        return int(self._python_scalar())

    def _python_scalar(self):
        # float(t) and int(t) raise ValueError in PyTorch (t.item() raises RuntimeError)
        if self._array.size != 1:
            raise ValueError(
                "only one element tensors can be converted to Python scalars"
                f"\nminigrad hint: this tensor has {self._array.size} elements; index it or reduce it "
                "first, e.g. .sum()")
        if _FuncTransforms.vmaps:
            refuse_inside_vmap("item", self)
        return self._array.reshape(()).item()

    def __index__(self):
        if self._array.dtype.kind not in "iub" or self._array.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self):
        if self._array.size == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if self._array.size != 1:
            raise RuntimeError(
                "Boolean value of Tensor with more than one value is ambiguous"
                f"\nminigrad hint: this tensor has {self._array.size} values; use .all() or .any() "
                "to reduce it first."
            )
        if _FuncTransforms.vmaps:
            refuse_inside_vmap("bool", self)
        return bool(self._array.reshape(()).item())

    def __len__(self):
        if self._array.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._array.shape[0]

    def __iter__(self):
        if self._array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._array.shape[0]))

    # A tensor is hashed by its identity, as in PyTorch (whose hash(t) is id(t)), with
    # object's own hash: the engine and the optimisers keep tensors in dicts, and a hash
    # written in Python would cost a call each time (hash(t) is then not id(t)'s number).
    __hash__ = object.__hash__

    def __repr__(self):
        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec):
        if self._array.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__\n"
                            "minigrad hint: only one-element tensors take a format such as "
                            "'{:.2f}'; format x.item(), or a reduction such as x.sum().item()")
        return repr(self)

    def __reduce_ex__(self, protocol):
        # (a non-leaf comes back as a leaf with its requires_grad, as in PyTorch: no history)
        if not self._array.size:         # (PyTorch's copy steps as the original, 0s included)
            return (_rebuild, (self._array.copy(), self.requires_grad, self.stride()))
        return (_rebuild, (self._array.copy(), self.requires_grad))

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                "protocol at the moment. Use .detach().clone() first."
            )
        array = self._array
        if not array.size:               # (PyTorch's copy steps as the original, 0s included)
            out = _memory_format.keep_zero_steps(_wrap(_memory_format.copy_in_format(
                _memory_format.with_pytorch_steps(self), _memory_format.preserve_format)))
        else:
            out = _wrap(array.copy())
        out._requires_grad = self._requires_grad
        if self._grad is not None:
            out._grad = _wrap(self._grad._array.copy())
        memo[id(self)] = out
        return out

    def to(self, *args, **kwargs):
        """Convert to another dtype (the device can only be 'cpu'): ``x.to(torch.float64)``,
        ``x.to('cpu', torch.int32)``, ``x.to(other)`` (other's dtype), with ``copy=True`` for a
        copy even when nothing changes, and a ``memory_format``."""
        if len(args) == 1 and not kwargs and isinstance(args[0], _dtype.dtype):   # (the usual calls)
            dtype, copy, memory_format = args[0], False, _memory_format.preserve_format
        elif len(args) == 1 and not kwargs and ((isinstance(args[0], device) and args[0].type == "cpu") or (
                isinstance(args[0], str) and args[0] == "cpu")):
            return self
        else:
            from ._python_variable_methods import to_arguments
            dtype, copy, memory_format = to_arguments(args, kwargs)
        if dtype is None or dtype is self.dtype:
            # itself, unless a copy is asked for, or a layout other than the one it suggests
            # (a transposed matrix suggests row-major too, so .to(memory_format=...) keeps it)
            if not copy:
                if memory_format is _memory_format.preserve_format:
                    return self
                from ._ops.resize import _suggested_format
                _memory_format.check_memory_format("to", memory_format)
                if _suggested_format(self) is memory_format:
                    return self
            dtype = self.dtype
        return _kernel_writes("to", _ops_shape.to_dtype(self, dtype, memory_format), self)

    def type(self, dtype=None, non_blocking=False, *, memory_format=None):
        """Without an argument: the type name, e.g. ``'torch.FloatTensor'``; with a dtype, a
        class such as ``minigrad.LongTensor`` or its name: this tensor converted to it."""
        if dtype is None:
            return "torch." + self.dtype.tensor_type_name
        from ._python_variable_methods import dtype_of_type
        if memory_format is None:
            return self.to(dtype_of_type(dtype))
        return self.to(dtype_of_type(dtype), memory_format=memory_format)

    def double(self):
        """This tensor as float64 (``self.to(torch.float64)``). Gradient: converted back to the old dtype."""
        return self.to(_dtype.float64)

    def float(self):
        """This tensor as float32 (``self.to(torch.float32)``). Gradient: converted back to the old dtype."""
        return self.to(_dtype.float32)

    def half(self):
        """This tensor as float16 (``self.to(torch.float16)``). Gradient: converted back to the old dtype."""
        return self.to(_dtype.float16)

    def long(self):
        """This tensor as int64 (rounded toward zero); the result cannot require grad."""
        return self.to(_dtype.int64)

    def int(self):
        """This tensor as int32 (rounded toward zero); the result cannot require grad."""
        return self.to(_dtype.int32)

    def bool(self):
        """This tensor as bool (``self.to(torch.bool)``); no gradient."""
        return self.to(_dtype.bool_)

    def cpu(self, memory_format=None):
        """This tensor on the CPU: minigrad only has the CPU, so it is ``self``."""
        return self

    def cuda(self, device=None, non_blocking=False):
        """minigrad has no GPU: this fails the way a CPU-only PyTorch does."""
        from ._python_variable import read_device
        if read_device(device) not in (None, "cuda"):
            raise RuntimeError("Invalid device, must be cuda device")
        raise _device_error("cuda" if device is None else str(device))

    def clone(self, *, memory_format=_memory_format.preserve_format):
        """A copy with its own memory. Gradient: passed through unchanged (CloneBackward0)."""
        return _ops_shape.clone(self, memory_format=memory_format)

    # --- in-place changes ----------------------------------------------------------------
    # add_, mul_, zero_, x += y, ... and PyTorch's rules for them live in _ops/inplace.py;
    # _install_methods below makes them methods.

    def __setitem__(self, index, value):
        if _zero_tensors_exist and self._zero_tensor_memory is not None:
            _zero_tensor.refuse_item_assignment(self, index, value)   # (no memory to write)
        _ops_indexing.setitem(self, index, value)

    def __getitem__(self, index):
        return _ops_indexing.getitem(self, index)

    # --- arithmetic operators --------------------------------------------------------
    # x + y, x * y, x @ y, ... are the functions of _ops themselves (x * y is
    # pointwise.mul(x, y)); _install_methods below binds them. The reflected
    # forms keep the tensor first, as PyTorch's next_functions show: 2 * x is mul(x, 2).

    def __pos__(self):
        """``+x``: x itself (``x.positive()``); refused for a bool tensor, as in PyTorch."""
        return self.positive()

    def __contains__(self, element):
        """``element in x``: whether any element of x equals it (a number or a tensor)."""
        if not isinstance(element, (Tensor, numbers.Number)):
            raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in "
                               f"a {type(element)}.")
        return bool((element == self).any().item())

    def __reversed__(self):
        """``reversed(x)``: x flipped along its first dim (a 0-d tensor: itself)."""
        return self if self._array.ndim == 0 else self.flip(0)

    def __abs__(self):
        return _ops_pointwise.abs(self)

    def __rmatmul__(self, other):
        return _ops_linalg.matmul(other, self)

    # comparisons give bool tensors and are never recorded
    def __eq__(self, other):
        """self == other elementwise, a bool tensor (PyTorch note: not one True/False; use ``torch.equal``)."""
        return _ops_pointwise.compare(np.equal, self, other)

    def __ne__(self, other):
        """self != other elementwise, a bool tensor (no gradient)."""
        return _ops_pointwise.compare(np.not_equal, self, other)

    def __lt__(self, other):
        """self < other elementwise, a bool tensor (no gradient)."""
        return _ops_pointwise.compare(np.less, self, other)

    def __le__(self, other):
        """self <= other elementwise, a bool tensor (no gradient)."""
        return _ops_pointwise.compare(np.less_equal, self, other)

    def __gt__(self, other):
        """self > other elementwise, a bool tensor (no gradient)."""
        return _ops_pointwise.compare(np.greater, self, other)

    def __ge__(self, other):
        """self >= other elementwise, a bool tensor (no gradient)."""
        return _ops_pointwise.compare(np.greater_equal, self, other)

    # & | ^ ~ << >> are the bitwise operations of _ops/bitwise.py (installed below)

    eq = __eq__
    ne = __ne__
    lt = __lt__
    le = __le__
    gt = __gt__
    ge = __ge__

    @property
    def T(self):
        """All dimensions reversed (PermuteBackward0 in the graph).

        Like PyTorch, warn when this is not a matrix: x.T on other tensors is deprecated.
        """
        ndim = self._array.ndim
        if ndim == 0:
            # (PyTorch warns once per process, TORCH_WARN_ONCE)
            warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.")
        elif ndim != 2:
            warn_once(
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                "deprecated and it will throw an error in a future release. Consider `x.mT` to "
                "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
                "reverse the dimensions of a tensor.")
        return _ops_shape.permute(self, tuple(range(ndim - 1, -1, -1)))

    @property
    def mT(self):
        """The last two dimensions swapped (a batch of matrices transposed)."""
        if self._array.ndim == 0:
            warn_once("Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases.")
            return self
        if self._array.ndim < 2:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                               f"Got {self._array.ndim}-D tensor.")
        return _ops_shape.transpose(self, -2, -1)

    @property
    def mH(self):
        """The last two dimensions swapped and the numbers conjugated (for real numbers: mT)."""
        return self._conj_transposed("tensor.mH", "Tensor.mH")

    def adjoint(self):
        """The conjugate transpose of a matrix, or of each in a batch: ``mH`` as a method."""
        return self._conj_transposed("tensor.adjoint()", "adjoint()")

    def _conj_transposed(self, name, warned_name):
        if self._array.ndim == 0:
            warnings.warn(f"{warned_name} is deprecated on 0-D tensors. Consider using x.conj().",
                          UserWarning, stacklevel=3)
            return self.conj()
        if self._array.ndim < 2:
            raise RuntimeError(f"{name} is only supported on matrices or batches of matrices. "
                               f"Got {self._array.ndim}-D tensor.")
        return _ops_shape.transpose(self, -2, -1).conj()


def _rebuild(array, requires_grad, empty_steps=None):
    if empty_steps is not None:       # (the steps of a tensor without elements, which numpy drops)
        array = np.lib.stride_tricks.as_strided(array, array.shape,
                                                tuple(step * array.itemsize for step in empty_steps))
    out = _wrap(array)
    out._requires_grad = requires_grad
    return _memory_format.keep_zero_steps(out) if empty_steps is not None else out


def _normalize_dim(dim, ndim):
    """Turn a possibly negative dim into 0..ndim-1, with PyTorch's IndexError when out of range."""
    size = max(ndim, 1)
    if not -size <= dim < size:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-size}, {size - 1}], but got {dim})"
        )
    return dim % size


def _install_methods():
    """Tensor methods that are plain calls of the functions in _ops (x.exp() is exp(x)).

    minigrad/__init__ calls this once every module is loaded (nn.functional imports this one).
    """
    from ._ops import pointwise, reduction, shape, linalg, inplace
    from ._ops import scan, gather_scatter, sorting, rounding, blas, special, inplace_unary, einsum
    from ._ops import nonfinite, logarithms, logical, angles, triangular, median
    from ._ops import masked_select, summing
    from ._ops import rearrange, diagonals, index_ops, selection, aminmax, logcumsumexp
    from ._ops import scatter_views
    from ._ops import trigonometry, gamma, binary_ops, blend, math_aliases, bessel
    from .nn import functional
    methods = {
        pointwise: ["add", "sub", "mul", "div", "pow", "neg", "exp", "log", "sqrt", "sin", "cos",
                    "tanh", "sigmoid", "relu", "abs", "clamp", "clamp_min", "clamp_max", "square", "reciprocal", "sign",
                    "maximum", "minimum", "log1p", "rsqrt", "tan"],
        reduction: ["sum", "mean", "max", "min", "norm", "argmax", "argmin", "all", "any", "amax",
                    "amin", "var", "std", "logsumexp"],
        shape: ["reshape", "view", "view_as", "t", "transpose", "permute", "squeeze", "unsqueeze",
                "flatten", "expand", "expand_as", "reshape_as", "repeat", "unbind", "split",
                "chunk", "flip", "new_zeros", "new_ones", "new_full", "new_tensor", "new_empty", "masked_fill",
                "swapaxes", "allclose", "equal", "isclose", "select"],
        linalg: ["matmul", "mm", "mv", "dot", "outer", "bmm"],
        scan: ["cumsum", "cumprod", "prod", "narrow"],
        gather_scatter: ["gather", "scatter", "scatter_add", "index_select", "index_add"],
        sorting: ["sort", "argsort", "topk", "roll"],
        rounding: ["round", "floor", "ceil", "trunc", "fix", "frac", "floor_divide", "remainder",
                   "fmod", "floor_divide_", "remainder_", "fmod_"],
        blas: ["bmm", "baddbmm", "addmm", "addmv", "addr"],
        einsum: ["diagonal"],
        nonfinite: ["isnan", "isinf", "isfinite", "isposinf", "isneginf", "nan_to_num", "nan_to_num_"],
        logarithms: ["log2", "log10", "expm1", "exp2", "logaddexp", "logaddexp2", "xlogy", "logit"],
        trigonometry: ["asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "arcsin",
                       "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "deg2rad", "rad2deg"],
        special: ["erf", "erfc", "erfinv", "sinc"],
        gamma: ["lgamma", "digamma"],
        binary_ops: ["hypot", "copysign", "fmax", "fmin", "heaviside", "float_power"],
        blend: ["addcmul", "addcdiv", "lerp"],
        math_aliases: ["positive", "signbit", "true_divide", "greater", "greater_equal", "less",
                       "less_equal", "not_equal"],
        logical: ["logical_not", "logical_and", "logical_or", "logical_xor"],
        angles: ["atan2", "arctan2", "atan2_", "arctan2_"],
        triangular: ["tril", "triu", "tril_", "triu_"],
        median: ["median", "nanmedian"],
        masked_select: ["masked_select"],
        summing: ["nansum", "nanmean"],
        rearrange: ["movedim", "moveaxis", "swapdims", "ravel", "unflatten", "broadcast_to", "type_as",
                    "tile", "fliplr", "flipud", "rot90", "tensor_split", "hsplit", "vsplit", "dsplit",
                    "repeat_interleave", "take_along_dim", "unfold"],
        diagonals: ["diag", "diag_embed", "diagflat", "trace"],
        index_ops: ["take", "put", "put_", "index_copy", "index_copy_", "index_fill", "index_fill_", "index_put",
                    "index_put_", "masked_scatter", "masked_scatter_"],
        selection: ["kthvalue", "mode", "cummax", "cummin"],
        aminmax: ["aminmax"],
        logcumsumexp: ["logcumsumexp"],
        scatter_views: ["select_scatter", "slice_scatter", "diagonal_scatter", "narrow_copy"],
    }
    for module, names in methods.items():
        for name in names:
            setattr(Tensor, name, getattr(module, name))
    Tensor.count_nonzero = summing.count_nonzero_method      # (x.count_nonzero(0, 1))
    # statistics, counting, differences (x.quantile(0.5), x.unique(), x.diff(), ...)
    from ._ops import statistics, counting
    for name in ("quantile", "nanquantile", "cov", "corrcoef"):
        setattr(Tensor, name, getattr(statistics, name))
    for name in ("unique", "unique_consecutive", "bincount", "histc", "histogram"):
        setattr(Tensor, name, getattr(counting, name))
    Tensor.msort = sorting.msort
    Tensor.sort, Tensor.argsort = sorting.sort_method, sorting.argsort_method   # (their own signatures)
    Tensor.index_put = index_ops.index_put_method       # (its messages count from indices, not self)
    from ._ops.differences import diff
    from ._ops.scatter_reduce import scatter_reduce, index_reduce
    from ._ops.inplace_unary import in_place_form
    Tensor.diff, Tensor.scatter_reduce, Tensor.index_reduce = diff, scatter_reduce, index_reduce
    Tensor.scatter_reduce_ = in_place_form(scatter_reduce, "scatter_reduce_", 3)
    Tensor.index_reduce_ = in_place_form(index_reduce, "index_reduce_", 3)
    from ._ops.renorm import renorm, renorm_
    Tensor.renorm, Tensor.renorm_ = renorm, renorm_
    Tensor.sum_to_size = summing.sum_to_size
    # x.softmax(dim) is torch.softmax; F.softmax is a Python function around it (nn/functional.py)
    Tensor.softmax, Tensor.log_softmax = functional._softmax, functional._log_softmax
    operators = {
        "__add__": pointwise.add, "__radd__": pointwise.add, "__sub__": pointwise.sub,
        "__rsub__": pointwise.rsub, "__mul__": pointwise.mul, "__rmul__": pointwise.mul,
        "__truediv__": pointwise.div, "__rtruediv__": pointwise.rdiv, "__pow__": pointwise.pow,
        "__rpow__": pointwise.rpow, "__neg__": pointwise.neg, "__matmul__": linalg.matmul,
        "__floordiv__": rounding.floor_divide, "__rfloordiv__": rounding.rfloordiv,
        "__mod__": rounding.remainder, "__rmod__": rounding.rremainder,
    }
    for name, function in operators.items():
        # other operand types return NotImplemented, so Python raises its usual TypeError
        setattr(Tensor, name, function if name == "__neg__" else _operator(function, name))
    for name in inplace.METHODS:
        setattr(Tensor, name, getattr(inplace, name))
    for name, method in inplace_unary.METHODS.items():
        setattr(Tensor, name, method)
    Tensor.__iadd__, Tensor.__isub__ = inplace.add_, inplace.sub_
    Tensor.__imul__, Tensor.__itruediv__ = inplace.mul_, inplace.div_
    Tensor.__ifloordiv__, Tensor.__imod__ = rounding.floor_divide_, rounding.remainder_
    Tensor.clip = Tensor.clamp
    Tensor.multiply = Tensor.mul
    Tensor.subtract = Tensor.sub
    Tensor.divide = Tensor.div
    Tensor.negative = Tensor.neg
    Tensor.absolute = Tensor.abs
    Tensor.sgn, Tensor.nonzero = pointwise.sgn, pointwise.nonzero
    Tensor.polygamma = math_aliases.polygamma_method
    Tensor.i0, Tensor.mvlgamma = bessel.i0, gamma.mvlgamma_method
    for name in ("addcmul", "addcdiv", "addmv", "addr", "addcmul_", "addcdiv_", "addmv_", "addr_"):
        setattr(Tensor, name, math_aliases.keyword_only_method(getattr(Tensor, name), name, 2))
    for name, method in math_aliases.METHODS.items():     # x.gt_(0), x.eq_(y), ...
        setattr(Tensor, name, method)
    Tensor.multiply_, Tensor.subtract_, Tensor.divide_ = Tensor.mul_, Tensor.sub_, Tensor.div_
    # add's and sub's other ways of taking alpha: x.sub(alpha, other), x.subtract(number, alpha)
    from ._ops import alpha_forms
    Tensor.add, Tensor.sub, Tensor.subtract = alpha_forms.add, alpha_forms.sub, alpha_forms.subtract
    Tensor.add_, Tensor.sub_ = alpha_forms.add_, alpha_forms.sub_
    Tensor.subtract_ = alpha_forms.subtract_
    _install_more_pointwise_methods()
    _install_structure_methods()

    # linear algebra (torch.linalg): x.det(), x.inverse(), x.cholesky(), x.svd(), ...
    from ._ops import decompositions, cholesky, spectral, matrix_products, norms
    Tensor.det, Tensor.slogdet, Tensor.logdet = (
        decompositions.det_function, decompositions.slogdet_function, decompositions.logdet)
    Tensor.inverse, Tensor.cholesky = decompositions.inverse, cholesky.cholesky_function
    Tensor.svd, Tensor.qr, Tensor.matrix_exp = spectral.svd_function, spectral.qr_function, spectral.matrix_exp
    Tensor.pinverse = spectral.pinverse
    Tensor.cross, Tensor.matrix_power = matrix_products.cross_function, matrix_products.matrix_power
    Tensor.dist = norms.dist
    from ._ops import triangular_solves
    Tensor.cholesky_solve, Tensor.cholesky_inverse = (
        triangular_solves.cholesky_solve, triangular_solves.cholesky_inverse)
    Tensor.triangular_solve = triangular_solves.triangular_solve_method
    from ._ops import householder           # x.geqrf(), x.orgqr(tau), x.ormqr(tau, other)
    Tensor.geqrf, Tensor.orgqr, Tensor.ormqr = (
        householder.geqrf_method, householder.orgqr_method, householder.ormqr_method)

    def where(self, condition, other):
        """``torch.where(condition, self, other)``: self where condition holds, else other.
        Gradient: to whichever was picked, 0 to the other."""
        return pointwise.where(condition, self, other)
    Tensor.where = where
    # more of dir(torch.Tensor): is_cpu, H, data_ptr(), short(), unsafe_split, ... (_python_variable.py)
    from . import _python_variable
    _python_variable.install(Tensor)
    # every method PyTorch's argument parser reads is read by minigrad's (x.sum('a'): its TypeError)
    from . import _python_variable_methods
    _python_variable_methods.install(Tensor)
    Tensor.__ipow__ = Tensor.pow_
    for name in _BINARY_OPERATORS:         # (those not made operators above: x &= y, 2 << x, ...)
        if not hasattr(getattr(Tensor, name), "operand_checked"):
            setattr(Tensor, name, _operator(getattr(Tensor, name), name))
    for name in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
        setattr(Tensor, name, _comparison(getattr(Tensor, name), name))
    _make_read_only()


_OPERANDS = (Tensor, float, int, bool, complex, np.generic, np.ndarray)

# Python's operators of two operands, the forward, reflected (2 - x) and in-place (x -= 2) forms,
# with the numpy function that computes the forward form when the other operand is an array
_BINARY_OPERATORS = {
    f"__{prefix}{name}__": (function, prefix == "")
    for name, function in (("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                           ("truediv", np.true_divide), ("floordiv", np.floor_divide),
                           ("mod", np.remainder), ("pow", np.power), ("matmul", np.matmul),
                           ("and", np.bitwise_and), ("or", np.bitwise_or), ("xor", np.bitwise_xor),
                           ("lshift", np.left_shift), ("rshift", np.right_shift))
    for prefix in ("", "r", "i") if f"{prefix}{name}" != "imatmul"}     # (PyTorch has no x @= y)


def _comparison(method, name):
    """``method`` as PyTorch's comparison operator: a numpy array gets NotImplemented (so Python
    raises "'<' not supported between instances of 'Tensor' and 'numpy.ndarray'", and ``x != array``
    is ``not (x is array)``), but for ``==``, which compares with an array of numbers."""
    def comparison(self, other):
        if isinstance(other, np.ndarray) and (name != "__eq__" or other.dtype.kind == "O"):
            return NotImplemented
        return method(self, other)
    comparison.__name__ = comparison.__qualname__ = name
    comparison.__doc__ = method.__doc__
    return comparison


def _operator(method, name):
    """``method`` as PyTorch's Python operator ``name``: an operand its argument parser refuses
    (a str, a list, None, any TypeError on the way) gets NotImplemented, so Python tries the other
    operand's operator and then raises its own TypeError ("unsupported operand type(s) for +=:
    'Tensor' and 'list'"), as PyTorch's operators do; so does pow(x, 2, 3). A numpy array on the
    right is left to numpy, which computes with the tensor's array (``x.numpy()``: refused for a
    tensor that requires grad) and gives its result back as a tensor; x -= array rebinds x to it."""
    by_numpy, forward = _BINARY_OPERATORS[name]

    def operator(self, other, *modulo):
        kind = type(other)
        if (kind is float or kind is Tensor or kind is int) and not modulo:   # (the usual operands)
            try:
                return method(self, other)
            except TypeError:
                return NotImplemented
        if modulo or not isinstance(other, _OPERANDS):
            return NotImplemented
        if isinstance(other, np.ndarray):
            from ._creation import from_numpy
            if forward:
                return from_numpy(np.asarray(by_numpy(self.numpy(), other)))
            if name == "__rtruediv__" and other.dtype.kind != "O":   # (numpy's array / x divides)
                return from_numpy(np.asarray(np.true_divide(other, self.numpy())))
            return NotImplemented
        try:
            return method(self, other)
        except TypeError:
            return NotImplemented
    operator.__name__ = operator.__qualname__ = name
    operator.__doc__ = method.__doc__
    operator.operand_checked = True
    return operator


def _install_more_pointwise_methods():
    """The in-place logical operations, the bitwise operations and operators (& | ^ ~ << >>),
    gcd/lcm, frexp/ldexp/nextafter, the complex-number questions of real tensors, igamma,
    apply_/map_/map2_ and the shrink activations as methods."""
    from ._ops import logical, bitwise, number_theory, float_parts, complex_parts, incomplete_gamma
    from ._ops import python_callables
    for module in (logical, bitwise, number_theory, float_parts, complex_parts, incomplete_gamma,
                   python_callables):   # x.logical_and_(y), x & y, x.gcd(y), ...
        for name, method in module.METHODS.items():
            setattr(Tensor, name, method)
    from .nn import _shrink
    Tensor.hardshrink, Tensor.prelu = _shrink.hardshrink_method, _shrink.prelu_method


def _install_structure_methods():
    """Tensor methods of the structure and product operations (strided.py, products.py,
    combinatorics.py): x.as_strided(...), x.kron(y), x.fill_diagonal_(v), ..."""
    from ._ops import strided, products, blas, combinatorics, overlapping_products
    from ._ops.inplace_unary import _with_others_inplace
    methods = {
        strided: ["as_strided", "as_strided_", "as_strided_scatter"],
        products: ["kron", "inner", "vdot", "ger", "addbmm"],
        combinatorics: ["fill_diagonal_", "argwhere", "nonzero_static"],     # (PyTorch has no x.isin)
    }
    for module, names in methods.items():
        for name in names:
            setattr(Tensor, name, getattr(module, name))
    # x.addbmm_(b1, b2), x.baddbmm_(b1, b2), x.addmm_(m1, m2): computed, then written back into x
    # (into overlapping windows, the values PyTorch's order leaves: overlapping_products.py)
    Tensor.addbmm_ = products.resizing_self_first(
        _with_others_inplace(products.addbmm, "addbmm_", 2, overlapping_products.addbmm_written))
    Tensor.baddbmm_ = _with_others_inplace(blas.baddbmm, "baddbmm_", 2, overlapping_products.baddbmm_written)
    Tensor.addmm_ = _with_others_inplace(blas.addmm, "addmm_", 2, overlapping_products.addmm_written)


# autograd and the operation modules import Tensor from here, so they are imported once it
# exists (at the end of this file); the methods above use them only when they run.
from .autograd import graph, backward  # noqa: E402
from .autograd import grad_mode as _grad_mode  # noqa: E402
from .autograd.grad_mode import _inference_blocks, _mark_if_inference, _State as _grad_state  # noqa: E402
from .autograd.kernel_writes import kernel_writes as _kernel_writes  # noqa: E402
from .autograd._multi_grad_hook import add_post_accumulate_grad_hook  # noqa: E402
from .autograd.function import _FuncTransforms  # noqa: E402
from ._functorch import shows_as_batched as _shows_as_batched_at, _GradLevels  # noqa: E402
from .func import _levels  # noqa: E402
from .func._vmap import refuse_inside_vmap  # noqa: E402
from ._creation import tensor_data_to_array  # noqa: E402
from ._ops import pointwise as _ops_pointwise  # noqa: E402
from ._ops import shape as _ops_shape  # noqa: E402
from ._ops import linalg as _ops_linalg  # noqa: E402
from ._ops import indexing as _ops_indexing  # noqa: E402
from ._ops import views as _ops_views  # noqa: E402


def _shows_as_batched(tensor):
    """Inside vmap, is ``tensor`` (batched) seen by the user as a BatchedTensor?"""
    return _FuncTransforms.vmaps and _shows_as_batched_at(tensor, _FuncTransforms.depth)


# Attributes PyTorch lets one read but not assign (``x.shape = ...``, ``x.grad_fn = None``):
# assigning one raises PyTorch's AttributeError, not Python's "property ... has no setter".
_READ_ONLY_ATTRIBUTES = ("T", "H", "mT", "mH", "device", "dtype", "grad_fn", "is_cpu", "is_cuda", "is_ipu", "is_leaf",
                         "is_maia", "is_meta", "is_mkldnn", "is_mps", "is_mtia", "is_nested",
                         "is_quantized", "is_sparse", "is_sparse_csr", "is_vulkan", "is_xla", "is_xpu",
                         "itemsize", "layout", "nbytes", "ndim", "output_nr", "retains_grad", "shape")


def _not_writable(name):
    def refuse(self, value):
        raise AttributeError(f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable")
    return refuse


def _make_read_only():
    """Give each read-only attribute PyTorch's refusal (called once every property exists)."""
    for name in _READ_ONLY_ATTRIBUTES:
        setattr(Tensor, name, getattr(Tensor, name).setter(_not_writable(name)))
