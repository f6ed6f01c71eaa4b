"""Lazy graphs and linear tracing: dispatch.lazy against autoray.lazy and phiml.

Run with ``python benchmarks/bench_lazy.py [--nodes 10000] [--repeat 5] [--grid 512]``.

1. A 10k-node graph of small elementwise operations (sin, multiply by a
   scalar, add, tanh on a 4-element array), recorded with each library's own
   ``do``: microseconds per node to build it, to compute it, to run the same
   code eagerly on numpy, to build a compiled ``Function`` from it (variables as
   inputs) and to call that function once.
2. ``matrix_from_function`` on a 2-D 5-point Laplacian with zero boundaries,
   written with ``do`` for dispatch and with phiml's API for phiml, against
   building the same matrix directly with ``scipy.sparse`` (``kron`` of 1-D
   second differences).

Every figure is the best of ``--repeat`` runs, libraries interleaved in each
run so that they share the machine's state.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

import numpy as np


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def chain(do: Callable, x: object, n: int) -> object:
    for _ in range(n // 4):
        y = do("sin", x)
        z = y * 0.5
        w = do("add", z, x)
        x = do("tanh", w)
    return x


def graph_figures(name: str, do: Callable, lazy: object, n: int, repeat: int,
                  variable: Callable) -> dict[str, float]:
    x0 = np.random.default_rng(0).random(4)
    out: dict[str, float] = {}
    out["build"] = best(lambda: chain(do, lazy.array(x0), n), repeat)
    graphs = [chain(do, lazy.array(x0), n) for _ in range(repeat)]

    def compute() -> None:
        graphs.pop().compute()

    out["compute"] = best(compute, repeat)
    out["eager"] = best(lambda: chain(do, x0, n), repeat)
    v = variable((4,))
    g = chain(do, v, n)
    fns = []

    def build_fn() -> None:
        fns.append(lazy.Function([v], [g]))

    out["Function build"] = best(build_fn, repeat)
    calls = list(fns)

    def call_fn() -> None:
        calls.pop()([x0])

    out["Function call"] = best(call_fn, min(repeat, len(calls)))
    ref = chain(do, x0, n)
    assert np.allclose(lazy.Function([v], [g])([x0])[0], ref), name
    return {k: t / n * 1e6 for k, t in out.items()}


def laplace_do(x: object) -> object:
    from dispatch import do

    p = do("pad", x, 1)
    return p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * x


def laplace_scipy(n: int) -> object:
    import scipy.sparse as sp

    d = sp.diags_array([np.ones(n - 1), np.full(n, -2.0), np.ones(n - 1)], offsets=[-1, 0, 1])
    eye = sp.eye_array(n)
    return (sp.kron(d, eye) + sp.kron(eye, d)).tocsr()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--grid", type=int, default=512)
    args = ap.parse_args()

    import dispatch
    from dispatch import lazy as dlazy

    rows: dict[str, dict[str, float]] = {}
    ours = lambda: graph_figures(
        "dispatch", dispatch.do, dlazy, args.nodes, args.repeat,
        lambda s: dlazy.Variable(s))
    others: dict[str, Callable[[], dict[str, float]]] = {"dispatch.lazy": ours}
    try:
        import autoray
        from autoray import lazy as alazy

        others["autoray.lazy"] = lambda: graph_figures(
            "autoray", autoray.do, alazy, args.nodes, args.repeat,
            lambda s: alazy.Variable(s, backend="numpy"))
    except ImportError:
        print("autoray is not installed: its column is skipped")
    for _ in range(2):  # interleave: each library measured twice, best kept
        for lib, run in others.items():
            res = run()
            prev = rows.get(lib)
            rows[lib] = res if prev is None else {k: min(prev[k], res[k]) for k in res}

    print(f"\nLazy graph of {args.nodes} nodes (us per node, best of {args.repeat})")
    keys = ["build", "compute", "eager", "Function build", "Function call"]
    print(f"{'':16}" + "".join(f"{k:>16}" for k in [*keys, "compute-eager"]))
    for lib, r in rows.items():
        cells = "".join(f"{r[k]:16.2f}" for k in keys)
        print(f"{lib:16}{cells}{r['compute'] - r['eager']:16.2f}")

    n = args.grid
    xs = np.zeros((n, n))
    m_ours, _ = dlazy.matrix_from_function(laplace_do, xs)
    ref = laplace_scipy(n)
    assert abs(m_ours - ref).max() == 0
    results = {}
    try:
        from phiml import math as pm

        grid = pm.zeros(pm.spatial(x=n, y=n))

        def laplace_phiml(x: object) -> object:
            p = pm.pad(x, {"x": (1, 1), "y": (1, 1)}, 0)
            return (p.x[:-2].y[1:-1] + p.x[2:].y[1:-1] + p.x[1:-1].y[:-2]
                    + p.x[1:-1].y[2:] - 4 * x)

        phiml_run: Callable[[], object] | None = lambda: pm.matrix_from_function(
            laplace_phiml, grid)
        phiml_run()
    except ImportError:
        print("phiml is not installed: its row is skipped")
        phiml_run = None
    for _ in range(2):
        t = best(lambda: dlazy.matrix_from_function(laplace_do, xs), args.repeat)
        results["dispatch.lazy.matrix_from_function"] = min(
            t, results.get("dispatch.lazy.matrix_from_function", t))
        if phiml_run is not None:
            t = best(phiml_run, args.repeat)
            results["phiml matrix_from_function"] = min(
                t, results.get("phiml matrix_from_function", t))
        t = best(lambda: laplace_scipy(n), args.repeat)
        results["scipy.sparse direct (kron)"] = min(t, results.get("scipy.sparse direct (kron)", t))
    print(f"\n2-D 5-point Laplacian on a {n}x{n} grid (seconds, best of {args.repeat})")
    base = results["scipy.sparse direct (kron)"]
    for k, t in results.items():
        print(f"{k:38}{t:10.4f}   {t / base:5.2f}x scipy")


if __name__ == "__main__":
    main()
