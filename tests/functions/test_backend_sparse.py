"""Composed sparse kernels of the backend method list (COO/CSR given as index and
value arrays, batched) on every backend, against scipy.sparse."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import case, params

rng = np.random.default_rng(5)
SHAPE = (4, 6)
MATS = [sp.random(*SHAPE, density=0.4, format="csr", random_state=s) for s in (1, 2)]
MATS[1].data[0] = 0.0  # an explicitly stored zero
assert MATS[0].nnz == MATS[1].nnz  # a batch shares nnz
CSR = [(m.indices.astype(np.int64), m.indptr.astype(np.int64), m.data) for m in MATS]
COLS = np.stack([c for c, _, _ in CSR])
PTRS = np.stack([p for _, p, _ in CSR])
VALS = np.stack([v for _, _, v in CSR])[:, :, None]  # (batch, nnz, 1)
VALS2 = np.concatenate([VALS, 2 * VALS + 1], axis=-1)  # two channels
DENSE = rng.standard_normal((2, SHAPE[1], 2, 3))  # (batch, cols, channels, dense cols)


def ref_csr_to_coo(cols, ptrs):
    rows = np.stack([np.repeat(np.arange(p.size - 1), np.diff(p)) for p in ptrs])
    return np.stack([np.broadcast_to(rows, cols.shape), cols], -1)


def ref_coo_to_dense(indices, values, shape, contains_duplicates=True):
    batch = max(indices.shape[0], values.shape[0])
    out = np.zeros((batch, *shape, values.shape[-1]), values.dtype)
    for b in range(batch):
        idx = indices[min(b, indices.shape[0] - 1)]
        np.add.at(out[b], (idx[:, 0], idx[:, 1]), values[min(b, values.shape[0] - 1)])
    return out


def ref_csr_to_dense(cols, ptrs, values, shape, contains_duplicates=False):
    return ref_coo_to_dense(ref_csr_to_coo(cols, ptrs), values, shape)


def ref_mul_coo_dense(indices, values, shape, dense):
    mats = ref_coo_to_dense(indices, values, shape)  # (b, rows, cols, ch)
    batch = max(mats.shape[0], dense.shape[0])
    return np.stack([
        np.einsum("rkc,kcd->rcd", mats[min(b, mats.shape[0] - 1)],
                  dense[min(b, dense.shape[0] - 1)])
        for b in range(batch)
    ])


def ref_mul_csr_dense(cols, ptrs, values, shape, dense):
    return ref_mul_coo_dense(ref_csr_to_coo(cols, ptrs), values, shape, dense)


COO = ref_csr_to_coo(COLS, PTRS)
DUP = np.concatenate([COO, COO[:, :3]], axis=1)  # duplicates summed
DUP_VALS = np.concatenate([VALS2, VALS2[:, :3]], axis=1)

CASES = [
    case("csr_to_coo", COLS, PTRS, _ref=ref_csr_to_coo),
    case("csr_to_coo", COLS[:1], PTRS[:1].astype(np.int32), _ref=ref_csr_to_coo),
    case("csr_to_coo", COLS[:, :0], np.zeros((2, 5), np.int64), _ref=ref_csr_to_coo),
    case("coo_to_dense", COO, VALS, SHAPE, _ref=ref_coo_to_dense),
    case("coo_to_dense", DUP, DUP_VALS, SHAPE, True, _ref=ref_coo_to_dense),
    case("coo_to_dense", COO[:1], VALS2.astype(np.float32), SHAPE, _ref=ref_coo_to_dense),
    case("coo_to_dense", COO, VALS.astype(np.int64) + 1, SHAPE, _ref=ref_coo_to_dense),
    case("csr_to_dense", COLS, PTRS, VALS2, SHAPE, _ref=ref_csr_to_dense),
    case("mul_coo_dense", COO, VALS2, SHAPE, DENSE, _ref=ref_mul_coo_dense),
    case("mul_coo_dense", DUP, DUP_VALS, SHAPE, DENSE[:1], _ref=ref_mul_coo_dense),
    case("mul_coo_dense", COO[:1], VALS[:1], SHAPE, DENSE[:, :, :1], _ref=ref_mul_coo_dense),
    case("mul_csr_dense", COLS, PTRS, VALS2, SHAPE, DENSE, _ref=ref_mul_csr_dense),
    case("mul_csr_dense", COLS, PTRS, VALS.astype(np.float32), SHAPE,
         DENSE[:, :, :1].astype(np.float32), _ref=ref_mul_csr_dense),
]


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_matches_numpy(backend, name, c):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params([CASES[4], CASES[11]]))
def test_inputs_not_mutated(backend, name, c):
    c.run_not_mutated(backend)


def test_csr_to_dense_matches_scipy():
    from dispatch import do

    dense = do("csr_to_dense", COLS, PTRS, VALS, SHAPE)[..., 0]
    for b, m in enumerate(MATS):
        np.testing.assert_allclose(dense[b], m.toarray())
