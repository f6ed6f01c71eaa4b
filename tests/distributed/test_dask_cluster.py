"""The same ``do`` code on a dask.distributed cluster (worker processes on this machine).

A ``LocalCluster`` of two single-threaded worker processes is started once for
the module; its ``Client`` is the default scheduler while it is open. Two
array-agnostic algorithms written only with ``do`` run on chunked dask arrays
through it: conjugate gradients (dispatch's ``conjugate_gradient`` and a
user's own CG) and a histogram counted with a scatter-add. Results are lazy
dask arrays until computed, the task stream shows the cluster's workers ran
the tasks, and the values match numpy.
"""

from __future__ import annotations

import logging
import os
from typing import Any

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import dask  # noqa: E402

from dispatch import do  # noqa: E402

N, CHUNK = 40, 20  # 2 x 2 blocks, vectors in 2 chunks
rng = np.random.default_rng(11)
_Q = np.linalg.qr(rng.standard_normal((N, 3)))[0]
# SPD with 4 distinct eigenvalues (2, 3, 4.5, 6): CG converges in 4 steps. Each
# convergence check recomputes the lazy history of x from the inputs, so the
# cost of a dask solve grows with the square of the iteration count.
SPD = 2 * np.eye(N) + _Q @ np.diag([1.0, 2.5, 4.0]) @ _Q.T
RHS = rng.standard_normal(N)
SAMPLES = rng.standard_normal(4000)
WEIGHTS = rng.uniform(0.5, 2.0, 4000)


@pytest.fixture(scope="module")
def client():
    """Two worker processes, one thread each, no dashboard, random ports."""
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        host="127.0.0.1",
        silence_logs=logging.ERROR,
    )
    with cluster, distributed.Client(cluster) as c:
        yield c


def on_cluster(client, fn, *args: Any) -> Any:
    """``fn(*args)`` with the cluster's task stream recorded; asserts its workers ran tasks."""
    workers = set(client.scheduler_info()["workers"])
    pids = client.run(os.getpid)
    assert set(pids) == workers
    assert os.getpid() not in pids.values()  # separate processes, not threads of this one
    with distributed.get_task_stream(client) as stream:
        out = fn(*args)
    ran = {t["worker"] for t in stream.data}
    assert stream.data, "the cluster ran no task"
    assert ran <= workers
    return out


def chunked(x: np.ndarray, chunks: int = CHUNK) -> Any:
    return da.from_array(x, chunks=chunks)


# ---------------------------------------------------------------- user code: do only


def cg(A: Any, b: Any, rtol: float = 1e-10, max_iter: int = 200) -> tuple[Any, int]:
    """Conjugate gradients for a symmetric positive definite ``A``, any library."""
    x = do("zeros_like", b)
    r = b - do("matmul", A, x)
    p = r
    rr = do("vdot", r, r)
    stop = rtol**2 * do("to_numpy", do("vdot", b, b))
    for i in range(max_iter):
        if do("to_numpy", rr) <= stop:  # the only gather: one scalar per iteration
            return x, i
        q = do("matmul", A, p)
        alpha = rr / do("vdot", p, q)
        x = x + alpha * p
        r = r - alpha * q
        rr, rr_old = do("vdot", r, r), rr
        p = r + (rr / rr_old) * p
    return x, max_iter


def histogram(values: Any, lo: float, hi: float, bins: int, weights: Any = None) -> Any:
    """``numpy.histogram(values, bins, (lo, hi), weights=weights)[0]`` by a scatter-add."""
    w = do("ones_like", values) if weights is None else weights
    slot = do("astype", do("floor", (values - lo) * (bins / (hi - lo))), "int64")
    inside = (slot >= 0) & (values <= hi)
    slot = do("clip", slot, 0, bins - 1)  # the right edge belongs to the last bin
    w = do("where", inside, w, do("zeros_like", w))
    return do("scatter_nd_scalar", do("zeros", (bins,), like=w), slot[:, None], w, "add")


# ---------------------------------------------------------------- tests


def test_client_is_the_default_scheduler(client):
    assert dask.base.get_scheduler() == client.get
    assert len(client.scheduler_info()["workers"]) == 2


def test_dispatch_conjugate_gradient_on_cluster(client):
    A, y = chunked(SPD), chunked(RHS)
    res = on_cluster(client, do, "conjugate_gradient", A, y, None, 1e-10)
    assert isinstance(res.x, da.Array)  # the solution stays distributed
    assert res.x.numblocks == (2,)
    assert bool(res.converged.compute())
    x = on_cluster(client, res.x.compute)
    assert isinstance(x, np.ndarray)
    np.testing.assert_allclose(x, np.linalg.solve(SPD, RHS), rtol=1e-8, atol=1e-10)


def test_users_own_cg_on_cluster(client):
    x, steps = on_cluster(client, cg, chunked(SPD), chunked(RHS))
    assert isinstance(x, da.Array)
    assert 0 < steps <= 6
    expected = np.linalg.solve(SPD, RHS)
    np.testing.assert_allclose(on_cluster(client, x.compute), expected, rtol=1e-8, atol=1e-10)
    x_np, steps_np = cg(SPD, RHS)  # the same function on numpy
    assert isinstance(x_np, np.ndarray)
    assert abs(steps - steps_np) <= 1
    np.testing.assert_allclose(x_np, expected, rtol=1e-8, atol=1e-10)


def test_scatter_histogram_on_cluster(client):
    values, weights = chunked(SAMPLES, 1000), chunked(WEIGHTS, 1000)
    counts = histogram(values, -3.0, 3.0, 12)
    weighted = histogram(values, -3.0, 3.0, 12, weights)
    assert isinstance(counts, da.Array)  # nothing computed yet
    assert isinstance(weighted, da.Array)
    counts, weighted = on_cluster(client, dask.compute, counts, weighted)
    np.testing.assert_array_equal(counts, np.histogram(SAMPLES, 12, (-3.0, 3.0))[0])
    ref = np.histogram(SAMPLES, 12, (-3.0, 3.0), weights=WEIGHTS)[0]
    np.testing.assert_allclose(weighted, ref, rtol=1e-12)
    np.testing.assert_array_equal(histogram(SAMPLES, -3.0, 3.0, 12), counts)  # on numpy


def test_dispatch_histogram1d_on_cluster(client):
    values = chunked(SAMPLES, 1000)[None]
    edges = do("asarray", np.linspace(-3.0, 3.0, 13)[None], like=values)
    counts = do("histogram1d", values, None, edges)
    assert isinstance(counts, da.Array)
    out = on_cluster(client, counts.compute)
    np.testing.assert_array_equal(out[0], np.histogram(SAMPLES, 12, (-3.0, 3.0))[0])


def test_histogram1d_with_numpy_edges(client):
    # numpy bin edges are constants: the values stay distributed
    edges = np.linspace(-3.0, 3.0, 13)[None]
    counts = do("histogram1d", chunked(SAMPLES, 1000)[None], None, edges)
    assert isinstance(counts, da.Array)
    out = on_cluster(client, counts.compute)
    np.testing.assert_array_equal(out[0], np.histogram(SAMPLES, 12, (-3.0, 3.0))[0])
