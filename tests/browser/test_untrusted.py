"""A lesson opened without running it (an untrusted notebook) shows every stored picture.

JupyterLab does not show SVG from a notebook it does not trust, and it cleans
HTML (no scripts, no inline SVG). The drawings therefore carry a PNG next to
their SVG, and the step-through keeps its frames as PNG images inside
<details> elements. This opens lessons in JupyterLab without running anything
(so the notebook stays untrusted) and checks, in the page, that every cell
that stored a drawing shows an image, and that a step-through shows one frame.

Uses the JupyterLab server and Chromium of conftest.py (the same as test_lab.py).
"""
import json

import pytest

from jupyterlab_helpers import (NOTEBOOK_DIR, _accept_dialogs, _open_notebook, _painted,
                                _screenshot, _until)

LESSONS = ["03_the_graph.ipynb", "10_under_the_hood.ipynb"]

OUTPUTS_JS = """
() => Array.from(document.querySelectorAll('.jp-Cell.jp-CodeCell')).map(cell => {
  const area = cell.querySelector('.jp-OutputArea');
  if (!area) return {images: 0, details: 0, open: 0, scripts: 0};
  // checkVisibility: false inside a closed <details> (its content is not rendered)
  const visible = Array.from(area.querySelectorAll('img, svg')).filter(
      e => e.checkVisibility() && e.getBoundingClientRect().height > 20);
  return {
    images: visible.length,
    details: area.querySelectorAll('details').length,
    open: area.querySelectorAll('details[open]').length,
    trusted: !!cell.querySelector('.jp-OutputArea-output[data-mime-type="image/svg+xml"]'),
  };
})
"""


def _stored_pictures(path):
    """Per code cell: does its stored output hold a drawing, and is it a step-through?"""
    cells = json.loads(path.read_text())["cells"]
    result = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        data = [out.get("data", {}) for out in cell.get("outputs", [])]
        result.append({
            "picture": any("image/png" in d for d in data),
            "stepper": any("minigrad-trace" in "".join(d.get("text/html", "")) for d in data),
        })
    return result


def _all_shown(stored, shown):
    """Every cell shows what its stored output promises: a step-through its one open frame,
    a drawing an image."""
    return len(shown) == len(stored) and all(
        (got["details"] >= 2 and got["open"] == 1 and got["images"] == 1) if want["stepper"]
        else got["images"] >= 1 if want["picture"] else True
        for want, got in zip(stored, shown))


@pytest.mark.parametrize("name", LESSONS)
def test_untrusted_lesson_shows_its_pictures(name, lab, browser_context):
    path = NOTEBOOK_DIR / name
    stored = _stored_pictures(path)
    page = browser_context.new_page()
    try:
        _open_notebook(page, lab, path, workspace=f"untrusted-{path.stem}")
        page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=60_000)
        _accept_dialogs(page)
        # every output rendered: each stored drawing shows (the checks below say which not)
        shown = _until(page, OUTPUTS_JS, lambda shown: _all_shown(stored, shown), timeout=30)
        _painted(page)
        _screenshot(page, path.with_name(f"untrusted_{path.stem}.png"))
    finally:
        page.close()
    assert len(shown) == len(stored)
    # the notebook really is untrusted: JupyterLab rendered none of the stored SVGs
    assert not any(cell.get("trusted") for cell in shown)
    for number, (want, got) in enumerate(zip(stored, shown)):
        if want["stepper"]:
            assert got["details"] >= 2 and got["open"] == 1 and got["images"] == 1, (number, got)
        elif want["picture"]:
            assert got["images"] >= 1, (number, got)

