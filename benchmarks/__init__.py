"""Benchmarks of minigrad against hand-written numpy and PyTorch: ``python -m benchmarks``.

How to run and read the results is explained at the top of ``__main__.py``.

Importing this package pins numpy's and PyTorch's math libraries to one
thread (or to ``MINIGRAD_BENCH_THREADS`` threads). Those libraries read the
thread count once, when they are first imported, so the pin has to happen
here, before any module of the package imports numpy.
"""
import os
import sys

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
THREADS = int(os.environ.get("MINIGRAD_BENCH_THREADS", "1"))

# Under pytest or in a notebook numpy is usually loaded already; the pin then
# cannot reach it, and the results say so instead of pretending.
PINNED_TOO_LATE = sorted(name for name in ("numpy", "torch") if name in sys.modules)

for _variable in THREAD_VARIABLES:
    os.environ[_variable] = str(THREADS)
