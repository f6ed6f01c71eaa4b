"""The property table's entry type and the runner that checks one drawn example.

A :class:`Prop` says how to draw the arguments of one name (a builder taking a
:class:`~strategies.Drawer`) and what the result must be: numpy's (or scipy's)
function of that name by default, another reference, or a property ``check``
(reconstructions for decompositions, sortedness for argsort with ties).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import dispatch.translations
import numpy as np
from conftest import (
    _record,
    assert_close,
    assert_same_container,
    missing_dtype,
    reference_function,
    run_forms,
    to_np,
    tolerance,
)
from hypothesis import reject

from dispatch._errors import UnsupportedError

from .differences import difference

TABLES = os.path.dirname(dispatch.translations.__file__)

Call = tuple[tuple, dict]
# errors by which numpy refuses a drawn example: the example is rejected, not failed
NUMPY_REFUSES = (ValueError, TypeError, IndexError, ZeroDivisionError, np.linalg.LinAlgError)


@dataclass(frozen=True)
class Prop:
    """How to draw and check one name.

    ``build(d) -> (args, kwargs)`` draws numpy inputs. ``ref`` is the reference
    (numpy's function of the name when None); ``check(actual, args, kwargs, backend)``
    replaces the comparison. ``dtype`` is assert_close's mode, or ``"auto"``: exact,
    except the *kind* for float results computed from integer or bool inputs
    (README, dtype policy: the float width is the library's). ``then`` runs after the
    comparison with the backend result (round trips).
    """

    build: Callable[[Any], Call]
    ref: Callable | None = None
    check: Callable | None = None
    dtype: str | None = "auto"
    rtol: float | None = None
    atol: float | None = None
    then: Callable | None = None


def _width_from_ints(expected: Any, args: tuple, kwargs: dict) -> bool:
    """Whether numpy's float width comes from integer inputs (int32 + float32 ->
    float64, sqrt of an int -> float64): there the README lets the library choose."""
    leaves = [np.asarray(a) for a in _arrays(args) + _arrays(kwargs)]
    floats = [a.dtype for a in leaves if a.dtype.kind in "fc"]
    if not any(a.dtype.kind in "biu" for a in leaves):
        return False
    bits = np.finfo(np.result_type(*floats)).bits if floats else None
    exp = expected if isinstance(expected, (list, tuple)) else [expected]
    return any(
        np.asarray(e).dtype.kind in "fc" and np.finfo(np.asarray(e).dtype).bits != bits
        for e in exp
    )


def _arrays(x: Any) -> list:
    if isinstance(x, dict):
        return [a for v in x.values() for a in _arrays(v)]
    if isinstance(x, (list, tuple)):
        return [a for v in x for a in _arrays(v)]
    return [x] if isinstance(x, np.ndarray) else []


def _copy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_copy(v) for v in x)
    return x.copy() if isinstance(x, np.ndarray) else x


def reference(name: str, prop: Prop, args: tuple, kwargs: dict) -> Any:
    """numpy's result, or a rejected example where numpy refuses the arguments."""
    ref = prop.ref or reference_function(name)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return ref(*_copy(args), **_copy(kwargs))
        except NUMPY_REFUSES:
            reject()


def _numpy_result(name: str, prop: Prop, args: tuple, kwargs: dict) -> Any:
    """numpy's result where a property check replaces the comparison (decompositions):
    only its container is compared (None where numpy has no such function or refuses)."""
    try:
        ref = prop.ref or reference_function(name)
    except (AttributeError, ImportError):
        return None
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return ref(*_copy(args), **_copy(kwargs))
        except Exception:
            return None


def refused_by_table(err: NotImplementedError) -> bool:
    """An ``UnsupportedError``, or a ``NotImplementedError`` raised by a translation
    table itself (a variant it documents as unavailable, with the reason), not by the
    library underneath (that is a bug to report)."""
    if isinstance(err, UnsupportedError):
        return True
    tb = err.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and TABLES in tb.tb_frame.f_code.co_filename


def run_example(
    name: str, prop: Prop, backend: str, args: tuple, kwargs: dict, refuse_ok: bool = True
) -> bool:
    """Check one drawn example in every call form (``conftest.run_forms``: converted,
    mixed numpy/backend, trailing keywords, on one warm cache, in both orders); False
    when the table refused this variant (a ``NotImplementedError`` its table raises
    for these arguments, with its reason)."""
    expected = None if prop.check else reference(name, prop, args, kwargs)
    diff = difference(backend, name)
    documented = (
        diff is not None
        and prop.check is None
        and diff.applies(prop.ref or reference_function(name), args, kwargs)
    )
    if documented:  # every value is still compared; the width is the documented one
        _record(("property_documented", 1))

    container = expected if prop.check is None else _numpy_result(name, prop, args, kwargs)

    def compare(out: Any, form: str) -> None:
        actual = to_np(out)
        try:
            if container is not None:
                assert_same_container(out, container)
            if prop.check is not None:
                prop.check(actual, args, kwargs, backend)
            else:
                dtype = prop.dtype
                if dtype == "auto":
                    dtype = "kind" if _width_from_ints(expected, args, kwargs) else "exact"
                if documented and dtype == "exact":
                    dtype = "kind"
                rtol, atol = prop.rtol, prop.atol
                if prop.dtype == "kind" and rtol is None:
                    # a wider result than the float inputs (scipy's polygamma of float32
                    # is float64): it is as precise as those inputs, no more
                    floats = [a.dtype for a in _arrays(args) + _arrays(kwargs)
                              if a.dtype.kind in "fc"]
                    if floats:
                        rtol, atol = tolerance(*floats, name=name, backend=backend)
                assert_close(actual, expected, dtype=dtype, rtol=rtol, atol=atol,
                             name=name, backend=backend)
        except AssertionError as err:
            raise AssertionError(f"[call form: {form}] {err}") from None
        if prop.then is not None and form == "converted":
            prop.then(out, args, kwargs, backend)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            run_forms(name, args, kwargs, backend, compare)
        except NotImplementedError as err:
            if not refuse_ok or not refused_by_table(err):
                raise
            return False
        except TypeError as err:
            # a result in a dtype the library lacks (mlx: the complex128 fft of float64
            # data), refused with the reason its table states
            if not refuse_ok or missing_dtype(backend, err) is None:
                raise
            return False
    return True
