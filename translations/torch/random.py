"""torch: ``numpy.random`` through one numpy-like :class:`Generator` of torch tensors.

The module-level ``random.*`` names draw from one generator kept here
(``_RNG``), reseeded by ``do("random.seed", seed, like="torch")``;
``random.default_rng`` makes new ones. Draws use torch's default float dtype
unless ``dtype`` is given, and each device gets its own ``torch.Generator``,
seeded from the same seed. The backend method list's ``random_permutations`` is
one batched argsort of uniform keys.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch
from dispatch.translations._adapters import default_rng as _default_rng
from dispatch.translations._adapters import stateful_random
from dispatch.translations._composed._distributions import Distributions
from dispatch.translations.torch._common import _dtype, _shape, _tensor
from torch import Tensor

from dispatch.engine import merge_tables


def _seed_int(seed: Any) -> int | None:
    if seed is None or isinstance(seed, (int, np.integer)):
        return None if seed is None else int(seed)
    if isinstance(seed, Tensor):
        return int(seed)
    return int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])


def _in_place(method: str) -> Any:
    # torch's in-place samplers take our torch.Generator (torch.distributions do not)
    def draw(rng: Generator, shape: tuple, dtype: str) -> Tensor:
        out = torch.empty(shape, dtype=_dtype(dtype))
        return getattr(out, method)(generator=rng._gen())

    return draw


class Generator(Distributions):
    """A numpy-like random generator drawing torch tensors.

    Returned by ``do("random.default_rng", seed, like="torch")``; the module-level
    ``random.*`` names of the torch backend use one such generator, reseeded by
    ``do("random.seed", seed, like="torch")``. Draws use torch's default float
    dtype unless ``dtype`` is given. Each device gets its own ``torch.Generator``,
    seeded from the same seed.

    Parameters
    ----------
    seed : int, sequence of ints or None
        Seed; None draws fresh entropy.

    Examples
    --------
    >>> rng = Generator(42)
    >>> tuple(rng.normal(size=(2, 3)).shape)
    (2, 3)
    >>> bool((Generator(1).random(4) == Generator(1).random(4)).all())
    True
    """

    # numpy's other distributions: translations/_composed/_distributions.py, over the
    # draws below (torch's exponential_ and cauchy_ samplers where they take a generator)
    BACKEND = "torch"
    NATIVE = {  # noqa: RUF012
        "standard_exponential": _in_place("exponential_"),
        "standard_cauchy": _in_place("cauchy_"),
    }

    def _default_float(self) -> str:
        return str(torch.get_default_dtype()).removeprefix("torch.")

    def __init__(self, seed: Any = None):
        self._seed = _seed_int(seed)
        self._gens: dict[torch.device, torch.Generator] = {}

    def __repr__(self) -> str:
        return f"Generator(torch, seed={self._seed})"

    def _gen(self, device: Any = None) -> torch.Generator:
        device = torch.device("cpu" if device is None else device)
        g = self._gens.get(device)
        if g is None:
            g = torch.Generator(device=device)
            if self._seed is None:
                g.seed()
            else:
                g.manual_seed(self._seed)
            self._gens[device] = g
        return g

    @staticmethod
    def _where(size: Any, dtype: Any, device: Any, *params: Any) -> tuple:
        """Output shape, float dtype and device from ``size`` and array parameters."""
        tensors = [p for p in params if isinstance(p, Tensor)]
        if device is None and tensors:
            device = tensors[0].device
        if size is None:
            shape = torch.broadcast_shapes(*(tuple(np.shape(p)) if not isinstance(p, Tensor)
                                             else p.shape for p in params))
        else:
            shape = _shape(size)
        dtype = _dtype(dtype)
        if dtype is None:
            floats = [p.dtype for p in tensors if p.is_floating_point()]
            dtype = floats[0] if floats else torch.get_default_dtype()
        return tuple(shape), dtype, device

    def random(self, size: Any = None, dtype: Any = None, *, device: Any = None) -> Tensor:
        """Uniform floats in [0, 1)."""
        shape, dtype, device = self._where(size, dtype, device)
        return torch.rand(shape, generator=self._gen(device), dtype=dtype, device=device)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None, dtype: Any = None, *,
                device: Any = None) -> Tensor:
        """Uniform floats in [low, high)."""
        shape, dtype, device = self._where(size, dtype, device, low, high)
        u = torch.rand(shape, generator=self._gen(device), dtype=dtype, device=device)
        return u * (_tensor(high, u) - _tensor(low, u)) + _tensor(low, u)

    def standard_normal(self, size: Any = None, dtype: Any = None, *,
                        device: Any = None) -> Tensor:
        """Draws from the standard normal distribution."""
        shape, dtype, device = self._where(size, dtype, device)
        return torch.randn(shape, generator=self._gen(device), dtype=dtype, device=device)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, dtype: Any = None, *,
               device: Any = None) -> Tensor:
        """Draws from a normal distribution of mean ``loc`` and deviation ``scale``."""
        shape, dtype, device = self._where(size, dtype, device, loc, scale)
        z = torch.randn(shape, generator=self._gen(device), dtype=dtype, device=device)
        return z * _tensor(scale, z) + _tensor(loc, z)

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = "int64",
                 endpoint: bool = False, *, device: Any = None) -> Tensor:
        """Random integers in [low, high) (or [low, high] with ``endpoint``)."""
        if high is None:
            low, high = 0, low
        dtype = _dtype(dtype)
        if isinstance(low, Tensor) or isinstance(high, Tensor) or np.ndim(low) or np.ndim(high):
            shape, _, device = self._where(size, torch.float64, device, low, high)
            u = torch.rand(shape, generator=self._gen(device), dtype=torch.float64,
                           device=device)
            lo, hi = _tensor(low, u).to(torch.float64), _tensor(high, u).to(torch.float64)
            return (lo + torch.floor(u * (hi - lo + endpoint))).to(dtype)
        return torch.randint(int(low), int(high) + bool(endpoint), _shape(size),
                             generator=self._gen(device), dtype=dtype, device=device)

    def permutation(self, x: Any, axis: int = 0) -> Tensor:
        """A permuted ``arange(x)``, or a copy of ``x`` shuffled along ``axis``."""
        if isinstance(x, (int, np.integer)):
            return torch.randperm(int(x), generator=self._gen())
        x = _tensor(x)
        perm = torch.randperm(x.shape[axis], generator=self._gen()).to(x.device)
        return torch.index_select(x, axis, perm)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None,
               axis: int = 0, shuffle: bool = True) -> Tensor:
        """Random samples from ``a`` (an int n meaning ``arange(n)``, or a tensor)."""
        pop = int(a) if isinstance(a, (int, np.integer)) else _tensor(a).shape[axis]
        shape = _shape(size)
        k = math.prod(shape)
        g = self._gen()
        if p is not None:
            p = _tensor(p).to(device="cpu", dtype=torch.float64)
            idx = (torch.multinomial(p, k, replacement=replace, generator=g) if k
                   else torch.empty(0, dtype=torch.int64))
        elif replace:
            idx = torch.randint(pop, (k,), generator=g)
        else:
            if k > pop:
                raise ValueError("cannot take a larger sample than population when "
                                 "replace=False")
            idx = torch.randperm(pop, generator=g)[:k]
        if isinstance(a, (int, np.integer)):
            return idx.reshape(shape)
        a = _tensor(a)
        picked = torch.index_select(a, axis, idx.to(a.device))
        return picked.reshape(a.shape[:axis] + shape + a.shape[axis + 1 :])

    def exponential(self, scale: Any = 1.0, size: Any = None, dtype: Any = None, *,
                    device: Any = None) -> Tensor:
        """Draws from an exponential distribution of mean ``scale``."""
        shape, dtype, device = self._where(size, dtype, device, scale)
        e = torch.empty(shape, dtype=dtype, device=device).exponential_(
            generator=self._gen(device)
        )
        return e * _tensor(scale, e)

    def poisson(self, lam: Any = 1.0, size: Any = None, *, device: Any = None) -> Tensor:
        """Poisson counts (int64) of rate ``lam``."""
        shape, dtype, device = self._where(size, None, device, lam)
        rate = torch.broadcast_to(_tensor(lam).to(dtype=dtype, device=device), shape)
        return torch.poisson(rate, generator=self._gen(device)).to(torch.int64)

    def binomial(self, n: Any, p: Any, size: Any = None, *, device: Any = None) -> Tensor:
        """Binomial counts (int64) of ``n`` trials with success probability ``p``."""
        shape, dtype, device = self._where(size, None, device, n, p)
        count = torch.broadcast_to(_tensor(n).to(dtype=dtype, device=device), shape)
        prob = torch.broadcast_to(_tensor(p).to(dtype=dtype, device=device), shape)
        return torch.binomial(count, prob, generator=self._gen(device)).to(torch.int64)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None, dtype: Any = None) -> Tensor:
        """Draws from a gamma distribution (CPU)."""
        out_shape, dtype, _ = self._where(size, dtype, None, shape, scale)
        conc = torch.broadcast_to(_tensor(shape).to(dtype), out_shape)
        # torch's gamma sampler takes no generator: run it on the global CPU generator,
        # seeded from ours and restored afterwards
        seed = int(torch.randint(0, 2**62, (), generator=self._gen()))
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            draws = torch.distributions.Gamma(conc, torch.ones_like(conc)).sample()
        return draws * _tensor(scale, draws).to(dtype)

    def beta(self, a: Any, b: Any, size: Any = None, dtype: Any = None) -> Tensor:
        """Draws from a beta distribution (CPU)."""
        shape, dtype, _ = self._where(size, dtype, None, a, b)
        x = self.gamma(a, 1.0, shape, dtype)
        y = self.gamma(b, 1.0, shape, dtype)
        return x / (x + y)


_RNG = [Generator()]


def _seed(seed: Any = None) -> None:
    # reseed the module generator's torch.Generators in place: graphs traced by
    # jit_compile hold those objects, and must follow the new seed too
    rng = _RNG[0]
    rng._seed = _seed_int(seed)
    for g in rng._gens.values():
        if rng._seed is None:
            g.seed()
        else:
            g.manual_seed(rng._seed)


def _random_permutations(permutations: int, n: int) -> Tensor:
    # one batched argsort of uniform keys instead of a randperm per row
    keys = _RNG[0].random((int(permutations), int(n)), dtype=torch.float64)
    return torch.argsort(keys, dim=-1)


TABLE = merge_tables(
    {
        # random: one generator kept in this module (see Generator)
        "random.seed": _seed,
        "random.default_rng": _default_rng(Generator),
        # the backend method list
        "random_permutations": _random_permutations,
    },
    stateful_random(_RNG),
    names=("random", "stateful random"),
)
