"""Differences from numpy that a library keeps on purpose, each listed in
docs/testing.md ("Known differences").

No drawn input is skipped for them. Where an entry applies to a drawn example, the
property runner still compares every value with numpy's and checks the dtype kind;
only the float or integer *width* may differ, as the entry says. Each entry also
names one exact input that ``test_differences.py`` runs against numpy as a strict
xfail, so that the day the library (or a table) matches numpy, the entry must go.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Difference:
    backend: str
    names: tuple[str, ...]
    applies: Callable[..., bool]  # (reference, args, kwargs) -> whether it shows
    why: str
    example: tuple[str, tuple]  # (name, numpy args): an exact input that shows it


def _weak(a: Any) -> Any:
    return a.item() if isinstance(a, np.ndarray) and a.ndim == 0 else a


def zero_d_widens(ref: Callable, args: tuple, kwargs: dict) -> bool:
    """numpy 2 (NEP 50) lets a 0-d *array* widen the result (float32 data and a 0-d
    float64 array give float64) but not a Python scalar; torch treats 0-d tensors like
    Python scalars. The difference shows exactly where numpy's result dtype changes
    when the 0-d arrays are replaced by Python scalars."""
    if not any(isinstance(a, np.ndarray) and a.ndim == 0 for a in args):
        return False
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            strong = np.asarray(ref(*args, **kwargs)).dtype
            weak = np.asarray(ref(*map(_weak, args), **kwargs)).dtype
        except Exception:
            return False
    return bool(strong != weak)


TORCH_ZERO_D = (
    "add subtract multiply divide true_divide floor_divide power float_power mod "
    "remainder fmod maximum minimum fmax fmin arctan2 hypot logaddexp logaddexp2 "
    "copysign nextafter heaviside equal not_equal less less_equal greater greater_equal "
    "logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor left_shift "
    "right_shift gcd lcm ldexp atan2 bitwise_left_shift bitwise_right_shift pow where "
    "clip divide_no_nan divmod"
).split()

DIFFERENCES = (
    Difference(
        "torch",
        tuple(TORCH_ZERO_D),
        zero_d_widens,
        "a 0-d tensor does not widen the result as a 0-d numpy array does (numpy 2, "
        "NEP 50): torch's promotion treats 0-d tensors like Python scalars. Native "
        "functions are kept (no wrapper on the hot path of add, multiply...); the "
        "values are the same, the width is the dimensioned operand's.",
        ("add", (np.zeros(2, np.float32), np.array(1.0))),
    ),
)


def difference(backend: str, name: str) -> Difference | None:
    for d in DIFFERENCES:
        if d.backend == backend and name in d.names:
            return d
    return None
