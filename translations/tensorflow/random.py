"""tensorflow's random numbers: a numpy-like ``Generator`` over a
``tf.random.Generator``, and numpy's module-level ``random.*`` functions on one kept
here (``random.seed`` replaces it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf
from dispatch.translations._adapters import default_rng as _default_rng
from dispatch.translations._adapters import stateful_random
from dispatch.translations._composed._distributions import Distributions
from dispatch.translations._keywords import no_out
from dispatch.translations.tensorflow._common import _dt, _t, _to

from dispatch.engine import merge_tables


def _standard_gamma(rng: Generator, shape: tuple, dtype: str, k: Any) -> Any:
    return tf.random.stateless_gamma(list(shape), seed=rng._seed(), alpha=k, dtype=_dt(dtype))


class Generator(Distributions):
    """A numpy-like random generator over a ``tf.random.Generator``.

    Returned by ``do("random.default_rng", seed, like="tensorflow")``; the
    module-level ``random.*`` functions use one kept in this module, which
    ``random.seed`` replaces. Float draws default to float64, as numpy's.

    Examples
    --------
    >>> rng = Generator(42)
    >>> rng.normal(size=(2,)).shape
    TensorShape([2])
    """

    # numpy's other distributions: translations/_composed/_distributions.py, over the
    # draws below (tf's stateless gamma sampler for the gamma family)
    BACKEND = "tensorflow"
    NATIVE = {"standard_gamma": _standard_gamma}  # noqa: RUF012

    def __init__(self, seed: Any = None):
        self._seed_value = seed
        self._gen: Any = None

    @property
    def gen(self) -> Any:
        # made on first use, and outside any tf.function graph: a tf.random.Generator
        # holds a tf.Variable, whose creation inside a trace makes tf.function trace
        # again (importing this table inside a trace would do that)
        if self._gen is None:
            with tf.init_scope():
                seed = self._seed_value
                self._gen = (
                    tf.random.Generator.from_non_deterministic_state()
                    if seed is None
                    else tf.random.Generator.from_seed(int(seed))
                )
        return self._gen

    def _seed(self) -> Any:
        return self.gen.make_seeds(1)[:, 0]

    def _float(self, dtype: Any) -> tf.DType:
        return _dt(dtype) or tf.float64

    def random(self, size: Any = None, dtype: Any = None, out: None = None) -> Any:
        """Uniform floats in [0, 1)."""
        no_out("random.random", "tensorflow", out)
        return self.gen.uniform(_size(size), dtype=self._float(dtype))

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None, dtype: Any = None) -> Any:
        """Uniform floats in [low, high)."""
        dt = self._float(dtype)
        low, high = _to(low, dt), _to(high, dt)
        shape = _size(size, low, high)
        return low + (high - low) * self.gen.uniform(shape, dtype=dt)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, dtype: Any = None) -> Any:
        """Gaussian draws with mean ``loc`` and standard deviation ``scale``."""
        dt = self._float(dtype)
        loc, scale = _to(loc, dt), _to(scale, dt)
        return loc + scale * self.gen.normal(_size(size, loc, scale), dtype=dt)

    def standard_normal(self, size: Any = None, dtype: Any = None, out: None = None) -> Any:
        """Gaussian draws with mean 0 and standard deviation 1."""
        no_out("random.standard_normal", "tensorflow", out)
        return self.gen.normal(_size(size), dtype=self._float(dtype))

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = "int64",
                 endpoint: bool = False) -> Any:
        """Integers in [low, high) (or [low, high] with ``endpoint``)."""
        if high is None:
            low, high = 0, low
        dt = _dt(dtype)
        gen_dt = dt if dt in (tf.int32, tf.int64) else tf.int64
        low_t, high_t = _to(low, gen_dt), _to(high, gen_dt)
        if endpoint:
            high_t = high_t + 1
        shape = _size(size, low_t, high_t)
        if low_t.shape.rank or high_t.shape.rank:
            u = self.gen.uniform(shape, dtype=tf.float64)
            span = tf.cast(high_t - low_t, tf.float64)
            r = low_t + tf.cast(tf.floor(u * span), gen_dt)
        else:
            r = self.gen.uniform(shape, low_t, high_t, dtype=gen_dt)
        return r if gen_dt == dt else tf.cast(r, dt)

    def permutation(self, x: Any, axis: int = 0) -> Any:
        """A shuffled copy of ``x`` along ``axis``, or a permutation of ``range(x)``."""
        if isinstance(x, (int, np.integer)):
            return tf.cast(tf.argsort(self.gen.uniform([int(x)])), tf.int64)
        x = _t(x)
        n = tf.shape(x)[axis]
        return tf.gather(x, tf.argsort(self.gen.uniform([n])), axis=axis)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None,
               axis: int = 0, shuffle: bool = True) -> Any:
        """Draws from ``a`` (an int ``n`` means ``range(n)``)."""
        pool = None if isinstance(a, (int, np.integer)) else _t(a)
        n = int(a) if pool is None else pool.shape[axis]
        shape = _size(size)
        k = int(np.prod(shape, dtype=np.int64))
        if p is None and replace:
            idx = self.gen.uniform([k], 0, n, dtype=tf.int64)
        elif p is None:
            if k > n:
                raise ValueError("Cannot take a larger sample than population when replace=False")
            idx = tf.cast(tf.argsort(self.gen.uniform([n]))[:k], tf.int64)
        else:
            logp = tf.math.log(tf.cast(_t(p), tf.float64))
            if replace:
                idx = tf.random.stateless_categorical(logp[None], k, seed=self._seed())[0]
            else:
                # Gumbel top-k: k draws without replacement, weighted by p
                g = -tf.math.log(-tf.math.log(self.gen.uniform([n], dtype=tf.float64)))
                idx = tf.cast(tf.math.top_k(logp + g, k).indices, tf.int64)
        idx = tf.reshape(idx, shape)
        if pool is None:
            return idx
        return tf.gather(pool, idx, axis=axis)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Exponential draws with mean ``scale``."""
        scale = _to(scale, tf.float64)
        u = self.gen.uniform(_size(size, scale), dtype=tf.float64)
        return -tf.math.log1p(-u) * scale

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Any:
        """Gamma draws with shape ``shape`` and scale ``scale``."""
        k, theta = _to(shape, tf.float64), _to(scale, tf.float64)
        out = _size(size, k, theta)
        g = tf.random.stateless_gamma(out, seed=self._seed(), alpha=k, dtype=tf.float64)
        return g * theta

    def beta(self, a: Any, b: Any, size: Any = None) -> Any:
        """Beta draws with parameters ``a`` and ``b``."""
        a, b = _to(a, tf.float64), _to(b, tf.float64)
        out = _size(size, a, b)
        x = tf.random.stateless_gamma(out, seed=self._seed(), alpha=a, dtype=tf.float64)
        y = tf.random.stateless_gamma(out, seed=self._seed(), alpha=b, dtype=tf.float64)
        return x / (x + y)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        """Poisson draws with rate ``lam``."""
        lam = _to(lam, tf.float64)
        out = _size(size, lam)
        return tf.random.stateless_poisson(out, seed=self._seed(), lam=lam, dtype=tf.int64)

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Binomial draws: successes in ``n`` trials of probability ``p``."""
        n, p = _to(n, tf.float64), _to(p, tf.float64)
        out = _size(size, n, p)
        return self.gen.binomial(out, counts=n, probs=p, dtype=tf.int64)


def _size(size: Any, *params: Any) -> list:
    """numpy's ``size``: None means the broadcast shape of the parameters."""
    if size is None:
        shape: list = []
        for q in params:
            shape = list(np.broadcast_shapes(tuple(shape), tuple(q.shape)))
        return shape
    return [int(size)] if np.ndim(size) == 0 else [int(s) for s in size]


_RNG = [Generator()]


def _seed(seed: Any = None) -> None:
    _RNG[0] = Generator(seed)


TABLE = merge_tables(
    {
        "random.default_rng": _default_rng(Generator),
        "random.seed": _seed,
    },
    stateful_random(_RNG),
    names=("random", "stateful random"),
)
