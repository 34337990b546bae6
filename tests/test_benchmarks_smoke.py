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
WORKLOADS = ["W1", "W2", "W3", "W4", "viz", "course"]


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
            "stdout": completed.stdout, "output": output}


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
    assert section["target"]["limit"] == 1.15


@pytest.mark.parametrize("workload", ["W2", "W4"])
def test_tiny_op_workloads_split_forward_and_backward(quick_run, workload):
    section = quick_run["results"]["workloads"][workload]
    minigrad = section["results"]["minigrad"]
    assert minigrad["forward"] > 0 and minigrad["backward"] > 0
    if HAVE_TORCH:
        assert "minigrad/torch" in section["ratios"]
        assert section["target"]["ratio"] == "minigrad/torch"


def test_w3_reports_growth_memory_and_full_collections(quick_run):
    section = quick_run["results"]["workloads"]["W3"]
    small, large = (str(n) for n in quick_run["results"]["meta"]["config"]["w3_sizes"])
    assert set(section["results"]["minigrad"]) == {small, large}
    assert section["memory_peak_growth_bytes"]["minigrad"][large] > 0
    assert section["target"]["limit"] == 11.0
    assert section["target"]["value"] is not None
    counts = section["full_collections_during_backward"]["minigrad"]
    assert set(counts) == {small, large} and all(c >= 0 for c in counts.values())
    limits = {t["ratio"].split(" (")[0]: t["limit"] for t in section["targets"]}
    assert limits == {f"minigrad {large[:-3]}k/{small[:-3]}k": 11.0,
                      "minigrad full GCs during backward": 0,
                      "minigrad memory per op": 250}
    assert "minigrad full GCs" in quick_run["stdout"]


def test_viz_row_draws_the_reused_parameter_loop(quick_run):
    section = quick_run["results"]["workloads"]["viz"]
    if not section["rows"]:
        pytest.skip(section["notes"][0])                     # no Graphviz here
    minigrad = section["results"]["minigrad"]
    assert minigrad["total"] > 0 and minigrad["boxes"] > 0
    assert section["target"]["limit"] == 2.0 and section["target"]["unit"] == "s"


def test_the_table_ends_with_every_target_and_prints_as_markdown(quick_run, tmp_path):
    assert "\nTargets (one run" in quick_run["stdout"]
    for limit in ("<= 1.15", "<= 0.80", "<= 0.70", "<= 11.00", "<= 250 bytes"):
        assert limit in quick_run["stdout"].split("\nTargets (one run")[1]
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--redraw", "--markdown",
         "--output", str(quick_run["output"]), "--figure", str(tmp_path / "chart.png")],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "| workload | what | measured | target | verdict |" in completed.stdout
    assert "| W3 | minigrad full GCs during backward | " in completed.stdout


def test_chart_is_drawn(quick_run):
    assert quick_run["figure"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("implementation", ["minigrad", "numpy"])
def test_the_w1_instruction_counter_runs_its_steps(implementation):
    """What benchmarks.instructions_w1 runs under valgrind, run here without it (quickly)."""
    from benchmarks.instructions_w1 import run_steps
    import gc
    try:
        run_steps(implementation, 1)
    finally:
        gc.enable()          # (run_steps turns the collector off, as its counts need)


def test_the_w4_instruction_counter_runs_its_graphs():
    """What ``benchmarks.instructions --w4`` runs under valgrind, run here without it (quickly)."""
    from benchmarks.instructions import run_wide
    import gc
    try:
        run_wide(50, True)
    finally:
        gc.enable()          # (run_wide turns the collector off, as its counts need)


def test_the_memory_traffic_counts_run():
    """benchmarks.memory_traffic's counts of one W1 step, quickly: the step's arrays are seen."""
    from benchmarks.memory_traffic import allocations_of_one_step, make_step, page_faults_per_step
    step = make_step("minigrad")
    step()
    assert page_faults_per_step(step, 2) >= 0
    where = []
    peak, arrays, array_bytes = allocations_of_one_step(step, where)
    assert arrays >= 5 and array_bytes >= 784 * 256 * 4 and peak > 0
    # (--lines) each array with the line that made it: the first layer's product among them
    # (made in linalg.py, by the function mm and matmul of two matrices share)
    assert len(where) == arrays and any(
        line.startswith("linalg.py") for size, line in where if size >= 128 * 1024)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_turns_put_each_implementation_after_each_other_equally_often(n):
    """side_by_side's orders: every order holds each implementation once, and each ordered
    pair of neighbours occurs equally often (nothing always runs right after the same one)."""
    from collections import Counter
    from benchmarks.timing import balanced_orders
    orders = balanced_orders(n)
    assert all(sorted(order) == list(range(n)) for order in orders)
    neighbours = Counter((order[i], order[i + 1]) for order in orders for i in range(n - 1))
    assert len(neighbours) == n * (n - 1) and len(set(neighbours.values())) <= 1
