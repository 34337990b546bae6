"""minigrad benchmarks: how far is minigrad from numpy by hand, and from PyTorch?

Run (from the repository root):

    make bench                          # or: .venv/bin/python -m benchmarks
    python -m benchmarks --only W1,W2   # some workloads (W1 W2 W3 W4 viz course)
    python -m benchmarks --quick        # a smoke run in seconds; its numbers mean nothing
    python -m benchmarks --profile W2   # where minigrad spends its time (cProfile)
    python -m benchmarks.instructions   # W2 in machine instructions per op (valgrind), load-proof
    python -m benchmarks.instructions_w1   # W1's step in instructions, minigrad beside numpy
    python -m benchmarks --redraw       # table and chart again from results.json
    python -m benchmarks --redraw --markdown   # the same table as Markdown, for a README

A full run takes three to four minutes, prints a table, writes
benchmarks/results.json and draws figures/benchmarks.png.

What is measured (each implementation is timed in turns with the others, so
they share the machine's moods; every number is a median of several runs
measured with time.perf_counter; the garbage collector stays on, as it is
for a learner; numpy and PyTorch use one thread):

    W1      one training step of a 784-256-10 ReLU network, batch 128, float32:
            minigrad and PyTorch run the same learner's code; numpy is the step
            written by hand (the floor). Also a row with two threads.
            Target: minigrad within 1.15x of numpy.
    W2      1,000 tiny ops on one-element tensors, then backward: per-op cost.
            Target: minigrad within 0.8x of PyTorch.
    W3      the same chain with 10,000 and 100,000 ops: does time grow linearly
            (target: ratio <= 11), does it work at the default recursion limit,
            does the garbage collector run a full pass during backward (counted
            with gc.callbacks; target: none), how much memory does it take
            (measured in separate processes; target: <= 250 bytes per op).
    W4      10,000 products of leaves summed in pairs, then backward: per-node
            cost in a wide graph. Target: minigrad within 0.7x of PyTorch.
    viz     minigrad.viz.draw of a 1,000-op loop with a reused parameter
            (y = y * w + b), rendered to SVG and PNG as a notebook shows it, for
            minigrad's and PyTorch's tensors. Target: under 2 s.
    course  executing every notebook on a fresh kernel (target: 30 s in all for
            starting the kernels and running the cells, the package byte-compiled
            first as an installed one is), and drawing one W1 step's graph.

The table ends with every target of the workloads run, met or not.

Reading the table: each row is one implementation; "1.35x numpy" means 35%
slower than numpy. "NOT met" lines are what to work on; the
profile (--profile) says where the time goes. The machine's load at the
start is in results.json ("meta"): on a busy machine, compare ratios, not
absolute times, and run again before believing a small change.

Optional rows: micrograd, MyGrad and HIPS autograd are measured when they
can be imported (they are never a dependency). To see them, install them
outside the project's environment, e.g.

    pip install --target /tmp/bench-extras --no-deps micrograd mygrad autograd
    PYTHONPATH=/tmp/bench-extras python -m benchmarks

A row that says RecursionError is a result too (micrograd's recursive
topological sort stops near 1,000 nodes).
"""
import argparse
import cProfile
import json
import pstats
import sys
import time
from pathlib import Path

from . import report
from .timing import ROOT
from .workloads import FULL, QUICK, WORKLOADS

RESULTS_PATH = ROOT / "benchmarks" / "results.json"
FIGURE_PATH = ROOT / "figures" / "benchmarks.png"


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description="minigrad vs numpy by hand vs PyTorch",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="tiny sizes and few repeats: checks that everything runs")
    parser.add_argument("--only", default=",".join(WORKLOADS),
                        help="comma-separated workloads to run (default: all)")
    parser.add_argument("--no-optional", action="store_true",
                        help="leave out micrograd, MyGrad and HIPS autograd even if installed")
    parser.add_argument("--output", type=Path, default=RESULTS_PATH, help="where to write JSON")
    parser.add_argument("--figure", type=Path, default=FIGURE_PATH, help="where to draw the chart")
    parser.add_argument("--redraw", action="store_true",
                        help="measure nothing: print the table and redraw the chart of --output")
    parser.add_argument("--profile", metavar="WORKLOAD", choices=["W1", "W2", "W3", "W4"],
                        help="profile minigrad on one workload with cProfile instead")
    parser.add_argument("--markdown", action="store_true",
                        help="print the table as Markdown (to quote a run in a README)")
    arguments = parser.parse_args(argv)
    arguments.only = [name.strip() for name in arguments.only.split(",") if name.strip()]
    unknown = [name for name in arguments.only if name not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload(s) {unknown}; choose from {list(WORKLOADS)}")
    return arguments


def profile(workload, quick):
    """cProfile minigrad's implementation of one workload; print the most expensive functions.

    cProfile adds a fixed cost to every Python call, so tiny functions look
    more expensive than they are: use it to see *which* functions matter and
    how often they are called, and the benchmark itself for the real times.
    """
    import minigrad

    from . import graphs, mlp
    if workload == "W1":
        x, y, params = mlp.tensors_for(minigrad, mlp.make_data())
        def run():
            mlp.learner_step(minigrad, x, y, params)
        runs = 20 if quick else 300
    else:
        sizes = {"W2": 1000, "W3": 10_000 if quick else 100_000, "W4": 1000 if quick else 10_000}
        builder = graphs.wide_run if workload == "W4" else graphs.chain_run
        run = builder("minigrad", minigrad, sizes[workload])
        runs = {"W2": 200, "W3": 1, "W4": 5}[workload] if not quick else 1
    run()                                     # warm up outside the profile
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(runs):
        run()
    profiler.disable()
    print(f"minigrad on {workload}: {runs} run(s) under cProfile (times include its overhead)\n")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(15)


def main(argv=None):
    arguments = parse_arguments(argv)
    if arguments.profile:
        profile(arguments.profile, arguments.quick)
        return 0
    if arguments.redraw:
        results = json.loads(arguments.output.read_text())
        report.print_table(results, markdown=arguments.markdown)
        report.draw_chart(results, arguments.figure)
        return 0
    config = QUICK if arguments.quick else FULL
    results = {"meta": report.machine_description(), "workloads": {}}
    results["meta"]["quick"] = arguments.quick
    results["meta"]["config"] = config
    with_optional = not arguments.no_optional
    results["meta"]["optional_libraries_measured"] = with_optional
    for name in arguments.only:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        results["workloads"][name] = WORKLOADS[name](config, with_optional)
        results["workloads"][name]["wall_seconds"] = time.perf_counter() - started
    report.print_table(results, markdown=arguments.markdown)
    report.write_json(results, arguments.output)
    drew = report.draw_chart(results, arguments.figure)
    print(f"\nwrote {arguments.output}" + (f" and {arguments.figure}" if drew else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
