"""tensorflow's ``scipy.special`` functions: error and gamma functions, Bessel
functions, zeta, ``logsumexp`` and ``softmax``.

scipy computes the float-only functions in float32 or float64 (``_special_dtype``)
and differs from tf at the poles and outside the domains: the adapters follow scipy.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf
from dispatch.translations._composed.special import hurwitz_edges, riemann_zeta
from dispatch.translations.tensorflow._common import (
    _axes,
    _inexact,
    _np_dt,
    _result_dtype,
    _t,
    _to,
)


def _special_dtype(dt: tf.DType) -> tf.DType:
    """The loop dtype of scipy's float-only special functions (single or double)."""
    if dt in (tf.float32, tf.float64, tf.complex64, tf.complex128):
        return dt
    if dt in (tf.float16, tf.bool, tf.int8, tf.uint8, tf.int16, tf.uint16):
        return tf.float32
    return tf.float64


def _special(tf_fn: Callable) -> Callable:
    def special(x: Any) -> Any:
        x = _t(x)
        return tf_fn(tf.cast(x, _special_dtype(x.dtype)))

    return special


def _xlogy(x: Any, y: Any) -> Any:
    # scipy's xlogy treats Python floats as float64 (no weak scalars)
    dt = _special_dtype(_result_dtype(*(_np_dt(np.asarray(v)) if isinstance(v, (int, float))
                                        else v for v in (x, y))))
    return tf.math.xlogy(_to(x, dt), _to(y, dt))


def _logit(x: Any) -> Any:
    x = _t(x)
    x = tf.cast(x, _special_dtype(x.dtype))
    return tf.math.log(x) - tf.math.log1p(-x)


# scipy.special: Bessel functions, psi, ndtri, xlog1py and zeta are tf's own;
# entr, erfcx, ndtr, log_ndtr, multigammaln and polygamma are composed
# (translations/_composed/special.py)


def _digamma(x: Any) -> Any:
    # tf.math.digamma(0) is nan; scipy's psi(+0) is -inf and psi(-0) is +inf
    x = _t(x)
    x = tf.cast(x, _special_dtype(x.dtype))
    return tf.where(tf.equal(x, 0), -1 / x, tf.math.digamma(x))


def _nan_below_zero(tf_fn: Callable) -> Callable:
    # tf's y0, y1, k0, k1, k0e, k1e give -inf/inf for x < 0 (outside the domain); scipy: nan
    def special(x: Any) -> Any:
        x = _t(x)
        x = tf.cast(x, _special_dtype(x.dtype))
        return tf.where(x < 0, tf.constant(math.nan, x.dtype), tf_fn(x))

    return special


def _xlog1py(x: Any, y: Any) -> Any:
    # scipy's xlog1py treats Python floats as float64; tf.math.xlog1py(0, nan) is 0, scipy's nan
    dt = _special_dtype(_result_dtype(*(_np_dt(np.asarray(v)) if isinstance(v, (int, float))
                                        else v for v in (x, y))))
    x, y = _to(x, dt), _to(y, dt)
    return tf.where(tf.math.is_nan(y), y, tf.math.xlog1py(x, y))


def _zeta(x: Any, q: Any = None) -> Any:
    # tf.math.zeta is Hurwitz's zeta, nan for x < 1; scipy's q=None is Riemann's, continued
    # below 1 (riemann_zeta)
    if q is None:
        x = _t(x)
        return riemann_zeta(tf.cast(x, _special_dtype(x.dtype)), tf.math.zeta)
    dt = _special_dtype(_result_dtype(x, q))  # zeta's first loop is float32: scalars weak
    x, q = _to(x, dt), _to(q, dt)
    return hurwitz_edges(x, q, tf.math.zeta(x, q))  # tf: nan at the poles q = 0, -1, ...


def _logsumexp(a: Any, axis: Any = None, b: Any = None, keepdims: bool = False,
               return_sign: bool = False) -> Any:
    x = _inexact(a)
    if b is None and not return_sign:
        return tf.reduce_logsumexp(x, axis=axis, keepdims=keepdims)
    m = tf.stop_gradient(tf.reduce_max(x, axis=axis, keepdims=True))
    m = tf.where(tf.math.is_finite(m), m, tf.zeros_like(m))
    e = tf.exp(x - m)
    if b is not None:
        e = e * tf.cast(_t(b), e.dtype)
    s = tf.reduce_sum(e, axis=axis, keepdims=True)
    out = tf.math.log(tf.abs(s)) + m
    sign = tf.sign(s)
    if not keepdims:
        out = tf.squeeze(out, axis=_axes(axis, x.shape.rank))
        sign = tf.squeeze(sign, axis=_axes(axis, x.shape.rank))
    return (out, sign) if return_sign else out


def _softmax(x: Any, axis: Any = None) -> Any:
    x = _inexact(x)
    e = tf.exp(x - tf.stop_gradient(tf.reduce_max(x, axis=axis, keepdims=True)))
    return e / tf.reduce_sum(e, axis=axis, keepdims=True)


def _log_softmax(x: Any, axis: Any = None) -> Any:
    x = _inexact(x)
    return x - tf.reduce_logsumexp(x, axis=axis, keepdims=True)


def _gammainc(upper: bool) -> Callable:
    def gammainc(a: Any, x: Any) -> Any:
        # scipy's gammainc/gammaincc: float32 or float64, Python floats as float64
        dt = _special_dtype(_result_dtype(*(np.asarray(v).dtype if isinstance(v, (int, float))
                                            else v for v in (a, x))))
        return (tf.math.igammac if upper else tf.math.igamma)(_to(a, dt), _to(x, dt))

    return gammainc


TABLE = {
    "scipy.special.erf": _special(tf.math.erf),
    "scipy.special.erfc": _special(tf.math.erfc),
    "scipy.special.erfinv": _special(tf.math.erfinv),
    "scipy.special.gammaln": _special(tf.math.lgamma),
    "scipy.special.digamma": _digamma,
    "scipy.special.expit": _special(tf.math.sigmoid),
    "scipy.special.logit": _logit,
    "scipy.special.xlogy": _xlogy,
    "scipy.special.logsumexp": _logsumexp,
    "scipy.special.softmax": _softmax,
    "scipy.special.log_softmax": _log_softmax,
    # scipy.special; polygamma is composed: tf.math.polygamma is nan at the
    # poles (x = 0, -1, ...) where scipy gives +-inf
    "scipy.special.psi": _digamma,
    "scipy.special.i0": _special(tf.math.bessel_i0),
    "scipy.special.i0e": _special(tf.math.bessel_i0e),
    "scipy.special.i1": _special(tf.math.bessel_i1),
    "scipy.special.i1e": _special(tf.math.bessel_i1e),
    "scipy.special.j0": _special(tf.math.special.bessel_j0),
    "scipy.special.j1": _special(tf.math.special.bessel_j1),
    "scipy.special.y0": _nan_below_zero(tf.math.special.bessel_y0),
    "scipy.special.y1": _nan_below_zero(tf.math.special.bessel_y1),
    "scipy.special.k0": _nan_below_zero(tf.math.special.bessel_k0),
    "scipy.special.k0e": _nan_below_zero(tf.math.special.bessel_k0e),
    "scipy.special.k1": _nan_below_zero(tf.math.special.bessel_k1),
    "scipy.special.k1e": _nan_below_zero(tf.math.special.bessel_k1e),
    "scipy.special.ndtri": _special(tf.math.ndtri),
    "scipy.special.xlog1py": _xlog1py,
    "scipy.special.zeta": _zeta,
    "scipy.special.gammainc": _gammainc(False),
    "scipy.special.gammaincc": _gammainc(True),
}
