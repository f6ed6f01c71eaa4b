"""numpy's stateful ``random`` API on paddle: a ``Generator`` with numpy's methods,
the module-level draws of the shared stateful-random adapter on one generator that
``random.seed`` replaces, and the backend method list's ``random_permutations``.

paddle's own samplers draw from one process-wide state (``paddle.seed``), which a
generator object cannot own. Each :class:`Generator` therefore holds its own
paddle RNG state (``paddle.get_rng_state``) and swaps it in around each draw, so
that two generators made with the same seed repeat each other and neither
disturbs the user's ``paddle.seed`` stream. numpy's other distributions are
written once over these draws (``translations/_composed/_distributions.py``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import paddle
from dispatch.translations._adapters import stateful_random
from dispatch.translations._composed._distributions import Distributions
from dispatch.translations.paddle._common import _dtype

from dispatch.engine import merge_tables


def _size(size: Any, *params: Any) -> list[int]:
    if size is None:
        shapes = [tuple(p.shape) if isinstance(p, paddle.Tensor) else np.shape(p)
                  for p in params]
        return list(np.broadcast_shapes(*shapes)) if shapes else []
    return [int(s) for s in size] if np.iterable(size) else [int(size)]


class Generator(Distributions):
    """numpy's ``random.Generator`` methods drawn by paddle's samplers.

    Parameters
    ----------
    seed : int or None
        Seed of the generator's own paddle RNG state; None takes fresh entropy.

    Examples
    --------
    >>> a = Generator(1).uniform(size=3)
    >>> bool((a == Generator(1).uniform(size=3)).all())
    True
    """

    __slots__ = ("_raw", "_state")
    BACKEND = "paddle"

    def __init__(self, seed: Any = None):
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        with _kept_state():
            paddle.seed(int(seed))
            self._state = paddle.get_rng_state()

    @contextlib.contextmanager
    def _drawing(self) -> Iterator[None]:
        with _kept_state():
            paddle.set_rng_state(self._state)
            try:
                yield
            finally:
                self._state = paddle.get_rng_state()

    def standard_normal(self, size: Any = None, dtype: Any = None) -> Any:
        """Standard normal draws."""
        with self._drawing():
            return paddle.randn(_size(size), dtype=_dtype(dtype) or "float64")

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None,
               dtype: Any = None) -> Any:
        """Normal draws."""
        return loc + scale * self.standard_normal(_size(size, loc, scale), dtype)

    def random(self, size: Any = None, dtype: Any = None) -> Any:
        """Uniform draws on ``[0, 1)``."""
        with self._drawing():
            return paddle.rand(_size(size), dtype=_dtype(dtype) or "float64")

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None,
                dtype: Any = None) -> Any:
        """Uniform draws on ``[low, high)``."""
        return low + (high - low) * self.random(_size(size, low, high), dtype)

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = None,
                 endpoint: bool = False) -> Any:
        """Integers on ``[low, high)`` (``[0, low)`` with one bound; ``]`` with endpoint)."""
        if high is None:
            low, high = 0, low
        if endpoint:
            high = high + 1
        shape = _size(size, low, high)
        if isinstance(low, (int, np.integer)) and isinstance(high, (int, np.integer)):
            with self._drawing():
                out = paddle.randint(int(low), int(high), shape, dtype="int64")
        else:
            u = self.random(shape)
            low_t = paddle.to_tensor(np.asarray(low), dtype="float64")
            high_t = paddle.to_tensor(np.asarray(high), dtype="float64")
            out = paddle.floor(low_t + (high_t - low_t) * u).astype("int64")
        return out if dtype is None else out.astype(_dtype(dtype))

    def permutation(self, x: Any, axis: int = 0) -> Any:
        """A permuted ``arange(x)``, or ``x`` shuffled along ``axis``."""
        if isinstance(x, (int, np.integer)):
            with self._drawing():
                return paddle.randperm(int(x), dtype="int64")
        if not isinstance(x, paddle.Tensor):
            x = paddle.to_tensor(np.asarray(x))
        with self._drawing():
            order = paddle.randperm(x.shape[axis], dtype="int64")
        return paddle.index_select(x, order, axis=axis)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None,
               axis: int = 0) -> Any:
        """Draws from ``a`` (or ``arange(a)``), with or without replacement."""
        pool = paddle.arange(int(a), dtype="int64") if isinstance(a, (int, np.integer)) else (
            a if isinstance(a, paddle.Tensor) else paddle.to_tensor(np.asarray(a)))
        n = pool.shape[axis]
        shape = _size(size) if size is not None else []
        count = int(np.prod(shape)) if shape else 1
        if p is None and replace:
            idx = self.integers(0, n, [count])
        elif p is None:
            if count > n:
                raise ValueError("Cannot take a larger sample than population when "
                                 "replace=False")
            idx = self.permutation(n)[:count]
        else:
            probs = p if isinstance(p, paddle.Tensor) else paddle.to_tensor(
                np.asarray(p, dtype=np.float64))
            with self._drawing():
                idx = paddle.multinomial(probs.astype("float32"), count, replacement=replace)
        out = paddle.index_select(pool, idx, axis=axis)
        if size is None:
            return out.squeeze(axis)
        return out.reshape([*pool.shape[:axis], *shape, *pool.shape[axis + 1:]])

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Any:
        """Gamma draws."""
        k = paddle.to_tensor(np.asarray(shape, dtype=np.float64)) if not isinstance(
            shape, paddle.Tensor) else shape.astype("float64")
        k = paddle.broadcast_to(k, _size(size, shape, scale))
        with self._drawing():
            g = paddle.standard_gamma(k)
        return g * scale

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        """Poisson draws (int64)."""
        rate = paddle.to_tensor(np.asarray(lam, dtype=np.float64)) if not isinstance(
            lam, paddle.Tensor) else lam.astype("float64")
        rate = paddle.broadcast_to(rate, _size(size, lam))
        with self._drawing():
            return paddle.poisson(rate).astype("int64")

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Binomial draws (int64)."""
        shape = _size(size, n, p)
        count = paddle.broadcast_to(paddle.to_tensor(np.asarray(n), dtype="int64")
                                    if not isinstance(n, paddle.Tensor) else
                                    n.astype("int64"), shape)
        prob = paddle.broadcast_to(paddle.to_tensor(np.asarray(p), dtype="float64")
                                   if not isinstance(p, paddle.Tensor) else
                                   p.astype("float64"), shape)
        with self._drawing():
            return paddle.binomial(count, prob).astype("int64")

    def beta(self, a: Any, b: Any, size: Any = None) -> Any:
        """Beta draws, as x / (x + y) of two gamma draws."""
        shape = _size(size, a, b)
        x = self.gamma(a, 1.0, shape)
        y = self.gamma(b, 1.0, shape)
        return x / (x + y)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Exponential draws."""
        u = self.random(_size(size, scale))
        return -paddle.log1p(-u) * scale


@contextlib.contextmanager
def _kept_state() -> Iterator[None]:
    """Leave paddle's process-wide RNG state as it was."""
    saved = paddle.get_rng_state()
    try:
        yield
    finally:
        paddle.set_rng_state(saved)


_RNG = [None]


class _Lazy(list):
    """The module-level generator, made on its first draw (importing stays cheap)."""

    def __getitem__(self, i: Any) -> Any:
        if list.__getitem__(self, 0) is None:
            self[0] = Generator()
        return list.__getitem__(self, i)


_RNG = _Lazy([None])


def _seed(seed: Any = None) -> None:
    _RNG[0] = Generator(seed)


def _default_rng(seed: Any = None) -> Generator:
    return seed if isinstance(seed, Generator) else Generator(seed)


def _random_permutations(permutations: int, n: int) -> Any:
    rng = _RNG[0]
    return paddle.stack([rng.permutation(int(n)) for _ in range(int(permutations))]) if int(
        permutations) else paddle.zeros([0, int(n)], dtype="int64")


TABLE = merge_tables(
    {
        "random.seed": _seed,
        "random.default_rng": _default_rng,
        "random_permutations": _random_permutations,
    },
    stateful_random(_RNG),
    names=("random", "stateful random"),
)
