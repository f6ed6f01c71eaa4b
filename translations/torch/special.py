"""torch: ``scipy.special``, mostly torch.special under scipy's names.

torch.special spells several functions differently (``bessel_j0``,
``modified_bessel_k0``...); ``logsumexp``, ``softmax`` and ``log_softmax`` take
scipy's ``axis=None`` (all axes), weights and signs; ``zeta`` and ``polygamma``
give scipy's values where torch's are NaN (Riemann's zeta below 1, an array or
negative ``n``, infinite arguments), with the edges of
``translations/_composed/special.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from dispatch.translations._adapters import empty_axes
from dispatch.translations._composed.special import hurwitz_edges, polygamma_edges, riemann_zeta
from dispatch.translations._composed.special import polygamma as _polygamma_composed
from dispatch.translations.torch._common import _axes, _inexact, _promote, _tensor
from torch import Tensor

from dispatch.engine import alias


def _logsumexp(a: Tensor, axis: Any = None, b: Any = None, keepdims: bool = False,
               return_sign: bool = False) -> Any:
    # torch.logsumexp needs the axes and has no weights or signs
    a = _inexact(a)
    dims = tuple(range(a.ndim)) if axis is None else _axes(axis, a.ndim)
    if b is None and not return_sign:
        return torch.logsumexp(a, dim=dims, keepdim=keepdims)
    m = torch.amax(a, dim=dims, keepdim=True).detach()
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = torch.exp(a - m)
    if b is not None:
        e = e * _tensor(b, a)
    s = torch.sum(e, dim=dims, keepdim=True)
    if return_sign:
        sign = torch.sgn(s)
        out = torch.log(torch.abs(s)) + m
    else:
        out = torch.log(s) + m
    if not keepdims:
        out = out.squeeze(dims)
        if return_sign:
            sign = sign.squeeze(dims)
    return (out, sign) if return_sign else out


def _softmax(x: Tensor, axis: Any = None) -> Tensor:
    # torch.softmax needs an axis; scipy's default is all of them
    x = _inexact(x)
    if isinstance(axis, (int, np.integer)):
        return torch.softmax(x, int(axis))
    return torch.exp(x - _logsumexp(x, axis, keepdims=True))


def _log_softmax(x: Tensor, axis: Any = None) -> Tensor:
    x = _inexact(x)
    if isinstance(axis, (int, np.integer)):
        return torch.log_softmax(x, int(axis))
    return x - _logsumexp(x, axis, keepdims=True)


def _zeta(x: Any, q: Any = None) -> Tensor:
    # scipy's zeta(x) is Riemann's, continued below x = 1 where torch's Hurwitz zeta is nan
    # (riemann_zeta)
    if q is None:
        return riemann_zeta(_inexact(_tensor(x)), torch.special.zeta)
    x, q = _promote(_inexact(_tensor(x)), q)
    return hurwitz_edges(x, q, torch.special.zeta(x, q))  # torch: nan at q = inf


def _polygamma(n: Any, x: Any) -> Tensor:
    # torch's polygamma takes a Python int n only; an array n (or a negative one, nan in
    # scipy) goes through scipy's definition
    if isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= 0:
        # torch: nan at x = inf, where scipy gives 0
        return polygamma_edges(int(n), x, torch.special.polygamma(int(n), _tensor(x)))
    return _polygamma_composed(n, x)


TABLE = {
    "scipy.special.erf": "special.erf",
    "scipy.special.erfc": "special.erfc",
    "scipy.special.erfinv": "special.erfinv",
    "scipy.special.erfcx": "special.erfcx",
    "scipy.special.gammaln": "special.gammaln",
    "scipy.special.gammainc": "special.gammainc",
    "scipy.special.gammaincc": "special.gammaincc",
    "scipy.special.digamma": "special.digamma",
    "scipy.special.psi": "special.psi",
    "scipy.special.polygamma": _polygamma,
    "scipy.special.multigammaln": alias("special.multigammaln", d="p"),
    "scipy.special.xlogy": "special.xlogy",
    "scipy.special.xlog1py": "special.xlog1py",
    "scipy.special.entr": "special.entr",
    "scipy.special.ndtr": "special.ndtr",
    "scipy.special.ndtri": "special.ndtri",
    "scipy.special.log_ndtr": "special.log_ndtr",
    "scipy.special.i0": "special.i0",
    "scipy.special.i0e": "special.i0e",
    "scipy.special.i1": "special.i1",
    "scipy.special.i1e": "special.i1e",
    "scipy.special.j0": "special.bessel_j0",
    "scipy.special.j1": "special.bessel_j1",
    "scipy.special.y0": "special.bessel_y0",
    "scipy.special.y1": "special.bessel_y1",
    "scipy.special.k0": "special.modified_bessel_k0",
    "scipy.special.k1": "special.modified_bessel_k1",
    "scipy.special.k0e": "special.scaled_modified_bessel_k0",
    "scipy.special.k1e": "special.scaled_modified_bessel_k1",
    "scipy.special.zeta": _zeta,
    # torch reads an empty dim as every axis, scipy's axis=() is none: empty_axes
    "scipy.special.logsumexp": empty_axes(_logsumexp),
    "scipy.special.expit": "special.expit",
    "scipy.special.logit": "special.logit",
    "scipy.special.softmax": empty_axes(_softmax, along=True),
    "scipy.special.log_softmax": empty_axes(_log_softmax, along=True),
}
