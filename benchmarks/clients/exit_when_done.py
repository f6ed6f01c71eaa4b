"""pytest plugin: end the process as soon as the session's reports are written.

A client's test that times out may leave threads behind (cotengra's
``test_auto_optimizers_threadsafe`` leaves a thread pool searching contraction
trees, its distributed tests a dask cluster). Python waits for such threads at
exit, so pytest prints its summary and writes its JUnit report, then never
returns: the run waits on it until its own limit. This plugin exits with
pytest's status once everything else has finished (its hook runs last).
"""

from __future__ import annotations

import os
import sys

import pytest

_STATUS = {"code": 0}


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _STATUS["code"] = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_STATUS["code"])
