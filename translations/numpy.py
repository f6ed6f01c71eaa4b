"""numpy: the reference. Almost every name resolves natively; numpy arrays are
constants in calls that another library decides (PRIORITY -1)."""

from __future__ import annotations

import numpy as np

from dispatch.spec import NATIVE, alias

TYPES = ("numpy",)
MODULES = {"scipy": "scipy"}
PRIORITY = -1
CONVERT_CONSTANTS = False

def is_array_type(cls: type) -> bool:
    # numpy scalars and dtypes are parameters (axis=np.int64(0), dtype=np.dtype("f4")),
    # not arrays: like Python scalars they decide nothing and are never converted
    return issubclass(cls, np.ndarray)


# one generator per library, so that ``random.seed`` makes every draw reproducible
# without touching numpy's legacy global state
_RNG = [np.random.default_rng()]


def _seed(seed=None):
    _RNG[0] = np.random.default_rng(seed)


def _normal(loc=0.0, scale=1.0, size=None, dtype=None):
    out = _RNG[0].normal(loc, scale, size)
    return out if dtype is None else np.asarray(out, dtype=dtype)


def _uniform(low=0.0, high=1.0, size=None, dtype=None):
    out = _RNG[0].uniform(low, high, size)
    return out if dtype is None else np.asarray(out, dtype=dtype)


def _integers(low, high=None, size=None, dtype="int64", endpoint=False):
    return _RNG[0].integers(low, high, size, dtype=dtype, endpoint=endpoint)


def _permutation(x):
    return _RNG[0].permutation(x)


def _random(size=None, dtype="float64"):
    return _RNG[0].random(size, dtype=dtype)


def _choice(a, size=None, replace=True, p=None):
    return _RNG[0].choice(a, size, replace=replace, p=p)


def _astype(x, dtype, copy=True):
    return np.asarray(x).astype(dtype, copy=copy)


def _to_device(x, device=None):
    if device not in (None, "cpu"):
        raise ValueError(f"numpy arrays live on the CPU; cannot move to {device!r}")
    return x


TABLE = {
    "to_numpy": "asarray",
    "from_numpy": "asarray",
    "astype": _astype,
    "to_device": _to_device,
    "random.seed": _seed,
    "random.normal": _normal,
    "random.standard_normal": lambda size=None, dtype="float64": _RNG[0].standard_normal(
        size, dtype=dtype
    ),
    "random.uniform": _uniform,
    "random.integers": _integers,
    "random.randint": _integers,
    "random.permutation": _permutation,
    "random.random": _random,
    "random.choice": _choice,
    "random.exponential": lambda scale=1.0, size=None: _RNG[0].exponential(scale, size),
    "random.gamma": lambda shape, scale=1.0, size=None: _RNG[0].gamma(shape, scale, size),
    "random.beta": lambda a, b, size=None: _RNG[0].beta(a, b, size),
    "random.poisson": lambda lam=1.0, size=None: _RNG[0].poisson(lam, size),
    "random.binomial": lambda n, p, size=None: _RNG[0].binomial(n, p, size),
    "random.default_rng": NATIVE,
    "linalg.expm": "scipy.linalg.expm",
    "linalg.lu": "scipy.linalg.lu",
    "cast": _astype,
    "conj": NATIVE,
    "complex": lambda real, imag: real + 1j * imag,
    "stop_gradient": lambda x: x,
    "to_backend_dtype": "dtype",
    "concat": alias("concatenate"),
}
