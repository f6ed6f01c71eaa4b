"""FFT over given axes, convolution and grid sampling of the backend method list.

=====================================  ===============  ===================================
list method                            ``do`` name      why renamed
=====================================  ===============  ===================================
``fft(x, axes)``                       ``fft_axes``     ``fft`` is numpy's module
``ifft(k, axes)``                      ``ifft_axes``    ``fft.ifft`` is numpy's 1-D one
=====================================  ===============  ===================================

``conv`` and ``grid_sample`` keep the list's names and layouts: channels first
for ``conv`` ((batch, in, spatial...)), channels last for ``grid_sample``
((batch, spatial..., channels)). Both are written with ``take``/``einsum`` and
``batched_gather_nd``, so they run on every backend and under jit.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from dispatch._compose import composed
from dispatch._do import do
from dispatch._helpers import get_precision

# ---------------------------------------------------------------- fft


def _complex_dtype(x: Any) -> np.dtype:
    """Complex dtype for the FFT of ``x``: the current precision when one is set,
    else the width matching ``x`` (float32 -> complex64, float64 -> complex128)."""
    dt = do("dtype_of", x)
    if get_precision() is not None:
        return do("complex_type")
    if dt.kind == "c":
        return dt
    if dt.kind == "f":
        return np.dtype("complex128" if dt.itemsize >= 8 else "complex64")
    return do("complex_type")


@composed("fft_axes")
def fft_axes(x: Any, axes: Sequence[int]) -> Any:
    """n-dimensional FFT over ``axes``, as complex (the list's ``fft``).

    The result keeps a complex dtype of the input's width (numpy's ``fftn``
    always returns complex128). With empty ``axes``, ``x`` as complex.

    Examples
    --------
    >>> import numpy as np
    >>> do("fft_axes", np.ones((2, 2), "float32"), (0,))
    array([[2.+0.j, 2.+0.j],
           [0.+0.j, 0.+0.j]], dtype=complex64)
    """
    target = _complex_dtype(x)
    x = do("cast", x, target)
    if not axes:
        return x
    return do("cast", do("fft.fftn", x, axes=tuple(axes)), target)


@composed("ifft_axes")
def ifft_axes(k: Any, axes: Sequence[int]) -> Any:
    """n-dimensional inverse FFT over ``axes`` (the list's ``ifft``).

    Examples
    --------
    >>> import numpy as np
    >>> do("ifft_axes", np.array([2.0, 0.0]), (0,))
    array([1.+0.j, 1.+0.j])
    """
    target = _complex_dtype(k)
    k = do("cast", k, target)
    if not axes:
        return k
    return do("cast", do("fft.ifftn", k, axes=tuple(axes)), target)


# ---------------------------------------------------------------- conv

_OUT = "pqrstu"  # output position letters (einsum), one per spatial axis
_WIN = "defghj"  # kernel offset letters


def _pad_crop(x: Any, axis: int, before: int, after: int) -> Any:
    """Zero-pad (positive) or cut (negative) ``before``/``after`` entries of ``axis``."""
    nd = len(do("shape", x))
    if before > 0 or after > 0:
        width = [(0, 0)] * nd
        width[axis] = (max(before, 0), max(after, 0))
        x = do("pad", x, width, mode="constant", constant_values=0)
    if before < 0 or after < 0:
        n = do("shape", x)[axis]
        start, stop = max(-before, 0), n - max(-after, 0)
        x = x[(slice(None),) * axis + (slice(start, max(stop, start)),)]
    return x


def _upsample(x: Any, axis: int, s: int) -> Any:
    """Insert ``s - 1`` zeros between the entries of ``axis``."""
    if s == 1:
        return x
    shape = list(do("shape", x))
    n = shape[axis]
    z = do("zeros_like", x)
    y = do("stack", [x] + [z] * (s - 1), axis=axis + 1)
    y = do("reshape", y, (*shape[:axis], n * s, *shape[axis + 1 :]))
    return y[(slice(None),) * axis + (slice(0, max((n - 1) * s + 1, 0)),)]


def _windows(x: Any, axis: int, out: int, k: int, stride: int) -> Any:
    """Split ``axis`` (long enough) into (out, k) windows starting every ``stride``."""
    starts = np.arange(out) * stride
    idx = (starts[:, None] + np.arange(k)[None, :]).reshape(-1).astype(np.int64)
    shape = list(do("shape", x))
    taken = do("take", x, do("asarray", idx, like=x), axis=axis)
    return do("reshape", taken, (*shape[:axis], out, k, *shape[axis + 1 :]))


@composed("conv")
def conv(
    value: Any,
    kernel: Any,
    strides: int | Sequence[int] = 1,
    out_sizes: Sequence[int] | None = None,
    transpose: bool = False,
    zero_padding: bool = True,
) -> Any:
    """Batched 1/2/3-D convolution (cross-correlation, as in the ML libraries).

    Parameters
    ----------
    value : array, shape (batch, in_channels, spatial...)
    kernel : array, shape (batch or 1, out_channels, in_channels, kernel...)
    strides : int or one int per spatial axis
    out_sizes : sizes of the output's spatial axes, optional
        Default: ``ceil(n / stride)`` with ``zero_padding`` ('same'), else
        ``(n - k) // stride + 1`` ('valid'); transposed: ``n * stride``, or
        ``(n - 1) * stride + k``.
    transpose : bool
        The transposed convolution (the adjoint of the strided one with the
        same padding; the kernel is still indexed (out, in)).
    zero_padding : bool
        Pad ``k // 2`` zeros before each axis ('same', scipy's centring of even
        kernels) instead of none ('valid').

    Returns
    -------
    array, shape (batch, out_channels, out spatial...)

    Notes
    -----
    ``out[b, o, y] = sum_{i, m} value[b, i, y * s + m - p] * kernel[b, o, i, m]``
    with zeros outside ``value``. Memory is that of the unfolded windows
    (im2col): O(output size x kernel size x in_channels).

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([[[1.0, 2.0, 3.0]]])
    >>> do("conv", v, np.array([[[[1.0, 1.0, 1.0]]]]))
    array([[[3., 6., 5.]]])
    """
    vshape, kshape = do("shape", value), do("shape", kernel)
    d = len(vshape) - 2
    if len(kshape) != d + 3:
        raise ValueError(f"kernel must have {d + 3} dimensions for a {d}-D convolution")
    if kshape[2] != vshape[1]:
        raise ValueError(f"value has {vshape[1]} channels but kernel expects {kshape[2]}")
    strides = (strides,) * d if isinstance(strides, int) else tuple(strides)
    value, kernel = do("auto_cast", value, kernel, bool_to_int=True)
    ks = kshape[3:]
    pads = [k // 2 if zero_padding else 0 for k in ks]
    if out_sizes is None:
        out_sizes = [
            (n * s if zero_padding else (n - 1) * s + k) if transpose
            else (math.ceil(n / s) if zero_padding else max((n - k) // s + 1, 0))
            for n, k, s in zip(vshape[2:], ks, strides, strict=True)
        ]
    out_sizes = [int(o) for o in out_sizes]
    batch = vshape[0] if kshape[0] == 1 else kshape[0]
    if math.prod(vshape) == 0 or math.prod(out_sizes) == 0:  # nothing to sum: zeros
        return do("zeros", (batch, kshape[1], *out_sizes), dtype=do("dtype_of", value).name,
                  like=value)
    x = value
    if transpose:
        for i, s in enumerate(strides):
            x = _upsample(x, 2 + i, s)
        kernel = do("flip", kernel, axis=tuple(range(3, 3 + d)))
    for i in range(d):
        n, k, s, p, size = vshape[2 + i], ks[i], strides[i], pads[i], out_sizes[i]
        axis = 2 + 2 * i  # the spatial axes before it are already split in two
        if transpose:  # stride-1 correlation of the upsampled value with the flipped kernel
            before = k - 1 - p
            after = size + k - 1 - do("shape", x)[axis] - before
            step = 1
        else:
            before = p
            after = (size - 1) * s + k - n - p
            step = s
        x = _pad_crop(x, axis, before, after)
        x = _windows(x, axis, size, k, step)
    if vshape[0] != batch:
        x = do("broadcast_to", x, (batch, *do("shape", x)[1:]))
    spatial = "".join(o + w for o, w in zip(_OUT[:d], _WIN[:d], strict=True))
    if kshape[0] == 1:
        eq = f"bi{spatial},oi{_WIN[:d]}->bo{_OUT[:d]}"
        return do("einsum", eq, x, kernel[0])
    eq = f"bi{spatial},boi{_WIN[:d]}->bo{_OUT[:d]}"
    return do("einsum", eq, x, kernel)


# ---------------------------------------------------------------- grid_sample

_EXTRAPOLATIONS = ("undefined", "zeros", "boundary", "periodic", "symmetric", "reflect")


def _map_index(i: Any, n: int, mode: str) -> tuple[Any, Any]:
    """(index inside [0, n), validity mask or None) for integer positions ``i``."""
    if mode == "zeros":
        valid = (i >= 0) & (i < n)
        return do("clip", i, 0, n - 1), valid
    if mode == "periodic":
        return do("mod", i, n), None
    if mode == "symmetric":
        j = do("mod", i, 2 * n)
        return do("where", j >= n, 2 * n - 1 - j, j), None
    if mode == "reflect":
        if n == 1:
            return i * 0, None
        j = do("mod", i, 2 * n - 2)
        return do("where", j >= n, 2 * n - 2 - j, j), None
    return do("clip", i, 0, n - 1), None  # 'boundary' and 'undefined'


@composed("grid_sample")
def grid_sample(grid: Any, coordinates: Any, extrapolation: str = "undefined") -> Any:
    """Linear interpolation of a grid at fractional grid indices.

    Parameters
    ----------
    grid : array, shape (batch or 1, spatial..., channels)
    coordinates : float array, shape (batch or 1, instance..., d)
        Positions in grid indices: cell ``j`` of axis ``a`` is at ``j``.
    extrapolation : str
        Values outside the grid: 'zeros', 'boundary' (nearest edge value; also
        'undefined'), 'periodic', 'symmetric' (mirrored, edge repeated) or
        'reflect' (mirrored at the edge cell).

    Returns
    -------
    array, shape (batch, instance..., channels), floating

    Examples
    --------
    >>> import numpy as np
    >>> g = np.array([[0.0, 10.0, 20.0]])[..., None]
    >>> do("grid_sample", g, np.array([[[0.5], [2.5]]]), "zeros")[..., 0]
    array([[ 5., 10.]])
    """
    if extrapolation not in _EXTRAPOLATIONS:
        raise ValueError(f"extrapolation must be one of {_EXTRAPOLATIONS}, got {extrapolation!r}")
    gshape = do("shape", grid)
    spatial = gshape[1:-1]
    d = len(spatial)
    if do("shape", coordinates)[-1] != d:
        raise ValueError(f"coordinates have {do('shape', coordinates)[-1]} components for {d} axes")
    grid, coordinates = do("auto_cast", grid, coordinates, int_to_float=True)
    base = [do("floor", coordinates[..., a]) for a in range(d)]
    frac = [coordinates[..., a] - base[a] for a in range(d)]
    base = [do("cast", b, "int64") for b in base]
    out = None
    for corner in itertools.product((0, 1), repeat=d):
        weight: Any = None
        idx = []
        for a, bit in enumerate(corner):
            w = frac[a] if bit else 1 - frac[a]
            j, valid = _map_index(base[a] + bit, spatial[a], extrapolation)
            if valid is not None:
                w = do("where", valid, w, 0 * w)
            weight = w if weight is None else weight * w
            idx.append(j)
        values = do("batched_gather_nd", grid, do("stack", idx, axis=-1))
        term = values * weight[..., None]
        out = term if out is None else out + term
    return out
