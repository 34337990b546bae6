"""W2, W3 and W4: graphs of many tiny operations, where the cost is all bookkeeping.

* W2 and W3 build a *chain*: ``y = y * 1.0001`` and ``y = y + b`` in turns,
  on one-element float32 tensors, then ``y.backward()``. W2 is 1,000 ops
  (cost per op); W3 is 10,000 and 100,000 ops (does the cost grow linearly,
  and does anything break at the default recursion limit?).
* W4 builds a *wide* graph: 10,000 products ``a_i * b_i`` of leaves, summed
  in pairs (a tree of additions), then backward.

The same code runs on minigrad, PyTorch, MyGrad and micrograd (all
overload ``*`` and ``+``); HIPS autograd differentiates a function instead,
so it has its own small adapter. Each run returns its phases in seconds:
forward (building the graph), backward, and free (dropping the graph).

Run on its own, ``python -m benchmarks.graphs memory LIBRARY N`` builds one
chain of N ops in a fresh process and prints how much its peak memory grew.
"""
import contextlib
import gc
import json
import resource
import sys

import numpy as np

from .timing import stopwatch

CHAIN_START = 1.0
CHAIN_STEP = 0.001      # b: small, so 100,000 steps stay far from float32 overflow


def build_chain(x, b, n_ops):
    y = x
    for _ in range(n_ops // 2):
        y = y * 1.0001
        y = y + b
    return y


def tree_sum(terms):
    """Add neighbours pairwise until one term is left (depth log2(n), not n)."""
    while len(terms) > 1:
        paired = [terms[i] + terms[i + 1] for i in range(0, len(terms) - 1, 2)]
        if len(terms) % 2:
            paired.append(terms[-1])
        terms = paired
    return terms[0]


def build_wide(left, right):
    return tree_sum([a * b for a, b in zip(left, right)])


# --- leaves of each library --------------------------------------------------------------

def make_leaf(library_name, module, value):
    """A one-element float32 leaf that requires grad, in the given library."""
    if library_name in ("minigrad", "torch"):
        return module.tensor([value], requires_grad=True)
    if library_name == "mygrad":
        return module.tensor([value], dtype=np.float32)
    if library_name == "micrograd":
        from micrograd.engine import Value
        return Value(value)
    raise ValueError(library_name)


def clear_grads(library_name, leaves):
    for leaf in leaves:
        if library_name == "micrograd":
            leaf.grad = 0.0
        elif library_name != "mygrad":      # MyGrad clears grads itself on the next operation
            leaf.grad = None


def backward(y):
    y.backward()


class FullCollections:
    """Counts the garbage collector's full passes (generation 2) while it is active.

    A full pass walks every object the collector tracks in the process (with
    PyTorch imported, hundreds of thousands): one during backward() costs more
    than the backward pass of a short chain. ``gc.callbacks`` tells us about each
    pass as it starts.
    """

    def __init__(self):
        self.count = 0

    def _callback(self, phase, info):
        if phase == "start" and info.get("generation") == 2:
            self.count += 1

    def __enter__(self):
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc_info):
        gc.callbacks.remove(self._callback)


# --- the runs ------------------------------------------------------------------------------

def chain_run(library_name, module, n_ops, count_collections=False):
    """A run-once function for the chain of ``n_ops`` operations.

    With ``count_collections``, each run also reports ``full_collections``: how
    many full garbage collections started during backward().
    """
    if library_name == "autograd":
        return _autograd_chain_run(n_ops)
    x = make_leaf(library_name, module, CHAIN_START)
    b = make_leaf(library_name, module, CHAIN_STEP)

    def run():
        lap = stopwatch()
        y = build_chain(x, b, n_ops)
        forward = lap()
        collections = FullCollections() if count_collections else contextlib.nullcontext()
        with collections:
            backward(y)
        backward_seconds = lap()
        del y
        free = lap()
        clear_grads(library_name, (x, b))
        phases = {"forward": forward, "backward": backward_seconds, "free": free}
        if count_collections:
            phases["full_collections"] = collections.count
        return phases

    return run


def wide_run(library_name, module, n_products):
    """A run-once function for the sum of ``n_products`` products of leaves."""
    if library_name == "autograd":
        return _autograd_wide_run(n_products)
    rng = np.random.default_rng(0)
    values = rng.standard_normal((2, n_products)).astype(np.float32).tolist()
    left = [make_leaf(library_name, module, v) for v in values[0]]
    right = [make_leaf(library_name, module, v) for v in values[1]]

    def run():
        lap = stopwatch()
        total = build_wide(left, right)
        forward = lap()
        backward(total)
        backward_seconds = lap()
        del total
        free = lap()
        clear_grads(library_name, left + right)
        return {"forward": forward, "backward": backward_seconds, "free": free}

    return run


def _autograd_chain_run(n_ops):
    """HIPS autograd: forward is tracing the function, backward is calling the returned vjp."""
    from autograd import make_vjp
    leaves = (np.float32([CHAIN_START]), np.float32([CHAIN_STEP]))

    def run():
        lap = stopwatch()
        vjp, y = make_vjp(lambda xb: build_chain(xb[0], xb[1], n_ops))(leaves)
        forward = lap()
        vjp(np.ones_like(y))
        backward_seconds = lap()
        del vjp, y
        return {"forward": forward, "backward": backward_seconds, "free": lap()}

    return run


def _autograd_wide_run(n_products):
    """HIPS autograd takes the leaves as one list; each ``leaves[i]`` is then a traced op too."""
    from autograd import make_vjp
    rng = np.random.default_rng(0)
    values = rng.standard_normal((2, n_products)).astype(np.float32)
    leaves = [np.float32([v]) for v in values.reshape(-1)]

    def total(parameters):
        return build_wide([parameters[i] for i in range(n_products)],
                          [parameters[n_products + i] for i in range(n_products)])

    def run():
        lap = stopwatch()
        vjp, y = make_vjp(total)(leaves)
        forward = lap()
        vjp(np.ones_like(y))
        backward_seconds = lap()
        del vjp, y
        return {"forward": forward, "backward": backward_seconds, "free": lap()}

    return run


# --- peak memory of one chain, in a fresh process ------------------------------------------

def reset_peak_memory():
    """Make the kernel forget the peak so far (Linux: writing 5 to /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
    except OSError:
        pass


def memory_now_and_peak():
    """(resident memory now, highest resident memory so far) of this process, in bytes."""
    now = peak = None
    try:
        with open("/proc/self/status") as status:          # Linux
            for line in status:
                if line.startswith("VmRSS:"):
                    now = int(line.split()[1]) * 1024
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) * 1024
    except OSError:
        pass
    if peak is None:                                       # elsewhere: only the peak is known
        scale = 1 if sys.platform == "darwin" else 1024
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
    return now if now is not None else peak, peak


def chain_memory(library_name, n_ops):
    """How far the peak resident memory rises above the memory in use before the chain.

    Importing the libraries may have used more memory for a moment than a
    short chain ever does, so the peak is reset (where the system allows it)
    and compared with the memory in use just before building.
    """
    if library_name == "torch":
        from .timing import import_torch
        module = import_torch()
    else:
        import importlib
        module = importlib.import_module(library_name)
    run = chain_run(library_name, module, 100)
    run()                              # warm up: first-call allocations are not the chain's
    run = chain_run(library_name, module, n_ops)
    reset_peak_memory()
    before, _ = memory_now_and_peak()
    run()
    _, peak = memory_now_and_peak()
    return {"peak_growth_bytes": max(peak - before, 0)}


def main():
    if len(sys.argv) != 4 or sys.argv[1] != "memory":
        sys.exit("usage: python -m benchmarks.graphs memory LIBRARY N_OPS")
    print(json.dumps(chain_memory(sys.argv[2], int(sys.argv[3]))))


if __name__ == "__main__":
    main()
