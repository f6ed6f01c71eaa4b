"""Shape rules of contractions (``matmul``, ``dot``, ``tensordot``, ``einsum``,
``kron``...) and of ``linalg``: decompositions in every mode, solvers, norms.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from dispatch.lazy._shapes_abstract import abstract
from dispatch.lazy._shapes_common import (
    Rule,
    Shape,
    _arg,
    _reduced,
    broadcast,
    complex_dtype,
    dtype_name,
    dtype_of,
    dtype_of_array,
    linalg_dtype,
    norm_axes,
    norm_axis,
    promote,
    real_dtype,
    shape_of,
)

RULES: dict[str, Rule] = {}


# ---------------------------------------------------------------- contractions


def _matmul(args: tuple, kwargs: dict) -> tuple:
    a, b = args[0], args[1]
    sa, sb = shape_of(a), shape_of(b)
    return matmul_shape(sa, sb), promote(dtype_of(a), dtype_of(b))


def matmul_shape(sa: Shape, sb: Shape) -> Shape:
    if not sa or not sb:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    a2 = (1, *sa) if len(sa) == 1 else sa
    b2 = (*sb, 1) if len(sb) == 1 else sb
    if a2[-1] != b2[-2]:
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension 0 "
            f"(size {b2[-2]} is different from {a2[-1]})"
        )
    batch = broadcast(a2[:-2], b2[:-2])
    out = batch + ((a2[-2],) if len(sa) > 1 else ()) + ((b2[-1],) if len(sb) > 1 else ())
    return out


RULES["matmul"] = _matmul


def _dot(args: tuple, kwargs: dict) -> tuple:
    a, b = args[0], args[1]
    sa, sb = shape_of(a), shape_of(b)
    dt = promote(dtype_of(a), dtype_of(b))
    if not sa or not sb:
        return broadcast(sa, sb) if not sa or not sb else (), dt
    if len(sb) == 1:
        if sa[-1] != sb[0]:
            raise ValueError("shapes not aligned")
        return sa[:-1], dt
    if sa[-1] != sb[-2]:
        raise ValueError("shapes not aligned")
    return sa[:-1] + sb[:-2] + sb[-1:], dt


RULES["dot"] = _dot


def _vdot(args: tuple, kwargs: dict) -> tuple:
    a, b = args
    if math.prod(shape_of(a)) != math.prod(shape_of(b)):
        raise ValueError("cannot reshape array")
    return (), promote(dtype_of(a), dtype_of(b))


RULES["vdot"] = _vdot


def _inner(args: tuple, kwargs: dict) -> tuple:
    a, b = args
    sa, sb = shape_of(a), shape_of(b)
    dt = promote(dtype_of(a), dtype_of(b))
    if not sa or not sb:
        return sa or sb, dt
    if sa[-1] != sb[-1]:
        raise ValueError("shapes not aligned")
    return sa[:-1] + sb[:-1], dt


RULES["inner"] = _inner


def _outer(args: tuple, kwargs: dict) -> tuple:
    a, b = args
    return (math.prod(shape_of(a)), math.prod(shape_of(b))), promote(dtype_of(a), dtype_of(b))


RULES["outer"] = _outer


def _kron(args: tuple, kwargs: dict) -> tuple:
    a, b = args
    sa, sb = shape_of(a), shape_of(b)
    n = max(len(sa), len(sb))
    sa = (1,) * (n - len(sa)) + sa
    sb = (1,) * (n - len(sb)) + sb
    return tuple(x * y for x, y in zip(sa, sb, strict=False)), promote(dtype_of(a), dtype_of(b))


RULES["kron"] = _kron


def _tensordot(args: tuple, kwargs: dict) -> tuple:
    a, b = args[0], args[1]
    axes = _arg(args, kwargs, 2, "axes", 2)
    sa, sb = shape_of(a), shape_of(b)
    ax_a, ax_b = tensordot_axes(axes, len(sa), len(sb))
    for i, j in zip(ax_a, ax_b, strict=False):
        if sa[i] != sb[j]:
            raise ValueError("shape-mismatch for sum")
    out = tuple(d for i, d in enumerate(sa) if i not in ax_a) + tuple(
        d for i, d in enumerate(sb) if i not in ax_b
    )
    return out, promote(dtype_of(a), dtype_of(b))


def tensordot_axes(axes: Any, na: int, nb: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if isinstance(axes, (int, np.integer)):
        k = int(axes)
        return tuple(range(na - k, na)), tuple(range(k))
    xa, xb = axes
    xa = (xa,) if isinstance(xa, (int, np.integer)) else tuple(xa)
    xb = (xb,) if isinstance(xb, (int, np.integer)) else tuple(xb)
    if len(xa) != len(xb):
        raise ValueError("shape-mismatch for sum")
    return tuple(norm_axis(i, na) for i in xa), tuple(norm_axis(i, nb) for i in xb)


RULES["tensordot"] = _tensordot

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def parse_einsum(subscripts: str, shapes: list[Shape]) -> tuple[list[str], str, dict[str, int]]:
    """Explicit letters for every operand (ellipses expanded), the output letters
    and the size of each letter."""
    s = subscripts.replace(" ", "")
    if "->" in s:
        ins, out = s.split("->")
        explicit = True
    else:
        ins, out, explicit = s, "", False
    terms = ins.split(",")
    if len(terms) != len(shapes):
        raise ValueError("einsum: more operands than subscripts or the other way round")
    used = set(s) - set(",->.")
    free = [c for c in _LETTERS if c not in used]
    ell_n = max(
        (len(sh) - len(t.replace("...", ""))
         for t, sh in zip(terms, shapes, strict=True) if "..." in t),
        default=0,
    )
    ell = "".join(free[:ell_n])
    sizes: dict[str, int] = {}
    letters: list[str] = []
    for t, sh in zip(terms, shapes, strict=False):
        if "..." in t:
            k = len(sh) - len(t.replace("...", ""))
            t = t.replace("...", ell[ell_n - k:] if k else "")
        if len(t) != len(sh):
            raise ValueError(
                f"einsum: operand has {len(sh)} dimensions but subscripts {t!r} give {len(t)}"
            )
        for c, d in zip(t, sh, strict=False):
            if c in sizes and sizes[c] != d:
                if sizes[c] == 1:
                    sizes[c] = d
                elif d != 1:
                    raise ValueError(f"einsum: size of label {c!r} mismatch ({sizes[c]} vs {d})")
            else:
                sizes.setdefault(c, d)
        letters.append(t)
    if explicit:
        out = out.replace("...", ell)
    else:
        counts: dict[str, int] = {}
        for t in letters:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    return letters, out, sizes


def _einsum(args: tuple, kwargs: dict) -> tuple:
    if not isinstance(args[0], str):
        return abstract("einsum", args, kwargs)
    ops = args[1:]
    _, out, sizes = parse_einsum(args[0], [shape_of(o) for o in ops])
    dt = kwargs.get("dtype")
    dt = dtype_name(dt) if dt is not None else promote(*(dtype_of(o) for o in ops))
    return tuple(sizes[c] for c in out), dt


RULES["einsum"] = _einsum

# ---------------------------------------------------------------- linear algebra


def _sq(shape: Shape) -> Shape:
    if len(shape) < 2:
        raise np.linalg.LinAlgError(
            f"{len(shape)}-dimensional array given. Array must be at least two-dimensional"
        )
    if shape[-1] != shape[-2]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    return shape


def _mat(shape: Shape) -> Shape:
    if len(shape) < 2:
        raise np.linalg.LinAlgError(
            f"{len(shape)}-dimensional array given. Array must be at least two-dimensional"
        )
    return shape


def _linalg_same(args: tuple, kwargs: dict) -> tuple:
    s = _sq(shape_of(args[0]))
    return s, linalg_dtype(dtype_of(args[0]))


for _n in ("linalg.inv", "linalg.cholesky", "linalg.expm", "scipy.linalg.expm"):
    RULES[_n] = _linalg_same


def _matrix_power(args: tuple, kwargs: dict) -> tuple:
    s = _sq(shape_of(args[0]))
    n = operator.index(_arg(args, kwargs, 1, "n"))
    # non-negative powers are repeated products (dtype kept); negative ones invert
    return s, dtype_of_array(args[0]) if n >= 0 else linalg_dtype(dtype_of(args[0]))


RULES["linalg.matrix_power"] = _matrix_power


def _tensorinv(args: tuple, kwargs: dict) -> tuple:
    s = shape_of(args[0])
    ind = operator.index(_arg(args, kwargs, 1, "ind", 2))
    if math.prod(s[:ind]) != math.prod(s[ind:]):
        raise np.linalg.LinAlgError("tensorinv: the input is not square in the split")
    return s[ind:] + s[:ind], linalg_dtype(dtype_of(args[0]))


def _tensorsolve(args: tuple, kwargs: dict) -> tuple:
    a, b = args[0], args[1]
    sa, sb = shape_of(a), shape_of(b)
    axes = _arg(args, kwargs, 2, "axes")
    if axes is not None:
        ax = norm_axes(axes, len(sa))
        sa = tuple(d for i, d in enumerate(sa) if i not in ax) + tuple(sa[i] for i in ax)
    out = sa[len(sb):]
    if math.prod(out) != math.prod(sb):
        raise np.linalg.LinAlgError("tensorsolve: the system is not square")
    return out, linalg_dtype(promote(dtype_of(a), dtype_of(b)))


RULES["linalg.tensorinv"] = _tensorinv
RULES["linalg.tensorsolve"] = _tensorsolve


def _cho_factor(args: tuple, kwargs: dict) -> list:
    s = _sq(shape_of(args[0]))
    return [(s, linalg_dtype(dtype_of(args[0]))), ((), "bool")]


def _cho_solve(args: tuple, kwargs: dict) -> tuple:
    (c, _lower), b = args[0], args[1]
    return shape_of(b), linalg_dtype(promote(dtype_of(c), dtype_of(b)))


def _lu(args: tuple, kwargs: dict) -> Any:
    s = _mat(shape_of(args[0]))
    m, n = s[-2:]
    k = min(m, n)
    b = s[:-2]
    d = linalg_dtype(dtype_of(args[0]))
    if kwargs.get("permute_l"):
        return [((*b, m, k), d), ((*b, k, n), d)]
    if kwargs.get("p_indices"):
        return [((*b, m), "int32"), ((*b, m, k), d), ((*b, k, n), d)]
    return [((*b, m, m), d), ((*b, m, k), d), ((*b, k, n), d)]


def _lu_factor(args: tuple, kwargs: dict) -> list:
    s = _sq(shape_of(args[0]))
    return [(s, linalg_dtype(dtype_of(args[0]))), (s[:-1], "int32")]


RULES["scipy.linalg.cho_factor"] = _cho_factor
RULES["scipy.linalg.cho_solve"] = _cho_solve
RULES["scipy.linalg.lu"] = RULES["linalg.lu"] = _lu
RULES["scipy.linalg.lu_factor"] = _lu_factor


def _det(args: tuple, kwargs: dict) -> tuple:
    s = _sq(shape_of(args[0]))
    return s[:-2], linalg_dtype(dtype_of(args[0]))


RULES["linalg.det"] = _det


def _slogdet(args: tuple, kwargs: dict) -> list:
    s = _sq(shape_of(args[0]))
    d = linalg_dtype(dtype_of(args[0]))
    return [(s[:-2], d), (s[:-2], real_dtype(d))]


RULES["linalg.slogdet"] = _slogdet


def _pinv(args: tuple, kwargs: dict) -> tuple:
    s = _mat(shape_of(args[0]))
    return (*s[:-2], s[-1], s[-2]), linalg_dtype(dtype_of(args[0]))


RULES["linalg.pinv"] = _pinv


def _qr(args: tuple, kwargs: dict) -> Any:
    s = _mat(shape_of(args[0]))
    mode = _arg(args, kwargs, 1, "mode", "reduced")
    m, n = s[-2:]
    k = min(m, n)
    b = s[:-2]
    d = linalg_dtype(dtype_of(args[0]))
    if mode == "r":
        return (*b, k, n), d
    if mode == "complete":
        return [((*b, m, m), d), ((*b, m, n), d)]
    if mode == "raw":
        return [((*b, n, m), d), ((*b, k), d)]
    return [((*b, m, k), d), ((*b, k, n), d)]


RULES["linalg.qr"] = _qr


def _svd(args: tuple, kwargs: dict) -> Any:
    s = _mat(shape_of(args[0]))
    full = _arg(args, kwargs, 1, "full_matrices", True)
    uv = _arg(args, kwargs, 2, "compute_uv", True)
    m, n = s[-2:]
    k = min(m, n)
    b = s[:-2]
    d = linalg_dtype(dtype_of(args[0]))
    if not uv:
        return (*b, k), real_dtype(d)
    if full:
        return [((*b, m, m), d), ((*b, k), real_dtype(d)), ((*b, n, n), d)]
    return [((*b, m, k), d), ((*b, k), real_dtype(d)), ((*b, k, n), d)]


RULES["linalg.svd"] = _svd


def _svdvals(args: tuple, kwargs: dict) -> tuple:
    s = _mat(shape_of(args[0]))
    return (*s[:-2], min(s[-2:])), real_dtype(linalg_dtype(dtype_of(args[0])))


RULES["linalg.svdvals"] = _svdvals


def _eigh(args: tuple, kwargs: dict) -> list:
    s = _sq(shape_of(args[0]))
    d = linalg_dtype(dtype_of(args[0]))
    return [(s[:-1], real_dtype(d)), (s, d)]


def _eigvalsh(args: tuple, kwargs: dict) -> tuple:
    s = _sq(shape_of(args[0]))
    return s[:-1], real_dtype(linalg_dtype(dtype_of(args[0])))


def _eig(args: tuple, kwargs: dict) -> list:
    # numpy returns real arrays when every eigenvalue happens to be real: that is
    # data-dependent, so the lazy dtype is always the complex one
    s = _sq(shape_of(args[0]))
    d = complex_dtype(linalg_dtype(dtype_of(args[0])))
    return [(s[:-1], d), (s, d)]


def _eigvals(args: tuple, kwargs: dict) -> tuple:
    s = _sq(shape_of(args[0]))
    return s[:-1], complex_dtype(linalg_dtype(dtype_of(args[0])))


RULES["linalg.eigh"] = _eigh
RULES["linalg.eigvalsh"] = _eigvalsh
RULES["linalg.eig"] = _eig
RULES["linalg.eigvals"] = _eigvals


def _solve(args: tuple, kwargs: dict) -> tuple:
    a, b = args[0], args[1]
    sa, sb = _sq(shape_of(a)), shape_of(b)
    d = linalg_dtype(promote(dtype_of(a), dtype_of(b)))
    if len(sb) == 1:  # numpy 2: b is a vector only when it is 1-D
        if sb[0] != sa[-1]:
            raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0")
        return (*sa[:-2], sa[-1]), d
    if sb[-2] != sa[-1]:
        raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0")
    return broadcast(sa[:-2], sb[:-2]) + sb[-2:], d


RULES["linalg.solve"] = _solve


def _solve_triangular(args: tuple, kwargs: dict) -> tuple:
    a, b = args[0], args[1]
    sa, sb = _sq(shape_of(a)), shape_of(b)
    if sb[0] != sa[-1]:
        raise ValueError("shapes of a and b are incompatible")
    return sb, linalg_dtype(promote(dtype_of(a), dtype_of(b)))


RULES["scipy.linalg.solve_triangular"] = _solve_triangular


def _lstsq(args: tuple, kwargs: dict) -> list:
    # residuals have shape (k,) only when a has full column rank and m > n; the
    # rule assumes full rank (numpy returns an empty array otherwise)
    a, b = args[0], args[1]
    sa, sb = _mat(shape_of(a)), shape_of(b)
    m, n = sa[-2:]
    if sb[0] != m:
        raise np.linalg.LinAlgError("Incompatible dimensions")
    d = linalg_dtype(promote(dtype_of(a), dtype_of(b)))
    k = sb[1:]
    res = (k if k else (1,)) if m > n else (0,)
    return [((n, *k), d), (res, real_dtype(d)), ((), "int32"), ((min(m, n),), real_dtype(d))]


RULES["linalg.lstsq"] = _lstsq


def _matrix_rank(args: tuple, kwargs: dict) -> tuple:
    s = shape_of(args[0])
    return (s[:-2] if len(s) >= 2 else ()), "int64"


RULES["linalg.matrix_rank"] = _matrix_rank


def _cond(args: tuple, kwargs: dict) -> tuple:
    s = _mat(shape_of(args[0]))
    return s[:-2], real_dtype(linalg_dtype(dtype_of(args[0])))


RULES["linalg.cond"] = _cond


def _norm(args: tuple, kwargs: dict) -> tuple:
    x = args[0]
    s = shape_of(x)
    ord_ = _arg(args, kwargs, 1, "ord")
    axis = _arg(args, kwargs, 2, "axis")
    keepdims = bool(_arg(args, kwargs, 3, "keepdims", False))
    d = real_dtype(linalg_dtype(dtype_of(x)))
    if axis is None:
        if ord_ is not None and len(s) not in (1, 2):
            raise ValueError("Improper number of dimensions to norm.")
        return ((1,) * len(s) if keepdims else ()), d
    axes = norm_axes(axis, len(s))
    if len(axes) > 2:
        raise ValueError("Improper number of dimensions to norm.")
    return _reduced(s, axes, keepdims), d


RULES["linalg.norm"] = _norm


def _multi_dot(args: tuple, kwargs: dict) -> tuple:
    arrays = args[0]
    shapes = [shape_of(a) for a in arrays]
    out = shapes[0]
    first_vec = len(out) == 1
    out = (1, *out) if first_vec else out
    for s in shapes[1:]:
        out = matmul_shape(out, s)
        if len(s) == 1:
            out = (*out, 1)
    if len(shapes[-1]) == 1:
        out = out[:-1]
    if first_vec:
        out = out[1:]
    return out, promote(*(dtype_of(a) for a in arrays))


RULES["linalg.multi_dot"] = _multi_dot
