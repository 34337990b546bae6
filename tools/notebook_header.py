"""The two cells every lesson notebook starts with.

1. a Markdown cell with an "Open in Colab" badge for that notebook;
2. a code cell that, on Colab only, pip-installs minigrad's release from
   GitHub (locally and on Binder the package is already installed).

Both are built from ``minigrad/_links.py``, so the repository address and the
release live in one place (``make set-repo`` rewrites them, then runs this
tool). ``tests/test_packaging.py`` checks every ``notebooks/*.ipynb`` against
this module.

Usage (from the repository root):

    python tools/notebook_header.py notebooks/03_the_graph.ipynb  # add / refresh
    python tools/notebook_header.py                              # all notebooks
    python tools/notebook_header.py --check                      # report only

Adding is idempotent: header cells already present (recognised by their
``minigrad-header`` tag) are replaced, not duplicated. Nothing else in the
notebook is touched.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
HEADER_TAG = "minigrad-header"


def _load_links():
    # Load minigrad/_links.py by path: no need to import the library (or
    # numpy) just to build two cells.
    path = ROOT / "minigrad" / "_links.py"
    spec = importlib.util.spec_from_file_location("_minigrad_links", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


links = _load_links()


def badge_source(filename: str) -> str:
    return links.colab_badge(Path(filename).name)


def setup_source() -> str:
    return (
        f"# Setup. On Google Colab, install minigrad ({links.RELEASE}) from GitHub first;\n"
        "# elsewhere (make lab, Binder, conda) it is already installed.\n"
        "import sys\n"
        "\n"
        'if "google.colab" in sys.modules:\n'
        "    import subprocess\n"
        "\n"
        f'    package = "{links.PIP_INSTALL_SPEC}"\n'
        '    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", package], check=True)'
    )


def header_cells(filename: str) -> list:
    """The two header cells (nbformat nodes) for ``notebooks/<filename>``."""
    from nbformat import v4

    meta = {"tags": [HEADER_TAG]}
    return [
        v4.new_markdown_cell(badge_source(filename), metadata=dict(meta)),
        v4.new_code_cell(setup_source(), metadata={"tags": [HEADER_TAG]}),
    ]


def _is_header_cell(cell) -> bool:
    return HEADER_TAG in cell.get("metadata", {}).get("tags", [])


def problems(path) -> list[str]:
    """What is wrong with the header of the notebook at ``path`` (empty if fine)."""
    import nbformat

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    expected = header_cells(path.name)
    cells = nb.cells
    found = []
    if len(cells) < 2:
        return [f"{path.name}: fewer than two cells; the header cells are missing"]
    names = ["Colab badge (first cell)", "Colab setup (second cell)"]
    for cell, want, name in zip(cells[:2], expected, names):
        if cell.cell_type != want.cell_type or cell.source != want.source:
            found.append(f"{path.name}: {name} differs from tools/notebook_header.py")
    first_code = next((c for c in cells if c.cell_type == "code"), None)
    if first_code is not None and first_code.source != expected[1].source:
        found.append(f"{path.name}: the first code cell is not the Colab setup cell")
    if found:
        found.append(f"    fix with: python tools/notebook_header.py notebooks/{path.name}")
    return found


def apply(path) -> bool:
    """Put the header cells at the top of ``path``. Returns True if it changed."""
    import nbformat

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    body = [c for c in nb.cells if not _is_header_cell(c)]
    old_header = [c for c in nb.cells if _is_header_cell(c)]
    new_header = header_cells(path.name)
    # Keep the ids of existing header cells so that re-running is a no-op.
    for old, new in zip(old_header, new_header):
        if old.cell_type == new.cell_type and "id" in old:
            new["id"] = old["id"]
        if new.cell_type == "code" and old.cell_type == "code":
            new["outputs"] = []
            new["execution_count"] = old.get("execution_count")
    cells = new_header + body
    if [dict(c) for c in cells] == [dict(c) for c in nb.cells]:
        return False
    nb.cells = cells
    nbformat.write(nb, path)
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="notebooks to fix (default: notebooks/*.ipynb)")
    parser.add_argument("--check", action="store_true",
                        help="only report notebooks whose header is wrong")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(NOTEBOOK_DIR.glob("*.ipynb"))
    status = 0
    for path in paths:
        if args.check:
            for line in problems(path):
                print(line)
                status = 1
        elif apply(path):
            print(f"updated {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
