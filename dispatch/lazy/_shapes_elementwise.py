"""Shape rules of elementwise functions: broadcasting, and numpy's dtype promotion
(NEP 50 for Python scalars); ``*_like`` creation, ``astype``, ``where``, ``clip``,
comparisons of whole arrays and ``interp``.
"""

from __future__ import annotations

from dispatch.lazy._shapes_abstract import abstract
from dispatch.lazy._shapes_common import (
    _LAZY,
    Rule,
    ShapeError,
    _arg,
    _as_shape,
    _same,
    broadcast,
    dtype_name,
    dtype_of,
    dtype_of_array,
    eval_dtype,
    promote,
    shape_of,
)
from dispatch.translations import _vocabulary as vocabulary

RULES: dict[str, Rule] = {}


def _unary(name: str) -> Rule:
    def rule(args: tuple, kwargs: dict) -> tuple:
        x = args[0]
        extra = args[1:]
        d = dtype_of(x)
        if extra and any(type(e) is _LAZY[0] for e in extra):
            return abstract(name, args, kwargs)
        return shape_of(x), eval_dtype(name, (d,), tuple(extra), kwargs)

    return rule


def _binary(name: str) -> Rule:
    def rule(args: tuple, kwargs: dict) -> tuple:
        if len(args) != 2:
            return abstract(name, args, kwargs)
        a, b = args
        return broadcast(shape_of(a), shape_of(b)), eval_dtype(
            name, (dtype_of(a), dtype_of(b)), (), kwargs
        )

    return rule


for _n in vocabulary.ELEMENTWISE_UNARY:
    RULES[_n] = _unary(_n)
for _n in vocabulary.ELEMENTWISE_BINARY:
    RULES[_n] = _binary(_n)
for _n in [
    "scipy.special.erf", "scipy.special.erfc", "scipy.special.erfinv",
    "scipy.special.gammaln", "scipy.special.digamma", "scipy.special.expit",
    "scipy.special.logit",
]:
    RULES[_n] = _unary(_n)
RULES["scipy.special.xlogy"] = _binary("scipy.special.xlogy")





def _like(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    dt = kwargs.get("dtype")
    shape = kwargs.get("shape")
    shape = shape_of(x) if shape is None else _as_shape(shape)
    return shape, dtype_name(dt) if dt is not None else dtype_of_array(x)


for _n in ("zeros_like", "ones_like", "empty_like"):
    RULES[_n] = _like


def _full_like(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    dt = kwargs.get("dtype", args[2] if len(args) > 2 else None)
    return shape_of(x), dtype_name(dt) if dt is not None else dtype_of_array(x)


RULES["full_like"] = _full_like


def _astype(args: tuple, kwargs: dict) -> tuple:
    return shape_of(args[0]), dtype_name(_arg(args, kwargs, 1, "dtype"))


RULES["astype"] = RULES["cast"] = _astype


def _asarray(args: tuple, kwargs: dict) -> tuple:
    dt = _arg(args, kwargs, 1, "dtype")
    return shape_of(args[0]), dtype_name(dt) if dt is not None else dtype_of_array(args[0])


for _n in ("asarray", "array", "copy", "stop_gradient", "to_device"):
    RULES[_n] = _asarray if _n in ("asarray", "array") else _same


def _where(args: tuple, kwargs: dict) -> tuple:
    if len(args) == 1:
        raise ShapeError("where(condition) with one argument has a data-dependent shape")
    c, x, y = args
    return broadcast(shape_of(c), shape_of(x), shape_of(y)), promote(dtype_of(x), dtype_of(y))


RULES["where"] = _where


def _clip(args: tuple, kwargs: dict) -> tuple:
    a = args[0]
    lo = _arg(args, kwargs, 1, "a_min", kwargs.get("min"))
    hi = _arg(args, kwargs, 2, "a_max", kwargs.get("max"))
    shapes = [shape_of(a)] + [shape_of(b) for b in (lo, hi) if b is not None]
    dts = [dtype_of(a)] + [dtype_of(b) for b in (lo, hi) if b is not None]
    return broadcast(*shapes), promote(*dts)


RULES["clip"] = _clip


def _isclose(args: tuple, kwargs: dict) -> tuple:
    return broadcast(shape_of(args[0]), shape_of(args[1])), "bool"


RULES["isclose"] = _isclose


def _scalar_bool(args: tuple, kwargs: dict) -> tuple:
    broadcast(shape_of(args[0]), shape_of(args[1]))
    return (), "bool"


RULES["allclose"] = _scalar_bool


def _array_equal(args: tuple, kwargs: dict) -> tuple:
    return (), "bool"


RULES["array_equal"] = _array_equal


def _interp(args: tuple, kwargs: dict) -> tuple:
    x, _xp, fp = args[:3]
    d = promote(dtype_of(fp), "float64")
    return shape_of(x), d


RULES["interp"] = _interp
