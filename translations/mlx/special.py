"""mlx: scipy.special's functions that mlx has or composes from its own kernels
(``erf``, ``erfinv``, ``sigmoid``, ``logsumexp``, ``softmax``)."""

from __future__ import annotations

from typing import Any

import mlx.core as mx
from dispatch.translations.mlx._common import axis_arg
from dispatch.translations.mlx.devices import _asarray
from dispatch.translations.mlx.elementwise import _exp


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


TABLE = {
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
