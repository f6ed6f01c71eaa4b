"""Linear algebra: numpy.linalg, scipy.linalg, einsum, tensordot, matmul, dot, kron.

Decompositions whose factors are unique only up to signs or phases (QR, SVD,
eigenvectors) are checked by reconstruction, orthonormality and triangularity,
plus the sign-free parts (singular values, eigenvalues) against numpy.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
from conftest import assert_close, case, params, tolerance

rng = np.random.default_rng(50)
A = rng.standard_normal((4, 4)) + 4 * np.eye(4)  # well conditioned
A32 = A.astype("float32")
B = rng.standard_normal((4, 3))
BV = rng.standard_normal(4)
TALL = rng.standard_normal((5, 3))
WIDE = rng.standard_normal((3, 5))
BATCH = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
_M = rng.standard_normal((4, 4))
SPD = _M @ _M.T + 4 * np.eye(4)
SYM = (_M + _M.T) / 2
AC = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)) + 3 * np.eye(3)
LOW = np.tril(rng.standard_normal((4, 4))) + 4 * np.eye(4)
UP = np.triu(rng.standard_normal((4, 4))) + 4 * np.eye(4)
RANK2 = rng.standard_normal((4, 2)) @ rng.standard_normal((2, 5))
V = rng.standard_normal(4)
U = rng.standard_normal(3)
T3 = rng.standard_normal((2, 3, 4))
T4 = rng.standard_normal((3, 4, 5))
SMALL = 0.3 * rng.standard_normal((3, 3))
AI = rng.integers(-3, 4, (3, 3))
T24 = rng.standard_normal((24, 24)) + 6 * np.eye(24)  # well conditioned, for tensorsolve/inv
_RAW, TAU = np.linalg.qr(TALL, mode="raw")  # LAPACK geqrf: reflectors and their scales
REFLECTORS = np.ascontiguousarray(_RAW.T)


def _tol(x):
    return tolerance(x.dtype)


def _matmul_close(actual, expected, x):
    r, a = _tol(x)
    np.testing.assert_allclose(actual, expected, rtol=max(r, 1e-6) * 10, atol=max(a, 1e-9) * 100)


def _is_orthonormal_columns(q):
    eye = np.broadcast_to(np.eye(q.shape[-1]), (*q.shape[:-2], q.shape[-1], q.shape[-1]))
    _matmul_close(q.conj().swapaxes(-1, -2) @ q, eye, q)


def check_qr(mode="reduced"):
    def check(actual, a, *args, **kwargs):
        q, r = actual
        q_ref, r_ref = np.linalg.qr(a, *args, **kwargs)
        assert q.shape == q_ref.shape
        assert r.shape == r_ref.shape
        assert q.dtype == q_ref.dtype
        assert r.dtype == r_ref.dtype
        _matmul_close(q @ r, a, a)
        _is_orthonormal_columns(q)
        np.testing.assert_allclose(np.tril(r, -1), 0, atol=1e-8)
        np.testing.assert_allclose(
            np.abs(np.diagonal(r, 0, -2, -1)), np.abs(np.diagonal(r_ref, 0, -2, -1)), rtol=1e-6
        )

    return check


def check_svd(actual, a, *args, **kwargs):
    if kwargs.get("compute_uv", True) is False:
        assert_close(actual, np.linalg.svd(a, compute_uv=False), rtol=1e-6)
        return
    u, s, vh = actual
    u_ref, s_ref, vh_ref = np.linalg.svd(a, *args, **kwargs)
    assert (u.shape, s.shape, vh.shape) == (u_ref.shape, s_ref.shape, vh_ref.shape)
    assert s.dtype == s_ref.dtype
    assert_close(s, s_ref, rtol=1e-6)
    k = s.shape[-1]
    _matmul_close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, a)
    _is_orthonormal_columns(u)
    _is_orthonormal_columns(vh.conj().swapaxes(-1, -2))


def check_eigh(actual, a, *args, **kwargs):
    w, v = actual
    w_ref, _ = np.linalg.eigh(a, *args, **kwargs)
    assert_close(w, w_ref, rtol=1e-6)
    _matmul_close(a @ v, v * w[..., None, :], a)
    _is_orthonormal_columns(v)


def _sorted_complex(w):
    w = np.asarray(w, dtype=complex)
    return w[np.lexsort((np.round(w.imag, 6), np.round(w.real, 6)))]


def check_eig(actual, a):
    w, v = actual
    w_ref = np.linalg.eigvals(a)
    np.testing.assert_allclose(_sorted_complex(w), _sorted_complex(w_ref), rtol=1e-6, atol=1e-8)
    _matmul_close(a @ v, v * w[None, :], a)


def check_eigvals(actual, a):
    np.testing.assert_allclose(
        _sorted_complex(actual), _sorted_complex(np.linalg.eigvals(a)), rtol=1e-6, atol=1e-8
    )


def check_lstsq(actual, a, b, **kwargs):
    x, res, rank, s = actual
    x_ref, res_ref, rank_ref, s_ref = np.linalg.lstsq(a, b, **kwargs)
    assert_close(x, x_ref, rtol=1e-6)
    assert_close(res, res_ref, rtol=1e-6, atol=1e-8, dtype="kind")
    assert int(rank) == int(rank_ref)
    assert_close(s, s_ref, rtol=1e-6)


def check_lu(actual, a, **kwargs):
    p, low, up = actual
    assert p.shape == (a.shape[0], a.shape[0])
    _matmul_close(p @ low @ up, a, a)
    np.testing.assert_allclose(np.triu(low, 1), 0, atol=1e-12)
    np.testing.assert_allclose(np.diagonal(low), 1, atol=1e-12)
    np.testing.assert_allclose(np.tril(up, -1), 0, atol=1e-12)
    _matmul_close(p @ p.T, np.eye(a.shape[0]), a)


def check_slogdet(actual, a):
    sign, logdet = actual
    ref = np.linalg.slogdet(a)
    assert_close(sign, ref.sign, rtol=1e-6)
    assert_close(logdet, ref.logabsdet, rtol=1e-6)


CASES = [
    case("linalg.qr", A, _check=check_qr()),
    case("linalg.qr", TALL, _check=check_qr()),
    case("linalg.qr", WIDE, _check=check_qr()),
    case("linalg.qr", TALL, mode="complete", _check=check_qr()),
    case("linalg.qr", A32, _check=check_qr()),
    case("linalg.qr", BATCH, _check=check_qr()),
    case("linalg.svd", A, _check=check_svd),
    case("linalg.svd", TALL, full_matrices=False, _check=check_svd),
    case("linalg.svd", WIDE, full_matrices=False, _check=check_svd),
    case("linalg.svd", TALL, _check=check_svd),
    case("linalg.svd", WIDE, full_matrices=True, _check=check_svd),
    case("linalg.svd", TALL, compute_uv=False, _check=check_svd),
    case("linalg.svd", BATCH, _check=check_svd),
    case("linalg.svd", A32, _check=check_svd),
    case("linalg.eigh", SYM, _check=check_eigh),
    case("linalg.eigh", SPD, _check=check_eigh),
    case("linalg.eigh", SYM, UPLO="U", _check=check_eigh),
    case("linalg.eigvalsh", SYM, _rtol=1e-6),
    case("linalg.eigvalsh", SPD, _rtol=1e-6),
    case("linalg.eig", A, _check=check_eig),
    case("linalg.eig", SYM, _check=check_eig),
    case("linalg.eigvals", A, _check=check_eigvals),
    case("linalg.solve", A, B, _rtol=1e-6),
    case("linalg.solve", A, BV, _rtol=1e-6),
    case("linalg.solve", A32, B.astype("float32")),
    case("linalg.solve", BATCH, rng.standard_normal((2, 3, 2)), _rtol=1e-6),
    case("linalg.solve", AC, rng.standard_normal(3) + 0j, _rtol=1e-6),
    case("linalg.inv", A, _rtol=1e-6),
    case("linalg.inv", A32),
    case("linalg.inv", BATCH, _rtol=1e-6),
    case("linalg.inv", AC, _rtol=1e-6),
    case("linalg.pinv", TALL, _rtol=1e-6),
    case("linalg.pinv", WIDE, _rtol=1e-6),
    case("linalg.pinv", RANK2, _rtol=1e-6, _atol=1e-8),
    case("linalg.det", A, _rtol=1e-6),
    case("linalg.det", BATCH, _rtol=1e-6),
    case("linalg.det", A32),
    case("linalg.det", AC, _rtol=1e-6),
    case("linalg.slogdet", A, _check=check_slogdet),
    case("linalg.slogdet", -A, _check=check_slogdet),
    case("linalg.norm", V),
    case("linalg.norm", A),
    case("linalg.norm", A, "fro"),
    case("linalg.norm", A, ord="nuc", _rtol=1e-6),
    case("linalg.norm", A, ord=2, _rtol=1e-6),
    case("linalg.norm", A, ord=1),
    case("linalg.norm", A, ord=np.inf),
    case("linalg.norm", A, ord=-np.inf),
    case("linalg.norm", V, ord=1),
    case("linalg.norm", V, ord=np.inf),
    case("linalg.norm", V, ord=3),
    case("linalg.norm", V, ord=0),
    case("linalg.norm", A, axis=1),
    case("linalg.norm", A, axis=0, keepdims=True),
    case("linalg.norm", A, ord=1, axis=1),
    case("linalg.norm", T3, axis=(1, 2)),
    case("linalg.norm", T3, axis=-1, keepdims=True),
    case("linalg.norm", A, keepdims=True),
    case("linalg.norm", AC),
    case("linalg.norm", A32),
    case("linalg.cholesky", SPD, _rtol=1e-6),
    case("linalg.lstsq", TALL, rng.standard_normal(5), _check=check_lstsq),
    case("linalg.lstsq", TALL, rng.standard_normal((5, 2)), rcond=None, _check=check_lstsq),
    case("linalg.matrix_rank", A),
    case("linalg.matrix_rank", RANK2),
    case("linalg.matrix_rank", np.zeros((3, 3))),
    case("linalg.matrix_power", A, 3, _rtol=1e-6),
    case("linalg.matrix_power", A, 0),
    case("linalg.matrix_power", A, 1),
    case("linalg.matrix_power", A, -2, _rtol=1e-6),
    case("linalg.matrix_power", AI, 2),
    case("linalg.expm", SMALL, _ref=scipy.linalg.expm, _rtol=1e-6),
    case("linalg.expm", A / 4, _ref=scipy.linalg.expm, _rtol=1e-6),
    case("scipy.linalg.expm", SMALL, _rtol=1e-6),
    case("linalg.lu", A, _check=check_lu),
    case("linalg.householder_product", REFLECTORS, TAU, _ref=lambda h, t: np.linalg.qr(TALL)[0]),
    case("scipy.linalg.lu", A, _check=check_lu),
    case("scipy.linalg.lu_factor", A, _dtype="kind", _rtol=1e-6),
    case("linalg.tensorinv", T24.reshape(4, 6, 8, 3), _rtol=1e-6),
    case("linalg.tensorinv", T24.reshape(24, 4, 6), ind=1, _rtol=1e-6),
    case("linalg.tensorinv", A, ind=1, _rtol=1e-6),
    case("linalg.tensorsolve", T24.reshape(6, 4, 2, 3, 4), rng.standard_normal((6, 4)), _rtol=1e-6),
    case("linalg.tensorsolve", T24.reshape(6, 4, 2, 3, 4), rng.standard_normal((2, 3, 4)),
         axes=(0, 1), _rtol=1e-6),
    case("linalg.tensorsolve", A, BV, _rtol=1e-6),
    case("scipy.linalg.solve_triangular", LOW, B, lower=True, _rtol=1e-6),
    case("scipy.linalg.solve_triangular", UP, B, _rtol=1e-6),
    case("scipy.linalg.solve_triangular", UP, BV, lower=False, _rtol=1e-6),
    case("scipy.linalg.solve_triangular", LOW, B, lower=True, unit_diagonal=True, _rtol=1e-6),
    case("scipy.linalg.solve_triangular", LOW, B, lower=True, trans=1, _rtol=1e-6),
    case("scipy.linalg.solve_triangular", UP, BV, trans="T", _rtol=1e-6),
    case("einsum", "ij,jk->ik", A, B),
    case("einsum", "ij,jk", A, B),
    case("einsum", "ii->", A),
    case("einsum", "ii", A),
    case("einsum", "ij->ji", A),
    case("einsum", "ij->", A),
    case("einsum", "i,i->", V, V),
    case("einsum", "i,j->ij", V, U),
    case("einsum", "bij,bjk->bik", BATCH, BATCH),
    case("einsum", "...ij,...jk->...ik", BATCH, BATCH),
    case("einsum", "...ij,...jk", BATCH, BATCH),  # numpy's implicit output: "...ik"
    case("einsum", "ijk,jkl->il", T3, T4),
    case("einsum", "ij,jk,kl->il", A, A, B),
    # numpy's interleaved form: each operand followed by its axes' labels, then the output's
    case("einsum", T3, [0, 1, 2], T4, [1, 2, 3], [0, 3]),
    case("einsum", BATCH, [Ellipsis, 1, 2], BATCH, [Ellipsis, 2, 3]),
    case("tensordot", T3, T4),
    case("tensordot", T3, T4, axes=2),
    case("tensordot", A, B, axes=1),
    case("tensordot", A, B, 1),
    case("tensordot", V, V, axes=0),
    case("tensordot", T3, T4, axes=([1], [0])),
    case("tensordot", T3, T4, axes=([1, 2], [0, 1])),
    case("tensordot", A, A, axes=([1, 0], [0, 1])),
    case("tensordot", A, A, axes=[[0], [1]]),
    case("vecdot", A, rng.standard_normal((3, 1, 4))),
    case("vecdot", T3, rng.standard_normal(4)),
    case("vecdot", T3, rng.standard_normal((4, 3)), axis=1),
    case("vecdot", A32, A32, axis=0),
    case("vecdot", AC, AC[::-1]),
    case("vecdot", AI, AI, axis=-2),
    case("vecdot", V, V),
    case("matvec", A, V),
    case("matvec", BATCH, rng.standard_normal((4, 1, 3))),
    case("matvec", A32, V.astype("float32")),
    case("matvec", AC, AC[0]),
    case("matvec", AI, AI),
    case("matvec", WIDE, rng.standard_normal(5)),
    case("vecmat", V, A),
    case("vecmat", rng.standard_normal((4, 1, 3)), BATCH),
    case("vecmat", V.astype("float32"), A32),
    case("vecmat", AC[0], AC),
    case("vecmat", AI, AI),
    case("vecmat", U, WIDE),
    case("matmul", A, B),
    case("matmul", BATCH, BATCH),
    case("matmul", BATCH, rng.standard_normal((3, 2))),
    case("matmul", V, A),
    case("matmul", A, V),
    case("matmul", V, V),
    case("matmul", AI, AI),
    case("matmul", A32, B.astype("float32")),
    case("matmul", AC, AC),
    case("dot", V, V),
    case("dot", A, B),
    case("dot", A, V),
    case("dot", V, A),
    case("dot", A, 2.0),
    case("dot", T3, rng.standard_normal((4, 2))),
    case("outer", V, U),
    case("outer", A, U),
    case("kron", A[:2, :2], B[:2]),
    case("kron", V, U),
    case("kron", AI, AI[:2, :2]),
]

# numpy 2's linalg names of the array API (matrix axes last, keyword-only options)
_rng = np.random.default_rng(51)  # its own stream: the constants below keep their values
CASES += [
    case("linalg.matrix_transpose", T3),
    case("linalg.matrix_transpose", WIDE),
    case("linalg.matrix_transpose", AI),
    case("linalg.matrix_transpose", AC),
    case("linalg.outer", V, U),
    case("linalg.outer", AI[0], AI[1]),
    case("linalg.outer", AC[0], U),
    case("linalg.outer", V.astype("float32"), U.astype("float32")),
    case("linalg.tensordot", T3, T4),
    case("linalg.tensordot", A, B, axes=1),
    case("linalg.tensordot", T3, T4, axes=([1, 2], [0, 1])),
    case("linalg.tensordot", AI, AI),
    case("linalg.tensordot", AC, AC, axes=0),
    case("linalg.trace", A),
    case("linalg.trace", BATCH),
    case("linalg.trace", BATCH, offset=1),
    case("linalg.trace", T3, offset=-1),
    case("linalg.trace", WIDE, offset=2),
    case("linalg.trace", AI),
    case("linalg.trace", AI.astype("int32")),
    case("linalg.trace", AI, dtype="float64"),
    case("linalg.trace", A32, dtype="float64"),
    case("linalg.trace", AC),
    case("linalg.vecdot", A, _rng.standard_normal((3, 1, 4))),
    case("linalg.vecdot", T3, _rng.standard_normal((4, 3)), axis=1),
    case("linalg.vecdot", A32, A32, axis=0),
    case("linalg.vecdot", AC, AC[::-1]),
    case("linalg.vecdot", AI, AI, axis=-2),
    case("linalg.cross", T3[..., :3], _rng.standard_normal(3)),
    case("linalg.cross", _rng.standard_normal((3, 4)), _rng.standard_normal((3, 4)), axis=0),
    case("linalg.cross", AI, AI[::-1]),
    case("linalg.cross", A32[:3, :3], A32[1:, 1:]),
    case("linalg.cross", AC, AC.T),
    case("linalg.diagonal", A),
    case("linalg.diagonal", T3, offset=1),
    case("linalg.diagonal", BATCH, offset=-1),
    case("linalg.diagonal", AI, offset=-2),
    case("linalg.diagonal", WIDE, offset=4),
    case("linalg.matmul", A, B),
    case("linalg.matmul", BATCH, BATCH),
    case("linalg.matmul", V, A),
    case("linalg.matmul", AI, AI),
    case("linalg.matmul", AC, AC),
    case("linalg.vector_norm", A),
    case("linalg.vector_norm", A, axis=0),
    case("linalg.vector_norm", T3, axis=(0, 2)),
    case("linalg.vector_norm", T3, axis=(2, 0), keepdims=True),
    case("linalg.vector_norm", T3, keepdims=True),
    case("linalg.vector_norm", V, ord=1),
    case("linalg.vector_norm", V, ord=np.inf),
    case("linalg.vector_norm", A, axis=1, ord=-np.inf),
    case("linalg.vector_norm", A, axis=-1, ord=0),
    case("linalg.vector_norm", T3, axis=1, ord=3, keepdims=True),
    case("linalg.vector_norm", AI),
    case("linalg.vector_norm", AC, axis=1),
    case("linalg.vector_norm", A32, axis=-1),
    case("linalg.matrix_norm", A),
    case("linalg.matrix_norm", BATCH, ord=1),
    case("linalg.matrix_norm", BATCH, ord=-1, keepdims=True),
    case("linalg.matrix_norm", A, ord=np.inf),
    case("linalg.matrix_norm", WIDE, ord=-np.inf),
    case("linalg.matrix_norm", A, ord=2, _rtol=1e-6),
    case("linalg.matrix_norm", T3, ord=-2, _rtol=1e-6),
    case("linalg.matrix_norm", A, ord="nuc", _rtol=1e-6),
    case("linalg.matrix_norm", BATCH, keepdims=True),
    case("linalg.matrix_norm", AI),
    case("linalg.matrix_norm", AC),
    case("linalg.matrix_norm", A32),
]


# singular values, condition numbers, LU solves from lu_factor
SING = np.array([[1.0, 0.0], [0.0, 0.0]])  # exactly singular: cond is inf
LU_PIV = scipy.linalg.lu_factor(A)
LU_PIV_C = scipy.linalg.lu_factor(AC)
LU_PIV_32 = scipy.linalg.lu_factor(A32)
CASES += [
    case("linalg.svdvals", A, _rtol=1e-6),
    case("linalg.svdvals", TALL, _rtol=1e-6),
    case("linalg.svdvals", WIDE, _rtol=1e-6),
    case("linalg.svdvals", BATCH, _rtol=1e-6),
    case("linalg.svdvals", AC, _rtol=1e-6),
    case("linalg.svdvals", A32),
    *[case("linalg.cond", A, p, _rtol=1e-6) for p in (None, 2, -2, "fro", "nuc", 1, -1)],
    case("linalg.cond", A, np.inf, _rtol=1e-6),
    case("linalg.cond", A, -np.inf, _rtol=1e-6),
    case("linalg.cond", TALL, _rtol=1e-6),
    case("linalg.cond", BATCH, _rtol=1e-6),
    case("linalg.cond", BATCH, "fro", _rtol=1e-6),
    case("linalg.cond", AC, _rtol=1e-6),
    case("linalg.cond", A32),
    case("linalg.cond", SING),
    case("linalg.cond", np.zeros((2, 2))),
    case("scipy.linalg.lu_solve", LU_PIV, B, _rtol=1e-6),
    case("scipy.linalg.lu_solve", LU_PIV, BV, _rtol=1e-6),
    case("scipy.linalg.lu_solve", LU_PIV, B, trans=1, _rtol=1e-6),
    case("scipy.linalg.lu_solve", LU_PIV, BV, 2, _rtol=1e-6),
    case("scipy.linalg.lu_solve", LU_PIV_C, AC[:, :2], _rtol=1e-6),
    case("scipy.linalg.lu_solve", LU_PIV_C, AC[:, 0], trans=2, _rtol=1e-6),
    case("scipy.linalg.lu_solve", LU_PIV_C, AC[:, 0], trans=1, _rtol=1e-6),
    case("scipy.linalg.lu_solve", LU_PIV_32, B.astype("float32")),
    case("scipy.linalg.lu_solve", LU_PIV, AI[:, :2].repeat(2, 0)[:4], _rtol=1e-6),
    # lu_solve's factors are packed: each triangular solve reads one triangle of A
    case("scipy.linalg.solve_triangular", A, B, lower=True, _rtol=1e-6),
    case("scipy.linalg.solve_triangular", A, BV, unit_diagonal=True, _rtol=1e-6),
]

@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_linalg(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)


@pytest.mark.parametrize("name", ["scipy.linalg.cho_factor"])
def test_cho_factor_solve(name, backend):
    """cho_factor gives a pair that cho_solve accepts (the other triangle is unspecified)."""
    from conftest import to_backend, to_np

    from dispatch import do

    a = to_backend(SPD, backend)
    b = to_backend(B, backend)
    for lower in (False, True):
        c_and_lower = do("scipy.linalg.cho_factor", a, lower=lower)
        assert len(c_and_lower) == 2
        x = do("scipy.linalg.cho_solve", c_and_lower, b)
        assert_close(to_np(x), np.linalg.solve(SPD, B), rtol=1e-6)
        low = np.tril(to_np(c_and_lower[0])) if lower else np.triu(to_np(c_and_lower[0])).T
        assert_close(low @ low.T, SPD, rtol=1e-6)
    assert_close(to_np(a), SPD)


@pytest.mark.parametrize("name", ["linalg.qr"])
def test_qr_named_fields(name, backend):
    """Results unpack in numpy's order; where named, the names are numpy's."""
    from conftest import to_backend

    from dispatch import do

    res = do("linalg.qr", to_backend(A, backend))
    _q, _r = res
    if hasattr(res, "_fields"):
        assert tuple(res._fields) == ("Q", "R")
