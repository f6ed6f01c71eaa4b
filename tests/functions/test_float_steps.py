"""``spacing`` and ``nextafter`` give numpy's steps, bit for bit, in every float width.

numpy's float16 loops differ from its wider ones, and every library's kernels follow
the wider rule:

- ``spacing`` of a negative float16 steps toward +inf (``spacing(-2.0)`` is
  +9.766e-04; float32 gives -2.384e-07), and is nan at +-inf;
- ``nextafter(x1, x2)`` with ``x1 == x2`` is ``x1`` in float16 (+0.0 toward -0.0
  stays +0.0) and ``x2`` in the wider loops.

The first run of this walk found those on torch, jax, mlx and tensorflow (whose
float16 ``spacing`` raised), and paddle's float16 ``nextafter`` and ``spacing``
computed in float32 and cast back: ``nextafter(1.0, 0.0)`` stayed 1.0.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import BOXED_BACKENDS, missing_dtype_skips, to_backend, usable_backends

import dispatch
from dispatch import do

X = [1.0, 0.0, -0.0, -2.0, np.inf, -np.inf, np.nan, 65504.0, -65504.0, 6e-8, -6e-8, 3.0, 0.0]
Y = [0.0, 1.0, -1.0, -3.0, 0.0, np.inf, 1.0, np.inf, 0.0, 0.0, 0.0, 3.0, -0.0]


def _same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal values and zero signs (a nan's sign is no part of its value)."""
    nan = np.isnan(want)
    return (
        got.dtype == want.dtype
        and np.array_equal(np.isnan(got), nan)
        and np.array_equal(got[~nan], want[~nan])
        and np.array_equal(np.signbit(got[~nan]), np.signbit(want[~nan]))
    )


@pytest.mark.parametrize("backend", usable_backends(vocabulary=True))
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", ["spacing", "nextafter"])
def test_steps_are_numpys_bit_for_bit(name: str, dtype: str, backend: str) -> None:
    with np.errstate(all="ignore"):
        x, y = np.array(X, dtype), np.array(Y, dtype)
        args = (x,) if name == "spacing" else (x, y)
        want = getattr(np, name)(*args)
    with missing_dtype_skips(backend):
        arrays = [to_backend(a, backend) for a in args]
    out = do(name, *arrays)
    # autograd: spacing is piecewise constant, so no box (numpy's array) comes back
    assert dispatch.infer_backend(out) in {backend, *("numpy",) * (backend in BOXED_BACKENDS)}
    got = np.asarray(dispatch.to_numpy(out))
    assert _same_bits(got, want), f"{name} {dtype} on {backend}:\n{got}\nnumpy:\n{want}"
