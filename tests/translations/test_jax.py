"""jax's quirks: tracers inside jit/grad/vmap, explicit PRNG keys behind numpy's
random API, numpy promotion, renamed keywords, devices, dtype names, x64 off."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
torch = pytest.importorskip("torch")

import dispatch  # noqa: E402
from dispatch import do, get_lib_fn, infer_backend  # noqa: E402

RNG = np.random.default_rng(11)
M = RNG.standard_normal((4, 3))
SQ = RNG.standard_normal((3, 3))


def close(result, expected, **kw):
    got = np.asarray(do("to_numpy", result))
    assert got.dtype == np.asarray(expected).dtype, (got.dtype, np.asarray(expected).dtype)
    np.testing.assert_allclose(got, expected, **kw)


# ---------------------------------------------------------------- recognition, tracers


def test_array_types_recognised():
    x = jnp.ones(3)
    assert type(x).__module__.startswith("jaxlib")
    assert infer_backend(x) == "jax"
    assert infer_backend(jnp.float32(1.0)) == "jax"


def test_tracers_recognised_under_jit_grad_and_vmap():
    seen = []

    def f(x):
        seen.append(infer_backend(x))
        return do("sum", do("sin", x))

    x = jnp.arange(3.0)
    close(jax.jit(f)(x), np.sin(np.arange(3.0)).sum())
    close(jax.grad(f)(x), np.cos(np.arange(3.0)))
    close(jax.vmap(f)(jnp.ones((2, 3))), np.full(2, 3 * np.sin(1.0)))
    assert seen == ["jax"] * 3


def test_numpy_constants_stay_constants_inside_jit():
    # a numpy array beside a tracer: jax decides, the array is used as it is
    f = jax.jit(lambda v: do("matmul", SQ, v) + do("stack", [v, np.ones(3)])[1])
    close(f(jnp.ones(3)), SQ @ np.ones(3) + 1)


def test_value_dependent_shapes_eager_and_with_size_under_jit():
    x = jnp.array([0.0, 2.0, 0.0, 2.0, 3.0])
    close(do("unique", x), np.array([0.0, 2.0, 3.0]))
    close(do("nonzero", x)[0], np.array([1, 3, 4]))
    # inside jit the output shape must be static: jax's size= passes through do
    f = jax.jit(lambda v: (do("unique", v, size=3), do("nonzero", v, size=3)[0]))
    uniq, nz = f(x)
    close(uniq, np.array([0.0, 2.0, 3.0]))
    close(nz, np.array([1, 3, 4]))
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda v: do("unique", v))(x)


def test_creation_like_a_tracer_takes_its_dtype():
    f = jax.jit(lambda v: do("zeros", (2,), like=v) + do("eye", 2, like=v)[0])
    out = f(jnp.ones(2, dtype=jnp.float32))
    assert out.dtype == jnp.float32
    close(out, np.array([1.0, 0.0], dtype="float32"))


def test_creation_like_an_array_takes_dtype_and_device():
    like = jnp.ones(2, dtype=jnp.float32)
    kwargs = dispatch.translations.jax.creation_kwargs(like)
    assert kwargs == {"dtype": jnp.float32, "device": like.device}
    # functions to which jax gives no device keyword accept it all the same
    for name, args in [("identity", (2,)), ("tri", (2,)), ("logspace", (0, 1, 3))]:
        out = do(name, *args, like=like)
        assert out.dtype == jnp.float32
        assert out.device == like.device


def test_grad_through_translated_functions():
    def loss(x):
        return do("sum", do("linalg.norm", x, axis=0) + do("scipy.special.logsumexp", x))

    g = jax.grad(loss)(jnp.asarray(M))
    assert g.shape == M.shape
    assert bool(jnp.all(jnp.isfinite(g)))


def test_stop_gradient():
    g = jax.grad(lambda v: do("sum", do("stop_gradient", v) * v))(jnp.arange(3.0))
    close(g, np.arange(3.0))


def test_get_lib_fn_is_the_native_function():
    assert get_lib_fn("jax", "sum") is jnp.sum
    assert get_lib_fn("jax", "linalg.qr") is jnp.linalg.qr
    assert get_lib_fn("jax", "scipy.special.erf") is jax.scipy.special.erf


# ---------------------------------------------------------------- random


def _draws(backend="jax"):
    return [
        do("random.normal", size=(3,), like=backend),
        do("random.uniform", -1.0, 2.0, size=4, like=backend),
        do("random.integers", 0, 10, size=(5,), like=backend),
        do("random.permutation", 6, like=backend),
        do("random.random", (2, 2), like=backend),
        do("random.choice", 8, size=3, replace=False, like=backend),
    ]


def test_random_seed_repeats_draws():
    do("random.seed", 3, like="jax")
    first = _draws()
    do("random.seed", 3, like="jax")
    second = _draws()
    for a, b in zip(first, second, strict=True):
        assert isinstance(a, jax.Array)
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    # the key is split on every draw: consecutive draws differ
    a, b = (np.asarray(do("random.normal", size=4, like="jax")) for _ in range(2))
    assert not np.array_equal(a, b)


def test_random_dtypes_ranges_and_shapes():
    do("random.seed", 0, like="jax")
    normal, uniform, integers, perm, rand, choice = _draws()
    assert normal.dtype == jnp.float64
    assert rand.shape == (2, 2)
    assert integers.dtype == jnp.int64
    u = np.asarray(uniform)
    assert ((u >= -1) & (u < 2)).all()
    assert sorted(np.asarray(perm).tolist()) == list(range(6))
    assert len(set(np.asarray(choice).tolist())) == 3
    ends = np.asarray(do("random.integers", 0, 1, size=200, endpoint=True, like="jax"))
    assert set(ends.tolist()) == {0, 1}
    assert do("random.normal", size=2, dtype="float32", like="jax").dtype == jnp.float32
    assert do("random.normal", np.zeros((2, 3)), 1.0, like="jax").shape == (2, 3)
    assert do("random.normal", like="jax").shape == ()
    assert do("random.binomial", 10, 0.5, size=3, like="jax").dtype == jnp.int64


def test_default_rng_generators_are_independent_and_reproducible():
    a = do("random.default_rng", 5, like="jax")
    b = do("random.default_rng", 5, like="jax")
    do("random.seed", 1, like="jax")
    do("random.normal", size=3, like="jax")  # the module generator does not touch a or b
    for method, args in [("normal", ()), ("integers", (4,)), ("uniform", ()), ("random", ())]:
        np.testing.assert_array_equal(
            getattr(a, method)(*args, size=3), getattr(b, method)(*args, size=3)
        )
    shuffled = a.permutation(jnp.arange(5.0))
    assert sorted(np.asarray(shuffled).tolist()) == [0, 1, 2, 3, 4]
    assert do("random.default_rng", a, like="jax") is a


def test_random_inside_jit_leaks_no_tracer():
    f = jax.jit(lambda v: v + do("random.normal", size=v.shape, like=v))
    assert f(jnp.zeros(3)).shape == (3,)
    # the module's key is still a concrete array: eager draws keep working
    assert do("random.normal", size=2, like="jax").shape == (2,)


# ---------------------------------------------------------------- numpy semantics jax lacks


@pytest.mark.parametrize(
    ("x", "y"),
    [
        (np.arange(3), np.ones(3, dtype="float32")),  # int64 * float32 -> float64
        (np.ones(3, dtype="float32"), np.arange(3, dtype="int32")),
        (np.arange(3, dtype="int32"), np.ones(3, dtype="complex64")),  # -> complex128
        (np.arange(3, dtype="int16"), np.ones(3, dtype="float16")),  # -> float32
    ],
)
def test_integer_float_promotion_is_numpy_s(x, y):
    for name in ("multiply", "add", "maximum", "less"):
        close(do(name, jnp.asarray(x), jnp.asarray(y)), getattr(np, name)(x, y))
    # a numpy constant beside a jax array promotes the same way
    close(do("add", jnp.asarray(x), y), x + y)


def test_same_dtype_and_scalar_calls_stay_jax_s():
    x32 = jnp.ones(3, dtype=jnp.float32)
    assert do("multiply", x32, 2.0).dtype == jnp.float32  # weak scalar, as numpy 2
    assert do("add", x32, x32).dtype == jnp.float32


def test_renamed_keywords_and_results():
    x = jnp.asarray(M)
    close(do("clip", x, a_min=-0.5, a_max=0.5), np.clip(M, -0.5, 0.5))
    close(do("sort", x, 0, kind="stable"), np.sort(M, 0))
    close(do("argsort", jnp.array([2, 1, 2, 1]), kind="mergesort"), np.array([1, 3, 0, 2]))
    close(do("searchsorted", jnp.arange(5.0), 2.5), np.searchsorted(np.arange(5.0), 2.5))
    close(do("linalg.pinv", x, 1e-10), np.linalg.pinv(M, 1e-10), atol=1e-10)
    d = np.diag([1.0, 0.5, 1e-3])
    assert int(do("linalg.matrix_rank", jnp.asarray(d), 0.01)) == 2  # numpy's tol is absolute
    assert int(do("linalg.matrix_rank", jnp.asarray(d), rtol=0.01)) == 2
    assert int(do("linalg.matrix_rank", jnp.asarray(d), 1e-4)) == 3
    _sol, resid, rank, _sv = do("linalg.lstsq", jnp.asarray(np.ones((4, 2))), jnp.arange(4.0))
    assert resid.shape == (0,)
    assert int(rank) == 1
    close(do("reciprocal", jnp.array([-1, 1, 2, -3])), np.reciprocal(np.array([-1, 1, 2, -3])))
    close(do("fix", jnp.array([-1.5, 2.7])), np.fix(np.array([-1.5, 2.7])))
    close(do("scipy.special.softmax", jnp.asarray(M), 0), np.exp(M) / np.exp(M).sum(0))


def test_histogram2d_counts_in_numpy_s_floats_and_order():
    # jnp.histogram2d counts in integers and takes weights before density
    x, y = np.array([0.5, 1.5, 1.5, 2.0]), np.array([0.0, 1.0, 1.0, 3.0])
    w = np.array([1.0, 2.0, 0.5, 1.0], np.float32)
    for args in [(2,), (3, [(0, 2), (0, 3)]), (2, None, True), (2, None, None, w),
                 (np.array([0, 1, 3]), None, True, w)]:
        got = do("histogram2d", jnp.asarray(x), jnp.asarray(y),
                 *(jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args))
        for g, e in zip(got, np.histogram2d(x, y, *args), strict=True):
            close(g, e)
    with jax.enable_x64(False):  # float64 is float32 here: the default float
        hist, xedges, _ = do("histogram2d", jnp.asarray(x, jnp.float32), jnp.asarray(y), 2)
        assert hist.dtype == xedges.dtype == jnp.float32


def test_complex_from_real_and_imaginary_parts():
    z = do("complex", jnp.ones(3), jnp.array([1.0, np.inf, 2.0]))
    assert z.dtype == jnp.complex128
    np.testing.assert_array_equal(np.asarray(z).real, [1.0, 1.0, 1.0])  # no nan from inf * 0
    assert do("complex", jnp.ones(2, jnp.float32), 2.0).dtype == jnp.complex64
    close(do("complex", jnp.arange(2), 1), np.array([1j, 1 + 1j]))


def test_linalg_extras():
    h = RNG.standard_normal((4, 3))
    tau = RNG.random(3)
    from scipy.linalg import lapack

    close(do("linalg.householder_product", jnp.asarray(h), jnp.asarray(tau)),
          lapack.dorgqr(h, tau)[0], atol=1e-10)  # fmt: skip
    import scipy.linalg

    close(do("linalg.expm", jnp.asarray(SQ)), scipy.linalg.expm(SQ), rtol=1e-6)
    for got, want in zip(do("linalg.lu", jnp.asarray(SQ)), scipy.linalg.lu(SQ), strict=True):
        close(got, want, atol=1e-12)


# ---------------------------------------------------------------- dtypes, devices, conversion


def test_dtype_names_and_backend_dtypes():
    for name in ("float32", "float64", "int32", "bool", "complex64", "bfloat16"):
        dt = do("to_backend_dtype", name, like="jax")
        assert dt == jnp.dtype(name)
        assert do("get_dtype_name", jnp.zeros(1, dtype=dt)) == name
    assert do("astype", jnp.ones(2), "int32").dtype == jnp.int32
    assert do("astype", jnp.ones(2), np.dtype("float32")).dtype == jnp.float32
    assert do("astype", jnp.ones(2), jnp.complex64).dtype == jnp.complex64


def test_devices():
    cpu = jax.devices("cpu")[0]
    for device in ("cpu", "cpu:0", cpu):
        out = do("to_device", jnp.ones(2), device)
        assert isinstance(out, jax.Array)
        assert out.device == cpu
    assert do("zeros", 2, like=out).device == cpu


@pytest.mark.parametrize(("name", "args"), [
    ("zeros", ((2,),)), ("arange", (3,)), ("full", ((2,), 1.5)), ("linspace", (0.0, 1.0, 3)),
    ("asarray", ([1.0, 2.0],)), ("identity", (2,)), ("fft.fftfreq", (4,)),
])
def test_creation_reads_dispatchs_devices(name, args):
    # jax's own creation functions take jax's devices only (a name was its raw
    # AttributeError or ValueError): numpy's device= takes a name and a ComputeDevice
    cpu = jax.devices("cpu")[0]
    record = next(d for d in do("list_devices", like="jax") if d.ref == cpu)
    for device in ("cpu", "cpu:0", cpu, record):
        assert do(name, *args, like="jax", device=device).device == cpu
    for device in ("nowhere", "cpu:7", torch.device("cpu")):
        with pytest.raises(ValueError, match=rf"do\('{name}'\) on backend 'jax': device="):
            do(name, *args, like="jax", device=device)
    x = jnp.ones(2)
    assert do("astype", x, "float32", device=record).device == cpu
    with pytest.raises(ValueError, match="device='nowhere'"):
        do("zeros_like", x, device="nowhere")


def test_conversions():
    x = jnp.arange(3.0)
    host = do("to_numpy", x)
    assert isinstance(host, np.ndarray)
    assert isinstance(do("from_numpy", np.ones(2), like="jax"), jax.Array)
    for source in (torch.arange(3.0, dtype=torch.float64), np.arange(3.0)):
        out = dispatch.convert(source, "jax")
        assert isinstance(out, jax.Array)
        close(out, np.arange(3.0))
    assert isinstance(do("from_dlpack", torch.ones(2), like="jax"), jax.Array)
    with pytest.raises(jax.errors.TracerArrayConversionError):
        jax.jit(lambda v: do("to_numpy", v))(x)


def test_tri_default_dtype_is_the_default_float():
    # jnp.tri gives float32 even with x64 enabled; numpy's tri gives its default float
    assert do("tri", 3, 4, -1, like="jax").dtype == jnp.float64
    assert do("tri", 3, dtype="int32", like="jax").dtype == jnp.int32
    with jax.enable_x64(False):
        assert do("tri", 3, like="jax").dtype == jnp.float32


# ---------------------------------------------------------------- without x64


def test_defaults_without_x64():
    with jax.enable_x64(False):
        x = jnp.ones(3)
        assert x.dtype == jnp.float32
        do("random.seed", 0, like="jax")
        assert do("random.normal", size=2, like="jax").dtype == jnp.float32
        assert do("random.integers", 5, size=2, like="jax").dtype == jnp.int32
        assert do("zeros", 2, like=x).dtype == jnp.float32
        # numpy widens int32 * float32 to float64, which is float32 here: no warning
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert do("multiply", jnp.arange(3), x).dtype == jnp.float32
            assert do("add", jnp.arange(3, dtype=jnp.int16), x.astype("float16")).dtype == (
                jnp.float32
            )
        assert do("searchsorted", x, 1.0).dtype == jnp.int32
        assert do("complex", x, x).dtype == jnp.complex64


def test_int64_requests_take_the_dtype_jax_holds_without_x64():
    # the composed scatter and gather compute numpy's int64 indices, and bincount counts
    # in int64: without 64-bit mode jax stores int32, and is asked for it (no warning)
    with jax.enable_x64(False), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert do("astype", jnp.arange(3), "int64").dtype == jnp.int32
        assert do("astype", jnp.arange(3), np.float64).dtype == jnp.float32
        grid = do("scatter", jnp.zeros((1, 4, 2)), jnp.array([[[0], [2]]]),
                  jnp.ones((1, 2, 2)), mode="add")
        np.testing.assert_array_equal(np.asarray(grid[0, :, 0]), [1.0, 0.0, 1.0, 0.0])
        counts = do("bincount_fixed", jnp.array([0, 1, 1]), None, 3)
        assert counts.dtype == jnp.int32
        np.testing.assert_array_equal(np.asarray(counts), [1, 2, 0])
        # the random methods draw numpy's int64 indices and float64 weights
        do("seed", 0, like="jax")
        assert do("random_subsets", 5, 2, 3, True, like="jax").dtype == jnp.int32
        weighted = do("random_subsets", 4, 2, 3, False, np.ones(4), like="jax")
        assert weighted.shape == (3, 2)
        assert do("random_uniform", (2,), 0, 5, dtype="int64", like="jax").dtype == jnp.int32
        assert do("random.normal", size=2, dtype="float64", like="jax").dtype == jnp.float32


def test_sign_of_complex_zeros_is_positive_zero():
    """numpy's sign of a complex zero is +0+0j whatever the zeros' signs; jax's kept them."""
    z = np.array([complex(-0.0, 0.0), complex(0.0, -0.0), complex(-0.0, -0.0), 0j, 3 + 4j])
    out = np.asarray(do("sign", jnp.asarray(z)))
    expected = np.sign(z)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(np.signbit(out.real), np.signbit(expected.real))
    np.testing.assert_array_equal(np.signbit(out.imag), np.signbit(expected.imag))
