"""paddle: ``scipy.special`` on tensors.

paddle has these functions at its top level (``paddle.erf``, ``paddle.lgamma``,
``paddle.digamma``, ``paddle.i0e``...), with float kernels only: integer inputs
are computed in float64, as scipy does. The others resolve to the composed
fallbacks (``translations/_composed/special.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import paddle
from dispatch.translations._adapters import empty_axes
from dispatch.translations.paddle._common import equal, promote
from paddle import Tensor

from dispatch.engine import merge_tables, unsupported

_NO_BESSEL = ("paddle has no Bessel functions of the first and second kind (J, Y) nor "
              "modified ones of the second kind (K)")


def _float(x: Any) -> Tensor:
    if not isinstance(x, Tensor):
        x = promote(x)[0]
    return x if x.is_floating_point() or x.is_complex() else x.astype("float64")


def _unary(fn: Callable) -> Callable:
    def unary(x: Any) -> Tensor:
        return fn(_float(x))

    unary.__name__ = unary.__qualname__ = "_" + fn.__name__
    return unary


def _binary(fn: Callable) -> Callable:
    def binary(a: Any, x: Any) -> Tensor:
        a, x = promote(_float(a) if isinstance(a, Tensor) else a, x)
        # paddle's kernels give wrong values for operands of different shapes
        a, x = paddle.broadcast_tensors([_float(a), _float(x)])
        return fn(a, x)

    binary.__name__ = binary.__qualname__ = "_" + fn.__name__
    return binary


def _erfc(x: Any) -> Tensor:
    # 1 - erf(x) loses every digit for large x: scipy's erfc is accurate there. Below 2
    # it keeps 14 digits (erfc(2) = 0.0047); above, a continued fraction
    x = _float(x)
    return paddle.where(x < 2.0, 1.0 - paddle.erf(x), _erfc_tail(x))


def _erfc_tail(x: Tensor) -> Tensor:
    # erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2) / (x + (2/2) / (x + ...))): 60 terms
    # reach float64 roundoff for x >= 2 (against scipy: 8e-16 relative)
    z = paddle.maximum(x, paddle.full_like(x, 2.0))
    f = paddle.zeros_like(z)
    for k in range(60, 0, -1):
        f = (k / 2.0) / (z + f)
    return paddle.exp(-z * z) / (z + f) / 1.7724538509055159


def _polygamma(n: Any, x: Any) -> Tensor:
    x = _float(x)
    if isinstance(n, Tensor):
        if n.size != 1:
            out = paddle.stack([paddle.polygamma(xi, int(ni)) for ni, xi in
                                zip(n.flatten().tolist(), x.flatten(), strict=False)]
                               ).reshape(x.shape)
            return _polygamma_at_inf(out, x, n.broadcast_to(x.shape) > 0)
        n = int(n.item())
    if not n:
        return paddle.digamma(x)
    return _polygamma_at_inf(paddle.polygamma(x, int(n)), x, None)


def _polygamma_at_inf(out: Tensor, x: Tensor, positive_n: Tensor | None) -> Tensor:
    # paddle gives NaN at +inf; every derivative of digamma tends to 0 there (scipy's -0/0)
    at_inf = x == float("inf")
    if positive_n is not None:
        at_inf = paddle.logical_and(at_inf, positive_n)
    return paddle.where(at_inf, paddle.zeros_like(out), out)


def _axes_of(a: Tensor, axis: Any) -> list:
    if axis is None:
        return list(range(a.ndim))
    return [int(v) % a.ndim for v in (axis if isinstance(axis, (tuple, list)) else [axis])]


def _logsumexp(a: Any, axis: Any = None, b: Any = None, keepdims: bool = False,
               return_sign: bool = False) -> Any:
    # composed here: paddle.logsumexp gives NaN where every term is -inf (scipy: -inf)
    a = _float(a)
    if b is not None:
        a, b = paddle.broadcast_tensors(promote(a, b))
        a, b = _float(a), _float(b).astype(a.dtype)
    zero_d = a.ndim == 0
    if zero_d:
        a, b = a.reshape([1]), None if b is None else b.reshape([1])
    axes = _axes_of(a, axis)
    m = paddle.amax(a, axis=axes, keepdim=True)
    m = paddle.where(paddle.isfinite(m), m, paddle.zeros_like(m)).detach()
    # paddle's float64 exp clamps its argument near -709.8: exp(-inf) is 5.6e-309, not 0
    e = paddle.where(a == float("-inf"), paddle.zeros_like(a), paddle.exp(a - m))
    s = paddle.sum(e if b is None else e * b, axis=axes, keepdim=True)
    sign = paddle.sign(s)
    out = paddle.log(paddle.abs(s) if return_sign else s) + m
    if zero_d:
        out, sign = out.reshape([]), sign.reshape([])
    elif not keepdims:
        out, sign = out.squeeze(axes), sign.squeeze(axes)
    return (out, sign) if return_sign else out


def _over_axes(fn: Any, x: Tensor, axis: Any) -> Tensor:
    """``fn(x, axis=-1)`` over several axes: moved last and flattened into one."""
    axes = [a % x.ndim for a in axis]
    rest = [a for a in range(x.ndim) if a not in axes]
    moved = paddle.transpose(x, rest + axes)
    shape = list(moved.shape)
    flat = moved.reshape([*shape[:len(rest)], -1])
    out = fn(flat, axis=-1).reshape(shape)
    return paddle.transpose(out, list(np.argsort(rest + axes)))


def _softmax(x: Any, axis: Any = None) -> Tensor:
    x = _float(x)
    if isinstance(axis, (tuple, list)):
        return _over_axes(paddle.nn.functional.softmax, x, axis)
    if axis is None:
        return paddle.nn.functional.softmax(x.flatten(), axis=0).reshape(x.shape)
    return paddle.nn.functional.softmax(x, axis=axis)


# paddle's reductions read axis=() as every axis; numpy's (scipy's) is none
_logsumexp = empty_axes(_logsumexp, arrays=("b",))


def _log_softmax(x: Any, axis: Any = None) -> Tensor:
    # x - logsumexp(x): paddle's log_softmax loses the terms far below the largest
    # (-64.47 for scipy's -1003.97 at a spread of 1000)
    x = _float(x)
    if x.ndim == 0:  # scipy: 0, NaN for an infinite x
        return x - x
    return x - _logsumexp(x, axis=axis, keepdims=True)


def _xlogy(x: Any, y: Any) -> Tensor:
    x, y = promote(x, y)
    x, y = _float(x), _float(y)
    return paddle.where(equal(x, 0), paddle.zeros_like(x * y), x * paddle.log(y))


def _multigammaln(a: Any, d: int) -> Tensor:
    return paddle.multigammaln(_float(a), int(d))


def _ndtri(y: Any) -> Tensor:
    # the normal quantile: sqrt(2) erfinv(2y - 1)
    # NaN outside [0, 1], as scipy (erfinv gives +-inf there)
    y = _float(y)
    # erfinv(2q - 1) keeps only the digits of 2q - 1 (1e-9 relative at q = 1e-10): the
    # lower tail q = min(y, 1 - y) (1 - y is exact for y >= 1/2), refined by Newton
    # steps on scipy-accurate erfc
    q = paddle.minimum(y, 1.0 - y)
    x = 1.4142135623730951 * paddle.erfinv(2.0 * q - 1.0)
    # where 2q - 1 rounds to -1 (q < 1e-16), the tail's asymptote q ~ phi(x) / |x|
    t = -2.0 * paddle.log(q)
    tail = -paddle.sqrt(t - paddle.log(t) - 1.8378770664093453)
    x = paddle.where(paddle.logical_and(paddle.isinf(x), q > 0), tail, x)
    for _ in range(3):  # Newton on log(ndtr(x)) - log(q), concave in x
        cdf = 0.5 * _erfc(-x / 1.4142135623730951)
        step = (paddle.log(cdf) - paddle.log(q)) * cdf / (
            paddle.exp(-0.5 * x * x) * 0.3989422804014327)
        x = paddle.where(paddle.isfinite(step), x - step, x)
    out = paddle.where(y > 0.5, -x, x)
    outside = paddle.logical_or(y < 0, y > 1)
    return paddle.where(outside, paddle.full_like(out, float("nan")), out)


_BESSEL = {f"scipy.special.{n}": unsupported(_NO_BESSEL)
           for n in ("j0", "j1", "y0", "y1", "k0", "k1", "k0e", "k1e")}

TABLE = merge_tables(_BESSEL, {
    "scipy.special.ndtri": _ndtri,
    "scipy.special.zeta": unsupported("paddle has no Hurwitz zeta function"),
    "scipy.special.erf": _unary(paddle.erf),
    "scipy.special.erfc": _erfc,
    "scipy.special.erfinv": _unary(paddle.erfinv),
    "scipy.special.gammaln": _unary(paddle.lgamma),
    "scipy.special.digamma": _unary(paddle.digamma),
    "scipy.special.psi": _unary(paddle.digamma),
    "scipy.special.polygamma": _polygamma,
    "scipy.special.i0": _unary(paddle.i0),
    "scipy.special.i0e": _unary(paddle.i0e),
    "scipy.special.i1": _unary(paddle.i1),
    "scipy.special.i1e": _unary(paddle.i1e),
    "i0": _unary(paddle.i0),
    "scipy.special.expit": _unary(paddle.nn.functional.sigmoid),
    "scipy.special.logit": _unary(paddle.logit),
    "scipy.special.gammainc": _binary(paddle.gammainc),
    "scipy.special.gammaincc": _binary(paddle.gammaincc),
    "scipy.special.xlogy": _xlogy,
    "scipy.special.multigammaln": _multigammaln,
    "scipy.special.logsumexp": _logsumexp,
    "scipy.special.softmax": _softmax,
    "scipy.special.log_softmax": _log_softmax,
}, names=("bessel", "special"))
