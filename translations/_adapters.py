"""Adapters shared by two or more translation tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

# numpy.random.Generator methods that a table's own generator class provides
RANDOM_METHODS = (
    "random",
    "normal",
    "uniform",
    "standard_normal",
    "integers",
    "permutation",
    "choice",
    "exponential",
    "gamma",
    "beta",
    "poisson",
    "binomial",
)


def stateful_random(holder: list, methods: tuple[str, ...] = RANDOM_METHODS) -> dict[str, Callable]:
    """Table entries for numpy's module-level ``random.*`` functions.

    ``holder[0]`` is the table's generator object, with numpy's ``Generator``
    methods; ``random.seed`` replaces it, so every draw looks it up anew.
    Also gives the legacy spellings ``random.rand``, ``random.randn`` and
    ``random.randint``.
    """

    def drawing(method: str) -> Callable:
        def draw(*args: Any, **kwargs: Any) -> Any:
            return getattr(holder[0], method)(*args, **kwargs)

        draw.__name__ = draw.__qualname__ = f"random_{method}"
        return draw

    def rand(*shape: int) -> Any:
        return holder[0].random(shape)

    def randn(*shape: int) -> Any:
        return holder[0].standard_normal(shape)

    def randint(low: Any, high: Any = None, size: Any = None, dtype: Any = "int64") -> Any:
        return holder[0].integers(low, high, size, dtype=dtype)

    entries = {f"random.{m}": drawing(m) for m in methods}
    entries.update({"random.rand": rand, "random.randn": randn, "random.randint": randint})
    return entries


def argnums(wrt: Any) -> tuple[tuple[int, ...], bool]:
    """Argument indices to differentiate and whether ``wrt`` was a single int."""
    if isinstance(wrt, (int, np.integer)):
        return (int(wrt),), True
    return tuple(int(i) for i in wrt), False


def first_output(out: Any) -> Any:
    """The value to differentiate: ``f``'s output, or the first entry of a tuple/list."""
    return out[0] if isinstance(out, (tuple, list)) else out
