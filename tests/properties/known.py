"""Bugs the property tests found and that are not fixed yet: (backend, table key) ->
the inputs that trigger them, and a reproducer. Those drawn inputs are skipped
(and counted in the summary); every other input of the pair is still checked.
Remove an entry once its bug is fixed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Known:
    when: Callable[..., bool] | None  # called with the drawn numpy arguments; None: all
    why: str  # the difference from numpy, with a reproducer


KNOWN: dict[tuple[str, str], Known] = {}


def _singular(a: Any, *args: Any, **kwargs: Any) -> bool:
    """A singular (or non-square) matrix: LU must still factor it."""
    a = np.asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or a.size == 0:
        return True
    return bool(np.any(np.abs(np.linalg.det(a)) < 1e-6))


def _empty_or_0d(*arrays: Any) -> bool:
    flat: list = []
    for a in arrays:
        flat.extend(a if isinstance(a, (list, tuple)) else [a])
    return any(np.ndim(a) == 0 or np.size(a) == 0 for a in flat)


def _x_empty(x: Any, *args: Any, **kwargs: Any) -> bool:
    return np.size(x) == 0


def _batched_empty(a: Any, *args: Any, **kwargs: Any) -> bool:
    return np.ndim(a) > 2 and np.size(a) == 0


_DISCRETE = ("lower", "higher", "nearest", "midpoint")

KNOWN.update({
    ("dask", "argwhere"): Known(
        lambda x: np.ndim(x) == 0,
        "0-d input fails: do('argwhere', da.asarray(np.array(0.))) raises ValueError "
        "(unknown chunk sizes); numpy returns an empty (0, 0) array",
    ),
    ("dask", "histogram"): Known(
        lambda x, **kw: np.asarray(x).dtype == np.float32 and not isinstance(kw.get("bins"),
                                                                             np.ndarray),
        "bin edges of float32 data are float64 (numpy: float32): "
        "do('histogram', da.asarray(np.zeros(3, 'float32')))[1].dtype",
    ),
    ("dask", "select"): Known(
        lambda conds, choices, **kw: _empty_or_0d(conds, choices)
        or len({np.shape(a) for a in [*conds, *choices]}) > 1,
        "dask's select neither broadcasts nor takes 0-d or empty arrays: do('select', "
        "[da.asarray(np.array([False]))], [da.asarray(np.zeros((1, 1)))]) raises ValueError "
        "(numpy broadcasts to (1, 1)); so does a 0-d condition",
    ),
    ("sparse", "bincount"): Known(
        _x_empty,
        "empty input: do('bincount', sparse.COO.from_numpy(np.zeros(0, 'int64'))) raises "
        "IndexError; numpy returns an empty int64 array",
    ),
    ("sparse", "sort"): Known(
        _x_empty, "empty input: do('sort', as_sparse(np.zeros(0))) raises ValueError "
        "('cannot convert float NaN to integer')",
    ),
    ("sparse", "sort|nan"): Known(_x_empty, "as ('sparse', 'sort')"),
    ("sparse", "nanmean"): Known(
        _x_empty, "nanmean of an empty float32 array is float64 (numpy: float32 nan)",
    ),
    ("sparse", "select"): Known(
        lambda conds, choices, **kw: any(np.asarray(c).dtype == np.float32 for c in choices),
        "float32 choices give a float64 result (numpy: float32): do('select', "
        "[as_sparse(np.array([True]))], [as_sparse(np.ones(1, 'float32'))]).dtype",
    ),
    ("sparse", "linalg.det"): Known(_batched_empty, "an empty batch (0, n, n) raises IndexError"),
    ("sparse", "linalg.slogdet"): Known(_batched_empty, "as ('sparse', 'linalg.det')"),
    ("sparse", "linalg.inv"): Known(_batched_empty, "as ('sparse', 'linalg.det')"),
    ("sparse", "linalg.lu"): Known(
        _singular,
        "singular matrices raise RuntimeError ('Factor is exactly singular', SuperLU) and "
        "non-square ones ValueError; scipy.linalg.lu factors both",
    ),
    ("sparse", "scipy.linalg.lu"): Known(_singular, "as ('sparse', 'linalg.lu')"),
    ("sparse", "scipy.linalg.lu_solve"): Known(
        None,
        "WRONG RESULT from the composed lu_solve (translations/_composed/matrices.py) on "
        "sparse arrays: lu, piv = scipy.linalg.lu_factor(a) for a = [[7.75, .25, 0], "
        "[-.5, 6.5, -1], [-1, -1, 6.25]] (float32), b = [.75, .25, 1]: numpy "
        "[0.0944, 0.0745, 0.187], sparse [0.0887, 0, 0]",
    ),
    ("tensorflow", "linalg.lu"): Known(
        _singular,
        "tf.linalg.lu refuses singular matrices (InvalidArgumentError 'Input is not "
        "invertible'): do('linalg.lu', tf.zeros((1, 1))); scipy factors them",
    ),
    ("tensorflow", "scipy.linalg.lu"): Known(_singular, "as ('tensorflow', 'linalg.lu')"),
})


def _nearest(*args: Any, **kwargs: Any) -> bool:
    return kwargs.get("method") == "nearest"


_NEAREST = (
    "method='nearest' rounds a virtual index halfway between two values down where numpy "
    "rounds half to even: do('percentile', jnp.asarray([.25, .25, -.75, -.75]), 50.0, "
    "method='nearest') is -0.75, numpy 0.25"
)
KNOWN.update({
    ("jax", "nanmedian"): Known(
        lambda x, **kw: np.ndim(x) == 0 and bool(kw.get("keepdims")),
        "0-d input with keepdims=True has shape (1,) (numpy: ()): "
        "do('nanmedian', jnp.asarray(0.0), keepdims=True).shape",
    ),
    **{("jax", n): Known(_nearest, _NEAREST)
       for n in ("quantile", "percentile", "nanquantile", "nanpercentile")},
    ("jax", "linalg.lu"): Known(
        lambda a, **kw: np.ndim(a) > 2,
        "stacks of matrices fail: do('linalg.lu', jnp.ones((2, 2, 2)) + 2 * jnp.eye(2)) "
        "raises ValueError (too many values to unpack); scipy factors each matrix",
    ),
    ("jax", "scipy.linalg.lu"): Known(lambda a, **kw: np.ndim(a) > 2, "as ('jax', 'linalg.lu')"),
})


def _zero_d_promotion(*args: Any, **kwargs: Any) -> bool:
    """Arrays of different dtypes, one of them 0-d and another not: numpy 2 promotes by
    dtype (a 0-d float64 array makes float32 data float64), torch lets the dimensioned
    operand's dtype win within a kind."""
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    zero = {a.dtype for a in arrays if a.ndim == 0}
    full = {a.dtype for a in arrays if a.ndim > 0}
    return bool(zero and full and (zero | full) != full)


_TORCH_0D = (
    "a 0-d array of a wider dtype does not widen the result, as numpy 2 (NEP 50) does: "
    "do('add', torch.zeros(2), torch.tensor(1.0, dtype=torch.float64)).dtype is float32, "
    "numpy float64 (also maximum, where, clip...: torch's promotion of 0-d tensors)"
)
KNOWN.update({
    ("torch", name): Known(_zero_d_promotion, _TORCH_0D)
    for name in (
        "add subtract multiply divide true_divide floor_divide power float_power mod "
        "remainder fmod maximum minimum fmax fmin arctan2 hypot logaddexp logaddexp2 "
        "copysign nextafter heaviside equal not_equal less less_equal greater greater_equal "
        "logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor left_shift "
        "right_shift gcd lcm ldexp atan2 bitwise_left_shift bitwise_right_shift pow where "
        "clip divide_no_nan"
    ).split()
})


def _float_with_complex(*args: Any, **kwargs: Any) -> bool:
    kinds = {np.asarray(a).dtype.kind for a in args}
    return "c" in kinds and bool(kinds - {"c"})


KNOWN.update({
    **{("tensorflow", n): Known(
        _float_with_complex,
        "a complex operand beside a real one loses its imaginary part: "
        "do('logical_and', tf.constant([0.25], tf.float32), tf.constant([0.25j])) is "
        "[False], numpy [True]",
    ) for n in ("logical_and", "logical_or", "logical_xor")},
    ("tensorflow", "mean"): Known(
        lambda x, **kw: np.asarray(x).dtype.kind == "c" and np.size(x) == 0,
        "the mean of an empty complex array is 0j (numpy nan+nanj): "
        "do('mean', tf.zeros((0,), tf.complex64))",
    ),
    ("tensorflow", "pad"): Known(
        lambda x, *a, **kw: np.ndim(x) == 0,
        "0-d arrays fail: do('pad', tf.constant(0.0), 0) raises InvalidArgumentError "
        "(numpy returns the 0-d array)",
    ),
})


# torch's argmax and einsum stay the native functions (tests/translations/test_torch.py
# keeps them wrapper-free for the overhead benchmark), so these gaps are not patched there
KNOWN.update({
    **{("torch", n): Known(
        lambda x, **kw: np.asarray(x).dtype == np.bool_,
        f"bool input raises RuntimeError: do('{n}', torch.tensor([False, True])) "
        "(numpy orders False < True)",
    ) for n in ("argmax", "argmin")},
    ("torch", "einsum"): Known(
        lambda spec, *ops, **kw: any(np.asarray(o).dtype == np.int32 for o in ops),
        "int32 operands give int64 (numpy keeps int32): "
        "do('einsum', 'ii', torch.ones((2, 2), dtype=torch.int32)).dtype",
    ),
})
