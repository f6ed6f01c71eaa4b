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

import collections
import contextlib
import functools
import itertools
import os
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations import _safety
from dispatch.translations._adapters import argnums as _argnums
from dispatch.translations._adapters import first_output as _first
from dispatch.translations._adapters import ravel_order as _ravel_order
from dispatch.translations._adapters import stateful_random, take_index, take_mode
from dispatch.translations._composed import statistics as _statistics
from dispatch.translations._composed.bound import backend_entries
from dispatch.translations._composed.control import vectorized_call as _vectorized_call_composed
from dispatch.translations._composed.counting import (
    _bincount_fixed_jax,
    _searchsorted_batched_jax,
)
from dispatch.translations._composed.devices import ComputeDevice, list_devices_filtered
from dispatch.translations._composed.devices import (
    set_default_device as _set_default_device_composed,
)
from dispatch.translations._composed.indexing import _scatter_1d_scalar_jax
from dispatch.translations._composed.selection import gradient as finite_differences
from dispatch.translations._composed.special import (
    hurwitz_edges,
    polygamma_edges,
    riemann_zeta,
)

from dispatch.engine import NATIVE, alias, unsupported

TYPES = ("jax", "jaxlib")
MODULES = {"": "jax.numpy", "scipy": "jax.scipy"}
# what a name may reach (docs/safety.md)
SUBMODULES = ("jax.numpy.linalg", "jax.numpy.fft", "jax.scipy.*")
REFUSED = {"jax.numpy.set_printoptions": _safety.GLOBAL}
GUARDED = {"jax.numpy.load": {"allow_pickle": False}}
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


def _logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
              base: Any = 10.0, dtype: Any = None, axis: int = 0) -> Any:
    # jnp.logspace does not broadcast an array base with start and stop, as numpy does
    if not jnp.ndim(base):
        return jnp.logspace(start, stop, num, endpoint, base, dtype, axis)
    start, stop, base = jnp.broadcast_arrays(start, stop, base)
    y = jnp.linspace(start, stop, num, endpoint, axis=axis)
    out = jnp.power(jnp.expand_dims(base, axis), y)
    return out if dtype is None else out.astype(dtype)


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


def _angle(z: Any, deg: bool = False) -> Any:
    # jnp.angle returns float64 for a 0-d float32 array under x64; numpy keeps the
    # argument's precision (complex64 -> float32)
    z = jnp.asarray(z)
    out = jnp.angle(z, deg)
    if jnp.issubdtype(z.dtype, jnp.inexact):
        return out.astype(jnp.finfo(z.dtype).dtype)
    return out


def _float_power(x1: Any, x2: Any) -> Any:
    # numpy computes float_power in float64 (complex128) whatever the inputs; jax keeps
    # float32 (without x64 the widest float is float32 anyway)
    wide = jax.dtypes.canonicalize_dtype(
        np.complex128 if jnp.iscomplexobj(x1) or jnp.iscomplexobj(x2) else np.float64
    )
    return jnp.float_power(jnp.asarray(x1, wide), jnp.asarray(x2, wide))


def _is_int(x: Any) -> bool:
    dt = x.dtype if hasattr(x, "dtype") else np.asarray(x).dtype
    return jnp.issubdtype(dt, jnp.integer)


_promoting_power = _promoting(jnp.power)


def _power(x1: Any, x2: Any, /) -> Any:
    # jax gives 0 for an integer to a negative integer power; numpy raises. The
    # exponent is read when it can be (eagerly); traced for jit, jax's 0 stays
    if (
        _is_int(x2)
        and _is_int(x1)
        and not isinstance(x2, jax.core.Tracer)
        and bool(np.any(np.asarray(x2) < 0))
    ):
        raise ValueError("Integers to negative integer powers are not allowed.")
    return _promoting_power(x1, x2)


_promoting_floor_divide = _promoting(jnp.floor_divide)


def _floor_divide(x1: Any, x2: Any, /) -> Any:
    # jax's integer floor_divide by zero gives arbitrary values (-1, -2, 255); numpy
    # gives 0 (with a RuntimeWarning), as jax's own remainder does
    r = _promoting_floor_divide(x1, x2)
    if _is_int(x1) and _is_int(x2):
        r = jnp.where(jnp.asarray(x2) == 0, jnp.zeros_like(r), r)
    return r


def _integral(fn: Callable, default: str = "full") -> Callable:
    @functools.wraps(fn)
    def integral(a: Any, v: Any, mode: str = default) -> Any:
        if fn is jnp.convolve:  # numpy's convolve reads a 0-d input as length 1
            a, v = jnp.atleast_1d(a), jnp.atleast_1d(v)
        # jax convolves integers in floats; numpy's result keeps the integer dtype
        out = fn(a, v, mode)
        dtype = jnp.result_type(a, v)
        if jnp.issubdtype(dtype, jnp.integer) or dtype == jnp.bool_:
            return jnp.round(out).astype(dtype)
        return out

    return integral


def _split_at(ary: Any, indices: Any, axis: int) -> list:
    # numpy splits at indices as slices do: indices past the end give empty pieces;
    # jax refuses them
    ary = jnp.asarray(ary)
    lead = (slice(None),) * (axis % ary.ndim)
    bounds = [0, *(int(i) for i in indices), ary.shape[axis]]
    return [ary[(*lead, slice(b0, b1))] for b0, b1 in itertools.pairwise(bounds)]


def _splitter(fn: Callable, axis_of: Callable | None = None) -> Callable:
    @functools.wraps(fn)
    def split(ary: Any, indices_or_sections: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(indices_or_sections, (int, np.integer)):
            return fn(ary, indices_or_sections, *args, **kwargs)
        ary = jnp.asarray(ary)
        axis = axis_of(ary) if axis_of else (args[0] if args else kwargs.get("axis", 0))
        return _split_at(ary, indices_or_sections, axis)

    return split


# ---------------------------------------------------------------- numpy keywords


def _ravel(a: Any, order: Any = "C") -> Any:
    # jax implements 'C' and 'F' only; its arrays expose no memory layout, so 'A' and
    # 'K' read them as the C-contiguous arrays they stand for
    return jnp.ravel(a, "F" if _ravel_order(order) == "F" else "C")


def _atleast(fn: Callable) -> Callable:
    def atleast(*arys: Any) -> Any:
        # numpy reads one list argument as one array (jax refuses lists) and returns
        # several results as a tuple (jax: a list)
        if len(arys) == 1 and isinstance(arys[0], (list, tuple)):
            return fn(jnp.asarray(arys[0]))
        out = fn(*arys)
        return tuple(out) if isinstance(out, list) else out

    atleast.__name__ = atleast.__qualname__ = "_" + fn.__name__
    return atleast


def _where(condition: Any, x: Any = None, y: Any = None, /) -> Any:
    # jnp.where refuses a list condition; numpy reads it as an array
    if isinstance(condition, (list, tuple)):
        condition = jnp.asarray(condition)
    if x is None and y is None:
        return jnp.where(condition)
    return jnp.where(condition, x, y)


def _truth(fn: Any) -> Any:
    """jax's all/any read a complex value by its real part (jnp.all(0.25j) is False);
    numpy's truth of a complex is ``z != 0``."""

    def reduce(a: Any, axis: Any = None, out: None = None, keepdims: bool = False, *,
               where: Any = None) -> Any:
        a = jnp.asarray(a)
        if jnp.iscomplexobj(a):
            a = a != 0
        if where is None:
            return fn(a, axis=axis, keepdims=keepdims)
        return fn(a, axis=axis, keepdims=keepdims, where=where)

    reduce.__name__ = fn.__name__
    return reduce


def _clip(a: Any, a_min: Any = None, a_max: Any = None, *, min: Any = None, max: Any = None):
    # jax accepts only the array API's min/max, not numpy's a_min/a_max keywords
    return jnp.clip(a, a_min if min is None else min, a_max if max is None else max)


def _take(a: Any, indices: Any, axis: int | None = None, out: None = None,
          mode: Any = None, **kwargs: Any) -> Any:
    # jnp.take's default mode fills out-of-bounds slots (NaN, or the minimum integer)
    # where numpy's 'raise' refuses them: the indices are checked when they can be read
    # (eagerly); traced for jit, nothing can raise and jax's filling stays (documented)
    if mode == "fill" or kwargs:  # jax's own mode and keywords
        return jnp.take(a, indices, axis=axis, mode=mode, **kwargs)
    mode = take_mode(mode)
    if mode != "raise":
        return jnp.take(a, indices, axis=axis, mode=mode)
    a = jnp.asarray(a)
    if isinstance(indices, jax.core.Tracer):
        return jnp.take(a, indices, axis=axis, mode="fill")
    n = a.size if axis is None else a.shape[axis]
    idx = take_index(np.asarray(indices), n, axis or 0, mode)
    return jnp.take(a, idx, axis=axis, mode="clip")  # checked: clipping changes nothing


def _hermitian_from(a: Any, UPLO: str) -> Any:
    """The Hermitian matrix numpy's eigh reads from one triangle of ``a``."""
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    a = jnp.asarray(a)
    if not jnp.issubdtype(a.dtype, jnp.inexact):
        a = a.astype(jnp.result_type(float))
    strict = jnp.tril(a, -1) if UPLO == "L" else jnp.triu(a, 1)
    # LAPACK reads the real part of the diagonal only
    diag = jnp.real(jnp.diagonal(a, axis1=-2, axis2=-1)).astype(a.dtype)
    eye = jnp.eye(a.shape[-1], dtype=a.dtype)
    return strict + jnp.conj(jnp.swapaxes(strict, -1, -2)) + diag[..., :, None] * eye


def _eigh(a: Any, UPLO: str = "L") -> Any:
    # jnp.linalg.eigh symmetrizes its input (averages both triangles) and ignores the
    # triangle UPLO names; numpy reads that triangle only
    return jnp.linalg.eigh(_hermitian_from(a, UPLO), symmetrize_input=False)


def _eigvalsh(a: Any, UPLO: str = "L") -> Any:
    return _eigh(a, UPLO).eigenvalues


def _real_if_real(w: Any, a: Any) -> bool:
    # numpy's eig returns real arrays when every eigenvalue of a real matrix is real;
    # jax's is always complex (read from the values, so eager only: traced stays complex)
    return (
        not jnp.iscomplexobj(a)
        and not isinstance(w, jax.core.Tracer)
        and not bool(jnp.any(jnp.imag(w) != 0))
    )


EigResult = collections.namedtuple("EigResult", ["eigenvalues", "eigenvectors"])


def _eig(a: Any) -> Any:
    w, v = jnp.linalg.eig(a)
    if _real_if_real(w, a):
        w, v = jnp.real(w), jnp.real(v)
    return EigResult(w, v)


def _eigvals(a: Any) -> Any:
    w = jnp.linalg.eigvals(a)
    return jnp.real(w) if _real_if_real(w, a) else w


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
    # jax counts in floats; numpy's plain counts are integers. numpy's edges are a
    # float64 linspace cast to the data's float type: jax's float32 linspace can move an
    # edge past a value (0.0 became 3.7e-09) and the value into the bin on the left
    a = jnp.asarray(a)
    if isinstance(bins, (int, np.integer)):
        wide = jax.dtypes.canonicalize_dtype(np.float64)
        if range is not None:
            lo, hi = jnp.asarray(range[0], wide), jnp.asarray(range[1], wide)
        elif a.size:
            lo, hi = a.min().astype(wide), a.max().astype(wide)
        else:
            lo, hi = jnp.asarray(0.0, wide), jnp.asarray(1.0, wide)
        lo, hi = jnp.where(lo == hi, lo - 0.5, lo), jnp.where(lo == hi, hi + 0.5, hi)
        kind = a.dtype if jnp.issubdtype(a.dtype, jnp.floating) else wide
        step = (hi - lo) / int(bins)  # numpy's linspace: arange * step + start, exact end
        edges = (jnp.arange(int(bins) + 1, dtype=wide) * step + lo).at[-1].set(hi)
        bins, range = edges.astype(kind), None
    hist, edges = jnp.histogram(a, bins, range, weights, density)
    if weights is not None and not density:  # numpy sums in the weights' dtype
        return hist.astype(jnp.asarray(weights).dtype), edges
    return (hist.astype(int) if weights is None and not density else hist), edges


def _nan_arg(fn: Callable) -> Callable:
    def arg(a: Any, axis: Any = None, out: None = None, *, keepdims: bool = False) -> Any:
        r = fn(a, axis=axis, keepdims=keepdims)
        # jnp marks an all-NaN slice with -1 (a jitted function needs a value); numpy
        # raises, which is done here where the values can be read (not while tracing)
        if not isinstance(r, jax.core.Tracer) and bool(jnp.any(r < 0)):
            raise ValueError("All-NaN slice encountered")
        return r

    arg.__name__ = arg.__qualname__ = f"_{fn.__name__}"
    return arg


def _q_array(fn: Callable) -> Callable:
    composed = getattr(_statistics, fn.__name__)

    def quantile(a: Any, q: Any, *args: Any, **kwargs: Any) -> Any:
        method = args[3] if len(args) > 3 else kwargs.get("method", "linear")
        if method == "nearest" or (method == "midpoint" and "percentile" in fn.__name__):
            # jnp's midpoint percentile averages the two neighbours even at an exact
            # order statistic (numpy takes that value), and its nearest rounds a half
            # index down (numpy: to even): the composed version
            return composed(a, q, *args, **kwargs)
        # jnp's quantiles take q as an array or a number; numpy's also as a list
        r = fn(a, jnp.asarray(q) if isinstance(q, (list, tuple)) else q, *args, **kwargs)
        keepdims = args[4] if len(args) > 4 else kwargs.get("keepdims", False)
        # jnp keeps a 0-d input's dimensions as (1,); numpy as ()
        return r.reshape(np.shape(q)) if keepdims and jnp.ndim(a) == 0 else r

    quantile.__name__ = quantile.__qualname__ = f"_{fn.__name__}"
    return quantile


def _accumulating(fn: Callable) -> Callable:
    """``fn`` (a cumulative sum or product) accumulating small integers and bools in
    the default integer, as numpy does (jax keeps the input's integer type)."""

    @functools.wraps(fn)
    def run(a: Any, axis: Any = None, dtype: Any = None, out: None = None) -> Any:
        a = jnp.asarray(a)
        if dtype is None:
            dtype = _accumulator(a.dtype)
        return fn(a, axis=axis, dtype=dtype)

    return run


def _accumulator(dt: Any) -> Any:
    dt = np.dtype(dt)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < np.dtype(np.int_).itemsize):
        return jax.dtypes.canonicalize_dtype(np.int_)
    if dt.kind == "u" and dt.itemsize < np.dtype(np.uint).itemsize:
        return jax.dtypes.canonicalize_dtype(np.uint)
    return None


def _nanmedian(a: Any, axis: Any = None, out: None = None, overwrite_input: bool = False,
               keepdims: bool = False) -> Any:
    r = jnp.nanmedian(a, axis=axis, out=out, overwrite_input=overwrite_input,
                      keepdims=keepdims)
    # jnp keeps a 0-d input's dimensions as (1,); numpy as ()
    return r.reshape(()) if keepdims and jnp.ndim(a) == 0 else r


def _lu(a: Any, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True,
        p_indices: bool = False) -> Any:
    x = jnp.asarray(a)
    if x.ndim <= 2 and not p_indices:
        return jax.scipy.linalg.lu(x, permute_l=permute_l)
    # jax.scipy's lu takes one matrix and no p_indices; lax's factors stacks too
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        x = x.astype(jnp.result_type(float))
    m, n = x.shape[-2:]
    k = min(m, n)
    packed, _, perm = jax.lax.linalg.lu(x)  # x[perm] = L @ U
    L = jnp.tril(packed[..., :, :k], -1) + jnp.eye(m, k, dtype=x.dtype)
    U = jnp.triu(packed[..., :k, :])
    Pt = jax.nn.one_hot(perm, m, dtype=x.dtype)  # scipy's P (x = P @ L @ U) transposed
    if permute_l:
        return jnp.swapaxes(Pt, -1, -2) @ L, U
    if p_indices:
        return jnp.argsort(perm, axis=-1).astype(jnp.int32), L, U
    return jnp.swapaxes(Pt, -1, -2), L, U


def _softmax(x: Any, axis: Any = None) -> Any:
    # scipy takes axis positionally too; jax.scipy only as a keyword
    return jax.scipy.special.softmax(x, axis=axis)


def _log_softmax(x: Any, axis: Any = None) -> Any:
    return jax.scipy.special.log_softmax(x, axis=axis)


# scipy.special, issue 5 (H9)


def _digamma(x: Any) -> Any:
    # jax's digamma(0) is nan; scipy's psi(+0) is -inf and psi(-0) is +inf
    out = jax.scipy.special.digamma(x)
    x = jnp.asarray(x).astype(out.dtype)
    return jnp.where(x == 0, -1 / x, out)


def _zeta(x: Any, q: Any = None) -> Any:
    # jax's zeta(x) raises NotImplementedError without q, and its Hurwitz zeta is nan for
    # x < 1: scipy's q=None is Riemann's zeta, continued below 1 (riemann_zeta)
    if q is not None:
        # and nan at the poles q = 0, -1, ..., at x = inf and at q = inf
        return hurwitz_edges(x, q, jax.scipy.special.zeta(x, q))
    x = jnp.asarray(x)
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        x = x.astype(jnp.result_type(float))
    return riemann_zeta(x, jax.scipy.special.zeta)


def _polygamma(n: Any, x: Any) -> Any:
    # jax's polygamma is nan at the poles x = 0, -1, ... and at x = inf; scipy: +-inf, 0
    out = polygamma_edges(n, x, jax.scipy.special.polygamma(n, x))
    return jnp.where(jnp.asarray(n) == 0, _digamma(x).astype(out.dtype), out)


def _float_arg(fn: Callable) -> Callable:
    # jax's ndtr and log_ndtr refuse integer arrays; scipy computes them in float64
    def special(x: Any) -> Any:
        x = jnp.asarray(x)
        if not jnp.issubdtype(x.dtype, jnp.inexact):
            x = x.astype(jnp.result_type(float))
        return fn(x)

    special.__name__ = special.__qualname__ = f"_{fn.__name__}"
    return special


_NO_BESSEL = (
    "jax.scipy.special has no {}, and no accurate composition exists from its functions "
    "(bessel_jn's fixed-length recurrence is wrong beyond |x| ~ 30 and nan at 0)"
)


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


# ---------------------------------------------------------------- method list: indexing, counting
# The backend method list's layouts are documented on the composed fallbacks in
# ``translations/_composed/``; jax's functional scatter (``x.at[i].add``), its bincount
# with a static length and a vmapped searchsorted are the kernels behind them, and
# work under jit.


def _gather(values: Any, indices: Any, axis: int = 0) -> Any:
    # jnp.take clamps or fills out-of-range indices; the list's gather wants numpy's
    # wrapping of negative indices, which take's mode="wrap" gives for in-range ones too
    return jnp.take(values, indices, axis=axis, mode="wrap")


def _histogram1d(values: Any, weights: Any, bin_edges: Any) -> Any:
    # one vmapped searchsorted and one flat scatter-add (static sizes: works under jit)
    edges = bin_edges.shape[-1]
    nbins = edges - 1
    batch = max(values.shape[0], bin_edges.shape[0], 1 if weights is None else weights.shape[0])
    v = jnp.broadcast_to(values, (batch, values.shape[-1]))
    e = jnp.broadcast_to(bin_edges, (batch, edges)).astype(jnp.result_type(v, bin_edges))
    slot = jax.vmap(lambda ee, vv: jnp.searchsorted(ee, vv, side="right"))(e, v.astype(e.dtype))
    slot = jnp.where(v == e[:, -1:], nbins, slot) - 1  # the last bin is closed
    valid = (slot >= 0) & (slot < nbins)
    flat = jnp.where(valid, slot + (jnp.arange(batch) * nbins)[:, None], batch * nbins)
    if weights is None:
        w = jnp.ones(v.shape, dtype=int)
    else:
        w = jnp.broadcast_to(weights, v.shape)
        w = w.astype(int) if w.dtype == bool else w
    out = jnp.zeros(batch * nbins + 1, w.dtype).at[flat.reshape(-1)].add(w.reshape(-1))
    return out[:-1].reshape(batch, nbins)


# ---------------------------------------------------------------- method list: sparse


def _sparse_module() -> Any:
    from jax.experimental import sparse

    return sparse


def _sparse_coo_tensor(indices: Any, values: Any, shape: Any) -> Any:
    # BCOO takes (data, indices (nnz, dims)) as the list gives them; values (nnz, channels)
    # become one dense trailing axis; duplicates are kept (summed by every operation)
    values = jnp.asarray(values)
    idx = jnp.asarray(indices).reshape(-1, len(shape)).astype(int)
    size = (*(int(s) for s in shape), *values.shape[1:])
    return _sparse_module().BCOO((values, idx), shape=size)


def _csr_matrix(column_indices: Any, row_pointers: Any, values: Any, shape: Any) -> Any:
    # jax.experimental.sparse.CSR((data, indices, indptr)): scipy's order of the parts
    return _sparse_module().CSR(
        (jnp.asarray(values), jnp.asarray(column_indices), jnp.asarray(row_pointers)),
        shape=tuple(int(s) for s in shape),
    )


def _csc_matrix(column_pointers: Any, row_indices: Any, values: Any, shape: Any) -> Any:
    return _sparse_module().CSC(
        (jnp.asarray(values), jnp.asarray(row_indices), jnp.asarray(column_pointers)),
        shape=tuple(int(s) for s in shape),
    )


def _is_sparse(x: Any) -> bool:
    return isinstance(x, _sparse_module().JAXSparse)


_SPARSE_FORMATS = {"BCOO": "coo", "CSR": "csr", "CSC": "csc", "BCSR": "csr", "COO": "coo"}


def _get_sparse_format(x: Any) -> str:
    if not _is_sparse(x):
        return "dense"
    return _SPARSE_FORMATS.get(type(x).__name__, type(x).__name__.lower())


def _disassemble(x: Any) -> tuple[Callable, tuple]:
    """``(assemble, parts)``: ``assemble(backend, *parts)`` rebuilds ``x`` on
    ``backend`` through that backend's constructor (the composed layout of parts)."""
    from dispatch.engine import do

    fmt = _get_sparse_format(x)
    shape = tuple(int(s) for s in x.shape)
    name = type(x).__name__
    if name == "BCOO":
        if x.n_batch:
            raise NotImplementedError("disassemble: batched BCOO has no list constructor")
        rows = x.n_sparse

        def coo(backend: Any, indices: Any, values: Any) -> Any:
            return do("sparse_coo_tensor", indices, values, shape[:rows], like=backend)

        return coo, (x.indices, x.data)
    if name in ("CSR", "CSC"):

        def compressed(backend: Any, values: Any, indices: Any, pointers: Any) -> Any:
            if fmt == "csr":
                return do("csr_matrix", indices, pointers, values, shape, like=backend)
            return do("csc_matrix", pointers, indices, values, shape, like=backend)

        return compressed, (x.data, x.indices, x.indptr)
    if fmt != "dense":
        raise NotImplementedError(f"disassemble: jax's {name} has no list constructor")

    def dense(backend: Any, t: Any) -> Any:
        return do("asarray", t, like=backend)

    return dense, (x,)


# ---------------------------------------------------------------- method list: fft, conv


def _complex_of(x: Any) -> Any:
    # the composed fft_axes' dtype: complex of the current precision when one is set,
    # else of the input's width (integers: complex of the default float)
    from dispatch.engine import get_precision

    bits = get_precision()
    if bits is not None:
        target = jnp.complex128 if bits > 32 else jnp.complex64
    elif jnp.iscomplexobj(x):
        return x
    else:
        target = jnp.complex128 if x.dtype == jnp.float64 else jnp.complex64
    return x.astype(jax.dtypes.canonicalize_dtype(target))


def _fft_axes(x: Any, axes: Any) -> Any:
    """The list's ``fft``: n-d FFT over ``axes`` (complex result, even for no axes)."""
    x = _complex_of(jnp.asarray(x))
    return jnp.fft.fftn(x, axes=tuple(axes)) if len(axes) else x


def _ifft_axes(k: Any, axes: Any) -> Any:
    k = _complex_of(jnp.asarray(k))
    return jnp.fft.ifftn(k, axes=tuple(axes)) if len(axes) else k


def _conv(value: Any, kernel: Any, strides: Any = 1, out_sizes: Any = None,
          transpose: bool = False, zero_padding: bool = True) -> Any:
    # lax.conv_general_dilated on the list's channels-first layout (value (batch, in,
    # spatial...), kernel (batch|1, out, in, k...)), with the composed version's padding:
    # k // 2 zeros before each axis ('same') or none, as many after as the output size
    # needs. lax correlates, like the composed conv. Per-entry kernels become a grouped
    # convolution; the transposed convolution stays composed.
    from dispatch.translations._composed.signal import conv as composed_conv

    kernel = jnp.asarray(kernel)
    d = value.ndim - 2
    if transpose or kernel.ndim != d + 3 or kernel.shape[2] != value.shape[1]:
        return composed_conv(value, kernel, strides, out_sizes, transpose, zero_padding)
    dtype = jnp.result_type(value, kernel)
    if not jnp.issubdtype(dtype, jnp.inexact):
        return composed_conv(value, kernel, strides, out_sizes, transpose, zero_padding)
    s = [int(strides)] * d if np.ndim(strides) == 0 else [int(v) for v in strides]
    n, k = list(value.shape[2:]), list(kernel.shape[3:])
    before = [kk // 2 if zero_padding else 0 for kk in k]
    if out_sizes is None:
        o = [-(-i // st) if zero_padding else max((i - kk) // st + 1, 0)
             for i, st, kk in zip(n, s, k, strict=True)]
    else:
        o = [int(v) for v in out_sizes]
    batch = max(value.shape[0], kernel.shape[0])
    cin, cout = value.shape[1], kernel.shape[1]
    if 0 in n or min(o, default=1) <= 0:
        return jnp.zeros((batch, cout, *(max(v, 0) for v in o)), dtype)
    after = [(oo - 1) * st + kk - i - b
             for oo, st, kk, i, b in zip(o, s, k, n, before, strict=True)]
    x, w = value.astype(dtype), kernel.astype(dtype)
    groups = 1
    if kernel.shape[0] != 1:  # one kernel per batch entry: groups over the batch
        x = jnp.broadcast_to(x, (batch, *x.shape[1:])).reshape(1, batch * cin, *n)
        w = jnp.broadcast_to(w, (batch, *w.shape[1:])).reshape(batch * cout, cin, *k)
        groups = batch
    else:
        w = w[0]
    # negative padding cuts, as the composed version's _pad_crop
    out = jax.lax.conv_general_dilated(
        x, w, window_strides=s, padding=list(zip(before, after, strict=True)),
        feature_group_count=groups, precision=jax.lax.Precision.HIGHEST,
    )
    return out.reshape(batch, cout, *out.shape[2:])


# ---------------------------------------------------------------- method list: autodiff


def _float_type() -> Any:
    from dispatch.engine import get_precision

    bits = get_precision()
    return jax.dtypes.canonicalize_dtype(float if bits is None else f"float{bits}")


def _inexact_args(args: tuple, argnums: tuple[int, ...]) -> tuple:
    # jax differentiates only floats: integer and bool arguments to differentiate
    # become floats of the current precision
    out = list(args)
    for i in argnums:
        a = jnp.asarray(out[i])
        out[i] = a if jnp.issubdtype(a.dtype, jnp.inexact) else a.astype(_float_type())
    return tuple(out)


def _jacobian(f: Callable, wrt: Any = (0,), get_output: bool = True,
              is_f_scalar: bool = False) -> Callable:
    """The list's ``jacobian``: a function returning the derivatives of ``f``.

    ``f(*args)`` returns an array, or a tuple/list whose first entry is the array to
    differentiate (the others are auxiliary outputs). The derivative with respect to
    ``args[i]`` for ``i`` in ``wrt`` has shape ``first.shape + args[i].shape``. The
    returned function gives ``(output, grads)`` with ``get_output``, else ``grads``;
    ``grads`` is a tuple with one entry per index of ``wrt``, or one array when ``wrt``
    is an int. ``is_f_scalar`` takes one reverse pass (jax.grad) instead of a
    Jacobian (jax.jacrev).

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> _jacobian(lambda x: x ** 2, wrt=0, get_output=False)(jnp.array([1.0, 2.0])).tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """
    argnums, single = _argnums(wrt)

    def value_and_aux(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        out = f(*args, **kwargs)
        return _first(out), out

    transform = jax.grad if is_f_scalar else jax.jacrev
    derivative = transform(value_and_aux, argnums=argnums, has_aux=True)

    @functools.wraps(f)
    def jacobian_of_f(*args: Any, **kwargs: Any) -> Any:
        grads, out = derivative(*_inexact_args(args, argnums), **kwargs)
        grads = grads[0] if single else tuple(grads)
        return (out, grads) if get_output else grads

    return jacobian_of_f


def _gradient(f: Any, *args: Any, **kwargs: Any) -> Any:
    """The list's ``gradient(f, wrt=(0,), get_output=False)`` of a scalar ``f``
    (``jacobian`` with ``is_f_scalar=True``); numpy's ``gradient`` of an array."""
    if not callable(f):  # numpy's finite differences keep numpy's name
        if kwargs.get("edge_order", 1) != 1:  # jnp.gradient has first-order edges only
            return finite_differences(f, *args, **kwargs)
        return jnp.gradient(f, *args, **kwargs)
    return _gradient_of(f, *args, **kwargs)


def _gradient_of(f: Callable, wrt: Any = (0,), get_output: bool = False) -> Callable:
    return _jacobian(f, wrt, get_output, is_f_scalar=True)


def _hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
             get_gradient: bool = True) -> Callable:
    """The list's ``hessian``: per-batch-entry Hessians of ``f``'s first output.

    Axis 0 of every argument is a batch axis whose entries are independent; the first
    output of ``f`` is a loss per batch entry or its sum. The returned function gives
    ``(output, gradients, hessians)`` without the output or gradients unless asked
    for. Gradients (of the summed loss) have the arguments' shapes;
    ``hessians[i][j]`` has shape (batch, *args[i].shape[1:], *args[j].shape[1:]). With
    an int ``wrt``: one gradient and one Hessian. Forward over reverse (as
    jax.hessian), one forward pass per component of a batch entry.
    """
    argnums, single = _argnums(wrt)

    @functools.wraps(f)
    def hessian_of_f(*args: Any, **kwargs: Any) -> tuple:
        args = _inexact_args(args, argnums)
        k = len(argnums)

        def loss(*xs: Any) -> tuple[Any, Any]:
            full = list(args)
            for i, x in zip(argnums, xs, strict=True):
                full[i] = x
            out = f(*full, **kwargs)
            return jnp.sum(_first(out)), out

        grad = jax.grad(loss, argnums=tuple(range(k)), has_aux=True)

        def summed_grads(*xs: Any) -> tuple[tuple, tuple]:
            g, out = grad(*xs)
            return tuple(gi.sum(0) for gi in g), (g, out)

        jac = jax.jacfwd(summed_grads, argnums=tuple(range(k)), has_aux=True)
        raw, (g, out) = jac(*(args[i] for i in argnums))
        hess = tuple(
            tuple(jnp.moveaxis(raw[i][j], args[argnums[i]].ndim - 1, 0) for j in range(k))
            for i in range(k)
        )
        result: tuple = (out,) if get_output else ()
        if get_gradient:
            result += (g[0] if single else tuple(g),)
        return (*result, hess[0][0] if single else hess)

    return hessian_of_f


def _custom_gradient(f: Callable, gradient: Callable, get_external_cache: Any = None,
                     on_call_skipped: Any = None) -> Callable:
    """The list's ``custom_gradient``: ``f`` with the derivative ``gradient``.

    ``gradient(x, y, dy)`` gets the tuple of inputs, ``f``'s output and its cotangent
    and returns one gradient (or None: zero) per input. Built on jax.custom_vjp, so
    every jax transform and jit uses it; ``f`` runs on every call, so
    ``get_external_cache`` and ``on_call_skipped`` are accepted and never needed.
    """

    def fwd(*args: Any) -> tuple[Any, Any]:
        y = f(*args)
        return y, (args, y)

    def bwd(res: Any, dy: Any) -> tuple:
        args, y = res
        dx = gradient(args, y, dy)
        dx = tuple(dx) if isinstance(dx, (tuple, list)) else (dx,)
        return tuple(_zero_cotangent(a) if d is None else jnp.asarray(d).astype(jnp.result_type(a))
                     for d, a in zip(dx, args, strict=True))

    custom = jax.custom_vjp(f)
    custom.defvjp(fwd, bwd)
    return functools.wraps(f)(lambda *args: custom(*args))


def _zero_cotangent(a: Any) -> Any:
    # integer inputs take float0 cotangents
    a = jnp.asarray(a)
    if jnp.issubdtype(a.dtype, jnp.inexact):
        return jnp.zeros_like(a)
    return np.zeros(a.shape, jax.dtypes.float0)


# ---------------------------------------------------------------- method list: jit
# ``jit_compile`` is jax.jit over the jax arrays among the (flattened) arguments; every
# other leaf (Python numbers, strings, numpy arrays) is static: part of the cache key
# and a compile-time constant in the trace, as numpy arrays are inside any jax.jit
# function. A new static value compiles a new function (Python numbers used as sizes
# must be static; pass jax arrays for values that change from call to call).


class _StaticLeaf:
    """A hashable stand-in for a static argument (numpy arrays by their bytes)."""

    __slots__ = ("key", "value")

    def __init__(self, value: Any):
        self.value = value
        if isinstance(value, np.ndarray):
            self.key: Any = ("ndarray", value.shape, value.dtype.str, value.tobytes())
        elif isinstance(value, np.generic):
            self.key = ("scalar", value.dtype.str, value.tobytes())
        else:
            try:
                hash(value)
            except TypeError:
                self.key = ("id", id(value))  # unhashable object: by identity
            else:
                self.key = (type(value), value)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _StaticLeaf) and self.key == other.key


_JIT_CACHE_SIZE = 64


class _JitFunction:
    """``f`` compiled by jax.jit per structure of its static arguments."""

    def __init__(self, f: Callable):
        self.f = f
        self.compiled: dict[Any, Callable] = {}
        functools.update_wrapper(self, f)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
        dynamic = tuple(isinstance(v, jax.Array) for v in leaves)
        static = tuple(_StaticLeaf(v) for v, d in zip(leaves, dynamic, strict=True) if not d)
        key = (treedef, dynamic, static)
        fn = self.compiled.get(key)
        if fn is None:
            if len(self.compiled) >= _JIT_CACHE_SIZE:
                self.compiled.pop(next(iter(self.compiled)))
            fn = self.compiled[key] = jax.jit(self._bind(treedef, dynamic, static))
        return fn(*(v for v, d in zip(leaves, dynamic, strict=True) if d))

    def _bind(self, treedef: Any, dynamic: tuple, static: tuple) -> Callable:
        f = self.f

        def run(*arrays: Any) -> Any:
            it_a, it_s = iter(arrays), iter(static)
            leaves = [next(it_a) if d else next(it_s).value for d in dynamic]
            args, kwargs = jax.tree_util.tree_unflatten(treedef, leaves)
            return f(*args, **kwargs)

        return run


def _jit_compile(f: Callable) -> Callable:
    """The list's ``jit_compile``: jax.jit with non-jax-array arguments static."""
    return f if isinstance(f, _JitFunction) else _JitFunction(f)


def _jit_compile_grad(f: Callable, wrt: Any = (0,), get_output: bool = True,
                      is_f_scalar: bool = False) -> Callable:
    return _jit_compile(_jacobian(f, wrt, get_output, is_f_scalar))


def _jit_compile_hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
                         get_gradient: bool = True) -> Callable:
    return _jit_compile(_hessian(f, wrt, get_output, get_gradient))


# ---------------------------------------------------------------- method list: control flow, host


def _loop_types(values: Any) -> Any:
    # lax loops want the body to return exactly the carried types (no weak types)
    return jax.tree_util.tree_map(lambda v: jnp.array(v, dtype=jnp.asarray(v).dtype), values)


def _while_loop(loop: Callable, values: Any, max_iter: Any = None) -> Any:
    """The composed ``while_loop`` on jax.lax.while_loop (jit-compatible, values
    stop gradients): run ``values = loop(*values)`` while ``any(values[0])``;
    ``max_iter`` an int limits the iterations, a sequence of increasing checkpoints
    stacks the values after each count (one lax loop per checkpoint segment)."""
    init = _loop_types(tuple(values))
    dtypes = jax.tree_util.tree_map(lambda v: v.dtype, init)

    def body(state: tuple) -> tuple:
        i, v = state
        out = tuple(loop(*v))
        out = jax.tree_util.tree_map(lambda o, dt: jax.lax.convert_element_type(o, dt),
                                     out, dtypes)
        return i + 1, out

    def run(i: Any, v: tuple, limit: Any) -> tuple:
        def cond(state: tuple) -> Any:
            n, vals = state
            go = jnp.any(vals[0])
            return go if limit is None else go & (n < limit)

        return jax.lax.while_loop(cond, body, (i, v))

    zero = jnp.zeros((), int)
    if isinstance(max_iter, (tuple, list)) or hasattr(max_iter, "shape"):
        checkpoints = [int(c) for c in np.asarray(max_iter).reshape(-1)]
        trajectory, i, v = [], zero, init
        for c in checkpoints:
            i, v = run(i, v, c)
            trajectory.append(v)
        stacked = jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *trajectory)
        return jax.lax.stop_gradient(stacked)
    _, v = run(zero, init, None if max_iter is None else int(max_iter))
    return jax.lax.stop_gradient(v)


def _vectorized_call(f: Callable, *args: Any, output_dtypes: Any = None,
                     **aux_args: Any) -> Any:
    # jax.vmap over axis 0 (arguments of size 1 there are shared); functions vmap cannot
    # run (Python control flow on values, host calls) fall back to the composed loop,
    # which re-raises their genuine errors
    if not args:
        raise ValueError("vectorized_call needs at least one batched argument")
    sizes = [v.shape[0] if hasattr(v, "shape") and np.ndim(v) else None for v in args]
    big = {s for s in sizes if s is not None and s != 1}
    if len(big) <= 1 and all(s is not None for s in sizes):
        batch = big.pop() if big else 1
        in_axes = tuple(0 if s == batch else None for s in sizes)
        shared = [jnp.asarray(a) if s == batch else jnp.asarray(a)[0]
                  for a, s in zip(args, sizes, strict=True)]
        try:
            out = jax.vmap(functools.partial(f, **aux_args), in_axes=in_axes)(*shared)
        except Exception:  # the loop below raises the real error, if there is one
            pass
        else:
            return _cast_outputs(out, output_dtypes)
    return _vectorized_call_composed(f, *args, output_dtypes=output_dtypes, **aux_args)


def _cast_outputs(out: Any, output_dtypes: Any) -> Any:
    if output_dtypes is None:
        return out
    if isinstance(out, (tuple, list)):
        many = isinstance(output_dtypes, (tuple, list))
        dts = output_dtypes if many else [output_dtypes] * len(out)
        return type(out)(o.astype(jnp.dtype(dt)) for o, dt in zip(out, dts, strict=True))
    return out.astype(jnp.dtype(output_dtypes))


def _is_shape(s: Any) -> bool:
    return isinstance(s, (tuple, list)) and all(isinstance(d, (int, np.integer)) for d in s)


def _numpy_call(f: Callable, output_shapes: Any, output_dtypes: Any, *args: Any,
                **aux_args: Any) -> Any:
    # jax.pure_callback: a host call on numpy copies that also runs inside jit and vmap
    # (vmap calls it once per batch entry); not differentiable. Non-array arguments stay
    # in Python. Declared dtypes follow jax's x64 setting (float64 -> float32 without).
    several = not _is_shape(output_shapes)
    shapes = list(output_shapes) if several else [output_shapes]
    many = isinstance(output_dtypes, (tuple, list))
    dts = list(output_dtypes) if many else [output_dtypes] * len(shapes)
    if any(dt is None for dt in dts):
        raise ValueError("numpy_call on jax needs output_dtypes (the host call's result "
                         "types must be known before it runs)")
    dtypes = [jax.dtypes.canonicalize_dtype(np.dtype(dt)) for dt in dts]
    structs = [jax.ShapeDtypeStruct(tuple(int(d) for d in s), dt)
               for s, dt in zip(shapes, dtypes, strict=True)]
    is_arr = [isinstance(a, (jax.Array, np.ndarray)) for a in args]
    arrays = [a for a, k in zip(args, is_arr, strict=True) if k]

    def host(*arrs: Any) -> Any:
        it = iter(arrs)
        full = [np.asarray(next(it)) if k else a for a, k in zip(args, is_arr, strict=True)]
        out = f(*full, **aux_args)
        outs = list(out) if several else [out]
        res = [np.asarray(o, dtype=dt) for o, dt in zip(outs, dtypes, strict=True)]
        return tuple(res) if several else res[0]

    out = jax.pure_callback(host, tuple(structs) if several else structs[0], *arrays,
                            vmap_method="sequential")
    return list(out) if several and isinstance(output_shapes, list) else out


def _block_until_ready(values: Any) -> Any:
    return jax.block_until_ready(values)


def _is_available(x: Any) -> bool:
    # tracers (jit, grad, vmap) have no value
    if _is_sparse(x):
        return not any(isinstance(p, jax.core.Tracer) for p in jax.tree_util.tree_leaves(x))
    return not isinstance(x, jax.core.Tracer)


def _numpy(x: Any) -> Any:
    # the list's ``numpy``: sparse arrays become scipy.sparse matrices
    if not _is_available(x):
        raise ValueError("the value of a jax tracer is not available while tracing")
    if not _is_sparse(x):
        return np.asarray(x)
    import scipy.sparse as sp

    name = type(x).__name__
    if name == "CSR":
        return sp.csr_matrix((np.asarray(x.data), np.asarray(x.indices), np.asarray(x.indptr)),
                             shape=x.shape)
    if name == "CSC":
        return sp.csc_matrix((np.asarray(x.data), np.asarray(x.indices), np.asarray(x.indptr)),
                             shape=x.shape)
    if name == "BCOO" and x.ndim == 2 and not x.n_batch and not x.n_dense:
        row, col = np.asarray(x.indices).T
        return sp.coo_matrix((np.asarray(x.data), (row, col)), shape=x.shape)
    return np.asarray(x.todense())


# ---------------------------------------------------------------- method list: random


def _random_permutations(permutations: int, n: int) -> Any:
    # one key per row from the seeded generator, permuted together by vmap
    keys = jax.random.split(_RNG[0]._next(), int(permutations))
    rows = jax.vmap(lambda key: jax.random.permutation(key, int(n)))(keys)
    return rows.astype(jax.dtypes.canonicalize_dtype(np.int64))


# ---------------------------------------------------------------- method list: devices, interop

_TYPES = {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "rocm": "GPU", "tpu": "TPU",
          "METAL": "GPU"}


def _device_record(d: Any) -> ComputeDevice:
    stats = _memory_stats(d)
    return ComputeDevice(
        "jax", f"{d.platform}:{d.id}", _TYPES.get(d.platform, d.platform.upper()),
        int(stats.get("bytes_limit", -1)), getattr(d, "core_count", -1) or -1,
        f"{d.device_kind} ({d.platform}, process {d.process_index})", d,
    )


def _memory_stats(d: Any) -> dict:
    # CPU devices report no memory statistics (None); some platforms raise
    try:
        return d.memory_stats() or {}
    except Exception:
        return {}


def _all_devices() -> list:
    devices = []
    for backend in ("cpu", "gpu", "tpu"):
        with contextlib.suppress(RuntimeError):  # platforms jax was not built for
            devices.extend(jax.devices(backend))
    first = jax.devices()[0]  # jax's default platform first
    devices.sort(key=lambda d: d.platform != first.platform)
    return [_device_record(d) for d in devices]


def _list_devices(device_type: str | None = None) -> list:
    return list_devices_filtered(_all_devices(), device_type)


def _find_device(d: Any) -> ComputeDevice:
    for rec in _all_devices():
        if rec.ref == d:
            return rec
    return _device_record(d)


def _get_default_device() -> ComputeDevice:
    # jax's own default (jax_default_device, else the first device of its default
    # platform) is the truth
    d = jax.config.jax_default_device
    if isinstance(d, str):
        d = jax.devices(d)[0]
    return _find_device(d if d is not None else jax.devices()[0])


def _set_default_device(device: Any) -> bool:
    # recorded like every library's, and made jax's default placement
    if not isinstance(device, ComputeDevice) and device not in ("CPU", "GPU", "TPU"):
        if isinstance(device, str):
            platform, _, index = device.partition(":")
            device = jax.devices(platform)[int(index or 0)]
        device = _find_device(device)
    if not _set_default_device_composed(device, backend="jax"):
        return False
    if isinstance(device, str):
        device = _list_devices(device)[0]
    jax.config.update("jax_default_device", device.ref)
    return True


def _get_device(x: Any) -> ComputeDevice:
    # a tracer lives nowhere yet: it will be placed on the default device
    if isinstance(x, jax.core.Tracer) or not hasattr(x, "devices"):
        return _get_default_device()
    return _find_device(next(iter(x.devices())))


def _allocate_on_device(x: Any, device: Any) -> Any:
    return _to_device(x, device.ref if isinstance(device, ComputeDevice) else device)


def _get_peak_memory(device: Any = None) -> int:
    # peak bytes where the device reports memory statistics (GPU, TPU), else 0
    d = device.ref if isinstance(device, ComputeDevice) else device
    if d is None:
        d = _get_default_device().ref
    return int(_memory_stats(d).get("peak_bytes_in_use", 0))


class _Capsule:
    """A DLPack capsule with the protocol methods ``jnp.from_dlpack`` wants."""

    def __init__(self, capsule: Any):
        self.capsule = capsule

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)  # kDLCPU: only host capsules are taken (see _from_dlpack)


def _from_dlpack(x: Any) -> Any:
    # jnp.from_dlpack takes objects with __dlpack__ only; a bare capsule (the list's
    # to_dlpack result) carries no readable device, so it is taken as host memory, which
    # is right only where jax itself runs on the CPU
    if hasattr(x, "__dlpack__"):
        return jnp.from_dlpack(x)
    if type(x).__name__ != "PyCapsule":
        raise TypeError(f"from_dlpack needs a DLPack capsule or array, got {type(x).__name__}")
    if jax.default_backend() != "cpu":
        raise TypeError("from_dlpack on jax takes a bare DLPack capsule on the CPU only; "
                        "pass the array itself (it has __dlpack__)")
    return jnp.from_dlpack(_Capsule(x))


def _prefers_channels_last() -> bool:
    return True  # XLA's convolutions are laid out channels last on accelerators


def _requires_fixed_shapes_when_tracing() -> bool:
    return True  # jax.jit traces with static shapes; value-dependent shapes need size=


TABLE = {
    **backend_entries("jax"),  # list methods written once, bound to jax
    "all": _truth(jnp.all),
    "any": _truth(jnp.any),
    # conversion, dtypes, devices
    "to_numpy": np.asarray,
    "from_numpy": "asarray",
    "astype": "astype",
    "cast": "astype",
    "to_backend_dtype": _to_backend_dtype,
    "to_device": _to_device,
    "stop_gradient": alias("stop_gradient", module="jax.lax"),
    "complex": _complex,
    # jax.numpy's own (numpy semantics) beat the composed fallbacks of translations/_composed/
    "column_stack": NATIVE,
    "convolve": _integral(jnp.convolve),
    "correlate": _integral(jnp.correlate, "valid"),
    "interp": NATIVE,
    "linalg.tensorinv": NATIVE,
    "linalg.tensorsolve": NATIVE,
    # creation functions without jax's device keyword
    "identity": _with_device(jnp.identity),
    "logspace": _with_device(_logspace),
    "geomspace": _with_device(jnp.geomspace),
    "tri": _with_device(jnp.tri),
    # numpy accumulates small integers in the default integer
    **{name: _accumulating(getattr(jnp, name))
       for name in ("cumsum", "cumprod", "nancumsum")},
    # elementwise: jax dropped numpy's alias fix (round towards zero)
    "fix": "trunc",
    "reciprocal": _reciprocal,
    # numpy's promotion of integer with float arrays
    **{name: _promoting(getattr(jnp, name)) for name in _BINARY},
    "float_power": _float_power,
    "power": _power,
    "floor_divide": _floor_divide,
    "angle": _angle,
    "split": _splitter(jnp.split),
    "array_split": _splitter(jnp.array_split),
    "hsplit": _splitter(jnp.hsplit, lambda a: 1 if a.ndim > 1 else 0),
    "vsplit": _splitter(jnp.vsplit, lambda a: 0),
    # numpy keywords and results
    "ravel": _ravel,
    "where": _where,
    "atleast_1d": _atleast(jnp.atleast_1d),
    "atleast_2d": _atleast(jnp.atleast_2d),
    "atleast_3d": _atleast(jnp.atleast_3d),
    "clip": _clip,
    "sort": _sort,
    "argsort": _argsort,
    "searchsorted": _searchsorted,
    "digitize": _digitize,
    "histogram": _histogram,
    "linalg.pinv": _pinv,
    "take": _take,
    "linalg.eigh": _eigh,
    "linalg.eigvalsh": _eigvalsh,
    "linalg.eig": _eig,
    "linalg.eigvals": _eigvals,
    "linalg.matrix_rank": _matrix_rank,
    "linalg.lstsq": _lstsq,
    "linalg.expm": "scipy.linalg.expm",
    "linalg.lu": _lu,
    "scipy.linalg.lu": _lu,
    "linalg.householder_product": alias("householder_product", module="jax.lax.linalg"),
    "scipy.special.softmax": _softmax,
    "scipy.special.log_softmax": _log_softmax,
    # scipy.special, issue 5 (H9): jax's own beat the composed fallbacks
    **{
        f"scipy.special.{n}": NATIVE
        for n in "entr erfcx multigammaln xlog1py".split()
    },
    "scipy.special.polygamma": _polygamma,
    "scipy.special.ndtr": _float_arg(jax.scipy.special.ndtr),
    "scipy.special.log_ndtr": _float_arg(jax.scipy.special.log_ndtr),
    "scipy.special.digamma": _digamma,
    "scipy.special.psi": _digamma,
    "scipy.special.zeta": _zeta,
    **{
        f"scipy.special.{n}": unsupported(_NO_BESSEL.format(n))
        for n in "j0 j1 y0 y1 k0 k0e k1 k1e".split()
    },
    # issue 5 (H8): jax's own beat the composed fallbacks of translations/_composed/
    **{
        n: NATIVE
        for n in (
            "nanmax nanmin nanprod nanvar nanstd average "
            "choose compress isin matrix_transpose fft.hfft fft.ihfft "
            "linalg.svdvals scipy.linalg.lu_solve"
        ).split()
    },
    "nanmedian": _nanmedian,
    "nanargmax": _nan_arg(jnp.nanargmax),
    "nanargmin": _nan_arg(jnp.nanargmin),
    **{
        n: _q_array(getattr(jnp, n))
        for n in "quantile percentile nanquantile nanpercentile".split()
    },
    # random: numpy's stateful API over explicit keys
    "random.seed": _seed,
    "random.default_rng": _default_rng,
    **stateful_random(_RNG),
    # ---- the backend method list (issue 3); layouts and semantics as the composed names
    # indexing and counting: jax's functional scatter, static-length bincount, vmap
    "scatter_1d_scalar": _scatter_1d_scalar_jax,
    "bincount_fixed": _bincount_fixed_jax,
    "searchsorted_batched": _searchsorted_batched_jax,
    "gather": _gather,
    "histogram1d": _histogram1d,
    # sparse: jax.experimental.sparse
    "sparse_coo_tensor": _sparse_coo_tensor,
    "csr_matrix": _csr_matrix,
    "csc_matrix": _csc_matrix,
    "is_sparse": _is_sparse,
    "get_sparse_format": _get_sparse_format,
    "disassemble": _disassemble,
    "numpy": _numpy,
    # fft, convolution
    "fft_axes": _fft_axes,
    "ifft_axes": _ifft_axes,
    "conv": _conv,
    # autodiff and jit
    "jacobian": _jacobian,
    "gradient": _gradient,
    "hessian": _hessian,
    "custom_gradient": _custom_gradient,
    "jit_compile": _jit_compile,
    "jit_compile_grad": _jit_compile_grad,
    "jit_compile_hessian": _jit_compile_hessian,
    # control flow and host calls
    "while_loop": _while_loop,
    "vectorized_call": _vectorized_call,
    "numpy_call": _numpy_call,
    "block_until_ready": _block_until_ready,
    "is_available": _is_available,
    # random
    "random_permutations": _random_permutations,
    # devices, interop, modules
    "list_devices": _list_devices,
    "get_device": _get_device,
    "get_default_device": _get_default_device,
    "set_default_device": _set_default_device,
    "allocate_on_device": _allocate_on_device,
    "get_peak_memory": _get_peak_memory,
    "reset_peak_memory": unsupported("jax has no call that resets its devices' peak "
                                     "memory counters"),
    "from_dlpack": _from_dlpack,
    "variable": unsupported("jax has no variables: parameters are immutable arrays "
                            "passed to the function that jax.grad differentiates"),
    "module": unsupported("jax has no module class (flax and equinox define their own)"),
    "is_module": lambda obj: False,
    "prefers_channels_last": _prefers_channels_last,
    "requires_fixed_shapes_when_tracing": _requires_fixed_shapes_when_tracing,
}
