"""Lint and types as tests, so the README's test command (and CI) enforces them.

ruff checks the whole tree with the rules in pyproject.toml; mypy checks the
engine package ``dispatch/`` (the translation tables are knowledge written
against libraries whose stubs vary from release to release). Both tools are
pinned in the ``test`` extra, so a new release cannot turn CI red on its own.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_clean():
    if shutil.which("ruff") is None:
        pytest.skip("ruff is not installed (it is in the test extra)")
    done = _run("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_clean_on_engine():
    pytest.importorskip("mypy", reason="mypy is not installed (it is in the test extra)")
    done = _run(sys.executable, "-m", "mypy", "dispatch")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout
