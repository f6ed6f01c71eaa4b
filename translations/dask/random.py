"""dask: random draws from one generator kept here, lazy.

``random.seed`` replaces the generator, so every draw is reproducible. The draws
that take numpy's ``dtype`` (which dask's generator lacks) are adapted here; the
others, and the legacy ``rand``/``randn``/``randint``, are the shared
stateful-random entries (``translations/_adapters.py``) over the same generator.
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np
from dask.array import Array
from dispatch.translations._adapters import stateful_random
from dispatch.translations._composed._distributions import DISTRIBUTIONS, Distributions

from dispatch.engine import merge_tables


def _dask_native(name: str) -> Any:
    # dask's own sampler (numpy's, chunk by chunk), given the parameters as host
    # constants: lazy where the composed one reads values (rejection samplers redraw
    # until accepted) or would hand dask's samplers dask arrays, which they compute
    def draw(rng: Any, shape: tuple, dtype: str, *params: Any) -> Array:
        if not shape:  # dask's samplers fail on size=() at compute: one draw, reshaped
            return getattr(da.random.Generator, name)(rng, *params, size=(1,)).reshape(())
        return getattr(da.random.Generator, name)(rng, *params, size=shape)

    return draw


def _multinomial(rng: Any, shape: tuple, dtype: str, n: Any, pvals: Any) -> Array | None:
    # dask's multinomial takes one count and one 1-d pvals (as a list): other forms are
    # the composed conditional binomials (whose dask-array counts dask then computes)
    if np.ndim(n) or np.ndim(pvals) != 1:
        return None
    k = np.shape(pvals)[0]
    draws = da.random.Generator.multinomial(rng, int(n), np.asarray(pvals).tolist(),
                                            size=shape or (1,))
    return draws if shape else draws.reshape((k,))


class Generator(Distributions, da.random.Generator):
    """dask's random ``Generator``, with numpy's distributions that dask lacks
    (``dirichlet``, ``multivariate_normal``, ``permuted``, ``bytes``) and numpy's
    parameter checks at the call (translations/_composed/_distributions.py); the
    draws are dask's own where they read no values.

    Examples
    --------
    >>> rng = Generator(da.random.default_rng(3)._bit_generator)
    >>> rng.gumbel(1.0, 2.0, size=(2, 3)).shape
    (2, 3)
    """

    BACKEND = "dask"
    LAZY = True
    NATIVE = {  # noqa: RUF012
        n: _dask_native(n)
        for n in ("standard_exponential", "standard_cauchy", "standard_gamma", "gumbel",
                  "laplace", "logistic", "standard_t", "triangular", "vonmises", "zipf",
                  "logseries", "hypergeometric", "negative_binomial", "noncentral_chisquare",
                  "noncentral_f")
    }
    NATIVE["multinomial"] = _multinomial


def _default_rng(seed: Any = None) -> Generator:
    if isinstance(seed, Generator):
        return seed
    return Generator(da.random.default_rng(seed)._bit_generator)


# one generator kept here, so that ``random.seed`` makes every draw reproducible
_RNG = [_default_rng()]


def _seed(seed: Any = None) -> None:
    _RNG[0] = _default_rng(seed)


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
        "random.default_rng": _default_rng,
        "random.seed": _seed,
        "random.normal": _normal,
        "random.standard_normal": _standard_normal,
        "random.uniform": _uniform,
        "random.integers": _integers,
        "random.random": _random,
    },
    stateful_random(
        _RNG,
        ("permutation", "choice", "exponential", "gamma", "beta", "poisson", "binomial",
         *DISTRIBUTIONS),
    ),
    names=("random", "stateful random"),
)
