"""W1 counted in machine instructions: minigrad's training step against numpy's, load-proof.

W1's wall-clock ratio moves by about 10% from one run to the next on a shared
machine, more than most single improvements to the step's overhead. Like
``benchmarks.instructions`` (read its docstring for how a run is made
deterministic), this counts with valgrind's cachegrind the instructions a
fresh process executes, for two numbers of training steps, and reports the
difference per step, so that starting Python and importing cancel out. The
matrix products' instructions are the same in both implementations; what
differs is minigrad's overhead around them.

Usage (needs ``valgrind`` and ``setarch``)::

    python -m benchmarks.instructions_w1              # this checkout's minigrad and numpy's step
    python -m benchmarks.instructions_w1 --steps 20
    python -m benchmarks.instructions_w1 --caches     # and simulated cache misses, mispredictions

Instructions are not all of a step's time: ``--caches`` simulates the caches (the last
level simulated being one core's 512 KB level 2, as on the benchmark's processor; the
shared level 3 holds everything W1 touches) and the branch predictor, and reports the
misses of each per step. Python's interpreter runs each line of a step once per step, so
its code and objects meet the caches cold, and its dispatch mispredicts often: a step
that runs more Python costs more per instruction than numpy's arithmetic does.

Each process runs under cachegrind for about 10 to 20 seconds.
"""
import argparse
import subprocess
import sys

from .instructions import events_in_fresh_process
from .timing import ROOT


def run_steps(implementation, n_steps):
    """In this process: ``n_steps`` W1 steps of ``implementation`` after a warm-up, collector off."""
    import gc

    import numpy as np

    from .mlp import BATCH, learner_step, make_data, numpy_learner_step, numpy_step, tensors_for
    data = make_data()
    if implementation == "numpy":
        inputs, labels, parameters = data
        rows = np.arange(BATCH)
        parameters = [p.copy() for p in parameters]

        def step():
            numpy_step(inputs, labels, parameters, rows)
    elif implementation == "numpy-learner":
        inputs, labels, parameters = data
        rows = np.arange(BATCH)
        parameters = [p.copy() for p in parameters]
        grads = [np.zeros_like(p) for p in parameters]

        def step():
            numpy_learner_step(inputs, labels, parameters, grads, rows)
    else:
        import minigrad
        x, y, params = tensors_for(minigrad, data)

        def step():
            learner_step(minigrad, x, y, params)
    for _ in range(3):                 # warm-up: caches, lazily made objects
        step()
    gc.collect()
    gc.disable()
    for _ in range(n_steps):
        step()


def per_step(implementation, short, long, simulate_caches=False):
    """cachegrind's counts for one step (``{"I refs": instructions, ...}``): the difference of
    two processes' counts, per extra step."""
    def events(n_steps):
        return events_in_fresh_process(
            f"from benchmarks.instructions_w1 import run_steps; run_steps({implementation!r}, {n_steps})",
            simulate_caches)
    few, many = events(short), events(long)
    return {name: (many[name] - few[name]) / (long - short) for name in few if name in many}


# What --caches reports, from cachegrind's names: the misses that cost a step its time
# although they are not instructions (a miss in the 512 KB level 2 waits for the shared
# level 3; a mispredicted branch throws away the work started after it).
CACHE_EVENTS = {"I1 misses": "instruction L1 misses", "D1 misses": "data L1 misses",
                "LL misses": "L2 misses", "Mispredicts": "mispredicted branches"}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=10,
                        help="the extra steps the longer run takes (the shorter one takes 2)")
    parser.add_argument("--minigrad-only", action="store_true",
                        help="count only minigrad's step (numpy's does not change with minigrad)")
    parser.add_argument("--caches", action="store_true",
                        help="also simulate the caches and the branch predictor (about 5 times "
                             "slower) and report each step's misses beside its instructions")
    arguments = parser.parse_args()
    short, long = 2, 2 + arguments.steps
    # import once outside valgrind first: Python compiles a changed module on its first
    # import, which would be counted in the first process only
    subprocess.run([sys.executable, "-c", "import minigrad, benchmarks.mlp"], cwd=ROOT, check=True)
    names = ["minigrad"] if arguments.minigrad_only else ["minigrad", "numpy", "numpy-learner"]
    counts = {name: per_step(name, short, long, arguments.caches) for name in names}
    ours = counts["minigrad"]["I refs"]
    line = f"W1 per step: minigrad {ours:,.0f} instructions"
    if not arguments.minigrad_only:
        floor, learner = counts["numpy"]["I refs"], counts["numpy-learner"]["I refs"]
        line += (f", numpy by hand {floor:,.0f}, difference {ours - floor:,.0f} "
                 f"(ratio {ours / floor:.3f}); numpy written as the learner's step "
                 f"{learner:,.0f} (ratio {learner / floor:.3f})")
    print(line)
    if arguments.caches:
        for event, what in CACHE_EVENTS.items():
            print(f"  {what} per step: " + ", ".join(
                f"{name} {counts[name][event]:,.0f}" for name in names))


if __name__ == "__main__":
    main()
