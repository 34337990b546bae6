"""W3 and W4 counted in objects for the garbage collector: a measure that does not depend on the load.

W3's growth and W4's ratio are decided by the garbage collector's full passes,
each of which walks every tracked object in the process (PyTorch's import keeps
some 146,000, about 140 ms a pass). A full pass starts once the objects that
survived younger collections since the last full pass reach a quarter of the
older objects; every object a graph keeps until backward counts. So the number
of tracked objects each operation leaves, and the full passes they cause, say
more than a timing on a busy machine. This prints:

* the tracked objects allocated per operation of W3's chain (collector off,
  ``gc.get_count``), and per product of W4's wide graph with its share of the sums;
* the most tracked objects W4's backward pass holds at once beyond the graph and
  the leaves' new ``.grad`` tensors (gradients waiting for their node), per product;
* W3's chains of 10,000 and 100,000 ops, with the collector's passes of each generation in
  each phase (forward, backward, freeing the graph);
* W4 run as the benchmark runs it (minigrad and PyTorch in turns), with the full
  passes (generation 2, counted with ``gc.callbacks``) in each phase of each run.

Usage::

    python -m benchmarks.objects              # (PyTorch is imported, as in the benchmark)
    python -m benchmarks.objects --runs 12
"""
import argparse
import gc

import numpy as np

from .graphs import build_chain, build_wide, clear_grads
from .timing import import_torch


def allocated_per_unit(build, units):
    """Tracked objects ``build()`` allocates and keeps, per unit (collector off while it runs)."""
    gc.collect()
    gc.disable()
    try:
        before = gc.get_count()[0]
        kept = build()
        per_unit = (gc.get_count()[0] - before) / units
    finally:
        gc.enable()
    del kept
    return per_unit


def leaves(module, n, seed=0):
    """W4's leaves: 2 x n one-element float32 tensors that require grad."""
    values = np.random.default_rng(seed).standard_normal((2, n)).astype(np.float32).tolist()
    return ([module.tensor([v], requires_grad=True) for v in values[0]],
            [module.tensor([v], requires_grad=True) for v in values[1]])


def backward_peak_per_unit(build, leaves, units):
    """The most tracked objects backward holds at once, per unit (collector off), besides the
    graph and the one new ``.grad`` tensor per leaf that backward leaves behind.

    Sampled as each leaf's gradient is accumulated (a post-accumulate-grad hook on every leaf,
    which, unlike a hook on the gradient, needs no AccumulateGrad node): gradients waiting in
    the engine's buffers survive younger collections like the graph does, and so count
    towards the next full pass."""
    root = build()
    gc.collect()
    gc.disable()
    peak, leaves_done = [0], [0]
    handles = []
    try:
        start = gc.get_count()[0]

        def sample(leaf):
            leaves_done[0] += 1
            peak[0] = max(peak[0], gc.get_count()[0] - start - leaves_done[0])
        handles = [leaf.register_post_accumulate_grad_hook(sample) for leaf in leaves]
        start = gc.get_count()[0]
        root.backward()
    finally:
        gc.enable()
        for handle in handles:
            handle.remove()
    return peak[0] / units


def full_passes_per_phase(modules, n_products, runs):
    """W4 run ``runs`` times per library, in turns: [forward, backward, free] full passes per run."""
    passes = []

    def count(phase, info):
        if phase == "start" and info["generation"] == 2:
            passes.append(1)

    def one_run(module, left, right):
        counts = []
        passes.clear()
        total = build_wide(left, right)
        counts.append(len(passes))
        passes.clear()
        total.backward()
        counts.append(len(passes))
        passes.clear()
        del total
        clear_grads("minigrad", left + right)
        counts.append(len(passes))
        return counts

    prepared = {name: (module, *leaves(module, n_products)) for name, module in modules.items()}
    found = {name: [] for name in modules}
    names = list(modules)
    gc.collect()
    gc.callbacks.append(count)
    try:
        for round_number in range(runs):
            shift = round_number % len(names)
            for name in names[shift:] + names[:shift]:
                found[name].append(one_run(*prepared[name]))
    finally:
        gc.callbacks.remove(count)
    return found


def chain_passes_per_phase(module, n_ops, runs=2):
    """W3's chain of ``n_ops`` run as the benchmark runs it: the collector's passes of each
    generation in each phase, ``{phase: [passes of generation 0, 1, 2]}`` (the worst run).

    Each node the chain keeps survives the younger generations, and Python 3.11 starts a full
    pass once ten generation-1 passes have run and the survivors waiting for it exceed a
    quarter of the objects the last full pass kept: about one full pass per 53,000 nodes
    with PyTorch imported (its ~214,000 objects), so one in a 100,000-op forward pass.
    Backward frees more tracked objects than it makes: no pass starts there."""
    x = module.tensor([1.0], requires_grad=True)
    b = module.tensor([0.001], requires_grad=True)
    passes = []

    def count(phase, info):
        if phase == "start":
            passes.append(info["generation"])

    worst = {}
    gc.collect()
    gc.callbacks.append(count)
    try:
        for _ in range(runs):
            phases = {}
            passes.clear()
            y = build_chain(x, b, n_ops)
            phases["forward"], passes[:] = [passes.count(g) for g in range(3)], []
            y.backward()
            phases["backward"], passes[:] = [passes.count(g) for g in range(3)], []
            del y
            clear_grads("minigrad", (x, b))
            phases["free"] = [passes.count(g) for g in range(3)]
            for phase, counts in phases.items():
                worst[phase] = max(worst.get(phase, counts), counts, key=lambda c: c[2])
    finally:
        gc.callbacks.remove(count)
    return worst


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=8, help="W4 runs per library")
    arguments = parser.parse_args()
    import minigrad
    modules = {"minigrad": minigrad}
    torch = import_torch()
    if torch is not None:
        modules["torch"] = torch
    x = minigrad.tensor([1.0], requires_grad=True)
    b = minigrad.tensor([0.001], requires_grad=True)
    build_chain(x, b, 100).backward()                # warm-up
    per_op = allocated_per_unit(lambda: build_chain(x, b, 10_000), 10_000)
    print(f"W3: {per_op:.2f} tracked objects allocated per operation of the chain")
    for n_ops in (10_000, 100_000):
        print(f"W3: collector passes [generation 0, 1, 2] in each phase of a {n_ops:,}-op chain: "
              f"{chain_passes_per_phase(minigrad, n_ops)}")
    left, right = leaves(minigrad, 10_000)
    per_product = allocated_per_unit(lambda: build_wide(left, right), 10_000)
    print(f"W4: {per_product:.2f} tracked objects allocated per product (with its share of the sums)")
    clear_grads("minigrad", left + right)
    held = backward_peak_per_unit(lambda: build_wide(left, right), left + right, 10_000)
    print(f"W4: at most {held:.2f} tracked objects per product held at once by backward "
          f"(besides the leaves' new .grad)")
    clear_grads("minigrad", left + right)
    print(f"W4 full passes of the collector [forward, backward, free] in each of {arguments.runs} runs:")
    for name, counts in full_passes_per_phase(modules, 10_000, arguments.runs).items():
        print(f"  {name:9s} {counts}")


if __name__ == "__main__":
    main()
