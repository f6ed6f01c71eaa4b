"""Compiled ``do`` code against the same function written with the library, per compiler.

``do`` resolves at trace time, so a compiled function written with ``do`` should run
exactly as fast as the same function written with ``torch``, ``jax.numpy`` or ``tf``
calls: the goal is a ratio of 1.00 within noise. Each workload is written twice
(``do`` and native), compiled by

* ``torch.compile`` (inductor, the default backend; also reported: the operations of
  the graph dynamo captures from each version, and how many guards dynamo checks
  before each call: ``do``'s cache look-ups are guarded, a cost per call of the
  compiled function that does not grow with the arrays),
* ``jax.jit``,
* ``tf.function(jit_compile=True)``,

and the two compiled functions are timed interleaved: every round times a block of
calls of each (about 20 ms, order alternating by round), and the ratio of the round
is do / native. The table gives the median ratio over the rounds with its range
``[min, max]``, and each version's median time per call. Threads are pinned to one
(``OMP_NUM_THREADS`` and friends, ``torch.set_num_threads(1)``).

Workloads (float32): ``mlp``: ``sum(tanh(x @ w) * 2 + b, axis=-1)`` on 64x64;
``chain``: ten elementwise operations and two reductions on 256x256; ``cg``: six
conjugate-gradient iterations written with ``do`` (a user's loop) on a 64x64
symmetric positive definite matrix and 8 right-hand sides.

Usage::

    python benchmarks/bench_compilers.py            # about 2 minutes (compilation included)
    python benchmarks/bench_compilers.py --quick    # fewer rounds
    python benchmarks/bench_compilers.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

# thread pools are sized when numpy, torch, jax and tf are imported: pin them first
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")

import numpy as np  # noqa: E402

from dispatch import do  # noqa: E402

# ---------------------------------------------------------------- workloads with do


def mlp_do(x: Any, w: Any, b: Any) -> Any:
    return do("sum", do("tanh", do("matmul", x, w)) * 2.0 + b, axis=-1)


def chain_do(x: Any, y: Any) -> Any:
    a = do("exp", do("negative", do("square", x)))
    c = do("where", do("greater", x, y), do("sin", a), do("cos", y))
    d = do("sqrt", do("abs", c) + 1.0) * do("tanh", y)
    e = do("maximum", d, do("log1p", do("abs", x)))
    return do("sum", e, axis=0) + do("mean", e, axis=1)


def cg_do(a: Any, y: Any) -> Any:
    x = do("zeros_like", y)
    r = y - do("matmul", x, a)
    p = r
    rr = do("sum", r * r, axis=-1, keepdims=True)
    for _ in range(6):
        q = do("matmul", p, a)
        alpha = rr / do("sum", p * q, axis=-1, keepdims=True)
        x = x + alpha * p
        r = r - alpha * q
        rr_new = do("sum", r * r, axis=-1, keepdims=True)
        p = r + (rr_new / rr) * p
        rr = rr_new
    return x


# ---------------------------------------------------------------- the same, natively


def native(lib: str) -> dict[str, Callable]:
    """The workloads written with ``lib``'s own functions."""
    if lib == "torch":
        import torch as m

        where, maximum, sin, cos, mean = m.where, m.maximum, m.sin, m.cos, m.mean

        def summ(v, axis, keepdims=False):
            return m.sum(v, dim=axis, keepdim=keepdims)

        zeros_like, matmul, square, negative = m.zeros_like, m.matmul, m.square, m.negative
        exp, tanh, sqrt, log1p, absolute = m.exp, m.tanh, m.sqrt, m.log1p, m.abs
    elif lib == "jax":
        import jax.numpy as m

        where, maximum, sin, cos, mean = m.where, m.maximum, m.sin, m.cos, m.mean

        def summ(v, axis, keepdims=False):
            return m.sum(v, axis=axis, keepdims=keepdims)

        zeros_like, matmul, square, negative = m.zeros_like, m.matmul, m.square, m.negative
        exp, tanh, sqrt, log1p, absolute = m.exp, m.tanh, m.sqrt, m.log1p, m.abs
    else:
        import tensorflow as tf

        m = tf.math
        where, maximum, sin, cos = tf.where, m.maximum, m.sin, m.cos

        def mean(v, axis):
            return m.reduce_mean(v, axis=axis)

        def summ(v, axis, keepdims=False):
            return m.reduce_sum(v, axis=axis, keepdims=keepdims)

        zeros_like, matmul, square, negative = tf.zeros_like, tf.linalg.matmul, m.square, m.negative
        exp, tanh, sqrt, log1p, absolute = m.exp, m.tanh, m.sqrt, m.log1p, m.abs

    def mlp(x, w, b):
        return summ(tanh(matmul(x, w)) * 2.0 + b, -1)

    def chain(x, y):
        a = exp(negative(square(x)))
        c = where(x > y, sin(a), cos(y))
        d = sqrt(absolute(c) + 1.0) * tanh(y)
        e = maximum(d, log1p(absolute(x)))
        return summ(e, 0) + mean(e, 1)

    def cg(a, y):
        x = zeros_like(y)
        r = y - matmul(x, a)
        p = r
        rr = summ(r * r, -1, True)
        for _ in range(6):
            q = matmul(p, a)
            alpha = rr / summ(p * q, -1, True)
            x = x + alpha * p
            r = r - alpha * q
            rr_new = summ(r * r, -1, True)
            p = r + (rr_new / rr) * p
            rr = rr_new
        return x

    return {"mlp": mlp, "chain": chain, "cg": cg}


WITH_DO = {"mlp": mlp_do, "chain": chain_do, "cg": cg_do}


def inputs(rng: np.random.Generator) -> dict[str, tuple]:
    f = np.float32
    m = rng.standard_normal((64, 64)).astype(f)
    spd = (m @ m.T / 64 + np.eye(64)).astype(f)
    return {
        "mlp": (rng.standard_normal((64, 64)).astype(f), rng.standard_normal((64, 64)).astype(f),
                rng.standard_normal(64).astype(f)),
        "chain": (rng.standard_normal((256, 256)).astype(f),
                  rng.standard_normal((256, 256)).astype(f)),
        "cg": (spd, rng.standard_normal((8, 64)).astype(f)),
    }


# ---------------------------------------------------------------- compilers


def compiler(lib: str) -> tuple[Callable, Callable, Callable]:
    """(compile, to the library's arrays, wait for a result) for ``lib``."""
    if lib == "torch":
        import torch

        torch.set_num_threads(1)
        return torch.compile, torch.from_numpy, lambda r: r
    if lib == "jax":
        import jax

        return jax.jit, jax.numpy.asarray, lambda r: r.block_until_ready()
    import tensorflow as tf

    return (lambda f: tf.function(f, jit_compile=True)), tf.constant, lambda r: r


def graph_ops(fn: Callable, args: tuple) -> tuple[list[str], int]:
    """The operations of the graphs dynamo captures from ``fn``, and how many graphs
    (1: no graph break) (torch only)."""
    import torch

    ops: list[str] = []
    graphs = [0]

    def backend(gm: Any, example_inputs: Any) -> Callable:
        graphs[0] += 1
        ops.extend(str(n.target) for n in gm.graph.nodes if n.op == "call_function")
        return gm.forward

    torch._dynamo.reset()
    torch.compile(fn, backend=backend)(*args)
    torch._dynamo.reset()
    return ops, graphs[0]


def guards(fn: Callable, args: tuple) -> int:
    """How many guards dynamo checks before each call of ``fn`` compiled (torch only)."""
    import torch

    torch._dynamo.reset()
    n = len(torch._dynamo.explain(fn)(*args).out_guards)
    torch._dynamo.reset()
    return n


def _op(target: str) -> str:
    """``torch.zeros_like`` from ``<built-in method zeros_like of type object at 0x...>``."""
    found = re.search(r"(?:method|function) (\w+)", target)
    return found.group(1) if found else target


def block(fn: Callable, args: tuple, wait: Callable, number: int) -> float:
    t0 = time.perf_counter()
    for _ in range(number):
        out = fn(*args)
    wait(out)
    return (time.perf_counter() - t0) / number


def measure(lib: str, rounds: int, block_s: float) -> list[dict[str, Any]]:
    comp, to_lib, wait = compiler(lib)
    nat = native(lib)
    rows = []
    for name, data in inputs(np.random.default_rng(0)).items():
        args = tuple(to_lib(a) for a in data)
        fns = {"do": comp(WITH_DO[name]), "native": comp(nat[name])}
        t0 = time.perf_counter()
        outs = {k: np.asarray(wait(f(*args))) for k, f in fns.items()}  # compiles
        compile_s = time.perf_counter() - t0
        same = np.allclose(outs["do"], outs["native"], rtol=1e-5, atol=1e-5)
        for f in fns.values():  # warm: a second call (torch may specialise again)
            wait(f(*args))
        once = block(fns["native"], args, wait, 3)
        number = max(1, int(block_s / max(once, 1e-9)))
        times: dict[str, list[float]] = {"do": [], "native": []}
        for r in range(rounds):
            order = ("do", "native") if r % 2 == 0 else ("native", "do")
            for k in order:
                times[k].append(block(fns[k], args, wait, number))
        ratios = [d / n for d, n in zip(times["do"], times["native"], strict=True)]
        row = {
            "lib": lib,
            "workload": name,
            "do_us": statistics.median(times["do"]) * 1e6,
            "native_us": statistics.median(times["native"]) * 1e6,
            "ratio": statistics.median(ratios),
            "ratio_min": min(ratios),
            "ratio_max": max(ratios),
            "same_result": bool(same),
            "compile_s": compile_s,
            "calls_per_block": number,
        }
        if lib == "torch":
            (ops_do, graphs_do), (ops_native, _) = graph_ops(WITH_DO[name], args), graph_ops(
                nat[name], args)
            row["graph_ops"] = (len(ops_do), len(ops_native))
            row["graphs_do"] = graphs_do
            row["guards"] = (guards(WITH_DO[name], args), guards(nat[name], args))
            row["graph_differs"] = sorted(
                {f"{_op(a)} -> {_op(b)}" for a, b in zip(ops_native, ops_do, strict=False)
                 if a != b}
            )
        rows.append(row)
    return rows


NAMES = {"torch": "torch.compile", "jax": "jax.jit", "tensorflow": "tf.function(jit_compile)"}


def report(rows: list[dict], rounds: int) -> str:
    out = [
        f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; threads pinned to 1",
        f"{rounds} interleaved rounds per row; ratio = do / native per round, median "
        "[min, max]; times are the median per call",
        "",
        "| compiler | workload | native us | do us | do / native | same result "
        "| dynamo graph ops, do / native | dynamo guards, do / native |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        graph = "n/a"
        if "graph_ops" in r:
            graph = f"{r['graph_ops'][0]} / {r['graph_ops'][1]}"
            if r["graphs_do"] != 1:
                graph += f" (do: {r['graphs_do']} graphs)"
            if r["graph_differs"]:
                graph += " (native -> do: " + "; ".join(r["graph_differs"]) + ")"
        out.append(
            f"| {NAMES[r['lib']]} | {r['workload']} | {r['native_us']:.1f} | {r['do_us']:.1f} | "
            f"{r['ratio']:.3f} [{r['ratio_min']:.3f}, {r['ratio_max']:.3f}] | "
            f"{'yes' if r['same_result'] else 'NO'} | {graph} | "
            + (f"{r['guards'][0]} / {r['guards'][1]} |" if "guards" in r else "n/a |")
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer rounds")
    ap.add_argument("--rounds", type=int, help="interleaved rounds per row (default 30)")
    ap.add_argument("--libs", default="torch,jax,tensorflow", help="comma-separated")
    ap.add_argument("--json", help="write the rows here")
    opts = ap.parse_args(argv)
    rounds = opts.rounds or (10 if opts.quick else 30)
    rows = []
    for lib in opts.libs.split(","):
        try:
            __import__(lib)
        except ImportError:
            print(f"({lib} is not installed: left out)", file=sys.stderr)
            continue
        if lib == "jax":
            import jax

            jax.config.update("jax_enable_x64", False)
        rows += measure(lib, rounds, 0.02)
        print(f"  {lib} done", file=sys.stderr)
    print(report(rows, rounds))
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
