"""BatchedTensor: what ``vmap`` hands the function - one tensor holding the whole batch.

``vmap(f)(x)`` with x of shape [4, 3] calls f once, with a BatchedTensor whose *value*
is x itself (all 4 samples) and whose *bdim* (0) says which dimension of the value is
the batch. The function sees one sample: shape [3], ``dim()`` 1. Every operation on a
BatchedTensor is turned into one operation on its value by a *batching rule*
(func/_batch_rules.py): ``t.sum(0)`` becomes ``value.sum(1)``, ``t + y`` moves the batch
dim to the front and lines y up behind it. The graph that autograd records is the graph
of those operations on the whole batch, as in PyTorch: ``vmap(torch.sin)(x).grad_fn`` is
``SinBackward0``.

An operation without a rule falls back to running once per sample and stacking the
results (``run_per_sample``), with PyTorch's "performance drop" warning where PyTorch has
no rule either. A vmap inside a vmap wraps again: the value of a level-2 BatchedTensor is
a level-1 BatchedTensor, whose value holds both batch dims.

PyTorch: aten/src/ATen/functorch/BatchedTensorImpl.h (the wrapper), BatchRules*.cpp (the
rules), BatchedFallback.cpp (the per-sample fallback).
"""
import functools
import types

import numpy as np

from .._tensor import Tensor, _NEVER_CHANGED
from .._functorch import _Vmaps, _GradLevels
from . import _levels


class BatchedTensor(Tensor):
    """One sample as the function sees it, the whole batch inside: ``value`` with the batch
    at dimension ``bdim``, for the vmap at ``level``.

    Not part of any graph itself (requires_grad=False, grad_fn=None), as in PyTorch; the
    graph is recorded on ``value``.

    ``_expanded_only``: the batch holds one value repeated, computed only from arguments a
    transform gave the batch (expanded) and from tensors not batched: PyTorch's would not be
    batched (see func/_transforms.py, _unbatched_results)."""

    _expanded_only = False

    def __init__(self, value, bdim=None, level=None):
        if bdim is None:
            return      # Tensor(batched): Python calls __init__ on the alias Tensor.__new__ made
        self._value = value
        self._bdim = bdim
        self._level = level
        self._requires_grad = False
        self._grad_fn = None
        self._output_nr = 0
        self._versions = _NEVER_CHANGED
        self._grad = None

    # an operation that reads the numbers directly would see the whole batch: it must go
    # through a batching rule or the per-sample fallback instead
    @property
    def _array(self):
        raise RuntimeError("vmap: this operation cannot take a batched tensor here; call it "
                           "as a method of the batched tensor, or on tensors that are all batched")

    # --- what the function sees: one sample ----------------------------------------------
    @property
    def shape(self):
        """The shape of one sample (the value's shape without the batch dim)."""
        shape = list(self._value.shape)
        del shape[self._bdim]
        return type(self._value.shape)(shape)

    def size(self, dim=None):
        """``shape``, or its entry ``dim``."""
        return self.shape if dim is None else self.shape[dim]

    def dim(self):
        """The number of dims of one sample."""
        return self._value.dim() - 1

    @property
    def ndim(self):
        """The number of dims of one sample."""
        return self.dim()

    def numel(self):
        """The number of elements of one sample."""
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def dtype(self):
        """The value's dtype."""
        return self._value.dtype

    @property
    def device(self):
        """The value's device."""
        return self._value.device

    def is_floating_point(self):
        """Is the value's dtype a floating point one?"""
        return self._value.is_floating_point()

    def element_size(self):
        """Bytes per element."""
        return self._value.element_size()

    # --- autograd: the wrapper is in no graph ---------------------------------------------
    # (unless a grad runs inside the vmap: then the user sees that grad's level around it,
    # PyTorch's GradTrackingTensor(lvl=2, value=BatchedTensor(lvl=1, ...)): see _levels.py)
    @property
    def requires_grad(self):
        """False: a BatchedTensor is no part of a graph (its value may be)."""
        if _GradLevels.running:
            seen = _levels.batched_flags_seen(self)
            if seen is not None:
                return seen[0]
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        self._requires_grad = bool(value)     # (PyTorch keeps the flag, and records nothing)

    @property
    def grad_fn(self):
        """None: a BatchedTensor is no part of a graph (its value may be)."""
        if _GradLevels.running:
            seen = _levels.batched_flags_seen(self)
            if seen is not None:
                return seen[1]
        return None

    @property
    def is_leaf(self):
        """True, as for every tensor not in a graph."""
        return self.grad_fn is None

    @property
    def grad(self):
        """None."""
        return None

    @property
    def _graph_requires_grad(self):
        return False

    # --- values the function may not ask for ------------------------------------------------
    @property
    def data(self):
        """Refused, as in PyTorch."""
        raise RuntimeError("accessing `data` under vmap transform is not allowed")

    def item(self):
        """Refused: one number cannot stand for the whole batch."""
        _refuse("item")

    def __float__(self):
        _refuse("item")

    def __int__(self):
        _refuse("item")

    def __index__(self):
        _refuse("item")

    def __bool__(self):
        _refuse("bool")

    def tolist(self):
        """Refused, as in PyTorch."""
        _refuse("data")

    def numpy(self, force=False):
        """Refused, as in PyTorch."""
        _refuse("data")

    def __len__(self):
        if self.dim() == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self):
        return id(self)

    def __repr__(self):
        # PyTorch prints the wrapper around the whole batch (and the value's graph), inside
        # the wrappers of the grads running inside the vmap
        if _GradLevels.running:
            return _levels.batched_repr_seen(self, _plain_batched_repr)
        return _plain_batched_repr(self)

    __str__ = __repr__

    def __format__(self, spec):
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)


def _plain_batched_repr(batched):
    if batched._expanded_only:
        # one value repeated (an argument a transform gave the batch): PyTorch's is not
        # batched, and prints as that value
        return repr(batched._value.detach().select(batched._bdim, 0))
    inner = "\n".join("    " + line if line else line for line in repr(batched._value).split("\n"))
    return f"BatchedTensor(lvl={batched._level}, bdim={batched._bdim}, value=\n{inner}\n)"


def _refuse(kind):
    from ._vmap import _REFUSALS, _REFUSAL_UNDER_ANOTHER_TRANSFORM
    from ..autograd.function import _FuncTransforms
    if kind != "data" and _FuncTransforms.depth not in _Vmaps.batch_sizes:
        raise RuntimeError(_REFUSAL_UNDER_ANOTHER_TRANSFORM)    # a grad runs inside the vmap
    raise RuntimeError(_REFUSALS[kind])


# --- sending every operation on a BatchedTensor to its rule ----------------------------------

# attributes of Tensor that are not operations (BatchedTensor answers them itself, above),
# or that only make sense for a tensor outside any vmap
_NOT_OPERATIONS = {
    "shape", "size", "dim", "ndim", "numel", "dtype", "device", "is_floating_point",
    "element_size", "requires_grad", "grad_fn", "is_leaf", "grad", "item", "tolist", "numpy",
    "__float__", "__int__", "__index__", "__bool__", "__len__", "__iter__", "__hash__",
    "__repr__", "__str__", "__format__", "__init__", "__new__", "__getattribute__",
    "__setattr__", "__delattr__", "__class__", "__dir__", "__reduce__", "__reduce_ex__",
    "__sizeof__", "__subclasshook__", "__init_subclass__", "__array__", "__array_ufunc__",
    "__deepcopy__", "__getstate__", "__slots__", "__dict__", "__weakref__", "__module__",
    "__doc__",
}


def _batched_method(name):
    """BatchedTensor's method ``name``: the operation sent to dispatch (func/_batch_rules.py)."""
    forward = "__" + name[3:] if name.startswith("__r") else None     # __radd__ -> __add__

    def method(self, *args, **kwargs):
        from ._batch_rules import dispatch
        if forward and hasattr(Tensor, forward) and args and isinstance(args[0], Tensor):
            # y + t with y an ordinary tensor: Python asks t first (its class is a subclass);
            # run y.__add__(t), so that the graph has y first, as PyTorch's does
            return dispatch(forward, _call_method(forward), (args[0], self), kwargs)
        return dispatch(name, _call_method(name), (self,) + args, kwargs)
    method.__name__ = name
    method.__doc__ = f"``Tensor.{name}`` on the whole batch (see func/_batch_rules.py)."
    return method


def _batched_property(name):
    """BatchedTensor's property ``name`` (T, mT): the operation sent to dispatch."""
    def read(self):
        from ._batch_rules import dispatch
        return dispatch(name, _read_property(name), (self,), {})
    read.__doc__ = f"``Tensor.{name}`` on the whole batch (see func/_batch_rules.py)."
    return read


@functools.lru_cache(maxsize=None)
def _read_property(name):
    """The operation ``self.name`` (a property such as T), as a function of self."""
    def read(self):
        return getattr(self, name)
    read.__name__ = name
    return read


@functools.lru_cache(maxsize=None)
def _call_method(name):
    """The operation ``self.name(*args)``, as a function of (self, *args)."""
    def call(self, *args, **kwargs):
        return getattr(self, name)(*args, **kwargs)
    call.__name__ = name
    return call


# Tensor's own methods, and the versions used while a batched vmap runs, which send
# ``x.mul(batched)`` (an ordinary tensor's method given a BatchedTensor) to the rules too
_PLAIN_METHODS, _BATCHING_METHODS = {}, {}


def install_batched_methods():
    """Give BatchedTensor its own version of every Tensor operation, which goes through
    the batching rules. Called once minigrad has installed Tensor's methods."""
    for name, attribute in list(vars(Tensor).items()):
        if name in _NOT_OPERATIONS:
            continue
        if isinstance(attribute, types.FunctionType) and (
                not name.startswith("_") or name.startswith("__")):
            setattr(BatchedTensor, name, _batched_method(name))
            _PLAIN_METHODS[name] = attribute
            _BATCHING_METHODS[name] = batching_function(attribute, name)
    for name in ("T", "mT"):            # properties that are operations
        setattr(BatchedTensor, name, property(_batched_property(name)))


class tensor_methods_batching:
    """``with tensor_methods_batching():`` (the outermost batched vmap) Tensor's methods
    send BatchedTensor arguments to the rules: ``x.mul(t)`` with x ordinary and t batched.
    Outside vmap, Tensor's methods are its own, at no cost."""

    def __enter__(self):
        for name, method in _BATCHING_METHODS.items():
            setattr(Tensor, name, method)

    def __exit__(self, *exc_info):
        for name, method in _PLAIN_METHODS.items():
            setattr(Tensor, name, method)


# --- module functions: torch.sin(batched), F.relu(batched) -----------------------------------

def batching_function(function, name):
    """``function`` (torch.xxx or F.xxx), sent to the batching rules while a batched vmap
    runs (one test of a global when none runs)."""
    @functools.wraps(function)
    def call(*args, **kwargs):
        if _Vmaps.batched_levels:
            from ._batch_rules import dispatch
            return dispatch(name, function, args, kwargs)
        return function(*args, **kwargs)
    call._unbatched = function
    return call


# functions that never see a batched tensor (transforms, settings, seeds, the helpers that
# nn.functional imports) stay as they are
_NOT_BATCHED_MODULES = ("minigrad.func", "minigrad.autograd", "minigrad.random",
                        "minigrad.serialization", "minigrad._functorch", "minigrad._warnings",
                        "minigrad._dtype", "minigrad._memory_format", "minigrad._python_arg_parser",
                        "minigrad._ops.views")


def _is_within(module, packages):
    """Is ``module`` one of ``packages`` or inside one? (``minigrad.functional`` is not inside
    ``minigrad.func``.)"""
    return any(module == package or module.startswith(package + ".") for package in packages)


def install_batching_functions(namespace, prefix, names=None):
    """Wrap the public functions of ``namespace`` (a module's dict) with batching_function
    (only ``names``, if given)."""
    for name, value in list(namespace.items()):
        if names is not None and name not in names:
            continue
        module = getattr(value, "__module__", "") or ""
        if (isinstance(value, types.FunctionType) and not name.startswith("_")
                and (names or not (_is_within(module, _NOT_BATCHED_MODULES) or module == "minigrad._ops"))
                and not hasattr(value, "_unbatched")):
            namespace[name] = batching_function(value, prefix + name)
