"""cupy's quirks: device transfers, the random Generator, adapters. Needs a GPU."""

from __future__ import annotations

import numpy as np
import pytest

cupy = pytest.importorskip("cupy")
try:
    _DEVICES = cupy.cuda.runtime.getDeviceCount()
except Exception:  # no driver, no device
    _DEVICES = 0
if _DEVICES == 0:
    pytest.skip("cupy is installed but no GPU is available", allow_module_level=True)

scipy_linalg = pytest.importorskip("scipy.linalg")

from dispatch import do, infer_backend  # noqa: E402

RNG = np.random.default_rng(5)
A = RNG.standard_normal((4, 4))
SPD = A @ A.T + 4 * np.eye(4)
B = RNG.standard_normal((4, 2))


def gpu(x):
    return do("asarray", x, like="cupy")


def close(x, expected, **kw):
    np.testing.assert_allclose(do("to_numpy", x), expected, **kw)


def test_round_trip_and_inference():
    x = gpu(A)
    assert infer_backend(x) == "cupy"
    assert isinstance(do("to_numpy", x), np.ndarray)
    close(x, A)
    assert do("get_dtype_name", do("astype", x, "float32")) == "float32"


def test_to_device():
    x = gpu(A)
    assert do("to_device", x, 0) is x
    assert do("to_device", x, "cuda:0") is x
    with pytest.raises(ValueError, match="to_numpy"):
        do("to_device", x, "cpu")


def test_creation_takes_dtype_from_like():
    x = gpu(A.astype(np.float32))
    out = do("zeros", (2, 3), like=x)
    assert isinstance(out, cupy.ndarray)
    assert out.dtype == np.float32


def test_cholesky_upper_and_cho_solve():
    close(do("linalg.cholesky", gpu(SPD), upper=True), np.linalg.cholesky(SPD, upper=True))
    for lower in (True, False):
        fac = do("scipy.linalg.cho_factor", gpu(SPD), lower=lower)
        close(
            do("scipy.linalg.cho_solve", fac, gpu(B)),
            scipy_linalg.cho_solve(scipy_linalg.cho_factor(SPD, lower=lower), B),
            rtol=1e-6,
        )


def test_count_nonzero_keepdims():
    close(
        do("count_nonzero", gpu(A > 0), axis=1, keepdims=True),
        np.count_nonzero(A > 0, axis=1, keepdims=True),
    )


def test_scipy_names_resolve_to_cupyx():
    import scipy.special

    close(do("scipy.special.erf", gpu(A)), scipy.special.erf(A), rtol=1e-6)
    close(
        do("scipy.linalg.solve_triangular", gpu(np.tril(SPD)), gpu(B), lower=True),
        scipy_linalg.solve_triangular(np.tril(SPD), B, lower=True),
        rtol=1e-6,
    )


def test_random_seed_repeats_draws():
    do("random.seed", 11, like="cupy")
    a = do("random.normal", 1.0, 2.0, size=(5,), like="cupy")
    p = do("random.permutation", 6, like="cupy")
    do("random.seed", 11, like="cupy")
    close(do("random.normal", 1.0, 2.0, size=(5,), like="cupy"), do("to_numpy", a))
    close(do("random.permutation", 6, like="cupy"), do("to_numpy", p))
    assert sorted(do("to_numpy", p)) == list(range(6))
    assert do("random.uniform", size=3, dtype="float32", like="cupy").dtype == np.float32
    g = do("random.default_rng", 0, like="cupy")
    assert isinstance(g.normal(size=2), cupy.ndarray)
    assert do("to_numpy", g.choice(5, 5, replace=False)).tolist().count(0) == 1
