"""Array-only calls of the backend method list inside each library's own jit
(``jax.jit``, ``tf.function``, and the traced ``jit_compile`` of torch, mlx
(``mx.compile``) and paddle (``paddle.jit.to_static``)), compared with
the same call on numpy arrays (eagerly and compiled).

Each row is ``(name, inputs, fn)``: ``fn`` takes the backend arrays made from
``inputs`` (static arguments are closed over) and calls ``do``. Rows are
parametrized by ``name`` so that ``unsupported`` table entries become strict
xfails through the ``backend`` fixture.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import assert_close, to_backend, to_np

from dispatch import UnsupportedError, do

rng = np.random.default_rng(23)

# libraries with a jit of their own; the others have nothing to compare against
NO_JIT = {
    "numpy": "numpy has no jit (jit_compile is a pass-through)",
    "dask": "dask has no jit (jit_compile is a pass-through)",
    "sparse": "pydata sparse has no jit (jit_compile is a pass-through)",
    "cupy": "cupy has no function jit through dispatch",
}
# rows a library's jit cannot trace, with the error it gives: test id -> (error, message
# pattern, why). Checked to fail so, then expected failures: an entry that starts to
# pass fails the test
NOT_TRACEABLE = {
    "mlx-while_loop": (
        UnsupportedError, "needs a Python int max_iter",
        "mlx has no loop primitive that mx.compile traces: a while_loop runs there unrolled "
        "to its max_iter, and this one has none (eagerly it runs)"),
}


def jitted(backend: str, fn: Callable) -> Callable:
    """``fn`` compiled with ``backend``'s own jit."""
    if backend == "jax":
        import jax

        return jax.jit(fn)
    if backend == "tensorflow":
        import tensorflow as tf

        return tf.function(fn)
    if backend in ("torch", "mlx", "paddle"):  # mx.compile, paddle.jit.to_static
        return do("jit_compile", fn, like=backend)
    pytest.skip(NO_JIT.get(backend, f"{backend} has no jit"))
    raise AssertionError  # unreachable


# ---------------------------------------------------------------- data

F = rng.standard_normal((2, 5, 3))
IDX = np.array([[[1], [3], [1], [0], [1], [4], [3]], [[2], [2], [2], [0], [4], [4], [1]]])
VAL = rng.standard_normal((2, 7, 3))
UNIQUE = np.array([[[4], [0], [2]]])
GRID = rng.standard_normal((2, 4, 5, 2))
IDX2 = np.stack([rng.integers(0, 4, (1, 9)), rng.integers(0, 5, (1, 9))], -1)
IDX2[0, 3] = IDX2[0, 0]  # a duplicate 2-D index
VAL9 = rng.standard_normal((2, 9, 2))
V3 = rng.standard_normal((3, 4, 5))
VI = rng.integers(0, 100, (2, 4, 5, 3))
GIDX = np.stack([rng.integers(0, 4, (2, 6)), rng.integers(0, 5, (2, 6))], -1)

X = rng.integers(0, 6, 40)
W = rng.standard_normal(40)
XB = rng.integers(-1, 7, (3, 20))
WB = rng.standard_normal((3, 20))
VALUES = rng.uniform(-1, 5, (2, 30))
EDGES = np.array([[0.0, 1.0, 2.0, 3.5, 4.0], [-2.0, 0.0, 0.5, 1.0, 6.0]])
SEQ = np.sort(rng.integers(0, 10, (2, 3, 8)), axis=-1).astype(np.float64)
SEARCH = rng.integers(-1, 11, (2, 3, 5)).astype(np.float64)
XQ = rng.standard_normal((3, 4, 9))
NZ = rng.random((4, 5)) > 0.6
MASK = np.array([True, False, True, True, False])
FLAT = np.array([0, 7, 11, 5, 3])
MULTI = np.array([[0, 1, 2], [1, 0, 3], [-1, 2, 0], [1, 3, 4], [2, 0, 1]])
SEGMENTS = rng.standard_normal((2, 6, 3))

SHAPE = (4, 6)
COO = np.stack([np.stack([rng.integers(0, 4, 8), rng.integers(0, 6, 8)], -1) for _ in range(2)])
COO[:, 5] = COO[:, 1]  # duplicates are summed
COO_VALS = rng.standard_normal((2, 8, 2))
DENSE = rng.standard_normal((2, SHAPE[1], 2, 3))

XC = rng.standard_normal((2, 4, 6)) + 1j * rng.standard_normal((2, 4, 6))
V1 = rng.standard_normal((2, 3, 7))
K1 = rng.standard_normal((1, 2, 3, 3))
V2 = rng.standard_normal((1, 2, 5, 6))
K2 = rng.standard_normal((1, 3, 2, 3, 2))
GRID2 = rng.standard_normal((2, 4, 5, 3))
COORDS2 = rng.uniform(-3.0, 8.0, (1, 7, 2))
MATS = rng.standard_normal((2, 3, 4, 2))
A = rng.standard_normal((2, 3, 4))
DEN = np.where(rng.random((2, 5, 3)) > 0.6, 0.0, rng.uniform(0.5, 2.0, (2, 5, 3)))
INTS = rng.integers(-5, 5, (3, 4))
SPD = rng.standard_normal((3, 3))
SPD = SPD @ SPD.T + 3 * np.eye(3)
RHS = rng.standard_normal((3, 2))
COLLATZ = np.array([6, 7, 1, 27])


def collatz_step(go: Any, x: Any, n: Any) -> tuple:
    """One step for every entry still going (written with ``do`` only)."""
    nxt = do("where", do("equal", do("mod", x, 2), 0), x // 2, 3 * x + 1)
    x = do("where", go, nxt, x)
    n = n + do("astype", go, "int64")
    return do("not_equal", x, 1), x, n


def collatz(x: Any, max_iter: Any = None) -> Any:
    n = do("zeros_like", x)
    return do("while_loop", collatz_step, (do("not_equal", x, 1), x, n), max_iter)


# ---------------------------------------------------------------- rows


def row(name: str, inputs: tuple, fn: Callable, ident: str = "") -> Any:
    return pytest.param(name, inputs, fn, id=f"{name}-{ident}" if ident else name)


ROWS = [
    *[row("scatter", (F, IDX, VAL), lambda b, i, v, m=m: do("scatter", b, i, v, m), m)
      for m in ("add", "max", "min")],
    row("scatter", (F, UNIQUE, VAL[:1, :3]), lambda b, i, v: do("scatter", b, i, v, "update"),
        "update"),
    row("scatter", (GRID, IDX2, VAL9), lambda b, i, v: do("scatter", b, i, v, "add"), "2d-add"),
    row("scatter_nd", (F[0], IDX[0], VAL[0]), lambda b, i, v: do("scatter_nd", b, i, v, "add")),
    row("gather", (V3, np.array([2, 0, 2])), lambda v, i: do("gather", v, i, 1)),
    row("gather_nd", (GRID[0], IDX2[0]), lambda v, i: do("gather_nd", v, i)),
    row("batched_gather_nd", (VI, GIDX), lambda v, i: do("batched_gather_nd", v, i)),
    row("batched_gather_1d", (F[..., 0], np.array([[4, 0, 4], [1, 1, 2]])),
        lambda v, i: do("batched_gather_1d", v, i)),
    row("bincount_fixed", (X, W), lambda x, w: do("bincount_fixed", x, w, 6)),
    row("batched_bincount", (XB, WB), lambda x, w: do("batched_bincount", x, w, 6)),
    row("histogram1d", (VALUES, rng.random((2, 30)), EDGES),
        lambda v, w, e: do("histogram1d", v, w, e)),
    row("searchsorted_batched", (SEQ, SEARCH),
        lambda s, v: do("searchsorted_batched", s, v, side="right")),
    row("quantile_last", (XQ,), lambda x: do("quantile_last", x, [0.0, 0.25, 0.5, 0.9])),
    row("nonzero_static", (NZ,), lambda x: do("nonzero_static", x, length=20)),
    row("boolean_mask", (F, MASK),
        lambda x, m: do("boolean_mask", x, m, axis=1, new_length=4, fill_value=-1.5)),
    row("unravel_index_stacked", (FLAT,), lambda f: do("unravel_index_stacked", f, (3, 4))),
    row("ravel_multi_index_stacked", (MULTI,),
        lambda m: do("ravel_multi_index_stacked", m, (2, 4, 5), "periodic")),
    row("indexed_segment_sum", (SEGMENTS, np.array([[0, 2, 5], [0, 1, 3]])),
        lambda x, i: do("indexed_segment_sum", x, i, 1)),
    row("mul_coo_dense", (COO, COO_VALS, DENSE),
        lambda i, v, d: do("mul_coo_dense", i, v, SHAPE, d)),
    row("coo_to_dense", (COO, COO_VALS), lambda i, v: do("coo_to_dense", i, v, SHAPE)),
    row("fft_axes", (XC,), lambda x: do("fft_axes", x, (0, 2))),
    row("fft_axes", (XC.real,), lambda x: do("fft_axes", x, (1,)), "real"),
    row("ifft_axes", (XC,), lambda x: do("ifft_axes", x, (1, 2))),
    row("conv", (V1, K1), lambda v, k: do("conv", v, k)),
    row("conv", (V1, K1), lambda v, k: do("conv", v, k, strides=2, zero_padding=False),
        "strided-valid"),
    row("conv", (V1, K1), lambda v, k: do("conv", v, k, transpose=True), "transpose"),
    row("conv", (V2, K2), lambda v, k: do("conv", v, k), "2d"),
    *[row("grid_sample", (GRID2, COORDS2), lambda g, c, m=m: do("grid_sample", g, c, m), m)
      for m in ("zeros", "boundary", "periodic", "symmetric", "reflect")],
    row("get_diagonal", (MATS,), lambda m: do("get_diagonal", m, 1)),
    *[row("pad_boundary", (A,), lambda a, m=m: do("pad_boundary", a, [(1, 1), (0, 0), (2, 1)], m),
          m) for m in ("constant", "boundary", "periodic", "symmetric", "reflect")],
    row("unstack", (A,), lambda a: do("unstack", a, 1)),
    row("divide_no_nan", (F, DEN), lambda x, y: do("divide_no_nan", x, y)),
    row("softplus", (F * 300,), lambda x: do("softplus", x)),
    row("sigmoid", (F * 50,), lambda x: do("sigmoid", x)),
    row("to_float", (INTS,), lambda x: do("to_float", x)),
    row("auto_cast1", (F,), lambda x: do("auto_cast1", x)),
    row("while_loop", (COLLATZ,), collatz),
    row("while_loop", (COLLATZ,), lambda x: collatz(x, 10), "max_iter"),
    row("vectorized_call", (A, np.ones((1, 4))),
        lambda a, b: do("vectorized_call", lambda u, v: do("sum", u * v), a, b)),
    row("sum", (A,), lambda a: do("sum", a, axis=1)),
    row("where", (F, DEN), lambda x, y: do("where", y > 0, x, -x)),
    row("matmul", (A, V3[:, :4, :2]), lambda a, b: do("matmul", a[:1], b)),
    row("einsum", (A, V3), lambda a, b: do("einsum", "bij,cjk->bcik", a, b)),
    row("take_along_axis", (V3, np.argsort(V3, axis=-1)),
        lambda v, i: do("take_along_axis", v, i, axis=-1)),
    row("linalg.solve", (SPD, RHS), lambda a, b: do("linalg.solve", a, b)),
]


@pytest.mark.parametrize(("name", "inputs", "fn"), ROWS)
def test_jit_matches_eager(backend: str, name: str, inputs: tuple, fn: Callable,
                           request: pytest.FixtureRequest) -> None:
    if backend in NO_JIT:
        pytest.skip(NO_JIT[backend])
    # the reference is the call on numpy arrays (numpy's function where the name is
    # numpy's, else the numpy table's), not the library's own eager run: a table
    # wrong both eagerly and compiled must fail
    expected = to_np(fn(*[np.array(a, copy=True) for a in inputs]))
    args = to_backend(inputs, backend)
    assert_close(to_np(fn(*args)), expected, name=name, backend=backend)
    compiled = jitted(backend, fn)
    if request.node.callspec.id in NOT_TRACEABLE:
        error, pattern, why = NOT_TRACEABLE[request.node.callspec.id]
        with pytest.raises(error, match=pattern):
            compiled(*args)
        pytest.xfail(why)
    # torch's jit_compile runs a signature eagerly first, traces it on the second
    # call and runs the trace from the third: check all three; paddle's runs the first
    # eagerly and the second translated
    calls = {"torch": 3, "paddle": 2}.get(backend, 1)
    for _ in range(calls):
        assert_close(to_np(compiled(*args)), expected, name=name, backend=backend)
