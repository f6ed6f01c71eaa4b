"""``axis=()`` (and ``axes=()``) means "no axis" on every backend, as in numpy.

numpy reads an empty tuple of axes as the empty set: ``sum(x, axis=())`` reduces
over nothing and keeps ``x``'s shape, ``squeeze(x, axis=())`` removes nothing,
``tensordot(a, b, axes=((), ()))`` is an outer product. Libraries may read an empty
tuple otherwise (torch's reductions take an empty ``dim`` for every axis), so each
name whose numpy (scipy) function takes ``axis`` or ``axes`` is called here with an
empty tuple there, on 0-d, 1-d and 2-d inputs, with and without ``keepdims``. The
names come from the vocabulary and the tables (``known_names``), not from a list, so
that a name added later is walked too. Where numpy refuses the call the backend must
refuse it as well (an answer would be a silent misreading).
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np
import pytest
from conftest import assert_close, known_gap, reference_function, to_backend, to_np

from dispatch import array_namespace, do
from dispatch._resolve import how, known_names

X0 = np.array(2.5)
X1 = np.array([1.5, -2.0, 3.0])
X2 = np.arange(1.0, 7.0).reshape(2, 3)
# values for required parameters after the array (numpy's names)
FILL = {"b": "same", "x2": "same", "y": "same", "v": "same", "x1": "same"}
EMPTY = {"axes": [(), ((), ())], "axis": [()]}
# names left out of the walk, with the reason
NOT_WALKED = {
    "size": "dispatch's size helper counts every element and takes no axis (numpy's "
    "size(a, axis) is not in the vocabulary)",
}
# numpy's (scipy's) own corners, which the libraries are not held to: (name, ndim)
QUIRKS = {
    ("scipy.special.logsumexp", 0): "scipy gives a 0-d input's result the shape (1,)",
    ("fft.fftshift", 0): "numpy fails to unpack the shape of a 0-d array (ValueError)",
    ("fft.ifftshift", 0): "numpy fails to unpack the shape of a 0-d array (ValueError)",
}
# known departures, not fixed yet: (backend, name) -> why. Strict: an entry whose
# calls all agree with numpy fails the test, so that it is taken out
KNOWN = {
    ("jax", "fft.fft2"): "jnp.fft.fft2 refuses axes=() (ValueError); numpy returns the input",
    ("jax", "fft.ifft2"): "jnp.fft.ifft2 refuses axes=() (ValueError); numpy returns the input",
    ("jax", "fft.rfftn"): "jnp.fft.rfftn answers axes=() where numpy refuses (IndexError)",
    ("jax", "fft.irfftn"): "jnp.fft.irfftn answers axes=() where numpy refuses (IndexError)",
    ("jax", "lexsort"): "jnp.lexsort takes axis=() for the last axis; numpy refuses a tuple",
    ("dask", "linalg.norm"): "the norm over axis=() answers where numpy refuses (ValueError)",
    ("sparse", "linalg.norm"): "the norm over axis=() answers where numpy refuses (ValueError)",
    ("sparse", "argmax"): "sparse's argmax takes axis=() of a 0-d array; numpy refuses a tuple",
    ("sparse", "argmin"): "sparse's argmin takes axis=() of a 0-d array; numpy refuses a tuple",
    ("sparse", "nanargmax"): "axis=() of a 0-d array answers; numpy refuses a tuple",
    ("sparse", "nanargmin"): "axis=() of a 0-d array answers; numpy refuses a tuple",
    ("sparse", "sort"): "sparse's sort takes axis=(); numpy refuses a tuple",
}
# the n-D transforms over no axis return the input: numpy keeps its real dtype, the
# libraries their complex one (values are compared, not the dtype)
VALUES_ONLY = ("fft.",)


def _signature(name: str) -> inspect.Signature | None:
    try:
        return inspect.signature(reference_function(name))
    except (AttributeError, ImportError, TypeError, ValueError):
        return None


def _calls(name: str) -> list[tuple[tuple, dict]]:
    """Every (args, kwargs) of ``name`` with an empty tuple of axes, on numpy arrays."""
    sig = _signature(name)
    if sig is None or name in NOT_WALKED or isinstance(reference_function(name), np.ufunc):
        # a ufunc's axis and axes are the generalized-ufunc machinery, not the name's
        return []
    params = sig.parameters
    required = [p for p in params.values() if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    out = []
    for key, values in EMPTY.items():
        if key not in params:
            continue
        for x in (X0, X1, X2):
            if (name, x.ndim) in QUIRKS:
                continue
            args: list[Any] = [x]
            for p in required[1:]:
                if p.name == key:
                    continue
                if p.name == "q":
                    args.append(50.0 if "percentile" in name else 0.5)
                elif FILL.get(p.name) == "same":
                    args.append(x)
                else:
                    break
            else:
                for value in values:
                    out.append((tuple(args), {key: value}))
                    if "keepdims" in params:
                        out.append((tuple(args), {key: value, "keepdims": True}))
    return out


def _names() -> list[str]:
    from conftest import usable_backends

    import dispatch._registry as reg

    for b in [*usable_backends(), "scipy"]:
        reg.table(b)
    return sorted(n for n in known_names() if _calls(n))


def _copy(args: tuple) -> tuple:
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def _describe(args: tuple, kwargs: dict) -> str:
    shapes = ", ".join(f"<{a.ndim}-d>" if isinstance(a, np.ndarray) else repr(a) for a in args)
    kw = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
    return f"({shapes}, {kw})"


def _mismatch(name: str, backend: str, args: tuple, kwargs: dict) -> str | None:
    """None when ``do(name)`` on ``backend`` answers numpy's answer (or refuses as
    numpy does), else what differs."""
    call = f"{name}{_describe(args, kwargs)}"
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            expected = reference_function(name)(*_copy(args), **kwargs)
        except Exception as err:  # numpy refuses: so must the backend
            try:
                out = do(name, *to_backend(args, backend), **kwargs)
            except Exception:
                return None
            return (f"{call}: numpy raises {type(err).__name__} ({err}), {backend} answers "
                    f"shape {np.shape(to_np(out))}")
        try:
            out = do(name, *to_backend(args, backend), **kwargs)
        except Exception as err:
            return f"{call}: {type(err).__name__}: {str(err)[:160]}"
    try:
        dtype = None if name.startswith(VALUES_ONLY) else "kind"
        assert_close(to_np(out), expected, dtype=dtype, name=name, backend=backend)
    except AssertionError as err:
        return f"{call}: {str(err).splitlines()[0][:160]}"
    return None


NAMES = _names()


def test_the_walk_finds_the_reductions_and_the_axes_arguments():
    """A guard on the walk itself: the names it must reach are among those it finds."""
    must = {"sum", "mean", "max", "std", "var", "nansum", "count_nonzero", "ptp", "median",
            "average", "quantile", "squeeze", "flip", "transpose", "expand_dims", "tensordot",
            "scipy.special.logsumexp", "fft.fftshift"}
    assert must <= set(NAMES), sorted(must - set(NAMES))


def test_empty_axes_mean_no_axis(backend: str) -> None:
    failures, stale = [], []
    checked = 0
    for name in NAMES:
        if how(backend, name) == "missing" or known_gap(backend, name) is not None:
            continue
        found = [why for args, kwargs in _calls(name)
                 if (why := _mismatch(name, backend, args, kwargs)) is not None]
        checked += len(_calls(name))
        if (backend, name) in KNOWN:
            if not found:
                stale.append(name)
        else:
            failures.extend(found)
    assert checked > 100, f"only {checked} calls made on {backend}"
    assert not failures, f"{len(failures)} of {checked} calls on {backend}:\n" + "\n".join(
        failures)
    assert not stale, f"KNOWN entries of {backend} that now agree with numpy: {stale}"


STANDARD_REDUCTIONS = ("sum", "prod", "max", "min", "mean", "std", "var", "any", "all",
                       "count_nonzero")


@pytest.mark.parametrize("name", STANDARD_REDUCTIONS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_empty_axes_through_array_namespace(name: str, keepdims: bool, backend: str) -> None:
    """The standard's face reads ``axis=()`` as numpy does (an array API test suite
    found torch's misreading through it)."""
    x = to_backend(X2, backend)
    xp = array_namespace(x)
    fn = getattr(xp, name, None)
    if fn is None:
        pytest.skip(f"{backend}'s namespace has no {name}")
    expected = getattr(np, name)(X2, axis=(), keepdims=keepdims)
    assert_close(to_np(fn(x, axis=(), keepdims=keepdims)), expected, dtype="kind")
