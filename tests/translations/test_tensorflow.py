"""tensorflow's quirks: tensor classes, numpy promotion, tf.function, seeded draws, devices."""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

import dispatch  # noqa: E402
from dispatch import do, get_lib_fn, infer_backend  # noqa: E402

RNG = np.random.default_rng(7)
M = RNG.standard_normal((4, 5))
SPD = M @ M.T + 4 * np.eye(4)


def close(result, expected, **kw):
    got = do("to_numpy", result)
    assert got.dtype == np.asarray(expected).dtype, (got.dtype, np.asarray(expected).dtype)
    np.testing.assert_allclose(got, expected, **kw)


# ---------------------------------------------------------------- types


@pytest.mark.parametrize(
    "make",
    [
        lambda: tf.constant(M),
        lambda: tf.Variable(M),
        lambda: tf.constant(1.5),
    ],
    ids=["eager", "variable", "0d"],
)
def test_types_recognised(make):
    x = make()
    assert infer_backend(x) == "tensorflow"
    close(do("sum", x), np.sum(np.asarray(x)))


def test_symbolic_tensors_recognised_inside_tf_function():
    seen = []

    @tf.function
    def f(x):
        seen.append(infer_backend(x))
        return do("matmul", do("transpose", x), do("sin", x))

    close(f(tf.constant(M)), M.T @ np.sin(M), rtol=1e-12)
    assert seen == ["tensorflow"]


def test_do_inside_tf_function_matches_eager():
    ops = [
        ("sum", {"axis": (0, 1), "keepdims": True}),
        ("std", {"ddof": 1}),
        ("median", {"axis": 1}),
        ("sort", {"axis": 0}),
        ("argsort", {}),
        ("cumsum", {"axis": None}),
        ("flip", {"axis": 1}),
        ("linalg.norm", {"ord": "nuc"}),
        ("fft.rfft", {"n": 8}),
        ("scipy.special.logsumexp", {"axis": -1}),
    ]
    x = tf.constant(M)
    for name, kw in ops:
        eager = do(name, x, **kw)
        graph = tf.function(lambda a, name=name, kw=kw: do(name, a, **kw))(x)
        np.testing.assert_allclose(graph.numpy(), eager.numpy(), rtol=1e-12, err_msg=name)


def test_numpy_named_results_inside_tf_function():
    svd = tf.function(lambda a: do("linalg.svd", a, full_matrices=False))(tf.constant(M))
    np.testing.assert_allclose((svd.U * svd.S) @ svd.Vh, M, atol=1e-12)
    sign, logdet = tf.function(lambda a: do("linalg.slogdet", a))(tf.constant(SPD))
    np.testing.assert_allclose(float(sign) * np.exp(float(logdet)), np.linalg.det(SPD))


# ---------------------------------------------------------------- numpy semantics


@pytest.mark.parametrize(
    ("name", "tensor", "scalar", "expected"),
    [
        ("add", np.ones(3, np.float32), 1.5, "float32"),  # weak Python float
        ("multiply", np.ones(3, np.int32), 2, "int32"),  # weak Python int
        ("add", np.ones(3, np.int32), 1.5, "float64"),  # int + float -> float64
        ("power", np.ones(3, np.float32), 2, "float32"),
        ("maximum", np.ones(3, np.float32), 0.0, "float32"),
        ("divide", np.ones(3, np.int32), 2, "float64"),
        ("less", np.ones(3, np.int64), 1.5, "bool"),
    ],
)
def test_python_scalars_are_weak(name, tensor, scalar, expected):
    out = do(name, tf.constant(tensor), scalar)
    assert do("get_dtype_name", out) == expected
    assert getattr(np, name)(tensor, scalar).dtype == expected


def test_numpy_constants_promote_like_numpy():
    f32 = tf.constant(M, tf.float32)
    out = do("add", M, f32)  # numpy float64 array is a constant, tf decides
    assert isinstance(out, tf.Tensor)
    assert out.dtype == tf.float64
    close(do("stack", [M, f32]), np.stack([M, M.astype(np.float32)]))


@pytest.mark.parametrize(
    ("name", "x", "expected"),
    [
        ("sqrt", np.array([4, 9], np.int32), np.sqrt(np.array([4, 9], np.int32))),
        ("sum", np.array([1, 2], np.int32), np.int64(3)),
        ("mean", np.array([True, False]), np.float64(0.5)),
        ("cumsum", np.array([True, True]), np.array([1, 2])),
        ("trace", np.ones((2, 2), np.int32), np.int64(2)),
        ("abs", np.array([True]), np.array([True])),
    ],
)
def test_integer_and_bool_inputs_follow_numpy_dtypes(name, x, expected):
    # tnp (without numpy behaviour) fails or returns other dtypes for these
    close(do(name, tf.constant(x)), expected)


def test_nan_ordering_like_numpy():
    x = np.array([3.0, np.nan, -1.0, np.inf, np.nan, -np.inf])
    t = tf.constant(x)
    close(do("sort", t), np.sort(x))
    close(do("argsort", t), np.argsort(x, kind="stable"))
    close(do("argmax", t), np.argmax(x))
    close(do("median", t), np.median(x))


def test_negative_indices_wrap():
    x = tf.constant(M)
    close(do("take", x, [-1, 0], axis=1), np.take(M, [-1, 0], axis=1))


def test_inputs_not_mutated():
    v = tf.Variable(M)
    do("sort", v, axis=0)
    do("clip", v, 0.0, 1.0)
    do("pad", v, 1, mode="reflect")
    np.testing.assert_array_equal(v.numpy(), M)


def test_eig_real_when_eager_complex_in_graph():
    d = tf.constant(np.diag([1.0, 2.0]))
    assert do("linalg.eigvals", d).dtype == tf.float64  # numpy returns reals here
    graph = tf.function(lambda a: do("linalg.eigvals", a))(d)
    assert graph.dtype == tf.complex128  # value-dependent dtypes need eager mode


# ---------------------------------------------------------------- random


def test_seed_repeats_draws():
    draws = []
    for _ in range(2):
        do("random.seed", 123, like="tensorflow")
        draws.append(
            [
                do("random.normal", size=(3,), like="tensorflow").numpy(),
                do("random.integers", 0, 10, size=4, like="tensorflow").numpy(),
                do("random.permutation", 5, like="tensorflow").numpy(),
                do("random.choice", 5, 3, replace=False, like="tensorflow").numpy(),
            ]
        )
    for a, b in zip(*draws, strict=True):
        np.testing.assert_array_equal(a, b)


def test_seed_leaves_tensorflow_global_state_alone():
    tf.random.set_seed(1)
    first = tf.random.uniform([2]).numpy()
    tf.random.set_seed(1)
    do("random.seed", 5, like="tensorflow")
    do("random.normal", size=(4,), like="tensorflow")
    np.testing.assert_array_equal(tf.random.uniform([2]).numpy(), first)


def test_default_rng_is_independent_and_reproducible():
    a = do("random.default_rng", 9, like="tensorflow")
    b = do("random.default_rng", 9, like="tensorflow")
    do("random.normal", size=(5,), like="tensorflow")  # the module generator moves on
    np.testing.assert_array_equal(a.uniform(size=4).numpy(), b.uniform(size=4).numpy())
    x = a.normal(2.0, 0.5, size=(1000,))
    assert x.dtype == tf.float64
    assert abs(float(tf.reduce_mean(x)) - 2.0) < 0.1
    assert set(a.integers(3, size=50).numpy()) <= {0, 1, 2}


# ---------------------------------------------------------------- dtypes, devices


@pytest.mark.parametrize("dtype", ["float32", np.float64, np.dtype("int64"), "bool", "complex64"])
def test_astype_and_dtype_names(dtype):
    name = np.dtype(dtype).name
    native = dispatch.to_backend_dtype(name, like="tensorflow")
    assert native == tf.as_dtype(name)
    out = do("astype", tf.constant(M), dtype)
    assert do("get_dtype_name", out) == name
    assert do("get_dtype_name", do("astype", tf.constant(M), native)) == name


def test_creation_takes_dtype_from_like_tensor():
    like = tf.ones(2, tf.float32)
    assert do("zeros", (2, 3), like=like).dtype == tf.float32
    assert do("full", 3, 2.5, like=like).dtype == tf.float32
    assert do("zeros", (2,), like="tensorflow").dtype == tf.float64  # numpy's default


def test_to_device_and_dlpack():
    x = tf.constant(M)
    y = do("to_device", x, "cpu")
    assert "CPU" in y.device
    close(do("from_dlpack", np.arange(3.0), like="tensorflow"), np.arange(3.0))
    close(dispatch.convert(np.arange(3), "tensorflow"), np.arange(3))


def test_stop_gradient():
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = do("stop_gradient", w * w) + 2 * w
    assert float(tape.gradient(y, w)) == 2.0


def test_get_lib_fn_is_the_table_entry():
    fn = get_lib_fn("tensorflow", "sum")
    close(fn(tf.constant(M), axis=1), M.sum(axis=1))


def test_get_lib_fn_inside_tf_function():
    norm = get_lib_fn("tensorflow", "linalg.norm")
    sort = get_lib_fn("tensorflow", "sort")
    f = tf.function(lambda a: norm(sort(a, axis=0), ord=1, axis=1))
    close(f(tf.constant(M)), np.linalg.norm(np.sort(M, axis=0), ord=1, axis=1))


@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
def test_negative_zero_keeps_its_sign_after_a_positive_zero(dtype):
    """tensorflow's cache of scalar constants answers -0.0 with a 0.0 made before
    (equal values, equal hashes); asarray and the scalars of binary functions don't."""
    tf.constant(0.0, tf.float32)
    tf.constant(0.0, tf.float64)
    do("asarray", 0.0, dtype=dtype, like="tensorflow")
    neg = do("asarray", -0.0, dtype=dtype, like="tensorflow")
    assert np.signbit(neg.numpy())
    z = do("asarray", complex(-0.0, -0.0), like="tensorflow").numpy()
    assert np.signbit(z.real)
    assert np.signbit(z.imag)
    x = tf.constant([1.0, 2.0], tf.float64 if dtype is None else dtype)
    np.testing.assert_array_equal(np.signbit(do("multiply", x, -0.0).numpy()), [True, True])


# ---------------------------------------------------------------- unsigned integers

def _numpy_ufuncs() -> list[str]:
    from dispatch._resolve import known_names

    return sorted(n for n in known_names() if isinstance(getattr(np, n, None), np.ufunc))


# tensorflow refuses these with its own error (a typed error, never a wrong answer)
UNSIGNED_REFUSED = {
    ("rint", "uint8"): "numpy's result is float16, and tf has no float16 rint kernel",
    ("gcd", "uint64"): "computed in int64, a value above 2**63 would come out wrong",
    ("lcm", "uint64"): "computed in int64, a value above 2**63 would come out wrong",
}


@pytest.mark.parametrize("dt", ["uint8", "uint16", "uint32", "uint64"])
@pytest.mark.parametrize("name", _numpy_ufuncs())
def test_every_ufunc_of_unsigned_integers_is_numpys(name, dt):
    """tensorflow's kernels lack most unsigned dtypes: every ufunc numpy computes on
    them gives numpy's values and dtype (negative, power and matmul wrap as numpy's)."""
    ufunc = getattr(np, name)
    a = np.array([0, 1, 2, 7, 200], dt)
    b = np.array([3, 1, 2, 2, 5], dt)
    args = (a,) if ufunc.nin == 1 else (a, b)
    if name in ("matmul", "vecdot", "matvec", "vecmat"):  # the core dimensions
        m = np.outer(a, b) % 11
        args = {"matmul": (m, m.astype(dt)), "vecdot": (a, b),
                "matvec": (m, b), "vecmat": (a, m)}[name]
        args = tuple(x.astype(dt) for x in args)
    with np.errstate(all="ignore"):
        try:
            expected = ufunc(*args)
        except TypeError:
            pytest.skip(f"numpy has no {name} loop for {dt}")
    tensors = [tf.constant(x) for x in args]
    if (name, dt) in UNSIGNED_REFUSED:
        with pytest.raises(Exception, match=r"(?i)uint64|float16|half") as err:
            do(name, *tensors)
        assert not isinstance(err.value, AssertionError)
        return
    got = do(name, *tensors)
    for e, g in zip(expected if isinstance(expected, tuple) else (expected,),
                    got if isinstance(got, tuple) else (got,), strict=True):
        g = g.numpy()
        assert g.dtype == e.dtype, (name, dt, g.dtype, e.dtype)
        rtol = {2: 2e-3, 4: 2e-6}.get(e.dtype.itemsize, 1e-12) if e.dtype.kind == "f" else 0
        np.testing.assert_allclose(g, e, rtol=rtol, equal_nan=True)
