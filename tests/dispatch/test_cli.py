"""``python -m dispatch``: run in a subprocess, as a user would.

The default output fits a screen; ``--full`` and ``--names`` print the matrix;
unknown options exit with status 2 and a suggestion. The README's excerpt of
the output is compared with a real run (:func:`test_readme_excerpt_is_the_real_output`);
after a change of the tables, rewrite it with ``python tests/dispatch/test_cli.py``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def run_cli(*args: str, code: str | None = None) -> subprocess.CompletedProcess:
    cmd = (
        [sys.executable, "-m", "dispatch", *args] if code is None else [sys.executable, "-c", code]
    )
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env, check=False)


def _summary(out: str) -> dict[str, dict[str, int]]:
    """The per-library summary table: {library: {kind: count}}."""
    lines = out.split("names per library, out of ", 1)[1].splitlines()[1:]
    kinds = lines[0].split()[1:]
    table = {}
    for line in lines[1:]:
        if not line.startswith("  "):
            break
        lib, *counts = line.split()
        table[lib] = dict(zip(kinds, map(int, counts), strict=True))
    return table


def test_cli_numpy_libraries_demo_and_summary():
    run = run_cli("--backends", "numpy")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    # the library listing, with numpy's version
    assert "libraries (1 of 1 installed):" in out
    assert f"numpy  {np.__version__}" in out
    # the demo ran through numpy and solved the system
    demo_rows = [line for line in out.splitlines() if line.startswith("  numpy  sum ")]
    assert len(demo_rows) == 1, out
    assert "solve(x, sum) [1. 1. 1.]" in demo_rows[0]
    assert "(numpy.ndarray, " in demo_rows[0]
    assert "error" not in demo_rows[0]
    # the summary, not the matrix
    assert "coverage (N native" not in out
    summary = _summary(out)
    assert set(summary) == {"numpy"}
    assert summary["numpy"]["native"] > 300
    assert summary["numpy"]["composed"] > 50
    assert "--full" in out
    # only the selected backend appears
    assert "torch" not in out


def _installed(library: str) -> bool:
    return importlib.util.find_spec(library) is not None


def test_cli_default_output_fits_a_screen_and_every_demo_row_succeeds():
    run = run_cli()
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) <= 60, run.stdout
    assert max(map(len, lines)) <= 110, run.stdout
    listed = lines[lines.index(next(ln for ln in lines if ln.startswith("libraries ("))) + 1 :]
    listed = listed[: listed.index("")]
    installed = [ln.split()[0] for ln in listed if "not installed" not in ln]
    assert installed[0] == "numpy"
    demo_rows = [ln for ln in lines if ln.startswith("  ") and " sum [" in ln]
    assert [row.split()[0] for row in demo_rows] == installed, run.stdout
    for row in demo_rows:
        assert "error" not in row, row
        assert "solve(x, sum) [1. 1. 1.]" in row, row
    # the backend of scipy.sparse matrices says so, in the listing, demo and summary
    if _installed("scipy"):
        label = [ln for ln in listed if ln.split()[:1] == ["scipy.sparse"]]
        assert len(label) == 1, listed
        assert "(backend 'scipy')" in label[0]
        assert "scipy" not in installed
    assert list(_summary(run.stdout)) == installed


def test_cli_help_documents_options():
    run = run_cli("--help")
    assert run.returncode == 0
    for option in ("--backends", "--names", "--full", "--no-demo", "--no-coverage", "--markdown"):
        assert option in run.stdout


def test_cli_full_prints_every_known_name_with_reasons():
    from dispatch._resolve import known_names

    run = run_cli("--backends", "numpy", "--full", "--no-demo")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "coverage (N native, C composed" in out
    rows = [ln.split() for ln in out.split("coverage (", 1)[1].splitlines()[2:]]
    rows = rows[: rows.index([])]
    assert len(rows) >= len(known_names()) - 5  # names shipped, not those tests register
    assert ["sum", "N"] in rows
    assert "unsupported / errors:" in out
    assert "variable on numpy: " in out


def test_cli_markdown_coverage_of_chosen_names():
    names = "sum,linalg.qr,gradient"
    run = run_cli("--backends", "numpy", "--names", names, "--no-demo", "--markdown")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "| name | numpy |" in lines
    assert "| `sum` | native |" in lines
    assert "| `linalg.qr` | native |" in lines
    assert "| `gradient` | native |" in lines
    assert "| library | native |" in lines
    assert "| numpy | 3 |" in lines
    assert "demo:" not in run.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--backends", "pytorch"), "unknown backend 'pytorch'. Did you mean 'torch'?"),
        (("--backends", "numpy,Jax"), "unknown backend 'Jax'. Did you mean 'jax'?"),
        (("--names", "summ"), "unknown function name 'summ'. Did you mean 'sum'"),
        (
            ("--names", "sum,linalg.qrr"),
            "unknown function name 'linalg.qrr'. Did you mean 'linalg.qr'",
        ),
    ],
)
def test_cli_unknown_value_exits_2_with_a_suggestion(args, message):
    run = run_cli(*args, "--no-demo")
    assert run.returncode == 2, run.stdout
    assert message in run.stderr
    assert "usage: python -m dispatch" in run.stderr
    assert run.stdout == ""


def test_cli_backend_by_its_label_and_not_installed_backend():
    pytest.importorskip("scipy.sparse")
    run = run_cli("--backends", "numpy,scipy.sparse", "--no-coverage")
    assert run.returncode == 0, run.stderr
    assert "libraries (2 of 2 installed):" in run.stdout
    assert any(ln.startswith("  scipy.sparse  sum [5. 5. 3.]") for ln in run.stdout.splitlines())


@pytest.mark.parametrize("name", ["linalg.solve", "sum"])
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
    row = next(line for line in run.stdout.splitlines() if line.startswith("  numpy  sum "))
    assert "RuntimeError: demo failure" in row
    # the steps that do not use the broken function still ran
    assert "norm 5.745" in row
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
    names of a library that is not installed do."""
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
    assert 'scipy  not installed: pip install "array-dispatch[scipy]"' in run.stdout
    assert "libraries (1 of 2 installed):" in run.stdout
    assert "scipy" in run.stdout.split("\nnot installed: ")[-1]
    assert _summary(run.stdout) == {"numpy": {"native": 1, "missing": 4}}


# ---------------------------------------------------------------- the README's excerpt

# the README's console block: "$ python -m dispatch ..." and the output it shows
_EXCERPT = re.compile(r"```console\n\$ python -m dispatch(?P<args>[^\n]*)\n(?P<out>.*?)```", re.S)


def _normalized(text: str) -> list[str]:
    """Output lines with what differs between machines (versions, timings) masked."""
    lines, listing = [], False
    for line in text.splitlines():
        line = re.sub(r"on Python \S+$", "on Python <version>", line.rstrip())
        line = re.sub(r", \d+ ms\)$", ", <ms> ms)", line)
        if line.startswith("libraries ("):
            listing = True
        elif not line:
            listing = False
        elif listing and "not installed" not in line:
            line = re.sub(r"^(  \S+\s+)\S+", r"\1<version>", line)
        lines.append(line)
    return lines


def _readme_excerpt() -> tuple[list[str], str]:
    match = _EXCERPT.search(README.read_text(encoding="utf-8"))
    assert match is not None, "README.md has no ```console block of `$ python -m dispatch`"
    return shlex.split(match["args"]), match["out"]


def test_readme_excerpt_is_the_real_output():
    args, shown = _readme_excerpt()
    for library in ("torch", "jax", "tensorflow", "dask", "sparse", "scipy"):
        if library in " ".join(args):
            pytest.importorskip(library)
    run = run_cli(*args)
    assert run.returncode == 0, run.stderr
    assert _normalized(shown) == _normalized(run.stdout), (
        "README.md's output of `python -m dispatch" + " ".join(["", *args]) + "` is not what "
        "it prints now (versions and timings aside); rewrite the excerpt with "
        "`python tests/dispatch/test_cli.py`"
    )


def _rewrite_readme() -> None:
    """Replace the README's excerpt with the output of its command, run here."""
    args, _ = _readme_excerpt()
    run = run_cli(*args)
    if run.returncode != 0:
        sys.exit(run.stderr)
    text = README.read_text(encoding="utf-8")
    match = _EXCERPT.search(text)
    assert match is not None
    text = text[: match.start("out")] + run.stdout + text[match.end("out") :]
    README.write_text(text, encoding="utf-8")
    print(f"README.md: wrote the output of `python -m dispatch {shlex.join(args)}`")


if __name__ == "__main__":
    _rewrite_readme()
