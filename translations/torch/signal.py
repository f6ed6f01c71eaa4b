"""torch: the backend method list's FFT over axes, convolutions and grid sampling.

``conv`` runs ``torch.nn.functional.conv*d`` (and ``conv_transpose*d``) with the
composed ``conv``'s padding, per-entry kernels becoming one grouped convolution;
``grid_sample`` runs ``torch.nn.functional.grid_sample`` with the composed
version's coordinates and extrapolation modes. Dimensions torch has no kernel
for go to the composed versions (``translations/_composed/signal.py``). torch's
layers are channels first (``prefers_channels_last`` is False).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from dispatch.translations._composed._common import _combined as _combined_size
from dispatch.translations._composed.signal import conv as _conv_composed
from dispatch.translations._composed.signal import grid_sample as _grid_sample_composed
from dispatch.translations.torch._common import _float_type, _ints, _tensor
from torch import Tensor


def _complex_of(x: Tensor) -> Tensor:
    # the composed fft_axes' dtype: complex of the current precision when one is set,
    # else of the input's width (integers: complex64, the default precision's)
    from dispatch.engine import get_precision

    bits = get_precision()
    if bits is not None:
        target = torch.complex128 if bits > 32 else torch.complex64
    elif x.is_complex():
        return x
    else:
        target = torch.complex128 if x.dtype is torch.float64 else torch.complex64
    return x if x.dtype is target else x.to(target)


def _fft_axes(x: Tensor, axes: Sequence[int]) -> Tensor:
    """The list's ``fft``: n-d FFT over ``axes`` (complex result, even for no axes)."""
    x = _complex_of(x)
    return torch.fft.fftn(x, dim=tuple(axes)) if len(axes) else x


def _ifft_axes(k: Tensor, axes: Sequence[int]) -> Tensor:
    k = _complex_of(k)
    return torch.fft.ifftn(k, dim=tuple(axes)) if len(axes) else k


_CONV = {1: torch.nn.functional.conv1d, 2: torch.nn.functional.conv2d,
         3: torch.nn.functional.conv3d}
_CONV_T = {1: torch.nn.functional.conv_transpose1d, 2: torch.nn.functional.conv_transpose2d,
           3: torch.nn.functional.conv_transpose3d}


def _conv(value: Tensor, kernel: Any, strides: Any = 1, out_sizes: Any = None,
          transpose: bool = False, zero_padding: bool = True) -> Tensor:
    # torch.nn.functional.conv*d with the composed ``conv``'s padding: k // 2 zeros
    # before each axis ('same', scipy's centring of even kernels) or none, and as many
    # after as ``out_sizes`` needs (negative: cut); the transposed convolution is
    # conv_transpose*d cut the same way. Per-entry kernels become a grouped convolution.
    kernel = _tensor(kernel, value)
    d = value.ndim - 2
    if kernel.ndim != d + 3:
        raise ValueError(f"kernel must have {d + 3} dimensions for a {d}-D convolution")
    if kernel.shape[2] != value.shape[1]:
        raise ValueError(f"value has {value.shape[1]} channels but kernel expects "
                         f"{kernel.shape[2]}")
    if d not in _CONV:  # torch has 1-, 2- and 3-D convolutions only
        return _conv_composed(value, kernel, strides, out_sizes, transpose, zero_padding)
    s = [int(strides)] * d if np.ndim(strides) == 0 else [int(v) for v in strides]
    n, k = list(_ints(value.shape[2:])), list(_ints(kernel.shape[3:]))
    before = [kk // 2 if zero_padding else 0 for kk in k]
    if out_sizes is None:
        if transpose:
            o = [i * st if zero_padding else (i - 1) * st + kk
                 for i, st, kk in zip(n, s, k, strict=True)]
        else:
            o = [-(-i // st) if zero_padding else max((i - kk) // st + 1, 0)
                 for i, st, kk in zip(n, s, k, strict=True)]
    else:
        o = [int(v) for v in out_sizes]
    out_dtype = torch.result_type(value, kernel)
    if out_dtype is torch.bool:
        out_dtype = torch.int64
    if 0 in n or min(o, default=1) <= 0:  # no input or no output positions: zeros
        return torch.zeros(_combined_size(int(value.shape[0]), int(kernel.shape[0])),
                           int(kernel.shape[1]), *(max(v, 0) for v in o), dtype=out_dtype,
                           device=value.device)
    work = out_dtype if out_dtype.is_floating_point or out_dtype.is_complex else torch.float64
    x, w = value.to(work), kernel.to(work)
    batch, cin, cout, kbatch = int(x.shape[0]), int(x.shape[1]), int(w.shape[1]), int(w.shape[0])
    grouped = kbatch != 1
    if grouped:  # one kernel per batch entry: a grouped convolution over the batch
        if batch == 1:
            x = x.expand(kbatch, *x.shape[1:])
        batch = _combined_size(batch, kbatch)
        x = x.reshape(1, batch * cin, *n)
    groups = batch if grouped else 1
    if not transpose:
        after = [(oo - 1) * st + kk - i - b
                 for oo, st, kk, i, b in zip(o, s, k, n, before, strict=True)]
        x = torch.nn.functional.pad(
            x, [p for b, a in zip(reversed(before), reversed(after), strict=True) for p in (b, a)]
        )
        w = w.reshape(batch * cout, cin, *k) if grouped else w[0]
        out = _CONV[d](x, w, stride=s, groups=groups)
    else:  # conv_transpose weights are (in, out, k...)
        w = w.transpose(1, 2).reshape(batch * cin, cout, *k) if grouped else w[0].transpose(0, 1)
        out = _CONV_T[d](x, w, stride=s, groups=groups)  # full length (n - 1) * s + k
        after = [(i - 1) * st + kk - b - oo
                 for i, st, kk, b, oo in zip(n, s, k, before, o, strict=True)]
        out = torch.nn.functional.pad(
            out, [-p for b, a in zip(reversed(before), reversed(after), strict=True)
                  for p in (b, a)]
        )
    out = out.reshape(batch, cout, *out.shape[2:])
    return out if work is out_dtype else out.round().to(out_dtype)


_GRID_PADDING = {"zeros": "zeros", "boundary": "border", "undefined": "border",
                 "reflect": "reflection", "symmetric": "reflection", "periodic": "border"}


def _grid_sample(grid: Tensor, coordinates: Any, extrapolation: str = "undefined") -> Tensor:
    # torch.nn.functional.grid_sample wants channels first, coordinates normalised to
    # [-1, 1] in reversed axis order (x, y, z), 2 or 3 spatial axes and one batch size;
    # align_corners=True puts -1 and 1 on the first and last grid points. Its 'zeros'
    # padding interpolates linearly towards zero beyond the edge, like the composed
    # version; 'symmetric' is its reflection about the outer cell edges
    # (align_corners=False), 'reflect' its reflection about the edge points, 'periodic'
    # the grid with its first slice appended and wrapped coordinates. No second
    # derivative (torch defines none for grid_sample).
    if extrapolation not in _GRID_PADDING:
        raise ValueError(f"extrapolation must be one of {tuple(_GRID_PADDING)}, "
                         f"got {extrapolation!r}")
    coordinates = _tensor(coordinates, grid)
    d = grid.ndim - 2
    if coordinates.shape[-1] != d:
        raise ValueError(f"coordinates have {coordinates.shape[-1]} components for {d} axes")
    if d not in (1, 2, 3):
        return _grid_sample_composed(grid, coordinates, extrapolation)
    dtype = torch.result_type(grid, coordinates)
    if not (dtype.is_floating_point or dtype.is_complex):
        dtype = _float_type()
    grid = grid.to(dtype)
    real = grid.real.dtype if grid.is_complex() else grid.dtype
    c = coordinates.to(real)
    batch = _combined_size(int(grid.shape[0]), int(c.shape[0]))
    instance = _ints(c.shape[1:-1])
    sizes = list(_ints(grid.shape[1:-1]))
    if extrapolation == "periodic":
        for ax in range(d):
            grid = torch.cat([grid, grid.narrow(ax + 1, 0, 1)], dim=ax + 1)
        c = torch.remainder(c, torch.tensor(sizes, dtype=real, device=c.device))
        sizes = [m + 1 for m in sizes]
    n = torch.tensor(sizes, dtype=real, device=c.device)
    if extrapolation == "symmetric":
        norm = (2 * c + 1) / n - 1
    else:
        norm = 2 * c / torch.clamp(n - 1, min=1) - 1
    norm = norm.flip(-1).reshape(c.shape[0], -1, *([1] * (d - 1)), d)
    img = torch.movedim(grid, -1, 1)
    if d == 1:  # as a 2-D grid of height 1
        img, norm = img.unsqueeze(2), torch.cat([norm, torch.zeros_like(norm)], -1)[:, :, None]
    img = img.expand(batch, *img.shape[1:])
    norm = norm.expand(batch, *norm.shape[1:])
    sample = functools.partial(
        torch.nn.functional.grid_sample, mode="bilinear",
        padding_mode=_GRID_PADDING[extrapolation],
        align_corners=extrapolation != "symmetric",
    )
    if img.is_complex():
        out = torch.complex(sample(img.real, norm), sample(img.imag, norm))
    else:
        out = sample(img, norm)
    out = torch.movedim(out.reshape(batch, out.shape[1], -1), 1, -1)
    return out.reshape(batch, *instance, out.shape[-1])


def _prefers_channels_last() -> bool:
    return False  # torch.nn layers are channels first



def _extract_sequences(x: Any, sequence_length: int, sequence_stride: int) -> Any:
    # Tensor.unfold: the frames of the last axis as a view (keras's extract_sequences)
    if isinstance(x, Tensor) and x.ndim and isinstance(sequence_length, int) \
            and isinstance(sequence_stride, int) and 1 <= sequence_length <= x.shape[-1] \
            and sequence_stride >= 1:
        return x.unfold(-1, sequence_length, sequence_stride)
    from dispatch.translations._composed.signal import extract_sequences

    return extract_sequences(x, sequence_length, sequence_stride)

TABLE = {
    "extract_sequences": _extract_sequences,
    "fft_axes": _fft_axes,
    "ifft_axes": _ifft_axes,
    "conv": _conv,
    "grid_sample": _grid_sample,
    "prefers_channels_last": _prefers_channels_last,
}
