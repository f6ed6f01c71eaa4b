"""The jax table's entries for the backend method list: native kernels against numpy
references and the composed fallbacks, derivatives against finite differences, and
the entries inside ``jax.jit`` and ``jit_compile``."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

from conftest import assert_close  # noqa: E402
from dispatch.translations._composed import control, fft, indexing, signal, statistics  # noqa: E402

from dispatch import do  # noqa: E402

rng = np.random.default_rng(5)


def J(x, dtype=None):
    return jnp.asarray(np.asarray(x), dtype=dtype)


def N(x):
    return np.asarray(x)


def close(a, b, tol=None):
    """Same dtype and values; the tolerance of the dtype (float64: 1e-12) unless a
    call site gives a wider one with its reason (finite differences...)."""
    assert_close(N(a), N(b), dtype="exact", rtol=tol, atol=tol)


def fd_grad(f, x, eps=1e-3):
    """Central finite differences of a scalar numpy function."""
    x = np.asarray(x, float)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


# ---------------------------------------------------------------- indexing, counting


@pytest.mark.parametrize("mode", ["update", "add", "max", "min"])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_scatter_matches_composed_and_jit(mode, dtype):
    base = rng.integers(-5, 5, (2, 5, 3, 2)).astype(dtype)
    idx = rng.integers(0, 3, (1, 7, 2))
    idx[0, 1] = idx[0, 0]  # a duplicate
    vals = rng.integers(-9, 9, (2, 7, 1)).astype(dtype)
    base_copy = base.copy()
    expected = indexing.scatter(base, idx, vals, mode)
    got = do("scatter", J(base), J(idx), J(vals), mode)
    if mode == "update":  # which duplicate wins is unspecified: compare elsewhere
        keep = np.ones(expected.shape, bool)
        keep[:, idx[0, 0, 0], idx[0, 0, 1]] = False
        np.testing.assert_array_equal(N(got)[keep], expected[keep])
    else:
        np.testing.assert_array_equal(N(got), expected)
    jitted = jax.jit(lambda b, i, v: do("scatter", b, i, v, mode))(J(base), J(idx), J(vals))
    np.testing.assert_array_equal(N(jitted), N(got))
    np.testing.assert_array_equal(base, base_copy)


def test_bincount_gather_histogram_searchsorted():
    x = rng.integers(0, 6, 50)
    w = rng.random(50).astype("float32")
    # the method keeps the weights' dtype (float32 on every backend, numpy included)
    close(do("bincount_fixed", J(x), J(w), 8), np.bincount(x, w, minlength=8).astype(w.dtype))
    np.testing.assert_array_equal(N(do("bincount_fixed", J(x), None, 4)),
                                  np.bincount(x, minlength=8)[:4])
    srt = np.sort(x)
    close(jax.jit(lambda a: do("bincount_fixed", a, None, 6, True))(J(srt)),
          np.bincount(srt, minlength=6))
    v = rng.random((3, 4))
    np.testing.assert_array_equal(N(do("gather", J(v), J([2, -1]), 1)), v[:, [2, -1]])
    vals = rng.random((2, 30)) * 3
    vals[0, 0] = 3.0  # on the closed last edge
    edges = np.array([[0.0, 1.0, 2.0, 3.0]])
    wts = rng.random((1, 30))
    expected = np.stack([np.histogram(vals[b], edges[0], weights=wts[0])[0] for b in range(2)])
    close(do("histogram1d", J(vals), J(wts), J(edges)), expected)
    close(jax.jit(lambda a, e: do("histogram1d", a, None, e))(J(vals), J(edges)),
          statistics.histogram1d(vals, None, edges))
    seq = np.sort(rng.random((3, 5)), -1)
    q = rng.random((3, 4))
    np.testing.assert_array_equal(
        N(jax.jit(lambda s, t: do("searchsorted_batched", s, t, "right"))(J(seq), J(q))),
        np.stack([np.searchsorted(seq[i], q[i], "right") for i in range(3)]))


def test_nonzero_static_and_boolean_mask_under_jit():
    x = np.array([0, 3, 0, 1, 2])
    out = jax.jit(lambda a: do("nonzero_static", a, 4))(J(x))
    np.testing.assert_array_equal(N(out), indexing.nonzero_static(x, 4))
    m = np.array([True, False, True, True, False])
    out = jax.jit(lambda a, b: do("boolean_mask", a, b, 0, 3))(J(x), J(m))
    np.testing.assert_array_equal(N(out), x[m])


# ---------------------------------------------------------------- sparse


def test_sparse_constructors_and_products():
    from jax.experimental import sparse as jsparse

    dense = np.array([[1.0, 0, 2], [0, 0, 3], [4, 5, 0]], "float32")
    rows, cols = np.nonzero(dense)
    coo = do("sparse_coo_tensor", np.stack([rows, cols], -1), J(dense[rows, cols]), (3, 3),
             like="jax")
    assert isinstance(coo, jsparse.BCOO)
    import scipy.sparse as sp

    csr_ref, csc_ref = sp.csr_matrix(dense), sp.csc_matrix(dense)
    csr = do("csr_matrix", J(csr_ref.indices), J(csr_ref.indptr), J(csr_ref.data), (3, 3))
    csc = do("csc_matrix", J(csc_ref.indptr), J(csc_ref.indices), J(csc_ref.data), (3, 3))
    for m, fmt in ((coo, "coo"), (csr, "csr"), (csc, "csc")):
        assert do("is_sparse", m)
        assert do("get_sparse_format", m) == fmt
        close(m.todense(), dense)
        assert (do("numpy", m) != sp.csr_matrix(dense)).nnz == 0
        assemble, parts = do("disassemble", m)
        close(assemble("numpy", *[N(p) for p in parts]).toarray(), dense)
    assert not do("is_sparse", J(dense))
    assert do("get_sparse_format", J(dense)) == "dense"
    b = rng.random((4, 3)).astype("float32")
    close(do("mul_matrix_batched_vector", coo, J(b)), b @ dense.T)
    close(jax.jit(lambda v: do("mul_matrix_batched_vector", coo, v))(J(b[:1])), b[:1] @ dense.T)
    hybrid = do("sparse_coo_tensor", J([[0, 1], [2, 2]]), J(np.ones((2, 3))), (3, 3))
    assert hybrid.shape == (3, 3, 3)


# ---------------------------------------------------------------- fft, conv


def test_fft_axes():
    x = rng.random((2, 4, 3)).astype("float32")
    k = do("fft_axes", J(x), (1, 2))
    assert k.dtype == jnp.complex64
    close(k, np.fft.fftn(x, axes=(1, 2)), 1e-4)
    close(do("ifft_axes", k, (1, 2)).real, x, 1e-5)
    close(jax.jit(lambda a: do("fft_axes", a, (1,)))(J(x)), fft.fft_axes(x, (1,)), 1e-4)


@pytest.mark.parametrize("zero_padding", [True, False])
@pytest.mark.parametrize("strides", [1, 2])
def test_conv_matches_composed(zero_padding, strides):
    x = rng.random((2, 3, 7, 6)).astype("float32")
    for kb in (1, 2):
        k = rng.random((kb, 4, 3, 3, 2)).astype("float32")
        expected = signal.conv(x, k, strides, None, False, zero_padding)
        got = do("conv", J(x), J(k), strides, None, False, zero_padding)
        close(got, expected, 1e-4)
        jitted = jax.jit(lambda a, b: do("conv", a, b, strides, None, False, zero_padding))
        close(jitted(J(x), J(k)), expected, 1e-4)


# ---------------------------------------------------------------- autodiff, jit


def test_jacobian_and_gradient_against_finite_differences():
    x = rng.random(3)
    y = rng.random(3)

    def f(a, b):
        return jnp.sin(a) * b**2, a

    out, (ja, jb) = do("jacobian", f, wrt=(0, 1), like="jax")(J(x), J(y))
    close(out[0], np.sin(x) * y**2)
    close(ja, np.diag(np.cos(x) * y**2))
    close(jb, np.diag(2 * np.sin(x) * y))
    g = do("gradient", lambda a: jnp.sum(a**3), like="jax")(J(x))
    assert isinstance(g, tuple)
    assert len(g) == 1
    close(g[0], fd_grad(lambda a: np.sum(a**3), x), 1e-3)
    out, g1 = do("gradient", lambda a: (jnp.sum(a**3), a), wrt=0, get_output=True,
                 like="jax")(J(x))
    close(g1, 3 * x**2, 1e-5)
    close(do("gradient", lambda a: jnp.sum(a * a), wrt=0, like="jax")(J([1, 2])),
          np.array([2.0, 4.0]))
    # numpy's gradient keeps its name
    close(do("gradient", J([1.0, 4.0, 9.0])), np.gradient([1.0, 4.0, 9.0]))
    jg = do("jit_compile_grad", lambda a: jnp.sum(a**3), 0, False, True, like="jax")
    close(jg(J(x)), 3 * x**2, 1e-5)


def test_hessian_per_batch_entry():
    x = rng.random((2, 3))

    def f(a):
        return jnp.sum(a**3, axis=1) + a[:, 0] * a[:, 1]

    out, g, h = do("hessian", f, wrt=0, like="jax")(J(x))
    expected = np.stack([np.diag(6 * x[b]) + np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]])
                         for b in range(2)])
    close(h, expected, 1e-4)
    close(g, 3 * x**2 + x[:, [1, 0, 2]] * np.array([1, 1, 0]), 1e-4)
    close(out, N(f(J(x))))
    (h2,) = do("jit_compile_hessian", f, 0, False, False, like="jax")(J(x))
    close(h2, expected, 1e-4)


def test_custom_gradient_and_stop_gradient():
    def f(x):
        return jnp.sin(x)

    def grad(x, y, dy):
        return (dy * 10.0,)

    cf = do("custom_gradient", f, grad, like="jax")
    x = J([0.1, 0.2])
    close(cf(x), np.sin([0.1, 0.2]))
    close(jax.grad(lambda a: cf(a).sum())(x), [10.0, 10.0])
    close(jax.jit(jax.grad(lambda a: cf(a).sum()))(x), [10.0, 10.0])
    close(jax.grad(lambda a: jnp.sum(do("stop_gradient", a) * a))(x), N(x))


def test_jit_compile_static_and_numpy_constants():
    calls = []

    def f(x, n, c):
        calls.append(1)
        return jnp.tile(x, n) * c

    jf = do("jit_compile", f, like="jax")
    c = np.array([2.0])
    close(jf(J([1.0, 2.0]), 2, c), np.array([2.0, 4.0, 2.0, 4.0]))
    close(jf(J([3.0, 4.0]), 2, c), np.array([6.0, 8.0, 6.0, 8.0]))
    assert len(calls) == 1  # traced once, with n and c static
    close(jf(J([1.0, 2.0]), 1, np.array([3.0])), np.array([3.0, 6.0]))
    assert len(calls) == 2
    assert do("jit_compile", jf, like="jax") is jf


# ---------------------------------------------------------------- control flow, host


def test_while_loop_matches_composed():
    def step(go, x):
        return x + 1 < 5, x + 1

    init = (np.array([True]), np.array([0]))
    for max_iter in (None, 3, [0, 1, 7]):
        expected = control.while_loop(step, init, max_iter)
        got = do("while_loop", step, tuple(J(v) for v in init), max_iter)
        for e, g in zip(expected, got, strict=True):
            np.testing.assert_array_equal(N(g), e)
    jitted = jax.jit(lambda x: do("while_loop", step, (x > -1, x), [1, 2, 9]))(J([0, 3]))
    x = np.array([0, 3])
    expected = control.while_loop(step, (x > -1, x), [1, 2, 9])
    np.testing.assert_array_equal(N(jitted[1]), expected[1])  # [[1, 4], [2, 5], [5, 8]]


def test_vectorized_call_and_numpy_call():
    a, b = rng.random((4, 3)), rng.random((1, 3))
    close(do("vectorized_call", lambda u, v: u @ v, J(a), J(b)), a @ b[0])
    out = jax.jit(lambda u: do("vectorized_call", lambda p: (p.sum(), p * 2), u,
                               output_dtypes="float32"))(J(a))
    close(out[0], a.sum(1).astype("float32"))  # output_dtypes="float32"
    host = jax.jit(lambda u: do("numpy_call", np.cumsum, (3,), "float32", u))(J(a[0]))
    close(host, np.cumsum(a[0]).astype("float32"))
    two = do("numpy_call", lambda u, k: (u * k, u.sum()), [(3,), ()], ["float32", "float32"],
             J(a[0]), 2)
    close(two[0], (a[0] * 2).astype("float32"))
    assert do("block_until_ready", (J(a), 1)) is not None


def test_is_available_and_tracing_flags():
    assert do("is_available", J([1.0]))
    seen = []
    jax.jit(lambda x: seen.append(do("is_available", x)) or x)(J([1.0]))
    assert seen == [False]
    assert do("requires_fixed_shapes_when_tracing", like="jax") is True


# ---------------------------------------------------------------- random, devices


def test_random_reproducible():
    do("seed", 3, like="jax")
    a = do("random_normal", (2, 3), like="jax")
    p = do("random_permutations", 4, 5, like="jax")
    do("seed", 3, like="jax")
    np.testing.assert_array_equal(N(do("random_normal", (2, 3), like="jax")), N(a))
    np.testing.assert_array_equal(N(do("random_permutations", 4, 5, like="jax")), N(p))
    assert sorted(N(p)[0].tolist()) == list(range(5))
    u = do("random_uniform", (100,), 2, 3, like="jax")
    assert float(u.min()) >= 2
    assert float(u.max()) < 3


def test_devices_and_dlpack():
    devices = do("list_devices", like="jax")
    assert devices
    assert devices[0].backend == "jax"
    assert do("list_devices", "CPU", like="jax")
    x = J([1.0, 2.0])
    assert do("get_device", x) == do("get_default_device", like="jax")
    assert do("set_default_device", devices[0], like="jax")
    y = do("allocate_on_device", x, devices[0])
    close(y, x)
    assert do("get_peak_memory", like="jax") >= 0
    close(do("from_dlpack", do("to_dlpack", x), like="jax"), x)
    close(do("from_dlpack", np.arange(3.0), like="jax"), np.arange(3.0))
