"""Random methods of the backend method list, over each table's ``random.*``.

Every draw goes through the library's ``random.*`` names (``random.seed``,
``random.uniform``, ``random.normal``, ``random.integers``,
``random.permutation``), whose tables keep one generator per library (jax keys
are split for the user), so ``seed(s)`` makes every draw below repeat exactly.

These functions create arrays from no array, so they take the backend as a
keyword and are bound to each library in its table (:mod:`._bound`).
Without a dtype they draw in the current precision when one is set, else in
the library's default float type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed.devices import np_dtype

from dispatch.engine import backend_of_type, do, get_precision, is_array


def _shape(shape: Any) -> tuple[int, ...]:
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)


def seed(seed: int | None, *, backend: str) -> None:
    """Seed the library's generator, behind every random method and ``random.*`` draw:
    the draws that follow repeat exactly for the same seed (None: a fresh seed).

    Examples
    --------
    >>> do("seed", 0, like="numpy")
    >>> first = do("random_uniform", (3,), like="numpy")
    >>> do("seed", 0, like="numpy")
    >>> bool((do("random_uniform", (3,), like="numpy") == first).all())
    True
    """
    do("random.seed", seed, like=backend)


def _float_dtype(dtype: Any) -> str | None:
    if dtype is not None:
        return np_dtype(dtype).name
    return None if get_precision() is None else f"float{get_precision()}"


def random_uniform(
    shape: Any, low: Any = 0, high: Any = 1, dtype: Any = None, *, backend: str
) -> Any:
    """Uniform values in ``[low, high)`` of ``shape``: floats, integers (``high``
    excluded), complex (real and imaginary parts each uniform between the real
    and imaginary parts of ``low`` and ``high``) or bools.

    Examples
    --------
    >>> do("seed", 1, like="numpy")
    >>> do("random_uniform", (2, 3), 0, 10, dtype="int64", like="numpy")
    array([[4, 5, 7],
           [9, 0, 1]])
    >>> x = do("random_uniform", (1000,), -1.0, 1.0, like="numpy")
    >>> x.dtype, bool(x.min() >= -1.0), bool(x.max() < 1.0)
    (dtype('float64'), True, True)
    """
    shape = _shape(shape)
    name = _float_dtype(dtype)
    kind = "f" if name is None else np.dtype(name).kind if name != "bfloat16" else "f"
    if kind == "f":
        return do("random.uniform", low, high, size=shape, dtype=name, like=backend)
    if kind in "iu":
        return do("random.integers", int(low), int(high), size=shape, dtype=name, like=backend)
    if kind == "b":
        bits = do("random.integers", 0, 2, size=shape, dtype="int64", like=backend)
        return do("astype", bits, "bool")
    part = "float64" if np.dtype(name).itemsize == 16 else "float32"
    lo, hi = complex(low), complex(high)
    re = do("random.uniform", lo.real, hi.real, size=shape, dtype=part, like=backend)
    im = do("random.uniform", lo.imag, hi.imag, size=shape, dtype=part, like=backend)
    return do("astype", do("complex", re, im), name)


def random_normal(shape: Any, dtype: Any = None, *, backend: str) -> Any:
    """Standard normal values of ``shape`` (complex: real and imaginary parts
    each with variance 1/2).

    Examples
    --------
    >>> do("seed", 2, like="numpy")
    >>> do("random_normal", (2, 3), like="numpy").shape
    (2, 3)
    >>> do("random_normal", (2,), dtype="complex64", like="numpy").dtype
    dtype('complex64')
    """
    shape = _shape(shape)
    name = _float_dtype(dtype)
    if name is None or np.dtype(name).kind == "f":
        return do("random.normal", 0.0, 1.0, size=shape, dtype=name, like=backend)
    part = "float64" if np.dtype(name).itemsize == 16 else "float32"
    re = do("random.normal", 0.0, 0.5**0.5, size=shape, dtype=part, like=backend)
    im = do("random.normal", 0.0, 0.5**0.5, size=shape, dtype=part, like=backend)
    return do("astype", do("complex", re, im), name)


def random_permutations(permutations: int, n: int, *, backend: str) -> Any:
    """``permutations`` independent shuffles of ``range(n)``, shape
    (permutations, n), int64.

    Examples
    --------
    >>> do("seed", 3, like="numpy")
    >>> do("random_permutations", 2, 4, like="numpy")
    array([[3, 2, 1, 0],
           [3, 1, 0, 2]])
    """
    if permutations == 0 or n == 0:
        return do("zeros", (permutations, n), dtype="int64", like=backend)
    rows = [do("random.permutation", n, like=backend) for _ in range(permutations)]
    return do("astype", do("stack", rows), "int64")


def random_subsets(
    element_count: int,
    subset_size: int,
    subset_count: int,
    allow_duplicates: bool,
    element_weights: Any = None,
    *,
    backend: str,
) -> Any:
    """``subset_count`` random subsets of ``subset_size`` indices into
    ``range(element_count)``, shape (subset_count, subset_size), int64.

    With ``allow_duplicates`` indices are drawn with replacement, else without.
    ``element_weights`` (element_count,) makes index ``i`` proportionally more
    likely (without replacement: successive weighted draws, as numpy's
    ``choice(replace=False, p=...)``).

    Examples
    --------
    >>> do("seed", 4, like="numpy")
    >>> do("random_subsets", 5, 3, 2, False, like="numpy")
    array([[3, 1, 4],
           [2, 0, 4]])
    >>> import numpy as np
    >>> weights = np.array([0.0, 0.0, 1.0, 1.0])  # only 2 and 3 can be drawn
    >>> picks = do("random_subsets", 4, 3, 2, True, weights, like="numpy")
    >>> picks.shape, bool(np.isin(picks, [2, 3]).all())
    ((2, 3), True)
    """
    n, k, c = int(element_count), int(subset_size), int(subset_count)
    if not allow_duplicates and k > n:
        raise ValueError(f"cannot draw {k} distinct elements out of {n}")
    if c == 0 or k == 0:
        return do("zeros", (c, k), dtype="int64", like=backend)
    if element_weights is None:
        if allow_duplicates:
            return do("random.integers", 0, n, size=(c, k), dtype="int64", like=backend)
        keys = do("random.uniform", 0.0, 1.0, size=(c, n), like=backend)
        return do("astype", do("argsort", keys, axis=-1)[:, :k], "int64")
    w = element_weights
    if not is_array(w) or backend_of_type(type(w)) != backend:  # lists, numpy: to the backend
        w = do("asarray", np.asarray(do("to_numpy", w) if is_array(w) else w), like=backend)
    w = do("astype", w, "float64")
    if allow_duplicates:
        cdf = do("cumsum", w)
        u = do("random.uniform", 0.0, 1.0, size=(c * k,), dtype="float64", like=backend)
        idx = do("searchsorted", cdf, u * cdf[n - 1], side="right")
        idx = do("clip", do("astype", idx, "int64"), 0, n - 1)
        return do("reshape", idx, (c, k))
    # Efraimidis-Spirakis: the k largest u ** (1 / w) are a weighted sample without replacement
    u = do("random.uniform", 0.0, 1.0, size=(c, n), dtype="float64", like=backend)
    keys = do("log", u) / w
    return do("astype", do("argsort", -keys, axis=-1)[:, :k], "int64")


__all__: Sequence[str] = [
    "random_normal",
    "random_permutations",
    "random_subsets",
    "random_uniform",
    "seed",
]
