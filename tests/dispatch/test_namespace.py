"""get_namespace: functions, sub-namespaces, and the library's values (constants,
dtypes, finfo/iinfo) on every backend; unknown names raise AttributeError."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import to_backend, to_np

import dispatch
from dispatch import do

A = np.arange(6.0).reshape(2, 3)
DTYPES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


@pytest.fixture
def ns(backend):
    return dispatch.get_namespace(to_backend(A, backend))


@pytest.mark.parametrize(("name", "value"), [("pi", np.pi), ("e", np.e), ("inf", np.inf)])
def test_constants_are_the_numbers(ns, name, value):
    got = getattr(ns, name)
    assert isinstance(got, float)
    assert got == value


def test_nan_and_newaxis(ns):
    assert isinstance(ns.nan, float)
    assert math.isnan(ns.nan)
    assert ns.newaxis is None


@pytest.mark.parametrize("name", DTYPES)
def test_dtypes_are_the_backends_own(ns, backend, name):
    """``ns.float32`` is the dtype object the library's arrays carry: creating an
    array with it gives that dtype, as numpy's name says."""
    dt = getattr(ns, name)
    assert not isinstance(dt, dispatch._namespace.Namespace)
    x = do("asarray", np.zeros(2), like=backend)
    cast = do("astype", x, dt)
    assert dispatch.get_dtype_name(cast) == name
    assert to_np(cast).dtype == np.dtype(name)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_finfo_matches_numpy(ns, backend, dtype):
    info = ns.finfo(getattr(ns, dtype))
    ref = np.finfo(dtype)
    assert float(info.eps) == float(ref.eps)
    assert float(info.max) == float(ref.max)
    assert int(info.bits) == ref.bits


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8"])
def test_iinfo_matches_numpy(ns, dtype):
    info = ns.iinfo(getattr(ns, dtype))
    ref = np.iinfo(dtype)
    assert (int(info.min), int(info.max), int(info.bits)) == (ref.min, ref.max, ref.bits)


def test_finfo_of_an_array(ns, backend):
    x = do("asarray", np.zeros(2, dtype="float32"), like=backend)
    assert float(ns.finfo(x.dtype).eps) == float(np.finfo(np.float32).eps)


@pytest.mark.parametrize("sub", ["linalg", "fft", "random"])
def test_submodules_stay_namespaces(ns, sub):
    assert isinstance(getattr(ns, sub), dispatch._namespace.Namespace)


def test_functions_still_resolve(ns, backend):
    x = to_backend(A, backend)
    np.testing.assert_allclose(to_np(ns.sum(x, axis=0)), A.sum(axis=0))
    np.testing.assert_allclose(to_np(ns.linalg.norm(x)), np.linalg.norm(A), rtol=1e-6)


@pytest.mark.parametrize("name", ["anything", "sumn", "float31", "linalg.nope"])
def test_unknown_attribute_is_an_attribute_error(ns, name):
    obj = ns
    *head, last = name.split(".")
    for part in head:
        obj = getattr(obj, part)
    assert not hasattr(obj, last)
    with pytest.raises(dispatch.UnknownFunctionError) as info:
        getattr(obj, last)
    assert isinstance(info.value, AttributeError)
    assert repr(last) in str(info.value)


def test_unknown_attribute_suggests(ns):
    with pytest.raises(AttributeError, match="Did you mean 'sum'"):
        ns.sumn  # noqa: B018


def test_private_attributes_are_not_looked_up(ns):
    assert not hasattr(ns, "_secret")
    assert not hasattr(ns, "__wrapped__")
