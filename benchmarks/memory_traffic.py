"""W1's memory use per step, in counts that do not depend on the machine's load.

W1's step moves a few megabytes through memory (the 784x256 weight, its gradient,
the temporary ``lr * p.grad``, the layer's activations). What it costs besides
instructions could come from the operating system (page faults: the C library hands
arrays of more than about 128 KB back to the system when they are freed and maps new
ones, zeroed page by page, at the next step) or from extra arrays. This counts both
for minigrad's step, numpy's hand-written one and numpy written as the learner's step:

* minor page faults per step (``getrusage``, over many steps after a warm-up),
* the step's peak memory above what it started with (``tracemalloc``, numpy's
  arrays included), and the arrays of at least 4 KB it creates (count and bytes,
  each attributed to the line of Python that made it).

Usage::

    python -m benchmarks.memory_traffic
    python -m benchmarks.memory_traffic --steps 500
    python -m benchmarks.memory_traffic --lines     # and each array: its size, the line that made it

(Cache misses and mispredicted branches: ``python -m benchmarks.instructions_w1 --caches``.)
"""
import argparse
import gc
import resource
import sys
import tracemalloc

LARGE = 4096          # bytes: an array at least this large counts as one of the step's arrays


def make_step(implementation):
    """A function running one W1 step of ``implementation`` (as benchmarks.instructions_w1)."""
    import numpy as np

    from .mlp import BATCH, learner_step, make_data, numpy_learner_step, numpy_step, tensors_for
    data = make_data()
    inputs, labels, parameters = data
    rows = np.arange(BATCH)
    parameters = [p.copy() for p in parameters]
    if implementation == "numpy":
        return lambda: numpy_step(inputs, labels, parameters, rows)
    if implementation == "numpy-learner":
        grads = [np.zeros_like(p) for p in parameters]
        return lambda: numpy_learner_step(inputs, labels, parameters, grads, rows)
    import minigrad
    x, y, params = tensors_for(minigrad, data)
    return lambda: learner_step(minigrad, x, y, params)


def page_faults_per_step(step, n_steps):
    """Minor page faults per step, over ``n_steps`` steps."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(n_steps):
        step()
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / n_steps


def allocations_of_one_step(step, where=None):
    """(peak bytes above the start, arrays of at least LARGE bytes made, their bytes) in one step.

    Each line of Python the step runs is watched (``sys.settrace``): memory that rose by
    LARGE or more while it ran, even if freed again, counts as an array it made (two made
    by one line count as one). ``where``: a list that gets (bytes, "file:line function")
    for each of those arrays."""
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    made = []
    line_start = [start]
    highest = [0]
    running = ["(start)"]           # the line that ran since the last event

    def watch(frame, event, arg):
        current, peak = tracemalloc.get_traced_memory()
        highest[0] = max(highest[0], peak - start)
        if peak - line_start[0] >= LARGE:
            made.append(peak - line_start[0])
            if where is not None:
                where.append((made[-1], running[0]))
        tracemalloc.reset_peak()
        line_start[0] = tracemalloc.get_traced_memory()[0]
        code = frame.f_code
        running[0] = f"{code.co_filename.rpartition('/')[2]}:{frame.f_lineno} {code.co_name}"
        return watch

    sys.settrace(watch)
    try:
        step()
    finally:
        sys.settrace(None)
    highest[0] = max(highest[0], tracemalloc.get_traced_memory()[1] - start)
    tracemalloc.stop()
    return highest[0], len(made), sum(made)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=200, help="steps for the page faults")
    parser.add_argument("--lines", action="store_true",
                        help="list each array made: its kilobytes and the line of Python that made it")
    arguments = parser.parse_args()
    for implementation in ("minigrad", "numpy", "numpy-learner"):
        step = make_step(implementation)
        for _ in range(3):             # warm-up: caches, lazily made objects, .grad
            step()
        gc.collect()
        faults = page_faults_per_step(step, arguments.steps)
        where = []
        peak, arrays, array_bytes = allocations_of_one_step(step, where)
        print(f"W1 {implementation}: {faults:.2f} page faults per step; peak {peak / 1e6:.2f} MB "
              f"above the step's start; {arrays} arrays of {LARGE // 1024} KB or more made, "
              f"{array_bytes / 1e6:.2f} MB in all")
        if arguments.lines:
            for size, line in where:
                print(f"  {size / 1024:7.1f} KB  {line}")


if __name__ == "__main__":
    main()
