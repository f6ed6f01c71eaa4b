"""autograd: scipy.special's names that ``autograd.scipy.special`` lacks or
differentiates in part.

``softmax``, ``log_softmax`` and ``xlogy`` are written with ``logsumexp``, ``exp`` and
``log`` (scipy's values, :func:`~._common.exact`). ``gammainc``/``gammaincc`` and
``zeta`` are scipy's values with autograd's derivative in ``x`` (``q``); their
derivative in ``a`` (``x`` of ``zeta``) has no closed form, and asking a gradient for it
raises NotImplementedError (autograd's own raise on the call already). ``k0``, ``k1``,
their scaled forms, ``i0e``, ``i1e`` and ``ndtri`` are scipy's with their derivatives.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc
from autograd import numpy as anp
from autograd.extend import defvjp, primitive
from autograd.numpy.numpy_vjps import unbroadcast_f
from autograd.scipy.special import logsumexp, make_gammainc_vjp_arg1
from autograd.tracer import getval

from ._common import exact, positional, where


def _softmax(x: Any, axis: Any = None) -> Any:
    value = sc.softmax(getval(x), axis=axis)
    return exact(value, anp.exp(x - logsumexp(x, axis=axis, keepdims=True)))


def _log_softmax(x: Any, axis: Any = None) -> Any:
    value = sc.log_softmax(getval(x), axis=axis)
    return exact(value, x - logsumexp(x, axis=axis, keepdims=True))


def _xlogy(x: Any, y: Any) -> Any:
    """scipy's ``xlogy``: ``x * log(y)``, 0 where ``x`` is 0 (and ``y`` is no nan),
    where the derivative in ``y`` is 0 too."""
    xv, yv = getval(x), getval(y)
    zero = (xv == 0) & ~np.isnan(yv)
    return exact(sc.xlogy(xv, yv), where(zero, 0.0, x * anp.log(where(zero, 1.0, y))))


def _not_in(name: str, what: str) -> Any:
    def derivative(ans: Any, *args: Any) -> Any:
        def vjp(g: Any) -> Any:
            raise NotImplementedError(f"autograd: scipy.special.{name} has no derivative "
                                      f"with respect to {what} (no closed form)")

        return vjp

    return derivative


_gammainc = primitive(sc.gammainc)
_gammaincc = primitive(sc.gammaincc)
defvjp(_gammainc, _not_in("gammainc", "a"), make_gammainc_vjp_arg1(1))
defvjp(_gammaincc, _not_in("gammaincc", "a"), make_gammainc_vjp_arg1(-1))

_zeta = primitive(sc.zeta)
defvjp(
    _zeta,
    _not_in("zeta", "x"),
    lambda ans, x, q=None: unbroadcast_f(q, lambda g: -g * x * _zeta(x + 1.0, q)),
)


# scipy.special's Bessel functions of exponential scaling and of the second kind, and
# ndtri, which autograd.scipy.special lacks, with their derivatives (DLMF 10.29.2 and
# 10.29.3: K0' = -K1, K1' = -K0 - K1/x, I1' = I0 - I1/x; the scaled ones add the
# derivative of their factor exp(x) or exp(-|x|); ndtri' = 1 / pdf(ndtri))
_k0 = primitive(sc.k0)
_k1 = primitive(sc.k1)
_k0e = primitive(sc.k0e)
_k1e = primitive(sc.k1e)
_i0e = primitive(sc.i0e)
_i1e = primitive(sc.i1e)
_ndtri = primitive(sc.ndtri)
defvjp(_k0, lambda ans, x: lambda g: -g * _k1(x))
defvjp(_k1, lambda ans, x: lambda g: -g * (_k0(x) + ans / x))
defvjp(_k0e, lambda ans, x: lambda g: g * (ans - _k1e(x)))
defvjp(_k1e, lambda ans, x: lambda g: g * (ans - _k0e(x) - ans / x))
defvjp(_i0e, lambda ans, x: lambda g: g * (_i1e(x) - anp.sign(x) * ans))


def _i1e_derivative(ans: Any, x: Any) -> Any:
    # I1e'(x) = I0e - I1e / x - sign(x) I1e, and 1/2 at 0 (I1(x) ~ x/2)
    at_zero = getval(x) == 0
    safe = where(at_zero, 1.0, x)
    slope = where(at_zero, 0.5, _i0e(x) - ans / safe - anp.sign(x) * ans)
    return lambda g: g * slope


defvjp(_i1e, _i1e_derivative)
defvjp(_ndtri, lambda ans, p: lambda g: g * np.sqrt(2 * np.pi) * anp.exp(ans**2 / 2))


TABLE = {
    "scipy.special.softmax": _softmax,
    "scipy.special.log_softmax": _log_softmax,
    "scipy.special.xlogy": _xlogy,
    "scipy.special.gammainc": _gammainc,
    "scipy.special.gammaincc": _gammaincc,
    "scipy.special.zeta": positional(_zeta, "x", "q"),
    "scipy.special.k0": _k0,
    "scipy.special.k1": _k1,
    "scipy.special.k0e": _k0e,
    "scipy.special.k1e": _k1e,
    "scipy.special.i0e": _i0e,
    "scipy.special.i1e": _i1e,
    "scipy.special.ndtri": _ndtri,
}
