"""The profiler (torch.autograd.profiler, torch.profiler) against PyTorch's.

Times differ from run to run and between the libraries; what must agree is the structure:
the names of the ranges, how often each runs, which range runs inside which, the table's
header lines and columns, the sorting, the errors and warnings.
"""
import gzip
import json
import warnings

import pytest

import minigrad
from conftest import import_torch

torch = import_torch()


def profiled(lib, program, **options):
    """Run ``program(lib)`` under ``lib.autograd.profiler.profile(**options)``; the profile."""
    with lib.autograd.profiler.profile(**options) as prof:
        program(lib)
    return prof


def top_level(prof):
    return [event.name for event in prof.function_events if event.cpu_parent is None]


def children(prof, name):
    """The names directly inside each range called ``name``, one list per range."""
    return [[child.name for child in event.cpu_children] for event in prof.function_events
            if event.name == name]


def reference_example(lib):
    """The example of PyTorch's autograd reference page."""
    x = lib.randn((1, 1), requires_grad=True)
    for _ in range(100):
        y = x ** 2
        y.backward()


def test_the_reference_example_records_what_pytorch_records():
    mine, theirs = profiled(minigrad, reference_example), profiled(torch, reference_example)
    assert top_level(mine) == top_level(theirs)
    assert top_level(mine)[:5] == ["aten::randn", "aten::pow", "aten::ones_like",
                                  "autograd::engine::evaluate_function: PowBackward0",
                                  "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad"]
    for node in ("PowBackward0", "torch::autograd::AccumulateGrad"):
        outer = "autograd::engine::evaluate_function: " + node
        assert children(mine, outer) == children(theirs, outer) == [[node]] * 100
    # the operations PowBackward0's formula calls run inside it (PyTorch: pow, mul, mul)
    assert all(names[0] == "aten::pow" and "aten::mul" in names for names in children(mine, "PowBackward0"))
    # key_averages: the same rows for the names at the top, with the same counts
    counts = [{row.key: row.count for row in prof.key_averages()} for prof in (mine, theirs)]
    for name in set(top_level(theirs)):
        assert counts[0][name] == counts[1][name]


def test_the_table_has_pytorchs_layout():
    tables = [profiled(lib, reference_example).key_averages().table(sort_by="self_cpu_time_total")
              for lib in (minigrad, torch)]
    mine, theirs = (table.split("\n") for table in tables)
    assert mine[:3] == theirs[:3]           # ruler, column names, ruler (the name column: 55 wide)
    assert mine[0].startswith("-" * 55 + "  " + "-" * 12 + "  ")
    assert mine[1].split() == theirs[1].split() == [
        "Name", "Self", "CPU", "%", "Self", "CPU", "CPU", "total", "%", "CPU", "total", "CPU", "time",
        "avg", "#", "of", "Calls"]
    assert mine[-3] == theirs[-3] == mine[0]          # the closing ruler
    assert mine[-2].startswith("Self CPU time total: ") and theirs[-2].startswith("Self CPU time total: ")
    assert mine[-1] == theirs[-1] == ""
    # a long name is cut to 52 characters and '...'
    row = next(line for line in mine if "torch::autograd..." in line)
    assert row.startswith("autograd::engine::evaluate_function: torch::autograd...  ")
    for table in (mine, theirs):            # every row as wide as the ruler, times with units
        rows = table[3:-3]
        assert all(len(line) == len(table[0]) for line in rows)
        assert all(line.split()[-2].endswith(("us", "ms", "s")) for line in rows)


def test_the_rows_are_sorted_largest_first_and_cut_at_row_limit():
    for lib in (minigrad, torch):
        averages = profiled(lib, reference_example).key_averages()
        for key in ("self_cpu_time_total", "cpu_time_total", "cpu_time", "count"):
            lines = averages.table(sort_by=key, row_limit=3).split("\n")
            assert len(lines) == 3 + 3 + 3
            names = [line[:55].strip() for line in lines[3:6]]
            expected = sorted(averages, key=lambda row: getattr(row, key), reverse=True)[:3]
            assert names == [row.key if len(row.key) < 52 else row.key[:52] + "..." for row in expected]
        # sorting by a device's time is allowed, and sorts nothing on a CPU
        assert averages.table(sort_by="cuda_time_total").split("\n")[:3] == averages.table().split("\n")[:3]


@pytest.mark.parametrize("key", ["cpu_time_foo", "name", "self_cpu"])
def test_an_unknown_sort_key_gives_pytorchs_error(key):
    errors = []
    for lib in (minigrad, torch):
        averages = profiled(lib, reference_example).key_averages()
        with pytest.raises(Exception) as error:
            averages.table(sort_by=key)
        errors.append((type(error.value), str(error.value)))
    assert errors[0] == errors[1]
    assert errors[0] == (AttributeError, f"'FunctionEventAvg' object has no attribute '{key}'")


def nested_ranges(lib):
    x = lib.ones(2, 3, requires_grad=True)
    with lib.autograd.profiler.record_function("outer"):
        y = x * 2
        with lib.autograd.profiler.record_function("inner"):
            z = y.sum()
        w = lib.relu(y)
    (z + w.mean()).backward()


def test_record_function_ranges_nest_as_in_pytorch():
    mine, theirs = profiled(minigrad, nested_ranges), profiled(torch, nested_ranges)
    assert children(mine, "outer") == children(theirs, "outer") == [["aten::mul", "inner", "aten::relu"]]
    assert children(mine, "inner") == children(theirs, "inner") == [["aten::sum"]]
    assert top_level(mine) == top_level(theirs)
    event = next(e for e in mine.function_events if e.name == "inner")
    assert event.cpu_parent.name == "outer"
    assert event.time_range.start >= event.cpu_parent.time_range.start
    assert event.time_range.end <= event.cpu_parent.time_range.end


def test_record_function_is_also_a_decorator_and_does_nothing_without_a_profiler():
    names = []
    for lib in (minigrad, torch):
        @lib.autograd.profiler.record_function("step")
        def step(x):
            return x.exp()
        x = lib.ones(2)
        with lib.autograd.profiler.profile() as prof:
            step(x)
            step(x)
        names.append((top_level(prof), children(prof, "step")))
    assert names[0] == names[1] == (["step", "step"], [["aten::exp"], ["aten::exp"]])
    with minigrad.autograd.profiler.record_function("alone"):
        minigrad.ones(2).exp()


def shapes_program(lib):
    a, b = lib.ones(2, 3), lib.ones(4)
    for _ in range(3):
        a * a
    b * b


def test_group_by_input_shape_keeps_the_shapes_apart():
    results = []
    for lib in (minigrad, torch):
        prof = profiled(lib, shapes_program, record_shapes=True)
        grouped = prof.key_averages(group_by_input_shape=True)
        rows = [(row.key, row.count, row.input_shapes[0]) for row in grouped if row.key == "aten::mul"]
        plain = [(row.key, row.count, row.input_shapes) for row in prof.key_averages() if row.key == "aten::mul"]
        header = grouped.table().split("\n")[1].split()
        results.append((rows, plain, header))
    assert results[0] == results[1]
    assert results[0][0] == [("aten::mul", 3, [2, 3]), ("aten::mul", 1, [4])]
    assert results[0][1] == [("aten::mul", 4, "")]
    assert results[0][2][-2:] == ["Input", "Shapes"]
    without_shapes = profiled(minigrad, shapes_program).key_averages(group_by_input_shape=True)
    assert "Input Shapes" not in without_shapes.table()


def test_totals_agree_with_the_events():
    for lib in (minigrad, torch):
        prof = profiled(lib, nested_ranges)
        events, averages = prof.function_events, prof.key_averages()
        total = averages.total_average()
        assert type(total).__name__ == "FunctionEventAvg" and total.key == "Total"
        assert total.count == len(events) == sum(row.count for row in averages)
        assert prof.self_cpu_time_total == pytest.approx(sum(e.self_cpu_time_total for e in events))
        assert prof.self_cpu_time_total == pytest.approx(averages.self_cpu_time_total)
        assert prof.self_cpu_time_total == pytest.approx(total.self_cpu_time_total)
        for event in events:        # self time: the total less the children's totals
            assert event.self_cpu_time_total == pytest.approx(
                event.cpu_time_total - sum(child.cpu_time_total for child in event.cpu_children))
        assert type(events).__name__ == type(averages).__name__ == "EventList"
        assert type(events[0]).__name__ == "FunctionEvent"


def test_using_a_profiler_twice_and_before_it_ran():
    for lib in (minigrad, torch):
        prof, x = lib.autograd.profiler.profile(), lib.ones(1)
        assert repr(prof) == "<unfinished torch.autograd.profile>"
        assert prof.key_averages() == [] and prof.table() == ""
        with prof:
            x * 2
            assert list(prof.key_averages()) == []      # ready when the block ends
        assert top_level(prof) == ["aten::mul"]
        with pytest.raises(RuntimeError, match="^Profiler context manager is not reentrant$"):
            prof.__enter__()
        with lib.autograd.profiler.profile(enabled=False) as nothing:
            assert nothing is None


def test_a_second_profiler_starts_afresh():
    for lib in (minigrad, torch):
        x = lib.ones(1)
        first = profiled(lib, lambda lib: x * 2)
        second = profiled(lib, lambda lib: x.exp())
        assert top_level(first) == ["aten::mul"]
        assert top_level(second) == ["aten::exp"]


def test_use_cuda_warns_as_pytorch_does():
    messages = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            prof = lib.autograd.profiler.profile(use_cuda=True)
        messages.append([(w.category, str(w.message)) for w in caught])
        with prof:
            lib.ones(1) + 1
        assert "Self CUDA" not in prof.key_averages().table()
    assert messages[0] == messages[1]
    assert [category for category, _ in messages[0]] == [FutureWarning, UserWarning]


def test_chrome_trace(tmp_path):
    traces = []
    for lib in (minigrad, torch):
        prof = profiled(lib, nested_ranges)
        path = tmp_path / f"{lib.__name__}.json"
        prof.export_chrome_trace(str(path))
        trace = json.loads(path.read_text())
        complete = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
        assert all({"name", "ts", "dur", "tid", "pid"} <= set(e) for e in complete)
        traces.append({e["name"]: e["cat"] for e in complete if e["name"] in ("outer", "inner", "aten::relu")})
    assert traces[0] == traces[1] == {"outer": "user_annotation", "inner": "user_annotation",
                                      "aten::relu": "cpu_op"}


def model_program(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 1))
    inputs = lib.randn(5, 3)
    with lib.profiler.record_function("model_inference"):
        model(inputs)


def test_torch_profiler_with_activities_and_record_shapes():
    results = []
    for lib in (minigrad, torch):
        with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU], record_shapes=True) as prof:
            model_program(lib)
        assert type(prof.events()).__name__ == "EventList"
        inside = [[child.name for child in e.cpu_children] for e in prof.events() if e.name == "model_inference"]
        shapes = [(row.key, row.input_shapes) for row in prof.key_averages(group_by_input_shape=True)
                  if row.key == "aten::linear"]
        header = prof.key_averages().table(sort_by="cpu_time_total", row_limit=10).split("\n")[1]
        results.append((inside, shapes, header.split()))
    assert results[0] == results[1]
    assert results[0][0] == [["aten::linear", "aten::relu", "aten::linear"]]
    assert results[0][1] == [("aten::linear", [[5, 3], [4, 3], [4]]), ("aten::linear", [[5, 4], [1, 4], [1]])]


def test_profiler_activity_and_names():
    mine, theirs = minigrad.profiler.ProfilerActivity, torch.profiler.ProfilerActivity
    assert list(mine.__members__) == list(theirs.__members__)
    assert [int(theirs.__members__[name]) for name in theirs.__members__] == [m.value for m in mine]
    assert str(mine.CPU) == str(theirs.CPU) == "ProfilerActivity.CPU"
    assert minigrad.profiler.supported_activities() == {mine.CPU}
    assert minigrad.profiler.record_function is minigrad.autograd.profiler.record_function
    assert minigrad.autograd.profiler.ProfilerActivity is mine
    for name in ("profile", "record_function", "EventList", "FunctionEvent", "ProfilerActivity", "DeviceType"):
        assert hasattr(minigrad.autograd.profiler, name) and hasattr(torch.autograd.profiler, name)
    for name in ("profile", "record_function", "ProfilerActivity", "supported_activities"):
        assert hasattr(minigrad.profiler, name) and hasattr(torch.profiler, name)


# programs whose operations both libraries call the same way: the ranges at the top agree
SAME_OPERATIONS = {
    "zeros": lambda t, x, w: t.zeros(2),
    "randn": lambda t, x, w: t.randn(2),
    "x.float": lambda t, x, w: x.float(),
    "x.detach": lambda t, x, w: x.detach(),
    "x.t": lambda t, x, w: x.t(),
    "x.T": lambda t, x, w: x.T,
    "x[0]": lambda t, x, w: x[0],
    "x[:, 1:]": lambda t, x, w: x[:, 1:],
    "x.exp": lambda t, x, w: x.exp(),
    "x.sum": lambda t, x, w: x.sum(),
    "x.mean": lambda t, x, w: x.mean(),
    "x.view": lambda t, x, w: x.view(6),
    "x.reshape": lambda t, x, w: x.reshape(6),
    "x.clone": lambda t, x, w: x.clone(),
    "x.size": lambda t, x, w: x.size(),
    "-x": lambda t, x, w: -x,
    "x + 1": lambda t, x, w: x + 1,
    "1 + x": lambda t, x, w: 1 + x,
    "1 - x": lambda t, x, w: 1 - x,
    "x / 2": lambda t, x, w: x / 2,
    "x ** 2": lambda t, x, w: x ** 2,
    "2 ** x": lambda t, x, w: 2 ** x,
    "x @ w.T": lambda t, x, w: x @ w.T,
    "x > 0": lambda t, x, w: x > 0,
    "abs(x)": lambda t, x, w: abs(x),
    "x // 2": lambda t, x, w: x // 2,
    "x % 2": lambda t, x, w: x % 2,
    "x.add_": lambda t, x, w: x.detach().add_(1),
    "F.relu": lambda t, x, w: t.nn.functional.relu(x),
    "F.linear": lambda t, x, w: t.nn.functional.linear(x, w),
    "F.softmax": lambda t, x, w: t.nn.functional.softmax(x, dim=1),
    "F.log_softmax": lambda t, x, w: t.nn.functional.log_softmax(x, 1),
    "F.sigmoid": lambda t, x, w: t.nn.functional.sigmoid(x),
    "F.gelu": lambda t, x, w: t.nn.functional.gelu(x),
    "torch.cat": lambda t, x, w: t.cat([x, x]),
    "torch.stack": lambda t, x, w: t.stack([x, x]),
    "torch.matmul": lambda t, x, w: t.matmul(x, w.T),
    "torch.where": lambda t, x, w: t.where(x > 0, x, 0.0),
    "backward": lambda t, x, w: (x * 1).sum().backward(),
}


@pytest.mark.parametrize("label", list(SAME_OPERATIONS))
def test_operations_are_named_as_in_pytorch(label):
    names = []
    for lib in (minigrad, torch):
        x = lib.randn(2, 3, requires_grad=True)
        w = lib.randn(4, 3, requires_grad=True)
        with lib.autograd.profiler.profile() as prof:
            SAME_OPERATIONS[label](lib, x, w)
        names.append(top_level(prof))
    assert names[0] == names[1]


def test_a_layer_records_its_function():
    names = []
    for lib in (minigrad, torch):
        layer, x = lib.nn.Linear(3, 4), lib.randn(2, 3)      # (made outside: its set-up is not the test)
        with lib.autograd.profiler.profile() as prof:
            lib.nn.ReLU()(layer(x))
        names.append(top_level(prof))
    assert names[0] == names[1] == ["aten::linear", "aten::relu"]


def test_no_profiler_leaves_every_operation_as_it_was():
    doors = (minigrad.Tensor.__pow__, minigrad.Tensor.sum, minigrad.sum, minigrad.nn.functional.relu,
             minigrad.Tensor.__dict__["T"])
    x = minigrad.ones(1)
    with minigrad.autograd.profiler.profile():
        assert minigrad.Tensor.__pow__ is not doors[0]
        with minigrad.autograd.profiler.profile() as inner:
            x * 2
        assert minigrad.Tensor.__pow__ is not doors[0]      # the outer one still times
        minigrad.ones(1) ** 2
    assert (minigrad.Tensor.__pow__, minigrad.Tensor.sum, minigrad.sum, minigrad.nn.functional.relu,
            minigrad.Tensor.__dict__["T"]) == doors
    assert [e.name for e in inner.function_events] == ["aten::mul"]
    assert not minigrad.autograd.profiler._Profiling.on


CLEARS_EVENTS = ("Warning: Profiler clears events at the end of each cycle. Only events from the current "
                 "cycle will be reported. To keep events across cycles, set acc_events=True.")


def test_torch_profiler_started_twice():
    # (the warning comes once a process, in both: forget that an earlier test had it)
    minigrad._warnings._warned_once.discard(CLEARS_EVENTS)
    torch.profiler.profiler._WARNINGS_SHOWN.discard(CLEARS_EVENTS)
    results = []
    for lib in (minigrad, torch):
        x = lib.ones(2)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cycles = {}
            for keep in (False, True):
                prof = lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU], acc_events=keep)
                prof.start()
                x.exp()
                prof.stop()
                prof.start()
                x.sin()
                prof.stop()
                cycles[keep] = top_level_of(prof.events())
        results.append((cycles, [str(w.message) for w in caught]))
    assert results[0] == results[1]
    assert results[0][0] == {False: ["aten::sin"], True: ["aten::sin", "aten::exp"]}
    assert results[0][1] == [CLEARS_EVENTS]


def top_level_of(events):
    return [event.name for event in events if event.cpu_parent is None]


SCHEDULES = [dict(wait=1, warmup=1, active=2, repeat=1), dict(wait=2, warmup=0, active=1),
             dict(wait=1, warmup=1, active=2, repeat=2, skip_first=1),
             dict(wait=3, warmup=1, active=1, skip_first=2, skip_first_wait=1),
             dict(wait=0, warmup=0, active=1, repeat=2), dict(wait=1, warmup=1, active=2)]


@pytest.mark.parametrize("settings", SCHEDULES, ids=str)
def test_a_schedule_records_the_steps_pytorchs_records(settings, tmp_path):
    results = []
    for lib in (minigrad, torch):
        x = lib.ones(2)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            plan = lib.profiler.schedule(**settings)
            actions = [plan(step).name for step in range(12)]
            cycles = []

            def ready(prof):
                cycles.append((prof.step_num, top_level_of(prof.events()),
                               [children for e in prof.events() if e.name == "ProfilerStep*"
                                for children in [[c.name for c in e.cpu_children]]]))
            with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU], schedule=plan,
                                      on_trace_ready=ready) as prof:
                for i in range(7):
                    x.add(float(i))
                    prof.step()
        messages = [str(w.message) for w in caught if "clears events" not in str(w.message)]
        results.append((actions, cycles, messages, prof.step_num))
    assert results[0] == results[1]


def test_schedule_errors():
    for settings in (dict(wait=-1, warmup=1, active=1), dict(wait=1, warmup=1, active=0),
                     dict(wait=1, warmup=1, active=1, repeat=-1), dict(wait=1, warmup=1, active=1, skip_first=-1)):
        errors = []
        for lib in (minigrad, torch):
            with pytest.raises(AssertionError) as error:
                lib.profiler.schedule(**settings)
            errors.append(str(error.value))
        assert errors[0] == errors[1]
    errors = []
    for lib in (minigrad, torch):
        with pytest.raises(AssertionError) as error:
            lib.profiler.schedule(wait=1, warmup=1, active=1)(-1)
        errors.append(str(error.value))
    assert errors[0] == errors[1] == "Step must be non-negative. Got -1."
    assert [a.name for a in minigrad.profiler.ProfilerAction] == [a.name for a in torch.profiler.ProfilerAction]


def test_tensorboard_trace_handler_writes_one_file_per_cycle(tmp_path):
    for lib in (minigrad, torch):
        folder = tmp_path / lib.__name__
        x = lib.ones(2)
        with lib.profiler.profile(schedule=lib.profiler.schedule(wait=0, warmup=1, active=1, repeat=2),
                                  on_trace_ready=lib.profiler.tensorboard_trace_handler(str(folder), "w")) as prof:
            for _ in range(5):
                x.exp()
                prof.step()
        files = sorted(folder.iterdir())
        assert len(files) == 2 and all(f.name.startswith("w.") and f.name.endswith(".pt.trace.json") for f in files)
        names = {e["name"] for e in json.loads(files[0].read_text())["traceEvents"] if e.get("ph") == "X"}
        assert {"ProfilerStep#1", "aten::exp"} <= names
        zipped = tmp_path / f"{lib.__name__}-gz"
        with lib.profiler.profile(on_trace_ready=lib.profiler.tensorboard_trace_handler(str(zipped), use_gzip=True)):
            x.exp()
        (file,) = zipped.iterdir()
        assert file.name.endswith(".pt.trace.json.gz")
        assert "aten::exp" in {e["name"] for e in json.loads(gzip.decompress(file.read_bytes()))["traceEvents"]}


@pytest.mark.parametrize("name, args", [(3, None), ("a", 3), (None, None)])
def test_record_function_refuses_what_is_not_text(name, args):
    errors = []
    for lib in (minigrad, torch):
        with lib.autograd.profiler.profile():
            with pytest.raises(RuntimeError) as error:
                lib.autograd.profiler.record_function(name, args).__enter__()
        errors.append(str(error.value))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("options", [dict(header="A HEADER"), dict(top_level_events_only=True),
                                     dict(time_unit="ms"), dict(time_unit="s"), dict(row_limit=0)], ids=str)
def test_table_options(options):
    tables = []
    for lib in (minigrad, torch):
        table = profiled(lib, nested_ranges).key_averages().table(**options).split("\n")
        if options.get("row_limit") == 0:
            assert len(table) == 3 + 3
        if "time_unit" in options:
            assert all(line.split()[-2].endswith(options["time_unit"]) for line in table[3:-3])
            assert table[-2].endswith(options["time_unit"])
        if options.get("top_level_events_only"):      # (the rows: the ranges at the top only)
            rows = {line[:55].strip() for line in table[5:-3]}
            assert rows == {name if len(name) < 52 else name[:52] + "..."
                            for name in top_level(profiled(lib, nested_ranges))}
        first_ruler = next(i for i, line in enumerate(table) if line.startswith("-"))
        tables.append(table[:first_ruler + 2])        # what comes before the rows
    assert tables[0] == tables[1]


def memory_program(lib):
    x = lib.randn((2, 3), requires_grad=True)
    w = lib.randn((3, 4))
    y = (x @ w).relu().sum()
    y.backward()
    z = lib.zeros(1000)
    x.detach().add_(1)
    del z


def test_profile_memory_adds_pytorchs_columns_and_counts_the_results():
    results = []
    for lib in (minigrad, torch):
        with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU], profile_memory=True) as prof:
            memory_program(lib)
        averages = prof.key_averages()
        header = averages.table(sort_by="self_cpu_memory_usage", row_limit=5).split("\n")[1].split()
        top = {e.name: e.cpu_memory_usage for e in prof.events()
               if e.cpu_parent is None and e.name.startswith("aten::")}
        total = {row.key: row.cpu_memory_usage for row in averages if row.key == "aten::zeros"}
        results.append((header, top, total))
    assert results[0] == results[1]
    assert results[0][0][-8:] == ["CPU", "Mem", "Self", "CPU", "Mem", "#", "of", "Calls"]
    assert results[0][1] == {"aten::randn": 48, "aten::matmul": 32, "aten::relu": 32, "aten::sum": 4,
                             "aten::ones_like": 4, "aten::zeros": 4000, "aten::detach": 0, "aten::add_": 0}
    row = next(line for line in profiled_table_lines(memory_program) if "aten::zeros" in line)
    assert "3.91 KB" in row


def profiled_table_lines(program):
    with minigrad.autograd.profiler.profile(profile_memory=True) as prof:
        program(minigrad)
    return prof.key_averages().table().split("\n")


# more programs whose operations both libraries call the same way
MORE_OPERATIONS = {
    'x[...]': lambda lib, x, t, m: x[...],
    'x[None]': lambda lib, x, t, m: x[None],
    'x.mT': lambda lib, x, t, m: x.mT,
    'len': lambda lib, x, t, m: len(x),
    'x.cpu': lambda lib, x, t, m: x.cpu(),
    'x.to(float64)': lambda lib, x, t, m: x.to(lib.float64),
    'x.type_as': lambda lib, x, t, m: x.type_as(t),
    'x.contiguous nc': lambda lib, x, t, m: x.t().contiguous(),
    'x.numel': lambda lib, x, t, m: x.numel(),
    'x.item': lambda lib, x, t, m: t[0].item(),
    'x.new_zeros': lambda lib, x, t, m: x.new_zeros(2),
    'x.unbind': lambda lib, x, t, m: x.unbind(),
    'x.split': lambda lib, x, t, m: x.split(2),
    'x.chunk': lambda lib, x, t, m: x.chunk(2),
    'torch.split': lambda lib, x, t, m: lib.split(x, 2),
    'torch.norm': lambda lib, x, t, m: lib.norm(x),
    'x.norm': lambda lib, x, t, m: x.norm(),
    'torch.einsum': lambda lib, x, t, m: lib.einsum('ij->j', x),
    'x.max': lambda lib, x, t, m: x.max(),
    'x.max(0)': lambda lib, x, t, m: x.max(0),
    'x.argmax': lambda lib, x, t, m: x.argmax(),
    'x.std': lambda lib, x, t, m: x.std(),
    'x.softmax': lambda lib, x, t, m: x.softmax(0),
    'bool(m.any())': lambda lib, x, t, m: bool(m.any()),
    'x.zero_': lambda lib, x, t, m: x.zero_(),
    'x.uniform_': lambda lib, x, t, m: x.uniform_(),
    'x.normal_': lambda lib, x, t, m: x.normal_(),
    'torch.rand': lambda lib, x, t, m: lib.rand(2),
    'torch.arange': lambda lib, x, t, m: lib.arange(3),
    'torch.full': lambda lib, x, t, m: lib.full((2,), 1.0),
    'torch.eye': lambda lib, x, t, m: lib.eye(2),
    'torch.linspace': lambda lib, x, t, m: lib.linspace(0, 1, 3),
    'torch.ones_like': lambda lib, x, t, m: lib.ones_like(x),
    'x.repeat': lambda lib, x, t, m: x.repeat(2, 1),
    'x.expand': lambda lib, x, t, m: t.expand(2, 4),
    'x.flatten': lambda lib, x, t, m: x.flatten(),
    'x.squeeze': lambda lib, x, t, m: x.squeeze(),
    'x.unsqueeze': lambda lib, x, t, m: x.unsqueeze(0),
    'x.permute': lambda lib, x, t, m: x.permute(1, 0),
    'x.transpose': lambda lib, x, t, m: x.transpose(0, 1),
    'torch.clamp': lambda lib, x, t, m: lib.clamp(x, 0, 1),
    'x.clip': lambda lib, x, t, m: x.clip(0, 1),
    'x.abs': lambda lib, x, t, m: x.abs(),
    'x.log': lambda lib, x, t, m: (x+1).log(),
    'x.sqrt': lambda lib, x, t, m: x.sqrt(),
    'x.masked_fill': lambda lib, x, t, m: x.masked_fill(m, 1.0),
    'torch.max2': lambda lib, x, t, m: lib.max(x, x),
    'x.equal': lambda lib, x, t, m: x.equal(x),
    'x.allclose': lambda lib, x, t, m: x.allclose(x),
    'x.all': lambda lib, x, t, m: x.all(),
    'x.any': lambda lib, x, t, m: x.any(),
    'x.sign': lambda lib, x, t, m: x.sign(),
    'x.var': lambda lib, x, t, m: x.var(),
    'x.prod': lambda lib, x, t, m: x.prod(),
    'x.cumsum': lambda lib, x, t, m: x.cumsum(0),
    'x.gather': lambda lib, x, t, m: x.gather(0, lib.zeros(1, 4, dtype=lib.long)),
    'x.scatter': lambda lib, x, t, m: x.scatter(0, lib.zeros(1, 4, dtype=lib.long), 1.0),
    'x.sort': lambda lib, x, t, m: x.sort(),
    'x.topk': lambda lib, x, t, m: x.topk(1),
    'x.round': lambda lib, x, t, m: x.round(),
    'x.floor': lambda lib, x, t, m: x.floor(),
    'x.detach_': lambda lib, x, t, m: x.clone().detach_(),
    'x.bmm': lambda lib, x, t, m: x[None].bmm(x.t()[None]),
    'x.mm': lambda lib, x, t, m: x.mm(x.t()),
    'x.dot': lambda lib, x, t, m: t.dot(t),
    'x.outer': lambda lib, x, t, m: t.outer(t),
    'x.exp_': lambda lib, x, t, m: x.exp_(),
    'x.requires_grad_': lambda lib, x, t, m: x.clone().requires_grad_(),
    'x.long': lambda lib, x, t, m: x.long(),
    'x.bool': lambda lib, x, t, m: x.bool(),
    'x.int': lambda lib, x, t, m: x.int(),
    'torch.randint': lambda lib, x, t, m: lib.randint(0, 3, (2,)),
    'torch.randperm': lambda lib, x, t, m: lib.randperm(3),
    'torch.multinomial': lambda lib, x, t, m: lib.multinomial(t, 2),
    'torch.bernoulli': lambda lib, x, t, m: lib.bernoulli(t * 0.5),
    'torch.normal': lambda lib, x, t, m: lib.normal(0.0, 1.0, (2,)),
    'torch.empty': lambda lib, x, t, m: lib.empty(2),
    'torch.zeros_like': lambda lib, x, t, m: lib.zeros_like(x),
    'torch.full_like': lambda lib, x, t, m: lib.full_like(x, 2.0),
    'torch.randn_like': lambda lib, x, t, m: lib.randn_like(x),
    'torch.mean': lambda lib, x, t, m: lib.mean(x),
    'torch.sum': lambda lib, x, t, m: lib.sum(x),
    'torch.exp': lambda lib, x, t, m: lib.exp(x),
    'torch.tanh': lambda lib, x, t, m: lib.tanh(x),
    'torch.flatten': lambda lib, x, t, m: lib.flatten(x),
    'torch.reshape': lambda lib, x, t, m: lib.reshape(x, (12,)),
    'torch.t': lambda lib, x, t, m: lib.t(x),
    'torch.mm': lambda lib, x, t, m: lib.mm(x, x.t()),
    'torch.addmm': lambda lib, x, t, m: lib.addmm(t, x.t(), x),
    'torch.outer': lambda lib, x, t, m: lib.outer(t, t),
    'torch.allclose': lambda lib, x, t, m: lib.allclose(x, x),
    'torch.manual_seed': lambda lib, x, t, m: lib.manual_seed(0),
}


@pytest.mark.parametrize("label", list(MORE_OPERATIONS))
def test_more_operations_are_named_as_in_pytorch(label):
    names = []
    for lib in (minigrad, torch):
        x, t = lib.zeros(3, 4), lib.ones(4)
        m = x > 0
        with lib.autograd.profiler.profile() as prof:
            MORE_OPERATIONS[label](lib, x, t, m)
        names.append(top_level(prof))
    assert names[0] == names[1]


@pytest.mark.parametrize("label", ["x[0] = 1", "x[0] = t", "x[m] = 0", "x[:, 1] = 2"])
def test_writing_through_an_index_is_named_by_the_write(label):
    """PyTorch records the selection, then the write; minigrad's one range is the write."""
    names = []
    for lib in (minigrad, torch):
        x, t = lib.zeros(3, 4), lib.ones(4)
        m = x > 0
        with lib.autograd.profiler.profile() as prof:
            exec(label, {"x": x, "t": t, "m": m})
        names.append(top_level(prof))
    assert names[0] == names[1][-1:]


def small_network(lib):
    """A small convolutional network, its loss and optimiser (made before any profile)."""
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                          nn.MaxPool2d(2), nn.Conv2d(4, 4, 3), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 1)),
                          nn.Flatten(), nn.Dropout(0.5), nn.Linear(4, 3), nn.LogSoftmax(dim=1))
    x, target = lib.randn(2, 3, 8, 8), lib.tensor([0, 2])
    loss_fn, optimizer = nn.NLLLoss(), lib.optim.SGD(model.parameters(), lr=0.1)
    loss_fn(model(x), target).backward()
    return model, x, target, loss_fn, optimizer


NETWORK_PROGRAMS = {
    "forward": lambda lib, model, x, target, loss_fn, optimizer: model(x),
    "eval": lambda lib, model, x, target, loss_fn, optimizer: (model.eval(), model(x), model.train()),
    "backward": lambda lib, model, x, target, loss_fn, optimizer: loss_fn(model(x), target).backward(),
    "zero_grad": lambda lib, model, x, target, loss_fn, optimizer: optimizer.zero_grad(),
    "step": lambda lib, model, x, target, loss_fn, optimizer: (
        loss_fn(model(x), target).backward(), optimizer.step()),
    "cross_entropy": lambda lib, model, x, target, loss_fn, optimizer: lib.nn.CrossEntropyLoss()(model(x), target),
    "activations": lambda lib, model, x, target, loss_fn, optimizer: (
        lib.nn.GELU()(x), lib.nn.Tanh()(x), lib.nn.Sigmoid()(x), lib.nn.Softmax(dim=1)(x),
        lib.nn.LeakyReLU(0.1, inplace=True)(x.clone()), lib.nn.functional.elu(x.clone(), inplace=True)),
}


@pytest.mark.parametrize("label", list(NETWORK_PROGRAMS))
def test_a_network_records_what_pytorch_records(label):
    results = []
    for lib in (minigrad, torch):
        parts = small_network(lib)
        with lib.profiler.profile() as prof:
            NETWORK_PROGRAMS[label](lib, *parts)
        optimizer_ranges = {e.name: e.is_user_annotation for e in prof.events() if e.name.startswith("Optimizer.")}
        results.append((top_level_of(prof.events()), optimizer_ranges))
    assert results[0] == results[1]
    if label == "step":
        assert results[0][1] == {"Optimizer.step#SGD.step": True}


# operators, properties, linalg and special, and functions PyTorch writes in Python
STILL_MORE_OPERATIONS = {
    'm&m': lambda lib, m, i, x: m & m,
    'm|m': lambda lib, m, i, x: m | m,
    'm^m': lambda lib, m, i, x: m ^ m,
    '~m': lambda lib, m, i, x: ~m,
    'i<<1': lambda lib, m, i, x: i << 1,
    'i>>1': lambda lib, m, i, x: i >> 1,
    '1<<i': lambda lib, m, i, x: 1 << i,
    'm&=m': lambda lib, m, i, x: m.clone().__iand__(m),
    'x**x': lambda lib, m, i, x: x ** x,
    '2%x': lambda lib, m, i, x: 2 % x,
    '2//x': lambda lib, m, i, x: 2 // x,
    'x-=1': lambda lib, m, i, x: x.clone().__isub__(1),
    'x/=2': lambda lib, m, i, x: x.clone().__itruediv__(2),
    'x**=2': lambda lib, m, i, x: x.clone().__ipow__(2),
    'int(x[0])': lambda lib, m, i, x: int(x[0]),
    'x.H': lambda lib, m, i, x: lib.ones(2, 2).H,
    'x.mH': lambda lib, m, i, x: lib.ones(2, 2).mH,
    'x.data': lambda lib, m, i, x: x.data,
    'x.grad': lambda lib, m, i, x: x.grad,
    'x.real': lambda lib, m, i, x: x.real,
    'x.new_ones': lambda lib, m, i, x: x.new_ones(2),
    'x.new_empty': lambda lib, m, i, x: x.new_empty(2),
    'x.index': lambda lib, m, i, x: x.clone().index_put_((i,), x),
    'x.masked_fill_': lambda lib, m, i, x: x.clone().masked_fill_(m, 0.0),
    'x.fill_': lambda lib, m, i, x: x.clone().fill_(2),
    'x.copy_': lambda lib, m, i, x: x.clone().copy_(x),
    'x.view_as': lambda lib, m, i, x: x.view_as(x),
    'x.expand_as': lambda lib, m, i, x: x.expand_as(x),
    'x.reshape_as': lambda lib, m, i, x: x.reshape_as(x),
    'x.type_as': lambda lib, m, i, x: x.type_as(i),
    'x.to(i)': lambda lib, m, i, x: x.to(i),
    'x.is_contiguous': lambda lib, m, i, x: x.is_contiguous(),
    'x.dim': lambda lib, m, i, x: x.dim(),
    'x.nonzero': lambda lib, m, i, x: x.nonzero(),
    'x.where': lambda lib, m, i, x: x.where(m, 0.0),
    'torch.where1': lambda lib, m, i, x: lib.where(m),
    'torch.numel': lambda lib, m, i, x: lib.numel(x),
    'torch.broadcast_tensors': lambda lib, m, i, x: lib.broadcast_tensors(x, x),
    'torch.chunk': lambda lib, m, i, x: lib.chunk(x, 3),
    'torch.unbind': lambda lib, m, i, x: lib.unbind(x),
    'torch.meshgrid': lambda lib, m, i, x: lib.meshgrid(x, x, indexing='ij'),
    'torch.einsum': lambda lib, m, i, x: lib.einsum('i,i->', x, x),
    'torch.tensordot': lambda lib, m, i, x: lib.tensordot(x, x, dims=1),
    'torch.cdist': lambda lib, m, i, x: lib.cdist(x[None], x[None]),
    'torch.unique': lambda lib, m, i, x: lib.unique(i),
    'torch.lerp': lambda lib, m, i, x: lib.lerp(x, x, 0.5),
    'torch.std_mean': lambda lib, m, i, x: lib.std_mean(x),
    'torch.softmax': lambda lib, m, i, x: lib.softmax(x, 0),
    'torch.log_softmax': lambda lib, m, i, x: lib.log_softmax(x, 0),
    'torch.dropout': lambda lib, m, i, x: lib.dropout(x, 0.5, True),
    'torch.isclose': lambda lib, m, i, x: lib.isclose(x, x),
    'torch.all': lambda lib, m, i, x: lib.all(m),
    'torch.cumsum': lambda lib, m, i, x: lib.cumsum(x, 0),
    'torch.diag': lambda lib, m, i, x: lib.diag(x),
    'torch.linalg.norm': lambda lib, m, i, x: lib.linalg.norm(x),
    'torch.linalg.inv': lambda lib, m, i, x: lib.linalg.inv(lib.eye(2)),
    'torch.det': lambda lib, m, i, x: lib.det(lib.eye(2)),
    'torch.special.expit': lambda lib, m, i, x: lib.special.expit(x),
    'torch.sqrt': lambda lib, m, i, x: lib.sqrt(x),
    'x.sqrt_': lambda lib, m, i, x: x.clone().sqrt_(),
    'x.detach_': lambda lib, m, i, x: x.detach(),
}


@pytest.mark.parametrize("label", list(STILL_MORE_OPERATIONS))
def test_still_more_operations_are_named_as_in_pytorch(label):
    names = []
    for lib in (minigrad, torch):
        m, i, x = lib.zeros(3) > 0, lib.arange(3), lib.ones(3)
        with lib.autograd.profiler.profile() as prof:
            STILL_MORE_OPERATIONS[label](lib, m, i, x)
        names.append(top_level(prof))
    assert names[0] == names[1]


def test_a_custom_function_is_a_range_of_its_name():
    results = []
    for lib in (minigrad, torch):
        class Square(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 2 * x * grad
        x = lib.ones(3, requires_grad=True)
        with lib.autograd.profiler.profile() as prof:
            Square.apply(x).sum().backward()
        results.append((top_level(prof), children(prof, "Square"), children(prof, "SquareBackward")))
    assert results[0] == results[1]
    assert results[0][1] == [["aten::mul"]] and results[0][2] == [["aten::mul", "aten::mul"]]


def test_export_stacks(tmp_path):
    for lib in (minigrad, torch):
        x = lib.ones(2)
        with lib.profiler.profile() as prof:
            x.exp()
        with pytest.raises(AssertionError, match=r"^export_stacks\(\) requires with_stack=True$"):
            prof.export_stacks(str(tmp_path / "a.txt"))
        with pytest.raises(ValueError, match=r"^metric should be one of: \['self_cpu_time_total', "):
            prof.events().export_stacks(str(tmp_path / "b.txt"), "cpu_time_total")


def test_events_print_as_pytorchs():
    shown = []
    for lib in (minigrad, torch):
        x = lib.ones(2)
        with lib.autograd.profiler.profile() as prof:
            x.exp()
        event, average = prof.function_events[0], prof.key_averages()[0]
        # (the times and the start and end differ: replaced by their names; minigrad numbers
        # no operation, as PyTorch numbers the operations autograd sees, and numbers the events
        # of each profile from 1, where PyTorch goes on counting from profile to profile)
        times = {event.cpu_time_str: "T", average.self_cpu_time_total_str: "S", average.cpu_time_str: "T",
                 str(event.time_range.start): "start", str(event.time_range.end): "end"}
        texts = [repr(event).replace(f"seq_nr={event.sequence_nr} ", "").replace(f"id={event.id} ", ""),
                 repr(average)]
        for value, name in times.items():
            texts = [text.replace(f"={value} ", f"={name} ") for text in texts]
        shown.append(texts)
    assert shown[0] == shown[1]
