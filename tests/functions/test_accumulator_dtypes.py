"""Sums and products of booleans and integers accumulate in numpy's dtype on every
backend: int64 for signed integers and booleans, uint64 for unsigned ones, or the
library's own width of the same kind. A library that cannot hold numpy's dtype refuses
the call naming it (paddle stores no uint64); it never answers in another kind.

torch's integer reductions accumulate in int64 whatever the input: ``sum``, ``prod``,
``cumsum``, ``cumprod``, ``nansum``, ``nanprod`` and ``trace`` of a uint8, uint16, uint32 or
uint64 tensor were int64 where numpy's are uint64 (the values agree while they fit).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import missing_dtype_skips, to_backend, to_np, usable_backends

from dispatch import UnsupportedError, do

NAMES = ("sum", "prod", "cumsum", "cumprod", "nansum", "nanprod", "trace", "cumulative_sum",
         "cumulative_prod")
KWARGS = {"cumulative_sum": {"axis": 0}, "cumulative_prod": {"axis": 0}}  # 2-d: required
DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


@pytest.mark.parametrize("backend", usable_backends(vocabulary=True))
@pytest.mark.parametrize("name", NAMES)
def test_integer_reductions_accumulate_in_numpys_kind(name: str, backend: str) -> None:
    for dtype in DTYPES:
        a = np.array([[1, 2], [3, 1]], dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = np.asarray(do(name, a, **KWARGS.get(name, {})))
        try:
            with missing_dtype_skips(backend):
                x = to_backend(a, backend)
        except pytest.skip.Exception:
            continue  # the library stores no such dtype (paddle: uint16 and wider)
        try:
            got = np.asarray(to_np(do(name, x, **KWARGS.get(name, {}))))
        except (TypeError, UnsupportedError) as err:
            refusal = str(err)
            got = None
        if got is None:  # refused: it must name the dtype numpy's result has
            assert expected.dtype.name in refusal, f"{name} of {dtype} on {backend}: {refusal}"
            continue
        where = f"{name} of {dtype} on {backend}: {got.dtype}, numpy {expected.dtype}"
        assert got.dtype.kind == expected.dtype.kind, where
        np.testing.assert_array_equal(got, expected, err_msg=where)


BOOL_NAMES = ("sum", "prod", "cumsum", "cumprod", "nansum", "nanprod", "trace")


@pytest.mark.parametrize("backend", usable_backends(vocabulary=True))
@pytest.mark.parametrize("name", BOOL_NAMES)
def test_a_boolean_accumulator_is_or_and_and(name: str, backend: str) -> None:
    """``dtype=bool``: numpy adds booleans with OR and multiplies them with AND, so
    ``sum(x, dtype=bool)`` is True where a count would be 3 (mlx and tensorflow
    counted; torch, tensorflow and paddle refused some of them)."""
    for a in (np.array([[1.0, 0.0], [np.nan, 2.0]]), np.array([[3, 0], [0, 0]]),
              np.array([[True, False], [True, True]])):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = np.asarray(do(name, a, dtype=bool))
            try:
                got = np.asarray(to_np(do(name, to_backend(a, backend), dtype=bool)))
            except (TypeError, UnsupportedError) as err:
                refusal = str(err)
                got = None
        if got is None:  # refused: it must say that the dtype is the reason
            assert "bool" in refusal, f"{name} of {a.dtype} on {backend}: {refusal}"
            continue
        where = f"{name}({a.tolist()}, dtype=bool) on {backend}: {got}, numpy {expected}"
        assert got.dtype == np.bool_, where
        np.testing.assert_array_equal(got, expected, err_msg=where)


PRODUCTS = {
    "dot": lambda x: (x, x), "matmul": lambda x: (x, x), "vdot": lambda x: (x, x),
    "inner": lambda x: (x, x), "outer": lambda x: (x, x), "tensordot": lambda x: (x, x),
    "kron": lambda x: (x, x), "einsum": lambda x: ("ij,jk->ik", x, x),
    "vecdot": lambda x: (x, x), "linalg.vecdot": lambda x: (x, x),
    "matvec": lambda x: (x, x[0]), "vecmat": lambda x: (x[0], x),
    "linalg.matrix_power": lambda x: (x, 2), "linalg.multi_dot": lambda x: ([x, x, x],),
}


@pytest.mark.parametrize("backend", usable_backends(vocabulary=True))
@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_boolean_and_integer_products_are_numpys_or_refused(name: str, backend: str) -> None:
    """Products of booleans are booleans (numpy adds them with OR) and products of
    integers keep numpy's integer dtype; a library without the kernel may refuse, but
    never answers in another kind (dask counted boolean dot, einsum, vdot, inner and
    tensordot in int64, sparse's vdot in int8, mlx's vdot in int32)."""
    for dtype in DTYPES:
        a = np.array([[1, 0], [1, 1]], dtype)
        expected = np.asarray(do(name, *PRODUCTS[name](a)))
        try:
            with missing_dtype_skips(backend):
                x = to_backend(a, backend)
        except pytest.skip.Exception:
            continue
        try:
            got = np.asarray(to_np(do(name, *PRODUCTS[name](x))))
        except Exception:  # the library's refusal (torch has no boolean matmul kernel)
            continue
        where = f"{name} of {dtype} on {backend}: {got.dtype}, numpy {expected.dtype}"
        assert got.dtype.kind == expected.dtype.kind, where
        np.testing.assert_array_equal(got, expected, err_msg=where)
