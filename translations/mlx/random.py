"""numpy's stateful ``random`` API on mlx's explicit PRNG keys.

A ``Generator`` with numpy's methods splits its key on every draw (so a generator
made with the same seed repeats every draw, and ``random.seed`` never touches
mlx's global key); the module-level draws of the shared stateful-random adapter
(``translations/_adapters.py``) use one generator that ``random.seed`` replaces.
mlx has uniform, normal, integer, Gumbel, Laplace, categorical, permutation and
multivariate-normal samplers; gamma (Marsaglia and Tsang's), Poisson and binomial
draws (inverse CDFs, one step per count) are written with them, eagerly: the
rejection steps read on the host whether any lane is still to be drawn. Floats
come in mlx's default float32 unless ``dtype`` asks otherwise.
"""

from __future__ import annotations

import math
import os
from typing import Any

import mlx.core as mx
import numpy as np
from dispatch.translations._adapters import stateful_random
from dispatch.translations._composed._distributions import Distributions
from dispatch.translations.mlx._common import mx_dtype
from dispatch.translations.mlx.devices import _asarray

from dispatch.engine import merge_tables


def _p(x: Any) -> Any:
    return x if isinstance(x, mx.array) else _asarray(x)


def _size(size: Any, *params: Any) -> tuple[int, ...]:
    """numpy's ``size``: None means the broadcast shape of the parameters."""
    if size is None:
        shapes = [tuple(p.shape) if isinstance(p, mx.array) else np.shape(p) for p in params]
        return tuple(np.broadcast_shapes(*shapes)) if shapes else ()
    return tuple(int(s) for s in size) if np.iterable(size) else (int(size),)


def _float(dtype: Any) -> Any:
    return mx.float32 if dtype is None else mx_dtype(dtype)


# mlx's gumbel and laplace draw through its uniform, which has no float64 kernel
# ("[uniform] Unsupported type"): float64 draws come from the float64 exponentials
# and uniforms of this generator (the composed formulas)
def _gumbel(rng: Any, shape: tuple, dtype: Any) -> Any:
    if _float(dtype) == mx.float64:
        return -mx.log(rng._exp(shape, dtype))
    return mx.random.gumbel(shape, _float(dtype), key=rng._next())


def _laplace(rng: Any, shape: tuple, dtype: Any) -> Any:
    if _float(dtype) == mx.float64:
        u, e = rng._uniform(shape, dtype), rng._exp(shape, dtype)
        return mx.where(u < 0.5, -e, e)
    return mx.random.laplace(shape, _float(dtype), key=rng._next())


def _cast(x: Any, like: Any) -> Any:
    """A parameter in the dtype of the draws it scales."""
    return _p(x).astype(like.dtype) if isinstance(x, (mx.array, np.ndarray)) else x


def _unit(shape: tuple, dtype: Any, key: Any) -> Any:
    """Uniform draws on [0, 1); in float64 (which mlx's uniform sampler refuses) from
    53 random bits, two integer draws of 26 and 27 bits."""
    if dtype != mx.float64:
        return mx.random.uniform(0, 1, shape, dtype, key=key)
    k1, k2 = mx.random.split(key)
    hi = mx.random.randint(0, 1 << 26, shape, mx.int64, key=k1).astype(mx.float64)
    lo = mx.random.randint(0, 1 << 27, shape, mx.int64, key=k2).astype(mx.float64)
    return (hi * (1 << 27) + lo) / float(1 << 53)


class Generator(Distributions):
    """numpy's ``random.Generator`` methods on an mlx PRNG key.

    Returned by ``do("random.default_rng", seed, like="mlx")``.

    Parameters
    ----------
    seed : int or None
        Seed of the key; None takes fresh entropy from the operating system.

    Examples
    --------
    >>> rng = Generator(0)
    >>> rng.normal(size=(2,)).shape
    (2,)
    """

    __slots__ = ("_key", "_raw", "_seed")

    BACKEND = "mlx"
    NATIVE = {  # noqa: RUF012
        "gumbel": lambda rng, shape, dtype: _gumbel(rng, shape, dtype),
        "laplace": lambda rng, shape, dtype: _laplace(rng, shape, dtype),
    }

    def _default_float(self) -> str:
        return "float32"

    def __init__(self, seed: Any = None):
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        self._seed = int(seed)
        self._key: Any = None
        self._raw = {}

    def _next(self) -> Any:
        if self._key is None:
            self._key = mx.random.key(self._seed)
        self._key, sub = mx.random.split(self._key)
        return sub

    def random(self, size: Any = None, dtype: Any = None) -> Any:
        """Uniform draws on ``[0, 1)``."""
        return _unit(_size(size), _float(dtype), self._next())

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None,
                dtype: Any = None) -> Any:
        """Uniform draws on ``[low, high)``."""
        u = _unit(_size(size, low, high), _float(dtype), self._next())
        return _cast(low, u) + (_cast(high, u) - _cast(low, u)) * u

    def standard_normal(self, size: Any = None, dtype: Any = None) -> Any:
        """Standard normal draws."""
        return mx.random.normal(_size(size), _float(dtype), key=self._next())

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None,
               dtype: Any = None) -> Any:
        """Normal draws, numpy's ``Generator.normal`` (``dtype`` added)."""
        z = mx.random.normal(_size(size, loc, scale), _float(dtype), key=self._next())
        return _cast(loc, z) + _cast(scale, z) * z

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = None,
                 endpoint: bool = False) -> Any:
        """Integers on ``[low, high)`` (``[0, low)`` with one bound; ``]`` with endpoint)."""
        if high is None:
            low, high = 0, low
        if endpoint:
            high = high + 1
        dt = mx.int64 if dtype is None else mx_dtype(dtype)
        return mx.random.randint(low, high, _size(size, low, high), dt, key=self._next())

    def permutation(self, x: Any, axis: int = 0) -> Any:
        """A permuted ``arange(x)``, or ``x`` shuffled along ``axis``."""
        if isinstance(x, (int, np.integer)):
            return mx.random.permutation(int(x), key=self._next()).astype(mx.int64)
        return mx.random.permutation(_p(x), axis, key=self._next())

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None,
               axis: int = 0) -> Any:
        """Draws from ``a`` (or ``arange(a)``), with or without replacement."""
        pool = mx.arange(int(a), dtype=mx.int64) if isinstance(a, (int, np.integer)) else _p(a)
        n = pool.shape[axis]
        shape = _size(size)
        count = math.prod(shape)
        if replace:
            if p is None:
                idx = mx.random.randint(0, n, (count,), mx.int64, key=self._next())
            else:
                idx = mx.random.categorical(mx.log(_p(p).astype(mx.float32)),
                                            num_samples=count, key=self._next())
        else:
            if count > n:
                raise ValueError("Cannot take a larger sample than population when "
                                 "replace is False")
            if p is None:
                idx = mx.random.permutation(n, key=self._next())[:count]
            else:
                # Gumbel top-k: the k largest of log p + Gumbel noise, without repeats
                g = mx.log(_p(p).astype(mx.float32)) + mx.random.gumbel((n,), key=self._next())
                idx = mx.argsort(-g)[:count]
        out = mx.take(pool, idx.astype(mx.int64), axis=axis)
        new_shape = pool.shape[:axis] + shape + pool.shape[axis + 1:]
        return out.reshape(new_shape)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Exponential draws."""
        u = mx.random.uniform(0, 1, _size(size, scale), mx.float32, key=self._next())
        return -_cast(scale, u) * mx.log1p(-u)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Any:
        """Gamma draws (Marsaglia and Tsang's method, redrawn where rejected; eager)."""
        out_shape = _size(size, shape, scale)
        k = mx.broadcast_to(_p(shape).astype(mx.float32), out_shape)
        # k < 1: draw with k + 1 and scale by U^(1/k)
        small = k < 1
        kk = mx.where(small, k + 1, k)
        d = kk - 1 / 3
        c = 1 / mx.sqrt(9 * d)
        out = mx.zeros(out_shape, mx.float32)
        todo = mx.ones(out_shape, mx.bool_)
        for _ in range(64):
            z = mx.random.normal(out_shape, key=self._next())
            v = (1 + c * z) ** 3
            u = mx.random.uniform(0, 1, out_shape, key=self._next())
            ok = (v > 0) & (mx.log(mx.maximum(u, 1e-38)) < 0.5 * z * z + d - d * mx.maximum(
                v, 1e-38) + d * mx.log(mx.maximum(v, 1e-38)))
            take = todo & ok
            out = mx.where(take, d * v, out)
            todo = todo & ~ok
            if not mx.any(todo).item():
                break
        boost = mx.random.uniform(0, 1, out_shape, key=self._next()) ** (1 / mx.where(
            small, k, 1))
        out = mx.where(small, out * boost, out)
        return out * _cast(scale, out)

    def beta(self, a: Any, b: Any, size: Any = None) -> Any:
        """Beta draws, as the ratio of two gamma draws."""
        shape = _size(size, a, b)
        x, y = self.gamma(a, 1.0, shape), self.gamma(b, 1.0, shape)
        return x / (x + y)

    def _counts(self, pmf0: Any, ratio: Any, shape: tuple, limit: Any) -> Any:
        """Inverse-CDF draws of a count: the first k whose CDF passes a uniform."""
        u = mx.random.uniform(0, 1, shape, mx.float32, key=self._next())
        pmf, cdf = pmf0, pmf0
        k = mx.zeros(shape, mx.int64)
        todo = u > cdf
        step = 0
        while mx.any(todo).item() and step < 100000:
            pmf = pmf * ratio(k.astype(mx.float32))
            cdf = cdf + pmf
            k = mx.where(todo, k + 1, k)
            todo = todo & (u > cdf) & (k < limit)
            step += 1
        return k

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        """Poisson draws (integers; inverse CDF, eager)."""
        shape = _size(size, lam)
        lam = mx.broadcast_to(_p(lam).astype(mx.float32), shape)
        return self._counts(mx.exp(-lam), lambda k: lam / (k + 1), shape, mx.array(2**62))

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Binomial draws (integers; inverse CDF, eager)."""
        shape = _size(size, n, p)
        n = mx.broadcast_to(_p(n).astype(mx.float32), shape)
        p = mx.broadcast_to(_p(p).astype(mx.float32), shape)
        q = 1 - p
        odds = p / mx.where(q == 0, 1, q)
        pmf0 = mx.power(q, n)
        k = self._counts(pmf0, lambda k: (n - k) / (k + 1) * odds, shape, n.astype(mx.int64))
        return mx.where(p >= 1, n.astype(mx.int64), k)


# the generator behind the module-level draws: kept here rather than as mlx's global
# key, and replaced by ``random.seed``
_RNG = [Generator()]


def _seed(seed: Any = None) -> None:
    _RNG[0] = Generator(seed)


def _default_rng(seed: Any = None) -> Generator:
    return seed if isinstance(seed, Generator) else Generator(seed)


def _random_permutations(permutations: int, n: int) -> Any:
    rows = [mx.random.permutation(int(n), key=_RNG[0]._next()) for _ in range(int(permutations))]
    return mx.stack(rows).astype(mx.int64) if rows else mx.zeros((0, int(n)), mx.int64)


TABLE = merge_tables(
    {
        "random.seed": _seed,
        "random.default_rng": _default_rng,
        "random_permutations": _random_permutations,
    },
    stateful_random(_RNG),
    names=("random", "stateful random"),
)
