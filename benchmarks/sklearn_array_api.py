"""scikit-learn's own array-API tests with its vendored array-api-compat swapped for
``dispatch.compat``.

scikit-learn vendors array-api-compat as ``sklearn.externals.array_api_compat`` (and
array-api-extra, which reaches it through ``sklearn.externals._array_api_compat_vendor``).
This script runs the array-API tests of the installed scikit-learn twice, each in its
own pytest process with the same flags: natively, then with that one import made
``dispatch.compat`` before scikit-learn loads (the plugin below). It prints, per
namespace the tests run on (numpy, array-api-strict, torch), the tests that pass
natively, how many still pass with the face, and the ones lost::

    python benchmarks/sklearn_array_api.py                      # every array-API test
    python benchmarks/sklearn_array_api.py --select "array_api and metrics"
    python benchmarks/sklearn_array_api.py --face dispatch --keep /tmp/out

The command each run makes is the one scikit-learn documents for its array-API tests:
``SCIPY_ARRAY_API=1 python -m pytest --pyargs sklearn -k array_api`` (without xdist:
the machine is shared), from a scratch folder so that no project configuration
applies. scikit-learn is not a dependency of this project: install it in the
environment that runs this script (``pip install scikit-learn``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scipy_array_api import REPO, compare, outcomes  # the same comparison

PLUGIN = """
import sys

import dispatch.compat

# the one alias: scikit-learn's vendored array-api-compat is dispatch's face
sys.modules["sklearn.externals.array_api_compat"] = dispatch.compat
"""


def run(face: str, select: str, out: Path, timeout: int) -> dict[str, str]:
    """One pytest process; per test id its outcome."""
    xml = out / f"{face}.xml"
    env = dict(os.environ, SCIPY_ARRAY_API="1", PYTHONWARNINGS="ignore")
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    paths = [str(REPO)]
    cmd = [sys.executable, "-m", "pytest", "-q", "-rN", "--tb=no", "-p", "no:xdist"]
    cmd += ["-p", "no:cacheprovider", "-p", "no:randomly", f"--junitxml={xml}"]
    if face == "dispatch":
        (out / "dispatch_compat_swap.py").write_text(PLUGIN)
        paths.append(str(out))
        cmd += ["-p", "dispatch_compat_swap"]
    env["PYTHONPATH"] = os.pathsep.join([*paths, env.get("PYTHONPATH", "")])
    cmd += ["-k", select, "--pyargs", "sklearn"]
    start = time.monotonic()
    done = subprocess.run(cmd, cwd=out, env=env, capture_output=True, text=True, timeout=timeout)
    tail = done.stdout.strip().splitlines()[-1:] or done.stderr.strip().splitlines()[-3:]
    print(f"{face}: {' '.join(tail)} ({time.monotonic() - start:.0f} s)", flush=True)
    return outcomes(xml)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--select", default="array_api", help="pytest -k expression")
    parser.add_argument("--backends", nargs="+", default=["numpy", "array_api_strict", "torch"])
    parser.add_argument("--face", choices=["both", "native", "dispatch"], default="both")
    parser.add_argument("--keep", type=Path, help="folder for the junit files")
    parser.add_argument("--timeout", type=int, default=7200)
    args = parser.parse_args()
    out = args.keep or Path(tempfile.mkdtemp(prefix="sklearn-array-api-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"-k {args.select!r}, namespaces {args.backends}, junit files in {out}")
    compare(args.face, out, args.backends, lambda f: run(f, args.select, out, args.timeout))


if __name__ == "__main__":
    main()
