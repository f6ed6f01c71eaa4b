"""paddle's own quirks: the backend is named by the tensor's module, common names keep
``paddle.Tensor`` and numpy's values and dtypes, and the names no shared test covers
(``cov``, ``corrcoef``, ``promote_types``) match numpy."""

from __future__ import annotations

import operator

import numpy as np
import pytest

from dispatch import do, infer_backend

paddle = pytest.importorskip("paddle")

A = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 4.0]])
B = np.arange(9.0).reshape(3, 3) + 1
UNARY = (
    "sum mean std var max min prod argmax argmin cumsum cumprod median all any sin cos tan "
    "exp log sqrt abs tanh floor ceil round sign square negative exp2 log2 log10 log1p expm1 "
    "arcsin arctan sinh cosh reciprocal linalg.inv linalg.det linalg.norm linalg.cholesky "
    "linalg.slogdet linalg.pinv linalg.matrix_rank trace diag tril triu transpose ravel flip "
    "sort argsort diff squeeze nonzero count_nonzero isfinite"
).split()
BINARY = (
    "add subtract multiply divide power maximum minimum matmul dot outer kron hypot arctan2 "
    "equal less greater isclose"
).split()


def _reference(name: str):
    mod = np
    for part in name.split("."):
        mod = getattr(mod, part)
    return mod


def _same(got, expected) -> None:
    got = got if isinstance(got, tuple) else (got,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert isinstance(g, paddle.Tensor), type(g)
        out = do("to_numpy", g)
        assert out.dtype == np.asarray(e).dtype, (out.dtype, np.asarray(e).dtype)
        np.testing.assert_allclose(out, e, rtol=1e-12, atol=1e-12)


def test_infer_backend_names_paddle():
    assert infer_backend(paddle.to_tensor(A)) == "paddle"


@pytest.mark.parametrize("name", UNARY)
def test_common_unary_names_match_numpy(name):
    _same(do(name, paddle.to_tensor(A)), _reference(name)(A))


@pytest.mark.parametrize("name", BINARY)
def test_common_binary_names_match_numpy(name):
    _same(do(name, paddle.to_tensor(A), paddle.to_tensor(B)), _reference(name)(A, B))


def test_int_and_float_tensors_promote_as_numpy():
    i = np.array([1, 2, 3])
    _same(do("add", paddle.to_tensor(i), paddle.to_tensor(A[0])), np.add(i, A[0]))
    _same(do("divide", paddle.to_tensor(i), paddle.to_tensor(i)), np.divide(i, i))
    _same(do("sin", paddle.to_tensor(i)), np.sin(i))


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"rowvar": False}, {"bias": True}, {"ddof": 0},
     {"fweights": np.array([1, 2, 1])}, {"aweights": np.array([0.5, 1.0, 2.0])}],
)
def test_cov_matches_numpy(kwargs):
    moved = {k: paddle.to_tensor(v) for k, v in kwargs.items() if isinstance(v, np.ndarray)}
    _same(do("cov", paddle.to_tensor(A), **{**kwargs, **moved}), np.cov(A, **kwargs))


def test_cov_of_two_vectors_and_corrcoef_match_numpy():
    _same(do("cov", paddle.to_tensor(A[0]), paddle.to_tensor(B[1])), np.cov(A[0], B[1]))
    _same(do("corrcoef", paddle.to_tensor(A)), np.corrcoef(A))


def test_promote_types_is_numpys_as_paddle_dtypes():
    assert do("promote_types", "int32", "float32", like="paddle") == paddle.float64
    assert do("promote_types", paddle.int8, paddle.uint8, like="paddle") == paddle.int16


def test_wide_unsigned_arrays_are_refused_with_the_reason():
    from dispatch import UnsupportedError

    with pytest.raises(UnsupportedError, match="uint32"):
        do("asarray", np.array([1], dtype=np.uint32), like="paddle")


# the dtypes of paddle that numpy has, for the tests of the lean common calls
DTYPES = ("bool uint8 int8 int16 int32 int64 float16 float32 float64 complex64 "
          "complex128").split()


def _host(dtype: str, shape: tuple[int, ...], modulus: int) -> np.ndarray:
    return (np.arange(int(np.prod(shape))).reshape(shape) % modulus).astype(dtype)


@pytest.mark.parametrize("first", DTYPES)
def test_matmul_of_two_dtypes_is_numpys_or_refused(first):
    # paddle's kernel runs first, unread, on most pairs; it computes float32 with int32 or
    # int64 in float32 (numpy: float64), the pairs the adapter must send to promotion
    a = _host(first, (2, 3), 3)
    for second in DTYPES:
        b = _host(second, (3, 2), 2)
        expected = np.matmul(a, b)
        try:
            got = do("matmul", paddle.to_tensor(a), paddle.to_tensor(b))
        except RuntimeError:  # paddle has no matmul kernel of the narrow dtypes
            assert {first, second} & {"bool", "uint8", "int8", "int16", "float16"}
            continue
        out = do("to_numpy", got)
        assert out.dtype == expected.dtype, (first, second, out.dtype)
        np.testing.assert_allclose(out, expected, rtol=1e-3)


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "uint8"])  # numpy: uint64
@pytest.mark.parametrize("shape", [(2, 3), (0, 3), ()])
def test_sum_of_the_array_alone_keeps_numpys_dtype(dtype, shape):
    # the common call goes to paddle.sum when the items are wider than two bytes
    a = _host(dtype, shape, 3)
    for args in ((), (None, None, None, False)):
        out = do("to_numpy", do("sum", paddle.to_tensor(a), *args))
        expected = np.sum(a)
        assert out.dtype == expected.dtype, (dtype, out.dtype)
        assert out.shape == expected.shape
        np.testing.assert_allclose(out, expected, rtol=1e-3)


@pytest.mark.parametrize("axes", [(1, 0), (0, 1, 2, 3), (), (0,)])
def test_transpose_refuses_a_permutation_of_another_length(axes):
    # paddle itself transposes (2, 3, 4) by (1, 0) (the leading axes) and anything by ()
    with pytest.raises(ValueError, match="axes don't match array"):
        do("transpose", paddle.to_tensor(np.ones((2, 3, 4))), axes)


@pytest.mark.parametrize("axes", [(2, 0, 1), [1, 2, 0], (-1, 0, 1), np.array([2, 1, 0]), None])
def test_transpose_by_a_whole_permutation_matches_numpy(axes):
    a = np.arange(24.0).reshape(2, 3, 4)
    _same(do("transpose", paddle.to_tensor(a), axes), np.transpose(a, axes))
    _same(do("transpose", paddle.to_tensor(np.float64(3.0)), ()), np.transpose(3.0, ()))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply"])
@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((), (2, 3)), ((2, 1), (3,))])
def test_binary_operators_are_paddles_functions(name, shapes):
    # the table calls the operators of two tensors (+, -, *) first: paddle.add's kernel
    # without its Python layer, which must keep its dtypes, values and refusals (a
    # refusal sends do to numpy's promotion)
    operator_ = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul}
    for first in DTYPES:
        a = paddle.to_tensor(_host(first, shapes[0], 3))
        for second in DTYPES:
            b = paddle.to_tensor(_host(second, shapes[1], 2) + 1)
            try:
                expected = getattr(paddle, name)(a, b)
            except Exception as err:  # the refusal must be the same
                with pytest.raises(type(err)):
                    operator_[name](a, b)
                continue
            got = operator_[name](a, b)
            assert got.dtype == expected.dtype, (first, second)
            np.testing.assert_array_equal(got.numpy(), expected.numpy())


@pytest.mark.parametrize("name", ["sum", "prod", "cumsum", "cumprod", "nansum", "nanprod"])
def test_an_accumulation_numpy_widens_to_uint64_is_refused_with_the_way_out(name):
    """numpy accumulates uint8 in uint64, a dtype paddle lacks: a TypeError says so and
    what to pass (it was a KeyError), and with that dtype the values are numpy's."""
    a = np.arange(1, 5, dtype=np.uint8)
    with pytest.raises(TypeError, match=r"numpy's result is uint64.*pass dtype="):
        do(name, paddle.to_tensor(a))
    got = do(name, paddle.to_tensor(a), dtype="int64")
    np.testing.assert_array_equal(got.numpy(), getattr(np, name)(a, dtype=np.int64))

TINY = np.array([0.0, -0.0, 1e-20, -1e-300, 3.0, np.nan, np.inf, 1e-15, 2e-15])


@pytest.mark.parametrize(("name", "args"), [
    ("equal", (0.0,)), ("not_equal", (0.0,)), ("equal", (TINY + 1e-20,)),
    ("not_equal", (TINY[::-1],)), ("nonzero", ()), ("flatnonzero", ()), ("argwhere", ()),
    ("count_nonzero", ()), ("where", (1.0, 2.0)), ("all", ()), ("any", ()), ("sign", ()),
    ("fmod", (1e-20,)), ("fmod", (-3.0,)), ("fmod", (TINY[::-1],)),
])
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_tiny_values_are_not_zero(name, args, dtype):
    """paddle's equal, not_equal, == and != take floats (and complex parts) within 1e-15
    of each other for equal; numpy's comparisons, and what reads a condition or a zero
    (nonzero, where, all, a complex sign), are exact."""
    if name == "fmod" and dtype == "complex128":
        pytest.skip("numpy's fmod takes no complex numbers")
    x = {"all": TINY[2:5], "any": TINY[:3]}.get(name, TINY)
    if dtype == "complex128":  # finite parts: numpy's sign of an infinity is its own rule
        finite = np.where(np.isinf(x), 0.5, x)
        x = finite + 1j * finite[::-1]
    x = x.astype(dtype)
    host = [np.asarray(a).astype(dtype) if isinstance(a, np.ndarray) else a for a in args]
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(x, *host)
    got = do(name, paddle.to_tensor(x), *[paddle.to_tensor(a) if isinstance(a, np.ndarray)
                                           else a for a in host])
    got = tuple(do("to_numpy", g) for g in got) if isinstance(got, tuple) else do("to_numpy", got)
    np.testing.assert_array_equal(got, expected)


def test_xlogy_of_a_tiny_x():
    from scipy import special

    x = np.array([0.0, 1e-20, -1e-300, 2.0])
    np.testing.assert_allclose(do("to_numpy", do("scipy.special.xlogy", paddle.to_tensor(x), 3.0)),
                               special.xlogy(x, 3.0), rtol=1e-15, atol=0)


def test_jit_compile_translates_every_function_whatever_ran_before():
    """paddle's translator (SOT) remembers, per code object and unguarded, a function
    it fell back on: ``jit_compile`` keeps one such fallback (a cold dispatch cache, a
    keyword) from turning every later compilation into an eager run. Each function's
    second call is translated (paddle counts translations), its third reuses the
    program, and each matches eager."""
    from paddle.jit.sot.opcode_translator.executor.executor_cache import OpcodeExecutorCache

    from dispatch import clear_caches

    cache = OpcodeExecutorCache()
    x = paddle.to_tensor(np.arange(4.0))
    clear_caches()  # the first function meets a cold cache
    functions = [
        (lambda v: do("sin", v) + 1.0, {}),
        (lambda v, k=1.0: do("cos", v) * k, {"k": 3.0}),
        (lambda v: do("sum", do("exp", v), axis=0), {}),
    ]
    for f, kwargs in functions:
        jitted = do("jit_compile", f, like="paddle")
        counts = []
        for _ in range(3):
            before = cache.translate_count
            out = jitted(x, **kwargs)
            counts.append(cache.translate_count - before)
            np.testing.assert_allclose(out.numpy(), f(x, **kwargs).numpy(), rtol=1e-15)
        assert counts[0] == 0, "the first call of a signature runs eagerly"
        assert counts[1] > 0, "the second call is translated"
        assert counts[2] == 0, "the third call reuses the translation"


def test_jit_compile_runs_eagerly_what_the_translator_fails_on():
    """paddle 3.3's translator passes a closure's cell, not its value, to a lambda
    that a function it inlines calls (TypeError): that signature then runs eagerly,
    with eager's values; a genuine error still raises."""
    x, y = paddle.to_tensor(np.arange(3.0)), paddle.to_tensor(np.ones(3))

    def loop(a, b):
        return do("fori_loop", 0, 4, lambda i, v: v * 0.5 + b * i, a)

    jitted = do("jit_compile", loop, like="paddle")
    for _ in range(3):
        np.testing.assert_allclose(jitted(x, y).numpy(), loop(x, y).numpy(), rtol=1e-15)

    def bad(a):
        raise ValueError("a genuine error")

    jitted = do("jit_compile", bad, like="paddle")
    for _ in range(3):
        with pytest.raises(ValueError, match="a genuine error"):
            jitted(x)


def test_paddle_dtype_objects_name_numpys_dtypes():
    """paddle's dtype objects name themselves in upper case (paddle.float32.name is
    'FLOAT32'): to() with a paddle dtype or example casts, and a namespace's finfo
    and draws take paddle dtypes."""
    import dispatch

    x = paddle.ones([2], dtype="float32")
    floats, ints = dispatch.to((np.ones((2, 2)), np.arange(4)), x)
    assert (floats.dtype, ints.dtype) == (paddle.float32, paddle.int64)
    assert dispatch.to(np.ones(2), "paddle", dtype=paddle.float32).dtype == paddle.float32
    xp = dispatch.get_namespace(x)
    assert xp.finfo(paddle.float32).eps == np.finfo(np.float32).eps
    assert xp.iinfo(paddle.int16).max == np.iinfo(np.int16).max
