"""A call that lacks a required argument is numpy's TypeError on every backend, never a
result computed from a default that numpy does not have.

Each value case of the smoke walk (``test_vocabulary_smoke.py``) is called again with
its last positional argument left out. Where numpy's (scipy's) own function then raises
TypeError (``clip(x, 0.5)`` lacks ``a_max``, ``reshape(x)`` its shape, ``kaiser(5)`` its
``beta``, ``zeros()`` its shape), every backend must raise TypeError too. An adapter
that defaults a required parameter to ``None`` (to tell numpy's two spellings of it
apart, or to read numpy's older name for it) answers such a call with a result instead:
``clip(x, 0.5)`` clipped from below alone, ``reshape(box)`` returned the box, torch's
``kaiser(5)`` used torch's default ``beta`` of 12. Names a backend's table marks
``unsupported``, or does not have, raise their own errors there and are left out.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from conftest import (
    BOXED_BACKENDS,
    array_leaves,
    boxed,
    known_gap,
    missing_dtype_skips,
    reference_function,
    to_backend,
)
from test_vocabulary_smoke import BACKENDS, CASES, _copy

from dispatch import UnknownFunctionError, UnsupportedError, do
from dispatch._resolve import known_names


def _numpy_refuses(name: str) -> bool:
    """Whether numpy's own function raises TypeError on the case without its last
    positional argument."""
    s = CASES[name]
    if s.call is not None or not s.args:
        return False
    if not s.like and not array_leaves(s.args[:-1]) + array_leaves(s.kwargs):
        return False  # no array left to decide the backend: the call would be numpy's
    try:
        ref = reference_function(name)
    except Exception:  # a name of dispatch's own (the backend method list)
        return False
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            ref(*_copy(s.args[:-1]), **_copy(s.kwargs))
        except TypeError:
            return True
        except Exception:
            return False
    return False


SHORT = sorted(name for name in CASES if _numpy_refuses(name))


def test_the_walk_covers_the_names_it_was_written_for():
    # the names whose adapters defaulted a required parameter: the walk must reach them
    assert {"clip", "reshape", "kaiser", "zeros", "ones", "empty"} <= set(SHORT)
    assert len(SHORT) > 100


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SHORT)
def test_a_missing_argument_is_a_type_error(name: str, backend: str) -> None:
    s = CASES[name]
    args, kwargs = _copy(s.args[:-1]), _copy(s.kwargs)
    leaves = array_leaves(args) + array_leaves(kwargs)
    if backend in BOXED_BACKENDS and not s.like and not any(boxed(a, backend) for a in leaves):
        pytest.skip(f"{name} on {backend}: no float or complex argument to box")
    if known_gap(backend, name) is not None:
        pytest.skip(f"{name} is unsupported on {backend}")
    if not s.like:
        with missing_dtype_skips(backend):
            args, kwargs = to_backend(args, backend), to_backend(kwargs, backend)
    call: dict[str, Any] = {"like": backend} if s.like else {}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            out = do(name, *args, **call, **kwargs)
        except TypeError:
            return
        except (UnknownFunctionError, UnsupportedError) as err:
            if name not in known_names(backend) or isinstance(err, UnsupportedError):
                pytest.skip(f"{name} is not served on {backend}: {err}")
            raise
    pytest.fail(f"do({name!r}) on {backend} without its last positional argument returned "
                f"a {type(out).__name__}; numpy raises TypeError")


# clip's bounds have two spellings in numpy 2 (a_min/a_max, min=/max=): every way of
# giving them, numpy's answer or numpy's error type
CLIP_FORMS = [
    ((1.0,), {}), ((), {"a_min": 1.0}), ((), {"a_max": 3.0}), ((None, None), {}), ((), {}),
    ((), {"min": 1.0}), ((), {"max": 3.0}), ((1.0, None), {}), ((1.0, 3.0), {}),
    ((1.0, 3.0), {"min": 1.0}), ((), {"a_min": 1.0, "a_max": 3.0}),
]


@pytest.mark.parametrize("backend", BACKENDS)
def test_clip_reads_its_bounds_as_numpy_does(backend: str) -> None:
    x = np.arange(5.0)
    for args, kwargs in CLIP_FORMS:
        try:
            expected: Any = np.clip(x, *args, **kwargs)
        except (TypeError, ValueError) as err:
            expected = type(err)
        try:
            got: Any = do("clip", to_backend(x, backend), *args, **kwargs)
        except (TypeError, ValueError) as err:
            got = type(err)
        form = f"clip(x, *{args}, **{kwargs}) on {backend}"
        if isinstance(expected, type):
            assert got is expected, form
        else:
            np.testing.assert_array_equal(np.asarray(do("to_numpy", got)), expected, err_msg=form)
