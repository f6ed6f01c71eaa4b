"""Decompositions, triangular solves and minimize of the backend method list on
every backend: eig, eigvals, svd (batched, list layout), solve_triangular
(dense and sparse), solve_triangular_sparse, minimize ('GD' and scipy
methods, batched, with trajectories)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp
from conftest import assert_close, known_gap, to_backend, to_np

from dispatch import DispatchError, UnsupportedError, do

rng = np.random.default_rng(21)
M = rng.standard_normal((3, 4, 4))
SYM = M + np.swapaxes(M, -1, -2)
RECT = rng.standard_normal((2, 5, 3))


def call(backend, name, *args, **kwargs):
    try:
        return do(name, *to_backend(args, backend), **kwargs)
    except UnsupportedError as err:
        if known_gap(backend, name) is None:
            raise  # a name the implementation calls is refused: a failure, not a gap
        pytest.xfail(str(err))  # the name's own unsupported entry


def test_eig_reconstructs(backend):
    w, v = call(backend, "eig", M)
    w, v = to_np(w), to_np(v)
    assert w.shape == (3, 4)
    assert v.shape == (3, 4, 4)
    np.testing.assert_allclose(M @ v, v * w[:, None, :], atol=1e-8)


def test_eigvals_match_numpy(backend):
    w = to_np(call(backend, "eigvals", SYM))
    np.testing.assert_allclose(np.sort(w.real, -1), np.sort(np.linalg.eigvalsh(SYM), -1), atol=1e-8)


@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd(backend, full_matrices):
    u, s, vh = (to_np(a) for a in call(backend, "svd", RECT, full_matrices=full_matrices))
    ref = np.linalg.svd(RECT, full_matrices=full_matrices)
    assert (u.shape, s.shape, vh.shape) == tuple(a.shape for a in ref)
    assert_close(s, ref.S)
    k = s.shape[-1]
    np.testing.assert_allclose((u[..., :k] * s[:, None, :]) @ vh[..., :k, :], RECT, atol=1e-10)


LOWER = np.tril(rng.standard_normal((2, 4, 4))) + 4 * np.eye(4)
RHS = rng.standard_normal((2, 4))


@pytest.mark.parametrize(("lower", "unit"), [(True, False), (False, False), (True, True)])
def test_solve_triangular_dense(backend, lower, unit):
    a = LOWER if lower else np.swapaxes(LOWER, -1, -2)
    x = to_np(call(backend, "solve_triangular", a, RHS, lower=lower, unit_diagonal=unit))
    ref = np.stack([scipy.linalg.solve_triangular(a[b], RHS[b], lower=lower, unit_diagonal=unit)
                    for b in range(2)])
    assert_close(x, ref)


@pytest.mark.parametrize("lower", [True, False])
def test_solve_triangular_sparse_scipy(lower):
    a = LOWER[0] if lower else LOWER[0].T
    out = do("solve_triangular", sp.csr_array(a), RHS, lower=lower)
    ref = scipy.linalg.solve_triangular(a, RHS.T, lower=lower).T
    assert_close(out, ref)


def test_solve_triangular_sparse_on_backend(backend):
    ref = scipy.linalg.solve_triangular(LOWER[0], RHS.T, lower=True).T
    m, rhs = to_backend((LOWER[0], RHS), backend)
    x = do("solve_triangular_sparse", m, rhs, True)  # a dense matrix is accepted too
    assert_close(to_np(x), ref)
    rows, cols = np.nonzero(LOWER[0])
    idx, val = to_backend((np.stack([rows, cols], -1), LOWER[0][rows, cols]), backend)
    try:
        m = do("sparse_coo_tensor", idx, val, (4, 4))
    except DispatchError as err:
        pytest.skip(f"no sparse_coo_tensor on {backend}: {err}")
    assert do("is_sparse", m)
    assert_close(to_np(do("solve_triangular", m, rhs, lower=True)), ref)


# ---------------------------------------------------------------- minimize

TARGET = np.array([[1.0, -2.0], [0.5, 3.0], [0.0, 0.0]])


def quadratic(target):
    def f(x):
        d = do("subtract", x, target)
        return do("sum", do("multiply", d * d, np.array([1.0, 4.0])), axis=-1)

    return f


@pytest.mark.parametrize("method", ["GD", "L-BFGS-B", "auto", "BFGS", "Nelder-Mead"])
def test_minimize_batch(backend, method):
    x0 = to_backend(np.zeros((3, 2)), backend)
    res = call(backend, "minimize", method, quadratic(TARGET), x0, 1e-6, 2000)
    assert res.method == ("L-BFGS-B" if method == "auto" else method)
    x = to_np(res.x)
    assert x.shape == (3, 2)
    np.testing.assert_allclose(x, TARGET, atol=1e-3)
    assert to_np(res.converged).tolist() == [True] * 3
    assert not to_np(res.diverged).any()
    assert to_np(res.iterations).shape == (3,)
    assert len(res.message) == 3
    np.testing.assert_allclose(to_np(res.residual), 0, atol=1e-5)


@pytest.mark.parametrize("method", ["GD", "L-BFGS-B"])
def test_minimize_trajectory(backend, method):
    x0 = to_backend(np.zeros((3, 2)), backend)
    trj = call(backend, "minimize", method, quadratic(TARGET), x0, 1e-6, 50, True)
    assert isinstance(trj, list)
    assert len(trj) >= 2
    assert_close(to_np(trj[0].x), np.zeros((3, 2)))
    losses = np.stack([to_np(r.residual) for r in trj])
    assert (losses[-1] <= losses[0]).all()
    np.testing.assert_allclose(to_np(trj[-1].x), TARGET, atol=1e-3)


def test_minimize_unbatched_with_jac(backend):
    t = np.array([2.0, -1.0])
    f = lambda x: do("sum", do("subtract", x, t) ** 2)
    jac = lambda x: 2 * do("subtract", x, t)
    res = call(backend, "minimize", "GD", f, np.zeros(2), 1e-8, 500, jac=jac)
    np.testing.assert_allclose(to_np(res.x), t, atol=1e-4)
