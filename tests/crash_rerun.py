"""A test whose xdist worker dies runs once more, on a fresh worker.

A worker process can die under a test without any fault of the test or of
``dispatch``: a native crash inside one of the array libraries (a segmentation
fault in compiled code, seen once in CI in mlx's CPU build, not reproducible
alone in over a thousand runs of the same test), or the kernel's out-of-memory
killer. pytest-xdist then reports the test as failed with "worker crashed" and
no traceback, and a whole CI run is lost to one event in a native library.

These hooks (imported by ``tests/conftest.py``) put such a test back in the
queue once, on the worker that replaces the dead one. Only crashes are
retried: a test that fails or errors is reported as it is, never rerun. A
test that ran past pytest-timeout's limit (its thread method ends the worker
too, after printing every stack) is retried once as well, and said to have
timed out: mlx's trace property test hung twice in full runs, deep into a
worker's life, never on a fresh one. A test that kills its worker twice
fails. Every retry is shown: the progress line prints ``R``, the summary line
counts ``rerun``, and the terminal summary names the test.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

# node ids whose worker died once already, on the controller
_CRASHED: set[str] = set()
# when each test started (the controller hears of every start from its worker)
_STARTED: dict[str, float] = {}


def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    _STARTED[nodeid] = time.monotonic()


def _timed_out(config: Any, nodeid: str) -> bool:
    """Whether ``nodeid`` ran into pytest-timeout's limit (the ``timeout`` ini value)."""
    try:
        limit = float(config.getini("timeout") or 0)
    except ValueError:  # pytest-timeout not installed: no such ini value
        return False
    started = _STARTED.get(nodeid)
    return bool(limit) and started is not None and time.monotonic() - started >= limit


@pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown when xdist is not running
def pytest_handlecrashitem(crashitem: str, report: Any, sched: Any) -> None:
    """On the controller: a worker died running ``crashitem``; queue it again once."""
    if crashitem in _CRASHED:
        return  # the second crash stands as xdist reports it: a failure
    if _timed_out(sched.config, crashitem):
        # a hang seen only deep into a worker's life (mlx's trace property test, two
        # full runs, never alone): once more on a fresh worker, said as such
        report.longrepr = f"{report.longrepr}: it ran past pytest-timeout's limit"
    _CRASHED.add(crashitem)
    sched.mark_test_pending(crashitem)
    report.outcome = "rerun"
    report.longrepr = f"{report.longrepr}; queued once more on a fresh worker"


def pytest_report_teststatus(report: Any, config: Any) -> tuple[str, str, str] | None:
    """How a retried crash reads in the progress line and the summary counts."""
    if report.outcome == "rerun":
        return "rerun", "R", "RERUN"
    return None


def rerun_lines(stats: dict) -> list[str]:
    """The terminal summary's lines about the crashes that were retried."""
    return [f"worker crashed: {rep.longrepr}" for rep in stats.get("rerun", [])]
