"""The test suites of libraries built on autoray, run on dispatch (a subset).

Runs ``benchmarks/clients/run_clients.py --subset``: a selection of quimb's and
cotengra's own tests, on autoray and with ``autoray`` answered by the autoray
face (``sys.modules["autoray"] = dispatch.autoray``), in subprocesses. Needs the
``clients`` extra (autoray, quimb, cotengra at the pinned versions) and the
package index to download the clients' source distributions (their tests);
skipped without them.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "clients" / "run_clients.py"
PINS = {"autoray": "0.11.0", "quimb": "1.15.0", "cotengra": "0.8.3"}


def _installed(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


@pytest.mark.slow
def test_client_suites_pass_on_dispatch(tmp_path):
    wrong = {d: _installed(d) for d, v in PINS.items() if _installed(d) != v}
    if wrong:
        pytest.skip(f"the clients extra is not installed at its pins: {wrong}")
    pytest.importorskip("pytest_timeout")
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--subset", "--markdown", str(tmp_path / "t.md")],
        capture_output=True,
        text=True,
        timeout=1500,
    )
    if "pip download" in run.stderr and run.returncode != 0 and "table" not in run.stdout:
        pytest.skip(
            f"the clients' source distributions could not be downloaded: {run.stderr[-500:]}"
        )
    table = (tmp_path / "t.md").read_text() if (tmp_path / "t.md").exists() else run.stdout
    print(table)
    assert run.returncode == 0, f"{run.stdout}\n{run.stderr[-3000:]}"
    assert "of native passes" in table
