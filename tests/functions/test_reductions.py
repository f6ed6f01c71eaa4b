"""Reductions: numpy semantics (axis int/tuple/None, keepdims, ddof) on every backend."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import case, params

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


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_reduction(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)
