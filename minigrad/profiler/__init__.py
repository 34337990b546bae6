"""torch.profiler: the profiler's newer front door (PyTorch: torch/profiler/).

    from torch.profiler import profile, record_function, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        with record_function("model_inference"):
            model(inputs)
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))

It records what ``torch.autograd.profiler.profile`` records (see minigrad/autograd/profiler.py)
and adds the choice of activities (the CPU is the only one minigrad has) and ``start()``,
``stop()``, ``events()`` for profiling without a ``with`` block.
"""
import enum
import warnings

from .._warnings import warn_once

from ..autograd import profiler as _autograd_profiler
from ..autograd.profiler import record_function  # noqa: F401
from ..autograd.profiler_util import DeviceType  # noqa: F401


class ProfilerActivity(enum.Enum):
    """What a profiler can time: ``CPU`` (operations on the processor). The others name
    accelerators, which minigrad does not have."""
    CPU = 0
    XPU = 1
    MTIA = 4
    CUDA = 2
    HPU = 3
    PrivateUse1 = 5

    def __str__(self):
        return f"ProfilerActivity.{self.name}"


def supported_activities():
    """The activities this build can time: the CPU only."""
    return {ProfilerActivity.CPU}


class profile:
    """Time the operations, backward nodes and ``record_function`` ranges of the ``with`` block
    (or between ``start()`` and ``stop()``); then ``prof.key_averages().table(...)``.

    ``activities`` defaults to every supported one (the CPU); ``record_shapes=True`` notes
    input shapes (``key_averages(group_by_input_shape=True)``). ``schedule`` and
    ``on_trace_ready`` are taken but minigrad profiles every step; the other arguments are
    taken and add nothing yet.
    """

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False,
                 use_cuda=None, custom_trace_id_callback=None, post_processing_timeout_s=None):
        self.activities = set(activities) if activities is not None else supported_activities()
        if ProfilerActivity.CUDA in self.activities:
            warnings.warn("CUDA is not available, disabling CUDA profiling", UserWarning, stacklevel=2)
        self.record_shapes = record_shapes
        self.acc_events = acc_events
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.profiler = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc_info):
        self.stop()
        return False

    def start(self):
        """Start timing."""
        if ProfilerActivity.CPU not in self.activities:
            raise AssertionError("No activities specified for the profiler")
        if self.profiler is not None and not self.acc_events:
            warn_once("Warning: Profiler clears events at the end of each cycle. Only events from the "
                      "current cycle will be reported. To keep events across cycles, set acc_events=True.")
        if self.profiler is None or not self.acc_events:
            self.profiler = _autograd_profiler.profile(record_shapes=self.record_shapes,
                                                       acc_events=self.acc_events)
        self.profiler.entered = False     # (each start begins a new cycle)
        self.profiler.__enter__()

    def stop(self):
        """Stop timing; the events are then ready, and ``on_trace_ready(self)`` is called."""
        if self.profiler is not None:
            self.profiler.__exit__(None, None, None)
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)

    def step(self):
        """Mark the end of one training step (minigrad keeps profiling every step)."""
        self.step_num += 1

    def events(self):
        """Every range recorded (an EventList of FunctionEvent)."""
        return self.profiler.function_events if self.profiler is not None else None

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        """One row per name (and input shapes, with ``group_by_input_shape``)."""
        return self.profiler.key_averages(group_by_input_shape, group_by_stack_n, group_by_overload_name)

    def export_chrome_trace(self, path):
        """Write the ranges to ``path`` as a Chrome trace (chrome://tracing, ui.perfetto.dev)."""
        return self.profiler.export_chrome_trace(path)
