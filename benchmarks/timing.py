"""Measuring: several implementations timed in turns, medians, and the libraries to compare with.

Every implementation of a workload is a function that runs the workload once
and returns how long each phase took, e.g. ``{"forward": 0.012, "backward":
0.020}`` in seconds. It times itself with ``time.perf_counter`` so that setup
(making leaves, resetting ``.grad``) stays outside the measured phases.

``side_by_side`` calls the implementations in turns instead of all runs of A
before all runs of B: a machine that gets slower or faster during the run
(another process, CPU frequency) then affects every implementation alike, and
the ratios stay honest. The turns are ordered so that each implementation
comes right after each other one equally often (``balanced_orders``): what one
leaves behind (caches swept, a library's threads still busy) then falls on all
alike, not always on the same one, as rotating one order (A, B, C, then B, C,
A) did, where B always ran right after A.

``compare`` takes turns only among minigrad, numpy and PyTorch, whose
ratios are the targets, and times the optional libraries afterwards: their
much larger allocations, interleaved, were seen to slow minigrad's next run
by up to 2x, which would measure them rather than minigrad.
"""
import gc
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from . import THREADS

ROOT = Path(__file__).resolve().parent.parent

# Autograd libraries that get extra rows when they can be imported. They are
# never a dependency of the project (see the notes in __main__.py).
OPTIONAL_LIBRARIES = ("micrograd", "mygrad", "autograd")
MAIN_IMPLEMENTATIONS = ("minigrad", "numpy", "torch", "numpy, learner's step")
# What a run may report besides seconds: events counted, reported for the worst run.
COUNTED_PHASES = {"full_collections"}


def side_by_side(implementations, repeats, warmup=1):
    """Run each implementation ``warmup + repeats`` times in turns; median seconds per phase.

    Returns ``{name: {phase: median seconds, ..., "samples": n}}`` (a counted phase,
    such as ``full_collections``, gives its largest count instead), or
    ``{name: {"error": "..."}}`` for an implementation that raised (it is not
    run again; the others go on).
    """
    if not implementations:
        return {}
    samples = {name: [] for name in implementations}
    errors = {}
    gc.collect()                 # start from a clean heap; the collector stays on
    names = list(implementations)
    orders = balanced_orders(len(names))
    for round_number in range(warmup + repeats):
        for name in (names[i] for i in orders[round_number % len(orders)]):
            if name in errors:
                continue
            try:
                phases = implementations[name]()
            except Exception as error:  # noqa: BLE001 - reported in the results instead
                errors[name] = f"{type(error).__name__}: {str(error)[:200]}"
                continue
            if round_number >= warmup:
                samples[name].append(phases)
    results = {}
    for name in names:
        if name in errors:
            results[name] = {"error": errors[name]}
            continue
        runs = samples[name]
        medians = {phase: statistics.median(run[phase] for run in runs) for phase in runs[0]}
        for phase in COUNTED_PHASES.intersection(runs[0]):
            medians[phase] = max(run[phase] for run in runs)     # a count: the worst run
        medians["samples"] = len(runs)
        results[name] = medians
    return results


def balanced_orders(n):
    """Orders of ``range(n)`` in which each number comes right after each other one equally
    often (a balanced Latin square, Williams' design): 0, 1, n-1, 2, n-2, ... shifted by
    1, 2, ...; for an odd n the same orders reversed as well. For 4: 0 1 3 2, 1 2 0 3,
    2 3 1 0, 3 0 2 1."""
    first, low, high = [0], 1, n - 1
    while low <= high:
        first.append(low)
        low += 1
        if low <= high:
            first.append(high)
            high -= 1
    orders = [[(i + shift) % n for i in first] for shift in range(n)]
    if n % 2:
        orders += [order[::-1] for order in orders]
    return orders


def compare(implementations, repeats, optional_repeats, warmup=1):
    """``side_by_side`` for minigrad, numpy and PyTorch; then, apart, for the optional libraries."""
    main = {name: run for name, run in implementations.items() if name in MAIN_IMPLEMENTATIONS}
    others = {name: run for name, run in implementations.items() if name not in main}
    results = side_by_side(main, repeats, warmup)
    results.update(side_by_side(others, optional_repeats, warmup if optional_repeats > 1 else 0))
    return results


def stopwatch():
    """``lap()`` returns the seconds since the previous lap (or since the stopwatch started)."""
    last = [time.perf_counter()]

    def lap():
        now = time.perf_counter()
        elapsed = now - last[0]
        last[0] = now
        return elapsed

    return lap


def import_torch():
    """PyTorch pinned to the benchmark's thread count, or None when it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(THREADS)
    return torch


def optional_libraries(enabled=True):
    """The optional autograd libraries that can be imported here: ``{name: module}``."""
    found = {}
    if not enabled:
        return found
    for name in OPTIONAL_LIBRARIES:
        try:
            found[name] = importlib.import_module(name)
        except ImportError:
            pass
    return found


def run_in_subprocess(module, arguments, threads=None, timeout=600):
    """Run ``python -m benchmarks.<module> <arguments>`` in a fresh interpreter; its JSON output.

    A fresh interpreter is how the two-thread row gets its own thread count
    (the math libraries read it once, at import) and how the memory
    measurements start from a process that has allocated nothing yet.
    """
    environment = dict(os.environ)
    environment["MINIGRAD_BENCH_THREADS"] = str(threads or THREADS)
    completed = subprocess.run(
        [sys.executable, "-m", f"benchmarks.{module}", *map(str, arguments)],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=timeout)
    if completed.returncode != 0:
        raise RuntimeError(f"benchmarks.{module} failed:\n{completed.stderr[-2000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])
