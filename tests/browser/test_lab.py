"""Every lesson, run the way a student runs it: in JupyterLab, in a browser.

For each ``notebooks/*.ipynb`` this starts from an empty JupyterLab workspace,
opens the notebook, runs Run > Run All Cells, waits for the kernel to finish,
and then checks that

* every code cell ran (has an execution count),
* no cell shows an error, except cells tagged ``raises-exception``,
* every cell that should show a graph shows an ``<svg>`` or ``<img>``
  (cells tagged ``graph``, cells whose saved outputs hold an image, and
  cells whose fresh outputs hold one),

and saves a screenshot of the whole notebook to
``tests/browser/screenshots/<lesson>.png``.

The browser is the system's Chromium (Debian package ``chromium``) driven by
Playwright; no browser is downloaded. Without Chromium (or Playwright) the
tests skip, except with ``MINIGRAD_CI=1``, where they fail.

Settings (environment variables):
  MINIGRAD_NOTEBOOK_DIR     folder whose *.ipynb are tested (default notebooks/)
  MINIGRAD_CHROMIUM         Chromium executable (default /usr/bin/chromium)
  MINIGRAD_NOTEBOOK_TIMEOUT seconds allowed per notebook run (default 300)
  MINIGRAD_SERVER_TIMEOUT   seconds allowed for JupyterLab to start (default 90)
  MINIGRAD_SCREENSHOT_DIR   where screenshots go (default tests/browser/screenshots)
"""
from __future__ import annotations

from pathlib import Path

import pytest

from jupyterlab_helpers import (  # noqa: F401
    IMAGE_MIMES, LabServer, NOTEBOOK_DIR, NOTEBOOK_TIMEOUT, SCREENSHOT_DIR,
    STATE_JS, _expectations, _fail, _notebooks, _open_notebook, _painted,
    _run_all, _screenshot, _until, _wait,
)

# how many pictures (<svg> or <img>) each cell's outputs show in the page
PICTURES_JS = """
() => Array.from(document.querySelectorAll('.jp-Notebook .jp-Cell')).map(
    cell => cell.querySelectorAll('.jp-OutputArea-output svg, .jp-OutputArea-output img').length)
"""


# --------------------------------------------------------------------------
# the test

NOTEBOOKS = _notebooks()


@pytest.mark.parametrize(
    "notebook", NOTEBOOKS or [None], ids=[p.stem for p in NOTEBOOKS] or ["no-notebooks"]
)
def test_notebook_runs_in_jupyterlab(notebook, request):
    if notebook is None:
        pytest.skip(f"no notebooks in {NOTEBOOK_DIR}")
    lab = request.getfixturevalue("lab")
    context = request.getfixturevalue("browser_context")
    from playwright.sync_api import Error as PlaywrightError

    page = context.new_page()
    page_errors = []
    page.on("pageerror", lambda exc: page_errors.append(str(exc)))
    failure = None
    try:
        _run_and_check(page, lab, notebook, page_errors)
    except PlaywrightError as exc:
        # A step in the browser failed (a menu not found, the page crashed).
        failure = (
            f"{notebook.name}: the browser step failed: {exc}\n"
            f"screenshot: {SCREENSHOT_DIR / (notebook.stem + '.png')}\n"
            f"--- JupyterLab log ---\n{lab.log_tail(20)}"
        )
    finally:
        if not (SCREENSHOT_DIR / f"{notebook.stem}.png").exists() or failure:
            try:
                _screenshot(page, notebook)
            except PlaywrightError:
                pass
        page.close()
        lab.shutdown_kernels()
    if failure:
        _fail(failure)


def _run_and_check(page, lab: LabServer, notebook: Path, page_errors: list):
    expected = _expectations(notebook)
    stale = SCREENSHOT_DIR / f"{notebook.stem}.png"
    if stale.exists():
        stale.unlink()
    _open_notebook(page, lab, notebook, workspace=f"test-{notebook.stem}")
    # The notebook is open and its kernel is up and quiet.
    state = _wait(page, "the notebook to open and its kernel to start", notebook,
                  lambda s: s["kernel"] == "idle", timeout=120, lab=lab)
    if len(state["cells"]) != len(expected["cells"]):
        _fail(f"{notebook.name}: JupyterLab shows {len(state['cells'])} cells, "
              f"the file has {len(expected['cells'])}")

    _run_all(page)

    # Finished: the kernel has stayed idle for a few polls in a row and no
    # cell is queued or running.
    quiet = {"polls": 0}

    def finished(state):
        busy = state["kernel"] != "idle" or any(
            c.get("running") for c in state["cells"] if c["type"] == "code"
        )
        quiet["polls"] = 0 if busy else quiet["polls"] + 1
        return quiet["polls"] >= 4

    _wait(page, "Run All Cells to finish", notebook, finished, timeout=NOTEBOOK_TIMEOUT, lab=lab,
          interval=0.25)
    state = page.evaluate(STATE_JS, notebook.name)
    # the cells that should show a graph: wait until the page shows each one's picture (or
    # for the checks below to say which does not)
    drawn = [cell["index"] for cell, want in zip(state["cells"], expected["cells"])
             if cell["type"] == "code" and cell.get("count") is not None and (
                 want["graph"] or any(m in IMAGE_MIMES for o in cell["outputs"] for m in o["mimes"]))]
    _until(page, PICTURES_JS, lambda shown: all(i < len(shown) and shown[i] for i in drawn), timeout=10)
    _painted(page)
    shot = _screenshot(page, notebook)

    problems = []
    cells_dom = page.locator(".jp-Notebook .jp-Cell")
    for cell, want in zip(state["cells"], expected["cells"]):
        if cell["type"] != "code":
            continue
        where = f"cell {cell['index']}"
        if cell.get("count") is None:
            problems.append(f"{where} did not run (no execution count)")
            continue
        errors = [o["error"] for o in cell["outputs"] if o["type"] == "error"]
        if errors and not want["raises"]:
            problems.append(f"{where} shows an error: {errors[0]}")
        if want["raises"] and not errors:
            problems.append(f"{where} is tagged raises-exception but raised nothing")
        has_image = any(m in IMAGE_MIMES for o in cell["outputs"] for m in o["mimes"])
        if want["graph"] or has_image:
            dom_cell = cells_dom.nth(cell["index"])
            dom_cell.scroll_into_view_if_needed(timeout=5_000)
            shown = dom_cell.locator(".jp-OutputArea-output svg, .jp-OutputArea-output img")
            if shown.count() == 0:
                problems.append(f"{where} should show a graph but shows no <svg> or <img>")
    if problems:
        _fail(
            f"{notebook.name} in JupyterLab (screenshot: {shot}):\n  "
            + "\n  ".join(problems)
            + (f"\nbrowser errors: {page_errors[:3]}" if page_errors else "")
        )
