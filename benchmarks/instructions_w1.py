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

Each process runs under cachegrind for about 10 to 20 seconds.
"""
import argparse

from .instructions import count_in_fresh_process


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


def per_step(implementation, short, long):
    """Instructions of one step: the difference of two processes' counts, per extra step."""
    def instructions(n_steps):
        return count_in_fresh_process(
            f"from benchmarks.instructions_w1 import run_steps; run_steps({implementation!r}, {n_steps})")
    return (instructions(long) - instructions(short)) / (long - short)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=10,
                        help="the extra steps the longer run takes (the shorter one takes 2)")
    parser.add_argument("--minigrad-only", action="store_true",
                        help="count only minigrad's step (numpy's does not change with minigrad)")
    arguments = parser.parse_args()
    short, long = 2, 2 + arguments.steps
    ours = per_step("minigrad", short, long)
    line = f"W1 per step: minigrad {ours:,.0f} instructions"
    if not arguments.minigrad_only:
        floor = per_step("numpy", short, long)
        learner = per_step("numpy-learner", short, long)
        line += (f", numpy by hand {floor:,.0f}, difference {ours - floor:,.0f} "
                 f"(ratio {ours / floor:.3f}); numpy written as the learner's step "
                 f"{learner:,.0f} (ratio {learner / floor:.3f})")
    print(line)


if __name__ == "__main__":
    main()
