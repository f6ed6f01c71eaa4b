"""Reductions: numpy semantics (axis int/tuple/None, keepdims, ddof) on every backend."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import case, params, to_backend, to_np

from dispatch import do

rng = np.random.default_rng(30)
A = rng.standard_normal((3, 4))
A3 = rng.standard_normal((2, 3, 4))
A32 = A.astype("float32")
AI = rng.integers(-5, 6, (3, 4))
AI_SMALL = rng.integers(1, 4, (3, 4))  # products that stay small
AB = rng.random((3, 4)) > 0.5
AC = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
V = rng.standard_normal(5)
S = np.array(1.5)
E = np.zeros((0, 3))
DUPS = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.5]])  # ties: argmax takes the first
ODD = rng.standard_normal((3, 5))  # median of an odd and an even count

AXES = [
    {},
    {"axis": 0},
    {"axis": 1},
    {"axis": -1},
    {"keepdims": True},
    {"axis": 1, "keepdims": True},
]
AXES3 = [{"axis": (0, 2)}, {"axis": (1, 2), "keepdims": True}, {"axis": -2}, {"axis": None}]

CASES = []
for fn in ("sum", "prod", "mean", "std", "var", "max", "min"):
    CASES += [case(fn, A, **kw) for kw in AXES]
    CASES += [case(fn, A3, **kw) for kw in AXES3]
    CASES.append(case(fn, A32, axis=0))
    CASES.append(case(fn, S))
for fn in ("std", "var"):
    CASES += [case(fn, A, ddof=1), case(fn, A, axis=0, ddof=1), case(fn, A3, axis=(0, 1), ddof=1)]
    CASES.append(case(fn, AC, axis=1))
for fn in ("sum", "prod", "max", "min"):
    CASES += [case(fn, AI), case(fn, AI, axis=1)]
CASES += [
    case("prod", AI_SMALL, axis=0),
    case("mean", AI),
    case("mean", AI, axis=0),
    case("mean", A, axis=1, dtype="float32"),
    case("sum", AB),
    case("sum", AB, axis=0),
    case("sum", AC),
    case("sum", AC, axis=0),
    case("mean", AC, axis=1),
    case("sum", A, axis=0, dtype="float32"),
    case("sum", AI, dtype="float64"),
    case("sum", E),
    case("sum", E, axis=0),
    case("sum", E, axis=1),
    case("prod", E),
    case("max", E, axis=1),
    case("min", V),
    case("max", np.array([1.0, np.nan, 3.0])),
]
for fn in ("argmax", "argmin"):
    CASES += [
        case(fn, A),
        case(fn, A, axis=0),
        case(fn, A, axis=-1),
        case(fn, A3, axis=1),
        case(fn, A, axis=1, keepdims=True),
        case(fn, AI),
        case(fn, DUPS, axis=1),
        case(fn, DUPS),
        case(fn, V),
    ]
for fn in ("any", "all"):
    CASES += [
        case(fn, AB),
        case(fn, AB, axis=0),
        case(fn, AB, axis=1, keepdims=True),
        case(fn, A > 0.5),
        case(fn, A3 > 0, axis=(0, 2)),
        case(fn, A),
        case(fn, AI, axis=0),
        case(fn, np.zeros((0,), dtype=bool)),
        case(fn, np.array(True)),
    ]
for fn in ("cumsum", "cumprod"):
    CASES += [
        case(fn, A),
        case(fn, A, axis=0),
        case(fn, A, axis=1),
        case(fn, A3, axis=-1),
        case(fn, AI_SMALL, axis=1),
        case(fn, AB, axis=0),
        case(fn, V),
        case(fn, np.zeros((0,))),
    ]
for fn in ("cumulative_sum", "cumulative_prod"):
    CASES += [
        case(fn, V),
        case(fn, S),
        case(fn, A, axis=0),
        case(fn, A32, axis=1),
        case(fn, A3, axis=-1, include_initial=True),
        case(fn, A32, axis=0, include_initial=True),
        case(fn, AI_SMALL, axis=1),
        case(fn, AI, axis=0, include_initial=True, dtype="float64"),
        case(fn, AB, axis=0),
        case(fn, np.zeros((2, 0)), axis=1, include_initial=True),
        case(fn, V.astype("float32"), include_initial=True),
    ]
CASES += [
    case("cumsum", A, axis=0, dtype="float32"),
    case("count_nonzero", AI),
    case("count_nonzero", AI, axis=0),
    case("count_nonzero", AB, axis=1),
    case("count_nonzero", A3 > 0, axis=(0, 2)),
    case("count_nonzero", AI, axis=1, keepdims=True),
    case("count_nonzero", E),
    case("median", A),
    case("median", ODD),
    case("median", A, axis=0),
    case("median", ODD, axis=1),
    case("median", A, axis=1, keepdims=True),
    case("median", A3, axis=(0, 2)),
    case("median", V),
    case("median", AI),
]


# NaN-skipping reductions, average and the quantile family
AN = A.copy()
AN[[0, 0, 1, 2], [1, 3, 0, 1]] = np.nan  # every row and column keeps a number
AN3 = A3.copy()
AN3[[0, 0, 1, 1], [0, 2, 1, 2], [1, 3, 0, 2]] = np.nan
ANR = AN.copy()
ANR[1] = np.nan  # an all-NaN row
ACN = np.where(np.isnan(AN), np.nan, AC)
W4 = rng.uniform(0.5, 2.0, 4)
W34 = rng.uniform(0.5, 2.0, (3, 4))
NAN_AXES = [{}, {"axis": 0}, {"axis": 1, "keepdims": True}, {"axis": -1}]
for fn in ("nanmax", "nanmin"):
    CASES += [case(fn, AN, **kw) for kw in NAN_AXES]
    CASES += [
        case(fn, AN3, axis=(0, 2)),
        case(fn, ANR, axis=1),
        case(fn, AN.astype("float32"), axis=0),
        case(fn, AI, axis=0),
        case(fn, AN, axis=1, initial=0.5),
    ]
for fn in ("nanargmax", "nanargmin"):
    CASES += [
        case(fn, AN),
        case(fn, AN, axis=0),
        case(fn, AN, axis=1, keepdims=True),
        case(fn, AN3, axis=-1),
        case(fn, AI, axis=1),
        case(fn, DUPS, axis=1),
    ]
CASES += [
    case("nancumsum", AN),
    case("nancumsum", AN, axis=0),
    case("nancumsum", AN3, axis=-1),
    case("nancumsum", AI, axis=1),
    case("nancumsum", AN, axis=1, dtype="float32"),
    case("nancumprod", AN),
    case("nancumprod", AN, axis=0),
    case("nancumprod", AN3, axis=-1),
    case("nancumprod", AI_SMALL, axis=1),
    case("nancumprod", AN.astype("float32"), axis=1),
    case("nancumprod", AN, axis=1, dtype="float32"),
    case("nanprod", AN),
    case("nanprod", AN, axis=1),
    case("nanprod", AN3, axis=(0, 2), keepdims=True),
    case("nanprod", AI_SMALL, axis=0),
    case("nanprod", ANR, axis=1),
]
for fn in ("nanvar", "nanstd"):
    CASES += [case(fn, AN, **kw) for kw in NAN_AXES]
    CASES += [
        case(fn, AN, axis=0, ddof=1),
        case(fn, ANR, axis=1),
        case(fn, AN3, axis=(0, 2), keepdims=True),
        case(fn, AI, axis=1),
        case(fn, ACN, axis=1),
        case(fn, AN.astype("float32"), axis=0),
        case(fn, AN, axis=1, dtype="float32"),
    ]
CASES += [
    case("average", A),
    case("average", A, axis=0),
    case("average", A, axis=1, weights=W4),
    case("average", A, weights=W34),
    case("average", A, axis=1, weights=W4, keepdims=True),
    case("average", A, axis=0, weights=W34, returned=True),
    case("average", A, axis=1, weights=W4, returned=True),
    case("average", A3, axis=(0, 2), weights=rng.uniform(0.5, 2.0, (2, 4))),
    case("average", AI, axis=0, weights=AI_SMALL),
    case("average", AI, axis=1),
    case("average", A, returned=True),
    case("average", A, axis=1, returned=True),
    case("average", A.astype("float32"), axis=0, weights=W4[:3].astype("float32")),
]
for fn, qs in (("quantile", (0.3, [0.0, 0.5, 1.0])), ("percentile", (30, [0, 50, 100]))):
    q, qlist = qs
    CASES += [
        case(fn, A, q),
        case(fn, A, qlist, axis=0),
        case(fn, A, np.array(qlist), axis=1, keepdims=True),
        case(fn, A3, q, axis=(0, 2)),
        case(fn, A3, q, axis=-2, keepdims=True),
        case(fn, AI, q),
        case(fn, A32, q, axis=1),
        case(fn, AN, q, axis=1),
        case(fn, ODD, np.array(qlist)),
        *[case(fn, ODD, qlist, axis=1, method=m) for m in ("lower", "higher", "nearest")],
        case(fn, ODD, np.array(qlist), method="midpoint"),
        case(fn, V, q),
    ]
for fn, qs in (("nanquantile", (0.3, [0.2, 0.8])), ("nanpercentile", (30, [20, 80]))):
    q, qlist = qs
    CASES += [
        case(fn, AN, q),
        case(fn, AN, qlist, axis=1),
        case(fn, AN, np.array(qlist), axis=0, keepdims=True),
        case(fn, ANR, q, axis=1),
        case(fn, AN3, q, axis=(0, 2)),
        case(fn, AI, q, axis=0),
        case(fn, AN.astype("float32"), q, axis=1),
        case(fn, AN, qlist, axis=1, method="nearest"),
        case(fn, AN, q, axis=0, method="midpoint"),
    ]
CASES += [
    case("nanmedian", AN),
    case("nanmedian", AN, axis=0),
    case("nanmedian", AN, axis=1, keepdims=True),
    case("nanmedian", ANR, axis=1),
    case("nanmedian", AN3, axis=(0, 2)),
    case("nanmedian", AI),
    case("nanmedian", AN.astype("float32"), axis=1),
    case("nanmedian", A),
]
# trapezoid: numpy's rule (x 1-d along axis or of y's shape, dx, integers give float64)
X_POINTS = np.cumsum(rng.uniform(0.1, 1.0, 4))  # uneven, increasing
CASES += [
    case("trapezoid", V),
    case("trapezoid", A, axis=0),
    case("trapezoid", A, x=X_POINTS),
    case("trapezoid", A32, dx=0.25),
    case("trapezoid", A32, x=X_POINTS.astype("float32"), axis=-1),
    case("trapezoid", A3, x=np.cumsum(rng.uniform(0.1, 1.0, 3)), axis=1),
    case("trapezoid", A3, x=np.cumsum(rng.uniform(0.1, 1.0, (2, 3, 4)), axis=0), axis=0),
    case("trapezoid", AI, axis=1),
    case("trapezoid", AI, x=np.array([0, 2, 3, 7]), axis=1),
    case("trapezoid", AI_SMALL, dx=1.5, axis=0),
    case("trapezoid", np.zeros((2, 1)) + 3.0, axis=1),
]

@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_reduction(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_nanarg_all_nan_slice_raises(name, backend):
    """numpy raises ValueError for an all-NaN slice; a lazy library when computed."""
    with pytest.raises(ValueError, match=r"All.NaN slice"):
        to_np(do(name, to_backend(ANR, backend), axis=1))

