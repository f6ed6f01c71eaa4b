"""Run the test suites of libraries built on autoray, on autoray and on dispatch.

Each client's own tests run twice in one run of this script, on the same
machine: once as published (on autoray 0.11.0), once with ``import autoray``
answered by the autoray face (the pytest plugin ``autoray_swap`` beside this file
makes ``autoray`` ``dispatch.autoray`` and every ``autoray.X``
``dispatch.autoray.X``; nothing in dispatch is patched). The table gives the passes per test module.

The clients' tests come from their source distributions on the package index
(``pip download --no-binary``), unpacked into ``--cache``; the installed client
library must be the same version (``pip install -e ".[clients]"``).

Usage::

    python benchmarks/clients/run_clients.py                 # the full selection
    python benchmarks/clients/run_clients.py --subset        # the CI subset (minutes)
    python benchmarks/clients/run_clients.py --markdown out.md
    python benchmarks/clients/run_clients.py --clients quimb --reports DIR  # lost ids too

Exit status 1 when a client passes fewer than ``--min-ratio`` (default 0.99) of
its native passes with the swap, 3 when a source distribution cannot be fetched.
Needs pytest-timeout (each test is limited to 300 s).
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent

# client -> (pinned version, test selection, CI subset, extra pytest arguments)
CLIENTS: dict[str, dict] = {
    "cotengra": {
        "version": "0.8.3",
        "select": ["tests"],
        "subset": [
            "tests/test_interface.py",
            "tests/test_paths_basic.py",
            "tests/test_compute.py::test_basic_equations",
            "tests/test_compute.py::test_exponent_stripping",
            "tests/test_compute.py::test_lazy_sliced_output_reduce",
        ],
        "args": [],
    },
    "quimb": {
        "version": "1.15.0",
        "select": ["tests/test_tensor"],
        "subset": [
            "tests/test_tensor/test_tensor_core.py",
            "tests/test_tensor/test_contract.py",
        ],
        "args": [],
    },
    # PennyLane's qml.math is written against autoray (it registers functions under
    # 'builtins' and 'autograd', and wraps autograd boxes in an ndarray subclass).
    # PennyLane 0.45.1 pins autoray==0.8.4, so it cannot share an environment with
    # autoray 0.11.0: its native run uses the interpreter named by the environment
    # variable below (a virtual environment with pennylane==0.45.1, its autoray and
    # pytest-rng), and the swapped run the same interpreter with this checkout of
    # dispatch first on its path. It publishes no source distribution of 0.45.1: the
    # tests are those of its repository at the 0.45 release, unpacked into the cache
    # as pennylane-0.45.1/tests (git archive acbbfec^ tests).
    "pennylane": {
        "version": "0.45.1",
        "select": ["tests/math"],
        "subset": ["tests/math/test_multi_dispatch.py", "tests/math/test_matrix_manipulation.py"],
        "args": ["-p", "no:randomly"],
        "python_env": "DISPATCH_PENNYLANE_PYTHON",
        "no_sdist": True,
    },
}


def fetch(client: str, version: str, cache: Path) -> Path:
    """The unpacked source distribution of ``client==version`` (downloaded once)."""
    root = cache / f"{client}-{version}"
    if (root / "tests").is_dir():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-q",
                "-d",
                tmp,
                f"{client}=={version}",
            ],
            check=True,
        )
        (sdist,) = Path(tmp).glob("*.tar.gz")
        with tarfile.open(sdist) as tar:
            tar.extractall(cache, filter="data")
    return root


def run_suite(
    root: Path,
    selection: list[str],
    swap: bool,
    args: list[str],
    timeout: float,
    python: str = sys.executable,
    report: Path | None = None,
) -> tuple[dict[str, collections.Counter], float]:
    """Outcome counts per test module, and the wall time; ``report``: where to keep
    the run's JUnit report (default: a temporary file)."""
    with tempfile.TemporaryDirectory() as tmp:
        xml = report if report is not None else Path(tmp) / "report.xml"
        cmd = [
            python,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            f"--junitxml={xml}",
            "-o",
            "junit_family=xunit1",
            *args,
            *selection,
        ]
        env = dict(os.environ)
        # the plugins beside this file: exit_when_done on both sides (a client's timed-out
        # test may leave threads that keep pytest from exiting), the swap on one
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
        cmd[3:3] = ["-p", "exit_when_done"]
        if swap:
            cmd[3:3] = ["-p", "autoray_swap"]
        start = time.perf_counter()
        subprocess.run(
            cmd,
            cwd=root,
            env=env,
            timeout=timeout,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        wall = time.perf_counter() - start
        return _counts(xml), wall


def passed_ids(xml: Path) -> set[str]:
    """The ids (``module::class::test``, as the report names them) of the tests a
    JUnit report shows passing."""
    if not xml.exists():
        return set()
    return {
        f"{case.get('classname', '?')}::{case.get('name', '?')}"
        for case in ET.parse(xml).iter("testcase")
        if not any(child.tag in ("failure", "error", "skipped") for child in case)
    }


def _counts(xml: Path) -> dict[str, collections.Counter]:
    out: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    if not xml.exists():
        return out
    for case in ET.parse(xml).iter("testcase"):
        # the report names the test's module and class, dotted: keep the module's path
        parts = case.get("classname", "?").split(".")
        while len(parts) > 1 and parts[-1][:1].isupper():
            parts.pop()
        module = "/".join(parts) + ".py"
        kinds = {child.tag for child in case}
        if "failure" in kinds:
            outcome = "failed"
        elif "error" in kinds:
            outcome = "error"
        elif "skipped" in kinds:
            outcome = "skipped"
        else:
            outcome = "passed"
        out[module][outcome] += 1
    return out


def table(results: dict[str, tuple]) -> tuple[str, dict[str, float]]:
    """Markdown table of passes per module, native and swapped; ratio per client."""
    lines = [
        "| client | test module | passed on autoray | passed on dispatch "
        "| failed+errors on dispatch |",
        "|---|---|---:|---:|---:|",
    ]
    ratios = {}
    for client, (native, swapped, t_native, t_swap) in results.items():
        modules = sorted(set(native) | set(swapped))
        n_tot = s_tot = 0
        for m in modules:
            n = native.get(m, collections.Counter())["passed"]
            s = swapped.get(m, collections.Counter())
            n_tot += n
            s_tot += s["passed"]
            lines.append(f"| {client} | `{m}` | {n} | {s['passed']} | {s['failed'] + s['error']} |")
        ratio = s_tot / n_tot if n_tot else 0.0
        ratios[client] = ratio
        lines.append(
            f"| **{client}** | all ({t_native:.0f} s / {t_swap:.0f} s) | **{n_tot}** | "
            f"**{s_tot}** | {ratio:.2%} of native passes |"
        )
    return "\n".join(lines), ratios


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", default=",".join(CLIENTS), help="comma-separated names")
    p.add_argument("--subset", action="store_true", help="the short CI selection")
    p.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "dispatch-clients")
    p.add_argument("--markdown", type=Path, help="also write the table to this file")
    p.add_argument("--min-ratio", type=float, default=0.99)
    p.add_argument("--timeout", type=float, default=5400.0, help="seconds per suite run")
    p.add_argument(
        "--reports",
        type=Path,
        help="keep each run's JUnit report in this folder (<client>-native.xml, "
        "<client>-swapped.xml) and write <client>-lost.txt: the tests that pass on "
        "autoray and not with the swap",
    )
    opts = p.parse_args(argv)

    results = {}
    for client in opts.clients.split(","):
        spec = CLIENTS[client]
        python = sys.executable
        if "python_env" in spec:
            python = os.environ.get(spec["python_env"], "")
            if not python:
                print(f"{client}: skipped, set {spec['python_env']} to its interpreter")
                continue
        root = opts.cache / f"{client}-{spec['version']}"
        try:
            if not spec.get("no_sdist") or not (root / "tests").is_dir():
                root = fetch(client, spec["version"], opts.cache)
        except (subprocess.CalledProcessError, OSError, ValueError) as err:
            print(f"{client}: its source distribution could not be fetched ({err})")
            return 3
        selection = spec["subset"] if opts.subset else spec["select"]
        reports: dict[str, Path | None] = {"native": None, "swapped": None}
        if opts.reports:
            opts.reports.mkdir(parents=True, exist_ok=True)
            reports = {k: opts.reports / f"{client}-{k}.xml" for k in reports}
        native, t_native = run_suite(
            root, selection, False, spec["args"], opts.timeout, python, reports["native"]
        )
        swapped, t_swap = run_suite(
            root, selection, True, spec["args"], opts.timeout, python, reports["swapped"]
        )
        if opts.reports:
            kept = opts.reports / f"{client}-native.xml", opts.reports / f"{client}-swapped.xml"
            lost = sorted(passed_ids(kept[0]) - passed_ids(kept[1]))
            (opts.reports / f"{client}-lost.txt").write_text("".join(f"{t}\n" for t in lost))
        results[client] = (native, swapped, t_native, t_swap)
    text, ratios = table(results)
    print(text)
    if opts.markdown:
        opts.markdown.write_text(text + "\n")
    bad = {c: r for c, r in ratios.items() if r < opts.min_ratio}
    for c, r in bad.items():
        print(f"{c}: {r:.2%} of native passes with dispatch, below {opts.min_ratio:.0%}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
