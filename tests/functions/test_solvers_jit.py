"""The composed conjugate gradient and BiCGStab(l) solvers inside each library's jit (``jax.jit``,
``tf.function``, and ``jit_compile`` on mlx and paddle): dense, sparse and function
operators, one and several right-hand sides, compared with the eager solve on the same
library and with ``numpy.linalg.solve``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import assert_close, to_backend, to_np

from dispatch import do

rng = np.random.default_rng(31)
N = 12
SPD = 2 * np.eye(N) - np.eye(N, k=1) - np.eye(N, k=-1) + 0.1 * np.eye(N)
# non-symmetric, diagonally dominant: well conditioned
NONSYM = 4 * np.eye(N) - 1.5 * np.eye(N, k=1) + 0.5 * np.eye(N, k=-1) + 0.3 * np.eye(N, k=3)
Y = rng.standard_normal((3, N))
FIELDS = ("x", "residual", "iterations", "function_evaluations", "converged", "diverged")

NO_JIT = {
    "numpy": "numpy has no jit (jit_compile is a pass-through)",
    "dask": "dask has no jit (jit_compile is a pass-through)",
    "sparse": "pydata sparse has no jit (jit_compile is a pass-through)",
    "cupy": "cupy has no function jit through dispatch",
    "torch": "torch's jit_compile traces, which cannot record the solver's "
    "data-dependent loop (torch's solver path is handled separately)",
}

# jits that take seconds per solve: mlx unrolls the loop to max_iter steps (it has no
# traced loop), paddle's translator follows every call inside dispatch. They run the
# first combination of each test's parameters; jax and tensorflow run them all
SLOW_JIT = {
    "mlx": "mx.compile of an unrolled solve takes seconds: mlx runs the first "
           "combination of this test's parameters",
    "paddle": "paddle's translation of a solve takes seconds: paddle runs the first "
              "combination of this test's parameters",
}


@pytest.fixture(autouse=True)
def _first_combination_on_slow_jits(request):
    callspec = getattr(request.node, "callspec", None)
    if callspec is None or callspec.params.get("backend") not in SLOW_JIT:
        return
    for mark in request.node.iter_markers("parametrize"):
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else names
        first = values[0] if len(names) > 1 else (values[0],)
        if any(callspec.params[n] != f for n, f in zip(names, first, strict=True)):
            pytest.skip(SLOW_JIT[callspec.params["backend"]])


NO_SPARSE = {
    "mlx": "mlx has no sparse array type",
    "paddle": "paddle's CPU build has no sparse-dense product (its matmul_coo_dense "
              "kernel is registered for GPUs only)",
}


def jitted(backend: str, fn: Callable) -> Callable:
    """``fn`` compiled with ``backend``'s own jit."""
    if backend == "jax":
        import jax

        return jax.jit(fn)
    if backend == "tensorflow":
        import tensorflow as tf

        return tf.function(fn)
    if backend == "mlx":  # mx.compile
        return do("jit_compile", fn, like=backend)
    if backend == "paddle":  # paddle.jit.to_static, which runs a signature's first call
        compiled = do("jit_compile", fn, like=backend)  # eagerly: the second is compiled
        return lambda *args: (compiled(*args), compiled(*args))[1]
    pytest.skip(NO_JIT.get(backend, f"{backend} has no jit"))
    raise AssertionError  # unreachable


def operator(backend: str, kind: str, matrix: np.ndarray = SPD) -> Any:
    """``matrix`` dense, as the library's sparse matrix, or dense for a function
    of the batch (built inside the jitted function from the dense matrix)."""
    a = to_backend(matrix, backend)
    if kind != "sparse":
        return a
    if backend == "jax":
        from jax.experimental import sparse

        return sparse.BCOO.fromdense(a)
    if backend in NO_SPARSE:
        pytest.skip(NO_SPARSE[backend])
    import tensorflow as tf

    return tf.sparse.from_dense(a)


def call(name: str, kind: str, *args: Any, **kwargs: Any) -> Callable:
    """``do(name, *args, lin, y, **kwargs)`` as a function of (matrix, y)."""

    def fn(a: Any, y: Any) -> tuple:
        lin = (lambda v: do("matmul", v, do("swapaxes", a, -1, -2))) if kind == "function" else a
        res = do(name, *args, lin, y, **kwargs)
        return tuple(getattr(res, f) for f in FIELDS)  # strings cannot leave a jit

    return fn


def check_against_eager(backend: str, name: str, kind: str, y: np.ndarray, *args: Any,
                        matrix: np.ndarray = SPD, **kwargs: Any):
    fn = call(name, kind, *args, **kwargs)
    jitted(backend, fn)  # skips the libraries without a jit before building inputs
    a, y_b = operator(backend, kind, matrix), to_backend(y, backend)
    traced = to_np(jitted(backend, fn)(a, y_b))
    eager = to_np(fn(a, y_b))
    for field, t, e in zip(FIELDS, traced, eager, strict=True):
        assert t.shape == e.shape, field
        if t.dtype.kind == "f":
            assert_close(t, e, rtol=1e-9, atol=1e-12)
        else:
            assert t.tolist() == e.tolist(), field
    return dict(zip(FIELDS, traced, strict=True))


@pytest.mark.parametrize("name", ["conjugate_gradient", "conjugate_gradient_adaptive"])
@pytest.mark.parametrize("kind", ["dense", "sparse", "function"])
@pytest.mark.parametrize("batched", [False, True], ids=["single", "batched"])
def test_spd_in_jit(backend, name, kind, batched):
    y = Y if batched else Y[0]
    res = check_against_eager(backend, name, kind, y, rtol=1e-10, atol=0.0, max_iter=200)
    expected = np.linalg.solve(SPD, np.atleast_2d(y).T).T.reshape(y.shape)
    assert res["x"].dtype == np.float64
    assert_close(res["x"], expected, rtol=1e-8, atol=1e-10)
    assert np.all(res["converged"])
    assert not np.any(res["diverged"])
    assert_close(res["residual"], y - res["x"] @ SPD.T, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", ["conjugate_gradient", "conjugate_gradient_adaptive"])
def test_iteration_limit_in_jit(backend, name):
    res = check_against_eager(backend, name, "dense", Y, rtol=1e-12, max_iter=3)
    assert res["iterations"].tolist() == [3, 3, 3]
    assert not np.any(res["converged"])
    assert not np.any(res["diverged"])


@pytest.mark.parametrize("name", ["conjugate_gradient", "conjugate_gradient_adaptive"])
def test_checkpoints_in_jit(backend, name):
    res = check_against_eager(backend, name, "dense", Y, rtol=1e-10, max_iter=[0, 2, 200])
    assert res["x"].shape == (3, *Y.shape)
    assert res["iterations"][:2].tolist() == [[0, 0, 0], [2, 2, 2]]
    assert np.all(res["converged"][-1])


def test_preconditioner_and_tolerance_arrays_in_jit(backend):
    jitted(backend, lambda: None)
    diag = to_backend(np.diag(SPD).copy(), backend)

    def fn(a: Any, y: Any) -> tuple:
        rtol = do("asarray", np.array([1e-10, 1e-10, 1e-10]), like=y)
        res = do("conjugate_gradient", a, y, rtol=rtol, max_iter=200, pre=lambda v: v / diag)
        return res.x, res.iterations, res.converged

    a, y = to_backend((SPD, Y), backend)
    x, it, conv = to_np(jitted(backend, fn)(a, y))
    eager = to_np(fn(a, y))
    assert_close(x, eager[0], rtol=1e-9, atol=1e-12)
    assert it.tolist() == eager[1].tolist()
    assert_close(x, np.linalg.solve(SPD, Y.T).T, rtol=1e-8, atol=1e-10)
    assert np.all(conv)


def check_solution(res: dict, matrix: np.ndarray, y: np.ndarray) -> None:
    expected = np.linalg.solve(matrix, np.atleast_2d(y).T).T.reshape(y.shape)
    assert res["x"].dtype == np.float64
    assert_close(res["x"], expected, rtol=1e-8, atol=1e-10)
    assert np.all(res["converged"])
    assert not np.any(res["diverged"])
    assert_close(res["residual"], y - res["x"] @ matrix.T, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("poly_order", [1, 2, 3])
@pytest.mark.parametrize("kind", ["dense", "sparse", "function"])
@pytest.mark.parametrize("batched", [False, True], ids=["single", "batched"])
def test_bicgstab_nonsymmetric_in_jit(backend, poly_order, kind, batched):
    y = Y if batched else Y[0]
    res = check_against_eager(backend, "bi_conjugate_gradient", kind, y, matrix=NONSYM,
                              rtol=1e-10, atol=0.0, max_iter=200, poly_order=poly_order)
    check_solution(res, NONSYM, y)
    assert np.all(res["function_evaluations"] == 1 + 2 * poly_order * res["iterations"])


@pytest.mark.parametrize("method", ["biCG-stab", "biCG-stab(1)", "biCG-stab(2)"])
@pytest.mark.parametrize("kind", ["dense", "sparse"])
@pytest.mark.parametrize("batched", [False, True], ids=["single", "batched"])
def test_linear_solve_bicgstab_in_jit(backend, method, kind, batched):
    y = Y if batched else Y[0]
    res = check_against_eager(backend, "linear_solve", kind, y, method, matrix=NONSYM,
                              rtol=1e-10, atol=0.0, max_iter=200)
    check_solution(res, NONSYM, y)


@pytest.mark.parametrize("poly_order", [1, 2])
def test_bicgstab_limit_and_checkpoints_in_jit(backend, poly_order):
    kwargs = {"matrix": NONSYM, "rtol": 1e-12, "poly_order": poly_order}
    res = check_against_eager(backend, "bi_conjugate_gradient", "dense", Y, max_iter=1, **kwargs)
    assert res["iterations"].tolist() == [1, 1, 1]
    assert not np.any(res["converged"])
    res = check_against_eager(backend, "bi_conjugate_gradient", "dense", Y,
                              max_iter=[0, 1, 200], **kwargs)
    assert res["x"].shape == (3, *Y.shape)
    assert res["iterations"][:2].tolist() == [[0, 0, 0], [1, 1, 1]]
    assert_close(res["x"][0], np.zeros_like(Y))
    assert np.all(res["converged"][-1])


def test_bicgstab_preconditioner_and_offset_in_jit(backend):
    jitted(backend, lambda: None)
    diag = to_backend(np.diag(NONSYM).copy(), backend)

    def fn(a: Any, y: Any) -> tuple:
        res = do("bi_conjugate_gradient", a, y, rtol=1e-10, max_iter=200,
                 pre=lambda v: v / diag, matrix_offset=0.01, poly_order=2)
        return tuple(getattr(res, f) for f in FIELDS)

    a, y = to_backend((NONSYM, Y), backend)
    traced = to_np(jitted(backend, fn)(a, y))
    eager = to_np(fn(a, y))
    for field, t, e in zip(FIELDS, traced, eager, strict=True):
        if t.dtype.kind == "f":
            assert_close(t, e, rtol=1e-9, atol=1e-12)
        else:
            assert t.tolist() == e.tolist(), field
    assert_close(traced[0], np.linalg.solve(NONSYM + 0.01, Y.T).T, rtol=1e-8, atol=1e-10)
    assert np.all(traced[4])
