"""Showing the results: the printed table, results.json, and the bar chart."""
import json
import os
import platform
import subprocess
import sys
import time

from . import PINNED_TOO_LATE, THREADS
from .timing import OPTIONAL_LIBRARIES, ROOT


def machine_description():
    """What a reader needs to judge the numbers: versions, CPU, threads, load."""
    import numpy
    description = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "platform": platform.platform(),
        "cpu": _cpu_name(),
        "cpu_count": os.cpu_count(),
        "threads": THREADS,
        "threads_pinned_too_late_for": PINNED_TOO_LATE,
        "gc_enabled": __import__("gc").isenabled(),
        "recursion_limit": sys.getrecursionlimit(),
        "load_average_at_start": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "minigrad_commit": _git_commit(),
    }
    try:
        import torch
        description["torch"] = torch.__version__
    except ImportError:
        description["torch"] = None
    description["optional_libraries"] = {name: _version_of(name) for name in OPTIONAL_LIBRARIES}
    return description


def _version_of(distribution):
    """The installed version of a package, or None when it is not installed."""
    from importlib import metadata
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _cpu_name():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _git_commit():
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "minigrad"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (commit + " + uncommitted changes in minigrad/") if dirty else commit or None


def targets_of(section):
    """Every target of a workload section (results.json written before "targets" had one)."""
    if "targets" in section:
        return [t for t in section["targets"] if t]
    return [section["target"]] if section.get("target") else []


def format_number(value, unit=""):
    """A target's value or limit as the table prints it: 0.93, 2 (a count), 511 bytes, 1.40 s."""
    if value is None:
        return "not measured"
    if unit == "count":
        return f"{value:.0f}"
    if unit == "bytes":
        return f"{value:.0f} bytes"
    if unit == "s":
        return f"{value:.2f} s"
    return f"{value:.2f}"


def verdict(target):
    """'met', 'NOT met', 'NOT met (failed)' when the workload did not complete, or 'not measured'."""
    if target["met"] is None:
        return "not measured"
    if target["value"] is None:
        return "NOT met (failed)"
    return "met" if target["met"] else "NOT met"


def target_rows(results):
    """[workload, what, measured, target, verdict] for every target of every workload run."""
    rows = []
    for key, section in results["workloads"].items():
        for target in targets_of(section):
            unit = target.get("unit", "")
            rows.append([key, target["ratio"], format_number(target["value"], unit),
                         f"<= {format_number(target['limit'], unit)}", verdict(target)])
    return rows


def print_table(results, stream=sys.stdout, markdown=False):
    """One block per workload (a row per implementation, then its targets), then every target.

    ``markdown``: the same as Markdown tables, to quote a run in a README.
    """
    if markdown:
        print_markdown(results, stream)
        return
    for key, section in results["workloads"].items():
        print(f"\n{section['title']}  [{section['wall_seconds']:.0f} s]", file=stream)
        width = max([24] + [len(row[0]) for row in section["rows"]])
        for name, measured, ratio_text in section["rows"]:
            print(f"  {name:<{width}} {measured:<46} {ratio_text}", file=stream)
        for target in targets_of(section):
            if target["value"] is None and target["met"] is None:
                continue
            unit = target.get("unit", "")
            print(f"  {'target':<{width}} {target['ratio']} = "
                  f"{format_number(target['value'], unit)}, must be <= "
                  f"{format_number(target['limit'], unit)}: {verdict(target)}", file=stream)
        for note in section.get("notes", []):
            print(f"  note: {note}", file=stream)
    rows = target_rows(results)
    if rows:
        print("\nTargets (one run; ratios of medians, implementations taking turns)", file=stream)
        widths = [max(len(str(row[i])) for row in rows) for i in range(4)]
        for row in rows:
            print("  " + "  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths)) + "  " + row[4],
                  file=stream)


def print_markdown(results, stream=sys.stdout):
    """The targets, then each workload's rows, as Markdown tables (``--markdown``)."""
    meta = results["meta"]
    print(f"Run of {meta['date']} on {meta['cpu']} ({meta['threads']} thread, Python "
          f"{meta['python']}, numpy {meta['numpy']}, PyTorch {meta.get('torch')}, minigrad "
          f"{meta.get('minigrad_commit')}):\n", file=stream)
    rows = target_rows(results)
    if rows:
        print("| workload | what | measured | target | verdict |\n|---|---|---|---|---|",
              file=stream)
        for row in rows:
            print("| " + " | ".join(_cell(cell) for cell in row) + " |", file=stream)
    for key, section in results["workloads"].items():
        print(f"\n**{_cell(section['title'])}** ({section['wall_seconds']:.0f} s)\n", file=stream)
        print("| | measured | |\n|---|---|---|", file=stream)
        for name, measured, ratio_text in section["rows"]:
            print(f"| {_cell(name)} | {_cell(' '.join(measured.split()))} | {_cell(ratio_text)} |",
                  file=stream)
        for note in section.get("notes", []):
            print(f"\nNote: {note}", file=stream)


def _cell(text):
    """Text that cannot break a Markdown table row."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def write_json(results, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as out:
        json.dump(results, out, indent=1, sort_keys=False, default=_plain)
        out.write("\n")


def _plain(value):
    """numpy numbers and tuples that json does not know by itself."""
    if hasattr(value, "item"):
        return value.item()
    return str(value)


def draw_chart(results, path):
    """One panel per workload: each library's ratio as a bar, the target as a dashed line."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [(key, section) for key, section in results["workloads"].items()
              if section.get("chart") and section["chart"]["bars"]]
    if not panels:
        return False
    figure, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4.2), squeeze=False)
    for axis, (key, section) in zip(axes[0], panels):
        chart = section["chart"]
        bars = {label: value for label, value in chart["bars"].items() if value is not None}
        failed = chart.get("failed") or {}
        labels = list(bars) + list(failed)          # a library that failed gets an empty slot
        values = [bars[label] for label in bars] + [0.0] * len(failed)
        colours = ["#1f77b4" if label.startswith("minigrad") else
                   "#ff7f0e" if label.startswith("torch") else "#9e9e9e" for label in labels]
        axis.bar(range(len(values)), values, color=colours)
        axis.set_xticks(range(len(values)))
        axis.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)
        axis.axhline(chart["target"], color="#d62728", linestyle="--", linewidth=1.2,
                     label=f"target {chart['target']:g}")
        highest = max(values + [chart["target"]])
        for x, (label, value) in enumerate(zip(labels, values)):
            if label in failed:
                axis.annotate(failed[label], (x, highest * 0.02), ha="center", va="bottom",
                              rotation=90, fontsize=7, color="#d62728")
            else:
                axis.annotate(f"{value:.2f}", (x, value), ha="center", va="bottom", fontsize=7)
        axis.set_ylim(0, highest * 1.15)
        axis.set_title(f"{key}", fontsize=10)
        axis.set_ylabel(chart["ylabel"], fontsize=8)
        axis.legend(fontsize=7, loc="upper left")
    meta = results["meta"]
    figure.suptitle(f"minigrad benchmarks ({meta['cpu']}, {meta['threads']} thread, "
                    f"{'quick smoke run' if meta['quick'] else meta['date']})", fontsize=10)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True
