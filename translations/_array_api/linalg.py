"""The linalg and fft extensions, and ``__array_namespace_info__``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from dispatch.translations._array_api._core import (
    FACTORIES,
    Info,
    Space,
    _axis,
    _member,
    _sum_dtype,
)

# ---- linear algebra -------------------------------------------------------------


class EighResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class EigResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    Q: Any
    R: Any


class SlogdetResult(NamedTuple):
    sign: Any
    logabsdet: Any


class SVDResult(NamedTuple):
    U: Any
    S: Any
    Vh: Any


def _binary_linalg(vocab: str, name: str, **fixed: Any) -> None:
    def factory(space: Space) -> Callable:
        f = space.fn(vocab)

        def binary(x1: Any, x2: Any, /) -> Any:
            return f(*space.promoted(x1, x2), **fixed)

        binary.__name__ = binary.__qualname__ = name.rpartition(".")[2]
        binary.__doc__ = f"The array API's ``{name}`` (``do({vocab!r}, x1, x2)``)."
        return binary

    FACTORIES[name] = factory


for _n in ("matmul", "linalg.matmul"):
    _binary_linalg("matmul", _n)
_binary_linalg("linalg.solve", "linalg.solve")
_binary_linalg("outer", "linalg.outer")


def _unary_linalg(vocab: str, name: str, wrap: Callable | None = None) -> None:
    def factory(space: Space) -> Callable:
        f = space.fn(vocab)

        def unary(x: Any, /) -> Any:
            out = f(x)
            return out if wrap is None else wrap(*out)

        unary.__name__ = unary.__qualname__ = name.rpartition(".")[2]
        unary.__doc__ = f"The array API's ``{name}`` (``do({vocab!r}, x)``)."
        return unary

    FACTORIES[name] = factory


for _n in ("det", "inv", "eigvalsh", "svdvals"):
    _unary_linalg(f"linalg.{_n}", f"linalg.{_n}")
_unary_linalg("linalg.eigh", "linalg.eigh", EighResult)
_unary_linalg("linalg.slogdet", "linalg.slogdet", SlogdetResult)
_unary_linalg("matrix_transpose", "linalg.matrix_transpose")


def _complex_of(space: Space, x: Any) -> Any:
    """The complex dtype of ``x``'s precision (complex64 for float32)."""
    name = space.name_of(x)
    bits = {"float32": "complex64", "float64": "complex128"}.get(name, name)
    return space.dtype_object(bits)


@_member("linalg.eig")
def _eig(space: Space) -> Callable:
    f, astype = space.fn("linalg.eig"), space.fn("astype")

    def eig(x: Any, /) -> EigResult:
        """The array API's ``linalg.eig`` (2025.12): eigenvalues and eigenvectors of
        general matrices, always complex (numpy returns real ones where every
        eigenvalue is real)."""
        target = _complex_of(space, x)
        w, v = f(x)
        return EigResult(astype(w, target, copy=False), astype(v, target, copy=False))

    return eig


@_member("linalg.eigvals")
def _eigvals(space: Space) -> Callable:
    f, astype = space.fn("linalg.eigvals"), space.fn("astype")

    def eigvals(x: Any, /) -> Any:
        """The array API's ``linalg.eigvals`` (2025.12): the eigenvalues of general
        matrices, complex."""
        return astype(f(x), _complex_of(space, x), copy=False)

    return eigvals


@_member("linalg.cholesky")
def _cholesky(space: Space) -> Callable:
    f, mT, conj = space.fn("linalg.cholesky"), space.fn("matrix_transpose"), space.fn("conj")

    def cholesky(x: Any, /, *, upper: bool = False) -> Any:
        """The array API's ``linalg.cholesky``: lower ``L`` with ``x = L L^H``, or
        the upper factor ``L^H`` for ``upper=True``."""
        low = f(x)
        return mT(conj(low)) if upper else low

    return cholesky


@_member("linalg.qr")
def _qr(space: Space) -> Callable:
    f = space.fn("linalg.qr")

    def qr(x: Any, /, *, mode: str = "reduced") -> QRResult:
        """The array API's ``linalg.qr``: ``(Q, R)`` in ``'reduced'`` or ``'complete'`` mode."""
        return QRResult(*f(x, mode=mode))

    return qr


@_member("linalg.svd")
def _svd(space: Space) -> Callable:
    f = space.fn("linalg.svd")

    def svd(x: Any, /, *, full_matrices: bool = True) -> SVDResult:
        """The array API's ``linalg.svd``: ``(U, S, Vh)`` with ``x = U diag(S) Vh``."""
        return SVDResult(*f(x, full_matrices=full_matrices))

    return svd


@_member("linalg.matrix_power")
def _matrix_power(space: Space) -> Callable:
    f = space.fn("linalg.matrix_power")

    def matrix_power(x: Any, n: int, /) -> Any:
        """The array API's ``linalg.matrix_power``: ``x`` to the integer power ``n``."""
        return f(x, n)

    return matrix_power


def _rtol(space: Space, x: Any, rtol: Any) -> Any:
    if rtol is not None:
        return rtol
    # numpy's finfo of a complex dtype describes its real parts
    return max(x.shape[-2], x.shape[-1]) * float(np.finfo(space.name_of(x)).eps)


@_member("linalg.matrix_rank")
def _matrix_rank(space: Space) -> Callable:
    svdvals, amax, count = space.fn("linalg.svdvals"), space.fn("max"), space.fn("count_nonzero")
    greater, multiply, expand = space.fn("greater"), space.fn("multiply"), space.fn("expand_dims")

    def matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
        """The array API's ``linalg.matrix_rank``: singular values above ``rtol``
        times the largest (``rtol``: ``max(M, N) * eps`` by default)."""
        s = svdvals(x)
        cutoff = multiply(amax(s, axis=-1), _rtol(space, x, rtol))
        return count(greater(s, expand(cutoff, -1)), axis=-1)

    return matrix_rank


@_member("linalg.pinv")
def _pinv(space: Space) -> Callable:
    f = space.fn("linalg.pinv")

    def pinv(x: Any, /, *, rtol: Any = None) -> Any:
        """The array API's ``linalg.pinv``: singular values at most ``rtol`` times the
        largest count as zero (``rtol``: ``max(M, N) * eps`` by default)."""
        return f(x, rcond=_rtol(space, x, rtol))

    return pinv


@_member("linalg.matrix_norm")
def _matrix_norm(space: Space) -> Callable:
    f = space.fn("linalg.matrix_norm")

    def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
        """The array API's ``linalg.matrix_norm`` of the last two axes."""
        return f(x, keepdims=keepdims, ord=ord)

    return matrix_norm


@_member("linalg.vector_norm")
def _vector_norm(space: Space) -> Callable:
    f = space.fn("linalg.vector_norm")

    def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:
        """The array API's ``linalg.vector_norm`` over ``axis`` (all axes for None)."""
        return f(x, axis=_axis(axis), keepdims=keepdims, ord=ord)

    return vector_norm


@_member("linalg.diagonal")
def _diagonal(space: Space) -> Callable:
    f = space.fn("diagonal")

    def diagonal(x: Any, /, *, offset: int = 0) -> Any:
        """The array API's ``linalg.diagonal``: of the last two axes."""
        return f(x, offset, -2, -1)

    return diagonal


@_member("linalg.trace")
def _trace(space: Space) -> Callable:
    f = space.fn("trace")

    def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
        """The array API's ``linalg.trace`` of the last two axes (integers summed in
        the default integral dtype)."""
        return f(x, offset, -2, -1, dtype=_sum_dtype(space, x, dtype))

    return trace


@_member("linalg.cross")
def _cross(space: Space) -> Callable:
    f = space.fn("cross")

    def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        """The array API's ``linalg.cross`` of 3-vectors along ``axis``."""
        a, b = space.promoted(x1, x2)
        return f(a, b, axis=axis)

    return cross


def _tensordot_member(name: str) -> None:
    def factory(space: Space) -> Callable:
        f = space.fn("tensordot")

        def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
            a, b = space.promoted(x1, x2)
            return f(a, b, axes=axes)

        tensordot.__doc__ = "The array API's ``tensordot``: sum over ``axes`` of both."
        return tensordot

    FACTORIES[name] = factory


def _vecdot_member(name: str) -> None:
    def factory(space: Space) -> Callable:
        f = space.fn("vecdot")

        def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
            a, b = space.promoted(x1, x2)
            return f(a, b, axis=axis)

        vecdot.__doc__ = "The array API's ``vecdot``: ``sum(conj(x1) * x2, axis)``."
        return vecdot

    FACTORIES[name] = factory


for _n in ("tensordot", "linalg.tensordot"):
    _tensordot_member(_n)
for _n in ("vecdot", "linalg.vecdot"):
    _vecdot_member(_n)


# ---- fft ------------------------------------------------------------------------


def _fft_member(name: str, many: bool) -> None:
    def factory(space: Space) -> Callable:
        f = space.fn(f"fft.{name}")
        if many:
            def transform(x: Any, /, *, s: Any = None, axes: Any = None,
                          norm: str = "backward") -> Any:
                return f(x, s=s, axes=axes, norm=norm)
        else:
            def transform(x: Any, /, *, n: int | None = None, axis: int = -1,
                          norm: str = "backward") -> Any:
                return f(x, n=n, axis=axis, norm=norm)

        transform.__name__ = transform.__qualname__ = name
        transform.__doc__ = f"The array API's ``fft.{name}`` (numpy's ``fft.{name}``)."
        return transform

    FACTORIES[f"fft.{name}"] = factory


for _n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
    _fft_member(_n, False)
for _n in ("fftn", "ifftn", "rfftn", "irfftn"):
    _fft_member(_n, True)


def _freq_member(name: str) -> None:
    def factory(space: Space) -> Callable:
        f, astype = space.fn(f"fft.{name}"), space.fn("astype")

        def freq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
            out = f(n, d=d)
            want = space._dtype(space._defaults()[0]) if dtype is None else dtype
            if space.name_of(out) != space.name_of(want):
                out = astype(out, want)
            if device is not None:
                out = space._call("to_device", out, device)
            return out

        freq.__name__ = freq.__qualname__ = name
        freq.__doc__ = f"The array API's ``fft.{name}``: in the default real floating dtype."
        return freq

    FACTORIES[f"fft.{name}"] = factory


_freq_member("fftfreq")
_freq_member("rfftfreq")


def _shift_member(name: str) -> None:
    def factory(space: Space) -> Callable:
        f = space.fn(f"fft.{name}")

        def shift(x: Any, /, *, axes: Any = None) -> Any:
            return f(x, axes=axes)

        shift.__name__ = shift.__qualname__ = name
        shift.__doc__ = f"The array API's ``fft.{name}``."
        return shift

    FACTORIES[f"fft.{name}"] = factory


_shift_member("fftshift")
_shift_member("ifftshift")


# ---- inspection ----------------------------------------------------------------


@_member("__array_namespace_info__")
def _info(space: Space) -> Callable:
    def __array_namespace_info__() -> Info:
        """The namespace's inspection object: capabilities, devices, dtypes."""
        return Info(space)

    return __array_namespace_info__
