"""``do`` inside the libraries' compilers: ``torch.compile(fullgraph=True)``, ``jax.jit``,
``tf.function(jit_compile=True)``, and ``jit_compile`` on mlx (``mx.compile``) and
paddle (``paddle.jit.to_static``).

Each row is a function written with ``do`` and the helpers only, exercising many
names of one topic (elementwise, reductions, shapes, indexing with scatter and
gather, linear algebra, a conjugate gradient with a fixed iteration count...). Every
compiled result is compared with the same function run eagerly on numpy arrays (the
reference), and under torch the trace must be one graph with no graph break
(``fullgraph=True`` raises at the first break, and a counting backend sees every
graph), with the dispatch caches empty (cold: every call misses, resolution runs
inside the trace) and full (warm: every call hits).

torch.compile is slow, so there are few rows, each with many names, and torch's
compiler runs with a backend that only captures the graph (dynamo's trace is what
``do`` must survive; inductor's code generation is the library's business).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import assert_close, to_backend, to_np

import dispatch
from dispatch import UnsupportedError, astype, clear_caches, do, infer_backend, ndim, shape, size

COMPILERS = {
    "torch": "torch.compile(fullgraph=True)",
    "jax": "jax.jit",
    "tensorflow": "tf.function(jit_compile=True)",
    "mlx": "mx.compile (jit_compile)",
    "paddle": "paddle.jit.to_static (jit_compile)",
}

rng = np.random.default_rng(14)
X = rng.standard_normal((8, 8)).astype(np.float32)
Y = rng.standard_normal((8, 8)).astype(np.float32)
IDX = np.array([3, 1, 1, 7, 0, 2, 2, 5])
A = rng.standard_normal((8, 8))
B = rng.standard_normal((8, 3))
SPD = 4 * np.eye(8) - np.eye(8, k=1) - np.eye(8, k=-1)
RHS = rng.standard_normal((2, 8))
CONSTANT = np.linspace(0.0, 1.0, 8)


# ---------------------------------------------------------------- the battery


def elementwise(x: Any, y: Any) -> Any:
    a = do("multiply", do("add", x, y), 2.0)
    c = do("exp", do("tanh", a))
    d = do("where", do("greater", x, 0), c, do("negative", y))
    e = do("sqrt", do("abs", do("clip", d, -1.0, 1.0)))
    h = do("maximum", do("power", e, 2), do("sin", x)) + do("log1p", do("square", y))
    i = do("arctan2", x, y) + do("floor", x) + do("sign", y) + do("fmod", x, 1.5)
    j = do("logaddexp", x, y) - do("hypot", x, y) + do("sinh", do("cos", x))
    k = do("logical_and", do("isfinite", x), do("logical_not", do("isnan", y)))
    return h + i + j + astype(k, "float32") + do("real", x) + do("sigmoid", x)


def reductions(x: Any, y: Any) -> Any:
    h = do("abs", x) + 1.0
    s = do("sum", h, axis=0) + do("mean", h, axis=-1) + do("max", h, axis=1)
    s = s - do("min", h, axis=1) + do("prod", do("cos", x[:2]), axis=0)
    s = s + do("std", h, axis=0) + do("var", h, axis=0, ddof=1) + do("amax", h, axis=0)
    s = s + do("cumsum", h, axis=1)[:, -1] + do("cumprod", h / 4, axis=0)[-1]
    s = s + astype(do("argmax", h, axis=1), "float32") + astype(do("argmin", h, axis=0), "float32")
    s = s + astype(do("any", x > 0, axis=0), "float32")
    s = s + astype(do("all", x > -5, axis=1), "float32")
    s = s + do("scipy.special.logsumexp", y, axis=1) + do("linalg.norm", h, axis=1)
    return s + do("sum", h, keepdims=True)[0]


def shapes(x: Any, y: Any) -> Any:
    # the helpers give Python values at trace time
    assert shape(x) == (8, 8)
    assert ndim(x) == 2
    assert infer_backend(x) == infer_backend(y)
    a = do("transpose", do("reshape", x, (4, 16)), (1, 0))
    a = do("swapaxes", do("expand_dims", a, 0), 0, 2)
    a = do("squeeze", do("moveaxis", a, 0, -1), 1)
    parts = [
        do("concatenate", [a, a], axis=0),
        do("stack", [x, y], axis=0),
        do("stack", [x, y]) + do("stack", (y, x)),  # the sequence alone: per-call dispatch
        do("concatenate", [x, y, x]),
        do("tile", x[:2, :2], (2, 3)),
        do("flip", do("roll", x, 2, axis=1), axis=0),
        do("broadcast_to", x[:1], (8, 8)),
        do("triu", x) + do("tril", y, -1) + do("diag", do("diag", x)),
        do("ravel", x)[:8] + do("diagonal", x) + do("trace", x),
        do("split", x, 2, axis=0)[0],
        do("repeat", x[:2], 2, axis=0),
        astype(do("zeros_like", x), "float64"),
    ]
    return [do("sum", p) for p in parts]


def indexing(x: Any, i: Any) -> Any:
    ordered = do("sort", x, axis=1)
    base = do("zeros_like", x)[None, :, :2]
    parts = [
        ordered,
        do("take", x, i, axis=0),
        do("take_along_axis", x, do("argsort", x, axis=1), axis=1),
        do("gather", x[None], i, 1),
        do("scatter", base, i[None, :, None], x[None, :, :2], "add"),
        do("scatter", base, i[None, :, None], x[None, :, :2], "max"),
        astype(do("searchsorted", ordered[0], x[1]), "float32"),
        do("take", do("eye", 8, like=x), i, axis=0),
        do("where", i[:, None] > 2, x, 0.0),
    ]
    return [do("sum", p, axis=-1) for p in parts]


def linalg(a: Any, b: Any) -> Any:
    spd = do("matmul", a, do("transpose", a)) + 8.0 * do("eye", 8, like=a)
    q, r = do("linalg.qr", a)
    w, v = do("linalg.eigh", spd)
    s = do("linalg.svd", a, compute_uv=False)
    return [
        do("linalg.solve", spd, b),
        do("linalg.inv", spd),
        do("abs", do("sum", q * r[0], axis=0)),
        do("linalg.cholesky", spd),
        w,
        do("abs", v[:, 0]),
        s,
        do("einsum", "ij,jk->ik", a, b),
        do("tensordot", a, b, 1),
        do("outer", a[0], b[:, 0]),
        do("linalg.norm", a),
        do("trace", do("linalg.matrix_power", spd, 2)),
    ]


def composed(x: Any, y: Any) -> Any:
    """Composed fallbacks (on one library or another), written once with ``do``."""
    positive = do("abs", x) + 1.0
    return [
        do("divide_no_nan", x, do("where", y > 0, y, 0.0)),
        do("erf", x),
        do("softplus", x),
        do("nanmax", x, axis=1),
        do("nanstd", x, axis=0),
        do("nancumsum", x, axis=1),
        do("ediff1d", x[0]),
        do("linalg.cond", x),
        do("log_gamma", positive),
        do("gamma_inc_l", positive, do("abs", y)),
        do("get_diagonal", x[None, :, :, None], 0),
        do("flatten", x),
        do("matrix_transpose", x),
        astype(do("nanargmax", x, axis=0), "float64"),
        do("choose", astype(x[0] > 0, "int64"), [x[1], y[1]], mode="clip"),
        do("boolean_mask", x, x[:, 0] > 0, axis=0, new_length=8, fill_value=0.0),
        astype(do("nonzero_static", x > 0, length=70), "float64"),
    ]


def composed_dtypes(x: Any, y: Any) -> Any:
    """Composed fallbacks that work out dtypes with numpy."""
    return do("average", x, axis=0, weights=do("abs", y[:, 0]) + 1.0), do(
        "interp", x[0], do("sort", x[1]), y[0]
    )


def determinant(a: Any) -> Any:
    spd = do("matmul", a, do("transpose", a)) + 8.0 * do("eye", 8, like=a)
    return do("linalg.det", spd), do("linalg.slogdet", spd)[1]


def cg_loop(a: Any, y: Any) -> Any:
    """Conjugate gradient written by a user with ``do``, a fixed iteration count."""
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
    return x, do("sqrt", rr[:, 0])


def cg(a: Any, y: Any) -> Any:
    """The composed solver with a fixed iteration count (no tolerance can stop it)."""
    res = do("conjugate_gradient", a, y, rtol=0.0, atol=0.0, max_iter=6)
    return res.x, res.residual, res.iterations


def pad(x: Any) -> Any:
    return do("pad", x, ((1, 1), (0, 2))), do("pad", x, 1, mode="edge")


def size_median(x: Any) -> Any:
    return do("median", x, axis=0) * size(x) + do("quantile", x, 0.25, axis=0)


def mixed(x: Any) -> Any:
    """numpy constants beside the traced arrays are converted to their library."""
    return do("add", CONSTANT, x), do("matmul", x, CONSTANT), do("stack", [CONSTANT, x])


def cond(x: Any, y: Any) -> Any:
    """jax.lax.cond on a traced predicate (torch.cond, tf.cond, lax.cond)."""
    pos = do("cond", do("sum", x) > 0, lambda u, v: u * v + 1.0, lambda u, v: u - v, x, y)
    neg = do("cond", do("sum", x) < -1e9, lambda u, v: u * v + 1.0, lambda u, v: u - v, x, y)
    return pos, neg


def switch(x: Any, y: Any) -> Any:
    """jax.lax.switch on a traced index, clamped (nested torch.cond, tf.switch_case)."""
    branches = [lambda u: u + 1.0, lambda u: u * 2.0, lambda u: -u]
    k = astype(do("sum", x > 0), "int64")  # 0..64: clamped to the last branch
    return do("switch", k, branches, y), do("switch", k - k + 1, branches, y)


def fori_loop(x: Any, y: Any) -> Any:
    return do("fori_loop", 0, 5, lambda i, v: v * 0.5 + y * i, x)


def scan(x: Any, y: Any) -> Any:
    """jax.lax.scan (torch's scan operator, tf.scan), forward and reversed."""
    def step(c: Any, r: Any) -> Any:
        return c * 0.5 + r, do("sum", c * r)

    c1, ys1 = do("scan", step, x[0], y)
    c2, ys2 = do("scan", step, x[0], y, reverse=True)
    return c1, ys1, c2, ys2


def map_and_associative_scan(x: Any, y: Any) -> Any:
    return (do("map", lambda r: do("sum", r * r), x),
            do("associative_scan", lambda a, b: a + b, y, axis=1),
            do("associative_scan", lambda a, b: do("maximum", a, b), x, reverse=True))


ROWS = [
    pytest.param("elementwise", elementwise, (X, Y), id="elementwise"),
    pytest.param("reductions", reductions, (X, Y), id="reductions"),
    pytest.param("shapes", shapes, (X, Y), id="shapes"),
    pytest.param("indexing", indexing, (X, IDX), id="indexing"),
    pytest.param("linalg", linalg, (A, B), id="linalg"),
    pytest.param("composed", composed, (A, B @ B.T), id="composed"),
    pytest.param("composed_dtypes", composed_dtypes, (A, B @ B.T), id="composed_dtypes"),
    pytest.param("determinant", determinant, (A,), id="determinant"),
    pytest.param("cg_loop", cg_loop, (SPD, RHS), id="cg_loop"),
    pytest.param("conjugate_gradient", cg, (SPD, RHS), id="conjugate_gradient"),
    pytest.param("pad", pad, (X,), id="pad"),
    pytest.param("mixed", mixed, (A[0],), id="mixed"),
    pytest.param("size_median", size_median, (X,), id="size_median"),
    pytest.param("cond", cond, (A, B @ B.T), id="cond"),
    pytest.param("switch", switch, (X, Y), id="switch"),
    pytest.param("fori_loop", fori_loop, (A, B @ B.T), id="fori_loop"),
    pytest.param("scan", scan, (A, B @ B.T), id="scan"),
    pytest.param("map_and_associative_scan", map_and_associative_scan, (A, B @ B.T),
                 id="map_and_associative_scan"),
]

# Rows whose names XLA cannot compile on this platform: tensorflow runs them in
# tf.function without jit_compile
NO_XLA = {
    "determinant": "XLA has no MatrixDeterminant kernel on the CPU",
}

# paddle's translator follows every call inside dispatch, seconds per row: these rows
# (control flow, the solver, linear algebra, a sample of the others) run on paddle
PADDLE_ROWS = {"reductions", "indexing", "linalg", "conjugate_gradient", "mixed", "cond",
               "switch", "fori_loop", "scan", "map_and_associative_scan"}

# rows that call a name a library's table refuses (eagerly too): the compiled call
# must raise the table's UnsupportedError, naming the function
REFUSED = {
    ("mlx", "composed"): "gamma_inc_l",
}

# float64 tolerances wider than 1e-9 where a compiler's algorithm is less accurate
LOOSER = {
    ("tensorflow", "linalg"): 1e-7,  # XLA's eigh (Jacobi sweeps): eigenvectors to 1.6e-8
}


# ---------------------------------------------------------------- compiling


class Graphs:
    """A torch.compile backend that counts the graphs dynamo captures and runs each
    as captured (no code generation)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, gm: Any, example_inputs: Any) -> Callable:
        self.count += 1
        return gm.forward


def compile_torch(fn: Callable) -> tuple[Callable, Graphs]:
    import torch

    torch._dynamo.reset()
    graphs = Graphs()
    return torch.compile(fn, fullgraph=True, backend=graphs), graphs


def compiled(backend: str, name: str, fn: Callable) -> Callable:
    """``fn`` compiled by ``backend``'s own compiler (not torch: see compile_torch)."""
    if backend == "jax":
        import jax

        return jax.jit(fn)
    if backend == "mlx":
        return do("jit_compile", fn, like="mlx")
    if backend == "paddle":  # paddle's jit_compile runs a signature's first call eagerly
        run = do("jit_compile", fn, like="paddle")
        return lambda *args: (run(*args), run(*args))[1]
    import tensorflow as tf

    return tf.function(fn, jit_compile=name not in NO_XLA)


def check(result: Any, expected: Any, name: str, backend: str) -> None:
    if not isinstance(expected, (list, tuple)):
        result, expected = [result], [expected]
    assert len(result) == len(expected)
    for r, e in zip(result, expected, strict=True):
        r = to_np(r)
        # a float32 sum's order differs between libraries: loosen by the row's size
        rtol = 1e-4 if r.dtype == np.float32 else LOOSER.get((backend, name), 1e-9)
        assert_close(r, e, dtype="kind", rtol=rtol, atol=rtol, name=name, backend=backend)


@pytest.mark.parametrize(("name", "fn", "inputs"), ROWS)
def test_compiled_matches_numpy(backend: str, name: str, fn: Callable, inputs: tuple) -> None:
    if backend not in COMPILERS:
        pytest.skip(f"{backend} has no compiler that traces Python")
    if backend == "paddle" and name not in PADDLE_ROWS:
        pytest.skip("paddle's translation takes seconds per row: a sample of rows runs")
    expected = to_np(fn(*[np.array(a, copy=True) for a in inputs]))
    args = to_backend(inputs, backend)
    if (backend, name) in REFUSED:
        with pytest.raises(UnsupportedError, match=f"'{REFUSED[backend, name]}' is not supported"):
            compiled(backend, name, fn)(*args)
        return
    if backend != "torch":
        check(compiled(backend, name, fn)(*args), expected, name, backend)
        return
    # cold: every do call misses inside the trace
    clear_caches()
    run, graphs = compile_torch(fn)
    check(run(*args), expected, name, backend)
    check(run(*args), expected, name, backend)  # the trace stored nothing: no new graph
    assert graphs.count == 1, f"{graphs.count} graphs"
    # warm: every do call hits (the eager call fills the caches)
    check(fn(*args), expected, name, backend)
    run, graphs = compile_torch(fn)
    check(run(*args), expected, name, backend)
    check(run(*args), expected, name, backend)
    assert graphs.count == 1, f"{graphs.count} graphs"


def test_torch_compile_in_a_fresh_process() -> None:
    """torch.compile of a function calling ``do``, in an interpreter where no table is
    loaded yet: the miss imports the torch table (file-system look-ups) while dynamo
    traces."""
    pytest.importorskip("torch")
    code = textwrap.dedent(
        """
        import torch, torch._dynamo
        from dispatch import do

        def f(x, w):
            return do("sum", do("tanh", do("matmul", x, w)), axis=-1)

        x, w = torch.randn(64, 64), torch.randn(64, 64)
        explained = torch._dynamo.explain(f)(x, w)
        torch._dynamo.reset()
        out = torch.compile(f, fullgraph=True, backend="eager")(x, w)
        assert torch.allclose(out, f(x, w), atol=1e-5)
        print(explained.graph_count, explained.graph_break_count)
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["1", "0"], run.stdout


@pytest.mark.parametrize("call", [
    'do("max_pool", x, 3, strides=2, padding="same")',  # loads the composed nn module
    'do("one_hot", do("argmax", x, axis=-1), 6)',  # a numpy dtype named inside the trace
    'do("unwrap", x)',
], ids=["max_pool_same", "one_hot", "unwrap"])
def test_composed_ops_first_resolved_inside_torch_compile(call: str) -> None:
    """Cold: in a fresh interpreter the first call of an op is compiled with
    fullgraph=True. Its misses run inside dynamo's trace, load composed modules (whose
    registrations empty the caches mid-trace) and convert dtypes; the trace must keep
    the values it read and write nothing it cannot replay."""
    pytest.importorskip("torch")
    code = textwrap.dedent(
        f"""
        import torch
        from dispatch import do

        def f(x):
            return {call}

        x = torch.randn(2, 8, 6)
        out = torch.compile(f, fullgraph=True, backend="eager")(x)
        assert torch.equal(out, f(x)), (out, f(x))
        print("same")
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["same"], run.stdout


def test_torch_compile_error_names_the_call() -> None:
    """A name that resolves nowhere fails the compilation with dispatch's message."""
    torch = pytest.importorskip("torch")
    run, _ = compile_torch(lambda x: do("no_such_function", x))
    with pytest.raises(Exception, match="no_such_function") as info:
        run(torch.ones(2))
    assert "register_function('torch', 'no_such_function'" in str(info.value)


def test_precision_block_inside_torch_compile() -> None:
    """A ``precision`` block (a context variable) opened around a compiled function is
    read at trace time, and the function is traced again when the block opens."""
    torch = pytest.importorskip("torch")

    def make(x: Any) -> Any:
        return do("zeros", (2,), like="torch") + x

    run, graphs = compile_torch(make)
    x = torch.ones(2, dtype=torch.float16)
    assert run(x).dtype == torch.float32
    with dispatch.precision(16):
        assert run(x).dtype == torch.float16
    assert run(x).dtype == torch.float32
    assert graphs.count == 2
