"""pytest settings shared by the library, notebook and browser tests.

Tests that need PyTorch, Graphviz's `dot`, Chromium or Playwright skip when
those are missing, so that the course works on any laptop. In CI they must
not quietly skip: with MINIGRAD_CI=1 (set by .ci/run) such a skip is turned
into a failure.

A skip counts as "needs a tool" when its reason names one of them, as the
reasons of ``pytest.importorskip("torch")`` or
``pytest.skip("Graphviz dot not installed")`` do.
"""
import os
import re

import pytest

STRICT = os.environ.get("MINIGRAD_CI", "") not in ("", "0")
NEEDS_TOOL = re.compile(r"torch|graphviz|\bdot\b|chromium|playwright", re.IGNORECASE)


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def _must_not_skip(report) -> bool:
    return (
        STRICT
        and report.skipped
        and not hasattr(report, "wasxfail")
        and bool(NEEDS_TOOL.search(_skip_reason(report)))
    )


def _fail_instead(report):
    reason = _skip_reason(report)
    report.outcome = "failed"
    report.longrepr = (
        f"{reason}\n(MINIGRAD_CI is set: a test may not skip for a missing tool; "
        "install it, see .ci/run)"
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if _must_not_skip(report):
        _fail_instead(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    # e.g. a module-level pytest.importorskip("torch")
    outcome = yield
    report = outcome.get_result()
    if _must_not_skip(report):
        _fail_instead(report)
