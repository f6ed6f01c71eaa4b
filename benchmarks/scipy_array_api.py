"""scipy's own array-API tests with its vendored array-api-compat swapped for
``dispatch.compat``.

scipy vendors array-api-compat as ``scipy._lib.array_api_compat``. This script runs
the chosen test modules of the installed scipy twice, each in its own pytest process
with the same flags: natively, then with that one import made ``dispatch.compat``
before scipy loads (``sys.modules["scipy._lib.array_api_compat"] = dispatch.compat``,
done by the plugin below). scipy's numpy input then goes through the face too: its
``array_namespace`` returns the vendored ``array_api_compat.numpy``, which is the
face's numpy namespace. Per backend it prints the tests that pass natively, how many
of them still pass with the face, and the ones lost::

    python benchmarks/scipy_array_api.py                       # the default modules
    python benchmarks/scipy_array_api.py --modules scipy.special.tests.test_logsumexp
    python benchmarks/scipy_array_api.py --face dispatch --keep /tmp/out   # one run,
        # compared with the native run an earlier call kept in /tmp/out

The command each run makes is scipy's own:
``SCIPY_ARRAY_API='["numpy","torch"]' python -m pytest -m array_api_backends --pyargs
<modules>`` (without xdist: the machine is shared), from a scratch folder so that no
project configuration applies.
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
from typing import Any

REPO = Path(__file__).resolve().parents[1]

# about 40 modules across _lib, cluster, special, integrate, spatial.transform, fft,
# stats, ndimage and signal; the slowest (signal's test_signaltools, stats'
# test_stats and test_morestats, ndimage's test_filters, spatial's test_rotation)
# are left to --modules
MODULES = """
_lib.tests.test_array_api _lib.tests.test__util
cluster.tests.test_vq cluster.tests.test_hierarchy
special.tests.test_logsumexp special.tests.test_support_alternative_backends
special.tests.test_log1mexp special.tests.test_ndtri_exp
integrate.tests.test_tanhsinh integrate.tests.test_cubature integrate.tests.test_quadrature
spatial.transform.tests.test_rigid_transform
fft.tests.test_basic fft.tests.test_helper fft.tests.test_real_transforms
fft.tests.test_fftlog
stats.tests.test_entropy stats.tests.test_variation stats.tests.test_quantile
stats.tests.test_correlation stats.tests.test_rank stats.tests.test_continued_fraction
ndimage.tests.test_fourier ndimage.tests.test_measurements ndimage.tests.test_splines
signal.tests.test_savitzky_golay signal.tests.test_upfirdn signal.tests.test_windows
signal.tests.test_bsplines signal.tests.test_splines signal.tests.test_cont2discrete
signal.tests.test_short_time_fft
""".split()

PLUGIN = """
import sys

import dispatch.compat

# the one alias: scipy's vendored array-api-compat is dispatch's face
sys.modules["scipy._lib.array_api_compat"] = dispatch.compat
"""


def run(
    face: str, modules: list[str], backends: list[str], out: Path, timeout: int
) -> dict[str, str]:
    """One pytest process; per test id its outcome."""
    xml = out / f"{face}.xml"
    env = dict(
        os.environ,
        SCIPY_ARRAY_API=str(backends).replace("'", '"'),
        PYTHONWARNINGS="ignore",
        TF_CPP_MIN_LOG_LEVEL="3",
    )
    paths = [str(REPO)]
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-rN",
        "--tb=no",
        "-p",
        "no:xdist",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "-m",
        "array_api_backends",
        f"--junitxml={xml}",
    ]
    if face == "dispatch":
        (out / "dispatch_compat_swap.py").write_text(PLUGIN)
        paths.append(str(out))
        cmd += ["-p", "dispatch_compat_swap"]
    env["PYTHONPATH"] = os.pathsep.join([*paths, env.get("PYTHONPATH", "")])
    cmd += ["--pyargs", *(f"scipy.{m}" for m in modules)]
    start = time.monotonic()
    done = subprocess.run(cmd, cwd=out, env=env, capture_output=True, text=True, timeout=timeout)
    tail = done.stdout.strip().splitlines()[-1:] or done.stderr.strip().splitlines()[-3:]
    print(f"{face}: {' '.join(tail)} ({time.monotonic() - start:.0f} s)", flush=True)
    return outcomes(xml)


def outcomes(xml: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    if not xml.exists():
        return found
    for case in ET.parse(xml).iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        kinds = {child.tag for child in case}
        if "failure" in kinds or "error" in kinds:
            found[name] = "failed"
        elif "skipped" in kinds:
            found[name] = "skipped"
        else:
            found[name] = "passed"
    return found


def backend_of(test: str, backends: list[str]) -> str | None:
    params = test.rpartition("[")[2]
    for b in backends:
        if b in params.replace("]", "").split("-"):
            return b
    return None


def report(native: dict[str, str], face: dict[str, str], backends: list[str]) -> None:
    print(f"\n{'backend':<8} {'native passes':>14} {'kept':>6} {'lost':>5} {'kept %':>8}")
    lost_all = []
    for b in backends:
        passed = [t for t, o in native.items() if o == "passed" and backend_of(t, backends) == b]
        lost = [t for t in passed if face.get(t) != "passed"]
        kept = len(passed) - len(lost)
        share = 100.0 * kept / len(passed) if passed else float("nan")
        print(f"{b:<8} {len(passed):>14} {kept:>6} {len(lost):>5} {share:>7.2f}%")
        lost_all += lost
    gained = [t for t, o in face.items() if o == "passed" and native.get(t) != "passed"]
    print(f"passing with the face only: {len(gained)}")
    if lost_all:
        print("\nlost with the face:")
        for t in sorted(lost_all):
            print(f"  {t} ({face.get(t, 'missing')})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--modules",
        nargs="+",
        default=MODULES,
        help="test modules under scipy. (default: the list above)",
    )
    parser.add_argument("--backends", nargs="+", default=["numpy", "torch"])
    parser.add_argument("--face", choices=["both", "native", "dispatch"], default="both")
    parser.add_argument("--keep", type=Path, help="folder for the junit files")
    parser.add_argument("--timeout", type=int, default=3600)
    args = parser.parse_args()
    modules = [m.removeprefix("scipy.") for m in args.modules]
    out = args.keep or Path(tempfile.mkdtemp(prefix="scipy-array-api-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"{len(modules)} modules, backends {args.backends}, junit files in {out}")
    compare(args.face, out, args.backends, lambda f: run(f, modules, args.backends, out,
                                                         args.timeout))


def compare(face: str, out: Path, backends: list[str], run_one: Any) -> None:
    """Run the faces asked (``both``: native, then dispatch) and report the comparison;
    a dispatch run alone compares with the native run kept in ``out``."""
    faces = ["native", "dispatch"] if face == "both" else [face]
    found = {f: run_one(f) for f in faces}
    if faces == ["dispatch"] and (out / "native.xml").exists():
        found["native"] = outcomes(out / "native.xml")  # the native run kept in --keep
    if len(found) == 2:
        report(found["native"], found["dispatch"], backends)


if __name__ == "__main__":
    main()
