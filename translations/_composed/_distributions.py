"""numpy's ``random.Generator`` distributions, written once with ``do`` over a
library generator's primitive draws.

:class:`Distributions` is a mixin of the numpy-like ``Generator`` classes of the
tables (torch, jax, tensorflow, dask): it needs their ``random``,
``standard_normal``, ``gamma``, ``poisson``, ``binomial`` and ``integers`` methods
(each drawing from the generator's own state, so ``random.seed`` and
``default_rng(seed)`` repeat every draw below), checks the parameters with numpy's
``ValueError`` messages and draws by the standard transformations: inverse CDFs
(gumbel, laplace, logistic, pareto, power, rayleigh, weibull, triangular,
geometric), ratios and sums of gamma and normal draws (chisquare, f, standard_t,
dirichlet, lognormal, noncentral ones as Poisson mixtures), Poisson-gamma mixtures
(negative_binomial), conditional binomials (multinomial), numpy's own rejection
samplers (vonmises, zipf, logseries, vectorised: redrawn where rejected) and a
factor of the covariance (multivariate_normal). A table overrides one by naming a
native sampler in its class's ``NATIVE`` dict: ``name -> fn(generator, shape,
dtype, *params)``, the parameters already checked and cast.

Floats come in the dtype of the first floating parameter that is an array of the
library, else the generator's default (``_default_float``); counts are int64. The
rejection samplers, ``hypergeometric`` (an inverse CDF over the support, one step
per value) and the parameter checks read values on the host: eager only.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from dispatch.translations._composed._common import _dtype, _host

from dispatch.engine import backend_of_type, do, is_array


def _as(x: Any, name: str) -> Any:
    return x if _dtype(x) == name else do("astype", x, name)


def _negative(v: np.ndarray) -> Any:
    return ~(v >= 0)  # NaN included, as numpy's checks


def _not_positive(v: np.ndarray) -> Any:
    return ~(v > 0)


def _size(size: Any) -> tuple[int, ...]:
    return (int(size),) if np.ndim(size) == 0 else tuple(int(s) for s in size)


class Distributions:
    """numpy's ``Generator`` distributions over a library's primitive draws (mixin)."""

    BACKEND: ClassVar[str] = "numpy"
    NATIVE: ClassVar[dict[str, Callable]] = {}
    # a lazy library (dask): its arrays given as parameters are not read for the
    # checks (that would compute them); constants still are
    LAZY: ClassVar[bool] = False
    _raw: dict[int, Any]

    if TYPE_CHECKING:  # the primitive draws each library's generator class provides

        def random(self, size: Any = None, dtype: Any = None) -> Any: ...
        def standard_normal(self, size: Any = None, dtype: Any = None) -> Any: ...
        def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Any: ...
        def poisson(self, lam: Any = 1.0, size: Any = None) -> Any: ...
        def binomial(self, n: Any, p: Any, size: Any = None) -> Any: ...
        def integers(self, low: Any, high: Any = None, size: Any = None,
                     dtype: Any = None, endpoint: bool = False) -> Any: ...

    # ------------------------------------------------------------ helpers

    def _default_float(self) -> str:
        return "float64"

    def _wide(self) -> str:
        """The float of the counts' arithmetic (float64, unless the library lacks it)."""
        return "float64"

    def _count(self) -> str:
        """numpy's int64 of counts (unless the library lacks it)."""
        return "int64"

    def _param(self, p: Any) -> Any:
        """A parameter as an array of the library; on a lazy library, a constant stays
        a host numpy array (dask's samplers compute the dask arrays they are given)."""
        if is_array(p) and backend_of_type(type(p)) == self.BACKEND:
            return p
        host = np.asarray(_host(p) if is_array(p) else p)
        return host if self.LAZY else do("asarray", host, like=self.BACKEND)

    def _prep(self, size: Any, *params: Any, dtype: Any = None) -> tuple:
        """Output shape, float dtype name and the parameters as arrays of that dtype."""
        arrays = [self._param(p) for p in params]
        if dtype is not None:
            name = np.dtype(dtype).name if not isinstance(dtype, str) else dtype
        else:
            mine = [a for a, p in zip(arrays, params, strict=True) if is_array(p)
                    and backend_of_type(type(p)) == self.BACKEND
                    and _dtype(a).startswith(("float", "bfloat"))]
            name = _dtype(mine[0]) if mine else self._default_float()
        arrays = [_as(a, name) for a in arrays]
        # the parameters as given, for the checks (which read constants on the host)
        self._raw = {id(a): p for a, p in zip(arrays, params, strict=True)}
        if size is None:
            shape = tuple(np.broadcast_shapes(*(tuple(do("shape", a)) for a in arrays)))
        else:
            shape = _size(size)
        return shape, name, arrays

    def _readable(self, p: Any) -> np.ndarray | None:
        """The values of parameter ``p`` (as given) on the host, None where reading
        them would compute a lazy array or they are unknown (tracing)."""
        p = self._raw.get(id(p), p)
        if is_array(p) and not isinstance(p, (np.ndarray, np.generic)):
            if self.LAZY or not do("is_available", p):
                return None
            p = _host(p)
        return np.asarray(p, dtype=complex if np.iscomplexobj(p) else float)

    def _check(self, bad: Callable[..., Any], message: str, *params: Any) -> None:
        """numpy's ``ValueError(message)`` where ``bad`` holds for the parameters'
        values (read on the host; skipped while tracing, where the values are
        unknown, and for arrays of a lazy library)."""
        values = [self._readable(p) for p in params]
        if any(v is None for v in values):
            return
        with np.errstate(invalid="ignore"):
            if np.any(bad(*values)):
                raise ValueError(message)

    def _native(self, name: str) -> Callable | None:
        return self.NATIVE.get(name)

    def _uniform(self, shape: tuple, dt: str) -> Any:
        return _as(self.random(shape, dtype=dt), dt)

    def _open_uniform(self, shape: tuple, dt: str) -> Any:
        """Uniform on (0, 1]: ``1 - random()``, safe under a logarithm."""
        return 1.0 - self._uniform(shape, dt)

    def _normal(self, shape: tuple, dt: str) -> Any:
        return _as(self.standard_normal(shape, dtype=dt), dt)

    def _exp(self, shape: tuple, dt: str) -> Any:
        native = self._native("standard_exponential")
        if native is not None:
            return native(self, shape, dt)
        return -do("log", self._open_uniform(shape, dt))

    def _gamma(self, k: Any, shape: tuple, dt: str) -> Any:
        native = self._native("standard_gamma")
        if native is not None:
            return native(self, shape, dt, k)
        return _as(self.gamma(do("broadcast_to", k, shape), 1.0, shape), dt)

    def _chisq(self, df: Any, shape: tuple, dt: str) -> Any:
        return 2.0 * self._gamma(df / 2.0, shape, dt)

    def _poisson(self, lam: Any, shape: tuple) -> Any:
        return _as(self.poisson(do("broadcast_to", lam, shape), shape), self._count())

    def _redraw(self, draw: Callable[[tuple], tuple[Any, Any]], shape: tuple) -> Any:
        """Rejection sampling, vectorised: ``draw(shape) -> (values, accepted)``,
        drawn again where rejected until every entry is accepted (eager only)."""
        out, ok = draw(shape)
        for _ in range(1000):
            if bool(_host(do("all", ok))):
                return out
            new, new_ok = draw(shape)
            out = do("where", ok, out, new)
            ok = ok | new_ok
        raise RuntimeError("rejection sampling did not converge in 1000 rounds")

    # ------------------------------------------------------------ continuous

    def standard_exponential(self, size: Any = None, dtype: Any = None, method: str = "zig",
                             out: None = None) -> Any:
        """Exponential draws of mean 1."""
        _no_out(out)
        shape, dt, _ = self._prep(size, dtype=dtype)
        return self._exp(shape, dt)

    def standard_gamma(self, shape: Any, size: Any = None, dtype: Any = None,
                       out: None = None) -> Any:
        """Gamma draws of scale 1 and shape ``shape``."""
        _no_out(out)
        out_shape, dt, (k,) = self._prep(size, shape, dtype=dtype)
        self._check(_negative, "shape < 0", k)
        return self._gamma(k, out_shape, dt)

    def standard_cauchy(self, size: Any = None) -> Any:
        """Cauchy draws of median 0 and scale 1: a ratio of two normal draws."""
        shape, dt, _ = self._prep(size)
        native = self._native("standard_cauchy")
        if native is not None:
            return native(self, shape, dt)
        return self._normal(shape, dt) / self._normal(shape, dt)

    def standard_t(self, df: Any, size: Any = None) -> Any:
        """Student's t draws: a normal over the root of a chi-square over ``df``."""
        shape, dt, (df,) = self._prep(size, df)
        self._check(_not_positive, "df <= 0", df)
        native = self._native("standard_t")
        if native is not None:
            return native(self, shape, dt, df)
        return self._normal(shape, dt) / do("sqrt", self._chisq(df, shape, dt) / df)

    def chisquare(self, df: Any, size: Any = None) -> Any:
        """Chi-square draws: twice a gamma of shape ``df / 2``."""
        shape, dt, (df,) = self._prep(size, df)
        self._check(_not_positive, "df <= 0", df)
        return self._chisq(df, shape, dt)

    def f(self, dfnum: Any, dfden: Any, size: Any = None) -> Any:
        """F draws: the ratio of two chi-squares over their degrees of freedom."""
        shape, dt, (a, b) = self._prep(size, dfnum, dfden)
        self._check(_not_positive, "dfnum <= 0", a)
        self._check(_not_positive, "dfden <= 0", b)
        return (self._chisq(a, shape, dt) / a) / (self._chisq(b, shape, dt) / b)

    def noncentral_chisquare(self, df: Any, nonc: Any, size: Any = None) -> Any:
        """Noncentral chi-square draws: a chi-square with ``df + 2 * Poisson(nonc / 2)``
        degrees of freedom."""
        shape, dt, (df, nonc) = self._prep(size, df, nonc)
        self._check(_not_positive, "df <= 0", df)
        self._check(_negative, "nonc < 0", nonc)
        native = self._native("noncentral_chisquare")
        if native is not None:
            return native(self, shape, dt, df, nonc)
        extra = _as(self._poisson(nonc / 2.0, shape), dt)
        return self._chisq(df + 2.0 * extra, shape, dt)

    def noncentral_f(self, dfnum: Any, dfden: Any, nonc: Any, size: Any = None) -> Any:
        """Noncentral F draws: a noncentral chi-square over a chi-square, each over
        its degrees of freedom."""
        shape, dt, (a, b, nonc) = self._prep(size, dfnum, dfden, nonc)
        self._check(_not_positive, "dfnum <= 0", a)
        self._check(_not_positive, "dfden <= 0", b)
        self._check(_negative, "nonc < 0", nonc)
        native = self._native("noncentral_f")
        if native is not None:
            return native(self, shape, dt, a, b, nonc)
        extra = _as(self._poisson(nonc / 2.0, shape), dt)
        top = self._chisq(a + 2.0 * extra, shape, dt) * b
        return top / (self._chisq(b, shape, dt) * a)

    def gumbel(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Gumbel draws: ``loc - scale * log(-log(U))``."""
        shape, dt, (loc, scale) = self._prep(size, loc, scale)
        self._check(_negative, "scale < 0", scale)
        native = self._native("gumbel")
        if native is not None:
            return loc + scale * native(self, shape, dt)
        return loc - scale * do("log", self._exp(shape, dt))

    def laplace(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Laplace (double exponential) draws: an exponential with a random sign."""
        shape, dt, (loc, scale) = self._prep(size, loc, scale)
        self._check(_negative, "scale < 0", scale)
        native = self._native("laplace")
        if native is not None:
            return loc + scale * native(self, shape, dt)
        u = self._uniform(shape, dt)
        e = self._exp(shape, dt)
        return loc + scale * do("where", u < 0.5, -e, e)

    def logistic(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Logistic draws: ``loc + scale * log(U / (1 - U))``."""
        shape, dt, (loc, scale) = self._prep(size, loc, scale)
        self._check(_negative, "scale < 0", scale)
        native = self._native("logistic")
        if native is not None:
            return loc + scale * native(self, shape, dt)
        u = self._open_uniform(shape, dt)
        return loc + scale * (do("log", u) - do("log1p", -u))

    def lognormal(self, mean: Any = 0.0, sigma: Any = 1.0, size: Any = None) -> Any:
        """Log-normal draws: ``exp(mean + sigma * N)``."""
        shape, dt, (mean, sigma) = self._prep(size, mean, sigma)
        self._check(_negative, "sigma < 0", sigma)
        return do("exp", mean + sigma * self._normal(shape, dt))

    def pareto(self, a: Any, size: Any = None) -> Any:
        """Pareto II (Lomax) draws, numpy's: ``expm1(E / a)``."""
        shape, dt, (a,) = self._prep(size, a)
        self._check(_not_positive, "a <= 0", a)
        return do("expm1", self._exp(shape, dt) / a)

    def power(self, a: Any, size: Any = None) -> Any:
        """Power-function draws on [0, 1]: ``(1 - exp(-E)) ** (1 / a)``."""
        shape, dt, (a,) = self._prep(size, a)
        self._check(_not_positive, "a <= 0", a)
        return do("power", -do("expm1", -self._exp(shape, dt)), 1.0 / a)

    def rayleigh(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Rayleigh draws: ``scale * sqrt(2 E)``."""
        shape, dt, (scale,) = self._prep(size, scale)
        self._check(_negative, "scale < 0", scale)
        return scale * do("sqrt", 2.0 * self._exp(shape, dt))

    def weibull(self, a: Any, size: Any = None) -> Any:
        """Weibull draws of scale 1: ``E ** (1 / a)`` (0 where ``a`` is 0)."""
        shape, dt, (a,) = self._prep(size, a)
        self._check(_negative, "a < 0", a)
        zero = do("equal", a, 0)
        safe = do("where", zero, do("ones_like", a), a)
        draws = do("power", self._exp(shape, dt), 1.0 / safe)
        return do("where", zero, do("zeros_like", draws), draws)

    def triangular(self, left: Any, mode: Any, right: Any, size: Any = None) -> Any:
        """Triangular draws on [left, right] peaking at ``mode``: the inverse CDF."""
        shape, dt, (lo, mid, hi) = self._prep(size, left, mode, right)
        self._check(lambda a, b: a > b, "left > mode", lo, mid)
        self._check(lambda a, b: a > b, "mode > right", mid, hi)
        self._check(lambda a, b: a == b, "left == right", lo, hi)
        native = self._native("triangular")
        if native is not None:
            return native(self, shape, dt, lo, mid, hi)
        base = hi - lo
        u = self._uniform(shape, dt)
        below = lo + do("sqrt", u * (mid - lo) * base)
        above = hi - do("sqrt", (1.0 - u) * (hi - mid) * base)
        return do("where", u <= (mid - lo) / base, below, above)

    def wald(self, mean: Any, scale: Any, size: Any = None) -> Any:
        """Wald (inverse Gaussian) draws, numpy's transformation of a normal draw."""
        shape, dt, (mu, lam) = self._prep(size, mean, scale)
        self._check(_not_positive, "mean <= 0", mu)
        self._check(_not_positive, "scale <= 0", lam)
        y = self._normal(shape, dt)
        y = mu * y * y
        x = mu + mu / (2.0 * lam) * (y - do("sqrt", 4.0 * lam * y + y * y))
        u = self._uniform(shape, dt)
        return do("where", u <= mu / (mu + x), x, mu * mu / x)

    def vonmises(self, mu: Any, kappa: Any, size: Any = None) -> Any:
        """von Mises draws on [-pi, pi]: numpy's rejection sampler (Best and Fisher),
        a wrapped normal for ``kappa > 1e6`` and uniform for ``kappa < 1e-8``."""
        shape, dt, (mu, kappa) = self._prep(size, mu, kappa)
        self._check(_negative, "kappa < 0", kappa)
        native = self._native("vonmises")
        if native is not None:
            return native(self, shape, dt, mu, kappa)
        kappa = do("broadcast_to", kappa, shape)
        k = do("maximum", kappa, 1e-8)
        r = 1.0 + do("sqrt", 1.0 + 4.0 * k * k)
        rho = (r - do("sqrt", 2.0 * r)) / (2.0 * k)
        s = do("where", k < 1e-5, 1.0 / k + k, (1.0 + rho * rho) / (2.0 * rho))

        def draw(sh: tuple) -> tuple[Any, Any]:
            z = do("cos", math.pi * self._uniform(sh, dt))
            w = (1.0 + s * z) / (s + z)
            y = k * (s - w)
            v = self._uniform(sh, dt)
            ok = (y * (2.0 - y) - v >= 0) | (do("log", y / v) + 1.0 - y >= 0)
            return w, ok

        w = self._redraw(draw, shape)
        angle = do("arccos", do("clip", w, -1.0, 1.0))
        angle = do("where", self._uniform(shape, dt) < 0.5, -angle, angle)
        wrapped = mu + do("sqrt", 1.0 / k) * self._normal(shape, dt)
        angle = do("where", kappa > 1e6, wrapped, angle + mu)
        angle = do("where", kappa < 1e-8, math.pi * (2.0 * self._uniform(shape, dt) - 1.0),
                   angle)
        mod = do("fmod", do("abs", angle) + math.pi, 2.0 * math.pi) - math.pi
        return do("where", angle < 0, -mod, mod)

    def dirichlet(self, alpha: Any, size: Any = None) -> Any:
        """Dirichlet draws, shape ``size + (len(alpha),)``: gamma draws of shapes
        ``alpha``, normalised."""
        given = self._param(alpha)
        if do("ndim", given) != 1:
            raise ValueError("alpha must be a one-dimensional sequence of floats")
        batch = () if size is None else _size(size)
        k = do("shape", given)[0]
        shape, dt, (alpha,) = self._prep((*batch, k), alpha)
        self._check(_negative, "alpha < 0", alpha)
        g = self._gamma(do("broadcast_to", alpha, shape), shape, dt)
        return g / do("sum", g, axis=-1, keepdims=True)

    def multivariate_normal(self, mean: Any, cov: Any, size: Any = None,
                            check_valid: str = "warn", tol: float = 1e-8, *,
                            method: str = "svd") -> Any:
        """Multivariate normal draws, shape ``size + (len(mean),)``: standard normal
        draws times a factor of ``cov`` (its SVD, eigendecomposition or Cholesky
        factor, numpy's ``method``), ``cov`` checked to be positive semi-definite as
        numpy does (``check_valid``, ``tol``; eager only)."""
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        mshape, cshape = tuple(np.shape(mean)), tuple(np.shape(cov))
        if is_array(mean):
            mshape = tuple(do("shape", mean))
        if is_array(cov):
            cshape = tuple(do("shape", cov))
        if len(mshape) != 1:
            raise ValueError("mean must be 1 dimensional")
        if len(cshape) != 2 or cshape[0] != cshape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        n = mshape[0]
        if n != cshape[0]:
            raise ValueError("mean and cov must have same length")
        batch = () if size is None else _size(size)
        shape, dt, (mean, cov) = self._prep((*batch, n), mean, cov)
        host = self._readable(cov)
        if check_valid != "ignore" and method != "cholesky" and host is not None:
            if method == "svd":
                _, sv, vh = np.linalg.svd(host)
                psd = np.allclose(np.dot(vh.T * sv, vh), host, rtol=tol, atol=tol)
            else:
                psd = not np.any(np.linalg.eigvalsh(host) < -tol)
            if not psd:
                message = "covariance is not symmetric positive-semidefinite."
                if check_valid == "raise":
                    raise ValueError(message)
                warnings.warn(message, RuntimeWarning, stacklevel=3)
        native = self._native("multivariate_normal")
        if native is not None:
            return native(self, shape, dt, mean, cov, method)
        z = self._normal(shape, dt)
        if method == "cholesky":
            return mean + do("matmul", z, do("transpose", do("linalg.cholesky", cov)))
        if method == "svd":
            u, s, _ = do("linalg.svd", cov)
        else:
            s, u = do("linalg.eigh", cov)
        factor = u * do("sqrt", do("abs", s))
        return mean + do("matmul", z, do("transpose", factor))

    # ------------------------------------------------------------ discrete (int64)

    def geometric(self, p: Any, size: Any = None) -> Any:
        """Geometric draws (trials to the first success, from 1):
        ``ceil(-E / log1p(-p))``, 1 where ``p`` is 1."""
        shape, dt, (p,) = self._prep(size, p, dtype=self._wide())
        self._check(lambda v: ~((v > 0) & (v <= 1)), "p <= 0, p > 1 or p contains NaNs", p)
        x = do("ceil", -self._exp(shape, dt) / do("log1p", -p))
        x = do("where", p >= 1.0, do("ones_like", x), do("maximum", x, 1.0))
        return _as(x, self._count())

    def logseries(self, p: Any, size: Any = None) -> Any:
        """Logarithmic-series draws: numpy's rejection sampler (Kemp), vectorised."""
        shape, dt, (p,) = self._prep(size, p, dtype=self._wide())
        self._check(lambda v: ~((v >= 0) & (v < 1)), "p < 0, p >= 1 or p is NaN", p)
        native = self._native("logseries")
        if native is not None:
            return _as(native(self, shape, dt, p), self._count())
        r = do("log1p", -p)

        def draw(sh: tuple) -> tuple[Any, Any]:
            v = self._uniform(sh, dt)
            q = -do("expm1", r * self._uniform(sh, dt))
            tail = do("floor", 1.0 + do("log", v) / do("log", q))
            x = do("where", v >= q, 1.0, 2.0)
            x = do("where", v <= q * q, tail, x)
            x = do("where", v >= p, 1.0, x)
            ok = (x >= 1.0) & (v > 0)
            return x, ok

        return _as(self._redraw(draw, shape), self._count())

    def zipf(self, a: Any, size: Any = None) -> Any:
        """Zipf draws: numpy's rejection sampler (Devroye), vectorised."""
        shape, dt, (a,) = self._prep(size, a, dtype=self._wide())
        self._check(lambda v: ~(v > 1), "a <= 1 or a is NaN", a)
        native = self._native("zipf")
        if native is not None:
            return _as(native(self, shape, dt, a), self._count())
        am1 = a - 1.0
        b = do("power", 2.0, am1)

        def draw(sh: tuple) -> tuple[Any, Any]:
            u = self._open_uniform(sh, dt)
            v = self._uniform(sh, dt)
            x = do("floor", do("power", u, -1.0 / am1))
            good = (x >= 1.0) & (x <= 9.2e18)
            x = do("where", good, x, do("ones_like", x))
            t = do("power", 1.0 + 1.0 / x, am1)
            return x, good & (v * x * (t - 1.0) / (b - 1.0) <= t / b)

        return _as(self._redraw(draw, shape), self._count())

    def negative_binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Negative binomial draws (failures before the ``n``-th success): a Poisson
        draw of a gamma draw of shape ``n`` and scale ``(1 - p) / p``."""
        shape, dt, (n, p) = self._prep(size, n, p, dtype=self._wide())
        self._check(_not_positive, "n <= 0", n)
        self._check(lambda v: ~((v > 0) & (v <= 1)), "p <= 0, p > 1 or p contains NaNs", p)
        native = self._native("negative_binomial")
        if native is not None:
            return _as(native(self, shape, dt, n, p), self._count())
        rate = self._gamma(do("broadcast_to", n, shape), shape, dt) * ((1.0 - p) / p)
        return self._poisson(rate, shape)

    def hypergeometric(self, ngood: Any, nbad: Any, nsample: Any, size: Any = None) -> Any:
        """Hypergeometric draws: the inverse CDF over the support, one vectorised step
        per possible value (``min(nsample, ngood) + 1`` steps at most, the
        probabilities from ``gammaln``)."""
        shape, dt, (g, b, m) = self._prep(size, ngood, nbad, nsample, dtype=self._wide())
        self._check(_negative, "ngood < 0", g)
        self._check(_negative, "nbad < 0", b)
        self._check(_negative, "nsample < 0", m)
        self._check(lambda x, y, z: x + y < z, "ngood + nbad < nsample", g, b, m)
        native = self._native("hypergeometric")
        if native is not None:
            counts = (_as(v, self._count()) for v in (g, b, m))
            return _as(native(self, shape, dt, *counts), self._count())
        g, b, m = (do("broadcast_to", v, shape) for v in (g, b, m))
        steps = int(np.max(_host(do("minimum", m, g) - do("maximum", m - b, 0.0)), initial=0))
        return self._hypergeometric(g, b, m, shape, dt, steps if math.prod(shape) else 0)

    def _hypergeometric(self, g: Any, b: Any, m: Any, shape: tuple, dt: str,
                        steps: int) -> Any:
        """Hypergeometric draws by the inverse CDF, ``steps`` values past the lowest."""
        lo, hi = do("maximum", m - b, 0.0), do("minimum", m, g)

        def lgamma(x: Any) -> Any:
            return do("scipy.special.gammaln", x)

        base = lgamma(g + 1) + lgamma(b + 1) + lgamma(m + 1) + lgamma(g + b - m + 1) - lgamma(
            g + b + 1)
        u = self._uniform(shape, dt)
        x, cdf = lo, do("zeros_like", u)
        for j in range(steps):
            k = lo + j
            logpmf = base - (lgamma(k + 1) + lgamma(g - k + 1) + lgamma(m - k + 1)
                             + lgamma(b - m + k + 1))
            cdf = cdf + do("exp", logpmf)
            x = x + _as((u >= cdf) & (k < hi), dt)
        return _as(x, self._count())

    def multivariate_hypergeometric(self, colors: Any, nsample: int, size: Any = None,
                                    method: str = "marginals") -> Any:
        """Counts of each colour in ``nsample`` draws without replacement from an urn
        holding ``colors[i]`` items of colour ``i``, shape ``size + (len(colors),)``: a
        hypergeometric draw per colour from the draws left (both of numpy's methods
        give this law)."""
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        counts = np.asarray(_host(colors) if is_array(colors) else colors)
        if counts.ndim != 1 or counts.dtype.kind not in "iu" or (counts < 0).any():
            raise ValueError("colors must be a one-dimensional sequence of nonnegative "
                             "integers not exceeding 9223372036854775807.")
        if int(nsample) < 0:
            raise ValueError("nsample must be nonnegative.")
        total = int(counts.sum())
        if int(nsample) > total:
            raise ValueError("nsample > sum(colors)")
        batch = () if size is None else _size(size)
        wide = self._wide()
        left = do("full", batch, float(nsample), dtype=wide, like=self.BACKEND)
        drawn = []
        for c in counts[:-1]:
            total -= int(c)
            good, bad = (do("full", batch, float(v), dtype=wide, like=self.BACKEND)
                         for v in (c, total))
            # at most min(c, nsample) values past the lowest: known without reading `left`
            x = self._hypergeometric(good, bad, left, batch, wide, min(int(c), int(nsample)))
            x = _as(x, wide)
            drawn.append(x)
            left = left - x
        drawn.append(left)
        return _as(do("stack", drawn, axis=-1), self._count())

    def multinomial(self, n: Any, pvals: Any, size: Any = None) -> Any:
        """Multinomial counts, shape ``size + (len(pvals),)``: a binomial draw per
        category from the trials left, at the probability conditional on the
        categories before it."""
        pshape = tuple(do("shape", pvals)) if is_array(pvals) else np.shape(pvals)
        nshape = tuple(do("shape", n)) if is_array(n) else np.shape(n)
        if len(pshape) < 1:
            raise ValueError("pvals must have at least 1 dimension")
        k = pshape[-1]
        batch = tuple(np.broadcast_shapes(nshape, pshape[:-1])) if size is None else _size(size)
        _, _, (nf, pv) = self._prep(batch, n, pvals, dtype=self._wide())
        self._check(_negative, "n < 0", nf)
        self._check(lambda v: ~((v >= 0) & (v <= 1)), "pvals < 0, pvals > 1 or pvals contains NaNs",
               pv)
        self._check(lambda v: np.sum(v[..., :-1], axis=-1) > 1.0 + 1e-12, "sum(pvals[:-1]) > 1.0",
               pv)
        native = self._native("multinomial")
        out = None if native is None else native(self, batch, self._wide(), nf, pv)
        if out is not None:  # the native sampler may decline (None)
            return _as(out, self._count())
        left = do("broadcast_to", nf, batch)
        rest = do("ones", batch, dtype=self._wide(), like=left)
        counts = []
        for i in range(k - 1):
            p = do("broadcast_to", pv[..., i], batch)
            q = do("where", rest > 0, do("clip", p / do("maximum", rest, 1e-300), 0.0, 1.0), 0.0)
            c = _as(self.binomial(_as(left, self._count()), q, batch), self._wide())
            counts.append(c)
            left, rest = left - c, rest - p
        counts.append(left)
        return _as(do("stack", counts, axis=-1), self._count())

    # ------------------------------------------------------------ shuffles, bytes

    def permuted(self, x: Any, *, axis: int | None = None, out: None = None) -> Any:
        """``x`` shuffled independently along ``axis`` (every slice its own order;
        None: the flattened array), as a new array: ``out=`` is refused."""
        if out is not None:
            raise TypeError("permuted: out= is not supported (it writes in place); the "
                            "shuffled copy is returned")
        if not (is_array(x) and backend_of_type(type(x)) == self.BACKEND):
            x = do("asarray", np.asarray(_host(x) if is_array(x) else x), like=self.BACKEND)
        native = self._native("permuted")
        if native is not None:
            return native(self, x, axis)
        shape = tuple(do("shape", x))
        flat = do("reshape", x, (-1,)) if axis is None else x
        ax = 0 if axis is None else int(axis)
        keys = self._uniform(tuple(do("shape", flat)), self._wide())
        order = do("argsort", keys, axis=ax)
        return do("reshape", do("take_along_axis", flat, order, axis=ax), shape)

    def bytes(self, length: int) -> bytes:
        """``length`` random bytes (a Python ``bytes`` object, as numpy's)."""
        draws = self.integers(0, 256, size=(int(length),), dtype=self._count())
        return _host(draws).astype(np.uint8).tobytes()


def _no_out(out: Any) -> None:
    if out is not None:
        raise TypeError("out= is not supported: the draws are returned as a new array")


# the Generator methods above, in the order of numpy's documentation
DISTRIBUTIONS = (
    "bytes chisquare dirichlet f geometric gumbel hypergeometric laplace logistic "
    "lognormal logseries multinomial multivariate_hypergeometric multivariate_normal "
    "negative_binomial "
    "noncentral_chisquare noncentral_f pareto permuted power rayleigh standard_cauchy "
    "standard_exponential standard_gamma standard_t triangular vonmises wald weibull zipf"
).split()
