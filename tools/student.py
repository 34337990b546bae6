"""Write the student version of the lessons: the same notebooks without solutions.

    python tools/student.py notebooks build/student            # write
    python tools/student.py notebooks build/student --execute  # and run each one

Which cells are solutions (the rule lesson authors follow, see CONTRIBUTING.md):

* a Markdown cell whose first line is the heading ``## Solutions`` starts the
  solutions; they run up to the next ``#``/``##`` heading or the end of the
  notebook. The heading cell is kept, with a note in place of the solutions;
* any cell tagged ``solution``, wherever it is, is removed too.

Outputs are cleared (a learner runs the cells), so nothing of a solution can
be read from a stored output either. ``--execute`` then runs every student
notebook top to bottom on a fresh kernel: the exercises' checks answer
"not answered yet" instead of failing, so the whole notebook must still run.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

SOLUTION_TAG = "solution"
NOTE = ("## Solutions\n\nThe solutions are not part of the student version. "
        "Ask your teacher, or compare your answers with the checks above.")


def _heading_level(cell) -> int:
    """1 for '# ...', 2 for '## ...' on a Markdown cell's first line; 0 otherwise."""
    if cell.cell_type != "markdown":
        return 0
    match = re.match(r"(#{1,6})\s", cell.source.lstrip())
    return len(match.group(1)) if match else 0


def is_solutions_heading(cell) -> bool:
    return cell.cell_type == "markdown" and cell.source.lstrip().splitlines()[:1] == ["## Solutions"]


def strip_solutions(nb):
    """``nb`` without its solutions and outputs (changed in place, and returned)."""
    kept, in_solutions = [], False
    for cell in nb.cells:
        if is_solutions_heading(cell):
            in_solutions = True
            kept.append(nbformat.v4.new_markdown_cell(NOTE))
            continue
        if in_solutions and 0 < _heading_level(cell) <= 2:
            in_solutions = False
        if in_solutions or SOLUTION_TAG in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        kept.append(cell)
    nb.cells = kept
    return nb


def execute(path: Path) -> None:
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="folder of lesson notebooks")
    parser.add_argument("target", type=Path, help="folder for the student version")
    parser.add_argument("--execute", action="store_true", help="run every student notebook")
    args = parser.parse_args(argv)
    args.target.mkdir(parents=True, exist_ok=True)
    for source in sorted(args.source.glob("*.ipynb")):
        nb = strip_solutions(nbformat.read(source, as_version=4))
        target = args.target / source.name
        nbformat.write(nb, target)
        print(f"wrote {target}")
        if args.execute:
            execute(target)  # raises, naming the cell, if a cell fails
            print(f"   ran top to bottom: {target.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
