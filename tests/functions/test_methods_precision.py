"""dtype and precision methods of the backend method list (dtype_of, cast,
combine_types, auto_cast, auto_cast1, to_float, to_int32, to_int64,
to_complex, sizeof, float_type, complex_type) on every backend."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import to_backend, to_np

from dispatch import do, precision

DTYPES = ["bool", "int32", "int64", "float32", "float64", "complex64"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtype_of_matches_numpy(backend, dtype):
    x = to_backend(np.zeros(3, dtype), backend)
    assert do("dtype_of", x) == np.dtype(dtype)


def test_dtype_of_python_scalars():
    assert [do("dtype_of", v) for v in (True, 1, 1.0, 1j)] == [
        np.dtype(t) for t in ("bool", "int64", "float64", "complex128")
    ]


@pytest.mark.parametrize(
    ("dtypes", "expected", "bits"),
    [
        (("bool", "bool"), "bool", None),
        (("int8", "int32"), "int32", None),
        (("int64", "float32"), "float32", None),
        (("float16", "float64"), "float64", None),
        (("float32", "complex64"), "complex64", None),
        (("float64", "complex64"), "complex128", None),
        (("int64",), "int64", 64),
        (("int32", "float32"), "float64", 64),
        (("float64", "int8"), "float32", 32),
        (("complex128",), "complex64", 32),
        (("uint64", "int64"), "int64", None),
    ],
)
def test_combine_types(dtypes, expected, bits):
    if bits is None:
        assert do("combine_types", *dtypes) == np.dtype(expected)
    else:
        with precision(bits):
            assert do("combine_types", *dtypes) == np.dtype(expected)


def test_float_and_complex_type():
    def types():
        return str(do("float_type")), str(do("complex_type"))

    assert types() == ("float32", "complex64")
    with precision(64):
        assert types() == ("float64", "complex128")
    with precision(16):
        assert types() == ("float16", "complex64")


def test_auto_cast_common_dtype(backend):
    a = to_backend(np.arange(3, dtype="int64"), backend)
    b = to_backend(np.ones(3, "float32"), backend)
    out = do("auto_cast", a, b)
    assert [do("dtype_of", o) for o in out] == [np.dtype("float32")] * 2
    np.testing.assert_array_equal(to_np(out[0]), [0, 1, 2])
    with precision(64):
        out = do("auto_cast", a, b)
    assert [do("dtype_of", o) for o in out] == [np.dtype("float64")] * 2


def test_auto_cast_flags_and_weak_scalars(backend):
    t = to_backend(np.array([True, False]), backend)
    out = do("auto_cast", t, t, bool_to_int=True)
    assert do("dtype_of", out[0]) == np.dtype("int32")
    i = to_backend(np.array([1, 2], "int32"), backend)
    out = do("auto_cast", i, 2, int_to_float=True)
    assert do("dtype_of", out[0]) == np.dtype("float32")
    assert out[1] == 2.0
    assert isinstance(out[1], float)
    out = do("auto_cast", i, 1.5)  # a weak float raises the kind, not the width
    assert do("dtype_of", out[0]) == np.dtype("float32")


@pytest.mark.parametrize(
    ("name", "dtype", "expected"),
    [
        ("to_float", "int64", "float32"),
        ("to_float", "float64", "float32"),
        ("to_int32", "float64", "int32"),
        ("to_int64", "bool", "int64"),
        ("to_complex", "float32", "complex64"),
        ("cast", "float64", "float32"),
    ],
)
def test_casts(backend, name, dtype, expected):
    x = np.array([1.7, -2.2, 0.0]).astype(dtype)
    args = (expected,) if name == "cast" else ()
    out = do(name, to_backend(x, backend), *args)
    assert do("dtype_of", out) == np.dtype(expected)
    np.testing.assert_allclose(to_np(out), x.astype(expected), rtol=1e-6)


def test_to_float_follows_precision(backend):
    x = to_backend(np.arange(2), backend)
    with precision(64):
        assert do("dtype_of", do("to_float", x)) == np.dtype("float64")
        assert do("dtype_of", do("to_complex", x)) == np.dtype("complex128")


def test_auto_cast1(backend):
    f = to_backend(np.ones(2, "float64"), backend)
    i = to_backend(np.ones(2, "int64"), backend)
    assert do("dtype_of", do("auto_cast1", f)) == np.dtype("float64")  # no precision set
    with precision(32):
        assert do("dtype_of", do("auto_cast1", f)) == np.dtype("float32")
        assert do("dtype_of", do("auto_cast1", i)) == np.dtype("int64")


@pytest.mark.parametrize(
    ("shape", "dtype"), [((2, 3), "float32"), ((0,), "float64"), ((5,), "int64")]
)
def test_sizeof(backend, shape, dtype):
    x = np.zeros(shape, dtype)
    assert do("sizeof", to_backend(x, backend)) == x.nbytes
