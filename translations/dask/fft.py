"""dask: FFTs, lazy.

dask transforms only along axes held in a single chunk: the adapters rechunk
the transformed axes first (which changes no values).
"""

from __future__ import annotations

from typing import Any

import dask.array as da
from dask.array import Array
from dispatch.translations._keywords import host_place, takes_device
from dispatch.translations.dask._common import one_chunk

from dispatch.engine import merge_tables


def _fft_1d(name: str) -> Any:
    fn = getattr(da.fft, name)

    def fft_1d(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
        # dask transforms only along an axis held in a single chunk
        a = da.asarray(a)
        return fn(one_chunk(a, axis % a.ndim), n=n, axis=axis, norm=norm)

    fft_1d.__name__ = fft_1d.__qualname__ = f"_{name}"
    return fft_1d


def _fft_nd(name: str, default_axes: Any = None) -> Any:
    fn = getattr(da.fft, name)

    def fft_nd(a: Any, s: Any = None, axes: Any = default_axes, norm: str | None = None) -> Array:
        a = da.asarray(a)
        ax = axes
        if ax is None:
            ax = range(a.ndim) if s is None else range(a.ndim - len(s), a.ndim)
        ax = [i % a.ndim for i in ax]
        chunks = {i: -1 for i in ax}
        return fn(a.rechunk(chunks), s=s, axes=axes, norm=norm)

    fft_nd.__name__ = fft_nd.__qualname__ = f"_{name}"
    return fft_nd


def _fftshift(x: Any, axes: Any = None) -> Array:
    return da.fft.fftshift(da.asarray(x), axes=axes)


TABLE = merge_tables(
    {f"fft.{n}": _fft_1d(n) for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    {f"fft.{n}": _fft_nd(n) for n in ("fftn", "ifftn", "rfftn", "irfftn")},
    {f"fft.{n}": _fft_nd(n, (-2, -1)) for n in ("fft2", "ifft2", "rfft2", "irfft2")},
    {"fft.fftshift": _fftshift},
    # dask's frequencies take no device=: host arrays, device='cpu' is theirs
    {f"fft.{n}": takes_device(f"fft.{n}", getattr(da.fft, n), host_place("dask"))
     for n in ("fftfreq", "rfftfreq")},
    names=("1-d transforms", "n-d transforms", "2-d transforms", "fft", "frequencies"),
)
