"""scipy.special functions written once with ``do``, from exact formulas.

Each one follows scipy's definition, edge values included (``entr(0) = 0``,
``ndtr(-inf) = 0``, nan in, nan out). Libraries with a native version say
``NATIVE`` (or give an adapter) in their table; the fallbacks serve the others
(tensorflow for ``entr``/``erfcx``/``ndtr``/``log_ndtr``/``multigammaln``/
``polygamma``; dask and pydata sparse for ``multigammaln``/``polygamma``,
whose scipy versions call ``numpy.asarray``; torch for ``polygamma`` with an
array ``n``). They hold for real inputs; the accuracy limits are in each
docstring. Integer inputs are computed in float64, as scipy's loops do.

Helpers for tables: :func:`riemann_zeta` (Riemann's zeta below 1 from a Hurwitz
zeta), :func:`hurwitz_edges` and :func:`polygamma_edges` (scipy's values at
poles and infinities, where libraries return nan).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import accumulate
from typing import Any

import numpy as np

from dispatch.engine import composed, do

_RSQRT2 = 1 / math.sqrt(2)
_RSQRTPI = 1 / math.sqrt(math.pi)
_LOG2 = math.log(2)
_LOGPI = math.log(math.pi)


def _inexact(x: Any) -> Any:
    """float32, float64 and complex stay; other dtypes become float64 (scipy's loop)."""
    if isinstance(x, (bool, int, float)):
        return float(x)
    dt = do("dtype_of", x)
    if dt.kind == "c" or dt.name in ("float32", "float64"):
        return x
    return do("astype", x, "float64")


@composed("scipy.special.entr")
def entr(x: Any) -> Any:
    """Elementwise entropy: ``-x log(x)`` for ``x > 0``, 0 at 0, ``-inf`` below 0.

    Exact to rounding. Real inputs only.

    Examples
    --------
    >>> import numpy as np
    >>> entr(np.array([0.0, 0.5, 1.0, -1.0]))
    array([0.        , 0.34657359, 0.        ,       -inf])
    """
    x = _inexact(x)
    safe = do("where", do("greater", x, 0), x, do("ones_like", x))
    # 0 - ... keeps entr(0) = +0.0 and lets nan through
    return do("where", do("less", x, 0), -math.inf, 0 - x * do("log", safe))


@composed("scipy.special.xlog1py")
def xlog1py(x: Any, y: Any) -> Any:
    """``x * log1p(y)``, 0 where ``x == 0`` (unless ``y`` is nan).

    Exact to rounding. Real inputs only.

    Examples
    --------
    >>> import numpy as np
    >>> xlog1py(np.array([0.0, 2.0]), np.array([-1.0, 1.0]))
    array([0.        , 1.38629436])
    """
    x, y = _inexact(x), _inexact(y)
    zero = do("logical_and", do("equal", x, 0), do("logical_not", do("isnan", y)))
    # the log1p of the masked entries is never used: keep it finite
    safe = do("where", zero, 0 * y, y)
    return do("where", zero, 0 * x, x * do("log1p", safe))


@composed("scipy.special.ndtr")
def ndtr(x: Any) -> Any:
    """The standard normal cumulative distribution function.

    ``(1 + erf(x/√2)) / 2`` near 0 and ``erfc(-x/√2) / 2`` elsewhere (as
    Cephes does), so both tails keep their relative accuracy: a few ulp,
    growing to about ``x² · eps`` in the far lower tail (rounding of ``x/√2``
    passed through erfc).

    Examples
    --------
    >>> import numpy as np
    >>> ndtr(np.array([-np.inf, 0.0, 1.0]))
    array([0.        , 0.5       , 0.84134475])
    """
    z = _inexact(x) * _RSQRT2
    middle = 0.5 + 0.5 * do("scipy.special.erf", z)
    upper = 1 - 0.5 * do("scipy.special.erfc", z)
    lower = 0.5 * do("scipy.special.erfc", -z)
    tail = do("where", do("greater", z, 0), upper, lower)
    return do("where", do("less", do("abs", z), _RSQRT2), middle, tail)


# Horner coefficients of erfcx's asymptotic series in u = 1 / (2 x²):
# sum_k (-1)^k (2k-1)!! u^k; 12 terms are below float64's eps for x >= 10
_ERFCX_SERIES = [float((-1) ** k * math.prod(range(1, 2 * k, 2))) for k in range(13)]


@composed("scipy.special.erfcx")
def erfcx(x: Any) -> Any:
    """The scaled complementary error function ``exp(x²) erfc(x)``.

    Computed as written below a threshold (10 in float64, 6 in float32), where
    the rounding of ``x²`` costs a relative error up to ``x² · eps`` (about
    1e-14 in float64); above it, 12 terms of the asymptotic series
    ``erfcx(x) ~ 1/(x √π) · Σ (-1)^k (2k-1)!! / (2x²)^k``, accurate to eps.
    Overflows to ``inf`` below about -26.6 (float64), as scipy does. Real
    inputs only.

    Examples
    --------
    >>> import numpy as np
    >>> erfcx(np.array([-1.0, 0.0, 1.0, 100.0]))
    array([5.00898008, 1.        , 0.42758358, 0.00564161])
    """
    x = _inexact(x)
    cut = 10.0 if do("dtype_of", x).itemsize >= 8 else 6.0
    big = do("greater", x, cut)
    xs = do("where", big, cut, x)  # the unused entries stay finite
    direct = do("exp", xs * xs) * do("scipy.special.erfc", xs)
    xb = do("where", big, x, cut)
    u = 0.5 / (xb * xb)
    series = _ERFCX_SERIES[-1] + 0 * u
    for c in reversed(_ERFCX_SERIES[:-1]):
        series = series * u + c
    return do("where", big, series * _RSQRTPI / xb, direct)


@composed("scipy.special.log_ndtr")
def log_ndtr(x: Any) -> Any:
    """Logarithm of the standard normal CDF, accurate in both tails.

    ``log1p(-erfc(x/√2) / 2)`` for ``x > 0`` (near 0 where ndtr is near 1);
    ``log(erfcx(-x/√2) / 2) - x²/2`` for ``x <= 0``, which never underflows.
    Accuracy is that of ``erfc`` and :func:`erfcx`.

    Examples
    --------
    >>> import numpy as np
    >>> log_ndtr(np.array([-40.0, 0.0, 10.0]))
    array([-8.04608442e+02, -6.93147181e-01, -7.61985302e-24])
    """
    x = _inexact(x)
    pos = do("greater", x, 0)
    xp = do("where", pos, x, do("ones_like", x))
    xn = do("where", pos, 0 * x, x)
    upper = do("log1p", -0.5 * do("scipy.special.erfc", xp * _RSQRT2))
    lower = do("log", 0.5 * do("scipy.special.erfcx", -xn * _RSQRT2)) - 0.5 * xn * xn
    return do("where", pos, upper, lower)


@composed("scipy.special.multigammaln")
def multigammaln(a: Any, d: int) -> Any:
    """Log of the multivariate gamma function of dimension ``d``.

    ``d(d-1)/4 log π + Σ_{j<d} gammaln(a - j/2)``, in float64 as scipy. Where
    ``a <= (d-1)/2`` scipy raises ValueError; this fallback returns nan there
    instead (checking would compute a lazy array or break jit).

    Examples
    --------
    >>> import numpy as np
    >>> multigammaln(np.array([3.0, 0.2]), 2)
    array([1.55019499,        nan])
    """
    if not np.isscalar(d) or math.floor(d) != d:
        raise ValueError("d should be a positive integer (dimension)")
    d = int(d)
    a = _inexact(a)
    if do("dtype_of", a).kind != "c":
        a = do("astype", a, "float64")  # scipy adds a float64 constant
    out = d * (d - 1) * 0.25 * _LOGPI + 0 * a
    for j in range(d):
        out = out + do("scipy.special.gammaln", a - 0.5 * j)
    return do("where", do("less_equal", a, 0.5 * (d - 1)), math.nan, out)


@composed("scipy.special.psi")
def psi(x: Any) -> Any:
    """The digamma function (scipy's other name for ``digamma``).

    Examples
    --------
    >>> import numpy as np
    >>> psi(np.array([1.0]))
    array([-0.57721566])
    """
    return do("scipy.special.digamma", x)


@composed("scipy.special.polygamma")
def polygamma(n: Any, x: Any) -> Any:
    """The ``n``-th derivative of the digamma function.

    scipy's definition: ``psi(x)`` for ``n == 0``, else
    ``(-1)^(n+1) n! zeta(n + 1, x)`` (Hurwitz zeta), nan for non-integer
    ``n``. ``n!`` is ``exp(gammaln(n + 1))``: a relative error of a few ulp.
    Integer ``n`` gives float64, as scipy.

    Examples
    --------
    >>> import numpy as np
    >>> polygamma(1, np.array([1.0, 2.0]))
    array([1.64493407, 0.64493407])
    """
    if isinstance(n, (int, float)) and not isinstance(n, bool):
        x = do("astype", _inexact(x), "float64")
        if n == 0:
            return do("scipy.special.psi", x)
        if n < 0 or not float(n).is_integer():
            return math.nan * x  # scipy: (-1.0)**(n+1) or gamma(n+1) is nan there
        fac = (-1) ** (n + 1) * math.factorial(int(n))
        return polygamma_edges(n, x, fac * do("scipy.special.zeta", float(n + 1), x))
    x = _inexact(x)
    nt, xt = do("dtype_of", n), do("dtype_of", x)
    dt = "float64" if nt.kind in "biu" or "float64" in (nt.name, xt.name) else xt.name
    n, x = do("astype", n, dt), do("astype", x, dt)
    sign = do("power", -do("ones_like", n), n + 1)
    fac = sign * do("exp", do("scipy.special.gammaln", n + 1))
    out = fac * do("scipy.special.zeta", n + 1, x)
    return do("where", do("equal", n, 0), do("scipy.special.psi", x), polygamma_edges(n, x, out))


def polygamma_edges(n: Any, x: Any, out: Any) -> Any:
    """scipy's ``polygamma(n, x)`` where zeta-based implementations give nan.

    ``±inf`` at the poles ``x = 0, -1, -2, ...`` and ``±0`` at ``x = inf``
    (integer ``n >= 1``); ``out`` elsewhere. For tables whose library computes
    polygamma itself.

    Examples
    --------
    >>> import numpy as np
    >>> polygamma_edges(2, np.array([-1.0, 1.0, np.inf]), np.array([np.nan, -2.4, np.nan]))
    array([-inf, -2.4, -0. ])
    """
    pole = do("logical_and", do("less_equal", x, 0), do("equal", do("floor", x), x))
    x_inf = do("equal", x, math.inf)
    if isinstance(n, (int, float)):
        if n < 1 or not float(n).is_integer():
            return out
        sign = (-1.0) ** (n + 1)
        return do("where", x_inf, sign * 0.0, do("where", pole, sign * math.inf, out))
    # scalars only in where: the result keeps out's dtype
    integer = do("logical_and", do("greater_equal", n, 1), do("equal", do("floor", n), n))
    pole = do("logical_and", pole, integer)
    even = do("equal", do("mod", n + 1, 2), 0)  # (-1)^(n+1) = 1
    out = do("where", do("logical_and", pole, even), math.inf, out)
    out = do("where", do("logical_and", pole, do("logical_not", even)), -math.inf, out)
    return do("where", do("logical_and", x_inf, integer), 0.0, out)


def hurwitz_edges(x: Any, q: Any, out: Any) -> Any:
    """scipy's ``zeta(x, q)`` where Hurwitz implementations disagree at the edges.

    ``nan`` for ``x < 1``; ``inf`` at ``x = 1`` and at the poles
    ``q = 0, -1, ..., -inf``; at ``x = inf``: 0, 1 or inf as ``q`` is above,
    at or below 1; 0 at ``q = inf``. ``out`` (the library's value) elsewhere.

    Examples
    --------
    >>> import numpy as np
    >>> x, q = np.array([3.0, 3.0, np.inf, 2.0]), np.array([-2.0, np.inf, 2.0, 1.0])
    >>> hurwitz_edges(x, q, np.array([np.nan, np.nan, np.nan, 1.6]))
    array([inf, 0. , 0. , 1.6])
    """
    big = do("logical_and", do("equal", q, math.inf), do("greater", x, 1))
    out = do("where", big, 0.0, out)
    # scalars only in where: the result keeps out's dtype
    at_inf = do("where", do("equal", q, 1), do("ones_like", out), math.inf)
    at_inf = do("where", do("greater", q, 1), 0.0, at_inf)
    x_inf = do("logical_and", do("equal", x, math.inf), do("logical_not", do("isnan", q)))
    out = do("where", x_inf, at_inf, out)
    pole = do("logical_and", do("less_equal", q, 0), do("equal", do("floor", q), q))
    out = do("where", do("logical_and", pole, do("logical_not", do("less", x, 1))), math.inf, out)
    out = do("where", do("equal", x, 1), math.inf, out)
    return do("where", do("less", x, 1), math.nan, out)


def _eta_weights(n: int) -> list[float]:
    """Borwein's weights: eta(s) = Σ_k w_k (k+1)^-s, error below 2 (3+√8)^-n."""
    terms = [
        Fraction(
            n * math.factorial(n + i - 1) * 4**i, math.factorial(n - i) * math.factorial(2 * i)
        )
        for i in range(n + 1)
    ]
    d = list(accumulate(terms))
    return [float((-1) ** k * (d[n] - d[k]) / d[n]) for k in range(n)]


_ETA = _eta_weights(24)


def riemann_zeta(x: Any, hurwitz: Callable[[Any, Any], Any]) -> Any:
    """Riemann's zeta on the whole real line, from a Hurwitz zeta valid for ``x > 1``.

    scipy's ``zeta(x)`` (``q=None``) continues Riemann's zeta below 1, where
    Hurwitz implementations (tensorflow's, jax's) return nan. Here ``x >= 1``
    uses ``hurwitz(x, 1)`` (and ``zeta(inf) = 1``); ``x < -0.5`` the functional
    equation ``2^x π^(x-1) sin(πx/2) Γ(1-x) ζ(1-x)`` in logarithms (exact
    zeros at the negative even integers, overflow to ``±inf`` where scipy
    overflows, relative error about ``|x| log|x| · eps``: 1e-13 at -60);
    ``-0.5 <= x < 1`` Borwein's alternating series for eta with 24 terms,
    ``ζ = η / (1 - 2^(1-x))`` (relative error about 1e-14).

    Parameters
    ----------
    x : array
        Real arguments (float32 or float64).
    hurwitz : callable
        ``hurwitz(s, q)`` for arrays ``s > 1`` and ``q`` of ``x``'s dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.special import zeta
    >>> riemann_zeta(np.array([-1.0, 0.0, 0.5, 2.0]), zeta)
    array([-0.08333333, -0.5       , -1.46035451,  1.64493407])
    """
    one = do("ones_like", x)
    high = do("logical_not", do("less", x, 1))  # nan goes here too
    neg = do("less", x, -0.5)
    # x >= 1
    h = hurwitz(do("where", high, x, 2 * one), one)
    h = do("where", do("equal", x, math.inf), one, h)
    # x < -0.5: the functional equation; sin(πx/2) = -sin(πy/2) with y = -x, reduced
    # exactly (fmod) to ±sin(πt/2), t in [0, 1], exactly 0 at the even integers
    y = do("where", neg, -x, one)
    r = do("mod", y, 4.0)
    upper = do("greater_equal", r, 2)
    r = do("where", upper, r - 2, r)
    t = do("minimum", r, 2 - r)
    sin = do("where", upper, one, -one) * do("sin", (0.5 * math.pi) * t)
    s = 1 + y
    logmag = -y * _LOG2 - (1 + y) * _LOGPI + do("scipy.special.gammaln", s)
    logmag = logmag + do("log", hurwitz(s, one))
    refl = do("where", do("equal", t, 0), 0 * one, sin * do("exp", logmag))
    # -0.5 <= x < 1: Borwein's eta (accurate to about 1e-14 there)
    xb = do("where", do("logical_or", high, neg), 0.5 * one, x)
    eta = _ETA[0] * one
    for k, w in enumerate(_ETA[1:], start=2):
        eta = eta + w * do("exp", -math.log(k) * xb)
    mid = eta / -do("expm1", (1 - xb) * _LOG2)
    return do("where", high, h, do("where", neg, refl, mid))
