"""Fixtures of the browser tests: one JupyterLab server and one Chromium for the whole run.

They live here (not in a test module) so that every test file gets the same
instances: Playwright allows one running instance per process.
"""
import os
import shutil

import pytest

from jupyterlab_helpers import (CHROMIUM, CHROMIUM_ARGS, NOTEBOOK_DIR, LabServer, _notebooks,
                                _unavailable)


@pytest.fixture(scope="session")
def chromium_path():
    path = shutil.which(CHROMIUM) or CHROMIUM
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        _unavailable(
            f"Chromium not found at {CHROMIUM}: install it with `apt-get install chromium` "
            "(Debian/Ubuntu), or point MINIGRAD_CHROMIUM at a Chromium/Chrome executable."
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("the playwright Python package is missing: pip install -e '.[test]'")
    return path


@pytest.fixture(scope="session")
def lab(chromium_path, tmp_path_factory):
    # JupyterLab runs with autosave off and nothing here saves, so the lessons
    # on disk stay as they are. Should the server still write one (its log
    # says "Saving file at ..."), it is put back and the run fails. Files
    # changed by anyone else meanwhile are left alone.
    before = {p.name: p.read_bytes() for p in _notebooks()}
    checkpoints = NOTEBOOK_DIR / ".ipynb_checkpoints"
    had_checkpoints = checkpoints.exists()
    server = LabServer(NOTEBOOK_DIR, tmp_path_factory.mktemp("jupyter-home"))
    failure = None
    try:
        server.start()
    except RuntimeError as exc:
        failure = str(exc)
    if failure:
        pytest.fail(failure, pytrace=False)
    yield server
    server.stop()
    saved = server.saved_files()
    for name in saved:
        if name in before:
            (NOTEBOOK_DIR / name).write_bytes(before[name])
    if not had_checkpoints and checkpoints.exists():
        shutil.rmtree(checkpoints, ignore_errors=True)
    if saved:
        pytest.fail(f"JupyterLab saved {sorted(saved)} during the browser test "
                    "(put back as they were)", pytrace=False)


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    failure = None
    try:
        browser = pw.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True, timeout=60_000,
        )
    except PlaywrightError as exc:
        failure = f"could not start Chromium at {chromium_path}: {exc}"
    if failure:
        pw.stop()
        pytest.fail(failure, pytrace=False)
    yield browser
    browser.close()
    pw.stop()


@pytest.fixture(scope="session")
def browser_context(browser):
    # One context for all lessons: JupyterLab's scripts are loaded once and
    # then come from the browser's cache. Each lesson gets its own page and
    # its own workspace.
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    yield context
    context.close()


# --------------------------------------------------------------------------
# the notebook, seen through JupyterLab's own model (window.jupyterapp)
