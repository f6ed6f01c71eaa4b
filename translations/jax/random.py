"""numpy's stateful ``random`` API on jax's explicit PRNG keys: a ``Generator``
with numpy's methods, the module-level draws of the shared stateful-random
adapter (``translations/_adapters.py``) on one generator that ``random.seed``
replaces, and the backend method list's ``random_permutations``. Draws inside
``jit`` use a key fixed at trace time, so a compiled function repeats them."""

from __future__ import annotations

import os
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._adapters import stateful_random
from dispatch.translations._composed._distributions import Distributions

from dispatch.engine import merge_tables


def _size(size: Any, *params: Any) -> tuple[int, ...]:
    """numpy's ``size``: None means the broadcast shape of the parameters."""
    if size is None:
        return jnp.broadcast_shapes(*(jnp.shape(p) for p in params)) if params else ()
    return tuple(size) if np.iterable(size) else (int(size),)


def _held(dtype: Any, default: type) -> Any:
    # the dtype jax holds for the one asked: without 64-bit mode int64 and float64 are
    # drawn as int32 and float32 (jax truncates them anyway, warning each time)
    return jax.dtypes.canonicalize_dtype(jnp.dtype(dtype or default))


def _standard(sampler: Any) -> Any:
    # jax.random's standard samplers (no parameters): key, shape, dtype
    def draw(rng: Generator, shape: tuple, dtype: str) -> Any:
        return sampler(rng._next(), shape, _held(dtype, float))

    return draw


def _permuted(rng: Generator, x: Any, axis: Any) -> Any:
    # independent=True: every slice along the axis shuffled on its own, numpy's permuted
    if axis is None:
        flat = jax.random.permutation(rng._next(), jnp.ravel(x), 0, independent=True)
        return flat.reshape(jnp.shape(x))
    return jax.random.permutation(rng._next(), x, int(axis), independent=True)


def _multivariate_normal(rng: Generator, shape: tuple, dtype: str, mean: Any, cov: Any,
                         method: str) -> Any:
    return jax.random.multivariate_normal(rng._next(), mean, cov, shape[:-1],
                                          _held(dtype, float), method)


class Generator(Distributions):
    """numpy's ``random.Generator`` methods on a jax PRNG key.

    The key is split on every draw, so draws differ and a generator made with
    the same seed repeats them exactly. Returned by
    ``do("random.default_rng", seed, like="jax")``.

    Parameters
    ----------
    seed : int, jax key array, or None
        Seed of the key; None takes fresh entropy from the operating system.

    Examples
    --------
    >>> rng = Generator(0)
    >>> rng.normal(size=(2,)).shape
    (2,)
    >>> bool((Generator(1).uniform(size=3) == Generator(1).uniform(size=3)).all())
    True
    """

    __slots__ = ("_key", "_raw", "_seed")

    # numpy's other distributions: translations/_composed/_distributions.py, with
    # jax.random's own samplers where their parametrisation is numpy's
    BACKEND = "jax"
    NATIVE = {  # noqa: RUF012
        "standard_exponential": _standard(jax.random.exponential),
        "standard_cauchy": _standard(jax.random.cauchy),
        "gumbel": _standard(jax.random.gumbel),
        "laplace": _standard(jax.random.laplace),
        "logistic": _standard(jax.random.logistic),
        "standard_gamma": lambda rng, shape, dtype, k: jax.random.gamma(
            rng._next(), k, shape, _held(dtype, float)),
        "standard_t": lambda rng, shape, dtype, df: jax.random.t(
            rng._next(), df, shape, _held(dtype, float)),
        "triangular": lambda rng, shape, dtype, lo, mid, hi: jax.random.triangular(
            rng._next(), lo, mid, hi, shape, _held(dtype, float)),
        "permuted": _permuted,
        "multivariate_normal": _multivariate_normal,
    }

    def _default_float(self) -> str:
        return _held(None, float).name

    def _wide(self) -> str:  # without 64-bit mode jax holds float32
        return _held(np.float64, float).name

    def _count(self) -> str:
        return _held(np.int64, int).name

    def __init__(self, seed: Any = None):
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        self._seed = seed
        self._key: Any = None  # made on the first draw: importing stays cheap

    def _next(self) -> Any:
        # split outside any jit trace, so that the stored key never becomes a tracer
        with jax.ensure_compile_time_eval():
            if self._key is None:
                seed = self._seed
                is_key = hasattr(seed, "dtype") and jnp.issubdtype(seed.dtype, jax.dtypes.prng_key)
                self._key = seed if is_key else jax.random.key(seed)
            self._key, sub = jax.random.split(self._key)
        return sub

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, dtype: Any = None):
        """Normal draws, numpy's ``Generator.normal`` (``dtype`` added)."""
        z = jax.random.normal(self._next(), _size(size, loc, scale), _held(dtype, float))
        return loc + scale * z

    def standard_normal(self, size: Any = None, dtype: Any = None) -> Any:
        """Standard normal draws."""
        return jax.random.normal(self._next(), _size(size), _held(dtype, float))

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None, dtype: Any = None):
        """Uniform draws on ``[low, high)``."""
        u = jax.random.uniform(self._next(), _size(size, low, high), _held(dtype, float))
        return low + (high - low) * u

    def random(self, size: Any = None, dtype: Any = None) -> Any:
        """Uniform draws on ``[0, 1)``."""
        return jax.random.uniform(self._next(), _size(size), _held(dtype, float))

    def integers(
        self,
        low: Any,
        high: Any = None,
        size: Any = None,
        dtype: Any = None,
        endpoint: bool = False,
    ) -> Any:
        """Integers on ``[low, high)`` (``[0, low)`` with one bound; ``]`` with endpoint)."""
        if high is None:
            low, high = 0, low
        if endpoint:
            high = high + 1
        shape = _size(size, low, high)
        return jax.random.randint(self._next(), shape, low, high, _held(dtype, int))

    def permutation(self, x: Any, axis: int = 0) -> Any:
        """A permuted ``arange(x)``, or ``x`` shuffled along ``axis``."""
        return jax.random.permutation(self._next(), x, axis)

    def choice(
        self, a: Any, size: Any = None, replace: bool = True, p: Any = None, axis: int = 0
    ) -> Any:
        """Draws from ``a`` (or ``arange(a)``), with or without replacement."""
        return jax.random.choice(self._next(), a, _size(size), replace, p, axis)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Exponential draws."""
        return scale * jax.random.exponential(self._next(), _size(size, scale), float)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Any:
        """Gamma draws."""
        return scale * jax.random.gamma(self._next(), shape, _size(size, shape, scale), float)

    def beta(self, a: Any, b: Any, size: Any = None) -> Any:
        """Beta draws."""
        return jax.random.beta(self._next(), a, b, _size(size, a, b), float)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        """Poisson draws (integers)."""
        return jax.random.poisson(self._next(), lam, _size(size, lam), int)

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Binomial draws (integers, as numpy; jax draws them as floats)."""
        return jax.random.binomial(self._next(), n, p, _size(size, n, p)).astype(int)


# the generator behind the module-level draws: kept here rather than as global
# library state, and replaced by ``random.seed``
_RNG = [Generator()]


def _seed(seed: Any = None) -> None:
    _RNG[0] = Generator(seed)


def _default_rng(seed: Any = None) -> Generator:
    return seed if isinstance(seed, Generator) else Generator(seed)


def _random_permutations(permutations: int, n: int) -> Any:
    # one key per row from the seeded generator, permuted together by vmap
    keys = jax.random.split(_RNG[0]._next(), int(permutations))
    rows = jax.vmap(lambda key: jax.random.permutation(key, int(n)))(keys)
    return rows.astype(jax.dtypes.canonicalize_dtype(np.int64))


TABLE = merge_tables(
    {
        "random.seed": _seed,
        "random.default_rng": _default_rng,
        "random_permutations": _random_permutations,
    },
    stateful_random(_RNG),
    names=("random", "stateful random"),
)
