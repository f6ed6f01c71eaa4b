"""``python -m dispatch``: run in a subprocess, as a user would, on numpy only."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest


def run_cli(*args: str, code: str | None = None) -> subprocess.CompletedProcess:
    cmd = (
        [sys.executable, "-m", "dispatch", *args] if code is None else [sys.executable, "-c", code]
    )
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, check=False)


def test_cli_numpy_libraries_demo_and_coverage():
    run = run_cli("--backends", "numpy")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    # the library listing, with numpy's version
    assert "libraries:" in out
    assert f"numpy  {np.__version__}" in out
    # the demo ran through numpy and the QR check held
    demo_rows = [line for line in out.splitlines() if line.startswith("  numpy  sum/norm")]
    assert len(demo_rows) == 1, out
    assert "q@r==x True" in demo_rows[0]
    assert "error" not in demo_rows[0]
    # the coverage matrix and its summary
    assert "coverage (N native" in out
    assert any(line.split() == ["sum", "N"] for line in out.splitlines())
    summary = out.split("summary (names per library):", 1)[1]
    assert "numpy  native " in summary
    # only the selected backend appears
    assert "torch" not in out


def test_cli_help_documents_options():
    run = run_cli("--help")
    assert run.returncode == 0
    for option in ("--backends", "--names", "--no-demo", "--no-coverage", "--markdown"):
        assert option in run.stdout


def test_cli_markdown_coverage_of_chosen_names():
    run = run_cli(
        "--backends", "numpy", "--names", "sum,linalg.qr,no_such_name", "--no-demo", "--markdown"
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "| name | numpy |" in lines
    assert "| `sum` | native |" in lines
    assert "| `linalg.qr` | native |" in lines
    assert "| `no_such_name` | missing |" in lines
    assert "| numpy | 2 | 0 | 0 | 0 | 1 | 0 |" in lines
    assert "demo:" not in run.stdout


def test_cli_no_coverage_and_unknown_backend_do_not_crash():
    run = run_cli("--backends", "numpy,not_a_library", "--no-coverage")
    assert run.returncode == 0, run.stderr
    assert "not_a_library  unknown backend" in run.stdout
    assert "coverage (" not in run.stdout


@pytest.mark.parametrize("name", ["linalg.qr", "sum"])
def test_cli_failing_demo_call_is_reported_in_its_row(name):
    code = (
        "import dispatch, sys\n"
        "def boom(*a, **k):\n"
        "    raise RuntimeError('demo failure')\n"
        f"dispatch.register_function('numpy', {name!r}, boom)\n"
        "from dispatch.__main__ import main\n"
        "sys.exit(main(['--backends', 'numpy', '--no-coverage']))\n"
    )
    run = run_cli(code=code)
    assert run.returncode == 0, run.stderr
    row = next(line for line in run.stdout.splitlines() if line.startswith("  numpy  sum/norm"))
    assert "RuntimeError: demo failure" in row
    # the steps that do not use the broken function still ran
    assert "normal [" in row


# a numpy-only install, simulated: a finder first on sys.meta_path refuses the modules
_BLOCK = """
import importlib.abc, sys
BLOCKED = {blocked!r}
class _Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _Block())
"""

_MISSING_NAMES = ("scipy.special.erf", "scipy.special.gammaln", "linalg.expm", "scipy.linalg.expm")


def test_numpy_only_install_same_error_everywhere():
    """Names that need scipy raise BackendNotInstalledError naming the extra, as
    names of a library that is not installed do (issue #11, section 5)."""
    code = _BLOCK.format(blocked=("scipy", "torch")) + _ERRORS_PROBE
    run = run_cli(code=code)
    assert run.returncode == 0, run.stderr
    lines = dict(line.split(" | ", 1) for line in run.stdout.splitlines() if " | " in line)
    assert set(lines) == {*_MISSING_NAMES, "torch"}, run.stdout
    for label, message in lines.items():
        assert not message.startswith("WRONG"), (label, message)
        extra = "torch" if label == "torch" else "scipy"
        assert f"pip install array-dispatch[{extra}]" in message, (label, message)
    assert "supports None" in run.stdout
    assert (
        "coverage {'scipy.special.erf': {'numpy': 'missing'}, 'linalg.expm': {'numpy': "
        "'missing'}, 'sum': {'numpy': 'native'}}" in run.stdout
    )
    assert "still works 2.0" in run.stdout
    assert "sigmoid needs no scipy [0.5]" in run.stdout


_ERRORS_PROBE = f"""
import numpy as np, dispatch
from dispatch import do, BackendNotInstalledError
x = np.ones(2)
calls = {{n: (lambda n=n: do(n, x)) for n in {_MISSING_NAMES!r}}}
calls["torch"] = lambda: do("zeros", 2, like="torch")
for label, call in calls.items():
    try:
        call()
    except BackendNotInstalledError as err:
        print(label, "|", err)
    except Exception as err:
        print(label, "| WRONG", type(err).__name__, err)
    else:
        print(label, "| WRONG no error")
print("supports", dispatch.supports("scipy.special.erf", "numpy"))
print("coverage", dispatch.coverage(["scipy.special.erf", "linalg.expm", "sum"], ["numpy"]))
print("still works", do("sum", x))
print("sigmoid needs no scipy", do("sigmoid", np.zeros(1)))
"""


def test_cli_numpy_only_install_lists_scipy_names_as_missing():
    names = ",".join((*_MISSING_NAMES, "sum"))
    code = _BLOCK.format(blocked=("scipy",)) + (
        "import sys\nfrom dispatch.__main__ import main\n"
        f"sys.exit(main(['--backends', 'numpy,scipy', '--names', {names!r}, '--no-demo']))\n"
    )
    run = run_cli(code=code)
    assert run.returncode == 0, run.stderr
    rows = {
        line.split()[0]: line.split()[1:]
        for line in run.stdout.splitlines()
        if line.startswith("  ") and len(line.split()) == 2
    }
    for name in _MISSING_NAMES:
        assert rows[name] == ["."], run.stdout
    assert rows["sum"] == ["N"]
    assert 'scipy  not installed (pip install "array-dispatch[scipy]")' in run.stdout
    assert "not installed: " in run.stdout
    assert "scipy" in run.stdout.split("not installed: ")[-1]
    assert "numpy  native 1  missing 4" in run.stdout
