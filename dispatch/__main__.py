"""``python -m dispatch``: installed libraries, a demo on each, the coverage summary.

By default the output fits a screen: the libraries dispatch ships a table for
(with their versions, read from the package metadata without importing them),
one short array-agnostic function run on every installed library, and per
library how many names it provides natively, through a composed fallback, or
marks unsupported. ``--full`` prints the whole name-by-library matrix with the
reasons of the unsupported entries; ``--names A,B`` prints it for chosen names.
An unknown ``--backends`` or ``--names`` value exits with status 2 and a
suggestion, as ``do`` does for an unknown name.
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
from dispatch._errors import suggest

# one letter per resolution kind in the matrix
CODES = {
    "native": "N",
    "composed": "C",
    "registered": "R",
    "unsupported": "U",
    "missing": ".",
    "error": "E",
}
KINDS = tuple(CODES)


def demo(x):
    """The same array-agnostic code, run on every library."""
    s = do("sum", x, axis=0)
    return {
        "sum": s,
        "norm": do("linalg.norm", x),
        "solve(x, sum)": do("linalg.solve", x, s),  # x is symmetric: all ones
    }


# the demo's steps one by one: a failing call must not hide the others
_STEPS: dict[str, Callable[[Any], Any]] = {
    "sum": lambda x: do("sum", x, axis=0),
    "norm": lambda x: do("linalg.norm", x),
    "solve(x, sum)": lambda x: do("linalg.solve", x, do("sum", x, axis=0)),
}
# a symmetric matrix: the solution of x @ y = sum(x, axis=0) is all ones
DEMO_INPUT = [[4, 1, 0], [1, 3, 1], [0, 1, 2]]


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


def label(backend: str) -> str:
    """The name a backend's arrays go by: its table's one class-module prefix when
    that is a submodule of the backend (``a.sub`` for backend ``a``), else the name.

    A backend named after a library whose arrays live in one of its submodules
    (its table's ``TYPES``) is shown under that submodule's name, so that a column
    does not read as the whole library.
    """
    from dispatch import _registry as reg

    try:
        mod = reg.table(backend)
    except Exception:
        return backend
    types = tuple(getattr(mod, "TYPES", ()))
    if len(types) == 1 and isinstance(types[0], str) and types[0].startswith(backend + "."):
        return types[0]
    return backend


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


def _type_name(value: Any) -> str:
    t = type(value)
    return f"{t.__module__.split('.')[0]}.{t.__qualname__}"


def run_demo(backends: Sequence[str], labels: dict[str, str], out: Callable[[str], None]) -> None:
    import numpy as np

    out(f"demo: one function written with do(), run in each library on x = {DEMO_INPUT}")
    for line in inspect.getsource(demo).splitlines():
        if '"""' not in line:
            out("  | " + line)
    x_np = np.array(DEMO_INPUT, dtype=np.float32)
    width = max((len(labels[b]) for b in backends), default=0)
    for b in backends:
        start = time.perf_counter()
        try:
            x = do("asarray", x_np, like=b)
        except Exception as err:
            out(f"  {labels[b]:<{width}}  error: {_short_error(err)}")
            continue
        try:
            results = demo(x)
        except Exception:
            results = {}
            for key, step in _STEPS.items():
                try:
                    results[key] = step(x)
                except Exception as err:
                    results[key] = f"error ({_short_error(err, 70)})"
        ms = (time.perf_counter() - start) * 1e3
        parts = [f"{k} {v if isinstance(v, str) else _show(v)}" for k, v in results.items()]
        last = results.get("solve(x, sum)")
        kind = "" if last is None or isinstance(last, str) else f"{_type_name(last)}, "
        out(f"  {labels[b]:<{width}}  " + "  ".join(parts) + f"  ({kind}{ms:.0f} ms)")


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
    if names is not None:
        for n in names:
            rows.setdefault(n, {})
    return (list(names) if names is not None else sorted(rows)), rows, reasons


def _all_names() -> set[str]:
    from dispatch._resolve import known_names

    return known_names()


def _counts(order: list[str], rows: dict[str, dict[str, str]], b: str) -> dict[str, int]:
    return {k: sum(1 for n in order if rows[n].get(b) == k) for k in KINDS}


def print_summary(
    order: list[str],
    rows: dict[str, dict[str, str]],
    backends: Sequence[str],
    labels: dict[str, str],
    markdown: bool,
    out: Callable[[str], None],
) -> None:
    """Names per library and resolution kind; kinds no library has are left out."""
    counts = {b: _counts(order, rows, b) for b in backends}
    kinds = [k for k in KINDS if any(counts[b][k] for b in backends)] or ["native"]
    if markdown:
        out("| library | " + " | ".join(kinds) + " |")
        out("|---|" + "---|" * len(kinds))
        for b in backends:
            out(f"| {labels[b]} | " + " | ".join(str(counts[b][k]) for k in kinds) + " |")
        return
    width = max([len("library"), *(len(labels[b]) for b in backends)])
    out(f"  {'library':<{width}}  " + "  ".join(f"{k:>{max(len(k), 5)}}" for k in kinds))
    for b in backends:
        out(
            f"  {labels[b]:<{width}}  "
            + "  ".join(f"{counts[b][k]:>{max(len(k), 5)}}" for k in kinds)
        )


def print_matrix(
    order: list[str],
    rows: dict[str, dict[str, str]],
    reasons: dict[tuple[str, str], str],
    backends: Sequence[str],
    labels: dict[str, str],
    markdown: bool,
    out: Callable[[str], None],
) -> None:
    """Every name by every library, then the reasons of unsupported entries."""
    heads = [labels[b] for b in backends]
    if markdown:
        out("| name | " + " | ".join(heads) + " |")
        out("|---|" + "---|" * len(backends))
        for n in order:
            out(f"| `{n}` | " + " | ".join(rows[n].get(b, "-") for b in backends) + " |")
    else:
        legend = ", ".join(f"{c} {k}" for k, c in CODES.items())
        out(f"coverage ({legend})")
        width = max(map(len, order), default=4)
        cols = [max(len(h), 1) for h in heads]
        head = " ".join(f"{h:<{w}}" for h, w in zip(heads, cols, strict=True))
        out(f"  {'name':<{width}}  {head}")
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
            out(f"  {n} on {labels[b]}: {why}")


# ---------------------------------------------------------------- main


def _split(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [p.strip() for p in text.split(",") if p.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m dispatch",
        description=(
            "List the array libraries dispatch knows (installed or not, with versions), "
            "run a short demo through each installed one, and print how many function "
            "names each provides natively (the library or its translation table), "
            "through a composed fallback, or marks unsupported (with the reason). "
            "--full prints the whole matrix of names by libraries."
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
        help="comma-separated function names: print the matrix for these names only",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="print the matrix of every known name by library, with the reasons of "
        "unsupported entries (hundreds of lines)",
    )
    parser.add_argument("--no-demo", action="store_true", help="skip the demo")
    parser.add_argument("--no-coverage", action="store_true", help="skip the coverage")
    parser.add_argument(
        "--markdown", action="store_true", help="print the coverage tables as markdown"
    )
    return parser


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    return build_parser().parse_args(argv)


def _backend_of(value: str, known: list[str]) -> str | None:
    """The backend a ``--backends`` value names: a backend name or its :func:`label`."""
    if value in known:
        return value
    for b in known:
        if value.startswith(b + ".") and label(b) == value:
            return b
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m dispatch``; returns the exit status.

    An unknown backend or function name exits with status 2 (argparse's usage
    error) and a "did you mean" suggestion.
    """
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # a library's start-up chatter
    parser = build_parser()
    opts = parser.parse_args(argv)
    out = print
    from dispatch import _registry as reg

    known = reg.known_backends()
    wanted = _split(opts.backends)
    chosen: list[str] = []
    for value in wanted or []:
        b = _backend_of(value, known)
        if b is None:
            parser.error(
                f"unknown backend {value!r}.{suggest(value, known)} "
                f"Known backends: {', '.join(known)}."
            )
        chosen.append(b)
    # numpy, the reference, first; then the others alphabetically
    selected = sorted(
        (b for b in known if wanted is None or b in chosen), key=lambda b: (b != "numpy", b)
    )

    dists = _distributions()
    info = {b: library_info(b, dists) for b in selected}
    installed = [b for b in selected if info[b][0]]
    usable, broken = [], {}
    for b in installed:
        try:
            reg.table(b)
        except Exception as err:  # installed but broken, or no GPU driver
            broken[b] = _short_error(err)
            continue
        usable.append(b)
    labels = {b: label(b) if b in usable else b for b in selected}

    names = _split(opts.names)
    if names is not None and not opts.no_coverage:
        pool = _all_names()
        for n in names:
            if n in pool or any(dispatch.supports(n, b) for b in usable):
                continue
            parser.error(f"unknown function name {n!r}.{suggest(n, pool)}")

    out(f"dispatch {dispatch.__version__} on Python {platform.python_version()}")
    out("")
    out(f"libraries ({len(installed)} of {len(selected)} installed):")
    width = max((len(labels[b]) for b in selected), default=0)
    for b in sorted(selected, key=lambda b: b not in installed):
        if b in broken:
            out(f"  {labels[b]:<{width}}  {info[b][1]}  cannot load ({broken[b]})")
        elif b in usable:
            note = f"  (backend {b!r})" if labels[b] != b else ""
            out(f"  {labels[b]:<{width}}  {info[b][1]}{note}")
        else:
            out(f'  {labels[b]:<{width}}  not installed: pip install "array-dispatch[{b}]"')

    if not opts.no_demo:
        out("")
        run_demo(usable, labels, out)
    if opts.no_coverage:
        return 0
    out("")
    order, rows, reasons = coverage_matrix(names, usable)
    if names is not None or opts.full:
        print_matrix(order, rows, reasons, usable, labels, opts.markdown, out)
        out("")
    scope = "the chosen names" if names is not None else f"the {len(order)} known names"
    out(f"names per library, out of {scope}:")
    print_summary(order, rows, usable, labels, opts.markdown, out)
    if names is None and not opts.full:
        out("")
        out("--full: every name by library, with the reasons of unsupported entries; "
            "--names A,B: chosen names")
    absent = [b for b in selected if reg.has_table(b) and b not in installed]
    if absent and (names is not None or opts.full):
        # a name that needs a library that is not installed is missing, not available
        out("")
        out(
            f"not installed: {', '.join(absent)}; names that need them show as missing "
            '(pip install "array-dispatch[<library>]")'
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
