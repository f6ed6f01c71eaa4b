"""jax's FFTs: its own ``hfft``/``ihfft`` and the backend method list's n-d
``fft_axes``/``ifft_axes`` with the composed versions' complex dtype."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
from dispatch.translations.jax.devices import _device_named

from dispatch.engine import NATIVE


def _complex_of(x: Any) -> Any:
    # the composed fft_axes' dtype: complex of the current precision when one is set,
    # else of the input's width (integers: complex of the default float)
    from dispatch.engine import get_precision

    bits = get_precision()
    if bits is not None:
        target = jnp.complex128 if bits > 32 else jnp.complex64
    elif jnp.iscomplexobj(x):
        return x
    else:
        target = jnp.complex128 if x.dtype == jnp.float64 else jnp.complex64
    return x.astype(jax.dtypes.canonicalize_dtype(target))


def _fft_axes(x: Any, axes: Any) -> Any:
    """The list's ``fft``: n-d FFT over ``axes`` (complex result, even for no axes)."""
    x = _complex_of(jnp.asarray(x))
    return jnp.fft.fftn(x, axes=tuple(axes)) if len(axes) else x


def _ifft_axes(k: Any, axes: Any) -> Any:
    k = _complex_of(jnp.asarray(k))
    return jnp.fft.ifftn(k, axes=tuple(axes)) if len(axes) else k


TABLE = {
    "fft_axes": _fft_axes,
    "ifft_axes": _ifft_axes,
    # jax's own beat the composed fallbacks of translations/_composed/
    "fft.hfft": NATIVE,
    "fft.ihfft": NATIVE,
    # jax's take jax's devices only: dispatch's device names too
    "fft.fftfreq": _device_named("fft.fftfreq", jnp.fft.fftfreq),
    "fft.rfftfreq": _device_named("fft.rfftfreq", jnp.fft.rfftfreq),
}
