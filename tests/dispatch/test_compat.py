"""dispatch.compat against the installed array-api-compat: the same public names and
signatures, and the same answers from every helper on every library array-api-compat
covers (tensorflow, which it does not cover, is checked on its own)."""

from __future__ import annotations

import inspect
import types

import numpy as np
import pytest
from conftest import _usable, to_backend

import dispatch
from dispatch import compat

aac = pytest.importorskip("array_api_compat")


def _public(module: types.ModuleType) -> set[str]:
    # submodules appear in dir() only once something imported them
    return {
        n
        for n in dir(module)
        if not n.startswith("_") and not isinstance(getattr(module, n), types.ModuleType)
    }


def test_every_public_name_of_array_api_compat_is_here():
    missing = _public(aac) - set(dir(compat))
    assert not missing
    for name in _public(aac):
        assert callable(getattr(compat, name)), name


@pytest.mark.parametrize("name", sorted(_public(aac)))
def test_signatures_match_array_api_compat(name):
    theirs = inspect.signature(getattr(aac, name))
    ours = inspect.signature(getattr(compat, name))
    shape = [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == shape


def test_the_wrapper_modules_are_the_faces_namespaces():
    import dispatch.compat.common._helpers as helpers
    import dispatch.compat.dask.array as dask_ns
    import dispatch.compat.numpy as np_ns

    assert np_ns.__name__ == "array_api_compat.numpy"
    assert compat.is_numpy_namespace(np_ns)
    assert aac.is_numpy_namespace(np_ns)
    assert dask_ns.__name__ == "array_api_compat.dask.array"
    assert helpers._compat_module_name() == "array_api_compat"
    assert helpers.array_namespace is compat.array_namespace


def _arrays():
    """(label, array) on every library installed; array-api-compat covers all but
    tensorflow."""
    out = [
        ("numpy", np.arange(6.0).reshape(2, 3)),
        ("numpy-scalar", np.float32(2.5)),
        ("numpy-readonly", np.arange(3.0)),
        ("numpy-bool", np.bool_(True)),
    ]
    out[2][1].flags.writeable = False
    try:
        import torch

        out.append(("torch", torch.arange(6.0).reshape(2, 3)))
    except ImportError:
        pass
    try:
        import jax.numpy as jnp

        out.append(("jax", jnp.arange(6.0).reshape(2, 3)))
    except ImportError:
        pass
    try:
        import dask.array as da

        x = da.arange(6.0, chunks=2)
        out += [("dask", x.reshape(2, 3)), ("dask-unknown", x[x > 2])]
    except ImportError:
        pass
    try:
        import sparse

        out.append(("sparse", sparse.COO.from_numpy(np.eye(3))))
    except ImportError:
        pass
    return out


ARRAYS = _arrays()
NOT_ARRAYS = [1.0, 2, True, None, [1.0, 2.0], "text", np.dtype("float64"), object()]
ARRAY_PREDICATES = sorted(n for n in _public(aac) if n.startswith("is_") and n.endswith("_array"))
NAMESPACE_PREDICATES = sorted(
    n for n in _public(aac) if n.startswith("is_") and n.endswith("_namespace")
)


@pytest.mark.parametrize(("label", "x"), ARRAYS, ids=[a for a, _ in ARRAYS])
def test_helpers_answer_as_array_api_compat(label, x):
    for name in [*ARRAY_PREDICATES, "is_array_api_obj"]:
        assert getattr(compat, name)(x) == getattr(aac, name)(x), name
    assert str(compat.device(x)) == str(aac.device(x))
    assert compat.size(x) == aac.size(x)
    moved = compat.to_device(x, compat.device(x))
    np.testing.assert_array_equal(dispatch.to_numpy(moved), dispatch.to_numpy(x))
    theirs, ours = aac.array_namespace(x), compat.array_namespace(x)
    assert isinstance(ours, compat.CompatNamespace)  # the face's own, jax's included
    assert ours.__name__ == theirs.__name__  # array-api-compat's names
    for name in NAMESPACE_PREDICATES:
        # each face's predicates recognize the other's namespaces as their own
        assert getattr(compat, name)(ours) == getattr(aac, name)(theirs), name
        assert getattr(aac, name)(ours) == getattr(aac, name)(theirs), name
        assert getattr(compat, name)(theirs) == getattr(aac, name)(theirs), name
    assert compat.array_namespace(x, use_compat=False) is aac.array_namespace(x, use_compat=False)


@pytest.mark.parametrize(("label", "x"), ARRAYS, ids=[a for a, _ in ARRAYS])
def test_writeable_and_lazy_as_array_api_compat(label, x):
    assert compat.is_writeable_array(x) == aac.is_writeable_array(x)
    assert compat.is_lazy_array(x) == aac.is_lazy_array(x)


def _id(x):
    # a bare object()'s repr holds an address, which xdist's workers disagree on
    return "object()" if type(x) is object else repr(x)


@pytest.mark.parametrize("x", NOT_ARRAYS, ids=_id)
def test_non_arrays_are_no_arrays(x):
    for name in [*ARRAY_PREDICATES, "is_array_api_obj", "is_writeable_array", "is_lazy_array"]:
        assert getattr(compat, name)(x) == getattr(aac, name)(x), name


def test_namespace_predicates_refuse_other_objects():
    for obj in (np, np.linalg, types.ModuleType("array_api_compat.torch.linalg")):
        for name in NAMESPACE_PREDICATES:
            assert getattr(compat, name)(obj) == getattr(aac, name)(obj), (name, obj)
    # array-api-compat raises AttributeError on objects without a name: no namespace
    for obj in (object(), "numpy", types.SimpleNamespace(__name__=3)):
        for name in NAMESPACE_PREDICATES:
            assert getattr(compat, name)(obj) is False, (name, obj)


def test_array_namespace_errors_as_array_api_compat():
    torch = pytest.importorskip("torch")
    for face in (aac, compat):
        with pytest.raises(TypeError):
            face.array_namespace(np.ones(1), torch.ones(1))
        with pytest.raises(TypeError):
            face.array_namespace(object())
    with pytest.raises(dispatch.MixedBackendError):
        compat.array_namespace(np.ones(1), torch.ones(1))
    with pytest.raises(ValueError, match="api_version"):
        compat.array_namespace(np.ones(1), api_version="2020.01")
    for version in ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
        xp = compat.array_namespace(np.ones(1), api_version=version)
        assert xp.__name__ == "array_api_compat.numpy"


def test_scalars_and_none_are_skipped_and_numpy_scalars_are_numpy():
    assert compat.array_namespace(np.float64(1), 2.0, None).__name__ == "array_api_compat.numpy"
    assert aac.is_numpy_namespace(aac.array_namespace(np.float64(1)))


def test_array_api_strict_brings_its_own_namespace():
    strict = pytest.importorskip("array_api_strict")
    x = strict.asarray([1.0])
    assert compat.array_namespace(x) is aac.array_namespace(x)
    assert compat.is_array_api_strict_namespace(strict)
    assert compat.is_array_api_obj(x)


def test_tensorflow_is_covered_too():
    tf = pytest.importorskip("tensorflow")
    x = tf.constant([[1.0, 2.0]])
    xp = compat.array_namespace(x)
    assert compat.is_tensorflow_namespace(xp)
    assert compat.is_tensorflow_array(x)
    assert not compat.is_numpy_array(x)
    assert compat.is_array_api_obj(x)
    assert not compat.is_writeable_array(x)
    assert not compat.is_lazy_array(x)
    assert compat.size(x) == 2
    assert "CPU" in str(compat.device(x))
    np.testing.assert_array_equal(xp.concat([x, x], axis=0).numpy(), [[1, 2], [1, 2]])
    assert xp.isclose(x, x).numpy().all()


@pytest.mark.parametrize("backend", ["numpy", "torch", "jax", "dask", "tensorflow"])
def test_namespaces_hold_the_standard_and_numpys_names(backend):
    """The standard's members (array_namespace's adapters) first, then the library's
    numpy names, which dispatch.array_namespace refuses."""
    pytest.importorskip({"dask": "dask.array"}.get(backend, backend))
    xp, strict = compat.array_namespace(backend), dispatch.array_namespace(backend)
    data = xp.asarray([3.0, 1.0, 2.0, 1.0])
    # the same adapter: the standard's semantics where numpy's differ
    got = dispatch.to_numpy(xp.sort(data, descending=True))
    np.testing.assert_array_equal(got, [3.0, 2.0, 1.0, 1.0])
    np.testing.assert_array_equal(
        dispatch.to_numpy(xp.unique_values(data)), dispatch.to_numpy(strict.unique_values(data))
    )
    for name in ("float16", "isclose", "setdiff1d", "nan_to_num", "atleast_2d"):
        assert hasattr(xp, name), name
        assert not hasattr(strict, name), name
    np.testing.assert_array_equal(
        dispatch.to_numpy(xp.setdiff1d(data, xp.asarray([1.0]))), [2.0, 3.0]
    )
    assert hasattr(xp.linalg, "norm")
    assert not hasattr(xp, "no_such_function")


@pytest.mark.parametrize("backend", ["numpy", "torch", "dask"])
def test_every_name_of_array_api_compats_namespace_is_a_name_here(backend):
    """array-api-compat's namespaces are the whole library plus its fixes: code that
    recognized numpy's namespace calls numpy's other names (scipy's rankdata calls
    ``xp.put_along_axis``); every public name of its namespace is one of this face's,
    and the unique_* result classes are those of the face's own results."""
    if not _usable(backend):
        pytest.skip(f"{backend} is not installed")
    x = to_backend(np.ones(2), backend)
    theirs, ours = aac.array_namespace(x), compat.array_namespace(x)
    missing = [n for n in dir(theirs) if not n.startswith("_") and not hasattr(ours, n)]
    assert not missing
    assert isinstance(ours.unique_counts(ours.asarray([1, 1])), ours.UniqueCountsResult)
    if backend == "numpy":
        a = np.zeros(3)
        ours.put_along_axis(a, np.array([1]), 5.0, axis=0)  # numpy's own, in place
        np.testing.assert_array_equal(a, [0.0, 5.0, 0.0])


def test_the_librarys_own_modules_and_keywords_reach_the_library():
    """As in array-api-compat's namespaces (the whole library): a module of the library
    that the vocabulary has no names in is the library's own (scikit-learn asks
    ``xp.backends.cuda.is_built()``), a vocabulary name called with the library's own
    keywords is the library's function (torch's ``quantile(..., dim=)``), and a
    vocabulary prefix stays the vocabulary's (``xp.random``)."""
    torch = pytest.importorskip("torch")
    tx = compat.array_namespace(torch.ones(2))
    assert tx.backends.cuda.is_built() == torch.backends.cuda.is_built()
    t = torch.tensor([1.0, 2.0, 3.0, 10.0])
    assert float(tx.quantile(t, 0.5, dim=0)) == float(torch.quantile(t, 0.5, dim=0))
    assert float(tx.quantile(t, 0.5, axis=0)) == float(np.quantile(t.numpy(), 0.5))
    xp = compat.array_namespace(np.ones(2))
    out = xp.ones_like(torch.ones(2, dtype=torch.float64))  # as numpy's own takes it
    np.testing.assert_array_equal(out, np.ones(2))
    assert not isinstance(xp.random, types.ModuleType)
    assert xp.random.normal(size=3).shape == (3,)
