"""``like=`` (``dispatch/_do.py``'s ``_with_like`` and ``_like_miss``): what a backend
name or an example array decides, what an example lends to a creation routine, what
is converted on the way, and what a failure says.

An example array lends what the library's own creation routines would take from it
(dtype and device), never more: a Python number or a container without a dtype lends
nothing, and a keyword given in the call wins over the example's.
"""

from __future__ import annotations

import numpy as np
import pytest

import dispatch
from dispatch import _registry as reg
from dispatch import do
from dispatch._errors import MixedBackendError, UnknownBackendError


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


class Name(str):
    """A backend name given as a str subclass (an enum member's value, a config field)."""


# ---------------------------------------------------------------- the backend named


@pytest.mark.parametrize("twice", [1, 2], ids=["cold", "warm"])
def test_a_str_subclass_names_the_backend_it_spells(torch, twice):
    for _ in range(twice):
        out = do("zeros", (2,), like=Name("torch"))
    assert isinstance(out, torch.Tensor)
    assert isinstance(do("zeros", (2,), like=Name("numpy")), np.ndarray)


def test_an_unknown_backend_name_is_refused_with_a_suggestion():
    with pytest.raises(UnknownBackendError) as info:
        do("zeros", (2,), like="nmupy")
    msg = str(info.value)
    assert "'nmupy'" in msg
    assert "zeros" in msg
    assert "'numpy'" in msg  # the close match


def test_a_registration_made_after_a_like_call_is_used_by_the_next_one():
    assert do("zeros", (2,), like="numpy").shape == (2,)
    dispatch.register_function("numpy", "zeros", lambda shape, **kw: ("mine", shape, kw))
    try:
        assert do("zeros", (2,), like="numpy") == ("mine", (2,), {})
    finally:
        dispatch.unregister_function("numpy", "zeros")
    assert isinstance(do("zeros", (2,), like="numpy"), np.ndarray)


# ---------------------------------------------------------------- what an example lends


def test_an_example_array_lends_its_dtype_and_device_to_creation(torch):
    like = torch.ones(3, dtype=torch.float16, device="meta")
    out = do("zeros", (2,), like=like)
    assert out.dtype == torch.float16
    assert out.device.type == "meta"
    out = do("ones", (2,), like=like)
    assert out.dtype == torch.float16
    assert out.device.type == "meta"


def test_a_keyword_given_in_the_call_wins_over_the_example(torch):
    like = torch.ones(3, dtype=torch.float16, device="meta")
    out = do("zeros", (2,), dtype=torch.int32, like=like)
    assert out.dtype == torch.int32
    assert out.device.type == "meta"
    out = do("zeros", (2,), device="cpu", like=like)
    assert out.dtype == torch.float16
    assert out.device.type == "cpu"


def test_a_keyword_given_as_none_is_filled_from_the_example(torch):
    like = torch.ones(3, dtype=torch.float16)
    assert do("zeros", (2,), dtype=None, like=like).dtype == torch.float16
    assert do("zeros", (2,), dtype=None, like=np.ones(1, np.int8)).dtype == np.int8


def test_numpy_examples_lend_their_dtype():
    assert do("zeros", (2,), like=np.ones(1, np.float32)).dtype == np.float32
    assert do("empty", (2,), like=np.ones(1, np.complex64)).dtype == np.complex64
    assert do("full", (2,), 3, like=np.ones(1, np.int16)).dtype == np.int16


@pytest.mark.parametrize("example", [2, 2.5, True, 1j], ids=["int", "float", "bool", "complex"])
def test_a_python_number_as_example_lends_nothing(example):
    """``like=2`` chooses numpy (Python values) and lends no dtype: zeros are float64."""
    out = do("zeros", (2,), like=example)
    assert isinstance(out, np.ndarray)
    assert out.dtype == np.float64


class ShapedNoDtype:
    """A numpy-owned object with a shape but no dtype (a container of a user)."""

    shape = (2,)

    def __array__(self, dtype=None, copy=None):
        return np.zeros(2, dtype=dtype)


def test_a_container_without_a_dtype_lends_none(monkeypatch):
    monkeypatch.setitem(reg.USER_TYPES, ShapedNoDtype, "numpy")
    reg.clear_caches()
    try:
        out = do("zeros", (2,), like=ShapedNoDtype())
        assert isinstance(out, np.ndarray)
        assert out.dtype == np.float64
        out = do("random.standard_normal", size=(2,), like=ShapedNoDtype())
        assert out.dtype == np.float64
    finally:
        reg.clear_caches()


def test_a_non_creation_name_takes_nothing_from_the_example(torch):
    """Only creation routines and draws are lent a dtype; ``sum`` of float32 stays float32
    when the example is float64, and is given no ``dtype=``."""
    x = np.ones(3, np.float32)
    out = do("sum", x, like=np.ones(1, np.float64))
    assert out.dtype == np.float32
    t = torch.ones(3, dtype=torch.float32)
    assert do("sum", t, like=torch.ones(1, dtype=torch.float64)).dtype == torch.float32


# ---------------------------------------------------------------- conversion on the way


def test_numpy_constants_become_the_named_librarys_arrays(torch):
    out = do("add", np.ones(2), np.ones(2), like="torch")
    assert isinstance(out, torch.Tensor)
    np.testing.assert_array_equal(out.numpy(), [2.0, 2.0])


@pytest.mark.parametrize("container", [list, tuple])
def test_the_arrays_of_a_sequence_argument_are_converted_too(torch, container):
    seq = container([np.ones(2), np.zeros(2)])
    out = do("stack", seq, like="torch")
    assert isinstance(out, torch.Tensor)
    np.testing.assert_array_equal(out.numpy(), [[1.0, 1.0], [0.0, 0.0]])
    out = do("concatenate", seq, axis=0, like="torch")
    assert isinstance(out, torch.Tensor)
    assert tuple(out.shape) == (4,)
    assert isinstance(seq[0], np.ndarray)  # the caller's sequence is left as it was


def test_a_numpy_array_given_as_an_axis_becomes_a_python_value_under_like(torch):
    t = torch.arange(6.0).reshape(2, 3)
    out = do("sum", t, axis=np.array(1), like="torch")
    np.testing.assert_array_equal(out.numpy(), [3.0, 12.0])
    out = do("transpose", t, np.array([1, 0]), like="torch")
    assert tuple(out.shape) == (3, 2)


def test_an_array_of_an_equal_or_higher_priority_library_is_not_converted(torch):
    jnp = pytest.importorskip("jax.numpy")
    with pytest.raises(MixedBackendError) as info:
        do("add", torch.ones(2), jnp.ones(2), like="torch")
    msg = str(info.value)
    assert "like='torch'" in msg
    assert "'jax'" in msg
    assert "dispatch.convert(x, 'torch')" in msg


def test_like_numpy_with_another_librarys_array_keeps_the_librarys_error(torch):
    """numpy named: other libraries' arrays reach it through ``__array__``, so a failure
    is numpy's own, not a mixing error."""
    out = do("add", np.ones(2), torch.ones(2), like="numpy")
    assert type(out) is type(np.add(np.ones(2), torch.ones(2)))  # what numpy itself gives
    with pytest.raises(ValueError, match="cannot reshape") as info:
        do("reshape", torch.ones(6), (4,), like="numpy")
    assert not isinstance(info.value, MixedBackendError)
    notes = getattr(info.value, "__notes__", [])
    assert notes == ["(raised inside dispatch.do('reshape') on backend 'numpy')"], notes


def test_a_failure_under_like_an_example_names_the_examples_backend(torch):
    with pytest.raises(RuntimeError, match="invalid for input of size 6") as info:
        do("reshape", torch.ones(6), (4,), like=torch.ones(1))
    assert info.value.__notes__ == ["(raised inside dispatch.do('reshape') on backend 'torch')"]


# ---------------------------------------------------------------- keywords converted


@pytest.mark.parametrize("twice", [1, 2], ids=["cold", "warm"])
@pytest.mark.parametrize("like", ["name", "example"])
def test_numpy_arrays_given_by_keyword_are_converted_by_their_role(torch, like, twice):
    """``like=`` a library that converts constants: a numpy array passed by keyword to
    an array operand (``a=``, ``a_min=``) becomes the library's array, and one passed
    to a parameter that is not an array operand (``axis=``) becomes a Python value, as
    positionally."""
    like_ = "torch" if like == "name" else torch.ones(1, dtype=torch.float64)
    x = np.arange(6.0).reshape(2, 3)
    for _ in range(twice):
        total = do("sum", a=x, axis=np.array(1), like=like_)
        clipped = do("clip", x, a_min=np.full(3, 1.0), a_max=np.full(3, 4.0), like=like_)
    assert isinstance(total, torch.Tensor)
    np.testing.assert_array_equal(total.numpy(), x.sum(axis=1))
    assert isinstance(clipped, torch.Tensor)
    np.testing.assert_array_equal(clipped.numpy(), np.clip(x, 1.0, 4.0))
