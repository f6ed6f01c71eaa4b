"""torch: ``numpy.fft``, with torch.fft's own functions.

The 1-D transforms take numpy's ``axis`` natively; the n-D ones (and the shifts)
call ``axes`` ``dim``, renamed by :func:`alias`. ``fft.hfft`` and ``fft.ihfft``
are torch's. The backend method list's ``fft_axes`` is in :mod:`.signal`.
"""

from __future__ import annotations

from dispatch.engine import alias

TABLE = {
    # fft: 1-D transforms take numpy's ``axis`` natively; n-D ones call ``axes`` ``dim``
    "fft.fft": "fft.fft",
    "fft.ifft": "fft.ifft",
    "fft.rfft": "fft.rfft",
    "fft.irfft": "fft.irfft",
    "fft.hfft": "fft.hfft",
    "fft.ihfft": "fft.ihfft",
    "fft.fft2": alias("fft.fft2", axes="dim"),
    "fft.ifft2": alias("fft.ifft2", axes="dim"),
    "fft.rfft2": alias("fft.rfft2", axes="dim"),
    "fft.irfft2": alias("fft.irfft2", axes="dim"),
    "fft.fftn": alias("fft.fftn", axes="dim"),
    "fft.ifftn": alias("fft.ifftn", axes="dim"),
    "fft.rfftn": alias("fft.rfftn", axes="dim"),
    "fft.irfftn": alias("fft.irfftn", axes="dim"),
    "fft.fftfreq": "fft.fftfreq",
    "fft.rfftfreq": "fft.rfftfreq",
    "fft.fftshift": alias("fft.fftshift", axes="dim"),
    "fft.ifftshift": alias("fft.ifftshift", axes="dim"),
}
