"""Backend-method kernels: dispatch vs the best native way vs phiml, in one run.

Rows, each on numpy and torch, float64:

* ``scatter-add`` / ``scatter-max``: 1e6 updates into 1e5 bins, in the method
  list's layout (base (1, 1e5, 1), indices (1, 1e6, 1), values (1, 1e6, 1));
* ``bincount``: 1e6 values into 1e5 bins with weights (``bincount_fixed``);
* ``gather``: 1e6 indices into 1e5 values (``gather``);
* ``cg``: conjugate gradients on the 2-D Poisson matrix of a 256x256 grid
  (sparse: scipy CSR / torch sparse CSR), one right-hand side, rtol 1e-5.

Columns: the best native way found for the call (the fastest of a few
candidates by median, named), ``dispatch.do`` as the tables resolve it, and
phiml's backend method (and ``do +kernels``, ``do`` with the native kernels of
``translations/_composed`` registered, only while a table does not name them).

How the figures hold still: threads are pinned (1 unless ``--threads`` says
otherwise: ``OMP_NUM_THREADS`` and friends, ``torch.set_num_threads``); every
round times each method of a row once (a block of calls, about 50 ms), one after
another, so the methods of a row are timed seconds apart at most; a method's ratio in a round
is its time over the best native way's time in the same round, and the table
gives the median over the rounds with its range ``[min, max]``. Every result is
checked against the native result (and CG solutions by their true residual in
float64); a mismatch is flagged.

Usage::

    python benchmarks/bench_methods.py                 # a few minutes
    python benchmarks/bench_methods.py --quick         # smaller, about 30 s
    python benchmarks/bench_methods.py --threads 2 --json out.json

``--threads N`` sizes torch's and the BLAS thread pools (default 1: on a shared
machine, spinning threads distort the comparison).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

# BLAS thread pools are sized at import: set them before numpy (1 unless --threads N)
_n = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv else "1"
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = _n

import numpy as np  # noqa: E402

from dispatch import do, register_function, supports, unregister_function  # noqa: E402

warnings.filterwarnings("ignore")


def timed(fn: Callable[[], Any], number: int) -> float:
    """Seconds per call of ``fn`` over a block of ``number`` calls."""
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number


# ---------------------------------------------------------------- problems


def poisson_2d(n: int):
    import scipy.sparse as sp

    lap = sp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1])
    eye = sp.identity(n)
    return (sp.kron(lap, eye) + sp.kron(eye, lap)).tocsr().astype(np.float64)


def problems(quick: bool, rng: np.random.Generator) -> dict[str, Any]:
    n_up, bins = (100_000, 10_000) if quick else (1_000_000, 100_000)
    grid = 64 if quick else 256
    return {
        "idx": rng.integers(0, bins, n_up),
        "vals": rng.random(n_up),
        "base": rng.random(bins),
        "bins": bins,
        "A": poisson_2d(grid),
        "y": rng.random(grid * grid),
    }


# ---------------------------------------------------------------- kernels per library


def numpy_calls(p: dict) -> dict[str, dict[str, Callable]]:
    import scipy.sparse.linalg as spla
    from phiml.backend import NUMPY

    idx, vals, base, bins, A, y = (p[k] for k in ("idx", "vals", "base", "bins", "A", "y"))
    i3, v3, b3 = idx[None, :, None], vals[None, :, None], base[None, :, None]

    def add_at():
        out = base.copy()
        np.add.at(out, idx, vals)
        return out

    def max_at():
        out = base.copy()
        np.maximum.at(out, idx, vals)
        return out

    def scipy_cg():
        return spla.cg(A, y, rtol=1e-5, maxiter=10_000)[0]

    ph_args = (np.array([1e-5]), np.array([0.0]), np.array([[10_000]]), None, None)
    return {
        "scatter-add": {
            "native: base + bincount": lambda: base + np.bincount(idx, vals, minlength=bins),
            "native: add.at on a copy": add_at,
            "do": lambda: do("scatter", b3, i3, v3, "add"),
            "phiml": lambda: NUMPY.scatter(b3, i3, v3, mode="add"),
        },
        "scatter-max": {
            "native: maximum.at on a copy": max_at,
            "do": lambda: do("scatter", b3, i3, v3, "max"),
            "phiml": lambda: NUMPY.scatter(b3, i3, v3, mode="max"),
        },
        "bincount": {
            "native: bincount": lambda: np.bincount(idx, vals, minlength=bins),
            "do": lambda: do("bincount_fixed", idx, vals, bins),
            "phiml": lambda: NUMPY.bincount(idx, vals, bins),
        },
        "gather": {
            "native: fancy index": lambda: base[idx],
            "native: take": lambda: np.take(base, idx),
            "do": lambda: do("gather", base, idx, 0),
            "phiml": lambda: NUMPY.gather(base, idx, 0),
        },
        "cg": {
            "native: scipy cg": scipy_cg,
            "do": lambda: do("linear_solve", "CG", A, y[None], rtol=1e-5, max_iter=10_000).x[0],
            "phiml": lambda: NUMPY.conjugate_gradient(A, y[None], 0 * y[None], *ph_args).x[0],
        },
    }


def torch_calls(p: dict) -> dict[str, dict[str, Callable]]:
    import torch
    from phiml.backend.torch import TORCH

    t = lambda a: torch.as_tensor(a)
    idx, vals, base, bins = t(p["idx"]), t(p["vals"]), t(p["base"]), p["bins"]
    A = p["A"]
    At = torch.sparse_csr_tensor(t(A.indptr), t(A.indices), t(A.data), A.shape)
    y = t(p["y"])
    i3, v3, b3 = idx[None, :, None], vals[None, :, None], base[None, :, None]

    def plain_cg():
        # the loop a torch user writes: sparse mv, in-place updates, .item() check
        x = torch.zeros_like(y)
        r = y.clone()
        d = r.clone()
        rr = torch.dot(r, r)
        tol = 1e-10 * rr.item()  # (rtol |y|)^2 with x0 = 0
        for _ in range(10_000):
            if rr.item() <= tol:
                break
            q = torch.mv(At, d)
            alpha = rr / torch.dot(d, q)
            x.add_(alpha * d)
            r.sub_(alpha * q)
            rr_new = torch.dot(r, r)
            d.mul_(rr_new / rr).add_(r)
            rr = rr_new
        return x

    ph_args = (t(np.array([1e-5])), t(np.array([0.0])), np.array([[10_000]]), None, None)
    return {
        "scatter-add": {
            "native: scatter_add": lambda: base.clone().scatter_add_(0, idx, vals),
            "native: index_add": lambda: base.index_add(0, idx, vals),
            "native: index_put accumulate": lambda: base.index_put((idx,), vals, accumulate=True),
            "do": lambda: do("scatter", b3, i3, v3, "add"),
            "phiml": lambda: TORCH.scatter(b3, i3, v3, mode="add"),
        },
        "scatter-max": {
            "native: scatter_reduce amax": lambda: base.scatter_reduce(0, idx, vals, "amax"),
            "do": lambda: do("scatter", b3, i3, v3, "max"),
            "phiml": lambda: TORCH.scatter(b3, i3, v3, mode="max"),
        },
        "bincount": {
            "native: bincount": lambda: torch.bincount(idx, vals, minlength=bins),
            "native: index_add into zeros": lambda: torch.zeros(bins, dtype=vals.dtype).index_add_(
                0, idx, vals),
            "native: scatter_add into zeros": lambda: torch.zeros(
                bins, dtype=vals.dtype).scatter_add_(0, idx, vals),
            "do": lambda: do("bincount_fixed", idx, vals, bins),
            "phiml": lambda: TORCH.bincount(idx, vals, bins),
        },
        "gather": {
            "native: fancy index": lambda: base[idx],
            "native: index_select": lambda: torch.index_select(base, 0, idx),
            "do": lambda: do("gather", base, idx, 0),
            "phiml": lambda: TORCH.gather(base, idx, 0),
        },
        "cg": {
            "native: plain loop, torch.mv": plain_cg,
            "do": lambda: do("linear_solve", "CG", At, y[None], rtol=1e-5, max_iter=10_000).x[0],
            "phiml": lambda: TORCH.conjugate_gradient(At, y[None], 0 * y[None], *ph_args).x[0],
        },
    }


# ---------------------------------------------------------------- kernels not yet in tables

KERNELS = {  # name -> (module, private function suffix)
    "scatter_1d_scalar": "indexing",
    "bincount_fixed": "statistics",
}


def missing_kernels(backend: str) -> dict[str, Callable]:
    """The private native kernels whose names the backend's table lacks."""
    import importlib

    table = importlib.import_module(f"dispatch.translations.{backend}").TABLE
    found = {}
    for name, module in KERNELS.items():
        mod = importlib.import_module(f"dispatch.translations._composed.{module}")
        fn = getattr(mod, f"_{name}_{backend}", None)
        if name not in table and fn is not None:
            found[name] = fn
    return found


def timed_with(kernels: dict[str, Callable], lib: str, fn: Callable, number: int):
    """(time, result) of ``fn`` with ``kernels`` registered on ``lib``."""
    for name, k in kernels.items():
        register_function(lib, name, k)
    try:
        return timed(fn, number), fn()
    finally:
        for name in kernels:
            unregister_function(lib, name)


# ---------------------------------------------------------------- run


def as_numpy(x: Any) -> np.ndarray:
    return np.asarray(do("to_numpy", x)).reshape(-1)


def run(quick: bool, rounds: int) -> dict:
    from phiml.backend import set_global_precision

    set_global_precision(64)  # phiml would cast float64 inputs to float32 otherwise
    rng = np.random.default_rng(0)
    p = problems(quick, rng)
    out: dict[str, Any] = {}
    for lib, calls_of in (("numpy", numpy_calls), ("torch", torch_calls)):
        calls = calls_of(p)
        kernels = missing_kernels(lib)
        out[lib] = {}
        for row, methods in calls.items():
            names = [*methods, *(["do +kernels"] if kernels else [])]
            times: dict[str, list[float]] = {m: [] for m in names}
            results: dict[str, Any] = {}
            for m, fn in methods.items():  # warm-up (and the results to check)
                results[m] = fn()
            # blocks of about 50 ms per method (one call at least), from the faster of
            # two trial calls
            number = {m: max(1, int(0.05 / min(timed(fn, 1), timed(fn, 1))))
                      for m, fn in methods.items()}
            number["do +kernels"] = number["do"]
            for r in range(rounds):  # interleaved: a round times every method once
                k = r % len(names)
                for m in names[k:] + names[:k]:
                    if m == "do +kernels":
                        t, res = timed_with(kernels, lib, methods["do"], number[m])
                        results.setdefault(m, res)
                    else:
                        t = timed(methods[m], number[m])
                    times[m].append(t)
            natives = {m: statistics.median(v) for m, v in times.items() if m.startswith("native")}
            best_name = min(natives, key=natives.get)
            best = times[best_name]
            ref = as_numpy(results[best_name])
            entry = {"native": best_name, "native_s": natives[best_name], "methods": {},
                     "kernels_registered": sorted(kernels), "rounds": rounds,
                     "native_spread": [min(best), max(best)]}
            for m in names:
                if m.startswith("native"):
                    continue
                got = as_numpy(results[m])
                if row == "cg":
                    res = np.linalg.norm(p["y"] - p["A"] @ got) / np.linalg.norm(p["y"])
                    ok, note = res < 2e-5, f"true residual {res:.1e}"
                else:
                    ok = got.shape == ref.shape and np.allclose(got, ref, rtol=1e-9, atol=1e-12)
                    note = ""
                ratios = [a / b for a, b in zip(times[m], best, strict=True)]
                entry["methods"][m] = {
                    "s": statistics.median(times[m]), "ratio": statistics.median(ratios),
                    "ratio_min": min(ratios), "ratio_max": max(ratios), "ok": bool(ok),
                    "note": note,
                }
            out[lib][row] = entry
    return out


def report(results: dict, threads: int) -> str:
    methods = ["do", *(["do +kernels"] if any(
        e["kernels_registered"] for rows in results.values() for e in rows.values()) else []),
        "phiml"]
    rounds = next(iter(next(iter(results.values())).values()))["rounds"]
    lines = [
        f"python {platform.python_version()}, numpy {np.__version__}, threads {threads} "
        f"(torch and BLAS), {platform.machine()}, load average {os.getloadavg()[0]:.2f}",
        f"{rounds} interleaved rounds; times are medians over the rounds; a ratio is the "
        "median over the rounds of the method's time / the best native way's time in the "
        "same round, [min, max] over the rounds",
        "",
        "| library | row | best native | " + " | ".join(methods) + " | best native way / notes |",
        "|---|---|---|" + "---|" * len(methods) + "---|",
    ]
    for lib, rows in results.items():
        for row, e in rows.items():
            cells = []
            notes = [e["native"].removeprefix("native: ")]
            for m in methods:
                d = e["methods"][m]
                flag = "" if d["ok"] else " (differs!)"
                cells.append(f"{d['s'] * 1e3:.2f} ms, {d['ratio']:.2f}x "
                             f"[{d['ratio_min']:.2f}, {d['ratio_max']:.2f}]{flag}")
                if d["note"]:
                    notes.append(f"{m}: {d['note']}")
            lines.append(
                f"| {lib} | {row} | {e['native_s'] * 1e3:.2f} ms | " + " | ".join(cells)
                + f" | {'; '.join(notes)} |"
            )
    worst = max((e["methods"]["do"]["ratio"], f"{lib} {row}")
                for lib, rows in results.items() for row, e in rows.items())
    lines.append("")
    lines.append(f"worst do row by median: {worst[0]:.2f}x ({worst[1]}); target <= 1.3x: "
                 f"{'MET' if worst[0] <= 1.3 else 'MISSED'}")
    for lib, rows in results.items():
        reg = sorted({n for e in rows.values() for n in e["kernels_registered"]})
        if reg:
            lines.append(f"{lib}: 'do +kernels' registered {', '.join(reg)} (not yet in the table)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller problems, fewer rounds")
    ap.add_argument("--rounds", type=int, default=None, help="rounds per row (default 15)")
    ap.add_argument("--threads", type=int, default=1, help="torch and BLAS threads (1)")
    ap.add_argument("--json", default=None, help="write the raw results here")
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    rounds = args.rounds or (5 if args.quick else 15)
    results = run(args.quick, rounds)
    print(report(results, args.threads))
    print(f"supports('scatter', 'torch') = {supports('scatter', 'torch')!r}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
