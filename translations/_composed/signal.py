"""Convolution, grid sampling and numpy's 1-D signal functions, written once with ``do``.

``conv`` and ``grid_sample`` keep the backend method list's names and layouts:
channels first for ``conv`` ((batch, in, spatial...)), channels last for
``grid_sample`` ((batch, spatial..., channels)). Both are written with
``take``/``einsum`` and ``batched_gather_nd``, so they run on every backend and
under jit. numpy's ``correlate``, ``convolve`` and ``interp`` follow. The list's
FFT over given axes (``fft_axes``, ``ifft_axes``) is in :mod:`.fft`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from dispatch.translations._composed.reductions import (
    default_float,
    real_dtype_name,
    result_dtype_name,
)

from dispatch.engine import composed, do, is_array

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


# ---------------------------------------------------------------- numpy's 1-D signal functions

_MODES = ("valid", "same", "full")


def _vector(x: Any, like: Any, what: str, scalar: bool = True) -> Any:
    """``x`` as a 1-D array (with ``scalar``, a 0-d one as length 1, as convolve
    reads it); empty is an error."""
    if not is_array(x):
        x = do("asarray", x) if like is None else do("asarray", x, like=like)
    if do("ndim", x) == 0:
        if not scalar:
            raise ValueError("object of too small depth for desired array")
        x = do("reshape", x, (1,))
    elif do("ndim", x) != 1:
        raise ValueError("object too deep for desired array")
    if do("shape", x)[0] == 0:
        raise ValueError(f"{what} cannot be empty")
    return x


def _sliding(a: Any, v: Any, mode: str) -> Any:
    """``out[i] = sum_j a_padded[i + j] * v[j]`` for ``len(a) >= len(v)``, with
    numpy's padding per mode; one shifted product per element of ``v``."""
    n, m = do("shape", a)[0], do("shape", v)[0]
    common = np.result_type(do("dtype_of", a), do("dtype_of", v))
    a, v = do("cast", a, common), do("cast", v, common)  # tensorflow does not promote
    if mode == "full":
        left, right = m - 1, m - 1
    elif mode == "same":
        left, right = m // 2, m - 1 - m // 2
    else:
        left, right = 0, 0
    if left or right:
        a = do("pad", a, (left, right))
    length = n + left + right - m + 1
    out = None
    for j in range(m):
        term = a[j : j + length] * v[j]
        out = term if out is None else out + term
    return out


def _mode(mode: Any) -> str:
    if mode not in _MODES:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    return mode


@composed("correlate")
def correlate(a: Any, v: Any, mode: str = "valid") -> Any:
    """Cross-correlation of two 1-D sequences, numpy's ``correlate``:
    ``c[k] = sum_n a[n + k] * conj(v[n])``.

    All three modes ('valid', 'same', 'full'), with numpy's alignment when ``v``
    is longer than ``a`` (computed with the two swapped, then reversed).
    Limit: O(len(a) * len(v)) work as min(len(a), len(v)) shifted products
    (a Python loop): fine for kernels, slow when both inputs are long.

    Examples
    --------
    >>> import numpy as np
    >>> do("correlate", np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]), "full")
    array([0.5, 2. , 3.5, 3. , 0. ])
    """
    mode = _mode(mode)
    ref = a if is_array(a) else v if is_array(v) else None
    a = _vector(a, ref, "first array argument", scalar=False)
    v = _vector(v, ref, "second array argument", scalar=False)
    def conj(x: Any) -> Any:
        return do("conj", x) if do("dtype_of", x).kind == "c" else x

    if do("shape", v)[0] > do("shape", a)[0]:
        # numpy swaps and reverses: sum conj(v)[i + j] a[j] = conj(sum v[i + j] conj(a)[j]);
        # only the operand that is not padded is conjugated (pydata sparse pads a
        # conjugated array badly: its fill value -0j differs from the padding's 0j)
        return do("flip", conj(_sliding(v, conj(a), mode)), axis=0)
    return _sliding(a, conj(v), mode)


@composed("convolve")
def convolve(a: Any, v: Any, mode: str = "full") -> Any:
    """Discrete linear convolution of two 1-D sequences, numpy's ``convolve``:
    ``c[k] = sum_n a[n] * v[k - n]``.

    All three modes ('full', 'same', 'valid'); the inputs are swapped when ``v``
    is longer than ``a``, as numpy does. No conjugation.
    Limit: O(len(a) * len(v)) work as min(len(a), len(v)) shifted products
    (a Python loop): fine for kernels, slow when both inputs are long.

    Examples
    --------
    >>> import numpy as np
    >>> do("convolve", np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]))
    array([0. , 1. , 2.5, 4. , 1.5])
    >>> do("convolve", np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]), "same")
    array([1. , 2.5, 4. ])
    """
    mode = _mode(mode)
    ref = a if is_array(a) else v if is_array(v) else None
    a, v = _vector(a, ref, "a"), _vector(v, ref, "v")
    if do("shape", v)[0] > do("shape", a)[0]:
        a, v = v, a
    return _sliding(a, do("flip", v, axis=0), mode)


def _interp_real(x: Any, xp: Any, fp: Any, left: Any, right: Any) -> Any:
    """numpy's interp for real ``fp`` (``xp`` increasing, at least 2 points)."""
    n = do("shape", xp)[0]
    j = do("searchsorted", xp, x, side="right") - 1  # the last xp[j] <= x
    j = do("clip", j, 0, n - 2)
    x0, x1 = do("take", xp, j), do("take", xp, j + 1)
    f0, f1 = do("take", fp, j), do("take", fp, j + 1)
    slope = (f1 - f0) / (x1 - x0)
    out = slope * (x - x0) + f0
    # as numpy: where an infinite fp gives nan from one side, try the other side
    out = do("where", do("isnan", out), slope * (x - x1) + f1, out)
    out = do("where", do("isnan", out) & (f0 == f1), f0, out)
    out = do("where", x == x0, f0, out)  # exact sample points (duplicates in xp included)
    out = do("where", x == xp[n - 1], fp[n - 1], out)
    out = do("where", x < xp[0], fp[0] if left is None else left, out)
    out = do("where", x > xp[n - 1], fp[n - 1] if right is None else right, out)
    return do("where", do("isnan", x), x, out)


def _interp_one(x: Any, xp: Any, fp: Any, left: Any, right: Any) -> Any:
    """numpy's interp with a single sample point: left, fp[0] or right (also for
    nan ``x``, as numpy)."""
    inside = do("where", x > xp[0], fp[0] if right is None else right, fp[0])
    return do("where", x < xp[0], fp[0] if left is None else left, inside)


def _part(value: Any, name: str) -> Any:
    if value is None:
        return None
    return do(name, value) if is_array(value) else getattr(complex(value), name)


@composed("interp")
def interp(
    x: Any,
    xp: Any,
    fp: Any,
    left: Any = None,
    right: Any = None,
    period: Any = None,
) -> Any:
    """One-dimensional linear interpolation, numpy's ``interp``.

    ``left``/``right`` (default ``fp[0]``/``fp[-1]``) outside ``xp``; with
    ``period``, ``x`` and ``xp`` are taken modulo it (``left``/``right`` are then
    ignored). Exact at the sample points, nan for nan ``x``, complex ``fp``
    interpolated part by part, as in numpy. Composed of ``searchsorted``,
    ``take`` and ``where``: eager arrays and lazy ``x`` stay as they are.

    Limits: ``xp`` must be increasing (not checked, as in numpy); the result
    keeps the inputs' floating dtype (numpy always returns float64 or
    complex128); a ``period`` sorts ``xp`` with ``argsort``.

    Examples
    --------
    >>> import numpy as np
    >>> xp, fp = np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 0.0])
    >>> do("interp", np.array([0.0, 1.5, 2.72, 4.0]), xp, fp)
    array([3.  , 2.5 , 0.56, 0.  ])
    >>> do("interp", np.array([0.0, 4.0]), xp, fp, left=-1.0, right=9.0)
    array([-1.,  9.])
    """
    ref = next((v for v in (x, xp, fp) if is_array(v)), None)

    def arr(v: Any) -> Any:
        if is_array(v):
            return v
        return do("asarray", v) if ref is None else do("asarray", v, like=ref)

    x, xp, fp = arr(x), arr(xp), arr(fp)
    if do("ndim", xp) != 1 or do("ndim", fp) != 1:
        raise ValueError("Data points must be 1-D sequences")
    n = do("shape", xp)[0]
    if do("shape", fp)[0] != n:
        raise ValueError("fp and xp are not of the same length.")
    if n == 0:
        raise ValueError("array of sample points is empty")
    # one floating dtype for all (integers as the library's default float, numpy's
    # float64 on numpy: docs/vocabulary.md; tensorflow does not promote mixed operands)
    kinds = [do("dtype_of", v) for v in (x, xp, fp)]
    floats = [default_float(x)] if all(k.kind in "biu" for k in kinds) else kinds
    real = real_dtype_name(
        result_dtype_name(*["float64" if k.kind in "biu" else k for k in floats])
    )
    x, xp = do("cast", x, real), do("cast", xp, real)
    fp = do("cast", fp, result_dtype_name(real, "complex64") if kinds[2].kind == "c" else real)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x, xp = do("mod", x, period), do("mod", xp, period)
        order = do("argsort", xp)
        xp, fp = do("take", xp, order), do("take", fp, order)
        xp = do("concatenate", [xp[n - 1 :] - period, xp, xp[:1] + period])
        fp = do("concatenate", [fp[n - 1 :], fp, fp[:1]])
    one = _interp_one if do("shape", xp)[0] == 1 else _interp_real
    if do("dtype_of", fp).kind != "c":
        return one(x, xp, fp, left, right)
    re = one(x, xp, do("real", fp), _part(left, "real"), _part(right, "real"))
    im = one(x, xp, do("imag", fp), _part(left, "imag"), _part(right, "imag"))
    return do("complex", re, im)


# ---------------------------------------------------------------- frames (keras.ops)


def _frames(n: int, sequence_length: Any, sequence_stride: Any) -> tuple[int, int, int]:
    """``(count, length, stride)`` of the frames of a last axis of length ``n``."""
    length, stride = int(sequence_length), int(sequence_stride)
    if length < 1 or stride < 1:
        raise ValueError("extract_sequences: sequence_length and sequence_stride must be "
                         f">= 1; got {sequence_length} and {sequence_stride}")
    return ((n - length) // stride + 1 if n >= length else 0), length, stride


@composed("extract_sequences")
def extract_sequences(x: Any, sequence_length: int, sequence_stride: int) -> Any:
    """The frames of the last axis: ``out[..., i, j] = x[..., i * sequence_stride + j]``,
    of shape ``(*x.shape[:-1], count, sequence_length)`` with
    ``count = (n - sequence_length) // sequence_stride + 1`` whole frames (none when the
    axis is shorter than a frame; no padding).

    Examples
    --------
    >>> import numpy as np
    >>> do("extract_sequences", np.arange(6), 3, 2)
    array([[0, 1, 2],
           [2, 3, 4]])
    """
    shape = tuple(do("shape", x))
    if not shape:
        raise ValueError("extract_sequences takes an array of at least one axis")
    count, length, stride = _frames(shape[-1], sequence_length, sequence_stride)
    index = (do("arange", count, dtype="int64", like=x)[:, None] * stride
             + do("arange", length, dtype="int64", like=x)[None, :])
    return do("take", x, index, axis=-1)
