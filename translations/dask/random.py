"""dask: random draws from one generator kept here, lazy.

``random.seed`` replaces the generator, so every draw is reproducible. The draws
that take numpy's ``dtype`` (which dask's generator lacks) are adapted here; the
others, and the legacy ``rand``/``randn``/``randint``, are the shared
stateful-random entries (``translations/_adapters.py``) over the same generator.
"""

from __future__ import annotations

from typing import Any

import dask.array as da
from dask.array import Array
from dispatch.translations._adapters import stateful_random

from dispatch.engine import NATIVE, merge_tables

# one generator kept here, so that ``random.seed`` makes every draw reproducible
_RNG = [da.random.default_rng()]


def _seed(seed: Any = None) -> None:
    _RNG[0] = da.random.default_rng(seed)


def _cast(out: Array, dtype: Any) -> Array:
    return out if dtype is None else out.astype(dtype)


def _normal(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, dtype: Any = None) -> Array:
    return _cast(_RNG[0].normal(loc, scale, size), dtype)


def _standard_normal(size: Any = None, dtype: Any = None) -> Array:
    return _cast(_RNG[0].standard_normal(size), dtype)


def _uniform(low: Any = 0.0, high: Any = 1.0, size: Any = None, dtype: Any = None) -> Array:
    return _cast(_RNG[0].uniform(low, high, size), dtype)


def _integers(
    low: Any, high: Any = None, size: Any = None, dtype: Any = "int64", endpoint: bool = False
) -> Array:
    return _RNG[0].integers(low, high, size, dtype=dtype or "int64", endpoint=endpoint)


def _random(size: Any = None, dtype: Any = "float64") -> Array:
    return _RNG[0].random(size, dtype=dtype or "float64")


TABLE = merge_tables(
    {
        "random.default_rng": NATIVE,
        "random.seed": _seed,
        "random.normal": _normal,
        "random.standard_normal": _standard_normal,
        "random.uniform": _uniform,
        "random.integers": _integers,
        "random.random": _random,
    },
    stateful_random(
        _RNG, ("permutation", "choice", "exponential", "gamma", "beta", "poisson", "binomial")
    ),
    names=("random", "stateful random"),
)
