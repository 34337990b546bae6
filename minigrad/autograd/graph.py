"""The backward graph: ``Node`` (what ``tensor.grad_fn`` is) and ``AccumulateGrad``.

Each operation on tensors that require grad creates one Node. The node knows:

* ``next_functions`` - one edge ``(node, output_nr)`` per input of the forward
  operation, pointing at the node that produced that input (``AccumulateGrad``
  for a leaf, ``None`` for an input that needs no gradient);
* ``backward(*grad_outputs)`` - the derivative: given d(loss)/d(output),
  return d(loss)/d(input) for every input;
* the tensors it saved during forward to compute that derivative.

The engine (engine.py) walks these nodes from the loss back to the leaves.
PyTorch keeps the same ideas in torch/autograd/graph.py and torch/csrc/autograd.
"""
import contextlib
import gc
import itertools
import re
import warnings
import weakref
from sys import getrefcount

import numpy as np

from .grad_mode import _State, _GradLayout, _inference_tensors_exist, check_not_inference
from .anomaly_mode import _Anomaly, record_forward_stack
from .._functorch import _GradLevels
from .._warnings import stacklevel_outside_minigrad
from .._tensor import Tensor, _wrap, _NEVER_CHANGED
from .._zero_tensor import as_zero_tensor as _as_zero_tensor
from .. import _zero_tensor
from .._memory_format import (contiguous_format, empty_with_steps_of, is_non_overlapping_and_dense,
                              keep_zero_steps, with_pytorch_steps)

# Every node gets an increasing sequence number, so that among the nodes that
# are ready to run, the engine runs the most recently created first, as PyTorch does.
_sequence_numbers = itertools.count()

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


def _add_hook(hooks, fn):
    """Put ``fn`` in the dict ``hooks`` under a new handle's id; return the handle, whose
    ``remove()`` takes it out again. (The handle is PyTorch's ``utils.hooks.RemovableHandle``,
    which Modules' hooks return too; imported here, as that module needs the autograd
    package loaded first.)"""
    from ..utils.hooks import RemovableHandle
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


def _numel(settings):
    return int(np.prod(settings["input_shape"]))


# minigrad's own bookkeeping whose names start like PyTorch's ``_saved_*``: not listed in dir()
_OWN_SAVED_NAMES = frozenset(("_saved", "_saved_names", "_saved_value", "_saved_versions",
                              "_raw_saved_value"))


def _slice_setting(settings, part, default):
    """The start, stop or step of a SliceBackward0's slice as PyTorch shows it."""
    value = getattr(settings["index"][-1], part)
    return default if value is None else value % 2**64


def _indices_tensor(settings):
    """The indices a node keeps as a numpy array, as the int64 tensor PyTorch's node shows."""
    return _wrap(np.asarray(settings["indices"], dtype=np.int64))


def shown_as_given(name, as_tuple=False):
    """How PyTorch shows the dim (or tuple of dims, or index) kept in the setting ``name``: as
    it was given, not normalized - a tuple in the order given, a negative dim as the unsigned
    64-bit number of the same bits (-1 is 2**64 - 1). Backward itself uses the normalized dims.
    ``as_tuple``: the operation takes a list of dims (sum, amax...), so one dim shows as (dim,)."""
    def shown(settings):
        given = settings[name]
        if given is None:
            return None
        if isinstance(given, (tuple, list)):
            return tuple(int(dim) % 2**64 for dim in given)
        return (int(given) % 2**64,) if as_tuple else int(given) % 2**64
    return shown


def dims_shown_as_given(name):
    """``shown_as_given`` for a setting PyTorch keeps as a list of dims: one dim shows as (dim,)."""
    return shown_as_given(name, as_tuple=True)


def nth_shown_as_given(name, n):
    """``shown_as_given`` for the n-th of the dims kept together in ``name`` (transpose's dim0
    and dim1, diagonal's dim1 and dim2)."""
    return lambda settings: int(settings[name][n]) % 2**64


# Settings a node keeps under another name than PyTorch's ``_saved_<name>``: for each
# node, PyTorch's name -> minigrad's attribute (or how to compute it from the attributes).
# A node listed here shows exactly these settings in dir(); others show their attributes.
_SETTINGS_KEPT_AS = {
    "SumBackward0": {"self_sym_sizes": "input_shape"},
    "SumBackward1": {"dim": dims_shown_as_given("dim_as_given"), "keepdim": "keepdim",
                     "self_sym_sizes": "input_shape"},
    "MeanBackward0": {"self_sym_numel": _numel, "self_sym_sizes": "input_shape"},
    "MeanBackward1": {"dim": dims_shown_as_given("dim_as_given"), "keepdim": "keepdim", "self_sym_numel": _numel,
                      "self_sym_sizes": "input_shape"},
    "ViewBackward0": {"self_sym_sizes": "input_shape"},
    "UnsafeViewBackward0": {"self_sym_sizes": "input_shape"},
    "ReshapeAliasBackward0": {"self_sym_sizes": "input_shape"},
    "RepeatBackward0": {"repeats": "repeats", "self_sym_sizes": "input_shape"},
    "MaxBackward0": {"dim": shown_as_given("dim_as_given"), "indices": _indices_tensor, "keepdim": "keepdim",
                     "self_sym_sizes": "input_shape"},
    "MinBackward0": {"dim": shown_as_given("dim_as_given"), "indices": _indices_tensor, "keepdim": "keepdim",
                     "self_sym_sizes": "input_shape"},
    # (PyTorch shows a negative diagonal or dim, as given, as the unsigned 64-bit number of the
    # same bits: -1 is 2**64 - 1)
    "TrilBackward0": {"diagonal": lambda settings: settings["_diagonal"] % 2**64},
    "TriuBackward0": {"diagonal": lambda settings: settings["_diagonal"] % 2**64},
    "NansumBackward0": {"dim": dims_shown_as_given("dim"), "keepdim": "keepdim"},
    "MedianBackward1": {"dim": shown_as_given("dim_as_given"),
                        "indices": "indices_tensor", "keepdim": "keepdim", "self_sym_sizes": "input_shape"},
    "NanmedianBackward1": {"dim": shown_as_given("dim_as_given"),
                           "indices": "indices_tensor", "keepdim": "keepdim", "self_sym_sizes": "input_shape"},
    "ClampBackward1": {"min": "low", "max": "high"},
    "ClampMinBackward0": {"min": "low"},
    "ClampMaxBackward0": {"max": "high"},
    "AddBackward0": {"alpha": lambda settings: settings.get("alpha", 1)},
    "SubBackward0": {"alpha": lambda settings: settings.get("alpha", 1)},
    "RsubBackward0": {"alpha": lambda settings: settings.get("alpha", 1)},
    "RsubBackward1": {"alpha": lambda settings: settings.get("alpha", 1)},
    # (dim, index, start and end as given, negative ones as their unsigned 64-bit bits; a
    # slice without an end shows the largest int64)
    "SelectBackward0": {"dim": shown_as_given("dim_as_given"), "index": shown_as_given("index_as_given"),
                        "self_sym_sizes": "input_shape"},
    "SliceBackward0": {"dim": shown_as_given("dim_as_given"),
                       "end": lambda settings: None if settings.get("no_end") else _slice_setting(
                           settings, "stop", 2**63 - 1),     # (no_end: C++'s slice(dim, start))
                       "self_sym_sizes": "input_shape",
                       "start": lambda settings: _slice_setting(settings, "start", 0),
                       "step": lambda settings: _slice_setting(settings, "step", 1)},
    # (slice's backward, recorded: the slice's own settings)
    "SliceBackwardBackward0": {"dim": shown_as_given("dim_as_given"),
                               "end": lambda settings: None if settings.get("no_end") else _slice_setting(
                                   settings, "stop", 2**63 - 1),
                               "start": lambda settings: _slice_setting(settings, "start", 0),
                               "step": lambda settings: _slice_setting(settings, "step", 1)},
    "IndexBackward0": {"self_sym_sizes": "input_shape"},
    # (the operations below keep the dims they were given in ``dim_as_given`` / ``dims_as_given``
    # next to the normalized ones their backward uses)
    "CatBackward0": {"dim": shown_as_given("dim_as_given")},
    "StackBackward0": {"dim": shown_as_given("dim_as_given")},
    "UnbindBackward0": {"dim": shown_as_given("dim_as_given")},
    "SplitBackward0": {"dim": shown_as_given("dim_as_given"), "self_sym_sizes": "input_shape",
                       "split_size": "split_size"},
    "SplitWithSizesBackward0": {"dim": shown_as_given("dim_as_given"), "self_sym_sizes": "input_shape",
                                "split_sizes": lambda settings: tuple(settings["split_size"])},
    "UnsqueezeBackward0": {"dim": shown_as_given("dim_as_given")},
    "SqueezeBackward0": {"self_sym_sizes": "input_shape"},
    "SqueezeBackward1": {"dim": shown_as_given("dim_as_given"), "self_sym_sizes": "input_shape"},
    "SqueezeBackward2": {"dim": dims_shown_as_given("dim_as_given"), "self_sym_sizes": "input_shape"},
    "SqueezeBackward3": {"self_sym_sizes": "input_shape"},                                   # squeeze_()
    "SqueezeBackward4": {"dim": shown_as_given("dim_as_given"), "self_sym_sizes": "input_shape"},
    "SqueezeBackward5": {"dim": dims_shown_as_given("dim_as_given"), "self_sym_sizes": "input_shape"},
    "UnsqueezeBackward1": {"dim": shown_as_given("dim_as_given")},                           # unsqueeze_
    "TransposeBackward0": {"dim0": nth_shown_as_given("dims_as_given", 0),
                           "dim1": nth_shown_as_given("dims_as_given", 1)},
    "TransposeBackward1": {"dim0": nth_shown_as_given("dims_as_given", 0),                 # transpose_
                           "dim1": nth_shown_as_given("dims_as_given", 1)},
    "PermuteBackward0": {"dims": dims_shown_as_given("dims_as_given")},
    "GluBackward0": {"dim": shown_as_given("dim_as_given")},
    "GluBackwardBackward0": {"dim": shown_as_given("dim_as_given")},
    "DiagonalBackward0": {"dim1": nth_shown_as_given("dims_as_given", 0),
                          "dim2": nth_shown_as_given("dims_as_given", 1),
                          "offset": lambda settings: settings["offset"] % 2**64,
                          "self_sym_sizes": "input_shape"},
    "FlipBackward0": {"dims": dims_shown_as_given("dims_as_given")},
    "GatherBackward0": {"dim": shown_as_given("dim_as_given"), "sparse_grad": "sparse_grad"},
    "ScatterBackward0": {"dim": shown_as_given("dim_as_given")},
    "ScatterBackward1": {"dim": shown_as_given("dim_as_given")},
    "ScatterAddBackward0": {"dim": shown_as_given("dim_as_given")},
    "IndexSelectBackward0": {"dim": shown_as_given("dim_as_given"), "self_sym_sizes": "self_sym_sizes"},
    "IndexAddBackward0": {"alpha": "alpha", "dim": shown_as_given("dim_as_given"), "source_dim": "source_dim"},
    "RollBackward0": {"dims": dims_shown_as_given("dims_as_given"), "shifts": "shifts"},
    "SortBackward0": {"dim": shown_as_given("dim_as_given"), "indices": "indices",
                      "self_sym_sizes": "self_sym_sizes"},
    "TopkBackward0": {"dim": shown_as_given("dim_as_given"), "indices": "indices",
                      "self_sym_sizes": "self_sym_sizes"},
    "SoftmaxBackward0": {"dim": shown_as_given("dim_as_given")},
    "LogSoftmaxBackward0": {"dim": shown_as_given("dim_as_given")},
    "CumsumBackward0": {"dim": shown_as_given("dim_as_given")},
    "CumprodBackward0": {"dim": shown_as_given("dim_as_given")},
    "ProdBackward1": {"dim": shown_as_given("dim_as_given"), "keepdim": "keepdim"},
    "AmaxBackward0": {"dim": dims_shown_as_given("dim_as_given"), "keepdim": "keepdim"},
    "AminBackward0": {"dim": dims_shown_as_given("dim_as_given"), "keepdim": "keepdim"},
    "LogsumexpBackward0": {"dim": dims_shown_as_given("dim_as_given"), "keepdim": "keepdim"},
    "LinalgVectorNormBackward0": {"dim": dims_shown_as_given("dim_as_given"), "keepdim": "keepdim", "ord": "p"},
    "VarBackward0": {"correction": "correction_as_given", "dim": dims_shown_as_given("dim_as_given"),
                     "keepdim": "keepdim"},
    "StdBackward0": {"correction": "correction_as_given", "dim": dims_shown_as_given("dim_as_given"),
                     "keepdim": "keepdim"},
}


class Node:
    """One step of the backward graph, named after the operation, e.g. ``MulBackward0``.

    Subclasses implement ``backward(self, *grad_outputs)`` and return one
    gradient per edge in ``next_functions`` (``None`` where no gradient flows).
    """

    # What every node stores lives in slots: no per-node dict, fewer objects for the
    # garbage collector to track. Settings of particular nodes (dim, keepdim, ...) still
    # go into the instance's __dict__.
    __slots__ = ("_next_node_0",      # next_functions, kept flat (see _next_nodes below)
                 "_next_node_1",
                 "_all_next_nodes",
                 "_next_nrs",
                 "_saved",            # tuple of saved tensors / values, or None
                 "_saved_versions",   # the version of each saved tensor when it was saved
                 "_output_shape", "_output_dtype", "_sequence_number", "__dict__", "__weakref__")

    # Rarer state: class defaults, an instance only stores what differs.
    _pre_hooks = None           # dict of fn(grad_outputs) -> new grad_outputs or None
    _post_hooks = None          # dict of fn(grad_inputs, grad_outputs) -> new grad_inputs or None
    _tensor_pre_hooks = None    # dict of fn(grad) registered with Tensor.register_hook
    _retains_grad_hook = None   # weak reference to the tensor that called retain_grad()
    _num_outputs = 1
    _has_hooks = False          # set once any hook is registered, so the engine can skip them fast
    _saves_output = False       # some saved values must be unpacked on access (SavedOutput, hooks)
    _saved_names = ()           # PyTorch's name of each saved value, e.g. ("self", "other")
    _pack_order = None          # order saved-tensor hooks see them, when PyTorch's differs
    # An edge may end at a leaf tensor instead of a node (see leaf_edge); both classes say
    # which they are (an attribute: a failed isinstance() costs the engine more)
    _is_tensor = False

    def __init__(self):
        # a node made by hand has no edges and saves nothing (recording an operation,
        # attach() sets all of these again: result() skips __init__ for speed)
        self._next_node_0 = self._next_node_1 = None
        self._next_nrs = ()
        self._saved = self._saved_versions = None
        self._output_shape = ()
        self._output_dtype = None
        self._sequence_number = next(_sequence_numbers)     # no two nodes share one

    def __init_subclass__(cls, **kwargs):
        # grad_fn._saved_self, _raw_saved_self, _saved_dim...: each name PyTorch's node shows
        # is a property of the node's class. (Not a __getattr__: a class with one makes Python
        # read every attribute of its objects the slow way, and the engine reads many.)
        super().__init_subclass__(**kwargs)
        show_saved_names(cls, cls._saved_names, raw=True)
        show_saved_names(cls, _SETTINGS_KEPT_AS.get(cls.__name__, ()))

    def _saved_value(self, key):
        """``grad_fn._saved_self``, ``_saved_result``, ``_saved_exponent``...: what PyTorch's
        node of the same name shows. Tensors come from what forward saved; settings
        (dim, exponent, alpha...) from the node's attributes."""
        names = type(self)._saved_names
        if key in names:
            saved = self._saved
            if saved is FREED:
                raise RuntimeError(FREED_MESSAGE)
            index = names.index(key)
            if saved is None or index >= len(saved):
                return None
            value = saved[index]
            version = self._saved_versions[index]
            if version is not None and getattr(value, "_versions", _NO_VERSION)[0] != version:
                # (unpacking checks the version, as backward does: PyTorch's same error)
                raise RuntimeError(self._first_modified_message([i == index for i in range(len(saved))]))
            if type(value) in _WRAPPED_NUMBER_DTYPES:
                return _wrapped_number(value)
            return value.unpack(self) if type(value) in _UNPACK_ON_ACCESS else value
        settings = self.__dict__
        shown = _SETTINGS_KEPT_AS.get(type(self).__name__)
        if shown is not None:
            # (the node shows these settings only, as dir() lists: the node's class may keep
            # other settings of its other kinds, e.g. the dims of a sum over several dims)
            kept_as = shown.get(key)
            if kept_as is not None:
                return kept_as(settings) if callable(kept_as) else settings[kept_as]
        elif key in settings:
            return settings[key]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '_saved_{key}'")

    def __dir__(self):
        """Also the ``_saved_*`` / ``_raw_saved_*`` names, as ``dir()`` of PyTorch's node shows them."""
        names = type(self)._saved_names
        saved = [f"_saved_{name}" for name in names] + [f"_raw_saved_{name}" for name in names]
        kept_as = _SETTINGS_KEPT_AS.get(type(self).__name__)
        settings = list(kept_as) if kept_as is not None else [
            key for key in self.__dict__ if not key.startswith("_")]
        cls = type(self)
        found = {name for name in object.__dir__(self)    # (a setting another node of this class has
                 if not isinstance(getattr(cls, name, None), _SavedName)     # is not this one's)
                 and name not in _OWN_SAVED_NAMES}
        return sorted(found | set(saved) | {f"_saved_{key}" for key in settings})

    def _raw_saved_value(self, key):
        """``grad_fn._raw_saved_self``: the saved tensor itself, to set hooks on (see
        ``SavedTensor.register_hooks``). Only saved tensors have one, not settings."""
        names = type(self)._saved_names
        if key in names:
            saved = self._saved
            index = names.index(key)
            value = saved[index] if saved and index < len(saved) else None
            if value is None or type(value) not in _PLAIN_VALUES:
                return SavedTensor(self, index)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '_raw_saved_{key}'")

    def name(self):
        """The class name PyTorch uses for this kind of node, e.g. ``'AddBackward0'``."""
        return type(self).__name__

    def _sequence_nr(self):
        """The node's number in the order of recording: backward runs the ready nodes from the
        highest number down. AccumulateGrad, always run first, gives the largest unsigned 64-bit
        integer, as in PyTorch."""
        number = self._sequence_number
        return number if number != float("inf") else 2 ** 64 - 1

    def _set_sequence_nr(self, number):
        """Give the node another place in the engine's order (PyTorch's node has this too)."""
        self._sequence_number = number

    # A node's edges are not kept as PyTorch shows them, one (node, output_nr) tuple per
    # edge, but flat: the output numbers in one tuple (``_next_nrs``, usually the shared
    # all-zero one; its length is the number of edges), the nodes at their ends in the node
    # itself (``_next_node_0`` and ``_next_node_1``; a node with more edges also keeps them
    # all in a tuple). A graph of many tiny operations then has one object per operation for
    # the garbage collector to track, the node, instead of two or more (see benchmarks/README.md).
    #
    # An edge to a leaf may hold the leaf tensor itself instead of its AccumulateGrad node
    # (see ``leaf_edge``): the node is made the first time someone looks at the edge, here.
    @property
    def _next_nodes(self):
        """The node at the end of each edge, as a tuple (``next_functions`` without the output numbers)."""
        count = len(self._next_nrs)
        if count == 2:
            nodes = (self._next_node_0, self._next_node_1)
        elif count == 1:
            nodes = (self._next_node_0,)
        else:
            nodes = self._all_next_nodes if count else ()
        for node in nodes:
            if node is not None and node._is_tensor:    # a leaf not looked at yet: its node now
                nodes = tuple(grad_accumulator(n) if isinstance(n, Tensor) else n for n in nodes)
                keep_next_nodes(self, nodes)  # (kept: the same node every time, as in PyTorch)
                break
        return nodes

    @_next_nodes.setter
    def _next_nodes(self, nodes):
        # (set _next_nrs too: its length says how many of these are edges)
        keep_next_nodes(self, nodes)

    @property
    def next_functions(self):
        """One edge ``(node, output_nr)`` per input of the forward operation: the node that
        made that input (``AccumulateGrad`` for a leaf, ``None`` if it needs no gradient)."""
        edges = tuple(zip(self._next_nodes, self._next_nrs))
        if _GradLevels.inputs_made:     # inside grad, vjp, ...: a level's graph (func/_levels.py)
            from ..func._levels import edges_seen
            edges = edges_seen(self, edges)
        return edges

    @next_functions.setter
    def next_functions(self, edges):
        self._next_nodes = tuple([node for node, _ in edges])
        self._next_nrs = output_numbers(edge[1] for edge in edges)

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    # --- saved tensors ----------------------------------------------------------
    def save_for_backward(self, *values):
        """Keep what backward will need. Tensors are checked for later in-place changes."""
        if _inference_tensors_exist:
            check_not_inference(values)
        last = _last_plain_pair[0]
        if len(values) == 2 and values[0] is last[0] and values[1] is last[1]:
            # the very same two plain values as the last pair saved: a chain such as
            # y = y * 1.0001 saves (None, 1.0001) at every step, and its nodes share one tuple
            # instead of one each (the same objects: 1 == 1.0 == True and 0.0 == -0.0, but they differ).
            # (A node that saved an output before may still say _saves_output: unpacking plain
            # values gives them back as they are, and the usual new node is spared reading it)
            self._saved, self._saved_versions = last, _PLAIN_PAIR
            return
        self._saved = values
        # plain numbers (and None) have no version; anything else may be a tensor
        # (``_versions``: its version counter, read without making one, see _tensor.py;
        # a SavedOutput has none: it checks its own)
        versions = tuple([None if type(value) in _PLAIN_VALUES else getattr(value, "_versions", _NO_VERSION)[0]
                          for value in values])
        saves_output = SavedOutput in map(type, values)
        if saves_output or self._saves_output:
            self._saves_output = saves_output     # (set only when true: most nodes need no __dict__)
        versions = self._saved_versions = _USUAL_VERSIONS.get(versions, versions)
        if versions is _PLAIN_PAIR:
            _last_plain_pair[0] = values        # only None and numbers: shared if saved again (above)
        # saved_tensors_hooks in effect (asked of this thread only while some block is open)
        if hook_blocks_open and _Hooks.stack and not self._packs_after_forward:
            pack_saved(self)

    _packs_after_forward = False    # custom Functions pack once forward has returned

    @property
    def _freed(self):
        """True once backward has released the saved tensors."""
        return self._saved is FREED

    @property
    def saved_tensors(self):
        """What forward saved, after checking it was neither freed nor modified in place."""
        saved = self._saved
        if saved is None:
            return ()
        if saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        versions = self._saved_versions
        if versions is not _PLAIN_PAIR and versions.count(None) != len(versions):   # some is a tensor
            for value, version in zip(saved, versions):
                if version is not None and value._versions[0] != version:
                    raise RuntimeError(self._first_modified_message())
        if self._saves_output:
            return self._unpack_saved(saved)
        return saved

    def saved_tensors_for(self, wanted):
        """``saved_tensors``, but only the values at the positions where ``wanted`` is true
        (None at the others): PyTorch's node unpacks, and so checks, a saved input only when a
        gradient it computes needs it, so an in-place change of one it does not need is fine."""
        saved = self._saved
        if saved is None:
            return (None,) * len(wanted)
        if saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        values = [value if want else None for value, want in zip(saved, wanted)]
        for value, version in zip(values, self._saved_versions):
            if value is not None and version is not None and value._versions[0] != version:
                raise RuntimeError(self._first_modified_message(wanted))
        if self._saves_output:
            return self._unpack_saved(values)
        return tuple(values)

    def _first_modified_message(self, wanted=None):
        """The error for a saved tensor changed in place since it was saved (one of those
        ``wanted`` says backward unpacks, if given).

        When several were changed, PyTorch reports the first in the order its backward
        unpacks them: the inputs by their names in alphabetical order (``other`` before
        ``self``, ``mat2`` before ``self``), then its own outputs (``result``); a custom
        Function's in the order it saved them.
        """
        saved, versions = self._saved, self._saved_versions
        names = type(self)._saved_names
        order = range(len(saved))
        if len(names) >= len(saved):
            order = sorted(order, key=lambda i: (type(saved[i]) is SavedOutput, names[i]))
        for i in order:
            value, version = saved[i], versions[i]
            if wanted is not None and not wanted[i]:     # (not unpacked: see saved_tensors_for)
                continue
            if type(value) is SavedOutput:
                if value.version_counter[0] != value.version:
                    return value.modified_message(self)
            elif version is not None and value._versions[0] != version and \
                    i in getattr(self, "_saved_output_nrs", ()):
                return _modified_in_place_message(value, version, _Named(type(self)._forward_cls.__name__),
                                                  output_nr=self._saved_output_nrs[i])
            elif version is not None and value._versions[0] != version:
                # an input is saved as itself: PyTorch names its current grad_fn (the
                # in-place operation that changed it, if recorded) as "output 0"
                return _modified_in_place_message(value, version, value.grad_fn, output_nr=0)
        return None

    def _unpack_saved(self, saved):
        """Saved values as backward uses them; hooks' unpack runs in PyTorch's order."""
        values = list(saved)
        for i in self._pack_order or range(len(values)):
            if type(values[i]) in _UNPACK_ON_ACCESS:
                values[i] = values[i].unpack(self)
        return tuple(values)

    def _release_saved(self):
        """Free saved tensors after a backward without retain_graph (as PyTorch does)."""
        if self._saved is not None:
            self._saved = FREED

    # --- running ----------------------------------------------------------------
    def backward(self, *grad_outputs):
        """Gradients of the inputs from gradients of the outputs: one per edge in ``next_functions``.

        Each subclass writes its vector-Jacobian product here; the class docstring gives it in one
        line of math (see ``minigrad.autograd.derivatives()``). ``None`` means no gradient for that
        input (ask ``self.should_compute_output(i)`` before computing one).
        """
        raise NotImplementedError(f"{self.name()} does not define backward")

    def should_compute_output(self, i):
        """Does input ``i`` need a gradient? (No edge means nobody will use it.)"""
        return (self._next_node_0 if i == 0 else self._next_node_1 if i == 1
                else self._all_next_nodes[i]) is not None

    def __call__(self, *grad_outputs):
        """Run this node by hand: gradients of the outputs in, gradients of the inputs out.

        Like PyTorch: a tuple with one gradient per edge, or the gradient itself
        when the node has a single edge.
        """
        result = self.backward(*grad_outputs)
        if isinstance(result, tuple) and len(result) == 1:
            return result[0]
        return result

    # --- hooks ------------------------------------------------------------------
    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = {}
        self._has_hooks = True
        return _add_hook(self._post_hooks, fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = {}
        self._has_hooks = True
        return _add_hook(self._pre_hooks, fn)

    @property
    def metadata(self):
        """A dict for your own notes about this node (PyTorch has the same)."""
        if "_metadata" not in self.__dict__:
            self._metadata = {}
        return self._metadata


class _SavedName(property):
    """``grad_fn._saved_<name>`` or ``_raw_saved_<name>``: a value PyTorch's node of the same name shows."""


def show_saved_names(cls, keys, raw=False):
    """Give ``cls`` the properties ``_saved_<key>`` (and with ``raw``, ``_raw_saved_<key>``) that
    read what its nodes saved or keep as settings (never hiding a name the class already has)."""
    for key in keys:
        if not hasattr(cls, "_saved_" + key):
            setattr(cls, "_saved_" + key, _SavedName(lambda node, key=key: node._saved_value(key)))
        if raw and not hasattr(cls, "_raw_saved_" + key):
            setattr(cls, "_raw_saved_" + key,
                    _SavedName(lambda node, key=key: node._raw_saved_value(key)))


def keep_settings(node, settings):
    """Keep an operation's ``settings`` (dim=, keepdim=, ...) on its node; ``grad_fn._saved_dim``
    and the like show them, as on PyTorch's nodes."""
    node.__dict__.update(settings)
    cls = type(node)
    shown = _settings_shown.get(cls, ())
    if not (shown and shown.issuperset(settings)):
        show_saved_names(cls, settings)
        _settings_shown[cls] = frozenset(settings).union(shown)


_settings_shown = {}     # node class -> the settings it has properties for


def _describe(tensor):
    shape = ", ".join(str(n) for n in tensor.shape)
    if tensor.dtype.name == "bool":     # (no legacy tensor type: PyTorch prints the backend's name)
        return f"[CPUBoolType [{shape}]]"
    return f"[torch.{tensor.dtype.tensor_type_name} [{shape}]]"


class _Named:
    """Stands for a node in the in-place error where PyTorch prints a plain name."""

    def __init__(self, name):
        self._name = name

    def name(self):
        """The name printed."""
        return self._name


def _modified_in_place_message(tensor, expected_version, producer, output_nr=None):
    # PyTorch names the operation here, not its node: "output 0 of Exp" (ExpBackward0), but
    # "Clamp1" (ClampBackward1), and a node without a number keeps its full name
    # (a custom Function's node is named by the Function: "output 0 of Inplace")
    forward_cls = getattr(type(producer), "_forward_cls", None)
    operation = (forward_cls.__name__ if forward_cls is not None else
                 re.sub(r"Backward(\d+)$", lambda m: "" if m.group(1) == "0" else m.group(1),
                        producer.name()) if producer is not None else "")
    if output_nr is None:
        output_nr = tensor._output_nr
    where = f", which is output {output_nr} of {operation}," if producer is not None else ""
    if _Anomaly.enabled:       # anomaly mode has already printed where the forward op was called
        hint = ("Hint: the backtrace further above shows the operation that failed to compute its "
                "gradient. The variable in question was changed in there or anywhere later. Good luck!")
    else:
        hint = ("Hint: enable anomaly detection to find the operation that failed to compute its "
                "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: {_describe(tensor)}{where} is at version {tensor._version_counter[0]}; "
        f"expected version {expected_version} instead. {hint}\n"
        "minigrad hint: a tensor that backward needs was changed in place after it was "
        "saved; make that change out of place (x = x + 1 instead of x += 1), or change a "
        ".clone() instead."
    )


class SavedOutput:
    """An operation's own output, saved for its backward (``result`` in PyTorch's derivatives).

    Saving the output tensor itself would make a reference cycle (output -> grad_fn
    -> saved output). Like PyTorch's SavedVariable, keep only its data, its version
    counter and the version at saving time; ``unpack`` rebuilds a tensor whose
    grad_fn is the node that saved it, so create_graph=True can differentiate it.
    """

    __slots__ = ("array", "version_counter", "version", "output_nr", "tangent", "view_grad_fn")

    def __init__(self, output):
        self.array = output._array
        # an in-place operation on a view (``v.exp_()``) saves the view: PyTorch's error names
        # the view's node from right after the change, while that node lives (a weak reference)
        self.view_grad_fn = None
        self.version_counter = counter = output._version_counter
        self.version = counter[0]
        self.output_nr = output._output_nr
        # forward mode: a backward run on dual tensors (forward-over-reverse) needs the tangent too
        self.tangent = output.__dict__.get("_fw_tangent")

    def as_output_of(self, node):
        """The saved output as a tensor again, with ``node`` as its grad_fn."""
        tensor = _wrap(self.array)
        tensor._version_counter = self.version_counter
        tensor._output_nr = self.output_nr
        tensor._grad_fn = node
        return tensor

    def modified_message(self, node):
        """PyTorch's error for this output changed in place since ``node`` saved it: it names
        the shape at saving time and ``node`` (the output's own node), or for a view changed
        in place the view's node after that change, if that node is still alive."""
        tensor = _wrap(self.array)
        tensor._version_counter = self.version_counter
        producer = self.view_grad_fn() if self.view_grad_fn is not None else None
        return _modified_in_place_message(tensor, self.version, producer or node, self.output_nr)

    def unpack(self, node):
        """The saved output as a tensor again, with ``node`` as its grad_fn while recording.

        Raises PyTorch's RuntimeError if the output was modified in place since it was saved.
        """
        if self.version_counter[0] != self.version:
            raise RuntimeError(self.modified_message(node))
        tensor = _wrap(self.array)
        tensor._version_counter = self.version_counter
        tensor._output_nr = self.output_nr
        if _State.enabled:                # create_graph: the result's history is this node
            tensor._grad_fn = node
        if self.tangent is not None:
            if _DualLevel.open:
                _set_tangent(tensor, self.tangent)
        return tensor


class AccumulateGrad(Node):
    """result = the leaf tensor variable itself   ->
        grad_variable = grad, added into variable.grad (nothing flows further)

    There is at most one per leaf at a time; the leaf keeps only a weak reference
    to it, so the graph never forms a reference cycle. It is made when first needed
    (see ``leaf_edge``): until then an edge holds the leaf itself.
    """

    __slots__ = ("variable", "_has_hooks")   # no per-node dict: one exists per leaf per graph

    # Leaves are ready as soon as their gradient arrives; run them first.
    _sequence_number = float("inf")

    def __init__(self, variable):
        self.variable = variable
        self._saved = None
        self._next_node_0 = self._next_node_1 = None
        self._next_nrs = ()
        # the leaf's own hooks (Tensor.register_hook) run here, before accumulating
        self._has_hooks = variable._backward_hooks is not None
        shape = variable._array.shape           # (a new tuple each time numpy is asked)
        self._output_shape = _SMALL_SHAPES.get(shape, shape)
        self._output_dtype = variable._array.dtype

    def name(self):
        """``'torch::autograd::AccumulateGrad'``: PyTorch spells out this node's C++ namespace
        (its class, ``type(node).__name__``, is plain ``AccumulateGrad``)."""
        return "torch::autograd::AccumulateGrad"

    def backward(self, grad):
        """Add ``grad`` into ``variable.grad`` (then run its post-accumulate hooks); nothing flows further."""
        # PyTorch asks the leaf for its grad_fn here (a view's node is made again first, which
        # raises if the view's history was lost since): a leaf that has one now was given a
        # history after the graph was recorded (an in-place change, its base's)
        # held by the engine's list of gradients, the tuple of this call's arguments and
        # `grad`: anything more means the user (a hook), another leaf or the caller holds it
        held_elsewhere = getrefcount(grad) > REFS_OF_A_LOCAL + 2
        accumulate_into_leaf(self.variable, grad, held_elsewhere)
        return ()


def leaf_edge(leaf):
    """What an edge to ``leaf`` (a tensor that requires grad, no view) holds: its live
    AccumulateGrad node if it has one, else the leaf itself.

    PyTorch gives each such leaf an AccumulateGrad when an operation first uses it. Most are
    never looked at: they only put a gradient into ``.grad``. So minigrad's edge holds the
    leaf, and the node is made only when needed: when ``next_functions`` shows it, or the
    backward pass needs it for hooks (engine.py). Meanwhile the engine adds into ``.grad``
    itself (``accumulate_into_leaf``). A wide graph of leaves then makes two objects fewer
    per leaf (the node and the leaf's weak reference to it) for the garbage collector.
    """
    ref = leaf._grad_accumulator
    if ref is None:
        return leaf
    node = ref()
    if node is None:
        leaf._grad_accumulator = None      # (the graphs that had it are gone)
        return leaf
    return node


def accumulate_into_leaf(variable, grad, held_elsewhere):
    """What a leaf's AccumulateGrad does with the gradient that reached it, its hooks aside:
    check the leaf is still a leaf, add ``grad`` into ``.grad``, run the post-accumulate hooks.
    ``held_elsewhere``: someone besides the engine holds ``grad`` (then it is not adopted)."""
    # PyTorch asks the leaf for its grad_fn here (a view's node is made again first, which
    # raises if the view's history was lost since): a leaf that has one now was given a
    # history after the graph was recorded (an in-place change, its base's)
    # (a tensor with neither a node nor a base, outside torch.func's levels, has no grad_fn:
    # known without the property's call)
    if (variable._grad_fn is not None or variable._base is not None or _GradLevels.running) \
            and variable.grad_fn is not None:
        raise RuntimeError("leaf variable has been moved into the graph interior")
    # a leaf that stopped requiring grad (requires_grad_(False)) after the graph was recorded
    # keeps its .grad as it is, as in PyTorch (its hooks still run). (`_requires_grad`
    # answers for most leaves; the property for a view, whose base may answer.)
    if variable._requires_grad or variable._graph_requires_grad:
        accumulate_grad(variable, grad, held_elsewhere)
    if variable._post_accumulate_grad_hooks:
        run_post_accumulate_grad_hooks(variable)


def give_edges_their_node(leaf):
    """Before ``leaf`` changes shape or dtype in place: make its AccumulateGrad now, in every
    node whose edge holds the leaf itself (see ``leaf_edge``). The node remembers the shape
    and dtype the gradients of those graphs have (PyTorch's node is made with the graph).
    Rare (a leaf that requires grad reshaped under no_grad), so finding those nodes may be slow."""
    for holder in gc.get_referrers(leaf):
        if type(holder) is tuple:                 # a node with 3+ edges keeps them in a tuple
            for node in gc.get_referrers(holder):
                if isinstance(node, Node) and getattr(node, "_all_next_nodes", None) is holder:
                    node._next_nodes        # (looking at the edges gives them their node)
        elif isinstance(holder, Node):
            holder._next_nodes


def accumulate_grad(variable, grad, held_elsewhere=True):
    """``variable.grad += grad``, creating ``.grad`` on first use.

    The first gradient becomes ``.grad`` as it is when the engine owns it
    exclusively (a fresh, writable array, or a view of one laid out like the
    leaf, and nothing else holds it: not ``held_elsewhere``); otherwise it is
    copied, so that ``.grad`` never shares memory with a tensor the user (or
    another leaf) holds. Later gradients are added in place, which is why they
    *accumulate* across backward calls until you zero them. With
    create_graph=True the copy and the sum are recorded instead, so that
    ``.grad`` can be differentiated (its grad_fn is ``CopyBackwards``, then
    ``AddBackward0``, as in PyTorch).
    """
    current = variable._grad
    if grad._array.shape != variable._array.shape:
        # rare: the leaf changed shape in place (squeeze_/unsqueeze_) after the graph was made
        return _accumulate_reshaped(variable, grad, held_elsewhere)
    if current is None:
        # PyTorch's layout contract: a new .grad is laid out in memory like its leaf (a
        # transposed weight gets a transposed .grad) when the leaf's elements fill one block
        if _State.enabled and grad._graph_requires_grad:
            variable._grad = _recorded_copy_for(variable, grad)
        elif not _State.enabled and not held_elsewhere and _owned_by_engine(grad) and (
                (variable._array.ndim < 2 and not variable._zero_steps and grad._array.size)
                or not _GradLayout.enforced or _obeys_layout_contract(grad, variable)):
            # (a new vector is laid out as the contract asks of any leaf, but for an empty one
            # that steps by 0, made from numpy data)
            variable._grad = grad
        elif not _State.enabled and not held_elsewhere and _owned_view(grad, variable):
            # (a gradient summed back over broadcast dims is a view of the sum; a 0-d gradient
            # of a sum is expanded): PyTorch adopts it detached, so .grad is no view but shares
            # its memory and version counter
            variable._grad = _adopted(grad)
        else:
            variable._grad = _copy_for_grad(grad, variable)
    elif _State.enabled:
        variable._grad = current + grad
        if current._zero_tensor_memory is not None and grad._zero_tensor_memory is not None:
            _as_zero_tensor(variable._grad)     # (two ZeroTensors add up to one)
        _warn_if_layout_differs(variable._grad, variable, "sum recorded")
    else:
        if current._zero_tensor_memory is not None:     # (sgn's gradient kept as .grad: see Tensor._is_zerotensor)
            raise RuntimeError(_zero_tensor.IMMUTABLE)
        try:
            current._array += grad._array
        except ValueError:      # .grad kept the leaf's shape before a squeeze_/unsqueeze_: PyTorch's error
            _check_broadcast_into(current, _broadcast_shape(current, grad))
            raise
        # (every training step comes here for every parameter: the version counter is read
        # without the property's call once it exists, and a .grad stepping through memory as
        # its leaf does, the usual case, needs no look at the layout contract)
        counter = current._versions
        if counter is _NEVER_CHANGED:
            counter = current._version_counter
        counter[0] += 1
        if (current._array.strides != variable._array.strides
                or current._zero_steps is not variable._zero_steps):
            _warn_if_layout_differs(current, variable, "sum in place")


_LAYOUT_WARNED = set()      # which of the two sums warned: PyTorch warns once per process for each


def _warn_if_layout_differs(grad, variable, where):
    """PyTorch's note that a ``.grad`` a gradient was added to (one the user gave a layout of
    its own) is not laid out like its leaf; not under ``enforce_grad_layout_policy(False)``."""
    if where in _LAYOUT_WARNED or not _GradLayout.enforced or _obeys_layout_contract(grad, variable):
        return
    _LAYOUT_WARNED.add(where)
    sizes = lambda t: "[" + ", ".join(str(n) for n in t.shape) + "]"      # noqa: E731
    steps = lambda t: "[" + ", ".join(str(n) for n in t.stride()) + "]"   # noqa: E731
    warnings.warn("grad and param do not obey the gradient layout contract. This is not an error, "
                  f"but may impair performance.\ngrad.sizes() = {sizes(grad)}, strides() = "
                  f"{steps(grad)}\nparam.sizes() = {sizes(variable)}, strides() = {steps(variable)}",
                  UserWarning, stacklevel=stacklevel_outside_minigrad())


def _accumulate_reshaped(variable, grad, held_elsewhere):
    """accumulate_grad when ``grad``'s shape is not the leaf's (the leaf was squeezed or
    unsqueezed in place after the graph recorded it), as PyTorch does it: the first gradient
    is kept as it is when the engine owns it and its memory is laid out like the leaf's;
    otherwise it is copied into a tensor shaped like the leaf (broadcasting, which may fail).
    Later gradients are added in place into ``.grad`` (which must not change shape), or with
    create_graph=True out of place (the sum may broadcast to a new shape)."""
    current = variable._grad
    if current is None:
        if not _State.enabled and not held_elsewhere and _owned_by_engine(grad) and \
                _laid_out_like(grad, variable):
            variable._grad = grad
            return
        if not _State.enabled and not held_elsewhere and _owned_view(grad, variable):
            variable._grad = _adopted(grad)
            return
        current = variable._detached_copy()
        _check_broadcast_into(current, _broadcast_shape(current, grad))
        if _State.enabled and grad._graph_requires_grad:
            from .._ops.shape import copy_into      # lazy: the operations import this module (Node)
            variable._grad = copy_into(current, grad)
        else:
            current._array[...] = grad._array
            current._version_counter[0] += 1        # (PyTorch copy_()s into new memory)
            variable._grad = current
    elif _State.enabled:
        variable._grad = current + grad
    else:
        _check_broadcast_into(current, _broadcast_shape(current, grad))
        current._array += grad._array
        current._version_counter[0] += 1


def _broadcast_shape(a, b):
    """The shape ``a`` and ``b`` broadcast to, or PyTorch's error if they do not."""
    try:
        return np.broadcast_shapes(a._array.shape, b._array.shape)
    except ValueError:
        from .._ops.pointwise import _broadcast_error      # lazy: the operations import this module
        raise _broadcast_error(a, b) from None


def _check_broadcast_into(tensor, shape):
    """PyTorch's error for writing a result of ``shape`` into ``tensor`` of another shape."""
    if tuple(shape) != tensor._array.shape:
        raise RuntimeError(f"output with shape {list(tensor._array.shape)} doesn't match the "
                           f"broadcast shape {list(shape)}")


def _laid_out_like(grad, variable):
    """PyTorch's gradient layout contract: every dim of ``grad`` longer than 1 steps through
    memory as the leaf's dim at the same position does (and no size-1 dim is a broadcast).
    A dim the squeezed leaf no longer has counts as laid out alike: PyTorch then compares with
    the step the leaf had there before, which a dense gradient of the old shape matches."""
    grad_strides, variable_strides = grad.stride(), variable.stride()
    for dim, size in enumerate(grad._array.shape):
        if size != 1:
            if dim < len(variable_strides) and grad_strides[dim] != variable_strides[dim]:
                return False
        elif grad_strides[dim] == 0:
            return False
    return True


def _obeys_layout_contract(grad, variable):
    """May ``grad`` become ``variable.grad`` as it is? PyTorch's rule: if the leaf's elements
    fill one block of memory, grad must step through memory as the leaf does (in every dim
    longer than 1); otherwise grad must be contiguous."""
    if grad._array.strides == variable._array.strides and grad._zero_steps is variable._zero_steps:
        return True                 # the usual case (the same steps), decided at once
    if is_non_overlapping_and_dense(variable._array):
        return _laid_out_like(grad, variable)
    return grad._array.flags.c_contiguous


def _empty_laid_out_like(variable):
    """New memory for ``variable.grad``: with the leaf's steps when its elements fill one block
    (PyTorch's layout contract), else row-major."""
    array = with_pytorch_steps(variable)     # (an empty leaf's steps, as stride() reports them)
    if not is_non_overlapping_and_dense(array):
        return np.empty(array.shape, array.dtype)
    return empty_with_steps_of(array, array.dtype)


def _copy_laid_out_like(variable, values):
    """A copy of the array ``values`` (shaped like ``variable``), laid out like ``variable``."""
    copy = _empty_laid_out_like(variable)
    copy[...] = values
    return copy


def _recorded_copy_for(variable, grad):
    """``.grad`` from the first gradient with create_graph: a recorded copy, as PyTorch makes it
    (CopyBackwards into memory laid out like the leaf; CloneBackward0, contiguous, when the
    leaf's elements do not fill one block), so that .grad keeps grad's history."""
    from .._ops.shape import copy_into, clone      # lazy: the operations import this module (Node)
    if not is_non_overlapping_and_dense(variable._array):
        return clone(grad, memory_format=contiguous_format)
    copy = copy_into(variable._detached_copy(), grad)
    copy._array = _copy_laid_out_like(variable, copy._array)    # (nobody has seen it yet)
    keep_zero_steps(copy)                   # (laid out like an empty leaf that steps by 0)
    copy._version_counter[0] += 1           # (PyTorch's copy_ into new memory counts as a change)
    return copy


def _owned_view(grad, variable):
    """A view, laid out like the leaf, that only the backward pass holds (PyTorch looks at
    who holds the view, not its base)."""
    return (grad._base is not None and grad._grad_fn is None and not grad._shared_gradient
            and _laid_out_like(grad, variable))


def _adopted(grad):
    """A view adopted as .grad: detached (no view any more), same memory and version counter."""
    adopted = grad.detach()
    if not adopted._array.flags.writeable:      # (numpy's expand is read-only)
        adopted._array = np.lib.stride_tricks.as_strided(
            adopted._array, adopted._array.shape, adopted._array.strides, writeable=True)
    return adopted


def _copy_for_grad(grad, variable):
    """``.grad`` as a copy of ``grad``, as PyTorch makes it: for a leaf whose elements fill
    one block (the usual case) new memory laid out like the leaf is written with copy_, so
    ``.grad`` starts at version 1; for any other leaf it is a plain contiguous clone (version 0)."""
    copy = keep_zero_steps(_wrap(_copy_laid_out_like(variable, grad._array)))
    if is_non_overlapping_and_dense(variable._array):
        copy._version_counter[0] += 1
    return copy


def _owned_by_engine(grad):
    """True if nothing but the backward pass can hold ``grad``'s memory (the caller has checked
    that nothing else holds ``grad`` itself; a starting gradient is flagged as the caller's)."""
    array = grad._array
    flags = array.flags             # (numpy makes a new object each time it is asked)
    return ((flags.owndata or _view_of_a_temporary(array)) and flags.writeable
            and grad._grad_fn is None and not grad._shared_gradient)


def _view_of_a_temporary(array):
    """Is ``array`` a numpy view of memory nothing else refers to (a product computed transposed,
    say)? Then it alone holds that memory, as if it owned it. (PyTorch adopts a view as .grad
    when nothing else holds the view itself.)"""
    base = array.base
    if base is not None and type(base) is not np.ndarray:
        base = getattr(base, "base", None)      # (as_strided's wrapper: new empty memory's steps)
    return type(base) is np.ndarray and base.flags.owndata and getrefcount(base) <= REFS_OF_A_LOCAL + 1


def _references_of_a_local():
    value = object()
    return getrefcount(value)


# What sys.getrefcount says of an object only a local name holds (2 on CPython: the name and
# getrefcount's own argument). PyTorch adopts or adds into a gradient in place only when it holds
# the last reference to it (its use count); Python's reference count is the same number, read
# relative to this one.
REFS_OF_A_LOCAL = _references_of_a_local()

_PLAIN_VALUES = frozenset((type(None), float, int, bool))     # inputs that are never tensors

# A Python number given where PyTorch's operation takes a tensor (``x * 2``) is saved by
# PyTorch as a "wrapped number", a 0-d tensor: grad_fn._saved_other shows tensor(2).
_WRAPPED_NUMBER_DTYPES = {int: np.int64, float: np.float64, bool: np.bool_}


def _wrapped_number(number):
    """The 0-d tensor PyTorch makes of a Python number given for a tensor input."""
    from .._tensor import _wrap        # (lazy: the tensor module builds on this one)
    return _wrap(np.asarray(number, dtype=_WRAPPED_NUMBER_DTYPES[type(number)]))
_NO_VERSION = (None,)


class _Freed:
    """What a node's saved values become after backward frees them (falsy, like 'nothing')."""

    def __bool__(self):
        return False

    def __repr__(self):
        return "<freed by backward>"


FREED = _Freed()


def gradient_edge(value):
    """The edge a new node uses to reach ``value``: (producer node, output number)."""
    if getattr(value, "_base", None) is not None:
        grad_fn = _view_grad_fn(value)      # a view: its node may have to be made again first
    else:
        grad_fn = getattr(value, "_grad_fn", None)
    if grad_fn is not None:
        return (grad_fn, value._output_nr)
    if getattr(value, "_requires_grad", False):
        return (grad_accumulator(value), 0)
    return (None, 0)


def grad_accumulator(leaf):
    """The leaf's AccumulateGrad node, reusing the live one if it exists.

    A view made under no_grad is a leaf that requires grad but has no
    accumulator: gradients never reach it (PyTorch's rule).
    """
    if leaf._base is not None:
        # (also after requires_grad_(): PyTorch asks the view for its history first)
        _raise_if_history_lost(leaf)
        if not leaf._requires_grad_set_by_user:
            return None
    ref = leaf._grad_accumulator
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(leaf)
        leaf._grad_accumulator = weakref.ref(node)
    return node


def _view_grad_fn(view):
    """The view's grad_fn, made again if its memory changed in place (_ops/views.py)."""
    from .._ops.views import view_grad_fn       # lazy: the ops import this module
    return view_grad_fn(view)


def _raise_if_history_lost(view):
    """PyTorch's error if asking the view for its node would fail (_ops/views.py)."""
    from .._ops.views import history_lost       # lazy: the ops import this module
    lost = history_lost(view)
    if lost:
        raise RuntimeError(lost)


def needs_grad(values):
    """Should an operation on ``values`` be recorded? (grad mode on, some input requires grad)."""
    if not _State.enabled:
        return False
    for v in values:
        if getattr(v, "_grad_fn", None) is not None or getattr(v, "_requires_grad", False):
            return True
        base = getattr(v, "_base", None)     # a view whose base came to require grad later
        if base is not None and base._graph_requires_grad:
            return True
    return False


def connect(output, node, inputs):
    """Make ``node`` the grad_fn of ``output``, with one edge per forward input."""
    nodes, numbers = [], []
    for value in inputs:            # gradient_edge(value), inlined: this runs for every op
        if type(value) in _PLAIN_VALUES:
            nodes.append(None)
            numbers.append(0)
            continue
        if getattr(value, "_base", None) is not None:
            grad_fn = _view_grad_fn(value)  # a view: its node may have to be made again first
        else:
            grad_fn = getattr(value, "_grad_fn", None)
        if grad_fn is not None:
            nodes.append(grad_fn)
            numbers.append(value._output_nr)
        else:
            nodes.append(grad_accumulator(value) if getattr(value, "_requires_grad", False) else None)
            numbers.append(0)
    return attach(output, node, nodes, output_numbers(numbers))


def gets_gradient_edge(value):
    """Will ``connect`` give ``value`` an edge? Asked before an operation is recorded, to save
    only what a gradient with an edge needs (PyTorch's ``should_compute_output``): a view made
    under no_grad (or before its base required grad) says requires_grad=True but has no edge."""
    if getattr(value, "_base", None) is not None:
        return _view_grad_fn(value) is not None or (
            value._requires_grad and value._requires_grad_set_by_user)
    return getattr(value, "_grad_fn", None) is not None or getattr(value, "_requires_grad", False)


def attach(output, node, next_nodes, next_nrs):
    """Make ``node`` (with edges to ``next_nodes``, a list or tuple) the grad_fn of ``output``."""
    if len(next_nodes) == 2:        # (the usual two inputs, without a call: this runs for every op)
        node._next_node_0, node._next_node_1 = next_nodes
    else:
        keep_next_nodes(node, next_nodes)
    node._next_nrs = next_nrs
    node._saved = node._saved_versions = None   # save_for_backward, if the operation needs it, comes after
    array = output._array
    dtype = array.dtype             # (float32 and float64 are known floating without asking numpy)
    if dtype is not _FLOAT32 and dtype is not _FLOAT64 and dtype.kind not in "fc":
        if type(node).__name__ == "NotImplemented":
            return node     # PyTorch's fallback for operations without a formula: no history
        if not InPlace.running:                 # for an integer or bool output
            refuse_dtype(dtype)
    shape = array.shape             # (a new tuple each time numpy is asked)
    node._output_shape = _SMALL_SHAPES.get(shape, shape)
    node._output_dtype = dtype
    node._sequence_number = next(_sequence_numbers)
    output._grad_fn = node
    if _Anomaly.enabled:            # detect_anomaly: remember which forward line made this node
        record_forward_stack(node)
    return node


def attach_outputs(node, outputs, shapes=None):
    """Make ``outputs`` the outputs 0, 1, 2, ... of ``node`` and return ``node``.

    Why: an operation with several results (``unbind``, ``var_mean``, ``svd``, a backward
    recorded under ``create_graph=True``) is *one* node in PyTorch, and the gradient that
    arrives at result k is that node's input number k. ``connect`` (or ``result``) has made the
    node and its edges for one of them; this marks each result with the node and its number.
    None stands for a result that was not computed or is not differentiable: it keeps its place
    in the numbering. ``shapes`` gives every result's shape, those of the None ones too (by
    default the shapes of ``outputs``); the engine makes zeros of that shape for a result that
    got no gradient."""
    for output_nr, out in enumerate(outputs):
        if out is not None:
            out._grad_fn, out._output_nr = node, output_nr
    node._num_outputs = len(outputs)
    node._output_shapes = list(shapes) if shapes is not None else [out._array.shape for out in outputs]
    return node


class InPlace:
    """``running`` is True while an in-place operation computes its result (inplace.py): PyTorch
    moves the tensor's history to the new node there, without the dtype check below, so
    ``i[mask] = v`` gives an integer ``i`` history when ``v`` requires grad. (A view's node made
    again after such a change is set the same way: views.view_grad_fn.)"""
    running = False


def refuse_dtype(dtype):
    """PyTorch gives history only to floating-point and complex results: an integer or bool
    result of an operation whose input requires grad (an integer tensor that ``x[mask] = v``
    gave history) is refused."""
    from .._dtype import scalar_type_name
    raise RuntimeError(f"Autograd not support dtype: {scalar_type_name(dtype)}")


def keep_next_nodes(node, nodes):
    """Keep ``nodes`` as the nodes at the ends of ``node``'s edges (see ``Node._next_nodes``)."""
    count = len(nodes)
    node._next_node_0 = nodes[0] if count else None
    node._next_node_1 = nodes[1] if count > 1 else None
    if count > 2:
        node._all_next_nodes = tuple(nodes)


# The output numbers of most nodes' edges are all 0: those tuples are made once and shared.
_ZEROS = [(0,) * n for n in range(9)]
# A long chain of tiny operations keeps one node per operation: the usual small tuples
# a node stores are shared too, so that such a graph stays small in memory.
_SMALL_SHAPES = {(): (), (1,): (1,)}
# (numpy keeps one dtype object per built-in type: an `is` test answers for these two)
_FLOAT32, _FLOAT64 = np.dtype(np.float32), np.dtype(np.float64)
_USUAL_VERSIONS = {versions: versions for versions in itertools.chain.from_iterable(
    itertools.product((None, 0), repeat=n) for n in range(4))}


_PLAIN_PAIR = _USUAL_VERSIONS[(None, None)]     # the versions of two saved plain values
_last_plain_pair = [(None, None)]                # the last such pair saved (see save_for_backward)


def output_numbers(numbers):
    """The output number of each edge, as a tuple (a shared one when all are 0)."""
    numbers = tuple(numbers)
    if not any(numbers):
        return zero_output_numbers(len(numbers))
    return numbers


def zero_output_numbers(count):
    """``(0,) * count``, shared for the usual small counts."""
    return _ZEROS[count] if count < len(_ZEROS) else (0,) * count


# Saved-tensor hooks (kept in their own file).
from ._saved_tensor_hooks import (  # noqa: E402
    PackedTensor, SavedTensor, _Hooks, hook_blocks_open, pack_saved, saved_tensors_hooks,
    save_on_cpu, disable_saved_tensors_hooks)

_UNPACK_ON_ACCESS = (SavedOutput, PackedTensor)     # saved entries that are not the value itself

# Hooks on several tensors and after accumulation (kept in their own file).
from ._multi_grad_hook import (  # noqa: E402
    register_multi_grad_hook, run_post_accumulate_grad_hooks)

# Forward mode (its Identity node is a Node, so it is loaded after Node exists).
from .forward_ad import _DualLevel, _set_tangent  # noqa: E402


# --- gradient edges: where a tensor's gradient will be computed ------------------------------

from collections import namedtuple  # noqa: E402

GradientEdge = namedtuple("GradientEdge", ["node", "output_nr", "ownership_token"], defaults=(None,))
GradientEdge.__doc__ = """Object representing a given gradient edge within the autograd graph.

To get the gradient edge where a given Tensor gradient will be computed,
you can do ``edge = autograd.graph.get_gradient_edge(tensor)``. It can stand
for the tensor in ``torch.autograd.grad(outputs, inputs=edge)``."""


def get_gradient_edge(tensor):
    """The edge (node, output number) where ``tensor``'s gradient will be computed.

    The node is ``tensor.grad_fn``, or for a leaf its AccumulateGrad node.
    """
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not "
                           "require gradients")
    node, output_nr = gradient_edge(tensor)
    return GradientEdge(node, output_nr)


def increment_version(tensor):
    """Count a change made behind autograd's back (e.g. in numpy), as an in-place op would:
    backward then refuses to use the old values it saved. ``tensor`` may be a list of tensors."""
    from .._ops.inplace import bump_version      # lazy: the operations import this module
    for t in (tensor if isinstance(tensor, (list, tuple)) else (tensor,)):
        bump_version(t)


# --- allow_mutation_on_saved_tensors: change saved tensors in place, backward sees the old ------

class _AllowMutationOnSavedContext:
    """What ``allow_mutation_on_saved_tensors`` yields; ``closed`` once its ``with`` ends."""

    current = None          # the context in force (they cannot be nested)

    def __init__(self):
        self.closed = False


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Inside this context, a tensor saved for backward may be changed in place afterwards:
    backward uses the values it had when it was saved (no version-counter error).

    PyTorch copies a saved tensor only when it is about to be changed; minigrad,
    simpler, copies every saved tensor's values when it is saved (a saved-tensor
    hook), so the context costs memory for everything recorded inside it.
    Backward must run inside the same context.
    """
    if _AllowMutationOnSavedContext.current is not None:
        raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
    context = _AllowMutationOnSavedContext()

    def pack(tensor):
        return context, tensor, tensor._version_counter[0], tensor._array.copy()

    def unpack(packed):
        owner, tensor, version, values = packed
        if owner.closed:
            raise AssertionError("Trying to backward outside of the 'allow_mutation_on_saved_tensors'"
                                 " contextin which the graph was originally recorded.")
        if tensor._version_counter[0] == version:
            return tensor                  # unchanged: the tensor itself
        old = _wrap(values)                # changed in place since: its values when saved
        old._requires_grad = tensor._graph_requires_grad
        return old

    _AllowMutationOnSavedContext.current = context
    try:
        with saved_tensors_hooks(pack, unpack):
            yield context
    finally:
        context.closed = True
        _AllowMutationOnSavedContext.current = None
