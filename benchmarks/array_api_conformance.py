"""The array API standard's official test suite, run against ``dispatch.array_namespace``
on every library and, in the same run with the same flags, against array-api-compat
and array-api-strict.

The suite (https://github.com/data-apis/array-api-tests) is not on the package
index: clone it with its ``array-api`` submodule (the standard's signature stubs)
and pass its folder::

    git clone --recurse-submodules https://github.com/data-apis/array-api-tests
    pip install -e ".[bench]"          # array-api-compat, array-api-strict, ndindex
    python benchmarks/array_api_conformance.py --suite array-api-tests
    python benchmarks/array_api_conformance.py --suite array-api-tests \\
        --namespaces dispatch-torch compat-torch --max-examples 5 -k test_sort

Each namespace runs in its own pytest process (``ARRAY_API_TESTS_MODULE``), with
``--max-examples`` Hypothesis examples per test, derandomized (the same examples
for every namespace, run after run), ``--disable-deadline``, and the standard's
version fixed (``ARRAY_API_TESTS_VERSION``). The table counts, per namespace, the
tests passed of those collected; ``--compare`` lists the tests one namespace fails
where another passes (dispatch against array-api-compat on the same library).
docs/array-api.md holds the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VERSION = os.environ.get("ARRAY_API_TESTS_VERSION", "2025.12")

# namespace label -> the ARRAY_API_TESTS_MODULE value
NAMESPACES = {
    "strict": "array_api_strict",
    "compat-numpy": "array_api_compat.numpy",
    "compat-torch": "array_api_compat.torch",
    "compat-dask": "array_api_compat.dask.array",
    "native-jax": "jax.numpy",  # jax's own namespace is the standard's
    **{
        f"dispatch-{lib}": (
            f"exec('import dispatch; xp = dispatch.array_namespace(\"{lib}\")')"
        )
        for lib in ("numpy", "torch", "jax", "tensorflow", "dask")
    },
    # the array-api-compat face (dispatch.compat): the same adapters, numpy's names too
    **{
        f"face-{lib}": (
            f"exec('import dispatch.compat; xp = dispatch.compat.array_namespace(\"{lib}\")')"
        )
        for lib in ("numpy", "torch")
    },
}
# per-namespace environment: jax offers float64 (which the suite needs to start) only in
# its 64-bit mode, as array-api-compat's and jax's own runs of the suite set it
ENV = {label: {"JAX_ENABLE_X64": "1"} for label in ("dispatch-jax", "native-jax")}
DEFAULT = ("strict", "compat-numpy", "dispatch-numpy", "compat-torch", "dispatch-torch",
           "dispatch-jax", "dispatch-tensorflow", "dispatch-dask")
# (ours, theirs): the tests theirs passes and ours does not are listed
COMPARE = (("dispatch-numpy", "compat-numpy"), ("dispatch-torch", "compat-torch"),
           ("dispatch-dask", "compat-dask"), ("dispatch-jax", "native-jax"))


def run(label: str, suite: Path, args: argparse.Namespace, out: Path) -> dict[str, str]:
    """Run the suite on one namespace; per test id its outcome."""
    xml = out / f"{label}.xml"
    env = dict(os.environ, ARRAY_API_TESTS_MODULE=NAMESPACES[label],
               ARRAY_API_TESTS_VERSION=VERSION, PYTHONWARNINGS="ignore",
               TF_CPP_MIN_LOG_LEVEL="3", **ENV.get(label, {}))
    # this checkout's dispatch, not whichever one is installed
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    cmd = [
        sys.executable, "-m", "pytest", "array_api_tests", "-q", "-rN", "--tb=no",
        "-p", "no:randomly", "-p", "no:cacheprovider", "-p", "no:benchmark",
        "-o", "addopts=", f"--max-examples={args.max_examples}", "--derandomize",
        "--disable-deadline", f"--junitxml={xml}",
    ]
    if args.jobs > 1:
        cmd += ["-n", str(args.jobs)]
    if args.k:
        cmd += ["-k", args.k]
    if args.timeout:
        cmd += [f"--timeout={args.timeout}"]
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=suite, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - start
    tail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or ["(no output)"]
    print(f"  {label}: {tail[0]} ({seconds:.0f} s)", flush=True)
    if not xml.exists():
        print(proc.stdout[-3000:], proc.stderr[-3000:])
        return {}
    outcomes: dict[str, str] = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        test = f"{case.get('classname')}::{case.get('name')}"
        kinds = {child.tag for child in case}
        outcomes[test] = (
            "failed" if kinds & {"failure", "error"} else "skipped" if "skipped" in kinds
            else "passed"
        )
    return outcomes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", type=Path, required=True, help="array-api-tests checkout")
    ap.add_argument("--namespaces", nargs="+", default=list(DEFAULT), choices=list(NAMESPACES))
    ap.add_argument("--max-examples", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=1, help="pytest-xdist workers per namespace")
    ap.add_argument("-k", help="pytest -k expression (a subset of the tests)")
    ap.add_argument("--timeout", type=int, default=0,
                    help="seconds one test may run before it counts as failed (pytest-timeout)")
    ap.add_argument("--out", type=Path, default=REPO / "build" / "array-api")
    ap.add_argument("--compare", action="store_true",
                    help="list the tests compat passes and dispatch fails")
    ap.add_argument("--report", action="store_true", help="re-read the last run's results")
    args = ap.parse_args(argv)
    suite = args.suite.resolve()
    if not (suite / "array_api_tests").is_dir() or not any((suite / "array-api").iterdir()):
        ap.error(f"{suite} is not an array-api-tests checkout with its array-api submodule")
    args.out.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, str]] = {}
    saved = args.out / "results.json"
    if args.report:
        results = json.loads(saved.read_text())
    else:
        print(f"array-api-tests at {suite}, standard {VERSION}, "
              f"{args.max_examples} examples per test, derandomized")
        for label in args.namespaces:
            results[label] = run(label, suite, args, args.out)
        old = json.loads(saved.read_text()) if saved.exists() and args.k is None else {}
        saved.write_text(json.dumps({**old, **results}, indent=0, sort_keys=True) + "\n")
    width = max(len(n) for n in results)
    print(f"\n| {'namespace':<{width}} | passed | failed | skipped | tests |")
    print(f"|{'-' * (width + 2)}|-------:|-------:|--------:|------:|")
    for label, outcomes in results.items():
        counts = {k: sum(v == k for v in outcomes.values())
                  for k in ("passed", "failed", "skipped")}
        print(f"| {label:<{width}} | {counts['passed']:>6} | {counts['failed']:>6} | "
              f"{counts['skipped']:>7} | {len(outcomes):>5} |")
    for ours, theirs in COMPARE:
        if ours in results and theirs in results:
            behind = sorted(t for t, v in results[theirs].items()
                            if v == "passed" and results[ours].get(t) != "passed")
            print(f"\n{ours}: {len(behind)} tests {theirs} passes and it does not")
            if args.compare:
                for t in behind:
                    print(f"  {t}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
