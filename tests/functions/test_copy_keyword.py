"""``copy=`` of the conversions (``asarray``, ``array``, ``asanyarray``) keeps numpy's
meaning on every library, whatever the input:

- ``copy=False`` never copies: the result shares the input's memory (a later write
  into the input shows in it), or the call raises numpy's ``ValueError``;
- ``copy=True`` always copies: a later write into the input never shows;
- ``copy=None`` copies only when it must.

A library that cannot share a host buffer (jax, tensorflow, mlx, paddle) therefore
refuses ``copy=False`` of a numpy array, a list or a number, and no library may take
``copy=False`` and copy behind the caller's back (``like=`` must hand the library the
input itself, not a converted copy of it).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from conftest import missing_dtype, to_backend, to_np, usable_backends

from dispatch import do

BACKENDS = usable_backends(vocabulary=True)
CONVERSIONS = ("asarray", "array", "asanyarray")


def _numpy_refuses(name: str, a: Any, **kwargs: Any) -> bool:
    try:
        getattr(np, name)(a, **kwargs)
    except ValueError:
        return True
    return False


def _convert(name: str, a: Any, backend: str, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return do(name, a, like=backend, **kwargs)


def _values(x: Any) -> np.ndarray:
    return np.array(to_np(x))  # a copy: what the result holds now


@pytest.mark.parametrize("name", CONVERSIONS)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("what", "make", "kwargs"),
    [
        ("a list", lambda: [1.0, 2.0, 3.0], {}),
        ("a number", lambda: 2.5, {}),
        ("a numpy array", lambda: np.arange(3.0), {}),
        ("a numpy array, another dtype", lambda: np.arange(3.0), {"dtype": "float32"}),
        ("a C-ordered matrix, in F order", lambda: np.ones((2, 3)), {"order": "F"}),
        ("a C-ordered matrix, in C order", lambda: np.ones((2, 3)), {"order": "C"}),
    ],
)
def test_copy_false_of_host_data_shares_its_memory_or_raises(name, backend, what, make, kwargs):
    a = make()
    refuses = _numpy_refuses(name, a, copy=False, **kwargs)
    try:
        out = _convert(name, a, backend, copy=False, **kwargs)
    except ValueError:
        return  # numpy's refusal: a copy would be needed
    except TypeError as err:
        if reason := missing_dtype(backend, err):
            pytest.skip(reason)
        raise
    assert not refuses, (
        f"do({name!r}, {what}, copy=False, like={backend!r}) returned an array where "
        "numpy raises ValueError: a copy was needed"
    )
    a.flat[0] = 42.0
    assert _values(out).flat[0] == 42.0, (
        f"do({name!r}, {what}, copy=False, like={backend!r}) copied: a write into the "
        "input does not show in the result (raise ValueError where a copy is needed)"
    )


@pytest.mark.parametrize("name", CONVERSIONS)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kwargs", [{}, {"dtype": "float64"}])
def test_copy_true_of_a_numpy_array_is_a_copy(name, backend, kwargs):
    a = np.arange(3.0)
    try:
        out = _convert(name, a, backend, copy=True, **kwargs)
    except TypeError as err:
        if reason := missing_dtype(backend, err):
            pytest.skip(reason)
        raise
    before = _values(out)
    a.flat[0] = 42.0
    np.testing.assert_array_equal(_values(out), before)


@pytest.mark.parametrize("name", CONVERSIONS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_copy_of_the_librarys_own_array(name, backend):
    """Its own array of the asked dtype: ``copy=False`` and ``copy=None`` keep it (no
    error), a dtype change with ``copy=False`` raises, and ``copy=True`` copies."""
    x = to_backend(np.arange(3.0, dtype=np.float32), backend)
    assert _convert(name, x, backend, copy=False) is not None
    np.testing.assert_array_equal(_values(_convert(name, x, backend, copy=None)), [0, 1, 2])
    with pytest.raises(ValueError, match="copy"):
        _convert(name, x, backend, copy=False, dtype="int32")
    np.testing.assert_array_equal(_values(_convert(name, x, backend, copy=True)), [0, 1, 2])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("copy", [None, True, False])
def test_reshape_copy_and_order_are_numpys_on_a_c_ordered_array(backend, order, copy):
    """``reshape`` of an array laid out in C order (every library's own layout):
    numpy's values for each order, and numpy's ValueError exactly where numpy raises
    (an order it does not reshape in, or ``copy=False`` where no view exists)."""
    host = np.arange(24.0).reshape(2, 3, 4)
    x = to_backend(host, backend)
    for shape in [(4, 6), (24,), (-1, 2), (1, 2, 3, 4), (2, 12)]:
        try:
            want = np.reshape(host, shape, order=order, copy=copy)
        except ValueError:
            with pytest.raises(ValueError, match=r"order|copy"):
                do("reshape", x, shape, order=order, copy=copy)
            continue
        got = do("reshape", x, shape, order=order, copy=copy)
        np.testing.assert_array_equal(to_np(got), want, err_msg=f"{shape} {order} {copy}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_numpy_array_of_the_other_byte_order_converts_with_numpys_values(backend):
    host = np.arange(4.0).astype(">f8" if np.little_endian else "<f8")
    out = _convert("asarray", host, backend)
    np.testing.assert_array_equal(_values(out), np.arange(4.0))
    with pytest.raises(ValueError, match="copy"):
        _convert("asarray", host, backend, copy=False, dtype="int64")
