"""numpy.fft: n, s, axes and norm on every backend."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import case, params

rng = np.random.default_rng(60)
V = rng.standard_normal(8)
V7 = rng.standard_normal(7)
A = rng.standard_normal((4, 6))
A3 = rng.standard_normal((2, 4, 6))
VC = rng.standard_normal(8) + 1j * rng.standard_normal(8)
AC = rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))
A32 = A.astype("float32")
HALF = np.fft.rfft(V)  # a Hermitian half spectrum for irfft
HALF2 = np.fft.rfftn(A)

CASES = []
for fn in ("fft", "ifft"):
    CASES += [
        case(f"fft.{fn}", V),
        case(f"fft.{fn}", VC),
        case(f"fft.{fn}", V7),
        case(f"fft.{fn}", V, n=12),
        case(f"fft.{fn}", V, 5),
        case(f"fft.{fn}", A),
        case(f"fft.{fn}", A, axis=0),
        case(f"fft.{fn}", AC, norm="ortho"),
        case(f"fft.{fn}", V, norm="forward"),
        case(f"fft.{fn}", V, norm="backward"),
        case(f"fft.{fn}", A32),
    ]
for fn in ("fft2", "ifft2", "fftn", "ifftn"):
    CASES += [
        case(f"fft.{fn}", A),
        case(f"fft.{fn}", AC),
        case(f"fft.{fn}", A3),
        case(f"fft.{fn}", A3, axes=(0, 2)),
        case(f"fft.{fn}", A, s=(3, 8), axes=(0, 1)),
        case(f"fft.{fn}", A, norm="ortho"),
    ]
CASES += [
    case("fft.fftn", A3, axes=(1,)),
    case("fft.fftn", A3, s=(2, 3), axes=(0, 1)),
    case("fft.rfft", V),
    case("fft.rfft", V7),
    case("fft.rfft", V, n=10),
    case("fft.rfft", A, axis=0),
    case("fft.rfft", A),
    case("fft.rfft", V, norm="ortho"),
    case("fft.rfft", A32),
    case("fft.irfft", HALF),
    case("fft.irfft", HALF, n=8),
    case("fft.irfft", HALF, n=7),
    case("fft.irfft", HALF, norm="ortho"),
    case("fft.irfft", np.fft.rfft(A, axis=0), axis=0),
    case("fft.rfftn", A),
    case("fft.rfftn", A3),
    case("fft.rfftn", A3, axes=(0, 2)),
    case("fft.rfftn", A, s=(4, 8), axes=(0, 1)),
    case("fft.fft2", A, s=(3, 8)),
    case("fft.rfftn", A, norm="ortho"),
    case("fft.irfftn", HALF2),
    case("fft.irfftn", HALF2, s=(4, 6), axes=(0, 1)),
    case("fft.irfftn", HALF2, s=(4, 7), axes=(-2, -1)),
    case("fft.irfftn", np.fft.rfftn(A3, axes=(0, 2)), axes=(0, 2)),
    case("fft.fftfreq", 8, _like=True, _dtype="kind"),
    case("fft.fftfreq", 7, d=0.1, _like=True, _dtype="kind"),
    case("fft.rfftfreq", 8, _like=True, _dtype="kind"),
    case("fft.rfftfreq", 9, 0.5, _like=True, _dtype="kind"),
    case("fft.fftshift", V),
    case("fft.fftshift", V7),
    case("fft.fftshift", A),
    case("fft.fftshift", A, axes=0),
    case("fft.fftshift", A3, axes=(1, 2)),
    case("fft.ifftshift", V7),
    case("fft.ifftshift", A),
    case("fft.ifftshift", A, axes=-1),
    case("fft.fftshift", AC),
]


# Hermitian transforms
CASES += [
    case("fft.hfft", VC),
    case("fft.hfft", V),
    case("fft.hfft", HALF),
    case("fft.hfft", VC, n=10),
    case("fft.hfft", VC, 7),
    case("fft.hfft", AC, axis=0),
    case("fft.hfft", AC, norm="ortho"),
    case("fft.hfft", VC, norm="forward"),
    case("fft.hfft", VC.astype("complex64")),
    case("fft.ihfft", V),
    case("fft.ihfft", V7),
    case("fft.ihfft", V, n=6),
    case("fft.ihfft", A, axis=0),
    case("fft.ihfft", A, norm="ortho"),
    case("fft.ihfft", V, norm="backward"),
    case("fft.ihfft", V, norm="forward"),
    case("fft.ihfft", A32),
]

@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_fft(name, c, backend):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(CASES))
def test_inputs_not_mutated(name, c, backend):
    c.run_not_mutated(backend)
