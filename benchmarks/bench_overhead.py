"""Per-call overhead of ``dispatch.do`` and its peers on tiny arrays, steadily.

Measures the time per call of

* the direct native call (``np.sum(x)``, ``torch.sum(t)``...),
* the same native function bound to a plain name first (``f = np.sum; f(x)``),
* ``dispatch.do(name, ...)``,
* ``dispatch.autoray.do(name, ...)``, the autoray face (its own cache over the
  engine's entries, with autoray's conventions),
* a function obtained once with ``dispatch.get_lib_fn(backend, name)``,
* ``autoray.do(name, ...)``,
* ``array_api_compat.array_namespace(*arrays).<f>(...)``, the namespace looked up
  on every call as a user of the array API standard does,
* ``phiml.backend.choose_backend(*arrays).<method>(...)``,

for ``sum``, ``add``, ``reshape``, ``transpose``, ``matmul``, ``where`` and
``stack`` on tiny numpy arrays and torch tensors, plus mixed calls where a numpy
array comes first and a torch tensor decides the library.

How the figures hold still from run to run:

* threads are pinned (``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS``,
  ``MKL_NUM_THREADS`` = 1 unless set, ``torch.set_num_threads(1)``);
* the compared paths are interleaved: every round times each statement of a
  case once, in a rotating order, in short blocks (about 0.2 ms, the minimum of
  3), so the methods of one case are timed within a few milliseconds of each
  other; a method's overhead in a round is its time minus the direct call's
  time in the same round, and a run reports the median over its rounds (drift
  and interruptions cancel or fall outside the median);
* the whole measurement is repeated in several fresh processes (5 by default:
  new hash seeds, new memory layout), and the tables give the median over the
  runs with the range ``[min, max]``; the targets are checked on the median and
  on every run.

Methods that raise or return another library's array than the direct call (or
other values) are flagged, not hidden.

Usage::

    python benchmarks/bench_overhead.py              # 5 runs, about 2 minutes
    python benchmarks/bench_overhead.py --quick      # 3 short runs, about 30 seconds
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
import subprocess
import sys
import timeit
import warnings
from dataclasses import dataclass, field
from typing import Any

# numpy and torch are imported later, in the functions: their thread pools are sized
# when they are imported, and the runs (child processes) inherit these
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

OPS = ("sum", "add", "reshape", "transpose", "matmul", "where", "stack")
METHODS = ("direct", "bound", "do", "face", "get_lib_fn", "autoray", "array_api", "phiml")
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
    # paddle.transpose takes the permutation, as numpy's transpose with axes
    "paddle": {op: f"paddle.{op}" for op in OPS},
    "mlx": {op: f"mx.{op}" for op in OPS},
    # autograd's arrays are its boxes, inside a trace: autograd.numpy's functions
    "autograd": {op: f"anp.{op}" for op in OPS},
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
# the target: in the median of the runs do adds at most a third of what autoray adds
# (geomean over the ops), and never more than 0.4 in any run
TARGET_RATIO = 1 / 3
TARGET_RATIO_ANY_RUN = 0.4
LIB_FN_TOLERANCE = 0.05


@dataclass
class Cell:
    """One (case, method) measurement."""

    stmt: str
    status: str = "ok"  # ok | error | wrong (other library or value than direct)
    detail: str = ""
    rounds: list[float] = field(default_factory=list)  # ns per call, one per round
    number: int = 0


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
    if hasattr(a, "_value"):  # an autograd box
        return np.asarray(a._value)
    return np.asarray(a)


def _namespace(lib: str, have: dict[str, bool]) -> dict[str, Any]:
    import numpy as np

    import dispatch
    import dispatch.autoray

    rng = np.random.default_rng(0)
    xn = rng.standard_normal((4, 4))
    yn = rng.standard_normal((4, 4))
    cn = xn > 0
    ns: dict[str, Any] = {
        "np": np,
        "do": dispatch.do,
        "face_do": dispatch.autoray.do,
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
    elif lib == "paddle":
        import paddle

        ns["paddle"] = paddle
        ns.update(x=paddle.to_tensor(xn), y=paddle.to_tensor(yn), c=paddle.to_tensor(cn))
    elif lib == "autograd":
        import autograd.numpy as anp
        from autograd.core import VJPNode
        from autograd.tracer import new_box

        def box(a: Any) -> Any:  # what autograd.grad passes the function it differentiates
            return new_box(a, 0, VJPNode.new_root())

        ns["anp"] = anp
        ns.update(x=box(xn), y=box(yn), c=cn)  # a boolean mask is no box
    elif lib == "mlx":
        import mlx.core as mx

        ns["mx"] = mx
        ns.update(x=mx.array(xn, mx.float64), y=mx.array(yn, mx.float64), c=mx.array(cn))
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
    libs += [lib for lib in ("mlx", "paddle", "autograd") if have.get(lib)]
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
                "face": f"face_do({op!r}, {args})",
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
    """Calls per block for blocks of about ``target_s``: from the fastest of 5 trial
    blocks (one interrupted trial would make the blocks short, and timeit's fixed cost
    per block a bias), and never fewer than 10 calls."""
    timer = timeit.Timer(stmt, globals=ns)
    number = 1
    while True:
        t = min(timer.repeat(5, number))
        if t >= target_s / 5 or number >= 10**7:
            return max(10, int(number * target_s / max(t, 1e-9)))
        number *= 10


def measure(cases: list[Case], rounds: int, repeat: int, target_s: float) -> None:
    """Interleaved timing: each round times every statement of every case once, the
    statements of a case one after another in an order that rotates by round."""
    timers = {}
    for case in cases:
        for cell in case.cells.values():
            if cell.status == "ok":
                cell.number = calibrate(cell.stmt, case.ns, target_s)
                timers[id(cell)] = timeit.Timer(cell.stmt, globals=case.ns)
    for r in range(rounds):
        for case in cases:
            live = [cell for cell in case.cells.values() if cell.status == "ok"]
            k = r % len(live)
            for cell in live[k:] + live[:k]:
                t = min(timers[id(cell)].repeat(repeat, cell.number)) / cell.number
                cell.rounds.append(t * 1e9)


def paired(case: Case, method: str) -> list[float] | None:
    """Per-round overhead of ``method``: its time minus the direct call's time in the
    same round (ns)."""
    cell = case.cells.get(method)
    if cell is None or cell.status != "ok":
        return None
    return [m - d for m, d in zip(cell.rounds, case.cells["direct"].rounds, strict=True)]


def one_run(rounds: int, repeat: int, target_s: float) -> dict[str, Any]:
    """Measure once (in this process); the run's medians over rounds."""
    have = {
        # paddle first: paddle 3.3 crashes when imported after tensorflow (phiml may
        # import it)
        "paddle": _available("paddle"),
        "torch": _available("torch"),
        "autoray": _available("autoray"),
        "array_api": _available("array_api_compat"),
        "phiml": _available("phiml.backend"),
        "mlx": _available("mlx.core"),
        "autograd": _available("autograd"),
    }
    if have["torch"]:
        import torch

        torch.set_num_threads(1)
        if have["phiml"]:  # phiml's torch backend registers itself on import
            _available("phiml.backend.torch")
    cases = build_cases(have)
    for c in cases:
        check(c)
    measure(cases, rounds, repeat, target_s)
    out: dict[str, Any] = {"have": have, "cases": []}
    for c in cases:
        methods = {}
        for m, cell in c.cells.items():
            entry: dict[str, Any] = {"stmt": cell.stmt, "status": cell.status,
                                     "detail": cell.detail}
            if cell.status == "ok":
                entry["ns"] = statistics.median(cell.rounds)
                over = paired(c, m)
                entry["over_ns"] = statistics.median(over) if over else None
                base = c.cells.get("bound")
                if m == "get_lib_fn" and base is not None and base.status == "ok":
                    entry["vs_bound"] = statistics.median(
                        a / b for a, b in zip(cell.rounds, base.rounds, strict=True)
                    )
            methods[m] = entry
        out["cases"].append({"op": c.op, "lib": c.lib, "methods": methods})
    out["ratios"] = {
        lib: geomean_ratio(out["cases"], lib)
        for lib in ("numpy", "torch", "mixed", "mlx", "paddle")
    }
    out["face_ratios"] = {
        f"{lib} vs {den}": geomean_ratio(out["cases"], lib, "face", den)
        for lib in ("numpy", "torch", "mixed")
        for den in ("do", "autoray")
    }
    return out


# ---------------------------------------------------------------- over runs


def geomean_ratio(
    cases: list[dict], lib: str, num: str = "do", den: str = "autoray"
) -> float | None:
    """Geometric mean over ops of overhead(num) / overhead(den) in one run;
    overheads are floored at 1 ns so that noise around zero cannot flip a sign."""
    logs = []
    for c in cases:
        if c["lib"] != lib:
            continue
        a, b = c["methods"].get(num, {}), c["methods"].get(den, {})
        if a.get("status") != "ok" or b.get("status") != "ok":
            continue
        logs.append(math.log(max(a["over_ns"], 1.0) / max(b["over_ns"], 1.0)))
    return math.exp(sum(logs) / len(logs)) if logs else None


def spread(values: list[float]) -> tuple[float, float, float]:
    """(median, min, max)."""
    return statistics.median(values), min(values), max(values)


def _fmt(values: list[float], sign: bool = True, digits: int = 0) -> str:
    med, lo, hi = spread(values)
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    return f"{f.format(med)} [{f.format(lo)}, {f.format(hi)}]"


def table(runs: list[dict]) -> str:
    head = ["op", "library", "direct ns"] + [f"{m} +ns" for m in METHODS[1:]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, c in enumerate(runs[0]["cases"]):
        cases = [r["cases"][i] for r in runs]
        row = [c["op"], c["lib"] if c["lib"] != "mixed" else "numpy+torch",
               _fmt([k["methods"]["direct"]["ns"] for k in cases], sign=False)]
        for m in METHODS[1:]:
            cells = [k["methods"].get(m) for k in cases]
            if cells[0] is None:
                row.append("n/a")
            elif cells[0]["status"] == "error":
                row.append("error¹")
            elif cells[0]["status"] == "wrong":
                row.append("wrong²")
            else:
                row.append(_fmt([k["over_ns"] for k in cells]))
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def notes(run: dict) -> list[str]:
    out = []
    for c in run["cases"]:
        for m, cell in c["methods"].items():
            if cell["status"] != "ok":
                mark = "¹" if cell["status"] == "error" else "²"
                out.append(f"{mark} {c['op']} / {c['lib']} / {m}: {cell['detail']}")
    return out


def summary(runs: list[dict]) -> tuple[list[str], dict[str, Any]]:
    lines, data = [], {}
    for lib in ("numpy", "torch", "mixed", "mlx", "paddle"):
        ratios = [r["ratios"].get(lib) for r in runs]
        if any(v is None for v in ratios):
            if any(c["lib"] == lib for c in runs[0]["cases"]):
                lines.append(f"- {lib}: no op where both do and autoray return the direct "
                             "call's result (see the notes above)")
            continue
        med, lo, hi = spread(ratios)
        label = lib if lib != "mixed" else "numpy+torch (mixed)"
        each = ", ".join(f"{v:.2f}" for v in ratios)
        verdict = ""
        if lib != "mixed":
            ok = med <= TARGET_RATIO and hi <= TARGET_RATIO_ANY_RUN
            verdict = (f" -> target median <= 1/3 and every run <= {TARGET_RATIO_ANY_RUN}: "
                       f"{'MET' if ok else 'MISSED'}")
        lines.append(f"- {label}: geomean overhead(do) / overhead(autoray) = {med:.2f} "
                     f"(median of {len(runs)} runs; runs: {each}){verdict}")
        data[lib] = {"median": med, "min": lo, "max": hi, "runs": ratios}
    for key in runs[0].get("face_ratios", {}):
        vals = [r["face_ratios"][key] for r in runs]
        if any(v is None for v in vals):
            continue
        med, lo, hi = spread(vals)
        lib, den = key.split(" vs ")
        lines.append(f"- {lib}: geomean overhead(face) / overhead({den}) = {med:.2f} "
                     f"[{lo:.2f}, {hi:.2f}] (median [min, max] of {len(runs)} runs)")
        data[f"face/{den}/{lib}"] = {"median": med, "min": lo, "max": hi, "runs": vals}
    fn_rows = []
    for i, c in enumerate(runs[0]["cases"]):
        vals = [r["cases"][i]["methods"].get("get_lib_fn", {}).get("vs_bound") for r in runs]
        if all(v is not None for v in vals):
            fn_rows.append((c["op"], c["lib"], *spread(vals)))
    if fn_rows:
        worst = max(fn_rows, key=lambda r: r[2])
        within = all(r[2] <= 1 + LIB_FN_TOLERANCE for r in fn_rows)
        lines.append(
            f"- get_lib_fn / bound native function (median of runs): worst {worst[2]:.3f} "
            f"[{worst[3]:.3f}, {worst[4]:.3f}] ({worst[0]} on {worst[1]}); within "
            f"{LIB_FN_TOLERANCE:.0%} on every op: {'YES' if within else 'NO'}"
        )
        slow = [f"{op}/{lib} {m:.3f} [{lo:.3f}, {hi:.3f}]" for op, lib, m, lo, hi in fn_rows
                if m > 1 + LIB_FN_TOLERANCE]
        if slow:
            lines.append("  over 5%: " + ", ".join(slow))
        data["get_lib_fn"] = {"worst": worst[2], "within_5pct": within,
                              "rows": {f"{op}/{lib}": m for op, lib, m, *_ in fn_rows}}
    return lines, data


def machine_note() -> list[str]:
    import numpy as np

    lines = [
        f"python {platform.python_version()}, numpy {np.__version__}"
        + "".join(
            f", {m} {_version(m)}"
            for m in ("torch", "autoray", "array_api_compat", "phiml")
            if _version(m)
        ),
        f"{platform.machine()}, {os.cpu_count()} logical cores; load average "
        f"{', '.join(f'{v:.2f}' for v in os.getloadavg())} at the end of the runs",
        "threads: " + ", ".join(f"{k}={os.environ.get(k)}" for k in
                                ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"))
        + ", torch.set_num_threads(1)",
    ]
    return lines


def _version(module: str) -> str | None:
    from importlib import metadata

    dist = {"array_api_compat": "array-api-compat"}.get(module, module)
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 short runs")
    parser.add_argument("--runs", type=int, help="fresh processes to measure in (default 5)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds per run (default 40)")
    parser.add_argument("--json", metavar="PATH", help="save every run's figures here")
    parser.add_argument("--one-run", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    rounds = opts.rounds or (15 if opts.quick else 40)
    repeat, target_s = 3, 0.0002
    if opts.one_run:
        result = one_run(rounds, repeat, target_s)
        # on a line of its own, the last: a library may log to stdout (paddle installs a
        # stdout handler on the root logger, which then shows phiml's start-up INFO line)
        sys.stdout.write("\n" + json.dumps(result) + "\n")
        return 0
    nruns = opts.runs or (3 if opts.quick else 5)
    runs = []
    for i in range(nruns):
        cmd = [sys.executable, __file__, "--one-run", "--rounds", str(rounds)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode:
            sys.stderr.write(done.stderr)
            return done.returncode
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(f"  run {i + 1}/{nruns} done", file=sys.stderr)

    have = runs[0]["have"]
    print("# dispatch overhead benchmark\n")
    for line in machine_note():
        print(f"- {line}")
    print(
        f"- {nruns} runs in fresh processes x {rounds} interleaved rounds x min of {repeat} "
        "blocks of about 0.2 ms; tiny float64 4x4 arrays; 'direct ns' = time of the call "
        "as written with the module (np.sum(x)); '+ns' = a method's time minus the direct "
        "call's time in the same round, median over the rounds of a run; each cell gives "
        "the median over the runs and [min, max] over the runs\n"
    )
    print(table(runs))
    foot = notes(runs[0])
    if foot:
        print()
        for line in foot:
            print(line)
    print("\n## targets\n")
    lines, data = summary(runs)
    for line in lines:
        print(line)
    missing = [k for k, v in have.items() if not v]
    if missing:
        print(f"\n(not installed, columns left out: {', '.join(missing)})")
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"machine": machine_note(), "rounds": rounds, "summary": data,
                       "runs": runs}, f, indent=1)
        print(f"\nsaved {opts.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
