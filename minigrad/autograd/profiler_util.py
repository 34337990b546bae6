"""What a profile holds, and the table it prints (PyTorch: torch/autograd/profiler_util.py).

* ``FunctionEvent``    - one timed range: an operation (``aten::mul``), a backward node's run
                         (``MulBackward0``) or a ``record_function`` label, with its children
* ``FunctionEventAvg`` - all the events of one name added up (``# of Calls``, total times)
* ``EventList``        - a list of either, with ``key_averages()``, ``table()``,
                         ``total_average()`` and ``export_chrome_trace()``
* ``ProfilerActivity``, ``DeviceType`` - what can be timed, where an event ran (the CPU)

Times are in microseconds, as in PyTorch. An event's *total* time runs from its start to its
end; its *self* time is what is left after taking away its children's totals: the time spent
in that operation itself rather than in the operations it called.
"""
import enum
from collections import defaultdict


class DeviceType(enum.Enum):
    """Where an event ran. minigrad computes on the CPU only."""
    CPU = 0


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


class Interval:
    """An event's start and end, in microseconds since the profile began."""

    def __init__(self, start, end):
        self.start = start
        self.end = end

    def elapsed_us(self):
        """How long the event took, in microseconds."""
        return self.end - self.start


def _format_time(time_us):
    """A time as the table prints it: seconds, milliseconds or microseconds, 3 decimals."""
    if time_us >= 1000.0 * 1000.0:
        return f"{time_us / (1000.0 * 1000.0):.3f}s"
    if time_us >= 1000.0:
        return f"{time_us / 1000.0:.3f}ms"
    return f"{time_us:.3f}us"


def _format_memory(nbytes):
    """A number of bytes as the table prints it: B, KB, MB or GB (of 1024), 2 decimals."""
    for unit, size in (("GB", 1024 ** 3), ("MB", 1024 ** 2), ("KB", 1024)):
        if abs(nbytes) >= size:
            return f"{nbytes / size:.2f} {unit}"
    return f"{nbytes} B"


def _format_time_share(time_us, total_time_us):
    """A time as a percentage of the whole profile's self time."""
    if total_time_us == 0:
        return "NaN"
    return f"{time_us * 100.0 / total_time_us:.2f}%"


class _EventFields:
    """What FunctionEvent and FunctionEventAvg share: the average time of one call, the
    ``*_str`` forms of the times as the table prints them, and PyTorch's fields for what a CPU
    profile of minigrad does not have (device times and memory are 0: sorting by
    ``cuda_time_total`` works, as in PyTorch, and sorts nothing)."""

    self_device_time_total = device_time_total = device_time = 0
    self_cuda_time_total = cuda_time_total = cuda_time = 0
    cpu_memory_usage = self_cpu_memory_usage = 0
    device_memory_usage = self_device_memory_usage = 0
    flops = 0
    is_async = is_remote = is_legacy = is_user_annotation = False
    node_id = -1
    device_type = DeviceType.CPU
    use_device = None
    overload_name = ""

    @property
    def cpu_time(self):
        """The average time of one call, children included."""
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    @property
    def cpu_time_str(self):
        """``cpu_time`` as the table prints it."""
        return _format_time(self.cpu_time)

    @property
    def cpu_time_total_str(self):
        """``cpu_time_total`` as the table prints it."""
        return _format_time(self.cpu_time_total)

    @property
    def self_cpu_time_total_str(self):
        """``self_cpu_time_total`` as the table prints it."""
        return _format_time(self.self_cpu_time_total)

    device_time_str = device_time_total_str = self_device_time_total_str = _format_time(0.0)


class FunctionEvent(_EventFields):
    """One timed range of a profile: its ``name``, ``time_range``, the events that ran inside
    it (``cpu_children``) and the one it ran inside (``cpu_parent``, None at the top)."""

    def __init__(self, id, name, thread, start_us, end_us, input_shapes=None, sequence_nr=-1,
                 is_user_annotation=False):
        self.id = id
        # (torch.profiler's steps, ProfilerStep#1, #2, ..., are one name in the table)
        self.name = "ProfilerStep*" if name.startswith("ProfilerStep#") else name
        self.key = self.name                  # what key_averages groups by
        self.trace_name = name
        self.thread = thread
        self.fwd_thread = 0
        self.time_range = Interval(start_us, end_us)
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.sequence_nr = sequence_nr
        self.is_user_annotation = is_user_annotation
        self.cpu_children = []
        self.cpu_parent = None
        self.stack = []
        self.scope = 0
        self.count = 1
        self.kernels = []

    @property
    def cpu_time_total(self):
        """From start to end, the events inside included."""
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self):
        """The total less the totals of the events that ran directly inside this one."""
        return self.cpu_time_total - sum(child.cpu_time_total for child in self.cpu_children)

    def __repr__(self):
        # (PyTorch's fields, its device ones included: "None" names the device a CPU profile lacks)
        return (f"<FunctionEvent id={self.id} name={self.name} overload_name={self.overload_name} "
                f"device_type={self.device_type} node_id={self.node_id} cpu_time={self.cpu_time_str} "
                f"start_us={self.time_range.start} end_us={self.time_range.end} "
                f"cpu_children={[child.id for child in self.cpu_children]} None_time={self.device_time_str} "
                f"name={self.name} thread={self.thread} input_shapes={self.input_shapes} "
                f"cpu_memory_usage={self.cpu_memory_usage} None_memory_usage={self.device_memory_usage} "
                f"is_async={self.is_async} is_remote={self.is_remote} seq_nr={self.sequence_nr} "
                f"is_legacy={self.is_legacy}>")


class FunctionEventAvg(_EventFields):
    """The events of one key added up: how often it ran (``count``) and the times of all runs
    (``cpu_time_total``, ``self_cpu_time_total``; ``cpu_time`` is the average)."""

    def __init__(self):
        self.key = None
        self.count = 0
        self.cpu_time_total = 0
        self.self_cpu_time_total = 0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.input_shapes = None
        self.cpu_parent = None
        self.stack = []
        self.scope = None

    def add(self, other):
        """Add one event (or another average) to this one; the first sets the key."""
        if self.key is None:
            self.key = other.key
            self.input_shapes = other.input_shapes
            self.cpu_parent = other.cpu_parent
            self.is_user_annotation = other.is_user_annotation
            self.stack = other.stack
            self.scope = other.scope
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        self.count += other.count
        return self

    def __iadd__(self, other):
        return self.add(other)

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str}  self_cuda_time={self.self_device_time_total_str} "
                f"cuda_time={self.device_time_str} input_shapes={self.input_shapes} "
                f"cpu_memory_usage={self.cpu_memory_usage} cuda_memory_usage={self.device_memory_usage}>")


class EventList(list):
    """A list of events (``FunctionEvent`` or ``FunctionEventAvg``) that can sum itself up."""

    def __init__(self, *args, use_device=None, profile_memory=False, with_flops=False):
        super().__init__(*args)
        self._profile_memory = profile_memory     # (the table then has the memory columns)

    def __str__(self):
        return self.table()

    @property
    def self_cpu_time_total(self):
        """The time of the whole profile: the self times of all events added up."""
        return sum(event.self_cpu_time_total for event in self)

    def key_averages(self, group_by_input_shapes=False, group_by_stack_n=0, group_by_overload_name=False):
        """One ``FunctionEventAvg`` per event name, in the order the names first ran; with
        ``group_by_input_shapes``, one per name and input shapes."""
        averages = defaultdict(FunctionEventAvg)
        for event in self:
            key = (event.key, str(event.input_shapes)) if group_by_input_shapes else event.key
            averages[key].add(event)
        result = EventList(averages.values(), profile_memory=self._profile_memory)
        for average in result:
            average.stack = []
            if not group_by_input_shapes:
                average.input_shapes = ""
        return result

    def total_average(self):
        """Every event added into one ``FunctionEventAvg`` with the key ``'Total'``."""
        total = FunctionEventAvg()
        for event in self:
            total.add(event)
        total.key = "Total"
        return total

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False, time_unit=None):
        """The events as a text table, one row each (see ``_build_table``).

        ``sort_by`` names an attribute of the events, largest first: ``"self_cpu_time_total"``,
        ``"cpu_time_total"``, ``"cpu_time"``, ``"count"``, ... (``cuda``/``device`` times are 0 on
        a CPU). ``row_limit`` rows at most are printed."""
        return _build_table(self, sort_by=sort_by, row_limit=row_limit, header=header,
                            profile_memory=self._profile_memory,
                            max_name_column_width=max_name_column_width,
                            max_shapes_column_width=max_shapes_column_width,
                            top_level_events_only=top_level_events_only, time_unit=time_unit)

    def export_stacks(self, path, metric):
        """Write the events' Python stacks to ``path`` for flame graphs (see _export_stacks)."""
        _export_stacks(self, path, metric)

    def export_chrome_trace(self, path):
        """Write the events to ``path`` in the Chrome trace format: open it in chrome://tracing
        or https://ui.perfetto.dev to see every range on a time line."""
        import json         # (only here: most programs never write a trace)
        with open(path, "w") as file:
            json.dump(_trace_events(self), file)


_STACK_METRICS = ["self_cpu_time_total", "self_cuda_time_total", "self_xpu_time_total",
                  "self_privateuse1_time_total"]


def _export_stacks(events, path, metric):
    """Write one line per event that has a Python stack, for flame graphs: the stack's frames
    (outermost first, joined by ``;``) and the event's ``metric``. minigrad records no stacks
    yet, so the file is empty (as PyTorch's is for the operations it records)."""
    if metric not in _STACK_METRICS:
        raise ValueError("metric should be one of: " + str(_STACK_METRICS))
    with open(path, "w") as file:
        for event in events:
            if event.stack:
                value = int(getattr(event, metric.replace("cuda", "device").replace("xpu", "device")
                                    .replace("privateuse1", "device")))
                if value > 0:
                    file.write(";".join(reversed(event.stack)) + f" {value}\n")


def _trace_events(events):
    """The events as Chrome's "complete" events (``ph: X``): name, start, duration, thread."""
    return [{"name": event.trace_name, "ph": "X", "cat": "user_annotation" if event.is_user_annotation
             else "cpu_op", "ts": event.time_range.start, "dur": event.time_range.elapsed_us(),
             "tid": event.thread, "pid": "CPU functions", "args": {}}
            for event in events]


# --- the table -------------------------------------------------------------------------------

_COLUMN_WIDTH = 12
_SPACING = 2                      # two spaces after every column, the last one included


def _build_table(events, sort_by=None, header=None, row_limit=100, max_name_column_width=55,
                 max_shapes_column_width=80, top_level_events_only=False, time_unit=None,
                 profile_memory=False):
    """PyTorch's table: a name column (as wide as the longest name plus 4, at most
    ``max_name_column_width``; longer names are cut and end in ``...``), then right-aligned
    columns of 12 characters, an ``Input Shapes`` column when shapes were recorded, a ruler
    of dashes above and below the header and at the end, and the total self time last."""
    if len(events) == 0:
        return ""
    if sort_by is not None:       # (an unknown name: the events' own AttributeError)
        attribute = sort_by.replace("cuda", "device").replace("xpu", "device").replace("privateuse1", "device")
        events = sorted(events, key=lambda event: getattr(event, attribute), reverse=True)
    has_input_shapes = any(event.input_shapes for event in events)
    name_width = max(len(event.key) for event in events) + 4
    if max_name_column_width is not None:
        name_width = min(name_width, max_name_column_width)
    shapes_width = max(len(str(event.input_shapes)) for event in events) + 4
    if max_shapes_column_width is not None:
        shapes_width = min(shapes_width, max_shapes_column_width)

    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if profile_memory:
        headers += ["CPU Mem", "Self CPU Mem"]
    headers.append("# of Calls")
    widths = [name_width] + [_COLUMN_WIDTH] * (len(headers) - 1)
    if has_input_shapes:
        headers.append("Input Shapes")
        widths.append(shapes_width)
    row_format = "".join("{:>" + str(width) + "}" + " " * _SPACING for width in widths)
    ruler = "".join("-" * width + " " * _SPACING for width in widths)
    line_length = sum(width + _SPACING for width in widths) - _SPACING

    total_self_time = sum(event.self_cpu_time_total for event in events)
    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_events_only:
        lines += ["=" * line_length, "This report only display top-level ops statistics"]
    lines += [ruler, row_format.format(*headers), ruler]
    rows = 0
    for event in events:
        if rows == row_limit:
            break
        if top_level_events_only and event.cpu_parent is not None:
            continue
        rows += 1
        name = event.key
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            name = name[:max_name_column_width - 3] + "..."
        values = [name,
                  _format_time_share(event.self_cpu_time_total, total_self_time),
                  _in_unit(event.self_cpu_time_total, time_unit),
                  _format_time_share(event.cpu_time_total, total_self_time),
                  _in_unit(event.cpu_time_total, time_unit),
                  _in_unit(event.cpu_time, time_unit)]
        if profile_memory:
            values += [_format_memory(event.cpu_memory_usage), _format_memory(event.self_cpu_memory_usage)]
        values.append(event.count)
        if has_input_shapes:
            values.append(str(event.input_shapes)[:shapes_width])
        lines.append(row_format.format(*values))
    lines += [ruler, f"Self CPU time total: {_in_unit(total_self_time, time_unit)}"]
    return "".join(line + "\n" for line in lines)


def _in_unit(time_us, time_unit):
    """A time in the unit asked for (``'s'``, ``'ms'``, ``'us'``), or in the one that suits it."""
    if time_unit == "s":
        return f"{time_us / (1000.0 * 1000.0):.3f}s"
    if time_unit == "ms":
        return f"{time_us / 1000.0:.3f}ms"
    if time_unit == "us":
        return f"{time_us:.3f}us"
    return _format_time(time_us)
