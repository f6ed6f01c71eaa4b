"""mlx: scipy.special's functions that mlx has or composes from its own kernels
(``erf``, ``erfinv``, ``sigmoid``, ``logsumexp``, ``softmax``)."""

from __future__ import annotations

from typing import Any

import mlx.core as mx
from dispatch.translations.mlx._common import axis_arg
from dispatch.translations.mlx.devices import _asarray
from dispatch.translations.mlx.elementwise import _exp, _sin


def _f(x: Any) -> Any:
    x = x if isinstance(x, mx.array) else _asarray(x)
    return x if mx.issubdtype(x.dtype, mx.inexact) else x.astype(mx.float32)


def _logsumexp(a: Any, axis: Any = None, b: Any = None, keepdims: bool = False,
               return_sign: bool = False) -> Any:
    a = _f(a)
    if b is None and not return_sign and a.dtype != mx.float64:
        return mx.logsumexp(a, axis=axis_arg(axis), keepdims=keepdims)
    b = _f(1.0 if b is None else b)
    m = mx.stop_gradient(mx.max(a, axis=axis_arg(axis), keepdims=True))
    m = mx.where(mx.isinf(m), 0, m)
    s = mx.sum(b * _exp(a - m), axis=axis_arg(axis), keepdims=True)
    out = mx.log(mx.abs(s)) + m
    sign = mx.sign(s)
    if not keepdims:
        out = mx.squeeze(out, axis_arg(axis)) if axis is not None else out.reshape(())
        sign = mx.squeeze(sign, axis_arg(axis)) if axis is not None else sign.reshape(())
    return (out, sign) if return_sign else out


def _softmax(x: Any, axis: Any = None) -> Any:
    x = _f(x)
    if x.dtype == mx.float64:
        e = _exp(x - mx.max(x, axis=axis_arg(axis), keepdims=True))
        return e / mx.sum(e, axis=axis_arg(axis), keepdims=True)
    if axis is None:
        return mx.softmax(x.reshape(-1)).reshape(x.shape)
    return mx.softmax(x, axis=axis_arg(axis))


def _log_softmax(x: Any, axis: Any = None) -> Any:
    x = _f(x)
    return x - _logsumexp(x, axis=axis, keepdims=True)


def _xlogy(x: Any, y: Any) -> Any:
    x, y = _f(x), _f(y)
    return mx.where(x == 0, mx.where(mx.isnan(y), y, 0), x * mx.log(y))


def _expit(x: Any) -> Any:
    x = _f(x)
    if x.dtype != mx.float64:
        return mx.sigmoid(x)
    # mlx's float64 sigmoid is float32-accurate (its exp is: see .elementwise)
    return 1 / (1 + _exp(-x))


def _logit(p: Any) -> Any:
    p = _f(p)
    return mx.log(p) - mx.log1p(-p)


_HALF_LOG_2PI = 0.9189385332046727
# Stirling's series for log Gamma, to float64 roundoff from x = 15 (the next term
# is below 1e-16 there); smaller x are shifted up by the recurrence
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360)


def _gammaln(x: Any) -> Any:
    x = _f(x)
    small = x < 0.5
    y = mx.where(small, 1 - x, x)
    shift = mx.zeros_like(y)
    for _ in range(15):
        low = y < 15
        shift = shift + mx.where(low, mx.log(y), 0)
        y = mx.where(low, y + 1, y)
    inv = 1 / y
    inv2 = inv * inv
    series = mx.zeros_like(y)
    for c in reversed(_STIRLING):
        series = series * inv2 + c
    big = (y - 0.5) * mx.log(y) - y + _HALF_LOG_2PI + series * inv - shift
    # reflection: log|Gamma(x)| = log(pi / |sin(pi x)|) - log|Gamma(1 - x)|
    s = mx.abs(_sin(mx.pi * mx.remainder(x, 2.0)))
    out = mx.where(small, mx.log(mx.pi / s) - big, big)
    pole = (x <= 0) & (x == mx.floor(x))
    return mx.where(pole, mx.inf, out)


def _digamma(x: Any) -> Any:
    x = _f(x)
    # reflection below 0.5, then the recurrence up to 12 and the asymptotic series
    # (its first omitted term is below 1e-15 there)
    small = x < 0.5
    y = mx.where(small, 1 - x, x)
    acc = mx.zeros_like(y)
    for _ in range(12):
        low = y < 12
        acc = acc - mx.where(low, 1 / y, 0)
        y = mx.where(low, y + 1, y)
    inv = 1 / y
    inv2 = inv * inv
    series = (mx.log(y) - 0.5 * inv - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (
        1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132))))))
    out = acc + series
    tan_term = mx.pi / mx.tan(mx.pi * x)
    out = mx.where(small, out - tan_term, out)
    pole = (x <= 0) & (x == mx.floor(x))
    return mx.where(pole, mx.nan, out)


TABLE = {
    "scipy.special.gammaln": _gammaln,
    "scipy.special.digamma": _digamma,
    "scipy.special.psi": _digamma,
    "scipy.special.erf": lambda x: mx.erf(_f(x)),
    "scipy.special.erfc": lambda x: 1 - mx.erf(_f(x)),
    "scipy.special.erfinv": lambda y: mx.erfinv(_f(y)),
    "scipy.special.expit": _expit,
    "scipy.special.logit": _logit,
    "scipy.special.logsumexp": _logsumexp,
    "scipy.special.softmax": _softmax,
    "scipy.special.log_softmax": _log_softmax,
    "scipy.special.xlogy": _xlogy,
}
