"""One call per name over the whole vocabulary, on every installed backend, against numpy.

The walk covers every name that ``dispatch._resolve.known_names()`` lists once the
tables of the installed libraries are loaded: numpy's vocabulary (with ``linalg.``,
``fft.``, ``random.`` and ``scipy.`` names), keras's ML ops, the backend method list
and the transforms. :func:`test_every_name_has_a_case` fails for a name that has no
case here and no entry in :data:`EXEMPT`: a name added later must bring its case.

Each case is one call of small, non-trivial numpy inputs. The expected value is the
numpy backend's ``do(name, ...)``, itself checked once against numpy's (scipy's) own
function of that name where one exists, so that the reference is not dispatch
checking itself. Random names are compared by shape and dtype kind, and a seeded
draw must repeat; metadata (dtypes, shapes, booleans, devices) is compared as plain
Python values; transforms are called with small functions written with ``do`` and
compared with a numpy result written by hand. A name that a backend's table marks
``unsupported`` must raise :class:`dispatch.UnsupportedError` there.

The deep checks (call forms, dtypes, properties) live in the other test files; this
file is the breadth guard, kept under two minutes on two cores.
"""

from __future__ import annotations

import importlib
import operator
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
import scipy.linalg
import scipy.special as sc
from conftest import (
    BOXED_BACKENDS,
    array_leaves,
    assert_close,
    assert_default_float_width,
    assert_same_container,
    boxed,
    floats_from_ints,
    known_gap,
    missing_dtype,
    missing_dtype_skips,
    reference_function,
    result_leaves,
    to_backend,
    to_np,
    usable_backends,
)

from dispatch import UnknownFunctionError, UnsupportedError, do, is_array
from dispatch._resolve import known_names

# ---------------------------------------------------------------- inputs

rng = np.random.default_rng(20240519)
X = rng.standard_normal((3, 4))  # mixed signs
Y = rng.uniform(0.5, 2.0, (3, 4)) * np.where(rng.random((3, 4)) < 0.5, -1.0, 1.0)  # no zero
P = rng.uniform(0.2, 3.0, (3, 4))  # positive
U = rng.uniform(-0.9, 0.9, (3, 4))  # inside (-1, 1)
PU = (U + 1.0) / 2.0  # inside (0, 1)
V = rng.standard_normal(6)
VS = np.sort(V)
I = rng.integers(-5, 6, (3, 4))  # int64, mixed signs  # noqa: E741
IP = rng.integers(1, 9, (3, 4))  # positive ints
SH = rng.integers(0, 4, (3, 4))  # small shifts
B = X > 0
SQ = rng.standard_normal((4, 4)) + 4.0 * np.eye(4)  # well conditioned
SPD = SQ @ SQ.T + np.eye(4)
LOW = np.tril(SQ)
RHS = rng.standard_normal((4, 2))
C = X + 1j * Y
XN = X.copy()
XN[0, 1] = XN[2, 3] = np.nan
IMG = rng.standard_normal((2, 6, 6, 3))  # (batch, height, width, channels)
SEQ = rng.standard_normal((2, 8, 3))  # (batch, length, channels)
LABELS = np.array([2, 0, 3])
PROBS = sc.softmax(X, axis=-1)
ONEHOT = np.eye(4)[LABELS]
SEG = np.array([0, 0, 2, 1])
IDX = np.array([2, 0, 2])
NZ = np.array([[0.0, 1.5, 0.0], [-2.0, 0.0, 3.0]])


# ---------------------------------------------------------------- cases


@dataclass
class Smoke:
    """One call of a name: ``do(name, *args, **kwargs)`` on numpy arguments.

    ``how``: ``"value"`` (arrays compared with a dtype-aware tolerance, plain Python
    values with ``==``), ``"random"`` (shape and dtype kind as numpy's draw, a seeded
    draw repeats), ``"check"`` (``check(result, backend)`` asserts). ``ref`` gives the
    expected value from the numpy arguments (default: ``do`` on numpy); ``call``
    replaces ``do(name, *args, **kwargs)`` (``call(backend_args, backend_kwargs,
    backend)``), for transforms and for calls whose result is a function.
    """

    args: tuple
    kwargs: dict
    ref: Callable | None = None
    how: str = "value"
    like: bool = False
    call: Callable | None = None
    check: Callable | None = None
    own: bool = True  # compare numpy's result with numpy's own function of the name
    dtype: str | None = "exact"
    rtol: float | None = None
    atol: float | None = None
    marks: tuple = field(default_factory=tuple)


def c(*args: Any, _ref=None, _how="value", _like=False, _call=None, _check=None, _own=True,
      _dtype="exact", _rtol=None, _atol=None, **kwargs: Any) -> Smoke:
    return Smoke(args, kwargs, _ref, _how, _like, _call, _check, _own, _dtype, _rtol, _atol)


def like(*args: Any, **kwargs: Any) -> Smoke:
    """A creation case: ``do(name, *args, like=backend)``."""
    return c(*args, _like=True, **kwargs)


def rnd(*args: Any, **kwargs: Any) -> Smoke:
    """A random draw made with ``like=backend``: shapes and kinds, seeded repeats."""
    return c(*args, _how="random", _like=True, **kwargs)


def checked(fn: Callable, *args: Any, _like: bool = False, **kwargs: Any) -> Smoke:
    """A case whose result is checked by ``fn(result, backend)``."""
    return c(*args, _how="check", _check=fn, _like=_like, **kwargs)


CASES: dict[str, Smoke] = {}


def add(names: str, make: Callable[[str], Smoke] | Smoke) -> None:
    for n in names.split():
        assert n not in CASES, f"two cases for {n}"
        CASES[n] = make(n) if callable(make) and not isinstance(make, Smoke) else make


# elementwise, one argument
add("abs absolute negative positive sign sin cos tan sinh cosh tanh arctan arcsinh atan asinh "
    "exp expm1 exp2 ceil floor rint around trunc fix square cbrt deg2rad rad2deg degrees "
    "radians sinc signbit isfinite isinf isnan isneginf isposinf spacing fabs conj conjugate "
    "real imag angle i0 isreal iscomplex real_if_close erf relu relu6 sigmoid silu swish "
    "gelu elu selu celu softplus softsign log_sigmoid hard_sigmoid hard_silu hard_swish "
    "hard_tanh hard_shrink soft_shrink tanh_shrink sparse_plus sparse_sigmoid squareplus "
    "leaky_relu scipy.special.erf scipy.special.erfc scipy.special.erfcx scipy.special.expit "
    "scipy.special.ndtr scipy.special.log_ndtr scipy.special.i0 scipy.special.i0e "
    "scipy.special.i1 scipy.special.i1e copy ravel flatten transpose matrix_transpose "
    "linalg.matrix_transpose fliplr flipud flip rot90 atleast_1d atleast_2d atleast_3d "
    "sort argsort msort flatnonzero to_float to_int64 to_int32 to_complex stop_gradient "
    "ascontiguousarray asfortranarray asanyarray asarray_chkfinite array asarray "
    "as_tensor from_numpy cumsum cumprod nancumsum nancumprod ediff1d trim_zeros "
    "sort_complex unwrap", lambda n: c(X))
add("round", c(X, 2))
add("cov corrcoef", c(X))
add("nan_to_num", c(XN, nan=-1.5))
add("log log10 log2 log1p sqrt rsqrt reciprocal scipy.special.gammaln scipy.special.digamma "
    "scipy.special.psi scipy.special.k0 scipy.special.k0e scipy.special.k1 scipy.special.k1e "
    "scipy.special.j0 scipy.special.j1 scipy.special.y0 scipy.special.y1 log_gamma "
    "scipy.special.entr factorial", lambda n: c(P))
add("arccosh acosh", c(P + 1.0))
add("scipy.special.zeta", c(P + 1.1))
add("arcsin arccos arctanh asin acos atanh scipy.special.erfinv", c(U))
add("scipy.special.ndtri scipy.special.logit", c(PU))
add("scipy.special.polygamma", c(2, P))
add("scipy.special.multigammaln", c(P + 2.0, 3))
add("scipy.special.xlogy scipy.special.xlog1py", c(X, P))
add("scipy.special.gammainc scipy.special.gammaincc gamma_inc_l gamma_inc_u", c(P, P[::-1]))
add("scipy.special.softmax scipy.special.log_softmax scipy.special.logsumexp softmax "
    "log_softmax", c(X, axis=1))

# elementwise, two arguments
add("add subtract multiply divide true_divide maximum minimum fmax fmin hypot arctan2 atan2 "
    "copysign nextafter logaddexp logaddexp2 heaviside fmod mod remainder floor_divide divmod "
    "equal not_equal less less_equal greater greater_equal isclose sub mul div floordiv "
    "greater_than greater_or_equal divide_no_nan", lambda n: c(X, Y))
add("power float_power pow", c(P, Y))
add("logical_and logical_or logical_xor", c(B, Y > 0))
add("logical_not", c(B))
add("gcd lcm bitwise_and bitwise_or bitwise_xor and_ or_ xor", c(I, IP))
add("left_shift right_shift bitwise_left_shift bitwise_right_shift shift_bits_left "
    "shift_bits_right", c(IP, SH))
add("bitwise_not bitwise_invert invert", c(I))
add("bitwise_count", c(I))
add("ldexp", c(X, SH))
add("frexp modf", c(X))
add("clip", c(X, -0.5, 0.7))
add("where", c(B, X, Y))
add("interp", c(np.array([-1.5, 0.2, 0.9, 3.0]), VS, V))
add("allclose array_equal array_equiv", c(X, X + 1e-12))

# reductions
add("sum prod mean std var max min amax amin argmax argmin all any median ptp average "
    "count_nonzero cumulative_sum cumulative_prod", lambda n: c(X, axis=1))
add("nansum nanprod nanmean nanstd nanvar nanmax nanmin nanargmax nanargmin nanmedian",
    lambda n: c(XN, axis=1))
add("quantile percentile", lambda n: c(X, 0.3 if n == "quantile" else 30, axis=1))
add("nanquantile", c(XN, 0.3, axis=1))
add("nanpercentile", c(XN, 30, axis=1))
add("quantile_last", c(X, [0.2, 0.7], _ref=lambda x, q: np.quantile(x, q, axis=-1)))
add("moments", c(X, 1, _ref=lambda x, a: (x.mean(a), x.var(a))))
add("logdet", c(SPD, _ref=lambda m: np.linalg.slogdet(m)[1]))

# shapes
add("reshape", c(X, (4, 3)))
add("squeeze", c(X[:, None, :]))
add("expand_dims", c(X, 1))
add("expand_dims_n", c(X, 1, 2, _ref=lambda a, ax, n: a[:, None, None]))
add("moveaxis", c(IMG, 0, -1))
add("rollaxis", c(IMG, 3))
add("swapaxes", c(X, 0, 1))
add("permute_dims", c(IMG, (3, 1, 0, 2)))
add("broadcast_to", c(V, (2, 6)))
add("broadcast_arrays", c(X, V[:4]))
add("broadcast_shapes", c((3, 1), (1, 4)))
add("concatenate concat", c([X, Y], axis=1))
add("stack", c([X, Y], axis=1))
add("hstack vstack dstack column_stack", c([X, Y]))
add("block", c([[X, Y], [Y, X]]))
add("split", c(X, 2, axis=1))
add("array_split", c(V, 4))
add("hsplit", c(X, 2))
add("vsplit", c(X, 3))
add("dsplit", c(IMG, [1, 4]))
add("row_stack", c([X, Y[:2], V[:4]], _ref=lambda tup: np.vstack(tup)))
add("trapezoid", c(X, x=np.array([0.0, 0.5, 2.0, 2.25]), axis=1))
add("get_item", c(IMG, (1, slice(None, None, -2), [0, 3], None), _ref=operator.getitem))
add("unstack", c(X, axis=1))
add("tile", c(X, (2, 1)))
add("repeat", c(X, 2, axis=0))
add("roll", c(X, 2, axis=1))
add("pad", c(X, ((1, 0), (2, 1)), mode="reflect"))
add("resize", c(X, (2, 7)))
add("diag", c(X))
add("diagflat", c(V))
add("diagonal", c(X, 1))
add("linalg.diagonal", c(IMG[..., :3, :3, 0]))
add("trace", c(X, 1))
add("linalg.trace", c(IMG[..., :3, :3, 0]))
add("tril triu", c(X, -1))
add("delete", c(V, [1, 3]))
add("insert", c(V, 2, -7.5))
add("append", c(X, Y, axis=0))
add("take", c(X, IDX, axis=1))
add("take_along_axis", c(X, np.argsort(X, axis=1), axis=1))
add("choose", c(np.array([0, 1, 1, 0]), [X[0], Y[0]]))
add("compress", c(np.array([True, False, True]), X, axis=0))
add("extract", c(B, X))
add("select", c([X > 0.5, X < -0.5], [X, -X], 9.0))
add("diff", c(X, axis=1))
add("gradient", c(X))  # 2-d: a tuple of two arrays, as numpy
add("meshgrid", c(V[:3], V[3:]))
add("meshgrid_ij", c(V[:3], V[3:], _ref=lambda a, b: tuple(np.meshgrid(a, b, indexing="ij"))))
add("ix_", c(np.array([0, 2]), np.array([1, 3])))
add("argpartition", c(V, 2, _how="check", _check=lambda out, b: np.testing.assert_array_equal(
    np.sort(V[to_np(out)][:2]), np.sort(V)[:2])))
add("partition", c(V, 2, _ref=lambda v, k: np.partition(v, k), _how="check",
                   _check=lambda out, b: np.testing.assert_allclose(to_np(out)[2], np.sort(V)[2])))
add("lexsort", c((I[0], I[1])))
add("searchsorted", c(VS, V))
add("digitize", c(V, np.array([-1.0, 0.0, 1.0])))
add("bincount", c(np.abs(I).ravel(), minlength=7))
add("histogram", c(V, bins=4, range=(-3.0, 3.0)))
add("histogram_bin_edges", c(V, bins=4))
add("histogram2d", c(V, V[::-1], bins=3))
add("histogramdd", c(X.T[:, :2], bins=2))
add("unique", c(I))
add("unique_values", checked(lambda out, b: np.testing.assert_array_equal(
    np.sort(to_np(out)), np.unique(I)), I.ravel()))  # numpy's order is unspecified
add("unique_counts unique_inverse unique_all", lambda n: c(I.ravel()))
add("intersect1d union1d setdiff1d setxor1d", c(I[0], I[1]))
add("isin", c(I, np.array([1, 3])))
add("nonzero argwhere", c(NZ))
add("ravel_multi_index", c((np.array([0, 2, 1]), np.array([3, 1, 0])), (3, 4)))
add("unravel_index", c(np.array([5, 11, 0]), (3, 4)))
add("packbits", c(np.array([[1, 0, 1], [0, 1, 1]], dtype=np.uint8)))
add("unpackbits", c(np.array([[3, 200]], dtype=np.uint8)))
add("piecewise", c(V, [V < 0, V >= 0], [lambda v: -v, lambda v: v * v]))
add("apply_along_axis", c(lambda r: do("max", r) - do("min", r), 1, X))
add("apply_over_axes", c(lambda a, ax: do("sum", a, axis=ax, keepdims=True), IMG[..., 0], [0, 2]))
add("fromfunction", like(lambda i, j: i * 2 + j, (2, 3), dtype=float))
add("fromiter", like([1.5, -2.0, 3.0], dtype=float, _call=lambda a, k, b: do(
    "fromiter", iter(a[0]), like=b, **k), _ref=lambda it, dtype: np.fromiter(iter(it), dtype)))

# linear algebra
add("dot matmul inner vdot linalg.matmul", c(SQ, SPD))
add("outer linalg.outer", c(V, V[:3]))
add("kron", c(X[:2, :2], Y[:2, :3]))
add("tensordot linalg.tensordot", c(X, Y.T, axes=1))
add("einsum", c("ij,kj->ik", X, Y))
add("einsum_path", c("ij,jk,kl->il", X, Y.T, SQ[:3, :3], optimize="greedy"))
add("cross linalg.cross", c(X[:, :3], Y[:, :3]))
add("vecdot linalg.vecdot", c(X, Y))
add("matvec", c(SQ, V[:4]))
add("vecmat", c(V[:4], SQ))
add("linalg.multi_dot", c([X, Y.T, SQ[:3, :3]]))
add("linalg.det linalg.inv linalg.slogdet linalg.eigvals linalg.matrix_rank linalg.cond "
    "linalg.svdvals linalg.pinv", lambda n: c(SQ))
add("linalg.cholesky linalg.eigvalsh", c(SPD))
add("linalg.matrix_power", c(SQ, 3))
add("linalg.solve", c(SQ, RHS))
add("linalg.lstsq", c(X.T, V[:4], rcond=None, _dtype="kind"))  # rank: numpy's C int
add("linalg.norm linalg.vector_norm", c(X))
add("linalg.matrix_norm", c(SQ, ord="fro"))
add("linalg.tensorinv", c(SQ.reshape(4, 2, 2), ind=1))
add("linalg.tensorsolve", c(SQ.reshape(2, 2, 4), RHS[:, 0].reshape(2, 2)))
add("linalg.expm scipy.linalg.expm", c(SQ / 4))


def _svd_check(out, b, full=False):
    u, s, vh = (to_np(o) for o in out)
    np.testing.assert_allclose((u * s) @ vh, X, atol=1e-10)
    np.testing.assert_allclose(s, np.linalg.svd(X, compute_uv=False), atol=1e-10)


def _eigh_check(out, b):
    w, v = (to_np(o) for o in out)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(SPD), rtol=1e-10)
    np.testing.assert_allclose(SPD @ v, v * w, atol=1e-9)


def _eig_check(out, b):
    w, v = (to_np(o) for o in out)
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(np.linalg.eigvals(SQ)),
                               rtol=1e-9)
    np.testing.assert_allclose(SQ @ v, v * w, atol=1e-9)


def _qr_check(out, b):
    q, r = (to_np(o) for o in out)
    np.testing.assert_allclose(q @ r, X.T, atol=1e-10)
    np.testing.assert_allclose(np.triu(r), r, atol=1e-12)


def _lu_check(out, b):
    p, lo, up = (to_np(o) for o in out)
    np.testing.assert_allclose(p @ lo @ up, SQ, atol=1e-10)
    np.testing.assert_allclose(np.tril(lo), lo, atol=1e-12)


add("linalg.svd", checked(lambda out, b: _svd_check(out, b), X, full_matrices=False))
add("svd", checked(lambda out, b: _svd_check(out, b), X, full_matrices=False))
add("linalg.eigh", checked(_eigh_check, SPD))
add("linalg.eig eig", checked(_eig_check, SQ))
add("eigvals", checked(lambda out, b: np.testing.assert_allclose(
    np.sort(to_np(out).real), np.linalg.eigvalsh(SPD), rtol=1e-10), SPD))
add("linalg.qr", checked(_qr_check, X.T))
add("linalg.lu scipy.linalg.lu", checked(_lu_check, SQ))
add("scipy.linalg.lu_factor", c(SQ))
add("scipy.linalg.lu_solve", c(scipy.linalg.lu_factor(SQ), RHS))
add("scipy.linalg.cho_factor", checked(lambda out, b: np.testing.assert_allclose(
    np.triu(to_np(out[0])).T @ np.triu(to_np(out[0])), SPD, atol=1e-9), SPD))
add("scipy.linalg.cho_solve", c((np.linalg.cholesky(SPD), True), RHS))
add("scipy.linalg.solve_triangular", c(LOW, RHS, lower=True))
add("solve_triangular", c(LOW, RHS, lower=True, _ref=lambda a, b, lower: scipy.linalg.
                          solve_triangular(a, b, lower=lower)))
add("solve_triangular_dense", c(LOW, RHS, lower=True, _ref=lambda a, b, lower: scipy.linalg.
                                solve_triangular(a, b, lower=True)))
add("solve_triangular_sparse", c(LOW, RHS.T, True, _ref=lambda a, b, lo: scipy.linalg.
                                 solve_triangular(a, b.T, lower=True).T))
add("linalg.householder_product", checked(lambda out, b: np.testing.assert_allclose(
    to_np(out), np.linalg.qr(X.T)[0] * np.sign(np.diag(np.linalg.qr(X.T)[1]))
    * np.sign(np.diag(np.linalg.qr(X.T, mode="raw")[0].T[:3])), atol=1e-9),
    np.linalg.qr(X.T, mode="raw")[0].T, np.linalg.qr(X.T, mode="raw")[1]))
add("cholesky_inverse", c(np.linalg.cholesky(SPD), _ref=lambda f: np.linalg.inv(SPD)))
add("cdist", c(X, Y, _ref=lambda a, b: np.sqrt(((a[:, None] - b[None]) ** 2).sum(-1))))
add("matrix_rank_dense", c(SQ, _ref=np.linalg.matrix_rank, _dtype="kind"))
add("matrix_solve_least_squares", checked(lambda out, b: np.testing.assert_allclose(
    to_np(out[0]), np.linalg.solve(SQ, RHS), rtol=1e-9), SQ, RHS))
add("mul_matrix_batched_vector", c(SQ, RHS.T, _ref=lambda a, b: b @ a.T))
add("linear", c(SQ, RHS.T, _ref=lambda a, b: b @ a.T))
add("conjugate_gradient conjugate_gradient_adaptive bi_conjugate_gradient",
    lambda n: checked(lambda out, b: np.testing.assert_allclose(
        to_np(out.x), np.linalg.solve(SPD, RHS.T[0]), rtol=1e-6), SPD, RHS.T[0], rtol=1e-10))
add("linear_solve", checked(lambda out, b: np.testing.assert_allclose(
    to_np(out.x), np.linalg.solve(SPD, RHS.T[0]), rtol=1e-6), "CG", SPD, RHS.T[0], rtol=1e-10))


def _quadratic(x):
    d = do("subtract", x, np.array([1.0, -2.0]))
    return do("sum", d * d, axis=-1)


add("minimize", checked(lambda out, b: np.testing.assert_allclose(
    to_np(out.x), np.tile([1.0, -2.0], (2, 1)), atol=1e-3),
    "L-BFGS-B", _quadratic, np.zeros((2, 2)), 1e-8, 50))

# polynomials, signal
add("poly", c(V[:3]))
add("polyval", c(V[:3], X))
add("polyadd polysub polymul", c(V[:3], V[3:]))
add("polydiv", c(V, V[:3]))
add("polyder polyint", c(V))
add("polyfit", c(np.arange(6.0), V, 2))
add("roots", c(np.array([1.0, -3.0, 2.0])))
add("convolve correlate", c(V, V[:3]))
add("bartlett blackman hamming hanning", like(7))
add("kaiser", like(7, 5.0))
add("vander", c(V[:4], 3))

# fft
add("fft.fft fft.ifft fft.fftshift fft.ifftshift fft.ihfft fft.rfft", c(V))
add("fft.hfft fft.irfft", c(C[0]))
add("fft.fft2 fft.ifft2 fft.fftn fft.ifftn fft.rfft2 fft.rfftn", lambda n: c(X))
add("fft.irfft2 fft.irfftn", c(C))
add("fft.fftfreq fft.rfftfreq", like(8, 0.5))
add("fft_axes", c(C, (0,), _ref=lambda x, ax: np.fft.fftn(x, axes=ax)))
add("ifft_axes", c(C, (1,), _ref=lambda x, ax: np.fft.ifftn(x, axes=ax)))

# creation
add("zeros ones empty", lambda n: like((2, 3), _how="check" if n == "empty" else "value",
                                       _check=lambda out, b: _shape_kind(out, (2, 3), "f")))
add("full", like((2, 3), -1.5))
add("eye", like(3, 4, k=1))
add("identity", like(3))
add("arange", like(1, 7, 2))
add("linspace", like(-1.0, 2.0, 5))
add("logspace", like(0.0, 2.0, 4))
add("geomspace", like(1.0, 100.0, 4))
add("tri", like(3, 4, -1))
add("range", like(1, 7, 2, _ref=lambda *a: np.arange(*a), _dtype="kind"))
add("linspace_without_last", like(0.0, 1.0, 4, _ref=lambda a, b, n: np.linspace(a, b, n + 1)[
    :-1], _dtype="kind"))
add("zeros_like ones_like", c(X))
add("full_like", c(X, 2.5))
add("empty_like", checked(lambda out, b: _shape_kind(out, (3, 4), "f"), X))
add("indices", like((2, 3)))
add("diag_indices", like(3))
add("tril_indices triu_indices", like(3, 1, 4))
add("diag_indices_from tril_indices_from triu_indices_from", c(SQ))
add("mask_indices", like(3, np.triu))
add("complex", c(X, Y, _ref=lambda a, b: a + 1j * b))
add("polar", c(P, X, _ref=lambda r, t: r * np.exp(1j * t)))
add("view_as_real", c(C, _ref=lambda z: np.stack([z.real, z.imag], -1)))
add("view_as_complex", c(np.stack([X, Y], -1), _ref=lambda p: p[..., 0] + 1j * p[..., 1]))
add("view", c(X.astype(np.float32), "int32", _ref=lambda x, d: x.view(d)))


def _shape_kind(out, shape, kind):
    a = to_np(out)
    assert a.shape == shape, f"shape {a.shape}, expected {shape}"
    assert a.dtype.kind == kind, f"dtype {a.dtype}, expected kind {kind!r}"


# dtypes and metadata
add("astype", c(I, "float32"))
add("cast", c(I, "float32", _ref=lambda x, d: x.astype(d)))
add("saturate_cast", c(X * 300, "int8", _ref=lambda x, d: np.clip(x, -128, 127).astype(d)))
add("result_type", c(I, np.float32(1.0)))
add("can_cast", c("int32", "float64"))
add("promote_types", c("int32", "float32"))
add("min_scalar_type", c(300))
add("common_type", c(I, X.astype(np.float32)))
add("mintypecode", c(["f", "d"]))
add("isdtype", c("float32", "real floating", _ref=lambda d, k: np.isdtype(np.dtype(d), k),
                 _own=False))
add("issubdtype", c(np.dtype("float32"), np.floating))
# numpy's finfo and iinfo objects, for a dtype name on the library
add("finfo", checked(lambda out, b: _is(out.eps, np.finfo("float32").eps), "float32", _like=True))
add("iinfo", checked(lambda out, b: _is(out.max, np.iinfo("int16").max), "int16", _like=True))
add("iscomplexobj isrealobj isscalar iterable isfortran shape size ndim ndims staticshape "
    "sizeof dtype_of get_dtype_name is_tensor", lambda n: c(X))
# pydata sparse holds every array as COO
add("is_sparse", checked(lambda out, b: _is(bool(out), b == "sparse"), X))
add("get_sparse_format", checked(lambda out, b: _is(out, "coo" if b == "sparse" else "dense"), X))
add("shares_memory may_share_memory", c(X, Y))
add("require", c(X, None, "C"))
add("combine_types", c(np.dtype("float32"), np.dtype("int64"), _ref=lambda *d: np.dtype(
    "float32")))
add("auto_cast", c(X.astype(np.float32), I))
add("auto_cast1", c(I))
add("float_type complex_type", lambda n: c())
add("to_backend_dtype", checked(lambda out, b: _is_dtype_of(out, b, "float32"), "float32",
                                _like=True))
add("determine_size", c([X[:1], X], 0, _ref=lambda ts, a: 3))
add("to_numpy numpy", c(X))


def _is_dtype_of(out, backend, name):
    assert str(out).split(".")[-1].replace("'>", "").endswith(name), f"{out!r} is not {name}"


def _kind(backend):
    """The kind of device the backend's arrays are on here: cupy's are on a GPU."""
    return "GPU" if backend == "cupy" else "CPU"


def _is_device(out, backend):
    assert out is not None, "no device"
    assert _kind(backend) in str(out), f"not a {_kind(backend)} device: {out!r}"


def _devices(out, backend):
    assert isinstance(out, (list, tuple)), f"not a list of devices: {out!r}"
    assert len(out) >= 1, "no device listed"
    _is_device(out[0], backend)


# devices and library identity
add("get_device", checked(_is_device, X))
# onto the device the array is on (the host, or cupy's GPU)
add("to_device allocate_on_device", lambda n: c(
    X, _call=lambda a, k, b, _n=n: do(_n, a[0], do("get_device", a[0])), _ref=lambda x: x))
add("get_default_device", checked(_is_device, _like=True))
add("list_devices", checked(lambda out, b: _devices(out, b), _like=True))
add("get_device_by_ref", c(_call=lambda a, k, b: _by_ref(b), _how="check",
                            _check=_is_device))
add("set_default_device", c(_call=lambda a, k, b: do("set_default_device", _kind(b), like=b),
                            _how="check", _check=lambda out, b: _truthy(out)))
# bytes; a host's allocator may count some (tensorflow's does once it has run ops)
add("get_peak_memory", checked(lambda out, b: _byte_count(out), _like=True))
add("reset_peak_memory", checked(lambda out, b: _none(out), _like=True))
add("is_available", c(X, _ref=lambda x: True))
add("prefers_channels_last", checked(lambda out, b: _bool(out), _like=True))
add("requires_fixed_shapes_when_tracing", checked(lambda out, b: _bool(out), _like=True))
add("block_until_ready", c(X))
add("to_dlpack", checked(lambda out, b: _dlpack(out, b), X))
add("from_dlpack", like(X, _ref=lambda x: x))
add("from_external_array_dlpack", like(X, _ref=lambda x: x))
add("variable", like(X, _ref=lambda x: x))
add("module", checked(lambda out, b: _module(out, b), {"w": X},
                      lambda x: x * 2.0, _like=True))
add("is_module", like(X, _ref=lambda x: False))


def _byte_count(out):
    assert isinstance(out, int), f"{out!r} is not an int"
    assert out >= 0, f"{out!r} bytes"


def _truthy(out):
    assert out, f"{out!r}"


def _is(out, expected):
    assert out == expected, f"{out!r}, expected {expected!r}"


def _by_ref(backend):
    first = do("list_devices", like=backend)[0]
    out = do("get_device_by_ref", first.ref, like=backend)
    assert out == first, f"{out!r}, expected {first!r}"
    return out


def _none(out):
    assert out is None, f"{out!r}"


def _bool(out):
    assert isinstance(out, bool), f"not a bool: {out!r}"


def _dlpack(out, backend):
    assert type(out).__name__ == "PyCapsule", f"not a DLPack capsule: {out!r}"
    if backend == "numpy":  # numpy reads objects with __dlpack__, not bare capsules
        return
    back = do("from_dlpack", out, like=backend)
    np.testing.assert_array_equal(to_np(back), X)


def _module(out, backend):
    assert do("is_module", out, like=backend)


# pytrees
add("stop_gradient_tree", c({"a": X, "b": (Y,)}))
add("copy_leaves", c([X, (Y,)]))
add("stack_leaves", c([{"a": X}, {"a": Y}], _ref=lambda ts: {"a": np.stack([X, Y])}))
add("pad_stack", c([V[:2], V], pad_value=-1.0, _ref=lambda ts, pad_value: np.stack(
    [np.concatenate([V[:2], np.full(4, -1.0)]), V])))
add("disassemble", checked(lambda out, b: np.testing.assert_allclose(
    to_np(out[0](b, *out[1])), X), X))

# indexing and segments (the backend method list)
add("gather", c(X, IDX, 1, _ref=lambda v, i, a: np.take(v, i, axis=1)))
add("gather_1d", c(V, IDX, _ref=lambda v, i: v[i]))
add("gather_nd", c(X[..., None], np.array([[0, 1], [2, 3]]), _ref=lambda v, i: v[i[:, 0], i[:, 1]]))
add("batch_gather", c(IMG[..., 0], np.array([1, 0, 1]), _ref=lambda v, b: v[b]))
add("batched_gather_1d", c(X[:2], np.array([[3, 0, 3], [1, 1, 2]]),
                           _ref=lambda v, i: np.take_along_axis(v, i, 1)))
add("batched_gather_nd", checked(lambda out, b: _shape_kind(out, (2, 2, 3), "f"),
                                 IMG[:2, ..., :3], np.array([[[0, 1], [3, 4]]] * 2)))
add("gather_by_component_indices", c(X, np.array([0, 2]), np.array([3, 1]),
                                     _ref=lambda v, a, b: v[a, b]))
add("boolean_mask", c(X, np.array([True, False, True]), _ref=lambda x, m: x[m]))
add("multi_slice", c(X, (slice(1, None), slice(None, None, 2)), _ref=lambda v, s: v[s]))
add("nonzero_static", c(NZ.ravel(), length=4, _ref=lambda x, length: np.array(
    [[1], [3], [5], [0]])[:, 0:1] * 0 + np.array([[1], [3], [5], [-1]])))
add("scatter", c(X, np.array([[0, 1], [2, 3]]), np.array([10.0, -20.0]), "update",
                 _ref=lambda x, i, v, m: _set(x, (i[:, 0], i[:, 1]), v)))
add("scatter_nd", c(X[..., None], np.array([[0, 1], [2, 3]]), np.array([[10.0], [-20.0]]), "add",
                    _ref=lambda x, i, v, m: _set(x, (i[:, 0], i[:, 1]), x[i[:, 0], i[:, 1]] + v)))
add("scatter_1d_scalar", c(V, np.array([1, 4]), np.array([2.5, -1.0]), "update",
                           _ref=lambda x, i, v, m: _set(x, i, v)))
add("scatter_nd_scalar", c(X, np.array([[0, 1], [2, 3]]), np.array([2.5, -1.0]), mode="add",
                           _ref=lambda x, i, v, mode: _set(x, (i[:, 0], i[:, 1]),
                                                           x[i[:, 0], i[:, 1]] + v)))
add("scatter_update", c(X, [[0, 1], [2, 3]], np.array([10.0, -20.0]),
                        _ref=lambda x, i, v: _set(x, ([0, 2], [1, 3]), v)))
add("slice", c(X, (1, 0), (2, 3), _ref=lambda x, s, n: x[1:3, 0:3]))
add("slice_update", c(X, (1, 2), np.full((2, 2), 7.5),
                      _ref=lambda x, s, u: _set(x, (slice(1, 3), slice(2, 4)), u)))
add("segment_sum segment_max segment_min segment_prod", lambda n: c(
    X.T, SEG, 3, _ref=lambda d, s, k, _op={"segment_sum": np.add, "segment_max": np.maximum,
                                           "segment_min": np.minimum,
                                           "segment_prod": np.multiply}[n]: _segment(
        _op, d, s, k)))
add("indexed_segment_sum", c(X, np.array([[0, 2], [1, 3], [0, 1]]), 1,
                             _ref=lambda x, i, a: np.stack([np.add.reduceat(r, j) for r, j in
                                                            zip(x, i, strict=True)])))
add("bincount_fixed", c(np.abs(I[0]), None, 6, _ref=lambda x, w, n: np.bincount(x, minlength=n)))
add("batched_bincount", c(np.abs(I), None, 6, _ref=lambda x, w, n: np.stack(
    [np.bincount(r, minlength=n) for r in x])))
add("histogram1d", c(V[None], P[:, :2].reshape(1, 6), np.array([[-3.0, -0.5, 0.5, 3.0]]),
                     _ref=lambda v, w, e: np.histogram(v[0], e[0], weights=w[0])[0][None]))
add("searchsorted_batched", c(np.sort(X, axis=1), Y, _ref=lambda s, q: np.stack(
    [np.searchsorted(a, b) for a, b in zip(s, q, strict=True)]), _dtype="kind"))
add("ravel_multi_index_stacked", c(np.array([[0, 3], [2, 1]]), (3, 4),
                                   _ref=lambda m, s: np.ravel_multi_index(tuple(m.T), s)))
add("unravel_index_stacked", c(np.array([5, 11, 0]), (3, 4),
                               _ref=lambda f, s: np.stack(np.unravel_index(f, s), -1)))
add("pad_boundary", c(X, [(1, 1), (2, 0)], "reflect",
                      _ref=lambda x, w, m: np.pad(x, w, mode="reflect")))
add("pad_to", c(X, 1, 6, -1.0, _ref=lambda x, a, n, v: np.pad(x, ((0, 0), (0, 2)),
                                                                constant_values=v)))
add("repeat_n", c(V, np.array([1, 0, 2, 1, 3, 1]), 0, _ref=lambda x, r, a: np.repeat(x, r, a)))
add("tile_to", c(X[:1], 0, 3, _ref=lambda x, a, n: np.tile(x, (3, 1))))
add("flip_axes", c(IMG, (0, 2), _ref=lambda v, ax: np.flip(v, ax)))
add("get_diagonal", c(SQ[None, ..., None], 1,
                      _ref=lambda m, k: np.moveaxis(np.diagonal(m, k, 1, 2), -1, 1)))
add("top_k", c(X, 2, _ref=lambda x, k: (-np.sort(-x, -1)[:, :k], np.argsort(-x, -1)[:, :k]),
                _dtype="kind"))  # indices: int32 where keras gives int32
add("in_top_k", c(LABELS, X, 2, _ref=lambda t, p, k: np.array(
    [t[i] in np.argsort(-p[i])[:k] for i in range(3)])))
add("one_hot", c(LABELS, 4, dtype="float64", _ref=lambda t, n, dtype: np.eye(n)[t]))
add("multi_hot", c(np.array([[0, 2], [1, 1]]), 4, dtype="float64",
                   _ref=lambda t, n, dtype: np.array([[1.0, 0, 1, 0], [0, 1, 0, 0]])))
add("normalize", c(X, _ref=lambda x: x / np.linalg.norm(x, axis=-1, keepdims=True)))
add("psnr", c(X, Y, 4.0, _ref=lambda a, b, m: 20 * np.log10(m) - 10 * np.log10(
    np.mean((a - b) ** 2))))
add("extract_sequences", c(V, 3, 2, _ref=lambda x, n, s: np.stack([x[0:3], x[2:5]])))
add("threshold", c(X, 0.25, -7.5, _ref=lambda x, t, v: np.where(x > t, x, v)))
add("glu", c(X, _ref=lambda x: x[:, :2] * sc.expit(x[:, 2:])))
add("sparsemax", checked(lambda out, b: (np.testing.assert_allclose(to_np(out).sum(-1), 1.0),
                                         _shape_kind(out, (3, 4), "f")), X))
add("binary_crossentropy", c(PU > 0.5, PU, _ref=lambda t, p: -(t * np.log(p) + (1 - t) * np.log(
    1 - p)), _dtype="kind", _rtol=1e-6))
add("categorical_crossentropy", c(ONEHOT, PROBS, _ref=lambda t, p: -(t * np.log(p)).sum(-1),
                                  _rtol=1e-6))
add("sparse_categorical_crossentropy", c(LABELS, PROBS, _ref=lambda t, p: -np.log(
    p[np.arange(3), t]), _dtype="kind", _rtol=1e-6))
add("batch_normalization", c(X, X.mean(0), X.var(0), 1,
                             _ref=lambda x, m, v, a: (x - m) / np.sqrt(v + 1e-3), _rtol=1e-6))
add("layer_normalization", c(X, _ref=lambda x: (x - x.mean(-1, keepdims=True)) / np.sqrt(
    x.var(-1, keepdims=True) + 1e-7), _rtol=1e-6))
add("rms_normalization", c(X, _ref=lambda x: x / np.sqrt((x * x).mean(-1, keepdims=True)
                                                         + 1e-7), _rtol=1e-6))


def _pool_ref(how):
    def ref(x, k):
        b, h, w, ch = x.shape
        r = x[:, : h // k * k, : w // k * k].reshape(b, h // k, k, w // k, k, ch)
        return r.max((2, 4)) if how == "max" else r.mean((2, 4))
    return ref


add("max_pool", c(IMG, 2, _ref=_pool_ref("max")))
add("average_pool", c(IMG, 2, _ref=_pool_ref("mean")))
add("adaptive_max_pool", c(IMG, (3, 3), _ref=lambda x, s: _pool_ref("max")(x, 2)))
add("adaptive_average_pool", c(IMG, (3, 3), _ref=lambda x, s: _pool_ref("mean")(x, 2)))
add("depth_to_space", c(IMG[..., :2].repeat(2, -1), 2, _ref=lambda x, s: _d2s(x, s)))
add("space_to_depth", c(IMG[:, :4, :4], 2, _ref=lambda x, s: _s2d(x, s)))


def _d2s(x, s):
    b, h, w, ch = x.shape
    return x.reshape(b, h, w, s, s, ch // s // s).transpose(0, 1, 3, 2, 4, 5).reshape(
        b, h * s, w * s, ch // s // s)


def _s2d(x, s):
    b, h, w, ch = x.shape
    return x.reshape(b, h // s, s, w // s, s, ch).transpose(0, 1, 3, 2, 4, 5).reshape(
        b, h // s, w // s, s * s * ch)


def _conv1d_ref(x, k):  # valid, channels last; k (width, in, out)
    n = x.shape[1] - k.shape[0] + 1
    return np.stack([np.einsum("bwc,wco->bo", x[:, i:i + k.shape[0]], k) for i in range(n)], 1)


KERN = rng.standard_normal((3, 3, 2))
add("conv", c(rng.standard_normal((1, 1, 8)), rng.standard_normal((1, 1, 1, 3))))
add("conv_transpose", checked(lambda out, b: _shape_kind(out, (2, 10, 3), "f"), SEQ,
                              rng.standard_normal((3, 3, 3))))
add("depthwise_conv", c(SEQ, rng.standard_normal((3, 3, 1)),
                        _ref=lambda x, k: _conv1d_ref(x, k[..., 0][:, :, None] * np.eye(3)[None]),
                        _rtol=1e-9))
add("separable_conv", checked(lambda out, b: _shape_kind(out, (2, 6, 2), "f"), SEQ,
                              rng.standard_normal((3, 3, 1)), rng.standard_normal((1, 3, 2))))
add("dot_product_attention", checked(lambda out, b: _shape_kind(out, (1, 3, 2, 4), "f"),
                                     *(rng.standard_normal((1, 3, 2, 4)) for _ in range(3))))
add("unfold", checked(lambda out, b: _shape_kind(out, (1, 3 * 4, 25), "f"),
                      rng.standard_normal((1, 3, 6, 6)), 2))
add("fold", checked(lambda out, b: _shape_kind(out, (1, 3, 6, 6), "f"),
                    rng.standard_normal((1, 12, 25)), (6, 6), 2))
add("grid_sample", checked(lambda out, b: _shape_kind(out, (1, 2, 2, 1), "f"),
                           rng.standard_normal((1, 4, 5, 1)), rng.uniform(0, 3, (1, 2, 2, 2)),
                           "zeros"))

# sparse formats
COO_IDX = np.array([[0, 1], [2, 0], [1, 1]])  # (nnz, 2)
COO_VAL = np.array([1.5, -2.0, 3.0])
DENSE = np.zeros((3, 2))
DENSE[0, 1], DENSE[2, 0], DENSE[1, 1] = COO_VAL
CSR = np.array([1, 1, 0]), np.array([0, 1, 2, 3]), np.array([1.5, 3.0, -2.0])
add("sparse_coo_tensor", c(COO_IDX, COO_VAL, (3, 2), _how="check",
                           _check=lambda out, b: _dense_is(out, DENSE)))
add("sparse_coo_tensor_batched", checked(lambda out, b: _dense_is(out, DENSE),
                                         COO_IDX[None], COO_VAL[None, :, None], (3, 2)))
add("csr_matrix", checked(lambda out, b: _dense_is(out, DENSE), *CSR, (3, 2)))
add("csc_matrix", checked(lambda out, b: _dense_is(out, DENSE), np.array([0, 1, 3]),
                          np.array([2, 0, 1]), np.array([-2.0, 1.5, 3.0]), (3, 2)))
add("csr_matrix_batched csc_matrix_batched", lambda n: checked(
    lambda out, b: _dense_is(out, DENSE), *(a[None] for a in (CSR if n.startswith("csr") else (
        np.array([0, 1, 3]), np.array([2, 0, 1]), np.array([-2.0, 1.5, 3.0])))), (3, 2)))
add("coo_to_dense", c(COO_IDX[None], COO_VAL[None, :, None], (3, 2),
                      _ref=lambda i, v, s: DENSE[None, ..., None]))
add("csr_to_dense", c(CSR[0][None], CSR[1][None], CSR[2][None, :, None], (3, 2),
                      _ref=lambda *a: DENSE[None, ..., None]))
add("csr_to_coo", c(CSR[0][None], CSR[1][None],
                    _ref=lambda cols, ptrs: np.array([[[0, 1], [1, 1], [2, 0]]])))
add("mul_coo_dense", c(COO_IDX[None], COO_VAL[None, :, None], (3, 2), X[None, :2, None],
                       _ref=lambda i, v, s, d: (DENSE @ d[0, :, 0])[None, :, None]))
add("mul_csr_dense", c(CSR[0][None], CSR[1][None], CSR[2][None, :, None], (3, 2),
                       X[None, :2, None], _ref=lambda *a: (DENSE @ a[-1][0, :, 0])[None, :, None]))


def _dense_is(out, dense):
    """``out`` (a sparse matrix, or a batch of them as one tensor or a tuple) holds ``dense``."""
    batch = isinstance(out, (list, tuple))
    got = np.stack([_densify(o) for o in out]) if batch else _densify(out)
    np.testing.assert_allclose(np.squeeze(got), dense)


def _densify(x):
    mod = type(x).__module__.split(".")[0]
    if mod == "torch" and str(x.layout) != "torch.strided":
        return x.to_dense().numpy()
    if mod == "tensorflow" and hasattr(x, "indices") and hasattr(x, "dense_shape"):
        import tensorflow as tf

        return tf.sparse.to_dense(x).numpy()
    if mod == "sparse":
        return x.todense()
    if mod == "jax" or "jax" in type(x).__module__:
        return np.asarray(x.todense()) if hasattr(x, "todense") else np.asarray(x)
    if hasattr(x, "toarray"):
        return x.toarray()
    return to_np(x)


def _set(x, index, value):
    y = x.copy()
    y[index] = value
    return y


def _segment(op, data, ids, n):
    out = np.full((n, *data.shape[1:]), {np.add: 0.0, np.multiply: 1.0, np.maximum: -np.inf,
                                          np.minimum: np.inf}[op])
    op.at(out, ids, data)
    if op in (np.maximum, np.minimum):
        out[~np.isin(np.arange(n), ids)] = 0.0
    return out


# random (module-level generator, seeded by random.seed)
RANDOM_ARGS = {
    "normal": (), "standard_normal": (), "uniform": (), "integers": (0, 5), "randint": (0, 5),
    "random": (), "exponential": (), "gamma": (2.0,), "beta": (1.0, 2.0), "poisson": (),
    "binomial": (4, 0.5), "choice": (5,), "chisquare": (3.0,), "dirichlet": ([1.0, 2.0],),
    "f": (3.0, 4.0), "geometric": (0.3,), "gumbel": (), "hypergeometric": (5, 6, 4),
    "laplace": (), "logistic": (), "lognormal": (), "logseries": (0.5,),
    "multinomial": (5, [0.2, 0.8]), "multivariate_hypergeometric": ([3, 4], 5),
    "multivariate_normal": ([0.0, 1.0], [[1.0, 0.2], [0.2, 1.0]]),
    "negative_binomial": (2.0, 0.5), "noncentral_chisquare": (3.0, 1.0),
    "noncentral_f": (3.0, 4.0, 1.0), "pareto": (3.0,), "power": (2.0,), "rayleigh": (),
    "standard_cauchy": (), "standard_exponential": (), "standard_gamma": (2.0,),
    "standard_t": (4.0,), "triangular": (0.0, 1.0, 2.0), "vonmises": (0.0, 1.0),
    "wald": (1.0, 2.0), "weibull": (1.5,), "zipf": (2.0,),
}
for _n, _a in RANDOM_ARGS.items():
    add(f"random.{_n}", rnd(*_a, size=(2, 3)))
add("random.rand random.randn", rnd(2, 3))
add("random.permutation", rnd(6))
add("random.permuted", c(X, axis=1, _how="random", _check=lambda out, b: np.testing.
                         assert_allclose(np.sort(to_np(out), 1), np.sort(X, 1))))
add("random.bytes", checked(lambda out, b: _bytes(out), 5, _like=True))
add("random.seed seed", lambda n: checked(lambda out, b, _n=n: _seed_repeats(b, _n), 3,
                                          _like=True))
add("random.default_rng", checked(lambda out, b: _rng_repeats(out, b), 4, _like=True))
add("random_normal random_uniform", lambda n: rnd((2, 3), _own=False))
add("random_permutations", rnd(2, 5, _own=False))
add("random_subsets", rnd(8, 3, 2, False, _own=False))


def _bytes(out):
    assert isinstance(out, bytes), f"{out!r}"
    assert len(out) == 5, f"{out!r}"


def _seed_repeats(backend, name):
    do(name, 3, like=backend)
    a = to_np(do("random.normal", size=4, like=backend))
    do(name, 3, like=backend)
    np.testing.assert_array_equal(to_np(do("random.normal", size=4, like=backend)), a)


def _rng_repeats(gen, backend):
    a = to_np(gen.normal(size=4))
    b = to_np(do("random.default_rng", 4, like=backend).normal(size=4))
    np.testing.assert_array_equal(a, b)


# transforms: functions written with do, results by hand in numpy
def f_scalar(x):
    return do("sum", do("sin", x) * x)


def df_scalar(x):
    return np.cos(x) * x + np.sin(x)


add("cond", c(True, lambda u, v: u * v + 1.0, lambda u, v: u - v, X, Y,
              _ref=lambda p, t, f, u, v: u * v + 1.0, _own=False))
add("switch", c(1, [lambda u: u + 1.0, lambda u: u * 3.0], X, _ref=lambda i, fs, u: u * 3.0))
add("fori_loop", c(2, 6, lambda i, v: v * 0.5 + i, X, _ref=lambda a, b, f, v: _fori(v)))
add("while_loop", c(lambda cnd, v: (v < 10, v + 1), (np.array([True, True]), np.array([3, 3])),
                    _ref=lambda f, s: (np.array([False, False]), np.array([11, 11]))))
add("scan", c(lambda carry, x: (carry + x, carry * x), np.zeros(4), X,
              _ref=lambda f, c0, xs: _scan(xs)))
add("map", c(lambda r: do("sum", r * r), X, _ref=lambda f, x: (x * x).sum(1)))
add("associative_scan", c(lambda a, b: a + b, X, axis=1, _ref=lambda f, x, axis: np.cumsum(x, 1)))
add("vectorized_call", c(lambda u, v: do("sum", u * v), X, Y, _ref=lambda f, a, b: (a * b).sum(1)))
add("call", c(lambda a, b: a + b, X, Y, _ref=lambda f, a, b: a + b))
add("numpy_call", c(np.sort, (6,), "float64", V, _ref=lambda f, s, d, v: np.sort(v)))
add("jit_compile", c(lambda a: a * 2.0 - 1.0, _call=lambda a, k, b: do(
    "jit_compile", a[0], like=b)(to_backend(X, b)), _ref=lambda f: X * 2.0 - 1.0))
add("grad", c(X, _call=lambda a, k, b: do("grad", f_scalar, like=b)(a[0]), _ref=df_scalar))
add("value_and_grad", c(X, _call=lambda a, k, b: do("value_and_grad", f_scalar, like=b)(a[0]),
                        _ref=lambda x: (np.sum(np.sin(x) * x), df_scalar(x))))
add("vjp", c(X, Y, _call=lambda a, k, b: _vjp(a, b),
             _ref=lambda x, y: (np.sin(x) * y, np.cos(x) * y * y * 0.5)))
add("jvp", c(X, Y, _call=lambda a, k, b: do("jvp", lambda u: do("sin", u), (a[0],), (a[1],)),
             _ref=lambda x, y: (np.sin(x), np.cos(x) * y)))
add("checkpoint", c(X, _call=lambda a, k, b: do("checkpoint", f_scalar, like=b)(a[0]),
                    _ref=lambda x: np.sum(np.sin(x) * x)))
add("custom_gradient", c(X, _call=lambda a, k, b: _custom(a[0], b), _ref=lambda x: x * 3.0))
add("jacobian", c(V, _call=lambda a, k, b: do("jacobian", lambda u: do("sin", u) * 2.0, wrt=0,
                                               get_output=False, like=b)(a[0]),
                  _ref=lambda v: np.diag(2.0 * np.cos(v))))
add("jit_compile_grad", c(V, _call=lambda a, k, b: do(
    "jit_compile_grad", lambda u: do("sum", do("sin", u)), wrt=0, get_output=False,
    like=b)(a[0]), _ref=lambda v: np.cos(v)))
add("hessian jit_compile_hessian", lambda n: c(V[:3], _call=lambda a, k, b, _n=n: do(
    _n, lambda u: do("sum", u * u * u), wrt=0, get_output=False, get_gradient=False,
    like=b)(a[0]), _ref=lambda v: (6.0 * v,)))  # the first axis is a batch


def _fori(v):
    for i in range(2, 6):
        v = v * 0.5 + i
    return v


def _scan(xs):
    carry, ys = np.zeros(4), []
    for x in xs:
        ys.append(carry * x)
        carry = carry + x
    return carry, np.stack(ys)


def _vjp(a, backend):
    out, pull = do("vjp", lambda u: do("sin", u) * a[1], a[0])
    return out, pull(a[1] * 0.5)[0]


def _custom(x, backend):
    f = do("custom_gradient", lambda u: u * 3.0, lambda u, out, g: g * 3.0, like=backend)
    return f(x)


# ---------------------------------------------------------------- the walk

# names with no smoke case, each with its reason (keep this short)
EXEMPT: dict[str, str] = {}

# names whose float results from autograd's boxes are plain numpy arrays, each with its
# reason; any other name that computes a float result from a box must return a box (a
# plain one would drop the derivative silently)
_PIECEWISE = "piecewise constant: no derivative, a plain value as autograd's own floor"
PLAIN_ON_BOXES: dict[str, str] = {
    **dict.fromkeys("around ceil fix floor floor_divide floordiv rint round sign trunc "
                    "spacing".split(), _PIECEWISE),
    "divmod": "the quotient is piecewise constant (the remainder is a box)",
    "modf": "the integral part is piecewise constant (the fraction is a box)",
    **dict.fromkeys("empty_like full_like ones_like zeros_like".split(),
                    "made from the shape and dtype only"),
    **dict.fromkeys("stop_gradient stop_gradient_tree to_numpy numpy numpy_call".split(),
                    "leaves the trace by definition"),
    "auto_cast": "the integer argument is a constant, cast as one",
    **dict.fromkeys("linalg.lu scipy.linalg.lu".split(),
                    "the permutation matrix is a constant (L and U are boxes)"),
    **dict.fromkeys("histogram histogram2d histogramdd histogram_bin_edges".split(),
                    "bin edges are computed from the data on the host, on every library"),
    "solve_triangular_sparse": "solved on the host by scipy.sparse, on every library",
    "minimize": "an optimizer's result: no derivative flows through its iterations",
}

# (name, backend) pairs where the backend disagrees with numpy: strict xfails, each a
# bug to fix in its table (an entry that starts working must go)
XFAIL: dict[tuple[str, str], str] = {
    ("solve_triangular", "sparse"): (
        "pydata sparse takes every matrix as sparse and applies the sparse-matrix convention "
        "(right-hand sides as rows, b of shape (k, n)), where the dense convention of every "
        "other backend (and numpy's scipy.linalg.solve_triangular) takes b as (n, k)"
    ),
}


def _load_tables() -> list[str]:
    backends = usable_backends(vocabulary=True)  # autograd's boxes too
    for b in [*backends, "scipy"]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                do("asarray", np.ones(2), like=b)
            except Exception:  # scipy's arrays are sparse matrices; load its table anyway
                importlib.import_module(f"dispatch.translations.{b}")
    return backends


BACKENDS = _load_tables()
# the test modules' assertions (testing.*) compare arrays and return nothing: they are
# served where their library is the array's (numpy's, torch's), for code that checks
# its results with do (autoray's clients do)
NAMES = sorted(n for n in known_names() if not n.startswith("testing."))


def test_every_name_has_a_case():
    missing = sorted(set(NAMES) - set(CASES) - set(EXEMPT))
    assert not missing, f"{len(missing)} names without a smoke case (add one to CASES): {missing}"
    stale = sorted(set(EXEMPT) & set(CASES))
    assert not stale, f"exempt names that have a case: {stale}"
    assert len(EXEMPT) < 15


def test_exemptions_have_reasons():
    for name, why in [*EXEMPT.items(), *XFAIL.items(), *PLAIN_ON_BOXES.items()]:
        assert isinstance(why, str), name
        assert len(why) > 20, name
    stale = sorted(set(PLAIN_ON_BOXES) - set(CASES))
    assert not stale, f"PLAIN_ON_BOXES names with no smoke case: {stale}"


def _run(name: str, s: Smoke, args: tuple, kwargs: dict, backend: str) -> Any:
    if s.call is not None:
        return s.call(args, kwargs, backend)
    if s.like:
        return do(name, *args, like=backend, **kwargs)
    return do(name, *args, **kwargs)


def _expected(name: str, s: Smoke) -> Any:
    args, kwargs = _copy(s.args), _copy(s.kwargs)
    if s.ref is not None:
        return s.ref(*args, **kwargs)
    if s.like:
        return do(name, *args, like="numpy", **kwargs)
    return do(name, *args, **kwargs)


def _copy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(_copy(v) for v in x)
    return x.copy() if isinstance(x, np.ndarray) else x


def _plain(x: Any) -> Any:
    """A backend result with its arrays brought back to numpy."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if hasattr(x, "_fields"):
        return tuple(_plain(v) for v in x)
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(v) for v in x)
    if isinstance(x, np.generic):
        return np.asarray(x)
    if is_array(x):
        return to_np(x)
    return x


def compare(actual: Any, expected: Any, s: Smoke, name: str, backend: str) -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{actual!r}"
        assert set(actual) == set(expected), f"{actual!r}"
        for k in expected:
            compare(actual[k], expected[k], s, name, backend)
        return
    if isinstance(expected, (list, tuple)) and not isinstance(expected, str):
        assert isinstance(actual, (list, tuple)), f"expected a sequence, got {type(actual)}"
        assert len(actual) == len(expected), f"{len(actual)} results, expected {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            try:
                compare(a, e, s, name, backend)
            except AssertionError as err:
                raise AssertionError(f"result [{i}]: {err}") from None
        return
    if isinstance(expected, (np.ndarray, np.generic)):
        assert_close(np.asarray(actual), expected, dtype=s.dtype, rtol=s.rtol, atol=s.atol,
                     name=name, backend=backend)
        return
    if isinstance(expected, np.dtype) or (isinstance(expected, type) and
                                          issubclass(expected, np.generic)):
        assert _dtype_name(actual) == _dtype_name(expected), f"{actual!r}, expected {expected!r}"
        return
    if isinstance(expected, bool):
        assert actual is expected or (np.ndim(actual) == 0 and bool(actual) is expected and
                                      np.asarray(actual).dtype == bool), f"{actual!r}"
        return
    if isinstance(expected, (int, float, complex)):
        assert np.ndim(actual) == 0, f"{actual!r} is not a scalar"
        np.testing.assert_allclose(complex(np.asarray(actual)), expected, rtol=1e-12)
        return
    assert actual == expected, f"{actual!r}, expected {expected!r}"


def _check_value(name: str, s: Smoke, out: Any, args: tuple, backend: str) -> None:
    raw = _expected(name, s)
    if s.ref is None:  # numpy's own result: the backend's has its kind of container
        assert_same_container(out, raw)
    expected = _plain(raw)
    actual = _plain(out)
    dtype = s.dtype
    # floats made from integers, or by creation with no dtype asked, have the width
    # of the library's default float (docs/vocabulary.md, dtypes)
    if dtype == "exact" and "dtype" not in s.kwargs and name != "float_power" and (
            floats_from_ints(expected, s.args, s.kwargs)
            or (s.like and not array_leaves(s.args) and _has_float64(expected))):
        assert_default_float_width(actual, backend)
        s = Smoke(**{**s.__dict__, "dtype": "kind"})
    compare(actual, expected, s, name, backend)


def _check_container(name: str, s: Smoke, out: Any) -> None:
    """A checked call (decompositions) returns numpy's kind of container too, where
    numpy has the function (its values are the check's business)."""
    if s.call is not None or s.like:
        return
    try:
        own = reference_function(name)
    except (AttributeError, ImportError):
        return
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        assert_same_container(out, own(*_copy(s.args), **_copy(s.kwargs)))


# names with several results in numpy's API: the walk's case of each must give numpy
# several (so that their container is compared on every backend)
MULTI_OUTPUT = (
    "gradient meshgrid broadcast_arrays split array_split hsplit vsplit dsplit unstack "
    "linalg.qr linalg.svd linalg.eigh linalg.eig linalg.slogdet linalg.lstsq unique_all "
    "unique_counts unique_inverse histogram histogram2d histogramdd frexp modf divmod "
    "nonzero ix_ unravel_index"
).split()


def test_multi_output_names_have_multi_output_cases():
    for name in MULTI_OUTPUT:
        s = CASES[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = reference_function(name)(*_copy(s.args), **_copy(s.kwargs))
        assert isinstance(out, (list, tuple)), f"{name}: the case gives numpy one result"


def _has_float64(x: Any) -> bool:
    if isinstance(x, dict):
        return any(_has_float64(v) for v in x.values())
    if isinstance(x, (list, tuple)):
        return any(_has_float64(v) for v in x)
    return isinstance(x, (np.ndarray, np.generic)) and x.dtype == np.float64


def _dtype_name(d: Any) -> str:
    """The numpy name of a dtype given as numpy's, torch's, tensorflow's or a type."""
    d = getattr(d, "as_numpy_dtype", d)  # tensorflow's DType
    try:
        return np.dtype(d).name
    except TypeError:
        return str(d).rsplit(".", 1)[-1]


def _check_random(name: str, s: Smoke, out: Any, backend: str) -> None:
    expected = _plain(_expected(name, s))
    if s.check is not None:
        s.check(out, backend)
    actual = _plain(out)
    exp_leaves = expected if isinstance(expected, (list, tuple)) else [expected]
    act_leaves = actual if isinstance(actual, (list, tuple)) else [actual]
    assert len(act_leaves) == len(exp_leaves)
    for a, e in zip(act_leaves, exp_leaves, strict=True):
        a, e = np.asarray(a), np.asarray(e)
        assert a.shape == e.shape, f"shape {a.shape}, expected {e.shape}"
        kinds = {"u": "i"}
        assert kinds.get(a.dtype.kind, a.dtype.kind) == kinds.get(e.dtype.kind, e.dtype.kind), (
            f"dtype {a.dtype}, expected kind of {e.dtype}")
    if s.like:  # a seeded draw repeats
        draws = []
        for _ in range(2):
            do("random.seed", 11, like=backend)
            draws.append(_plain(_run(name, s, s.args, s.kwargs, backend)))
        compare(draws[1], draws[0], Smoke((), {}), name, backend)


def _params() -> list:
    out = []
    for name in NAMES:
        s = CASES.get(name)
        if s is None:
            continue
        for backend in BACKENDS:
            marks = s.marks
            if (name, backend) in XFAIL:
                marks = (*marks, pytest.mark.xfail(strict=True, reason=XFAIL[name, backend]))
            out.append(pytest.param(name, backend, id=f"{name}-{backend}", marks=marks))
    return out


@pytest.mark.parametrize(("name", "backend"), _params())
def test_smoke(name: str, backend: str) -> None:
    s = CASES[name]
    args, kwargs = s.args, s.kwargs
    leaves = array_leaves(args) + array_leaves(kwargs)
    if backend in BOXED_BACKENDS and not s.like and leaves and not any(
            boxed(a, backend) for a in leaves):
        # the call would be numpy's: integer and bool arrays are constants to autograd
        pytest.skip(f"{name} on {backend}: no float or complex argument to box (conftest.boxed)")
    if not s.like:  # like= calls take numpy arrays as the source to import
        with missing_dtype_skips(backend):
            args, kwargs = to_backend(args, backend), to_backend(kwargs, backend)
    reason = known_gap(backend, name)
    if reason is not None:
        with pytest.raises(UnsupportedError):
            _run(name, s, args, kwargs, backend)
        return
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            out = _run(name, s, args, kwargs, backend)
        except UnknownFunctionError as err:
            if name not in known_names(backend):
                pytest.skip(f"{name} is not in {backend}'s table nor composed: {err}")
            raise
        except TypeError as err:
            # a dtype the library lacks (mlx: complex128), refused with the reason its
            # table states: the case's numpy inputs or result need that dtype
            if reason := missing_dtype(backend, err):
                pytest.skip(f"{name} on {backend}: {reason}")
            raise
        if s.how == "random":
            _check_random(name, s, out, backend)
        elif s.how == "check":
            _check_container(name, s, out)
            s.check(out, backend)
        else:
            _check_value(name, s, out, args, backend)
        if backend in BOXED_BACKENDS and not s.like and name not in PLAIN_ON_BOXES:
            _check_boxes_kept(name, out)


def _check_boxes_kept(name: str, out: Any) -> None:
    """A float or complex result computed from boxes is a box (its derivative flows)."""
    from autograd.tracer import Box

    for i, r in enumerate(result_leaves(out)):
        plain = isinstance(r, (np.ndarray, np.generic)) and not isinstance(r, Box)
        assert not (plain and np.asarray(r).dtype.kind in "fc"), (
            f"{name}: result {i} is a plain {type(r).__name__} computed from boxes "
            "(the derivative is dropped); PLAIN_ON_BOXES lists the names where that is "
            "right, with the reason")


def _own_params() -> list:
    out = []
    for name in NAMES:
        s = CASES.get(name)
        if s is None or not s.own or s.how != "value" or s.call is not None:
            continue
        try:
            reference_function(name)
        except (AttributeError, ImportError):
            continue
        out.append(pytest.param(name, id=name))
    return out


@pytest.mark.parametrize("name", _own_params())
def test_numpy_reference_is_numpys(name: str) -> None:
    """The reference (numpy's ``do``) is numpy's (scipy's) own function of the name."""
    s = CASES[name]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if s.like:
            got = do(name, *_copy(s.args), like="numpy", **_copy(s.kwargs))
        else:
            got = do(name, *_copy(s.args), **_copy(s.kwargs))
        own = reference_function(name)(*_copy(s.args), **_copy(s.kwargs))
    assert_same_container(got, own)
    compare(_plain(got), _plain(own), s, name, "numpy")

