"""What the browser tests share: a JupyterLab server, its settings, and page helpers."""
from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = Path(os.environ.get("MINIGRAD_NOTEBOOK_DIR", ROOT / "notebooks")).resolve()
CHROMIUM = os.environ.get("MINIGRAD_CHROMIUM", "/usr/bin/chromium")
NOTEBOOK_TIMEOUT = float(os.environ.get("MINIGRAD_NOTEBOOK_TIMEOUT", 300))
SERVER_TIMEOUT = float(os.environ.get("MINIGRAD_SERVER_TIMEOUT", 90))
SCREENSHOT_DIR = Path(
    os.environ.get("MINIGRAD_SCREENSHOT_DIR", Path(__file__).parent / "screenshots")
)
STRICT = os.environ.get("MINIGRAD_CI", "") not in ("", "0")

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# JupyterLab settings for the test workspace: never write to the notebooks
# (no autosave), put every cell in the page (no virtual scrolling, so each
# output can be checked and photographed), start the kernel without asking,
# and no toasts or calls to the internet.
LAB_USER_SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/notebook-extension/tracker": {
        "windowingMode": "none",
        "autoStartDefaultKernel": True,
    },
    "@jupyterlab/apputils-extension/notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
        "doNotDisturbMode": True,
    },
}

IMAGE_MIMES = ("image/svg+xml", "image/png", "image/jpeg", "image/gif")


def _unavailable(message: str):
    """Skip on a developer machine; fail under MINIGRAD_CI=1."""
    if STRICT:
        pytest.fail(f"{message}\n(MINIGRAD_CI is set, so this fails instead of skipping)",
                    pytrace=False)
    pytest.skip(message)


def _notebooks() -> list[Path]:
    if not NOTEBOOK_DIR.is_dir():
        return []
    return sorted(NOTEBOOK_DIR.glob("*.ipynb"))


# --------------------------------------------------------------------------
# what each notebook is expected to do, read from the .ipynb file


def _expectations(path: Path) -> dict:
    import nbformat

    nb = nbformat.read(path, as_version=4)
    cells = []
    for index, cell in enumerate(nb.cells):
        tags = list(cell.get("metadata", {}).get("tags", []))
        saved_image = cell.cell_type == "code" and any(
            any(m in out.get("data", {}) for m in IMAGE_MIMES) for out in cell.get("outputs", [])
        )
        cells.append({
            "index": index,
            "type": cell.cell_type,
            "tags": tags,
            "graph": "graph" in tags or saved_image,
            "raises": "raises-exception" in tags,
        })
    return {"cells": cells}


# --------------------------------------------------------------------------
# JupyterLab server


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


class LabServer:
    def __init__(self, root_dir: Path, home: Path):
        self.root_dir = root_dir
        self.home = home
        self.token = secrets.token_hex(16)
        self.log_path = home / "jupyterlab.log"
        self.runtime_dir = home / "runtime"
        self.proc = None
        self.port = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _env(self) -> dict:
        env = dict(os.environ)
        config_dir = self.home / "config"
        env.update(
            JUPYTER_CONFIG_DIR=str(config_dir),
            JUPYTER_RUNTIME_DIR=str(self.runtime_dir),
            JUPYTER_DATA_DIR=str(self.home / "data"),
            IPYTHONDIR=str(self.home / "ipython"),
            JUPYTER_PREFER_ENV_PATH="1",
            JUPYTER_PLATFORM_DIRS="1",
            PYTHONUNBUFFERED="1",
        )
        settings_dir = config_dir / "lab" / "user-settings"
        for name, values in LAB_USER_SETTINGS.items():
            target = settings_dir / f"{name}.jupyterlab-settings"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(values, indent=2))
        return env

    def _token_option(self) -> str:
        # jupyter_server 2 moved the token to the identity provider.
        import jupyter_server

        major = int(jupyter_server.__version__.split(".")[0])
        owner = "IdentityProvider" if major >= 2 else "ServerApp"
        return f"--{owner}.token={self.token}"

    def start(self):
        requested = _free_port()
        cmd = [
            sys.executable, "-m", "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={requested}",
            # If another program grabs the port first, take the next one;
            # the real port is read back from the server's runtime file.
            "--ServerApp.port_retries=50",
            self._token_option(),
            f"--ServerApp.root_dir={self.root_dir}",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--ServerApp.open_browser=False",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")  # CI containers run as root
        env = self._env()
        self.runtime_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            cmd, cwd=self.root_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + SERVER_TIMEOUT
        while time.monotonic() < deadline:
            code = self.proc.poll()
            if code is not None:
                raise RuntimeError(
                    f"JupyterLab exited with code {code} before answering.\n"
                    f"command: {' '.join(cmd)}\n--- last lines of {self.log_path} ---\n"
                    f"{_tail(self.log_path)}"
                )
            if self.port is None:
                for info in self.runtime_dir.glob("jpserver-*.json"):
                    try:
                        self.port = int(json.loads(info.read_text())["port"])
                    except (ValueError, KeyError, OSError):
                        continue  # still being written
                    if self.port != requested:
                        print(f"port {requested} was taken; JupyterLab uses {self.port}")
            if self.port is not None and self._answers():
                return
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(
            f"JupyterLab did not answer within {SERVER_TIMEOUT:.0f} s "
            f"(MINIGRAD_SERVER_TIMEOUT).\n--- last lines of {self.log_path} ---\n"
            f"{_tail(self.log_path)}"
        )

    def api(self, method: str, path: str, timeout: float = 10):
        req = urllib.request.Request(
            f"{self.base_url}{path}", method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def _answers(self) -> bool:
        try:
            self.api("GET", "/api/status", timeout=2)
            return True
        except (urllib.error.URLError, OSError, ValueError):
            return False

    def shutdown_kernels(self):
        try:
            for session in self.api("GET", "/api/sessions"):
                self.api("DELETE", f"/api/sessions/{session['id']}")
        except (urllib.error.URLError, OSError, ValueError):
            pass

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        # The server runs in its own process group (with its kernels):
        # ask it to stop, then make sure.
        for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        try:  # kernels left in the group
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def saved_files(self) -> set:
        """Files the server wrote, by name relative to the root dir."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return set()
        return {m.lstrip("/") for m in re.findall(r"Saving file at (\S+)", text)}

    def log_tail(self, lines: int = 40) -> str:
        return _tail(self.log_path, lines)


STATE_JS = """
(path) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return {ready: false, why: 'JupyterLab has not started'};
  let panel = null;
  for (const w of app.shell.widgets('main')) {
    if (w.context && w.context.path === path && w.content && w.content.model) { panel = w; }
  }
  if (!panel) return {ready: false, why: 'notebook not open yet'};
  const ctx = panel.sessionContext;
  const kernel = ctx && ctx.session ? ctx.session.kernel : null;
  // Remember every kernel status: a kernel that dies and restarts quickly
  // can be back to 'idle' between two polls.
  if (ctx && !panel.__minigradSeen) {
    panel.__minigradSeen = [];
    ctx.statusChanged.connect((_, status) => { panel.__minigradSeen.push(status); });
  }
  const model = panel.content.model;
  const cells = [];
  for (let i = 0; i < model.cells.length; i++) {
    const c = model.cells.get(i);
    const json = c.toJSON();
    const item = {index: i, type: json.cell_type};
    if (json.cell_type === 'code') {
      item.count = json.execution_count;
      item.running = c.executionState === 'running';
      item.outputs = (json.outputs || []).map(o => ({
        type: o.output_type,
        mimes: Object.keys(o.data || {}),
        error: o.output_type === 'error' ? `${o.ename}: ${o.evalue}` : undefined,
      }));
    }
    cells.push(item);
  }
  return {
    ready: true,
    kernel: kernel ? kernel.status : null,
    seen: panel.__minigradSeen || [],
    display: ctx ? ctx.kernelDisplayStatus : null,
    cells,
  };
}
"""

DEAD = {"dead", "autorestarting", "restarting"}


def _open_notebook(page, lab: LabServer, path: Path, workspace: str):
    # A fresh, named workspace per lesson (?reset): only this notebook open.
    url = (
        f"{lab.base_url}/lab/workspaces/{workspace}/tree/{urllib.parse.quote(path.name)}"
        f"?reset&token={lab.token}"
    )
    page.goto(url, wait_until="domcontentloaded", timeout=60_000)


def _wait(page, what: str, path: Path, predicate, timeout: float, lab: LabServer,
          interval: float = 0.5):
    """Poll the notebook state until predicate(state) is true; bounded."""
    deadline = time.monotonic() + timeout
    state = None
    while time.monotonic() < deadline:
        state = page.evaluate(STATE_JS, path.name)
        if state.get("ready"):
            died = [s for s in [state.get("kernel"), *state.get("seen", [])] if s in DEAD]
            if died or _kernel_died_dialog(page):
                _fail(
                    f"{path.name}: the kernel died (status {(died or ['dead'])[0]!r}) while "
                    "running the notebook: a cell crashed Python or used too much memory."
                    f"\nlast state seen: {_summary(state)}\n--- JupyterLab log ---\n"
                    + lab.log_tail()
                )
            _accept_dialogs(page)
            if predicate(state):
                return state
        time.sleep(interval)
    _fail(
        f"{path.name}: timed out after {timeout:.0f} s waiting for {what}.\n"
        f"last state seen: {_summary(state)}\n--- JupyterLab log ---\n{lab.log_tail()}"
    )


def _until(page, js: str, predicate, timeout: float = 30, interval: float = 0.2, arg=None):
    """Evaluate ``js`` in the page until ``predicate`` holds for its result, at most ``timeout``
    seconds; returns the last result either way (the caller's checks then say what is missing).
    Waiting on what a check needs, rather than a fixed time, ends as soon as the page is ready."""
    deadline = time.monotonic() + timeout
    while True:
        result = page.evaluate(js, arg)
        if predicate(result) or time.monotonic() >= deadline:
            return result
        time.sleep(interval)


def _painted(page):
    """Return once the browser has laid out and painted what the page shows now (two animation
    frames: the first runs before the next paint, the second after it)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _fail(message: str):
    pytest.fail(message, pytrace=False)


def _dialog_title(page) -> str:
    header = page.locator(".jp-Dialog .jp-Dialog-header")
    try:
        return header.first.inner_text(timeout=1_000) if header.count() else ""
    except Exception:  # the dialog went away meanwhile
        return ""


def _kernel_died_dialog(page) -> bool:
    return "Kernel Restarting" in _dialog_title(page)


def _accept_dialogs(page):
    # e.g. "Select Kernel" for a notebook saved without kernel metadata.
    if not _dialog_title(page):
        return
    try:
        page.locator(".jp-Dialog .jp-mod-accept").first.click(timeout=2_000)
    except Exception:  # the dialog went away by itself
        pass


def _summary(state) -> str:
    if not state:
        return "nothing (page did not answer)"
    if not state.get("ready"):
        return state.get("why", "not ready")
    code = [c for c in state["cells"] if c["type"] == "code"]
    pending = [c["index"] for c in code if c.get("count") is None]
    return f"kernel={state['kernel']}, code cells={len(code)}, without execution count={pending}"


def _run_all(page):
    page.locator("#jp-MainMenu").get_by_text("Run", exact=True).click()
    label = page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$"))
    item = page.locator(".lm-Menu .lm-Menu-item", has=label).first
    item.wait_for(state="visible", timeout=10_000)
    item.click()


def _screenshot(page, path: Path) -> Path:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    target = SCREENSHOT_DIR / f"{path.stem}.png"
    # Make the window tall enough to show the whole notebook, scrolled to the
    # top, then take it.
    size = page.evaluate(
        """() => {
             const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
             if (!panel) return null;
             const nb = panel.querySelector('.jp-NotebookPanel-notebook');
             const outer = panel.querySelector('.jp-WindowedPanel-outer') || nb;
             outer.scrollTop = 0;
             return {content: outer.scrollHeight, visible: outer.clientHeight};
           }"""
    )
    viewport = page.viewport_size or {"width": 1280, "height": 1000}
    if size and size["content"] > size["visible"]:
        height = viewport["height"] - size["visible"] + size["content"] + 40
        page.set_viewport_size({"width": viewport["width"], "height": int(min(height, 16000))})
        _painted(page)
        page.evaluate(
            """() => { const o = document.querySelector(
                 '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer');
               if (o) o.scrollTop = 0; }"""
        )
    page.screenshot(path=str(target))
    return target
