"""numpy 2's ``unique_values``, ``unique_counts``, ``unique_inverse`` and ``unique_all``, composed
(the set routines' companions of ``_composed/shape.py``)."""

from __future__ import annotations

from typing import Any, NamedTuple

from dispatch.translations._composed.reductions import _dt

from dispatch.engine import composed, do


class UniqueAllResult(NamedTuple):
    """``unique_all``'s result, numpy's field names."""

    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    """``unique_counts``'s result, numpy's field names."""

    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    """``unique_inverse``'s result, numpy's field names."""

    values: Any
    inverse_indices: Any


def _nan_positions(x: Any, flat: Any) -> Any:
    """The positions of the NaNs of ``flat`` (``x`` flattened), or None if it has
    none: numpy 2's ``unique_*`` keep every NaN apart (``equal_nan=False``), where
    ``unique`` merges them into one value, sorted last."""
    if _dt(x).kind not in "fc":
        return None
    nan = do("isnan", flat)
    if not bool(do("to_numpy", do("any", nan))):
        return None
    return do("flatnonzero", nan)


def _unique_parts(x: Any) -> tuple[Any, Any, Any, Any]:
    """values, first indices, inverse indices (``x``'s shape), counts."""
    flat = do("ravel", x)
    values, index, inverse, counts = do(
        "unique", flat, return_index=True, return_inverse=True, return_counts=True
    )
    where = _nan_positions(x, flat)
    if where is not None:
        # unique's one merged NaN (the last value) becomes one value per NaN
        k = int(do("shape", values)[0]) - 1
        m = int(do("shape", where)[0])
        values = do("concatenate", [values[:k], do("take", flat, where)])
        index = do("concatenate", [index[:k], do("astype", where, _dt(index))])
        counts = do("concatenate", [counts[:k], do("ones", (m,), dtype=_dt(counts), like=counts)])
        nan = do("isnan", flat)
        rank = do("cumsum", do("astype", nan, _dt(inverse)))
        inverse = do("where", nan, rank + (k - 1), do("ravel", inverse))
    return values, index, do("reshape", inverse, tuple(do("shape", x))), counts


@composed("unique_values")
def unique_values(x: Any, /) -> Any:
    """The unique elements of ``x`` as a 1-d array, numpy 2's ``unique_values``.

    Each NaN counts as a value of its own (numpy's ``equal_nan=False``). numpy
    leaves the order unspecified (its result may be unsorted); this one is
    sorted, NaNs last.

    Examples
    --------
    >>> import numpy as np
    >>> do("unique_values", np.array([[2.0, -1.0], [2.0, np.nan]]))
    array([-1.,  2., nan])
    """
    flat = do("ravel", x)
    values = do("unique", flat)
    where = _nan_positions(x, flat)
    if where is None:
        return values
    k = int(do("shape", values)[0]) - 1
    return do("concatenate", [values[:k], do("take", flat, where)])


@composed("unique_counts")
def unique_counts(x: Any, /) -> UniqueCountsResult:
    """The unique elements of ``x`` (sorted, each NaN its own value) and how often
    each occurs, numpy 2's ``unique_counts``: a named tuple ``(values, counts)``.

    Examples
    --------
    >>> import numpy as np
    >>> do("unique_counts", np.array([3, -1, 3, 3]))
    UniqueCountsResult(values=array([-1,  3]), counts=array([1, 3]))
    """
    values, _, _, counts = _unique_parts(x)
    return UniqueCountsResult(values, counts)


@composed("unique_inverse")
def unique_inverse(x: Any, /) -> UniqueInverseResult:
    """The unique elements of ``x`` (sorted, each NaN its own value) and the
    indices into them that rebuild ``x``, shaped like ``x``, numpy 2's
    ``unique_inverse``: a named tuple ``(values, inverse_indices)``.

    Examples
    --------
    >>> import numpy as np
    >>> r = do("unique_inverse", np.array([[3, -1], [3, 0]]))
    >>> r.values, r.inverse_indices
    (array([-1,  0,  3]), array([[2, 0],
           [2, 1]]))
    """
    values, _, inverse, _ = _unique_parts(x)
    return UniqueInverseResult(values, inverse)


@composed("unique_all")
def unique_all(x: Any, /) -> UniqueAllResult:
    """The unique elements of ``x`` (sorted, each NaN its own value), the flat
    index of each one's first occurrence, the inverse indices (shaped like
    ``x``) and the counts, numpy 2's ``unique_all``: a named tuple ``(values,
    indices, inverse_indices, counts)``.

    Examples
    --------
    >>> import numpy as np
    >>> r = do("unique_all", np.array([2.0, np.nan, -1.0, 2.0]))
    >>> r.values, r.indices
    (array([-1.,  2., nan]), array([2, 0, 1]))
    >>> r.inverse_indices, r.counts
    (array([1, 2, 0, 1]), array([1, 2, 1]))
    """
    return UniqueAllResult(*_unique_parts(x))
