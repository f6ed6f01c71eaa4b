"""``python -m dispatch``: installed libraries, a demo on each, the coverage matrix.

The libraries listed are the backends that ship a translation table; whether
each is installed is read from the package metadata, without importing it. The
demo and the coverage matrix import a library only when it is installed and
selected.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any

import dispatch
from dispatch import do

# one letter per resolution kind in the compact matrix
CODES = {
    "native": "N",
    "composed": "C",
    "registered": "R",
    "unsupported": "U",
    "missing": ".",
    "error": "E",
}
KINDS = tuple(CODES)


def demo(x: Any) -> dict[str, Any]:
    """The same array-agnostic code, run on every library."""
    s = do("sum", x, axis=0)
    q, r = do("linalg.qr", x)
    do("random.seed", 0, like=x)
    return {
        "sum/norm": s / do("linalg.norm", s),
        "|diag R|": do("abs", do("diagonal", r)),
        "q@r==x": do("allclose", do("matmul", q, r), x, atol=1e-4),
        "normal": do("random.normal", size=(3,), like=x),
    }


# ---------------------------------------------------------------- libraries


def _distributions() -> dict[str, list[str]]:
    try:
        return dict(metadata.packages_distributions())
    except Exception:  # metadata is best effort; find_spec still decides
        return {}


def library_info(backend: str, dists: dict[str, list[str]]) -> tuple[bool, str]:
    """``(installed, version)`` of a backend's library, without importing it."""
    try:
        installed = importlib.util.find_spec(backend) is not None
    except (ImportError, ValueError):
        installed = False
    if not installed:
        return False, "-"
    for dist in dists.get(backend, [backend]):
        try:
            return True, metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return True, "?"


def _short_error(err: BaseException, width: int = 90) -> str:
    text = f"{type(err).__name__}: {err}".splitlines()[0] if str(err) else type(err).__name__
    return text if len(text) <= width else text[: width - 3] + "..."


def _show(value: Any) -> str:
    import numpy as np

    try:
        arr = np.asarray(do("to_numpy", value))
    except Exception:
        arr = np.asarray(value)
    if arr.dtype == bool and arr.ndim == 0:
        return str(bool(arr))
    return np.array2string(arr, precision=3, suppress_small=True, separator=" ")


def run_demo(backends: Sequence[str], out: Callable[[str], None]) -> None:
    import numpy as np

    out("demo: the same function on every library, results shown in numpy")
    for line in inspect.getsource(demo).splitlines()[2:]:
        out("  |" + line[3:])
    x_np = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0], [1.0, 0.0, 1.0]])
    x_np = x_np.astype(np.float32)
    width = max(map(len, backends), default=0)
    for b in backends:
        start = time.perf_counter()
        try:
            x = do("asarray", x_np, like=b)
        except Exception as err:
            out(f"  {b:<{width}}  error: {_short_error(err)}")
            continue
        try:
            results = demo(x)
        except Exception as err:
            # one failing call must not hide the others: rerun step by step
            results = _demo_steps(x, err)
        ms = (time.perf_counter() - start) * 1e3
        parts = []
        for key, val in results.items():
            parts.append(f"{key} {val}" if isinstance(val, str) else f"{key} {_show(val)}")
        out(f"  {b:<{width}}  " + "  ".join(parts) + f"  ({ms:.0f} ms)")


def _demo_steps(x: Any, first: BaseException) -> dict[str, Any]:
    steps: dict[str, Callable[[], Any]] = {
        "sum/norm": lambda: (lambda s: s / do("linalg.norm", s))(do("sum", x, axis=0)),
        "|diag R|": lambda: do("abs", do("diagonal", do("linalg.qr", x)[1])),
        "q@r==x": lambda: do("allclose", do("matmul", *do("linalg.qr", x)), x, atol=1e-4),
        "normal": lambda: (do("random.seed", 0, like=x), do("random.normal", size=(3,), like=x))[1],
    }
    results: dict[str, Any] = {}
    for key, step in steps.items():
        try:
            results[key] = step()
        except Exception as err:
            results[key] = f"error ({_short_error(err, 70)})"
    if all(isinstance(v, str) for v in results.values()):
        results = {"error": _short_error(first)}
    return results


# ---------------------------------------------------------------- coverage


def coverage_matrix(
    names: Sequence[str] | None, backends: Sequence[str]
) -> tuple[list[str], dict[str, dict[str, str]], dict[tuple[str, str], str]]:
    """Rows ``{name: {backend: kind}}`` plus the reasons of unsupported entries.

    A backend whose matrix cannot be built at once is retried name by name, so
    one broken entry shows as ``error`` instead of hiding the whole column.
    """
    rows: dict[str, dict[str, str]] = {}
    reasons: dict[tuple[str, str], str] = {}
    for b in backends:
        try:
            col = dispatch.coverage(names, [b])
        except Exception:
            col = {}
            for n in names or sorted(_all_names()):
                try:
                    col.update(dispatch.coverage([n], [b]))
                except Exception as err:
                    col[n] = {b: "error"}
                    reasons[n, b] = _short_error(err, 120)
        for n, kinds in col.items():
            kind = kinds[b]
            if kind.startswith("unsupported"):
                reasons[n, b] = kind.partition(":")[2].strip()
                kind = "unsupported"
            rows.setdefault(n, {})[b] = kind if kind in CODES else "error"
    return sorted(rows), rows, reasons


def _all_names() -> set[str]:
    from dispatch._resolve import known_names

    return known_names()


def print_coverage(
    order: list[str],
    rows: dict[str, dict[str, str]],
    reasons: dict[tuple[str, str], str],
    backends: Sequence[str],
    markdown: bool,
    out: Callable[[str], None],
) -> None:
    if markdown:
        out("| name | " + " | ".join(backends) + " |")
        out("|---|" + "---|" * len(backends))
        for n in order:
            out(f"| `{n}` | " + " | ".join(rows[n].get(b, "-") for b in backends) + " |")
    else:
        legend = ", ".join(f"{c} {k}" for k, c in CODES.items())
        out(f"coverage ({legend})")
        width = max(map(len, order), default=4)
        cols = [max(len(b), 1) for b in backends]
        out(
            f"  {'name':<{width}}  "
            + " ".join(f"{b:<{w}}" for b, w in zip(backends, cols, strict=True))
        )
        for n in order:
            cells = (
                f"{CODES.get(rows[n].get(b, 'error'), '?'):<{w}}"
                for b, w in zip(backends, cols, strict=True)
            )
            out(f"  {n:<{width}}  " + " ".join(cells).rstrip())
    if reasons:
        out("")
        out("unsupported / errors:")
        for (n, b), why in sorted(reasons.items()):
            out(f"  {n} on {b}: {why}")
    out("")
    out("summary (names per library):")
    if markdown:
        out("")
        out("| library | " + " | ".join(KINDS) + " |")
        out("|---|" + "---|" * len(KINDS))
    width = max(map(len, backends), default=0)
    for b in backends:
        counts = {k: sum(1 for n in order if rows[n].get(b) == k) for k in KINDS}
        if markdown:
            out(f"| {b} | " + " | ".join(str(counts[k]) for k in KINDS) + " |")
        else:
            out(f"  {b:<{width}}  " + "  ".join(f"{k} {counts[k]}" for k in KINDS if counts[k]))


# ---------------------------------------------------------------- main


def _split(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [p.strip() for p in text.split(",") if p.strip()]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m dispatch",
        description=(
            "List the array libraries dispatch knows (installed or not, with versions), "
            "run a short demo through each installed one, and print the coverage matrix: "
            "for every canonical function name and library, whether it resolves natively "
            "(the library or its translation table), through a composed fallback, is "
            "marked unsupported (with the reason), or is missing."
        ),
    )
    parser.add_argument(
        "--backends",
        metavar="A,B",
        help="comma-separated backends to include (default: every installed one)",
    )
    parser.add_argument(
        "--names",
        metavar="A,B",
        help="comma-separated function names for the coverage matrix (default: all known)",
    )
    parser.add_argument("--no-demo", action="store_true", help="skip the demo")
    parser.add_argument("--no-coverage", action="store_true", help="skip the coverage matrix")
    parser.add_argument(
        "--markdown", action="store_true", help="print the coverage matrix as a markdown table"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m dispatch``; returns the exit status."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # tensorflow's start-up chatter
    opts = parse_args(argv)
    out = print
    from dispatch import _registry as reg

    known = reg.known_backends()
    wanted = _split(opts.backends)
    unknown = [b for b in wanted or [] if b not in known]
    # numpy, the reference, first; then the others alphabetically
    selected = sorted(
        (b for b in known if wanted is None or b in wanted), key=lambda b: (b != "numpy", b)
    )

    out(f"dispatch {dispatch.__version__} on Python {platform.python_version()}")
    out("")
    out("libraries:")
    dists = _distributions()
    width = max(map(len, selected), default=0)
    installed = []
    for b in selected:
        ok, version = library_info(b, dists)
        if ok:
            installed.append(b)
            out(f"  {b:<{width}}  {version}")
        else:
            out(f'  {b:<{width}}  not installed (pip install "array-dispatch[{b}]")')
    for b in unknown:
        out(f"  {b}  unknown backend (known: {', '.join(known)})")

    usable = []
    for b in installed:
        try:
            reg.table(b)
        except Exception as err:  # installed but broken, or no GPU driver
            out(f"  {b}: cannot load ({_short_error(err)})")
            continue
        usable.append(b)

    if not opts.no_demo:
        out("")
        run_demo(usable, out)
    if not opts.no_coverage:
        out("")
        order, rows, reasons = coverage_matrix(_split(opts.names), usable)
        print_coverage(order, rows, reasons, usable, opts.markdown, out)
        absent = [b for b in known if reg.has_table(b) and not library_info(b, dists)[0]]
        if absent:
            # scipy's names on numpy need scipy: they are missing, not available
            out("")
            out(
                f"not installed: {', '.join(absent)}; names that need them show as missing "
                '(pip install "array-dispatch[<library>]")'
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
