"""numpy's first parameter given by keyword (``stack(arrays=...)``, ``sum(a=...)``,
``real(val=...)``) is numpy's call on every backend, whatever the library (or a composed
fallback) calls that parameter.

Every table takes numpy's arguments in numpy's order but names the first one its
library's way: torch's ``stack(tensors)``, ``diag(input)``, ``linalg.inv(A)``, dask's
``stack(seq)``, a fallback's positional-only ``x``. A call made of keywords alone, numpy's
first parameter among them, is passed on with that one by position (``dispatch._do.
_first_by_keyword``). The first walk found 107 such calls that failed (TypeError, and
RecursionError in dask's own ufunc wrappers), ``shape``/``size``/``ndim`` on numpy
among them.

The walk: every smoke case whose first argument numpy lets be given by keyword, on every
backend, must give what the positional call gives (the same values, or the same type of
error).
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np
import pytest
from conftest import assert_close, missing_dtype_skips, reference_function, to_backend, to_np
from test_vocabulary_smoke import BACKENDS, CASES, _copy

from dispatch import _registry as reg
from dispatch import do
from dispatch._do import _FIRST, _first_parameter


def _first_name(name: str) -> str | None:
    """numpy's first parameter of the case's call, where numpy takes it by keyword."""
    s = CASES[name]
    if s.call is not None or s.like or not s.args:
        return None
    try:
        params = list(inspect.signature(reference_function(name)).parameters.values())
    except (AttributeError, TypeError, ValueError):
        return None
    if not params or params[0].kind is not params[0].POSITIONAL_OR_KEYWORD:
        return None
    return None if params[0].name in s.kwargs else params[0].name


def _numpy_takes(name: str, first: str) -> bool:
    s = CASES[name]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            reference_function(name)(*_copy(s.args[1:]), **{first: _copy(s.args[0])},
                                     **_copy(s.kwargs))
        except Exception:
            return False
    return True


KEYWORD_FIRST = sorted(n for n in CASES if (f := _first_name(n)) and _numpy_takes(n, f))


def _outcome(call: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return call()
        except Exception as err:
            return type(err)


def test_the_walk_reaches_the_names_that_failed():
    for name in ("stack", "vstack", "diag", "linalg.inv", "real", "sum", "shape", "fix"):
        assert name in KEYWORD_FIRST, name
    assert len(KEYWORD_FIRST) > 120


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", KEYWORD_FIRST)
def test_the_first_argument_by_keyword_is_the_positional_call(name: str, backend: str) -> None:
    s = CASES[name]
    first = _first_name(name)
    with missing_dtype_skips(backend):
        args, kwargs = to_backend(_copy(s.args), backend), to_backend(_copy(s.kwargs), backend)
    by_position = _outcome(lambda: do(name, *args, **kwargs))
    by_keyword = _outcome(lambda: do(name, *args[1:], **{first: args[0]}, **kwargs))
    where = f"do({name!r}, {first}=...) on {backend}"
    if isinstance(by_position, type):
        assert by_keyword is by_position, f"{where}: {by_keyword}, positional {by_position}"
        return
    assert not isinstance(by_keyword, type), f"{where} raised {by_keyword.__name__}"
    got, expected = to_np(by_keyword), to_np(by_position)
    if s.how == "random":  # two draws: the same shape and dtype
        assert np.shape(got) == np.shape(expected), where
        assert np.asarray(got).dtype == np.asarray(expected).dtype, where
        return
    assert_close(got, expected, name=name, backend=backend)


def test_positional_calls_keep_the_tables_own_entries():
    """Only keyword calls pay: the positional call of the same types is cached as the
    resolved function itself, and the keyword call as a wrapper around that entry."""
    torch = pytest.importorskip("torch")
    t = torch.ones(2, 3)
    for _ in range(2):
        do("sum", t)
        do("sum", a=t, axis=0)
    positional = reg.cached_call("sum", torch.Tensor)
    keyword = reg.cached_call("sum", "a", torch.Tensor, "axis", int, kwargs=True)
    assert positional is not None
    assert keyword.__wrapped__ is reg.cached_call("sum", torch.Tensor, "axis", int, kwargs=True)
    assert getattr(positional, "__qualname__", "") != "_first_by_keyword.<locals>.by_position"


def test_the_rest_of_the_keywords_pass_on_and_inputs_stay_as_they_were():
    torch = pytest.importorskip("torch")
    parts = [torch.ones(2), torch.zeros(2)]
    out = do("stack", arrays=parts, axis=1)
    assert out.shape == (2, 2)
    assert len(parts) == 2
    np.testing.assert_array_equal(out.numpy(), np.stack([np.ones(2), np.zeros(2)], axis=1))


def test_names_numpy_lacks_are_not_remembered():
    before = len(_FIRST)
    for i in range(50):
        assert _first_parameter(f"no_such_name_{i}") is None
    assert len(_FIRST) == before
