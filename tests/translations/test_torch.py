"""Quirks of the torch table: native resolution, random streams, dtypes, devices,
conversions and the places where torch's own function differs from numpy's."""

from __future__ import annotations

import numpy as np
import pytest

from dispatch.spec import _kernel_for

torch = pytest.importorskip("torch")

import dispatch  # noqa: E402
from dispatch import do, get_lib_fn  # noqa: E402

CUDA = torch.cuda.is_available()


def T(x, dtype=None):
    return torch.as_tensor(np.asarray(x), dtype=dtype)


def N(x):
    return do("to_numpy", x)


# ---------------------------------------------------------------- native resolution


@pytest.mark.parametrize(
    ("name", "native"),
    [
        ("add", "add"),
        ("matmul", "matmul"),
        ("stack", "stack"),
        ("exp", "exp"),
        ("linalg.matrix_power", "linalg.matrix_power"),
        ("fft.fft", "fft.fft"),
    ],
)
def test_native_names_resolve_to_the_torch_function(name, native):
    # no wrapper in between: the overhead benchmark compares these with direct calls.
    # matmul's entry is an adapter (booleans, which torch refuses) naming torch.matmul
    # as its kernel for two tensors: do caches torch's function for them
    obj = torch
    for part in native.split("."):
        obj = getattr(obj, part)
    entry = get_lib_fn("torch", name)
    assert entry is obj or _kernel_for(entry, (torch.Tensor, torch.Tensor)) is obj


def test_sum_and_reshape_take_numpy_forms():
    # torch.sum rejects keepdims without an axis and string dtypes, torch.reshape a bare
    # int: these two keep a thin adapter
    x = T(np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(N(do("sum", x, axis=(0, 1), keepdims=True)), [[66.0]])
    np.testing.assert_array_equal(N(do("sum", x, keepdims=True)), [[66.0]])
    assert do("sum", x, dtype="float32").dtype == torch.float32
    assert tuple(do("reshape", x, -1).shape) == (12,)
    np.testing.assert_array_equal(N(do("stack", [x, x], axis=1)).shape, (3, 2, 4))


# ---------------------------------------------------------------- random


def _draws():
    return [
        do("random.normal", 1.0, 2.0, size=(3,), like="torch"),
        do("random.uniform", size=4, like="torch"),
        do("random.integers", 0, 10, size=(2, 2), like="torch"),
        do("random.permutation", 6, like="torch"),
        do("random.choice", 5, 3, replace=False, like="torch"),
        do("random.gamma", 2.0, size=3, like="torch"),
        do("random.poisson", 3.0, size=3, like="torch"),
    ]


def test_random_seed_repeats_draws_exactly():
    do("random.seed", 7, like="torch")
    first = _draws()
    do("random.seed", 7, like="torch")
    second = _draws()
    for a, b in zip(first, second, strict=True):
        assert torch.equal(a, b)


def test_random_leaves_torch_global_generator_alone():
    state = torch.random.get_rng_state()
    do("random.seed", 1, like="torch")
    _draws()
    assert torch.equal(state, torch.random.get_rng_state())


def test_random_default_rng_is_independent_and_seeded():
    r1 = do("random.default_rng", 3, like="torch")
    r2 = do("random.default_rng", 3, like="torch")
    assert torch.equal(r1.normal(size=5), r2.normal(size=5))
    assert torch.equal(r1.integers(10, size=4), r2.integers(10, size=4))
    assert not torch.equal(r1.random(8), do("random.default_rng", 4, like="torch").random(8))


def test_random_dtypes_and_shapes():
    assert do("random.normal", size=(2, 3), like="torch").dtype == torch.get_default_dtype()
    assert do("random.normal", size=2, dtype="float64", like="torch").dtype == torch.float64
    loc = torch.zeros(4, dtype=torch.float64)
    out = do("random.normal", loc, 1.0, like="torch")
    assert out.shape == (4,)
    assert out.dtype == torch.float64
    assert do("random.integers", 5, like="torch").shape == ()
    assert do("random.choice", T(np.arange(6.0)), size=(2, 2), like="torch").shape == (2, 2)


def test_random_moments_are_plausible():
    rng = do("random.default_rng", 0, like="torch")
    x = rng.normal(2.0, 3.0, size=200_000)
    assert abs(float(x.mean()) - 2.0) < 0.05
    assert abs(float(x.std()) - 3.0) < 0.05
    g = rng.gamma(3.0, 2.0, size=200_000)
    assert abs(float(g.mean()) - 6.0) < 0.1


# ---------------------------------------------------------------- dtypes


@pytest.mark.parametrize(
    "name",
    ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
     "float64", "complex64", "complex128"],
)
def test_to_backend_dtype_and_get_dtype_name_round_trip(name):
    dt = dispatch.to_backend_dtype(name, like="torch")
    assert isinstance(dt, torch.dtype)
    assert dispatch.get_dtype_name(torch.zeros(1, dtype=dt)) == name


@pytest.mark.parametrize("dtype", ["float32", np.float32, np.dtype("float32"), torch.float32])
def test_astype_accepts_every_dtype_spelling(dtype):
    x = T([1.5, 2.5])
    assert do("astype", x, dtype).dtype == torch.float32
    assert do("zeros", 2, dtype=dtype, like="torch").dtype == torch.float32


def test_astype_same_dtype_copies():
    x = T([1.0, 2.0])
    y = do("astype", x, "float64")
    y += 1
    np.testing.assert_array_equal(N(x), [1.0, 2.0])


def test_python_floats_keep_float64_precision():
    # 0.1 is not rounded to float32 on its way to a float64 comparison
    x = T([0.1], dtype=torch.float64)
    assert bool(do("isclose", x, 0.1, rtol=0, atol=0)[0])
    assert do("asarray", [0.1, 0.2], like="torch").dtype == torch.float64


# ---------------------------------------------------------------- conversions and devices


def test_to_numpy_detaches_resolves_conj_and_widens_bfloat16():
    assert N(torch.ones(2, requires_grad=True)).tolist() == [1.0, 1.0]
    np.testing.assert_array_equal(N(torch.tensor([1 + 2j]).conj()), [1 - 2j])
    assert N(torch.ones(2, dtype=torch.bfloat16)).dtype == np.float32


def test_asarray_takes_what_numpy_asarray_takes():
    ro = np.arange(3.0)
    ro.flags.writeable = False
    np.testing.assert_array_equal(N(do("asarray", ro, like="torch")), ro)
    np.testing.assert_array_equal(N(do("asarray", np.arange(4)[::-1], like="torch")), [3, 2, 1, 0])
    stacked = do("asarray", [T([1.0, 2.0]), T([3.0, 4.0])], like="torch")
    assert stacked.shape == (2, 2)


def test_mixed_numpy_and_torch_arguments_give_tensors():
    t = T([1.0, 2.0])
    out = do("add", np.ones(2), t)
    assert isinstance(out, torch.Tensor)
    assert out.dtype == torch.float64  # as numpy: a float64 array beside float32 data
    np.testing.assert_array_equal(N(out), [2.0, 3.0])
    out = do("stack", [np.ones(2), t])
    assert isinstance(out, torch.Tensor)
    assert out.dtype == torch.float64
    np.testing.assert_array_equal(N(out), [[1.0, 1.0], [1.0, 2.0]])


def test_to_device_cpu_and_creation_like_a_tensor():
    t = T([1.0, 2.0], dtype=torch.float64)
    assert do("to_device", t, "cpu").device.type == "cpu"
    assert do("to_device", t, torch.device("cpu")) is t
    z = do("zeros", (2,), like=t)
    assert z.dtype == torch.float64
    assert z.device == t.device


@pytest.mark.skipif(not CUDA, reason="no CUDA device")
def test_cuda_round_trip():
    t = do("to_device", T([1.0, 2.0]), "cuda")
    assert t.device.type == "cuda"
    assert do("zeros", 2, like=t).device.type == "cuda"
    np.testing.assert_array_equal(N(do("sum", t)), 3.0)


def test_stop_gradient_detaches():
    x = torch.ones(2, requires_grad=True)
    assert not do("stop_gradient", x).requires_grad


# ---------------------------------------------------------------- where torch differs


def test_binary_functions_take_python_scalars_on_either_side():
    t = torch.tensor([1, 3])
    np.testing.assert_array_equal(N(do("maximum", 2, t)), [2, 3])
    np.testing.assert_array_equal(N(do("equal", 3, t)), [False, True])
    np.testing.assert_array_equal(N(do("less", 2.0, t)), [False, True])
    np.testing.assert_array_equal(N(do("subtract", 10, t)), [9, 7])


@pytest.mark.parametrize(("name", "first", "second"), [
    ("less", 2.0, [1.0, 3.0]), ("less", [1.0, 3.0], 2.0), ("greater_equal", 3.0, [1.0, 3.0]),
    ("equal", [1.0, 3.0], [1.0, 2.0]), ("not_equal", 3.0, [1.0, 3.0]),
])
def test_comparisons_write_out_and_take_ufunc_keywords(name, first, second):
    # the operators (which take a scalar on either side) take no keywords: out= goes to
    # torch's own function, the ufunc keywords through numpy's checks
    expected = getattr(np, name)(first, second)
    a, b = (T(v) if isinstance(v, list) else v for v in (first, second))
    buf = torch.zeros(2, dtype=torch.bool)
    assert do(name, a, b, out=buf) is buf
    np.testing.assert_array_equal(N(buf), expected)
    buf = torch.zeros(2)
    assert do(name, a, b, out=buf, order="C") is buf
    np.testing.assert_array_equal(N(buf), expected)
    np.testing.assert_array_equal(N(do(name, a, b, order="F")), expected)
    with pytest.raises(ValueError, match="order"):
        do(name, a, b, order="Q")


def test_concatenate_writes_out_and_checks_casting():
    x, y = T([1.0, 2.0]), T([3.0])
    buf = torch.zeros(3, dtype=torch.float64)
    assert do("concatenate", [x, y], out=buf) is buf
    np.testing.assert_array_equal(N(buf), [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="'no'"):
        do("concatenate", [x, y], dtype="float32", casting="no")
    with pytest.raises(TypeError, match="both"):
        do("concatenate", [x, y], dtype="float64", out=buf)
    assert do("concatenate", [x, y], dtype="float32").dtype == torch.float32


def test_sign_keeps_nan():
    out = N(do("sign", T([np.nan, -2.0, 0.0, 3.0])))
    np.testing.assert_array_equal(out, np.sign([np.nan, -2.0, 0.0, 3.0]))


def test_median_averages_the_middle_pair():
    assert float(do("median", T([1.0, 2.0, 3.0, 10.0]))) == 2.5


def test_std_var_default_ddof_is_zero():
    x = T([1.0, 2.0, 3.0, 4.0])
    assert np.isclose(float(do("var", x)), 1.25)
    assert np.isclose(float(do("var", x, ddof=1)), np.var([1, 2, 3, 4], ddof=1))


def test_unique_collapses_nans_and_returns_index():
    x = np.array([2.0, np.nan, 1.0, np.nan, 2.0])
    got = do("unique", T(x), return_index=True, return_inverse=True, return_counts=True)
    exp = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    for g, e in zip(got, exp, strict=True):
        np.testing.assert_array_equal(N(g), e)


def test_eig_is_real_when_numpy_is():
    w, v = do("linalg.eig", T([[2.0, 0.0], [0.0, 3.0]]))
    assert not w.is_complex()
    assert not v.is_complex()
    w, _ = do("linalg.eig", T([[0.0, -1.0], [1.0, 0.0]]))
    assert w.is_complex()


def test_solve_reads_b_as_matrix_like_numpy_2():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 3, 3)), rng.standard_normal((3, 3))
    np.testing.assert_allclose(N(do("linalg.solve", T(a), T(b))), np.linalg.solve(a, b))


def test_lstsq_returns_numpy_four_tuple():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((6, 3)), rng.standard_normal(6)
    got = do("linalg.lstsq", T(a), T(b))
    exp = np.linalg.lstsq(a, b)
    for g, e in zip(got, exp, strict=True):
        np.testing.assert_allclose(N(g) if isinstance(g, torch.Tensor) else g, e)


def test_split_checks_equal_division_and_takes_indices():
    with pytest.raises(ValueError, match="equal division"):
        do("split", T(np.arange(5)), 2)
    parts = do("split", T(np.arange(5)), [1, 3])
    assert [p.tolist() for p in parts] == [[0], [1, 2], [3, 4]]


@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap", "edge"])
def test_pad_wider_than_the_axis(mode):
    x = np.arange(3.0)
    np.testing.assert_array_equal(N(do("pad", T(x), 7, mode=mode)), np.pad(x, 7, mode=mode))


def test_transpose_reverses_all_axes():
    x = torch.zeros(2, 3, 4)
    assert do("transpose", x).shape == (4, 3, 2)
    assert do("transpose", x, (1, 0, 2)).shape == (3, 2, 4)


def test_take_negative_indices_along_an_axis():
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(N(do("take", T(x), [-1, 0], axis=1)), np.take(x, [-1, 0], 1))
