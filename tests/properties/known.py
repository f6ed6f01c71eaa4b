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


_DISCRETE = ("lower", "higher", "nearest", "midpoint")


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
