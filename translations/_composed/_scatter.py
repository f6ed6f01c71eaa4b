"""The scatter layout of the backend method list and its composed kernel.

:func:`scatter_layout` reads and checks the layout, :func:`unbatched_forms`
rewrites the unbatched forms (numpy's ``add.at`` indices) as the batched
layout, and :func:`_scatter` flattens every batch, spatial and channel position
into one 1-D target index for ``scatter_1d_scalar``. The composed ``scatter``
(:mod:`.indexing`) is ``unbatched_forms(_scatter)``; the libraries' native
scatters (``translations/<library>/indexing.py``, ``translations/numpy.py``)
check their modes and shapes here and wrap their batched kernels in
``unbatched_forms``, so every ``scatter`` takes the same forms and raises the
same errors.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from dispatch.translations._composed._common import _arange, _combined, _ravel

from dispatch.engine import do, is_array

_MODES = ("update", "add", "max", "min")


def _check_mode(mode: str) -> None:
    if mode not in _MODES:
        raise ValueError(f"scatter mode must be one of {_MODES}, got {mode!r}")


def scatter_layout(
    bshape: Sequence[int], ishape: Sequence[int], vshape: Sequence[int]
) -> tuple[tuple[int, ...], int, int, int]:
    """``(spatial, channels, n, batch)`` of a scatter's shapes, or the layout error.

    The list's layout: base (batch, spatial..., channels), indices (batch, n, d) with
    d the number of spatial axes, values (batch, n, channels); each batch axis is 1 or
    the common size. Every library's ``scatter`` checks its shapes here.

    >>> scatter_layout((2, 5, 3), (1, 4, 1), (2, 4, 3))
    ((5,), 3, 4, 2)
    """
    if len(bshape) < 2 or len(ishape) != 3 or len(vshape) != 3:
        raise ValueError(
            f"scatter needs base (batch, spatial..., channels), indices (batch, n, d), "
            f"values (batch, n, channels); got shapes {tuple(bshape)}, {tuple(ishape)}, "
            f"{tuple(vshape)} (unbatched: indices (m,) into the base's first axis, or (m, d) "
            "index tuples into its first d axes)"
        )
    spatial, channels, n = tuple(bshape[1:-1]), bshape[-1], ishape[1]
    if ishape[2] != len(spatial):
        raise ValueError(f"indices have {ishape[2]} components for {len(spatial)} spatial axes")
    return spatial, channels, n, _combined(bshape[0], ishape[0], vshape[0])


def unbatched_forms(kernel: Callable[..., Any]) -> Callable[..., Any]:
    """A library's batched ``scatter`` kernel that also takes the unbatched forms.

    Indices of shape (m,) index the first axis of the base; indices of shape (m, d)
    are index tuples into its first d axes; values then have shape (m, *rest) (or
    broadcast to it), where rest are the base's remaining axes. These are rewritten
    as the batched layout (one batch, the remaining axes as channels) and the result
    has the base's shape. Indices of shape (batch, n, d) go to ``kernel`` unchanged.
    """

    @functools.wraps(kernel)
    def scatter(base_grid: Any, indices: Any, values: Any, mode: str = "update") -> Any:
        try:
            ind = len(indices.shape)
        except AttributeError:
            ind = len(do("shape", indices))
        if ind == 3 or ind not in (1, 2):  # the batched layout, or its error
            return kernel(base_grid, indices, values, mode)
        bshape, ishape = tuple(do("shape", base_grid)), tuple(do("shape", indices))
        m, d = ishape[0], 1 if ind == 1 else ishape[1]
        if d > len(bshape) or (ind == 1 and not bshape):
            raise ValueError(
                f"scatter: indices of shape {ishape} index {d} axes, but the base has shape "
                f"{bshape}"
            )
        rest = bshape[d:]
        channels = math.prod(rest)
        if not is_array(values):
            values = do("asarray", values, like=base_grid)
        if tuple(do("shape", values)) != (m, *rest):
            values = do("broadcast_to", values, (m, *rest))
        out = kernel(
            do("reshape", base_grid, (1, *bshape[:d], channels)),
            do("reshape", indices, (1, m, d)),
            do("reshape", values, (1, m, channels)),
            mode,
        )
        return do("reshape", out, bshape)

    return scatter


def _scatter(base_grid: Any, indices: Any, values: Any, mode: str = "update") -> Any:
    """Scatter into a copy of ``base_grid``: batched n-d, or numpy's ``add.at`` forms.

    Parameters
    ----------
    base_grid : array, shape (batch, spatial..., channels), or any shape
    indices : int array, shape (batch or 1, n, d), d = number of spatial axes
        The batched layout. Or, unbatched: shape (m,), indices into the first axis
        of the base, or (m, d), index tuples into its first d axes.
        Indices must lie inside the grid (negative or too large: undefined).
    values : array, shape (batch or 1, n or 1, channels or 1)
        Cast to the dtype of ``base_grid``. With unbatched indices: shape
        (m, *rest) or broadcastable to it, rest being the base's remaining axes.
    mode : {'update', 'add', 'max', 'min'}
        ``'add'`` sums duplicate indices; ``'max'``/``'min'`` include the base
        values; ``'update'`` keeps one of the duplicates (numpy and the composed
        kernel keep the last, other libraries do not specify which).

    Returns
    -------
    array, shape (batch, spatial..., channels)
        A new array; the inputs are not modified.

    Examples
    --------
    >>> import numpy as np
    >>> base = np.zeros((1, 4, 1))
    >>> idx = np.array([[[1], [3], [1]]])
    >>> do("scatter", base, idx, np.ones((1, 3, 1)), mode="add")[0, :, 0]
    array([0., 2., 0., 1.])

    The unbatched forms give what numpy's ``np.add.at(base, idx, values)``
    (torch's ``base.index_add(0, idx, values)``) gives for ``mode="add"``:

    >>> do("scatter", np.zeros(4), np.array([1, 3, 1]), np.ones(3), mode="add")
    array([0., 2., 0., 1.])
    >>> do("scatter", np.zeros((2, 3)), np.array([[0, 1], [1, 2]]), np.array([5.0, 7.0]))
    array([[0., 5., 0.],
           [0., 0., 7.]])
    """
    _check_mode(mode)
    bshape, ishape, vshape = do("shape", base_grid), do("shape", indices), do("shape", values)
    spatial, channels, n, batch = scatter_layout(bshape, ishape, vshape)
    cells = math.prod(spatial)
    flat = _ravel(indices, spatial)  # (batch or 1, n)
    if batch > 1:
        flat = flat + do("reshape", _arange(batch, flat) * cells, (batch, 1))
    if channels > 1:
        flat = do("reshape", flat, (batch, n, 1)) * channels + _arange(channels, flat)
    entries = batch * n * channels
    target = do("reshape", flat, (entries,))
    if do("shape", values) != (batch, n, channels):
        values = do("broadcast_to", values, (batch, n, channels))
    values = do("reshape", values, (entries,))
    base = base_grid
    if bshape[0] != batch:
        base = do("broadcast_to", base, (batch, *bshape[1:]))
    flat_base = do("reshape", base, (batch * cells * channels,))
    out = do("scatter_1d_scalar", flat_base, target, values, mode)
    return do("reshape", out, (batch, *bshape[1:]))
