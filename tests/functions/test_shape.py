"""Shape manipulation, indexing, sorting, unique and searchsorted: numpy semantics."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from conftest import assert_close, case, params, to_backend, to_np
from properties.table_shape import partition_contract

rng = np.random.default_rng(40)
A = rng.standard_normal((3, 4))
B = rng.standard_normal((3, 4))
C = rng.standard_normal((2, 4))
A3 = rng.standard_normal((2, 3, 4))
AI = rng.integers(-5, 6, (3, 4))
AB = rng.random((3, 4)) > 0.5
SQ = rng.standard_normal((4, 4))
V = rng.standard_normal(6)
W = rng.standard_normal(6)
S = np.array(2.0)
E = np.zeros((0, 3))
IDX = np.array([2, 0, 0, 3])
IDX_NEG = np.array([-1, 1])
DUPS = np.array([3, 1, 2, 3, 1, 1, 5, 0])
SORTED = np.array([0.0, 1.0, 1.0, 2.5, 4.0, 7.0])
VALUES = np.array([-1.0, 1.0, 3.0, 7.0, 9.0])
K3 = np.array([0.5, -1.0, 2.0])
VC = V + 1j * W
KC = K3 - 2j * K3[::-1]
SET_F = np.round(rng.standard_normal((3, 4)), 0)  # float values that repeat
XP = np.array([0.0, 1.0, 2.0, 2.0, 4.0])  # increasing, with a repeated point
FP = np.array([1.0, 3.0, 0.0, 5.0, 2.0])
XQ = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 3.9, 4.0, 5.0, np.nan])

_rng = np.random.default_rng(41)  # its own stream: the constants above keep their values
PV = np.round(2 * _rng.standard_normal(9))  # ties
TZ = np.array([0.0, 0.0, 1.5, 0.0, -2.0, 0.0, 0.0])
TZ2 = np.array([[0, 0, 0, 0], [0, 3, 0, 0], [0, 0, -4, 0], [0, 0, 0, 0]])
A32_4 = _rng.standard_normal((3, 4)).astype("float32")
PHASE = np.array([0.0, 3.0, 6.0, 2.5, -1.0, 4.5, 11.0, 0.2])
DEG = np.array([350, 10, 20, 190, 370, 15, 185, 5])
MI = _rng.integers(0, 3, (3, 3))
BITS = _rng.integers(0, 2, 21)
BYTES = _rng.integers(0, 256, (2, 3)).astype("uint8")
PTS = _rng.standard_normal((20, 3))
PNAN = np.array([3.0, np.nan, -1.0, 0.5, np.nan, 2.0])
CT = np.array([1 + 2j, -1j, 1 - 1j, 0.5, 1 + 2j, -3 + 0j, 0.5 - 2j])  # ties in the real parts


def _partitioned(name):
    def check(actual, a, kth, axis=-1):
        partition_contract(name, actual, a, kth, axis)

    return check


UNAN = np.array([2.0, np.nan, -1.0, 2.0, np.nan, 0.5, -1.0, np.inf])  # NaNs apart in unique_*


def _same_unique_values(actual, x):
    """numpy leaves unique_values' order unspecified (its own is unsorted for integers)."""
    assert_close(np.sort(actual), np.sort(np.unique_values(x)))


GET_ITEM_KEYS = [
    (1,), (slice(None), 2), (Ellipsis, -1), (None, 0, slice(None, None, -2)),
    (0, slice(None), [1, 3]), ([1, 0], slice(1, 3), np.array([[1], [-4]])),
    (slice(None), [0, 2], [3, 1]), (Ellipsis, None, slice(3, 0, -1)), (-1, -2, 3),
    (np.array([True, False]), 1), (slice(1, None), [[0, -1]]), (1, None, [0, 2], 3),
    (A3[..., 0] > 0,), ([],), (slice(None, None, -1), Ellipsis, [-1, 0]),
]

CASES = [
    case("reshape", A, (4, 3)),
    # get_item (keras.ops.get_item): numpy's indexing, the keys' arrays moved to the backend
    *[case("get_item", x, key, _ref=operator.getitem, _id=f"{x.dtype},{i}") for x in (A3, A3.astype(
        "float32"), rng.integers(-9, 9, (2, 3, 4))) for i, key in enumerate(GET_ITEM_KEYS)],
    case("get_item", A, 1, _ref=operator.getitem),
    case("get_item", V, slice(None, None, -2), _ref=operator.getitem),
    case("get_item", A, A > 0, _ref=operator.getitem),
    case("get_item", AI, (np.array([[0, 2], [1, 1]]), np.array([3, -4])), _ref=operator.getitem),
    case("reshape", A, (2, -1)),
    case("reshape", A, -1),
    case("reshape", A3, (6, 4)),
    case("reshape", S, (1, 1)),
    case("reshape", E, (3, 0)),
    case("reshape", AI, (12,)),
    case("ravel", A),
    case("ravel", A3),
    case("ravel", S),
    case("ravel", A, order="F"),
    case("ravel", A3, "F"),
    case("ravel", A, order="A"),
    case("ravel", A3, order="K"),
    case("ravel", A, order="c"),
    case("transpose", A),
    case("transpose", A3),
    case("transpose", A3, (1, 0, 2)),
    case("transpose", A3, axes=(2, 0, 1)),
    case("transpose", V),
    case("moveaxis", A3, 0, -1),
    case("moveaxis", A3, -1, 0),
    case("moveaxis", A3, (0, 1), (2, 0)),
    case("swapaxes", A3, 0, 2),
    case("swapaxes", A, 0, 1),
    case("expand_dims", A, 0),
    case("expand_dims", A, -1),
    case("expand_dims", A, axis=1),
    case("expand_dims", A, (0, 2)),
    case("expand_dims", S, 0),
    case("squeeze", A[None, :, None]),
    case("squeeze", A[None, :, None], axis=0),
    case("squeeze", A[None, :, None], axis=(0, 2)),
    case("squeeze", A[:1]),
    case("concatenate", [A, B]),
    case("concatenate", [A, B], axis=1),
    case("concatenate", [A, C], axis=0),
    case("concatenate", [A, B, A], axis=-1),
    case("concatenate", (A, B), axis=None),
    case("concatenate", [V, W]),
    case("concatenate", [AI, AI]),
    case("concatenate", [E, E]),
    case("stack", [A, B]),
    case("stack", [A, B], axis=1),
    case("stack", (A, B, A), axis=-1),
    case("stack", [V, W]),
    case("stack", [S, S]),
    case("hstack", [A, B]),
    case("hstack", [V, W]),
    case("vstack", [A, B]),
    case("vstack", [V, W]),
    case("vstack", [A, C]),
    case("column_stack", [V, W]),
    case("column_stack", [A, B]),
    case("column_stack", (V[:3], A, AI)),
    case("column_stack", [S, S]),
    case("atleast_1d", [V, W]),
    case("atleast_1d", V, W),
    case("atleast_1d", S),
    case("atleast_2d", [V, W]),
    case("atleast_3d", A),
    case("split", A, 2, axis=1),
    case("split", A, 3),
    case("split", V, [1, 4]),
    case("split", A, [1], axis=1),
    case("split", A3, 2, axis=-1),
    case("dsplit", A3, 2),
    case("dsplit", A3, [1, 3]),
    case("dsplit", A3.astype("float32"), [3, 1, 9]),
    case("dsplit", rng.integers(-5, 6, (2, 2, 6, 2)), 3),
    case("row_stack", [A, B], _ref=np.vstack),
    case("row_stack", [V, W], _ref=np.vstack),
    case("row_stack", [A.astype("float32"), C.astype("float32"), AI[:1] * 1.0], _ref=np.vstack),
    case("row_stack", [AI, AI[::-1]], _ref=np.vstack),
    case("tile", V, 2),
    case("tile", A, (2, 1)),
    case("tile", A, (2, 1, 2)),
    case("tile", V, (2, 2)),
    case("repeat", V, 2),
    case("repeat", A, 2, axis=0),
    case("repeat", A, 3, axis=-1),
    case("repeat", A, 2),
    case("repeat", AI, 2, axis=1),
    case("repeat", V, np.array([1, 0, 2, 1, 1, 3])),
    case("flip", A),
    case("flip", A, 0),
    case("flip", A, axis=-1),
    case("flip", A3, axis=(0, 2)),
    case("flip", V),
    case("roll", V, 2),
    case("roll", V, -1),
    case("roll", A, 1),
    case("roll", A, 1, axis=0),
    case("roll", A, -2, axis=1),
    case("roll", A, (1, 2), axis=(0, 1)),
    case("roll", A3, 3, axis=-1),
    case("pad", A, 1),
    case("pad", A, ((1, 2), (0, 1))),
    case("pad", A, (1, 2)),
    case("pad", A, ((1, 0),)),
    case("pad", V, 2, constant_values=3.5),
    case("pad", A, ((1, 1), (2, 0)), mode="constant", constant_values=-1.0),
    case("pad", AI, 1),
    case("pad", A, 2, mode="edge"),
    case("pad", A, ((1, 2), (2, 1)), mode="reflect"),
    case("pad", V, 2, mode="reflect"),
    case("pad", A, ((1, 2), (2, 1)), mode="symmetric"),
    case("pad", A, ((1, 2), (2, 1)), mode="wrap"),
    case("pad", A3, ((0, 0), (1, 1), (0, 2)), mode="edge"),
    case("broadcast_to", V, (3, 6)),
    case("broadcast_to", A[:, :1], (3, 4)),
    case("broadcast_to", S, (2, 2)),
    case("broadcast_to", V, (2, 1, 6)),
    case("take", V, IDX),
    case("take", A, IDX, axis=1),
    case("take", A, np.array([2, 0]), axis=0),
    case("take", A, IDX),
    case("take", V, IDX_NEG),
    case("take", A, IDX_NEG, axis=1),
    case("take", A, 1, axis=0),
    case("take", A, np.array([[0, 1], [2, 3]]), axis=1),
    case("take_along_axis", A, np.argsort(A, axis=1), axis=1),
    case("take_along_axis", A, np.argsort(A, axis=0), axis=0),
    case("take_along_axis", A, np.argmax(A, axis=1)[:, None], axis=1),
    case("take_along_axis", A3, np.argsort(A3, axis=-1)[..., :2], axis=-1),
    case("where", AB, A, B),
    case("where", AB, A, 0.0),
    case("where", AB, 1.0, B),
    case("where", A > 0, A, -A),
    case("where", AB[0], A, B),
    case("where", AB, AI, -1),
    case("where", True, A, 0.0),
    case("where", False, A, B),
    case("where", [True, False, False, True], A, B),
    case("where", AB),
    case("where", A > 0.5),
    case("where", V > 0),
    case("tril", SQ),
    case("tril", SQ, 1),
    case("tril", SQ, k=-1),
    case("tril", A),
    case("tril", A3),
    case("triu", SQ),
    case("triu", SQ, -1),
    case("triu", A, k=1),
    case("triu", AI),
    case("triu", A3),
    case("diag", V),
    case("diag", V, 1),
    case("diag", V, k=-2),
    case("diag", SQ),
    case("diag", A, 1),
    case("diag", A, k=-1),
    case("diagonal", SQ),
    case("diagonal", A, 1),
    case("diagonal", A, offset=-1),
    case("diagonal", A3),
    case("diagonal", A3, 0, 1, 2),
    case("diagonal", A3, offset=1, axis1=2, axis2=0),
    case("trace", SQ),
    case("trace", A),
    case("trace", A, 1),
    case("trace", A, offset=-1),
    case("trace", AI),
    case("trace", A3),
    case("trace", A3, axis1=1, axis2=2),
    case("nonzero", AI),
    case("nonzero", AB),
    case("nonzero", V > 0),
    case("nonzero", A3 > 0),
    case("nonzero", np.zeros((2, 0))),
    case("argwhere", AI),
    case("argwhere", AB),
    case("argwhere", V > 0),
    case("argwhere", np.zeros(3)),
    case("sort", V),
    case("sort", A),
    case("sort", A, axis=0),
    case("sort", A, 0),
    case("sort", A3, axis=1),
    case("sort", A, axis=None),
    case("sort", AI),
    case("sort", np.array([3.0, np.nan, 1.0, -np.inf])),
    case("sort", E),
    case("argsort", V),
    case("argsort", A),
    case("argsort", A, axis=0),
    case("argsort", A3, axis=1),
    case("argsort", A, axis=None),
    case("argsort", DUPS, stable=True),
    case("argsort", DUPS, kind="stable"),
    *[
        case(fn, x, y, **kw)
        for fn in ("intersect1d", "union1d", "setdiff1d", "setxor1d")
        for x, y, kw in (
            (AI, AI[::-1, :2] + 2, {}),
            (AI.astype("float32"), np.array([-5.0, 0.5, 3.0, 3.0], "float32"), {}),
            (SET_F, SET_F[1:] * 2 - 1, {}),
            (DUPS.reshape(2, 4), -DUPS[:3], {}),
            (np.unique(SET_F), np.unique(SET_F[::2] - 0.5), {}),
            (E, SET_F, {}),
            (SET_F, E, {}),
        )
        if not (kw and fn == "union1d")
    ],
    *[
        case(fn, np.unique(AI), np.unique(AI[1:] - 1), assume_unique=True)
        for fn in ("intersect1d", "setdiff1d", "setxor1d")
    ],
    case("intersect1d", AI, AI[::-1, :2] + 2, return_indices=True),
    case("intersect1d", SET_F, SET_F[::-1] - 1, return_indices=True),
    case("intersect1d", np.unique(AI), np.unique(AI[1:] - 1), True, True),
    case("append", A, B),
    case("append", A, C, axis=0),
    case("append", A3, A3[:, :, :1], axis=-1),
    case("append", A.astype("float32"), B.astype("float32"), axis=1),
    case("append", AI, V),
    case("append", S, E),
    case("delete", A, 1),
    case("delete", A, -1, axis=0),
    case("delete", A, [0, 2, 2], axis=1),
    case("delete", A3, slice(0, None, 2), axis=-1),
    case("delete", A.astype("float32"), np.array([True, False, True, False]), axis=1),
    case("delete", AI, np.array([-1, 3, 5])),
    case("delete", A, []),
    case("insert", A, 1, -7.5),
    case("insert", A, 1, [-5.0, 6.0, 7.0], axis=1),
    case("insert", A, [0, 2, 2], [[1.0], [2.0], [3.0]], axis=1),
    case("insert", A, [1], [[1.0], [2.0], [3.0]], axis=1),
    case("insert", A.astype("float32"), -1, np.arange(4.0), axis=0),
    case("insert", A3, [3, 0], -1.0, axis=1),
    case("insert", AI, slice(0, 4, 2), [9, -9], axis=1),
    case("insert", AI, 12, np.array([2.7, -3.2])),
    case("insert", V, [], []),
    case("unique", DUPS),
    case("unique", DUPS.reshape(2, 4)),
    case("unique", DUPS.astype("float64")),
    case("unique", DUPS, return_counts=True),
    case("unique", DUPS, return_index=True),
    case("unique", DUPS, return_inverse=True),
    case("unique", DUPS, return_index=True, return_inverse=True, return_counts=True),
    case("unique", AB),
    case("unique", np.zeros(0)),
    # numpy 2's unique_*: sorted values, each NaN its own value, inverse shaped like x
    *[
        case(fn, x)
        for fn in ("unique_counts", "unique_inverse", "unique_all")
        for x in (DUPS, DUPS.reshape(2, 4), SET_F, SET_F.astype("float32"), UNAN,
                  UNAN.reshape(2, 4), AI.astype("int32"), AB, E, S)
    ],
    *[
        case("unique_values", x, _check=_same_unique_values)
        for x in (DUPS, DUPS.reshape(2, 4), SET_F, SET_F.astype("float32"), UNAN,
                  AI.astype("int32"), AB, E, S)
    ],
    # partition, argpartition: numpy's contract is checked, not numpy's order
    *[
        case(fn, x, kth, **kw, _check=_partitioned(fn))
        for fn in ("partition", "argpartition")
        for x, kth, kw in (
            (PV, 4, {}),
            (PV, -1, {}),
            (PV, [1, 5], {}),
            (PV, (0, 8), {}),
            (A, 2, {"axis": 0}),
            (A, 1, {}),
            (A3, [0, 2], {"axis": 1}),
            (AI, 3, {"axis": None}),
            (AI.astype("int32"), -2, {"axis": -1}),
            (PNAN, 2, {}),
            (PNAN, [0, 5], {}),
            (A.astype("float32"), 0, {"axis": 1}),
            (DUPS, (2, 6), {}),
            (AB, 2, {"axis": None}),
        )
    ],
    case("lexsort", (PV, np.round(PV))),
    case("lexsort", [DUPS, -DUPS % 3, DUPS.astype("float32")]),
    case("lexsort", AI),
    case("lexsort", (A, AI), axis=0),
    case("lexsort", (A3, A3 > 0), axis=1),
    case("lexsort", [V]),
    case("lexsort", (AB[0], AI[0].astype("int32"))),
    case("sort_complex", CT),
    case("sort_complex", CT.astype("complex64")),
    case("sort_complex", VC),
    case("sort_complex", SET_F),
    case("sort_complex", A.astype("float32")),
    case("sort_complex", AI),
    case("sort_complex", AI.astype("int8")),
    case("sort_complex", AI.astype("uint16")),
    case("sort_complex", AB),
    # trim_zeros, resize, rollaxis, block, extract, unwrap, ix_ and the index converters
    case("trim_zeros", TZ),
    case("trim_zeros", TZ, "f"),
    case("trim_zeros", TZ, trim="b"),
    case("trim_zeros", TZ2),
    case("trim_zeros", TZ2, "fb", 1),
    case("trim_zeros", TZ2, axis=(0,)),
    case("trim_zeros", TZ2.astype("float32"), "B"),
    case("trim_zeros", np.zeros(4)),
    case("trim_zeros", AB),
    case("resize", A, (2, 7)),
    case("resize", AI, 5),
    case("resize", V, (3, 3)),
    case("resize", A3.astype("float32"), (4, 2, 2)),
    case("resize", A, (0, 3)),
    case("resize", E, (2, 2)),
    case("resize", AB, (5,)),
    case("rollaxis", A3, 2),
    case("rollaxis", A3, -1, 1),
    case("rollaxis", A3, 0, 3),
    case("rollaxis", A3, 1, start=-1),
    case("rollaxis", A, 1, 1),
    case("block", [A, B]),
    case("block", [[A, B], [C, C]]),
    case("block", [[SQ[:2, :2], SQ[:2, 2:]], [SQ[2:, :2], SQ[2:, 2:]]]),
    case("block", [V, W]),
    case("block", [[V], [W]]),
    case("block", [[[A3]], [[A3]]]),
    case("block", [AI.astype("float32"), A32_4]),
    case("extract", A > 0, A),
    case("extract", AB, AI),
    case("extract", AI % 3, A),
    case("extract", V > 0.5, V),
    case("extract", np.array([True, False]), A),
    case("unwrap", PHASE),
    case("unwrap", PHASE.reshape(2, 4), axis=0),
    case("unwrap", PHASE.reshape(2, 4), np.pi / 2),
    case("unwrap", PHASE.astype("float32")),
    case("unwrap", PHASE * 100, period=360.0),
    case("unwrap", DEG, period=360),
    case("unwrap", np.array([1, 2, 3, 4, 5, 6, 1, 2, 3]), period=6),
    case("unwrap", np.array([1, 2, 3, 4, 5, 6, 1, 2, 3]), period=5),
    case("unwrap", np.array([0, 1, 3, 7, 2])),
    case("ix_", np.array([0, 2]), np.array([1, 3, 0])),
    case("ix_", np.array([True, False, True]), np.array([2, 1]), np.array([0])),
    case("ix_", IDX),
    case("ravel_multi_index", (np.array([0, 2, 1]), np.array([3, 0, 1])), (3, 4)),
    case("ravel_multi_index", (np.array([0, 2, 1]), np.array([3, 0, 1])), (3, 4), order="F"),
    case("ravel_multi_index", (np.array([4, -1]), np.array([1, 5])), (3, 4), mode="wrap"),
    case("ravel_multi_index", (np.array([4, -1]), np.array([1, 5])), (3, 4), "clip"),
    case("ravel_multi_index", (np.array([4, 1]), np.array([1, 5])), (3, 4), ("wrap", "clip")),
    case("ravel_multi_index", (MI, MI.T + 1, np.zeros((3, 3), int)), (3, 4, 2)),
    case("ravel_multi_index", [np.array([1, 2], "int32"), np.array([0, 3], "int32")], (3, 4)),
    case("unravel_index", np.array([3, 8, 5, 0]), (3, 4)),
    case("unravel_index", np.array([3, 8, 5, 0]), (3, 4), order="F"),
    case("unravel_index", np.array([[7, 0], [23, 11]]), (2, 3, 4)),
    case("unravel_index", np.array([4, 1], "int32"), 6),
    case("packbits", AB),
    case("packbits", AB, axis=0),
    case("packbits", AI, axis=-1),
    case("packbits", A3 > 0, 1, "little"),
    case("packbits", BITS),
    case("packbits", BITS.reshape(3, 7), axis=1, bitorder="little"),
    case("packbits", AI.astype("uint8")),
    case("unpackbits", BYTES),
    case("unpackbits", BYTES, axis=0),
    case("unpackbits", BYTES, axis=1, count=11),
    case("unpackbits", BYTES, count=-3),
    case("unpackbits", BYTES, None, 40),
    case("unpackbits", BYTES[0], bitorder="little"),
    case("unpackbits", BYTES, 0, -5),
    case("searchsorted", SORTED, VALUES),
    case("searchsorted", SORTED, VALUES, side="right"),
    case("searchsorted", SORTED, 1.0),
    case("searchsorted", SORTED, 1.0, side="right"),
    case("searchsorted", SORTED, VALUES.reshape(1, 5)),
    case("searchsorted", SORTED, VALUES, sorter=None),
    case("searchsorted", DUPS, 2, sorter=np.argsort(DUPS, kind="stable")),
    # 1-D signal functions
    *[case(fn, x, y, mode) for fn in ("convolve", "correlate") for x, y in ((V, K3), (K3, V))
      for mode in ("full", "same", "valid")],
    case("convolve", V, K3),
    case("convolve", VC, KC, "same"),
    case("convolve", DUPS, np.array([1, -1])),
    case("convolve", S, K3),
    case("correlate", V, K3),
    case("correlate", VC, KC, "full"),
    case("correlate", KC, VC, "same"),
    case("correlate", V, KC, "valid"),
    case("correlate", DUPS, np.array([2, 1, 0, -1, 3]), "full"),
    case("correlate", V, V, "same"),
    case("histogramdd", PTS),
    case("histogramdd", PTS, bins=3),
    case("histogramdd", PTS, (2, 3, 4), range=[(-2.0, 2.0), (-1.0, 1.0), (-3.0, 3.0)]),
    case("histogramdd", PTS, [np.array([-3.0, 0.0, 3.0]), 2, 3], density=True),
    case("histogramdd", PTS, 2, weights=np.abs(PTS[:, 0])),
    case("histogramdd", (PTS[:, 0], PTS[:, 1]), 4),
    case("histogramdd", PTS[:, 0].astype("float32"), 5),
    case("histogramdd", np.round(PTS * 2).astype("int64"), 3),
    case("histogram_bin_edges", V),
    case("histogram_bin_edges", A, 4),
    case("histogram_bin_edges", A, bins=3, range=(-1.0, 2.0)),
    case("histogram_bin_edges", A, "auto"),
    case("histogram_bin_edges", V, "fd"),
    case("histogram_bin_edges", A.astype("float32"), 5),
    case("histogram_bin_edges", AI, 3),
    case("histogram_bin_edges", V, np.array([-2.0, 0.0, 0.5, 3.0])),
    case("interp", XQ, XP, FP),
    case("interp", XQ.reshape(2, 5), XP, FP),
    case("interp", XQ, XP, FP, left=-9.0, right=9.0),
    case("interp", XQ, XP, FP + 1j * XP),
    case("interp", XQ, XP, FP + 1j, left=1 + 2j, right=-1j),
    case("interp", XQ, XP[:1], FP[:1], -1.0, 1.0),
    case("interp", 2.5, XP, FP),
    case("interp", np.arange(5), np.arange(0, 8, 2), np.arange(4) * 3),
    case("interp", np.array([-180.0, -170, -185, 185, -10, -5, 0, 365]),
         np.array([190.0, -190, 350, -350]), np.array([5.0, 10, 3, 4]), period=360),
]


# selection, differences, membership and binning
PICK = rng.integers(0, 3, (3, 4))
PICK_OUT = np.array([[-4, 0, 1, 5], [2, 3, -1, 7], [0, 0, 2, 1]])  # outside [0, 3)
COND = np.array([True, False, True])
BINS = np.array([-1.0, -0.25, 0.0, 0.5, 1.5])
XN = np.array([-2.0, -0.25, 0.1, 0.5, np.nan, 3.0])
COORDS = np.array([0.0, 0.5, 1.5, 1.75, 3.0, 4.5])  # non-uniform sample points
CASES += [
    case("choose", PICK, [A, B, -A]),
    case("choose", PICK[0], [A, B, -A]),
    case("choose", PICK, [AI, 2 * AI, -AI]),
    case("choose", PICK, np.stack([A, B, -A])),
    case("choose", PICK_OUT, [A, B, -A], mode="wrap"),
    case("choose", PICK_OUT, [A, B, -A], mode="clip"),
    case("choose", np.array(1), [V, W]),
    case("compress", COND, A, axis=0),
    case("compress", COND[:2], A, axis=0),
    case("compress", np.array([False, True, True, False]), A, axis=1),
    case("compress", V > 0, V),
    case("compress", np.array([True, False, False, True, True]), A),
    case("compress", np.zeros(3, bool), A, axis=0),
    case("compress", np.array([0.0, 2.0, 1.0]), AI, axis=0),
    case("ediff1d", V),
    case("ediff1d", A),
    case("ediff1d", AI, to_begin=-9, to_end=np.array([1, 2])),
    case("ediff1d", V, to_end=[7.5, 8.5]),
    case("ediff1d", V, to_begin=np.array([[1.0], [2.0]])),
    case("ediff1d", np.zeros(0)),
    case("ediff1d", np.zeros(1), to_begin=3.0),
    case("matrix_transpose", A),
    case("matrix_transpose", A3),
    case("matrix_transpose", AI),
    case("permute_dims", A3, (2, 0, 1)),
    case("permute_dims", A, (1, 0)),
    case("isin", AI, np.array([1, 3, -2])),
    case("isin", AI, np.array([1, 3, -2]), invert=True),
    case("isin", A, np.concatenate([A[0], B[1]])),
    case("isin", XN, np.array([np.nan, 0.5, 3.0])),
    case("isin", AI, np.zeros(0, dtype=int)),
    case("isin", AI, AI[:1]),
    case("isin", V, np.array([[V[2], 9.0], [V[0], 1.0]])),
    case("isin", AI, np.array([1.0, 2.5])),
    case("isin", AB, np.array([True])),
    case("digitize", V, BINS),
    case("digitize", V, BINS, right=True),
    case("digitize", A, BINS[::-1]),
    case("digitize", A, BINS[::-1], right=True),
    case("digitize", AI, np.array([-3, 0, 2, 4])),
    case("digitize", XN, BINS),
    case("digitize", BINS, BINS),
    case("digitize", BINS, BINS, True),
    case("histogram", V),
    case("histogram", A, bins=4),
    case("histogram", A, bins=BINS),
    case("histogram", A, 3, range=(-1.0, 1.0)),
    case("histogram", A, 5, weights=B),
    case("histogram", AI, 4, weights=AI),
    case("histogram", A, bins=BINS, density=True),
    case("histogram", A, 6, density=True),
    case("histogram", AI, bins=3),
    case("histogram", A.astype("float32"), 5),
    case("histogram", XN, 4, range=(-1.0, 1.0)),
    case("histogram", np.full(4, 2.0), 2),
    case("histogram", np.zeros(0), 3),
    case("gradient", V),
    case("gradient", A),
    case("gradient", A, axis=1),
    case("gradient", A, 2.0),
    case("gradient", A, 0.5, axis=0, edge_order=2),
    case("gradient", A3, axis=(0, 2)),
    case("gradient", V, COORDS),
    case("gradient", V, COORDS, edge_order=2),
    case("gradient", A, 1.5, COORDS[:4]),
    case("gradient", AI),
    case("gradient", A.astype("float32"), edge_order=2),
]

@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_shape(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)


@pytest.mark.parametrize("name", ["unique_counts", "unique_inverse", "unique_all"])
def test_unique_named_fields(name, backend):
    """numpy 2's unique_* return named tuples with numpy's field names."""
    from dispatch import do

    x = UNAN.reshape(2, 4)
    expected = getattr(np, name)(x)
    res = do(name, to_backend(x, backend))
    assert tuple(res._fields) == tuple(expected._fields)
    for field in expected._fields:
        assert_close(to_np(getattr(res, field)), getattr(expected, field))
