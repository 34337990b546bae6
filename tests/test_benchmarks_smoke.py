"""The benchmark suite runs: ``python -m benchmarks --quick`` once, then its JSON is checked.

Only that every workload runs and reports what it should: no timing is ever
asserted here (speed depends on the machine and on what else runs on it).
The benchmark runs in its own process, as ``make bench`` runs it, so that
its thread settings apply before numpy is imported.
"""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HAVE_TORCH = importlib.util.find_spec("torch") is not None
WORKLOADS = ["W1", "W2", "W3", "W4", "course"]


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench")
    output, figure = folder / "results.json", folder / "benchmarks.png"
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--no-optional",
         "--output", str(output), "--figure", str(figure)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return {"results": json.loads(output.read_text()), "figure": figure,
            "stdout": completed.stdout}


def test_meta_describes_the_run(quick_run):
    meta = quick_run["results"]["meta"]
    assert meta["quick"] is True
    assert meta["threads"] == 1
    assert meta["threads_pinned_too_late_for"] == []     # pinned before numpy was imported
    assert meta["gc_enabled"] is True
    for key in ("python", "numpy", "torch", "cpu", "recursion_limit", "date"):
        assert key in meta


@pytest.mark.parametrize("workload", WORKLOADS)
def test_every_workload_reports(quick_run, workload):
    section = quick_run["results"]["workloads"][workload]
    for key in ("title", "unit", "results", "ratios", "rows", "notes", "wall_seconds"):
        assert key in section, key
    assert section["rows"] or section["notes"]
    assert section["title"].split(":")[0] in quick_run["stdout"]


def test_w1_compares_minigrad_with_numpy_and_torch(quick_run):
    section = quick_run["results"]["workloads"]["W1"]
    assert section["check"]["agree"], section["check"]
    for threads in ("1 thread", "2 threads"):
        results = section["results"][threads]
        assert results["minigrad"]["step"] > 0 and results["numpy"]["step"] > 0
        assert f"minigrad/numpy ({threads})" in section["ratios"]
    if HAVE_TORCH:
        assert "torch/numpy (1 thread)" in section["ratios"]
    assert section["target"]["ratio"] == "minigrad/numpy (1 thread)"
    assert section["target"]["limit"] == 1.10


@pytest.mark.parametrize("workload", ["W2", "W4"])
def test_tiny_op_workloads_split_forward_and_backward(quick_run, workload):
    section = quick_run["results"]["workloads"][workload]
    minigrad = section["results"]["minigrad"]
    assert minigrad["forward"] > 0 and minigrad["backward"] > 0
    if HAVE_TORCH:
        assert "minigrad/torch" in section["ratios"]
        assert section["target"]["ratio"] == "minigrad/torch"


def test_w3_reports_growth_and_memory(quick_run):
    section = quick_run["results"]["workloads"]["W3"]
    small, large = (str(n) for n in quick_run["results"]["meta"]["config"]["w3_sizes"])
    assert set(section["results"]["minigrad"]) == {small, large}
    assert section["memory_peak_growth_bytes"]["minigrad"][large] > 0
    assert section["target"]["limit"] == 11.0
    assert section["target"]["value"] is not None


def test_chart_is_drawn(quick_run):
    assert quick_run["figure"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
