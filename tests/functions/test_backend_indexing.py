"""Indexing methods of the backend method list (gather, scatter, masks, index
arithmetic) on every backend, against numpy references written with loops."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from conftest import assert_close, case, params, to_backend, to_np

from dispatch import do

rng = np.random.default_rng(7)


# ---------------------------------------------------------------- references


def ref_scatter(base, indices, values, mode="update"):
    batch = max(base.shape[0], indices.shape[0], values.shape[0])
    out = np.array(np.broadcast_to(base, (batch, *base.shape[1:])))
    vals = np.broadcast_to(values, (batch, indices.shape[1], base.shape[-1])).astype(base.dtype)
    for b in range(batch):
        idx = tuple(indices[min(b, indices.shape[0] - 1)].T)
        if mode == "update":
            out[b][idx] = vals[b]
        elif mode == "add":
            (np.logical_or if base.dtype == bool else np.add).at(out[b], idx, vals[b])
        else:
            (np.maximum if mode == "max" else np.minimum).at(out[b], idx, vals[b])
    return out


def ref_scatter_nd(base, indices, values, mode="update"):
    return ref_scatter(base[None], indices[None], values[None], mode)[0]


def ref_scatter_nd_scalar(base, indices, values, mode="update"):
    return ref_scatter(base[None, ..., None], indices[None], values[None, :, None], mode)[0, ..., 0]


def ref_scatter_1d_scalar(base, indices, values, mode="update"):
    return ref_scatter(base[None, :, None], indices[None, :, None], values[None, :, None], mode)[
        0, :, 0
    ]


def ref_batched_gather_nd(values, indices):
    batch = max(values.shape[0], indices.shape[0])
    rows = []
    for b in range(batch):
        idx = indices[min(b, indices.shape[0] - 1)]
        rows.append(values[min(b, values.shape[0] - 1)][tuple(np.moveaxis(idx, -1, 0))])
    return np.stack(rows)


def ref_reduceat(x, indices, axis):
    axis = axis % x.ndim
    batch = max(x.shape[0], indices.shape[0])
    return np.stack([
        np.add.reduceat(x[min(b, x.shape[0] - 1)], indices[min(b, indices.shape[0] - 1)], axis - 1)
        for b in range(batch)
    ])


def ref_boolean_mask(x, mask, axis=0, new_length=None, fill_value=0):
    out = np.compress(mask, x, axis=axis)
    if new_length is None:
        return out
    n = out.shape[axis]
    if n >= new_length:
        return np.take(out, np.arange(new_length), axis=axis)
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, new_length - n)
    return np.pad(out, pad, constant_values=fill_value)


def ref_ravel(multi_index, shape, mode="undefined"):
    idx = np.moveaxis(multi_index, -1, 0)
    if isinstance(mode, int):
        inside = np.all((multi_index >= 0) & (multi_index < np.array(shape)), -1)
        flat = np.ravel_multi_index(tuple(idx), shape, mode="wrap")
        return np.where(inside, flat, mode).astype(multi_index.dtype)
    np_mode = {"periodic": "wrap", "clamp": "clip", "undefined": "raise"}[mode]
    return np.ravel_multi_index(tuple(idx), shape, mode=np_mode).astype(multi_index.dtype)


# ---------------------------------------------------------------- data

F = rng.standard_normal((2, 5, 3))
F32 = F.astype(np.float32)
I64 = rng.integers(-9, 9, (2, 5, 3))
I32 = I64.astype(np.int32)
BOOL = rng.random((2, 5, 3)) > 0.7
IDX = np.array([[[1], [3], [1], [0], [1], [4], [3]], [[2], [2], [2], [0], [4], [4], [1]]])
VAL = rng.standard_normal((2, 7, 3))
VAL_I = rng.integers(-20, 20, (2, 7, 3))
GRID = rng.standard_normal((2, 4, 5, 2))
IDX2 = np.stack([rng.integers(0, 4, (1, 9)), rng.integers(0, 5, (1, 9))], -1)
IDX2[0, 3] = IDX2[0, 0]  # a duplicate 2-D index
UNIQUE = np.array([[[4], [0], [2]]])
VAL9 = rng.standard_normal((2, 9, 2))

SCATTER = []
for mode in ("add", "max", "min"):
    SCATTER += [
        case("scatter", F, IDX, VAL, mode, _ref=ref_scatter),
        case("scatter", F32, IDX, VAL.astype(np.float32), mode=mode, _ref=ref_scatter),
        case("scatter", I64, IDX, VAL_I, mode, _ref=ref_scatter),
        case("scatter", I32, IDX, VAL_I.astype(np.int32), mode, _ref=ref_scatter),
        case("scatter", F[:1], IDX, VAL[:, :, :1], mode, _ref=ref_scatter),  # base batch 1
        case("scatter", F, IDX[:1], VAL[:1, :1], mode, _ref=ref_scatter),  # indices, values 1
        case("scatter", GRID, IDX2, VAL9, mode, _ref=ref_scatter),
        case("scatter", GRID[:1], IDX2, np.ones((2, 1, 1)), mode, _ref=ref_scatter),
        case("scatter", F, IDX[:, :0], VAL[:, :0], mode, _ref=ref_scatter),  # no updates
    ]
SCATTER += [
    case("scatter", F, UNIQUE, VAL[:1, :3], "update", _ref=ref_scatter),
    case("scatter", I64, UNIQUE, VAL_I[:, :3], "update", _ref=ref_scatter),
    case("scatter", F32[:1], UNIQUE, VAL[:, :3, :1].astype(np.float32), "update", _ref=ref_scatter),
    case("scatter", BOOL, IDX, VAL > 0, "add", _ref=ref_scatter),
    case("scatter", BOOL, UNIQUE, np.ones((1, 3, 3), bool), "update", _ref=ref_scatter),
    case("scatter", F, IDX, VAL_I, "add", _ref=ref_scatter),  # int values into floats
    case("scatter_nd", F[0], IDX[0], VAL[0], "add", _ref=ref_scatter_nd),
    case("scatter_nd", GRID[0], IDX2[0], VAL9[0], "max", _ref=ref_scatter_nd),
    case("scatter_nd_scalar", GRID[0, ..., 0], IDX2[0], VAL9[0, :, 0], "add",
         _ref=ref_scatter_nd_scalar),
    case("scatter_nd_scalar", GRID[0, ..., 0], IDX2[0], VAL9[0, :1, 0], "min",
         _ref=ref_scatter_nd_scalar),
    case("scatter_1d_scalar", F[0, :, 0], IDX[0, :, 0], VAL[0, :, 0], "add",
         _ref=ref_scatter_1d_scalar),
    case("scatter_1d_scalar", I64[0, :, 0], IDX[0, :, 0], VAL_I[0, :, 0], "max",
         _ref=ref_scatter_1d_scalar),
    case("scatter_1d_scalar", I64[0, :, 0], IDX[0, :, 0], VAL_I[0, :, 0], "add",
         _ref=ref_scatter_1d_scalar),
    case("scatter_1d_scalar", F[0, :, 0], IDX[0, :0, 0], VAL[0, :0, 0], "add",
         _ref=ref_scatter_1d_scalar),
    case("scatter_1d_scalar", np.zeros(0), IDX[0, :0, 0], VAL[0, :0, 0], "max",
         _ref=ref_scatter_1d_scalar),
]

V3 = rng.standard_normal((3, 4, 5))
VI = rng.integers(0, 100, (2, 4, 5, 3))
GATHER = [
    case("gather", V3, np.array([2, 0, 2]), 1, _ref=lambda v, i, a: np.take(v, i, a)),
    case("gather", V3, np.array([3]), -1, _ref=lambda v, i, a: np.take(v, i, a)),
    case("gather", V3, np.zeros(0, int), 0, _ref=lambda v, i, a: np.take(v, i, a)),
    case("gather_1d", V3, np.array([2, 2, 0]), _ref=lambda v, i: v[i]),
    case("batched_gather_nd", VI, np.stack([rng.integers(0, 4, (2, 6)),
                                            rng.integers(0, 5, (2, 6))], -1),
         _ref=ref_batched_gather_nd),
    case("batched_gather_nd", VI, np.array([[[[0, 1], [3, 4]], [[1, 1], [2, 2]]]]),  # (1, 2, 2, 2)
         _ref=ref_batched_gather_nd),
    case("batched_gather_nd", VI[:1], np.array([[[0, 1]], [[3, 4]], [[1, 2]]]),
         _ref=ref_batched_gather_nd),
    case("batched_gather_nd", F, np.zeros((2, 0, 1), int), _ref=ref_batched_gather_nd),
    case("batched_gather_1d", F[..., 0], np.array([[4, 0, 4], [1, 1, 2]]),
         _ref=lambda v, i: np.take_along_axis(v, i, 1)),
    case("batched_gather_1d", F[..., 0], np.array([[4, 0]]),
         _ref=lambda v, i: np.take_along_axis(v, np.broadcast_to(i, (2, 2)), 1)),
    case("gather_nd", GRID[0], IDX2[0], _ref=lambda v, i: v[i[:, 0], i[:, 1]]),
    case("gather_by_component_indices", V3, np.array([0, 2, 1]), np.array([3, 3, 0]),
         _ref=lambda v, a, b: v[a, b]),
    case("gather_by_component_indices", V3, np.array([[0], [2]]), np.array([1, 3]),
         np.array([4, 0]), _ref=lambda v, a, b, c: v[a, b, c]),
    case("gather_by_component_indices", V3, 1, np.array([0, 3]), _ref=lambda v, a, b: v[a, b]),
    case("batch_gather", V3, 1, _ref=lambda v, b: v[[b]]),
    case("batch_gather", V3, [2, 0, 2], _ref=lambda v, b: v[b]),
    case("batch_gather", V3, np.array([1, 1]), _ref=lambda v, b: v[b]),
]

MASK = np.array([True, False, True, True, False])
MASKS = [
    case("boolean_mask", F, MASK, 1, _ref=ref_boolean_mask),
    case("boolean_mask", V3, MASK[:3], _ref=ref_boolean_mask),
    case("boolean_mask", F, MASK, axis=1, new_length=5, fill_value=-1.5, _ref=ref_boolean_mask),
    case("boolean_mask", F, MASK, axis=1, new_length=2, _ref=ref_boolean_mask),
    case("boolean_mask", I64, MASK, axis=1, new_length=4, fill_value=7, _ref=ref_boolean_mask),
    case("boolean_mask", F[:, :0], MASK[:0], axis=1, new_length=2, _ref=ref_boolean_mask),
    case("boolean_mask", F, np.zeros(5, bool), axis=1, _ref=ref_boolean_mask),
]

FLAT = np.array([0, 7, 11, 5, 3])
MULTI = np.array([[0, 1, 2], [1, 0, 3], [-1, 2, 0], [1, 3, 4], [2, 0, 1]])
INDEX_MATH = [
    case("unravel_index_stacked", FLAT, (3, 4),
         _ref=lambda f, s: np.stack(np.unravel_index(f, s), -1)),
    case("unravel_index_stacked", FLAT.reshape(5, 1).astype(np.int32), (2, 2, 3),
         _ref=lambda f, s: np.stack(np.unravel_index(f, s), -1).astype(np.int32)),
    case("unravel_index_stacked", FLAT[:0], (3, 4), _ref=lambda f, s: np.zeros((0, 2), int)),
    case("ravel_multi_index_stacked", MULTI[[0, 1, 3]], (2, 4, 5), _ref=ref_ravel),
    case("ravel_multi_index_stacked", MULTI, (2, 4, 5), "periodic", _ref=ref_ravel),
    case("ravel_multi_index_stacked", MULTI, (2, 3, 4), mode="clamp", _ref=ref_ravel),
    case("ravel_multi_index_stacked", MULTI.astype(np.int32), (2, 3, 4), mode=-1, _ref=ref_ravel),
    case("ravel_multi_index_stacked", MULTI[None], (2, 4, 5), mode=0, _ref=ref_ravel),
]

SLICES = [
    (slice(None, None, -1),),
    (1, slice(None, None, -2)),
    (slice(None), slice(3, 0, -1), 2),
    (Ellipsis, slice(None, None, -3)),
    (None, slice(2, None, -1), Ellipsis),
    (slice(0, 2), slice(1, 4)),
    (0, None, 2),
]
SLICING = [case("multi_slice", V3, s, _ref=lambda v, s: v[s]) for s in SLICES]

SEGMENTS = rng.standard_normal((2, 6, 3))
SEGMENT_CASES = [
    case("indexed_segment_sum", SEGMENTS, np.array([[0, 2, 5], [0, 1, 3]]), 1, _ref=ref_reduceat),
    case("indexed_segment_sum", SEGMENTS, np.array([[0, 2, 2, 4]]), 1, _ref=ref_reduceat),
    case("indexed_segment_sum", SEGMENTS, np.array([[0, 1]]), 2, _ref=ref_reduceat),
    case("indexed_segment_sum", SEGMENTS, np.array([[0, 1]]), -1, _ref=ref_reduceat),
    case("indexed_segment_sum", rng.integers(0, 9, (1, 7)), np.array([[0, 3, 6]]), 1,
         _ref=ref_reduceat),
]

CASES = SCATTER + GATHER + MASKS + INDEX_MATH + SLICING + SEGMENT_CASES


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_matches_numpy(backend, name, c):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(SCATTER[:12] + MASKS[2:3] + SEGMENT_CASES[:1]))
def test_inputs_not_mutated(backend, name, c):
    c.run_not_mutated(backend)


def test_scatter_update_duplicates_keeps_one(backend):
    base = np.zeros((1, 4, 2))
    idx = np.array([[[1], [3], [1], [1]]])
    vals = np.arange(8.0).reshape(1, 4, 2) + 1
    out = to_np(do("scatter", *to_backend((base, idx, vals), backend), "update"))
    assert out.shape == base.shape
    np.testing.assert_array_equal(out[0, [0, 2]], 0)
    np.testing.assert_array_equal(out[0, 3], vals[0, 1])
    assert any(np.array_equal(out[0, 1], vals[0, k]) for k in (0, 2, 3))


def test_scatter_rejects_bad_mode_and_shapes(backend):
    base, idx, vals = to_backend((F, IDX, VAL), backend)
    with pytest.raises(ValueError, match="mode"):
        do("scatter", base, idx, vals, "mul")
    with pytest.raises(ValueError, match="components"):
        do("scatter", base, do("concatenate", [idx, idx], axis=-1), vals, "add")


_AT = {"add": np.add.at, "max": np.maximum.at, "min": np.minimum.at}


@pytest.mark.parametrize("mode", ["add", "max", "min", "update"])
@pytest.mark.parametrize(
    ("bshape", "ishape", "vshape"),
    [
        ((7,), (9,), (9,)),  # 1-D: numpy's add.at(base, idx, values)
        ((5, 3), (6,), (6, 3)),  # rows of a matrix (torch's index_add along 0)
        ((5, 3), (6,), (3,)),  # values broadcast to (m, *rest)
        ((4, 5), (6, 2), (6,)),  # (m, d) index tuples into all axes
        ((4, 5, 2), (6, 2), (6, 2)),  # into the first two axes, a trailing axis left
        ((4,), (0,), (0,)),  # nothing to scatter
    ],
)
def test_scatter_takes_unbatched_indices_as_numpy_ufunc_at(backend, mode, bshape, ishape, vshape):
    """Indices (m,) into the first axis or (m, d) tuples into the first d axes give
    numpy's ufunc.at result (for 'update', a result with distinct indices)."""
    gen = np.random.default_rng(sum(bshape) + len(ishape))
    base = gen.normal(size=bshape)
    d = 1 if len(ishape) == 1 else ishape[1]
    if mode == "update":  # duplicates keep an unspecified one: draw distinct index tuples
        cells = np.arange(int(np.prod(bshape[:d])))
        if ishape[0] > cells.size:  # fewer updates than cells
            vshape = (cells.size, *vshape[1:]) if vshape[:1] == ishape[:1] else vshape
            ishape = (cells.size, *ishape[1:])
        flat = gen.permutation(cells)[: ishape[0]]
        idx = np.stack(np.unravel_index(flat, bshape[:d]), axis=-1).reshape(ishape)
    else:
        idx = np.stack([gen.integers(0, n, ishape[0]) for n in bshape[:d]], axis=-1)
        idx = idx.reshape(ishape)
    vals = gen.normal(size=vshape)
    expected = base.copy()
    where = tuple(idx.T) if len(ishape) == 2 else idx
    if mode == "update":
        expected[where] = np.broadcast_to(vals, (ishape[0], *bshape[d:]))
    else:
        _AT[mode](expected, where, np.broadcast_to(vals, (ishape[0], *bshape[d:])))
    out = do("scatter", *to_backend((base, idx, vals), backend), mode=mode)
    assert tuple(do("shape", out)) == bshape
    assert_close(to_np(out), expected)


def test_scatter_large_add_matches_bincount(backend):
    n, bins = 20_000, 500
    idx = rng.integers(0, bins, (1, n, 1))
    vals = rng.random((1, n, 1))
    out = to_np(do("scatter", *to_backend((np.zeros((1, bins, 1)), idx, vals), backend), "add"))
    assert_close(out[0, :, 0], np.bincount(idx.ravel(), vals.ravel(), minlength=bins))


def test_native_scatter_kernels_match_composed(backend):
    """The native kernels of the tables (their ``scatter_1d_scalar`` entries, which
    live with each library's translations) agree with numpy."""
    table = importlib.import_module(f"dispatch.translations.{backend}").TABLE
    kernel = table.get("scatter_1d_scalar")
    if not callable(kernel):
        pytest.skip(f"no native scatter kernel written for {backend}")
    for base, vals in ((F[0, :, 0], VAL[0, :, 0]), (I32[0, :, 0], VAL_I[0, :, 0].astype(np.int32)),
                       (BOOL[0, :, 0], VAL[0, :, 0] > 0)):
        for mode in ("add", "max", "min"):
            b, i, v = to_backend((base, IDX[0, :, 0], vals), backend)
            out = to_np(kernel(b, i, v, mode))
            assert_close(out, ref_scatter_1d_scalar(base, IDX[0, :, 0], vals, mode))
            np.testing.assert_array_equal(to_np(b), base)  # not mutated
    b, i, v = to_backend((F[0, :, 0], UNIQUE[0, :, 0], VAL[0, :3, 0]), backend)
    assert_close(to_np(kernel(b, i, v, "update")),
                 ref_scatter_1d_scalar(F[0, :, 0], UNIQUE[0, :, 0], VAL[0, :3, 0], "update"))


JIT_CASES = [SCATTER[0], SCATTER[6], GATHER[4], MASKS[2], INDEX_MATH[4], SEGMENT_CASES[0]]


@pytest.mark.parametrize(("name", "c"), params(JIT_CASES))
def test_under_jax_jit(name, c):
    jax = pytest.importorskip("jax")
    args = to_backend(c.args, "jax")
    arrays = [k for k, a in enumerate(args) if hasattr(a, "shape")]

    def f(*arrs):
        full = list(args)
        for k, a in zip(arrays, arrs, strict=True):
            full[k] = a
        return do(c.name, *full, **c.kwargs)

    out = jax.jit(f)(*[args[k] for k in arrays])
    assert_close(to_np(out), c.ref(*c.args, **c.kwargs))
