"""Creation functions: numpy semantics on every backend."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close, case, params

rng = np.random.default_rng(10)
A = rng.standard_normal((3, 4))
A32 = A.astype("float32")
AI = rng.integers(-5, 5, (2, 3))
AB = rng.random((2, 3)) > 0.5
AC = A + 1j * rng.standard_normal((3, 4))
X = np.linspace(0.0, 1.0, 3)
Y = np.arange(4.0)
E = np.zeros((0, 3))
S = np.array(2.5)


def _shape_dtype(kind: str | None = None, dtype: str | None = None):
    """Check only shape and dtype (for ``empty``, whose values are undefined)."""

    def check(actual, *args, **kwargs):
        ref = {"empty": np.empty, "empty_like": np.empty_like}
        name = "empty_like" if args and isinstance(args[0], np.ndarray) else "empty"
        expected = ref[name](*args, **kwargs)
        assert actual.shape == expected.shape
        if dtype is not None:
            assert actual.dtype == np.dtype(dtype)
        elif kind is not None:
            assert actual.dtype.kind == kind
        else:
            assert actual.dtype == expected.dtype

    return check


CASES = [
    # from a shape: the library may choose its default float (kind), unless dtype= is given
    case("zeros", (2, 3), _like=True, _dtype="kind"),
    case("zeros", 3, _like=True, _dtype="kind"),
    case("zeros", (), _like=True, _dtype="kind"),
    case("zeros", (0, 3), _like=True, _dtype="kind"),
    case("zeros", (2, 3), dtype="float32", _like=True),
    case("zeros", (2,), dtype="int64", _like=True),
    case("zeros", (2,), dtype="bool", _like=True),
    case("zeros", (2,), dtype="complex128", _like=True),
    case("ones", (2, 3), _like=True, _dtype="kind"),
    case("ones", 4, dtype="float64", _like=True),
    case("ones", (3,), dtype="int32", _like=True),
    case("ones", (1, 0), _like=True, _dtype="kind"),
    case("empty", (2, 3), _like=True, _check=_shape_dtype(kind="f")),
    case("empty", (2,), dtype="int64", _like=True, _check=_shape_dtype(dtype="int64")),
    case("full", (2, 2), 3.5, _like=True, _dtype="kind"),
    case("full", (2, 3), 7, dtype="int32", _like=True),
    case("full", (3,), 2.0, dtype="float64", _like=True),
    case("full", (2,), True, _like=True),
    case("full", (), 1.5, _like=True, _dtype="kind"),
    case("eye", 3, _like=True, _dtype="kind"),
    case("eye", 3, 4, _like=True, _dtype="kind"),
    case("eye", 4, k=1, _like=True, _dtype="kind"),
    case("eye", 3, k=-2, dtype="float64", _like=True),
    case("eye", 2, dtype="int32", _like=True),
    case("identity", 3, _like=True, _dtype="kind"),
    case("identity", 2, dtype="float64", _like=True),
    case("arange", 5, _like=True, _dtype="kind"),
    case("arange", 1, 7, 2, _like=True, _dtype="kind"),
    case("arange", 3, 0, -1, _like=True, _dtype="kind"),
    case("arange", 0.0, 1.0, 0.25, _like=True, _dtype="kind"),
    case("arange", 5, dtype="float32", _like=True),
    case("arange", 4, dtype="int64", _like=True),
    case("arange", 0, _like=True, _dtype="kind"),
    case("linspace", 0.0, 1.0, 5, _like=True, _dtype="kind"),
    case("linspace", 0.0, 1.0, 4, endpoint=False, _like=True, _dtype="kind"),
    case("linspace", -2.0, 3.0, 1, _like=True, _dtype="kind"),
    case("linspace", 0.0, 1.0, 0, _like=True, _dtype="kind"),
    case("linspace", 0, 10, 6, dtype="float64", _like=True),
    case("logspace", 0.0, 3.0, 4, _like=True, _dtype="kind"),
    case("logspace", 0, 3, 4, endpoint=False, base=2.0, _like=True, _dtype="kind"),
    case("logspace", -1.0, 2.0, 5, dtype="float32", _like=True),
    case("logspace", 1.0, 2.0, 6, dtype="float64", _like=True),
    case("logspace", 0.0, 1.0, 1, _like=True, _dtype="kind"),
    case("logspace", 0.0, 1.0, 0, _like=True, _dtype="kind"),
    case("logspace", X, 3.0, 4, axis=1, _like=True, _dtype="kind"),
    case("logspace", 1.0, 2.0, 3, base=np.array([2.0, 3.0]), _like=True, _dtype="kind"),
    case("geomspace", 1.0, 1000.0, 4, _like=True, _dtype="kind"),
    case("geomspace", 1, 256, 9, dtype="float64", _like=True),
    case("geomspace", -1000.0, -1.0, 4, _like=True, _dtype="kind"),
    case("geomspace", 1.0, 16.0, 4, endpoint=False, _like=True, _dtype="kind"),
    case("geomspace", 2.0, 3.0, 5, dtype="float32", _like=True),
    case("geomspace", 1j, 1000j, 4, _like=True, _dtype="kind"),
    case("geomspace", -1 + 0j, 1 + 0j, 5, _like=True, _dtype="kind"),
    case("geomspace", 5.0, 10.0, 1, _like=True, _dtype="kind"),
    case("geomspace", 5.0, 10.0, 0, _like=True, _dtype="kind"),
    case("geomspace", X + 1, Y[:3] + 10, 3, axis=-1, _like=True, _dtype="kind"),
    case("indices", (2, 3), _like=True, _dtype="kind"),
    case("tril_indices", 4, _like=True),
    case("tril_indices", 3, -1, 5, _like=True),
    case("tril_indices", 3, k=2, _like=True),
    case("tril_indices", 0, _like=True),
    case("triu_indices", 4, _like=True),
    case("triu_indices", 4, 1, 2, _like=True),
    case("triu_indices", 3, k=-2, m=4, _like=True),
    case("diag_indices", 3, _like=True),
    case("diag_indices", 2, 3, _like=True),
    case("diag_indices", 4, ndim=1, _like=True),
    case("tril_indices_from", np.ones((3, 4))),
    case("tril_indices_from", -np.ones((4, 2), "float32"), k=-1),
    case("tril_indices_from", np.ones((3, 3), "int64"), 1),
    case("triu_indices_from", np.ones((3, 4))),
    case("triu_indices_from", -np.ones((4, 2), "float32"), k=1),
    case("triu_indices_from", np.zeros((0, 3)), -1),
    case("diag_indices_from", np.ones((3, 3))),
    case("diag_indices_from", -np.ones((2, 2, 2), "float32")),
    case("diag_indices_from", np.zeros((4, 4), "int64")),
    case("mask_indices", 3, np.triu, _like=True),
    case("mask_indices", 4, np.tril, -1, _like=True),
    case("mask_indices", 4, np.triu, k=2, _like=True),
    # from an array: the dtype follows the array exactly
    case("zeros_like", A),
    case("zeros_like", AI),
    case("zeros_like", A, dtype="float32"),
    case("zeros_like", S),
    case("ones_like", A32),
    case("ones_like", AB),
    case("ones_like", E),
    case("empty_like", A, _check=_shape_dtype()),
    case("full_like", A, 2.0),
    case("full_like", AI, 3),
    case("full_like", A, 1.5, dtype="float32"),
    case("asarray", A),
    case("asarray", A32),
    case("asarray", AI),
    case("asarray", AB),
    case("asarray", AC),
    case("asarray", S),
    case("asarray", E),
    case("asarray", A, dtype="float32"),
    # floats made from Python numbers: the library's width (README), as zeros and full
    case("asarray", [[1.0, 2.0], [3.0, 4.0]], _like=True, _dtype="kind"),
    case("asarray", [1, 2, 3], _like=True, _dtype="kind"),
    case("asarray", 3.0, _like=True, _dtype="kind"),
    case("array", A),
    case("array", AI),
    case("copy", A),
    case("copy", AI),
    case("copy", S),
    case("meshgrid", X, Y),
    case("meshgrid", X, Y, indexing="ij"),
    case("meshgrid", X),
]


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_creation(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)


@pytest.mark.parametrize("name", ["copy"])
def test_copy_is_independent(name, backend):
    from conftest import to_backend, to_np

    from dispatch import do

    x = to_backend(A, backend)
    y = do("copy", x)
    assert y is not x
    assert_close(to_np(y), A)


@pytest.mark.parametrize("name", ["asarray"])
def test_asarray_returns_backend_array(name, backend):
    from dispatch import do, infer_backend

    x = do("asarray", A, like=backend)
    assert infer_backend(x) == backend
    assert infer_backend(do("asarray", x)) == backend


@pytest.mark.parametrize(
    "name", ["zeros", "ones", "arange", "linspace", "logspace", "geomspace", "eye", "full"]
)
def test_creation_returns_backend_array(name, backend):
    from dispatch import do, infer_backend

    args = {
        "zeros": ((2,),),
        "ones": ((2,),),
        "arange": (3,),
        "linspace": (0, 1, 3),
        "logspace": (0, 2, 3),
        "geomspace": (1, 100, 3),
        "eye": (2,),
        "full": ((2,), 1.0),
    }[name]
    assert infer_backend(do(name, *args, like=backend)) == backend
