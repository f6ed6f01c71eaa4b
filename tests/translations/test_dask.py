"""dask's quirks: lazy results, chunk requirements met by rechunking, seeded draws."""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")
scipy_special = pytest.importorskip("scipy.special")

from dispatch import do  # noqa: E402

RNG = np.random.default_rng(42)
M = RNG.standard_normal((10, 6))
SQ = RNG.standard_normal((9, 9)) + 9 * np.eye(9)
SPD = SQ @ SQ.T


def _forbid(*args, **kwargs):
    raise AssertionError("a translation computed a dask graph")


@pytest.fixture
def no_compute():
    """Any compute() inside the block fails: translations must stay lazy."""
    with dask.config.set(scheduler=_forbid):
        yield


def chunked(x, chunks=4):
    return da.from_array(x, chunks=chunks)


def close(result, expected, **kw):
    np.testing.assert_allclose(do("to_numpy", result), expected, **kw)


# (name, args, kwargs, numpy reference) on arrays split into several chunks
LAZY = [
    ("sum", (M,), {"axis": 0}, np.sum),
    ("median", (M,), {}, np.median),
    ("sort", (M,), {"axis": 0}, np.sort),
    ("argsort", (M,), {}, np.argsort),
    ("take", (M, np.array([[0, 2], [1, 5]])), {"axis": 1}, np.take),
    ("take_along_axis", (M, np.argsort(M, axis=0)), {"axis": 0}, np.take_along_axis),
    ("reshape", (M,), {"shape": (4, 15)}, np.reshape),
    ("kron", (M[:3, :2], SQ[:2, :3]), {}, np.kron),
    ("count_nonzero", (M > 0,), {"axis": 1, "keepdims": True}, np.count_nonzero),
    ("fft.fft", (M,), {"axis": 0}, np.fft.fft),
    ("fft.rfftn", (M,), {}, np.fft.rfftn),
    ("linalg.solve", (SQ, M[:9]), {}, np.linalg.solve),
    ("linalg.inv", (SQ,), {}, np.linalg.inv),
    ("linalg.det", (SQ,), {}, np.linalg.det),
    ("linalg.cholesky", (SPD,), {}, np.linalg.cholesky),
    ("linalg.pinv", (M,), {}, np.linalg.pinv),
    ("linalg.norm", (M,), {"ord": 2}, np.linalg.norm),
    ("scipy.special.logsumexp", (M,), {"axis": 0}, scipy_special.logsumexp),
]


@pytest.mark.parametrize(("name", "args", "kwargs", "ref"), LAZY, ids=[c[0] for c in LAZY])
def test_multichunk_lazy_matches_numpy(name, args, kwargs, ref, no_compute):
    out = do(name, *(chunked(a) for a in args), **kwargs)
    assert isinstance(out, da.Array)
    with dask.config.set(scheduler="sync"):
        close(out, ref(*args, **kwargs), atol=1e-10)


@pytest.mark.parametrize("shape", [(10, 6), (6, 10), (9, 9)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_qr_svd_any_chunks(shape, full_matrices):
    a = RNG.standard_normal(shape)
    x = chunked(a, 4)
    u, s, vh = do("linalg.svd", x, full_matrices=full_matrices)
    eu, es, evh = np.linalg.svd(a, full_matrices=full_matrices)
    assert (u.shape, s.shape, vh.shape) == (eu.shape, es.shape, evh.shape)
    k = len(es)
    close((u[:, :k] * s) @ vh[:k], a, atol=1e-10)
    close(s, es)
    mode = "complete" if full_matrices else "reduced"
    q, r = do("linalg.qr", x, mode=mode)
    eq, er = np.linalg.qr(a, mode=mode)
    assert (q.shape, r.shape) == (eq.shape, er.shape)
    close(q @ r, a, atol=1e-10)
    close(da.triu(r), do("to_numpy", r))


def test_complex_short_and_fat_qr():
    # dask's own short-and-fat QR is wrong for complex input over several blocks
    a = RNG.standard_normal((4, 9)) + 1j * RNG.standard_normal((4, 9))
    q, r = do("linalg.qr", chunked(a, 3))
    close(q @ r, a, atol=1e-10)


def test_det_of_singular_matrix_is_zero():
    # dask's blocked LU fails on singular diagonal blocks; det factors in one block
    assert do("to_numpy", do("linalg.det", chunked(np.ones((4, 4)), 2))) == 0
    sign, logdet = do("linalg.slogdet", chunked(np.ones((4, 4)), 2))
    assert do("to_numpy", sign) == 0
    assert np.isneginf(do("to_numpy", logdet))


def test_lstsq_rank_deficient_has_no_residuals():
    a = np.outer(RNG.standard_normal(8), RNG.standard_normal(3))
    b = RNG.standard_normal(8)
    x, res, rank, s = do("linalg.lstsq", chunked(a, 3), chunked(b, 3))
    ex, eres, erank, es = np.linalg.lstsq(a, b)
    close(x, ex, atol=1e-10)
    assert do("to_numpy", res).shape == eres.shape == (0,)
    assert do("to_numpy", rank) == erank
    close(s, es, atol=1e-10)


def test_stacked_matrices_stay_chunked_along_the_batch():
    b = RNG.standard_normal((6, 3, 3)) + 3 * np.eye(3)
    out = do("linalg.inv", da.from_array(b, chunks=(2, 3, 3)))
    assert out.numblocks == (3, 1, 1)
    close(out, np.linalg.inv(b))


def test_eye_wider_than_tall():
    # dask.array.eye(N, M) with M > N loses blocks: sliced from a square one
    close(do("eye", 3, 5, k=1, like="dask"), np.eye(3, 5, k=1))


@pytest.mark.parametrize("points", [[-2], [4, 2, 10], [-9, 3]])
def test_split_points_are_slice_bounds(points):
    # numpy's split points are Python slice bounds: a negative one counts from the end
    x = np.arange(24.0).reshape(4, 6)
    got = do("array_split", chunked(x, 2), points, axis=1)
    ref = np.array_split(x, points, axis=1)
    assert len(got) == len(ref)
    for g, r in zip(got, ref, strict=True):
        close(g, r)


def test_shape_with_unknown_chunks():
    x = chunked(np.arange(10.0), 3)
    y = x[x > 4.5]
    assert np.isnan(y.shape[0])
    assert do("shape", y) == (5,)
    assert do("size", y) == 5
    assert np.isnan(y.shape[0])  # the input keeps its own (unknown) chunks


def test_numpy_constants_are_not_converted():
    bins = np.array([0.0, 0.5])
    out = do("digitize", chunked(np.linspace(0, 1, 5), 2), bins)
    close(out, np.digitize(np.linspace(0, 1, 5), bins))


def test_random_seed_repeats_draws():
    do("random.seed", 7, like="dask")
    a = do("random.normal", size=(5,), like="dask")
    b = do("random.integers", 0, 10, size=3, like="dask")
    do("random.seed", 7, like="dask")
    assert isinstance(a, da.Array)
    close(do("random.normal", size=(5,), like="dask"), do("to_numpy", a))
    close(do("random.integers", 0, 10, size=3, like="dask"), do("to_numpy", b))
    assert do("random.uniform", size=2, dtype="float32", like="dask").dtype == np.float32


def test_to_device():
    x = chunked(M)
    assert do("to_device", x, "cpu") is x
    with pytest.raises(ValueError, match="host"):
        do("to_device", x, "cuda")


def test_copy_is_a_distinct_array():
    x = chunked(M)
    y = do("copy", x)
    y[0, 0] = 100.0  # dask arrays support item assignment
    assert do("to_numpy", x)[0, 0] == M[0, 0]


@pytest.mark.parametrize("name", ["linalg.eig", "linalg.eigh", "linalg.expm"])
def test_unsupported_names_say_why(name):
    with pytest.raises(Exception, match="dask has no"):
        do(name, chunked(SPD))


@pytest.mark.parametrize(("start", "stop", "num"), [
    (0.0, 6.4913965932284536e16, 25), (0.1, 0.7, 7), (-3.3, 1e-300, 11), (2.5, -7.25, 4),
])
def test_linspace_ends_at_stop(start, stop, num):
    """numpy's last point is ``stop`` itself; dask's ``start + i * step`` may miss it."""
    out = do("linspace", start, stop, num, like="dask")
    expected = np.linspace(start, stop, num)
    got = out.compute()
    assert got[-1] == expected[-1] == stop
    np.testing.assert_allclose(got, expected, rtol=1e-15, atol=0)
    points, step = do("linspace", start, stop, num, retstep=True, like="dask")
    assert points.compute()[-1] == stop
    assert step == np.linspace(start, stop, num, retstep=True)[1]


@pytest.mark.parametrize(("shape", "repeats", "axis"), [
    ((0,), 2, None), ((2, 0), 3, 0), ((0, 3), 2, None), ((0, 3), np.array([1, 2, 0]), 1),
])
def test_repeat_of_an_empty_array(shape, repeats, axis):
    """dask's repeat concatenates no blocks of an empty array; numpy gives its shape."""
    x = np.zeros(shape, dtype=bool)
    out = do("repeat", da.from_array(x), repeats, axis=axis)
    expected = np.repeat(x, repeats, axis=axis)
    assert out.shape == expected.shape
    assert out.dtype == expected.dtype
    np.testing.assert_array_equal(out.compute(), expected)


def test_asarray_takes_dasks_chunks_for_data_and_for_a_dask_array():
    """``chunks=`` is dask's own keyword of ``asarray`` (docs/distributed.md): data is cut
    into those blocks, and a dask array is rechunked (never silently left as it was)."""
    x = np.arange(36.0).reshape(6, 6)
    a = do("asarray", x, like="dask", chunks=3)
    assert a.chunks == ((3, 3), (3, 3))
    b = do("asarray", a, chunks=2)
    assert b.chunks == ((2, 2, 2), (2, 2, 2))
    np.testing.assert_array_equal(b.compute(), x)
