"""Elementwise math and comparisons: numpy semantics on every backend."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import case, params

rng = np.random.default_rng(20)
A = rng.standard_normal((3, 4))
B = rng.standard_normal((3, 4))
ROW = rng.standard_normal(4)
A32 = A.astype("float32")
POS = rng.uniform(0.5, 3.0, (3, 4))  # domain of sqrt, log, power bases
POS2 = rng.uniform(0.5, 3.0, (3, 4))
UNIT = rng.uniform(-0.9, 0.9, (3, 4))  # domain of arcsin, arccos, arctanh
GE1 = rng.uniform(1.1, 4.0, (3, 4))  # domain of arccosh
AI = rng.integers(-6, 7, (3, 4))
AI_NZ = np.where(AI == 0, 3, AI)  # nonzero divisors
UI = rng.integers(0, 8, (3, 4))  # small non-negative ints (shifts, gcd)
UI2 = rng.integers(1, 4, (3, 4))
AB = rng.random((3, 4)) > 0.5
BB = rng.random((3, 4)) > 0.5
AC = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
BC = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
SPECIAL = np.array([0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan])
HALVES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.4999, 3.7])  # round half to even
S = np.array(0.7)  # 0-d
E = np.zeros((0, 3))  # empty

DOMAIN = {
    "sqrt": POS,
    "log": POS,
    "log2": POS,
    "log10": POS,
    "log1p": POS,
    "reciprocal": POS,
    "arcsin": UNIT,
    "arccos": UNIT,
    "arctanh": UNIT,
    "arccosh": GE1,
}
UNARY_FLOAT = [
    "abs",
    "absolute",
    "negative",
    "positive",
    "sign",
    "sqrt",
    "cbrt",
    "square",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "floor",
    "ceil",
    "trunc",
    "rint",
    "fix",
    "deg2rad",
    "rad2deg",
    "degrees",
    "radians",
    "sinc",
    "i0",
    "reciprocal",
    "real",
    "imag",
    "conj",
    "conjugate",
    "angle",
    "spacing",
]
UNARY_PREDICATES = ["isnan", "isinf", "isfinite", "isneginf", "isposinf", "signbit"]
UNARY_INT = ["abs", "absolute", "negative", "positive", "sign", "square"]
UNARY_COMPLEX = [
    "abs",
    "exp",
    "sqrt",
    "log",
    "sin",
    "cos",
    "tanh",
    "real",
    "imag",
    "conj",
    "conjugate",
    "angle",
    "negative",
    "square",
]

BINARY_FLOAT = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "arctan2",
    "hypot",
    "logaddexp",
    "logaddexp2",
    "copysign",
    "nextafter",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
]
BINARY_POS = ["power", "float_power"]  # positive bases
BINARY_DIVISION = ["floor_divide", "mod", "remainder", "fmod"]  # nonzero divisors
BINARY_INT = [
    "add",
    "subtract",
    "multiply",
    "floor_divide",
    "mod",
    "remainder",
    "fmod",
    "maximum",
    "minimum",
    "equal",
    "less",
    "greater_equal",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
]
BINARY_BOOL = [
    "logical_and",
    "logical_or",
    "logical_xor",
    "equal",
    "not_equal",
    "bitwise_and",
    "bitwise_or",
]

CASES = []
for fn in UNARY_FLOAT:
    x = DOMAIN.get(fn, A)
    CASES.append(case(fn, x))
    CASES.append(case(fn, x.astype("float32")))
CASES += [case(fn, DOMAIN.get(fn, A)[0, 0].reshape(())) for fn in ("exp", "sqrt", "abs", "sin")]
CASES += [case(fn, E) for fn in ("exp", "abs", "negative", "isnan", "floor")]
CASES += [case(fn, SPECIAL) for fn in UNARY_PREDICATES]
CASES += [case(fn, A) for fn in UNARY_PREDICATES]
CASES += [case(fn, AI) for fn in UNARY_INT]
CASES += [
    case("fabs", A),
    case("fabs", A32),
    case("fabs", T := rng.standard_normal((2, 3, 4))),
    case("fabs", SPECIAL),
    case("fabs", S),
    case("fabs", E),
    case("fabs", AI),
    case("fabs", AI.astype("int16")),
    case("fabs", AI.astype("int8")),
    case("fabs", AB),
]
CASES += [case(fn, AC) for fn in UNARY_COMPLEX]
CASES += [
    case("round", HALVES),
    case("round", A, decimals=2),
    case("round", A, 1),
    case("round", AI),
    case("rint", HALVES),
    case("logical_not", AB),
    case("logical_not", A),
    case("invert", AI),
    case("invert", AB),
    case("bitwise_not", AI),
    case("nan_to_num", SPECIAL),
    case("nan_to_num", SPECIAL, nan=-1.0, posinf=9.0, neginf=-9.0),
    case("nan_to_num", A),
    case("sign", SPECIAL[:4]),
    case("sqrt", AC.astype("complex64")),
]

for fn in BINARY_FLOAT:
    CASES.append(case(fn, A, B))
CASES += [case(fn, POS, B) for fn in BINARY_POS]
CASES += [case(fn, A, AI_NZ.astype("float64")) for fn in BINARY_DIVISION]
CASES += [case(fn, AI, AI_NZ) for fn in BINARY_INT]
CASES += [case(fn, AB, BB) for fn in BINARY_BOOL]
CASES += [
    # broadcasting, 0-d, empty
    case("add", A, ROW),
    case("multiply", ROW, A),
    case("subtract", A[:, :1], ROW),
    case("add", A, S),
    case("maximum", S, A),
    case("add", E, np.ones(3)),
    case("multiply", A32, B.astype("float32")),
    # Python scalars, first and second (numpy 2 promotion: a float32 array stays float32)
    case("add", A, 2.0),
    case("add", 2.0, A),
    case("subtract", 1.0, A),
    case("multiply", A32, 3.0),
    case("multiply", 3.0, A32),
    case("divide", 1.0, POS),
    case("power", POS, 2),
    case("power", 2.0, A),
    case("power", AI_NZ.astype("float64"), -1),
    case("maximum", A, 0.0),
    case("minimum", 0.0, A),
    case("greater", A, 0.0),
    case("less_equal", 0.0, A),
    case("equal", AI, 2),
    case("add", AI, 1),
    # int and float mixed: the float width is the library's (torch picks its default
    # float, float32); the kind always matches numpy (README, "dtype promotion")
    case("add", AI, 1.5, _dtype="kind"),
    case("multiply", AB, 2),
    case("fmod", A, 0.7),
    case("mod", A, 0.7),
    case("mod", -A, 0.7),
    case("floor_divide", A, 0.7),
    case("arctan2", A, 1.0),
    case("copysign", 1.0, A),
    case("heaviside", np.array([-1.5, 0.0, 2.0]), 0.5),
    case("heaviside", A, B),
    # mixed dtypes promote like numpy
    case("add", A32, A),
    case("add", AI, A),
    case("multiply", AI, A32, _dtype="kind"),
    case("divide", AI, AI_NZ, _dtype="kind"),
    case("true_divide", AI, 2, _dtype="kind"),
    case("power", AI, UI2),
    case("power", UI, 2),
    case("float_power", AI_NZ, 2),
    case("add", A, AC),
    case("multiply", AC, BC),
    case("divide", AC, BC),
    case("equal", AC, BC),
    # integer-only functions
    case("left_shift", UI, UI2),
    case("right_shift", UI * 8, UI2),
    case("gcd", UI, UI2 * 2),
    case("lcm", UI, UI2 * 2),
    case("ldexp", A, UI2),
    # clip and closeness
    case("clip", A, -0.5, 0.5),
    case("clip", AI, -2, 3),
    case("clip", A, None, 0.5),
    case("clip", A, -0.5, None),
    case("clip", A, B - 0.5, B + 0.5),
    case("clip", A, -ROW, ROW + 1),
    case("clip", S, 0.0, 0.5),
    case("isclose", A, A + 1e-9),
    case("isclose", A, B),
    case("isclose", A, B, atol=3.0),
    case("isclose", A, A * (1 + 1e-3), rtol=1e-2),
    case("isclose", SPECIAL, SPECIAL),
    case("isclose", SPECIAL, SPECIAL, equal_nan=True),
    case("isclose", A, 0.1),
    case("allclose", A, A + 1e-9),
    case("allclose", A, B),
    case("allclose", A, B, atol=10.0),
    case("allclose", A, A * (1 + 1e-3), rtol=1e-2),
    case("allclose", SPECIAL, SPECIAL, equal_nan=True),
]


# ufuncs of two outputs: divmod, modf, frexp (float loops of integers as numpy's: 1-byte
# float16, 2-byte float32, wider the library's default float)
TINY = np.array([5e-324, -1e-310, 2.2250738585072014e-308, 1e300, -0.75, 1.0, 2.0 - 2**-52])
CASES += [
    case("divmod", AI, AI_NZ),
    case("divmod", AI, 3),
    case("divmod", -7, AI_NZ),
    case("divmod", AI.astype("int32"), AI_NZ.astype("int32")),
    case("divmod", A, 0.7),
    case("divmod", A, B),
    case("divmod", A32, A32[::-1]),
    case("divmod", -A, POS),
    case("divmod", SPECIAL, SPECIAL[::-1]),
    case("modf", A),
    case("modf", A * 10),
    case("modf", A32 * 7),
    case("modf", SPECIAL),
    case("modf", HALVES),
    case("modf", S),
    case("modf", E),
    case("modf", AI),
    case("modf", AI.astype("int8")),
    case("modf", AI.astype("int16")),
    case("modf", AB),
    case("frexp", A * 100),
    case("frexp", A32 * 1e-3),
    case("frexp", SPECIAL),
    case("frexp", TINY),
    case("frexp", np.array([1e-45, -3e-39, 3e38, 0.5, 1.0], "float32")),
    case("frexp", np.array([6e-8, 1e-5, 65504.0, -0.1, 2.0], "float16")),
    case("frexp", S),
    case("frexp", E),
    case("frexp", AI),
    case("frexp", AI.astype("int8")),
    case("frexp", AB),
    case("bitwise_count", AI),
    case("bitwise_count", UI * 37),
    case("bitwise_count", AI.astype("int8")),
    case("bitwise_count", AI.astype("int32") * 1000),
    case("bitwise_count", UI.astype("uint8") * 31),
    case("bitwise_count", np.array([-(2**63), 2**63 - 1, -1, 0, 2**40 + 3])),
    case("bitwise_count", np.array([2**64 - 1, 2**63, 5], "uint64")),
]


# the array API's spellings of numpy's ufuncs
ARRAY_API = {"acos": UNIT, "asin": UNIT, "atan": A, "acosh": GE1, "asinh": A, "atanh": UNIT}
CASES += [case(fn, x) for fn, x in ARRAY_API.items()]
CASES += [case(fn, x.astype("float32")) for fn, x in ARRAY_API.items()]
CASES += [
    case("acos", SPECIAL),
    case("atan", SPECIAL),
    case("asinh", AC),
    case("atan2", A, B),
    case("atan2", A, 1.0),
    case("atan2", SPECIAL, SPECIAL[::-1]),
    case("bitwise_left_shift", UI, UI2),
    case("bitwise_left_shift", UI, 2),
    case("bitwise_right_shift", UI * 8, UI2),
    case("bitwise_right_shift", AI, 1),
]

@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_elementwise(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)
