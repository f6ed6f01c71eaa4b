"""Element-wise methods of the backend method list on every backend, against
numpy/scipy references: erf, softplus, log_gamma, gamma_inc_l, gamma_inc_u,
factorial, sigmoid, divide_no_nan and the auto-casting operators (sub, mul,
div, greater_than, greater_or_equal, and_, or_, xor, floordiv,
shift_bits_left, shift_bits_right)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.special as sc
from conftest import case, params

rng = np.random.default_rng(9)
F = rng.standard_normal((3, 4))
F32 = F.astype("float32")
POS = rng.uniform(0.1, 5.0, (3, 4))
INTS = rng.integers(-6, 7, (3, 4))
I_ROW = rng.integers(1, 4, (1, 4))  # a batch of 1 broadcast against 3
B = rng.random((3, 4)) > 0.5


def f32(fn):
    """Reference on ints: the float32 result (``to_float`` at the default precision)."""
    return lambda *a: fn(*[np.asarray(v).astype("float32") for v in a])


def ref_divide_no_nan(x, y):
    return np.where(y == 0, 0.0, x / np.where(y == 0, 1, y))


SPECIAL = [
    case("erf", F, _ref=sc.erf),
    case("erf", F32, _ref=sc.erf),
    case("erf", INTS, _ref=f32(sc.erf)),
    case("softplus", F * 300, _ref=lambda x: np.logaddexp(x, 0)),
    case("softplus", F32, _ref=lambda x: np.logaddexp(x, np.float32(0))),
    case("log_gamma", POS, _ref=sc.gammaln),
    case("gamma_inc_l", POS, POS[::-1], _ref=sc.gammainc),
    case("gamma_inc_u", POS, POS[:1], _ref=sc.gammaincc),
    case("sigmoid", F * 50, _ref=sc.expit),
    case("sigmoid", np.zeros(0), _ref=sc.expit),
    case("factorial", np.arange(21), _ref=lambda x: np.array([math.factorial(v) for v in x])),
    case("factorial", np.arange(13, dtype="int32"),
         _ref=lambda x: np.array([math.factorial(v) for v in x], "int32")),
    case("factorial", POS, _ref=lambda x: sc.gamma(x + 1), _rtol=1e-6),
    case("divide_no_nan", F, np.where(B, 0.0, POS), _ref=lambda x, y: ref_divide_no_nan(x, y)),
    # int / int: the float width is the library's (README, dtype policy)
    case(
        "divide_no_nan",
        INTS,
        np.where(B, 0, I_ROW),
        _ref=lambda x, y: ref_divide_no_nan(x, y),
        _dtype="kind",
    ),
    case("divide_no_nan", F, 0.0, _ref=lambda x, y: np.zeros_like(x)),
]


def weak_ref(op, dtype):
    return lambda a, b: op(np.asarray(a).astype(dtype), np.asarray(b).astype(dtype))


OPERATORS = [
    case("sub", INTS, F32[:1], _ref=weak_ref(np.subtract, "float32")),
    case("sub", B, B[::-1], _ref=weak_ref(np.subtract, "int32")),
    case("mul", INTS, I_ROW, _ref=np.multiply),
    case("mul", F32, 2.0, _ref=lambda a, b: a * np.float32(b)),
    case("div", INTS, I_ROW, _ref=np.divide, _dtype="kind"),
    case("div", F32, F, _ref=np.divide),
    case("greater_than", INTS, F32[:1], _ref=weak_ref(np.greater, "float32")),
    case("greater_or_equal", INTS, I_ROW, _ref=np.greater_equal),
    case("and_", B, B[::-1], _ref=np.bitwise_and),
    case("or_", INTS, I_ROW, _ref=np.bitwise_or),
    case("xor", B, B[:1], _ref=np.bitwise_xor),
    case("floordiv", INTS, I_ROW, _ref=np.floor_divide),
    case("floordiv", F, 0.7, _ref=np.floor_divide),
    case("shift_bits_left", np.abs(INTS), I_ROW, _ref=np.left_shift),
    case("shift_bits_right", np.abs(INTS) * 8, I_ROW, _ref=np.right_shift),
    case("sub", np.zeros((0, 4)), np.ones((1, 4), "float32"), _ref=np.subtract),
]


def run(c, backend):
    # a name the composed method needs and the table lacks is a failure, never a skip
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(SPECIAL + OPERATORS))
def test_matches_reference(backend, name, c):
    run(c, backend)


@pytest.mark.parametrize(("name", "c"), params([SPECIAL[13], OPERATORS[0], SPECIAL[10]]))
def test_inputs_not_mutated(backend, name, c):
    c.run_not_mutated(backend)
