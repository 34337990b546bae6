"""W2 counted in machine instructions: a measure that does not depend on the machine's load.

Timings on a shared machine move by 10% from one run to the next, more than most
single improvements to the per-operation cost. Valgrind's cachegrind counts the
instructions a process executes instead, the same in every run once the run is
made deterministic:

* one BLAS thread (its idle threads would otherwise spin a different amount each time),
* a fixed hash seed and no address randomisation (``setarch -R``), so dictionaries
  and sets keyed by objects behave the same,
* the garbage collector off while the chain is built (collections start at
  moments that depend on everything else the process did).

Usage (needs ``valgrind`` and ``setarch``)::

    python -m benchmarks.instructions            # this checkout's minigrad
    python -m benchmarks.instructions --ops 2000
    python -m benchmarks.instructions --w4       # W4's wide graph instead, per product

It builds W2's chain (``y = y * 1.0001``, ``y = y + b``) of two lengths in
separate processes and reports the difference per operation, for the forward
pass (building and then dropping the graph) and for backward, so that the cost
of starting Python and importing minigrad cancels out. Each process runs under
cachegrind for about 10 seconds.
"""
import argparse
import os
import re
import subprocess
import sys

from .timing import ROOT

REPEATS = 3          # chains per process, each built (and differentiated) then dropped


def run_chains(n_ops, with_backward):
    """In this process: build the chain ``REPEATS`` times (after a warm-up), garbage collector off."""
    import gc

    import minigrad
    from .graphs import build_chain
    a = minigrad.tensor([1.0], requires_grad=True)
    b = minigrad.tensor([0.001], requires_grad=True)
    build_chain(a, b, 100).backward()            # warm-up: caches, lazily made objects
    gc.collect()
    gc.disable()
    for _ in range(REPEATS):
        y = build_chain(a, b, n_ops)
        if with_backward:
            y.backward()
        del y


def run_wide(n_products, with_backward, repeats=REPEATS):
    """In this process: W4's wide graph of ``n_products`` products, ``repeats`` times, collector off.

    The leaves are made once, as in the benchmark, so each run makes their
    ``AccumulateGrad`` nodes again (the previous graph took them along).
    Between runs their gradients are dropped without the ``.grad`` setter's
    checks, which the benchmark does not time either."""
    import gc

    import minigrad
    from .graphs import build_wide
    from .objects import leaves
    left, right = leaves(minigrad, n_products)
    build_wide(left[:100], right[:100]).backward()       # warm-up: caches, lazily made objects
    gc.collect()
    gc.disable()
    for _ in range(repeats):
        for leaf in left + right:
            leaf._grad = None
        total = build_wide(left, right)
        if with_backward:
            total.backward()
        del total


def count(n_ops, with_backward):
    """Instructions executed by a fresh process that runs ``run_chains(n_ops, with_backward)``."""
    return count_in_fresh_process(f"from benchmarks.instructions import run_chains; "
                                  f"run_chains({n_ops}, {with_backward})")


def count_wide(n_products, with_backward, repeats):
    """Instructions executed by a fresh process that runs ``run_wide(...)``."""
    return count_in_fresh_process(f"from benchmarks.instructions import run_wide; "
                                  f"run_wide({n_products}, {with_backward}, {repeats})")


def count_in_fresh_process(code):
    """Instructions executed by a fresh, deterministic Python process that runs ``code``."""
    return events_in_fresh_process(code)["I refs"]


def events_in_fresh_process(code, simulate_caches=False):
    """cachegrind's counts for a fresh, deterministic Python process that runs ``code``:
    ``{"I refs": instructions, ...}``, and with ``simulate_caches`` its simulated cache misses
    and branch mispredictions too (``"I1 misses"``, ``"D1 misses"``, ``"LL misses"``,
    ``"Mispredicts"``, ...), the last level being a core's own 512 KB level 2 cache (see
    ``benchmarks.instructions_w1 --caches``)."""
    environment = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
                       MKL_NUM_THREADS="1", PYTHONHASHSEED="0")
    simulation = (["--cache-sim=yes", "--branch-sim=yes", "--LL=524288,8,64"] if simulate_caches
                  else ["--cache-sim=no"])
    command = ["setarch", os.uname().machine, "-R", "valgrind", "--tool=cachegrind", *simulation,
               "--cachegrind-out-file=/dev/null", sys.executable, "-c", code]
    finished = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True,
                              check=True)
    # lines such as "==123== I1  misses:   20,534" (the rates, "0.1%", are left out)
    events = {" ".join(name.split()): int(number.replace(",", "")) for name, number in
              re.findall(r"==\d+== (\w[\w ]*?\w)\s*:\s+([\d,]+)\s", finished.stderr)}
    if "I refs" not in events:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{finished.stderr[-2000:]}")
    return events


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ops", type=int, default=1000,
                        help="the shorter chain's length; the longer one is three times longer")
    parser.add_argument("--w4", action="store_true",
                        help="count W4's wide graph of 10,000 products instead, per product of two "
                             "leaves with its share of the sums (one run against four runs, so that "
                             "making the leaves cancels out)")
    arguments = parser.parse_args()
    # import once outside valgrind first: Python compiles a changed module on its first
    # import, which would be counted in the first process only
    subprocess.run([sys.executable, "-c", "import minigrad"], cwd=ROOT, check=True)
    if arguments.w4:
        n, runs = 10_000, 3
        forward = (count_wide(n, False, 1 + runs) - count_wide(n, False, 1)) / (runs * n)
        both = (count_wide(n, True, 1 + runs) - count_wide(n, True, 1)) / (runs * n)
        name, unit = "W4", "product"
    else:
        short, long = arguments.ops, 3 * arguments.ops
        ops = REPEATS * (long - short)
        forward = (count(long, False) - count(short, False)) / ops
        both = (count(long, True) - count(short, True)) / ops
        name, unit = "W2", "operation"
    print(f"{name} per {unit}: forward {forward:,.0f} instructions, backward {both - forward:,.0f}, "
          f"in all {both:,.0f}")

if __name__ == "__main__":
    main()
