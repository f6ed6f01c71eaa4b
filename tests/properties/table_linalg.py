"""Products, linear algebra on well-conditioned drawn matrices, FFT, scipy.linalg.

Decompositions whose factors are unique only up to signs or phases (qr, svd,
eigh, eig) are checked by reconstruction, plus the parts that are unique
(singular values, eigenvalues of a Hermitian matrix, R's shape)."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg
from conftest import assert_close, to_np, tolerance
from hypothesis import strategies as st

from dispatch import do

from .spec import Call, Prop
from .strategies import COMPLEX, FLOAT, INEXACT, INT, NUMERIC, Drawer

PROPS: dict[str, Prop] = {}
EXACT = {"exact": True, "lo": -3, "hi": 3}


def _batch(d: Drawer, max_dims: int = 1) -> tuple[int, ...]:
    return d.shape(max_dims=max_dims, max_side=3)


# -------------------------------------------------------------- products
def _matmul(d: Drawer) -> Call:
    dt = d.dtype(NUMERIC)
    n, k, m = d.integer(1, 4), d.integer(0, 4), d.integer(1, 4)
    form = d.choice(["mm", "mv", "vm", "vv"])
    b1, b2 = d.broadcast_shapes(2, min_dims=0) if form == "mm" and d.boolean() else ((), ())
    a_shape = (*b1, n, k) if form[0] == "m" else (k,)
    b_shape = (*b2, k, m) if form[1] == "m" else (k,)
    return (d.array(dt, a_shape, **EXACT), d.array(dt, b_shape, **EXACT)), {}


PROPS["matmul"] = Prop(_matmul)



def _vector_products(form: str):
    """numpy 2's gufuncs ``vecdot`` ((n),(n)->(), any core ``axis``), ``matvec``
    and ``vecmat``: broadcast loop axes, core sizes from 0."""

    def build(d: Drawer) -> Call:
        dt = d.dtype(NUMERIC)
        n, m = d.integer(0, 4), d.integer(1, 3)
        b1, b2 = d.broadcast_shapes(2, min_dims=0) if d.boolean() else ((), ())
        if form == "vecdot":
            axis = -1 if d.boolean() else 0
            core = (lambda b: (n, *b)) if axis == 0 else (lambda b: (*b, n))
            kw = {} if axis == -1 else {"axis": 0}
            return (d.array(dt, core(b1), **EXACT), d.array(dt, core(b2), **EXACT)), kw
        if form == "matvec":
            return (d.array(dt, (*b1, m, n), **EXACT), d.array(dt, (*b2, n), **EXACT)), {}
        return (d.array(dt, (*b1, n), **EXACT), d.array(dt, (*b2, n, m), **EXACT)), {}

    return build


for _name in ("vecdot", "matvec", "vecmat"):
    PROPS[_name] = Prop(_vector_products(_name))

def _dot(d: Drawer) -> Call:
    dt = d.dtype(NUMERIC)
    k = d.integer(0, 4)
    a_shape = (*d.shape(max_dims=2, max_side=3), k)
    b_shape = (k,) if d.boolean() else (*d.shape(max_dims=1, max_side=3)[:1], k,
                                          d.integer(1, 3))
    if d.integer(0, 4) == 0:  # a scalar operand multiplies
        return (d.array(dt, (), **EXACT), d.array(dt, b_shape, **EXACT)), {}
    return (d.array(dt, a_shape, **EXACT), d.array(dt, b_shape, **EXACT)), {}


PROPS["dot"] = Prop(_dot)


def _inner(d: Drawer) -> Call:
    dt = d.dtype(NUMERIC)
    k = d.integer(0, 4)
    a = d.array(dt, (*d.shape(max_dims=2, max_side=3), k), **EXACT)
    b = d.array(dt, (*d.shape(max_dims=1, max_side=3), k), **EXACT)
    return (a, b), {}


PROPS["inner"] = Prop(_inner)
PROPS["vdot"] = Prop(
    lambda d: (lambda dt, s: ((d.array(dt, s, **EXACT), d.array(dt, s, **EXACT)), {}))(
        d.dtype(NUMERIC), d.shape(max_side=3)
    )
)
PROPS["outer"] = Prop(
    lambda d: (lambda dt: ((d.array(dt, d.shape(max_dims=2, max_side=3), **EXACT),
                            d.array(dt, d.shape(max_dims=2, max_side=3), **EXACT)), {}))(
        d.dtype(NUMERIC)
    )
)
PROPS["kron"] = Prop(
    lambda d: (lambda dt: ((d.array(dt, d.shape(max_dims=2, max_side=3), **EXACT),
                            d.array(dt, d.shape(max_dims=2, max_side=3), **EXACT)), {}))(
        d.dtype(NUMERIC)
    )
)


def _cross(d: Drawer) -> Call:
    dt = d.dtype(FLOAT + INT)
    n = 3  # (numpy 2 deprecates 2-vectors)
    b1, b2 = d.broadcast_shapes(2)
    return (d.array(dt, (*b1[:2], n), **EXACT), d.array(dt, (*b2[:2], n), **EXACT)), {}


PROPS["cross"] = Prop(_cross)

_EINSUM = {
    "ij,jk->ik": ((0, 1), (1, 2)),
    "ii->i": ((0, 0),),
    "ii": ((0, 0),),
    "ij->ji": ((0, 1),),
    "i,i->": ((0,), (0,)),
    "i,j->ij": ((0,), (1,)),
    "bij,bjk->bik": ((3, 0, 1), (3, 1, 2)),
    "ij->": ((0, 1),),
    "ijk->kj": ((0, 1, 2),),
    "ij,ij->i": ((0, 1), (0, 1)),
    "...ij,...jk->...ik": ((3, 0, 1), (3, 1, 2)),
}


def _einsum(d: Drawer) -> Call:
    spec = d.choice(sorted(_EINSUM))
    dt = d.dtype(NUMERIC)
    sizes = [d.integer(0, 3) for _ in range(4)]
    ops = [d.array(dt, tuple(sizes[i] for i in letters), **EXACT) for letters in _EINSUM[spec]]
    return (spec, *ops), {}


PROPS["einsum"] = Prop(_einsum)


def _tensordot(d: Drawer) -> Call:
    dt = d.dtype(NUMERIC)
    k = d.integer(0, 2)
    shared = d.shape(min_dims=k, max_dims=k, max_side=3)
    a = d.array(dt, (*d.shape(max_dims=2, max_side=3), *shared), **EXACT)
    b = d.array(dt, (*shared, *d.shape(max_dims=2, max_side=3)), **EXACT)
    if d.boolean():
        return (a, b), {"axes": k}
    axes = (list(range(a.ndim - k, a.ndim)), list(range(k)))
    if d.boolean():  # tuples: ((), ()) when k is 0, an outer product
        axes = (tuple(axes[0]), tuple(axes[1]))
    return (a, b), {"axes": axes}


PROPS["tensordot"] = Prop(_tensordot)


# numpy 2's linalg names of the array API: the matrix axes are the last two, options
# keyword-only
def _stack_of_matrices(d: Drawer, dtypes=NUMERIC) -> np.ndarray:
    return d.array(d.dtype(dtypes), (*_batch(d, 2), d.integer(0, 4), d.integer(0, 4)), **EXACT)


def _offset(d: Drawer) -> dict[str, Any]:
    return {"offset": d.integer(-3, 3)} if d.boolean() else {}


def _linalg_trace(d: Drawer) -> Call:
    x = _stack_of_matrices(d)
    kw = _offset(d)
    if d.boolean():
        kw["dtype"] = d.choice([x.dtype, np.dtype("complex128") if x.dtype.kind == "c"
                                else np.dtype("float64")])
    return (x,), kw


def _vector_norm(d: Drawer) -> Call:
    x = d.array(d.dtype(NUMERIC), d.shape(min_dims=1), **EXACT)
    kw: dict[str, Any] = {}
    if d.boolean():
        kw["axis"] = d.axis(x.ndim)
    if d.boolean():
        kw["keepdims"] = d.boolean()
    if d.boolean():
        kw["ord"] = d.choice([1, 2, 3, np.inf, -np.inf, 0])
    return (x,), kw


def _matrix_norm(d: Drawer) -> Call:
    dt = d.dtype(INEXACT + INT)
    x = d.array(dt, (*_batch(d), d.integer(1, 4), d.integer(1, 4)), **EXACT)
    kw: dict[str, Any] = {}
    if d.boolean():
        kw["ord"] = d.choice(["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
    if d.boolean():
        kw["keepdims"] = d.boolean()
    return (x,), kw


def _linalg_cross(d: Drawer) -> Call:
    (a, b), _ = _cross(d)
    if d.boolean() and a.ndim == b.ndim == 2:
        return (a.T, b.T), {"axis": 0}
    return (a, b), {}


PROPS["linalg.matrix_transpose"] = Prop(lambda d: ((_stack_of_matrices(d),), {}))
PROPS["linalg.outer"] = Prop(
    lambda d: (lambda dt: ((d.array(dt, (d.integer(0, 4),), **EXACT),
                            d.array(dt, (d.integer(0, 4),), **EXACT)), {}))(d.dtype(NUMERIC))
)
PROPS["linalg.tensordot"] = Prop(_tensordot)
PROPS["linalg.trace"] = Prop(_linalg_trace)
PROPS["linalg.vecdot"] = Prop(_vector_products("vecdot"))
PROPS["linalg.cross"] = Prop(_linalg_cross)
PROPS["linalg.diagonal"] = Prop(lambda d: ((_stack_of_matrices(d),), _offset(d)))
PROPS["linalg.matmul"] = Prop(_matmul)
PROPS["linalg.vector_norm"] = Prop(_vector_norm)
PROPS["linalg.matrix_norm"] = Prop(_matrix_norm)


def _multi_dot(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    dims = [d.integer(1, 4) for _ in range(d.integer(3, 5))]
    mats = [d.array(dt, (dims[i], dims[i + 1]), **EXACT) for i in range(len(dims) - 1)]
    return (mats,), {}


PROPS["linalg.multi_dot"] = Prop(_multi_dot)


# -------------------------------------------------------------- linalg
def square(kind: str = "general", dtypes=INEXACT, batch: int = 1):
    return lambda d: ((d.matrix(d.dtype(dtypes), d.integer(1, 4), _batch(d, batch),
                                kind=kind),), {})


PROPS["linalg.det"] = Prop(square())
PROPS["linalg.slogdet"] = Prop(square())
PROPS["linalg.inv"] = Prop(square())
PROPS["linalg.pinv"] = Prop(square())
PROPS["linalg.cholesky"] = Prop(square("spd"))
PROPS["linalg.eigvalsh"] = Prop(square("symmetric"))
PROPS["linalg.cond"] = Prop(
    lambda d: ((d.matrix(d.dtype(FLOAT), d.integer(1, 4), _batch(d)),),
               {"p": d.choice([None, 1, -1, 2, -2, np.inf, -np.inf, "fro"])} if d.boolean()
               else {})
)


def _solve(d: Drawer) -> Call:
    dt = d.dtype(INEXACT)
    n = d.integer(1, 4)
    batch = _batch(d)
    a = d.matrix(dt, n, batch)
    if d.boolean():  # numpy 2: b is a stack of vectors only when 1-d
        return (a, d.array(dt, (n,), **EXACT)), {}
    return (a, d.array(dt, (*batch, n, d.integer(1, 3)), **EXACT)), {}


PROPS["linalg.solve"] = Prop(_solve)


def _matrix_power(d: Drawer) -> Call:
    dt = d.dtype(FLOAT + INT)
    n = d.integer(1, 3)
    if dt.kind == "i":
        return (d.array(dt, (*_batch(d), n, n), lo=-2, hi=2), d.integer(0, 4)), {}
    return (d.matrix(dt, n, _batch(d)), d.integer(-2, 4)), {}


PROPS["linalg.matrix_power"] = Prop(_matrix_power)


def _norm(d: Drawer) -> Call:
    dt = d.dtype(INEXACT)
    if d.boolean():  # vectors
        x = d.array(dt, d.shape(min_dims=1, max_dims=1), **EXACT)
        ords = [None, 1, 2, np.inf, -np.inf, 0, 3]
        kw: dict[str, Any] = {"ord": d.choice(ords)} if d.boolean() else {}
    else:
        x = d.array(dt, d.shape(min_dims=2, max_dims=3, min_side=1), **EXACT)
        kw = {}
        if d.boolean():
            kw["ord"] = d.choice([None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
            if x.ndim == 3:
                kw["axis"] = (1, 2)
        elif x.ndim == 3:
            kw["axis"] = d.choice([None, 0, -1, (0, 2)])
    if d.boolean():
        kw["keepdims"] = True
    return (x,), kw


PROPS["linalg.norm"] = Prop(_norm)


def _rank_deficient(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    m, n, r = d.integer(1, 4), d.integer(1, 4), d.integer(0, 3)
    a = d.array(dt, (m, r), lo=-2, hi=2, exact=True, sparse=False)
    b = d.array(dt, (r, n), lo=-2, hi=2, exact=True, sparse=False)
    return ((a @ b).astype(dt),), {}


PROPS["linalg.matrix_rank"] = Prop(_rank_deficient)


def _lstsq(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    n = d.integer(1, 3)
    m = n + d.integer(0, 2)
    a = d.matrix(dt, m, ())[:, :n].copy()  # full column rank, well conditioned
    b = d.array(dt, (m,) if d.boolean() else (m, d.integer(1, 2)), **EXACT)
    return (a, b), {"rcond": None}


# (numpy's rank is LAPACK's int32; the libraries count in their default int)
PROPS["linalg.lstsq"] = Prop(_lstsq, dtype="kind", rtol=1e-4)


def _tensorsolve(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    a = d.matrix(dt, 6, ()).reshape(2, 3, 6)
    return (a, d.array(dt, (2, 3), **EXACT)), {}


PROPS["linalg.tensorsolve"] = Prop(_tensorsolve)
PROPS["linalg.tensorinv"] = Prop(
    lambda d: ((d.matrix(d.dtype(FLOAT), 6, ()).reshape(2, 3, 6), ), {"ind": 2})
)


def _close_to(actual: np.ndarray, expected: np.ndarray, what: str, scale: float = 10) -> None:
    r, a = tolerance(actual.dtype)
    np.testing.assert_allclose(actual, expected, rtol=r * scale, atol=a * scale, err_msg=what)


def _general(d: Drawer) -> Call:
    dt = d.dtype(INEXACT)
    m, n = d.integer(1, 4), d.integer(1, 4)
    return (d.array(dt, (*_batch(d), m, n), **EXACT),), {}


def _qr_check(actual: Any, args: tuple, kwargs: dict, backend: str) -> None:
    (a,) = args
    q, r = actual
    eq, er = np.linalg.qr(a, **kwargs)
    assert (q.shape, r.shape) == (eq.shape, er.shape)
    assert (q.dtype, r.dtype) == (eq.dtype, er.dtype)
    _close_to(q @ r, a, "Q R != A")
    k = min(a.shape[-2:])
    eye = np.broadcast_to(np.eye(k), (*a.shape[:-2], k, k))
    _close_to(np.swapaxes(q, -1, -2).conj() @ q, eye, "Q has no orthonormal columns")
    np.testing.assert_array_equal(np.triu(r), r, err_msg="R is not upper triangular")


PROPS["linalg.qr"] = Prop(_general, check=_qr_check)


def _svd_check(actual: Any, args: tuple, kwargs: dict, backend: str) -> None:
    (a,) = args
    full = kwargs.get("full_matrices", True)
    expected = np.linalg.svd(a, full_matrices=full)
    u, s, vh = actual
    for got, want, what in zip(actual, expected, "USV", strict=True):
        assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
        assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, expected {want.dtype}"
    _close_to(s, expected[1], "singular values")
    k = s.shape[-1]
    recon = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    _close_to(recon, a, "U S Vh != A")


PROPS["linalg.svd"] = Prop(
    lambda d: (lambda c: (c[0], {"full_matrices": d.boolean()} if d.boolean() else {}))(
        _general(d)
    ),
    check=_svd_check,
)
PROPS["linalg.svdvals"] = Prop(_general)


def _eigh_check(actual: Any, args: tuple, kwargs: dict, backend: str) -> None:
    (a,) = args
    w, v = actual
    ew, ev = np.linalg.eigh(a)
    assert (w.dtype, v.dtype) == (ew.dtype, ev.dtype)
    _close_to(w, ew, "eigenvalues")
    _close_to(a @ v, v * w[..., None, :], "A V != V diag(w)")


PROPS["linalg.eigh"] = Prop(square("symmetric"), check=_eigh_check)


def _poly(w: np.ndarray) -> np.ndarray:
    """Characteristic polynomial coefficients: independent of the eigenvalue order."""
    return np.stack([np.poly(row) for row in w.reshape(-1, w.shape[-1])])


def _eig_check(actual: Any, args: tuple, kwargs: dict, backend: str) -> None:
    (a,) = args
    w, v = actual
    ew, ev = np.linalg.eig(a)
    assert (w.shape, v.shape) == (ew.shape, ev.shape)
    assert w.dtype.kind == ew.dtype.kind or ew.dtype.kind == "f", (w.dtype, ew.dtype)
    _close_to(_poly(w), _poly(ew), "eigenvalues", scale=100)
    _close_to(a @ v, v * w[..., None, :], "A V != V diag(w)", scale=100)


def _eigvals_check(actual: Any, args: tuple, kwargs: dict, backend: str) -> None:
    (a,) = args
    ew = np.linalg.eigvals(a)
    assert actual.shape == ew.shape, (actual.shape, ew.shape)
    _close_to(_poly(actual), _poly(ew), "eigenvalues", scale=100)


PROPS["linalg.eig"] = Prop(square(batch=0), check=_eig_check)
PROPS["linalg.eigvals"] = Prop(square(batch=0), check=_eigvals_check)

# -------------------------------------------------------------- scipy.linalg


def _triangular(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    n = d.integer(1, 4)
    lower = d.boolean()
    a = d.matrix(dt, n, ())
    a = np.tril(a) if lower else np.triu(a)
    b = d.array(dt, (n,) if d.boolean() else (n, d.integer(1, 3)), **EXACT)
    kw: dict[str, Any] = {"lower": lower}
    if d.boolean():
        kw["trans"] = d.choice([0, 1, "T"])
    if d.boolean():
        kw["unit_diagonal"] = d.boolean()
    return (a, b), kw


PROPS["scipy.linalg.solve_triangular"] = Prop(_triangular)
PROPS["scipy.linalg.expm"] = Prop(
    lambda d: ((d.array(d.dtype(INEXACT), (d.integer(1, 3),) * 2, lo=-1, hi=1, exact=True),), {})
)
PROPS["linalg.expm"] = Prop(PROPS["scipy.linalg.expm"].build, ref=scipy.linalg.expm)


def _lu_check(actual: Any, args: tuple, kwargs: dict, backend: str) -> None:
    (a,) = args
    p, low, up = actual
    if a.size == 0:  # an empty batch: scipy's own P is (0, 0, 0), nothing to multiply
        assert p.size == low.size == up.size == 0, (p.shape, low.shape, up.shape)
        return
    _close_to(p @ low @ up, a, "P L U != A")
    np.testing.assert_array_equal(np.tril(low), low, err_msg="L is not lower triangular")
    np.testing.assert_array_equal(np.triu(up), up, err_msg="U is not upper triangular")


PROPS["scipy.linalg.lu"] = Prop(_general, check=_lu_check)
PROPS["linalg.lu"] = Prop(_general, check=_lu_check)


def _cho_factor_check(actual: Any, args: tuple, kwargs: dict, backend: str) -> None:
    (a,) = args
    c, lower = actual
    lower = bool(lower)
    tri = np.tril(c) if lower else np.triu(c)
    recon = tri @ tri.conj().T if lower else tri.conj().T @ tri
    _close_to(recon, a, "the factor does not reproduce A")


PROPS["scipy.linalg.cho_factor"] = Prop(
    lambda d: ((d.matrix(d.dtype(FLOAT), d.integer(1, 4), (), kind="spd"),),
               {"lower": d.boolean()} if d.boolean() else {}),
    check=_cho_factor_check,
)


def _cho_solve(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    n = d.integer(1, 4)
    a = d.matrix(dt, n, (), kind="spd")
    lower = d.boolean()
    c = np.linalg.cholesky(a)
    c = c if lower else c.T.copy()
    return ((c, lower), d.array(dt, (n,) if d.boolean() else (n, 2), **EXACT)), {}


PROPS["scipy.linalg.cho_solve"] = Prop(_cho_solve)


def _lu_factor_check(actual: Any, args: tuple, kwargs: dict, backend: str) -> None:
    (a,) = args
    lu, piv = actual
    elu, epiv = scipy.linalg.lu_factor(a)
    assert_close(piv, epiv, dtype="kind")
    assert_close(lu, elu)


PROPS["scipy.linalg.lu_factor"] = Prop(square(batch=0, dtypes=FLOAT), check=_lu_factor_check)


def _lu_solve(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    n = d.integer(1, 4)
    lu, piv = scipy.linalg.lu_factor(d.matrix(dt, n, ()))
    return ((lu, piv), d.array(dt, (n,), **EXACT)), {}


PROPS["scipy.linalg.lu_solve"] = Prop(_lu_solve)


# -------------------------------------------------------------- scipy.special reductions
def _softmax(d: Drawer) -> Call:
    # (1-d at least: scipy's logsumexp of a 0-d array with keepdims has shape (1,))
    x = d.array(d.dtype(FLOAT), d.shape(min_dims=1, min_side=1), lo=-20, hi=20)
    return (x,), ({"axis": d.axis(x.ndim)} if d.boolean() else {})


PROPS["scipy.special.softmax"] = Prop(_softmax)
PROPS["scipy.special.log_softmax"] = Prop(_softmax)
PROPS["scipy.special.logsumexp"] = Prop(
    lambda d: (lambda c: (c[0], {**c[1], **({"keepdims": True} if d.boolean() else {})}))(
        _softmax(d)
    )
)

# -------------------------------------------------------------- fft


def _fft_kw(d: Drawer, x: np.ndarray, mode: str) -> dict[str, Any]:
    """n/axis (1-d transforms), s/axes (2-d: two axes; n-d: any), norm."""
    kw: dict[str, Any] = {}
    if mode == "1d":
        if d.boolean():
            kw["axis"] = d.integer(-x.ndim, x.ndim - 1)
        if d.boolean():
            kw["n"] = d.integer(1, 6)
    elif d.boolean():
        k = 2 if mode == "2d" else d.integer(1, x.ndim)
        kw["axes"] = tuple(sorted(d(st.lists(st.integers(0, x.ndim - 1), min_size=k,
                                             max_size=k, unique=True))))
        if d.boolean():
            kw["s"] = tuple(d.integer(1, 5) for _ in kw["axes"])
    if d.boolean():
        kw["norm"] = d.choice(["backward", "ortho", "forward"])
    return kw


def fft(real_input: bool, mode: str = "1d", real_out: bool = False):
    """Arrays of the transform's input kind (a complex input for the inverse real
    transforms), and n/axis or s/axes, and norm."""

    def build(d: Drawer) -> Call:
        dt = d.dtype(FLOAT if real_input else COMPLEX)
        x = d.array(dt, d.shape(min_dims=2 if mode == "2d" else 1, min_side=1), exact=True)
        kw = _fft_kw(d, x, mode)
        if real_out and "n" not in kw and x.shape[kw.get("axis", -1)] == 1:
            kw["n"] = 2  # numpy refuses an output of 0 points
        return (x,), kw

    return build


def _roundtrip(inverse: str, real: bool):
    """``then``: the inverse transform brings the backend result back to the input."""

    def then(out: Any, args: tuple, kwargs: dict, backend: str) -> None:
        (x,) = args
        if kwargs.get("n") is not None or kwargs.get("s") is not None:
            return  # truncation or padding loses the round trip
        kw = {k: v for k, v in kwargs.items() if k in ("axis", "axes", "norm")}
        if real:
            axis = kwargs.get("axis", -1)
            axes = kwargs.get("axes")
            if axes is not None:
                kw["s"] = [x.shape[a] for a in axes]
            elif inverse.endswith("2"):
                kw["s"] = list(x.shape[-2:])
            elif inverse.endswith("n"):
                kw["s"], kw["axes"] = list(x.shape), tuple(range(x.ndim))
            else:
                kw["n"] = x.shape[axis]
        back = to_np(do(inverse, out, **kw))
        r, a = tolerance(x.dtype)
        np.testing.assert_allclose(back, x, rtol=r * 10, atol=a * 100,
                                   err_msg=f"{inverse} does not invert")

    return then


PROPS["fft.fft"] = Prop(fft(False), then=_roundtrip("fft.ifft", False))
PROPS["fft.fft|real"] = Prop(fft(True))
PROPS["fft.ifft"] = Prop(fft(False), then=_roundtrip("fft.fft", False))
PROPS["fft.rfft"] = Prop(fft(True), then=_roundtrip("fft.irfft", True))
PROPS["fft.irfft"] = Prop(fft(False, real_out=True))
PROPS["fft.hfft"] = Prop(fft(False, real_out=True))
PROPS["fft.ihfft"] = Prop(fft(True))
PROPS["fft.fft2"] = Prop(fft(False, "2d"), then=_roundtrip("fft.ifft2", False))
PROPS["fft.ifft2"] = Prop(fft(False, "2d"))
PROPS["fft.rfft2"] = Prop(fft(True, "2d"), then=_roundtrip("fft.irfft2", True))
PROPS["fft.irfft2"] = Prop(fft(False, "2d"))
PROPS["fft.fftn"] = Prop(fft(False, "nd"), then=_roundtrip("fft.ifftn", False))
PROPS["fft.ifftn"] = Prop(fft(False, "nd"))
PROPS["fft.rfftn"] = Prop(fft(True, "nd"), then=_roundtrip("fft.irfftn", True))
PROPS["fft.irfftn"] = Prop(fft(False, "nd"))
PROPS["fft.fftshift"] = Prop(
    lambda d: (lambda x: ((x,), {"axes": d.axis(x.ndim)} if d.boolean() else {}))(
        d.array(d.dtype(NUMERIC), d.shape(min_dims=1), exact=True)
    )
)
PROPS["fft.ifftshift"] = Prop(PROPS["fft.fftshift"].build)

# -------------------------------------------------------------- polynomials
POLY_DTYPES = ("float32", "float64", "int64")


def _coeffs(d: Drawer, dt: Any, lo: int = 1, hi: int = 5) -> np.ndarray:
    return d.array(dt, (d.integer(lo, hi),), **EXACT)


def _two_polys(d: Drawer) -> Call:
    return (_coeffs(d, d.dtype(POLY_DTYPES)), _coeffs(d, d.dtype(POLY_DTYPES))), {}


for _name in ("polyadd", "polysub", "polymul"):
    PROPS[_name] = Prop(_two_polys)


def _polydiv(d: Drawer) -> Call:
    u = _coeffs(d, d.dtype(POLY_DTYPES))
    v = _coeffs(d, d.dtype(POLY_DTYPES), hi=3)
    v[0] = d.choice([-2, -1, 1, 3])  # a non-zero leading coefficient
    return (u, v), {}


PROPS["polydiv"] = Prop(_polydiv, rtol=1e-5, atol=1e-6)
PROPS["polyder"] = Prop(lambda d: ((_coeffs(d, d.dtype(POLY_DTYPES)), d.integer(0, 3)), {}))
PROPS["polyint"] = Prop(lambda d: ((_coeffs(d, d.dtype(POLY_DTYPES)), d.integer(0, 2)), {}))
PROPS["polyval"] = Prop(
    lambda d: ((_coeffs(d, d.dtype(POLY_DTYPES), lo=0),
                d.array(d.dtype(POLY_DTYPES), d.shape(max_dims=2), **EXACT)), {})
)
PROPS["vander"] = Prop(
    lambda d: ((_coeffs(d, d.dtype(POLY_DTYPES), lo=0),),
               {"N": d.integer(0, 4), "increasing": d.boolean()} if d.boolean() else {})
)
PROPS["poly"] = Prop(lambda d: ((_coeffs(d, d.dtype(FLOAT), lo=0, hi=4),), {}))


def _polyfit(d: Drawer) -> Call:
    dt = d.dtype(FLOAT)
    n = d.integer(3, 7)
    x = d.sorted_array(dt, (n,), unique=True, lo=-4, hi=4, exact=True)
    y = d.array(dt, (n,), **EXACT)
    return (x, y, d.integer(0, min(n - 1, 3))), {}


PROPS["polyfit"] = Prop(_polyfit, dtype="kind", rtol=1e-3, atol=1e-3)


def _roots_check(actual: Any, args: tuple, kwargs: dict, backend: str) -> None:
    (p,) = args
    expected = np.roots(p)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if expected.size:
        _close_to(_poly(actual[None]), _poly(expected[None]), "roots", scale=1000)


PROPS["roots"] = Prop(lambda d: ((_coeffs(d, d.dtype(("float64",)), lo=0, hi=4),), {}),
                      check=_roots_check)
