"""The suite's retry of a test whose xdist worker died (tests/crash_rerun.py), run for
real: a small suite in a temporary folder, two xdist workers, tests that kill their
own worker with SIGKILL (what the kernel's out-of-memory killer sends)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("xdist")

HERE = Path(__file__).resolve().parents[1]  # tests/, where crash_rerun.py lies

CONFTEST = f"""
import sys
sys.path.insert(0, {str(HERE)!r})
from crash_rerun import (  # noqa: F401
    pytest_handlecrashitem, pytest_report_teststatus, pytest_runtest_logstart, rerun_lines,
)

def pytest_terminal_summary(terminalreporter):
    for line in rerun_lines(terminalreporter.stats):
        terminalreporter.write_line(line)
"""

SUITE = """
import os, signal, pathlib

MARK = pathlib.Path({mark!r})

def test_dies_once():
    if not MARK.exists():
        MARK.write_text("died")
        os.kill(os.getpid(), signal.SIGKILL)

def test_always_dies():
    os.kill(os.getpid(), signal.SIGKILL)

def test_fails():
    assert 1 == 2

def test_passes():
    pass
"""


# no plugin of this environment in the way: benchmark warns under xdist, randomly reorders
QUIET = ("-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:benchmark", "-q")


def _summary(out: str) -> str:
    """pytest's last line: the counts ("2 failed, 2 passed, 2 rerun in 3.1s")."""
    return [line for line in out.splitlines() if re.search(r"\d+ (passed|failed)", line)][-1]


def _run(tmp_path: Path) -> tuple[int, str]:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_suite.py").write_text(SUITE.format(mark=str(tmp_path / "mark")))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", *QUIET, str(tmp_path / "test_suite.py")],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is a POSIX signal")
def test_a_crashed_test_runs_once_more_and_only_a_crash_is_retried(tmp_path: Path) -> None:
    code, out = _run(tmp_path)
    last = _summary(out)
    # dies once: rerun and passes; always dies: rerun once, then fails; an assertion
    # failure is not rerun
    counts = dict((k, int(n)) for n, k in re.findall(r"(\d+) (failed|passed|rerun)", last))
    assert counts == {"failed": 2, "passed": 2, "rerun": 2}, out
    assert "FAILED test_suite.py::test_always_dies" in out, out
    assert "FAILED test_suite.py::test_fails" in out, out
    assert "test_dies_once" not in "".join(
        line for line in out.splitlines() if line.startswith("FAILED")), out
    assert "queued once more on a fresh worker" in out, out
    assert code == 1


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is a POSIX signal")
def test_a_test_past_the_timeout_is_retried_once_and_said_to_have_timed_out(tmp_path: Path) -> None:
    """pytest-timeout's thread method ends the worker as a crash does: a hang runs
    once more on a fresh worker, and a test that hangs again fails."""
    pytest.importorskip("pytest_timeout")
    (tmp_path / "conftest.py").write_text(CONFTEST)
    suite = tmp_path / "test_suite.py"
    suite.write_text("import time\n\ndef test_hangs():\n    time.sleep(30)\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "1", *QUIET,
         "-o", "timeout=2", "-o", "timeout_method=thread", str(suite)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )
    out = proc.stdout + proc.stderr
    last = _summary(out)
    assert sorted(re.findall(r"(\d+) (failed|passed|rerun)", last)) == [
        ("1", "failed"), ("1", "rerun")], out
    assert "ran past pytest-timeout's limit" in out, out
