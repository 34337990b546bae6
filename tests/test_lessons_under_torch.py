"""Every lesson, run on real PyTorch, prints what it stores.

Lesson 0 promises that replacing ``import minigrad as torch`` by ``import torch``
changes nothing a learner sees. This suite keeps that promise honest: it runs
each notebook in ``notebooks/`` on a fresh kernel with the import line swapped
and compares every code cell's output with the output stored in the notebook
(which minigrad produced). Allowed differences, and only these:

- memory addresses (``0x7f3a...``) and the temporary file names of cells;
- lines starting ``minigrad hint:`` (advice minigrad adds after PyTorch's message);
- the bytes of pictures: a drawing is compared by the fingerprint of its
  graph (the DOT source), never by its pixels.

Run it alone (``pytest tests/test_lessons_under_torch.py``) to check the course
against the PyTorch you have installed; ``python tests/test_lessons_under_torch.py``
prints every differing cell of every lesson.
"""
import difflib
import os
import pathlib
import re
import sys

import pytest

NOTEBOOKS = pathlib.Path(os.environ.get("MINIGRAD_NOTEBOOK_DIR",
                                        pathlib.Path(__file__).parent.parent / "notebooks"))
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
IMPORT_LINE = re.compile(r"^import minigrad as torch$", re.MULTILINE)
CELL_TIMEOUT = int(os.environ.get("MINIGRAD_CELL_TIMEOUT", "120"))

_NORMALISE = [
    (re.compile(r"\b0x[0-9a-fA-F]{6,16}\b"), "0xADDRESS"),
    (re.compile(r"/tmp/ipykernel_\d+/\d+\.py:\d+"), "<cell>"),
    (re.compile(r"^minigrad hint:.*(?:\n|$)", re.MULTILINE), ""),
    # where in PyTorch's build a C++ warning was raised (a path on PyTorch's build machine)
    (re.compile(r" \(Triggered internally at [^)]*\)"), ""),
    (re.compile(r'src="data:image/png;base64,[A-Za-z0-9+/=]*" width="\d+"'), 'src="PNG"'),
]
_SVG = re.compile(r"(?s)(?:<\?xml[^>]*>\s*)?(?:<!DOCTYPE[^>]*>\s*)?(?:<!--[^>]*-->\s*)*"
                  r"<svg\b[^>]*>\s*<!-- minigrad graph ([0-9a-f]{16}) -->.*?</svg>")


def normalise(text):
    text = _SVG.sub(r"<svg minigrad graph \1/>", text)
    for pattern, replacement in _NORMALISE:
        text = pattern.sub(replacement, text)
    return text


def visible_output(cell):
    """What a learner sees under a cell, as text: streams, results, errors, picture fingerprints."""
    parts = []
    last_stream = None
    for output in cell.get("outputs", []):
        kind = output["output_type"]
        if kind == "stream":
            # how print() output is cut into chunks depends on timing, not on the library
            if last_stream == output["name"]:
                parts[-1] += output["text"]
            else:
                parts.append(f"[{output['name']}]\n{output['text']}")
            last_stream = output["name"]
            continue
        last_stream = None
        if kind == "error":
            parts.append(f"[error]\n{output['ename']}: {output['evalue']}")
        else:
            data = output.get("data", {})
            for mime in ("text/plain", "text/html", "image/svg+xml"):
                if mime in data:
                    value = data[mime]
                    parts.append(f"[{mime}]\n{''.join(value) if isinstance(value, list) else value}")
            if "image/png" in data and "image/svg+xml" not in data:
                parts.append("[image/png]")
    # consecutive writes to the same stream are one text for a learner
    return normalise("\n".join(parts))


def run_under_torch(path):
    """Execute the lesson with ``import torch``; returns (stored cells, fresh cells)."""
    import nbformat
    from nbclient import NotebookClient

    stored = nbformat.read(path, as_version=4)
    fresh = nbformat.read(path, as_version=4)
    for cell in fresh.cells:
        if cell.cell_type == "code":
            cell.source = IMPORT_LINE.sub("import torch", cell.source)
            cell.outputs = []
    client = NotebookClient(fresh, timeout=CELL_TIMEOUT, kernel_name="python3",
                            allow_errors=True, resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    return stored, fresh


def differing_cells(path):
    """[(cell number, unified diff)] for the code cells whose output differs under PyTorch."""
    stored, fresh = run_under_torch(path)
    differences = []
    for number, (old, new) in enumerate(zip(stored.cells, fresh.cells)):
        if old.cell_type != "code":
            continue
        want, got = visible_output(old), visible_output(new)
        if want != got:
            diff = "\n".join(difflib.unified_diff(
                want.splitlines(), got.splitlines(), "stored (minigrad)", "import torch",
                lineterm="", n=1))
            differences.append((number, diff))
    return differences


def _torch_or_skip():
    try:
        import torch  # noqa: F401
    except ImportError as error:
        message = f"PyTorch is needed to run the lessons under torch ({error})"
        if os.environ.get("MINIGRAD_CI", "") not in ("", "0"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_prints_the_same_under_torch(path):
    _torch_or_skip()
    pytest.importorskip("nbclient")
    differences = differing_cells(path)
    report = "\n\n".join(f"cell {number}:\n{diff}" for number, diff in differences)
    assert not differences, (f"{len(differences)} cell(s) of {path.name} differ under "
                             f"import torch:\n{report}")


if __name__ == "__main__":      # python tests/test_lessons_under_torch.py [lesson ...]
    chosen = [pathlib.Path(p) for p in sys.argv[1:]] or LESSONS
    total = 0
    for lesson in chosen:
        found = differing_cells(lesson)
        total += len(found)
        print(f"== {lesson.name}: {len(found)} differing cell(s)")
        for number, diff in found:
            print(f"-- cell {number}\n{diff}\n")
    print(f"total: {total} differing cell(s)")
