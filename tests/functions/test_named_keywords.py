"""Every keyword numpy's function takes, given a value, on every backend: numpy's answer,
numpy's refusal, or a typed refusal that names the keyword. Never ignored.

The smoke walk (``test_vocabulary_smoke.py``) calls each name once with numpy's
defaults. Here each of its value cases is called again with one keyword of numpy's
(scipy's) own signature set to a probe value (:data:`PROBES`): ``out=`` a buffer,
``order='F'`` and an order numpy does not know, ``casting='no'`` with a narrower
``dtype``, ``copy``, ``stable``, a sort ``kind``, ``device``, ``keepdims``, ``initial``.
The rule, for each backend:

- numpy raises: the backend raises too (an error, of any library, typed);
- numpy answers: the backend gives numpy's answer (values and dtype, as the smoke walk
  compares them), or refuses with a typed error whose message names the keyword (the
  table's refusal, or the library's own "unexpected keyword argument");
- ``out=``: numpy writes the answer into the buffer; the backend writes it there too
  (numpy's and torch's own functions do), or refuses naming ``out``. A result
  returned while the buffer stays as it was is the silent wrong answer this file is
  for. The static side of the same rule (no adapter names a keyword it never reads) is
  ``tests/translations/test_no_swallowed_keywords.py``.
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np
import pytest
from conftest import (
    BOXED_BACKENDS,
    array_leaves,
    boxed,
    known_gap,
    missing_dtype,
    missing_dtype_skips,
    reference_function,
    to_backend,
    to_np,
)
from test_vocabulary_smoke import BACKENDS, CASES, NAMES, Smoke, _copy, _plain, compare

from dispatch import UnknownFunctionError, do

# keyword -> the values tried (a dict: several keywords set together, the first one
# named by the probe)
PROBES: dict[str, tuple[Any, ...]] = {
    "order": ("F", "Q"),
    "casting": ({"casting": "no", "dtype": "float32"},),
    "copy": (True, False),
    "stable": (True,),
    "kind": ("stable", "bogus"),
    "device": ("cpu", "nowhere"),
    "keepdims": (True,),
    "initial": (5.0,),
}
# the keywords of every ufunc (numpy's ufuncs have no readable signature)
_UFUNC = ("out", "order", "casting", "dtype", "subok", "where")

# (name, keyword, backend) -> why the rule does not hold there
EXCEPTIONS: dict[tuple[str, str, str], str] = {
    # numpy, scipy, cupy
    # (end of numpy)
    # torch
    # (end of torch)
    # jax
    # (end of jax)
    # tensorflow
    # (end of tensorflow)
    # dask
    # (end of dask)
    # sparse
    # (end of sparse)
    # mlx
    # (end of mlx)
    # paddle
    # (end of paddle)
    # autograd
    # (end of autograd)
}


def _numpy_keywords(name: str) -> tuple[str, ...]:
    try:
        fn = reference_function(name)
    except (AttributeError, ImportError):
        return ()
    if isinstance(fn, np.ufunc):
        return _UFUNC
    try:
        return tuple(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return ()


def _cases() -> list:
    out = []
    for name in NAMES:
        s = CASES.get(name)
        if s is None or s.how != "value" or s.call is not None or s.ref is not None:
            continue
        keys = _numpy_keywords(name)
        for key in ("out", *PROBES):
            if key in keys and key not in s.kwargs:
                if key == "casting" and "dtype" not in keys:
                    continue
                values = (None,) if key == "out" else PROBES[key]
                for i, v in enumerate(values):
                    out.append(pytest.param(name, key, v, id=f"{name}-{key}{i}"))
    return out


CASES_WITH_KEYWORDS = _cases()


def _numpy_call(name: str, s: Smoke, extra: dict) -> tuple[Any, BaseException | None]:
    fn = reference_function(name)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return fn(*_copy(s.args), **_copy(s.kwargs), **extra), None
        except Exception as err:  # numpy's refusal: the backend must refuse too
            return None, err


def _backend_args(name: str, s: Smoke, backend: str) -> tuple[tuple, dict]:
    leaves = array_leaves(s.args) + array_leaves(s.kwargs)
    if s.like:
        return _copy(s.args), _copy(s.kwargs)
    if backend in BOXED_BACKENDS and leaves and not any(boxed(a, backend) for a in leaves):
        pytest.skip(f"{name} on {backend}: no float or complex argument to box")
    with missing_dtype_skips(backend):
        return to_backend(_copy(s.args), backend), to_backend(_copy(s.kwargs), backend)


def _call(name: str, s: Smoke, args: tuple, kwargs: dict, backend: str, extra: dict) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if s.like:
            return _plain(do(name, *args, like=backend, **kwargs, **extra))
        return _plain(do(name, *args, **kwargs, **extra))


def _attempt(name: str, s: Smoke, args: tuple, kwargs: dict, backend: str,
             extra: dict) -> tuple[Any, Exception | None]:
    """The call's result, or the error it raised (an unknown name is not a refusal)."""
    try:
        return _call(name, s, args, kwargs, backend, extra), None
    except UnknownFunctionError:
        raise
    except Exception as err:
        return None, err


def _names_keyword(err: BaseException, key: str) -> bool:
    text = " ".join([str(err), *getattr(err, "__notes__", [])])
    return key in text


@pytest.fixture(params=BACKENDS)
def kw_backend(request) -> str:
    return request.param


@pytest.mark.parametrize(("name", "key", "value"), CASES_WITH_KEYWORDS)
def test_a_keyword_is_honoured_or_refused_never_ignored(name: str, key: str, value: Any,
                                                        kw_backend: str) -> None:
    backend = kw_backend
    s = CASES[name]
    if known_gap(backend, name) is not None:
        pytest.skip(f"{name} is unsupported on {backend}")
    why = EXCEPTIONS.get((name, key, backend))
    if why is not None:
        pytest.skip(why)
    args, kwargs = _backend_args(name, s, backend)
    try:  # the plain call first: a name the backend cannot run says nothing about keys
        plain = _call(name, s, _copy(args), _copy(kwargs), backend, {})
    except UnknownFunctionError:
        pytest.skip(f"{name} is not in {backend}'s table")
    except TypeError as err:
        if reason := missing_dtype(backend, err):
            pytest.skip(f"{name} on {backend}: {reason}")
        raise
    if key == "out":
        _check_out(name, s, args, kwargs, backend, plain)
        return
    extra = dict(value) if isinstance(value, dict) else {key: value}
    expected, numpy_error = _numpy_call(name, s, extra)
    got, err = _attempt(name, s, args, kwargs, backend, extra)
    if err is not None:
        # numpy refuses and so does the backend; or the backend refuses the keyword
        assert numpy_error is not None or _names_keyword(err, key), (
            f"do({name!r}, {key}={value!r}) on {backend}: numpy answers, and the backend "
            f"raised {type(err).__name__} without naming {key!r}: {err}")
        return
    assert numpy_error is None, (
        f"do({name!r}, {key}={value!r}) on {backend} returned a result where numpy raises "
        f"{type(numpy_error).__name__}: {numpy_error}")
    compare(got, _plain(expected), Smoke(**{**s.__dict__, "dtype": "kind"})
            if key in ("copy", "device", "order") else s, name, backend)


def _check_out(name: str, s: Smoke, args: tuple, kwargs: dict, backend: str,
               plain: Any) -> None:
    if not isinstance(plain, np.ndarray):
        pytest.skip(f"{name}: the case has no single array result to write into")
    buf = to_backend(np.full_like(plain, 7), backend)
    before = np.array(to_np(buf))
    got, err = _attempt(name, s, args, kwargs, backend, {"out": buf})
    if err is not None:
        assert _names_keyword(err, "out"), (
            f"do({name!r}, out=...) on {backend} raised {type(err).__name__} without "
            f"naming out: {err}")
        return
    written = np.asarray(to_np(buf))
    assert not np.array_equal(written, before, equal_nan=True) or np.array_equal(
        plain, before, equal_nan=True), (
        f"do({name!r}, out=buf) on {backend} returned a result and left buf as it was: "
        "out= was ignored")
    compare(written, plain, Smoke(**{**s.__dict__, "dtype": None}), name, backend)
    compare(got, plain, Smoke(**{**s.__dict__, "dtype": None}), name, backend)


def test_the_probes_reach_every_keyword() -> None:
    keys = {p.values[1] for p in CASES_WITH_KEYWORDS}
    assert keys == {"out", *PROBES}, sorted({"out", *PROBES} - keys)
    assert len(CASES_WITH_KEYWORDS) > 150


TIES = np.array([[3, 1, 2, 1, 3, 1, 2, 2, 1, 3] * 4, [0, 0, 1, 1, 0, 0, 1, 1, 0, 0] * 4])


@pytest.mark.parametrize("extra", [{"kind": "stable"}, {"stable": True}, {"kind": "mergesort"}])
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_argsort_keeps_ties_in_order_when_asked(kw_backend: str, extra: dict, axis) -> None:
    """A stable sort asked for (``kind='stable'``, ``'mergesort'``, ``stable=True``):
    equal elements keep their order, as numpy's indices show; never a quicksort's."""
    backend = kw_backend
    if backend in BOXED_BACKENDS:
        pytest.skip("integer arrays are numpy constants to autograd")
    expected = np.argsort(TIES, axis=axis, **extra)
    s = Smoke((TIES,), {})
    got, err = _attempt("argsort", s, (to_backend(TIES, backend),), {}, backend,
                        {"axis": axis, **extra})
    assert err is None, f"argsort({extra}) on {backend}: {err!r}"
    np.testing.assert_array_equal(np.asarray(got), expected)
