"""cupy: numpy names on ``cupy.ndarray`` (GPU) arrays.

cupy mirrors numpy's namespace, so most names resolve to cupy's own function
of the same name, and ``scipy.*`` names to ``cupyx.scipy`` (``MODULES``). The
adapters below cover what cupy spells or lacks differently: ``cholesky``
without ``upper``, ``count_nonzero`` without ``keepdims``, ``cho_factor`` /
``cho_solve`` and ``householder_product`` (not in ``cupyx.scipy.linalg``), the
random ``Generator`` (no ``normal``, ``uniform``, ``permutation``, ``choice``
or ``binomial``), and devices. numpy keywords cupy's functions lack go elsewhere
only when given (``where=``/``initial=`` of the reductions to the composed
``masked``, ``stable=``, ``shape=``, ``take``'s ``mode=``); array-likes numpy takes
(lists, Python scalars and bools) are made cupy arrays (``_lifted``); names cupy
lacks (``geomspace``, ``spacing``, the backend method list) are filled or adapted;
where cupy's own result departs from numpy's (``nanvar``, ``quantile``,
``histogram``, ``interp``...), the composed fallback serves.

Names and signatures were checked against cupy's documentation (v13/v14);
``linalg.eig``/``eigvals`` and ``scipy.linalg.expm`` exist only in recent
versions and fall back to ``unsupported`` otherwise.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import cupy
import numpy as np
from dispatch.translations import _safety
from dispatch.translations._adapters import (
    NUMPY_REAL_EIG,
    SCIPY_SPECIAL_NATIVE,
    _Capsule,
    frexp_from_bits,
    native_entries,
    no_autodiff,
    stateful_random,
    take_mode,
)
from dispatch.translations._adapters import default_rng as _default_rng
from dispatch.translations._composed import reductions as _reductions
from dispatch.translations._composed._bound import (
    backend_entries,
    fill_entries,
    no_autodiff_entries,
)
from dispatch.translations._composed._distributions import Distributions
from dispatch.translations._composed.devices import (
    ComputeDevice,
    device_ref,
    list_devices_filtered,
)
from dispatch.translations._composed.elementwise import _ufunc_float
from dispatch.translations._composed.reductions import masked
from dispatch.translations._composed.special import hurwitz_edges, riemann_zeta
from dispatch.translations._keywords import NO_VALUE, check_sort, reshape_shape
from dispatch.translations._keywords import check_finite as _check_finite

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
try:  # cupyx.scipy.special: the Bessel functions, zeta and polygamma adapted below
    import cupyx.scipy.special as _csp
except ImportError:  # pragma: no cover - cupy without its scipy extension
    _csp = None


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
    dev = _device_id(device_ref(device))
    if isinstance(x, cupy.ndarray) and x.device.id == dev:
        return x
    with cupy.cuda.Device(dev):
        return cupy.array(x, copy=True)


def _list_devices(device_type: str | None = None) -> list[ComputeDevice]:
    # cupy allocates on CUDA (or ROCm) GPUs only: one entry per visible device
    devices = []
    for i in range(cupy.cuda.runtime.getDeviceCount()):
        props = cupy.cuda.runtime.getDeviceProperties(i)
        name = props["name"]
        devices.append(ComputeDevice(
            "cupy", f"cuda:{i}", "GPU", int(props["totalGlobalMem"]),
            int(props["multiProcessorCount"]),
            name.decode() if isinstance(name, bytes) else str(name), f"cuda:{i}",
        ))
    return list_devices_filtered(devices, device_type)


def _get_device(x: Any) -> ComputeDevice:
    ref = f"cuda:{cupy.asarray(x).device.id}"
    return next(d for d in _list_devices() if d.ref == ref)


def _from_dlpack(x: Any, *, device: Any = None, copy: Any = None) -> Any:
    # numpy's device= and copy= (cupy's own takes no device); the array is made where
    # it can be, then copied if asked and moved to ``device``
    out = _imported(x)
    if copy:
        out = out.copy()
    return out if device is None else _to_device(out, device)


def _imported(x: Any) -> Any:
    # cupy.from_dlpack takes GPU memory only; host memory (a numpy array, or a bare
    # capsule that cupy refuses as not CUDA's) is copied to the current device
    if hasattr(x, "__dlpack_device__") and x.__dlpack_device__()[0] == 1:  # kDLCPU
        return cupy.asarray(np.from_dlpack(x))
    if hasattr(x, "__dlpack__"):
        return cupy.from_dlpack(x)
    # a bare capsule names no device: numpy takes it if it holds host memory, and
    # refuses a device's without consuming it (cupy consumes a host capsule it refuses)
    try:
        return cupy.asarray(np.from_dlpack(_Capsule(x)))
    except (BufferError, RuntimeError):
        return cupy.from_dlpack(x)


# ---------------------------------------------------------------- reductions


def _count_nonzero(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
    # cupy's count_nonzero has no keepdims
    return cupy.sum(cupy.asarray(a) != 0, axis=axis, keepdims=keepdims, dtype=np.intp)


def _complex(real: Any, imag: Any) -> Any:
    return real + 1j * imag


# numpy keywords that cupy's reductions lack. A call that gives one goes elsewhere,
# and a call without them reaches cupy's own function with nothing in between:
# ``where=`` to the composed ``masked`` (or the composed nan-reduction that takes it),
# ``initial=`` folded into cupy's result, cast to its dtype first as numpy casts it.
_FOLDS = {"sum": "add", "nansum": "add", "prod": "multiply", "nanprod": "multiply",
          "amax": "maximum", "max": "maximum", "amin": "minimum", "min": "minimum"}


def _with_initial(name: str, native: Callable, a: Any, args: tuple, kwargs: dict,
                  initial: Any) -> Any:
    a = cupy.asarray(a)
    fold = getattr(cupy, _FOLDS[name])
    if a.size == 0 and fold in (cupy.maximum, cupy.minimum):
        # cupy refuses the extreme of nothing; numpy's answer is ``initial`` everywhere
        shape = cupy.sum(a, *args[:1], **{k: v for k, v in kwargs.items()
                                           if k in ("axis", "keepdims")}).shape
        return cupy.full(shape, initial, dtype=a.dtype)
    r = native(a, *args, **kwargs)
    return fold(r, cupy.asarray(initial).astype(r.dtype))


def _reduction(name: str, fallback: Callable | None = None) -> Callable:
    """cupy's reduction ``name`` with numpy's ``where=`` and ``initial=``.

    A mask goes to ``fallback`` (the composed function of that name) or else to the
    composed :func:`masked`; ``initial`` without a mask is folded into cupy's result.
    """
    native = getattr(cupy, name)

    def reduction(a: Any, *args: Any, **kwargs: Any) -> Any:
        where = kwargs.get("where")
        initial = kwargs.get("initial")
        if where is not None or (initial is not None and name not in _FOLDS):
            if fallback is not None:
                return fallback(a, *args, **kwargs)
            kwargs = {k: v for k, v in kwargs.items() if v is not None}
            return masked(name, a, *args, **kwargs)
        kwargs.pop("where", None)
        kwargs.pop("initial", None)
        if initial is not None:
            return _with_initial(name, native, a, args, kwargs, initial)
        return native(a, *args, **kwargs)

    reduction.__name__ = reduction.__qualname__ = "_" + name
    return reduction


def _nanmean(a: Any, *args: Any, **kwargs: Any) -> Any:
    # cupy refuses the nanmean of nothing; numpy's is NaN (with a RuntimeWarning)
    a = cupy.asarray(a)
    if a.size == 0 and kwargs.get("where") is None:
        kwargs.pop("where", None)
        return cupy.mean(a, *args, **kwargs)
    return _NANMEAN(a, *args, **kwargs)


_NANMEAN = _reduction("nanmean")


# ---------------------------------------------------------------- sorting, shape, indexing


def _sort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *,
          stable: Any = None) -> Any:
    # cupy's sort is always stable, a valid answer for every kind; it takes no kind but
    # 'stable' and no stable= (numpy 2): numpy's checks of kind, order and stable here
    check_sort(kind, order, stable)
    return cupy.sort(a, axis)


def _argsort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *,
             stable: Any = None) -> Any:
    # always stable (as _sort): numpy's answer for every kind
    check_sort(kind, order, stable)
    return cupy.argsort(a, axis)


def _reshape(a: Any, shape: Any = NO_VALUE, order: str = "C", *, newshape: Any = NO_VALUE,
             copy: bool | None = None) -> Any:
    # numpy 2's shape= and copy= (cupy's reshape takes newshape positionally)
    shape = reshape_shape(shape, newshape)
    a = cupy.asarray(a)
    r = cupy.reshape(a.copy(order="K") if copy else a, shape, order)
    if copy is False and r.size and not cupy.may_share_memory(r, a):
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    return r


def _take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: Any = None) -> Any:
    # cupy's take has no mode and wraps every index; numpy's default 'raise' refuses
    # an index outside [-n, n) (one check read back from the device)
    if out is not None:
        raise TypeError("take(out=...) is not supported: dispatch never writes into arrays")
    mode = take_mode(mode)
    a = cupy.asarray(a)
    idx = cupy.asarray(indices)
    if idx.dtype.kind not in "iub" and not np.can_cast(idx.dtype, np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {idx.dtype!r} to "
                        f"{np.dtype(np.intp)!r} according to the rule 'safe'")
    idx = idx.astype(np.int64)
    n = a.size if axis is None else a.shape[axis]
    if n == 0 and idx.size:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if mode == "wrap" and n:
        idx = idx % n
    elif mode == "clip" and n:
        idx = cupy.clip(idx, 0, n - 1)
    elif mode == "raise" and idx.size:
        bad = (idx < -n) | (idx >= n)
        if bool(bad.any()):
            raise IndexError(f"index {int(idx[bad][0])} is out of bounds for axis "
                             f"{axis or 0} with size {n}")
    return cupy.take(a, idx, axis=axis)


def _meshgrid(*xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> Any:
    # cupy's grids of one input are views of it; numpy's copy=True (the default) copies
    grids = cupy.meshgrid(*xi, sparse=sparse, indexing=indexing)
    if copy:
        grids = [g.copy() if any(cupy.may_share_memory(g, x) for x in xi
                                 if isinstance(x, cupy.ndarray)) else g for g in grids]
    return tuple(grids)


def _lift(x: Any) -> Any:
    return x if isinstance(x, cupy.ndarray) else cupy.asarray(x)


def _lifted(fn: Callable, *keywords: str) -> Callable:
    """``fn`` with its positional arguments and the named keywords made cupy arrays:
    cupy's own refuses the lists, scalars and bools numpy takes as array-likes."""

    def call(*args: Any, **kwargs: Any) -> Any:
        for k in keywords:
            if kwargs.get(k) is not None:
                kwargs[k] = _lift(kwargs[k])
        return fn(*map(_lift, args), **kwargs)

    call.__name__ = call.__qualname__ = "_" + getattr(fn, "__name__", "lifted")
    return call


def _choose(a: Any, choices: Any, out: Any = None, mode: str = "raise") -> Any:
    # cupy's choose wants one array of choices; numpy takes a sequence of array-likes,
    # broadcast together (cupy.asarray refuses a list that holds cupy arrays)
    if isinstance(choices, (list, tuple)):
        choices = cupy.stack(cupy.broadcast_arrays(*map(_lift, choices)))
    return cupy.choose(_lift(a), _lift(choices), out=out, mode=mode)


def _multi_dot(arrays: Any, *, out: Any = None) -> Any:
    # cupy has no multi_dot: the products left to right (numpy orders them by cost;
    # the result is the same product); a 1-D first or last array is a row or a column
    if out is not None:
        raise TypeError("multi_dot(out=...) is not supported: dispatch never writes into arrays")
    arrays = [_lift(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    return functools.reduce(cupy.dot, arrays)


def _where(condition: Any, *xy: Any) -> Any:
    # cupy's where wants its condition as an array (x and y may be Python scalars)
    return cupy.where(_lift(condition), *xy)


def _dot(a: Any, b: Any, out: Any = None) -> Any:
    if out is not None:
        raise TypeError("dot(out=...) is not supported: dispatch never writes into arrays")
    if np.ndim(a) == 0 or np.ndim(b) == 0:  # numpy: a product; Python scalars stay weak
        return cupy.multiply(a, b)
    return cupy.dot(_lift(a), _lift(b))


def _inner(a: Any, b: Any) -> Any:
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return cupy.multiply(a, b)
    a, b = _lift(a), _lift(b)
    if a.size == 0 or b.size == 0:  # cupy divides by the size of the summed axis
        if a.shape[-1] != b.shape[-1]:
            raise ValueError("shapes not aligned: the last axes differ in length")
        return cupy.zeros(a.shape[:-1] + b.shape[:-1], cupy.result_type(a, b))
    return cupy.inner(a, b)


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    # cupy refuses a 0-d input with an empty list of axes; numpy gives the outer product
    a, b = _lift(a), _lift(b)
    outer = axes == 0 if isinstance(axes, (int, np.integer)) else (
        len(axes) == 2 and all(np.ndim(ax) == 1 and len(ax) == 0 for ax in axes))
    if outer:
        return cupy.multiply(a.reshape(a.shape + (1,) * b.ndim), b)
    return cupy.tensordot(a, b, axes)


def _logical(name: str) -> Callable:
    # cupy's logical functions have no complex loops; numpy's truth of a complex is != 0
    fn = getattr(cupy, name)

    def truth(x: Any) -> Any:
        if isinstance(x, cupy.ndarray):
            return x != 0 if x.dtype.kind == "c" else x
        return x != 0 if isinstance(x, (complex, np.complexfloating)) else x

    def logical(*args: Any, **kwargs: Any) -> Any:
        return fn(*map(truth, args), **kwargs)

    logical.__name__ = logical.__qualname__ = "_" + name
    return logical


def _gradient(f: Any, *varargs: Any, **kwargs: Any) -> Any:
    if callable(f) and not isinstance(f, cupy.ndarray):
        raise no_autodiff(f, "cupy")
    return cupy.gradient(f, *varargs, **kwargs)


# ---------------------------------------------------------------- elementwise


def _spacing(x: Any) -> Any:
    # cupy has no spacing: the distance to the next float away from zero
    x = _ufunc_float(_lift(x), "spacing")
    return cupy.nextafter(x, cupy.copysign(cupy.asarray(np.inf, x.dtype), x)) - x


def _is_int(x: Any) -> bool:
    if isinstance(x, cupy.ndarray):
        return x.dtype.kind in "iu"
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _power(x1: Any, x2: Any, /, **kwargs: Any) -> Any:
    # cupy gives 0 for an integer to a negative integer power; numpy raises
    if _is_int(x1) and _is_int(x2) and bool((_lift(x2) < 0).any()):
        raise ValueError("Integers to negative integer powers are not allowed.")
    return cupy.power(x1, x2, **kwargs)


def _floor_divide(x1: Any, x2: Any, /, **kwargs: Any) -> Any:
    # cupy's float floor_divide gives +-inf for an infinite dividend; numpy's is NaN
    # (the floor of inf/x is computed from fmod, which is NaN there), unless x2 is 0
    r = cupy.floor_divide(x1, x2, **kwargs)
    if r.dtype.kind == "f":
        inf = cupy.isinf(cupy.asarray(x1, dtype=r.dtype))  # cupy has no isinf for integers
        r = cupy.where(inf & (_lift(x2) != 0), cupy.asarray(np.nan, r.dtype), r)
    return r


def _remainder(x1: Any, x2: Any, /, **kwargs: Any) -> Any:
    # cupy's float remainder is NaN for an infinite divisor and gives its zeros the
    # dividend's sign; numpy's is x1 where x1 and x2 share a sign (x2 where they do
    # not) for an infinite x2 and a finite x1, and its zeros take the divisor's sign
    r = cupy.remainder(x1, x2, **kwargs)
    if r.dtype.kind != "f":
        return r
    a, b = cupy.asarray(x1, dtype=r.dtype), cupy.asarray(x2, dtype=r.dtype)
    same = (a == 0) | (cupy.signbit(a) == cupy.signbit(b))
    r = cupy.where(cupy.isinf(b) & cupy.isfinite(a), cupy.where(same, a, b), r)
    return cupy.where(r == 0, cupy.copysign(cupy.zeros_like(r), b), r)


def _divmod(x1: Any, x2: Any, /) -> tuple[Any, Any]:
    return _floor_divide(x1, x2), _remainder(x1, x2)


def _frexp(x: Any, /) -> tuple[Any, Any]:
    """numpy's ``frexp`` from the bits: cupy's float arithmetic on subnormal numbers
    (and so the composed ``frexp``) loses them."""
    return frexp_from_bits(_ufunc_float(_lift(x), "frexp"), cupy, lambda v, t: v.view(t))


# ---------------------------------------------------------------- linalg


def _cholesky(a: Any, upper: bool = False) -> Any:
    # cupy's cholesky has no ``upper`` keyword (numpy 2 has)
    low = cupy.linalg.cholesky(a)
    return cupy.swapaxes(low, -1, -2).conj() if upper else low


def _cho_factor(a: Any, lower: bool = False, overwrite_a: bool = False,
                check_finite: bool = True) -> tuple[Any, bool]:
    # not in cupyx.scipy.linalg: the Cholesky factor and its triangle flag (overwrite_a
    # only allows scipy to write into ``a``: never done here)
    if check_finite:
        _check_finite(a)
    return _cholesky(a, upper=not lower), lower


def _cho_solve(c_and_lower: Any, b: Any, overwrite_b: bool = False,
               check_finite: bool = True) -> Any:
    c, lower = c_and_lower
    if check_finite:
        _check_finite(c, b)
    st = functools.partial(_csl.solve_triangular, check_finite=False)
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


def _all_real(a: Any, w: Any) -> bool:
    # cupy's eig is complex always; numpy's real where it can be, before numpy 2.5
    return (NUMPY_REAL_EIG and cupy.asarray(a).dtype.kind != "c"
            and not bool((w.imag != 0).any()))


def _eigvals(a: Any) -> Any:
    w = cupy.linalg.eigvals(a)
    return w.real if _all_real(a, w) else w


def _eig(a: Any) -> Any:
    w, v = cupy.linalg.eig(a)
    return (w.real, v.real) if _all_real(a, w) else (w, v)


def _lu(a: Any, *args: Any, **kwargs: Any) -> Any:
    # cupyx.scipy.linalg.lu factors one matrix; scipy's (1.15+) a stack of them
    a = cupy.asarray(a)
    if a.ndim <= 2:
        return _csl.lu(a, *args, **kwargs)
    mats = a.reshape(-1, *a.shape[-2:])
    if mats.shape[0] == 0:  # the shapes of one factorization, none of them computed
        one = _csl.lu(cupy.zeros(a.shape[-2:], a.dtype), *args, **kwargs)
        return tuple(cupy.empty((*a.shape[:-2], *f.shape), f.dtype) for f in one)
    parts = zip(*(_csl.lu(m, *args, **kwargs) for m in mats), strict=True)
    return tuple(cupy.stack(p).reshape(*a.shape[:-2], *p[0].shape) for p in parts)


# ---------------------------------------------------------------- special


def _at_inf(name: str, pos: float, neg: float) -> Callable:
    """cupyx's ``scipy.special.name`` with scipy's values at +inf and -inf."""

    def special(x: Any, *args: Any, **kwargs: Any) -> Any:
        r = getattr(_csp, name)(x, *args, **kwargs)
        x = _lift(x)
        if r.dtype.kind != "f" or x.dtype.kind not in "fc":
            return r
        r = cupy.where(cupy.isposinf(x), cupy.asarray(pos, r.dtype), r)
        return cupy.where(cupy.isneginf(x), cupy.asarray(neg, r.dtype), r)

    special.__name__ = special.__qualname__ = "_" + name
    return special


# scipy's values where cupyx's Bessel functions differ: NaN for the oscillating and
# growing ones, 0 for the scaled ones (-0 for i1e at -inf)
_BESSEL_AT_INF = {
    "j0": (np.nan, np.nan), "j1": (np.nan, np.nan), "y0": (np.nan, np.nan),
    "y1": (np.nan, np.nan), "i0": (np.nan, np.nan), "i1": (np.nan, np.nan),
    "i0e": (0.0, 0.0), "i1e": (0.0, -0.0), "k0e": (0.0, np.nan), "k1e": (0.0, np.nan),
}


def _zeta(x: Any, q: Any = None, out: Any = None) -> Any:
    # cupyx's zeta is Hurwitz's only, q given positionally; scipy's zeta(x) (q=None) is
    # Riemann's, continued below x = 1 (riemann_zeta); scipy's edges (hurwitz_edges)
    if out is not None:
        raise TypeError("zeta(out=...) is not supported: dispatch never writes into arrays")
    if q is None:
        x = _lift(x)
        return riemann_zeta(x if x.dtype.kind == "f" else x.astype(np.float64), _csp.zeta)
    return hurwitz_edges(x, q, _csp.zeta(x, q))


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

# the numpy reductions whose cupy namesakes lack where= (and initial=)
_REDUCTIONS = "sum prod mean std var all any amax amin max min nansum"

TABLE = merge_tables(
    {
        # conversion and introspection
        "to_numpy": _to_numpy,
        "from_numpy": "asarray",
        "astype": _astype,
        "cast": _astype,
        "to_backend_dtype": np.dtype,
        "to_device": _to_device,
        "from_dlpack": _from_dlpack,
        "stop_gradient": lambda x: x,
        "complex": _complex,
        "concat": alias("concatenate"),
        "conj": NATIVE,
        # reductions: numpy's where= and initial= (_reduction)
        "nanmean": _nanmean,
        "nanmax": _reduction("nanmax", _reductions.nanmax),
        "nanmin": _reduction("nanmin", _reductions.nanmin),
        "nanprod": _reduction("nanprod", _reductions.nanprod),
        "count_nonzero": _count_nonzero,
        # sorting, shape and indexing: numpy 2's keywords, array-likes
        "sort": _sort,
        "argsort": _argsort,
        "reshape": _reshape,
        "take": _take,
        "meshgrid": _meshgrid,
        "where": _where,
        "choose": _choose,
        "ediff1d": _lifted(cupy.ediff1d, "to_begin", "to_end"),
        "ascontiguousarray": _lifted(cupy.ascontiguousarray),
        "gradient": _gradient,
        # elementwise
        "spacing": _spacing,
        "power": _power,
        "floor_divide": _floor_divide,
        "remainder": _remainder,
        "mod": _remainder,
        "divmod": _divmod,
        "frexp": _frexp,
        # linalg
        "dot": _dot,
        "inner": _inner,
        "tensordot": _tensordot,
        "linalg.cholesky": _cholesky,
        "linalg.eig": _eig if _HAS_EIG else unsupported(_NO_EIG.format("eig")),
        "linalg.eigvals": _eigvals if _HAS_EIG else unsupported(_NO_EIG.format("eigvals")),
        "linalg.expm": "scipy.linalg.expm" if _HAS_EXPM else _NO_EXPM,
        "scipy.linalg.expm": NATIVE if _HAS_EXPM else _NO_EXPM,
        "linalg.lu": _lu,
        "scipy.linalg.lu": _lu,
        "linalg.householder_product": _householder_product,
        "scipy.linalg.cho_factor": _cho_factor,
        "scipy.linalg.cho_solve": _cho_solve,
        # scipy.special: scipy's values where cupyx's differ
        "scipy.special.zeta": _zeta,
        # random: numpy's module-level draws come from _RNG[0] (stateful_random below)
        "random.default_rng": _default_rng(_Generator),
        "random.seed": _seed,
        "linalg.multi_dot": _multi_dot,
        # devices (the backend method list)
        "list_devices": _list_devices,
        "get_device": _get_device,
        "allocate_on_device": _to_device,
    },
    {name: _reduction(name) for name in _REDUCTIONS.split()},
    # the method list: no autodiff, and no sparse constructors yet
    dict.fromkeys(("jit_compile_grad", "jit_compile_hessian", "jacobian", "hessian"),
                  unsupported("cupy has no automatic differentiation")),
    dict.fromkeys(("sparse_coo_tensor", "csr_matrix", "csc_matrix", "sparse_coo_tensor_batched",
                   "csr_matrix_batched", "csc_matrix_batched"),
                  unsupported("the method list's sparse constructors are not written for "
                              "cupyx.scipy.sparse; build the matrix with cupyx.scipy.sparse")),
    {name: _logical(name) for name in ("logical_and", "logical_or", "logical_xor", "logical_not")},
    {f"scipy.special.{n}": _at_inf(n, *v) for n, v in _BESSEL_AT_INF.items()},
    # cupy's own (numpy semantics) beat the composed fallbacks of translations/_composed/;
    # the composed ones stay where cupy's differ from numpy (nanargmax, nanvar, nanstd,
    # average, quantile, percentile, histogram, interp, column_stack, isfortran)
    native_entries(
        "convolve correlate linalg.tensorinv linalg.tensorsolve nancumsum nanmedian "
        "compress digitize isin fft.hfft fft.ihfft scipy.linalg.lu_solve "
        "shares_memory may_share_memory asanyarray iscomplex isreal"
    ),
    # scipy.special: cupyx.scipy.special's beat the composed fallbacks (polygamma: the
    # composed one, over the zeta above; cupyx's takes no Python int n)
    native_entries(" ".join(n for n in SCIPY_SPECIAL_NATIVE.split() if n != "polygamma"),
                   "scipy.special."),
    # cupy: no geomspace, no array base of logspace; its windows are computed in float32
    fill_entries("cupy", "geomspace", "logspace",
                 "bartlett", "blackman", "hamming", "hanning", "kaiser"),
    backend_entries("cupy"),  # the list's methods written once, bound to cupy
    stateful_random(_RNG),
    no_autodiff_entries("cupy"),  # jax's transforms: none without autodiff
    names=("cupy", "reductions", "no autodiff", "no sparse constructors", "logical",
           "Bessel at inf", "native beats composed", "scipy.special", "fills", "bound",
           "stateful random", "autodiff"),
)
