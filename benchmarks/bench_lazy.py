"""Lazy graphs and linear tracing: dispatch.lazy against autoray.lazy and phiml.

Run with ``python benchmarks/bench_lazy.py [--nodes 10000] [--repeat 5] [--runs 5]``.

1. A 10k-node graph of small elementwise operations (sin, multiply by a
   scalar, add, tanh on a 4-element array), recorded with each library's own
   ``do``: microseconds per node to build it, to compute it, to run the same
   code eagerly on numpy, to build a compiled ``Function`` from it (variables as
   inputs) and to call that function once. ``compute-eager`` is what computing
   a graph adds to running the same calls eagerly.
2. ``matrix_from_function`` on a 2-D 5-point Laplacian with zero boundaries,
   written with ``do`` for dispatch and with phiml's API for phiml, against
   building the same matrix directly with ``scipy.sparse`` (``kron`` of 1-D
   second differences).
3. With ``--autojit``: the first and second call of ``lazy.autojit`` on torch
   tensors, each in a fresh process: torch.compile with inductor on an empty
   on-disk compile cache (inductor then also probes the CPU's instruction sets, a
   dozen C++ builds), on a cache filled by another function (the probes done, this
   function's kernel still to build) and on a cache filled by this very function;
   torch.compile with ``aot_eager`` (no code generation), torch.jit.trace.

How the figures are made steady
-------------------------------
Each library runs in its own worker process (its own heap and caches; BLAS and
OpenMP pinned to one thread; the Laplacian in processes apart from the graphs),
and the workers are driven in turn, figure by figure, so that every library
meets the same machine state: one *run* measures every figure of every library
once, the order of the libraries rotating from run to run. Within a run a
figure is the best of ``--repeat`` timings, in CPU time of the worker process
(time spent waiting for a CPU on a shared machine is not counted), taken with
the cyclic garbage collector paused (as ``timeit`` does); ``compute`` and
``eager`` alternate timing by timing, and ``compute-eager`` is their difference
within the run. The tables give the median over ``--runs`` runs and, in
brackets, the lowest and highest run: a figure whose bracket is narrow held
still. The load average of the machine is printed before and after.

``--baseline PATH`` adds a worker running the ``dispatch`` found in PATH (another
checkout), so that before and after are measured in the same run.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

# CPU time of the process: time spent waiting for a CPU on a loaded machine is not counted
CLOCK = time.process_time
THREADS = {v: "1" for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                            "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")}


# ---------------------------------------------------------------- timing (in workers)


def best(fn: Callable[..., object], repeat: int,
         setup: Callable[[], object] | None = None) -> float:
    """The least of ``repeat`` timings of ``fn()`` (or ``fn(setup())``, setup untimed),
    in CPU seconds of this process, the garbage collector paused."""
    times = []
    for _ in range(repeat):
        arg = setup() if setup is not None else None
        gc.collect()
        gc.disable()
        try:
            t = CLOCK()
            fn() if setup is None else fn(arg)
            times.append(CLOCK() - t)
        finally:
            gc.enable()
    return min(times)


def chain(do: Callable, x: object, n: int) -> object:
    for _ in range(n // 4):
        y = do("sin", x)
        z = y * 0.5
        w = do("add", z, x)
        x = do("tanh", w)
    return x


class GraphWorker:
    """The graph figures of one library (dispatch or autoray)."""

    def __init__(self, kind: str, n: int, repeat: int):
        import numpy as np

        if kind == "autoray":
            import autoray
            from autoray import lazy

            self.do, self.lazy = autoray.do, lazy
            self.variable = lambda s: lazy.Variable(s, backend="numpy")
        else:
            import dispatch
            from dispatch import lazy

            self.do, self.lazy = dispatch.do, lazy
            self.variable = lazy.Variable
        self.np, self.n, self.repeat = np, n, repeat
        self.x0 = np.random.default_rng(0).random(4)
        v = self.variable((4,))
        self.v, self.g = v, chain(self.do, v, n)
        ref = chain(self.do, self.x0, n)
        assert np.allclose(lazy.Function([v], [self.g])([self.x0])[0], ref), kind
        assert np.allclose(chain(self.do, lazy.array(self.x0), n).compute(), ref), kind

    def per_node(self, t: float) -> float:
        return t / self.n * 1e6

    def build(self) -> dict[str, float]:
        lazy, x0 = self.lazy, self.x0
        return {"build": self.per_node(best(lambda: chain(self.do, lazy.array(x0), self.n),
                                            self.repeat))}

    def compute(self) -> dict[str, float]:
        """eager and compute, alternating timing by timing."""
        lazy, x0, do, n = self.lazy, self.x0, self.do, self.n
        eager, comp = [], []
        for _ in range(self.repeat):
            eager.append(best(lambda: chain(do, x0, n), 1))
            comp.append(best(lambda g: g.compute(), 1, lambda: chain(do, lazy.array(x0), n)))
        e, c = self.per_node(min(eager)), self.per_node(min(comp))
        return {"eager": e, "compute": c, "compute-eager": c - e}

    def function(self) -> dict[str, float]:
        lazy, v, g, x0 = self.lazy, self.v, self.g, self.x0
        fns: list = []
        build = best(lambda: fns.append(lazy.Function([v], [g])), self.repeat)
        call = best(lambda f: f([x0]), self.repeat, fns.pop)
        return {"Function build": self.per_node(build), "Function call": self.per_node(call)}


class LaplaceWorker:
    """The 2-D Laplacian's matrix, by tracing (dispatch, phiml) or built directly (scipy)."""

    def __init__(self, kind: str, grid: int, repeat: int):
        import numpy as np

        self.repeat = repeat
        n = grid
        if kind == "scipy":
            self.run = lambda: laplace_scipy(n)
        elif kind == "phiml":
            from phiml import math as pm

            g = pm.zeros(pm.spatial(x=n, y=n))

            def laplace_phiml(x: Any) -> Any:
                p = pm.pad(x, {"x": (1, 1), "y": (1, 1)}, 0)
                return (p.x[:-2].y[1:-1] + p.x[2:].y[1:-1] + p.x[1:-1].y[:-2]
                        + p.x[1:-1].y[2:] - 4 * x)

            self.run = lambda: pm.matrix_from_function(laplace_phiml, g)
        else:
            from dispatch import lazy

            xs = np.zeros((n, n))
            self.run = lambda: lazy.matrix_from_function(laplace_do, xs)
            m, _ = self.run()
            assert abs(m - laplace_scipy(n)).max() == 0
        self.run()

    def laplace(self) -> dict[str, float]:
        return {"laplace": best(self.run, self.repeat)}


def laplace_do(x: object) -> object:
    from dispatch import do

    p = do("pad", x, 1)
    return p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * x


def laplace_scipy(n: int) -> object:
    import numpy as np
    import scipy.sparse as sp

    d = sp.diags_array([np.ones(n - 1), np.full(n, -2.0), np.ones(n - 1)], offsets=[-1, 0, 1])
    eye = sp.eye_array(n)
    return (sp.kron(d, eye) + sp.kron(eye, d)).tocsr()


def worker_main(kind: str, args: argparse.Namespace) -> None:
    """Answer figure requests on stdin with JSON lines on stdout."""
    graph = lap = None
    try:
        if kind in ("dispatch", "autoray"):
            graph = GraphWorker(kind, args.nodes, args.repeat)
        if kind in ("dispatch-laplace", "phiml", "scipy"):
            lap = LaplaceWorker(kind, args.grid, args.repeat)
        where = sys.modules["dispatch"].__file__ if "dispatch" in sys.modules else None
        print(json.dumps({"ready": True, "dispatch": where}), flush=True)
    except ImportError as err:
        print(json.dumps({"ready": False, "error": str(err)}), flush=True)
        return
    for line in sys.stdin:
        fig = line.strip()
        if fig in ("build", "compute", "function") and graph is not None:
            out = getattr(graph, fig)()
        elif fig == "laplace" and lap is not None:
            out = lap.laplace()
        else:
            out = {}
        print(json.dumps(out), flush=True)


# ---------------------------------------------------------------- autojit (fresh processes)

# (row, autojit options, the state of inductor's on-disk compile cache)
AUTOJIT_ROWS = [
    ("torch.compile (inductor), empty cache", "{}", "empty"),
    ("torch.compile (inductor), cache of another fn", "{}", "other"),
    ("torch.compile (inductor), cache of this fn", "{}", "same"),
    ("torch.compile, torch_backend='aot_eager'", "{'torch_backend': 'aot_eager'}", "empty"),
    ("torch.jit.trace, mode='trace'", "{'mode': 'trace'}", "empty"),
]

AUTOJIT_SCRIPT = r"""
import json, sys, time, warnings
t0 = time.perf_counter()
import numpy as np, torch
from dispatch import do, lazy
t1 = time.perf_counter()
C = np.linspace(0.1, 1.0, 9).reshape(3, 3)

def model(x, w):
    scale = do("sum", do("exp", C), axis=0)
    h = do("tanh", do("matmul", x, w) * scale)
    return {"out": h + 1.0, "norm": do("sum", h * h)}

def other(x, w):  # another function: fills inductor's cache with other kernels
    return {"out": do("cos", x) * 3.0, "norm": do("sum", w)}

f = lazy.autojit(MODEL, **OPTIONS)
X = torch.as_tensor(np.random.default_rng(0).random((2, 3)))
W = torch.as_tensor(np.random.default_rng(1).random((3, 3)))
t2 = time.perf_counter()
r = f(X, W)
t3 = time.perf_counter()
r = f(X + 1, W)
t4 = time.perf_counter()
ref = MODEL(X.numpy() + 1, W.numpy())
assert np.allclose(r["out"].numpy(), ref["out"]), "wrong result"
import dispatch
print(json.dumps({"import (s)": t1 - t0, "first call (s)": t3 - t2,
                  "second call (ms)": 1e3 * (t4 - t3), "dispatch": dispatch.__file__}))
"""


def autojit_once(path: str | None, options: str, cache_dir: str,
                 model: str = "model") -> dict[str, float]:
    """autojit's first and second call in a fresh process (wall-clock seconds)."""
    env = {**os.environ, **THREADS, "TORCHINDUCTOR_CACHE_DIR": cache_dir}
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([path, env.get("PYTHONPATH", "")])
    script = AUTOJIT_SCRIPT.replace("OPTIONS", options).replace("MODEL", model)
    # run outside any checkout: ``python -c`` puts the working directory first on sys.path
    with tempfile.TemporaryDirectory(prefix="bench_lazy_cwd_") as cwd:
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                             text=True, timeout=900, check=False, cwd=cwd)
    if out.returncode:
        raise RuntimeError(f"autojit run failed:\n{out.stderr[-3000:]}")
    res = json.loads(out.stdout.strip().splitlines()[-1])
    where = res.pop("dispatch")
    if path is not None and not where.startswith(os.path.abspath(path)):
        raise RuntimeError(f"the run for {path} imported dispatch from {where}")
    return res


# ---------------------------------------------------------------- driver


class Worker:
    def __init__(self, label: str, kind: str, args: argparse.Namespace, path: str | None = None):
        env = {**os.environ, **THREADS}
        if path is not None:
            env["PYTHONPATH"] = os.pathsep.join([path, env.get("PYTHONPATH", "")])
        here = os.path.abspath(__file__)
        cmd = [sys.executable, here, "--worker", kind, "--nodes", str(args.nodes),
               "--repeat", str(args.repeat), "--grid", str(args.grid)]
        self.label = label
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=env, cwd=os.path.dirname(here))
        hello = json.loads(self._read())
        self.ok = hello["ready"]
        self.error = hello.get("error", "")
        where = hello.get("dispatch")
        if path is not None and where and not where.startswith(os.path.abspath(path)):
            raise RuntimeError(f"the worker for {path} imported dispatch from {where}")

    def _read(self) -> str:
        line = self.proc.stdout.readline()  # type: ignore[union-attr]
        if not line:
            raise RuntimeError(f"worker {self.label} ended (see its error above)")
        return line

    def ask(self, fig: str) -> dict[str, float]:
        self.proc.stdin.write(fig + "\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]
        return json.loads(self._read())

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def load() -> str:
    a, b, c = os.getloadavg()
    return f"{a:.2f} {b:.2f} {c:.2f}"


def cell(values: list[float], fmt: str) -> str:
    med = statistics.median(values)
    return f"{med:{fmt}} [{min(values):{fmt}}, {max(values):{fmt}}]"


def table(title: str, rows: dict[str, dict[str, list[float]]], keys: list[str], fmt: str,
          width: int) -> None:
    print(f"\n{title}")
    label = max(len(r) for r in rows) + 2
    print(" " * label + "".join(f"{k:>{width}}" for k in keys))
    for name, figs in rows.items():
        print(f"{name:{label}}" + "".join(
            f"{cell(figs[k], fmt) if figs.get(k) else '-':>{width}}" for k in keys))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5, help="timings per figure in a run (best kept)")
    ap.add_argument("--runs", type=int, default=5, help="runs (the tables give their median)")
    ap.add_argument("--grid", type=int, default=512)
    ap.add_argument("--baseline", metavar="PATH", help="also run the dispatch found in PATH")
    ap.add_argument("--no-laplace", action="store_true", help="skip the Laplacian matrix")
    ap.add_argument("--no-graph", action="store_true",
                    help="skip the graph and Laplacian figures (with --autojit)")
    ap.add_argument("--autojit", action="store_true", help="also time autojit's first torch call")
    ap.add_argument("--autojit-runs", type=int, default=3)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker_main(args.worker, args)
        return

    if args.no_graph:
        print(f"load average (1, 5, 15 min) at start: {load()}; {os.cpu_count()} CPUs")
        if args.autojit:
            autojit(args)
        return
    print(f"load average (1, 5, 15 min) at start: {load()}; {os.cpu_count()} CPUs, "
          f"{args.runs} runs, best of {args.repeat} per figure and run")
    specs = [("dispatch.lazy", "dispatch", None)]
    if args.baseline:
        specs.append((f"dispatch.lazy @{os.path.basename(args.baseline.rstrip('/'))}", "dispatch",
                      args.baseline))
    specs.append(("autoray.lazy", "autoray", None))
    if not args.no_laplace:
        # the Laplacian in processes of its own: what the graph figures leave in a
        # process's heap changed its time by up to a fifth
        specs += [(label, "dispatch-laplace", path) for label, kind, path in specs
                  if kind == "dispatch"]
        specs += [("phiml", "phiml", None), ("scipy.sparse direct (kron)", "scipy", None)]
    workers = []
    for label, kind, path in specs:
        w = Worker(label, kind, args, path)
        if w.ok:
            workers.append(w)
        else:
            print(f"{label}: not installed ({w.error}): left out")
    figures = ["build", "compute", "function"] + ([] if args.no_laplace else ["laplace"])
    results: dict[str, dict[str, list[float]]] = {w.label: {} for w in workers}
    loads = []
    for run in range(args.runs):
        order = workers[run % len(workers):] + workers[:run % len(workers)]
        for fig in figures:
            for w in order:
                for k, v in w.ask(fig).items():
                    results[w.label].setdefault(k, []).append(v)
        loads.append(load())
    for w in workers:
        w.close()
    print(f"load average after each run: {' | '.join(loads)}")

    keys = ["build", "compute", "eager", "compute-eager", "Function build", "Function call"]
    graph_rows = {k: v for k, v in results.items() if "build" in v}
    table(f"Lazy graph of {args.nodes} nodes (us per node; median of {args.runs} runs "
          f"[lowest, highest run])", graph_rows, keys, ".2f", 22)

    if not args.no_laplace:
        lap = {k: v["laplace"] for k, v in results.items() if "laplace" in v}
        base = lap.get("scipy.sparse direct (kron)")
        print(f"\n2-D 5-point Laplacian on a {args.grid}x{args.grid} grid (seconds; median of "
              f"{args.runs} runs [lowest, highest]; ratio to scipy within each run, median)")
        for k, ts in lap.items():
            ratio = (f"   {statistics.median(t / b for t, b in zip(ts, base, strict=True)):5.2f}x "
                     "scipy" if base else "")
            print(f"{k:38}{cell(ts, '.4f'):>28}{ratio}")

    if args.autojit:
        autojit(args)


def autojit(args: argparse.Namespace) -> None:
    variants = [("dispatch", None)] + ([(f"@{os.path.basename(args.baseline.rstrip('/'))}",
                                         args.baseline)] if args.baseline else [])
    rows: dict[str, dict[str, list[float]]] = {}
    loads = []
    for _ in range(args.autojit_runs):
        for vname, path in variants:
            with tempfile.TemporaryDirectory(prefix="bench_lazy_") as tmp:
                shared = os.path.join(tmp, "shared")
                autojit_once(path, "{}", shared, model="other")  # another fn fills the cache
                for i, (label, options, cache) in enumerate(AUTOJIT_ROWS):
                    cache_dir = shared if cache in ("other", "same") else os.path.join(tmp, str(i))
                    res = autojit_once(path, options, cache_dir)
                    row = rows.setdefault(f"{vname}: {label}", {})
                    for k, v in res.items():
                        row.setdefault(k, []).append(v)
        loads.append(load())
    print(f"\nautojit on torch tensors, a fresh process per row (wall-clock time; median of "
          f"{args.autojit_runs} runs [lowest, highest]); load average after each run: "
          + " | ".join(loads))
    table("", rows, ["import (s)", "first call (s)", "second call (ms)"], ".2f", 30)


if __name__ == "__main__":
    main()
