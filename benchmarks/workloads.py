"""The workloads W1-W4, drawing (viz) and the course: run them, and say what the numbers mean.

Each ``run_*`` function returns one section of results.json::

    {"title": ..., "results": {...raw medians...}, "ratios": {...},
     "target": {"ratio": name, "limit": x, "value": y, "met": bool} or None,   # the main one
     "targets": [every target of the workload, the main one first],
     "rows": [[implementation, what was measured, ratio text], ...],   # the printed table
     "chart": {"bars": {label: ratio}, "target": x, "ylabel": ...},    # the figure
     "notes": [...]}
"""
import os
import sys
import time

from . import graphs, mlp
from .timing import (ROOT, compare, import_torch, optional_libraries, run_in_subprocess,
                     stopwatch)

# How much work each mode does. --quick keeps every code path but shrinks
# sizes and repeats so that a smoke test finishes in seconds; its numbers
# are not meant to be read.
FULL = {
    "w1_repeats": 100, "w1_two_thread_repeats": 30, "w2_ops": 1000, "w2_repeats": 30,
    "w3_sizes": (10_000, 100_000), "w3_repeats": 3, "w4_products": 10_000, "w4_repeats": 5,
    "draw_repeats": 20, "draw_ops": 1000, "viz_repeats": 5,
    "notebooks": None, "subprocess_torch": True,
}
QUICK = {
    "w1_repeats": 3, "w1_two_thread_repeats": 3, "w2_ops": 1000, "w2_repeats": 2,
    "w3_sizes": (1_000, 10_000), "w3_repeats": 1, "w4_products": 1_000, "w4_repeats": 1,
    "draw_repeats": 1, "draw_ops": 100, "viz_repeats": 1,
    "notebooks": 1, "subprocess_torch": False,
}

W1_TARGET = 1.15      # minigrad / numpy
W2_TARGET = 0.8       # minigrad / torch
W3_TARGET = 11.0      # time(100k) / time(10k): 10 would be perfectly linear
W3_FULL_COLLECTIONS = 0     # full garbage collections (generation 2) during W3's backward()
W3_BYTES_PER_OP = 250       # peak memory of the long chain, per operation
W4_TARGET = 0.7       # minigrad / torch
DRAW_SECONDS = 2.0    # viz.draw of a 1,000-op loop with a reused parameter, SVG and PNG
COURSE_SECONDS = 30.0       # every lesson on a fresh kernel, executing only


def ratio(numerator, denominator):
    if numerator is None or denominator is None or not denominator:
        return None
    return numerator / denominator


def fmt_ratio(value, against):
    return f"{value:.2f}x {against}" if value is not None else ""


def failures(results):
    """{implementation: error name} for the chart, e.g. {"micrograd": "RecursionError"}."""
    return {name: result["error"].split(":")[0] for name, result in results.items()
            if "error" in result}


def target_entry(name, limit, value, unit=""):
    """One target: ``name`` (what is compared) = ``value`` must be <= ``limit``.

    ``unit`` says how to print the numbers: "" for a ratio (1.07), "count",
    "bytes" or "s".
    """
    return {"ratio": name, "limit": limit, "value": value, "unit": unit,
            "met": None if value is None else bool(value <= limit)}


def total_seconds(result, phases=("forward", "backward")):
    if "error" in result:
        return None
    return sum(result[phase] for phase in phases)


def libraries(with_optional):
    """minigrad, then PyTorch if installed, then the optional libraries that import."""
    import minigrad
    found = {"minigrad": minigrad}
    torch = import_torch()
    if torch is not None:
        found["torch"] = torch
    found.update(optional_libraries(with_optional))
    return found


# --- W1 -----------------------------------------------------------------------------------

def run_w1(config, with_optional):
    one_thread = mlp.measure(config["w1_repeats"], with_optional=with_optional)
    notes = []
    if not one_thread["check"]["agree"]:
        notes.append("WARNING: the implementations disagree on the loss or the update: "
                     f"{one_thread['check']['losses']}")
    # Two threads: PyTorch in a process of its own. Each library keeps its own pool of threads
    # (numpy's OpenBLAS, PyTorch's OpenMP), whose threads spin for a while after their work,
    # waiting for more: in one process, whichever step came after the other library's met a
    # spinning thread on one of the two cores (minigrad came after PyTorch in most turns).
    repeats = ["--repeats", config["w1_two_thread_repeats"]]
    two_threads = run_in_subprocess("mlp", repeats + ["--no-torch"], threads=2)
    if config["subprocess_torch"]:
        torch_alone = run_in_subprocess("mlp", repeats + ["--only", "torch"], threads=2)
        two_threads["results"].update(torch_alone["results"])
        notes.append("two threads: PyTorch timed in a process of its own, apart from numpy's "
                     "thread pool (each library's threads spin for a while after their work)")

    section = {"title": "W1 MLP training step (784-256-10, batch 128, float32)",
               "unit": "ms per step", "results": {}, "ratios": {}, "rows": [], "notes": notes,
               "check": one_thread["check"]}
    for label, outcome in (("1 thread", one_thread), ("2 threads", two_threads)):
        results = outcome["results"]
        section["results"][label] = results
        floor = results["numpy"].get("step")
        for name, result in results.items():
            if "error" in result:
                section["rows"].append([f"{name} ({label})", result["error"], ""])
                continue
            value = ratio(result["step"], floor)
            if name != "numpy":
                section["ratios"][f"{name}/numpy ({label})"] = value
            section["rows"].append([f"{name} ({label})", f"{result['step'] * 1e3:8.3f} ms/step",
                                    fmt_ratio(value, "numpy")])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    if load >= (os.cpu_count() or 1):
        notes.append(f"the machine was busy (load {load:.1f} on {os.cpu_count()} cores): the "
                     "two-thread row competed with other processes for the cores")
    main_ratio = section["ratios"].get("minigrad/numpy (1 thread)")
    section["target"] = target_entry("minigrad/numpy (1 thread)", W1_TARGET, main_ratio)
    section["targets"] = [section["target"]]
    section["chart"] = {"bars": {k.replace("/numpy", ""): v for k, v in section["ratios"].items()},
                        "target": W1_TARGET, "ylabel": "time / hand-written numpy"}
    return section


# --- W2 -----------------------------------------------------------------------------------

def _per_unit_rows(section, results, count, unit, phase_ratios):
    """Rows "fwd + bwd = total us/<unit>" and the ratios to PyTorch, for W2 and W4."""
    reference = results.get("torch", {})
    for name, result in results.items():
        if "error" in result:
            section["rows"].append([name, result["error"], ""])
            continue
        per_unit = {phase: result[phase] / count * 1e6 for phase in ("forward", "backward")}
        per_unit["total"] = per_unit["forward"] + per_unit["backward"]
        result[f"us_per_{unit}"] = per_unit
        value = ratio(total_seconds(result), total_seconds(reference) if reference else None)
        if name != "torch" and value is not None:
            section["ratios"][f"{name}/torch"] = value
            if phase_ratios:
                for phase in ("forward", "backward"):
                    section["ratios"][f"{name}/torch {phase}"] = ratio(result[phase],
                                                                       reference[phase])
        section["rows"].append([
            name, f"fwd {per_unit['forward']:6.2f} + bwd {per_unit['backward']:6.2f} = "
                  f"{per_unit['total']:6.2f} us/{unit}", fmt_ratio(value, "torch")])


def run_w2(config, with_optional):
    n_ops = config["w2_ops"]
    found = libraries(with_optional)
    results = compare({name: graphs.chain_run(name, module, n_ops)
                       for name, module in found.items()},
                      config["w2_repeats"], optional_repeats=max(1, config["w2_repeats"] // 5))
    section = {"title": f"W2 chain of {n_ops:,} tiny ops (one-element float32), then backward",
               "unit": "microseconds per op", "results": results, "ratios": {}, "rows": [],
               "notes": []}
    _per_unit_rows(section, results, n_ops, "op", phase_ratios=True)
    section["target"] = target_entry("minigrad/torch", W2_TARGET,
                                     section["ratios"].get("minigrad/torch"))
    section["targets"] = [section["target"]]
    section["chart"] = {"bars": {k.replace("/torch", ""): v for k, v in section["ratios"].items()
                                 if k.startswith("minigrad") or " " not in k},
                        "target": W2_TARGET, "ylabel": "time / PyTorch",
                        "failed": failures(results)}
    return section


# --- W3 -----------------------------------------------------------------------------------

def run_w3(config, with_optional):
    small, large = config["w3_sizes"]
    found = libraries(with_optional)
    limit = sys.getrecursionlimit()
    results = {}
    for n_ops in (small, large):
        # The optional libraries are slower: one run each keeps the benchmark short.
        results[n_ops] = compare({name: graphs.chain_run(name, module, n_ops,
                                                         count_collections=True)
                                  for name, module in found.items()},
                                 config["w3_repeats"], optional_repeats=1)
    memory = {}
    memory_libraries = ["minigrad"] + (["torch"] if "torch" in found and config["subprocess_torch"]
                                       else [])
    for name in memory_libraries:
        memory[name] = {n_ops: run_in_subprocess("graphs", ["memory", name, n_ops])
                        ["peak_growth_bytes"] for n_ops in (small, large)}

    section = {"title": f"W3 deep chain: {small:,} and {large:,} ops, default recursion limit "
                        f"({limit})",
               "unit": "seconds (forward + backward + freeing the graph)",
               "results": {name: {str(n): results[n][name] for n in results}
                           for name in found},
               "memory_peak_growth_bytes": {name: {str(n): v for n, v in sizes.items()}
                                            for name, sizes in memory.items()},
               "full_collections_during_backward": {},
               "ratios": {}, "rows": [], "notes": []}
    phases = ("forward", "backward", "free")
    for name in found:
        times = {n: total_seconds(results[n][name], phases) for n in (small, large)}
        errors = [results[n][name]["error"] for n in (small, large) if "error" in results[n][name]]
        if errors:
            section["rows"].append([name, errors[0], ""])
            continue
        growth = ratio(times[large], times[small])
        section["ratios"][f"{name} {large // 1000}k/{small // 1000}k"] = growth
        section["rows"].append([name, f"{times[small]:8.3f} s / {times[large]:8.3f} s "
                                      f"({times[large] / large * 1e6:5.2f} us/op)",
                                f"{growth:.2f}x ({large // 1000}k vs {small // 1000}k)"])
        full = {n: results[n][name].get("full_collections") for n in (small, large)}
        if None not in full.values():
            section["full_collections_during_backward"][name] = {str(n): c
                                                                 for n, c in full.items()}
            section["rows"].append([f"{name} full GCs", f"{full[small]} / {full[large]} during "
                                    "backward (generation 2, worst run)", ""])
        if name in memory:
            mib = {n: memory[name][n] / 2**20 for n in (small, large)}
            section["rows"].append([f"{name} peak memory", f"+{mib[small]:.1f} MiB / "
                                    f"+{mib[large]:.1f} MiB ({memory[name][large] / large:.0f} "
                                    "bytes/op)", ""])
    if not config["subprocess_torch"]:
        section["notes"].append("--quick: PyTorch's memory is not measured")
    key = f"minigrad {large // 1000}k/{small // 1000}k"
    section["target"] = target_entry(key, W3_TARGET, section["ratios"].get(key))
    if any("error" in results[n]["minigrad"] for n in (small, large)):
        section["target"]["met"] = False            # W3's first target: the chain completes
    collections = section["full_collections_during_backward"].get("minigrad")
    per_op = memory["minigrad"][large] / large if "minigrad" in memory else None
    section["targets"] = [
        section["target"],
        target_entry("minigrad full GCs during backward", W3_FULL_COLLECTIONS,
                     max(collections.values()) if collections else None, unit="count"),
        target_entry(f"minigrad memory per op ({large // 1000}k chain)", W3_BYTES_PER_OP,
                     per_op, unit="bytes")]
    section["chart"] = {"bars": {k.split(" ")[0]: v for k, v in section["ratios"].items()},
                        "target": W3_TARGET,
                        "ylabel": f"time({large // 1000}k) / time({small // 1000}k)",
                        "failed": failures(results[large])}
    return section


# --- W4 -----------------------------------------------------------------------------------

def run_w4(config, with_optional):
    n_products = config["w4_products"]
    n_nodes = 2 * n_products - 1          # n products and n - 1 additions
    found = libraries(with_optional)
    notes = []
    if "autograd" in found:
        # Differentiating with respect to a list of leaves: each leaves[i] is a traced
        # op whose vjp builds a whole list of zeros, so backward is quadratic
        # (14 s for 1,000 products when this was written).
        del found["autograd"]
        notes.append("HIPS autograd skipped: its gradient with respect to a list of n leaves "
                     "costs O(n^2)")
    results = compare({name: graphs.wide_run(name, module, n_products)
                       for name, module in found.items()},
                      config["w4_repeats"], optional_repeats=1)
    section = {"title": f"W4 wide graph: {n_products:,} products of leaves summed in pairs "
                        f"({n_nodes:,} nodes), then backward",
               "unit": "microseconds per node", "results": results, "ratios": {}, "rows": [],
               "notes": notes}
    _per_unit_rows(section, results, n_nodes, "node", phase_ratios=False)
    section["target"] = target_entry("minigrad/torch", W4_TARGET,
                                     section["ratios"].get("minigrad/torch"))
    section["targets"] = [section["target"]]
    section["chart"] = {"bars": {k.replace("/torch", ""): v for k, v in section["ratios"].items()},
                        "target": W4_TARGET, "ylabel": "time / PyTorch",
                        "failed": failures(results)}
    return section


# --- the course ---------------------------------------------------------------------------

def execute_notebooks(limit=None):
    """Run each lesson on a fresh kernel (nothing is written back to the files).

    Returns ``{notebook: {"start": s, "cells": s, "stop": s, "slowest": [[s, cell, line], ...]}}``
    (or an error text): starting the kernel, executing every cell (the lesson's own imports
    included), and shutting the kernel down, each timed apart.

    The package is byte-compiled first, as an installed package is (pip compiles it when it
    installs it): with PYTHONDONTWRITEBYTECODE set and no ``__pycache__``, every kernel
    would otherwise compile all of minigrad again (about 0.2 s per lesson).
    """
    import compileall

    import nbformat
    from nbclient import NotebookClient
    compileall.compile_dir(ROOT / "minigrad", quiet=1)
    folder = ROOT / "notebooks"
    paths = sorted(folder.glob("*.ipynb"))[:limit]
    seconds = {}
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(folder)}})
        cells = []
        started = time.perf_counter()
        try:
            with client.setup_kernel():
                ready = time.perf_counter()
                for index, cell in enumerate(notebook.cells):
                    before = time.perf_counter()
                    client.execute_cell(cell, index)
                    if cell.cell_type == "code":
                        cells.append([time.perf_counter() - before, index,
                                      cell.source.splitlines()[0][:60] if cell.source else ""])
                done = time.perf_counter()
        except Exception as error:  # noqa: BLE001 - a failing lesson is a note, not a crash
            seconds[path.name] = f"{type(error).__name__}: {str(error).splitlines()[0][:150]}"
            continue
        seconds[path.name] = {"start": ready - started, "cells": done - ready,
                              "stop": time.perf_counter() - done,
                              "slowest": sorted(cells, reverse=True)[:3]}
    return seconds


def time_drawing(repeats):
    """Median seconds of ``minigrad.viz.draw(loss)`` plus its DOT source, for one W1 step's loss."""
    import statistics

    import minigrad
    try:
        from minigrad.viz import draw
    except ImportError as error:
        return None, f"minigrad.viz cannot be imported ({error})"
    x, y, params = mlp.tensors_for(minigrad, mlp.make_data())
    w1, b1, w2, b2 = params
    loss = minigrad.nn.functional.cross_entropy((x @ w1 + b1).relu() @ w2 + b2, y)
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        source = draw(loss).source
        samples.append(time.perf_counter() - started)
    return {"seconds": statistics.median(samples), "dot_lines": source.count("\n")}, None


def run_course(config, with_optional):
    section = {"title": "Course: run every notebook; draw one W1 step's graph",
               "unit": "seconds", "results": {}, "ratios": {}, "rows": [], "notes": [],
               "target": None, "targets": [], "chart": None}
    if not sorted((ROOT / "notebooks").glob("*.ipynb")):
        section["notes"].append("notebooks: skipped, there is no notebooks/*.ipynb yet")
    else:
        seconds = execute_notebooks(config["notebooks"])
        section["results"]["notebooks"] = seconds
        failed = {name: s for name, s in seconds.items() if isinstance(s, str)}
        ran = [s for s in seconds.values() if not isinstance(s, str)]
        phases = {phase: sum(s[phase] for s in ran) for phase in ("start", "cells", "stop")}
        # what a learner waits for: a fresh kernel, then every cell (not its shutdown after)
        total = phases["start"] + phases["cells"]
        section["results"]["notebooks_total_seconds"] = total
        section["results"]["notebooks_phase_seconds"] = phases
        text = (f"{total:7.1f} s for {len(ran)} notebooks (kernel starts {phases['start']:.1f} s "
                f"+ cells {phases['cells']:.1f} s; then shutdowns {phases['stop']:.1f} s)")
        if config["notebooks"]:
            text += f" (--quick: the first {config['notebooks']} only)"
        section["rows"].append(["notebooks", text, ""])
        slowest = sorted(([cell[0], name, cell[1], cell[2]] for name, s in seconds.items()
                          if not isinstance(s, str) for cell in s["slowest"]), reverse=True)[:5]
        for cell_seconds, name, index, line in slowest:
            section["rows"].append(["  slow cell", f"{cell_seconds:5.2f} s {name[:2]} cell {index}: "
                                                   f"{line}", ""])
        for name, message in failed.items():
            section["notes"].append(f"notebook {name} failed: {message}")
        # the whole course, every lesson run: a partial (--quick) or failing run says nothing
        whole = not failed and not config["notebooks"]
        section["target"] = target_entry("the whole course, fresh kernels", COURSE_SECONDS,
                                         total if whole else None, unit="s")
        section["targets"] = [section["target"]]
    drawing, problem = time_drawing(config["draw_repeats"])
    if problem:
        section["notes"].append(f"graph drawing: skipped, {problem}")
    else:
        section["results"]["draw"] = drawing
        section["rows"].append(["viz.draw(loss).source",
                                f"{drawing['seconds'] * 1e3:7.2f} ms ({drawing['dot_lines']} "
                                "lines of DOT)", ""])
    return section


# --- drawing a long graph -----------------------------------------------------------------

def reused_parameter_loop(module, n_ops):
    """``y = y * w + b`` for ``n_ops`` operations: the long graph a learner draws most."""
    w = module.tensor([0.9], requires_grad=True)
    b = module.tensor([0.1], requires_grad=True)
    y = module.tensor([1.0])
    for _ in range(n_ops // 2):
        y = y * w + b
    return y, {"w": w, "b": b}


def drawing_run(module, n_ops, max_nodes):
    """A run-once function: viz.draw of the loop, then Graphviz's SVG and PNG (what Jupyter shows)."""
    from minigrad.viz import draw
    y, names = reused_parameter_loop(module, n_ops)
    options = {} if max_nodes is None else {"max_nodes": max_nodes}

    def run():
        lap = stopwatch()
        graph = draw(y, names=names, **options)
        dot = lap()
        graph.svg()
        svg = lap()
        graph.png()
        png = lap()
        run.boxes = sum(1 for line in graph.body if line.lstrip().startswith("n") and
                        " -> " not in line)
        return {"draw": dot, "svg": svg, "png": png}

    return run


def run_viz(config, with_optional):
    """Draw the reused-parameter loop with minigrad's and PyTorch's tensors, in turns; then every node."""
    n_ops = config["draw_ops"]
    section = {"title": f"viz: draw a {n_ops:,}-op loop with a reused parameter "
                        "(y = y * w + b), render SVG and PNG",
               "unit": "seconds", "results": {}, "ratios": {}, "rows": [], "notes": [],
               "target": None, "targets": [], "chart": None}
    try:
        import minigrad
        import minigrad.viz  # noqa: F401
        from minigrad.viz import Graph
        Graph().pipe(format="svg")                  # is Graphviz's dot there?
    except Exception as error:  # noqa: BLE001 - no graphviz: a note, not a crash
        section["notes"].append(f"skipped: {type(error).__name__}: {str(error)[:150]}")
        return section
    torch = import_torch()
    runs = {"minigrad": drawing_run(minigrad, n_ops, None)}
    if torch is not None:
        runs["torch"] = drawing_run(torch, n_ops, None)
    results = compare(runs, config["viz_repeats"], optional_repeats=1)
    # every node drawn (no max_nodes cut-off): slower, shown for information
    every = f"minigrad, max_nodes={n_ops + 2}"
    runs[every] = drawing_run(minigrad, n_ops, n_ops + 2)
    results.update(compare({every: runs[every]}, max(1, config["viz_repeats"] // 2),
                           optional_repeats=1))
    for name, result in results.items():
        label = name if "max_nodes" in name else f"{name} tensors"
        if "error" in result:
            section["rows"].append([label, result["error"], ""])
            continue
        result["total"] = result["draw"] + result["svg"] + result["png"]
        result["boxes"] = getattr(runs[name], "boxes", None)
        section["rows"].append([label, f"{result['total']:6.2f} s = draw {result['draw']:.2f} + "
                                       f"SVG {result['svg']:.2f} + PNG {result['png']:.2f}",
                                f"{result['boxes']} boxes"])
    section["results"] = results
    minigrad_total = results["minigrad"].get("total")
    section["target"] = target_entry(f"viz.draw, {n_ops:,}-op loop, SVG + PNG", DRAW_SECONDS,
                                     minigrad_total, unit="s")
    section["targets"] = [section["target"]]
    return section


WORKLOADS = {"W1": run_w1, "W2": run_w2, "W3": run_w3, "W4": run_w4, "viz": run_viz,
             "course": run_course}
