"""The profiler: how long each operation and each backward node took (PyTorch:
torch/autograd/profiler.py).

    x = torch.randn((1, 1), requires_grad=True)
    with torch.autograd.profiler.profile() as prof:
        for _ in range(100):
            y = x ** 2
            y.backward()
    print(prof.key_averages().table(sort_by="self_cpu_time_total"))

While a ``profile`` is on, three kinds of *ranges* are timed, each from its start to its end:

* every operation the program calls, named as PyTorch names it: ``aten::pow``, ``aten::mul``,
  ``aten::sum`` (``aten`` is the library of PyTorch's operations);
* every node the backward pass runs: ``autograd::engine::evaluate_function: PowBackward0``
  around ``PowBackward0``, around the operations its formula calls;
* every ``record_function("label")`` block: a range of the program's own choosing.

A range that starts while another is open runs *inside* it (its child): the table's "CPU
total" of a range counts its children, its "Self CPU" does not.

What it costs when no profiler is on: nothing. While one is on, each way into an operation
(``x ** 2``, ``x.sum()``, ``torch.sum``, ``F.relu``, ...) is swapped for a version that opens
and closes a range around the call (``_operation_ranges.py`` lists them with their PyTorch
names), and so is the engine's function that runs one node (engine.call_backward); the last
profiler to stop puts the originals back. PyTorch's dispatcher likewise calls its profiling
callbacks only while a profiler asks for them.
"""
import contextlib
import time
import warnings
import weakref

import numpy as np

from .profiler_util import (  # noqa: F401  (PyTorch's names here)
    DeviceType, EventList, FunctionEvent, FunctionEventAvg, ProfilerActivity)


class _ProfilerState:
    """What the profilers that are on share: there is one such object, ``_Profiling``."""

    def __init__(self):
        self.on = False             # is some profiler collecting?
        self.profiles = []          # the profiles collecting now (a nested one collects too)
        self.open_ranges = []       # the ranges started and not ended yet, innermost last
        self.record_shapes = False  # does some profile want the input shapes?
        self.profile_memory = False # does some profile want the memory each operation takes?
        self.engine_watch = None    # the engine's observer while profiling (_start_collecting)


_Profiling = _ProfilerState()


class _Range:
    """One timed range while it is being recorded (it becomes a FunctionEvent at the end)."""

    __slots__ = ("name", "start_ns", "end_ns", "parent", "input_shapes", "is_user_annotation", "memory")

    def __init__(self, name, input_shapes, is_user_annotation=False):
        self.name = name
        self.input_shapes = input_shapes
        self.is_user_annotation = is_user_annotation
        self.memory = 0                              # bytes of new memory its results hold
        self.parent = _Profiling.open_ranges[-1] if _Profiling.open_ranges else None
        self.end_ns = None
        for profile in _Profiling.profiles:
            profile._ranges.append(self)
        _Profiling.open_ranges.append(self)
        self.start_ns = time.perf_counter_ns()      # (last: the bookkeeping is not timed)

    def end(self):
        self.end_ns = time.perf_counter_ns()
        open_ranges = _Profiling.open_ranges
        if open_ranges and open_ranges[-1] is self:
            open_ranges.pop()
        elif self in open_ranges:                    # (ended out of order)
            open_ranges.remove(self)


def input_shapes(args, kwargs=None):
    """What PyTorch's ``record_shapes`` notes about an operation's arguments: a tensor's
    shape as a list, ``[]`` for anything else."""
    from .._tensor import Tensor
    values = list(args) + (list(kwargs.values()) if kwargs else [])
    return [list(_array_of(value).shape) if isinstance(value, Tensor) else [] for value in values]


def _array_of(tensor):
    """A tensor's numpy array; inside vmap, a batched tensor's is its whole batch's."""
    from ..func._batched_tensor import BatchedTensor
    while isinstance(tensor, BatchedTensor):
        tensor = tensor._value
    return tensor._array


def start_range(name, args=(), kwargs=None):
    """Open a range named ``name`` (with its arguments' shapes, if a profile wants them)."""
    return _Range(name, input_shapes(args, kwargs) if _Profiling.record_shapes else [])


def timed_call_backward(node, grads, keep_graph):
    """engine.call_backward (running one node) inside the two ranges PyTorch's engine opens
    for a node: ``autograd::engine::evaluate_function: <name>`` around ``<name>``. It takes
    the engine's function's place while a profiler is on (``_start_collecting``)."""
    name = node.name()
    outer = _Range(f"autograd::engine::evaluate_function: {name}", [])
    inner = start_range(name, grads)
    try:
        grad_inputs = _untimed_call_backward(node, grads, keep_graph)
        if _Profiling.profile_memory:
            inner.memory = new_memory(grad_inputs, grads)
        return grad_inputs
    finally:
        inner.end()
        outer.end()


# --- profile_memory: the memory an operation's results take ---------------------------------

_counted = {}     # id -> weak reference, of the numpy memory already counted for some range


def new_memory(results, inputs):
    """The bytes of new memory that the tensors among ``results`` hold: not a view of one of
    ``inputs``, nor memory counted already (an operation that hands on what an operation
    inside it made: that one made it). PyTorch counts every allocation and free during the
    operation instead (a temporary freed before the end nets out)."""
    from .._tensor import Tensor
    results = results if isinstance(results, (tuple, list)) else (results,)
    of_inputs = {id(_memory_of(value)) for value in inputs if isinstance(value, Tensor)}
    total = 0
    for result in results:
        if isinstance(result, Tensor):
            memory = _memory_of(result)
            key = id(memory)
            if not isinstance(memory, np.ndarray):      # (a numpy scalar: always new)
                total += memory.nbytes
            elif key not in of_inputs and key not in _counted:
                _counted[key] = weakref.ref(memory, lambda _, key=key: _counted.pop(key, None))
                total += memory.nbytes
    return total


def _memory_of(tensor):
    """The numpy array that owns a tensor's memory (a view's base, followed to the end)."""
    array = _array_of(tensor)
    while isinstance(getattr(array, "base", None), np.ndarray):
        array = array.base
    return array


class record_function(contextlib.ContextDecorator):
    """A range of your own in the profile: ``with record_function("forward"): ...`` (or
    ``@record_function("forward")`` on a function). Outside a profiler it does nothing."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self._range = None

    def __enter__(self):
        _check_text(self.name, "name", "str", 0)
        if self.args is not None:
            _check_text(self.args, "args", "Optional[str]", 1)
        if _Profiling.on:
            self._range = _Range(self.name, [], is_user_annotation=True)
        return self

    def __exit__(self, *exc_info):
        if self._range is not None:
            self._range.end()
            self._range = None
        return False


def _check_text(value, parameter, expected, position):
    """record_function's name and args must be str: PyTorch's error (from its C++ operator
    ``profiler::_record_function_enter_new``) otherwise."""
    if isinstance(value, str):
        return
    kind = type(value).__name__
    raise RuntimeError(
        f"profiler::_record_function_enter_new() Expected a value of type '{expected}' for argument "
        f"'{parameter}' but instead found type '{kind}'.\nPosition: {position}\nValue: {value!r}\n"
        "Declaration: profiler::_record_function_enter_new(str name, str? args=None) -> "
        "__torch__.torch.classes.profiler._RecordFunction\nCast error details: Unable to cast Python "
        f"instance of type {type(value)} to C++ type '?' (#define PYBIND11_DETAILED_ERROR_MESSAGES or "
        "compile in debug mode for details)")


class profile:
    """Time every operation, backward node and ``record_function`` range of the ``with`` block.

    After the block: ``prof.key_averages().table(sort_by="self_cpu_time_total")`` prints one
    row per name; ``prof.function_events`` lists every range; ``prof.export_chrome_trace(path)``
    writes them for chrome://tracing. ``record_shapes=True`` notes the input shapes too
    (``key_averages(group_by_input_shape=True)`` then keeps the shapes apart).
    ``enabled=False`` turns it into a no-op (and ``with ... as prof`` gives None, as in
    PyTorch). ``profile_memory=True`` adds the columns ``CPU Mem`` and ``Self CPU Mem``: the
    memory each operation's results newly take (see ``new_memory``). PyTorch's other arguments
    are taken; minigrad has no device to time, and ``with_stack``, ``with_flops`` and
    ``with_modules`` add nothing yet.
    """

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False,
                 with_flops=False, profile_memory=False, with_stack=False, with_modules=False,
                 use_kineto=False, use_cpu=True, experimental_config=None, acc_events=False,
                 custom_trace_id_callback=None, post_processing_timeout_s=None, activity_filters=None):
        self.enabled = enabled
        if not enabled:
            return
        if use_cuda:
            warnings.warn("The attribute `use_cuda` will be deprecated soon, please use "
                          "``use_device = 'cuda'`` instead.", FutureWarning, stacklevel=2)
            use_device = "cuda"
        if use_device == "cuda":
            warnings.warn("CUDA is not available, disabling CUDA profiling", UserWarning, stacklevel=2)
        self.use_device = None        # (the CPU only: no device columns in the table)
        self.record_shapes = record_shapes or with_flops
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.acc_events = acc_events
        self.entered = False
        self._ranges = []
        self._function_events = None

    def __enter__(self):
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        _start_collecting(self)
        return self

    def __exit__(self, *exc_info):
        if not self.enabled:
            return False
        stop_ns = time.perf_counter_ns()
        _stop_collecting(self)
        # (acc_events: the events of the earlier runs are kept, after the new ones, as in PyTorch)
        kept = list(self._function_events or []) if self.acc_events else []
        self._function_events = EventList(_events_of(self._ranges, self._start_ns, stop_ns) + kept,
                                          profile_memory=self.profile_memory)
        self._ranges = []
        return False

    def __repr__(self):
        if not self.enabled or self._function_events is None:
            return "<unfinished torch.autograd.profile>"
        return repr(self._function_events)

    def __str__(self):
        if not self.enabled or self._function_events is None:
            return "<unfinished torch.autograd.profile>"
        return str(self._function_events)

    @property
    def function_events(self):
        """Every range recorded, in the order they started (empty until the block ends)."""
        if self._function_events is None:
            self._function_events = EventList(profile_memory=self.profile_memory)
        return self._function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        """One row per name (and input shapes, with ``group_by_input_shape``): see EventList."""
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n,
                                                 group_by_overload_name)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        """Every range as a row of the table (usually wanted: ``key_averages().table(...)``)."""
        return self.function_events.table(
            sort_by=sort_by, row_limit=row_limit, max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width, header=header,
            top_level_events_only=top_level_events_only)

    def total_average(self):
        """All ranges added into one FunctionEventAvg (key ``'Total'``)."""
        return self.function_events.total_average()

    @property
    def self_cpu_time_total(self):
        """The self times of all ranges added up: the time the profile saw, in microseconds."""
        return self.function_events.self_cpu_time_total

    def export_stacks(self, path, metric="self_cpu_time_total"):
        """The events' Python stacks for flame graphs (only with ``with_stack=True``; minigrad
        records no stacks yet, so the file is empty)."""
        if not self.with_stack:
            raise AssertionError("export_stacks() requires with_stack=True")
        self.function_events.export_stacks(path, metric)

    def export_chrome_trace(self, path, metadata=None, use_python_export=False):
        """Write the ranges to ``path`` as a Chrome trace (``{"traceEvents": [...]}``; gzipped if
        the name ends in ``.gz``): open it in chrome://tracing or https://ui.perfetto.dev to see
        them on a time line."""
        import gzip
        import json
        from .profiler_util import _trace_events
        trace = {"schemaVersion": 1, "displayTimeUnit": "ms",
                 "traceEvents": _trace_events(self.function_events)}
        if metadata:
            trace.update(metadata)
        with (gzip.open if str(path).endswith(".gz") else open)(path, "wt") as file:
            json.dump(trace, file)


# --- switching the recording on and off ---------------------------------------------------------

def _start_collecting(profile):
    """Let ``profile`` collect; the first profiler on swaps the timed operations in."""
    from . import _operation_ranges, engine
    global _untimed_call_backward
    if not _Profiling.profiles:
        _operation_ranges.swap_in()
        _untimed_call_backward, engine.call_backward = engine.call_backward, timed_call_backward
        # the engine runs every node through call_backward while someone watches the pass as
        # minigrad.viz does: a leaf's AccumulateGrad too, which PyTorch's profile shows
        _Profiling.engine_watch = engine.observe(_watch_nothing)
    profile._start_ns = time.perf_counter_ns()      # (its times count from here)
    _Profiling.profiles.append(profile)
    _Profiling.record_shapes = any(p.record_shapes for p in _Profiling.profiles)
    _Profiling.profile_memory = any(p.profile_memory for p in _Profiling.profiles)
    _Profiling.on = True


def _stop_collecting(profile):
    """``profile`` stops collecting; the last profiler off puts the operations back."""
    from . import _operation_ranges, engine
    if profile in _Profiling.profiles:
        _Profiling.profiles.remove(profile)
    _Profiling.record_shapes = any(p.record_shapes for p in _Profiling.profiles)
    _Profiling.profile_memory = any(p.profile_memory for p in _Profiling.profiles)
    if not _Profiling.profiles:
        _Profiling.on = False
        _Profiling.open_ranges = []
        _Profiling.engine_watch.remove()
        engine.call_backward = _untimed_call_backward
        _operation_ranges.swap_out()


_untimed_call_backward = None    # engine.call_backward itself, while the timed one replaces it


def _watch_nothing(step):
    """The engine's observer while profiling (see _start_collecting): it only needs to be there."""


def _events_of(ranges, start_ns, stop_ns):
    """FunctionEvents of the ranges, each under the range it ran inside; a range never ended
    (a record_function entered and not left) ends when the profile stopped."""
    events = {}
    for number, recorded in enumerate(ranges, start=1):
        end_ns = recorded.end_ns if recorded.end_ns is not None else stop_ns
        event = FunctionEvent(number, recorded.name, thread=1,
                              start_us=(recorded.start_ns - start_ns) / 1000.0,
                              end_us=(end_ns - start_ns) / 1000.0,
                              input_shapes=recorded.input_shapes,
                              is_user_annotation=recorded.is_user_annotation)
        event.self_cpu_memory_usage = event.cpu_memory_usage = recorded.memory
        parent = events.get(recorded.parent)
        if parent is not None:
            event.cpu_parent = parent
            parent.cpu_children.append(event)
        events[recorded] = event
    for event in reversed(list(events.values())):      # (children first: they started later)
        if event.cpu_parent is not None:
            event.cpu_parent.cpu_memory_usage += event.cpu_memory_usage
    return list(events.values())
