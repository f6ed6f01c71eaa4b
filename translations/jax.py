"""jax: numpy names on jax arrays, and on jax tracers inside ``jit`` and ``grad``.

Most names resolve straight to ``jax.numpy`` and ``jax.scipy``, whose semantics
are numpy's and scipy's. The entries below cover what jax spells or behaves
differently: numpy's stateful ``random`` API on top of explicit PRNG keys,
numpy keywords that jax renamed (``clip``, ``pinv``, ``matrix_rank``),
numpy's ``lstsq`` residuals, and creation functions without ``device=``.

Functions whose output shape depends on values (``nonzero``, ``argwhere``,
one-argument ``where``, ``unique``, ``repeat`` with array repeats, ``split``
at traced indices) work eagerly; inside ``jit`` they need jax's own ``size=``
keyword, as in jax itself. Random draws inside ``jit`` are made with a key
fixed at trace time, so a compiled function repeats its draws on every call.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from dispatch.spec import alias

TYPES = ("jax", "jaxlib")
MODULES = {"": "jax.numpy", "scipy": "jax.scipy"}
# jax.numpy takes numpy arrays as they are, and inside jit a numpy array stays a
# compile-time constant instead of becoming a device buffer
CONVERT_CONSTANTS = False


def creation_kwargs(like: Any) -> dict[str, Any]:
    """dtype and device of an example array, for creation functions."""
    kwargs = {"dtype": like.dtype}
    # tracers have no device; arrays sharded over several devices raise
    with contextlib.suppress(Exception):
        kwargs["device"] = like.device
    return kwargs


# ---------------------------------------------------------------- creation, dtypes


def _with_device(fn: Callable) -> Callable:
    """``fn`` plus the ``device=`` keyword jax did not give it."""

    @functools.wraps(fn)
    def placed(*args: Any, device: Any = None, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        return out if device is None else jax.device_put(out, device)

    return placed


def _to_backend_dtype(name: Any) -> np.dtype:
    # jax's dtypes are numpy dtype objects (bfloat16 included, through ml_dtypes)
    return jnp.dtype(name)


def _to_device(x: Any, device: Any) -> Any:
    if isinstance(device, str):
        # "cpu", "gpu", "cuda:1", "tpu:0": a platform and an optional index
        platform, _, index = device.partition(":")
        device = jax.devices(platform)[int(index or 0)]
    return jax.device_put(x, device)


def _complex(real: Any, imag: Any) -> Any:
    # lax.complex builds the value exactly (real + 1j * imag turns an infinite
    # imaginary part into a nan real part) but wants equal float dtypes and shapes
    dtype = jnp.result_type(real, imag, 1.0)  # integers -> default float, as numpy
    if jnp.issubdtype(dtype, jnp.complexfloating):
        return real + 1j * imag
    real, imag = jnp.broadcast_arrays(jnp.asarray(real, dtype), jnp.asarray(imag, dtype))
    return jax.lax.complex(real, imag)


# (dtype, dtype, x64 mode) -> the dtype numpy promotes them to where jax differs, else None
_PROMOTIONS: dict[tuple, Any] = {}


def _numpy_promotion(d1: Any, d2: Any) -> Any:
    target = np.result_type(d1, d2)
    if target == jnp.result_type(d1, d2):
        return None
    return jax.dtypes.canonicalize_dtype(target)  # float64 stays float32 without x64


def _promoting(fn: Callable) -> Callable:
    """``fn`` promoting integers with floats as numpy does.

    jax keeps the float's width (int64 * float32 -> float32, int32 + complex64 ->
    complex64); numpy widens (float64, complex128). Other dtype pairs agree, so
    the usual call (equal dtypes, or a Python scalar) costs one identity test.
    """

    @functools.wraps(fn)
    def promoting(x1: Any, x2: Any, /, *args: Any, **kwargs: Any) -> Any:
        d1 = getattr(x1, "dtype", None)
        d2 = getattr(x2, "dtype", None)
        if d1 is d2 or d1 is None or d2 is None:
            return fn(x1, x2, *args, **kwargs)
        key = (d1, d2, jax.config.read("jax_enable_x64"))  # the answer depends on it
        try:
            target = _PROMOTIONS[key]
        except KeyError:
            target = _PROMOTIONS[key] = _numpy_promotion(d1, d2)
        if target is None:
            return fn(x1, x2, *args, **kwargs)
        return fn(x1.astype(target), x2.astype(target), *args, **kwargs)

    return promoting


# binary functions whose arguments numpy promotes to one dtype (ldexp takes an
# integer exponent as it is; bitwise functions take integers only)
_BINARY = (
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power",
    "float_power", "mod", "remainder", "fmod", "maximum", "minimum", "fmax", "fmin",
    "arctan2", "hypot", "logaddexp", "logaddexp2", "copysign", "nextafter", "heaviside",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
)  # fmt: skip


def _reciprocal(x: Any) -> Any:
    # numpy keeps integers integer (1 // x rounded towards zero: 0 unless |x| == 1);
    # jax returns floats
    x = jnp.asarray(x)
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.where(jnp.abs(x) == 1, x, jnp.zeros_like(x))
    return jnp.reciprocal(x)


# ---------------------------------------------------------------- numpy keywords


def _clip(a: Any, a_min: Any = None, a_max: Any = None, *, min: Any = None, max: Any = None):
    # jax accepts only the array API's min/max, not numpy's a_min/a_max keywords
    return jnp.clip(a, a_min if min is None else min, a_max if max is None else max)


def _pinv(a: Any, rcond: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Any:
    # numpy's second positional argument is rcond; jax's is rtol (same meaning)
    return jnp.linalg.pinv(a, rcond if rtol is None else rtol, hermitian)


def _matrix_rank(A: Any, tol: Any = None, hermitian: bool = False, *, rtol: Any = None):
    # numpy's tol is an absolute threshold; jax reads tol as relative (an alias of rtol)
    if tol is None:
        return jnp.linalg.matrix_rank(A, rtol, hermitian=hermitian)
    A = jnp.asarray(A)
    if A.ndim < 2:
        return jnp.asarray(jnp.any(A != 0), dtype=int)
    s = jnp.linalg.svd(A, compute_uv=False, hermitian=hermitian)
    return jnp.count_nonzero(s > jnp.asarray(tol)[..., None], axis=-1)


def _lstsq(a: Any, b: Any, rcond: Any = None) -> tuple:
    # jax's residuals differ from numpy's unless asked for numpy's; its rank is int32
    x, residuals, rank, s = jnp.linalg.lstsq(a, b, rcond, numpy_resid=True)
    return x, residuals, rank.astype(int), s


def _histogram(
    a: Any, bins: Any = 10, range: Any = None, density: Any = None, weights: Any = None
) -> tuple:
    # jax counts in floats; numpy's plain counts are integers
    hist, edges = jnp.histogram(a, bins, range, weights, density)
    return (hist.astype(int) if weights is None and not density else hist), edges


def _softmax(x: Any, axis: Any = None) -> Any:
    # scipy takes axis positionally too; jax.scipy only as a keyword
    return jax.scipy.special.softmax(x, axis=axis)


def _log_softmax(x: Any, axis: Any = None) -> Any:
    return jax.scipy.special.log_softmax(x, axis=axis)


def _sort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None):
    # jax rejects numpy's kind=; its sort is always a valid answer for every kind
    # (stable, and the default quicksort leaves the order of ties unspecified)
    return jnp.sort(a, axis, order=order, stable=stable is not False)


def _argsort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None):
    return jnp.argsort(a, axis, order=order, stable=stable is not False)


def _searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Any:
    # jax returns int32 indices whatever the default integer; numpy returns intp
    return jnp.searchsorted(a, v, side, sorter).astype(int)


def _digitize(x: Any, bins: Any, right: bool = False) -> Any:
    return jnp.digitize(x, bins, right).astype(int)


# ---------------------------------------------------------------- random


def _size(size: Any, *params: Any) -> tuple[int, ...]:
    """numpy's ``size``: None means the broadcast shape of the parameters."""
    if size is None:
        return jnp.broadcast_shapes(*(jnp.shape(p) for p in params)) if params else ()
    return tuple(size) if np.iterable(size) else (int(size),)


class Generator:
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

    __slots__ = ("_key", "_seed")

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
        z = jax.random.normal(self._next(), _size(size, loc, scale), dtype or float)
        return loc + scale * z

    def standard_normal(self, size: Any = None, dtype: Any = None) -> Any:
        """Standard normal draws."""
        return jax.random.normal(self._next(), _size(size), dtype or float)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None, dtype: Any = None):
        """Uniform draws on ``[low, high)``."""
        u = jax.random.uniform(self._next(), _size(size, low, high), dtype or float)
        return low + (high - low) * u

    def random(self, size: Any = None, dtype: Any = None) -> Any:
        """Uniform draws on ``[0, 1)``."""
        return jax.random.uniform(self._next(), _size(size), dtype or float)

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
        return jax.random.randint(self._next(), shape, low, high, dtype or int)

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


def _drawing(method: str) -> Callable:
    """A module-level ``random.<method>`` drawing from the seeded generator."""
    unbound = getattr(Generator, method)

    @functools.wraps(unbound)
    def draw(*args: Any, **kwargs: Any) -> Any:
        return unbound(_RNG[0], *args, **kwargs)

    return draw


def _rand(*shape: int) -> Any:
    return _RNG[0].random(shape)


def _randn(*shape: int) -> Any:
    return _RNG[0].standard_normal(shape)


TABLE = {
    # conversion, dtypes, devices
    "to_numpy": np.asarray,
    "from_numpy": "asarray",
    "from_dlpack": "from_dlpack",
    "astype": "astype",
    "cast": "astype",
    "to_backend_dtype": _to_backend_dtype,
    "to_device": _to_device,
    "stop_gradient": alias("stop_gradient", module="jax.lax"),
    "complex": _complex,
    # creation functions without jax's device keyword
    "identity": _with_device(jnp.identity),
    "logspace": _with_device(jnp.logspace),
    "geomspace": _with_device(jnp.geomspace),
    "tri": _with_device(jnp.tri),
    # elementwise: jax dropped numpy's alias fix (round towards zero)
    "fix": "trunc",
    "reciprocal": _reciprocal,
    # numpy's promotion of integer with float arrays
    **{name: _promoting(getattr(jnp, name)) for name in _BINARY},
    # numpy keywords and results
    "clip": _clip,
    "sort": _sort,
    "argsort": _argsort,
    "searchsorted": _searchsorted,
    "digitize": _digitize,
    "histogram": _histogram,
    "linalg.pinv": _pinv,
    "linalg.matrix_rank": _matrix_rank,
    "linalg.lstsq": _lstsq,
    "linalg.expm": "scipy.linalg.expm",
    "linalg.lu": "scipy.linalg.lu",
    "linalg.householder_product": alias("householder_product", module="jax.lax.linalg"),
    "scipy.special.softmax": _softmax,
    "scipy.special.log_softmax": _log_softmax,
    # random: numpy's stateful API over explicit keys
    "random.seed": _seed,
    "random.default_rng": _default_rng,
    "random.normal": _drawing("normal"),
    "random.standard_normal": _drawing("standard_normal"),
    "random.uniform": _drawing("uniform"),
    "random.random": _drawing("random"),
    "random.integers": _drawing("integers"),
    "random.randint": _drawing("integers"),
    "random.permutation": _drawing("permutation"),
    "random.choice": _drawing("choice"),
    "random.exponential": _drawing("exponential"),
    "random.gamma": _drawing("gamma"),
    "random.beta": _drawing("beta"),
    "random.poisson": _drawing("poisson"),
    "random.binomial": _drawing("binomial"),
    "random.rand": _rand,
    "random.randn": _randn,
}
