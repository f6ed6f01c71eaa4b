"""Element-wise names: unary and binary (broadcasting shapes, Python scalar operands)."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from .spec import Call, Prop
from .strategies import ALL, COMPLEX, FLOAT, INT, INT_BOOL, NUMERIC, REAL, Drawer


def unary(dtypes=FLOAT, **values: Any):
    """One array of a drawn dtype and shape; ``values`` restrict the domain."""

    def build(d: Drawer) -> Call:
        dt = d.dtype(dtypes)
        return (d.array(dt, **values),), {}

    return build


def binary(dtypes=NUMERIC, a: dict | None = None, b: dict | None = None, scalars: bool = True,
           mixed: bool = True):
    """Two arrays of broadcastable shapes; sometimes one side is a Python scalar,
    sometimes the second array has another dtype of the allowed set (promotion)."""
    a, b = a or {}, b or {}

    def build(d: Drawer) -> Call:
        dt = d.dtype(dtypes)
        dt2 = d.dtype(dtypes) if mixed and d.integer(0, 3) == 0 else dt
        s1, s2 = d.broadcast_shapes(2)
        x = d.array(dt, s1, **a)
        form = d.integer(0, 5) if scalars else 0
        if form == 1:
            return (x, d.scalar(dt, **b)), {}
        if form == 2:
            return (d.scalar(dt, **a), d.array(dt, s2, **b)), {}
        return (x, d.array(dt2, s2, **b)), {}

    return build


def _f32(fn):
    """Reference at float32 for list methods that cast integers to the default float."""
    return lambda x: fn(np.asarray(x).astype(np.float32) if x.dtype.kind in "biu" else x)


EXACT = {"exact": True}
POS = {"lo": 0.25, "hi": 8}
UNIT = {"lo": -0.95, "hi": 0.95}
NONZERO = {"nonzero": True, "exact": True}
SPECIAL = {"special": True, "exact": True}

PROPS: dict[str, Prop] = {}

# -------------------------------------------------------------- unary
for _name in (
    "exp exp2 expm1 sin cos arctan sinh cosh tanh arcsinh deg2rad rad2deg degrees "
    "radians sinc i0 cbrt"
).split():
    PROPS[_name] = Prop(unary(FLOAT + INT))
for _name in ("sqrt", "log", "log2", "log10"):
    PROPS[_name] = Prop(unary(FLOAT + INT, **POS))
PROPS["log1p"] = Prop(unary(FLOAT, lo=-0.75, hi=8))
PROPS["tan"] = Prop(unary(FLOAT, lo=-1.5, hi=1.5))
for _name in ("arcsin", "arccos", "arctanh"):
    PROPS[_name] = Prop(unary(FLOAT, **UNIT))
PROPS["arccosh"] = Prop(unary(FLOAT, lo=1, hi=8))
PROPS["reciprocal"] = Prop(unary(FLOAT + COMPLEX, nonzero=True))
PROPS["spacing"] = Prop(unary(FLOAT))
for _name in ("floor", "ceil", "trunc", "rint", "fix"):
    PROPS[_name] = Prop(unary(REAL))
PROPS["fabs"] = Prop(unary((*REAL, "bool", "int8", "int16"), exact=True))
for _name in ("abs", "absolute", "negative", "positive", "sign", "square"):
    PROPS[_name] = Prop(unary(NUMERIC, exact=True))
for _name in ("real", "imag", "conj", "conjugate", "angle"):
    PROPS[_name] = Prop(unary(REAL + COMPLEX, exact=True))
for _name in ("isnan", "isinf", "isfinite"):
    PROPS[_name] = Prop(unary(ALL, **SPECIAL))
for _name in ("isneginf", "isposinf", "signbit"):
    PROPS[_name] = Prop(unary(REAL, **SPECIAL))
PROPS["nan_to_num"] = Prop(unary(REAL + COMPLEX, **SPECIAL))
PROPS["logical_not"] = Prop(unary(ALL, exact=True))
for _name in ("invert", "bitwise_not"):
    PROPS[_name] = Prop(unary(INT_BOOL))
PROPS["round"] = Prop(
    lambda d: (
        (d.array(d.dtype(NUMERIC), lo=-40, hi=40, exact=d.boolean()),),
        {"decimals": d.integer(-1, 2)} if d.boolean() else {},
    )
)
# complex arguments of the holomorphic functions
for _name in ("exp", "sin", "cos", "tanh", "sqrt", "log"):
    PROPS[_name + "|complex"] = Prop(unary(COMPLEX, lo=-3, hi=3, exact=True, nonzero=True))

# -------------------------------------------------------------- binary
for _name in ("add", "subtract", "multiply", "equal", "not_equal"):
    PROPS[_name] = Prop(binary(ALL if _name != "subtract" else NUMERIC, EXACT, EXACT))
for _name in ("less", "less_equal", "greater", "greater_equal"):
    PROPS[_name] = Prop(binary((*REAL, "bool"), SPECIAL, SPECIAL))
for _name in ("maximum", "minimum", "fmax", "fmin"):
    PROPS[_name] = Prop(binary(REAL, SPECIAL, SPECIAL))
for _name in ("divide", "true_divide"):
    PROPS[_name] = Prop(binary(REAL + COMPLEX, EXACT, NONZERO))
for _name in ("floor_divide", "mod", "remainder", "fmod", "divmod"):
    PROPS[_name] = Prop(binary(REAL, EXACT, NONZERO))
# numpy's float loops of integers: 1-byte float16, 2-byte float32, wider the default
PROPS["modf"] = Prop(unary((*FLOAT, "int8", "int16", *INT), special=True))
PROPS["frexp"] = Prop(unary((*FLOAT, "int8", *INT), special=True))
PROPS["bitwise_count"] = Prop(unary((*INT, "int8", "int16"), lo=-128, hi=127))
PROPS["bitwise_count|unsigned"] = Prop(unary(("uint8", "uint32"), lo=0, hi=255))
PROPS["power"] = Prop(binary(FLOAT, {"lo": 0.25, "hi": 4}, {"lo": -3, "hi": 3}))
PROPS["power|int"] = Prop(binary(INT, {"lo": -6, "hi": 6}, {"lo": 0, "hi": 5}, mixed=False))
PROPS["float_power"] = Prop(binary(FLOAT + INT, {"lo": 0.25, "hi": 4}, {"lo": 0, "hi": 3}))
for _name in ("arctan2", "hypot", "logaddexp", "logaddexp2", "copysign", "nextafter"):
    PROPS[_name] = Prop(binary(FLOAT, EXACT, EXACT))
PROPS["heaviside"] = Prop(binary(FLOAT, EXACT, EXACT))
for _name in ("logical_and", "logical_or", "logical_xor"):
    PROPS[_name] = Prop(binary(ALL, EXACT, EXACT))
for _name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    PROPS[_name] = Prop(binary(INT_BOOL))
for _name in ("left_shift", "right_shift"):
    PROPS[_name] = Prop(binary(INT, {}, {"lo": 0, "hi": 8}))
for _name in ("gcd", "lcm"):
    PROPS[_name] = Prop(binary(INT))
PROPS["ldexp"] = Prop(
    lambda d: (
        lambda s: (
            (d.array(d.dtype(FLOAT), s[0], exact=True), d.array(d.dtype(INT), s[1], lo=-4, hi=4)),
            {},
        )
    )(d.broadcast_shapes(2))
)


# clip: bounds as scalars, arrays, None or left out
def _clip(d: Drawer) -> Call:
    dt = d.dtype(REAL)
    s1, s2, s3 = d.broadcast_shapes(3)
    x = d.array(dt, s1, exact=True)

    def bound(shape: tuple[int, ...], lo: float, hi: float) -> Any:
        form = d.choice(["scalar", "array"])
        return d.scalar(dt, lo=lo, hi=hi) if form == "scalar" else d.array(
            dt, shape, lo=lo, hi=hi, exact=True
        )

    lo_v, hi_v = bound(s2, -8, 0), bound(s3, 0, 8)
    which = d.choice(["both", "lo", "hi", "neither"])
    lo = lo_v if which in ("both", "lo") else None
    hi = hi_v if which in ("both", "hi") else None
    # the bounds positional (None for one left out), as keywords (numpy's a_min/a_max,
    # or numpy 2.1's min/max), or left out of the call (numpy refuses some of these
    # forms: those examples are rejected)
    form = d.choice(["positional", "a_keywords", "keywords", "left_out"])
    if form == "positional":
        return (x, lo, hi), {}
    if form == "left_out":
        return (x, *(() if lo is None and hi is None else (lo,))), {}
    names = ("a_min", "a_max") if form == "a_keywords" else ("min", "max")
    return (x,), {k: v for k, v in zip(names, (lo, hi), strict=True) if v is not None}


PROPS["clip"] = Prop(_clip)


def _close(d: Drawer) -> Call:
    dt = d.dtype(FLOAT + COMPLEX)
    s1, s2 = d.broadcast_shapes(2)
    x = d.array(dt, s1, special=True, exact=True)
    y = x + d.array(dt, (), lo=-1e-3, hi=1e-3) if d.boolean() and s1 == s2 else d.array(
        dt, s2, special=True, exact=True
    )
    kwargs: dict[str, Any] = {}
    if d.boolean():
        kwargs["atol"] = d.choice([0.0, 1e-2, 1.0])
    if d.boolean():
        kwargs["equal_nan"] = d.boolean()
    return (x, y), kwargs


PROPS["isclose"] = Prop(_close)
PROPS["allclose"] = Prop(_close)

# -------------------------------------------------------------- numpy 2 / array API aliases
# (table names of some libraries; the reference is numpy's function of that name)
for _name, _like in {
    "acos": "arccos", "asin": "arcsin", "atan": "arctan", "acosh": "arccosh",
    "asinh": "arcsinh", "atanh": "arctanh", "atan2": "arctan2",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
    "bitwise_invert": "invert", "pow": "power",
}.items():
    PROPS[_name] = Prop(PROPS[_like].build)

# -------------------------------------------------------------- scipy.special
for _name, _values in {
    "erf": {}, "erfc": {}, "expit": {}, "erfinv": UNIT, "gammaln": POS, "digamma": POS,
    "logit": {"lo": 0.05, "hi": 0.95}, "ndtr": {}, "log_ndtr": {"lo": -4, "hi": 8},
    "ndtri": {"lo": 0.05, "hi": 0.95}, "i0": {}, "i0e": {}, "i1": {}, "i1e": {},
    "erfcx": {"lo": -2, "hi": 8}, "entr": {"lo": 0, "hi": 8}, "psi": POS,
    "j0": {}, "j1": {}, "y0": POS, "y1": POS, "k0": POS, "k0e": POS, "k1": POS, "k1e": POS,
}.items():
    PROPS["scipy.special." + _name] = Prop(unary(FLOAT, **_values))
for _name, _a, _b in [
    ("xlogy", {"lo": -4, "hi": 4}, POS),
    ("xlog1py", {"lo": -4, "hi": 4}, {"lo": -0.75, "hi": 8}),
    ("gammainc", POS, POS),
    ("gammaincc", POS, POS),
    ("zeta", {"lo": 1.5, "hi": 8}, POS),
]:
    PROPS["scipy.special." + _name] = Prop(binary(FLOAT, _a, _b, scalars=False, mixed=False))
# polygamma and multigammaln are Python functions in scipy (not ufuncs): their float64
# result for float32 input is an accident of their code, so only the kind is compared
# (scipy computes psi, n == 0, and multigammaln in float32 for float32 x before widening:
# with dtype="kind" the runner compares at the precision of the float inputs)
PROPS["scipy.special.polygamma"] = Prop(
    lambda d: ((np.asarray(d.integer(0, 3)), d.array(d.dtype(FLOAT), **POS)), {}), dtype="kind"
)
PROPS["scipy.special.multigammaln"] = Prop(
    lambda d: ((d.array(d.dtype(FLOAT), lo=3, hi=8), d.integer(1, 3)), {}), dtype="kind"
)
# Bessel functions cross zero: relative error is meaningless there, so an absolute floor
for _name in ("j0", "j1", "y0", "y1"):
    PROPS["scipy.special." + _name] = Prop(
        PROPS["scipy.special." + _name].build, atol=1e-6
    )

# -------------------------------------------------------------- element-wise list methods
PROPS["erf"] = Prop(unary(FLOAT), ref=sc.erf)
PROPS["sigmoid"] = Prop(unary(FLOAT, lo=-50, hi=50), ref=sc.expit)
PROPS["log_gamma"] = Prop(unary(FLOAT, **POS), ref=sc.gammaln)
PROPS["softplus"] = Prop(
    unary(FLOAT, lo=-50, hi=50), ref=lambda x: np.logaddexp(x, x.dtype.type(0))
)
PROPS["gamma_inc_l"] = Prop(binary(FLOAT, POS, POS, scalars=False, mixed=False), ref=sc.gammainc)
PROPS["gamma_inc_u"] = Prop(binary(FLOAT, POS, POS, scalars=False, mixed=False), ref=sc.gammaincc)


def _divide_no_nan_ref(x, y):
    y = np.asarray(y)
    safe = np.where(y == 0, 1, y).astype(y.dtype)
    return np.where(y == 0, 0, np.divide(x, safe))


PROPS["divide_no_nan"] = Prop(
    lambda d: (
        lambda dt, s: ((d.array(dt, s[0], exact=True), d.array(dt, s[1], exact=True, lo=-2, hi=2)),
                       {})
    )(d.dtype(FLOAT), d.broadcast_shapes(2)),
    ref=_divide_no_nan_ref,
)
# the list's auto-casting operators, on operands of one dtype (no casting involved)
for _name, _np, _dtypes, _b in [
    ("sub", np.subtract, NUMERIC, EXACT),
    ("mul", np.multiply, NUMERIC, EXACT),
    ("div", np.divide, FLOAT + COMPLEX, NONZERO),
    ("floordiv", np.floor_divide, REAL, NONZERO),
    ("greater_than", np.greater, REAL, EXACT),
    ("greater_or_equal", np.greater_equal, REAL, EXACT),
    ("and_", np.bitwise_and, INT_BOOL, {}),
    ("or_", np.bitwise_or, INT_BOOL, {}),
    ("xor", np.bitwise_xor, INT_BOOL, {}),
    ("shift_bits_left", np.left_shift, INT, {"lo": 0, "hi": 8}),
    ("shift_bits_right", np.right_shift, INT, {"lo": 0, "hi": 8}),
]:
    PROPS[_name] = Prop(binary(_dtypes, EXACT, _b, scalars=False, mixed=False), ref=_np)


# -------------------------------------------------------------- numpy's predicates and conversions
for _name in ("iscomplex", "isreal", "asanyarray", "ascontiguousarray"):
    PROPS[_name] = Prop(unary(ALL, exact=True))
PROPS["asarray_chkfinite"] = Prop(unary(ALL, special=True))  # NaN and inf: numpy refuses


def _nearly_real(d: Drawer) -> Call:
    """A complex array whose imaginary parts are tiny (within tol) or not."""
    # the complex dtype is drawn first and the real parts at its width: a float64 draw
    # cast to complex64 (mlx has no complex128) would be offered but never checked
    cdt = d.dtype(COMPLEX)
    x = d.array(np.dtype(np.float32 if cdt == np.complex64 else np.float64))
    imag = 1e-3 if d.boolean() else 1e-20
    return ((x + imag * 1j).astype(cdt),), {}


def _maybe_equal(d: Drawer) -> Call:
    """Two arrays of broadcastable shapes, sometimes the same values."""
    dt = d.dtype(ALL)
    s1, s2 = d.broadcast_shapes(2)
    x = d.array(dt, s1, exact=True)
    if d.boolean():
        return (x, np.broadcast_to(x, np.broadcast_shapes(s1, s2)).copy()), {}
    return (x, d.array(dt, s2, exact=True)), {}


PROPS["real_if_close"] = Prop(_nearly_real)
PROPS["array_equiv"] = Prop(_maybe_equal)
