"""jax's ``scipy.special`` where it departs from scipy: ``digamma``
at 0, ``zeta`` without ``q`` and below 1, ``polygamma`` at its poles, integer
arguments of ``ndtr``, positional ``axis`` of ``softmax``, the Bessel functions
jax lacks; and jax's own functions that beat the composed fallbacks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from dispatch.translations._composed.special import (
    hurwitz_edges,
    polygamma_edges,
    riemann_zeta,
)

from dispatch.engine import NATIVE, merge_tables, unsupported


def _softmax(x: Any, axis: Any = None) -> Any:
    # scipy takes axis positionally too; jax.scipy only as a keyword
    return jax.scipy.special.softmax(x, axis=axis)


def _log_softmax(x: Any, axis: Any = None) -> Any:
    return jax.scipy.special.log_softmax(x, axis=axis)


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


TABLE = merge_tables(
    {
        "scipy.special.softmax": _softmax,
        "scipy.special.log_softmax": _log_softmax,
        "scipy.special.polygamma": _polygamma,
        "scipy.special.ndtr": _float_arg(jax.scipy.special.ndtr),
        "scipy.special.log_ndtr": _float_arg(jax.scipy.special.log_ndtr),
        "scipy.special.digamma": _digamma,
        "scipy.special.psi": _digamma,
        "scipy.special.zeta": _zeta,
        # jax's own beat the composed fallbacks
        "scipy.special.entr": NATIVE,
        "scipy.special.erfcx": NATIVE,
        "scipy.special.multigammaln": NATIVE,
        "scipy.special.xlog1py": NATIVE,
    },
    {f"scipy.special.{n}": unsupported(_NO_BESSEL.format(n))
     for n in "j0 j1 y0 y1 k0 k0e k1 k1e".split()},
    names=("special", "bessel functions jax lacks"),
)
