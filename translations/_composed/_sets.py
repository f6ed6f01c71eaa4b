"""numpy's set routines (``intersect1d``, ``union1d``, ``setdiff1d``, ``setxor1d``:
sorted 1-d results of eager, data-dependent size), composed: a subtopic of shape that
stands on its own, re-exported by ``shape.py`` (the topic whose table modules hold
these names), so both paths import them."""

from __future__ import annotations

from typing import Any

from dispatch.engine import composed, do

# ---------------------------------------------------------------- set routines


def _set_of(ar: Any, assume_unique: bool) -> Any:
    """``ar`` flattened, its duplicates dropped (sorted) unless ``assume_unique``."""
    return do("ravel", ar) if assume_unique else do("unique", ar)


def _neighbours(aux: Any) -> tuple[Any, Any]:
    return aux[:-1], aux[1:]


@composed("intersect1d")
def intersect1d(
    ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False
) -> Any:
    """Sorted values found in both arrays, numpy's ``intersect1d``.

    With ``return_indices`` also the indices of the first occurrence of each
    value in the flattened ``ar1`` and ``ar2`` (of any occurrence where
    ``assume_unique`` is given and wrong, as numpy).

    Examples
    --------
    >>> import numpy as np
    >>> do("intersect1d", np.array([[3, -1], [2, 3]]), np.array([3, 5, -1]))
    array([-1,  3])
    >>> do("intersect1d", np.array([4.0, 1.0, 4.0]), np.array([1.0, 4.0]), return_indices=True)
    (array([1., 4.]), array([1, 0]), array([0, 1]))
    """
    if return_indices:
        if assume_unique:
            ar1, ar2 = do("ravel", ar1), do("ravel", ar2)
        else:
            ar1, first1 = do("unique", ar1, return_index=True)
            ar2, first2 = do("unique", ar2, return_index=True)
        aux = do("concatenate", [ar1, ar2])
        order = do("argsort", aux, kind="stable")
        aux = do("take", aux, order)
        low, high = _neighbours(aux)
        same = do("equal", low, high)
        i1 = do("compress", same, order[:-1])
        i2 = do("compress", same, order[1:]) - do("size", ar1)
        if not assume_unique:
            i1, i2 = do("take", first1, i1), do("take", first2, i2)
        return do("compress", same, low), i1, i2
    aux = do("sort", do("concatenate", [_set_of(ar1, assume_unique), _set_of(ar2, assume_unique)]))
    low, high = _neighbours(aux)
    return do("compress", do("equal", low, high), low)


@composed("union1d")
def union1d(ar1: Any, ar2: Any) -> Any:
    """Sorted values found in either array, numpy's ``union1d``.

    Examples
    --------
    >>> import numpy as np
    >>> do("union1d", np.array([[3.0, -1.0]]), np.array([3.0, 0.5]))
    array([-1. ,  0.5,  3. ])
    """
    return do("unique", do("concatenate", [do("ravel", ar1), do("ravel", ar2)]))


@composed("setdiff1d")
def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Any:
    """Sorted unique values of ``ar1`` that are not in ``ar2``, numpy's ``setdiff1d``
    (with ``assume_unique``, ``ar1``'s values in its own order).

    Examples
    --------
    >>> import numpy as np
    >>> do("setdiff1d", np.array([[5, -2], [5, 7]]), np.array([7, 1]))
    array([-2,  5])
    """
    ar1 = _set_of(ar1, assume_unique)
    return do("compress", do("isin", ar1, ar2, invert=True), ar1)


@composed("setxor1d")
def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Any:
    """Sorted values found in exactly one of the arrays, numpy's ``setxor1d``.

    Examples
    --------
    >>> import numpy as np
    >>> do("setxor1d", np.array([[1, -2], [3, 1]]), np.array([3, 4]))
    array([-2,  1,  4])
    """
    aux = do("sort", do("concatenate", [_set_of(ar1, assume_unique), _set_of(ar2, assume_unique)]))
    if do("size", aux) == 0:
        return aux
    low, high = _neighbours(aux)
    differs = do("not_equal", low, high)
    edge = do("ones", (1,), dtype=bool, like=aux)
    flag = do("concatenate", [edge, differs, edge])
    return do("compress", do("logical_and", flag[1:], flag[:-1]), aux)
