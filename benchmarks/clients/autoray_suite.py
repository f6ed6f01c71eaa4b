"""Judge 1 of the autoray face: autoray's own test suite, on autoray and swapped.

autoray 0.11.0's ``tests/`` (from its source distribution) run twice in one run
of this script, on the same machine: once as published, once with the pytest
plugin ``autoray_swap`` (beside this file) making ``import autoray`` give
``dispatch.autoray``; nothing is patched. Libraries that are not installed are
skipped by autoray's own conftest on both sides. The table gives the passes per
test module; the exit status is 1 below ``--min-ratio`` (default 0.97).

Usage::

    python benchmarks/clients/autoray_suite.py                   # the whole suite
    python benchmarks/clients/autoray_suite.py --select tests/test_random.py
    python benchmarks/clients/autoray_suite.py --markdown out.md --failures fails.txt
    python benchmarks/clients/autoray_suite.py --backends mlx      # one library's cases
    # another checkout's dispatch and swap plugin (the figure before a change):
    python benchmarks/clients/autoray_suite.py --dispatch /path/to/checkout

Needs pytest-timeout.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_clients import _counts, fetch, table  # noqa: E402

VERSION = "0.11.0"


def run(root: Path, select: list[str], checkout: Path | None, skip: str = "",
        only: str = "") -> tuple:
    """Outcome counts per module, the wall time and the ids of the passed tests;
    ``checkout``: swap to the dispatch of that checkout, with its plugin (None:
    autoray itself)."""
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "report.xml"
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
        cmd += ["--timeout=300", f"--junitxml={xml}", "-o", "junit_family=xunit1", *select]
        keep = " or ".join(only.split(",")) if only else ""
        drop = " and ".join(f"not {b}" for b in skip.split(",")) if skip else ""
        if keep or drop:
            cmd += ["-k", " and ".join(f"({e})" for e in (keep, drop) if e)]
        env = dict(os.environ)
        if checkout is not None:
            cmd[3:3] = ["-p", "autoray_swap"]
            paths = [str(checkout / "benchmarks" / "clients"), str(checkout)]
            env["PYTHONPATH"] = os.pathsep.join([*paths, *filter(None, [env.get("PYTHONPATH")])])
        start = time.perf_counter()
        subprocess.run(
            cmd,
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        wall = time.perf_counter() - start
        passed = set()
        if xml.exists():
            passed = {
                f"{c.get('classname')}::{c.get('name')}"
                for c in ET.parse(xml).iter("testcase")
                if not any(ch.tag in ("failure", "error", "skipped") for ch in c)
            }
        return _counts(xml), wall, passed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--select", nargs="*", default=["tests"], help="test paths in the sdist")
    p.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "dispatch-clients")
    p.add_argument("--dispatch", type=Path, default=HERE.parents[1], help="checkout to swap in")
    p.add_argument("--markdown", type=Path, help="also write the table to this file")
    p.add_argument(
        "--failures", type=Path, help="write the ids that pass on autoray and not swapped"
    )
    p.add_argument("--min-ratio", type=float, default=0.97)
    p.add_argument("--swap-only", action="store_true", help="skip the native run")
    p.add_argument(
        "--skip-backends",
        default="",
        help="comma-separated backends deselected on both sides (-k 'not NAME'), as if "
        "not installed: libraries installed on this machine whose tables are not in "
        "the checkout under test",
    )
    p.add_argument(
        "--backends",
        default="",
        help="comma-separated backends whose tests alone run on both sides (-k 'A or B'): "
        "autoray's tests are parametrized by backend name",
    )
    opts = p.parse_args(argv)
    root = fetch("autoray", VERSION, opts.cache)
    native, t_native, ok_native = (
        ({}, 0.0, set()) if opts.swap_only
        else run(root, opts.select, None, opts.skip_backends, opts.backends)
    )
    swapped, t_swap, ok_swap = run(root, opts.select, opts.dispatch.resolve(), opts.skip_backends,
                                   opts.backends)
    if opts.failures:
        opts.failures.write_text("".join(f"{t}\n" for t in sorted(ok_native - ok_swap)))
    text, ratios = table({"autoray": (native, swapped, t_native, t_swap)})
    print(text)
    if opts.markdown:
        opts.markdown.write_text(text + "\n")
    return 0 if opts.swap_only or ratios["autoray"] >= opts.min_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
