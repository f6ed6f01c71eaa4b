"""autograd: scipy.special's names that ``autograd.scipy.special`` lacks or
differentiates in part.

``softmax``, ``log_softmax`` and ``xlogy`` are written with ``logsumexp``, ``exp`` and
``log`` (scipy's values, :func:`~._common.exact`). ``gammainc``/``gammaincc`` and
``zeta`` are scipy's values with autograd's derivative in ``x`` (``q``); their
derivative in ``a`` (``x`` of ``zeta``) has no closed form, and asking a gradient for it
raises NotImplementedError (autograd's own raise on the call already).
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


TABLE = {
    "scipy.special.softmax": _softmax,
    "scipy.special.log_softmax": _log_softmax,
    "scipy.special.xlogy": _xlogy,
    "scipy.special.gammainc": _gammainc,
    "scipy.special.gammaincc": _gammaincc,
    "scipy.special.zeta": positional(_zeta, "x", "q"),
}
