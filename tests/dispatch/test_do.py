"""``do`` (``dispatch/_do.py``): every argument of a sequence call decides, on a warm
cache too; numpy arrays given as parameters reach the library as Python numbers; a
failed call names its call, its backend and, with ``like=``, the mixing only where it
happened; ``precision()`` reaches calls with ``like=``."""

from __future__ import annotations

import numpy as np
import pytest
from dispatch.translations._vocabulary import FLOAT_DRAWS

import dispatch
from dispatch import _registry as reg
from dispatch import do


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def _twice(calls):
    """Every call, then every call again on the now warm cache: the second results."""
    for fn in calls:
        fn()
    return [fn() for fn in calls]


@pytest.mark.parametrize("torch_first", [False, True], ids=["numpy-first", "torch-first"])
def test_a_positional_array_beside_a_sequence_decides(torch, torch_first):
    """``cho_solve((c, lower), b)``: the array given by position beside the sequence
    takes part as much as the sequence's elements, whichever call the cache met first."""
    pytest.importorskip("scipy.linalg")
    reg.clear_caches()
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    c, b = np.linalg.cholesky(a), np.array([1.0, 2.0])
    calls = [
        lambda: do("scipy.linalg.cho_solve", (c, True), b),
        lambda: do("scipy.linalg.cho_solve", (c, True), torch.tensor(b)),
    ]
    if torch_first:
        calls.reverse()
    outs = _twice(calls)
    if torch_first:
        outs.reverse()
    assert type(outs[0]) is np.ndarray
    assert type(outs[1]) is torch.Tensor
    for out in outs:
        np.testing.assert_allclose(np.asarray(out), np.linalg.solve(a, b))


def test_a_failed_call_on_numpy_by_like_keeps_its_own_error(torch):
    """``like="numpy"`` with another library's array: numpy takes it through
    ``__array__``, so a failure is numpy's own error, not a mixed-libraries one; on
    another backend the same call is said to mix libraries."""
    jnp = pytest.importorskip("jax.numpy")
    not_square = torch.ones(2, 3, dtype=torch.float64)
    with pytest.raises(np.linalg.LinAlgError) as info:
        do("linalg.inv", not_square, like="numpy")
    assert not isinstance(info.value, dispatch.MixedBackendError)
    with pytest.raises(dispatch.MixedBackendError, match="arrays of 'torch' were passed"):
        do("linalg.inv", not_square, like=jnp.ones(1))


# ---------------------------------------------------------------- numpy arrays as parameters


@pytest.fixture
def probe_on_torch(torch):
    """``do("pad", ...)`` on torch returns the ``pad_width`` it was given (a parameter,
    not an array operand)."""
    dispatch.register_function("torch", "pad", lambda a, pad_width, **kw: pad_width)
    yield
    dispatch.unregister_function("torch", "pad")


@pytest.mark.parametrize(
    ("given", "expected"),
    [(np.array(2), 2), (np.array([1, 2]), (1, 2)), (np.array([[1, 1], [2, 2]]), ((1, 1), (2, 2)))],
    ids=["0-d", "1-d", "2-d"],
)
def test_a_numpy_array_as_a_parameter_becomes_python_numbers(
    probe_on_torch, torch, given, expected
):
    """A numpy array where the name takes a parameter (``pad_width``) reaches the
    library as Python numbers: a number for a 0-d array, tuples (nested for 2-d) for
    the others, by position and by keyword, on the cold and the warm cache."""
    t = torch.ones(3)
    for _ in range(2):
        for out in (do("pad", t, given), do("pad", t, pad_width=given)):
            assert out == expected
            assert type(out) is type(expected)
            if isinstance(out, tuple):
                assert all(type(e) is type(f) for e, f in zip(out, expected, strict=True))


@pytest.mark.parametrize("backend", ["torch", "jax", "dask"])
def test_a_numpy_array_as_a_parameter_beside_a_sequence(backend):
    """``stack([a, a], np.array(1))``: the sequence's arrays decide, and the numpy
    array in the ``axis`` parameter reaches the library as a Python number (dask's
    ``stack`` cannot take an array there), whether or not the library converts numpy
    constants."""
    pytest.importorskip({"dask": "dask.array"}.get(backend, backend))
    a = dispatch.convert(np.arange(3.0), backend)
    want = np.stack([np.arange(3.0)] * 2, axis=1)
    for _ in range(2):
        for out in (do("stack", [a, a], np.array(1)), do("stack", [a, a], axis=np.array(1))):
            assert dispatch.infer_backend(out) == backend
            np.testing.assert_array_equal(dispatch.to_numpy(out), want)


@pytest.mark.parametrize("backend", ["jax", "dask"])
def test_like_a_backend_that_takes_numpy_arrays_still_gets_python_parameters(backend):
    """``like=`` a library that takes numpy arrays as they are (no conversion of
    constants): a numpy array in a parameter position is a Python number all the same."""
    pytest.importorskip({"dask": "dask.array"}.get(backend, backend))
    x = np.arange(6.0).reshape(2, 3)
    for _ in range(2):
        out = do("sum", x, np.array(0), like=backend)
        np.testing.assert_allclose(np.asarray(out), x.sum(0))
        out = do("sum", x, axis=np.array(1), like=backend)
        np.testing.assert_allclose(np.asarray(out), x.sum(1))


# ---------------------------------------------------------------- messages and notes


def test_a_library_error_under_like_names_the_like_backend(torch):
    """The note added to a library's error names the backend ``like=`` chose, not the
    one the arguments would have chosen."""
    with pytest.raises(Exception) as info:  # noqa: PT011 - whatever torch raises
        do("reshape", np.ones(6), (4, 4), like="torch")
    assert info.value.__notes__ == ["(raised inside dispatch.do('reshape') on backend 'torch')"]


def test_a_name_that_is_no_string_is_named_in_the_message():
    with pytest.raises(TypeError) as info:
        do(3, np.ones(2))
    assert str(info.value) == (
        "do(3, ...): the function name must be a string such as 'sum', got int"
    )


def test_like_with_another_librarys_array_says_which_like(torch):
    jnp = pytest.importorskip("jax.numpy")
    with pytest.raises(dispatch.MixedBackendError) as info:
        do("linalg.inv", jnp.ones((2, 3)), like="torch")
    assert str(info.value).startswith(
        "do('linalg.inv', like='torch'): arrays of 'jax' were passed to a call on 'torch'"
    ), str(info.value)


def test_precision_applies_to_creation_with_like_and_an_explicit_dtype_wins(torch):
    """``precision(bits)`` sets the float width of creation routines that are given no
    dtype, with ``like=`` too (torch's own default is float32, numpy's float64); a
    dtype given in the call, or lent by a ``like=`` array, wins."""
    with dispatch.precision(64):
        assert do("zeros", 2, like="torch").dtype == torch.float64
        assert do("ones", 2, dtype=torch.float32, like="torch").dtype == torch.float32
        assert do("zeros", 2, like=torch.ones(1, dtype=torch.float32)).dtype == torch.float32
    with dispatch.precision(32):
        assert do("ones", 2).dtype == np.float32
        assert do("ones", 2, dtype="float64").dtype == np.float64


# ---------------------------------------------------------------- draws for an example


@pytest.mark.parametrize("name", sorted(FLOAT_DRAWS))
def test_a_float_draw_for_an_example_array_takes_its_real_float_dtype(name, torch):
    """``like=`` an array gives a draw of floats that array's dtype when it is a real
    float (quimb's randomized SVD of a float64 matrix), the library's default otherwise."""
    for dtype in (torch.float64, torch.float32):
        assert do(name, size=(3,), like=torch.zeros(2, dtype=dtype)).dtype == dtype
    for other in (torch.int64, torch.complex64):
        out = do(name, size=(3,), like=torch.zeros(2, dtype=other))
        assert out.dtype == torch.get_default_dtype()
    assert do(name, size=(3,), like=np.zeros(2, np.float32)).dtype == np.float32


def _draw(size=None):
    return np.zeros(size)


def _draw_dtype(size=None, dtype=None):
    return np.zeros(size, dtype)


def _draw_any(size=None, **kwargs):
    return np.full(size, float(len(kwargs)))  # one keyword: the dtype


@pytest.mark.parametrize(
    ("fn", "dtype", "value"),
    [(_draw, np.float64, 0.0), (_draw_dtype, np.float32, 0.0), (_draw_any, np.float64, 1.0)],
    ids=["no dtype parameter", "dtype parameter", "**kwargs"],
)
def test_a_draw_is_given_only_the_keywords_its_function_takes(fn, dtype, value):
    """What a draw takes from ``like=`` is passed only where the function has a
    parameter for it (a registered draw without ``dtype`` is not broken by one)."""
    dispatch.register_function("numpy", "random.standard_normal", fn)
    try:
        for _ in range(2):  # the second call through the cache
            out = do("random.standard_normal", size=(2,), like=np.zeros(1, np.float32))
            assert out.dtype == dtype
            np.testing.assert_array_equal(out, [value, value])
    finally:
        dispatch.unregister_function("numpy", "random.standard_normal")


# ---------------------------------------------------------------- sequences of two libraries


@pytest.mark.parametrize("pad", [0, 1, 2], ids=["two", "three", "four"])
@pytest.mark.parametrize("keywords", [{}, {"axis": 0}], ids=["lone", "with-axis"])
def test_a_sequence_of_two_libraries_names_them_in_argument_order(torch, pad, keywords):
    """``stack([a, b])`` with arrays of two libraries is refused, cold and warm, whatever
    the sequence's length (two, three and more elements are keyed differently) and
    whether the sequence is the only argument; the message names the libraries in the
    order the arrays came, and suggests converting to the first."""
    jnp = pytest.importorskip("jax.numpy")
    head = [np.ones(2)] * pad
    for first, second, names in (
        (torch.ones(2), jnp.ones(2), ("torch", "jax")),
        (jnp.ones(2), torch.ones(2), ("jax", "torch")),
    ):
        for _ in range(2):
            with pytest.raises(dispatch.MixedBackendError) as info:
                do("stack", [*head, first, second], **keywords)
            assert str(info.value) == (
                f"do('stack'): arrays of {names[0]!r} and {names[1]!r} were passed to one "
                f"call; convert one side first, e.g. dispatch.convert(x, {names[0]!r})"
            )


@pytest.mark.parametrize("n", [2, 3, 5])
def test_a_lone_sequence_follows_its_elements_on_a_warm_cache(torch, n):
    """The same length, other element types: each call goes where its own elements say
    (the per-length keys never serve another combination of types)."""
    for _ in range(2):
        assert isinstance(do("stack", [np.ones(2)] * n), np.ndarray)
        assert isinstance(do("stack", [torch.ones(2)] * n), torch.Tensor)
        mixed = [np.ones(2)] * (n - 1) + [torch.ones(2)]
        assert isinstance(do("stack", mixed), torch.Tensor)
        assert isinstance(do("stack", mixed[::-1]), torch.Tensor)


def test_a_draw_taking_any_keyword_is_given_the_examples_dtype_and_device(torch):
    """A registered draw with ``**kwargs`` gets what the example lends: a torch tensor's
    dtype and its device."""
    seen = {}

    def draw(size=None, **kwargs):
        seen.update(kwargs)
        return torch.zeros(size, **kwargs)

    dispatch.register_function("torch", "random.standard_normal", draw)
    try:
        like = torch.ones(1, dtype=torch.float16, device="meta")
        out = do("random.standard_normal", size=(2,), like=like)
        assert seen == {"dtype": torch.float16, "device": like.device}
        assert out.dtype == torch.float16
    finally:
        dispatch.unregister_function("torch", "random.standard_normal")


class _NoSignature:
    """A draw whose signature cannot be read (as some C functions'): it is given the
    example's dtype, which every float draw of a table takes."""

    @property
    def __signature__(self):
        raise ValueError("no signature")

    def __call__(self, size=None, dtype=None):
        return np.zeros(size, dtype)


def test_a_draw_without_a_readable_signature_is_given_the_dtype():
    dispatch.register_function("numpy", "random.standard_normal", _NoSignature())
    try:
        out = do("random.standard_normal", size=(2,), like=np.zeros(1, np.float32))
        assert out.dtype == np.float32
    finally:
        dispatch.unregister_function("numpy", "random.standard_normal")
