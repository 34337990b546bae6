"""torch.profiler: the profiler's newer front door (PyTorch: torch/profiler/).

    from torch.profiler import profile, record_function, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        with record_function("model_inference"):
            model(inputs)
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))

It records what ``torch.autograd.profiler.profile`` records (minigrad/autograd/profiler.py),
and adds the choice of activities (the CPU is the only one minigrad has) and profiling in
steps: with ``schedule=schedule(wait=1, warmup=1, active=2)``, each ``prof.step()`` ends a
training step, and the schedule says which steps are recorded (each inside a range
``ProfilerStep#<n>``, shown as ``ProfilerStep*`` in the table); ``on_trace_ready(prof)`` is
called at the end of every recorded cycle.
"""
import enum
import os
import warnings

from .._warnings import warn_once
from ..autograd import profiler as _autograd_profiler
from ..autograd.profiler import record_function  # noqa: F401
from ..autograd.profiler_util import DeviceType, ProfilerActivity  # noqa: F401


def supported_activities():
    """The activities this build can time: the CPU only."""
    return {ProfilerActivity.CPU}


class ProfilerAction(enum.Enum):
    """What the profiler does during a step, as a ``schedule`` says: nothing, warm up (ready,
    not recording), record, or record and then hand the cycle to ``on_trace_ready``."""
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3
    DEVICE_STOPPED = 4


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """Which steps to record: after ``skip_first`` steps, cycles of ``wait`` steps doing
    nothing, ``warmup`` steps warming up and ``active`` steps recording (the last one
    saving), ``repeat`` times (0: as long as the program steps). ``skip_first_wait`` leaves
    out the first cycle's wait. Returns a function from the step number to a ProfilerAction."""
    if not (wait >= 0 and warmup >= 0 and active > 0 and repeat >= 0 and skip_first >= 0):
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup={warmup} "
            f"(need >= 0), active={active} (need > 0), repeat={repeat} (need >= 0), "
            f"skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results", stacklevel=2)
    cycle = wait + warmup + active

    def action_at(step):
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait:             # (the first cycle starts without its wait)
            step += wait
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        place = step % cycle
        if place < wait:
            return ProfilerAction.NONE
        if place < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if place < cycle - 1 else ProfilerAction.RECORD_AND_SAVE
    return action_at


_NONE, _WARMUP, _RECORD, _SAVE = (ProfilerAction.NONE, ProfilerAction.WARMUP, ProfilerAction.RECORD,
                                  ProfilerAction.RECORD_AND_SAVE)
_CYCLE_ENDS = ("_stop_recording", "_trace_ready")          # (stop, then on_trace_ready)

# What the profiler does when the action changes from one step to the next (PyTorch's table;
# None: the profiler stops). A cycle is prepared (a new profiler), recorded, then handed over.
_CHANGES = {
    (_NONE, _WARMUP): ("_prepare",),
    (_NONE, _RECORD): ("_prepare", "_start_recording"),
    (_NONE, _SAVE): ("_prepare", "_start_recording"),
    (_WARMUP, _NONE): ("warn", "_start_recording", "_stop_recording"),
    (_WARMUP, _RECORD): ("_start_recording",),
    (_WARMUP, _SAVE): ("_start_recording",),
    (_RECORD, _NONE): ("warn", "_stop_recording"),
    (_RECORD, _WARMUP): ("warn", "_stop_recording"),
    (_SAVE, _NONE): _CYCLE_ENDS,
    (_SAVE, _WARMUP): _CYCLE_ENDS + ("_prepare",),
    (_SAVE, _RECORD): _CYCLE_ENDS + ("_prepare", "_start_recording"),
    (_SAVE, _SAVE): _CYCLE_ENDS + ("_prepare", "_start_recording"),
    (_WARMUP, None): ("_start_recording", "_stop_recording"),
    (_RECORD, None): _CYCLE_ENDS,
    (_SAVE, None): _CYCLE_ENDS,
}


def _record_every_step(step):
    """Without a schedule: every step is recorded, from start to stop."""
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False, use_python_export=False):
    """An ``on_trace_ready`` that writes each cycle's Chrome trace into the folder ``dir_name``
    (named ``<worker_name>.<time in ns>.pt.trace.json``; the worker's name is
    ``<host name>_<process id>`` unless given), for TensorBoard or chrome://tracing."""
    import socket
    import time

    def write_trace(prof):
        nonlocal worker_name
        if not os.path.isdir(dir_name):
            try:
                os.makedirs(dir_name, exist_ok=True)
            except Exception as error:
                raise RuntimeError("Can't create directory: " + dir_name) from error
        if not worker_name:
            worker_name = f"{socket.gethostname()}_{os.getpid()}"
        file_name = f"{worker_name}.{time.time_ns()}.pt.trace.json" + (".gz" if use_gzip else "")
        prof.export_chrome_trace(os.path.join(dir_name, file_name))
    return write_trace


class profile:
    """Time the operations, backward nodes and ``record_function`` ranges of the ``with`` block
    (or between ``start()`` and ``stop()``); then ``prof.key_averages().table(...)``.

    ``activities`` defaults to every supported one (the CPU); ``record_shapes=True`` notes
    input shapes (``key_averages(group_by_input_shape=True)``); ``schedule`` and
    ``on_trace_ready``: see the top of this file. ``profile_memory=True`` adds the memory
    columns; ``acc_events=True`` keeps the events of earlier cycles. The other arguments are
    taken and add nothing yet.
    """

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False,
                 use_cuda=None, custom_trace_id_callback=None, post_processing_timeout_s=None):
        self.activities = set(activities) if activities is not None else supported_activities()
        if ProfilerActivity.CUDA in self.activities:
            warnings.warn("CUDA is not available, disabling CUDA profiling", UserWarning, stacklevel=2)
        self.record_shapes = record_shapes or with_flops      # (as in PyTorch)
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.acc_events = acc_events
        self.on_trace_ready = on_trace_ready
        self.record_steps = schedule is not None    # (each step in its range, only with a schedule)
        self.schedule = schedule if schedule is not None else _record_every_step
        self.step_num = 0
        self.current_action = self.schedule(0)
        self.profiler = None          # the autograd profiler of the current cycle
        self._step_range = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc_info):
        self.stop()
        return False

    def start(self):
        """Start: record now if the schedule says so for step 0."""
        self._change(ProfilerAction.NONE, self.current_action)
        self._open_step_range()

    def stop(self):
        """Stop: the current cycle's events are then ready, and ``on_trace_ready`` is called
        if it was recording."""
        self._close_step_range()
        self._change(self.current_action, None)

    def step(self):
        """Mark the start of the next step: the schedule decides what to do in it."""
        self._close_step_range()
        before = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._change(before, self.current_action)
        self._open_step_range()

    # --- what happens between two steps, as PyTorch's profiler does it ---

    def _change(self, before, now):
        """Go from the action ``before`` to ``now`` (None: the profiler stops): the steps
        ``_CHANGES`` lists, in order."""
        for name in _CHANGES.get((before, now), ()):
            if name == "warn":
                warnings.warn(f"Incorrect schedule: {before.name} followed by {now.name}", stacklevel=3)
            else:
                getattr(self, name)()

    def _prepare(self):
        """A new cycle: a new autograd profiler (or the same one, with ``acc_events``)."""
        if self.profiler is not None and not self.acc_events:
            warn_once("Warning: Profiler clears events at the end of each cycle. Only events from the "
                      "current cycle will be reported. To keep events across cycles, set acc_events=True.")
        if self.profiler is None or not self.acc_events:
            self.profiler = _autograd_profiler.profile(record_shapes=self.record_shapes,
                                                       profile_memory=self.profile_memory,
                                                       with_stack=self.with_stack,
                                                       acc_events=self.acc_events)

    def _start_recording(self):
        if ProfilerActivity.CPU not in self.activities:
            raise AssertionError("No activities specified for the profiler")
        self.profiler.entered = False       # (with acc_events, the same profiler runs again)
        self.profiler.__enter__()

    def _stop_recording(self):
        self.profiler.__exit__(None, None, None)

    def _trace_ready(self):
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def _open_step_range(self):
        if self.record_steps:
            self._step_range = record_function(f"ProfilerStep#{self.step_num}")
            self._step_range.__enter__()

    def _close_step_range(self):
        if self._step_range is not None:
            self._step_range.__exit__(None, None, None)
            self._step_range = None

    # --- the results ---

    def events(self):
        """Every range of the last cycle (an EventList of FunctionEvent)."""
        return self.profiler.function_events if self.profiler is not None else None

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        """One row per name (and input shapes, with ``group_by_input_shape``)."""
        return self.profiler.key_averages(group_by_input_shape, group_by_stack_n, group_by_overload_name)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        """The events' Python stacks for flame graphs (see the autograd profiler's)."""
        return self.profiler.export_stacks(path, metric)

    def export_chrome_trace(self, path, use_python_export=False):
        """Write the ranges to ``path`` as a Chrome trace (chrome://tracing, ui.perfetto.dev)."""
        return self.profiler.export_chrome_trace(path)
