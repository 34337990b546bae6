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
from .._functorch import _Vmaps


class BatchedTensor(Tensor):
    """One sample as the function sees it, the whole batch inside: ``value`` with the batch
    at dimension ``bdim``, for the vmap at ``level``.

    Not part of any graph itself (requires_grad=False, grad_fn=None), as in PyTorch; the
    graph is recorded on ``value``."""

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
                           "as a method of the batched tensor, or on tensors that are all batched"
                           "\nminigrad hint: call it as torch.name(...) or F.name(...): a function "
                           "taken out of its module before the vmap ran (from torch import exp) "
                           "is not sent to the batching rules")

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
    @property
    def requires_grad(self):
        """False: a BatchedTensor is no part of a graph (its value may be)."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        self._requires_grad = bool(value)     # (PyTorch keeps the flag, and records nothing)

    @property
    def grad_fn(self):
        """None: a BatchedTensor is no part of a graph (its value may be)."""
        return None

    @property
    def is_leaf(self):
        """True, as for every tensor not in a graph."""
        return True

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
        # PyTorch prints the wrapper around the whole batch (and the value's graph)
        inner = "\n".join("    " + line if line else line for line in repr(self._value).split("\n"))
        return f"BatchedTensor(lvl={self._level}, bdim={self._bdim}, value=\n{inner}\n)"

    __str__ = __repr__

    def __format__(self, spec):
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)


def _refuse(kind):
    from ._vmap import _REFUSALS
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


# --- while a batched vmap runs: Tensor's methods, torch.xxx and F.xxx dispatch -------------------
#
# Outside vmap, ``torch.sin`` and ``Tensor.mul`` are the operations themselves: no wrapper
# sits on the path of every call, and ``inspect.getsource(torch.sin)`` shows the op. While
# the outermost batched vmap runs, the entries of Tensor and of the torch and F namespaces
# are swapped for versions that send the call to dispatch (func/_batch_rules.py), so that
# ``torch.sin(t)`` or ``x.mul(t)`` (x ordinary, t batched) reach the batching rules; they are
# swapped back when it returns. (A function taken out of its namespace before the vmap ran,
# ``from torch import sin``, is the plain operation: see ``batching_version``.)

# one entry per namespace: (how to set a name in it, {name: plain function},
# {name: dispatching version})
_SWAPPED = []
# plain function -> its dispatching version (for vmap(torch.sin): the function given to vmap)
_BATCHING_VERSIONS = {}


def batching_function(function, name):
    """``function`` (named ``name`` in the rules' table) sent to dispatch: the version that
    the namespaces hold while a batched vmap runs."""
    def call(*args, **kwargs):
        from ._batch_rules import dispatch
        return dispatch(name, function, args, kwargs)
    functools.update_wrapper(call, function)
    return call


def _install(set_name, plain, prefix):
    """Remember the plain functions ``plain`` ({name: function}) of a namespace, and make
    their dispatching versions."""
    batching = {name: batching_function(function, prefix + name) for name, function in plain.items()}
    for name, function in plain.items():
        _BATCHING_VERSIONS[function] = batching[name]     # (torch.relu and F.relu: F's)
    _SWAPPED.append((set_name, plain, batching))


def install_batched_methods():
    """Give BatchedTensor its own version of every Tensor operation, which goes through
    the batching rules, and prepare the versions of Tensor's methods used while a batched
    vmap runs. Called once minigrad has installed Tensor's methods."""
    plain = {}
    for name, attribute in list(vars(Tensor).items()):
        if name in _NOT_OPERATIONS:
            continue
        if isinstance(attribute, types.FunctionType) and (
                not name.startswith("_") or name.startswith("__")):
            setattr(BatchedTensor, name, _batched_method(name))
            plain[name] = attribute
    _install(functools.partial(setattr, Tensor), plain, "")
    for name in ("T", "mT"):            # properties that are operations
        setattr(BatchedTensor, name, property(_batched_property(name)))


# functions that never see a batched tensor (transforms, settings, seeds, the helpers that
# nn.functional imports) are not swapped
_NOT_BATCHED_MODULES = ("minigrad.func", "minigrad.autograd", "minigrad.random",
                        "minigrad.serialization", "minigrad._functorch", "minigrad._warnings",
                        "minigrad._dtype", "minigrad._memory_format", "minigrad._python_arg_parser",
                        "minigrad._ops.views")


def install_batching_functions(namespace, prefix, names=None):
    """Prepare dispatching versions of the public functions of ``namespace`` (a module's
    dict; only ``names``, if given), put in place while a batched vmap runs. ``prefix``
    names them in the rules' table ("F." for nn.functional)."""
    plain = {}
    for name, value in namespace.items():
        if names is not None and name not in names:
            continue
        module = getattr(value, "__module__", "") or ""
        if (isinstance(value, types.FunctionType) and not name.startswith("_")
                and (names or not (module.startswith(_NOT_BATCHED_MODULES) or module == "minigrad._ops"))):
            plain[name] = value
    _install(namespace.__setitem__, plain, prefix)


def batching_version(function):
    """The dispatching version of ``function`` if it is one of the swapped functions
    (``vmap(torch.sin)`` is given the plain sin, taken before the vmap ran)."""
    try:
        return _BATCHING_VERSIONS.get(function, function)
    except TypeError:                   # (not hashable: not one of them)
        return function


class operations_batching:
    """``with operations_batching():`` (around the outermost batched vmap) Tensor's
    methods, torch.xxx and F.xxx send BatchedTensor arguments to the batching rules;
    afterwards they are the operations themselves again."""

    def __enter__(self):
        for set_name, _, batching in _SWAPPED:
            for name, function in batching.items():
                set_name(name, function)

    def __exit__(self, *exc_info):
        for set_name, plain, _ in _SWAPPED:
            for name, function in plain.items():
                set_name(name, function)
