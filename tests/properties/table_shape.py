"""Shape, joining, indexing, sorting and searching names."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from conftest import assert_close
from hypothesis import strategies as st

from .spec import Call, Prop
from .strategies import ALL, FLOAT, INT, INT_BOOL, NUMERIC, REAL, Drawer

EXACT = {"exact": True}
PROPS: dict[str, Prop] = {}


def _x(d: Drawer, dtypes=ALL, min_dims: int = 0, max_dims: int = 3, min_side: int = 0,
       **values: Any) -> np.ndarray:
    values.setdefault("exact", True)
    return d.array(d.dtype(dtypes), d.shape(min_dims, max_dims, min_side), **values)


def one(dtypes=ALL, min_dims: int = 0, max_dims: int = 3, kwargs=None):
    """One array; ``kwargs(d, x)`` draws the keywords (or extra positionals)."""

    def build(d: Drawer) -> Call:
        x = _x(d, dtypes, min_dims, max_dims)
        if kwargs is None:
            return (x,), {}
        out = kwargs(d, x)
        return ((x, *out[0]), out[1]) if isinstance(out, tuple) else ((x,), out)

    return build


def _factor_shape(d: Drawer, size: int) -> tuple[int, ...]:
    """A shape of ``size`` elements (``-1`` for one unknown side sometimes)."""
    if size == 0:
        shape = list(d.choice([(0,), (0, 3), (2, 0), (0, 1, 2)]))
    else:
        factors = [p for p in range(2, size + 1) for _ in range(_mult(size, p))]
        shape = []
        rest = factors[:]
        while rest:
            k = d.integer(1, len(rest))
            shape.append(math.prod(rest[:k]))
            rest = rest[k:]
        if d.boolean():
            shape.insert(d.integer(0, len(shape)), 1)
        if not shape:
            shape = [1] if d.boolean() else []
    if shape and d.boolean() and size:
        shape[d.integer(0, len(shape) - 1)] = -1
    return tuple(shape)


def _mult(n: int, p: int) -> int:
    """Multiplicity of the prime ``p`` in ``n`` (0 for non-primes)."""
    if any(p % q == 0 for q in range(2, p)):
        return 0
    m = 0
    while n % p == 0:
        n //= p
        m += 1
    return m


def _perm(d: Drawer, n: int) -> tuple[int, ...]:
    return tuple(d(st.permutations(range(n))))


# -------------------------------------------------------------- reshaping
PROPS["reshape"] = Prop(one(kwargs=lambda d, x: ((_factor_shape(d, x.size),), {})))
PROPS["ravel"] = Prop(one())
PROPS["transpose"] = Prop(one(kwargs=lambda d, x: ((_perm(d, x.ndim),), {}) if d.boolean()
                              else {}))
PROPS["permute_dims"] = Prop(one(kwargs=lambda d, x: ((_perm(d, x.ndim),), {})))
PROPS["matrix_transpose"] = Prop(one(min_dims=2))


def _moveaxis(d: Drawer, x: np.ndarray) -> Any:
    n = x.ndim
    k = d.integer(1, n)
    src = d(st.lists(st.integers(0, n - 1), min_size=k, max_size=k, unique=True))
    dst = d(st.lists(st.integers(0, n - 1), min_size=k, max_size=k, unique=True))
    src = [s - n if d.boolean() else s for s in src]
    if k == 1 and d.boolean():
        return (src[0], dst[0]), {}
    return (tuple(src), tuple(dst)), {}


PROPS["moveaxis"] = Prop(lambda d: (lambda x: ((x, *_moveaxis(d, x)[0]), {}))(_x(d, min_dims=1)))
PROPS["swapaxes"] = Prop(
    lambda d: (lambda x: ((x, d.integer(-x.ndim, x.ndim - 1), d.integer(-x.ndim, x.ndim - 1)),
                          {}))(_x(d, min_dims=1))
)


def _expand(d: Drawer, x: np.ndarray) -> Any:
    out_ndim = x.ndim + d.integer(0, 2)
    if out_ndim == x.ndim:  # no new axis: axis=(), which adds none
        return ((),), {}
    axes = d(st.lists(st.integers(-out_ndim, out_ndim - 1), min_size=out_ndim - x.ndim,
                      max_size=out_ndim - x.ndim, unique_by=lambda a: a % out_ndim))
    return ((axes[0] if len(axes) == 1 and d.boolean() else tuple(axes)),), {}


PROPS["expand_dims"] = Prop(one(kwargs=_expand))


def _squeeze(d: Drawer) -> Call:
    dt = d.dtype(ALL)
    shape = d.shape()
    ones = d(st.lists(st.integers(0, len(shape)), max_size=2))
    shape = list(shape)
    for i in ones:
        shape.insert(i, 1)
    x = d.array(dt, tuple(shape), exact=True)
    unit = [i for i, s in enumerate(shape) if s == 1]
    if d.boolean():  # no unit axis picked: axis=(), which squeezes nothing
        pick = d(st.lists(st.sampled_from(unit), unique=True)) if unit else []
        return (x,), {"axis": pick[0] if len(pick) == 1 and d.boolean() else tuple(pick)}
    return (x,), {}


PROPS["squeeze"] = Prop(_squeeze)
for _name in ("atleast_1d", "atleast_2d", "atleast_3d"):
    PROPS[_name] = Prop(one())
PROPS["broadcast_to"] = Prop(
    lambda d: (lambda s: ((d.array(d.dtype(ALL), s[0], exact=True), s[1]), {}))(
        (lambda a, b: (a, np.broadcast_shapes(a, b)))(*d.broadcast_shapes(2))
    )
)
PROPS["broadcast_arrays"] = Prop(
    lambda d: (tuple(d.array(d.dtype(ALL), s, exact=True) for s in d.broadcast_shapes(
        d.integer(1, 3))), {})
)


# -------------------------------------------------------------- joining and splitting
def _join(d: Drawer, *, same_shape: bool, min_dims: int = 1) -> tuple[list, int | None]:
    """Arrays that agree except along ``axis`` (stack: all equal)."""
    dt = d.dtype(ALL)
    base = list(d.shape(min_dims=min_dims))
    n = d.integer(1, 3)
    if same_shape:
        axis = d.integer(-len(base) - 1, len(base))
        dts = [dt if d.integer(0, 3) else d.dtype(ALL) for _ in range(n)]
        return [d.array(t, tuple(base), exact=True) for t in dts], axis
    axis = d.integer(-len(base), len(base) - 1)
    arrays = []
    for _ in range(n):
        shape = list(base)
        shape[axis] = d.integer(0, 3)
        arrays.append(d.array(dt if d.integer(0, 3) else d.dtype(ALL), tuple(shape), exact=True))
    return arrays, axis


def _concatenate(d: Drawer) -> Call:
    arrays, axis = _join(d, same_shape=False)
    if d.integer(0, 4) == 0:
        return (arrays,), {"axis": None}
    return (arrays,), ({"axis": axis} if axis != 0 or d.boolean() else {})


PROPS["concatenate"] = Prop(_concatenate)
PROPS["concat"] = Prop(_concatenate)
PROPS["stack"] = Prop(lambda d: (lambda a: ((a[0],), {"axis": a[1]}))(_join(d, same_shape=True,
                                                                             min_dims=0)))
PROPS["hstack"] = Prop(lambda d: ((_join_axis(d, 1),), {}))
PROPS["vstack"] = Prop(lambda d: ((_join_axis(d, 0),), {}))
PROPS["dstack"] = Prop(lambda d: ((_join_axis(d, 2),), {}))
PROPS["column_stack"] = Prop(lambda d: ((_join_axis(d, 1, max_dims=2),), {}))


def _join_axis(d: Drawer, axis: int, max_dims: int = 3) -> list:
    """Arrays for hstack/vstack/dstack/column_stack: equal shapes except along the
    axis the function joins on (1-d arrays, where that axis does not exist, equal)."""
    dt = d.dtype(NUMERIC)
    base = list(d.shape(min_dims=1, max_dims=max_dims))
    out = []
    for _ in range(d.integer(1, 3)):
        shape = list(base)
        if len(shape) > axis:
            shape[axis] = d.integer(1, 3)
        out.append(d.array(dt, tuple(shape), exact=True))
    return out


def _split(d: Drawer, axis_kw: bool = True, fixed_axis: int | None = None,
           min_dims: int = 1) -> Call:
    x = _x(d, min_dims=min_dims if fixed_axis is None else fixed_axis + 1)
    axis = fixed_axis if fixed_axis is not None else d.integer(-x.ndim, x.ndim - 1)
    n = x.shape[axis]
    if d.boolean():
        divisors = [k for k in range(1, 6) if n % k == 0] if n else [1, 2]
        sections: Any = d.choice(divisors)
    else:
        sections = sorted(d(st.lists(st.integers(0, n + 1), max_size=3)))
    if fixed_axis is not None:
        return (x, sections), {}
    return (x, sections), ({"axis": axis} if axis or d.boolean() else {})


PROPS["split"] = Prop(_split)


def _array_split(d: Drawer) -> Call:
    """Any number of sections (unequal ones too), or split indices."""
    if d.boolean():
        return _split(d)
    x = _x(d, min_dims=1)
    return (x, d.integer(1, 4)), {"axis": d.integer(-x.ndim, x.ndim - 1)}


PROPS["array_split"] = Prop(_array_split)
PROPS["hsplit"] = Prop(lambda d: _split(d, fixed_axis=1))
PROPS["vsplit"] = Prop(lambda d: _split(d, fixed_axis=0))
PROPS["unstack"] = Prop(
    lambda d: (lambda x: ((x,), {"axis": d.integer(-x.ndim, x.ndim - 1)} if d.boolean() else {}))(
        _x(d, min_dims=1)
    ),
    ref=lambda x, axis=0: tuple(np.moveaxis(x, axis, 0)),
)


# -------------------------------------------------------------- repetition and order
def _tile(d: Drawer, x: np.ndarray) -> Any:
    if d.boolean():
        return (d.integer(0, 3),), {}
    return (tuple(d(st.lists(st.integers(0, 3), min_size=1, max_size=4))),), {}


PROPS["tile"] = Prop(one(kwargs=_tile))


def _repeat(d: Drawer, x: np.ndarray) -> Any:
    axis = d.axis(x.ndim, tuples=False)
    n = x.size if axis is None else x.shape[axis]
    if d.boolean() or n == 0:
        reps: Any = d.integer(0, 3)
    else:
        reps = d.indices(4, (n,), negative=False) if d.boolean() else d.integer(0, 3)
    return ((reps,), {"axis": axis}) if axis is not None or d.boolean() else ((reps,), {})


PROPS["repeat"] = Prop(one(kwargs=_repeat))
PROPS["flip"] = Prop(one(kwargs=lambda d, x: {"axis": d.axis(x.ndim)} if d.boolean() else {}))
PROPS["fliplr"] = Prop(one(min_dims=2))
PROPS["flipud"] = Prop(one(min_dims=1))


def _roll(d: Drawer, x: np.ndarray) -> Any:
    if x.ndim == 0 or d.boolean():
        return (d.integer(-7, 7),), {}
    axis = d.axis(x.ndim, none=False)
    if isinstance(axis, tuple):
        shift: Any = tuple(d.integer(-7, 7) for _ in axis) if d.boolean() else d.integer(-7, 7)
    else:
        shift = d.integer(-7, 7)
    return (shift,), {"axis": axis}


PROPS["roll"] = Prop(one(kwargs=_roll))


def _rot90(d: Drawer, x: np.ndarray) -> Any:
    kw: dict[str, Any] = {"k": d.integer(-4, 5)} if d.boolean() else {}
    if d.boolean():
        a, b = d(st.lists(st.integers(-x.ndim, x.ndim - 1), min_size=2, max_size=2,
                          unique_by=lambda i: i % x.ndim))
        kw["axes"] = (a, b)
    return kw


PROPS["rot90"] = Prop(one(min_dims=2, kwargs=_rot90))


def _pad(d: Drawer) -> Call:
    x = _x(d, NUMERIC)
    mode = d.choice(["constant", "edge", "reflect", "symmetric", "wrap"])
    if mode != "constant" and 0 in x.shape:
        mode = "constant"
    if d.boolean():
        width: Any = d.integer(0, 2)
    else:
        width = tuple((d.integer(0, 2), d.integer(0, 2)) for _ in range(x.ndim))
    kw: dict[str, Any] = {}
    if mode != "constant" or d.boolean():
        kw["mode"] = mode
    if mode == "constant" and d.boolean():
        kw["constant_values"] = d.integer(-3, 3)
    return (x, width), kw


PROPS["pad"] = Prop(_pad)


# -------------------------------------------------------------- triangles and diagonals
def _k(d: Drawer, x: np.ndarray) -> dict[str, Any]:
    return {"k": d.integer(-3, 3)} if d.boolean() else {}


PROPS["tril"] = Prop(one(min_dims=2, kwargs=_k))
PROPS["triu"] = Prop(one(min_dims=2, kwargs=_k))
PROPS["diag"] = Prop(one(min_dims=1, max_dims=2, kwargs=_k))
PROPS["diagflat"] = Prop(one(min_dims=0, max_dims=2, kwargs=_k))


def _diagonal(d: Drawer, x: np.ndarray) -> dict[str, Any]:
    kw: dict[str, Any] = {"offset": d.integer(-3, 3)} if d.boolean() else {}
    if d.boolean():
        a, b = d(st.lists(st.integers(-x.ndim, x.ndim - 1), min_size=2, max_size=2,
                          unique_by=lambda i: i % x.ndim))
        kw.update(axis1=a, axis2=b)
    return kw


PROPS["diagonal"] = Prop(one(min_dims=2, kwargs=_diagonal))
PROPS["trace"] = Prop(one(NUMERIC, min_dims=2, kwargs=_diagonal))


# -------------------------------------------------------------- selecting
def _take(d: Drawer) -> Call:
    x = _x(d, min_dims=1, min_side=1)
    axis = d.axis(x.ndim, tuples=False)
    n = x.size if axis is None else x.shape[axis]
    idx: Any = d.indices(n, d.shape(max_dims=2)) if d.boolean() else d.integer(-n, n - 1)
    return (x, idx), ({"axis": axis} if axis is not None or d.boolean() else {})


PROPS["take"] = Prop(_take)


def _take_along(d: Drawer) -> Call:
    x = _x(d, min_dims=1, min_side=1)
    axis = d.integer(-x.ndim, x.ndim - 1)
    shape = list(x.shape)
    shape[axis] = d.integer(0, 4)
    if d.boolean():  # broadcasting of the other axes
        other = [i for i in range(x.ndim) if i != axis % x.ndim]
        if other:
            shape[d.choice(other)] = 1
    return (x, d.indices(x.shape[axis], tuple(shape)), axis), {}


PROPS["take_along_axis"] = Prop(_take_along)


def _where(d: Drawer) -> Call:
    s1, s2, s3 = d.broadcast_shapes(3)
    cond = d.array("bool", s1)
    dt = d.dtype(ALL)
    return (cond, d.array(dt, s2, exact=True), d.array(d.dtype(ALL) if d.integer(0, 3) == 0
                                                         else dt, s3, exact=True)), {}


PROPS["where"] = Prop(_where)
PROPS["where|1"] = Prop(lambda d: ((_x(d, min_dims=1, lo=-1, hi=1),), {}))
PROPS["nonzero"] = Prop(one(min_dims=1, kwargs=None))
PROPS["argwhere"] = Prop(one(kwargs=None))
PROPS["flatnonzero"] = Prop(one(kwargs=None))


def _compress(d: Drawer) -> Call:
    x = _x(d, min_dims=1)
    axis = d.axis(x.ndim, tuples=False)
    n = x.size if axis is None else x.shape[axis]
    cond = d.array("bool", (d.integer(0, n),), sparse=False)
    return (cond, x), ({"axis": axis} if axis is not None or d.boolean() else {})


PROPS["compress"] = Prop(_compress)


def _select(d: Drawer) -> Call:
    n = d.integer(1, 3)
    shapes = d.broadcast_shapes(2 * n)
    dt = d.dtype(REAL)
    conds = [d.array("bool", s) for s in shapes[:n]]
    choices = [d.array(dt, s, exact=True) for s in shapes[n:]]
    return (conds, choices), ({"default": d.scalar(dt)} if d.boolean() else {})


PROPS["select"] = Prop(_select)


def _choose(d: Drawer) -> Call:
    n = d.integer(1, 3)
    shapes = d.broadcast_shapes(n + 1)
    dt = d.dtype(REAL)
    idx = d.indices(n, shapes[0], negative=False)
    return (idx, [d.array(dt, s, exact=True) for s in shapes[1:]]), {}


PROPS["choose"] = Prop(_choose)


# -------------------------------------------------------------- sorting and searching
def _axis_last(d: Drawer, x: np.ndarray) -> dict[str, Any]:
    return {"axis": d.axis(x.ndim, tuples=False)} if d.boolean() else {}


def _sort_x(d: Drawer, special: bool = False) -> np.ndarray:
    return _x(d, (*REAL, "bool"), min_dims=1, lo=-3, hi=3, special=special)


PROPS["sort"] = Prop(lambda d: (lambda x: ((x,), _axis_last(d, x)))(_sort_x(d)))
PROPS["sort|nan"] = Prop(
    lambda d: (lambda x: ((x,), _axis_last(d, x)))(
        _x(d, FLOAT, min_dims=1, lo=-3, hi=3, special=True)
    )
)


def _argsort_check(actual: np.ndarray, args: tuple, kwargs: dict, backend: str) -> None:
    """Ties may come in any order (numpy's default sort is not stable): the indices
    must be a permutation that sorts the array."""
    (x,) = args
    axis = kwargs.get("axis", -1)
    expected = np.argsort(x, **kwargs)
    assert actual.shape == expected.shape, f"shape {actual.shape}, expected {expected.shape}"
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype}, expected {expected.dtype}"
    flat = x.ravel() if axis is None else x
    ax = 0 if axis is None else axis
    np.testing.assert_array_equal(
        np.sort(actual, axis=ax), np.sort(expected, axis=ax), err_msg="not a permutation"
    )
    np.testing.assert_array_equal(
        np.take_along_axis(flat, actual, axis=ax), np.sort(flat, axis=ax),
        err_msg="does not sort the array",
    )


PROPS["argsort"] = Prop(lambda d: (lambda x: ((x,), _axis_last(d, x)))(_sort_x(d)),
                        check=_argsort_check)
PROPS["argsort|stable"] = Prop(
    lambda d: (lambda x: ((x,), {**_axis_last(d, x), "stable": True}))(_sort_x(d))
)


def _le_nan_last(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a <= b`` in sort order (NaNs last, as numpy sorts them)."""
    return (a <= b) | np.isnan(b) if a.dtype.kind in "fc" else a <= b


def partition_contract(name: str, actual: np.ndarray, a: np.ndarray, kth, axis=-1) -> None:
    """numpy's promise of ``partition`` (``argpartition``: of ``a`` taken along the
    result): each ``kth`` element where a sort puts it, none larger before it and
    none smaller after it; a permutation of the input along ``axis``. The order
    within the two sides is unspecified, so it is not compared."""
    x, ax = (a.ravel(), -1) if axis is None else (a, axis)
    expected = getattr(np, name)(x, kth, axis=ax)
    assert actual.shape == expected.shape, f"shape {actual.shape}, expected {expected.shape}"
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype}, expected {expected.dtype}"
    if name == "argpartition":
        np.testing.assert_array_equal(np.sort(actual, axis=ax), np.sort(expected, axis=ax),
                                      err_msg="not a permutation of the indices")
        values = np.take_along_axis(x, actual, axis=ax)
    else:
        values = actual
        np.testing.assert_array_equal(np.sort(values, axis=ax), np.sort(x, axis=ax),
                                      err_msg="not a permutation of the input")
    values, ordered = np.moveaxis(values, ax, -1), np.moveaxis(np.sort(x, axis=ax), ax, -1)
    n = values.shape[-1]
    for k in np.atleast_1d(kth):
        k = int(k) % n
        pivot = values[..., k : k + 1]
        np.testing.assert_array_equal(pivot[..., 0], ordered[..., k], err_msg=f"kth={k}")
        assert np.all(_le_nan_last(values[..., :k], pivot)), f"a larger value before kth={k}"
        assert np.all(_le_nan_last(pivot, values[..., k + 1 :])), f"a smaller value after kth={k}"


def _partition(d: Drawer) -> Call:
    if d.boolean():
        x = _x(d, FLOAT, min_dims=1, min_side=1, lo=-3, hi=3, special=True)
    else:
        x = _x(d, (*REAL, "bool"), min_dims=1, min_side=1, lo=-3, hi=3)
    kw = _axis_last(d, x)
    n = x.size if kw.get("axis", -1) is None else x.shape[kw.get("axis", -1)]
    if d.boolean():
        kth: Any = d.integer(-n, n - 1)
    else:
        kth = sorted(set(d(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))))
    return (x, kth), kw


def _partition_check(name: str):
    def check(actual: np.ndarray, args: tuple, kwargs: dict, backend: str) -> None:
        partition_contract(name, actual, *args, **kwargs)

    return check


for _name in ("partition", "argpartition"):
    PROPS[_name] = Prop(_partition, check=_partition_check(_name))


def _lexsort(d: Drawer) -> Call:
    shape = d.shape(min_dims=1, max_dims=2)
    keys = tuple(d.array(d.dtype((*REAL, "bool")), shape, exact=True, lo=-2, hi=2)
                 for _ in range(d.integer(1, 3)))
    return (keys,), ({"axis": d.integer(-len(shape), len(shape) - 1)} if d.boolean() else {})


PROPS["lexsort"] = Prop(_lexsort)
PROPS["sort_complex"] = Prop(
    lambda d: ((_x(d, (*NUMERIC, "int8", "int16"), min_dims=1, lo=-2, hi=2),), {})
)


def _searchsorted(d: Drawer) -> Call:
    dt = d.dtype(REAL)
    a = d.sorted_array(dt, (d.integer(0, 6),), exact=True, lo=-3, hi=3)
    v: Any = d.array(dt, d.shape(max_dims=2), exact=True, lo=-4, hi=4) if d.boolean() else \
        d.scalar(dt, lo=-4, hi=4)
    return (a, v), ({"side": d.choice(["left", "right"])} if d.boolean() else {})


PROPS["searchsorted"] = Prop(_searchsorted)


def _unique(d: Drawer) -> Call:
    x = _x(d, (*REAL, "bool"), lo=-3, hi=3)
    kw = {f: True for f in ("return_index", "return_inverse", "return_counts") if d.boolean()}
    return (x,), kw


PROPS["unique"] = Prop(_unique)


def _unique_named(d: Drawer) -> Call:
    """numpy 2's unique_*: NaNs (each a value of its own) drawn in half the examples."""
    if d.boolean():
        return (_x(d, FLOAT, lo=-3, hi=3, special=True),), {}
    return (_x(d, (*REAL, "bool"), lo=-3, hi=3),), {}


def _unique_values_check(actual: np.ndarray, args: tuple, kwargs: dict, backend: str) -> None:
    """numpy leaves the order of unique_values unspecified (its own is unsorted for
    integers): the same values, sorted, NaNs last."""
    expected = np.sort(np.unique_values(args[0]))
    assert_close(np.sort(actual), expected)


for _name in ("unique_counts", "unique_inverse", "unique_all"):
    PROPS[_name] = Prop(_unique_named)
PROPS["unique_values"] = Prop(_unique_named, check=_unique_values_check)


def _isin(d: Drawer) -> Call:
    dt = d.dtype(INT + FLOAT)
    return (_x(d, (dt.name,), lo=-3, hi=3), d.array(dt, d.shape(max_dims=2), exact=True, lo=-3,
                                                     hi=3)), {}


PROPS["isin"] = Prop(_isin)


def _sets(name: str):
    """Two small-integer-valued arrays (repeats likely) of one dtype; ``assume_unique``
    only on inputs that are unique, ``return_indices`` drawn for intersect1d."""

    def build(d: Drawer) -> Call:
        dt = d.dtype(INT + FLOAT)
        a, b = (d.array(dt, d.shape(max_dims=2), exact=True, lo=-3, hi=3) for _ in "ab")
        kw: dict[str, Any] = {}
        if name != "union1d" and d.boolean():
            a, b, kw["assume_unique"] = np.unique(a), np.unique(b), True
        if name == "intersect1d" and d.boolean():
            kw["return_indices"] = True
        return (a, b), kw

    return build


for _name in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
    PROPS[_name] = Prop(_sets(_name))
PROPS["array_equal"] = Prop(
    lambda d: (lambda x: ((x, x.copy() if d.boolean() else d.array(x.dtype, d.shape(), exact=True,
                                                                   lo=-1, hi=1)), {}))(
        _x(d, lo=-1, hi=1)
    )
)


# -------------------------------------------------------------- differences and counting
def _diff(d: Drawer, x: np.ndarray) -> dict[str, Any]:
    kw: dict[str, Any] = {}
    if d.boolean():
        kw["n"] = d.integer(0, 3)
    if d.boolean():
        kw["axis"] = d.integer(-x.ndim, x.ndim - 1)
    return kw


PROPS["diff"] = Prop(one(NUMERIC, min_dims=1, kwargs=_diff))
PROPS["ediff1d"] = Prop(one(NUMERIC, kwargs=None))


def _bincount(d: Drawer) -> Call:
    x = d.indices(6, (d.integer(0, 8),), negative=False)
    kw: dict[str, Any] = {}
    if x.size and d.boolean():  # (numpy answers int64 for no data, weights or not)
        kw["weights"] = d.array(d.dtype(FLOAT), x.shape, exact=True)
    if d.boolean():
        kw["minlength"] = d.integer(0, 8)
    return (x,), kw


PROPS["bincount"] = Prop(_bincount)


def _digitize(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    bins = d.sorted_array(dt, (d.integer(1, 5),), unique=True, exact=True, lo=-3, hi=3)
    if d.boolean():
        bins = bins[::-1].copy()
    x = d.array(dt, d.shape(max_dims=2), exact=True, lo=-4, hi=4)
    return (x, bins), ({"right": d.boolean()} if d.boolean() else {})


PROPS["digitize"] = Prop(_digitize)


def _histogram(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    x = d.array(dt, (d.integer(0, 12),), exact=True, lo=-4, hi=4)
    kw: dict[str, Any] = {}
    choice = d.integer(0, 2)
    if choice == 1:
        kw["bins"] = d.integer(1, 6)
    elif choice == 2:
        kw["bins"] = d.sorted_array(dt, (d.integer(2, 5),), unique=True, exact=True, lo=-4, hi=4)
    if not isinstance(kw.get("bins"), np.ndarray) and (d.boolean() or x.size == 0):
        kw["range"] = (-4.0, 4.0)
    if d.boolean():
        kw["weights"] = d.array(dt, x.shape, exact=True, lo=0, hi=2)
    return (x,), kw


PROPS["histogram"] = Prop(_histogram)


def _histogram2d(d: Drawer) -> Call:
    # x and y of one float dtype or two (numpy promotes them); bins: one count, a pair
    # of counts, edges for both axes, or edges and a count; numpy's counts are float64
    n = d.integer(0, 12)
    dx = d.dtype(FLOAT)
    dy = d.dtype(FLOAT) if d.boolean() else dx
    x = d.array(dx, (n,), exact=True, lo=-4, hi=4)
    y = d.array(dy, (n,), exact=True, lo=-4, hi=4)
    kw: dict[str, Any] = {}

    def edges() -> np.ndarray:
        return d.sorted_array(dx, (d.integer(2, 5),), unique=True, exact=True, lo=-4, hi=4)

    choice = d.integer(0, 4)
    if choice == 1:
        kw["bins"] = d.integer(1, 5)
    elif choice == 2:
        kw["bins"] = [d.integer(1, 5), d.integer(1, 5)]
    elif choice == 3:
        kw["bins"] = edges()
    elif choice == 4:
        kw["bins"] = [edges(), d.integer(1, 5)]
    if d.boolean():
        kw["range"] = [(-4.0, 4.0), (-2.0, 3.0)]
    if d.boolean():
        kw["weights"] = d.array(dx, (n,), exact=True, lo=0, hi=2)
    if d.boolean():
        kw["density"] = True
    return (x, y), kw


PROPS["histogram2d"] = Prop(_histogram2d)


def _histogramdd(d: Drawer) -> Call:
    n, dims = d.integer(0, 10), d.integer(1, 3)
    sample = d.array(d.dtype(FLOAT), (n, dims), exact=True, lo=-4, hi=4)
    kw: dict[str, Any] = {}
    choice = d.integer(0, 2)
    if choice == 1:
        kw["bins"] = d.integer(1, 4)
    elif choice == 2:
        kw["bins"] = [d.integer(1, 4) for _ in range(dims)]
    if d.boolean():
        kw["range"] = [(-4.0, 4.0)] * dims
    if d.boolean():
        kw["weights"] = d.array(sample.dtype, (n,), exact=True, lo=0, hi=2)
    if d.boolean():
        kw["density"] = True
    return (sample,), kw


PROPS["histogramdd"] = Prop(_histogramdd)


def _interp(d: Drawer) -> Call:
    dt = np.dtype("float64")
    xp = d.sorted_array(dt, (d.integer(1, 6),), unique=True, exact=True, lo=-3, hi=3)
    fp = d.array(dt, xp.shape, exact=True)
    x = d.array(dt, d.shape(max_dims=2), exact=True, lo=-4, hi=4)
    return (x, xp, fp), {}


PROPS["interp"] = Prop(_interp)


def _convolve(d: Drawer) -> Call:
    dt = d.dtype(FLOAT + INT)
    a = d.array(dt, (d.integer(1, 6),), exact=True)
    v = d.array(dt, (d.integer(1, 6),), exact=True)
    return (a, v), ({"mode": d.choice(["full", "same", "valid"])} if d.boolean() else {})


PROPS["convolve"] = Prop(_convolve)
PROPS["correlate"] = Prop(_convolve)


# -------------------------------------------------------------- array information and copies
PROPS["shape"] = Prop(one(), ref=np.shape)
PROPS["ndim"] = Prop(one(), ref=np.ndim)
PROPS["size"] = Prop(one(), ref=np.size)
PROPS["copy"] = Prop(one())
PROPS["asarray"] = Prop(one())
PROPS["array"] = Prop(one())
PROPS["zeros_like"] = Prop(one())
PROPS["ones_like"] = Prop(one())
PROPS["full_like"] = Prop(lambda d: (lambda x: ((x, d.scalar(x.dtype, lo=-3, hi=3)), {}))(_x(d)))


def _empty_like_check(actual: np.ndarray, args: tuple, kwargs: dict, backend: str) -> None:
    (x,) = args
    assert (actual.shape, actual.dtype) == (x.shape, x.dtype)


PROPS["empty_like"] = Prop(one(), check=_empty_like_check)
PROPS["astype"] = Prop(one(kwargs=lambda d, x: ((d.dtype(ALL),), {})))
PROPS["to_numpy"] = Prop(one(), ref=np.asarray)


def _meshgrid(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    arrays = tuple(d.array(dt, (d.integer(0, 4),), exact=True) for _ in range(d.integer(1, 3)))
    return arrays, ({"indexing": d.choice(["xy", "ij"])} if d.boolean() else {})


PROPS["meshgrid"] = Prop(_meshgrid)


def _edit(name: str):
    """``append``, ``insert`` and ``delete`` along a drawn axis (None: flattened),
    indices in range (negative ones included), ``values`` that fit."""

    def build(d: Drawer) -> Call:
        x = _x(d, NUMERIC, min_dims=1, min_side=1, lo=-3, hi=3)
        axis = None if d.boolean() else d.integer(-x.ndim, x.ndim - 1)
        n = x.size if axis is None else x.shape[axis]
        kw = {} if axis is None else {"axis": axis}
        if name == "append":
            shape = list(x.shape)
            if axis is not None:
                shape[axis] = d.integer(0, 2)
            return (x, d.array(x.dtype, tuple(shape), exact=True, lo=-3, hi=3)), kw
        if name == "delete":
            count = d.integer(0, n)
            index = [d.integer(-n, n - 1) for _ in range(count)]
            return (x, index), kw
        at = d.integer(-n, n)
        return (x, at, d.scalar(x.dtype, lo=-3, hi=3)), kw

    return build


for _name in ("append", "insert", "delete"):
    PROPS[_name] = Prop(_edit(_name))


def _triangle_from(d: Drawer) -> Call:
    x = d.array(d.dtype(NUMERIC), d.shape(2, 2), exact=True, lo=-3, hi=3)
    return (x,), ({"k": d.integer(-3, 3)} if d.boolean() else {})


for _name in ("tril_indices_from", "triu_indices_from"):
    PROPS[_name] = Prop(_triangle_from)


def _diag_from(d: Drawer) -> Call:
    n, ndim = d.integer(0, 4), d.integer(2, 3)
    return (d.array(d.dtype(NUMERIC), (n,) * ndim, exact=True, lo=-3, hi=3),), {}


PROPS["diag_indices_from"] = Prop(_diag_from)


# -------------------------------------------------------------- numpy's array routines
def _trim_zeros(d: Drawer) -> Call:
    x = _x(d, (*REAL, "bool"), min_dims=1, lo=-1, hi=1)
    kw: dict[str, Any] = {}
    if d.boolean():
        kw["trim"] = d.choice(["fb", "f", "b", "BF"])
    if d.boolean():
        kw["axis"] = d.axis(x.ndim)
    return (x,), kw


PROPS["trim_zeros"] = Prop(_trim_zeros)


def _resize(d: Drawer) -> Call:
    x = _x(d)
    shape = d.shape(max_dims=2)
    return (x, shape if d.boolean() or len(shape) != 1 else shape[0]), {}


PROPS["resize"] = Prop(_resize)


def _rollaxis(d: Drawer) -> Call:
    x = _x(d, min_dims=1)
    n = x.ndim
    kw = {"start": d.integer(-n, n)} if d.boolean() else {}
    return (x, d.integer(-n, n - 1)), kw


PROPS["rollaxis"] = Prop(_rollaxis)


def _block(d: Drawer) -> Call:
    """A grid of blocks: rows of equal heights, columns of equal widths."""
    dt = d.dtype(NUMERIC)
    depth = d.integer(1, 2)
    if depth == 1:
        lead = d.shape(max_dims=1, max_side=3)
        return ([d.array(dt, (*lead, d.integer(0, 3)), exact=True)
                 for _ in range(d.integer(1, 3))],), {}
    heights = [d.integer(1, 3) for _ in range(d.integer(1, 3))]
    widths = [d.integer(0, 3) for _ in range(d.integer(1, 3))]
    return ([[d.array(dt, (h, w), exact=True) for w in widths] for h in heights],), {}


PROPS["block"] = Prop(_block)


def _extract(d: Drawer) -> Call:
    arr = _x(d)
    cond = d.array(d.dtype(("bool", "int64")), arr.shape, lo=-1, hi=1)
    return (cond, arr), {}


PROPS["extract"] = Prop(_extract)


def _unwrap(d: Drawer) -> Call:
    x = _x(d, FLOAT, min_dims=1, lo=-8, hi=8)
    kw: dict[str, Any] = {}
    if d.boolean():
        kw["axis"] = d.integer(-x.ndim, x.ndim - 1)
    if d.boolean():
        kw["discont"] = d.choice([1.0, 4.0])
    if d.boolean():
        kw["period"] = d.choice([3.0, 5.0, 2 * np.pi])
    return (x,), kw


PROPS["unwrap"] = Prop(_unwrap)
PROPS["unwrap|int"] = Prop(
    lambda d: ((_x(d, INT, min_dims=1, lo=-12, hi=12),), {"period": d.choice([4, 5, 6])})
)


def _ix(d: Drawer) -> Call:
    args = []
    for _ in range(d.integer(1, 3)):
        n = d.integer(0, 4)
        args.append(d.array(np.dtype("bool"), (n,)) if d.boolean() else d.indices(5, (n,), False))
    return tuple(args), {}


PROPS["ix_"] = Prop(_ix)


def _ravel_multi_index(d: Drawer) -> Call:
    dims = tuple(d.integer(2, 4) for _ in range(d.integer(1, 3)))
    shape = d.shape(min_dims=1, max_dims=2)
    mode = d.choice(["raise", "wrap", "clip"])
    lo, hi = (0, 1) if mode == "raise" else (-6, 6)
    index = tuple(d.array(np.dtype("int64"), shape, lo=lo * n, hi=hi * n - 1) for n in dims)
    kw: dict[str, Any] = {"mode": mode} if mode != "raise" or d.boolean() else {}
    if d.boolean():
        kw["order"] = d.choice(["C", "F"])
    return (index, dims), kw


PROPS["ravel_multi_index"] = Prop(_ravel_multi_index)


def _unravel_index(d: Drawer) -> Call:
    dims = tuple(d.integer(2, 4) for _ in range(d.integer(1, 3)))
    size = math.prod(dims)
    index = d.array(np.dtype(d.choice(["int32", "int64"])), d.shape(min_dims=1, max_dims=2),
                    lo=0, hi=size - 1)
    return (index, dims), ({"order": d.choice(["C", "F"])} if d.boolean() else {})


PROPS["unravel_index"] = Prop(_unravel_index)


def _bin_edges(d: Drawer) -> Call:
    x = _x(d, REAL, min_side=1, lo=-4, hi=4)
    form = d.integer(0, 2)
    if form == 0:
        return (x,), ({"bins": d.integer(1, 6)} if d.boolean() else {})
    if form == 1:
        return (x, d.integer(1, 6)), {"range": (-2.0, 3.0)}
    return (x, d.sorted_array(np.dtype("float64"), (d.integer(2, 5),), unique=True)), {}


PROPS["histogram_bin_edges"] = Prop(_bin_edges)


def _packbits(d: Drawer) -> Call:
    x = _x(d, INT_BOOL, min_dims=1, lo=-2, hi=2)
    kw: dict[str, Any] = {}
    if d.boolean():
        kw["axis"] = d.integer(-x.ndim, x.ndim - 1)
    if d.boolean():
        kw["bitorder"] = d.choice(["big", "little"])
    return (x,), kw


def _unpackbits(d: Drawer) -> Call:
    x = d.array(np.dtype("uint8"), d.shape(min_dims=1), lo=0, hi=255)
    kw: dict[str, Any] = {}
    if d.boolean():
        kw["axis"] = d.integer(-x.ndim, x.ndim - 1)
    if d.boolean():
        kw["count"] = d.integer(-12, 20)
    if d.boolean():
        kw["bitorder"] = d.choice(["big", "little"])
    return (x,), kw


PROPS["packbits"] = Prop(_packbits)
PROPS["unpackbits"] = Prop(_unpackbits)


PROPS["row_stack"] = Prop(lambda d: ((_join_axis(d, 0),), {}), ref=np.vstack)
PROPS["dsplit"] = Prop(lambda d: _split(d, fixed_axis=2))


def _get_item(d: Drawer) -> Call:
    """``x[key]``: per axis an int in range, a slice (any sign of step), ``None``,
    integer indices (negative ones included) or a mask, an ``Ellipsis`` at most once."""
    x = _x(d, min_dims=1)
    key: list = []
    for n in x.shape:
        if d.boolean() and d.boolean():  # the remaining axes: an Ellipsis
            key.append(Ellipsis)
            break
        if d.boolean():
            key.append(None)
        choice = d.integer(0, 3)
        if choice == 0 and n:
            key.append(d.integer(-n, n - 1))
        elif choice == 1:
            step = d.choice([1, 2, -1, -3])
            key.append(slice(d.integer(-n - 1, n + 1), d.integer(-n - 1, n + 1), step))
        elif choice == 2 and n:
            key.append(d.indices(n, d.shape(max_dims=2)))
        elif choice == 3:
            key.append(d.array(np.dtype(bool), (n,)))
        else:
            key.append(slice(None))
    return (x, tuple(key)), {}


PROPS["get_item"] = Prop(_get_item, ref=lambda x, key: x[key])
