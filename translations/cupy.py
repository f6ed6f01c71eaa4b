"""cupy: numpy names on ``cupy.ndarray`` (GPU) arrays.

cupy mirrors numpy's namespace, so most names resolve to cupy's own function
of the same name, and ``scipy.*`` names to ``cupyx.scipy`` (``MODULES``). The
adapters below cover what cupy spells or lacks differently: ``cholesky``
without ``upper``, ``count_nonzero`` without ``keepdims``, ``cho_factor`` /
``cho_solve`` and ``householder_product`` (not in ``cupyx.scipy.linalg``), the
random ``Generator`` (no ``normal``, ``uniform``, ``permutation``, ``choice``
or ``binomial``), and devices.

Names and signatures were checked against cupy's documentation (v13/v14);
``linalg.eig``/``eigvals`` and ``scipy.linalg.expm`` exist only in recent
versions and fall back to ``unsupported`` otherwise.
"""

from __future__ import annotations

from typing import Any

import cupy
import numpy as np
from dispatch.translations import _safety
from dispatch.translations._adapters import (
    SCIPY_SPECIAL_NATIVE,
    native_entries,
    stateful_random,
)
from dispatch.translations._adapters import default_rng as _default_rng
from dispatch.translations._composed._bound import no_autodiff_entries
from dispatch.translations._composed._distributions import Distributions

from dispatch.engine import NATIVE, alias, merge_tables, unsupported

TYPES = ("cupy", "cupyx")
MODULES = {"": "cupy", "scipy": "cupyx.scipy"}
# what a name may reach (docs/safety.md)
SUBMODULES = (
    "cupy.linalg", "cupy.fft", "cupy.random", "cupy.lib", "cupy.lib.stride_tricks",
    "cupyx.scipy", *(f"cupyx.scipy.{m}" for m in _safety.SCIPY_SUBMODULES),
)
CAPABILITY_MODULES = {
    "cupy.cuda": "device configuration and native-code loading (cuda.Module, RawKernel)",
    "cupy.testing": "test machinery",
    "cupy._core.raw": "native-code compilation (RawKernel, RawModule)",
}
REFUSED = dict.fromkeys(
    ("cupy.RawKernel", "cupy.RawModule", "cupy.ElementwiseKernel", "cupy.ReductionKernel"),
    "native-code compilation",
)
GUARDED = {"cupy.load": {"allow_pickle": False}}

try:  # cupyx.scipy.linalg is imported lazily by cupy; solve_triangular lives there
    import cupyx.scipy.linalg as _csl
except ImportError:  # pragma: no cover - cupy without its scipy extension
    _csl = None


def creation_kwargs(like: Any) -> dict[str, Any]:
    # cupy's creation functions take no device: they allocate on the current one
    return {"dtype": like.dtype}


# ---------------------------------------------------------------- conversion


def _to_numpy(x: Any) -> np.ndarray:
    return x.get() if isinstance(x, cupy.ndarray) else np.asarray(x)


def _astype(x: Any, dtype: Any, copy: bool = True) -> Any:
    return cupy.asarray(x).astype(np.dtype(dtype), copy=copy)


def _device_id(device: Any) -> int:
    if isinstance(device, cupy.cuda.Device):
        return device.id
    if isinstance(device, (int, np.integer)):
        return int(device)
    if isinstance(device, str):
        name, _, index = device.partition(":")
        if name == "cpu":
            raise ValueError("cupy arrays cannot be moved to 'cpu'; use to_numpy")
        if name in ("cuda", "gpu"):
            return int(index or 0)
    raise ValueError(f"unknown device {device!r} for cupy (use 'cuda:N', N or a Device)")


def _to_device(x: Any, device: Any) -> Any:
    dev = _device_id(device)
    if isinstance(x, cupy.ndarray) and x.device.id == dev:
        return x
    with cupy.cuda.Device(dev):
        return cupy.array(x, copy=True)


# ---------------------------------------------------------------- reductions


def _count_nonzero(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
    # cupy's count_nonzero has no keepdims
    return cupy.sum(cupy.asarray(a) != 0, axis=axis, keepdims=keepdims, dtype=np.intp)


def _complex(real: Any, imag: Any) -> Any:
    return real + 1j * imag


# ---------------------------------------------------------------- linalg


def _cholesky(a: Any, upper: bool = False) -> Any:
    # cupy's cholesky has no ``upper`` keyword (numpy 2 has)
    low = cupy.linalg.cholesky(a)
    return cupy.swapaxes(low, -1, -2).conj() if upper else low


def _cho_factor(a: Any, lower: bool = False, **kwargs: Any) -> tuple[Any, bool]:
    # not in cupyx.scipy.linalg: the Cholesky factor and its triangle flag
    return _cholesky(a, upper=not lower), lower


def _cho_solve(c_and_lower: Any, b: Any, **kwargs: Any) -> Any:
    c, lower = c_and_lower
    st = _csl.solve_triangular
    if lower:
        return st(c, st(c, b, lower=True), trans="C", lower=True)
    return st(c, st(c, b, trans="C", lower=False), lower=False)


def _householder_product(a: Any, tau: Any) -> Any:
    # cupy has no orgqr wrapper: apply the reflectors I - tau_i v_i v_i^H (v_i is
    # column i of ``a`` below the diagonal with an implicit 1) to the first columns of I
    m, n = a.shape[-2:]
    dt = cupy.result_type(a, tau)
    q = cupy.broadcast_to(cupy.eye(m, n, dtype=dt), (*a.shape[:-2], m, n))
    rows = cupy.arange(m)
    for i in reversed(range(tau.shape[-1])):
        v = cupy.where(rows < i, 0, cupy.where(rows == i, 1, a[..., :, i])).astype(dt)
        w = cupy.einsum("...i,...ij->...j", v.conj(), q)
        q = q - tau[..., i, None, None] * v[..., :, None] * w[..., None, :]
    return q


# ---------------------------------------------------------------- random


class _Generator(Distributions):
    """numpy's Generator methods on cupy's (``cupy.random.default_rng``).

    cupy's Generator has random, integers, standard_normal, exponential, gamma,
    beta, poisson...; normal, uniform, permutation and choice are built on
    those here, and binomial comes from a legacy RandomState seeded alongside.
    numpy's other distributions are the composed ones over these draws
    (translations/_composed/_distributions.py).
    """

    BACKEND = "cupy"

    def __init__(self, seed: Any = None):
        self._seed = seed
        self._made: tuple | None = None  # made on the first draw: importing allocates nothing

    @property
    def _rng(self) -> Any:
        return self._generators()[0]

    @property
    def _legacy(self) -> Any:
        return self._generators()[1]

    def _generators(self) -> tuple:
        if self._made is None:
            self._made = (cupy.random.default_rng(self._seed),
                          cupy.random.RandomState(self._seed))
        return self._made

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, dtype: Any = None) -> Any:
        if size is None:
            size = cupy.broadcast(cupy.asarray(loc), cupy.asarray(scale)).shape
        z = self._rng.standard_normal(size, dtype=np.float64)
        return (loc + scale * z).astype(dtype or np.float64)

    def standard_normal(self, size: Any = None, dtype: Any = None) -> Any:
        return self._rng.standard_normal(size, dtype=dtype or np.float64)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None, dtype: Any = None) -> Any:
        if size is None:
            size = cupy.broadcast(cupy.asarray(low), cupy.asarray(high)).shape
        u = self._rng.random(size, dtype=np.float64)
        return (low + (high - low) * u).astype(dtype or np.float64)

    def integers(
        self,
        low: Any,
        high: Any = None,
        size: Any = None,
        dtype: Any = "int64",
        endpoint: bool = False,
    ) -> Any:
        dt = np.dtype(dtype or "int64").type
        return self._rng.integers(low, high, size, dtype=dt, endpoint=endpoint)

    def random(self, size: Any = None, dtype: Any = "float64") -> Any:
        return self._rng.random(size, dtype=dtype or "float64")

    def permutation(self, x: Any) -> Any:
        # the order of independent uniform keys is a uniform random permutation
        if isinstance(x, (int, np.integer)):
            return cupy.argsort(self._rng.random(int(x)))
        x = cupy.asarray(x)
        return x[cupy.argsort(self._rng.random(x.shape[0]))]

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        pool = None if isinstance(a, (int, np.integer)) else cupy.asarray(a)
        n = int(a) if pool is None else pool.shape[0]
        shape = () if size is None else size
        count = int(np.prod(shape))
        if not replace:
            if p is not None:
                raise NotImplementedError("choice(replace=False, p=...) on cupy arrays")
            if count > n:
                raise ValueError("Cannot take a larger sample than population when replace=False")
            idx = self.permutation(n)[:count].reshape(shape)
        elif p is None:
            idx = self._rng.integers(0, n, shape)
        else:
            cdf = cupy.cumsum(cupy.asarray(p, dtype=np.float64))
            u = self._rng.random(shape) * cdf[-1]
            idx = cupy.minimum(cupy.searchsorted(cdf, u, side="right"), n - 1)
        return idx if pool is None else pool[idx]

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        return self._rng.exponential(scale, size)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Any:
        return self._rng.gamma(shape, scale, size)

    def beta(self, a: Any, b: Any, size: Any = None) -> Any:
        return self._rng.beta(a, b, size)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        return self._rng.poisson(lam, size)

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        return self._legacy.binomial(n, p, size)


# the generator behind random.*; random.seed replaces it
_RNG = [_Generator()]


def _seed(seed: Any = None) -> None:
    _RNG[0] = _Generator(seed)


_HAS_EIG = hasattr(cupy.linalg, "eig")
_HAS_EXPM = _csl is not None and hasattr(_csl, "expm")

_NO_EIG = "this cupy version has no general eigensolver (cupy.linalg.{} came in v14)"
_NO_EXPM = unsupported("this cupy version has no cupyx.scipy.linalg.expm")

TABLE = merge_tables(
    {
        # conversion and introspection
        "to_numpy": _to_numpy,
        "from_numpy": "asarray",
        "astype": _astype,
        "cast": _astype,
        "to_backend_dtype": np.dtype,
        "to_device": _to_device,
        "from_dlpack": "from_dlpack",
        "stop_gradient": lambda x: x,
        "complex": _complex,
        "concat": alias("concatenate"),
        "conj": NATIVE,
        # reductions
        "count_nonzero": _count_nonzero,
        # linalg
        "linalg.cholesky": _cholesky,
        "linalg.eig": NATIVE if _HAS_EIG else unsupported(_NO_EIG.format("eig")),
        "linalg.eigvals": NATIVE if _HAS_EIG else unsupported(_NO_EIG.format("eigvals")),
        "linalg.expm": "scipy.linalg.expm" if _HAS_EXPM else _NO_EXPM,
        "scipy.linalg.expm": NATIVE if _HAS_EXPM else _NO_EXPM,
        "linalg.lu": "scipy.linalg.lu",
        "linalg.householder_product": _householder_product,
        "scipy.linalg.cho_factor": _cho_factor,
        "scipy.linalg.cho_solve": _cho_solve,
        # random: numpy's module-level draws come from _RNG[0] (stateful_random below)
        "random.default_rng": _default_rng(_Generator),
        "random.seed": _seed,
    },
    # cupy's own (numpy semantics) beat the composed fallbacks of translations/_composed/
    native_entries(
        "column_stack convolve correlate interp linalg.tensorinv linalg.tensorsolve "
        "nanmax nanmin nanargmax nanargmin nancumsum nanprod nanvar nanstd nanmedian "
        "average quantile percentile choose compress ediff1d gradient isin digitize "
        "histogram fft.hfft fft.ihfft scipy.linalg.lu_solve "
        "isfortran shares_memory may_share_memory asanyarray ascontiguousarray "
        "iscomplex isreal"
    ),
    # scipy.special: cupyx.scipy.special's beat the composed fallbacks
    native_entries(SCIPY_SPECIAL_NATIVE, "scipy.special."),
    stateful_random(_RNG),
    no_autodiff_entries("cupy"),  # jax's transforms: none without autodiff
    names=("cupy", "native beats composed", "scipy.special", "stateful random", "autodiff"),
)
