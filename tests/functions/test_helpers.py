"""Helpers with autoray's names: dtypes, introspection, conversion, trees, namespaces."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close, to_backend, to_np

import dispatch
from dispatch import do, infer_backend

rng = np.random.default_rng(80)
A = rng.standard_normal((3, 4)) * 3
S = np.array(1.5)
E = np.zeros((0, 3))
DTYPES = ["float32", "float64", "int32", "int64", "bool", "complex64", "complex128"]
SAMPLES = {d: (A > 0).astype(d) if d == "bool" else A.astype(d) for d in DTYPES}


@pytest.mark.parametrize("name", ["astype"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_astype_by_name(name, dtype, backend):
    x = to_backend(A, backend)
    out = dispatch.astype(x, dtype)
    assert infer_backend(out) == backend
    assert_close(to_np(out), A.astype(dtype))
    assert_close(to_np(do("astype", x, dtype)), A.astype(dtype))


@pytest.mark.parametrize("name", ["astype"])
@pytest.mark.parametrize("dtype", [np.float32, np.dtype("int64"), np.dtype("float64")])
def test_astype_dtype_object(name, dtype, backend):
    out = dispatch.astype(to_backend(A, backend), dtype)
    assert_close(to_np(out), A.astype(dtype))


@pytest.mark.parametrize("name", ["astype"])
def test_astype_does_not_touch_input(name, backend):
    x = to_backend(A, backend)
    dispatch.astype(x, "int64")
    assert_close(to_np(x), A)
    y = dispatch.astype(x, "float64")  # same dtype
    assert_close(to_np(y), A)


@pytest.mark.parametrize("name", ["to_backend_dtype"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_to_backend_dtype(name, dtype, backend):
    native = dispatch.to_backend_dtype(dtype, like=backend)
    out = dispatch.astype(to_backend(A, backend), native)
    assert dispatch.get_dtype_name(out) == dtype
    if backend != "numpy":  # also from an example array
        assert dispatch.to_backend_dtype(dtype, like=to_backend(A, backend)) == native


@pytest.mark.parametrize("name", ["get_dtype_name"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_get_dtype_name(name, dtype, backend):
    x = to_backend(SAMPLES[dtype], backend)
    assert dispatch.get_dtype_name(x) == dtype
    assert do("get_dtype_name", x) == dtype


@pytest.mark.parametrize("name", ["get_dtype_name"])
def test_get_common_dtype(name, backend):
    f32 = to_backend(SAMPLES["float32"], backend)
    i64 = to_backend(SAMPLES["int64"], backend)
    assert dispatch.get_common_dtype(f32, i64) == "float64"
    assert dispatch.get_common_dtype(f32, f32) == "float32"


@pytest.mark.parametrize("name", ["shape", "ndim", "size"])
@pytest.mark.parametrize("x", [A, S, E, A[None]], ids=["2d", "0d", "empty", "3d"])
def test_shape_ndim_size(name, x, backend):
    xb = to_backend(x, backend)
    got = getattr(dispatch, name)(xb)
    expected = getattr(np, name)(x)
    if name == "shape":
        assert isinstance(got, tuple)
        assert all(type(d) is int for d in got)
        assert got == x.shape
    else:
        assert type(got) is int
        assert got == expected
    assert do(name, xb) == got


@pytest.mark.parametrize("name", ["to_numpy"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_to_host(name, dtype, backend):
    x = to_backend(SAMPLES[dtype], backend)
    out = dispatch.to_numpy(x)
    assert isinstance(out, np.ndarray)
    assert_close(out, SAMPLES[dtype])
    assert isinstance(dispatch.to_numpy(to_backend(S, backend)), np.ndarray)


@pytest.mark.parametrize("name", ["from_numpy"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_from_host(name, dtype, backend):
    out = dispatch.from_numpy(SAMPLES[dtype], like=backend)
    assert infer_backend(out) == backend
    assert_close(to_np(out), SAMPLES[dtype])
    assert infer_backend(do("from_numpy", SAMPLES[dtype], like=backend)) == backend


@pytest.mark.parametrize("name", ["from_numpy"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
def test_convert_between_backends(name, dtype, backend, backend2):
    x = to_backend(SAMPLES[dtype], backend)
    y = dispatch.convert(x, backend2)
    assert infer_backend(y) == backend2
    assert_close(to_np(y), SAMPLES[dtype])
    assert_close(to_np(x), SAMPLES[dtype])  # the source is left alone


@pytest.mark.parametrize("name", ["to_device"])
def test_to_device_cpu(name, backend):
    x = to_backend(A, backend)
    if backend == "cupy":  # GPU arrays only: the host's arrays are numpy's
        with pytest.raises(ValueError, match="to_numpy"):
            dispatch.to_device(x, "cpu")
        return
    y = dispatch.to_device(x, "cpu")
    assert infer_backend(y) == backend
    assert_close(to_np(y), A)


@pytest.mark.parametrize("name", ["asarray"])
def test_is_array_is_scalar(name, backend):
    x = to_backend(A, backend)
    assert dispatch.is_array(x)
    assert dispatch.is_array(to_backend(S, backend))
    assert not dispatch.is_array([1.0, 2.0])
    assert not dispatch.is_array(1.5)
    assert not dispatch.is_array("abc")
    assert not dispatch.is_scalar(x)
    assert dispatch.is_scalar(1.5)
    assert dispatch.is_scalar(3)
    assert dispatch.is_scalar(np.float32(1))
    assert infer_backend(x) == backend


@pytest.mark.parametrize("name", ["multiply"])
def test_tree_helpers(name, backend):
    x = to_backend(A, backend)
    y = to_backend(S, backend)
    tree = {"a": [x, y], "b": (x, 3, "s"), "c": {"d": y}}
    doubled = dispatch.tree_map(lambda t: do("multiply", t, 2.0), tree)
    assert set(doubled) == {"a", "b", "c"}
    assert isinstance(doubled["a"], list)
    assert isinstance(doubled["b"], tuple)
    assert doubled["b"][1:] == (3, "s")
    assert_close(to_np(doubled["a"][0]), 2 * A)
    assert_close(to_np(doubled["c"]["d"]), 2 * S)
    assert infer_backend(doubled["b"][0]) == backend

    leaves = dispatch.tree_flatten(tree)
    assert len(leaves) == 4
    assert len(list(dispatch.tree_iter(tree))) == 4
    leaves, ref = dispatch.tree_flatten(tree, get_ref=True)
    rebuilt = dispatch.tree_unflatten([do("negative", v) for v in leaves], ref)
    assert_close(to_np(rebuilt["a"][0]), -A)
    assert_close(to_np(rebuilt["a"][1]), -S)
    assert rebuilt["b"][1:] == (3, "s")
    assert_close(to_np(x), A)  # leaves untouched


@pytest.mark.parametrize("name", ["sum", "linalg.norm", "reshape", "zeros"])
def test_dispatch_xp_module(name, backend):
    from dispatch import numpy as xp

    x = to_backend(A, backend)
    if name == "sum":
        out, expected = xp.sum(x, axis=0), A.sum(axis=0)
    elif name == "linalg.norm":
        out, expected = xp.linalg.norm(x), np.linalg.norm(A)
    elif name == "reshape":
        out, expected = xp.reshape(x, (4, 3)), A.reshape(4, 3)
    else:
        out, expected = xp.zeros((2, 3), like=backend), np.zeros((2, 3))
    if name != "linalg.norm":
        assert infer_backend(out) == backend
    assert_close(to_np(out), expected, dtype="kind")


@pytest.mark.parametrize("name", ["sum", "linalg.qr", "zeros", "scipy.special.erf"])
def test_get_namespace(name, backend):
    x = to_backend(A, backend)
    for ns in (dispatch.get_namespace(x), dispatch.get_namespace(backend)):
        if name == "sum":
            assert_close(to_np(ns.sum(x, axis=1)), A.sum(axis=1))
        elif name == "linalg.qr":
            q, r = ns.linalg.qr(x)
            assert_close(to_np(q) @ to_np(r), A, rtol=1e-6, atol=1e-9)
        elif name == "zeros":
            z = ns.zeros((2, 2))
            assert infer_backend(z) == backend
            assert to_np(z).shape == (2, 2)
        else:
            import scipy.special

            assert_close(to_np(ns.scipy.special.erf(x)), scipy.special.erf(A))


@pytest.mark.parametrize("name", ["sum"])
def test_get_lib_fn(name, backend):
    fn = dispatch.get_lib_fn(backend, "sum")
    assert_close(to_np(fn(to_backend(A, backend))), A.sum())
    assert dispatch.supports("sum", backend) == "native"
    assert dispatch.supports("no_such_function_xyz", backend) is None


MUTATION_CASES = {
    "astype": lambda x: dispatch.astype(x, "int64"),
    "to_numpy": dispatch.to_numpy,
    "to_device": lambda x: dispatch.to_device(x, do("get_device", x)),
    "copy": lambda x: do("copy", x),
    "stop_gradient": lambda x: do("stop_gradient", x),
    "get_dtype_name": dispatch.get_dtype_name,
    "shape": dispatch.shape,
}


@pytest.mark.parametrize("name", list(MUTATION_CASES))
def test_inputs_not_mutated(name, backend):
    x = to_backend(A, backend)
    MUTATION_CASES[name](x)
    np.testing.assert_array_equal(to_np(x), A)


# ---------------------------------------------------------------- scalars, as autoray

SCALARS = [0.5, 3, -2, True, False, 1 + 2j, np.array(3.0)] + [
    t(v)
    for t, v in [
        (np.float32, 1.5),
        (np.float64, 2.0),
        (np.float16, 1.0),
        (np.int8, 3),
        (np.int64, 1),
        (np.uint16, 4),
        (np.bool_, True),
        (np.complex64, 1j),
        (np.complex128, 2 + 1j),
    ]
]
NESTED = [[1.0, 2.0], [[1, 2], [3, 4]], (1, 2, 3), [], [[]], ((1.0,), (2.0,)), [(1, 2)]]


@pytest.mark.parametrize("x", SCALARS + NESTED, ids=repr)
@pytest.mark.parametrize("helper", ["shape", "ndim", "size"])
def test_scalar_and_nested_helpers_match_autoray(helper, x):
    """shape/ndim/size of Python and numpy scalars and nested lists answer as
    autoray 0.11.0 does, and as numpy does."""
    autoray = pytest.importorskip("autoray")
    got = getattr(dispatch, helper)(x)
    assert got == getattr(autoray, helper)(x)
    assert got == getattr(np, helper)(x)
    assert type(got) is (tuple if helper == "shape" else int)


@pytest.mark.parametrize("x", [s for s in SCALARS if type(s) is not bool], ids=repr)
def test_scalar_dtype_name_matches_autoray(x):
    autoray = pytest.importorskip("autoray")
    assert dispatch.get_dtype_name(x) == autoray.get_dtype_name(x)


@pytest.mark.parametrize("x", [True, False, 0.5, 3, 1j, np.bool_(True)], ids=repr)
def test_scalar_dtype_name_is_numpys(x):
    """numpy's name for the dtype a scalar becomes; for ``bool`` autoray 0.11.0
    raises KeyError, so numpy's answer is the reference."""
    assert dispatch.get_dtype_name(x) == np.asarray(x).dtype.name


def test_dtype_name_of_a_list_is_a_clear_error():
    with pytest.raises(TypeError, match=r"get_dtype_name\(\[1.0, 2.0\]\).*asarray"):
        dispatch.get_dtype_name([1.0, 2.0])


def test_shape_of_a_list_of_arrays(backend):
    x = to_backend(A, backend)
    assert dispatch.shape([x, x]) == (2, *A.shape)
    assert dispatch.ndim([x, x]) == A.ndim + 1
    assert dispatch.size((x, x, x)) == 3 * A.size


@pytest.mark.parametrize("name", ["shape", "ndim", "size"])
@pytest.mark.parametrize(
    "x", [[[1.0, 2.0], [3.0, 4.0]], (1, 2, 3), 0.5, 7, [], [[True], [False]]],
    ids=["nested", "tuple", "float", "int", "empty", "bools"],
)
def test_do_reads_shapes_of_python_values_as_numpy(name, x):
    """``do("shape", [[1, 2], [3, 4]])`` answers as ``np.shape`` does, not only the
    ``dispatch.shape`` shortcut: the composed entry meets Python values too."""
    assert do(name, x) == getattr(np, name)(x)


def test_shape_of_a_list_that_contains_itself():
    a: list = [1.0]
    a[0] = a
    with pytest.raises(ValueError, match="contains itself"):
        dispatch.shape(a)
