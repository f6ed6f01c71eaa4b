"""Hypothesis strategies for the property tests: shapes, dtypes, axes and values.

A :class:`Drawer` wraps hypothesis' interactive ``draw`` for one backend, so that
the builders of the property table (``name -> builder``) read like a recipe::

    def build(d):
        dt = d.dtype(FLOAT)
        x = d.array(dt, d.shape(), lo=0.25, hi=10)
        return (x,), {}

Value policy (the reason for each choice):

- floats are drawn in a bounded range (default [-8, 8]); ``exact=True`` draws
  multiples of 1/4 instead, so that sums, products, divisions and cumulative
  results are exact (or correctly rounded) in float32 too: libraries may sum in
  any order, and the comparison must not depend on that order.
- ``special=True`` mixes in nan, inf and -inf (predicates, nan-reductions,
  nan_to_num, maximum/minimum propagation).
- integers are small ([-8, 8] by default), so that products and shifts stay far
  from overflow in int32.
- on pydata sparse, about half of the values are zero (a sparse-friendly fill).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
from conftest import missing_dtypes
from hypothesis import strategies as st

FLOAT = ("float32", "float64")
INT = ("int32", "int64")
REAL = FLOAT + INT
NUMERIC = (*REAL, "complex64", "complex128")
COMPLEX = ("complex64", "complex128")
ALL = (*NUMERIC, "bool")
INEXACT = FLOAT + COMPLEX
INT_BOOL = (*INT, "bool")

NARROW_DTYPES = {
    "sparse": ("float64", "int64", "complex128", "bool"),
    # paddle stores no uint16, uint32 nor uint64 (its asarray refuses them)
    "paddle": ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
               "float64", "complex64", "complex128"),
}
MAX_SIDE = 5
MAX_DIMS = 3


def _width(dtype: np.dtype) -> int:
    return 32 if dtype in (np.float32, np.complex64) else 64


def _float_values(
    width: int, lo: float, hi: float, exact: bool, nonzero: bool
) -> st.SearchStrategy[float]:
    if exact:
        ints = st.integers(math.ceil(lo * 4), math.floor(hi * 4))
        if nonzero:
            ints = ints.filter(bool)
        return ints.map(lambda k: k / 4)
    if width == 32:  # bounds must be float32 numbers: round them inwards
        f32 = np.float32
        lo = float(f32(lo) if f32(lo) >= lo else np.nextafter(f32(lo), f32(np.inf)))
        hi = float(f32(hi) if f32(hi) <= hi else np.nextafter(f32(hi), f32(-np.inf)))
    # no subnormals: tensorflow flushes them to zero on CPU (floor(-5e-324) is -0.0)
    out = st.floats(lo, hi, width=width, allow_nan=False, allow_infinity=False,
                    allow_subnormal=False)
    if nonzero:
        out = out.filter(lambda v: abs(v) > 1e-3)
    return out


def elements(
    dtype: Any,
    *,
    lo: float = -8,
    hi: float = 8,
    exact: bool = False,
    special: bool = False,
    nonzero: bool = False,
    sparse: bool = False,
) -> st.SearchStrategy:
    """Scalar values of ``dtype`` (see the module docstring for the policy)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        out: st.SearchStrategy = st.just(True) if nonzero else st.booleans()
    elif dtype.kind in "iu":
        ints = st.integers(math.ceil(lo), math.floor(hi))
        out = ints.filter(bool) if nonzero else ints
    else:
        width = _width(dtype)
        part = _float_values(width, lo, hi, exact, nonzero and dtype.kind == "f")
        if special:
            part = st.one_of(part, st.sampled_from([math.nan, math.inf, -math.inf]))
        if dtype.kind == "c":
            out = st.builds(complex, part, part)
            if nonzero:  # away from 0: 1 / (5.6e-40j) overflows differently per library
                out = out.filter(lambda z: abs(z) > 1e-3)
        else:
            out = part
    if sparse and not nonzero:
        zero = dtype.type(0)
        out = st.one_of(st.just(zero), out)
    return out


def _has_nonzero(dtype: np.dtype, lo: float, hi: float, exact: bool) -> bool:
    """Whether ``elements(dtype, lo=lo, hi=hi, exact=exact, nonzero=True)`` can draw."""
    if dtype.kind == "b":
        return True
    if dtype.kind in "iu" or exact:
        scale = 4 if exact and dtype.kind not in "iu" else 1
        a, b = math.ceil(lo * scale), math.floor(hi * scale)
        return a <= b and (a, b) != (0, 0)
    return max(abs(lo), abs(hi)) > 1e-2 and hi > lo


class Drawer:
    """Interactive drawing of inputs for one backend (``d = Drawer(data.draw, backend)``)."""

    def __init__(self, draw: Any, backend: str, *, force: bool = False,
                 width: int | None = None) -> None:
        self.draw = draw
        self.backend = backend
        # ``force``: this example must be non-trivial (no 0-d or empty shape, no
        # all-zero array) and its floats of ``width`` bits where the options allow:
        # the runner forces the first examples of each pair (see :mod:`.census`)
        self.force = force
        self.width = width
        self.offered: set[int] = set()  # float widths the builder offered

    # -------------------------------------------------------------- plain values

    def __call__(self, strategy: st.SearchStrategy) -> Any:
        return self.draw(strategy)

    def choice(self, options: Sequence[Any]) -> Any:
        return self.draw(st.sampled_from(list(options)))

    def boolean(self) -> bool:
        return self.draw(st.booleans())

    def integer(self, lo: int, hi: int) -> int:
        if self.force and lo == 0 < hi:
            lo = 1  # builders draw sides this way: a forced example has no empty axis
        return self.draw(st.integers(lo, hi))

    def dtype(self, options: Sequence[str] = FLOAT) -> np.dtype:
        if self.backend in NARROW_DTYPES:
            # pydata sparse compiles (numba) each kernel for each dtype, seconds apiece:
            # the 64-bit dtypes (and bool) cover its code paths at a third of the cost
            narrow = [o for o in options if o in NARROW_DTYPES[self.backend]]
            options = narrow or options
        # dtypes the library lacks (mlx: complex128) are not drawn on it
        lacking = missing_dtypes(self.backend)
        options = [o for o in options if o not in lacking] or options
        self.offered |= {_width(np.dtype(o)) for o in options if np.dtype(o).kind in "fc"}
        if self.force and self.width is not None:
            # only the floats of the wanted width, where there are some (the free
            # examples draw the integers and bools)
            kept = [o for o in options
                    if np.dtype(o).kind in "fc" and _width(np.dtype(o)) == self.width]
            options = kept or options
        return np.dtype(self.choice(options))

    # -------------------------------------------------------------- shapes and axes

    def shape(
        self,
        min_dims: int = 0,
        max_dims: int = MAX_DIMS,
        min_side: int = 0,
        max_side: int = MAX_SIDE,
    ) -> tuple[int, ...]:
        if self.force:  # no 0-d, no empty shape, where the caller's bounds allow
            min_dims = min(max(min_dims, 1), max_dims)
            min_side = min(max(min_side, 1), max_side)
        return self.draw(
            hnp.array_shapes(
                min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
            )
        )

    def broadcast_shapes(
        self, n: int = 2, min_dims: int = 0, min_side: int = 0, base: tuple[int, ...] = ()
    ) -> tuple[tuple[int, ...], ...]:
        """``n`` mutually broadcastable shapes (up to 3-d, sides up to 5)."""
        if self.force:
            min_dims, min_side = max(min_dims, 1), max(min_side, 1)
        return self.draw(
            hnp.mutually_broadcastable_shapes(
                num_shapes=n,
                base_shape=base,
                min_dims=min_dims,
                max_dims=MAX_DIMS,
                min_side=min_side,
                max_side=MAX_SIDE,
            )
        ).input_shapes

    def axis(self, ndim: int, *, none: bool = True, tuples: bool = True) -> Any:
        """None, an axis (negative ones included) or a tuple of distinct axes, the
        empty tuple included (numpy's "no axis", which torch reads as "every axis"):
        it is an option of its own, so that it is drawn as often as None."""
        options: list[st.SearchStrategy] = []
        if none:
            options.append(st.none())
        if tuples:
            options.append(st.just(()))
        if ndim:
            options.append(st.integers(-ndim, ndim - 1))
            if tuples:
                options.append(hnp.valid_tuple_axes(ndim, min_size=1))
        if not options:
            return None
        return self.draw(st.one_of(options))

    def reduction_kwargs(self, ndim: int, *, tuples: bool = True) -> dict[str, Any]:
        """``axis`` (absent, None, int, tuple) and ``keepdims`` for a reduction."""
        kwargs: dict[str, Any] = {}
        if self.boolean():
            kwargs["axis"] = self.axis(ndim, tuples=tuples)
        if self.boolean():
            kwargs["keepdims"] = self.boolean()
        return kwargs

    # -------------------------------------------------------------- arrays

    def array(
        self,
        dtype: Any,
        shape: tuple[int, ...] | None = None,
        **values: Any,
    ) -> np.ndarray:
        """An array of ``dtype`` and ``shape`` (drawn when None); ``values`` go to
        :func:`elements` (``lo``, ``hi``, ``exact``, ``special``, ``nonzero``)."""
        if shape is None:
            shape = self.shape()
        values.setdefault("sparse", self.backend == "sparse")
        dtype = np.dtype(dtype)
        strategy = elements(dtype, **values)
        out = self.draw(hnp.arrays(dtype, shape, elements=strategy, fill=st.nothing()))
        lo, hi, exact = values.get("lo", -8), values.get("hi", 8), values.get("exact", False)
        if self.force and out.size and not out.any() and _has_nonzero(dtype, lo, hi, exact):
            # one non-zero value of the same element strategy, at the first position
            one = {**values, "nonzero": True, "sparse": False}
            out.flat[0] = self.draw(elements(dtype, **one))
        return out

    def scalar(self, dtype: Any, **values: Any) -> Any:
        """A Python scalar of ``dtype``'s kind (a weak operand under numpy 2 promotion)."""
        values.setdefault("sparse", False)
        v = self.draw(elements(np.dtype(dtype), **values))
        return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[np.dtype(dtype).kind](v)

    def sorted_array(self, dtype: Any, shape: tuple[int, ...], unique: bool = False,
                     **values: Any) -> np.ndarray:
        """A sorted (along the last axis) array; ``unique``: strictly increasing 1-d."""
        if unique:
            (n,) = shape
            values.setdefault("sparse", False)
            vals = self.draw(
                st.lists(elements(np.dtype(dtype), **values), min_size=n, max_size=n, unique=True)
            )
            return np.sort(np.asarray(vals, dtype=dtype))
        return np.sort(self.array(dtype, shape, **values), axis=-1)

    def indices(self, n: int, shape: tuple[int, ...], negative: bool = True) -> np.ndarray:
        """int64 indices into an axis of length ``n`` (negative ones included)."""
        lo = -n if negative else 0
        out = self.draw(
            hnp.arrays(np.int64, shape, elements=st.integers(lo, n - 1), fill=st.nothing())
        )
        if self.force and out.size and not out.any() and n > 1:
            out.flat[0] = self.draw(st.integers(1, n - 1))  # not all zero
        return out

    def matrix(
        self, dtype: Any, n: int, batch: tuple[int, ...] = (), *, kind: str = "general"
    ) -> np.ndarray:
        """A well-conditioned ``(*batch, n, n)`` matrix: exact values plus a dominant
        diagonal (``kind``: general, symmetric, spd)."""
        dtype = np.dtype(dtype)
        a = self.array(dtype, (*batch, n, n), lo=-1, hi=1, exact=True, sparse=False)
        if kind in ("symmetric", "spd"):
            a = a + np.swapaxes(a, -1, -2).conj()
        if kind == "spd":
            a = a @ np.swapaxes(a, -1, -2).conj()
        shift = 2 * n + 1 if kind != "symmetric" else self.choice([-1, 1]) * (2 * n + 1)
        return (a + shift * np.eye(n, dtype=dtype)).astype(dtype)
