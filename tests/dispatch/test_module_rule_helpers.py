"""autoray's helpers on a library known only by the module rule, and the backend
``'builtins'`` of Python values.

The library below is a real module object in ``sys.modules`` with its own array
class and its own dtype objects, used the way an unregistered library is: nothing
is registered for it, its arrays name it by their type's module.
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

import dispatch
from dispatch import do


class _DType:
    """The library's own dtype objects (not numpy's), to see which object comes back."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"rulelib.{self.name}"


@pytest.fixture
def rulelib():
    mod = types.ModuleType("rulelib")
    dtypes = {n: _DType(n) for n in ("float32", "float64", "int64", "complex128")}
    _DType.__module__ = "rulelib"

    class Array:
        def __init__(self, data, dtype=None):
            name = dtype.name if isinstance(dtype, _DType) else dtype
            self.data = np.asarray(data, dtype=name)

        dtype = property(lambda self: dtypes[self.data.dtype.name])
        shape = property(lambda self: self.data.shape)
        ndim = property(lambda self: self.data.ndim)

        def astype(self, dtype):
            assert isinstance(dtype, _DType), "the library takes its own dtypes"
            return Array(self.data, dtype)

        def __array__(self, dtype=None, copy=None):
            return self.data

    Array.__module__ = "rulelib"

    def asarray(x, dtype=None):
        return Array(x, dtype)

    def sum(x, axis=None):
        return Array(x.data.sum(axis=axis))

    def conj(x):
        return Array(np.conj(x.data))

    def transpose(x, axes=None):
        return Array(np.transpose(x.data, axes))

    for f in (asarray, sum, conj, transpose):
        f.__module__ = "rulelib"
        setattr(mod, f.__name__, f)
    mod.Array = Array
    for name, dt in dtypes.items():
        setattr(mod, name, dt)
    sys.modules["rulelib"] = mod
    yield mod
    del sys.modules["rulelib"]
    dispatch.clear_caches()


def test_the_module_rule_names_the_library(rulelib):
    x = rulelib.Array([1.0, 2.0])
    assert dispatch.infer_backend(x) == "rulelib"
    assert dispatch.is_array(x)


@pytest.mark.parametrize("like", ["name", "array"])
def test_to_backend_dtype_is_the_modules_attribute(rulelib, like):
    example = "rulelib" if like == "name" else rulelib.Array([1.0])
    for name in ("float32", "float64", "int64", "complex128"):
        assert dispatch.to_backend_dtype(name, like=example) is getattr(rulelib, name)
    # numpy's spellings of a dtype name are read as numpy reads them
    assert dispatch.to_backend_dtype("f4", like=example) is rulelib.float32
    assert dispatch.to_backend_dtype(rulelib.int64, like=example) is rulelib.int64


def test_to_backend_dtype_looks_up_dtype_names_only(rulelib):
    with pytest.raises(TypeError):
        dispatch.to_backend_dtype("Array", like="rulelib")
    with pytest.raises(TypeError, match="no dtype 'bool'"):
        dispatch.to_backend_dtype("bool", like="rulelib")


def test_dtype_helpers(rulelib):
    x = rulelib.Array([1.0, 2.0], rulelib.float32)
    assert dispatch.get_dtype_name(x) == "float32"
    y = dispatch.astype(x, "float64")
    assert type(y) is rulelib.Array
    assert y.dtype is rulelib.float64
    assert dispatch.astype(x, rulelib.int64).dtype is rulelib.int64
    assert dispatch.get_common_dtype(x, rulelib.Array([1], rulelib.int64)) == "float64"
    assert x.dtype is rulelib.float32  # the input is untouched


def test_conversions(rulelib):
    x = rulelib.Array([[1.0, 2.0]])
    out = dispatch.to_numpy(x)
    assert type(out) is np.ndarray
    assert out.tolist() == [[1.0, 2.0]]
    back = dispatch.from_numpy(np.arange(3.0), backend="rulelib")
    assert type(back) is rulelib.Array
    assert back.data.tolist() == [0.0, 1.0, 2.0]
    assert dispatch.from_numpy(np.arange(3.0), "float32", like="rulelib").dtype is rulelib.float32
    conv = dispatch.convert(np.ones(2), "rulelib")
    assert type(conv) is rulelib.Array
    assert type(dispatch.convert(conv, "numpy")) is np.ndarray
    assert dispatch.to_device(x, "cpu") is x
    with pytest.raises(dispatch.UnsupportedError, match="'rulelib'"):
        dispatch.to_device(x, "cuda:0")


def test_shape_helpers_and_namespace(rulelib):
    x = rulelib.Array(np.ones((2, 3)))
    assert (dispatch.shape(x), dispatch.ndim(x), dispatch.size(x)) == ((2, 3), 2, 6)
    xp = dispatch.get_namespace(x)
    assert type(xp.sum(x)) is rulelib.Array
    assert xp.float64 is rulelib.float64
    assert type(dispatch.conj(x)) is rulelib.Array
    assert dispatch.transpose(x).shape == (3, 2)


# ---------------------------------------------------------------- 'builtins'


@pytest.fixture
def unregister():
    names = []
    yield names
    for backend, name in names:
        dispatch.unregister_function(backend, name)


def test_a_builtins_registration_serves_python_values_only(unregister):
    dispatch.register_function("builtins", "values_only_fn", lambda *a: ("values", a))
    unregister.append(("builtins", "values_only_fn"))
    assert do("values_only_fn", [1, 2], (3,)) == ("values", ([1, 2], (3,)))
    assert do("values_only_fn", 2.0) == ("values", (2.0,))
    assert do("values_only_fn", 1, like="builtins") == ("values", (1,))
    with pytest.raises(dispatch.UnknownFunctionError, match="'numpy'"):
        do("values_only_fn", np.ones(2))


def test_a_builtins_registration_of_a_numpy_name_leaves_arrays_alone(unregister):
    dispatch.register_function("builtins", "sum", lambda x: "python values")
    unregister.append(("builtins", "sum"))
    assert do("sum", [1, 2]) == "python values"
    assert do("sum", np.ones(2)) == 2.0


def test_names_under_builtins_are_numpys():
    assert do("sum", [1, 2], like="builtins") == 3
    assert dispatch.get_lib_fn("builtins", "linalg.norm") is np.linalg.norm
    assert dispatch.get_namespace("builtins").prod([2, 3]) == 6
    # never Python's builtins module
    for name in ("eval", "exec", "open", "print", "__import__"):
        with pytest.raises((dispatch.UnknownFunctionError, ValueError)):
            do(name, "1", like="builtins")


def test_a_builtins_registration_can_wrap_numpys(unregister):
    dispatch.register_function("builtins", "prod", lambda f: lambda x: -f(x), wrap=True)
    unregister.append(("builtins", "prod"))
    assert do("prod", [2, 3]) == -6
    assert do("prod", np.array([2, 3])) == 6
