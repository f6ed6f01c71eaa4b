"""Linear solvers and dense linear algebra of the backend method list on every
backend: symmetric positive definite, non-symmetric and singular systems, with
batches, checked on the true residual in float64."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp
from conftest import assert_close, case, params, to_backend, to_np

from dispatch import do

rng = np.random.default_rng(3)
N = 16


def poisson_1d(n, neumann=False):
    a = 2 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)
    if neumann:  # rows sum to zero: singular, null space = constants
        a[0, 0] = a[-1, -1] = 1
    return a


SPD = poisson_1d(N) + 0.1 * np.eye(N)
NONSYM = 4 * np.eye(N) + 0.6 * rng.standard_normal((N, N)) / np.sqrt(N) + np.eye(N, k=1)
SINGULAR = poisson_1d(N, neumann=True)
Y = rng.standard_normal((3, N))
Y_CONSISTENT = Y - Y.mean(axis=1, keepdims=True)  # orthogonal to the null space


def true_residual(a, x, y):
    return np.linalg.norm(y - x @ a.T, axis=-1) / np.linalg.norm(y, axis=-1)


def solve(backend, method, a, y, **kwargs):
    a_b, y_b = to_backend((a, y), backend)
    kwargs = to_backend(kwargs, backend)
    return do("linear_solve", method, a_b, y_b, **kwargs)


SPD_METHODS = ["CG", "CG-adaptive", "auto", "biCG-stab", "biCG-stab(2)", "scipy-CG",
               "scipy-direct"]
NONSYM_METHODS = ["biCG-stab", "biCG-stab(2)", "biCG-stab(3)", "scipy-GMres",
                  "scipy-biCG-stab", "scipy-direct"]


@pytest.mark.parametrize("method", SPD_METHODS)
def test_spd_batch_converges(backend, method):
    res = solve(backend, method, SPD, Y, rtol=1e-10, max_iter=500)
    x = to_np(res.x)
    assert x.shape == Y.shape
    assert x.dtype == np.float64
    assert to_np(res.converged).tolist() == [True] * 3
    assert not to_np(res.diverged).any()
    assert true_residual(SPD, x, Y).max() < 1e-8
    assert to_np(res.iterations).shape == (3,)
    assert len(res.message) == 3


@pytest.mark.parametrize("method", NONSYM_METHODS)
def test_nonsymmetric_batch_converges(backend, method):
    res = solve(backend, method, NONSYM, Y, rtol=1e-10, max_iter=500)
    assert to_np(res.converged).all()
    assert true_residual(NONSYM, to_np(res.x), Y).max() < 1e-8


def test_cg_iteration_count_matches_scipy(backend):
    import scipy.sparse.linalg as spla

    count = [0]
    spla.cg(SPD, Y[0], rtol=1e-8, callback=lambda _: count.__setitem__(0, count[0] + 1))
    res = solve(backend, "CG", SPD, Y[:1], rtol=1e-8)
    assert abs(int(to_np(res.iterations)[0]) - count[0]) <= 1


@pytest.mark.parametrize("method", ["CG", "CG-adaptive", "biCG-stab(2)"])
def test_singular_consistent_converges(backend, method):
    res = solve(backend, method, SINGULAR, Y_CONSISTENT, rtol=1e-9, max_iter=400)
    assert to_np(res.converged).all()
    assert true_residual(SINGULAR, to_np(res.x), Y_CONSISTENT).max() < 1e-7


@pytest.mark.parametrize("method", ["CG", "CG-adaptive", "biCG-stab"])
def test_singular_inconsistent_reports_failure(backend, method):
    y = Y_CONSISTENT.copy()
    y[1] += 1.0  # a component in the null space: no solution for entry 1
    res = solve(backend, method, SINGULAR, y, rtol=1e-9, max_iter=200)
    converged = to_np(res.converged)
    assert not converged[1]
    assert converged[0]
    assert converged[2]
    assert true_residual(SINGULAR, to_np(res.x)[[0, 2]], y[[0, 2]]).max() < 1e-7
    assert to_np(res.iterations)[1] == 200 or to_np(res.diverged)[1]


@pytest.mark.parametrize("method", ["CG", "CG-adaptive", "biCG-stab(2)"])
def test_zero_rhs_entry_stops_at_once(backend, method):
    y = Y.copy()
    y[1] = 0
    res = solve(backend, method, SPD, y, rtol=1e-10)
    assert to_np(res.iterations)[1] == 0
    np.testing.assert_array_equal(to_np(res.x)[1], 0)
    assert to_np(res.converged).all()
    assert np.isfinite(to_np(res.x)).all()


def test_per_entry_tolerances_and_limits(backend):
    rtol = np.array([1e-2, 1e-6, 1e-10])
    res = solve(backend, "CG", SPD, Y, rtol=rtol, max_iter=np.array([[100, 100, 3]]))
    it = to_np(res.iterations)
    assert it[0] <= it[1]
    assert it[2] == 3
    assert to_np(res.converged).tolist() == [True, True, False]
    assert true_residual(SPD, to_np(res.x)[:2], Y[:2]).tolist() < [1e-2 * 1.01, 1e-6 * 1.01]


@pytest.mark.parametrize("method", ["CG", "biCG-stab"])
def test_checkpoints_record_trajectory(backend, method):
    checkpoints = [0, 1, 3, 500]
    res = solve(backend, method, SPD, Y, rtol=1e-10, max_iter=checkpoints)
    x, its = to_np(res.x), to_np(res.iterations)
    assert x.shape == (4, 3, N)
    assert to_np(res.residual).shape == (4, 3, N)
    assert its.shape == (4, 3)
    assert to_np(res.converged).shape == (4, 3)
    np.testing.assert_array_equal(its[:3], np.array([[0] * 3, [1] * 3, [3] * 3]))
    np.testing.assert_array_equal(x[0], 0)
    assert to_np(res.converged)[-1].all()
    assert not to_np(res.converged)[1].any()
    final = to_np(solve(backend, method, SPD, Y, rtol=1e-10, max_iter=500).x)
    assert_close(x[-1], final)


def test_function_tuple_offset_and_x0(backend):
    a_b, y_b = to_backend((SPD, Y), backend)
    expected = np.linalg.solve(SPD, Y.T).T
    res = do("conjugate_gradient", lambda v: do("mul_matrix_batched_vector", a_b, v), y_b,
             rtol=1e-11)
    assert_close(to_np(res.x), expected, rtol=1e-8)
    mats = tuple(to_backend([SPD, 2 * SPD, 3 * SPD], backend))
    res = do("linear_solve", "CG", mats, y_b, None, 1e-11)
    assert_close(to_np(res.x), expected / np.array([[1.0], [2.0], [3.0]]), rtol=1e-8)
    res = do("linear_solve", "biCG-stab", a_b, y_b, do("asarray", expected, like=y_b), 1e-11)
    assert to_np(res.iterations).max() <= 1
    shifted = do("conjugate_gradient", a_b, y_b, rtol=1e-12, matrix_offset=0.5)
    assert_close(to_np(shifted.x), np.linalg.solve(SPD + 0.5, Y.T).T, rtol=1e-8)


@pytest.mark.parametrize("method", ["CG", "CG-adaptive", "biCG-stab", "biCG-stab(2)",
                                    "scipy-CG"])
def test_preconditioner(backend, method):
    scale = np.linspace(1, 50, N)
    a = SPD * np.sqrt(scale)[:, None] * np.sqrt(scale)[None, :]  # badly scaled, still SPD
    inv_diag = to_backend(1 / np.diag(a), backend)
    res = solve(backend, method, a, Y, rtol=1e-10, max_iter=1000, pre=lambda v: v * inv_diag)
    assert to_np(res.converged).all()
    assert true_residual(a, to_np(res.x), Y).max() < 1e-8


def test_one_vector_float32_and_not_mutated(backend):
    a_b, y_b, x0 = to_backend((SPD, Y[0], np.zeros(N)), backend)
    res = do("conjugate_gradient", a_b, y_b, x0, rtol=1e-12)
    assert to_np(res.x).shape == (N,)
    assert to_np(res.iterations).shape == ()
    assert true_residual(SPD, to_np(res.x), Y[0]) < 1e-10
    np.testing.assert_array_equal(to_np(y_b), Y[0])
    np.testing.assert_array_equal(to_np(x0), 0)
    a32, y32 = to_backend((SPD.astype(np.float32), Y.astype(np.float32)), backend)
    res = do("conjugate_gradient", a32, y32, rtol=1e-5)
    assert to_np(res.x).dtype == np.float32
    assert to_np(res.converged).all()


def _sparse(backend, m):
    m = sp.csr_matrix(m)
    if backend == "numpy":
        return m
    if backend == "torch":
        import torch

        return torch.sparse_csr_tensor(m.indptr, m.indices, m.data, m.shape)
    if backend == "jax":
        from jax.experimental import sparse as jsp

        return jsp.BCOO.from_scipy_sparse(m)
    if backend == "tensorflow":
        import tensorflow as tf

        c = m.tocoo()
        return tf.sparse.SparseTensor(np.stack([c.row, c.col], 1), c.data, c.shape)
    if backend == "sparse":
        import sparse

        return sparse.GCXS.from_scipy_sparse(m)
    if backend == "dask":  # a dask array whose chunks are pydata sparse arrays
        import dask.array as da
        import sparse

        return da.from_array(sparse.COO.from_scipy_sparse(m), chunks=2)
    pytest.skip(f"no sparse matrix type tested for {backend}")


@pytest.mark.parametrize("method", ["CG", "biCG-stab(2)"])
def test_sparse_operator(backend, method):
    a = _sparse(backend, SPD)
    if backend == "tensorflow":
        from dispatch import supports

        if supports("mul_matrix_batched_vector", "tensorflow") != "native":
            pytest.xfail("tf.SparseTensor has no @: tensorflow table entry pending")
    res = do("linear_solve", method, a, to_backend(Y, backend), rtol=1e-10)
    assert to_np(res.converged).all()
    assert true_residual(SPD, to_np(res.x), Y).max() < 1e-8


def test_unknown_method_and_bicg_order_zero(backend):
    with pytest.raises(ValueError, match="unknown linear_solve method"):
        solve(backend, "magic", SPD, Y)
    with pytest.raises(NotImplementedError):
        solve(backend, "biCG-stab(0)", SPD, Y)


# ---------------------------------------------------------------- dense linear algebra

M3 = rng.standard_normal((3, 5, 4))
M3[1, :, 3] = M3[1, :, 0]  # rank deficient
RHS = rng.standard_normal((3, 5, 2))
TRI = np.tril(rng.standard_normal((2, 4, 4))) + 3 * np.eye(4)


def ref_lstsq(a, b):
    vector = b.ndim == a.ndim - 1
    bb = b[..., None] if vector else b
    xs, s = [], []
    for ai, bi in zip(a, bb, strict=True):
        x, _, _, sv = np.linalg.lstsq(ai, bi, rcond=None)
        xs.append(x)
        s.append(sv)
    x = np.stack(xs)
    res = ((a @ x - bb) ** 2).sum(-2)
    rank = np.linalg.matrix_rank(a)
    if vector:
        x, res = x[..., 0], res[..., 0]
    return x, res, rank, np.stack(s)


def ref_triangular(m, rhs, lower=True, unit_diagonal=False):
    vector = rhs.ndim == m.ndim - 1
    b = rhs[..., None] if vector else rhs
    x = np.stack([scipy.linalg.solve_triangular(mi, bi, lower=lower, unit_diagonal=unit_diagonal)
                  for mi, bi in zip(m, b, strict=True)])
    return x[..., 0] if vector else x


DENSE = [
    case("matrix_solve_least_squares", M3, RHS, _ref=ref_lstsq, _dtype="kind", _rtol=1e-6,
         _atol=1e-9),
    case("matrix_solve_least_squares", M3, RHS[..., 0], _ref=ref_lstsq, _dtype="kind",
         _rtol=1e-6, _atol=1e-9),
    case("solve_triangular_dense", TRI, rng.standard_normal((2, 4)), _ref=ref_triangular),
    case("solve_triangular_dense", TRI, rng.standard_normal((2, 4, 3)), lower=True,
         unit_diagonal=True, _ref=ref_triangular),
    case("solve_triangular_dense", np.swapaxes(TRI, 1, 2).copy(), rng.standard_normal((2, 4)),
         lower=False, _ref=ref_triangular),
    case("matrix_rank_dense", M3, _ref=np.linalg.matrix_rank, _dtype="kind"),
    case("matrix_rank_dense", np.stack([SPD, SINGULAR]), _ref=np.linalg.matrix_rank,
         _dtype="kind"),
    case("mul_matrix_batched_vector", SPD, Y, _ref=lambda a, b: b @ a.T),
    case("mul_matrix_batched_vector", NONSYM, Y[:1], _ref=lambda a, b: b @ a.T),
    case("mul_matrix_batched_vector", NONSYM, Y[0], _ref=lambda a, b: a @ b),
    case("linear", NONSYM, Y, _ref=lambda a, b: b @ a.T),
]


@pytest.mark.parametrize(("name", "c"), params(DENSE))
def test_dense_matches_numpy(backend, name, c):
    c.run(backend)


def test_solve_inputs_not_mutated(backend):
    c = case("linear_solve", "CG", SPD, Y, np.ones((3, N)), 1e-8)
    c.run_not_mutated(backend)
