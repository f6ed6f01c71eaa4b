"""keras.ops' celu, threshold, polar, view_as_real, view_as_complex, cholesky_inverse
and cdist on every array library, against float64 references written here from each
op's definition (one element, one pair of rows at a time with Python's ``math``), then
once against torch's native op of the same name as a cross-check.
"""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest
from conftest import to_backend, to_np, usable_backends

from dispatch import do

BACKENDS = [b for b in ("numpy", "torch", "jax", "tensorflow", "dask", "mlx", "paddle")
            if b in usable_backends()]
TOL = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-13)}
RNG = np.random.default_rng(11)
VALUES = np.array([[-30.0, -3.0, -1.0, -0.5, 0.0, 0.25], [0.5, 1.0, 2.5, 7.0, -0.01, 0.01]])


def _close(got, ref, dtype):
    rtol, atol = TOL[dtype]
    np.testing.assert_allclose(to_np(got), ref, rtol=rtol, atol=atol)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("alpha", [1.0, 0.5, 3.0])
def test_celu(backend, dtype, alpha):
    x = VALUES.astype(dtype)
    ref = np.vectorize(lambda v: v if v > 0 else alpha * math.expm1(v / alpha))(
        x.astype(float))
    got = do("celu", to_backend(x, backend), alpha=alpha)
    assert to_np(got).dtype == np.dtype(dtype)
    _close(got, ref, dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_threshold(backend, dtype):
    x = VALUES.astype(dtype)
    ref = np.vectorize(lambda v: v if v > 0.25 else -7.5)(x.astype(float))
    got = do("threshold", to_backend(x, backend), 0.25, -7.5)
    assert to_np(got).dtype == np.dtype(dtype)
    _close(got, ref, dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("dtype", "cdtype"), [("float32", "complex64"),
                                               ("float64", "complex128")])
def test_polar_and_the_real_views(backend, dtype, cdtype):
    r = np.abs(RNG.normal(size=(3, 4))).astype(dtype)
    a = RNG.uniform(-4, 4, size=(3, 4)).astype(dtype)
    ref = np.vectorize(lambda m, t: cmath.rect(m, t))(r.astype(float), a.astype(float))
    z = do("polar", to_backend(r, backend), to_backend(a, backend))
    assert to_np(z).dtype == np.dtype(cdtype)
    _close(z, ref, dtype)
    pairs = do("view_as_real", z)
    assert tuple(do("shape", pairs)) == (3, 4, 2)
    _close(pairs, np.stack([ref.real, ref.imag], axis=-1), dtype)
    back = do("view_as_complex", pairs)
    assert to_np(back).dtype == np.dtype(cdtype)
    _close(back, ref, dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse(backend, upper):
    m = RNG.normal(size=(2, 4, 4))
    a = m @ np.swapaxes(m, -1, -2) + 4 * np.eye(4)
    low = np.linalg.cholesky(a)
    factor = np.swapaxes(low, -1, -2) if upper else low
    got = do("cholesky_inverse", to_backend(factor, backend), upper=upper)
    # the reference: solve a x = I column by column, from the definition of the inverse
    _close(got, np.linalg.solve(a, np.broadcast_to(np.eye(4), a.shape)), "float32")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, math.inf])
def test_cdist(backend, p):
    x1 = RNG.normal(size=(2, 3, 5))
    x2 = RNG.normal(size=(2, 4, 5))
    x2[0, 1] = x1[0, 2]  # a zero distance

    def dist(u, v):
        d = [abs(a - b) for a, b in zip(u, v, strict=True)]
        if p == math.inf:
            return max(d)
        if p == 0:
            return float(sum(1 for e in d if e != 0))
        return sum(e ** p for e in d) ** (1 / p)

    ref = np.array([[[dist(x1[k, i], x2[k, j]) for j in range(4)] for i in range(3)]
                    for k in range(2)])
    got = do("cdist", to_backend(x1, backend), to_backend(x2, backend), p=p)
    _close(got, ref, "float64")


def test_against_torchs_own_ops():
    torch = pytest.importorskip("torch")
    x = torch.tensor(VALUES)
    np.testing.assert_allclose(to_np(do("celu", VALUES, alpha=0.7)),
                               torch.nn.functional.celu(x, alpha=0.7).numpy(), rtol=1e-12)
    np.testing.assert_allclose(to_np(do("threshold", VALUES, 0.25, -7.5)),
                               torch.threshold(x, 0.25, -7.5).numpy())
    r, a = np.abs(VALUES), VALUES
    np.testing.assert_allclose(to_np(do("polar", r, a)),
                               torch.polar(torch.tensor(r), torch.tensor(a)).numpy(),
                               rtol=1e-12, atol=1e-12)
    m = RNG.normal(size=(3, 3))
    low = np.linalg.cholesky(m @ m.T + np.eye(3))
    np.testing.assert_allclose(to_np(do("cholesky_inverse", low)),
                               torch.cholesky_inverse(torch.tensor(low)).numpy(), rtol=1e-10)
    x1, x2 = RNG.normal(size=(3, 5)), RNG.normal(size=(4, 5))
    np.testing.assert_allclose(to_np(do("cdist", x1, x2, p=1.5)),
                               torch.cdist(torch.tensor(x1), torch.tensor(x2), p=1.5).numpy(),
                               rtol=1e-10)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_inputs_raise(backend):
    x = to_backend(VALUES, backend)
    with pytest.raises(ValueError, match="alpha must not be 0"):
        do("celu", x, alpha=0.0)
    with pytest.raises(ValueError, match="last axis has length 2"):
        do("view_as_complex", x)
    with pytest.raises(TypeError, match="view_as_real takes a complex array"):
        do("view_as_real", x)
    with pytest.raises(ValueError, match="square matrices"):
        do("cholesky_inverse", x)
    with pytest.raises(ValueError, match="p must be non-negative"):
        do("cdist", x, x, p=-1.0)
