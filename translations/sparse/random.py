"""pydata sparse: random draws from numpy's generator, stored as sparse arrays.

numpy's generator is kept here (``random.seed`` resets it); draws are stored as
sparse arrays. pydata's own ``sparse.random`` draws a sparsity pattern, which
is not numpy's distribution.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sparse
from dispatch.translations._adapters import default_rng as _default_rng
from dispatch.translations._composed._bound import fill_entries
from dispatch.translations._composed._distributions import DISTRIBUTIONS
from dispatch.translations.sparse._common import dense, sp
from dispatch.translations.sparse.indexing import _take
from sparse import COO

from dispatch.engine import merge_tables

_RNG = [np.random.default_rng()]


def _seed(seed: Any = None) -> None:
    _RNG[0] = np.random.default_rng(seed)


def _draw(method: str) -> Any:
    """numpy's draw as a sparse array; ``density``, ``format`` and ``fill_value`` are
    ``sparse.random``'s keywords (the fraction of entries drawn, the others
    ``fill_value``), which autoray's clients pass to make sparse test arrays."""

    def draw(
        *args: Any,
        dtype: Any = None,
        density: float | None = None,
        format: str | None = None,
        fill_value: Any = None,
        **kwargs: Any,
    ) -> Any:
        out = np.asarray(getattr(_RNG[0], method)(*args, **kwargs))
        if dtype is not None:
            out = out.astype(dtype)
        if density is None and fill_value is None:
            x = COO.from_numpy(out)
        else:
            fill = out.dtype.type(0 if fill_value is None else fill_value)
            kept = _RNG[0].random(out.shape) < (1.0 if density is None else density)
            x = COO.from_numpy(np.where(kept, out, fill), fill_value=fill)
        return x if format is None else x.asformat(format)

    draw.__name__ = draw.__qualname__ = f"_{method}"
    return draw


def _integers(
    low: Any, high: Any = None, size: Any = None, dtype: Any = "int64", endpoint: bool = False
) -> COO:
    return COO.from_numpy(
        np.asarray(_RNG[0].integers(low, high, size, dtype=dtype or "int64", endpoint=endpoint))
    )


def _random(size: Any = None, dtype: Any = "float64") -> COO:
    return COO.from_numpy(np.asarray(_RNG[0].random(size, dtype=dtype or "float64")))


def _permutation(x: Any) -> COO:
    if isinstance(x, (int, np.integer)):
        return COO.from_numpy(_RNG[0].permutation(x))
    x = sp(x)
    return sparse.take(x, _RNG[0].permutation(x.shape[0]), axis=0)


def _choice(a: Any, size: Any = None, replace: bool = True, p: Any = None) -> COO:
    if isinstance(a, (int, np.integer)):
        return COO.from_numpy(
            np.asarray(_RNG[0].choice(a, size, replace=replace, p=None if p is None else dense(p)))
        )
    a = sp(a)
    idx = _RNG[0].choice(a.shape[0], size, replace=replace, p=None if p is None else dense(p))
    return _take(a, np.asarray(idx), axis=0)


def _distribution(method: str) -> Any:
    """numpy's distribution ``method``: sparse parameters made dense first, the draws
    stored as a sparse array (``bytes`` stays bytes); ``out=`` is refused."""

    def draw(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("out") is not None:
            raise TypeError(f"{method}: out= is not supported (it writes in place)")
        args = tuple(dense(a) if isinstance(a, sparse.SparseArray) else a for a in args)
        kwargs = {k: dense(v) if isinstance(v, sparse.SparseArray) else v
                  for k, v in kwargs.items()}
        out = getattr(_RNG[0], method)(*args, **kwargs)
        return out if isinstance(out, bytes) else COO.from_numpy(np.asarray(out))

    draw.__name__ = draw.__qualname__ = f"_{method}"
    return draw


class _Generator:
    """numpy's Generator whose draws come back as sparse arrays."""

    def __init__(self, seed: Any = None):
        self._rng = np.random.default_rng(seed)

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self._rng, name)
        if name.startswith("_") or not callable(fn):
            return fn

        def draw(*args: Any, **kwargs: Any) -> Any:
            out = fn(*args, **kwargs)
            return COO.from_numpy(np.asarray(out)) if out is not None else None

        return draw


TABLE = merge_tables(
    {
        "random.default_rng": _default_rng(_Generator),
        "random.seed": _seed,
        "random.normal": _draw("normal"),
        "random.standard_normal": _draw("standard_normal"),
        "random.uniform": _draw("uniform"),
        "random.integers": _integers,
        "random.randint": _integers,
        "random.random": _random,
        "random.permutation": _permutation,
        "random.choice": _choice,
        "random.exponential": _draw("exponential"),
        "random.gamma": _draw("gamma"),
        "random.beta": _draw("beta"),
        "random.poisson": _draw("poisson"),
        "random.binomial": _draw("binomial"),
    },
    {f"random.{m}": _distribution(m) for m in DISTRIBUTIONS},
    # the legacy draws, over the table's own generator (random.seed repeats them)
    fill_entries("sparse", "random.rand", "random.randn"),
    names=("random", "distributions", "fill entries"),
)
