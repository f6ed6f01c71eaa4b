"""Per-call overhead of ``dispatch.do`` and its peers on tiny arrays.

Measures, in one run and in the same process, the time per call of

* the direct native call (``np.sum(x)``, ``torch.sum(t)``...),
* ``dispatch.do(name, ...)``,
* a function obtained once with ``dispatch.get_lib_fn(backend, name)``,
* ``autoray.do(name, ...)``,
* ``array_api_compat.array_namespace(*arrays).<f>(...)``, the namespace looked up
  on every call as a user of the array API standard does,
* ``phiml.backend.choose_backend(*arrays).<method>(...)``,

for ``sum``, ``add``, ``reshape``, ``transpose``, ``matmul``, ``where`` and
``stack`` on tiny numpy arrays and torch tensors, plus mixed calls where a numpy
array comes first and a torch tensor decides the library.

Each timing is ``min(timeit.repeat(...)) / number`` (warm caches: every
statement runs before it is timed); the statements are timed round-robin over
several rounds and the report gives the minimum over the rounds and, as a
noise check, the median of the per-round minima. "Overhead" is a method's time
minus the direct call's time. Methods that raise or return another library's
array than the direct call (or other values) are flagged, not hidden.

Usage::

    python benchmarks/bench_overhead.py            # full run (about 1.5 minutes)
    python benchmarks/bench_overhead.py --quick    # short run (about 15 seconds)
    python benchmarks/bench_overhead.py --json results.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import platform
import statistics
import sys
import timeit
import warnings
from dataclasses import dataclass, field
from typing import Any

OPS = ("sum", "add", "reshape", "transpose", "matmul", "where", "stack")
METHODS = ("direct", "bound", "do", "get_lib_fn", "autoray", "array_api", "phiml")
# the arguments of each op, as source text; x, y are arrays, c a boolean array
ARGS = {
    "sum": "x",
    "add": "x, y",
    "reshape": "x, (16,)",
    "transpose": "x, (1, 0)",
    "matmul": "x, y",
    "where": "c, x, y",
    "stack": "[x, y]",
}
# which arrays the array API / phiml user passes to pick the namespace
ARRAYS = {
    "sum": "x",
    "add": "x, y",
    "reshape": "x",
    "transpose": "x",
    "matmul": "x, y",
    "where": "c, x, y",
    "stack": "x, y",
}
# the native spelling of each op with numpy's semantics
NATIVE = {
    "numpy": {op: f"np.{op}" for op in OPS},
    "torch": {**{op: f"torch.{op}" for op in OPS}, "transpose": "torch.permute"},
}
# the array API standard's spelling (transpose with axes is permute_dims)
ARRAY_API_NAME = {**{op: op for op in OPS}, "transpose": "permute_dims"}
# phiml's Backend method of each op (phiml has no matmul method)
PHIML_NAME = {**{op: op for op in OPS}, "matmul": None}
# mixed calls: a numpy array first, a torch tensor decides
MIXED = {
    "add": ("x, t", "torch.add(torch.as_tensor(x), t)", "x, t"),
    "matmul": ("x, t", "torch.matmul(torch.as_tensor(x), t)", "x, t"),
    "where": ("c, t, u", "torch.where(torch.as_tensor(c), t, u)", "c, t, u"),
    "stack": ("[x, t]", "torch.stack([torch.as_tensor(x), t])", "x, t"),
}
TARGET_RATIO = 0.4
LIB_FN_TOLERANCE = 0.05


@dataclass
class Cell:
    """One (case, method) measurement."""

    stmt: str
    status: str = "ok"  # ok | error | wrong (other library or value than direct)
    detail: str = ""
    rounds: list[float] = field(default_factory=list)  # ns per call, one per round
    number: int = 0

    @property
    def best(self) -> float:
        return min(self.rounds) if self.rounds else math.nan

    @property
    def median(self) -> float:
        return statistics.median(self.rounds) if self.rounds else math.nan


@dataclass
class Case:
    op: str
    lib: str  # numpy | torch | mixed
    ns: dict[str, Any]
    cells: dict[str, Cell]


def _available(module: str) -> bool:
    try:
        importlib.import_module(module)
    except Exception:
        return False
    return True


def _to_numpy(a: Any) -> Any:
    import numpy as np

    if hasattr(a, "detach"):
        return a.detach().cpu().numpy()
    return np.asarray(a)


def _namespace(lib: str, have: dict[str, bool]) -> dict[str, Any]:
    import numpy as np

    import dispatch

    rng = np.random.default_rng(0)
    xn = rng.standard_normal((4, 4))
    yn = rng.standard_normal((4, 4))
    cn = xn > 0
    ns: dict[str, Any] = {
        "np": np,
        "do": dispatch.do,
        "get_lib_fn": dispatch.get_lib_fn,
    }
    if have["autoray"]:
        import autoray

        ns["ar_do"] = autoray.do
    if have["array_api"]:
        import array_api_compat

        ns["array_namespace"] = array_api_compat.array_namespace
    if have["phiml"]:
        import phiml.backend

        ns["choose_backend"] = phiml.backend.choose_backend
    if lib == "numpy":
        ns.update(x=xn, y=yn, c=cn)
    else:
        import torch

        ns["torch"] = torch
        if lib == "torch":
            ns.update(x=torch.as_tensor(xn), y=torch.as_tensor(yn), c=torch.as_tensor(cn))
        else:  # mixed: numpy constants, torch tensors decide
            ns.update(
                x=xn, c=cn, t=torch.as_tensor(yn), u=torch.as_tensor(rng.standard_normal((4, 4)))
            )
    return ns


def build_cases(have: dict[str, bool]) -> list[Case]:
    import dispatch

    cases = []
    libs = ["numpy"] + (["torch", "mixed"] if have["torch"] else [])
    for lib in libs:
        ops = OPS if lib != "mixed" else tuple(MIXED)
        for op in ops:
            ns = _namespace(lib, have)
            if lib == "mixed":
                args, direct, arrays = MIXED[op]
            else:
                args, arrays = ARGS[op], ARRAYS[op]
                direct = f"{NATIVE[lib][op]}({args})"
            stmts: dict[str, str | None] = {
                "direct": direct,
                # the same native function bound once to a plain name: the fair
                # baseline for get_lib_fn, which also skips the module attribute lookup
                "bound": None if lib == "mixed" else f"nat({args})",
                "do": f"do({op!r}, {args})",
                # get_lib_fn skips inference and conversion: not a mixed-call tool
                "get_lib_fn": None if lib == "mixed" else f"fn({args})",
                "autoray": f"ar_do({op!r}, {args})" if have["autoray"] else None,
                "array_api": (
                    f"array_namespace({arrays}).{ARRAY_API_NAME[op]}({args})"
                    if have["array_api"]
                    else None
                ),
                "phiml": (
                    f"choose_backend({arrays}).{PHIML_NAME[op]}({args})"
                    if have["phiml"] and PHIML_NAME[op]
                    else None
                ),
            }
            if lib != "mixed":
                ns["nat"] = eval(NATIVE[lib][op], ns)
                try:
                    ns["fn"] = dispatch.get_lib_fn(lib, op)
                except Exception as err:
                    ns["fn_error"] = err
            cells = {m: Cell(s) for m, s in stmts.items() if s is not None}
            cases.append(Case(op, lib, ns, cells))
    return cases


def check(case: Case) -> None:
    """Run every statement once (warming caches) and compare with the direct call."""
    import numpy as np

    ref = eval(case.cells["direct"].stmt, case.ns)
    for name, cell in case.cells.items():
        if name == "get_lib_fn" and "fn_error" in case.ns:
            err = case.ns["fn_error"]
            cell.status, cell.detail = "error", f"{type(err).__name__}: {err}"
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = eval(cell.stmt, case.ns)
        except Exception as err:
            msg = f"{type(err).__name__}: {err}".splitlines()[0].split(" [<")[0]
            cell.status, cell.detail = "error", msg if len(msg) < 120 else msg[:117] + "..."
            continue
        if type(out) is not type(ref):
            cell.status, cell.detail = (
                "wrong",
                f"returns {type(out).__module__}.{type(out).__name__}",
            )
            continue
        try:
            same = np.allclose(_to_numpy(out), _to_numpy(ref))
        except Exception:
            same = False
        if not same:
            cell.status, cell.detail = "wrong", "values differ from the direct call"


def calibrate(stmt: str, ns: dict[str, Any], target_s: float) -> int:
    timer = timeit.Timer(stmt, globals=ns)
    number = 1
    while True:
        t = timer.timeit(number)
        if t >= target_s / 5 or number >= 10**7:
            return max(1, int(number * target_s / max(t, 1e-9)))
        number *= 10


def measure(cases: list[Case], rounds: int, repeat: int, target_s: float) -> None:
    live = [(c, cell) for c in cases for cell in c.cells.values() if cell.status == "ok"]
    for case, cell in live:
        cell.number = calibrate(cell.stmt, case.ns, target_s)
    for r in range(rounds):
        for case, cell in live:
            timer = timeit.Timer(cell.stmt, globals=case.ns)
            cell.rounds.append(min(timer.repeat(repeat, cell.number)) / cell.number * 1e9)
        print(f"  round {r + 1}/{rounds} done", file=sys.stderr)


def overhead(case: Case, method: str, stat: str = "best") -> float | None:
    cell = case.cells.get(method)
    if cell is None or cell.status != "ok":
        return None
    return getattr(cell, stat) - getattr(case.cells["direct"], stat)


def geomean_ratio(cases: list[Case], lib: str, stat: str = "best") -> tuple[float | None, int]:
    """Geometric mean over ops of overhead(do) / overhead(autoray); overheads
    are floored at 1 ns so that noise around zero cannot flip a sign."""
    logs = []
    for c in cases:
        if c.lib != lib:
            continue
        a, b = overhead(c, "do", stat), overhead(c, "autoray", stat)
        if a is None or b is None:
            continue
        logs.append(math.log(max(a, 1.0) / max(b, 1.0)))
    if not logs:
        return None, 0
    return math.exp(sum(logs) / len(logs)), len(logs)


def lib_fn_ratios(cases: list[Case], stat: str = "best") -> list[tuple[str, str, float]]:
    """get_lib_fn time / time of the native function bound to a name."""
    out = []
    for c in cases:
        cell, base = c.cells.get("get_lib_fn"), c.cells.get("bound")
        if cell is not None and cell.status == "ok" and base is not None and base.status == "ok":
            out.append((c.op, c.lib, getattr(cell, stat) / getattr(base, stat)))
    return out


def _fmt_cell(case: Case, method: str, stat: str) -> str:
    cell = case.cells.get(method)
    if cell is None:
        return "n/a"
    if cell.status == "error":
        return "error¹"
    ov = overhead(case, method, stat) if cell.status == "ok" else None
    if cell.status == "wrong":
        return "wrong²"
    return f"{ov:+.0f}"


def table(cases: list[Case], stat: str = "best") -> str:
    head = ["op", "library", "direct ns"] + [f"{m} +ns" for m in METHODS[1:]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in cases:
        row = [
            c.op,
            c.lib if c.lib != "mixed" else "numpy+torch",
            f"{getattr(c.cells['direct'], stat):.0f}",
        ]
        row += [_fmt_cell(c, m, stat) for m in METHODS[1:]]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def notes(cases: list[Case]) -> list[str]:
    out = []
    for c in cases:
        for m, cell in c.cells.items():
            if cell.status != "ok":
                mark = "¹" if cell.status == "error" else "²"
                out.append(f"{mark} {c.op} / {c.lib} / {m}: {cell.detail}")
    return out


def machine_note() -> list[str]:
    import numpy as np

    lines = [
        f"python {platform.python_version()}, numpy {np.__version__}"
        + "".join(
            f", {m} {_version(m)}"
            for m in ("torch", "autoray", "array_api_compat", "phiml")
            if _version(m)
        ),
        f"{platform.machine()}, {os.cpu_count()} logical cores ({platform.processor() or 'cpu'}); "
        "timings are from this machine, which other jobs may share: compare columns "
        "within one run, not across machines.",
    ]
    env = {
        k: v
        for k, v in os.environ.items()
        if k.startswith("OPENBLAS") or k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")
    }
    if env:
        lines.append(
            "environment: "
            + ", ".join(f"{k}={v}" for k, v in sorted(env.items()))
            + " (BLAS settings affect the direct matmul time)"
        )
    else:
        lines.append("environment: no OPENBLAS_*/OMP_NUM_THREADS/MKL_NUM_THREADS variables set")
    return lines


def _version(module: str) -> str | None:
    from importlib import metadata

    dist = {"array_api_compat": "array-api-compat"}.get(module, module)
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def summary(cases: list[Case]) -> tuple[list[str], dict[str, Any]]:
    lines, data = [], {}
    for lib in ("numpy", "torch", "mixed"):
        if not any(c.lib == lib for c in cases):
            continue
        best, n = geomean_ratio(cases, lib, "best")
        med, _ = geomean_ratio(cases, lib, "median")
        label = lib if lib != "mixed" else "numpy+torch (mixed)"
        if best is None:
            lines.append(
                f"- {label}: no op where both do and autoray return the direct call's "
                "result (see the notes above)"
            )
            continue
        target = (
            ""
            if lib == "mixed"
            else (f" -> target <= {TARGET_RATIO}: {'MET' if best <= TARGET_RATIO else 'MISSED'}")
        )
        lines.append(
            f"- {label}: geomean overhead(do) / overhead(autoray) = {best:.2f} "
            f"(median-of-mins {med:.2f}) over {n} ops{target}"
        )
        data[lib] = {"ratio_best": best, "ratio_median": med, "ops": n}
    ratios = lib_fn_ratios(cases, "best")
    if ratios:
        worst = max(ratios, key=lambda r: r[2])
        within = all(r[2] <= 1 + LIB_FN_TOLERANCE for r in ratios)
        lines.append(
            f"- get_lib_fn / direct (native function bound to a name, like get_lib_fn's "
            f"result): worst {worst[2]:.3f} ({worst[0]} on {worst[1]}); within "
            f"{LIB_FN_TOLERANCE:.0%} of direct on every op: {'YES' if within else 'NO'}"
        )
        slow = [f"{op}/{lib} {r:.2f}" for op, lib, r in ratios if r > 1 + LIB_FN_TOLERANCE]
        if slow:
            lines.append("  over 5%: " + ", ".join(slow))
        data["get_lib_fn"] = {"worst": worst[2], "within_5pct": within}
    return lines, data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short run (fewer, shorter loops)")
    parser.add_argument("--json", metavar="PATH", help="save every timing to this JSON file")
    parser.add_argument(
        "--rounds", type=int, help="rounds of round-robin timing (default 7, quick 3)"
    )
    opts = parser.parse_args(argv)
    rounds = opts.rounds or (3 if opts.quick else 7)
    # short loops, many repeats: on a shared machine the minimum then comes from
    # loops that no other process interrupted
    repeat = 7 if opts.quick else 25
    target_s = 0.001 if opts.quick else 0.002

    have = {
        "torch": _available("torch"),
        "autoray": _available("autoray"),
        "array_api": _available("array_api_compat"),
        "phiml": _available("phiml.backend"),
    }
    if have["phiml"] and have["torch"]:
        # phiml's torch backend registers itself when its module is imported
        have["phiml"] = _available("phiml.backend.torch") or have["phiml"]
    cases = build_cases(have)
    for c in cases:
        check(c)
    measure(cases, rounds, repeat, target_s)

    print("# dispatch overhead benchmark\n")
    for line in machine_note():
        print(f"- {line}")
    print(
        f"- {rounds} rounds x min of {repeat} timeit repeats; tiny float64 4x4 arrays; "
        "'+ns' = method time minus direct time (ns per call); direct = the call as "
        "written with the module (np.sum(x)), bound = the same function bound to a name "
        "first (f(x))\n"
    )
    print("## minimum over rounds\n")
    print(table(cases, "best"))
    print("\n## median of per-round minima (noise check)\n")
    print(table(cases, "median"))
    foot = notes(cases)
    if foot:
        print()
        for line in foot:
            print(line)
    print("\n## targets\n")
    lines, data = summary(cases)
    for line in lines:
        print(line)
    missing = [k for k, v in have.items() if not v]
    if missing:
        print(f"\n(not installed, columns left out: {', '.join(missing)})")
    if opts.json:
        out = {
            "machine": machine_note(),
            "rounds": rounds,
            "repeat": repeat,
            "summary": data,
            "cases": [
                {
                    "op": c.op,
                    "lib": c.lib,
                    "methods": {
                        m: {
                            "stmt": cell.stmt,
                            "status": cell.status,
                            "detail": cell.detail,
                            "ns_rounds": cell.rounds,
                            "ns_min": cell.best if cell.rounds else None,
                            "ns_median": cell.median if cell.rounds else None,
                            "number": cell.number,
                        }
                        for m, cell in c.cells.items()
                    },
                }
                for c in cases
            ],
        }
        with open(opts.json, "w") as f:
            json.dump(out, f, indent=1)
        print(f"\nsaved {opts.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
