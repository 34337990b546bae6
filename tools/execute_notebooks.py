"""Run lesson notebooks top to bottom on a fresh kernel and save them with their outputs.

    python tools/execute_notebooks.py                      # every notebooks/*.ipynb
    python tools/execute_notebooks.py notebooks/02_backward.ipynb

The stored outputs are what nbval later compares against, so run this after
changing a lesson, the library's printing or the graph drawing. Cells tagged
``raises-exception`` may raise; any other error stops with the traceback.
Execution counts are renumbered 1, 2, 3, ... as a fresh "Run All" gives.
"""
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def execute(path, timeout=120):
    notebook = nbformat.read(path, as_version=4)
    # record_timing=False: no run times in the cell metadata, so re-running an
    # unchanged lesson leaves its file unchanged
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    started = time.perf_counter()
    client.execute()
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = _joined_streams(cell.outputs)
    nbformat.write(notebook, path)
    return time.perf_counter() - started


def _joined_streams(outputs):
    """One output per run of printed text, as a quiet machine gives: on a busy one the kernel
    may send a cell's prints in several pieces, which would change the stored file for nothing."""
    joined = []
    for output in outputs:
        previous = joined[-1] if joined else None
        if (output.output_type == "stream" and previous is not None
                and previous.output_type == "stream" and previous.name == output.name):
            previous.text += output.text
        else:
            joined.append(output)
    return joined


def main(paths):
    paths = [Path(p) for p in paths] or sorted(NOTEBOOKS.glob("*.ipynb"))
    total = 0.0
    for path in paths:
        seconds = execute(path)
        total += seconds
        print(f"{path.name:40s} {seconds:6.1f} s")
    print(f"{'total':40s} {total:6.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
